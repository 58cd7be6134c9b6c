"""The git rule (SPEC §5.2): git may not change a shared checkout, its branch, or the shared refs and config.

The effective checkout of each git invocation comes from the directory it runs in, `-C` (cumulative),
`--git-dir`, `--work-tree`, `-c core.worktree`, and GIT_DIR / GIT_WORK_TREE / GIT_COMMON_DIR given as
prefixes or set earlier in the command. Codes: WG301 branch/HEAD change, WG302 other changes to the
working tree, index or HEAD, WG303 location not static, WG304 `git worktree` outside W, WG305 refs and
config shared by every worktree.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..hookspecs import hookimpl
from ..layout import LayoutUnknown, checked_out_branch, git_checkouts_at, owner_of_git_dir
from ..model import Violation
from ..paths import canonical
from ..shell.programs import ParsedArgv, WriteSpec, parse_argv

if TYPE_CHECKING:
    from ..engine import Context
    from ..shell.ast import Word
    from ..shell.steps import ShellCommand

RULE = "git"

GLOBAL_WITH_VALUE = {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--list-cmds", "--attr-source"}
LOCATION_VARIABLES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE")

READ_ONLY = frozenset({
    "status", "log", "diff", "show", "rev-parse", "blame", "annotate", "grep", "ls-files", "ls-tree", "ls-remote",
    "cat-file", "describe", "shortlog", "reflog", "rev-list", "for-each-ref", "show-ref", "show-branch", "merge-base",
    "name-rev", "cherry", "count-objects", "fsck", "help", "version", "var", "check-ignore", "check-attr",
    "check-ref-format", "whatchanged", "range-diff", "diff-tree", "diff-files", "diff-index", "verify-commit",
    "verify-tag", "fetch", "remote", "tag", "gc", "prune", "repack", "pack-refs", "maintenance", "bundle",
    "archive", "format-patch", "request-pull", "difftool", "credential", "hash-object", "column", "config",
    "update-ref", "symbolic-ref", "branch", "worktree", "push", "init", "clone", "notes", "stripspace",
    "interpret-trailers", "mailinfo", "get-tar-commit-id", "send-email", "instaweb", "gui", "citool", "gitk",
    "replace", "rerere", "sparse-checkout-list", "submodule-status",
})
# Commands that change a checkout's working tree, index or HEAD (WG302 when it is a shared one).
CHANGES_CHECKOUT = frozenset({
    "restore", "reset", "clean", "stash", "merge", "rebase", "pull", "cherry-pick", "revert", "am", "apply",
    "commit", "add", "rm", "mv", "sparse-checkout", "read-tree", "checkout-index", "update-index", "bisect",
    "submodule", "filter-branch", "mergetool", "switch", "checkout",
})
STASH_READ_ONLY = ("list", "show")
# Options of a subcommand that take a separate value, so that the value is not read as an operand.
SUBCOMMAND_VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "branch": frozenset({"-u", "--set-upstream-to", "--sort", "--format", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"}),
    "update-ref": frozenset({"-m"}),
    "symbolic-ref": frozenset({"-m"}),
    "checkout": frozenset({"-b", "-B", "--orphan", "--conflict"}),
    "switch": frozenset({"-c", "-C", "--create", "--force-create", "--orphan", "--conflict"}),
    "config": frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment", "--value", "--url"}),
    "worktree": frozenset({"-b", "-B", "--reason"}),
    "clone": frozenset({"-o", "--origin", "-b", "--branch", "-u", "--upload-pack", "--reference", "--reference-if-able", "--separate-git-dir", "--depth", "--shallow-since", "--shallow-exclude", "-c", "--config", "--filter", "-j", "--jobs", "--template", "--server-option", "--bundle-uri"}),
    "init": frozenset({"--template", "--separate-git-dir", "-b", "--initial-branch", "--object-format", "--ref-format", "--shared"}),
    "archive": frozenset({"--format", "--prefix", "-o", "--output", "--remote", "--exec", "--add-file", "--add-virtual-file"}),
    "format-patch": frozenset({"-o", "--output-directory", "--subject-prefix", "--suffix", "--in-reply-to", "--to", "--cc", "--from", "--base", "--start-number", "-v", "--reroll-count", "--signature", "--signature-file", "--range-diff", "--interdiff", "--creation-factor"}),
    "fetch": frozenset({"--depth", "--deepen", "--shallow-since", "--shallow-exclude", "-j", "--jobs", "--upload-pack", "-o", "--server-option", "--negotiation-tip", "--refmap"}),
    "push": frozenset({"--repo", "--receive-pack", "--exec", "-o", "--push-option", "--signed"}),
}
BRANCH_MOVING = {"-f", "--force", "-m", "-M", "--move", "-d", "-D", "--delete", "-C", "--copy", "-c"}


@dataclass(slots=True)
class GitCall:
    """One git invocation, read: where it acts, its subcommand and arguments, and what could not be read."""

    subcommand: str | None = None
    args: list[tuple[Word, str | None]] = field(default_factory=list)
    run_dir: str | None = None
    git_dir: str | None = None
    work_tree: str | None = None
    dynamic: list[str] = field(default_factory=list)
    configs: list[tuple[Word, str]] = field(default_factory=list)
    subcommand_dynamic: bool = False

    def values(self) -> list[str | None]:
        return [v for _, v in self.args]

    def parsed(self) -> ParsedArgv:
        """The subcommand's own options and operands, clusters split (`-qm` is `-q -m`)."""
        words = [word for word, _ in self.args]
        spec = WriteSpec(value_options=SUBCOMMAND_VALUE_OPTIONS.get(self.subcommand or "", frozenset()))
        head = words[0] if words else None
        return parse_argv([head, *words] if head is not None else [], [self.subcommand, *self.values()] if head is not None else [], spec)  # type: ignore[list-item]

    def flags(self) -> set[str]:
        return set(self.parsed().options)

    def operands(self) -> list[str | None]:
        return [value for _, value in self.parsed().operands]


def _join(base: str | None, value: str) -> str | None:
    if value.startswith("/"):
        return value
    return None if base is None else os.path.join(base, value)


def read_git_call(step: ShellCommand) -> GitCall:
    words, values = step.words, step.values()
    call = GitCall(run_dir=step.cwd)
    for variable in LOCATION_VARIABLES:
        present, value = step.env(variable)
        if not present:
            continue
        if value is None:
            call.dynamic.append(f"${variable} is set to a value only known at run time")
        elif variable == "GIT_WORK_TREE":
            call.work_tree = _join(step.cwd, value)
        elif variable in ("GIT_DIR", "GIT_COMMON_DIR"):
            call.git_dir = _join(step.cwd, value)
    i = 1
    while i < len(words):
        value = values[i]
        if value is None:
            i += 1
            if words[i - 1].raw.startswith("-"):
                call.dynamic.append(f"{words[i - 1].raw!r} is only known at run time")
                continue
            call.subcommand_dynamic = True  # `git $(echo switch)`, `git "$@"`, xargs' input: could be anything
            return call
        if not value.startswith("-"):
            call.subcommand = value
            call.args = list(zip(words[i + 1:], values[i + 1:]))
            return call
        name, eq, attached = value.partition("=")
        if name in GLOBAL_WITH_VALUE:
            if eq:
                argument: str | None = attached
                word = words[i]
                i += 1
            else:
                if i + 1 >= len(words):
                    return call
                word, argument = words[i + 1], values[i + 1]
                i += 2
            if argument is None:
                call.dynamic.append(f"{name} {word.raw} is only known at run time")
                continue
            if name == "-C":
                if argument:
                    call.run_dir = _join(call.run_dir, argument)
                    if call.run_dir is None:
                        call.dynamic.append(f"-C {argument} is relative to a directory that is not known")
            elif name == "--git-dir":
                call.git_dir = _join(call.run_dir, argument)
            elif name == "--work-tree":
                call.work_tree = _join(call.run_dir, argument)
            elif name == "-c":
                call.configs.append((word, argument))
                key, _, setting = argument.partition("=")
                if key.lower() == "core.worktree":
                    call.work_tree = _join(call.run_dir, setting)
            continue
        i += 1  # a flag: -p, --no-pager, --bare, …
    return call


def affected_checkouts(call: GitCall, home: str) -> list[str] | None:
    """The checkouts whose HEAD, index or files the invocation touches; None when they cannot be told."""
    if call.dynamic:
        return None
    checkouts: list[str] = []
    if call.git_dir is not None:
        git_dir = canonical(call.git_dir, "/", home)
        owner = owner_of_git_dir(git_dir)
        if owner:
            checkouts.append(owner)
        # With GIT_DIR and no work tree, git uses the directory it runs in as the work tree.
        tree = call.work_tree or call.run_dir
        if tree is None:
            return None
        checkouts.append(canonical(tree, "/", home))
        return checkouts
    if call.work_tree is not None:
        checkouts.append(canonical(call.work_tree, "/", home))
    if call.run_dir is None:
        return None
    try:
        # Where git finds its `.git` (a hand-written `.git` file may link to another checkout's git dir): with
        # another work tree, its HEAD and index move too.
        found = git_checkouts_at(canonical(call.run_dir, "/", home))
    except LayoutUnknown:
        return None
    checkouts.extend(top for top in found if top not in checkouts)
    return checkouts


def is_read_only(call: GitCall) -> bool:
    """True for invocations that change no working tree, index or HEAD of the checkout they act on."""
    sub = call.subcommand
    if call.subcommand_dynamic:
        return False
    if sub is None:
        return True  # `git`, `git --version`
    flags = call.flags()
    operands = call.operands()
    if sub == "stash":
        return bool(operands) and operands[0] in STASH_READ_ONLY
    if sub == "apply":
        return bool({"--check", "--stat", "--numstat", "--summary"} & flags) and not {"--index", "--cached", "--apply"} & flags
    if sub == "sparse-checkout":
        return bool(operands) and operands[0] == "list"
    if sub == "checkout":
        return not operands and flags <= {"-q", "--quiet", "--progress", "--no-progress"}
    if sub == "submodule":
        return not operands or operands[0] in ("status", "summary")
    if sub == "bisect":
        return bool(operands) and operands[0] in ("log", "view", "visualize")
    return sub in READ_ONLY


BRANCH_LISTING = {"-l", "--list", "-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "--show-current", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--format", "--sort"}
TAG_LISTING = {"-l", "--list", "-v", "--verify", "-n", "--contains", "--no-contains", "--points-at", "--merged", "--no-merged", "--format", "--sort"}
# Read-only for the checkout, but they write what every worktree shares (refs, objects, worktrees) in any form.
WRITES_SHARED_STATE = frozenset({"fetch", "push", "gc", "prune", "repack", "pack-refs", "maintenance", "init", "replace", "rerere", "update-ref", "notes", "remote", "worktree"})
SHARED_STATE_READ_FORMS = {"notes": ("list", "show"), "remote": ("show", "get-url"), "worktree": ("list",)}


def writes_repository(call: GitCall) -> bool:
    """True when the invocation writes a checkout's tree, index or HEAD (not `is_read_only`), or the refs, stash,
    config, objects or worktrees that every checkout shares. A shared-workspace worker may run only the others
    (SPEC §11, WG703): the same tables as WG301–WG305, read the other way round."""
    if call.subcommand_dynamic or not is_read_only(call):
        return True
    sub = call.subcommand
    if sub is None:
        return False
    flags, operands = call.flags(), call.operands()
    if sub == "config":
        return _writes_config(flags, operands)
    if sub == "branch":
        return bool(flags & BRANCH_MOVING) or ("--set-upstream-to" in flags or "-u" in flags) or (bool(operands) and not flags & BRANCH_LISTING)
    if sub == "tag":
        return bool(flags & {"-d", "--delete", "-f", "--force", "-a", "-s", "-m"}) or (bool(operands) and not flags & TAG_LISTING)
    if sub == "symbolic-ref":
        return len(operands) >= 2 or bool(flags & {"-d", "--delete"})
    if sub == "reflog":
        return bool(operands) and operands[0] in ("expire", "delete")
    if sub == "hash-object":
        return "-w" in flags
    if sub in SHARED_STATE_READ_FORMS:
        return bool(operands) and operands[0] not in SHARED_STATE_READ_FORMS[sub]
    return sub in WRITES_SHARED_STATE


@hookimpl
def worktree_guard_shell_command(command: ShellCommand, ctx: Context) -> list[Violation] | None:
    if command.name != "git":
        return None
    call = read_git_call(command)
    found: list[Violation] = []
    base = dict(rule=RULE, tool=ctx.call.tool, worktree_root=ctx.worktree_root, span=command.span)
    checkouts = affected_checkouts(call, command.home)
    if checkouts is None:
        if not is_read_only(call):
            reasons = "; ".join(call.dynamic) or "the directory it runs in is not known"
            found.append(Violation(code="WG303", message=f"worktree-guard cannot tell which checkout this git command acts on ({reasons}); run git with literal paths inside {ctx.worktree_root}.", **base))
    else:
        for checkout in dict.fromkeys(checkouts):
            judgement = ctx.policy.judge_resolved(checkout)
            if judgement.place != "shared":
                continue
            found.extend(_shared_checkout(call, judgement.shared_root or checkout, ctx, base))
    found.extend(_side_doors(call, command, checkouts, ctx, base))
    found.extend(_files_written(call, command, ctx))
    return found or None


def _files_written(call: GitCall, command: ShellCommand, ctx: Context) -> list[Violation]:
    """Files and directories git subcommands create wherever they are told (WG401–WG403, as for any writer)."""
    from .writes import judge_write

    sub = call.subcommand
    parsed = call.parsed() if sub in ("clone", "init", "archive", "format-patch", "bundle") else None
    if parsed is None:
        return []
    targets: list[tuple[Word | None, str | None, str]] = []
    operands = parsed.operands
    if sub == "clone":
        if len(operands) >= 2:
            targets.append((operands[1][0], operands[1][1], "clone into"))
        elif operands and operands[0][1] is not None:
            name = operands[0][1].rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].removesuffix(".git") or "."
            targets.append((operands[0][0], name, "clone into"))
        elif operands:
            targets.append((operands[0][0], None, "clone into"))
    elif sub == "init":
        targets.append((operands[0][0], operands[0][1], "init") if operands else (None, ".", "init"))
    elif sub in ("archive", "format-patch"):
        for option in ("-o", "--output", "--output-directory"):
            targets += [(word, value, option) for word, value in parsed.options.get(option, [])]
    elif sub == "bundle" and len(operands) >= 2 and operands[0][1] == "create":
        targets.append((operands[1][0], operands[1][1], "bundle create"))
    found: list[Violation] = []
    for word, value, how in targets:
        written = word.raw if word is not None else str(value)
        span = word.span if word is not None else command.span
        found += judge_write(ctx, value, written, call.run_dir, span, f"`git {sub}` ({how})", rule=RULE)
    return found


def _shared_checkout(call: GitCall, shared: str, ctx: Context, base: dict) -> list[Violation]:
    sub = call.subcommand
    values = call.values()
    root = ctx.worktree_root
    extra = dict(base, path=shared, resolved=shared, shared_root=shared, suggestion=root)
    if sub == "switch" and not {"-h", "--help"} & set(v for v in values if v):
        return [Violation(code="WG301", message=f"`git switch` would change the branch of the shared checkout {shared}; switch branches only in this agent's worktree {root}.", **extra)]
    if sub == "checkout" and not is_read_only(call):
        flags, operands = call.flags(), call.operands()
        paths_only = "--" in values or "--pathspec-from-file" in flags or (not operands and not flags & {"-b", "-B", "--orphan", "--detach"})
        if paths_only:
            return [Violation(code="WG302", message=f"`git checkout` would rewrite or discard files of the shared checkout {shared}; run it in {root}.", **extra)]
        return [Violation(code="WG301", message=f"`git checkout` would change the branch of the shared checkout {shared}; switch branches only in this agent's worktree {root}.", **extra)]
    if sub == "symbolic-ref" and len(call.operands()) >= 2:
        return [Violation(code="WG301", message=f"`git symbolic-ref` would move HEAD of the shared checkout {shared}.", **extra)]
    if sub == "update-ref" and call.operands()[:1] == ["HEAD"]:
        return [Violation(code="WG301", message=f"`git update-ref HEAD` would move HEAD of the shared checkout {shared}.", **extra)]
    if is_read_only(call):
        return []
    what = f"`git {sub}`" if sub else "this git command"
    known = sub in CHANGES_CHECKOUT
    message = (
        f"{what} would change the working tree, index or HEAD of the shared checkout {shared}; run it in this agent's worktree {root}."
        if known
        else f"worktree-guard cannot tell whether {what} changes the shared checkout {shared}; run it in this agent's worktree {root}."
    )
    return [Violation(code="WG302", message=message, **extra)]


def _shared_branches(ctx: Context) -> dict[str, str]:
    """branch name → the shared checkout that has it checked out (read once per call)."""
    branches = ctx.extra.get("shared_branches")
    if branches is None:
        branches = {}
        for top in ctx.layout.shared_roots:
            branch = checked_out_branch(top)
            if branch:
                branches[branch] = top
        ctx.extra["shared_branches"] = branches
    return branches


def _branch_name(ref: str) -> str:
    ref = ref.lstrip("+")
    return ref[len("refs/heads/"):] if ref.startswith("refs/heads/") else ref


def _side_doors(call: GitCall, command: ShellCommand, checkouts: list[str] | None, ctx: Context, base: dict) -> list[Violation]:
    """Refs and config are shared by every worktree: guarded from wherever git runs (WG304, WG305)."""
    found: list[Violation] = []
    sub = call.subcommand
    flags = call.flags()
    operands = call.operands()
    branches = _shared_branches(ctx)

    def side_door(message: str, code: str = "WG305") -> None:
        found.append(Violation(code=code, message=message, **base))

    for _, setting in call.configs:
        key = setting.partition("=")[0].lower()
        if key.startswith("alias.") or key == "core.hookspath":
            side_door(f"`git -c {key}=…` runs commands worktree-guard cannot see; leave it out.")
    if sub in ("checkout", "switch") and "--ignore-other-worktrees" in flags:
        side_door(f"`--ignore-other-worktrees` would check out a branch another worktree has checked out; create a new branch in {ctx.worktree_root} instead.")
    if sub == "branch" and flags & BRANCH_MOVING:
        named = [_branch_name(v) for v in operands if v is not None]
        if any(v is None for v in operands):
            side_door("`git branch` with a branch name only known at run time could move a branch another checkout uses.")
        for name in named:
            # Old or new name alike: `-M x main` and `-C main` overwrite it, `-m main x` and `-d main` take it away.
            if name in branches:
                side_door(f"`git branch` would move, rename, overwrite or delete `{name}`, the branch checked out in {branches[name]}.")
    if sub == "update-ref":
        refs = [v for v in operands if v is not None]
        if "--stdin" in flags or any(v is None for v in operands):
            side_door("`git update-ref` with refs only known at run time could move a branch another checkout uses.")
        elif refs and _branch_name(refs[0]) in branches and refs[0].startswith("refs/heads/"):
            side_door(f"`git update-ref` would move `{refs[0]}`, the branch checked out in {branches[_branch_name(refs[0])]}.")
    if sub in ("fetch", "push") and len(operands) >= 2:
        remote = operands[0]
        local = remote == "." or (remote is not None and remote.startswith(("/", "./", "../")) and _is_this_repository(remote, command, ctx))
        if local:
            for spec in operands[1:]:
                if spec is None:
                    side_door(f"`git {sub}` into this repository with a refspec only known at run time could move a checked-out branch.")
                    continue
                destination = _branch_name(spec.split(":", 1)[1]) if ":" in spec else None
                if destination in branches:
                    side_door(f"`git {sub}` would move `{destination}`, the branch checked out in {branches[destination]}.")
    if sub == "config" and _writes_config(flags, operands):
        shared_target = checkouts is not None and any(ctx.policy.judge_resolved(c).place == "shared" for c in checkouts)
        if "--worktree" not in flags or shared_target:
            side_door(f"`git config` would write configuration every worktree shares; use `git config --worktree` in {ctx.worktree_root}, or ask the user.")
    if sub == "worktree" and operands:
        found.extend(_worktree_command(call, command, ctx, base))
    return found


def _writes_config(flags: set[str], operands: list[str | None]) -> bool:
    if flags & {"--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "--get-color", "--get-colorbool"}:
        return False
    if operands and operands[0] in ("get", "list"):
        return False
    if flags & {"--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section", "-e", "--edit"}:
        return True
    if operands and operands[0] in ("set", "unset", "rename-section", "remove-section", "edit"):
        return True
    return len(operands) >= 2


def _is_this_repository(remote: str, command: ShellCommand, ctx: Context) -> bool:
    base = command.cwd or "/"
    resolved = canonical(remote, base, command.home)
    places = [ctx.worktree_root, *ctx.layout.shared_roots, ctx.layout.common_dir]
    return any(p and (resolved == p or resolved.startswith(p + "/")) for p in places)


def _worktree_command(call: GitCall, command: ShellCommand, ctx: Context, base: dict) -> list[Violation]:
    """`git worktree add|move|remove|prune|lock|unlock|repair` touching a path outside W, or removing or moving W
    itself (WG304)."""
    values = call.values()
    action = values[0]
    if action in ("list", None):
        return []
    if action == "prune":
        return [Violation(code="WG304", message="`git worktree prune` removes other worktrees' records; leave that to the user.", **base)]
    paths: list[tuple[Word, str | None]] = []
    args = call.args[1:]
    i = 0
    while i < len(args):
        word, value = args[i]
        if value in ("-b", "-B", "--reason"):
            i += 2
            continue
        if value is None or not value.startswith("-"):
            paths.append((word, value))
        i += 1
    if action == "add":
        paths = paths[:1]
    found = []
    for word, value in paths:
        if value is None or (call.run_dir is None and not value.startswith("/")):
            found.append(Violation(code="WG304", message=f"`git worktree {action}` names a path only known at run time.", **dict(base, span=word.span)))
            continue
        judgement = ctx.policy.judge(value, call.run_dir or "/")
        if action in ("remove", "move") and judgement.resolved == ctx.worktree_root and word is paths[0][0]:
            # Its own worktree gone, the agent can no longer be placed, nor its leaks found at its stop.
            found.append(Violation(
                code="WG304",
                message=f"`git worktree {action}` would take away this agent's own worktree {ctx.worktree_root}; leave that to the user.",
                **dict(base, span=word.span, path=value, resolved=judgement.resolved),
            ))
        elif judgement.place not in ("inside", "protected"):
            found.append(Violation(
                code="WG304",
                message=f"`git worktree {action}` would touch {judgement.resolved}, outside this agent's worktree {ctx.worktree_root}.",
                **dict(base, span=word.span, path=value, resolved=judgement.resolved),
            ))
    return found
