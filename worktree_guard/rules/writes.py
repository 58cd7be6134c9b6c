"""The writes rule (SPEC §5.2): what a redirection or a command writes follows §5.1 (WG401–WG403, WG103), and
an unknown program's operand in a shared checkout counts as written (WG406, the default-deny boundary).

What is written comes from `shell.written` (one answer for every rule); this module only judges it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..hookspecs import hookimpl
from ..model import Violation
from ..paths import as_descriptor, inside, literal_tilde, own_process_place
from ..shell.descriptors import READ_DESCRIPTORS, opened_on_a_path

if TYPE_CHECKING:
    from ..engine import Context
    from ..shell.programs import ReadOnly, WriteSpec
    from ..shell.steps import ShellCommand, ShellRedirect
    from ..shell.written import ProgramTables, Written

RULE = "writes"
#: Names whose writing redirects git: git finds its repository by the nearest `.git` when it runs (SPEC §5.2 git;
#: the review of issue 10: `echo 'gitdir: <main>/.git' > sub/.git && git -C sub reset --hard` moved main's branch).
REDIRECTS_GIT = frozenset({".git"})


@hookimpl
def worktree_guard_write_operands() -> dict[str, WriteSpec]:
    from ..shell.programs import BUILTIN_WRITERS

    return dict(BUILTIN_WRITERS)


@hookimpl
def worktree_guard_read_only_programs() -> dict[str, ReadOnly]:
    from ..shell.programs import BUILTIN_READERS

    return dict(BUILTIN_READERS)


def tables_for(ctx: Context) -> ProgramTables:
    """The write and read-only tables with every plugin's rows over the built-in ones, built once per call."""
    from ..plugins import merged_table
    from ..shell.written import ProgramTables

    return ProgramTables(writers=merged_table(ctx, "worktree_guard_write_operands"), readers=merged_table(ctx, "worktree_guard_read_only_programs"))


@hookimpl
def worktree_guard_shell_redirect(redirect: ShellRedirect, ctx: Context) -> list[Violation] | None:
    from ..shell.written import redirect_writes

    found: list[Violation] = []
    for record in redirect_writes(redirect):
        found += judge(ctx, record, redirect.state)
    return found or None


@hookimpl
def worktree_guard_shell_command(command: ShellCommand, ctx: Context) -> list[Violation] | None:
    from ..shell.git_call import unlisted_directories
    from ..shell.state import UNLISTED
    from ..shell.written import command_writes

    found: list[Violation] = []
    tables = tables_for(ctx)
    for record in command_writes(command, tables):
        found += judge(ctx, record, command.state)
    command.state.written.extend(UNLISTED + (directory or "") for directory in unlisted_directories(command))
    return found or None


def judge(ctx: Context, record: Written, state=None, *, rule: str = RULE) -> list[Violation]:
    """One record in §5.1's order; an "operand" of an unknown program only at the shared boundary (WG406).

    Every judged path is remembered in the shell state (`state.written`): later git commands ask whether a
    config file they would read was written earlier in the command.
    """
    from ..shell.programs import CWD

    span = record.word.span if record.word is not None else None
    value = record.cwd if record.value == CWD else record.value
    if record.kind == "operand":
        return _operand(ctx, record, value, span, rule)
    if state is not None:
        state.written.append(_resolved(ctx, value, record.cwd))
    verb = "writes" if record.kind == "write" else "links to"
    found = judge_write(ctx, value, record.written, record.cwd, span or (0, 0), record.how, rule=rule, recursive=record.recursive, prefix=record.prefix, verb=verb)
    if not found and value is not None and value != CWD and os.path.basename(value.rstrip("/")) in REDIRECTS_GIT:
        found = [Violation(
            code="WG403",
            rule=rule,
            tool=ctx.call.tool,
            message=(
                f"{record.how} {verb} {record.written!r}: a `.git` entry tells git which repository and checkout a directory belongs to, "
                f"and one written here can send a later git to a shared checkout (`gitdir: <main>/.git`). Leave .git entries to git itself."
            ),
            path=record.written,
            worktree_root=ctx.worktree_root,
            span=span or (0, 0),
        )]
    if not found and record.follows_links:
        found = _through_links(ctx, record, value, span or (0, 0), rule)
    return found


def _through_links(ctx: Context, record: Written, value: str | None, span, rule: str) -> list[Violation]:
    """An extraction into a directory that holds symlinks leaving W: a member named through one (`tomain/x`) is
    written where the link leads, which only the archive's contents say → WG403."""
    from .indirection import MAX_FIND_ENTRIES, escaping_links

    directory = _resolved(ctx, value, record.cwd)
    if directory is None:
        return []
    links = escaping_links(directory, ctx)
    if links == []:
        return []
    where = f"the symlink {links[0]}, which leads out of {ctx.worktree_root}" if links else f"more than {MAX_FIND_ENTRIES} entries or a directory it cannot read, so it cannot be checked for symlinks that leave {ctx.worktree_root}"
    return [Violation(
        code="WG403",
        rule=rule,
        tool=ctx.call.tool,
        message=f"{record.how} writes below {directory}, which holds {where}: a member named through it is written wherever it leads, which only the archive says. Extract into a new directory (`-C`/`-d`).",
        path=record.written,
        worktree_root=ctx.worktree_root,
        span=span,
    )]


def _resolved(ctx: Context, value: str | None, cwd: str | None) -> str | None:
    value = literal_tilde(value)
    if value is None or (cwd is None and not value.startswith("/")):
        return None
    return ctx.policy.canonical(value, cwd or "/")


def _given(ctx: Context, record: Written, rule: str, span, given: str, **fields) -> list[Violation]:
    """WG406 for an unknown program given `given` (what it is and why it may be the shared checkout), which it may write."""
    return [Violation(
        code="WG406",
        rule=rule,
        tool=ctx.call.tool,
        message=f"{record.how}, a program worktree-guard does not know, is given {given}; it may write it, so it counts as written. Name a path inside {ctx.worktree_root}.",
        path=record.written,
        worktree_root=ctx.worktree_root,
        span=span,
        **fields,
    )]


def _operand(ctx: Context, record: Written, value: str | None, span, rule: str) -> list[Violation]:
    value = literal_tilde(value)
    if value is None and record.prefix is not None:
        return _starts_in(ctx, record, span, rule)
    if value is None and record.word is not None:
        # an operand only known at run time with no static directory it starts in is a record only where it may be
        # the process's own /proc directory
        # `/proc/$$/cwd/../..` is the shell's own /proc directory (review 37b: `make -C /proc/$$/cwd/../../..` ran in
        # main), no place the guard can name
        if record.unplaced:
            return _given(ctx, record, rule, span, f"{record.written}, only known at run time: {record.unplaced}, and may be one into the shared checkout")
        return _given(ctx, record, rule, span, f"{record.written}, only known at run time and in /proc or /dev: it may be the process's own /proc directory (`/proc/$$/cwd`), which may be the shared checkout")
    if value is None or (record.cwd is None and not value.startswith("/")):
        return []  # not static: only a statically resolved path is at the boundary
    judgement = ctx.policy.judge(value, record.cwd or "/")
    resolved = judgement.resolved
    # allowed or not (`/dev/stdin` is on no allow-list: review 36d, `python3 run.py /dev/stdin < <main>/f` wrote it)
    if opened_on_a_path(as_descriptor(resolved), ctx.extra.get(READ_DESCRIPTORS, set())):
        return _given(ctx, record, rule, span, f"{resolved}, a descriptor the command opens on a path (`N<…`), which may be in the shared checkout", resolved=resolved)
    if own_process_place(resolved):
        # the process's own /proc directory: `/proc/self/cwd/../..` or `/proc/self/root<main>` may be the shared
        # checkout, and it is no place the guard can name (review 37: `python3 run.py /proc/self/cwd/../../../README.md`
        # and `make -C /proc/self/root<main>` passed as "outside" and wrote it)
        return _given(ctx, record, rule, span, f"{resolved}, a path through the process's own /proc directory or a descriptor, which may be in the shared checkout", resolved=resolved)
    if judgement.place != "shared":
        return []
    return _in_shared(ctx, record, rule, span, judgement, judgement.resolved, "it")


def _in_shared(ctx: Context, record: Written, rule: str, span, judgement, given: str, where: str) -> list[Violation]:
    """WG406 for an unknown program given `given`, placed by `judgement` in a shared checkout, which it may write."""
    return [Violation(
        code="WG406",
        rule=rule,
        tool=ctx.call.tool,
        message=(
            f"{record.how}, a program worktree-guard does not know, is given {given} in the shared checkout "
            f"{judgement.shared_root}; it may write {where}, so it counts as written. Work on the copy in {ctx.worktree_root}."
        ),
        path=record.written,
        resolved=judgement.resolved,
        shared_root=judgement.shared_root,
        suggestion=judgement.suggestion,
        worktree_root=ctx.worktree_root,
        span=span,
    )]


def _starts_in(ctx: Context, record: Written, span, rule: str) -> list[Violation]:
    """An operand only known at run time whose static beginning is a directory in the shared checkout
    (`python3 run.py ../../../README$X.md`): wherever it ends, it is reached from there, as a write target that
    starts there is WG401 (SPEC §5.2's default-deny, on the part that is static)."""
    if record.cwd is None and not record.prefix.startswith("/"):
        return []  # a relative beginning after a directory change the guard cannot follow
    judgement = ctx.policy.judge(record.prefix, record.cwd or "/")
    if judgement.place != "shared":
        return []
    return _in_shared(ctx, record, rule, span, judgement, f"{record.written}, only known at run time, which starts in {judgement.resolved}", "there")


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
    prefix: str | None = None,
    verb: str = "writes",
) -> list[Violation]:
    """§5.1's order for one written path as Bash gives it; relative paths need a known cwd.

    `recursive` (rm -r, find -delete, chmod -R): the write reaches everything below the path, so a
    shared checkout below it counts even when the path itself is allowed (a repository can live in /tmp).
    `prefix`: for a target only known at run time, the static directory it starts in; inside a shared
    checkout that is a WG401 with the matching directory under W as the suggestion (`xargs cp … /repo/src/{}`).
    """
    common = dict(rule=rule, tool=ctx.call.tool, path=written, worktree_root=ctx.worktree_root, span=span)
    root = ctx.worktree_root
    value = literal_tilde(value)
    if value is None:
        if prefix is not None and (cwd is not None or prefix.startswith("/")):
            place = ctx.policy.judge(prefix, cwd or "/")
            if place.place == "shared":
                return [Violation(
                    code="WG401",
                    message=f"{what} {verb} {written!r}, which starts in {place.resolved} in the shared checkout {place.shared_root}, not in this agent's worktree {root}.",
                    resolved=place.resolved,
                    shared_root=place.shared_root,
                    suggestion=place.suggestion,
                    **common,
                )]
        return [Violation(code="WG403", message=f"{what} {verb} {written!r}, which is only known at run time; use a literal path inside {root}.", **common)]
    if cwd is None and not value.startswith("/"):
        return [Violation(code="WG403", message=f"{what} {verb} the relative path {written!r} after a directory change worktree-guard cannot follow; use an absolute path inside {root}.", **common)]
    # a link's target is a place reached through the link, which a descriptor (`ln -s /dev/fd/3 l`) is not (stop 36)
    judgement = ctx.policy.judge(value, cwd or "/", directory=verb != "writes")
    if judgement.place == "allowed" and opened_on_a_path(judgement.resolved, ctx.extra.get(READ_DESCRIPTORS, set())):
        return [Violation(code="WG403", message=f"{what} {verb} {judgement.resolved}, a descriptor the command opens on a path (`N<…`): that path is written, which worktree-guard does not follow; name the path itself, inside {root}.", resolved=judgement.resolved, **common)]
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
        return [Violation(code="WG103", message=f"{what} {verb} {judgement.resolved}, which is protected inside this worktree.", resolved=judgement.resolved, **common)]
    if judgement.place == "shared":
        return [Violation(
            code="WG401",
            message=f"{what} {verb} {judgement.resolved} in the shared checkout {judgement.shared_root}, not in this agent's worktree {root}." + (" Writing through the link would change the shared file." if verb != "writes" else ""),
            resolved=judgement.resolved,
            shared_root=judgement.shared_root,
            suggestion=judgement.suggestion,
            **common,
        )]
    return [Violation(code="WG402", message=f"{what} {verb} {judgement.resolved}, outside this agent's worktree {root} and the allow-list.", resolved=judgement.resolved, **common)]
