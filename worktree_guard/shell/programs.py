"""Programs and the operands they write (SPEC §5.2 "writes"): data, extended by plugins.

A `WriteSpec` says which arguments of a program are files it writes. `written_paths(spec, words)` reads an
argv the way GNU-style option parsing does and returns the written operands; the writes rule judges them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .ast import Word

# One written target: the word that names it (None when implied), its static value (None when dynamic),
# or the marker CWD for "the directory the program runs in".
CWD = "\0cwd"


@dataclass(frozen=True, slots=True)
class Target:
    """One written target; `recursive` when the program reaches everything below it (`rm -r`, `find -delete`)."""

    word: Word | None
    value: str | None
    how: str
    recursive: bool = False


@dataclass(frozen=True, slots=True)
class WriteSpec:
    """How a program names the files it writes.

    operands: which operands are written — "all", "last" (the destination), "none".
    value_options: options that take a separate value (`-m 644`); `--opt=value` is understood for any option.
    optional_value_options: short options whose value may only be attached (`sed -i.bak`).
    target_options: options whose value is a written path (`-t DIR`, `-o FILE`).
    sources_with: options that turn every operand into a source (`cp -t DIR a b`).
    all_with: options that make every operand written (`install -d a b`).
    only_with: the program writes its operands only when one of these options is given (`sed -i`).
    first_is_not_a_file: the first operand is a script, mode or owner (`sed 's/a/b/' f`, `chmod 644 f`)…
    unless_with: …unless one of these options supplied it (`sed -e 's/a/b/' f`, `chmod --reference=r f`).
    key_value: `key=` prefixes of operands that name written files (`dd of=f`).
    writes_cwd: with no target option given, the program writes into its working directory (`wget URL`).
    recursive_with: options that make the program reach everything below each target (`rm -r`, `chmod -R`).
    custom: a function for programs no table row can describe (tar); it gets the argv values.
    """

    operands: str = "all"
    value_options: frozenset[str] = frozenset()
    optional_value_options: frozenset[str] = frozenset()
    target_options: frozenset[str] = frozenset()
    sources_with: frozenset[str] = frozenset()
    all_with: frozenset[str] = frozenset()
    only_with: frozenset[str] = frozenset()
    first_is_not_a_file: bool = False
    unless_with: frozenset[str] = frozenset()
    key_value: tuple[str, ...] = ()
    writes_cwd: bool = False
    recursive_with: frozenset[str] = frozenset()
    custom: Callable[[list[Word], list[str | None]], list[Target]] | None = field(default=None, compare=False)


@dataclass(slots=True)
class ParsedArgv:
    """An argv split into options (name → list of (word, value)) and operands (word, value)."""

    options: dict[str, list[tuple[Word | None, str | None]]]
    operands: list[tuple[Word, str | None]]
    dynamic_option: bool = False


def parse_argv(words: list[Word], values: list[str | None], spec: WriteSpec) -> ParsedArgv:
    """GNU-style option parsing of words[1:]: clusters (`-abc`), `--name=value`, `--` ends options."""
    options: dict[str, list[tuple[Word | None, str | None]]] = {}
    operands: list[tuple[Word, str | None]] = []
    takes_value = spec.value_options | spec.target_options
    i = 1
    dynamic_option = False
    while i < len(words):
        word, value = words[i], values[i]
        i += 1
        if value is None:
            if word.raw.startswith("-"):
                dynamic_option = True  # `-$x`: an option we cannot read
            operands.append((word, value))
            continue
        if value == "--":
            operands.extend(zip(words[i:], values[i:]))
            break
        if value.startswith("--") and len(value) > 2:
            name, eq, attached = value.partition("=")
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
    return ParsedArgv(options, operands, dynamic_option)


def written_targets(spec: WriteSpec, words: list[Word], values: list[str | None]) -> list[Target]:
    """The files (or the cwd) a program with this spec writes, given its argv."""
    if spec.custom is not None:
        return spec.custom(words, values)
    argv = parse_argv(words, values, spec)
    present = set(argv.options)
    if spec.only_with and not (present & spec.only_with):
        return []
    targets: list[Target] = []
    for option in spec.target_options & present:
        for word, value in argv.options[option]:
            targets.append(Target(word, value, option))
    operands = list(argv.operands)
    if spec.key_value:
        for word, value in operands:
            if value is None:
                if any(word.raw.startswith(k) for k in spec.key_value):
                    targets.append(Target(word, None, word.raw.split("=", 1)[0] + "="))
                continue
            for key in spec.key_value:
                if value.startswith(key):
                    targets.append(Target(word, value[len(key):], key))
        return targets
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
    if spec.writes_cwd and not (spec.target_options & present) and spec.operands == "none":
        targets.append(Target(None, CWD, "into the current directory"))
    if argv.dynamic_option and not targets:
        targets.append(Target(words[0], None, "an option only known at run time"))
    if spec.recursive_with & present:
        targets = [Target(t.word, t.value, t.how, recursive=True) for t in targets]
    return targets


def _tar(words: list[Word], values: list[str | None]) -> list[Target]:
    """tar writes its archive when creating (-c/-r/-u/-A) and files when extracting (-x), under -C or the cwd."""
    spec = WriteSpec(value_options=frozenset({"-f", "--file", "-C", "--directory", "-T", "--files-from", "-X", "--exclude-from", "-b", "-H", "--format"}))
    if len(values) > 1 and values[1] and not values[1].startswith("-") and values[1].isalpha():
        # Old-style `tar czf out.tgz dir`: the first word is a cluster whose value-taking letters consume the next words.
        values = [values[0], "-" + values[1], *values[2:]]
        words = [words[0], words[1], *words[2:]]
    argv = parse_argv(words, values, spec)
    present = set(argv.options)
    creating = bool(present & {"-c", "--create", "-r", "--append", "-u", "--update", "-A", "--catenate", "--concatenate"})
    extracting = bool(present & {"-x", "--extract", "--get"})
    targets: list[Target] = []
    if creating:
        for option in ("-f", "--file"):
            for word, value in argv.options.get(option, []):
                if value != "-":
                    targets.append(Target(word, value, "archive"))
    if extracting:
        directories = argv.options.get("-C", []) + argv.options.get("--directory", [])
        if directories:
            targets.extend(Target(word, value, "extract into", recursive=True) for word, value in directories)
        else:
            targets.append(Target(None, CWD, "extract into the current directory", recursive=True))
    return targets


def _find(words: list[Word], values: list[str | None]) -> list[Target]:
    """find deletes under its starting points with -delete and writes -fprint* files."""
    targets: list[Target] = []
    roots: list[tuple[Word, str | None]] = []
    i = 1
    while i < len(values) and (values[i] is None or not values[i].startswith(("-", "(", "!"))):
        roots.append((words[i], values[i]))
        i += 1
    rest = values[i:]
    if "-delete" in rest:
        targets.extend(Target(w, v, "-delete", recursive=True) for w, v in roots or [(None, ".")])  # type: ignore[list-item]
    for j in range(i, len(values) - 1):
        if values[j] in ("-fprint", "-fprint0", "-fprintf", "-fls"):
            targets.append(Target(words[j + 1], values[j + 1], values[j]))
    return targets


def _patch(words: list[Word], values: list[str | None]) -> list[Target]:
    """patch writes the file it is given (`patch f x.diff`), -o's file, or the files of the diff under -d or the cwd."""
    spec = WriteSpec(value_options=frozenset({"-p", "-i", "--input", "-d", "--directory", "-r", "--reject-file", "-z", "--suffix", "-B", "--prefix", "-F", "--fuzz", "-o", "--output", "-D", "--ifdef", "-V", "--version-control"}))
    argv = parse_argv(words, values, spec)
    outputs = argv.options.get("-o", []) + argv.options.get("--output", [])
    if outputs:
        return [Target(word, value, "-o") for word, value in outputs]
    if argv.operands:
        word, value = argv.operands[0]
        return [Target(word, value, "the file to patch")]
    directories = argv.options.get("-d", []) + argv.options.get("--directory", [])
    if directories:
        return [Target(word, value, "-d", recursive=True) for word, value in directories]
    return [Target(None, CWD, "the files of the diff, under the current directory", recursive=True)]


def _frozen(*names: str) -> frozenset[str]:
    return frozenset(names)


BUILTIN_WRITERS: dict[str, WriteSpec] = {
    "cp": WriteSpec(operands="last", value_options=_frozen("-S", "--suffix"), target_options=_frozen("-t", "--target-directory"), sources_with=_frozen("-t", "--target-directory")),
    "mv": WriteSpec(operands="all", value_options=_frozen("-S", "--suffix"), target_options=_frozen("-t", "--target-directory")),
    "rm": WriteSpec(operands="all", recursive_with=_frozen("-r", "-R", "--recursive")),
    "rmdir": WriteSpec(operands="all"),
    "unlink": WriteSpec(operands="all"),
    "shred": WriteSpec(operands="all", value_options=_frozen("-n", "--iterations", "-s", "--size", "--random-source")),
    "touch": WriteSpec(operands="all", value_options=_frozen("-d", "--date", "-r", "--reference", "-t")),
    "mkdir": WriteSpec(operands="all", value_options=_frozen("-m", "--mode", "--context")),
    "mkfifo": WriteSpec(operands="all", value_options=_frozen("-m", "--mode", "--context")),
    "tee": WriteSpec(operands="all", value_options=_frozen("--output-error")),
    "ln": WriteSpec(operands="last", value_options=_frozen("-S", "--suffix"), target_options=_frozen("-t", "--target-directory"), sources_with=_frozen("-t", "--target-directory"), writes_cwd=True),
    "install": WriteSpec(operands="last", value_options=_frozen("-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix", "--strip-program"), target_options=_frozen("-t", "--target-directory"), sources_with=_frozen("-t", "--target-directory"), all_with=_frozen("-d", "--directory")),
    "truncate": WriteSpec(operands="all", value_options=_frozen("-s", "--size", "-r", "--reference")),
    "dd": WriteSpec(key_value=("of=",)),
    "sed": WriteSpec(operands="all", value_options=_frozen("-e", "--expression", "-f", "--file", "-l", "--line-length"), optional_value_options=_frozen("-i"), only_with=_frozen("-i", "--in-place"), first_is_not_a_file=True, unless_with=_frozen("-e", "--expression", "-f", "--file")),
    "perl": WriteSpec(operands="all", value_options=_frozen("-e", "-E", "-I", "-M", "-m", "-x"), optional_value_options=_frozen("-i"), only_with=_frozen("-i"), first_is_not_a_file=True, unless_with=_frozen("-e", "-E")),
    "rsync": WriteSpec(operands="last", all_with=_frozen("--remove-source-files"), recursive_with=_frozen("--delete", "--delete-before", "--delete-during", "--delete-after", "--delete-excluded", "--del"), value_options=_frozen("-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--exclude-from", "--include-from", "--files-from", "--chmod", "--rsync-path", "-T", "--temp-dir", "--partial-dir", "--log-file", "--backup-dir", "--suffix", "--compare-dest", "--copy-dest", "--link-dest")),
    "tar": WriteSpec(custom=_tar),
    "unzip": WriteSpec(operands="none", value_options=_frozen("-x", "-P"), target_options=_frozen("-d"), writes_cwd=True),
    "curl": WriteSpec(operands="none", value_options=_frozen("-H", "--header", "-d", "--data", "--data-raw", "--data-binary", "-X", "--request", "-u", "--user", "-A", "--user-agent", "-e", "--referer", "-b", "--cookie", "-F", "--form", "-m", "--max-time", "-x", "--proxy", "-w", "--write-out", "--connect-timeout", "-r", "--range", "--retry"), target_options=_frozen("-o", "--output", "--output-dir", "-c", "--cookie-jar", "-D", "--dump-header", "--trace", "--trace-ascii")),
    "wget": WriteSpec(operands="none", value_options=_frozen("-t", "--tries", "-T", "--timeout", "-U", "--user-agent", "--header", "-e", "--execute", "-i", "--input-file", "-a", "--append-output", "-o", "--output-file"), target_options=_frozen("-O", "--output-document", "-P", "--directory-prefix"), writes_cwd=True),
    "chmod": WriteSpec(operands="all", first_is_not_a_file=True, unless_with=_frozen("--reference"), recursive_with=_frozen("-R", "--recursive")),
    "chown": WriteSpec(operands="all", first_is_not_a_file=True, unless_with=_frozen("--reference"), recursive_with=_frozen("-R", "--recursive")),
    "chgrp": WriteSpec(operands="all", first_is_not_a_file=True, unless_with=_frozen("--reference"), recursive_with=_frozen("-R", "--recursive")),
    "sort": WriteSpec(operands="none", value_options=_frozen("-k", "--key", "-t", "--field-separator", "-S", "--buffer-size", "-T", "--temporary-directory", "--parallel", "--batch-size", "--files0-from", "--random-source", "--compress-program"), target_options=_frozen("-o", "--output")),
    "patch": WriteSpec(custom=_patch),
    "split": WriteSpec(operands="last", value_options=_frozen("-l", "--lines", "-b", "--bytes", "-C", "--line-bytes", "-n", "--number", "-a", "--suffix-length", "--additional-suffix", "--filter", "-t", "--separator"), writes_cwd=True),
    "find": WriteSpec(custom=_find),
}
