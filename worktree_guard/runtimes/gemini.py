"""The Gemini CLI adapter: `BeforeTool` command hooks (observed in 0.61.0, research/runtimes-observed.md).

Payload: `session_id`, `transcript_path`, `cwd`, `hook_event_name: "BeforeTool"`, `timestamp`, `tool_name`,
`tool_input`. File tools `write_file` and `replace` name `file_path`; `run_shell_command` may name the directory
it starts in (`dir_path`); `invoke_agent` starts a sub-agent in the same directory, whose calls carry no agent
identity at all (same session, same cwd, no agent id).

Replies (observed): `{"decision": "deny", "reason": R}` blocks, and the model reads "Tool execution blocked: R";
a rewrite is `decision: "allow"` with `hookSpecificOutput.tool_input`, which REPLACES the arguments, so it holds
all of them (the guard's rewrites always echo the complete input).
"""

from __future__ import annotations

from typing import Any

from ..engine import CallError
from ..hook_config import HookConfig, user_dir
from ..hookspecs import hookimpl
from ..model import ToolCall, Verdict
from ..reply import Reply
from .common import Tools, answer, shared_cwd_call, as_json, object_field, reads, text_field, tool_kind, unjudged

NAME = "gemini"
# Events only Gemini CLI sends (its SessionStart, SessionEnd and Notification share Claude Code's names).
OWN_EVENTS = frozenset({"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel", "BeforeToolSelection", "PreCompress"})
EVENTS = OWN_EVENTS | {"SessionStart", "SessionEnd", "Notification"}
TOOLS: Tools = {
    "write_file": ("file_write", "file_path"),
    "replace": ("file_write", "file_path"),
    "run_shell_command": ("shell", None),
    "invoke_agent": ("dispatch", None),
}
PASSING = frozenset({
    "read_file", "read_many_files", "list_directory", "glob", "grep_search", "search_file_content", "web_fetch",
    "google_web_search", "save_memory", "write_todos", "update_topic", "enter_plan_mode", "exit_plan_mode",
    "activate_skill", "complete_task", "ask_user", "list_background_processes", "read_background_output",
})
GUARDED_TOOLS = ("write_file", "replace", "run_shell_command", "invoke_agent")
# The shell tool's start directory: `dir_path` in 0.61.0, `directory` in older builds.
SHELL_DIR_FIELDS = ("dir_path", "directory")


def recognises(payload: dict[str, Any]) -> bool:
    return payload.get("hook_event_name") in OWN_EVENTS


def to_tool_call(payload: dict[str, Any]) -> ToolCall:
    event = text_field(payload, "hook_event_name", NAME)
    if event not in EVENTS:
        raise CallError(f"{event!r} is not an event Gemini CLI sends (its tool event is 'BeforeTool')")
    cwd = text_field(payload, "cwd", NAME)
    name = text_field(payload, "tool_name", NAME, required=event == "BeforeTool") or event
    tool_input = object_field(payload, "tool_input", NAME)
    kind, path_field = tool_kind(TOOLS, PASSING, name)
    if event != "BeforeTool":
        kind = "other"
    extra: dict[str, Any] = {}
    if kind == "shell":
        for key in SHELL_DIR_FIELDS:
            if tool_input.get(key) not in (None, ""):
                extra["shell_cwd"] = text_field(tool_input, key, NAME)
                break
    if kind == "dispatch":
        prompt, target = tool_input.get("prompt"), tool_input.get("agent_name")
        extra.update(
            subagent_named=False,  # its calls carry no identity: they look like the dispatcher's own
            subagent_prompt=prompt if isinstance(prompt, str) else None,
            subagent_type=target if isinstance(target, str) and target else None,
        )
    return shared_cwd_call(
        NAME, name, kind, tool_input, cwd, path_field,
        session_id=text_field(payload, "session_id", NAME, required=False),
        **extra,
    )


@hookimpl
def worktree_guard_read_payload(payload: dict[str, Any], runtime: str) -> ToolCall | None:
    return to_tool_call(payload) if reads(runtime, NAME, payload, recognises) else None


def deny_reply(reason: str) -> Reply:
    return Reply(stdout=as_json({"decision": "deny", "reason": reason}))


def rewrite_reply(updated_input: dict[str, Any] | None, reason: str) -> Reply:
    output = {"hookEventName": "BeforeTool", "tool_input": updated_input}
    return Reply(stdout=as_json({"decision": "allow", "reason": reason, "hookSpecificOutput": output}))


@hookimpl
def worktree_guard_render_reply(verdict: Verdict, call: ToolCall) -> Reply | None:
    if call.runtime != NAME:
        return None
    return answer(verdict, deny=deny_reply, rewrite=rewrite_reply, warn=lambda reason: Reply(stdout=as_json({"systemMessage": reason})))


@hookimpl
def worktree_guard_render_error(message: str, payload: dict[str, Any] | None, runtime: str) -> Reply | None:
    return deny_reply(unjudged(message)) if reads(runtime, NAME, payload, recognises) else None


def _entries(command: str) -> dict[str, Any]:
    handler = {"type": "command", "command": command, "name": "worktree-guard", "timeout": 30000}  # milliseconds
    return {"BeforeTool": {"matcher": f"^({'|'.join(GUARDED_TOOLS)})$", "hooks": [handler]}}


HOOK_CONFIG = HookConfig(
    runtime=NAME,
    layout="grouped",
    files={
        "project": lambda project, env: project / ".gemini" / "settings.json",
        "user": lambda project, env: user_dir(env, None, ".gemini") / "settings.json",
    },
    default_scope="project",
    entries=_entries,
    next_step=(
        "Gemini CLI reads a project's .gemini/settings.json only in a trusted folder: trust this folder when "
        "`gemini` asks (headless runs: set GEMINI_CLI_TRUST_WORKSPACE=true)."
    ),
)


@hookimpl
def worktree_guard_hook_config() -> HookConfig:
    return HOOK_CONFIG
