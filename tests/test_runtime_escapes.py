"""The escapes and wrong denies an independent review found in the runtime adapters with the real clients
(review-runtimes.md), each at payload level in a real repository with real linked worktrees.

The agent's worktree W here is `repo.outside` (`<base>/outside-wt`, a sibling of the main checkout
`<base>/repo`), the layout the review used, so that `W/../repo` is the main checkout.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from .helpers import Repo
from .test_runtime_adapters import captured, codes_in, codex_transcript, judged, reply

# --- 1. A path whose `..` follows a symlink: clients collapse `..` as text, the kernel after symlinks ------


@pytest.fixture
def trick(repo: Repo) -> Path:
    """W with `a -> p/q`: `W/a/../../repo` is the main checkout as text, `W/repo` for the kernel."""
    (repo.outside / "p" / "q").mkdir(parents=True)
    (repo.outside / "a").symlink_to("p/q")
    return repo.outside / "a" / ".." / ".." / "repo"


def in_w(repo: Repo, runtime: str, name: str) -> Any:
    return captured(runtime, name, repo, **{"<CWD>": str(repo.outside)})


def test_a_codex_patch_path_through_a_symlink_and_up_is_judged_as_codex_resolves_it(repo: Repo, trick: Path) -> None:
    payload = in_w(repo, "codex", "hook_input_apply_patch_add.json")
    payload["transcript_path"] = codex_transcript(repo, repo.outside)
    payload["tool_input"]["command"] = "*** Begin Patch\n*** Add File: a/../../repo/LEAK.txt\n+leak\n*** End Patch\n"
    assert judged(payload) == ("codex", {"WG101"}, "deny")


def test_a_copilot_patch_and_create_through_a_symlink_and_up_are_refused(repo: Repo, trick: Path) -> None:
    patch = in_w(repo, "copilot", "hook_input_camel_apply_patch.json")
    patch["toolArgs"] = f"*** Begin Patch\n*** Add File: {trick}/LEAK.txt\n+leak\n*** End Patch\n"
    assert judged(patch) == ("copilot", {"WG101"}, "deny")
    create = in_w(repo, "copilot", "hook_input_camel_create.json")
    create["toolArgs"]["path"] = f"{trick}/LEAK.txt"
    assert judged(create) == ("copilot", {"WG101"}, "deny")


def test_a_cline_edit_through_a_symlink_and_up_is_refused(repo: Repo, trick: Path) -> None:
    payload = in_w(repo, "cline", "hook_input_editor.json")
    payload["tool_call"]["input"]["path"] = f"{trick}/README.md"
    assert judged(payload) == ("cline", {"WG101"}, "deny")


def test_gemini_writes_and_a_shell_start_directory_through_a_symlink_and_up_are_refused(repo: Repo, trick: Path) -> None:
    write = in_w(repo, "gemini", "hook_input_write_file.json")
    write["tool_input"]["file_path"] = f"{trick}/LEAK.txt"
    assert judged(write) == ("gemini", {"WG101"}, "deny")
    replace = in_w(repo, "gemini", "hook_input_replace.json")
    replace["tool_input"]["file_path"] = f"{trick}/README.md"
    assert judged(replace) == ("gemini", {"WG101"}, "deny")
    shell = in_w(repo, "gemini", "hook_input_run_shell_command.json")
    shell["tool_input"] = {"command": "git switch -c x", "dir_path": "a/../../repo"}
    # The start directory is the main checkout for Gemini (WG201), and git there switches its branch (WG301).
    assert judged(shell) == ("gemini", {"WG201", "WG301"}, "deny")


def test_a_shell_start_directory_with_two_readings_inside_w_is_walked_from_both(repo: Repo, trick: Path) -> None:
    """`dir_path: a/..` is W/p for the kernel and W for a client: both inside W, but `../repo/x` from W is
    the main checkout."""
    shell = in_w(repo, "gemini", "hook_input_run_shell_command.json")
    shell["tool_input"] = {"command": "echo x > ../repo/LEAK.txt", "dir_path": "a/.."}
    assert judged(shell) == ("gemini", {"WG401"}, "deny")
    shell["tool_input"] = {"command": "echo x > x.txt", "dir_path": "a/.."}  # W/p/x.txt or W/x.txt: both in W
    assert judged(shell) == ("gemini", set(), "pass")


def test_the_two_readings_agree_everywhere_else_so_nothing_new_is_refused(repo: Repo, trick: Path) -> None:
    """Paths through the symlink that stay in W, `..` that follows no symlink, and a cleaned Claude Code path."""
    from .helpers import payload as claude_payload

    for path in (f"{repo.outside}/a/x.txt", f"{repo.outside}/a/../x.txt", f"{repo.outside}/p/../x.txt", "a/../y.txt"):
        assert judged(claude_payload(repo.outside, "Write", {"file_path": path, "content": "x"})) == ("claude-code", set(), "pass"), path
    leak = claude_payload(repo.outside, "Write", {"file_path": f"{trick}/README.md", "content": "x"})
    assert judged(leak) == ("claude-code", {"WG101"}, "deny")
    clean = claude_payload(repo.outside, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"})
    assert judged(clean) == ("claude-code", {"WG101"}, "deny")


def test_a_bash_write_or_cd_through_a_symlink_and_up_is_refused(repo: Repo, trick: Path) -> None:
    """Programs that clean paths as text (Node's, for one) exist in shells too: a shell write is judged both ways."""
    from .helpers import payload as claude_payload

    for command, codes in (
        ("echo x > a/../../repo/LEAK.txt", {"WG401"}),
        ("cd a/../../repo", {"WG201"}),
        ("echo x > a/../inside.txt", set()),
    ):
        decision = "deny" if codes else "pass"
        assert judged(claude_payload(repo.outside, "Bash", {"command": command})) == ("claude-code", codes, decision), command


# --- 2. A patch header split at a character the clients do not break lines at --------------------------


ODD_BREAKS = ["\x85", "\u2028", "\x0b", "\x0c", "\x1e", "\u2029", "\r"]


@pytest.mark.parametrize("odd", ODD_BREAKS, ids=lambda c: f"U+{ord(c):04X}")
def test_a_patch_header_holding_a_line_break_the_clients_do_not_see_is_refused(repo: Repo, odd: str) -> None:
    """Codex and Copilot break patch lines at "\\n" only: `d<odd>/../../repo/LEAK.txt` is one path to them."""
    patch = f"*** Begin Patch\n*** Add File: d{odd}/../../repo/LEAK.txt\n+leak\n*** End Patch\n"
    codex = in_w(repo, "codex", "hook_input_apply_patch_add.json")
    codex["transcript_path"] = codex_transcript(repo, repo.outside)
    codex["tool_input"]["command"] = patch
    reason = reply(codex, "codex")["hookSpecificOutput"]["permissionDecisionReason"]
    assert codes_in(reason) == {"WG000"} and f"U+{ord(odd):04X}" in reason
    copilot = in_w(repo, "copilot", "hook_input_camel_apply_patch.json")
    copilot["toolArgs"] = patch
    reason = reply(copilot, "copilot")["permissionDecisionReason"]
    assert codes_in(reason) == {"WG000"} and f"U+{ord(odd):04X}" in reason


def test_patch_lines_end_where_the_clients_end_them(repo: Repo) -> None:
    from worktree_guard.runtimes.patch import patch_writes

    crlf = "*** Begin Patch\r\n*** Add File: a.txt\r\n+x\r\n*** Update File: b.py\r\n@@\r\n-a\x0c\r\n+b\x85c\r\n*** End Patch\r\n"
    assert [(w.path, w.action) for w in patch_writes(crlf)] == [("a.txt", "write"), ("b.py", "write")]  # odd bytes in content are content
    hidden = "*** Begin Patch\n+x\r*** Add File: /elsewhere/x.txt\n*** End Patch\n"  # a client breaking at a bare \r sees a header
    assert [w.path for w in patch_writes(hidden)] == ["/elsewhere/x.txt"]


# --- 3. A patch in a Codex shell command is applied from where the command runs ---------------------------


def codex_bash(repo: Repo, command: str, workdir: str | None = None) -> dict[str, Any]:
    payload = in_w(repo, "codex", "hook_input_bash_exec_command.json")
    payload.update(tool_input={"command": command}, cwd=workdir or str(repo.outside), transcript_path=codex_transcript(repo, repo.outside))
    return payload


def heredoc(path: str) -> str:
    return f"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: {path}\n+leak\n*** End Patch\nEOF\n"


def test_a_codex_shell_patch_is_judged_from_its_workdir_and_after_its_cd(repo: Repo) -> None:
    import tempfile

    temp = os.path.realpath(tempfile.gettempdir())  # allow-listed, so only the patch can be refused
    up = os.path.relpath(repo.main, temp)
    assert judged(codex_bash(repo, heredoc(f"{up}/LEAK_A.txt"), workdir=temp)) == ("codex", {"WG401"}, "deny")
    assert judged(codex_bash(repo, f"cd {temp} && " + heredoc(f"{up}/LEAK_B.txt"))) == ("codex", {"WG401"}, "deny")
    assert judged(codex_bash(repo, f"(cd {temp}; " + heredoc(f"{up}/LEAK_C.txt").rstrip("\n") + "\n)")) == ("codex", {"WG401"}, "deny")
    # The same patch from the session's directory, and a relative one after a cd inside W, stay in W.
    assert judged(codex_bash(repo, heredoc("inside.txt"))) == ("codex", set(), "pass")
    (repo.outside / "src").mkdir(exist_ok=True)
    assert judged(codex_bash(repo, "cd src && " + heredoc("new.py"))) == ("codex", set(), "pass")
    out = reply(codex_bash(repo, heredoc(f"{up}/LEAK_A.txt"), workdir=temp), "codex")
    assert codes_in(out["hookSpecificOutput"]["permissionDecisionReason"]) == {"WG401"}


def test_a_codex_shell_patch_whose_text_cannot_be_seen_is_refused(repo: Repo, tmp_path: Path) -> None:
    for command in ("apply_patch < patch.txt", "cat patch.txt | apply_patch", 'apply_patch "$PATCH"',
                    "apply_patch <<EOF\n*** Begin Patch\n*** Add File: $HOME/x.txt\n+x\n*** End Patch\nEOF\n",
                    heredoc("d\x85/../../repo/LEAK.txt")):
        assert judged(codex_bash(repo, command)) == ("codex", {"WG403"}, "deny"), command
    # An unquoted heredoc whose headers expand nothing is read as written.
    assert judged(codex_bash(repo, "apply_patch <<EOF\n*** Begin Patch\n*** Add File: x.sh\n+echo $HOME\n*** End Patch\nEOF\n")) == ("codex", set(), "pass")


# --- 5. install --runtime codex in a linked worktree: Codex reads the main checkout's file there -----------


def test_codex_install_in_a_linked_worktree_writes_the_main_checkouts_file_and_its_own(repo: Repo) -> None:
    """Observed in Codex 0.171.0 (tests/e2e): in a linked worktree it runs the main checkout's .codex/hooks.json,
    and only while the worktree has a .codex directory of its own; the worktree's own hooks.json never runs."""
    from .test_install import guard
    from .test_install_runtimes import guard_entries

    main_file, own_file = repo.main / ".codex" / "hooks.json", repo.outside / ".codex" / "hooks.json"
    done = guard("install", "--runtime", "codex", cwd=repo.outside)
    assert done.returncode == 0, done.stderr
    assert f"Installed worktree-guard hooks (PreToolUse, SubagentStart, SubagentStop) in {main_file}" in done.stdout
    assert f"Installed worktree-guard hooks (PreToolUse, SubagentStart, SubagentStop) in {own_file}" in done.stdout
    assert "reads the main checkout's project hooks in a linked worktree" in done.stdout
    for path in (main_file, own_file):
        assert len(guard_entries(json.loads(path.read_text()), "PreToolUse")) == 1
    again = guard("install", "--runtime", "codex", cwd=repo.outside)
    assert again.stdout.count("already installed") == 2
    assert guard("uninstall", "--runtime", "codex", cwd=repo.outside).returncode == 0
    for path in (main_file, own_file):
        assert guard_entries(json.loads(path.read_text()), "PreToolUse") == []
    # From the main checkout itself, only its own file.
    assert guard("install", "--runtime", "codex", cwd=repo.main).stdout.count("Installed worktree-guard hooks") == 1
    # Other runtimes read the worktree's own file (observed: Gemini CLI, Copilot, Cline).
    done = guard("install", "--runtime", "gemini", cwd=repo.outside)
    assert (repo.outside / ".gemini" / "settings.json").exists() and not (repo.main / ".gemini").exists(), done.stdout


def test_codex_install_in_a_linked_worktree_writes_neither_file_when_one_is_refused(repo: Repo) -> None:
    from .test_install import guard

    (repo.main / ".codex").mkdir()
    (repo.main / ".codex" / "hooks.json").write_text("{not json")
    done = guard("install", "--runtime", "codex", cwd=repo.outside)
    assert done.returncode == 1 and "is not valid JSON" in done.stderr
    assert not (repo.outside / ".codex").exists()


# --- 6. An event the adapter's own hook file never gets is refused, not passed ----------------------------


@pytest.mark.parametrize(
    ("runtime", "payload", "refused"),
    [
        # The Cline VS Code extension runs the same .clinerules/hooks/PreToolUse file: its form is read (below);
        # a hookName that is no tool call is refused.
        ("cline", lambda r: {"hookName": "TaskStart", "workspaceRoots": [str(r.outside)], "taskStart": {}}, lambda o: o["errorMessage"]),
        ("cursor", lambda r: {"hook_event_name": "PreToolUse", "conversation_id": "c", "generation_id": "g", "workspace_roots": [str(r.outside)], "tool_name": "Write", "tool_input": {"file_path": str(r.main / "LEAK.txt")}}, lambda o: o["agent_message"]),
        ("gemini", lambda r: {"hook_event_name": "beforeTool", "session_id": "s", "cwd": str(r.outside), "tool_name": "write_file", "tool_input": {"file_path": str(r.main / "LEAK.txt"), "content": "x"}}, lambda o: o["reason"]),
        ("gemini", lambda r: {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": str(r.outside), "tool_name": "write_file", "tool_input": {"file_path": str(r.main / "LEAK.txt"), "content": "x"}}, lambda o: o["reason"]),
        ("codex", lambda r: {"hook_event_name": "preToolUse", "turn_id": "t", "session_id": "s", "cwd": str(r.outside), "tool_name": "apply_patch", "tool_input": {"command": f"*** Begin Patch\n*** Add File: {r.main}/LEAK.txt\n+x\n*** End Patch\n"}}, lambda o: o["hookSpecificOutput"]["permissionDecisionReason"]),
    ],
    ids=["cline-TaskStart", "cursor-PreToolUse", "gemini-beforeTool", "gemini-PreToolUse", "codex-preToolUse"],
)
def test_an_event_the_runtime_does_not_send_is_refused_under_its_runtime(repo: Repo, runtime: str, payload: Any, refused: Any) -> None:
    out = reply(payload(repo), runtime)
    assert out is not None and codes_in(refused(out)) == {"WG000"}, out


def test_known_events_that_are_no_tool_call_still_pass(repo: Repo) -> None:
    """A user may wire the guard's command to another event the runtime does send: that is no call to refuse."""
    assert reply({"hook_event_name": "AfterTool", "session_id": "s", "cwd": str(repo.outside), "tool_name": "write_file"}, "gemini") is None
    assert reply({"hook_event_name": "stop", "conversation_id": "c", "generation_id": "g", "workspace_roots": [str(repo.outside)]}, "cursor") == {}


def cline_extension(repo: Repo, tool: str, parameters: dict[str, str]) -> dict[str, Any]:
    """The payload the Cline VS Code extension gives a PreToolUse hook (cline/cline src/core/hooks/hook-factory.ts)."""
    return {
        "clineVersion": "3.40.0", "hookName": "PreToolUse", "timestamp": "1796144000000", "taskId": "task-1",
        "workspaceRoots": [str(repo.outside)], "userId": "u", "preToolUse": {"toolName": tool, "parameters": parameters},
    }


def test_the_cline_extensions_calls_are_read_and_refused_by_cancelling(repo: Repo) -> None:
    """The extension takes `cancel`, `contextModification` and `errorMessage` only: a refusal cancels the task."""
    write = cline_extension(repo, "write_to_file", {"path": str(repo.main / "LEAK.txt"), "content": "x"})
    assert judged(write) == ("cline-vscode", {"WG101"}, "deny")
    out = reply(write, "cline")
    assert out["cancel"] is True and codes_in(out["errorMessage"]) == {"WG101"} and "overrideInput" not in out
    assert reply(write, "cline", mode="rewrite")["cancel"] is True  # no overrideInput to rewrite with
    for tool, parameters, codes in (
        ("replace_in_file", {"path": str(repo.main / "README.md"), "diff": "x"}, {"WG101"}),
        ("execute_command", {"command": f"echo x > {repo.main}/LEAK.txt", "requires_approval": "false"}, {"WG401"}),
        ("apply_patch", {"input": f"*** Begin Patch\n*** Add File: {repo.main}/LEAK.txt\n+x\n*** End Patch\n"}, {"WG101"}),
        ("write_to_file", {"path": "inside.txt", "content": "x"}, set()),
        ("execute_command", {"command": "ls", "requires_approval": "false"}, set()),
        ("read_file", {"path": str(repo.main / "README.md")}, set()),
    ):
        assert judged(cline_extension(repo, tool, parameters)) == ("cline-vscode", codes, "deny" if codes else "pass"), tool
    unknown = reply(cline_extension(repo, "use_mcp_tool", {"server_name": "x"}), "cline")
    assert unknown["cancel"] is True and codes_in(unknown["errorMessage"]) == {"WG000"}


# --- 8. Cursor: a payload it cannot read is placed by its workspace root, not where the hook runs -----------


def test_an_unreadable_cursor_call_is_placed_by_its_workspace_root(repo: Repo) -> None:
    from worktree_guard.hook import run_hook

    payload = {"hook_event_name": "preToolUse", "conversation_id": "c", "generation_id": "g", "workspace_roots": [str(repo.outside)],
               "tool_name": "Write", "tool_input": json.dumps({"file_path": str(repo.main / "LEAK.txt")})}
    for runtime in ("cursor", "auto"):
        out = json.loads(run_hook(json.dumps(payload).encode(), flags={"runtime": runtime}, cwd=str(repo.base)).stdout)
        assert out["permission"] == "deny" and codes_in(out["agent_message"]) == {"WG000"}, out


# --- wrong denies ------------------------------------------------------------------------------------------


def test_cline_apply_patch_is_judged_file_by_file_and_refused_by_a_patch_that_cannot_apply(repo: Repo, tmp_path: Path) -> None:
    """Cline offers GPT models `apply_patch {input}` instead of `editor`; WG000 cancelled the whole run."""
    payload = in_w(repo, "cline", "hook_input_editor.json")
    patch = "*** Begin Patch\n*** Add File: inside.txt\n+x\n*** Update File: src/app.py\n@@\n-a\n+b\n*** End Patch\n"
    payload["tool_call"] = {"id": "c", "name": "apply_patch", "input": {"input": patch}}
    assert judged(payload) == ("cline", set(), "pass")
    payload["tool_call"]["input"]["input"] = f"*** Begin Patch\n*** Add File: inside.txt\n+x\n*** Add File: {repo.main}/LEAK.txt\n+x\n*** End Patch\n"
    assert judged(payload) == ("cline", {"WG101"}, "deny")
    override = reply(payload, "cline")["overrideInput"]["input"]
    first, reason, last, end = override.split("\n")
    assert (first, last, end) == ("*** Begin Patch", "*** End Patch", "") and reason.startswith("worktree-guard refused this patch: ")
    assert codes_in(reason) == {"WG101"}
    from worktree_guard.runtimes.patch import PatchError, patch_writes

    with pytest.raises(PatchError):
        patch_writes(override)  # the replacement names no file: nothing can be written


@pytest.mark.parametrize("tool", ["sql", "session_store_sql", "read_agent", "list_agents", "write_agent"])
def test_copilots_own_session_tools_pass(repo: Repo, tool: str) -> None:
    payload = in_w(repo, "copilot", "hook_input_camel_bash.json")
    payload.update(toolName=tool, toolArgs={"description": "x", "query": "SELECT 1"})
    assert judged(payload) == ("copilot", set(), "pass")


def test_codex_ephemeral_sessions_are_placed_by_the_hook_process_directory(repo: Repo) -> None:
    """`codex exec --ephemeral` sends `transcript_path: null`; Codex starts every hook in the session's directory."""
    from worktree_guard.hook import run_hook

    def bash(command: str, workdir: Path) -> dict[str, Any]:
        payload = codex_bash(repo, command, str(workdir))
        payload["transcript_path"] = None
        return json.loads(run_hook(json.dumps(payload).encode(), flags={"runtime": "codex"}, cwd=str(repo.outside)).stdout or "null")

    assert bash("echo ok > inside.txt", repo.outside) is None
    assert codes_in(bash(f"echo x > {repo.main}/LEAK.txt", repo.outside)["hookSpecificOutput"]["permissionDecisionReason"]) == {"WG401"}
    assert codes_in(bash("git switch -c x", repo.main)["hookSpecificOutput"]["permissionDecisionReason"]) == {"WG201", "WG301"}
    # A transcript that is named but cannot be read is still refused, and so is a hook process whose directory is unknown.
    unreadable = codex_bash(repo, "ls", str(repo.outside))
    unreadable["transcript_path"] = str(repo.base / "missing.jsonl")
    out = json.loads(run_hook(json.dumps(unreadable).encode(), flags={"runtime": "codex"}, cwd=str(repo.outside)).stdout)
    assert codes_in(out["hookSpecificOutput"]["permissionDecisionReason"]) == {"WG000"}
    unplaced = codex_bash(repo, "ls", str(repo.outside))
    unplaced["transcript_path"] = None
    out = json.loads(run_hook(json.dumps(unplaced).encode(), flags={"runtime": "codex"}, cwd="").stdout)
    assert codes_in(out["hookSpecificOutput"]["permissionDecisionReason"]) == {"WG000"}


# --- 4. Codex's write_stdin reaches no hook: what would read it is judged when it starts -----------------


@pytest.mark.parametrize(
    ("command", "codes"),
    [
        ("script -q /dev/null", {"WG404"}),  # a shell reading its input (Codex keeps a tty session's input open)
        ("script", {"WG404"}),
        ("script -q -f /dev/null", {"WG404"}),
        ("script $OPTS /dev/null", {"WG404", "WG403"}),  # and $OPTS may be the typescript file it writes
        ("busybox sh", {"WG404"}),
        ("busybox ash -s", {"WG404"}),
        ("bash -i", {"WG404"}),
        ("script --version", set()),
        ("script -q /dev/null ls", set()),  # BSD script runs the command after the file (and util-linux refuses it)
        ("script -p typescript", set()),  # BSD: plays a recorded file back
        ("script -O log.txt", {"WG404"}),  # an option's value is no command
        ("busybox ls", set()),
        ("busybox rm {MAIN}/README.md", {"WG401"}),  # busybox runs its applet
    ],
)
def test_a_codex_command_that_starts_a_shell_reading_its_input_is_refused(repo: Repo, command: str, codes: set[str]) -> None:
    payload = codex_bash(repo, command.replace("{MAIN}", str(repo.main)))
    assert judged(payload) == ("codex", codes, "deny" if codes else "pass"), command


@pytest.mark.parametrize(
    ("command", "strict"),
    [("python3", {"WG405"}), ("node -i", {"WG405"}), ("python3 -", {"WG405"}), ("python3 -c 'print(1)'", {"WG405"}),
     ("python3 script.py", set()), ("python3 -m pytest", set()), ("node -v", set()), ("python3 --version", set())],
)
def test_an_interpreter_reading_its_program_from_its_input_is_inline_code(repo: Repo, command: str, strict: set[str]) -> None:
    """A REPL fed later is no more than `python -c`: passed by default (SPEC §5.2), WG405 in the strict profile."""
    payload = codex_bash(repo, command)
    assert judged(payload) == ("codex", set(), "pass"), command
    assert judged(payload, profile="strict") == ("codex", strict, "deny" if strict else "pass"), command
