"""Codex session files (`$CODEX_HOME/sessions/…/rollout-*.jsonl`, a PreToolUse payload's `transcript_path`)
→ RecordedCalls, judged as the hook judges them.

A rollout is one JSON record a line, `{"timestamp", "type", "payload"}` (observed with Codex 0.171.0): the first
is `session_meta` (the session's `cwd`; a sub-agent has a rollout of its own), `turn_context` records give
each turn's `cwd`, and `response_item` records hold the model's calls — `function_call` (`exec_command`
with `arguments` as a JSON string `{cmd, workdir?}`, `spawn_agent`, …), `custom_tool_call` (`apply_patch`
with the patch as `input`) — and their outputs (`function_call_output` / `custom_tool_call_output`, by
`call_id`). Each call becomes the payload the Codex hook would have received: `exec_command` as `Bash` with
its workdir as the payload's `cwd`, the session's directory read from the rollout itself.
"""

from __future__ import annotations

import json
import os
import shlex
from typing import Any

from .calls import Anchor, LineProblem, ReadResult, RecordedCall, read_records
from .outcomes import outcome_of

RUNTIME = "codex"
_BLOCKED = "Command blocked by PreToolUse hook"
_CALLS = ("function_call", "custom_tool_call", "local_shell_call")
_OUTPUTS = ("function_call_output", "custom_tool_call_output")


def is_codex_session(record: dict[str, Any]) -> bool:
    payload = record.get("payload")
    return record.get("type") == "session_meta" and isinstance(payload, dict) and "cwd" in payload


def _arguments(item: dict[str, Any]) -> Any:
    raw = item.get("arguments", item.get("input"))
    if item.get("type") == "function_call" and isinstance(raw, str):
        try:
            return json.loads(raw)
        except ValueError:
            return raw
    return raw


def _shell_command(value: Any) -> Any:
    """An argv list as the command it runs (`["bash", "-lc", X]` → X), a string as it is."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        if len(value) == 3 and os.path.basename(value[0]) in ("bash", "sh", "zsh") and value[1] in ("-c", "-lc"):
            return value[2]
        return shlex.join(value)
    return value


def hook_call(item: dict[str, Any], turn_cwd: str) -> tuple[str, dict[str, Any], str]:
    """(hook tool name, hook tool_input, the payload's cwd) of one model call, as Codex hands it to a hook."""
    name = str(item.get("name") or item.get("type"))
    args = _arguments(item)
    if item.get("type") == "local_shell_call":
        action = item.get("action") if isinstance(item.get("action"), dict) else {}
        args, name = {"cmd": _shell_command(action.get("command")), "workdir": action.get("working_directory")}, "shell"
    if name in ("exec_command", "shell", "container.exec") and isinstance(args, dict):
        command = _shell_command(args.get("cmd", args.get("command")))
        workdir = args.get("workdir")
        cwd = os.path.normpath(os.path.join(turn_cwd, workdir)) if isinstance(workdir, str) and workdir else turn_cwd
        return "Bash", {"command": command}, cwd
    if name == "apply_patch":
        return "apply_patch", {"command": args if isinstance(args, str) else json.dumps(args)}, turn_cwd
    if item.get("namespace") and name != "spawn_agent":
        name = f"{item['namespace']}{name}"  # as Codex names a namespaced tool to hooks
    return name, args if isinstance(args, dict) else {"input": args}, turn_cwd


def read_codex_session(path: str) -> ReadResult:
    """The calls of one rollout file, each paired with its output."""
    result = ReadResult()
    session_cwd: str | None = None
    turn_cwd: str | None = None
    meta: dict[str, Any] = {}
    calls: dict[str, RecordedCall] = {}
    for number, record in read_records(path, result):
        payload = record.get("payload")
        if not isinstance(payload, dict):
            continue
        kind = record.get("type")
        if kind == "session_meta":
            meta = payload
            session_cwd = turn_cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else None
        elif kind == "turn_context" and isinstance(payload.get("cwd"), str):
            turn_cwd = payload["cwd"]
        elif kind == "response_item" and payload.get("type") in _CALLS:
            if session_cwd is None or turn_cwd is None:
                result.problems.append(LineProblem(path, number, "a call before the session's `session_meta` record: skipped"))
                continue
            tool, tool_input, cwd = hook_call(payload, turn_cwd)
            call_id = str(payload.get("call_id") or payload.get("id") or f"line-{number}")
            hook_payload = {
                "session_id": meta.get("id"),
                "turn_id": "",
                "transcript_path": os.path.abspath(path),
                "hook_event_name": "PreToolUse",
                "tool_name": tool,
                "tool_input": tool_input,
                "tool_use_id": call_id,
            }
            agent_id = meta.get("agent_id") if isinstance(meta.get("agent_id"), str) else None
            calls[call_id] = RecordedCall(
                runtime=RUNTIME, payload=hook_payload, cwd=cwd, anchor=Anchor(cwd=session_cwd), file=path, line=number,
                session_id=meta.get("id"), agent_id=agent_id, tool_use_id=call_id,
            )
        elif kind == "response_item" and payload.get("type") in _OUTPUTS:
            call = calls.get(str(payload.get("call_id")))
            if call is not None:
                text = payload.get("output")
                text = text if isinstance(text, str) else json.dumps(text)
                call.outcome, call.outcome_detail = outcome_of(text.startswith(_BLOCKED), text)
    result.calls = list(calls.values())
    return result
