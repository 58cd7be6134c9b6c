"""Where the agent's checkout is and which checkouts it shares a repository with (SPEC §3).

Reads files only: the hook runs before every tool call, so it never starts a `git` process.
"""

from __future__ import annotations

import contextlib
import contextvars
import errno
import io
import os
import stat
from collections.abc import Iterator

from .devices import is_null_device
from .fast_dataclass import fast_dataclass, field, replace
from .paths import own_process


class LayoutUnknown(Exception):
    """The checkout cannot be placed: a `.git` link that cannot be read or leads nowhere, a cwd that is gone.

    Unknown is never "not isolated": the caller refuses the call (WG000)."""


@fast_dataclass(slots=True)
class Layout:
    """The worktree root W, the shared roots S, and how they were found."""

    worktree_root: str | None
    shared_roots: list[str] = field(default_factory=list)
    linked: bool = False
    common_dir: str | None = None
    source: str = "none"
    #: Every linked worktree that holds the cwd, nearest first (W among them): the agent may have made the inner
    #: ones itself (`git worktree add x && cd x`), so what lies in any of them is never trusted as configuration.
    enclosing: list[str] = field(default_factory=list)
    #: The main worktree as `_linked_layout` read it from the repository's config (None: not read, or bare), so
    #: that a call's project root does not read the config a second time.
    main_worktree: str | None = field(default=None, compare=False)

    @property
    def in_git(self) -> bool:
        return self.worktree_root is not None


#: The most the guard reads of one git file (a config). Without a bound, a `.git` link to /dev/zero or a sparse
#: file inside W made the hook read until memory ran out: a hook the kernel kills has no reply, and Claude Code
#: lets that call through.
MAX_GIT_FILE = 4 << 20
#: The longest first line of a `.git` file, HEAD, `commondir` or `gitdir` read: a path (PATH_MAX is 4096) and a
#: prefix. Git refuses a `.git` file over 1 MiB (setup.c, read_gitfile_gently); a longer line is not one git
#: wrote, and resolving a path of a million components takes minutes.
MAX_GIT_LINE = 8192


def _read_text(path: str, strict: bool = False, *, first_line: bool = False) -> str | None:
    """A file's text (or only its first line); None when it is missing. `strict`: any other failure to read it
    (permissions, a loop of links, not a regular file, over MAX_GIT_FILE) is LayoutUnknown; otherwise None too.
    Opened without blocking, so a FIFO costs nothing."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        if strict:
            raise LayoutUnknown(f"{path} cannot be read ({e.strerror})") from None
        return None
    text = None
    try:
        status = os.fstat(fd)
        if stat.S_ISDIR(status.st_mode):
            problem = f"cannot be read ({os.strerror(errno.EISDIR)})"  # as open() says it
        elif is_null_device(status):
            text, problem = "", None  # `.git/config -> /dev/null`: git reads it as empty, and so does the guard
        elif not stat.S_ISREG(status.st_mode):
            problem = "is not a regular file"
        elif status.st_size > MAX_GIT_FILE:
            problem = f"is larger than {MAX_GIT_FILE >> 20} MiB"
        else:
            with open(fd, encoding="utf-8", errors="surrogateescape", closefd=False) as f:
                text = f.readline(MAX_GIT_LINE + 2) if first_line else f.read(MAX_GIT_FILE + 1)
            if len(text.removesuffix("\n") if first_line else text) > (MAX_GIT_LINE if first_line else MAX_GIT_FILE):
                problem = f"has a first line longer than {MAX_GIT_LINE} characters" if first_line else f"is larger than {MAX_GIT_FILE >> 20} MiB"
            else:
                problem = None
    except OSError as e:
        problem = f"cannot be read ({e.strerror})"
    finally:
        os.close(fd)
    if problem is None:
        return text
    if strict:
        raise LayoutUnknown(f"{path} {problem}")
    return None


def _read_first_line(path: str, strict: bool = False) -> str | None:
    """The first line of a file, stripped; None when there is none (see `_read_text` for `strict`)."""
    line = _read_text(path, strict, first_line=True)
    return None if line is None else line.strip()


def _kind(path: str) -> str | None:
    """What lies at `path`, following symlinks: "dir", "file" or "other"; None when nothing does (a dangling
    link included, as git sees it). Anything that cannot be examined (a directory on the way that cannot be
    searched, a loop of links) is LayoutUnknown: unknown is never "absent"."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        raise LayoutUnknown(f"{path} cannot be examined ({e.strerror}), so the checkout cannot be placed") from None
    return "dir" if stat.S_ISDIR(mode) else "file" if stat.S_ISREG(mode) else "other"


def _entry_exists(path: str) -> bool:
    """Is there an entry (a dangling link included) at `path`? LayoutUnknown when that cannot be told."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError as e:
        raise LayoutUnknown(f"{path} cannot be examined ({e.strerror}), so the checkout cannot be placed") from None
    return True


def _resolve_from(base: str, value: str) -> str:
    return os.path.realpath(value if os.path.isabs(value) else os.path.join(base, value))


#: The keys read_git_core returns.
GIT_CORE_KEYS = frozenset({"core.worktree", "core.bare", "extensions.worktreeconfig"})


def read_git_core(config_path: str, strict: bool = False) -> dict[str, str]:
    """The GIT_CORE_KEYS of a git config file, lower-cased as git compares them.

    Git config is INI-like but indents keys with tabs and repeats keys, which configparser rejects; only
    the few keys layout needs are read. `strict`: a file that exists but cannot be read is LayoutUnknown.
    """
    values: dict[str, str] = {}
    text = _read_text(config_path, strict)
    if text is None:
        return values
    section = ""
    for line in io.StringIO(text):  # one line at a time: a config of a million lines is no list of a million
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
        name = f"{section}.{key.strip().lower()}"
        if name in GIT_CORE_KEYS:  # only what layout and the git rule ask: a config of a million keys keeps three
            values[name] = value.split(" #")[0].split(" ;")[0].strip().strip('"') if sep else "true"
    return values


def _truthy(value: str | None) -> bool:
    return (value or "").lower() in ("true", "yes", "on", "1")


def git_dir_of(dotgit: str) -> str | None:
    """The git dir a `.git` entry names: itself when a directory, the `gitdir:` target when a file."""
    if os.path.isdir(dotgit):
        return os.path.realpath(dotgit)
    line = _read_first_line(dotgit)
    if not line or not line.startswith("gitdir:"):
        return None
    return _resolve_from(os.path.dirname(dotgit), line[len("gitdir:"):].strip())


def git_dir_link(dotgit: str) -> str | None:
    """The git dir a `.git` entry at `dotgit` (its directory canonical) links to, canonical: a symlink's target, or
    a `.git` file's `gitdir:`. None when there is nothing, a directory of its own, a file that is no `gitdir:` link,
    or a linked worktree's own `.git` file that git's records confirm (the `gitdir` of its admin dir in
    `<common>/worktrees` names that file back). A symlink is never a confirmed link: git's records name a file, so a
    symlink to W's own `.git` file (which names W's admin dir) or one that dangles (git makes its git dir where the
    link leads) is its target. LayoutUnknown when it cannot be examined or read."""
    kind = _kind(dotgit)
    real = os.path.realpath(dotgit)
    symlink = os.path.islink(dotgit)
    if kind == "dir" or (symlink and kind is None):
        return real if real != dotgit else None
    if kind != "file":
        return real if symlink else None
    line = _read_first_line(real, strict=True)
    if not line or not line.startswith("gitdir:"):
        return real if symlink else None
    gitdir = _resolve_from(os.path.dirname(dotgit), line[len("gitdir:"):].strip())
    if symlink:
        return gitdir
    back = _read_first_line(os.path.join(gitdir, "gitdir"), strict=True)
    common = _read_first_line(os.path.join(gitdir, "commondir"), strict=True)
    if back and common and _resolve_from(gitdir, back) == dotgit and os.path.dirname(gitdir) == os.path.join(_resolve_from(gitdir, common), "worktrees"):
        return None
    return gitdir


def is_git_dir(path: str) -> bool:
    """Would git take `path` for a git directory? Its HEAD, and its objects and refs (in the common dir a
    `commondir` file names), as git's own test (setup.c, is_git_directory) asks. LayoutUnknown when they
    cannot be examined."""
    if _kind(os.path.join(path, "HEAD")) != "file":
        return False
    common_line = _read_first_line(os.path.join(path, "commondir"), strict=True)
    common = _resolve_from(path, common_line) if common_line else path
    return _kind(os.path.join(common, "objects")) == "dir" and _kind(os.path.join(common, "refs")) == "dir"


def main_worktree_of(common_dir: str, strict: bool = False) -> str | None:
    """The main worktree of a repository, from its common git dir; None for a bare repository."""
    core = read_git_core(os.path.join(common_dir, "config"), strict)
    if _truthy(core.get("extensions.worktreeconfig")):
        core.update(read_git_core(os.path.join(common_dir, "config.worktree"), strict))
    if "core.worktree" in core:
        return _resolve_from(common_dir, core["core.worktree"])
    if _truthy(core.get("core.bare")):
        return None
    if os.path.basename(common_dir) == ".git":
        return os.path.dirname(common_dir)
    return None


def linked_worktrees_of(common_dir: str, strict: bool = False) -> list[str]:
    """Every linked worktree registered in `<common>/worktrees/*/gitdir`, as canonical top directories.

    `strict` (layout detection): a list or entry that exists but cannot be read is LayoutUnknown — a shared
    root left out would let a write into it pass — not an empty list."""
    base = os.path.join(common_dir, "worktrees")
    try:
        names = sorted(os.listdir(base))
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as e:
        if strict:
            raise LayoutUnknown(f"{base} cannot be listed ({e.strerror})") from None
        return []
    tops = []
    for name in names:
        entry = os.path.join(base, name)
        line = _read_first_line(os.path.join(entry, "gitdir"), strict)
        if not line:
            continue
        dotgit = _resolve_from(entry, line)
        tops.append(os.path.dirname(dotgit))
    return tops


@fast_dataclass(slots=True)
class _Found:
    """One checkout on the walk up from the cwd: its layout, and for a linked worktree whether git's records
    link back to it (`<admin>/gitdir` names this `.git`): a `.git` file anyone can write is not proof."""

    layout: Layout
    linked_back: bool = False


#: The layouts found while one tool call is judged, by directory (`layouts_remembered`); None outside one.
_REMEMBERED: contextvars.ContextVar[dict[str, Layout] | None] = contextvars.ContextVar("remembered_layouts", default=None)


@contextlib.contextmanager
def layouts_remembered() -> Iterator[None]:
    """While inside, `find_layout` looks each directory up once: a Bash command asks for the layout of its cwd
    and of every checkout its git calls act on, each walk costing dozens of stat calls (about half of judging
    the heredoc commit). Each caller still gets its own copy (the engine extends `shared_roots`). A lookup
    that fails is not remembered: it is tried again. Not nested: on the way out nothing is remembered, however
    the judgement ended (the daemon's request limit may interrupt it anywhere; `forget_layouts` also runs
    before every call)."""
    try:
        _REMEMBERED.set({})
        yield
    finally:
        _REMEMBERED.set(None)


def forget_layouts() -> None:
    """Nothing remembered from here on (the start of every hook call: a memo can never outlive its judgement)."""
    _REMEMBERED.set(None)


def _copy(layout: Layout) -> Layout:
    return replace(layout, shared_roots=list(layout.shared_roots), enclosing=list(layout.enclosing))


def find_layout(cwd: str) -> Layout:
    """W and S for an agent whose working directory is `cwd` (canonical); see `_find_layout`."""
    remembered = _REMEMBERED.get()
    if remembered is None:
        return _find_layout(cwd)
    if cwd not in remembered:
        remembered[cwd] = _find_layout(cwd)
    return _copy(remembered[cwd])


def _find_layout(cwd: str) -> Layout:
    """W and S for an agent whose working directory is `cwd` (canonical).

    Every checkout that holds `cwd` is looked at, nearest first (a `.git` directory that git would not take
    for a repository is passed over, as git passes it over). The nearest linked worktree whose records link
    back to it is W. When the nearest checkout is not one — a nested repository, a submodule, a `.git` file
    written by hand — but an enclosing checkout is a linked worktree, the agent is in that worktree: what is
    nested inside W never loosens W. The checkouts of every enclosing linked worktree's repository are shared
    roots too (W nested in another repository's worktree stays inside that one). An entry on the way that
    cannot be examined or read is LayoutUnknown: unknown is never "not isolated".
    """
    if own_process(cwd):
        raise LayoutUnknown(f"{cwd} is in a process's own /proc directory, which names the process that opens it")
    found: list[_Found] = []
    current = cwd
    while True:
        dotgit = os.path.join(current, ".git")
        if _entry_exists(dotgit):
            checkout = _checkout_at(current, dotgit)
            if checkout is not None:
                found.append(checkout)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    if not found:
        return _bare_layout(cwd)
    linked = [f for f in found if f.layout.linked]
    if not linked:
        return found[0].layout
    first = found[0]
    if first.layout.linked and first.linked_back:
        mine = first
    else:
        # Not a linked worktree, or a link git's records do not confirm: the nearest confirmed linked worktree
        # holding it is W; without one, the nearest linked worktree there is (isolated either way).
        mine = next((f for f in linked if f.linked_back), first if first.layout.linked else linked[0])
    layout = mine.layout
    layout.enclosing = [f.layout.worktree_root for f in linked if f.layout.worktree_root]
    for outer in linked[linked.index(mine) + 1:]:
        if outer.layout.common_dir != layout.common_dir:
            for top in [outer.layout.worktree_root, *outer.layout.shared_roots]:
                if top and top != layout.worktree_root and top not in layout.shared_roots:
                    layout.shared_roots.append(top)
    return layout


def _checkout_at(top: str, dotgit: str) -> _Found | None:
    """The checkout whose `.git` entry is `dotgit`; None when git would pass it over (not a git directory)."""
    kind = _kind(dotgit)
    if kind is None:
        return None  # a dangling link: git passes it over
    if kind == "dir":
        gitdir = os.path.realpath(dotgit)
        if not is_git_dir(gitdir):
            return None  # `mkdir .git` makes no repository: git keeps looking above it, and so does the guard
        commondir_line = _read_first_line(os.path.join(gitdir, "commondir"), strict=True)
        if commondir_line:
            return _Found(_linked_layout(top, _resolve_from(gitdir, commondir_line), "linked worktree"), linked_back=True)
        main = main_worktree_of(gitdir, strict=True)
        if main is not None and main != top:
            top = main  # core.worktree points elsewhere: the checkout is there, not where `.git` is.
        shared = [t for t in linked_worktrees_of(gitdir, strict=True) if t != top]
        return _Found(Layout(worktree_root=top, shared_roots=shared, common_dir=gitdir, source="main worktree"))
    line = _read_first_line(dotgit, strict=True) if kind == "file" else None
    if not line or not line.startswith("gitdir:"):
        # A `.git` file is a link to a git dir (a linked worktree's or a submodule's): unreadable, it could be either.
        raise LayoutUnknown(f"{dotgit} is not a readable `gitdir:` link, so the checkout at {top} cannot be placed")
    gitdir = _resolve_from(top, line[len("gitdir:"):].strip())
    commondir_line = _read_first_line(os.path.join(gitdir, "commondir"), strict=True)
    if commondir_line:
        back = _read_first_line(os.path.join(gitdir, "gitdir"), strict=True)
        linked_back = bool(back) and _resolve_from(gitdir, back) == os.path.realpath(dotgit)
        return _Found(_linked_layout(top, _resolve_from(gitdir, commondir_line), "linked worktree"), linked_back)
    if _kind(os.path.join(gitdir, "HEAD")) != "file":
        # The link leads to no git dir: a linked worktree whose admin dir was pruned (`<common>/worktrees/<name>`)
        # is still a linked worktree of <common>; anything else cannot be placed.
        common = os.path.dirname(os.path.dirname(gitdir))
        if os.path.basename(os.path.dirname(gitdir)) == "worktrees" and _kind(os.path.join(common, "HEAD")) == "file":
            return _Found(_linked_layout(top, common, "linked worktree (its admin dir is gone)"))
        raise LayoutUnknown(f"{dotgit} links to {gitdir}, which is not a git dir, so the checkout at {top} cannot be placed")
    # A submodule, or a checkout made with `--separate-git-dir`: a checkout of its own.
    shared = [t for t in linked_worktrees_of(gitdir, strict=True) if t != top]
    return _Found(Layout(worktree_root=top, shared_roots=shared, common_dir=gitdir, source="main worktree"))


def _linked_layout(top: str, common: str, source: str) -> Layout:
    main = main_worktree_of(common, strict=True)
    shared = [main] if main and main != top else []
    shared += [t for t in linked_worktrees_of(common, strict=True) if t != top and t not in shared]
    return Layout(worktree_root=top, shared_roots=shared, linked=True, common_dir=common, source=source, main_worktree=main)


def layout_of_cwd(cwd: str) -> Layout:
    """W and S for an agent's cwd (canonical) that may be gone: `find_layout` when it is a directory, git's
    records when it does not exist (`vanished_worktree_layout`), LayoutUnknown when it cannot be examined."""
    if _kind(cwd) == "dir":
        return find_layout(cwd)
    return vanished_worktree_layout(cwd)


def vanished_worktree_layout(cwd: str) -> Layout:
    """W and S for a `cwd` that does not exist (a deleted worktree): recovered from git's records, else LayoutUnknown.

    The nearest existing ancestor's repository is asked which linked worktrees it still lists; the one that
    holds `cwd` is W. Nothing else places an agent whose directory is gone, and unknown is never "not isolated".
    """
    ancestor = os.path.dirname(cwd)
    while _kind(ancestor) != "dir" and ancestor != os.path.dirname(ancestor):  # bounded by `/`, whatever lies there
        ancestor = os.path.dirname(ancestor)
    around = find_layout(os.path.realpath(ancestor))
    common = around.common_dir
    if common is not None:
        for top in linked_worktrees_of(common, strict=True):
            if cwd == top or cwd.startswith(top.rstrip("/") + "/"):
                return _linked_layout(top, common, "linked worktree (its directory is gone)")
    raise LayoutUnknown(f"the call's cwd {cwd} does not exist and no git repository lists a worktree there, so the agent cannot be placed")


def _bare_layout(cwd: str) -> Layout:
    """Outside any checkout: inside a bare repository its worktrees are shared; elsewhere there is no W."""
    current = cwd
    while True:
        if _kind(os.path.join(current, "HEAD")) == "file" and _kind(os.path.join(current, "objects")) == "dir":
            if _truthy(read_git_core(os.path.join(current, "config"), strict=True).get("core.bare")):
                return Layout(worktree_root=None, shared_roots=linked_worktrees_of(current, strict=True), common_dir=current, source="bare repository")
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
    gitdir = git_dir_of(dotgit) if os.path.lexists(dotgit) else (top if os.path.isfile(os.path.join(top, "HEAD")) else None)
    if gitdir is None:
        return None
    head = _read_first_line(os.path.join(gitdir, "HEAD"))
    if head and head.startswith("ref:"):
        ref = head[4:].strip()
        return ref[len("refs/heads/"):] if ref.startswith("refs/heads/") else None
    return None


def owner_of_git_dir(git_dir: str) -> str | None:
    """The checkout whose HEAD and index live in `git_dir`: `<top>/.git` → top; `<common>/worktrees/<n>` → that worktree.

    A git dir with a `commondir` but no `gitdir` back-link is no worktree's: git still works through it, on the refs
    of the repository `commondir` names (`/tmp/g` holding `HEAD: ref: refs/heads/main` and a `commondir` of the main
    checkout's `.git` made `GIT_DIR=/tmp/g git commit` move the main checkout's branch). Whose branch its HEAD
    moves cannot be told from here: LayoutUnknown.

    A `gitdir:` file given as the git dir is followed, as git follows it (`GIT_DIR=/tmp/g` holding `gitdir:
    <main>/.git`: review 28a's L4). A bare repository has no checkout of its own, but a linked worktree may have its
    HEAD's branch checked out, and moving that branch moves the worktree's (`git -C <project>/.bare reset --soft
    HEAD~1` in a bare layout: review 28a's L3): that worktree."""
    if os.path.isfile(git_dir):
        line = _read_first_line(git_dir, strict=True)
        if not line or not line.startswith("gitdir:"):
            return None  # git refuses it: "not a git repository"
        git_dir = _resolve_from(os.path.dirname(git_dir), line[len("gitdir:"):].strip())
    if os.path.basename(git_dir) == ".git":
        return main_worktree_of(git_dir) or os.path.dirname(git_dir)
    line = _read_first_line(os.path.join(git_dir, "gitdir"))
    if os.path.isfile(os.path.join(git_dir, "commondir")):
        # git keeps a worktree's git dir in `<common>/worktrees/<name>`, where no agent writes; one elsewhere, or
        # without its `gitdir` link, was made by hand (a `gitdir` file in it proves nothing).
        common = _read_first_line(os.path.join(git_dir, "commondir"))
        listed = bool(common) and os.path.dirname(os.path.realpath(git_dir)) == os.path.join(_resolve_from(git_dir, common), "worktrees")
        if not line or not listed:
            raise LayoutUnknown(f"{git_dir} shares another repository's refs (its `commondir`) but is no worktree's git dir (none that git keeps in that repository's `worktrees`)")
        return os.path.dirname(_resolve_from(git_dir, line))
    return main_worktree_of(git_dir) or _checkout_of_head_branch(git_dir)


def _checkout_of_head_branch(common_dir: str) -> str | None:
    """The linked worktree that has the branch HEAD names in a bare repository checked out; None when HEAD is
    detached, or no worktree has the branch."""
    head = _read_first_line(os.path.join(common_dir, "HEAD"), strict=True)
    if not head or not head.startswith("ref: refs/heads/"):
        return None
    branch = head[len("ref: refs/heads/"):].strip()
    for top in linked_worktrees_of(common_dir, strict=True):
        if checked_out_branch(top) == branch:
            return top
    return None


def git_checkouts_at(path: str) -> list[str]:
    """The checkouts a `git` run in `path` acts on, found as git finds them: the nearest `.git` git accepts
    names the git dir; its work tree (where that `.git` is, or `core.worktree`) and the checkout whose HEAD and
    index live in that git dir, when a `.git` file links to another checkout's git dir. [] outside any
    checkout; LayoutUnknown when it cannot be told. Unlike `find_layout` (who the agent is), this is what git
    will touch: a `.git` file written by hand inside W makes git switch the main checkout's branch."""
    if own_process(path):
        raise LayoutUnknown(f"{path} is in a process's own /proc directory, which names the process that opens it")
    current = path
    while True:
        dotgit = os.path.join(current, ".git")
        if _entry_exists(dotgit):
            kind = _kind(dotgit)
            if kind == "dir" and is_git_dir(os.path.realpath(dotgit)):
                gitdir = os.path.realpath(dotgit)
                tops = [main_worktree_of(gitdir, strict=True) or current] if not _read_first_line(os.path.join(gitdir, "commondir"), strict=True) else [current]
                break
            if kind is not None and kind != "dir":
                line = _read_first_line(dotgit, strict=True) if kind == "file" else None
                if not line or not line.startswith("gitdir:"):
                    raise LayoutUnknown(f"{dotgit} is not a readable `gitdir:` link")
                gitdir = _resolve_from(current, line[len("gitdir:"):].strip())
                core = read_git_core(os.path.join(gitdir, "config"), strict=True)
                tops = [_resolve_from(gitdir, core["core.worktree"]) if "core.worktree" in core and not os.path.isfile(os.path.join(gitdir, "commondir")) else current]
                break
        if is_git_dir(current):
            # A directory that is itself a git dir (a bare repository, a `.git` directory, `<common>/worktrees/<n>`):
            # git runs there on its refs, with no work tree unless core.worktree names one (setup.c's
            # GIT_DIR_BARE). Walking on up found the project's `.git` file above a bare layout's `.bare` instead.
            gitdir = os.path.realpath(current)
            own = not _read_first_line(os.path.join(gitdir, "commondir"), strict=True)
            # …and moves its HEAD's branch, which a linked worktree may have checked out too (a bare one's core.worktree)
            tops = [top for top in (main_worktree_of(gitdir, strict=True), _checkout_of_head_branch(gitdir)) if top] if own else []
            break
        parent = os.path.dirname(current)
        if parent == current:
            return []
        current = parent
    owner = owner_of_git_dir(gitdir)
    return tops + ([owner] if owner and owner not in tops else [])
