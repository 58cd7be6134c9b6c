"""Who is isolated, and why (SPEC §4)."""

from __future__ import annotations

from .agents import NO_ISOLATION, AgentDefinition
from .config import Settings
from .fast_dataclass import fast_dataclass
from .layout import Layout


@fast_dataclass(slots=True)
class Isolation:
    """Whether the acting agent is confined to W, the reason in words, and whether it is misplaced."""

    isolated: bool
    reason: str
    misplaced: bool = False


def decide_isolation(
    layout: Layout,
    settings: Settings,
    agent_type: str | None,
    definition: AgentDefinition | None,
) -> Isolation:
    """Configuration first, then the agent's definition, then a linked-worktree cwd."""
    declared = definition is not None and definition.isolated
    declared_none = definition is not None and (definition.isolation or "").strip().lower() in NO_ISOLATION
    if settings.isolated is not None:
        reason = "configuration sets isolated = " + str(settings.isolated).lower()
        isolated = settings.isolated
    elif agent_type and agent_type in settings.isolated_agents:
        reason = f"configuration lists agent type {agent_type!r} in isolated_agents"
        isolated = True
    elif declared:
        reason = f"agent definition {definition.path} declares isolation: {definition.isolation}"
        isolated = True
    elif layout.linked:
        reason = f"cwd is in the linked worktree {layout.worktree_root}"
        isolated = True
    else:
        why = "cwd is in the main worktree" if layout.in_git else "cwd is outside any git checkout"
        if declared_none:
            why += f"; {definition.path} declares isolation: {definition.isolation}"
        return Isolation(isolated=False, reason=why)
    # Isolation was asked for but not applied: the agent runs in a main worktree (or outside git).
    misplaced = (declared or (agent_type and agent_type in settings.isolated_agents)) and not layout.linked
    if misplaced and settings.worktree_root:
        misplaced = False
    return Isolation(isolated=isolated, reason=reason, misplaced=bool(misplaced))
