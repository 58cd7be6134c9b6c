"""Which daemon serves a call, and which one may be killed (review of issue 12, R3–R6).

R3: in the C/POSIX locale (LANG unset: CI, cron, containers) the daemon never started: Python turns UTF-8 mode on
and hands its children LC_CTYPE=C.UTF-8, so the daemon ran in another mode, computed another key and exited.
R4: installs outside a venv (pyenv, python:3.x images) keep site-packages inside the standard library's directory,
which the stale-code check skipped: an upgrade went unnoticed for up to 900 s.
R5: the cap of MAX_DAEMONS counted per socket directory, and that followed XDG_RUNTIME_DIR: six values, seven daemons.
R6: any process whose command line looked right was believed (an interpreter of the user's choosing); a pid could
be reused between the check and the SIGKILL; without /proc the wait for a busy daemon had no bound.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import FAST_HOOK, Repo, daemon_processes, run_hook_process, subagent_payload, wait_for_exit
from tests.test_daemon import cache  # noqa: F401 — the fixture: this test's own daemon directory and daemons
from worktree_guard import client, daemon


def write_inside(repo: Repo) -> bytes:
    return json.dumps(subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "a.py"), "content": "x"})).encode()


def key_in(env: dict[str, str]) -> str:
    """The key a hook process started with `env` computes (its UTF-8 mode and locale are part of it)."""
    code = "from worktree_guard import client, os; print(client.daemon_key(os.environ))"
    return subprocess.run([sys.executable, "-c", code.replace(", os", "; import os")], env=env, capture_output=True, text=True, check=True).stdout.strip()


def listening(directory: Path, key: str, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if (directory / f"{key}.sock").exists():
            return True
        time.sleep(0.1)
    return False


def test_a_daemon_starts_and_serves_in_the_c_locale(repo: Repo, cache: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_CTYPE", "PYTHONUTF8", "PYTHONIOENCODING")}
    key = key_in(env)
    assert key != key_in({**env, "LANG": "C.UTF-8"})  # the mode really differs from a UTF-8 locale's
    def call() -> None:  # exactly this environment (run_hook_process adds the test's own, LANG included)
        result = subprocess.run(FAST_HOOK, input=write_inside(repo), cwd=repo.worktree, env=env, capture_output=True, timeout=60)
        assert result.returncode == 0 and result.stdout == b""

    call()
    directory = Path(client.socket_dir(env))
    assert listening(directory, key), "the daemon for the C locale never listened"
    # And it serves: the next call gets the daemon's answer (it counts the calls it accepted in its lock file).
    before = int((directory / f"{key}.lock").read_text().split()[2])
    call()
    assert int((directory / f"{key}.lock").read_text().split()[2]) == before + 1


def test_code_in_a_site_packages_inside_the_standard_librarys_directory_is_watched(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The layout of pyenv and the python:3.x images: <prefix>/lib/python3.X/site-packages."""
    stdlib = tmp_path / "lib" / "python3.11"
    site_packages = stdlib / "site-packages"
    for path in (stdlib / "json" / "__init__.py", site_packages / "plugin" / "__init__.py"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
    monkeypatch.setattr(daemon, "library_dirs", lambda: (str(stdlib), [str(site_packages)]))
    for name, path in (("wg_test_stdlib_json", stdlib / "json" / "__init__.py"), ("wg_test_plugin", site_packages / "plugin" / "__init__.py")):
        module = type(sys)(name)
        module.__file__ = str(path)
        monkeypatch.setitem(sys.modules, name, module)
    fingerprint = daemon.CodeFingerprint()
    assert str(site_packages / "plugin" / "__init__.py") in fingerprint.paths
    assert str(stdlib / "json" / "__init__.py") not in fingerprint.paths
    (site_packages / "plugin" / "__init__.py").write_text("VERSION = 2\n")
    assert fingerprint.stale()


def test_this_interpreters_own_site_packages_are_not_standard_library() -> None:
    stdlib, sites = daemon.library_dirs()
    assert os.path.dirname(os.__file__) == stdlib and not daemon.in_standard_library(os.path.join(sites[0], "x.py"), stdlib, sites)
    assert daemon.in_standard_library(os.path.join(stdlib, "json", "__init__.py"), stdlib, sites)


def test_the_daemon_directory_is_one_per_user_whatever_xdg_runtime_dir_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = {k: v for k, v in os.environ.items() if k != client.DIR_VAR}
    dirs = {client.socket_dir({**base, "XDG_RUNTIME_DIR": str(tmp_path / f"rt-{i}")}) for i in range(6)}
    assert dirs == {f"/tmp/worktree-guard-{os.geteuid()}"} or dirs == {f"{client.USER_RUNTIME_DIRS}/{os.geteuid()}/worktree-guard"}
    runtime = tmp_path / "run-user"
    (runtime / str(os.geteuid())).mkdir(parents=True, mode=0o700)
    monkeypatch.setattr(client, "USER_RUNTIME_DIRS", str(runtime))
    assert client.socket_dir(base) == str(runtime / str(os.geteuid()) / "worktree-guard")


def test_six_runtime_directories_make_one_daemon(repo: Repo, cache: Path, tmp_path: Path) -> None:
    for i in range(6):
        env = {"XDG_RUNTIME_DIR": str(tmp_path / f"rt-{i}")}
        (tmp_path / f"rt-{i}").mkdir(mode=0o700)
        assert run_hook_process(write_inside(repo), cwd=repo.worktree, command=FAST_HOOK, env=env).stdout == ""
        time.sleep(0.3)
    time.sleep(1.0)
    assert len(daemon_processes(cache)) == 1


def test_a_process_running_another_interpreter_is_not_believed_nor_killed(repo: Repo, cache: Path, tmp_path: Path) -> None:
    """A process that holds the key's lock and whose command line is the daemon's, but which runs another
    executable (here a copy of this interpreter): not the daemon this hook would have started."""
    import fcntl
    import shutil

    env = dict(os.environ)
    key = client.daemon_key(env)
    directory = Path(client.socket_dir(env))
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    other = tmp_path / "python-copy"
    shutil.copy2(os.path.realpath(sys.executable), other)
    holder = """
import fcntl, os, sys, time
fd = os.open(sys.argv[-1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
os.pwrite(fd, f"{os.getpid():>10} {12345:>20} {0:>20}\\n".encode(), 0)  # a socket inode: listening, not starting
os.kill(os.getpid(), 19)  # SIGSTOP: looks like a stopped daemon
time.sleep(60)
"""
    script = tmp_path / "holder.py"
    script.write_text(holder)
    # The impostor's command line is the daemon's: a sitecustomize on its PYTHONPATH runs the holder before `-m`.
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(f"import runpy, sys\nsys.argv = ['x', {str(directory / (key + '.lock'))!r}]\nrunpy.run_path({str(script)!r})\n")
    proc = subprocess.Popen([str(other), *client.daemon_command(key)], env={**env, "PYTHONPATH": str(site), "PYTHONHOME": sys.base_prefix})
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (directory / f"{key}.lock").exists():
            time.sleep(0.1)
        time.sleep(1.0)
        fd = os.open(directory, os.O_RDONLY)
        try:
            assert client.lock_record(fd, key) == (proc.pid, 12345, 0)
        finally:
            os.close(fd)
        assert not client._own_daemon(proc.pid, key)
        result = run_hook_process(write_inside(repo), cwd=repo.worktree, command=FAST_HOOK)
        assert result.returncode == 0 and result.stdout == ""  # judged in-process
        assert proc.poll() is None  # not killed: not proven this interpreter's daemon
    finally:
        proc.send_signal(signal.SIGCONT)
        proc.kill()
        proc.wait()


def test_a_stopped_daemon_is_killed_through_its_pidfd(repo: Repo, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kill names the very process that was checked: opened before the checks, its death noticed after them."""
    from tests.helpers import wait_for_daemon

    env = dict(os.environ)
    run_hook_process(write_inside(repo), cwd=repo.worktree, command=FAST_HOOK)
    pid = wait_for_daemon(env)
    key = client.daemon_key(env)
    checked: list[int] = []
    real = client._own_daemon

    def own_then_gone(candidate: int, k: str) -> bool:
        """The daemon passes the checks, then dies before the kill (its pid could now be anyone's)."""
        checked.append(candidate)
        answer = real(candidate, k)
        os.kill(candidate, signal.SIGKILL)
        wait_for_exit(candidate, 10)
        return answer

    signalled: list[int] = []
    monkeypatch.setattr(client, "_own_daemon", own_then_gone)
    monkeypatch.setattr(client.posix, "kill", lambda p, s: signalled.append(p))
    assert client._kill_own_daemon(pid, key) is False  # nothing left to kill: the pidfd says it is gone
    assert checked == [pid] and signalled == []  # and no signal went to whatever has that pid now


def test_without_proc_the_age_is_the_time_since_the_client_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: CPU time, which a waiting process hardly uses, so the wait for a busy daemon had no bound."""
    real_open = client.posix.open

    def no_proc(path, *args, **kwargs):
        if str(path).startswith("/proc/"):
            raise FileNotFoundError(2, "No such file or directory", path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(client.posix, "open", no_proc)
    monkeypatch.setattr(client, "_IMPORTED", time.monotonic() - 12.0)
    assert 12.0 <= client.process_age() < 60.0
