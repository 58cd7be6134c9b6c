"""`validate` on recorded sessions of a real repository: every file-tool escape found, nothing else.

The Bash escapes of the same fixture are asserted in test_bash_escapes.py; here only the codes of the
file rule and the engine (WG0xx, WG1xx) count, so these tests hold before and after the Bash rules land.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from tests.validate.helpers import AGENT, CLEAN, ESCAPES, line_of, remove_worktree

FILE_CODES = ("WG0", "WG1")


def sub_file(root: Path, session: str) -> Path:
    return root / session / "subagents" / f"agent-{AGENT}.jsonl"


def by_id(findings: list[dict[str, Any]], tool_use_id: str) -> dict[str, Any]:
    (found,) = [f for f in findings if f["tool_use_id"] == tool_use_id and f["code"].startswith(FILE_CODES)]
    return found


def test_escapes_are_reported_exactly(sessions, validate, repo) -> None:
    root = sessions("escapes")
    run = validate(root)
    assert run.code == 1
    assert run.keys(prefixes=FILE_CODES) == {
        ("toolu_esc_write_parent", "WG101", "violation"),
        ("toolu_esc_write_blocked", "WG101", "blocked"),
    }
    assert len([f for f in run.findings if f["code"].startswith(FILE_CODES)]) == 2  # no copy from the parent's progress records
    leak = by_id(run.findings, "toolu_esc_write_parent")
    assert leak["file"] == str(sub_file(root, ESCAPES))
    assert leak["line"] == line_of(sub_file(root, ESCAPES), "toolu_esc_write_parent")
    assert leak["tool"] == "Write" and leak["agent_id"] == AGENT and leak["agent_type"] == "general-purpose"
    assert leak["path"] == f"{repo.main}/src/app.py"
    assert leak["shared_root"] == str(repo.main)
    assert leak["worktree_root"] == str(repo.worktree)
    assert leak["suggestion"] == f"{repo.worktree}/src/app.py"
    assert leak["outcome"] == "executed" and leak["isolated"] is True
    assert leak["layout_source"] == "live repository (linked worktree)"
    blocked = by_id(run.findings, "toolu_esc_write_blocked")
    assert (blocked["outcome"], blocked["outcome_detail"]) == ("refused", "denied by worktree-guard (WG101)")


def test_a_cut_off_line_is_reported_and_skipped(sessions, validate) -> None:
    root = sessions("escapes")
    run = validate(root)
    parent = root / f"{ESCAPES}.jsonl"
    last = len(parent.read_text().splitlines())
    assert f"{parent}:{last}  not valid JSON" in run.err
    assert "skipped 1 unreadable line, 0 files" in run.err


def test_clean_session_has_no_finding(sessions, validate) -> None:
    root = sessions("clean")
    run = validate(root)
    assert (run.code, run.findings) == (0, [])
    assert "18 tool calls (18 judged" in run.err
    assert "skipped 0 unreadable lines, 0 files" in run.err
    audit = validate(root, "--mode", "audit")
    assert (audit.code, audit.findings) == (0, [])


def test_clean_session_with_a_garbled_line_still_exits_0(sessions, validate) -> None:
    root = sessions("clean")
    with open(root / f"{CLEAN}.jsonl", "a") as f:
        f.write("\x00\x01 not json\n")
    run = validate(root)
    assert run.code == 0
    assert f"{CLEAN}.jsonl:8  not a complete JSON record" in run.err


def test_audit_mode_also_reports_the_agent_that_is_not_isolated(sessions, validate, repo) -> None:
    root = sessions("escapes")
    run = validate(root, "--mode", "audit")
    assert run.keys(prefixes=FILE_CODES) == {
        ("toolu_esc_write_parent", "WG101", "violation"),
        ("toolu_esc_write_blocked", "WG101", "blocked"),
        ("toolu_esc_main_outside", "WG101", "violation"),
    }
    main = by_id(run.findings, "toolu_esc_main_outside")
    assert main["isolated"] is False and main["agent_id"] is None
    assert main["shared_root"] == str(repo.outside) and main["worktree_root"] == str(repo.main)


def test_worktree_removed_after_the_session(sessions, validate, repo) -> None:
    remove_worktree(repo.main, repo.worktree)
    run = validate(sessions("escapes"))
    assert run.keys(prefixes=FILE_CODES) == {
        ("toolu_esc_write_parent", "WG101", "violation"),
        ("toolu_esc_write_blocked", "WG101", "blocked"),
    }
    leak = by_id(run.findings, "toolu_esc_write_parent")
    assert leak["layout_source"] == "cwd layout <checkout>/.claude/worktrees/agent-a1234567890abcdef"
    assert leak["worktree_root"] == str(repo.worktree)
    assert str(repo.main) in leak["shared_roots"] and str(repo.outside) in leak["shared_roots"]


def test_whole_repository_gone(sessions, validate, repo) -> None:
    root = sessions("escapes")
    shutil.rmtree(repo.base)
    run = validate(root)
    assert run.keys(prefixes=FILE_CODES) == {
        ("toolu_esc_write_parent", "WG101", "violation"),
        ("toolu_esc_write_blocked", "WG101", "blocked"),
    }
    assert by_id(run.findings, "toolu_esc_write_parent")["shared_roots"] == [str(repo.main)]


def test_root_and_shared_flags_name_w_and_s(sessions, validate, repo) -> None:
    """--root names W for every agent replayed: here the sub-agent's own transcript, its repository gone."""
    transcript = sub_file(sessions("escapes"), ESCAPES)
    shutil.rmtree(repo.base)
    run = validate(transcript, "--root", repo.worktree, "--shared", repo.main)
    assert run.keys(prefixes=FILE_CODES) == {
        ("toolu_esc_write_parent", "WG101", "violation"),
        ("toolu_esc_write_blocked", "WG101", "blocked"),
    }
    leak = by_id(run.findings, "toolu_esc_write_parent")
    assert leak["layout_source"] == "--root flag" and leak["worktree_root"] == str(repo.worktree)
    assert leak["shared_roots"] == [str(repo.main)]
    elsewhere = validate(transcript, "--root", repo.base / "elsewhere", "--shared", repo.main, "--mode", "audit")
    assert {f["worktree_root"] for f in elsewhere.findings} == {str(repo.base / "elsewhere")}


def test_missing_subagent_transcript_falls_back_to_the_parents_progress_copies(sessions, validate, repo) -> None:
    root = sessions("escapes")
    sub_file(root, ESCAPES).unlink()
    remove_worktree(repo.main, repo.worktree)
    run = validate(root)
    assert run.keys(prefixes=FILE_CODES) == {("toolu_esc_write_parent", "WG101", "violation")}
    leak = by_id(run.findings, "toolu_esc_write_parent")
    assert leak["file"] == str(root / f"{ESCAPES}.jsonl")
    assert leak["worktree_root"] == str(repo.worktree)
    assert "dispatched with isolation: worktree" in leak["layout_source"]


def test_worktree_state_record_when_nothing_is_left(tmp_path, validate) -> None:
    """A session started with a worktree (`worktree-state`), replayed where neither checkout exists."""
    gone = tmp_path / "gone"
    main, worktree = f"{gone}/repo", f"{gone}/trees/feature"
    session = "a0000000-0000-4000-8000-000000000003"
    records = [
        {"type": "worktree-state", "sessionId": session, "worktreeSession": {
            "originalCwd": main, "worktreePath": worktree, "worktreeName": "feature", "worktreeBranch": "feature",
            "originalBranch": "main", "originalHeadCommit": "0" * 40, "sessionId": session, "hookBased": False}},
        {"type": "assistant", "cwd": worktree, "sessionId": session, "uuid": "u1", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_ws_1", "name": "Write", "input": {"file_path": f"{main}/a.py", "content": ""}},
            {"type": "tool_use", "id": "toolu_ws_2", "name": "Write", "input": {"file_path": f"{worktree}/a.py", "content": ""}}]}},
    ]
    path = tmp_path / "projects" / f"{session}.jsonl"
    path.parent.mkdir()
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    run = validate(path)
    assert run.keys() == {("toolu_ws_1", "WG101", "violation")}
    (leak,) = run.findings
    assert leak["layout_source"] == f"worktree-state record ({path.name}:1)"
    assert leak["outcome"] == "no result" and leak["worktree_root"] == worktree


def test_jobs_give_the_same_findings(sessions, validate) -> None:
    sessions("escapes")
    root = sessions("clean").parent
    one = validate(root)
    two = validate(root, "--jobs", "2")
    assert one.findings == two.findings and one.code == two.code == 1
    assert one.err.split("; ")[:-1] == two.err.split("; ")[:-1]  # same summary but for the time


def test_usage_errors_exit_2(tmp_path, validate) -> None:
    assert validate(tmp_path / "missing").code == 2
    assert validate(tmp_path).code == 2  # nothing to validate
    assert validate(tmp_path, "--jobs", "0").code == 2
