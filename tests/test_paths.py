"""canonical() and inside() exactly as SPEC §2 defines them."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from worktree_guard.paths import PathPatterns, canonical, deepest_root, expand_user, inside


@pytest.mark.parametrize("path,root,expected", [
    ("/repo", "/repo", True),
    ("/repo/a/b", "/repo", True),
    ("/repo-evil", "/repo", False),
    ("/repo-evil/x", "/repo", False),
    ("/rep", "/repo", False),
    ("/", "/repo", False),
    ("/anything", "/", True),
])
def test_inside_is_component_wise(path: str, root: str, expected: bool) -> None:
    assert inside(path, root) is expected


def test_canonical_joins_relative_paths_to_cwd_and_collapses_dots(tmp_path: Path) -> None:
    base = os.path.realpath(tmp_path)
    assert canonical("a/./b/../c", base) == f"{base}/a/c"
    assert canonical("../x", f"{base}/sub") == f"{base}/x"
    assert canonical("/a//b/", "/") == "/a/b"


def test_canonical_expands_tilde(tmp_path: Path) -> None:
    assert canonical("~/f", "/", home=str(tmp_path)) == f"{os.path.realpath(tmp_path)}/f"
    assert expand_user("~root/x") == "/root/x"
    assert expand_user("~no-such-user-xyz/x") == "~no-such-user-xyz/x"
    assert expand_user("a~/x") == "a~/x"


def test_symlinks_resolved_on_the_longest_existing_prefix(tmp_path: Path) -> None:
    base = Path(os.path.realpath(tmp_path))
    (base / "real").mkdir()
    (base / "w").mkdir()
    (base / "w" / "link").symlink_to(base / "real")
    assert canonical("link/not/yet/there", str(base / "w")) == f"{base}/real/not/yet/there"
    # `..` after a symlink is physical, as the kernel resolves it.
    (base / "real" / "deep").mkdir()
    (base / "w" / "dlink").symlink_to(base / "real" / "deep")
    assert canonical("dlink/../x", str(base / "w")) == f"{base}/real/x"


def test_device_paths_are_not_resolved() -> None:
    assert canonical("/dev/stdout", "/") == "/dev/stdout"
    # /dev/fd is /proc/self/fd: its `..` is the opening process's /proc/self, kept as written (stop 36), not /dev
    assert canonical("/dev/fd/../null", "/") == "/dev/fd/../null"
    assert canonical("/dev/../dev/null", "/") == "/dev/null"


def test_deepest_root_prefers_the_nested_checkout() -> None:
    roots = ["/repo", "/repo/.claude/worktrees/b", "/other"]
    assert deepest_root("/repo/.claude/worktrees/b/x", roots) == "/repo/.claude/worktrees/b"
    assert deepest_root("/repo/x", roots) == "/repo"
    assert deepest_root("/nowhere", roots) is None


def test_patterns_for_absolute_paths_cover_directories_and_globs(tmp_path: Path) -> None:
    base = os.path.realpath(tmp_path)
    patterns = PathPatterns([base + "/scratch", "/dev/fd/*", "~/.claude/plans/**"], home="/home/u")
    assert patterns.matches(base + "/scratch")
    assert patterns.matches(base + "/scratch/a/b")
    assert not patterns.matches(base + "/scratch-other/a")
    assert patterns.matches("/dev/fd/3")
    assert patterns.matches("/home/u/.claude/plans/p.md")
    assert not patterns.matches("/home/u/.claude/settings.json")


def test_relative_patterns_match_paths_relative_to_w() -> None:
    protect = PathPatterns([".git", ".git/**", "secrets/*.key"], absolute=False)
    assert protect.matches(".git") and protect.matches(".git/config") and protect.matches("secrets/a.key")
    assert not protect.matches("src/git.py") and not protect.matches(".github/workflows/ci.yml")


def test_cleaned_drops_dotdot_as_text_before_resolving_symlinks(tmp_path: Path) -> None:
    """A client's reading of `a/../x` (a dropped as text) against the kernel's (a resolved first)."""
    from worktree_guard.paths import cleaned

    base = Path(os.path.realpath(tmp_path))
    (base / "p" / "q").mkdir(parents=True)
    (base / "a").symlink_to("p/q")
    (base / "link").symlink_to("p")
    assert canonical("a/../x", str(base)) == str(base / "p" / "x")
    assert cleaned("a/../x", str(base)) == str(base / "x")
    assert cleaned("link/q/../x", str(base)) == str(base / "p" / "x")  # symlinks are still resolved, after the text
    assert cleaned("p/q/../x", str(base)) == canonical("p/q/../x", str(base)) == str(base / "p" / "x")


def test_a_policy_has_two_forms_only_for_a_dotdot_after_a_symlink(repo) -> None:  # noqa: ANN001
    from worktree_guard.layout import find_layout
    from worktree_guard.policy import PathPolicy

    (repo.outside / "p" / "q").mkdir(parents=True)
    (repo.outside / "a").symlink_to("p/q")
    policy = PathPolicy(find_layout(str(repo.outside)), [], [])
    w = str(repo.outside)
    assert policy.forms("a/x", w) == [f"{w}/p/q/x"]
    assert policy.forms("p/q/../x", w) == [f"{w}/p/x"]
    assert policy.forms("a/../../repo/x", w) == [f"{w}/repo/x", str(repo.main / "x")]
    judgement = policy.judge("a/../../repo/x", w)
    assert (judgement.place, judgement.resolved, judgement.shared_root) == ("shared", str(repo.main / "x"), str(repo.main))
