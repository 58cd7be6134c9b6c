"""Mutation tests of the wave's dispatch check (`subagents/wave.py`) and a worker's start and stop
(`subagents/worker_life.py`), SPEC §11, judged in this process (issue 13, phases 8 and 9)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tests.helpers import Repo, git, payload, run_hook_inline
from tests.test_wave import A, B, SESSION, Wave, codes
from worktree_guard.subagents import registry as reg


@pytest.fixture
def wave(repo: Repo, tmp_path: Path) -> Wave:
    return Wave(repo, tmp_path)


def _common(repo: Repo) -> str:
    return git("rev-parse", "--path-format=absolute", "--git-common-dir", cwd=repo.main).strip()


def _registry(repo: Repo) -> reg.Registry:
    return reg.Registry(_common(repo))


def _audit(wave: Wave, tmp_path: Path):
    """An audit log outside the checkout; returns a reader of its last line."""
    log = tmp_path / "audit.jsonl"
    (wave.repo.main / ".worktree-guard.toml").write_text(f'audit_log = "{log}"\n')
    git("add", ".worktree-guard.toml", cwd=wave.repo.main)
    git("commit", "-q", "-m", "audit log", cwd=wave.repo.main)

    def last() -> dict:
        return json.loads(log.read_text().splitlines()[-1])

    return last


def _violation(code: str, tool: str, message: str, *, severity: str = "error", path=None, resolved=None, worktree_root=None, shared_root=None) -> dict:
    """A violation as the audit log records it (rule `wave`)."""
    return {
        "code": code, "rule": "wave", "tool": tool, "message": message, "severity": severity, "path": path, "resolved": resolved,
        "worktree_root": worktree_root, "shared_root": shared_root, "suggestion": None, "span": None,
    }


# --- worker_life.on_stop: which registry knows the worker -----------------------------------------------------------


def test_a_stop_event_from_outside_every_repository_finds_the_worker_through_the_wave_index(wave: Wave, tmp_path: Path) -> None:
    """The registry is found through the wave index, whatever directory the event names (SPEC §11, WG706)."""
    wave.start(A, "toolu_A", "src/auth/**")
    (wave.repo.main / "src" / "app.py").write_text("changed by A\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    stopped = wave.event("SubagentStop", A, cwd=str(elsewhere))
    assert stopped.stop_blocked and codes(stopped) == {"WG706"}
    # the must-pass neighbour: a worker that changed only what it owns stops silently from there too
    wave.start(B, "toolu_B", "docs/**")
    assert wave.event("SubagentStop", B, cwd=str(elsewhere)).stdout == ""
    assert _registry(wave.repo).load().agents[B].stopped is not None


def test_a_stop_in_the_checkout_finds_the_worker_there_when_the_wave_index_lost_it(wave: Wave) -> None:
    """The event's own repository is asked too: the index is a cache, not the record."""
    from worktree_guard.subagents.places import waves_root

    wave.start(A, "toolu_A", "src/auth/**")
    (wave.repo.main / "src" / "app.py").write_text("changed by A\n")
    os.unlink(os.path.join(waves_root(), "index.json"))
    stopped = wave.event("SubagentStop", A)
    assert stopped.stop_blocked and codes(stopped) == {"WG706"}
    assert _registry(wave.repo).load().agents[A].blocks == 1


def test_a_worker_started_without_a_checkout_stops_silently_and_is_recorded(wave: Wave) -> None:
    """Its start was seen, but no checkout was recorded: nothing to compare, but it ran."""
    assert wave.dispatch("toolu_A", "src/auth/**").decision == "pass"
    r = _registry(wave.repo)
    with r.changing() as w:
        w.agents["nockout"] = reg.Agent(agent_id="nockout", session_id=SESSION, agent_type="general-purpose", started=time.time(), dispatch_id="toolu_A")
    (wave.repo.main / "src" / "app.py").write_text("changed\n")
    assert wave.event("SubagentStop", "nockout").stdout == ""
    assert r.load().agents["nockout"].stopped is not None
    # the neighbour: with a checkout the same change is blamed
    wave.start(B, "toolu_B", "src/auth/**")
    (wave.repo.main / "src" / "app.py").write_text("changed again\n")
    assert codes(wave.event("SubagentStop", B)) == {"WG706"}


# --- worker_life.overlap_report: WG707 -----------------------------------------------------------------------------


def test_an_isolated_worker_s_clashes_are_each_a_wg707_in_the_audit_log(wave: Wave, tmp_path: Path) -> None:
    repo = wave.repo
    last = _audit(wave, tmp_path)
    git("merge", "-q", "--ff-only", "main", cwd=repo.worktree)
    git("merge", "-q", "--ff-only", "main", cwd=repo.sibling)
    tool_input = {"description": "iso", "prompt": "Go.\n```worktree-guard\nowns: src/**, README.md\n```\n", "isolation": "worktree"}
    assert run_hook_inline(payload(repo.main, "Agent", tool_input, tool_use_id="toolu_iso", **wave.common())).decision == "pass"
    (repo.sibling / "src" / "app.py").write_text("the sibling's version\n")
    (repo.sibling / "README.md").write_text("the sibling's readme\n")
    git("commit", "-qam", "sibling", cwd=repo.sibling)
    iso = dict(cwd=str(repo.worktree), agent_id=repo.agent_id, agent_type=None)
    wave.event("SubagentStart", **iso)
    wave.link(repo.agent_id, "toolu_iso")
    (repo.worktree / "src" / "app.py").write_text("the worker's version\n")
    (repo.worktree / "README.md").write_text("the worker's readme\n")
    result = wave.event("SubagentStop", **iso)
    assert not result.stop_blocked
    assert result.output["systemMessage"] == (
        f"worktree-guard: worker agent {repo.agent_id} changed files that other live worktrees changed too: "
        f"README.md (also changed in {repo.sibling}); src/app.py (also changed in {repo.sibling}). Plan the merge before it conflicts. [worktree-guard WG707]"
    )
    record = last()
    assert (record["tool"], record["decision"], record["codes"]) == ("SubagentStop", "pass", ["WG707", "WG707"])
    assert record["violations"] == [
        _violation("WG707", "SubagentStop", f"{p} was changed in {repo.worktree} and in {repo.sibling}.", severity="info", path=p,
                   worktree_root=str(repo.worktree), shared_root=str(repo.sibling))
        for p in ("README.md", "src/app.py")
    ]


# --- worker_life.on_stop: the worker of an unlinked sub-agent ------------------------------------------------------

C = "a00000000000000c3"
UNLINKED = "nothing: this session dispatched workers with ownerships, and this sub-agent could not be linked to its dispatch"


def test_an_unlinked_sub_agent_of_a_wave_session_is_blamed_at_its_stop_as_owning_nothing(wave: Wave) -> None:
    """SPEC §11: a sub-agent of a session that recorded an ownership, which cannot be linked to its dispatch, owns
    nothing; at its stop every change it could have made outside the wave's ownerships is its (WG706)."""
    main = wave.repo.main
    assert wave.dispatch("toolu_A", "src/auth/**").decision == "pass"
    wave.event("SubagentStart", C)  # no metadata, no transcript: nothing links it
    entry = _registry(wave.repo).load().agents[C]
    assert (entry.dispatch_id, entry.checkout, entry.base_head) == (None, str(main), None)
    assert wave.event("SubagentStop", "a00000000000000d4").stdout == ""  # the neighbour: never started, never seen
    (main / "src" / "app.py").write_text("changed\n")
    stopped = wave.event("SubagentStop", C)
    assert stopped.stop_blocked and codes(stopped) == {"WG706"}
    assert f"\nYou own none (a read-only worker) ({UNLINKED}).\n" in stopped.output["reason"]
    assert stopped.output["systemMessage"] == (
        f"worktree-guard: worker general-purpose {C} changed files outside its ownership: src/app.py; "
        f"`worktree-guard rollback --agent {C} --apply` restores them. [worktree-guard WG706]"
    )


def test_an_unlinked_sub_agent_whose_configured_ownership_does_not_parse_owns_nothing_at_its_stop(wave: Wave) -> None:
    """Fail closed: a wave state or configured ownership that cannot be read makes a worker that owns nothing, in
    the checkout recorded at its start."""
    main = wave.repo.main
    (main / ".worktree-guard.toml").write_text('[agents.general-purpose]\nowns = ["src/x\\\\"]\n')
    git("add", ".worktree-guard.toml", cwd=main)
    git("commit", "-q", "-m", "cfg", cwd=main)
    assert wave.dispatch("toolu_A", "src/auth/**").decision == "pass"
    wave.event("SubagentStart", C)
    assert _registry(wave.repo).load().agents[C].checkout == str(main)
    (main / "src" / "app.py").write_text("changed\n")
    stopped = wave.event("SubagentStop", C)
    assert stopped.stop_blocked and codes(stopped) == {"WG706"}
    assert "\nYou own none (a read-only worker) (nothing: the wave state could not be read (OwnershipError: " in stopped.output["reason"]


def test_an_unlinked_isolated_sub_agent_of_a_wave_session_gets_wg707_at_its_stop(wave: Wave) -> None:
    repo = wave.repo
    assert wave.dispatch("toolu_A", "src/auth/**").decision == "pass"
    (repo.sibling / "src" / "app.py").write_text("the sibling's version\n")
    git("commit", "-qam", "sibling", cwd=repo.sibling)
    iso = dict(cwd=str(repo.worktree), agent_id=repo.agent_id)
    wave.event("SubagentStart", **iso)  # unlinked, in its own worktree
    entry = _registry(repo).load().agents[repo.agent_id]
    assert (entry.dispatch_id, entry.checkout, entry.base_head) == (None, str(repo.worktree), git("rev-parse", "HEAD", cwd=repo.worktree).strip())
    (repo.worktree / "src" / "app.py").write_text("the worker's version\n")
    stopped = wave.event("SubagentStop", **iso)
    assert not stopped.stop_blocked and codes(stopped) == {"WG707"}
    assert stopped.output["systemMessage"] == (
        f"worktree-guard: worker general-purpose {repo.agent_id} changed files that other live worktrees changed too: "
        f"src/app.py (also changed in {repo.sibling}). Plan the merge before it conflicts. [worktree-guard WG707]"
    )


# --- worker_life.on_start: the checkout of a worker that starts outside every repository ---------------------------


def test_a_worker_started_outside_every_repository_works_in_its_session_s_latest_dispatch_s_checkout(wave: Wave, tmp_path: Path) -> None:
    main = wave.repo.main
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert wave.dispatch("toolu_A", "src/auth/**").decision == "pass"
    wave.event("SubagentStart", A, cwd=str(elsewhere))
    entry = _registry(wave.repo).load().agents[A]
    assert (entry.checkout, entry.base_head) == (str(main), None)
    assert _registry(wave.repo).read("snapshots", A) is not None
    wave.link(A, "toolu_A")
    (main / "src" / "auth").mkdir()
    (main / "src" / "auth" / "a.py").write_text("A's own\n")
    (main / "src" / "app.py").write_text("changed\n")
    stopped = wave.event("SubagentStop", A, cwd=str(elsewhere))
    assert stopped.stop_blocked and codes(stopped) == {"WG706"}
    assert stopped.output["systemMessage"] == (
        f"worktree-guard: worker general-purpose {A} changed files outside its ownership: src/app.py; "
        f"`worktree-guard rollback --agent {A} --apply` restores them. [worktree-guard WG706]"
    )


def test_latest_checkout_is_the_newest_dispatch_with_an_ownership_by_the_session_or_the_dispatcher() -> None:
    from types import SimpleNamespace as NS

    from worktree_guard.subagents.worker_life import _latest_checkout

    def d(i: str, t: float, checkout: str, owns, session: str = "S", dispatcher: str | None = None) -> reg.Dispatch:
        return reg.Dispatch(dispatch_id=i, session_id=session, dispatcher=dispatcher, checkout=checkout, owns=owns, time=t)

    workers = reg.Workers(dispatches={x.dispatch_id: x for x in [
        d("1", 1, "/a", ["a/**"]), d("2", 3, "/b", ["b/**"]), d("3", 5, "/c", None), d("4", 7, "/d", ["d/**"], "X", "P"),
        d("5", 9, "/e", ["e/**"], "X", "Q"), d("6", 11, "/f", ["f/**"], "X"),
    ]})
    assert _latest_checkout(workers, NS(session_id="S", parent_id=None)) == "/b"  # not /c: no ownership; not X's
    assert _latest_checkout(workers, NS(session_id="Y", parent_id="P")) == "/d"  # its dispatcher's
    assert _latest_checkout(workers, NS(session_id="Y", parent_id=None)) is None
    assert _latest_checkout(reg.Workers(), NS(session_id="S", parent_id="P")) is None


# --- worker_life.on_stop: sub-agents that are no workers, or have no start snapshot --------------------------------


def test_an_isolated_sub_agent_of_a_wave_dispatched_without_an_ownership_is_no_worker_at_its_stop(wave: Wave) -> None:
    """WG707 is an isolated *worker's* (a sub-agent with an ownership): one linked to a dispatch without one gets
    nothing at its stop, even where its changes clash with another worktree's; its stop is recorded."""
    repo = wave.repo
    assert wave.dispatch("toolu_A", "src/auth/**").decision == "pass"  # the session declared a wave
    tool_input = {"description": "iso", "prompt": "Go, no ownership.", "isolation": "worktree"}
    assert run_hook_inline(payload(repo.main, "Agent", tool_input, tool_use_id="toolu_N", **wave.common())).decision == "pass"
    (repo.sibling / "src" / "app.py").write_text("the sibling's version\n")
    git("commit", "-qam", "sibling", cwd=repo.sibling)
    iso = dict(cwd=str(repo.worktree), agent_id=repo.agent_id)
    wave.link(repo.agent_id, "toolu_N")
    wave.event("SubagentStart", **iso)
    entry = _registry(repo).load().agents[repo.agent_id]
    assert (entry.dispatch_id, entry.checkout) == ("toolu_N", str(repo.worktree)) and entry.base_head is not None
    (repo.worktree / "src" / "app.py").write_text("the worker's version\n")
    stopped = wave.event("SubagentStop", **iso)
    assert (stopped.returncode, stopped.stdout) == (0, "")
    assert _registry(repo).load().agents[repo.agent_id].stopped is not None


def test_a_shared_worker_whose_start_snapshot_is_gone_stops_silently_and_is_recorded(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    r = _registry(wave.repo)
    os.unlink(r.file("snapshots", A))
    (wave.repo.main / "src" / "app.py").write_text("changed\n")
    stopped = wave.event("SubagentStop", A)
    assert (stopped.returncode, stopped.stdout) == (0, "")
    assert r.load().agents[A].stopped is not None and r.read("blame", A) is None


# --- worker_life.on_stop: WG706's violations, as the audit log keeps them -------------------------------------------


def test_a_stop_s_wg706_findings_are_recorded_one_a_path_with_where_and_how_severe(wave: Wave, tmp_path: Path) -> None:
    main = wave.repo.main
    root = str(main)
    last = _audit(wave, tmp_path)
    git("init", "-q", str(main / "inner"), cwd=main)
    (main / "README.md").write_text("dirty before\n")
    wave.start(A, "toolu_A", "src/auth/**")
    (main / "README.md").write_text("dirty before, and again\n")
    (main / "src" / "app.py").write_text("changed\n")
    (main / "inner" / "f.txt").write_text("f")
    (main / "committed.txt").write_text("c")
    git("add", "committed.txt", cwd=main)
    git("commit", "-q", "-m", "c", cwd=main)
    stopped = wave.event("SubagentStop", A)
    assert stopped.stop_blocked and codes(stopped) == {"WG706"}
    record = last()
    assert (record["tool"], record["decision"], record["codes"]) == ("SubagentStop", "block", ["WG706"] * 4)
    expected = [
        _violation("WG706", "SubagentStop", f"{root}/src/app.py changed while you ran, and your ownership does not match it.",
                   path="src/app.py", resolved=f"{root}/src/app.py", worktree_root=root),
        _violation("WG706", "SubagentStop", f"{root}/committed.txt was committed while you ran, and your ownership does not match it.",
                   path="committed.txt", resolved=f"{root}/committed.txt", worktree_root=root),
        _violation("WG706", "SubagentStop", f"{root}/README.md had uncommitted changes before you started and changed again; it is not rolled back.",
                   severity="info", path="README.md", worktree_root=root),
        _violation("WG706", "SubagentStop", f"{root}/inner/ changed inside a checkout nested in {root}; it is not this checkout's, and it is not rolled back.",
                   severity="info", path="inner/", worktree_root=root),
    ]
    assert record["violations"] == expected
    again = wave.event("SubagentStop", A, stop_hook_active=True)
    assert not again.stop_blocked and codes(again) == {"WG706"}
    assert (last()["decision"], last()["violations"]) == ("warn", expected)


def test_a_stop_with_only_noted_paths_records_them_as_information(wave: Wave, tmp_path: Path) -> None:
    main = wave.repo.main
    root = str(main)
    last = _audit(wave, tmp_path)
    (main / "README.md").write_text("dirty before\n")
    wave.start(A, "toolu_A", "src/auth/**")
    (main / "README.md").write_text("dirty before, and again\n")
    noted = wave.event("SubagentStop", A)
    assert not noted.stop_blocked and codes(noted) == {"WG706"}
    assert (last()["decision"], last()["violations"]) == ("pass", [
        _violation("WG706", "SubagentStop", f"{root}/README.md had uncommitted changes before you started and changed again; it is not rolled back.",
                   severity="info", path="README.md", worktree_root=root),
    ])
    assert _registry(wave.repo).load().agents[A].stopped is not None


def test_the_stop_s_lists_name_twenty_five_paths(wave: Wave) -> None:
    main = wave.repo.main
    names = [f"f{i:02}.txt" for i in range(27)]
    for name in names:
        (main / name).write_text("dirty before\n")
    wave.start(A, "toolu_A", "src/auth/**")
    for name in names:
        (main / name).write_text("and again\n")
    noted = wave.event("SubagentStop", A, agent_type=None)
    assert noted.output["systemMessage"] == (
        f"worktree-guard: while worker {A} ran, files dirty before it started or inside nested checkouts changed: {', '.join(names[:25])} "
        "(not blamed, never rolled back). [worktree-guard WG706]"
    )
    wave.start(B, "toolu_B", "src/auth/**")
    new = [f"n{i:02}.txt" for i in range(27)]
    for name in new:
        (main / name).write_text("new\n")
    blocked = wave.event("SubagentStop", B, agent_type=None)
    assert blocked.stop_blocked and blocked.output["systemMessage"] == (
        f"worktree-guard: worker agent {B} changed files outside its ownership: {', '.join(new[:25])}; "
        f"`worktree-guard rollback --agent {B} --apply` restores them. [worktree-guard WG706]"
    )


# === wave.py: dispatch ===============================================================================================


def _workers(wave: Wave) -> reg.Workers:
    return _registry(wave.repo).load()


def _dispatch_violation(wave: Wave, code: str, message: str, severity: str = "error") -> dict:
    return _violation(code, "Agent", message, severity=severity, worktree_root=str(wave.repo.main))


def test_dispatch_findings_are_recorded_with_the_tool_and_the_checkout(wave: Wave, tmp_path: Path) -> None:
    main = wave.repo.main
    last = _audit(wave, tmp_path)
    assert wave.dispatch("toolu_M", None, body="```worktree-guard\nowns: !x\n```\n").decision == "deny"
    [v] = last()["violations"]
    assert v == _dispatch_violation(wave, "WG710", v["message"]) and v["message"].startswith("The ownership of this dispatch is malformed: ")
    wave.start(A, "toolu_A", "src/**")
    assert wave.dispatch("toolu_C", "src/x/**").decision == "deny"
    [v] = last()["violations"]
    assert v == _dispatch_violation(wave, "WG704", v["message"]) and v["message"].startswith("This worker's ownership (src/x/**) overlaps that of ")
    (main / "README.md").write_text("dirty\n")
    warned = wave.dispatch("toolu_D", "docs/**")
    assert warned.decision == "warn" and codes(warned) == {"WG705"}
    assert last()["violations"] == [_dispatch_violation(
        wave, "WG705", f"{main} has uncommitted changes to tracked files that no running worker owns (README.md): commit them before a "
        "shared-workspace wave, so that every change can be told apart and rolled back.", severity="warning")]


def test_a_dispatch_judged_again_does_not_overlap_itself(wave: Wave) -> None:
    """The same dispatch call judged twice (a runtime that asks again) is the same worker, not a second one."""
    assert wave.dispatch("toolu_A", "src/**").decision == "pass"
    assert wave.dispatch("toolu_A", "src/**").decision == "pass"
    assert codes(wave.dispatch("toolu_B", "src/**")) == {"WG704"}  # the neighbour: another call with the same files


def test_an_isolated_dispatch_is_not_warned_of_uncommitted_changes(wave: Wave) -> None:
    (wave.repo.main / "README.md").write_text("dirty\n")
    assert wave.dispatch("toolu_I", "src/**", isolation="worktree").decision == "pass"
    assert _workers(wave).dispatches["toolu_I"].isolated is True
    assert codes(wave.dispatch("toolu_S", "src/**")) == {"WG705"}  # the neighbour: a shared-workspace one is


def test_a_worker_s_own_sub_agent_dispatch_does_not_overlap_its_worker(wave: Wave) -> None:
    """A worker's sub-agent works within the worker's ownership: the worker's own dispatch is no other worker."""
    wave.start(A, "toolu_A", "src/**")
    assert wave.write(A, "src/a.py").decision == "pass"
    nested = wave.call(A, "Agent", {"description": "helper", "prompt": "Help.\n```worktree-guard\nowns: src/auth/**\n```\n", "subagent_type": "general-purpose"}, tool_use_id="toolu_n")
    assert nested.decision == "pass"
    assert _workers(wave).dispatches["toolu_n"].owns == ["src/auth/**"]
    assert codes(wave.dispatch("toolu_C", "src/auth/x/**")) == {"WG704"}  # the neighbour: the orchestrator's new worker does overlap


def test_the_wave_index_learns_a_dispatch_s_session_and_dispatcher_only_with_an_ownership(wave: Wave) -> None:
    from worktree_guard.subagents.index import WaveIndex

    assert wave.dispatch("toolu_N", None).decision == "pass"
    assert WaveIndex().lookup([f"session:{SESSION}"]) == [] and WaveIndex().lookup([f"dispatcher:{SESSION}"]) == []
    assert wave.dispatch("toolu_A", "src/**").decision == "pass"
    assert WaveIndex().lookup([f"session:{SESSION}"]) == [_common(wave.repo)]
    assert WaveIndex().lookup([f"dispatcher:{SESSION}"]) == [_common(wave.repo)]


def test_only_a_dispatch_in_a_checkout_is_recorded(wave: Wave, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = run_hook_inline(payload(elsewhere, "Agent", {"description": "d", "prompt": "```worktree-guard\nowns: a/**\n```\n"}, tool_use_id="toolu_X", **wave.common()))
    assert out.decision == "pass"
    from worktree_guard.subagents.places import waves_root

    assert not os.path.exists(waves_root())  # no registry, no index anywhere
    assert run_hook_inline(payload(wave.repo.main, "Write", {"file_path": str(wave.repo.main / "x.txt"), "content": "x"}, tool_use_id="toolu_W", **wave.common())).decision == "pass"
    assert not os.path.exists(waves_root())  # not a dispatch: nothing recorded
    assert wave.dispatch("toolu_N", None).decision == "pass"
    assert list(_workers(wave).dispatches) == ["toolu_N"]


# === wave.py: finding the worker =====================================================================================


def test_the_pre_check_failing_leaves_the_decision_to_the_full_check(wave: Wave, monkeypatch: pytest.MonkeyPatch) -> None:
    from worktree_guard.subagents import places

    wave.start(A, "toolu_A", "docs/**")

    def broken(*_a, **_k):
        raise OSError("the index could not be read")

    monkeypatch.setattr(places, "may_have_workers", broken)
    assert codes(wave.write(A, "src/app.py")) == {"WG701"}
    assert wave.write(A, "docs/a.md").decision == "pass"


def test_a_sub_agent_of_a_repository_without_ownerships_is_not_even_linked(wave: Wave, tmp_path: Path) -> None:
    from worktree_guard.subagents.index import WaveIndex

    WaveIndex().note(["session:another-session"], str(tmp_path / "another.git"))  # another repository's wave
    assert wave.dispatch("toolu_N", None).decision == "pass"
    wave.link(A, "toolu_N")
    assert wave.write(A, "src/app.py").decision == "pass"
    assert _workers(wave).agents == {}
    assert wave.dispatch("toolu_O", "docs/**").decision == "pass"  # the neighbour: once a dispatch declares one, it is
    assert wave.write(A, "src/app.py").decision == "pass"
    assert _workers(wave).agents[A].dispatch_id == "toolu_N"


def test_a_configured_ownership_makes_a_worker_without_any_wave_state(wave: Wave) -> None:
    from worktree_guard.subagents.places import waves_root

    (wave.repo.main / ".worktree-guard.toml").write_text('[agents.general-purpose]\nowns = ["docs/**"]\n')
    assert codes(wave.write(A, "src/app.py")) == {"WG701"}
    assert wave.write(A, "docs/a.md").decision == "pass"
    other = payload(wave.repo.main, "Write", {"file_path": str(wave.repo.main / "src/app.py"), "content": "x"}, agent_id=B, agent_type="other", tool_use_id="toolu_o", **wave.common())
    assert run_hook_inline(other).decision == "pass"  # another type owns nothing configured
    assert not os.path.exists(os.path.join(waves_root(), "index.json"))


def test_a_definition_s_ownership_makes_a_worker_without_any_wave_state(wave: Wave) -> None:
    from tests.helpers import write_agent

    write_agent(wave.repo.main, "general-purpose", "worktree-guard:\n  owns: [src/**]")
    assert codes(wave.write(A, "docs/a.md")) == {"WG701"}
    assert wave.write(A, "src/a.py").decision == "pass"


def test_the_pre_check_asks_the_repository_s_registry_when_the_index_lost_the_worker(wave: Wave) -> None:
    from worktree_guard.subagents.places import waves_root

    wave.start(A, "toolu_A", "docs/**")
    os.unlink(os.path.join(waves_root(), "index.json"))
    assert codes(wave.write(A, "src/app.py")) == {"WG701"}
    assert wave.write(A, "docs/a.md").decision == "pass"


def test_the_pre_check_asks_the_wave_index_for_a_call_from_outside_every_repository(wave: Wave, tmp_path: Path) -> None:
    wave.start(A, "toolu_A", "docs/**")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def write(relative: str):
        return run_hook_inline(payload(elsewhere, "Write", {"file_path": str(wave.repo.main / relative), "content": "x\n"}, agent_id=A,
                                       agent_type="general-purpose", tool_use_id="toolu_w", **wave.common()))

    assert codes(write("src/app.py")) == {"WG701"}
    assert write("docs/a.md").decision == "pass"


def test_a_dispatch_without_an_id_or_a_checkout_is_not_recorded(wave: Wave, tmp_path: Path) -> None:
    from tests.helpers import bare_clone

    body = payload(wave.repo.main, "Agent", {"description": "d", "prompt": "no ownership"}, **wave.common())
    body.pop("tool_use_id")
    assert run_hook_inline(body).decision == "pass"
    (tmp_path / "clone").mkdir()
    bare, _ = bare_clone(wave.repo, tmp_path / "clone")
    assert run_hook_inline(payload(bare, "Agent", {"description": "d", "prompt": "no ownership"}, tool_use_id="toolu_B", **wave.common())).decision == "pass"
    assert reg.Registry(str(bare)).load().dispatches == {}
    assert _workers(wave).dispatches == {}
    assert wave.dispatch("toolu_N", None).decision == "pass"  # the neighbour: with an id, in a checkout
    assert list(_workers(wave).dispatches) == ["toolu_N"]


def test_a_dispatch_without_a_session_notes_no_key_in_the_wave_index(wave: Wave) -> None:
    from worktree_guard.subagents.index import WaveIndex

    body = payload(wave.repo.main, "Agent", {"description": "d", "prompt": "```worktree-guard\nowns: a/**\n```\n"}, tool_use_id="toolu_S")
    body.pop("session_id", None)
    body.pop("transcript_path", None)
    assert run_hook_inline(body).decision == "pass"
    assert _workers(wave).dispatches["toolu_S"].owns == ["a/**"]
    assert WaveIndex().lookup(["session:None", "dispatcher:None", "session:", "dispatcher:"]) == []


def test_a_nested_dispatch_the_guard_isolates_is_recorded_isolated(repo: Repo) -> None:
    from tests.helpers import subagent_payload

    out = run_hook_inline(subagent_payload(repo, "Agent", {"description": "d", "prompt": "p"}, tool_use_id="toolu_nested"))
    assert out.output["hookSpecificOutput"]["updatedInput"]["isolation"] == "worktree"
    assert _registry(repo).load().dispatches["toolu_nested"].isolated is True
    out = run_hook_inline(subagent_payload(repo, "Agent", {"description": "d", "prompt": "p", "isolation": "worktree"}, tool_use_id="toolu_asked"))
    assert out.stdout == "" and _registry(repo).load().dispatches["toolu_asked"].isolated is True


def test_an_isolated_worker_whose_start_names_the_dispatcher_s_directory_works_in_its_own_worktree(wave: Wave) -> None:
    """Claude Code may start an isolated sub-agent with its dispatcher's cwd: its checkout is the worktree made for
    it (`agent-<id>`), and its base is that worktree's HEAD."""
    repo = wave.repo
    git("commit", "-q", "--allow-empty", "-m", "the worktree's own commit", cwd=repo.worktree)
    tool_input = {"description": "iso", "prompt": "Go.\n```worktree-guard\nowns: src/**\n```\n", "isolation": "worktree"}
    assert run_hook_inline(payload(repo.main, "Agent", tool_input, tool_use_id="toolu_iso", **wave.common())).decision == "pass"
    wave.link(repo.agent_id, "toolu_iso")
    wave.event("SubagentStart", agent_id=repo.agent_id)  # cwd: the main checkout
    entry = _registry(repo).load().agents[repo.agent_id]
    assert (entry.checkout, entry.base_head) == (str(repo.worktree), git("rev-parse", "HEAD", cwd=repo.worktree).strip())
    wave.event("SubagentStart", agent_id="a00000000000000e5")  # the neighbour: a sub-agent with no worktree of its own
    assert _registry(repo).load().agents["a00000000000000e5"].checkout == str(repo.main)


def test_a_worker_whose_lookup_fails_is_refused_and_another_session_s_sub_agent_only_warned(wave: Wave, monkeypatch: pytest.MonkeyPatch) -> None:
    """The failure reply asks the wave whether the agent is confined: a sub-agent its registry knows, or of a session
    that declared a wave, is refused (WG000); a sub-agent nothing knows goes on with a warning."""
    from worktree_guard.subagents import linking

    wave.start(A, "toolu_A", "docs/**")

    def broken(*_a, **_k):
        raise RuntimeError("the worker lookup broke")

    monkeypatch.setattr(linking, "safe_worker_for", broken)
    refused = wave.write(A, "docs/a.md")
    assert refused.decision == "deny" and codes(refused) == {"WG000"} and "the worker lookup broke" in refused.reason
    unknown_in_session = wave.write(B, "docs/a.md")  # never dispatched, but its session declared a wave
    assert unknown_in_session.decision == "deny" and codes(unknown_in_session) == {"WG000"}
    from worktree_guard.subagents.index import WaveIndex

    WaveIndex().note(["session:another-session"], _common(wave.repo))  # a key whose dispatches are gone from the registry
    stranger = payload(wave.repo.main, "Write", {"file_path": str(wave.repo.main / "docs/a.md"), "content": "x"}, agent_id="a-stranger",
                       agent_type="general-purpose", tool_use_id="toolu_s", session_id="another-session")
    warned = run_hook_inline(stranger)
    assert warned.decision == "warn" and codes(warned) == {"WG000"} and "the worker lookup broke" in warned.output["systemMessage"]



def test_a_worker_that_stopped_or_went_stale_no_longer_overlaps(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/**")
    assert codes(wave.dispatch("toolu_C", "src/x/**")) == {"WG704"}  # running
    wave.event("SubagentStop", A)
    assert wave.dispatch("toolu_C", "src/x/**").decision == "pass"  # stopped
    wave.start(B, "toolu_B", "docs/**")

    def age(hours: float) -> None:
        with _registry(wave.repo).changing() as w:
            w.dispatches["toolu_B"].time -= hours * 3600
            w.agents[B].started -= hours * 3600

    age(3.9)  # stale_worker_after: 4 hours by default
    assert codes(wave.dispatch("toolu_D", "docs/x/**")) == {"WG704"}  # not stale yet
    age(0.2)
    assert wave.dispatch("toolu_D", "docs/x/**").decision == "pass"  # stale: a crashed worker must not block the next wave


# --- wave.dispatch_ownership, dispatch_target, dispatch_isolated ----------------------------------------------------


def test_a_dispatch_s_ownership_comes_from_the_prompt_then_the_target_s_frontmatter_then_the_configuration(wave: Wave) -> None:
    from tests.helpers import write_agent

    main = wave.repo.main
    (main / ".worktree-guard.toml").write_text('owns = ["top/**"]\n[agents.coder]\nowns = ["docs/**"]\n[agents.tester]\nowns = ["tests/**"]\n')
    definition = write_agent(main, "coder", "worktree-guard:\n  owns: [src/**]")
    write_agent(main, "general-purpose", "worktree-guard:\n  owns: [lib/**]")
    write_agent(main, "tester", "model: haiku")  # a definition without an ownership
    assert wave.dispatch("toolu_P", "a/**", subagent_type="coder").decision == "pass"
    assert wave.dispatch("toolu_F", None, subagent_type="coder").decision == "pass"
    assert wave.dispatch("toolu_C", None, subagent_type="tester").decision == "pass"
    assert wave.dispatch("toolu_N", None, subagent_type="reviewer").decision == "pass"
    body = payload(main, "Agent", {"description": "no type", "prompt": "Do your part."}, tool_use_id="toolu_D", **wave.common())
    assert run_hook_inline(body).decision == "pass"
    d = _workers(wave).dispatches
    assert (d["toolu_P"].owns, d["toolu_P"].owns_source) == (["a/**"], "the dispatch prompt's ```worktree-guard block")
    assert (d["toolu_F"].owns, d["toolu_F"].owns_source) == (["src/**"], f"{definition} (worktree-guard: owns)")
    assert (d["toolu_C"].owns, d["toolu_C"].owns_source) == (["tests/**"], "configuration [agents.tester] owns")  # not the top-level `owns`
    assert (d["toolu_N"].owns, d["toolu_N"].owns_source) == (None, None)
    assert d["toolu_D"].owns == ["lib/**"]  # no type: the runtime's general-purpose


def test_dispatch_isolated_reads_the_runtime_the_input_and_the_target_s_definition() -> None:
    from types import SimpleNamespace as NS

    from worktree_guard.subagents.wave import dispatch_isolated

    definitions = {"iso": NS(isolated=True), "plain": NS(isolated=False), "general-purpose": NS(isolated=True)}
    ctx = NS(find_definition=definitions.get)

    def call(subagent_type="plain", place=None, **tool_input):
        return NS(subagent_type=subagent_type, subagent_place=place, input=tool_input)

    assert dispatch_isolated(call("iso", "dispatcher_cwd", isolation="worktree"), ctx) is False  # the runtime decides
    for value in ("worktree", " Work_Tree ", "WORK-TREE", "remote"):
        assert dispatch_isolated(call(isolation=value), ctx) is True, value
    assert dispatch_isolated(call(isolation="yes"), ctx) is False
    assert dispatch_isolated(call(isolation=True), ctx) is False
    assert dispatch_isolated(call("iso"), ctx) is True
    assert dispatch_isolated(call("iso", isolation="none"), ctx) is False  # the input overrides the definition
    assert dispatch_isolated(call("plain"), ctx) is False
    assert dispatch_isolated(call("missing"), ctx) is False
    assert dispatch_isolated(call(None), ctx) is True  # no type: the general-purpose definition


def test_a_dispatch_without_a_prompt_has_no_ownership_block(wave: Wave) -> None:
    out = run_hook_inline(payload(wave.repo.main, "Agent", {"description": "no prompt", "subagent_type": "reviewer"}, tool_use_id="toolu_E", **wave.common()))
    assert (out.returncode, out.stdout) == (0, "")
    assert _workers(wave).dispatches["toolu_E"].owns is None


# --- wave.check_dispatch: what a dispatch that goes through is recorded with, and a failure after the check ----------


def test_a_malformed_dispatch_let_through_in_warn_mode_is_recorded_as_owning_nothing(wave: Wave) -> None:
    (wave.repo.main / ".worktree-guard.toml").write_text('mode = "warn"\n')
    out = wave.dispatch("toolu_M", None, body="```worktree-guard\nowns: !x\n```\n")
    assert out.decision == "warn" and codes(out) == {"WG710"}
    d = _workers(wave).dispatches["toolu_M"]
    assert d.owns == [] and d.owns_source == (
        "nothing: the dispatch's ownership is malformed (the ```worktree-guard block, line 1: '!x' is a negation; an ownership lists what a worker may write)"
    )


def test_a_worker_s_sub_agent_dispatch_is_recorded_with_the_worker_s_ownership(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/**")
    assert wave.write(A, "src/a.py").decision == "pass"  # linked
    inherited = f"inherited from worker {A} (the dispatch prompt's ```worktree-guard block)"
    nested = wave.call(A, "Agent", {"description": "helper", "prompt": "Help, no block."}, tool_use_id="toolu_n")
    assert nested.decision == "pass"
    d = _workers(wave).dispatches["toolu_n"]
    assert (d.owns, d.owns_source) == (["src/**"], inherited)
    (wave.repo.main / ".worktree-guard.toml").write_text('mode = "warn"\n')
    escalating = wave.call(A, "Agent", {"description": "helper", "prompt": "```worktree-guard\nowns: docs/**\n```\n"}, tool_use_id="toolu_e")
    assert escalating.decision == "warn" and codes(escalating) == {"WG701"}
    d = _workers(wave).dispatches["toolu_e"]
    assert (d.owns, d.owns_source) == (["src/**"], inherited)  # let through: it still owns only the worker's files


def test_a_failure_after_an_orchestrator_s_dispatch_with_an_ownership_refuses_it(wave: Wave, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check marks the call confined: should recording it fail, the dispatch is refused (WG000), never let through."""

    def broken(self):
        raise TimeoutError("the wave registry stayed locked")

    monkeypatch.setattr(reg.Registry, "changing", broken)
    malformed = wave.dispatch("toolu_M", None, body="```worktree-guard\nowns: !x\n```\n")
    assert malformed.decision == "deny" and codes(malformed) == {"WG000"} and "stayed locked" in malformed.reason
    owned = wave.dispatch("toolu_O", "src/**")
    assert owned.decision == "deny" and codes(owned) == {"WG000"}
    plain = wave.dispatch("toolu_P", None)  # the neighbour: a dispatch without an ownership is only told about
    assert plain.decision == "warn" and codes(plain) == {"WG000"}


# === phase 9: subagents/wave.py ======================================================================================


def test_a_dispatch_is_not_warned_of_paths_git_ignores(wave: Wave) -> None:
    """WG705 names uncommitted changes to tracked files: an ignored build output is none (SPEC §11)."""
    main = wave.repo.main
    (main / ".gitignore").write_text("build/\n")
    git("add", ".gitignore", cwd=main)
    git("commit", "-q", "-m", "ignore build/", cwd=main)
    (main / "build").mkdir()
    (main / "build" / "out.o").write_text("object\n")
    (main / "notes.txt").write_text("untracked\n")
    assert wave.dispatch("toolu_A", "src/**").stdout == ""
    (main / "README.md").write_text("dirty\n")  # the neighbour: a changed tracked file is warned of
    assert codes(wave.dispatch("toolu_B", "docs/**")) == {"WG705"}


def test_a_checkout_whose_status_fails_refuses_the_dispatch_naming_why(wave: Wave) -> None:
    """git status failing in the checkout (a corrupt index) cannot tell WG705: the dispatch is refused with git's error."""
    index = wave.repo.main / ".git" / "index"
    index.write_bytes(b"not an index")
    refused = wave.dispatch("toolu_A", "src/**")
    assert refused.decision == "deny" and codes(refused) == {"WG000"}
    assert "git status failed: " in refused.reason and "index" in refused.reason.split("git status failed: ", 1)[1]


def test_a_worker_running_in_another_checkout_of_the_repository_does_not_overlap(wave: Wave) -> None:
    """WG704 is about the workers sharing this checkout (SPEC §11): one working in another worktree of the same
    repository writes other files, whatever its ownership."""
    with _registry(wave.repo).changing() as w:
        w.dispatches["toolu_O"] = reg.Dispatch(dispatch_id="toolu_O", session_id=SESSION, agent_type="general-purpose", checkout=str(wave.repo.outside),
                                               owns=["src/**"], owns_source="there", time=time.time())
    assert wave.dispatch("toolu_M", "src/**").stdout == ""
    assert codes(wave.dispatch("toolu_N", "src/x/**")) == {"WG704"}  # the neighbour: the one in this checkout does


def test_an_isolated_dispatch_runs_no_git_in_the_shared_checkout(wave: Wave) -> None:
    """An isolated worker is compared with no one in this checkout (SPEC §11): its dispatch lists no tree and reads
    no status there, so a checkout git cannot read (a corrupt index) does not refuse it."""
    with _registry(wave.repo).changing() as w:  # a worker running in the checkout
        w.dispatches["toolu_R"] = reg.Dispatch(dispatch_id="toolu_R", session_id=SESSION, agent_type="general-purpose", checkout=str(wave.repo.main),
                                               owns=["docs/**"], owns_source="running", time=time.time())
    (wave.repo.main / ".git" / "index").write_bytes(b"not an index")
    assert wave.dispatch("toolu_I", "src/**", isolation="worktree").stdout == ""
    assert _workers(wave).dispatches["toolu_I"].isolated is True
    assert codes(wave.dispatch("toolu_S", "src/**")) == {"WG000"}  # the neighbour: a shared-workspace dispatch needs git there


def test_a_worker_recorded_while_the_dispatch_waits_for_the_lock_is_compared_with_it(wave: Wave, monkeypatch: pytest.MonkeyPatch) -> None:
    """The look before the lock is only a guess: a worker another dispatch recorded in between (here: the first
    look sees none) is compared with under the lock, with the tree listed then."""
    import sys

    real = reg.Registry.load

    def load(self):
        if "_check_against_running" in sys._getframe(1).f_code.co_name:
            return reg.Workers()  # the registry before the other dispatch's record
        return real(self)

    wave.start(A, "toolu_A", "docs/**")
    monkeypatch.setattr(reg.Registry, "load", load)
    assert wave.dispatch("toolu_B", "src/**").stdout == ""  # apart: compared file by file, no overlap
    assert codes(wave.dispatch("toolu_C", "docs/x/**")) == {"WG704"}  # the neighbour: an overlap is found under the lock


def test_a_running_worker_whose_recorded_ownership_does_not_parse_refuses_the_dispatch_naming_its_source(wave: Wave) -> None:
    """A registry changed by hand (a pattern no dispatch could have recorded) fails closed, and the reply names
    the recorded source of the bad pattern (none recorded: no name)."""

    def record(source: str | None) -> None:
        with _registry(wave.repo).changing() as w:
            w.dispatches["toolu_R"] = reg.Dispatch(dispatch_id="toolu_R", session_id=SESSION, agent_type="general-purpose", checkout=str(wave.repo.main),
                                                   owns=["!bad"], owns_source=source, time=time.time())

    record("its recorded dispatch")
    refused = wave.dispatch("toolu_X", "src/**")
    assert refused.decision == "deny" and codes(refused) == {"WG000"}
    assert "internal error OwnershipError: its recorded dispatch: '!bad' is a negation;" in refused.reason
    record(None)
    refused = wave.dispatch("toolu_Y", "src/**")
    assert "internal error OwnershipError: : '!bad' is a negation;" in refused.reason
    record("its recorded dispatch")  # a dispatch owning nothing compares with no one, but asks who owns the changes
    refused = wave.dispatch("toolu_Z", "none")
    assert refused.decision == "deny" and "internal error OwnershipError: : '!bad' is a negation;" in refused.reason


def test_the_check_leaves_a_provisional_record_that_the_verdict_confirms(wave: Wave, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a dispatch judged at the same time sees between this dispatch's check and its verdict: a provisional
    record with its ownership (so that an overlapping dispatch is refused); the verdict then confirms it."""
    saved: list[reg.Workers] = []
    real = reg.Registry._save

    def save(self, workers):
        saved.append(workers.model_copy(deep=True))
        real(self, workers)

    monkeypatch.setattr(reg.Registry, "_save", save)
    assert wave.dispatch("toolu_A", "src/**").decision == "pass"
    checked, judged = saved[0].dispatches["toolu_A"], saved[-1].dispatches["toolu_A"]
    source = "the dispatch prompt's ```worktree-guard block"
    assert (checked.owns, checked.owns_source, checked.provisional, checked.isolated, checked.checkout) == (["src/**"], source, True, False, str(wave.repo.main))
    assert (judged.owns, judged.owns_source, judged.provisional) == (["src/**"], source, False)
    assert list(saved[0].dispatches) == ["toolu_A"]


def test_wg705_lists_ten_changed_files_and_counts_the_rest(wave: Wave) -> None:
    main = wave.repo.main
    names = [f"f{i:02}.txt" for i in range(11)]
    for name in names:
        (main / name).write_text("committed\n")
    git("add", *names, cwd=main)
    git("commit", "-q", "-m", "eleven files", cwd=main)

    def listed(tool_use_id: str, owns: str) -> str:
        warned = wave.dispatch(tool_use_id, owns)
        assert warned.decision == "warn" and codes(warned) == {"WG705"}
        return warned.output["systemMessage"].split("no running worker owns (", 1)[1].split("): commit them", 1)[0]

    for name in names[:10]:
        (main / name).write_text("changed\n")
    assert listed("toolu_A", "src/**") == ", ".join(names[:10])
    (main / names[10]).write_text("changed\n")
    assert listed("toolu_B", "docs/**") == ", ".join(names[:10]) + " and 1 more"


def test_the_strict_profile_refuses_a_dispatch_over_uncommitted_changes(wave: Wave) -> None:
    main = wave.repo.main
    (main / ".worktree-guard.toml").write_text('profile = "strict"\n')
    git("add", ".worktree-guard.toml", cwd=main)
    git("commit", "-q", "-m", "strict", cwd=main)
    (main / "README.md").write_text("dirty\n")
    refused = wave.dispatch("toolu_A", "src/**")
    assert refused.decision == "deny" and codes(refused) == {"WG705"}


def test_an_ownership_a_runtime_could_not_enforce_is_recorded_as_wg708(wave: Wave, tmp_path: Path) -> None:
    """Cline's new_task hands over to a task whose calls carry no agent id (SPEC §11): the audit log keeps the
    WG708 with the tool, the checkout and the words that say why."""
    from worktree_guard.hook import run_hook

    main = wave.repo.main
    last = _audit(wave, tmp_path)

    def new_task(context: str) -> dict:
        return {"clineVersion": "3.40.0", "hookName": "PreToolUse", "timestamp": "1796144000000", "taskId": "task-1", "workspaceRoots": [str(main)],
                "userId": "u", "preToolUse": {"toolName": "new_task", "parameters": {"context": context}}}

    out = run_hook(json.dumps(new_task("Work.\n```worktree-guard\nowns: src/auth/**, docs/**\n```")).encode(), flags={"runtime": "cline"}, cwd=str(main))
    assert json.loads(out.stdout)["cancel"] is True
    assert last()["violations"] == [_violation(
        "WG708", "new_task",
        "This dispatch gives its sub-agent an ownership (src/auth/**, docs/**), but this runtime gives a sub-agent's calls no identity of their own, "
        "so worktree-guard could not tell them from yours and could not enforce it. Dispatch without an ownership and do the work one sub-agent at a "
        "time, or run the workers isolated by other means.", worktree_root=str(main))]


def test_a_worker_s_escalating_dispatch_names_every_pattern_outside_its_ownership(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/**")
    assert wave.write(A, "src/a.py").decision == "pass"  # linked
    refused = wave.call(A, "Agent", {"description": "helper", "prompt": "```worktree-guard\nowns: src/x/**, docs/**, lib/**\n```\n"}, tool_use_id="toolu_e")
    assert refused.decision == "deny" and codes(refused) == {"WG701"}
    assert refused.reason.startswith(
        "This worker may hand its sub-agent only files it owns (src/**); docs/**, lib/** may name others. "
        "Leave the ownership block out (the sub-agent then owns what you own) or narrow it.")


def test_a_dispatch_with_an_ownership_from_a_bare_repository_is_neither_checked_nor_recorded(wave: Wave, tmp_path: Path) -> None:
    """No checkout, no shared workspace: nothing to compare with or to warn of, and nothing to record."""
    from tests.helpers import bare_clone

    (tmp_path / "clone").mkdir()
    bare, _ = bare_clone(wave.repo, tmp_path / "clone")
    tool_input = {"description": "d", "prompt": "```worktree-guard\nowns: src/**\n```\n", "subagent_type": "general-purpose"}
    assert run_hook_inline(payload(bare, "Agent", tool_input, tool_use_id="toolu_B", **wave.common())).stdout == ""
    assert reg.Registry(str(bare)).load().dispatches == {}


def test_a_configured_worker_in_its_own_worktree_is_an_isolated_worker(wave: Wave) -> None:
    """A sub-agent whose ownership comes from the configuration works in the checkout its call is in: in its own
    worktree it is isolated, and git there is its own business (no WG703), as it is not in the shared checkout."""
    from tests.helpers import subagent_payload

    repo = wave.repo
    for checkout in (repo.main, repo.worktree):
        (checkout / ".worktree-guard.toml").write_text('[agents.general-purpose]\nowns = ["src/**"]\n')
    commit = {"command": "git commit -qam 'the worker s work'"}
    assert run_hook_inline(subagent_payload(repo, "Bash", commit, **wave.common())).decision == "pass"
    shared = run_hook_inline(payload(repo.main, "Bash", commit, agent_id=A, agent_type="general-purpose", tool_use_id="toolu_g", **wave.common()))
    assert codes(shared) == {"WG703"}  # the neighbour: in the shared checkout, git is the orchestrator's
