"""decide(call) → Verdict: finds W, S and isolation, runs the rules, merges their findings, picks the answer.

The engine knows no runtime (adapters do) and no rule (plugins do).
"""

from __future__ import annotations

import os
from typing import Any

import pluggy

from .fast_dataclass import fast_dataclass, field, replace
from .agents import AgentDefinition, find_agent_definition
from .config import PROJECT_FILE, EffectiveConfig, Layer, Settings, load_config
from .isolation import Isolation, decide_isolation
from .layout import Layout, LayoutUnknown, find_layout, layout_of_cwd, main_worktree_of, with_explicit_root
from .model import AgentEvent, EventVerdict, ToolCall, Verdict, Violation
from .paths import canonical, home_dir, inside
from .policy import PathPolicy, runtime_homes

GUARDED_WHEN_MISPLACED = ("file_write", "shell", "powershell", "dispatch", "enter_worktree")
UNKNOWN = object()  # Context.worker before the plugins were asked


@fast_dataclass(slots=True)
class AgentScope:
    """Where one agent stands: W and S, its definition, configuration, isolation and path policy."""

    cwd: str
    config: EffectiveConfig
    layout: Layout
    isolation: Isolation
    policy: PathPolicy
    definition: AgentDefinition | None
    definitions_from: str  # where agent definitions are looked up (definitions_start)

    @property
    def settings(self) -> Settings:
        return self.config.settings

    def find_definition(self, agent_type: str) -> AgentDefinition | None:
        """Another agent's definition (e.g. a dispatch target), found where this agent's own was looked up."""
        return find_agent_definition(agent_type, self.definitions_from, self.policy.home)


@fast_dataclass(slots=True)
class Context:
    """Everything a rule needs to judge one call: the call and its agent's scope."""

    call: ToolCall
    scope: AgentScope
    pm: pluggy.PluginManager | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    worker: Any = UNKNOWN  # the wave worker making the call (SPEC §11), found once by `find_worker`
    live: bool = True  # False when replaying a recorded call (`validate`): no state of running agents applies

    @property
    def cwd(self) -> str:
        return self.scope.cwd

    @property
    def config(self) -> EffectiveConfig:
        return self.scope.config

    @property
    def layout(self) -> Layout:
        return self.scope.layout

    @property
    def isolation(self) -> Isolation:
        return self.scope.isolation

    @property
    def policy(self) -> PathPolicy:
        return self.scope.policy

    @property
    def definition(self) -> AgentDefinition | None:
        return self.scope.definition

    @property
    def settings(self) -> Settings:
        return self.scope.config.settings

    @property
    def worktree_root(self) -> str | None:
        return self.scope.layout.worktree_root

    def find_definition(self, agent_type: str) -> AgentDefinition | None:
        return self.scope.find_definition(agent_type)


class CallError(Exception):
    """The call itself cannot be judged (no usable cwd, wrong field types): a WG000 for an isolated agent."""


def main_worktree_in(layout: Layout) -> str | None:
    """The main worktree of a linked worktree's repository, as git names it (`core.worktree`, else the common
    dir's parent) when it is a shared root; None for a bare repository (it has none) and for any other layout."""
    if not (layout.linked and layout.common_dir):
        return None
    main = layout.main_worktree or main_worktree_of(layout.common_dir, strict=True)
    return main if main in layout.shared_roots else None


def project_root_of(layout: Layout) -> str | None:
    """Where the project's configuration and agent definitions are read: never a place the agent can write.

    An isolated agent can write its own worktree, and any worktree it made inside it, so a config file or an
    agent definition there would let it loosen its own guard. For a linked worktree this is the main worktree;
    for a bare repository's, which has none, the directory that holds the repository (`proj` for `proj/.bare`);
    either only when it lies in no linked worktree that holds the cwd (`layout.enclosing`, W among them), else
    None (no project file). For any other layout, W itself (the agent's own checkout: it is not isolated).
    """
    if not layout.linked:
        return layout.worktree_root
    mine = [top for top in (layout.worktree_root, *layout.enclosing) if top]
    if not mine:
        return None
    for candidate in (main_worktree_in(layout), os.path.dirname(layout.common_dir) if layout.common_dir else None):
        if candidate and not any(inside(candidate, top) for top in mine):
            return candidate
    return None


def definitions_start(layout: Layout, cwd: str) -> str:
    """Where agent definitions are looked up: the project root for a linked worktree (`/` when it has none, so
    that only the user's definitions count), else the cwd.

    Claude Code loads a session's agents from its project, not from a sub-agent's worktree; and an isolated
    agent can write its own worktree, so a definition there must not loosen its guard (as for the project file).
    """
    if layout.linked:
        return project_root_of(layout) or "/"
    return cwd


def scope_for(
    cwd: str,
    agent_type: str | None,
    *,
    flags: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
    layout: Layout | None = None,
) -> AgentScope:
    """Layout, agent definition, configuration, isolation and path policy for an agent working in `cwd`
    (`layout`: W and S found otherwise, for a cwd that cannot be placed)."""
    if not cwd or not os.path.isabs(cwd):
        raise CallError(f"the call has no absolute cwd (got {cwd!r})")
    home = home_dir()
    cwd = canonical(cwd, "/", home)
    if layout is None:
        # A cwd that is gone (a deleted worktree) or not a directory: placed from git's records or not at all.
        layout = layout_of_cwd(cwd)
    start = definitions_start(layout, cwd)
    definition = find_agent_definition(agent_type, start, home) if agent_type else None
    root = project_root_of(layout)
    found = replace(layout, shared_roots=list(layout.shared_roots))
    scope = _scope_with(cwd, agent_type, layout, root, definition, flags, environ, home, start)
    candidates = _config_files(found, root, definition)
    if not candidates:
        return scope
    base = load_config(None, flags=flags, environ=environ).settings  # the layers the agent cannot write
    trusted_isolated = (
        found.linked or base.isolated is True or bool(agent_type and agent_type in base.isolated_agents)
        or bool(base.worktree_root)
    )
    # any definition found goes on: one the agent could write may hide one it did not, which declares isolation
    # (phase 21), whether or not it declares isolation itself
    if not (scope.isolation.isolated or trusted_isolated or definition is not None):
        return scope  # free with or without them: its own files configure it
    can_write = _agent_can_write(found, base, home, cwd)
    written = {kind for kind, path in candidates if can_write(path)}
    if not written:
        return scope
    # A file the agent could have written configures it only while it is free anyway: an agent that is isolated
    # with it, or without it, is judged without it (a definition it wrote hides none it did not), and stays isolated.
    if "definition" in written and agent_type:
        definition = find_agent_definition(agent_type, start, home, skip=can_write)
    clean = _scope_with(cwd, agent_type, found, None if "project" in written else root, definition, flags, environ, home, start)
    if not (scope.isolation.isolated or clean.isolation.isolated):
        return scope  # free with or without them (`--isolated=false` outranks every file)
    if not clean.isolation.isolated:
        clean.isolation = Isolation(isolated=True, reason=scope.isolation.reason + " (from a file this agent can write: only its isolation counts)", misplaced=scope.isolation.misplaced)
    elif scope.isolation.misplaced and not clean.isolation.misplaced:
        clean.isolation = Isolation(isolated=True, reason=clean.isolation.reason, misplaced=True)  # WG002 only tightens
    # What the file adds to the shared checkouts only tightens: they stay shared (a write there stays refused).
    added = [r for r in scope.layout.shared_roots if r not in clean.layout.shared_roots and r != clean.layout.worktree_root]
    if added:
        clean.layout.shared_roots.extend(added)
        clean.policy = PathPolicy(clean.layout, clean.settings.allow, clean.settings.protect, home)
    return clean


def _scope_with(
    cwd: str,
    agent_type: str | None,
    layout: Layout,
    root: str | None,
    definition: AgentDefinition | None,
    flags: dict[str, Any] | None,
    environ: dict[str, str] | None,
    home: str,
    start: str,
) -> AgentScope:
    frontmatter = (
        Layer(f"agent definition {definition.path} (worktree-guard:)", {str(k).replace("-", "_"): v for k, v in definition.guard_settings.items()})
        if definition is not None and definition.guard_settings
        else None
    )
    config = load_config(root, frontmatter=frontmatter, flags=flags, environ=environ)
    settings = config.settings
    if settings.worktree_root:
        explicit = canonical(settings.worktree_root, cwd, home)
        layout = with_explicit_root(explicit, [canonical(s, cwd, home) for s in settings.shared_roots])
    elif settings.shared_roots:
        extra = [canonical(s, cwd, home) for s in settings.shared_roots]
        layout.shared_roots.extend(s for s in extra if s not in layout.shared_roots and s != layout.worktree_root)
    return scope_for_layout(cwd, agent_type, layout, config, definition=definition, home=home, definitions_from=start)


def _config_files(layout: Layout, root: str | None, definition: AgentDefinition | None) -> list[tuple[str, str]]:
    """The project file(s) and the agent's definition this scope read, as ("project" | "definition", path), less
    those in a shared checkout that is not the agent's (the usual case, the main worktree's): the agent cannot
    write those."""
    candidates: list[tuple[str, str]] = []
    if root is not None:
        candidates += [("project", os.path.join(root, name)) for name in (PROJECT_FILE, "pyproject.toml") if os.path.lexists(os.path.join(root, name))]
    if definition is not None:
        candidates.append(("definition", definition.path))
    if len(layout.enclosing) > 1:
        return candidates  # W nested in another linked worktree: its shared checkouts may be ones the agent made
    shared = [r for r in (*layout.shared_roots, layout.common_dir) if r]
    mine = [r for r in (layout.worktree_root, *layout.enclosing) if r]
    return [
        (kind, path) for kind, path in candidates
        if not any(inside(os.path.abspath(path), r) for r in shared) or any(inside(os.path.abspath(path), r) for r in mine)
    ]


def _agent_can_write(layout: Layout, base: Settings, home: str, cwd: str = "/") -> Any:
    """Could the agent write this file? Judged by the path policy of the layers it cannot write (`base`: the
    defaults, the user file, the environment, the flags), so that a file cannot vouch for itself (`protect` it, or
    `allow` its place); the path as found and as it resolves. A relative root is the cwd's, as for the scope
    (phase 21: read from `/`, `WORKTREE_GUARD_WORKTREE_ROOT=.` made every file the agent's)."""
    if base.worktree_root:
        layout = with_explicit_root(canonical(base.worktree_root, cwd, home), [canonical(s, cwd, home) for s in base.shared_roots])
    elif len(layout.enclosing) > 1:
        # W nested in another linked worktree (`git worktree add x` of a clone it made in /tmp, then `cd x`): what
        # the agent can write is judged from the outermost one, whose shared checkouts it did not make.
        layout = find_layout(layout.enclosing[-1])
    policy = PathPolicy(layout, base.allow, base.protect, home)
    # The runtimes' directories are refused to the writes the guard reads, not to a program it does not read (an
    # inline interpreter): a definition there that the allow-list would let it write still counts as written by it.
    runtimes = [canonical(d, "/", home) for d in runtime_homes({**os.environ, "HOME": home})]

    def can_write(path: str) -> bool:
        for form in {os.path.abspath(path), canonical(path, "/", home)}:
            judgement = policy.judge_resolved(form)
            if judgement.ok or (judgement.place == "outside" and policy.allow.matches(form) and any(inside(form, d) for d in runtimes)):
                return True
        return False

    return can_write


def scope_for_event(
    event: AgentEvent,
    pm: pluggy.PluginManager,
    *,
    flags: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
) -> AgentScope:
    """scope_for the sub-agent of a start or stop. A stop whose cwd can no longer be placed (the sub-agent removed
    its own worktree) is placed where the lifecycle plugins recorded it at its start: the leak check still runs."""
    try:
        return scope_for(event.cwd, event.agent_type, flags=flags, environ=environ)
    except LayoutUnknown:
        layout = pm.hook.worktree_guard_recorded_layout(event=event)
        if layout is None:
            raise
    return scope_for(event.cwd, event.agent_type, flags=flags, environ=environ, layout=layout)


def scope_for_layout(
    cwd: str,
    agent_type: str | None,
    layout: Layout,
    config: EffectiveConfig,
    *,
    definition: AgentDefinition | None = None,
    home: str | None = None,
    policy: PathPolicy | None = None,
    definitions_from: str | None = None,
) -> AgentScope:
    """The scope for a layout the caller found: scope_for's last step, and `validate`'s way in.

    `validate` reconstructs W and S from a recorded session (the worktrees may be gone) and passes the
    recorded `home`; it may reuse one `policy` for every call of the same layout, settings and home.
    """
    if not cwd or not os.path.isabs(cwd):
        raise CallError(f"the call has no absolute cwd (got {cwd!r})")
    home = home_dir() if home is None else home
    cwd = canonical(cwd, "/", home)
    settings = config.settings
    isolation = decide_isolation(layout, settings, agent_type, definition)
    if policy is None:
        policy = PathPolicy(layout, settings.allow, settings.protect, home)
    return AgentScope(
        cwd=cwd,
        config=config,
        layout=layout,
        isolation=isolation,
        policy=policy,
        definition=definition,
        definitions_from=definitions_from or definitions_start(layout, cwd),
    )


def build_context(
    call: ToolCall,
    *,
    flags: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
    pm: pluggy.PluginManager | None = None,
) -> Context:
    """Layout, agent definition, configuration, isolation and path policy for one call. An agent recorded as
    isolated (a sub-agent at its start, a main agent at a call in its linked worktree) whose cwd is now outside
    that worktree (`cd /tmp/t`) is placed where the record says."""
    started = pm.hook.worktree_guard_started_layout(call=call) if pm is not None else None
    return Context(call=call, scope=scope_for(call.cwd, call.agent_type, flags=flags, environ=environ, layout=started), pm=pm)


def context_for_layout(
    call: ToolCall,
    layout: Layout,
    config: EffectiveConfig,
    pm: pluggy.PluginManager | None = None,
    *,
    definition: AgentDefinition | None = None,
    home: str | None = None,
    policy: PathPolicy | None = None,
) -> Context:
    """A Context for a call whose layout the caller reconstructed (`validate`)."""
    scope = scope_for_layout(call.cwd, call.agent_type, layout, config, definition=definition, home=home, policy=policy)
    return Context(call=call, scope=scope, pm=pm)


def _misplaced(call: ToolCall, ctx: Context) -> Violation:
    where = ctx.layout.worktree_root or ctx.cwd
    return Violation(
        code="WG002",
        rule="engine",
        tool=call.tool,
        message=(
            f"This agent declares worktree isolation but runs in {where}, which is not a linked worktree: "
            "its isolation was not applied. Stop and report this to the user instead of changing files."
        ),
        worktree_root=ctx.layout.worktree_root,
    )


def _unknown_tool(call: ToolCall, ctx: Context) -> Violation:
    return Violation(
        code="WG000",
        rule="engine",
        tool=call.tool,
        message=(
            f"worktree-guard does not know the tool {call.tool!r}, so it cannot tell whether it stays in "
            f"{ctx.layout.worktree_root}; add it to `pass_tools` if it writes nothing, or leave it out of the hook matcher."
        ),
        worktree_root=ctx.layout.worktree_root,
    )


def run_rules(call: ToolCall, ctx: Context, hook: str = "worktree_guard_check_call") -> list[Violation]:
    """Every rule plugin's findings for this call, in registration order."""
    if ctx.pm is None:
        raise CallError("no plugin manager")
    results = getattr(ctx.pm.hook, hook)(call=call, ctx=ctx)
    findings: list[Violation] = []
    for result in reversed(results):  # pluggy calls the last-registered first; report in registration order
        if result:
            findings.extend(result)
    return findings


def find_worker(call: ToolCall, ctx: Context) -> Any:
    """The wave worker making this call (SPEC §11), asked of the plugins once; None when there is none."""
    if ctx.worker is UNKNOWN:
        ctx.worker = ctx.pm.hook.worktree_guard_find_worker(call=call, ctx=ctx) if ctx.pm is not None else None
    return ctx.worker


def confined(ctx: Context) -> bool:
    """Isolated, a worker under a wave, or a call a rule marked (`ctx.extra["confined"]`, e.g. the dispatch of a
    worker): anything the guard cannot judge is refused (fail closed)."""
    return ctx.isolation.isolated or (ctx.worker is not UNKNOWN and ctx.worker is not None) or bool(ctx.extra.get("confined"))


def decide(call: ToolCall, ctx: Context) -> Verdict:
    """The verdict for one call (SPEC §5, §6, §11). Exceptions propagate: the caller turns them into WG000.

    An isolated agent's calls go through every rule. Every agent's calls, isolated or not, go through the rules
    for all agents (`worktree_guard_check_any_call`): a wave's dispatch, a worker's writes, a fork's fork.
    """
    settings = ctx.settings
    root = ctx.layout.worktree_root
    isolated = ctx.isolation.isolated
    if settings.mode == "off":
        return Verdict(decision="pass", worktree_root=root, isolated=isolated)
    if call.kind == "other" or call.tool in settings.pass_tools:
        return Verdict(decision="pass", worktree_root=root, isolated=isolated)
    worker = find_worker(call, ctx)
    findings: list[Violation] = []
    if isolated and ctx.isolation.misplaced and call.kind in GUARDED_WHEN_MISPLACED:
        findings = [_misplaced(call, ctx)]
    elif call.kind == "unknown":
        if isolated or worker is not None:
            findings = [_unknown_tool(call, ctx)]
    else:
        if isolated:
            findings = run_rules(call, ctx)
        findings += run_rules(call, ctx, "worktree_guard_check_any_call")
    if not findings and not isolated:
        return Verdict(decision="pass", worktree_root=root, isolated=False)
    return combine(findings, settings, root, isolated)


def combine(findings: list[Violation], settings: Settings, root: str | None, isolated: bool = True) -> Verdict:
    """Merge the rules' findings into one verdict according to the mode."""
    errors = [v for v in findings if v.severity == "error"]
    if not errors:
        warned = any(v.severity == "warning" for v in findings)
        return Verdict(decision="warn" if warned else "pass", violations=findings, worktree_root=root, isolated=isolated)
    if settings.mode == "warn":
        return Verdict(decision="warn", violations=findings, worktree_root=root, isolated=isolated)
    if settings.mode == "rewrite" or all(v.fix_in_enforce for v in errors):
        fixes = [v.fixed_input for v in errors]
        if all(f is not None for f in fixes) and all(f == fixes[0] for f in fixes):
            return Verdict(decision="rewrite", violations=findings, updated_input=fixes[0], worktree_root=root, isolated=isolated)
    return Verdict(decision="deny", violations=findings, worktree_root=root, isolated=isolated)


def decide_event(event: AgentEvent, scope: AgentScope, pm: pluggy.PluginManager) -> EventVerdict:
    """The answer to a sub-agent's start or stop: every lifecycle plugin's verdict, merged (block wins)."""
    if scope.settings.mode == "off":
        return EventVerdict()
    results = [r for r in reversed(pm.hook.worktree_guard_agent_event(event=event, scope=scope, pm=pm)) if r is not None]
    decisions = {r.decision for r in results}
    decision = "block" if "block" in decisions else "warn" if "warn" in decisions else "pass"

    def joined(texts: list[str | None]) -> str | None:
        return "\n\n".join(t for t in texts if t) or None

    return EventVerdict(
        decision=decision,
        violations=[v for r in results for v in r.violations],
        reason=joined([r.reason for r in results if r.decision == "block"]),
        context=joined([r.context for r in results]),
        user_message=joined([r.user_message for r in results]),
    )


def reason_text(verdict: Verdict) -> str:
    """The reason an agent reads: the sentences and suggestions first, the codes last (SPEC §6)."""
    errors = [v for v in verdict.violations if v.severity == "error"] or [
        v for v in verdict.violations if v.severity == "warning"
    ]
    sentences = []
    for v in errors:
        text = v.message.rstrip()
        if v.suggestion and v.suggestion not in text:
            text += f" Use {v.suggestion} instead." if verdict.decision != "rewrite" else f" Rewritten to {v.suggestion}."
        sentences.append(text)
    codes = sorted({v.code for v in errors})
    return " ".join(sentences) + f" [worktree-guard {' '.join(codes)}]"
