"""The cd rule (SPEC §5.2): `cd`/`pushd`/`popd` may only go inside W or the allow-list (WG201, WG202)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hookspecs import hookimpl
from ..model import Violation

if TYPE_CHECKING:
    from ..engine import Context
    from ..model import ToolCall
    from ..shell.steps import ShellCommand

RULE = "cd"


@hookimpl
def worktree_guard_check_call(call: ToolCall, ctx: Context) -> list[Violation] | None:
    """A shell call that names its own start directory (`shell_cwd`) goes there as a `cd` would."""
    if call.kind != "shell" or call.shell_cwd is None:
        return None
    judgement = ctx.policy.judge(call.shell_cwd, ctx.cwd)
    if judgement.place in ("inside", "protected", "allowed"):
        return None
    if judgement.place == "shared":
        where = f"in the shared checkout {judgement.shared_root}, not in this agent's worktree {ctx.worktree_root}"
    else:
        where = f"outside this agent's worktree {ctx.worktree_root} and the allow-list"
    return [Violation(
        code="WG201",
        rule=RULE,
        tool=call.tool,
        message=f"The command would start in {judgement.resolved}, {where}.",
        path=call.shell_cwd,
        resolved=judgement.resolved,
        worktree_root=ctx.worktree_root,
        shared_root=judgement.shared_root,
        suggestion=judgement.suggestion,
    )]


@hookimpl
def worktree_guard_shell_command(command: ShellCommand, ctx: Context) -> list[Violation] | None:
    from ..shell.builtins import directory_change

    change = directory_change(command)
    if change is None or not change.moves:
        return None
    name = command.name
    span = change.word.span if change.word is not None else command.span
    common = dict(rule=RULE, tool=ctx.call.tool, path=change.written, worktree_root=ctx.worktree_root, span=span)
    if not change.static:
        return [Violation(code="WG202", message=f"`{name}` goes to a directory worktree-guard cannot work out: {change.reason}; use a literal path inside {ctx.worktree_root}.", **common)]
    # Bash's cd is logical (`link/..` is the link's parent dir), with the kernel's reading as its fallback: all stay in.
    for candidate in dict.fromkeys(c for c in (change.physical, change.logical, change.kernel) if c is not None):
        judgement = ctx.policy.judge(candidate, "/")
        if judgement.place in ("inside", "protected", "allowed"):
            continue
        if judgement.place == "shared":
            return [Violation(
                code="WG201",
                message=f"`{name}` moves into the shared checkout {judgement.shared_root}, outside this agent's worktree {ctx.worktree_root}.",
                resolved=judgement.resolved,
                shared_root=judgement.shared_root,
                suggestion=f"cd {judgement.suggestion}" if judgement.suggestion else None,
                **common,
            )]
        return [Violation(
            code="WG201",
            message=f"`{name}` moves to {judgement.resolved}, outside this agent's worktree {ctx.worktree_root} and the allow-list.",
            resolved=judgement.resolved,
            **common,
        )]
    return None
