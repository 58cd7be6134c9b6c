"""Code in a program's own language (SPEC §5.2 "strings that a program will run as code").

sed's `e CMD`, awk's `system("cmd")` and `print | "cmd"`, tar's `--to-command`, zip's `-TT`, rsync's `-e`,
ssh's `-o ProxyCommand=` and an ed script's `!cmd` are shell commands: the walker walks them where the program
runs them (its cwd). Code that cannot be read — `sed 's/x/y/e'`, `awk '{system($0)}'`, `vim -c '…'`, an ed
fed by a pipe — is WG404. What such code writes (`sed 'w f'`, `awk '{print > "f"}'`) is in
`shell.written`, judged by the writes rule.

Programs that run code in forms the guard does not walk at all (`tmux new-session 'cmd'`, `gdb -ex 'shell …'`,
sqlite3's `.shell`, `LESSOPEN`) are rows of `shell.runners`' table: WG404.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..hookspecs import hookimpl
from ..model import Violation

if TYPE_CHECKING:
    from ..engine import Context
    from ..shell.runners import CodeRunner
    from ..shell.steps import ShellCommand, Unwrapped


RULE = "program-code"


@hookimpl
def worktree_guard_shell_unwrap(command: ShellCommand, ctx: Context) -> Unwrapped | None:
    from ..shell.programs import code_family
    from ..shell.builtins import written_at_or_above
    from ..shell.runners import env_code, run_argv, subcommand_scripts, walked_code
    from ..shell.steps import Inner, Script, Unwrapped

    runner = _runner(command, ctx)
    if runner is not None and runner.argv_options:
        found = run_argv(command, runner)
        if found is not None:
            runs, own = found
            directory = None if {"--base-directory"} & {v.partition("=")[0] for v in command.values() if v} else command.cwd
            return Unwrapped(inner=[Inner(argv, directory, label=f"{command.name} -x") for argv in runs], own_words=own)
    if runner is not None and runner.command_subcommands:
        scripts = subcommand_scripts(command, runner)
        if scripts:
            # a directory that does not exist: tmux runs the command in the session's or the server's instead (review 35:
            # `tmux neww -c nosuchdir 'git reset --hard'` reset the main checkout); nor one the command removed or wrote
            # before (review 35b: `rmdir e && tmux neww -c e …`)
            scripts = [(text, offset, cwd if cwd is None or cwd == command.cwd or os.path.isdir(cwd) and not written_at_or_above(command.state, cwd) else None) for text, offset, cwd in scripts]
            return Unwrapped(scripts=[Script(text, offset, cwd, f"{command.name} command", moves=cwd != command.cwd) for text, offset, cwd in scripts])
    if runner is not None and (runner.walk_options or runner.walk_env):
        scripts, _ = walked_code(command, runner)
        if scripts:
            from_env = set(env_code(command, runner))
            return Unwrapped(
                scripts=[Script(text, offset, command.cwd, f"{command.name} command", from_env=text in from_env) for text, offset in scripts]
            )
    if code_family(command.name) is None:
        return None
    from ..shell.embedded import embedded_code

    code = embedded_code(command)
    if not code.commands:
        return None
    return Unwrapped(scripts=[Script(text, offset, command.cwd, f"{command.name} code") for text, offset in code.commands])


@hookimpl
def worktree_guard_code_runners() -> dict[str, CodeRunner]:
    from ..shell.runners import BUILTIN_CODE_RUNNERS

    return dict(BUILTIN_CODE_RUNNERS)


@hookimpl
def worktree_guard_shell_command(command: ShellCommand, ctx: Context) -> list[Violation] | None:
    from ..shell.programs import code_family
    from ..shell.runners import opaque_code, walked_code

    runner = _runner(command, ctx)
    reasons = opaque_code(command, runner) + walked_code(command, runner)[1] if runner is not None else []
    if code_family(command.name) is not None:
        from ..shell.embedded import embedded_code

        reasons += embedded_code(command).opaque
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


def _runner(command: ShellCommand, ctx: Context) -> CodeRunner | None:
    from ..plugins import merged_table

    return merged_table(ctx, "worktree_guard_code_runners").get(command.name) if command.name else None
