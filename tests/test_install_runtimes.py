"""`install --runtime R` / `uninstall --runtime R` for every runtime other than Claude Code (whose own tests are
tests/test_install.py), run as the installed command on real files; and the installed command judging a real
call of that runtime from a linked worktree."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Repo
from tests.test_install import EXPECTED_COMMAND, guard
from worktree_guard.install import is_guard_handler

# runtime → (scope → file relative to the project or HOME, the event key, where the handler sits)
FILES = {
    "codex": {"project": "P/.codex/hooks.json", "user": "H/.codex/hooks.json"},
    "gemini": {"project": "P/.gemini/settings.json", "user": "H/.gemini/settings.json"},
    "copilot": {"project": "P/.github/hooks/worktree-guard.json", "user": "H/.copilot/settings.json"},
    "cursor": {"project": "P/.cursor/hooks.json", "user": "H/.cursor/hooks.json"},
    "cline": {"project": "P/.clinerules/hooks/PreToolUse", "user": "H/.cline/hooks/PreToolUse"},
}
EVENT = {"codex": "PreToolUse", "gemini": "BeforeTool", "copilot": "preToolUse", "cursor": "preToolUse"}
THEIRS = {
    "codex": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/opt/log.sh"}]}]},
    "gemini": {"BeforeTool": [{"matcher": "write_file", "hooks": [{"type": "command", "command": "/opt/log.sh", "timeout": 5000}]}]},
    "copilot": {"preToolUse": [{"type": "command", "bash": "/opt/log.sh", "timeoutSec": 5}], "sessionStart": [{"type": "command", "bash": "echo hi"}]},
    "cursor": {"preToolUse": [{"command": "/opt/log.sh"}], "stop": [{"command": "notify"}]},
}


def where(repo: Repo, runtime: str, scope: str) -> Path:
    text = FILES[runtime][scope]
    return (repo.main if text.startswith("P/") else Path(os.environ["HOME"])) / text[2:]


def guard_entries(settings: dict[str, Any], event: str) -> list[dict[str, Any]]:
    """The guard's handlers under `event`, whether grouped under matchers or listed flat."""
    found = []
    for item in settings.get("hooks", {}).get(event, []):
        handlers = item.get("hooks", [item]) if isinstance(item, dict) else []
        found += [h for h in handlers if is_guard_handler(h)]
    return found


@pytest.mark.parametrize("scope", ["project", "user"])
@pytest.mark.parametrize("runtime", ["codex", "gemini", "copilot", "cursor"])
def test_install_writes_the_runtimes_own_file_keeps_the_rest_and_uninstall_restores_it(repo: Repo, runtime: str, scope: str) -> None:
    path = where(repo, runtime, scope)
    path.parent.mkdir(parents=True, exist_ok=True)
    original = {"someone": "else", "hooks": THEIRS[runtime]}
    path.write_text(json.dumps(original))
    done = guard("install", "--runtime", runtime, f"--{scope}", cwd=repo.main)
    assert done.returncode == 0, done.stderr
    assert str(path) in done.stdout and f"{path}.worktree-guard.bak" in done.stdout
    first = path.read_text()
    settings = json.loads(first)
    (handler,) = guard_entries(settings, EVENT[runtime])
    assert handler.get("command", handler.get("bash")) == f"{EXPECTED_COMMAND} --runtime {runtime}"
    assert settings["someone"] == "else"
    assert guard("install", "--runtime", runtime, f"--{scope}", cwd=repo.main).returncode == 0
    assert path.read_text() == first  # idempotent
    assert guard("uninstall", "--runtime", runtime, f"--{scope}", cwd=repo.main).returncode == 0
    assert json.loads(path.read_text()) == original


def test_install_prints_the_trust_step_each_runtime_needs(repo: Repo) -> None:
    assert "trust" in guard("install", "--runtime", "codex", cwd=repo.main).stdout
    assert "GEMINI_CLI_TRUST_WORKSPACE" in guard("install", "--runtime", "gemini", cwd=repo.main).stdout


def test_runtime_specific_entries(repo: Repo) -> None:
    for runtime in ("codex", "gemini", "copilot", "cursor"):
        assert guard("install", "--runtime", runtime, cwd=repo.main).returncode == 0
    codex = json.loads(where(repo, "codex", "project").read_text())["hooks"]["PreToolUse"][0]
    assert codex["matcher"] == "apply_patch|Bash|spawn_agent" and codex["hooks"][0]["timeout"] == 30
    gemini = json.loads(where(repo, "gemini", "project").read_text())["hooks"]["BeforeTool"][0]
    assert gemini["matcher"] == "^(write_file|replace|run_shell_command|invoke_agent)$" and gemini["hooks"][0]["timeout"] == 30000
    copilot = json.loads(where(repo, "copilot", "project").read_text())
    assert copilot["version"] == 1 and copilot["hooks"]["preToolUse"][0]["timeoutSec"] == 30
    cursor = json.loads(where(repo, "cursor", "project").read_text())
    assert cursor["version"] == 1 and cursor["hooks"]["preToolUse"][0]["failClosed"] is True


def test_a_scope_the_runtime_does_not_have_is_refused(repo: Repo) -> None:
    done = guard("install", "--runtime", "codex", "--local", cwd=repo.main)
    assert done.returncode == 2 and "codex has no local hook configuration" in done.stderr
    assert not (repo.main / ".codex").exists()
    done = guard("install", "--runtime", "vscode", cwd=repo.main)
    assert done.returncode == 2 and "unknown runtime 'vscode'" in done.stderr


def test_cline_hook_file_is_an_executable_script_that_is_never_put_over_someone_elses(repo: Repo) -> None:
    path = where(repo, "cline", "project")
    assert guard("install", "--runtime", "cline", cwd=repo.main).returncode == 0
    text = path.read_text()
    assert text.startswith("#!/bin/sh\n") and text.endswith(f"exec {EXPECTED_COMMAND} --runtime cline\n")
    assert path.stat().st_mode & stat.S_IXUSR
    assert guard("install", "--runtime", "cline", cwd=repo.main).returncode == 0 and path.read_text() == text
    assert guard("uninstall", "--runtime", "cline", cwd=repo.main).returncode == 0
    assert not path.exists()
    path.write_text("#!/bin/sh\necho '{}'\n")
    done = guard("install", "--runtime", "cline", cwd=repo.main)
    assert done.returncode == 1 and "someone else's" in done.stderr
    assert path.read_text() == "#!/bin/sh\necho '{}'\n"
    assert guard("uninstall", "--runtime", "cline", cwd=repo.main).returncode == 0 and path.exists()


@pytest.mark.parametrize(
    ("runtime", "payload", "refused"),
    [
        ("codex", lambda r: {"session_id": "s", "turn_id": "t", "cwd": str(r.worktree), "hook_event_name": "PreToolUse", "tool_name": "apply_patch", "tool_input": {"command": f"*** Begin Patch\n*** Add File: {r.main}/x.txt\n+x\n*** End Patch\n"}}, lambda o: o["hookSpecificOutput"]["permissionDecisionReason"]),
        ("gemini", lambda r: {"session_id": "s", "cwd": str(r.worktree), "hook_event_name": "BeforeTool", "tool_name": "write_file", "tool_input": {"file_path": str(r.main / "x.txt"), "content": "x"}}, lambda o: o["reason"]),
        ("copilot", lambda r: {"sessionId": "s", "timestamp": 1, "cwd": str(r.worktree), "toolName": "create", "toolArgs": {"path": str(r.main / "x.txt"), "file_text": "x"}}, lambda o: o["permissionDecisionReason"]),
        ("cursor", lambda r: {"hook_event_name": "preToolUse", "conversation_id": "c", "generation_id": "g", "workspace_roots": [str(r.worktree)], "tool_name": "Write", "tool_input": {"file_path": str(r.main / "x.txt")}}, lambda o: o["agent_message"]),
        ("cline", lambda r: {"hookName": "tool_call", "workspaceRoots": [str(r.worktree)], "tool_call": {"id": "c", "name": "editor", "input": {"path": str(r.main / "x.txt"), "new_text": "x"}}}, lambda o: o["overrideInput"]["path"]),
    ],
)
def test_the_installed_command_refuses_a_write_into_the_main_checkout(repo: Repo, runtime: str, payload: Any, refused: Any) -> None:
    assert guard("install", "--runtime", runtime, cwd=repo.main).returncode == 0
    path = where(repo, runtime, "project")
    if runtime == "cline":
        argv = [str(path)]
    else:
        settings = json.loads(path.read_text())
        (handler,) = guard_entries(settings, EVENT[runtime])
        argv = ["sh", "-c", handler.get("command", handler.get("bash"))]
    done = subprocess.run(argv, input=json.dumps(payload(repo)), capture_output=True, text=True, cwd=repo.worktree, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "WG101" in refused(json.loads(done.stdout)), done.stdout


def test_doctor_reports_every_runtimes_wiring(repo: Repo) -> None:
    for runtime in ("codex", "cline"):
        assert guard("install", "--runtime", runtime, cwd=repo.main).returncode == 0
    done = guard("doctor", "--json", "--no-self-test", cwd=repo.worktree)
    report = json.loads(done.stdout)
    wired = {name: [f["file"] for f in files if f["commands"]] for name, files in report["runtimes"].items()}
    assert wired == {
        "codex": [str(repo.main / ".codex" / "hooks.json")],
        "gemini": [],
        "copilot": [],
        "cline": [str(repo.main / ".clinerules" / "hooks" / "PreToolUse")],
        "cursor": [],
    }
    # A Codex and Cline user is not told that Claude Code is not wired.
    assert report["problems"] == [] and done.returncode == 0
    (repo.main / ".gemini").mkdir()
    (repo.main / ".gemini" / "settings.json").write_text('{"hooks": {"BeforeTool": [{"hooks": [{"type": "command", "command": "/nowhere/python -m worktree_guard hook"}]}]}}')
    report = json.loads(guard("doctor", "--json", "--no-self-test", cwd=repo.worktree).stdout)
    assert report["problems"] == [f"gemini: {repo.main / '.gemini' / 'settings.json'}: program of '/nowhere/python -m worktree_guard hook' not found"]
