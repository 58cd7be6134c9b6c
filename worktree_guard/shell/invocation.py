"""How a shell reads its own command line (`bash -euo pipefail -c CODE NAME ARGS…`; bash(1) "INVOCATION"): which
words are its options, which option takes the next word as its value, where its code is, and the options it starts
with that change how the code's words resolve (SPEC §5.2 "shell options").

A cluster is read letter by letter, and `o` and `O` take the *next word* as their value wherever they stand in it:
`bash -euo pipefail -c CODE` and `bash -co pipefail CODE` run CODE, `bash -cO nocaseglob CODE` runs CODE with
nocaseglob on. With `-c` (or `+c`) the code is the first word that is neither an option nor an option's value; without
it, that word is a script file, or, with `-s` or no such word, the code comes on stdin. bash reads its long options
first, with one dash or two (`-login`, `--norc`, `-rcfile F`); a lone `+` is an empty option word; dash's `-sc CODE`
runs CODE and then reads stdin. `sh` is bash on some systems and dash on others: it is read both ways. Checked against
bash 5.2 and dash 0.5.12, also with random lines (tests/shell/test_invocation.py, after review 29a's fuzzer).

zsh, ksh, mksh and yash were not run here: a letter of a cluster that is not a common one may take a value this table
does not know, which would move the code one word on, so the place of the code is then unknown.
"""

from __future__ import annotations

from ..fast_dataclass import fast_dataclass
from .builtins import SET_LETTERS, SET_NAMES, SHOPT_OFF, SHOPT_ON

#: Shells read as bash reads its line (shell.c), and as dash does (options.c); `sh` is either, so it is read both ways.
BASH_FAMILY = frozenset({"bash", "rbash"})
DASH_FAMILY = frozenset({"dash", "ash"})
#: bash's long options (shell.c's long_args), read before its short ones with one dash or two (`-login`, `--norc`);
#: `rcfile` and `init-file` take the next word (review 29a: `bash -login -c CODE` was read as letters, the `o` taking
#: `-c`, and CODE passed unwalked).
BASH_LONG = frozenset({
    "debug", "debugger", "dump-po-strings", "dump-strings", "help", "init-file", "login", "noediting", "noprofile",
    "norc", "posix", "pretty-print", "protected", "rcfile", "restricted", "verbose", "version", "wordexp",
})
BASH_LONG_WITH_VALUE = frozenset({"rcfile", "init-file"})
#: Letters that turn their thing on whatever the sign: `+c` reads a command string in bash and dash alike, `+l` is a
#: login shell; bash's `+s` reads stdin, dash's turns that off (review 29a).
UNSIGNED = {"bash": frozenset("clsD"), "dash": frozenset("cl"), "other": frozenset("c")}
#: Letters the other shells read without a value (`zsh -f` is no rcs, `-i` interactive, `-l` login); `o`, last in its
#: cluster, takes the next word.
COMMON_LETTERS = frozenset("abcefhiklmnsuvxBCP")
#: Long options of yash that take the next word as their value (`--profile F`, `--rcfile F`).
LONG_WITH_VALUE = frozenset({"--rcfile", "--init-file", "--profile"})
#: `-o NAME` names a shell other than bash may be given that change nothing worktree-guard reads.
HARMLESS_SET_NAMES = frozenset({"errexit", "nounset", "pipefail", "xtrace", "verbose", "noclobber", "allexport", "notify"})


@fast_dataclass(slots=True)
class Invocation:
    """A shell's command line as the shell reads it.

    reads: "c" (the code is the string at `at`), "file" (a script file at `at`), "stdin" (the code comes on stdin);
    then_stdin: after the string, the shell reads more code from stdin (dash's `-sc`);
    at: index of that word in the command's words, or of the first word only known at run time before it (then
    `known` is False), None when there is none (`bash -c` alone);
    letters: the single letters turned on (`i`, `l`, `s`, …); long: the long option words (`--login`, `-login`,
    `--rcfile=F`); startup: the values of `--rcfile`, `--init-file` and `--profile` given as the next word (None: not
    known); options: what the code's shell starts with, as `ShellState.options` holds it (`nocaseglob`, `noglob`,
    `+braceexpand`, `extdebug`; "*" when an option is only known at run time)."""

    reads: str
    at: int | None
    known: bool
    letters: frozenset[str]
    long: tuple[str, ...]
    startup: tuple[str | None, ...]
    options: frozenset[str]
    then_stdin: bool = False


def read_invocation(name: str, values: list[str | None]) -> Invocation:
    """`values`: the shell's words as the walker knows them (None: only known at run time), its name first. `sh` is
    bash on some systems and dash on others: where the two readings place the code differently, its place is not
    known."""
    if name == "sh":
        bash, dash = _read(values, "bash"), _read(values, "dash")
        same = (bash.reads, bash.at, bash.then_stdin) == (dash.reads, dash.at, dash.then_stdin)
        return Invocation(
            bash.reads, bash.at, bash.known and dash.known and same, bash.letters | dash.letters, bash.long + dash.long,
            bash.startup + dash.startup, bash.options | dash.options | (frozenset() if same else frozenset({"*"})), bash.then_stdin or dash.then_stdin,
        )
    return _read(values, "bash" if name in BASH_FAMILY else "dash" if name in DASH_FAMILY else "other")


def _read(values: list[str | None], flavor: str) -> Invocation:
    letters: set[str] = set()
    long: list[str] = []
    startup: list[str | None] = []
    options: set[str] = set()
    known = True
    i = 1
    if flavor == "bash":  # shell.c's parse_long_options: only before the first short option
        while i < len(values) and values[i] is not None and values[i][:1] == "-":  # type: ignore[index]
            word = values[i]
            name = word[2:] if word[:2] == "--" and len(word) > 2 else word[1:]  # type: ignore[index]
            if name not in BASH_LONG:
                if word[:2] == "--" and len(word) > 2:  # type: ignore[index]
                    long.append(word)  # type: ignore[arg-type]
                    i += 1
                    continue  # bash refuses it and runs nothing: read on, which can only see more
                break
            long.append("--" + name)
            if name == "debugger":
                options.add("extdebug")  # bash turns extdebug on
            if name in BASH_LONG_WITH_VALUE:
                startup.append(values[i + 1] if i + 1 < len(values) else None)
                if i + 1 < len(values) and values[i + 1] is None:
                    return _unknown(i + 1, letters, long, startup, options)
                i += 2
                continue
            i += 1
    reads_string = False
    while i < len(values):
        value = values[i]
        if value is None:  # an option or the code only known at run time: where the code is, is not known
            return _unknown(i, letters, long, startup, options)
        if value in ("--", "-"):
            i += 1
            break
        if flavor == "other" and value.startswith("--"):
            long.append(value)
            if value in LONG_WITH_VALUE:
                startup.append(values[i + 1] if i + 1 < len(values) else None)
                if i + 1 < len(values) and values[i + 1] is None:
                    return _unknown(i + 1, letters, long, startup, options)
                i += 2
                continue
            i += 1
            continue
        if value[:1] not in ("-", "+"):
            break
        on = value[0] == "-"
        i += 1
        for k, letter in enumerate(value[1:], start=1):
            if letter == "o" and flavor == "other" and k < len(value) - 1:
                # zsh reads the rest of the cluster as the name (`zsh -oerrexit`): not followed here
                return _unknown(i, letters, long, startup, options)
            if letter == "o" or (letter == "O" and flavor != "other"):
                option = values[i] if i < len(values) else ""
                if option is None:  # unquoted, it may split into more words: the code's place is not known
                    return _unknown(i, letters, long, startup, options)
                i += 1
                options |= _named_option(letter, on, option, flavor != "other")
            elif flavor == "other" and letter not in COMMON_LETTERS:
                # a letter that may take the next word: the code may be any of the words after it
                return _unknown(i, letters, long, startup, options)
            elif on or letter in UNSIGNED[flavor]:
                letters.add(letter)
                if on and letter in SET_LETTERS:
                    options.add(SET_LETTERS[letter])
                reads_string |= letter == "c"
            elif letter == "B":
                options.add("+braceexpand")
    at = i if i < len(values) else None
    stdin = "s" in letters
    if reads_string:
        return Invocation("c", at, known, frozenset(letters), tuple(long), tuple(startup), frozenset(options), stdin and flavor != "bash")
    if stdin or at is None:
        # `bash -s a b`: the words are positional parameters, the code is the input
        return Invocation("stdin", None, known, frozenset(letters), tuple(long), tuple(startup), frozenset(options))
    return Invocation("file", at, known, frozenset(letters), tuple(long), tuple(startup), frozenset(options))


def _unknown(at: int, letters: set[str], long: list[str], startup: list[str | None], options: set[str]) -> Invocation:
    """A line whose code cannot be placed: a word only known at run time stands before it, or a letter may take it.
    Read as a string (`-c`) once `c` was seen, else as a script file: either way only known at run time."""
    return Invocation("c" if "c" in letters else "file", at, False, frozenset(letters), tuple(long), tuple(startup), frozenset(options | {"*"}))


def _named_option(letter: str, on: bool, option: str, bash_like: bool) -> set[str]:
    """What `-o NAME`, `+o NAME`, `-O NAME`, `+O NAME` turn on that matters (as `set -o` and `shopt -s` do)."""
    if letter == "O":
        return {option} & (SHOPT_ON if on else SHOPT_OFF)
    if on and option in SET_NAMES:
        return {option}
    if not on and option == "braceexpand":
        return {"+braceexpand"}
    if not bash_like and option not in HARMLESS_SET_NAMES and option != "":
        return {"*"}
    return set()
