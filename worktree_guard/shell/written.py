"""What a simple command or a redirection writes: one answer for every rule that needs it (SPEC §5.2, §11).

`command_writes` and `redirect_writes` return `Written` records: the path as the command gives it, the
directory it is relative to, what writes it, whether the write reaches everything below it, and what kind of
write it is. They judge nothing: the writes rule places each record in §5.1's order (WG401–WG406), and a rule
that checks a worker's ownership can check the same records against its patterns.

Kinds:
- "write": a redirection or a known writer writes the path (`> f`, `cp a f`, `sed -i … f`, `sed 'w f'`);
- "link": a link to the path is made (`ln f l`, `cp -l f l`, `ln -s f l`), so a later write through the link
  reaches it;
- "operand": a program with no table entry was given the path. It may write it or not; the SPEC's shared
  boundary counts it as written there (WG406), and passes it elsewhere.
"""

from __future__ import annotations

import fnmatch
import glob
import os
import re
from typing import TYPE_CHECKING

from ..fast_dataclass import fast_dataclass, field, replace
from ..paths import current_made_links, literal_tilde, made_link_readings, made_links_read_as, may_become_own_process, real
from . import words as shell_words
from .programs import CWD, TRUSTED_PROGRAM_DIRS, UNKNOWN_DIR, WRITING_CODE_FAMILIES, ReadOnly, Target, WriteSpec, built_words, code_family, long_option, parse_argv, written_targets
from .state import ENTRIES_PER_PATH, UNLISTED
from .steps import BASH_BUILTINS, chosen_elsewhere, expand_tilde, glob_values, globs_changed, inherited

if TYPE_CHECKING:
    from .ast import Word
    from .state import GlobWork
    from .steps import ShellCommand, ShellRedirect

#: Redirection operators that open their target for writing.
WRITE_OPERATORS = (">", ">>", ">|", "&>", "&>>", "<>")


@fast_dataclass(frozen=True, slots=True)
class Written:
    """One path a command writes, links to, or (kind "operand") may write.

    `value` is the path as the command gives it (relative ones are relative to `cwd`), None when only known at
    run time; `prefix` is then the static directory it starts with, when there is one (`/repo/src/$f` →
    `/repo/src`). `recursive`: the write reaches everything below the path (`rm -r`, extraction).
    """

    word: Word | None
    value: str | None
    cwd: str | None
    how: str
    recursive: bool = False
    kind: str = "write"
    prefix: str | None = None
    #: The write goes below the path following the symlinks already there (extracting an archive).
    follows_links: bool = False
    #: Why a word only known at run time (no `value`, no `prefix`) may be any place: a process's own /proc directory
    #: when empty (`/proc/$$/cwd`), else this (a glob in a directory too large to read for its links).
    unplaced: str = ""

    @property
    def written(self) -> str:
        """The path as written in the command, for messages."""
        if self.word is not None:
            return self.word.raw
        return "." if self.value == CWD else str(self.value)


@fast_dataclass(slots=True)
class ProgramTables:
    """The write table and the read-only table, each with every plugin's rows over the built-in ones."""

    writers: dict[str, WriteSpec] = field(default_factory=dict)
    readers: dict[str, ReadOnly] = field(default_factory=dict)


def redirect_writes(redirect: ShellRedirect) -> list[Written]:
    """The file a redirection opens for writing, if any (`> f`, `2>> f`, `&> f`, `<> f`, `>& f`)."""
    node = redirect.redirect
    op = node.op
    if node.target is None:
        return []
    value = redirect.target()
    if op == ">&":
        if value is not None and (value.isdigit() or value == "-"):
            return []  # `2>&1`, `>&-`: descriptors, not files
    elif op not in WRITE_OPERATORS:
        return []
    if value is None:
        matches = glob_values(node.target, redirect.state)
        if matches is not None and len(matches) == 1:  # more than one match is bash's "ambiguous redirect"
            value = matches[0]
    return [_record(node.target, value, redirect.cwd, f"the redirection `{op}`", redirect.state)]


#: Variables naming a file that a program's TLS library appends its session keys to, whatever the program: stop 32,
#: `SSLKEYLOGFILE=<main>/k curl https://…` wrote <main>/k (curl, git, wget and Python 3.11 did, on Debian 12).
KEY_LOG_VARIABLES = ("SSLKEYLOGFILE",)


def command_writes(command: ShellCommand, tables: ProgramTables) -> list[Written]:
    """Every path the simple command writes, links to, or (unknown program) is given, with how.

    A wrapper's own words are read here; what it runs is another command the walker hands over separately.
    """
    name = command.name
    if name is None or not command.words:
        return []
    return _key_logs(command, name) + _program_writes(command, tables, name)


def _key_logs(command: ShellCommand, name: str) -> list[Written]:
    """The TLS key log a program run with KEY_LOG_VARIABLES set appends to (not a builtin: it makes no connection)."""
    if name in BASH_BUILTINS:
        return []
    found: list[Written] = []
    for variable in KEY_LOG_VARIABLES:
        present, value = command.named_env(variable)  # not after `export $(cat f)` alone (docs/bash.md)
        if present and value != "":
            word = next((a.value for a in reversed(command.assignments) if a.name == variable), None)
            found.append(_record(word, value, command.cwd, f"`{name}` appending TLS session keys to ${variable}", command.state))
    return found


def _program_writes(command: ShellCommand, tables: ProgramTables, name: str) -> list[Written]:
    own = command.words
    unwrapped = command.unwrapped
    if unwrapped is not None and unwrapped.own_words is not None:
        own = own[: unwrapped.own_words]
    values = [command.value(w) for w in own]
    spec = tables.writers.get(name)
    found: list[Written] = []
    path = command.value(command.words[0])
    if path is not None and "/" in path and os.path.dirname(os.path.normpath(path)) not in TRUSTED_PROGRAM_DIRS:
        # `/tmp/head F` may be a copy of anything (`cp /usr/bin/touch /tmp/head`): its name says nothing, so it is
        # an unknown program, and so is what it "wraps".
        every = [command.value(w) for w in command.words]
        return _operands(command, command.words, every, path)
    if spec is not None:
        targets = spec.command_writes(command) if spec.command_writes is not None else written_targets(spec, own, values, lambda word: inherited(word, command.state), lambda word: chosen_elsewhere(word, command.state))
        if spec.amend is not None:
            targets = spec.amend(command, parse_argv(own, values, spec, abbreviations=spec.gnu_options and spec.abbreviations), targets)
        symlinks = name == "ln" and _symbolic(own, values, spec)
        for target in targets:
            cwd = command.cwd
            if target.base is not None:
                cwd = None if target.base == UNKNOWN_DIR else target.base
            if symlinks and target.kind == "link":
                cwd = _link_directory(command, own, values, spec)
            found += _expanded(command, target, cwd, name)
    elif _reads_only(tables.readers.get(name), own, values, lambda word: chosen_elsewhere(word, command.state)) or (unwrapped is not None and unwrapped.own_words is not None):
        pass  # a reader, or a wrapper whose own words are options: what it runs is judged on its own
    else:
        found += _operands(command, own, values, name)
    if code_family(command.name) in WRITING_CODE_FAMILIES:  # code in their own language that can write files
        from .embedded import embedded_writes

        for target in embedded_writes(command):
            found += _expanded(command, target, command.cwd, name)
    return found


# -- pieces -----------------------------------------------------------------------------------------------

def _record(word: Word | None, value: str | None, cwd: str | None, how: str, state, *, recursive: bool = False, kind: str = "write") -> Written:
    prefix = None
    if value is None and word is not None and not word.raw.startswith("-"):  # an option's text is no path prefix
        prefix = _prefix_directory(word, state)
    return Written(word=word, value=value, cwd=cwd, how=how, recursive=recursive, kind=kind, prefix=prefix)


def _may_be_own_process(word: Word, state, cwd: str | None, home: str) -> bool:
    """A word only known at run time whose static beginning may lead into a process's own /proc directory: the
    shell's pid written `$$` or `$BASHPID` (review 37b: `/proc/$$/cwd/../..`; review 37c: `//proc/$$`, `"/proc"/$$`,
    `/./proc/$$`, `../../../../proc/$$`), also as an option's value (`--dir=/proc/$$`, `-sC/proc/$$`, `k=/proc/$$`).
    Its value is no path an unknown program may be given (an operand record with no value; WG406, a worker's WG701)."""
    starts: list[str] = []
    for prefix in _beginnings(word, state):
        if prefix:
            starts.append(prefix if not prefix.startswith("-") else prefix[prefix.find("/"):] if "/" in prefix else "")
            starts += [prefix.split("=", k + 1)[-1] for k in range(prefix.count("="))]
    for start in list(starts):
        if start.startswith("~"):  # bash expands it, at a word's start and after `=` (review 37d: `~/../../proc/$$`)
            expanded = expand_tilde(start[1:], state, home)
            if expanded is None:
                return True  # HOME only known at run time
            starts.append(expanded)  # and, quoted, it is a directory `~` (review 40b G5: `'~'/../../$Y`)
    for start in starts:
        if not start.startswith("/"):
            if cwd is None or not start:
                continue  # relative after a directory change the guard cannot follow: no place for any word here
            start = os.path.join(cwd, start)
        head, _, name = start.rpartition("/")
        if may_become_own_process(real(head or "/").rstrip("/") + "/" + name):
            return True
    return False


def _beginnings(word: Word, state) -> set[str | None]:
    """A run-time word's static beginnings: the quote-removed text before the first expansion, and (a quote still
    open there: `-o"/proc/$$/x"`, `"../../README$X.md"`) the text before the first `$` or backquote with every quote
    and backslash dropped."""
    crude = re.split(r"[$`]", word.raw, maxsplit=1)[0].replace('"', "").replace("'", "").replace("\\", "")
    return {shell_words.static_prefix(word.raw, state.lookup_word, word.unknown_from), crude}


def _run_time_operand(command: ShellCommand, word: Word, cwd: str | None, how: str) -> list[Written]:
    """An unknown program's word only known at run time: where it starts (`_run_time_beginnings`), and for a word
    holding `$"…"` also its untranslated text. bash translates `$"…"` through a message catalogue the guard does not
    read; the text as written is one reading (review 39e O4: `python3 x.py $"<main>/README.md"` was unread), any
    other is unknown as `$X` is."""
    found = _run_time_beginnings(command, word, cwd, how)
    if '$"' in word.raw:
        untranslated = replace(word, raw=word.raw.replace('$"', '"'), value=None)
        value, tilde = shell_words.word_value(untranslated.raw, command.state.lookup_word)
        if value is not None and tilde:
            value = expand_tilde(value, command.state, command.home)
        if value is None:
            found += _run_time_beginnings(command, untranslated, cwd, how)
        else:
            found += [Written(word=word, value=v, cwd=cwd, how=how, kind="operand") for v in path_candidates(value, cwd)]
            if too_many_parts(value):
                found.append(_unread_parts(word, cwd, how))
    return found


def _run_time_beginnings(command: ShellCommand, word: Word, cwd: str | None, how: str) -> list[Written]:
    """An unknown program's word only known at run time, as records with no value: one where it may become the
    shell's own /proc directory (`/proc/$$/cwd`, any place), else one per static directory it starts in (`prefix`:
    `../../../README$X.md` starts in `../../..`, also as an option's value, `--out=../../../$X`), which the shared
    boundary judges as a write target's static beginning is judged. A word whose beginning is itself only known at
    run time (`$D/x`) starts nowhere the guard can name and gives none."""
    if _may_be_own_process(word, command.state, cwd, command.home):
        return [Written(word=word, value=None, cwd=cwd, how=how, kind="operand")]
    directories: dict[str, None] = {}
    pattern = shell_words.glob_pattern(word.raw, command.state.lookup)
    beginnings = sorted(_beginnings(word, command.state) - {None})
    starts = [start for prefix in beginnings for start in path_candidates(prefix, cwd)]
    # an attached short option's value, a name it may complete (review 38c: `-oto-main$X/x`)
    starts += [prefix[2:] for prefix in beginnings if prefix[:1] == "-" and prefix[1:2] not in ("-", "") and "/" not in prefix[2:]]
    # a `~` bash expands (`~/project/$F`), as _may_be_own_process reads it; quoted, a directory `~` (review 40b G5:
    # `mkdir '~'; run.py '~'/../../../../README.md"$Y"` wrote main)
    tilded = [start for start in starts if start.startswith("~") and "/" in start]
    starts = [literal_tilde(expand_tilde(start[1:], command.state, command.home)) or "" if start in tilded else start for start in starts]
    if not shell_words.tilde_expands(word.raw):  # bash expands it at the word's start; else it may be a directory `~`
        starts += [literal_tilde(start) or "" for start in tilded]
    for start in starts:
        directory, _, partial = start.rpartition("/")
        if "/" in start:
            directory = directory or "/"
            directories[directory] = None
        elif not start:
            continue
        else:
            directory = "."
        if partial and not partial.strip(".") and pattern is None:
            # `..$X`, `.$X`: `..` when X is empty or `.` (review 38b); not a glob's `.` (`.[^.]*`: review 38c)
            directories[os.path.join(directory, "..")] = None
        elif partial:
            # a name it may complete that is a link's (`"to-ma$X"`: review 38b)
            links = _links_named(directory, glob.escape(partial) + "*", cwd, command.state.globs)  # `m[1]$X`: its text, no pattern (review 38d)
            if links is None:
                return [_too_many(word, cwd, how, directory)]
            directories.update(dict.fromkeys(links))
    # a glob before its first `/` may match a link's name (review 38b: `to-m*/x`, `*/x`; review 38c: `*/"$X"x`, `?o-main"$X"/x`)
    text = pattern if pattern is not None else _glob_text(word.raw)
    texts, found = [text], []
    if text.startswith("~") and "/" in text:  # `~+/to-m*`: bash expands it first (review 38e); quoted, it is `~` (40b G5)
        texts = [literal_tilde(expand_tilde(text[1:], command.state, command.home)) or ""] + ([literal_tilde(text) or ""] if not shell_words.tilde_expands(word.raw) else [])
    for text in texts:
        first = re.search(r"[*?[]", text)
        # the part holding the first glob, which may match a link's name (its last part too: `*-main`, review 38e), and
        # may go on at run time when the word does (`?o-main"$X"/x`)
        if first is not None:
            head, _, partial = text[: first.start()].rpartition("/")
            component: str | None = partial + text[first.start():].split("/", 1)[0] + ("*" if pattern is None and "/" not in text[first.start():] else "")
            directory = (head or "/") if "/" in text[: first.start()] else "."
            if globs_changed(command.state):
                # an option that changes what a glob matches (`nocaseglob`: TO-M*): any link's name; and `..` once
                # `shopt -u globskipdots` may be in force (`.?`) (review 39a)
                component = None
                if command.state.options & {"globskipdots", "*"}:
                    directories[os.path.join(directory, "..")] = None
            elif shell_words.fnmatch_misreads(word.raw):
                # `[[:alpha:]]o-main`: one character for a class (review 39a); an equivalence class or a collating
                # element may stand for more (bash matches `[[=e=]]` with `[e]`: phase 25, m40b): then any link
                component = None if re.search(r"\[[=.]", word.raw) else shell_words.brackets_widened(component)
            links = _links_named(directory, component, cwd, command.state.globs)
            if links is None:
                return [_too_many(word, cwd, how, directory)]
            directories.update(dict.fromkeys(links))
            if pattern is not None and "/" in text[first.start():]:
                # a word that only globs, with a glob in a directory part: every path it may stand for, whole (stop 40:
                # through W's link to the directory above main, `t*/repo/README.md` wrote main's README)
                paths = _glob_paths(text, cwd, command.state, word.raw)
                if paths is None:
                    return [_too_many(word, cwd, how, f"a directory its glob {text!r} goes through")]
                found += [Written(word=word, value=value, cwd=cwd, how=how, kind="operand") for path in paths for value in path_candidates(path, cwd)]
    if pattern is None:
        # a glob in a directory part before a run-time part: the directories it may stand for, as beginnings (review
        # 40a F8: `q?/repo/README.md"${X:+}"` with a link qb to the directory above main; 40b G4: `q?/$'repo'/…`; 40c
        # H2: after a `~`, `~+/q?/repo/README.md`)
        for directory_part in _glob_directories(word, command):
            if shell_words.has_glob_syntax(directory_part):
                paths = _glob_paths(directory_part, cwd, command.state, word.raw)
                if paths is None:
                    return [_too_many(word, cwd, how, f"a directory its glob {directory_part!r} goes through")]
                directories.update(dict.fromkeys(path for path in paths if path))
    return [Written(word=word, value=None, cwd=cwd, how=how, kind="operand", prefix=d) for d in directories] + found


def _glob_directories(word: Word, command: ShellCommand) -> list[str]:
    """The directory part of a run-time word's static text with its globs kept (`q?/repo` of `q?/repo/x"$X"`), as
    glob patterns; after a leading `~`, as bash expands it, and as a directory `~` where it does not."""
    lookup = command.state.lookup_word
    if not word.raw.startswith("~"):
        return [(shell_words.static_glob_prefix(word.raw, lookup) or "").rpartition("/")[0]]
    if not shell_words.tilde_expands(word.raw):
        # a directory `~` (review 40d I2: `~''/q?/…`, `~"x/"q?/…`): the word as written, from here
        return [(shell_words.static_glob_prefix("./" + word.raw, lookup) or "").rpartition("/")[0]]
    prefix, slash, rest = word.raw.partition("/")
    tail = shell_words.static_glob_prefix("/" + rest, lookup) if slash else None
    expanded = expand_tilde(prefix[1:], command.state, command.home)
    if tail is None or expanded is None:
        return []  # HOME only known at run time: `_may_be_own_process` refuses the word already
    return [(glob.escape(literal_tilde(expanded) or "") + tail).rpartition("/")[0]]


def _glob_paths(pattern: str, cwd: str | None, state, raw: str) -> list[str] | None:
    """The paths a glob pattern (`t*/repo/README.md`) may stand for, read as bash reads it: each part with a glob
    matched against the names in the directory the parts before lead to (on disk through links, those the steps before
    wrote there, and the links the command made there), the other parts as written; the pattern itself too (bash
    keeps it when nothing matches). Every name matches where a glob option is set or fnmatch would misread the part.
    None when a directory has more than MAX_LINK_ENTRIES entries."""
    work = state.globs
    everything = globs_changed(state) or shell_words.fnmatch_misreads(raw)
    made = current_made_links()
    made_here = [link for link, _ in made.below("/")] if made else []
    # a write only known at run time (None) names nothing here: only a link can lead a glob's path elsewhere, and a
    # link the guard cannot place is refused where it is made (`links.note_made_links`)
    written = [path[len(UNLISTED):] if path.startswith(UNLISTED) else path for path in state.written if path is not None]
    paths = ["/" if pattern.startswith("/") else ""]
    for part in pattern.split("/"):
        if not part:
            continue
        if not shell_words.has_glob_syntax(part):
            paths = [os.path.join(path, shell_words.unescape_glob(part)) for path in paths]
            continue
        matched: list[str] = []
        for path in paths:
            if cwd is None and not path.startswith("/"):
                return None
            names = []
            for place in _places(os.path.join(cwd or "/", path or ".")):
                if place not in work.names:
                    work.names[place], entries = _entry_names(place)
                    work.charge(entries // ENTRIES_PER_PATH)
                if work.names[place] is None:
                    return None
                # names the command makes there: a step before wrote them, or a link it made is below one (review 40a
                # F3: `mkdir d; ln -s <up> d/tb; run.py ?/tb/repo/README.md`)
                inside = place.rstrip("/") + "/"
                names += [*work.names[place], *(other[len(inside):].split("/", 1)[0] for other in [*made_here, *written] if other.startswith(inside))]
            if everything:
                names += [".", ".."]
            pattern_part = shell_words.bash_brackets(part)
            matched += [os.path.join(path, name) for name in dict.fromkeys(names) if name and (everything or fnmatch.fnmatchcase(name, pattern_part) and (part[:1] == "." or part[:3] == "[.]" or name[:1] != "."))]
        work.charge(len(matched))
        paths = matched
    return [*paths, shell_words.unescape_glob(pattern)]


def _places(path: str) -> list[str]:
    """Where `path` may lead: `real`'s reading, and each other reading of the links the command made (a link that may
    be its operand or a name in it: `rm -f t; ln -s . t`, review 40d)."""
    places = [real(path)]
    for reading in made_link_readings():
        with made_links_read_as(reading):
            places.append(real(path))
    return list(dict.fromkeys(places))


def _entry_names(place: str) -> tuple[list[str] | None, int]:
    """The names in the directory `place` ([] when it is not there or cannot be read: bash matches nothing there;
    None past MAX_LINK_ENTRIES entries), and how many entries were read."""
    names: list[str] = []
    try:
        with os.scandir(place) as entries:
            for entry in entries:
                names.append(entry.name)
                if len(names) > MAX_LINK_ENTRIES:
                    return None, len(names)
    except OSError:
        return [], len(names)
    return names, len(names)


def _too_many(word: Word, cwd: str | None, how: str, directory: str) -> Written:
    return Written(word=word, value=None, cwd=cwd, how=how, kind="operand", unplaced=f"{directory} has more than {MAX_LINK_ENTRIES} entries to read for the symlinks its name may be, or cannot be read")


def _glob_text(raw: str) -> str:
    """A run-time word's text before its first expansion as a glob pattern: quotes dropped (a quoted `*` counts as one,
    which matches more), a backslash's character escaped for fnmatch (`to\\-m*` is `to-m*` to bash: review 39a)."""
    text = re.split(r"[$`]", raw, maxsplit=1)[0].replace('"', "").replace("'", "")
    return re.sub(r"\\(.)", lambda escaped: glob.escape(escaped.group(1)), text, flags=re.DOTALL)


#: The entries `_links_named` reads at most for the symlinks among them (a name and its type each: no stat): past it, a
#: glob there may match any name, and its word is no place the guard can name (review 39a: past MAX_GLOB_ENTRIES
#: the directory itself was taken, W, and `*-main` beside 2,001 files wrote main).
MAX_LINK_ENTRIES = 100_000


def _links_named(directory: str, pattern: str | None, cwd: str | None, work: GlobWork) -> list[str] | None:
    """The symlinks in `directory` (relative to `cwd`) whose names match the glob `pattern` (a leading `.` only by a
    `.`, as bash matches; every one, dotted too, when `pattern` is None), as `directory/name`; none when it is not
    there; None when it has more than MAX_LINK_ENTRIES entries or cannot be read (any name may be one). Each directory is read once a
    command, its entries charged to the command's glob budget (review 39b: 40 words `big/N*$X` read 99,000 entries
    each, 11 s)."""
    if cwd is None and not directory.startswith("/"):
        return []
    place = real(os.path.join(cwd or "/", directory))
    if place not in work.links:
        work.links[place], entries = _symlink_names(place)
        work.charge(entries // ENTRIES_PER_PATH)
    links = work.links[place]
    if links is None:
        return None
    made = current_made_links()  # and the links the command made there (stop 40: `mkdir d; ln -s <up> d/t; … d/t$X/…`)
    if made:
        links = list(dict.fromkeys([*links, *(os.path.basename(link) for link, _ in made.below(place) if os.path.dirname(link) == place)]))
    pattern = None if pattern is None else shell_words.bash_brackets(pattern)
    return [os.path.join(directory, name) for name in links if pattern is None or fnmatch.fnmatchcase(name, pattern) and (pattern[:1] == "." or name[:1] != ".")]


def _symlink_names(place: str) -> tuple[list[str] | None, int]:
    """The names of the symlinks in `place` (None past MAX_LINK_ENTRIES entries, or when it cannot be read), and how
    many entries were read."""
    links: list[str] = []
    count = 0
    try:
        with os.scandir(place) as entries:
            for entry in entries:
                count += 1
                if count > MAX_LINK_ENTRIES:
                    return None, count
                if entry.is_symlink():
                    links.append(entry.name)
    except (FileNotFoundError, NotADirectoryError):
        return [], count  # nothing there (yet): no link on disk
    except OSError:
        return None, count  # unreadable: any name may be a link (stop 38's left)
    return links, count


def _prefix_directory(word: Word, state) -> str | None:
    """The static directory a dynamic path starts in (`/repo/src/{}` → `/repo/src`), when it has one."""
    prefix = shell_words.static_prefix(word.raw, state.lookup_word, word.unknown_from)
    if prefix is None or "/" not in prefix:
        return None
    directory = prefix[: prefix.rfind("/")] or "/"
    return directory


#: Writers for which a `-` they write is standard output (`tar -cf -`, `curl -o -`, `wget -O -`, `touch -`). For the
#: others it is a file named `-` where they run (phase 23, m38c: coreutils 9.1's `cp a -`, `tee -`, `sort -o -`, `dd
#: of=-` each wrote <checkout>/-, which a wave worker's `cp src/auth/a.py -` did not own and passed).
DASH_IS_STANDARD_OUTPUT = frozenset({"tar", "gtar", "bsdtar", "curl", "wget", "touch", "uniq", "iconv", "patch", "zip"})  # review 38c: the last four (not openssl: `-writerand -` writes a file `-`, review 38d)


def _expanded(command: ShellCommand, target: Target, cwd: str | None, name: str) -> list[Written]:
    """One target as records: the cwd marker, each match of a glob, or the path as given."""
    how = f"`{name}` ({target.how})" if target.value != CWD else f"`{name}` writing {target.how}"
    if target.kind == "operand":
        if target.value is None:
            # a run-time word: where it may be the shell's own /proc directory (review 37b) or where it starts
            return _run_time_operand(command, target.word, cwd, how) if target.word is not None else []
        found = [Written(word=target.word, value=v, cwd=cwd, how=how, kind="operand") for v in path_candidates(target.value, cwd)]
        if too_many_parts(target.value):
            found.append(_unread_parts(target.word, cwd, how))
        return found
    if target.value == CWD:
        return [Written(word=target.word, value=CWD, cwd=cwd, how=how, recursive=target.recursive, kind=target.kind, follows_links=target.follows_links)]
    if target.value is None and target.word is not None:
        matches = glob_values(target.word, command.state)
        if matches is not None:
            return [Written(word=target.word, value=m, cwd=cwd, how=how, recursive=target.recursive, kind=target.kind) for m in matches]
    if target.value == "-" and target.kind == "write" and os.path.basename(name) in DASH_IS_STANDARD_OUTPUT:
        return []  # standard output
    record = _record(target.word, target.value, cwd, how, command.state, recursive=target.recursive, kind=target.kind)
    if target.follows_links:
        record = replace(record, follows_links=True)
    return [record]


def _reads_only(entry: ReadOnly | None, own: list[Word], values: list[str | None], given) -> bool:
    """Whether a reader only reads: none of its `writes_with` options is given, also as a long option's prefix (stop
    31: `gawk --incl=inplace`), nor a word the command built that may be one (stop 30: `U=$(cat f); yq "$U" .a=1
    <main>/f` with U=-i)."""
    if entry is None:
        return False
    if not entry.writes_with:
        return True
    argv = parse_argv(own, values, WriteSpec())
    if built_words(argv, given):
        return False
    present = set(argv.options)
    return not (present & entry.writes_with) and not any(v is not None and long_option(v.partition("=")[0], entry.writes_with) in entry.writes_with for v in values)


def _operands(command: ShellCommand, own: list[Word], values: list[str | None], name: str) -> list[Written]:
    """An unknown program's words that can name a path: the word, or the value in `--opt=VALUE`, `key=VALUE`,
    or an attached short option's absolute value (`-o/repo/x`)."""
    from .powershell import is_powershell

    found: list[Written] = []
    how = f"`{name}`"
    powershell = is_powershell(os.path.basename(name))
    chained = os.path.basename(name) in CHAINED_DIRECTORY_PROGRAMS
    bases = _chained_bases(values[1:], command.cwd, CHAINED_DIRECTORY_PROGRAMS[os.path.basename(name)]) if chained else [(command.cwd, False)] * (len(values) - 1)
    for word, value, (base, moves) in zip(own[1:], values[1:], bases):
        # a directory option's value from the directory the options before it left; any other word from where the
        # program runs too (`make -C src -C ../../..`, `make -C src VAR=../../x`)
        for cwd in (base,) if moves and base is not None else dict.fromkeys((command.cwd, base)):  # review 38b: after `-C "$X"`, from the cwd as before
            if value is None:
                found += _run_time_operand(command, word, cwd, how)
                continue
            candidates = path_candidates(value, cwd)
            if powershell:
                candidates += [part for part in colon_value(value) if part not in candidates]
            for candidate in candidates:
                found.append(Written(word=word, value=candidate, cwd=cwd, how=how, kind="operand"))
            if too_many_parts(value):
                found.append(_unread_parts(word, cwd, how))
    return found


#: Programs whose `-C DIR`/`--directory=DIR` options add up, each read from the directory the one before left
#: (GNU make: `make -C src -C ..` runs here; review 38: `make -s -C src -C ../../../..` ran in main while each
#: value was read from the cwd), with their short options that take a value (a cluster ends at one).
CHAINED_DIRECTORY_PROGRAMS = {"make": "CfIoWEjlO", "gmake": "CfIoWEjlO"}


def _chained_bases(values: list[str | None], cwd: str | None, takes: str = CHAINED_DIRECTORY_PROGRAMS["make"]) -> list[tuple[str | None, bool]]:
    """For each word, the directory its relative text is read from, and whether it is a directory option (or its
    value): that one from the directory the options before it left, every other word from the last (None: a move the
    guard cannot follow). Options end at `--`."""
    befores: list[tuple[str | None, bool]] = []
    here, pending = cwd, None
    for value in values:
        if pending is not None:  # the value of the word before: True a directory's, False another option's
            befores.append((here, pending))
            here, pending = (_moved(here, value) if pending else here), None
            continue
        befores.append((here, False))
        if value == "--":
            pending = None
            break
        if value is None or not value.startswith("-") or value == "-":
            continue
        if value.startswith("--"):
            name, eq, rest = value.partition("=")
            if len(name) > 3 and "--directory".startswith(name):  # getopt_long takes `--dir=` (--debug, --dry-run: `--d`)
                befores[-1] = (here, True)
                here, pending = (_moved(here, rest), None) if eq else (here, True)
            continue
        for i, letter in enumerate(value[1:], 1):
            if letter in takes:
                rest = value[i + 1:]
                if letter == "C":
                    befores[-1] = (here, True)
                    here, pending = (_moved(here, rest), None) if rest else (here, True)
                elif not rest and letter in "fIoWE":
                    pending = False  # the next word is this option's value
                break
    return [(before if moves else here, moves) for before, moves in befores] + [(here, False)] * (len(values) - len(befores))


def _moved(here: str | None, value: str | None) -> str | None:
    """Where `-C value` moves from `here`, resolved as chdir does (links, then `..`: `-C to-main -C ..` is main's parent)."""
    value = literal_tilde(value)
    if value is None or (here is None and not value.startswith("/")):
        return None
    return real(os.path.join(here or "/", value))


def colon_value(value: str) -> list[str]:
    """PowerShell binds `-Name:value` as `-Name value` (a script's parameters too: its parser splits the word at
    the first `:`), so the value can name a path, as `--name=value` does for other programs."""
    from .powershell import DASHES

    if not value or value[0] not in DASHES or ":" not in value:
        return []
    rest = value.partition(":")[2]
    return [rest] if rest else []


def path_candidates(value: str, cwd: str | None = None) -> list[str]:
    """The paths a word can name: itself, the value of `--opt=V` or `key=V`, an attached `-o/abs`; and the parts a
    program may split it into (`_parts`). A part that is only a guess (an attached value after a cluster of flags, a
    piece of a word that is no option) counts where it leads out of where the program runs: absolute, dotted, or
    through a symlink (`make -sCto-main`, `src/lk/x` with `lk -> <main>`); `-Wall` gives no `all`, which a wave worker
    would not own, and `0.0.0.0:8000` no `8000`."""
    if not value or value == "-":
        return []
    sure, guessed = _parts(value)
    leading = [part for part in guessed if (part[:1] in "/." and part[:2] != "//") or (cwd is not None and _through_a_link(cwd, part))]  # `//`: a URL's host
    return list(dict.fromkeys(part for part in [*_first_reading(value), *sure, *leading] if part))


def _through_a_link(cwd: str, part: str) -> bool:
    """`part`, read from `cwd`, goes through a symlink (on disk, or one the command made): its kernel reading differs
    from its text's (`src/lk/x` with `lk -> <main>`, `src/../to-main/x`: review 39e)."""
    if part[:1] == "/":
        return False  # absolute: judged as such, or a URL's `//host`
    whole = os.path.join(real(cwd), part)
    return real(whole) != os.path.normpath(whole)


def _first_reading(value: str) -> list[str]:
    if value.startswith("-"):
        name, eq, rest = value.partition("=")
        if eq:
            return [rest] if rest else []
        if len(value) > 2 and value[1] != "-" and (value[2] in "/~." or "/" in value[2:] or value.endswith("..")):
            found = [value[2:]]  # `-o/x`, `-o../x`, `-Isub/dir`: an attached value that names a path
            # …or after a cluster of flags (review 31b: `ssh -qE/<main>/log`; review 38: `-qd..`): from the first `/`, `~` or `.`
            start = next((k for k in range(3, len(value)) if value[k] in "/~." and value[k - 1].isalpha()), None)
            if start is not None:
                found.append(value[start:])
            return found
        return []
    key, eq, rest = value.partition("=")
    if eq and key and (key.replace("_", "a").replace("-", "a").replace(".", "a").isalnum()) and rest:
        return [value, rest]
    return [value]


#: The parts of one word `_parts` reads at most (separated values, and attached values after a cluster of flags); a
#: word with more is no place the guard can name (`too_many_parts`: an unknown program given it is WG406).
MAX_WORD_PARTS = 256
#: The longest path the kernel opens (PATH_MAX): a longer part names no file (ENAMETOOLONG).
PATH_MAX = 4096
_SEPARATORS = re.compile(r"[=:,@]")
_PIECES = re.compile(r"[:,@]")
_EQUALS = re.compile(r"=")


def _parts(value: str) -> tuple[list[str], list[str]]:
    """What a program may split a word into and read as a path (phase 24, reviews m39b, m39c, 39d and 39e), as (the
    parts an option's syntax gives, the parts only guessed). Given: the text after each `=` (`--define=DIR=P`,
    `+define=DIR=P`), and in an option word each value between `=`, `:`, `,` and `@` (`gcc -Wl,-Map,P`,
    `-Xloggc:P`, `--out=@P`). Guessed: those pieces of a word that is no option (`x@P`, `out:P`), after a leading
    `@` (a response file), and for a short option every attached value after a cluster of flag letters (`make
    -sCto-main`, `-sC=lk`: getopt gives `=lk`). A leading `~` in them is bash's literal (it expands one only in an
    assignment word: `a=b=~/x` keeps it: `./~/x`)."""
    option = value[:1] in "-+"
    pieces = _PIECES.split(value)[1: MAX_WORD_PARTS + 1]  # after `=` the suffixes below hold them
    sure = [value[index + 1:] for index in [index for index, character in enumerate(value) if character == "="][:MAX_WORD_PARTS]]
    guessed: list[str] = []
    (sure if option else guessed).extend(pieces)
    if value[:1] == "@":
        guessed.append(value[1:])
    if option and value[1:2] not in ("-", ""):
        run = _flag_run(value)
        guessed += [value[k:] for k in range(2, min(run, MAX_WORD_PARTS) + 2)]

    def kept(parts: list[str]) -> list[str]:
        return [literal_tilde(part) or "" for part in parts if len(part) <= PATH_MAX]

    return kept(sure), kept(guessed)


def _flag_run(value: str) -> int:
    """How many letters and digits follow a short option's `-` (`-sCto-main`: 3): a cluster's flags and the start of an
    attached value."""
    run = 0
    while 1 + run < len(value) and value[1 + run].isalnum():
        run += 1
    return run


def _unread_parts(word: Word | None, cwd: str | None, how: str) -> Written:
    return Written(word=word, value=None, cwd=cwd, how=how, kind="operand", unplaced=f"a word of more than {MAX_WORD_PARTS} parts (values between `=`, `:` and `,`, or flags before an attached value), which are not all read")


def too_many_parts(value: str) -> bool:
    """A word with more parts than `_parts` reads (`MAX_WORD_PARTS`): what a program splits it into is not all read."""
    if len((_SEPARATORS if value[:1] in "-+" else _EQUALS).findall(value)) > MAX_WORD_PARTS:  # a word no option: `=` only
        return True
    return value[:1] == "-" and value[1:2] not in ("-", "") and _flag_run(value) > MAX_WORD_PARTS


def _symbolic(own: list[Word], values: list[str | None], spec: WriteSpec) -> bool:
    options = parse_argv(own, values, spec, abbreviations=spec.gnu_options and spec.abbreviations).options
    return bool({"-s", "--symbolic"} & set(options))


def _link_directory(command: ShellCommand, own: list[Word], values: list[str | None], spec: WriteSpec) -> str | None:
    """Where `ln -s` makes its links: a symlink's relative target is resolved from there, as the kernel does."""
    argv = parse_argv(own, values, spec, abbreviations=spec.gnu_options and spec.abbreviations)
    if {"-r", "--relative"} & set(argv.options):
        # `ln -sr T L`: ln computes T relative to the link from T as given, which is taken from the cwd.
        return command.cwd
    directories = argv.options.get("-t", []) + argv.options.get("--target-directory", [])
    if directories:
        link_dir = directories[-1][1]
    elif len(argv.operands) > 1:
        last = argv.operands[-1][1]
        if last is None:
            link_dir = None
        elif last.endswith("/") or (command.cwd and os.path.isdir(os.path.join(command.cwd, last))):
            link_dir = last
        else:
            link_dir = os.path.dirname(last) or "."
    else:
        link_dir = "."
    if link_dir is None or (command.cwd is None and not link_dir.startswith("/")):
        return None
    return os.path.join(command.cwd or "/", link_dir)
