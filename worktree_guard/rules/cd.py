"""The cd rule (SPEC §5.2): `cd`/`pushd`/`popd`, and a program's own option that picks the directory what it runs
starts in (`env -C`, `sudo -D`, `tmux neww -c`), may only go inside W or the allow-list (WG201, WG202)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hookspecs import hookimpl
from ..model import Violation

if TYPE_CHECKING:
    from ..engine import Context
    from ..policy import Judgement
    from ..model import ToolCall
    from ..shell.steps import ShellCommand

RULE = "cd"


@hookimpl
def worktree_guard_check_call(call: ToolCall, ctx: Context) -> list[Violation] | None:
    """A shell call that names its own start directory (`shell_cwd`) goes there as a `cd` would."""
    if call.kind != "shell" or call.shell_cwd is None:
        return None
    judgement = ctx.policy.judge(call.shell_cwd, ctx.cwd, directory=True)
    where = _out_of_place(judgement, ctx)
    if where is None:
        return None
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


def _out_of_place(judgement: Judgement, ctx: Context) -> str | None:
    """Where a directory is, for a refusal, when an agent may not start anything there; None when it may."""
    if judgement.place in ("inside", "protected", "allowed"):
        return None
    if judgement.place == "shared":
        return f"in the shared checkout {judgement.shared_root}, not in this agent's worktree {ctx.worktree_root}"
    return f"outside this agent's worktree {ctx.worktree_root} and the allow-list"


def _started_elsewhere(command: ShellCommand, ctx: Context) -> list[Violation] | None:
    """A program that starts what it runs in a directory its own option chose (`env -C d`, `sudo -D d`, `tmux neww
    -c d`) goes there as `cd` would: in a shared checkout, its `make` or `./run.sh` writes there with no path
    written out (review 35: `env -C <main> make`, `tmux popup -c <client> -E 'git reset --hard'` ran in main)."""
    unwrapped = command.unwrapped
    if unwrapped is None:
        return None
    name = command.name
    common = dict(rule=RULE, tool=ctx.call.tool, worktree_root=ctx.worktree_root, span=command.span)
    for item in [*unwrapped.inner, *unwrapped.scripts]:
        if not item.moves:
            continue
        if item.cwd is None:
            return [Violation(code="WG202", message=f"`{name}` starts what it runs in a directory worktree-guard cannot work out; give it a literal directory inside {ctx.worktree_root}.", **common)]
        judgement = ctx.policy.judge(item.cwd, "/", directory=True)
        where = _out_of_place(judgement, ctx)
        if where is None:
            continue
        return [Violation(
            code="WG201",
            message=f"`{name}` starts what it runs in {judgement.resolved}, {where}.",
            path=item.cwd,
            resolved=judgement.resolved,
            shared_root=judgement.shared_root,
            suggestion=judgement.suggestion,
            **common,
        )]
    return None


@hookimpl
def worktree_guard_shell_command(command: ShellCommand, ctx: Context) -> list[Violation] | None:
    from ..shell.builtins import directory_change

    started = _started_elsewhere(command, ctx)
    if started:
        return started
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
        judgement = ctx.policy.judge(candidate, "/", directory=True)
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
