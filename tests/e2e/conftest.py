"""Fixtures of the end-to-end suite: the pinned Claude Code CLI, the fake API, a scratch world per test.

Tests marked `needs_dispatch_rules` exercise rules that land in other branches; they are
skipped only while the rule's module is absent from this checkout, and run (and must pass) once it is there.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from .claude_cli import CliUnavailable, ensure_cli
from .fake_anthropic import FakeAnthropic
from .harness import Sandbox

RULE_MODULES = {
    "needs_dispatch_rules": "worktree_guard.rules.dispatch",
}


def _missing(module: str) -> bool:
    """True only when `module` itself does not exist; any other import failure is the test's to report."""
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name and (module == e.name or module.startswith(e.name + ".")):
            return True
        raise
    return False


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker, module in RULE_MODULES.items():
        if item.get_closest_marker(marker) is not None and _missing(module):
            pytest.skip(f"{module} is not in this checkout yet; this scenario runs once it lands")


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
