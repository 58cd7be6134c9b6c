"""Where the sub-agent state lives on disk: the §5.4 snapshots' directory and each repository's wave registry.

Standard library only and nothing heavy at import: the wave plugin asks here, on every sub-agent call, whether any
dispatch of the call's repository declared an ownership before it loads the wave machinery (`subagents.wave`).
"""

from __future__ import annotations

import os


def state_root(environ: dict[str, str] | None = None) -> str:
    environ = os.environ if environ is None else environ
    base = environ.get("XDG_STATE_HOME") or os.path.join(environ.get("HOME") or os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "worktree-guard", "subagents")


def waves_root(environ: dict[str, str] | None = None) -> str:
    return os.path.join(os.path.dirname(state_root(environ)), "waves")


def registry_dir(common_dir: str, root: str | None = None) -> str:
    """The directory of the workers file of the repository whose common git dir is `common_dir`."""
    import hashlib

    key = hashlib.sha256(os.path.realpath(common_dir).encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return os.path.join(root or waves_root(), key)


def may_have_workers(common_dir: str) -> bool:
    """False when no dispatch recorded for this repository declared an ownership: then `linking.worker_for`
    finds no worker whatever the sub-agent's links (a dispatch without an ownership makes no worker, and a
    session without one declared none). Read with `json` alone, without the wave machinery; a registry that
    cannot be read is left to that machinery, which fails closed on it."""
    import json

    root = waves_root()
    if not os.path.isdir(root):
        return False  # no wave was ever recorded for this user: no hashing, no file to read
    try:
        with open(os.path.join(registry_dir(common_dir, root), "workers.json"), "rb") as f:
            dispatches = json.loads(f.read())["dispatches"]
        return any(dispatch["owns"] is not None for dispatch in dispatches.values())
    except FileNotFoundError:
        return False
    except (OSError, ValueError, LookupError, TypeError, AttributeError):
        return True
