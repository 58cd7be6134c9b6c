"""Where the sub-agent state lives on disk: the §5.4 snapshots' directory and each repository's wave registry.

Standard library only and nothing heavy at import: the wave plugin asks here, on every sub-agent call, whether a
registry can exist for the call's repository before it loads the wave machinery (`subagents.wave`).
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


def may_have_registry(common_dir: str) -> bool:
    """False when no wave was ever recorded for this repository (no waves directory at all, or none for it):
    then no sub-agent of it can be linked to a dispatch. Read without hashing when no wave ever ran here."""
    root = waves_root()
    return os.path.isdir(root) and os.path.exists(os.path.join(registry_dir(common_dir, root), "workers.json"))
