"""Tests written from the mutation run of `worktree_guard/subagents/linking.py` (issue 13, phase 18): each pins a
part of how a sub-agent's later calls find its worker again (SPEC §11) that `tests/test_subagent_mutants.py` left
open. A real repository with real linked worktrees (tests/helpers.py) gives the checkouts and the common dir; the
wave registry and the wave index are the real ones, in this test's state directory; every call is in-process."""

from __future__ import annotations

import dataclasses
import time
from types import SimpleNamespace as NS

import pytest

from tests.helpers import Repo, make_repo
from worktree_guard.config import AgentSettings, Settings
from worktree_guard.model import AgentEvent
from worktree_guard.subagents import linking as lk
from worktree_guard.subagents import registry as reg
from worktree_guard.subagents.index import WaveIndex
from worktree_guard.subagents.linking import Worker
from worktree_guard.subagents.ownership import Ownership

NOTHING = "nothing: this session dispatched workers with ownerships, and this sub-agent could not be linked to its dispatch"
NO_LINK = "nothing (the runtime recorded no link yet)"


@pytest.fixture
def world(tmp_path) -> tuple[Repo, str, str]:
    """(the repository, its common dir, the wave state root)."""
    repo = make_repo(tmp_path / "work")
    return repo, str(repo.main / ".git"), str(tmp_path / "state" / "waves")


def _agent(agent_id: str = "a1", **extra) -> AgentEvent:
    fields = dict(runtime="claude-code", event="SubagentStart", cwd="/c", agent_id=agent_id, agent_type="coder", session_id="s")
    fields.update(extra)
    return AgentEvent(**fields)


def _pm(found: lk.DispatchLink | None):
    return NS(hook=NS(worktree_guard_find_dispatch=lambda agent: found))


def _dispatch(did: str, checkout: str, **extra) -> reg.Dispatch:
    fields = dict(dispatch_id=did, checkout=checkout, owns=["src/**"], owns_source="its block", session_id="s", dispatcher="p",
                  agent_type="coder", time=time.time())
    fields.update(extra)
    return reg.Dispatch(**fields)


def _registry(common: str, root: str, *dispatches: reg.Dispatch, agents: tuple[reg.Agent, ...] = ()) -> reg.Registry:
    r = reg.Registry(common, root)
    with r.changing() as w:
        for d in dispatches:
            w.dispatches[d.dispatch_id] = d
        for a in agents:
            w.agents[a.agent_id] = a
    return r


def test_link_by_description_keeps_to_the_dispatches_made_before_the_sub_agent_s_recorded_start(world) -> None:
    # Kills link 51 (`described(workers, agent, None, prompt)`): the start recorded at SubagentStart leaves one of two
    # otherwise alike dispatches.
    repo, common, root = world
    now = time.time()
    main = str(repo.main)
    r = _registry(common, root, _dispatch("t-old", main, time=now - 1000), _dispatch("t-new", main, time=now - 10),
                  agents=(reg.Agent(agent_id="a1", session_id="s", started=now),))
    workers, did, how = lk.link(_agent(parent_id="p"), r, None)
    assert (did, how) == ("t-new", "its dispatcher p")
    assert workers.agents["a1"] == reg.Agent(agent_id="a1", session_id="s", started=now, dispatch_id="t-new")
    assert r.load().agents["a1"].dispatch_id == "t-new"
    assert WaveIndex(root).lookup(["agent:a1"]) == [common]
    # Without a recorded start both fit, and none is taken.
    assert lk.link(_agent("a2", parent_id="p"), _registry(common + "2", root, _dispatch("u1", main), _dispatch("u2", main)), None)[1:] == (None, NO_LINK)


def test_link_and_worker_for_take_an_agent_that_names_no_transcript_and_no_parent(world) -> None:
    # Kills link 17 and worker_for 102 (`getattr(agent, ...)` without its default): a runtime's call object may carry
    # neither field (the functions take any agent object); without them the sub-agent is found by its session.
    repo, common, root = world
    main = str(repo.main)
    r = _registry(common, root, _dispatch("t1", main, agent_type="other"))
    bare = NS(agent_id="a1", session_id="s", agent_type="coder")
    assert lk.link(bare, r, None) == (r.load(), None, NO_LINK)
    got = lk.worker_for(bare, None, False, Settings(), common, None, root)
    assert got == Worker(agent_id="a1", agent_type="coder", ownership=Ownership((), NOTHING), root=main, isolated=False,
                         linked_by=f"no dispatch (looked in {NO_LINK})", session_id="s")


def test_worker_for_finds_the_registry_through_the_wave_index_from_any_directory(world) -> None:
    # Kills worker_for 14 (`registries_for(None, ...)`): a call from outside every repository (no common dir) still
    # finds the registry that recorded the sub-agent's link, and its session's wave.
    repo, common, root = world
    main = str(repo.main)
    r = _registry(common, root, _dispatch("t1", main))
    first = lk.worker_for(_agent(parent_id="p"), str(repo.worktree), False, Settings(), common, _pm(lk.DispatchLink("t1", how="meta")), root)
    linked = Worker(agent_id="a1", agent_type="coder", ownership=Ownership(("src/**",), "its block"), root=main, isolated=False,
                    linked_by="its dispatch t1, found through meta", dispatch_id="t1", session_id="s")
    assert first == linked
    assert WaveIndex(root).lookup(["agent:a1"]) == [common]
    again = lk.worker_for(_agent(parent_id="p"), None, False, Settings(), None, None, root)
    assert again == dataclasses.replace(linked, linked_by="its dispatch t1, found through the wave registry")
    # Not linked, its session's wave noted in the index: a worker that owns nothing, relative to the wave's checkout.
    WaveIndex(root).note(["session:s"], r.common_dir)
    other = lk.worker_for(_agent("b", agent_type="tester"), None, False, Settings(), None, None, root)
    assert other == Worker(agent_id="b", agent_type="tester", ownership=Ownership((), NOTHING), root=main, isolated=False,
                           linked_by=f"no dispatch (looked in {NO_LINK})", session_id="s")
    assert lk.worker_for(_agent("b", session_id="s2", agent_type="tester"), None, False, Settings(), None, None, root) is None


def test_an_isolated_worker_is_placed_in_its_recorded_worktree_else_where_its_call_is(world) -> None:
    # Kills worker_for 37 (`placed(dispatch, None, ...)`) and 38 (`placed(..., None, call_isolated)`): the entry
    # recorded at the worker's start, and the call's checkout, reach `placed`.
    repo, common, root = world
    main, wt, sib = str(repo.main), str(repo.worktree), str(repo.sibling)
    _registry(common, root, _dispatch("t1", main, isolated=True), _dispatch("t2", main, isolated=True, dispatcher="q"),
              agents=(reg.Agent(agent_id="a1", session_id="s", checkout=wt),))
    got = lk.worker_for(_agent(), sib, True, Settings(), common, _pm(lk.DispatchLink("t1", how="meta")), root)
    assert got == Worker(agent_id="a1", agent_type="coder", ownership=Ownership(("src/**",), "its block"), root=wt, isolated=True,
                         linked_by="its dispatch t1, found through meta", dispatch_id="t1", session_id="s")
    other = lk.worker_for(_agent("a2"), sib, False, Settings(), common, _pm(lk.DispatchLink("t2", how="meta")), root)
    assert (other.root, other.isolated, other.dispatch_id) == (sib, True, "t2")
    _registry(common, root, _dispatch("t3", main, isolated=True, dispatcher="r"))
    assert lk.worker_for(_agent("a4"), None, False, Settings(), common, _pm(lk.DispatchLink("t3", how="meta")), root).root == main


def test_worker_for_reads_the_agent_type_s_table_for_its_own_type(world) -> None:
    # Kills worker_for 79 (`configured_ownership(settings, None)`).
    repo, common, root = world
    settings = Settings(agents={"coder": AgentSettings(owns=["docs/**"]), "tester": AgentSettings(owns="none")})
    wt = str(repo.worktree)
    got = lk.worker_for(_agent(), wt, True, settings, common, None, root)
    assert got == Worker(agent_id="a1", agent_type="coder", ownership=Ownership(("docs/**",), "configuration [agents.coder] owns"), root=wt,
                         isolated=True, linked_by="configuration [agents.coder] owns", session_id="s")
    assert lk.worker_for(_agent(agent_type="tester"), wt, False, settings, common, None, root).ownership == Ownership((), "configuration [agents.tester] owns")
    assert lk.worker_for(_agent(agent_type="reviewer"), wt, False, settings, common, None, root) is None


def test_a_link_to_a_dispatch_with_an_empty_id_is_no_link(world) -> None:
    # Kills worker_for 31 (`... if (dispatch_id) or True`): a dispatch checked without a tool-use id is held under ""
    # (provisional, never confirmed); a runtime that names "" as the dispatch does not give the sub-agent its
    # ownership: it is a sub-agent of a wave that could not be linked, and owns nothing.
    repo, common, root = world
    main = str(repo.main)
    _registry(common, root, _dispatch("", main, provisional=True, owns=["**"]))
    got = lk.worker_for(_agent(), str(repo.worktree), False, Settings(), common, _pm(lk.DispatchLink("", how="meta")), root)
    assert got == Worker(agent_id="a1", agent_type="coder", ownership=Ownership((), NOTHING), root=str(repo.worktree), isolated=False,
                         linked_by="no dispatch (looked in meta)", session_id="s")


def _old_history(r: reg.Registry) -> None:
    """A sub-agent that stopped long ago, still in the file: the next change under the lock prunes it as it saves."""
    workers = r.load()
    workers.agents["old"] = reg.Agent(agent_id="old", session_id="s0", started=1.0, stopped=2.0)
    r._save(workers)


def test_link_answers_with_a_copy_of_what_it_read_under_the_lock_not_what_the_save_pruned(world) -> None:
    # Kills link 82, 83 (`changing.model_copy(deep=None | False)`): the answer shares nothing with the workers the
    # registry prunes and saves when the lock is released.
    repo, common, root = world
    r = _registry(common, root, _dispatch("t1", str(repo.main)))
    _old_history(r)
    workers, did, how = lk.link(_agent(parent_id="p"), r, None)
    assert (did, how) == ("t1", "its dispatcher p")
    assert sorted(workers.agents) == ["a1", "old"] and workers.agents["a1"].dispatch_id == "t1"
    assert sorted(r.load().agents) == ["a1"]


def test_link_gives_up_a_dispatch_another_sub_agent_took_meanwhile(world) -> None:
    # Kills link 73, 74 (the same copy on the way out of the lock): while this sub-agent's runtime was asked (no answer),
    # another sub-agent of the same dispatcher was linked to the one dispatch that fits: it is not linked twice.
    repo, common, root = world
    r = _registry(common, root, _dispatch("t1", str(repo.main)))
    _old_history(r)

    def meanwhile(agent):
        with r.changing() as w:
            w.agents["b"] = reg.Agent(agent_id="b", session_id="s", dispatch_id="t1")
        _old_history(r)
        return None

    workers, did, how = lk.link(_agent(parent_id="p"), r, NS(hook=NS(worktree_guard_find_dispatch=meanwhile)))
    assert (did, how) == (None, "its dispatcher p")
    assert sorted(workers.agents) == ["b", "old"] and workers.agents["b"].dispatch_id == "t1"
    assert sorted(r.load().agents) == ["b"]
    assert WaveIndex(root).lookup(["agent:a1"]) == []


def test_worker_for_asks_the_registry_that_linked_the_sub_agent_before_the_one_of_its_call(world, tmp_path) -> None:
    # Kills registries_for 7, 8 (`startswith("XXagent:XX" | "AGENT:")`): a linked worker whose call comes from another
    # repository, where a dispatch of its dispatcher would fit it by description, keeps its own dispatch.
    repo, common, root = world
    other = tmp_path / "other"
    other.mkdir()
    import subprocess

    subprocess.run(["git", "init", "-q", str(other)], check=True)
    other_common = str(other / ".git")
    _registry(common, root, _dispatch("t1", str(repo.main)))
    _registry(other_common, root, _dispatch("t2", str(other), owns=["**"]))
    first = lk.worker_for(_agent(parent_id="p"), str(repo.main), False, Settings(), common, _pm(lk.DispatchLink("t1", how="meta")), root)
    assert (first.dispatch_id, first.root, first.ownership) == ("t1", str(repo.main), Ownership(("src/**",), "its block"))
    assert [r.common_dir for r in lk.registries_for(_agent(parent_id="p"), other_common, root)] == [common, other_common]
    again = lk.worker_for(_agent(parent_id="p"), str(other), False, Settings(), other_common, None, root)
    assert again == dataclasses.replace(first, linked_by="its dispatch t1, found through the wave registry")
    assert reg.Registry(other_common, root).load().agents == {}


def test_worker_for_answers_none_when_the_declaring_dispatch_gives_no_checkout(world) -> None:
    # Kills worker_for 114 (`... if (mine) or True`): a sub-agent naming an empty parent, in a registry where a dispatch
    # with an ownership has an empty dispatcher key (a session named ""), is of a declared wave by `dispatcher_declared`,
    # but no dispatch of its own session or named dispatcher gives a checkout: no worker, and no error.
    repo, common, root = world
    _registry(common, root, _dispatch("t1", str(repo.main), session_id="", dispatcher="", agent_type="other"))
    agent = _agent(session_id="s9", parent_id="")
    assert reg.wave_declared(reg.Registry(common, root).load(), agent) is True
    assert lk.worker_for(agent, None, False, Settings(), common, None, root) is None
    assert lk.worker_for(agent, str(repo.worktree), True, Settings(), common, None, root) == Worker(
        agent_id="a1", agent_type="coder", ownership=Ownership((), NOTHING), root=str(repo.worktree), isolated=True,
        linked_by=f"no dispatch (looked in {NO_LINK})", session_id="s9")
