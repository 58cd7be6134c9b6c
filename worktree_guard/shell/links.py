"""The symlinks a simple command makes, for the words after it (SPEC §2: a path is placed where the kernel will
open it).

A path is placed by resolving the symlinks on disk (`paths.real`). A link the command makes itself is not on disk
yet when the command is judged, so a later word through it was read as if its name were a plain directory: `ln -s
/tmp t; echo x > t/../work/main/README.md` wrote the main checkout while the guard read W/work/main/README.md
(stop 38's review 38c). `note_made_links` reads each simple command that makes one, after it is judged, into the
walk's `paths.MadeLinks`; `paths.real` then reads them as it reads the links on disk.

Read here (GNU coreutils 9.1): `ln -s` (with `-t`, `-T`, `-n`, `-r`); a link copied or moved as one, on disk or
made before: `cp -P`/`-d`/`-a`/`-R`, `mv`, and a hard link to it (`ln`, `link`: on Linux a hard link to a symlink is
one); the links below a directory moved, or copied with `-R`/`-a`; `cp --parents`; a glob as an operand (what it
matches now, and what the command wrote before); and the backup that `-b`/`--backup`/`-S` keeps of a link replaced
(`a~`, `a.~1~`; `install -b` too). Not read (docs/bash.md): links an archive, a patch, `rsync -l` or a program's own
code makes. A tree of more than MAX_TREE_ENTRIES entries, or one holding a directory the guard cannot read, is refused
(WG403): the links it brings are not known.
"""

from __future__ import annotations

import contextlib
import glob
import os
from typing import TYPE_CHECKING

from ..paths import MadeLinks, made_link_readings, made_links_read_as, real
from .builtins import at_or_above
from .programs import CP_COPIES_LINKS, CP_LONGS, long_option, parse_argv
from .steps import glob_values, written_matches

if TYPE_CHECKING:
    from .programs import ParsedArgv
    from .steps import ShellCommand
    from .written import ProgramTables

#: GNU ln 9.1's long options, for their unique prefixes (`--sym`, `--no-t`).
LN_LONGS = (
    "--backup", "--directory", "--force", "--interactive", "--logical", "--no-dereference", "--no-target-directory",
    "--physical", "--relative", "--suffix", "--symbolic", "--target-directory", "--verbose", "--help", "--version",
)
#: GNU mv 9.1's and install's long options that place or back up what they write.
MV_LONGS = ("--backup", "--force", "--interactive", "--no-clobber", "--no-target-directory", "--strip-trailing-slashes", "--suffix", "--target-directory", "--update", "--verbose", "--context")
INSTALL_LONGS = ("--backup", "--compare", "--directory", "--group", "--mode", "--no-target-directory", "--owner", "--preserve-timestamps", "--strip", "--strip-program", "--suffix", "--target-directory", "--verbose", "--context")
LONGS = {"ln": LN_LONGS, "cp": CP_LONGS, "mv": MV_LONGS, "install": INSTALL_LONGS, "link": ()}
#: The entries below a directory moved or copied that are read for the symlinks among them; past it, the links it
#: brings are not known, and the call is refused (WG403).
MAX_TREE_ENTRIES = 100_000

Record = list[tuple[str, str, str]]


def note_made_links(command: ShellCommand, tables: ProgramTables, made: MadeLinks, written_before: list[str | None]) -> str | None:
    """Add the symlinks `command` makes to `made` (nothing for a command that makes none, or whose words are not
    known: it is refused already). `written_before`: the canonical paths the steps before it wrote
    (`ShellState.written` as it was), which may have made its last operand a directory or removed one. Returns why
    the links it makes cannot be placed, when they cannot (the caller refuses the call: WG403)."""
    name = command.name
    if name not in LONGS:
        return
    spec = tables.writers.get(name)
    if spec is None:
        return  # a plugin took the program out of the write table: it is an unknown program, judged as one
    own = command.words
    if command.unwrapped is not None and command.unwrapped.own_words is not None:
        own = own[: command.unwrapped.own_words]
    values = [command.value(word) for word in own]
    argv = parse_argv(own, values, spec, abbreviations=spec.gnu_options and spec.abbreviations)
    read, unplaced = _operands(command, argv.operands, written_before, "last operand")
    if read is None:
        return unplaced  # an operand only known at run time: the call is refused already (WG403), or here
    operands, globbed = read
    given = {long_option(option, LONGS[name]) if option.startswith("--") else option for option in argv.options}
    targets = [(word, value) for option, found in argv.options.items() if (long_option(option, LONGS[name]) if option.startswith("--") else option) in ("-t", "--target-directory") for word, value in found]
    directories: list[str] = []
    if targets:
        # the last `-t` (ln, cp and mv refuse two); a glob there is its matches (review 39c: `ln -s /tmp -t d*`)
        word, value = targets[-1]
        if value is not None:
            directories = [value]
        elif word is None:
            return None
        else:
            read, unplaced = _operands(command, [(word, value)], written_before, "`-t` directory")
            if read is None:
                return unplaced
            directories = read[0][0]
    cwd = command.cwd
    if cwd is None:
        if not all(value.startswith("/") for value in [*(v for values in operands for v in values), *directories]):
            return  # a relative word after a directory change the guard cannot follow: refused already (WG403)
        cwd = "/"
    step = (cwd, tuple(word.span for word in own), tuple(values))
    before = made.steps.get(step, [])
    record: Record = []
    reading = _Reading(command, name, cwd, argv, given, directories, operands, globbed, written_before, made, record)
    with made.without(before):  # read again on a later walk (`rules.bash.analyse`): as if its own links were not there
        reading.read()
    made.steps[step] = before + [entry for entry in record if entry not in before]
    return reading.unplaced


def _operands(command: ShellCommand, operands: list, written_before: list[str | None], what: str) -> tuple[tuple[list[list[str]], bool] | None, str | None]:
    """Each operand's values: its own, or a glob's matches now and the paths the steps before wrote that it matches
    (review 39b: `mkdir xd; ln -s /tmp x*` made xd/tmp); and whether the last one is a glob. None when one is only
    known at run time (refused already), with a reason when that is a glob's (refused here)."""
    found: list[list[str]] = []
    globbed = False
    before = command.state.copy()
    before.written = list(written_before)
    for index, (word, value) in enumerate(operands):
        globbed = value is None
        if value is not None:
            found.append([value])
            continue
        matches = glob_values(word, command.state)
        if matches is None:
            return None, None
        written = written_matches(word, before)
        if written is None and index == len(operands) - 1:
            return None, f"`{command.name}`'s {what} {word.raw!r} is a glob in a directory the command wrote before under names worktree-guard does not know: where it makes its links is only known at run time"
        found.append(list(dict.fromkeys([*matches, *(written or ())])))
    return (found, globbed), None


class _Reading:
    """One step's links: where each operand lands (`_landings`), what it makes there, and its backups."""

    def __init__(self, command: ShellCommand, name: str, cwd: str, argv: ParsedArgv, given: set[str], directories: list[str], operands: list[list[str]], globbed: bool, written_before: list[str | None], made: MadeLinks, record: Record) -> None:
        self.command, self.name, self.cwd, self.argv, self.given = command, name, cwd, argv, given
        self.directories, self.operands, self.globbed, self.written_before, self.made, self.record = directories, operands, globbed, written_before, made, record

    def read(self) -> None:
        """What the step makes, in each reading of the links made before it (review 39b F8: `{ sleep 1; ln -s /tmp
        d/l; } & ln -s src d` makes src/l once d is the link the other step makes)."""
        self.pending: list[tuple[str, str | None, str]] = []
        self.unplaced: str | None = None
        for reading in [None, *made_link_readings()]:
            with contextlib.nullcontext() if reading is None else made_links_read_as(reading):
                self._read()
        for place, either, text in self.pending:  # after every reading: none of them sees the step's own links
            if either is None:
                self.made.add(place, text, self.record)
            else:
                self.made.add_either(place, either, text, self.record)

    def _read(self) -> None:
        name, given = self.name, self.given
        symbolic = name == "ln" and bool({"-s", "--symbolic"} & given)
        if name == "install" and {"-d", "--directory"} & given:
            return  # it makes directories: none is a link
        # `-L` follows links unless a -P/-d/-a beside it came last, which is not kept: read as kept (review 39c: `cp -rLP`)
        follows = bool({"-L", "--dereference"} & given) and not {"-P", "--no-dereference", "-d", "-a", "--archive"} & given
        copies_links = name == "cp" and bool(CP_COPIES_LINKS & given) and not follows
        trees = name == "mv" or (name == "cp" and bool({"-R", "-r", "--recursive", "-a", "--archive"} & given) and not follows)
        for source, landing in self._landings():
            if symbolic:
                text: list[str] = [os.path.join(self.cwd, source)] if {"-r", "--relative"} & given else [source]
            elif name in ("mv", "link") or copies_links or (name == "ln" and not ({"-L", "--logical"} & given and not {"-P", "--physical"} & given)):
                text = self._link_texts(source)  # a link moved, copied, or hard-linked (a symlink on Linux) as one
            else:
                text = []
            for place, either in landing:
                self._backups(place)
                self.pending += [(place, either, value) for value in text]
            if trees and not text:
                self._tree(source, landing)

    # -- where each operand lands --------------------------------------------------------------------------------

    def _landings(self) -> list[tuple[str, list[tuple[str, str | None]]]]:
        """(source, [(place, None)] where the place is known, or [(operand, name)] where it is the operand or the
        name in it: `MadeLinks.add_either`), per source value."""
        operands, given = self.operands, self.given
        name_of = self._name
        if self.directories:  # each value a glob there may have (`-t d*`)
            return [(source, [(self._place(os.path.join(directory, name_of(source))), None) for directory in self.directories]) for values in operands for source in values if name_of(source)]
        if len(operands) == 1:
            if self.name != "ln":
                return []  # cp/mv/install/link need two
            return [(source, [(self._place(name_of(source)), None)]) for source in operands[0] if name_of(source)]
        if len(operands) < 2:
            return []
        destinations, sources = operands[-1], [source for values in operands[:-1] for source in values]
        found: list[tuple[str, list[tuple[str, str | None]]]] = []
        for source in sources:
            landing: list[tuple[str, str | None]] = []
            for destination in destinations:
                if {"-T", "--no-target-directory"} & given:
                    landing.append((self._place(destination), None))
                elif len(sources) > 1 or len(operands) > 2:
                    if name_of(source):
                        landing.append((self._place(os.path.join(destination, name_of(source))), None))
                else:
                    landing += self._into_or_as(destination, name_of(source), self.globbed)
            found.append((source, landing))
        return found

    def _into_or_as(self, destination: str, name: str, globbed: bool) -> list[tuple[str, str | None]]:
        """One source and a last operand: the link is made inside it if it is a directory when the command runs
        (through a link too, unless `-n`), else it is the operand itself. A directory now, or a file or nothing there
        now, decides, unless a step before wrote it or above it (`mkdir d`, `touch d`, `rmdir d`, `mv d e`: review
        39b), or the operand is a glob's match: then both readings are kept."""
        place = self._place(destination)
        if destination.endswith("/"):
            return [(self._place(os.path.join(destination, name)), None)] if name else []
        if globbed or at_or_above(self.written_before, real(place)):
            return [(place, name)]
        no_dereference = bool({"-n", "--no-dereference"} & self.given) and self.name == "ln"
        if os.path.isdir(real(place)) and not (no_dereference and self._is_link(place)):
            return [(self._place(os.path.join(destination, name)), None)] if name else []
        return [(place, None)]

    def _name(self, source: str) -> str:
        """The name a source gets in a directory: its last component (`/tmp/` → `tmp`; none for `/`, `.` and `..`,
        where nothing is made); with `cp --parents`, its whole path (review 39b: `cp -P --parents src/l d` makes
        d/src/l)."""
        if self.name == "cp" and "--parents" in self.given:
            return source.strip("/")
        name = os.path.basename(source.rstrip("/"))
        return "" if name in (".", "..") else name

    def _place(self, path: str) -> str:
        """Where `path` is made: its directory as the kernel reads it, its own name as written."""
        whole = os.path.join(self.cwd, path)
        directory, name = os.path.split(whole.rstrip("/") or "/")
        if name in ("", ".", ".."):
            return real(whole)
        return os.path.join(real(directory or "/"), name)

    # -- what is made there ---------------------------------------------------------------------------------------

    def _link_texts(self, source: str) -> list[str]:
        """The texts the symlink `source` names may hold (made by the command, or on disk); none when it names none
        (`lnk/` names the directory it leads to)."""
        if source.endswith("/"):
            return []
        return _texts(self.made, self._place(source))

    def _is_link(self, place: str) -> bool:
        return os.path.islink(place) or bool(self.made.texts(place))

    def _backups(self, place: str) -> None:
        """A link replaced where backups are asked for (`-b`, `--backup`, `-S`) is kept under the backup's name: the
        simple one (`~`, `-S`'s, SIMPLE_BACKUP_SUFFIX's) and the next numbered ones (review 39b: `mv -bT b a` left
        `a~`, a link to where `a` led)."""
        given = self.given
        if not {"-b", "--backup", "-S", "--suffix"} & given:
            return
        texts = _texts(self.made, place)
        if not texts:
            return
        suffixes = [value for option, found in self.argv.options.items() if (long_option(option, LONGS[self.name]) if option.startswith("--") else option) in ("-S", "--suffix") for _, value in found]
        present, suffix = self.command.env("SIMPLE_BACKUP_SUFFIX")
        if present:
            suffixes.append(suffix)
        if None in suffixes:
            # review 39c: `-S "$(echo .o)"`, `-S .[o]`: the backup of a link has a name only known at run time
            self.unplaced = f"`{self.name}` keeps a backup of the link {place} under a suffix only known at run time"
            return
        names = [place + suffix for suffix in [*suffixes, "~"] if suffix and "/" not in suffix]
        numbered = len(glob.glob(glob.escape(place) + ".~*~")) + sum(1 for path, _ in self.made.below(os.path.dirname(place)) if path.startswith(place + ".~"))
        names += [f"{place}.~{number}~" for number in range(1, numbered + 2)]
        self.pending += [(name, None, text) for name in names for text in texts]

    def _tree(self, source: str, landing: list[tuple[str, str | None]]) -> None:
        """A directory moved or copied whole brings the symlinks below it (review 39b: `mkdir d; ln -s /tmp d/l; mv d e`
        made e/l): those the command made, and those on disk (up to MAX_TREE_ENTRIES entries)."""
        # a link with a trailing `/` is the directory it leads to, copied whole (phase 25, m40a: `cp -r ld/ e` brought
        # the links below it unread)
        top = real(os.path.join(self.cwd, source)) if source.endswith("/") else self._place(source)
        below = self.made.below(top)
        if not below and not (os.path.isdir(top) and not os.path.islink(top)):
            return
        if top not in self.made.trees:
            self.made.trees[top] = _disk_links(top)  # the disk does not change while the command is judged
        on_disk = self.made.trees[top]
        if on_disk is None:
            self.unplaced = f"`{self.name}` moves or copies the directory {top}, which holds more than {MAX_TREE_ENTRIES} entries or one worktree-guard cannot read: the symlinks it brings are not known"
            return
        below += on_disk
        for place, either in landing:
            roots = [place] if either is None else [place, os.path.join(place, either)]
            self.pending += [(root + path[len(top):], None, text) for root in roots for path, text in below]


def _texts(made: MadeLinks, place: str) -> list[str]:
    texts = list(made.texts(place))
    try:
        on_disk = os.readlink(place)
    except OSError:
        return texts
    return texts + [on_disk] if on_disk not in texts else texts


def _disk_links(top: str) -> list[tuple[str, str]] | None:
    """The symlinks below the directory `top` on disk, with their texts; None past MAX_TREE_ENTRIES entries, or when a
    directory or link below it cannot be read (unknown: they may hold links)."""
    if not os.path.isdir(top) or os.path.islink(top):
        return []  # no directory there (yet): only the links the command made below it
    found: list[tuple[str, str]] = []
    seen = 0
    pending = [top]
    try:
        while pending:
            with os.scandir(pending.pop()) as entries:
                for entry in entries:
                    seen += 1
                    if seen > MAX_TREE_ENTRIES:
                        return None
                    if entry.is_symlink():
                        found.append((entry.path, os.readlink(entry.path)))
                    elif entry.is_dir(follow_symlinks=False):
                        pending.append(entry.path)
    except OSError:
        return None
    return found
