"""A wave worker's own calls (SPEC §11): what it writes, judged against its ownership.

- WG701: a path it writes that its ownership does not match — every file a file tool or patch writes
  (`call.writes`, relative paths from the call's cwd), Bash write operands, redirections, tree writers, and the
  files a link it makes points to (`ln -s T L` lets a later write to L reach T; so does a hard link);
- WG702: a hidden write surface it does not own (package managers, formatters, …: `surfaces`);
- WG703: a shared-workspace worker's git that writes the index, refs, HEAD, stash, config or worktrees
  (and EnterWorktree with a `name`, which makes one);
- WG404: what the worker runs cannot be seen (a computed command name given paths it does not own, `eval` of
  run-time text, a shell reading its input, an alias): the indirection rule's checks, for a worker too.
- WG900: a command no parser handles, a PowerShell command among them (`rules.bash`), for a worker too.

Paths are relative to the checkout recorded for the worker (`Worker.root`), whatever directory its call names:
a worker that changed directory out of its checkout, or into a repository nested in it, is still judged there.
The shell commands are every one the call runs (`call.shell_commands`), each from `call.shell_cwd`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ..model import Violation
from ..paths import as_descriptor, expand_user, literal_tilde, own_process, own_process_place
from ..shell.descriptors import READ_DESCRIPTORS, opened_on_a_path

if TYPE_CHECKING:
    from ..engine import Context
    from ..model import ToolCall
    from ..shell.steps import ShellCommand, ShellRedirect
    from .linking import Worker
    from .ownership import Ownership
    from .surfaces import Surface

RULE = "wave"
#: Interpreters whose first operand with a script suffix is the program they run: read, not written (what the
#: script then writes is opaque, as `python -c` is; its own operands are at the ownership boundary).
INTERPRETERS = frozenset({"python", "python3", "py", "pypy", "pypy3", "node", "nodejs", "deno", "bun", "tsx", "ts-node", "ruby", "perl", "php"})
INLINE_CODE_OPTIONS = frozenset({"-c", "-e", "-E", "--eval", "-p", "--print", "-r"})
SCRIPT_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".rb", ".pl", ".php")


def check_worker_call(call: ToolCall, ctx: Context, worker: Worker) -> list[Violation]:
    """Every finding on one call of a worker."""
    findings: list[Violation] = []
    if call.kind == "enter_worktree":
        return check_enter_worktree(call, ctx, worker)
    if call.kind == "file_write" or call.file_writes is not None:
        findings += check_file_writes(call, ctx, worker)
    if call.kind == "shell":
        findings += check_shell(call, ctx, worker)
    if call.kind == "powershell" and not ctx.isolation.isolated:  # isolated: the bash rule reports it already
        from ..rules.bash import unreadable_powershell

        findings.append(unreadable_powershell(call, ctx))
    return findings


def _owns(worker: Worker) -> str:
    return f"This worker owns {worker.ownership.describe()} ({worker.ownership.source})"


# --- one written path -----------------------------------------------------------------------------------------


def _scratch(ctx: Context) -> Ownership:
    from .ownership import Ownership

    scratch = ctx.extra.get("wave_scratch")
    if scratch is None:
        scratch = ctx.extra["wave_scratch"] = Ownership.of(ctx.settings.scratch, "scratch")
    return scratch


def judge_write(
    ctx: Context,
    worker: Worker,
    value: str | None,
    written: str,
    cwd: str | None,
    span: tuple[int, int] | None,
    what: str,
    *,
    tree: bool = False,
    code: str = "WG701",
) -> list[Violation]:
    """One written path against the worker's ownership (relative to its checkout), the allow-list and scratch.

    A path owned as a whole tree (`src/auth` for `src/auth/**`, `__pycache__` for `__pycache__/`) is owned as
    well: making that directory writes nothing anyone else owns.
    """
    from ..paths import deepest_root
    from .ownership import relative_to

    common = dict(rule=RULE, tool=ctx.call.tool, path=written or None, worktree_root=worker.root, span=span)
    value = literal_tilde(value)
    if value is None:
        return [Violation(code=code, message=f"{what} writes {written!r}, which is only known at run time. {_owns(worker)}; write to literal paths it owns.", **common)]
    if cwd is None and not value.startswith("/"):
        return [Violation(code=code, message=f"{what} writes the relative path {written!r} after a directory change worktree-guard cannot follow. {_owns(worker)}; use an absolute path.", **common)]
    resolved = ctx.policy.canonical(value, cwd or "/")
    # through a process's own /proc directory: only the process that opens it can name the place, and its `..`
    # must not be dropped as text (review 36c: `src/auth/T/../proc/self/cwd/src/app.py`, T a link to /tmp)
    relative = None if own_process(resolved) else relative_to(worker.root, resolved)
    if relative is None:
        if worker.isolated and ctx.isolation.isolated and ctx.worktree_root == worker.root:
            return []  # outside its own worktree W: the isolation rules judge it
        other = deepest_root(resolved, ctx.policy.shared_roots)
        if other is None and ctx.policy.on_allow_list(resolved) and not opened_on_a_path(resolved, ctx.extra.get(READ_DESCRIPTORS, set())):
            return []
        where = f"in another checkout, {other}" if other else f"outside the checkout {worker.root}"
        return [Violation(code=code, message=f"{what} writes {resolved}, {where}. {_owns(worker)}.", resolved=resolved, **common)]
    if relative and ctx.policy.protect.matches(relative):
        return [Violation(code=code, message=f"{what} writes {resolved}, which is protected (git's own files). {_owns(worker)}.", resolved=resolved, **common)]
    is_tree = tree and not os.path.isfile(resolved)
    if is_tree:
        test = lambda o: o.covers_tree(relative)  # noqa: E731
    else:
        test = lambda o: o.matches(relative) or o.covers_tree(relative)  # noqa: E731
    if test(_scratch(ctx)) or test(worker.ownership):
        return []
    whole = f"everything below {resolved}" if is_tree else resolved
    return [Violation(
        code=code,
        message=f"{what} writes {whole}, which this worker's ownership does not match. {_owns(worker)}: write only there, and name what else needs changing in your answer.",
        resolved=resolved,
        **common,
    )]


# --- file tools and patches -----------------------------------------------------------------------------------


def check_file_writes(call: ToolCall, ctx: Context, worker: Worker) -> list[Violation]:
    """Every path the call writes as a file tool does (`call.writes`); relative paths are the call's cwd's."""
    writes = call.writes
    if not writes or any(not w.path or "\0" in w.path for w in writes):
        return [Violation(
            code="WG000", rule=RULE, tool=call.tool, worktree_root=worker.root,
            message=f"The {call.tool} call names no usable path, so worktree-guard cannot check what this worker writes.",
        )]
    found: list[Violation] = []
    for write in writes:
        # a file tool's `~` is HOME (as the isolated agent's file rule reads it); a shell word's is expanded already
        found += judge_write(ctx, worker, expand_user(write.path, ctx.policy.home), write.path, ctx.cwd, None, call.tool)
    return found


def check_enter_worktree(call: ToolCall, ctx: Context, worker: Worker) -> list[Violation]:
    """A shared-workspace worker stays in the checkout its ownership names: EnterWorktree moves it out (WG701), or
    makes a worktree (`name`: git's business, WG703). An isolated worker's is the dispatch rule's (WG505)."""
    if worker.isolated:
        return []
    base = dict(rule=RULE, tool=call.tool, worktree_root=worker.root)
    if "path" not in call.input:
        return [Violation(code="WG703", message=f"EnterWorktree makes a new worktree of the repository that every worker of {worker.root} shares: workers leave git to the orchestrator.", **base)]
    value = call.input["path"]
    resolved = ctx.policy.canonical(value, ctx.cwd) if isinstance(value, str) and value else None
    if resolved == worker.root:
        return []
    return [Violation(
        code="WG701", path=value if isinstance(value, str) else None, resolved=resolved,
        message=f"EnterWorktree would move this worker to {resolved or repr(value)}, out of the checkout {worker.root} its ownership names. {_owns(worker)}; stay there.",
        **base,
    )]


# --- shell ----------------------------------------------------------------------------------------------------


def check_shell(call: ToolCall, ctx: Context, worker: Worker) -> list[Violation]:
    """Every command the call runs (`call.shell_commands`), walked from the call's start directory."""
    from ..rules.bash import RULE as BASH_RULE, analyse

    findings: list[Violation] = []
    for command in call.shell_commands:
        if not isinstance(command, str):
            return [Violation(code="WG000", rule=RULE, tool=call.tool, worktree_root=worker.root, message=f"The {call.tool} call has no `command` string, so worktree-guard cannot check what this worker writes.")]
        walker, _ = analyse(command, ctx, on_command=lambda step: worker_command(step, ctx, worker), on_redirect=lambda step: worker_redirect(step, ctx, worker))
        findings += walker.findings
    if ctx.isolation.isolated:  # the bash rule reports what cannot be parsed, and code it cannot see, already
        findings = [v for v in findings if v.code not in ("WG900", "WG901") and not (v.code == "WG404" and v.rule == BASH_RULE)]
    return findings


# What a simple command or a redirection writes comes from `shell.written`, the one answer every rule shares.


def command_writes(step: ShellCommand, ctx: Context) -> list[tuple[Any, str | None, str, bool, str]]:
    """(word, path or None, how, whole tree?, kind) for each path a simple command writes ("write"), links to
    ("link": a later write through the link reaches it) or, as a program outside both tables, is given
    ("operand"). A relative path is made absolute when it is not relative to the command's own directory
    (`git -C d`, `ln -s` targets, which resolve from the link's directory)."""
    from ..rules.writes import tables_for
    from ..shell.programs import CWD
    from ..shell.written import command_writes as written_by

    out: list[tuple[Any, str | None, str, bool, str]] = []
    for record in written_by(step, tables_for(ctx)):
        if record.kind == "operand" and record.value is None and record.prefix is not None:
            continue  # a run-time operand's static beginning is the shared boundary's (WG406), not the ownership's
        if record.value == CWD:
            out.append((record.word, record.cwd, record.how, True, record.kind))
            continue
        value = literal_tilde(record.value)
        if value is not None and not value.startswith("/") and record.cwd != step.cwd:
            value = None if record.cwd is None else os.path.join(record.cwd, value)
        out.append((record.word, value, record.how, record.recursive, record.kind))
    return out


def redirect_writes(redirect: ShellRedirect) -> list[str | None] | None:
    """The path a redirection writes (None inside: only known at run time); None when it writes no file."""
    from ..shell.written import redirect_writes as written_by

    return [record.value for record in written_by(redirect)] or None


def worker_redirect(redirect: ShellRedirect, ctx: Context, worker: Worker) -> list[Violation]:
    values = redirect_writes(redirect)
    if values is None:
        return []
    node = redirect.redirect
    found: list[Violation] = []
    for value in values:
        found += judge_write(ctx, worker, value, node.target.raw if node.target else "", redirect.cwd, node.span, f"the redirection `{node.op}`")
    return found


def surface_table(ctx: Context) -> dict[str, tuple[Surface, ...]]:
    """The built-in hidden-surface table with every plugin's rows over it, built once per call."""
    from ..plugins import merged_table

    return merged_table(ctx, "worktree_guard_hidden_surfaces")


def worker_command(step: ShellCommand, ctx: Context, worker: Worker) -> list[Violation]:
    name = step.name
    found = unseen(step, ctx, worker)
    if name is None:
        return found
    surfaces = surfaces_for(step, ctx, worker)
    known = name in surface_table(ctx) or bool(surfaces)  # its writes beyond its operands are the table's
    script = name.rstrip("0123456789.") in INTERPRETERS  # its first script operand is the program it runs, read
    code = inline_code(step) if script else set()
    for word, value, how, tree, kind in command_writes(step, ctx):
        written = word.raw if word is not None else value if value is not None else "."  # the current directory, as rules/writes says (h-wc33: it said 'None')
        span = word.span if word is not None else step.span
        if kind == "operand" and id(word) in code:
            continue  # inline code (`python -c`): opaque, as for every agent (SPEC §5.2)
        if kind == "operand" and script and value is not None and value.endswith(SCRIPT_SUFFIXES):
            script = False
            continue
        if kind == "operand":
            found += [] if known else at_boundary(ctx, worker, value, written, step.cwd, span, how)
        else:
            found += judge_write(ctx, worker, value, written, step.cwd, span, how if kind == "write" else f"{how}: a write through the link", tree=tree)
    found += patched(step, ctx, worker)
    if name == "git" and not worker.isolated:
        from ..rules.git import writes_repository
        from ..shell.git_call import read_git_call

        git_call = read_git_call(step)
        if writes_repository(git_call):
            what = f"`git {git_call.subcommand}`" if git_call.subcommand else "this git command"
            found.append(Violation(
                code="WG703", rule=RULE, tool=ctx.call.tool, span=step.span, worktree_root=worker.root,
                message=f"{what} writes the index, refs, HEAD, stash, config or worktrees that every worker of {worker.root} shares: "
                "workers leave git to the orchestrator. Read-only git (status, diff, log, show) is fine; say in your answer what should be committed.",
            ))
    found += hidden_surfaces(surfaces, step, ctx, worker)
    return found


def inline_code(step: ShellCommand) -> set[int]:
    """The words an interpreter runs as code (the value of `-c`, `-e`, …), by identity."""
    values = step.values()
    return {id(step.words[i + 1]) for i, v in enumerate(values[:-1]) if v in INLINE_CODE_OPTIONS}


def at_boundary(ctx: Context, worker: Worker, value: str | None, written: str, cwd: str | None, span, how: str) -> list[Violation]:
    """The default-deny at the ownership boundary (SPEC §5.2 with the ownership as the boundary): a program in
    neither the write table nor the read-only table may write what it is given, so a static word that resolves
    inside the worker's checkout counts as written there (WG701 when not owned). A word only known at run time,
    or one outside the checkout, is not at this boundary (the shared boundary judges other checkouts: WG406)."""
    from .ownership import relative_to

    value = literal_tilde(value)
    if value is None:
        # an operand only known at run time is given here only where it may be the process's own /proc directory
        # `/proc/$$/cwd/src/app.py`: the shell's own /proc directory, any file (review 37b); judge_write refuses it
        return judge_write(ctx, worker, None, written, cwd, span, f"{how} (a program in neither the write table nor the read-only table: what it is given counts as written)")
    if cwd is None and not value.startswith("/"):
        return []
    resolved = ctx.policy.canonical(value, cwd or "/")
    if opened_on_a_path(as_descriptor(resolved), ctx.extra.get(READ_DESCRIPTORS, set())) or own_process_place(resolved):
        # a descriptor the command opens on a path is that path, maybe one the worker does not own (review 36c); a
        # path through the process's own /proc directory may be any file (review 37: `python3 tools/run.py
        # /proc/self/cwd/src/app.py` wrote the unowned app.py): judge_write refuses both
        return judge_write(ctx, worker, value, written, cwd, span, f"{how} (a program in neither the write table nor the read-only table: what it is given counts as written)")
    if relative_to(worker.root, resolved) is None:
        return []
    if not os.path.lexists(resolved) and ("/" not in value or not os.path.isdir(os.path.dirname(resolved))):
        return []  # naming nothing, nor a new file in an existing directory: a subcommand, a name, text
    what = f"{how} (a program in neither the write table nor the read-only table: what it is given counts as written)"
    return judge_write(ctx, worker, value, written, cwd, span, what, tree=os.path.isdir(resolved))


def patched(step: ShellCommand, ctx: Context, worker: Worker) -> list[Violation]:
    """`apply_patch` in a shell command writes every file its patch names (a patch it cannot see: WG701)."""
    from ..runtimes.patch import PROGRAMS, PatchError, patch_input, patch_writes

    if step.name not in PROGRAMS:
        return []
    what = f"`{step.name}`"
    fed = patch_input(step)
    try:
        writes = patch_writes(fed[0]) if fed is not None else None
    except PatchError:
        writes = None
    if writes is None:
        return judge_write(ctx, worker, None, "its patch", step.cwd, step.span, f"{what} (a patch worktree-guard cannot see or read)")
    found: list[Violation] = []
    for write in writes:
        value = write.path if fed[1] or not (set("$`\\") & set(write.path)) else None
        found += judge_write(ctx, worker, value, write.path, step.cwd, step.span, f"{what} ({write.action.replace('_', ' ')})")
    return found


def unseen(step: ShellCommand, ctx: Context, worker: Worker) -> list[Violation]:
    """WG404: what the command runs cannot be seen. The indirection rule's checks (which an isolated worker's
    call already had), and a computed command name given any path this worker does not own."""
    from ..rules import indirection

    found: list[Violation] = []
    if not ctx.isolation.isolated:
        found += indirection.worktree_guard_shell_command(command=step, ctx=ctx) or []
    if step.name is None and step.words and not found and _arguments_matter(step, ctx, worker):
        found.append(Violation(
            code="WG404", rule=RULE, tool=ctx.call.tool, span=step.span, worktree_root=worker.root,
            message=f"The command name {step.words[0].raw!r} is computed at run time and its arguments name paths this worker does not own. {_owns(worker)}; call the program by its literal name.",
        ))
    return found


def _arguments_matter(step: ShellCommand, ctx: Context, worker: Worker) -> bool:
    from ..rules.indirection import SENSITIVE_ARGUMENTS

    for value in step.values()[1:]:
        if value is None or value in SENSITIVE_ARGUMENTS:
            return True
        if value.startswith("-"):
            continue
        if judge_write(ctx, worker, value, value, step.cwd, None, ""):
            return True
    return False


def surfaces_for(step: ShellCommand, ctx: Context, worker: Worker) -> list:
    """What the command writes beyond its operands, by the hidden-surface table (package managers at their
    manifest, up to the worker's checkout root)."""
    from .surfaces import surfaces_of

    def find_projects(base: str, manifests: tuple[str, ...]) -> list[str]:
        base = literal_tilde(base) or base
        if step.cwd is None and not base.startswith("/"):
            return []
        return projects_above(ctx.policy.canonical(base, step.cwd or "/"), worker.root, manifests)

    return list(surfaces_of(step.name or "", step.values()[1:], surface_table(ctx), find_projects=find_projects))


def hidden_surfaces(surfaces: list, step: ShellCommand, ctx: Context, worker: Worker) -> list[Violation]:
    """WG702: one violation per command, listing every surface it writes that the worker does not own."""
    name = step.name or ""
    hidden: list[Violation] = []
    kinds: list[str] = []
    for surface in surfaces:
        refused = judge_write(ctx, worker, surface.path, surface.path or name, step.cwd, step.span, "", tree=surface.tree, code="WG702")
        hidden += refused
        if refused and surface.kind not in kinds:
            kinds.append(surface.kind)
    if not hidden:
        return []
    places = list(dict.fromkeys(
        (f"everything below {v.resolved}" if "everything below" in v.message else v.resolved) if v.resolved else "a path only known at run time"
        for v in hidden
    ))
    return [Violation(
        code="WG702", rule=RULE, tool=ctx.call.tool, span=step.span, worktree_root=worker.root, path=name, resolved=hidden[0].resolved,
        message=f"`{name}` ({' and '.join(kinds)}) writes beyond its operands: {', '.join(places)}, which this worker's ownership does not match. "
        f"{_owns(worker)}; leave this command to the orchestrator, or ask for those files to be yours.",
    )]


def projects_above(start: str, root: str, manifests: tuple[str, ...]) -> list[str]:
    """The directories from `start` up to `root` (inside it) that hold one of `manifests`, nearest first: where a
    package manager run in `start` finds its project, and the workspace roots above it."""
    from ..paths import inside

    found: list[str] = []
    here = start
    while inside(here, root):
        if any(os.path.isfile(os.path.join(here, m)) for m in manifests):
            found.append(here)
        if here == root:
            break
        here = os.path.dirname(here)
    return found
