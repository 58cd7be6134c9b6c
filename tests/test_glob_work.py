"""Paths a glob stands for are counted as work (review of issue 12, R2).

Each path a glob expands to is judged (resolved and placed) by the rule that asked for it. `rm d/* d/* …` with
220 words over a directory of 1,999 files made 440,000 judgements: 20 s, then the watchdog's WG000. The paths
are now counted in one meter per command (shell/state.py MAX_GLOB_PATHS) and past it the command is over the
budget (WG901), whatever the machine's load: the verdict is decided by the count, never by a clock.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Repo, run_hook_inline, subagent_payload
from worktree_guard.shell import state

FILES = 1_999


@pytest.fixture
def crowded(repo: Repo) -> Path:
    directory = repo.worktree / "d"
    directory.mkdir()
    for i in range(FILES):
        (directory / f"f{i:04}").write_text("")
    return directory


def bash(repo: Repo, command: str):
    return run_hook_inline(subagent_payload(repo, "Bash", {"command": command}))


def test_a_glob_over_a_crowded_directory_in_w_is_judged(repo: Repo, crowded: Path) -> None:
    assert bash(repo, "rm d/*").decision == "pass"
    assert bash(repo, "rm d/*").codes == []


def test_globs_past_the_budget_are_over_it(repo: Repo, crowded: Path) -> None:
    words = state.MAX_GLOB_PATHS // FILES + 1
    result = bash(repo, "rm " + " ".join(["d/*"] * words))
    assert result.codes == ["WG901"]
    assert f"more than {state.MAX_GLOB_PATHS} paths" in result.reason


def test_the_reviewers_command_is_over_the_budget_not_the_clock(repo: Repo, crowded: Path) -> None:
    command = "rm " + " ".join(["d/*"] * 220)
    assert len(command.encode()) == 882
    result = bash(repo, command)
    assert result.codes == ["WG901"]  # was WG000: "took longer than 20 s"


def test_a_listing_is_counted_once_and_each_use_of_its_paths_each_time() -> None:
    work = state.GlobWork()
    work.charge(state.MAX_GLOB_PATHS)
    with pytest.raises(state.BudgetExceeded):
        work.charge(1)
    shared = state.ShellState(cwd="/")
    assert shared.copy().globs is shared.globs
