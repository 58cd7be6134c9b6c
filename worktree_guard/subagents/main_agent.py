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

Only the runtime's word moves or releases W: a judged EnterWorktree or ExitWorktree (Claude Code's tools) that
was not refused marks the record "moving", and the session's next main-agent call consumes the mark: its cwd in
the repository's main worktree (where ExitWorktree puts it) frees the session from then on; in a linked worktree
(EnterWorktree's, or the one ExitWorktree returns to) makes that one W; anywhere else the runtime refused the
move, and the record stays. A session recorded in W is marked only by a call whose cwd is in W or in no other
checkout of the repository: an agent already in the main checkout (the link trick) cannot mark its way free.
A session recorded free that enters a worktree with EnterWorktree is recorded in it the same way.

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
    from ..model import ToolCall, Verdict

SOURCE = "recorded at the main agent's first call, in that worktree (its cwd is outside it, or in a checkout inside it)"
#: The Claude Code tools with which the runtime moves the session's cwd into a worktree or back out of it.
MOVE_TOOLS = ("EnterWorktree", "ExitWorktree")


def main_call(call: Any) -> bool:
    """A main agent's call in a session the runtime names (sub-agents have their own record)."""
    return not call.agent_id and bool(call.session_id)


def move_call(call: ToolCall) -> bool:
    return call.tool in MOVE_TOOLS and call.runtime == "claude-code"


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
    if found["moving"] and moved_to(found, call.cwd) is not None:
        return None  # the runtime put it there: placed from its cwd (`worktree_guard_call_judged` records it)
    return placed_as_started(found, call.cwd, SOURCE)


def in_a_checkout(cwd: str) -> bool:
    from ..layout import find_layout

    return find_layout(os.path.realpath(cwd)).worktree_root is not None


def moved_to(found: dict[str, Any], cwd: str) -> str | None:
    """Where a move the runtime made put the canonical `cwd`: "main" in the recorded repository's main worktree
    (and in no checkout nested in it: a `claude --worktree` W lies inside it, under `.claude/worktrees/`),
    "linked" in another of its linked worktrees; None anywhere else (W itself included)."""
    from ..layout import linked_worktrees_of, main_worktree_of
    from ..paths import inside
    from .leak_check import checkout_between

    common = found["common_dir"]
    if not common:
        return None
    cwd = os.path.realpath(cwd)
    main = main_worktree_of(common, strict=True)
    if main and inside(cwd, main) and not checkout_between(main, cwd):
        return "main"
    for top in linked_worktrees_of(common, strict=True):
        if top != found["worktree_root"] and inside(cwd, top) and not checkout_between(top, cwd):
            return "linked"
    return None


def in_another_checkout(found: dict[str, Any], cwd: str) -> bool:
    """Is the canonical `cwd` in a checkout of the recorded repository other than W (a checkout nested in one
    included)? An agent there got there without the runtime (every `cd` there is refused while W holds)."""
    from ..layout import linked_worktrees_of, main_worktree_of
    from ..paths import inside

    common = found["common_dir"]
    if not common:
        return False
    cwd = os.path.realpath(cwd)
    tops = [main_worktree_of(common, strict=True), *linked_worktrees_of(common, strict=True)]
    return any(top and top != found["worktree_root"] and inside(cwd, top) for top in tops) and not inside(cwd, found["worktree_root"])


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
    """Write what this judged main-agent call changes in the session's record (`next_record`)."""
    if not main_call(call):
        return
    from .places import main_started_path, read_main_started

    try:
        refused = verdict.decision == "deny"
        changed = next_record(call, ctx, read_main_started(main_started_path(call.session_id)), refused)
        if changed is not None:
            record(call.session_id, changed, ctx.layout)
    except Exception:  # noqa: BLE001
        # The call stands as judged: a record that cannot be read (a call in a checkout is judged without it) or
        # written (an unwritable state directory) leaves the session judged as if there were none, never WG000.
        # The daemon's refusal to write (StatefulCall, a BaseException) goes through: the hook process writes.
        pass


def next_record(call: ToolCall, ctx: Context, found: dict[str, Any] | None, refused: bool = False) -> dict[str, Any] | None:
    """The session's record after this call, None when it stays as it is: the first call records W (isolated in a
    linked worktree of git's) or free; a move the runtime is asked for (not `refused`) marks the record; the next
    call consumes the mark (see the module's docstring)."""
    from .places import FREE

    layout = ctx.layout
    in_w = bool(layout.linked and layout.worktree_root and layout.common_dir and ctx.isolation.isolated) and layout.source not in (SOURCE, "configuration")
    here = {"worktree_root": layout.worktree_root, "common_dir": layout.common_dir, "shared_roots": list(layout.shared_roots), "moving": False}
    if found is None:  # the first call: what the runtime chose (a configured W applies wherever the agent is)
        found = here if in_w else {**FREE, "moving": False}
        first = True
    else:
        first = False
    if found["moving"]:  # the first call after a move the runtime was asked for
        if found["worktree_root"] is None:
            after = here if in_w else {**FREE, "moving": False}  # EnterWorktree from a free session
        else:
            where = moved_to(found, call.cwd)
            after = {**FREE, "moving": False} if where == "main" else here if where == "linked" and in_w else {**found, "moving": False}
        found, first = after, True
    if move_call(call) and not refused and not (found["worktree_root"] and in_another_checkout(found, call.cwd)):
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
    sweep(store.root)  # a session without sub-agents sweeps too (otherwise only their starts do)
    store.record_main(found)
