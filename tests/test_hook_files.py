"""`worktree-guard hook` as a subprocess, fed Claude Code's exact payload shape, for the file tools (SPEC §5.1, §6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import Repo, payload, run_hook_process, subagent_payload, write_agent


def write(repo: Repo, path: str | Path, **extra) -> dict:
    return subagent_payload(repo, "Write", {"file_path": str(path), "content": "x = 1\n"}, **extra)


def assert_protocol(result) -> None:
    """Every reply: exit 0, stdout empty or one JSON object, nothing on stderr that looks like a traceback."""
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    if result.stdout.strip():
        assert isinstance(json.loads(result.stdout), dict)


def test_write_inside_worktree_passes_silently(repo: Repo) -> None:
    result = run_hook_process(write(repo, repo.worktree / "src" / "new.py"))
    assert_protocol(result)
    assert result.stdout == ""


def test_relative_path_resolves_against_payload_cwd_not_process_cwd(repo: Repo) -> None:
    result = run_hook_process(write(repo, "src/new.py"), cwd=repo.main)
    assert result.stdout == ""
    result = run_hook_process(write(repo, "../../../src/app.py"), cwd=repo.worktree)
    assert result.decision == "deny" and result.codes == ["WG101"]


def test_write_into_main_checkout_is_denied_with_the_worktree_path(repo: Repo) -> None:
    result = run_hook_process(write(repo, repo.main / "src" / "app.py"))
    assert_protocol(result)
    out = result.output
    assert out["hookSpecificOutput"]["hookEventName"] == "PreToolUse"
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    reason = result.reason
    assert str(repo.worktree / "src" / "app.py") in reason
    # The sentence and the suggestion come first, the codes last (SPEC §6).
    assert reason.rstrip().endswith("[worktree-guard WG101]")
    assert reason.index(str(repo.worktree / "src" / "app.py")) < reason.index("WG101")


def test_write_into_sibling_worktree_is_denied(repo: Repo) -> None:
    result = run_hook_process(write(repo, repo.sibling / "README.md"))
    assert result.decision == "deny" and result.codes == ["WG101"]
    # The deepest shared root names the sibling, not the main checkout that contains it.
    assert f"shared checkout {repo.sibling}" in result.reason
    assert str(repo.worktree / "README.md") in result.reason


def test_write_into_worktree_outside_main_checkout_is_denied(repo: Repo) -> None:
    result = run_hook_process(write(repo, repo.outside / "notes.md"))
    assert result.decision == "deny" and result.codes == ["WG101"]


def test_dotdot_escape_is_denied(repo: Repo) -> None:
    result = run_hook_process(write(repo, f"{repo.worktree}/src/../../../../README.md"))
    assert result.decision == "deny" and result.codes == ["WG101"]
    assert f"{repo.main}/README.md is in the shared checkout" in result.reason


def test_symlink_inside_worktree_pointing_out_counts_as_its_target(repo: Repo) -> None:
    (repo.worktree / "link").symlink_to(repo.main / "src")
    result = run_hook_process(write(repo, repo.worktree / "link" / "app.py"))
    assert result.decision == "deny" and result.codes == ["WG101"]
    (repo.worktree / "etc-link").symlink_to("/etc")
    result = run_hook_process(write(repo, repo.worktree / "etc-link" / "passwd"))
    assert result.decision == "deny" and result.codes == ["WG102"]


def test_dangling_symlink_to_outside_is_denied(repo: Repo) -> None:
    target = Path("/opt/wg-test-nonexistent/new-file")  # not in the temp dir, which is allow-listed
    (repo.worktree / "dangling").symlink_to(target)
    result = run_hook_process(write(repo, repo.worktree / "dangling"))
    assert result.decision == "deny" and result.codes == ["WG102"]


def test_string_prefix_is_not_containment(repo: Repo) -> None:
    evil = Path(str(repo.worktree) + "-evil")
    evil.mkdir()
    result = run_hook_process(write(repo, evil / "x.py"))
    # Not inside W: it lies in the main checkout (which holds .claude/worktrees/), and is judged as such.
    assert result.decision == "deny" and result.codes == ["WG101"]
    assert f"shared checkout {repo.main}," in result.reason


def test_dot_git_is_protected(repo: Repo) -> None:
    result = run_hook_process(write(repo, repo.worktree / ".git"))
    assert result.decision == "deny" and result.codes == ["WG103"]
    result = run_hook_process(write(repo, repo.main / ".git" / "config"))
    assert result.decision == "deny" and result.codes == ["WG101"]
    # The suggestion would be the worktree's own protected .git: none is offered.
    assert "Use " not in result.reason


@pytest.mark.parametrize("target", ["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/fd/2"])
def test_devices_pass(repo: Repo, target: str) -> None:
    assert run_hook_process(write(repo, target)).stdout == ""


def test_temp_dir_passes_but_a_shared_root_in_temp_does_not(repo: Repo) -> None:
    import tempfile

    scratch = Path(tempfile.gettempdir()) / "wg-test-scratch.txt"
    assert run_hook_process(write(repo, scratch)).stdout == ""
    # The test repository itself lives in the temp dir: the allow-list never overrides a shared root.
    assert run_hook_process(write(repo, repo.main / "x")).codes == ["WG101"]


def test_claude_scratch_dirs_pass(repo: Repo) -> None:
    home = Path("/opt/wg-test-home")  # the fixture's HOME is in the temp dir, which is allow-listed anyway
    env = {"HOME": str(home)}
    assert run_hook_process(write(repo, home / ".claude" / "plans" / "plan.md"), env=env).stdout == ""
    assert run_hook_process(write(repo, home / ".claude" / "projects" / "-x" / "s.jsonl"), env=env).stdout == ""
    assert run_hook_process(write(repo, home / ".bashrc"), env=env).codes == ["WG102"]


def test_outside_everything_is_wg102(repo: Repo) -> None:
    result = run_hook_process(write(repo, "/etc/hosts"))
    assert result.decision == "deny" and result.codes == ["WG102"]


@pytest.mark.parametrize("tool,field,extra", [
    ("Edit", "file_path", {"old_string": "a", "new_string": "b", "replace_all": False}),
    ("MultiEdit", "file_path", {"edits": [{"old_string": "a", "new_string": "b"}]}),
    ("NotebookEdit", "notebook_path", {"new_source": "print(1)", "cell_type": "code", "edit_mode": "replace"}),
])
def test_every_file_tool_is_confined(repo: Repo, tool: str, field: str, extra: dict) -> None:
    inside = subagent_payload(repo, tool, {field: str(repo.worktree / "a.ipynb"), **extra})
    outside = subagent_payload(repo, tool, {field: str(repo.main / "a.ipynb"), **extra})
    assert run_hook_process(inside).stdout == ""
    assert run_hook_process(outside).codes == ["WG101"]


@pytest.mark.parametrize("permission_mode,expected", [
    ("default", "ask"),
    ("plan", "ask"),
    ("acceptEdits", "allow"),
    ("bypassPermissions", "allow"),
    ("dontAsk", "allow"),
    ("auto", "allow"),
])
def test_rewrite_mode_echoes_complete_input_with_only_the_path_changed(repo: Repo, permission_mode: str, expected: str) -> None:
    tool_input = {"file_path": str(repo.main / "src" / "app.py"), "old_string": "app", "new_string": "APP", "replace_all": False}
    data = subagent_payload(repo, "Edit", tool_input, permission_mode=permission_mode)
    result = run_hook_process(data, "--mode", "rewrite")
    assert_protocol(result)
    specific = result.output["hookSpecificOutput"]
    assert specific["permissionDecision"] == expected
    assert specific["updatedInput"] == {**tool_input, "file_path": str(repo.worktree / "src" / "app.py")}
    assert result.codes == ["WG101"]


def test_rewrite_mode_still_denies_what_it_cannot_move(repo: Repo) -> None:
    result = run_hook_process(write(repo, "/etc/hosts"), "--mode", "rewrite")
    assert result.decision == "deny" and result.codes == ["WG102"]


def test_warn_mode_passes_with_a_message(repo: Repo) -> None:
    result = run_hook_process(write(repo, repo.main / "x.py"), "--mode", "warn")
    out = result.output
    assert "permissionDecision" not in out.get("hookSpecificOutput", {})
    assert result.codes == ["WG101"]
    assert out["hookSpecificOutput"]["additionalContext"] == out["systemMessage"]


def test_off_mode_passes(repo: Repo) -> None:
    assert run_hook_process(write(repo, repo.main / "x.py"), "--mode", "off").stdout == ""


def test_main_agent_in_main_checkout_is_not_confined(repo: Repo) -> None:
    data = payload(repo.main, "Write", {"file_path": "/etc/hosts-copy", "content": "x"})
    assert run_hook_process(data).stdout == ""
    data = payload(repo.main, "Write", {"file_path": str(repo.sibling / "x"), "content": "x"})
    assert run_hook_process(data).stdout == ""


def test_main_agent_started_in_a_worktree_is_isolated(repo: Repo) -> None:
    """`claude --worktree`: no agent_id, but the cwd is a linked worktree (SPEC §4)."""
    data = payload(repo.worktree, "Write", {"file_path": str(repo.main / "x"), "content": "x"})
    assert run_hook_process(data).codes == ["WG101"]


def test_worktree_of_a_bare_repository(tmp_path: Path, repo: Repo) -> None:
    from tests.helpers import git

    bare = tmp_path / "bare.git"
    git("clone", "-q", "--bare", str(repo.main), str(bare), cwd=tmp_path)
    wt_a, wt_b = tmp_path / "wt-a", tmp_path / "wt-b"
    git("worktree", "add", "-q", str(wt_a), "main", cwd=bare)
    git("worktree", "add", "-q", "-b", "b", str(wt_b), cwd=bare)
    data = payload(wt_a, "Write", {"file_path": str(wt_b / "x"), "content": "x"}, agent_id="a1", agent_type="t")
    result = run_hook_process(data)
    assert result.codes == ["WG101"] and str(wt_a / "x") in result.reason
    # The bare repository's git dir is shared by every worktree, even when it lies in the allow-listed temp dir.
    data = payload(wt_a, "Write", {"file_path": str(bare / "hooks" / "post-checkout"), "content": "x"}, agent_id="a1", agent_type="t")
    result = run_hook_process(data)
    assert result.codes == ["WG101"] and "Use " not in result.reason


@pytest.mark.parametrize("alias", ["worktree", "Worktree", "work_tree", "work-tree"])
def test_agent_declaring_isolation_in_main_checkout_is_misplaced(repo: Repo, alias: str) -> None:
    write_agent(repo.main, "worker", f"isolation: {alias}\n")
    data = payload(repo.main, "Write", {"file_path": str(repo.main / "src" / "x.py"), "content": "x"}, agent_id="a9", agent_type="worker")
    result = run_hook_process(data)
    assert result.decision == "deny" and result.codes == ["WG002"]
    assert "stop and report" in result.reason.lower()


@pytest.mark.parametrize("value", ["none", "None"])
def test_agent_declaring_no_isolation_is_not_confined(repo: Repo, value: str) -> None:
    write_agent(repo.main, "helper", f"isolation: {value}\n")
    data = payload(repo.main, "Write", {"file_path": str(repo.sibling / "x"), "content": "x"}, agent_id="a9", agent_type="helper")
    assert run_hook_process(data).stdout == ""


def test_agent_definition_found_by_frontmatter_name_not_filename(repo: Repo) -> None:
    path = repo.main / ".claude" / "agents" / "nested" / "some-file.md"
    path.parent.mkdir(parents=True)
    path.write_text("---\nname: reviewer\ndescription: d\nisolation: worktree\n---\n")
    data = payload(repo.main, "Write", {"file_path": str(repo.main / "x"), "content": "x"}, agent_id="a9", agent_type="reviewer")
    assert run_hook_process(data).codes == ["WG002"]


@pytest.mark.parametrize("stdin,cause", [
    (b"{not json", "not valid JSON"),
    (b"", "stdin is empty"),
    (b"[1, 2]", "not an object"),
    (b'{"tool_name": "Write", "tool_input": {}}', "cwd"),
    (b'{"tool_name": "Write", "tool_input": "x", "cwd": "CWD"}', "tool_input"),
])
def test_malformed_stdin_is_wg000_for_an_isolated_agent(repo: Repo, stdin: bytes, cause: str) -> None:
    result = run_hook_process(stdin.replace(b"CWD", str(repo.worktree).encode()), cwd=repo.worktree)
    assert_protocol(result)
    assert result.decision == "deny"
    assert result.codes == ["WG000"] and cause in result.reason


def test_malformed_stdin_for_a_non_isolated_agent_passes_with_a_message(repo: Repo) -> None:
    result = run_hook_process(b"{oops", cwd=repo.main)
    assert_protocol(result)
    assert result.decision == "warn" and "not valid JSON" in result.output["systemMessage"]


def test_unknown_tool_is_wg000_for_an_isolated_agent(repo: Repo) -> None:
    result = run_hook_process(subagent_payload(repo, "FrobnicateFiles", {"target": "/x"}))
    assert result.decision == "deny" and result.codes == ["WG000"] and "FrobnicateFiles" in result.reason


def test_known_harmless_tool_passes(repo: Repo) -> None:
    assert run_hook_process(subagent_payload(repo, "TodoWrite", {"todos": []})).stdout == ""


def test_missing_file_path_is_wg000(repo: Repo) -> None:
    result = run_hook_process(subagent_payload(repo, "Write", {"content": "x"}))
    assert result.decision == "deny" and result.codes == ["WG000"]


def test_invalid_project_config_is_wg000_naming_file_and_key(repo: Repo) -> None:
    (repo.main / ".worktree-guard.toml").write_text('mode = "sometimes"\n')
    result = run_hook_process(write(repo, repo.worktree / "a.py"))
    assert result.decision == "deny" and result.codes == ["WG000"]
    assert ".worktree-guard.toml" in result.reason and "'mode'" in result.reason


def test_invalid_config_for_non_isolated_agent_is_a_message(repo: Repo) -> None:
    (repo.main / ".worktree-guard.toml").write_text('colour = "blue"\n')
    # The hook process runs where the agent is, as Claude Code starts it (a linked worktree there would make the
    # failure a refusal: either directory in one counts as isolated).
    result = run_hook_process(payload(repo.main, "Write", {"file_path": str(repo.main / "a"), "content": "x"}), cwd=repo.main)
    assert result.decision == "warn" and "'colour'" in result.output["systemMessage"]


def test_config_in_the_agents_own_worktree_is_not_read(repo: Repo) -> None:
    """An agent must not loosen its own guard by writing a config file into its worktree."""
    (repo.worktree / ".worktree-guard.toml").write_text('mode = "off"\n')
    assert run_hook_process(write(repo, repo.main / "x")).codes == ["WG101"]
    (repo.main / ".worktree-guard.toml").write_text('mode = "off"\n')
    assert run_hook_process(write(repo, repo.main / "x")).stdout == ""


def test_bad_hook_flag_is_wg000_not_a_usage_error(repo: Repo) -> None:
    result = run_hook_process(write(repo, repo.worktree / "a"), "--mode", "loose")
    assert_protocol(result)
    assert result.decision == "deny" and result.codes == ["WG000"]


def test_event_field_alias_from_hook_logs(repo: Repo) -> None:
    data = write(repo, repo.main / "x")
    data["event"] = data.pop("hook_event_name")
    assert run_hook_process(data).codes == ["WG101"]


def test_unknown_payload_fields_are_tolerated(repo: Repo) -> None:
    data = write(repo, repo.main / "x", effort={"level": "high"}, prompt_id="p1", brand_new_field=[1, 2])
    assert run_hook_process(data).codes == ["WG101"]


def test_non_tool_events_pass(repo: Repo) -> None:
    data = write(repo, repo.main / "x")
    data["hook_event_name"] = "PostToolUse"
    assert run_hook_process(data).stdout == ""


def test_a_judgement_past_the_watchdog_is_refused(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """Claude Code lets a timed-out hook's call through: the guard answers (deny) before that."""
    import time

    from worktree_guard import hook
    from worktree_guard.rules import files

    monkeypatch.setattr(hook, "WATCHDOG_SECONDS", 0.2)
    monkeypatch.setattr(files, "check_write", lambda call, ctx: time.sleep(5) or [])
    started = time.monotonic()
    reply = hook.run_hook(json.dumps(write(repo, repo.worktree / "a.py")).encode())
    assert time.monotonic() - started < 3
    reason = json.loads(reply.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason.endswith("[worktree-guard WG000]") and "longer than 0.2 s" in reason


def test_an_unknown_hook_event_is_wg000_for_an_isolated_agent(repo: Repo) -> None:
    """Found by the payload property: `hook_event_name: "0"` with a Write passed as a non-tool event."""
    data = write(repo, repo.main / "x")
    data["hook_event_name"] = "0"
    result = run_hook_process(data)
    assert result.decision == "deny" and result.codes == ["WG000"] and "'0'" in result.reason
