"""The user's private worktree-guard directories: the cache (parser tables, entry points) and the daemons' sockets.

Both are inputs to the guard's decisions, so they must not be writable by anyone but the user, and not
silently by an agent either: the cache is under the user's cache dir (`$XDG_CACHE_HOME/worktree-guard`,
default `~/.cache/worktree-guard`), which lies outside every worktree and outside the allow-list, so the
guard itself refuses an agent's write there (the sockets' directory: see `client.socket_dir`). A directory
that is a symlink, not owned by the user, or open to group or others is refused, never repaired (the
client moves a socket directory of its own aside instead, and makes a fresh one).

The hook's client imports this before anything else, so it uses the built-in `posix` module rather than
`os` (whose import costs about 1.5 ms, a tenth of a hook call served by the daemon).
"""

import posix

TYPE_CHECKING = False  # `typing` and `collections.abc` are not imported at run time: see above
if TYPE_CHECKING:
    from collections.abc import Mapping

APP = "worktree-guard"
_DIRECTORY = 0o040000
_REGULAR = 0o100000
_TYPE_MASK = 0o170000


class NotPrivate(Exception):
    """The directory cannot be trusted (wrong owner, mode or type) or cannot be made; the message says why."""


def cache_root(environ: "Mapping[str, str]") -> str:
    """`$XDG_CACHE_HOME/worktree-guard` when that is absolute, else `~/.cache/worktree-guard`."""
    base = environ.get("XDG_CACHE_HOME") or ""
    if not base.startswith("/"):
        home = environ.get("HOME") or ""
        if not home.startswith("/"):
            import pwd

            try:
                home = pwd.getpwuid(posix.getuid()).pw_dir
            except KeyError:  # no passwd entry (a container's arbitrary uid): as paths.home_dir
                home = "/"
        base = home.rstrip("/") + "/.cache"
    return base.rstrip("/") + "/" + APP


def check_private(fd: int, path: str) -> None:
    """Raise NotPrivate unless the open directory `fd` is a directory owned by this user with mode 0700 or tighter."""
    st = posix.fstat(fd)
    if (st.st_mode & _TYPE_MASK) != _DIRECTORY:
        raise NotPrivate(f"{path} is not a directory")
    if st.st_uid != posix.geteuid():
        raise NotPrivate(f"{path} is owned by uid {st.st_uid}, not by this user ({posix.geteuid()})")
    if st.st_mode & 0o077:
        raise NotPrivate(f"{path} has mode {st.st_mode & 0o777:o}: group or others can use it (want 700)")


def _make_dirs(path: str) -> None:
    """`mkdir -p` with mode 0700 for every directory it makes."""
    try:
        posix.mkdir(path, 0o700)
    except FileExistsError:
        return
    except FileNotFoundError:
        parent = path.rstrip("/").rpartition("/")[0]
        if not parent or parent == path:
            raise
        _make_dirs(parent)
        try:
            posix.mkdir(path, 0o700)
        except FileExistsError:
            pass


def open_private_dir(path: str, *, create: bool = True) -> int:
    """An O_DIRECTORY descriptor of `path` after checking it is private; made (0700) first when missing.

    Files are then opened relative to the descriptor (`dir_fd=`), so the directory cannot be swapped between
    the check and the use. The caller closes the descriptor.
    """
    flags = posix.O_RDONLY | posix.O_DIRECTORY | posix.O_NOFOLLOW | posix.O_CLOEXEC
    try:
        fd = posix.open(path, flags)
    except FileNotFoundError:
        if not create:
            raise NotPrivate(f"{path} does not exist") from None
        try:
            _make_dirs(path)
            fd = posix.open(path, flags)
        except OSError as e:
            raise NotPrivate(f"cannot create {path}: {e.strerror}") from None
    except OSError as e:
        raise NotPrivate(f"cannot open {path}: {e.strerror}") from None
    try:
        check_private(fd, path)
    except BaseException:
        posix.close(fd)
        raise
    return fd


def write_atomically(dir_fd: int, name: str, data: bytes) -> None:
    """Replace `name` in the directory with `data` (0600) so that a reader sees the old or the new file, never half.

    The temporary file is new (`O_EXCL`, a random name: processes of other PID namespaces may share the directory)
    and never blocks: whatever already has its name (a FIFO) makes the write fail, not wait."""
    temp = f".{name}.{posix.getpid()}.{posix.urandom(6).hex()}.tmp"
    flags = posix.O_WRONLY | posix.O_CREAT | posix.O_EXCL | posix.O_NOFOLLOW | posix.O_NONBLOCK | posix.O_CLOEXEC
    fd = posix.open(temp, flags, 0o600, dir_fd=dir_fd)
    try:
        view = memoryview(data)
        while view:
            written = posix.write(fd, view)
            view = view[written:]
    finally:
        posix.close(fd)
    try:
        posix.replace(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        posix.unlink(temp, dir_fd=dir_fd)
        raise


def open_regular(dir_fd: int, name: str) -> int | None:
    """A descriptor of the regular file `name` in the directory (no symlink followed), or None when it is absent.

    Opened without blocking and then checked: a FIFO or a device put in the cache's place must not hang the hook
    (it raises OSError, as a file that cannot be read)."""
    try:
        fd = posix.open(name, posix.O_RDONLY | posix.O_NOFOLLOW | posix.O_NONBLOCK | posix.O_CLOEXEC, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    if posix.fstat(fd).st_mode & _TYPE_MASK != _REGULAR:
        posix.close(fd)
        raise OSError(f"{name} is not a regular file")
    return fd


def read_file(dir_fd: int, name: str) -> bytes | None:
    """The bytes of a regular file in the directory (no symlink followed), or None when it is absent."""
    fd = open_regular(dir_fd, name)
    if fd is None:
        return None
    try:
        chunks = []
        while True:
            chunk = posix.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    finally:
        posix.close(fd)
