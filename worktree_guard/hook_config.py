"""Where a runtime keeps its hook configuration, and the entries the guard puts there (SPEC §9, `install`).

Each runtime adapter describes its own wiring with a `HookConfig` and hands it over through the
`worktree_guard_hook_config` hook, so a third-party adapter brings `install --runtime` support with it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from .fast_dataclass import fast_dataclass, field

if TYPE_CHECKING:
    from pathlib import Path  # at run time only where a path is made: pathlib costs a hook call ≈ 3 ms to load

Scope = Literal["project", "local", "user"]
# Which project file a runtime reads when it runs in a linked worktree: the worktree's own ("own"), or the
# main checkout's, which it reads only while the worktree has its own config directory too ("main_and_own").
LinkedWorktree = Literal["own", "main_and_own"]
# grouped: {"hooks": {Event: [{"matcher": …, "hooks": [handler]}]}} (Claude Code, Codex, Gemini CLI);
# flat: {"hooks": {event: [handler]}} (Copilot, Cursor); script: an executable file per event (Cline).
Layout = Literal["grouped", "flat", "script"]


@fast_dataclass(frozen=True)
class HookConfig:
    """One runtime's hook wiring.

    `files` maps each scope the runtime has to its file, given the project directory and the environment;
    `entries(command)` is what the guard adds under each event: a matcher group (grouped), a handler (flat),
    or the script's text (script). `new_file` holds, per scope, the keys a new file starts with; `next_step` is the one
    thing the user must still do for the hooks to run (trust), printed after install. `linked_worktree` says
    which project file the runtime reads in a linked worktree (`LinkedWorktree`): with "main_and_own", install
    and uninstall there act on the main checkout's file and on the worktree's own.
    """

    runtime: str
    layout: Layout
    files: dict[Scope, Callable[[Path, Mapping[str, str]], Path]]
    default_scope: Scope
    entries: Callable[[str], dict[str, Any]]
    new_file: dict[Scope, dict[str, Any]] = field(default_factory=dict)
    next_step: str | None = None
    linked_worktree: LinkedWorktree = "own"

    def path(self, scope: Scope, project: Path, environ: Mapping[str, str]) -> Path:
        if scope not in self.files:
            raise KeyError(scope)
        return self.files[scope](project, environ)


def home(environ: Mapping[str, str]) -> Path:
    from pathlib import Path

    return Path(environ.get("HOME") or os.path.expanduser("~"))


def user_dir(environ: Mapping[str, str], variable: str | None, default: str) -> Path:
    """A runtime's user directory: `$variable` when set, else `default` under HOME (e.g. `.codex`)."""
    from pathlib import Path

    value = environ.get(variable) if variable else None
    return Path(value).expanduser() if value else home(environ) / default
