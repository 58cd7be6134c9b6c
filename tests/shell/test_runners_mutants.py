"""Programs that run code the guard does not walk (shell/runners.py), pinned for mutation testing (issue 13, phase 14).

Each row or test here was written for a mutant of `worktree_guard/shell/runners.py` that the suite let live
(docs/testing.md, "Phase 14"). Rows read as `test_shell_mutants.RUNNER_ANSWERS`' do: (opaque_code's reasons,
walked_code, run_argv with unknown words marked `?`, subcommand_scripts), in /w.
"""

from __future__ import annotations

import signal

from tests.shell.test_shell_mutants import step_of
from worktree_guard.shell.runners import (
    BUILTIN_CODE_RUNNERS,
    CodeRunner,
    env_code,
    less_options_opaque,
    names_lesskey_option,
    opaque_code,
    run_argv,
    subcommand_scripts,
    walked_code,
)
from worktree_guard.shell.state import ShellState

LESS_FROM = "`less` reads key bindings and commands (an #env LESSOPEN) from "

RUNNER_ROWS: dict[str, tuple] = {
    # tmux: a verb's command after its options; `;` ends it; `-` is a word of the command, not an option
    "tmux new -d \\; send-keys x": (["`tmux send-keys` runs a command"], ([], []), None, []),
    "tmux new -d - ls": ([], ([], []), None, [("- ls", 12, "/w")]),
    "tmux new -d make test": ([], ([], []), None, [("make test", 12, "/w")]),
    "tmux neww ls": ([], ([], []), None, [("ls", 10, None)]),  # a new window starts in the session's directory
    "tmux new -c": ([], ([], []), None, []),
    # gdb: an option's value attached to it; a word only known at run time before it
    "gdb -xf": (["`gdb -x` runs code"], ([], []), None, []),
    "gdb $X -ex 'shell rm x'": (["`gdb -ex` runs code"], ([], []), None, []),
    # make: `-f-` is `-f -` (its input); an attached file is the file, whatever word follows
    "make -f-": (["`make -f` reads code from its input or a file only known at run time"], ([], []), None, []),
    "make --file=Makefile /dev/stdin": ([], ([], []), None, []),
    "make -fMakefile -": ([], ([], []), None, []),
    # sqlite3: an option word is no code; a long code is shown by its first 40 characters; -cmd's value
    "sqlite3 db -attach": ([], ([], []), None, []),
    "sqlite3 db '.shell rm -rf aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'": (
        ["`sqlite3` is given code ('.shell rm -rf aaaaaaaaaaaaaaaaaaaaaaaaaa')"], ([], []), None, []),
    "sqlite3 -cmd 'select 1'": ([], ([], []), None, []),
    "sqlite3 --cmd=.once": (["`sqlite3 --cmd` is given code"], ([], []), None, []),
    # less: its lesskey variables and options, $LESS
    "LESSKEY=/k less f": ([LESS_FROM + "$LESSKEY"], ([], []), None, []),
    "LESSKEY_CONTENT= less f": ([], ([], []), None, []),
    "LESS=-k less f": (["`less` reads $LESS, which gives less a lesskey file or text or startup commands"], ([], []), None, []),
    "LESS=-S less f": ([], ([], []), None, []),
    "less --lessk=x f": (["`less --lessk` reads key bindings and commands (an #env LESSOPEN) from a lesskey file or text"],
                         ([], []), None, []),
    # man: its pager, walked; each variable and word looked at, not only up to the first that is not one
    "PAGER='|cat' man ls": ([], ([("cat", 0)], []), None, []),
    "MANPAGER='  |cat  ' man ls": ([], ([("cat  ", 0)], []), None, []),
    "MANPAGER='|Xcat' man ls": ([], ([("Xcat", 0)], []), None, []),
    "man $X -P cat ls": ([], ([("cat", 10)], []), None, []),
    "man -a -P cat ls": ([], ([("cat", 10)], []), None, []),
    "man -Pw ls": ([], ([("w", 6)], []), None, []),
    "man -P- ls": ([], ([("-", 4)], []), None, []),
    "man -P cat": ([], ([("cat", 7)], []), None, []),
    # fd: -x after an operand
    "fd pat -x rm": ([], ([], []), ([["rm", "{}?"]], 2), []),
}


def answers(source: str, runner: CodeRunner | None = None, state: ShellState | None = None) -> tuple:
    step = step_of(source, state)
    runner = runner or BUILTIN_CODE_RUNNERS[step.name]
    argv = run_argv(step, runner)
    shown = None if argv is None else ([[w.raw + ("?" if w.value is None else "") for w in a] for a in argv[0]], argv[1])
    return opaque_code(step, runner), walked_code(step, runner), shown, subcommand_scripts(step, runner)


def test_code_runner_rows() -> None:
    for source, expected in RUNNER_ROWS.items():
        assert answers(source) == expected, source


def test_every_runner_loop_returns() -> None:
    def hang(*_) -> None:
        raise TimeoutError

    previous = signal.signal(signal.SIGALRM, hang)
    signal.setitimer(signal.ITIMER_REAL, 2.0)
    try:
        for source in ("fd -x rm {} \\; -X echo {/} \\;", "fd pat -x a", "fd -x", "tmux new -d -s x -c /d ls",
                       "tmux new -ds x \\; new ls", "tmux new -c"):
            answers(source)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def test_the_words_fd_runs() -> None:
    step = step_of("fd -x rm {} \\; -x ls")
    runs, own = run_argv(step, BUILTIN_CODE_RUNNERS["fd"])
    assert own == 1
    placeholder, appended = runs[0][1], runs[1][1]
    assert (placeholder.raw, placeholder.value, placeholder.span, placeholder.substitutions) == ("{}", None, (9, 11), [])
    # a path fd appends where no placeholder is given: an unknown word at the last word's place
    assert (appended.raw, appended.value, appended.span, appended.substitutions) == ("{}", None, (18, 20), [])


def test_a_lesskey_option_name() -> None:
    table = {"--lesskey-file": True, "--LESSKEY-SRC=x": True, "--lesskey-src=a=b": True, "--lessk": True, "--l": True,
             "--": False, "-k": False, "--xyz": False, "--lesskey-file=x": True, "lesskey-file": False}
    for word, expected in table.items():
        assert names_lesskey_option(word) is expected, word


def test_less_options_that_give_it_code() -> None:
    table = {None: True, "": False, "-k": True, "k/x": True, "-Sk": True, "-S": False, "+G": True, "-S +G": True,
             "--lesskey-file=x": True, "--LESSKEY": True, "--kill": False, "--use-color -R": False}
    for value, expected in table.items():
        assert less_options_opaque(value) is expected, value


def test_the_commands_a_runner_takes_from_its_environment() -> None:
    less = BUILTIN_CODE_RUNNERS["less"]
    assert env_code(step_of("LESSOPEN='  |lesspipe %s  ' less f"), less) == ["lesspipe %s  "]
    assert env_code(step_of("LESSOPEN='|Xpipe %s' LESSCLOSE='|c' less f"), less) == ["Xpipe %s", "c"]
    assert env_code(step_of("less f"), less) == []
    assert env_code(step_of("LESSOPEN=$X less f"), less) == []
    assert env_code(step_of("LESSOPEN=' ' less f"), less) == []


def test_runners_of_a_plugin_with_part_of_less_rows() -> None:
    # only the first lesskey variable, or only the first lesskey option, is enough to read $LESS or abbreviations
    reads_keys = CodeRunner(env=("LESSKEYIN",))
    assert answers("LESS=-k prog", reads_keys)[0] == [
        "`prog` reads $LESS, which gives less a lesskey file or text or startup commands"]
    keyed = CodeRunner(options=frozenset({"--lesskey-file"}))
    assert answers("prog --lesskey-s=x", keyed)[0] == [
        "`prog --lesskey-s` reads key bindings and commands (an #env LESSOPEN) from a lesskey file or text"]
