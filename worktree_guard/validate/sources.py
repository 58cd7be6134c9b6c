"""Which files to read and how they belong together: transcripts grouped by session, logs one by one.

A session's calls are spread over its main file, its sub-agents' files (`<session>/subagents/agent-<id>.jsonl`,
older builds' `agent-<id>.jsonl` beside the session file) and copies inside the parent's `progress` records,
so one session's files are read together (that is one unit of work for `--jobs`).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from typing import Literal

from .calls import LineProblem
from .codex_sessions import is_codex_session

Kind = Literal["transcript", "hook-log", "audit-log", "codex-session"]

EXTENSIONS = (".jsonl", ".ndjson")
_SNIFF_LINES = 50
_SNIFF_BYTES = 4 * 1024 * 1024
_SESSION_ID = re.compile(rb'"sessionId"\s*:\s*"([^"\\]*)"')
_TRANSCRIPT_TYPES = {
    "user", "assistant", "system", "progress", "attachment", "summary", "file-history-snapshot",
    "queue-operation", "worktree-state", "custom-title", "ai-title", "last-prompt", "task-summary", "tag",
    "agent-name", "agent-color", "agent-setting", "pr-link", "mode", "attribution-snapshot",
    "content-replacement", "permission-mode",
}


@dataclass(slots=True, frozen=True)
class Unit:
    """Files read together: one session's transcripts (main file first), or one log file."""

    kind: Kind
    files: tuple[str, ...]
    size: int
    label: str


class UsageError(Exception):
    """A path given on the command line that cannot be read at all (exit 2)."""


def list_files(paths: list[str]) -> list[str]:
    """Every file named, and every `*.jsonl`/`*.ndjson` below every directory named (sorted, no duplicates)."""
    found: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                dirs[:] = [d for d in dirs if d != "tool-results"]  # spilled tool outputs, never records
                found += [os.path.join(root, f) for f in sorted(files) if f.endswith(EXTENSIONS)]
        elif os.path.isfile(path):
            found.append(path)
        else:
            raise UsageError(f"{path}: no such file or directory")
    unique: dict[str, None] = {}
    for f in found:
        unique.setdefault(os.path.abspath(f), None)
    return list(unique)


def sniff(path: str) -> tuple[Kind | None, str | None]:
    """The kind of a JSONL file and, for a transcript, its session id — from its first records."""
    kind: Kind | None = None
    session: str | None = None
    read = 0
    with open(path, "rb") as f:
        for count, raw in enumerate(f):
            read += len(raw)
            if count >= _SNIFF_LINES or read > _SNIFF_BYTES:
                break
            if session is None:
                match = _SESSION_ID.search(raw)
                if match:
                    session = match.group(1).decode("utf-8", "replace")
            if kind is None:
                kind = _kind_of_line(raw)
            if kind is not None and (kind != "transcript" or session is not None):
                break
    return kind, session


def _kind_of_line(raw: bytes) -> Kind | None:
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(record, dict):
        return None
    if "decision" in record and "isolated" in record and "tool" in record:
        return "audit-log"
    if is_codex_session(record):
        return "codex-session"
    if "tool_name" in record or "hook_event_name" in record or ("event" in record and "session_id" in record):
        return "hook-log"
    if record.get("type") in _TRANSCRIPT_TYPES or "sessionId" in record:
        return "transcript"
    return None


def project_dir(path: str) -> str:
    """The directory that holds a session's main file: `<dir>` for `<dir>/<session>/subagents/…/agent-x.jsonl`."""
    parts = path.split(os.sep)
    if "subagents" in parts:
        index = len(parts) - 1 - parts[::-1].index("subagents")
        return os.sep.join(parts[: max(index - 1, 1)])
    return os.path.dirname(path)


def is_subagent_file(path: str) -> bool:
    return os.path.basename(path).startswith("agent-")


def units_of(paths: list[str]) -> tuple[list[Unit], list[LineProblem]]:
    """Group the files under `paths` into units of work; unreadable or unrecognised files become problems."""
    problems: list[LineProblem] = []
    sessions: dict[tuple[str, str], list[str]] = {}
    units: list[Unit] = []
    for path in list_files(paths):
        try:
            kind, session = sniff(path)
            size = os.path.getsize(path)
        except OSError as e:
            problems.append(LineProblem(path, 0, f"cannot read: {e.strerror or e}"))
            continue
        if kind is None:
            if size:
                problems.append(LineProblem(path, 0, "not a Claude Code transcript, Codex session, hook-input log or audit log: skipped"))
            continue
        if kind == "transcript":
            sessions.setdefault((project_dir(path), session or path), []).append(path)
        else:
            units.append(Unit(kind, (path,), size, os.path.basename(path)))
    for (_, session), files in sessions.items():
        files.sort(key=lambda f: (is_subagent_file(f), f))
        size = sum(os.path.getsize(f) for f in files)
        units.append(Unit("transcript", tuple(files), size, session))
    units.sort(key=lambda u: u.files[0])
    return units, problems
