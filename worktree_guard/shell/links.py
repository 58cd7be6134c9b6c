"""The symlinks a simple command makes, for the words after it (SPEC §2: a path is placed where the kernel will
open it).

A path is placed by resolving the symlinks on disk (`paths.real`). A link the command makes itself is not on disk
yet when the command is judged, so a later word through it was read as if its name were a plain directory: `ln -s
/tmp t; echo x > t/../work/main/README.md` wrote the main checkout while the guard read W/work/main/README.md
(stop 38's review 38c). `note_made_links` reads each simple command that makes one, after it is judged, into the
walk's `paths.MadeLinks`; `paths.real` then reads them as it reads the links on disk.

Read here: `ln -s` (and its `-t`, `-T`, `-n`, `-r`), and a link copied or moved as a link (`cp -P`/`-d`/`-a`/`-R`,
`mv`), one on disk or one the command made. Not read (docs/bash.md): links an archive, a patch, `rsync -l` or a
program's own code makes, and the links below a directory copied with `-R`.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..paths import MadeLinks, current_made_links, real
from .programs import CP_COPIES_LINKS, CP_LONGS, long_option, parse_argv

if TYPE_CHECKING:
    from .programs import ParsedArgv, WriteSpec
    from .steps import ShellCommand
    from .written import ProgramTables

#: GNU ln 9.1's long options, for their unique prefixes (`--sym`, `--no-t`).
LN_LONGS = (
    "--backup", "--directory", "--force", "--interactive", "--logical", "--no-dereference", "--no-target-directory",
    "--physical", "--relative", "--suffix", "--symbolic", "--target-directory", "--verbose", "--help", "--version",
)


def note_made_links(command: ShellCommand, tables: ProgramTables, made: MadeLinks, written_before: list[str | None]) -> None:
    """Add the symlinks `command` makes to `made` (nothing for a command that makes none, or whose cwd is unknown:
    its relative words are refused already). `written_before`: the canonical paths the steps before it wrote
    (`ShellState.written` as it was), which may have made its last operand a directory."""
    name = command.name
    if name not in ("ln", "cp", "mv"):
        return
    spec = tables.writers.get(name)
    if spec is None:
        return  # a plugin took the program out of the write table: it is an unknown program, judged as one
    own = command.words
    if command.unwrapped is not None and command.unwrapped.own_words is not None:
        own = own[: command.unwrapped.own_words]
    values = [command.value(word) for word in own]
    argv = parse_argv(own, values, spec, abbreviations=spec.gnu_options and spec.abbreviations)
    if any(value is None for _, value in argv.operands):
        return  # an operand only known at run time: the call is refused already (WG403)
    if command.cwd is None and not all(value.startswith("/") for value in _paths(argv)):
        return  # a relative word after a directory change the guard cannot follow: refused already (WG403)
    step = (command.cwd, tuple(word.span for word in own), tuple(values))
    if step in made.steps:
        return  # read on an earlier walk of the command (`rules.bash.analyse`), before its own link was known
    made.steps.add(step)
    if name == "ln":
        _ln(command, argv, made, written_before)
    else:
        _copied_links(command, name, argv, made, written_before)


def _paths(argv: ParsedArgv) -> list[str]:
    """The operands and the target directories given (`-t`), none of them unknown (`note_made_links` checked)."""
    directories = [value for option, found in argv.options.items() if option in ("-t", "--target-directory") or option.startswith("--t") for _, value in found]
    return [value or "" for _, value in argv.operands] + [value or "" for value in directories]


def _given(argv: ParsedArgv, longs: tuple[str, ...]) -> set[str]:
    return {long_option(option, longs) if option.startswith("--") else option for option in argv.options}


def _values(argv: ParsedArgv, longs: tuple[str, ...], *names: str) -> list[str | None]:
    return [value for option, found in argv.options.items() if (long_option(option, longs) if option.startswith("--") else option) in names for _, value in found]


def _ln(command: ShellCommand, argv: ParsedArgv, made: MadeLinks, written_before: list[str | None]) -> None:
    given = _given(argv, LN_LONGS)
    if not {"-s", "--symbolic"} & given:
        return  # a hard link: to a file, never a directory a later word goes through
    cwd = command.cwd or "/"  # every word is absolute when it is not known (note_made_links)
    relative = bool({"-r", "--relative"} & given)
    sources = [value for _, value in argv.operands]

    def text(source: str) -> str:
        # `ln -sr T L` computes the link's text from T as given, so it leads to T read from the cwd; a plain `ln -s`
        # writes T as it is, read from the link's directory (`_resolved` reads it as it reads a link on disk)
        return os.path.join(cwd, source) if relative else source

    directories = _values(argv, LN_LONGS, "-t", "--target-directory")
    if directories:
        if directories[-1] is None:
            return
        for source in sources:
            _add_inside(made, cwd, directories[-1], source, text(source))
        return
    if len(sources) == 1:
        _add_inside(made, cwd, ".", sources[0], text(sources[0]))  # `ln -s T`: the link T's name, in the cwd
        return
    if len(sources) < 2:
        return
    destination, sources = sources[-1], sources[:-1]
    assert destination is not None
    if {"-T", "--no-target-directory"} & given:
        made.add(_place(cwd, destination), text(sources[0]))
        return
    if len(sources) > 1:
        for source in sources:
            _add_inside(made, cwd, destination, source, text(source))
        return
    source = sources[0]
    assert source is not None
    _into_or_as(command, destination, _name(source), text(source), made, written_before, no_dereference=bool({"-n", "--no-dereference"} & given))


def _copied_links(command: ShellCommand, name: str, argv: ParsedArgv, made: MadeLinks, written_before: list[str | None]) -> None:
    """`cp -P`/`-d`/`-a`/`-R` and `mv` of a symlink make a new link with the same text (a relative one read from where
    the new link is: `_resolved` reads it so)."""
    if name == "cp":
        given = _given(argv, CP_LONGS)
        follows = {"-L", "--dereference"} & given and not {"-P", "--no-dereference", "-d", "-a", "--archive"} & given
        if not CP_COPIES_LINKS & given or follows:
            return
        longs = CP_LONGS
    else:
        given, longs = _given(argv, ()), ()
    cwd = command.cwd or "/"
    directories = _values(argv, longs, "-t", "--target-directory")
    sources = [value for _, value in argv.operands]
    if not directories:
        if len(sources) < 2:
            return
        destination, sources = sources[-1], sources[:-1]
    for source in sources:
        assert source is not None
        text = _link_text(cwd, source)
        if text is None:
            continue
        if directories:
            if directories[-1] is not None:
                _add_inside(made, cwd, directories[-1], source, text)
        elif len(sources) > 1 or destination.endswith("/"):
            _add_inside(made, cwd, destination, source, text)
        elif {"-T", "--no-target-directory"} & given:
            made.add(_place(cwd, destination), text)
        else:
            _into_or_as(command, destination, _name(source), text, made, written_before, no_dereference=False)


def _link_text(cwd: str, source: str) -> str | None:
    """The text of the symlink `source` names (one the command made first), None when it names none."""
    if source.endswith("/"):
        return None  # `lnk/` names the directory it leads to: copied or moved as one
    place = _place(cwd, source)
    made = current_made_links()
    if made is not None:
        for links in (made.links, made.as_link, made.as_directory):
            if place in links:
                return links[place]
    try:
        return os.readlink(place)
    except OSError:
        return None


def _into_or_as(command: ShellCommand, destination: str, name: str, text: str, made: MadeLinks, written_before: list[str | None], *, no_dereference: bool) -> None:
    """One source and a last operand: the link is made inside it if it is a directory when the command runs (through a
    link too, unless `-n`), else it is the operand itself. A directory now, or nothing there that the command may have
    made before, decides; else both readings are kept (`touch d; ln -sf /tmp d`, `mkdir d; ln -s /tmp d`)."""
    cwd = command.cwd or "/"
    place = _place(cwd, destination)
    if destination.endswith("/") or (os.path.isdir(real(place)) and not (no_dereference and _is_link(place))):
        if name:
            made.add(_place(cwd, os.path.join(destination, name)), text)
    elif os.path.lexists(place) or not _written_at_or_above(written_before, real(place)):
        made.add(place, text)
    else:
        made.add_either(place, name, text)


def _written_at_or_above(written: list[str | None], physical: str) -> bool:
    """A step before wrote `physical` or a directory above it (`mkdir d`, `cp -r x d`), or somewhere only known at
    run time: it may be a directory when the link is made."""
    return any(path is None or path == "/" or physical == path or physical.startswith(path + "/") for path in written)


def _is_link(place: str) -> bool:
    made = current_made_links()
    return os.path.islink(place) or (made is not None and (place in made.links or place in made.as_link))


def _name(source: str) -> str:
    """The name a link to `source` gets in a directory: its last component (`/tmp/` → `tmp`; none for `/`, `.` and
    `..`, where ln makes nothing: that name is the directory itself or its parent)."""
    name = os.path.basename(source.rstrip("/"))
    return "" if name in (".", "..") else name


def _add_inside(made: MadeLinks, cwd: str, directory: str, source: str, text: str) -> None:
    name = _name(source)
    if name:
        made.add(_place(cwd, os.path.join(directory, name)), text)


def _place(cwd: str, path: str) -> str:
    """Where the link `path` is made: its directory as the kernel reads it, its own name as written."""
    whole = os.path.join(cwd, path)
    directory, name = os.path.split(whole.rstrip("/") or "/")
    if name in ("", ".", ".."):
        return real(whole)
    return os.path.join(real(directory or "/"), name)
