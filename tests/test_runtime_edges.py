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


def refusal_of(payload: dict[str, Any], runtime: str = "auto") -> str:
    """The CallError an adapter raises for this payload (the cause in its WG000 refusal)."""
    with pytest.raises(CallError) as caught:
        read(payload, runtime)
    return str(caught.value)


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
    assert refusal_of(cursor(repo, 5)) == "the cursor payload's `hook_event_name` is not a usable string (5)"
    assert refusal_of(cursor(repo, tool_name="Read", conversation_id=5)) == "the cursor payload's `conversation_id` is not a usable string (5)"
    assert refusal_of(cursor(repo, tool_name="Read", tool_use_id=5)) == "the cursor payload's `tool_use_id` is not a usable string (5)"
    assert refusal_of(cursor(repo, "beforeShellExecution", command="ls", cwd=5)) == "the cursor payload's `cwd` is not a usable string (5)"
    assert refusal_of(cursor(repo, "beforeMCPExecution", tool_name=5)) == "the cursor payload's `tool_name` is not a usable string (5)"


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


# --- what every adapter shares (runtimes/common.py) -----------------------------------------------------------


def test_a_field_of_the_wrong_type_is_named_with_its_value_cut_at_80_characters(repo: Repo) -> None:
    assert refusal_of(cursor(repo, tool_name="Read", tool_use_id=list(range(100))), "cursor") == f"the cursor payload's `tool_use_id` is not a usable string ({list(range(100))!r:.80})"
    with pytest.raises(CallError) as caught:
        read(cursor(repo, tool_name=""), "cursor")  # required: an empty string is no name
    assert str(caught.value) == "the cursor payload's `tool_name` is not a usable string ('')"
    assert read(cursor(repo, tool_name="Read", tool_use_id=""), "cursor").tool_use_id == ""  # optional: kept as sent


def test_replies_keep_non_ascii_text_as_it_is(repo: Repo) -> None:
    target = repo.main / "résumé.txt"
    out = answer(cursor(repo, tool_name="Write", tool_input={"file_path": str(target), "contents": "x"}), "cursor", repo.worktree)
    assert str(target) in out and "\\u" not in out


def test_the_lifecycle_reply_in_claude_codes_words() -> None:
    from worktree_guard.model import AgentEvent, EventVerdict
    from worktree_guard.runtimes.common import lifecycle_reply

    stop = AgentEvent(runtime="codex", event="SubagentStop", cwd="/w", agent_id="a")
    start = AgentEvent(runtime="codex", event="SubagentStart", cwd="/w", agent_id="a")
    blocked = EventVerdict(decision="block", reason="put it back", context="ctx", user_message="told")
    assert json.loads(lifecycle_reply(blocked, stop).stdout) == {"decision": "block", "reason": "put it back", "systemMessage": "told"}
    assert json.loads(lifecycle_reply(blocked, start).stdout) == {
        "hookSpecificOutput": {"hookEventName": "SubagentStart", "additionalContext": "ctx"},
        "systemMessage": "told",
    }
    assert lifecycle_reply(EventVerdict(decision="block"), stop).stdout == ""  # no reason: nothing to go on with
    assert lifecycle_reply(EventVerdict(decision="warn", reason="r"), stop).stdout == ""
    assert lifecycle_reply(EventVerdict(context="ctx"), stop).stdout == ""
    assert json.loads(lifecycle_reply(EventVerdict(decision="warn", user_message="u"), stop).stdout) == {"systemMessage": "u"}
    assert lifecycle_reply(EventVerdict(), start) == lifecycle_reply(EventVerdict(), stop)
    assert lifecycle_reply(EventVerdict(), start).stdout == ""


def test_an_unparsable_payload_under_auto_is_refused_in_claude_codes_words(repo: Repo) -> None:
    out = json.loads(answer(b"not json", "auto", repo.worktree))
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert codes_in(out["hookSpecificOutput"]["permissionDecisionReason"]) == {"WG000"}


# --- Gemini CLI ------------------------------------------------------------------------------------------------


def gemini(repo: Repo, tool: str | None = "write_file", tool_input: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    body = {"session_id": "g-s", "cwd": str(repo.worktree), "hook_event_name": "BeforeTool", "timestamp": "t", "tool_name": tool, "tool_input": tool_input or {}}
    body.update(fields)
    return {k: v for k, v in body.items() if v is not None}


def test_gemini_is_recognised_by_its_own_events_only(repo: Repo) -> None:
    assert read(gemini(repo)).runtime == "gemini"
    for event in ("AfterTool", "BeforeAgent", "PreCompress"):
        assert read(gemini(repo, hook_event_name=event)).runtime == "gemini"
    shared = gemini(repo, hook_event_name="SessionStart")
    assert read(shared).runtime == "claude-code"  # a name Claude Code sends too: not Gemini's by its look
    call = read(shared, "gemini")
    assert (call.runtime, call.tool, call.kind) == ("gemini", "write_file", "other")
    bare = read(gemini(repo, None, hook_event_name="SessionEnd"), "gemini")
    assert (bare.tool, bare.kind) == ("SessionEnd", "other")
    assert refusal_of(gemini(repo, hook_event_name="PreToolUse"), "gemini") == "'PreToolUse' is not an event Gemini CLI sends (its tool event is 'BeforeTool')"
    assert refusal_of(gemini(repo, None)) == "the gemini payload's `tool_name` is missing"
    assert refusal_of(gemini(repo, cwd=5)) == "the gemini payload's `cwd` is not a usable string (5)"
    assert refusal_of(gemini(repo, session_id=5)) == "the gemini payload's `session_id` is not a usable string (5)"
    assert refusal_of(gemini(repo, hook_event_name=5), "gemini") == "the gemini payload's `hook_event_name` is not a usable string (5)"
    assert refusal_of(gemini(repo, tool_input=[1]), "gemini") == "the gemini payload's `tool_input` is a list, not an object"


def test_gemini_tool_call_fields(repo: Repo) -> None:
    write = read(gemini(repo, "replace", {"file_path": "a", "old_string": "x"}))
    assert (write.runtime, write.tool, write.kind, write.cwd, write.path_field, write.session_id) == ("gemini", "replace", "file_write", str(repo.worktree), "file_path", "g-s")
    after = read(gemini(repo, "write_file", {"file_path": str(repo.main / "x")}, hook_event_name="AfterTool"))
    assert (after.kind, after.path_field) == ("other", "file_path")
    assert read(gemini(repo, "read_file", {})).kind == "other"
    assert read(gemini(repo, "mcp_fs_write", {})).kind == "unknown"
    shells = {
        "dir_path": {"command": "ls", "dir_path": "src", "directory": "x"},
        "directory": {"command": "ls", "directory": "src"},
        "empty": {"command": "ls", "dir_path": "", "directory": "src"},
        "none": {"command": "ls", "dir_path": None},
    }
    assert {k: read(gemini(repo, "run_shell_command", v)).shell_cwd for k, v in shells.items()} == {
        "dir_path": "src", "directory": "src", "empty": "src", "none": None
    }
    assert refusal_of(gemini(repo, "run_shell_command", {"command": "ls", "dir_path": 5})) == "the gemini payload's `dir_path` is not a usable string (5)"
    invoke = read(gemini(repo, "invoke_agent", {"agent_name": "coder", "prompt": "do it"}))
    assert (invoke.kind, invoke.subagent_named, invoke.subagent_prompt, invoke.subagent_type, invoke.subagent_place) == ("dispatch", False, "do it", "coder", "dispatcher_cwd")
    odd = read(gemini(repo, "invoke_agent", {"agent_name": "", "prompt": 5}))
    assert (odd.subagent_named, odd.subagent_prompt, odd.subagent_type) == (False, None, None)
    assert read(gemini(repo, "invoke_agent", {"agent_name": 5})).subagent_type is None
    assert read(gemini(repo, "write_file", {"file_path": "a"}, session_id=None)).session_id is None  # optional
    plain = read(gemini(repo, "write_file", {"file_path": "a"}))
    assert (plain.subagent_named, plain.subagent_prompt, plain.subagent_type, plain.shell_cwd, plain.subagent_place) == (True, None, None, None, "input")


def test_gemini_replies(repo: Repo) -> None:
    outside = gemini(repo, "write_file", {"file_path": str(repo.main / "x"), "content": "x"})
    deny = json.loads(answer(outside, "gemini", repo.worktree))
    assert set(deny) == {"decision", "reason"} and deny["decision"] == "deny" and codes_in(deny["reason"]) == {"WG101"}
    rewrite = json.loads(answer(outside, "gemini", repo.worktree, mode="rewrite"))
    assert rewrite == {
        "decision": "allow",
        "reason": rewrite["reason"],
        "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {"file_path": str(repo.worktree / "x"), "content": "x"}},
    }
    assert codes_in(rewrite["reason"]) == {"WG101"}
    warn = json.loads(answer(outside, "gemini", repo.worktree, mode="warn"))
    assert set(warn) == {"systemMessage"} and codes_in(warn["systemMessage"]) == {"WG101"}
    assert answer(gemini(repo, "write_file", {"file_path": "x"}), "gemini", repo.worktree) == ""
    error = json.loads(answer(b"[]", "gemini", repo.worktree))
    assert error == {"decision": "deny", "reason": "worktree-guard could not check this call, so it is refused: stdin is JSON but not an object (got list) [worktree-guard WG000]"}
    recognised = json.loads(answer(gemini(repo, cwd=5), "auto", repo.worktree))  # read as Gemini's, then refused in its words
    assert recognised == {"decision": "deny", "reason": "worktree-guard could not check this call, so it is refused: the gemini payload's `cwd` is not a usable string (5) [worktree-guard WG000]"}


def test_install_entries_of_cursor_and_gemini() -> None:
    from worktree_guard.runtimes import cursor as cursor_adapter, gemini as gemini_adapter

    configs = PM.hook.worktree_guard_hook_config()
    assert cursor_adapter.HOOK_CONFIG in configs and gemini_adapter.HOOK_CONFIG in configs
    assert cursor_adapter.HOOK_CONFIG.entries("wg hook") == {"preToolUse": {"command": "wg hook", "failClosed": True}}
    assert gemini_adapter.HOOK_CONFIG.entries("wg hook") == {
        "BeforeTool": {
            "matcher": "^(write_file|replace|run_shell_command|invoke_agent)$",
            "hooks": [{"type": "command", "command": "wg hook", "name": "worktree-guard", "timeout": 30000}],
        }
    }


# --- Claude Code -----------------------------------------------------------------------------------------------


def claude(repo: Repo, tool: str | None = "Write", tool_input: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    from .helpers import payload

    body = payload(repo.worktree, tool or "", tool_input or {})
    body.update(fields)
    return {k: v for k, v in body.items() if v is not None and (k != "tool_name" or tool)}


def test_claude_code_tool_call_fields(repo: Repo) -> None:
    call = read(claude(repo, "NotebookEdit", {"notebook_path": "n.ipynb"}, agent_id="a1", agent_type="coder", permission_mode="acceptEdits"))
    assert (call.runtime, call.tool, call.kind, call.path_field, call.cwd) == ("claude-code", "NotebookEdit", "file_write", "notebook_path", str(repo.worktree))
    assert (call.session_id, call.agent_id, call.agent_type, call.permission_mode, call.tool_use_id, call.transcript_path) == (
        "5f1c2a4e-0000-4000-8000-000000000001", "a1", "coder", "acceptEdits", "toolu_01TESTTESTTESTTESTTEST",
        "/home/u/.claude/projects/-repo/5f1c2a4e-0000-4000-8000-000000000001.jsonl",
    )
    assert (call.subagent_type, call.subagent_place) == (None, "input")
    assert read(claude(repo, "Task", {"prompt": "p"})).subagent_type == "general-purpose"
    assert read(claude(repo, "Agent", {"prompt": "p", "subagent_type": ""})).subagent_type == "general-purpose"
    assert read(claude(repo, "Agent", {"prompt": "p", "subagent_type": 5})).subagent_type == "general-purpose"
    assert read(claude(repo, "Agent", {"prompt": "p", "subagent_type": "coder"})).subagent_type == "coder"
    assert read(claude(repo, "EnterWorktree", {"path": "x"})).kind == "enter_worktree"
    assert read(claude(repo, "mcp__fs__write", {})).kind == "unknown"
    post = read(claude(repo, "Write", {"file_path": "x"}, hook_event_name="PostToolUse"))
    assert (post.kind, post.path_field) == ("other", "file_path")
    aliased = claude(repo, "Write", {"file_path": "x"}, hook_event_name=None, event="PostToolUse")
    assert read(aliased).kind == "other"  # `event`, as some hook logs name it
    assert read(claude(repo, "Write", {"file_path": "x"}, hook_event_name=None)).kind == "file_write"  # none: PreToolUse
    assert refusal_of(claude(repo, hook_event_name="BeforeTool", tool_input={"file_path": "x"}), "claude-code") == "the payload's hook event 'BeforeTool' is not one Claude Code sends"
    assert refusal_of(claude(repo, cwd=5), "claude-code") == "the Claude Code payload's `cwd` is invalid: Input should be a valid string"
    assert refusal_of(claude(repo, tool_input=[1]), "claude-code") == "the Claude Code payload's `tool_input` is invalid: Input should be a valid dictionary"


def test_claude_code_reads_only_its_own_and_lifecycle_payloads(repo: Repo) -> None:
    start = claude(repo, None, hook_event_name="SubagentStart", agent_id="a1")
    call = read(start)
    assert (call.runtime, call.tool, call.kind) == ("claude-code", "SubagentStart", "other")
    assert read(claude(repo, None, hook_event_name="Notification")) is None
    assert refusal_of(claude(repo, None, hook_event_name="Notification"), "claude-code") == "the Claude Code payload's `tool_name` is invalid: Field required"
    from worktree_guard.runtimes import claude_code

    assert claude_code.worktree_guard_read_payload(claude(repo), "gemini") is None
    assert claude_code.worktree_guard_read_payload(claude(repo), "claude-code").runtime == "claude-code"
    assert claude_code.worktree_guard_read_event(start, "codex") is None
    assert claude_code.worktree_guard_read_event(claude(repo), "auto") is None
    event = claude_code.worktree_guard_read_event({**start, "stop_hook_active": True}, "claude-code")
    assert (event.runtime, event.event, event.agent_id, event.cwd, event.stop_hook_active, event.permission_mode) == (
        "claude-code", "SubagentStart", "a1", str(repo.worktree), True, "default"
    )
    aliased = {k: v for k, v in start.items() if k != "hook_event_name"} | {"event": "SubagentStop"}
    assert claude_code.worktree_guard_read_event(aliased, "auto").event == "SubagentStop"
    with pytest.raises(CallError) as caught:
        claude_code.worktree_guard_read_event({**start, "agent_id": ""}, "auto")
    assert str(caught.value) == "the Claude Code SubagentStart payload's `agent_id` is invalid: String should have at least 1 character"


@pytest.mark.parametrize(
    ("tool", "mode", "expected"),
    [
        ("Write", None, "ask"), ("Write", "default", "ask"), ("Write", "plan", "ask"),
        ("Write", "acceptEdits", "allow"), ("Bash", "acceptEdits", "ask"),
        ("Bash", "bypassPermissions", "allow"), ("Bash", "dontAsk", "allow"), ("Bash", "auto", "allow"),
        ("Agent", "default", "allow"), ("Task", None, "allow"),
    ],
)
def test_claude_code_rewrite_permission(tool: str, mode: str | None, expected: str) -> None:
    from worktree_guard.runtimes.claude_code import TOOLS, permission_for_rewrite

    call = ToolCall(runtime="claude-code", tool=tool, kind=TOOLS[tool][0], cwd="/w", permission_mode=mode)
    assert permission_for_rewrite(call) == expected


def test_claude_code_replies(repo: Repo) -> None:
    outside = claude(repo, "Write", {"file_path": str(repo.main / "x"), "content": "x"})
    deny = json.loads(answer(outside, "claude-code", repo.worktree))
    assert set(deny) == {"hookSpecificOutput"} and set(deny["hookSpecificOutput"]) == {"hookEventName", "permissionDecision", "permissionDecisionReason"}
    assert deny["hookSpecificOutput"]["hookEventName"] == "PreToolUse" and deny["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert codes_in(deny["hookSpecificOutput"]["permissionDecisionReason"]) == {"WG101"}
    rewrite = json.loads(answer(outside, "claude-code", repo.worktree, mode="rewrite"))["hookSpecificOutput"]
    assert rewrite == {
        "hookEventName": "PreToolUse",
        "permissionDecision": "ask",
        "permissionDecisionReason": rewrite["permissionDecisionReason"],
        "updatedInput": {"file_path": str(repo.worktree / "x"), "content": "x"},
    }
    assert codes_in(rewrite["permissionDecisionReason"]) == {"WG101"}
    warn = json.loads(answer(outside, "claude-code", repo.worktree, mode="warn"))
    assert warn == {"systemMessage": warn["systemMessage"], "hookSpecificOutput": {"hookEventName": "PreToolUse", "additionalContext": warn["systemMessage"]}}
    assert codes_in(warn["systemMessage"]) == {"WG101"}
    assert answer(claude(repo, "Write", {"file_path": "x", "content": "x"}), "claude-code", repo.worktree) == ""
    error = json.loads(answer(b"[]", "claude-code", repo.worktree))
    assert error == {"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "deny",
        "permissionDecisionReason": "worktree-guard could not check this call, so it is refused: stdin is JSON but not an object (got list) [worktree-guard WG000]",
    }}


def test_claude_code_error_replies_by_event() -> None:
    from worktree_guard.runtimes.claude_code import worktree_guard_render_error as render_error

    assert render_error("m", {}, "gemini") is None
    stop = render_error("bad", {"hook_event_name": "SubagentStop"}, "auto")
    assert json.loads(stop.stdout) == {"systemMessage": "worktree-guard could not check this sub-agent: bad [worktree-guard WG000]"}
    assert json.loads(render_error("bad", {"event": "SubagentStart"}, "claude-code").stdout) == json.loads(stop.stdout)
    for payload in (None, {"hook_event_name": "PreToolUse"}):
        out = json.loads(render_error("bad", payload, "claude-code").stdout)
        assert out["hookSpecificOutput"]["permissionDecisionReason"] == "worktree-guard could not check this call, so it is refused: bad [worktree-guard WG000]"


def test_claude_code_install_groups() -> None:
    from worktree_guard.runtimes.claude_code import HOOK_CONFIG

    assert HOOK_CONFIG in PM.hook.worktree_guard_hook_config()
    lifecycle = {"hooks": [{"type": "command", "command": "wg hook", "timeout": 60}]}
    assert HOOK_CONFIG.entries("wg hook") == {
        "PreToolUse": {"matcher": "Write|Edit|MultiEdit|NotebookEdit|Bash|Monitor|PowerShell|Agent|Task|EnterWorktree|ExitWorktree", "hooks": [{"type": "command", "command": "wg hook", "timeout": 30}]},
        "SubagentStart": lifecycle,
        "SubagentStop": lifecycle,
    }


def test_claude_code_finds_a_sub_agents_dispatch(tmp_path: Path) -> None:
    from worktree_guard.model import AgentEvent
    from worktree_guard.runtimes.claude_code import subagent_files, worktree_guard_find_dispatch as find
    from worktree_guard.subagents.linking import DispatchLink

    session = tmp_path / "s1.jsonl"
    meta, transcript = subagent_files(str(session), "a1")
    assert (meta, transcript) == (str(tmp_path / "s1" / "subagents" / "agent-a1.meta.json"), str(tmp_path / "s1" / "subagents" / "agent-a1.jsonl"))
    assert subagent_files("/t/s1", "../../a1") == ("/t/s1/subagents/agent-a1.meta.json", "/t/s1/subagents/agent-a1.jsonl")
    agent = AgentEvent(runtime="claude-code", event="SubagentStop", cwd="/w", agent_id="a1", transcript_path=str(session))
    assert find(agent) is None  # neither file yet
    Path(meta).parent.mkdir(parents=True)
    first = {"type": "user", "message": {"role": "user", "content": [{"type": "text", "text": "line one"}, {"type": "image"}, {"text": 5}, {"type": "text", "text": "line two"}]}}
    Path(transcript).write_text(json.dumps(first) + "\n" + json.dumps({"message": {"content": "later"}}) + "\n")
    assert find(agent) == DispatchLink(prompt="line one\nline two", how=f"the first prompt of {transcript}")
    Path(meta).write_text(json.dumps({"toolUseId": "toolu_9", "isFork": True}))
    assert find(agent) == DispatchLink(dispatch_id="toolu_9", how=f"{meta} (toolUseId)", fork=True)
    Path(meta).write_text(json.dumps({"toolUseId": "toolu_9", "isFork": "yes"}))
    assert find(agent) == DispatchLink(dispatch_id="toolu_9", how=f"{meta} (toolUseId)", fork=False)
    for broken in ("{not json", json.dumps({"toolUseId": 5}), json.dumps(["toolUseId"])):
        Path(meta).write_text(broken)
        assert find(agent) == DispatchLink(prompt="line one\nline two", how=f"the first prompt of {transcript}"), broken
    for line, prompt in ((json.dumps({"message": {"content": "plain"}}), "plain"), (json.dumps({"message": {"content": [{"type": "image"}]}}), None),
                         (json.dumps({"message": {"content": 5}}), None), (json.dumps({"message": "x"}), None), (json.dumps([1]), None),
                         ("{broken", None), ("", None)):
        Path(transcript).write_text(line + "\n" if line else "")
        found = find(agent)
        assert (found.prompt if found else None) == prompt, line
    Path(transcript).write_text(json.dumps({"message": {"content": "plain"}}) + "\n")
    for other in (agent.model_copy(update={"runtime": "codex"}), agent.model_copy(update={"agent_id": None}), agent.model_copy(update={"transcript_path": None})):
        assert find(other) is None


# --- GitHub Copilot CLI ----------------------------------------------------------------------------------------


def camel(repo: Repo, tool: str = "create", args: Any = None, **fields: Any) -> dict[str, Any]:
    return {"sessionId": "cs", "timestamp": 1796144162728, "cwd": str(repo.worktree), "toolName": tool, "toolArgs": {} if args is None else args, **fields}


def pascal(repo: Repo, tool: str = "Write", args: Any = None, **fields: Any) -> dict[str, Any]:
    body = {"hook_event_name": "PreToolUse", "session_id": "ps", "timestamp": "2026-12-01T16:56:13.015Z", "cwd": str(repo.worktree), "tool_name": tool, "tool_input": {} if args is None else args}
    return {**body, **fields}


def test_copilot_forms_are_told_apart(repo: Repo) -> None:
    from worktree_guard.runtimes.copilot import CAMEL, PASCAL, form_of

    assert form_of(camel(repo)) is CAMEL and form_of(pascal(repo)) is PASCAL
    assert form_of({"toolName": "bash"}) is None and form_of({"toolArgs": {}}) is None
    assert form_of(pascal(repo, hook_event_name="PostToolUse")) is None
    assert form_of({k: v for k, v in pascal(repo).items() if k != "timestamp"}) is None
    assert form_of(pascal(repo, transcript_path="/t.jsonl")) is None  # that is Claude Code's
    assert refusal_of({"cwd": "/x"}, "copilot") == "the payload is neither of Copilot's forms (camelCase toolName/toolArgs, or PascalCase PreToolUse)"
    from worktree_guard.runtimes import copilot

    assert copilot.worktree_guard_read_payload(camel(repo), "codex") is None
    assert copilot.worktree_guard_read_payload({"cwd": "/x"}, "auto") is None


def test_copilot_tool_call_fields(repo: Repo) -> None:
    create = read(camel(repo, "create", {"path": "a.txt", "file_text": "x"}, agentId="sub1", agentType="coder", parentAgentId="p1"))
    assert (create.runtime, create.tool, create.kind, create.path_field, create.cwd, create.input) == ("copilot", "create", "file_write", "path", str(repo.worktree), {"path": "a.txt", "file_text": "x"})
    assert (create.session_id, create.agent_id, create.agent_type, create.parent_id) == ("cs", "sub1", "coder", "p1")
    write = read(pascal(repo, "Write", {"path": "a.txt"}, agent_id="sub2", agent_type="t", parent_agent_id="p2"))
    assert (write.kind, write.path_field, write.session_id, write.agent_id, write.agent_type, write.parent_id) == ("file_write", "path", "ps", "sub2", "t", "p2")
    assert read(camel(repo, "Write", {"path": "a"})).kind == "unknown"  # Pascal names in the camel form: not its tools
    assert read(pascal(repo, "create", {"path": "a"})).kind == "unknown"
    assert read(camel(repo, "view", {"path": "a"})).kind == "other"
    post = read(camel(repo, "create", {"path": str(repo.main / "x")}, toolResult={"resultType": "success"}))
    assert (post.kind, post.path_field) == ("other", None)
    assert read(pascal(repo, "Write", {"path": "a"}, toolResult={})).kind == "file_write"  # only the camel form has results
    assert read(camel(repo, "bash", json.dumps({"command": "ls"}))).input == {"command": "ls"}
    assert read(camel(repo, "bash", None)).input == {}
    assert read({**camel(repo, "bash"), "toolArgs": None}).input == {}
    assert refusal_of(camel(repo, "bash", "ls -la")) == "the Copilot payload's `toolArgs` for bash is a string that is not JSON"
    assert refusal_of(pascal(repo, "Bash", [1])) == "the Copilot payload's `tool_input` is a list, not an object"
    assert refusal_of(camel(repo, "bash", "[1]")) == "the Copilot payload's `toolArgs` is a list, not an object"
    for payload, field in ((camel(repo, cwd=5), "cwd"), (camel(repo, sessionId=5), "sessionId"), (pascal(repo, agent_id=5), "agent_id"),
                           (camel(repo, agentType=5), "agentType"), (camel(repo, parentAgentId=5), "parentAgentId"), (pascal(repo, tool_name=5), "tool_name")):
        assert refusal_of(payload) == f"the copilot payload's `{field}` is not a usable string (5)"


def test_copilot_patches_and_dispatches(repo: Repo) -> None:
    patch = "*** Begin Patch\n*** Add File: a.txt\n+a\n*** Delete File: b.txt\n*** End Patch\n"
    for call in (read(camel(repo, "apply_patch", patch)), read(pascal(repo, "Edit", patch))):
        assert (call.kind, call.path_field, call.input) == ("file_write", None, {"patch": patch})
        assert [(w.path, w.action) for w in call.file_writes] == [("a.txt", "write"), ("b.txt", "delete")]
    assert read(camel(repo, "bash", json.dumps({"command": patch}))).file_writes is None
    assert refusal_of(camel(repo, "apply_patch", "*** Begin Patch\n*** End Patch\n")) == "the Copilot patch cannot be judged: the patch names no file (no `*** Add/Update/Delete File:` line)"
    with pytest.raises(CallError, match="is a string that is not JSON"):
        read(camel(repo, "create", patch))  # only the patch tools carry a patch string
    task = read(camel(repo, "task", {"prompt": "do it", "agent_type": "coder", "name": "n"}))
    assert (task.kind, task.subagent_prompt, task.subagent_type, task.subagent_place) == ("dispatch", "do it", "coder", "dispatcher_cwd")
    from worktree_guard.runtimes.copilot import dispatch_id

    assert task.tool_use_id == dispatch_id("cs", 1796144162728, {"prompt": "do it", "agent_type": "coder", "name": "n"})
    odd = read(pascal(repo, "Agent", {"prompt": 5, "agent_type": ""}, session_id=None))
    assert (odd.subagent_prompt, odd.subagent_type, odd.tool_use_id.split("-")[:4]) == (None, None, ["copilot", "no", "session", "2026"])
    assert read(camel(repo, "create", {"path": "a"})).tool_use_id is None


def test_copilot_dispatch_ids() -> None:
    from worktree_guard.runtimes.copilot import dispatch_id

    args = {"prompt": "é", "b": 1, "a": 2}
    digest = __import__("hashlib").sha256(json.dumps(args, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]
    assert dispatch_id("s1", 17, args) == f"copilot-s1-17-{digest}"
    assert dispatch_id("s1", 17, {"a": 2, "b": 1, "prompt": "é"}) == dispatch_id("s1", 17, args)
    assert dispatch_id(None, None, {}).startswith("copilot-no-session-None-")
    assert dispatch_id("", 1, {}).startswith("copilot-no-session-1-")
    assert dispatch_id("s", 1, {"p": "\udc80"}).startswith("copilot-s-1-")  # a lone surrogate from JSON: hashed, not an error


def test_copilot_lifecycle_events(repo: Repo) -> None:
    from worktree_guard.runtimes.copilot import lifecycle_event, worktree_guard_read_event as read_event

    start = {"sessionId": "cs", "timestamp": 1, "cwd": str(repo.worktree), "transcriptPath": "/t/events.jsonl", "agentName": "n", "agentId": "a1", "agentType": "coder", "parentAgentId": "p1"}
    assert lifecycle_event(start, "auto") == "SubagentStart"
    assert lifecycle_event({**start, "stopReason": "end"}, "auto") == "SubagentStop"
    assert lifecycle_event({**start, "stop_hook_active": False}, "auto") == "SubagentStop"
    assert lifecycle_event({**start, "toolName": "bash"}, "auto") is None
    assert lifecycle_event({**start, "tool_name": "bash"}, "auto") is None
    assert lifecycle_event({k: v for k, v in start.items() if k != "agentName"}, "auto") is None
    assert lifecycle_event({k: v for k, v in start.items() if k != "agentId"}, "auto") is None
    assert lifecycle_event({**{k: v for k, v in start.items() if k != "agentId"}, "agent_id": "a1"}, "auto") == "SubagentStart"
    named = {"hook_event_name": "SubagentStop", "parent_agent_id": "p", "timestamp": "t", "cwd": "/w", "agent_id": "a"}
    assert lifecycle_event(named, "auto") == "SubagentStop"
    assert lifecycle_event({**named, "hook_event_name": "SubagentStart"}, "auto") == "SubagentStart"
    assert lifecycle_event({k: v for k, v in named.items() if k != "parent_agent_id"}, "auto") is None
    assert lifecycle_event({k: v for k, v in named.items() if k != "timestamp"}, "auto") is None
    event = read_event({**start, "stop_hook_active": True, "stopReason": "x"}, "copilot")
    assert (event.runtime, event.event, event.cwd, event.agent_id, event.agent_type, event.session_id, event.parent_id, event.stop_hook_active, event.transcript_path) == (
        "copilot", "SubagentStop", str(repo.worktree), "a1", "coder", "cs", "p1", True, "/t/events.jsonl"
    )
    snake = read_event({**named, "agent_type": "t", "session_id": "s", "transcript_path": "/t2", "agentId": ""}, "auto")
    assert (snake.agent_id, snake.agent_type, snake.session_id, snake.parent_id, snake.transcript_path, snake.stop_hook_active) == ("a", "t", "s", "p", "/t2", False)
    assert read_event(start, "codex") is None
    for broken in ({**start, "cwd": ""}, {**start, "agentId": 5}):
        with pytest.raises(CallError) as caught:
            read_event(broken, "auto")
        assert str(caught.value) == "the Copilot SubagentStart payload names no `cwd` or agent id"


def test_copilot_finds_a_sub_agents_prompt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from worktree_guard.model import AgentEvent
    from worktree_guard.runtimes.copilot import events_file, worktree_guard_find_dispatch as find
    from worktree_guard.subagents.linking import DispatchLink

    events = tmp_path / "events.jsonl"
    lines = [
        {"type": "user.message", "agentId": "other", "data": {"content": "not mine"}},
        {"type": "assistant.message", "agentId": "a1", "data": {"content": "user.message"}},
        {"type": "user.message", "agentId": "a1", "data": {"content": 5}},
        {"type": "user.message", "agentId": "a1", "data": "x"},
        {"type": "user.message", "agentId": "a10", "data": {"content": "a10's"}},
        {"type": "user.message", "agentId": "a1", "data": {"content": "the prompt"}},
        {"type": "user.message", "agentId": "a1", "data": {"content": "later"}},
    ]
    events.write_text("{\"type\": \"user.message\", \"agentId\": \"a1\", broken\n" + "".join(json.dumps(line) + "\n" for line in lines))
    agent = AgentEvent(runtime="copilot", event="SubagentStop", cwd="/w", agent_id="a1", transcript_path=str(events))
    assert find(agent) == DispatchLink(prompt="the prompt", how=f"its prompt in {events}")
    for other in (agent.model_copy(update={"runtime": "codex"}), agent.model_copy(update={"agent_id": ""}), agent.model_copy(update={"agent_id": "zz"})):
        assert find(other) is None
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "ch"))
    by_parent = agent.model_copy(update={"transcript_path": None, "parent_id": "p1"})
    assert events_file(by_parent) == str(tmp_path / "ch" / "session-state" / "p1" / "events.jsonl")
    assert find(by_parent) is None  # no such file
    (tmp_path / "ch" / "session-state" / "p1").mkdir(parents=True)
    (tmp_path / "ch" / "session-state" / "p1" / "events.jsonl").write_text(events.read_text())
    assert find(by_parent) == DispatchLink(prompt="the prompt", how=f"its prompt in {tmp_path / 'ch' / 'session-state' / 'p1' / 'events.jsonl'}")
    assert events_file(agent.model_copy(update={"transcript_path": "relative/events.jsonl", "parent_id": "p1"})) == str(tmp_path / "ch" / "session-state" / "p1" / "events.jsonl")
    for parent in (None, "", "../x", "a/b", ".hidden"):
        assert events_file(agent.model_copy(update={"transcript_path": None, "parent_id": parent})) is None, parent
    assert find(agent.model_copy(update={"transcript_path": None, "parent_id": None})) is None  # no file to read at all
    monkeypatch.delenv("COPILOT_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert events_file(by_parent) == str(tmp_path / "home" / ".copilot" / "session-state" / "p1" / "events.jsonl")


def test_copilot_replies(repo: Repo) -> None:
    outside = camel(repo, "create", {"path": str(repo.main / "x"), "file_text": "x"})
    deny = json.loads(answer(outside, "copilot", repo.worktree))
    reason = deny["permissionDecisionReason"]
    assert deny == {"permissionDecision": "deny", "permissionDecisionReason": reason, "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}}
    assert codes_in(reason) == {"WG101"}
    rewrite = json.loads(answer(outside, "copilot", repo.worktree, mode="rewrite"))
    assert rewrite == {"permissionDecision": "allow", "permissionDecisionReason": rewrite["permissionDecisionReason"], "modifiedArgs": {"path": str(repo.worktree / "x"), "file_text": "x"}}
    assert codes_in(rewrite["permissionDecisionReason"]) == {"WG101"}
    warn = json.loads(answer(outside, "copilot", repo.worktree, mode="warn"))
    assert set(warn) == {"additionalContext"} and codes_in(warn["additionalContext"]) == {"WG101"}
    assert answer(camel(repo, "create", {"path": "x"}), "copilot", repo.worktree) == ""
    error = json.loads(answer(b"[]", "copilot", repo.worktree))
    assert error["permissionDecisionReason"] == "worktree-guard could not check this call, so it is refused: stdin is JSON but not an object (got list) [worktree-guard WG000]"


def test_copilot_error_replies() -> None:
    from worktree_guard.runtimes.copilot import worktree_guard_render_error as render_error

    start = {"cwd": "/w", "agentName": "n", "agentId": "a1"}
    assert json.loads(render_error("bad", start, "auto").stdout) == {"systemMessage": "worktree-guard could not check this sub-agent: bad [worktree-guard WG000]"}
    assert json.loads(render_error("bad", start, "copilot").stdout) == {"systemMessage": "worktree-guard could not check this sub-agent: bad [worktree-guard WG000]"}
    assert render_error("bad", start, "codex") is None
    camel_call = {"toolName": "bash", "toolArgs": {}}
    for payload, runtime in ((camel_call, "auto"), (None, "copilot"), ({"x": 1}, "copilot")):
        out = json.loads(render_error("bad", payload, runtime).stdout)
        assert out["permissionDecisionReason"] == "worktree-guard could not check this call, so it is refused: bad [worktree-guard WG000]", (payload, runtime)
    for payload, runtime in ((None, "auto"), ({"x": 1}, "auto"), (camel_call, "gemini")):
        assert render_error("bad", payload, runtime) is None, (payload, runtime)


def test_copilot_install_entries() -> None:
    from worktree_guard.runtimes.copilot import HOOK_CONFIG

    assert HOOK_CONFIG in PM.hook.worktree_guard_hook_config()
    assert HOOK_CONFIG.entries("wg hook") == {
        "preToolUse": {"type": "command", "bash": "wg hook", "timeoutSec": 30},
        "subagentStart": {"type": "command", "bash": "wg hook", "timeoutSec": 60},
        "subagentStop": {"type": "command", "bash": "wg hook", "timeoutSec": 60},
    }


# --- Cline (CLI and VS Code extension) -------------------------------------------------------------------------


def cline(repo: Repo, tool: str = "editor", tool_input: Any = None, **fields: Any) -> dict[str, Any]:
    body = {
        "taskId": "task1", "workspaceRoots": [str(repo.worktree)], "workspaceInfo": {"rootPath": str(repo.worktree)},
        "agent_id": "agent1", "parent_agent_id": None, "hookName": "tool_call",
        "tool_call": {"id": "call1", "name": tool, "input": {} if tool_input is None else tool_input},
    }
    return {**body, **fields}


def vscode(repo: Repo, tool: str = "write_to_file", parameters: Any = None, **fields: Any) -> dict[str, Any]:
    body = {"taskId": "task2", "workspaceRoots": [str(repo.worktree)], "hookName": "PreToolUse", "preToolUse": {"toolName": tool, "parameters": parameters or {}}}
    return {**body, **fields}


def test_cline_is_recognised_and_placed_by_its_workspace(repo: Repo) -> None:
    from worktree_guard.runtimes.cline import recognises, workspace

    assert recognises({"hookName": "x", "workspaceRoots": []}) and recognises({"hookName": "x", "tool_call": {}})
    assert not recognises({"hookName": "x"}) and not recognises({"workspaceRoots": [], "tool_call": {}})
    assert workspace({"workspaceInfo": {"rootPath": "/a"}, "workspaceRoots": ["/b"]}) == "/a"
    for info in ({}, {"rootPath": ""}, {"rootPath": None}, None):
        assert workspace({"workspaceInfo": info, "workspaceRoots": ["/b", "/c"]}) == "/b", info
    for roots in ([], "/b", None, [""], [5]):
        with pytest.raises(CallError) as caught:
            workspace({"workspaceRoots": roots})
        assert str(caught.value) == "the Cline payload names no workspace root (`workspaceInfo.rootPath`, `workspaceRoots`)"
    with pytest.raises(CallError) as caught:
        workspace({"workspaceInfo": {"rootPath": 5}})
    assert str(caught.value) == "the Cline payload names no workspace root (`workspaceInfo.rootPath`, `workspaceRoots`)"
    assert PM.hook.worktree_guard_payload_cwd(payload=cline(repo), runtime="cline") == str(repo.worktree)
    assert PM.hook.worktree_guard_payload_cwd(payload=vscode(repo), runtime="auto") == str(repo.worktree)
    assert PM.hook.worktree_guard_payload_cwd(payload={"hookName": "x", "workspaceRoots": 5, "workspaceInfo": [1]}, runtime="cline-vscode") is None
    from worktree_guard.runtimes import cline as adapter

    assert adapter.worktree_guard_payload_cwd(cline(repo), "gemini") is None
    assert adapter.worktree_guard_payload_cwd({"hookName": "x", "workspaceRoots": []}, "cline") is None


def test_cline_tool_call_fields(repo: Repo) -> None:
    edit = read(cline(repo, "editor", {"path": "a.txt", "new_text": "x"}))
    assert (edit.runtime, edit.tool, edit.kind, edit.path_field, edit.cwd, edit.input) == ("cline", "editor", "file_write", "path", str(repo.worktree), {"path": "a.txt", "new_text": "x"})
    assert (edit.session_id, edit.agent_id, edit.parent_id, edit.caller_id, edit.tool_use_id) == ("task1", None, None, "agent1", "call1")
    sub = read(cline(repo, "editor", {"path": "a"}, parent_agent_id="agent0"))
    assert (sub.agent_id, sub.parent_id, sub.caller_id) == ("agent1", "agent0", "agent1")
    commands = read(cline(repo, "run_commands", {"commands": ["ls", "pwd"]}))
    assert (commands.kind, commands.commands) == ("shell", ["ls", "pwd"])
    assert refusal_of(cline(repo, "run_commands", {"commands": "ls"})) == "the Cline run_commands call's `commands` is not a list ('ls')"
    patch = read(cline(repo, "apply_patch", {"input": "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n*** End Patch\n"}))
    assert (patch.kind, patch.path_field, [(w.path, w.action) for w in patch.file_writes]) == ("file_write", None, [("a.txt", "move_from"), ("b.txt", "move_to")])
    assert refusal_of(cline(repo, "apply_patch", {"input": 5})) == "the Cline apply_patch call has no patch text in `input`"
    assert refusal_of(cline(repo, "apply_patch", {"input": "*** Begin Patch\n*** End Patch\n"})) == "the Cline patch cannot be judged: the patch names no file (no `*** Add/Update/Delete File:` line)"
    spawn = read(cline(repo, "spawn_agent", {"task": "do it", "systemPrompt": "s"}))
    assert (spawn.kind, spawn.subagent_prompt, spawn.subagent_named, spawn.subagent_place) == ("dispatch", "do it", True, "dispatcher_cwd")
    assert read(cline(repo, "spawn_agent", {"task": 5})).subagent_prompt is None
    assert read(cline(repo, "read_files", {})).kind == "other"
    assert refusal_of(cline(repo, hookName="TaskStart")) == "the Cline hook file was run for 'TaskStart', not for a tool call ('tool_call' or 'PreToolUse')"
    for field, payload in (("name", cline(repo, tool_call={"id": "c", "input": {}})), ("id", cline(repo, tool_call={"id": 5, "name": "editor"})),
                           ("taskId", cline(repo, taskId=5)), ("agent_id", cline(repo, agent_id=5)), ("parent_agent_id", cline(repo, parent_agent_id=5)),
                           ("hookName", {**cline(repo), "hookName": 5})):
        with pytest.raises(CallError) as caught:
            read(payload, "cline")
        assert str(caught.value).startswith(f"the cline payload's `{field}` is "), field
    assert refusal_of(cline(repo, tool_call={"id": "c", "name": "editor", "input": [1]})) == "the cline payload's `input` is a list, not an object"


def test_cline_extension_tool_call_fields(repo: Repo) -> None:
    write = read(vscode(repo, "write_to_file", {"path": "a.txt", "content": "x"}, agent_id="a", parent_agent_id="p"))
    assert (write.runtime, write.tool, write.kind, write.path_field, write.input, write.tool_use_id, write.session_id) == ("cline-vscode", "write_to_file", "file_write", "path", {"path": "a.txt", "content": "x"}, None, "task2")
    command = read(vscode(repo, "execute_command", {"command": "ls"}))
    assert (command.kind, command.commands) == ("shell", ["ls"])
    no_command = json.loads(answer(vscode(repo, "execute_command", {}), "cline", repo.worktree))  # [None]: not a command
    assert no_command["cancel"] is True and codes_in(no_command["errorMessage"]) == {"WG000"}
    task = read(vscode(repo, "new_task", {"context": "carry on"}))
    assert (task.kind, task.subagent_prompt, task.subagent_named) == ("dispatch", "carry on", False)
    assert read(vscode(repo, "new_task", {"context": 5})).subagent_prompt is None
    assert read(vscode(repo), "cline-vscode").runtime == "cline-vscode"
    assert refusal_of({**vscode(repo), "preToolUse": {"parameters": {}}}) == "the cline payload's `toolName` is missing"
    assert refusal_of({**vscode(repo), "preToolUse": {"toolName": "x", "parameters": "p"}}) == "the cline payload's `parameters` is a str, not an object"


def test_cline_refusals_write_nothing_and_carry_the_reason() -> None:
    from worktree_guard.runtimes.cline import refusal

    reason = "Nope: /a/b is  outside. [worktree-guard WG101]"
    assert json.loads(refusal("run_commands", reason).stdout) == {"overrideInput": {"commands": ["printf '%s\\n' 'Nope: /a/b is  outside. [worktree-guard WG101]' >&2; exit 1"]}}
    assert json.loads(refusal("editor", reason).stdout) == {"overrideInput": {"path": "/dev/null/Nope: \u2215a\u2215b is outside. [worktree-guard WG101]", "new_text": ""}}
    assert json.loads(refusal("apply_patch", reason).stdout) == {
        "overrideInput": {"input": "*** Begin Patch\nworktree-guard refused this patch: Nope: /a/b is outside. [worktree-guard WG101]\n*** End Patch\n"}
    }
    assert json.loads(refusal("spawn_agent", reason).stdout) == {"cancel": True, "errorMessage": reason}
    assert json.loads(refusal("", reason).stdout) == {"cancel": True, "errorMessage": reason}


def test_cline_replies(repo: Repo) -> None:
    outside = {"path": str(repo.main / "x"), "new_text": "x"}
    deny = json.loads(answer(cline(repo, "editor", outside), "cline", repo.worktree))
    assert deny["overrideInput"]["new_text"] == "" and deny["overrideInput"]["path"].startswith("/dev/null/")
    rewrite = json.loads(answer(cline(repo, "editor", outside), "cline", repo.worktree, mode="rewrite"))
    assert rewrite == {"overrideInput": {"path": str(repo.worktree / "x"), "new_text": "x"}}
    spawn_warn = json.loads(answer(cline(repo, "editor", outside), "cline", repo.worktree, mode="warn"))
    assert set(spawn_warn) == {"context"} and codes_in(spawn_warn["context"]) == {"WG101"}
    ext = {"path": str(repo.main / "x"), "content": "x"}
    ext_deny = json.loads(answer(vscode(repo, "write_to_file", ext), "cline", repo.worktree))
    assert ext_deny["cancel"] is True and codes_in(ext_deny["errorMessage"]) == {"WG101"}
    ext_rewrite = json.loads(answer(vscode(repo, "write_to_file", ext), "cline", repo.worktree, mode="rewrite"))
    assert set(ext_rewrite) == {"cancel", "errorMessage"} and codes_in(ext_rewrite["errorMessage"]) == {"WG101"}
    ext_warn = json.loads(answer(vscode(repo, "write_to_file", ext), "cline", repo.worktree, mode="warn"))
    assert set(ext_warn) == {"contextModification"} and codes_in(ext_warn["contextModification"]) == {"WG101"}
    assert answer(cline(repo, "editor", {"path": "x", "new_text": "x"}), "cline", repo.worktree) == ""
    from worktree_guard.runtimes import cline as adapter

    assert adapter.worktree_guard_render_reply(decide_pass(), ToolCall(runtime="codex", tool="x", kind="other", cwd="/w")) is None


def decide_pass() -> Any:
    from worktree_guard.model import Verdict

    return Verdict(decision="pass")


def test_cline_error_replies(repo: Repo) -> None:
    from worktree_guard.runtimes.cline import worktree_guard_render_error as render_error

    unjudged = "worktree-guard could not check this call, so it is refused: bad [worktree-guard WG000]"
    run = render_error("bad", cline(repo, "run_commands"), "auto")
    assert json.loads(run.stdout)["overrideInput"]["commands"][0].startswith(f"printf '%s\\n' '{unjudged}'")
    assert json.loads(render_error("bad", {"hookName": "tool_call", "tool_call": {"name": 5}}, "cline").stdout) == {"cancel": True, "errorMessage": unjudged}
    assert json.loads(render_error("bad", {"hookName": "tool_call", "tool_call": "x"}, "cline").stdout) == {"cancel": True, "errorMessage": unjudged}
    assert json.loads(render_error("bad", {**vscode(repo), "tool_call": {"name": "editor"}}, "auto").stdout) == {"cancel": True, "errorMessage": unjudged}
    assert json.loads(render_error("bad", None, "cline-vscode").stdout) == {"cancel": True, "errorMessage": unjudged}
    assert render_error("bad", None, "auto") is None and render_error("bad", cline(repo), "gemini") is None


def test_cline_install_script() -> None:
    from worktree_guard.install import SCRIPT_KEY
    from worktree_guard.runtimes.cline import HOOK_CONFIG

    assert HOOK_CONFIG in PM.hook.worktree_guard_hook_config()
    assert HOOK_CONFIG.entries("wg hook") == {
        SCRIPT_KEY: "#!/bin/sh\n# worktree-guard hook: Cline's PreToolUse (written by `worktree-guard install --runtime cline`)\nexec wg hook\n"
    }


# --- OpenAI Codex CLI ------------------------------------------------------------------------------------------


def rollout(path: Path, *records: Any) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in records))
    return str(path)


def codex(repo: Repo, tool: str | None = "Bash", tool_input: Any = None, **fields: Any) -> dict[str, Any]:
    transcript = rollout(repo.base / "codex" / "rollout-main.jsonl", {"type": "session_meta", "payload": {"id": "s", "cwd": str(repo.worktree)}})
    body = {
        "session_id": "cx", "turn_id": "t1", "transcript_path": transcript, "cwd": str(repo.worktree), "hook_event_name": "PreToolUse",
        "model": "m", "permission_mode": "bypassPermissions", "tool_name": tool, "tool_input": {"command": "ls"} if tool_input is None else tool_input,
        "tool_use_id": "call1",
    }
    body.update(fields)
    return {k: v for k, v in body.items() if v is not None or k == "transcript_path"}


def test_codex_is_recognised_by_its_turn_id_and_events(repo: Repo) -> None:
    from worktree_guard.runtimes.codex import recognises

    assert recognises({"turn_id": "t", "hook_event_name": "PreToolUse"}) and recognises({"turn_id": "t", "hook_event_name": "SubagentStop"})
    assert not recognises({"hook_event_name": "PreToolUse"}) and not recognises({"turn_id": "t", "hook_event_name": "BeforeTool"})
    assert refusal_of(codex(repo, hook_event_name="BeforeTool"), "codex") == "'BeforeTool' is not an event Codex sends (its tool event is 'PreToolUse')"


def test_codex_session_meta_and_parent_thread(tmp_path: Path) -> None:
    from worktree_guard.runtimes.codex import parent_thread, session_meta

    good = rollout(tmp_path / "a.jsonl", {"type": "session_meta", "payload": {"cwd": "/w", "parent_thread_id": "p"}}, {"type": "x"})
    assert session_meta(good) == {"cwd": "/w", "parent_thread_id": "p"}
    for records in (({"type": "turn", "payload": {"cwd": "/w"}},), ({"type": "session_meta", "payload": [1]},), ([1],), ("{broken",), ()):
        assert session_meta(rollout(tmp_path / "b.jsonl", *records)) == {}, records
    assert session_meta(None) == {} and session_meta("") == {} and session_meta("a.jsonl") == {} and session_meta(str(tmp_path / "missing")) == {}
    assert parent_thread({"parent_thread_id": "p"}) == "p"
    assert parent_thread({"parent_thread_id": ""}) is None and parent_thread({"parent_thread_id": 5}) is None and parent_thread({}) is None


def test_codex_tool_call_fields(repo: Repo) -> None:
    bash = read(codex(repo, agent_id="sub", agent_type="worker"))
    assert (bash.runtime, bash.tool, bash.kind, bash.cwd, bash.shell_cwd, bash.input) == ("codex", "Bash", "shell", str(repo.worktree), None, {"command": "ls"})
    assert (bash.session_id, bash.agent_id, bash.agent_type, bash.permission_mode, bash.tool_use_id, bash.parent_id) == ("cx", "sub", "worker", "bypassPermissions", "call1", None)
    assert bash.transcript_path == str(repo.base / "codex" / "rollout-main.jsonl")
    assert read(codex(repo)).parent_id is None
    workdir = read(codex(repo, cwd=str(repo.worktree / "src")))
    assert (workdir.cwd, workdir.shell_cwd) == (str(repo.worktree), str(repo.worktree / "src"))
    relative_meta = codex(repo)
    relative_meta["transcript_path"] = rollout(repo.base / "codex" / "rel.jsonl", {"type": "session_meta", "payload": {"cwd": "relative"}})
    assert refusal_of(relative_meta) == (
        "Codex's session transcript (`transcript_path`) cannot be read, so the session's directory is unknown (a Bash call's `cwd` is its workdir)"
    )
    write = read(codex(repo, "apply_patch", {"command": "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n"}))
    assert (write.kind, write.path_field, write.cwd, write.shell_cwd, [(w.path, w.action) for w in write.file_writes]) == ("file_write", None, str(repo.worktree), None, [("a.txt", "write")])
    patch_elsewhere = read(codex(repo, "apply_patch", {"command": "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n"}, transcript_path=None, cwd=str(repo.sibling)))
    assert patch_elsewhere.cwd == str(repo.sibling)  # no transcript: the payload's own cwd
    assert refusal_of(codex(repo, "apply_patch", {"patch": "x"})) == "the Codex apply_patch call has no patch text in `tool_input.command`"
    assert refusal_of(codex(repo, "apply_patch", {"command": "nothing"})) == "the Codex patch cannot be judged: the patch names no file (no `*** Add/Update/Delete File:` line)"
    spawn = read(codex(repo, "spawn_agent", {"message": "go", "agent_type": "explorer"}))
    assert (spawn.kind, spawn.subagent_prompt, spawn.subagent_type, spawn.subagent_place) == ("dispatch", "go", "explorer", "dispatcher_cwd")
    assert read(codex(repo, "spawn_agent", {"items": [{"text": "a"}], "agent_type": ""})).subagent_type is None
    assert read(codex(repo, "spawn_agent", {"agent_type": 5})).subagent_type is None
    assert read(codex(repo, "multi_agent_v1spawn_agent", {"message": "go"})).kind == "dispatch"
    assert read(codex(repo, "multi_agent_v1write_stdin", {})).kind == "unknown"
    assert read(codex(repo, "view_image", {})).kind == "other"
    stop = read(codex(repo, None, {}, hook_event_name="Stop"))
    assert (stop.tool, stop.kind) == ("Stop", "other")
    after = read(codex(repo, "apply_patch", {"command": "x"}, hook_event_name="PostToolUse"))
    assert (after.kind, after.file_writes) == ("other", None)
    assert refusal_of(codex(repo, None)) == "the codex payload's `tool_name` is missing"
    for field in ("cwd", "session_id", "agent_type", "permission_mode", "tool_use_id", "agent_id"):
        assert refusal_of(codex(repo, **{field: 5})) == f"the codex payload's `{field}` is not a usable string (5)", field
    assert refusal_of(codex(repo, tool_input=[1])) == "the codex payload's `tool_input` is a list, not an object"


def test_codex_sub_agent_calls_name_their_parent_thread(repo: Repo) -> None:
    own = rollout(repo.base / "codex" / "rollout-sub.jsonl", {"type": "session_meta", "payload": {"cwd": str(repo.worktree), "parent_thread_id": "thread0"}})
    call = read(codex(repo, agent_id="sub", transcript_path=own))
    assert (call.agent_id, call.parent_id, call.cwd) == ("sub", "thread0", str(repo.worktree))
    assert read(codex(repo, agent_id="", transcript_path=own)).parent_id is None  # no agent: no parent asked


def test_codex_spawn_messages(tmp_path: Path) -> None:
    from worktree_guard.runtimes.codex import first_prompt, spawn_message

    assert spawn_message({"message": "m", "items": [{"text": "i"}]}) == "m"
    assert spawn_message({"items": [{"text": "a"}, {"type": "image"}, {"text": 5}, "x", {"text": "b"}]}) == "a\nb"
    assert spawn_message({"items": [{"type": "image"}]}) is None and spawn_message({"items": "x"}) is None
    assert spawn_message({"message": 5}) is None and spawn_message({}) is None
    message = {"type": "item_completed", "item": {"type": "UserMessage", "content": [{"text": "first"}, {"type": "image"}, {"text": "second"}]}}
    path = rollout(tmp_path / "r.jsonl", {"type": "session_meta", "payload": {}}, "{broken", [1], {"payload": {"type": "item_completed", "item": {"type": "AgentMessage"}}},
                   {"payload": {"type": "other", "item": {"type": "UserMessage", "content": [{"text": "no"}]}}}, {"payload": message}, {"payload": {**message, "item": {"type": "UserMessage", "content": [{"text": "later"}]}}})
    assert first_prompt(path) == "first\nsecond"
    assert first_prompt(rollout(tmp_path / "e.jsonl", {"payload": {"type": "item_completed", "item": {"type": "UserMessage", "content": None}}})) is None
    assert first_prompt(rollout(tmp_path / "n.jsonl", {"payload": {"type": "item_completed", "item": {"type": "UserMessage", "content": [{"image": 1}]}}})) is None
    assert first_prompt(rollout(tmp_path / "none.jsonl", {"type": "x"})) is None
    assert first_prompt(str(tmp_path / "missing.jsonl")) is None
    late = rollout(tmp_path / "late.jsonl", *([{"type": "x"}] * 64), {"payload": message})
    assert first_prompt(late) is None  # only the first 64 records are read
    early = rollout(tmp_path / "early.jsonl", *([{"type": "x"}] * 63), {"payload": message})
    assert first_prompt(early) == "first\nsecond"


def test_codex_finds_a_sub_agents_dispatch(tmp_path: Path) -> None:
    from worktree_guard.model import AgentEvent
    from worktree_guard.runtimes.codex import worktree_guard_find_dispatch as find
    from worktree_guard.subagents.linking import DispatchLink

    message = {"payload": {"type": "item_completed", "item": {"type": "UserMessage", "content": [{"text": "go"}]}}}
    path = rollout(tmp_path / "r.jsonl", message)
    agent = AgentEvent(runtime="codex", event="SubagentStop", cwd="/w", agent_id="a1", transcript_path=path)
    assert find(agent) == DispatchLink(prompt="go", how=f"the first prompt of {path}")
    for other in (agent.model_copy(update={"runtime": "copilot"}), agent.model_copy(update={"agent_id": None}), agent.model_copy(update={"transcript_path": None}),
                  agent.model_copy(update={"transcript_path": "r.jsonl"}), agent.model_copy(update={"transcript_path": rollout(tmp_path / "x.jsonl", {"type": "x"})})):
        assert find(other) is None


def test_codex_lifecycle_events(repo: Repo) -> None:
    from worktree_guard.runtimes.codex import worktree_guard_read_event as read_event

    own = rollout(repo.base / "codex" / "sub.jsonl", {"type": "session_meta", "payload": {"parent_thread_id": "thread0"}})
    start = {"session_id": "cx", "turn_id": "t", "transcript_path": own, "cwd": str(repo.worktree), "hook_event_name": "SubagentStart", "agent_id": "a1", "agent_type": "worker", "permission_mode": "default"}
    event = read_event(start, "auto")
    assert (event.runtime, event.event, event.cwd, event.agent_id, event.agent_type, event.session_id, event.parent_id, event.stop_hook_active, event.permission_mode, event.transcript_path) == (
        "codex", "SubagentStart", str(repo.worktree), "a1", "worker", "cx", "thread0", False, "default", own
    )
    stop = read_event({**start, "hook_event_name": "SubagentStop", "transcript_path": "/parent.jsonl", "agent_transcript_path": own, "stop_hook_active": True}, "codex")
    assert (stop.event, stop.transcript_path, stop.parent_id, stop.stop_hook_active) == ("SubagentStop", own, "thread0", True)
    assert read_event({**start, "stop_hook_active": "yes"}, "auto").stop_hook_active is False
    assert read_event({**start, "hook_event_name": "PreToolUse"}, "auto") is None
    assert read_event(start, "copilot") is None
    assert read_event({k: v for k, v in start.items() if k != "turn_id"}, "auto") is None
    for field in ("cwd", "agent_id"):
        with pytest.raises(CallError) as caught:
            read_event({k: v for k, v in start.items() if k != field}, "codex")
        assert str(caught.value) == f"the codex payload's `{field}` is missing"
    for field in ("agent_type", "session_id", "permission_mode", "transcript_path", "agent_transcript_path"):
        with pytest.raises(CallError) as caught:
            read_event({**start, field: 5}, "codex")
        assert str(caught.value) == f"the codex payload's `{field}` is not a usable string (5)", field


def test_codex_replies(repo: Repo) -> None:
    outside = codex(repo, "Bash", {"command": f"echo x > {repo.main}/x"})
    deny = json.loads(answer(outside, "codex", repo.worktree))
    assert deny == {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": deny["hookSpecificOutput"]["permissionDecisionReason"]}}
    assert codes_in(deny["hookSpecificOutput"]["permissionDecisionReason"]) == {"WG401"}
    out = run_hook(json.dumps(outside).encode(), flags={"runtime": "codex", "mode": "warn"}, cwd=str(repo.worktree))
    assert (out.exit_code, out.stdout) == (0, "") and codes_in(out.stderr) == {"WG401"}
    from worktree_guard.runtimes.codex import rewrite_reply

    rewritten = rewrite_reply({"command": "ls"}, "why")
    assert (json.loads(rewritten.stdout), rewritten.stderr) == ({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "ls"}}}, "why")
    assert answer(codex(repo), "codex", repo.worktree) == ""


def test_codex_error_replies(repo: Repo) -> None:
    from worktree_guard.runtimes.codex import worktree_guard_render_error as render_error

    sub = {"turn_id": "t", "hook_event_name": "SubagentStop"}
    assert json.loads(render_error("bad", sub, "auto").stdout) == {"systemMessage": "worktree-guard could not check this sub-agent: bad [worktree-guard WG000]"}
    for payload in (None, {"turn_id": "t", "hook_event_name": "PreToolUse"}):
        out = json.loads(render_error("bad", payload, "codex").stdout)
        assert out["hookSpecificOutput"]["permissionDecisionReason"] == "worktree-guard could not check this call, so it is refused: bad [worktree-guard WG000]"
    assert render_error("bad", None, "auto") is None and render_error("bad", sub, "gemini") is None


def test_codex_install_entries() -> None:
    from worktree_guard.runtimes.codex import HOOK_CONFIG

    assert HOOK_CONFIG in PM.hook.worktree_guard_hook_config()
    lifecycle = {"hooks": [{"type": "command", "command": "wg hook", "timeout": 60}]}
    assert HOOK_CONFIG.entries("wg hook") == {
        "PreToolUse": {"matcher": "apply_patch|Bash|spawn_agent", "hooks": [{"type": "command", "command": "wg hook", "timeout": 30}]},
        "SubagentStart": lifecycle,
        "SubagentStop": lifecycle,
    }


# --- the `apply_patch` program in a shell command (runtimes/patch.py) ------------------------------------------


def bash_findings(repo: Repo, command: str) -> list[Any]:
    """The violations of a Bash call of the isolated agent in W (Claude Code's payload: the program is judged
    under every runtime)."""
    from .helpers import payload

    call = read(payload(repo.worktree, "Bash", {"command": command}))
    return [v for v in decide(call, build_context(call, pm=PM)).violations if v.rule == "apply-patch"]


def begin(*lines: str) -> str:
    return "*** Begin Patch\n" + "".join(line + "\n" for line in lines) + "*** End Patch\n"


def test_the_program_reads_its_patch_from_its_first_argument(repo: Repo) -> None:
    leak = begin(f"*** Add File: {repo.main}/LEAK.txt", "+x")
    (v,) = bash_findings(repo, f"apply_patch '{leak}'")
    assert (v.code, v.rule, v.tool, v.path, v.span) == ("WG401", "apply-patch", "Bash", f"{repo.main}/LEAK.txt", (0, len(f"apply_patch '{leak}'")))
    assert bash_findings(repo, f"apply_patch '{begin('*** Add File: $HOME.txt', '+x')}'") == []  # single-quoted: `$HOME.txt` in W
    assert v.message.startswith("`apply_patch` (write) writes ")
    assert bash_findings(repo, f"applypatch '{begin('*** Add File: inside.txt', '+x')}'") == []
    (moved_from, moved_to) = bash_findings(repo, f"apply_patch '{begin(f'*** Update File: {repo.main}/README.md', f'*** Move to: {repo.main}/b.md')}'")
    assert (moved_from.code, moved_to.code) == ("WG401", "WG401")
    assert moved_from.message.startswith("`apply_patch` (move from) ") and moved_to.message.startswith("`apply_patch` (move to) ")
    (deleted,) = bash_findings(repo, f"apply_patch '{begin(f'*** Delete File: {repo.main}/README.md')}'")
    assert deleted.message.startswith("`apply_patch` (delete) ")
    (unseen,) = bash_findings(repo, 'apply_patch "$PATCH"')
    assert (unseen.code, unseen.rule, unseen.tool, unseen.worktree_root) == ("WG403", "apply-patch", "Bash", str(repo.worktree))
    assert unseen.message == "`apply_patch` reads a patch worktree-guard cannot see (from a file, a pipe or a variable); give it the patch in a quoted heredoc (<<'EOF')."
    assert unseen.span == (0, len('apply_patch "$PATCH"'))
    # the argument wins over standard input
    assert [v.code for v in bash_findings(repo, f"apply_patch '{leak}' <<'EOF'\n{begin('*** Add File: in.txt', '+x')}EOF\n")] == ["WG401"]


def test_the_program_reads_its_standard_input_from_the_last_redirection(repo: Repo) -> None:
    inside = begin("*** Add File: in.txt", "+x")
    leak = begin(f"*** Add File: {repo.main}/LEAK.txt", "+x")
    assert bash_findings(repo, f"apply_patch <<'EOF'\n{inside}EOF\n") == []
    assert [v.code for v in bash_findings(repo, f"apply_patch <<-'EOF'\n{leak}EOF\n")] == ["WG401"]
    assert [v.code for v in bash_findings(repo, f"apply_patch <<< '{leak}'")] == ["WG401"]
    assert bash_findings(repo, f"apply_patch <<< '{inside}'") == []
    assert bash_findings(repo, f"apply_patch <<< '{begin('*** Add File: `x`.txt', '+x')}'") == []  # literal: a name in W
    assert [v.code for v in bash_findings(repo, 'apply_patch <<< "$PATCH"')] == ["WG403"]
    for command in (f"apply_patch <<'EOF' < patch.txt\n{inside}EOF\n", f"apply_patch 0<patch.txt", "apply_patch <> patch.txt", "apply_patch <&3", "apply_patch"):
        (v,) = bash_findings(repo, command)
        assert (v.code, v.message) == ("WG403", "`apply_patch` reads a patch worktree-guard cannot see (from a file, a pipe or a variable); give it the patch in a quoted heredoc (<<'EOF')."), command
    assert bash_findings(repo, f"apply_patch < patch.txt <<'EOF'\n{inside}EOF\n") == []  # the heredoc comes last
    assert bash_findings(repo, f"apply_patch <<'EOF' 2<err.txt > out.txt\n{inside}EOF\n") == []  # not standard input
    assert bash_findings(repo, f"apply_patch 2<err.txt <<'EOF'\n{inside}EOF\n") == []
    assert [v.code for v in bash_findings(repo, f"apply_patch <<'EOF' <>patch.txt\n{inside}EOF\n")] == ["WG403"]
    assert [v.code for v in bash_findings(repo, f"apply_patch <<'EOF' 0<&3\n{inside}EOF\n")] == ["WG403"]
    # an unquoted heredoc expands `$`, backquotes and backslashes: such a header is not the path written
    (v,) = bash_findings(repo, f"apply_patch <<EOF\n{begin('*** Add File: $HOME/x.txt', '+x')}EOF\n")
    assert v.code == "WG403"
    assert bash_findings(repo, f"apply_patch <<'EOF'\n{begin('*** Add File: $HOME.txt', '+x')}EOF\n") == []  # quoted: a literal name in W


def test_a_patch_the_program_cannot_judge_is_refused_with_the_reason(repo: Repo) -> None:
    (v,) = bash_findings(repo, "apply_patch <<'EOF'\n*** Begin Patch\n*** End Patch\nEOF\n")
    assert (v.code, v.rule, v.worktree_root) == ("WG403", "apply-patch", str(repo.worktree))
    assert v.message == "`apply_patch`'s patch cannot be judged: the patch names no file (no `*** Add/Update/Delete File:` line)."
    (w,) = bash_findings(repo, f"applypatch '{begin('*** Add File: ')}'")
    assert w.message == "`applypatch`'s patch cannot be judged: the patch line '*** Add File:' names no path."


def test_patch_headers_are_trimmed_as_rust_and_javascript_trim_them() -> None:
    """U+FEFF is trimmed (JavaScript's `trim`) though Python's `strip()` keeps it; \\x1c-\\x1f are not (neither
    Rust's nor JavaScript's trim), though Python's `strip()` removes them."""
    from worktree_guard.runtimes.patch import PatchError, patch_writes

    assert [(w.path, w.action) for w in patch_writes("\ufeff*** Add File: a.txt\ufeff\n+a\n")] == [("a.txt", "write")]
    with pytest.raises(PatchError, match="^the patch names no file"):
        patch_writes("\x1c*** Add File: a.txt\n+a\n")
    with pytest.raises(PatchError) as caught:
        patch_writes("*** Add File: a.txt\x1f\n+a\n")
    assert str(caught.value) == "the path 'a.txt\\x1f' holds the character U+001F, which a client may read differently; name the file plainly"


def test_claude_code_reads_its_fields_and_not_their_aliases_when_both_are_there(repo: Repo) -> None:
    both = claude(repo, "Write", {"file_path": "x"}, hook_event_name="PreToolUse", event="PostToolUse")
    assert read(both).kind == "file_write"  # `event` is read only when `hook_event_name` is absent
    named = claude(repo, "Write", {"file_path": "x"}, hook_event_name="SubagentStart", agent_id="a1")
    assert (read(named).tool, read(named).kind) == ("Write", "other")  # a lifecycle payload's own tool_name is kept
    from worktree_guard.runtimes.claude_code import worktree_guard_read_event as read_event

    event = read_event(claude(repo, None, hook_event_name="SubagentStop", agent_id="a1"), "auto")
    assert event.transcript_path == "/home/u/.claude/projects/-repo/5f1c2a4e-0000-4000-8000-000000000001.jsonl"
    target = repo.main / "résumé.txt"
    out = answer(claude(repo, "Write", {"file_path": str(target), "content": "x"}), "claude-code", repo.worktree)
    assert str(target) in out and "\\u" not in out


def test_claude_code_reads_dispatch_links_within_bounds(tmp_path: Path) -> None:
    from worktree_guard.model import AgentEvent
    from worktree_guard.runtimes.claude_code import subagent_files, worktree_guard_find_dispatch as find

    session = tmp_path / "s1.jsonl"
    meta, transcript = subagent_files(str(session), "a1")
    Path(meta).parent.mkdir(parents=True)
    agent = AgentEvent(runtime="claude-code", event="SubagentStop", cwd="/w", agent_id="a1", transcript_path=str(session))
    Path(meta).write_text(json.dumps({"agentType": "coder", "toolUseId": "toolu_7"}, indent=2))  # several lines: read whole
    assert find(agent).dispatch_id == "toolu_7"
    Path(meta).write_text(json.dumps({"toolUseId": "toolu_8", "pad": "x" * (1024 * 1024)}))  # beyond the 1 MiB read
    Path(transcript).write_bytes(b'{"message": {"content": "caf\xc3\xa9\xff"}}\n')
    found = find(agent)
    assert (found.dispatch_id, found.prompt) == (None, "caf\u00e9\ufffd")  # the bad byte replaced, not an error


def test_cline_call_objects_are_named_in_the_refusal_and_the_call_id_is_optional(repo: Repo) -> None:
    assert read(cline(repo, tool_call={"name": "editor", "input": {"path": "a"}})).tool_use_id is None
    for field, value, kind in (("tool_call", [1], "list"), ("preToolUse", "x", "str")):
        payload = {**(cline(repo) if field == "tool_call" else vscode(repo)), field: value}
        assert refusal_of(payload) == f"the cline payload's `{field}` is a {kind}, not an object"


def test_cline_task_id_is_optional_and_a_bad_workspace_info_is_named(repo: Repo) -> None:
    assert read({k: v for k, v in cline(repo).items() if k != "taskId"}).session_id is None
    assert refusal_of(cline(repo, workspaceInfo="x")) == "the cline payload's `workspaceInfo` is a str, not an object"


def test_codex_reads_rollouts_as_bytes_and_within_bounds(tmp_path: Path) -> None:
    from worktree_guard.runtimes.codex import first_prompt

    message = {"payload": {"type": "item_completed", "item": {"type": "UserMessage", "content": [{"text": "go"}]}}}
    bad_bytes = tmp_path / "bytes.jsonl"
    bad_bytes.write_bytes(b'{"type": "x\xff"}\n' + json.dumps(message).encode() + b"\n")
    assert first_prompt(str(bad_bytes)) == "go"  # an undecodable record is skipped, not an error
    huge = {"payload": {"type": "item_completed", "item": {"type": "UserMessage", "content": [{"text": "x" * (5 * 1024 * 1024)}]}}}
    assert first_prompt(rollout(tmp_path / "huge.jsonl", huge)) is None  # a record beyond 4 MiB is not read whole


def test_codex_optional_fields_and_namespaces(repo: Repo) -> None:
    from worktree_guard.runtimes.codex import worktree_guard_read_event as read_event

    bare = {"turn_id": "t", "cwd": str(repo.worktree), "hook_event_name": "SubagentStart", "agent_id": "a1"}
    event = read_event(bare, "auto")
    assert (event.agent_type, event.session_id, event.permission_mode, event.transcript_path, event.parent_id) == (None, None, None, None, None)
    assert refusal_of(codex(repo, hook_event_name=5), "codex") == "the codex payload's `hook_event_name` is not a usable string (5)"
    assert read(codex(repo, "x" * len("multi_agent_v1") + "Bash")).kind == "unknown"  # only the namespace is taken off


def test_codex_more_optional_fields_bounds_and_the_rewrite(repo: Repo, tmp_path: Path) -> None:
    from worktree_guard.model import Verdict, Violation
    from worktree_guard.runtimes.codex import session_meta, worktree_guard_render_reply as render_reply

    call = read({k: v for k, v in codex(repo).items() if k not in ("session_id", "permission_mode", "tool_use_id")})
    assert (call.session_id, call.permission_mode, call.tool_use_id) == (None, None, None)
    assert refusal_of(codex(repo, "apply_patch", {"command": "*** Begin Patch\n*** Add File: a\n*** End Patch\n"}, transcript_path=0)) == (
        "the codex payload's `transcript_path` is not a usable string (0)"
    )
    huge = rollout(tmp_path / "huge.jsonl", {"type": "session_meta", "payload": {"cwd": "/w", "pad": "x" * (5 * 1024 * 1024)}})
    assert session_meta(huge) == {}  # a first record beyond 4 MiB is not read whole
    fixed = Violation(code="WG402", rule="r", tool="Bash", message="Moved.", fixed_input={"command": "ls"})
    verdict = Verdict(decision="rewrite", violations=[fixed], updated_input={"command": "ls"})
    out = render_reply(verdict, ToolCall(runtime="codex", tool="Bash", kind="shell", cwd="/w"))
    assert json.loads(out.stdout) == {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": {"command": "ls"}}}
    assert out.stderr == "Moved. [worktree-guard WG402]"


def test_copilot_reads_at_most_64_mib_of_events(tmp_path: Path) -> None:
    from worktree_guard.runtimes.copilot import sub_agent_prompt

    prompt = (json.dumps({"type": "user.message", "agentId": "a1", "data": {"content": "go"}}) + "\n").encode()
    limit = 64 * 1024 * 1024
    for extra, expected in ((0, "go"), (1, None)):  # the prompt's line ends at the limit, or one byte past it
        pad = limit + extra - len(prompt)
        events = tmp_path / f"events-{extra}.jsonl"
        with open(events, "wb") as f:
            f.write(b"x" * (pad // 2 - 1) + b"\n")
            f.write(b"x" * (pad - pad // 2 - 1) + b"\n")
            f.write(prompt)
        assert events.stat().st_size == limit + extra
        assert sub_agent_prompt(str(events), "a1") == expected, extra
        events.unlink()


def test_copilot_skips_an_events_line_that_is_json_but_no_event(tmp_path: Path) -> None:
    """A line holding the markers that parses as an array or a string raised AttributeError (a refusal, WG000,
    for the sub-agent's every call); it is skipped like any other line that is not this agent's prompt."""
    from worktree_guard.runtimes.copilot import sub_agent_prompt

    events = tmp_path / "events.jsonl"
    prompt = json.dumps({"type": "user.message", "agentId": "a1", "data": {"content": "go"}})
    events.write_text(json.dumps(["user.message", "a1"]) + "\n" + json.dumps("user.message a1") + "\n" + prompt + "\n")
    assert sub_agent_prompt(str(events), "a1") == "go"


def test_the_cline_extensions_patch_is_cancelled_not_overridden(repo: Repo) -> None:
    """The extension takes no `overrideInput`: even its apply_patch, a tool the CLI's refusal can rewrite, cancels."""
    patch = begin(f"*** Add File: {repo.main}/LEAK.txt", "+x")
    out = json.loads(answer(vscode(repo, "apply_patch", {"input": patch}), "cline", repo.worktree))
    assert set(out) == {"cancel", "errorMessage"} and out["cancel"] is True and codes_in(out["errorMessage"]) == {"WG101"}


def test_codex_a_transcript_path_that_is_not_a_string_is_named(repo: Repo) -> None:
    """Before, `os.path.isabs(5)` raised a TypeError out of session_meta: an internal error, not the field's name."""
    for value in (5, ["x"], {"a": 1}):
        assert refusal_of(codex(repo, transcript_path=value), "codex") == f"the codex payload's `transcript_path` is not a usable string ({value!r})"
