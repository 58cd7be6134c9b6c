"""The pinned coding-agent clients the end-to-end tests drive: where each lives, and installing it.

Each client is installed from its own registry (npm, or PyPI for the Agent SDK) at the version observed in
`research/runtimes-observed.md`, outside the repository, in a cache shared by every checkout:
`$WT_GUARD_E2E_CLI_DIR`, else `$XDG_CACHE_HOME/worktree-guard` (default `~/.cache/worktree-guard`), in a
directory per package and version. An install goes to a temporary directory beside the target and is renamed
into place, so an interrupted or concurrent install never leaves half a client behind.

Run as a script (`python tests/e2e/clients.py [NAME…]`) it installs the clients (all by default) and prints
where each is; `.ci/run` does that before pytest. A client whose registry cannot be reached is reported and
skipped by the tests with that message; any other install failure fails them.

Standard library only: it runs before the test environment exists.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path


def cache_root() -> Path:
    explicit = os.environ.get("WT_GUARD_E2E_CLI_DIR")
    if explicit:
        return Path(explicit)
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "worktree-guard"


# Computed once at import: tests later point HOME at scratch directories.
CACHE = cache_root()

# What a registry that cannot be reached looks like in npm's and pip's error output.
UNREACHABLE = re.compile(
    r"ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|network request|"
    r"Failed to establish a new connection|Temporary failure in name resolution|Max retries exceeded|"
    r"No matching distribution found|Could not find a version that satisfies",
    re.IGNORECASE,
)


class ClientUnavailable(Exception):
    """The client cannot be installed here for a reason outside the project (no npm, registry unreachable):
    its end-to-end tests are skipped with this message."""


@dataclass(frozen=True)
class Client:
    """One pinned client: `registry` is "npm" or "pypi"; `program` the executable an npm package puts in .bin."""

    name: str
    package: str
    version: str
    registry: str = "npm"
    program: str = ""

    @property
    def env_var(self) -> str:
        """The variable that runs the suite against another version of this client."""
        return f"WT_GUARD_E2E_{self.name.upper().replace('-', '_')}_VERSION"

    @property
    def pinned(self) -> str:
        return os.environ.get(self.env_var) or self.version

    @property
    def install_dir(self) -> Path:
        slug = self.package.strip("@").replace("/", "-")
        return CACHE / f"{slug}-{self.pinned}"

    @property
    def executable(self) -> Path:
        """npm: the client's program; pypi: the directory to put on PYTHONPATH."""
        if self.registry == "pypi":
            return self.install_dir / "site"
        return self.install_dir / "node_modules" / ".bin" / self.program

    def installed(self, where: Path | None = None) -> bool:
        """True when an install of the pinned version is complete at `where` (default: its place)."""
        base = self.install_dir if where is None else where
        return (base / ".complete").read_text().strip() == f"{self.package}@{self.pinned}" if (base / ".complete").exists() else False

    def ensure(self) -> Path:
        """The client's executable (or site directory), installing the pinned version first when missing."""
        if self.installed():
            return self.executable
        tools = ("node", "npm") if self.registry == "npm" else ()
        missing = [tool for tool in tools if shutil.which(tool) is None]
        if missing:
            raise ClientUnavailable(
                f"{' and '.join(missing)} not found: the end-to-end tests install {self.package}@{self.pinned} with npm "
                "and drive it; install Node.js (>= 20) to run them"
            )
        CACHE.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{self.install_dir.name}.", dir=CACHE))
        try:
            cmd, cwd = self._install_command(staging)
            result = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=1800, env=_quiet_env())
            if result.returncode != 0:
                output = (result.stderr + result.stdout).strip()[-2000:]
                if UNREACHABLE.search(output):
                    raise ClientUnavailable(f"the {self.registry} registry cannot be reached to install {self.package}@{self.pinned}: {output[-300:]}")
                raise RuntimeError(f"`{' '.join(cmd)}` failed ({result.returncode}): {output}")
            (staging / ".complete").write_text(f"{self.package}@{self.pinned}\n")
            if self.install_dir.exists():
                shutil.rmtree(self.install_dir)
            try:
                staging.rename(self.install_dir)
            except OSError:
                if not self.installed():  # not a concurrent install that won the race
                    raise
        finally:
            if staging.exists():
                shutil.rmtree(staging, ignore_errors=True)
        return self.executable

    def _install_command(self, staging: Path) -> tuple[list[str], Path]:
        spec = f"{self.package}@{self.pinned}" if self.registry == "npm" else f"{self.package}=={self.pinned}"
        if self.registry == "npm":
            (staging / "package.json").write_text('{"private": true}\n')
            return ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", spec], staging
        target = staging / "site"
        return [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--target", str(target), spec], staging


# The observed versions (research/runtimes-observed.md). The Agent SDK's wheel bundles the Claude Code CLI it runs.
CODEX = Client("codex", "@openai/codex", "0.171.0", program="codex")
GEMINI = Client("gemini", "@google/gemini-cli", "0.61.0", program="gemini")
COPILOT = Client("copilot", "@github/copilot", "1.0.102", program="copilot")
CLINE = Client("cline", "cline", "3.0.65", program="cline")
AGENT_SDK = Client("agent-sdk", "claude-agent-sdk", "0.2.184", registry="pypi")
CLIENTS = {c.name: c for c in (CODEX, GEMINI, COPILOT, CLINE, AGENT_SDK)}


def _quiet_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(DISABLE_AUTOUPDATER="1", DISABLE_TELEMETRY="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", PIP_NO_INPUT="1")
    return env


def main(names: list[str]) -> int:
    unknown = [n for n in names if n not in CLIENTS]
    if unknown:
        print(f"clients: unknown client(s) {', '.join(unknown)} (known: {', '.join(CLIENTS)})", file=sys.stderr)
        return 2
    status = 0
    for name in names or list(CLIENTS):
        client = CLIENTS[name]
        try:
            print(f"{name}: {client.ensure()}")
        except ClientUnavailable as e:
            print(f"clients: {name} skipped: {e}", file=sys.stderr)
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
            print(f"clients: {name} failed: {e}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
