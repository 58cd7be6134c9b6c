"""Behaviours of the Bash walker and its state pinned for mutation testing (issue 13, phase 5: `shell/`).

Each test was written for a mutant of `worktree_guard/shell/` that the suite let live (docs/testing.md,
"Phase 5"): the state the walker carries, the steps it hands to the rules, the words it evaluates.
"""

from __future__ import annotations

from worktree_guard.shell.state import ShellState


def test_a_merge_keeps_only_what_every_branch_agrees_on() -> None:
    state = ShellState(cwd="/w", oldpwd="/o", variables={"A": "1", "B": "2"})
    other = state.copy()
    other.variables["B"] = "3"
    other.cwd = "/w/sub"
    state.merge([other])
    assert state.cwd is None and state.oldpwd == "/o"
    assert state.variables == {"A": "1", "B": None}
