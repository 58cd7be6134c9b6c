"""A directory the guard cannot read is unknown, not empty: the symlink scan of an extraction target and of
find's start points (rules/indirection.py `escaping_links`) says so, and the command is judged as with one.

The tests run as root in CI, where permissions do not stop a read, so the unreadable directory is made by
making os.scandir fail on it, as it fails for a user without the permission.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from tests.helpers import Repo
from tests.test_bash_rules import bash, world  # noqa: F401  (the fixture)


@pytest.fixture
def unreadable(world: Repo, monkeypatch: pytest.MonkeyPatch) -> Path:  # noqa: F811
    """src/locked in the agent's worktree, which os.scandir cannot read (EACCES); nothing else changes."""
    locked = world.worktree / "src" / "locked"
    locked.mkdir(parents=True)
    scandir = os.scandir

    def refusing(path: object = ".") -> object:
        if os.fspath(path) == str(locked):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    return locked


def codes(repo: Repo, command: str) -> set[str] | str:
    verdict = bash(repo, command)
    if verdict.decision == "pass":
        return "pass"
    return {v.code for v in verdict.violations if v.severity == "error"}


def test_an_extraction_into_a_tree_with_an_unreadable_directory_is_unknown(world: Repo, unreadable: Path) -> None:  # noqa: F811
    verdict = bash(world, "tar -xf /tmp/t.tar -C src")
    assert verdict.decision == "deny" and {v.code for v in verdict.violations} == {"WG403"}
    assert "a directory it cannot read" in verdict.violations[0].message
    assert codes(world, "unzip -qo /tmp/z.zip -d src") == {"WG403"}
    assert codes(world, "mkdir -p out && tar -xf /tmp/t.tar -C out") == "pass"  # out does not exist yet: empty
    assert codes(world, "tar -xf /tmp/t.tar -C src/locked/..") == {"WG403"}


def test_find_execs_below_an_unreadable_directory_take_its_paths_as_unknown(world: Repo, unreadable: Path) -> None:  # noqa: F811
    assert codes(world, "find src -name '*.txt' -exec rm {} \\;") == {"WG403"}
    assert codes(world, "find src -type f -exec rm {} \\;") == "pass"  # -type f: no link is followed
    assert codes(world, "find src -name '*.txt'") == "pass"  # no action


def test_the_same_commands_pass_when_the_directory_can_be_read(world: Repo) -> None:  # noqa: F811
    (world.worktree / "src" / "locked").mkdir(parents=True)
    assert codes(world, "tar -xf /tmp/t.tar -C src") == "pass"
    assert codes(world, "find src -name '*.txt' -exec rm {} \\;") == "pass"
