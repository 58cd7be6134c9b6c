"""What a sub-agent changed in the shared checkouts (SPEC §5.4): their state at its start, compared at its stop.

The state of a checkout is its HEAD, its branch, and its dirty paths, each with the git status code and a
fingerprint of the file (so that a path already dirty at the start but changed again is noticed). It is read
with one `git status` per checkout — once at a sub-agent's start and once at its stop, never per tool call.
"""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
from dataclasses import dataclass
from typing import Literal

from ..records import Field, Record

from ..paths import inside

GIT_TIMEOUT = 20.0  # seconds for one `git status`
HASH_LIMIT = 8 * 1024 * 1024  # files above this are fingerprinted by size and mtime, not read
# The file the runtime itself writes in the main checkout while a sub-agent runs ("don't ask again" approvals):
# never a sub-agent's leak. Matched whole: `.claude/settings.local.json.bak` is a worker's file.
RUNTIME_FILES = (".claude/settings.local.json",)
# Where the runtime makes its worktrees; only a directory there that is a linked checkout is the runtime's.
RUNTIME_WORKTREES = ".claude/worktrees/"
# Variables that would point git at another repository than the checkout it is run in.
_GIT_LOCATION_VARS = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_NAMESPACE", "GIT_PREFIX")


class CheckoutState(Record):
    """One checkout at one moment: HEAD, branch (None when detached) and dirty paths → [status, fingerprint]."""

    root: str
    head: str | None = Field(default=None, description="commit id; None before the first commit")
    branch: str | None = Field(default=None, description="checked-out branch; None when HEAD is detached")
    dirty: dict[str, tuple[str, str]] = Field(default_factory=dict, description="relative path → (XY status, fingerprint)")
    trees: dict[str, dict[str, str]] = Field(
        default_factory=dict,
        description="an ignored directory (`out/`) → its files (relative to the checkout) → size and mtime, when asked "
        "for and not larger than TREE_LIMIT entries: what was below it, file by file",
    )
    error: str | None = Field(default=None, description="why the state could not be read")


LeakKind = Literal["branch", "head", "new", "changed", "reverted"]


@dataclass(slots=True, frozen=True)
class Leak:
    """One difference in a shared checkout between a sub-agent's start and its stop."""

    kind: LeakKind
    root: str
    path: str | None = None  # relative to root, for file leaks
    before: str | None = None
    after: str | None = None

    @property
    def code(self) -> str:
        return "WG601" if self.kind in ("branch", "head") else "WG602"


TREE_LIMIT = 2000  # entries of an ignored directory read for its fingerprint


def tree_fingerprint(path: str, root: str | None = None) -> str:
    """An ignored directory (`__pycache__/`, `node_modules/`), as git lists it: a hash of the names below it, with
    each file's size and modification time, up to TREE_LIMIT entries (past that, of the first TREE_LIMIT and a count). A linked
    checkout below it (an ignored `.claude/worktrees/` holds the runtime's) is not its content, nor, given the
    checkout's `root`, the runtime's own files (an ignored `.claude/` holds settings.local.json)."""
    digest = hashlib.sha256()
    count = 0
    common = common_dir(root) if root is not None else None
    for top, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not linked_checkout(os.path.join(top, d), common))
        if root is not None:
            files = [f for f in files if not runtime_owned(root, os.path.relpath(os.path.join(top, f), root))]
        for name in sorted(files) + dirs:
            count += 1
            if count > TREE_LIMIT:
                return f"tree:{digest.hexdigest()}:{TREE_LIMIT}+"
            try:
                st = os.lstat(os.path.join(top, name))
            except OSError:
                continue
            # a directory's size and time move with every entry made or removed in it, a linked checkout or the
            # runtime's file among them: its entries say what changed, its name that it is there
            mark = "dir" if stat.S_ISDIR(st.st_mode) else f"{st.st_size}\0{st.st_mtime_ns}"
            digest.update(f"{os.path.relpath(os.path.join(top, name), path)}\0{mark}\n".encode("utf-8", "surrogateescape"))
    return f"tree:{digest.hexdigest()}:{count}" if os.path.isdir(path) else fingerprint(path)


def tree_manifest(root: str, relative_dir: str) -> dict[str, str] | None:
    """The files below an ignored directory of the checkout (`out/`), each relative to the checkout → its size and
    modification time (a symlink: its target); None past TREE_LIMIT entries. A linked checkout below it is not
    entered (it is not this checkout's content), nor any `.git` (a vendored repository's files are listed, its
    database is not); a `.git` file a worker wrote makes no checkout (review 33a)."""
    top = os.path.join(root, relative_dir.rstrip("/"))
    common = common_dir(root)
    files: dict[str, str] = {}
    count = 0
    for here, dirs, names in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d != ".git" and not linked_checkout(os.path.join(here, d), common))
        for name in names:
            count += 1
            if count > TREE_LIMIT:
                return None
            path = os.path.join(here, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            mark = "link:" + os.readlink(path) if stat.S_ISLNK(st.st_mode) else f"{st.st_size}:{st.st_mtime_ns}"
            files[os.path.relpath(path, root).replace(os.sep, "/")] = mark
        count += len(dirs)
    return files


def fingerprint(path: str) -> str:
    """What a path holds now, cheaply comparable: content hash, link target, or kind."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return "absent"
    except OSError as e:
        return f"unreadable:{e.errno}"
    if stat.S_ISLNK(st.st_mode):
        try:
            return "link:" + os.readlink(path)
        except OSError as e:
            return f"unreadable:{e.errno}"
    if stat.S_ISDIR(st.st_mode):
        return "dir"
    if not stat.S_ISREG(st.st_mode):
        return f"special:{stat.S_IFMT(st.st_mode)}"
    if st.st_size > HASH_LIMIT:
        return f"large:{st.st_size}:{st.st_mtime_ns}"
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
    except OSError as e:
        return f"unreadable:{e.errno}"
    return "sha256:" + digest.hexdigest()


def fingerprint_of(root: str, relative: str) -> str:
    """The fingerprint of a path as git status lists it (`dir/` for an ignored directory)."""
    path = os.path.join(root, relative)
    return tree_fingerprint(path.rstrip("/"), root) if relative.endswith("/") else fingerprint(path)


def _git_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _GIT_LOCATION_VARS}
    env.update(GIT_OPTIONAL_LOCKS="0", LC_ALL="C")  # never take index.lock in someone else's checkout
    return env


def git_lines(root: str, *args: str) -> list[str]:
    """The NUL-separated output of `git ARGS` (run with `-z`) in `root`; RuntimeError when git fails."""
    done = subprocess.run(["git", *args], cwd=root, env=_git_env(), stdin=subprocess.DEVNULL, capture_output=True, timeout=GIT_TIMEOUT)
    if done.returncode != 0:
        raise RuntimeError(f"git {args[0]} failed in {root}: {os.fsdecode(done.stderr).strip()[:200]}")
    return [os.fsdecode(part) for part in done.stdout.split(b"\0") if part]


def parse_status(output: bytes) -> tuple[str | None, str | None, dict[str, str]]:
    """HEAD, branch and {path: XY} from `git status --porcelain=v2 -z --branch`."""
    head: str | None = None
    branch: str | None = None
    dirty: dict[str, str] = {}
    fields = output.split(b"\0")
    i = 0
    while i < len(fields):
        entry = os.fsdecode(fields[i])
        i += 1
        if not entry:
            continue
        if entry.startswith("# branch.oid "):
            value = entry[len("# branch.oid "):]
            head = None if value == "(initial)" else value
        elif entry.startswith("# branch.head "):
            value = entry[len("# branch.head "):]
            branch = None if value == "(detached)" else value
        elif entry.startswith("1 "):
            parts = entry.split(" ", 8)
            dirty[parts[8]] = parts[1]
        elif entry.startswith("2 "):
            parts = entry.split(" ", 9)
            dirty[parts[9]] = parts[1]
            if i < len(fields):  # the rename's original path follows as its own field
                dirty[os.fsdecode(fields[i])] = parts[1]
                i += 1
        elif entry.startswith("u "):
            parts = entry.split(" ", 10)
            dirty[parts[10]] = parts[1]
        elif entry.startswith("? "):
            dirty[entry[2:]] = "??"
        elif entry.startswith("! "):
            dirty[entry[2:]] = "!!"
    return head, branch, dirty


def runtime_owned(root: str, relative: str) -> bool:
    """A path of `root` the runtime writes while its sub-agents run: its settings.local.json (a file), or a linked
    checkout it made under .claude/worktrees/ (`linked_checkout`, even before `git worktree list` shows it).
    Any other file there (`.claude/worktrees/notes.txt`, `.claude/settings.local.json.evil`) is a worker's."""
    bare = relative.rstrip("/")
    if bare in RUNTIME_FILES:
        return not relative.endswith("/")  # a directory of that name is a worker's (h-snap33: an ignored one hid its files)
    if not bare.startswith(RUNTIME_WORKTREES):
        return False
    name = bare[len(RUNTIME_WORKTREES):].split("/", 1)[0]
    return linked_checkout(os.path.join(root, RUNTIME_WORKTREES, name), common_dir(root))


def linked_checkout(directory: str, common: str | None) -> bool:
    """Whether a directory is a linked worktree git made of the repository whose common git dir is `common`: not a
    symlink, its `.git` a regular file naming a gitdir in `common`/worktrees/ whose `gitdir` file names this `.git`
    back (`git worktree add` writes both; git 2.48's relative paths are read from where they stand). A `.git` file a
    sub-agent wrote itself names no such gitdir (reviews 33a, 33b: a pair of plain files pointing at each other was
    taken for one), and a repository of its own (a `.git` directory) may be a checkout's vendored content."""
    if common is None:
        return False
    dot_git = os.path.join(directory, ".git")
    try:
        if os.path.islink(directory) or not stat.S_ISREG(os.lstat(dot_git).st_mode):
            return False
        with open(dot_git, "rb") as handle:
            text = handle.read(4096)
        if not text.startswith(b"gitdir: "):
            return False
        gitdir = os.path.realpath(os.path.join(directory, os.fsdecode(text[8:].strip())))
        if os.path.dirname(gitdir) != os.path.join(common, "worktrees"):
            return False
        with open(os.path.join(gitdir, "gitdir"), "rb") as handle:
            back = os.fsdecode(handle.read(4096).strip())
        return os.path.realpath(os.path.join(gitdir, back)) == os.path.realpath(dot_git)
    except (OSError, ValueError):
        return False


def common_dir(root: str) -> str | None:
    """The common git dir of the checkout at `root` (canonical), read from its `.git` as git does; None when it is
    no checkout git could read."""
    dot_git = os.path.join(root, ".git")
    try:
        if os.path.isdir(dot_git):
            return os.path.realpath(dot_git)
        with open(dot_git, "rb") as handle:
            text = handle.read(4096)
        if not text.startswith(b"gitdir: "):
            return None
        gitdir = os.path.join(root, os.fsdecode(text[8:].strip()))
        try:
            with open(os.path.join(gitdir, "commondir"), "rb") as handle:
                return os.path.realpath(os.path.join(gitdir, os.fsdecode(handle.read(4096).strip())))
        except FileNotFoundError:
            return os.path.realpath(gitdir)
    except (OSError, ValueError):
        return None


def _ignored(root: str, relative: str, checkouts: list[str]) -> bool:
    """Another checkout nested in this one (a sibling worktree), or a path the runtime owns."""
    if runtime_owned(root, relative):
        return True
    absolute = os.path.join(root, relative.rstrip("/"))
    return any(top != root and inside(top, root) and inside(absolute, top) for top in checkouts)


def snapshot(roots: list[str], checkouts: list[str], *, fingerprints: bool = True, ignored: bool = True, manifests: bool = False) -> list[CheckoutState]:
    """The state of every root, one `git status` each, run side by side.

    `checkouts` are every checkout of the repository at this moment: one nested in a root is not its content.
    With `fingerprints`, every dirty path is fingerprinted (at the start; the stop fingerprints on demand).
    With `ignored`, the paths git ignores are listed too (`--ignored=matching`: an ignored directory is one
    entry, `src/__pycache__/`, fingerprinted by `tree_fingerprint`), so that a `__pycache__` written by
    importing a checkout's code, or an ignored build output, is seen. With `manifests`, the files below each
    such directory are listed too (`tree_manifest`), so that a stop can tell which of them are new.
    """
    command = ["git", "status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", "--ignore-submodules=dirty"]
    if ignored:
        command.append("--ignored=matching")
    env = _git_env()
    running: list[tuple[str, subprocess.Popen[bytes] | None, str | None]] = []
    for root in roots:
        try:
            process = subprocess.Popen(command, cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            running.append((root, process, None))
        except OSError as e:
            running.append((root, None, f"cannot run git: {e.strerror or e}"))
    states = []
    for root, process, error in running:
        if process is None:
            states.append(CheckoutState(root=root, error=error))
            continue
        try:
            out, err = process.communicate(timeout=GIT_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            states.append(CheckoutState(root=root, error=f"git status took more than {GIT_TIMEOUT:.0f} s"))
            continue
        if process.returncode != 0:
            states.append(CheckoutState(root=root, error=f"git status failed: {os.fsdecode(err).strip()[:200]}"))
            continue
        head, branch, codes = parse_status(out)
        dirty = {
            path: (code, fingerprint_of(root, path) if fingerprints else "")
            for path, code in codes.items()
            if not _ignored(root, path, checkouts)
        }
        trees = {}
        if manifests:
            for path in dirty:
                if path.endswith("/") and codes.get(path) == "!!" and (listed := tree_manifest(root, path)) is not None:
                    trees[path] = listed
        states.append(CheckoutState(root=root, head=head, branch=branch, dirty=dirty, trees=trees))
    return states


def find_leaks(before: CheckoutState, after: CheckoutState) -> list[Leak]:
    """Every difference between a checkout's state at the start and at the stop.

    Changes that were there at the start are not blamed; a path dirty at the start counts only if its status or
    content changed since, or if its change was undone while HEAD stayed where it was.
    """
    root = before.root
    leaks: list[Leak] = []
    moved = before.head != after.head or before.branch != after.branch
    if before.branch != after.branch:
        leaks.append(Leak("branch", root, before=_at(before), after=_at(after)))
    elif before.head != after.head:
        leaks.append(Leak("head", root, before=before.head, after=after.head))
    for path, (code, _) in sorted(after.dirty.items()):
        if path not in before.dirty:
            leaks.append(Leak("new", root, path, after=code))
            continue
        old_code, old_print = before.dirty[path]
        if code != old_code or fingerprint_of(root, path) != old_print:
            leaks.append(Leak("changed", root, path, before=old_code, after=code))
    if not moved:
        for path, (code, _) in sorted(before.dirty.items()):
            if path not in after.dirty:
                leaks.append(Leak("reverted", root, path, before=code))
    return leaks


def _at(state: CheckoutState) -> str:
    where = state.branch or "a detached HEAD"
    return f"{where} ({state.head[:12]})" if state.head else f"{where} (no commit yet)"


def describe_status(code: str) -> str:
    """Git's XY status in words."""
    if code == "??":
        return "untracked"
    if code == "!!":
        return "a path git ignores"
    words = {"M": "modified", "A": "added", "D": "deleted", "R": "renamed", "C": "copied", "T": "type changed", "U": "unmerged"}
    index, tree = code[:1], code[1:2]
    parts = []
    if tree in words:
        parts.append(words[tree])
    if index in words:
        parts.append(f"staged as {words[index]}")
    return ", ".join(parts) or code
