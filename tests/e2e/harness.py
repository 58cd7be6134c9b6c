"""A scratch world for one end-to-end run: a git repository, a HOME, the fake API, and the real CLI driven in it.

Nothing leaves the machine: the CLI talks only to the fake API on 127.0.0.1, its HOME, temp dir and config are
scratch directories, and its non-essential traffic, telemetry, auto-updater and error reporting are off.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .fake_anthropic import Block, FakeAnthropic, Turn, tool_use

GUARD_EXE = Path(sys.executable).with_name("worktree-guard")
# Variables of the developer's own session that must not reach the CLI or the guard under test (every
# WORKTREE_GUARD_* variable is a guard setting, and an unknown one is a configuration error).
DROPPED_PREFIXES = ("ANTHROPIC_", "CLAUDE", "WORKTREE_GUARD_", "WT_GUARD_", "OTEL_")


@dataclass
class CliRun:
    """One `claude -p … --output-format stream-json` run."""

    args: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def result(self) -> dict[str, Any]:
        """The final `result` event (the run's summary)."""
        results = [e for e in self.events if e.get("type") == "result"]
        return results[-1] if results else {}

    def describe(self) -> str:
        return f"claude exited {self.returncode} after {self.seconds:.1f}s; stderr: {self.stderr.strip()[-1500:]!r}"


def dispatch(prompt: str, *, isolation: str | None = "worktree", id: str | None = None, **extra: Any) -> Block:
    """An Agent tool call that starts a general-purpose sub-agent with `prompt` (its script's marker).

    It asks for a foreground run, so the tool_result holds the sub-agent's report on every version (newer CLIs
    run sub-agents in the background by default).
    """
    tool_input: dict[str, Any] = {
        "description": "e2e sub-agent",
        "prompt": prompt,
        "subagent_type": "general-purpose",
        "run_in_background": False,
        **extra,
    }
    if isolation is not None:
        tool_input["isolation"] = isolation
    return tool_use("Agent", tool_input, id=id)


@dataclass
class Sandbox:
    """The scratch world: `repo` is the main checkout the session starts in; `fake` answers the CLI."""

    base: Path
    cli: Path
    fake: FakeAnthropic

    def __post_init__(self) -> None:
        self.base = Path(os.path.realpath(self.base))
        self.home = self.base / "home"
        self.cc_tmp = self.base / "claude-tmp"
        self.repo = self.base / "repo"
        self.audit_log = self.base / "audit.jsonl"
        for directory in (self.home, self.cc_tmp, self.repo / "src"):
            directory.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        (self.repo / "README.md").write_text("hello\n")
        (self.repo / "src" / "app.py").write_text("print('app')\n")
        self.git("add", "-A")
        self.git("commit", "-q", "-m", "init")

    # --- the world -------------------------------------------------------------------------------------

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of the CLI (and so of the hooks it runs)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(DROPPED_PREFIXES)}
        env.update(
            HOME=str(self.home),
            XDG_CONFIG_HOME=str(self.home / ".config"),
            CLAUDE_CODE_TMPDIR=str(self.cc_tmp),
            ANTHROPIC_BASE_URL=self.fake.base_url,
            ANTHROPIC_API_KEY="sk-ant-e2e-fake-key",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_TELEMETRY="1",
            DISABLE_AUTOUPDATER="1",
            DISABLE_ERROR_REPORTING="1",
            IS_SANDBOX="1",  # lets root use --permission-mode bypassPermissions
            NO_PROXY="127.0.0.1,localhost",
            # The hooks run as in real use, through the daemon, which then exits soon after the test.
            WT_GUARD_DAEMON_IDLE="10",
        )
        env.update(extra)
        return env

    def git(self, *args: str, cwd: Path | None = None, check: bool = True) -> str:
        result = subprocess.run(["git", *args], cwd=cwd or self.repo, capture_output=True, text=True, env=self.env())
        if check and result.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed: {result.stderr}")
        return result.stdout.strip()

    def guard(self, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        """Run the installed `worktree-guard` command as a user would, in this world."""
        return subprocess.run([str(GUARD_EXE), *args], cwd=cwd or self.repo, capture_output=True, text=True, env=self.env(), timeout=60)

    def configure(self, mode: str = "enforce") -> None:
        """Write the guard's project configuration: the mode, and an audit log outside the checkout."""
        (self.repo / ".worktree-guard.toml").write_text(f'mode = "{mode}"\naudit_log = "{self.audit_log}"\n')

    def set_up_guard(self, mode: str = "enforce", scope: str = "--project") -> None:
        """Configure the guard and install its hooks with `worktree-guard install`, committed like a team would."""
        self.configure(mode)
        done = self.guard("install", scope)
        assert done.returncode == 0, done.stderr
        self.git("add", "-A")
        self.git("commit", "-q", "-m", "guard")

    def audit(self) -> list[dict[str, Any]]:
        """The guard's audit records (one per verdict), proof that the CLI ran the hook."""
        if not self.audit_log.exists():
            return []
        return [json.loads(line) for line in self.audit_log.read_text().splitlines() if line.strip()]

    # --- driving the CLI -------------------------------------------------------------------------------

    def script(self, marker: str, *turns: Turn) -> str:
        """Register the turns the fake model plays when `marker` opens a conversation; returns the marker."""
        self.fake.scripts[marker] = list(turns)
        return marker

    def claude(self, prompt: str, *, cwd: Path | None = None, args: tuple[str, ...] = (), env: dict[str, str] | None = None, timeout: float = 180) -> CliRun:
        """`claude -p PROMPT --output-format stream-json --verbose`, offline, permission prompts bypassed."""
        argv = [str(self.cli), "-p", prompt, "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions", *args]
        started = time.monotonic()
        done = subprocess.run(argv, cwd=cwd or self.repo, capture_output=True, text=True, env=self.env(**(env or {})), timeout=timeout)
        seconds = time.monotonic() - started
        events = []
        for line in done.stdout.splitlines():
            try:
                events.append(json.loads(line))
            except ValueError:
                continue
        run = CliRun(argv, done.returncode, done.stdout, done.stderr, seconds, events)
        assert not self.fake.errors, f"the fake model's script failed: {self.fake.errors}"
        assert done.returncode == 0, run.describe()
        return run

    def worktrees(self) -> dict[str, str]:
        """path → branch of every worktree of the repository (`git worktree list`)."""
        out: dict[str, str] = {}
        path = None
        for line in self.git("worktree", "list", "--porcelain").splitlines():
            if line.startswith("worktree "):
                path = line[len("worktree ") :]
                out[path] = ""
            elif line.startswith("branch ") and path:
                out[path] = line[len("branch ") :].removeprefix("refs/heads/")
        return out
