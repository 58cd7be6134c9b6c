"""The audit log: one JSON line per verdict, appended with a single O_APPEND write (parallel hooks never interleave)."""

from __future__ import annotations

import datetime as _dt
import json
import os
from typing import Any

from .records import ConfigDict, Field, Record

from .model import AgentEvent, EventVerdict, ToolCall, Verdict, Violation

# Input fields that hold file content, never paths or commands: left out of the log.
_CONTENT_FIELDS = ("content", "old_string", "new_string", "edits", "new_source", "prompt")


class AuditRecord(Record):
    """One line of the audit log."""

    model_config = ConfigDict(extra="forbid")

    time: str = Field(description="UTC, ISO 8601")
    runtime: str
    session_id: str | None = None
    agent_id: str | None = None
    agent_type: str | None = None
    tool: str
    tool_use_id: str | None = None
    cwd: str
    input: dict[str, Any] = Field(description="the tool input without file content")
    worktree_root: str | None = None
    isolated: bool
    decision: str
    codes: list[str] = Field(default_factory=list)
    violations: list[Violation] = Field(default_factory=list)


def record_for(call: ToolCall, verdict: Verdict) -> AuditRecord:
    return AuditRecord(
        time=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds"),
        runtime=call.runtime,
        session_id=call.session_id,
        agent_id=call.agent_id,
        agent_type=call.agent_type,
        tool=call.tool,
        tool_use_id=call.tool_use_id,
        cwd=call.cwd,
        input={k: v for k, v in call.input.items() if k not in _CONTENT_FIELDS},
        worktree_root=verdict.worktree_root,
        isolated=verdict.isolated,
        decision=verdict.decision,
        codes=verdict.codes,
        violations=verdict.violations,
    )


def append_line(path: str, record: dict[str, Any]) -> None:
    """Append one JSON line with one write(2) on an O_APPEND descriptor; the file is created 0600."""
    line = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        written = os.write(fd, line)
    finally:
        os.close(fd)
    if written != len(line):
        raise OSError(f"short write to audit log {path}: {written} of {len(line)} bytes")


def append(path: str, call: ToolCall, verdict: Verdict) -> None:
    append_line(path, record_for(call, verdict).model_dump(mode="json"))


def record_for_event(event: AgentEvent, verdict: EventVerdict, isolated: bool) -> AuditRecord:
    """A sub-agent's start or stop as an audit line: `tool` is the event name, `input` the agent's identity."""
    return AuditRecord(
        time=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds"),
        runtime=event.runtime,
        session_id=event.session_id,
        agent_id=event.agent_id,
        agent_type=event.agent_type,
        tool=event.event,
        cwd=event.cwd,
        input={"stop_hook_active": event.stop_hook_active} if event.event == "SubagentStop" else {},
        isolated=isolated,
        decision=verdict.decision,
        codes=verdict.codes,
        violations=verdict.violations,
    )


def append_event(path: str, event: AgentEvent, verdict: EventVerdict, isolated: bool) -> None:
    append_line(path, record_for_event(event, verdict, isolated).model_dump(mode="json"))
