"""Hook-input logs (one hook payload a line) and the guard's own audit log → RecordedCalls.

A hook-input log holds what a hook received: the PreToolUse payloads are the calls, and a PostToolUse with
the same tool-use id (or, without ids, the same tool and input) says the call ran. Some loggers write
`event` instead of `hook_event_name`. An audit line (audit.AuditRecord) holds the call and the verdict
the guard gave it then: a call it denied or rewrote did not run as asked.
"""

from __future__ import annotations

from typing import Any

import pluggy

from .calls import Anchor, LineProblem, ReadResult, RecordedCall, read_records
from .layouts import recorded_home
from .outcomes import outcome_of

_PRE = "PreToolUse"
_POST = ("PostToolUse", "PostToolUseFailure")


def _event(record: dict[str, Any]) -> Any:
    return record.get("hook_event_name", record.get("event"))


def _same_call(pre: dict[str, Any], post: dict[str, Any]) -> bool:
    if pre.get("tool_use_id") or post.get("tool_use_id"):
        return pre.get("tool_use_id") == post.get("tool_use_id")
    return all(pre.get(k) == post.get(k) for k in ("session_id", "agent_id", "tool_name", "tool_input"))


def read_hook_log(path: str, pm: pluggy.PluginManager, runtime: str = "auto") -> ReadResult:
    """The PreToolUse calls of a hook-input log, each paired with a later PostToolUse when there is one."""
    result = ReadResult()
    records = read_records(path, result)
    anchors: dict[tuple[Any, Any], Anchor] = {}
    pending: list[tuple[dict[str, Any], RecordedCall]] = []
    for number, record in records:
        event = _event(record)
        if event in _POST:
            match = next((entry for entry in pending if _same_call(entry[0], record)), None)
            if match is not None:
                pending.remove(match)
                match[1].outcome, match[1].outcome_detail = outcome_of(False)
            continue
        try:
            call = pm.hook.worktree_guard_read_payload(payload=record, runtime=runtime)
        except Exception as e:  # noqa: BLE001 — CallError and friends: the line is skipped, the log goes on
            result.problems.append(LineProblem(path, number, f"not a usable hook payload ({e}): skipped"))
            continue
        if call is None or call.kind == "other":
            continue
        key = (call.session_id, call.agent_id)
        anchor = anchors.setdefault(key, Anchor(cwd=call.cwd))
        transcript = record.get("transcript_path")
        recorded = RecordedCall(
            runtime=call.runtime,
            payload=record,
            cwd=call.cwd,
            anchor=anchor,
            file=path,
            line=number,
            session_id=call.session_id,
            agent_id=call.agent_id,
            agent_type=call.agent_type,
            tool_use_id=call.tool_use_id,
            home=recorded_home(call.cwd, transcript if isinstance(transcript, str) else None),
        )
        result.calls.append(recorded)
        pending.append((record, recorded))
    return result


def read_audit_log(path: str) -> ReadResult:
    """The calls of an audit log, with the decision the guard recorded for each."""
    from ..audit import AuditRecord

    result = ReadResult()
    anchors: dict[tuple[Any, Any], Anchor] = {}
    for number, record in read_records(path, result):
        try:
            line = AuditRecord.model_validate(record)
        except Exception as e:  # noqa: BLE001 — pydantic's ValidationError: skip the line
            first = str(e).splitlines()[0]
            result.problems.append(LineProblem(path, number, f"not an audit record ({first}): skipped"))
            continue
        key = (line.session_id, line.agent_id)
        anchor = anchors.setdefault(key, Anchor(cwd=line.cwd, recorded_root=line.worktree_root))
        payload: dict[str, Any] = {
            "hook_event_name": _PRE,
            "session_id": line.session_id,
            "cwd": line.cwd,
            "tool_name": line.tool,
            "tool_input": line.input,
            "tool_use_id": line.tool_use_id,
        }
        if line.agent_id:
            payload["agent_id"] = line.agent_id
        if line.agent_type:
            payload["agent_type"] = line.agent_type
        refused = line.decision in ("deny", "rewrite")
        detail = f"{'denied' if line.decision == 'deny' else 'rewritten'} by worktree-guard ({' '.join(line.codes)})" if refused else None
        result.calls.append(
            RecordedCall(
                runtime=line.runtime,
                payload=payload,
                cwd=line.cwd,
                anchor=anchor,
                file=path,
                line=number,
                session_id=line.session_id,
                agent_id=line.agent_id,
                agent_type=line.agent_type,
                tool_use_id=line.tool_use_id,
                outcome="refused" if refused else "executed",
                outcome_detail=detail,
            )
        )
    return result
