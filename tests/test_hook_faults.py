"""The hook process under faults and load (issue 12), against the installed command as a subprocess.

Many environments, a stopped daemon, a replaced socket, a hung daemon with a slow fallback, 128 concurrent
calls. Each test has its own daemon directory (WT_GUARD_DAEMON_DIR), hence its own daemons, stopped after it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.helpers import (
    FAST_HOOK,
    HookResult,
    Repo,
    daemon_files,
    daemon_pid,
    daemon_processes,
    run_hook_process,
    subagent_payload,
    wait_for_daemon,
    wait_for_exit,
)
from tests.test_daemon import cache  # noqa: F401 — the fixture: this test's own runtime directory and daemons
from worktree_guard import client


def expected(repo: Repo) -> list[tuple[bytes, str]]:
    """(stdin, in-process stdout): a pass, a file deny, the heredoc commit, a Bash deny, the issue's benign command."""
    calls = [
        subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "new.py"), "content": "x"}),
        subagent_payload(repo, "Write", {"file_path": str(repo.main / "src" / "app.py"), "content": "x"}),
        subagent_payload(repo, "Bash", {"command": "git add -A && git commit -m \"$(cat <<'EOF'\nFix\nEOF\n)\""}),
        subagent_payload(repo, "Bash", {"command": f"cd {repo.main} && git switch main"}),
        subagent_payload(repo, "Bash", {"command": "git status && ls"}),
    ]
    out = []
    for data in calls:
        stdin = json.dumps(data).encode()
        result = run_hook_process(stdin, env={"WT_GUARD_DAEMON": "0"}, cwd=repo.worktree)
        out.append((stdin, result.stdout))
    assert [HookResult(0, o, "").decision for _, o in out] == ["pass", "deny", "pass", "deny", "pass"]
    return out


def timed_call(stdin: bytes, cwd: Path, env: dict[str, str] | None = None) -> tuple[HookResult, float]:
    started = time.monotonic()
    result = run_hook_process(stdin, cwd=cwd, command=FAST_HOOK, env=env)
    return result, time.monotonic() - started


def judge_in_each(repo: Repo, environments: list[dict[str, str]], pause: float = 0.0) -> None:
    """One call in each environment, the expected calls in turn; each verdict must be the serial one."""
    calls = expected(repo)
    for i, env in enumerate(environments):
        stdin, want = calls[i % len(calls)]
        assert run_hook_process(stdin, cwd=repo.worktree, command=FAST_HOOK, env=env).stdout == want, i
        time.sleep(pause)


def test_fifty_homes_share_one_daemon_and_get_their_verdicts(repo: Repo, cache: Path, tmp_path: Path) -> None:
    """Before, every HOME started another daemon living 900 s (50 HOMEs: 50 daemons, 1.75 GiB)."""
    homes = [tmp_path / f"home-{i}" for i in range(50)]
    for home in homes:
        home.mkdir()
    judge_in_each(repo, [{"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")} for home in homes])
    wait_for_daemon(dict(os.environ))
    time.sleep(1.0)
    assert len(daemon_processes(cache)) == 1


def test_daemons_for_different_code_stay_within_the_cap_and_crowded_ones_leave_sooner(repo: Repo, cache: Path, tmp_path: Path) -> None:
    """Twelve start-up environments (PYTHONPATH) want twelve daemons: at most MAX_DAEMONS run, each call is right."""
    paths = [tmp_path / f"path-{i}" for i in range(12)]
    for path in paths:
        path.mkdir()
    # A pause after each call lets its daemon start, so that the cap, not a lost race, stops the next ones.
    judge_in_each(repo, [{"PYTHONPATH": str(path), "WT_GUARD_DAEMON_IDLE": "10"} for path in paths], pause=0.3)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(daemon_processes(cache)) > client.MAX_DAEMONS:
        time.sleep(0.2)
    running = daemon_processes(cache)
    assert 2 <= len(running) <= client.MAX_DAEMONS
    # Idle 10 s alone, but while several run each leaves after 10 / 5 = 2 s idle (plus its 1 s wake-up): all
    # but the last are gone well before 10 s.
    deadline = time.monotonic() + 7
    while time.monotonic() < deadline and len(daemon_processes(cache)) > 1:
        time.sleep(0.2)
    assert len(daemon_processes(cache)) <= 1


def test_a_lone_daemon_keeps_its_idle_time(repo: Repo, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WT_GUARD_DAEMON_IDLE", "10")
    stdin, want = expected(repo)[0]
    assert run_hook_process(stdin, cwd=repo.worktree, command=FAST_HOOK).stdout == want
    pid = wait_for_daemon(dict(os.environ))
    assert not wait_for_exit(pid, 5)  # crowded daemons would be gone after 3 s
    assert wait_for_exit(pid, 20)


def test_a_stopped_daemon_is_replaced_by_the_first_call_that_waits_for_it(repo: Repo, cache: Path) -> None:
    """Before, every call waited 10.2 s for as long as the daemon stayed stopped."""
    calls = expected(repo)
    env = dict(os.environ)
    run_hook_process(calls[0][0], cwd=repo.worktree, command=FAST_HOOK)
    old = wait_for_daemon(env)
    os.kill(old, signal.SIGSTOP)
    try:
        result, first = timed_call(calls[1][0], repo.worktree)
        assert result.stdout == calls[1][1]
        assert first >= client.REPLY_TIMEOUT  # it waited for the daemon, then judged in-process
        assert wait_for_exit(old, 10)  # proven ours and stopped: killed
        result, second = timed_call(calls[3][0], repo.worktree)
        assert result.stdout == calls[3][1]
        assert second < client.REPLY_TIMEOUT  # answered without waiting for anything
        new = wait_for_daemon(env)
        assert new != old
        result, third = timed_call(calls[2][0], repo.worktree)
        assert result.stdout == calls[2][1] and third < client.REPLY_TIMEOUT
    finally:
        try:
            os.kill(old, signal.SIGCONT)
        except ProcessLookupError:
            pass


@pytest.mark.parametrize("replacement", ["file", "removed", "another-socket"])
def test_a_replaced_socket_gets_a_working_daemon_within_a_few_calls(repo: Repo, cache: Path, replacement: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before, the orphan kept its lock for 900 s and every call was judged in-process meanwhile."""
    import socket as socket_module

    calls = expected(repo)
    env = dict(os.environ)
    run_hook_process(calls[0][0], cwd=repo.worktree, command=FAST_HOOK)
    old = wait_for_daemon(env)
    sock, _ = daemon_files(env)
    sock.unlink()
    other = None
    if replacement == "file":
        sock.write_text("not a socket")
    elif replacement == "another-socket":
        other = socket_module.socket(socket_module.AF_UNIX)
        directory_fd = os.open(sock.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            other.bind(f"/proc/self/fd/{directory_fd}/{sock.name}")  # the full path is over 108 bytes
        finally:
            os.close(directory_fd)
        other.listen(1)
    try:
        served = None
        for attempt in range(8):
            stdin, want = calls[attempt % len(calls)]
            assert run_hook_process(stdin, cwd=repo.worktree, command=FAST_HOOK).stdout == want
            monkeypatch.chdir(repo.worktree)
            try:
                exit_code, out, _ = client.ask_daemon(["hook"], calls[1][0], spawn=False)
            except client.NoDaemon:
                time.sleep(0.5)
                continue
            served = attempt + 1
            assert out + "\n" == calls[1][1]
            break
        assert served is not None and served <= 5, "no working daemon after 8 calls"
        assert wait_for_exit(old, 10)
        assert daemon_pid(env) not in (None, old)
    finally:
        if other is not None:
            other.close()


def test_a_hung_daemon_and_a_slow_fallback_still_answer_before_25_seconds(repo: Repo, cache: Path) -> None:
    """Timed, not a comparison of constants: a stopped daemon (the client's wait), then an in-process judgement
    made slow by 9,000 long agent definitions to read (under the 10,000 entries an agents directory may hold); the
    watchdog counts from the process's start and refuses."""
    calls = expected(repo)
    env = dict(os.environ)
    run_hook_process(calls[0][0], cwd=repo.worktree, command=FAST_HOOK)
    pid = wait_for_daemon(env)
    agents = repo.main / ".claude" / "agents" / "many"
    agents.mkdir(parents=True)
    front = "---\nname: other-{i}\ndescription: " + "x " * 200 + "\ntools: [" + ", ".join(f"t{j}" for j in range(400)) + "]\n---\nbody\n"
    for i in range(9_000):
        (agents / f"a{i}.md").write_text(front.format(i=i))
    slow = subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "inside.txt"), "content": "x"}, agent_type="not-defined-anywhere")
    os.kill(pid, signal.SIGSTOP)
    try:
        result, elapsed = timed_call(json.dumps(slow).encode(), repo.worktree)
    finally:
        try:
            os.kill(pid, signal.SIGCONT)
        except ProcessLookupError:
            pass
    assert result.returncode == 0
    assert result.decision == "deny" and result.reason.endswith("[worktree-guard WG000]"), result.stdout
    assert "longer than" in result.reason
    assert client.REPLY_TIMEOUT < elapsed < client.TOTAL_SECONDS


def test_128_concurrent_calls_get_the_serial_verdicts_none_after_25_seconds(repo: Repo, cache: Path) -> None:
    """Before, benign commands were refused WG901 or WG000 under this load, and 62 of 128 calls took over 30 s.

    Heavy: 128 hook processes at once on 2 cores (about 10-40 s with other work on the machine)."""
    calls = expected(repo)
    env = dict(os.environ)
    run_hook_process(calls[0][0], cwd=repo.worktree, command=FAST_HOOK)
    daemon = wait_for_daemon(env)
    stdin_dir = repo.base / "stdin"
    stdin_dir.mkdir()
    procs = []
    for i in range(128):
        stdin, _ = calls[i % len(calls)]
        path = stdin_dir / f"{i}.json"
        path.write_bytes(stdin)
        procs.append((i, time.monotonic(), subprocess.Popen([*FAST_HOOK], stdin=path.open("rb"), stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=repo.worktree)))
    slowest = 0.0
    for i, started, proc in procs:
        out, _ = proc.communicate(timeout=120)
        slowest = max(slowest, time.monotonic() - started)
        assert (proc.returncode, out.decode()) == (0, calls[i % len(calls)][1]), i
    assert slowest < client.TOTAL_SECONDS
    assert daemon_pid(env) == daemon  # busy is not hung: the daemon was not replaced
