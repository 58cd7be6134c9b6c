"""The plugin manager: built-in plugins and those of the `worktree_guard` entry-point group, registered alike."""

from __future__ import annotations

import importlib
from typing import Any

import pluggy

from . import hookspecs

# Built-in plugins, as (name, module) — the same pair an entry point gives. They are imported and
# registered exactly as `PluginManager.load_setuptools_entrypoints` registers a third-party plugin.
BUILTIN_PLUGINS: tuple[tuple[str, str], ...] = (
    ("files", "worktree_guard.rules.files"),
    ("bash", "worktree_guard.rules.bash"),
    ("cd", "worktree_guard.rules.cd"),
    ("git", "worktree_guard.rules.git"),
    ("writes", "worktree_guard.rules.writes"),
    ("indirection", "worktree_guard.rules.indirection"),
    ("interpreters", "worktree_guard.rules.interpreters"),
    ("apply-patch", "worktree_guard.runtimes.patch"),
    ("dispatch", "worktree_guard.rules.dispatch"),
    ("leaks", "worktree_guard.subagents.leak_check"),
    ("wave", "worktree_guard.subagents.wave"),
    ("claude-code", "worktree_guard.runtimes.claude_code"),
    ("codex", "worktree_guard.runtimes.codex"),
    ("gemini", "worktree_guard.runtimes.gemini"),
    ("copilot", "worktree_guard.runtimes.copilot"),
    ("cline", "worktree_guard.runtimes.cline"),
    ("cursor", "worktree_guard.runtimes.cursor"),
)


def plugin_manager(*, entry_points: bool = True) -> pluggy.PluginManager:
    """A plugin manager with every built-in plugin and, unless disabled, every installed third-party one."""
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for name, module in BUILTIN_PLUGINS:
        pm.register(importlib.import_module(module), name=name)
    if entry_points:
        pm.load_setuptools_entrypoints(hookspecs.PROJECT)
    return pm


def merged_table(ctx: Any, hook: str) -> dict[str, Any]:
    """A data table that plugins extend (`hook` returns rows): every plugin's rows, later registrations winning,
    built once per call and kept in `ctx.extra` under the hook's name."""
    table = ctx.extra.get(hook)
    if table is None:
        table = {}
        for rows in reversed(getattr(ctx.pm.hook, hook)()):
            table.update(rows or {})
        ctx.extra[hook] = table
    return table
