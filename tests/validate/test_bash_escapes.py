"""The Bash escapes of the `escapes` session (SPEC §5.2).

The file-tool half of the same session is asserted in test_validate_sessions.py; the clean session and the real
transcripts, whose assertions cover every rule, are there too.
"""

from __future__ import annotations

from tests.validate.helpers import AGENT, ESCAPES, remove_worktree

EVERY_ESCAPE = {
    ("toolu_esc_write_parent", "WG101", "violation"),
    ("toolu_esc_write_blocked", "WG101", "blocked"),
    ("toolu_esc_cd_switch", "WG201", "violation"),  # cd {MAIN}
    ("toolu_esc_cd_switch", "WG301", "violation"),  # … && git switch -c hotfix, in {MAIN}
    ("toolu_esc_redirect", "WG401", "violation"),  # echo leaked > notes.txt, cwd {MAIN}
}


def test_every_escape_and_nothing_else(sessions, validate, repo) -> None:
    run = validate(sessions("escapes"))
    assert run.code == 1
    assert run.keys() == EVERY_ESCAPE
    assert len(run.findings) == len(EVERY_ESCAPE)
    bash = [f for f in run.findings if f["tool"] == "Bash"]
    assert {f["shared_root"] for f in bash} == {str(repo.main)}
    assert {f["worktree_root"] for f in bash} == {str(repo.worktree)}  # W stays the sub-agent's after its cd
    (redirect,) = [f for f in bash if f["code"] == "WG401"]
    assert redirect["resolved"] == f"{repo.main}/notes.txt"
    assert redirect["file"].endswith(f"{ESCAPES}/subagents/agent-{AGENT}.jsonl")


def test_bash_escapes_after_the_worktree_is_gone(sessions, validate, repo) -> None:
    remove_worktree(repo.main, repo.worktree)
    assert validate(sessions("escapes")).keys() == EVERY_ESCAPE


def test_audit_mode_adds_only_the_parents_write(sessions, validate) -> None:
    run = validate(sessions("escapes"), "--mode", "audit")
    assert run.keys() == EVERY_ESCAPE | {("toolu_esc_main_outside", "WG101", "violation")}
