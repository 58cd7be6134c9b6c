"""W and S for a recorded agent, reconstructed when its worktrees are gone — each with the evidence used.

In order, first hit wins: the `--root` flag; a sub-agent dispatched with `isolation: worktree` whose own
transcript is missing (its worktree is `.claude/worktrees/agent-<id>` under its parent's); the live
repository, when the agent's starting directory still exists; the session's `worktree-state` record; the
`worktree_root` an audit-log line recorded; a starting directory of the shape
`<checkout>/.claude/worktrees/<slug>`; and last the starting directory itself, with no shared roots known. `--shared` roots are added to whatever was found.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ..layout import Layout, LayoutUnknown, find_layout, linked_worktrees_of
from ..paths import canonical, inside
from .calls import Anchor

CLAUDE_WORKTREES = "/.claude/worktrees/"
_HOME_OF_CWD = re.compile(r"^(/home/[^/]+|/Users/[^/]+|/root)(?=/|$)")


@dataclass(slots=True, frozen=True)
class LayoutHints:
    """What the command line says about W and S (`--root`, `--shared`), canonical."""

    root: str | None = None
    shared: tuple[str, ...] = ()


@dataclass(slots=True, frozen=True)
class FoundLayout:
    """A layout and, in words, the evidence it came from."""

    layout: Layout
    source: str


def recorded_home(cwd: str, transcript_path: str | None = None) -> str | None:
    """The recording user's home: from a transcript's place under `~/.claude/projects/`, else from the cwd's shape."""
    marker = "/.claude/projects/"
    if transcript_path and marker in transcript_path:
        return transcript_path[: transcript_path.index(marker)] or "/"
    match = _HOME_OF_CWD.match(cwd)
    return match.group(1) if match else None


def _with_shared(layout: Layout, extra: tuple[str, ...]) -> Layout:
    for root in extra:
        if root not in layout.shared_roots and root != layout.worktree_root:
            layout.shared_roots.append(root)
    return layout


def _live(path: str) -> Layout | None:
    """The layout of a directory that exists on this machine and lies in a git checkout; else None."""
    if not os.path.isdir(path):
        return None
    try:
        found = find_layout(path)
    except LayoutUnknown:
        return None  # reconstructed from the session instead
    return found if found.in_git else None


def _claude_worktree(cwd: str) -> tuple[str, str] | None:
    """(`<checkout>`, `<checkout>/.claude/worktrees/<slug>`) when cwd lies in such a worktree."""
    index = cwd.find(CLAUDE_WORKTREES)
    if index <= 0:
        return None
    rest = cwd[index + len(CLAUDE_WORKTREES):]
    slug = rest.split("/", 1)[0]
    if not slug:
        return None
    return cwd[:index], cwd[: index + len(CLAUDE_WORKTREES)] + slug


def _linked(root: str, shared: list[str], source: str) -> FoundLayout:
    return FoundLayout(Layout(worktree_root=root, shared_roots=shared, linked=True, source=source), source)


def _shared_of_checkout(main: str, exclude: str) -> list[str]:
    """The main checkout and, when it still exists, its other linked worktrees."""
    shared = [main]
    live = _live(main)
    if live is not None and live.common_dir:
        shared += [t for t in linked_worktrees_of(live.common_dir) if t != exclude and t not in shared]
    return shared


def reconstruct(anchor: Anchor, hints: LayoutHints, home: str) -> FoundLayout:
    """W and S for an agent that started in `anchor.cwd` (see the module docstring for the order)."""
    found = _reconstruct(anchor, hints, home)
    _with_shared(found.layout, hints.shared)
    return found


def _reconstruct(anchor: Anchor, hints: LayoutHints, home: str) -> FoundLayout:
    start = canonical(anchor.cwd, "/", home)
    if hints.root:
        live = _live(hints.root)
        shared = [s for s in (live.shared_roots if live else []) if s != hints.root]
        if live is not None and live.worktree_root and live.worktree_root != hints.root:
            shared.append(live.worktree_root)
        linked = live.linked if live is not None else _claude_worktree(hints.root) is not None
        layout = Layout(worktree_root=hints.root, shared_roots=shared, linked=linked, source="configuration")
        return FoundLayout(layout, "--root flag")
    if anchor.worktree_agent:
        parent = _reconstruct(Anchor(cwd=anchor.cwd, worktree_state=anchor.worktree_state), hints, home)
        parent_root = parent.layout.worktree_root or start
        root = os.path.join(parent_root, ".claude", "worktrees", f"agent-{anchor.worktree_agent}")
        live = _live(root)
        if live is not None and live.worktree_root == root:
            return FoundLayout(live, f"live repository ({anchor.inferred_from})")
        shared = [parent_root] + [s for s in parent.layout.shared_roots if s != parent_root]
        return _linked(root, shared, f"{anchor.inferred_from}: .claude/worktrees/agent-{anchor.worktree_agent} under {parent.source}")
    live = _live(start)
    if live is not None:
        return FoundLayout(live, f"live repository ({live.source})")
    state = anchor.worktree_state
    if state is not None:
        worktree = canonical(state.worktree_path, "/", home)
        if inside(start, worktree):
            original = canonical(state.original_cwd, "/", home) if state.original_cwd else None
            live_original = _live(original) if original else None
            main = live_original.worktree_root if live_original and live_original.worktree_root else original
            shared = _shared_of_checkout(main, worktree) if main else []
            where = f"{os.path.basename(state.file)}:{state.line}"
            return _linked(worktree, [s for s in shared if s != worktree], f"worktree-state record ({where})")
    if anchor.recorded_root:
        recorded = canonical(anchor.recorded_root, "/", home)
        claude = _claude_worktree(recorded)
        if claude is not None and claude[1] == recorded:
            return _linked(recorded, _shared_of_checkout(claude[0], recorded), "audit record's worktree_root (.claude/worktrees layout)")
        return FoundLayout(Layout(worktree_root=recorded, source="audit record"), "audit record's worktree_root")
    claude = _claude_worktree(start)
    if claude is not None:
        main, root = claude
        return _linked(root, _shared_of_checkout(main, root), f"cwd layout <checkout>/.claude/worktrees/{os.path.basename(root)}")
    layout = Layout(worktree_root=start, source="first recorded cwd")
    return FoundLayout(layout, "first recorded cwd (no repository or worktree record found)")
