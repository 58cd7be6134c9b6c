"""The guard inside the real Claude Code CLI, installed the way users install it (settings or plugin).

Each test scripts the fake model, runs `claude -p` once, and checks both the disk (files, branches) and the
tool_result the CLI sent back to the model. Only rules already in this checkout are exercised here: the file
rule, the install command, the plugin. Scenarios of rules that land elsewhere live in their own modules.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .fake_anthropic import text, tool_use
from .harness import GUARD_EXE, Sandbox, dispatch

REPO_ROOT = Path(__file__).resolve().parents[2]


def _records(sandbox: Sandbox, tool_use_id: str) -> list[dict]:
    return [r for r in sandbox.audit() if r.get("tool_use_id") == tool_use_id]


def _agent_worktree(sandbox: Sandbox, marker: str) -> Path:
    """The worktree the CLI gave the sub-agent of `marker`, as its own system prompt names it."""
    requests = sandbox.fake.scripted(marker)
    assert requests, f"the sub-agent {marker} never ran"
    where = requests[0].working_directory
    assert where, "the sub-agent's prompt names no working directory"
    path = Path(where)
    assert path.parent == sandbox.repo / ".claude" / "worktrees" and path.name.startswith("agent-"), path
    return path


def test_main_agent_write_and_bash_inside_the_repo_pass(sandbox: Sandbox) -> None:
    sandbox.set_up_guard()
    repo = sandbox.repo
    marker = sandbox.script(
        "E2E-MAIN-WRITE-BASH",
        [tool_use("Write", {"file_path": str(repo / "notes.txt"), "content": "by the main agent\n"}, id="toolu_main_write")],
        [tool_use("Bash", {"command": "echo from-bash > bash.txt && cat bash.txt"}, id="toolu_main_bash")],
        [text("done")],
    )
    sandbox.claude(f"{marker} write a note")

    assert (repo / "notes.txt").read_text() == "by the main agent\n"
    assert (repo / "bash.txt").read_text() == "from-bash\n"
    write = sandbox.fake.tool_result("toolu_main_write")
    assert write is not None and not write.get("is_error"), write
    assert "File created successfully" in sandbox.fake.tool_result_text("toolu_main_write")
    assert sandbox.fake.tool_result_text("toolu_main_bash").strip() == "from-bash"
    # The CLI did run the installed hook on both calls, and the guard let them pass.
    for tool_use_id in ("toolu_main_write", "toolu_main_bash"):
        (record,) = _records(sandbox, tool_use_id)
        assert record["decision"] == "pass" and record["isolated"] is False, record


def test_isolated_subagent_commits_with_a_heredoc_message_in_its_worktree(sandbox: Sandbox) -> None:
    sandbox.set_up_guard()
    main_head = sandbox.git("rev-parse", "HEAD")
    commit = (
        "git add feature.txt && git commit -q -m \"$(cat <<'EOF'\nAdd the feature\n\nWritten by an isolated sub-agent.\nEOF\n)\""
        " && git log -1 --format=%s"
    )
    sub = sandbox.script(
        "E2E-SUB-HEREDOC-COMMIT",
        lambda r: [tool_use("Write", {"file_path": f"{r.working_directory}/feature.txt", "content": "feature\n"}, id="toolu_sub_write")],
        [tool_use("Bash", {"command": commit}, id="toolu_sub_commit")],
        [text("committed")],
    )
    main = sandbox.script("E2E-MAIN-HEREDOC-COMMIT", [dispatch(f"{sub} commit the feature")], [text("done")])
    sandbox.claude(f"{main} delegate")

    worktree = _agent_worktree(sandbox, sub)
    result = sandbox.fake.tool_result("toolu_sub_commit")
    assert result is not None and not result.get("is_error"), result
    assert sandbox.fake.tool_result_text("toolu_sub_commit").strip() == "Add the feature"
    branch = f"worktree-{worktree.name}"
    assert sandbox.git("log", "-1", "--format=%B", branch) == "Add the feature\n\nWritten by an isolated sub-agent."
    assert sandbox.git("show", f"{branch}:feature.txt") == "feature"
    # The parent checkout is untouched: same branch, same HEAD, no file.
    assert sandbox.git("branch", "--show-current") == "main"
    assert sandbox.git("rev-parse", "HEAD") == main_head
    assert not (sandbox.repo / "feature.txt").exists()
    for tool_use_id in ("toolu_sub_write", "toolu_sub_commit"):
        (record,) = _records(sandbox, tool_use_id)
        assert record["isolated"] is True and record["decision"] == "pass", record
        assert record["worktree_root"] == str(worktree)


def _sibling(sandbox: Sandbox) -> Path:
    """Another checkout of the repository outside the main one (another agent's or the user's)."""
    sibling = sandbox.base / "other-checkout"
    sandbox.git("worktree", "add", "-q", "-b", "other", str(sibling))
    return sibling


def test_rewrite_mode_moves_a_subagents_write_from_a_shared_checkout_into_its_worktree(sandbox: Sandbox) -> None:
    sandbox.set_up_guard(mode="rewrite")
    sibling = _sibling(sandbox)
    target = sibling / "src" / "new.py"
    sub = sandbox.script(
        "E2E-SUB-REWRITE",
        [tool_use("Write", {"file_path": str(target), "content": "NEW = 1\n"}, id="toolu_rewrite")],
        [text("written")],
    )
    main = sandbox.script("E2E-MAIN-REWRITE", [dispatch(f"{sub} add new.py")], [text("done")])
    sandbox.claude(f"{main} delegate")

    worktree = _agent_worktree(sandbox, sub)
    assert not target.exists()
    assert (worktree / "src" / "new.py").read_text() == "NEW = 1\n"
    result = sandbox.fake.tool_result("toolu_rewrite")
    assert result is not None and not result.get("is_error"), result
    assert f"File created successfully at: {worktree / 'src' / 'new.py'}" in sandbox.fake.tool_result_text("toolu_rewrite")
    (record,) = _records(sandbox, "toolu_rewrite")
    assert record["decision"] == "rewrite" and record["codes"] == ["WG101"], record


def test_enforce_mode_refuses_a_subagents_write_into_a_shared_checkout(sandbox: Sandbox) -> None:
    sandbox.set_up_guard(mode="enforce")
    sibling = _sibling(sandbox)
    target = sibling / "src" / "new.py"
    sub = sandbox.script(
        "E2E-SUB-DENY",
        [tool_use("Write", {"file_path": str(target), "content": "NEW = 1\n"}, id="toolu_deny")],
        [text("refused")],
    )
    main = sandbox.script("E2E-MAIN-DENY", [dispatch(f"{sub} add new.py")], [text("done")])
    sandbox.claude(f"{main} delegate")

    worktree = _agent_worktree(sandbox, sub)
    assert not target.exists() and not (worktree / "src" / "new.py").exists()
    result = sandbox.fake.tool_result("toolu_deny")
    assert result is not None and result.get("is_error") is True, result
    reason = sandbox.fake.tool_result_text("toolu_deny")
    assert "WG101" in reason and str(worktree / "src" / "new.py") in reason, reason


def test_user_scope_install_guards_a_session_started_in_a_linked_worktree(sandbox: Sandbox) -> None:
    """A session the user starts in a worktree of their own (no Claude Code isolation at all) is confined
    by the guard alone; the hooks come from `install --user`."""
    sandbox.configure("enforce")
    installed = sandbox.guard("install", "--user")
    assert installed.returncode == 0, installed.stderr
    assert str(sandbox.home / ".claude" / "settings.json") in installed.stdout
    mine = sandbox.base / "my-worktree"
    sandbox.git("worktree", "add", "-q", "-b", "mine", str(mine))
    marker = sandbox.script(
        "E2E-LINKED-SESSION",
        [tool_use("Write", {"file_path": str(sandbox.repo / "x.txt"), "content": "x\n"}, id="toolu_linked")],
        [tool_use("Write", {"file_path": str(mine / "ok.txt"), "content": "ok\n"}, id="toolu_linked_ok")],
        [text("done")],
    )
    sandbox.claude(f"{marker} go", cwd=mine)

    assert not (sandbox.repo / "x.txt").exists()
    assert "WG101" in sandbox.fake.tool_result_text("toolu_linked")
    assert (mine / "ok.txt").read_text() == "ok\n"
    assert not sandbox.fake.tool_result("toolu_linked_ok").get("is_error")


# --- the plugin --------------------------------------------------------------------------------------------


def test_claude_plugin_validate_accepts_the_plugin_and_its_marketplace(sandbox: Sandbox) -> None:
    for target in (".", ".claude-plugin/plugin.json"):
        done = subprocess.run(
            [str(sandbox.cli), "plugin", "validate", "--strict", target],
            cwd=REPO_ROOT, capture_output=True, text=True, env=sandbox.env(), timeout=120,
        )
        assert done.returncode == 0 and "Validation passed" in done.stdout, done.stdout + done.stderr


def _plugin_scenario(sandbox: Sandbox, marker: str) -> str:
    """A sub-agent writing into a shared checkout: the tool_use id whose result tells whether the guard ran."""
    sandbox.configure("enforce")  # no `install`: the hooks must come from the plugin
    sandbox.git("add", "-A")
    sandbox.git("commit", "-q", "-m", "guard configuration")
    sibling = _sibling(sandbox)
    sub = sandbox.script(
        f"{marker}-SUB",
        [tool_use("Write", {"file_path": str(sibling / "p.txt"), "content": "p\n"}, id=f"toolu_{marker.lower()}")],
        [text("done")],
    )
    sandbox.script(marker, [dispatch(f"{sub} write p.txt")], [text("done")])
    return f"toolu_{marker.lower()}"


def _plugin_copy(sandbox: Sandbox) -> Path:
    """The plugin's files alone (what a marketplace install copies): no venv beside them."""
    copy = sandbox.base / "plugin-copy"
    for part in (".claude-plugin", "hooks"):
        shutil.copytree(REPO_ROOT / part, copy / part)
    return copy


def test_plugin_dir_loads_the_hooks_and_the_guard_refuses(sandbox: Sandbox) -> None:
    tool_use_id = _plugin_scenario(sandbox, "E2E-PLUGIN-DIR")
    run = sandbox.claude("E2E-PLUGIN-DIR go", args=("--plugin-dir", str(REPO_ROOT)), env={"WT_GUARD_PYTHON": sys.executable})

    init = next(e for e in run.events if e.get("type") == "system" and e.get("subtype") == "init")
    assert "worktree-guard" in str(init.get("plugins")), init.get("plugins")
    assert "WG101" in sandbox.fake.tool_result_text(tool_use_id)
    # One verdict per call: the hooks file is loaded once (no "Duplicate hooks file").
    assert len(_records(sandbox, tool_use_id)) == 1


def test_plugin_installed_from_its_marketplace_finds_worktree_guard_on_path(sandbox: Sandbox) -> None:
    tool_use_id = _plugin_scenario(sandbox, "E2E-PLUGIN-MARKET")
    copy = _plugin_copy(sandbox)
    path = f"{GUARD_EXE.parent}{os.pathsep}{os.environ.get('PATH', '')}"
    for argv in (["plugin", "marketplace", "add", str(copy)], ["plugin", "install", "worktree-guard@worktree-guard"]):
        done = subprocess.run([str(sandbox.cli), *argv], cwd=sandbox.repo, capture_output=True, text=True, env=sandbox.env(), timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
    sandbox.claude("E2E-PLUGIN-MARKET go", env={"PATH": path})

    assert "WG101" in sandbox.fake.tool_result_text(tool_use_id)
    assert len(_records(sandbox, tool_use_id)) == 1


def test_plugin_fails_closed_when_the_package_cannot_be_imported(sandbox: Sandbox) -> None:
    copy = _plugin_copy(sandbox)
    # PATH without any `worktree-guard` command, so the launcher falls back to python3.
    path = os.pathsep.join(
        d for d in os.environ.get("PATH", "").split(os.pathsep) if d and not (Path(d) / "worktree-guard").exists()
    )
    probe = subprocess.run(["python3", "-c", "import worktree_guard"], cwd="/", env={"PATH": path}, capture_output=True)
    if probe.returncode == 0:
        pytest.skip("python3 on PATH can import worktree_guard, so the launcher cannot be made to fail here")
    marker = sandbox.script(
        "E2E-PLUGIN-BROKEN",
        [tool_use("Write", {"file_path": str(sandbox.repo / "w.txt"), "content": "w\n"}, id="toolu_broken")],
        [text("done")],
    )
    sandbox.claude(f"{marker} go", args=("--plugin-dir", str(copy)), env={"PATH": path})

    assert not (sandbox.repo / "w.txt").exists()
    result = sandbox.fake.tool_result("toolu_broken")
    assert result is not None and result.get("is_error") is True, result
    reason = sandbox.fake.tool_result_text("toolu_broken")
    assert "WG000" in reason and "cannot be imported" in reason, reason


def test_installed_subagent_start_and_stop_hooks_run_and_let_a_clean_subagent_finish(sandbox: Sandbox) -> None:
    """The SubagentStart/SubagentStop entries `install` writes are run by the CLI and answer cleanly: a
    sub-agent that leaked nothing is neither blocked nor refused (no WG000 from an unrecognised event)."""
    sandbox.set_up_guard()
    sub = sandbox.script("E2E-SUB-LIFECYCLE", [tool_use("Bash", {"command": "pwd"}, id="toolu_life")], [text("finished")])
    main = sandbox.script("E2E-MAIN-LIFECYCLE", [dispatch(f"{sub} look", id="toolu_life_agent")], [text("done")])
    run = sandbox.claude(f"{main} go", args=("--include-hook-events",))

    worktree = _agent_worktree(sandbox, sub)
    assert sandbox.fake.tool_result_text("toolu_life").strip() == str(worktree)
    assert "finished" in sandbox.fake.tool_result_text("toolu_life_agent")
    # The sub-agent stopped after its last scripted turn: its stop was not blocked.
    assert [r.assistant_turns for r in sandbox.fake.scripted(sub)] == [0, 1]
    responses = {e["hook_event"]: e for e in run.events if e.get("subtype") == "hook_response"}
    for event in ("SubagentStart", "SubagentStop"):
        assert event in responses, f"the CLI did not run the installed {event} hook"
        answer = responses[event]
        assert answer["exit_code"] == 0 and answer["outcome"] == "success", answer
        assert "WG000" not in answer["stdout"] and '"block"' not in answer["stdout"], answer
