"""Fixtures shared by every test: git identity, and a real repository with real linked worktrees."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# In CI the property tests replay the same examples every run (a failure there is then reproducible, not a
# coin toss); on a developer's machine they explore new ones each time.
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

from tests.helpers import GIT_ENV, Repo, make_repo


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)


@pytest.fixture(autouse=True)
def _no_daemon(monkeypatch: pytest.MonkeyPatch) -> None:
    # Hook processes judge in-process unless a test asks for the daemon (tests/test_daemon.py): a daemon per
    # test's HOME would be hundreds of idle processes.
    monkeypatch.setenv("WT_GUARD_DAEMON", "0")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Repo:
    # Keep the developer's own configuration and agent definitions out of the tests.
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))  # the leak check's snapshots
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    for key in list(os.environ):
        if key.startswith("WORKTREE_GUARD_"):
            monkeypatch.delenv(key)
    return make_repo(tmp_path / "work")
