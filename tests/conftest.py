"""Fixtures shared by every test: git identity, and a real repository with real linked worktrees."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import GIT_ENV, Repo, make_repo


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in GIT_ENV.items():
        monkeypatch.setenv(key, value)


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Repo:
    # Keep the developer's own configuration and agent definitions out of the tests.
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    for key in list(os.environ):
        if key.startswith("WORKTREE_GUARD_"):
            monkeypatch.delenv(key)
    return make_repo(tmp_path / "work")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `needs_bash_rules` are skipped only while the Bash rules are not installed."""
    try:
        import worktree_guard.rules.shell_cd  # noqa: F401
    except ImportError as e:
        skip = pytest.mark.skip(reason=f"needs the Bash rules: worktree_guard.rules.shell_cd cannot be imported ({e})")
        for item in items:
            if "needs_bash_rules" in item.keywords:
                item.add_marker(skip)
