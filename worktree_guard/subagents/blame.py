"""What a worker can be blamed for (SPEC §11, WG706), and `rollback`, which restores exactly that.

A path is blamed on a worker when it was clean at the worker's start (not dirty, not ignored), changed during
its window, is not scratch or the runtime's own (nor the guard's own audit log), and is owned neither by the
worker nor by any worker of its wave (every worker of the same checkout whose window overlapped its own). A path
that was dirty at the start and changed again is only reported (`changed_again`): it may be the user's work,
and it is never rolled back. Candidates are the paths `git status` lists, and, when HEAD moved during the window
(someone committed), every file the commits between the start's HEAD and the stop's changed
(`committed`): a commit must not hide a change. An ignored directory (`out/`) is judged file by file (its files
at the start were listed), so that one file of another worker below it is never blamed with the rest. A change
inside a nested checkout (another worktree, a submodule, a repository inside the checkout) is not this
checkout's: it is reported (`nested`) and never rolled back.

`rollback` restores each blamed file to its state at the worker's start: a tracked file to its content at the
start's HEAD, a file that did not exist then is removed. It only ever touches files: never a directory, never
anything inside a nested checkout. It leaves a blamed path alone when it changed again since the blame was
recorded (someone's later edit), and it touches nothing else.
"""

from __future__ import annotations

import os
import stat
import subprocess
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from ..paths import inside
from .snapshots import CheckoutState, common_dir, find_leaks, fingerprint_of, git_lines, linked_checkout, runtime_owned, snapshot, tree_manifest

if TYPE_CHECKING:
    from .linking import Worker
    from .registry import Registry


class BlamedPath(BaseModel):
    path: str = Field(description="relative to the checkout root")
    existed: bool = Field(description="tracked at the start (restored from start_head), or absent (removed)")
    fingerprint: str = Field(description="what the worker left (a later change is not rolled back)")
    committed: bool = Field(default=False, description="changed by a commit made during the window")


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
    nested: list[str] = Field(default_factory=list, description="changed inside a nested checkout: reported, never rolled back")
    wave: list[str] = Field(default_factory=list, description="the other workers whose windows overlapped")


def start_state(common_dir: str, root: str, *, isolated: bool = False) -> CheckoutState:
    """A worker's checkout at its start: dirty and ignored paths (each ignored directory file by file, for a
    shared-workspace worker), every checkout nested in it left out."""
    from .leak_check import checkouts_of

    (state,) = snapshot([root], checkouts_of(common_dir, [root]), ignored=True, manifests=not isolated)
    return state


def blame_of(
    registry: Registry, agent_id: str, worker: Worker, scratch: list[str], now: float, stale_after: float, exclude: tuple[str, ...] = (),
) -> Blame | None:
    """The blame of a worker from its start snapshot and the checkout now; None without a start snapshot.

    `exclude`: paths relative to the checkout that are nobody's change (the guard's own audit log)."""
    from .leak_check import checkouts_of
    from .ownership import Ownership
    from .registry import workers_of

    saved = registry.read("snapshots", agent_id)
    if saved is None:
        return None
    before = CheckoutState.model_validate_json(saved)
    checkouts = checkouts_of(registry.common_dir, [worker.root])
    (after,) = snapshot([worker.root], checkouts, fingerprints=False, ignored=True)
    if after.error or before.error:
        raise RuntimeError(after.error or before.error)
    workers = registry.load()
    me = workers.agents.get(agent_id)
    since = me.started if me and me.started else now
    wave = [
        (v.name, Ownership.of(v.dispatch.owns or [], ""))
        for v in workers_of(workers, worker.root)
        if not v.dispatch.isolated and (v.agent is None or v.agent.agent_id != agent_id) and v.dispatch.dispatch_id != worker.dispatch_id
        and _overlaps(v.window(now, stale_after, workers), (since, now))
    ]
    committed = committed_since(worker.root, before.head, after.head)
    blame = compute_blame(before, after, worker, [o for _, o in wave], Ownership.of(scratch, "scratch"), exclude=exclude, committed=committed)
    blame.wave = [name for name, _ in wave]
    return blame


def committed_since(root: str, start: str | None, head: str | None) -> list[str]:
    """The files the commits between two HEADs changed (none when HEAD did not move)."""
    if not start or not head or start == head:
        return []
    return git_lines(root, "diff", "--name-only", "--no-renames", "-z", start, head)


def _overlaps(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def nested_checkout(root: str, relative: str) -> str | None:
    """The directory below `root` on the way to `relative` (itself included) that is a checkout of its own (`_holds_a_checkout`):
    a worktree, a submodule or a repository inside the checkout, whose files are not the checkout's."""
    parts = relative.rstrip("/").split("/")
    for depth in range(1, len(parts) + 1):
        below = "/".join(parts[:depth])
        if _holds_a_checkout(os.path.join(root, below)):
            return below
    return None


def _holds_a_checkout(directory: str) -> bool:
    """A `.git` directory, or a `.git` file naming a git directory (one holding HEAD). A `.git` file naming none is
    a file someone wrote, which makes nothing beside it another checkout's (review 33a: `src/.git` with `gitdir: /x`
    kept the tracked src/app.py from rollback)."""
    dot_git = os.path.join(directory, ".git")
    try:
        mode = os.lstat(dot_git).st_mode
        if stat.S_ISDIR(mode):
            return True
        if not stat.S_ISREG(mode):
            return False
        with open(dot_git, "rb") as handle:
            text = handle.read(4096)
    except OSError:
        return False
    if not text.startswith(b"gitdir: "):
        return False
    return os.path.isfile(os.path.join(directory, os.fsdecode(text[8:].strip()), "HEAD"))


def tracked_at(root: str, commit: str | None, relative: str) -> bool:
    """The commit holds this very path as a file (a blob: no submodule, no directory). The start's HEAD is what a
    worker cannot rewrite: its index is not (review 34b: a worker's `git update-index --add` of a vendored file made
    rollback remove it)."""
    if not commit:
        return False
    try:
        listed = git_lines(root, "ls-tree", "-z", commit, "--", f":(literal){relative}")
    except (RuntimeError, OSError, subprocess.SubprocessError):
        return False
    return any(line.split(" ", 2)[1:2] == ["blob"] and line.split("\t", 1)[-1] == relative for line in listed)


def compute_blame(
    before: CheckoutState,
    after: CheckoutState,
    worker: Worker,
    wave: list[Any],
    scratch: Any,
    *,
    exclude: tuple[str, ...] = (),
    committed: list[str] | None = None,
) -> Blame:
    """The pure part (it reads the files it judges): which changed paths the worker is blamed for."""
    root = worker.root
    blame = Blame(
        agent_id=worker.agent_id,
        agent_type=worker.agent_type,
        root=root,
        start_head=before.head,
        owns=list(worker.ownership.patterns),
        owns_source=worker.ownership.source,
    )
    # (path, its status at the stop, dirty at the start?, committed?)
    changes: list[tuple[str, str, bool, bool]] = []
    for leak in find_leaks(before, after):
        if leak.path is None:
            continue  # HEAD and branch: git is the orchestrator's (WG703 keeps workers out of it)
        if leak.path.endswith("/") and (after.dirty.get(leak.path, ("",))[0] == "!!" or before.dirty.get(leak.path, ("",))[0] == "!!"):
            changes += _tree_changes(root, leak.path, before)
            continue
        changes.append((leak.path, leak.after or "", leak.path in before.dirty, False))
    seen = {c[0] for c in changes}
    for path in committed or []:
        if path not in seen:
            changes.append((path, "", path in before.dirty, True))
    owners = [worker.ownership, scratch, *wave]
    for path, status, dirty_before, by_commit in changes:
        bare = path.rstrip("/")
        if runtime_owned(root, path) or bare in exclude:
            continue
        tree = path.endswith("/")
        test = (lambda o: o.covers_tree(bare)) if tree else (lambda o: o.matches(bare))
        if any(test(o) for o in owners):
            continue
        # git lists an untracked directory as one entry (`-uall` lists files) only when it is a repository of its own,
        # whose files are not this checkout's; a path git lists itself is this checkout's, whatever `.git` a worker
        # wrote beside it (review 33a: `src/.git` took the tracked src/app.py out of blame)
        # …one that was there at the worker's start, or a worktree git made (review 33b: `git init src/plugins` and a
        # file in it went unblamed)
        if tree and status == "??" and nested_checkout(root, bare) is not None and (path in before.dirty or linked_checkout(os.path.join(root, bare), common_dir(root))):
            blame.nested.append(path)
            continue
        if dirty_before:
            blame.changed_again.append(path)
            continue
        if by_commit or before.head != after.head:  # the status is against the new HEAD: ask the start's
            existed = before.head is not None and _in_commit(root, before.head, bare)
        else:
            existed = status not in ("??", "!!") and not status.startswith("A")  # in HEAD at the start: restore it
        blame.blamed.append(BlamedPath(path=path, existed=existed, fingerprint=fingerprint_of(root, path), committed=by_commit))
    return blame


def _tree_changes(root: str, relative_dir: str, before: CheckoutState) -> list[tuple[str, str, bool, bool]]:
    """An ignored directory that changed, file by file: new files (clean at the start: they did not exist),
    changed or removed ones (they were there, ignored: dirty at the start). Past TREE_LIMIT, or without a list
    of the files at the start when the directory was there, the directory stays one entry."""
    now = tree_manifest(root, relative_dir)
    existed = relative_dir in before.dirty
    then = before.trees.get(relative_dir, {} if not existed else None)
    if now is None or then is None:
        return [(relative_dir, "!!", existed, False)]
    changes = [(path, "!!", path in then, False) for path, mark in sorted(now.items()) if then.get(path) != mark]
    changes += [(path, "!!", True, False) for path in sorted(then) if path not in now]
    return changes


def _in_commit(root: str, commit: str, relative: str) -> bool:
    try:
        return bool(git_lines(root, "ls-tree", "-z", "--name-only", commit, "--", f":(literal){relative}"))
    except RuntimeError:
        return False


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
        if item.committed:
            what += " (it was committed during the worker's window)"
        if item.path.endswith("/"):
            lines.append(f"  {target}: a directory, which rollback never removes; left alone")
            status = 1
            continue
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
    """Put one blamed file back as it was at the worker's start; RuntimeError for anything that is not a file of
    this checkout (a directory, a path inside a nested checkout), which rollback never touches."""
    relative = item.path.rstrip("/")
    if item.path.endswith("/"):
        raise RuntimeError("a directory: rollback restores files only")
    nested = nested_checkout(blame.root, relative)
    if nested is not None and not (item.existed and tracked_at(blame.root, blame.start_head, relative)):
        # a file the start's HEAD held is the checkout's whatever `.git` a worker made above it (review 33b, 7)
        raise RuntimeError(f"inside the nested checkout {os.path.join(blame.root, nested)}, which rollback never touches")
    target = os.path.join(blame.root, relative)
    real = os.path.realpath(os.path.dirname(target))
    if not inside(real, os.path.realpath(blame.root)):
        raise RuntimeError("its directory leads out of the checkout (a symlink): rollback never follows it")
    if real != os.path.normpath(os.path.join(os.path.realpath(blame.root), os.path.dirname(relative))):
        # git lists no file below a symlink; a staged one could lead into a nested checkout (review 34b: `d` → vendor/lib)
        raise RuntimeError("its directory is a symlink: rollback never follows it")
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise RuntimeError("a directory now: rollback restores files only")
    if not item.existed:
        if mode is not None:
            os.unlink(target)  # a file or a symlink; its directories stay
        return
    if not blame.start_head:
        raise RuntimeError("the checkout had no commit at the worker's start")
    git_lines(blame.root, "restore", f"--source={blame.start_head}", "--worktree", "--", f":(literal){relative}")
