"""Inline interpreters (SPEC §5.2): `python -c`, `node -e`, `perl -e`, `ruby -e` are opaque; WG405 in `strict` only.

An interpreter given no program at all reads it from its input (`python3`, `node -i`, `python3 <<EOF`): that is
inline code too, and the input may be written after the call, where no hook sees it (Codex's write_stdin).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hookspecs import hookimpl
from ..model import Violation

if TYPE_CHECKING:
    from ..engine import Context
    from ..shell.steps import ShellCommand

RULE = "interpreters"

# program (its name without a version suffix) → the options that take inline code
INLINE_CODE = {
    "python": ("-c",),
    "pypy": ("-c",),
    "node": ("-e", "--eval", "-p", "--print"),
    "deno": ("eval",),
    "bun": ("-e", "--eval"),
    "perl": ("-e", "-E"),
    "ruby": ("-e",),
    "php": ("-r",),
    "lua": ("-e",),
    "osascript": ("-e",),
}


# Options after which an interpreter runs no code from its input: a module, its version, its help.
NO_INPUT_OPTIONS = frozenset({"-m", "-V", "-v", "--version", "-h", "--help"})
# …except where the option means something else: python's `-v` is --verbose, after which it still reads its
# program from its input (`echo 'print(1)' | python3 -v` prints 1).
READS_INPUT_OPTIONS = {"python": frozenset({"-v"}), "pypy": frozenset({"-v"})}


def _program(name: str) -> str:
    """`python3.12` → `python`."""
    return name.rstrip("0123456789.") or name


def _reads_program_from_input(values: list[str | None], program: str) -> bool:
    """No script operand and no option that runs something else: the interpreter reads its program from stdin."""
    no_input = NO_INPUT_OPTIONS - READS_INPUT_OPTIONS.get(program, frozenset())
    for value in values[1:]:
        if value is None or value in no_input or not value.startswith("-") or value == "-":
            return value == "-"
    return True


@hookimpl
def worktree_guard_shell_command(command: ShellCommand, ctx: Context) -> list[Violation] | None:
    if ctx.settings.profile != "strict" or command.name is None:
        return None
    program = _program(command.name)
    flags = INLINE_CODE.get(program)
    if not flags:
        return None
    values = command.values()
    inline = any(
        value in flags or any(value.startswith(f) and len(f) == 2 and not value.startswith("--") for f in flags if f.startswith("-"))
        for value in values[1:]
        if value is not None
    )
    if not inline and not _reads_program_from_input(values, program):
        return None
    how = "runs inline code" if inline else "reads the code it runs from its input, which"
    return [Violation(
        code="WG405",
        rule=RULE,
        tool=ctx.call.tool,
        message=f"`{command.name}` {how} worktree-guard cannot check (strict profile); put it in a file inside {ctx.worktree_root} and run that.",
        worktree_root=ctx.worktree_root,
        span=command.span,
    )]
