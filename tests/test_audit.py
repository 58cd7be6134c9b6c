"""The audit log: one JSON line per verdict, parallel hooks never interleave."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.helpers import Repo, run_hook_process, subagent_payload
from worktree_guard.audit import AuditRecord


def test_every_verdict_is_one_line_without_file_content(repo: Repo, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    env = {"WORKTREE_GUARD_AUDIT_LOG": str(log)}
    run_hook_process(subagent_payload(repo, "Write", {"file_path": str(repo.main / "a"), "content": "SECRET"}), env=env)
    run_hook_process(subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "a"), "content": "SECRET"}), env=env)
    lines = log.read_text().splitlines()
    records = [AuditRecord.model_validate_json(line) for line in lines]
    assert [r.decision for r in records] == ["deny", "pass"]
    assert records[0].codes == ["WG101"] and records[0].violations[0].suggestion == str(repo.worktree / "a")
    assert "SECRET" not in log.read_text()
    assert oct(log.stat().st_mode & 0o777) == "0o600"


def test_parallel_hooks_never_interleave(repo: Repo, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    env = {"WORKTREE_GUARD_AUDIT_LOG": str(log)}
    long_name = "x" * 3000  # lines longer than PIPE_BUF
    calls = [subagent_payload(repo, "Write", {"file_path": str(repo.main / f"{long_name}{i}"), "content": "c"}) for i in range(16)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        list(pool.map(lambda c: run_hook_process(c, env=env), calls))
    lines = log.read_text().splitlines()
    assert len(lines) == 16
    names = sorted(json.loads(line)["input"]["file_path"].rsplit(long_name, 1)[1] for line in lines)
    assert names == sorted(str(i) for i in range(16))


def test_unwritable_audit_log_is_wg000_for_isolated_agent(repo: Repo) -> None:
    env = {"WORKTREE_GUARD_AUDIT_LOG": "/proc/no-such-dir/audit.jsonl"}
    result = run_hook_process(subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "a"), "content": "c"}), env=env)
    assert result.decision == "deny" and "WG000" in result.reason and "no-such-dir" in result.reason
