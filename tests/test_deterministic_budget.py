"""A verdict is a pure function of the command and the filesystem (issue 12, defect 4).

Before, the analysis budget was 2 s of wall-clock time: with 128 concurrent calls on 2 cores, `git status && ls`
was refused WG901. The budget now counts work (walk steps, characters parsed). Here the clock is made to run
absurdly fast — as on a machine slowed to a crawl — and every verdict must stay what it is with a normal clock.
"""

from __future__ import annotations

import itertools
import json
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import Repo, make_repo, run_hook_inline, subagent_payload
from tests.shared_data import CORPORA, load, shared_dir
from worktree_guard.shell import walk


class RacingClock:
    """time.monotonic / perf_counter / time that jump `step` seconds at every reading."""

    def __init__(self, step: float) -> None:
        self.now = 1_000_000.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def verdict(repo: Repo, command: str) -> str:
    data = subagent_payload(repo, "Bash", {"command": command})
    return run_hook_inline(data).stdout


def racing(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = RacingClock(7.0)
    for name in ("monotonic", "perf_counter", "time"):
        monkeypatch.setattr(time, name, clock)


def sample_commands() -> list[str]:
    """Commands an agent sends (the transcripts' and peers' corpora, every 40th), and the issue's own."""
    commands = ["git status && ls", "git add -A && git commit -m \"$(cat <<'EOF'\nfix\nEOF\n)\"", "cd .. && git switch main"]
    if shared_dir() is not None:
        for name in CORPORA:
            commands += [r["cmd"] for r in load(name)[::40]]
    return commands


@pytest.fixture(scope="module")
def module_repo(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    return make_repo(tmp_path_factory.mktemp("budget"))


COMMANDS = sample_commands()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(st.sampled_from(COMMANDS), min_size=1, max_size=3), joiner=st.sampled_from([" && ", "; ", " | ", "\n"]))
def test_the_same_command_gets_the_same_verdict_under_a_slowed_clock(module_repo: Repo, monkeypatch: pytest.MonkeyPatch, parts: list[str], joiner: str) -> None:
    command = joiner.join(parts)
    expected = verdict(module_repo, command)
    with monkeypatch.context() as patch:
        racing(patch)
        slowed = verdict(module_repo, command)
    assert slowed == expected
    assert "WG000" not in slowed or "WG000" in expected


def test_the_issues_benign_command_passes_under_a_slowed_clock(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    racing(monkeypatch)
    assert verdict(repo, "git status && ls") == ""


@pytest.mark.parametrize(
    "command",
    [
        "true;" * 13_000,  # 13,000 commands: over MAX_WALK_STEPS
        "cd s; echo x > f; " * 600,  # a cwd ever deeper: each judgement costs more, and counts more (W/s/s/… is made
        # 600 deep below: since stop 26 a cd into a directory that is not there may be refused, and does not deepen)
        "for a in " + " ".join(map(str, range(32))) + "; do for b in " + " ".join(map(str, range(32))) + "; do for c in 1 2 3 4 5 6 7 8 9 10; do echo $a$b$c > f; done; done; done",
    ],
    ids=["13000-commands", "deepening-cd", "nested-for"],
)
def test_work_over_the_budget_is_wg901_whatever_the_clock(repo: Repo, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    (repo.worktree / ("s/" * 600)).mkdir(parents=True)
    normal = json.loads(verdict(repo, command))["hookSpecificOutput"]["permissionDecisionReason"]
    assert normal.endswith("[worktree-guard WG901]") and f"more than {walk.MAX_WALK_STEPS} steps" in normal
    racing(monkeypatch)
    assert json.loads(verdict(repo, command))["hookSpecificOutput"]["permissionDecisionReason"] == normal


def test_the_corpora_stay_far_below_the_step_budget(repo: Repo) -> None:
    """Realistic commands stay far below the budget (the largest of all 35,359 corpus commands: 1,003 steps, a
    function of 1,000 commands; docs/bash.md)."""
    from worktree_guard.engine import build_context
    from worktree_guard.plugins import plugin_manager
    from worktree_guard.rules.bash import analyse
    from worktree_guard.runtimes.claude_code import to_tool_call

    pm = plugin_manager()
    most = 0
    for command in itertools.islice(sample_commands(), 2000):
        ctx = build_context(to_tool_call(subagent_payload(repo, "Bash", {"command": command})), pm=pm)
        walker, _ = analyse(command, ctx)
        most = max(most, walker.steps)
    assert 0 < most <= walk.MAX_WALK_STEPS // 5
