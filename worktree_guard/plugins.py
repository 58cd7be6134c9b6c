"""The plugin manager: built-in plugins and those of the `worktree_guard` entry-point group, registered alike.

Finding the entry points means reading every installed distribution's metadata (importlib.metadata): about as
long as the rest of a hook call judged in-process. So the list found is remembered in the user's private cache
directory (`entry-points.json`), keyed by the sys.path entries and their modification times: installing or
removing a distribution changes its site-packages directory, and the list is read afresh. The plugins
themselves are loaded and registered on every call, exactly as `PluginManager.load_setuptools_entrypoints`
loads them.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
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
    ("program-code", "worktree_guard.rules.program_code"),
    ("interpreters", "worktree_guard.rules.interpreters"),
    ("apply-patch", "worktree_guard.runtimes.patch"),
    ("dispatch", "worktree_guard.rules.dispatch"),
    ("leaks", "worktree_guard.subagents.leak_check"),
    ("main-agent", "worktree_guard.subagents.main_agent"),
    ("wave", "worktree_guard.subagents.wave"),
    ("claude-code", "worktree_guard.runtimes.claude_code"),
    ("codex", "worktree_guard.runtimes.codex"),
    ("gemini", "worktree_guard.runtimes.gemini"),
    ("copilot", "worktree_guard.runtimes.copilot"),
    ("cline", "worktree_guard.runtimes.cline"),
    ("cursor", "worktree_guard.runtimes.cursor"),
)

ENTRY_POINT_CACHE = "entry-points.json"
#: How many sys.path states the cache remembers: the daemon, `fast_hook.py` under -S (with set-aside `.pth`
#: lines), the console scripts (their own directory first on sys.path) each see another, and took turns
#: rewriting a one-entry cache — every call of each then read every distribution's metadata (≈ 30–60 ms).
ENTRY_POINT_RECORDS = 4


#: What pluggy takes for a hook implementation among a module's attributes (`pluggy._manager._static_hook_attr`):
#: a function, a bound method, a staticmethod or a classmethod; any other attribute is none, whatever its name.
_HOOKABLE = (types.FunctionType, types.MethodType, staticmethod, classmethod)


class PluginManager(pluggy.PluginManager):
    """pluggy's, finding a module plugin's hook implementations without `inspect.getattr_static` on every
    attribute the module holds (its imports and tables: ≈ 700 attributes, 3 ms of every hook call in-process).
    A module's attribute is read from its `__dict__`, as `getattr_static` reads it: a plain function without
    the `worktree_guard_impl` marker, or anything but a function, method, staticmethod or classmethod, is no
    implementation; a plain module's marked function gives its marker's options, as pluggy's own lookup does (≈ 0.5
    ms of each call's registration); the rest is left to pluggy. The same for every plugin, built-in or
    third-party (tests/test_plugin_discovery.py)."""

    def parse_hookimpl_opts(self, plugin: Any, name: str) -> Any:
        if isinstance(plugin, type(sys)):
            value = plugin.__dict__.get(name)
            if isinstance(value, types.FunctionType):
                opts = value.__dict__.get(self.project_name + "_impl")
                if opts is None and "__func__" not in value.__dict__:
                    return None
                if type(plugin) is type(sys) and not name.startswith("__") and isinstance(opts, dict):
                    return opts  # a plain module's plain name: getattr_static finds this very function
            elif not isinstance(value, _HOOKABLE):  # pluggy binds nothing else of a module
                return None
        return super().parse_hookimpl_opts(plugin, name)


def plugin_manager(*, entry_points: bool = True) -> pluggy.PluginManager:
    """A plugin manager with every built-in plugin and, unless disabled, every installed third-party one."""
    pm = PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    for name, module in BUILTIN_PLUGINS:
        pm.register(importlib.import_module(module), name=name)
    if entry_points:
        found = installed_entry_points()
        if found:
            from . import site_packages

            site_packages.flush()  # a plugin's package may be importable only through a set-aside `.pth` line
        for name, value in found:
            if pm.has_plugin(name) or pm.is_blocked(name):
                continue
            pm.register(_load(value), name=name)
    return pm


def _load(value: str) -> object:
    """What an entry point's `module:attr.attr` names (importlib.metadata.EntryPoint.load's rule)."""
    module_name, _, attrs = value.partition(":")
    obj: object = importlib.import_module(module_name.strip())
    for attr in filter(None, attrs.split("[")[0].strip().split(".")):
        obj = getattr(obj, attr)
    return obj


def sys_path_stamp(entries: list[str] | None = None) -> list[str]:
    """Every sys.path entry (or each of `entries`) with its modification time: a distribution installed or
    removed changes one."""
    stamp = []
    for entry in sys.path if entries is None else entries:
        try:
            stamp.append(f"{entry}\0{os.stat(entry or '.').st_mtime_ns}")
        except OSError:
            stamp.append(f"{entry}\0-")
    return stamp


def installed_entry_points() -> list[tuple[str, str]]:
    """(name, value) of every `worktree_guard` entry point, in importlib.metadata's order; from the cache when
    sys.path has not changed since it was written (one record for each of the last ENTRY_POINT_RECORDS states).

    In a `-S` hook process a few known `.pth` lines have not run yet (site_packages.DEFERRED_LINES, none of which
    adds to sys.path): the key also holds the files they came from."""
    import json

    from . import records
    from .private_dir import NotPrivate, cache_root, open_private_dir, read_file, write_atomically

    if not records.FAST_PATH:
        return scan_entry_points()
    from . import site_packages

    stamp = sys_path_stamp() + sys_path_stamp(site_packages.set_aside_files())
    try:
        dir_fd = open_private_dir(cache_root(os.environ))
    except NotPrivate:
        return scan_entry_points()
    try:
        try:
            cached = json.loads(read_file(dir_fd, ENTRY_POINT_CACHE) or b"null")
        except (OSError, ValueError, RecursionError):  # unreadable, not JSON, nested too deep: read afresh
            cached = None
        remembered = cached.get("records") if isinstance(cached, dict) else None
        remembered = [r for r in remembered if isinstance(r, dict)] if isinstance(remembered, list) else []
        for record in remembered:
            found = _entry_points_of(record, stamp)
            if found is not None:
                return found
        found = scan_entry_points()  # runs the set-aside lines first
        record = {"stamp": stamp, "entry_points": found}
        kept = [record, *(r for r in remembered if r.get("stamp") != stamp)][:ENTRY_POINT_RECORDS]
        try:
            write_atomically(dir_fd, ENTRY_POINT_CACHE, json.dumps({"records": kept}).encode())
        except OSError:
            pass
        return found
    finally:
        os.close(dir_fd)


def _entry_points_of(record: dict[str, Any], stamp: list[str]) -> list[tuple[str, str]] | None:
    """A cache record's entry points when it was written for `stamp`; None otherwise (a record of another shape
    included: read afresh)."""
    try:
        if record.get("stamp") != stamp:
            return None
        return [(str(name), str(value)) for name, value in record["entry_points"]]
    except (KeyError, TypeError, ValueError):
        return None


def scan_entry_points() -> list[tuple[str, str]]:
    """Every `worktree_guard` entry point of every installed distribution, as pluggy would find them."""
    import importlib.metadata

    from . import site_packages

    site_packages.flush()  # a `.pth` file set aside at start-up may add the directory of a distribution

    found = []
    for dist in list(importlib.metadata.distributions()):
        for ep in dist.entry_points:
            if ep.group == hookspecs.PROJECT:
                found.append((ep.name, ep.value))
    return found


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
