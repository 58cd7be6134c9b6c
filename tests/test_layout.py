"""W and S found by reading git's files only (SPEC §3)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers import Repo, git
from worktree_guard.layout import LayoutUnknown, find_layout, git_checkouts_at, read_git_core


def test_linked_worktree(repo: Repo) -> None:
    layout = find_layout(str(repo.worktree / "src"))
    assert layout.worktree_root == str(repo.worktree)
    assert layout.linked
    assert set(layout.shared_roots) == {str(repo.main), str(repo.sibling), str(repo.outside)}
    assert layout.common_dir == str(repo.main / ".git")


def test_main_worktree(repo: Repo) -> None:
    layout = find_layout(str(repo.main / "src"))
    assert layout.worktree_root == str(repo.main) and not layout.linked
    assert set(layout.shared_roots) == {str(repo.worktree), str(repo.sibling), str(repo.outside)}


def test_outside_git(tmp_path: Path) -> None:
    layout = find_layout(os.path.realpath(tmp_path))
    assert layout.worktree_root is None and layout.shared_roots == [] and layout.source == "outside git"


@pytest.mark.parametrize("place", ["/proc/self/cwd", "/proc/thread-self/cwd/..", "/proc/1/../self/cwd/../.."])
def test_a_place_in_a_process_own_proc_directory_is_unknown(repo: Repo, place: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`/proc/self` is the process that opens it: to git it is git's cwd, to the guard its own (stop 36). Here the
    guard's cwd is the main checkout, which a lookup through the kernel would have found."""
    monkeypatch.chdir(repo.main)
    with pytest.raises(LayoutUnknown, match="own /proc directory"):
        find_layout(place)
    with pytest.raises(LayoutUnknown, match="own /proc directory"):
        git_checkouts_at(place)
    assert git_checkouts_at("/proc") == []  # /proc itself is no process's directory
    with pytest.raises(LayoutUnknown, match="own /proc directory"):
        git_checkouts_at("/proc/1/cwd")  # a pid's directory is read as a process's own (review 38: it may change)


def test_bare_repository_worktrees(tmp_path: Path, repo: Repo) -> None:
    bare = Path(os.path.realpath(tmp_path)) / "b.git"
    git("clone", "-q", "--bare", str(repo.main), str(bare), cwd=tmp_path)
    a, b = bare.parent / "a", bare.parent / "b"
    git("worktree", "add", "-q", str(a), "main", cwd=bare)
    git("worktree", "add", "-q", "-b", "x", str(b), cwd=bare)
    layout = find_layout(str(a))
    assert layout.worktree_root == str(a) and layout.linked
    assert layout.shared_roots == [str(b)]  # no main worktree in a bare repository
    inside_bare = find_layout(str(bare / "refs"))
    assert inside_bare.worktree_root is None and set(inside_bare.shared_roots) == {str(a), str(b)}


def test_relative_gitdir_links(repo: Repo) -> None:
    """git ≥ 2.48 can write relative paths (worktree.useRelativePaths); read them as such."""
    entry = repo.main / ".git" / "worktrees" / repo.worktree.name
    (entry / "gitdir").write_text(os.path.relpath(repo.worktree / ".git", entry) + "\n")
    (repo.worktree / ".git").write_text("gitdir: " + os.path.relpath(entry, repo.worktree) + "\n")
    layout = find_layout(str(repo.worktree))
    assert layout.worktree_root == str(repo.worktree) and layout.linked
    assert str(repo.main) in layout.shared_roots
    assert str(repo.worktree) in find_layout(str(repo.main)).shared_roots


def test_core_worktree_moves_the_main_checkout(tmp_path: Path) -> None:
    base = Path(os.path.realpath(tmp_path))
    (base / "tree").mkdir()
    git("init", "-q", "--separate-git-dir", str(base / "meta.git"), str(base / "tree"), cwd=base)
    layout = find_layout(str(base / "tree"))
    assert layout.worktree_root == str(base / "tree")
    git("config", "core.worktree", str(base / "tree"), cwd=base / "tree")
    assert find_layout(str(base / "tree")).worktree_root == str(base / "tree")


def test_worktree_config_extension(repo: Repo) -> None:
    git("config", "extensions.worktreeConfig", "true", cwd=repo.main)
    core = read_git_core(str(repo.main / ".git" / "config"))
    assert core["extensions.worktreeconfig"] == "true"
    layout = find_layout(str(repo.worktree))
    assert layout.worktree_root == str(repo.worktree) and str(repo.main) in layout.shared_roots


def test_layout_starts_no_git_process(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("layout started a process")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    monkeypatch.setattr(os, "fork", refuse)
    assert find_layout(str(repo.worktree)).linked


def test_git_config_reader_handles_tabs_comments_and_subsections(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text('[core]\n\tbare = true ; comment\n\tWorkTree = "/x y"\n[remote "origin"]\n\tbare = false\n[core] worktree = /z\n')
    assert read_git_core(str(config)) == {"core.bare": "true", "core.worktree": "/z"}
