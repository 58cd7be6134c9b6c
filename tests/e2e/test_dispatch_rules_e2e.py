"""Dispatch rules and the leak check (SPEC §5.3, §5.4) inside the real CLI.

The pinned CLI lets a sub-agent dispatch a nested sub-agent (its Agent tool is available inside sub-agents),
so the nested case is exercised, not merely documented.
"""

from __future__ import annotations

import shlex


from .fake_anthropic import Request, text, tool_use
from .harness import Sandbox, dispatch



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
    """A leak no PreToolUse hook can see (an inline interpreter, opaque in the default profile) goes through;
    the leak check finds it at the stop, blocks the stop once, and the sub-agent reads the reason."""
    sandbox.set_up_guard(mode="enforce")
    leak = sandbox.repo / "LEAK.txt"
    script = f"open({str(leak)!r}, 'w').write('leak')"

    def after_stop(request: Request) -> list[dict]:
        return [text("reported the leak" if "WG60" in request.last_user_text else "no feedback")]

    sub = sandbox.script(
        "E2E-SUB-LEAK",
        [tool_use("Bash", {"command": f"python3 -c {shlex.quote(script)}"}, id="toolu_leak")],
        [text("done")],
        after_stop,
    )
    main = sandbox.script("E2E-MAIN-LEAK", [dispatch(f"{sub} work")], [text("done")])
    sandbox.claude(f"{main} go")

    assert not sandbox.fake.tool_result("toolu_leak").get("is_error"), "the inline interpreter ran"
    assert leak.exists(), "the leak happened: no PreToolUse hook could see it"
    feedback = [r.last_user_text for r in sandbox.fake.scripted(sub) if "WG60" in r.last_user_text]
    assert feedback, "the sub-agent never received the leak check's reason"
    assert "LEAK.txt" in feedback[0] and "WG602" in feedback[0], feedback[0]
