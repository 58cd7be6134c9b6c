"""What every runtime adapter does alike: read typed fields of a payload, look a tool up, print JSON."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..engine import CallError, reason_text
from ..model import AgentEvent, EventVerdict, ToolCall, ToolKind, Verdict
from ..reply import Reply

Tools = dict[str, tuple[ToolKind, str | None]]


def as_json(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False)


def text_field(payload: dict[str, Any], key: str, runtime: str, *, required: bool = True) -> str | None:
    """`payload[key]` as a string; CallError when it is required and missing, or present and not a string."""
    value = payload.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value):
        raise CallError(f"the {runtime} payload's `{key}` is {'missing' if value is None else f'not a usable string ({value!r:.80})'}")
    return value


def object_field(payload: dict[str, Any], key: str, runtime: str) -> dict[str, Any]:
    """`payload[key]` as a JSON object (absent: empty); CallError otherwise."""
    value = payload.get(key, {})
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise CallError(f"the {runtime} payload's `{key}` is a {type(value).__name__}, not an object")
    return value


def tool_kind(tools: Tools, passing: frozenset[str], name: str) -> tuple[ToolKind, str | None]:
    """(kind, path field) of a tool: from the adapter's table, "other" for tools known to write nothing, else
    "unknown" (refused for an isolated agent, WG000)."""
    if name in tools:
        return tools[name]
    if name in passing:
        return "other", None
    return "unknown", None


def unjudged(message: str) -> str:
    """The reason of a refusal the guard gives because it could not judge the call (WG000)."""
    return f"worktree-guard could not check this call, so it is refused: {message} [worktree-guard WG000]"


def reads(runtime: str, name: str, payload: dict[str, Any] | None, recognises: Callable[[dict[str, Any]], bool]) -> bool:
    """Is this payload the adapter `name`'s: named by `--runtime`, or recognised when the runtime is "auto"?"""
    return runtime == name or (runtime == "auto" and payload is not None and recognises(payload))


def answer(
    verdict: Verdict,
    *,
    deny: Callable[[str], Reply],
    rewrite: Callable[[dict[str, Any] | None, str], Reply],
    warn: Callable[[str], Reply],
    passed: Reply | None = None,
) -> Reply:
    """A verdict in a runtime's words: `deny(reason)`, `rewrite(updated_input, reason)`, `warn(reason)`."""
    if verdict.decision == "pass":
        return passed or Reply()
    reason = reason_text(verdict)
    if verdict.decision == "deny":
        return deny(reason)
    if verdict.decision == "rewrite":
        return rewrite(verdict.updated_input, reason)
    return warn(reason)


def shared_cwd_call(runtime: str, tool: str, kind: ToolKind, tool_input: dict[str, Any], cwd: str, path_field: str | None, **fields: Any) -> ToolCall:
    """The ToolCall of a runtime whose sub-agents always run in their dispatcher's directory (every runtime here
    but Claude Code): a dispatch says so, so the dispatch rule has nothing to add."""
    if kind == "dispatch":
        fields.setdefault("subagent_place", "dispatcher_cwd")
    return ToolCall(runtime=runtime, tool=tool, kind=kind, input=tool_input, cwd=cwd, path_field=path_field, **fields)


def lifecycle_reply(verdict: EventVerdict, event: AgentEvent) -> Reply:
    """A sub-agent's start or stop answered in Claude Code's words, which Codex and Copilot read too (observed):
    SubagentStop `decision: "block"` with the reason the sub-agent goes on with; SubagentStart
    `hookSpecificOutput.additionalContext`; a `systemMessage` for the user."""
    out: dict[str, Any] = {}
    if event.event == "SubagentStop" and verdict.decision == "block" and verdict.reason:
        out.update(decision="block", reason=verdict.reason)
    if event.event == "SubagentStart" and verdict.context:
        out["hookSpecificOutput"] = {"hookEventName": "SubagentStart", "additionalContext": verdict.context}
    if verdict.user_message:
        out["systemMessage"] = verdict.user_message
    return Reply(stdout=as_json(out) if out else "")
