"""The OpenAI Codex CLI adapter: `PreToolUse` command hooks (observed in 0.171.0, research/runtimes-observed.md).

Payload: Claude-like snake_case plus `turn_id` and `model`. `apply_patch` carries the whole patch in
`tool_input.command`: every file header is a write. `exec_command` arrives as `Bash` with only `command`; its
`workdir` is not in `tool_input` but becomes the payload's `cwd` (observed: `"cwd": "/tmp"` for
`workdir: "/tmp"`, while the hook process ran in the session's directory). So the payload's `cwd` is where the
command starts, not where the agent is: the session's directory is read from the first record of the
transcript (`session_meta.cwd`), else (`codex exec --ephemeral` sends `transcript_path: null`) it is the
hook process's own directory, where Codex starts every hook (observed in 0.171.0, workdir or not). A Bash call
with neither is refused (WG000).
Sub-agents (`spawn_agent`) run in the parent's directory: same cwd, plus `agent_id` and `agent_type`.

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
from ..model import ToolCall, Verdict
from ..reply import Reply
from .common import Tools, answer, shared_cwd_call, as_json, object_field, reads, text_field, tool_kind, unjudged
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
_FIRST_RECORD_LIMIT = 4 * 1024 * 1024


def recognises(payload: dict[str, Any]) -> bool:
    return "turn_id" in payload and payload.get("hook_event_name") in EVENTS


def session_cwd(transcript_path: str | None) -> str | None:
    """The session's directory from the first record of its transcript (`session_meta`), or None."""
    if not transcript_path or not os.path.isabs(transcript_path):
        return None
    try:
        with open(transcript_path, "rb") as f:
            record = json.loads(f.readline(_FIRST_RECORD_LIMIT))
    except (OSError, ValueError):
        return None
    payload = record.get("payload") if isinstance(record, dict) and record.get("type") == "session_meta" else None
    cwd = payload.get("cwd") if isinstance(payload, dict) else None
    return cwd if isinstance(cwd, str) and os.path.isabs(cwd) else None


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
    cwd = session_cwd(payload.get("transcript_path"))
    extra: dict[str, Any] = {}
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
    return shared_cwd_call(
        NAME, name, kind, tool_input, cwd or sent_cwd, path_field,
        session_id=text_field(payload, "session_id", NAME, required=False),
        agent_id=text_field(payload, "agent_id", NAME, required=False),
        agent_type=text_field(payload, "agent_type", NAME, required=False),
        permission_mode=text_field(payload, "permission_mode", NAME, required=False),
        tool_use_id=text_field(payload, "tool_use_id", NAME, required=False),
        **extra,
    )


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
    return deny_reply(unjudged(message)) if reads(runtime, NAME, payload, recognises) else None


def _entries(command: str) -> dict[str, Any]:
    handler = {"type": "command", "command": command, "timeout": 30}
    return {"PreToolUse": {"matcher": "|".join(GUARDED_TOOLS), "hooks": [handler]}}


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
