"""Dispatch rules and the leak check (SPEC §5.3, §5.4) inside the real CLI.

These need `worktree_guard.rules.dispatch`; until it is in this checkout they are skipped. The pinned CLI lets
a sub-agent dispatch a nested sub-agent (its Agent tool is available inside sub-agents), so the nested case
is exercised, not merely documented.
"""

from __future__ import annotations

import pytest

from .fake_anthropic import Request, text, tool_use
from .harness import Sandbox, dispatch

pytestmark = pytest.mark.needs_dispatch_rules


def test_nested_dispatch_without_isolation_gets_its_own_worktree(sandbox: Sandbox) -> None:
    sandbox.set_up_guard(mode="enforce")
    nested = sandbox.script("E2E-NESTED", [tool_use("Bash", {"command": "pwd"}, id="toolu_nested_pwd")], [text("nested done")])
    sub = sandbox.script(
        "E2E-SUB-NESTING",
        [dispatch(f"{nested} look around", isolation=None, id="toolu_nested_dispatch")],
        [text("sub done")],
    )
    main = sandbox.script("E2E-MAIN-NESTING", [dispatch(f"{sub} delegate further")], [text("done")])
    sandbox.claude(f"{main} go")

    sub_requests, nested_requests = sandbox.fake.scripted(sub), sandbox.fake.scripted(nested)
    assert sub_requests and nested_requests, "the sub-agent or the nested one never ran"
    sub_dir, nested_dir = sub_requests[0].working_directory, nested_requests[0].working_directory
    assert nested_dir and sub_dir and nested_dir != sub_dir, (sub_dir, nested_dir)
    assert sandbox.fake.tool_result_text("toolu_nested_pwd").strip() == nested_dir
    # The nested agent's directory is a worktree of its own (Claude Code removes it afterwards when clean).
    assert "/.claude/worktrees/agent-" in nested_dir, nested_dir
    (record,) = [r for r in sandbox.audit() if r.get("tool_use_id") == "toolu_nested_dispatch"]
    assert record["decision"] == "rewrite" and record["input"].get("isolation") is None, record
    assert not sandbox.fake.tool_result("toolu_nested_dispatch").get("is_error")


def test_leak_check_blocks_the_stop_of_a_subagent_that_wrote_the_parent_checkout(sandbox: Sandbox) -> None:
    """In warn mode the Bash write goes through (no PreToolUse refusal); the leak check sees it at the stop,
    blocks it, and the sub-agent reads the reason and cleans up."""
    sandbox.set_up_guard(mode="warn")
    leak = sandbox.repo / "LEAK.txt"

    def after_stop(request: Request) -> list[dict]:
        if "WG60" in request.last_user_text:
            return [tool_use("Bash", {"command": f"rm {leak}"}, id="toolu_cleanup")]
        return [text("no feedback")]

    sub = sandbox.script(
        "E2E-SUB-LEAK",
        [tool_use("Bash", {"command": f"echo leak > {leak}"}, id="toolu_leak")],
        [text("done")],
        after_stop,
        [text("cleaned up")],
    )
    main = sandbox.script("E2E-MAIN-LEAK", [dispatch(f"{sub} work")], [text("done")])
    sandbox.claude(f"{main} go")

    assert not sandbox.fake.tool_result("toolu_leak").get("is_error"), "warn mode let the write through"
    feedback = [r.last_user_text for r in sandbox.fake.scripted(sub) if "WG60" in r.last_user_text]
    assert feedback, "the sub-agent never received the leak check's reason"
    assert "LEAK.txt" in feedback[0] and "WG602" in feedback[0], feedback[0]
    assert sandbox.fake.tool_result("toolu_cleanup") is not None
    assert not leak.exists()
