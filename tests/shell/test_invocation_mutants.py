"""The exact reading of a shell's command line (shell/invocation.py), field by field (issue 13, phase 14).

The mutation run of `shell/invocation` left mutants that test_invocation.py does not see: it checks where the code is
and the options, not the letters, long words and startup values, and not `sh` read both ways, the long options of
the other shells, a long option's value only known at run time, or `-o` with no word after it. Each row here is the
whole `Invocation`; the rows that say what a real shell does are run in test_the_shells_agree.
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from worktree_guard.shell.invocation import Invocation, read_invocation

F = frozenset
NONE: frozenset[str] = frozenset()


def inv(reads, at, known, letters=NONE, long=(), startup=(), options=NONE, then_stdin=False) -> Invocation:
    return Invocation(reads, at, known, F(letters), tuple(long), tuple(startup), F(options), then_stdin)


ROWS = [
    # sh is read as bash and as dash: the same place is known, the letters and long words of both are kept
    (["sh", "-c", "x"], inv("c", 2, True, "c")),
    # dash's -sc then reads stdin, bash's does not: the readings differ, so the place is not known ("*")
    (["sh", "-sc", "x"], inv("c", 2, False, "sc", options={"*"}, then_stdin=True)),
    # a letter neither knows is still a letter to both (an "other" shell's unknown letter may take a value)
    (["sh", "-Z", "-c", "x"], inv("c", 3, True, "Zc")),
    # bash's +s reads stdin, dash's turns it off: the letters of both
    (["sh", "+s", "-c", "x"], inv("c", 3, True, "sc")),
    # bash's --debugger (extdebug) is a cluster to dash: the options of both
    (["sh", "--debugger", "-c", "x"], inv("c", 3, True, "-debugrc", ["--debugger"], options={"extdebug"})),
    # bash: a long option it does not know is kept and read past (bash refuses the line), one of one letter too
    (["bash", "--foo", "-c", "x"], inv("c", 3, True, "c", ["--foo"])),
    (["bash", "--x", "-c", "y"], inv("c", 3, True, "c", ["--x"])),
    (["bash", "--foo", "--bar", "-c", "x"], inv("c", 4, True, "c", ["--foo", "--bar"])),
    # --rcfile's value as the last word, missing, or only known at run time (then the code's place is not known)
    (["bash", "--rcfile", "r"], inv("stdin", None, True, long=["--rcfile"], startup=["r"])),
    (["bash", "--rcfile"], inv("stdin", None, True, long=["--rcfile"], startup=[None])),
    (["bash", "--rcfile", None], inv("file", 2, False, long=["--rcfile"], startup=[None], options={"*"})),
    (["bash", "--rcfile", None, "-c", "x"], inv("file", 2, False, long=["--rcfile"], startup=[None], options={"*"})),
    (["bash", "--norc", "--rcfile", "r", "-c", "x"], inv("c", 5, True, "c", ["--norc", "--rcfile"], ["r"])),
    # the other shells' long options: yash's --rcfile/--profile take the next word, others do not
    (["zsh", "--rcfile", "r", "-c", "x"], inv("c", 4, True, "c", ["--rcfile"], ["r"])),
    (["zsh", "--profile", "p", "--init-file", "i", "-c", "x"], inv("c", 6, True, "c", ["--profile", "--init-file"], ["p", "i"])),
    (["zsh", "--rcfile", "r"], inv("stdin", None, True, long=["--rcfile"], startup=["r"])),
    (["zsh", "--rcfile"], inv("stdin", None, True, long=["--rcfile"], startup=[None])),
    (["zsh", "--rcfile", None], inv("file", 2, False, long=["--rcfile"], startup=[None], options={"*"})),
    (["zsh", "-e", "--rcfile", None, "-c", "x"], inv("file", 3, False, "e", ["--rcfile"], [None], {"*"})),
    (["zsh", "-c", "--rcfile", None, "x"], inv("c", 3, False, "c", ["--rcfile"], [None], {"*"})),
    (["zsh", "--emulate", "-c", "x"], inv("c", 3, True, "c", ["--emulate"])),
    (["zsh", "--emulate", "--login", "-c", "x"], inv("c", 4, True, "c", ["--emulate", "--login"])),
    # `--` and `-` end the options wherever they stand, in bash and in the other shells
    (["bash", "-c", "-", "x"], inv("c", 3, True, "c")),
    (["zsh", "-c", "--", "x"], inv("c", 3, True, "c")),
    (["bash", "-e", "-c", "x"], inv("c", 3, True, "ec")),
    # an `o` inside an other shell's cluster: the rest may be its name, unknown from the word after the cluster on
    (["zsh", "-oerrexit", "-c", "x"], inv("file", 2, False, options={"*"})),
    (["zsh", "-ce", "-oe", "x"], inv("c", 3, False, "ce", options={"*"})),
    (["zsh", "-ic", "-R", "x"], inv("c", 3, False, "ic", options={"*"})),
    (["bash", "-lc", None], inv("c", 2, False, "lc", options={"*"})),
    # `-o` / `+o` as the last word: an empty name, which changes nothing (and is no unknown name of an other shell)
    (["bash", "-o"], inv("stdin", None, True)),
    (["zsh", "-o"], inv("stdin", None, True)),
    (["zsh", "-eo"], inv("stdin", None, True, "e")),
    (["dash", "+o"], inv("stdin", None, True)),
    # +o NAME turns NAME off: only braceexpand is then remembered (as "+braceexpand")
    (["bash", "+o", "noglob", "-c", "x"], inv("c", 4, True, "c")),
    (["bash", "-o", "pipefail", "-c", "x"], inv("c", 4, True, "c")),
    (["zsh", "+o", "globdots", "-c", "x"], inv("c", 4, True, "c", options={"*"})),
]


@pytest.mark.parametrize("words,expected", ROWS, ids=[" ".join(map(str, r[0])) for r in ROWS])
def test_the_whole_reading(words: list[str | None], expected: Invocation) -> None:
    name = words[0]
    assert isinstance(name, str)
    assert read_invocation(name, list(words)) == expected


# What the rows above claim a real shell does: (shell and its words, what it prints). The code is `echo` or `set -o`.
REAL = [
    # bash runs the code after a --rcfile value, after `-c -`, and starts with noglob off after `+o noglob`
    (["bash", "--norc", "--rcfile", "/dev/null", "-c", "echo w5"], "w5"),
    (["bash", "-c", "-", "echo w3"], "w3"),
    (["bash", "-e", "-c", "echo w3"], "w3"),
    (["bash", "+o", "noglob", "-c", "set -o | grep -w noglob"], "noglob off"),
    (["bash", "-f", "+o", "noglob", "-c", "set -o | grep -w noglob"], "noglob off"),
    # dash's -sc runs the string and then stdin; bash's only the string (the `sh -sc` row's two readings)
    (["dash", "-sc", "echo w2"], "w2 STDIN"),
    (["bash", "-sc", "echo w2"], "w2"),
    (["dash", "+s", "-c", "echo w3"], "w3"),
    (["bash", "+s", "-c", "echo w3"], "w3"),
]


@pytest.mark.parametrize("words,said", REAL, ids=[" ".join(r[0]) for r in REAL])
def test_the_shells_agree(words: list[str], said: str) -> None:
    shell = shutil.which(words[0])
    if shell is None:
        pytest.fail(f"{words[0]} is not installed: the differential test needs it")
    result = subprocess.run([shell, *words[1:]], input="echo STDIN\n", capture_output=True, text=True, timeout=20)
    assert result.stdout.split() == said.split(), result.stderr
