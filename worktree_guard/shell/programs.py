"""Programs and what they do with their operands (SPEC §5.2 "writes", "the shared boundary is default-deny"): data,
extended by plugins.

A `WriteSpec` says which arguments of a program are files it writes (or links to). `written_targets(spec, words,
values)` reads an argv the way GNU-style option parsing does and returns them. A `ReadOnly` entry says a program
only reads its operands. A program with neither entry is unknown: every operand of it that names a path in a
shared checkout counts as written (WG406). `shell/written.py` puts the tables together for one command.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from ..fast_dataclass import fast_dataclass, field
from .ast import Word
from .words import has_unquoted_expansion, may_be_option

# One written target: the word that names it (None when implied), its static value (None when dynamic),
# or the marker CWD for "the directory the program runs in".
CWD = "\0cwd"
#: `Target.base` for a directory only known at run time.
UNKNOWN_DIR = "\0unknown"


@fast_dataclass(frozen=True, slots=True)
class Target:
    """One written target; `recursive` when the program reaches everything below it (`rm -r`, `find -delete`)."""

    word: Word | None
    value: str | None
    how: str
    recursive: bool = False
    #: "write": the program writes the path; "link": it makes a link to it (a hard link, or a symlink's target),
    #: through which a later write reaches it.
    kind: str = "write"
    #: The directory a relative value is taken from, when it is not the command's cwd (`git -C d`); UNKNOWN_DIR
    #: when only known at run time.
    base: str | None = None
    #: Writes below the target follow the symlinks already there (extracting an archive): a link that leaves W
    #: sends them elsewhere.
    follows_links: bool = False


@fast_dataclass(frozen=True, slots=True)
class WriteSpec:
    """How a program names the files it writes.

    operands: which operands are written — "all", "last" (the destination), "none".
    value_options: options that take a separate value (`-m 644`); `--opt=value` is understood for any option.
    optional_value_options: short options whose value may only be attached (`sed -i.bak`).
    target_options: options whose value is a written path (`-t DIR`, `-o FILE`).
    sources_with: options that turn every operand into a source (`cp -t DIR a b`).
    all_with: options that make every operand written (`install -d a b`).
    only_with: the program writes its operands only when one of these options is given (`sed -i`).
    not_with: the program writes nothing when one of these options is given (`gzip -c`, `unzip -l`).
    first_is_not_a_file: the first operand is a script, mode or owner (`sed 's/a/b/' f`, `chmod 644 f`)…
    unless_with: …unless one of these options supplied it (`sed -e 's/a/b/' f`, `chmod --reference=r f`).
    key_value: `key=` prefixes of operands that name written files (`dd of=f`).
    writes_cwd: with no target option given, the program writes into its working directory (`wget URL`).
    recursive_with: options that make the program reach everything below each target (`rm -r`, `chmod -R`).
    links_sources: the operands that are not written are linked to (`ln`, `link`)…
    link_with: …or are when one of these options is given (`cp -l`, `cp -s`).
    backup_options: options whose (attached) value is a backup suffix (`sed -i.bak`, `perl -i'bak/*'`): a `*` in it
        stands for the file's name and a `/` makes it a path, so the backup is written there.
    unread_operands: the operands the row does not write are not files it reads either (curl's and wget's URLs):
        any of them that names a path counts as given to an unknown program (WG406 at the shared boundary).
    custom: a function for programs no table row can describe (tar); it gets the argv values.
    gnu_options: the program reads options anywhere before `--`, so a word only known at run time there may be any
        of them (`cp "$U" src/x` with U=`--target-directory=<main>`): what it writes is then not known; and it takes
        a long option's unique prefix for it (`long_option`). False for a row whose custom function reads the words
        itself (find's expression, Python's argv).

    Every option a row names is declared; the value attached to an option it does not name (`--stderr=F`,
    `--libcurl=F`) is not known to be read, so it counts as given to an unknown program (WG406 at the shared
    boundary): a row that misses an output is not an escape.
    """

    operands: str = "all"
    value_options: frozenset[str] = frozenset()
    optional_value_options: frozenset[str] = frozenset()
    target_options: frozenset[str] = frozenset()
    sources_with: frozenset[str] = frozenset()
    all_with: frozenset[str] = frozenset()
    only_with: frozenset[str] = frozenset()
    not_with: frozenset[str] = frozenset()
    first_is_not_a_file: bool = False
    unless_with: frozenset[str] = frozenset()
    key_value: tuple[str, ...] = ()
    writes_cwd: bool = False
    recursive_with: frozenset[str] = frozenset()
    links_sources: bool = False
    link_with: frozenset[str] = frozenset()
    backup_options: frozenset[str] = frozenset()
    unread_operands: bool = False
    custom: Callable[[list[Word], list[str | None]], list[Target]] | None = field(default=None, compare=False)
    gnu_options: bool = True
    #: The program takes a unique prefix of a long option for it (getopt_long); False for rsync (popt: exact names).
    abbreviations: bool = True
    #: Options without a value that the row's custom function reads (`tar --create`): declared so that their
    #: abbreviations are read as them (`long_option`).
    flags: frozenset[str] = frozenset()
    #: Options naming a file (or stdin) that lists more operands (`xz --files=F`, `zstd --filelist F`): what the
    #: program writes is then only known at run time.
    list_options: frozenset[str] = frozenset()
    #: Options that make it write a file into its working directory named by what it fetches (`curl -O`).
    cwd_with: frozenset[str] = frozenset()
    #: Options a custom reader takes as making it write, or write elsewhere (`tar --create`, `--directory`): an
    #: abbreviation may be read as one of them (`_writing`).
    write_flags: frozenset[str] = frozenset()
    #: For programs whose writes depend on more than the argv (git: `-C`, `GIT_INDEX_FILE`): gets the ShellCommand.
    command_writes: Callable[[Any], list[Target]] | None = field(default=None, compare=False)
    #: For a row whose targets the command's environment or one option's value moves (mktemp's TMPDIR, curl's
    #: `--output-dir`): gets the ShellCommand, the argv read with this row and its targets, and returns the targets.
    amend: Callable[[Any, ParsedArgv, list[Target]], list[Target]] | None = field(default=None, compare=False)


@fast_dataclass(slots=True)
class ParsedArgv:
    """An argv split into options (name → list of (word, value)) and operands (word, value). `option_like`: the
    words only known at run time, read where an option may stand and not as another option's value, that may start
    with `-` (`"$U"`): the program may read any of its options there."""

    options: dict[str, list[tuple[Word | None, str | None]]]
    operands: list[tuple[Word, str | None]]
    dynamic_option: bool = False
    option_like: list[Word] = field(default_factory=list)


def long_option(name: str, names: frozenset[str] | tuple[str, ...]) -> str:
    """A long option as getopt_long reads it: `--x…` that is none of `names` but begins one or more of them is the
    first of those (stop 31: `tar --direc=<main> -x`, `sed --in-pl`, `cp --t=<main>` wrote there). getopt_long takes
    a unique prefix for the option and refuses a prefix of several, so any reading of the latter is safe. Read wrongly:
    a word that is exactly, or only begins, an option `names` leaves out; `parse_argv` passes only the writing
    options, and tests/shell/test_long_options.py checks the rows against each installed program's help."""
    if not name.startswith("--") or len(name) < 3 or name in names:
        return name
    matches = sorted(option for option in names if option.startswith(name))
    return matches[0] if matches else name


def parse_argv(words: list[Word], values: list[str | None], spec: WriteSpec, abbreviations: bool = False) -> ParsedArgv:
    """GNU-style option parsing of words[1:]: clusters (`-abc`), `--name=value`, `--` ends options. `abbreviations`:
    a word that is no option the spec declares but begins one that makes the program write (`_writing`) is that
    option (`long_option`): never one that makes it write less or takes the next word as a mere value (review 31a:
    curl's `--head` read as `--header` took `-o<main>/x` as its value), and a row declares each option of its
    program that begins a writing one (git's `switch --force` is no `--force-create`, wget's `--hsts` no
    `--hsts-file`)."""
    options: dict[str, list[tuple[Word | None, str | None]]] = {}
    operands: list[tuple[Word, str | None]] = []
    takes_value = spec.value_options | spec.target_options
    declared: frozenset[str] | None = None
    i = 1
    dynamic_option = False
    option_like: list[Word] = []
    while i < len(words):
        word, value = words[i], values[i]
        i += 1
        if value is None:
            if word.raw.startswith("-"):
                dynamic_option = True  # `-$x`: an option we cannot read
            if may_be_option(word.raw):
                option_like.append(word)
            operands.append((word, value))
            continue
        if value == "--":
            operands.extend(zip(words[i:], values[i:]))
            break
        if value.startswith("--") and len(value) > 2:
            name, eq, attached = value.partition("=")
            if abbreviations and name not in takes_value:
                declared = _declared(spec) if declared is None else declared
                if name not in declared:
                    name = long_option(name, _writing(spec))
            if eq:
                options.setdefault(name, []).append((word, attached))
            elif name in takes_value and i < len(words):
                options.setdefault(name, []).append((words[i], values[i]))
                i += 1
            else:
                options.setdefault(name, []).append((word, None))
            continue
        if value.startswith("-") and len(value) > 1:
            j = 1
            while j < len(value):
                name = "-" + value[j]
                rest = value[j + 1:]
                if name in takes_value:
                    if rest:
                        options.setdefault(name, []).append((word, rest))
                    elif i < len(words):
                        options.setdefault(name, []).append((words[i], values[i]))
                        i += 1
                    else:
                        options.setdefault(name, []).append((word, None))
                    break
                if name in spec.optional_value_options:
                    options.setdefault(name, []).append((word, rest or None))
                    break
                options.setdefault(name, []).append((word, None))
                j += 1
            continue
        operands.append((word, value))
    return ParsedArgv(options, operands, dynamic_option, option_like)


def written_targets(spec: WriteSpec, words: list[Word], values: list[str | None], inherited: Callable[[Word], bool] | None = None, given: Callable[[Word], bool] | None = None) -> list[Target]:
    """The files (or the cwd) a program with this spec writes, given its argv. A word only known at run time that
    bash splits (`cp $U`, `find x $U`, `dd if=${Y#x}`) may be any number of words, options among them: what the
    program writes is then not known (review 25a: `cp $U` counted one operand and no destination). Not for a word
    `inherited` says the agent's environment gave (`find $DIR -type f`): the command did not build it. `given` says
    which words the command cannot make an option (`steps.chosen_elsewhere`; `inherited` when not given)."""
    given = given or inherited
    splits = any(value is None and has_unquoted_expansion(word.raw) and not (inherited is not None and inherited(word)) for word, value in zip(words[1:], values[1:]))
    unknown = [Target(words[0], None, "words only known at run time, which bash splits (options among them)")] if splits else []
    argv = parse_argv(words, (tar_values(values) or values) if spec.custom is _tar else values, spec, abbreviations=spec.gnu_options and spec.abbreviations)
    if spec.gnu_options and not splits:
        built = built_words(argv, given)
        if built:
            unknown = [Target(words[0], None, f"{built[0].raw}, only known at run time, may be any of its options (`-t DIR`, `--output=F`)")]
    if spec.custom is _find and built_words(argv, given):
        unknown = unknown + _find_option_like(words, values, built_words(argv, given))
    if spec.custom is not None:
        return spec.custom(words, values) + unknown
    present = set(argv.options)
    if spec.only_with and not (present & spec.only_with):
        return unknown  # a word only known at run time may be one of them (`sed -e p "$U" f`, U=-i)
    if present & spec.not_with:
        return unknown
    targets: list[Target] = []
    for option in spec.target_options & present:
        for word, value in argv.options[option]:
            targets.append(Target(word, value, option))
    for option in present:
        if any(option.startswith(listing) for listing in spec.list_options):  # zstd takes `--filelists` (review 31b)
            targets.extend(Target(word, None, f"the files {option} lists") for word, _ in argv.options[option])
    for option in spec.cwd_with & present:
        # named after what it fetches, which may be any name (`.git`, `-t..`): review 31a
        targets.extend(Target(word, CWD, f"{option} names its file after the URL, in the current directory") for word, _ in argv.options[option])
    operands = list(argv.operands)
    if spec.key_value:
        import re

        for word, value in operands:
            if value is None:
                # review 30a: `dd "of=$U"` (the key quoted), and `dd -- … "$U"` (`--` ends no key): a word that may
                # start with a key is that key's
                key = re.match(r"[A-Za-z_]+=", word.raw.lstrip("'\""))
                if key is None or key.group() in spec.key_value:
                    targets.append(Target(word, None, key.group() if key else "a word only known at run time, which may be of="))
                continue
            for key in spec.key_value:
                if value.startswith(key):
                    targets.append(Target(word, value[len(key):], key))
        return targets + unknown
    if spec.first_is_not_a_file and not (present & spec.unless_with) and operands:
        operands = operands[1:]
    if spec.all_with & present or spec.operands == "all":
        chosen = operands
    elif spec.sources_with & present:
        chosen = []
    elif spec.operands == "last":
        chosen = operands[-1:] if len(operands) > 1 else []
        if len(operands) == 1 and spec.writes_cwd:
            targets.append(Target(operands[0][0], CWD, "into the current directory"))
    else:
        chosen = []
    targets.extend(Target(word, value, "operand") for word, value in chosen)
    if spec.backup_options & present:
        targets += _backups(spec, argv, chosen)
    if spec.unread_operands:
        targets.extend(Target(word, value, "an operand it does not read", kind="operand") for word, value in operands if (word, value) not in chosen)
    targets += _undeclared_values(spec, argv)
    if spec.links_sources or present & spec.link_with:
        if spec.sources_with & present or (spec.operands == "last" and len(operands) == 1):
            sources = operands  # `ln -t DIR a b`, or `ln a`: the link goes in the current directory
        else:
            sources = operands[:-1] if spec.operands == "last" else []
        targets.extend(Target(word, value, "a link to it", kind="link") for word, value in sources)
    if spec.writes_cwd and not (spec.target_options & present) and spec.operands == "none":
        targets.append(Target(None, CWD, "into the current directory"))
    if argv.dynamic_option and not targets:
        targets.append(Target(words[0], None, "an option only known at run time"))
    targets += unknown
    if spec.recursive_with & present:
        targets = [Target(t.word, t.value, t.how, recursive=True, kind=t.kind, base=t.base) for t in targets]
    return targets


def built_words(argv: ParsedArgv, inherited: Callable[[Word], bool] | None) -> list[Word]:
    """The argv's words that may be options (`ParsedArgv.option_like`) and that the command built: not a value the
    agent's environment gave (`"$HOME"`, `"$1"` of the agent's shell), which the command cannot choose."""
    return [word for word in argv.option_like if not (inherited is not None and inherited(word))]


def _writing(spec: WriteSpec) -> frozenset[str]:
    """The options that make the program write, or write more: the ones an abbreviation may be read as."""
    return (spec.target_options | spec.list_options | spec.all_with | spec.only_with | spec.recursive_with | spec.link_with
            | spec.backup_options | spec.unless_with | spec.sources_with | spec.cwd_with | spec.write_flags)


def _declared(spec: WriteSpec) -> frozenset[str]:
    return (spec.value_options | spec.target_options | spec.optional_value_options | spec.sources_with | spec.all_with | spec.only_with
            | spec.not_with | spec.unless_with | spec.recursive_with | spec.link_with | spec.backup_options | spec.flags | spec.list_options
            | spec.cwd_with | spec.write_flags)


def _undeclared_values(spec: WriteSpec, argv: ParsedArgv) -> list[Target]:
    """Values attached to options the row does not name (`--stderr=F`): not known to be read, so given (WG406)."""
    declared = _declared(spec)
    return [
        Target(word, value, f"the value of {name}, an option it has no row for", kind="operand")
        for name, given in argv.options.items() if name not in declared
        for word, value in given if value is not None and word is not None
    ]


def backup_names(suffix: str, file: str) -> list[str]:
    """Where a backup with this suffix goes (GNU sed, perl -i): `*` is the file's name (sed: its base name, perl: as
    given), without `*` the suffix is appended; a name without `/` lies beside the file."""
    if "*" not in suffix:
        return [file + suffix]
    names = []
    for stem in (os.path.basename(file), file):
        name = suffix.replace("*", stem)
        if "/" not in name:
            name = os.path.join(os.path.dirname(file), name)
        if name not in names:
            names.append(name)
    return names


def _backups(spec: WriteSpec, argv: ParsedArgv, files: list[tuple[Word, str | None]]) -> list[Target]:
    """The backups an in-place edit writes when its suffix holds a `*` or a `/` (`sed -i'../*'` writes ../FILE)."""
    targets: list[Target] = []
    for option in spec.backup_options:
        for word, suffix in argv.options.get(option, []):
            if suffix is None or not ("*" in suffix or "/" in suffix):
                continue
            for file_word, file in files:
                if file is None:
                    targets.append(Target(word, None, f"the backup {option}{suffix} of a file only known at run time"))
                    continue
                targets.extend(Target(word, name, f"the backup {option}{suffix} of {file}") for name in backup_names(suffix, file))
    return targets


_XZ_NAMES = frozenset({"xz", "unxz", "lzma", "unlzma"})
_ZSTD_NAMES = frozenset({"zstd", "unzstd"})
_TAR_VALUES = frozenset({
    "-f", "--file", "-C", "--directory", "-T", "--files-from", "-X", "--exclude-from", "-b", "--blocking-factor", "-H", "--format",
    "--exclude", "--transform", "--xform", "--owner", "--group", "--mode", "--mtime", "-N", "--newer", "--newer-mtime", "--label",
    "-V", "--to-command", "--checkpoint-action", "-I", "--use-compress-program", "--strip-components", "--index-file", "-g",
    "--listed-incremental", "--suffix", "-L", "--tape-length", "-F", "--info-script", "--new-volume-script", "--rmt-command",
    "--rsh-command", "--volno-file", "--record-size", "--sort", "--occurrence", "--quoting-style", "--hole-detection",
})
#: tar options that put extracted members somewhere their names do not say.
_TAR_ELSEWHERE = ("-P", "--absolute-names", "--transform", "--xform")
_TAR_CREATING = frozenset({"-c", "--create", "-r", "--append", "-u", "--update", "-A", "--catenate", "--concatenate"})
_TAR_EXTRACTING = frozenset({"-x", "--extract", "--get"})
#: `--checkpoint` (its value only attached) begins `--checkpoint-action`: declared, it is not read as that
_TAR_SPEC = WriteSpec(
    value_options=_TAR_VALUES,
    flags=frozenset({"--to-stdout", "--checkpoint", "--list"}),
    write_flags=_TAR_CREATING | _TAR_EXTRACTING | frozenset({
        "--remove-files", "--absolute-names", "--directory", "--file", "--files-from", "--index-file", "--listed-incremental",
        "--volno-file", "--transform", "--xform",
    }),
)


def tar_values(values: list[str | None]) -> list[str | None] | None:
    """Old-style `tar czf out.tgz dir`: the first word is a cluster whose value-taking letters consume the next words
    in order, each one (`tar xfC a.tar <main>` is `-x -f a.tar -C <main>`: review 30a); read as `-cz`, `-fout.tgz`.
    None when a word one of them consumes is only known at run time."""
    if not (len(values) > 1 and values[1] and not values[1].startswith("-") and values[1].isalpha()):
        return values
    out = list(values)
    flags = []
    k = 2
    for letter in values[1]:
        if "-" + letter not in _TAR_VALUES:
            flags.append(letter)
        elif k < len(values):
            if values[k] is None:
                return None
            out[k] = "-" + letter + values[k]  # type: ignore[operator]
            k += 1
    out[1] = "-" + "".join(flags) if flags else "--old-style"
    return out


def _tar(words: list[Word], values: list[str | None]) -> list[Target]:
    """tar writes its archive when creating (-c/-r/-u/-A) and files when extracting (-x), under -C or the cwd.

    Creating with --remove-files deletes what it archives; --index-file, -g and --volno-file are outputs.
    Extracting writes below the directory, following the symlinks already there (`follows_links`); with -P,
    or names rewritten by --transform, members go anywhere (WG403).
    """
    spec = _TAR_SPEC
    read = tar_values(values)
    if read is None:
        return [Target(words[1], None, "old-style options whose values are only known at run time")]
    values = read
    argv = parse_argv(words, values, spec, abbreviations=True)
    present = set(argv.options)
    creating = bool(present & _TAR_CREATING)
    extracting = bool(present & _TAR_EXTRACTING)
    directories = argv.options.get("-C", []) + argv.options.get("--directory", [])
    targets: list[Target] = []
    for option in ("--index-file", "-g", "--listed-incremental", "--volno-file"):
        targets.extend(Target(word, value, option) for word, value in argv.options.get(option, []))
    if creating:
        for option in ("-f", "--file"):
            for word, value in argv.options.get(option, []):
                if value != "-":
                    targets.append(Target(word, value, "archive"))
        if "--remove-files" in present:
            for word, value in argv.operands:
                bases = [d for _, d in directories] or ["."]
                for base in bases:
                    joined = None if value is None or base is None else os.path.join(base, value)
                    targets.append(Target(word, joined, "--remove-files deletes it", recursive=True))
            for word, value in argv.options.get("-T", []) + argv.options.get("--files-from", []):
                targets.append(Target(word, None, "--remove-files deletes the files it lists"))
    if extracting and not present & {"-O", "--to-stdout", "--to-command"}:  # these hand members to stdout or a command
        for word, _ in argv.options.get("-T", []) + argv.options.get("--files-from", []):
            targets.append(Target(word, None, "the list it reads may hold `-C <dir>` lines, where it then extracts"))
        for option in _TAR_ELSEWHERE:
            for word, _ in argv.options.get(option, []):
                targets.append(Target(word, None, f"{option} puts members where their names do not say"))
        if directories:
            targets.extend(Target(word, value, "extract into", recursive=True, follows_links=True) for word, value in directories)
        else:
            targets.append(Target(None, CWD, "extract into the current directory", recursive=True, follows_links=True))
    return targets


_UNZIP_VALUES = frozenset({"-x", "-P", "-d"})


def _unzip(words: list[Word], values: list[str | None]) -> list[Target]:
    """unzip extracts into -d or the cwd, following the symlinks already there; `-:` lets `../` members out (WG403)."""
    spec = WriteSpec(value_options=_UNZIP_VALUES)
    argv = parse_argv(words, values, spec)
    present = set(argv.options)
    if present & {"-l", "-t", "-p", "-v", "-z", "-Z", "-c"}:
        return []
    targets = [Target(word, None, "-: lets members with `../` out") for word, _ in argv.options.get("-:", [])]
    directories = argv.options.get("-d", [])
    if directories:
        targets.extend(Target(word, value, "extract into", recursive=True, follows_links=True) for word, value in directories)
    else:
        targets.append(Target(None, CWD, "extract into the current directory", recursive=True, follows_links=True))
    return targets


#: find's options before its starting points (`find -L -O3 -D tree DIR`); -D takes a value.
_FIND_LEADING = ("-H", "-L", "-P")


def find_start(values: list[str | None]) -> int:
    """The index of find's first starting point, after its leading options (-H, -L, -P, -O<n>, -D debugopts)."""
    i = 1
    while i < len(values):
        value = values[i]
        if value in _FIND_LEADING or (value is not None and value.startswith("-O") and value[2:].isdigit()):
            i += 1
        elif value == "-D":
            i += 2
        else:
            break
    return i


def find_roots(words: list[Word], values: list[str | None]) -> tuple[list[tuple[Word | None, str | None]], int]:
    """find's starting points as (word, value) and the index where its expression starts. `-files0-from F` reads them
    from a file: one starting point only known at run time."""
    roots: list[tuple[Word | None, str | None]] = []
    i = find_start(values)
    while i < len(values) and (values[i] is None or not values[i].startswith(("-", "(", "!"))):  # type: ignore[union-attr]
        roots.append((words[i], values[i]))
        i += 1
    for k in range(i, len(values) - 1):
        if values[k] == "-files0-from":
            roots.append((words[k + 1], None))
    return roots, i


def _find(words: list[Word], values: list[str | None]) -> list[Target]:
    """find deletes under its starting points with -delete and writes -fprint* files."""
    targets: list[Target] = []
    roots, i = find_roots(words, values)
    rest = values[i:]
    if "-delete" in rest:
        targets.extend(Target(w, v, "-delete", recursive=True) for w, v in roots or [(None, ".")])
    for j in range(i, len(values) - 1):
        if values[j] in ("-fprint", "-fprint0", "-fprintf", "-fls"):
            targets.append(Target(words[j + 1], values[j + 1], values[j]))
    return targets


_PATCH_VALUES = frozenset({"-p", "-i", "--input", "-d", "--directory", "-r", "--reject-file", "-z", "--suffix", "-B", "--prefix", "-Y", "--basename-prefix", "-F", "--fuzz", "-o", "--output", "-D", "--ifdef", "-V", "--version-control", "--backup-if-mismatch", "--quoting-style", "--merge"})


#: find's primaries (and options) that take words after them as their arguments, and how many (GNU findutils 4.9).
_FIND_ARGUMENTS = {
    **dict.fromkeys((
        "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname", "-ilname",
        "-type", "-xtype", "-size", "-perm", "-user", "-group", "-uid", "-gid", "-links", "-inum", "-samefile", "-newer",
        "-anewer", "-cnewer", "-atime", "-ctime", "-mtime", "-amin", "-cmin", "-mmin", "-used", "-fstype", "-context",
        "-maxdepth", "-mindepth", "-regextype", "-printf", "-fprint", "-fprint0", "-fls", "-files0-from", "-D",
    ), 1),
    "-fprintf": 2,
}


def _find_option_like(words: list[Word], values: list[str | None], built: list[Word]) -> list[Target]:
    """A word only known at run time in find's starting points or expression, read in order (a primary's arguments
    skipped, `-exec`'s words up to its `;` or `+` too), may be any primary (stop 30): `-delete` removes below every
    starting point (those before it, those `-files0-from` reads, or the cwd), `-fprint` writes the next word,
    `-exec`/`-ok` run the words after it up to a `;` or `+` (a literal one, or a word only known at run time that ends
    in an expansion)."""
    import re

    ids = {id(word) for word in built}
    k = find_start(values)
    while k < len(values):
        value = values[k]
        if value in ("-exec", "-execdir", "-ok", "-okdir"):
            while k < len(values) and values[k] not in (";", "+"):
                k += 1
            k += 1
            continue
        if value in _FIND_ARGUMENTS:
            k += 1 + _FIND_ARGUMENTS[value]
            continue
        if id(words[k]) not in ids:
            k += 1
            continue
        later = list(zip(words[k + 1:], values[k + 1:]))
        if any(v in (";", "+") or (v is None and re.search(r"(\$[A-Za-z_0-9@*#?!$-]+|\}|\)|`)[\"]*$", w.raw)) for w, v in later):
            return [Target(words[k], None, f"{words[k].raw}, only known at run time, may be -exec (the words after it are then run)")]
        roots, _ = find_roots(words, values)
        roots = [(w, v) for w, v in roots if w is not words[k]]
        how = f"{words[k].raw}, only known at run time, may be -delete"
        targets = [Target(w, v, how, recursive=True) for w, v in roots or [(None, CWD)]]
        # after it the expression is not known: any later word only known at run time may be -fprint too (review 30c)
        fprinted = later[:1] + [later[j + 1] for j in range(len(later) - 1) if later[j][1] is None]
        return targets + [Target(w, v, f"{words[k].raw}, only known at run time, may be -fprint") for w, v in fprinted]
    return []


#: `--backup` and `--version` begin options it declares (`--backup-if-mismatch`, `--version-control`)
_PATCH_SPEC = WriteSpec(value_options=_PATCH_VALUES, flags=frozenset({"--backup", "--version"}), write_flags=frozenset({"--output", "--directory", "--reject-file", "--prefix", "--basename-prefix", "--suffix"}))


def _patch(words: list[Word], values: list[str | None]) -> list[Target]:
    """patch writes the file it is given (`patch f x.diff`), -o's file, or the files of the diff under -d or the cwd;
    and -r's reject file, and backups named by -B/--prefix (a path prefix), -Y and -z."""
    argv = parse_argv(words, values, _PATCH_SPEC, abbreviations=True)
    extra: list[Target] = []
    for option in ("-r", "--reject-file"):
        extra.extend(Target(word, value, option) for word, value in argv.options.get(option, []) if value != "-")
    for option in ("-B", "--prefix", "-Y", "--basename-prefix", "-z", "--suffix"):
        for word, value in argv.options.get(option, []):
            if value is None or "/" in value:
                directory = None if value is None or option in ("-Y", "--basename-prefix", "-z", "--suffix") else (value if value.endswith("/") else os.path.dirname(value))
                extra.append(Target(word, directory, f"backups named by {option}", recursive=True))
    outputs = argv.options.get("-o", []) + argv.options.get("--output", [])
    if outputs:
        return extra + [Target(word, value, "-o") for word, value in outputs]
    if argv.operands:
        word, value = argv.operands[0]
        return extra + [Target(word, value, "the file to patch")]
    directories = argv.options.get("-d", []) + argv.options.get("--directory", [])
    if directories:
        return extra + [Target(word, value, "-d", recursive=True) for word, value in directories]
    return extra + [Target(None, CWD, "the files of the diff, under the current directory", recursive=True)]


_ZIP_VALUES = frozenset(("-b", "--temp-path", "-n", "--suffixes", "-P", "--password", "-t", "--from-date", "-tt", "--before-date", "-x", "--exclude", "-i", "--include", "-Z", "--compression-method", "-TT", "--unzip-command", "-O", "--output-file", "-s", "--split-size", "-lf", "--logfile-path", "--dot-size"))


_ZIP_PAIRS = {"-lf": "--logfile-path", "-la": "--log-append", "-li": "--log-info", "-tt": "--before-date", "-TT": "--unzip-command", "-sp": "--split-pause", "-sb": "--split-bell", "-sv": "--split-verbose", "-sf": "--show-files", "-su": "--show-unicode", "-ws": "--wild-stop-dirs", "-ll": "--from-crlf", "-FS": "--filesync", "-MM": "--must-match", "-UN": "--unicode", "-df": "--datafork", "-db": "--display-bytes", "-dc": "--display-counts", "-dd": "--display-dots", "-dg": "--display-globaldots", "-ds": "--dot-size", "-du": "--display-usize", "-dv": "--display-volume", "-nw": "--no-wild", "-sc": "--show-command", "-so": "--show-options", "-ic": "--case-insensitive"}
_ZIP_SPEC = WriteSpec(value_options=_ZIP_VALUES, flags=frozenset({"--show-files"}), write_flags=frozenset({"--move", "--output-file", "--temp-path", "--logfile-path", "--names-stdin"}))


def _zip(words: list[Word], values: list[str | None]) -> list[Target]:
    """zip writes its archive (the first operand, or -O's file; -b's directory holds the temporary one); the files it
    is given are read, unless -m/--move deletes them once archived."""
    spec = _ZIP_SPEC
    # zip's two-letter short options, which a cluster reading takes letter by letter (review 31a: `-lf <main>/log`)
    values = [_ZIP_PAIRS.get(value, value) if value is not None else None for value in values]
    argv = parse_argv(words, values, spec, abbreviations=True)
    present = set(argv.options)
    if present & {"-sf", "--show-files"} and not present & {"-m", "--move"}:
        return []
    targets: list[Target] = []
    for option in ("-O", "--output-file", "-b", "--temp-path", "-lf", "--logfile-path"):
        targets.extend(Target(word, value, option) for word, value in argv.options.get(option, []))
    if argv.operands:
        word, value = argv.operands[0]
        targets.append(Target(word, value, "the archive"))
        if present & {"-m", "--move"}:
            targets.extend(Target(w, v, "-m deletes it once archived", recursive=True) for w, v in argv.operands[1:])
            # `-@` reads the names of more files from stdin (stop 31: `zip -m a.zip -@ < list` deleted them)
            targets.extend(Target(w, None, "-m deletes the files -@ reads from its input", recursive=True) for w, _ in argv.options.get("-@", []) + argv.options.get("--names-stdin", []))
    return targets


#: `python -m MODULE` runs whose reads and writes are known: json.tool reads its first operand and writes its second.
_PYTHON_VALUES = frozenset({"-c", "-m", "-W", "-X", "--check-hash-based-pycs"})


def _python(words: list[Word], values: list[str | None]) -> list[Target]:
    """Python runs code the guard does not read, so every word naming a path is given to an unknown program (WG406
    at the shared boundary) — except `python -m json.tool IN [OUT]`, which reads IN and writes OUT."""
    argv = parse_argv(words, values, WriteSpec(value_options=_PYTHON_VALUES))
    modules = argv.options.get("-m", [])
    if modules and modules[-1][1] == "json.tool" and not argv.options.get("-c"):
        after = [k for k, w in enumerate(words) if w is modules[-1][0]]
        start = (after[0] + 1) if after else len(words)
        rest = parse_argv([words[0], *words[start:]], [values[0], *values[start:]], WriteSpec(value_options=_frozen("--indent")))
        targets = [Target(w, v, "json.tool's output") for w, v in rest.operands[1:2]]
        return targets + [Target(w, v, "an operand of json.tool", kind="operand") for w, v in rest.operands[2:]]
    return [Target(w, v, "given to the Python program", kind="operand") for w, v in zip(words[1:], values[1:])]


def _openssl(words: list[Word], values: list[str | None]) -> list[Target]:
    """openssl's known outputs are written; the values of the options known to be read pass; any other word naming a
    path is given to an unknown program (a row that misses an output, like -writerand, is not an escape)."""
    targets: list[Target] = []
    skip = False
    for i in range(1, len(values)):
        if skip:
            skip = False
            continue
        value, word = values[i], words[i]
        name = None if value is None else value.partition("=")[0]
        attached = value is not None and "=" in value and value.startswith("-")
        if name in _OPENSSL_OUTPUTS:
            if attached:
                targets.append(Target(word, value.partition("=")[2], name))  # type: ignore[union-attr]
            elif i + 1 < len(values):
                targets.append(Target(words[i + 1], values[i + 1], name))
                skip = True
        elif name in _OPENSSL_READS and not attached:
            skip = True
        else:
            targets.append(Target(word, value, "given to openssl", kind="operand"))
    return targets


#: openssl options whose value is a file it writes, and options whose value it reads (or is not a path).
_OPENSSL_OUTPUTS = frozenset({"-out", "-keyout", "-signkey_out", "-writerand", "-sigout", "-certout", "-reqout", "-sess_out", "-keylogfile", "-CAserial"})
_OPENSSL_READS = frozenset({
    "-in", "-inkey", "-key", "-signkey", "-CAfile", "-CApath", "-CAstore", "-cert", "-certfile", "-config", "-rand", "-passin", "-passout",
    "-CA", "-CAkey", "-verify", "-prverify", "-sigfile", "-signature", "-untrusted", "-trusted", "-chainCAfile", "-verifyCAfile",
    "-extfile", "-extensions", "-name", "-section", "-subj", "-days", "-newkey", "-pkeyopt", "-sigopt", "-inform", "-outform",
    "-keyform", "-certform", "-CAform", "-CAkeyform", "-digest", "-md", "-engine", "-provider", "-propquery", "-pass", "-k", "-kfile",
    "-iv", "-K", "-S", "-iter", "-connect", "-servername", "-host", "-port", "-set_serial", "-sess_in", "-nameopt",
    "-certopt", "-checkend", "-algorithm", "-pkeyopt", "-cipher", "-ciphersuites", "-alpn", "-starttls", "-verify_hostname",
    "-verify_ip", "-verify_email", "-purpose", "-macopt", "-mac", "-kdfopt", "-kdf", "-keylen", "-saltlen",
    "-peerkey", "-keyid", "-peerform", "-crlfile", "-CRL", "-CRLform", "-dhparam", "-paramfile",
})


def _second_operand(words: list[Word], values: list[str | None], value_options: frozenset[str], only_with: frozenset[str]) -> list[Target]:
    """`ptx -G IN OUT`: with one of `only_with`, the second operand is the output (the others are read)."""
    argv = parse_argv(words, values, WriteSpec(value_options=value_options))
    if not set(argv.options) & only_with:
        return []
    return [Target(word, value, "the output") for word, value in argv.operands[1:2]]


def _tidy(words: list[Word], values: list[str | None]) -> list[Target]:
    """tidy writes -o/-output's file and -f/-file's error file; with -m/-modify it rewrites its operands."""
    spec = WriteSpec(value_options=_frozen("-config", "--config", "-o", "-output", "--output-file", "-f", "-file", "--error-file", "-access", "-indent-spaces", "-wrap", "-language", "-lang", "-xml-config"))
    argv = parse_argv(words, values, spec)
    targets = [Target(w, v, o) for o in ("-o", "-output", "--output-file", "-f", "-file", "--error-file") for w, v in argv.options.get(o, [])]
    for i, value in enumerate(values[:-1]):
        if value in ("-output", "-file"):
            targets.append(Target(words[i + 1], values[i + 1], value))
    if {"-m", "-modify", "--modify"} & set(argv.options) or "-modify" in values:
        targets.extend(Target(w, v, "-m rewrites it") for w, v in argv.operands)
    return targets


#: pdftotext's options that take a value (poppler 22.12's `pdftotext -h`; review 32c: `-colspacing` was missing).
_PDFTOTEXT_VALUES = frozenset({"-f", "-l", "-r", "-x", "-y", "-W", "-H", "-enc", "-eol", "-opw", "-upw", "-fixed", "-colspacing"})


def _pdftotext(words: list[Word], values: list[str | None]) -> list[Target]:
    """`pdftotext IN [OUT]` writes OUT, or IN with `.txt` for `.pdf` beside IN. Its options are whole words with one
    dash (poppler's parseargs), never clusters: `-enc UTF-8` is one option and its value (h-prog32: read as `-e -n
    -c`, UTF-8 became IN and IN the output, and `pdftotext -enc UTF-8 in.pdf <main>/out.txt` passed)."""
    operands: list[tuple[Word, str | None]] = []
    i = 1
    while i < len(words):
        value = values[i]
        if value == "--":  # every word after it is a file (review 32c: `pdftotext -- -f <main>/o.txt`)
            operands.extend(zip(words[i + 1:], values[i + 1:]))
            break
        if value in _PDFTOTEXT_VALUES:
            i += 2
            continue
        if value is not None and value.startswith("-") and value != "-":
            i += 1
            continue
        operands.append((words[i], value))
        i += 1
    if len(operands) > 1:
        return [Target(word, value, "the output") for word, value in operands[1:2]]
    if operands:
        word, value = operands[0]
        if value == "-":
            return []
        stem = None if value is None else (value[:-4] if value.lower().endswith(".pdf") else value)
        return [Target(word, None if stem is None else stem + (".html" if "-htmlmeta" in values else ".txt"), "the text beside it")]
    return []


#: xxd's options that take a value → the rest of a word that spells the option out rather than holding the value
#: (vim 9's xxd.c: `-c8` and `-cols 8`, `-len 16`, `-seek`/`-skip`; `-capitalize` is a flag).
_XXD_VALUES = {"-c": ("ols",), "-g": ("roup",), "-o": ("ffset",), "-s": ("kip", "eek"), "-l": ("en",), "-n": ("ame",)}


def _xxd(words: list[Word], values: list[str | None]) -> list[Target]:
    """`xxd [options] [infile [outfile]]` writes outfile (not `-`, its output). Its options are read by their first
    two letters, one dash or two (`--len` is `-len`): a value option takes the rest of its word, unless that spells
    the option out (`-len 16`, `-cols 8`), then the next word; `--` ends them (stop 33: `-len` was read as a cluster,
    16 became infile and infile the outfile, a false WG401 on reading the main checkout)."""
    operands: list[tuple[Word, str | None]] = []
    i = 1
    while i < len(words):
        value = values[i]
        if value == "--":
            operands.extend(zip(words[i + 1:], values[i + 1:]))
            break
        if value is None or not value.startswith("-") or value == "-":
            operands.extend(zip(words[i:], values[i:]))
            break
        word = value[1:] if value.startswith("--") and len(value) > 2 else value
        rest = word[2:]
        tails = _XXD_VALUES.get(word[:2])
        takes_next = tails is not None and not (word[:2] == "-c" and rest.startswith("apitalize")) and (not rest or any(rest.startswith(t) for t in tails))
        i += 2 if takes_next else 1
    if len(operands) > 1 and operands[1][1] != "-":
        return [Target(operands[1][0], operands[1][1], "the output")]
    return []


#: A program named by a path is known by its base name only in these directories, which an agent cannot write
#: (`/usr/bin/cat`). Elsewhere (`/tmp/head`, `./node_modules/.bin/x`, `.venv/bin/pytest`) it may be a copy of any
#: program, so it is unknown: its operands at the shared boundary count as written (WG406).
TRUSTED_PROGRAM_DIRS = frozenset({
    "/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/bin", "/usr/local/sbin", "/opt/homebrew/bin", "/opt/homebrew/sbin", "/snap/bin",
})


def _mktemp(command: Any, argv: ParsedArgv, targets: list[Target]) -> list[Target]:
    """mktemp's file as GNU mktemp places it (stop 32: `TMPDIR=<main> mktemp` made a file in the main checkout, read
    as writing nothing). With no template, `-t` or `-p`/`--tmpdir`, the template is taken from a directory:
    `-p`'s when given and not empty, else TMPDIR's, else /tmp; with `-t`, TMPDIR's before `-p`'s. TMPDIR the
    command did not set is the one the hook's environment holds (`ShellCommand.env`)."""
    if "-u" in argv.options or any(len(name) > 3 and "--dry-run".startswith(name) for name in argv.options):
        return targets  # `--dr`: getopt_long's prefix of --dry-run (review 32a)
    templates = [value for _, value in argv.operands]
    word = argv.operands[-1][0] if argv.operands else command.words[0]
    template = templates[-1] if templates else "tmp.XXXXXXXXXX"
    # `--tmpdir` without `=DIR` names none (a word only known at run time is never read as an option here)
    given = [value for _, value in argv.options.get("-p", [])] + [value or "" for _, value in argv.options.get("--tmpdir", [])]
    if not (given or "-t" in argv.options or not templates):
        return targets
    operand_words = {id(w) for w, _ in argv.operands}
    kept = [t for t in targets if id(t.word) not in operand_words]  # what the row found unknown (`mktemp "$U"`)
    set_, tmpdir = command.env("TMPDIR")
    environment = None if set_ and tmpdir is None else (tmpdir or "")
    option = given[-1] if given else ""
    if "-t" in argv.options:
        directory = environment if environment != "" else option
    else:
        directory = option if option != "" else environment
    if directory == "":
        directory = "/tmp"
    if directory is None or template is None:
        return kept + [Target(word, None, "mktemp's file, in a directory only known at run time")]
    return kept + [Target(word, os.path.join(directory, template), "mktemp's file")]


def _curl(command: Any, argv: ParsedArgv, targets: list[Target]) -> list[Target]:
    """curl's `-o` names as curl makes them (stop 32). A `#N` takes its text from the URL's N-th glob (`-o '#1'
    'URL/{../../x,b}'` wrote two directories up); `--output-dir D` puts the name below D, an absolute one too
    (`D//abs`), until a `--next`, so the name is judged both below D and as written."""
    import re

    outputs = [(word, value) for option in ("-o", "--output") for word, value in argv.options.get(option, [])]
    if not outputs:
        return targets
    others = [t for t in targets if t.how not in ("-o", "--output")]
    # `-g` ends at a `--next` and `--no-globoff` undoes it (review 32a): only a lone one turns globbing off
    globbing = not argv.options.keys() & {"-g", "--globoff"} or bool(argv.options.keys() & {"--no-globoff", "--next", "-:"})
    urls = [value for _, value in argv.operands] + [value for _, value in argv.options.get("--url", [])]
    names: list[tuple[Word | None, str | None]] = []
    for word, value in outputs:
        if value is None or not globbing or not re.search(r"#\d", value):
            names.append((word, value))
            continue
        pieces = _url_glob_pieces(urls)
        indices = sorted(set(re.findall(r"#(\d)", value)))
        if pieces is None or len(pieces) ** len(indices) > 256:
            names.append((word, None))
            continue
        import itertools

        for combination in itertools.product(sorted(pieces), repeat=len(indices)):
            chosen = dict(zip(indices, combination))
            names.append((word, re.sub(r"#(\d)", lambda m: chosen[m.group(1)], value)))
    directories = [value for _, value in argv.options.get("--output-dir", [])]
    found = [Target(word, value, "-o") for word, value in names]
    for directory in directories:
        for word, value in names:
            if value is None or value == "-":
                continue
            below = None if directory is None else directory.rstrip("/") + "/" + value if value.startswith("/") else os.path.join(directory, value)
            found.append(Target(word, below, "-o below --output-dir"))
    return others + found


def _url_glob_pieces(urls: list[str | None]) -> set[str] | None:
    """Every text a `#N` of curl's `-o` may take from these URLs' globs (`{a,b}` sets, read as curl reads them: a `\\`
    escapes the next character, `\\}` and `\\,` included (review 32a: `{\\.\\.,b}` is `..`); a `[1-9]`/`[a-z]` range
    gives letters and digits: "0" stands for them); None when a URL is only known at run time or an item may leave
    the directory (a `/`, or only dots)."""
    pieces: set[str] = set()
    for url in urls:
        if url is None:
            return None
        i = 0
        while i < len(url):
            c = url[i]
            if c == "\\":
                i += 2
                continue
            if c == "[":
                end = url.find("]", i)
                if end < 0 or any(not (ch.isalnum() or ch in "-:") for ch in url[i + 1:end]):
                    return None
                pieces.add("0")
                i = end + 1
                continue
            if c != "{":
                i += 1
                continue
            item, items, i = "", [], i + 1
            while i < len(url) and url[i] != "}":
                if url[i] == "\\" and i + 1 < len(url):
                    item += url[i + 1]
                    i += 2
                    continue
                if url[i] == ",":
                    items.append(item)
                    item = ""
                else:
                    item += url[i]
                i += 1
            items.append(item)
            i += 1
            for item in items:
                if "/" in item or item.strip(".") == "":
                    return None
                pieces.add(item)
    return pieces or {"0"}


#: cp's options that copy a symlink as a symlink (GNU cp 9.1: -R/-r copy the links they meet as links, -P/-d/-a
#: those given too), and those that copy what a link names instead.
CP_COPIES_LINKS = frozenset({"-P", "--no-dereference", "-d", "-a", "--archive", "-R", "-r", "--recursive"})
#: GNU cp 9.1's long options, for their unique prefixes.
CP_LONGS = (
    "--archive", "--attributes-only", "--backup", "--copy-contents", "--debug", "--dereference", "--force", "--interactive",
    "--link", "--no-clobber", "--no-dereference", "--preserve", "--no-preserve", "--parents", "--recursive", "--reflink",
    "--remove-destination", "--sparse", "--strip-trailing-slashes", "--suffix", "--symbolic-link", "--target-directory",
    "--no-target-directory", "--update", "--verbose", "--one-file-system", "--context", "--help", "--version",
)


def _cp(command: Any, argv: ParsedArgv, targets: list[Target]) -> list[Target]:
    """A source that is a symlink, copied as one (`cp -P`, `-d`, `-a`, `-R`), makes a new link to the same place:
    a link to its target, as `ln -s` is (review 35b: `cp -P lnmain d3 && env -C d3 make` built in the main checkout
    through the copy). Links below a source directory copied with -R are not looked at (the leak check's)."""
    # cp's long options by getopt_long's unique prefix (review 35c: `cp --no-d lnmain d3`, `--arch`, `--recur`)
    given = {long_option(o, CP_LONGS) if o.startswith("--") else o for o in argv.options}
    follows = {"-L", "--dereference"} & given and not {"-P", "--no-dereference", "-d", "-a", "--archive"} & given
    if not CP_COPIES_LINKS & given or follows or command.cwd is None:
        return targets  # `cp -rL`: copies what the links name (with -P or -a beside it, which is last is not kept)
    found = list(targets)
    into = bool({"-t", "--target-directory"} & given)
    sources = argv.operands if into else argv.operands[:-1]
    for word, value in sources:
        if value is not None and os.path.islink(os.path.join(command.cwd, value)):
            target = os.readlink(os.path.join(command.cwd, value))
            # the new link holds the same text: a relative one is read from where the copy lands, which may differ;
            # its target as seen from the source counts (the usual case: a link copied beside it)
            found.append(Target(word, os.path.join(os.path.dirname(os.path.join(command.cwd, value)), target), "a copy of a link to it", kind="link"))
    return found


def _rsync(command: Any, argv: ParsedArgv, targets: list[Target]) -> list[Target]:
    """rsync's other outputs (stop 32; rsync 3.2.7 wrote each): `--log-file` and `--write-batch` (and its `.sh`)
    from the cwd; `--backup-dir`, `-T`/`--temp-dir` and `--partial-dir` from the destination directory, where the
    receiver works (not for a remote one); and with `--files-from`, `--remove-source-files` removes files only the
    list names (through a link in W, in the main checkout)."""
    import re

    options = argv.options
    found = list(targets)
    for option in ("--log-file", "--write-batch", "--only-write-batch"):
        for word, value in options.get(option, []):
            found.append(Target(word, value, option))
            if option != "--log-file" and value is not None:
                found.append(Target(word, value + ".sh", f"{option}'s script"))
    for option in ("-M", "--remote-option"):
        # an option for the other side, which a local copy runs here (review 32b: `-M--log-file=<main>/x` wrote it)
        found.extend(Target(word, None, f"{option} gives rsync's other side options worktree-guard does not read") for word, _ in options.get(option, []))
    if "--remove-source-files" in options and "--files-from" in options:
        found.extend(Target(word, None, "the files --files-from lists, which --remove-source-files removes") for word, _ in options["--files-from"])
    receiving = [(option, word, value) for option in ("--backup-dir", "-T", "--temp-dir", "--partial-dir") for word, value in options.get(option, [])]
    if not receiving:
        return found
    destination = argv.operands[-1][1] if len(argv.operands) > 1 else None
    if destination is not None and (re.match(r"[^/]*:", destination) or destination.startswith("rsync://")):
        return found  # the remote side's directories
    bases = [UNKNOWN_DIR]
    if destination is not None and command.cwd is not None:
        full = os.path.join(command.cwd, destination)
        # a destination that is no directory yet may become one (several sources, a directory copied, --mkpath:
        # review 32b): both readings are judged
        bases = [full] if destination.endswith("/") or os.path.isdir(full) else [full, os.path.dirname(full)]
    found.extend(Target(word, value, f"{option}, taken from the destination directory", base=base) for option, word, value in receiving for base in bases)
    return found


def _frozen(*names: str) -> frozenset[str]:
    return frozenset(names)


_PTX_VALUES = _frozen("-F", "--flag-truncation", "-M", "--macro-name", "-S", "--sentence-regexp", "-W", "--word-regexp", "-b", "--break-file", "-g", "--gap-size", "-i", "--ignore-file", "-o", "--only-file", "-w", "--width")

BUILTIN_WRITERS: dict[str, WriteSpec] = {
    "cp": WriteSpec(operands="last", value_options=_frozen("-S", "--suffix"), target_options=_frozen("-t", "--target-directory"), sources_with=_frozen("-t", "--target-directory"), link_with=_frozen("-l", "--link", "-s", "--symbolic-link"), amend=_cp),
    "mv": WriteSpec(operands="all", value_options=_frozen("-S", "--suffix"), target_options=_frozen("-t", "--target-directory")),
    "rm": WriteSpec(operands="all", recursive_with=_frozen("-r", "-R", "--recursive")),
    "rmdir": WriteSpec(operands="all"),
    "unlink": WriteSpec(operands="all"),
    "shred": WriteSpec(operands="all", value_options=_frozen("-n", "--iterations", "-s", "--size", "--random-source")),
    "touch": WriteSpec(operands="all", value_options=_frozen("-d", "--date", "-r", "--reference", "-t")),
    "mkdir": WriteSpec(operands="all", value_options=_frozen("-m", "--mode")),
    "mkfifo": WriteSpec(operands="all", value_options=_frozen("-m", "--mode")),
    # review 30a: an option whose value is optional takes only an attached one (`--output-error[=MODE]`,
    # `--group[=METHOD]`, `--context[=CTX]`); read as taking the next word, it hid that word, a written file
    "tee": WriteSpec(operands="all"),
    "ln": WriteSpec(operands="last", value_options=_frozen("-S", "--suffix"), target_options=_frozen("-t", "--target-directory"), sources_with=_frozen("-t", "--target-directory"), writes_cwd=True, links_sources=True, write_flags=_frozen("--symbolic", "--relative")),
    "link": WriteSpec(operands="last", links_sources=True),
    "install": WriteSpec(operands="last", value_options=_frozen("-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix", "--strip-program"), target_options=_frozen("-t", "--target-directory"), sources_with=_frozen("-t", "--target-directory"), all_with=_frozen("-d", "--directory"), flags=_frozen("--strip")),
    "truncate": WriteSpec(operands="all", value_options=_frozen("-s", "--size", "-r", "--reference")),
    "dd": WriteSpec(key_value=("of=",)),
    "sed": WriteSpec(operands="all", value_options=_frozen("-e", "--expression", "-f", "--file", "-l", "--line-length"), optional_value_options=_frozen("-i"), only_with=_frozen("-i", "--in-place"), first_is_not_a_file=True, unless_with=_frozen("-e", "--expression", "-f", "--file"), backup_options=_frozen("-i", "--in-place")),
    "perl": WriteSpec(operands="all", value_options=_frozen("-e", "-E", "-I", "-M", "-m", "-x"), optional_value_options=_frozen("-i"), only_with=_frozen("-i"), first_is_not_a_file=True, unless_with=_frozen("-e", "-E"), backup_options=_frozen("-i")),
    "rsync": WriteSpec(operands="last", all_with=_frozen("--remove-source-files"), recursive_with=_frozen("--delete", "--delete-before", "--delete-during", "--delete-after", "--delete-excluded", "--del"), value_options=_frozen("-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--exclude-from", "--include-from", "--files-from", "--chmod", "--rsync-path", "-T", "--temp-dir", "--partial-dir", "--log-file", "--backup-dir", "--suffix", "--compare-dest", "--copy-dest", "--link-dest", "--write-batch", "--only-write-batch", "--read-batch", "-M", "--remote-option"), abbreviations=False, amend=_rsync),
    "tar": WriteSpec(custom=_tar, value_options=_TAR_VALUES),
    "unzip": WriteSpec(custom=_unzip, value_options=_UNZIP_VALUES),
    "curl": WriteSpec(operands="none", unread_operands=True, value_options=_frozen("-H", "--header", "-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "-X", "--request", "-u", "--user", "-A", "--user-agent", "-e", "--referer", "-b", "--cookie", "-F", "--form", "-m", "--max-time", "-x", "--proxy", "-w", "--write-out", "--connect-timeout", "-r", "--range", "--retry", "-K", "--config", "--cacert", "--cert", "--key", "-E", "--json", "--url", "-T", "--upload-file"), target_options=_frozen("-o", "--output", "--output-dir", "-c", "--cookie-jar", "-D", "--dump-header", "--trace", "--trace-ascii", "--stderr", "--libcurl", "--etag-save", "--hsts", "--alt-svc"), cwd_with=_frozen("-O", "--remote-name", "--remote-name-all"), amend=_curl),
    "wget": WriteSpec(operands="none", unread_operands=True, value_options=_frozen("--user", "--password", "-t", "--tries", "-T", "--timeout", "-U", "--user-agent", "--header", "-e", "--execute", "-i", "--input-file", "--load-cookies", "--post-file", "--body-file", "--ca-certificate", "--certificate", "--private-key", "-Q", "--quota", "-w", "--wait", "-l", "--level", "-A", "--accept", "-R", "--reject", "--config"), target_options=_frozen("-O", "--output-document", "-P", "--directory-prefix", "-o", "--output-file", "-a", "--append-output", "--save-cookies", "--warc-file", "--rejected-log", "--hsts-file"), writes_cwd=True, flags=_frozen("--hsts")),
    "chmod": WriteSpec(operands="all", first_is_not_a_file=True, unless_with=_frozen("--reference"), recursive_with=_frozen("-R", "--recursive")),
    "chown": WriteSpec(operands="all", first_is_not_a_file=True, unless_with=_frozen("--reference"), recursive_with=_frozen("-R", "--recursive")),
    "chgrp": WriteSpec(operands="all", first_is_not_a_file=True, unless_with=_frozen("--reference"), recursive_with=_frozen("-R", "--recursive")),
    "sort": WriteSpec(operands="none", value_options=_frozen("-k", "--key", "-t", "--field-separator", "-S", "--buffer-size", "-T", "--temporary-directory", "--parallel", "--batch-size", "--files0-from", "--random-source", "--compress-program"), target_options=_frozen("-o", "--output")),
    "patch": WriteSpec(custom=_patch, value_options=_PATCH_VALUES),
    "split": WriteSpec(operands="last", value_options=_frozen("-l", "--lines", "-b", "--bytes", "-C", "--line-bytes", "-n", "--number", "-a", "--suffix-length", "--additional-suffix", "--filter", "-t", "--separator"), writes_cwd=True),
    "find": WriteSpec(custom=_find, gnu_options=False),
    # Found missing by the execute-and-observe harness (issue 10): each writes a file its operands name.
    "xxd": WriteSpec(custom=lambda words, values: _xxd(words, values), value_options=_frozen("-c", "-cols", "-g", "-groupsize", "-l", "-len", "-o", "-offset", "-s", "-seek", "-skip", "-n", "-name")),
    "uniq": WriteSpec(operands="last", value_options=_frozen("-f", "--skip-fields", "-s", "--skip-chars", "-w", "--check-chars")),
    "iconv": WriteSpec(operands="none", value_options=_frozen("-f", "--from-code", "-t", "--to-code"), target_options=_frozen("-o", "--output")),
    "shuf": WriteSpec(operands="none", value_options=_frozen("-n", "--head-count", "-i", "--input-range", "--random-source"), target_options=_frozen("-o", "--output")),  # -e: a flag
    "sdiff": WriteSpec(operands="none", value_options=_frozen("-w", "--width", "-I", "--ignore-matching-lines", "--diff-program", "--tabsize"), target_options=_frozen("-o", "--output")),
    "tree": WriteSpec(operands="none", value_options=_frozen("-L", "-P", "-I", "--charset", "--filelimit", "--timefmt", "-H", "-T", "--sort", "--fromfile"), target_options=_frozen("-o")),
    "less": WriteSpec(operands="none", value_options=_frozen("-b", "-h", "-j", "-k", "-p", "-P", "-t", "-T", "-x", "-y", "-z", "-#"), target_options=_frozen("-o", "-O", "--log-file", "--LOG-FILE")),
    "csplit": WriteSpec(operands="none", value_options=_frozen("-b", "--suffix-format", "-n", "--digits"), target_options=_frozen("-f", "--prefix"), writes_cwd=True),
    "mktemp": WriteSpec(operands="all", value_options=_frozen("--suffix", "-p"), optional_value_options=_frozen("--tmpdir"), not_with=_frozen("-u", "--dry-run"), write_flags=_frozen("--tmpdir"), amend=_mktemp),
    "mknod": WriteSpec(operands="all", value_options=_frozen("-m", "--mode")),
    "setfacl": WriteSpec(operands="all", value_options=_frozen("-m", "--modify", "-x", "--remove", "-M", "--modify-file", "-X", "--remove-file", "--set", "--set-file", "--restore"), recursive_with=_frozen("-R", "--recursive")),
    "chattr": WriteSpec(operands="all", first_is_not_a_file=True, value_options=_frozen("-v", "-p"), recursive_with=_frozen("-R")),
    "zip": WriteSpec(custom=_zip, value_options=_ZIP_VALUES),
    # Wrappers that write files of their own beside running a command (their own words only: what they run is
    # another command).
    "flock": WriteSpec(operands="all", value_options=_frozen("-w", "--timeout", "-E", "--conflict-exit-code", "-c", "--command")),  # creates the lock file
    "time": WriteSpec(operands="none", value_options=_frozen("-f", "--format"), target_options=_frozen("-o", "--output")),
    "strace": WriteSpec(operands="none", value_options=_frozen("-e", "-p", "--attach", "-s", "-u", "-E", "-P", "-I", "-a", "-b", "-S", "-O", "-X", "-U"), target_options=_frozen("-o", "--output")),
    "ltrace": WriteSpec(operands="none", value_options=_frozen("-e", "-p", "-s", "-u", "-n", "-a", "-l", "-x", "-F", "-A", "-D"), target_options=_frozen("-o", "--output")),
    "valgrind": WriteSpec(operands="none", target_options=_frozen("--log-file", "--xml-file"), flags=_frozen("--xml")),
    "fakeroot": WriteSpec(operands="none", value_options=_frozen("-l", "--lib", "--faked", "-i", "-b"), target_options=_frozen("-s")),
    "logsave": WriteSpec(operands="all"),
    "script": WriteSpec(operands="all", value_options=_frozen("-c", "--command", "-E", "--echo", "-m", "--logging-format", "-o", "--output-limit"), target_options=_frozen("-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-T", "--log-timing")),
    "xvfb-run": WriteSpec(operands="none", value_options=_frozen("-n", "--server-num", "-s", "--server-args", "-p", "--xauth-protocol", "-w", "--wait"), target_options=_frozen("-e", "--error-file", "-f", "--auth-file")),
    "openssl": WriteSpec(custom=_openssl, gnu_options=False),  # single-dash options with separate values, read by _openssl
    **{name: WriteSpec(custom=_python, gnu_options=False) for name in ("python", "python3", "python2", *(f"python3.{n}" for n in range(6, 15)), "pypy3")},
    # Found by the review of issue 10: outputs of programs once taken for readers.
    "ptx": WriteSpec(custom=lambda words, values: _second_operand(words, values, _PTX_VALUES, only_with=_frozen("-G", "--traditional")), value_options=_PTX_VALUES),
    "xmllint": WriteSpec(operands="none", value_options=_frozen("--path", "--dtdvalid", "--dtdvalidfpi", "--schema", "--relaxng", "--schematron", "--xpath", "--encode", "--maxmem", "--pattern", "--pretty", "--max-ampl"), target_options=_frozen("--output", "-o")),
    "tidy": WriteSpec(custom=lambda words, values: _tidy(words, values)),
    "pdftotext": WriteSpec(custom=lambda words, values: _pdftotext(words, values), value_options=_PDFTOTEXT_VALUES),
    "ssh-agent": WriteSpec(operands="none", value_options=_frozen("-E", "-t", "-O", "-P"), target_options=_frozen("-a")),
    # Compressors replace their operands by compressed (or decompressed) files beside them, or with -k add them:
    # both write next to the operand. -c/--stdout, -l/--list and -t/--test only read.
    # xz's --files/--files0 and zstd's --filelist read more operands from a file or stdin (stop 31); each only its own
    # (gunzip takes `--f` for --force, which a shared --filelist would make a list's value: review 31a)
    **{name: WriteSpec(operands="all", value_options=_frozen("-S", "--suffix", "-T", "--threads", "-M", "--memlimit", "-F", "--format", "-o", "--output", *(("--filelist",) if name in _ZSTD_NAMES else ())), target_options=_frozen("-o", "--output"), not_with=_frozen("-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test"), list_options=_frozen("--files", "--files0") if name in _XZ_NAMES else _frozen("--filelist") if name in _ZSTD_NAMES else frozenset()) for name in (
        "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "lzma", "unlzma", "zstd", "unzstd", "lz4", "unlz4", "lzip", "brotli", "pigz", "pbzip2", "compress", "uncompress")},
}


@fast_dataclass(frozen=True, slots=True)
class ReadOnly:
    """A program that only reads the operands it is given (SPEC §5.2 "the shared boundary is default-deny")…

    writes_with: …unless one of these options is given: then it has no entry, and its operands in a shared
    checkout count as written.
    """

    writes_with: frozenset[str] = frozenset()


_PLAIN = ReadOnly()

#: Programs that only read their operands. A program with a WriteSpec (BUILTIN_WRITERS) needs no entry here:
#: what its spec does not name as written, it reads (the git rule's plugin adds git's entry, naming its
#: outputs; that rule judges what git does to checkouts, refs and config). cd/pushd/popd are judged by the cd rule;
#: wrappers (`env`, `sudo`, `timeout`…) and shells hand what they run to the walker, which judges it there.
BUILTIN_READERS: dict[str, ReadOnly] = {
    **{name: _PLAIN for name in (
        # files and text
        "cat", "tac", "head", "tail", "more", "most", "bat", "batcat", "nl", "od", "hexdump", "hd", "strings", "wc",
        "grep", "egrep", "fgrep", "zgrep", "zegrep", "zfgrep", "ag", "ack", "ack-grep", "cut", "paste", "join", "comm",
        "fold", "fmt", "pr", "column", "expand", "unexpand", "rev", "tr", "look", "zcat", "bzcat", "xzcat",
        "lz4cat", "zless", "zmore", "zdiff", "zcmp", "diff", "diff3", "cmp", "colordiff", "wdiff", "jq", "gron",
        "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "b3sum", "cksum", "sum",
        "shasum", "base32", "base64", "basenc", "mimetype", "identify", "pdfinfo",
        "readelf", "objdump", "nm", "size", "ldd", "lsattr", "getfacl", "namei", "stat", "du", "df",
        "ls", "dir", "vdir", "exa", "eza", "lsd", "fd", "fdfind", "locate", "realpath", "readlink", "basename",
        "dirname", "pathchk", "test", "[", "[[", "echo", "printf", "true", "false", ":", "pwd", "type", "which",
        "whereis", "hash", "help", "man", "info", "whatis", "apropos", "id", "whoami", "groups", "date", "sleep",
        "seq", "yes", "expr", "factor", "numfmt", "tsort", "printenv", "uname", "hostname", "nproc",
        "tty", "stty", "locale", "getconf", "lsof", "ps", "pgrep", "pstree", "free", "uptime", "w", "who",
        "lscpu", "lsblk", "findmnt", "cal", "ncal", "clear", "tput", "reset",
        # programs that check or lint what they are given
        "shellcheck", "checkbashisms", "yamllint", "jsonlint", "hadolint",
        # shells and the builtins that run or read a script where they are (the walker looks inside what they run)
        "source", ".", "bash", "rbash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "yash", "eval", "exec", "command", "builtin",
        "export", "declare", "typeset", "local", "readonly", "unset", "set", "shopt", "alias", "unalias", "trap",
        "read", "mapfile", "readarray", "getopts", "shift", "return", "exit", "break", "continue", "wait", "jobs",
        "fg", "bg", "kill", "disown", "umask", "ulimit", "times", "let", "caller", "complete", "compgen", "dirs",
        # judged by a rule of their own
        "cd", "pushd", "popd",
    )},
    "rg": ReadOnly(writes_with=frozenset({"--pre"})),  # --pre runs a program on every file
    # awk reads its operands; what its program writes is found by shell/embedded.py. gawk -i inplace edits them.
    **{name: ReadOnly(writes_with=frozenset({"-i", "--include", "-l", "--load"})) for name in ("awk", "gawk", "mawk", "nawk", "busybox-awk", "original-awk", "goawk", "onetrue-awk", "bwk-awk")},
    "yq": ReadOnly(writes_with=frozenset({"-i", "--inplace"})),
    # zstdcat is `zstd -dcf`: -o and the output directories still write (review 38b: `zstdcat -qfo <main>/README.md
    # f.zst` overwrote it); mount is no reader at all (`mount --bind ../../.. src`): it has no entry
    "zstdcat": ReadOnly(writes_with=frozenset({"-o", "--output-dir-flat", "--output-dir-mirror"})),
    "file": ReadOnly(writes_with=frozenset({"-C", "--compile"})),
}


#: Programs that carry code in their own language, by family (`gawk` → `awk`, `nvim` → `vim`): `shell.embedded`
#: reads that code. Here, so that a command of none of them does not load the reader.
CODE_FAMILIES = {
    "sed": "sed", "gsed": "sed",
    "awk": "awk", "gawk": "awk", "mawk": "awk", "nawk": "awk", "busybox-awk": "awk", "original-awk": "awk", "goawk": "awk", "onetrue-awk": "awk", "bwk-awk": "awk",
    "ed": "ed", "red": "ed", "ex": "ex",
    "vim": "vim", "vi": "vim", "nvim": "vim", "view": "vim", "gvim": "vim", "vimdiff": "vim", "rvim": "vim", "gview": "vim",
    # Debian's and Ubuntu's vim builds, each on PATH under its own name (`vi` is often vim.tiny)
    "vim.basic": "vim", "vim.tiny": "vim", "vim.nox": "vim", "vim.gtk": "vim", "vim.gtk3": "vim", "vim.motif": "vim", "vim.athena": "vim",
    "rview": "vim", "rgview": "vim", "evim": "vim", "vimx": "vim", "nvi": "vim",
    "tar": "tar", "gtar": "tar", "bsdtar": "tar",
    "zip": "zip",
    "rsync": "rsync",
    "ssh": "ssh", "scp": "ssh", "sftp": "ssh", "ssh-copy-id": "ssh",
}
#: The families whose code can write files (`sed 'w f'`, awk's `print > "f"`, an ed script's `w f`).
WRITING_CODE_FAMILIES = frozenset({"sed", "awk", "ed", "ex", "vim"})  # vim: h-emb31, `vim -es f <<< 'w <main>/x'`


def code_family(name: str | None) -> str | None:
    """The language family of a command name (`gawk` → `awk`, `nvim` → `vim`), or None."""
    if name is None:
        return None
    return CODE_FAMILIES.get(name)
