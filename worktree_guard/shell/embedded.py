"""Code in a program's own language (SPEC §5.2 "strings that a program will run as code"): what it writes and
what it runs.

sed scripts (`w FILE`, `W FILE`, `s///w FILE` write; `e CMD` runs CMD; `e` alone and `s///e` run text only
known at run time), awk programs (`print > "f"` writes; `system("cmd")`, `print | "cmd"`, `"cmd" | getline`
run cmd), ed/ex scripts fed as a heredoc (`w f`, `!cmd`), and the options of tar (`--to-command`,
`--checkpoint-action=exec=`, `-I`), zip (`-TT`), rsync (`-e`), ssh/scp/sftp (`-o ProxyCommand=`…) and vim
(`-c`, `+cmd`, `--cmd`, `-S`, `-s`) that take code.

`embedded_writes` feeds `written.command_writes`; `embedded_code` feeds the program-code rule, which has the
walker walk each literal command string where the program runs it, and refuses (WG404) code it cannot read.
These are scanners for the few constructs that write or run something, not interpreters of the languages:
a script they cannot follow counts as opaque when it could hold such a construct.
"""

from __future__ import annotations

import os
import stat
import re
from typing import TYPE_CHECKING

from ..fast_dataclass import fast_dataclass, field
from ..paths import real as paths_real
from .state import UNLISTED
from .programs import _TAR_VALUES, _ZIP_VALUES, BUILTIN_WRITERS, WRITING_CODE_FAMILIES, Target, WriteSpec, built_words, code_family, long_option, parse_argv, tar_values

if TYPE_CHECKING:
    from .ast import Word
    from .steps import ShellCommand

#: Scripts read from a file (`sed -f f`, `awk -f f`) are read at check time when smaller than this.
MAX_SCRIPT_FILE = 64 * 1024


@fast_dataclass(slots=True)
class Embedded:
    """What a command's own-language code writes and runs. `commands`: (shell code, offset) to walk;
    `opaque`: why some code cannot be read (a WG404 each)."""

    writes: list[Target] = field(default_factory=list)
    commands: list[tuple[str, int]] = field(default_factory=list)
    opaque: list[str] = field(default_factory=list)


def embedded_writes(command: ShellCommand) -> list[Target]:
    """Files the command's own-language code writes (`sed 'w f'`, `awk '{print > "f"}'`, an ed script's `w f`)."""
    if code_family(command.name) not in WRITING_CODE_FAMILIES:
        return []
    return analyse(command).writes


def embedded_code(command: ShellCommand) -> Embedded:
    """Everything the command's own-language code writes and runs."""
    if code_family(command.name) is None:
        return Embedded()
    return analyse(command)


def analyse(command: ShellCommand) -> Embedded:
    family = code_family(command.name)
    values = command.values()
    words = command.words
    found = Embedded()
    if family == "sed":
        _sed(command, words, values, found)
    elif family == "awk":
        _awk(command, words, values, found)
    elif family in ("ed", "ex"):
        _ed_like(command, values, found, family)
    elif family == "vim":
        _vim(command, words, values, found)
    elif family == "tar":
        values = [_tar_code_option(v) for v in tar_values(values) or values]
        _option_code(words, values, found, ("--to-command", "--use-compress-program", "--rsh-command", "--rmt-command", "--info-script", "--new-volume-script"), ("-I", "-F"), _TAR_VALUES)
        for i, value in enumerate(values):
            if value == "--checkpoint-action" and i + 1 < len(values):  # its value as the next word (review 30c)
                if values[i + 1] is None:
                    found.opaque.append(f"`{command.name}` runs a command only known at run time ({words[i + 1].raw})")
                elif values[i + 1].startswith("exec="):  # type: ignore[union-attr]
                    found.commands.append((values[i + 1][5:], _offset(words[i + 1])))  # type: ignore[index]
            if value is not None and value.startswith("--checkpoint-action="):
                action = value.partition("=")[2]
                if action.startswith("exec="):
                    found.commands.append((action[5:], _offset(words[i])))
            elif value is None and words[i].raw.startswith(("--to-command", "--checkpoint-action", "--use-compress-program")):
                found.opaque.append(f"`{command.name}` runs a command only known at run time ({words[i].raw})")
    elif family == "zip":
        _option_code(words, values, found, ("--unzip-command",), ("-TT",), _ZIP_VALUES, equals=True)
    elif family == "rsync":
        # popt drops the `=` of an attached short value too (review 31a: `rsync -e='sh -c …'` ran sh)
        _option_code(words, values, found, ("--rsh",), ("-e",), BUILTIN_WRITERS["rsync"].value_options, equals=True)
    elif family == "ssh":
        _ssh(command, words, values, found)
    if family in _CODE_OPTION_VALUES:
        _option_like(command, words, values, found, _CODE_OPTION_VALUES[family])
    return found


#: The options that take a value, of the families with options that run code: a word given as one's value is that
#: value, while any other word only known at run time may be such an option itself.
_CODE_OPTION_VALUES: dict[str, frozenset[str]] = {
    "tar": _TAR_VALUES,
    "zip": _ZIP_VALUES,
    "rsync": BUILTIN_WRITERS["rsync"].value_options,
    "sed": BUILTIN_WRITERS["sed"].value_options,
    "ssh": frozenset({"-B", "-b", "-c", "-D", "-E", "-e", "-F", "-I", "-i", "-J", "-L", "-l", "-m", "-O", "-o", "-P", "-p", "-Q", "-R", "-S", "-W", "-w"}),
    "vim": frozenset({"-c", "--cmd", "-S", "-s", "-w", "-W", "-T", "-u", "-U", "-i", "-t", "-q", "-r", "--servername", "--remote", "--remote-send", "--remote-expr", "--startuptime"}),
}


def _option_like(command: ShellCommand, words: list[Word], values: list[str | None], found: Embedded, value_options: frozenset[str]) -> None:
    """A word only known at run time where an option may stand, which the command built, may be an option that runs
    code (stop 30: `rsync "$O" h:a b` with O=`-esh -c …`, `sed -e p "$F" f` with F=`--expression=e cmd`)."""
    from .steps import chosen_elsewhere

    argv = parse_argv(words, values, WriteSpec(value_options=value_options))
    built = built_words(argv, lambda word: chosen_elsewhere(word, command.state))
    if built:
        found.opaque.append(f"`{command.name}` is given {built[0].raw}, only known at run time, which may be one of its options that run code")


#: tar's options that run a command; getopt_long takes a unique prefix of one (review 30b: `--checkpoint-act=exec=…`).
_TAR_CODE_OPTIONS = ("--to-command", "--checkpoint-action", "--use-compress-program", "--rsh-command", "--rmt-command", "--info-script", "--new-volume-script")


def _tar_code_option(value: str | None) -> str | None:
    """A long option that begins one of tar's code options written in full (`long_option`); `--checkpoint` is an
    option of its own."""
    if value is None or not value.startswith("--"):
        return value
    name, eq, rest = value.partition("=")
    if name == "--checkpoint":
        return value
    return long_option(name, _TAR_CODE_OPTIONS) + eq + rest


# -- sed ------------------------------------------------------------------------------------------------

_SED_VALUE_OPTIONS = frozenset({"-e", "--expression", "-f", "--file", "-l", "--line-length"})
#: Read by their unique prefixes too (`--sandbox` only written out: read as another option, its prefix is safe).
_SED_LONG_OPTIONS = ("--expression", "--file", "--line-length")


def _sed(command: ShellCommand, words: list[Word], values: list[str | None], found: Embedded) -> None:
    scripts: list[tuple[str, int]] = []
    given = False
    i = 1
    while i < len(values):
        value = values[i]
        if value is None:
            if words[i].raw.startswith("-"):
                found.opaque.append(f"`{command.name}` has an option only known at run time ({words[i].raw})")
            elif not given:
                found.opaque.append(f"`{command.name}` runs a script only known at run time ({words[i].raw})")
                given = True
            i += 1
            continue
        if value == "--sandbox":
            return  # GNU sed refuses e, w and r in sandbox mode
        if value == "--":
            if not given and i + 1 < len(values):  # the script is the first operand after it (h-emb31: `sed -- 'w <main>/x' f`)
                if values[i + 1] is None:
                    found.opaque.append(f"`{command.name}` runs a script only known at run time ({words[i + 1].raw})")
                else:
                    scripts.append((values[i + 1], _offset(words[i + 1])))  # type: ignore[arg-type]
            break
        name, eq, attached = value.partition("=")
        if value.startswith("--"):
            name = long_option(name, _SED_LONG_OPTIONS)  # `--exp='e cmd'` (stop 31)
        elif value.startswith("-") and len(value) > 2:
            # a cluster: `-nf scr` is `-n -f scr` (stop 31: it ran scr's `e cmd`), `-ne p`, `-es/a/b/`
            name, attached = _sed_cluster(value)
            eq = "=" if attached else ""
        if name in ("-e", "--expression", "-f", "--file"):
            if eq:
                text, at = attached, words[i]
                i += 1
            else:
                if i + 1 >= len(values):
                    break
                text, at = values[i + 1], words[i + 1]
                i += 2
            given = True
            if text is None:
                found.opaque.append(f"`{command.name}` runs a script only known at run time ({at.raw})")
            elif name in ("-f", "--file"):
                content = _read_script(text, command)
                if content is None:
                    found.opaque.append(f"`{command.name} -f {text}`: worktree-guard cannot read that script")
                else:
                    scripts.append((content, at.span[0]))
            else:
                scripts.append((text, _offset(at)))
            continue
        if value.startswith("-") and len(value) > 1:
            if name in _SED_VALUE_OPTIONS and not eq:  # `-l 5`, `--line-length 5`, a cluster ending in `l`
                i += 2
                continue
            i += 1
            continue
        if not given:
            scripts.append((value, _offset(words[i])))
            given = True
        i += 1
    for text, offset in scripts:
        _sed_script(text, offset, found, command.name or "sed")


def _abbreviations(word: str, shortest: int) -> str:
    """A regex for an ex command and each abbreviation of it down to `shortest` letters (`w`, `wr`, … `write`)."""
    return word[:shortest] + "".join(f"(?:{letter}" for letter in word[shortest:]) + ")?" * (len(word) - shortest)


#: An ed/ex/vim command that writes (or reads, `r`, `e`): an optional global prefix, range and `:silent`, the verb
#: (any abbreviation ex accepts), `!`, and its argument.
_EX_WRITE = re.compile(
    r"^(?:[gGvV]/(?:[^/\\]|\\.)*/)?"
    r"(?:%|[.$]|\d+|'[a-z<>]|[\d.$']+[,;][\d.$']+)?\s*"
    r"(?:" + _abbreviations("silent", 3) + r"!?\s+)?"
    r"(" + "|".join((
        "wq", _abbreviations("wqall", 3), _abbreviations("wall", 2), _abbreviations("wnext", 2), _abbreviations("wNext", 2),
        _abbreviations("wprevious", 2), _abbreviations("write", 1), "W", "r", "e", "E", _abbreviations("xit", 1),
        _abbreviations("xall", 2), _abbreviations("exit", 3), _abbreviations("saveas", 3), _abbreviations("update", 2),
    )) + r")(?![A-Za-z])!?\s*(.*)$",
    re.S,
)


#: ed's commands are single letters whose file name may follow at once (`wx` writes x).
_ED_WRITE = re.compile(r"^(?:[gGvV]/(?:[^/\\]|\\.)*/)?(?:%|[.$]|\d+|'[a-z]|[\d.$']+[,;][\d.$']+)?\s*(wq|w|W|r|e|E)!?\s*(.*)$", re.S)


def _sed_cluster(value: str) -> tuple[str, str]:
    """The option of a cluster of sed's short options that takes a value (`-e`, `-f`, `-l`) with the rest of the
    word as its value ("" when the next word is), or the cluster itself when none does. `-i` takes the rest as its
    suffix (`-ie` is `-i` with the suffix `e`)."""
    for j, letter in enumerate(value[1:], start=1):
        if letter == "i":
            break
        if letter in "efl":
            return "-" + letter, value[j + 1:]
    return value, ""


def _read_script(path: str, command: ShellCommand) -> str | None:
    """A script file's text, read at check time; "" when it does not exist and this command did not write it
    (the program will fail to open it); None when it cannot be read, is stdin (`-`), or was written earlier in the
    command, itself or a directory above it (git and extractions fill directories)."""
    cwd = command.cwd
    if path == "-":
        return None  # the script is read from stdin (`… | sed -f - f`, `awk -f -`: stop 31, they passed)
    if not path.startswith("/"):
        if cwd is None:
            return None
        path = os.path.join(cwd, path)
    real = paths_real(path)
    for done in command.state.written:
        if done is not None and done.startswith(UNLISTED):
            done = done[len(UNLISTED):] or None
        if done is None or real == done or real.startswith(done.rstrip("/") + "/"):
            return None  # written earlier, or below a directory written earlier (review 31a: `tar -xf a.tar && sed -f scr`)
    # Only a regular file is read: `/dev/stdin`, `/dev/fd/3`, a FIFO hold what the command feeds the program at
    # run time, and opening them here would read (or block on) the hook's own input instead.
    normal = "/" + os.path.normpath(path).lstrip("/")
    # (a link into a process's own /proc, `l -> /proc/self/cwd/s.awk`, is kept as written: the shell's, stop 37)
    if normal.startswith(("/dev/", "/proc/")) or paths_real(normal).startswith(("/dev/", "/proc/")):
        return None
    try:
        if not stat.S_ISREG(os.stat(normal).st_mode) or os.path.getsize(normal) > MAX_SCRIPT_FILE:
            return None
        fd = os.open(normal, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
        with os.fdopen(fd, encoding="utf-8", errors="replace") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None  # replaced between the two looks
            return f.read(MAX_SCRIPT_FILE + 1)
    except FileNotFoundError:
        return ""
    except OSError:
        return None


class _Unreadable(Exception):
    pass


def _sed_script(text: str, offset: int, found: Embedded, name: str) -> None:
    """The `w`/`W`/`e` commands and `s` flags of one sed script (GNU syntax)."""
    try:
        _SedScanner(text, offset, found, name).run()
    except _Unreadable as error:
        # Only a script that could hold a write or an exec is a problem when it cannot be followed.
        if re.search(r"[wWe]", text):
            found.opaque.append(f"`{name}` script cannot be followed by worktree-guard ({error}); it could write or run something")


class _SedScanner:
    def __init__(self, text: str, offset: int, found: Embedded, name: str) -> None:
        self.s, self.i, self.offset, self.found, self.name = text, 0, offset, found, name

    def peek(self) -> str:
        return self.s[self.i] if self.i < len(self.s) else ""

    def at(self, chars: str) -> bool:
        """Whether the next character is one of `chars` (never at the end: `"" in " "` is True in Python)."""
        return self.i < len(self.s) and self.s[self.i] in chars

    def rest_of_line(self) -> str:
        end = self.s.find("\n", self.i)
        end = len(self.s) if end < 0 else end
        text = self.s[self.i : end]
        self.i = end
        return text

    def until_delimiter(self, delimiter: str) -> str:
        out = []
        while self.i < len(self.s):
            c = self.s[self.i]
            if c == "\\" and self.i + 1 < len(self.s):
                out.append(self.s[self.i : self.i + 2])
                self.i += 2
                continue
            if c == delimiter:
                self.i += 1
                return "".join(out)
            if c == "\n" and delimiter != "\n":
                raise _Unreadable("an unterminated s, y or address")
            out.append(c)
            self.i += 1
        raise _Unreadable("an unterminated s, y or address")

    def two_sections(self, command: str) -> None:
        """The `/regex/replacement/` of `s` or `/from/to/` of `y`, with the delimiter the script chose."""
        delimiter = self.peek()
        if not delimiter or delimiter in "\n\\":
            raise _Unreadable(f"a {command} command without a delimiter")
        self.i += 1
        self.until_delimiter(delimiter)
        self.until_delimiter(delimiter)

    def address(self) -> None:
        for _ in range(2):
            c = self.peek()
            if c.isdigit():
                while self.peek().isdigit() or self.peek() == "~":
                    self.i += 1
            elif c == "$":
                self.i += 1
            elif c == "/" or c == "\\":
                if c == "\\":
                    self.i += 1
                delimiter = self.peek()
                if not delimiter:
                    raise _Unreadable("an address without a delimiter")
                self.i += 1
                self.until_delimiter(delimiter)
                while self.peek() in ("I", "M"):
                    self.i += 1
            elif c and c in "+~" and _ > 0:
                self.i += 1
                while self.peek().isdigit():
                    self.i += 1
            if self.peek() == "," and _ == 0:
                self.i += 1
                while self.at(" \t"):
                    self.i += 1
                continue
            break

    def run(self) -> None:
        s = self.s
        while self.i < len(s):
            c = s[self.i]
            if c in " \t\n;{}!":
                self.i += 1
                continue
            if c == "#":
                self.rest_of_line()
                continue
            self.address()
            while self.at(" \t!"):
                self.i += 1
            c = self.peek()
            if not c:
                return
            self.i += 1
            if c in "{}":
                continue
            if c in "aic":
                if self.peek() == "\\":
                    self.i += 1
                # The text runs to an unescaped newline.
                while self.i < len(s):
                    line = self.rest_of_line()
                    if not line.endswith("\\"):
                        break
                    self.i += 1
                continue
            if c in ":btT":
                while self.i < len(s) and s[self.i] not in ";\n":
                    self.i += 1
                continue
            if c in "rR":
                self.rest_of_line()
                continue
            if c in "wW":
                self.write(self.rest_of_line().strip())
                continue
            if c == "e":
                command = self.rest_of_line().strip()
                if command:
                    self.found.commands.append((command, self.offset + self.i - len(command)))
                else:
                    self.found.opaque.append(f"`{self.name}`'s `e` command runs the pattern space, which is only known at run time")
                continue
            if c == "s":
                self.two_sections(c)
                while self.i < len(s) and (s[self.i].isdigit() or s[self.i] in "gpiImMe"):
                    if s[self.i] == "e":
                        self.found.opaque.append(f"`{self.name}`'s `s///e` runs the pattern space, which is only known at run time")
                    self.i += 1
                if self.peek() == "w":
                    self.i += 1
                    self.write(self.rest_of_line().strip())
                continue
            if c == "y":
                self.two_sections(c)
                continue
            if c in "lqQLv":
                while self.at("0123456789 \t"):
                    self.i += 1
                continue
            if c in "=dDgGhHnNpPxzF":
                continue
            raise _Unreadable(f"the command {c!r}")

    def write(self, path: str) -> None:
        if not path:
            raise _Unreadable("a w command without a file name")
        self.found.writes.append(Target(None, path, f"its script's `w {path}`"))


# -- awk ------------------------------------------------------------------------------------------------

_AWK_VALUE_OPTIONS = frozenset({"-F", "--field-separator", "-v", "--assign", "-f", "--file", "-e", "--source", "-i", "--include", "-l", "--load", "-W", "-E", "--exec"})
_AWK_TOKEN = re.compile(r"""
    (?P<space>[ \t\r]+|\\\n)
  | (?P<newline>\n)
  | (?P<comment>\#[^\n]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+)
  | (?P<op>\|\||\|&|>>|>=|==|!=|<=|&&|\+\+|--|[-+*/%^!<>|?:=~,;(){}\[\]$])
""", re.VERBOSE)


def _awk(command: ShellCommand, words: list[Word], values: list[str | None], found: Embedded) -> None:
    programs: list[tuple[str, int]] = []
    from_file = False
    inplace = False
    i = 1
    while i < len(values):
        value = values[i]
        if value is None:
            if words[i].raw.startswith("-"):
                i += 1
                continue
            if not programs and not from_file:
                found.opaque.append(f"`{command.name}` runs a program only known at run time ({words[i].raw})")
            break
        if value == "--":
            i += 1
            if i < len(values) and not programs and not from_file:
                if values[i] is None:
                    found.opaque.append(f"`{command.name}` runs a program only known at run time ({words[i].raw})")
                else:
                    programs.append((values[i], _offset(words[i])))  # type: ignore[arg-type]
            break
        name, eq, attached = value.partition("=")
        if value.startswith("--"):
            name = long_option(name, _AWK_LONG_OPTIONS)  # gawk's getopt_long (review 31c: `gawk --inc=lib`)
        short = value[:2] if value.startswith("-") and not value.startswith("--") else None
        if name in _AWK_VALUE_OPTIONS or (short in _AWK_VALUE_OPTIONS and len(value) > 2):
            if eq and name.startswith("--"):
                text, at, i = attached, words[i], i + 1
            elif short and len(value) > 2:
                name, text, at, i = short, value[2:], words[i], i + 1
            else:
                text = values[i + 1] if i + 1 < len(values) else None
                at, i = words[min(i + 1, len(words) - 1)], i + 2
            if name in ("-f", "--file", "-E", "--exec"):
                from_file = True
                inplace = inplace or text in ("inplace", "inplace.awk")
                # gawk looks for a name without `/` on AWKPATH (review 32a: `AWKPATH=lib awk -f prog.awk f` ran lib's)
                searched = text is not None and "/" not in text and command.env("AWKPATH")[0]
                content = _read_script(text, command) if text is not None and not searched else None
                if content is None:
                    found.opaque.append(f"`{command.name} -f`: worktree-guard cannot read that program")
                else:
                    programs.append((content, at.span[0]))
            elif name in ("-e", "--source"):
                if text is None:
                    found.opaque.append(f"`{command.name}` runs a program only known at run time")
                else:
                    programs.append((text, _offset(at)))
            elif name in ("-i", "--include"):
                # gawk includes a source file, as -f reads one, searched on AWKPATH (h-emb31: `gawk -i ./evil.awk`);
                # the library it ships (`-i inplace`: its operands are written, shell/programs' reader row) is not code
                inplace = inplace or text in ("inplace", "inplace.awk")
                _awk_include(command, text, at, programs, found)
            elif name == "-W":
                # `-W exec FILE` (mawk, gawk; a prefix too: `-We FILE`) reads the program from FILE (review 31a)
                option = (text or "").partition("=")[0].lower()
                if text is None or option and "exec".startswith(option):
                    from_file = True
                    if text is None or i >= len(values) or values[i] is None:
                        found.opaque.append(f"`{command.name} -W` runs a program only known at run time")
                    else:
                        content = _read_script(values[i], command)  # type: ignore[arg-type]
                        if content is None:
                            found.opaque.append(f"`{command.name} -W exec`: worktree-guard cannot read that program")
                        else:
                            programs.append((content, words[i].span[0]))
                    i += 1
            continue
        if value.startswith("-") and len(value) > 1:
            i += 1
            continue
        if not programs and not from_file:
            programs.append((value, _offset(words[i])))
            i += 1
        break
    seen: set[str] = set()
    index = 0
    while index < len(programs):  # an included file's own `@include`s too, each once, as gawk reads them (stop 32)
        for included in re.findall(_AWK_INCLUDE + r'"([^"]*)"', programs[index][0]):  # review 31c: `gawk '@include "lib"' f`
            if included in seen:
                continue
            seen.add(included)
            inplace = inplace or included in ("inplace", "inplace.awk")
            if len(seen) > MAX_AWK_INCLUDES:
                found.opaque.append(f"`{command.name}` includes more than {MAX_AWK_INCLUDES} source files")
                break
            _awk_include(command, included, None, programs, found)
        index += 1
    for text, offset in programs:
        _awk_program(text, offset, found, command.name or "awk")
    if inplace or any(re.search(_AWK_INCLUDE.replace("include", "(include|load)") + r'"inplace(\.awk)?"', text) for text, _ in programs):
        # gawk's inplace library rewrites every file operand (review 31b: `gawk -f inplace`, `@include "inplace"`)
        for word, operand in zip(words[i:], values[i:]):
            if operand is None or (operand != "-" and not re.match(r"[A-Za-z_][A-Za-z0-9_]*=", operand)):
                found.writes.append(Target(word, operand, "gawk's inplace library rewrites it"))


#: gawk's `@include` directive up to its quoted name: no blank is needed, and a backslash-newline is one (review 32b:
#: `@include"inplace"`).
_AWK_INCLUDE = r'@include(?:\s|\\\n)*'

#: More `@include`d files than this (each read from disk) and the program is not followed.
MAX_AWK_INCLUDES = 32

_AWK_LONG_OPTIONS = ("--field-separator", "--assign", "--file", "--source", "--include", "--load", "--exec")


def _awk_include(command: ShellCommand, text: str | None, at: Word | None, programs: list[tuple[str, int]], found: Embedded) -> None:
    """A source file gawk includes (`-i F`, `@include "F"`), found on AWKPATH, whose default starts with the cwd (review
    31c: `./inplace.awk` is taken before gawk's own library): read as `-f` reads one, as F or F.awk; gawk's own
    library (in /usr/share/awk) when neither is in the cwd; otherwise opaque."""
    if text is None or command.env("AWKPATH")[0] or command.cwd is None:  # set here, before, or maybe (review 32a)
        found.opaque.append(f"`{command.name}` includes a source file worktree-guard cannot find ({text})")
        return
    names = [text] if text.endswith(".awk") else [text, text + ".awk"]
    here = [name for name in names if os.path.exists(os.path.join(command.cwd, name))]
    if not here and "/" not in text and (text in ("inplace", "inplace.awk") or any(os.path.isfile(os.path.join("/usr/share/awk", name)) for name in names)):
        return  # gawk's own library
    for name in here[:1] or names[:1]:
        content = _read_script(name, command)
        if content:
            programs.append((content, at.span[0] if at is not None else command.span[0]))
        else:
            found.opaque.append(f"`{command.name}` includes {text}, which worktree-guard cannot read")


def _awk_string(token: str) -> str:
    """The value of an awk string literal (its escapes as awk reads them)."""
    body = token[1:-1]
    escapes = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "/": "/", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
    return re.sub(r"\\(.)", lambda m: escapes.get(m.group(1), "\\" + m.group(1)), body)


def _awk_program(text: str, offset: int, found: Embedded, name: str) -> None:
    tokens: list[tuple[str, str, int]] = []
    pos = 0
    previous = ""
    while pos < len(text):
        c = text[pos]
        if c == "/" and previous not in ("name", "number", "string", ")", "]", "$", "regex", "++", "--"):
            end = pos + 1
            while end < len(text) and text[end] != "/":
                if text[end] == "\\":
                    end += 1
                elif text[end] == "[":  # a bracket expression may hold a `/`
                    close = text.find("]", end + 2)
                    end = close if close > 0 else end
                elif text[end] == "\n":
                    break
                end += 1
            tokens.append(("regex", text[pos : end + 1], pos))
            previous, pos = "regex", end + 1
            continue
        match = _AWK_TOKEN.match(text, pos)
        if match is None:
            if re.search(r"system|\||>|getline", text):
                found.opaque.append(f"`{name}` program cannot be followed by worktree-guard; it could write or run something")
            return
        kind = match.lastgroup or ""
        token = match.group(0)
        pos = match.end()
        if kind in ("space", "comment"):
            continue
        kind = token if kind == "op" else kind
        tokens.append((kind, token, match.start()))
        if kind != "newline":
            previous = kind
    _awk_statements(tokens, offset, found, name)


def _awk_statements(tokens: list[tuple[str, str, int]], offset: int, found: Embedded, name: str) -> None:
    in_print = False
    depth = 0
    for k, (kind, token, at) in enumerate(tokens):
        following = tokens[k + 1] if k + 1 < len(tokens) else ("", "", at)
        if kind == "name" and token in ("print", "printf"):
            in_print, depth = True, 0
            continue
        if kind in ("(", "["):
            depth += 1
        elif kind in (")", "]"):
            depth -= 1
        elif kind in (";", "newline", "{", "}"):
            in_print = False
        if kind == "name" and token == "system":
            argument = tokens[k + 2] if k + 2 < len(tokens) else ("", "", at)
            closing = tokens[k + 3] if k + 3 < len(tokens) else ("", "", at)
            if following[0] == "(" and argument[0] == "string" and closing[0] == ")":
                found.commands.append((_awk_string(argument[1]), offset + argument[2] + 1))
            else:
                found.opaque.append(f"`{name}` calls system() with a command only known at run time")
        elif kind in ("|", "|&"):
            if following[0] == "name" and following[1] == "getline":
                before = tokens[k - 1] if k > 0 else ("", "", at)
                start = tokens[k - 2] if k > 1 else ("newline", "", at)
                if before[0] == "string" and start[0] in ("newline", ";", "{", "}", "(", "=", ",", "name", "&&", "||", "!"):
                    found.commands.append((_awk_string(before[1]), offset + before[2] + 1))
                else:
                    found.opaque.append(f"`{name}` reads from a command only known at run time (`… | getline`)")
            elif following[0] == "string":
                found.commands.append((_awk_string(following[1]), offset + following[2] + 1))
            else:
                found.opaque.append(f"`{name}` pipes into a command only known at run time (`print | …`)")
        elif kind in (">", ">>") and in_print and depth == 0:
            if following[0] == "string":
                found.writes.append(Target(None, _awk_string(following[1]), f"its program's `print {kind} {following[1]}`"))
            else:
                found.writes.append(Target(None, None, f"its program's `print {kind}` to a file only known at run time"))


# -- ed, ex, vim ----------------------------------------------------------------------------------------

_ED_ADDRESS = re.compile(r"^(?:[0-9.$,;+\-^ ]|'[a-z]|/(?:[^/\\\n]|\\.)*/?|\?(?:[^?\\\n]|\\.)*\??)*")


def _stdin_script(command: ShellCommand) -> str | None:
    for redirect in command.node.redirects:
        if redirect.op in ("<<", "<<-") and redirect.heredoc is not None:
            return redirect.heredoc if redirect.heredoc_quoted or "$" not in redirect.heredoc and "`" not in redirect.heredoc else None
        if redirect.op == "<<<" and redirect.target is not None:
            return command.value(redirect.target)
    return None


def _ed_like(command: ShellCommand, values: list[str | None], found: Embedded, family: str) -> None:
    """ed reads its commands from its input: a literal heredoc or here-string is read, anything else is opaque."""
    if any(v in ("--version", "-V", "--help", "-h") for v in values[1:]):
        return
    if family == "ex":
        _vim_options(command, command.words, values, found, ex_mode=True)
    script = _stdin_script(command)
    if script is None:
        found.opaque.append(f"`{command.name}` reads its commands from its input, which worktree-guard cannot see; edit the file another way")
        return
    start = len(found.commands)
    _ed_script(script, found, command.name or family)
    found.commands[start:] = [(code, command.span[0]) for code, _ in found.commands[start:]]


def _ed_script(script: str, found: Embedded, name: str) -> None:
    text_mode = False
    for line in script.split("\n"):
        if text_mode:
            text_mode = line != "."
            continue
        rest = _ED_ADDRESS.sub("", line.lstrip(": \t"), count=1).strip()
        if not rest:
            continue
        if rest[0] in "aic" and (len(rest) == 1 or not rest[1].isalpha()):
            text_mode = True
            continue
        if rest.startswith("!"):
            found.commands.append((rest[1:], 0))
            continue
        # the longer verbs first (h-emb31: `wq <main>/x` was read as `w` of `q <main>/x`, `write` as `w` of `rite …`)
        # (review 31c: verbs abbreviated as ex takes them, `wri`, `savea`, `wn`; a range, `%w f`; `sil w f`)
        match = (_ED_WRITE if code_family(name) == "ed" else _EX_WRITE).match(rest)
        if match:
            verb, argument = match.group(1), match.group(2).strip()
            if argument.startswith(">>"):
                argument = argument[2:].strip()  # `w >> file` appends to it
            if argument.startswith("!"):
                found.commands.append((argument[1:], 0))
            elif verb not in ("r", "e", "E") and argument:
                found.writes.append(Target(None, argument, f"its script's `{verb} {argument}`"))
            continue
        if re.search(r"\b(system|call|exe|execute|source|so|py|python|lua|perl|ruby)\b", rest):
            found.opaque.append(f"`{name}` script runs code worktree-guard cannot read ({rest[:40]!r})")


def _vim(command: ShellCommand, words: list[Word], values: list[str | None], found: Embedded) -> None:
    ex_mode = any(v is not None and v.startswith("-") and not v.startswith("--") and ("e" in v[1:] or "E" in v[1:]) for v in values[1:])
    _vim_options(command, words, values, found, ex_mode=ex_mode)
    if ex_mode:  # Ex mode reads its commands from its input, silent (`-es`) or not (h-emb31: `vim -e f <<< 'w! …'`)
        script = _stdin_script(command)
        if script is None:
            found.opaque.append(f"`{command.name}` in ex mode reads its commands from its input, which worktree-guard cannot see")
        else:
            _ed_script(script, found, command.name or "vim")


def _vim_options(command: ShellCommand, words: list[Word], values: list[str | None], found: Embedded, ex_mode: bool = False) -> None:
    """`-c`, `--cmd`, `+cmd`, `-S file`, `-s scriptin` (in ex mode `-s` is only "silent"), `-w`/`-W scriptout`."""
    for i, value in enumerate(values[1:], start=1):
        if ex_mode and value is not None and value.startswith("-") and not value.startswith("--") and set(value[1:]) <= set("esEnNXZ"):
            continue
        if value is None:
            if words[i].raw.startswith(("-", "+")):
                found.opaque.append(f"`{command.name}` has an option only known at run time ({words[i].raw})")
            continue
        if value in ("-c", "--cmd", "-S", "-s", "-w", "-W") or (value.startswith("+") and not re.fullmatch(r"\+(\d*|/.*)", value)):
            found.opaque.append(f"`{command.name} {value}` runs editor commands worktree-guard cannot look inside; edit the file another way")
        elif value in ("-u", "-U") and (values[i + 1] if i + 1 < len(values) else None) not in ("NONE", "NORC", "DEFAULTS"):
            # a vimrc is Vim script (h-emb31: `vim -u evil.vim -es f <<< q` ran it)
            found.opaque.append(f"`{command.name} {value}` runs a vimrc worktree-guard cannot look inside")
        elif value in ("-i", "--startuptime") and i + 1 < len(values) and values[i + 1] != "NONE":
            found.writes.append(Target(words[i + 1], values[i + 1], f"`{value}` writes it"))


# -- options that take a command ------------------------------------------------------------------------


def _next_word_code(words: list[Word], values: list[str | None], i: int, option: str, found: Embedded) -> None:
    """The word after option `values[i]` is the command it runs: walked, or opaque when only known at run time."""
    if values[i + 1] is None:
        found.opaque.append(f"{option} runs a command only known at run time ({words[i + 1].raw})")
    else:
        found.commands.append((values[i + 1], _offset(words[i + 1])))  # type: ignore[arg-type]


def _option_code(words: list[Word], values: list[str | None], found: Embedded, long: tuple[str, ...], short: tuple[str, ...], takes_value: frozenset[str] = frozenset(), equals: bool = False) -> None:
    """The commands given to the options `long` and `short` that run one: `--opt=CMD`, `--opt CMD` (a unique prefix
    of a long one too: stop 31, `zip --unzip-comm=…`), `-xCMD` and `-x CMD`, also after a cluster of other letters
    (`-xIsh`), where a short option may be two letters (zip's `-TT`). `equals`: the program drops the `=` of an
    attached short value (zip's `-TT=CMD`)."""
    names = long + tuple(option for option in takes_value if option.startswith("--"))
    i = 1
    while i < len(values):
        value = values[i]
        if value is None:
            i += 1
            continue
        name, eq, attached = value.partition("=")
        name = long_option(name, names)
        if value[:1] == "-" and value[1:2] != "-" and len(value) > 2 and value not in short:
            # a cluster (`-xIsh`, `-I'rm …'`: review 30a): a letter that takes a value takes the rest of the word
            j = 1
            while j < len(value):
                pair = "-" + value[j:j + 2]
                letter = pair if len(pair) == 3 and (pair in short or pair in takes_value) else "-" + value[j]
                j += len(letter) - 1
                if letter in short:
                    rest = value[j:]
                    if equals and rest.startswith("="):
                        rest, j = rest[1:], j + 1
                    if rest:
                        found.commands.append((rest, _offset(words[i]) + j))
                    elif i + 1 < len(values):
                        _next_word_code(words, values, i, letter, found)
                        i += 1
                    break
                if letter in takes_value:
                    if not value[j:]:
                        i += 1  # the next word is its value
                    break
            i += 1
            continue
        if name in long and eq:
            found.commands.append((attached, _offset(words[i]) + len(value) - len(attached)))
        elif not eq and (name in long or value in short):
            if i + 1 < len(values):
                _next_word_code(words, values, i, name, found)
            i += 2
            continue
        elif value == "--":
            return
        i += 1


_SSH_CODE_OPTIONS = ("proxycommand", "localcommand", "knownhostscommand", "remotecommand")


#: The short options of ssh, scp, sftp and ssh-copy-id that take a value: in a cluster of flags, the rest of the word
#: or the next word is its value (`ssh -qo ProxyCommand=… h`: stop 31; scp's -p, -B, -O are flags: review 31b).
_SSH_VALUE_LETTERS = {"ssh": "BbcDEeFIiJLlmOoPpQRSWw", "scp": "cDFiJlPSoX", "sftp": "BbcDFiJlPRSsoX", "ssh-copy-id": "iopFt"}
#: …and those whose value is a program it runs here (scp's and sftp's -S, sftp's -D: review 31b).
_SSH_PROGRAM_LETTERS = {"scp": "SD", "sftp": "SD"}  # scp -D: the sftp server it runs here (review 31c)


def _ssh(command: ShellCommand, words: list[Word], values: list[str | None], found: Embedded) -> None:
    """`ssh -o ProxyCommand=…` (and LocalCommand, KnownHostsCommand) runs on this machine; `scp -S prog` too; a config
    file (`-F cfg`) may hold any of them, or `Match exec`, and is not read (`/dev/null` and `none` name no file)."""
    name = command.name
    letters = _SSH_VALUE_LETTERS.get(name or "", _SSH_VALUE_LETTERS["ssh"])
    programs = _SSH_PROGRAM_LETTERS.get(name or "", "")
    operands = 0
    i = 1
    while i < len(values):
        value = values[i]
        i += 1
        if value is None or not value.startswith("-") or value.startswith("--"):
            operands += 1
            if name == "ssh" and operands > 1:
                break  # the command ssh runs on the host begins (review 31b: `ssh h grep -F x f`)
            continue
        for j in range(1, len(value)):
            letter = value[j]
            if letter not in letters:
                continue
            if value[j + 1:]:
                given, at = value[j + 1:], words[i - 1]
            elif i < len(values):
                given, at = values[i], words[i]
                i += 1
            else:
                break
            if given is None and (letter in "oF" or letter in programs):  # ssh's -S is a socket's path
                found.opaque.append(f"`{name} -{letter}` with a value only known at run time ({at.raw})")
            elif letter == "o":
                _ssh_option(name, given, at, found)  # type: ignore[arg-type]
            elif letter == "F" and given not in ("/dev/null", "none"):
                found.opaque.append(f"`{name} -F {given}` reads a config file worktree-guard does not read (its ProxyCommand, LocalCommand or Match exec run commands)")
            elif letter in programs:
                found.commands.append((given, _offset(at)))  # type: ignore[arg-type]
            break


def _ssh_option(name: str | None, option: str, at: Word, found: Embedded) -> None:
    match = re.match(r"\s*\"?([A-Za-z]+)\"?\s*(?:=\s*|\s+)(.*)$", option, re.S)  # OpenSSH drops quotes (review 31b)
    key, setting = (match.group(1), match.group(2)) if match else (option, "")
    if key.lower() in _SSH_CODE_OPTIONS and setting:
        found.commands.append((setting, _offset(at)))
    elif key.lower() == "match" and "exec" in option.lower():
        found.opaque.append(f"`{name} -o Match exec` runs a command worktree-guard cannot read")
    elif key.lower() == "include":
        found.opaque.append(f"`{name} -o Include` reads a config file worktree-guard does not read")


def _offset(word: Word) -> int:
    """Where a word's text starts, inside its opening quote."""
    return word.span[0] + (1 if word.raw[:1] in ("'", '"') else 0)
