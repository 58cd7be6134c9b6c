"""Units: how files are grouped, how W and S are reconstructed, how a tool result says whether a call ran."""

from __future__ import annotations

import os
from pathlib import Path

from worktree_guard.validate.calls import Anchor, WorktreeState
from worktree_guard.validate.layouts import LayoutHints, reconstruct, recorded_home
from worktree_guard.validate.outcomes import outcome_of
from worktree_guard.validate.sources import units_of


def record(session: str, cwd: str = "/r", agent: str | None = None) -> str:
    agent_field = f',"agentId":"{agent}","isSidechain":true' if agent else ""
    return f'{{"type":"user","sessionId":"{session}","cwd":"{cwd}"{agent_field},"message":{{"role":"user","content":"hi"}}}}\n'


def test_session_files_are_grouped_whatever_the_layout(tmp_path: Path) -> None:
    (tmp_path / "p" / "S1" / "subagents" / "workflows" / "run1").mkdir(parents=True)
    (tmp_path / "p" / "S1.jsonl").write_text(record("S1"))
    (tmp_path / "p" / "S1" / "subagents" / "agent-a1.jsonl").write_text(record("S1", agent="a1"))
    (tmp_path / "p" / "S1" / "subagents" / "workflows" / "run1" / "agent-a2.jsonl").write_text(record("S1", agent="a2"))
    (tmp_path / "p" / "S2.jsonl").write_text(record("S2"))
    (tmp_path / "p" / "agent-a3.jsonl").write_text(record("S2", agent="a3"))  # older builds: beside the session file
    (tmp_path / "copy").mkdir()
    (tmp_path / "copy" / "S2.jsonl").write_text(record("S2"))  # same session id elsewhere: another unit
    units, problems = units_of([str(tmp_path)])
    assert problems == []
    groups = sorted(tuple(os.path.relpath(f, tmp_path) for f in u.files) for u in units)
    assert groups == [
        ("copy/S2.jsonl",),
        ("p/S1.jsonl", "p/S1/subagents/agent-a1.jsonl", "p/S1/subagents/workflows/run1/agent-a2.jsonl"),
        ("p/S2.jsonl", "p/agent-a3.jsonl"),
    ]


def test_reconstruction_order(tmp_path: Path) -> None:
    home = str(tmp_path / "home")
    gone = str(tmp_path / "gone")
    claude = Anchor(cwd=f"{gone}/repo/.claude/worktrees/agent-x/src")
    found = reconstruct(claude, LayoutHints(), home)
    assert (found.layout.worktree_root, found.layout.shared_roots, found.layout.linked) == (f"{gone}/repo/.claude/worktrees/agent-x", [f"{gone}/repo"], True)
    state = WorktreeState(f"{gone}/wt", f"{gone}/repo", "s.jsonl", 3)
    found = reconstruct(Anchor(cwd=f"{gone}/wt", worktree_state=state), LayoutHints(shared=(f"{gone}/other",)), home)
    assert found.source == "worktree-state record (s.jsonl:3)"
    assert found.layout.shared_roots == [f"{gone}/repo", f"{gone}/other"]
    found = reconstruct(Anchor(cwd=f"{gone}/plain"), LayoutHints(), home)
    assert (found.layout.worktree_root, found.layout.linked, found.source) == (f"{gone}/plain", False, "first recorded cwd (no repository or worktree record found)")
    found = reconstruct(claude, LayoutHints(root=f"{gone}/w"), home)
    assert found.source == "--root flag" and found.layout.worktree_root == f"{gone}/w"
    inferred = Anchor(cwd=f"{gone}/repo", inferred_from="sub-agent a9 dispatched with isolation: worktree", worktree_agent="a9")
    found = reconstruct(inferred, LayoutHints(), home)
    assert found.layout.worktree_root == f"{gone}/repo/.claude/worktrees/agent-a9" and found.layout.shared_roots == [f"{gone}/repo"]


def test_live_repository_wins_over_the_path_shape(repo) -> None:
    found = reconstruct(Anchor(cwd=str(repo.worktree)), LayoutHints(), "/nohome")
    assert found.source == "live repository (linked worktree)"
    assert set(found.layout.shared_roots) == {str(repo.main), str(repo.sibling), str(repo.outside)}


def test_recorded_home() -> None:
    assert recorded_home("/home/USER/projects/x") == "/home/USER"
    assert recorded_home("/Users/me/x") == "/Users/me"
    assert recorded_home("/workspace", "/root/.claude/projects/-workspace/s.jsonl") == "/root"
    assert recorded_home("/workspace") is None
    assert recorded_home("/homely/x") is None


def test_outcome_of_a_tool_result() -> None:
    assert outcome_of(None) == ("no result", None)
    assert outcome_of(False) == ("executed", None)
    assert outcome_of(True, "Exit code 1\nboom")[0] == "executed"  # the command ran
    assert outcome_of(True, "Command timed out after 2m")[0] == "executed"
    assert outcome_of(True, "x [worktree-guard WG101 WG102]") == ("refused", "denied by worktree-guard (WG101 WG102)")
    assert outcome_of(True, "<tool_use_error>String to replace not found in file.\nString: a</tool_use_error>") == (
        "refused",
        "String to replace not found in file.",
    )
    assert outcome_of(True, "The user doesn't want to proceed with this tool use.")[0] == "refused"
    assert outcome_of(True, "Pre-commit validation failed:\n[FORMAT]")[0] == "refused"  # a hook's exit-2 stderr
