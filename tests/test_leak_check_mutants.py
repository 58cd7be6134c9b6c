"""Tests written from the mutation run of `subagents/leak_check` (issue 13, phase 18): the lifecycle plugin that
records a sub-agent's start, places its later calls as it started, and compares the shared checkouts at its stop.
Each test kills mutants that tests/test_subagent_mutants.py, tests/test_leaks.py and tests/test_started_isolated.py
left alive. The functions are called in this process (mutmut's coverage selection reaches them) on real git
repositories with real linked worktrees: one world built once for the module and never changed, and a repository
of a test's own where a test writes into the shared checkouts."""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace as NS

import pytest

from tests.helpers import Repo, git, isolated_environment, make_repo
from worktree_guard.engine import scope_for
from worktree_guard.layout import Layout, LayoutUnknown
from worktree_guard.model import AgentEvent, EventVerdict
from worktree_guard.subagents import leak_check as lc
from worktree_guard.subagents.places import started_path
from worktree_guard.subagents.snapshots import CheckoutState, snapshot
from worktree_guard.subagents.state import SubagentSnapshot, SubagentStore

SESSION = "s-leak"
ME = "a1234567890abcdef"  # make_repo's W is .claude/worktrees/agent-<ME>


@dataclass
class World:
    repo: Repo
    common: str  # the repository's common git dir
    inner: str  # a checkout nested in W (a repository the sub-agent made there)
    bare_common: str  # a bare repository whose only checkout is the linked worktree below
    bare_wt: str  # .../agent-b0: the one checkout of the bare repository
    no_config: str  # a "common dir" whose config is a directory: it cannot be read
    bad_gitdir: str  # a "common dir" whose worktrees/x/gitdir is a directory


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    base = Path(os.path.realpath(tmp_path_factory.mktemp("leak-check")))
    with isolated_environment(base / "home"):  # built before any test's own isolation applies
        repo = make_repo(base / "work")
        inner = repo.worktree / "sub" / "inner"
        inner.mkdir(parents=True)
        git("init", "-q", "-b", "main", cwd=inner)
        bare = base / "b.git"
        git("clone", "-q", "--bare", str(repo.main), str(bare), cwd=base)
        git("worktree", "add", "-q", str(base / "agent-b0"), "main", cwd=bare)
    no_config = base / "no-config.git"
    (no_config / "config").mkdir(parents=True)
    bad_gitdir = base / "bad-gitdir.git"
    (bad_gitdir / "worktrees" / "x" / "gitdir").mkdir(parents=True)
    (bad_gitdir / "config").write_text("[core]\n\tbare = true\n")
    return World(repo, str(repo.main / ".git"), str(inner), str(bare), str(base / "agent-b0"), str(no_config), str(bad_gitdir))


def _event(name: str, agent_id: str = ME, agent_type: str | None = "coder", cwd: str = "/") -> AgentEvent:
    return AgentEvent(runtime="claude-code", event=name, cwd=cwd, agent_id=agent_id, agent_type=agent_type, session_id=SESSION)


def _windows() -> list[dict]:
    """The session's window log, each line without its time (checked to be a recent one)."""
    lines = []
    with open(os.path.join(SubagentStore(SESSION).session_dir, "windows.jsonl"), encoding="utf-8") as f:
        for line in f:
            entry = json.loads(line)
            assert abs(entry.pop("time") - time.time()) < 60
            lines.append(entry)
    return lines


def _state(s: CheckoutState) -> tuple:
    return (s.root, s.head is not None and len(s.head) == 40, s.branch, dict(s.dirty), s.error)


# --- where a call of a sub-agent that started isolated is placed --------------------------------------------------


def test_checkout_between_looks_for_a_git_entry_from_the_cwd_up_to_below_the_top(tmp_path, monkeypatch) -> None:
    """Kills checkout_between 2, 3, 11-15, 18 (and/or for the loop's test, `.git` spelt otherwise, the answers)."""
    monkeypatch.chdir(tmp_path)  # a `.git` looked up relative to the process's cwd is not there
    top = tmp_path / "top"
    (top / "a" / "b" / "c").mkdir(parents=True)
    (top / "plain" / "d").mkdir(parents=True)
    (top / "a" / ".git").write_text("gitdir: nowhere\n")  # only its existence counts
    (tmp_path / ".git").mkdir()  # above the top: not between
    (top / ".git").mkdir()  # the top's own: not between
    assert lc.checkout_between(str(top), str(top / "a" / "b" / "c")) is True
    assert lc.checkout_between(str(top), str(top / "a")) is True  # cwd included
    assert lc.checkout_between(str(top), str(top / "plain" / "d")) is False
    assert lc.checkout_between(str(top), str(top)) is False
    assert lc.checkout_between(str(top / "plain"), str(tmp_path / "elsewhere")) is False  # outside: nothing to look at
    (top / "x" / "y").mkdir(parents=True)
    os.symlink("nowhere", top / "x" / ".git")  # a dangling link is an entry
    assert lc.checkout_between(str(top), str(top / "x" / "y")) is True


def test_placed_as_started_keeps_w_and_lists_the_repository_s_checkouts_again(world: World, tmp_path) -> None:
    """Kills placed_as_started 10, 15, 34, 39, 46, 47, 51, 52 (the nested-checkout test, `now`, the filters of W,
    the common dir and source passed on)."""
    r = world.repo
    found = {"worktree_root": str(r.worktree), "common_dir": world.common, "shared_roots": [str(r.main), "/extra"]}
    assert lc.placed_as_started(found, str(r.worktree / "sub"), "src") is None  # in W: placed as usual
    assert lc.placed_as_started(found, str(r.worktree), "src") is None
    want = Layout(worktree_root=str(r.worktree), shared_roots=[str(r.main), "/extra", str(r.sibling), str(r.outside)], linked=True, common_dir=world.common, source="src")
    assert lc.placed_as_started(found, str(tmp_path), "src") == want
    assert lc.placed_as_started(found, str(tmp_path), "src").source == "src"
    assert lc.placed_as_started(found, world.inner, "src") == want  # a checkout nested in W does not free it
    (tmp_path / "l").symlink_to(r.worktree / "sub")
    assert lc.placed_as_started(found, str(tmp_path / "l"), "src") is None  # read where it leads
    (r.worktree / "sub" / "out").symlink_to(tmp_path)
    try:
        assert lc.placed_as_started(found, str(r.worktree / "sub" / "out"), "src") == want  # W/out -> elsewhere
    finally:
        (r.worktree / "sub" / "out").unlink()
    alone = {"worktree_root": str(r.worktree), "common_dir": None, "shared_roots": [str(r.worktree), "/s1", "/s2"]}
    assert lc.placed_as_started(alone, str(tmp_path), "x") == Layout(worktree_root=str(r.worktree), shared_roots=["/s1", "/s2"], linked=True, common_dir=None, source="x")
    bare = {"worktree_root": "/gone", "common_dir": world.bare_common, "shared_roots": []}
    got = lc.placed_as_started(bare, str(tmp_path), "y")  # a bare repository: no main worktree to list
    assert got == Layout(worktree_root="/gone", shared_roots=[world.bare_wt], linked=True, common_dir=world.bare_common, source="y")


def test_placed_as_started_refuses_a_repository_whose_checkouts_cannot_be_listed(world: World, tmp_path) -> None:
    """Kills placed_as_started 20, 22, 25, 27, 29, 32 (strict listing: a shared root left out would pass a write)."""
    for common, unread in ((world.no_config, "config"), (world.bad_gitdir, "worktrees/x/gitdir")):
        found = {"worktree_root": str(world.repo.worktree), "common_dir": common, "shared_roots": []}
        with pytest.raises(LayoutUnknown) as raised:
            lc.placed_as_started(found, str(tmp_path), "src")
        assert str(raised.value) == f"{common}/{unread} cannot be read (Is a directory)"


def _call(agent_id: str = ME, cwd: str = "/", session: str | None = SESSION, parent: str | None = None) -> NS:
    return NS(agent_id=agent_id, session_id=session, parent_id=parent, cwd=cwd)


def test_started_layout_places_a_call_with_its_recorded_worktree_and_says_so(world: World, tmp_path) -> None:
    """Kills worktree_guard_started_layout 16, 20, 21 (the layout's source, in words)."""
    r = world.repo
    assert lc.worktree_guard_started_layout(_call(cwd=str(tmp_path))) is None  # nothing recorded
    SubagentStore(SESSION).record_start(ME, {"worktree_root": str(r.worktree), "common_dir": world.common, "shared_roots": [str(r.main)]})
    got = lc.worktree_guard_started_layout(_call(cwd=str(tmp_path)))
    assert got == Layout(worktree_root=str(r.worktree), shared_roots=[str(r.main), str(r.sibling), str(r.outside)], linked=True, common_dir=world.common,
                         source="recorded at the sub-agent's start (its cwd is outside that worktree, or in a checkout inside it)")
    assert got.source == "recorded at the sub-agent's start (its cwd is outside that worktree, or in a checkout inside it)"
    assert lc.worktree_guard_started_layout(_call(cwd=str(r.worktree / "sub"))) is None
    assert lc.worktree_guard_started_layout(_call(agent_id="", cwd=str(tmp_path))) is None


def test_a_sub_agent_with_a_start_record_is_confined(tmp_path) -> None:
    """Kills worktree_guard_confined_agent 3, 5, 6, 9, 10, 11 (no record is None; a record, even a dangling link, or
    one under the dispatcher's session, is True)."""
    assert lc.worktree_guard_confined_agent(_call()) is None
    assert lc.worktree_guard_confined_agent(_call(agent_id="")) is None
    SubagentStore(SESSION).record_start(ME, {"worktree_root": "/w", "common_dir": None, "shared_roots": []})
    assert lc.worktree_guard_confined_agent(_call()) is True
    assert lc.worktree_guard_confined_agent(_call(agent_id="other")) is None
    assert lc.worktree_guard_confined_agent(_call(session="copilot-sub", parent=SESSION)) is True  # the dispatcher's session
    assert lc.worktree_guard_confined_agent(_call(session="copilot-sub", parent="p2")) is None
    os.makedirs(os.path.dirname(started_path("s2", "b")), exist_ok=True)
    os.symlink(str(tmp_path / "nowhere"), started_path("s2", "b"))
    assert lc.worktree_guard_confined_agent(_call(agent_id="b", session="s2")) is True


def test_checkouts_of_a_bare_repository_are_its_linked_worktrees(world: World) -> None:
    """Kills checkouts_of 6 (no main worktree is no entry)."""
    assert lc.checkouts_of(world.bare_common, ["/f"]) == [world.bare_wt]
    r = world.repo
    assert lc.checkouts_of(world.common, ["/f"]) == [str(r.main), str(r.worktree), str(r.sibling), str(r.outside)]


# --- SubagentStart --------------------------------------------------------------------------------------------------


def test_a_start_in_the_only_checkout_of_a_bare_repository_names_no_other(world: World) -> None:
    """Kills on_start 89, 90 ("none"), and pins the records of an ordinary start: the window (on_start 39, 44), the
    snapshot's session (on_start 63), the start record."""
    scope = scope_for(world.bare_wt, "coder")
    event = _event("SubagentStart", agent_id="b0", cwd=world.bare_wt)
    got = lc.worktree_guard_agent_event(event, scope)
    assert got == EventVerdict(context=(
        f"worktree-guard: you work in your own git worktree {world.bare_wt}; write, commit and run git only there. "
        "The other checkouts of this repository (none) belong to others: do not write, switch or commit in them. "
        "When you stop, they are compared with their state now."))
    assert _windows() == [{"agent_id": "b0", "agent_type": "coder", "event": "start", "isolated": True, "worktree": world.bare_wt}]
    saved = SubagentStore(SESSION).load("b0")
    assert (saved.session_id, saved.agent_id, saved.agent_type, saved.cwd, saved.worktree_root, saved.common_dir, saved.checkouts, saved.blocks) == (
        SESSION, "b0", "coder", world.bare_wt, world.bare_wt, world.bare_common, [], 0)
    assert abs(saved.started - time.time()) < 60
    with open(started_path(SESSION, "b0"), encoding="utf-8") as f:
        assert json.load(f) == {"worktree_root": world.bare_wt, "common_dir": world.bare_common, "shared_roots": []}


def test_a_start_outside_any_repository_isolated_by_configuration_is_told_and_recorded(tmp_path) -> None:
    """Kills on_start 5 (no common dir: the roots the layout names), 39/44 (isolated=True in the window), 63."""
    scope = NS(layout=Layout(worktree_root=None), isolation=NS(isolated=True), cwd=str(tmp_path))
    got = lc.on_start(_event("SubagentStart", cwd=str(tmp_path)), scope)
    assert got == EventVerdict(context=f"worktree-guard: you were meant to work in your own git worktree, but your isolation was not applied: you run in {tmp_path}. Stop and report this instead of changing files.")
    assert _windows() == [{"agent_id": ME, "agent_type": "coder", "event": "start", "isolated": True, "worktree": None}]
    saved = SubagentStore(SESSION).load(ME)
    assert (saved.session_id, saved.worktree_root, saved.common_dir, saved.checkouts, saved.cwd) == (SESSION, None, None, [], str(tmp_path))
    assert not os.path.lexists(started_path(SESSION, ME))  # no W to keep it in
    not_isolated = NS(layout=Layout(worktree_root=None), isolation=NS(isolated=False), cwd=str(tmp_path))
    assert lc.on_start(_event("SubagentStart", agent_id="n1", agent_type=None, cwd=str(tmp_path)), not_isolated) is None
    assert _windows()[1] == {"agent_id": "n1", "agent_type": None, "event": "start", "isolated": False, "worktree": None}
    assert SubagentStore(SESSION).load("n1") is None


def test_a_start_lists_every_checkout_of_the_repository_and_the_roots_configuration_added(world: World, tmp_path) -> None:
    """Kills on_start 4 (the checkouts listed from the common dir, not only the layout's roots)."""
    r = world.repo
    extra = tmp_path / "extra"  # a shared root that configuration names, no checkout
    extra.mkdir()
    layout = Layout(worktree_root=str(r.worktree), shared_roots=[str(r.main), str(extra)], linked=True, common_dir=world.common)
    scope = NS(layout=layout, isolation=NS(isolated=False), cwd=str(r.worktree))
    got = lc.on_start(_event("SubagentStart", cwd=str(r.worktree)), scope)
    others = f"{r.main}, {r.sibling}, {r.outside}, {extra}"
    assert got.context == (f"worktree-guard: you work in your own git worktree {r.worktree}; write, commit and run git only there. "
                           f"The other checkouts of this repository ({others}) belong to others: do not write, switch or commit in them. "
                           "When you stop, they are compared with their state now.")
    saved = SubagentStore(SESSION).load(ME)
    assert [c.root for c in saved.checkouts] == [str(r.main), str(r.sibling), str(r.outside), str(extra)]
    assert saved.checkouts[3].error is not None and saved.checkouts[3].error.startswith("git status failed: ")
    assert [_state(c) for c in saved.checkouts[:3]] == [(str(r.main), True, "main", {}, None), (str(r.sibling), True, "worktree-agent-afedcba0987654321", {}, None),
                                                        (str(r.outside), True, "outside", {}, None)]
    with open(started_path(SESSION, ME), encoding="utf-8") as f:
        assert json.load(f) == {"worktree_root": str(r.worktree), "common_dir": world.common, "shared_roots": [str(r.main), str(r.sibling), str(r.outside), str(extra)]}


# --- SubagentStop ---------------------------------------------------------------------------------------------------


def test_a_stop_without_a_start_only_records_the_window(tmp_path) -> None:
    """Kills on_stop 7 (the stop's agent type in the window)."""
    assert lc.worktree_guard_agent_event(_event("SubagentStop", cwd=str(tmp_path)), NS()) is None
    assert _windows() == [{"agent_id": ME, "agent_type": "coder", "event": "stop"}]


def test_a_clean_stop_is_silent_and_closes_the_window(world: World) -> None:
    """Kills _finish 1, 2, 3, 7, 8 (the stop's window line), on a real start and stop in the world."""
    r = world.repo
    scope = scope_for(str(r.worktree), "coder")
    assert lc.worktree_guard_agent_event(_event("SubagentStart", cwd=str(r.worktree)), scope).context.startswith("worktree-guard: you work in your own git worktree")
    assert lc.worktree_guard_agent_event(_event("SubagentStop", cwd=str(r.worktree)), scope) == EventVerdict()
    assert _windows() == [{"agent_id": ME, "agent_type": "coder", "event": "start", "isolated": True, "worktree": str(r.worktree)},
                          {"agent_id": ME, "agent_type": "coder", "event": "stop"}]
    assert SubagentStore(SESSION).load(ME) is None
    assert SubagentStore(SESSION).overlapping("other", 0, time.time() + 1)[0]["stop"] is not None  # finished


def test_a_stop_that_cannot_read_some_checkouts_says_which(world: World, tmp_path) -> None:
    """Kills on_stop 17 (no common dir: the recorded roots), 38, 45, 46, 48, 49, 50 (the note, its roots joined)."""
    plain = tmp_path / "plain"  # was a checkout at the start; git cannot read it at the stop
    plain.mkdir()
    r = world.repo
    # No common dir recorded: the recorded roots are what a dirty path may be a checkout of (W's nested repository).
    assert list(snapshot([str(r.worktree)], [str(r.worktree)], fingerprints=False)[0].dirty.items()) == [("sub/inner/", ("??", ""))]  # as git lists it
    before = snapshot([str(r.worktree), world.inner], [str(r.worktree), world.inner])
    assert [s.dirty for s in before] == [{}, {}]
    checkouts = [CheckoutState(root="/unread", error="git status failed"), CheckoutState(root=str(plain), head="0" * 40, branch="main"), *before,
                 CheckoutState(root=str(tmp_path / "gone"), head="0" * 40, branch="main")]
    SubagentStore(SESSION).save(SubagentSnapshot(session_id=SESSION, agent_id=ME, agent_type="coder", started=time.time(), cwd="/", worktree_root="/w", common_dir=None, checkouts=checkouts))
    got = lc.on_stop(_event("SubagentStop"), NS(settings=NS(mode="enforce")))
    assert got == EventVerdict(user_message=f"worktree-guard could not read /unread, {plain} around sub-agent {ME}; it was not checked.")
    assert SubagentStore(SESSION).load(ME) is None


def _start(repo: Repo, agent_type: str | None) -> None:
    scope = scope_for(str(repo.worktree), agent_type)
    assert lc.on_start(_event("SubagentStart", agent_type=agent_type, cwd=str(repo.worktree)), scope) is not None


def test_a_stop_with_leaks_is_blocked_once_then_warns_naming_the_others_and_every_code(tmp_path) -> None:
    """Kills on_stop 16 (a worktree added while it ran is listed at the stop: no leak), 65, 66 (an agent of no type),
    69 (the others), 71 (the codes joined), 86, 87 (the second stop's warning and its violations), and checks the
    block counted."""
    repo = make_repo(tmp_path / "r")
    store = SubagentStore(SESSION)
    store.record_window("b9", "tester", "start", isolated=False, worktree=None)  # another sub-agent, still running
    _start(repo, None)
    git("worktree", "add", "-q", "-b", "next", str(repo.main / "next-wt"), cwd=repo.main)  # the next sub-agent's worktree
    (repo.outside / "f.txt").write_text("x")
    git("add", "f.txt", cwd=repo.outside)
    git("commit", "-q", "-m", "leak", cwd=repo.outside)
    (repo.main / "leak.txt").write_text("x")
    scope = scope_for(str(repo.worktree), None)
    summary = (f"worktree-guard: sub-agent agent ({ME}) left changes in shared checkouts: {repo.main}/leak.txt; {repo.outside} HEAD moved"
               " (other sub-agents running then: tester b9) [worktree-guard WG601 WG602]")
    first = lc.on_stop(_event("SubagentStop", agent_type=None), scope)
    assert (first.decision, first.codes, first.user_message) == ("block", ["WG602", "WG601"], summary)
    assert [v.path for v in first.violations] == [f"{repo.main}/leak.txt", str(repo.outside)]
    assert first.reason.endswith("\n[worktree-guard WG601 WG602]") and "tester b9 (not isolated, still running)" in first.reason
    assert store.load(ME).blocks == 1
    second = lc.on_stop(_event("SubagentStop", agent_type=None), scope)
    assert second == EventVerdict(decision="warn", violations=first.violations, user_message=summary)
    assert store.load(ME) is None
    assert _windows()[-1] == {"agent_id": ME, "agent_type": None, "event": "stop"}


def test_in_warn_mode_the_first_stop_warns_with_the_violations(tmp_path) -> None:
    """Kills on_stop 86, 87 on the warn-mode branch's first stop."""
    repo = make_repo(tmp_path / "r")
    _start(repo, "coder")
    (repo.sibling / "w.txt").write_text("x")
    got = lc.on_stop(_event("SubagentStop"), NS(settings=NS(mode="warn")))
    summary = f"worktree-guard: sub-agent coder ({ME}) left changes in shared checkouts: {repo.sibling}/w.txt [worktree-guard WG602]"
    assert (got.decision, got.codes, got.reason, got.user_message) == ("warn", ["WG602"], None, summary)
    assert got.violations[0].suggestion == f"{repo.worktree}/w.txt"
    assert SubagentStore(SESSION).load(ME) is None
