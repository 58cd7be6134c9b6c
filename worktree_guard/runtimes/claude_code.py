"""The Claude Code adapter: PreToolUse payloads in, `hookSpecificOutput` replies out (SPEC §6, §7)."""

from __future__ import annotations

import json
from typing import Any, Literal

from ..records import ConfigDict, Field, Record, validation_error

from ..engine import CallError, reason_text
from ..hook_config import HookConfig, user_dir
from ..hookspecs import hookimpl
from ..model import AgentEvent, EventVerdict, ToolCall, ToolKind, Verdict
from ..reply import Reply

NAME = "claude-code"

# tool name → (kind, the input field holding the path)
TOOLS: dict[str, tuple[ToolKind, str | None]] = {
    "Write": ("file_write", "file_path"),
    "Edit": ("file_write", "file_path"),
    "MultiEdit": ("file_write", "file_path"),
    "NotebookEdit": ("file_write", "notebook_path"),
    "Read": ("file_read", "file_path"),
    "Glob": ("file_read", "path"),
    "Grep": ("file_read", "path"),
    "LS": ("file_read", "path"),
    "Bash": ("shell", None),
    "Monitor": ("shell", None),  # `command`, or `ws` (a websocket: runs no command); same permission rules as Bash
    "PowerShell": ("powershell", None),  # Bash's fields; the only shell tool on Windows without Git Bash
    "Agent": ("dispatch", None),
    "Task": ("dispatch", None),
    "EnterWorktree": ("enter_worktree", "path"),
    "ExitWorktree": ("other", None),  # writes nothing the guard judges; its call releases a main agent's record
}

# The agent type Claude Code runs when a dispatch names none.
DEFAULT_SUBAGENT = "general-purpose"
# Permission modes in which Claude Code would run the tool without asking (SPEC §6).
AUTO_APPROVE_ALL = {"bypassPermissions", "dontAsk", "auto"}
AUTO_APPROVE_FILE_TOOLS = {"acceptEdits"}
# Tools that need no permission in any mode (tools reference, "Permission required: No").
NO_PERMISSION_TOOLS = {"Agent", "Task"}

# Every hook event Claude Code documents (hook-protocols.md §1): those other than PreToolUse and the
# lifecycle events pass (they cannot block a tool call); a name outside this list is not a real payload.
KNOWN_EVENTS = frozenset({
    "PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "PermissionRequest", "PermissionDenied",
    "UserPromptSubmit", "UserPromptExpansion", "Notification", "MessageDisplay", "Stop", "StopFailure",
    "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "SessionStart", "SessionEnd", "Setup",
    "CwdChanged", "FileChanged", "ConfigChange", "WorktreeCreate", "WorktreeRemove",
})
# Sub-agent lifecycle events the guard answers (SPEC §5.4); every other non-tool event passes.
LIFECYCLE_EVENTS = ("SubagentStart", "SubagentStop")
# The tools the PreToolUse entry must cover (install writes them as its matcher; doctor checks them): every tool
# that writes, runs a command (Bash, Monitor, PowerShell: a tool left out is never judged, a fail-open) or
# dispatches. ExitWorktree passes, but must reach the hook: it releases a main agent recorded in a linked worktree
# (subagents/main_agent.py).
GUARDED_TOOLS = (
    "Write", "Edit", "MultiEdit", "NotebookEdit", "Bash", "Monitor", "PowerShell", "Agent", "Task", "EnterWorktree", "ExitWorktree",
)
PRE_TOOL_USE_MATCHER = "|".join(GUARDED_TOOLS)
PRE_TOOL_USE_TIMEOUT = 30
# The leak check (SPEC §5.4) compares the shared checkouts' state: give it more time than a path check.
SUBAGENT_TIMEOUT = 60


def guard_groups(command: str) -> dict[str, dict[str, Any]]:
    """The matcher group the guard adds under each event of a Claude Code settings file."""
    pre = {"matcher": PRE_TOOL_USE_MATCHER, "hooks": [{"type": "command", "command": command, "timeout": PRE_TOOL_USE_TIMEOUT}]}
    groups = {"PreToolUse": pre}
    for event in LIFECYCLE_EVENTS:
        # No matcher: every agent type (SubagentStart/Stop match on agent_type).
        groups[event] = {"hooks": [{"type": "command", "command": command, "timeout": SUBAGENT_TIMEOUT}]}
    return groups


HOOK_CONFIG = HookConfig(
    runtime=NAME,
    layout="grouped",
    files={
        "project": lambda project, env: project / ".claude" / "settings.json",
        "local": lambda project, env: project / ".claude" / "settings.local.json",
        "user": lambda project, env: user_dir(env, "CLAUDE_CONFIG_DIR", ".claude") / "settings.json",
    },
    default_scope="local",
    entries=guard_groups,
)


@hookimpl
def worktree_guard_hook_config() -> HookConfig:
    return HOOK_CONFIG


class PreToolUsePayload(Record):
    """The stdin of a Claude Code PreToolUse hook. Unknown fields are kept: the runtime adds fields often."""

    model_config = ConfigDict(extra="allow")

    session_id: str | None = None
    transcript_path: str | None = None
    cwd: str = Field(description="the agent's current directory; the worktree root inside a worktree")
    permission_mode: str | None = None
    hook_event_name: str | None = Field(default=None, description="`event` in some hook logs")
    tool_name: str
    tool_input: dict[str, Any] = Field(default_factory=dict)
    tool_use_id: str | None = None
    agent_id: str | None = Field(default=None, description="present only inside a sub-agent")
    agent_type: str | None = None


class SubagentPayload(Record):
    """The stdin of a Claude Code SubagentStart or SubagentStop hook (research/hook-protocols.md §1.4)."""

    model_config = ConfigDict(extra="allow")

    session_id: str | None = None
    cwd: str
    hook_event_name: Literal["SubagentStart", "SubagentStop"]
    agent_id: str = Field(min_length=1)
    agent_type: str | None = None
    stop_hook_active: bool = False
    permission_mode: str | None = None
    transcript_path: str | None = None


def _event_name(payload: dict[str, Any]) -> Any:
    return payload.get("hook_event_name", payload.get("event"))


def to_agent_event(payload: dict[str, Any]) -> AgentEvent:
    """An AgentEvent from a SubagentStart/SubagentStop payload; CallError names what is wrong with it."""
    try:
        data = SubagentPayload.model_validate({**payload, "hook_event_name": _event_name(payload)})
    except validation_error() as e:
        raise _invalid(e, f"{_event_name(payload)} payload") from None
    fields = data.model_dump(include={"cwd", "agent_id", "agent_type", "session_id", "stop_hook_active", "permission_mode", "transcript_path"})
    return AgentEvent(runtime=NAME, event=data.hook_event_name, **fields)


def _invalid(error: Exception, what: str) -> CallError:
    """The first problem of a payload that failed validation, as a one-line cause."""
    first = error.errors()[0]  # type: ignore[attr-defined]  # pydantic's ValidationError
    where = ".".join(str(p) for p in first["loc"]) or "payload"
    return CallError(f"the Claude Code {what}'s `{where}` is invalid: {first['msg']}")


def watches_a_socket(tool: str, tool_input: dict[str, Any]) -> bool:
    """A Monitor that names a websocket (`ws`, an object) and no `command` runs no command: it is a shell call
    with none to judge, for the bash rule and a wave worker's check alike. Any other Monitor is judged as Bash:
    one with a `command` besides its `ws` runs it, and one naming neither (or a `command` of null, or a `ws`
    that is no object) is a call the guard cannot read, WG000 as for Bash, not a pass."""
    return tool == "Monitor" and "command" not in tool_input and isinstance(tool_input.get("ws"), dict)


def to_tool_call(payload: dict[str, Any]) -> ToolCall:
    """A ToolCall from a PreToolUse payload; CallError names what is wrong with it."""
    if "hook_event_name" not in payload and "event" in payload:
        payload = {**payload, "hook_event_name": payload["event"]}
    if "tool_name" not in payload and payload.get("hook_event_name") in LIFECYCLE_EVENTS:
        payload = {**payload, "tool_name": payload["hook_event_name"]}
    try:
        data = PreToolUsePayload.model_validate(payload)
    except validation_error() as e:
        raise _invalid(e, "payload") from None
    event = data.hook_event_name or "PreToolUse"
    if event not in KNOWN_EVENTS:
        raise CallError(f"the payload's hook event {event!r} is not one Claude Code sends")
    kind, path_field = TOOLS.get(data.tool_name, ("unknown", None))
    if event != "PreToolUse":
        kind = "other"
    target = data.tool_input.get("subagent_type") if kind == "dispatch" else None
    return ToolCall(
        runtime=NAME,
        tool=data.tool_name,
        kind=kind,
        input=data.tool_input,
        cwd=data.cwd,
        path_field=path_field,
        commands=[] if watches_a_socket(data.tool_name, data.tool_input) else None,
        session_id=data.session_id,
        agent_id=data.agent_id,
        agent_type=data.agent_type,
        permission_mode=data.permission_mode,
        tool_use_id=data.tool_use_id,
        transcript_path=data.transcript_path,
        subagent_type=(target if isinstance(target, str) and target else DEFAULT_SUBAGENT) if kind == "dispatch" else None,
    )


@hookimpl(trylast=True)
def worktree_guard_read_payload(payload: dict[str, Any], runtime: str) -> ToolCall | None:
    if runtime not in ("auto", NAME):
        return None
    if runtime == "auto" and "tool_name" not in payload and payload.get("hook_event_name") not in LIFECYCLE_EVENTS:
        return None
    return to_tool_call(payload)


@hookimpl(trylast=True)
def worktree_guard_read_event(payload: dict[str, Any], runtime: str) -> AgentEvent | None:
    if runtime not in ("auto", NAME) or _event_name(payload) not in LIFECYCLE_EVENTS:
        return None
    return to_agent_event(payload)


def _json(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False)


def permission_for_rewrite(call: ToolCall) -> str:
    mode = call.permission_mode or "default"
    if call.tool in NO_PERMISSION_TOOLS or mode in AUTO_APPROVE_ALL or (mode in AUTO_APPROVE_FILE_TOOLS and call.kind == "file_write"):
        return "allow"
    return "ask"


def deny_reply(reason: str) -> Reply:
    output = {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}
    return Reply(stdout=_json({"hookSpecificOutput": output}))


@hookimpl(trylast=True)
def worktree_guard_render_reply(verdict: Verdict, call: ToolCall) -> Reply | None:
    if call.runtime != NAME:
        return None
    if verdict.decision == "pass":
        return Reply()
    reason = reason_text(verdict)
    if verdict.decision == "deny":
        return deny_reply(reason)
    if verdict.decision == "rewrite":
        output = {
            "hookEventName": "PreToolUse",
            "permissionDecision": permission_for_rewrite(call),
            "permissionDecisionReason": reason,
            "updatedInput": verdict.updated_input,
        }
        return Reply(stdout=_json({"hookSpecificOutput": output}))
    output = {"hookEventName": "PreToolUse", "additionalContext": reason}
    return Reply(stdout=_json({"systemMessage": reason, "hookSpecificOutput": output}))


@hookimpl(trylast=True)
def worktree_guard_render_event_reply(verdict: EventVerdict, event: AgentEvent) -> Reply | None:
    """SubagentStop: top-level `decision: "block"` + `reason`; SubagentStart: `additionalContext` only (§1.6)."""
    if event.runtime != NAME:
        return None
    from .common import lifecycle_reply

    return lifecycle_reply(verdict, event)


@hookimpl(trylast=True)
def worktree_guard_render_error(message: str, payload: dict[str, Any] | None, runtime: str) -> Reply | None:
    if runtime not in ("auto", NAME):
        return None
    if payload is not None and _event_name(payload) in LIFECYCLE_EVENTS:
        # A failed leak check cannot be fixed by the sub-agent: tell the user, never block its stop.
        return Reply(stdout=_json({"systemMessage": f"worktree-guard could not check this sub-agent: {message} [worktree-guard WG000]"}))
    return deny_reply(f"worktree-guard could not check this call, so it is refused: {message} [worktree-guard WG000]")


# --- which dispatch started a sub-agent (SPEC §11) --------------------------------------------------------

#: Largest sub-agent metadata file or transcript line read to find its dispatch.
_LINK_READ_LIMIT = 1024 * 1024


def subagent_files(transcript_path: str, agent_id: str) -> tuple[str, str]:
    """(metadata, transcript) of a sub-agent: `<session>/subagents/agent-<id>.meta.json` and `….jsonl`, where
    `<session>` is the session's transcript path without `.jsonl` (observed on 2.1.197 and 2.1.332)."""
    import os

    base = transcript_path[: -len(".jsonl")] if transcript_path.endswith(".jsonl") else transcript_path
    stem = os.path.join(base, "subagents", f"agent-{os.path.basename(agent_id)}")
    return stem + ".meta.json", stem + ".jsonl"


def _read_head(path: str, first_line: bool) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.readline(_LINK_READ_LIMIT) if first_line else f.read(_LINK_READ_LIMIT)
    except OSError:
        return None


def _prompt_of(record: Any) -> str | None:
    """The text of a transcript's first user record: the prompt the dispatch gave the sub-agent."""
    message = record.get("message") if isinstance(record, dict) else None
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [b.get("text") for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)]
        return "\n".join(texts) if texts else None
    return None


@hookimpl(trylast=True)
def worktree_guard_find_dispatch(agent: Any) -> Any:
    """The metadata's `toolUseId` (there by the sub-agent's first tool call); else the transcript's first prompt."""
    from ..subagents.linking import DispatchLink

    if getattr(agent, "runtime", None) != NAME or not agent.agent_id or not agent.transcript_path:
        return None
    meta_path, transcript = subagent_files(agent.transcript_path, agent.agent_id)
    meta = _read_head(meta_path, first_line=False)
    if meta is not None:
        try:
            data = json.loads(meta)
        except ValueError:
            data = None
        if isinstance(data, dict) and isinstance(data.get("toolUseId"), str):
            return DispatchLink(dispatch_id=data["toolUseId"], how=f"{meta_path} (toolUseId)", fork=data.get("isFork") is True)
    line = _read_head(transcript, first_line=True)
    if line:
        try:
            prompt = _prompt_of(json.loads(line))
        except ValueError:
            prompt = None
        if prompt:
            return DispatchLink(prompt=prompt, how=f"the first prompt of {transcript}")
    return None
