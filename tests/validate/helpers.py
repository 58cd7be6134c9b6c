"""Helpers of the validate tests: session fixtures rendered onto a real repository, the command run in-process."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Repo, git

SESSIONS = Path(__file__).resolve().parents[2] / "fixtures" / "sessions"
AGENT = "a1234567890abcdef"
ESCAPES = "5e55e5e5-0000-4000-8000-000000000001"
CLEAN = "c1ea2c1e-0000-4000-8000-000000000002"


def placeholders(repo: Repo) -> dict[str, str]:
    return {
        "MAIN": str(repo.main),
        "WT": str(repo.worktree),
        "SIBLING": str(repo.sibling),
        "OUTSIDE": str(repo.outside),
        "HOME": os.environ["HOME"],
        "TMP": os.path.realpath(tempfile.gettempdir()),
    }


def render(template: Path, dest: Path, names: dict[str, str]) -> Path:
    """Copy a fixture folder, replacing `{NAME}` with the JSON-escaped path in every file."""
    for source in sorted(template.rglob("*")):
        target = dest / source.relative_to(template)
        if source.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            continue
        text = source.read_text()
        for key, value in names.items():
            text = text.replace("{" + key + "}", json.dumps(value)[1:-1])
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return dest


def sessions_factory(repo: Repo, tmp_path: Path) -> Callable[[str], Path]:
    """`sessions("escapes")`: that fixture folder rendered for `repo`, in a fresh directory."""

    def make(name: str) -> Path:
        dest = tmp_path / "projects" / name
        if dest.exists():
            shutil.rmtree(dest)
        return render(SESSIONS / name, dest, placeholders(repo))

    return make


@dataclass
class Run:
    """One `worktree-guard validate` run: exit code, findings (from --format json), stderr."""

    code: int
    findings: list[dict[str, Any]]
    out: str
    err: str

    def keys(self, *, prefixes: tuple[str, ...] = ("WG",)) -> set[tuple[str, str, str]]:
        """(tool_use_id, code, status) of the findings whose code starts with one of `prefixes`."""
        return {(f["tool_use_id"], f["code"], f["status"]) for f in self.findings if f["code"].startswith(prefixes)}


def validate_runner(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    """`validate(path, "--mode", "audit")`: runs the command in-process with --format json (unless given)."""
    from worktree_guard.cli import main

    def run(*args: str | Path) -> Run:
        argv = ["validate", *map(str, args)]
        if "--format" not in argv:
            argv += ["--format", "json"]
        capsys.readouterr()
        code = main(argv)
        captured = capsys.readouterr()
        findings = []
        if "--format" in argv and argv[argv.index("--format") + 1] == "json":
            findings = [json.loads(line) for line in captured.out.splitlines() if line.strip()]
        return Run(code, findings, captured.out, captured.err)

    return run


def line_of(path: Path, tool_use_id: str) -> int:
    """The 1-based line of the assistant record that holds the tool_use `tool_use_id`."""
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if f'"id":"{tool_use_id}"' in line and '"type":"assistant"' in line and '"agent_progress"' not in line:
            return number
    raise AssertionError(f"{tool_use_id} not in {path}")


def remove_worktree(main: Path, worktree: Path) -> None:
    """What Claude Code does with a clean sub-agent worktree once the sub-agent is done."""
    git("worktree", "remove", "--force", str(worktree), cwd=main)
