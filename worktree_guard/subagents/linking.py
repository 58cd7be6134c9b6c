"""Finding a worker's ownership again on its own later calls (SPEC §11).

The dispatch is recorded at its PreToolUse, keyed by its tool-use id. A sub-agent's later calls carry its own
agent id; which dispatch started it is the runtime adapter's to tell (`worktree_guard_find_dispatch`): Claude
Code's `<session>/subagents/agent-<id>.meta.json` holds the dispatch's `toolUseId` by the sub-agent's first
tool call; its transcript's first line (the prompt) is the fallback. Once found, the link is kept in the
registry, so later calls read one file. In order:

1. a linked dispatch: its ownership (none declared: not a worker);
2. the ownership configuration or the agent's frontmatter gives its type (`[agents.<type>] owns`, `owns`);
3. a sub-agent of a session that dispatched a worker with an ownership, which cannot be linked: a worker that
   owns nothing (fail closed);
4. otherwise: not a worker.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .ownership import Ownership, OwnershipError, from_setting

if TYPE_CHECKING:
    from ..config import Settings
    from .registry import Registry, Workers


@dataclass(frozen=True, slots=True)
class DispatchLink:
    """What a runtime records of the dispatch that started a sub-agent: its id, else its prompt."""

    dispatch_id: str | None = None
    prompt: str | None = None
    how: str = ""
    fork: bool = False


@dataclass(frozen=True, slots=True)
class Worker:
    """A sub-agent with an ownership: who, what it owns, the checkout its patterns are relative to, and how it
    was found (`linked_by`, for messages). `dispatch_id` is None when no dispatch could be linked."""

    agent_id: str
    agent_type: str | None
    ownership: Ownership
    root: str
    isolated: bool
    linked_by: str
    dispatch_id: str | None = None
    session_id: str | None = None


def configured_ownership(settings: Settings, agent_type: str | None, where: str = "configuration") -> Ownership | None:
    """`owns` (frontmatter, environment, flags), else `[agents.<type>] owns`; None when neither says anything."""
    if settings.owns is not None:
        return from_setting(settings.owns, f"{where} `owns`")
    if agent_type and agent_type in settings.agents and settings.agents[agent_type].owns is not None:
        return from_setting(settings.agents[agent_type].owns, f"{where} [agents.{agent_type}] owns")
    return None


def link(agent: Any, registry: Registry, pm: Any) -> tuple[Workers, str | None, str]:
    """(workers, the dispatch id of this sub-agent or None, how it was found), recording a new link."""
    from .registry import prompt_digest

    workers = registry.load()
    known = workers.agents.get(agent.agent_id)
    if known is not None and known.dispatch_id is not None:
        return workers, known.dispatch_id, "the wave registry"
    found = pm.hook.worktree_guard_find_dispatch(agent=agent) if pm is not None else None
    if found is None:
        return workers, None, "nothing (the runtime recorded no link yet)"
    dispatch_id = found.dispatch_id
    if dispatch_id is None and found.prompt:
        digest = prompt_digest(found.prompt)
        taken = {a.dispatch_id for a in workers.agents.values()}
        candidates = [
            d.dispatch_id for d in workers.dispatches.values()
            if d.prompt_digest == digest and d.session_id == agent.session_id and d.dispatch_id not in taken
        ]
        dispatch_id = candidates[0] if len(candidates) == 1 else None
    if dispatch_id is None or dispatch_id not in workers.dispatches:
        return workers, None, found.how
    with registry.changing() as changing:
        record(changing, agent, dispatch_id=dispatch_id)
        workers = changing.model_copy(deep=True)
    return workers, dispatch_id, found.how


def record(workers: Workers, agent: Any, **fields: Any) -> None:
    """Create or update this sub-agent's record in `workers` (inside `Registry.changing`)."""
    from .registry import Agent

    entry = workers.agents.get(agent.agent_id)
    if entry is None:
        entry = workers.agents[agent.agent_id] = Agent(agent_id=agent.agent_id, session_id=agent.session_id, agent_type=agent.agent_type)
    for key, value in fields.items():
        setattr(entry, key, value)


def worker_for(agent: Any, root: str | None, isolated: bool, settings: Settings, common_dir: str | None, pm: Any, registry_root: str | None = None) -> Worker | None:
    """The worker making this call or event (see the module's docstring for the order); None when it is none."""
    from .registry import Registry, session_declared

    if not agent.agent_id or root is None:
        return None
    base = dict(agent_id=agent.agent_id, agent_type=agent.agent_type, root=root, isolated=isolated, session_id=agent.session_id)
    if common_dir:
        registry = Registry(common_dir, registry_root)
        workers, dispatch_id, how = link(agent, registry, pm)
        dispatch = workers.dispatches.get(dispatch_id) if dispatch_id else None
        if dispatch is not None:
            if dispatch.owns is None:
                return None
            ownership = Ownership.of(dispatch.owns, dispatch.owns_source or "the dispatch")
            return Worker(ownership=ownership, linked_by=f"its dispatch {dispatch_id}, found through {how}", dispatch_id=dispatch_id, **base)
    else:
        workers, how = None, "nothing (outside git)"
    configured = configured_ownership(settings, agent.agent_type)
    if configured is not None:
        return Worker(ownership=configured, linked_by=configured.source, **base)
    if workers is not None and session_declared(workers, agent.session_id):
        nothing = Ownership.of([], "nothing: this session dispatched workers with ownerships, and this sub-agent could not be linked to its dispatch")
        return Worker(ownership=nothing, linked_by=f"no dispatch (looked in {how})", **base)
    return None


def safe_worker_for(agent: Any, root: str | None, isolated: bool, settings: Settings, common_dir: str | None, pm: Any) -> Worker | None:
    """`worker_for`, failing closed: a sub-agent whose wave state or configured ownership cannot be read owns nothing."""
    try:
        return worker_for(agent, root, isolated, settings, common_dir, pm)
    except Exception as e:  # noqa: BLE001 — an unreadable registry or a bad `owns` must not let a worker write anything
        if not getattr(agent, "agent_id", None) or root is None:
            return None
        nothing = Ownership.of([], f"nothing: the wave state could not be read ({type(e).__name__}: {e})")
        return Worker(agent_id=agent.agent_id, agent_type=agent.agent_type, ownership=nothing, root=root, isolated=isolated, linked_by="no dispatch", session_id=agent.session_id)


def worker_from_record(
    agent_id: str | None,
    agent_type: str | None,
    session_id: str | None,
    dispatch_prompt: str | None,
    wave_session: bool,
    root: str | None,
    isolated: bool,
    settings: Settings,
) -> Worker | None:
    """The worker of a recorded call (`validate`): the ownership its recorded dispatch prompt declares, else the
    configuration's; a sub-agent of a session with a wave whose dispatch is not recorded owns nothing."""
    from .ownership import from_prompt

    if not agent_id or root is None:
        return None
    base = dict(agent_id=agent_id, agent_type=agent_type, root=root, isolated=isolated, session_id=session_id)
    if dispatch_prompt:
        try:
            declared = from_prompt(dispatch_prompt)
        except OwnershipError as e:
            declared = Ownership.of([], f"nothing: its dispatch's block is malformed ({e})")
        if declared is not None:
            return Worker(ownership=declared, linked_by="its recorded dispatch", **base)
    configured = configured_ownership(settings, agent_type)
    if configured is not None:
        return Worker(ownership=configured, linked_by=configured.source, **base)
    if wave_session and not dispatch_prompt:
        nothing = Ownership.of([], "nothing: this session dispatched workers with ownerships, and this sub-agent's dispatch is not recorded")
        return Worker(ownership=nothing, linked_by="no recorded dispatch", **base)
    return None
