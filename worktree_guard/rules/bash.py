"""Bash (SPEC §5.2): parse the command once, walk it once; the shell rules judge each step.

This plugin owns WG900 (no parser can handle the command) and WG901 (over the size, depth or time
budget). The cd, git, writes, indirection and interpreter rules are plugins of their own that the walk
calls through the `worktree_guard_shell_*` hooks. A PowerShell command (kind "powershell") is one no parser
handles: worktree-guard reads bash only, and a home-made parser is ruled out (SPEC §5.2), so it is WG900 too.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from ..hookspecs import hookimpl
from ..model import Violation

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..engine import Context
    from ..model import ToolCall
    from ..shell.evaluated import Evaluated
    from ..shell.state import ShellState
    from ..shell.steps import ShellCommand, ShellRedirect
    from ..shell.walk import Walker

RULE = "bash"


@hookimpl
def worktree_guard_check_call(call: ToolCall, ctx: Context) -> list[Violation] | None:
    if call.kind == "powershell":
        return [unreadable_powershell(call, ctx)]
    if call.kind != "shell":
        return None
    findings: list[Violation] = []
    for command in call.shell_commands:  # each in a shell of its own, started in the same directory
        if not isinstance(command, str):
            return [_violation(ctx, "WG000", f"The {call.tool} call has no `command` string, so worktree-guard cannot check it.", None)]
        for start in start_directories(ctx):
            walker, _ = analyse(command, ctx, start=start)
            findings.extend(walker.findings)
    return _dedupe(findings)


def unreadable_powershell(call: ToolCall, ctx: Context) -> Violation:
    """A PowerShell command goes the way of a Bash command no parser can handle (WG900, an error unless
    `on_parse_error = "warn"`): the guard cannot tell what it writes, so an agent it confines must not run it
    unexamined. The Bash tool runs the same work in a language the guard reads."""
    command = call.input.get("command")
    return _violation(
        ctx,
        "WG900",
        "worktree-guard cannot read PowerShell, so it cannot tell what this command writes; run it with the Bash tool instead.",
        (0, len(command)) if isinstance(command, str) else None,
        severity=_parse_error_severity(ctx),
    )


def _parse_error_severity(ctx: Context) -> str:
    """What a command no parser handles gets: `on_parse_error` (SPEC §8)."""
    return "warning" if ctx.settings.on_parse_error == "warn" else "error"


def start_directories(ctx: Context) -> list[str]:
    """Where the call's shell may start: the directory the call names (`shell_cwd`), else the agent's cwd.

    A named directory whose `..` follows a symlink has two readings (PathPolicy.forms); the runtime may take
    either, so the command is walked from each.
    """
    if ctx.call.shell_cwd is None:
        return [ctx.cwd]
    return ctx.policy.forms(ctx.call.shell_cwd, ctx.cwd)


def start_directory(ctx: Context) -> str:
    """Where the call's shell starts (the first of `start_directories`)."""
    return start_directories(ctx)[0]


def initial_state(ctx: Context, start: str | None = None) -> ShellState:
    """The agent's shell as the hook can know it: its start directory, HOME and TMPDIR from its environment."""
    from ..shell.state import ShellState

    start = start or start_directory(ctx)
    state = ShellState(cwd=start)
    state.variables["PWD"] = start
    state.variables["HOME"] = ctx.policy.home
    tmpdir = os.environ.get("TMPDIR")
    if tmpdir:
        state.variables["TMPDIR"] = tmpdir
    else:
        state.unset.add("TMPDIR")  # as the hook sees it: `${TMPDIR:-/tmp}` and `$(mktemp)` are in /tmp
    if "CDPATH" in os.environ:
        state.variables["CDPATH"] = os.environ["CDPATH"]
    return state


def analyse(
    command: str,
    ctx: Context,
    on_command: Callable[[ShellCommand], list[Violation]] | None = None,
    on_redirect: Callable[[ShellRedirect], list[Violation]] | None = None,
    start: str | None = None,
) -> tuple[Walker, ShellState]:
    """Parse and walk `command` for this call; the walker holds the findings and a trace of the walk.

    The shell rules judge each step, unless `on_command`/`on_redirect` are given (the wave's own walk of a
    worker's command); the indirection rules always say what wrappers run. `start`: the directory the shell
    starts in (default: `start_directory`).
    """
    from ..paths import MAX_MADE_READINGS, current_made_links, made_links, too_many_readings
    from ..shell.descriptors import ANY, READ_DESCRIPTORS, opens_and_copies, with_copies
    from ..shell.links import note_made_links
    from ..shell.parse import ParseFailure, parse_cached
    from ..shell.walk import BudgetExceeded, Hooks, Walker
    from .writes import tables_for

    pm = ctx.pm
    assert pm is not None

    def on_parse_failure(error: Exception, start: int, end: int, source: str) -> list[Violation]:
        if isinstance(error, ParseFailure) and error.budget:
            return [_violation(ctx, "WG901", f"The command is over worktree-guard's budget ({error}); split it into smaller commands.", (start, end))]
        severity = _parse_error_severity(ctx)
        return [
            _violation(
                ctx,
                "WG900",
                f"worktree-guard cannot parse this command ({error}); rewrite it in a simpler form (plain commands joined with && or ;).",
                (start, end),
                severity=severity,
            )
        ]

    def on_unknown_code(found: Evaluated) -> list[Violation]:
        return [_violation(ctx, "WG404", f"{found.reason}; worktree-guard cannot see what that code does.", found.span)]

    opened: set[int] = ctx.extra.setdefault(READ_DESCRIPTORS, set())
    copies: list[tuple[int, int]] = ctx.extra.setdefault(READ_DESCRIPTORS + "_copies", [])

    def parse(source: str, offset: int = 0):
        # every string the walker reads, before its commands are judged: the descriptors it opens on a path, and
        # its copies, followed across strings (review 37: `exec 3<../../..; eval "exec "4"<&3"; cp f /dev/fd/4`,
        # the copy in eval's string and the open in the outer one, wrote the main checkout)
        found, copied = opens_and_copies(source)
        copies.extend(c for c in copied if c not in copies)
        opened.update(with_copies(opened | found, copies))
        return parse_cached(source, offset)

    judge_command = on_command or (lambda step: _flatten(pm.hook.worktree_guard_shell_command(command=step, ctx=ctx)))
    tables = tables_for(ctx)

    def each_command(step):
        if step.name in ("source", "."):
            opened.add(ANY)  # the script it reads may open or copy any descriptor (review 37b: `exec 4<&3` in it)
        written = len(step.state.written)
        found = judge_command(step)
        made = current_made_links()
        if made is not None and not any(violation.severity == "error" for violation in found):
            # the words after it read the links it makes (shell/links.py), as made after what the steps before wrote;
            # a step refused refuses the call, so its links need not be read (they would be refused again)
            unplaced = note_made_links(step, tables, made, step.state.written[:written])
            if unplaced is not None:
                found = [*found, _violation(ctx, "WG403", f"{unplaced}; name the link and the directory it goes in.", step.span)]
        return found

    hooks = Hooks(
        on_command=each_command,
        on_redirect=on_redirect or (lambda step: _flatten(pm.hook.worktree_guard_shell_redirect(redirect=step, ctx=ctx))),
        unwrap=lambda step: pm.hook.worktree_guard_shell_unwrap(command=step, ctx=ctx),
        parse=parse,
        on_parse_failure=on_parse_failure,
        on_unknown_code=on_unknown_code,
    )
    def walk() -> tuple[Walker, ShellState]:
        walker = Walker(hooks=hooks, home=ctx.policy.home)
        state = initial_state(ctx, start)
        table = NAME_TABLE_ELEMENT.search(command.replace("\\", "").replace("'", "").replace('"', ""))
        if table is not None:
            # an element of bash's name tables assigned anywhere, arithmetic included (`(( BASH_CMDS[ls]=1 ))`, `[[ … ]]`,
            # `${a[BASH_CMDS[ls]=1]}`: review 29c), as the command text reads without quotes and escapes
            walker.findings.append(_violation(ctx, "WG404", f"The command assigns {table.group(1)}, which defines what a command name runs; worktree-guard does not follow it; run the command directly.", table.span()))
        try:
            walker.string(command, 0, state, state.cwd, 0, same_shell=True)
        except (BudgetExceeded, RecursionError) as error:
            walker.findings.append(_violation(ctx, "WG901", f"The command is over worktree-guard's budget ({error}); split it into smaller commands.", (0, len(command))))
        return walker, state

    with made_links() as made:
        walker, state = walk()
        # A command that makes symlinks is walked again with every link it makes known from its start, until no new
        # one appears: a word walked before its `ln` may still run after it (`{ sleep 1; echo x > t/../f; } & ln -s
        # /tmp t`, a loop's next round), and a link read through another may lead elsewhere then. What any walk
        # found stays found.
        for _ in range(MADE_LINK_WALKS - 1):
            if not made:
                break
            known, before = len(made), walker.findings
            walker, state = walk()
            walker.findings[:0] = before
            if len(made) == known:
                break
        else:
            if made:
                walker.findings.append(_violation(ctx, "WG901", f"The command makes symlinks through symlinks it made before, over {MADE_LINK_WALKS} levels deep; split it into smaller commands.", (0, len(command))))
        if made and too_many_readings(made):
            walker.findings.append(_violation(ctx, "WG901", f"The command links the same places again and again, more ways together than worktree-guard follows ({MAX_MADE_READINGS}); split it into smaller commands.", (0, len(command))))
    walker.findings[:] = _dedupe(walker.findings)
    return walker, state


#: How many times a command that makes symlinks is walked at most (`analyse`): each walk may find links that the
#: links of the walk before lead through.
MADE_LINK_WALKS = 4


#: An assignment to bash's name tables (BASH_CMDS: hashed names' paths; BASH_ALIASES: aliases), in any context.
NAME_TABLE_ELEMENT = re.compile(r"(BASH_CMDS|BASH_ALIASES)\s*(\[[^\]]*\])?\s*\+?=")


def _flatten(results: list) -> list[Violation]:
    out: list[Violation] = []
    for result in reversed(results):  # pluggy calls the last-registered first; report in registration order
        if result:
            out.extend(result)
    return out


def _dedupe(findings: list[Violation]) -> list[Violation]:
    seen: set[tuple] = set()
    unique = []
    for v in findings:
        key = (v.code, v.span, v.resolved, v.message)
        if key not in seen:
            seen.add(key)
            unique.append(v)
    return unique


def _violation(ctx: Context, code: str, message: str, span: tuple[int, int] | None, severity: str = "error") -> Violation:
    return Violation(code=code, rule=RULE, tool=ctx.call.tool, message=message, span=span, worktree_root=ctx.worktree_root, severity=severity)

