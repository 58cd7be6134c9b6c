"""The worktree-guard daemon: keeps the guard loaded and judges hook calls sent by `client`.

Started by the first hook call that finds none (`client.start_daemon`), detached, in its own session; it
serves one user and one loaded code (the socket's name is `client.daemon_key`: interpreter, start-up flags,
package) and exits after `WT_GUARD_DAEMON_IDLE` seconds (default 900) without a request — after
CROWDED_IDLE_SECONDS when other daemons of the user run too. It holds one of the user's MAX_DAEMONS slots
while it runs, and exits as soon as its socket or its directory is no longer its own (replaced, moved, or
made non-private): a replacement can then start.

Each request carries the hook process's arguments, working directory, complete environment and stdin. The
daemon judges it exactly as the hook would in-process (`hook_process.hook_reply`): it takes over that environment and
directory for the request and reads configuration files and the git layout afresh, as every call does. It
declines — and the client judges in-process — when its code is stale (a loaded module's file or a
site-packages directory changed since it started: an upgrade, a new plugin) or when a request runs over
REQUEST_SECONDS. Requests are served one at a time: a judgement takes a few milliseconds.

Paths under `/proc/self` name the judging process, so the daemon resolves them as the hook process would:
`os.readlink("/proc/self")` answers the client's pid while a request is judged (the client waits, so its pid
and descriptors are what they would be in-process), and a payload that names `/proc/` at all is declined.

Security: the socket lives in the user's private directory (0700, checked), and every connection's peer
credentials (SO_PEERCRED) must be this user's.
"""

from __future__ import annotations

import gc
import os
import signal
import socket
import sys
from typing import Any

from . import client
from .private_dir import NotPrivate, open_private_dir

#: A request that takes longer is abandoned and declined, and the client judges it (the same verdict: the
#: analysis budget counts work, not time). The last resort that keeps the daemon taking a new call at least
#: this often, which is how a waiting client tells a busy daemon from a hung one (client.REPLY_TIMEOUT).
REQUEST_SECONDS = 1.5
#: Seconds to read a request once connected.
READ_SECONDS = 0.25
#: After this many requests the daemon exits and the next call starts a fresh one (bounds any slow growth).
MAX_REQUESTS = 100_000
#: Seconds between the daemon's checks that its socket and directory are still its own, and of its idle time.
WAKE_SECONDS = 1.0
#: Seconds a replacement waits for the key's lock and a slot while the daemon it replaces dies.
REPLACE_WAIT_SECONDS = 5.0


class RequestTimeout(BaseException):
    """Raised by the alarm in a request running over REQUEST_SECONDS."""


#: Set by the alarm: the hook catches every exception and would turn the timeout into a reply of its own.
_timed_out = False


def _on_alarm(signum: int, frame: Any) -> None:
    global _timed_out
    _timed_out = True
    raise RequestTimeout


#: The pid of the hook process whose call is being judged, for `/proc/self` (None: this process's own).
_peer_pid: int | None = None
_stock_readlink = os.readlink


def _readlink_for_peer(path: Any, *, dir_fd: int | None = None) -> Any:
    """`os.readlink`, except that `/proc/self` and `/proc/thread-self` are the hook process's while judging.

    `os.path.realpath` reads every link of a path through `os.readlink`, so a path that reaches `/proc/self`
    directly or through any chain of symlinks resolves to the hook process's entries, as in-process.
    """
    if _peer_pid is not None and dir_fd is None:
        text = os.fsdecode(path) if isinstance(path, bytes) else path
        if text in ("/proc/self", "/proc/thread-self"):
            target = str(_peer_pid) if text == "/proc/self" else f"{_peer_pid}/task/{_peer_pid}"
            return os.fsencode(target) if isinstance(path, bytes) else target
    return _stock_readlink(path, dir_fd=dir_fd)


class CodeFingerprint:
    """The files whose change makes this process stale: every loaded module outside the standard library
    (the guard, its dependencies, plugins) and every sys.path directory (a distribution added or removed)."""

    def __init__(self) -> None:
        # The standard library is the base installation's (in a venv, sysconfig's "platstdlib" is the venv's
        # lib/pythonX.Y, which holds site-packages): the directory of `os` and lib-dynload inside it.
        stdlib = (os.path.dirname(os.__file__) + os.sep,)
        files = set()
        for module in list(sys.modules.values()):
            path = getattr(module, "__file__", None)
            if isinstance(path, str) and os.path.isabs(path) and not path.startswith(stdlib):
                files.add(path)
        dirs = {p for p in sys.path if p and os.path.isdir(p) and not p.startswith(stdlib)}
        self.paths = sorted(files | dirs)
        self.stamps = self._stamps()
        self.modules_seen = len(sys.modules)

    def add_new_modules(self) -> None:
        """Modules first imported by a request are loaded from today's files: they join with today's stamps."""
        if len(sys.modules) == self.modules_seen:
            return
        known = set(self.paths)
        fresh = CodeFingerprint()
        for path, stamp in zip(fresh.paths, fresh.stamps):
            if path not in known:
                self.paths.append(path)
                self.stamps.append(stamp)
        self.modules_seen = len(sys.modules)

    def _stamps(self) -> list[tuple[int, int] | None]:
        stamps: list[tuple[int, int] | None] = []
        for path in self.paths:
            try:
                st = os.stat(path)
                stamps.append((st.st_mtime_ns, st.st_size))
            except OSError:
                stamps.append(None)
        return stamps

    def stale(self) -> bool:
        return self._stamps() != self.stamps


class Daemon:
    """One listening socket, the warm guard, and the loop that serves requests until idle."""

    def __init__(self, key: str, idle_seconds: float) -> None:
        self.key = key
        self.idle_seconds = idle_seconds
        self.directory = client.socket_dir(os.environ)
        self.dir_fd = open_private_dir(self.directory)
        self.lock_fd: int | None = None
        self.listener: socket.socket | None = None
        self.socket_ino: int | None = None
        self.pm: Any = None
        self.hook_reply: Any = None
        self.fingerprint: CodeFingerprint | None = None
        self.served = 0
        self.slot_fd: int | None = None
        self.dir_ino = os.fstat(self.dir_fd).st_ino

    # -- start ---------------------------------------------------------------------------------------

    def lock(self, wait: float = 0.0) -> bool:
        """Take the key's lock and a free slot; False when another daemon holds the lock or every slot is taken.

        `wait`: seconds to keep trying (a replacement, while the daemon it replaces dies)."""
        import time

        deadline = time.monotonic() + wait
        fd = _try_lock(self.dir_fd, self.key + ".lock", deadline)
        if fd is None:
            return False
        while True:
            free = (_try_lock(self.dir_fd, f"slot-{slot}.lock", 0.0) for slot in range(client.MAX_DAEMONS))
            self.slot_fd = next((slot_fd for slot_fd in free if slot_fd is not None), None)
            if self.slot_fd is not None or time.monotonic() >= deadline:
                break
            time.sleep(0.05)
        if self.slot_fd is None:
            os.close(fd)
            return False
        self.lock_fd = fd
        self.write_record()
        return True

    def write_record(self) -> None:
        """pid, socket inode (0 until it listens), calls accepted: see client.lock_record. Fixed width, in place."""
        assert self.lock_fd is not None
        os.pwrite(self.lock_fd, f"{os.getpid():>10} {self.socket_ino or 0:>20} {self.served:>20}\n".encode(), 0)

    def others_running(self) -> bool:
        """Does another daemon of this user hold a slot here?"""
        import fcntl

        for slot in range(client.MAX_DAEMONS):
            try:
                fd = os.open(f"slot-{slot}.lock", os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=self.dir_fd)
            except OSError:
                continue
            try:
                if os.path.sameopenfile(fd, self.slot_fd):  # type: ignore[arg-type]
                    continue
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except OSError:
                return True
            finally:
                os.close(fd)
        return False

    def warm(self) -> None:
        """Load everything a judgement needs, and judge a few calls so that every lazy import has happened."""
        from . import engine, hook, hook_process, isolation, policy, runtimes  # noqa: F401
        from .plugins import plugin_manager
        from .shell import fallback, parse, walk  # noqa: F401

        parse._load_bashlex()
        self.pm = plugin_manager()
        self.hook_reply = hook_process.hook_reply
        import json
        import tempfile

        # Judged with the audit log sent to /dev/null: these calls are not the user's.
        scratch = os.path.realpath(tempfile.gettempdir())
        for tool, tool_input in (("Write", {"file_path": "/dev/null"}), ("Bash", {"command": 'git commit -m "$(cat <<\'EOF\'\nx\nEOF\n)" > /dev/null'})):
            payload = json.dumps({"cwd": scratch, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input}).encode()
            for flag in ("--isolated", "--not-isolated"):
                self.hook_reply(["hook", flag, "--audit-log", os.devnull], payload, cwd=scratch, pm=self.pm)
        self.fingerprint = CodeFingerprint()
        gc.collect()
        gc.freeze()  # the warm objects are permanent: later collections skip them

    def listen(self) -> None:
        """Bind under a temporary name and rename into place, so a client only ever finds a listening socket."""
        name = self.key + ".sock"
        temp = f".{self.key}.{os.getpid()}.sock"
        for stale in (temp, name):
            try:
                os.unlink(stale, dir_fd=self.dir_fd)
            except FileNotFoundError:
                pass
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(client.address(self.dir_fd, self.directory, temp))
        listener.listen(256)  # 128 hook calls at once must not find the queue full
        os.rename(temp, name, src_dir_fd=self.dir_fd, dst_dir_fd=self.dir_fd)
        self.socket_ino = os.stat(name, dir_fd=self.dir_fd, follow_symlinks=False).st_ino
        self.listener = listener
        self.write_record()

    # -- serve ---------------------------------------------------------------------------------------

    def still_ours(self) -> bool:
        """Is the socket file still the one this daemon bound, in the directory clients find, and is that private?"""
        from .private_dir import check_private

        try:
            if os.stat(self.key + ".sock", dir_fd=self.dir_fd, follow_symlinks=False).st_ino != self.socket_ino:
                return False
            if os.stat(self.directory, follow_symlinks=False).st_ino != self.dir_ino:
                return False  # moved aside (client.quarantine) or replaced
            check_private(self.dir_fd, self.directory)
        except (OSError, NotPrivate):
            return False
        return True

    def idle_limit(self) -> float:
        """Seconds without a call after which this daemon exits: sooner while other daemons of the user run."""
        if self.others_running():
            return min(self.idle_seconds / 5, client.CROWDED_IDLE_SECONDS)
        return self.idle_seconds

    def serve(self) -> None:
        import time

        assert self.listener is not None
        signal.signal(signal.SIGALRM, _on_alarm)
        self.listener.settimeout(WAKE_SECONDS)
        last_call = time.monotonic()
        while self.served < MAX_REQUESTS:
            try:
                conn, _ = self.listener.accept()
            except TimeoutError:
                if not self.still_ours() or time.monotonic() - last_call > self.idle_limit():
                    return
                continue
            last_call = time.monotonic()
            self.served += 1
            self.write_record()  # the heartbeat: a waiting client tells busy from hung by it
            with conn:
                try:
                    stale = self.handle(conn)
                except RequestTimeout:  # the alarm rang just after the judgement: no reply, the client judges
                    stale = False
                except Exception:  # noqa: BLE001 — a bug here costs this client its fast path, not the daemon
                    stale = False
            if stale or not self.still_ours():
                return

    def handle(self, conn: socket.socket) -> bool:
        """Serve one connection; True when the daemon must stop (its code is stale)."""
        if not hasattr(socket, "SO_PEERCRED"):
            return False  # no way to know who is asking: every call is judged in-process
        cred = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)  # struct ucred: pid, uid, gid
        pid, uid = (int.from_bytes(cred[i : i + 4], sys.byteorder) for i in (0, 4))
        if uid != os.geteuid():
            return False  # not this user's: closed without a word
        conn.settimeout(READ_SECONDS)
        try:
            data = _read_all(conn)
            nonce, key, argv, cwd, environ, stdin = client.decode_request(data)
        except (OSError, ValueError):
            return False  # the client gets no reply and judges in-process
        assert self.fingerprint is not None
        self.fingerprint.add_new_modules()
        stale = self.fingerprint.stale()
        if stale or key != self.key or argv[:1] != ["hook"] or _names_proc(stdin, environ):
            _send(conn, client.encode_reply(nonce, client.STATUS_DECLINED, 0, "", ""))
            return stale
        reply = self.judge(argv, cwd, environ, stdin, pid)
        if reply is None:
            _send(conn, client.encode_reply(nonce, client.STATUS_DECLINED, 0, "", ""))
        else:
            _send(conn, client.encode_reply(nonce, client.STATUS_SERVED, reply.exit_code, reply.stdout, reply.stderr))
        return False

    def judge(self, argv: list[str], cwd: bytes, environ: dict[bytes, bytes], stdin: bytes, pid: int) -> Any:
        """The hook's reply under the client's environment, directory and /proc/self; None when over REQUEST_SECONDS."""
        import tempfile

        global _peer_pid, _timed_out

        os.environ.clear()
        os.environb.update(environ)
        tempfile.tempdir = None  # tempfile caches the temp dir it found: find it again under this environment
        cwd_text = os.fsdecode(cwd)
        try:
            os.chdir(cwd_text)
        except (OSError, ValueError):
            os.chdir("/")
        _timed_out = False
        _peer_pid = pid
        signal.setitimer(signal.ITIMER_REAL, REQUEST_SECONDS)
        try:
            reply = self.hook_reply(argv, stdin, cwd=cwd_text, pm=self.pm)
        except RequestTimeout:
            reply = None
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            _peer_pid = None
            os.chdir("/")
        return None if _timed_out else reply

    def close(self) -> None:
        if self.listener is not None and self.socket_ino is not None:
            if self.still_ours():
                try:
                    os.unlink(self.key + ".sock", dir_fd=self.dir_fd)
                except OSError:
                    pass
            self.listener.close()


#: Paths that mean something else in the daemon than in the hook process: /proc/self, and the descriptors.
_PROCESS_PATHS = ("/proc/", "/dev/fd", "/dev/std")


def _names_proc(stdin: bytes, environ: dict[bytes, bytes]) -> bool:
    """Does the payload or the environment name a per-process path? Such calls are judged in the hook process
    itself: /proc/self or /dev/fd/N in the daemon would be the daemon's entries, not the hook's. The payload is
    read as JSON (where `\\/proc\\/` spells `/proc/`); one that is not JSON names no path (it is refused as such)."""
    import json

    if any(marker.encode() in value for marker in _PROCESS_PATHS for value in environ.values()):
        return True
    try:
        payload = json.loads(stdin)
    except ValueError:
        return False
    stack = [payload]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if any(marker in item for marker in _PROCESS_PATHS):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _try_lock(dir_fd: int, name: str, deadline: float) -> int | None:
    """An exclusive flock on `name` in the directory, tried until `deadline` (monotonic); its descriptor, or None."""
    import fcntl
    import time

    fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600, dir_fd=dir_fd)
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except OSError:
            if time.monotonic() >= deadline:
                os.close(fd)
                return None
            time.sleep(0.05)


def _read_all(conn: socket.socket) -> bytes:
    chunks = []
    size = 0
    while True:
        chunk = conn.recv(1 << 20)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > client.MAX_REQUEST:
            raise ValueError("request too large")
        chunks.append(chunk)


def _send(conn: socket.socket, data: bytes) -> None:
    try:
        conn.sendall(data)
    except OSError:
        pass  # the client gave up; it judges in-process


def idle_seconds(environ: dict[str, str] | os._Environ[str]) -> float:
    try:
        value = float(environ.get(client.IDLE_VAR, ""))
    except ValueError:
        return client.IDLE_SECONDS
    return value if value > 0 else client.IDLE_SECONDS


def main(argv: list[str] | None = None) -> int:
    """`python -m worktree_guard.daemon --key KEY --package-dir DIR` (as `client.start_daemon` runs it)."""
    args = sys.argv[1:] if argv is None else argv
    options = dict(zip(args[::2], args[1::2]))
    os.chdir("/")
    os.umask(0o077)
    # Serve only the environment and the package the client computed the key for.
    if options.get("--key") != client.daemon_key(os.environ) or options.get("--package-dir") != client.PACKAGE_DIR:
        return 2
    try:
        daemon = Daemon(options["--key"], idle_seconds(os.environ))
    except NotPrivate:
        return 2
    if not daemon.lock(REPLACE_WAIT_SECONDS if options.get("--replace") == "1" else 0.0):
        return 0  # another daemon serves (or is starting for) this key, or the user runs MAX_DAEMONS already
    os.readlink = _readlink_for_peer  # type: ignore[assignment]  # see _readlink_for_peer
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))  # leave through `close`: the socket goes
    try:
        daemon.warm()
        daemon.listen()
        daemon.serve()
    finally:
        daemon.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
