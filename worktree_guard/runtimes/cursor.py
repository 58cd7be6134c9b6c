"""The Cursor adapter, built from Cursor's documented hook protocol only (research/hook-protocols.md §6.2).

Cursor's CLI cannot be installed here (it is not on the npm registry), so nothing in this module was seen
working in the real client: it is tested at payload level. Payload: `hook_event_name` (`preToolUse`,
`beforeShellExecution`, …), `conversation_id`, `generation_id`, `workspace_roots`, and for `preToolUse`
`tool_name` and `tool_input` (`Shell`, `Write`, `StrReplace`, `Edit`, `Delete`, `MCP:server:tool`);
`beforeShellExecution` gives `command` and the `cwd` it runs in (the session's directory is the first of
`workspace_roots`). Replies: `{"permission": "deny", "user_message": …,
"agent_message": …}`, and `updated_input` with `"permission": "allow"` on `preToolUse`.

A pass prints `{}` rather than nothing: one source says Cursor takes a permission hook's unreadable output as
a block, and `{}` is a JSON object with no decision in it.
"""

from __future__ import annotations

from typing import Any

from ..engine import CallError
from ..hook_config import HookConfig, user_dir
from ..hookspecs import hookimpl
from ..model import ToolCall, Verdict
from ..reply import Reply
from .common import Tools, answer, shared_cwd_call, as_json, object_field, reads, text_field, tool_kind, unjudged

NAME = "cursor"
TOOL_EVENT = "preToolUse"
SHELL_EVENT = "beforeShellExecution"
MCP_EVENT = "beforeMCPExecution"
# Every event Cursor documents (hook-protocols.md §6.2): those the guard does not judge pass (a user may have
# wired its command there); a name outside this list is no Cursor payload, and is refused (WG000).
EVENTS = frozenset({
    "sessionStart", "sessionEnd", TOOL_EVENT, "postToolUse", "postToolUseFailure", "subagentStart", "subagentStop",
    SHELL_EVENT, "afterShellExecution", MCP_EVENT, "afterMCPExecution", "beforeReadFile", "afterFileEdit",
    "beforeSubmitPrompt", "preCompact", "stop", "afterAgentResponse", "afterAgentThought", "beforeTabFileRead",
    "afterTabFileEdit",
})
TOOLS: Tools = {
    "Shell": ("shell", None),
    "Write": ("file_write", "file_path"),
    "StrReplace": ("file_write", "file_path"),
    "Edit": ("file_write", "file_path"),
    "MultiEdit": ("file_write", "file_path"),
    "Delete": ("file_write", "file_path"),
    "Task": ("dispatch", None),
}
PASSING = frozenset({"Read", "Grep", "Glob", "LS", "SemanticSearch", "WebSearch", "WebFetch", "TodoWrite", "ReadLints"})
# The field that names a file tool's path: Cursor's docs show `file_path`; `path` and `target_file` also occur.
PATH_FIELDS = ("file_path", "path", "target_file")


def recognises(payload: dict[str, Any]) -> bool:
    return "conversation_id" in payload and "generation_id" in payload


def _workspace(payload: dict[str, Any]) -> str:
    """The session's directory: the first workspace root (a shell event's `cwd` is where its command runs)."""
    roots = payload.get("workspace_roots")
    if isinstance(roots, list) and roots and isinstance(roots[0], str) and roots[0]:
        return roots[0]
    cwd = payload.get("cwd")
    if isinstance(cwd, str) and cwd:
        return cwd
    raise CallError("the Cursor payload names no directory (`workspace_roots`, `cwd`)")


def to_tool_call(payload: dict[str, Any]) -> ToolCall:
    event = text_field(payload, "hook_event_name", NAME)
    cwd = _workspace(payload)
    common: dict[str, Any] = dict(runtime=NAME, cwd=cwd, session_id=text_field(payload, "conversation_id", NAME, required=False))
    if event == SHELL_EVENT:
        start = text_field(payload, "cwd", NAME, required=False)
        return ToolCall(tool="Shell", kind="shell", input={"command": payload.get("command")}, shell_cwd=start if start and start != cwd else None, **common)
    if event not in EVENTS:
        raise CallError(f"{event!r} is not an event Cursor sends (its tool event is {TOOL_EVENT!r})")
    if event == MCP_EVENT:  # an MCP tool may write anything: judged as preToolUse judges `MCP:…` tools
        return ToolCall(tool=text_field(payload, "tool_name", NAME, required=False) or event, kind="unknown", **common)
    if event != TOOL_EVENT:
        return ToolCall(tool=event, kind="other", **common)
    name = text_field(payload, "tool_name", NAME)
    tool_input = object_field(payload, "tool_input", NAME)
    kind, path_field = tool_kind(TOOLS, PASSING, name)
    if kind == "file_write":
        path_field = next((f for f in PATH_FIELDS if f in tool_input), path_field)
    tool_use_id = text_field(payload, "tool_use_id", NAME, required=False)
    return shared_cwd_call(NAME, name, kind, tool_input, cwd, path_field, tool_use_id=tool_use_id, session_id=common["session_id"])


@hookimpl
def worktree_guard_read_payload(payload: dict[str, Any], runtime: str) -> ToolCall | None:
    return to_tool_call(payload) if reads(runtime, NAME, payload, recognises) else None


def deny_reply(reason: str) -> Reply:
    return Reply(stdout=as_json({"permission": "deny", "user_message": reason, "agent_message": reason}))


def rewrite_reply(updated_input: dict[str, Any] | None, reason: str) -> Reply:
    return Reply(stdout=as_json({"permission": "allow", "updated_input": updated_input, "agent_message": reason}))


@hookimpl
def worktree_guard_render_reply(verdict: Verdict, call: ToolCall) -> Reply | None:
    if call.runtime != NAME:
        return None
    warn = lambda reason: Reply(stdout=as_json({"user_message": reason}))  # noqa: E731
    return answer(verdict, deny=deny_reply, rewrite=rewrite_reply, warn=warn, passed=Reply(stdout="{}"))


@hookimpl
def worktree_guard_payload_cwd(payload: dict[str, Any], runtime: str) -> str | None:
    if not reads(runtime, NAME, payload, recognises):
        return None
    try:
        return _workspace(payload)
    except CallError:
        return None


@hookimpl
def worktree_guard_render_error(message: str, payload: dict[str, Any] | None, runtime: str) -> Reply | None:
    return deny_reply(unjudged(message)) if reads(runtime, NAME, payload, recognises) else None


def _entries(command: str) -> dict[str, Any]:
    # No `timeout`: its unit is not confirmed (seconds or milliseconds); failClosed: a crash or timeout denies.
    return {TOOL_EVENT: {"command": command, "failClosed": True}}


HOOK_CONFIG = HookConfig(
    runtime=NAME,
    layout="flat",
    files={
        "project": lambda project, env: project / ".cursor" / "hooks.json",
        "user": lambda project, env: user_dir(env, None, ".cursor") / "hooks.json",
    },
    default_scope="project",
    entries=_entries,
    new_file={"project": {"version": 1}, "user": {"version": 1}},
    next_step="Cursor support follows Cursor's documented hook protocol and is not tested against a real Cursor: run `worktree-guard doctor` and one refused write to check it.",
)


@hookimpl
def worktree_guard_hook_config() -> HookConfig:
    return HOOK_CONFIG
