"""Finding a worker's ownership again on its own later calls (SPEC §11).

The dispatch is recorded at its PreToolUse, keyed by its tool-use id. A sub-agent's later calls carry its own
agent id; which dispatch started it is the runtime adapter's to tell (`worktree_guard_find_dispatch`): the
dispatch's id where the runtime records it (Claude Code's `<session>/subagents/agent-<id>.meta.json` holds its
`toolUseId` by the sub-agent's first tool call), else the prompt the sub-agent was given (a transcript's first
prompt). A prompt picks the one unlinked dispatch with that prompt made by the agent that dispatched this one
(`parent_id`, where the runtime names it) or, without a parent, in its session; a runtime that names the parent
but keeps no prompt (Cline) links to that parent's one unlinked dispatch. Once found, the link is kept in the
registry, so later calls read one file.

The registry is the one of the repository that recorded the dispatch, found through the wave index
(`subagents.index`), not by the directory the call comes from: that follows the sub-agent's `cd`, anywhere. A
worker is judged against the checkout recorded for it (its dispatch's, or its own worktree when isolated).

In order:
1. a linked dispatch: its ownership (none declared: not a worker);
2. the ownership configuration or the agent's frontmatter gives its type (`[agents.<type>] owns`, `owns`);
3. a sub-agent of a session (or of a dispatcher) that dispatched a worker with an ownership, which cannot be
   linked: a worker that owns nothing (fail closed);
4. otherwise: not a worker.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .ownership import Ownership, OwnershipError, from_setting

if TYPE_CHECKING:
    from ..config import Settings
    from .registry import Agent, Dispatch, Registry, Workers


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


def index_of(registry: Registry) -> Any:
    """The wave index beside a registry (the same waves directory)."""
    from .index import WaveIndex

    return WaveIndex(os.path.dirname(registry.dir))


def registries_for(agent: Any, call_common_dir: str | None, registry_root: str | None = None) -> list[Registry]:
    """The registries that may know this sub-agent: where it was recorded, its call's repository, then its
    session's and its dispatcher's waves."""
    from .index import WaveIndex, keys_of
    from .registry import Registry

    index = WaveIndex(registry_root)
    keys = keys_of(agent)
    own = [k for k in keys if k.startswith("agent:")]
    dirs = index.lookup(own) + ([call_common_dir] if call_common_dir else []) + index.lookup([k for k in keys if k not in own])
    return [Registry(d, registry_root) for d in dict.fromkeys(dirs)]


def link(agent: Any, registry: Registry, pm: Any) -> tuple[Workers, str | None, str]:
    """(workers, the dispatch id of this sub-agent or None, how it was found), recording a new link."""
    workers = registry.load()
    known = workers.agents.get(agent.agent_id)
    if known is not None and known.dispatch_id is not None:
        return workers, known.dispatch_id, "the wave registry"
    asked = agent
    if not getattr(agent, "transcript_path", None) and known is not None and known.transcript_path:
        asked = agent.model_copy(update={"transcript_path": known.transcript_path})  # named at its start
    found = pm.hook.worktree_guard_find_dispatch(agent=asked) if pm is not None else None
    how = found.how if found is not None else "nothing (the runtime recorded no link yet)"
    dispatch_id = found.dispatch_id if found is not None else None
    prompt = found.prompt if found is not None else None
    by_description = dispatch_id is None or dispatch_id not in workers.dispatches
    if by_description:
        dispatch_id = described(workers, agent, known, prompt)
        if dispatch_id is not None and found is None:
            how = f"its dispatcher {agent.parent_id}"
    if dispatch_id is None:
        return workers, None, how
    with registry.changing() as changing:
        if by_description and described(changing, agent, changing.agents.get(agent.agent_id), prompt) != dispatch_id:
            return changing.model_copy(deep=True), None, how  # another sub-agent took it meanwhile
        record(changing, agent, dispatch_id=dispatch_id)
        workers = changing.model_copy(deep=True)
    index_of(registry).note([f"agent:{agent.agent_id}"], registry.common_dir)
    return workers, dispatch_id, how


#: A sub-agent starts this soon after its dispatch, at the latest (seconds).
START_AFTER = 300.0


def described(workers: Workers, agent: Any, known: Agent | None, prompt: str | None) -> str | None:
    """The one unlinked dispatch that fits what is known of this sub-agent: made by its parent (else in its
    session), with its prompt, for its type, before its start; None when none or several fit."""
    from .registry import prompt_digest

    parent = getattr(agent, "parent_id", None)
    if parent is None and prompt is None:
        return None  # a session alone names no dispatch
    taken = {a.dispatch_id for a in workers.agents.values() if a.dispatch_id}
    candidates: list[Dispatch] = [d for d in workers.dispatches.values() if d.dispatch_id not in taken and not d.provisional]
    if parent is not None:
        candidates = [d for d in candidates if d.dispatcher == parent]
    else:
        candidates = [d for d in candidates if d.session_id == agent.session_id]
    if prompt is not None:
        digest = prompt_digest(prompt)
        candidates = [d for d in candidates if d.prompt_digest == digest]
    if agent.agent_type:
        candidates = [d for d in candidates if d.agent_type in (None, agent.agent_type)]
    started = known.started if known is not None and known.started else None
    if started is not None:
        candidates = [d for d in candidates if started - START_AFTER <= d.time <= started + 5]
    return candidates[0].dispatch_id if len(candidates) == 1 else None


def record(workers: Workers, agent: Any, **fields: Any) -> None:
    """Create or update this sub-agent's record in `workers` (inside `Registry.changing`)."""
    from .registry import Agent

    entry = workers.agents.get(agent.agent_id)
    if entry is None:
        entry = workers.agents[agent.agent_id] = Agent(
            agent_id=agent.agent_id, session_id=agent.session_id, agent_type=agent.agent_type, parent_id=getattr(agent, "parent_id", None),
        )
    for key, value in fields.items():
        setattr(entry, key, value)


def placed(dispatch: Dispatch, entry: Agent | None, call_root: str | None, call_isolated: bool) -> tuple[str, bool]:
    """(the checkout a linked worker's ownership is relative to, isolated?): its dispatch's checkout when it
    shares it; its own worktree (recorded at its start, else where its call is) when isolated."""
    if not dispatch.isolated:
        return dispatch.checkout, False
    own = entry.checkout if entry is not None and entry.checkout and entry.checkout != dispatch.checkout else None
    if own is None and call_isolated and call_root:
        own = call_root
    return own or call_root or dispatch.checkout, True


def worker_for(
    agent: Any,
    call_root: str | None,
    call_isolated: bool,
    settings: Settings,
    call_common_dir: str | None,
    pm: Any,
    registry_root: str | None = None,
) -> Worker | None:
    """The worker making this call or event (see the module's docstring for the order); None when it is none.

    `call_root`, `call_isolated` and `call_common_dir` describe where the call itself is (its cwd's checkout);
    they decide only when no registry knows the sub-agent.
    """
    from .registry import wave_declared

    if not agent.agent_id:
        return None
    base = dict(agent_id=agent.agent_id, agent_type=agent.agent_type, session_id=agent.session_id)
    recorded: str | None = None
    declared: tuple[Workers, str] | None = None
    for registry in registries_for(agent, call_common_dir, registry_root):
        workers, dispatch_id, how = link(agent, registry, pm)
        entry = workers.agents.get(agent.agent_id)
        dispatch = workers.dispatches.get(dispatch_id) if dispatch_id else None
        if dispatch is not None:
            if dispatch.owns is None:
                return None
            root, isolated = placed(dispatch, entry, call_root, call_isolated)
            ownership = Ownership.of(dispatch.owns, dispatch.owns_source or "the dispatch")
            return Worker(ownership=ownership, root=root, isolated=isolated, linked_by=f"its dispatch {dispatch_id}, found through {how}", dispatch_id=dispatch_id, **base)
        if recorded is None and entry is not None and entry.checkout:
            recorded = entry.checkout
        if declared is None and wave_declared(workers, agent):
            declared = (workers, how)
    root = recorded or call_root
    configured = configured_ownership(settings, agent.agent_type)
    if configured is not None and root is not None:
        return Worker(ownership=configured, root=root, isolated=call_isolated, linked_by=configured.source, **base)
    if declared is not None:
        workers, how = declared
        if root is None:
            parent = getattr(agent, "parent_id", None)
            mine = [d for d in workers.dispatches.values() if d.owns is not None and (d.session_id == agent.session_id or (parent and d.dispatcher == parent))]
            root = max(mine, key=lambda d: d.time).checkout if mine else None
        if root is not None:
            nothing = Ownership.of([], "nothing: this session dispatched workers with ownerships, and this sub-agent could not be linked to its dispatch")
            return Worker(ownership=nothing, root=root, isolated=call_isolated, linked_by=f"no dispatch (looked in {how})", **base)
    return None


def safe_worker_for(
    agent: Any, call_root: str | None, call_isolated: bool, settings: Settings, call_common_dir: str | None, pm: Any,
) -> Worker | None:
    """`worker_for`, failing closed: a sub-agent whose wave state or configured ownership cannot be read owns nothing."""
    try:
        return worker_for(agent, call_root, call_isolated, settings, call_common_dir, pm)
    except Exception as e:  # noqa: BLE001 — an unreadable registry or a bad `owns` must not let a worker write anything
        if not getattr(agent, "agent_id", None) or call_root is None:
            return None
        nothing = Ownership.of([], f"nothing: the wave state could not be read ({type(e).__name__}: {e})")
        return Worker(agent_id=agent.agent_id, agent_type=agent.agent_type, ownership=nothing, root=call_root, isolated=call_isolated, linked_by="no dispatch", session_id=agent.session_id)


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
