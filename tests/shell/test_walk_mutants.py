"""The Bash walker's control flow (shell/walk.py), pinned for mutation testing (issue 13, phase 10).

The catalogue rows of tests/test_bash_rules.py that exercise the walker's control flow (and-or lists, `if`, loops,
`break`/`continue`/`return`/`exit`, traps, functions a branch defines; phase 11: traps in every state, the directories
a shell may be in, `case` fall-through, word splitting) run here against one repository per module,
in-process through the hook, so that a mutant of shell/walk.py runs them in a fraction of a second each; then the
rows and walker states written for the survivors of the mutation run, each with its exact codes or exact state.
"""

from __future__ import annotations

import os

from pathlib import Path

import pytest

import tests.test_bash_rules as catalogue
from tests.helpers import Repo, git, make_repo, plain_id

ROWS = [
    *(("control", c, e) for c, e in catalogue.CONTROL_FLOW_ROWS),
    *(("trap", c, e) for c, e in catalogue.TRAP_AT_EXIT_ROWS),
    *(("function", c, e) for c, e in catalogue.FUNCTION_BRANCH_ROWS),
    *(("reentry", c, e) for c, e in catalogue.REENTRY_ROWS),
    *(("prefix", c, e) for c, e in catalogue.PREFIX_INTO_CODE_ROWS),
    # stop 25 (phase 11): traps in every state, the directories a shell may be in, `case` fall-through, word splitting
    *(("trap-anywhere", c, e) for c, e in catalogue.TRAP_ANYWHERE_ROWS),
    *(("cwds", c, e) for c, e in catalogue.CWD_CANDIDATE_ROWS),
    *(("case", c, e) for c, e in catalogue.CASE_FALLTHROUGH_ROWS),
    *(("split", c, e) for c, e in catalogue.SPLIT_WORD_ROWS),
    *(("review-25a", c, e) for c, e in catalogue.REVIEW_25A_ROWS),
]


@pytest.fixture(scope="module")
def shared_repo(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    repo = make_repo(tmp_path_factory.mktemp("walk") / "work")
    (repo.worktree / "src").mkdir(exist_ok=True)
    (repo.worktree / "to-main").symlink_to(repo.main)
    (repo.worktree / "to-ssl").symlink_to("/etc/ssl")
    git("branch", "feature", cwd=repo.main)
    return repo


@pytest.fixture
def world(shared_repo: Repo, monkeypatch: pytest.MonkeyPatch) -> Repo:
    """tests/test_bash_rules.py's `world`, on a repository shared by the module (nothing here writes to it)."""
    monkeypatch.setenv("HOME", catalogue.OUTSIDE_HOME)
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.delenv("CDPATH", raising=False)
    return shared_repo


@pytest.mark.parametrize("kind,command,expected", ROWS, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(ROWS)])
def test_catalogue_rows(world: Repo, kind: str, command: str, expected) -> None:
    catalogue.assert_hook_row(world, command, expected)


# stop 26 (phase 12): bash's logical cd and a cd bash may refuse, `enable -n`, `dirs -c`, traps kept by subshells
# (LOGICAL_CD_ROWS), and review 26a's rows (REVIEW_26A_ROWS, with a link back up to W), each on a repository of the
# module shaped as test_bash_rules.py's `linked` fixture (W/src/a/b/c/d, W/deep -> src/a/b/c/d)


def linked_repo(base: Path, top: bool) -> Repo:
    repo = make_repo(base / "work")
    (repo.worktree / "src/a/b/c/d").mkdir(parents=True)
    (repo.worktree / "to-main").symlink_to(repo.main)
    (repo.worktree / "to-ssl").symlink_to("/etc/ssl")
    (repo.worktree / "deep").symlink_to("src/a/b/c/d")
    if top:
        (repo.worktree / "src/a/b/c/d/top").symlink_to("../../../../..")
    git("branch", "feature", cwd=repo.main)
    return repo


@pytest.fixture(scope="module")
def logical_repo(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    return linked_repo(tmp_path_factory.mktemp("logical"), top=False)


@pytest.fixture(scope="module")
def review_26a_repo(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    return linked_repo(tmp_path_factory.mktemp("review26a"), top=True)


def _linked(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> Repo:
    monkeypatch.setenv("HOME", catalogue.OUTSIDE_HOME)
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.delenv("CDPATH", raising=False)
    return repo


@pytest.mark.parametrize("command,expected", catalogue.LOGICAL_CD_ROWS, ids=[plain_id(c, 200) for c, _ in catalogue.LOGICAL_CD_ROWS])
def test_logical_cd_rows(logical_repo: Repo, monkeypatch: pytest.MonkeyPatch, command: str, expected) -> None:
    repo = _linked(logical_repo, monkeypatch)
    catalogue.assert_hook_row(repo, command.replace("{W}", str(repo.worktree)).replace("{MAIN}", str(repo.main)), expected)


@pytest.mark.parametrize("command,expected", catalogue.REVIEW_26A_ROWS, ids=[plain_id(c, 200) for c, _ in catalogue.REVIEW_26A_ROWS])
def test_review_26a_rows(review_26a_repo: Repo, monkeypatch: pytest.MonkeyPatch, command: str, expected) -> None:
    repo = _linked(review_26a_repo, monkeypatch)
    catalogue.assert_hook_row(repo, command.replace("{MAIN}", str(repo.main)), expected)


# -- rows written for the survivors (each: the codes on the real code; the mutant it kills gives others) ---------

WALK_ROWS = [
    # `break` with no count leaves the innermost loop only (jump: a count of None, "XX1XX", `> 1` broke them all)
    ("X=/tmp/safe; while :; do while :; do X={MAIN}/x; break; done; X=/tmp/safe; done; rm -f \"$X\"", "pass"),
    # `break 0` (bash: "loop count out of range", and the loop ends): every loop may end there (`>= 0` broke none)
    ("X=/tmp/safe; while :; do X={MAIN}/x; break 0; X=/tmp/safe; done; rm -f \"$X\"", {"WG403"}),
    # a count that is no number, or only known at run time: every loop (mutants that took int() of it raised)
    ("for i in 1; do break x; done; touch y", "pass"),
    ("for i in 1; do break $n; done; touch y", "pass"),
    # `break 2` leaves the second loop out, not the innermost as well (`[:2]`)
    ("X=/tmp/safe; while :; do for i in 1; do X={MAIN}/x; break 2; X=/tmp/safe; done; rm -f \"$X\"; done", "pass"),
    # a `break` is not a `continue`: the next value's round does not start from it; a `continue`'s does
    ("X=/tmp/safe; for i in a b; do rm -f \"$X\"; X={MAIN}/x; break; X=/tmp/safe; done", "pass"),
    ("X=/tmp/safe; for i in a b; do rm -f \"$X\"; X={MAIN}/x; continue; X=/tmp/safe; done", {"WG403"}),
    # a trap set in a function: the function's "$@" and $1 are back after its code was walked (_walk_trap)
    ("f(){ trap 'echo hi' INT; rm -f \"$@\"; }; f /tmp/x", "pass"),
    ("f(){ trap 'echo hi' INT; rm -f \"$1\"; }; f /tmp/x", "pass"),
    # …and unknown inside the trap's code (it runs wherever the shell is then)
    ("f(){ trap 'rm -f \"$1\"' INT; }; f /tmp/x", {"WG403"}),
    ("f(){ trap 'rm -f \"$@\"' INT; }; f /tmp/x", {"WG403"}),
    # trap's own prefix: unknown in the trap's code, and the variable it names afterwards unknown unless the prefix
    # gave it the value it had (POSIX mode keeps the prefix of a special builtin, bash drops it: stop 31)
    ("X=/tmp/safe; X=/tmp/other trap 'rm -rf \"$X\"' INT", {"WG403"}),
    ("X=/tmp/safe; X=1 trap 'echo' INT; rm -f \"$X\"", {"WG403"}),
    ("X=/tmp/safe; X=/tmp/safe trap 'echo' INT; rm -f \"$X\"", "pass"),
    ("X=1 trap 'unset X' INT; ls", "pass"),  # the prefixed name the trap's code unset is given back as it was: absent
    # a trap set in a loop's round is the shell's: it runs with the state the shell ends in (loop's _rebind_traps)
    ("X=/tmp/safe; while :; do trap 'rm -f \"$X\"' EXIT; break; done; X={MAIN}/x", {"WG401"}),
    # `until` ends after a condition that succeeds, in the state the condition left
    ("X=/tmp/safe; until X={MAIN}/x; [ -e nope ]; do X=/tmp/safe; done; rm -f \"$X\"", {"WG401"}),
    # a trap's code is walked again for the state an `exit` left, unless it is the same state: a function whose body
    # is a `{ …; }` there and a `( … )` at the end is another function (_shape keeps the node's type)
    # (a `cd`, which writes nothing: a write of the first walk makes the second's state another one anyway)
    ("X=/tmp; f(){ :; }; f; trap f EXIT; f(){ { X={MAIN}; }; cd \"$X\"; }; if :; then exit; fi; "
     "f(){ ( X={MAIN}; ); cd \"$X\"; }", {"WG201"}),
    # `env -u NAME` takes the prefix NAME out of what env runs (_reaching)
    ("X={MAIN}/x env -u X bash -c 'rm -f \"$X\"'", {"WG403"}),
    ("X[0]={MAIN}/x env -u X bash -c 'rm -f \"$X\"'", {"WG403"}),
    # an `exit` runs the EXIT trap of its own shell only: two subshells are two shells (_child numbers each one)
    ("( X=/tmp/s; trap 'rm -f \"$X\"' EXIT ); ( X={MAIN}/x; exit )", "pass"),
    # a trap set in an `else` (not the outcome the shell's state is taken from) is the shell's; one set in a subshell
    # inside a branch stays the subshell's (_rebind_traps)
    ("if false; then :; else trap 'git rm -q :/README.md' EXIT; fi; export GIT_DIR={MAIN}/.git GIT_WORK_TREE={MAIN}", {"WG302"}),
    ("if :; then ( X=/tmp/s; trap 'rm -f \"$X\"' EXIT ); fi; X={MAIN}/x", "pass"),
    # `A && B || C`: C runs where A or B failed (and_or's `&&`); a state that skipped a command stays a way out
    ("X=/tmp/s; [ -e x ] && X={MAIN}/x || rm -f \"$X\"", {"WG403"}),
    ("X={MAIN}/x; false && X=/tmp/s && true; rm -f \"$X\"", {"WG403"}),
    # every case body is an outcome, the second too
    ("X=/tmp/s; case $v in a) :;; b) X={MAIN}/x;; esac; rm -f \"$X\"", {"WG403"}),
    # a function never called is walked alone, its `local` declarations its own
    ("f(){ local X=/tmp/s; rm -f \"$X\"; }", "pass"),
    # a `for` over a glob whose quoted start is absolute, in a cwd not known: its values are read as relative to that
    # cwd (for_items: "$base" is "/"), so unknown (more cautious than keeping them absolute)
    ("cd \"$D\"; for f in \"{W}/\"*; do rm -f \"$f\"; done", {"WG202", "WG403"}),
    # a function call's prefix assignments are exported variables of its body; a name they changed is unknown after
    # the call (bash restores it, its POSIX mode keeps the new value), one they left as it was keeps its value
    ("X=/tmp/s; f(){ rm -f \"$X\"; }; X={MAIN}/x f", {"WG401"}),
    ("X=/tmp/s; f(){ :; }; X=/tmp/t f; rm -f \"$X\"", {"WG403"}),
    ("X=/tmp/s; f(){ :; }; X=/tmp/s f; rm -f \"$X\"", "pass"),
    ("f(){ unset X; }; X=1 f; rm -rf \"${X:-/tmp/s}\"", {"WG403"}),  # stop 26: bash brings the old X back after the call
    ("unset HOME; f(){ rm -f \"$X\"; }; X=~/x f", {"WG402"}),  # `~` with HOME unset: the user's home
    # a local of a variable known unset (TMPDIR, absent from the hook's environment) that the body unsets again leaves it
    # known unset after the call (_call_body: absent before and after)
    ("f(){ local TMPDIR; unset TMPDIR; }; f; rm -rf \"${TMPDIR:-/tmp}/x\"", "pass"),
    # a function that may not be defined shadows a builtin that evaluates a subscript as code: the builtin's evaluation
    # is walked too (simple: `found` makes it shadow)
    ("if [ -e x ]; then test(){ :; }; fi; test -v 'a[$(touch {MAIN}/x)]'", {"WG401"}),
    # a function named like a wrapper is judged as the function it is (its words are its operands), not as the wrapper:
    # the rules get no unwrapped inner command for it (simple)
    ("nice(){ :; }; nice cat {MAIN}/README.md", {"WG406"}),
    ("chroot(){ :; }; chroot /x ls", "pass"),
    # code a value runs when evaluated, which evaluates that value again, is walked again each time (not cut short as
    # code from a program's environment is): the budget ends it (string's from_env defaults to False)
    ("X='a[$(echo $((X)))]'; (( X ))", {"WG901"}),
    # `X=v eval …`: a name the prefix changed ends unknown, one it left as it was keeps its value (string, same shell)
    ("X=/tmp/s; X=/tmp/s eval 'true'; rm -f \"$X\"", "pass"),
    ("X=/tmp/s; X={MAIN}/x eval 'true'; rm -f \"$X\"", {"WG403"}),
    # BASHOPTS in a child shell's environment may turn lastpipe on there: `read` in the last stage may set X
    ("BASHOPTS=lastpipe bash -c 'X=/tmp/s; echo {MAIN}/x | read X; rm -f \"$X\"'", {"WG403"}),
    # lastpipe maybe on: a pipeline of one command (`! cmd`) still runs in this shell (visit)
    ("X={MAIN}/x; false && shopt -s lastpipe; ! X=/tmp/s; rm -f \"$X\"", "pass"),
    # a trap runs at the end with what every `exit` of its shell agrees on, the second exit too (walk_script)
    ("X=/tmp/s; trap 'rm -f \"$X\"' EXIT; if [ -e a ]; then exit; fi; X={MAIN}/x; if [ -e b ]; then exit; fi; X=/tmp/s", {"WG401", "WG403"}),  # stop 25: also walked where X={MAIN}/x
    # a function that gains a third body in the second round (a body of it defines another) is walked a third round
    # (_same_state compares an "either" function by its bodies)
    ("g(){ :; }; while [ -e x ]; do g; if [ -e y ]; then g(){ g(){ rm -f {MAIN}/x; }; }; fi; done", {"WG401"}),
    # two traps' code in the same state is two walks at the end
    ("X=/tmp/s; trap 'echo' INT; trap 'rm -f \"$X\"' EXIT; X={MAIN}/x", {"WG401"}),
    # a trap whose end state was walked already (the same code set in the parent) still runs with its exits' state
    ("X=/tmp/s; trap 'rm -f \"$X\"' EXIT; ( trap 'rm -f \"$X\"' EXIT; if [ -e a ]; then X={MAIN}/x; exit; fi; X=/tmp/s )", {"WG401", "WG403"}),  # stop 25: the trap also runs in the states after it was set
]


@pytest.mark.parametrize("command,expected", WALK_ROWS, ids=[f"walk-{i}" for i in range(len(WALK_ROWS))])
def test_walk_rows(world: Repo, command: str, expected) -> None:
    catalogue.assert_hook_row(world, command, expected)


# -- exact walker state ----------------------------------------------------------------------------------------

from worktree_guard.shell import walk as shell_walk  # noqa: E402
from worktree_guard.shell.parse import parse  # noqa: E402
from worktree_guard.shell.state import BudgetExceeded, ShellState  # noqa: E402
from worktree_guard.shell.steps import Script, Unwrapped  # noqa: E402

from tests.shell.test_shell_mutants import bare_walker  # noqa: E402


def test_widen_forgets_only_what_still_changes() -> None:
    before = ShellState(cwd="/w", hashed={"ls": "/bin/ls"}, namerefs={"r": "d"}, options={"dotglob"}, lastpipe=True)
    same = before.copy()
    same.variables["X"] = "/tmp/x"
    shell_walk._widen(same, before)
    assert (same.cwd, same.variables) == (None, {"X": None, "IFS": None})  # forget: IFS too (stop 25)
    assert (same.hashed, same.namerefs, same.options, same.lastpipe) == ({"ls": "/bin/ls"}, {"r": "d"}, {"dotglob"}, True)
    changed = ShellState(cwd="/w", hashed={"rm": "/bin/true"}, namerefs={"r": "e"}, options={"noglob"}, lastpipe=False)
    shell_walk._widen(changed, before)
    assert changed.hashed == {"rm": None, "*": None}
    assert changed.namerefs == {"r": None}
    assert changed.options == {"noglob", "*"}
    assert changed.lastpipe is None


def trap_script(source: str) -> Script:
    return Script(source=source, offset=0, cwd="/w", label="trap", same_shell=True, takes_prefixes=False)


def test_a_traps_code_nests_one_level_deeper() -> None:
    walker, _ = bare_walker()
    walker._walk_trap(trap_script("a"), ShellState(cwd="/w"), (), shell_walk.MAX_DEPTH - 1)
    assert walker.findings == ["c:a"]
    walker, _ = bare_walker()
    with pytest.raises(BudgetExceeded, match=f"^shell code nests deeper than {shell_walk.MAX_DEPTH} levels$"):
        walker._walk_trap(trap_script("a"), ShellState(cwd="/w"), (), shell_walk.MAX_DEPTH)


def test_a_traps_walk_gives_back_the_parameters_and_the_prefixed_names() -> None:
    seen: list = []
    walker, _ = bare_walker()
    walker.hooks.on_command = lambda step: seen.append((step.name, [step.value(w) for w in step.words], step.state.positional)) or []
    state = ShellState(cwd="/w", variables={"1": "a", "#": "1", "X": "/tmp/x"})
    words = parse("f a").body[0].words[1:]
    state.positional = words
    walker._walk_trap(trap_script('echo "$1" "$X" "$Y" "$@"'), state, ("X", "Y"), 0)
    assert seen == [("echo", ["echo", None, None, None, None], None)]
    assert state.positional is words
    assert state.variables == {"1": "a", "#": "1", "X": "/tmp/x"}


def test_a_loop_that_never_settles_walks_one_widened_round_and_goes_on_from_every_exit() -> None:
    """Each round writes something new (the hook adds to `written`), so no round start is ever stable: rounds 1–8,
    then one from the widened shell, then the loop ends with what its exits agree on."""
    walker, seen = bare_walker()
    walker.hooks.on_command = lambda step: seen.append(step.name) or step.state.written.append(f"/tmp/{len(seen)}") or []
    state = ShellState(cwd="/w", variables={"X": "/a"})
    walker.walk_script(parse("while c; do X=/b; done"), state)
    assert seen == ["c"] * (shell_walk.MAX_LOOP_ROUNDS + 1)
    assert state.variables["X"] is None and state.cwd is None


def env_walker(codes: dict[str, str]):
    """A walker whose program NAME runs the code codes[NAME] from its environment (as `less` runs LESSOPEN)."""
    def unwrap(step):
        code = codes.get(step.name)
        return Unwrapped(scripts=[Script(source=code, offset=0, cwd=step.cwd, from_env=True)]) if code else None

    walker, _ = bare_walker(unwrap=unwrap)
    echoed: list = []
    walker.hooks.on_command = lambda step: echoed.append(step.value(step.words[1])) if step.name == "echo" else None
    return walker, echoed


def test_code_from_the_environment_is_cut_short_only_for_the_same_code_in_the_same_state() -> None:
    walker, echoed = env_walker({"less": 'echo "$T"; T=2 less'})
    walker.walk_script(parse("T=1 less"), ShellState(cwd="/w"))
    assert echoed == ["1", "2"]  # T=2 walks it again in another state; the third walk would be the second's
    walker, echoed = env_walker({"less": "echo a; more", "more": "echo b; less"})
    walker.walk_script(parse("less"), ShellState(cwd="/w"))
    assert echoed == ["a", "b"]  # other code in the same state is walked; `less` inside it again is not
    assert walker._active == set()


def test_code_from_the_environment_keeps_its_depth() -> None:
    walker, _ = bare_walker()
    with pytest.raises(BudgetExceeded, match=f"^the command nests deeper than {shell_walk.MAX_DEPTH} levels$"):
        walker._walk_once("a", parse("a"), ShellState(cwd="/w"), shell_walk.MAX_DEPTH + 1)


def test_the_last_stage_with_lastpipe_maybe_on_keeps_its_depth() -> None:
    walker, seen = bare_walker()
    state = ShellState(cwd="/w", lastpipe=None)
    walker.visit(parse("a | b").body[0], state, 3)
    assert [(step.name, step.depth) for step in seen] == [("a", 3), ("b", 3)]


@pytest.mark.parametrize("source", ["X='a[$(x)]'; f(){ :; }; X=1 f", "X='a[$(x)]'; f(){ local X=1; }; f", "X=1; f(){ local X='a[$(x)]'; }; f"])
def test_a_value_that_runs_code_made_unknown_by_a_call_is_recorded_by_name(source: str) -> None:
    walker, _ = bare_walker()
    state = ShellState(cwd="/w")
    walker.walk_script(parse(source), state)
    assert (state.variables["X"], state.lost_code) == (None, ["X"])


def test_a_call_that_leaves_its_prefix_and_locals_as_they_were_keeps_them() -> None:
    walker, _ = bare_walker()
    state = ShellState(cwd="/w")
    walker.walk_script(parse("X=1; Y=2; f(){ local Y=3; }; X=1 f"), state)
    assert (state.variables["X"], state.variables["Y"], state.lost_code) == ("1", None, [])


# -- stop 25 (phase 11): a cd that may have failed, the directories a shell may be in, traps in every state ------

def directories(source: str) -> tuple:
    """The commands' cwds and what the shell ends with as far as directories go, walked from /w: a real directory
    holding a/b and b (since stop 26 a cd into a directory that is not there may be refused, and the shell is then
    followed in both places), its path shown as /w; a place the shell may be in is shown by its physical path when
    its $PWD is the same."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="wg-dirs-") as made:
        return _directories(source, os.path.realpath(made))


def _directories(source: str, base: str) -> tuple:
    for sub in ("a/b", "b"):
        os.makedirs(os.path.join(base, sub))

    def shown(value):
        if isinstance(value, str):
            return value.replace(base, "/w")
        if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, str) or v is None for v in value) and value[0] == value[1]:
            return shown(value[0])
        if isinstance(value, (list, tuple)):
            return type(value)(shown(v) for v in value)
        return value

    walker, seen = bare_walker()
    state = ShellState(cwd=base)
    walker.walk_script(parse(source), state)
    place = (state.cwd, state.cwds, state.oldpwd, state.dirstack, state.variables.get("PWD", "unset"), state.variables.get("OLDPWD", "unset"))
    return [(step.name, shown(step.cwd)) for step in seen], shown(place)


@pytest.mark.parametrize("source,cwds,place", [
    # after `||` the command before failed: a cd that fails stays, and the shell may be where the list was before it
    # (the directories it may be in too: here /w or /w/a before `cd b`)
    ("if c; then cd a; fi; cd b || e; f", [("c", "/w"), ("cd", "/w"), ("cd", "/w"), ("cd", "/w/a"), *(("e", d) for d in ("/w", "/w/a", "/w/a/b", "/w/b")),
                                            *(("f", d) for d in ("/w", "/w/a", "/w/a/b", "/w/b"))],
     (None, ("/w", "/w/a", "/w/a/b", "/w/b"), None, [], None, None)),
    ("cd a || e", [("cd", "/w"), ("e", "/w"), ("e", "/w/a")], (None, ("/w", "/w/a"), None, [], None, None)),  # PWD was unset
    # $PWD and $OLDPWD are the ones before or after, each on its own
    ("cd a; cd b || e", [("cd", "/w"), ("cd", "/w/a"), ("e", "/w/a"), ("e", "/w/a/b")], (None, ("/w/a", "/w/a/b"), None, [], None, None)),
    ("cd a; OLDPWD=/x || e", [("cd", "/w"), ("e", "/w/a")], ("/w/a", (), None, [], "/w/a", None)),  # PWD the same either way
    ("cd a; PWD=/x || e", [("cd", "/w"), ("e", None)], (None, (), "/w", [], None, "/w")),  # OLDPWD the same either way
    ("OLDPWD=/x || e", [("e", "/w")], ("/w", (), None, [], "unset", None)),  # PWD unset before and after
    ("pushd a; pushd b || e", [("pushd", "/w"), ("pushd", "/w/a"), ("e", "/w/a"), ("e", "/w/a/b")], (None, ("/w/a", "/w/a/b"), None, [None, None], None, None)),
])
def test_after_or_a_cd_may_have_failed_and_stayed(source: str, cwds: list, place: tuple) -> None:
    assert directories(source) == (cwds, place)


def trap_walker():
    """A walker whose `trap CODE …` sets a trap running CODE (what the indirection rule gives the walker)."""
    def unwrap(step):
        return Unwrapped(scripts=[trap_script(step.value(step.words[1]))]) if step.name == "trap" else None

    return bare_walker(unwrap=unwrap)


def test_a_trap_runs_in_each_state_after_it_was_set_up_to_MAX_TRAP_STATES_the_rest_merged_into_the_last() -> None:
    walker, seen = trap_walker()
    state = ShellState(cwd="/w")
    walker.walk_script(parse("trap t EXIT; " + "; ".join(f"X={i}" for i in range(1, 11))), state)
    kept = walker._since_trap[state.shell]
    assert shell_walk.MAX_TRAP_STATES == 8
    assert [s.variables.get("X", "unset") for s in kept] == ["unset", "1", "2", "3", "4", "5", "6", None]  # 7, 8 and 9 merged
    assert [step.name for step in seen] == ["trap"] + ["t"] * 10  # set, 8 states, and the end (X=10)


PHASE_11_ROWS = [
    # a body after three `;;&` starts from what all three ends agree on, the middle one too (compound: others[1:])
    ("X=/tmp/safe; case $v in a) Y=1 ;;& b) X={MAIN}/x ;;& c) X=/tmp/safe ;;& *) rm -f \"$X\" ;; esac", {"WG403"}),
    # an and-or list whose first command is `exit` stops nowhere before the next (and_or: `previous` starts as parts[0]);
    # what follows is still walked, from the state the exit left (bash never runs it: more cautious than needed)
    ("X=/tmp/s; exit 1 || X={MAIN}/x; rm -f \"$X\"", {"WG401"}),
    # a list ending in `exit` goes on where it stopped before it, from every such state: here after `[ -e a ]` failed
    # (X=/tmp/s) and after the assignment (taken as a command that may fail, X={MAIN}/x) (and_or: stopped[1:])
    ("X=/tmp/s; [ -e a ] && X={MAIN}/x && exit; rm -f \"$X\"", {"WG403"}),
    # `_leaves`: a group whose last command runs in the background does not leave the shell (`exit 1 &` is a child's)
    ("cd src/a/b || { echo no; exit 1 & }; rm -f ../../../x", {"WG401"}),
    # a group leaves when its last command does, not its second
    ("cd src/a/b || { echo a; echo b; exit 1; }; rm -f ../../../x", "pass"),
    # `return` leaves as `exit` does
    ("f(){ cd src/a/b || return; rm -f ../../../x; }; f", "pass"),
    # a trap set while the shell may be in two directories is the shell's (command: _rebind_traps), and runs with the
    # state it ends in
    ("X=/tmp/s; if [ -f a ]; then cd src; fi; trap 'rm -f \"$X\"' EXIT; X={MAIN}/x", {"WG401"}),
    # phase 10's survivors of `string`: `X=~/x eval …` with HOME unset expands `~` to the user's home
    ("unset HOME; X=~/x eval 'rm -f \"$X\"'", {"WG402"}),
    # BASHOPTS set for a child shell to a value only known at run time may turn any option on there, lastpipe and
    # expand_aliases among them (every command name unknown); set to a known value, only those it names (stop 29)
    ("BASHOPTS=$(cat f) bash -c 'X=/tmp/s; echo {MAIN}/x | read X; rm -f \"$X\"'", {"WG404"}),
    ("env BASHOPTS=extglob bash -c 'X=/tmp/s; echo {MAIN}/x | read X; rm -f \"$X\"'", "pass"),
    ("env BASHOPTS=extglob:lastpipe bash -c 'X=/tmp/s; echo {MAIN}/x | read X; rm -f \"$X\"'", {"WG403"}),
    # so does `bash -O lastpipe`
    ("bash -O lastpipe -c 'X=/tmp/s; echo {MAIN}/x | read X; rm -f \"$X\"'", {"WG403"}),
    # code a value runs when evaluated runs in a child shell (same_shell defaults to False), whose lastpipe is on only
    # if BASHOPTS may turn it on: not when the command never set BASHOPTS, maybe when it did
    ("Y=/tmp/s; X='a[$(echo {MAIN}/x | read Y; rm -f \"$Y\")]'; (( X ))", "pass"),
    ("BASHOPTS=lastpipe; Y=/tmp/s; X='a[$(echo {MAIN}/x | read Y; rm -f \"$Y\")]'; (( X ))", {"WG403"}),
    # a plain `bash -c` starts with lastpipe off: `read` in the last stage sets X in a subshell only (`invoked`)
    ("bash -c 'X=/tmp/s; echo {MAIN}/x | read X; rm -f \"$X\"'", "pass"),
    # a child shell's positional parameters are its own and unknown (`bash -c CODE ARG0 ARGS…`), not none, and not the
    # calling function's (`$1` empty would pass; bash removes <main> in both)
    ("bash -c 'rm -rf \"$@\"' sh {MAIN}", {"WG403"}),
    ("f(){ bash -c 'rm -rf \"$1\"' sh {MAIN}; }; f /tmp/s", {"WG403"}),
    # `X=~/x bash -c …` with HOME unset expands `~` to the user's home (string: _export_prefixes' home)
    ("unset HOME; X=~/x bash -c 'rm -f \"$X\"'", {"WG402"}),
    # the shell's own prefixes expand left to right: B gets the new A (_export_prefixes: `own`)
    ("A=/tmp/s; A={MAIN}/x B=$A bash -c 'rm -f \"$B\"'", {"WG401"}),
    # a wrapper's (`env A=… B=$A`) were words the shell expanded before any of them applied: B gets the old A
    ("A=/tmp/s; env A={MAIN}/x B=$A bash -c 'rm -f \"$B\"'", "pass"),
    ("A={MAIN}/x; env A=/tmp/s B=$A bash -c 'rm -f \"$B\"'", {"WG401"}),
    # `X+=v` as a prefix appends
    ("X={MAIN}; X+=/x bash -c 'rm -f \"$X\"'", {"WG401"}),
    # `_command` (phase 10 did not reach it): a substitution in a redirection's target is walked, in a child shell
    ("echo a > \"$(rm -f {MAIN}/x; echo /tmp/s)\"", {"WG401", "WG403"}),
    # `${X:=v}` assigns while the words expand, with a redirection or a heredoc beside them too
    ("X=; : ${X:={MAIN}/x} > /dev/null; rm -f \"$X\"", {"WG403"}),
    ("X=; : ${X:={MAIN}/x} <<EOF\nhi\nEOF\nrm -f \"$X\"", {"WG403"}),
    # `let X=1` assigns X (its words are arithmetic): X is no longer the one set before
    ("X=/tmp/s; let X=1; rm -f \"$X\"", {"WG403"}),
    # `evaluations`: two values run as code in one command are two walks (only the same code twice is one), and a
    # repeated one does not end the list
    ("Y='a[$(true)]'; X='a[$(touch {MAIN}/x)]'; (( Y + X ))", {"WG401"}),
    ("Y='a[$(true)]'; X='a[$(touch {MAIN}/x)]'; (( Y + Y + X ))", {"WG401"}),
    # code a value runs when evaluated runs in the shell's cwd (evaluations passes it on)
    ("X='a[$(rm -f x)]'; (( X ))", "pass"),
    # a command that is only "$@" in a function runs the call's words (_positional_expanded)
    ("f(){ \"$@\"; }; f rm -f {MAIN}/x", {"WG401", "WG406"}),
]


# ids by the command's text, not by position: mutmut's resumed run collects coverage only for test ids it has not seen,
# so a row inserted before others must not take over an older row's id (and its recorded coverage)
@pytest.mark.parametrize("command,expected", PHASE_11_ROWS, ids=[plain_id(c, 200) for c, _ in PHASE_11_ROWS])
def test_phase_11_rows(world: Repo, command: str, expected) -> None:
    catalogue.assert_hook_row(world, command, expected)


def test_a_case_body_walked_again_after_a_fall_through_keeps_its_depth() -> None:
    walker, seen = bare_walker()
    walker.visit(parse("case $v in a) x ;& b) y ;; esac").body[0], ShellState(cwd="/w"), 3)
    assert [(step.name, step.depth) for step in seen] == [("x", 3), ("y", 3), ("y", 3)]


def test_the_same_evaluated_code_twice_is_walked_once_and_two_unknown_ones_are_both_reported() -> None:
    walker, seen = bare_walker()
    walker.walk_script(parse("X='a[$(c)]'; (( X + X ))"), ShellState(cwd="/w"))
    assert [step.name for step in seen] == ["c", ":"]  # `c` once (the `:` is the arithmetic's own step)
    walker, _ = bare_walker()
    walker.walk_script(parse('echo "${!X}" "${Y@P}"'), ShellState(cwd="/w", variables={"X": None, "Y": None}))
    assert [f[0] if isinstance(f, tuple) else f for f in walker.findings] == ["unknown code", "unknown code", "c:echo"]


def test_code_a_value_runs_when_evaluated_nests_one_level_deeper() -> None:
    walker, seen = bare_walker()
    walker.walk_script(parse("X='a[$(c)]'; (( X ))"), ShellState(cwd="/w"), 3)
    assert [(step.name, step.depth) for step in seen] == [("c", 4), (":", 4)]  # the evaluated code and its own step


# -- stop 26 (phase 12): rows for the survivors, on the linked repository (W/src/a/b/c/d, W/deep -> src/a/b/c/d) --

PHASE_12_ROWS = [
    # a wrapper that starts its program elsewhere (`env -C`): a shell there takes $PWD from getcwd(), not the
    # caller's $PWD (W/deep names another directory), so its `cd ..` climbs from W/src/a/b (inner: PWD is inner.cwd)
    ("cd deep; env -C {W}/src/a/b bash -c 'cd ..; touch ../x'", "pass"),
    # _positional_expanded: a function that is only "$@" runs `bash -c CODE` from its call's words; the code is placed
    # in the command by the words' spans (phase 11's survivor: a span of None fails there)
    ("f(){ \"$@\"; }; f bash -c 'rm -f {MAIN}/README.md'", {"WG401"}),
    # redirects: a redirection's `~` with HOME unset is the user's home (phase 11's survivor: the walker's home left out)
    ("unset HOME; echo a > ~/x", {"WG402"}),
    ("unset HOME; PS4=~/x", "pass"),  # _command: a prompt's `~` is known (the user's home), so is the code it runs: none
    # visit: a negated pipeline's commands are walked (the rows of review 26a have a cd there, judged the same unwalked)
    ("! rm -f {MAIN}/README.md", {"WG401"}),
    ("! true | rm -f {MAIN}/README.md && touch x", {"WG401"}),
    # and_or: a list is taken to end in a cd that may be refused only when its last part set that; an assignment to
    # OLDPWD is no such cd (`cd_may_fail` starts False for the first part and for each later one)
    ("OLDPWD={W}/src; cd -; touch x", "pass"),
    ("exit 1 || OLDPWD={W}/src; cd -; touch x", "pass"),
    # …and is cleared once the list has taken it: a group or function whose last cd may be refused stays in the
    # directory before that cd (W/src), not also in the one before the group
    ("{ cd src; cd nonexist/a/b; }; touch ../x", "pass"),
    ("f(){ cd src; cd nonexist/a/b; }; f; touch ../x", "pass"),
    # string: a child bash's cd is physical with `-P`, `+P`, `-o physical` or SHELLOPTS in its environment (the guard
    # then does not know which reading `cd ..` takes from W/deep), else logical (W); an argument only known at run time
    # may be such an option (more cautious than bash for one after the code: that is $0)
    ("cd deep; bash -P -c 'cd ..; touch x'", {"WG202", "WG403"}),
    ("cd deep; bash +P -c 'cd ..; touch x'", {"WG202", "WG403"}),
    ("cd deep; bash -o physical -c 'cd ..; touch x'", {"WG202", "WG403"}),
    ("cd deep; SHELLOPTS=physical bash -c 'cd ..; touch x'", {"WG202", "WG403"}),
    ("cd deep; bash -c 'cd ..; touch x' \"$A\"", {"WG202", "WG403"}),
    # set to a value not known: any option, keyword among them (a command name may be an assignment: stop 29)
    ("cd deep; SHELLOPTS=$(cat f) bash -c 'cd ..; touch x'", {"WG404"}),
    ("cd deep; SHELLOPTS=braceexpand:hashall bash -c 'cd ..; touch x'", "pass"),  # named, and physical not among them
    # code a value runs when evaluated (no command to read the environment from): SHELLOPTS among the shell's names
    ("cd deep; SHELLOPTS=physical; X='a[$(cd ..; touch x)]'; (( X ))", {"WG202", "WG403"}),
    ("cd deep; X='a[$(cd ..; touch x)]'; (( X ))", "pass"),
    ("cd deep; bash -x -c 'cd ..; touch x'", "pass"),
    ("cd deep; bash -c 'cd ..; touch x' Psh", "pass"),
    ("cd deep; bash -c 'cd ..; touch x' XP", "pass"),  # no option: an option starts with - or +
    ("cd deep; bash -c 'cd ..; touch x' sh -p", "pass"),  # -p is not -P
    # …and its subshells keep its traps with `-T`, `-o functrace`, `-O extdebug` or BASHOPTS naming it (bash 5.2
    # checked for the first two with DEBUG; extdebug needs bashdb at startup, taken as maybe), or an unknown argument
    ("bash -T -c 'X=/tmp/x; trap \"rm -f \\$X\" DEBUG; (X={MAIN}/README.md; true)'", {"WG401"}),
    ("bash -o functrace -c 'X=/tmp/x; trap \"rm -f \\$X\" DEBUG; (X={MAIN}/README.md; true)'", {"WG401"}),
    ("bash -O extdebug -c 'X=/tmp/x; trap \"rm -f \\$X\" DEBUG; (X={MAIN}/README.md; true)'", {"WG401"}),
    ("BASHOPTS=extdebug bash -c 'X=/tmp/x; trap \"rm -f \\$X\" DEBUG; (X={MAIN}/README.md; true)'", {"WG401"}),
    ("bash -c 'X=/tmp/x; trap \"rm -f \\$X\" ERR; (X={MAIN}/README.md; false)' \"$A\"", {"WG401"}),
    ("bash -o errtrace -c 'X=/tmp/x; trap \"rm -f \\$X\" ERR; (X={MAIN}/README.md; false)'", {"WG401"}),
    ("bash -c 'X=/tmp/x; trap \"rm -f \\$X\" DEBUG; (X={MAIN}/README.md; true)'", "pass"),
    ("bash -e -c 'X=/tmp/x; trap \"rm -f \\$X\" ERR; (X={MAIN}/README.md; false)'", "pass"),  # -e is not -E
    ("bash -c 'X=/tmp/x; trap \"rm -f \\$X\" ERR; (X={MAIN}/README.md; false)' sh -t", "pass"),  # nor -t -T
    ("bash -x -c 'X=/tmp/x; trap \"rm -f \\$X\" ERR; (X={MAIN}/README.md; false)'", "pass"),
    ("bash -c 'X=/tmp/x; trap \"rm -f \\$X\" ERR; (X={MAIN}/README.md; false)' sh E", "pass"),
]


@pytest.mark.parametrize("command,expected", PHASE_12_ROWS, ids=[plain_id(c, 200) for c, _ in PHASE_12_ROWS])
def test_phase_12_rows(logical_repo: Repo, monkeypatch: pytest.MonkeyPatch, command: str, expected) -> None:
    repo = _linked(logical_repo, monkeypatch)
    catalogue.assert_hook_row(repo, command.replace("{W}", str(repo.worktree)).replace("{MAIN}", str(repo.main)), expected)


def test_code_run_in_another_directory_takes_pwd_from_there() -> None:
    """string: a shell the command starts elsewhere (a program's `-C DIR` code) finds $PWD naming another directory and
    takes getcwd(): its `cd ..` climbs from where it runs (/w/a/b -> /w/a), not from the caller's $PWD."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="wg-elsewhere-") as made:
        base = os.path.realpath(made)
        os.makedirs(os.path.join(base, "a/b"))

        def unwrap(step):
            return Unwrapped(scripts=[Script(source="cd ..; x", offset=0, cwd=base + "/a/b")]) if step.name == "run" else None

        walker, seen = bare_walker(unwrap=unwrap)
        walker.walk_script(parse("run"), ShellState(cwd=base, variables={"PWD": base}))
        assert [(step.name, step.cwd) for step in seen] == [("run", base), ("cd", base + "/a/b"), ("x", base + "/a")]


def test_code_a_value_runs_is_placed_at_the_name_that_runs_it() -> None:
    """evaluations: code that `(( X ))` runs from X's value is placed at X in the command (offset 17), so a parse failure
    there points at X (phase 11's survivor: the end of X's span, 18)."""
    walker, _ = bare_walker()
    walker.walk_script(parse("X='a[$(if)]'; (( X ))"), ShellState(cwd="/w"))
    assert [(f[0], f[2]) for f in walker.findings if isinstance(f, tuple)] == [("parse", 17)]


def test_each_directory_the_shell_may_be_in_is_walked_physically_with_its_own_pwd() -> None:
    """command: a command the shell may run in two directories is walked in each, its cwd the physical directory and
    its $PWD the logical one (after `cd deep`, deep -> a/b: cwd /w/a/b, $PWD /w/deep)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="wg-places-") as made:
        base = os.path.realpath(made)
        os.makedirs(os.path.join(base, "a/b"))
        os.symlink("a/b", os.path.join(base, "deep"))
        walker, _ = bare_walker()
        seen: list = []
        walker.hooks.on_command = lambda step: seen.append((step.name, step.cwd, step.state.variables.get("PWD"))) or []
        walker.walk_script(parse("if c; then cd deep; fi; x"), ShellState(cwd=base, variables={"PWD": base}))
        assert sorted(s for s in seen if s[0] == "x") == sorted([("x", base, base), ("x", base + "/a/b", base + "/deep")])


# -- phase 24 (m39c): rows for the functions changed since phase 12 (e2d84fd), on this module's repositories ----------
# phase 24 (m39c)

# Stop 27's fix (`inner`): a wrapper that starts bash where the shell is passes it the inherited, logical $PWD; `env -i`
# and `env -u PWD` take it away (test_bash_rules.py's rows, on the linked repository: W/deep -> src/a/b/c/d).
@pytest.mark.parametrize("command,expected", catalogue.PHASE_12_WALK_ROWS, ids=[plain_id(c, 200) for c, _ in catalogue.PHASE_12_WALK_ROWS])
def test_phase_12_walk_rows(logical_repo: Repo, monkeypatch: pytest.MonkeyPatch, command: str, expected) -> None:
    catalogue.assert_hook_row(_linked(logical_repo, monkeypatch), command, expected)


# Stop 29 (`_walk_unwrapped` hands the shell's command-line options to its code: `bash -O nocaseglob -c 'chmod +x
# TO-MAI?'` matches W's link to-main) and review 30a (`for_items`: a loop over a glob takes the names the same command
# wrote before in that directory, which the listing read now does not hold; after a write into that directory itself,
# whose names are not known, the loop's words are unknown: `"$f"` may be an option).
PHASE_24_ROWS = [
    *catalogue.SHELL_COMMAND_LINE_ROWS,
    ('touch ./-t..; for f in *; do cp "$f" src/; done', {"WG401"}),  # cp -t .. src/: the loop takes the new name
    ('mv src/x .; for f in *; do cp "$f" src/; done', {"WG403"}),  # a write into the glob's directory: names not known
    ('cp -r src/. .; for f in *; do cp "$f" src/; done', {"WG403"}),
    ('for f in *; do cp "$f" src/; done', "pass"),
]


@pytest.mark.parametrize("command,expected", PHASE_24_ROWS, ids=[plain_id(c, 200) for c, _ in PHASE_24_ROWS])
def test_phase_24_rows(world: Repo, command: str, expected) -> None:
    catalogue.assert_hook_row(world, command, expected)
