"""Codex session files (rollouts, a Codex hook payload's `transcript_path`) replayed by `validate`.

The record shapes are those Codex 0.171.0 wrote in the end-to-end runs (tests/e2e/test_runtimes_e2e.py
validates such a real file too)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.helpers import Repo

BLOCKED = "Command blocked by PreToolUse hook: {} [worktree-guard {}]. Command: …"


def item(kind: str, **payload: Any) -> dict[str, Any]:
    return {"timestamp": "2026-12-01T18:34:12.332Z", "type": kind, "payload": payload}


def function_call(call_id: str, name: str, arguments: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return item("response_item", type="function_call", name=name, arguments=json.dumps(arguments), call_id=call_id, **extra)


def output(call_id: str, text: str, custom: bool = False) -> dict[str, Any]:
    return item("response_item", type="custom_tool_call_output" if custom else "function_call_output", call_id=call_id, output=text)


def rollout(path: Path, cwd: Path, records: list[dict[str, Any]]) -> Path:
    meta = item("session_meta", id="01a232e2-c51f", cwd=str(cwd), cli_version="0.171.0", originator="codex_exec")
    lines = [meta, item("turn_context", turn_id="t1", cwd=str(cwd)), *records]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in lines))
    return path


def test_codex_session_calls_are_replayed_as_the_hook_judges_them(repo: Repo, tmp_path: Path, validate) -> None:
    patch = f"*** Begin Patch\n*** Add File: ok.txt\n+x\n*** Add File: {repo.main}/leak.txt\n+x\n*** End Patch\n"
    records = [
        function_call("c_redirect", "exec_command", {"cmd": f"echo x > {repo.main}/x.txt"}),
        output("c_redirect", "Chunk ID: 1\nProcess exited with code 0\nOutput:\n"),
        function_call("c_switch", "exec_command", {"cmd": "git switch -c x", "workdir": str(repo.main)}),
        output("c_switch", BLOCKED.format("git would switch the shared checkout", "WG201 WG301")),
        item("response_item", type="custom_tool_call", name="apply_patch", input=patch, call_id="c_patch"),
        output("c_patch", "Success. Updated the following files:\nA ok.txt\nA leak.txt\n", custom=True),
        function_call("c_fine", "exec_command", {"cmd": "ls && cat README.md", "workdir": "src"}),
        output("c_fine", "Process exited with code 0"),
        function_call("c_spawn", "spawn_agent", {"message": "do it"}, namespace="multi_agent_v1"),
    ]
    path = rollout(tmp_path / "codex-home" / "sessions" / "2026" / "12" / "01" / "rollout-x.jsonl", repo.worktree, records)
    run = validate(path)
    assert run.code == 1
    assert run.keys() == {
        ("c_redirect", "WG401", "violation"),
        ("c_switch", "WG201", "blocked"),
        ("c_switch", "WG301", "blocked"),
        ("c_patch", "WG101", "violation"),
    }
    by_id = {f["tool_use_id"]: f for f in run.findings}
    assert by_id["c_switch"]["outcome_detail"] == "denied by worktree-guard (WG201 WG301)"
    assert by_id["c_patch"]["path"] == f"{repo.main}/leak.txt" and by_id["c_patch"]["cwd"] == str(repo.worktree)


def test_a_codex_session_in_a_main_checkout_is_not_confined_except_in_audit_mode(repo: Repo, tmp_path: Path, validate) -> None:
    records = [function_call("c1", "exec_command", {"cmd": f"echo x > {repo.sibling}/x.txt"}), output("c1", "ok")]
    path = rollout(tmp_path / "rollout-main.jsonl", repo.main, records)
    assert validate(path).keys() == set()
    assert validate(path, "--mode", "audit").keys() == {("c1", "WG401", "violation")}
