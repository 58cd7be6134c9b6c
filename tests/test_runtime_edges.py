"""The runtime adapters' payload reading and replies, field by field: each test here kills mutants that
bench/mutation.py found surviving the adapters' other tests (issue 13, phase 3). Payloads are placed in a real
repository with real linked worktrees (`repo.worktree` is the agent's W, `repo.main` the shared checkout), and
read through the plugins (`read`) or answered by the whole hook in this process (`answer`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from worktree_guard.engine import CallError, build_context, decide
from worktree_guard.hook import run_hook
from worktree_guard.model import ToolCall
from worktree_guard.plugins import plugin_manager

from .helpers import Repo

PM = plugin_manager(entry_points=False)


def read(payload: dict[str, Any], runtime: str = "auto") -> ToolCall | None:
    return PM.hook.worktree_guard_read_payload(payload=payload, runtime=runtime)


def judged(payload: dict[str, Any], runtime: str = "auto") -> tuple[set[str], str]:
    """(error codes, decision) as the engine sees the call."""
    call = read(payload, runtime)
    assert call is not None
    verdict = decide(call, build_context(call, pm=PM))
    return {v.code for v in verdict.violations if v.severity == "error"}, verdict.decision


def answer(payload: dict[str, Any] | bytes, runtime: str, where: Path, **flags: Any) -> str:
    """What the hook prints for this payload (exit 0 asserted), the hook process running in `where` (as the
    runtime starts it: an unreadable payload is placed by that directory)."""
    stdin = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    out = run_hook(stdin, flags={"runtime": runtime, **flags}, cwd=str(where))
    assert out.exit_code == 0, out.stderr
    return out.stdout


def codes_in(text: str) -> set[str]:
    return set(text.rsplit("[worktree-guard ", 1)[1].rstrip("]").split()) if "[worktree-guard " in text else set()


# --- Cursor --------------------------------------------------------------------------------------------------


def cursor(repo: Repo, event: str = "preToolUse", **fields: Any) -> dict[str, Any]:
    return {"hook_event_name": event, "conversation_id": "c1", "generation_id": "g1", "workspace_roots": [str(repo.worktree)], **fields}


def test_cursor_is_recognised_by_both_of_its_ids_only(repo: Repo) -> None:
    full = cursor(repo, tool_name="Write", tool_input={"file_path": "x"})
    assert read(full).runtime == "cursor"
    for missing in ("conversation_id", "generation_id"):
        partial = {k: v for k, v in full.items() if k != missing}
        with pytest.raises(CallError, match="the Claude Code payload's `cwd` is invalid"):  # Claude Code's, the fallback
            read(partial)
        assert read(partial, "cursor").runtime == "cursor"  # named by --runtime, it is Cursor's all the same


def test_cursor_reads_the_first_workspace_root_then_cwd_then_refuses(repo: Repo) -> None:
    write = {"tool_name": "Write", "tool_input": {"file_path": "x"}}
    assert read(cursor(repo, workspace_roots=[str(repo.worktree), str(repo.main)], **write)).cwd == str(repo.worktree)
    for roots in ([], [""], [5], str(repo.main), None):
        payload = cursor(repo, workspace_roots=roots, cwd=str(repo.sibling), **write)
        assert read(payload).cwd == str(repo.sibling), roots
    for cwd in ("", 5, None):
        payload = cursor(repo, workspace_roots=[], cwd=cwd, **write)
        with pytest.raises(CallError, match=r"^the Cursor payload names no directory \(`workspace_roots`, `cwd`\)$"):
            read(payload)
        assert PM.hook.worktree_guard_payload_cwd(payload=payload, runtime="cursor") is None
    assert PM.hook.worktree_guard_payload_cwd(payload=cursor(repo, **write), runtime="cursor") == str(repo.worktree)
    assert PM.hook.worktree_guard_payload_cwd(payload=cursor(repo, cwd=str(repo.main), workspace_roots=None), runtime="auto") == str(repo.main)
    other = {"cwd": str(repo.main), "hook_event_name": "PreToolUse"}
    assert PM.hook.worktree_guard_payload_cwd(payload=other, runtime="cursor") == str(repo.main)


def test_cursor_tool_call_fields(repo: Repo) -> None:
    call = read(cursor(repo, tool_name="StrReplace", tool_input={"path": "a.txt", "old_string": "x"}, tool_use_id="t9"))
    assert (call.runtime, call.tool, call.kind, call.cwd, call.path_field) == ("cursor", "StrReplace", "file_write", str(repo.worktree), "path")
    assert (call.session_id, call.tool_use_id, call.input) == ("c1", "t9", {"path": "a.txt", "old_string": "x"})
    for field in ("file_path", "path", "target_file"):
        assert read(cursor(repo, tool_name="Delete", tool_input={field: "a", "other": "b"})).path_field == field
    both = read(cursor(repo, tool_name="Edit", tool_input={"target_file": "a", "file_path": "b"}))
    assert both.path_field == "file_path"  # the documented field first
    assert read(cursor(repo, tool_name="Edit", tool_input={"contents": "x"})).path_field == "file_path"
    shell = read(cursor(repo, tool_name="Shell", tool_input={"command": "ls", "file_path": "x"}))
    assert (shell.kind, shell.path_field) == ("shell", None)
    task = read(cursor(repo, tool_name="Task", tool_input={"prompt": "p"}))
    assert (task.kind, task.subagent_place) == ("dispatch", "dispatcher_cwd")
    assert read(cursor(repo, tool_name="Grep", tool_input={})).kind == "other"
    assert read(cursor(repo, tool_name="MCP:fs:write", tool_input={})).kind == "unknown"
    assert read(cursor(repo, tool_name="Read")).input == {}  # no tool_input: an empty one
    assert read(cursor(repo, tool_name="Read", tool_input=None)).input == {}
    with pytest.raises(CallError, match=r"the cursor payload's `tool_input` is a list, not an object"):
        read(cursor(repo, tool_name="Read", tool_input=[]))
    with pytest.raises(CallError, match=r"the cursor payload's `tool_name` is missing"):
        read(cursor(repo))
    no_session = {k: v for k, v in cursor(repo, tool_name="Read").items() if k != "conversation_id"}
    assert read(no_session, "cursor").session_id is None


def test_cursor_events(repo: Repo) -> None:
    shell = read(cursor(repo, "beforeShellExecution", command="ls -la", cwd=str(repo.worktree / "src")))
    assert (shell.tool, shell.kind, shell.input, shell.shell_cwd, shell.session_id) == ("Shell", "shell", {"command": "ls -la"}, str(repo.worktree / "src"), "c1")
    assert read(cursor(repo, "beforeShellExecution", command="ls", cwd=str(repo.worktree))).shell_cwd is None
    assert read(cursor(repo, "beforeShellExecution", command="ls")).shell_cwd is None
    mcp = read(cursor(repo, "beforeMCPExecution", tool_name="fs_write"))
    assert (mcp.tool, mcp.kind, mcp.session_id, mcp.cwd) == ("fs_write", "unknown", "c1", str(repo.worktree))
    assert read(cursor(repo, "beforeMCPExecution")).tool == "beforeMCPExecution"
    assert judged(cursor(repo, "beforeMCPExecution", tool_name="fs_write")) == ({"WG000"}, "deny")
    stop = read(cursor(repo, "stop"))
    assert (stop.tool, stop.kind, stop.session_id) == ("stop", "other", "c1")
    assert answer(cursor(repo, "afterFileEdit"), "cursor", repo.worktree) == "{}"
    with pytest.raises(CallError, match=r"'PreToolUse' is not an event Cursor sends \(its tool event is 'preToolUse'\)"):
        read(cursor(repo, "PreToolUse", tool_name="Write"))
    with pytest.raises(CallError, match=r"`hook_event_name` is missing"):
        read({k: v for k, v in cursor(repo).items() if k != "hook_event_name"}, "cursor")


def test_cursor_fields_of_the_wrong_type_are_named_in_the_refusal(repo: Repo) -> None:
    def refusal(payload: dict[str, Any]) -> str:
        with pytest.raises(CallError) as caught:
            read(payload, "cursor")
        return str(caught.value)

    assert refusal(cursor(repo, 5)) == "the cursor payload's `hook_event_name` is not a usable string (5)"
    assert refusal(cursor(repo, tool_name="Read", conversation_id=5)) == "the cursor payload's `conversation_id` is not a usable string (5)"
    assert refusal(cursor(repo, tool_name="Read", tool_use_id=5)) == "the cursor payload's `tool_use_id` is not a usable string (5)"
    assert refusal(cursor(repo, "beforeShellExecution", command="ls", cwd=5)) == "the cursor payload's `cwd` is not a usable string (5)"
    assert refusal(cursor(repo, "beforeMCPExecution", tool_name=5)) == "the cursor payload's `tool_name` is not a usable string (5)"


def test_cursor_replies(repo: Repo) -> None:
    deny = json.loads(answer(cursor(repo, tool_name="Write", tool_input={"file_path": str(repo.main / "x"), "contents": "x"}), "cursor", repo.worktree))
    assert set(deny) == {"permission", "user_message", "agent_message"}
    assert deny["permission"] == "deny" and deny["user_message"] == deny["agent_message"]
    assert codes_in(deny["agent_message"]) == {"WG101"} and deny["agent_message"].startswith(f"{repo.main / 'x'} is in the shared checkout")
    rewrite = json.loads(answer(cursor(repo, tool_name="Write", tool_input={"file_path": str(repo.main / "x"), "contents": "x"}), "cursor", repo.worktree, mode="rewrite"))
    assert set(rewrite) == {"permission", "updated_input", "agent_message"}
    assert rewrite["permission"] == "allow"
    assert rewrite["updated_input"] == {"file_path": str(repo.worktree / "x"), "contents": "x"}
    assert codes_in(rewrite["agent_message"]) == {"WG101"}
    warn = json.loads(answer(cursor(repo, tool_name="Write", tool_input={"file_path": str(repo.main / "x"), "contents": "x"}), "cursor", repo.worktree, mode="warn"))
    assert set(warn) == {"user_message"} and codes_in(warn["user_message"]) == {"WG101"}
    assert answer(cursor(repo, tool_name="Write", tool_input={"file_path": "x", "contents": "x"}), "cursor", repo.worktree) == "{}"
    error = json.loads(answer(b"[]", "cursor", repo.worktree))
    assert set(error) == {"permission", "user_message", "agent_message"} and error["permission"] == "deny"
    assert codes_in(error["agent_message"]) == {"WG000"} and error["agent_message"] == (
        "worktree-guard could not check this call, so it is refused: stdin is JSON but not an object (got list) [worktree-guard WG000]"
    )


def test_cursor_installs_a_fail_closed_pre_tool_use_entry() -> None:
    from worktree_guard.runtimes import cursor as adapter

    assert PM.hook.worktree_guard_hook_config() and adapter.HOOK_CONFIG in PM.hook.worktree_guard_hook_config()
    assert adapter.HOOK_CONFIG.entries("wg hook") == {"preToolUse": {"command": "wg hook", "failClosed": True}}
