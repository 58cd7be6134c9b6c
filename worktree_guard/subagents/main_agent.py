"""A main agent that worked in a linked worktree stays isolated when its cwd leaves it (SPEC §4), a plugin.

A session's main agent has no agent id and so no SubagentStart: `claude --worktree`, `cd W && claude`, the
EnterWorktree tool put its cwd in a linked worktree W, where it is isolated; Claude Code's `cwd` follows `cd`, and
`cd /tmp/t` is allowed (the temp dir is in the default allow-list), so its next calls came from a directory in no
checkout, judged as those of an agent that is not isolated. Its first call judged in W now leaves the record a
sub-agent's start leaves (`places.main_started_path`, keyed by the session), and a call whose cwd is outside W, or
in a checkout nested in it, is judged with W as recorded — unless the cwd is in another checkout of the
repository: ExitWorktree puts the agent back in the main one (Bash cannot: every `cd` there is refused while the
record applies), where it is judged as usual; a call there drops the record, one in a sibling worktree moves it.

Without a session id there is no record: sessions could not be told apart, and one session's W would confine
another's agent. Only the hook writes the record (`worktree_guard_call_judged`): `validate`, `check` and
`explain` read it at most, and the daemon declines the call that would write it (effects.py).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from ..hookspecs import hookimpl

if TYPE_CHECKING:
    from ..engine import Context
    from ..layout import Layout
    from ..model import ToolCall, Verdict

SOURCE = "recorded at the main agent's call in that worktree (its cwd is outside it, or in a checkout inside it)"


def main_call(call: Any) -> bool:
    """A main agent's call in a session the runtime names (sub-agents have their own record)."""
    return not call.agent_id and bool(call.session_id)


@hookimpl
def worktree_guard_started_layout(call: ToolCall) -> Layout | None:
    """The main agent's recorded W, for a call whose cwd left it for no other checkout of the repository; a record
    that cannot be read is a LayoutUnknown (WG000)."""
    if not main_call(call):
        return None
    from ..layout import LayoutUnknown
    from .leak_check import placed_as_started
    from .places import main_started_path, read_started

    try:
        found = read_started(main_started_path(call.session_id))
    except ValueError as e:
        raise LayoutUnknown(f"this session's agent worked in a linked worktree, but {e}, so its call in {call.cwd} cannot be placed") from None
    if found is None:
        return None
    return placed_as_started(found, call.cwd, SOURCE, others_free=True)


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
def worktree_guard_call_judged(call: ToolCall, ctx: Context, verdict: Verdict) -> None:
    """Keep the record where the main agent is: its W when the call was judged isolated in a linked worktree of
    git's (written when missing or naming another W), none when the call was in the recorded repository's main
    worktree (ExitWorktree: an agent free there stays free after a `cd /tmp/t`)."""
    if not main_call(call):
        return
    layout = ctx.layout
    if layout.source in (SOURCE, "configuration"):
        return  # placed by the record itself, or by a configured W (which applies wherever the agent is)
    from .places import main_started_path, read_started

    path = main_started_path(call.session_id)
    if layout.linked and layout.worktree_root and layout.common_dir and ctx.isolation.isolated:
        try:
            found = read_started(path)
        except ValueError:
            found = None  # rewritten: the agent is in W now
        if found is None or found["worktree_root"] != layout.worktree_root:
            record(call.session_id, layout)
    elif not layout.linked and layout.common_dir and os.path.lexists(path):
        try:
            found = read_started(path)
        except ValueError:
            return  # kept: a record that cannot be read refuses what it would place
        if found is not None and found["common_dir"] == layout.common_dir:
            from .state import SubagentStore

            SubagentStore(call.session_id).forget_main()


def record(session_id: str, layout: Layout) -> None:
    """Write the session's record of W (none when the state directory lies in one of its checkouts: an agent
    that can write there could remove it, and its files would be dirty paths there)."""
    from ..paths import inside
    from .state import SubagentStore, state_root, sweep

    root = os.path.realpath(state_root())
    if any(inside(root, top) for top in (layout.worktree_root, *layout.shared_roots) if top):
        return
    store = SubagentStore(session_id)
    sweep(store.root)  # a session without sub-agents sweeps too (otherwise only their starts do)
    store.record_main({"worktree_root": layout.worktree_root, "common_dir": layout.common_dir, "shared_roots": list(layout.shared_roots)})
