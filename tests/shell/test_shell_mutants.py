"""Behaviours of the Bash walker and its state pinned for mutation testing (issue 13, phase 5: `shell/`).

Each test was written for a mutant of `worktree_guard/shell/` that the suite let live (docs/testing.md,
"Phase 5"): the state the walker carries, the steps it hands to the rules, the words it evaluates.
"""

from __future__ import annotations

from worktree_guard.shell.state import ShellState


def test_a_merge_keeps_only_what_every_branch_agrees_on() -> None:
    state = ShellState(cwd="/w", oldpwd="/o", variables={"A": "1", "B": "2"})
    other = state.copy()
    other.variables["B"] = "3"
    other.cwd = "/w/sub"
    state.merge([other])
    assert state.cwd is None and state.oldpwd == "/o"
    assert state.variables == {"A": "1", "B": None}


# -- shell/state.py: the state a subshell copies, assignments, merges ----------------------------------


def full_state() -> ShellState:
    from worktree_guard.shell.ast import Function

    function = Function(name="f", body=None, span=(0, 1))  # type: ignore[arg-type]
    state = ShellState(cwd="/w", oldpwd="/o", dirstack=["/d"], variables={"A": "1"}, exported={"A"},
                       functions={"f": function}, lastpipe=True, unset={"U"}, options={"dotglob"},
                       readonly={"R"}, namerefs={"n": "A"}, hashed={"git": "/bin/git"}, positional=["p"],
                       transformed={"T"}, alternatives={"Y": frozenset({"`x`"})}, shell=2, names_unknown=True,
                       cd_may_fail=True, disabled={"cd"}, cwds=(("/a", "/a"), ("/b", None)))
    state.lost_code.append("L")
    state.written.append("/w/x")
    state.repositories.append("/w/r")
    state.configured.append("/w/c")
    state.local_frames.append({"l"})
    return state


def test_a_copy_carries_every_field() -> None:
    state = full_state()
    copy = state.copy()
    for name in ShellState.__slots__:
        assert getattr(copy, name) == getattr(state, name), name
    # shared by every scope: one object
    for name in ("written", "repositories", "configured", "local_frames", "globs", "positional", "lost_code"):
        assert getattr(copy, name) is getattr(state, name), name


def test_a_copys_changes_never_come_back() -> None:
    state = full_state()
    before = {name: getattr(state, name) for name in ShellState.__slots__}
    snapshot = {name: (value.copy() if hasattr(value, "copy") and name != "globs" else value) for name, value in before.items()}
    copy = state.copy()
    copy.dirstack.append("/e")
    copy.variables["B"] = "2"
    copy.exported.add("B")
    copy.functions["g"] = copy.functions["f"]
    copy.unset.add("V")
    copy.options.add("noglob")
    copy.readonly.add("S")
    copy.transformed.add("X")
    copy.namerefs["m"] = "B"
    copy.hashed["ls"] = None
    copy.alternatives["Z"] = frozenset({"`y`"})
    copy.disabled.add("exit")
    for name in ("dirstack", "variables", "exported", "functions", "unset", "options", "readonly", "transformed", "namerefs", "hashed",
                 "alternatives", "disabled"):
        assert getattr(state, name) == snapshot[name], name


def test_lookup_word_tells_an_unset_variable_from_an_unknown_one() -> None:
    from worktree_guard.shell.words import UNSET

    state = ShellState(cwd="/w", variables={"S": "v", "N": None}, unset={"U", "S"})
    assert state.lookup_word("U") == UNSET
    assert state.lookup("U") is None
    assert state.lookup_word("S") == "v"  # set again after an unset: its value wins
    assert state.lookup_word("N") is None
    assert state.lookup_word("Z") is None
    assert state.lookup("S") == "v"


def test_assign_follows_append_readonly_arrays_and_transformed_names() -> None:
    state = ShellState(cwd="/w", variables={"A": "a"}, readonly={"R"}, transformed={"T"}, unset={"U", "A"})
    state.variables["R"] = "r"
    state.assign("R", "x")
    assert state.variables["R"] == "r"
    state.assign("A", "b", append=True)
    assert state.variables["A"] == "ab" and "A" not in state.unset
    state.assign("U", "u", append=True)  # known unset: += starts from ""
    assert state.variables["U"] == "u" and "U" not in state.unset
    state.assign("Z", "z", append=True)  # not known: unknown
    assert state.variables["Z"] is None
    state.assign("A", None, append=True)
    assert state.variables["A"] is None
    state.assign("Q", "q")
    assert state.variables["Q"] == "q"
    state.assign("Q[1]", "v")
    assert state.variables["Q"] is None and "Q[1]" not in state.variables
    state.assign("T", "t")
    assert state.variables["T"] is None
    state.assign("E", "", append=False)
    state.assign("E", "e", append=True)
    assert state.variables["E"] == "e"


def test_assign_through_a_nameref() -> None:
    state = ShellState(cwd="/w", variables={"A": "a", "B": "b"}, namerefs={"r": "A", "s": None, "t": "t"})
    state.assign("r", "x")
    assert state.variables == {"A": None, "B": "b", "r": None}
    assert state.cwd == "/w"
    state = ShellState(cwd="/w", oldpwd="/o", dirstack=["/d"], variables={"A": "a"}, namerefs={"s": None}, unset={"U"})
    state.assign("s", "x")
    assert state.variables == {"A": None, "s": None, "IFS": None} and state.cwd is None and state.oldpwd is None  # any name, IFS among them
    assert state.dirstack == [None, None] and state.unset == set()
    state = ShellState(cwd="/w", variables={"A": "a"}, namerefs={"t": "t"})
    state.assign("t", "x")
    assert state.variables == {"A": None, "t": None, "IFS": None} and state.cwd is None


def test_assigning_oldpwd_pwd_and_dirstack() -> None:
    state = ShellState(cwd="/w", oldpwd="/o", dirstack=["/d"])
    state.assign("OLDPWD", "/p")
    assert state.oldpwd == "/p" and state.cwd == "/w" and state.dirstack == ["/d"]
    state.assign("PWD", "/q")
    assert state.cwd is None and state.oldpwd == "/p" and state.variables["PWD"] == "/q"
    state.assign("DIRSTACK", "/e")
    assert state.dirstack == [None, None] and state.oldpwd == "/p"


def test_forget_makes_everything_unknown() -> None:
    state = ShellState(cwd="/w", oldpwd="/o", dirstack=["/a", "/b"], variables={"A": "a", "B": None}, unset={"U"})
    state.forget()
    assert state.variables == {"A": None, "B": None, "IFS": None} and state.names_unknown
    assert state.unset == set() and state.cwd is None and state.oldpwd is None
    assert state.dirstack == [None, None, None]


def test_chdir_moves_oldpwd_and_the_variables() -> None:
    state = ShellState(cwd="/w")
    state.chdir("/w/s")
    assert (state.cwd, state.oldpwd) == ("/w/s", "/w")
    assert state.variables == {"OLDPWD": "/w", "PWD": "/w/s"}
    state.chdir(None)
    assert (state.cwd, state.oldpwd) == (None, "/w/s")
    assert state.variables == {"OLDPWD": "/w/s", "PWD": None}


def test_merge_of_every_field() -> None:
    from worktree_guard.shell.ast import Function

    f = Function(name="f", body=None, span=(0, 1))  # type: ignore[arg-type]
    state = ShellState(cwd="/w", oldpwd="/o", dirstack=["/a"], variables={"A": "1", "C": "c"}, exported={"A"},
                       unset={"U", "V"}, options={"x"}, readonly={"R"}, transformed={"T"},
                       namerefs={"n": "A", "k": "K"}, hashed={"git": "/g", "ls": "/l"}, positional=["p"])
    same = state.copy()
    other = state.copy()
    other.oldpwd = "/p"
    other.dirstack = ["/a", "/b", "/c"]
    other.variables["B"] = "2"
    other.exported.add("B")
    other.functions["f"] = f
    other.lastpipe = True
    other.unset.discard("V")
    other.options.add("y")
    other.readonly.add("S")
    other.transformed.add("X")
    other.namerefs["n"] = "B"
    other.namerefs["m"] = "M"
    other.hashed["git"] = "/h"
    other.positional = ["p"]  # equal, but not the same call's words
    state.merge([same, other])
    assert state.cwd == "/w"
    assert state.oldpwd is None
    assert state.dirstack == [None, None, None]
    # S is readonly in one outcome only: a later assignment may or may not take, so its value is unknown (review 22f)
    assert state.variables == {"A": "1", "B": None, "C": "c", "S": None}
    assert state.exported == {"A", "B"}
    assert state.functions == {"f": f}
    assert state.lastpipe is None  # on in one outcome only: the last stage's changes may or may not stay (review 23b)
    assert state.unset == {"U"}
    assert state.options == {"x", "y"}
    assert state.readonly == {"R", "S"}
    assert state.transformed == {"T", "X"}
    assert state.namerefs == {"n": None, "k": "K", "m": None}  # m is a nameref in one outcome only (review 22f)
    assert state.hashed == {"git": None, "ls": "/l"}
    assert state.positional is None


def test_merge_keeps_what_agrees_and_a_shorter_stack() -> None:
    state = ShellState(cwd="/w", oldpwd="/o", dirstack=["/a", "/b"], lastpipe=False, positional=None)
    other = state.copy()
    other.dirstack = ["/a"]
    state.merge([other])
    assert state.cwd == "/w" and state.oldpwd == "/o"
    assert state.dirstack == [None, None]
    assert state.lastpipe is False and state.positional is None
    lastpipe = ShellState(cwd="/w", lastpipe=True)
    lastpipe.merge([ShellState(cwd="/w")])
    assert lastpipe.lastpipe is None
    on = ShellState(cwd="/w", lastpipe=True)
    on.merge([ShellState(cwd="/w", lastpipe=True)])
    assert on.lastpipe is True
    equal = ShellState(cwd="/w", dirstack=["/a"])
    equal.merge([ShellState(cwd="/w", dirstack=["/a"])])
    assert equal.dirstack == ["/a"]


def test_glob_work_charges_up_to_its_limit() -> None:
    from worktree_guard.shell.state import MAX_GLOB_PATHS, BudgetExceeded, GlobWork

    work = GlobWork()
    assert work.paths == 0 and work.listings == {}
    work.charge(MAX_GLOB_PATHS - 1)
    work.charge(1)
    assert work.paths == MAX_GLOB_PATHS
    try:
        work.charge(1)
    except BudgetExceeded as error:
        assert str(error) == f"its globs stand for more than {MAX_GLOB_PATHS} paths"
    else:
        raise AssertionError("no BudgetExceeded past the limit")
    assert GlobWork().listings is not GlobWork().listings


# -- shell/state.py (phase 20): merge's directories, alternatives and functions; assign's lost code ------------


def test_merge_follows_the_directories_each_outcome_knows() -> None:
    state = ShellState(cwd="/w")
    state.merge([ShellState(cwd="/w/s")])
    assert state.cwd is None and state.cwds == (("/w", "/w"), ("/w/s", "/w/s"))
    # their $PWD is the logical half of each place (None: not known), sorted with None as ""
    state = ShellState(cwd="/a", variables={"PWD": None})
    state.merge([ShellState(cwd="/a", variables={"PWD": "/l"})])
    assert state.cwd == "/a" and state.cwds == ()
    state = ShellState(cwd="/a", variables={"PWD": "/l"})
    state.merge([ShellState(cwd="/b", variables={"PWD": None})])
    assert state.cwds == (("/a", "/l"), ("/b", None))
    state = ShellState(cwd="/b", variables={"PWD": "/l"})
    state.merge([ShellState(cwd="/b", variables={"PWD": None}), ShellState(cwd="/c")])
    assert state.cwds == (("/b", None), ("/b", "/l"), ("/c", "/c"))
    # outcomes already in several places: their places join
    state = ShellState(cwd=None, cwds=(("/a", "/a"), ("/b", "/b")))
    state.merge([ShellState(cwd=None, cwds=(("/b", "/b"), ("/c", "/c")))])
    assert state.cwds == (("/a", "/a"), ("/b", "/b"), ("/c", "/c"))
    state = ShellState(cwd=None, cwds=(("/a", "/a"), ("/b", "/b")))
    state.merge([ShellState(cwd="/c")])
    assert state.cwds == (("/a", "/a"), ("/b", "/b"), ("/c", "/c"))
    # an outcome that does not know where it is: nowhere known
    for first, second in ((ShellState(cwd="/a"), ShellState(cwd=None)), (ShellState(cwd=None), ShellState(cwd="/a"))):
        first.merge([second, ShellState(cwd="/b")])
        assert first.cwd is None and first.cwds == ()
    # up to MAX_CWDS places
    from worktree_guard.shell.state import MAX_CWDS

    assert MAX_CWDS == 4
    state = ShellState(cwd="/0")
    state.merge([ShellState(cwd=f"/{i}") for i in range(1, 4)])
    assert [place for place, _ in state.cwds] == ["/0", "/1", "/2", "/3"]
    state = ShellState(cwd="/0")
    state.merge([ShellState(cwd=f"/{i}") for i in range(1, 5)])
    assert state.cwd is None and state.cwds == ()
    # outcomes that agree on the directory: no places, whatever the state held
    state = ShellState(cwd="/a", cwds=(("/a", "/a"), ("/b", "/b")))
    state.merge([ShellState(cwd="/a")])
    assert state.cwd == "/a" and state.cwds == ()


def test_merge_keeps_the_values_that_run_code_a_variable_may_hold() -> None:
    from worktree_guard.shell.state import record_lost_code

    code, other_code = "a[$(touch f)]", "`x`"
    state = ShellState(cwd="/w", variables={"Y": "0", "Z": code, "K": "k"})
    other = ShellState(cwd="/w", variables={"Y": code, "Z": "1", "K": "j"})
    state.merge([other])
    assert state.variables == {"Y": None, "Z": None, "K": None}
    assert state.alternatives == {"Y": frozenset({code}), "Z": frozenset({code})}
    assert state.lost_code == ["Y", "Z"] or state.lost_code == ["Z", "Y"]
    # known on one side only (None on the other): that side's value; and the alternatives already held
    state = ShellState(cwd="/w", variables={"Y": None}, alternatives={"Y": frozenset({other_code})})
    state.merge([ShellState(cwd="/w", variables={"Y": code})])
    assert state.variables == {"Y": None} and state.alternatives == {"Y": frozenset({code, other_code})}
    assert state.lost_code == ["Y"]
    state = ShellState(cwd="/w", variables={"Y": "1"})
    state.merge([ShellState(cwd="/w", variables={"Y": None}, alternatives={"Y": frozenset({code})})])
    assert state.alternatives == {"Y": frozenset({code})} and state.lost_code == ["Y"]
    # a name whose value agrees keeps its alternatives, joined with the other outcome's
    state = ShellState(cwd="/w", variables={"Y": None}, alternatives={"Y": frozenset({code})})
    state.merge([ShellState(cwd="/w", variables={"Y": None}, alternatives={"Y": frozenset({other_code})})])
    assert state.alternatives == {"Y": frozenset({code, other_code})} and state.lost_code == []
    state = ShellState(cwd="/w", variables={"Y": None}, alternatives={"Y": frozenset({code, other_code})})
    state.merge([ShellState(cwd="/w", variables={"Y": None}, alternatives={"Y": frozenset({code})})])
    assert state.alternatives == {"Y": frozenset({code, other_code})}
    state = ShellState(cwd="/w")
    state.merge([ShellState(cwd="/w", alternatives={"Q": frozenset({code})})])
    assert state.alternatives == {"Q": frozenset({code})} and state.variables == {}
    # no value that runs code: no alternatives, nothing lost
    state = ShellState(cwd="/w", variables={"Y": "${A"})
    state.merge([ShellState(cwd="/w", variables={"Y": "2"})])
    assert state.alternatives == {"Y": frozenset({"${A"})}
    state = ShellState(cwd="/w", variables={"Y": "1"})
    state.merge([ShellState(cwd="/w", variables={"Y": "2"})])
    assert state.alternatives == {} and state.lost_code == []
    # recorded once
    lost: list[str] = ["A"]
    record_lost_code(lost, "A")
    record_lost_code(lost, "B")
    assert lost == ["A", "B"]


def test_merge_of_the_flags_and_the_disabled_builtins() -> None:
    state = ShellState(cwd="/w", disabled={"a"})
    state.merge([ShellState(cwd="/w", names_unknown=True, cd_may_fail=True, disabled={"b"})])
    assert state.names_unknown is True and state.cd_may_fail is True and state.disabled == {"a", "b"}
    state = ShellState(cwd="/w", names_unknown=True, cd_may_fail=True)
    state.merge([ShellState(cwd="/w")])
    assert state.names_unknown is True and state.cd_may_fail is True
    state = ShellState(cwd="/w")
    state.merge([ShellState(cwd="/w")])
    assert state.names_unknown is False and state.cd_may_fail is False and state.disabled == set()
    # a name readonly in both outcomes keeps its value
    state = ShellState(cwd="/w", variables={"R": "r"}, readonly={"R"})
    state.merge([ShellState(cwd="/w", variables={"R": "r"}, readonly={"R"})])
    assert state.variables == {"R": "r"}
    state = ShellState(cwd="/w", variables={"R": "r"}, readonly={"R"})
    state.merge([ShellState(cwd="/w", variables={"R": "r"})])
    assert state.variables == {"R": None} and state.readonly == {"R"}
    # namerefs and hashed names in both outcomes, equal: kept
    state = ShellState(cwd="/w", namerefs={"n": "A"}, hashed={"g": "/g"}, positional=["p"])
    state.merge([state.copy()])
    assert state.namerefs == {"n": "A"} and state.hashed == {"g": "/g"} and state.positional == ["p"]
    state = ShellState(cwd="/w", hashed={"g": "/g"})
    state.merge([ShellState(cwd="/w")])
    assert state.hashed == {"g": None}


def test_a_function_two_outcomes_define_differently_may_run_either_body() -> None:
    from worktree_guard.shell.ast import Compound, Function
    from worktree_guard.shell.state import _either

    one, two, three = (parse(source).body[0] for source in ("a", "b", "c"))
    r1, r2 = parse("a > x 2> y").body[0].redirects
    f = Function(name="f", body=one, span=(0, 1), redirects=[r1])
    g = Function(name="f", body=two, span=(2, 3), redirects=[r1, r2])
    assert _either(None, f) is f and _either(f, f) is f
    assert _either(f, Function(name="f", body=one, span=(4, 5))) is f  # the same body
    both = _either(f, g)
    assert isinstance(both.body, Compound) and both.body.kind == "either" and both.body.bodies == [one, two]
    assert both.body.bodies[0] is one and both.body.bodies[1] is two
    assert (both.name, both.span, both.body.span) == ("f", (0, 1), (0, 1))
    assert both.redirects == [r1, r2] and both.redirects[1] is r2
    # an "either" already: its bodies, each once
    h = Function(name="f", body=three, span=(6, 7))
    all_three = _either(both, h)
    assert all_three.body.bodies == [one, two, three]
    assert _either(both, g).body.bodies == [one, two]
    assert _either(h, both).body.bodies == [three, one, two]
    other = Compound(span=(0, 1), kind="if", bodies=[one, two])
    k = Function(name="f", body=other, span=(8, 9))
    assert _either(k, f).body.bodies == [other, one]
    # through merge
    state = ShellState(cwd="/w", functions={"f": f})
    state.merge([ShellState(cwd="/w", functions={"f": g, "h": h})])
    assert state.functions["f"].body.bodies == [one, two] and state.functions["h"] is h


def test_assign_records_a_value_that_ran_code_when_it_becomes_unknown() -> None:
    code = "a[$(touch f)]"
    state = ShellState(cwd="/w", variables={"X": code, "Y": "1"}, alternatives={"Z": frozenset({code})})
    state.assign("Y", None)
    assert state.lost_code == []
    state.assign("X", None)
    assert state.lost_code == ["X"]
    state.assign("Z", None)
    assert state.lost_code == ["X", "Z"] and state.alternatives == {}
    state = ShellState(cwd="/w", variables={"X": code}, alternatives={"X": frozenset({code})})
    state.assign("X", "1")
    assert state.lost_code == [] and state.alternatives == {} and state.variables["X"] == "1"
    state = ShellState(cwd="/w", variables={"X": code})
    state.assign("X", "", append=True)  # known + '': still known
    assert state.variables["X"] == code and state.lost_code == []
    # the names that stand for more than a variable
    state = ShellState(cwd="/w", cwds=(("/a", "/a"), ("/b", "/b")))
    state.assign("PWD", "/a")
    assert state.cwd is None and state.cwds == ()
    state = ShellState(cwd="/w")
    state.assign("BASH_CMDS[ls]", "/bin/rm")
    assert state.hashed == {"*": None} and state.options == set()
    state.assign("BASH_ALIASES[ls]", "rm")
    assert state.options == {"alias"} and state.hashed == {"*": None}
    state = ShellState(cwd="/w", unset={"A"})
    state.assign("A[1]", "v")
    assert "A" not in state.unset and state.variables == {"A": None}
    state = ShellState(cwd="/w", readonly={"R"})
    state.assign("R[1]", "v")
    assert state.variables == {}
    state = ShellState(cwd="/w", variables={"A": "a"}, namerefs={"r": "A[1]"})
    state.assign("r[2]", "v")
    assert state.variables == {"A": None, "r": None}


def test_forgetting_names_keeps_the_values_that_ran_code() -> None:
    code = "a[$(touch f)]"
    state = ShellState(cwd="/w", cwds=(), oldpwd="/o", variables={"X": code, "Y": "1", "Z": None, "V": "$(v)"},
                       alternatives={"X": frozenset({"`y`"})}, unset={"U"}, dirstack=["/d"])
    state.forget_names()
    assert state.names_unknown is True and state.cwd == "/w"
    assert state.variables == {"X": None, "Y": None, "Z": None, "V": None, "IFS": None}
    assert state.alternatives == {"X": frozenset({code, "`y`"}), "V": frozenset({"$(v)"})} and state.lost_code == ["X", "V"]
    assert state.unset == set() and state.oldpwd is None and state.dirstack == [None, None]
    state = ShellState(cwd="/w", cwds=(("/a", "/a"), ("/b", "/b")))
    state.forget_variables()
    assert state.cwd is None and state.cwds == () and state.names_unknown


def test_a_builtin_enable_n_turned_off() -> None:
    assert ShellState(cwd="/w").is_disabled("cd") is False
    assert ShellState(cwd="/w").is_disabled(None) is False
    assert ShellState(cwd="/w", disabled={"cd"}).is_disabled("cd") is True
    assert ShellState(cwd="/w", disabled={"cd"}).is_disabled("exit") is False
    assert ShellState(cwd="/w", disabled={"*"}).is_disabled("exit") is True
    assert ShellState(cwd="/w", disabled={"*"}).is_disabled(None) is True


def test_the_logical_directory_is_pwd_when_the_command_knows_it() -> None:
    assert ShellState(cwd=None, variables={"PWD": "/p"}).logical() is None
    assert ShellState(cwd="/w").logical() == "/w"
    assert ShellState(cwd="/w", variables={"PWD": "/p"}).logical() == "/p"
    assert ShellState(cwd="/w", variables={"PWD": None}).logical() is None
    assert ShellState(cwd="/w", variables={"PWD": "p"}).logical() is None
    assert ShellState(cwd="/w", unset={"PWD"}).logical() is None
    state = ShellState(cwd="/w", variables={"PWD": "/l"}, cwds=(("/a", "/a"), ("/b", "/b")))
    state.chdir("/t", "/u")
    assert (state.cwd, state.cwds, state.oldpwd) == ("/t", (), "/l")
    assert state.variables == {"PWD": "/u", "OLDPWD": "/l"}
    state.chdir("/v", None)
    assert state.variables == {"PWD": None, "OLDPWD": "/u"}
    state.chdir(None, "/x")
    assert state.variables["PWD"] is None and state.cwd is None


# -- shell/steps.py: the steps the rules see, a word's value in a state, globs, braces -----------------

import os  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from worktree_guard.shell import steps  # noqa: E402
from worktree_guard.shell.ast import Assignment, Command, Redirect, Word  # noqa: E402
from worktree_guard.shell.parse import parse  # noqa: E402
from worktree_guard.shell.steps import ShellCommand, ShellRedirect, brace_expanded, expand_tilde, glob_values, word_value  # noqa: E402
from worktree_guard.shell.words import UNSET  # noqa: E402


def words_of(source: str) -> list[Word]:
    node = parse(source).body[0]
    assert isinstance(node, Command)
    return node.words


def one_word(raw: str) -> Word:
    return words_of("echo " + raw)[1]


def step_of(source: str, state: ShellState | None = None, home: str = "/home/u") -> ShellCommand:
    node = parse(source).body[0]
    assert isinstance(node, Command)
    return ShellCommand(node=node, words=node.words, assignments=list(node.assignments), cwd="/w",
                        state=state or ShellState(cwd="/w"), home=home)


def test_a_steps_name_is_the_programs_base_name() -> None:
    assert step_of("/usr/bin/git status").name == "git"
    assert step_of("git status").name == "git"
    assert step_of("$G status").name is None
    assert ShellCommand(node=Command(words=[], span=(0, 0)), words=[], assignments=[], cwd="/w", state=ShellState(cwd="/w"), home="/h").name is None
    for option in ("expand_aliases", "keyword", "*"):
        assert step_of("git status", ShellState(cwd="/w", options={option})).name is None, option
    assert step_of("git status", ShellState(cwd="/w", options={"dotglob"})).name == "git"


def test_a_hashed_name_runs_its_path() -> None:
    def name(source: str, hashed: dict, functions: dict | None = None) -> str | None:
        return step_of(source, ShellState(cwd="/w", hashed=hashed, functions=functions or {})).name

    assert name("git x", {"git": "/opt/bin/hub"}) == "hub"
    assert name("git x", {"git": None}) is None
    assert name("git x", {"*": None}) is None
    assert name("git x", {"ls": "/bin/rm"}) == "git"
    assert name("/usr/bin/git x", {"git": "/bin/rm"}) == "git"  # a path is not looked up
    assert name("/usr/bin/git x", {"*": None}) == "git"
    assert name("cd x", {"cd": "/bin/rm"}) == "cd"  # a builtin runs before any hashed program
    assert name("cd x", {"*": None}) == "cd"
    assert name("f x", {"f": "/bin/rm"}, {"f": object()}) == "f"  # so does a function
    assert name("f x", {"*": None}, {"f": object()}) == "f"


def test_a_steps_values_span_and_environment() -> None:
    state = ShellState(cwd="/w", variables={"E": "e", "N": None})
    step = step_of("A=1 A=2 B=$Q git ~/x $V", state, home="/home/u")
    assert step.values() == ["git", "/home/u/x", None]
    assert step.span == step.node.span
    assert step.env("A") == (True, "2")
    assert step.env("B") == (True, None)
    assert step.env("E") == (True, "e")
    assert step.env("N") == (True, None)
    assert step.env("Z") == (False, None)
    assert step_of("A=~/y git", state, home="/h").env("A") == (True, "/h/y")


def test_a_redirects_target() -> None:
    state = ShellState(cwd="/w", variables={"D": "/d"})
    target = ShellRedirect(redirect=Redirect(op=">", span=(0, 3), target=one_word("$D/x")), cwd="/w", state=state, home="/h")
    assert target.target() == "/d/x" and target.span == (0, 3)
    tilde = ShellRedirect(redirect=Redirect(op=">", span=(0, 3), target=one_word("~/x")), cwd="/w", state=state, home="/h")
    assert tilde.target() == "/h/x"
    heredoc = ShellRedirect(redirect=Redirect(op="<<", span=(0, 3), heredoc="x\n"), cwd="/w", state=state, home="/h")
    assert heredoc.target() is None


def test_expand_tilde() -> None:
    state = ShellState(cwd="/w", variables={"PWD": "/p", "OLDPWD": "/o"})
    assert expand_tilde("", state, "/h") == "/h"
    assert expand_tilde("/x/y", state, "/h") == "/h/x/y"
    assert expand_tilde("/x", ShellState(cwd="/w", variables={"HOME": "/H"}), "/h") == "/H/x"
    assert expand_tilde("+", state, "/h") == "/p"
    assert expand_tilde("+/x", state, "/h") == "/p/x"
    assert expand_tilde("-", state, "/h") == "/o"
    assert expand_tilde("-/x", state, "/h") == "/o/x"
    assert expand_tilde("+", ShellState(cwd="/w"), "/h") is None
    assert expand_tilde("-/x", ShellState(cwd="/w"), "/h") is None
    for stack in ("1", "+1", "-2/x", "0"):
        assert expand_tilde(stack, state, "/h") is None, stack
    assert expand_tilde("root/x", state, "/h") == "/root/x"
    assert expand_tilde("root", state, "/h") == "/root"
    assert expand_tilde("no-such-user-wg/x", state, "/h") == "~no-such-user-wg/x"


def test_known_substitutions_pwd_and_mktemp() -> None:
    def value(raw: str, **kwargs) -> str | None:
        return word_value(one_word(raw), ShellState(cwd=kwargs.pop("cwd", "/w"), **kwargs), "/h")

    assert value("$(pwd)/x") == "/w/x"
    assert value("`pwd`/x") == "/w/x"
    assert value("$(pwd -P)/x") == "/w/x"
    assert value("$( pwd )") == "/w"
    assert value("$(pwd)/x", cwd=None) is None
    assert value("$(mktemp)", unset={"TMPDIR"}) == "/tmp/tmp.worktree-guard-mktemp"
    assert value("$(mktemp -d)/f", variables={"TMPDIR": ""}) == "/tmp/tmp.worktree-guard-mktemp/f"
    assert value("`mktemp --directory`", variables={"TMPDIR": "/t"}) == "/t/tmp.worktree-guard-mktemp"
    assert value("$(mktemp)") is None  # TMPDIR not known
    assert value("$(pwd)/$(mktemp)", variables={"TMPDIR": "/t"}) == "/w//t/tmp.worktree-guard-mktemp"
    assert value("$(pwd)/$(ls)") is None
    assert value("$(ls)") is None
    assert value("$(pwd)/$X", variables={"X": "x"}) == "/w/x"
    assert value("$(pwd)/$X") is None
    assert value("$(pwd)/$U", unset={"U"}) is None
    assert value("$(pwd)/${U:-d}", unset={"U"}) == "/w/d"


def test_word_value_in_a_state() -> None:
    assert word_value(one_word("$X/y"), ShellState(cwd="/w", variables={"X": "/x"}), "/h") == "/x/y"
    assert word_value(one_word("$X/y"), ShellState(cwd="/w", variables={"X": "/x", "IFS": ":"}), "/h") is None
    assert word_value(one_word("plain"), ShellState(cwd="/w", variables={"IFS": ":"}), "/h") == "plain"
    assert word_value(one_word("*.py"), ShellState(cwd="/w", variables={"IFS": ":"}), "/h") is None
    assert word_value(one_word("*.py"), ShellState(cwd="/w"), "/h") is None
    assert word_value(one_word("$X"), ShellState(cwd="/w"), "/h") is None
    assert word_value(one_word("~/$X"), ShellState(cwd="/w", variables={"X": "x"}), "/h") == "/h/x"
    assert word_value(one_word("~"), ShellState(cwd="/w"), "/h") == "/h"
    assert word_value(one_word("a~"), ShellState(cwd="/w"), "/h") == "a~"
    assert word_value(Word(raw="$Y", span=(0, 2), value=None), ShellState(cwd="/w", variables={"Y": "y"}), "/h") == "y"
    assert word_value(Word(raw="`echo`", span=(0, 6), value=None), ShellState(cwd="/w"), "/h") is None


def make_dir(root: Path, names: list[str]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for name in names:
        (root / name).write_text("")
    return root


def test_glob_values(tmp_path: Path) -> None:
    d = make_dir(tmp_path / "d", ["b.py", "a.py", ".h.py", "c.txt"])
    state = ShellState(cwd=str(tmp_path))
    assert glob_values(one_word("d/*.py"), state) == [f"{d}/a.py", f"{d}/b.py"]
    assert glob_values(one_word(f"{d}/*.py"), state) == [f"{d}/a.py", f"{d}/b.py"]
    assert glob_values(one_word("d/.*.py"), state) == [f"{d}/.h.py"]
    assert glob_values(one_word("d/[.]h*"), state) == [f"{d}/.h.py"]
    assert glob_values(one_word("d/?.txt"), state) == [f"{d}/c.txt"]
    assert glob_values(one_word("d/*.none"), state) == [f"{d}/*.none"]
    assert glob_values(one_word("d/x\\ y*.none"), state) == [f"{d}/x y*.none"]
    assert glob_values(one_word("*/a.py"), state) is None
    # a glob in a directory component is unknown even under a path not there now: a pipeline stage, a background job
    # or a program the guard does not read may make it before bash expands the word (review 28a)
    assert glob_values(one_word("nope/*/a.py"), state) is None
    assert glob_values(one_word("d/*.py"), ShellState(cwd=None)) is None
    assert glob_values(one_word("$(ls)*"), state) is None
    for option in ("dotglob", "nullglob", "failglob", "globstar", "nocaseglob", "extglob", "noglob", "globasciiranges", "globskipdots", "*"):
        assert glob_values(one_word("d/*.py"), ShellState(cwd=str(tmp_path), options={option})) is None, option
    assert glob_values(one_word("d/*.py"), ShellState(cwd=str(tmp_path), options={"cdable_vars"})) == [f"{d}/a.py", f"{d}/b.py"]
    assert glob_values(one_word("$V/*.py"), ShellState(cwd="/", variables={"V": str(d)})) == [f"{d}/a.py", f"{d}/b.py"]


def test_glob_values_charge_one_meter_and_read_a_directory_once(tmp_path: Path) -> None:
    d = make_dir(tmp_path / "d", [f"f{i:02}" for i in range(25)])
    state = ShellState(cwd=str(tmp_path))
    assert len(glob_values(one_word("d/f0*"), state) or []) == 10
    assert state.globs.paths == 25 // steps.ENTRIES_PER_PATH + 10
    assert list(state.globs.listings) == [str(d)]
    (d / "f0x").write_text("")
    assert len(glob_values(one_word("d/f0*"), state) or []) == 10  # the listing read first
    assert state.globs.paths == 2 + 20
    assert glob_values(one_word("/*"), ShellState(cwd="/w")) is not None
    assert "/" in ShellState(cwd="/w").globs.listings or True
    root = ShellState(cwd="/w")
    glob_values(one_word("/et*"), root)
    assert list(root.globs.listings) == ["/"]


def test_a_crowded_or_unreadable_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(steps, "MAX_GLOB_ENTRIES", 3)
    make_dir(tmp_path / "three", ["a", "b", "c"])
    make_dir(tmp_path / "four", ["a", "b", "c", "d"])
    assert steps._listing(str(tmp_path / "three")) == ["a", "b", "c"]
    assert steps._listing(str(tmp_path / "four")) is None
    assert steps._listing(str(tmp_path / "missing")) == []
    state = ShellState(cwd=str(tmp_path))
    assert glob_values(one_word("four/*"), state) is None
    assert glob_values(one_word("missing/*"), state) == [f"{tmp_path}/missing/*"]


def test_brace_expansion_makes_words() -> None:
    state = ShellState(cwd="/w")
    expanded = brace_expanded(words_of("touch {a,b}.txt c ~/{x,y}"), state)
    assert [(w.raw, w.value, w.tilde) for w in expanded] == [
        ("touch", "touch", False), ("a.txt", "a.txt", False), ("b.txt", "b.txt", False), ("c", "c", False),
        ("~/x", "/x", True), ("~/y", "/y", True)]
    assert all(w.span == words_of("touch {a,b}.txt c ~/{x,y}")[1].span for w in expanded[1:3])
    subs = brace_expanded(words_of("touch $(pwd)/{a,b} {c,$(ls)}"), state)
    assert [(w.raw, w.value, len(w.substitutions)) for w in subs[1:]] == [
        ("$(pwd)/a", None, 1), ("$(pwd)/b", None, 1), ("c", "c", 0), ("$(ls)", None, 1)]
    for raw in ("<(ls)", ">(ls)", "`ls`"):
        [_, one, two] = brace_expanded(words_of(f"cat {{x,{raw}}}"), state)
        assert (one.value, one.substitutions, two.value, len(two.substitutions)) == ("x", [], None, 1), raw
    for option in ("+braceexpand", "*"):
        kept = words_of("touch {a,b}.txt")
        assert brace_expanded(kept, ShellState(cwd="/w", options={option})) == kept
    static = words_of("touch '{a,b}'")
    assert brace_expanded(static, state) == static


# -- shell/steps.py (phase 20): a word the command cannot make an option, names only known at run time ----------


def test_a_word_the_command_cannot_make_an_option(tmp_path: Path) -> None:
    from worktree_guard.shell.steps import chosen_elsewhere

    (tmp_path / "a.md").write_text("")
    state = ShellState(cwd=str(tmp_path))
    home = ShellState(cwd=str(tmp_path), variables={"HOME": "/h"})
    rows = [
        # the runtime's value: no expansion the command made
        ("$EDITOR", state, True), ("${U}", state, True), ("${U}/x", state, True), ("~user/x", state, True), ("~", state, True),
        ("$HOME/*.md", state, True), ("a/$X/*", state, True),  # a glob after a `/` after the parameter
        ("~+/x", state, False), ("~-", state, False),  # $PWD, $OLDPWD: the command may set them
        ("@(a|b)", state, False), ("!(x)", state, False), ("a+(b)", state, False), ("?(a)", state, False), ("*(a)", state, False),
        ("${U:--t}", state, False), ("${U-x}", state, False), ("${U:=x}", state, False), ("${U+x}", state, False),
        ("~1/x", state, False),  # the directory stack
        ("~/x", home, False), ("~", home, False),  # a HOME the command set
        ("$HOME*", state, False),  # a glob right after the parameter, which is not known
        ("$X", ShellState(cwd=str(tmp_path), variables={"X": "-t"}), False),
        ("$REPLY", state, False),  # set by bash from what the command read
        ("*.md", state, True),  # a glob whose names are all known now
        ("~/*.md", state, False),
        # phase 21: a lower-case name's default; a HOME the command set below `~/x`; a glob after the first
        # parameter's `/` (`$D/$N*`: the word starts with $D's value); any `~` prefix that starts with a digit is
        # read as the stack's (cautious: bash reads `~1a` as a login name)
        ("${u:--t}", state, False), ("~/x/y", home, False), ("$D/$N*", state, True), ("~1a/x", state, False),
    ]
    for raw, where, expected in rows:
        assert chosen_elsewhere(one_word(raw), where) is expected, raw


def test_a_glob_whose_names_start_with_no_dash_now(tmp_path: Path) -> None:
    from worktree_guard.shell.state import UNLISTED
    from worktree_guard.shell.steps import glob_names_no_option, written_matches

    plain, dash = tmp_path / "plain", tmp_path / "dash"
    plain.mkdir()
    dash.mkdir()
    for name in ("a.md", "b.md"):
        (plain / name).write_text("")
    for name in ("a.md", "-t.."):
        (dash / name).write_text("")
    (plain / "sub").mkdir()
    p, d = str(plain), str(dash)

    def names_no_option(raw: str, cwd: str | None = p, written: list | None = None, **fields) -> bool:
        state = ShellState(cwd=cwd, **fields)
        state.written.extend(written or [])
        return glob_names_no_option(one_word(raw), state)

    assert names_no_option("a*") and names_no_option("/x/*") and names_no_option("x?")
    assert names_no_option("*.md") and names_no_option("?.md") and names_no_option("*.md", d)
    assert not names_no_option("*", d) and not names_no_option("?t..", d)
    assert not names_no_option("-*")  # no match: the pattern itself, which starts with `-`
    assert not names_no_option("[a]*") and not names_no_option("[!-]*")  # bash's bracket is not Python's
    for raw in ("a.md", "{a,b}*", "a*`x`", "$(x)*", "*(a)", "~/*", "$NOPE*", "\\*"):
        assert not names_no_option(raw), raw
    assert names_no_option("$D/*", variables={"D": p}) and not names_no_option("$D*", variables={"D": "-"})
    assert not names_no_option("*.md", options={"nullglob"})  # its matches are not known
    assert not names_no_option("*.md", None) and names_no_option("/x/*", None)
    assert names_no_option("X*", None)  # a known start that is no `-`, in a directory not known (phase 21)
    assert not names_no_option("{x}*")  # a `{` anywhere is not read, a static one too (cautious; phase 21)
    # what the command wrote before, which the listing read now does not hold
    assert not names_no_option("*", written=[f"{p}/-t.x"]) and names_no_option("*", written=[f"{p}/c.md"])
    assert names_no_option("*.md", written=[f"{p}/-t.x"])  # not a match
    assert names_no_option("*", written=[f"{p}/sub/-x", f"{tmp_path}/-y"])  # in other directories
    for written in ([None], [p], [str(tmp_path)], ["/"], [UNLISTED + p], [UNLISTED]):
        assert not names_no_option("*", written=written), written  # a write into the directory itself, or not known where
    # written_matches on its own
    state = ShellState(cwd=p)
    state.written.extend([f"{p}/c.md", f"{p}/x.txt", f"{p}/d.md", f"{p}/sub/e.md"])
    assert written_matches(one_word("*.md"), state) == [f"{p}/c.md", f"{p}/d.md"]
    assert written_matches(one_word(f"{p}/*.md"), ShellState(cwd=None, written=[f"{p}/c.md"])) == [f"{p}/c.md"]
    assert written_matches(one_word("*.md"), ShellState(cwd=None, written=[f"{p}/c.md"])) is None
    assert written_matches(one_word("$NOPE*"), state) is None
    assert written_matches(one_word("/*"), ShellState(cwd=p, written=["/x", "/y/z"])) == ["/x"]
    # phase 21: a write made where the names are not listed, elsewhere, and one beside the directory named `X`
    assert written_matches(one_word("*"), ShellState(cwd=p, written=[UNLISTED + "/elsewhere/x"])) == []
    assert names_no_option("*", written=[UNLISTED + f"{tmp_path}/other/x"])
    assert written_matches(one_word("*"), ShellState(cwd=p, written=[f"{tmp_path}/X"])) == []
    (tmp_path / "link").symlink_to(plain)
    assert written_matches(one_word(f"{tmp_path}/link/*"), ShellState(cwd=p, written=[f"{p}/-t"])) == [f"{p}/-t"]


def test_a_variable_after_a_step_that_assigned_names_only_known_at_run_time() -> None:
    state = ShellState(cwd="/w", variables={"A": "1"}, names_unknown=True)
    step = step_of("B=2 cmd", state)
    assert step.env("C") == (True, None) and step.named_env("C") == (False, None)
    assert step.env("A") == (True, "1") and step.named_env("A") == (True, "1")
    assert step.named_env("B") == (True, "2") and step.names("B") and step.names("A") and not step.names("C")
    known = step_of("B=2 cmd", ShellState(cwd="/w", variables={"A": "1"}))
    assert known.env("C") == (False, None) and known.named_env("C") == (False, None)
    assert known.named_env("A") == (True, "1")
    # ~ after such a step: HOME may have been assigned; one the command set is still known
    assert expand_tilde("/x", ShellState(cwd="/w", names_unknown=True), "/home/u") is None
    assert expand_tilde("/x", ShellState(cwd="/w", names_unknown=True, variables={"HOME": "/h"}), "/home/u") == "/h/x"
    assert expand_tilde("/x", ShellState(cwd="/w"), "/home/u") == "/home/u/x"


def test_variables_bash_sets_itself_are_never_the_runtimes() -> None:
    from worktree_guard.shell.steps import SET_BY_BASH, Script, inherited

    state = ShellState(cwd="/w")
    for name in sorted(SET_BY_BASH):
        assert not inherited(one_word(f'"${{{name}}}"'), state), name
    assert len(SET_BY_BASH) == 13 and {"REPLY", "MAPFILE", "OPTARG", "BASH_REMATCH", "_"} <= SET_BY_BASH
    assert inherited(one_word('"$EDITOR"'), state) and not inherited(one_word('"$EDITOR"'), ShellState(cwd="/w", names_unknown=True))
    assert Script(source="x", offset=0, cwd="/w").options == frozenset()
    assert step_of("git status").git_call is None


# -- shell/words.py: a word's static value, glob patterns, heredoc delimiters, braces, assignments ---------
# Every non-None value in WORD_VALUES was checked against real bash (`printf '%s\0' WORD` with the variables
# of LOOKUP set, U unset) when the table was written; test_words_agree_with_bash below asks bash again.

from worktree_guard.shell import words  # noqa: E402

LOOKUP = {"A": "a", "E": "", "S": "x y", "G": "*", "D": "/d", "N": None, "U": UNSET}

#: raw → (value with LOOKUP, tilde, value without a lookup)
WORD_VALUES: dict[str, tuple[str | None, bool, str | None]] = {
    "\\\n\\\n~/x": ("/x", True, "/x"), "#x": (None, False, None), "~": ("", True, ""), "~/x": ("/x", True, "/x"),
    "~u/x": ("u/x", True, "u/x"), "~'u'/x": ("~u/x", False, "~u/x"), "~\\u": ("~u", False, "~u"),
    '~"u"': ("~u", False, "~u"), "~\\\n/x": ("/x", True, "/x"), "~+": ("+", True, "+"), "~-/x": ("-/x", True, "-/x"),
    "a\\": (None, False, None), "a\\b": ("ab", False, "ab"), "a\\\nb": ("ab", False, "ab"), "'a'b": ("ab", False, "ab"),
    "'a": (None, False, None), '"a"b': ("ab", False, "ab"), '"a': (None, False, None), "$": ("$", False, "$"),
    "a$": ("a$", False, "a$"), "$/": ("$/", False, "$/"), "$%": ("$%", False, "$%"), "a$-": (None, False, None),
    "$A": ("a", False, None), "${A}": ("a", False, None), "$N": (None, False, None), "$Z": (None, False, None),
    "$S": (None, False, None), "$G": (None, False, None), "$U": (None, False, None), "${U}": (None, False, None),
    "$E": ("", False, None), "x$A$A": ("xaa", False, None), '"$A"': ("a", False, None), '"$S"': ("x y", False, None),
    '"$G"': ("*", False, None), '"$N"': (None, False, None), '"$"': ("$", False, "$"), '"a$"': ("a$", False, "a$"),
    '"$/"': ("$/", False, "$/"), '"`x`"': (None, False, None), '"\\$A"': ("$A", False, "$A"),
    '"\\a"': ("\\a", False, "\\a"), '"\\""': ('"', False, '"'), '"\\\\"': ("\\", False, "\\"),
    '"a\\\nb"': ("ab", False, "ab"), '"a\\': (None, False, None), "${A:-d}": ("a", False, None),
    "${N:-d}": (None, False, None), "${U:-d}": ("d", False, None), "${U-d}": ("d", False, None),
    "${E:-d}": ("d", False, None), "${E-d}": ("", False, None), "${U:-'q'}": ("q", False, None),
    "${U:-$A}": (None, False, None), "${U:-$N}": (None, False, None), '${U:-"d"}': ("d", False, None),
    "${A-d}": ("a", False, None), "${Z:-d}": (None, False, None), "$1": (None, False, None), "${10}": (None, False, None),
    "$#": (None, False, None), "$*": (None, False, None), "$@": (None, False, None), "*": (None, False, None),
    "a?": (None, False, None), "(x)": (None, False, None), "a<b": (None, False, None), "a|b": (None, False, None),
    "a&b": (None, False, None), "a;b": (None, False, None), "a b": (None, False, None), "[ab]": (None, False, None),
    "[": ("[", False, "["), "a[": ("a[", False, "a["), "a]": ("a]", False, "a]"), "{a,b}": (None, False, None),
    "{a..c}": (None, False, None), "{a}": ("{a}", False, "{a}"), "{}": ("{}", False, "{}"), "x{,}": (None, False, None),
    "a=~/x": (None, False, None), "a:~/x": (None, False, None), "a~": ("a~", False, "a~"), "=~": (None, False, None),
    "$'x'": ("x", False, "x"), '$"x"': (None, False, None), "a$'x'": ("ax", False, "ax"), "${#A}": (None, False, None),
    "$$": (None, False, None), "$?": (None, False, None), "$!": (None, False, None), "$(x)": (None, False, None),
    "$[1]": (None, False, None), "`x`": (None, False, None), "\"$A\"b'$A'": ("ab$A", False, None),
    "'a'\"b\"\\c": ("abc", False, "abc"), '"${A}"': ("a", False, None), '"${A:-d}"': ("a", False, None),
    '"${U:-d}"': ("d", False, None), '"$1"': (None, False, None), '"$S"x': ("x yx", False, None),
}


def test_word_values() -> None:
    for raw, (value, tilde, plain) in WORD_VALUES.items():
        assert words.word_value(raw, LOOKUP.get) == (value, tilde), raw
        assert words.word_value(raw) == (plain, tilde), raw


def test_words_agree_with_bash(tmp_path: Path) -> None:
    import subprocess

    for raw, (value, tilde, _) in WORD_VALUES.items():
        if value is None or tilde:
            continue
        done = subprocess.run(["bash", "-c", "A=a; E=; S='x y'; G='*'; unset U; printf '%s\\0' " + raw],
                              capture_output=True, text=True, cwd=tmp_path, check=True)
        assert done.stdout.split("\0")[:-1] == [value], raw


def test_glob_patterns() -> None:
    table = {"*.py": "*.py", "~/*.py": None, "plain": None, "a\\*b?": "a[*]b?", "'*'x*": "[*]x*", '"a*"?': "a[*]?",
             "[ab]c": "[ab]c", "[a": "[[]a", "d/$A*": "d/a*", "d/$Z*": None, "x[*]y*": "x[*]y*", "a b*": None,
             "{a,b}*": None, "$D/*": "/d/*", "a?[": "a?[[]", "\\?": "[?]", "[x]?": "[x]?"}
    for raw, pattern in table.items():
        assert words.glob_pattern(raw, LOOKUP.get) == pattern, raw
    assert words.glob_pattern("$A*") is None


def test_glob_syntax_and_its_escapes() -> None:
    table = {"[*]": False, "[?]x": False, "[[]": False, "a[*]b*": True, "[ab]": True, "x?": True, "[*": True, "ab": False,
             "[a]": True, "[*]*": True, "": False, "a[": True, "[?": True, "x[[]y": False, "[*]?": True, "*": True}
    for pattern, glob in table.items():
        assert words.has_glob_syntax(pattern) is glob, pattern
    assert words.unescape_glob("[*]a[?][[]") == "*a?["
    assert words.unescape_glob("[a]") == "[a]"


def test_heredoc_delimiters() -> None:
    table = {"EOF": ("EOF", False), "'EOF'": ("EOF", True), '"EOF"': ("EOF", True), "\\EOF": ("EOF", True),
             "E\\": ("E", True), "$'x'": None, '$"x"': None, "'E": None, '"E': None, '"a\\"b\\$c\\d"': ('a"b$c\\d', True),
             "a$b": ("a$b", False), "E'O'F": ("EOF", True), '""': ("", True), "E$": ("E$", False), "a\\bc": ("abc", True),
             '"a\\\\b"': ("a\\b", True), '"\\`"': ("`", True), '"a"b': ("ab", True)}
    for raw, result in table.items():
        assert words.remove_quotes(raw) == result, raw


def test_static_prefixes() -> None:
    table = [("/repo/src/$f", None, "/repo/src/"), ('"$d"/x', None, None), ("~/x/$y", None, None), ("/a/*.py", None, "/a/"),
             ("/a/b\\$c/$d", None, "/a/b$c/"), ("'/a b'/c/$x", None, "/a b/c/"), ("'/a/b$x", None, None),
             ("/a/b/c", 5, "/a/b/"), ("/a/b/c", None, "/a/b/c"), ("$x", None, None), ("a/{b,c}", None, "a/"),
             ("/a/`x`", None, "/a/"), ("/x?", None, "/x"), ("/x[", None, "/x"), ('"/a/b/c$x', None, None),
             ("/a/'b/c$x", None, "/a/"), ("$A/b/$x", None, "a/b/"), ("/a/\"b/c\"/$x", None, "/a/b/c/"), ("", None, None)]
    for raw, end, prefix in table:
        assert words.static_prefix(raw, LOOKUP.get, end) == prefix, raw


def test_brace_fields() -> None:
    table = {
        "{a,b}.txt": ["a.txt", "b.txt"], "x": None, "{a}": None, "'{a,b}'": None, "\\{a,b}": None,
        "{a,b}\\ c": ["a\\ c", "b\\ c"], "{'a,b',c}": ["'a,b'", "c"], '"{a,b}"{c,d}': ['"{a,b}"c', '"{a,b}"d'],
        "`{a,b}`{c,d}": ["`{a,b}`c", "`{a,b}`d"], "$(echo {a,b}){c,d}": ["$(echo {a,b})c", "$(echo {a,b})d"],
        "${x}{c,d}": ["${x}c", "${x}d"], "$'{a,b}'{c,d}": ["$'{a,b}'c", "$'{a,b}'d"],
        '$"{a,b}"{c,d}': ['$"{a,b}"c', '$"{a,b}"d'], "'x{a,b}": None, '"{a,b}': None, "$({a,b}": None,
        "{1..3}": ["1", "2", "3"], "{1..300}": None, "{1..256}": [str(i) for i in range(1, 257)], "{1..257}": None,
        "HEAD@{1}": None, "{a,b}{c,d}": ["ac", "ad", "bc", "bd"], "$x{a,b}": ["$xa", "$xb"], "a\\": None,
        "$(a (b) {c,d})x{e,f}": ["$(a (b) {c,d})xe", "$(a (b) {c,d})xf"],
        '$(echo ")"){a,b}': ['$(echo ")")a', '$(echo ")")b'], "$(echo ')'){a,b}": ["$(echo ')')a", "$(echo ')')b"],
        "$(echo \\)){a,b}": ["$(echo \\))a", "$(echo \\))b"], '$(a "b){x,y}': None, "$(a 'b){x,y}": None,
        '${a:-"}"}{x,y}': ['${a:-"}"}x', '${a:-"}"}y'], '$"a\\"b"{x,y}': ['$"a\\"b"x', '$"a\\"b"y'],
        "$'a\\'b'{x,y}": ["$'a\\'b'x", "$'a\\'b'y"], '"a\\"b"{x,y}': ['"a\\"b"x', '"a\\"b"y'], "`x{a,b}": None,
        "$'x{a,b}": None, "${x{a,b}": None, "a$": None, "a${": None, "$x{": None, "\\\\{a,b}": ["\\\\a", "\\\\b"],
    }
    for raw, fields in table.items():
        assert words.brace_fields(raw) == fields, raw


def test_assigned_by_expansion() -> None:
    table = [("${X:=d}", False, {"X"}), ("${X=d}", False, {"X"}), ("${X[1]:=d}", False, {"X"}), ("${X:-d}", False, set()),
             ("$((X=1))", False, {"X"}), ("$((X+=1, Y++))", False, {"X", "Y"}), ("a[X++]", False, {"X"}),
             ("$((--Z))", False, {"Z"}), ("$((a==b))", False, set()), ("X=1", True, {"X"}), ("X<<=1", True, {"X"}),
             ("X**=2", True, {"X"}), ("X = 1", True, {"X"}), ("X==1", True, set()), ("x", True, set()),
             ("$[Q=1]", False, {"Q"}), ("((R--))", False, {"R"}), ("a[i]=3", True, {"a"}), ("X>=1", True, set()),
             ("X!=1", True, set()), ("X=1", False, set()), ("${A}${B:=1}$((C=2))", False, {"B", "C"}),
             ("$((X\n=1))", False, {"X"}), ("X>>=1 Y^=2", True, {"X", "Y"})]
    for raw, arithmetic, names in table:
        assert words.assigned_by_expansion(raw, arithmetic) == names, raw


def test_merge_joins_sets_that_differ_both_ways_and_keeps_the_same_call() -> None:
    words = ["p"]
    state = ShellState(cwd="/w", exported={"A", "C"}, unset={"U", "V"}, options={"x", "z"}, readonly={"R", "Q"},
                       transformed={"T", "Y"}, positional=words)
    other = ShellState(cwd="/w", exported={"A", "B"}, unset={"U", "W"}, options={"x", "y"}, readonly={"R", "S"},
                       transformed={"T", "X"}, positional=words)
    state.merge([other])
    assert state.exported == {"A", "B", "C"}
    assert state.unset == {"U"}
    assert state.options == {"x", "y", "z"}
    assert state.readonly == {"Q", "R", "S"}
    assert state.transformed == {"T", "X", "Y"}
    assert state.positional is words


# -- shell/written.py: what a command or a redirection writes --------------------------------------------
# Each row: (value or "CWD", cwd, kind, recursive, prefix, follows_links, how, as written), in a cwd {W} that
# holds `dir/` and `d/a.py`, `d/b.py`.

from worktree_guard.shell.programs import BUILTIN_READERS, BUILTIN_WRITERS, CWD  # noqa: E402
from worktree_guard.shell.written import ProgramTables, Written, command_writes, path_candidates, redirect_writes  # noqa: E402

COMMAND_WRITES: dict[str, list[tuple]] = {
    'cp a b': [('b', '{W}', 'write', False, None, False, '`cp` (operand)', 'b')],
    'cp -t d a b': [('d', '{W}', 'write', False, None, False, '`cp` (-t)', 'd')],
    'ln -s a b': [('b', '{W}', 'write', False, None, False, '`ln` (operand)', 'b'), ('a', '{W}/.', 'link', False, None, False, '`ln` (a link to it)', 'a')],
    'ln -s a dir': [('dir', '{W}', 'write', False, None, False, '`ln` (operand)', 'dir'), ('a', '{W}/dir', 'link', False, None, False, '`ln` (a link to it)', 'a')],
    'ln -s a dir/': [('dir/', '{W}', 'write', False, None, False, '`ln` (operand)', 'dir/'), ('a', '{W}/dir/', 'link', False, None, False, '`ln` (a link to it)', 'a')],
    'ln -s a x/l': [('x/l', '{W}', 'write', False, None, False, '`ln` (operand)', 'x/l'), ('a', '{W}/x', 'link', False, None, False, '`ln` (a link to it)', 'a')],
    'ln -s a': [('CWD', '{W}', 'write', False, None, False, '`ln` writing into the current directory', 'a'), ('a', '{W}/.', 'link', False, None, False, '`ln` (a link to it)', 'a')],
    'ln -sr a x/l': [('x/l', '{W}', 'write', False, None, False, '`ln` (operand)', 'x/l'), ('a', '{W}', 'link', False, None, False, '`ln` (a link to it)', 'a')],
    'ln -s -t /t a': [('/t', '{W}', 'write', False, None, False, '`ln` (-t)', '/t'), ('a', '/t', 'link', False, None, False, '`ln` (a link to it)', 'a')],
    'ln -s a $X': [(None, '{W}', 'write', False, None, False, '`ln` (operand)', '$X'), ('a', None, 'link', False, None, False, '`ln` (a link to it)', 'a')],
    'ln a b': [('b', '{W}', 'write', False, None, False, '`ln` (operand)', 'b'), ('a', '{W}', 'link', False, None, False, '`ln` (a link to it)', 'a')],
    'rm -r d': [('d', '{W}', 'write', True, None, False, '`rm` (operand)', 'd')],
    'touch $X/f': [(None, '{W}', 'write', False, None, False, '`touch` (operand)', '$X/f')],
    'touch /r/s/$X': [(None, '{W}', 'write', False, '/r/s', False, '`touch` (operand)', '/r/s/$X')],
    'touch -$X': [(None, '{W}', 'write', False, None, False, '`touch` (operand)', '-$X')],
    'mytool --out=/x a k=v -o/abs -': [('/x', '{W}', 'operand', False, None, False, '`mytool`', '--out=/x'), ('a', '{W}', 'operand', False, None, False, '`mytool`', 'a'), ('k=v', '{W}', 'operand', False, None, False, '`mytool`', 'k=v'), ('v', '{W}', 'operand', False, None, False, '`mytool`', 'k=v'), ('/abs', '{W}', 'operand', False, None, False, '`mytool`', '-o/abs')],
    '/tmp/head f': [('f', '{W}', 'operand', False, None, False, '`/tmp/head`', 'f')],
    '/usr/bin/touch f': [('f', '{W}', 'write', False, None, False, '`touch` (operand)', 'f')],
    'cat f': [],
    'sort -o out in': [('out', '{W}', 'write', False, None, False, '`sort` (-o)', 'out')],
    'sed -i s/a/b/ f': [('f', '{W}', 'write', False, None, False, '`sed` (operand)', 'f')],
    "sed 's/x/y/w out' f": [('out', '{W}', 'write', False, None, False, "`sed` (its script's `w out`)", 'out')],
    'touch -': [],
    'cp a -': [('-', '{W}', 'write', False, None, False, '`cp` (operand)', '-')],  # a file named `-` (phase 23, m38c)
    'tar -xf a.tgz': [('CWD', '{W}', 'write', True, None, True, '`tar` writing extract into the current directory', '.')],
    'git status': [('status', '{W}', 'operand', False, None, False, '`git`', 'status')],
    '$X f': [],
    'mkdir -p a/b': [('a/b', '{W}', 'write', False, None, False, '`mkdir` (operand)', 'a/b')],
    'touch d/*.py': [('{W}/d/a.py', '{W}', 'write', False, None, False, '`touch` (operand)', 'd/*.py'), ('{W}/d/b.py', '{W}', 'write', False, None, False, '`touch` (operand)', 'd/*.py')],
}
REDIRECT_WRITES: dict[str, list[tuple]] = {
    'echo > f': [('f', '{W}', 'write', False, None, False, 'the redirection `>`', 'f')],
    'echo >> f': [('f', '{W}', 'write', False, None, False, 'the redirection `>>`', 'f')],
    'echo 2>&1': [],
    'echo >&-': [],
    'echo >& f': [('f', '{W}', 'write', False, None, False, 'the redirection `>&`', 'f')],
    'echo >&2': [],
    'echo < f': [],
    'echo <> f': [('f', '{W}', 'write', False, None, False, 'the redirection `<>`', 'f')],
    'echo &> f': [('f', '{W}', 'write', False, None, False, 'the redirection `&>`', 'f')],
    'echo >| f': [('f', '{W}', 'write', False, None, False, 'the redirection `>|`', 'f')],
    'echo > $X/f': [(None, '{W}', 'write', False, None, False, 'the redirection `>`', '$X/f')],
    'echo > d/*.py': [(None, '{W}', 'write', False, 'd', False, 'the redirection `>`', 'd/*.py')],
    'echo > d/a*': [('{W}/d/a.py', '{W}', 'write', False, None, False, 'the redirection `>`', 'd/a*')],
    'cat <<EOF\nx\nEOF': [],
    'echo >& $X': [(None, '{W}', 'write', False, None, False, 'the redirection `>&`', '$X')],
    'echo > -x': [('-x', '{W}', 'write', False, None, False, 'the redirection `>`', '-x')],
    'echo &>> f': [('f', '{W}', 'write', False, None, False, 'the redirection `&>>`', 'f')],
}


def written_rows(records: list[Written], cwd: str) -> list[tuple]:
    def rel(x):
        return x.replace(cwd, "{W}") if isinstance(x, str) else x

    return [tuple(rel(x) for x in ("CWD" if r.value == CWD else r.value, r.cwd, r.kind, r.recursive, r.prefix, r.follows_links, r.how, r.written))
            for r in records]


def written_dir(tmp_path: Path) -> str:
    (tmp_path / "dir").mkdir()
    make_dir(tmp_path / "d", ["a.py", "b.py"])
    return str(tmp_path)


def test_command_writes(tmp_path: Path) -> None:
    cwd = written_dir(tmp_path)
    tables = ProgramTables(writers=dict(BUILTIN_WRITERS), readers=dict(BUILTIN_READERS))
    for source, rows in COMMAND_WRITES.items():
        node = parse(source).body[0]
        step = ShellCommand(node=node, words=node.words, assignments=[], cwd=cwd, state=ShellState(cwd=cwd), home="/h")
        assert written_rows(command_writes(step, tables), cwd) == rows, source


def test_redirect_writes(tmp_path: Path) -> None:
    cwd = written_dir(tmp_path)
    for source, rows in REDIRECT_WRITES.items():
        node = parse(source).body[0]
        redirect = ShellRedirect(redirect=node.redirects[0], cwd=cwd, state=ShellState(cwd=cwd), home="/h")
        assert written_rows(redirect_writes(redirect), cwd) == rows, source


def test_path_candidates() -> None:
    table = {"": [], "-": [], "-x": [], "--a=b": ["b"], "--a=": [], "-o/x": ["/x"], "-o../x": ["../x"], "-oa/b": ["a/b", "/b"], "-qE/x": ["E/x", "/x"], "-qE~/x": ["E~/x", "~/x", "./~/x"],
             "-ox": [], "-o.": ["."], "-o~": ["~", "./~"], "--o/x": [], "k=v": ["k=v", "v"], "k=": ["k="], "=v": ["=v", "v"],
             "a.b-c_d=v": ["a.b-c_d=v", "v"], "k!=v": ["k!=v", "v"], "a/b=c": ["a/b=c", "c"], "x": ["x"], "-I=sub": ["sub"], "-o": []}
    for value, candidates in table.items():
        assert path_candidates(value) == candidates, value


def test_a_written_records_text() -> None:
    assert Written(word=None, value=CWD, cwd="/w", how="h").written == "."
    assert Written(word=None, value="/x", cwd="/w", how="h").written == "/x"
    assert Written(word=None, value=None, cwd="/w", how="h").written == "None"
    record = Written(word=one_word("'a b'"), value="a b", cwd="/w", how="h")
    assert record.written == "'a b'"
    assert (record.recursive, record.kind, record.prefix, record.follows_links) == (False, "write", None, False)


# -- a cd or pushd whose operand bash reads as an option ---------------------------------------------------
# Found by reading shell/builtins.py for its mutants: `cd -x .` was taken for a move into W/-x, but bash refuses
# the option (exit 2) and stays; `pushd -` goes to OLDPWD. The later `rm -rf ../x` was judged from W/-x
# (inside W) and passed, while bash ran it in W: it removed the sibling `../x`. Another shell may take the
# option (zsh's `cd -s DIR` moves), so where the builtin goes is not known: WG202, and the cwd after it is unknown.

from tests.helpers import Repo, subagent_payload  # noqa: E402


def judge_bash(repo: Repo, command: str):
    from worktree_guard.engine import build_context, decide
    from worktree_guard.plugins import plugin_manager
    from worktree_guard.runtimes.claude_code import to_tool_call

    call = to_tool_call(subagent_payload(repo, "Bash", {"command": command}))
    return decide(call, build_context(call, pm=plugin_manager()))


@pytest.mark.parametrize("command", ["cd -x .", "cd -Lx .", "cd -x", "pushd -x .", "pushd +x", "pushd -", "pushd +"])
def test_a_directory_builtin_given_an_option_it_does_not_take_goes_somewhere_unknown(repo: Repo, command: str) -> None:
    import subprocess

    real = subprocess.run(["bash", "-c", command + " >/dev/null; pwd -P"], cwd=repo.worktree, capture_output=True,
                          text=True, env={"PATH": os.environ["PATH"], "OLDPWD": str(repo.main)})
    # bash stays in W (it refuses the option), or `pushd -` goes to OLDPWD: never into a directory named `-x`
    assert real.stdout.splitlines()[-1] == str(repo.main if command == "pushd -" else repo.worktree)
    verdict = judge_bash(repo, command + "; rm -rf ../x")
    assert verdict.codes == ["WG202", "WG403"]  # the rm is judged from an unknown cwd, not from W/-x
    assert judge_bash(repo, command).codes == ["WG202"]


@pytest.mark.parametrize("command", ["cd -- -x", "cd -L -- -x", "pushd -- -x"])
def test_after_double_dash_a_leading_dash_is_a_directory_name(repo: Repo, command: str) -> None:
    assert judge_bash(repo, command).decision == "pass"


# -- shell/builtins.py: what builtins do to the state ---------------------------------------------------
# Each row: the fields of a ShellState(cwd="/w") (home /h) that differ from a fresh one after the commands.

from worktree_guard.shell import ast as shell_ast  # noqa: E402
from worktree_guard.shell.builtins import apply_builtin, directory_change, set_options, shopt_options  # noqa: E402

BUILTIN_STATES: dict[str, dict] = {
    'cd /tmp': {'cwd': '/tmp', 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/tmp'}},
    'cd': {'cwd': '/h', 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/h'}, 'cd_may_fail': True},
    'cd -P /tmp': {'cwd': '/tmp', 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/tmp'}},
    "cd ''": {},
    'cd -': {'cwd': None, 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': None}},
    'X=1; cd $X': {'cwd': '/w/1', 'oldpwd': '/w', 'variables': {'X': '1', 'OLDPWD': '/w', 'PWD': '/w/1'}, 'cd_may_fail': True},
    'cd -L -- /tmp': {'cwd': '/tmp', 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/tmp'}},
    'cd -x /tmp': {'cwd': None, 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': None}},
    'cd -- -x': {'cwd': '/w/-x', 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/w/-x'}, 'cd_may_fail': True},
    'pushd /tmp': {'cwd': '/tmp', 'oldpwd': '/w', 'dirstack': ['/w'], 'variables': {'OLDPWD': '/w', 'PWD': '/tmp'}},
    'pushd -n /tmp': {'dirstack': [None]},
    'pushd': {'cwd': None, 'oldpwd': '/w', 'dirstack': ['/w'], 'variables': {'OLDPWD': '/w', 'PWD': None}},
    'popd': {'cwd': None, 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': None}},
    'popd -n': {'dirstack': [None]},
    'popd +1': {'cwd': None, 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': None}},
    'pushd +1': {'cwd': None, 'oldpwd': '/w', 'dirstack': ['/w'], 'variables': {'OLDPWD': '/w', 'PWD': None}},
    'pushd -- -x': {'cwd': '/w/-x', 'oldpwd': '/w', 'dirstack': ['/w'], 'variables': {'OLDPWD': '/w', 'PWD': '/w/-x'}, 'cd_may_fail': True},
    'pushd /tmp; pushd /usr; popd': {'cwd': '/tmp', 'oldpwd': '/usr', 'dirstack': ['/w'], 'variables': {'OLDPWD': '/usr', 'PWD': '/tmp'}},
    'pushd /tmp; pushd': {'oldpwd': '/tmp', 'dirstack': ['/tmp', '/w'], 'variables': {'OLDPWD': '/tmp', 'PWD': '/w'}, 'cd_may_fail': True},
    'pushd /tmp; popd; popd': {'cwd': None, 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': None}},
    'A=1 B+=2': {'variables': {'A': '1', 'B': None}},
    'A=x; A+=y': {'variables': {'A': 'xy'}},
    'export A=1 B': {'variables': {'A': '1'}, 'exported': {'A', 'B'}},
    'declare -n r=X': {'variables': {'r': None}, 'namerefs': {'r': 'X'}},
    'declare -n r=$v': {'variables': {'r': None}, 'namerefs': {'r': None}},
    'declare -n r': {'variables': {'r': None}, 'namerefs': {'r': None}},
    'declare -r R=1; R=2': {'variables': {'R': '1'}, 'readonly': {'R'}},
    'local X=1': {},
    'declare -i I=1': {'variables': {'I': None}, 'transformed': {'I'}},
    'declare -l L=A': {'variables': {'L': None}, 'transformed': {'L'}},
    'declare -u U=a': {'variables': {'U': None}, 'transformed': {'U'}},
    'readonly Q=1': {'variables': {'Q': '1'}, 'readonly': {'Q'}},
    'declare -x E=1': {'variables': {'E': '1'}, 'exported': {'E'}},
    'declare -p X': {},
    'declare -f': {},
    'declare -F': {},
    'declare $o x=1': {'variables': {'x': None, 'IFS': None}, 'namerefs': {'x': None}, 'names_unknown': True, 'dirstack': [None]},  # $o may be a name (IFS, DIRSTACK: review 32a)
    'declare -- -x=1': {},
    'declare +x E=1': {'variables': {'E': '1'}},
    'declare 1x=2': {},
    'declare a[1]=2': {'variables': {'a[1]': None}, 'namerefs': {'a[1]': None}},
    'export A+=b': {'variables': {'A': None}, 'exported': {'A'}},
    'A=a; export A+=b': {'variables': {'A': 'ab'}, 'exported': {'A'}},
    'typeset T=1': {'variables': {'T': '1'}},
    'unset A': {'unset': {'A'}},
    'A=1; unset A': {'unset': {'A'}},
    'unset -f f': {},
    'unset -v A': {'unset': {'A'}},
    'unset $X': {'cwd': None, 'dirstack': [None], 'variables': {'IFS': None}, 'names_unknown': True},  # a name only known at run time may be IFS (stop 25)
    "unset 'A[1]'": {'variables': {'A': None}},
    'unset DIRSTACK': {'dirstack': [None], 'unset': {'DIRSTACK'}},
    'unset -- A': {'unset': {'A'}},
    'declare -r R; unset R': {'readonly': {'R'}},
    'declare -n r=X; unset r': {'variables': {'r': None, 'X': None}, 'namerefs': {'r': 'X'}},
    'declare -n r=X; unset -n r': {'unset': {'r'}},
    'unset -fv A': {},
    'read A B': {'variables': {'A': None, 'B': None}},
    'read -r A': {'variables': {'A': None}},
    'mapfile L': {'variables': {'L': None}},
    'readarray L': {'variables': {'L': None}},
    'getopts o V': {'variables': {'o': None, 'V': None}},
    "read 'a[1]'": {'variables': {'a': None}},
    'read 1x': {'variables': {'1x': None}},
    'read a-b': {},
    'printf -v P x': {'variables': {'P': None, 'x': None}},
    'printf P x': {},
    'source f': {'cwd': None, 'dirstack': [None], 'variables': {'IFS': None}, 'names_unknown': True},  # a name only known at run time may be IFS (stop 25)
    '. f': {'cwd': None, 'dirstack': [None], 'variables': {'IFS': None}, 'names_unknown': True},  # a name only known at run time may be IFS (stop 25)
    'shopt -s lastpipe': {'lastpipe': True},
    'shopt -u lastpipe': {},
    # bash's shopt takes its options first: `-s` after a name is a name (bash 5.2: "-s: invalid shell option name")
    'shopt lastpipe -s': {},
    'shopt -qs lastpipe': {'lastpipe': True},
    'shopt -s -- lastpipe': {'lastpipe': True},
    'shopt -s lastpipe; shopt -u lastpipe': {},
    'shopt -s dotglob nullglob': {'options': {'nullglob', 'dotglob'}},
    'shopt -s autocd cdspell dirspell direxpand expand_aliases failglob globstar nocaseglob extglob globasciiranges cdable_vars': {'options': {'extglob', 'globstar', 'direxpand', 'expand_aliases', 'globasciiranges', 'nocaseglob', 'dirspell', 'cdspell', 'failglob', 'cdable_vars', 'autocd'}},
    'shopt -u globskipdots': {'options': {'globskipdots'}},
    'shopt -u dotglob': {},
    'shopt -s globskipdots': {},
    'shopt -os noglob': {'options': {'*'}},  # -os is -o -s: `set -o noglob` (was read as no option: review 23b)
    'shopt -ou noglob': {'options': {'*'}},  # `set +o noglob`: any `set -o` option, not followed
    'shopt -o noglob': {},
    'shopt': {},
    'shopt -s $x': {'lastpipe': None, 'options': {'*'}},
    'shopt -p': {},
    'set -f': {'options': {'noglob'}},
    'set -k': {'options': {'keyword'}},
    'set -fk': {'options': {'keyword', 'noglob'}},
    'set -o noglob': {'options': {'noglob'}},
    'set -o keyword': {'options': {'keyword'}},
    'set -o errexit': {},
    'set +o braceexpand': {'options': {'+braceexpand'}},
    'set +o noglob': {},
    'set -o braceexpand': {},
    'set +B': {'options': {'+braceexpand'}},
    'set +eB': {'options': {'+braceexpand'}},
    'set -B': {},
    'set -- a': {},
    'set x': {},
    'set -e': {},
    'set -o': {},
    'set -o $x': {'options': {'*'}},
    'set $x': {'options': {'*'}},
    'set - -f': {},
    'set -- -f': {},
    'set +f -k': {'options': {'keyword'}},
    'set -e x -f': {},
    'shift': {},
    'hash -p /bin/rm git': {'hashed': {'git': '/bin/rm'}},
    'hash -p/bin/rm git': {'hashed': {'git': '/bin/rm'}},
    'hash -p /bin/rm git ls': {'hashed': {'git': '/bin/rm', 'ls': '/bin/rm'}},
    'hash -r': {},
    'hash -p /x git; hash -r': {},
    'hash -p /x git; hash -d git': {},
    'hash -p /x git; hash -d ls': {'hashed': {'git': '/x'}},
    'hash $x': {'hashed': {'*': None}},
    'hash -d $x': {'hashed': {'*': None}},
    'hash -p /x $n': {'hashed': {'*': None}},
    'hash -- git': {},
    'hash git': {},
    'hash -p': {},
    'hash -tp /x git': {'hashed': {'git': '/x'}},
    'hash -p /x -- git': {'hashed': {'git': '/x'}},
    'hash - git': {},
    '$c x': {'cwd': None, 'dirstack': [None], 'variables': {'IFS': None}, 'names_unknown': True},  # a name only known at run time may be IFS (stop 25)
    '/bin/cd /tmp': {},
    'cd /tmp/../usr': {'cwd': '/usr', 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/usr'}},
    'cd rel': {'cwd': '/w/rel', 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/w/rel'}, 'cd_may_fail': True},
    'CDPATH=/x cd rel': {'cwd': None, 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': None}},
    'CDPATH=/x cd ./rel': {'cwd': '/w/rel', 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/w/rel'}, 'cd_may_fail': True},
    'CDPATH=/x cd ../rel': {'cwd': '/rel', 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/rel'}, 'cd_may_fail': True},
    'CDPATH=/x cd .': {'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/w'}, 'cd_may_fail': True},
    'CDPATH=/x cd ..': {'cwd': '/', 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/'}, 'cd_may_fail': True},
    'CDPATH= cd rel': {'cwd': '/w/rel', 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/w/rel'}, 'cd_may_fail': True},
    'CDPATH=/x; cd rel': {'cwd': None, 'oldpwd': '/w', 'variables': {'CDPATH': '/x', 'OLDPWD': '/w', 'PWD': None}},
    'shopt -s cdable_vars; cd rel': {'cwd': None, 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': None}, 'options': {'cdable_vars'}},
    'shopt -s cdable_vars; cd /tmp': {'cwd': '/tmp', 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/tmp'}, 'options': {'cdable_vars'}},
    'cd $X': {'cwd': None, 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': None}},
    'HOME=/hh; cd': {'cwd': '/hh', 'oldpwd': '/w', 'variables': {'HOME': '/hh', 'OLDPWD': '/w', 'PWD': '/hh'}, 'cd_may_fail': True},
    'cd ~': {'cwd': '/h', 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/h'}, 'cd_may_fail': True},
    'cd -P': {'cwd': '/h', 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/h'}, 'cd_may_fail': True},
    'cd -e': {'cwd': '/h', 'oldpwd': '/w', 'variables': {'OLDPWD': '/w', 'PWD': '/h'}, 'cd_may_fail': True},
}


def commands_of(source: str) -> list[Command]:
    body = parse(source).body
    nodes = body[0].parts if len(body) == 1 and isinstance(body[0], shell_ast.Sequence) else body
    assert all(isinstance(n, Command) for n in nodes)
    return nodes  # type: ignore[return-value]


def after_builtins(source: str, state: ShellState | None = None) -> ShellState:
    state = state or ShellState(cwd="/w")
    for node in commands_of(source):
        apply_builtin(ShellCommand(node=node, words=node.words, assignments=list(node.assignments), cwd=state.cwd, state=state, home="/h"))
    return state


def changed_fields(state: ShellState) -> dict:
    fresh = ShellState(cwd="/w")
    return {n: getattr(state, n) for n in ShellState.__slots__ if n != "globs" and getattr(state, n) != getattr(fresh, n)}


def test_builtin_states() -> None:
    for source, fields in BUILTIN_STATES.items():
        assert changed_fields(after_builtins(source)) == fields, source


def test_local_and_unset_inside_a_function() -> None:
    state = ShellState(cwd="/w", variables={"X": "out", "K": "k"}, readonly={"K"}, local_frames=[set(), set()])
    after_builtins("local X; local Y=1; local K; declare -g G=1; declare D=1; typeset T; local -n R=Y; local -p", state)
    assert state.local_frames == [set(), {"X", "Y", "K", "D", "T", "R"}]
    assert state.variables == {"K": "k", "Y": "1", "G": "1", "D": "1", "R": None}
    assert state.unset == {"X", "T"} and state.namerefs == {"R": "Y"}
    outer = ShellState(cwd="/w", variables={"A": "a", "B": "b", "C": "c"}, local_frames=[{"A"}, {"B"}])
    after_builtins("unset A B C", outer)
    assert outer.variables == {"A": None} and outer.unset == {"B", "C"}
    top = ShellState(cwd="/w", variables={"A": "a"}, local_frames=[{"A"}])
    after_builtins("unset A", top)
    assert top.variables == {} and top.unset == {"A"}


def test_unset_removes_a_function_only_without_a_variable() -> None:
    f = object()
    state = ShellState(cwd="/w", variables={"v": "1", "n": None}, functions={"f": f, "v": f, "n": f, "g": f, "h": f}, exported={"v"})
    after_builtins("unset f v n; unset -v g; unset -f h", state)
    assert state.functions == {"v": f, "g": f}
    assert state.variables == {} and state.exported == set() and state.unset == {"f", "v", "n", "g"}


def test_directory_changes() -> None:
    def change(source: str, **kwargs):
        node = commands_of(source)[0]
        state = ShellState(cwd=kwargs.pop("cwd", "/w"), **kwargs)
        return directory_change(ShellCommand(node=node, words=node.words, assignments=list(node.assignments), cwd=state.cwd, state=state, home="/h"))

    assert change("ls /tmp") is None
    assert change("/bin/cd /tmp") is None
    moved = change("cd -P /tmp/../usr")
    assert (moved.written, moved.physical, moved.logical, moved.reason, moved.moves, moved.static) == ("/tmp/../usr", "/usr", "/usr", "", True, True)
    assert moved.word is not None and moved.word.raw == "/tmp/../usr"
    home = change("cd")
    assert (home.word, home.written, home.physical) == (None, "~", "/h")
    assert change("cd", variables={"HOME": "/H"}).physical == "/H"
    back = change("cd -", oldpwd="/o")
    assert (back.written, back.physical, back.logical) == ("-", "/o", "/o")
    unknown = change("cd -")
    assert (unknown.physical, unknown.static, unknown.reason) == (None, False, "`cd -` goes to OLDPWD, which is not known here")
    assert change("cd $X").reason == "the target '$X' is only known at run time"
    assert change("cd -x d").reason == "bash's cd takes no option '-x', another shell may"
    assert (change("cd ''").moves, change("cd ''").written) == (False, "")
    assert change("cd rel", cwd=None).reason == "the directory it is relative to is not known"
    assert change("cd /abs", cwd=None).physical == "/abs"
    assert change("CDPATH=/x cd rel").reason == "CDPATH is set, so the target depends on it (`cd ./rel` does not read it)"
    assert change("cd rel", options={"cdspell", "autocd"}).reason == "the shell option autocd set earlier may send it elsewhere"
    assert change("pushd").reason == "`pushd` swaps with a stack entry that is not known here"
    top = change("pushd", dirstack=["/s"])
    assert (top.written, top.physical, top.word) == ("pushd", "/s", None)
    assert change("pushd", dirstack=[None]).physical is None
    quiet = change("pushd -n /tmp")
    assert (quiet.moves, quiet.word.raw, quiet.written) == (False, "/tmp", None)
    assert change("pushd -n").word is None
    assert change("pushd +1").reason == "the target '+1' is only known at run time"
    assert change("popd").reason == "`popd` returns to a directory stack entry that is not known here"
    assert change("popd +1").reason == "`popd ±N` picks a stack entry not known here"
    assert change("popd +1").word.raw == "+1"
    popped = change("popd", dirstack=["/s", "/t"])
    assert (popped.written, popped.physical) == ("popd", "/s")
    assert change("popd -n").moves is False


def test_cd_is_logical_and_physical(tmp_path: Path) -> None:
    (tmp_path / "real" / "sub").mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "real" / "sub")
    node = commands_of("cd link/..")[0]
    state = ShellState(cwd=str(tmp_path))
    step = ShellCommand(node=node, words=node.words, assignments=[], cwd=state.cwd, state=state, home="/h")
    change = directory_change(step)
    assert (change.physical, change.logical) == (str(tmp_path), str(tmp_path))  # bash goes where link is
    node = commands_of("cd -P link/..")[0]
    change = directory_change(ShellCommand(node=node, words=node.words, assignments=[], cwd=state.cwd, state=state, home="/h"))
    assert (change.physical, change.logical) == (str(tmp_path / "real"), str(tmp_path / "real"))
    node = commands_of("cd -L link/..")[0]
    change = directory_change(ShellCommand(node=node, words=node.words, assignments=[], cwd=state.cwd, state=state, home="/h"))
    assert change.logical == str(tmp_path)


def test_shopt_and_set_option_readers() -> None:
    assert shopt_options(["shopt", None]) == {"*"}
    assert shopt_options(["shopt", "-s", "-o", "x"]) == {"*"}
    assert shopt_options(["shopt", "-o", "-u", "x"]) == {"*"}
    assert shopt_options(["shopt", "-o", "x"]) == set()
    assert shopt_options(["shopt", "-s", "dotglob", "lastpipe", ""]) == {"dotglob"}
    assert shopt_options(["shopt", "-u", "globskipdots", "dotglob"]) == {"globskipdots"}
    assert set_options(["set", "-o"]) == set()
    assert set_options(["set", "-o", None]) == {"*"}
    assert set_options(["set", "+o", "braceexpand", "-f"]) == {"+braceexpand", "noglob"}
    assert set_options(["set", "-o", "noglob", "-o", "keyword"]) == {"noglob", "keyword"}
    assert set_options(["set", "+o", "noglob"]) == set()
    assert set_options(["set", "-", "-f"]) == set()
    assert set_options(["set", "-fx"]) == {"noglob"}
    assert set_options(["set", "+xB"]) == {"+braceexpand"}
    assert set_options(["set", "+f"]) == set()


def test_positional_parameters_are_forgotten() -> None:
    for source in ("shift", "set -- a", "set x", "set $x", "source f a", ". f"):
        state = ShellState(cwd="/w", variables={"1": "a", "#": "1", "*": "a", "A": "x"}, positional=[one_word("a")])
        after_builtins(source, state)
        assert state.positional is None, source
        assert {k: state.variables.get(k) for k in ("1", "#", "*")} == {"1": None, "#": None, "*": None}, source
    for source in ("set -e", "set +x", "set"):
        words = [one_word("a")]
        state = ShellState(cwd="/w", variables={"1": "a", "#": "1", "*": "a"}, positional=words)
        after_builtins(source, state)
        assert state.positional is words and state.variables == {"1": "a", "#": "1", "*": "a"}, source


# -- shell/walk.py: the walk in execution order --------------------------------------------------------
# Each row: the steps the rules are handed, in order — a command as (name, cwd, values, depth, via), a
# redirection as (op, cwd, target) — then the findings' codes, the cwd after the walk and the walk's steps.
# W is the agent's worktree (holding src/a.py, src/app.py, src/b.py), HOME the test's home.

WALKS: dict[str, tuple] = {
    'cd src; ls': ([('cd', 'W', ('cd', 'src'), 0, ()), ('ls', 'W/src', ('ls',), 0, ())], [], 'W/src', 7),
    'cd src & ls': ([('cd', 'W', ('cd', 'src'), 0, ()), ('ls', 'W', ('ls',), 0, ())], [], 'W', 7),
    'echo | cd src; ls': ([('echo', 'W', ('echo',), 0, ()), ('cd', 'W', ('cd', 'src'), 0, ()), ('ls', 'W', ('ls',), 0, ())], [], 'W', 11),
    'shopt -s lastpipe; echo | cd src; ls': ([('shopt', 'W', ('shopt', '-s', 'lastpipe'), 0, ()), ('echo', 'W', ('echo',), 0, ()), ('cd', 'W', ('cd', 'src'), 0, ()), ('ls', 'W/src', ('ls',), 0, ())], [], 'W/src', 14),
    'cd src | cat; ls': ([('cd', 'W', ('cd', 'src'), 0, ()), ('cat', 'W', ('cat',), 0, ()), ('ls', 'W', ('ls',), 0, ())], [], 'W', 11),
    '(cd src; ls); ls': ([('cd', 'W', ('cd', 'src'), 0, ()), ('ls', 'W/src', ('ls',), 0, ()), ('ls', 'W', ('ls',), 0, ())], [], 'W', 12),
    '{ cd src; ls; } > out; ls': ([('>', 'W', 'out'), ('cd', 'W', ('cd', 'src'), 0, ()), ('ls', 'W/src', ('ls',), 0, ()), ('ls', 'W/src', ('ls',), 0, ())], [], 'W/src', 12),
    '(cd src) > o': ([('>', 'W', 'o'), ('cd', 'W', ('cd', 'src'), 0, ())], [], 'W', 4),
    # the shell is in W or W/src: the ls is walked in each (ShellState.cwds, stop 25; before: in an unknown one)
    'if true; then cd src; fi; ls': ([('true', 'W', ('true',), 0, ()), ('cd', 'W', ('cd', 'src'), 0, ()), ('ls', 'W', ('ls',), 0, ()), ('ls', 'W/src', ('ls',), 0, ())], [], None, 13),
    # an `if` with an `else` runs one branch: both cd into src (review 23a: the entry state was merged in too)
    'if true; then cd src; else cd src; fi; ls': ([('true', 'W', ('true',), 0, ()), ('cd', 'W', ('cd', 'src'), 0, ()), ('cd', 'W', ('cd', 'src'), 0, ()), ('ls', 'W/src', ('ls',), 0, ())], [], 'W/src', 14),
    'while false; do cd src; done; ls': ([('false', 'W', ('false',), 0, ()), ('cd', 'W', ('cd', 'src'), 0, ()), ('false', 'W', ('false',), 0, ()), ('false', 'W/src', ('false',), 0, ()), ('cd', 'W', ('cd', 'src'), 0, ()), ('cd', 'W/src', ('cd', 'src'), 0, ()), ('false', 'W', ('false',), 0, ()), ('false', 'W/src', ('false',), 0, ()), ('false', 'W/src/src', ('false',), 0, ()), ('cd', 'W', ('cd', 'src'), 0, ()), ('cd', 'W/src', ('cd', 'src'), 0, ()), ('cd', 'W/src/src', ('cd', 'src'), 0, ()), ('false', 'W', ('false',), 0, ()), ('false', 'W/src', ('false',), 0, ()), ('false', 'W/src/src', ('false',), 0, ()), ('false', 'W/src/src/src', ('false',), 0, ()), ('cd', 'W', ('cd', 'src'), 0, ()), ('cd', 'W/src', ('cd', 'src'), 0, ()), ('cd', 'W/src/src', ('cd', 'src'), 0, ()), ('cd', 'W/src/src/src', ('cd', 'src'), 0, ()), ('false', None, ('false',), 0, ()), ('cd', None, ('cd', 'src'), 0, ()), ('ls', None, ('ls',), 0, ())], [], None, 56),
    'for f in a b; do echo $f; done; echo $f': ([('echo', 'W', ('echo', 'a'), 0, ()), ('echo', 'W', ('echo', 'b'), 0, ()), ('echo', 'W', ('echo', 'b'), 0, ())], [], 'W', 11),
    'for f in src/*.py; do echo $f; done': ([('echo', 'W', ('echo', 'src/a.py'), 0, ()), ('echo', 'W', ('echo', 'src/app.py'), 0, ()), ('echo', 'W', ('echo', 'src/b.py'), 0, ())], [], 'W', 10),
    # the round changes nothing: walked once
    'for f in $(ls); do echo $f; done; echo $f': ([('ls', 'W', ('ls',), 0, ()), ('echo', 'W', ('echo', None), 0, ()), ('echo', 'W', ('echo', None), 0, ())], [], 'W', 11),
    'for f; do echo $f; done': ([('echo', 'W', ('echo', None), 0, ())], [], 'W', 4),
    'case x in x) cd src;; esac; ls': ([('cd', 'W', ('cd', 'src'), 0, ()), ('ls', 'W', ('ls',), 0, ()), ('ls', 'W/src', ('ls',), 0, ())], [], None, 10),
    'f() { cd src; }; f; ls': ([('f', 'W', ('f',), 0, ()), ('cd', 'W', ('cd', 'src'), 1, ()), ('ls', 'W/src', ('ls',), 0, ())], [], 'W/src', 12),
    'f() { echo $1 $2 $#; }; f a b': ([('f', 'W', ('f', 'a', 'b'), 0, ()), ('echo', 'W', ('echo', 'a', 'b', '2'), 1, ())], [], 'W', 9),
    'f() { echo "$@"; }; f a $X c': ([('f', 'W', ('f', 'a', None, 'c'), 0, ()), ('echo', 'W', ('echo', 'a', None, None), 1, ())], [], 'W', 9),
    'f() { local X=1; echo $X; }; X=2; f; echo $X': ([('f', 'W', ('f',), 0, ()), ('local', 'W', ('local', 'X=1'), 1, ()), ('echo', 'W', ('echo', '1'), 1, ()), ('echo', 'W', ('echo', None), 0, ())], [], 'W', 18),
    'g() { rm x; }': ([('rm', 'W', ('rm', 'x'), 1, ())], [], 'W', 5),
    'git() { command git status; }; git log': ([('git', 'W', ('git', 'log'), 0, ()), ('command', 'W', ('command', 'git', 'status'), 1, ()), ('git', 'W', ('git', 'status'), 2, ('command',))], [], 'W', 10),
    "bash -c 'cd src; ls'; ls": ([('bash', 'W', ('bash', '-c', 'cd src; ls'), 0, ()), ('cd', 'W', ('cd', 'src'), 1, ()), ('ls', 'W/src', ('ls',), 1, ()), ('ls', 'W', ('ls',), 0, ())], [], 'W', 14),
    "eval 'cd src'; ls": ([('eval', 'W', ('eval', 'cd src'), 0, ()), ('cd', 'W', ('cd', 'src'), 1, ()), ('ls', 'W/src', ('ls',), 0, ())], [], 'W/src', 10),
    'echo $(cd src; ls) ; ls': ([('cd', 'W', ('cd', 'src'), 0, ()), ('ls', 'W/src', ('ls',), 0, ()), ('echo', 'W', ('echo', None), 0, ()), ('ls', 'W', ('ls',), 0, ())], [], 'W', 14),
    'X=1; echo ${Y:=2} $X $Y': ([('echo', 'W', ('echo', None, '1', None), 0, ())], [], 'W', 6),
    '((X++)); echo $X': ([('echo', 'W', ('echo', None), 0, ())], [], 'W', 4),
    'let Z=1; echo $Z': ([('let', 'W', ('let', 'Z=1'), 0, ()), ('echo', 'W', ('echo', None), 0, ())], [], 'W', 7),
    'X=1; for ((i=0; i<2; i++)); do echo $X; done': ([('echo', 'W', ('echo', '1'), 0, ())], [], 'W', 6),
    'env -C src ls; ls': ([('env', 'W', ('env', '-C', 'src', 'ls'), 0, ()), ('ls', 'W/src', ('ls',), 1, ('env -C',)), ('ls', 'W', ('ls',), 0, ())], [], 'W', 8),
    'command cd src; ls': ([('command', 'W', ('command', 'cd', 'src'), 0, ()), ('cd', 'W', ('cd', 'src'), 1, ('command',)), ('ls', 'W/src', ('ls',), 0, ())], [], 'W/src', 8),
    'echo `cd src`; ls': ([('cd', 'W', ('cd', 'src'), 0, ()), ('echo', 'W', ('echo', None), 0, ()), ('ls', 'W', ('ls',), 0, ())], [], 'W', 10),
    'a=1 b=$a; echo $a $b': ([('echo', 'W', ('echo', '1', '1'), 0, ())], [], 'W', 6),
    'cat <<EOF > out\n$(cd src)\nEOF': ([('cd', 'W', ('cd', 'src'), 0, ()), ('<<', 'W', None), ('>', 'W', 'out'), ('cat', 'W', ('cat',), 0, ())], [], 'W', 6),
    'X=src; cd $X && ls': ([('cd', 'W', ('cd', 'src'), 0, ()), ('ls', 'W/src', ('ls',), 0, ())], [], None, 9),  # the list may stop where cd failed, in W (stop 25)
    'X=nope; cd $X && ls': ([('cd', 'W', ('cd', 'nope'), 0, ()), ('ls', 'W/nope', ('ls',), 0, ())], [], None, 9),  # the list may stop where cd failed, in W (stop 25)
    'echo {a,b}': ([('echo', 'W', ('echo', 'a', 'b'), 0, ())], [], 'W', 3),
    'select x in a b; do cd src; done; ls': ([('cd', 'W', ('cd', 'src'), 0, ()), ('cd', 'W', ('cd', 'src'), 0, ()), ('cd', 'W/src', ('cd', 'src'), 0, ()), ('cd', 'W', ('cd', 'src'), 0, ()), ('cd', 'W/src', ('cd', 'src'), 0, ()), ('cd', 'W/src/src', ('cd', 'src'), 0, ()), ('cd', 'W', ('cd', 'src'), 0, ()), ('cd', 'W/src', ('cd', 'src'), 0, ()), ('cd', 'W/src/src', ('cd', 'src'), 0, ()), ('cd', 'W/src/src/src', ('cd', 'src'), 0, ()), ('cd', None, ('cd', 'src'), 0, ()), ('ls', None, ('ls',), 0, ())], [], None, 29),
    'cd /tmp/../usr; ls': ([('cd', 'W', ('cd', '/tmp/../usr'), 0, ()), ('ls', '/usr', ('ls',), 0, ())], [], '/usr', 6),
    'echo $(( X = 3 )); echo $X': ([('echo', 'W', ('echo', None), 0, ()), ('echo', 'W', ('echo', None), 0, ())], [], 'W', 6),
    # the cd after `&&` may not run: W or W/src, not known which (review 23a)
    '[[ -d src ]] && cd src; ls': ([('cd', 'W', ('cd', 'src'), 0, ()), ('ls', 'W', ('ls',), 0, ()), ('ls', 'W/src', ('ls',), 0, ())], [], None, 10),
    'X=v env Y=$X printenv': ([('env', 'W', ('env', None, 'printenv'), 0, ()), (None, 'W', (None, 'printenv'), 1, ('env',))], [], 'W', 4),
    'f() { f; }; f': ([('f', 'W', ('f',), 0, ()), ('f', 'W', ('f',), 1, ()), ('f', 'W', ('f',), 2, ()), ('f', 'W', ('f',), 3, ()), ('f', 'W', ('f',), 4, ()), ('f', 'W', ('f',), 5, ()), ('f', 'W', ('f',), 6, ()), ('f', 'W', ('f',), 7, ()), ('f', 'W', ('f',), 8, ())], ['WG901'], 'W', 37),
    'time cd src; ls': ([('cd', 'W', ('cd', 'src'), 0, ()), ('ls', 'W/src', ('ls',), 0, ())], [], 'W/src', 7),
    '! cd src; ls': ([('cd', 'W', ('cd', 'src'), 0, ()), ('ls', 'W', ('ls',), 0, ()), ('ls', 'W/src', ('ls',), 0, ())], [], None, 11),  # `!`: the cd may have failed (stop 26)
    # `cd /tmp` runs only where `cd src` failed: a cd that fails stays, so from W (or W/src: the walk takes a cd to
    # succeed); the list ends in W/src or /tmp, each walked (stop 25; before: `cd ..` from W/src, then unknown)
    'cd src || cd /tmp; ls': ([('cd', 'W', ('cd', 'src'), 0, ()), ('cd', 'W', ('cd', '/tmp'), 0, ()), ('cd', 'W/src', ('cd', '/tmp'), 0, ()), ('ls', '/tmp', ('ls',), 0, ()), ('ls', 'W/src', ('ls',), 0, ())], [], None, 13),
    'cd nope || cd /tmp; ls': ([('cd', 'W', ('cd', 'nope'), 0, ()), ('cd', 'W', ('cd', '/tmp'), 0, ()), ('cd', 'W/nope', ('cd', '/tmp'), 0, ()), ('ls', '/tmp', ('ls',), 0, ()), ('ls', 'W/nope', ('ls',), 0, ())], [], None, 13),
    'for f in a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F G; do echo $f; done; echo $f': ([('echo', 'W', ('echo', None), 0, ()), ('echo', 'W', ('echo', None), 0, ())], [], 'W', 8),
    'for f in a b c d e f g h i j k l m n o p q r s t u v w x y z A B C D E F; do :; done; echo $f': ([(':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), (':', 'W', (':',), 0, ()), ('echo', 'W', ('echo', 'F'), 0, ())], [], 'W', 101),
    "for f in '' ; do echo $f; done": ([('echo', 'W', ('echo',), 0, ())], [], 'W', 4),  # an empty unquoted $f is no word
    'for f in ~/x /abs $HOME; do echo $f; done': ([('echo', 'W', ('echo', 'HOME/x'), 0, ()), ('echo', 'W', ('echo', '/abs'), 0, ()), ('echo', 'W', ('echo', 'HOME'), 0, ())], [], 'W', 10),
    'for f in {a,b}; do echo $f; done': ([('echo', 'W', ('echo', 'a'), 0, ()), ('echo', 'W', ('echo', 'b'), 0, ())], [], 'W', 7),
    'f() { echo $1; shift; echo $1; }; f a b': ([('f', 'W', ('f', 'a', 'b'), 0, ()), ('echo', 'W', ('echo', 'a'), 1, ()), ('shift', 'W', ('shift',), 1, ()), ('echo', 'W', ('echo', None), 1, ())], [], 'W', 16),
    'f() { echo ${10} $*; }; f a b': ([('f', 'W', ('f', 'a', 'b'), 0, ()), ('echo', 'W', ('echo', None, 'a', 'b'), 1, ())], [], 'W', 9),  # $* split
    'echo $1; f() { :; }; f x; echo $1': ([('echo', 'W', ('echo', None), 0, ()), ('f', 'W', ('f', 'x'), 0, ()), (':', 'W', (':',), 1, ()), ('echo', 'W', ('echo', None), 0, ())], [], 'W', 15),
    'f() { g; }; g() { cd src; }; f; ls': ([('f', 'W', ('f',), 0, ()), ('g', 'W', ('g',), 1, ()), ('cd', 'W', ('cd', 'src'), 2, ()), ('ls', 'W/src', ('ls',), 0, ())], [], 'W/src', 17),
    'cd src; f() { ls; }; cd ..': ([('cd', 'W', ('cd', 'src'), 0, ()), ('cd', 'W/src', ('cd', '..'), 0, ()), ('ls', 'W/src', ('ls',), 1, ())], [], 'W', 12),
    'builtin cd src; ls': ([('builtin', 'W', ('builtin', 'cd', 'src'), 0, ()), ('cd', 'W', ('cd', 'src'), 1, ('builtin',)), ('ls', 'W/src', ('ls',), 0, ())], [], 'W/src', 8),
    "sh -c 'cd src' & ls": ([('sh', 'W', ('sh', '-c', 'cd src'), 0, ()), ('cd', 'W', ('cd', 'src'), 1, ()), ('ls', 'W', ('ls',), 0, ())], [], 'W', 10),
    'bash -c "bash -c \'cd src; ls\'"': ([('bash', 'W', ('bash', '-c', "bash -c 'cd src; ls'"), 0, ()), ('bash', 'W', ('bash', '-c', 'cd src; ls'), 1, ()), ('cd', 'W', ('cd', 'src'), 2, ()), ('ls', 'W/src', ('ls',), 2, ())], [], 'W', 13),
    'f() { X=1; }; f; echo $X': ([('f', 'W', ('f',), 0, ()), ('echo', 'W', ('echo', '1'), 0, ())], [], 'W', 11),
    'f() { local X; unset X; }; X=2; f; echo $X': ([('f', 'W', ('f',), 0, ()), ('local', 'W', ('local', 'X'), 1, ()), ('unset', 'W', ('unset', 'X'), 1, ()), ('echo', 'W', ('echo', None), 0, ())], [], 'W', 18),
    'f() { local X=1; }; X=1; f; echo $X': ([('f', 'W', ('f',), 0, ()), ('local', 'W', ('local', 'X=1'), 1, ()), ('echo', 'W', ('echo', '1'), 0, ())], [], 'W', 14),
    'cd src; cd -; ls': ([('cd', 'W', ('cd', 'src'), 0, ()), ('cd', 'W/src', ('cd', '-'), 0, ()), ('ls', 'W', ('ls',), 0, ())], [], 'W', 10),
    'pushd src; popd; ls': ([('pushd', 'W', ('pushd', 'src'), 0, ()), ('popd', 'W/src', ('popd',), 0, ()), ('ls', 'W', ('ls',), 0, ())], [], 'W', 10),
}


def walk_rows(repo: Repo, command: str, **limits) -> tuple:
    from worktree_guard.engine import build_context
    from worktree_guard.plugins import plugin_manager
    from worktree_guard.rules.bash import analyse
    from worktree_guard.runtimes.claude_code import to_tool_call

    home = os.environ["HOME"]

    def rel(p: str | None) -> str | None:
        return None if p is None else p.replace(str(repo.worktree), "W").replace(home, "HOME")

    call = to_tool_call(subagent_payload(repo, "Bash", {"command": command}))
    ctx = build_context(call, pm=plugin_manager())
    seen: list[tuple] = []

    def on_command(step: ShellCommand) -> list:
        seen.append((step.name, rel(step.cwd), tuple(rel(v) if v else v for v in step.values()), step.depth, step.via))
        return []

    def on_redirect(redirect: ShellRedirect) -> list:
        seen.append((redirect.redirect.op, rel(redirect.cwd), rel(redirect.target())))
        return []

    walker, state = analyse(command, ctx, on_command=on_command, on_redirect=on_redirect)
    return seen, [f.code for f in walker.findings], rel(state.cwd), walker.steps


def test_walks(repo: Repo) -> None:
    for name in ("a.py", "b.py"):
        (repo.worktree / "src" / name).write_text("")
    for command, expected in WALKS.items():
        assert walk_rows(repo, command) == expected, command


# -- the walker's budgets, at their edges ------------------------------------------------------------------

from worktree_guard.shell import walk as shell_walk  # noqa: E402
from worktree_guard.shell.state import BudgetExceeded  # noqa: E402
from worktree_guard.shell.steps import Inner, Script, Unwrapped  # noqa: E402


def bare_walker(unwrap=None, parse_error: Exception | None = None) -> tuple[shell_walk.Walker, list]:
    seen: list = []

    def parse_source(source: str, offset: int):
        if parse_error is not None:
            raise parse_error
        return parse(source)

    hooks = shell_walk.Hooks(on_command=lambda step: seen.append(step) or [f"c:{step.name}"], on_redirect=lambda r: [f"r:{r.redirect.op}"],
                             unwrap=unwrap or (lambda step: None), parse=parse_source,
                             on_parse_failure=lambda error, start, end, source: [("parse", str(error), start, end, source)],
                             on_unknown_code=lambda found: [("unknown code", found.reason)])
    return shell_walk.Walker(hooks=hooks, home="/h"), seen


def test_the_step_budget_is_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    walker, _ = bare_walker()
    walker.walk_script(parse("a; b; c > f"), ShellState(cwd="/w"))
    steps = walker.steps
    assert walker.findings == ["c:a", "c:b", "r:>", "c:c"]
    monkeypatch.setattr(shell_walk, "MAX_WALK_STEPS", steps)
    walker, _ = bare_walker()
    walker.walk_script(parse("a; b; c > f"), ShellState(cwd="/w"))
    monkeypatch.setattr(shell_walk, "MAX_WALK_STEPS", steps - 1)
    walker, _ = bare_walker()
    with pytest.raises(BudgetExceeded, match=f"^analysing the command takes more than {steps - 1} steps$"):
        walker.walk_script(parse("a; b; c > f"), ShellState(cwd="/w"))


def test_a_deep_cwd_costs_steps() -> None:
    shallow, _ = bare_walker()
    shallow.walk_script(parse("a"), ShellState(cwd="/w"))
    for depth, extra in ((7, 0), (8, 1), (16, 2), (17, 2)):
        deep, _ = bare_walker()
        deep.walk_script(parse("a"), ShellState(cwd="/d" * depth))
        assert deep.steps == shallow.steps + extra, depth
    unknown, _ = bare_walker()
    unknown.walk_script(parse("a"), ShellState(cwd=None))
    assert unknown.steps == shallow.steps


def test_the_parsed_characters_budget_is_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shell_walk, "MAX_PARSED_CHARS", 10)
    walker, _ = bare_walker()
    walker.string("echo 12345", 0, ShellState(cwd="/w"), "/w", 0)
    assert walker.parsed_chars == 10
    with pytest.raises(BudgetExceeded, match="^the command makes worktree-guard parse more than 10 characters of shell code$"):
        walker.string("x", 0, ShellState(cwd="/w"), "/w", 0)


def test_nesting_depths_are_exact() -> None:
    walker, _ = bare_walker()
    walker.string("a", 0, ShellState(cwd="/w"), "/w", shell_walk.MAX_DEPTH)
    with pytest.raises(BudgetExceeded, match=f"^shell code nests deeper than {shell_walk.MAX_DEPTH} levels$"):
        walker.string("a", 0, ShellState(cwd="/w"), "/w", shell_walk.MAX_DEPTH + 1)
    walker.visit(parse("a").body[0], ShellState(cwd="/w"), shell_walk.MAX_DEPTH)
    with pytest.raises(BudgetExceeded, match=f"^the command nests deeper than {shell_walk.MAX_DEPTH} levels$"):
        walker.visit(parse("a").body[0], ShellState(cwd="/w"), shell_walk.MAX_DEPTH + 1)


def test_function_and_wrapper_depths_are_exact() -> None:
    state = ShellState(cwd="/w")
    walker, _ = bare_walker()
    walker.walk_script(parse("f() { :; }"), state, 1)
    step = step_of("f", state)
    walker.simple(step, shell_walk.MAX_DEPTH - 1)
    with pytest.raises(BudgetExceeded, match=f"^functions call each other deeper than {shell_walk.MAX_DEPTH} levels$"):
        walker.simple(step_of("f", state), shell_walk.MAX_DEPTH)
    inner = Inner(words=words_of("ls x"), cwd="/w")
    walker.inner(step_of("w ls x"), inner, shell_walk.MAX_DEPTH - 1)
    with pytest.raises(BudgetExceeded, match=f"^commands wrap each other deeper than {shell_walk.MAX_DEPTH} levels$"):
        walker.inner(step_of("w ls x"), inner, shell_walk.MAX_DEPTH)


def test_a_string_that_does_not_parse_is_reported_with_its_span() -> None:
    walker, _ = bare_walker(parse_error=ValueError("bad"))
    walker.string("a b", 5, ShellState(cwd="/w"), "/w", 1)
    assert walker.findings == [("parse", "bad", 5, 8, "a b")]
    walker, _ = bare_walker(unwrap=lambda step: Unwrapped(scripts=[Script(source="x y", offset=3, cwd="/w")]) if step.name == "sh" else None,
                            parse_error=None)
    walker.hooks.parse = lambda source, offset: (_ for _ in ()).throw(ValueError("no")) if source == "x y" else parse(source)
    walker.walk_script(parse("sh"), ShellState(cwd="/w"))
    assert walker.findings == ["c:sh", ("parse", "no", 3, 6, "x y")]


def test_inner_commands_and_scripts_of_a_wrapper() -> None:
    def unwrap(step: ShellCommand):
        if step.name == "wrap":
            return Unwrapped(inner=[Inner(words=words_of("cd /x"), cwd="/elsewhere", label="wrap"), Inner(words=[], cwd="/w"),
                                    Inner(words=words_of("cd /y"), cwd="/ignored", same_shell=True, assignments=list(parse("A=1 b").body[0].assignments))],
                             scripts=[Script(source="cd /z", offset=0, cwd="/s"), Script(source="cd /q", offset=0, cwd=None, same_shell=True)])
        return None

    walker, seen = bare_walker(unwrap)
    state = ShellState(cwd="/w")
    walker.walk_script(parse("B=2 wrap"), state)
    assert [(s.name, s.cwd, s.depth, s.via, [a.name for a in s.assignments]) for s in seen] == [
        ("wrap", "/w", 0, (), ["B"]), ("cd", "/elsewhere", 1, ("wrap",), ["B"]), ("cd", "/ignored", 1, (), ["B", "A"]),
        ("cd", "/s", 1, (), []), ("cd", "/y", 1, (), [])]
    assert state.cwd == "/q"  # the same-shell inner and script moved this shell; the others did not
    assert seen[1].state is not state and seen[2].state is state


def test_a_function_defined_in_a_branch_is_still_analysed_once() -> None:
    walker, seen = bare_walker()
    walker.walk_script(parse("if x; then f() { g; }; fi; h() { i; }; h; h"), ShellState(cwd="/w"))
    assert [s.name for s in seen] == ["x", "h", "i", "h", "i", "g"]
    assert [s.depth for s in seen] == [0, 0, 1, 0, 1, 1]
    nested, seen = bare_walker()
    nested.walk_script(parse("f() { local A; g; }"), ShellState(cwd="/w"), 1)
    assert seen == []  # only the outermost walk analyses uncalled functions


# -- shell/runners.py: programs that run code the guard does not walk ----------------------------------------
# Each row: (opaque_code's reasons, walked_code, run_argv with unknown words marked `?`, subcommand_scripts) in /w.

from worktree_guard.shell.runners import BUILTIN_CODE_RUNNERS, opaque_code, run_argv, subcommand_scripts, walked_code  # noqa: E402

RUNNER_ANSWERS: dict[str, tuple] = {
    "tmux -c 'rm x'": (['`tmux -c` runs code'], ([], []), None, []),
    'tmux new -c /d': ([], ([], []), None, []),
    "tmux new -c /d 'make test'": ([], ([], []), None, [('make test', 15, '/d')]),
    "tmux send-keys 'rm x' Enter": (['`tmux send-keys` runs a command'], ([], []), None, []),
    "tmux new-session -d 'make'": ([], ([], []), None, [('make', 20, '/w')]),
    'tmux new-session -d -s x': ([], ([], []), None, []),
    'tmux new -d $X': (['`tmux new` runs a command only known at run time'], ([], []), None, []),
    "tmux neww -c sub 'ls'": ([], ([], []), None, [('ls', 17, '/w/sub')]),
    'tmux new -csub ls': ([], ([], []), None, [('ls', 15, '/w/sub')]),
    'tmux new -dc sub ls': ([], ([], []), None, [('ls', 17, '/w/sub')]),
    'tmux new -d ls \\; send x': (['`tmux send` runs a command'], ([], []), None, [('ls', 12, '/w')]),
    'tmux new ls $X': (['`tmux new` runs a command only known at run time'], ([], []), None, []),
    'tmux new -c $D ls': ([], ([], []), None, [('ls', 15, None)]),
    'tmux new -s': ([], ([], []), None, []),
    "gdb -ex 'shell rm x' prog": (['`gdb -ex` runs code'], ([], []), None, []),
    'gdb --eval-command=quit': (['`gdb --eval-command` runs code'], ([], []), None, []),
    'gdb -xfile': (['`gdb -x` runs code'], ([], []), None, []),
    'gdb prog': ([], ([], []), None, []),
    'gdb -exfoo': ([], ([], []), None, []),
    "sqlite3 db '.shell rm x'": (["`sqlite3` is given code ('.shell rm x')"], ([], []), None, []),
    "sqlite3 db 'select 1'": ([], ([], []), None, []),
    "sqlite3 -cmd '.shell x' db": (['`sqlite3 -cmd` is given code', "`sqlite3` is given code ('.shell x')"], ([], []), None, []),
    "sqlite3 -cmd 'select 1' db": ([], ([], []), None, []),
    'sqlite3 -cmd': (['`sqlite3 -cmd` is given code'], ([], []), None, []),
    'sqlite3 --cmd=.once f db': (['`sqlite3 --cmd` is given code'], ([], []), None, []),
    "sqlite3 db 'ATTACH x'": (["`sqlite3` is given code ('ATTACH x')"], ([], []), None, []),
    'sqlite3 -init f db': (['`sqlite3 -init` runs code'], ([], []), None, []),
    'sqlite3 db -x': ([], ([], []), None, []),
    'make -f /dev/stdin': (['`make -f` reads code from its input or a file only known at run time'], ([], []), None, []),
    'make -f Makefile': ([], ([], []), None, []),
    'make -f -': (['`make -f` reads code from its input or a file only known at run time'], ([], []), None, []),
    'make -f/dev/fd/3': (['`make -f` reads code from its input or a file only known at run time'], ([], []), None, []),
    'make --file=/proc/self/fd/0': (['`make --file` reads code from its input or a file only known at run time'], ([], []), None, []),
    'make -f $F': (['`make -f` reads code from its input or a file only known at run time'], ([], []), None, []),
    'make -f': (['`make -f` reads code from its input or a file only known at run time'], ([], []), None, []),
    'make --eval=x': (['`make --eval` runs code'], ([], []), None, []),
    'make -E x': (['`make -E` runs code'], ([], []), None, []),
    'make all': ([], ([], []), None, []),
    'man -P cat ls': ([], ([('cat', 7)], []), None, []),
    'man -Pcat ls': ([], ([('cat', 6)], []), None, []),
    'man --pager=less ls': ([], ([('less', 12)], []), None, []),
    'man -P $P ls': ([], ([], ['`man -P` runs a command only known at run time']), None, []),
    'man -P': ([], ([], ['`man -P` runs a command only known at run time']), None, []),
    "MANPAGER='|cat' man ls": ([], ([('cat', 0)], []), None, []),
    'MANPAGER=$X man ls': ([], ([], ['`man` runs the command in $MANPAGER, only known at run time']), None, []),
    "PAGER=' ' man ls": ([], ([], []), None, []),
    'man -H ls': (['`man -H` runs code'], ([], []), None, []),
    "LESSOPEN='|lesspipe %s' less f": ([], ([('lesspipe %s', 0)], []), None, []),
    'less f': ([], ([], []), None, []),
    'fd -x rm {}': ([], ([], []), ([['rm', '{}?']], 1), []),
    'fd -x rm': ([], ([], []), ([['rm', '{}?']], 1), []),
    'fd -X rm {} \\; -x echo {/}': ([], ([], []), ([['rm', '{}?'], ['echo', '{/}?']], 1), []),
    'fd pat': ([], ([], []), None, []),
    'fd -x': ([], ([], []), ([], 1), []),
    'fd --exec cp {} /x': ([], ([], []), ([['cp', '{}?', '/x']], 1), []),
    'fd -x rm {.}x': ([], ([], []), ([['rm', '{.}x?']], 1), []),
}


def test_code_runners() -> None:
    for source, expected in RUNNER_ANSWERS.items():
        step = step_of(source)
        runner = BUILTIN_CODE_RUNNERS[step.name]
        argv = run_argv(step, runner)
        shown = None if argv is None else ([[w.raw + ("?" if w.value is None else "") for w in a] for a in argv[0]], argv[1])
        assert (opaque_code(step, runner), walked_code(step, runner), shown, subcommand_scripts(step, runner)) == expected, source


def test_code_runners_in_an_unknown_directory_and_by_environment() -> None:
    from worktree_guard.shell.runners import CodeRunner

    tmux = BUILTIN_CODE_RUNNERS["tmux"]
    node = parse("tmux new -c sub ls").body[0]
    unknown = ShellCommand(node=node, words=node.words, assignments=[], cwd=None, state=ShellState(cwd=None), home="/h")
    assert subcommand_scripts(unknown, tmux) == [("ls", 16, None)]
    node = parse("tmux new -c /abs ls").body[0]
    absolute = ShellCommand(node=node, words=node.words, assignments=[], cwd=None, state=ShellState(cwd=None), home="/h")
    assert subcommand_scripts(absolute, tmux) == [("ls", 17, "/abs")]
    runner = CodeRunner(env=("EDITOR", "VISUAL"))
    assert opaque_code(step_of("EDITOR=vi prog"), runner) == ["`prog` runs the command in $EDITOR"]
    assert opaque_code(step_of("prog", ShellState(cwd="/w", variables={"VISUAL": None})), runner) == ["`prog` runs the command in $VISUAL"]
    assert opaque_code(step_of("prog"), runner) == []


# -- git -C with a directory only known at run time --------------------------------------------------------
# Found reading shell/git_call.py for its mutants: `git -C $D …` kept the cwd as the directory git runs in, so
# what git writes relative to it (`init`, `clone`'s directory, `archive -o`, `format-patch`'s patches, `--output`)
# was placed in W and passed, while `touch $D/x` is WG403: with D in the main checkout they land there.


@pytest.mark.parametrize("command", ["git -C $D init", "git -C $D init x", "git -C $D clone https://127.0.0.1/r.git",
                                     "git -C $D format-patch HEAD", "git -C $D archive -o a.tar HEAD", "git -C $D diff --output=o"])
def test_what_git_writes_from_a_directory_only_known_at_run_time_is_unknown(repo: Repo, command: str) -> None:
    assert judge_bash(repo, command).codes == ["WG403"]


@pytest.mark.parametrize("command", ["git -C $D status", "git -C $D log", "git -C $D archive -o /tmp/a.tar HEAD", "git -C $D -C /tmp init"])
def test_git_from_a_directory_only_known_at_run_time_that_writes_nothing_relative(repo: Repo, command: str) -> None:
    assert judge_bash(repo, command).decision == "pass"


def test_an_absolute_git_dash_c_after_an_unknown_one_is_where_git_runs(repo: Repo) -> None:
    verdict = judge_bash(repo, f"git -C $D -C {repo.main} init")
    assert verdict.codes == ["WG401"] and verdict.violations[0].resolved == str(repo.main)


def test_the_walks_trace_is_what_explain_shows() -> None:
    walker, _ = bare_walker()
    walker.walk_script(parse("cd /tmp; (ls > f); { echo; } 2> g"), ShellState(cwd="/w"))
    assert walker.trace == [("command", "/w", (0, 7)), ("redirect", "/tmp", (13, 16)), ("command", "/tmp", (10, 16)),
                            ("redirect", "/tmp", (29, 33)), ("command", "/tmp", (21, 25))]


# Quoted sections and expansions of every kind, carried over verbatim around an expansion (and their edges).
MORE_BRACE_FIELDS: dict[str, list[str] | None] = {
    '""{a,b}': ['""a', '""b'],
    '`a`x{y,z}`b`': ['`a`xy`b`', '`a`xz`b`'],
    '``{a,b}': ['``a', '``b'],
    "$''{a,b}": ["$''a", "$''b"],
    "$'x'{a,b}": ["$'x'a", "$'x'b"],
    '$(a \\) b){x,y}': ['$(a \\) b)x', '$(a \\) b)y'],
    '$(a \\\\){x,y}': ['$(a \\\\)x', '$(a \\\\)y'],
    "$(a ''){x,y}": ["$(a '')x", "$(a '')y"],
    "$(a '') c{x,y}": ["$(a '') cx", "$(a '') cy"],
    '$(a "") {x,y}': ['$(a "") x', '$(a "") y'],
    "''{a,b}": ["''a", "''b"],
    "'a'{a,b}'c'": ["'a'a'c'", "'a'b'c'"],
    "x'y'{a,b}": ["x'y'a", "x'y'b"],
    '$""{a,b}': ['$""a', '$""b'],
    '$(""){a,b}': ['$("")a', '$("")b'],
    '$(a(b)c){x,y}': ['$(a(b)c)x', '$(a(b)c)y'],
    '${a}{x,y}${b}': ['${a}x${b}', '${a}y${b}'],
    '$(a)$(b){x,y}': ['$(a)$(b)x', '$(a)$(b)y'],
    '"a""b"{x,y}': ['"a""b"x', '"a""b"y'],
    '$(a \'"\'){x,y}': ['$(a \'"\')x', '$(a \'"\')y'],
    '$(\\$(b)){x,y}': ['$(\\$(b))x', '$(\\$(b))y'],
    'a{b,c}d\\ e': ['abd\\ e', 'acd\\ e'],
    '$(a "b\\"c"){x,y}': ['$(a "b\\"c")x', '$(a "b\\"c")y'],
    "{\\'a,b}": ["\\'a", 'b'],
    '{x,y}$': ['x$', 'y$'],
    'x{a,b}$(': None,
    '$X{a,b}': ['$Xa', '$Xb'],
    '$(X){a,b}': ['$(X)a', '$(X)b'],
    "$(a 'b')'c'{x,y}": ["$(a 'b')'c'x", "$(a 'b')'c'y"],
    '"\\\\"{x,y}': ['"\\\\"x', '"\\\\"y'],
}


def test_more_brace_fields() -> None:
    for raw, fields in MORE_BRACE_FIELDS.items():
        assert words.brace_fields(raw) == fields, raw


def test_word_edges_a_survivor_showed() -> None:
    assert words.remove_quotes("a$'x'") is None
    assert words.remove_quotes("E$X") == ("E$X", False)
    assert words.remove_quotes("E\\F") == ("EF", True)
    assert words.static_prefix("/aX/b") == "/aX/b"
    assert words.static_prefix("[/a\\") is None
    assert words.static_prefix("{/a\\") is None
    assert words.static_prefix("/a\\\\$A/b", {"A": "a"}.get) == "/a\\a/b"
    assert words.static_prefix("/'x$y") == "/"
    assert words.static_prefix("/ab/'$x") == "/ab/"
    assert expand_tilde("X1", ShellState(cwd="/w"), "/h") == "~X1"
    assert expand_tilde("X1/y", ShellState(cwd="/w"), "/h") == "~X1/y"


def test_a_functions_words_in_braces_and_loops_over_absolute_globs(tmp_path: Path) -> None:
    make_dir(tmp_path / "d", ["a.py", "b.py"])
    walker, seen = bare_walker()
    walker.walk_script(parse('f() { g "${@}" x; }; f a b'), ShellState(cwd="/w"))
    assert [s.values() for s in seen if s.name == "g"] == [["g", "a", "b", "x"]]
    def echoed(source: str, cwd: str | None) -> list:
        walker, _ = bare_walker()
        values: list = []
        walker.hooks.on_command = lambda step: values.append(step.values()[1]) or []
        walker.walk_script(parse(source), ShellState(cwd=cwd))
        return values

    assert echoed(f"for f in {tmp_path}/d/*.py d/*.py; do echo $f; done", str(tmp_path)) == [f"{tmp_path}/d/a.py", f"{tmp_path}/d/b.py", "d/a.py", "d/b.py"]
    assert echoed("for f in d/*.py; do echo $f; done", None) == [None]
    walker, seen = bare_walker()
    state = ShellState(cwd="/w")
    walker.walk_script(parse("cd /tmp & cd /; cd /tmp & x"), state)
    assert [(s.name, s.cwd) for s in seen] == [("cd", "/w"), ("cd", "/w"), ("cd", "/"), ("x", "/")]
    assert state.cwd == "/"
    # a cd to a directory that is not there may be refused: the list it ends goes on from either directory
    walker, seen = bare_walker()
    walker.walk_script(parse("cd /b; x; cd / && cd /c && y; z"), state := ShellState(cwd="/w"))
    assert [(s.name, s.cwd) for s in seen] == [("cd", "/w"), ("x", "/b"), ("x", "/w"), ("cd", "/b"), ("cd", "/w"),
                                               ("cd", "/"), ("y", "/c"), ("z", "/"), ("z", "/b"), ("z", "/c"), ("z", "/w")]


def test_arithmetic_assigns_the_names_it_holds(tmp_path: Path) -> None:
    def after(source: str, variables: dict) -> dict:
        walker, _ = bare_walker()
        state = ShellState(cwd="/w", variables=dict(variables))
        walker.walk_script(parse(source), state)
        return {k: state.variables.get(k) for k in variables}

    assert after("((X++))", {"X": "1", "Y": "2"}) == {"X": None, "Y": "2"}
    assert after("for ((X=0; X<2; X++)); do :; done", {"X": "1", "Y": "2"}) == {"X": None, "Y": "2"}
    assert after("[[ -n ${Y:=d} ]]", {"X": "1", "Y": "2"}) == {"X": "1", "Y": None}
    assert after("[[ X -eq 1 ]]", {"X": "1"}) == {"X": "1"}
    # an expression the back-end hands over whole is read as arithmetic
    for kind in ("arith", "arith_for"):
        walker, _ = bare_walker()
        state = ShellState(cwd="/w", variables={"Y": "1", "Z": "2"})
        walker.visit(shell_ast.Compound(span=(0, 5), kind=kind, words=[Word(raw="Y=1", span=(0, 3), value="Y=1")]), state, 0)
        assert state.variables == {"Y": None, "Z": "2"}, kind


def test_a_compounds_redirections_and_loop_variable() -> None:
    walker, _ = bare_walker()
    state = ShellState(cwd="/w")
    walker.walk_script(parse("while x; do y; done > out; if a; then b; fi 2> err"), state)
    assert [f for f in walker.findings if f.startswith("r:")] == ["r:>", "r:>"]
    assert [t[1] for t in walker.trace if t[0] == "redirect"] == ["/w", "/w"]


def test_for_items_at_their_edges(tmp_path: Path) -> None:
    make_dir(tmp_path / "d", [f"f{i:02}" for i in range(32)])
    make_dir(tmp_path / "e", [f"f{i:02}" for i in range(33)])

    def echoed(source: str, **kwargs) -> list:
        walker, _ = bare_walker()
        values: list = []
        walker.hooks.on_command = lambda step: values.append(step.values()[1]) or []
        walker.walk_script(parse(source), ShellState(cwd=str(tmp_path), **kwargs))
        return values

    assert echoed("for f in d/*; do echo $f; done") == [f"d/f{i:02}" for i in range(32)]
    assert echoed("for f in e/*; do echo $f; done") == [None]  # the round ends in the state it began in: walked once
    assert echoed("for f in $D/*; do echo $f; done", variables={"D": f"{tmp_path}/d"})[:2] == [f"{tmp_path}/d/f00", f"{tmp_path}/d/f01"]
    assert echoed("for f in ~/x; do echo $f; done") == ["/h/x"]


@pytest.mark.parametrize("loop", ["while x", "until x", "select v in a", "for v", "for ((;;))"])
def test_a_loop_body_is_walked_until_its_rounds_start_in_no_new_state(loop: str, tmp_path: Path) -> None:
    """A round starts in the loop's entry state or any state a round ended in: the second round's cd is judged
    in /w and /w/s (the directories the shell may be in, stop 25), the next ones in one more each, until they are
    more than MAX_CWDS (4): then from nowhere known, and a round after would start there again."""
    (tmp_path / "s/s/s/s/s/s").mkdir(parents=True)
    w = str(tmp_path)
    walker, seen = bare_walker()
    state = ShellState(cwd=w)
    walker.walk_script(parse(f"{loop}; do cd s; done"), state)
    rounds = [""], ["", "/s"], ["", "/s", "/s/s"], ["", "/s", "/s/s", "/s/s/s"]
    assert [s.cwd for s in seen if s.name == "cd"] == [w + cwd for round_ in rounds for cwd in round_] + [None]
    assert state.cwd is None and state.cwds == ()
    walker, seen = bare_walker()
    walker.walk_script(parse(f"{loop}; do cd s; cd ..; done"), state := ShellState(cwd=w, variables={"PWD": w}))
    # the first round ends where it began but with OLDPWD=/w/s: one round more, which ends as it began
    assert [s.cwd for s in seen if s.name == "cd"] == [w, w + "/s", w, w + "/s"]
    assert state.cwd == w


def test_a_loop_that_redefines_a_function_settles() -> None:
    """A merge makes a new Function (either body) each round: the rounds compare bodies, not Function objects, so
    the loop settles in its second round instead of running into the cap (review 24a's fix made it WG404)."""
    walker, seen = bare_walker()
    state = ShellState(cwd="/w", variables={"X": "/x"})
    walker.walk_script(parse("g(){ :; }; while c; do g(){ echo; }; done"), state)
    assert [s.name for s in seen].count("c") == 2
    assert state.variables["X"] == "/x"


def test_a_calls_positional_parameters() -> None:
    def steps_of(source: str) -> list[tuple]:
        walker, _ = bare_walker()
        out: list = []
        walker.hooks.on_command = lambda step: out.append((step.name, [w.raw for w in step.words], step.values())) or []
        walker.walk_script(parse(source), ShellState(cwd="/w"))
        return out

    assert steps_of('f() { g; echo "$@"; }; g() { :; }; f a b') == [
        ("f", ["f", "a", "b"], ["f", "a", "b"]), ("g", ["g"], ["g"]), (":", [":"], [":"]), ("echo", ["echo", "a", "b"], ["echo", "a", "b"])]
    assert steps_of('f() { rm "$@"; }; f a $X c') == [("f", ["f", "a", "$X", "c"], ["f", "a", None, "c"]), ("rm", ["rm", "a", '"$@"', '"$@"'], ["rm", "a", None, None])]
    assert steps_of('f() { echo $# "$*"; }; f a b') == [("f", ["f", "a", "b"], ["f", "a", "b"]), ("echo", ["echo", "$#", '"$*"'], ["echo", "2", "a b"])]
    assert steps_of('f() { echo $# "$*"; }; f a $X') == [("f", ["f", "a", "$X"], ["f", "a", None]), ("echo", ["echo", "$#", '"$*"'], ["echo", None, None])]
    assert steps_of('f() { echo $#; }; f') == [("f", ["f"], ["f"]), ("echo", ["echo", "$#"], ["echo", "0"])]


def test_positional_parameters_come_back_after_a_nested_call_and_locals_end_unknown() -> None:
    def echoed(source: str) -> list:
        walker, _ = bare_walker()
        values: list = []
        walker.hooks.on_command = lambda step: values.append(step.values()[1:]) if step.name == "echo" else None
        walker.walk_script(parse(source), ShellState(cwd="/w"))
        return values

    assert echoed('f() { g x; echo $# "$*" $1; }; g() { :; }; f a b') == [["2", "a b", "a"]]
    assert echoed("f() { local X; }; f; X+=a; echo $X") == [[None]]
    assert echoed("f() { local X=1; }; X=2; f; echo $X") == [[None]]
    assert echoed("f() { local X=2; X=3; unset X; X=2; }; X=2; f; echo $X") == [["2"]]


def test_a_wrappers_inner_command_runs_in_its_directory_with_the_walkers_home() -> None:
    def unwrap(step: ShellCommand):
        if step.name == "wrap":
            return Unwrapped(inner=[Inner(words=words_of("echo $(pwd) ~/x"), cwd="/elsewhere"),
                                    Inner(words=words_of("echo $(pwd)"), cwd="/ignored", same_shell=True)])
        return None

    walker, _ = bare_walker(unwrap)
    values: list = []
    walker.hooks.on_command = lambda step: values.append(step.values()) or []
    walker.walk_script(parse("wrap"), ShellState(cwd="/w"))
    assert values == [["wrap"], ["echo", "/elsewhere", "/h/x"], ["echo", "/w"]]


def test_a_function_a_wrapper_runs_counts_the_wrappers_depth() -> None:
    state = ShellState(cwd="/w")
    walker, _ = bare_walker()
    walker.walk_script(parse("f() { :; }"), state, 1)
    walker.inner(step_of("w f", state), Inner(words=words_of("f"), cwd="/w", same_shell=True), shell_walk.MAX_DEPTH - 2)
    with pytest.raises(BudgetExceeded, match="^functions call each other deeper than"):
        walker.inner(step_of("w f", state), Inner(words=words_of("f"), cwd="/w", same_shell=True), shell_walk.MAX_DEPTH - 1)


def test_heredoc_delimiter_and_brace_edges_the_last_pass_left() -> None:
    assert words.remove_quotes("'a'b'c'") == ("abc", True)
    assert words.remove_quotes("''") == ("", True)
    assert words.remove_quotes('"\\"') is None
    assert words.remove_quotes('"a\\') is None
    assert words.brace_fields("$(a \\) {b,c}){x,y}") == ["$(a \\) {b,c})x", "$(a \\) {b,c})y"]


def test_the_directories_a_merged_shell_may_be_in() -> None:
    """`ShellState.cwds`: set by a merge of outcomes that each know the directory, up to MAX_CWDS of them; emptied
    by every other change of the directory (a stale list would judge a command where the shell is not)."""
    from worktree_guard.shell.state import MAX_CWDS

    def merged(*cwds: str | None, start: tuple = ()) -> ShellState:
        states = [ShellState(cwd=c) for c in cwds]
        states[0].cwds = start if states[0].cwd is None else ()
        states[0].merge(states[1:])
        return states[0]

    def both(*cwds: str) -> tuple:
        return tuple((c, c) for c in cwds)  # (physical, logical): a state made without $PWD is where it is

    assert (merged("/a", "/b").cwd, merged("/a", "/b").cwds) == (None, both("/a", "/b"))
    assert merged("/a", "/a").cwds == () and merged("/a", "/a").cwd == "/a"
    assert merged("/a", None).cwds == ()  # one outcome does not know it
    assert merged(None, "/c", start=both("/a", "/b")).cwds == both("/a", "/b", "/c")
    assert merged(*[f"/{i}" for i in range(MAX_CWDS)]).cwds == both(*(f"/{i}" for i in range(MAX_CWDS)))
    assert merged(*[f"/{i}" for i in range(MAX_CWDS + 1)]).cwds == ()
    for change in (lambda s: s.chdir("/x"), lambda s: s.chdir(None), lambda s: s.assign("PWD", "/y"), lambda s: s.forget()):
        state = merged("/a", "/b")
        change(state)
        assert state.cwds == (), change
    copied = merged("/a", "/b").copy()
    assert copied.cwds == both("/a", "/b")
    # the same directory reached through a link is two places: `cd ..` climbs from each one's $PWD
    linked = ShellState(cwd="/r/d", variables={"PWD": "/l"})
    linked.merge([ShellState(cwd="/r/e", variables={"PWD": "/r/e"})])
    assert linked.cwds == (("/r/d", "/l"), ("/r/e", "/r/e")) and linked.logical() is None


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("$X", True), ("${X}", True), ("${X:-python3}", True), ("$X/bin/$Y", True), ("/tmp/stamp$$", True), ("$?x", True),
     ("$(pwd)", False), ("`pwd`", False), ("${X:-$Y}", False), ("$1", False), ("$*", False), ("$A", False), ("$$X", False)],
)
def test_a_word_the_agents_environment_gave(raw: str, expected: bool) -> None:
    """`inherited`: every expansion a variable the command never assigned ($A was assigned), no substitution, and no
    step that may have assigned a name only known at run time."""
    from worktree_guard.shell.steps import inherited

    state = ShellState(cwd="/w", variables={"A": None})
    word = Word(raw=raw, span=(0, len(raw)), value=None)
    assert inherited(word, state) is expected
    state.forget_names()
    assert inherited(word, state) is False


def test_the_stack_holds_pwd_and_not_a_guess_of_it() -> None:
    """pushd puts $PWD on the stack; where $PWD is not known (a merge of `cd link` and `cd target`), the entry is not
    known either, and a popd to it goes nowhere known (before: the physical directory, taken for $PWD)."""
    state = after_builtins("pushd /tmp; popd", ShellState(cwd="/w", variables={"PWD": None}))
    assert (state.cwd, state.dirstack) == (None, [])
    state = after_builtins("pushd /tmp; popd", ShellState(cwd="/w", variables={"PWD": "/l"}))
    assert (state.cwd, state.variables["PWD"]) == ("/l", "/l")



# -- phase 26 (m41b): `inherited`'s reading of text beside a variable (review 40a F4, 40b G1) ------------------------
#: (word, inherited with no variable assigned). A word whose text after its variables starts with `-` is an option when
#: they are empty or unset (`$NOPE-x`, `$NOPE'-x'`, `${NOPE:+-x}`): not taken as the environment's word. `${X:-w}`,
#: `${X-w}`, `${X:+w}`, `${X=w}` may give their word, `${X:?w}` never does (bash stops the command). A word that starts
#: with `-` (past quotes) is an option anyway and says so. `\-x$NOPE` (an escaped `-`, then a variable) is refused too.
INHERITED_ROWS = [
    ("${NOPE:?-x}", True), ("${NOPE?-x}", True), ("${NOPE:+-x}", False), ("${NOPE+-x}", False), ("${NOPE:=-x}", False),
    ("${NOPE=-x}", False), ("${NOPE:--x}", False), ('"-a"$NOPE', True), ("'-a'$NOPE", True), ("-$NOPE", True),
    ("\\-x$NOPE", False), ("$NOPE'-x'", False), ('$NOPE"-x"', False), ("X-$NOPE", True), ("$NOPE-x", False),
    ("$NOPE\\\n-x", False), ('"$NOPE"--t=x', False), ("$NOPE/-x", True),
]


@pytest.mark.parametrize(("raw", "expected"), INHERITED_ROWS, ids=[repr(row[0]) for row in INHERITED_ROWS])
def test_text_beside_a_variable_that_makes_the_word_an_option(raw: str, expected: bool) -> None:
    from worktree_guard.shell.steps import inherited

    word = Word(raw=raw, span=(0, len(raw)), value=None)
    assert inherited(word, ShellState(cwd="/w")) is expected
