"""The paths an `apply_patch` patch writes (Codex, and Copilot with GPT models): its file headers; and the
`apply_patch` program in a shell command, whose patch is judged where that command runs.

The format (the Lark grammar Codex sends the model, runtime-payloads/codex/tool_schemas_gpt-5.5.json):
`*** Begin Patch`, then hunks `*** Add File: P`, `*** Delete File: P`, `*** Update File: P` with an optional
`*** Move to: Q` after it, then `*** End Patch`. Every P and Q is written (an update's P is deleted too when it
moves). Paths are as the model wrote them: a relative one resolves from the cwd.

Lines are split as Codex's parser (Rust `str::lines`) splits them, and Copilot's (a Rust parser with the same
messages, in its runtime): at "\n" only, a "\r" before it dropped. Python's `splitlines` also breaks at
\x0b, \x0c, \x1c-\x1e, \x85, \u2028 and \u2029, which once hid a header's tail: `*** Add File:
d\x85/../../repo/x` was judged as `d` while Codex and Copilot wrote `d\x85/../../repo/x` (review-runtimes.md).
A line holding a bare "\r" is also read as the lines a client that breaks at "\r" would see. Headers are
matched anywhere in the text on lines stripped of what Rust's and JavaScript's `trim` strip, which finds every
header those parsers find and perhaps a few more: an extra path judged is a refusal too many, a missed one an
escape. A header path holding a control, format or separator character (a bare "\r" included) is refused:
what each client makes of it is not worth guessing.

Codex applies a patch given in a shell command itself when the whole command is `apply_patch <<'EOF' …` or
`cd DIR && apply_patch <<'EOF' …`, from the command's workdir (and DIR); other forms run a shell, where
`apply_patch` is not found (observed in 0.171.0). So the program is judged in the walk of the command, from
the directory the walk says it runs in: a workdir, a `cd` before it, a subshell are all followed. It is
judged wherever it appears and under every runtime: a program by that name writes what its patch names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hookspecs import hookimpl
from ..model import FileWrite, Violation, WriteAction

if TYPE_CHECKING:
    from ..engine import Context
    from ..shell.steps import ShellCommand

RULE = "apply-patch"
#: The names Codex recognises for the program (codex-rs/apply-patch, APPLY_PATCH_COMMANDS).
PROGRAMS = frozenset({"apply_patch", "applypatch"})
#: Characters that an unquoted heredoc expands, so a header holding one is not the path the program reads.
_EXPANDED = frozenset("$`\\")

HEADERS: tuple[tuple[str, WriteAction], ...] = (
    ("*** Add File:", "write"),
    ("*** Update File:", "write"),
    ("*** Delete File:", "delete"),
    ("*** Move to:", "move_to"),
)


class PatchError(ValueError):
    """The text names no file at all, or a header names an empty or odd path: it cannot be judged."""


# Unicode categories no path in a patch header may hold: controls, format characters, line and paragraph separators.
_ODD_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
# What Rust's `trim` (White_Space) and JavaScript's `trim` (which adds U+FEFF) strip from a line's ends.
_TRIMMED = "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000\ufeff"


def patch_lines(text: str) -> list[str]:
    """The patch's lines as the clients split them: at "\n", without a "\r" before it; a line that still holds
    a "\r" is followed by its pieces, as a client that also breaks at a bare "\r" reads them."""
    lines: list[str] = []
    for line in text.split("\n"):
        line = line.removesuffix("\r")
        lines.append(line)
        if "\r" in line:
            lines.extend(line.split("\r"))
    return lines


def patch_writes(text: str) -> list[FileWrite]:
    """Every file the patch writes, in order; PatchError when it names none, or a header's path is empty or
    holds a control or separator character."""
    import unicodedata  # here: only a patch needs it, and every hook call would load it

    writes: list[FileWrite] = []
    for line in patch_lines(text):
        stripped = line.strip(_TRIMMED)
        for marker, action in HEADERS:
            if stripped.startswith(marker):
                path = stripped[len(marker):].strip(_TRIMMED)
                if not path:
                    raise PatchError(f"the patch line {stripped!r} names no path")
                odd = next((c for c in path if unicodedata.category(c) in _ODD_CATEGORIES), None)
                if odd is not None:
                    raise PatchError(f"the path {path!r} holds the character U+{ord(odd):04X}, which a client may read differently; name the file plainly")
                if action == "move_to" and writes and writes[-1].action == "write":
                    writes[-1] = FileWrite(path=writes[-1].path, action="move_from")
                writes.append(FileWrite(path=path, action=action))
                break
    if not writes:
        raise PatchError("the patch names no file (no `*** Add/Update/Delete File:` line)")
    return writes


# --- the `apply_patch` program in a shell command ---------------------------------------------------------


@hookimpl
def worktree_guard_shell_command(command: ShellCommand, ctx: Context) -> list[Violation] | None:
    """Every file the program's patch names, judged from where it runs as Bash writes are (WG401-WG403)."""
    if command.name not in PROGRAMS:
        return None
    from ..rules.writes import judge_write

    fed = patch_input(command)
    what = f"`{command.name}`"
    if fed is None:
        return [_unseen(ctx, command, f"{what} reads a patch worktree-guard cannot see (from a file, a pipe or a variable); give it the patch in a quoted heredoc (<<'EOF')")]
    text, literal = fed
    try:
        writes = patch_writes(text)
    except PatchError as e:
        return [_unseen(ctx, command, f"{what}'s patch cannot be judged: {e}")]
    found: list[Violation] = []
    for write in writes:
        value = write.path if literal or not (_EXPANDED & set(write.path)) else None
        found += judge_write(ctx, value, write.path, command.cwd, command.span, f"{what} ({write.action.replace('_', ' ')})", rule=RULE)
    return found


def patch_input(command: ShellCommand) -> tuple[str, bool] | None:
    """The patch the program reads — its first argument, else what its standard input is fed from a heredoc or
    here-string — and whether that text is literal (an unquoted heredoc expands `$…`); None when not static."""
    if len(command.words) > 1:
        value = command.value(command.words[1])
        return (value, True) if value is not None else None
    fed: tuple[str, bool] | None = None
    for redirect in command.node.redirects:  # the last redirection of standard input wins
        if redirect.fd not in (None, 0) or redirect.op not in ("<", "<<", "<<-", "<<<", "<>", "<&"):
            continue
        if redirect.op in ("<<", "<<-") and redirect.heredoc is not None:
            fed = (redirect.heredoc, redirect.heredoc_quoted)
        elif redirect.op == "<<<" and redirect.target is not None and (value := command.value(redirect.target)) is not None:
            fed = (value, True)
        else:
            fed = None
    return fed


def _unseen(ctx: Context, command: ShellCommand, message: str) -> Violation:
    return Violation(code="WG403", rule=RULE, tool=ctx.call.tool, message=f"{message}.", worktree_root=ctx.worktree_root, span=command.span)
