"""A sub-agent that started isolated stays isolated when its cwd leaves its worktree.

Claude Code's `cwd` follows `cd` (research/hook-protocols.md §1.4). `cd /tmp/t` is allowed (the temp dir is in
the default allow-list), and before this, the sub-agent's next calls, made from /tmp/t, were judged as those of an
agent outside any checkout: not isolated, so a write or a `git checkout` in the main checkout passed. The start
snapshot of the leak check (SubagentStart) now places such a call: W as recorded (engine.build_context,
subagents/leak_check.worktree_guard_started_layout). A Copilot sub-agent's calls carry its own id as `sessionId` and
its start event the dispatcher's: its record is looked up under the dispatcher its calls name too.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import Repo, git, lifecycle_payload, payload, run_hook_inline, write_agent


def call(repo: Repo, cwd: Path, tool: str, tool_input: dict[str, str], agent_id: str | None = None) -> list[str] | str:
    result = run_hook_inline(payload(cwd, tool, tool_input, agent_id=agent_id or repo.agent_id, agent_type="general-purpose"))
    return "pass" if result.decision == "pass" else result.codes


@pytest.fixture
def started(repo: Repo, tmp_path: Path) -> Path:
    """The sub-agent started (its snapshot recorded) and moved to /tmp-like `t`, outside every checkout."""
    assert run_hook_inline(lifecycle_payload(repo, "SubagentStart")).returncode == 0
    outside = tmp_path / "t"
    outside.mkdir()
    assert call(repo, repo.worktree, "Bash", {"command": f"cd {outside}"}) == "pass"
    return outside


def test_a_call_from_outside_its_worktree_is_judged_with_its_recorded_worktree(repo: Repo, started: Path) -> None:
    assert call(repo, started, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]
    assert call(repo, started, "Bash", {"command": f"echo x > {repo.main}/README.md"}) == ["WG401"]
    assert call(repo, started, "Bash", {"command": f"git -C {repo.main} checkout -q -b evil"}) == ["WG301"]
    assert call(repo, started, "Write", {"file_path": str(started / "scratch.txt"), "content": "x"}) == "pass"  # allowed
    assert call(repo, started, "Write", {"file_path": str(repo.worktree / "a.txt"), "content": "x"}) == "pass"  # its own W


def test_an_agent_that_did_not_start_isolated_is_judged_as_before(repo: Repo, started: Path) -> None:
    assert call(repo, started, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}, agent_id="other") == "pass"


def test_a_start_record_that_cannot_be_read_is_unknown(repo: Repo, started: Path) -> None:
    from worktree_guard.subagents.places import started_path

    record = Path(started_path(lifecycle_payload(repo, "SubagentStart")["session_id"], repo.agent_id))
    assert record.is_file()
    for text, cause in (("{not json", "its start record cannot be read"), ('{"worktree_root": "relative"}', "its start record names no worktree"),
                        (f'{{"worktree_root": "{repo.worktree}", "common_dir": null, "shared_roots": "x"}}', "its start record names no shared checkouts")):
        record.write_text(text)
        result = run_hook_inline(payload(started, "Write", {"file_path": str(started / "x"), "content": "x"}, agent_id=repo.agent_id, agent_type="general-purpose"))
        assert result.decision == "deny" and result.codes == ["WG000"] and cause in result.reason, result.stdout


def test_after_its_stop_the_record_stays(repo: Repo, started: Path) -> None:
    """A stop that another SubagentStop hook blocks lets the sub-agent go on: it stays isolated."""
    assert run_hook_inline(lifecycle_payload(repo, "SubagentStop")).returncode == 0
    assert call(repo, started, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]


def test_a_worktree_of_a_clone_it_made_does_not_free_it(repo: Repo, started: Path) -> None:
    """The sub-agent clones the repository into the temp dir, makes a linked worktree of the clone and moves into
    it: its cwd is in a linked worktree again (another repository's), whose configuration it wrote."""
    clone = started / "c"
    git("clone", "-q", str(repo.main), str(clone), cwd=started)
    (clone / ".worktree-guard.toml").write_text('mode = "off"\n')
    git("worktree", "add", "-q", "-b", "x", str(started / "c2"), cwd=clone)
    assert call(repo, started / "c2", "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]
    assert call(repo, started / "c2", "Bash", {"command": f"git -C {repo.main} checkout -q -b evil"}) == ["WG301"]


def test_a_link_in_its_worktree_to_the_temp_dir_does_not_free_it(repo: Repo, started: Path) -> None:
    """`ln -s /tmp/t l && cd l`: the runtime may report W/l, which is inside W as written but not as it is."""
    (repo.worktree / "l").symlink_to(started)
    assert call(repo, repo.worktree / "l", "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]


def test_a_start_whose_isolation_was_not_applied_records_no_worktree(repo: Repo) -> None:
    """Misplaced at its start (a definition declares isolation, the cwd is the main checkout): its calls are judged
    as before (WG002 for a write), not refused as unplaceable."""
    from worktree_guard.subagents.places import started_path

    write_agent(repo.main, "worker", "isolation: worktree")
    start = lifecycle_payload(repo, "SubagentStart", cwd=str(repo.main), agent_type="worker", agent_id="b999")  # no agent-b999 worktree
    assert run_hook_inline(start).returncode == 0
    assert not os.path.exists(started_path(start["session_id"], "b999"))
    result = run_hook_inline(payload(repo.main, "Write", {"file_path": str(repo.main / "x"), "content": "x"}, agent_id="b999", agent_type="worker"))
    assert result.codes == ["WG002"]


def nested_clone_worktree(repo: Repo, temp: Path) -> Path:
    """A clone in the temp dir whose config turns the guard off, and a worktree of it made inside W."""
    clone = temp / "c"
    git("clone", "-q", str(repo.main), str(clone), cwd=temp)
    (clone / ".worktree-guard.toml").write_text('mode = "off"\n')
    git("worktree", "add", "-q", "-b", "x", str(repo.worktree / "x"), cwd=clone)
    return repo.worktree / "x"


def test_a_worktree_of_its_clone_made_inside_its_worktree_does_not_free_it(repo: Repo, started: Path) -> None:
    """The cwd is inside the recorded W, but in a checkout nested in it: judged as recorded."""
    inner = nested_clone_worktree(repo, started)
    assert call(repo, inner, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]
    assert call(repo, inner, "Bash", {"command": f"git -C {repo.main} checkout -q -b evil"}) == ["WG301"]
    assert call(repo, repo.worktree / "src", "Write", {"file_path": str(repo.worktree / "a"), "content": "x"}) == "pass"  # W itself


def test_without_a_record_the_clones_configuration_is_still_not_read(repo: Repo, tmp_path: Path) -> None:
    """No start record (a runtime without SubagentStart hooks): W/x is the agent's W, and the clone's file, in the
    temp dir, is one the agent could write, judged from the outer worktree."""
    temp = tmp_path / "t"
    temp.mkdir()
    inner = nested_clone_worktree(repo, temp)
    assert call(repo, inner, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}, agent_id="norecord") == ["WG101"]


def test_a_worktree_added_after_its_start_is_shared_too(repo: Repo, started: Path) -> None:
    later = repo.base / "later"
    git("worktree", "add", "-q", "-b", "later", str(later), cwd=repo.main)
    assert call(repo, started, "Write", {"file_path": str(later / "README.md"), "content": "x"}) == ["WG101"]
    assert call(repo, started, "Bash", {"command": f"git -C {later} reset -q --hard"}) == ["WG302"]


# --- Copilot: a sub-agent's calls carry its own id as `sessionId`, its start event the dispatcher's --------------------------------------------------

DISPATCHER = "d0dbe720-2c2d-494b-a15d-920acbaeff09"
SUB = "d53c329b-5c60-4312-8c9f-a3845606c0fa"


def copilot_start(repo: Repo) -> dict[str, object]:
    """`subagentStart` as Copilot 1.0.102 sends it (fixtures/runtime-lifecycle/copilot): the dispatcher's session."""
    return {
        "sessionId": DISPATCHER, "timestamp": 1796157143442, "cwd": str(repo.worktree),
        "transcriptPath": str(repo.base / "events.jsonl"), "agentName": "general-purpose",
        "agentId": SUB, "agentType": "general-purpose", "parentAgentId": DISPATCHER,
    }


def copilot_call(cwd: Path, command: str) -> list[str] | str:
    """A sub-agent's `preToolUse`: its own id as `sessionId`, the dispatcher's as `parentAgentId`."""
    body = {
        "sessionId": SUB, "timestamp": 1796157144167, "cwd": str(cwd), "toolName": "bash",
        "toolArgs": {"command": command, "description": "w"},
        "agentId": SUB, "agentType": "general-purpose", "parentAgentId": DISPATCHER,
    }
    result = run_hook_inline(body)
    return "pass" if result.decision == "pass" else result.codes


def test_a_copilot_sub_agent_that_left_its_worktree_is_judged_with_it(repo: Repo, tmp_path: Path) -> None:
    outside = tmp_path / "t"
    outside.mkdir()
    assert run_hook_inline(copilot_start(repo)).returncode == 0
    assert copilot_call(repo.worktree, f"cd {outside}") == "pass"
    assert copilot_call(outside, f"echo x > {repo.main}/README.md") == ["WG401"]
    assert copilot_call(outside, f"git -C {repo.main} checkout -q -b evil") == ["WG301"]
    assert copilot_call(outside, f"echo x > {outside}/a.txt") == "pass"


def test_a_copilot_sub_agent_whose_record_cannot_be_read_is_refused(repo: Repo, tmp_path: Path) -> None:
    from worktree_guard.subagents.places import started_path

    outside = tmp_path / "t"
    outside.mkdir()
    assert run_hook_inline(copilot_start(repo)).returncode == 0
    Path(started_path(DISPATCHER, SUB)).write_text("{not json")
    assert copilot_call(outside, f"echo x > {outside}/a.txt") == ["WG000"]


def test_a_state_directory_the_sweep_cannot_list_still_gets_the_start_record(repo: Repo, tmp_path: Path) -> None:
    """An entry of the state root the sweep cannot examine (a loop of links here; another user's directory in the
    wild) raised out of the sweep before the start was recorded: the sub-agent then left W unconfined (review 6)."""
    from worktree_guard.subagents.state import state_root

    root = Path(state_root())
    root.mkdir(parents=True, exist_ok=True)
    (root / "loop").symlink_to(root / "loop")
    assert run_hook_inline(lifecycle_payload(repo, "SubagentStart")).returncode == 0
    outside = tmp_path / "t"
    outside.mkdir()
    assert call(repo, repo.worktree, "Bash", {"command": f"cd {outside}"}) == "pass"
    assert call(repo, outside, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]
