"""One git invocation as the shell runs it (SPEC §5.2 "git"): where it acts, its subcommand, what it writes
beside its checkout, and the code it runs.

`read_git_call` reads `-C` (cumulative), `--git-dir`, `--work-tree`, `-c`, and GIT_DIR / GIT_WORK_TREE /
GIT_COMMON_DIR given as prefixes or set earlier in the command. `git_writes` names git's other outputs
(GIT_INDEX_FILE, `--output`, `format-patch`'s directory…) for the write table; `git_code` the strings git runs
as commands (config keys such as core.pager, GIT_EDITOR, `rebase -x`…) and what it would read as code but
cannot be looked inside (include.path, GIT_CONFIG). The git rule judges; this module only reads.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..layout import find_layout, owner_of_git_dir
from ..paths import canonical
from .programs import ParsedArgv, WriteSpec, parse_argv

if TYPE_CHECKING:
    from .ast import Word
    from .steps import ShellCommand

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
    found = find_layout(canonical(call.run_dir, "/", home)).worktree_root
    if found and not checkouts:
        checkouts.append(found)
    elif found and call.work_tree is not None:
        checkouts.append(found)  # its HEAD and index move with the other work tree
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
