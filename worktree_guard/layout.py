"""Where the agent's checkout is and which checkouts it shares a repository with (SPEC §3).

Reads files only: the hook runs before every tool call, so it never starts a `git` process.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field


class LayoutUnknown(Exception):
    """The checkout cannot be placed: a `.git` link that cannot be read or leads nowhere, a cwd that is gone.

    Unknown is never "not isolated": the caller refuses the call (WG000)."""


@dataclass(slots=True)
class Layout:
    """The worktree root W, the shared roots S, and how they were found."""

    worktree_root: str | None
    shared_roots: list[str] = field(default_factory=list)
    linked: bool = False
    common_dir: str | None = None
    source: str = "none"

    @property
    def in_git(self) -> bool:
        return self.worktree_root is not None


def _read_first_line(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            return f.readline().strip()
    except OSError:
        return None


def _resolve_from(base: str, value: str) -> str:
    return os.path.realpath(value if os.path.isabs(value) else os.path.join(base, value))


def read_git_core(config_path: str) -> dict[str, str]:
    """The `[core]` and `[extensions]` keys of a git config file, lower-cased as git compares them.

    Git config is INI-like but indents keys with tabs and repeats keys, which configparser rejects; only
    the few keys layout needs are read.
    """
    values: dict[str, str] = {}
    try:
        with open(config_path, encoding="utf-8", errors="surrogateescape") as f:
            lines = f.read().splitlines()
    except OSError:
        return values
    section = ""
    for line in lines:
        text = line.strip()
        if not text or text[0] in "#;":
            continue
        if text.startswith("["):
            section = text[1:text.find("]")].strip().lower() if "]" in text else ""
            text = text[text.find("]") + 1:].strip() if "]" in text else ""
            if not text:
                continue
        if section not in ("core", "extensions"):
            continue
        key, sep, value = text.partition("=")
        key = key.strip().lower()
        value = value.split(" #")[0].split(" ;")[0].strip().strip('"') if sep else "true"
        values[f"{section}.{key}"] = value
    return values


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("true", "yes", "on", "1")


def find_dotgit(start: str) -> str | None:
    """The nearest `.git` (file or directory) at or above `start`."""
    current = start
    while True:
        candidate = os.path.join(current, ".git")
        if os.path.lexists(candidate):
            return candidate
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def _gitdir_of(dotgit: str) -> str | None:
    """The git dir a `.git` entry names: itself when a directory, the `gitdir:` target when a file."""
    if os.path.isdir(dotgit):
        return os.path.realpath(dotgit)
    line = _read_first_line(dotgit)
    if not line or not line.startswith("gitdir:"):
        return None
    return _resolve_from(os.path.dirname(dotgit), line[len("gitdir:"):].strip())


def main_worktree_of(common_dir: str) -> str | None:
    """The main worktree of a repository, from its common git dir; None for a bare repository."""
    core = read_git_core(os.path.join(common_dir, "config"))
    if _truthy(core.get("extensions.worktreeconfig")):
        core.update(read_git_core(os.path.join(common_dir, "config.worktree")))
    if "core.worktree" in core:
        return _resolve_from(common_dir, core["core.worktree"])
    if _truthy(core.get("core.bare")):
        return None
    if os.path.basename(common_dir) == ".git":
        return os.path.dirname(common_dir)
    return None


def linked_worktrees_of(common_dir: str) -> list[str]:
    """Every linked worktree registered in `<common>/worktrees/*/gitdir`, as canonical top directories."""
    base = os.path.join(common_dir, "worktrees")
    try:
        names = sorted(os.listdir(base))
    except OSError:
        return []
    tops = []
    for name in names:
        entry = os.path.join(base, name)
        line = _read_first_line(os.path.join(entry, "gitdir"))
        if not line:
            continue
        dotgit = _resolve_from(entry, line)
        tops.append(os.path.dirname(dotgit))
    return tops


def find_layout(cwd: str) -> Layout:
    """W and S for an agent whose working directory is `cwd` (canonical)."""
    dotgit = find_dotgit(cwd)
    if dotgit is None:
        return _bare_layout(cwd)
    top = os.path.dirname(dotgit)
    gitdir = _gitdir_of(dotgit)
    if gitdir is None:
        # A `.git` file is a link to a git dir (a linked worktree's or a submodule's): unreadable, it could be either.
        raise LayoutUnknown(f"{dotgit} is not a readable `gitdir:` link, so the checkout at {top} cannot be placed")
    commondir_line = _read_first_line(os.path.join(gitdir, "commondir"))
    if commondir_line:
        return _linked_layout(top, _resolve_from(gitdir, commondir_line), "linked worktree")
    if not os.path.isdir(dotgit) and not os.path.isfile(os.path.join(gitdir, "HEAD")):
        # The link leads to no git dir: a linked worktree whose admin dir was pruned (`<common>/worktrees/<name>`)
        # is still a linked worktree of <common>; anything else cannot be placed.
        common = os.path.dirname(os.path.dirname(gitdir))
        if os.path.basename(os.path.dirname(gitdir)) == "worktrees" and os.path.isfile(os.path.join(common, "HEAD")):
            return _linked_layout(top, common, "linked worktree (its admin dir is gone)")
        raise LayoutUnknown(f"{dotgit} links to {gitdir}, which is not a git dir, so the checkout at {top} cannot be placed")
    main = main_worktree_of(gitdir) if os.path.isdir(dotgit) else None
    if main is not None and main != top and os.path.isdir(dotgit):
        # core.worktree points elsewhere: the checkout is there, not where `.git` is.
        top = main
    shared = [t for t in linked_worktrees_of(gitdir) if t != top]
    return Layout(worktree_root=top, shared_roots=shared, common_dir=gitdir, source="main worktree")


def _linked_layout(top: str, common: str, source: str) -> Layout:
    main = main_worktree_of(common)
    shared = [main] if main and main != top else []
    shared += [t for t in linked_worktrees_of(common) if t != top and t not in shared]
    return Layout(worktree_root=top, shared_roots=shared, linked=True, common_dir=common, source=source)


def vanished_worktree_layout(cwd: str) -> Layout:
    """W and S for a `cwd` that does not exist (a deleted worktree): recovered from git's records, else LayoutUnknown.

    The nearest existing ancestor's repository is asked which linked worktrees it still lists; the one that
    holds `cwd` is W. Nothing else places an agent whose directory is gone, and unknown is never "not isolated".
    """
    ancestor = os.path.dirname(cwd)
    while not os.path.isdir(ancestor):
        ancestor = os.path.dirname(ancestor)
    around = find_layout(os.path.realpath(ancestor))
    common = around.common_dir
    if common is not None:
        for top in linked_worktrees_of(common):
            if cwd == top or cwd.startswith(top.rstrip("/") + "/"):
                return _linked_layout(top, common, "linked worktree (its directory is gone)")
    raise LayoutUnknown(f"the call's cwd {cwd} does not exist and no git repository lists a worktree there, so the agent cannot be placed")


def _bare_layout(cwd: str) -> Layout:
    """Outside any checkout: inside a bare repository its worktrees are shared; elsewhere there is no W."""
    current = cwd
    while True:
        if os.path.isfile(os.path.join(current, "HEAD")) and os.path.isdir(os.path.join(current, "objects")):
            if _truthy(read_git_core(os.path.join(current, "config")).get("core.bare")):
                return Layout(worktree_root=None, shared_roots=linked_worktrees_of(current), common_dir=current, source="bare repository")
        parent = os.path.dirname(current)
        if parent == current:
            return Layout(worktree_root=None, source="outside git")
        current = parent


def with_explicit_root(root: str, shared: list[str] | None = None) -> Layout:
    """Configuration names W (SPEC §3 rule 1); S is still read from the repository W belongs to."""
    found = find_layout(root)
    shared_roots = list(found.shared_roots)
    if found.worktree_root and found.worktree_root != root:
        shared_roots.append(found.worktree_root)
    for extra in shared or []:
        if extra not in shared_roots and extra != root:
            shared_roots.append(extra)
    return Layout(
        worktree_root=root,
        shared_roots=shared_roots,
        linked=found.linked,
        common_dir=found.common_dir,
        source="configuration",
    )


def checked_out_branch(top: str) -> str | None:
    """The branch a checkout has checked out (`refs/heads/x` → `x`), read from its HEAD; None when detached or unknown."""
    dotgit = os.path.join(top, ".git")
    gitdir = _gitdir_of(dotgit) if os.path.lexists(dotgit) else (top if os.path.isfile(os.path.join(top, "HEAD")) else None)
    if gitdir is None:
        return None
    head = _read_first_line(os.path.join(gitdir, "HEAD"))
    if head and head.startswith("ref:"):
        ref = head[4:].strip()
        return ref[len("refs/heads/"):] if ref.startswith("refs/heads/") else None
    return None


def owner_of_git_dir(git_dir: str) -> str | None:
    """The checkout whose HEAD and index live in `git_dir`: `<top>/.git` → top; `<common>/worktrees/<n>` → that worktree."""
    if os.path.basename(git_dir) == ".git":
        return main_worktree_of(git_dir) or os.path.dirname(git_dir)
    line = _read_first_line(os.path.join(git_dir, "gitdir"))
    if line and os.path.isfile(os.path.join(git_dir, "commondir")):
        return os.path.dirname(_resolve_from(git_dir, line))
    return main_worktree_of(git_dir)
