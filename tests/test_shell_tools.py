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
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import REPO_ROOT, Repo, payload, run_hook_inline, subagent_payload, write_agent
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
