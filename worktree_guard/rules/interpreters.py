"""Inline interpreters (SPEC §5.2): `python -c`, `node -e`, `perl -e`, `ruby -e` are opaque; WG405 in `strict` only."""

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


def _program(name: str) -> str:
    """`python3.12` → `python`."""
    return name.rstrip("0123456789.") or name


@hookimpl
def worktree_guard_shell_command(command: ShellCommand, ctx: Context) -> list[Violation] | None:
    if ctx.settings.profile != "strict" or command.name is None:
        return None
    flags = INLINE_CODE.get(_program(command.name))
    if not flags:
        return None
    for value in command.values()[1:]:
        if value is None:
            continue
        if value in flags or any(value.startswith(f) and len(f) == 2 and not value.startswith("--") for f in flags if f.startswith("-")):
            return [Violation(
                code="WG405",
                rule=RULE,
                tool=ctx.call.tool,
                message=f"`{command.name}` runs inline code worktree-guard cannot check (strict profile); put it in a file inside {ctx.worktree_root} and run that.",
                worktree_root=ctx.worktree_root,
                span=command.span,
            )]
    return None
