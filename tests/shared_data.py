"""Where the project's shared data (research notes, real command corpora) lives for tests.

`shared/` is not part of the repository: on a developer machine and in CI it sits beside the
checkout (`…/shared` next to `…/<checkout>`). `WORKTREE_GUARD_SHARED` overrides the search.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def shared_dir() -> Path | None:
    """The shared/ directory, or None when it cannot be found."""
    override = os.environ.get("WORKTREE_GUARD_SHARED")
    if override:
        path = Path(override)
        return path if path.is_dir() else None
    for ancestor in (REPO_ROOT, *REPO_ROOT.parents):
        candidate = ancestor / "shared"
        if (candidate / "realdata").is_dir():
            return candidate
    return None


def require_shared(*parts: str) -> Path:
    """A path under shared/; skips the test (with the reason) when shared/ or the path is absent."""
    base = shared_dir()
    if base is None:
        pytest.skip("shared/ data directory not found beside the checkout (set WORKTREE_GUARD_SHARED)")
    path = base.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is missing from the shared data")
    return path
