"""The shared-workspace wave (SPEC §11): a plugin for every agent's calls and every sub-agent's start and stop.

At dispatch (any agent's Agent/Task call): a malformed ownership block → WG710; an ownership that overlaps a
running worker's in the same checkout → WG704; uncommitted tracked changes no running worker owns → WG705
(strict: denied; default: a warning to the orchestrator). The dispatch is then recorded (`call_judged`).
A worker's calls: a write its ownership does not match → WG701 (file tools, Bash write operands,
redirections, tree writers, patches); a hidden write surface it does not own → WG702; a shared-workspace
worker's git that writes the index, refs, HEAD, stash, config or worktrees → WG703.
Its start: its checkout is recorded (a shared-workspace worker) or its HEAD (an isolated one). Its stop: what
it changed outside its ownership, and no worker of its wave owns → WG706, the stop blocked once; an isolated
worker's changes that other live worktrees also changed → WG707 (info).
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

from ..hookspecs import hookimpl
from ..model import EventVerdict, Violation

if TYPE_CHECKING:
    import pluggy

    from ..engine import AgentScope, Context
    from ..model import AgentEvent, ToolCall, Verdict
    from ..shell.steps import ShellCommand, ShellRedirect
    from .linking import Worker
    from .ownership import Ownership
    from .surfaces import Surface

RULE = "wave"
PROMPT_FIELDS = ("prompt", "message", "task")  # where a dispatch tool holds the sub-agent's instructions
DEFAULT_AGENT_TYPE = "general-purpose"
MAX_LISTED = 25


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
    common_dir = ctx.layout.common_dir
    if not common_dir:
        return False
    from .places import may_have_workers

    return may_have_workers(common_dir)


# --- judging calls ------------------------------------------------------------------------------------------


@hookimpl
def worktree_guard_check_any_call(call: ToolCall, ctx: Context) -> list[Violation] | None:
    findings: list[Violation] = []
    if call.kind == "dispatch":
        findings += check_dispatch(call, ctx)
    worker = ctx.worker
    if worker:
        if call.kind == "file_write":
            for path in written_by_call(call):
                findings += judge_write(ctx, worker, path, path or "", ctx.cwd, None, f"{call.tool}")
        elif call.kind == "shell":
            findings += check_shell(call, ctx, worker)
    return findings or None


def written_by_call(call: ToolCall) -> list[str | None]:
    """The paths a file-tool call writes: its path field, or every file a patch names (`apply_patch`).

    The one place to switch to the runtime adapters' neutral accessor for patches when it lands.
    """
    if call.path_field is not None:
        return [call.path]
    text = next((v for k, v in call.input.items() if k in ("command", "patch", "input") and isinstance(v, str)), None)
    if text is None or "*** " not in text:
        return [None]
    heads = ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: ")
    return [line[len(h):].strip() for line in text.splitlines() for h in heads if line.startswith(h)] or [None]


def _violation(call: ToolCall, ctx: Context, code: str, message: str, **extra: Any) -> Violation:
    return Violation(code=code, rule=RULE, tool=call.tool, message=message, worktree_root=ctx.worktree_root, **extra)


def dispatch_prompt(call: ToolCall) -> str | None:
    return next((v for k in PROMPT_FIELDS if isinstance(v := call.input.get(k), str)), None)


def dispatch_ownership(call: ToolCall, ctx: Context) -> Ownership | None:
    """The ownership a dispatch gives its worker: the prompt's block, else the target's frontmatter, else the
    configuration's `[agents.<type>]`. OwnershipError when one of them is malformed."""
    from .linking import configured_ownership
    from .ownership import from_prompt, from_setting

    prompt = dispatch_prompt(call)
    found = from_prompt(prompt) if prompt else None
    if found is not None:
        return found
    target = call.input.get("subagent_type") or call.input.get("agent_type") or call.input.get("agent_name") or DEFAULT_AGENT_TYPE
    target = target if isinstance(target, str) else DEFAULT_AGENT_TYPE
    definition = ctx.find_definition(target)
    if definition is not None and "owns" in definition.guard_settings:
        return from_setting(definition.guard_settings["owns"], f"{definition.path} (worktree-guard: owns)")
    agents = ctx.settings.agents
    if target in agents and agents[target].owns is not None:
        return configured_ownership(ctx.settings.model_copy(update={"owns": None}), target)
    return None


def dispatch_isolated(call: ToolCall, ctx: Context) -> bool:
    value = call.input.get("isolation")
    if isinstance(value, str) and value.strip().lower() in ("worktree", "work_tree", "work-tree", "remote"):
        return True
    target = call.input.get("subagent_type")
    definition = ctx.find_definition(target) if isinstance(target, str) and target else None
    return bool(definition is not None and definition.isolated and value is None)


def within(child: Ownership, parent: Ownership) -> list[str]:
    """The patterns of `child` that may name a file `parent` does not own (a worker hands on only what it owns)."""
    from .ownership import literal_prefix

    return [p for p in child.patterns if p not in parent.patterns and not (literal_prefix(p) and parent.covers_tree(literal_prefix(p)))]


def check_dispatch(call: ToolCall, ctx: Context) -> list[Violation]:
    from .ownership import Ownership, OwnershipError

    try:
        ownership = dispatch_ownership(call, ctx)
    except OwnershipError as e:
        return [_violation(call, ctx, "WG710", f"The ownership of this dispatch is malformed: {e}. Fix it and dispatch again; the block holds one line, `owns: PATTERN, PATTERN` (or `owns: none`).")]
    worker = ctx.worker
    if worker:
        # A worker's sub-agent works for it: it owns what the worker owns, or a part of it, never more.
        if ownership is None:
            ownership = Ownership.of(list(worker.ownership.patterns), f"inherited from worker {worker.agent_id} ({worker.ownership.source})")
        elif outside := within(ownership, worker.ownership):
            return [_violation(
                call, ctx, "WG701",
                f"This worker may hand its sub-agent only files it owns ({worker.ownership.describe()}); {', '.join(outside)} may name others. "
                "Leave the ownership block out (the sub-agent then owns what you own) or narrow it.",
            )]
    ctx.extra["wave_ownership"] = ownership
    if ownership is not None:
        ctx.extra["confined"] = True  # a worker's dispatch that cannot be recorded must not go through
    root = ctx.layout.worktree_root
    if ownership is None or root is None or not ctx.live or dispatch_isolated(call, ctx) or not ctx.layout.common_dir:
        return []
    from .registry import Registry, is_running, workers_of

    registry = Registry(ctx.layout.common_dir)
    workers = registry.load()
    now = time.time()
    stale = ctx.settings.stale_worker_after
    mine = worker.dispatch_id if worker else None  # a worker's own sub-agent works within its ownership
    running = [
        v for v in workers_of(workers, root)
        if not v.dispatch.isolated and is_running(v, workers, now, stale) and v.dispatch.dispatch_id not in (call.tool_use_id, mine)
    ]
    findings: list[Violation] = []
    if running and not ownership.none:
        from .ownership import overlap

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
    from .snapshots import RUNTIME_OWNED, snapshot

    (state,) = snapshot([root], [root], fingerprints=False, ignored=False)
    if state.error:
        raise RuntimeError(state.error)
    return sorted(
        path for path, (status, _) in state.dirty.items()
        if status != "??" and not any(path == r or path.startswith(r) for r in RUNTIME_OWNED) and not any(o.matches(path) for o in owners)
    )


@hookimpl
def worktree_guard_call_judged(call: ToolCall, ctx: Context, verdict: Verdict) -> None:
    """Record every dispatch that was not refused (with or without an ownership), keyed by its tool-use id."""
    if call.kind != "dispatch" or verdict.decision == "deny" or not call.tool_use_id or not ctx.layout.common_dir or not ctx.layout.worktree_root:
        return
    from .registry import Dispatch, Registry, prompt_digest

    ownership = ctx.extra.get("wave_ownership")
    prompt = dispatch_prompt(call)
    target = call.input.get("subagent_type")
    dispatch = Dispatch(
        dispatch_id=call.tool_use_id,
        session_id=call.session_id,
        agent_type=target if isinstance(target, str) and target else DEFAULT_AGENT_TYPE,
        checkout=ctx.layout.worktree_root,
        isolated=dispatch_isolated(call, ctx) or (verdict.updated_input or {}).get("isolation") == "worktree",
        owns=list(ownership.patterns) if ownership is not None else None,
        owns_source=ownership.source if ownership is not None else None,
        prompt_digest=prompt_digest(prompt) if prompt else None,
        time=time.time(),
    )
    with Registry(ctx.layout.common_dir).changing() as workers:
        workers.dispatches[dispatch.dispatch_id] = dispatch


# --- a worker's writes ----------------------------------------------------------------------------------------


def _scratch(ctx: Context) -> Ownership:
    from .ownership import Ownership

    scratch = ctx.extra.get("wave_scratch")
    if scratch is None:
        scratch = ctx.extra["wave_scratch"] = Ownership.of(ctx.settings.scratch, "scratch")
    return scratch


def judge_write(
    ctx: Context,
    worker: Worker,
    value: str | None,
    written: str,
    cwd: str | None,
    span: tuple[int, int] | None,
    what: str,
    *,
    tree: bool = False,
    code: str = "WG701",
) -> list[Violation]:
    """One written path against the worker's ownership (relative to its checkout), the allow-list and scratch."""
    from ..paths import deepest_root
    from .ownership import relative_to

    common = dict(rule=RULE, tool=ctx.call.tool, path=written or None, worktree_root=worker.root, span=span)
    owns = f"This worker owns {worker.ownership.describe()} ({worker.ownership.source})"
    if value is None:
        return [Violation(code=code, message=f"{what} writes {written!r}, which is only known at run time. {owns}; write to literal paths it owns.", **common)]
    if cwd is None and not value.startswith(("/", "~")):
        return [Violation(code=code, message=f"{what} writes the relative path {written!r} after a directory change worktree-guard cannot follow. {owns}; use an absolute path.", **common)]
    resolved = ctx.policy.canonical(value, cwd or "/")
    relative = relative_to(worker.root, resolved)
    if relative is None:
        if worker.isolated:
            return []  # outside W: the isolation rules judge it
        other = deepest_root(resolved, ctx.policy.shared_roots)
        if other is None and ctx.policy.allow.matches(resolved):
            return []
        where = f"in another checkout, {other}" if other else f"outside the checkout {worker.root}"
        return [Violation(code=code, message=f"{what} writes {resolved}, {where}. {owns}.", resolved=resolved, **common)]
    if relative and ctx.policy.protect.matches(relative):
        return [Violation(code=code, message=f"{what} writes {resolved}, which is protected (git's own files). {owns}.", resolved=resolved, **common)]
    is_tree = tree and not os.path.isfile(resolved)
    test = (lambda o: o.covers_tree(relative)) if is_tree else (lambda o: o.matches(relative))
    if test(_scratch(ctx)) or test(worker.ownership):
        return []
    whole = f"everything below {resolved}" if is_tree else resolved
    return [Violation(
        code=code,
        message=f"{what} writes {whole}, which this worker's ownership does not match. {owns}: write only there, and name what else needs changing in your answer.",
        resolved=resolved,
        **common,
    )]


def check_shell(call: ToolCall, ctx: Context, worker: Worker) -> list[Violation]:
    from ..rules.bash import analyse

    command = call.input.get("command")
    if not isinstance(command, str):
        return [_violation(call, ctx, "WG000", "The shell call has no `command` string, so worktree-guard cannot check what this worker writes.")]
    walker, _ = analyse(command, ctx, on_command=lambda step: worker_command(step, ctx, worker), on_redirect=lambda step: worker_redirect(step, ctx, worker))
    findings = walker.findings
    if worker.isolated:  # the bash rule reports what cannot be parsed already
        findings = [v for v in findings if v.code not in ("WG900", "WG901")]
    return findings


# What a simple command or a redirection writes comes from `shell.written`, the one answer every rule shares.


def command_writes(step: ShellCommand, ctx: Context) -> list[tuple[Any, str | None, str, bool]]:
    """(word, path or None, how, whole tree?) for each path a simple command writes or links to (`shell.written`;
    an unknown program's operand is the shared boundary's business, not a write the wave blames). A relative path
    is made absolute when it is not relative to the command's own directory (`git -C d`, `ln -s` targets)."""
    import os

    from ..rules.writes import tables_for
    from ..shell.programs import CWD
    from ..shell.written import command_writes as written_by

    out: list[tuple[Any, str | None, str, bool]] = []
    for record in written_by(step, tables_for(ctx)):
        if record.kind == "operand":
            continue
        if record.value == CWD:
            out.append((record.word, record.cwd, record.how, True))
            continue
        value = record.value
        if value is not None and not value.startswith(("/", "~")) and record.cwd != step.cwd:
            value = None if record.cwd is None else os.path.join(record.cwd, value)
        out.append((record.word, value, record.how, record.recursive))
    return out


def redirect_writes(redirect: ShellRedirect) -> list[str | None] | None:
    """The path a redirection writes (None inside: only known at run time); None when it writes no file."""
    from ..shell.written import redirect_writes as written_by

    records = written_by(redirect)
    return [record.value for record in records] or None


def worker_redirect(redirect: ShellRedirect, ctx: Context, worker: Worker) -> list[Violation]:
    values = redirect_writes(redirect)
    if values is None:
        return []
    node = redirect.redirect
    found: list[Violation] = []
    for value in values:
        found += judge_write(ctx, worker, value, node.target.raw if node.target else "", redirect.cwd, node.span, f"the redirection `{node.op}`")
    return found


def surface_table(ctx: Context) -> dict[str, tuple[Surface, ...]]:
    """The built-in hidden-surface table with every plugin's rows over it, built once per call."""
    from ..plugins import merged_table

    return merged_table(ctx, "worktree_guard_hidden_surfaces")


@hookimpl
def worktree_guard_hidden_surfaces() -> dict[str, tuple[Surface, ...]]:
    from .surfaces import BUILTIN_SURFACES

    return dict(BUILTIN_SURFACES)


def worker_command(step: ShellCommand, ctx: Context, worker: Worker) -> list[Violation]:
    from .surfaces import surfaces_of

    name = step.name
    if name is None:
        return []
    found: list[Violation] = []
    for word, value, how, tree in command_writes(step, ctx):
        written = word.raw if word is not None else str(value)
        found += judge_write(ctx, worker, value, written, step.cwd, word.span if word is not None else step.span, how, tree=tree)
    if name == "git" and not worker.isolated:
        from ..rules.git import writes_repository
        from ..shell.git_call import read_git_call

        git_call = read_git_call(step)
        if writes_repository(git_call):
            what = f"`git {git_call.subcommand}`" if git_call.subcommand else "this git command"
            found.append(Violation(
                code="WG703", rule=RULE, tool=ctx.call.tool, span=step.span, worktree_root=worker.root,
                message=f"{what} writes the index, refs, HEAD, stash, config or worktrees that every worker of {worker.root} shares: "
                "workers leave git to the orchestrator. Read-only git (status, diff, log, show) is fine; say in your answer what should be committed.",
            ))
    values = step.values()
    hidden: list[Violation] = []
    kinds: list[str] = []
    for surface in surfaces_of(name, values[1:], surface_table(ctx)):
        refused = judge_write(ctx, worker, surface.path, surface.path or name, step.cwd, step.span, "", tree=surface.tree, code="WG702")
        hidden += refused
        if refused and surface.kind not in kinds:
            kinds.append(surface.kind)
    if hidden:  # one violation per command, listing every surface it does not own
        places = [v.resolved or "a path only known at run time" for v in hidden]
        whole = [f"everything below {p}" if "everything below" in v.message else p for v, p in zip(hidden, places)]
        found.append(Violation(
            code="WG702", rule=RULE, tool=ctx.call.tool, span=step.span, worktree_root=worker.root, path=name, resolved=hidden[0].resolved,
            message=f"`{name}` ({' and '.join(kinds)}) writes beyond its operands: {', '.join(whole)}, which this worker's ownership does not match. "
            f"This worker owns {worker.ownership.describe()} ({worker.ownership.source}); leave this command to the orchestrator, or ask for those files to be yours.",
        ))
    return found


# --- a worker's start and stop --------------------------------------------------------------------------------


@hookimpl
def worktree_guard_agent_event(event: AgentEvent, scope: AgentScope, pm: pluggy.PluginManager | None = None) -> EventVerdict | None:
    layout = scope.layout
    if not layout.common_dir or not layout.worktree_root:
        return None
    if event.event == "SubagentStart":
        return on_start(event, scope, pm)
    if event.event == "SubagentStop":
        return on_stop(event, scope, pm)
    return None


def _session_has_wave(workers: Any, event: AgentEvent, scope: AgentScope) -> bool:
    from .linking import configured_ownership
    from .registry import session_declared

    return session_declared(workers, event.session_id) or configured_ownership(scope.settings, event.agent_type) is not None


def on_start(event: AgentEvent, scope: AgentScope, pm: Any) -> EventVerdict | None:
    """Record the start of a sub-agent of a session with a wave, and what its checkout looked like then."""
    from .linking import link, record
    from .registry import Registry
    from .snapshots import snapshot

    registry = Registry(scope.layout.common_dir or "")
    if not _session_has_wave(registry.load(), event, scope):
        return None
    root = scope.layout.worktree_root or scope.cwd
    isolated = scope.isolation.isolated
    (state,) = snapshot([root], [root], ignored=True)
    with registry.changing() as workers:
        record(workers, event, started=time.time(), checkout=root, base_head=state.head if isolated else None)
    if not isolated:
        registry.write("snapshots", event.agent_id, state.model_dump_json())
    link(event, registry, pm)  # the runtime may have recorded its dispatch already
    return None


def on_stop(event: AgentEvent, scope: AgentScope, pm: Any) -> EventVerdict | None:
    from .blame import blame_of, block_reason
    from .linking import record, safe_worker_for
    from .registry import Registry

    registry = Registry(scope.layout.common_dir or "")
    workers = registry.load()
    entry = workers.agents.get(event.agent_id)
    if entry is None:
        return None
    if entry.started is None or entry.checkout is None:  # its start was not seen: nothing to compare, but it ran
        _stopped(registry, event)
        return None
    isolated = entry.base_head is not None or scope.isolation.isolated
    worker = safe_worker_for(event, entry.checkout, isolated, scope.settings, scope.layout.common_dir, pm)
    if worker is None or worker.isolated:
        verdict = overlap_report(event, entry, registry) if worker is not None and worker.isolated else None
        _stopped(registry, event)
        return verdict
    blame = blame_of(registry, event.agent_id, worker, scope.settings.scratch, time.time())
    if blame is None:
        _stopped(registry, event)
        return None
    registry.write("blame", event.agent_id, blame.model_dump_json())
    violations = [
        Violation(code="WG706", rule=RULE, tool="SubagentStop", message=f"{os.path.join(worker.root, p.path)} changed while you ran, and your ownership does not match it.", path=p.path, resolved=os.path.join(worker.root, p.path), worktree_root=worker.root)
        for p in blame.blamed
    ] + [
        Violation(code="WG706", rule=RULE, tool="SubagentStop", severity="info", message=f"{os.path.join(worker.root, p)} had uncommitted changes before you started and changed again; it is not rolled back.", path=p, worktree_root=worker.root)
        for p in blame.changed_again
    ]
    if not blame.blamed:
        _stopped(registry, event)
        if not blame.changed_again:
            return None
        note = f"worktree-guard: while worker {event.agent_id} ran, files dirty before it started changed again: {', '.join(blame.changed_again[:MAX_LISTED])} (not blamed, never rolled back). [worktree-guard WG706]"
        return EventVerdict(decision="pass", violations=violations, user_message=note)
    names = ", ".join(p.path for p in blame.blamed[:MAX_LISTED])
    summary = f"worktree-guard: worker {event.agent_type or 'agent'} {event.agent_id} changed files outside its ownership: {names}; `worktree-guard rollback --agent {event.agent_id} --apply` restores them. [worktree-guard WG706]"
    if scope.settings.mode == "warn" or entry.blocks >= 1:
        _stopped(registry, event)
        return EventVerdict(decision="warn", violations=violations, user_message=summary)
    with registry.changing() as changing:
        record(changing, event, blocks=entry.blocks + 1)
    return EventVerdict(decision="block", violations=violations, reason=block_reason(blame, worker, blame.wave), user_message=summary)


def _stopped(registry: Any, event: AgentEvent) -> None:
    from .linking import record

    with registry.changing() as workers:
        record(workers, event, stopped=time.time())


def overlap_report(event: AgentEvent, entry: Any, registry: Any) -> EventVerdict | None:
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
