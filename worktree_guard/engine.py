"""decide(call) → Verdict: finds W, S and isolation, runs the rules, merges their findings, picks the answer.

The engine knows no runtime (adapters do) and no rule (plugins do).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

import pluggy

from .agents import AgentDefinition, find_agent_definition
from .config import EffectiveConfig, Layer, Settings, load_config
from .isolation import Isolation, decide_isolation
from .layout import Layout, find_layout, with_explicit_root
from .model import ToolCall, Verdict, Violation
from .paths import canonical, home_dir
from .policy import PathPolicy

GUARDED_WHEN_MISPLACED = ("file_write", "shell", "dispatch", "enter_worktree")


@dataclass(slots=True)
class Context:
    """Everything a rule needs to judge one call."""

    call: ToolCall
    cwd: str
    config: EffectiveConfig
    layout: Layout
    isolation: Isolation
    policy: PathPolicy
    definition: AgentDefinition | None = None
    pm: pluggy.PluginManager | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def settings(self) -> Settings:
        return self.config.settings

    @property
    def worktree_root(self) -> str | None:
        return self.layout.worktree_root


class CallError(Exception):
    """The call itself cannot be judged (no usable cwd, wrong field types): a WG000 for an isolated agent."""


def project_root_of(layout: Layout) -> str | None:
    """Where the project's configuration is read: the main worktree, which an isolated agent cannot write.

    An agent could otherwise loosen its own guard by writing a config file into its worktree. A linked
    worktree of a bare repository has no main worktree; there it is W itself.
    """
    if layout.linked and layout.shared_roots and layout.common_dir:
        main = os.path.dirname(layout.common_dir) if os.path.basename(layout.common_dir) == ".git" else None
        if main in layout.shared_roots:
            return main
    return layout.worktree_root


def build_context(
    call: ToolCall,
    *,
    flags: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
    pm: pluggy.PluginManager | None = None,
) -> Context:
    """Layout, agent definition, configuration, isolation and path policy for one call."""
    if not call.cwd or not os.path.isabs(call.cwd):
        raise CallError(f"the call has no absolute cwd (got {call.cwd!r})")
    home = home_dir()
    cwd = canonical(call.cwd, "/", home)
    layout = find_layout(cwd)
    definition = find_agent_definition(call.agent_type, cwd, home) if call.agent_type else None
    frontmatter = (
        Layer(f"agent definition {definition.path} (worktree-guard:)", {k.replace("-", "_"): v for k, v in definition.guard_settings.items()})
        if definition is not None and definition.guard_settings
        else None
    )
    config = load_config(project_root_of(layout), frontmatter=frontmatter, flags=flags, environ=environ)
    settings = config.settings
    if settings.worktree_root:
        root = canonical(settings.worktree_root, cwd, home)
        layout = with_explicit_root(root, [canonical(s, cwd, home) for s in settings.shared_roots])
    elif settings.shared_roots:
        extra = [canonical(s, cwd, home) for s in settings.shared_roots]
        layout.shared_roots.extend(s for s in extra if s not in layout.shared_roots and s != layout.worktree_root)
    return context_for_layout(call, layout, config, pm, definition=definition, home=home)


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
    """The Context for a layout found by the caller: build_context's last step, and `validate`'s way in.

    `validate` reconstructs W and S from a recorded session (the worktrees may be gone) and passes the
    recorded `home`; it may reuse one `policy` for every call of the same layout, settings and home.
    """
    if not call.cwd or not os.path.isabs(call.cwd):
        raise CallError(f"the call has no absolute cwd (got {call.cwd!r})")
    home = home_dir() if home is None else home
    settings = config.settings
    isolation = decide_isolation(layout, settings, call.agent_type, definition)
    if policy is None:
        policy = PathPolicy(layout, settings.allow, settings.protect, home)
    cwd = canonical(call.cwd, "/", home)
    return Context(call=call, cwd=cwd, config=config, layout=layout, isolation=isolation, policy=policy, definition=definition, pm=pm)


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


def run_rules(call: ToolCall, ctx: Context) -> list[Violation]:
    """Every rule plugin's findings for this call, in registration order."""
    if ctx.pm is None:
        raise CallError("no plugin manager")
    results = ctx.pm.hook.worktree_guard_check_call(call=call, ctx=ctx)
    findings: list[Violation] = []
    for result in reversed(results):  # pluggy calls the last-registered first; report in registration order
        if result:
            findings.extend(result)
    return findings


def decide(call: ToolCall, ctx: Context) -> Verdict:
    """The verdict for one call (SPEC §5, §6). Exceptions propagate: the caller turns them into WG000."""
    settings = ctx.settings
    root = ctx.layout.worktree_root
    isolated = ctx.isolation.isolated
    if settings.mode == "off" or not isolated:
        return Verdict(decision="pass", worktree_root=root, isolated=isolated)
    if call.kind == "other" or call.tool in settings.pass_tools:
        return Verdict(decision="pass", worktree_root=root, isolated=True)
    if ctx.isolation.misplaced and call.kind in GUARDED_WHEN_MISPLACED:
        findings = [_misplaced(call, ctx)]
    elif call.kind == "unknown":
        findings = [_unknown_tool(call, ctx)]
    else:
        findings = run_rules(call, ctx)
    return combine(findings, settings, root)


def combine(findings: list[Violation], settings: Settings, root: str | None) -> Verdict:
    """Merge the rules' findings into one verdict according to the mode."""
    errors = [v for v in findings if v.severity == "error"]
    if not errors:
        warned = any(v.severity == "warning" for v in findings)
        return Verdict(decision="warn" if warned else "pass", violations=findings, worktree_root=root, isolated=True)
    if settings.mode == "warn":
        return Verdict(decision="warn", violations=findings, worktree_root=root, isolated=True)
    if settings.mode == "rewrite":
        fixes = [v.fixed_input for v in errors]
        if all(f is not None for f in fixes) and all(f == fixes[0] for f in fixes):
            return Verdict(decision="rewrite", violations=findings, updated_input=fixes[0], worktree_root=root, isolated=True)
    return Verdict(decision="deny", violations=findings, worktree_root=root, isolated=True)


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
