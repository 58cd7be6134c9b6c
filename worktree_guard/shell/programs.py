"""Programs and what they do with their operands (SPEC §5.2 "writes", "the shared boundary is default-deny"): data,
extended by plugins.

A `WriteSpec` says which arguments of a program are files it writes (or links to). `written_targets(spec, words,
values)` reads an argv the way GNU-style option parsing does and returns them. A `ReadOnly` entry says a program
only reads its operands. A program with neither entry is unknown: every operand of it that names a path in a
shared checkout counts as written (WG406). `shell/written.py` puts the tables together for one command.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .ast import Word

# One written target: the word that names it (None when implied), its static value (None when dynamic),
# or the marker CWD for "the directory the program runs in".
CWD = "\0cwd"
#: `Target.base` for a directory only known at run time.
UNKNOWN_DIR = "\0unknown"


@dataclass(frozen=True, slots=True)
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
    not_with: the program writes nothing when one of these options is given (`gzip -c`, `unzip -l`).
    first_is_not_a_file: the first operand is a script, mode or owner (`sed 's/a/b/' f`, `chmod 644 f`)…
    unless_with: …unless one of these options supplied it (`sed -e 's/a/b/' f`, `chmod --reference=r f`).
    key_value: `key=` prefixes of operands that name written files (`dd of=f`).
    writes_cwd: with no target option given, the program writes into its working directory (`wget URL`).
    recursive_with: options that make the program reach everything below each target (`rm -r`, `chmod -R`).
    links_sources: the operands that are not written are linked to (`ln`, `link`)…
    link_with: …or are when one of these options is given (`cp -l`, `cp -s`).
    custom: a function for programs no table row can describe (tar); it gets the argv values.
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
    custom: Callable[[list[Word], list[str | None]], list[Target]] | None = field(default=None, compare=False)
    #: For programs whose writes depend on more than the argv (git: `-C`, `GIT_INDEX_FILE`): gets the ShellCommand.
    command_writes: Callable[[Any], list[Target]] | None = field(default=None, compare=False)


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
    if present & spec.not_with:
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
    if spec.recursive_with & present:
        targets = [Target(t.word, t.value, t.how, recursive=True, kind=t.kind, base=t.base) for t in targets]
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
    "cp": WriteSpec(operands="last", value_options=_frozen("-S", "--suffix"), target_options=_frozen("-t", "--target-directory"), sources_with=_frozen("-t", "--target-directory"), link_with=_frozen("-l", "--link", "-s", "--symbolic-link")),
    "mv": WriteSpec(operands="all", value_options=_frozen("-S", "--suffix"), target_options=_frozen("-t", "--target-directory")),
    "rm": WriteSpec(operands="all", recursive_with=_frozen("-r", "-R", "--recursive")),
    "rmdir": WriteSpec(operands="all"),
    "unlink": WriteSpec(operands="all"),
    "shred": WriteSpec(operands="all", value_options=_frozen("-n", "--iterations", "-s", "--size", "--random-source")),
    "touch": WriteSpec(operands="all", value_options=_frozen("-d", "--date", "-r", "--reference", "-t")),
    "mkdir": WriteSpec(operands="all", value_options=_frozen("-m", "--mode", "--context")),
    "mkfifo": WriteSpec(operands="all", value_options=_frozen("-m", "--mode", "--context")),
    "tee": WriteSpec(operands="all", value_options=_frozen("--output-error")),
    "ln": WriteSpec(operands="last", value_options=_frozen("-S", "--suffix"), target_options=_frozen("-t", "--target-directory"), sources_with=_frozen("-t", "--target-directory"), writes_cwd=True, links_sources=True),
    "link": WriteSpec(operands="last", links_sources=True),
    "install": WriteSpec(operands="last", value_options=_frozen("-m", "--mode", "-o", "--owner", "-g", "--group", "-S", "--suffix", "--strip-program"), target_options=_frozen("-t", "--target-directory"), sources_with=_frozen("-t", "--target-directory"), all_with=_frozen("-d", "--directory")),
    "truncate": WriteSpec(operands="all", value_options=_frozen("-s", "--size", "-r", "--reference")),
    "dd": WriteSpec(key_value=("of=",)),
    "sed": WriteSpec(operands="all", value_options=_frozen("-e", "--expression", "-f", "--file", "-l", "--line-length"), optional_value_options=_frozen("-i"), only_with=_frozen("-i", "--in-place"), first_is_not_a_file=True, unless_with=_frozen("-e", "--expression", "-f", "--file")),
    "perl": WriteSpec(operands="all", value_options=_frozen("-e", "-E", "-I", "-M", "-m", "-x"), optional_value_options=_frozen("-i"), only_with=_frozen("-i"), first_is_not_a_file=True, unless_with=_frozen("-e", "-E")),
    "rsync": WriteSpec(operands="last", all_with=_frozen("--remove-source-files"), recursive_with=_frozen("--delete", "--delete-before", "--delete-during", "--delete-after", "--delete-excluded", "--del"), value_options=_frozen("-e", "--rsh", "--exclude", "--include", "--filter", "-f", "--exclude-from", "--include-from", "--files-from", "--chmod", "--rsync-path", "-T", "--temp-dir", "--partial-dir", "--log-file", "--backup-dir", "--suffix", "--compare-dest", "--copy-dest", "--link-dest")),
    "tar": WriteSpec(custom=_tar),
    "unzip": WriteSpec(operands="none", value_options=_frozen("-x", "-P"), target_options=_frozen("-d"), writes_cwd=True, not_with=_frozen("-l", "-t", "-p", "-v", "-z", "-Z")),
    "curl": WriteSpec(operands="none", value_options=_frozen("-H", "--header", "-d", "--data", "--data-raw", "--data-binary", "-X", "--request", "-u", "--user", "-A", "--user-agent", "-e", "--referer", "-b", "--cookie", "-F", "--form", "-m", "--max-time", "-x", "--proxy", "-w", "--write-out", "--connect-timeout", "-r", "--range", "--retry"), target_options=_frozen("-o", "--output", "--output-dir", "-c", "--cookie-jar", "-D", "--dump-header", "--trace", "--trace-ascii")),
    "wget": WriteSpec(operands="none", value_options=_frozen("-t", "--tries", "-T", "--timeout", "-U", "--user-agent", "--header", "-e", "--execute", "-i", "--input-file", "-a", "--append-output", "-o", "--output-file"), target_options=_frozen("-O", "--output-document", "-P", "--directory-prefix"), writes_cwd=True),
    "chmod": WriteSpec(operands="all", first_is_not_a_file=True, unless_with=_frozen("--reference"), recursive_with=_frozen("-R", "--recursive")),
    "chown": WriteSpec(operands="all", first_is_not_a_file=True, unless_with=_frozen("--reference"), recursive_with=_frozen("-R", "--recursive")),
    "chgrp": WriteSpec(operands="all", first_is_not_a_file=True, unless_with=_frozen("--reference"), recursive_with=_frozen("-R", "--recursive")),
    "sort": WriteSpec(operands="none", value_options=_frozen("-k", "--key", "-t", "--field-separator", "-S", "--buffer-size", "-T", "--temporary-directory", "--parallel", "--batch-size", "--files0-from", "--random-source", "--compress-program"), target_options=_frozen("-o", "--output")),
    "patch": WriteSpec(custom=_patch),
    "split": WriteSpec(operands="last", value_options=_frozen("-l", "--lines", "-b", "--bytes", "-C", "--line-bytes", "-n", "--number", "-a", "--suffix-length", "--additional-suffix", "--filter", "-t", "--separator"), writes_cwd=True),
    "find": WriteSpec(custom=_find),
    # Found missing by the execute-and-observe harness (issue 10): each writes a file its operands name.
    "xxd": WriteSpec(operands="last", value_options=_frozen("-c", "-cols", "-g", "-groupsize", "-l", "-len", "-o", "-offset", "-s", "-seek", "-n", "-name")),
    "uniq": WriteSpec(operands="last", value_options=_frozen("-f", "--skip-fields", "-s", "--skip-chars", "-w", "--check-chars", "--group", "--all-repeated")),
    "iconv": WriteSpec(operands="none", value_options=_frozen("-f", "--from-code", "-t", "--to-code"), target_options=_frozen("-o", "--output")),
    "shuf": WriteSpec(operands="none", value_options=_frozen("-n", "--head-count", "-i", "--input-range", "--random-source", "-e"), target_options=_frozen("-o", "--output")),
    "sdiff": WriteSpec(operands="none", value_options=_frozen("-w", "--width", "-I", "--ignore-matching-lines", "--diff-program", "--tabsize"), target_options=_frozen("-o", "--output")),
    "tree": WriteSpec(operands="none", value_options=_frozen("-L", "-P", "-I", "--charset", "--filelimit", "--timefmt", "-H", "-T", "--sort", "--fromfile"), target_options=_frozen("-o")),
    "less": WriteSpec(operands="none", value_options=_frozen("-b", "-h", "-j", "-k", "-p", "-P", "-t", "-T", "-x", "-y", "-z", "-#"), target_options=_frozen("-o", "-O", "--log-file", "--LOG-FILE")),
    "csplit": WriteSpec(operands="none", value_options=_frozen("-b", "--suffix-format", "-n", "--digits"), target_options=_frozen("-f", "--prefix"), writes_cwd=True),
    "mktemp": WriteSpec(operands="all", value_options=_frozen("--suffix"), target_options=_frozen("-p", "--tmpdir"), not_with=_frozen("-u", "--dry-run")),
    "mknod": WriteSpec(operands="all", value_options=_frozen("-m", "--mode", "--context")),
    "setfacl": WriteSpec(operands="all", value_options=_frozen("-m", "--modify", "-x", "--remove", "-M", "--modify-file", "-X", "--remove-file", "--set", "--set-file", "--restore"), recursive_with=_frozen("-R", "--recursive")),
    "chattr": WriteSpec(operands="all", first_is_not_a_file=True, value_options=_frozen("-v", "-p"), recursive_with=_frozen("-R")),
    "zip": WriteSpec(operands="all", value_options=_frozen("-b", "-n", "--suffixes", "-P", "--password", "-t", "-tt", "-x", "--exclude", "-i", "--include", "-Z", "--compression-method", "-TT", "--unzip-command", "-O", "--output-file"), target_options=_frozen("-O", "--output-file"), not_with=_frozen("-sf", "--show-files")),
    # Wrappers that write files of their own beside running a command (their own words only: what they run is
    # another command).
    "flock": WriteSpec(operands="all", value_options=_frozen("-w", "--timeout", "-E", "--conflict-exit-code", "-c", "--command")),  # creates the lock file
    "time": WriteSpec(operands="none", value_options=_frozen("-f", "--format"), target_options=_frozen("-o", "--output")),
    "strace": WriteSpec(operands="none", value_options=_frozen("-e", "-p", "--attach", "-s", "-u", "-E", "-P", "-I", "-a", "-b", "-S", "-O", "-X", "-U"), target_options=_frozen("-o", "--output")),
    "ltrace": WriteSpec(operands="none", value_options=_frozen("-e", "-p", "-s", "-u", "-n", "-a", "-l", "-x", "-F", "-A", "-D"), target_options=_frozen("-o", "--output")),
    "valgrind": WriteSpec(operands="none", target_options=_frozen("--log-file", "--xml-file")),
    "fakeroot": WriteSpec(operands="none", value_options=_frozen("-l", "--lib", "--faked", "-i", "-b"), target_options=_frozen("-s")),
    "logsave": WriteSpec(operands="all"),
    "script": WriteSpec(operands="all", value_options=_frozen("-c", "--command", "-E", "--echo", "-m", "--logging-format", "-o", "--output-limit"), target_options=_frozen("-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-T", "--log-timing")),
    "xvfb-run": WriteSpec(operands="none", value_options=_frozen("-n", "--server-num", "-s", "--server-args", "-p", "--xauth-protocol", "-w", "--wait"), target_options=_frozen("-e", "--error-file", "-f", "--auth-file")),
    "openssl": WriteSpec(custom=lambda words, values: _option_values(words, values, ("-out", "-keyout", "-signkey_out"), "-out")),
    # Compressors replace their operands by compressed (or decompressed) files beside them, or with -k add them:
    # both write next to the operand. -c/--stdout, -l/--list and -t/--test only read.
    **{name: WriteSpec(operands="all", value_options=_frozen("-S", "--suffix", "-b", "-T", "--threads", "-M", "--memlimit", "-F", "--format", "-C", "--check", "-o", "--output"), target_options=_frozen("-o", "--output"), not_with=_frozen("-c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test")) for name in (
        "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "lzma", "unlzma", "zstd", "unzstd", "lz4", "unlz4", "lzip", "brotli", "pigz", "pbzip2", "compress", "uncompress")},
}


def _option_values(words: list[Word], values: list[str | None], options: tuple[str, ...], how: str) -> list[Target]:
    """Single-dash long options whose next word is a written file (`openssl req -out f`, `-keyout k`)."""
    targets = []
    for i, value in enumerate(values[:-1]):
        if value in options:
            targets.append(Target(words[i + 1], values[i + 1], value or how))
        elif value is not None and value.partition("=")[0] in options and "=" in value:
            targets.append(Target(words[i], value.partition("=")[2], value.partition("=")[0]))
    return targets


@dataclass(frozen=True, slots=True)
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
        "fold", "fmt", "pr", "column", "expand", "unexpand", "rev", "tr", "look", "zcat", "bzcat", "xzcat", "zstdcat",
        "lz4cat", "zless", "zmore", "zdiff", "zcmp", "diff", "diff3", "cmp", "colordiff", "wdiff", "jq", "gron",
        "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "b3sum", "cksum", "sum",
        "shasum", "base32", "base64", "basenc", "mimetype", "identify", "pdfinfo", "pdftotext",
        "readelf", "objdump", "nm", "size", "ldd", "lsattr", "getfacl", "namei", "stat", "du", "df",
        "ls", "dir", "vdir", "exa", "eza", "lsd", "fd", "fdfind", "locate", "realpath", "readlink", "basename",
        "dirname", "pathchk", "test", "[", "[[", "echo", "printf", "true", "false", ":", "pwd", "type", "which",
        "whereis", "hash", "help", "man", "info", "whatis", "apropos", "id", "whoami", "groups", "date", "sleep",
        "seq", "yes", "expr", "factor", "numfmt", "tsort", "ptx", "printenv", "uname", "hostname", "nproc",
        "tty", "stty", "locale", "getconf", "lsof", "ps", "pgrep", "pstree", "free", "uptime", "w", "who",
        "lscpu", "lsblk", "findmnt", "mount", "cal", "ncal", "clear", "tput", "reset",
        # programs that check or lint what they are given
        "shellcheck", "checkbashisms", "yamllint", "jsonlint", "xmllint", "tidy", "hadolint",
        # shells and the builtins that run or read a script where they are (the walker looks inside what they run)
        "source", ".", "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "yash", "eval", "exec", "command", "builtin",
        "export", "declare", "typeset", "local", "readonly", "unset", "set", "shopt", "alias", "unalias", "trap",
        "read", "mapfile", "readarray", "getopts", "shift", "return", "exit", "break", "continue", "wait", "jobs",
        "fg", "bg", "kill", "disown", "umask", "ulimit", "times", "let", "caller", "complete", "compgen", "dirs",
        # judged by a rule of their own
        "cd", "pushd", "popd",
    )},
    "rg": ReadOnly(writes_with=frozenset({"--pre"})),  # --pre runs a program on every file
    # awk reads its operands; what its program writes is found by shell/embedded.py. gawk -i inplace edits them.
    **{name: ReadOnly(writes_with=frozenset({"-i", "--include", "-l", "--load"})) for name in ("awk", "gawk", "mawk", "nawk")},
    "yq": ReadOnly(writes_with=frozenset({"-i", "--inplace"})),
    "file": ReadOnly(writes_with=frozenset({"-C", "--compile"})),
}
