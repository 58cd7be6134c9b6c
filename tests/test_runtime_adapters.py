"""Every runtime adapter at payload level, on the payloads captured from the real clients (shared/realdata/
runtime-payloads, research/runtimes-observed.md), placed in a real repository with real linked worktrees:
`<CWD>` is the agent's linked worktree W, `<OUTSIDE>` the main checkout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from worktree_guard.engine import build_context, decide
from worktree_guard.hook import run_hook
from worktree_guard.plugins import plugin_manager

from .helpers import Repo
from .shared_data import require_shared

PM = plugin_manager(entry_points=False)


def captured(runtime: str, name: str, repo: Repo, **places: str) -> Any:
    """A captured payload (or list of them) with its placeholders replaced by paths of `repo`."""
    text = (require_shared("realdata", "runtime-payloads", runtime) / name).read_text()
    for placeholder, value in {"<CWD>": str(repo.worktree), "<OUTSIDE>": str(repo.main), **places}.items():
        text = text.replace(placeholder, value)
    return json.loads(text)


def reply(payload: dict[str, Any], runtime: str | None = None, **flags: Any) -> dict[str, Any] | None:
    if runtime:
        flags["runtime"] = runtime
    out = run_hook(json.dumps(payload).encode(), flags=flags)
    assert out.exit_code == 0
    return json.loads(out.stdout) if out.stdout.strip() else None


def judged(payload: dict[str, Any], runtime: str = "auto", **flags: Any) -> tuple[str, set[str], str]:
    """(runtime that read it, error codes, decision) as the engine sees the call."""
    call = PM.hook.worktree_guard_read_payload(payload=payload, runtime=runtime)
    ctx = build_context(call, flags=flags, pm=PM)
    verdict = decide(call, ctx)
    return call.runtime, {v.code for v in verdict.violations if v.severity == "error"}, verdict.decision


def codes_in(text: str) -> set[str]:
    return set(text.rsplit("[worktree-guard ", 1)[1].rstrip("]").split()) if "[worktree-guard " in text else set()


# --- Codex --------------------------------------------------------------------------------------------


def codex_transcript(repo: Repo, cwd: Path) -> str:
    """A Codex rollout file whose first record names the session's directory, as Codex writes it."""
    path = repo.base / "codex-home" / "sessions" / "rollout-test.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {"timestamp": "2026-12-01T00:00:00Z", "type": "session_meta", "payload": {"id": "s", "cwd": str(cwd), "cli_version": "0.171.0"}}
    path.write_text(json.dumps(meta) + "\n")
    return str(path)


def codex_call(repo: Repo, tool: str, tool_input: dict[str, Any], *, cwd: Path | None = None, transcript: bool = True) -> dict[str, Any]:
    payload = captured("codex", "hook_input_bash_exec_command.json", repo)
    payload.update(tool_name=tool, tool_input=tool_input, cwd=str(cwd or repo.worktree))
    payload["transcript_path"] = codex_transcript(repo, repo.worktree) if transcript else str(repo.base / "missing.jsonl")
    return payload


def test_codex_captured_payloads_are_recognised_and_judged(repo: Repo) -> None:
    transcript = codex_transcript(repo, repo.worktree)
    for name in ("hook_input_apply_patch_add.json", "hook_input_apply_patch_update.json", "hook_input_bash_exec_command.json"):
        payload = captured("codex", name, repo)
        payload["transcript_path"] = transcript
        expected = {"WG401"} if payload["tool_name"] == "Bash" else {"WG101"}
        assert judged(payload) == ("codex", expected, "deny"), name
        out = reply(payload, "codex")
        assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
        assert codes_in(out["hookSpecificOutput"]["permissionDecisionReason"]) == expected
    spawn, sub_bash, wait = captured("codex", "hook_input_spawn_agent_and_subagent.json", repo)
    for payload in (spawn, sub_bash, wait):
        payload["transcript_path"] = transcript
    assert judged(spawn) == ("codex", set(), "pass")  # the sub-agent runs in this cwd: nothing to add
    assert reply(spawn) is None
    assert judged(sub_bash) == ("codex", {"WG401"}, "deny")
    assert judged(wait) == ("codex", set(), "pass")  # multi_agent_v1wait_agent: the namespace glued on


PATCH = "*** Begin Patch\n{}*** End Patch\n"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("*** Add File: a.txt\n+a\n*** Update File: src/app.py\n@@\n-print('app')\n+print('x')\n", set()),
        ("*** Add File: a.txt\n+a\n*** Add File: {MAIN}/b.txt\n+b\n", {"WG101"}),  # one inside W, one outside
        ("*** Update File: src/app.py\n*** Move to: {MAIN}/src/app.py\n@@\n-x\n+y\n", {"WG101"}),  # a move out
        ("*** Update File: {MAIN}/src/app.py\n*** Move to: src/app.py\n@@\n-x\n+y\n", {"WG101"}),  # a move in
        ("*** Delete File: ../../../README.md\n", {"WG101"}),  # relative, from the cwd, up into main
        ("*** Delete File: .git\n", {"WG103"}),
        ("*** Add File: /etc/x.conf\n+x\n*** Add File: {MAIN}/c.txt\n+c\n", {"WG101", "WG102"}),
    ],
)
def test_codex_patch_every_file_is_judged(repo: Repo, body: str, expected: set[str]) -> None:
    payload = codex_call(repo, "apply_patch", {"command": PATCH.format(body.replace("{MAIN}", str(repo.main)))})
    runtime, codes, decision = judged(payload)
    assert (runtime, codes, decision) == ("codex", expected, "deny" if expected else "pass")


def test_codex_patch_refusal_names_each_path_and_is_never_rewritten(repo: Repo) -> None:
    body = f"*** Add File: {repo.main}/b.txt\n+b\n*** Update File: {repo.sibling}/src/app.py\n@@\n-a\n+b\n"
    payload = codex_call(repo, "apply_patch", {"command": PATCH.format(body)})
    out = reply(payload, "codex", mode="rewrite")  # rewrite mode: a patch has no field to rewrite exactly
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert str(repo.worktree / "b.txt") in reason and str(repo.worktree / "src" / "app.py") in reason
    assert codes_in(reason) == {"WG101"}


def test_codex_patch_naming_no_file_is_refused(repo: Repo) -> None:
    for text in ("*** Begin Patch\n*** End Patch\n", "*** Begin Patch\n*** Add File:   \n+x\n*** End Patch\n"):
        out = reply(codex_call(repo, "apply_patch", {"command": text}), "codex")
        assert codes_in(out["hookSpecificOutput"]["permissionDecisionReason"]) == {"WG000"}


def test_codex_exec_command_workdir_arrives_as_cwd_and_is_judged_as_the_start_directory(repo: Repo) -> None:
    """Codex 0.171 drops `workdir` from tool_input and sends it as the payload's cwd: the session's directory
    comes from the transcript, and a workdir in the main checkout is refused like `cd` there."""
    switch = codex_call(repo, "Bash", {"command": "git switch -c x"}, cwd=repo.main)
    assert judged(switch) == ("codex", {"WG201", "WG301"}, "deny")
    inside = codex_call(repo, "Bash", {"command": "echo x > out.txt"}, cwd=repo.worktree / "src")
    assert judged(inside) == ("codex", set(), "pass")


def test_codex_bash_without_a_readable_transcript_is_refused(repo: Repo) -> None:
    out = reply(codex_call(repo, "Bash", {"command": "ls"}, transcript=False), "codex")
    reason = out["hookSpecificOutput"]["permissionDecisionReason"]
    assert codes_in(reason) == {"WG000"} and "transcript" in reason


def test_codex_apply_patch_carried_by_a_shell_command_is_judged_as_writes(repo: Repo) -> None:
    """Judged in the walk of the command, as a Bash write (more in test_runtime_escapes.py)."""
    command = f"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: {repo.main}/x.txt\n+x\n*** End Patch\nEOF"
    assert judged(codex_call(repo, "Bash", {"command": command})) == ("codex", {"WG401"}, "deny")


def test_codex_unknown_tool_is_refused_for_an_isolated_agent(repo: Repo) -> None:
    out = reply(codex_call(repo, "write_stdin", {"session_id": 1, "chars": "x"}), "codex")
    assert codes_in(out["hookSpecificOutput"]["permissionDecisionReason"]) == {"WG000"}


# --- Gemini -------------------------------------------------------------------------------------------


def test_gemini_captured_payloads(repo: Repo) -> None:
    for name, expected in (("hook_input_write_file.json", {"WG101"}), ("hook_input_replace.json", {"WG101"}), ("hook_input_run_shell_command.json", {"WG401"})):
        payload = captured("gemini", name, repo)
        assert judged(payload) == ("gemini", expected, "deny"), name
        out = reply(payload, "gemini")
        assert out["decision"] == "deny" and codes_in(out["reason"]) == expected
    invoke, sub_shell, sub_write = captured("gemini", "hook_input_invoke_agent_and_subagent.json", repo)
    assert judged(invoke) == ("gemini", set(), "pass")
    assert judged(sub_shell) == ("gemini", {"WG401"}, "deny")
    assert judged(sub_write) == ("gemini", set(), "pass")
    assert reply(sub_write, "gemini") is None


def test_gemini_shell_dir_path_is_where_the_command_starts(repo: Repo) -> None:
    payload = captured("gemini", "hook_input_run_shell_command.json", repo)
    payload["tool_input"] = {"command": "git switch -c x", "dir_path": str(repo.main)}
    assert judged(payload) == ("gemini", {"WG201", "WG301"}, "deny")
    payload["tool_input"] = {"command": "echo x > y.txt", "dir_path": "src"}
    assert judged(payload) == ("gemini", set(), "pass")


def test_gemini_rewrite_sends_every_argument(repo: Repo) -> None:
    payload = captured("gemini", "hook_input_write_file.json", repo)
    out = reply(payload, "gemini", mode="rewrite")
    assert out["decision"] == "allow"
    assert out["hookSpecificOutput"]["tool_input"] == {"file_path": str(repo.worktree / "w.txt"), "content": "hi\n"}


# --- Copilot ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["camel", "pascal"])
def test_copilot_captured_payloads_both_forms(repo: Repo, form: str) -> None:
    for tool, expected in (("bash", {"WG401"}), ("create", {"WG101"}), ("edit", {"WG101"}), ("apply_patch", {"WG101"})):
        payload = captured("copilot", f"hook_input_{form}_{tool}.json", repo)
        assert judged(payload) == ("copilot", expected, "deny"), tool
        out = reply(payload, "copilot")
        assert out["permissionDecision"] == "deny" and codes_in(out["permissionDecisionReason"]) == expected
        assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    task, sub_bash = captured("copilot", f"hook_input_{form}_task_and_subagent.json", repo)
    assert judged(task) == ("copilot", set(), "pass")
    assert judged(sub_bash) == ("copilot", {"WG401"}, "deny")


def test_copilot_tool_args_given_as_a_json_string_are_read(repo: Repo) -> None:
    payload = captured("copilot", "hook_input_camel_create.json", repo)
    payload["toolArgs"] = json.dumps(payload["toolArgs"])
    assert judged(payload) == ("copilot", {"WG101"}, "deny")


def test_copilot_rewrite_is_modified_args(repo: Repo) -> None:
    out = reply(captured("copilot", "hook_input_camel_create.json", repo), "copilot", mode="rewrite")
    assert out["permissionDecision"] == "allow"
    assert out["modifiedArgs"] == {"path": str(repo.worktree / "created.txt"), "file_text": "hi\n"}


# --- Cline --------------------------------------------------------------------------------------------


def test_cline_refused_editor_call_is_aimed_where_it_cannot_write(repo: Repo) -> None:
    payload = captured("cline", "hook_input_editor.json", repo)
    assert judged(payload) == ("cline", {"WG101"}, "deny")
    override = reply(payload, "cline")["overrideInput"]
    assert override["new_text"] == ""
    name = override["path"].removeprefix("/dev/null/")
    assert override["path"].startswith("/dev/null/") and "/" not in name and name not in ("", ".", "..")
    assert "WG101" in name and "e.txt" in name


def test_cline_refused_commands_become_one_that_prints_the_reason(repo: Repo, tmp_path: Path) -> None:
    payload = captured("cline", "hook_input_run_commands.json", repo)
    payload["tool_call"]["input"]["commands"] = ["echo fine", f"echo x > {repo.main}/s.txt"]
    assert judged(payload) == ("cline", {"WG401"}, "deny")
    (command,) = reply(payload, "cline")["overrideInput"]["commands"]
    import subprocess

    done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == "" and codes_in(done.stderr.strip()) == {"WG401"}
    assert not (repo.main / "s.txt").exists()


def test_cline_each_command_starts_in_the_workspace(repo: Repo) -> None:
    """`cd` in one command of run_commands does not move the next (each runs in a shell of its own)."""
    payload = captured("cline", "hook_input_run_commands.json", repo)
    payload["tool_call"]["input"]["commands"] = ["cd src", "echo x > ../x.txt"]
    assert judged(payload) == ("cline", {"WG401"}, "deny")  # from W (not W/src) ../x.txt is in the main checkout


def test_cline_spawn_agent_and_subagent(repo: Repo) -> None:
    spawn, sub = captured("cline", "hook_input_spawn_agent_and_subagent.json", repo)
    assert judged(spawn) == ("cline", set(), "pass")
    assert reply(spawn, "cline") is None
    assert judged(sub) == ("cline", {"WG401"}, "deny")


def test_cline_what_it_cannot_redirect_is_cancelled(repo: Repo) -> None:
    payload = captured("cline", "hook_input_editor.json", repo)
    payload["tool_call"] = {"id": "c", "name": "team_create", "input": {}}
    out = reply(payload, "cline")
    assert out["cancel"] is True and codes_in(out["errorMessage"]) == {"WG000"}
    payload["tool_call"] = {"id": "c", "name": "run_commands", "input": {"commands": "not a list"}}
    (command,) = reply(payload, "cline")["overrideInput"]["commands"]
    assert "WG000" in command


def test_cline_unjudged_call_is_placed_by_its_workspace_root(repo: Repo) -> None:
    """Cline names no `cwd`: a call that cannot be read is placed by `workspaceRoots`, not by where the hook runs
    (before, it passed with a systemMessage whenever the hook process's own directory was not a linked worktree)."""
    payload = captured("cline", "hook_input_editor.json", repo)
    payload["tool_call"] = {"id": "c", "name": "run_commands", "input": {"commands": "not a list"}}
    for runtime in ("cline", "auto"):
        out = json.loads(run_hook(json.dumps(payload).encode(), flags={"runtime": runtime}, cwd=str(repo.base)).stdout)
        (command,) = out["overrideInput"]["commands"]
        assert codes_in(command.split("' >&2")[0]) == {"WG000"}


# --- Cursor (documented protocol only) -----------------------------------------------------------------


def cursor_payload(repo: Repo, event: str, **fields: Any) -> dict[str, Any]:
    return {"hook_event_name": event, "conversation_id": "c1", "generation_id": "g1", "workspace_roots": [str(repo.worktree)], **fields}


def test_cursor_pre_tool_use_and_shell_event(repo: Repo) -> None:
    write = cursor_payload(repo, "preToolUse", tool_name="Write", tool_input={"file_path": str(repo.main / "x.txt"), "contents": "x"})
    assert judged(write) == ("cursor", {"WG101"}, "deny")
    out = reply(write, "cursor")
    assert out["permission"] == "deny" and codes_in(out["agent_message"]) == {"WG101"}
    shell = cursor_payload(repo, "beforeShellExecution", command="git switch -c x", cwd=str(repo.main))
    assert judged(shell) == ("cursor", {"WG201", "WG301"}, "deny")
    fine = cursor_payload(repo, "preToolUse", tool_name="Shell", tool_input={"command": "ls"})
    assert judged(fine) == ("cursor", set(), "pass")
    assert reply(fine, "cursor") == {}


# --- every adapter ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("runtime", "denied"),
    [
        ("codex", lambda o: o["hookSpecificOutput"]["permissionDecisionReason"]),
        ("gemini", lambda o: o["reason"]),
        ("copilot", lambda o: o["permissionDecisionReason"]),
        ("cline", lambda o: o["errorMessage"]),
        ("cursor", lambda o: o["agent_message"]),
    ],
)
def test_an_unreadable_payload_is_refused_in_the_runtimes_own_words(repo: Repo, runtime: str, denied: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo.worktree)  # the hook process runs in the session's directory: a linked worktree
    for stdin in (b"not json", b"[]", json.dumps({"cwd": 5}).encode()):
        out = run_hook(stdin, flags={"runtime": runtime}, cwd=str(repo.worktree))
        assert codes_in(denied(json.loads(out.stdout))) == {"WG000"}, (runtime, stdin)


def test_no_adapter_takes_another_runtimes_payload(repo: Repo) -> None:
    samples = {
        "codex": captured("codex", "hook_input_apply_patch_add.json", repo),
        "gemini": captured("gemini", "hook_input_write_file.json", repo),
        "copilot": captured("copilot", "hook_input_pascal_create.json", repo),
        "cline": captured("cline", "hook_input_editor.json", repo),
        "claude-code": captured("agent-sdk", "hook_input_Write.json", repo),
        "cursor": cursor_payload(repo, "preToolUse", tool_name="Write", tool_input={"file_path": "x"}),
    }
    for runtime, payload in samples.items():
        assert PM.hook.worktree_guard_read_payload(payload=payload, runtime="auto").runtime == runtime


@pytest.mark.parametrize("broken", ["client.py", "hook_process.py", "hook.py"])
@pytest.mark.parametrize(
    ("runtime", "denied"),
    [("gemini", lambda o: o["reason"]), ("cline", lambda o: o["errorMessage"]), ("cursor", lambda o: o["agent_message"]), ("copilot", lambda o: o["permissionDecisionReason"])],
)
def test_a_guard_that_cannot_load_refuses_in_the_runtimes_own_words(repo: Repo, tmp_path: Path, broken: str, runtime: str, denied: Any) -> None:
    """A Claude-shaped refusal would be ignored by Gemini, Cursor or Cline, and the call would go through."""
    import shutil
    import subprocess
    import sys

    import worktree_guard

    copy = tmp_path / "pkg" / "worktree_guard"
    shutil.copytree(Path(worktree_guard.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / broken).write_text("raise ImportError('simulated broken install')\n")
    payload = captured("gemini", "hook_input_write_file.json", repo)
    command = [sys.executable, "-S", "-P", str(copy / "fast_hook.py"), "--runtime", runtime]
    done = subprocess.run(command, input=json.dumps(payload), capture_output=True, text=True, cwd=repo.worktree, timeout=60)
    assert done.returncode == 0, done.stderr
    reason = denied(json.loads(done.stdout))
    assert codes_in(reason) == {"WG000"} and "simulated broken install" in reason


def test_codex_bash_that_cannot_be_placed_is_refused_even_when_its_workdir_is_the_main_checkout(repo: Repo) -> None:
    """The payload's cwd is the command's workdir (here the main checkout, not isolated); without a transcript
    the session's directory is unknown, and the hook process's own directory (the session's: W) decides."""
    payload = codex_call(repo, "Bash", {"command": "git switch -c x"}, cwd=repo.main, transcript=False)
    out = run_hook(json.dumps(payload).encode(), flags={"runtime": "codex"}, cwd=str(repo.worktree))
    assert codes_in(json.loads(out.stdout)["hookSpecificOutput"]["permissionDecisionReason"]) == {"WG000"}
