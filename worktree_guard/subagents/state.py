"""Where the leak check keeps what it saw at a sub-agent's start until its stop (SPEC §5.4).

A private directory (0700) outside every checkout: `$XDG_STATE_HOME/worktree-guard/subagents`, by default
`~/.local/state/worktree-guard/subagents`. Under it, one directory per session holds one snapshot file per
running isolated sub-agent (`<agent_id>.json`, removed at its stop), its `<agent_id>.started` record (kept until
the sweep), the main agent's `@main.started` (whether the runtime started it in a linked worktree, and which) and
`windows.jsonl`, the start and stop times of every sub-agent of the session (to name the ones that ran at the same
time). Whatever a crashed session leaves behind is swept after STALE_AFTER, and at most MAX_SNAPSHOTS snapshots
are kept.
"""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any

from .. import effects
from ..records import Field, Record

from ..audit import append_line
from .places import MAIN_STARTED, safe_name, state_root
from .snapshots import CheckoutState

STALE_AFTER = 7 * 24 * 3600  # seconds; no sub-agent runs this long
MAX_SNAPSHOTS = 256
WINDOWS = "windows.jsonl"


class SubagentSnapshot(Record):
    """What the leak check recorded when an isolated sub-agent started."""

    version: int = 1
    session_id: str | None
    agent_id: str
    agent_type: str | None
    started: float = Field(description="seconds since the epoch")
    cwd: str
    worktree_root: str | None = Field(description="the sub-agent's own worktree W (None when its isolation was not applied)")
    common_dir: str | None = Field(description="the repository's common git dir, to list its checkouts at the stop")
    checkouts: list[CheckoutState] = Field(description="every shared checkout, as it was")
    blocks: int = Field(default=0, description="how often its stop was blocked already")


def _private_dir(path: str) -> str:
    """Make `path` a private directory for state about to be written (refused in the daemon: effects.py)."""
    effects.will_write(f"state under {path}")
    os.makedirs(path, mode=0o700, exist_ok=True)
    st = os.stat(path)
    if st.st_uid == os.getuid() and st.st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


class SubagentStore:
    """The snapshots and start/stop windows of one session's sub-agents."""

    def __init__(self, session_id: str | None, root: str | None = None) -> None:
        self.root = root or state_root()
        self.session_dir = os.path.join(self.root, safe_name(session_id))

    def _ensure(self) -> None:
        _private_dir(os.path.dirname(self.root))
        _private_dir(self.root)
        _private_dir(self.session_dir)

    def path_of(self, agent_id: str) -> str:
        return os.path.join(self.session_dir, safe_name(agent_id) + ".json")

    def _write(self, path: str, text: str) -> None:
        """Write atomically (a temp file renamed over the old one), readable by the owner only."""
        self._ensure()
        temp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"  # the Agent SDK's callbacks share one process
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temp, path)

    def save(self, snapshot: SubagentSnapshot) -> None:
        self._write(self.path_of(snapshot.agent_id), snapshot.model_dump_json())

    def load(self, agent_id: str) -> SubagentSnapshot | None:
        try:
            with open(self.path_of(agent_id), encoding="utf-8") as f:
                return SubagentSnapshot.model_validate_json(f.read())
        except FileNotFoundError:
            return None

    def record_start(self, agent_id: str, layout: dict[str, Any]) -> None:
        """The small `.started` record (places.started_path) that keeps the sub-agent isolated wherever its cwd goes."""
        self._write(os.path.join(self.session_dir, safe_name(agent_id) + ".started"), json.dumps(layout))

    def record_main(self, record: dict[str, Any]) -> None:
        """The main agent's record (places.main_started_path): where the runtime started it (places.read_main_started)."""
        self._write(os.path.join(self.session_dir, MAIN_STARTED), json.dumps(record))

    def delete(self, agent_id: str) -> None:
        effects.will_write(f"the snapshot of {agent_id}")
        try:
            os.unlink(self.path_of(agent_id))
        except FileNotFoundError:
            pass

    def record_window(self, agent_id: str, agent_type: str | None, event: str, **extra: Any) -> None:
        """One line in the session's window log: a sub-agent started or stopped, and when."""
        self._ensure()
        append_line(os.path.join(self.session_dir, WINDOWS), {"agent_id": agent_id, "agent_type": agent_type, "event": event, "time": time.time(), **extra})

    def overlapping(self, agent_id: str, since: float, until: float) -> list[dict[str, Any]]:
        """The other sub-agents of the session that ran at some time between `since` and `until`."""
        windows: dict[str, dict[str, Any]] = {}
        try:
            with open(os.path.join(self.session_dir, WINDOWS), encoding="utf-8") as f:
                lines = f.readlines()
        except FileNotFoundError:
            return []
        for line in lines:
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            other = entry.get("agent_id")
            if not isinstance(other, str) or other == agent_id:
                continue
            window = windows.setdefault(other, {"agent_id": other, "agent_type": entry.get("agent_type"), "start": None, "stop": None})
            if entry.get("event") == "start":
                window.update(start=entry.get("time"), isolated=entry.get("isolated"), worktree=entry.get("worktree"))
            elif entry.get("event") == "stop":
                window["stop"] = entry.get("time")
        return [
            w
            for w in windows.values()
            if (w["start"] is None or w["start"] <= until) and (w["stop"] is None or w["stop"] >= since)
        ]


def sweep(root: str | None = None, now: float | None = None) -> int:
    """Remove what crashed sessions left: files older than STALE_AFTER, empty session dirs, the oldest snapshots
    beyond MAX_SNAPSHOTS. Returns how many files were removed."""
    root = root or state_root()
    effects.will_write(f"a sweep of {root}")
    now = time.time() if now is None else now
    removed = 0
    snapshots: list[tuple[float, str]] = []
    # Housekeeping only: what cannot be listed or examined (a directory another user's run left) is left alone, and
    # never costs the caller the record it is about to write.
    try:
        sessions = [os.path.join(root, name) for name in os.listdir(root)]
    except OSError:
        return 0
    for session in sessions:
        try:
            session_mtime = os.stat(session).st_mtime  # before removing files updates it
            names = os.listdir(session)
        except OSError:
            continue
        for name in names:
            path = os.path.join(session, name)
            try:
                mtime = os.stat(path).st_mtime
            except OSError:
                continue
            if now - mtime > STALE_AFTER:
                removed += _unlink(path)
            elif name.endswith(".json"):
                snapshots.append((mtime, path))
        if now - session_mtime > 60:  # not one a starting sub-agent has just made
            try:
                os.rmdir(session)  # only when empty
            except OSError:
                pass
    snapshots.sort()
    for _, path in snapshots[: max(0, len(snapshots) - MAX_SNAPSHOTS)]:
        removed += _unlink(path)
    return removed


def _unlink(path: str) -> int:
    try:
        os.unlink(path)
        return 1
    except OSError:
        return 0
