"""The shared-workspace wave (SPEC §11): a plugin for every agent's calls and every sub-agent's start and stop.

At dispatch (any agent's dispatch call): a malformed ownership block → WG710 (a dispatch that goes through
anyway, in warn mode, gives a worker that owns nothing); an ownership that overlaps a running worker's in the
same checkout → WG704; uncommitted tracked changes no running worker owns → WG705 (strict: denied; default: a
warning to the orchestrator); an ownership on a runtime whose sub-agents' calls carry no identity, so that it
could never be enforced → WG708. The check and the dispatch's record are one locked step, so two dispatches
judged at the same time cannot both pass; the verdict then confirms the record, or drops it (`call_judged`).
A worker's own calls are `worker_calls`' (WG701–WG703); its start and stop `worker_life`'s (WG706, WG707).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..hookspecs import hookimpl
from ..model import Violation

if TYPE_CHECKING:
    import pluggy

    from ..engine import AgentScope, Context
    from ..model import AgentEvent, EventVerdict, ToolCall, Verdict
    from .ownership import Ownership
    from .registry import Dispatch
    from .surfaces import Surface

RULE = "wave"
DEFAULT_AGENT_TYPE = "general-purpose"


# --- finding the worker -------------------------------------------------------------------------------------


@hookimpl
def worktree_guard_find_worker(call: ToolCall, ctx: Context) -> Any:
    if not call.agent_id or not _may_be_a_worker(call, ctx):
        return None
    from .linking import safe_worker_for

    return safe_worker_for(call, ctx.layout.worktree_root, ctx.isolation.isolated, ctx.settings, ctx.layout.common_dir, ctx.pm)


def _may_be_a_worker(call: ToolCall, ctx: Context) -> bool:
    """False when nothing could make this sub-agent a worker: no ownership configured for it, and no dispatch of
    its repository declared one (`linking.worker_for` would return None). Most calls of most sessions: the wave
    machinery (registry, snapshots, ownership) is then not even loaded, and the link of the sub-agent to its
    dispatch (which makes no worker) is not recorded."""
    settings = ctx.settings
    if settings.owns is not None:
        return True
    if call.agent_type and call.agent_type in settings.agents and settings.agents[call.agent_type].owns is not None:
        return True
    from .places import keys_of, may_have_workers

    try:
        return may_have_workers(ctx.layout.common_dir, keys_of(call))
    except Exception:  # noqa: BLE001 — the pre-check never decides "not a worker" on an error
        return True


@hookimpl
def worktree_guard_confined_agent(call: ToolCall) -> bool | None:
    """A sub-agent that a wave's registry knows, or whose session or dispatcher declared a wave, is confined."""
    if not call.agent_id:
        return None
    from .linking import registries_for
    from .registry import wave_declared

    for registry in registries_for(call, None):
        workers = registry.load()
        if call.agent_id in workers.agents or wave_declared(workers, call):
            return True
    return None


# --- judging calls ------------------------------------------------------------------------------------------


@hookimpl
def worktree_guard_check_any_call(call: ToolCall, ctx: Context) -> list[Violation] | None:
    findings: list[Violation] = []
    if call.kind == "dispatch":
        findings += check_dispatch(call, ctx)
    worker = ctx.worker
    if worker:
        from .worker_calls import check_worker_call

        findings += check_worker_call(call, ctx, worker)
    return findings or None


def _violation(call: ToolCall, ctx: Context, code: str, message: str, **extra: Any) -> Violation:
    return Violation(code=code, rule=RULE, tool=call.tool, message=message, worktree_root=ctx.worktree_root, **extra)


def dispatch_target(call: ToolCall) -> str:
    """The agent type a dispatch starts (the runtime's default when it names none)."""
    return call.subagent_type or DEFAULT_AGENT_TYPE


def dispatch_ownership(call: ToolCall, ctx: Context) -> Ownership | None:
    """The ownership a dispatch gives its worker: the prompt's block, else the target's frontmatter, else the
    configuration's `[agents.<type>]`. OwnershipError when one of them is malformed."""
    from .linking import configured_ownership
    from .ownership import from_prompt, from_setting

    prompt = call.dispatch_prompt
    found = from_prompt(prompt) if prompt else None
    if found is not None:
        return found
    target = dispatch_target(call)
    definition = ctx.find_definition(target)
    if definition is not None and "owns" in definition.guard_settings:
        return from_setting(definition.guard_settings["owns"], f"{definition.path} (worktree-guard: owns)")
    agents = ctx.settings.agents
    if target in agents and agents[target].owns is not None:
        return configured_ownership(ctx.settings.model_copy(update={"owns": None}), target)
    return None


def dispatch_isolated(call: ToolCall, ctx: Context) -> bool:
    if call.subagent_place == "dispatcher_cwd":
        return False  # the runtime runs it in this directory, whatever the input says
    value = call.input.get("isolation")
    if isinstance(value, str) and value.strip().lower() in ("worktree", "work_tree", "work-tree", "remote"):
        return True
    definition = ctx.find_definition(dispatch_target(call))
    return bool(definition is not None and definition.isolated and value is None)


def within(child: Ownership, parent: Ownership) -> list[str]:
    """The patterns of `child` that may name a file `parent` does not own (a worker hands on only what it owns)."""
    from .ownership import literal_prefix

    return [p for p in child.patterns if p not in parent.patterns and not (literal_prefix(p) and parent.covers_tree(literal_prefix(p)))]


def check_dispatch(call: ToolCall, ctx: Context) -> list[Violation]:
    from .ownership import Ownership, OwnershipError

    worker = ctx.worker
    try:
        ownership = dispatch_ownership(call, ctx)
    except OwnershipError as e:
        # Refused; should it go through anyway (warn mode), its worker owns nothing rather than everything.
        ctx.extra["wave_ownership"] = Ownership.of([], f"nothing: the dispatch's ownership is malformed ({e})")
        ctx.extra["confined"] = True
        return [_violation(call, ctx, "WG710", f"The ownership of this dispatch is malformed: {e}. Fix it and dispatch again; the block holds one line, `owns: PATTERN, PATTERN` (or `owns: none`).")]
    if worker:
        # A worker's sub-agent works for it: it owns what the worker owns, or a part of it, never more.
        inherited = Ownership.of(list(worker.ownership.patterns), f"inherited from worker {worker.agent_id} ({worker.ownership.source})")
        if ownership is None:
            ownership = inherited
        elif outside := within(ownership, worker.ownership):
            ctx.extra["wave_ownership"] = inherited
            ctx.extra["confined"] = True
            return [_violation(
                call, ctx, "WG701",
                f"This worker may hand its sub-agent only files it owns ({worker.ownership.describe()}); {', '.join(outside)} may name others. "
                "Leave the ownership block out (the sub-agent then owns what you own) or narrow it.",
            )]
    ctx.extra["wave_ownership"] = ownership
    if ownership is None:
        return []
    ctx.extra["confined"] = True  # a worker's dispatch that cannot be recorded must not go through
    if not call.subagent_named:
        return [_violation(
            call, ctx, "WG708",
            f"This dispatch gives its sub-agent an ownership ({ownership.describe()}), but this runtime gives a sub-agent's "
            "calls no identity of their own, so worktree-guard could not tell them from yours and could not enforce it. Dispatch without "
            "an ownership and do the work one sub-agent at a time, or run the workers isolated by other means.",
        )]
    root = ctx.layout.worktree_root
    if not ctx.live or root is None or not ctx.layout.common_dir:
        return []
    if not call.tool_use_id:
        return [_violation(call, ctx, "WG000", f"The {call.tool} call carries no id, so worktree-guard cannot record its ownership and find it again on the worker's calls.")]
    return _check_against_running(call, ctx, ownership, root)


def _check_against_running(call: ToolCall, ctx: Context, ownership: Ownership, root: str) -> list[Violation]:
    """WG704 and WG705 against the workers running in this checkout, and this dispatch's provisional record,
    in one locked step: a dispatch judged at the same time sees this one."""
    from .ownership import Ownership, overlap
    from .registry import Registry, is_running, workers_of

    isolated = dispatch_isolated(call, ctx)
    registry = Registry(ctx.layout.common_dir or "")
    stale = ctx.settings.stale_worker_after
    mine = ctx.worker.dispatch_id if ctx.worker else None  # a worker's own sub-agent works within its ownership

    def running_in(workers: Any, now: float) -> list[Any]:
        return [
            v for v in workers_of(workers, root)
            if not v.dispatch.isolated and is_running(v, workers, now, stale) and v.dispatch.dispatch_id not in (call.tool_use_id, mine)
        ]

    checked = not isolated and not ownership.none
    tree = tracked_and_untracked(root) if checked and running_in(registry.load(), time.time()) else None
    findings: list[Violation] = []
    with registry.changing() as workers:
        now = time.time()
        running = running_in(workers, now) if not isolated else []
        if checked and running:
            if tree is None:
                tree = tracked_and_untracked(root)
            for view in running:
                other = Ownership.of(view.dispatch.owns or [], view.dispatch.owns_source or "")
                where = overlap(ownership, other, tree)
                if where:
                    findings.append(_violation(
                        call, ctx, "WG704",
                        f"This worker's ownership ({ownership.describe()}) overlaps that of {view.name}, which still runs in {root} "
                        f"(owns {other.describe()}): {where}. Wait for it to finish, or give this worker files no running worker owns.",
                    ))
        workers.dispatches[call.tool_use_id or ""] = dispatch_record(call, ctx, ownership, isolated, provisional=True)
    if isolated:
        return findings
    dirty = unowned_changes(root, [Ownership.of(v.dispatch.owns or [], "") for v in running])
    if dirty:
        listed = ", ".join(dirty[:10]) + (f" and {len(dirty) - 10} more" if len(dirty) > 10 else "")
        findings.append(_violation(
            call, ctx, "WG705",
            f"{root} has uncommitted changes to tracked files that no running worker owns ({listed}): commit them before a "
            "shared-workspace wave, so that every change can be told apart and rolled back.",
            severity="error" if ctx.settings.profile == "strict" else "warning",
        ))
    return findings


def tracked_and_untracked(root: str) -> list[str]:
    """The files of the checkout's tree (tracked, and untracked but not ignored), to test an overlap on."""
    from .snapshots import git_lines

    return git_lines(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")


def unowned_changes(root: str, owners: list[Ownership]) -> list[str]:
    """Tracked files with uncommitted changes that none of `owners` owns (SPEC §11, WG705)."""
    from .snapshots import runtime_owned, snapshot

    (state,) = snapshot([root], [root], fingerprints=False, ignored=False)
    if state.error:
        raise RuntimeError(state.error)
    return sorted(
        path for path, (status, _) in state.dirty.items()
        if status != "??" and not runtime_owned(root, path) and not any(o.matches(path) for o in owners)
    )


def dispatch_record(call: ToolCall, ctx: Context, ownership: Ownership | None, isolated: bool, *, provisional: bool) -> Dispatch:
    from .registry import Dispatch, prompt_digest

    prompt = call.dispatch_prompt
    return Dispatch(
        dispatch_id=call.tool_use_id or "",
        session_id=call.session_id,
        dispatcher=call.dispatcher_key,
        agent_type=call.subagent_type,
        checkout=ctx.layout.worktree_root or "",
        isolated=isolated,
        owns=list(ownership.patterns) if ownership is not None else None,
        owns_source=ownership.source if ownership is not None else None,
        prompt_digest=prompt_digest(prompt) if prompt else None,
        time=time.time(),
        provisional=provisional,
    )


@hookimpl
def worktree_guard_call_judged(call: ToolCall, ctx: Context, verdict: Verdict) -> None:
    """Confirm the record of every dispatch that was not refused (with or without an ownership), keyed by its
    tool-use id; drop the provisional record of one that was."""
    if call.kind != "dispatch" or not call.tool_use_id or not ctx.layout.common_dir or not ctx.layout.worktree_root:
        return
    from .linking import index_of
    from .registry import Registry

    registry = Registry(ctx.layout.common_dir)
    ownership = ctx.extra.get("wave_ownership")
    with registry.changing() as workers:
        if verdict.decision == "deny":
            held = workers.dispatches.get(call.tool_use_id)
            if held is not None and held.provisional:
                del workers.dispatches[call.tool_use_id]
            return
        isolated = dispatch_isolated(call, ctx) or (verdict.updated_input or {}).get("isolation") == "worktree"
        workers.dispatches[call.tool_use_id] = dispatch_record(call, ctx, ownership, isolated, provisional=False)
    if ownership is not None:
        keys = [f"session:{call.session_id}"] if call.session_id else []
        keys += [f"dispatcher:{call.dispatcher_key}"] if call.dispatcher_key else []
        index_of(registry).note(keys, registry.common_dir)


# --- tables ---------------------------------------------------------------------------------------------------


@hookimpl
def worktree_guard_hidden_surfaces() -> dict[str, tuple[Surface, ...]]:
    from .surfaces import BUILTIN_SURFACES

    return dict(BUILTIN_SURFACES)


# --- a worker's start and stop --------------------------------------------------------------------------------


@hookimpl
def worktree_guard_agent_event(event: AgentEvent, scope: AgentScope, pm: pluggy.PluginManager | None = None) -> EventVerdict | None:
    from . import worker_life

    if event.event == "SubagentStart":
        return worker_life.on_start(event, scope, pm)
    if event.event == "SubagentStop":
        return worker_life.on_stop(event, scope, pm)
    return None
