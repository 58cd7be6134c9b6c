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
from typing import TYPE_CHECKING

from ..fast_dataclass import fast_dataclass, field
from ..layout import LayoutUnknown, find_layout, git_checkouts_at, git_dir_link, owner_of_git_dir
from ..paths import canonical, literal_tilde, own_process, real
from .programs import ParsedArgv, Target, WriteSpec, parse_argv
from .runners import LESSKEY_FILES, LESSKEY_VARIABLES, less_options_opaque
from .state import NAMES_UNKNOWN
from .words import has_unquoted_expansion, may_be_option

if TYPE_CHECKING:
    from .ast import Word
    from .steps import ShellCommand

GLOBAL_WITH_VALUE = {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--config-env", "--list-cmds", "--attr-source"}
LOCATION_VARIABLES = ("GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE")
#: `git pull`'s long options that take the next word as their value (git 2.39; its short ones: PULL_NEXT_WORD_LETTERS).
PULL_VALUE_OPTIONS = (
    "--strategy", "--strategy-option", "--server-option", "--shallow-since", "--shallow-exclude", "--depth",
    "--deepen", "--upload-pack", "--refmap", "--negotiation-tip", "--cleanup",
)

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
# (`--output` of the diff family is added below, after DIFF_FAMILY.)
SUBCOMMAND_VALUE_OPTIONS: dict[str, frozenset[str]] = {
    "branch": frozenset({"-u", "--set-upstream-to", "--sort", "--format", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"}),
    "update-ref": frozenset({"-m"}),
    "symbolic-ref": frozenset({"-m"}),
    "checkout": frozenset({"-b", "-B", "--orphan", "--conflict"}),
    "switch": frozenset({"-c", "-C", "--create", "--force-create", "--orphan", "--conflict"}),
    "config": frozenset({"-f", "--file", "--blob", "-t", "--type", "--default", "--comment", "--value", "--url"}),
    "worktree": frozenset({"-b", "-B", "--reason"}),
    "clone": frozenset({"-o", "--origin", "-b", "--branch", "-u", "--upload-pack", "--reference", "--reference-if-able", "--separate-git-dir", "--depth", "--shallow-since", "--shallow-exclude", "-c", "--config", "--filter", "-j", "--jobs", "--template", "--server-option", "--bundle-uri"}),
    "init": frozenset({"--template", "--separate-git-dir", "-b", "--initial-branch", "--object-format", "--ref-format"}),  # --shared[=perms]: its value only attached
    "archive": frozenset({"--format", "--prefix", "-o", "--output", "--remote", "--exec", "--add-file", "--add-virtual-file"}),
    # --from takes an attached value only (`--from[=<ident>]`: review 29c, `--from -o <main>` wrote there)
    "format-patch": frozenset({"-o", "--output-directory", "--subject-prefix", "--suffix", "--in-reply-to", "--to", "--cc", "--base", "--start-number", "-v", "--reroll-count", "--signature", "--signature-file", "--range-diff", "--interdiff", "--creation-factor"}),
    "fetch": frozenset({"--depth", "--deepen", "--shallow-since", "--shallow-exclude", "-j", "--jobs", "--upload-pack", "-o", "--server-option", "--negotiation-tip", "--refmap"}),
    "pull": frozenset({"-s", "-X", "-o"}) | frozenset(PULL_VALUE_OPTIONS),  # -S and -j take an attached value only
    "push": frozenset({"--repo", "--receive-pack", "--exec", "-o", "--push-option"}),  # --signed: an attached value only
    "notes": frozenset({"--ref", "-m", "-F", "-C", "-c"}),
    "replace": frozenset({"--format"}),
    "rebase": frozenset({"-x", "--exec", "--onto", "-s", "--strategy", "-X", "--strategy-option", "-C", "--whitespace"}),
    "difftool": frozenset({"-x", "--extcmd", "-t", "--tool"}),
    "filter-branch": frozenset({"--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter", "--commit-filter", "--tag-name-filter", "--subdirectory-filter", "--original", "-d", "--setup", "--state-branch"}),
    "merge-file": frozenset({"-L", "--marker-size"}),
    "remote": frozenset({"-t", "-m", "--mirror"}),
    "send-email": frozenset({"--sendmail-cmd", "--to-cmd", "--cc-cmd", "--header-cmd", "--smtp-server", "--to", "--cc", "--bcc", "--from", "--in-reply-to", "--subject"}),
    "instaweb": frozenset({"-d", "--httpd", "-b", "--browser", "-m", "--module-path", "-p", "--port"}),
    # -O and --open-files-in-pager take an attached value only (`-O[<pager>]`)
    "grep": frozenset({"-e", "-f", "--max-depth", "-m", "--max-count", "-A", "--after-context", "-B", "--before-context", "-C", "--context", "--threads"}),
}


@fast_dataclass(slots=True)
class GitCall:
    """One git invocation, read: where it acts, its subcommand and arguments, and what could not be read."""

    subcommand: str | None = None
    args: list[tuple[Word, str | None]] = field(default_factory=list)
    run_dir: str | None = None
    git_dir: str | None = None
    work_tree: str | None = None
    dynamic: list[str] = field(default_factory=list)
    configs: list[tuple[Word, str]] = field(default_factory=list)
    config_envs: list[tuple[Word, str]] = field(default_factory=list)
    #: `-c`/`--config-env` words only known at run time: any config, a command git runs among them
    unknown_configs: list[Word] = field(default_factory=list)
    subcommand_dynamic: bool = False
    #: GIT_DIR or --git-dir is given: `git_dir_given` as written (None when only known at run time; git takes a
    #: relative one from the directory it ends up in) and the `--git-dir` word (None for the variable). `git init`
    #: makes or re-initialises that git dir, taking a relative one from the directory it is given.
    names_git_dir: bool = False
    git_dir_given: str | None = None
    git_dir_word: Word | None = None
    #: GIT_WORK_TREE, --work-tree or --config-env core.worktree is given (`work_tree` None: only known at run time),
    #: and the `--work-tree` word (None for the others): `git clone` checks its files out there.
    names_work_tree: bool = False
    work_tree_word: Word | None = None
    #: `--exec-path=<dir>` given (None: only known at run time): git runs git-<sub> and every program it starts
    #: (its pager, man, ssh…) from <dir> first, which it puts at the front of PATH.
    exec_paths: list[str | None] = field(default_factory=list)

    def values(self) -> list[str | None]:
        return [v for _, v in self.args]

    def parsed(self) -> ParsedArgv:
        """The subcommand's own options and operands, clusters split (`-qm` is `-q -m`). A subcommand of
        STOPS_AT_OPERAND reads no option after its first operand (`git config k v --worktree`: a value pattern)."""
        words = [word for word, _ in self.args]
        values = self.values()
        takes_value = SUBCOMMAND_VALUE_OPTIONS.get(self.subcommand or "", frozenset())
        spec = WriteSpec(value_options=takes_value)
        if self.subcommand in STOPS_AT_OPERAND:
            first = first_operand(values, takes_value, CONFIG_VERBS)
            if first < len(words) and values[first] != "--":
                words = [*words[:first], words[first], *words[first:]]
                values = [*values[:first], "--", *values[first:]]
        head = words[0] if words else None
        return parse_argv([head, *words] if head is not None else [], [self.subcommand, *values] if head is not None else [], spec)  # type: ignore[list-item]

    def flags(self) -> set[str]:
        return set(self.parsed().options)

    def operands(self) -> list[str | None]:
        return [value for _, value in self.parsed().operands]


#: Subcommands whose options end at the first operand (git parses them with PARSE_OPT_STOP_AT_NON_OPTION): review
#: 27a wrote the shared config with `git config -t path core.fsmonitor … --worktree`, read as a `--worktree` write.
STOPS_AT_OPERAND = frozenset({"config"})


def option_width(value: str, takes_value: frozenset[str]) -> int:
    """How many words an option word of a subcommand takes: 2 when its value is the next word (`--type path`,
    `-t path`, `-zt path`), else 1."""
    if value.startswith("--"):
        return 2 if "=" not in value and value in takes_value else 1
    for j in range(1, len(value)):
        if "-" + value[j] in takes_value:
            return 1 if value[j + 1:] else 2
    return 1


#: `git config`'s verbs (git 2.46): options may follow one, up to its first operand (`git config set --worktree k v`).
CONFIG_VERBS = frozenset({"set", "unset", "get", "list", "edit", "rename-section", "remove-section"})


def first_operand(values: list[str | None], takes_value: frozenset[str], verbs: frozenset[str] = frozenset()) -> int:
    """The index of the first word that is no option nor an option's value (len(values): none); a `--` is one, and
    so is a word only known at run time (it may be the key). A verb among `verbs` first is skipped, with its options."""
    i = 0
    verb_seen = False
    while i < len(values):
        value = values[i]
        if value is not None and value in verbs and not verb_seen:
            verb_seen = True
            i += 1
            continue
        if value is None or value == "--" or value == "-" or not value.startswith("-"):
            return i
        i += option_width(value, takes_value)
    return len(values)


#: Long options of a subcommand the guard reads by name, beyond its value options and code options. All of `git
#: config`'s (git 2.39 and later), so that an abbreviation resolves as git resolves it (review 27a: `--edi` was no
#: `--edit`, `--rename` no `--rename-section`).
GUARDED_FLAGS: dict[str, frozenset[str]] = {
    "init": frozenset({"--bare", "--shared"}),
    "clone": frozenset({"--bare", "--mirror"}),
    "rebase": frozenset({"--interactive", "--edit-todo"}),
    "fetch": frozenset({"--update-head-ok"}),  # review 28a: `--update-h` moved main
    "grep": frozenset({"--open-files-in-pager"}),  # review 29b: `--open='CODE'` ran CODE
    "config": frozenset({
        "--global", "--system", "--local", "--worktree", "--get", "--get-all", "--get-regexp", "--get-urlmatch",
        "--replace-all", "--add", "--unset", "--unset-all", "--rename-section", "--remove-section", "--list",
        "--fixed-value", "--edit", "--get-color", "--get-colorbool", "--bool", "--int", "--bool-or-int", "--path",
        "--expiry-date", "--no-type", "--null", "--name-only", "--includes", "--no-includes", "--show-origin",
        "--show-scope", "--all", "--regexp", "--append", "--no-value", "--no-worktree", "--no-local", "--no-global",
        "--no-system", "--no-file", "--no-blob",
    }),
}
#: Real options (git 2.39, from `git <sub> -h`) that are a strict prefix of a guarded option of the same subcommand:
#: written in full they are themselves, not an abbreviation (`git switch --force` is not --force-create).
REAL_PREFIX_OPTIONS: dict[str, frozenset[str]] = {"switch": frozenset({"--force"})}


def _guarded_options(subcommand: str) -> set[str]:
    named = SUBCOMMAND_VALUE_OPTIONS.get(subcommand, frozenset()) | frozenset(CODE_OPTIONS.get(subcommand, ())) | GUARDED_FLAGS.get(subcommand, frozenset())
    return {option for option in named if option.startswith("--")}


def _unabbreviated(call: GitCall, args: list[tuple[Word, str | None]]) -> list[tuple[Word, str | None]]:
    """The subcommand's words with an abbreviated long option written in full. git's parse-options (and
    rev-parse --parseopt, Getopt::Long) take a unique prefix of a long option for it: `git init --templ=T`,
    `git clone --conf=core.worktree=…`, `git rebase --exe=…` were read as unknown options before. A word `--X` or
    `--X=v` (2+ letters) that is no option the guard reads by name but begins one of them is read as that option;
    one that begins several is only known at run time (git refuses an ambiguous one, or may take an option the guard
    does not read as one of them). A prefix of one letter counts too (review 27b: `git config --t path …` was no
    `--type`)."""
    guarded = _guarded_options(call.subcommand or "")
    real = REAL_PREFIX_OPTIONS.get(call.subcommand or "", frozenset())
    stops = call.subcommand in STOPS_AT_OPERAND
    takes_value = SUBCOMMAND_VALUE_OPTIONS.get(call.subcommand or "", frozenset())
    result: list[tuple[Word, str | None]] = []
    ended = False
    value_next = False
    verb_seen = False
    for word, value in args:
        if value_next:
            value_next = False
            result.append((word, value))
            continue
        if stops and not ended and first_operand([value], takes_value) == 0:
            if value in CONFIG_VERBS and not verb_seen:
                verb_seen = True  # `git config set --wor k v`: the verb's options follow it
            else:
                ended = True  # `git config k --wor`: the value of k, never an option
        if ended or value is None or not value.startswith("--") or value == "--":
            ended = ended or value == "--"
            value_next = stops and not ended and value is not None and value.startswith("-") and option_width(value, takes_value) == 2
            result.append((word, value))
            continue
        name, eq, attached = value.partition("=")
        matches = [] if name in guarded or name in real or len(name) < 3 else sorted(o for o in guarded if o.startswith(name))
        writing = [o for o in matches if o in WRITE_OPTIONS.get(call.subcommand or "", ())]
        if len(matches) == 1 or len(writing) == 1:
            # one of them, or the one that writes, read as given (`git diff --outp=F`: --output beside the
            # --output-indicator-* options stop 30 named; git 2.39 refuses it, a git that took it would write F)
            value = (writing or matches)[0] + eq + attached
        elif matches:
            call.dynamic.append(f"{word.raw!r} abbreviates more than one of git's options ({', '.join(matches)})")
            value = None
        value_next = stops and value is not None and option_width(value, takes_value) == 2
        result.append((word, value))
    return result


def _join(base: str | None, value: str) -> str | None:
    if value.startswith("/"):
        return value
    return None if base is None else os.path.join(base, value)


def read_git_call(step: ShellCommand) -> GitCall:
    """git's global options and the directories it acts on, read once per command (kept in `step.git_call`; no
    reader changes a GitCall)."""
    if step.git_call is None:
        call = GitCall(run_dir=step.cwd)
        given = _read_options(step, call)
        _place_directories(call, given)
        step.git_call = call
    return step.git_call  # type: ignore[return-value]


def _read_options(step: ShellCommand, call: GitCall) -> dict[str, str | None]:
    """git's global options and location variables, read into `call`; returns the git dir and work tree as written
    (git_dir: GIT_DIR, GIT_COMMON_DIR or --git-dir; named_git_dir: GIT_DIR or --git-dir; work_tree; None: only known
    at run time), which git takes relative to the directory it ends up in, after every `-C`."""
    words, values = step.words, step.values()
    given: dict[str, str | None] = {}
    for variable in LOCATION_VARIABLES:
        present, value = step.env(variable)
        if not present:
            continue
        if value is None:
            call.dynamic.append(f"${variable} is set to a value only known at run time")
            if variable == "GIT_WORK_TREE":
                given["work_tree"] = None
            elif variable == "GIT_DIR":
                given["git_dir"] = given["named_git_dir"] = None
        elif variable == "GIT_WORK_TREE":
            given["work_tree"] = value
        elif variable in ("GIT_DIR", "GIT_COMMON_DIR"):
            given["git_dir"] = value
            if variable == "GIT_DIR":
                given["named_git_dir"] = value
    i = 1
    while i < len(words):
        value = values[i]
        if value is None:
            i += 1
            if words[i - 1].raw.startswith("-"):
                call.dynamic.append(f"{words[i - 1].raw!r} is only known at run time")
                name = words[i - 1].raw.partition("=")[0]
                if name == "--git-dir":  # `--git-dir=$X`
                    given["git_dir"] = given["named_git_dir"] = None
                    call.git_dir_word = words[i - 1]
                elif name == "--work-tree":
                    given["work_tree"], call.work_tree_word = None, words[i - 1]
                elif name == "--exec-path":
                    call.exec_paths.append(None)
                continue
            call.subcommand_dynamic = True  # `git $(echo switch)`, `git "$@"`, xargs' input: could be anything
            return given
        if not value.startswith("-"):
            call.subcommand = value
            call.args = _unabbreviated(call, list(zip(words[i + 1:], values[i + 1:])))
            return given
        name, eq, attached = value.partition("=")
        if name == "--exec-path" and eq:  # alone, `--exec-path` prints git's own and exits
            call.exec_paths.append(attached)
        if name in GLOBAL_WITH_VALUE:
            if eq:
                argument: str | None = attached
                word = words[i]
                i += 1
            else:
                if i + 1 >= len(words):
                    return given
                word, argument = words[i + 1], values[i + 1]
                i += 2
            if argument is None:
                call.dynamic.append(f"{name} {word.raw} is only known at run time")
                if name in ("-c", "--config-env"):
                    call.unknown_configs.append(word)
                if name == "-C":
                    call.run_dir = None  # git runs somewhere unknown: what it writes relative to it too
                if name == "--git-dir":
                    given["git_dir"] = given["named_git_dir"] = None
                    call.git_dir_word = word
                if name == "--work-tree":
                    given["work_tree"], call.work_tree_word = None, word
                continue
            if name == "-C":
                if argument:
                    call.run_dir = _join(call.run_dir, argument)
                    if call.run_dir is None:
                        call.dynamic.append(f"-C {argument} is relative to a directory that is not known")
            elif name == "--git-dir":
                given["git_dir"] = given["named_git_dir"] = argument
                call.git_dir_word = word
            elif name == "--work-tree":
                given["work_tree"], call.work_tree_word = argument, word
            elif name == "-c":
                call.configs.append((word, argument))
            elif name == "--config-env":
                call.config_envs.append((word, argument))
                key, _, setting = argument.partition("=")
                if key.lower() == "core.worktree":
                    # `--config-env core.worktree=VAR`: the work tree is the value of $VAR, not the word VAR
                    present, value = step.env(setting)
                    if present and value is not None:
                        given["work_tree"] = value
                    else:
                        given["work_tree"] = None
                        call.dynamic.append(f"--config-env {argument}: the work tree is ${setting}, only known at run time")
            continue
        i += 1  # a flag: -p, --no-pager, --bare, …
    return given


def _place_directories(call: GitCall, given: dict[str, str | None]) -> None:
    """GIT_DIR and GIT_WORK_TREE (or --git-dir, --work-tree) as git places them: git sets the variable to the word
    as written and reads it after its last `-C`, so `GIT_DIR=.git git -C <main> rm --cached f` is the main
    checkout's index, whatever directory the command starts in."""
    git_dir, work_tree = given.get("git_dir"), given.get("work_tree")
    call.names_git_dir, call.names_work_tree = "named_git_dir" in given, "work_tree" in given
    call.git_dir_given = given.get("named_git_dir")
    if git_dir is not None:
        call.git_dir = _join(call.run_dir, git_dir)
    if work_tree is not None:
        call.work_tree = _join(call.run_dir, work_tree)
    for place in (call.run_dir, call.git_dir, call.work_tree):
        if place is not None and (own_process(place) or place.startswith("/") and own_process(real(place))):
            # the guard cannot name it: the git process's own cwd, not the guard's (stop 36), as written or through
            # a link found on disk (review 37b: `git -C c1 status`, c1 -> /proc/self/cwd, was an internal error)
            call.dynamic.append(f"{place} is in a process's own /proc directory, which names the process that opens it")


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


def _own_outputs(call: GitCall, command: ShellCommand) -> list[str]:
    """The canonical paths this git invocation itself writes (its row of the write table): git writes them while
    it runs, after it has found its repository."""
    from .programs import CWD, UNKNOWN_DIR

    paths = []
    for target in git_writes(command):
        if target.value is None or target.kind == "operand":
            continue
        base = target.base if target.base is not None else command.cwd
        if base == UNKNOWN_DIR:
            base = None
        value = base if target.value == CWD else literal_tilde(target.value)  # `'~/c'` is W/~/c (m39a)
        if value is None or (base is None and not value.startswith("/")):
            continue
        paths.append(canonical(value, base or "/", command.home))
    return paths


#: Subcommands whose outputs are directories git fills itself, with a repository of its own (init, clone) or with
#: patch files (format-patch): a later git there is not sent anywhere by them.
FILLS_DIRECTORIES = frozenset({"init", "clone", "format-patch"})


def filled_directories(call: GitCall, command: ShellCommand) -> list[str]:
    """The directories this git invocation fills itself (see FILLS_DIRECTORIES), canonical. Not a repository whose
    config this command sets (`sets_config`): its config may name another work tree (core.worktree), so a later
    git there acts on a checkout the guard cannot read there yet (`git --git-dir=/tmp/g --work-tree=<main> init &&
    git --git-dir=/tmp/g read-tree … && git --git-dir=/tmp/g rm` deleted a file of the main checkout)."""
    if call.subcommand not in FILLS_DIRECTORIES or sets_config(call, command):
        return []
    return _own_outputs(call, command)


#: Config keys that, written into a repository's config, send a later git there to another work tree.
LOCATION_KEYS = frozenset({"core.worktree"})
#: Config keys that, set in a repository, make a later git there find another work tree or read config the guard
#: has not (beside LOCATION_KEYS, CODE_KEYS and include.* / includeIf.*): core.bare=false makes a bare git dir a
#: checkout's, extensions.worktreeConfig makes git read config.worktree.
SETUP_KEYS = frozenset({"core.bare", "extensions.worktreeconfig", "core.repositoryformatversion"})
#: Config keys (section, variable; lower case) that send a later git's push or fetch to another repository, whose
#: refs it then writes (`git config remote.x.url <main> && git push x …`), or make it read or send files named
#: elsewhere: remote URLs and their rewrites, the remote a branch or push goes to, sendemail's SMTP server,
#: http.cookieFile and core.attributesFile (which diff and filter drivers run).
REDIRECT_KEYS = frozenset({
    ("remote", "url"),
    ("remote", "pushurl"),
    ("remote", "pushdefault"),
    ("url", "insteadof"),
    ("url", "pushinsteadof"),
    ("branch", "remote"),
    ("branch", "pushremote"),
    ("sendemail", "smtpserver"),
    ("http", "cookiefile"),
    ("core", "attributesfile"),
})
#: Files of a git dir (relative) that, written, make a later git there find another work tree, write somewhere else
#: or run code: its config and per-worktree config, `commondir` and `gitdir` (another repository's refs and config),
#: HEAD (without it the directory is no git dir and git looks further up), hooks, info/attributes (which diff and
#: filter drivers run), the admin dirs of its worktrees and submodules (git dirs of their own), the sequencer's state
#: (`rebase --continue` runs the `exec` lines of rebase-merge/git-rebase-todo; rebase-apply and sequencer likewise
#: hold what am, cherry-pick and revert do next), what refs and objects git reads (refs, packed-refs, objects with
#: its info/alternates, info/grafts, shallow: which commits a checkout or push writes where) and the remotes of
#: remotes/ and branches/ (where push and fetch write). What is left there (info/exclude, description, logs, index)
#: changes what git records or ignores, not where it writes or what it runs.
GIT_DIR_CONTROL_FILES = (
    "config",
    "config.worktree",
    "commondir",
    "gitdir",
    "HEAD",
    "hooks",
    "info/attributes",
    "worktrees",
    "modules",
    "rebase-merge",
    "rebase-apply",
    "sequencer",
    "objects",
    "refs",
    "packed-refs",
    "info/grafts",
    "shallow",
    "remotes",
    "branches",
)


def controls_git(relative: str) -> bool:
    """Whether a write at `relative` inside a git dir ("" the git dir itself) may reach a GIT_DIR_CONTROL_FILES entry."""
    return relative == "" or any(
        relative == name or relative.startswith(name + "/") or name.startswith(relative.rstrip("/") + "/")
        for name in GIT_DIR_CONTROL_FILES
    )


def moves_or_runs(key: str | None, value: str | None = None) -> bool:
    """Whether a config key set in a repository may send a later git there to another work tree or repository or
    make it run code (None: a key only known at run time). `user.email` and the like do not, so a repository set up with them stays
    trusted."""
    if key is None:
        return True
    key = key.strip().lower()
    return (
        key in LOCATION_KEYS
        or key in SETUP_KEYS
        or key.startswith(("include.", "includeif."))
        or (key.partition(".")[0], key.rpartition(".")[2]) in REDIRECT_KEYS
        or code_kind(key) is not None
        or allows_ext(key, value)
    )


def clone_settings(call: GitCall) -> list[tuple[Word | None, str | None]]:
    """`git clone -c <key>=<value>` / `--config`: written into the new repository's config, and in force while it
    clones (None: only known at run time)."""
    if call.subcommand != "clone" or call.subcommand_dynamic:
        return []
    options = call.parsed().options
    return [*options.get("-c", []), *options.get("--config", [])]


def copies_template(call: GitCall, command: ShellCommand) -> bool:
    """Whether this `git init` / `git clone` copies a template directory named in the command into the git dir it
    makes: the template's `config` and hooks land there unread (`--template`, GIT_TEMPLATE_DIR, init.templateDir
    from `-c`, --config-env or GIT_CONFIG_PARAMETERS / GIT_CONFIG_COUNT, or config only known at run time). git
    takes the first of --template, GIT_TEMPLATE_DIR and init.templateDir that is set, and an empty one copies no
    template (`--template=`; init-db.c, copy_templates)."""
    if call.subcommand not in ("init", "clone") or call.subcommand_dynamic:
        return False
    if "--template" in call.flags():
        values = call.parsed().options.get("--template", [])
        return not values or values[-1][1] != ""
    present, directory = command.env("GIT_TEMPLATE_DIR")
    if present:
        return directory != ""
    if call.unknown_configs:
        return True
    keys = [setting.partition("=")[0] for _, setting in [*call.configs, *call.config_envs]]
    environment = _environment_config_keys(command)
    if environment is None:
        return True
    return any(key.strip().lower() == "init.templatedir" for key in [*keys, *environment])


def _environment_config_keys(command: ShellCommand) -> list[str] | None:
    """The config keys GIT_CONFIG_PARAMETERS and GIT_CONFIG_COUNT give git (None: some only known at run time)."""
    keys: list[str] = []
    found = GitCode()
    _config_parameters(command, lambda key, *_: keys.append(key), found)
    return None if found.opaque else keys


def sets_config(call: GitCall, command: ShellCommand) -> bool:
    """Whether the repository this `git init` / `git clone` makes gets config from the command that may send a later
    git there to another checkout: a work tree (recorded as core.worktree), a template's config, `clone -c
    core.worktree=…` (`git clone -c core.worktree=<main> … /tmp/r && git -C /tmp/r rm` deleted a file of the main
    checkout, git 2.39)."""
    if call.subcommand not in ("init", "clone"):
        return False
    if call.names_work_tree or copies_template(call, command):
        return True
    return any(setting is None or setting.partition("=")[0].strip().lower() in LOCATION_KEYS for _, setting in clone_settings(call))


def unread_config(call: GitCall, command: ShellCommand) -> list[str]:
    """The repositories whose config or hooks this git invocation puts there without the guard reading them (the
    shell state's `configured`): what `git init` / `git clone` makes from a template (its directories, canonical)."""
    return _own_outputs(call, command) if copies_template(call, command) else []


def config_repository(call: GitCall, command: ShellCommand) -> str | None:
    """The repository whose config `git config` writes (not --global, --system or --file): the git dir it is
    given, else the repository this command made around where it runs, else the checkout there (canonical; None
    when not known)."""
    if call.dynamic:
        return None
    if call.git_dir is not None:
        return canonical(call.git_dir, "/", command.home)
    if call.run_dir is None:
        return None
    where = canonical(call.run_dir, "/", command.home)
    made = [r for r in command.state.repositories if where == r or where.startswith(r.rstrip("/") + "/")]
    return max(made, key=len) if made else checkout_top(call, command.home)


def _earlier_writes(call: GitCall, command: ShellCommand) -> list[str]:
    """What the command wrote before this git, but the directories git filled itself and this git's own outputs."""
    made = set(command.state.repositories)
    written = [path for path in command.state.written if path not in made]
    for own in _own_outputs(call, command):  # this git's own outputs, recorded first by the writes rule
        if own in written:
            del written[len(written) - 1 - written[::-1].index(own)]
    return [path for path in written if path is not None]


def _inside(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip("/") + "/")


def _git_dir_written(call: GitCall, command: ShellCommand, written: list[str]) -> str | None:
    """The git dir this git uses that the command wrote into first (None: none): the one it is given, or `<d>/.git`
    for `d` where it runs or above (git looks upwards). Its config may name another work tree, or run code
    (core.fsmonitor on `git status`); a `commondir` shares another repository's refs (`git commit` then moved the
    main checkout's branch, git 2.39)."""
    if call.git_dir is not None:
        git_dir = canonical(call.git_dir, "/", command.home).rstrip("/")
        inside = [path[len(git_dir) + 1:] for path in written if path.startswith(git_dir + "/")]
        return git_dir if any(controls_git(p) for p in inside) else None
    if call.run_dir is None:
        return None
    where = canonical(call.run_dir, "/", command.home)
    for path in written:
        top, dotgit, relative = path.partition("/.git/")
        if dotgit and _inside(where, top or "/") and controls_git(relative):
            return f"{top}/.git"
    return None


def _configured_repository(call: GitCall, command: ShellCommand) -> str | None:
    """The repository of the shell state's `configured` this git uses (None: none): it is given a git dir in it,
    or, without one, runs in or below it."""
    if call.git_dir is not None:
        place = canonical(call.git_dir, "/", command.home)
    elif call.run_dir is not None:
        place = canonical(call.run_dir, "/", command.home)
    else:
        return None
    return next((repository for repository in command.state.configured if _inside(place, repository)), None)


def unread_repository_config(call: GitCall, command: ShellCommand) -> str | None:
    """Why this git reads config or hooks of its repository that this command set or wrote first, unread by the
    guard (None: it does not), as a HOME whose git config the command wrote is."""
    written = command.state.written
    if not command.state.configured and not any(path is not None and ("/.git/" in path or call.git_dir is not None) for path in written):
        return None  # nothing set or written that a git dir could hold: most commands (no second look at the outputs)
    repository = _configured_repository(call, command) or _git_dir_written(call, command, _earlier_writes(call, command))
    if repository is None:
        return None
    return f"git would read the config or hooks of {repository}, which this command set or wrote first (a template's, a write into its git dir, `git config`)"


def written_location(call: GitCall, command: ShellCommand) -> str | None:
    """Why git's location cannot be trusted after what this command wrote before it (None: it can).

    git finds its repository by the nearest `.git` at run time; the guard looks at check time. A directory
    written earlier in the command, at or above where git runs (`mkdir sub && … > sub/.git`, an extraction),
    or anything written inside the git dir it uses (the one it is given, or a `.git` it finds upwards), may send it
    to another checkout; so may a repository whose config the command set (`git config`, a template's)."""
    written = _earlier_writes(call, command)
    configured = _configured_repository(call, command)
    if configured is not None:
        return f"git uses the repository {configured}, whose config this command set or wrote first"
    if not written:
        return None
    places = [(call.run_dir, "runs in"), (call.work_tree, "works on")]
    for place, verb in places:
        if place is None:
            continue
        where = canonical(place, "/", command.home)
        for path in written:
            if where == path or where.startswith(path.rstrip("/") + "/"):
                return f"git {verb} {where}, which this command writes first, so a `.git` there may send it to another checkout"
    if call.git_dir is not None:
        git_dir = canonical(call.git_dir, "/", command.home)
        for path in written:
            if path == git_dir or path.startswith(git_dir.rstrip("/") + "/") or git_dir.startswith(path.rstrip("/") + "/"):
                return f"git uses the git dir {git_dir}, which this command writes first"
    git_dir = _git_dir_written(call, command, written)
    if git_dir is not None:
        return f"git uses the git dir {git_dir}, which this command writes into first"
    return None


def asks_for_help(call: GitCall) -> bool:
    """`git <sub> -h` and nothing after it: git prints the usage and exits 129 before it sets anything up (git.c
    takes `argc == 2` with `-h` gently). Only the bare form: with more words git parses the options first, and one
    of them may open a file (`git diff -h --output=<main>/f` truncated it, git 2.39). Not `--help`: git turns it into
    `git help <sub>`, which starts man (MANPAGER, `man.<tool>.path` run). Only after git's own subcommands (the
    tables above): another program on PATH (`git lfs`) reads `-h` as it likes."""
    sub = call.subcommand
    if sub is None or call.subcommand_dynamic or len(call.args) != 1 or call.args[0][1] != "-h":
        return False
    return sub in READ_ONLY or sub in CHANGES_CHECKOUT


def is_read_only(call: GitCall) -> bool:
    """True for invocations that change no working tree, index or HEAD of the checkout they act on."""
    sub = call.subcommand
    if call.subcommand_dynamic:
        return False
    if sub is None or asks_for_help(call):
        return True  # `git`, `git --version`, `git switch -h`
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


# -- what git writes beside its checkout (SPEC §5.2 "git's other outputs are write operands") --------------

#: Subcommands that take the diff or revision options, `--output=<file>` among them (review 30a: shortlog, rev-list,
#: blame, annotate and bundle's rev-list arguments write it too).
DIFF_FAMILY = frozenset({
    "diff", "log", "show", "format-patch", "diff-tree", "diff-files", "diff-index", "range-diff", "whatchanged", "stash",
    "reflog", "cherry-pick", "am", "shortlog", "rev-list", "blame", "annotate", "bundle",
})
#: The diff and revision options that take the next word as their value (git 2.39 revision.c, diff.c): a `--` or
#: `--end-of-options` after one is its value, no end of the options (review 30a: `git log -S --end-of-options "$X"`
#: with X=--output=<main>/x wrote there).
REV_DIFF_VALUE_OPTIONS = frozenset({
    # not -n or -S: a flag in blame, shortlog, format-patch, stash (review 30b: `git format-patch -n "$X" -1` wrote
    # where X's -o said); words after them are checked as options
    "-G", "-O", "-I", "-L", "--max-count", "--skip", "--author", "--committer", "--grep", "--grep-reflog",
    "--decorate-refs", "--decorate-refs-exclude", "--contents",
    "--since", "--after", "--until", "--before", "--max-age", "--min-age", "--since-as-filter", "--exclude",
    "--src-prefix", "--dst-prefix", "--line-prefix", "--word-diff-regex", "--anchored", "--diff-algorithm",
    "--rotate-to", "--skip-to", "--ignore-matching-lines", "--output-indicator-new", "--output-indicator-old",
    "--output-indicator-context", "--output",
})
for _sub in DIFF_FAMILY:
    SUBCOMMAND_VALUE_OPTIONS[_sub] = SUBCOMMAND_VALUE_OPTIONS.get(_sub, frozenset()) | REV_DIFF_VALUE_OPTIONS
SUBCOMMAND_VALUE_OPTIONS["format-patch"] |= {"--add-header"}
for _sub, _options in (("bugreport", {"-o", "--output-directory", "-s", "--suffix"}), ("diagnose", {"-o", "--output-directory", "-s", "--suffix", "--mode"}), ("fast-export", {"--export-marks", "--import-marks", "--import-marks-if-exists"}), ("read-tree", {"--index-output", "--prefix"})):
    SUBCOMMAND_VALUE_OPTIONS[_sub] = SUBCOMMAND_VALUE_OPTIONS.get(_sub, frozenset()) | _options
SUBCOMMAND_VALUE_OPTIONS["apply"] = SUBCOMMAND_VALUE_OPTIONS.get("apply", frozenset()) | {"--exclude", "--include", "--build-fake-ancestor", "--directory"}


#: The options that name a file or directory a subcommand writes (above): a word only known at run time that may
#: be an option may be one of them (`git diff "$X"`, X=`--output=<main>/x`; `git format-patch "$X"`, X=`-o<main>`).
WRITE_OPTIONS: dict[str, tuple[str, ...]] = {
    **{_sub: ("--output",) for _sub in DIFF_FAMILY},
    "format-patch": ("-o", "--output-directory", "--output"),
    "archive": ("-o", "--output"),
    "clone": ("--separate-git-dir",),
    "init": ("--separate-git-dir",),
    "checkout-index": ("--prefix",),
    "apply": ("--directory", "--unsafe-paths", "--build-fake-ancestor"),
    "update-index": ("--index-info",),
    "fast-export": ("--export-marks",),
    "read-tree": ("--index-output",),
    "bugreport": ("-o", "--output-directory"),
    "diagnose": ("-o", "--output-directory"),
}


#: Subcommands that only read the paths they are given (SPEC §5.2 "the shared boundary is default-deny": git's
#: row of the read-only table)… unless one of these options is given. Every other subcommand's static path-like
#: operands and option values (`-o DIR`, `--x=V`, `-oV`) count as written where they land in a shared checkout
#: (WG406), as an unknown program's do: `git interpret-trailers --in-place`, `bugreport -o`, `mailinfo`,
#: `mailsplit -o`, `pack-objects`, `credential-store --file`, `fast-export --export-marks`… (the review of issue
#: 10). The outputs named above (`--output`, `format-patch -o`, `--prefix`…) are write targets of their own;
#: what a subcommand does to a checkout, its refs and config is the git rule's (WG301–WG305).
OPERANDS_READ: dict[str, frozenset[str]] = {
    **{sub: frozenset() for sub in (
        # looking
        "status", "log", "diff", "show", "rev-parse", "blame", "annotate", "grep", "ls-files", "ls-tree", "ls-remote",
        "cat-file", "describe", "shortlog", "reflog", "rev-list", "for-each-ref", "show-ref", "show-branch",
        "merge-base", "name-rev", "cherry", "count-objects", "fsck", "help", "version", "var", "check-ignore",
        "check-attr", "check-ref-format", "check-mailmap", "whatchanged", "range-diff", "diff-tree", "diff-files",
        "diff-index", "verify-commit", "verify-tag", "verify-pack", "get-tar-commit-id", "column", "stripspace",
        "difftool", "request-pull", "send-email", "hash-object", "credential", "bundle", "archive", "format-patch",
        "merge-file", "cherry-pick", "revert", "am", "apply",
        # refs, remotes and the repository: judged by the git rule (WG304/WG305)
        "fetch", "push", "pull", "clone", "init", "remote", "tag", "branch", "notes", "replace", "update-ref",
        "symbolic-ref", "gc", "prune", "repack", "pack-refs", "maintenance", "worktree", "sparse-checkout", "rerere",
        # a checkout's files by pathspec, which git keeps inside its work tree: judged by the git rule (WG302)
        "restore", "reset", "clean", "stash", "merge", "rebase", "commit", "add", "rm", "mv", "checkout", "switch",
        "checkout-index", "update-index", "bisect", "submodule", "mergetool",
    )},
    "config": frozenset({"-f", "--file"}),
    "read-tree": frozenset({"--index-output"}),
    "filter-branch": frozenset({"-d"}),
}
#: Options whose effect on the filesystem is only known inside the input (WG403): the patch's own paths.
UNKNOWN_OUTPUTS: dict[str, dict[str, str]] = {
    "apply": {"--unsafe-paths": "the paths inside the patch, which --unsafe-paths lets reach outside the work tree"},
    "update-index": {"--index-info": "index entries read from its input, a symbolic link among them perhaps"},
}
#: The mode of a symbolic link in the index: `update-index --cacheinfo 120000,<blob>,<path>` stages a link whose
#: target is the blob's text, and a later checkout makes it (`../../..`, the main checkout, from W).
SYMLINK_MODE = 0o120000


def checkout_top(call: GitCall, home: str) -> str | None:
    """Where git runs hooks, aliases, editors and pagers: the top of the checkout it acts on (None: unknown)."""
    if call.dynamic:
        return None
    if call.work_tree is not None:
        return canonical(call.work_tree, "/", home)
    if call.run_dir is None:
        return None
    if call.git_dir is not None:
        return canonical(call.run_dir, "/", home)
    return find_layout(canonical(call.run_dir, "/", home)).worktree_root or call.run_dir


def git_writes(command: ShellCommand) -> list:
    """Files and directories a git invocation writes outside its checkout's own index and files: the write
    table's entry for git (`shell.programs`), so every rule sees them as it sees `cp`'s."""
    from .programs import CWD, UNKNOWN_DIR, Target

    call = read_git_call(command)
    base = call.run_dir if call.run_dir is not None else UNKNOWN_DIR
    targets: list[Target] = []
    for variable, how in (("GIT_INDEX_FILE", "the index named by GIT_INDEX_FILE"), ("GIT_OBJECT_DIRECTORY", "the object directory named by GIT_OBJECT_DIRECTORY")):
        present, value = command.named_env(variable)
        if present:
            word = _assignment_word(command, variable)
            # git takes a relative one from the top of the checkout it acts on, having moved there (h-git30:
            # `GIT_INDEX_FILE=d/k git -C <main> status` rewrote <main>/d/k; review 30b: from a/b/c in W,
            # `GIT_INDEX_FILE=../../../d/idx` is <W>/../../../d/idx)
            # (review 30c: from the cwd when that is outside the work tree, `--work-tree=a/b`)
            top = checkout_top(call, command.home)
            run = call.run_dir
            where = top if top is not None and run is not None and (run == top or run.startswith(top.rstrip("/") + "/")) else run
            targets.append(Target(word, value, how, base=where if where is not None else UNKNOWN_DIR))
    present, keys = command.named_env("SSLKEYLOGFILE")
    if present and keys and not keys.startswith("/"):
        # judged from the cwd as for any program (shell/written.py), and from where git's https helper runs: the top of
        # the checkout git moved to (review 32a: `SSLKEYLOGFILE=k git -C <main> ls-remote https://…` wrote <main>/k)
        top = checkout_top(call, command.home)
        run = call.run_dir
        where = top if top is not None and run is not None and (run == top or run.startswith(top.rstrip("/") + "/")) else run
        targets.append(Target(_assignment_word(command, "SSLKEYLOGFILE"), keys, "the TLS key log git's https helper appends to", base=where if where is not None else UNKNOWN_DIR))
    for variable, value in _trace_variables(command):
        if value is not None and value.startswith("/"):
            targets.append(Target(_assignment_word(command, variable), value, f"the trace file named by {variable}"))
    sub = call.subcommand
    if sub is None or call.subcommand_dynamic or asks_for_help(call):
        return targets
    parsed = call.parsed()
    operands = parsed.operands
    options = parsed.options

    def option_targets(*names: str, how: str | None = None, recursive: bool = False) -> None:
        for name in names:
            for word, value in options.get(name, []):
                targets.append(Target(word, value, how or name, recursive=recursive, base=base))

    if sub in DIFF_FAMILY:
        option_targets("--output")
    if sub == "clone":
        into = _clone_into(operands)
        if into is not None:
            targets.append(Target(into[0], into[1], "clone into", base=base))
        option_targets("--separate-git-dir")
        if call.names_work_tree:  # GIT_WORK_TREE=<main>/sub git clone … checked its files out into the main checkout
            word = call.work_tree_word or _assignment_word(command, "GIT_WORK_TREE")
            targets.append(Target(word, call.work_tree, "the work tree it checks out", recursive=True, base=base))
    elif sub == "init":
        if operands:
            targets.append(Target(operands[0][0], operands[0][1], "init", base=base))
        elif not call.names_git_dir:
            targets.append(Target(None, CWD, "init", base=base))
        if call.names_git_dir:
            targets.append(_init_git_dir_target(call, command, base))
        present, common = command.named_env("GIT_COMMON_DIR")
        if present:  # `GIT_COMMON_DIR=<main>/cd git init /tmp/r` made <main>/cd/{hooks,info,refs,…} (git 2.39)
            where = None if common is None else _init_relative(call, common)
            targets.append(Target(_assignment_word(command, "GIT_COMMON_DIR"), where, "init, the common dir named by GIT_COMMON_DIR", base=base))
        option_targets("--separate-git-dir")
        linked = _init_linked_git_dir(call, command, base)
        if linked is not None:
            targets.append(linked)
    elif sub == "archive":
        option_targets("-o", "--output")
    elif sub == "format-patch":
        if "--stdout" not in options:
            if "-o" in options or "--output-directory" in options:
                option_targets("-o", "--output-directory")
            elif "--output" not in options:
                targets.append(Target(None, CWD, "its patches, into the directory it runs in", base=base))
    elif sub == "bundle" and len(operands) >= 2 and operands[0][1] == "create":
        targets.append(Target(operands[1][0], operands[1][1], "bundle create", base=base))
    elif sub == "checkout-index":
        for word, value in options.get("--prefix", []):
            directory = None if value is None else (value if value.endswith("/") else os.path.dirname(value) or ".")
            targets.append(Target(word, directory, "--prefix", recursive=True, base=base))
    elif sub == "apply":
        # --build-fake-ancestor writes its index file with --check or --stat too (phase 23, m38b: `git apply --check
        # --build-fake-ancestor=<main>/anc x.patch` wrote it); --directory only where the patch is applied
        option_targets("--build-fake-ancestor")  # review 30a: it writes that index file
        if not ({"--check", "--stat", "--numstat", "--summary"} & set(options)):
            top = checkout_top(call, command.home)
            for word, value in options.get("--directory", []):
                targets.append(Target(word, value, "--directory", recursive=True, base=top if top is not None else UNKNOWN_DIR))
    elif sub in ("fast-export", "read-tree", "bugreport", "diagnose"):
        option_targets(*WRITE_OPTIONS[sub])  # review 30a
    elif sub == "merge-file" and not ({"-p", "--stdout"} & set(options)) and operands:
        targets.append(Target(operands[0][0], operands[0][1], "the merged file", base=base))
    for option, how in UNKNOWN_OUTPUTS.get(sub, {}).items():
        for word, _ in options.get(option, []):
            targets.append(Target(word, None, how))
    writing = WRITE_OPTIONS.get(sub, ())
    for word in words_that_may_be_options(call, parsed, writing, command.state) if writing else ():
        # stop 30: `git diff "$X"` with X=`--output=<main>/x` wrote there
        targets.append(Target(command.words[0], None, f"{word.raw}, only known at run time, may be {' or '.join(writing)}", base=base))
    if sub == "update-index":
        targets += _symlink_entries(call)
    reads = OPERANDS_READ.get(sub)
    if reads is None or reads & set(options):
        from .written import path_candidates

        for word, value in call.args:
            for candidate in path_candidates(value) if value is not None else ():
                targets.append(Target(word, candidate, f"`git {sub}`, which may write it", kind="operand", base=base))
    return targets


def _clone_into(operands: list[tuple[Word, str | None]]) -> tuple[Word, str | None] | None:
    """The directory `git clone` makes, as written: its second operand, else the repository's name (`x` for
    `…/x.git`)."""
    if len(operands) >= 2:
        return operands[1]
    if operands and operands[0][1] is not None:
        return operands[0][0], operands[0][1].rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].removesuffix(".git") or "."
    return (operands[0][0], None) if operands else None


def clone_directory(call: GitCall, command: ShellCommand) -> str | None:
    """The directory `git clone` makes (canonical; None when not known)."""
    into = _clone_into(call.parsed().operands)
    if into is None or into[1] is None or call.dynamic:
        return None
    directory = literal_tilde(into[1])  # a `~` still leading is bash's literal: W/~/c (phase 24, m39a: `git clone … '~/c'`)
    if call.run_dir is None and not directory.startswith("/"):
        return None
    return canonical(directory, call.run_dir or "/", command.home)


def _init_linked_git_dir(call: GitCall, command: ShellCommand, base: str) -> Target | None:
    """The git dir that a `.git` link where `git init` works names: init re-initialises that one (rewrites its
    config for --shared, copies a template's hooks in, moves it for --separate-git-dir) as if it were named itself.
    A hand-written `gitdir: <main>/.git` in /tmp/fake made `git init --shared=all /tmp/fake` rewrite the main
    repository's config (git 2.39); the write table judges the git dir it names (WG401 in a shared checkout). A
    linked worktree's own link, which git's records confirm, is judged as its worktree already (init's directory)."""
    if call.names_git_dir:
        place, word = init_git_dir(call), call.git_dir_word or _assignment_word(command, "GIT_DIR")
    else:
        if "--bare" in call.flags():
            return None  # the directory itself is the git dir: its own target, symlinks resolved
        operands = call.parsed().operands
        word, directory = operands[0] if operands else (None, call.run_dir)
        if directory is not None and not directory.startswith("/"):  # a `~` still leading is bash's literal (`'~/x'`: m38b)
            directory = None if call.run_dir is None else os.path.join(call.run_dir, directory)
        place = None if directory is None else os.path.join(directory, ".git")
    if place is None or call.dynamic:
        return None  # only known at run time: init's own target is WG403 already
    head, name = os.path.split(place.rstrip("/"))
    dotgit = os.path.join(canonical(head or "/", "/", command.home), name)
    try:
        linked = git_dir_link(dotgit)
    except LayoutUnknown:
        return Target(word, None, f"init, through {dotgit}, which cannot be read", base=base)
    return None if linked is None else Target(word, linked, f"init, the git dir {dotgit} links to", base=base)


def _init_git_dir_target(call: GitCall, command: ShellCommand, base: str) -> Target:
    """The git dir GIT_DIR or --git-dir names, which `git init` makes (`GIT_DIR=<main>/sub git init` made a
    repository in the main checkout) or re-initialises. `<dir>/.git` is written as `git init <dir>` writes it: the
    directory is the target, as for that command, and git makes the `.git` in it itself."""
    word = call.git_dir_word or _assignment_word(command, "GIT_DIR") or _assignment_word(command, "GIT_COMMON_DIR")
    git_dir = init_git_dir(call)
    if git_dir is not None and os.path.basename(git_dir.rstrip("/")) == ".git":
        git_dir = os.path.dirname(git_dir.rstrip("/")) or "/"
    return Target(word, git_dir, "init, the git dir named by GIT_DIR or --git-dir", base=base)


def init_git_dir(call: GitCall) -> str | None:
    """The git dir that `git init` makes or re-initialises when GIT_DIR or --git-dir names one (`names_git_dir`):
    git enters the directory it is given first, so a relative name is taken from there (None: only known at run
    time)."""
    given = call.git_dir_given
    if given is None:
        return None
    if given.startswith("/") or not call.operands():
        return call.git_dir
    return _init_relative(call, given)


def _init_relative(call: GitCall, name: str) -> str | None:
    """A directory `git init` is told of by name (GIT_DIR, GIT_COMMON_DIR), as git takes it: from the directory
    init is given when it has one (git enters it first), else from where git runs."""
    operands = call.operands()
    if name.startswith("/") or not operands:
        return _join(call.run_dir, name)
    directory = None if operands[0] is None else _join(call.run_dir, operands[0])
    return _join(directory, name)


def _symlink_entries(call: GitCall) -> list:
    """`update-index --cacheinfo <mode>,<object>,<path>` (or three words) staging a symbolic link, or a mode only
    known at run time: the link a later checkout makes may lead anywhere (WG403)."""
    from .programs import Target

    targets = []
    args = call.args
    for i, (word, value) in enumerate(args):
        if value is None or not (value == "--cacheinfo" or value.startswith("--cacheinfo=")):
            continue
        mode = value.partition("=")[2] if "=" in value else (args[i + 1][1] if i + 1 < len(args) else None)
        mode = None if mode is None else mode.split(",", 1)[0]
        try:
            symlink = mode is None or int(mode, 8) & 0o170000 == SYMLINK_MODE
        except ValueError:
            symlink = True
        if symlink:
            targets.append(Target(word, None, "a symbolic link staged with --cacheinfo, whose target a later checkout makes"))
    return targets


def _assignment_word(command: ShellCommand, name: str) -> Word | None:
    for assignment in reversed(command.assignments):
        if assignment.name == name:
            return assignment.value
    return None


def _trace_variables(command: ShellCommand) -> list[tuple[str, str | None]]:
    """GIT_TRACE, GIT_TRACE2, GIT_TRACE_PACKET… set for this git (a value that is an absolute path is a file git writes)."""
    names = {a.name for a in command.assignments} | set(command.state.variables)
    return [(name, command.named_env(name)[1]) for name in sorted(names) if name.startswith("GIT_TRACE")]


# -- code git runs (SPEC §5.2 "strings that a program will run as code") -----------------------------------

#: Config keys whose value git runs as a command (fnmatch patterns, lower case). "!": only a value starting
#: with `!` is a shell command (an alias; otherwise a git subcommand or helper name).
CODE_KEYS: dict[str, str] = {
    "core.fsmonitor": "shell", "core.editor": "shell", "sequence.editor": "shell", "core.pager": "shell",
    "pager.*": "shell", "core.sshcommand": "args", "core.askpass": "shell", "core.gitproxy": "args",
    "core.alternaterefscommand": "args", "diff.external": "args", "diff.*.textconv": "args", "diff.*.command": "args",
    "filter.*.clean": "shell", "filter.*.smudge": "shell", "filter.*.process": "shell", "merge.*.driver": "shell",
    "mergetool.*.cmd": "shell", "difftool.*.cmd": "shell", "credential.helper": "helper", "credential.*.helper": "helper",
    "gpg.program": "shell", "gpg.*.program": "shell", "sendemail.*cmd": "args", "sendemail.sendmailcmd": "args",
    "remote.*.receivepack": "args", "remote.*.uploadpack": "args", "uploadpack.packobjectshook": "args",
    "interactive.difffilter": "shell", "trailer.*.command": "shell", "trailer.*.cmd": "args", "imap.tunnel": "shell",
    "browser.*.cmd": "args", "man.*.cmd": "args", "web.browser": "args", "alias.*": "!", "submodule.*.update": "!",
    "man.*.path": "args", "browser.*.path": "args", "instaweb.httpd": "args",
    "difftool.*.path": "args", "mergetool.*.path": "args", "tar.*.command": "shell", "gpg.ssh.defaultkeycommand": "shell",
    "core.hookspath": "opaque", "include.path": "opaque", "includeif.*.path": "opaque",
}
#: Kind "args": git runs the string with its own arguments after it (file names in the checkout, a repository path,
#: a host), as `sh -c 'TEXT "$@"'` does; the string is walked with those words, unknown, after it. Editors get a file
#: in git's own directory and pagers nothing, so they are "shell". (diff.external=rm deleted a file of the main
#: checkout: the review of issue 10.) `man.<tool>.path` and `browser.<tool>.path` are the programs `git help` and
#: `git web--browse` run with the page or URL after them; instaweb.httpd the server `git instaweb` starts;
#: `difftool.<tool>.path` and `mergetool.<tool>.path` the program a known tool runs with the files after it.
#: `tar.<format>.command` is the filter `git archive` pipes a tar through, and `gpg.ssh.defaultKeyCommand` the
#: command `git commit -S` runs for a key (both run by the shell).
#: Environment variables whose value git runs as a command (PAGER, EDITOR and VISUAL are git's fallbacks), by kind.
#: The programs git starts run some too: man (`git help`, `--help`) its MANPAGER, less (git's pager, man's) its
#: LESSOPEN and LESSCLOSE, kind "less": a shell command after a leading `|`, `||` or `-` (git 2.39 with a terminal).
CODE_VARIABLES: dict[str, str] = {
    "GIT_EDITOR": "shell", "GIT_SEQUENCE_EDITOR": "shell", "GIT_EXTERNAL_DIFF": "args", "GIT_SSH_COMMAND": "args",
    "GIT_SSH": "args", "GIT_PAGER": "shell", "GIT_ASKPASS": "shell", "SSH_ASKPASS": "shell", "GIT_PROXY_COMMAND": "args",
    "PAGER": "shell", "EDITOR": "shell", "VISUAL": "shell", "MANPAGER": "shell", "LESSOPEN": "less", "LESSCLOSE": "less",
}
#: Environment variables that make git read config or programs from a file the guard cannot look inside.
OPAQUE_VARIABLES = ("GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_EXEC_PATH")
#: Environment variables of the programs git starts whose options may name a command (`MANOPT=-P<pager>`: man
#: ran it for `git help log`, git 2.39), which the guard does not read. less reads key bindings and its own
#: environment (LESSOPEN among it) from a lesskey file or text (shell/runners.py LESSKEY_VARIABLES).
OPAQUE_PROGRAM_VARIABLES = {"MANOPT": "man", **{variable: "less" for variable in LESSKEY_VARIABLES}}
#: Subcommand options whose value is a shell command.
CODE_OPTIONS: dict[str, tuple[str, ...]] = {
    "rebase": ("-x", "--exec"),
    "difftool": ("-x", "--extcmd"),
    "filter-branch": ("--env-filter", "--tree-filter", "--index-filter", "--parent-filter", "--msg-filter", "--commit-filter", "--tag-name-filter", "--setup"),
    "clone": ("-u", "--upload-pack"),
    "fetch": ("--upload-pack",),
    "pull": ("--upload-pack",),
    "ls-remote": ("--upload-pack",),
    "push": ("--receive-pack", "--exec"),
    "archive": ("--exec",),
    "send-email": ("--sendmail-cmd", "--to-cmd", "--cc-cmd", "--header-cmd"),
    "instaweb": ("-d", "--httpd"),
}
#: Of those, the ones git runs with its own arguments after the string (kind "args" above): all but rebase's and
#: filter-branch's, which run a shell string as it is.
ARGUMENT_OPTIONS: dict[str, tuple[str, ...]] = {
    sub: options for sub, options in CODE_OPTIONS.items() if sub not in ("rebase", "filter-branch")
}
#: Config (from `-c`, --config-env or the environment) that lets git run the ext:: transport, which runs a
#: command built from a URL: a config value holding `ext::` (url.*.insteadOf, remote.*.url) or one that allows
#: the protocol. fnmatch patterns of the key (lower case) → the values that allow it (None: any value).
EXT_ALLOWING_KEYS: dict[str, tuple[str, ...] | None] = {
    "protocol.ext.allow": ("always", "user"),
    "protocol.allow": ("always", "user"),
}


def local_url(url: str) -> bool:
    """Whether a remote URL names a place on this machine: a path (absolute, relative, `~`, a bare word) or a
    `file:` URL; not a URL of another scheme, nor ssh's scp-like `host:path` (a colon before the first slash)."""
    url = url.strip()
    if url.lower().startswith("file:"):
        return True
    if "://" in url:
        return False
    return ":" not in url.partition("/")[0]


#: Subcommands whose code options the other end of the transport runs (`--upload-pack`, `--receive-pack`): on this
#: machine only for a repository here, and whose other options run or write nothing here. Not clone (`--config=
#: core.sshCommand=…` runs here) nor archive (`--output=<main>/x` writes there): review 29b.
REMOTE_SIDE = frozenset({"push", "ls-remote"})


def _runs_remotely(call: GitCall, parsed: ParsedArgv, words: list[Word]) -> bool:
    """Whether a transport's code option that one quoted run-time word may hold could only run on another machine:
    the one word cannot split, and every repository the command names is a URL elsewhere (`git push "$R" HEAD:main`:
    were R `--receive-pack=…`, `HEAD:main` would be the repository, ssh's `host:path`)."""
    import re

    if len(words) != 1 or not re.fullmatch(QUOTED_SCALAR, words[0].raw):
        return False
    named = [value for _, value in parsed.operands if value is not None] + [value for _, value in parsed.options.get("--repo", [])]
    return bool(named) and all(value is not None and not local_url(value) for value in named)


#: A word that is one parameter's value, double-quoted: one word, never split or globbed (`"$N"`, `"${N}"`).
QUOTED_SCALAR = r'"\$(\{[A-Za-z_][A-Za-z_0-9]*\}|[A-Za-z_][A-Za-z_0-9]*)"'


#: Options of git's subcommands that take no value, common before a `--` (`git log --oneline -- "$F"`).
KNOWN_FLAGS = frozenset({
    "--oneline", "--stat", "--shortstat", "--numstat", "--name-only", "--name-status", "--cached", "--staged", "-p",
    "--patch", "-q", "--quiet", "-v", "--verbose", "--all", "--graph", "--no-color", "--follow", "--no-merges",
    "--merges", "--first-parent", "--reverse", "--no-patch", "-s", "--raw", "--summary", "--check", "-w", "-b",
    "--ignore-all-space", "--no-renames", "-M", "-C", "--full-history", "--decorate", "--no-decorate", "-r", "-t",
    "-y", "--no-prompt", "-d", "--dir-diff", "-g", "--gui", "--abbrev-commit", "--ignore-space-change",
    "--word-diff", "--color-words", "--minimal", "--histogram", "--patience", "--topo-order", "--date-order",
})


def words_that_may_be_options(call: GitCall, parsed: ParsedArgv, code: tuple[str, ...], state=None) -> list[Word]:
    """A subcommand's words only known at run time that may hold one of its `code` options: `git ls-remote "$R" x`,
    `git archive "$A" --remote=x HEAD` and `git difftool -y "$X"` ran the code R, A and X held (`--upload-pack=…`,
    `--exec=…`, `--extcmd=…`; stop 29), and `git rebase -ix"$X"` is `-i -x "$X"`. Left out: a word whose known start
    is no option (`origin/$B`), one after `--`, and the value of another option quoted as one parameter (`--onto
    "$B"`, `--onto="$B"`, `-m"$M"`), one after `--end-of-options`, and a glob whose names in `state`'s directories
    start with no `-` now (`*.py`: stop 30)."""
    import re

    from .steps import glob_names_no_option

    def plain(name: str) -> bool:  # an option that is no code option, in any abbreviation git accepts
        if len(name) == 2:
            return name not in code
        return len(name) >= 3 and not any(o.startswith(name) for o in code if o.startswith("--"))

    own = {id(word): value for word, value in call.args}
    consumed = {id(word) for entries in parsed.options.values() for word, value in entries if word is not None and value is not None and own.get(id(word)) == value}
    values_of_options = {id(word) for name, entries in parsed.options.items() if plain(name) for word, value in entries if value is None and word is not None}
    takes_value = SUBCOMMAND_VALUE_OPTIONS.get(call.subcommand or "", frozenset())
    found: list[Word] = []
    previous: str | None = call.subcommand
    for word, value in call.args:
        # `--` ends the options only where it is no option's value: after a word that is no option, or one known
        # to take none (review 30b: `git log --decorate-refs -- "$X"`, `-S --end-of-options "$X"`)
        if value in ("--", "--end-of-options") and id(word) not in consumed and (previous is None or not previous.startswith("-") or "=" in previous or previous in KNOWN_FLAGS or previous in ("--", "--end-of-options") or re.fullmatch(r"-[A-Za-z]?\d+", previous)):
            break
        previous = value
        if value is not None:
            continue
        raw = word.raw
        if re.fullmatch(r"[^$`*?\[{\\'\"~@+!]*", raw):
            continue  # a literal git cannot read (`--stra=ours`: WG303 already)
        if not may_be_option(raw) or (state is not None and glob_names_no_option(word, state)):
            continue  # a known start that is no option, in one field (`HEAD~$N` may split into `HEAD~1 --exec=…`)
        if id(word) in values_of_options and (re.fullmatch(QUOTED_SCALAR, raw) or not has_unquoted_expansion(raw)):
            continue  # another option's value, one word (`-b "$B-2"`: review 30c)
        name, equals, rest = raw.partition("=")
        if equals and re.fullmatch(r"--[a-z][a-z-]*", name) and plain(name) and re.fullmatch(QUOTED_SCALAR, rest):
            continue
        if re.fullmatch(r"-[A-Za-z]", raw[:2]) and raw[:2] in takes_value and plain(raw[:2]) and re.fullmatch(QUOTED_SCALAR, raw[2:]):
            continue
        found.append(word)
    return found


@fast_dataclass(slots=True)
class GitCode:
    """Code one git invocation runs: shell strings (code, offset, cwd), argv lists (`bisect run`), and why some
    cannot be looked inside."""

    scripts: list[tuple[str, int, str | None]] = field(default_factory=list)
    argv: list[tuple[list, str | None]] = field(default_factory=list)
    opaque: list[str] = field(default_factory=list)


def arguments_after(top: str | None) -> str:
    """The words git puts after a code string of kind "args", as the walker sees them: unknown words, starting in
    the checkout git runs in when that is known (so a writer given them in a shared checkout is WG401 there)."""
    import shlex

    return " " + (shlex.quote(top.rstrip("/") + "/") if top else "") + '"$@"'


def allows_ext(key: str, value: str | None) -> bool:
    """Whether one config setting lets git run an ext:: command (see EXT_ALLOWING_KEYS)."""
    import fnmatch

    if "ext::" in key.lower() or (value is not None and "ext::" in value.lower()):
        return True
    for pattern, allowing in EXT_ALLOWING_KEYS.items():
        if fnmatch.fnmatchcase(key.lower(), pattern):
            return value is None or allowing is None or value.strip().lower() in allowing
    return False


def code_kind(key: str) -> str | None:
    import fnmatch

    key = key.lower()
    for pattern, kind in CODE_KEYS.items():
        if fnmatch.fnmatchcase(key, pattern):
            return kind
    return None


def git_code(command: ShellCommand, call: GitCall | None = None) -> GitCode:
    """What this git invocation runs as code, and where (the top of its checkout)."""
    call = call or read_git_call(command)
    found = GitCode()
    top = checkout_top(call, command.home)

    editors: dict[str, list[str | None]] = {}

    def config(key: str, value: str | None, offset: int, source: str, top: str | None = top) -> None:
        if key.lower() in ("sequence.editor", "core.editor", "pull.rebase"):
            editors.setdefault(key.lower(), []).append(value)
        elif key.lower().startswith("branch.") and key.lower().endswith(".rebase"):
            editors.setdefault("branch.*.rebase", []).append(value)
        if allows_ext(key, value):
            found.opaque.append(f"{source} sets {key} so that git may run an ext:: command, which worktree-guard cannot look inside")
        kind = code_kind(key)
        if kind is None:
            return
        if kind == "opaque":
            if key.lower() != "core.hookspath":  # the git rule reports hooksPath as WG305
                found.opaque.append(f"{source} makes git read {key}, which worktree-guard cannot look inside")
            return
        if value is None:
            found.opaque.append(f"{source} sets {key} to a command only known at run time")
            return
        if kind in ("!", "helper") and value.startswith("!"):
            found.scripts.append((value[1:], offset + 1, top))
            return
        if kind == "!":
            return
        if value.strip().lower() in ("", "true", "false", "yes", "no", "on", "off", "0", "1"):
            return  # a boolean, not a command (core.fsmonitor=false, pager.log=true)
        found.scripts.append((value + (arguments_after(top) if kind == "args" else ""), offset, top))

    for word in call.unknown_configs:
        # `git -c core.fsmonitor="$X" status` runs $X as shell code, read-only subcommand or not
        found.opaque.append(f"`git` is given config only known at run time ({word.raw}), which may name a command git runs")
    for word, setting in call.configs:
        key, eq, value = setting.partition("=")
        config(key, value if eq else "true", word.span[0] + (word.raw.find("=") + 1 if "=" in word.raw else 0), "`git -c`")
    for word, setting in call.config_envs:
        key, _, variable = setting.partition("=")
        present, value = command.named_env(variable)
        config(key, value if present else None, command.span[0], f"`git --config-env` (${variable})")
    _clone_config(command, call, config, found)
    if command.state.names_unknown:
        found.opaque.append(f"{NAMES_UNKNOWN}: git's among them (its config, pager, editor, ssh and diff commands)")
    for variable, kind in CODE_VARIABLES.items():
        present, value = command.named_env(variable)
        if present:
            word = _assignment_word(command, variable)
            offset = word.span[0] + (1 if word.raw[:1] in "'\"" else 0) if word is not None else command.span[0]
            if value is not None and kind == "less":
                value = value.lstrip().lstrip("|-")
            if value is None:
                found.opaque.append(f"${variable} is a command only known at run time")
            elif value:
                found.scripts.append((value + (arguments_after(top) if kind == "args" else ""), offset, top))
    for variable, program in OPAQUE_PROGRAM_VARIABLES.items():
        present, value = command.named_env(variable)
        if present and value != "":
            found.opaque.append(f"${variable} gives {program}, which git may start, options worktree-guard does not read (a command among them)")
    present, options = command.named_env("LESS")
    if present and less_options_opaque(options):
        found.opaque.append("$LESS gives less, which git may start, a lesskey file or text or startup commands worktree-guard does not read (a command among them)")
    for directory in call.exec_paths:
        found.opaque.append(f"`git --exec-path={directory or '…'}` makes git run git-<sub> and the programs it starts (its pager, man) from {directory or 'a directory only known at run time'}, which worktree-guard cannot look inside")
    present, allowed = command.named_env("GIT_ALLOW_PROTOCOL")
    if present and (allowed is None or "ext" in allowed.split(":")):
        found.opaque.append("$GIT_ALLOW_PROTOCOL lets git run an ext:: command, which worktree-guard cannot look inside")
    for variable in OPAQUE_VARIABLES:
        present, value = command.named_env(variable)
        if present and value != "/dev/null":
            found.opaque.append(f"${variable} makes git read config or programs from {value or 'a file only known at run time'}, which worktree-guard cannot look inside")
    _config_parameters(command, config, found)
    _home_config(command, found, top, call.run_dir)
    unread = unread_repository_config(call, command)
    if unread is not None:
        found.opaque.append(unread)
    _subcommand_code(command, call, top, found)
    todo_editor = _todo_list_editor(command, call, editors)
    if todo_editor is not None:
        found.opaque.append(f"`git rebase` runs the todo list its editor ({todo_editor}) writes, `exec` lines among them, which worktree-guard cannot look inside; give the editor as `:` and the commands as `git rebase -x CMD`")
    return found


#: Where git finds the editor of `rebase -i`'s todo list, in the order it looks (sequence.editor falls back to the
#: commit editor): environment variables and config keys.
TODO_LIST_EDITORS = ("GIT_SEQUENCE_EDITOR", "sequence.editor", "GIT_EDITOR", "core.editor", "VISUAL", "EDITOR")
#: Editors that leave the todo list as git wrote it.
NO_OP_EDITORS = frozenset({":", "true", "/bin/true", "/usr/bin/true"})


def _todo_list_editor(command: ShellCommand, call: GitCall, editors: dict[str, list[str | None]]) -> str | None:
    """The editor this command gives `git rebase -i` / `--edit-todo` / `git pull` for a todo list (the first git looks at),
    when it is not a no-op; None otherwise. The editor's file is the list git then runs: `exec` lines it writes
    run in the checkout (`GIT_SEQUENCE_EDITOR="sed -i 1iexec\\ rm\\ <main>/x" git rebase -i` ran them and passed:
    review 22, F2). Its own code is walked as any editor's is; an editor from the user's config is theirs."""
    if call.subcommand_dynamic:
        return None
    if call.subcommand == "rebase":
        if not call.flags() & {"-i", "--interactive", "--edit-todo"}:
            return None
    elif call.subcommand != "pull" or not _pulls_interactively(call, editors):
        return None
    for source in TODO_LIST_EDITORS:
        if "." in source:
            values = editors.get(source, [])
        else:
            present, value = command.named_env(source)
            values = [value] if present else []
        values = [value for value in values if value != ""]  # git takes an empty one as not set
        if not values:
            continue
        if all(value is not None and value.strip() in NO_OP_EDITORS for value in values):
            if source == "VISUAL":
                continue  # git skips VISUAL when TERM is unset or dumb, which the guard cannot see (review 22b)
            return None
        return f"${source}" if "." not in source else source
    return None


#: `git pull`'s short options that take the rest of their cluster (or the next word) as a value (git 2.39): -s and
#: -X the merge strategy and its option, -S the key, -j the jobs, -o a server option; -r takes an attached value.
PULL_VALUE_LETTERS = frozenset("sXSjo")
#: Of those, the ones that take the next word when nothing follows them in the cluster (-S only takes an attached
#: key); and pull's long options that take the next word as their value (git 2.39): a `--no-rebase` there is a
#: value, not a choice (`git pull -X --no-rebase` left the rebase to pull.rebase=interactive: review 22e).
PULL_NEXT_WORD_LETTERS = frozenset("sXo")  # -j's value is optional and attached only (review 22f)


def _pulls_interactively(call: GitCall, settings: dict[str, list[str | None]]) -> bool:
    """Whether this `git pull` may rebase interactively: it asks for it (`--rebase=interactive` with any prefix of the
    option or value, `-ri`, `-qri`, `-c pull.rebase=i`, `-c branch.<b>.rebase=i`), or it leaves the choice to the
    config (the last of `--rebase[=…]`/`-r`/`--no-rebase` does not settle it and the last of `--ff`/`--no-ff`/
    `--ff-only` is not `--ff-only`): the user's pull.rebase, or one the command writes first (`git config --worktree
    pull.rebase i; … git pull`), may say interactive (review 22c, 22d: `-Xtheirs`, `-sort` and `--ff-only --no-ff`
    were taken for a choice). A word only known at run time may be any of them."""
    rebase: str | None = None  # the last rebase choice: "i…", another value, or None (left to the config)
    ff_only = False
    skip = False
    for value in call.values():
        if skip:  # the value of the option before it
            skip = False
            continue
        if value is None:
            return True
        name, eq, setting = value.partition("=")
        if name.startswith("--") and not eq and len(name) > 3 and any(option.startswith(name) for option in PULL_VALUE_OPTIONS):
            skip = True
            continue
        if name.startswith("--"):
            if len(name) > 3 and "--rebase".startswith(name):
                rebase = setting if eq else "true"
            elif len(name) > 4 and "--no-rebase".startswith(name):
                rebase = "false"
            elif len(name) > 4 and "--ff-only".startswith(name):
                ff_only = True
            elif name in ("--ff", "--no-ff"):
                ff_only = False
        elif value.startswith("-") and len(value) > 1:
            for at, letter in enumerate(value[1:], start=1):
                if letter in PULL_VALUE_LETTERS:  # takes the rest, or the next word when it ends the cluster
                    skip = letter in PULL_NEXT_WORD_LETTERS and at == len(value) - 1
                    break
                if letter == "r":
                    rebase = value[at + 1:] or "true"
                    break
        if rebase is not None and rebase[:1].lower() == "i":
            return True
    if any(value is None or value.strip()[:1].lower() == "i" for value in settings.get("pull.rebase", []) + settings.get("branch.*.rebase", [])):
        return True
    return rebase is None and not ff_only


def _clone_config(command: ShellCommand, call: GitCall, config, found: GitCode) -> None:
    """`git clone -c <key>=<value>`: in force while it clones (a hook under core.hooksPath ran at its checkout) and
    written into the new repository's config, where every later git there reads it (`-c core.fsmonitor=…` ran on
    `git status` there, git 2.39): judged as `git -c`, where the clone lands."""
    into = clone_directory(call, command)
    for word, setting in clone_settings(call):
        if setting is None:
            found.opaque.append(f"`git clone -c` is given config only known at run time ({word.raw if word else '?'}), which may name a command git runs")
            continue
        key, eq, value = setting.partition("=")
        at = word.raw.find(key + "=") if word is not None else -1
        offset = (word.span[0] if word is not None else command.span[0]) + (at + len(key) + 1 if at >= 0 else 0)
        config(key, value if eq else "true", offset, "`git clone -c`", into)


def _config_parameters(command: ShellCommand, config, found: GitCode) -> None:
    """GIT_CONFIG_PARAMETERS (`'key'='value' …`) and GIT_CONFIG_COUNT / GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n."""
    present, value = command.named_env("GIT_CONFIG_PARAMETERS")
    if present:
        if value is None:
            found.opaque.append("$GIT_CONFIG_PARAMETERS is only known at run time")
        else:
            import shlex  # only here: every git call comes this way (≈ 0.3 ms)

            try:
                items = shlex.split(value)
            except ValueError:
                found.opaque.append("$GIT_CONFIG_PARAMETERS cannot be read")
                items = []
            for item in items:
                key, eq, setting = item.partition("=")
                config(key, setting if eq else "true", command.span[0], "$GIT_CONFIG_PARAMETERS")
    present, count = command.named_env("GIT_CONFIG_COUNT")
    if present:
        if count is None or not count.strip().isdigit():
            found.opaque.append("$GIT_CONFIG_COUNT is only known at run time")
            return
        for n in range(min(int(count), 1000)):
            _, key = command.named_env(f"GIT_CONFIG_KEY_{n}")
            _, setting = command.named_env(f"GIT_CONFIG_VALUE_{n}")
            if key is None:
                found.opaque.append(f"$GIT_CONFIG_KEY_{n} is only known at run time")
                continue
            config(key, setting, command.span[0], f"$GIT_CONFIG_KEY_{n}")


def _home_config(command: ShellCommand, found: GitCode, top: str | None = None, run_dir: str | None = None) -> None:
    """A HOME (or XDG_CONFIG_HOME) whose git config, or the lesskey file of the pager git starts, was written earlier
    in the same command: git (or less) would read code the guard has not seen."""
    homes = (("HOME", (".gitconfig", ".config/git/config", *LESSKEY_FILES)), ("XDG_CONFIG_HOME", ("git/config", "lesskey")))
    for variable, files in homes:
        present, value = command.named_env(variable)
        if not present or (variable == "HOME" and value == command.home):
            continue  # the agent's own HOME: its config is the environment, not something this command wrote
        if value is None:
            found.opaque.append(f"${variable} is only known at run time, so git's config there cannot be looked inside")
            continue
        # a relative one is read from wherever git is when it reads it: the cwd, or the top it moved to
        # (and git's -C directory, where it reads aliases: review 32b, `HOME=. git -C sub st`)
        starts = [command.cwd or "/"] + [d for d in (run_dir, top) if d is not None]
        paths = {canonical(os.path.join(start, value, name), "/", command.home) for start in starts for name in files}
        written = command.state.written
        if None in written or paths & set(written):
            found.opaque.append(f"git would read config from ${variable} ({value}), which this command writes first")
        elif any(os.path.lexists(path) for path in paths):
            # review 32a: `HOME=. git status` with a W/.gitconfig setting core.fsmonitor ran it
            found.opaque.append(f"git would read config from ${variable} ({value}), which holds a config file worktree-guard does not read")


def _subcommand_code(command: ShellCommand, call: GitCall, top: str | None, found: GitCode) -> None:
    sub = call.subcommand
    if sub is None or call.subcommand_dynamic:
        return
    values = call.values()
    words = [word for word, _ in call.args]
    parsed = call.parsed()
    for option in CODE_OPTIONS.get(sub, ()):
        for word, value in parsed.options.get(option, []):
            if value is None:
                found.opaque.append(f"`git {sub} {option}` runs a command only known at run time")
            else:
                cwd = os.path.join(top, ".git-rewrite", "t") if option == "--tree-filter" and top else top
                after = arguments_after(top) if option in ARGUMENT_OPTIONS.get(sub, ()) else ""
                found.scripts.append((value + after, word.span[0] + (1 if word.raw[:1] in "'\"" else 0), cwd))
    flagged: set[int] = set()
    for word, value in call.args:  # `--upload-pack="$X"`, `--upl=$X`, `-u"$X"`: the option is known, its code is not (review 28c)
        raw = word.raw.lstrip("'\"")
        name, equals, _ = raw.partition("=")
        long_form = equals and name.startswith("--") and len(name) > 3 and any(o.startswith(name) for o in CODE_OPTIONS.get(sub, ()) if o.startswith("--"))
        if value is None and (long_form or (raw[:2] in CODE_OPTIONS.get(sub, ()) and len(raw) > 2 and raw[1] != "-")):
            found.opaque.append(f"`git {sub} {name if long_form else raw[:2]}…` runs a command only known at run time")
            flagged.add(id(word))
    code = (*CODE_OPTIONS.get(sub, ()), *(("-O", "--open-files-in-pager") if sub == "grep" else ()))
    if code and sub not in ("fetch", "pull"):  # theirs are WG305 already (rules/git.py's _unknown_words)
        candidates = words_that_may_be_options(call, parsed, code, command.state)
        if sub in REMOTE_SIDE and _runs_remotely(call, parsed, candidates):
            candidates = []
        for word in candidates:
            if id(word) not in flagged:
                found.opaque.append(f"`git {sub}` is given {word.raw}, only known at run time, which may be {' or '.join(code)} and run a command")
    if sub == "grep":
        takes = SUBCOMMAND_VALUE_OPTIONS["grep"]
        for value, word in zip(values, words):
            if value is None:
                continue  # read on past a `--` too: it may be -e's value (review 29c: `-e -- --or -e hi -O'CODE'`)
            pager = None
            if value.startswith("--open-files-in-pager="):  # an abbreviation is written in full (_unabbreviated)
                pager = value.partition("=")[2]
            elif value[:1] == "-" and value[:2] != "--":
                # a cluster, read letter by letter: `-nO'CODE'` is `-n -O'CODE'` (review 29b); a letter that takes a
                # value takes the rest
                for k, letter in enumerate(value[1:], start=1):
                    if letter == "O":
                        pager = value[k + 1:] or None
                        break
                    if "-" + letter in takes:
                        break
            if pager:
                found.scripts.append((pager + arguments_after(top), word.span[0], top))  # the matching files follow
    if sub == "bisect" and values[:1] == ["run"]:
        found.argv.append((words[1:], top))
    if sub == "submodule":
        operands = [v for v in values if v is not None and not v.startswith("-")]
        if operands[:1] == ["foreach"]:
            start = values.index("foreach") + 1
            rest = values[start:]
            while rest and rest[0] is not None and rest[0].startswith("-"):
                rest = rest[1:]
            if any(v is None for v in rest):
                found.opaque.append("`git submodule foreach` runs a command only known at run time")
            elif rest:
                found.scripts.append((" ".join(rest), words[len(values) - len(rest)].span[0], top))  # type: ignore[arg-type]
    if sub == "for-each-repo":
        found.opaque.append("`git for-each-repo` runs git in repositories listed in config, which worktree-guard cannot place")
    for value in values:
        if value is not None and value.startswith("ext::"):
            found.opaque.append("an ext:: URL runs a command git builds from it")


#: git subcommands known to put no file under a new name into a work tree (they commit, stage, remove or only read).
NO_NEW_NAMES = frozenset({
    "commit", "add", "rm", "clean", "update-index", "commit-tree", "write-tree", "mktree", "mktag", "update-ref",
    "symbolic-ref", "gc", "prune", "repack", "pack-refs", "maintenance",
})


def unlisted_directories(command: ShellCommand) -> list[str | None]:
    """Directories where the command makes files under names the guard does not know (None: one only known at run
    time), so that a later glob's names there are not known (`steps.written_matches`; stop 31: with a commit on
    another branch holding a file `-t..`, `git checkout other -- .; cp * src/` copied into W's parent). Only git's
    are found here; another program's writes are recorded by the writes rule as they are judged (`curl -O` writes
    its cwd)."""
    if command.name != "git":
        return []
    call = read_git_call(command)
    sub = call.subcommand
    if sub is None or (not call.subcommand_dynamic and (sub in NO_NEW_NAMES or is_read_only(call) and sub != "worktree")):
        return []
    flags = set(call.flags())
    operands = call.operands()
    if sub == "worktree":
        if not operands or operands[0] != "add" or len(operands) < 2:
            return []
        path = operands[1]
        return [None if path is None or call.run_dir is None else real(os.path.join(call.run_dir, path))]
    if sub in READ_ONLY and not call.subcommand_dynamic:
        return []
    if not call.subcommand_dynamic and _keeps_names(sub, flags, operands):
        return []
    # every other subcommand, an alias (`git co other -- .`) or one only known at run time may bring any name
    return [checkout_top(call, command.home)]


#: The options of the forms below that leave the work tree's names as they are; any other option, abbreviations among
#: them (review 31c: `reset --har`, `restore --wor`), may bring names.
_KEEPING_OPTIONS = frozenset({"-q", "--quiet", "--no-track", "--track", "-t", "--no-guess", "--guess", "--soft", "--mixed", "-N", "--intent-to-add", "--no-refresh", "--refresh", "--staged", "-S", "-s", "--source", "--progress", "--no-progress"})


def _keeps_names(sub: str, flags: set[str], operands: list[str | None]) -> bool:
    """Forms of work-tree commands that bring no file of another tree (review 31a's false denies): a new branch at
    HEAD (`checkout -b x`, `switch -c x`), a reset or a restore of the index only. Not `stash` (push brings back
    the deleted files of HEAD) nor `--abort` (it brings back the tree the command started from): review 31c."""
    creating = {"-b", "-B", "-c", "-C", "--create", "--force-create", "--orphan"}
    if sub in ("checkout", "switch"):
        return not operands and bool(flags & creating) and flags <= _KEEPING_OPTIONS | creating
    if sub == "reset":
        return flags <= _KEEPING_OPTIONS
    if sub == "restore":
        return bool(flags & {"--staged", "-S"}) and flags <= _KEEPING_OPTIONS
    if sub == "stash":
        return bool(operands) and operands[0] in ("list", "show", "drop", "clear", "create", "store")
    return False
