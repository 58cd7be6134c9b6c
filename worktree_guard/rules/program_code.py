"""Code in a program's own language (SPEC §5.2 "strings that a program will run as code").

sed's `e CMD`, awk's `system("cmd")` and `print | "cmd"`, tar's `--to-command`, zip's `-TT`, rsync's `-e`,
ssh's `-o ProxyCommand=` and an ed script's `!cmd` are shell commands: the walker walks them where the program
runs them (its cwd). Code that cannot be read — `sed 's/x/y/e'`, `awk '{system($0)}'`, `vim -c '…'`, an ed
fed by a pipe — is WG404. What such code writes (`sed 'w f'`, `awk '{print > "f"}'`) is in
`shell.written`, judged by the writes rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hookspecs import hookimpl
from ..model import Violation
from ..shell.embedded import embedded_code, program
from ..shell.steps import Script, Unwrapped

if TYPE_CHECKING:
    from ..engine import Context
    from ..shell.steps import ShellCommand

RULE = "program-code"


@hookimpl
def worktree_guard_shell_unwrap(command: ShellCommand, ctx: Context) -> Unwrapped | None:
    if program(command.name) is None:
        return None
    code = embedded_code(command)
    if not code.commands:
        return None
    return Unwrapped(scripts=[Script(text, offset, command.cwd, f"{command.name} code") for text, offset in code.commands])


@hookimpl
def worktree_guard_shell_command(command: ShellCommand, ctx: Context) -> list[Violation] | None:
    if program(command.name) is None:
        return None
    reasons = embedded_code(command).opaque
    if not reasons:
        return None
    return [
        Violation(
            code="WG404",
            rule=RULE,
            tool=ctx.call.tool,
            message=f"{reason}; worktree-guard cannot see what that code does.",
            worktree_root=ctx.worktree_root,
            span=command.span,
        )
        for reason in dict.fromkeys(reasons)
    ]
