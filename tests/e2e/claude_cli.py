"""The pinned Claude Code CLI for the end-to-end tests: where it lives, and installing it from npm.

Run as a script (`python tests/e2e/claude_cli.py`) it installs the CLI if needed and prints its path; `.ci/run`
does that before pytest. It is installed outside the repository, in a cache shared by every checkout:
`$WT_GUARD_E2E_CLI_DIR`, else `$XDG_CACHE_HOME/worktree-guard` (default `~/.cache/worktree-guard`),
in a directory per version. `WT_GUARD_E2E_CLAUDE_VERSION` runs the suite against another version.

Standard library only: it runs before the test environment exists.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PACKAGE = "@anthropic-ai/claude-code"
# 2.1.197: its own isolation check does not refuse git aimed at the shared checkout (2.1.332's does, see
# research/hook-protocols.md §9), so a passing Bash-rule scenario proves the guard refused it; its sub-agents
# run in the foreground; it supports Node >= 18.
PINNED_VERSION = "2.1.197"
VERSION = os.environ.get("WT_GUARD_E2E_CLAUDE_VERSION") or PINNED_VERSION


def cache_root() -> Path:
    explicit = os.environ.get("WT_GUARD_E2E_CLI_DIR")
    if explicit:
        return Path(explicit)
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "worktree-guard"


# 2.1.332: runs sub-agents in the background (a wave's orchestrator dispatches while its workers run) and knows
# forks (`subagent_type: "fork"` with CLAUDE_CODE_FORK_SUBAGENT=1). The wave and fork scenarios need it.
WAVE_VERSION = os.environ.get("WT_GUARD_E2E_WAVE_CLAUDE_VERSION") or "2.1.332"


def install_dir(version: str) -> Path:
    return cache_root() / f"claude-code-{version}"


def cli_path(version: str) -> Path:
    return install_dir(version) / "node_modules" / ".bin" / "claude"


# Computed once at import: tests later point HOME at scratch directories.
INSTALL_DIR = install_dir(VERSION)
CLI = cli_path(VERSION)


class CliUnavailable(Exception):
    """node/npm are missing: the end-to-end tests are skipped, with this message."""


def installed_version(cli: Path = CLI) -> str | None:
    """The version the CLI reports (`2.1.197`), or None when it is missing or does not run."""
    if not cli.exists():
        return None
    try:
        out = subprocess.run([str(cli), "--version"], capture_output=True, text=True, timeout=60, env=_quiet_env())
    except (OSError, subprocess.TimeoutExpired):
        return None
    words = out.stdout.split()
    return words[0] if out.returncode == 0 and words else None


def _quiet_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(DISABLE_AUTOUPDATER="1", DISABLE_TELEMETRY="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1")
    return env


def ensure_cli(version: str = VERSION) -> Path:
    """The path of the pinned CLI, installing it with npm first when it is not there yet.

    The install goes to a temporary directory beside the target and is renamed into place, so an interrupted
    or concurrent install never leaves a half-installed CLI behind. Raises CliUnavailable without node/npm,
    RuntimeError when npm fails.
    """
    target_dir, cli = install_dir(version), cli_path(version)
    if installed_version(cli) == version:
        return cli
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        raise CliUnavailable(
            f"{' and '.join(missing)} not found: the end-to-end tests install {PACKAGE}@{version} with npm "
            "and drive it; install Node.js (>= 18) to run them"
        )
    target_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".claude-code-{version}.", dir=target_dir.parent))
    try:
        (staging / "package.json").write_text('{"private": true}\n')
        cmd = ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", f"{PACKAGE}@{version}"]
        result = subprocess.run(cmd, cwd=staging, capture_output=True, text=True, timeout=900, env=_quiet_env())
        if result.returncode != 0:
            raise RuntimeError(f"`{' '.join(cmd)}` failed ({result.returncode}): {result.stderr.strip()[-2000:]}")
        got = installed_version(staging / "node_modules" / ".bin" / "claude")
        if got != version:
            raise RuntimeError(f"npm installed {PACKAGE}@{version}, but its `claude --version` says {got!r}")
        if target_dir.exists():
            shutil.rmtree(target_dir)
        try:
            staging.rename(target_dir)
        except OSError:
            if installed_version(cli) != version:  # not a concurrent install that won the race
                raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return cli


if __name__ == "__main__":
    try:
        print(ensure_cli())
        print(ensure_cli(WAVE_VERSION))
    except CliUnavailable as e:
        print(f"claude_cli: {e}", file=sys.stderr)
        sys.exit(0)
