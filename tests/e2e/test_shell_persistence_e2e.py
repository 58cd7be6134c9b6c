"""Does a shell tool's state outlive one call? Observed in each runtime's real client (docs/shell-persistence.md).

The guard judges a Bash call from the hook payload's `cwd` (SPEC §3): if a client's shell kept a `cd` from one
call to the next while the payload did not follow it, a relative path in the second call would be judged
against the wrong directory. So each client runs, in a linked worktree, two consecutive shell calls:

  1. `export WG_PERSIST=exported; WG_PLAIN=plain; f_wg() { echo fn; }; alias a_wg='echo al';
      shopt -s expand_aliases; set -o noclobber; cd src`
  2. `printf … "$WG_PERSIST" "$WG_PLAIN" "$(type -t f_wg)" "$(type -t a_wg)" "$(pwd)" "$-" > <W>/persist-probe.txt`

and the test reads which of them the second call still saw, and the `cwd` of both calls' hook payloads, which
a logging hook installed in place of worktree-guard's appends to a file (`{"hook_cwd": …, "payload": …}` a line;
in place of, because the guard refuses call 1: an alias defined in a command, then `cd`, is WG404).
Each test asserts what was OBSERVED at the pinned client version, so it fails when a client changes.

`WG_E2E_PERSIST_DUMP=DIR` copies each run's payloads, probe file and tool outputs to DIR/<runtime>/.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .fake_anthropic import FakeAnthropic, text, tool_use
from .harness import dispatch
from .fake_models import FakeChat, FakeGemini, FakeResponses, call, say
from .runtime_world import World, codes_in
from .test_runtimes_e2e import _cline_auth, _copilot, _gemini_run, _gemini_settings
from .claude_cli import VERSION, WAVE_VERSION, CliUnavailable, ensure_cli

CALL1 = "export WG_PERSIST=exported; WG_PLAIN=plain; f_wg() { echo fn; }; alias a_wg='echo al'; shopt -s expand_aliases; set -o noclobber; cd src"
FIELDS = ("exported", "plain", "function", "alias", "cwd", "options")


def call2(world: World, *, substitution: bool = True, name: str = "persist-probe.txt") -> str:
    """The probe. Gemini CLI refuses `$(…)` in a command ("Command injection detected"): `substitution=False`
    reads the same six values without it (`$PWD` for `$(pwd)`, `type -t … && f=function` for `$(type -t …)`)."""
    target = world.wt / name
    if substitution:
        return f"""printf '%s|%s|%s|%s|%s|%s\\n' "$WG_PERSIST" "$WG_PLAIN" "$(type -t f_wg)" "$(type -t a_wg)" "$(pwd)" "$-" > {target}"""
    return (
        "f=; a=; type -t f_wg >/dev/null && f=function; type -t a_wg >/dev/null && a=alias; "
        f"""printf '%s|%s|%s|%s|%s|%s\\n' "$WG_PERSIST" "$WG_PLAIN" "$f" "$a" "$PWD" "$-" > {target}"""
    )


@dataclass(frozen=True)
class Probe:
    """What the second call saw, read from the probe file."""

    exported: str
    plain: str
    function: str
    alias: str
    cwd: str
    options: str

    @classmethod
    def read(cls, path: Path) -> Probe:
        assert path.exists(), f"the second call wrote no {path.name}"
        return cls(*path.read_text().rstrip("\n").split("|"))

    def kept(self, wt: Path) -> dict[str, bool]:
        """Which part of the first call's state the second call still had."""
        return {
            "exported": self.exported == "exported",
            "plain": self.plain == "plain",
            "function": self.function == "function",
            "alias": self.alias == "alias",
            "cwd": self.cwd == str(wt / "src"),
            "options": "C" in self.options,  # noclobber
        }


def background(world: World) -> tuple[str, str]:
    """Calls 3 and 4: start a job in the background and return; then, later, read what it wrote (a job that
    outlives its call could act after the hook has judged it, from wherever that call's shell was)."""
    out = world.wt / "bg.txt"
    return f"(sleep 1; echo survived > {out}) > /dev/null 2>&1 &", f"sleep 3; cat {out}"


NOTHING = dict.fromkeys(FIELDS, False)
EVERYTHING = dict.fromkeys(FIELDS, True)


def test_the_probe_sees_each_kind_of_state(tmp_path: Path) -> None:
    """Control: both calls in one bash, so every kind of state is there to be seen, with and without `$(…)`."""
    import subprocess

    world = World(tmp_path, "codex")
    for substitution in (True, False):
        (world.wt / "persist-probe.txt").unlink(missing_ok=True)
        subprocess.run(["bash", "-c", f"{CALL1}\n{call2(world, substitution=substitution)}"], cwd=world.wt, check=True, env=world.env())
        assert Probe.read(world.wt / "persist-probe.txt").kept(world.wt) == EVERYTHING


# --- a logging hook in place of worktree-guard's ---------------------------------------------------------


def _logger(world: World) -> tuple[Path, Path]:
    """A hook program that appends its stdin (and its own cwd) to payloads.jsonl and answers nothing."""
    log = world.base / "payloads.jsonl"
    program = world.base / "log_hook.py"
    program.write_text(
        f"#!{sys.executable}\n"
        "import json, os, sys\n"
        "raw = sys.stdin.read()\n"
        "try:\n    payload = json.loads(raw)\nexcept ValueError:\n    payload = raw\n"
        f"with open({str(log)!r}, 'a') as f:\n"
        "    f.write(json.dumps({'hook_cwd': os.getcwd(), 'payload': payload}) + '\\n')\n"
    )
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return program, log


def _json_hooks(path: Path, add: Any) -> None:
    data = json.loads(path.read_text())
    add(data["hooks"])
    path.write_text(json.dumps(data, indent=2))


def attach_logger(world: World) -> Path:
    """Put the logging hook in place of the guard's PreToolUse hook, in the working trees of both checkouts.

    Instead, not beside: the guard refuses the first call (an alias defined in a command, then `cd`: WG404), and
    the question is what the client's shell keeps when both calls run.
    """
    program, log = _logger(world)
    for root in (world.main, world.wt):
        if world.runtime == "codex":
            _json_hooks(root / ".codex/hooks.json", lambda h: h.update(PreToolUse=[{"matcher": ".*", "hooks": [{"type": "command", "command": str(program), "timeout": 30}]}]))
        elif world.runtime == "gemini":
            _json_hooks(root / ".gemini/settings.json", lambda h: h.update(BeforeTool=[{"matcher": ".*", "hooks": [{"type": "command", "command": str(program), "name": "wg-log", "timeout": 30000}]}]))
        elif world.runtime == "copilot":
            _json_hooks(root / ".github/hooks/worktree-guard.json", lambda h: h.update(preToolUse=[{"type": "command", "bash": str(program), "timeoutSec": 30}]))
        elif world.runtime == "claude-code":
            _json_hooks(root / ".claude/settings.local.json", lambda h: h.update(PreToolUse=[{"matcher": ".*", "hooks": [{"type": "command", "command": str(program), "timeout": 30}]}]))
        elif world.runtime == "cline":
            (root / ".clinerules/hooks/PreToolUse").write_text(f"#!/bin/sh\nexec {program}\n")
    return log


def payloads(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


SHELL_TOOLS = ("Bash", "bash", "run_shell_command", "run_commands")


def shell_payloads(log: Path) -> list[dict[str, Any]]:
    """The logged payloads of shell calls, in order: `{"hook_cwd": the hook process's cwd, "payload": stdin}`."""

    def tool(entry: dict[str, Any]) -> Any:
        p = entry["payload"]
        return p.get("tool_name") or p.get("toolName") or (p.get("tool_call") or {}).get("name")

    return [e for e in payloads(log) if tool(e) in SHELL_TOOLS]


def cwds(log: Path) -> tuple[list[Any], list[str]]:
    """The payloads' `cwd` and the hook processes' cwds, of the first two shell calls (the probe's)."""
    entries = shell_payloads(log)[:2]
    return [e["payload"].get("cwd") for e in entries], [e["hook_cwd"] for e in entries]


def dump(runtime: str, world: World, **extra: Any) -> None:
    target = os.environ.get("WG_E2E_PERSIST_DUMP")
    if not target:
        return
    out = Path(target) / runtime
    out.mkdir(parents=True, exist_ok=True)
    for name in ("payloads.jsonl",):
        if (world.base / name).exists():
            shutil.copy(world.base / name, out / name)
    for probe in world.wt.glob("persist-probe*.txt"):
        shutil.copy(probe, out / probe.name)
    (out / "extra.json").write_text(json.dumps(extra, indent=2, default=str))



# --- Codex ---------------------------------------------------------------------------------------------


def test_codex(codex: Path, tmp_path: Path) -> None:
    world = World(tmp_path, "codex")
    log = attach_logger(world)
    with FakeResponses() as fake:
        codex_home = world.codex_home(fake.url, model="gpt-5.5", trusted=world.wt)
        bg, check = background(world)
        fake.script(
            "E2E-PERSIST-CODEX",
            call("exec_command", {"cmd": CALL1}, id="call_1"),
            call("exec_command", {"cmd": call2(world)}, id="call_2"),
            call("exec_command", {"cmd": bg}, id="call_bg"),
            call("exec_command", {"cmd": check}, id="call_check"),
            say("done"),
        )
        world.run(
            [str(codex), "exec", "--dangerously-bypass-hook-trust", "--json", "--skip-git-repo-check", "E2E-PERSIST-CODEX go"],
            env={"CODEX_HOME": str(codex_home), "FAKE_API_KEY": "sk-e2e"},
        )
        outputs = {c: fake.output_for(c) for c in ("call_1", "call_2", "call_bg", "call_check")}
        tools = [t.get("name") for t in fake.requests[0].body.get("tools", [])]
    dump("codex", world, outputs=outputs, tools=tools)
    assert all("Process exited with code 0" in (outputs[c] or "") for c in ("call_1", "call_2")), outputs  # `cd src` ran
    # The background job does not outlive its call: Codex ends the call's process group when the command exits.
    assert "bg.txt: No such file or directory" in (outputs["call_check"] or ""), outputs
    assert not (world.wt / "bg.txt").exists()
    # exec_command: a new `bash -c` per call (no shell session unless the model keeps one for write_stdin).
    assert Probe.read(world.wt / "persist-probe.txt").kept(world.wt) == NOTHING
    assert cwds(log) == ([str(world.wt)] * 2, [str(world.wt)] * 2)


# --- GitHub Copilot CLI --------------------------------------------------------------------------------


def test_copilot_bash(copilot: Path, tmp_path: Path) -> None:
    world = World(tmp_path, "copilot")
    log = attach_logger(world)
    with FakeResponses() as fake:
        fake.script(
            "E2E-PERSIST-COPILOT",
            call("bash", {"command": CALL1, "description": "state"}, id="call_1"),
            call("bash", {"command": call2(world), "description": "probe"}, id="call_2"),
            *[call("bash", {"command": c, "description": "bg"}, id=i) for i, c in zip(("call_bg", "call_check"), background(world))],
            say("done"),
        )
        _copilot(world, copilot, fake, "gpt-5.5", "E2E-PERSIST-COPILOT")
        outputs = {c: fake.output_for(c) for c in ("call_1", "call_2", "call_bg", "call_check")}
        tools = [t for t in fake.requests[0].body.get("tools", []) if t.get("name") in ("bash", "read_bash", "write_bash", "stop_bash", "list_bash")]
    dump("copilot-bash", world, outputs=outputs, tools=tools)
    assert all("completed with exit code 0" in (outputs[c] or "") for c in ("call_1", "call_2")), outputs
    assert "survived" in (outputs["call_check"] or ""), outputs
    # Each sync call is a fresh process (shellId 0, then 1); 1.0.102 offers no write_bash to any model id.
    assert Probe.read(world.wt / "persist-probe.txt").kept(world.wt) == NOTHING
    assert cwds(log) == ([str(world.wt)] * 2, [str(world.wt)] * 2)
    assert {t["name"] for t in tools} == {"bash", "read_bash", "stop_bash", "list_bash"}


# --- Gemini CLI ----------------------------------------------------------------------------------------


def test_gemini(gemini: Path, tmp_path: Path) -> None:
    world = World(tmp_path, "gemini")
    log = attach_logger(world)
    _gemini_settings(world)
    with FakeGemini() as fake:
        fake.script(
            "E2E-PERSIST-GEMINI",
            call("run_shell_command", {"command": CALL1}, id="call_1"),
            call("run_shell_command", {"command": call2(world, substitution=False)}, id="call_2"),
            *[call("run_shell_command", {"command": c}, id=i) for i, c in zip(("call_bg", "call_check"), background(world))],
            say("done"),
        )
        _gemini_run(world, gemini, fake, "E2E-PERSIST-GEMINI")
        outputs = {c: fake.output_for(c) for c in ("call_1", "call_2", "call_bg", "call_check")}
    dump("gemini", world, outputs=outputs)
    assert all("Output: (empty)" in (outputs[c] or "") for c in ("call_1", "call_2")), outputs
    assert "survived" in (outputs["call_check"] or ""), outputs
    assert Probe.read(world.wt / "persist-probe.txt").kept(world.wt) == NOTHING
    assert cwds(log) == ([str(world.wt)] * 2, [str(world.wt)] * 2)


# --- Cline ---------------------------------------------------------------------------------------------


def test_cline(cline: Path, tmp_path: Path) -> None:
    world = World(tmp_path, "cline")
    log = attach_logger(world)
    with FakeChat() as fake:
        args = _cline_auth(world, cline, fake)
        fake.script(
            "E2E-PERSIST-CLINE",
            call("run_commands", {"commands": [CALL1]}, id="call_1"),
            call("run_commands", {"commands": [call2(world)]}, id="call_2"),
            *[call("run_commands", {"commands": [c]}, id=i) for i, c in zip(("call_bg", "call_check"), background(world))],
            say("done"),
        )
        world.run([str(cline), *args, "E2E-PERSIST-CLINE go"])
        outputs = {c: fake.output_for(c) for c in ("call_1", "call_2", "call_bg", "call_check")}
    dump("cline", world, outputs=outputs)
    assert all('"success":true' in (outputs[c] or "") for c in ("call_1", "call_2")), outputs
    assert "survived" in (outputs["call_check"] or ""), outputs
    assert Probe.read(world.wt / "persist-probe.txt").kept(world.wt) == NOTHING
    # Cline's payload has no cwd: the workspace root, unchanged, and the hook runs there.
    assert cwds(log) == ([None, None], [str(world.wt)] * 2)
    assert [e["payload"]["workspaceRoots"] for e in shell_payloads(log)[:2]] == [[str(world.wt)]] * 2


# --- Claude Code CLI ----------------------------------------------------------------------------------------


def _claude_env(world: World, fake: FakeAnthropic) -> dict[str, str]:
    return {
        "ANTHROPIC_BASE_URL": fake.base_url, "ANTHROPIC_API_KEY": "sk-ant-e2e", "IS_SANDBOX": "1",
        "CLAUDE_CODE_TMPDIR": str(world.base / "claude-tmp"), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
    }


@pytest.mark.parametrize("version", [VERSION, WAVE_VERSION])
def test_claude_code(version: str, tmp_path: Path) -> None:
    try:
        cli = ensure_cli(version)
    except CliUnavailable as e:
        pytest.skip(str(e))
    world = World(tmp_path, "claude-code")
    log = attach_logger(world)
    (world.base / "claude-tmp").mkdir()
    with FakeAnthropic() as fake:
        fake.scripts["E2E-PERSIST-CLAUDE"] = [
            [tool_use("Bash", {"command": CALL1, "description": "state"}, id="call_1")],
            [tool_use("Bash", {"command": call2(world), "description": "probe"}, id="call_2")],
            *[[tool_use("Bash", {"command": c, "description": "bg"}, id=i)] for i, c in zip(("call_bg", "call_check"), background(world))],
            [text("done")],
        ]
        world.run([str(cli), "-p", "E2E-PERSIST-CLAUDE go", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"], env=_claude_env(world, fake))
        assert not fake.errors, fake.errors
        outputs = {c: fake.tool_result_text(c) for c in ("call_1", "call_2", "call_bg", "call_check")}
    dump(f"claude-code-{version}", world, outputs=outputs)
    # The Bash tool keeps the directory (and only it: a new shell per call, from the CLI's snapshot), and the
    # next call's payload — and the hook process — follow it.
    assert Probe.read(world.wt / "persist-probe.txt").kept(world.wt) == {**NOTHING, "cwd": True}
    assert "survived" in outputs["call_check"], outputs
    assert cwds(log) == ([str(world.wt), str(world.wt / "src")], [str(world.wt), str(world.wt / "src")])


@pytest.mark.parametrize("version", [VERSION, WAVE_VERSION])
def test_claude_code_subagent(version: str, tmp_path: Path) -> None:
    """A sub-agent (no isolation, in W) makes the two calls; then the main agent reads its own directory."""
    try:
        cli = ensure_cli(version)
    except CliUnavailable as e:
        pytest.skip(str(e))
    world = World(tmp_path, "claude-code")
    log = attach_logger(world)
    (world.base / "claude-tmp").mkdir()
    with FakeAnthropic() as fake:
        fake.scripts["E2E-PERSIST-SUB"] = [
            [tool_use("Bash", {"command": CALL1, "description": "state"}, id="call_1")],
            [tool_use("Bash", {"command": call2(world), "description": "probe"}, id="call_2")],
            [text("done")],
        ]
        fake.scripts["E2E-PERSIST-PARENT"] = [
            [dispatch("E2E-PERSIST-SUB run the two calls", isolation=None, id="call_agent")],
            [tool_use("Bash", {"command": f"pwd > {world.wt / 'parent-pwd.txt'}", "description": "parent"}, id="call_parent")],
            [text("done")],
        ]
        world.run([str(cli), "-p", "E2E-PERSIST-PARENT go", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"], env=_claude_env(world, fake))
        assert not fake.errors, fake.errors
        outputs = {c: fake.tool_result_text(c) for c in ("call_1", "call_2", "call_agent", "call_parent")}
    dump(f"claude-code-subagent-{version}", world, outputs=outputs)
    assert outputs["call_1"] == outputs["call_2"] == "(Bash completed with no output)", outputs
    # Unlike the main agent, the sub-agent does not keep even its directory: its second call starts in W again,
    # and says so in its payload. Its `cd` does not reach the main agent either.
    assert Probe.read(world.wt / "persist-probe.txt").kept(world.wt) == NOTHING
    entries = shell_payloads(log)
    assert [e["payload"].get("agent_id") is not None for e in entries] == [True, True, False]
    assert [e["payload"]["cwd"] for e in entries] == [str(world.wt)] * 3
    assert [e["hook_cwd"] for e in entries] == [str(world.wt)] * 3
    assert (world.wt / "parent-pwd.txt").read_text() == f"{world.wt}\n"


@pytest.mark.parametrize("version", [VERSION, WAVE_VERSION])
def test_claude_code_subagent_after_the_main_agent_cd(version: str, tmp_path: Path) -> None:
    """The main agent moves to src, then starts a sub-agent: where do the sub-agent's calls run, and is the main
    agent still in src afterwards?"""
    try:
        cli = ensure_cli(version)
    except CliUnavailable as e:
        pytest.skip(str(e))
    world = World(tmp_path, "claude-code")
    log = attach_logger(world)
    (world.base / "claude-tmp").mkdir()
    with FakeAnthropic() as fake:
        fake.scripts["E2E-PERSIST-SUB2"] = [[tool_use("Bash", {"command": f"pwd > {world.wt / 'sub-pwd.txt'}", "description": "sub"}, id="call_sub")], [text("done")]]
        fake.scripts["E2E-PERSIST-PARENT2"] = [
            [tool_use("Bash", {"command": "cd src", "description": "cd"}, id="call_cd")],
            [dispatch("E2E-PERSIST-SUB2 where are you", isolation=None, id="call_agent")],
            [tool_use("Bash", {"command": f"pwd > {world.wt / 'parent-pwd.txt'}", "description": "parent"}, id="call_parent")],
            [text("done")],
        ]
        world.run([str(cli), "-p", "E2E-PERSIST-PARENT2 go", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"], env=_claude_env(world, fake))
        assert not fake.errors, fake.errors
    src = str(world.wt / "src")
    found = {name: (world.wt / f"{name}-pwd.txt").read_text().strip() for name in ("sub", "parent")}
    entries = [(e["payload"].get("agent_id") is not None, e["payload"]["cwd"], e["hook_cwd"]) for e in payloads(log)]
    dump(f"claude-code-subagent-after-cd-{version}", world, found=found, entries=entries)
    # The sub-agent starts where the main agent's shell is (src), and its payload says so; the main agent is
    # still there afterwards. Entries: cd (main agent), Agent (main, after the cd), the sub-agent's pwd, the main
    # agent's pwd, each as (from a sub-agent, payload cwd, hook process cwd).
    assert found == {"sub": src, "parent": src}
    assert entries == [(False, str(world.wt), str(world.wt)), (False, src, src), (True, src, src), (False, src, src)]


def _snapshot_turn(world: World, command: str, id: str):  # noqa: ANN202
    """A Bash call appending `command` to the CLI's shell snapshot, named when the call is made (the CLI writes
    it at its first Bash call, in `$HOME/.claude/shell-snapshots/`)."""

    def turn(request: Any) -> list[dict[str, Any]]:
        (snapshot,) = (world.home / ".claude" / "shell-snapshots").glob("snapshot-bash-*.sh")
        return [tool_use("Bash", {"command": f"echo {command!r} >> {snapshot}", "description": "snapshot"}, id=id)]

    return turn


@pytest.mark.parametrize("version", [VERSION, WAVE_VERSION])
def test_claude_code_sources_its_shell_snapshot_before_each_call(version: str, tmp_path: Path) -> None:
    """Each Bash call is `bash -c 'source <snapshot> && … && eval <command> && pwd -P >| <cwd file>'`: whatever a
    call appends to the snapshot, a `cd` included, is in every later call, and the payload does not show it
    (the CLI resets its directory only after the command ran, when it ended outside the project)."""
    try:
        cli = ensure_cli(version)
    except CliUnavailable as e:
        pytest.skip(str(e))
    world = World(tmp_path, "claude-code")
    log = attach_logger(world)
    (world.base / "claude-tmp").mkdir()
    with FakeAnthropic() as fake:
        fake.scripts["E2E-PERSIST-SNAPSHOT"] = [
            [tool_use("Bash", {"command": "true", "description": "first"}, id="call_0")],
            _snapshot_turn(world, f"export WG_SNAP=kept; cd {world.main}", "call_1"),
            [tool_use("Bash", {"command": 'echo "$WG_SNAP $PWD"; touch MOVED.txt', "description": "probe"}, id="call_2")],
            [text("done")],
        ]
        world.run([str(cli), "-p", "E2E-PERSIST-SNAPSHOT go", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"], env=_claude_env(world, fake))
        assert not fake.errors, fake.errors
        outputs = {c: fake.tool_result_text(c) for c in ("call_0", "call_1", "call_2")}
    dump(f"claude-code-snapshot-{version}", world, outputs=outputs)
    assert outputs["call_2"] == f"kept {world.main}\nShell cwd was reset to {world.wt}", outputs
    assert (world.main / "MOVED.txt").exists() and not (world.wt / "MOVED.txt").exists()
    assert [e["payload"]["cwd"] for e in shell_payloads(log)] == [str(world.wt)] * 3


def test_claude_code_guard_refuses_writing_the_shell_snapshot(claude_cli: Path, tmp_path: Path) -> None:
    """With the guard (and HOME outside the temp dirs, as on a developer's machine), the write into the snapshot
    is refused (WG402) and the next call stays in W. With HOME inside an allow-listed directory (the temp dir),
    it would pass: see docs/shell-persistence.md."""
    world = World(tmp_path, "claude-code")
    (world.base / "claude-tmp").mkdir()
    (world.base / "tmp").mkdir()  # TMPDIR: the temp dir the guard allows, which does not hold HOME
    with FakeAnthropic() as fake:
        fake.scripts["E2E-GUARD-SNAPSHOT"] = [
            [tool_use("Bash", {"command": "true", "description": "first"}, id="call_0")],
            _snapshot_turn(world, f"cd {world.main}", "call_1"),
            [tool_use("Bash", {"command": "touch MOVED.txt", "description": "probe"}, id="call_2")],
            [text("done")],
        ]
        env = {**_claude_env(world, fake), "TMPDIR": str(world.base / "tmp")}
        world.run([str(claude_cli), "-p", "E2E-GUARD-SNAPSHOT go", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"], env=env)
        refused = fake.tool_result_text("call_1")
    assert codes_in(refused) == {"WG402"}, refused
    world.main_untouched("MOVED.txt")
    assert (world.wt / "MOVED.txt").exists()


# --- Claude Agent SDK ----------------------------------------------------------------------------------------


def test_agent_sdk(agent_sdk: Path, tmp_path: Path) -> None:
    world = World(tmp_path, "claude-code")
    log = world.base / "payloads.jsonl"
    driver = Path(__file__).with_name("agent_sdk_driver.py")
    with FakeAnthropic() as fake:
        fake.scripts["E2E-PERSIST-SDK"] = [
            [tool_use("Bash", {"command": CALL1, "description": "state"}, id="call_1")],
            [tool_use("Bash", {"command": call2(world), "description": "probe"}, id="call_2")],
            *[[tool_use("Bash", {"command": c, "description": "bg"}, id=i)] for i, c in zip(("call_bg", "call_check"), background(world))],
            [text("done")],
        ]
        env = {**_claude_env(world, fake), "WG_E2E_PAYLOAD_LOG": str(log), "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
        world.run([sys.executable, str(driver), str(agent_sdk), str(world.wt), "log", "E2E-PERSIST-SDK go"], env=env)
        assert not fake.errors, fake.errors
        outputs = {c: fake.tool_result_text(c) for c in ("call_1", "call_2", "call_bg", "call_check")}
    dump("agent-sdk", world, outputs=outputs)
    # As the CLI it bundles: the directory is kept and the hook callback's input_data["cwd"] follows it.
    assert Probe.read(world.wt / "persist-probe.txt").kept(world.wt) == {**NOTHING, "cwd": True}
    assert cwds(log)[0] == [str(world.wt), str(world.wt / "src")]
    assert "survived" in outputs["call_check"], outputs


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_copilot_bash_same_shell_id(mode: str, copilot: Path, tmp_path: Path) -> None:
    """Both calls name one shellId (the first in `mode`, then read_bash on it): still a fresh process each."""
    world = World(tmp_path, "copilot")
    log = attach_logger(world)
    with FakeResponses() as fake:
        fake.script(
            "E2E-PERSIST-COPILOT-ID",
            call("bash", {"command": CALL1, "description": "state", "shellId": "wg", "mode": mode}, id="call_1"),
            call("read_bash", {"shellId": "wg", "delay": 1}, id="call_read"),
            call("bash", {"command": call2(world), "description": "probe", "shellId": "wg"}, id="call_2"),
            say("done"),
        )
        _copilot(world, copilot, fake, "gpt-5.5", "E2E-PERSIST-COPILOT-ID")
        outputs = {c: fake.output_for(c) for c in ("call_1", "call_read", "call_2")}
    dump(f"copilot-shellid-{mode}", world, outputs=outputs)
    names = [e["payload"]["toolName"] for e in payloads(log)]
    if mode == "sync":
        assert names == ["bash", "read_bash", "bash"]  # read_bash reaches the hook too
    else:  # the background job's completion notice races the scripted read_bash, which Copilot may drop
        assert [n for n in names if n != "read_bash"] == ["bash", "bash"], names
    assert Probe.read(world.wt / "persist-probe.txt").kept(world.wt) == NOTHING
    assert cwds(log) == ([str(world.wt)] * 2, [str(world.wt)] * 2)


# --- the other clients' sub-agents ---------------------------------------------------------------------------


def _sub_probe(world: World, log: Path) -> list[dict[str, Any]]:
    """What the sub-agent's two calls kept (nothing, in every client here), and their payloads."""
    assert Probe.read(world.wt / "persist-probe.txt").kept(world.wt) == NOTHING
    return shell_payloads(log)


def test_codex_subagent(codex: Path, tmp_path: Path) -> None:
    world = World(tmp_path, "codex")
    log = attach_logger(world)
    with FakeResponses() as fake:
        # An unknown model id: Codex then offers spawn_agent (tests/e2e/test_wave_runtimes_e2e.py).
        codex_home = world.codex_home(fake.url, model="fake-fallback-model", trusted=world.wt)
        fake.script(
            "E2E-PMAIN-CODEX",
            call("spawn_agent", {"message": "[[E2E-PSUB-CODEX]] run the two calls"}, id="call_spawn", namespace="multi_agent_v1"),
            lambda c: call("wait_agent", {"targets": [json.loads(c.outputs["call_spawn"])["agent_id"]], "timeout_ms": 60000}, id="call_wait", namespace="multi_agent_v1"),
            say("done"),
        )
        fake.script("[[E2E-PSUB-CODEX]]", call("exec_command", {"cmd": CALL1}, id="call_1"), call("exec_command", {"cmd": call2(world)}, id="call_2"), say("done"))
        world.run(
            [str(codex), "exec", "--dangerously-bypass-hook-trust", "--json", "--skip-git-repo-check", "E2E-PMAIN-CODEX go"],
            env={"CODEX_HOME": str(codex_home), "FAKE_API_KEY": "sk-e2e"},
        )
        outputs = {c: fake.output_for(c) for c in ("call_spawn", "call_wait", "call_1", "call_2")}
    dump("codex-subagent", world, outputs=outputs)
    entries = _sub_probe(world, log)
    assert [(e["payload"].get("agent_id") is not None, e["payload"]["cwd"], e["hook_cwd"]) for e in entries] == [(True, str(world.wt), str(world.wt))] * 2


def test_copilot_subagent(copilot: Path, tmp_path: Path) -> None:
    world = World(tmp_path, "copilot")
    log = attach_logger(world)
    with FakeResponses() as fake:
        fake.script(
            "E2E-PMAIN-COPILOT",
            call("task", {"description": "probe", "prompt": "[[E2E-PSUB-COPILOT]] run the two calls", "agent_type": "general-purpose", "name": "probe"}, id="call_task"),
            say("done"),
        )
        fake.script(
            "[[E2E-PSUB-COPILOT]]",
            call("bash", {"command": CALL1, "description": "state"}, id="call_1"),
            call("bash", {"command": call2(world), "description": "probe"}, id="call_2"),
            say("done"),
        )
        _copilot(world, copilot, fake, "gpt-5.5", "E2E-PMAIN-COPILOT")
        outputs = {c: fake.output_for(c) for c in ("call_task", "call_1", "call_2")}
    dump("copilot-subagent", world, outputs=outputs)
    entries = _sub_probe(world, log)
    assert [(e["payload"].get("agentId") is not None, e["payload"]["cwd"], e["hook_cwd"]) for e in entries] == [(True, str(world.wt), str(world.wt))] * 2


def test_gemini_subagent(gemini: Path, tmp_path: Path) -> None:
    world = World(tmp_path, "gemini")
    log = attach_logger(world)
    _gemini_settings(world)
    with FakeGemini() as fake:
        fake.script("E2E-PMAIN-GEMINI", call("invoke_agent", {"agent_name": "generalist", "prompt": "[[E2E-PSUB-GEMINI]] run the two calls"}, id="call_agent"), say("done"))
        fake.script(
            "[[E2E-PSUB-GEMINI]]",
            call("run_shell_command", {"command": CALL1}, id="call_1"),
            call("run_shell_command", {"command": call2(world, substitution=False)}, id="call_2"),
            call("complete_task", {"result": {"response": "done"}}, id="call_done"),
            say("done"),
        )
        _gemini_run(world, gemini, fake, "E2E-PMAIN-GEMINI")
        outputs = {c: fake.output_for(c) for c in ("call_agent", "call_1", "call_2", "call_done")}
    dump("gemini-subagent", world, outputs=outputs)
    assert "Termination Reason: GOAL" in (outputs["call_agent"] or ""), outputs
    entries = _sub_probe(world, log)
    # Gemini's sub-agent payloads carry no agent identity: the same session, the same cwd.
    assert [(e["payload"]["cwd"], e["hook_cwd"]) for e in entries] == [(str(world.wt), str(world.wt))] * 2


def test_cline_subagent(cline: Path, tmp_path: Path) -> None:
    world = World(tmp_path, "cline")
    log = attach_logger(world)
    with FakeChat() as fake:
        args = _cline_auth(world, cline, fake)
        fake.script("E2E-PMAIN-CLINE", call("spawn_agent", {"systemPrompt": "You probe.", "task": "[[E2E-PSUB-CLINE]] run the two calls"}, id="call_spawn"), say("done"))
        fake.script(
            "[[E2E-PSUB-CLINE]]",
            call("run_commands", {"commands": [CALL1]}, id="call_1"),
            call("run_commands", {"commands": [call2(world)]}, id="call_2"),
            say("done"),
        )
        world.run([str(cline), *args, "E2E-PMAIN-CLINE go"])
        outputs = {c: fake.output_for(c) for c in ("call_spawn", "call_1", "call_2")}
    dump("cline-subagent", world, outputs=outputs)
    entries = _sub_probe(world, log)
    assert [(e["payload"].get("parent_agent_id") is not None, e["payload"]["workspaceRoots"], e["hook_cwd"]) for e in entries] == [(True, [str(world.wt)], str(world.wt))] * 2
