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


def test_every_runner_loop_returns() -> None:
    # first in the file: a mutant whose loop never ends fails here under the alarm before a row without one hangs
    # (mutmut's --recheck runs the file in order, -x)
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


def test_code_runner_rows() -> None:
    for source, expected in RUNNER_ROWS.items():
        assert answers(source) == expected, source


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


# -- phase 17: every function's whole reading, for the runners' table as it is since stop 31 ----------------------
# Each row builds the step the walker hands the rules for one command and compares, whole, what the module reads of
# it with `runners_readings.json`: opaque_code's reasons, walked_code's scripts and reasons, the argv(s) run_argv
# gives (every word's raw text, value, span and substitutions), the commands subcommand_scripts walks (text, offset,
# cwd), and env_code. `python -m tests.shell.test_runners_mutants --write` rewrites the readings from the code as it
# is: a changed reading is then a diff to read. The readings pin what the code does, right or wrong; the rows under
# `# -- fail-opens` pin the ones reported in docs/testing.md ("Phase 17 (issue 13)").

import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

from worktree_guard.shell.parse import parse  # noqa: E402
from worktree_guard.shell.steps import ShellCommand  # noqa: E402

READINGS = Path(__file__).with_name("runners_readings.json")

_F = frozenset
#: Runners a plugin could give (the built-in rows never combine these fields so): named by the row's key.
PLUGIN_RUNNERS: dict[str, CodeRunner] = {
    # getopt_long_only with clusters: a one-dash word is a long option first, `-r=x` is `-r`'s value
    "lo": CodeRunner(options=_F({"-r", "--run"}), long_only=True, short_clusters=True, value_options=_F({"-o"}), option_files=_F({"-K"})),
    # options only before the first operand, and code operands with no coded option
    "first": CodeRunner(options=_F({"-c"}), options_first=True, code_operands=r"^run:"),
    # an argv option with placeholders of its own
    "each": CodeRunner(argv_options=_F({"--each", "-E"}), placeholders=("%", "@@")),
    # a coded option with no pattern: nothing is code
    "coded": CodeRunner(coded_options=_F({"-s", "--script"})),
    # a file of more options, no clusters: only the attached form is read in one word
    "optf": CodeRunner(option_files=_F({"-K", "--opts"}), value_options=_F({"-o"})),
    # a walk option of its own, one letter and long
    "walk": CodeRunner(walk_options=_F({"-w", "--with"}), walk_env=("WITH",)),
    # subcommands that run a command, none of them here
    "sub": CodeRunner(command_subcommands=_F({"go"}), chdir_options=_F({"-C"}), value_options=_F({"-C", "-n"}), subcommands=_F({"do"})),
    # option_env without safe words, and env beside it
    "envs": CodeRunner(env=("RUNME",), option_env=("OPTS", "HOME"), walk_env=("PIPE",)),
    # attached options without clusters of code options (make's shape, a plugin's names)
    "att": CodeRunner(options=_F({"-E"}), stdin_files=_F({"-f"}), attached_options=_F({"-j"}), value_options=_F({"-I"})),
    # stdin files alone (the option-like check reads them)
    "stdin": CodeRunner(stdin_files=_F({"-f", "--file"})),
    # a coded option with a pattern, attached in one word (no clusters)
    "coded2": CodeRunner(coded_options=_F({"-s"}), code_operands=r"^run"),
    # an abbreviation that is a prefix of a value option and of a code option: the first, sorted, is read
    "abbr": CodeRunner(options=_F({"--runx"}), value_options=_F({"--run"}), argv_options=_F({"--rung"})),
    # lesskey options without -k, and the first lesskey variable alone
    "keyed": CodeRunner(options=_F({"--lesskey-file", "--pre"}), env=("LESSKEYIN",)),
}

ROWS: list[str] = [
    # -- tmux: -c before an operand, verbs that run a command, a verb's command after its options
    "tmux -c 'rm x'", "tmux ls -c x", "tmux -cls", "tmux -L s -c x", "tmux -L s ls -c x", "tmux -S /s -c x", "tmux -- -c x",
    "tmux run-shell x", "tmux run x", "tmux if -F x y", "tmux source-file f", "tmux pipep x", "tmux confirm x",
    "tmux menu x", "tmux display-menu x", "tmux command-prompt", "tmux -L s send x", "tmux ls send",
    "tmux new", "tmux new -d", "tmux new -d ls", "tmux new -d -s x ls", "tmux new -ds x ls", "tmux new -sx ls",
    "tmux new -d -- ls", "tmux new -d - ls", "tmux new -c /d ls", "tmux new -c sub ls", "tmux new -csub ls",
    "tmux new -dc sub ls", "tmux new -ce ls", "tmux new -dc", "tmux new -c ''", "tmux new -c '' ls", "tmux new -c",
    "tmux new -c $D ls", "tmux new -c \"$D\" ls", "tmux new -c$D ls", "tmux new -s $S ls", "tmux new -d $X",
    "tmux new -d ls $X", "tmux new ls \\; x", "tmux new ls ';' send x", "tmux new \\; ls", "tmux new -d \\;",
    "tmux neww ls", "tmux neww -c /d ls", "tmux neww -t x:1 ls", "tmux splitw -l 5 ls", "tmux splitw -h ls",
    "tmux new -x 80 -y 24 ls", "tmux new -e A=1 ls", "tmux new -n w -F f ls", "tmux new -f /c ls", "tmux new -L x ls",
    "tmux respawnw -k ls", "tmux respawnp ls", "tmux respawn-pane -t 1 ls", "tmux respawn-window ls", "tmux popup -E ls",
    "tmux display-popup -d /d ls", "tmux new-session -c /d 'make test'", "tmux new-window ls", "tmux split-window ls",
    "tmux new -d ls \\; new -d make", "tmux new -d ls \\; neww -c /x vi", "tmux attach", "tmux kill-server",
    "tmux new -d 'a b' \"c d\"", "tmux new -d ls -la", "tmux new -dP ls", "tmux new -sdx ls", "tmux new -dsx ls",
    "tmux \"$X\"", "tmux -S \"$X\" ls", "tmux new -s\"$X\"", "tmux new -d \"$X\"", "tmux $X send x", "tmux -c",
    # -- gdb: options with one dash or two, prefixes of long ones, attached values, HOME
    "gdb -ex x", "gdb --ex x", "gdb -eval-command=x", "gdb --eval-command=x", "gdb -eval-c x", "gdb -eval x",
    "gdb --ev=x", "gdb --eva x", "gdb -e x", "gdb --e x", "gdb -exx", "gdb -xf", "gdb -x=f", "gdb -x f", "gdb --x f",
    "gdb -x", "gdb -command=f", "gdb -comm f", "gdb --command f", "gdb -iex x", "gdb -ix f", "gdb -i x", "gdb --in=x",
    "gdb --init-eval-command=x", "gdb -init-command f", "gdb -eiex x", "gdb -eix f", "gdb --ea=x", "gdb -ea x",
    "gdb -early-init-eval-command x", "gdb -D /d", "gdb -D/d", "gdb --data-directory=/d", "gdb --data /d", "gdb -data /d",
    "gdb -d /d", "gdb -da /d", "gdb -batch prog", "gdb -batch -ex run prog", "gdb prog core", "gdb -p 12",
    "gdb -q -ex 'shell rm x'", "gdb $X -ex y", "gdb prog -ex y", "gdb -ex", "gdb -ex=", "gdb -XYZ", "gdb --",
    "gdb -nx prog", "gdb --nx prog", "gdb -n prog", "gdb --args prog -ex x", "gdb-multiarch -ex x", "gdb-multiarch prog",
    "gdb \"$X\"", "gdb prog \"$X\"", "gdb -p \"$X\"", "gdb -ex \"$X\"", "gdb --eval-command=\"$X\"", "gdb \"$HOME\"",
    "HOME=/x gdb prog", "HOME=/h gdb prog", "HOME=$X gdb prog", "HOME= gdb prog", "XDG_CONFIG_HOME=/c gdb prog",
    "XDG_CONFIG_HOME=/c HOME=/h gdb", "HOME=/h XDG_CONFIG_HOME=$X gdb",
    # -- sqlite3: its init file, -cmd's value, code operands
    "sqlite3 -init f db", "sqlite3 --init=f db", "sqlite3 -initf db", "sqlite3 --ini=f db", "sqlite3 --i=f db",
    "sqlite3 --c=.shell db", "sqlite3 --cm=.shell db", "sqlite3 --cm=select db", "sqlite3 --cmd=.shell", "sqlite3 --cmd='select 1'",
    "sqlite3 -cmd .output f db", "sqlite3 -cmd", "sqlite3 db -cmd", "sqlite3 -cmd=.shell db", "sqlite3 -cmd=x db",
    "sqlite3 -cmd '.shell x' -cmd '.once y' db", "sqlite3 -cmd \"$X\" db", "sqlite3 -cmd '' db", "sqlite3 \"$X\" db",
    "sqlite3 db .shell", "sqlite3 db '  .SHELL x'", "sqlite3 db '.shellx'", "sqlite3 db '.system ls'", "sqlite3 db .once",
    "sqlite3 db '.output f'", "sqlite3 db '.save f'", "sqlite3 db .backup", "sqlite3 db .restore", "sqlite3 db .import",
    "sqlite3 db .load", "sqlite3 db .excel", "sqlite3 db .read", "sqlite3 db .log", "sqlite3 db .open", "sqlite3 db .clone",
    "sqlite3 db .dump", "sqlite3 db .cd", "sqlite3 db .tables", "sqlite3 db '\n.shell x'", "sqlite3 db 'select 1;\n.shell x'",
    "sqlite3 db 'select writefile(1)'", "sqlite3 db 'select load_extension(1)'", "sqlite3 db 'select edit(1)'",
    "sqlite3 db 'vacuum into x'", "sqlite3 db 'VACUUM   INTO x'", "sqlite3 db 'vacuum'", "sqlite3 db 'attach x'",
    "sqlite3 db 'ATTACH x'", "sqlite3 db 'reattach'", "sqlite3 db 'attached'", "sqlite3 db 'select 1'", "sqlite3 db -x",
    "sqlite3 db -attach", "sqlite3 db '-attach'", "sqlite3 -batch db 'select 1'", "sqlite3 db \"$X\"",
    # -- make: code options, stdin files, clusters, attached values, MAKEFLAGS
    "make -E x", "make -Ex", "make -kE x", "make -kEx", "make -jE", "make -j4 -E x", "make -IE", "make -IEx", "make -kiE x",
    "make -kf/dev/stdin", "make -kf Makefile", "make -kf", "make -kf -", "make -f=x", "make -f /dev/fd/0",
    "make -f /proc/self/fd/0", "make -f /dev/stdinx", "make -f ./Makefile", "make -f /dev/fdx", "make -f /procx",
    "make --eval=x", "make --ev=x", "make --e=x", "make --eva x", "make --eval", "make --fil=/dev/stdin", "make --file /dev/stdin",
    "make --file=Makefile", "make --makefile=-", "make --make=-", "make --ma=-", "make --m=-", "make --f=-", "make --fi=-",
    "make --file", "make --makefile", "make -f -- x", "make all -E x", "make -C d", "make -C d -f -", "make -ef-",
    "make --jobs=4", "make --load-average=2 -E x", "make -l2", "make -w -E x", "make --what-if=f -E x", "make -o f -E x",
    "make -Wf -E x", "make --include-dir=d", "make -- -E x",
    "MAKEFLAGS=-k make", "GNUMAKEFLAGS= make", "MAKEFLAGS=$X make", "MAKEFLAGS=-k GNUMAKEFLAGS=-s make all",
    "make \"$X\"", "make -j\"$N\"", "make --jobs=\"$N\"", "make --jobs \"$N\"", "make -k\"$X\"", "make --ev=\"$X\"",
    "make -f\"$X\"", "make -f \"$X\"", "make -I \"$X\"", "make -I\"$X\"", "make -l\"$L\"", "make --load-average=\"$L\"",
    "make -o\"$X\"", "make --include-dir=\"$X\"", "make --include-dir \"$X\"", "make \"$HOME\"", "make -C \"$X\"",
    "make \"$X\" \"$Y\"", "make --eval \"$X\"", "make -E\"$X\"", "make -$X", "make --\"$X\"", "make all \"$X\"",
    "gmake -E x", "gmake -f -",
    # -- less and its kin: lesskey options and variables, $LESS, LESSOPEN
    "less -k f", "less -kfile f", "less -Sk f", "less -k", "less --lesskey-file=x f", "less --LESSKEY-SRC x", "less --lesskey-c=x",
    "less --lessk", "less --l", "less --", "less --le=x", "less --lesskey-content=x", "less --lesskey-file", "less -- -k",
    "less --use-color f", "less -R f", "less +G f", "less \"$X\" f", "less -k \"$X\"", "less --lesskey-file=\"$X\"",
    "LESSKEYIN=/k less", "LESSKEY=/k less f", "LESSKEY_CONTENT='' less", "LESSKEY_CONTENT= less", "LESSKEY=$X less",
    "LESSKEY_SYSTEM=/s less", "LESSKEYIN_SYSTEM=x less", "LESSKEY_CONTENT='#env' less",
    "LESS=-k less", "LESS='-S +G' less", "LESS=--lesskey-file=x less", "LESS=$X less", "LESS= less", "LESS=-S less",
    "LESS='-R --LESSKEY-S=x' less", "LESS=k less", "LESS='--kill' less", "LESS=--lesskey less", "LESS='-- -S' less",
    "LESSOPEN='|cat %s' less f", "LESSOPEN='  |cat %s  ' less f", "LESSOPEN='cat %s' less f", "LESSCLOSE='rm %s' less f",
    "LESSOPEN='|a %s' LESSCLOSE='b %s' less f", "LESSOPEN=$X less f", "LESSOPEN= less f", "LESSOPEN='  ' less f",
    "LESSOPEN='||x' less f", "LESSCLOSE=$X less f",
    "zless -k f", "zless f", "lesspipe f", "LESSOPEN='|x' zless f", "LESSOPEN='|x' lesspipe f",
    # -- man: its pager, -H, MANOPT, LESS
    "man -H ls", "man -Hfirefox ls", "man --html=firefox ls", "man --ht ls", "man --h ls", "man --html",
    "man -P cat ls", "man -Pcat ls", "man -P=cat ls", "man -P 'less -R' ls", "man -P \"$X\" ls", "man -P", "man --pager",
    "man --pager=cat ls", "man --pager cat ls", "man --pa=cat ls", "man --pag cat ls", "man --p=cat ls", "man --pager=",
    "man --pager='a b' ls", "man -P '' ls", "man -P \"a b\" ls", "man -P'a b' ls", "man -a -Pcat -P less ls",
    "man $X -P cat", "man -P cat $X", "man ls -P cat", "man -l -P cat p.txt", "man -- -P cat", "man -Pa=b ls",
    "MANOPT=-Psh man ls", "MANOPT= man ls", "MANOPT=$X man ls", "MANPAGER=cat man ls", "PAGER=cat MANPAGER=less man ls",
    "MANPAGER=$X man ls", "PAGER=$X man ls", "LESSOPEN='|x %s' man ls", "LESSCLOSE=y man ls", "LESS=-k man ls",
    "LESS=-S man ls", "LESSKEY=/k man ls", "LESSKEY_CONTENT= man ls",
    "man \"$X\" ls", "man -P\"$X\" ls", "man --pager=\"$X\" ls", "man -H\"$X\"",
    # -- split: --filter's command, walked after FILE=<prefix>aa
    "split --filter='gzip > $FILE.gz' f", "split --filter=cat f p", "split --fil=cat f", "split --filter cat f pre",
    "split --filter=cat f \"$P\"", "split -b 1 --filter=cat f", "split --filter \"$X\" f", "split --filter", "split f",
    "split --filter=cat", "split --filter='a b' f 'x y'", "split -l 2 f p --filter=cat", "split --f=cat f", "split --fi=cat f",
    "split --filter= f", "split -- --filter=cat f", "split \"$X\" f",
    # -- fd: the argv it runs per path or with them all
    "fd -x rm {} ';' -x ls", "fd -x echo {//} {/.}", "fd --exec-batch rm", "fd -X", "fd -x \\;", "fd -x ';' -x ls",
    "fd -x rm $X", "fd -x rm \"{}\"", "fd -x rm '{}'", "fd -x rm {}{}", "fd -x a {} b", "fd -x a \\; b -x c",
    "fd -e md -x rm", "fd -x rm {} \\; pat", "fd --exec rm {.}", "fd -X rm {/}", "fd -x \"$X\" {}", "fd -x rm {} \\;",
    "fd \"$X\"", "fd -x \"$X\"", "fdfind -x rm {}", "fdfind pat",
    # -- tar: options from the environment, the compressors' too
    "TAR_OPTIONS=--no-same-owner tar -xf a", "TAR_OPTIONS='-v --totals' tar -xf a", "TAR_OPTIONS=--directory=/m tar -xf a",
    "TAR_OPTIONS= tar -xf a", "TAR_OPTIONS=$X tar -xf a", "TAR_OPTIONS='-v -C /m' tar -xf a", "TAR_OPTIONS=' ' tar -xf a",
    "TAR_OPTIONS=--warning=no-timestamp tar -x", "TAR_OPTIONS='--owner=0 --group=0 --mode=u+rw,go=r' tar -c .",
    "TAR_OPTIONS=--sort=name tar -c .", "TAR_OPTIONS=--format=gnu tar", "TAR_OPTIONS=-vz tar", "TAR_OPTIONS=-xv tar",
    "XZ_OPT=-9 tar -cJf a d", "XZ_OPT='-9e -T0' tar -cJf a d", "XZ_OPT=--files=l tar -cJf a d", "XZ_DEFAULTS=-T4 tar",
    "BZIP=-9 tar -cjf a d", "BZIP2=--fast tar", "TAPE=/dev/st0 tar -x", "TAPE=9 tar -x", "gtar -xf a", "TAR_OPTIONS=-C/m gtar -x",
    "tar -xf a", "tar \"$X\"",
    # -- zip, unzip, zipinfo
    "ZIPOPT=-9 zip a f", "ZIPOPT='-q -r' zip a d", "ZIPOPT=-T zip a f", "ZIPOPT=-9q zip a f", "ZIPOPT='-b /m' zip a f",
    "ZIPOPT=$X zip a f", "UNZIP=-qq unzip a", "UNZIP='-d /m' unzip a", "UNZIPOPT=-o unzip a", "UNZIP=-x unzip a",
    "UNZIP='-qq -o' unzip a", "UNZIP='' unzip a", "ZIPINFO=-1 zipinfo a", "ZIPINFOOPT= zipinfo a", "zipinfo a", "zip a f",
    # -- the compressors
    "XZ_OPT=-9 xz f", "XZ_DEFAULTS='--threads=4 -T0' xz f", "XZ_OPT=--files=l xz", "XZ_OPT=--memlimit-compress=50% xz f",
    "XZ_OPT=-M50% unxz f", "XZ_OPT=--long=31 xzcat f", "XZ_OPT='--check=crc32 --extreme' lzma f", "XZ_OPT=-vv unlzma f",
    "XZ_OPT='--fast --keep --force --sparse' lzcat f", "XZ_OPT=--rsyncable xz", "XZ_OPT=--suffix=.x xz f",
    "BZIP=-9 bzip2 f", "BZIP2='-v -k' bunzip2 f", "BZIP=--fast bzcat f", "BZIP=-c bzip2 f", "BZIP2=$X bzip2 f",
    "BZIP=' -9 ' bzip2", "BZIP='-9 --best --quiet --verbose' bzip2",
    # -- rsync: its remote shell and connect program run; HOME's popt aliases
    "RSYNC_RSH=ssh rsync a b", "RSYNC_CONNECT_PROG=x rsync a b", "RSYNC_RSH= rsync a b", "RSYNC_RSH=$X rsync a b",
    "HOME=/x rsync a b", "HOME=/h rsync a b", "rsync -e ssh a b",
    # -- curl: files of more options, clusters, CURL_HOME
    "curl -K cfg u", "curl -Kcfg u", "curl --config cfg u", "curl --config=cfg u", "curl --conf=cfg u", "curl --c=x u",
    "curl --co=x u", "curl -K /dev/null u", "curl -K/dev/null u", "curl --config=/dev/null u", "curl --config /dev/null",
    "curl -K", "curl --config", "curl -sK cfg u", "curl -sKcfg u", "curl -oK u", "curl -sSK /dev/null u", "curl -Kc=1 u",
    "curl -sK", "curl -sSfLK c u", "curl -H 'X: y' u", "curl -HK u", "curl -d @f u", "curl -sod u", "curl -K -", "curl -K \"$X\"",
    "curl \"$X\" u", "curl -s -- -K u", "curl -s u -K c",
    "CURL_HOME=/c curl u", "XDG_CONFIG_HOME=/x curl u", "HOME=/h curl u", "HOME=/x curl u", "CURL_HOME= curl u",
    # -- wget: -e's wgetrc commands that name a file, --config, WGETRC
    "wget -e robots=off u", "wget -e dir_prefix=/m u", "wget -e 'output_document = x' u", "wget -e DIR-PREFIX=x u",
    "wget -e d_i_r_prefix=x u", "wget -e dirprefix_=x u", "wget -e 'dirprefix x' u", "wget -e xdirprefix=x u",
    "wget -edir_prefix=/m u", "wget --execute=logfile=x", "wget --execute logfile=x", "wget --exec=logfile=x",
    "wget --ex=logfile=x", "wget --e=logfile=x", "wget -qe logfile=x", "wget -qOe x", "wget -e", "wget -qe",
    "wget -e hstsfile=x", "wget -e 'warc_tempdir=x'", "wget -e rejected_log=x", "wget -e save_cookies=x",
    "wget -e warcfile=x", "wget -e 'log_file=x'", "wget -e outputdocument=x", "wget -e 'output-document=x'",
    "wget -e tries=3 -e logfile=x u", "wget -e \"$X\" u", "wget -e '' u",
    "wget --config=f u", "wget --config /dev/null u", "wget --conf=f u", "wget --config", "wget -config f",
    "wget 'logfile=x'", "wget dirprefix=x", "wget -O x u", "wget -O- u", "wget -qO- u", "wget -P /d u",
    "wget \"$X\" u", "wget -O \"$X\" u", "wget -e\"$X\" u",
    "WGETRC=/x wget u", "SYSTEM_WGETRC=f wget u", "HOME=/h wget u", "HOME=/x wget u", "WGETRC= wget u",
    # -- runners of a plugin (PLUGIN_RUNNERS; `prog` stands for the plugin's program)
    "lo: prog -r=x", "lo: prog -ar=x", "lo: prog -ru", "lo: prog -ar", "lo: prog -run", "lo: prog -ru=x", "lo: prog --run",
    "lo: prog -ru x", "lo: prog -r", "lo: prog --ru=x", "lo: prog -oK", "lo: prog -aK f", "lo: prog -K=f", "lo: prog -K", "lo: prog -Kf",
    "lo: prog -o=x", "lo: prog \"$X\"", "lo: prog -x", "lo: prog -ax", "lo: prog --r x", "lo: prog -Kr",
    "first: prog -c x", "first: prog a -c x", "first: prog run:x", "first: prog a run:x", "first: prog -x run:x",
    "first: prog -crun:x", "first: prog \"$X\"", "first: prog -c",
    "each: prog --each rm % \\; -E cat @@", "each: prog --each rm", "each: prog -E a%b", "each: prog --each rm {}",
    "each: prog -x rm", "each: prog --each", "each: prog --each \\; --each a", "each: prog --each %@@",
    "coded: prog -s .shell", "coded: prog -s", "coded: prog --script=x", "coded: prog \"$X\"", "coded: prog -s \"$X\"",
    "optf: prog -Kf", "optf: prog -aK f", "optf: prog -K f", "optf: prog --opts=f", "optf: prog --op=f", "optf: prog --o=f",
    "optf: prog -K /dev/null", "optf: prog --opts", "optf: prog -oK", "optf: prog -K=f", "optf: prog \"$X\"",
    "walk: prog -w cat", "walk: prog -wcat", "walk: prog --with=cat", "walk: prog --wi=cat", "walk: prog --w=cat",
    "walk: prog --with cat", "walk: prog -w", "walk: prog -w \"$X\"", "walk: WITH='|x' prog", "walk: WITH=$X prog",
    "walk: prog -w=cat", "walk: prog --with=", "walk: prog \"$X\"", "walk: prog -aw cat", "walk: prog -ww",
    "sub: prog go ls", "sub: prog go -C /d ls", "sub: prog go -C d ls", "sub: prog go -n x ls", "sub: prog go -Cd ls",
    "sub: prog go -nC d ls", "sub: prog go -Cn d ls", "sub: prog do x", "sub: prog go", "sub: prog go $X",
    "sub: prog go -C", "sub: prog go -C \"$D\" ls", "sub: prog x go ls", "sub: prog go ls \\; go -C /e vi", "sub: prog go -x ls",
    "envs: RUNME=x prog", "envs: RUNME= prog", "envs: OPTS=-x prog", "envs: OPTS= prog", "envs: OPTS=$X prog",
    "envs: HOME=/h prog", "envs: HOME=/x prog", "envs: PIPE='|cat' prog", "envs: PIPE=$X prog", "envs: prog",
    "envs: RUNME=a OPTS=b PIPE=c HOME=d prog",
    "att: prog -kE x", "att: prog -jE", "att: prog -IE", "att: prog -Ex", "att: prog -kf -", "att: prog -kf", "att: prog -j\"$N\"",
    "att: prog -k\"$X\"", "att: prog -I\"$X\"", "att: prog -f\"$X\"", "att: prog \"$X\"",
    "stdin: prog -f -", "stdin: prog --file=/dev/stdin", "stdin: prog --fi -", "stdin: prog -f\"$X\"", "stdin: prog \"$X\"",
    "stdin: prog -f /dev/fd/5", "stdin: prog -f x",
    "keyed: prog --lesskey-f=x", "keyed: prog --pre=x", "keyed: prog --pr=x", "keyed: prog --lesskey", "keyed: LESS=-k prog",
    "keyed: LESSKEYIN=x prog", "keyed: LESSKEYIN= prog", "keyed: prog -k",
    "stdin: prog -f-", "stdin: prog -f/dev/stdin", "stdin: prog -fx", "coded2: prog -srun", "coded2: prog -sx",
    "coded2: prog -s run", "abbr: prog --ru=x", "abbr: prog --runx=1", "abbr: prog --rung x",
    # a safe value does not end the look at the variables after it
    "TAR_OPTIONS=-v XZ_OPT=--files=l tar -cJf a d", "XZ_OPT=-9 BZIP=-c tar -cjf a d", "XZ_OPT=-9 XZ_DEFAULTS=-c xz f",
    # -- fail-opens (phase 17, reported, not fixed): a code option in a cluster of flags, for the runners that do not
    # read clusters (tmux's getopt, man's argp, less and fd's clap read `-vc CMD`, `-aP CMD`, `-Sk FILE`, `-Hx CMD` as
    # `-v -c CMD`…)
    "tmux -vc 'touch x'", "tmux -Lx -vc 'touch x'", "man -aP sh -l p.txt", "man -lPsh p.txt", "less -Sk kf README.md", "less -ik kf",
    "man -aH ls", "fd -Hx rm {}", "fd -HX rm", "fd -H -x rm {}",
    # -- fd's attached values (phase 19): `=` (its value holding `=`, empty), a cluster ending in -x with its value
    # attached (with `=`), -x first in the cluster, a value option ending the cluster, a long option holding `x`, a word
    # that starts no option
    "fd --exec=rm {} pat", "fd --exec=rm=x", "fd --exec= rm {}", "fd -x=rm", "fd --exec-batch=rm", "fd -xrm {}",
    "fd -Hxrm {}", "fd -Hx=rm {}", "fd -ex rm", "fd -He md -x rm", "fd axe", "fd --max-results 1 -x rm",
    # -- a value option ending a cluster of tmux's top-level flags takes the next word (phase 19: _takes_next), and man's
    # walk option in a cluster (walked_code)
    "tmux -vL s -c x", "tmux -vvL s -c x", "tmux -Lv s -c x", "tmux -vLL s -c x", "tmux -v=L x -c y", "tmux --xL s -c y", "tmux --vL s -c y",
    "tmux -L abS s -c x", "man --Psh ls", "man -aPs ls", "man -aMP x ls", "man -alP sh ls",
    # -- a fail-open of phase 19 (h-shell34), fixed in stop 34: tmux's -l is a flag before the subcommand
    # (cluster_flags), so `-lL s` gives -L its value and the -c after it is tmux's code option
    "tmux -lL s -c x", "tmux -lS /s -c x",
    # -- phase 19 (late): tmux's verbs as cmd_find reads them (tmux_verb: an alias, a name or a unique prefix of one) and
    # only where tmux reads a verb (_verb_positions: the first operand, the word after `;`); `#{…}` as -c's directory
    "tmux run-s x", "tmux new-s -d ls", "tmux new- -d ls", "tmux new-w ls", "tmux $X run-s y", "tmux new -d \\; run-s x",
    "tmux \\; run-s x", "tmux new -d -s run-s ls", "tmux new -d -s new-w ls", "tmux new -d ls run-s", "tmux -v run-s x",
    "tmux -L s run-s x", "tmux -SvL s -c x", "tmux new -c '#{pane_current_path}' ls",
    # stop 35: display-popup's directory is -d (-c a client); a verb's letters outside tmux 3.3a's (flags and values) make
    # its command unknown; `--` ends the options, what follows is the command even if it starts with `-`
    "tmux popup -c /d ls", "tmux popup -d /d -c pts/2 ls", "tmux popup -BCE ls", "tmux popup -k ls", "tmux neww -Z ls",
    "tmux neww -abdkPS ls", "tmux neww -dm 5 ls", "tmux splitw -bdfhIvPZ ls", "tmux new -AdDEPX ls", "tmux new -Ad -q ls",
    "tmux respawnp -k ls", "tmux respawnp -kd ls", "tmux neww -- -x", "tmux neww -d -- ls -l",
    "tmux neww --", "tmux neww -d -- \\; ls", "tmux neww -ds5 ls",
    # phase 21: a letter outside the verb's flags before a value letter in one cluster (`flags` from the cluster's first
    # letter on); a verb's name where tmux reads none (`neww` as new-session's argument) keeps the program's value options
    "tmux neww -Zc /d ls", "tmux neww -dZc /d ls", "tmux splitw -Zp 5 ls", "tmux new -d ls neww -Z ls", "tmux new -d ls neww -c /d ls",
    # words the command builds, only known at run time (a `$(…)`; an unset `"$X"` is the agent's environment's)
    "make \"$(a)\" \"$(b)\"", "make -k \"$(a)\"", "man ls \"$(a)\"", "make --jobs=a=\"$(a)\"", "make --ev=a=\"$(a)\"",
]
#: The rows with a word only known at run time again, the word built by the command (`"$(c)"`).
ROWS += [row.replace('"$X"', '"$(c)"').replace('"$N"', '"$(n)"').replace('"$L"', '"$(l)"') for row in ROWS
         if any(word in row for word in ('"$X"', '"$N"', '"$L"'))]

#: One row for each entry of each BUILTIN_CODE_RUNNERS row (an option, a verb, a variable, a placeholder, a value
#: option before a code option in a cluster, each code pattern's word): mutmut does not mutate the module-level table,
#: so dropping one entry must change one of these readings (checked by hand in phase 17).
TABLE_ROWS: list[str] = [
    'tmux -c x', 'tmux command-prompt x', 'tmux confirm x', 'tmux confirm-before x', 'tmux display-menu x',
    'tmux if x', 'tmux if-shell x', 'tmux menu x', 'tmux pipe-pane x', 'tmux pipep x', 'tmux run x',
    'tmux run-shell x', 'tmux send x', 'tmux send-keys x', 'tmux source x', 'tmux source-file x',
    'tmux display-popup -d ls', 'tmux new -d ls', 'tmux new-session -d ls', 'tmux new-window -d ls',
    'tmux neww -d ls', 'tmux popup -d ls', 'tmux respawn-pane -d ls', 'tmux respawn-window -d ls',
    'tmux respawnp -d ls', 'tmux respawnw -d ls', 'tmux split-window -d ls', 'tmux splitw -d ls', 'tmux new -F x ls',
    'tmux new -L x ls', 'tmux new -S x ls', 'tmux new -c x ls', 'tmux new -e x ls', 'tmux new -f x ls',
    'tmux new -l x ls', 'tmux new -n x ls', 'tmux new -s x ls', 'tmux new -t x ls', 'tmux new -x x ls',
    'tmux new -y x ls', 'gdb --D x', 'gdb --command x', 'gdb --data-directory x', 'gdb --early-init-command x',
    'gdb --early-init-eval-command x', 'gdb --eiex x', 'gdb --eix x', 'gdb --eval-command x', 'gdb --ex x',
    'gdb --iex x', 'gdb --init-command x', 'gdb --init-eval-command x', 'gdb --ix x', 'gdb --x x', 'gdb -D x',
    'gdb -command x', 'gdb -data-directory x', 'gdb -early-init-command x', 'gdb -early-init-eval-command x',
    'gdb -eiex x', 'gdb -eix x', 'gdb -eval-command x', 'gdb -ex x', 'gdb -iex x', 'gdb -init-command x',
    'gdb -init-eval-command x', 'gdb -ix x', 'gdb -x x', 'HOME=x gdb', 'XDG_CONFIG_HOME=x gdb',
    'gdb-multiarch --D x', 'gdb-multiarch --command x', 'gdb-multiarch --data-directory x',
    'gdb-multiarch --early-init-command x', 'gdb-multiarch --early-init-eval-command x', 'gdb-multiarch --eiex x',
    'gdb-multiarch --eix x', 'gdb-multiarch --eval-command x', 'gdb-multiarch --ex x', 'gdb-multiarch --iex x',
    'gdb-multiarch --init-command x', 'gdb-multiarch --init-eval-command x', 'gdb-multiarch --ix x',
    'gdb-multiarch --x x', 'gdb-multiarch -D x', 'gdb-multiarch -command x', 'gdb-multiarch -data-directory x',
    'gdb-multiarch -early-init-command x', 'gdb-multiarch -early-init-eval-command x', 'gdb-multiarch -eiex x',
    'gdb-multiarch -eix x', 'gdb-multiarch -eval-command x', 'gdb-multiarch -ex x', 'gdb-multiarch -iex x',
    'gdb-multiarch -init-command x', 'gdb-multiarch -init-eval-command x', 'gdb-multiarch -ix x',
    'gdb-multiarch -x x', 'HOME=x gdb-multiarch', 'XDG_CONFIG_HOME=x gdb-multiarch', 'sqlite3 --init x',
    'sqlite3 -init x', 'sqlite3 --cmd .shell', 'sqlite3 -cmd .shell', 'make --eval x', 'make -E x', 'make --file -',
    'make --makefile -', 'make -f -', 'make --assume-new "$(c)"', 'make --assume-old "$(c)"',
    'make --include-dir "$(c)"', 'make --new-file "$(c)"', 'make --old-file "$(c)"', 'make --what-if "$(c)"',
    'make -I "$(c)"', 'make -W "$(c)"', 'make -o "$(c)"', 'make --jobs"$(c)"', 'make --load-average"$(c)"',
    'make -j"$(c)"', 'make -l"$(c)"', 'MAKEFLAGS=x make', 'GNUMAKEFLAGS=x make', 'gmake --eval x', 'gmake -E x',
    'gmake --file -', 'gmake --makefile -', 'gmake -f -', 'gmake --assume-new "$(c)"', 'gmake --assume-old "$(c)"',
    'gmake --include-dir "$(c)"', 'gmake --new-file "$(c)"', 'gmake --old-file "$(c)"', 'gmake --what-if "$(c)"',
    'gmake -I "$(c)"', 'gmake -W "$(c)"', 'gmake -o "$(c)"', 'gmake --jobs"$(c)"', 'gmake --load-average"$(c)"',
    'gmake -j"$(c)"', 'gmake -l"$(c)"', 'MAKEFLAGS=x gmake', 'GNUMAKEFLAGS=x gmake', 'less --lesskey-content x',
    'less --lesskey-file x', 'less --lesskey-src x', 'less -k x', 'LESSKEYIN=x less', 'LESSKEY=x less',
    'LESSKEYIN_SYSTEM=x less', 'LESSKEY_SYSTEM=x less', 'LESSKEY_CONTENT=x less', 'LESSOPEN=x less',
    'LESSCLOSE=x less', 'zless --lesskey-content x', 'zless --lesskey-file x', 'zless --lesskey-src x', 'zless -k x',
    'LESSKEYIN=x zless', 'LESSKEY=x zless', 'LESSKEYIN_SYSTEM=x zless', 'LESSKEY_SYSTEM=x zless',
    'LESSKEY_CONTENT=x zless', 'LESSOPEN=x zless', 'LESSCLOSE=x zless', 'lesspipe --lesskey-content x',
    'lesspipe --lesskey-file x', 'lesspipe --lesskey-src x', 'lesspipe -k x', 'LESSKEYIN=x lesspipe',
    'LESSKEY=x lesspipe', 'LESSKEYIN_SYSTEM=x lesspipe', 'LESSKEY_SYSTEM=x lesspipe', 'LESSKEY_CONTENT=x lesspipe',
    'LESSOPEN=x lesspipe', 'LESSCLOSE=x lesspipe', 'man --html x', 'man -H x', 'man --pager cat', 'man -P cat',
    'LESSKEYIN=x man', 'LESSKEY=x man', 'LESSKEYIN_SYSTEM=x man', 'LESSKEY_SYSTEM=x man', 'LESSKEY_CONTENT=x man',
    'MANOPT=x man', 'MANPAGER=x man', 'PAGER=x man', 'LESSOPEN=x man', 'LESSCLOSE=x man', 'fd --exec rm',
    'fd --exec-batch rm', 'fd -X rm', 'fd -x rm', 'fd -x rm {}', 'fd -x rm {/}', 'fd -x rm {//}', 'fd -x rm {.}',
    'fd -x rm {/.}', 'fdfind --exec rm', 'fdfind --exec-batch rm', 'fdfind -X rm', 'fdfind -x rm', 'fdfind -x rm {}',
    'fdfind -x rm {/}', 'fdfind -x rm {//}', 'fdfind -x rm {.}', 'fdfind -x rm {/.}', 'TAR_OPTIONS=x tar',
    'TAPE=x tar', 'XZ_OPT=x tar', 'XZ_DEFAULTS=x tar', 'BZIP=x tar', 'BZIP2=x tar', 'TAR_OPTIONS=x gtar',
    'TAPE=x gtar', 'XZ_OPT=x gtar', 'XZ_DEFAULTS=x gtar', 'BZIP=x gtar', 'BZIP2=x gtar', 'ZIPOPT=x zip',
    'UNZIP=x unzip', 'UNZIPOPT=x unzip', 'ZIPINFO=x zipinfo', 'ZIPINFOOPT=x zipinfo', 'split --filter cat',
    'XZ_OPT=x xz', 'XZ_DEFAULTS=x xz', 'XZ_OPT=x unxz', 'XZ_DEFAULTS=x unxz', 'XZ_OPT=x xzcat',
    'XZ_DEFAULTS=x xzcat', 'XZ_OPT=x lzma', 'XZ_DEFAULTS=x lzma', 'XZ_OPT=x unlzma', 'XZ_DEFAULTS=x unlzma',
    'XZ_OPT=x lzcat', 'XZ_DEFAULTS=x lzcat', 'BZIP=x bzip2', 'BZIP2=x bzip2', 'BZIP=x bunzip2', 'BZIP2=x bunzip2',
    'BZIP=x bzcat', 'BZIP2=x bzcat', 'RSYNC_RSH=x rsync', 'RSYNC_CONNECT_PROG=x rsync', 'HOME=x rsync',
    'curl --config cfg', 'curl -K cfg', 'curl -AK u', 'curl -CK u', 'curl -DK u', 'curl -EK u', 'curl -FK u',
    'curl -HK u', 'curl -PK u', 'curl -QK u', 'curl -TK u', 'curl -UK u', 'curl -XK u', 'curl -YK u', 'curl -bK u',
    'curl -cK u', 'curl -dK u', 'curl -eK u', 'curl -mK u', 'curl -oK u', 'curl -rK u', 'curl -tK u', 'curl -uK u',
    'curl -wK u', 'curl -xK u', 'curl -yK u', 'curl -zK u', 'CURL_HOME=x curl', 'XDG_CONFIG_HOME=x curl',
    'HOME=x curl', 'wget --execute logfile=x', 'wget -e logfile=x', 'wget --config cfg', 'wget -Ae logfile=x',
    'wget -Be logfile=x', 'wget -De logfile=x', 'wget -Ie logfile=x', 'wget -Oe logfile=x', 'wget -Pe logfile=x',
    'wget -Qe logfile=x', 'wget -Re logfile=x', 'wget -Te logfile=x', 'wget -Ue logfile=x', 'wget -Xe logfile=x',
    'wget -ae logfile=x', 'wget -ie logfile=x', 'wget -le logfile=x', 'wget -oe logfile=x', 'wget -te logfile=x',
    'wget -we logfile=x', 'WGETRC=x wget', 'SYSTEM_WGETRC=x wget', 'HOME=x wget', "sqlite3 db '.shell x'",
    "sqlite3 db '.system x'", "sqlite3 db '.once x'", "sqlite3 db '.output x'", "sqlite3 db '.save x'",
    "sqlite3 db '.backup x'", "sqlite3 db '.restore x'", "sqlite3 db '.import x'", "sqlite3 db '.load x'",
    "sqlite3 db '.excel x'", "sqlite3 db '.read x'", "sqlite3 db '.log x'", "sqlite3 db '.open x'",
    "sqlite3 db '.clone x'", "sqlite3 db '.dump x'", "sqlite3 db '.cd x'", "sqlite3 db 'select attach x'",
    "sqlite3 db 'select vacuum into x'", "sqlite3 db 'select load_extension(1)'", "sqlite3 db 'select writefile(1)'",
    "sqlite3 db 'select edit(1)'", 'wget -e outputdocument=x', 'wget -e dirprefix=x', 'wget -e savecookies=x',
    'wget -e warcfile=x', 'wget -e warctempdir=x', 'wget -e rejectedlog=x', 'wget -e hstsfile=x',
]
TABLE_ROWS += ["gdb-multiarch -eval-c x", "gmake --jobs=\"$(c)\"", "gmake --load-average=\"$(c)\"", "TAR_OPTIONS=-v gtar -x",
               # a code option after an operand, and in a cluster: what options_first and short_clusters would change
               "sqlite3 db -init f", "gdb-multiarch prog -ex x", "gmake all -E x", "less f -k x", "zless f -k x", "lesspipe f -k x",
               "man ls -H", "tmux -vc x", "sqlite3 -binit f", "zless -Sk f", "lesspipe -Sk f", "man -aH ls", "man -aP cat ls"]
ROWS += [row for row in TABLE_ROWS if row not in ROWS]

#: Rows in another state: (source, the state's fields; cwd None means not known; home "/h" unless given).
STATE_ROWS: list[tuple[str, dict]] = [
    ("tar -xf a", {"names_unknown": True}), ("gdb prog", {"names_unknown": True}), ("less f", {"names_unknown": True}),
    ("fd -x rm", {"names_unknown": True}), ("sqlite3 db", {"names_unknown": True}), ("man ls", {"names_unknown": True}),
    ("make", {"names_unknown": True}), ("tmux new ls", {"names_unknown": True}), ("curl u", {"names_unknown": True}),
    ("LESSOPEN='|x' less f", {"names_unknown": True}), ("TAR_OPTIONS=-v tar", {"names_unknown": True}),
    ("XZ_OPT=-9 xz f", {"names_unknown": True}), ("HOME=/h gdb", {"names_unknown": True}),
    ("tar -xf a", {"variables": {"TAR_OPTIONS": "--x"}}), ("tar -xf a", {"variables": {"XZ_OPT": None}}),
    ("tar -xf a", {"variables": {"XZ_OPT": "-9"}}), ("gdb prog", {"variables": {"HOME": "/h"}}),
    ("gdb prog", {"variables": {"HOME": "/x"}}), ("gdb prog", {"variables": {"HOME": None}}),
    ("less f", {"variables": {"LESSOPEN": "|x %s"}}), ("less f", {"variables": {"LESSOPEN": None}}),
    ("less f", {"variables": {"LESS": "-k"}}), ("less f", {"variables": {"LESS": None}}),
    ("less f", {"variables": {"LESSKEY": "/k"}}), ("man ls", {"variables": {"MANOPT": "-H"}}),
    ("make", {"variables": {"MAKEFLAGS": "-k"}}), ("rsync a b", {"variables": {"RSYNC_RSH": "ssh"}}),
    ("make \"$X\"", {"variables": {"X": "-k"}}), ("make $X", {"variables": {"X": "-k"}}), ("man \"$O\" ls", {"variables": {}}),
    ("tmux new -c sub ls", {"cwd": None}), ("tmux new -c /abs ls", {"cwd": None}), ("tmux new ls", {"cwd": None}),
    ("tmux new -c '' ls", {"cwd": None}), ("tmux neww -c sub ls", {"cwd": None}), ("tmux new -csub ls", {"cwd": None}),
    ("HOME=/x gdb", {"home": "/x"}), ("HOME=/h gdb", {"home": "/x"}), ("man \"$HOME\"", {"home": "/x"}),
    ("split --filter=cat f", {"cwd": None}), ("man -P cat ls", {"cwd": None}),
]


def step(source: str, cwd: str | None = "/w", variables: dict | None = None, names_unknown: bool = False, home: str = "/h") -> ShellCommand:
    node = parse(source).body[0]
    state = ShellState(cwd=cwd, variables=dict(variables or {}))
    state.names_unknown = names_unknown
    return ShellCommand(node=node, words=node.words, assignments=list(node.assignments), cwd=cwd, state=state, home=home)


def _word(w) -> list:
    return [w.raw, w.value, list(w.span), None if w.substitutions is None else len(w.substitutions)]


def reading_of(command: ShellCommand, runner: CodeRunner) -> list:
    """Everything the module reads of one command, as JSON would hold it."""
    out: list = [["o", reason] for reason in opaque_code(command, runner)]
    scripts, reasons = walked_code(command, runner)
    out += [["w", code, offset] for code, offset in scripts] + [["wr", reason] for reason in reasons]
    argv = run_argv(command, runner)
    if argv is not None:
        out.append(["a", argv[1], [[_word(w) for w in words] for words in argv[0]]])
    out += [["s", code, offset, cwd] for code, offset, cwd in subcommand_scripts(command, runner)]
    out += [["e", code] for code in env_code(command, runner)]
    return out


def commands() -> list[tuple[str, ShellCommand, CodeRunner]]:
    out = []
    for row in ROWS:
        plugin, colon, source = row.partition(": ")
        if colon and plugin in PLUGIN_RUNNERS:
            command = step(source)
            out.append((row, command, PLUGIN_RUNNERS[plugin]))
        else:
            command = step(row)
            out.append((row, command, BUILTIN_CODE_RUNNERS[command.name]))
    for source, state in STATE_ROWS:
        command = step(source, **state)
        out.append((f"{source} @ {json.dumps(state, sort_keys=True)}", command, BUILTIN_CODE_RUNNERS[command.name]))
    return out


def test_what_the_runners_read() -> None:
    expected = json.loads(READINGS.read_text())
    rows = commands()
    keys = [key for key, _, _ in rows]
    assert len(set(keys)) == len(keys) and set(keys) == set(expected), "rows and readings differ: run with --write"
    for key, command, runner in rows:
        assert reading_of(command, runner) == expected[key], key


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    got = {key: reading_of(command, runner) for key, command, runner in commands()}
    lines = [f" {json.dumps(key, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}" for key, value in got.items()]
    READINGS.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    print(f"{len(got)} readings written to {READINGS}")
