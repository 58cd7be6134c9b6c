"""Nested dispatch (SPEC §5.3): what an isolated agent dispatches is isolated too; EnterWorktree stays in W."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from tests.helpers import Repo, payload, run_hook_inline, run_hook_process, subagent_payload, write_agent

# The Agent tool's input schema, from research/hook-protocols.md §2 (`cwd` is feature-gated but real in some
# builds). `additionalProperties: false` is why a rewrite may add `isolation` and nothing else.
AGENT_TOOL_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "description": {"type": "string"},
        "prompt": {"type": "string"},
        "subagent_type": {"type": "string"},
        "model": {"enum": ["sonnet", "opus", "haiku", "fable"]},
        "run_in_background": {"type": "boolean"},
        "name": {"type": "string"},
        "team_name": {"type": "string"},
        "mode": {"type": "string"},
        "isolation": {"enum": ["worktree", "remote"]},
        "cwd": {"type": "string"},
    },
    "required": ["description", "prompt"],
    "additionalProperties": False,
}

DISPATCH = {
    "description": "Write the parser tests",
    "prompt": "Add tests for the parser in src/",
    "subagent_type": "general-purpose",
    "model": "sonnet",
    "run_in_background": True,
}


def dispatch(repo: Repo, tool_input: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return subagent_payload(repo, "Agent", dict(DISPATCH if tool_input is None else tool_input), **extra)


def test_schema_is_strict() -> None:
    """The schema used below refuses an unknown field, so a rewrite that added one would fail these tests."""
    jsonschema.validate({**DISPATCH, "isolation": "worktree"}, AGENT_TOOL_SCHEMA)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**DISPATCH, "isolation": "worktree", "reason": "x"}, AGENT_TOOL_SCHEMA)


def test_nested_dispatch_without_isolation_is_rewritten_in_enforce_mode(repo: Repo) -> None:
    result = run_hook_process(dispatch(repo))
    assert result.returncode == 0
    specific = result.output["hookSpecificOutput"]
    updated = specific["updatedInput"]
    assert updated == {**DISPATCH, "isolation": "worktree"}
    jsonschema.validate(updated, AGENT_TOOL_SCHEMA)
    # The Agent tool needs no permission in any mode, so the rewrite is `allow` (SPEC §6), not a new prompt.
    assert specific["permissionDecision"] == "allow"
    assert specific["permissionDecisionReason"].endswith("[worktree-guard WG501]")
    assert "must be isolated too" in specific["permissionDecisionReason"]


@pytest.mark.parametrize("tool", ["Agent", "Task"])
@pytest.mark.parametrize("mode", ["enforce", "rewrite"])
def test_rewrite_echoes_the_whole_input_and_adds_only_isolation(repo: Repo, tool: str, mode: str) -> None:
    minimal = {"description": "d", "prompt": "p"}
    result = run_hook_inline(subagent_payload(repo, tool, minimal), flags={"mode": mode})
    updated = result.output["hookSpecificOutput"]["updatedInput"]
    assert updated == {"description": "d", "prompt": "p", "isolation": "worktree"}
    jsonschema.validate(updated, AGENT_TOOL_SCHEMA)


def test_nested_dispatch_with_isolation_passes(repo: Repo) -> None:
    result = run_hook_inline(dispatch(repo, {**DISPATCH, "isolation": "worktree"}))
    assert result.stdout == ""


@pytest.mark.parametrize("value", ["none", "None", None, ""])
def test_downgrade_is_denied(repo: Repo, value: Any) -> None:
    result = run_hook_inline(dispatch(repo, {**DISPATCH, "isolation": value}))
    assert result.decision == "deny"
    assert result.reason.endswith("[worktree-guard WG502]")
    assert '"isolation": "worktree"' in result.reason


def test_downgrade_allowed_by_configuration_passes(repo: Repo) -> None:
    call = dispatch(repo, {**DISPATCH, "isolation": "none"})
    assert run_hook_inline(call, environ={"WORKTREE_GUARD_ALLOW_ISOLATION_DOWNGRADE": "true"}).stdout == ""
    (repo.main / ".worktree-guard.toml").write_text("allow_isolation_downgrade = true\n")
    assert run_hook_inline(call).stdout == ""


def test_main_agent_dispatch_passes_unchanged(repo: Repo) -> None:
    result = run_hook_process(payload(repo.main, "Agent", dict(DISPATCH)))
    assert result.returncode == 0 and result.stdout == ""


def test_target_definition_declaring_isolation_is_honoured(repo: Repo) -> None:
    write_agent(repo.main, "worker", "isolation: worktree")
    result = run_hook_inline(dispatch(repo, {**DISPATCH, "subagent_type": "worker"}))
    assert result.stdout == ""  # WG501 as info only: the runtime isolates it anyway
    other = run_hook_inline(dispatch(repo, {**DISPATCH, "subagent_type": "reviewer"}))
    assert other.output["hookSpecificOutput"]["updatedInput"]["isolation"] == "worktree"


def test_target_definition_in_the_agents_own_worktree_does_not_skip_the_rewrite(repo: Repo) -> None:
    """The isolated agent can write its own worktree: a definition it wrote there must not switch prong C off."""
    write_agent(repo.worktree, "worker", "isolation: worktree")
    result = run_hook_inline(dispatch(repo, {**DISPATCH, "subagent_type": "worker"}))
    assert result.output["hookSpecificOutput"]["updatedInput"]["isolation"] == "worktree"


def test_definition_declaring_none_is_still_rewritten(repo: Repo) -> None:
    write_agent(repo.main, "worker", "isolation: none")
    result = run_hook_inline(dispatch(repo, {**DISPATCH, "subagent_type": "worker"}))
    assert result.output["hookSpecificOutput"]["updatedInput"]["isolation"] == "worktree"


def test_cwd_outside_the_worktree_is_denied(repo: Repo) -> None:
    result = run_hook_inline(dispatch(repo, {**DISPATCH, "cwd": str(repo.main / "src")}))
    assert result.decision == "deny"
    assert "WG503" in result.reason and str(repo.worktree / "src") in result.reason
    result = run_hook_inline(dispatch(repo, {**DISPATCH, "cwd": "/etc"}))
    assert result.decision == "deny" and "WG503" in result.reason


def test_cwd_inside_the_worktree_passes_without_isolation(repo: Repo) -> None:
    """`cwd` and `isolation` are mutually exclusive in the Agent tool; a cwd inside W keeps the sub-agent there."""
    result = run_hook_inline(dispatch(repo, {**DISPATCH, "cwd": str(repo.worktree / "src")}))
    assert result.stdout == ""


def test_fork_by_a_fork_is_denied(repo: Repo) -> None:
    fork = {**DISPATCH, "subagent_type": "fork", "isolation": "worktree"}
    result = run_hook_inline(dispatch(repo, fork, agent_type="fork"))
    assert result.decision == "deny" and "WG504" in result.reason
    assert run_hook_inline(dispatch(repo, fork)).stdout == ""


def test_a_rewrite_never_hides_a_deny(repo: Repo) -> None:
    """Missing isolation (fixable) together with a cwd in the main checkout (not fixable): denied, both named."""
    result = run_hook_inline(dispatch(repo, {**DISPATCH, "cwd": str(repo.main)}), flags={"mode": "rewrite"})
    assert result.decision == "deny"
    assert "WG503" in result.reason and "WG501" in result.reason


def test_warn_and_off_modes(repo: Repo) -> None:
    warned = run_hook_inline(dispatch(repo), flags={"mode": "warn"})
    assert warned.decision == "warn" and "updatedInput" not in warned.output.get("hookSpecificOutput", {})
    assert run_hook_inline(dispatch(repo), flags={"mode": "off"}).stdout == ""


def test_misplaced_agent_dispatch_is_refused(repo: Repo) -> None:
    write_agent(repo.main, "worker", "isolation: worktree")
    result = run_hook_inline(payload(repo.main, "Agent", dict(DISPATCH), agent_id="a1", agent_type="worker"))
    assert result.decision == "deny" and "WG002" in result.reason


@pytest.mark.parametrize("where,expected", [("main", "deny"), ("sibling", "deny"), ("worktree", "pass")])
def test_enter_worktree_path(repo: Repo, where: str, expected: str) -> None:
    target = {"main": repo.main, "sibling": repo.sibling, "worktree": repo.worktree}[where]
    result = run_hook_inline(subagent_payload(repo, "EnterWorktree", {"path": str(target)}))
    assert result.decision == expected
    if expected == "deny":
        assert result.reason.endswith("[worktree-guard WG505]")


def test_enter_worktree_by_name_passes(repo: Repo) -> None:
    assert run_hook_inline(subagent_payload(repo, "EnterWorktree", {"name": "feature-x"})).stdout == ""
