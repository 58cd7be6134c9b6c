"""The public recorded sessions in shared/realdata: recorded inside worktrees, with no known escape.

Every finding here would be a true escape to show or a false positive to fix; there is none, in the hook's
mode and in audit mode (every agent judged, W = the session's first cwd, the primary checkout as S).
"""

from __future__ import annotations

import json

import pytest

from tests.shared_data import require_shared

FOLDERS = ("spotter-claude-code-worktrees", "claude-reliability-snapshot-transcripts", "fasthooks-claude-code-samples")
SPOTTER_MAIN = "/home/USER/projects/spotter"


@pytest.mark.parametrize("folder", FOLDERS)
def test_real_sessions_are_clean(validate, folder) -> None:
    for mode in ("enforce", "audit"):
        run = validate(require_shared("realdata", folder), "--mode", mode, "--shared", SPOTTER_MAIN)
        assert (run.code, run.findings) == (0, [])
        assert "skipped 0 unreadable lines, 0 files" in run.err


def test_every_call_is_replayed_once(validate) -> None:
    """Sub-agents' calls repeated in their parents' progress records are counted once."""
    ids: list[str] = []
    for path in require_shared("realdata", FOLDERS[0]).rglob("*.jsonl"):
        for line in path.read_text().splitlines():
            record = json.loads(line)
            message = record.get("message")
            if record.get("type") == "progress" and record["data"].get("type") == "agent_progress":
                message = record["data"]["message"]["message"] if record["data"]["message"]["type"] == "assistant" else None
            elif record.get("type") != "assistant":
                message = None
            for block in (message or {}).get("content", []):
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    ids.append(block["id"])
    assert len(ids) > len(set(ids))
    run = validate(require_shared("realdata", FOLDERS[0]))
    assert f"{len(set(ids)):,} tool calls" in run.err


def test_plan_files_are_allowed_because_the_recorded_home_is_known(validate) -> None:
    """With this machine's home instead of the recording user's, the plan-mode Write looks like an escape."""
    run = validate(require_shared("realdata", FOLDERS[0]), "--mode", "audit", "--home", "/nonexistent-home")
    assert {(f["code"], f["tool"]) for f in run.findings} == {("WG102", "Write")}
    assert all(f["path"].startswith("/home/USER/.claude/plans/") for f in run.findings)
