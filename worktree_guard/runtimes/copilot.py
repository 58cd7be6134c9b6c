"""The GitHub Copilot CLI adapter: `preToolUse` and `PreToolUse` command hooks (observed in 1.0.102).

Copilot sends one of two payloads, by the event key the hook is configured under:
- camelCase `preToolUse`: `{sessionId, timestamp (ms), cwd, toolName, toolArgs}`; `toolArgs` is an object for
  function tools (`bash {command}`, `create {path, file_text}`, `edit {path, old_str, new_str}`, `task {prompt,
  agent_type, name}`) but the raw patch text for `apply_patch` (and a JSON string in some docs: decoded);
- PascalCase `PreToolUse`: Claude-like `{hook_event_name, session_id, timestamp (ISO), cwd, tool_name,
  tool_input}` with Claude's tool names (`Bash`, `Write`, `Edit`, `Agent`) but Copilot's argument shapes,
  and `tool_input` is the patch STRING when `Edit` is really `apply_patch`.
A sub-agent (`task`) runs in the same cwd; its calls add `agentId`/`agentType`/`parentAgentId` (camel) or
`agent_id`/`agent_type`/`parent_agent_id` (Pascal). There is no matcher: every tool call reaches the hook.

Replies (observed): `{"permissionDecision": "deny", "permissionDecisionReason": R}` (and, under PascalCase,
Claude's `hookSpecificOutput` form) blocks; the model reads "Denied by preToolUse hook: R". A rewrite is
`permissionDecision: "allow"` with `modifiedArgs`.
"""

from __future__ import annotations

import json
from typing import Any

from ..engine import CallError
from ..hook_config import HookConfig, user_dir
from ..hookspecs import hookimpl
from ..model import ToolCall, Verdict
from ..reply import Reply
from .common import Tools, answer, shared_cwd_call, as_json, reads, text_field, tool_kind, unjudged
from .patch import PatchError, patch_writes

NAME = "copilot"
CAMEL_TOOLS: Tools = {
    "bash": ("shell", None),
    "create": ("file_write", "path"),
    "edit": ("file_write", "path"),
    "apply_patch": ("file_write", None),
    "task": ("dispatch", None),
}
PASCAL_TOOLS: Tools = {
    "Bash": ("shell", None),
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
CAMEL = {"tool": "toolName", "input": "toolArgs", "session": "sessionId", "agent": "agentId", "type": "agentType", "tools": CAMEL_TOOLS}
PASCAL = {"tool": "tool_name", "input": "tool_input", "session": "session_id", "agent": "agent_id", "type": "agent_type", "tools": PASCAL_TOOLS}


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
    return shared_cwd_call(
        NAME, name, kind, args, cwd, path_field,
        session_id=text_field(payload, form["session"], NAME, required=False),
        agent_id=text_field(payload, form["agent"], NAME, required=False),
        agent_type=text_field(payload, form["type"], NAME, required=False),
        **extra,
    )


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
    recognised = payload is not None and form_of(payload) is not None
    return deny_reply(unjudged(message)) if reads(runtime, NAME, payload, lambda p: recognised) else None


def _entries(command: str) -> dict[str, Any]:
    return {"preToolUse": {"type": "command", "bash": command, "timeoutSec": 30}}


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
