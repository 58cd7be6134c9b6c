"""The tests themselves run in isolation from the developer's machine (issue 13, item 13).

A developer's `~/.config/worktree-guard/config.toml` with `mode = "off"`, or a `WORKTREE_GUARD_MODE` left in the
shell, once made the property tests fail (or pass for the wrong reason): only the `repo` fixture isolated HOME.
"""

from __future__ import annotations

import os
from pathlib import Path

from tests.helpers import GIT_ENV


def test_every_test_has_its_own_home_and_no_guard_settings(tmp_path: Path) -> None:
    """No `repo` fixture asked for: the isolation is for every test."""
    home = tmp_path / "test-home"
    assert os.environ["HOME"] == str(home) and home.is_dir()
    assert os.environ["XDG_CONFIG_HOME"] == str(home / ".config")
    assert os.environ["XDG_STATE_HOME"] == str(home / ".local" / "state")
    assert "CLAUDE_CONFIG_DIR" not in os.environ
    assert [key for key in os.environ if key.startswith("WORKTREE_GUARD_")] == []
    assert {key: os.environ.get(key) for key in GIT_ENV} == GIT_ENV
