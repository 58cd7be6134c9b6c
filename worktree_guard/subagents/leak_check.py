"""The leak check around an isolated sub-agent (SPEC §5.4), a lifecycle plugin.

SubagentStart: record every shared checkout (HEAD, branch, dirty paths) and tell the sub-agent where it works.
SubagentStop: compare; a moved HEAD or switched branch is WG601, a new or further-changed dirty path WG602. The
first stop that finds a leak is blocked with a reason listing what leaked and how to move it into the
sub-agent's worktree; the next stop goes through (whatever `stop_hook_active` says, a stop is blocked at most
once) and the user is told what is still there. It catches leaks even when a PreToolUse hook did not fire.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

from ..hookspecs import hookimpl
from ..model import AgentEvent, EventVerdict, Violation

if TYPE_CHECKING:
    from ..engine import AgentScope
    from ..layout import Layout
    from .snapshots import Leak
    from .state import SubagentSnapshot, SubagentStore

# Every tool call loads this plugin; what only a sub-agent's start or stop needs is imported there.

RULE = "leaks"
MAX_LISTED = 25  # leaks named one by one in a reason; Claude Code caps hook output at 10,000 characters


@hookimpl
def worktree_guard_agent_event(event: AgentEvent, scope: AgentScope) -> EventVerdict | None:
    if event.event == "SubagentStart":
        return on_start(event, scope)
    if event.event == "SubagentStop":
        return on_stop(event, scope)
    return None


@hookimpl
def worktree_guard_recorded_layout(event: AgentEvent) -> Layout | None:
    """W and S as they were at the sub-agent's start, from its snapshot: a sub-agent that removed its own worktree
    (`git worktree remove --force W`) is still compared at its stop."""
    from .state import SubagentStore

    if event.event != "SubagentStop":
        return None
    saved = SubagentStore(event.session_id).load(event.agent_id)
    if saved is None:
        return None
    return recorded(saved)


@hookimpl
def worktree_guard_started_layout(call: Any) -> Layout | None:
    """A sub-agent that started isolated stays isolated: after `cd /tmp/t` (an allowed directory), or into a
    worktree of a clone it made there, its calls carry that cwd, where nothing else would place it in its own
    worktree. Placed as at its start, with W as recorded; a record that cannot be read is a LayoutUnknown (WG000)."""
    from ..layout import LayoutUnknown
    from .places import started_layout, start_sessions

    if not call.agent_id:
        return None
    try:
        found = next((r for r in (started_layout(s, call.agent_id) for s in start_sessions(call)) if r is not None), None)
    except ValueError as e:
        raise LayoutUnknown(f"this sub-agent started isolated, but {e}, so its call in {call.cwd} cannot be placed") from None
    if found is None:
        return None
    return placed_as_started(found, call.cwd, "recorded at the sub-agent's start (its cwd is outside that worktree, or in a checkout inside it)")


def placed_as_started(found: dict[str, Any], cwd: str, source: str) -> Layout | None:
    """The layout of a call by an agent recorded as isolated in `found["worktree_root"]` (`places.started_record`),
    None when its canonical cwd is in that W (`ln -s /tmp l && cd l` is not) and in no checkout nested in it: it is
    placed from there as usual."""
    from ..layout import Layout, linked_worktrees_of, main_worktree_of
    from ..paths import inside

    mine, cwd = found["worktree_root"], os.path.realpath(cwd)
    if inside(cwd, mine) and not checkout_between(mine, cwd):
        return None
    # Outside W, or in a checkout nested in it (a worktree of a clone it made, whose configuration it wrote). The
    # repository's worktrees are listed again: one added since the start (the next sub-agent's) is shared too.
    now: list[str] = []
    if found["common_dir"]:
        listed = [main_worktree_of(found["common_dir"], strict=True), *linked_worktrees_of(found["common_dir"], strict=True)]
        now = [r for r in listed if r and r != mine]
    shared = [r for r in found["shared_roots"] if r != mine]
    shared += [r for r in now if r not in shared]
    return Layout(worktree_root=mine, shared_roots=shared, linked=True, common_dir=found["common_dir"], source=source)


def checkout_between(top: str, cwd: str) -> bool:
    """Is there a `.git` entry in a directory below `top` that holds `cwd` (cwd included)?"""
    from ..paths import inside

    current = cwd
    while current != top and inside(current, top):
        if os.path.lexists(os.path.join(current, ".git")):
            return True
        current = os.path.dirname(current)
    return False


@hookimpl
def worktree_guard_confined_agent(call: Any) -> bool | None:
    """A sub-agent that started isolated (its start was recorded) is confined, whatever failed in its call."""
    from .places import started_path, start_sessions

    if not call.agent_id:
        return None
    return True if any(os.path.lexists(started_path(s, call.agent_id)) for s in start_sessions(call)) else None


def recorded(saved: SubagentSnapshot) -> Layout:
    """The layout a snapshot recorded."""
    from ..layout import Layout

    return Layout(
        worktree_root=saved.worktree_root,
        shared_roots=[c.root for c in saved.checkouts],
        linked=saved.worktree_root is not None,
        common_dir=saved.common_dir,
        source="recorded at the sub-agent's start",
    )


def checkouts_of(common_dir: str | None, fallback: list[str]) -> list[str]:
    """Every checkout of the repository now: its main worktree and its linked worktrees."""
    from ..layout import linked_worktrees_of, main_worktree_of

    if not common_dir:
        return fallback
    main = main_worktree_of(common_dir)
    return ([main] if main else []) + [t for t in linked_worktrees_of(common_dir) if t != main]


def own_worktree(event: AgentEvent, scope: AgentScope, checkouts: list[str]) -> str | None:
    """The sub-agent's worktree: where its cwd is, or the one Claude Code made for it (`agent-<agent_id>`)."""
    if scope.layout.linked:
        return scope.layout.worktree_root
    return next((top for top in checkouts if os.path.basename(top) == f"agent-{event.agent_id}"), None)


def on_start(event: AgentEvent, scope: AgentScope) -> EventVerdict | None:
    from ..engine import CallError
    from .snapshots import snapshot
    from ..paths import inside
    from .state import SubagentSnapshot, SubagentStore, state_root, sweep

    layout = scope.layout
    known = [r for r in [layout.worktree_root, *layout.shared_roots] if r]
    checkouts = checkouts_of(layout.common_dir, known)
    checkouts += [r for r in known if r not in checkouts]  # roots that configuration added
    root = os.path.realpath(state_root())
    holder = next((top for top in checkouts if inside(root, top)), None)
    if holder is not None:  # its files would be dirty paths of that checkout
        raise CallError(f"the state directory {root} lies inside the checkout {holder}; set XDG_STATE_HOME to a directory outside it")
    mine = own_worktree(event, scope, checkouts)
    isolated = scope.isolation.isolated or mine is not None
    store = SubagentStore(event.session_id)
    sweep(store.root)
    store.record_window(event.agent_id, event.agent_type, "start", isolated=isolated, worktree=mine)
    if not isolated:
        return None
    shared = [top for top in checkouts if top != mine]
    if mine is not None:
        store.record_start(event.agent_id, {"worktree_root": mine, "common_dir": layout.common_dir, "shared_roots": shared})
    store.save(
        SubagentSnapshot(
            session_id=event.session_id,
            agent_id=event.agent_id,
            agent_type=event.agent_type,
            started=time.time(),
            cwd=scope.cwd,
            worktree_root=mine,
            common_dir=layout.common_dir,
            checkouts=snapshot(shared, checkouts),
        )
    )
    if mine is None:
        return EventVerdict(context=f"worktree-guard: you were meant to work in your own git worktree, but your isolation was not applied: you run in {scope.cwd}. Stop and report this instead of changing files.")
    others = ", ".join(shared) or "none"
    return EventVerdict(
        context=(
            f"worktree-guard: you work in your own git worktree {mine}; write, commit and run git only there. "
            f"The other checkouts of this repository ({others}) belong to others: do not write, switch or commit in them. "
            "When you stop, they are compared with their state now."
        )
    )


def on_stop(event: AgentEvent, scope: AgentScope) -> EventVerdict | None:
    from .snapshots import find_leaks, snapshot
    from .state import SubagentStore

    store = SubagentStore(event.session_id)
    saved = store.load(event.agent_id)
    if saved is None:  # not isolated, or its start was not seen
        store.record_window(event.agent_id, event.agent_type, "stop")
        return None
    now = time.time()
    current = checkouts_of(saved.common_dir, [c.root for c in saved.checkouts])
    still_there = [c for c in saved.checkouts if c.error is None and os.path.isdir(c.root)]
    after = {s.root: s for s in snapshot([c.root for c in still_there], current, fingerprints=False)}
    leaks = [leak for before in still_there if after[before.root].error is None for leak in find_leaks(before, after[before.root])]
    unreadable = [c.root for c in saved.checkouts if c.error] + [s.root for s in after.values() if s.error]
    if not leaks:
        _finish(store, saved)
        note = f"worktree-guard could not read {', '.join(unreadable)} around sub-agent {saved.agent_id}; it was not checked." if unreadable else None
        return EventVerdict(user_message=note)
    others = store.overlapping(saved.agent_id, saved.started, now)
    violations = [_violation(leak, saved) for leak in leaks]
    who = f"sub-agent {saved.agent_type or 'agent'} ({saved.agent_id})"
    summary = f"worktree-guard: {who} left changes in shared checkouts: {_short_list(leaks)}{_others_note(others)} [worktree-guard {' '.join(sorted({l.code for l in leaks}))}]"
    if scope.settings.mode == "warn" or saved.blocks >= 1:
        _finish(store, saved)
        return EventVerdict(decision="warn", violations=violations, user_message=summary)
    saved.blocks += 1
    store.save(saved)
    return EventVerdict(decision="block", violations=violations, reason=block_reason(leaks, saved, others), user_message=summary)


def _finish(store: SubagentStore, saved: SubagentSnapshot) -> None:
    store.record_window(saved.agent_id, saved.agent_type, "stop")
    store.delete(saved.agent_id)


def _violation(leak: Leak, saved: SubagentSnapshot) -> Violation:
    target = os.path.join(leak.root, leak.path) if leak.path else leak.root
    suggestion = os.path.join(saved.worktree_root, leak.path) if leak.path and saved.worktree_root and leak.kind in ("new", "changed") else None
    return Violation(
        code=leak.code,
        rule=RULE,
        tool="SubagentStop",
        message=_sentence(leak),
        path=target,
        resolved=target,
        worktree_root=saved.worktree_root,
        shared_root=leak.root,
        suggestion=suggestion,
    )


def _sentence(leak: Leak) -> str:
    from .snapshots import describe_status

    where = os.path.join(leak.root, leak.path) if leak.path else leak.root
    if leak.kind == "branch":
        return f"{where} was on {leak.before} when you started and is now on {leak.after}."
    if leak.kind == "head":
        return f"{where}: HEAD moved from {str(leak.before)[:12]} to {str(leak.after)[:12]} (a commit, merge or reset ran there)."
    if leak.kind == "new":
        return f"{where} is {describe_status(leak.after or '')} and was not when you started."
    if leak.kind == "changed":
        return f"{where} had uncommitted changes before you started ({describe_status(leak.before or '')}) and changed again while you ran (now {describe_status(leak.after or '')})."
    return f"{where} had uncommitted changes when you started ({describe_status(leak.before or '')}); they are gone now."


def block_reason(leaks: list[Leak], saved: SubagentSnapshot, others: list[dict[str, Any]]) -> str:
    """What the sub-agent reads when its stop is blocked: what leaked, how to move it, who else was running."""
    mine = saved.worktree_root
    lines = [
        f"worktree-guard: while you ran, shared checkouts of this repository changed; you work in your own worktree {mine or '(none: your isolation was not applied)'}.",
    ]
    for leak in leaks[:MAX_LISTED]:
        lines.append(f"- {_sentence(leak)} [{leak.code}]")
    if len(leaks) > MAX_LISTED:
        lines.append(f"- … and {len(leaks) - MAX_LISTED} more.")
    files = [l for l in leaks if l.kind in ("new", "changed") and "D" not in (l.after or "")]
    if files and mine:
        first = files[0]
        lines.append(
            f"Move your work: copy each file you wrote there to the same path under {mine} "
            f"(e.g. cp {os.path.join(first.root, first.path or '')} {os.path.join(mine, first.path or '')}) and go on working there."
        )
    moved = [l for l in leaks if l.kind in ("branch", "head")]
    if moved and mine:
        head = next((l for l in moved if l.kind == "head"), None)
        hint = f" (git cherry-pick {str(head.before)[:12]}..{str(head.after)[:12]} in {mine})" if head else ""
        lines.append(f"If you committed or switched branches there, bring your commits into your own branch{hint}.")
    lines.append(
        "Do not delete, revert, switch or commit anything in the shared checkouts yourself (worktree-guard refuses it): "
        "name what is listed above in your final answer, so that the user can restore those checkouts."
    )
    lines.append(_others_sentence(others))
    lines.append(f"[worktree-guard {' '.join(sorted({l.code for l in leaks}))}]")
    return "\n".join(lines)


def _describe_agent(window: dict[str, Any]) -> str:
    where = f"isolated in {window['worktree']}" if window.get("worktree") else ("isolated" if window.get("isolated") else "not isolated")
    state = "still running" if window.get("stop") is None else "finished"
    return f"{window.get('agent_type') or 'agent'} {window['agent_id']} ({where}, {state})"


def _others_sentence(others: list[dict[str, Any]]) -> str:
    if not others:
        return "No other sub-agent of this session ran while you did; the changes are yours, the main agent's or the user's."
    names = "; ".join(_describe_agent(w) for w in others)
    return f"Other sub-agents ran while you did: {names}. A change you did not make may be theirs, the main agent's or the user's: say so instead of moving it."


def _others_note(others: list[dict[str, Any]]) -> str:
    if not others:
        return ""
    names = ", ".join(f"{w.get('agent_type') or 'agent'} {w['agent_id']}" for w in others)
    return f" (other sub-agents running then: {names})"


def _short_list(leaks: list[Leak]) -> str:
    parts = []
    for leak in leaks[:5]:
        if leak.kind == "branch":
            parts.append(f"{leak.root} switched from {leak.before} to {leak.after}")
        elif leak.kind == "head":
            parts.append(f"{leak.root} HEAD moved")
        else:
            parts.append(os.path.join(leak.root, leak.path or ""))
    more = f" and {len(leaks) - 5} more" if len(leaks) > 5 else ""
    return "; ".join(parts) + more
