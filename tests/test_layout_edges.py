"""Layout functions the decisions lean on, at their edges: which checkout owns a git dir, and W set by configuration.

Written from the mutation run's survivors in `layout.py` (bench/mutation.py).
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.helpers import Repo, git, payload, run_hook_inline, subagent_payload
from worktree_guard.engine import scope_for
from worktree_guard.layout import owner_of_git_dir, with_explicit_root


def test_the_owner_of_each_kind_of_git_dir(repo: Repo, tmp_path: Path) -> None:
    common = repo.main / ".git"
    assert owner_of_git_dir(str(common)) == str(repo.main)
    for checkout in (repo.worktree, repo.sibling, repo.outside):
        entry = common / "worktrees" / checkout.name
        assert owner_of_git_dir(str(entry)) == str(checkout), checkout
    bare = Path(os.path.realpath(tmp_path)) / "b.git"
    git("clone", "-q", "--bare", str(repo.main), str(bare), cwd=tmp_path)
    assert owner_of_git_dir(str(bare)) is None  # a bare repository has no checkout of its own
    assert owner_of_git_dir(str(tmp_path)) is None  # not a git dir at all


def test_the_owner_of_a_git_dir_whose_core_worktree_is_elsewhere(tmp_path: Path) -> None:
    base = Path(os.path.realpath(tmp_path))
    (base / "repo").mkdir()
    (base / "tree").mkdir()
    git("init", "-q", "-b", "main", cwd=base / "repo")
    git("config", "core.worktree", "../../tree", cwd=base / "repo")
    assert owner_of_git_dir(str(base / "repo" / ".git")) == str(base / "tree")


def test_git_dir_of_a_sibling_worktree_is_that_worktree(repo: Repo) -> None:
    """`GIT_DIR=<common>/worktrees/<sibling>` switches the sibling's branch, wherever git runs."""
    git("branch", "feature", cwd=repo.main)
    entry = repo.main / ".git" / "worktrees" / repo.sibling.name
    result = run_hook_inline(subagent_payload(repo, "Bash", {"command": f"GIT_DIR={entry} git switch feature"}))
    assert result.decision == "deny" and result.codes == ["WG301"]
    assert f"shared checkout {repo.sibling};" in result.reason


def test_a_configured_root_with_configured_shared_roots(repo: Repo, tmp_path: Path) -> None:
    extra = Path(os.path.realpath(tmp_path)) / "extra"
    extra.mkdir()
    layout = with_explicit_root(str(repo.worktree), [str(extra), str(repo.main), str(repo.worktree)])
    assert layout.worktree_root == str(repo.worktree) and layout.source == "configuration"
    assert layout.linked and layout.common_dir == str(repo.main / ".git")
    # Detected shared roots first, each once; the extra one added; W itself never.
    assert layout.shared_roots == [str(repo.main), str(repo.sibling), str(repo.outside), str(extra)]
    flags = {"worktree_root": str(repo.worktree), "shared_roots": [str(extra)]}
    result = run_hook_inline(subagent_payload(repo, "Write", {"file_path": str(extra / "f"), "content": "x"}), flags=flags)
    assert result.decision == "deny" and result.codes == ["WG101"]


def test_a_configured_root_outside_any_repository(tmp_path: Path) -> None:
    root = Path(os.path.realpath(tmp_path)) / "plain"
    root.mkdir()
    layout = with_explicit_root(str(root))
    assert layout.worktree_root == str(root) and layout.shared_roots == [] and not layout.linked
    data = payload(root, "Write", {"file_path": str(root / "a.txt"), "content": "x"})
    assert run_hook_inline(data, flags={"isolated": True, "worktree_root": str(root)}).stdout == ""
    outside = payload(root, "Write", {"file_path": "/opt/wg-test-nowhere/a", "content": "x"})
    assert run_hook_inline(outside, flags={"isolated": True, "worktree_root": str(root)}).codes == ["WG102"]


def test_a_configured_root_keeps_the_repositorys_git_dir_shared(repo: Repo, tmp_path: Path) -> None:
    """A bare repository's git dir lies outside every checkout (here in the allow-listed temp dir): still shared."""
    base = Path(os.path.realpath(tmp_path))
    bare = base / "b.git"
    git("clone", "-q", "--bare", str(repo.main), str(bare), cwd=base)
    wt = base / "wt"
    git("worktree", "add", "-q", str(wt), "main", cwd=bare)
    scope = scope_for(str(wt), None, flags={"worktree_root": str(wt)})
    assert scope.layout.source == "configuration" and scope.layout.common_dir == str(bare)
    data = payload(wt, "Write", {"file_path": str(bare / "hooks" / "pre-commit"), "content": "x"}, agent_id="a1", agent_type="t")
    result = run_hook_inline(data, flags={"worktree_root": str(wt)})
    assert result.decision == "deny" and result.codes == ["WG101"]
