"""The file-tool rule (SPEC §5.1): Write, Edit, MultiEdit, NotebookEdit stay in W; reads optionally too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hookspecs import hookimpl
from ..model import Violation

if TYPE_CHECKING:
    from ..engine import Context
    from ..model import ToolCall

RULE = "files"


@hookimpl
def worktree_guard_check_call(call: ToolCall, ctx: Context) -> list[Violation] | None:
    if call.kind == "file_write":
        return check_write(call, ctx)
    if call.kind == "file_read" and ctx.settings.reads != "off":
        return check_read(call, ctx)
    return None


def _missing_path(call: ToolCall, ctx: Context) -> Violation:
    return Violation(
        code="WG000",
        rule=RULE,
        tool=call.tool,
        message=f"The {call.tool} call has no usable `{call.path_field}` string, so worktree-guard cannot check where it writes.",
        worktree_root=ctx.worktree_root,
    )


def check_write(call: ToolCall, ctx: Context) -> list[Violation]:
    path = call.path
    if path is None or not path or "\0" in path:
        return [_missing_path(call, ctx)]
    judgement = ctx.policy.judge(path, ctx.cwd)
    root = ctx.worktree_root
    common = dict(rule=RULE, tool=call.tool, path=path, resolved=judgement.resolved, worktree_root=root)
    if judgement.place == "protected":
        return [Violation(code="WG103", message=f"{judgement.resolved} is protected inside this worktree and may not be written.", **common)]
    if judgement.ok:
        return []
    if judgement.place == "shared":
        fixed = None
        if judgement.suggestion is not None and call.path_field is not None:
            fixed = {**call.input, call.path_field: judgement.suggestion}
        return [
            Violation(
                code="WG101",
                message=f"{judgement.resolved} is in the shared checkout {judgement.shared_root}, not in this agent's worktree {root}.",
                shared_root=judgement.shared_root,
                suggestion=judgement.suggestion,
                fixed_input=fixed,
                **common,
            )
        ]
    return [
        Violation(
            code="WG102",
            message=f"{judgement.resolved} is outside this agent's worktree {root} and outside the allow-list; write inside {root} or a temp dir.",
            **common,
        )
    ]


def check_read(call: ToolCall, ctx: Context) -> list[Violation]:
    path = call.path or ctx.cwd
    judgement = ctx.policy.judge(path, ctx.cwd)
    if judgement.place != "shared":
        return []
    return [
        Violation(
            code="WG104",
            rule=RULE,
            tool=call.tool,
            severity="error" if ctx.settings.reads == "deny" else "warning",
            message=f"{judgement.resolved} is in the shared checkout {judgement.shared_root}: it may be stale for this agent's worktree {ctx.worktree_root}.",
            path=path,
            resolved=judgement.resolved,
            worktree_root=ctx.worktree_root,
            shared_root=judgement.shared_root,
            suggestion=judgement.suggestion,
        )
    ]
