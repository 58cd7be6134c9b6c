"""The GitHub Copilot CLI adapter: `preToolUse` and `PreToolUse` command hooks (observed in 1.0.102).

Copilot sends one of two payloads, by the event key the hook is configured under:
- camelCase `preToolUse`: `{sessionId, timestamp (ms), cwd, toolName, toolArgs}`; `toolArgs` is an object for
  function tools (`bash {command}`, `create {path, file_text}`, `edit {path, old_str, new_str}`, `task {prompt,
  agent_type, name}`) but the raw patch text for `apply_patch` (and a JSON string in some docs: decoded);
- PascalCase `PreToolUse`: Claude-like `{hook_event_name, session_id, timestamp (ISO), cwd, tool_name,
  tool_input}` with Claude's tool names (`Bash`, `Write`, `Edit`, `Agent`) but Copilot's argument shapes,
  and `tool_input` is the patch STRING when `Edit` is really `apply_patch`.
A sub-agent (`task`) runs in the same cwd; its calls add `agentId`/`agentType`/`parentAgentId` (camel) or
`agent_id`/`agent_type`/`parent_agent_id` (Pascal); its `sessionId` is its own agent id. There is no matcher:
every tool call reaches the hook. A `task` call carries no call id: the guard names the dispatch itself
(`copilot-<session>-<timestamp>-<digest of its arguments>`).

Sub-agents (observed in 1.0.102): `subagentStart` `{sessionId (the dispatcher's), timestamp, cwd,
transcriptPath (the session's events.jsonl), agentName, agentId, agentType, parentAgentId}` and `subagentStop`
(the same plus `response`, `stopReason`, `stop_hook_active`) are sent for every `task` sub-agent, with no
event name in the payload; a `subagentStop` answered `{"decision": "block", "reason": R}` makes the sub-agent
go on with R as its next prompt. The session's `events.jsonl` holds each sub-agent's prompt (a `user.message`
event with its `agentId`) before its first tool call: that links a sub-agent to its dispatch (SPEC §11),
together with `parentAgentId`, the dispatcher's id.

Replies (observed): `{"permissionDecision": "deny", "permissionDecisionReason": R}` (and, under PascalCase,
Claude's `hookSpecificOutput` form) blocks; the model reads "Denied by preToolUse hook: R". A rewrite is
`permissionDecision: "allow"` with `modifiedArgs`.
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..engine import CallError
from ..hook_config import HookConfig, user_dir
from ..hookspecs import hookimpl
from ..model import AgentEvent, EventVerdict, ToolCall, Verdict
from ..reply import Reply
from .common import Tools, answer, as_json, lifecycle_reply, reads, shared_cwd_call, text_field, tool_kind, unjudged
from .patch import PatchError, patch_writes

NAME = "copilot"
CAMEL_TOOLS: Tools = {
    "bash": ("shell", None),
    "powershell": ("powershell", None),  # Windows; the guard cannot read it: WG900 (rules/bash.py)
    "create": ("file_write", "path"),
    "edit": ("file_write", "path"),
    "apply_patch": ("file_write", None),
    "task": ("dispatch", None),
}
PASCAL_TOOLS: Tools = {
    "Bash": ("shell", None),
    "PowerShell": ("powershell", None),  # `powershell` under Claude's name, as `bash` is `Bash` (not observed: Windows)
    "Write": ("file_write", "path"),
    "Edit": ("file_write", "path"),
    "Agent": ("dispatch", None),
}
PASSING = frozenset({
    "view", "rg", "grep", "glob", "read_bash", "stop_bash", "list_bash", "web_fetch", "web_search", "ask_user",
    "report_intent", "update_todo", "think", "fetch_copilot_cli_documentation", "skill", "show_file",
    "Read", "Grep", "Glob", "LS", "WebFetch", "WebSearch", "TodoWrite",
    # The session's own SQLite database (Copilot refuses ATTACH and VACUUM INTO: observed in 1.0.102), the
    # session store (read-only queries), and messages to and from background agents, whose calls are hooked.
    "sql", "session_store_sql", "read_agent", "list_agents", "write_agent",
})
# The form of the payload: which keys hold what.
CAMEL = {"tool": "toolName", "input": "toolArgs", "session": "sessionId", "agent": "agentId", "type": "agentType", "parent": "parentAgentId", "tools": CAMEL_TOOLS}
PASCAL = {"tool": "tool_name", "input": "tool_input", "session": "session_id", "agent": "agent_id", "type": "agent_type", "parent": "parent_agent_id", "tools": PASCAL_TOOLS}
# The events a sub-agent's start and stop are installed under (camelCase, like preToolUse).
LIFECYCLE_EVENTS = {"subagentStart": "SubagentStart", "subagentStop": "SubagentStop"}
_EVENTS_LIMIT = 64 * 1024 * 1024  # bytes of a session's events.jsonl read to find a sub-agent's prompt


def form_of(payload: dict[str, Any]) -> dict[str, Any] | None:
    """CAMEL, PASCAL, or None when the payload is not Copilot's."""
    if "toolName" in payload and "toolArgs" in payload:
        return CAMEL
    if payload.get("hook_event_name") == "PreToolUse" and "timestamp" in payload and "transcript_path" not in payload:
        return PASCAL
    return None


def to_tool_call(payload: dict[str, Any], form: dict[str, Any]) -> ToolCall:
    cwd = text_field(payload, "cwd", NAME)
    name = text_field(payload, form["tool"], NAME)
    args = payload.get(form["input"])
    tools: Tools = form["tools"]
    extra: dict[str, Any] = {}
    if form is CAMEL and "toolResult" in payload:
        kind, path_field = "other", None  # a postToolUse payload
    elif isinstance(args, str) and name in ("apply_patch", "Edit"):
        kind, path_field = "file_write", None
        try:
            extra["file_writes"] = patch_writes(args)
        except PatchError as e:
            raise CallError(f"the Copilot patch cannot be judged: {e}") from None
        args = {"patch": args}
    else:
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except ValueError:
                raise CallError(f"the Copilot payload's `{form['input']}` for {name} is a string that is not JSON") from None
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise CallError(f"the Copilot payload's `{form['input']}` is a {type(args).__name__}, not an object")
        kind, path_field = tool_kind(tools, PASSING, name)
    session = text_field(payload, form["session"], NAME, required=False)
    if kind == "dispatch":
        prompt, target = args.get("prompt"), args.get("agent_type")
        extra.update(
            subagent_prompt=prompt if isinstance(prompt, str) else None,
            subagent_type=target if isinstance(target, str) and target else None,
            tool_use_id=dispatch_id(session, payload.get("timestamp"), args),
        )
    return shared_cwd_call(
        NAME, name, kind, args, cwd, path_field,
        session_id=session,
        agent_id=text_field(payload, form["agent"], NAME, required=False),
        agent_type=text_field(payload, form["type"], NAME, required=False),
        parent_id=text_field(payload, form["parent"], NAME, required=False),
        **extra,
    )


def dispatch_id(session: str | None, timestamp: Any, args: dict[str, Any]) -> str:
    """A `task` call's id, which Copilot does not send: its session, its time and a digest of its arguments."""
    import hashlib  # here, not at the top: loading it costs every hook call ≈ 3 ms

    digest = hashlib.sha256(json.dumps(args, sort_keys=True, ensure_ascii=False).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return f"copilot-{session or 'no-session'}-{timestamp}-{digest}"


def lifecycle_event(payload: dict[str, Any], runtime: str) -> str | None:
    """SubagentStart or SubagentStop for a Copilot sub-agent start/stop payload (either form), else None."""
    named = payload.get("hook_event_name")
    if named in LIFECYCLE_EVENTS.values():
        return named if "parent_agent_id" in payload and "timestamp" in payload else None
    if "toolName" in payload or "tool_name" in payload or "agentName" not in payload:
        return None
    if not ("agentId" in payload or "agent_id" in payload):
        return None
    return "SubagentStop" if "stopReason" in payload or "stop_hook_active" in payload else "SubagentStart"


@hookimpl
def worktree_guard_read_event(payload: dict[str, Any], runtime: str) -> AgentEvent | None:
    event = lifecycle_event(payload, runtime) if runtime in ("auto", NAME) else None
    if event is None:
        return None
    first = lambda *keys: next((payload[k] for k in keys if isinstance(payload.get(k), str) and payload[k]), None)  # noqa: E731
    cwd, agent_id = first("cwd"), first("agentId", "agent_id")
    if cwd is None or agent_id is None:
        raise CallError(f"the Copilot {event} payload names no `cwd` or agent id")
    return AgentEvent(
        runtime=NAME,
        event=event,
        cwd=cwd,
        agent_id=agent_id,
        agent_type=first("agentType", "agent_type"),
        session_id=first("sessionId", "session_id"),
        parent_id=first("parentAgentId", "parent_agent_id"),
        stop_hook_active=payload.get("stop_hook_active") is True,
        transcript_path=first("transcriptPath", "transcript_path"),
    )


@hookimpl
def worktree_guard_render_event_reply(verdict: EventVerdict, event: AgentEvent) -> Reply | None:
    if event.runtime != NAME:
        return None
    return lifecycle_reply(verdict, event)


def events_file(agent: Any) -> str | None:
    """The session's events.jsonl: the transcript its start named, else the dispatcher's session state."""
    path = getattr(agent, "transcript_path", None)
    if isinstance(path, str) and os.path.isabs(path):
        return path
    parent = getattr(agent, "parent_id", None)
    if not parent or "/" in parent or parent.startswith("."):
        return None
    home = os.environ.get("COPILOT_HOME") or os.path.join(os.path.expanduser("~"), ".copilot")
    return os.path.join(home, "session-state", parent, "events.jsonl")


def sub_agent_prompt(path: str, agent_id: str) -> str | None:
    """The first `user.message` of this sub-agent in a session's events.jsonl: the prompt its `task` gave it."""
    needle = agent_id.encode()
    try:
        with open(path, "rb") as f:
            read = 0
            for line in f:
                read += len(line)
                if read > _EVENTS_LIMIT:
                    return None
                if b'"user.message"' not in line or needle not in line:
                    continue
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if not isinstance(record, dict):
                    continue  # a line that is JSON but no event (an array, a string): not this agent's prompt
                data = record.get("data")
                if record.get("type") == "user.message" and record.get("agentId") == agent_id and isinstance(data, dict) and isinstance(data.get("content"), str):
                    return data["content"]
    except OSError:
        return None
    return None


@hookimpl
def worktree_guard_find_dispatch(agent: Any) -> Any:
    """A sub-agent's prompt, from the session's events.jsonl (its dispatcher, `parentAgentId`, does the rest)."""
    from ..subagents.linking import DispatchLink

    if getattr(agent, "runtime", None) != NAME or not agent.agent_id:
        return None
    path = events_file(agent)
    prompt = sub_agent_prompt(path, agent.agent_id) if path else None
    return DispatchLink(prompt=prompt, how=f"its prompt in {path}") if prompt else None


@hookimpl
def worktree_guard_read_payload(payload: dict[str, Any], runtime: str) -> ToolCall | None:
    form = form_of(payload)
    if runtime == NAME and form is None:
        raise CallError("the payload is neither of Copilot's forms (camelCase toolName/toolArgs, or PascalCase PreToolUse)")
    if form is None or runtime not in ("auto", NAME):
        return None
    return to_tool_call(payload, form)


def deny_reply(reason: str) -> Reply:
    # The top-level form is Copilot's own; `hookSpecificOutput` is the Claude-style form it also honours.
    claude = {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}
    return Reply(stdout=as_json({"permissionDecision": "deny", "permissionDecisionReason": reason, "hookSpecificOutput": claude}))


def rewrite_reply(updated_input: dict[str, Any] | None, reason: str) -> Reply:
    return Reply(stdout=as_json({"permissionDecision": "allow", "permissionDecisionReason": reason, "modifiedArgs": updated_input}))


@hookimpl
def worktree_guard_render_reply(verdict: Verdict, call: ToolCall) -> Reply | None:
    if call.runtime != NAME:
        return None
    return answer(verdict, deny=deny_reply, rewrite=rewrite_reply, warn=lambda reason: Reply(stdout=as_json({"additionalContext": reason})))


@hookimpl
def worktree_guard_render_error(message: str, payload: dict[str, Any] | None, runtime: str) -> Reply | None:
    if payload is not None and runtime in ("auto", NAME) and lifecycle_event(payload, runtime) is not None:
        # A start or stop the guard could not check: tell the user, never block the sub-agent's stop.
        return Reply(stdout=as_json({"systemMessage": f"worktree-guard could not check this sub-agent: {message} [worktree-guard WG000]"}))
    recognised = payload is not None and form_of(payload) is not None
    return deny_reply(unjudged(message)) if reads(runtime, NAME, payload, lambda p: recognised) else None


def _entries(command: str) -> dict[str, Any]:
    entries = {"preToolUse": {"type": "command", "bash": command, "timeoutSec": 30}}
    entries.update({event: {"type": "command", "bash": command, "timeoutSec": 60} for event in LIFECYCLE_EVENTS})
    return entries


HOOK_CONFIG = HookConfig(
    runtime=NAME,
    layout="flat",
    files={
        "project": lambda project, env: project / ".github" / "hooks" / "worktree-guard.json",
        "user": lambda project, env: user_dir(env, "COPILOT_HOME", ".copilot") / "settings.json",
    },
    default_scope="project",
    entries=_entries,
    new_file={"project": {"version": 1}},
    next_step=(
        "Copilot loads a repository's .github/hooks/*.json only in a folder you trust: trust this folder when "
        "`copilot` asks (in `copilot -p`, COPILOT_ALLOW_ALL=true trusts it)."
    ),
)


@hookimpl
def worktree_guard_hook_config() -> HookConfig:
    return HOOK_CONFIG
