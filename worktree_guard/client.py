"""The hook's fast path: hand the payload to a warm worktree-guard daemon, else judge it in this process.

`worktree-guard hook` runs as a fresh process before every tool call. Importing the guard (pydantic,
pluggy, bashlex) costs far more than the judgement itself, so a daemon (`worktree_guard.daemon`) keeps them
loaded and this module only forwards the call to it. It imports built-in modules only — `posix`, `sys`,
`_socket`, `_sha256`; not even `os`, which costs 1.5 ms — so that `python -S -P …/worktree_guard/fast_hook.py`
costs little more than the interpreter's start (the console scripts `worktree-guard hook` and
`worktree-guard-hook` reach the same code).

The daemon is an optimisation and never an authority on its own failure. Anything short of a complete,
well-formed reply to this very request — no daemon, a socket directory that is not private, a server that
is not this user's, a refused connection, a timeout, a short or garbled reply, a daemon that declines
because its code is stale — makes the client judge the call here, exactly as without a daemon (which fails
closed itself). When no daemon is running the client starts one, detached, and judges this call here.

Which daemon serves which environment: the socket's name is a hash of the interpreter, this package's
location and every environment variable that the guard or Python reads at start-up (`KEY_VARS`,
`KEY_PREFIXES`); a different environment gets a different daemon. The complete environment and the working
directory travel with each request and the daemon judges under them. Set `WT_GUARD_DAEMON=0` to judge every
call in-process.
"""

import posix
import sys

from .private_dir import NotPrivate, cache_root, open_private_dir

TYPE_CHECKING = False  # `typing` is not imported at run time
if TYPE_CHECKING:
    from collections.abc import Mapping

#: Disables the daemon when set to 0/false/no/off. Not a WORKTREE_GUARD_* name: those are settings (SPEC §8).
DISABLE_VAR = "WT_GUARD_DAEMON"
#: Seconds a daemon waits for a request before it exits (default IDLE_SECONDS).
IDLE_VAR = "WT_GUARD_DAEMON_IDLE"
IDLE_SECONDS = 900.0

PROTOCOL = 1
REQUEST_MAGIC = b"WGQ1"
REPLY_MAGIC = b"WGR1"
END_MAGIC = b"WGEND"
NONCE_BYTES = 16
STATUS_SERVED = 0
STATUS_DECLINED = 1
#: Seconds the client waits for the whole reply; the daemon gives up on a request sooner (daemon.REQUEST_SECONDS).
REPLY_TIMEOUT = 10.0
#: Everything a hook call may take, daemon and in-process fallback together: under Claude Code's 30 s hook
#: timeout as installed, past which the call would go through unjudged.
TOTAL_SECONDS = 25.0
#: Largest request the daemon reads: the hook refuses stdin over 16 MiB, plus room for the environment.
MAX_REQUEST = 24 * 1024 * 1024

#: Environment variables that select a daemon (besides those with KEY_PREFIXES): what the guard reads from
#: its environment (HOME, TMPDIR, CDPATH, XDG_CONFIG_HOME, CLAUDE_CONFIG_DIR, …) and what Python fixes at start.
KEY_VARS = (
    "HOME",
    "TMPDIR",
    "TEMP",
    "TMP",
    "CDPATH",
    "XDG_CONFIG_HOME",
    "XDG_CACHE_HOME",
    "CLAUDE_CONFIG_DIR",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
)
KEY_PREFIXES = ("WORKTREE_GUARD_", "WT_GUARD_", "PYTHON")

PACKAGE_DIR = __file__.rpartition("/")[0]  # absolute: imported from an absolute sys.path entry


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


def daemon_key(environ: "Mapping[str, str]") -> str:
    """The name of the daemon that serves this interpreter, this package and this environment."""
    from _sha256 import sha256

    digest = sha256()
    # The interpreter: its directory (a venv is its bin/; python and python3 there are one interpreter, and
    # sys.prefix is not the venv under -S) and version; and which copy of this package.
    for part in (f"protocol {PROTOCOL}", sys.executable.rpartition("/")[0], sys.version, PACKAGE_DIR):
        digest.update(_encode(part) + b"\0")
    for name in sorted(environ):
        if name in KEY_VARS or name.startswith(KEY_PREFIXES):
            digest.update(_encode(f"{name}={environ[name]}") + b"\0")
    return digest.hexdigest()[:32]


def socket_dir(environ: "Mapping[str, str]") -> str:
    """The private directory that holds the daemons' sockets and locks."""
    return cache_root(environ) + "/daemon"


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


def encode_reply(nonce: bytes, status: int, exit_code: int, stdout: str, stderr: str) -> bytes:
    """One reply: magic, the request's nonce, status, exit code, stdout, stderr, end marker."""
    out = stdout.encode("utf-8", "surrogatepass")
    err = stderr.encode("utf-8", "surrogatepass")
    return REPLY_MAGIC + nonce + bytes((status, exit_code & 0xFF)) + _field(out) + _field(err) + END_MAGIC


def decode_reply(data: bytes, nonce: bytes) -> tuple[int, int, str, str]:
    """(status, exit code, stdout, stderr) of a complete reply to the request with `nonce`; ValueError otherwise."""
    head = 4 + NONCE_BYTES + 2
    if len(data) < head or data[:4] != REPLY_MAGIC:
        raise ValueError("not a worktree-guard reply")
    if data[4 : 4 + NONCE_BYTES] != nonce:
        raise ValueError("reply to another request")
    status, exit_code = data[4 + NONCE_BYTES], data[4 + NONCE_BYTES + 1]
    if status not in (STATUS_SERVED, STATUS_DECLINED):
        raise ValueError(f"unknown reply status {status}")
    (out, err), end = _fields(data, head, 2)
    if data[end:] != END_MAGIC:
        raise ValueError("reply without its end marker")
    return status, exit_code, out.decode("utf-8", "surrogatepass"), err.decode("utf-8", "surrogatepass")


# --- talking to the daemon -----------------------------------------------------------------------


def ask_daemon(argv: list[str], stdin: bytes, *, timeout: float = REPLY_TIMEOUT, spawn: bool = True) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) as the daemon judged the call; NoDaemon when it did not (start it if absent)."""
    import _socket

    environ = current_environ()
    if daemon_disabled(environ):
        raise NoDaemon(f"{DISABLE_VAR} disables the daemon")
    if not hasattr(_socket, "SO_PEERCRED"):
        raise NoDaemon("this system cannot tell the daemon who is connecting (no SO_PEERCRED)")
    directory = socket_dir(environ)
    try:
        dir_fd = open_private_dir(directory)
    except NotPrivate as e:
        raise NoDaemon(str(e)) from None
    try:
        key = daemon_key(environ)
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
                    start_daemon(dir_fd, key, environ)
                raise NoDaemon(f"no daemon is listening ({e.strerror})") from None
            _check_peer(sock, dir_fd, key)
            posix.close(dir_fd)  # not open while the daemon judges (it sees this process's descriptors)
            dir_fd = -1
            sock.sendall(request)
            sock.shutdown(_socket.SHUT_WR)
            chunks = []
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
        except TimeoutError:
            raise DaemonTimeout(f"the daemon did not answer within {timeout:g} s") from None
        except OSError as e:
            raise NoDaemon(f"the daemon did not answer ({type(e).__name__}: {e})") from None
        finally:
            sock.close()
    finally:
        if dir_fd >= 0:
            posix.close(dir_fd)
    try:
        status, exit_code, out, err = decode_reply(b"".join(chunks), nonce)
    except ValueError as e:
        raise NoDaemon(f"the daemon's reply is unusable ({e})") from None
    if status != STATUS_SERVED:
        raise NoDaemon("the daemon declined the call")
    return exit_code, out, err


def _check_peer(sock: object, dir_fd: int, key: str) -> None:
    """The process behind the socket must be this user's daemon for this key (Linux: SO_PEERCRED).

    Its uid must be ours, and its pid the one that holds the key's lock and runs `-m worktree_guard.daemon
    --key KEY`: a socket some other process of the user bound in our place is not believed. (A process of
    the same user can still do much else; this is a check, not a security boundary.)
    """
    import _socket

    option = getattr(_socket, "SO_PEERCRED", None)
    if option is None:
        return  # the private directory is the guarantee there
    cred = sock.getsockopt(_socket.SOL_SOCKET, option, 12)  # type: ignore[attr-defined]  # struct ucred
    pid = int.from_bytes(cred[0:4], sys.byteorder)
    uid = int.from_bytes(cred[4:8], sys.byteorder)
    if uid != posix.geteuid():
        raise NoDaemon(f"the daemon runs as uid {uid}, not as this user")
    if _lock_holder(dir_fd, key) != pid:
        raise NoDaemon(f"the process behind the socket (pid {pid}) does not hold the daemon's lock")
    try:
        fd = posix.open(f"/proc/{pid}/cmdline", posix.O_RDONLY | posix.O_CLOEXEC)
        try:
            cmdline = posix.read(fd, 1 << 16).split(b"\0")
        finally:
            posix.close(fd)
    except OSError:
        return  # no /proc: the lock holder is what there is to check
    expected = [b"-P", b"-m", b"worktree_guard.daemon", b"--key", key.encode()]
    if cmdline[1:6] != expected:
        raise NoDaemon(f"the process behind the socket (pid {pid}) is not a worktree-guard daemon")


def _lock_holder(dir_fd: int, key: str) -> int | None:
    """The pid written in the key's lock file, while that lock is held (a free lock means no daemon)."""
    import fcntl

    try:
        fd = posix.open(key + ".lock", posix.O_RDONLY | posix.O_NOFOLLOW | posix.O_CLOEXEC, dir_fd=dir_fd)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            text = posix.read(fd, 64).strip()
            return int(text) if text.isdigit() else None
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None  # nobody holds it
    finally:
        posix.close(fd)


def start_daemon(dir_fd: int, key: str, environ: "Mapping[str, str]") -> bool:
    """Start the daemon for `key`, detached, unless one holds its lock (running or starting). True if started."""
    import fcntl

    try:
        lock = posix.open(key + ".lock", posix.O_RDWR | posix.O_CREAT | posix.O_NOFOLLOW | posix.O_CLOEXEC, 0o600, dir_fd=dir_fd)
    except OSError:
        return False
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        posix.close(lock)
        return False
    posix.close(lock)  # free: the daemon takes it; a second starter loses the race there and exits
    # -P: the agent's cwd must not come first on sys.path (a `worktree_guard/` there would shadow the guard).
    argv = [sys.executable, "-P", "-m", "worktree_guard.daemon", "--key", key, "--package-dir", PACKAGE_DIR]
    null = [(fd, mode) for fd, mode in ((0, posix.O_RDONLY), (1, posix.O_WRONLY), (2, posix.O_WRONLY))]
    actions = [(posix.POSIX_SPAWN_OPEN, fd, "/dev/null", mode, 0) for fd, mode in null]
    try:
        # Its own session, and never the hook's stdout: Claude Code reads that pipe to its end.
        posix.posix_spawn(sys.executable, argv, dict(environ), file_actions=actions, setsid=True)
    except OSError:
        return False
    return True


# --- the hook command ----------------------------------------------------------------------------


def judge_here(argv: list[str], stdin: bytes, seconds_left: float | None = None) -> int:
    """Judge the call in this process, as `worktree-guard hook` always did; write the reply; the exit code.

    `seconds_left`: what remains of TOTAL_SECONDS after the daemon was tried; the in-process watchdog gets no more.
    """
    if sys.flags.no_site:
        import site

        site.main()  # started with -S for speed: the guard's dependencies are in site-packages
    from worktree_guard import hook
    from worktree_guard.cli import hook_reply, write_reply

    if seconds_left is not None:
        hook.WATCHDOG_SECONDS = max(1.0, min(hook.WATCHDOG_SECONDS, seconds_left))

    return write_reply(hook_reply(argv, stdin))


def read_stdin() -> bytes:
    try:
        return sys.stdin.buffer.read()
    except BaseException:  # noqa: BLE001 — unreadable stdin is a payload error, judged like an empty one
        return b""


def refuse_unjudged(stdin: bytes, cause: str, argv: "list[str] | None" = None) -> int:
    """The last resort when the guard cannot load or print its reply: refuse a tool call (WG000), note any other event.

    Standard library only, ASCII only. Without it the process would end with a traceback and exit 1, which
    Claude Code treats as a non-blocking error: the call would go through.
    """
    import json

    try:
        event = json.loads(stdin).get("hook_event_name", "PreToolUse")
    except Exception:  # noqa: BLE001 — unreadable: treat it as the call it most likely is
        event = "PreToolUse"
    cause = " ".join(cause.split())[:1000]
    from worktree_guard.last_resort import refusal, runtime_of

    runtime = runtime_of(argv or [])
    if event == "PreToolUse" or runtime:  # other runtimes send other event names, or none: refuse
        reason = f"worktree-guard could not check this call, so it is refused: {cause} [worktree-guard WG000]"
        text = refusal(runtime, reason)
    else:
        text = json.dumps({"systemMessage": f"worktree-guard: {cause}"})
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    return 0


def run_hook_command(argv: list[str]) -> int:
    """`worktree-guard hook [flags]`: the daemon's reply when it gives one, else the in-process judgement."""
    import time

    started = time.monotonic()
    stdin = read_stdin()
    try:
        exit_code, out, err = ask_daemon(argv, stdin)
    except BaseException:  # noqa: BLE001 — NoDaemon or anything else: the in-process judgement answers
        try:
            return judge_here(argv, stdin, TOTAL_SECONDS - (time.monotonic() - started))
        except BaseException as error:  # noqa: BLE001 — never a traceback and exit 1, which lets the call through
            return refuse_unjudged(stdin, f"{type(error).__name__}: {error}", argv)
    try:
        if out:
            sys.stdout.write(out + "\n")
        if err:
            sys.stderr.write(err + "\n")
        sys.stdout.flush()
    except BaseException as error:  # noqa: BLE001 — as in-process (cli.write_reply inside judge_here)
        return refuse_unjudged(stdin, f"{type(error).__name__}: {error}", argv)
    return exit_code


def main(argv: list[str] | None = None) -> int:
    """`worktree-guard-hook [flags]` (and `fast_hook.py`): the hook command, `hook` implied."""
    args = ["hook", *(sys.argv[1:] if argv is None else argv)]
    if {"-h", "--help"} & set(args):
        if sys.flags.no_site:
            import site

            site.main()
        from worktree_guard.cli import main as cli_main

        return cli_main(args)
    return run_hook_command(args)


