"""Where the sub-agent state lives on disk: the §5.4 snapshots' directory and each repository's wave registry.

Standard library only and nothing heavy at import: the wave plugin asks here, on every sub-agent call, whether any
dispatch of the call's repository declared an ownership before it loads the wave machinery (`subagents.wave`).
"""

from __future__ import annotations

import os
from typing import Any


def state_root(environ: dict[str, str] | None = None) -> str:
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_STATE_HOME") or ""
    if not os.path.isabs(base):  # the XDG spec: a relative value is ignored (it would be read from the agent's cwd)
        from ..paths import absolute_home

        base = os.path.join(absolute_home(environ), ".local", "state")
    return os.path.join(base, "worktree-guard", "subagents")


_SAFE_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")


def safe_name(text: str | None) -> str:
    """A file name for a session or agent id: itself when plain, else a hash (ids come from the payload)."""
    text = text or "no-session"
    if len(text) <= 100 and text[0] not in ".-" and set(text) <= _SAFE_NAME_CHARS:
        return text
    from ..digest import sha256  # not hashlib (OpenSSL, ≈ 3 ms)

    return "h-" + sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def started_path(session_id: str | None, agent_id: str, root: str | None = None) -> str:
    """The file that says a sub-agent started isolated, and where: its W, repository and shared checkouts. Small,
    read on every sub-agent call, kept after its stop (a stop another hook blocks lets it go on) until the sweep."""
    return os.path.join(root or state_root(), safe_name(session_id), safe_name(agent_id) + ".started")


#: The main agent's record in its session's directory: no agent's (`safe_name` never starts a name with `@`).
MAIN_STARTED = "@main.started"
#: The main agent's record of a session the runtime started outside any linked worktree.
FREE: dict[str, Any] = {"worktree_root": None}


def main_started_path(session_id: str, root: str | None = None) -> str:
    """The file that says where the runtime started a session's main agent, written once, at its first judged
    call: in a linked worktree (the same record as a sub-agent's start, `started_path`), or free
    (`read_main_started`)."""
    return os.path.join(root or state_root(), safe_name(session_id), MAIN_STARTED)


def start_sessions(agent: Any) -> list[str | None]:
    """The sessions a sub-agent's start may be recorded under: its call's, and the agent's that dispatched it when
    the runtime names that one apart (Copilot: a sub-agent's calls carry its own id as `sessionId`, its start
    event the dispatcher's, which its calls name as `parentAgentId`)."""
    session, parent = agent.session_id, getattr(agent, "parent_id", None)
    return [session] if not parent or parent == session else [session, parent]


def started_layout(session_id: str | None, agent_id: str) -> dict[str, Any] | None:
    """What `started_path` recorded ({"worktree_root", "common_dir", "shared_roots"}), read with `json` alone;
    None when the sub-agent did not start isolated. A record that cannot be read or makes no sense is ValueError."""
    import json

    try:
        with open(started_path(session_id, agent_id), "rb") as f:
            data = json.loads(f.read(1 << 20))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise ValueError(f"its start record cannot be read ({e})") from None
    return started_record(data)


def started_record(data: Any) -> dict[str, Any]:
    """A start record's parsed JSON checked: ValueError when it makes no sense."""
    root, common, shared = (data.get(k) if isinstance(data, dict) else None for k in ("worktree_root", "common_dir", "shared_roots"))
    if not (isinstance(root, str) and os.path.isabs(root)) or not (common is None or isinstance(common, str)):
        raise ValueError("its start record names no worktree")
    if not (isinstance(shared, list) and all(isinstance(s, str) and os.path.isabs(s) for s in shared)):
        raise ValueError("its start record names no shared checkouts")
    return {"worktree_root": root, "common_dir": common, "shared_roots": shared}


def read_main_started(path: str) -> dict[str, Any] | None:
    """The main agent's record (`main_started_path`): None when there is none — also on ENOTDIR, a file where
    the state directory would be, under which nothing can have been written; {"worktree_root": None} when its
    session started free; else the `started_record` fields with "moving" (a judged ExitWorktree from W marked it: the
    runtime is about to move the cwd back) and "launch" (where the runtime started the session, if it said).
    ValueError when it makes no sense; OSError when it cannot be read otherwise (the caller decides)."""
    import json

    try:
        with open(path, "rb") as f:
            text = f.read(1 << 20)
    except (FileNotFoundError, NotADirectoryError):
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ValueError(f"its start record cannot be read ({e})") from None
    moving = data.get("moving", False) if isinstance(data, dict) else False
    if not isinstance(moving, bool):
        raise ValueError("its start record says neither yes nor no about a move")
    if isinstance(data, dict) and data.get("worktree_root", "") is None and set(data) <= {"worktree_root", "moving"}:
        return {**FREE, "moving": moving}
    launch = data.get("launch") if isinstance(data, dict) else None
    if not (launch is None or (isinstance(launch, str) and os.path.isabs(launch))):
        raise ValueError("its start record names no launch directory")
    return {**started_record(data), "moving": moving, "launch": launch}


def waves_root(environ: dict[str, str] | None = None) -> str:
    return os.path.join(os.path.dirname(state_root(environ)), "waves")


def registry_dir(common_dir: str, root: str | None = None) -> str:
    """The directory of the workers file of the repository whose common git dir is `common_dir`."""
    from ..digest import sha256  # not hashlib (OpenSSL, ≈ 3 ms): every sub-agent call once a dispatch was recorded

    key = sha256(os.path.realpath(common_dir).encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return os.path.join(root or waves_root(), key)


def keys_of(agent: Any) -> list[str]:
    """The wave index keys a sub-agent's call or event can be found by: itself, its session, its dispatcher."""
    keys = []
    for prefix, value in (("agent", getattr(agent, "agent_id", None)), ("session", getattr(agent, "session_id", None)), ("dispatcher", getattr(agent, "parent_id", None))):
        if isinstance(value, str) and value:
            keys.append(f"{prefix}:{value}")
    return keys


def may_have_workers(common_dir: str | None, keys: list[str]) -> bool:
    """False when nothing recorded could make this sub-agent a worker: the wave index (`subagents.index`) knows
    none of its `keys` — a worker's calls follow its `cd`, so its call's own repository is not enough — and no
    dispatch recorded for the call's repository declared an ownership (a dispatch without one makes no worker).
    Read with `json` alone, without the wave machinery; anything that cannot be read is left to that machinery
    (True), which fails closed on it."""
    import json

    root = waves_root()
    if not os.path.isdir(root):
        return False  # no wave was ever recorded for this user: no hashing, no file to read
    try:
        try:
            with open(os.path.join(root, "index.json"), "rb") as f:
                known = json.loads(f.read())["keys"]
            if any(key in known for key in keys):
                return True
        except FileNotFoundError:
            pass
        if not common_dir:
            return False
        with open(os.path.join(registry_dir(common_dir, root), "workers.json"), "rb") as f:
            dispatches = json.loads(f.read())["dispatches"]
        return any(dispatch["owns"] is not None for dispatch in dispatches.values())
    except FileNotFoundError:
        return False
    except Exception:  # noqa: BLE001 — unreadable, malformed, too deep (RecursionError): the full check decides
        return True
