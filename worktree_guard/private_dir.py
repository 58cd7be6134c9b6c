"""The user's private worktree-guard directory, where the parser-table cache and the daemon's socket live.

Both are inputs to the guard's decisions, so they must not be writable by anyone but the user, and not
silently by an agent either: the directory is under the user's cache dir (`$XDG_CACHE_HOME/worktree-guard`,
default `~/.cache/worktree-guard`), which lies outside every worktree and outside the allow-list, so the
guard itself refuses an agent's write there. A directory that is a symlink, not owned by the user, or open
to group or others is refused, never repaired.

Standard library only (`os`): the hook's client imports this before anything else.
"""

from __future__ import annotations

import os

APP = "worktree-guard"


class NotPrivate(Exception):
    """The directory cannot be trusted (wrong owner, mode or type) or cannot be made; the message says why."""


def cache_root(environ: dict[str, str] | os._Environ[str] | None = None) -> str:
    """`$XDG_CACHE_HOME/worktree-guard` when that is absolute, else `~/.cache/worktree-guard`."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):
        home = env.get("HOME") or ""
        if not os.path.isabs(home):
            import pwd

            home = pwd.getpwuid(os.getuid()).pw_dir
        base = os.path.join(home, ".cache")
    return os.path.join(base, APP)


def check_private(fd: int, path: str) -> None:
    """Raise NotPrivate unless the open directory `fd` is a directory owned by this user with mode 0700 or tighter."""
    st = os.fstat(fd)
    if (st.st_mode & 0o170000) != 0o040000:
        raise NotPrivate(f"{path} is not a directory")
    if st.st_uid != os.geteuid():
        raise NotPrivate(f"{path} is owned by uid {st.st_uid}, not by this user ({os.geteuid()})")
    if st.st_mode & 0o077:
        raise NotPrivate(f"{path} has mode {st.st_mode & 0o777:o}: group or others can use it (want 700)")


def open_private_dir(path: str, *, create: bool = True) -> int:
    """An O_DIRECTORY descriptor of `path` after checking it is private; made (0700) first when missing.

    Files are then opened relative to the descriptor (`dir_fd=`), so the directory cannot be swapped between
    the check and the use. The caller closes the descriptor.
    """
    if create:
        parent = os.path.dirname(path)
        try:
            os.makedirs(parent, mode=0o700, exist_ok=True)
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass
        except OSError as e:
            raise NotPrivate(f"cannot create {path}: {e.strerror}") from None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as e:
        raise NotPrivate(f"cannot open {path}: {e.strerror}") from None
    try:
        check_private(fd, path)
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_atomically(dir_fd: int, name: str, data: bytes) -> None:
    """Replace `name` in the directory with `data` (0600) so that a reader sees the old or the new file, never half."""
    temp = f".{name}.{os.getpid()}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=dir_fd)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
    finally:
        os.close(fd)
    try:
        os.replace(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        os.unlink(temp, dir_fd=dir_fd)
        raise


def read_file(dir_fd: int, name: str) -> bytes | None:
    """The bytes of a regular file in the directory (no symlink followed), or None when it is absent."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    try:
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        os.close(fd)
