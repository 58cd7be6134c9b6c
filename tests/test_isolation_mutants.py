"""decide_isolation exactly (SPEC §4): every branch's Isolation, reason text and `misplaced` included — the rows
that phase 14 of issue 13 (mutation testing, docs/testing.md) found missing."""

from __future__ import annotations

import pytest

from worktree_guard.agents import AgentDefinition
from worktree_guard.config import Settings
from worktree_guard.isolation import Isolation, decide_isolation
from worktree_guard.layout import Layout

MAIN = Layout("/repo", ["/repo"], linked=False)
LINKED = Layout("/repo/.claude/worktrees/w", ["/repo"], linked=True)
OUTSIDE = Layout(None)
WORKTREE = AgentDefinition("/repo/.claude/agents/iso.md", "iso", "worktree")
NONE = AgentDefinition("/repo/.claude/agents/plain.md", "plain", " None ")
UNSET = AgentDefinition("/repo/.claude/agents/other.md", "other", None)
ODD = AgentDefinition("/repo/.claude/agents/odd.md", "odd", "sometimes")

NOT_ISOLATED_ROWS = [
    # (layout, settings, agent type, definition, reason)
    (MAIN, {}, None, None, "cwd is in the main worktree"),
    (OUTSIDE, {}, None, None, "cwd is outside any git checkout"),
    (MAIN, {}, "plain", NONE, "cwd is in the main worktree; /repo/.claude/agents/plain.md declares isolation:  None "),
    (OUTSIDE, {}, "plain", NONE, "cwd is outside any git checkout; /repo/.claude/agents/plain.md declares isolation:  None "),
    (MAIN, {}, "other", UNSET, "cwd is in the main worktree"),
    (MAIN, {}, "odd", ODD, "cwd is in the main worktree"),
    (MAIN, {"isolated_agents": ["iso"]}, "other", None, "cwd is in the main worktree"),
    (MAIN, {"isolated_agents": ["iso"]}, None, None, "cwd is in the main worktree"),
    (LINKED, {"isolated": False}, "iso", WORKTREE, "configuration sets isolated = false"),
    (MAIN, {"isolated": False}, None, None, "configuration sets isolated = false"),
]


@pytest.mark.parametrize("layout,settings,agent_type,definition,reason", NOT_ISOLATED_ROWS)
def test_not_isolated(layout: Layout, settings: dict, agent_type: str | None, definition: AgentDefinition | None, reason: str) -> None:
    isolation = decide_isolation(layout, Settings(**settings), agent_type, definition)
    assert isolation == Isolation(isolated=False, reason=reason)
    assert isolation.isolated is False
    assert isolation.misplaced is False
    assert isolation.reason == reason


ISOLATED_ROWS = [
    # (layout, settings, agent type, definition, reason, misplaced)
    (MAIN, {"isolated": True}, None, None, "configuration sets isolated = true", False),
    (MAIN, {"isolated": True}, "other", UNSET, "configuration sets isolated = true", False),
    (MAIN, {"isolated": True, "isolated_agents": ["iso"]}, "iso", None, "configuration sets isolated = true", True),
    (MAIN, {"isolated": True}, "iso", WORKTREE, "configuration sets isolated = true", True),
    (LINKED, {"isolated": True}, "iso", WORKTREE, "configuration sets isolated = true", False),
    (MAIN, {"isolated_agents": ["iso"]}, "iso", None, "configuration lists agent type 'iso' in isolated_agents", True),
    (MAIN, {"isolated_agents": ["iso"]}, "iso", UNSET, "configuration lists agent type 'iso' in isolated_agents", True),
    (LINKED, {"isolated_agents": ["iso"]}, "iso", None, "configuration lists agent type 'iso' in isolated_agents", False),
    (MAIN, {"isolated_agents": ["iso"], "worktree_root": "/repo"}, "iso", None, "configuration lists agent type 'iso' in isolated_agents", False),
    (MAIN, {}, "iso", WORKTREE, "agent definition /repo/.claude/agents/iso.md declares isolation: worktree", True),
    (OUTSIDE, {}, "iso", WORKTREE, "agent definition /repo/.claude/agents/iso.md declares isolation: worktree", True),
    (MAIN, {"worktree_root": "/repo"}, "iso", WORKTREE, "agent definition /repo/.claude/agents/iso.md declares isolation: worktree", False),
    (LINKED, {}, "iso", WORKTREE, "agent definition /repo/.claude/agents/iso.md declares isolation: worktree", False),
    (LINKED, {}, None, None, "cwd is in the linked worktree /repo/.claude/worktrees/w", False),
    (LINKED, {}, "plain", NONE, "cwd is in the linked worktree /repo/.claude/worktrees/w", False),
    (LINKED, {"isolated_agents": ["iso"]}, "other", None, "cwd is in the linked worktree /repo/.claude/worktrees/w", False),
]


@pytest.mark.parametrize("layout,settings,agent_type,definition,reason,misplaced", ISOLATED_ROWS)
def test_isolated(layout: Layout, settings: dict, agent_type: str | None, definition: AgentDefinition | None, reason: str, misplaced: bool) -> None:
    isolation = decide_isolation(layout, Settings(**settings), agent_type, definition)
    assert isolation == Isolation(isolated=True, reason=reason, misplaced=misplaced)
    assert isolation.isolated is True
    assert isolation.misplaced is misplaced
    assert isolation.reason == reason
