"""The OpenAI Codex CLI adapter: `PreToolUse` command hooks (observed in 0.171.0, research/runtimes-observed.md).

Payload: Claude-like snake_case plus `turn_id` and `model`. `apply_patch` carries the whole patch in
`tool_input.command`: every file header is a write. `exec_command` arrives as `Bash` with only `command`; its
`workdir` is not in `tool_input` but becomes the payload's `cwd` (observed: `"cwd": "/tmp"` for
`workdir: "/tmp"`, while the hook process ran in the session's directory). So the payload's `cwd` is where the
command starts, not where the agent is: the session's directory is read from the first record of the
transcript (`session_meta.cwd`), else (`codex exec --ephemeral` sends `transcript_path: null`) it is the
hook process's own directory, where Codex starts every hook (observed in 0.171.0, workdir or not). A Bash call
with neither is refused (WG000).
Sub-agents (`spawn_agent`) run in the parent's directory: same cwd, plus `agent_id` and `agent_type`. Their
payload's `transcript_path` is their own rollout, whose first record (`session_meta`) names the thread that
spawned them (`parent_thread_id`: the session's id, or the spawning sub-agent's `agent_id`) and whose first
user message is the `spawn_agent` message (observed in 0.171.0, before the sub-agent's first tool call): that
is how a sub-agent is linked to its dispatch (SPEC §11). `SubagentStart` and `SubagentStop` are sent for every
spawned sub-agent (same snake_case payload, with `agent_id`), and a SubagentStop answered
`{"decision": "block", "reason": R}` makes the sub-agent go on with R as its next prompt (observed).

Replies (all observed to block): `hookSpecificOutput.permissionDecision: "deny"` with a reason, which reaches
the model as "Command blocked by PreToolUse hook: <reason>"; a rewrite is `permissionDecision: "allow"` with
`updatedInput` (Codex rejects `updatedInput` without `allow`).
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
from .common import Tools, answer, as_json, lifecycle_reply, object_field, reads, shared_cwd_call, text_field, tool_kind, unjudged
from .patch import PatchError, patch_writes

NAME = "codex"
EVENTS = frozenset({
    "SessionStart", "PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit", "Stop", "StopFailure",
    "PreCompact", "PostCompact", "SubagentStart", "SubagentStop",
})
TOOLS: Tools = {
    "apply_patch": ("file_write", None),
    "Bash": ("shell", None),
    "spawn_agent": ("dispatch", None),
}
# Tools that write nothing themselves (a sub-agent's own calls are judged where it makes them).
PASSING = frozenset({
    "view_image", "update_plan", "web_search", "tool_search", "request_user_input", "list_mcp_resources",
    "list_mcp_resource_templates", "read_mcp_resource", "wait_agent", "send_input", "close_agent", "resume_agent",
})
# A tool inside a namespace reaches hooks with the namespace glued to its name (`multi_agent_v1wait_agent`).
NAMESPACES = ("multi_agent_v1",)
# The tools install's matcher covers: every one that can write or dispatch.
GUARDED_TOOLS = ("apply_patch", "Bash", "spawn_agent")
LIFECYCLE_EVENTS = ("SubagentStart", "SubagentStop")
_FIRST_RECORD_LIMIT = 4 * 1024 * 1024
_PROMPT_RECORDS = 64  # records of a sub-agent's rollout read for its first prompt


def recognises(payload: dict[str, Any]) -> bool:
    return "turn_id" in payload and payload.get("hook_event_name") in EVENTS


def session_meta(transcript_path: str | None) -> dict[str, Any]:
    """The first record of a rollout (`session_meta`)'s payload, or {}."""
    if not transcript_path or not os.path.isabs(transcript_path):
        return {}
    try:
        with open(transcript_path, "rb") as f:
            record = json.loads(f.readline(_FIRST_RECORD_LIMIT))
    except (OSError, ValueError):
        return {}
    payload = record.get("payload") if isinstance(record, dict) and record.get("type") == "session_meta" else None
    return payload if isinstance(payload, dict) else {}


def parent_thread(meta: dict[str, Any]) -> str | None:
    """The thread that spawned a sub-agent's rollout (`parent_thread_id`), or None for a session's own."""
    parent = meta.get("parent_thread_id")
    return parent if isinstance(parent, str) and parent else None


def tool_name(name: str) -> str:
    for namespace in NAMESPACES:
        if name.startswith(namespace) and name[len(namespace):] in PASSING | set(TOOLS):
            return name[len(namespace):]
    return name


def to_tool_call(payload: dict[str, Any]) -> ToolCall:
    event = text_field(payload, "hook_event_name", NAME)
    if event not in EVENTS:
        raise CallError(f"{event!r} is not an event Codex sends (its tool event is 'PreToolUse')")
    sent_cwd = text_field(payload, "cwd", NAME)
    name = text_field(payload, "tool_name", NAME, required=event == "PreToolUse") or event
    tool_input = object_field(payload, "tool_input", NAME)
    kind, path_field = tool_kind(TOOLS, PASSING, tool_name(name))
    if event != "PreToolUse":
        kind = "other"
    meta = session_meta(text_field(payload, "transcript_path", NAME, required=False))  # a non-string: a clear CallError
    cwd = meta.get("cwd") if isinstance(meta.get("cwd"), str) and os.path.isabs(meta["cwd"]) else None
    extra: dict[str, Any] = {}
    agent_id = text_field(payload, "agent_id", NAME, required=False)
    if agent_id:
        extra["parent_id"] = parent_thread(meta)
    if kind == "shell":
        if cwd is None and payload.get("transcript_path") is None:
            from ..hook import HOOK_PROCESS_CWD

            cwd = HOOK_PROCESS_CWD.get()  # no transcript at all (--ephemeral): Codex runs the hook in the session's directory
        if cwd is None:
            raise CallError(
                "Codex's session transcript (`transcript_path`) cannot be read, so the session's directory is unknown "
                "(a Bash call's `cwd` is its workdir)"
            )
        if sent_cwd != cwd:
            extra["shell_cwd"] = sent_cwd
    elif kind == "file_write":
        patch = tool_input.get("command")
        if not isinstance(patch, str):
            raise CallError("the Codex apply_patch call has no patch text in `tool_input.command`")
        extra["file_writes"] = _writes(patch)
    elif kind == "dispatch":
        extra["subagent_prompt"] = spawn_message(tool_input)
        target = tool_input.get("agent_type")
        extra["subagent_type"] = target if isinstance(target, str) and target else None
    return shared_cwd_call(
        NAME, name, kind, tool_input, cwd or sent_cwd, path_field,
        session_id=text_field(payload, "session_id", NAME, required=False),
        agent_id=agent_id,
        agent_type=text_field(payload, "agent_type", NAME, required=False),
        permission_mode=text_field(payload, "permission_mode", NAME, required=False),
        tool_use_id=text_field(payload, "tool_use_id", NAME, required=False),
        transcript_path=text_field(payload, "transcript_path", NAME, required=False),
        **extra,
    )


def spawn_message(tool_input: dict[str, Any]) -> str | None:
    """What `spawn_agent` tells its sub-agent: `message`, else the text of its `items`."""
    message = tool_input.get("message")
    if isinstance(message, str):
        return message
    items = tool_input.get("items")
    if isinstance(items, list):
        texts = [i.get("text") for i in items if isinstance(i, dict) and isinstance(i.get("text"), str)]
        return "\n".join(texts) if texts else None
    return None


def first_prompt(transcript_path: str) -> str | None:
    """A sub-agent rollout's first user message (the `spawn_agent` message), read from its first records."""
    try:
        with open(transcript_path, "rb") as f:
            for _ in range(_PROMPT_RECORDS):
                line = f.readline(_FIRST_RECORD_LIMIT)
                if not line:
                    return None
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                payload = record.get("payload") if isinstance(record, dict) else None
                item = payload.get("item") if isinstance(payload, dict) and payload.get("type") == "item_completed" else None
                if isinstance(item, dict) and item.get("type") == "UserMessage":
                    texts = [c.get("text") for c in item.get("content") or [] if isinstance(c, dict) and isinstance(c.get("text"), str)]
                    return "\n".join(texts) if texts else None
    except OSError:
        return None
    return None


@hookimpl
def worktree_guard_find_dispatch(agent: Any) -> Any:
    """A sub-agent's own rollout: its first user message is the `spawn_agent` message."""
    from ..subagents.linking import DispatchLink

    path = getattr(agent, "transcript_path", None)
    if getattr(agent, "runtime", None) != NAME or not agent.agent_id or not path or not os.path.isabs(path):
        return None
    prompt = first_prompt(path)
    return DispatchLink(prompt=prompt, how=f"the first prompt of {path}") if prompt else None


def to_agent_event(payload: dict[str, Any]) -> AgentEvent:
    """A SubagentStart/SubagentStop payload (observed in 0.171.0) as an AgentEvent. The sub-agent's own rollout is
    `transcript_path` at its start, `agent_transcript_path` at its stop (where `transcript_path` is its parent's)."""
    transcript = text_field(payload, "agent_transcript_path", NAME, required=False) or text_field(payload, "transcript_path", NAME, required=False)
    return AgentEvent(
        runtime=NAME,
        event=payload["hook_event_name"],
        cwd=text_field(payload, "cwd", NAME),
        agent_id=text_field(payload, "agent_id", NAME),
        agent_type=text_field(payload, "agent_type", NAME, required=False),
        session_id=text_field(payload, "session_id", NAME, required=False),
        parent_id=parent_thread(session_meta(transcript)),
        stop_hook_active=payload.get("stop_hook_active") is True,
        permission_mode=text_field(payload, "permission_mode", NAME, required=False),
        transcript_path=transcript,
    )


@hookimpl
def worktree_guard_read_event(payload: dict[str, Any], runtime: str) -> AgentEvent | None:
    if not reads(runtime, NAME, payload, recognises) or payload.get("hook_event_name") not in LIFECYCLE_EVENTS:
        return None
    return to_agent_event(payload)


@hookimpl
def worktree_guard_render_event_reply(verdict: EventVerdict, event: AgentEvent) -> Reply | None:
    """Codex reads Claude Code's words here (observed): a SubagentStop `decision: block` with its reason, a
    SubagentStart's `additionalContext`, a `systemMessage` for the user."""
    if event.runtime != NAME:
        return None
    return lifecycle_reply(verdict, event)


def _writes(patch: str) -> list:
    try:
        return patch_writes(patch)
    except PatchError as e:
        raise CallError(f"the Codex patch cannot be judged: {e}") from None


@hookimpl
def worktree_guard_read_payload(payload: dict[str, Any], runtime: str) -> ToolCall | None:
    return to_tool_call(payload) if reads(runtime, NAME, payload, recognises) else None


def deny_reply(reason: str) -> Reply:
    output = {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}
    return Reply(stdout=as_json({"hookSpecificOutput": output}))


def rewrite_reply(updated_input: dict[str, Any] | None, reason: str) -> Reply:
    output = {"hookEventName": "PreToolUse", "permissionDecision": "allow", "updatedInput": updated_input}
    return Reply(stdout=as_json({"hookSpecificOutput": output}), stderr=reason)


@hookimpl
def worktree_guard_render_reply(verdict: Verdict, call: ToolCall) -> Reply | None:
    if call.runtime != NAME:
        return None
    # warn: the call goes on; Codex logs a hook's stderr
    return answer(verdict, deny=deny_reply, rewrite=rewrite_reply, warn=lambda reason: Reply(stderr=reason))


@hookimpl
def worktree_guard_render_error(message: str, payload: dict[str, Any] | None, runtime: str) -> Reply | None:
    if not reads(runtime, NAME, payload, recognises):
        return None
    if payload is not None and payload.get("hook_event_name") in LIFECYCLE_EVENTS:
        # A start or stop the guard could not check: tell the user, never block the sub-agent's stop.
        return Reply(stdout=as_json({"systemMessage": f"worktree-guard could not check this sub-agent: {message} [worktree-guard WG000]"}))
    return deny_reply(unjudged(message))


def _entries(command: str) -> dict[str, Any]:
    handler = {"type": "command", "command": command, "timeout": 30}
    lifecycle = {"type": "command", "command": command, "timeout": 60}  # the wave's snapshots take longer
    entries = {"PreToolUse": {"matcher": "|".join(GUARDED_TOOLS), "hooks": [handler]}}
    entries.update({event: {"hooks": [lifecycle]} for event in LIFECYCLE_EVENTS})
    return entries


HOOK_CONFIG = HookConfig(
    runtime=NAME,
    layout="grouped",
    files={
        "project": lambda project, env: project / ".codex" / "hooks.json",
        "user": lambda project, env: user_dir(env, "CODEX_HOME", ".codex") / "hooks.json",
    },
    default_scope="project",
    entries=_entries,
    next_step=(
        "Codex runs a hook only once it is trusted: start `codex` here and approve the worktree-guard hook when it "
        "asks (`codex exec` skips untrusted hooks silently). A project's .codex/hooks.json also needs the project "
        "trusted (`[projects.\"<this checkout>\"] trust_level = \"trusted\"` in ~/.codex/config.toml)."
    ),
    # Observed in 0.171.0: in a linked worktree Codex runs the main checkout's .codex/hooks.json, and only while
    # the worktree has a .codex directory of its own; the worktree's own hooks.json is never run.
    linked_worktree="main_and_own",
)


@hookimpl
def worktree_guard_hook_config() -> HookConfig:
    return HOOK_CONFIG
