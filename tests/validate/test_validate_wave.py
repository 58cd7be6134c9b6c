"""validate reports wave violations (SPEC §11) in recorded sessions, the ownership read from the recorded dispatches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import Repo
from tests.validate.helpers import validate_runner

SESSION = "3a7e0000-0000-4000-8000-00000000a11e"
WORKER = "a0000000000000aa1"
STRAY = "a0000000000000bb2"


def _record(kind: str, cwd: Path, content: object, agent: str | None = None, **extra: object) -> str:
    record = {"type": kind, "cwd": str(cwd), "sessionId": SESSION, "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}, **extra}
    if agent:
        record.update(agentId=agent, isSidechain=True)
    return json.dumps(record)


def _use(tool_id: str, name: str, tool_input: dict) -> list[dict]:
    return [{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}]


def _result(tool_id: str, text: str = "ok", error: bool = False) -> list[dict]:
    return [{"type": "tool_result", "tool_use_id": tool_id, "content": text, "is_error": error}]


@pytest.fixture
def session(repo: Repo, tmp_path: Path) -> Path:
    main = repo.main
    project = tmp_path / "projects" / "-repo"
    (project / SESSION / "subagents").mkdir(parents=True)
    prompt = "Fix the login.\n```worktree-guard\nowns: src/auth/**\n```\n"
    malformed = "Do docs.\n```worktree-guard\nonws: docs/**\n```\n"
    lines = [
        _record("user", main, "run a wave"),
        _record("assistant", main, _use("toolu_dispatch_a", "Task", {"description": "auth", "prompt": prompt, "subagent_type": "general-purpose"})),
        _record("user", main, _result("toolu_dispatch_a", "done"), toolUseResult={"status": "completed", "agentId": WORKER}),
        _record("assistant", main, _use("toolu_dispatch_bad", "Task", {"description": "docs", "prompt": malformed, "subagent_type": "general-purpose"})),
        _record("user", main, _result("toolu_dispatch_bad", "done")),
        _record("assistant", main, _use("toolu_main_commit", "Bash", {"command": "git commit -qam wave"})),
        _record("user", main, _result("toolu_main_commit")),
    ]
    (project / f"{SESSION}.jsonl").write_text("\n".join(lines) + "\n")
    worker = [
        _record("user", main, prompt, WORKER),
        _record("assistant", main, _use("toolu_w_in", "Write", {"file_path": str(main / "src/auth/login.py"), "content": "x"}), WORKER),
        _record("user", main, _result("toolu_w_in"), WORKER),
        _record("assistant", main, _use("toolu_w_out", "Write", {"file_path": str(main / "src/app.py"), "content": "x"}), WORKER),
        _record("user", main, _result("toolu_w_out"), WORKER),
        _record("assistant", main, _use("toolu_w_npm", "Bash", {"command": "npm install left-pad"}), WORKER),
        _record("user", main, _result("toolu_w_npm"), WORKER),
        _record("assistant", main, _use("toolu_w_git", "Bash", {"command": "git commit -qm mine"}), WORKER),
        _record("user", main, _result("toolu_w_git", "denied by worktree-guard (WG703)", error=True), WORKER),
    ]
    (project / SESSION / "subagents" / f"agent-{WORKER}.jsonl").write_text("\n".join(worker) + "\n")
    stray = [
        _record("user", main, "something", STRAY),
        _record("assistant", main, _use("toolu_s_write", "Write", {"file_path": str(main / "README.md"), "content": "x"}), STRAY),
        _record("user", main, _result("toolu_s_write"), STRAY),
    ]
    (project / SESSION / "subagents" / f"agent-{STRAY}.jsonl").write_text("\n".join(stray) + "\n")
    return project


def test_validate_reports_wave_violations_with_the_recorded_ownership(session: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = validate_runner(capsys)(session)
    assert run.code == 1, run.err
    assert run.keys() == {
        ("toolu_w_out", "WG701", "violation"),
        ("toolu_w_npm", "WG702", "violation"),
        ("toolu_w_git", "WG703", "blocked"),
        ("toolu_dispatch_bad", "WG710", "violation"),
        # a sub-agent of this wave session whose dispatch is not recorded owns nothing
        ("toolu_s_write", "WG701", "violation"),
    }
    out = next(f for f in run.findings if f["tool_use_id"] == "toolu_w_out")
    assert "src/auth/**" in out["message"] and out["agent_id"] == WORKER
