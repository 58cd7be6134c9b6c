"""A wave worker's start and stop (SPEC §11): its window, WG706 at its stop, WG707 for an isolated worker.

Start: a sub-agent of a wave (its session, or the agent that dispatched it, declared one; or its type has a
configured ownership) is recorded with its start time, its parent and the transcript its runtime names, and
linked to its dispatch when the runtime can tell already. The checkout it works in is its dispatch's, or its own
worktree when it is isolated (the worktree its runtime made for it, even when the start event carries the
dispatcher's directory). A shared-workspace worker's checkout is recorded (`git status` with ignored paths,
each ignored directory file by file); an isolated worker's HEAD.

Stop: what the worker changed outside its ownership that no worker of its wave owns → WG706, the stop blocked
once; then the user is told. An isolated worker's changes that other live worktrees changed too → WG707 (info).
The registry is found through the wave index, whatever directory the event names.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

from ..model import EventVerdict, Violation

if TYPE_CHECKING:
    from ..engine import AgentScope
    from ..model import AgentEvent
    from .registry import Registry, Workers

RULE = "wave"
MAX_LISTED = 25


def wave_registry(event: AgentEvent, scope: AgentScope) -> tuple[Registry, Workers] | None:
    """The registry of the wave this sub-agent belongs to: one that knows it already, else one whose session or
    dispatcher declared a wave, else its directory's when its type has a configured ownership; None otherwise."""
    from .linking import configured_ownership, registries_for
    from .registry import Registry, wave_declared

    for registry in registries_for(event, scope.layout.common_dir):
        workers = registry.load()
        if event.agent_id in workers.agents or wave_declared(workers, event):
            return registry, workers
    if scope.layout.common_dir and configured_ownership(scope.settings, event.agent_type) is not None:
        registry = Registry(scope.layout.common_dir)
        return registry, registry.load()
    return None


def on_start(event: AgentEvent, scope: AgentScope, pm: Any) -> EventVerdict | None:
    """Record the start of a sub-agent of a wave, and what its checkout looked like then."""
    from .leak_check import checkouts_of, own_worktree
    from .blame import start_state
    from .linking import index_of, link, placed, record

    found = wave_registry(event, scope)
    if found is None:
        return None
    registry, workers = found
    with registry.changing() as changing:
        record(changing, event, started=time.time(), transcript_path=event.transcript_path)
    index_of(registry).note([f"agent:{event.agent_id}"], registry.common_dir)
    workers, dispatch_id, _ = link(event, registry, pm)  # the runtime may have recorded its dispatch already
    checkouts = checkouts_of(registry.common_dir, [r for r in (scope.layout.worktree_root,) if r])
    mine = own_worktree(event, scope, checkouts)
    here = scope.layout.worktree_root if scope.layout.common_dir == registry.common_dir else None
    dispatch = workers.dispatches.get(dispatch_id) if dispatch_id else None
    if dispatch is not None:
        entry = workers.agents.get(event.agent_id)
        entry = entry.model_copy(update={"checkout": mine}) if entry is not None else None
        root, isolated = placed(dispatch, entry, mine or here, mine is not None or scope.isolation.isolated)
    else:
        isolated = scope.isolation.isolated or mine is not None
        root = mine or here or _latest_checkout(workers, event)
    if root is None:
        return None
    state = start_state(registry.common_dir, root, isolated=isolated)
    with registry.changing() as changing:
        record(changing, event, checkout=root, base_head=state.head if isolated else None)
    if not isolated:
        registry.write("snapshots", event.agent_id, state.model_dump_json())
    return None


def _latest_checkout(workers: Workers, event: AgentEvent) -> str | None:
    """The checkout of the latest dispatch with an ownership by this sub-agent's session or dispatcher."""
    mine = [
        d for d in workers.dispatches.values()
        if d.owns is not None and (d.session_id == event.session_id or (event.parent_id and d.dispatcher == event.parent_id))
    ]
    return max(mine, key=lambda d: d.time).checkout if mine else None


def on_stop(event: AgentEvent, scope: AgentScope, pm: Any) -> EventVerdict | None:
    from .blame import blame_of, block_reason
    from .linking import record, registries_for, safe_worker_for

    entry = None
    registry = None
    for candidate in registries_for(event, scope.layout.common_dir):
        entry = candidate.load().agents.get(event.agent_id)
        if entry is not None:
            registry = candidate
            break
    if entry is None or registry is None:
        return None
    if entry.started is None or entry.checkout is None:  # its start was not seen: nothing to compare, but it ran
        _stopped(registry, event)
        return None
    worker = safe_worker_for(event, entry.checkout, entry.base_head is not None, scope.settings, registry.common_dir, pm)
    if worker is None or worker.isolated:
        verdict = overlap_report(event, entry, registry) if worker is not None and worker.isolated else None
        _stopped(registry, event)
        return verdict
    now = time.time()
    blame = blame_of(registry, event.agent_id, worker, scope.settings.scratch, now, scope.settings.stale_worker_after, own_files(scope, worker.root))
    if blame is None:
        _stopped(registry, event)
        return None
    registry.write("blame", event.agent_id, blame.model_dump_json())
    root = worker.root
    violations = [
        Violation(
            code="WG706", rule=RULE, tool="SubagentStop", path=p.path, resolved=os.path.join(root, p.path), worktree_root=root,
            message=f"{os.path.join(root, p.path)} {'was committed' if p.committed else 'changed'} while you ran, and your ownership does not match it.",
        )
        for p in blame.blamed
    ] + [
        Violation(code="WG706", rule=RULE, tool="SubagentStop", severity="info", message=f"{os.path.join(root, p)} had uncommitted changes before you started and changed again; it is not rolled back.", path=p, worktree_root=root)
        for p in blame.changed_again
    ] + [
        Violation(code="WG706", rule=RULE, tool="SubagentStop", severity="info", message=f"{os.path.join(root, p)} changed inside a checkout nested in {root}; it is not this checkout's, and it is not rolled back.", path=p, worktree_root=root)
        for p in blame.nested
    ]
    if not blame.blamed:
        _stopped(registry, event)
        noted = blame.changed_again + blame.nested
        if not noted:
            return None
        note = f"worktree-guard: while worker {event.agent_id} ran, files dirty before it started or inside nested checkouts changed: {', '.join(noted[:MAX_LISTED])} (not blamed, never rolled back). [worktree-guard WG706]"
        return EventVerdict(decision="pass", violations=violations, user_message=note)
    names = ", ".join(p.path for p in blame.blamed[:MAX_LISTED])
    summary = f"worktree-guard: worker {event.agent_type or 'agent'} {event.agent_id} changed files outside its ownership: {names}; `worktree-guard rollback --agent {event.agent_id} --apply` restores them. [worktree-guard WG706]"
    if scope.settings.mode == "warn" or entry.blocks >= 1:
        _stopped(registry, event)
        return EventVerdict(decision="warn", violations=violations, user_message=summary)
    with registry.changing() as changing:
        record(changing, event, blocks=entry.blocks + 1)
    return EventVerdict(decision="block", violations=violations, reason=block_reason(blame, worker, blame.wave), user_message=summary)


def own_files(scope: AgentScope, root: str) -> tuple[str, ...]:
    """The guard's own files in the checkout, which no worker changed: the audit log, when it lies there."""
    from ..hook import audit_path
    from .ownership import relative_to

    if not scope.settings.audit_log:
        return ()
    relative = relative_to(root, audit_path(scope))
    return (relative,) if relative else ()


def _stopped(registry: Registry, event: AgentEvent) -> None:
    from .linking import record

    with registry.changing() as workers:
        record(workers, event, stopped=time.time())


def overlap_report(event: AgentEvent, entry: Any, registry: Registry) -> EventVerdict | None:
    """WG707 (info): files an isolated worker changed since its base commit that another live worktree changed too."""
    from .blame import changed_since, live_changes

    if not entry.base_head or not entry.checkout:
        return None
    try:
        mine = changed_since(entry.checkout, entry.base_head)
        others = live_changes(registry.common_dir, entry.checkout, entry.base_head)
    except Exception as e:  # noqa: BLE001 — information only: a failure is said, never blocks
        return EventVerdict(user_message=f"worktree-guard could not compare worker {event.agent_id}'s changes with the other worktrees: {e}")
    clashes = sorted((path, top) for top, paths in others.items() for path in mine & paths)
    if not clashes:
        return None
    listed = "; ".join(f"{p} (also changed in {top})" for p, top in clashes[:MAX_LISTED])
    message = f"worktree-guard: worker {event.agent_type or 'agent'} {event.agent_id} changed files that other live worktrees changed too: {listed}. Plan the merge before it conflicts. [worktree-guard WG707]"
    violations = [Violation(code="WG707", rule=RULE, tool="SubagentStop", severity="info", message=f"{p} was changed in {entry.checkout} and in {top}.", path=p, worktree_root=entry.checkout, shared_root=top) for p, top in clashes]
    return EventVerdict(decision="pass", violations=violations, user_message=message)
