"""A plugin that fails to load (a broken third-party plugin, a damaged install) must not hide where the agent is.

The plugin manager is built before the payload's own errors are raised (so that even an unreadable payload is
refused in the runtime's words). The payload used to be read after it, so a failure there left the guess of
isolation with the hook process's own directory only: a hook started outside the worktree answered an internal
error as a note, and the call went through.
"""

from __future__ import annotations

import json

import pytest

from tests.helpers import Repo, subagent_payload
from worktree_guard import plugins, private_dir
from worktree_guard.hook import run_hook


def broken(**_: object) -> object:
    raise ImportError("No module named 'worktree_guard_broken_plugin'")


def test_an_isolated_agents_call_is_refused_when_a_plugin_cannot_load(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugins, "plugin_manager", broken)
    data = subagent_payload(repo, "Bash", {"command": f"cd {repo.main} && git switch -c x"})
    reply = run_hook(json.dumps(data).encode(), cwd="/")  # the hook process started outside every worktree
    out = json.loads(reply.stdout)
    assert reply.exit_code == 0 and out["hookSpecificOutput"]["permissionDecision"] == "deny", reply.stdout
    assert "[worktree-guard WG000]" in out["hookSpecificOutput"]["permissionDecisionReason"]
    assert "worktree_guard_broken_plugin" in out["hookSpecificOutput"]["permissionDecisionReason"]


def test_a_main_agents_call_is_still_let_through_with_a_note(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plugins, "plugin_manager", broken)
    data = {**subagent_payload(repo, "Bash", {"command": "ls"}), "cwd": str(repo.main)}
    data.pop("agent_id")
    data.pop("agent_type")
    reply = run_hook(json.dumps(data).encode(), cwd="/")
    assert reply.exit_code == 0 and "systemMessage" in json.loads(reply.stdout), reply.stdout


def test_the_cache_directory_is_found_without_a_passwd_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    import pwd

    def no_entry(uid: int) -> object:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", no_entry)
    assert private_dir.cache_root({"HOME": "", "XDG_CACHE_HOME": "rel"}) == "/.cache/worktree-guard"


def test_a_claim_of_isolation_in_the_hook_processs_project_counts_when_the_payloads_cwd_is_elsewhere(repo: Repo, tmp_path) -> None:
    """A plugin that failed to load leaves the guess of isolation to both directories: the payload's (Codex sends a
    command's workdir) and the hook process's. A project configuration that says `isolated = true` in either is a
    claim."""
    from worktree_guard.hook import _guess_isolated

    (repo.main / ".worktree-guard.toml").write_text("isolated = true\n")
    elsewhere = tmp_path / "not-a-repository"
    elsewhere.mkdir()
    state = {"payload": {"cwd": str(elsewhere), "hook_event_name": "PreToolUse", "tool_name": "Bash"}}
    assert _guess_isolated(state, {}, process_cwd=str(repo.main)) is True
    assert _guess_isolated(state, {}, process_cwd=str(elsewhere)) is False
