"""The hook's daemon (worktree_guard.daemon) and client (worktree_guard.client).

The daemon must answer exactly as the hook answers in-process, and every way it can fail — absent, killed,
replying garbage, in a directory that is not private, serving another environment — must end in the
in-process judgement, never in a pass that judgement would not give. Nothing here is timed.
"""

from __future__ import annotations

import contextlib

import json
import os
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import (
    FAST_HOOK,
    HookResult,
    Repo,
    daemon_environment,
    daemon_files,
    daemon_pid,
    payload,
    run_hook_process,
    stop_daemons,
    subagent_payload,
    wait_for_daemon,
    wait_for_exit,
)
from worktree_guard import client, daemon


def unprintable_payload(repo: Repo) -> bytes:
    """A rewrite echoes the tool input, here with a lone surrogate that a UTF-8 stdout cannot print."""
    return json.dumps(subagent_payload(repo, "Write", {"file_path": str(repo.main / "a.txt"), "content": "x\ud800"})).encode()


HEREDOC_COMMIT = "git add -A && git commit -m \"$(cat <<'EOF'\nFix the parser\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\""


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, repo: Repo) -> Iterator[Path]:
    """A daemon-enabled environment for this test (its own cache dir, hence its own daemons), stopped after it."""
    cache = tmp_path / "c"
    for key, value in daemon_environment(cache).items():
        monkeypatch.setenv(key, value)
    yield cache
    stop_daemons(cache)


def in_process(data: Any, *args: str, cwd: Path | str) -> HookResult:
    return run_hook_process(data, *args, env={"WT_GUARD_DAEMON": "0"}, cwd=cwd)


def start_daemon(repo: Repo) -> int:
    """Start the daemon for the current environment through a hook call, and wait until it listens."""
    run_hook_process(subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "a")}), cwd=repo.worktree)
    return wait_for_daemon(dict(os.environ))


def ask(data: Any, *args: str, cwd: Path | str, monkeypatch: pytest.MonkeyPatch) -> HookResult:
    """The daemon's own reply (client.ask_daemon raises NoDaemon unless the daemon served it)."""
    monkeypatch.chdir(cwd)
    stdin = data if isinstance(data, bytes) else json.dumps(data).encode()
    exit_code, out, err = client.ask_daemon(["hook", *args], stdin, spawn=False)
    return HookResult(exit_code, out + "\n" if out else "", err + "\n" if err else "")


def cases(repo: Repo) -> list[tuple[str, Any, tuple[str, ...], Path | str]]:
    """(name, stdin, flags, hook process cwd): passes, denies, a rewrite, malformed input, WG000 and WG002."""
    main_file = str(repo.main / "src" / "app.py")
    definition = repo.main / ".claude" / "agents" / "isolated-helper.md"
    definition.parent.mkdir(parents=True, exist_ok=True)
    definition.write_text("---\nname: isolated-helper\nisolation: worktree\n---\nA helper.\n")
    return [
        ("write-inside", subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "x.py"), "content": "x"}), (), repo.worktree),
        ("write-shared", subagent_payload(repo, "Write", {"file_path": main_file, "content": "x"}), (), repo.worktree),
        ("edit-rewrite", subagent_payload(repo, "Edit", {"file_path": main_file, "old_string": "a", "new_string": "b"}), ("--mode", "rewrite"), repo.worktree),
        ("bash-heredoc-commit", subagent_payload(repo, "Bash", {"command": HEREDOC_COMMIT}), (), repo.worktree),
        ("bash-deny", subagent_payload(repo, "Bash", {"command": f"cd {repo.main} && git switch main"}), (), repo.worktree),
        ("bash-write-sibling", subagent_payload(repo, "Bash", {"command": f"echo x > {repo.sibling}/f"}), (), repo.worktree),
        ("agent", subagent_payload(repo, "Agent", {"description": "d", "prompt": "p", "subagent_type": "general-purpose"}), (), repo.worktree),
        ("malformed-in-worktree", b"{not json", (), repo.worktree),
        ("malformed-in-main", b"{not json", (), repo.main),
        ("empty-stdin", b"", (), repo.worktree),
        ("not-an-object", b"[1, 2]", (), repo.worktree),
        ("unknown-tool", subagent_payload(repo, "Frobnicate", {"x": 1}), (), repo.worktree),
        ("bad-flag", subagent_payload(repo, "Write", {"file_path": main_file}), ("--mode", "bogus"), repo.worktree),
        ("relative-cwd", subagent_payload(repo, "Write", {"file_path": main_file}, cwd="relative/dir"), (), repo.worktree),
        ("main-not-isolated", payload(repo.main, "Write", {"file_path": main_file}), (), repo.main),
        ("misplaced-WG002", payload(repo.main, "Write", {"file_path": main_file}, agent_type="isolated-helper"), (), repo.main),
        ("unprintable-rewrite", unprintable_payload(repo), ("--mode", "rewrite"), repo.worktree),
    ]


#: (decision, codes) of every case in cases(): the replies compared below must also be the right ones.
EXPECTED = {
    "write-inside": ("pass", []),
    "write-shared": ("deny", ["WG101"]),
    "edit-rewrite": ("ask", ["WG101"]),
    "bash-heredoc-commit": ("pass", []),
    "bash-deny": ("deny", ["WG201", "WG301"]),
    "bash-write-sibling": ("deny", ["WG401"]),
    "agent": ("allow", ["WG501"]),
    "malformed-in-worktree": ("deny", ["WG000"]),
    "malformed-in-main": ("warn", []),
    "empty-stdin": ("deny", ["WG000"]),
    "not-an-object": ("deny", ["WG000"]),
    "unknown-tool": ("deny", ["WG000"]),
    "bad-flag": ("deny", ["WG000"]),
    "relative-cwd": ("deny", ["WG000"]),
    "main-not-isolated": ("pass", []),
    "misplaced-WG002": ("deny", ["WG002"]),
    "unprintable-rewrite": ("deny", ["WG000"]),
}


def test_the_daemon_replies_exactly_as_the_hook_in_process(repo: Repo, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    start_daemon(repo)
    seen = set()
    for name, data, args, cwd in cases(repo):
        expected = in_process(data, *args, cwd=cwd)
        assert (expected.decision, expected.codes) == EXPECTED[name], name
        served = ask(data, *args, cwd=cwd, monkeypatch=monkeypatch)
        if name == "unprintable-rewrite":  # the daemon's text is the reply; printing it is the hook process's part
            assert served.decision == "ask" and "WG000" in expected.reason and "UnicodeEncodeError" in expected.reason
        else:
            assert (served.returncode, served.stdout, served.stderr) == (expected.returncode, expected.stdout, expected.stderr), name
        for command in (None, FAST_HOOK):
            through = run_hook_process(data, *args, cwd=cwd, command=command)
            assert (through.returncode, through.stdout, through.stderr) == (expected.returncode, expected.stdout, expected.stderr), name
        seen.add(expected.decision)
    assert seen >= {"pass", "deny", "ask", "warn"}  # ask: the rewrite in default permission mode; warn: systemMessage


def test_an_absent_daemon_is_started_while_the_call_is_judged_in_process(repo: Repo, cache: Path) -> None:
    data = subagent_payload(repo, "Write", {"file_path": str(repo.main / "x")})
    env = dict(os.environ)
    assert daemon_pid(env) is None
    result = run_hook_process(data, cwd=repo.worktree)
    assert result.decision == "deny" and result.codes == ["WG101"]
    assert result.stdout == in_process(data, cwd=repo.worktree).stdout
    wait_for_daemon(env)


def test_a_killed_daemon_falls_back_and_is_replaced(repo: Repo, cache: Path) -> None:
    env = dict(os.environ)
    pid = start_daemon(repo)
    os.kill(pid, signal.SIGKILL)
    assert wait_for_exit(pid)
    sock, _ = daemon_files(env)
    assert sock.exists()  # left behind: connecting is refused
    data = subagent_payload(repo, "Bash", {"command": f"cd {repo.main} && git switch main"})
    result = run_hook_process(data, cwd=repo.worktree)
    assert result.decision == "deny" and result.codes == ["WG201", "WG301"]
    assert result.stdout == in_process(data, cwd=repo.worktree).stdout
    assert wait_for_daemon(env) != pid


def _fake_server(sock_path: Path, answer: Callable[[bytes], bytes | None]) -> Callable[[], None]:
    """Listen at the daemon's socket and answer every request with `answer(request)` (None: close silently)."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    directory_fd = os.open(sock_path.parent, os.O_RDONLY | os.O_DIRECTORY)
    server.bind(f"/proc/self/fd/{directory_fd}/{sock_path.name}")
    server.listen(8)
    stop = threading.Event()

    def loop() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except TimeoutError:
                continue
            # The client may hang up at any point (its peer check refuses this server), even before it sends a
            # request the answer can read: keep serving.
            with conn, contextlib.suppress(Exception):
                chunks = []
                while chunk := conn.recv(65536):
                    chunks.append(chunk)
                reply = answer(b"".join(chunks))
                if reply is not None:
                    conn.sendall(reply)

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()

    def close() -> None:
        stop.set()
        thread.join()
        server.close()
        os.close(directory_fd)
        sock_path.unlink()

    return close


def _nonce(request: bytes) -> bytes:
    return client.decode_request(request)[0]


GARBAGE: dict[str, Callable[[bytes], bytes | None]] = {
    "closes-without-reply": lambda request: None,
    "not-the-protocol": lambda request: b"HTTP/1.1 200 OK\r\n\r\n",
    "empty-pass-for-another-request": lambda request: client.encode_reply(os.urandom(16), client.STATUS_SERVED, 0, "", ""),
    "pass-without-end-marker": lambda request: client.encode_reply(_nonce(request), client.STATUS_SERVED, 0, "", "")[:-3],
    "short-reply": lambda request: client.encode_reply(_nonce(request), client.STATUS_SERVED, 0, '{"x": 1}', "")[:30],
    "trailing-bytes": lambda request: client.encode_reply(_nonce(request), client.STATUS_SERVED, 0, "", "") + b"x",
    "unknown-status": lambda request: client.encode_reply(_nonce(request), 7, 0, "", ""),
    "declines": lambda request: client.encode_reply(_nonce(request), client.STATUS_DECLINED, 0, "", ""),
    # A well-formed pass from a process that is not the daemon (it binds the socket, echoes the nonce).
    "impostor-echoing-the-nonce": lambda request: client.encode_reply(_nonce(request), client.STATUS_SERVED, 0, "", ""),
}


@pytest.mark.parametrize("behaviour", list(GARBAGE))
def test_a_server_that_misbehaves_never_turns_a_deny_into_a_pass(
    repo: Repo, cache: Path, behaviour: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fcntl

    env = dict(os.environ)
    sock, lock = daemon_files(env)
    sock.parent.mkdir(parents=True, mode=0o700)
    sock.parent.parent.chmod(0o700)
    # This process holds the key's lock as a daemon still starting would: the clients then leave the server
    # in place (they would otherwise start a daemon that replaces a socket it does not trust).
    held = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(held, fcntl.LOCK_EX)
    os.write(held, f"{os.getpid()} 0 0\n".encode())
    close = _fake_server(sock, GARBAGE[behaviour])
    try:
        data = subagent_payload(repo, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"})
        expected = in_process(data, cwd=repo.worktree)
        assert expected.decision == "deny" and expected.codes == ["WG101"]
        for command in (None, FAST_HOOK):
            result = run_hook_process(data, cwd=repo.worktree, command=command)
            assert (result.returncode, result.stdout) == (0, expected.stdout), behaviour
        # The hook process refuses this server as an impostor before reading a reply; the reply itself must
        # be refused too, as if the server had passed the peer check.
        if behaviour != "impostor-echoing-the-nonce":
            monkeypatch.setattr(client, "_check_peer", lambda sock, dir_fd, key: None)
            monkeypatch.chdir(repo.worktree)
            with pytest.raises(client.NoDaemon):
                client.ask_daemon(["hook"], json.dumps(data).encode(), spawn=False)
    finally:
        close()
        os.ftruncate(held, 0)  # the fixture's clean-up stops the pid written there
        os.close(held)


def test_a_server_that_hangs_times_out(repo: Repo, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sock, _ = daemon_files(dict(os.environ))
    sock.parent.mkdir(parents=True, mode=0o700)
    release = threading.Event()
    close = _fake_server(sock, lambda request: None if release.wait(10) else None)
    # This fake server is not a daemon (the peer check would refuse it at once): let it through to time out.
    monkeypatch.setattr(client, "_check_peer", lambda sock, dir_fd, key: None)
    try:
        monkeypatch.chdir(repo.worktree)
        with pytest.raises(client.DaemonTimeout, match="took no call"):
            client.ask_daemon(["hook"], b"{}", timeout=0.3, spawn=False)
    finally:
        release.set()
        close()


@pytest.mark.parametrize("how", ["group-writable", "world-readable", "other-owner", "symlink"])
def test_a_socket_dir_that_is_not_private_is_not_used_and_is_replaced_when_ours(
    repo: Repo, cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """Nothing in a directory that was open to others is trusted: no daemon there is asked. One of this user's
    is moved aside and a fresh private one gets a fresh daemon; the old daemon sees its directory is no longer
    its own and exits. Another user's directory stays, and calls are judged in-process."""
    env = dict(os.environ)
    pid = start_daemon(repo)
    sock, _ = daemon_files(env)
    directory = sock.parent
    if how == "group-writable":
        directory.chmod(0o770)
    elif how == "world-readable":
        directory.chmod(0o701)
    elif how == "other-owner":
        if os.geteuid() != 0:
            pytest.skip("changing a directory's owner needs root")
        os.chown(directory, 65534, 65534)
    else:
        real = tmp_path / "elsewhere"
        directory.rename(real)
        directory.symlink_to(real)
    data = subagent_payload(repo, "Write", {"file_path": str(repo.main / "x")})
    monkeypatch.chdir(repo.worktree)
    with pytest.raises(client.NoDaemon):
        client.ask_daemon(["hook"], json.dumps(data).encode(), spawn=False)
    result = run_hook_process(data, cwd=repo.worktree)
    assert result.stdout == in_process(data, cwd=repo.worktree).stdout
    assert wait_for_exit(pid, 20)  # its directory is no longer its own
    if how == "other-owner":
        assert directory.stat().st_uid == 65534 and daemon_pid(env) is None
        return
    new = wait_for_daemon(env)
    assert new != pid and directory.is_dir() and not directory.is_symlink() and directory.stat().st_mode & 0o777 == 0o700
    assert ask(data, cwd=repo.worktree, monkeypatch=monkeypatch).stdout == result.stdout


def test_the_key_follows_the_loaded_code_and_nothing_else() -> None:
    """User, interpreter, its start-up variables, this package: not HOME, TMPDIR, XDG_*, locale names or settings."""
    base = {"HOME": "/home/u", "PATH": "/usr/bin", "TMPDIR": "/tmp"}
    key = client.daemon_key(base)
    same = ("HOME", "TMPDIR", "TEMP", "TMP", "CDPATH", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "CLAUDE_CONFIG_DIR", "WORKTREE_GUARD_MODE", "WT_GUARD_DAEMON_IDLE", "PATH")
    for name in same:
        assert client.daemon_key({**base, name: "/elsewhere"}) == key, name
    for name in ("PYTHONPATH", "PYTHONHOME", "PYTHONSAFEPATH", "PYTHONNOUSERSITE", "PYTHONUSERBASE"):
        assert client.daemon_key({**base, name: "/x"}) != key, name


def test_a_user_site_packages_directory_is_part_of_the_key_outside_a_venv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setattr(client, "_exists", lambda path: False)  # as if this interpreter were not a venv's
    site = tmp_path / ".local" / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages"
    base = {"HOME": str(tmp_path)}
    without = client.daemon_key(base)
    site.mkdir(parents=True)
    assert client.user_site(base) == str(site) and client.daemon_key(base) != without
    assert client.daemon_key({**base, "PYTHONNOUSERSITE": "1"}) != without  # a start-up variable of its own


def test_one_daemon_serves_every_environment_of_the_same_code(repo: Repo, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = start_daemon(repo)
    data = subagent_payload(repo, "Write", {"file_path": str(repo.main / "x")})
    plain = ask(data, cwd=repo.worktree, monkeypatch=monkeypatch)
    monkeypatch.setenv("WORKTREE_GUARD_MODE", "rewrite")
    monkeypatch.setenv("HOME", str(repo.base / "another-home"))
    rewritten = ask(data, cwd=repo.worktree, monkeypatch=monkeypatch)
    assert daemon_pid(dict(os.environ)) == first
    assert rewritten.stdout == in_process(data, cwd=repo.worktree).stdout
    assert rewritten.decision == "ask" and rewritten.codes == ["WG101"]
    assert plain.decision == "deny" and plain.codes == ["WG101"]
    monkeypatch.setenv("PYTHONPATH", str(repo.base / "elsewhere"))
    second = start_daemon(repo)
    assert second != first


def test_each_request_is_judged_under_its_own_environment_and_configuration(repo: Repo, cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Variables outside the key travel with the request; config files are read on every call."""
    (tmp_path / "tmpdir").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmpdir"))  # the temp dir is allowed: not the test's /tmp
    start_daemon(repo)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    (repo.main / ".worktree-guard.toml").write_text('allow = ["$WG_TEST_SCRATCH"]\n')
    data = subagent_payload(repo, "Write", {"file_path": str(scratch / "f")})
    replies = []
    for value in (str(scratch), str(tmp_path / "other"), str(scratch)):
        monkeypatch.setenv("WG_TEST_SCRATCH", value)
        served = ask(data, cwd=repo.worktree, monkeypatch=monkeypatch)
        assert served.stdout == in_process(data, cwd=repo.worktree).stdout
        replies.append(served.decision)
    assert replies == ["pass", "deny", "pass"]
    (repo.main / ".worktree-guard.toml").write_text('mode = "warn"\n')
    served = ask(data, cwd=repo.worktree, monkeypatch=monkeypatch)
    assert served.decision == "warn" and served.stdout == in_process(data, cwd=repo.worktree).stdout


def test_the_daemon_exits_when_idle(repo: Repo, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WT_GUARD_DAEMON_IDLE", "1")
    env = dict(os.environ)
    pid = start_daemon(repo)
    assert wait_for_exit(pid, 30)
    sock, _ = daemon_files(env)
    assert not sock.exists()


def test_a_payload_naming_proc_is_left_to_the_hook_process(repo: Repo, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """/proc/self is the judging process: the daemon declines, the hook process judges it as its own."""
    start_daemon(repo)
    data = subagent_payload(repo, "Bash", {"command": "echo x > /proc/self/fd/1"})
    with pytest.raises(client.NoDaemon, match="declined"):
        ask(data, cwd=repo.worktree, monkeypatch=monkeypatch)
    result, expected = run_hook_process(data, cwd=repo.worktree), in_process(data, cwd=repo.worktree)
    # Each process resolves /proc/self/fd/1 to its own stdout pipe: /proc/<its pid>/fd/pipe:[…].
    assert result.decision == expected.decision == "deny" and result.codes == expected.codes == ["WG402"]
    assert f"/proc/{os.getpid()}/" not in result.reason


def test_proc_self_resolves_to_the_hook_process_while_judging(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(daemon, "_peer_pid", 4242)
    assert daemon._readlink_for_peer("/proc/self") == "4242"
    assert daemon._readlink_for_peer(b"/proc/self") == b"4242"
    assert daemon._readlink_for_peer("/proc/thread-self") == "4242/task/4242"
    monkeypatch.setattr(daemon, "_peer_pid", None)
    assert daemon._readlink_for_peer("/proc/self") == str(os.getpid())


def test_another_users_connection_gets_no_reply() -> None:
    class Conn:
        sent: list[bytes] = []

        def getsockopt(self, level: int, option: int, size: int) -> bytes:
            return (1234).to_bytes(4, "little") + (os.geteuid() + 1).to_bytes(4, "little") + bytes(4)

        def recv(self, size: int) -> bytes:  # pragma: no cover — must not be reached
            raise AssertionError("read a stranger's request")

        def sendall(self, data: bytes) -> None:  # pragma: no cover
            self.sent.append(data)

        def settimeout(self, value: float) -> None:  # pragma: no cover
            raise AssertionError("read a stranger's request")

    server = object.__new__(daemon.Daemon)
    assert server.handle(Conn()) is False  # type: ignore[arg-type]
    assert Conn.sent == []


def test_a_changed_module_file_makes_the_daemon_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = tmp_path / "wg_probe_module.py"
    module.write_text("X = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    importlib.import_module("wg_probe_module")
    try:
        fingerprint = daemon.CodeFingerprint()
        assert str(module) in fingerprint.paths and not fingerprint.stale()
        module.write_text("X = 22\n")
        assert fingerprint.stale()
    finally:
        import sys

        sys.modules.pop("wg_probe_module", None)


def test_the_fingerprint_covers_the_dependencies_and_not_the_standard_library() -> None:
    import json as stdlib_module

    import bashlex.yacc
    import pluggy
    import pydantic

    paths = set(daemon.CodeFingerprint().paths)
    for module in (pydantic, pluggy, bashlex.yacc, client):
        assert module.__file__ in paths, module.__name__
    assert stdlib_module.__file__ not in paths


def test_a_new_distribution_makes_the_daemon_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    fingerprint = daemon.CodeFingerprint()
    assert not fingerprint.stale()
    (site / "newplugin-1.0.dist-info").mkdir()
    os.utime(site, ns=(0, 0))  # any change of the directory's stamp counts
    assert fingerprint.stale()


def test_the_wire_format_rejects_what_is_not_a_complete_reply() -> None:
    nonce = os.urandom(16)
    reply = client.encode_reply(nonce, client.STATUS_SERVED, 0, '{"a": "\\u00e9 \udcff"}', "")
    assert client.decode_reply(reply, nonce)[2] == '{"a": "\\u00e9 \udcff"}'
    for broken in (reply[:-1], reply + b"\0", reply[:10], b"", reply.replace(b"WGR1", b"WGR2", 1)):
        with pytest.raises(ValueError):
            client.decode_reply(broken, nonce)
    with pytest.raises(ValueError):
        client.decode_reply(reply, os.urandom(16))
    request = client.encode_request(nonce, "k", ["hook", "--mode", "warn"], b"/w", {b"A": b"1=2", b"B": b""}, b"{}")
    assert client.decode_request(request) == (nonce, "k", ["hook", "--mode", "warn"], b"/w", {b"A": b"1=2", b"B": b""}, b"{}")
    for broken in (request[:-1], request + b"x", b"WGQ2" + request[4:]):
        with pytest.raises(ValueError):
            client.decode_request(broken)


def test_the_daemon_can_be_switched_off(repo: Repo, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WT_GUARD_DAEMON", "0")
    data = subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "a")})
    assert run_hook_process(data, cwd=repo.worktree).decision == "pass"
    with pytest.raises(client.NoDaemon, match="disables"):
        ask(data, cwd=repo.worktree, monkeypatch=monkeypatch)
    assert not (cache / "worktree-guard" / "daemon").exists() or not list((cache / "worktree-guard" / "daemon").glob("*.sock"))


@pytest.mark.parametrize("broken", ["client.py", "hook_process.py", "hook.py"])
def test_a_guard_that_cannot_load_refuses_instead_of_failing_open(repo: Repo, tmp_path: Path, broken: str) -> None:
    """A traceback and exit 1 would let the call through (Claude Code treats exit 1 as non-blocking)."""
    import shutil
    import sys

    copy = tmp_path / "pkg" / "worktree_guard"
    shutil.copytree(Path(client.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / broken).write_text("raise ImportError('simulated broken install')\n")
    data = subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "inside.txt")})
    command = [sys.executable, "-S", "-P", str(copy / "fast_hook.py")]
    result = run_hook_process(data, cwd=repo.worktree, command=command)
    assert result.returncode == 0
    assert result.decision == "deny" and "WG000" in result.reason and "simulated broken install" in result.reason


def test_a_reply_that_cannot_be_printed_is_a_refusal(repo: Repo) -> None:
    """Before, the traceback and exit 1 let the call through."""
    result = in_process(unprintable_payload(repo), "--mode", "rewrite", cwd=repo.worktree)
    assert result.returncode == 0
    assert result.decision == "deny" and "UnicodeEncodeError" in result.reason and "WG000" in result.reason


def test_the_in_process_watchdog_leaves_a_shorter_outer_limit_in_charge() -> None:
    """The daemon arms its own per-request limit; run_hook's watchdog must not replace it with a longer one."""
    import signal

    from worktree_guard import hook

    seen: list[float] = []
    signal.setitimer(signal.ITIMER_REAL, 5.0)
    previous = signal.signal(signal.SIGALRM, lambda *a: None)
    try:
        with hook._watchdog():
            seen.append(signal.getitimer(signal.ITIMER_REAL)[0])
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert 0 < seen[0] <= 5.0
    with hook._watchdog():
        assert hook.WATCHDOG_SECONDS - 1 < signal.getitimer(signal.ITIMER_REAL)[0] <= hook.WATCHDOG_SECONDS
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0


def test_the_limits_are_in_order() -> None:
    """A healthy daemon takes a new call before a waiting client gives up on it; the client's wait leaves the
    in-process fallback time; everything ends before the installed hook timeout, which fails open. (The whole
    call is timed against a hung daemon in tests/test_hook_faults.py.)"""
    from worktree_guard import install

    assert daemon.READ_SECONDS + daemon.REQUEST_SECONDS < client.REPLY_TIMEOUT <= client.DAEMON_WAIT_SECONDS
    assert client.DAEMON_WAIT_SECONDS + 10 <= client.TOTAL_SECONDS < install.PRE_TOOL_USE_TIMEOUT


@pytest.mark.parametrize("path", ["\\/proc\\/self\\/fd\\/3\\/x", "/dev/fd/3/x", "/dev/stdout", "/proc/self/cwd"])
def test_per_process_paths_are_left_to_the_hook_process_however_spelled(path: str) -> None:
    stdin = ('{"tool_name": "Write", "tool_input": {"file_path": "' + path + '"}}').encode()
    assert daemon._names_proc(stdin, {})
    assert not daemon._names_proc(b'{"tool_name": "Write", "tool_input": {"file_path": "/tmp/x"}}', {})
