"""How a shell reads its own command line (`bash -euo pipefail -c CODE NAME ARGS…`; bash(1) "INVOCATION"): which
words are its options, which option takes the next word as its value, where its code is, and the options it starts
with that change how the code's words resolve (SPEC §5.2 "shell options").

A cluster is read letter by letter, and `o` and `O` take the *next word* as their value wherever they stand in it:
`bash -euo pipefail -c CODE` and `bash -co pipefail CODE` run CODE, `bash -cO nocaseglob CODE` runs CODE with
nocaseglob on (bash 5.2 and dash 0.5 checked). With `-c` the code is the first word that is neither an option nor an
option's value; without it, that word is a script file, or, with `-s` or no such word, the code comes on stdin.
Long options (`--norc`, `--rcfile F`) come first in bash; they are read wherever they stand, which can only see more.

Only bash and dash were run here. For zsh, ksh, mksh and yash a letter of a cluster that is not a common one may take
a value this table does not know, which would move the code one word on: the place of the code is then unknown.
"""

from __future__ import annotations

from ..fast_dataclass import fast_dataclass
from .builtins import SET_LETTERS, SET_NAMES, SHOPT_OFF, SHOPT_ON

#: Shells whose clusters are bash's: `o` and `O` take the next word, every other letter none (bash and dash refuse a
#: letter they do not know, and run nothing).
BASH_LIKE = frozenset({"bash", "sh", "dash", "ash"})
#: Letters the other shells read without a value (`zsh -f` is no rcs, `-i` interactive, `-l` login); `o`, last in its
#: cluster, takes the next word.
COMMON_LETTERS = frozenset("abcefhiklmnsuvxBCP")
#: Long options that take the next word as their value (bash's `--rcfile F`, `--init-file F`; yash's `--profile F`).
LONG_WITH_VALUE = frozenset({"--rcfile", "--init-file", "--profile"})
#: `-o NAME` names a shell other than bash may be given that change nothing worktree-guard reads.
HARMLESS_SET_NAMES = frozenset({"errexit", "nounset", "pipefail", "xtrace", "verbose", "noclobber", "allexport", "notify"})


@fast_dataclass(slots=True)
class Invocation:
    """A shell's command line as the shell reads it.

    reads: "c" (the code is the string at `at`), "file" (a script file at `at`), "stdin" (the code comes on stdin);
    at: index of that word in the command's words, or of the first word only known at run time before it (then
    `known` is False), None when there is none (`bash -c` alone);
    letters: the single letters turned on with `-` (`i`, `l`, `s`, …); long: the `--name` and `--name=value` words;
    startup: the values of `--rcfile`, `--init-file` and `--profile` given as the next word (None: not known);
    options: what the code's shell starts with, as `ShellState.options` holds it (`nocaseglob`, `noglob`,
    `+braceexpand`, `extdebug`; "*" when an option is only known at run time)."""

    reads: str
    at: int | None
    known: bool
    letters: frozenset[str]
    long: tuple[str, ...]
    startup: tuple[str | None, ...]
    options: frozenset[str]


def read_invocation(name: str, values: list[str | None]) -> Invocation:
    """`values`: the shell's words as the walker knows them (None: only known at run time), its name first."""
    bash_like = name in BASH_LIKE
    letters: set[str] = set()
    long: list[str] = []
    startup: list[str | None] = []
    options: set[str] = set()
    reads_string = False
    known = True
    i = 1
    while i < len(values):
        value = values[i]
        if value is None:  # an option or the code only known at run time: where the code is, is not known
            known = False
            options.add("*")
            break
        if value in ("--", "-"):
            i += 1
            break
        if value.startswith("--"):
            long.append(value)
            if value == "--debugger":
                options.add("extdebug")  # bash turns extdebug on
            if value in LONG_WITH_VALUE:
                startup.append(values[i + 1] if i + 1 < len(values) else None)
                if i + 1 < len(values) and values[i + 1] is None:
                    i += 1
                    known = False
                    options.add("*")
                    break
                i += 2
                continue
            i += 1
            continue
        if value[:1] not in ("-", "+") or len(value) < 2:
            break
        on = value[0] == "-"
        i += 1
        for k, letter in enumerate(value[1:], start=1):
            if letter == "o" and not bash_like and k < len(value) - 1:
                known = False  # zsh reads the rest of the cluster as the name (`zsh -oerrexit`): not followed here
                options.add("*")
            elif letter == "o" or (letter == "O" and bash_like):
                option = values[i] if i < len(values) else ""
                i += 1
                options |= _named_option(letter, on, option, bash_like)
                if option is None:  # unquoted, it may split into more words: the code's place is not known
                    i -= 1
                    known = False
                    break
            elif not bash_like and letter not in COMMON_LETTERS:
                known = False  # a letter that may take the next word: the code may be any of the words after it
                options.add("*")
            elif on:
                letters.add(letter)
                if letter in SET_LETTERS:
                    options.add(SET_LETTERS[letter])
                reads_string |= letter == "c"
            elif letter == "B":
                options.add("+braceexpand")
        if not known:
            break
    at = i if i < len(values) else None
    if known and reads_string:
        reads = "c"
    elif known and ("s" in letters or at is None):
        reads, at = "stdin", None  # `bash -s a b`: the words are positional parameters, the code is the input
    else:
        reads = "c" if reads_string else "file"
    return Invocation(reads, at, known, frozenset(letters), tuple(long), tuple(startup), frozenset(options))


def _named_option(letter: str, on: bool, option: str | None, bash_like: bool) -> set[str]:
    """What `-o NAME`, `+o NAME`, `-O NAME`, `+O NAME` turn on that matters (as `set -o` and `shopt -s` do)."""
    if option is None:
        return {"*"}
    if letter == "O":
        return {option} & (SHOPT_ON if on else SHOPT_OFF)
    if on and option in SET_NAMES:
        return {option}
    if not on and option == "braceexpand":
        return {"+braceexpand"}
    if not bash_like and option not in HARMLESS_SET_NAMES and option != "":
        return {"*"}
    return set()
