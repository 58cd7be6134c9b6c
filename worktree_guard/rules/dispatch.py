"""The nested-dispatch rule (SPEC §5.3): what an isolated agent dispatches is isolated too.

Agent (formerly Task), kind "dispatch" (a dispatch whose sub-agent always runs in the dispatcher's cwd,
`subagent_place == "dispatcher_cwd"`, has nothing to check here: that cwd confines the sub-agent):
- no `isolation` field → the call is rewritten to add `"isolation": "worktree"` (WG501, applied in enforce mode
  too), unless the target's definition already declares it or a `cwd` inside W places it there (WG501 as info);
- `isolation` set to anything but a worktree → WG502, unless `allow_isolation_downgrade` (then info);
- a `cwd` field outside W → WG503;
- a fork requested by a fork → WG504.
EnterWorktree, kind "enter_worktree": a `path` outside W → WG505.

The rewrite echoes the complete input with only `isolation` added: the Agent tool's schema has
`additionalProperties: false`, so anything else would make the call fail validation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..agents import ISOLATION_ALIASES
from ..hookspecs import hookimpl
from ..model import Violation

if TYPE_CHECKING:
    from ..engine import Context
    from ..model import ToolCall

RULE = "dispatch"
FORK = "fork"
DEFAULT_AGENT_TYPE = "general-purpose"  # what Claude Code runs when `subagent_type` is left out
# Isolation values that keep the dispatched agent out of every shared checkout. "remote" runs it elsewhere.
CONFINED_VALUES = ISOLATION_ALIASES | {"remote"}


@hookimpl
def worktree_guard_check_any_call(call: ToolCall, ctx: Context) -> list[Violation] | None:
    """Forks are single-level, whoever forks (a fork of the main agent runs in its checkout, not isolated)."""
    if call.kind == "dispatch" and call.input.get("subagent_type") == FORK and (call.agent_type or "").lower() == FORK:
        return [_violation(call, ctx, "WG504", "This agent is a fork and may not fork again: forks are single-level. Do the work here, or dispatch a named sub-agent.")]
    return None


@hookimpl
def worktree_guard_check_call(call: ToolCall, ctx: Context) -> list[Violation] | None:
    if call.kind == "dispatch":
        return check_dispatch(call, ctx)
    if call.kind == "enter_worktree":
        return check_enter_worktree(call, ctx)
    return None


def _violation(call: ToolCall, ctx: Context, code: str, message: str, **extra: Any) -> Violation:
    return Violation(code=code, rule=RULE, tool=call.tool, message=message, worktree_root=ctx.worktree_root, **extra)


def check_dispatch(call: ToolCall, ctx: Context) -> list[Violation]:
    if call.subagent_place == "dispatcher_cwd":
        # The runtime runs the sub-agent in this agent's cwd, with no say in the call: it is confined to W by
        # that cwd, as this agent is. Nothing to add, nothing to refuse.
        return []
    findings: list[Violation] = []
    target = call.input.get("subagent_type")
    cwd_inside = False
    if "cwd" in call.input:
        cwd_finding = _check_cwd(call, ctx)
        if cwd_finding is None:
            cwd_inside = True
        else:
            findings.append(cwd_finding)
    findings.extend(_check_isolation(call, ctx, target, cwd_inside))
    return findings


def _check_cwd(call: ToolCall, ctx: Context) -> Violation | None:
    """None when the `cwd` field lies inside W; otherwise a WG503 (or WG000 when it is not a path)."""
    value = call.input["cwd"]
    if not isinstance(value, str) or not value or "\0" in value:
        return _violation(call, ctx, "WG000", f"The {call.tool} call's `cwd` is not a usable path ({value!r}), so worktree-guard cannot check where the sub-agent would run.")
    judgement = ctx.policy.judge(value, ctx.cwd)
    if judgement.place == "inside":
        return None
    where = f"the shared checkout {judgement.shared_root}" if judgement.place == "shared" else "outside it"
    return _violation(
        call,
        ctx,
        "WG503",
        f"The sub-agent would run in {judgement.resolved}, {where}, not in this agent's worktree {ctx.worktree_root}; leave out `cwd` (the sub-agent gets its own worktree) or name a directory inside {ctx.worktree_root}.",
        path=value,
        resolved=judgement.resolved,
        shared_root=judgement.shared_root,
        suggestion=judgement.suggestion,
    )


def _check_isolation(call: ToolCall, ctx: Context, target: Any, cwd_inside: bool) -> list[Violation]:
    if "isolation" in call.input:
        value = call.input["isolation"]
        if isinstance(value, str) and value.strip().lower() in CONFINED_VALUES:
            return []
        allowed = ctx.settings.allow_isolation_downgrade
        return [
            _violation(
                call,
                ctx,
                "WG502",
                f"This agent is isolated in {ctx.worktree_root} and may not dispatch a sub-agent with isolation {value!r}: "
                'use "isolation": "worktree" (or leave the field out).',
                severity="info" if allowed else "error",
                suggestion='"isolation": "worktree"',
            )
        ]
    if cwd_inside:
        # `cwd` and `isolation` are mutually exclusive in the Agent tool; a cwd inside W keeps it in this worktree.
        return [_violation(call, ctx, "WG501", f"The sub-agent runs in this agent's worktree {ctx.worktree_root} (its `cwd`), so no isolation is added.", severity="info")]
    name = target if isinstance(target, str) and target else DEFAULT_AGENT_TYPE
    definition = ctx.find_definition(name)
    if definition is not None and definition.isolated:
        return [_violation(call, ctx, "WG501", f"The sub-agent {name!r} declares isolation: {definition.isolation} in {definition.path}.", severity="info")]
    return [
        _violation(
            call,
            ctx,
            "WG501",
            f"This agent is isolated in {ctx.worktree_root}, so the sub-agent {name!r} it dispatches must be isolated too.",
            suggestion='"isolation": "worktree"',
            fixed_input={**call.input, "isolation": "worktree"},
            fix_in_enforce=True,
        )
    ]


def check_enter_worktree(call: ToolCall, ctx: Context) -> list[Violation]:
    if "path" not in call.input:
        return []  # `name`: a new worktree of this agent's own repository, made by the runtime
    value = call.input["path"]
    if not isinstance(value, str) or not value or "\0" in value:
        return [_violation(call, ctx, "WG000", f"The EnterWorktree call's `path` is not a usable path ({value!r}), so worktree-guard cannot check it.")]
    judgement = ctx.policy.judge(value, ctx.cwd)
    if judgement.place == "inside":
        return []
    return [
        _violation(
            call,
            ctx,
            "WG505",
            f"EnterWorktree would move this agent to {judgement.resolved}, outside its own worktree {ctx.worktree_root}; stay in {ctx.worktree_root}.",
            path=value,
            resolved=judgement.resolved,
            shared_root=judgement.shared_root,
        )
    ]
