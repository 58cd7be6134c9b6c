"""Hook-input logs and the guard's own audit log, replayed like transcripts."""

from __future__ import annotations

import json
from pathlib import Path

from tests.shared_data import require_shared
from worktree_guard.hook import run_hook
from worktree_guard.plugins import plugin_manager
from worktree_guard.validate.hooklogs import read_hook_log


def payload(cwd, tool, tool_input, **extra):
    body = {"session_id": "s1", "cwd": str(cwd), "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input}
    body.update(extra)
    return body


def write_jsonl(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_real_hook_log_with_event_field() -> None:
    """fasthooks' log names the event `event`; 8 of its 10 PreToolUse calls have a PostToolUse."""
    log = require_shared("realdata", "fasthooks-claude-code-samples", "sample_hook_logs.jsonl")
    result = read_hook_log(str(log), plugin_manager())
    assert len(result.calls) == 10 and not result.problems
    unanswered = [c.payload["tool_input"].get("command") for c in result.calls if c.outcome == "no result"]
    assert unanswered == ["cat nonexistent.txt", "python /workspace/number_generator.py"]  # both failed: no PostToolUse
    assert sum(c.outcome == "executed" for c in result.calls) == 8


def test_hook_log_escape_with_and_without_a_post_event(repo, tmp_path, validate) -> None:
    leak = payload(repo.worktree, "Write", {"file_path": f"{repo.main}/leak.txt", "content": "x"}, tool_use_id="toolu_h1")
    inside = payload(repo.worktree, "Write", {"file_path": f"{repo.worktree}/ok.txt", "content": "x"}, tool_use_id="toolu_h2")
    post = {**leak, "hook_event_name": "PostToolUse", "tool_response": {"success": True}}
    log = write_jsonl(tmp_path / "hooks.jsonl", [leak, inside, {"hook_event_name": "Stop", "session_id": "s1"}, post])
    run = validate(log)
    assert run.keys() == {("toolu_h1", "WG101", "violation")}
    assert run.findings[0]["outcome"] == "executed" and run.findings[0]["line"] == 1
    write_jsonl(log, [leak, inside])
    assert validate(log).findings[0]["outcome"] == "no result"


def test_audit_log_denied_call_is_blocked(repo, tmp_path, validate) -> None:
    audit = tmp_path / "audit.jsonl"
    flags = {"audit_log": str(audit)}
    for target in (f"{repo.main}/leak.txt", f"{repo.worktree}/ok.txt"):
        body = payload(repo.worktree, "Write", {"file_path": target, "content": "secret"}, tool_use_id="toolu_" + Path(target).stem)
        run_hook(json.dumps(body).encode(), flags=flags)
    lines = audit.read_text().splitlines()
    assert len(lines) == 2 and "secret" not in audit.read_text()
    run = validate(audit)
    assert run.code == 0
    assert run.keys() == {("toolu_leak", "WG101", "blocked")}
    assert run.findings[0]["outcome_detail"] == "denied by worktree-guard (WG101)"


def test_unrecognised_and_damaged_files(tmp_path, validate, repo) -> None:
    (tmp_path / "other.jsonl").write_text('{"command": "ls", "source": "a corpus"}\n')
    log = write_jsonl(tmp_path / "hooks.jsonl", [payload(repo.worktree, "Write", {"file_path": f"{repo.main}/x", "content": ""})])
    with open(log, "a") as f:
        f.write('{"session_id": "s1", "cwd": \n')
    run = validate(tmp_path)
    assert run.code == 1
    assert "other.jsonl  not a Claude Code transcript, Codex session, hook-input log or audit log: skipped" in run.err
    assert "hooks.jsonl:2  not valid JSON" in run.err
