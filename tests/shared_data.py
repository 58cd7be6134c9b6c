"""Where the project's shared data (research notes, real command corpora) lives for tests.

`shared/` is not part of the repository: on a developer machine and in CI it sits beside the
checkout (`…/shared` next to `…/<checkout>`). `WG_SHARED_DIR` overrides the search.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]


def shared_dir() -> Path | None:
    """The shared/ directory, or None when it cannot be found."""
    override = os.environ.get("WG_SHARED_DIR")
    if override:
        path = Path(override)
        return path if path.is_dir() else None
    for ancestor in (REPO_ROOT, *REPO_ROOT.parents):
        candidate = ancestor / "shared"
        if (candidate / "realdata").is_dir():
            return candidate
    return None


def require_shared(*parts: str) -> Path:
    """A path under shared/; skips the test (with the reason) when shared/ or the path is absent."""
    base = shared_dir()
    if base is None:
        pytest.skip("shared/ data directory not found beside the checkout (set WG_SHARED_DIR)")
        raise AssertionError  # unreachable: pytest.skip raises
    path = base.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is missing from the shared data")
    return path


#: corpus → file under shared/realdata
CORPORA = {
    "dippy": "peer-corpora/dippy.jsonl",
    "parable": "peer-corpora/parable.jsonl",
    "safety-net": "peer-corpora/safety-net.jsonl",
    "owg": "peer-corpora/owg.jsonl",
    "cc-safe-setup": "peer-corpora/cc-safe-setup.jsonl",
    "nl2bash": "nl2bash/all.cm",
}


class Hang(BaseException):
    """Raised by the alarm; a BaseException so that parse()'s `except Exception` cannot eat it."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def on_alarm(signum: int, frame: Any) -> None:
        raise Hang

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def load(name: str) -> list[dict[str, str]]:
    path = require_shared("realdata", CORPORA[name])
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [{"cmd": line} for line in lines]


# The recorded sessions' worktrees live at <projects>/spotter-worktrees/<name>; other cwds are roots themselves.
_RECORDED_WORKTREE = re.compile(r"^(/home/USER/projects/spotter-worktrees/[^/]+)")


def transcript_bash_commands(base: Path | None = None) -> list[tuple[str, str, str]]:
    """(command, recorded cwd, recorded worktree root) of every Bash call in the real transcripts.

    From derived/agent_tool_calls.tsv, top-level records only (progress records repeat sub-agents' calls).
    """
    base = base or require_shared()
    path = base / "realdata" / "derived" / "agent_tool_calls.tsv"
    with open(path, newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["tool"] == "Bash" and r["via"] == "record"]
    out = []
    for row in rows:
        match = _RECORDED_WORKTREE.match(row["cwd"])
        out.append((row["target"], row["cwd"], match.group(1) if match else row["cwd"]))
    return out


def replay_in(worktree: Path, command: str, cwd: str, root: str) -> tuple[str, Path]:
    """A recorded command and cwd moved into `worktree`: the recorded worktree root becomes it."""
    moved_cwd = Path(cwd.replace(root, str(worktree), 1))
    moved_cwd.mkdir(parents=True, exist_ok=True)
    return command.replace(root, str(worktree)), moved_cwd


def bash_rejects(source: str) -> bool:
    bash = shutil.which("bash")
    assert bash is not None, "bash is needed to tell deliberately broken commands apart"
    proc = subprocess.run([bash, "-n"], input=source.encode(), capture_output=True, timeout=10)
    return proc.returncode != 0
