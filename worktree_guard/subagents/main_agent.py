"""A main agent the runtime started in a linked worktree stays isolated when its cwd leaves it (SPEC §4), a plugin.

A session's main agent has no agent id and so no SubagentStart: `claude --worktree` and `cd W && claude` put its
cwd in a linked worktree W, where it is isolated; Claude Code's `cwd` follows `cd`, and `cd /tmp/t` is allowed
(the temp dir is in the default allow-list), so its next calls came from a directory in no checkout, judged as
those of an agent that is not isolated. So the session's first judged main-agent call records, once, what the
runtime chose (`places.main_started_path`): W when that call is isolated in a linked worktree of git's, "free"
anywhere else. A session recorded in W is judged with W wherever its cwd is outside W, or in a checkout nested in
it — the main checkout and sibling worktrees included: a link an opaque command extracts and a `cd` in the same
Bash call put the cwd there without a `cd` the guard could refuse. A session recorded free never gets W later: an
agent that `cd`s into a sibling worktree is isolated there by its cwd alone, and free again outside it.

Only the runtime's word releases W, and only ExitWorktree's: a judged ExitWorktree (Claude Code's tool) asked
for from inside W marks the record "moving", and the session's next main-agent call consumes the mark — its cwd
in the repository's main worktree, or in the directory the session was launched in (CLAUDE_PROJECT_DIR, recorded
at the first call: where ExitWorktree puts it), frees the session from then on; anywhere else the
runtime refused the exit, and W stays. An ExitWorktree asked for from anywhere else marks nothing (an agent that
reached the main checkout by the link trick cannot ask its way free). EnterWorktree is refused to a session
recorded in W (WG505): the runtime would move it to another worktree (by `name`, an existing one is resumed: a
sibling agent's), and a later ExitWorktree from there would return it to the main checkout. A session recorded
free is not recorded by EnterWorktree (a known gap, docs/dispatch-and-leaks.md): its worktree isolates it by its
cwd alone. (Independent reviews found the holes of two earlier designs: a cwd in another checkout freed the session, and moving W with both tools handed a sibling's worktree over.)

Without a session id there is no record: sessions could not be told apart. Only the hook writes the record
(`worktree_guard_call_judged`): `validate`, `check` and `explain` read it at most, and the daemon declines the
call that would write it (effects.py).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ..hookspecs import hookimpl

if TYPE_CHECKING:
    from ..engine import Context
    from ..layout import Layout
    from ..model import ToolCall, Violation

SOURCE = "recorded at the main agent's first call, in that worktree (its cwd is outside it, or in a checkout inside it)"
#: Claude Code's tools with which the runtime moves the session's cwd into a worktree and back out of it.
ENTER_TOOL, EXIT_TOOL = "EnterWorktree", "ExitWorktree"


def main_call(call: Any) -> bool:
    """A main agent's call in a session the runtime names (sub-agents have their own record)."""
    return not call.agent_id and bool(call.session_id)


def runtime_tool(call: ToolCall, name: str) -> bool:
    return call.tool == name and call.runtime == "claude-code"


@hookimpl
def worktree_guard_started_layout(call: ToolCall) -> Layout | None:
    """The session's recorded W, for a main-agent call whose cwd is outside it (None: placed from its cwd as
    usual). A record that makes no sense is a LayoutUnknown (WG000) wherever the cwd is; one that cannot be read
    is one only where the cwd is in no checkout, where a record matters most (in one, the cwd places the agent)."""
    if not main_call(call):
        return None
    from ..layout import LayoutUnknown
    from .leak_check import placed_as_started
    from .places import main_started_path, read_main_started

    try:
        found = read_main_started(main_started_path(call.session_id))
    except ValueError as e:
        raise LayoutUnknown(f"this session's main agent has a worktree record, but {e}, so its call in {call.cwd} cannot be placed") from None
    except OSError as e:
        if in_a_checkout(call.cwd):
            return None
        raise LayoutUnknown(f"this session's worktree record cannot be read ({e}), so the main agent's call in {call.cwd}, in no checkout, cannot be placed") from None
    if found is None or found["worktree_root"] is None:
        return None
    if found["moving"] and returned(found, call.cwd):
        return None  # ExitWorktree put it there: placed from its cwd, free (`worktree_guard_call_judged` records it)
    return placed_as_started(found, call.cwd, SOURCE)


def in_a_checkout(cwd: str) -> bool:
    from ..layout import find_layout

    return find_layout(os.path.realpath(cwd)).worktree_root is not None


def in_main_worktree(found: dict[str, Any], cwd: str) -> bool:
    """Is the canonical `cwd` in the recorded repository's main worktree, and in no checkout nested in it (a
    `claude --worktree` W lies inside it, under `.claude/worktrees/`)?"""
    from ..layout import main_worktree_of
    from ..paths import inside
    from .leak_check import checkout_between

    main = main_worktree_of(found["common_dir"], strict=True) if found["common_dir"] else None
    cwd = os.path.realpath(cwd)
    return bool(main) and inside(cwd, main) and not checkout_between(main, cwd)


def launch_dir() -> str | None:
    """Where Claude Code started the session (CLAUDE_PROJECT_DIR, canonical): the hook's environment, which the
    runtime sets and the agent cannot; ExitWorktree returns there. None when it is not set or not absolute."""
    found = os.environ.get("CLAUDE_PROJECT_DIR")
    return os.path.realpath(found) if found and os.path.isabs(found) else None


def returned(found: dict[str, Any], cwd: str) -> bool:
    """After an ExitWorktree from W: is the canonical `cwd` where the runtime returns the session — the repository's
    main worktree, or the directory the session was launched in (a linked worktree, a bare repository's), and in no
    checkout nested in it nor in W?"""
    from ..paths import inside
    from .leak_check import checkout_between

    if in_main_worktree(found, cwd):
        return True
    launch, here = found.get("launch"), os.path.realpath(cwd)
    return bool(launch) and launch != found["worktree_root"] and inside(here, launch) and not checkout_between(launch, here) and not inside(here, found["worktree_root"])


def in_w(found: dict[str, Any], cwd: str) -> bool:
    """Is the canonical `cwd` in the recorded W, and in no checkout nested in it?"""
    from ..paths import inside
    from .leak_check import checkout_between

    cwd = os.path.realpath(cwd)
    return inside(cwd, found["worktree_root"]) and not checkout_between(found["worktree_root"], cwd)


@hookimpl
def worktree_guard_check_call(call: ToolCall, ctx: Context) -> list[Violation] | None:
    """EnterWorktree is refused to a main agent whose session is recorded in W (WG505): it would move it to
    another worktree, whatever the name (an existing one is resumed). A record that cannot be read refuses too."""
    if not main_call(call) or not runtime_tool(call, ENTER_TOOL):
        return None
    from ..model import Violation
    from .places import main_started_path, read_main_started

    try:
        found = read_main_started(main_started_path(call.session_id))
    except (OSError, ValueError):
        found = {"worktree_root": ctx.worktree_root or "its worktree"}
    if found is None:  # the session's first call: refused when it is the one that records W
        found = next_record(call, ctx, None)  # a first call always gives a record
    if found["worktree_root"] is None:
        return None
    w = found["worktree_root"]
    return [Violation(code="WG505", rule="main-agent", tool=call.tool, worktree_root=w, message=(
        f"This session's agent is confined to its worktree {w}, where the session started: EnterWorktree would "
        f"move it to another worktree. Stay in {w}."))]


@hookimpl
def worktree_guard_confined_agent(call: ToolCall) -> bool | None:
    """A main agent the record places (or whose record cannot be read) is confined, whatever failed in its call."""
    if not main_call(call):
        return None
    try:
        return True if worktree_guard_started_layout(call) is not None else None
    except Exception:  # noqa: BLE001 — unreadable: fail closed
        return True


@hookimpl
def worktree_guard_call_judged(call: ToolCall, ctx: Context) -> None:
    """Write what this judged main-agent call changes in the session's record (`next_record`)."""
    if not main_call(call):
        return
    from .places import main_started_path, read_main_started

    try:
        changed = next_record(call, ctx, read_main_started(main_started_path(call.session_id)))
        if changed is not None:
            record(call.session_id, changed, ctx.layout)
    except Exception:  # noqa: BLE001
        # The call stands as judged: a record that cannot be read (a call in a checkout is judged without it) or
        # written (an unwritable state directory) leaves the session judged as if there were none, never WG000.
        # The daemon's refusal to write (StatefulCall, a BaseException) goes through: the hook process writes.
        pass


def next_record(call: ToolCall, ctx: Context, found: dict[str, Any] | None) -> dict[str, Any] | None:
    """The session's record after this call, None when it stays as it is: the first call records W (isolated in a
    linked worktree of git's) or free; an ExitWorktree from inside W marks W (no rule judges it: the engine passes
    a tool of kind "other", so the runtime alone says whether it moved); the next call consumes the mark (see the
    module's docstring)."""
    from .places import FREE

    first = found is None
    if found is None:  # the first call: what the runtime chose (a configured W applies wherever the agent is)
        layout = ctx.layout
        isolated_in_w = layout.linked and layout.worktree_root and layout.common_dir and ctx.isolation.isolated
        if not isolated_in_w or layout.source in (SOURCE, "configuration"):
            return {**FREE, "moving": False}
        found = {"worktree_root": layout.worktree_root, "common_dir": layout.common_dir, "shared_roots": list(layout.shared_roots), "moving": False, "launch": launch_dir()}
    if found["worktree_root"] is None:
        return None  # started free (recorded by its first call, above): free for the rest of the session
    if found["moving"]:  # the call after an ExitWorktree: where the runtime put the cwd, or did not
        if returned(found, call.cwd):
            return {**FREE, "moving": False}
        found, first = {**found, "moving": False}, True
    if runtime_tool(call, EXIT_TOOL) and in_w(found, call.cwd):
        return {**found, "moving": True}
    return found if first else None


def record(session_id: str, found: dict[str, Any], layout: Layout) -> None:
    """Write the session's record (none when the state directory lies in one of the call's checkouts: an agent
    that can write there could remove it, and its files would be dirty paths there)."""
    from ..paths import inside
    from .state import SubagentStore, state_root, sweep

    root = os.path.realpath(state_root())
    if any(inside(root, top) for top in (layout.worktree_root, *layout.shared_roots) if top):
        return
    store = SubagentStore(session_id)
    store.record_main(found)
    try:
        sweep(store.root)  # a session without sub-agents sweeps too (otherwise only their starts do)
    except OSError:
        pass  # an old session's directory it cannot remove (another user's) costs the record nothing
