"""Every tool that runs a shell command reaches the guard and is judged (hook-protocols.md §2, §8).

Claude Code has three: Bash, Monitor (`command`, or `ws` for a websocket; "same permission rules as Bash") and
PowerShell (Bash's fields; on Windows without Git Bash the only one). The matcher install writes and the plugin's
hooks.json named Bash alone, so a sub-agent's `Monitor` or `PowerShell` command was never judged: a fail-open.
Monitor is judged exactly as Bash is. PowerShell the guard cannot read (bashlex and shfmt read bash; a home-made
parser is ruled out, SPEC §5.2): it is a command no parser handles, WG900 under `on_parse_error`, for every agent
the guard judges Bash for, and passes for every agent it does not. Copilot CLI's `powershell` tool goes the same way.

Calls are judged as Claude Code runs the plugin's hooks: only when a PreToolUse matcher of hooks/hooks.json names
the tool (`judged`); real repositories with real linked worktrees (tests/conftest.py).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import HOOK_EXE, REPO_ROOT, Repo, payload, run_hook_inline, subagent_payload, write_agent
from tests.test_wave import A, Wave, codes
from worktree_guard.doctor import matcher_matches

UNJUDGED = "never reaches the guard"
POWERSHELL_WORDS = ("worktree-guard cannot read PowerShell", "run it with the Bash tool instead")


def judged(data: dict[str, Any], flags: dict[str, Any] | None = None) -> str | list[str]:
    """The guard's answer to a Claude Code call as the plugin's hooks.json wires it: UNJUDGED when no PreToolUse
    matcher names the tool (Claude Code never runs the hook, the call goes through), else "pass" or the codes."""
    groups = json.loads((REPO_ROOT / "hooks" / "hooks.json").read_text())["hooks"]["PreToolUse"]
    if not any(matcher_matches(group.get("matcher"), data["tool_name"]) for group in groups):
        return UNJUDGED
    result = run_hook_inline(data, flags=flags)
    assert result.returncode == 0, result.stderr
    return "pass" if result.decision == "pass" else result.codes


def monitor(command: str | None = None, **fields: Any) -> dict[str, Any]:
    """A Monitor tool input as Claude Code sends it: `command`, or `ws` when there is none."""
    source = {"command": command} if command is not None else {"ws": {"url": "ws://127.0.0.1:8765/events"}}
    return {**source, "description": "watch", "timeout_ms": 60000, "persistent": False, **fields}


def powershell(command: str) -> dict[str, Any]:
    return {"command": command, "description": "ps"}


# --- Monitor: the same codes as Bash ----------------------------------------------------------------------------


@pytest.mark.parametrize(("command", "expected"), [
    ("cd {MAIN} && git checkout -b x", ["WG201", "WG301"]),
    ("rm {MAIN}/README.md", ["WG401"]),
    ("git -C {MAIN} reset --hard", ["WG302"]),
])
def test_a_monitor_command_that_escapes_gets_the_codes_of_the_same_bash_command(repo: Repo, command: str, expected: list[str]) -> None:
    command = command.format(MAIN=repo.main)
    assert judged(subagent_payload(repo, "Bash", {"command": command})) == expected
    assert judged(subagent_payload(repo, "Monitor", monitor(command))) == expected


def test_a_monitor_command_that_stays_in_the_worktree_reaches_the_guard_and_passes(repo: Repo) -> None:
    for command in (f"tail -n 20 -f {repo.worktree}/src/app.py", "python3 -m http.server 8000 > server.log 2>&1", "git status --short"):
        assert judged(subagent_payload(repo, "Monitor", monitor(command))) == "pass", command


def test_a_monitor_on_a_websocket_runs_no_command_and_passes(repo: Repo) -> None:
    assert judged(subagent_payload(repo, "Monitor", monitor())) == "pass"
    assert judged(payload(repo.worktree, "Monitor", monitor())) == "pass"  # the main agent started in W


def test_a_wave_workers_monitor_is_judged_against_its_ownership_and_a_websocket_passes(repo: Repo, tmp_path: Path) -> None:
    """A shared-workspace worker's Monitor goes through the worker's own check as its Bash does; a websocket runs
    no command there either (it was refused with WG000: "no `command` string")."""
    wave = Wave(repo, tmp_path)
    wave.start(A, "toolu_A", "src/auth/**")
    common = {"agent_id": A, "agent_type": "general-purpose", **wave.common()}
    assert judged(payload(repo.main, "Monitor", monitor("rm README.md"), tool_use_id="toolu_m1", **common)) == ["WG701"]
    assert judged(payload(repo.main, "Monitor", monitor(), tool_use_id="toolu_m2", **common)) == "pass"
    assert judged(payload(repo.main, "Monitor", monitor("tail -f src/auth/a.log"), tool_use_id="toolu_m3", **common)) == "pass"


WS = {"url": "ws://127.0.0.1:8765/events"}
#: How Claude Code may run a Monitor: at once, in the background, for the whole session; none changes what it runs.
HOW_RUN = [{}, {"run_in_background": True}, {"persistent": True}, {"run_in_background": True, "persistent": True}]


@pytest.mark.parametrize("how", HOW_RUN)
def test_a_monitor_naming_a_websocket_and_a_command_runs_the_command_and_is_judged(repo: Repo, how: dict[str, Any]) -> None:
    both = {"ws": WS, "command": f"rm {repo.main}/README.md", "description": "watch", **how}
    assert judged(subagent_payload(repo, "Monitor", both)) == ["WG401"]
    assert judged(subagent_payload(repo, "Monitor", {"command": f"rm {repo.main}/README.md", **how})) == ["WG401"]


@pytest.mark.parametrize("how", HOW_RUN)
def test_a_wave_workers_monitor_naming_a_websocket_and_a_command_is_judged_against_its_ownership(repo: Repo, tmp_path: Path, how: dict[str, Any]) -> None:
    wave = Wave(repo, tmp_path)
    wave.start(A, "toolu_A", "src/auth/**")
    both = {"ws": WS, "command": f"rm {repo.main}/README.md", "description": "watch", **how}
    assert codes(wave.call(A, "Monitor", both, tool_use_id="toolu_m1")) == {"WG701"}
    assert codes(wave.call(A, "Monitor", {"ws": WS, "command": "tail -f src/auth/a.log", **how}, tool_use_id="toolu_m2")) == set()


MONITORS_WITHOUT_A_USABLE_COMMAND = [
    {"description": "x"},
    {"ws": WS, "command": None},
    {"Command": "rm README.md"},
    {"ws": "ws://127.0.0.1:8765/events"},
]


@pytest.mark.parametrize("tool_input", MONITORS_WITHOUT_A_USABLE_COMMAND)
def test_a_monitor_naming_no_usable_command_is_wg000_as_bash_is(repo: Repo, tmp_path: Path, tool_input: dict[str, Any]) -> None:
    """Only a `ws` object with no `command` key runs no command; anything else the guard cannot read is refused
    (it passed)."""
    assert judged(subagent_payload(repo, "Monitor", tool_input)) == ["WG000"]
    wave = Wave(repo, tmp_path)
    wave.start(A, "toolu_A", "src/auth/**")
    assert codes(wave.call(A, "Monitor", tool_input, tool_use_id="toolu_m1")) == {"WG000"}


# --- PowerShell: a command no parser handles --------------------------------------------------------------------


def test_a_powershell_command_from_an_isolated_sub_agent_is_wg900_and_says_to_use_bash(repo: Repo) -> None:
    for command in (f"Remove-Item {repo.main}/README.md", "Get-ChildItem"):
        assert judged(subagent_payload(repo, "PowerShell", powershell(command))) == ["WG900"], command
    result = run_hook_inline(subagent_payload(repo, "PowerShell", powershell("Set-Location ..")))
    assert result.decision == "deny" and result.reason.startswith(POWERSHELL_WORDS[0]) and POWERSHELL_WORDS[1] in result.reason


def test_a_powershell_command_from_a_main_agent_started_in_its_worktree_is_wg900(repo: Repo) -> None:
    assert judged(payload(repo.worktree, "PowerShell", powershell("git checkout -b x"))) == ["WG900"]


def test_a_misplaced_agents_shell_tools_get_wg002_as_bash_does(repo: Repo) -> None:
    """An agent whose definition declares worktree isolation but which runs in the main checkout: its isolation
    was not applied, and every tool that runs a command says so (WG002), PowerShell as Bash and Monitor."""
    write_agent(repo.main, "isolated-helper", "isolation: worktree")
    fields = {"agent_id": "a9", "agent_type": "isolated-helper"}
    assert judged(payload(repo.main, "Bash", {"command": "ls"}, **fields)) == ["WG002"]
    assert judged(payload(repo.main, "Monitor", monitor("ls"), **fields)) == ["WG002"]
    assert judged(payload(repo.main, "PowerShell", powershell("Get-ChildItem"), **fields)) == ["WG002"]


def test_powershell_follows_on_parse_error_as_an_unparseable_bash_command_does(repo: Repo) -> None:
    warn = {"on_parse_error": "warn"}
    assert judged(subagent_payload(repo, "Bash", {"command": "echo 'unterminated"}), flags=warn) == ["WG900"]
    result = run_hook_inline(subagent_payload(repo, "PowerShell", powershell("Get-ChildItem")), flags=warn)
    assert result.decision == "warn" and result.codes == ["WG900"] and POWERSHELL_WORDS[0] in result.output["systemMessage"]


def test_powershell_from_an_agent_not_judged_for_bash_passes_as_bash_does(repo: Repo) -> None:
    """The main agent of a session that started in the main checkout: not isolated, no worker."""
    assert judged(payload(repo.main, "Bash", {"command": "rm README.md"})) == "pass"
    assert judged(payload(repo.main, "PowerShell", powershell("Remove-Item README.md"))) == "pass"


def test_a_wave_workers_powershell_command_is_wg900(repo: Repo, tmp_path: Path) -> None:
    """A shared-workspace worker is judged for Bash although not isolated: PowerShell is WG900 for it too."""
    wave = Wave(repo, tmp_path)
    wave.start(A, "toolu_A", "src/auth/**")
    common = {"agent_id": A, "agent_type": "general-purpose", **wave.common()}
    assert judged(payload(repo.main, "PowerShell", powershell("Remove-Item README.md"), tool_use_id="toolu_p1", **common)) == ["WG900"]
    result = wave.call(A, "PowerShell", powershell("Get-ChildItem src/auth"), tool_use_id="toolu_p2")
    assert codes(result) == {"WG900"} and POWERSHELL_WORDS[0] in result.reason


def test_copilots_powershell_tool_goes_the_way_of_claude_codes(repo: Repo) -> None:
    """Copilot CLI has no matcher (every call reaches the hook); its `powershell` was an unknown tool (WG000)."""

    def copilot(cwd: Path, tool: str, command: str, session: str) -> Any:
        return run_hook_inline({"sessionId": session, "timestamp": 1796144162728, "cwd": str(cwd), "toolName": tool, "toolArgs": {"command": command, "description": "d"}})

    refused = copilot(repo.worktree, "powershell", f"Remove-Item {repo.main}/README.md", "started-in-w")
    assert refused.output is not None and refused.output["permissionDecision"] == "deny"
    reason = refused.output["permissionDecisionReason"]
    assert reason.startswith(POWERSHELL_WORDS[0]) and POWERSHELL_WORDS[1] in reason and reason.endswith("[worktree-guard WG900]")
    # A session that started in the main checkout is not judged for bash, and so not for powershell.
    assert copilot(repo.main, "bash", "rm README.md", "started-free").output is None
    assert copilot(repo.main, "powershell", "Remove-Item README.md", "started-free").output is None


# --- PowerShell run from Bash: code the guard cannot read, WG404 in every profile -------------------------------
#
# PowerShell is a shell the guard cannot read: `pwsh -c '…'` from the Bash tool is what `bash -c "$X"` is (WG404),
# not what an inline interpreter's `python -c` is (passed in the default profile). Else the WG900 above, which
# sends the agent to the Bash tool, is a way around the guard.

PROFILES = [{}, {"profile": "strict"}]
ENCODED = "UgBlAG0AbwB2AGUALQBJAHQAZQBtACAALgAuAC8AUgBFAEEARABNAEUALgBtAGQA"  # UTF-16LE base64 of `Remove-Item ../README.md`
RUNS_CODE = "runs PowerShell code, which worktree-guard cannot read; write the commands in bash instead."
READS_INPUT = "reads PowerShell code from its input, which worktree-guard cannot see; write the commands in bash instead."


@pytest.mark.parametrize("flags", PROFILES)
@pytest.mark.parametrize(("command", "words"), [
    ("pwsh -c 'Remove-Item {MAIN}/README.md'", f"`pwsh -c` {RUNS_CODE}"),
    ("pwsh -Command 'Remove-Item {MAIN}/README.md'", f"`pwsh -Command` {RUNS_CODE}"),
    ("pwsh -NoProfile -NonInteractive -Co 'Remove-Item {MAIN}/README.md'", f"`pwsh -Co` {RUNS_CODE}"),  # any prefix
    ("pwsh -cOMMAND 'Remove-Item {MAIN}/README.md'", f"`pwsh -cOMMAND` {RUNS_CODE}"),  # any case
    ("pwsh --command 'Remove-Item {MAIN}/README.md'", f"`pwsh --command` {RUNS_CODE}"),
    ("pwsh /c 'Remove-Item {MAIN}/README.md'", f"`pwsh /c` {RUNS_CODE}"),
    ("pwsh \u2013c 'Remove-Item {MAIN}/README.md'", f"`pwsh \u2013c` {RUNS_CODE}"),  # an en dash is a dash to PowerShell
    ("pwsh -cwa 'Remove-Item {MAIN}/$($args[0])' README.md", f"`pwsh -cwa` {RUNS_CODE}"),
    ("pwsh -CommandWithArgs 'Remove-Item {MAIN}/$($args[0])' README.md", f"`pwsh -CommandWithArgs` {RUNS_CODE}"),
    (f"powershell -EncodedCommand {ENCODED}", f"`powershell -EncodedCommand` {RUNS_CODE}"),
    (f"pwsh -e {ENCODED}", f"`pwsh -e` {RUNS_CODE}"),
    (f"pwsh -ec {ENCODED}", f"`pwsh -ec` {RUNS_CODE}"),
    ("pwsh.exe -c 'Remove-Item {MAIN}/README.md'", f"`pwsh.exe -c` {RUNS_CODE}"),  # WSL runs Windows' own
    ("/mnt/c/Windows/System32/WindowsPowerShell/v1.0/PowerShell.exe -c 'Remove-Item x'", f"`PowerShell.exe -c` {RUNS_CODE}"),
    ("env -i pwsh -c 'Remove-Item {MAIN}/README.md'", f"`pwsh -c` {RUNS_CODE}"),  # through a wrapper
    ("powershell -Version 2 -c 'Remove-Item {MAIN}/README.md'", f"`powershell -c` {RUNS_CODE}"),  # 5.1: -Version takes a value
    ("powershell.exe 'Remove-Item {MAIN}/README.md'", f"`powershell.exe` runs its arguments as PowerShell code, which worktree-guard cannot read; write the commands in bash instead."),
    ("echo 'Remove-Item {MAIN}/README.md' | pwsh -", f"`pwsh -` {READS_INPUT}"),
    ("echo 'Remove-Item {MAIN}/README.md' | pwsh", f"`pwsh` {READS_INPUT}"),
    ("echo 'Remove-Item {MAIN}/README.md' | pwsh -NoProfile -Command -", f"`pwsh -Command` {READS_INPUT}"),
    ("echo 'Remove-Item {MAIN}/README.md' | pwsh -File -", f"`pwsh -` {READS_INPUT}"),
    ("pwsh <<'EOF'\nRemove-Item {MAIN}/README.md\nEOF", f"`pwsh` {READS_INPUT}"),
    ("echo 'Remove-Item {MAIN}/README.md' | pwsh -NoExit -File {W}/build.ps1", f"`pwsh -NoExit` {READS_INPUT}"),
    ("pwsh -s", f"`pwsh -s` {READS_INPUT}"),  # server mode: commands from its input
    ("pwsh -File /dev/stdin", "`pwsh` runs a script worktree-guard cannot see (/dev/stdin); write the commands in bash instead."),
    ("pwsh -File \"$SCRIPT\"", "`pwsh` is given \"$SCRIPT\", only known at run time, so worktree-guard cannot tell what PowerShell code it runs; write the commands in bash instead."),
    ("pwsh -Frobnicate x -c 'Remove-Item {MAIN}/README.md'", "`pwsh -Frobnicate` is a parameter worktree-guard does not know, so it cannot tell what PowerShell code runs; write the commands in bash instead."),
])
def test_powershell_code_run_from_bash_is_wg404_in_every_profile(repo: Repo, command: str, words: str, flags: dict[str, Any]) -> None:
    """It passed in both profiles: from an isolated agent `pwsh -c 'Remove-Item <main>/README.md'` ran."""
    (repo.worktree / "build.ps1").write_text("Get-ChildItem\n")
    command = command.format(MAIN=repo.main, W=repo.worktree)
    result = run_hook_inline(subagent_payload(repo, "Bash", {"command": command}), flags=flags)
    assert result.returncode == 0, result.stderr
    assert (result.decision, result.codes) == ("deny", ["WG404"]), command
    assert result.reason.startswith(words), result.reason


@pytest.mark.parametrize("flags", PROFILES)
@pytest.mark.parametrize("command", [
    "pwsh --version",
    "pwsh -v",
    "pwsh -Version",
    "pwsh -h",
    "pwsh -File {W}/build.ps1",
    "pwsh -f build.ps1",
    "pwsh {W}/build.ps1 -c arg",  # the words after the script are its own
    "pwsh -NoProfile -NonInteractive -ExecutionPolicy Bypass -WorkingDirectory {W} -File {W}/build.ps1",
    "pwsh /tmp/build.ps1",  # outside W and every shared checkout, as `python3 /tmp/x.py` passes
])
def test_a_powershell_version_query_or_script_file_passes_as_an_interpreters_does(repo: Repo, command: str, flags: dict[str, Any]) -> None:
    (repo.worktree / "build.ps1").write_text("Get-ChildItem\n")
    command = command.format(W=repo.worktree)
    assert judged(subagent_payload(repo, "Bash", {"command": command}), flags=flags) == "pass", command


def test_a_powershell_script_in_the_main_checkout_is_wg406_as_a_python_one_is(repo: Repo) -> None:
    for command in (f"pwsh -File {repo.main}/build.ps1", f"pwsh {repo.main}/build.ps1", f"python3 {repo.main}/build.py"):
        assert judged(subagent_payload(repo, "Bash", {"command": command})) == ["WG406"], command


def test_a_wave_workers_powershell_code_from_bash_is_wg404(repo: Repo, tmp_path: Path) -> None:
    wave = Wave(repo, tmp_path)
    wave.start(A, "toolu_A", "src/auth/**")
    result = wave.bash(A, "pwsh -c 'Remove-Item README.md'")
    assert codes(result) == {"WG404"} and RUNS_CODE in result.reason
    assert codes(wave.call(A, "Bash", {"command": "pwsh --version"}, tool_use_id="toolu_v")) == set()


def test_powershell_parameters_are_read_as_powershells_console_host_reads_them() -> None:
    """Shortest forms are tried in PowerShell's order, and a parameter's value is taken whatever it looks like."""
    from worktree_guard.shell.powershell import launch

    assert launch("pwsh", ["pwsh", "-ex", "Bypass", "a.ps1"]) == ("file", 3)  # -ex is -ExecutionPolicy, -e -EncodedCommand
    assert launch("pwsh", ["pwsh", "-e", "AA"]) == ("code", 1)
    assert launch("pwsh", ["pwsh", "-config", "-c", "a.ps1"]) == ("file", 3)  # -ConfigurationName takes `-c`
    assert launch("pwsh", ["pwsh", "-wd", "/w", "-nop", "-noni", "a.ps1", "-c", "x"]) == ("file", 5)
    assert launch("pwsh", ["pwsh", "-v", "-c", "x"]) == ("none", 1)  # pwsh's -Version ends the command line
    assert launch("powershell.exe", ["powershell.exe", "-v", "2", "-c", "x"]) == ("code", 3)  # 5.1's takes a value
    assert launch("pwsh", ["pwsh", "-File"]) == ("none", 1)  # refused by PowerShell: runs nothing
    assert launch("pwsh", ["pwsh", "-nop"]) == ("input", None)  # no program: its input is
    assert launch("pwsh", ["pwsh", "-no"]) == ("unknown", 1)  # shorter than -noe/-nop/-nol/-noni: not known
    # the edges of the line (mutation testing, phase 7): a parameter that ends it, the first word Windows splits
    assert launch("powershell", ["powershell", "-Version"]) == ("none", 1)  # 5.1's -Version without its value
    assert launch("powershell", ["powershell", "-Version", "2"]) == ("input", None)  # version 2, then its input
    assert launch("pwsh", ["pwsh", "-Command"]) == ("code", 1)  # no code after it: still the code parameter
    assert launch("pwsh", ["pwsh", "-c", "-"]) == ("input", 1)
    assert launch("pwsh.exe", ["pwsh.exe", 'a"b', "x"]) == ("split", 1)
    assert launch("pwsh.exe", ["pwsh.exe", "-nop", 'a"b']) == ("split", 2)


def bash_call(repo: Repo, command: str) -> Any:
    (repo.worktree / "build.ps1").write_text("Get-ChildItem\n")
    result = run_hook_inline(subagent_payload(repo, "Bash", {"command": command.replace("{MAIN}", str(repo.main)).replace("{W}", str(repo.worktree))}))
    assert result.returncode == 0, result.stderr
    return result


SPLIT = "which Windows splits into other words (WSL leaves its double quote or tab unescaped), so worktree-guard cannot tell what PowerShell code it runs"


@pytest.mark.parametrize("command", [
    "pwsh.exe -ExecutionPolicy 'Bypass\" -c \"Remove-Item {MAIN}/README.md' build.ps1",
    "powershell.exe -ExecutionPolicy 'Bypass\" -c \"Remove-Item {MAIN}/README.md' build.ps1",
    "PowerShell.exe -NoProfile 'Bypass\"' build.ps1",
    "pwsh.exe -ExecutionPolicy 'Bypass\t-c' build.ps1",  # a tab separates words on Windows
    "pwsh.exe -wd 'C:\\a b\\' build.ps1",  # a last backslash escapes the quote WSL closes the word with
    "pwsh.exe build.ps1 'x\" -Path:{MAIN}/README.md \"y'",  # a script's words too
])
def test_a_windows_powershells_word_holding_a_quote_or_tab_is_several_words_there_and_wg404(repo: Repo, command: str) -> None:
    """WSL joins a Windows program's words into one command line without escaping a double quote inside them: one
    bash word became `-ExecutionPolicy Bypass -c "Remove-Item <main>/README.md"` to pwsh.exe, and passed."""
    result = bash_call(repo, command)
    # the script's word also holds `:{MAIN}/README.md`, a path the program may split off (written._parts: WG406 beside)
    expected = ["WG404", "WG406"] if "-Path:" in command else ["WG404"]
    assert (result.decision, result.codes) == ("deny", expected), command
    assert SPLIT in result.reason and f"`{command.split()[0]}` is given " in result.reason, result.reason


@pytest.mark.parametrize("command", [
    "pwsh build.ps1 'a\"b' 'c\td'",  # Linux's pwsh gets the words bash gives it
    "pwsh.exe -ExecutionPolicy 'Bypass x' build.ps1 'a b'",  # a space alone is quoted by WSL
    "pwsh.exe -File 'C:\\a\\build.ps1'",
])
def test_a_powershell_word_windows_reads_as_bash_does_passes(repo: Repo, command: str) -> None:
    assert bash_call(repo, command).decision == "pass", command


def test_a_powershell_scripts_colon_parameter_in_the_main_checkout_is_wg406_as_pythons_equals_option_is(repo: Repo) -> None:
    """PowerShell binds a script's `-Path:VALUE` as `-Path VALUE`: the value was read as the relative `ath:…`."""
    for command in ("python3 x.py --out={MAIN}/README.md", "pwsh build.ps1 -Path:{MAIN}/README.md", "pwsh -File build.ps1 \u2013Out:{MAIN}/README.md"):
        result = bash_call(repo, command)
        assert (result.decision, result.codes) == ("deny", ["WG406"]), command
        assert f"{repo.main}/README.md in the shared checkout" in result.reason
    for command in ("pwsh build.ps1 -Path:README.md", "pwsh build.ps1 -Path:{W}/README.md", "pwsh build.ps1 -Force:$true"):
        assert bash_call(repo, command).decision == "pass", command


LAUNCHES = "runs a command in a shell or Linux distribution of its own (or reads one from its input), which worktree-guard cannot see"


@pytest.mark.parametrize("command", [
    "wsl.exe -e sh -c 'rm {MAIN}/README.md'",
    "wsl.exe --exec ls",
    "wsl.exe -- rm README.md",
    "wsl.exe sh -c 'rm {MAIN}/README.md'",
    "wsl -d Ubuntu -u root rm README.md",
    "WSL.EXE",  # a shell that reads its input
    "bash.exe -c 'rm {MAIN}/README.md'",
    "bash.exe",
    "cmd.exe /c del README.md",
    "cmd.exe /K dir",
    "cmd.exe /d /r dir",
    "/mnt/c/Windows/System32/cmd.exe /c dir",
])
def test_a_windows_launcher_reachable_from_wsl_is_wg404_as_a_shell_it_cannot_read(repo: Repo, command: str) -> None:
    result = bash_call(repo, command)
    assert (result.decision, result.codes) == ("deny", ["WG404"]), command
    assert LAUNCHES in result.reason, result.reason


@pytest.mark.parametrize("command", ["wsl.exe --version", "wsl.exe -l -v", "wsl --list --quiet", "wsl.exe --status", "wsl.exe --help", "bash.exe --version", "cmd.exe '/?'"])
def test_a_windows_launchers_version_help_or_list_query_passes(repo: Repo, command: str) -> None:
    assert bash_call(repo, command).decision == "pass", command


@pytest.mark.parametrize("command", ["echo a.ps1 | xargs pwsh", "echo a.ps1 | xargs pwsh -File", "xargs -0 pwsh -NoProfile < list"])
def test_xargs_powershell_names_the_input_xargs_appends(repo: Repo, command: str) -> None:
    """The word xargs appends was shown as a copy of the one before it: "`pwsh` is given pwsh" / "given -File"."""
    result = bash_call(repo, command)
    assert (result.decision, result.codes) == ("deny", ["WG404"])
    assert result.reason.startswith("`pwsh` is given xargs' input, only known at run time"), result.reason


def test_copilots_pascalcase_payload_names_powershell_as_claude_code_does_and_it_is_wg900(repo: Repo) -> None:
    """Under the PascalCase `PreToolUse` event Copilot sends Claude's tool names (`bash` is `Bash`): its
    `powershell` is `PowerShell`, which was an unknown tool (WG000)."""

    def copilot(cwd: Path, tool: str, command: str, session: str) -> Any:
        return run_hook_inline({
            "hook_event_name": "PreToolUse", "session_id": session, "timestamp": "2026-01-01T00:00:00.000Z", "cwd": str(cwd),
            "tool_name": tool, "tool_input": {"command": command, "description": "d"},
        })

    refused = copilot(repo.worktree, "PowerShell", f"Remove-Item {repo.main}/README.md", "pascal-started-in-w")
    assert (refused.decision, refused.codes) == ("deny", ["WG900"])
    assert refused.reason.startswith(POWERSHELL_WORDS[0]) and POWERSHELL_WORDS[1] in refused.reason
    assert copilot(repo.worktree, "Bash", f"rm {repo.main}/README.md", "pascal-started-in-w").codes == ["WG401"]
    assert copilot(repo.main, "PowerShell", "Remove-Item README.md", "pascal-started-free").decision == "pass"


def test_an_isolated_wave_workers_powershell_call_gets_the_wg900_sentence_once(repo: Repo, tmp_path: Path) -> None:
    """A worker in a linked worktree is isolated: the bash rule reports its PowerShell call, and the worker's own
    check must not say it a second time."""
    wave = Wave(repo, tmp_path)
    wave.start(A, "toolu_A", "src/auth/**")
    data = payload(repo.worktree, "PowerShell", powershell("Get-ChildItem"), agent_id=A, agent_type="general-purpose", tool_use_id="toolu_p9", **wave.common())
    result = run_hook_inline(data)
    assert (result.decision, result.codes) == ("deny", ["WG900"])
    assert result.reason.count(POWERSHELL_WORDS[0]) == 1, result.reason


def test_check_judges_a_powershell_command_as_the_hook_does(repo: Repo) -> None:
    """`worktree-guard check --tool PowerShell --command …` (cli.py): the command is the call's, and required."""

    def check(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(HOOK_EXE), "check", *args, "--cwd", str(repo.worktree)], capture_output=True, text=True, timeout=60)

    command = f"Remove-Item {repo.main}/README.md"
    human = check("--tool", "PowerShell", "--command", command)
    assert human.returncode == 1, human.stderr
    assert human.stdout.startswith(f"deny: PowerShell {command}\n")
    assert f"WG900 [bash] {POWERSHELL_WORDS[0]}" in human.stdout
    out = json.loads(check("--tool", "PowerShell", "--command", command, "--json").stdout)
    assert out["decision"] == "deny" and [v["code"] for v in out["violations"]] == ["WG900"]
    missing = check("--tool", "PowerShell")
    assert missing.returncode == 2 and "--command is required for a shell tool" in missing.stderr
