"""The Bash rules (SPEC §5.2) inside the real CLI: an isolated sub-agent's shell escapes are refused.

The pinned CLI does not refuse any of these commands itself (research/hook-protocols.md §9), so a refusal
and an untouched parent checkout are the guard's doing.
"""

from __future__ import annotations

from .fake_anthropic import text, tool_use
from .harness import Sandbox, dispatch



def _audited(sandbox: Sandbox, tool_use_id: str) -> dict:
    """The one audit record of this call: proof that the guard, not the CLI, refused it."""
    (record,) = [r for r in sandbox.audit() if r.get("tool_use_id") == tool_use_id]
    return record


def _run_subagent_command(sandbox: Sandbox, name: str, command: str) -> tuple[dict, str]:
    """An isolated sub-agent runs one Bash command; returns its tool_result block and text."""
    tool_use_id = f"toolu_{name}"
    sub = sandbox.script(f"E2E-SUB-{name}", [tool_use("Bash", {"command": command}, id=tool_use_id)], [text("done")])
    main = sandbox.script(f"E2E-MAIN-{name}", [dispatch(f"{sub} run it")], [text("done")])
    sandbox.claude(f"{main} delegate")
    assert sandbox.fake.scripted(sub), "the sub-agent never ran"
    result = sandbox.fake.tool_result(tool_use_id)
    assert result is not None, "the CLI sent no tool_result for the command"
    return result, sandbox.fake.tool_result_text(tool_use_id)


def test_subagent_redirect_into_the_parent_checkout_is_refused(sandbox: Sandbox) -> None:
    sandbox.set_up_guard(mode="enforce")
    leak = sandbox.repo / "LEAK.txt"
    result, reason = _run_subagent_command(sandbox, "REDIRECT", f"echo leak > {leak}")

    assert not leak.exists()
    assert result.get("is_error") is True, result
    assert reason.rstrip().endswith("[worktree-guard WG401]"), reason
    record = _audited(sandbox, "toolu_REDIRECT")
    assert (record["decision"], record["codes"], record["tool"], record["isolated"]) == ("deny", ["WG401"], "Bash", True)


def test_subagent_cd_into_the_parent_and_git_switch_is_refused(sandbox: Sandbox) -> None:
    sandbox.set_up_guard(mode="enforce")
    before = sandbox.git("rev-parse", "HEAD")
    result, reason = _run_subagent_command(sandbox, "SWITCH", f"cd {sandbox.repo} && git switch -c x")

    assert sandbox.git("branch", "--show-current") == "main"
    assert sandbox.git("rev-parse", "HEAD") == before
    assert sandbox.git("branch", "--list", "x") == ""
    assert result.get("is_error") is True, result
    assert reason.rstrip().endswith("[worktree-guard WG201 WG301]"), reason
    record = _audited(sandbox, "toolu_SWITCH")
    assert (record["decision"], record["codes"], record["tool"], record["isolated"]) == ("deny", ["WG201", "WG301"], "Bash", True)
