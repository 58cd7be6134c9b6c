"""A sub-agent that started isolated stays isolated when its cwd leaves its worktree.

Claude Code's `cwd` follows `cd` (research/hook-protocols.md §1.4). `cd /tmp/t` is allowed (the temp dir is in
the default allow-list), and before this, the sub-agent's next calls, made from /tmp/t, were judged as those of an
agent outside any checkout: not isolated, so a write or a `git checkout` in the main checkout passed. The start
snapshot of the leak check (SubagentStart) now places such a call: W as recorded (engine.build_context,
subagents/leak_check.worktree_guard_started_layout).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import Repo, lifecycle_payload, payload, run_hook_inline


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
    from worktree_guard.subagents.places import snapshot_path

    record = Path(snapshot_path(lifecycle_payload(repo, "SubagentStart")["session_id"], repo.agent_id))
    assert record.is_file()
    record.write_text("{not json")
    result = run_hook_inline(payload(started, "Write", {"file_path": str(started / "x"), "content": "x"}, agent_id=repo.agent_id, agent_type="general-purpose"))
    assert result.codes == ["WG000"] and "its start record cannot be read" in result.reason
    record.write_text('{"worktree_root": "relative"}')
    assert call(repo, started, "Write", {"file_path": str(started / "x"), "content": "x"}) == ["WG000"]


def test_after_its_stop_the_record_is_gone(repo: Repo, started: Path) -> None:
    assert run_hook_inline(lifecycle_payload(repo, "SubagentStop")).returncode == 0
    from worktree_guard.subagents.places import snapshot_path

    assert not os.path.exists(snapshot_path(lifecycle_payload(repo, "SubagentStop")["session_id"], repo.agent_id))
