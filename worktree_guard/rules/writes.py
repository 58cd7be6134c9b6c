"""The writes rule (SPEC §5.2): redirections and known writers' operands follow §5.1 (WG401–WG403, WG103)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..hookspecs import hookimpl
from ..model import Violation
from ..paths import inside
from ..shell.programs import BUILTIN_WRITERS, CWD, WriteSpec, written_targets
from ..shell.steps import glob_values

if TYPE_CHECKING:
    from ..engine import Context
    from ..shell.ast import Word
    from ..shell.steps import ShellCommand, ShellRedirect

RULE = "writes"
WRITE_OPERATORS = (">", ">>", ">|", "&>", "&>>", "<>")


@hookimpl
def worktree_guard_write_operands() -> dict[str, WriteSpec]:
    return dict(BUILTIN_WRITERS)


def write_table(ctx: Context) -> dict[str, WriteSpec]:
    """The built-in table with every plugin's rows over it (later registrations win), built once per call."""
    from ..plugins import merged_table

    return merged_table(ctx, "worktree_guard_write_operands")


@hookimpl
def worktree_guard_shell_redirect(redirect: ShellRedirect, ctx: Context) -> list[Violation] | None:
    node = redirect.redirect
    op = node.op
    if op == ">&" and node.target is not None:
        target = redirect.target()
        if target is not None and (target.isdigit() or target == "-"):
            return None  # `2>&1`, `>&-`: descriptors, not files
    elif op not in WRITE_OPERATORS:
        return None
    if node.target is None:
        return None
    span = node.target.span
    what = f"the redirection `{op}`"
    value = redirect.target()
    if value is None:
        matches = glob_values(node.target, redirect.state)
        if matches is not None and len(matches) == 1:  # more than one match is bash's "ambiguous redirect"
            return judge_write(ctx, matches[0], node.target.raw, redirect.cwd, span, what)
    return judge_write(ctx, value, node.target.raw, redirect.cwd, span, what)


@hookimpl
def worktree_guard_shell_command(command: ShellCommand, ctx: Context) -> list[Violation] | None:
    name = command.name
    if name is None:
        return None
    spec = write_table(ctx).get(name)
    if spec is None:
        return None
    found: list[Violation] = []
    if name == "ln":
        found += _symlink_targets(command, ctx)
    for target in written_targets(spec, command.words, command.values()):
        span = target.word.span if target.word is not None else command.span
        if target.value == CWD:
            found += judge_write(ctx, command.cwd, ".", command.cwd, span, f"`{name}` writing {target.how}", recursive=target.recursive)
        elif target.value == "-" and name in ("wget", "curl", "tar", "sort", "tee"):
            continue  # standard output
        elif target.value is None and target.word is not None and (matches := glob_values(target.word, command.state)) is not None:
            for match in matches:
                found += judge_write(ctx, match, target.word.raw, command.cwd, span, f"`{name}` ({target.how})", recursive=target.recursive)
        else:
            written = target.word.raw if target.word is not None else str(target.value)
            found += judge_write(ctx, target.value, written, command.cwd, span, f"`{name}` ({target.how})", recursive=target.recursive)
    return found or None


def _symlink_targets(command: ShellCommand, ctx: Context) -> list[Violation]:
    """`ln -s TARGET LINK` with TARGET outside W opens an escape hatch inside W: judged like a write to TARGET."""
    found = []
    for word, value, base, _ in link_sources(command, ctx, symbolic_only=True):
        found += judge_write(ctx, value, word.raw, base, word.span, "`ln -s` (a link pointing to it)")
    return found


def link_sources(command: ShellCommand, ctx: Context, *, symbolic_only: bool) -> list[tuple[Word, str | None, str | None, bool]]:
    """What an `ln` links to: (word, value, the directory it is relative to, symbolic?) per source; the links
    themselves are the write table's operands. A symbolic link's relative TARGET is resolved from the link's
    directory, as the kernel will resolve it; a hard link's from the cwd. Without `-s` only when asked."""
    import os

    from ..shell.programs import parse_argv

    spec = write_table(ctx).get("ln")
    if spec is None or command.name != "ln":
        return []
    argv = parse_argv(command.words, command.values(), spec)
    options = set(argv.options)
    symbolic = bool({"-s", "--symbolic"} & options)
    if symbolic_only and not symbolic:
        return []
    directories = argv.options.get("-t", []) + argv.options.get("--target-directory", [])
    if directories:
        sources, link_dir = argv.operands, directories[-1][1]
    elif len(argv.operands) > 1:
        sources, last = argv.operands[:-1], argv.operands[-1][1]
        link_dir = None if last is None else (last if last.endswith("/") or (command.cwd and os.path.isdir(os.path.join(command.cwd, last))) else os.path.dirname(last) or ".")
    else:
        sources, link_dir = argv.operands, "."
    if not symbolic:
        return [(word, value, command.cwd, False) for word, value in sources]
    base = None if link_dir is None or command.cwd is None and not link_dir.startswith("/") else os.path.join(command.cwd or "/", link_dir)
    found = []
    for word, value in sources:
        if value is not None and not value.startswith(("/", "~")) and base is None:
            value = None  # relative to a directory not known here
        found.append((word, value, base, True))
    return found


def judge_write(
    ctx: Context,
    value: str | None,
    written: str,
    cwd: str | None,
    span: tuple[int, int],
    what: str,
    *,
    rule: str = RULE,
    recursive: bool = False,
) -> list[Violation]:
    """§5.1's order for one written path as Bash gives it; relative paths need a known cwd.

    `recursive` (rm -r, find -delete, chmod -R): the write reaches everything below the path, so a
    shared checkout below it counts even when the path itself is allowed (a repository can live in /tmp).
    """
    common = dict(rule=rule, tool=ctx.call.tool, path=written, worktree_root=ctx.worktree_root, span=span)
    root = ctx.worktree_root
    if value is None:
        return [Violation(code="WG403", message=f"{what} writes to {written!r}, which is only known at run time; write to a literal path inside {root}.", **common)]
    if cwd is None and not value.startswith(("/", "~")):
        return [Violation(code="WG403", message=f"{what} writes to the relative path {written!r} after a directory change worktree-guard cannot follow; use an absolute path inside {root}.", **common)]
    judgement = ctx.policy.judge(value, cwd or "/")
    if recursive and judgement.ok:
        below = [r for r in ctx.policy.shared_roots if inside(r, judgement.resolved) and r != judgement.resolved]
        if below:
            return [Violation(
                code="WG401",
                message=f"{what} reaches everything below {judgement.resolved}, which holds the shared checkout {below[0]}.",
                resolved=judgement.resolved,
                shared_root=below[0],
                **common,
            )]
    if judgement.ok:
        return []
    if judgement.place == "protected":
        return [Violation(code="WG103", message=f"{what} writes {judgement.resolved}, which is protected inside this worktree.", resolved=judgement.resolved, **common)]
    if judgement.place == "shared":
        return [Violation(
            code="WG401",
            message=f"{what} writes {judgement.resolved} in the shared checkout {judgement.shared_root}, not in this agent's worktree {root}.",
            resolved=judgement.resolved,
            shared_root=judgement.shared_root,
            suggestion=judgement.suggestion,
            **common,
        )]
    return [Violation(code="WG402", message=f"{what} writes {judgement.resolved}, outside this agent's worktree {root} and the allow-list.", resolved=judgement.resolved, **common)]
