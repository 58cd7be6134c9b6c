"""Fixtures of the end-to-end suite: the pinned Claude Code CLI, the fake API, a scratch world per test.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .claude_cli import VERSION, WAVE_VERSION, CliUnavailable, ensure_cli
from .clients import AGENT_SDK, CLINE, CODEX, COPILOT, GEMINI, Client, ClientUnavailable
from .fake_anthropic import FakeAnthropic
from .harness import Sandbox


def _installed(version: str) -> Path:
    """A CLI version, installed from npm on first use; the suite is skipped only without node/npm."""
    try:
        return ensure_cli(version)
    except CliUnavailable as e:
        pytest.skip(str(e))
        raise AssertionError from e  # unreachable: pytest.skip raises


@pytest.fixture(scope="session")
def claude_cli() -> Path:
    """The pinned CLI."""
    return _installed(VERSION)


def _world(tmp_path: Path, cli: Path) -> Iterator[Sandbox]:
    with FakeAnthropic() as fake:
        yield Sandbox(base=tmp_path / "e2e", cli=cli, fake=fake)


@pytest.fixture
def sandbox(tmp_path: Path, claude_cli: Path) -> Iterator[Sandbox]:
    yield from _world(tmp_path, claude_cli)


@pytest.fixture(scope="session")
def wave_cli() -> Path:
    """The CLI of the wave and fork scenarios (WAVE_VERSION: background sub-agents, forks)."""
    return _installed(WAVE_VERSION)


@pytest.fixture
def wave_sandbox(tmp_path: Path, wave_cli: Path) -> Iterator[Sandbox]:
    yield from _world(tmp_path, wave_cli)


def _client(client: Client) -> Path:
    """The installed client, or the test skipped with why it could not be installed."""
    try:
        return client.ensure()
    except ClientUnavailable as e:
        pytest.skip(str(e))


@pytest.fixture(scope="session")
def codex() -> Path:
    return _client(CODEX)


@pytest.fixture(scope="session")
def gemini() -> Path:
    return _client(GEMINI)


@pytest.fixture(scope="session")
def copilot() -> Path:
    return _client(COPILOT)


@pytest.fixture(scope="session")
def cline() -> Path:
    return _client(CLINE)


@pytest.fixture(scope="session")
def agent_sdk() -> Path:
    return _client(AGENT_SDK)
