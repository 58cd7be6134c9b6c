"""Fixtures shared by every test: git identity, and a real repository with real linked worktrees."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

# In CI the property tests replay the same examples every run (a failure there is then reproducible, not a
# coin toss); on a developer's machine they explore new ones each time. `.ci/run` sets CI=true itself, so a local
# `bash .ci/run` replays exactly what CI replays (tests/test_ci_profile.py).
settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

from tests.helpers import Repo, isolate_environment, make_repo


@pytest.fixture(autouse=True)
def _isolated_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Every test, not only those that ask for `repo`: a test that builds its own repository (or none) must
    # not read the developer's ~/.config/worktree-guard or ~/.claude/agents either.
    isolate_environment(monkeypatch, tmp_path / "test-home")  # not "home": tests build client homes there


@pytest.fixture(autouse=True)
def _no_daemon(monkeypatch: pytest.MonkeyPatch) -> None:
    # Hook processes judge in-process unless a test asks for the daemon (tests/test_daemon.py): a daemon per
    # test's HOME would be hundreds of idle processes.
    monkeypatch.setenv("WT_GUARD_DAEMON", "0")


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    """A main checkout with real linked worktrees, in this test's temp dir (HOME is isolated already)."""
    return make_repo(tmp_path / "work")


@pytest.fixture
def temp_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The system temp dir and $TMPDIR moved to `tmp_path/systmp`, so that this test's repositories and HOME lie
    outside the default allow-list, as they do on a user's machine (an agent cannot write them)."""
    import tempfile

    elsewhere = tmp_path / "systmp"
    elsewhere.mkdir()
    monkeypatch.setenv("TMPDIR", str(elsewhere))
    monkeypatch.setattr(tempfile, "tempdir", str(elsewhere))
    return elsewhere
