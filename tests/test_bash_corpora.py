"""The Bash rules over the real corpora (select with `-m corpus`): a verdict for every command, no false deny
on the real transcripts' and Dippy's read-only commands, and the WG900 rate bounded on realistic corpora.

Each command runs in a real linked worktree W, with its cwd five directories deep so that relative paths stay
inside W. `bench/bash_corpora.py` prints the same replay in detail.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from tests.helpers import isolated_environment, make_repo
from tests.shared_data import CORPORA, Hang, bash_rejects, load, replay_in, time_limit, transcript_bash_commands
from worktree_guard.engine import build_context, decide
from worktree_guard.plugins import plugin_manager
from worktree_guard.runtimes.claude_code import to_tool_call
#: A guard against a hang (the analysis budget counts work, not seconds: shell/walk.py MAX_WALK_STEPS).
HANG_SECONDS = 8.0

pytestmark = pytest.mark.corpus

# WG900 (no parser could handle it) rates allowed, %: every corpus is bounded (issues 3, 13, 10). parable is a
# parser torture suite, not agent commands: 179 of its 4,528 (3.95 %) defeat bashlex and shfmt alike — 39 are
# invalid bash (`bash -n` rejects them), the rest arithmetic (69), here-document (33), array (19) and
# parameter-expansion (10) edge cases that mvdan/sh rejects too (docs/bash.md, Corpora); its bound keeps it there.
MAX_WG900_PERCENT = {"dippy": 1.0, "nl2bash": 1.0, "cc-safe-setup": 1.0, "safety-net": 1.0, "owg": 1.0, "parable": 4.5}
SAFETY_NET_BROKEN = "tests/core/analyze/edge-cases.test.ts"


class Judge:
    """The engine for Bash calls of one isolated agent whose worktree is W."""

    def __init__(self, worktree: Path) -> None:
        self.pm = plugin_manager()
        self.worktree = worktree

    def codes(self, command: str, cwd: Path) -> list[str]:
        payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command},
                   "cwd": str(cwd), "agent_id": "acorpus", "agent_type": "general-purpose"}
        call = to_tool_call(payload)
        verdict = decide(call, build_context(call, pm=self.pm))
        assert verdict.isolated
        return [v.code for v in verdict.violations if v.severity == "error"]


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Judge:
    base = tmp_path_factory.mktemp("corpus")
    with isolated_environment(base / "home"):  # built before any test's own isolation applies
        repo = make_repo(base)
    return Judge(repo.worktree)


@pytest.fixture(scope="module")
def deep(judge: Judge) -> Path:
    path = judge.worktree / "a" / "b" / "c" / "d" / "e"
    path.mkdir(parents=True)
    return path


@pytest.mark.parametrize("name", list(CORPORA))
def test_every_command_gets_a_verdict_within_the_budget(name: str, judge: Judge, deep: Path) -> None:
    records = load(name)
    codes: Counter[str] = Counter()
    wg900 = []
    slowest = 0.0
    for record in records:
        command = record["cmd"]
        started = time.perf_counter()
        try:
            with time_limit(HANG_SECONDS):
                found = judge.codes(command, deep)
        except Hang:
            pytest.fail(f"no verdict within {HANG_SECONDS} s for {command!r:.200}")
        slowest = max(slowest, time.perf_counter() - started)
        codes.update(set(found))
        if "WG900" in found:
            wg900.append(record)
    excluded = 0
    if name == "safety-net":
        broken = [r for r in wg900 if r.get("src", "").endswith(SAFETY_NET_BROKEN) and bash_rejects(r["cmd"])]
        excluded = len(broken)
        wg900 = [r for r in wg900 if r not in broken]
    rate = 100 * len(wg900) / (len(records) - excluded)
    print(f"\n{name}: {len(records)} commands, WG900 {len(wg900)} ({rate:.2f} %, {excluded} deliberately broken left out), "
          f"slowest {1000 * slowest:.0f} ms, codes {dict(sorted(codes.items()))}")
    assert codes["WG901"] == 0 or name == "parable", "a realistic command went over the budget"
    assert rate < MAX_WG900_PERCENT[name], [r["cmd"] for r in wg900][:20]


def test_real_transcript_commands_all_pass(judge: Judge) -> None:
    """Every Bash call of the recorded worktree sessions, replayed with that worktree as W: no false deny."""
    commands = transcript_bash_commands()
    assert len(commands) > 300
    denied = []
    for command, cwd, root in commands:
        moved, moved_cwd = replay_in(judge.worktree, command, cwd, root)
        found = judge.codes(moved, moved_cwd)
        if found:
            denied.append((command, found))
    assert denied == []


#: Dippy's "read-only" commands that are not, each refused on purpose (stop 30) and each run for real: words xargs
#: takes from its input may be options (`--output=<main>/x` wrote there: `test_xargs_input_may_be_an_option`), and its
#: `-I` string inside a shell's code is code (an input line `x; rm …` ran: `test_xargs_replace_string_inside_a_shell_script`).
DIPPY_NOT_READ_ONLY = {
    "xargs git log --oneline": ["WG403"],  # input `--output=<main>/x`
    "xargs git diff": ["WG403"],
    "xargs git show": ["WG403"],
    "git ls-files | xargs git blame": ["WG403"],  # a file named `--output=…` (write `xargs git blame --`)
    "xargs -I {} sh -c 'echo {}'": ["WG404"],  # input `x; rm …` is code
    "xargs -I {} bash -c 'cat {}'": ["WG404"],
    "xargs -I {} zsh -c 'head {}'": ["WG404"],
    "git diff foo-$(date -u).txt": ["WG403"],  # an unquoted substitution, split: any words, an --output= among them
}


def test_dippy_read_only_commands_all_pass(judge: Judge, deep: Path) -> None:
    """Dippy auto-approves these as read-only: inside W none of them may be refused, but for DIPPY_NOT_READ_ONLY."""
    allowed = [r["cmd"] for r in load("dippy") if r.get("expect") == "allow"]
    assert len(allowed) > 5000
    denied = {c: found for c in allowed if (found := judge.codes(c, deep))}
    assert denied == DIPPY_NOT_READ_ONLY
