"""A scratch world for driving another runtime's real client (Codex, Gemini, Copilot, Cline) in a linked worktree.

The repository's main checkout holds the guard's configuration and the runtime's hook configuration, written
by `worktree-guard install --runtime R` and committed as a team would; the session then runs in a linked
worktree `wt` made from it, so the guard confines it by its cwd (SPEC §3, §4). Nothing leaves the machine:
each client talks only to a fake model API on 127.0.0.1, with HOME and its config in scratch directories.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .harness import DROPPED_PREFIXES, GUARD_EXE

CODES = re.compile(r"\[worktree-guard ([A-Z0-9 ]+)\]")


def codes_in(text: str | None) -> set[str]:
    """The codes of every worktree-guard reason quoted in `text` (`[worktree-guard WG101 WG102]`)."""
    return {code for found in CODES.findall(text or "") for code in found.split()}


@dataclass
class Run:
    argv: list[str]
    returncode: int
    stdout: str
    stderr: str
    seconds: float

    def describe(self) -> str:
        return f"{self.argv[0]} exited {self.returncode} after {self.seconds:.1f}s; stdout: {self.stdout[-1500:]!r}; stderr: {self.stderr[-1500:]!r}"


class World:
    """`main` is the main checkout, `wt` the linked worktree the session runs in, `home` the client's HOME.

    `install_from="main"` (the default) installs the hooks in the main checkout and commits them, as a team
    would; `"wt"` runs `install` in the linked worktree instead, after it is made, and commits nothing.
    """

    def __init__(self, base: Path, runtime: str, install_from: str = "main") -> None:
        self.base = Path(os.path.realpath(base))
        self.runtime = runtime
        self.home = self.base / "home"
        self.main = self.base / "repo"
        self.wt = self.base / "wt"
        self.audit_log = self.base / "audit.jsonl"
        (self.main / "src").mkdir(parents=True)
        self.home.mkdir()
        self.git("init", "-q", "-b", "main")
        (self.main / "README.md").write_text("hello\n")
        (self.main / "src" / "app.py").write_text("print('app')\n")
        (self.main / ".worktree-guard.toml").write_text(f'audit_log = "{self.audit_log}"\n')
        if install_from == "main":
            self.install_output = self.install(self.main)
        self.git("add", "-A")
        self.git("commit", "-q", "-m", "init, with worktree-guard's hooks" if install_from == "main" else "init")
        self.git("worktree", "add", "-q", "-b", "work", str(self.wt))
        if install_from == "wt":
            self.install_output = self.install(self.wt)

    def install(self, where: Path) -> str:
        done = subprocess.run([str(GUARD_EXE), "install", "--runtime", self.runtime], cwd=where, capture_output=True, text=True, env=self.env(), timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(DROPPED_PREFIXES)}
        env.update(
            HOME=str(self.home),
            XDG_CONFIG_HOME=str(self.home / ".config"),
            NO_PROXY="127.0.0.1,localhost",
            WT_GUARD_DAEMON_IDLE="10",  # the hooks run through the daemon, which exits soon after the test
            GIT_AUTHOR_NAME="e2e", GIT_AUTHOR_EMAIL="e2e@example.invalid",
            GIT_COMMITTER_NAME="e2e", GIT_COMMITTER_EMAIL="e2e@example.invalid",
        )
        env.update(extra)
        return env

    def git(self, *args: str, cwd: Path | None = None) -> str:
        done = subprocess.run(["git", *args], cwd=cwd or self.main, capture_output=True, text=True, env=self.env())
        assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
        return done.stdout.strip()

    def run(self, argv: list[str], *, env: dict[str, str] | None = None, timeout: float = 240, cwd: Path | None = None) -> Run:
        """Run the client in the worktree (or `cwd`: the main checkout for a shared-workspace wave), offline, with no stdin."""
        started = time.monotonic()
        done = subprocess.run(argv, cwd=cwd or self.wt, capture_output=True, text=True, env=self.env(**(env or {})), timeout=timeout, stdin=subprocess.DEVNULL)
        run = Run(argv, done.returncode, done.stdout, done.stderr, time.monotonic() - started)
        assert done.returncode == 0, run.describe()
        return run

    def codex_home(self, base_url: str, *, model: str, trusted: Path) -> Path:
        """`$CODEX_HOME` with a config.toml that points Codex at a fake Responses API and trusts `trusted`."""
        home = self.home / ".codex"
        home.mkdir(exist_ok=True)
        (home / "config.toml").write_text(
            f'model = "{model}"\nmodel_provider = "fake"\napproval_policy = "never"\nsandbox_mode = "danger-full-access"\n'
            f'[model_providers.fake]\nname = "fake"\nbase_url = "{base_url}/v1"\nwire_api = "responses"\nenv_key = "FAKE_API_KEY"\n'
            f'[projects."{trusted}"]\ntrust_level = "trusted"\n'
        )
        return home

    def audit(self) -> list[dict[str, Any]]:
        if not self.audit_log.exists():
            return []
        return [json.loads(line) for line in self.audit_log.read_text().splitlines() if line.strip()]

    # --- what every runtime's scenario checks ----------------------------------------------------------

    def symlink_trick(self) -> Path:
        """`wt/a -> p/q`: `wt/a/../../repo` is the main checkout for a client that drops `a/..` as text, and
        `wt/repo` for the kernel (review finding 1)."""
        (self.wt / "p" / "q").mkdir(parents=True)
        (self.wt / "a").symlink_to("p/q")
        return self.wt / "a" / ".." / ".." / "repo"

    def main_untouched(self, *names: str) -> None:
        """The main checkout still has its branch, no branch `x`, and none of the files the agent aimed at it."""
        leaked = [name for name in names if (self.main / name).exists()]
        assert not leaked, f"{', '.join(leaked)} written into the main checkout"
        assert self.git("branch", "--show-current") == "main"
        assert self.git("branch", "--list", "x") == ""
