"""plugins.PluginManager finds exactly the hook implementations pluggy's own PluginManager finds (it only skips
`inspect.getattr_static` for module attributes that cannot be one: a speed change, docs/performance.md)."""

from __future__ import annotations

import functools
import importlib
import types

import pluggy

from worktree_guard import hookspecs, plugins
from worktree_guard.hookspecs import hookimpl


def implementations(pm: pluggy.PluginManager) -> dict[str, list[tuple[str, object, bool, bool]]]:
    found = {}
    for name in dir(pm.hook):
        caller = getattr(pm.hook, name)
        if isinstance(caller, pluggy.HookCaller):
            found[name] = [(i.plugin_name, i.function, i.tryfirst, i.wrapper) for i in caller.get_hookimpls()]
    return found


def both(modules: list[tuple[str, types.ModuleType]]) -> tuple[dict, dict]:
    managers = []
    for cls in (pluggy.PluginManager, plugins.PluginManager):
        pm = cls(hookspecs.PROJECT)
        pm.add_hookspecs(hookspecs)
        for name, module in modules:
            pm.register(module, name=name)
        managers.append(implementations(pm))
    return managers[0], managers[1]


def test_every_built_in_plugin_has_the_same_implementations() -> None:
    modules = [(name, importlib.import_module(module)) for name, module in plugins.BUILTIN_PLUGINS]
    stock, ours = both(modules)
    assert ours == stock
    assert sum(len(v) for v in ours.values()) > 40


class _Holder:
    @hookimpl
    def worktree_guard_wrappers(self) -> dict:
        return {}


def test_a_third_party_module_with_unusual_attributes_has_the_same_implementations() -> None:
    module = types.ModuleType("third_party_plugin")

    @hookimpl(specname="worktree_guard_write_operands")
    def rows_under_another_name() -> dict:
        return {}

    @hookimpl(tryfirst=True)
    def worktree_guard_read_only_programs() -> dict:
        return {}

    def worktree_guard_surfaces() -> dict:  # no marker: not an implementation
        return {}

    module.rows_under_another_name = rows_under_another_name
    module.worktree_guard_read_only_programs = worktree_guard_read_only_programs
    module.worktree_guard_surfaces = worktree_guard_surfaces
    module.bound = _Holder().worktree_guard_wrappers  # a bound method kept at module level
    module.static = staticmethod(worktree_guard_read_only_programs)
    module.data = {"worktree_guard_impl": True}
    module.cls = _Holder
    marked_partial = functools.partial(worktree_guard_read_only_programs)
    marked_partial.worktree_guard_impl = {}  # type: ignore[attr-defined]
    module.worktree_guard_wrappers = marked_partial  # a callable pluggy does not bind
    module.builtin = len

    def worktree_guard_odd_marker() -> dict:  # a marker that is not pluggy's options: no implementation
        return {}

    worktree_guard_odd_marker.worktree_guard_impl = True  # type: ignore[attr-defined]
    module.worktree_guard_odd_marker = worktree_guard_odd_marker

    @hookimpl
    def stored_as_annotations() -> dict:  # under a name ModuleType itself defines: getattr_static finds the descriptor
        return {}

    module.__dict__["__annotations__"] = stored_as_annotations
    stock, ours = both([("third", module)])
    assert ours == stock
    # pluggy takes a marked routine under any name (an unknown name is a hook without a spec).
    assert {h for h, impls in ours.items() if impls} == {"worktree_guard_write_operands", "worktree_guard_read_only_programs", "bound", "static"}


class _ModuleWithProperty(types.ModuleType):
    """A module type whose class defines a descriptor: getattr_static finds the property, not the __dict__ entry."""

    @property
    def worktree_guard_read_only_programs(self) -> object:
        return None


def test_a_module_subclass_is_left_to_pluggy() -> None:
    module = _ModuleWithProperty("odd_module_plugin")

    @hookimpl
    def worktree_guard_read_only_programs() -> dict:
        return {}

    @hookimpl
    def worktree_guard_wrappers() -> dict:
        return {}

    module.__dict__["worktree_guard_read_only_programs"] = worktree_guard_read_only_programs  # shadowed by the property
    module.worktree_guard_wrappers = worktree_guard_wrappers
    stock, ours = both([("odd", module)])
    assert ours == stock
    assert {h for h, impls in ours.items() if impls} == {"worktree_guard_wrappers"}
