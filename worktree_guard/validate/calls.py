"""The records the readers produce and the replayer consumes: recorded calls, damaged lines, layout evidence."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Outcome = Literal["executed", "refused", "no result"]


@dataclass(slots=True, frozen=True)
class WorktreeState:
    """A transcript's `worktree-state` record: the session ran in `worktree_path`, made from `original_cwd`."""

    worktree_path: str
    original_cwd: str | None
    file: str
    line: int


@dataclass(slots=True, frozen=True)
class Anchor:
    """Where an agent's worktree is looked for, and why.

    `cwd` is the directory the agent started in (its first recorded cwd): W is the checkout holding it,
    whatever the agent `cd`s to later. `inferred_from` explains an anchor that was not recorded (a
    sub-agent known only from its parent's transcript); `worktree_agent` names a sub-agent that was
    dispatched with `isolation: worktree`, whose W is `.claude/worktrees/agent-<id>` under its parent's W.
    """

    cwd: str
    worktree_state: WorktreeState | None = None
    recorded_root: str | None = None
    inferred_from: str | None = None
    worktree_agent: str | None = None


@dataclass(slots=True)
class RecordedCall:
    """One tool call as a session recorded it, ready to be turned into a ToolCall by the runtime's adapter."""

    runtime: str
    payload: dict[str, Any]
    cwd: str
    anchor: Anchor
    file: str
    line: int
    session_id: str | None = None
    agent_id: str | None = None
    agent_type: str | None = None
    tool_use_id: str | None = None
    home: str | None = None
    outcome: Outcome = "no result"
    outcome_detail: str | None = None
    dispatch_prompt: str | None = None  # a sub-agent's: the prompt its recorded dispatch gave it (its ownership)
    wave_session: bool = False  # the session recorded a dispatch whose prompt declares an ownership (SPEC §11)

    @property
    def tool(self) -> str:
        return str(self.payload.get("tool_name", "?"))


@dataclass(slots=True, frozen=True)
class LineProblem:
    """A line (or a whole file, line 0) that could not be read; it was skipped."""

    file: str
    line: int
    reason: str


@dataclass(slots=True)
class ReadResult:
    """What a reader got out of one unit of work (a session's files, or one log file)."""

    calls: list[RecordedCall] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)
    records: int = 0


def decode_record(raw: bytes, path: str, number: int, problems: list[LineProblem]) -> dict[str, Any] | None:
    """One JSONL line as a JSON object; a line that is not one is reported (with its number) and skipped."""
    import json

    try:
        record = json.loads(raw)
    except ValueError as e:
        problems.append(LineProblem(path, number, f"not valid JSON ({getattr(e, 'msg', e)}): skipped"))
        return None
    if not isinstance(record, dict):
        problems.append(LineProblem(path, number, "not a JSON object: skipped"))
        return None
    return record


def read_records(path: str, result: ReadResult) -> list[tuple[int, dict[str, Any]]]:
    """(line number, record) of every JSON-object line of a JSONL file; the others are reported in `result`."""
    records = []
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            result.records += 1
            record = decode_record(raw, path, number, result.problems)
            if record is not None:
                records.append((number, record))
    return records
