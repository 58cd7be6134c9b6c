"""Test helpers: real git repositories with real linked worktrees, Claude Code payloads, the hook as a subprocess."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
HOOK_EXE = Path(sys.executable).with_name("worktree-guard")
#: The hook's fastest command line (README, Performance): no site-packages until they are needed.
FAST_HOOK = [sys.executable, "-S", "-P", str(REPO_ROOT / "worktree_guard" / "fast_hook.py")]


def git(*args: str, cwd: Path | str) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return result.stdout


GIT_ENV = {
    "GIT_AUTHOR_NAME": "test",
    "GIT_AUTHOR_EMAIL": "test@example.invalid",
    "GIT_COMMITTER_NAME": "test",
    "GIT_COMMITTER_EMAIL": "test@example.invalid",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def isolate_environment(mp: pytest.MonkeyPatch, home: Path) -> None:
    """Keep the developer's own configuration, agent definitions, state and git identity out of the tests (and
    out of the hook processes they start): HOME, the XDG directories, CLAUDE_CONFIG_DIR, WORKTREE_GUARD_*."""
    home.mkdir(parents=True, exist_ok=True)
    mp.setenv("HOME", str(home))
    mp.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    mp.setenv("XDG_STATE_HOME", str(home / ".local" / "state"))  # the leak check's snapshots
    mp.setenv("XDG_CACHE_HOME", str(home / ".cache"))  # parse tables, entry points, the hook's code: never the developer's
    mp.delenv("CLAUDE_CONFIG_DIR", raising=False)
    mp.delenv("CLAUDE_PROJECT_DIR", raising=False)  # the main agent's record keeps it as the launch directory
    for key in list(os.environ):
        if key.startswith("WORKTREE_GUARD_"):
            mp.delenv(key)
    for key, value in GIT_ENV.items():
        mp.setenv(key, value)


@contextmanager
def isolated_environment(home: Path) -> Iterator[None]:
    """isolate_environment for a fixture wider than one test (module scope), undone when it closes."""
    with pytest.MonkeyPatch.context() as mp:
        isolate_environment(mp, home)
        yield


@dataclass
class Repo:
    """A main checkout, the acting agent's worktree, a sibling agent's worktree, and a worktree outside the main checkout."""

    base: Path
    main: Path
    worktree: Path
    sibling: Path
    outside: Path

    @property
    def agent_id(self) -> str:
        return self.worktree.name.removeprefix("agent-")


def make_repo(base: Path) -> Repo:
    base = Path(os.path.realpath(base))
    main = base / "repo"
    (main / "src").mkdir(parents=True)
    git("init", "-q", "-b", "main", cwd=main)
    (main / "README.md").write_text("hello\n")
    (main / "src" / "app.py").write_text("print('app')\n")
    git("add", "-A", cwd=main)
    git("commit", "-q", "-m", "init", cwd=main)
    worktree = main / ".claude" / "worktrees" / "agent-a1234567890abcdef"
    sibling = main / ".claude" / "worktrees" / "agent-afedcba0987654321"
    outside = base / "outside-wt"
    git("worktree", "add", "-q", "-b", "worktree-agent-a1234567890abcdef", str(worktree), cwd=main)
    git("worktree", "add", "-q", "-b", "worktree-agent-afedcba0987654321", str(sibling), cwd=main)
    git("worktree", "add", "-q", "-b", "outside", str(outside), cwd=main)
    return Repo(base=base, main=main, worktree=worktree, sibling=sibling, outside=outside)


def bare_clone(repo: Repo, base: Path) -> tuple[Path, Path]:
    """A bare clone of `repo` at `base/b.git` and a linked worktree of it on `main` at `base/wt` (both canonical)."""
    base = Path(os.path.realpath(base))
    bare, worktree = base / "b.git", base / "wt"
    git("clone", "-q", "--bare", str(repo.main), str(bare), cwd=base)
    git("worktree", "add", "-q", str(worktree), "main", cwd=bare)
    return bare, worktree


def payload(cwd: Path | str, tool: str, tool_input: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A PreToolUse payload shaped exactly as Claude Code sends it (research/hook-protocols.md §1.4)."""
    body: dict[str, Any] = {
        "session_id": "5f1c2a4e-0000-4000-8000-000000000001",
        "transcript_path": "/home/u/.claude/projects/-repo/5f1c2a4e-0000-4000-8000-000000000001.jsonl",
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
        "tool_use_id": "toolu_01TESTTESTTESTTESTTEST",
    }
    body.update(extra)
    return body


def subagent_payload(repo: Repo, tool: str, tool_input: dict[str, Any], **extra: Any) -> dict[str, Any]:
    extra.setdefault("agent_id", repo.agent_id)
    extra.setdefault("agent_type", "general-purpose")
    return payload(extra.pop("cwd", repo.worktree), tool, tool_input, **extra)


def lifecycle_payload(repo: Repo, event: str, **extra: Any) -> dict[str, Any]:
    """A SubagentStart or SubagentStop payload (hook-protocols.md §1.4): cwd is the sub-agent's worktree."""
    body: dict[str, Any] = {
        "session_id": "5f1c2a4e-0000-4000-8000-000000000001",
        "transcript_path": "/home/u/.claude/projects/-repo/5f1c2a4e-0000-4000-8000-000000000001.jsonl",
        "cwd": str(repo.worktree),
        "permission_mode": "default",
        "hook_event_name": event,
        "agent_id": repo.agent_id,
        "agent_type": "general-purpose",
    }
    if event == "SubagentStop":
        body.update(stop_hook_active=False, last_assistant_message="done")
    body.update(extra)
    return body


def write_agent(directory: Path, name: str, frontmatter: str, body: str = "You are an agent.\n") -> Path:
    """An agent definition `<directory>/.claude/agents/<name>.md` with the given YAML frontmatter lines."""
    path = directory / ".claude" / "agents" / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: test agent\n{frontmatter.strip()}\n---\n{body}")
    return path


@dataclass
class HookResult:
    returncode: int
    stdout: str
    stderr: str

    @property
    def output(self) -> dict[str, Any] | None:
        return json.loads(self.stdout) if self.stdout.strip() else None

    @property
    def decision(self) -> str:
        out = self.output
        if out is None:
            return "pass"
        specific = out.get("hookSpecificOutput", {})
        return specific.get("permissionDecision") or ("warn" if "systemMessage" in out else "?")

    @property
    def reason(self) -> str:
        out = self.output or {}
        return out.get("hookSpecificOutput", {}).get("permissionDecisionReason", "")

    @property
    def codes(self) -> list[str]:
        """The codes a deny, rewrite or warn names at the end of its reason (SPEC §6), in order; [] for a pass."""
        out = self.output or {}
        text = out.get("hookSpecificOutput", {}).get("permissionDecisionReason") or out.get("systemMessage") or ""
        match = re.search(r"\[worktree-guard ((?:WG\d{3} ?)+)\]$", text.rstrip())
        return match.group(1).split() if match else []

    @property
    def stop_blocked(self) -> bool:
        """SubagentStop: the top-level `decision: "block"` (hook-protocols.md §1.6)."""
        return (self.output or {}).get("decision") == "block"


def run_hook_process(
    data: dict[str, Any] | bytes | str,
    *args: str,
    env: dict[str, str] | None = None,
    cwd: Path | str | None = None,
    command: list[str] | None = None,
) -> HookResult:
    """`worktree-guard hook` as Claude Code runs it: a fresh process, the payload on stdin.

    `command` replaces `worktree-guard hook` (e.g. FAST_HOOK); `args` follow it.
    """
    if isinstance(data, dict):
        stdin = json.dumps(data).encode()
    elif isinstance(data, str):
        stdin = data.encode()
    else:
        stdin = data
    full_env = dict(os.environ)
    full_env.update(env or {})
    result = subprocess.run(
        [*(command or [str(HOOK_EXE), "hook"]), *args],
        input=stdin,
        capture_output=True,
        env=full_env,
        cwd=cwd,
        timeout=60,
    )
    return HookResult(result.returncode, result.stdout.decode(), result.stderr.decode())


def run_hook_inline(data: dict[str, Any], flags: dict[str, Any] | None = None, environ: dict[str, str] | None = None) -> HookResult:
    """The same hook, in this process (no interpreter start-up): for the many cases that need no subprocess."""
    from worktree_guard.hook import run_hook

    # The hook process runs in the agent's directory (as Claude Code starts it), not in the test runner's.
    where = data.get("cwd") if isinstance(data.get("cwd"), str) else None
    reply = run_hook(json.dumps(data).encode(), flags=flags, environ=environ, cwd=where)
    return HookResult(reply.exit_code, reply.stdout, reply.stderr)


# --- the daemon (worktree_guard.daemon) --------------------------------------------------------------


def daemon_environment(cache: Path, idle_seconds: float = 120) -> dict[str, str]:
    """Environment overrides that let hook processes use a daemon whose socket lives under `cache` (its own
    WT_GUARD_DAEMON_DIR, so that this test's daemons are not the user's or another test's)."""
    run = cache / "run"
    run.mkdir(parents=True, exist_ok=True, mode=0o700)
    return {"WT_GUARD_DAEMON": "1", "WT_GUARD_DAEMON_IDLE": str(idle_seconds), "XDG_CACHE_HOME": str(cache), "WT_GUARD_DAEMON_DIR": str(run / "worktree-guard")}


def daemon_files(env: dict[str, str]) -> tuple[Path, Path]:
    """(socket, lock file) of the daemon that serves hook processes started with `env` (the complete environment)."""
    from worktree_guard import client

    directory = Path(client.socket_dir(env))
    key = client.daemon_key(env)
    return directory / f"{key}.sock", directory / f"{key}.lock"


def daemon_pid(env: dict[str, str]) -> int | None:
    """The pid written in the daemon's lock file, while that process lives (the file outlives it)."""
    _, lock = daemon_files(env)
    try:
        pid = int(lock.read_text().split()[0])
        os.kill(pid, 0)
    except (OSError, ValueError, IndexError):
        return None
    return pid


def wait_for_daemon(env: dict[str, str], timeout: float = 60.0) -> int:
    """Wait until the daemon for `env` listens; its pid."""
    import time

    sock, _ = daemon_files(env)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pid = daemon_pid(env)
        if pid is not None and sock.exists():
            return pid
        time.sleep(0.05)
    raise AssertionError(f"no daemon listens at {sock} after {timeout} s")


def wait_for_exit(pid: int, timeout: float = 30.0) -> bool:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        try:  # reap it if it is our child
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
        time.sleep(0.05)
    return False


def stop_daemons(cache: Path) -> None:
    """Terminate every daemon whose lock file lies under `cache`, then kill any other daemon started with it
    (one in a directory moved aside, one stopped by a test)."""
    import signal

    for lock in cache.glob("run/worktree-guard/*.lock"):
        try:
            pid = int(lock.read_text().split()[0])
            os.kill(pid, signal.SIGTERM)
        except (OSError, ValueError, IndexError):
            continue
        wait_for_exit(pid, 10)
    for pid in daemon_processes(cache):
        os.kill(pid, signal.SIGKILL)
        wait_for_exit(pid, 10)


def daemon_processes(cache: Path) -> list[int]:
    """Live daemons whose environment names the runtime directory under `cache` (daemon_environment)."""
    marker = f"WT_GUARD_DAEMON_DIR={cache / 'run' / 'worktree-guard'}".encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            if b"worktree_guard.daemon" not in cmdline or marker not in Path(f"/proc/{entry}/environ").read_bytes().split(b"\0"):
                continue
            state = Path(f"/proc/{entry}/stat").read_bytes().rpartition(b")")[2].split()[0]
        except OSError:
            continue
        if state != b"Z":
            found.append(int(entry))
    return found


# --- third-party plugins ------------------------------------------------------------------------------

EMPTY_PLUGIN = "from worktree_guard.hookspecs import hookimpl\n\n@hookimpl\ndef worktree_guard_read_only_programs():\n    return {}\n"


def install_plugin(dist_dir: Path, code_dir: Path, name: str, module: str, code: str = EMPTY_PLUGIN) -> None:
    """A distribution (metadata in `dist_dir`) with a `worktree_guard` entry point `name` = `module`, whose code
    is in `code_dir` (a package path with dots allowed): a real installed distribution, found through
    importlib.metadata as pip leaves one."""
    dist = dist_dir / f"{name.replace('-', '_')}-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(f"[worktree_guard]\n{name} = {module}\n")
    path = code_dir.joinpath(*module.split("."))
    path.parent.mkdir(parents=True, exist_ok=True)
    for parent in list(path.parents)[: len(module.split(".")) - 1]:
        (parent / "__init__.py").touch()
    path.with_suffix(".py").write_text(code)


#: How a test id spells the characters pytest would escape. pytest escapes an `ids=[...]` string with
#: unicode_escape and keeps the escaped id on the module's mark, so a second collection in the same process (mutmut's
#: warm fork server, `bench/mutation.py --warmup collect`) escaped it again and got other ids (`\\\\cd` for
#: `\\cd`). An id in printable ASCII without a backslash is left as it is, and both collections agree.
_SPELLED_IN_IDS = {"\\": "<bs>", "\n": "<nl>", "\t": "<tab>"}


def plain_id(text: str, width: int) -> str:
    """A parametrized test's id from `text`'s first `width` characters, in printable ASCII without a backslash."""
    return "".join(_SPELLED_IN_IDS.get(c) or (c if " " <= c <= "~" else f"<U+{ord(c):04X}>") for c in text[:width])
