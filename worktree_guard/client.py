"""The daemon's wire: where a worktree-guard daemon lives, which one serves a call, and how to ask it.

`worktree-guard hook` runs as a fresh process before every tool call (`hook_process`). Importing the guard
(pydantic, pluggy, bashlex) costs more than the judgement itself, so a daemon (`worktree_guard.daemon`) keeps
them loaded and this module only forwards the call to it. It imports built-in modules only — `posix`, `sys`,
`_socket`, `_sha256`; not even `os`, which costs 1.5 ms — so that `python -S -P …/worktree_guard/fast_hook.py`
costs little more than the interpreter's start.

The daemon is an optimisation and never an authority on its own failure. Anything short of a complete,
well-formed reply to this very request — no daemon, a socket directory that is not private, a server that
is not this user's, a refused connection, a timeout, a short or garbled reply, a daemon that declines
because its code is stale — raises NoDaemon, and the hook judges the call in its own process (which fails
closed itself). The call that finds no daemon, or one that does not answer, also makes sure the next call
has a working one: it starts one, after killing a daemon that is proven to be this user's own and stopped,
wedged or orphaned (its socket replaced), or after moving a socket directory that is no longer private aside.

Which daemon serves a call: one per user and per loaded code — the interpreter, its start-up flags and
encodings, this package, the user's site-packages (`daemon_key`). HOME, TMPDIR, XDG_*, the settings'
variables and everything else travel with each request, and the daemon judges under them. The sockets live
in `/run/user/<uid>/worktree-guard`, else `/tmp/worktree-guard-<uid>` (private, checked before each use);
at most MAX_DAEMONS run per user there. Set `WT_GUARD_DAEMON=0` to judge every call in-process.
"""

import posix
import sys
import time  # built in, and loaded at start-up already

from .private_dir import NotPrivate, open_private_dir

TYPE_CHECKING = False  # `typing` is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Mapping

#: Disables the daemon when set to 0/false/no/off. Not a WORKTREE_GUARD_* name: those are settings (SPEC §8).
DISABLE_VAR = "WT_GUARD_DAEMON"
#: Seconds a daemon waits for a request before it exits (default IDLE_SECONDS).
IDLE_VAR = "WT_GUARD_DAEMON_IDLE"
IDLE_SECONDS = 900.0
#: Idle seconds after which a daemon exits while other daemons of the user run too (at most a fifth of its idle).
CROWDED_IDLE_SECONDS = 60.0
#: Daemons one user may run at once (one per interpreter, package and start-up flags in use); past it, calls
#: are judged in-process.
MAX_DAEMONS = 4

PROTOCOL = 3
REQUEST_MAGIC = b"WGQ1"
REPLY_MAGIC = b"WGR1"
END_MAGIC = b"WGEND"
NONCE_BYTES = 16
STATUS_SERVED = 0
STATUS_DECLINED = 1
#: Seconds the client waits for a sign of life: a daemon that takes no call in that time (its heartbeat, the
#: count of calls accepted, stands still) is unresponsive and replaced. A healthy one takes a call at least
#: every daemon.REQUEST_SECONDS (its own limit per call); see docs/performance.md, "Waiting for the daemon",
#: for the measured p99 under load this is chosen from.
REPLY_TIMEOUT = 2.0
#: Age of the hook process (seconds since it started) up to which it waits for a busy daemon; then it judges
#: the call itself, with TOTAL_SECONDS - DAEMON_WAIT_SECONDS left.
DAEMON_WAIT_SECONDS = 10.0
#: Everything a hook call may take from its process's start (interpreter and imports included), daemon and
#: in-process fallback together: under Claude Code's 30 s hook timeout as installed, past which the call
#: would go through unjudged. The in-process watchdog refuses the call ANSWER_MARGIN before it.
TOTAL_SECONDS = 25.0
ANSWER_MARGIN = 1.5
#: Largest request the daemon reads: the hook refuses stdin over 16 MiB, plus room for the environment.
MAX_REQUEST = 24 * 1024 * 1024
#: Interpreter start-up variables: they change which code a daemon loads (PYTHONPATH, PYTHONHOME, …).
KEY_PREFIX = "PYTHON"

PACKAGE_DIR = __file__.rpartition("/")[0]  # absolute: imported from an absolute sys.path entry


#: When this module was imported: without /proc, the process's age is at least the time since then.
_IMPORTED = time.monotonic()


def process_age() -> float:
    """Seconds since this process started (the kernel's start time, so the interpreter's start and imports count)."""
    try:
        fd = posix.open("/proc/self/stat", posix.O_RDONLY | posix.O_CLOEXEC)
        try:
            stat = posix.read(fd, 4096)
        finally:
            posix.close(fd)
        started = int(stat.rpartition(b")")[2].split()[19]) / posix.sysconf("SC_CLK_TCK")
        return max(0.0, time.clock_gettime(time.CLOCK_BOOTTIME) - started)
    except (OSError, ValueError, IndexError, AttributeError):
        return time.monotonic() - _IMPORTED  # no /proc: the time since the hook process loaded this module


class NoDaemon(Exception):
    """The call cannot be handed to a daemon; the message says why (for tests and diagnostics)."""


class DaemonTimeout(NoDaemon):
    """The daemon took the call but gave no answer in time."""


# --- where a daemon lives ------------------------------------------------------------------------


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def current_environ() -> "dict[str, str]":
    """This process's environment: `os.environ` once `os` is loaded (it may have been changed), else `posix`'s."""
    os = sys.modules.get("os")
    if os is not None:
        return dict(os.environ)
    encoding, errors = sys.getfilesystemencoding(), sys.getfilesystemencodeerrors()
    return {k.decode(encoding, errors): v.decode(encoding, errors) for k, v in posix.environ.items()}


def _is_dir(path: str) -> bool:
    try:
        return (posix.stat(path).st_mode & 0o170000) == 0o040000
    except (OSError, ValueError):
        return False


def _exists(path: str) -> bool:
    try:
        posix.stat(path)
    except (OSError, ValueError):
        return False
    return True


def user_site(environ: "Mapping[str, str]") -> str | None:
    """The user's site-packages when it exists and this interpreter would load it (outside a venv)."""
    if environ.get("PYTHONNOUSERSITE") or _exists(sys.executable.rpartition("/")[0].rpartition("/")[0] + "/pyvenv.cfg"):
        return None  # a venv (unless made with --system-site-packages) loads none; under -S sys.prefix does not say
    base = environ.get("PYTHONUSERBASE") or ((environ.get("HOME") or "").rstrip("/") + "/.local")
    path = f"{base}/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages"
    return path if path.startswith("/") and _is_dir(path) else None


def daemon_key(environ: "Mapping[str, str]") -> str:
    """The name of the daemon that serves this user and this loaded code.

    What changes the code a daemon runs: the user; the interpreter (its directory — a venv is its bin/ — and
    version) with its start-up variables (PYTHON*) and encodings; this copy of the package; the user's
    site-packages where the interpreter loads them. Nothing else: HOME, TMPDIR, XDG_*, the settings'
    variables travel with every request and the daemon judges under them.
    """
    from _locale import CODESET, nl_langinfo
    from _sha256 import sha256

    digest = sha256()
    parts = [
        f"protocol {PROTOCOL}",
        f"uid {posix.geteuid()}",
        sys.executable.rpartition("/")[0],
        sys.version,
        PACKAGE_DIR,
        f"encodings {sys.getfilesystemencoding()} {sys.getfilesystemencodeerrors()} utf8={sys.flags.utf8_mode} {nl_langinfo(CODESET)}",
        f"user site {user_site(environ)}",
    ]
    parts += [f"{name}={environ[name]}" for name in sorted(environ) if name.startswith(KEY_PREFIX)]
    for part in parts:
        digest.update(_encode(part) + b"\0")
    return digest.hexdigest()[:32]


#: Overrides where the daemons' sockets and locks live (tests, unusual set-ups): the cap of MAX_DAEMONS is per directory.
DIR_VAR = "WT_GUARD_DAEMON_DIR"
#: The parent of each user's runtime directory (systemd-logind makes `/run/user/<uid>`, 0700).
USER_RUNTIME_DIRS = "/run/user"


def socket_dir(environ: "Mapping[str, str]") -> str:
    """The private directory that holds the daemons' sockets and locks: one per user, whatever the environment.

    `/run/user/<uid>/worktree-guard` when the user's runtime directory exists and is theirs, else
    `/tmp/worktree-guard-<uid>`. Not `$XDG_RUNTIME_DIR` (nor HOME): an environment that varies must not multiply
    the user's daemons past the cap, which counts per directory. WT_GUARD_DAEMON_DIR names another one."""
    explicit = environ.get(DIR_VAR) or ""
    if explicit.startswith("/"):
        return explicit.rstrip("/") or "/"
    uid = posix.geteuid()
    runtime = f"{USER_RUNTIME_DIRS}/{uid}"
    try:
        st = posix.stat(runtime)
        if (st.st_mode & 0o170000) == 0o040000 and st.st_uid == uid:
            return runtime + "/worktree-guard"
    except (OSError, ValueError):
        pass
    return f"/tmp/worktree-guard-{uid}"


def daemon_disabled(environ: "Mapping[str, str]") -> bool:
    return (environ.get(DISABLE_VAR) or "").strip().lower() in ("0", "false", "no", "off")


def address(dir_fd: int, directory: str, name: str) -> str:
    """The socket address of `name` in the already-checked directory: through the open descriptor on Linux,
    so that the directory checked is the one connected to, and any path length fits the 108-byte limit."""
    if sys.platform.startswith("linux"):
        return f"/proc/self/fd/{dir_fd}/{name}"
    return f"{directory}/{name}"


# --- the wire format ------------------------------------------------------------------------------


def _field(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def _fields(data: bytes, start: int, count: int) -> tuple[list[bytes], int]:
    """`count` length-prefixed fields from `data` at `start`; ValueError when the data is short."""
    out = []
    for _ in range(count):
        if start + 4 > len(data):
            raise ValueError("short field header")
        size = int.from_bytes(data[start : start + 4], "big")
        start += 4
        if start + size > len(data):
            raise ValueError("short field")
        out.append(data[start : start + size])
        start += size
    return out, start


def encode_request(nonce: bytes, key: str, argv: list[str], cwd: bytes, environ: "Mapping[bytes, bytes]", stdin: bytes) -> bytes:
    """One request: magic, nonce, then key, argv, cwd, environment and stdin as length-prefixed fields."""
    env = b"\0".join(k + b"=" + v for k, v in environ.items())
    args = b"\0".join(_encode(a) for a in argv)
    return REQUEST_MAGIC + nonce + _field(key.encode()) + _field(args) + _field(cwd) + _field(env) + _field(stdin)


def decode_request(data: bytes) -> tuple[bytes, str, list[str], bytes, dict[bytes, bytes], bytes]:
    """(nonce, key, argv, cwd, environment, stdin) of a request; ValueError when it is malformed."""
    if data[:4] != REQUEST_MAGIC or len(data) < 4 + NONCE_BYTES:
        raise ValueError("not a worktree-guard request")
    nonce = data[4 : 4 + NONCE_BYTES]
    (key, args, cwd, env, stdin), end = _fields(data, 4 + NONCE_BYTES, 5)
    if end != len(data):
        raise ValueError("trailing bytes after the request")
    environ: dict[bytes, bytes] = {}
    for entry in env.split(b"\0") if env else []:
        name, sep, value = entry.partition(b"=")
        if not sep or not name:
            raise ValueError("malformed environment entry")
        environ[name] = value
    argv = [a.decode("utf-8", "surrogateescape") for a in args.split(b"\0")] if args else []
    return nonce, key.decode(), argv, cwd, environ, stdin


def encode_reply(nonce: bytes, status: int, exit_code: int, stdout: str, stderr: str, lines: "list[tuple[str, bytes]] | None" = None) -> bytes:
    """One reply: magic, the request's nonce, status, exit code, stdout, stderr, the log lines the hook process
    appends when it takes the reply (effects.append_line: path and line, alternating), end marker."""
    out = stdout.encode("utf-8", "surrogatepass")
    err = stderr.encode("utf-8", "surrogatepass")
    logs = b"".join(_field(_encode(path)) + _field(line) for path, line in lines or [])
    return REPLY_MAGIC + nonce + bytes((status, exit_code & 0xFF)) + _field(out) + _field(err) + _field(logs) + END_MAGIC


def decode_reply(data: bytes, nonce: bytes) -> tuple[int, int, str, str, list[tuple[str, bytes]]]:
    """(status, exit code, stdout, stderr, log lines) of a complete reply to the request with `nonce`; ValueError otherwise."""
    head = 4 + NONCE_BYTES + 2
    if len(data) < head or data[:4] != REPLY_MAGIC:
        raise ValueError("not a worktree-guard reply")
    if data[4 : 4 + NONCE_BYTES] != nonce:
        raise ValueError("reply to another request")
    status, exit_code = data[4 + NONCE_BYTES], data[4 + NONCE_BYTES + 1]
    if status not in (STATUS_SERVED, STATUS_DECLINED):
        raise ValueError(f"unknown reply status {status}")
    (out, err, logs), end = _fields(data, head, 3)
    if data[end:] != END_MAGIC:
        raise ValueError("reply without its end marker")
    lines = []
    start = 0
    while start < len(logs):
        (path, line), start = _fields(logs, start, 2)
        lines.append((path.decode("utf-8", "surrogateescape"), line))
    return status, exit_code, out.decode("utf-8", "surrogatepass"), err.decode("utf-8", "surrogatepass"), lines


# --- talking to the daemon -----------------------------------------------------------------------


def ask_daemon(argv: list[str], stdin: bytes, *, timeout: float = REPLY_TIMEOUT, spawn: bool = True) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) as the daemon judged the call; NoDaemon when it did not.

    With `spawn`, a call that finds no working daemon makes sure the next call has one (see `_make_way`).
    """
    environ = current_environ()
    if daemon_disabled(environ):
        raise NoDaemon(f"{DISABLE_VAR} disables the daemon")
    import _socket  # after the check: a call judged in-process by choice does not load it (≈ 0.3 ms)

    if not hasattr(_socket, "SO_PEERCRED"):
        raise NoDaemon("this system cannot tell the daemon who is connecting (no SO_PEERCRED)")
    directory = socket_dir(environ)
    key = daemon_key(environ)
    try:
        dir_fd = open_private_dir(directory)
    except NotPrivate as e:
        if spawn and quarantine(directory):
            _make_way(directory, key, environ, None)
        raise NoDaemon(str(e)) from None
    try:
        before = lock_record(dir_fd, key)
        try:
            cwd = posix.getcwdb()
        except OSError:
            cwd = b""  # the daemon then fails closed where this process would
        nonce = posix.urandom(NONCE_BYTES)
        request = encode_request(nonce, key, argv, cwd, {_encode(k): _encode(v) for k, v in environ.items()}, stdin)
        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        try:
            sock.settimeout(timeout)
            try:
                sock.connect(address(dir_fd, directory, key + ".sock"))
            except (FileNotFoundError, ConnectionRefusedError) as e:
                if spawn:
                    _make_way(directory, key, environ, None)
                raise NoDaemon(f"no daemon is listening ({e.strerror})") from None
            try:
                _check_peer(sock, dir_fd, key)
            except NoDaemon:
                if spawn:
                    _make_way(directory, key, environ, None)  # another process's socket: a daemon replaces it
                raise
            posix.close(dir_fd)  # not open while the daemon judges (it sees this process's descriptors)
            dir_fd = -1
            sock.sendall(request)
            sock.shutdown(_socket.SHUT_WR)
            chunks = _receive(sock, directory, key, before, timeout)
        except TimeoutError:
            if spawn:
                _make_way(directory, key, environ, before)
            raise DaemonTimeout(f"the daemon took no call for {timeout:g} s") from None
        except OSError as e:
            raise NoDaemon(f"the daemon did not answer ({type(e).__name__}: {e})") from None
        finally:
            sock.close()
    finally:
        if dir_fd >= 0:
            posix.close(dir_fd)
    try:
        status, exit_code, out, err, lines = decode_reply(b"".join(chunks), nonce)
    except ValueError as e:
        raise NoDaemon(f"the daemon's reply is unusable ({e})") from None
    if status != STATUS_SERVED:
        raise NoDaemon("the daemon declined the call")
    from .effects import write_line

    for path, line in lines:  # this process takes the daemon's answer: its audit lines are written now, once
        try:
            write_line(path, line)
        except OSError as e:
            raise NoDaemon(f"the audit line cannot be written here ({e})") from None  # judged in-process: as there
    return exit_code, out, err


def _receive(sock: object, directory: str, key: str, before: "tuple[int, int, int] | None", timeout: float) -> list[bytes]:
    """The reply's bytes. TimeoutError when the daemon takes no call for `timeout` seconds while this one
    waits (it is hung), or when this process is DAEMON_WAIT_SECONDS old (the daemon is too slow to be worth
    it); a busy daemon that keeps taking calls is waited for."""
    chunks = []
    while True:
        try:
            chunk = sock.recv(65536)  # type: ignore[attr-defined]
        except TimeoutError:
            if process_age() + timeout > DAEMON_WAIT_SECONDS:
                raise
            try:
                dir_fd = open_private_dir(directory)
            except NotPrivate:
                raise TimeoutError from None
            try:
                now = lock_record(dir_fd, key)
            finally:
                posix.close(dir_fd)
            if before is None or now is None or now[0] != before[0] or now[2] == before[2]:
                raise  # no call taken in `timeout` seconds: hung (or gone)
            before = now
            continue
        if not chunk:
            return chunks
        chunks.append(chunk)


def _make_way(directory: str, key: str, environ: "Mapping[str, str]", before: "tuple[int, int, int] | None") -> None:
    """After a failed call: make sure the next call finds a working daemon for `key`. Never raises.

    No daemon holds the key's lock: start one. The holder is this user's daemon (proven: it holds the lock,
    runs as this user, and its command line is `-m worktree_guard.daemon --key KEY`) and is unresponsive — it
    is stopped, took no queued call while this one waited (`before` is the lock record read before connecting),
    or its socket is no longer the one it bound — : kill it and start another. A holder still starting up (no
    socket yet) or busy serving others is left alone.
    """
    try:
        dir_fd = open_private_dir(directory)
    except NotPrivate:
        return
    try:
        record = lock_record(dir_fd, key)
        if record is None:
            start_daemon(dir_fd, key, environ)
            return
        pid, socket_ino, accepted = record
        if socket_ino == 0:
            return  # starting: it binds its socket once warm
        try:
            current = posix.stat(key + ".sock", dir_fd=dir_fd, follow_symlinks=False).st_ino
        except OSError:
            current = None
        orphaned = current != socket_ino
        hung = before is not None and before[0] == pid and before[2] == accepted
        if (orphaned or hung or _stopped(pid)) and _kill_own_daemon(pid, key):
            start_daemon(dir_fd, key, environ, replace=True)
    except Exception:  # noqa: BLE001 — best effort: this call is judged in-process whatever happens here
        pass
    finally:
        posix.close(dir_fd)


def _kill_own_daemon(pid: int, key: str) -> bool:
    """SIGKILL `pid` if it is this user's daemon for `key` (a stopped process cannot act on anything gentler).

    Through a pidfd opened before the checks, which names that very process: if it died after the checks and
    its pid was reused, the signal goes nowhere instead of to the newcomer. The checks read /proc/<pid>, so the
    process must still live after them (then the pid was not reused while they ran)."""
    try:
        pidfd = posix.pidfd_open(pid)
    except (AttributeError, OSError):
        pidfd = -1  # not Linux >= 5.3: the pid, with the gap between check and kill
    try:
        if not _own_daemon(pid, key):
            return False
        if pidfd < 0:
            posix.kill(pid, 9)
            return True
        import _signal

        _signal.pidfd_send_signal(pidfd, 0)  # raises ProcessLookupError when it died during the checks
        _signal.pidfd_send_signal(pidfd, 9)
        return True
    except OSError:
        return False
    finally:
        if pidfd >= 0:
            posix.close(pidfd)


def _read_proc(pid: int, name: str) -> bytes:
    fd = posix.open(f"/proc/{pid}/{name}", posix.O_RDONLY | posix.O_CLOEXEC)
    try:
        return posix.read(fd, 1 << 16)
    finally:
        posix.close(fd)


def _stopped(pid: int) -> bool:
    """Is the process stopped (SIGSTOP, a debugger)? Its state in /proc/<pid>/stat is T or t."""
    try:
        stat = _read_proc(pid, "stat")
    except OSError:
        return False
    return stat.rpartition(b")")[2].split()[:1] in ([b"T"], [b"t"])


def _own_daemon(pid: int, key: str) -> bool:
    """Is `pid` this user's worktree-guard daemon for `key`? Its real and effective uid, and its command line."""
    try:
        status = _read_proc(pid, "status")
    except OSError:
        return False
    uids = next((line.split()[1:3] for line in status.splitlines() if line.startswith(b"Uid:")), [])
    me = str(posix.geteuid()).encode()
    return uids == [me, me] and _runs_the_daemon(pid, key)


def quarantine(directory: str) -> bool:
    """Move a socket directory that is no longer private aside, when it is this user's own; True if moved.

    Nothing in it is trusted any more, so it is not repaired: it is renamed (and emptied of plain files when
    that is possible) and a fresh private directory takes its place. One that belongs to another user (or
    that the sticky temp dir does not let us rename) stays, and calls are judged in-process.
    """
    try:
        st = posix.lstat(directory)
    except OSError:
        return False
    if st.st_uid != posix.geteuid():
        return False
    aside = f"{directory}.untrusted-{posix.getpid()}-{posix.urandom(4).hex()}"
    try:
        posix.rename(directory, aside)
    except OSError:
        return False
    try:
        fd = posix.open(aside, posix.O_RDONLY | posix.O_DIRECTORY | posix.O_NOFOLLOW | posix.O_CLOEXEC)
    except OSError:
        try:
            posix.unlink(aside)  # a symlink or a file
        except OSError:
            pass
        return True
    try:
        for name in posix.listdir(fd):
            try:
                posix.unlink(name, dir_fd=fd)
            except OSError:
                pass
    finally:
        posix.close(fd)
    try:
        posix.rmdir(aside)
    except OSError:
        pass
    return True


def daemon_command(key: str) -> list[str]:
    """The daemon's arguments after the interpreter, up to its key: what a process must run to be believed one.

    -P: the agent's cwd must not come first on sys.path (a `worktree_guard/` there would shadow the guard).
    -X utf8: this process's UTF-8 mode, which is part of the key. Python turns it on by itself in the C or
    POSIX locale and sets LC_CTYPE=C.UTF-8 for its children (PEP 538, 540), so a daemon started without the
    flag would run in another mode, compute another key and exit: no daemon ever in CI, cron or containers."""
    return ["-X", f"utf8={sys.flags.utf8_mode}", "-P", "-m", "worktree_guard.daemon", "--key", key]


def _runs_the_daemon(pid: int, key: str) -> bool:
    """Does `pid` run this interpreter (its executable is sys.executable's file) with the daemon's command line?"""
    try:
        cmdline = _read_proc(pid, "cmdline").split(b"\0")
        exe = posix.stat(f"/proc/{pid}/exe")
        mine = posix.stat(sys.executable)
    except OSError:
        return False
    expected = [_encode(arg) for arg in daemon_command(key)]
    return cmdline[1 : 1 + len(expected)] == expected and (exe.st_dev, exe.st_ino) == (mine.st_dev, mine.st_ino)


def _check_peer(sock: object, dir_fd: int, key: str) -> int:
    """The process behind the socket must be this user's daemon for this key (Linux: SO_PEERCRED); its pid.

    Its uid must be ours, and its pid the one that holds the key's lock and runs `-m worktree_guard.daemon
    --key KEY`: a socket some other process of the user bound in our place is not believed. (A process of
    the same user can still do much else; this is a check, not a security boundary.)
    """
    import _socket

    cred = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)  # type: ignore[attr-defined]  # struct ucred
    pid = int.from_bytes(cred[0:4], sys.byteorder)
    uid = int.from_bytes(cred[4:8], sys.byteorder)
    if uid != posix.geteuid():
        raise NoDaemon(f"the daemon runs as uid {uid}, not as this user")
    record = lock_record(dir_fd, key)
    if record is None or record[0] != pid:
        raise NoDaemon(f"the process behind the socket (pid {pid}) does not hold the daemon's lock")
    if not _exists("/proc/self/cmdline"):
        return pid  # no /proc: the lock holder is what there is to check
    if not _runs_the_daemon(pid, key):
        raise NoDaemon(f"the process behind the socket (pid {pid}) is not a worktree-guard daemon run by this interpreter")
    return pid


def lock_record(dir_fd: int, key: str) -> "tuple[int, int, int] | None":
    """(pid, socket inode, calls accepted) from the key's lock file while a daemon holds the lock; None when free.

    The daemon writes its pid when it takes the lock, its socket's inode once it listens (0 before), and the
    number of calls it has accepted after each accept: the heartbeat that tells busy from hung.
    """
    import fcntl

    try:
        fd = posix.open(key + ".lock", posix.O_RDONLY | posix.O_NOFOLLOW | posix.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            fields = posix.read(fd, 128).split()
            numbers = [int(f) for f in fields[:3] if f.isdigit()]
            if not numbers:
                return None
            numbers += [0] * (3 - len(numbers))
            return numbers[0], numbers[1], numbers[2]
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None  # nobody holds it
    finally:
        posix.close(fd)


def _slots_free(dir_fd: int) -> bool:
    """Is one of the MAX_DAEMONS slots of this directory free (each running daemon holds one slot lock)?"""
    import fcntl

    for slot in range(MAX_DAEMONS):
        try:
            fd = posix.open(f"slot-{slot}.lock", posix.O_RDONLY | posix.O_NOFOLLOW | posix.O_CLOEXEC, dir_fd=dir_fd)
        except FileNotFoundError:
            return True
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            return True
        except OSError:
            continue
        finally:
            posix.close(fd)
    return False


def start_daemon(dir_fd: int, key: str, environ: "Mapping[str, str]", *, replace: bool = False) -> bool:
    """Start the daemon for `key`, detached; True if started.

    Not when one holds the key's lock (running or starting) or every slot is taken (MAX_DAEMONS), unless
    `replace`: then a daemon just killed still holds both for a moment, and the new one waits for them.
    """
    import fcntl

    if not replace:
        try:
            lock = posix.open(key + ".lock", posix.O_RDWR | posix.O_CREAT | posix.O_NOFOLLOW | posix.O_CLOEXEC, 0o600, dir_fd=dir_fd)
        except OSError:
            return False
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        finally:
            posix.close(lock)  # free: the daemon takes it; a second starter loses the race there and exits
        if not _slots_free(dir_fd):
            return False
    argv = [sys.executable, *daemon_command(key), "--package-dir", PACKAGE_DIR, "--replace", "1" if replace else "0"]
    null = [(fd, mode) for fd, mode in ((0, posix.O_RDONLY), (1, posix.O_WRONLY), (2, posix.O_WRONLY))]
    actions = [(posix.POSIX_SPAWN_OPEN, fd, "/dev/null", mode, 0) for fd, mode in null]
    try:
        # Its own session, and never the hook's stdout: Claude Code reads that pipe to its end.
        posix.posix_spawn(sys.executable, argv, dict(environ), file_actions=actions, setsid=True)
    except OSError:
        return False
    return True
