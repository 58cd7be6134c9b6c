"""Fixtures of the end-to-end suite: the pinned Claude Code CLI, the fake API, a scratch world per test.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .claude_cli import WAVE_VERSION, CliUnavailable, ensure_cli
from .fake_anthropic import FakeAnthropic
from .harness import Sandbox

@pytest.fixture(scope="session")
def claude_cli() -> Path:
    """The pinned CLI, installed from npm on first use; the suite is skipped only without node/npm."""
    try:
        return ensure_cli()
    except CliUnavailable as e:
        pytest.skip(str(e))


@pytest.fixture
def sandbox(tmp_path: Path, claude_cli: Path) -> Iterator[Sandbox]:
    with FakeAnthropic() as fake:
        yield Sandbox(base=tmp_path / "e2e", cli=claude_cli, fake=fake)


@pytest.fixture(scope="session")
def wave_cli() -> Path:
    """The CLI of the wave and fork scenarios (WAVE_VERSION: background sub-agents, forks)."""
    try:
        return ensure_cli(WAVE_VERSION)
    except CliUnavailable as e:
        pytest.skip(str(e))


@pytest.fixture
def wave_sandbox(tmp_path: Path, wave_cli: Path) -> Iterator[Sandbox]:
    with FakeAnthropic() as fake:
        yield Sandbox(base=tmp_path / "e2e", cli=wave_cli, fake=fake)
