"""What bash's builtins do to the walker's state (shell/builtins.py), pinned for mutation testing (issue 13, phase 13).

Each row or test here was written for a mutant of `worktree_guard/shell/builtins.py` that the suite let live
(docs/testing.md, "Phase 13"). Where bash can be asked, the row says what bash 5.2 does; a row that is more cautious
than bash says so.
"""

from __future__ import annotations

import signal

import pytest

from tests.shell.test_shell_mutants import BUILTIN_STATES, after_builtins, changed_fields, commands_of
from worktree_guard.shell import builtins
from worktree_guard.shell.builtins import directory_change
from worktree_guard.shell.state import ShellState
from worktree_guard.shell.steps import ShellCommand

# -- every option loop ends ----------------------------------------------------------------------------------
# A loop over a builtin's options that stops advancing (`i = 1`, `i -= 1`, `i += 0`) never returns: the hook's
# watchdog would end every such command with WG000. The alarm turns a hang into a failure instead of a timeout.

TERMINATION_LINES = [
    "cd -LP -e /tmp", "cd -- /tmp", "cd -L", "cd -P -L ..", "pushd -n -- /x", "popd -n +1", "pushd -- +1",
    "unset -v -- A B", "unset -n -f -- x", "unset -v A", "unset -- A", "unset -fv A",
    "hash -p /x -d a b", "hash -dp /x a", "hash -p -- a", "hash -r -p /x a", "hash -t a b", "hash -p /x git ls",
    "hash -tp /x git", "hash -p /x -- git", "hash -r", "hash -d git", "hash -p/bin/rm git",
    "set -o noglob -o", "set -f -- a", "set +o", "set -x -o keyword +B", "set -e x -f", "set +f -k", "set -fk",
    "enable -n cd pushd", "enable cd", "shopt -s -q -- x lastpipe", "declare -a -i -x -- X=1", "read -p x -r A",
    "printf -v X -- y",
]


def test_every_option_loop_returns() -> None:
    def hang(*_) -> None:
        raise TimeoutError

    previous = signal.signal(signal.SIGALRM, hang)
    signal.setitimer(signal.ITIMER_REAL, 2.0)
    try:
        for line in TERMINATION_LINES:
            after_builtins(line, ShellState(cwd="/w", variables={"A": "1"}, local_frames=[set(), {"A"}]))
        for values in (["set", "-o"], ["set", "+o", "x", "-f"], ["set", "-e", "-f"], ["shopt", "-s", "--", "x"]):
            builtins.set_options(values)
            builtins.shopt_options(values)
            builtins._split_options(values, "LPe")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# -- the state after a line of builtins, field by field (as test_shell_mutants.BUILTIN_STATES) ----------------

PHASE_13_STATES: dict[str, dict] = {
    # bash 5.2: `cd -L -x` is refused (invalid option) and stays; only after `--` is `-x` a directory
    "cd -L -x": {"cwd": None, "oldpwd": "/w", "variables": {"OLDPWD": "/w", "PWD": None}},
    # printf -v NAME with NAME only known at run time, as a separate word or glued to -v; a prompt of `read -p`
    # only known at run time is no name
    "printf -v $N x": {"variables": {"IFS": None, "x": None}, "names_unknown": True, "dirstack": [None]},
    "printf -v$N x": {"variables": {"IFS": None, "x": None}, "names_unknown": True, "dirstack": [None]},
    'read -p "$P" A': {"variables": {"A": None}},
    # enable: -n (also before another option) turns names off; bash 5.2 turns them on again for `-a` and `-s` with
    # names (`enable -a cd` re-enables cd): the guard keeps them off, more cautious; `-p` lists them and keeps them
    # off (as bash). `-f` (load) and `-d` (delete) may make the name anything: off. A lone `-` is a name (bash:
    # "-: not a shell builtin"), and so is every word after it.
    "enable -n -a cd": {"disabled": {"cd"}},
    "enable -f x.so cd": {"disabled": {"x.so", "cd"}},
    "enable -d cd": {"disabled": {"cd"}},
    "enable -n cd; enable -a cd": {"disabled": {"cd"}},
    "enable -n cd; enable -p cd": {"disabled": {"cd"}},
    "enable -n cd; enable -s cd": {"disabled": {"cd"}},
    "enable -n cd; enable - -n cd": {},
    # unset: an option loop that ends at the last word; after `--` a word with a leading `-` is a name (bash 5.2:
    # `unset -- -f A` unsets the variable A); `-n -v` unsets the nameref itself; every name after one that is
    # readonly, a nameref, an element or a function is still unset
    "unset -v": {},
    "A=1; unset -- -f A": {"unset": {"-f", "A"}},
    "declare -n r=X; X=1; unset -n -v r": {"variables": {"X": "1"}, "unset": {"r"}},
    "declare -r R; A=1; unset R A": {"readonly": {"R"}, "unset": {"A"}},
    "declare -n r=X; A=1; unset r A": {"variables": {"r": None, "X": None}, "namerefs": {"r": "X"}, "unset": {"A"}},
    "A=1; unset 'a[1]' A": {"variables": {"a": None}, "unset": {"A"}},
    # set: a word that is no option starts the positional parameters (bash 5.2: `set X -f` leaves globbing on)
    "set X -f": {},
    # hash: `--` and a lone `-` end the options (bash 5.2 hashes `-p/bin/ls` and `-p` as names), the path glued to
    # -p is all of the rest of the word, a name only known at run time after known ones, `-d` removes only the names
    # after it
    "hash -- -p/bin/ls git": {},
    "hash - -p /bin/ls git": {},
    "hash -p/usr/bin/python git": {"hashed": {"git": "/usr/bin/python"}},
    "hash -p /x git $n": {"hashed": {"git": "/x", "*": None}},
    "hash -p /x hash; hash -d git": {"hashed": {"hash": "/x"}},
    # declare: an option word is one with a leading `-`/`+` and no `=` (bash 5.2: `-x=1` is no valid identifier, A is
    # not exported), every option word counts, also after one with the other sign; `-p`, `-f`, `-F` assign nothing
    # (bash 5.2: "X=1: not found", "cannot use `-f' to make functions"); `+x PWD` makes $PWD unknown to a child, `-x
    # PWD` does not; a nameref declared after `unset` is set again; every name of a `-n` line is a nameref; a word
    # with a tilde is expanded with the hook's home (bash: "`/root/x': not a valid identifier")
    "declare -- -x=1 A=1": {"variables": {"A": "1"}},
    "declare -x -r A=1": {"variables": {"A": "1"}, "readonly": {"A"}, "exported": {"A"}},
    "declare -x +r A=1": {"variables": {"A": "1"}, "exported": {"A"}},
    "declare +x -r PWD": {"variables": {"PWD": None}, "readonly": {"PWD"}},
    "cd /tmp; declare -x PWD": {"cwd": "/tmp", "oldpwd": "/w", "variables": {"OLDPWD": "/w", "PWD": "/tmp"}, "exported": {"PWD"}},
    "cd /tmp; declare +x PWD": {"cwd": "/tmp", "oldpwd": "/w", "variables": {"OLDPWD": "/w", "PWD": None}},
    "declare -p X=1": {},
    "declare -f X=1": {},
    "declare -F X=1": {},
    "unset r; declare -n r=X": {"variables": {"r": None}, "namerefs": {"r": "X"}},
    "declare -n r=X s=Y": {"variables": {"r": None, "s": None}, "namerefs": {"r": "X", "s": "Y"}},
    "declare ~/x": {},
    # dirs: `-c` (alone, among other letters, or a word only known at run time) empties the stack; `-v` does not
    "pushd /tmp; dirs -c": {"cwd": "/tmp", "oldpwd": "/w", "variables": {"OLDPWD": "/w", "PWD": "/tmp"}},
    "pushd /tmp; dirs -lc": {"cwd": "/tmp", "oldpwd": "/w", "variables": {"OLDPWD": "/w", "PWD": "/tmp"}},
    "pushd /tmp; dirs $x": {"cwd": "/tmp", "oldpwd": "/w", "variables": {"OLDPWD": "/w", "PWD": "/tmp"}},
    "pushd /tmp; dirs -v": {"cwd": "/tmp", "oldpwd": "/w", "dirstack": ["/w"], "variables": {"OLDPWD": "/w", "PWD": "/tmp"}},
    # a builtin `enable -n` turned off: what it does is not known (a program of that name may run); a name that is no
    # builtin runs as before; an assignment's `~` is the hook's home
    "enable -n cd; cd /tmp": {"cwd": None, "dirstack": [None], "variables": {"IFS": None}, "disabled": {"cd"}, "names_unknown": True},
    "enable -n foo; foo x": {"disabled": {"foo"}},
    "X=~/a": {"variables": {"X": "/h/a"}},
    # printf assigns only with -v: a format only known at run time assigns nothing
    "printf $f X": {},
    # read assigns a name with `_`; `shopt -os lastpipe` is `set -o lastpipe` (bash 5.2: invalid option name, lastpipe
    # stays off); shopt and set add to the options set before
    "my_var=1; read my_var": {"variables": {"my_var": None}},
    "shopt -os lastpipe": {"options": {"*"}},
    "set -f; shopt -s dotglob": {"options": {"noglob", "dotglob"}},
    "shopt -s dotglob; set -f": {"options": {"noglob", "dotglob"}},
    # phase 22: `read -a NAME` (`-ra NAME`, review 32a: `read -ra "$(cat n)"` set CDPATH): the option's value is the
    # array's name, so one only known at run time makes every name unknown, as a plain operand does; `--a` is no
    # option cluster (bash 5.2: "--: invalid option", nothing assigned); the value of an option that takes one (the
    # prompt of `-p`) is no name
    'read "$N"': {"dirstack": [None], "variables": {"IFS": None}, "names_unknown": True},
    'read -ra "$N"': {"dirstack": [None], "variables": {"IFS": None}, "names_unknown": True},
    'read -a "$N"': {"dirstack": [None], "variables": {"IFS": None}, "names_unknown": True},
    'read -a A "$N"': {"dirstack": [None], "variables": {"IFS": None, "A": None}, "names_unknown": True},
    'read --a "$N"': {},
    'read -p "$P" -a A': {"variables": {"A": None}},
}


@pytest.mark.parametrize("source", list(PHASE_13_STATES))
def test_builtin_lines_change_exactly_these_fields(source: str) -> None:
    assert source not in BUILTIN_STATES
    assert changed_fields(after_builtins(source)) == PHASE_13_STATES[source]


def test_unset_of_functions_and_of_a_middle_frames_local() -> None:
    f = object()
    # bash 5.2 removes a function named `-` with `unset -` (a lone `-` is a name, not the end of the options)
    state = ShellState(cwd="/w", functions={"-": f, "f": f, "g": f})
    after_builtins("unset -; unset -f f g", state)
    assert state.functions == {}
    # a name local to a caller that is not the outermost: unsetting it reveals an older value, not known
    state = ShellState(cwd="/w", variables={"A": "a"}, local_frames=[set(), {"A"}, set()])
    after_builtins("unset A", state)
    assert (state.variables, state.unset) == ({"A": None}, set())


def test_a_cd_may_be_refused_by_an_executable_file_or_after_a_write_at_the_root(tmp_path) -> None:
    tool = tmp_path / "tool"
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    state = ShellState(cwd=str(tmp_path))
    assert builtins._may_fail(state, str(tool))  # bash 5.2: "cd: tool: Not a directory"
    assert not builtins._may_fail(state, str(tmp_path))
    assert builtins._may_fail(ShellState(cwd="/w", written=["/"]), str(tmp_path))  # `rm -rf /` came first
    assert not builtins._may_fail(ShellState(cwd="/w", written=["/n"]), str(tmp_path))
    # phase 22: the directory itself written before (`rmdir d; cd d`), or one above it; a name that only begins the same is
    # another directory
    assert builtins._may_fail(ShellState(cwd="/w", written=[str(tmp_path)]), str(tmp_path))
    assert builtins._may_fail(ShellState(cwd="/w", written=[str(tmp_path.parent)]), str(tmp_path))
    assert not builtins._may_fail(ShellState(cwd="/w", written=[str(tmp_path) + "x", str(tmp_path / "below")]), str(tmp_path))


# -- where a cd/pushd/popd goes, every field (the span and path of WG202/WG201 come from `word` and `written`) -------
# On a tree {T}: q/r, q/m, q/x, s, "a b" (directories), l -> q/r, x -> q/x. (word's text, written, physical, logical,
# reason, moves, may_fail, kernel, pwd_known.) bash 5.2 on this tree: `cd l/../m/../x` leaves $PWD at {T}/q/x (the
# logical reading breaks at m: bash falls back to the kernel's, and `set -o posix` refuses it), `cd s//../x` and
# `cd 's/./../x'` go to {T}/x, `cd s/../nope/../x` fails ("No such file or directory").

DIRECTORY_CHANGES = [
    ('cd rel', {'options': {'cdspell'}}, ('rel', 'rel', None, None, 'the shell option cdspell set earlier may send it elsewhere', True, False, None, True)),
    ('cd rel', {'cwd': None}, ('rel', 'rel', None, None, 'the directory it is relative to is not known', True, False, None, True)),
    ('CDPATH=/x cd rel', {}, ('rel', 'rel', None, None, 'CDPATH is set, so the target depends on it (`cd ./rel` does not read it)', True, False, None, True)),
    # phase 22: names only known at run time assigned before (`read "$N"`): CDPATH may be set
    ('cd rel', {'names_unknown': True}, ('rel', 'rel', None, None, 'CDPATH may be set (a step before assigned names only known at run time), so the target depends on it (`cd ./rel` does not read it)', True, False, None, True)),
    ('cd ../x', {'variables': {'PWD': None}}, ('../x', '../x', None, None, 'bash climbs `..` from the logical directory ($PWD), which is not known here', True, False, None, True)),
    ('cd x', {'variables': {'PWD': None}}, ('x', 'x', '{T}/q/x', '{T}/q/x', '', True, False, None, False)),
    ('cd -P l/..', {}, ('l/..', 'l/..', '{T}/q', '{T}/q', '', True, False, None, True)),
    ('cd s', {}, ('s', 's', '{T}/s', '{T}/s', '', True, False, None, True)),
    ('cd l/..', {'options': {'physical'}}, ('l/..', 'l/..', None, None, '`set -P` (physical) may be in force, and the target differs read logically and physically', True, False, None, True)),
    ('cd l/..', {}, ('l/..', 'l/..', '{T}', '{T}', '', True, True, '{T}/q', True)),
    ('cd {T}/l/..', {}, ('{T}/l/..', '{T}/l/..', '{T}', '{T}', '', True, True, '{T}/q', True)),
    ('cd a', {'disabled': {'cd'}}, ('a', 'a', None, None, '`enable -n` may have turned the builtin cd off: it may not move', True, False, None, True)),
    ('cd', {'disabled': {'cd'}}, (None, 'cd', None, None, '`enable -n` may have turned the builtin cd off: it may not move', True, False, None, True)),
    ('pushd s', {'disabled': {'pushd'}}, ('s', 's', None, None, '`enable -n` may have turned the builtin pushd off: it may not move', True, False, None, True)),
    ('cd', {}, (None, '~', '/h', '/h', '', True, True, None, True)),
    ('cd -P', {}, (None, '~', '/h', '/h', '', True, True, None, True)),
    ('cd $X', {}, ('$X', '$X', None, None, "the target '$X' is only known at run time", True, False, None, True)),
    ('cd -x s', {}, ('-x', '-x', None, None, "bash's cd takes no option '-x', another shell may", True, False, None, True)),
    ('cd s x', {}, ('s', 's', None, None, 'bash refuses a cd given more than one directory and stays where it is (zsh would go elsewhere)', True, False, None, True)),
    ("cd ''", {}, ("''", '', None, None, '', False, False, None, True)),
    ('cd -', {}, ('-', '-', None, None, '`cd -` goes to OLDPWD, which is not known here', True, False, None, True)),
    ('cd -', {'oldpwd': '{T}/s'}, ('-', '-', '{T}/s', '{T}/s', '', True, False, None, True)),
    ('cd -P -', {'oldpwd': '{T}/l/..'}, ('-', '-', '{T}/q', '{T}/q', '', True, False, None, True)),
    ('pushd -n s', {}, ('s', None, None, None, '', False, False, None, True)),
    ('pushd -n', {}, (None, None, None, None, '', False, False, None, True)),
    ('pushd', {}, (None, 'pushd', None, None, '`pushd` swaps with a stack entry that is not known here', True, False, None, True)),
    ('pushd', {'dirstack': ['{T}/s']}, (None, 'pushd', '{T}/s', '{T}/s', '', True, False, None, True)),
    ('pushd s x', {}, ('s', 's', None, None, 'bash refuses a pushd given more than one directory and stays where it is', True, False, None, True)),
    ('pushd $X', {}, ('$X', '$X', None, None, "the target '$X' is only known at run time", True, False, None, True)),
    ('pushd +1', {}, ('+1', '+1', None, None, "the target '+1' is only known at run time", True, False, None, True)),
    ('pushd -- -x', {}, ('-x', '-x', '{T}/-x', '{T}/-x', '', True, True, None, True)),
    ('pushd s', {}, ('s', 's', '{T}/s', '{T}/s', '', True, False, None, True)),
    ('popd -n', {}, (None, None, None, None, '', False, False, None, True)),
    ('popd +1', {}, ('+1', '+1', None, None, '`popd ±N` picks a stack entry not known here', True, False, None, True)),
    ('popd', {}, (None, 'popd', None, None, '`popd` returns to a directory stack entry that is not known here', True, False, None, True)),
    ('popd', {'dirstack': ['{T}/s']}, (None, 'popd', '{T}/s', '{T}/s', '', True, False, None, True)),
    ('cd l/../m/../x', {}, ('l/../m/../x', 'l/../m/../x', '{T}/q/x', '{T}/x', '', True, True, None, True)),
    ('cd s//../x', {}, ('s//../x', 's//../x', '{T}/q/x', '{T}/x', '', True, False, None, True)),
    ('cd s/./../x', {}, ('s/./../x', 's/./../x', '{T}/q/x', '{T}/x', '', True, False, None, True)),
    ('cd s/../nope/../x', {}, ('s/../nope/../x', 's/../nope/../x', '{T}/q/x', '{T}/x', '', True, True, None, True)),
    ("cd 'a b/../x'", {}, ("'a b/../x'", "'a b/../x'", '{T}/q/x', '{T}/x', '', True, False, None, True)),
    ('cd -L -- -x', {}, ('-x', '-x', '{T}/-x', '{T}/-x', '', True, True, None, True)),
    ('cd -e s', {}, ('s', 's', '{T}/s', '{T}/s', '', True, False, None, True)),
    ('cd -@ s', {}, ('s', 's', '{T}/s', '{T}/s', '', True, False, None, True)),
    # -P climbs from the physical directory also when $PWD is not known; without it, from $PWD (after `cd l`)
    ('cd -P ..', {'cwd': '{T}/q/r', 'variables': {'PWD': None}}, ('..', '..', '{T}/q', '{T}/q', '', True, False, None, True)),
    ('cd ..', {'cwd': '{T}/q/r', 'variables': {'PWD': '{T}/l'}}, ('..', '..', '{T}', '{T}', '', True, True, '{T}/q', True)),
    ('cd nope', {'variables': {'PWD': None}}, ('nope', 'nope', '{T}/nope', '{T}/nope', '', True, True, None, False)),
    # a leading `//` is read as `/` ($PWD too; bash 5.2 keeps `//tmp` as $PWD: the same directory)
    ('cd /{T}/s', {}, ('/{T}/s', '/{T}/s', '{T}/s', '{T}/s', '', True, False, None, True)),
    ('cd //Xnope', {}, ('//Xnope', '//Xnope', '/Xnope', '/Xnope', '', True, True, None, True)),
    # a letter that is no option of cd or pushd (bash 5.2: "-X: invalid option", "-X: invalid number"); -P read for
    # `cd` alone (HOME) and for `cd -` (OLDPWD), each through the link l
    ('cd -X s', {}, ('-X', '-X', None, None, "bash's cd takes no option '-X', another shell may", True, False, None, True)),
    ('pushd -X s', {}, ('-X', '-X', None, None, 'bash refuses a pushd given more than one directory and stays where it is', True, False, None, True)),
    ('cd -P', {'variables': {'HOME': '{T}/l/..'}}, (None, '~', '{T}/q', '{T}/q', '', True, False, None, True)),
    ('cd', {'variables': {'HOME': '{T}/l/..'}}, (None, '~', '{T}', '{T}', '', True, True, '{T}/q', True)),
    ('cd -', {'oldpwd': '{T}/l/..'}, ('-', '-', '{T}', '{T}', '', True, True, '{T}/q', True)),
    # pushd and popd are logical (bash 5.2 has no -P for them), to an operand or the top of the stack
    ('pushd l/..', {}, ('l/..', 'l/..', '{T}', '{T}', '', True, True, '{T}/q', True)),
    ('pushd', {'dirstack': ['{T}/l/..']}, (None, 'pushd', '{T}', '{T}', '', True, True, '{T}/q', True)),
    ('popd', {'dirstack': ['{T}/l/..']}, (None, 'popd', '{T}', '{T}', '', True, True, '{T}/q', True)),
    ('popd -X', {'dirstack': ['{T}/s']}, ('-X', '-X', None, None, '`popd ±N` picks a stack entry not known here', True, False, None, True)),
    # a word with a letter before its cd option letters is no option (`cd aP` goes to aP)
    ('cd aP', {}, ('aP', 'aP', '{T}/aP', '{T}/aP', '', True, True, None, True)),

]


@pytest.fixture
def tree(tmp_path):
    for name in ("q/r", "q/m", "q/x", "s", "a b"):
        (tmp_path / name).mkdir(parents=True)
    (tmp_path / "l").symlink_to("q/r")
    (tmp_path / "x").symlink_to("q/x")
    return tmp_path


@pytest.mark.parametrize("source,state,expected", DIRECTORY_CHANGES, ids=[f"{i}-{r[0]}" for i, r in enumerate(DIRECTORY_CHANGES)])
def test_where_a_directory_builtin_goes_field_by_field(tree, source: str, state: dict, expected: tuple) -> None:
    def filled(value):
        if isinstance(value, str):
            return value.replace("{T}", str(tree))
        if isinstance(value, list):
            return [filled(v) for v in value]
        if isinstance(value, dict):
            return {k: filled(v) for k, v in value.items()}
        return value

    fields = {"cwd": str(tree), **{k: filled(v) for k, v in state.items()}}
    shell = ShellState(**fields)
    node = commands_of(filled(source))[0]
    change = directory_change(ShellCommand(node=node, words=node.words, assignments=list(node.assignments), cwd=shell.cwd, state=shell, home="/h"))
    got = (change.word.raw if change.word else None, change.written, change.physical, change.logical, change.reason,
           change.moves, change.may_fail, change.kernel, change.pwd_known)
    assert got == tuple(filled(v) for v in expected)


def test_a_cd_through_a_link_follows_both_readings_and_an_unknown_pwd_stays_unknown(tree) -> None:
    t = str(tree)
    state = ShellState(cwd=t, variables={"PWD": t})
    after_builtins("cd l/..", state)  # bash goes to {T} (logical) or, when that breaks, to {T}/q with $PWD getcwd()
    assert (state.cwd, state.cwds, state.variables, state.cd_may_fail) == (
        None, ((t, t), (f"{t}/q", f"{t}/q")), {"PWD": None, "OLDPWD": t}, True)
    state = ShellState(cwd=t, variables={"PWD": None})
    after_builtins("cd s", state)
    assert (state.cwd, state.variables, state.cd_may_fail) == (f"{t}/s", {"PWD": None, "OLDPWD": None}, False)


def test_a_disabled_builtin_forgets_the_positional_parameters() -> None:
    state = ShellState(cwd="/w", variables={"1": "a", "#": "1"}, positional=[], disabled={"cd"})
    after_builtins("cd /tmp", state)
    assert (state.cwd, state.positional, state.variables) == (None, None, {"1": None, "#": None, "IFS": None})


def test_set_with_a_lone_dash_or_double_dash_forgets_the_positional_parameters() -> None:
    # bash 5.2: `set --` empties them, `set -` keeps them (the guard forgets both: more cautious for `set -`)
    for source in ("set --", "set -"):
        state = ShellState(cwd="/w", variables={"1": "a", "#": "1"}, positional=[])
        after_builtins(source, state)
        assert (state.positional, state.variables) == (None, {"1": None, "#": None}), source


def test_shopt_reads_every_word_after_a_double_dash_as_a_name() -> None:
    """bash 5.2: `shopt -- -s lastpipe` refuses `-s` as an option name and changes nothing; `shopt -s -- lastpipe`
    sets it (phase 13's run: the walker read the first as turning lastpipe on)."""
    from worktree_guard.shell.builtins import shopt_options, shopt_words

    assert shopt_words(["shopt", "--", "-s", "lastpipe"]) == (set(), ["-s", "lastpipe"], False)
    assert shopt_options(["shopt", "--", "-s", "lastpipe"]) == set()
    assert shopt_words(["shopt", "-s", "--", "lastpipe"]) == ({"s"}, ["lastpipe"], False)
    assert shopt_options(["shopt", "-s", "--", "dotglob"]) == {"dotglob"}
    assert shopt_options(["shopt", "--", "-s", "dotglob"]) == set()
    assert shopt_words(["shopt", "-s", "--", "--", "x"]) == ({"s"}, ["--", "x"], False)
    assert shopt_words(["shopt", "-s", "lastpipe", "--", "-u"]) == ({"s"}, ["lastpipe", "--", "-u"], False)
