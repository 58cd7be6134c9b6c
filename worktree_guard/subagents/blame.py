"""What a worker can be blamed for (SPEC §11, WG706), and `rollback`, which restores exactly that.

A path is blamed on a worker when it was clean at the worker's start (not dirty, not ignored), changed during
its window, is not scratch or the runtime's own, and is owned neither by the worker nor by any worker of its
wave (every worker of the same checkout whose window overlapped its own). A path that was dirty at the start
and changed again is only reported (`changed_again`): it may be the user's work, and it is never rolled back.

`rollback` restores each blamed path to its state at the worker's start: a tracked file to its content at the
start's HEAD, a file that did not exist then is removed. It leaves a blamed path alone when it changed again
since the blame was recorded (someone's later edit), and it touches nothing else.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from .snapshots import RUNTIME_OWNED, CheckoutState, find_leaks, fingerprint_of, git_lines, snapshot

if TYPE_CHECKING:
    from .linking import Worker
    from .registry import Registry


class BlamedPath(BaseModel):
    path: str = Field(description="relative to the checkout root")
    existed: bool = Field(description="tracked at the start (restored from start_head), or absent (removed)")
    fingerprint: str = Field(description="what the worker left (a later change is not rolled back)")


class Blame(BaseModel):
    """What one worker's stop found, kept for `rollback`."""

    agent_id: str
    agent_type: str | None = None
    root: str
    start_head: str | None
    owns: list[str]
    owns_source: str
    blamed: list[BlamedPath] = Field(default_factory=list)
    changed_again: list[str] = Field(default_factory=list)
    wave: list[str] = Field(default_factory=list, description="the other workers whose windows overlapped")


def blame_of(registry: Registry, agent_id: str, worker: Worker, scratch: list[str], now: float) -> Blame | None:
    """The blame of a worker from its start snapshot and the checkout now; None without a start snapshot."""
    from .ownership import Ownership
    from .registry import workers_of

    saved = registry.read("snapshots", agent_id)
    if saved is None:
        return None
    before = CheckoutState.model_validate_json(saved)
    (after,) = snapshot([worker.root], [worker.root], fingerprints=False, ignored=True)
    if after.error or before.error:
        raise RuntimeError(after.error or before.error)
    workers = registry.load()
    me = workers.agents.get(agent_id)
    since = me.started if me and me.started else now
    wave = [
        (v.name, Ownership.of(v.dispatch.owns or [], ""))
        for v in workers_of(workers, worker.root)
        if not v.dispatch.isolated and (v.agent is None or v.agent.agent_id != agent_id) and v.dispatch.dispatch_id != worker.dispatch_id
        and _overlaps(v.window(now), (since, now))
    ]
    blame = compute_blame(before, after, worker, [o for _, o in wave], Ownership.of(scratch, "scratch"))
    blame.wave = [name for name, _ in wave]
    return blame


def _overlaps(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def compute_blame(before: CheckoutState, after: CheckoutState, worker: Worker, wave: list[Any], scratch: Any) -> Blame:
    """The pure part: which changed paths the worker is blamed for, and which were dirty already."""
    blame = Blame(
        agent_id=worker.agent_id,
        agent_type=worker.agent_type,
        root=worker.root,
        start_head=before.head,
        owns=list(worker.ownership.patterns),
        owns_source=worker.ownership.source,
    )
    for leak in find_leaks(before, after):
        if leak.path is None:
            continue  # HEAD and branch: git is the orchestrator's (WG703 keeps workers out of it)
        path = leak.path.rstrip("/")
        if any(path == r.rstrip("/") or path.startswith(r) for r in RUNTIME_OWNED):
            continue
        tree = leak.path.endswith("/")
        test = (lambda o: o.covers_tree(path)) if tree else (lambda o: o.matches(path))
        if test(scratch) or test(worker.ownership) or any(test(o) for o in wave):
            continue
        if leak.path in before.dirty:
            blame.changed_again.append(leak.path)
            continue
        status = leak.after or ""
        existed = status not in ("??", "!!") and not status.startswith("A")  # in HEAD at the start: restore it
        blame.blamed.append(BlamedPath(path=leak.path, existed=existed, fingerprint=fingerprint_of(worker.root, leak.path)))
    return blame


def block_reason(blame: Blame, worker: Worker, others: list[str] | None = None) -> str:
    """What the worker reads when its stop is blocked (WG706); `others` names the workers of its wave."""
    lines = [f"worktree-guard: while you ran, files of {worker.root} outside your ownership changed, and no other worker of this wave owns them:"]
    for item in blame.blamed[:25]:
        lines.append(f"- {os.path.join(worker.root, item.path)} [WG706]")
    if len(blame.blamed) > 25:
        lines.append(f"- … and {len(blame.blamed) - 25} more.")
    lines.append(f"You own {worker.ownership.describe()} ({worker.ownership.source}).")
    lines.append(
        "Do not undo them yourself: name each one in your final answer (what you changed and why), so that the "
        f"orchestrator can keep it or run `worktree-guard rollback --agent {worker.agent_id} --apply`, which restores exactly these files."
    )
    if others:
        lines.append(
            f"Other workers ran in {worker.root} at the same time ({', '.join(others)}), and so may the user: "
            "a change you did not make is not yours to explain; say so."
        )
    lines.append("[worktree-guard WG706]")
    return "\n".join(lines)


# --- WG707 -----------------------------------------------------------------------------------------------------


def _dirty(root: str) -> set[str]:
    (state,) = snapshot([root], [root], fingerprints=False, ignored=False)
    return set(state.dirty)


def changed_since(root: str, base: str) -> set[str]:
    """Files changed in a checkout since a commit: committed since, and uncommitted now."""
    return set(git_lines(root, "diff", "--name-only", "-z", base)) | _dirty(root)


def live_changes(common_dir: str, mine: str, base: str) -> dict[str, set[str]]:
    """For every other live worktree of the repository: the files it changed since it parted from `base`."""
    from ..layout import linked_worktrees_of, main_worktree_of

    main = main_worktree_of(common_dir)
    out: dict[str, set[str]] = {}
    for top in ([main] if main else []) + linked_worktrees_of(common_dir):
        if top == mine or not os.path.isdir(top):
            continue
        fork = git_lines(top, "merge-base", "HEAD", base)
        out[top] = set(git_lines(top, "diff", "--name-only", "-z", fork[0].strip() if fork else base)) | _dirty(top)
    return out


# --- rollback ---------------------------------------------------------------------------------------------------


def rollback(registry: Registry, agent_id: str, apply: bool) -> tuple[list[str], int]:
    """(lines to print, exit status): what the worker is blamed for, and with `apply` each restored path."""
    saved = registry.read("blame", agent_id)
    if saved is None:
        return [f"worktree-guard rollback: no recorded stop of worker {agent_id} in this repository (it has not stopped, or it was not a shared-workspace worker)"], 2
    blame = Blame.model_validate_json(saved)
    if not blame.blamed:
        return [f"worker {agent_id} changed nothing outside its ownership ({', '.join(blame.owns) or 'none'})."], 0
    lines = [f"worker {blame.agent_type or 'agent'} {agent_id} in {blame.root} owns {', '.join(blame.owns) or 'none'}; blamed on it:"]
    status = 0
    for item in blame.blamed:
        target = os.path.join(blame.root, item.path)
        what = "restore from " + (blame.start_head or "?")[:12] if item.existed else "remove (it did not exist at the start)"
        now = fingerprint_of(blame.root, item.path)
        if now != item.fingerprint:
            lines.append(f"  {target}: changed again since the worker stopped; left alone")
            status = 1
            continue
        if not apply:
            lines.append(f"  {target}: would {what}")
            continue
        try:
            restore(blame, item)
            lines.append(f"  {target}: {'restored' if item.existed else 'removed'}")
        except (OSError, RuntimeError) as e:
            lines.append(f"  {target}: could not {what}: {e}")
            status = 1
    if not apply:
        lines.append("Run again with --apply to do it.")
    return lines, status


def restore(blame: Blame, item: BlamedPath) -> None:
    target = os.path.join(blame.root, item.path)
    if not item.existed:
        if os.path.isdir(target) and not os.path.islink(target):
            import shutil

            shutil.rmtree(target)
        elif os.path.lexists(target):
            os.unlink(target)
        return
    if not blame.start_head:
        raise RuntimeError("the checkout had no commit at the worker's start")
    git_lines(blame.root, "restore", f"--source={blame.start_head}", "--worktree", "--", f":(literal){item.path}")
