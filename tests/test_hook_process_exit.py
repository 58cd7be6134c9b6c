"""fast_hook.py ends with `posix._exit` once its reply is flushed: nothing the call wrote may depend on the tear-down.

What the interpreter's normal exit would still do — flush buffered files, run exit handlers, join threads —
is skipped, so each thing a judged call leaves behind is checked here through the installed command, judged
in-process: the reply (stdout, complete), the audit line, a sub-agent's start record.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.helpers import FAST_HOOK, Repo, lifecycle_payload, run_hook_process, subagent_payload


def test_the_reply_and_the_audit_line_are_complete(repo: Repo, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    data = subagent_payload(repo, "Write", {"file_path": str(repo.main / "src" / "app.py"), "content": "x" * 100_000})
    result = run_hook_process(data, "--audit-log", str(log), cwd=repo.worktree, command=FAST_HOOK, env={"WT_GUARD_DAEMON": "0"})
    assert result.returncode == 0 and result.codes == ["WG101"]
    assert result.stdout.endswith("}\n") and json.loads(result.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"
    lines = log.read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["codes"] == ["WG101"]


def test_a_subagents_start_record_is_on_disk_when_the_process_has_ended(repo: Repo) -> None:
    started = run_hook_process(lifecycle_payload(repo, "SubagentStart"), cwd=repo.worktree, command=FAST_HOOK, env={"WT_GUARD_DAEMON": "0"})
    assert started.returncode == 0 and str(repo.worktree) in started.stdout
    saved = list(Path(os.environ["XDG_STATE_HOME"], "worktree-guard", "subagents").glob("*/*.json"))
    assert len(saved) == 1 and json.loads(saved[0].read_text())["blocks"] == 0
