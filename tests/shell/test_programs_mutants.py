"""The program write tables and their option reader (shell/programs.py), pinned for mutation testing (issue 13,
phase 17).

Each row builds the step the walker would hand the rules for one command (as `test_embedded_mutants.py` does)
and compares, whole, what programs.py reads of it: `parse_argv`'s reading with the program's row (options with
their words and values, operands, `dynamic_option`, the option-like words; with and without abbreviations when
they differ), every target `written_targets` gives (word and its position, value, how, recursive, kind, base,
follows_links), what the row's `amend` makes of them (mktemp, curl), and what `written.command_writes` gives the
write rule in the end. The readings are `tests/shell/programs_readings.json`; `python -m
tests.shell.test_programs_mutants --write` rewrites it from the code as it is (a changed reading is then a diff to
read).

The rows are the commands of the other tests that run a program with a row in `BUILTIN_WRITERS` (or a reader with
`writes_with`) ("harvested" in `programs_rows.json`), one row per program and per option each writer's row names
(`PROG OPTION v a b`) and per reader (`PROG -y /m/x`, and with each `writes_with` option), and one per entry of the
custom readers' own tables (`_FIND_ARGUMENTS`, openssl's, `_ZIP_PAIRS`, tar's, ptx's…) ("table", generated once from
the tables: deleting a row or an option from them changes a reading), and the shapes mutation testing found unpinned
(`ROWS`). The helpers (`long_option`, `backup_names`,
`tar_values`, `find_start`, `find_roots`, `code_family`, `_url_glob_pieces`) are pinned on their own inputs in
`HELPER_ROWS`. The module's tables (`BUILTIN_WRITERS`' rows, `BUILTIN_READERS`, `CODE_FAMILIES`) are module-level
data, which mutmut does not mutate: the rows pin what they say through the functions that read them.

The readings pin what the code does, right or wrong. The rows under `# -- fail-opens` pin the fail-open found in
phase 17 and reported, not fixed (docs/testing.md, "Phase 17 (issue 13): shell/programs"): a fix changes their
readings, which is then the diff to read.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from tests.shell.test_shell_mutants import written_rows
from worktree_guard.shell import programs as P
from worktree_guard.shell.parse import parse
from worktree_guard.shell.programs import BUILTIN_READERS, BUILTIN_WRITERS, CWD, UNKNOWN_DIR, WriteSpec
from worktree_guard.shell.state import ShellState
from worktree_guard.shell.steps import ShellCommand, chosen_elsewhere, inherited
from worktree_guard.shell.written import ProgramTables, command_writes

READINGS = Path(__file__).with_name("programs_readings.json")
ROWS_FILE = Path(__file__).with_name("programs_rows.json")


def step(source: str, cwd: str = "/w") -> ShellCommand:
    """The last simple command of `source` as the walker builds it, in a cwd /w, with nothing assigned before."""
    node = parse(source).body[0]
    node = getattr(node, "parts", [node])[-1]
    state = ShellState(cwd=cwd)
    return ShellCommand(node=node, words=node.words, assignments=list(node.assignments), cwd=cwd, state=state, home="/h")


def _marker(value):
    return "CWD" if value == CWD else "UNKNOWN_DIR" if value == UNKNOWN_DIR else value


def _word(word, words) -> list | None:
    if word is None:
        return None
    index = next((k for k, w in enumerate(words) if w is word), -1)
    return [word.raw, index]


def _argv(argv: P.ParsedArgv, words) -> list:
    return [
        [[name, [[_word(w, words), v] for w, v in given]] for name, given in argv.options.items()],
        [[_word(w, words), v] for w, v in argv.operands],
        argv.dynamic_option,
        [_word(w, words) for w in argv.option_like],
    ]


def _targets(targets, words) -> list:
    out = []
    for t in targets:
        fields = [_word(t.word, words), _marker(t.value), t.how]
        extra = [t.recursive, t.kind, _marker(t.base), t.follows_links]
        out.append(fields if extra == [False, "write", None, False] else fields + extra)
    return sorted(out, key=json.dumps)  # the code walks sets of option names: their order is the process's hash seed


def reading_of(command: ShellCommand) -> dict:
    """Everything programs.py reads of one command, as JSON would hold it."""
    name = command.name
    words = command.words
    values = [command.value(w) for w in words]
    out: dict = {}
    spec = BUILTIN_WRITERS.get(name or "")
    if spec is not None:
        plain = _argv(P.parse_argv(words, values, spec), words)
        out["argv"] = plain
        abbreviated = _argv(P.parse_argv(words, values, spec, abbreviations=True), words)
        if abbreviated != plain:
            out["argv abbreviated"] = abbreviated
        targets = P.written_targets(spec, words, values, lambda w: inherited(w, command.state), lambda w: chosen_elsewhere(w, command.state))
        out["targets"] = _targets(targets, words)
        if spec.amend is not None:
            amended = spec.amend(command, P.parse_argv(words, values, spec, abbreviations=spec.gnu_options and spec.abbreviations), targets)
            out["amended"] = _targets(amended, words)
        bare = P.written_targets(spec, words, values)
        if _targets(bare, words) != out["targets"]:
            out["targets, nothing inherited"] = _targets(bare, words)
    elif name in BUILTIN_READERS:
        out["argv"] = _argv(P.parse_argv(words, values, WriteSpec()), words)
    tables = ProgramTables(writers=dict(BUILTIN_WRITERS), readers=dict(BUILTIN_READERS))
    out["writes"] = sorted((list(row) for row in written_rows(command_writes(command, tables), command.cwd or "\0")), key=json.dumps)
    return out


#: Rows beyond the harvested ones (programs_rows.json): shapes the screening found unpinned.
ROWS: list[str] = [
    # -- parse_argv and written_targets: abbreviations, declared options, undeclared values
    "rsync --remove-sour a b", "tar cf -- \"$U\" d", "find \"$HOME\" -name x", "find . -name x \"$HOME\"", "dd \"OF=$U\"",
    "dd \"Xof=$U\"", "dd \"of=$U\"", "dd -- \"$U\"", "sort \"-$X\" f", "sort -\"$X\" f", "rm -r --interactive=never d",
    "cp --sym a b", "cp --lin a b", "rm --recur d", "install --dir a b", "xz --fil=l", "curl --remote-name=x http://h/",
    "ln --symbolic=x a b", "ln --relative=x a b", "cp --link=x a b", "rm --recursive=x d", "chmod --reference=r f",
    "gzip --stdout=1 f", "mktemp --dry-run=x", "install --directory=x a", "mktemp --tmpdir=x", "sed --in-place=x f",
    # -- backups of an in-place edit
    "sed -i'*.orig' 's/a/b/' f", "sed -i'old/' 's/a/b/' f", "perl -i'*.b' -pe 1 f", "sed -i -i'b/*' 's/a/b/' f",
    "sed -i'b/*' 's/a/b/' \"$F\"", "sed -i'b/*' 's/a/b/' \"$F\" g", "sed -i'b/*' -e p \"$F\" g",
    # -- tar
    "tar -cf a.tar -g snap d", "tar --listed-incremental=s -cf a d", "tar --volno-file=v -cf a d", "tar -cf - d",
    "tar -cf a --remove-files \"$X\"", "tar -C \"$D\" -cf a --remove-files x", "tar -cf a --remove-files --files-from=l",
    "tar -x --to-stdout -f a", "tar -x --files-from=l -f a", "tar -x -T l -f a", "tar -xO -f a",
    # -- unzip
    "unzip -t a.zip", "unzip -p a.zip", "unzip -v a.zip", "unzip -z a.zip", "unzip -Z a.zip", "unzip -c a.zip", "unzip -l a.zip",
    "unzip -d out a.zip", "unzip a.zip",
    # -- find
    "find -D -files0-from F .", "find -delete", "find -D -fprint out .", "find . -fprint out", "find . -fprint0 o",
    "find . -fls o", "find . -fprintf o fmt", "find . -execdir \"$X\" {} \\; -name x", "find . -ok \"$X\" {} \\; -name x",
    "find . -okdir \"$X\" {} \\; -name x", "find . -exec ls \"$U\"", "find . -exec ls {} + \"$U\"", "find . -exec ls {} \\; \"$U\"",
    "find . -exec a b c \\; \"$U\"", "find . -exec \"$X\" \\;", "find . -exec ls \\; \"$U\"", "find . \"$U\" x \\;",
    "find . \"$U\" x +", "find . \"$U\" x",
    # -- zip
    "zip -sf a.zip", "zip --show-files a.zip", "zip -sf -m a.zip f", "zip --show-files --move a.zip f", "zip --temp-path=/m a.zip f",
    "zip -lf log a.zip f", "zip --move a.zip f", "zip -m a.zip f g", "zip -b /m a.zip f", "zip -O o.zip a.zip f",
    # -- python
    "python3 -c pass -m json.tool a b", "python3 -m json.tool a b c", "python3 -m json.tool a b", "python3 -m json.tool --indent 2 a b c",
    # -- openssl
    "openssl req -out \"$X\"", "openssl genrsa -out=/m/k 2048", "openssl rand -writerand /m/r", "openssl x509 -in=x",
    "openssl rand -out", "openssl x509 -in", "openssl x509 -in a -out b", "openssl x509 \"$X\" -noout",
    # -- ptx, pdftotext
    "ptx -G a b c", "pdftotext a.pdf b c", "pdftotext -", "pdftotext \"$X\"", "pdftotext a.txt", "pdftotext a.pdf",
    "pdftotext -htmlmeta a.pdf", "pdftotext A.PDF",
    # -- mktemp
    "mktemp --dry-run", "mktemp -t -p /m/d x.XXX", "mktemp -p \"$D\" x.XXXX", "mktemp -p \"$D\"", "mktemp -t x.XXX",
    # -- curl
    "curl --output x http://h/", "curl --output=/m/x http://h/", "curl --globoff -o '#1' 'http://h/{a,b}'", "curl -g -o '#1' 'http://h/{a,b}'",
    "curl -o '#1' --url 'http://h/{a,b}'", "curl -o '#1#2' 'http://h/{a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p}'",
    "curl -o '#1#2#3#4#5#6' 'http://h/{a,b,c}'", "curl -o '#1' 'http://h/{..,b}' -o y", "curl -o '#1#2' 'http://h/{a,b}{c,d}'",
    "curl --output-dir d -o \"$X\" http://h/", "curl --output-dir d -o - -o x http://h/", "curl --output-dir d -o /abs http://h/",
    "curl --output-dir d/ -o /abs http://h/", "curl --output-dir /d -o x http://h/", "curl -o '#1' 'http://h/{X,b}'",
    # -- tidy
    "tidy -o -modify f.html", "tidy -m --config c f.html", "tidy --output-file o f.html", "tidy --error-file e f.html",
    "tidy -m -f e f.html", "tidy -output o f.html", "tidy -file e f.html", "tidy -file e", "tidy -output o",
    "tidy -o out f.html", "tidy -f e f.html", "tidy --modify f.html", "tidy -modify f.html", "tidy -m f.html",
    # -- patch
    "patch --outp o", "patch --reject-file r f", "patch -r - f", "patch -r rej f", "patch -Y a/ f", "patch --basename-prefix=a/ f",
    "patch -z /x f", "patch --suffix=/x f", "patch -B \"$X\" f", "patch -B bak f", "patch -Y a/b f", "patch --basename-prefix=a/b f",
    "patch -z a/b f", "patch --suffix=a/b f", "patch -B a/ f", "patch -B a/b f", "patch --prefix=a/b f", "patch -o out f.diff",
    "patch --output=o", "patch --output o f", "patch --directory=d", "patch -d d", "patch", "patch -Y \"$X\" f",
    # -- table rows the generated ones miss: `time` is a keyword (its row is reached by path), a row with only_with
    "/usr/bin/time -f v a b", "/usr/bin/time --format v a b", "/usr/bin/time --output v a b", "/usr/bin/time -o v a b",
    "perl -i -E v a b", "perl -i -e v a b", "sed -i -f v a b", "sed -i --file v a b", "sed -i -e v a b", "sed -i --expression v a b",
    # -- fail-opens (phase 17, reported, not fixed): pdftotext's single-dash long options are read as clusters of
    # letters, so their value is taken for the input and the input for the output; the real output is not seen
    "pdftotext -enc UTF-8 in.pdf /m/out.txt", "pdftotext -opw pw in.pdf /m/out.txt", "pdftotext -upw pw in.pdf /m/out.txt",
    "pdftotext -fixed 3 in.pdf /m/out.txt", "pdftotext -eol unix in.pdf /m/out.txt", "pdftotext -cropbox in.pdf /m/out.txt",
    # -- second pass
    "find -D -files0-from F . -delete", "openssl req -out=a=b", "curl --output-dir '' -o x http://h/",
    "curl --output-dir dX/ -o /abs http://h/", "curl -o '#1' 'http://h/{" + ",".join(f"a{n}" for n in range(257)) + "}'",
    # -- xxd (phase 19): `--` and what follows it, `-` as the input or the output, two dashes before an option (`--c`
    # is `-c`), a flag before the operands, words that are all options
    "xxd -- a b", "xxd -u -- -a b", "xxd -- a", "xxd -c 8 -- a -", "xxd - b", "xxd a -", "xxd -u a b", "xxd -u",
    "xxd -c 8", "xxd --len 16 a b", "xxd --c 8 a b", "xxd --- a b", "xxd -capitalize a b", "xxd -lxyz a b",
    # -- phase 19, the functions changed since phase 17: pdftotext's `--` and `-`; mktemp's shortest --dry-run prefix;
    # curl's globbing turned back on after -g; rsync's batch, log, remote-option, files-from and receiver directories
    "pdftotext -- a b", "pdftotext -- -f /m/o.txt", "pdftotext - b", "pdftotext -l 3 - b", "mktemp --d", "mktemp --dr",
    "curl -g --no-globoff -o '#1' 'http://h/{a,b}'", "curl -g --next -o '#1' 'http://h/{a,b}'",
    "curl -g -: -o '#1' 'http://h/{a,b}'", "curl -g -o '#1' 'http://h/{a,b}'",
    "rsync --write-batch=b a d", "rsync --only-write-batch b a d", "rsync --write-batch \"$X\" a d", "rsync --log-file=l a d",
    "rsync -M--log-file=x a d", "rsync --remote-option=x a d", "rsync --remove-source-files --files-from=l a d",
    "rsync --files-from=l a d", "rsync --backup-dir=bk a", "rsync -b --backup-dir=bk a h:d", "rsync --backup-dir=bk a rsync://h/d",
    "rsync --backup-dir=bk a d/", "rsync --backup-dir=bk a d", "rsync -T t a d", "rsync --partial-dir=p a /", "rsync --temp-dir t a b d",
]



def helper_readings() -> dict:
    """The helpers on their own inputs."""
    out: dict = {}
    for name, names in HELPER_LONG:
        out[f"long_option {name} {sorted(names)}"] = P.long_option(name, frozenset(names))
    for suffix, file in HELPER_BACKUPS:
        out[f"backup_names {suffix} {file}"] = P.backup_names(suffix, file)
    for values in HELPER_VALUES:
        key = json.dumps(values)
        out[f"tar_values {key}"] = P.tar_values(list(values))
        out[f"find_start {key}"] = P.find_start(list(values))
        words = parse(" ".join(shlex.quote(v) if v is not None else '"$X"' for v in values)).body[0].words
        roots, i = P.find_roots(words, list(values))
        out[f"find_roots {key}"] = [[[_word(w, words), v] for w, v in roots], i]
    for name in HELPER_NAMES:
        out[f"code_family {name}"] = P.code_family(name)
    for urls in HELPER_URLS:
        pieces = P._url_glob_pieces(list(urls))
        out[f"_url_glob_pieces {json.dumps(urls)}"] = None if pieces is None else sorted(pieces)
    return out


HELPER_LONG: list[tuple[str, tuple[str, ...]]] = [
    ("--t", ("--target-directory", "--tmpdir")), ("--ta", ("--target-directory", "--tmpdir")), ("--x", ("--target-directory",)),
    ("--target-directory", ("--target-directory", "--target-directory-x")), ("--", ("--a",)), ("-t", ("-t", "--t")),
    ("--a", ("--b", "--ab", "--aa")), ("-", ("--",)), ("--a", ()),
]
HELPER_BACKUPS: list[tuple[str, str]] = [
    (".bak", "f"), ("*", "d/f"), ("old/*", "d/f"), ("*.x", "d/f"), ("a*b*", "f"), ("../*", "d/e/f"), ("bak/", "f"), ("*", "f"),
]
HELPER_VALUES: list[tuple] = [
    ("tar", "czf", "out.tgz", "dir"), ("tar", "xfC", "a.tar", "/m"), ("tar", "-czf", "o", "d"), ("tar", "xf", None, "d"),
    ("tar", "cf"), ("tar", "tv"), ("tar", "c1f", "o"), ("tar",), ("tar", ""), ("tar", "fC", "a"), ("tar", "CCC", "a", "b"),
    ("find", "-H", "-L", "-P", ".", "-name", "x"), ("find", "-O3", "-D", "tree", "d", "-delete"), ("find", "-Ox", "d"),
    ("find", "-O", "d"), ("find", "a", None, "(", "b"), ("find", "a", "!", "-files0-from", "F"), ("find", "-files0-from"),
    ("find", "-D"), ("find", "-D", "x"), ("find", "a", "-files0-from", "F", "-files0-from", "G"), ("find", "-files0-from", "F", "x"),
]
HELPER_NAMES: list = [None, "sed", "gawk", "nvim", "tar", "zip", "ssh", "cp", "", "vim.tiny"]
HELPER_URLS: list[tuple] = [
    ("http://h/{a,b}",), ("http://h/[1-3]",), ("http://h/x",), (None,), ("http://h/{../x,b}",), ("http://h/{..,b}",),
    ("http://h/{a}[a-c]{b,c}",), (), ("http://h/{,a}",), ("http://h/{a,b}", "http://h/{c}"), ("http://h/{a,b}", None),
    # phase 19: escapes inside and outside a set, a set first, brackets unclosed, empty, holding a `/`, a `]` after
    ("h/\\{a,b}",), ("{a,b}",), ("h/{a\\,b,c}",), ("h/{a\\}b,c}",), ("h/[1-3]x]",), ("h/[1-3",), ("h/[/]",), ("h/[]",),
    ("h/{a",), ("h/{}",), ("h/{a\\",), ("h/x\\",), ("h/\\a{b,c}",), ("h/]x[1-3]",), ("h/{a\\}",), ("h/{a[}",),
]


#: Rows read in a real directory (`link_dir()`, written `/l` in the readings) holding symlinks: cp's `amend` (`_cp`,
#: stop 35) looks at each source with `islink` and adds a copy of a link as a new link to its target; in `/w`, which
#: does not exist, no source is a link (phase 21).
LINK_ROWS: list[str] = [
    "cp -P lnabs d", "cp -P lnrel d", "cp -P sub/lnsub d", "cp -P file d", "cp -P lnabs", "cp lnabs d", "cp -d lnrel d",
    "cp -a lnrel d", "cp --archive lnrel d", "cp -R lnrel d", "cp -r lnrel d", "cp --recursive lnrel d", "cp --no-dereference lnrel d",
    "cp --no-d lnrel d", "cp --arch lnrel d", "cp --recur lnrel d",
    # -L/--dereference copies what the link names, unless -P/-d/-a is beside it
    "cp -rL lnrel d", "cp -r --dereference lnrel d", "cp -r --deref lnrel d", "cp -rl lnrel d", "cp -PL lnrel d", "cp -L --no-dereference lnrel d",
    "cp -dL lnrel d", "cp -aL lnrel d", "cp -L --archive lnrel d",
    # the sources: all operands after -t/--target-directory, else all but the last
    "cp -t d -P lnrel", "cp -t d -P lnabs lnrel", "cp --target-directory=d -P lnrel", "cp --target-directory d -r lnrel",
    "cp --target=d -r lnrel", "cp -PT lnabs lnrel", "cp -P lnabs lnrel", "cp -P lnabs lnrel sub/lnsub d", "cp -P lnrel file d",
    'cp -P "$X" lnrel d', 'cp -P lnrel "$X"',
]


def link_dir() -> str:
    """A directory holding `lnabs` (a link to /m/x), `lnrel` (to ../m), `sub/lnsub` (to ../../o), a file and `d/`,
    made once a process."""
    global _LINK_DIR
    if _LINK_DIR is None:
        import atexit
        import shutil
        import tempfile

        root = Path(tempfile.mkdtemp(prefix="wg-programs-links-")).resolve()
        atexit.register(shutil.rmtree, root, True)
        (root / "sub").mkdir()
        (root / "d").mkdir()
        (root / "file").write_text("x\n")
        (root / "lnabs").symlink_to("/m/x")
        (root / "lnrel").symlink_to("../m")
        (root / "sub" / "lnsub").symlink_to("../../o")
        _LINK_DIR = str(root)
    return _LINK_DIR


_LINK_DIR: str | None = None


def commands() -> list[tuple[str, ShellCommand]]:
    stored = json.loads(ROWS_FILE.read_text())
    out = [(source, step(source)) for source in dict.fromkeys(stored["harvested"] + stored["table"] + ROWS)]
    out += [(f"links: {source}", step(source, cwd=link_dir())) for source in LINK_ROWS]
    return out


def reading_in(key: str, command: ShellCommand) -> dict:
    """`reading_of`, with the link rows' directory written `/l`."""
    got = reading_of(command)
    if not key.startswith("links: "):
        return got
    return json.loads(json.dumps(got).replace(link_dir(), "/l"))


def readings() -> dict:
    got = {key: reading_in(key, command) for key, command in commands()}
    got.update({f"helper: {k}": v for k, v in helper_readings().items()})
    return got


def test_what_programs_reads() -> None:
    expected = json.loads(READINGS.read_text())
    rows = commands()
    helpers = {f"helper: {k}": v for k, v in helper_readings().items()}
    keys = [key for key, _ in rows] + list(helpers)
    assert len(set(keys)) == len(keys) and set(keys) == set(expected), "rows and readings differ: run with --write"
    # the link rows first: the mutants of `_cp` only they tell apart, and a screening stops at the first difference
    for key, command in sorted(rows, key=lambda row: not row[0].startswith("links: ")):
        assert json.loads(json.dumps(reading_in(key, command))) == expected[key], key
    for key, value in helpers.items():
        assert json.loads(json.dumps(value)) == expected[key], key


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    got = readings()
    lines = [f" {json.dumps(key, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}" for key, value in got.items()]
    READINGS.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    print(f"{len(got)} readings written to {READINGS}")
