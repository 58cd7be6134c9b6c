"""`core.worktree` and `extensions.worktreeConfig` move the main checkout away from its `.git` (SPEC §3).

The layout tests only pointed `core.worktree` at the directory that already was the checkout, and turned on
worktreeConfig without writing `config.worktree`: the code that reads them could be deleted. Here the main
checkout really lives elsewhere, and every expected root is what real git says (`rev-parse --show-toplevel`).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import git, payload, run_hook_inline
from worktree_guard.layout import find_layout


def toplevel(cwd: Path) -> str:
    return git("rev-parse", "--show-toplevel", cwd=cwd).strip()


def repository(base: Path) -> tuple[Path, Path, Path]:
    """A repository whose `.git` is in `repo/`, with a linked worktree `linked/`, and an empty `tree/`."""
    base = Path(os.path.realpath(base))
    repo, tree, linked = base / "repo", base / "tree", base / "linked"
    repo.mkdir()
    tree.mkdir()
    git("init", "-q", "-b", "main", cwd=repo)
    (repo / "a.txt").write_text("a\n")
    git("add", "-A", cwd=repo)
    git("commit", "-q", "-m", "init", cwd=repo)
    git("worktree", "add", "-q", "-b", "agent", str(linked), cwd=repo)
    return repo, tree, linked


def assert_main_checkout_is(expected: Path, repo: Path, linked: Path, not_it: Path) -> None:
    assert toplevel(repo) == str(expected)  # what git itself says, run where the .git directory is
    main = find_layout(str(repo))
    assert main.worktree_root == str(expected) and not main.linked
    layout = find_layout(str(linked))
    assert layout.worktree_root == str(linked) and layout.linked
    assert str(expected) in layout.shared_roots and str(not_it) not in layout.shared_roots
    # Through the hook: a sub-agent in the linked worktree may not write the real main checkout.
    data = payload(linked, "Write", {"file_path": str(expected / "a.txt"), "content": "x"}, agent_id="a1", agent_type="t")
    result = run_hook_inline(data)
    assert result.decision == "deny" and result.codes == ["WG101"]
    assert f"shared checkout {expected}," in result.reason and f"Use {linked / 'a.txt'} instead." in result.reason


@pytest.mark.parametrize("relative", [True, False], ids=["relative-to-git-dir", "absolute"])
def test_core_worktree_elsewhere_is_the_main_checkout(tmp_path: Path, relative: bool) -> None:
    repo, tree, linked = repository(tmp_path)
    # A relative core.worktree is relative to the git directory, not to the directory that holds it.
    git("config", "core.worktree", "../../tree" if relative else str(tree), cwd=repo)
    assert_main_checkout_is(tree, repo, linked, not_it=repo)


def test_core_worktree_in_config_worktree_counts_only_with_the_extension(tmp_path: Path) -> None:
    repo, tree, linked = repository(tmp_path)
    git("config", "extensions.worktreeConfig", "true", cwd=repo)
    git("config", "--worktree", "core.worktree", "../../tree", cwd=repo)
    assert (repo / ".git" / "config.worktree").read_text().count("worktree = ../../tree") == 1
    assert "worktree" not in (repo / ".git" / "config").read_text().replace("worktreeConfig", "")
    assert_main_checkout_is(tree, repo, linked, not_it=repo)
    # Without the extension git ignores config.worktree, and so must the guard.
    git("config", "--unset", "extensions.worktreeConfig", cwd=repo)
    assert (repo / ".git" / "config.worktree").exists()
    assert_main_checkout_is(repo, repo, linked, not_it=tree)


def test_the_extension_on_without_a_config_worktree_file_changes_nothing(tmp_path: Path) -> None:
    repo, tree, linked = repository(tmp_path)
    git("config", "extensions.worktreeConfig", "true", cwd=repo)
    assert not (repo / ".git" / "config.worktree").exists()
    assert_main_checkout_is(repo, repo, linked, not_it=tree)
