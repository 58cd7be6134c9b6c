"""The file-tool rule (SPEC §5.1): Write, Edit, MultiEdit, NotebookEdit stay in W; reads optionally too."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hookspecs import hookimpl
from ..model import Violation

if TYPE_CHECKING:
    from ..engine import Context
    from ..model import FileWrite, ToolCall

RULE = "files"


@hookimpl
def worktree_guard_check_call(call: ToolCall, ctx: Context) -> list[Violation] | None:
    if call.kind == "file_write" or call.file_writes is not None:
        return check_write(call, ctx)
    if call.kind == "file_read" and ctx.settings.reads != "off":
        return check_read(call, ctx)
    return None


def _missing_path(call: ToolCall, ctx: Context) -> Violation:
    where = f"`{call.path_field}` string" if call.file_writes is None else "path in every file it names"
    return Violation(
        code="WG000",
        rule=RULE,
        tool=call.tool,
        message=f"The {call.tool} call has no usable {where}, so worktree-guard cannot check where it writes.",
        worktree_root=ctx.worktree_root,
    )


def check_write(call: ToolCall, ctx: Context) -> list[Violation]:
    """Every path the call writes (`call.writes`) is judged; a rewrite is offered only when each refused path
    is a WG101 held whole by an input field, so that replacing those fields is exactly the corrected call."""
    writes = call.writes
    if not writes or any(not w.path or "\0" in w.path for w in writes):
        return [_missing_path(call, ctx)]
    findings = [(write, finding) for write in writes if (finding := _judge_write(call, ctx, write)) is not None]
    fixable = all(f.code == "WG101" and f.suggestion is not None and w.input_field is not None for w, f in findings)
    if findings and fixable:
        fixed = {**call.input, **{w.input_field: f.suggestion for w, f in findings if w.input_field is not None}}
        for _, finding in findings:
            finding.fixed_input = fixed
    return [finding for _, finding in findings]


def _judge_write(call: ToolCall, ctx: Context, write: FileWrite) -> Violation | None:
    path = write.path
    judgement = ctx.policy.judge(path, ctx.cwd)
    root = ctx.worktree_root
    common = dict(rule=RULE, tool=call.tool, path=path, resolved=judgement.resolved, worktree_root=root)
    if judgement.place == "protected":
        return Violation(code="WG103", message=f"{judgement.resolved} is protected inside this worktree and may not be written.", **common)
    if judgement.ok:
        return None
    if judgement.place == "shared":
        return Violation(
            code="WG101",
            message=f"{judgement.resolved} is in the shared checkout {judgement.shared_root}, not in this agent's worktree {root}.",
            shared_root=judgement.shared_root,
            suggestion=judgement.suggestion,
            **common,
        )
    return Violation(
        code="WG102",
        message=f"{judgement.resolved} is outside this agent's worktree {root} and outside the allow-list; write inside {root} or a temp dir.",
        **common,
    )


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
