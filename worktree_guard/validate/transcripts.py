"""Claude Code transcripts → RecordedCalls (research/hook-protocols.md §5).

Every `tool_use` block of an assistant record is a call; a sub-agent's calls also appear inside its parent's
`progress` records, so calls are de-duplicated by tool-use id, keeping the sub-agent file's copy (it records
the sub-agent's own cwd). Each call is paired with its `tool_result` to learn whether it ran.

Most of a transcript holds no tool call (hook and bash progress, text, snapshots): such lines are skipped
after one substring test, without being decoded. Lines that only hold tool results are read with a regular
expression unless one of them is an error. In compact JSON a `"key":"` sequence can only be structural: the
quotes of a string's content are escaped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .calls import Anchor, LineProblem, ReadResult, RecordedCall, WorktreeState, decode_record
from .outcomes import outcome_of, result_text

RUNTIME = "claude-code"
ISOLATION_WORKTREE = {"worktree", "work_tree", "work-tree"}

_TOOL = b"tool_use"
_CALL = b'"type":"tool_use"'
_RESULT = b'"type":"tool_result"'
_ERROR = b'"is_error":true'
_AGENT_ID = b'"agentId"'
_WORKTREE_STATE = b'"worktree-state"'
_CWD = b'"cwd"'
_RESULT_ID = re.compile(rb'"tool_use_id":"([^"\\]*)"')
_FENCE_OWNS = "worktree-guard"  # a dispatch prompt that may hold an ownership block (SPEC §11)


@dataclass(slots=True)
class _Use:
    """A tool_use block where it was found."""

    block: dict[str, Any]
    cwd: str | None
    file: str
    line: int
    agent_id: str | None
    session_id: str | None
    from_progress: bool
    parent_tool_use_id: str | None = None
    anchor: Anchor | None = None


@dataclass(slots=True)
class _Session:
    """Everything gathered from one session's files before the calls are assembled."""

    uses: dict[str, _Use] = field(default_factory=dict)
    unnamed: list[_Use] = field(default_factory=list)
    results: dict[str, tuple[bool, str]] = field(default_factory=dict)
    anchors: dict[str | None, Anchor] = field(default_factory=dict)
    agent_task: dict[str, str] = field(default_factory=dict)
    problems: list[LineProblem] = field(default_factory=list)
    records: int = 0


def read_session(files: Sequence[str]) -> ReadResult:
    """The calls of one session: its main file first, then its sub-agents' files."""
    session = _Session()
    for path in files:
        try:
            _read_file(path, session)
        except OSError as e:
            session.problems.append(LineProblem(path, 0, f"cannot read: {e.strerror or e}"))
    return ReadResult(calls=_assemble(session), problems=session.problems, records=session.records)


def _damaged(raw: bytes) -> bool:
    """A cheap test (no copy of the line) for a cut or garbled line, for lines that are not decoded."""
    return not (raw.startswith(b"{") and raw.endswith((b"}\n", b"}", b"}\r\n")))


def _read_file(path: str, session: _Session) -> None:
    first_seen = False
    file_agent: str | None = None
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            if len(raw) < 3 and not raw.strip():
                continue
            session.records += 1
            needs_decoding = not first_seen and _CWD in raw
            if _TOOL not in raw and _WORKTREE_STATE not in raw and not needs_decoding:
                if _damaged(raw) and raw.strip():
                    session.problems.append(LineProblem(path, number, "not a complete JSON record (truncated?): skipped"))
                continue
            if not needs_decoding and _CALL not in raw and _RESULT in raw and _ERROR not in raw and _AGENT_ID not in raw:
                if _damaged(raw):
                    session.problems.append(LineProblem(path, number, "not a complete JSON record (truncated?): skipped"))
                    continue
                for match in _RESULT_ID.finditer(raw):
                    session.results.setdefault(match.group(1).decode("utf-8", "replace"), (False, ""))
                continue
            record = decode_record(raw, path, number, session.problems)
            if record is None:
                continue
            if not first_seen and isinstance(record.get("cwd"), str):
                first_seen = True
                file_agent = record.get("agentId") if isinstance(record.get("agentId"), str) else None
                session.anchors.setdefault(file_agent, Anchor(cwd=record["cwd"]))
            if record.get("type") == "worktree-state":
                _switch_worktree(session, file_agent, _worktree_state(record, path, number))
                continue
            _read_record(record, path, number, session)


def _worktree_state(record: dict[str, Any], path: str, number: int) -> WorktreeState | None:
    state = record.get("worktreeSession")
    if not isinstance(state, dict) or not isinstance(state.get("worktreePath"), str):
        return None
    original = state.get("originalCwd")
    return WorktreeState(state["worktreePath"], original if isinstance(original, str) else None, path, number)


def _switch_worktree(session: _Session, agent: str | None, state: WorktreeState | None) -> None:
    """A `worktree-state` record: from here on the agent works in that worktree (or, when null, back where it began)."""
    current = session.anchors.get(agent)
    if state is not None:
        session.anchors[agent] = Anchor(cwd=state.worktree_path, worktree_state=state)
    elif current is not None and current.worktree_state is not None and current.worktree_state.original_cwd:
        session.anchors[agent] = Anchor(cwd=current.worktree_state.original_cwd)


def _blocks(message: Any) -> list[dict[str, Any]]:
    content = message.get("content") if isinstance(message, dict) else None
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def _read_record(record: dict[str, Any], path: str, number: int, session: _Session) -> None:
    kind = record.get("type")
    session_id = record.get("sessionId")
    if kind == "progress":
        data = record.get("data")
        if not isinstance(data, dict) or data.get("type") != "agent_progress":
            return
        inner = data.get("message")
        agent = data.get("agentId") if isinstance(data.get("agentId"), str) else None
        parent = record.get("parentToolUseID")
        if agent and isinstance(parent, str):
            session.agent_task.setdefault(agent, parent)
        if isinstance(inner, dict):
            _read_message(inner.get("type"), inner.get("message"), record.get("cwd"), path, number, agent, session_id, True, parent, session)
        return
    agent = record.get("agentId") if isinstance(record.get("agentId"), str) else None
    if kind == "user":
        result = record.get("toolUseResult")
        if isinstance(result, dict) and isinstance(result.get("agentId"), str):
            for block in _blocks(record.get("message")):
                if block.get("type") == "tool_result" and isinstance(block.get("tool_use_id"), str):
                    session.agent_task.setdefault(result["agentId"], block["tool_use_id"])
    _read_message(kind, record.get("message"), record.get("cwd"), path, number, agent, session_id, False, None, session)


def _read_message(
    kind: Any,
    message: Any,
    cwd: Any,
    path: str,
    number: int,
    agent: str | None,
    session_id: Any,
    from_progress: bool,
    parent: Any,
    session: _Session,
) -> None:
    for block in _blocks(message):
        btype = block.get("type")
        if btype == "tool_use" and kind == "assistant":
            if not from_progress and agent not in session.anchors and isinstance(cwd, str):
                session.anchors[agent] = Anchor(cwd=cwd)  # a sidechain inlined in its parent's file (older builds)
            use = _Use(
                block=block,
                cwd=cwd if isinstance(cwd, str) else None,
                file=path,
                line=number,
                agent_id=agent,
                session_id=session_id if isinstance(session_id, str) else None,
                from_progress=from_progress,
                parent_tool_use_id=parent if isinstance(parent, str) else None,
                anchor=None if from_progress else session.anchors.get(agent),
            )
            tool_id = block.get("id")
            if not isinstance(tool_id, str):
                session.unnamed.append(use)
                continue
            known = session.uses.get(tool_id)
            if known is None or (known.from_progress and not from_progress):
                session.uses[tool_id] = use
        elif btype == "tool_result" and isinstance(block.get("tool_use_id"), str):
            is_error = block.get("is_error") is True
            text = result_text(block.get("content"))[:1000] if is_error else ""
            known_result = session.results.get(block["tool_use_id"])
            if known_result is None or (is_error and not known_result[0]):
                session.results[block["tool_use_id"]] = (is_error, text)


def _assemble(session: _Session) -> list[RecordedCall]:
    task_types = {
        tool_id: use.block.get("input", {}).get("subagent_type")
        for tool_id, use in session.uses.items()
        if isinstance(use.block.get("input"), dict)
    }
    prompts = {
        tool_id: use.block["input"]["prompt"]
        for tool_id, use in session.uses.items()
        if isinstance(use.block.get("input"), dict) and isinstance(use.block["input"].get("prompt"), str)
    }
    wave_session = any(_declares_ownership(prompt) for prompt in prompts.values() if _FENCE_OWNS in prompt)
    calls = []
    for tool_id, use in [*session.uses.items(), *((None, u) for u in session.unnamed)]:
        name = use.block.get("name")
        tool_input = use.block.get("input")
        if not isinstance(name, str) or not isinstance(tool_input, dict):
            continue
        anchor, cwd = _anchor_of(use, session)
        if anchor is None or cwd is None:
            session.problems.append(LineProblem(use.file, use.line, f"{name} call {tool_id or ''} has no recorded cwd: not judged"))
            continue
        agent_type = None
        dispatch_prompt = None
        if use.agent_id:
            task = session.agent_task.get(use.agent_id) or use.parent_tool_use_id
            value = task_types.get(task) if task else None
            agent_type = value if isinstance(value, str) else None
            dispatch_prompt = prompts.get(task) if task else None
        result = session.results.get(tool_id) if tool_id else None
        outcome, detail = outcome_of(None if result is None else result[0], result[1] if result else "")
        payload = {
            "hook_event_name": "PreToolUse",
            "session_id": use.session_id,
            "cwd": cwd,
            "tool_name": name,
            "tool_input": tool_input,
            "tool_use_id": tool_id,
        }
        if use.agent_id:
            payload["agent_id"] = use.agent_id
        if agent_type:
            payload["agent_type"] = agent_type
        calls.append(
            RecordedCall(
                runtime=RUNTIME,
                payload=payload,
                cwd=cwd,
                anchor=anchor,
                file=use.file,
                line=use.line,
                session_id=use.session_id,
                agent_id=use.agent_id,
                agent_type=agent_type,
                tool_use_id=tool_id,
                outcome=outcome,
                outcome_detail=detail,
                dispatch_prompt=dispatch_prompt,
                wave_session=wave_session,
            )
        )
    calls.sort(key=lambda c: (c.file, c.line))
    return calls


def _declares_ownership(prompt: str) -> bool:
    from ..subagents.ownership import OwnershipError, from_prompt

    try:
        return from_prompt(prompt) is not None
    except OwnershipError:
        return False


def _anchor_of(use: _Use, session: _Session) -> tuple[Anchor | None, str | None]:
    """Where this call's agent started, and its cwd at the call."""
    if not use.from_progress:
        anchor = use.anchor or (Anchor(cwd=use.cwd) if use.cwd else None)
        return anchor, use.cwd
    # Known only from the parent's progress records: the sub-agent's own transcript is missing.
    if use.agent_id in session.anchors:
        anchor = session.anchors[use.agent_id]
        return anchor, anchor.cwd
    parent = session.anchors.get(None)
    task = session.uses.get(use.parent_tool_use_id or session.agent_task.get(use.agent_id or "", ""))
    isolation = task.block.get("input", {}).get("isolation") if task is not None else None
    if isinstance(isolation, str) and isolation.strip().lower() in ISOLATION_WORKTREE and use.agent_id:
        base = parent.cwd if parent is not None else use.cwd
        if base is None:
            return None, None
        why = f"sub-agent {use.agent_id} dispatched with isolation: worktree; its own transcript is missing"
        return Anchor(cwd=base, inferred_from=why, worktree_agent=use.agent_id), base
    why = f"sub-agent {use.agent_id} shares its parent's checkout; its own transcript is missing"
    base_anchor = parent or (Anchor(cwd=use.cwd) if use.cwd else None)
    if base_anchor is None:
        return None, None
    return Anchor(cwd=base_anchor.cwd, worktree_state=base_anchor.worktree_state, inferred_from=why), use.cwd
