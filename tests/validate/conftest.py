"""Fixtures of the validate tests (helpers in validate_helpers.py, a unique module name)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
import pytest

from tests.helpers import Repo
from tests.validate.helpers import Run, sessions_factory, validate_runner


@pytest.fixture
def sessions(repo: Repo, tmp_path: Path) -> Callable[[str], Path]:
    """`sessions("escapes")`: that fixture folder rendered for `repo`, in a fresh directory."""
    return sessions_factory(repo, tmp_path)


@pytest.fixture
def validate(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """`validate(path, "--mode", "audit")`: the command run in-process with --format json (unless given)."""
    return validate_runner(capsys)
