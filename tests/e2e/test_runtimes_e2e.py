"""The guard inside each other runtime's real client (research/runtimes-observed.md shows how each is driven).

For every runtime the session starts in a linked worktree of a repository whose main checkout holds the
hooks `worktree-guard install --runtime R` wrote, and one scripted run of the real client checks:
- a file-tool write into the main checkout is not made, and the model reads the reason with WG101;
- a shell redirect into the main checkout is not made (WG401);
- `git -C <main> switch -c x` leaves the main checkout's branch alone (WG301);
- a write inside the worktree lands, and ordinary shell work runs.
Each client is pinned to the version observed (tests/e2e/clients.py) and skipped, with the reason, only when
its registry cannot be reached.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .clients import COPILOT
from .fake_anthropic import FakeAnthropic, text, tool_use
from .fake_models import FakeChat, FakeGemini, FakeResponses, call, say
from .harness import GUARD_EXE
from .runtime_world import World, codes_in

REPO_ROOT = Path(__file__).resolve().parents[2]
LEAKS = ("LEAK_FILE.txt", "LEAK_SHELL.txt")




def shell_turns(world: World, tool: str, args: dict, key: str) -> list:
    """The shell half of every scenario: a redirect into main, git aimed at main, ordinary work in W."""
    return [
        call(tool, {**args, key: f"echo leak > {world.main}/LEAK_SHELL.txt"}, id="call_redirect"),
        call(tool, {**args, key: f"git -C {world.main} switch -c x"}, id="call_switch"),
        call(tool, {**args, key: "echo ordinary > shell.txt && cat shell.txt"}, id="call_ordinary"),
    ]


def check_shell(world: World, fake, commands: dict[str, str]) -> None:  # noqa: ANN001
    """What the shell half must leave behind: the main checkout untouched, the ordinary command's output."""
    world.main_untouched(*LEAKS)
    assert codes_in(commands["call_redirect"]) == {"WG401"}, commands["call_redirect"]
    assert codes_in(commands["call_switch"]) == {"WG301"}, commands["call_switch"]
    assert (world.wt / "shell.txt").read_text() == "ordinary\n"
    assert "ordinary" in commands["call_ordinary"] and not codes_in(commands["call_ordinary"])


# --- Codex ---------------------------------------------------------------------------------------------


def _codex_run(world: World, codex: Path, codex_home: Path, marker: str) -> None:
    world.run(
        [str(codex), "exec", "--dangerously-bypass-hook-trust", "--json", "--skip-git-repo-check", f"{marker} go"],
        env={"CODEX_HOME": str(codex_home), "FAKE_API_KEY": "sk-e2e"},
    )


def test_codex(codex: Path, tmp_path: Path) -> None:
    world = World(tmp_path, "codex")
    assert "trust" in world.install_output
    with FakeResponses() as fake:
        codex_home = world.codex_home(fake.url, model="gpt-5.5", trusted=world.wt)
        patch = "*** Begin Patch\n*** Add File: {}\n+{}\n*** End Patch\n"
        fake.script(
            "E2E-CODEX",
            call("apply_patch", patch.format(world.main / "LEAK_FILE.txt", "leak"), id="call_leak_file"),
            *shell_turns(world, "exec_command", {}, "cmd"),
            call("apply_patch", patch.format("inside.txt", "inside"), id="call_inside"),  # relative: from the cwd
            say("done"),
        )
        _codex_run(world, codex, codex_home, "E2E-CODEX")
        outputs = {c: fake.output_for(c) or "" for c in ("call_leak_file", "call_redirect", "call_switch", "call_ordinary", "call_inside")}
    assert "Command blocked by PreToolUse hook" in outputs["call_leak_file"]
    assert codes_in(outputs["call_leak_file"]) == {"WG101"}, outputs["call_leak_file"]
    check_shell(world, fake, outputs)
    assert (world.wt / "inside.txt").read_text() == "inside\n"
    assert "Success" in outputs["call_inside"]
    assert {r["tool_use_id"] for r in world.audit()} >= set(outputs)  # every call went through the installed hook
    # validate reads the session file Codex wrote (the hook payloads' transcript_path) as the hook judged it.
    (rollout,) = (codex_home / "sessions").rglob("rollout-*.jsonl")
    done = subprocess.run([str(GUARD_EXE), "validate", "--format", "json", str(rollout)], capture_output=True, text=True, env=world.env(), timeout=120)
    findings = {(f["tool_use_id"], f["code"], f["status"]) for f in map(json.loads, done.stdout.splitlines())}
    assert findings == {("call_leak_file", "WG101", "blocked"), ("call_redirect", "WG401", "blocked"), ("call_switch", "WG301", "blocked")}, done.stderr


# --- Gemini CLI ----------------------------------------------------------------------------------------


def _gemini_settings(world: World) -> None:
    settings = world.home / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))


def _gemini_run(world: World, gemini: Path, fake: FakeGemini, marker: str) -> None:
    env = {
        "GEMINI_API_KEY": "sk-e2e", "GOOGLE_GEMINI_BASE_URL": fake.url, "GEMINI_CLI_TRUST_WORKSPACE": "true",
        "GEMINI_CLI_NO_RELAUNCH": "true",
    }
    # --include-directories: without it Gemini CLI refuses a write outside the cwd before any hook runs.
    world.run([str(gemini), "-p", f"{marker} go", "--output-format", "json", "--yolo", "--skip-trust", "--include-directories", str(world.main)], env=env)


def test_gemini(gemini: Path, tmp_path: Path) -> None:
    world = World(tmp_path, "gemini")
    assert "GEMINI_CLI_TRUST_WORKSPACE" in world.install_output
    _gemini_settings(world)
    with FakeGemini() as fake:
        fake.script(
            "E2E-GEMINI",
            call("write_file", {"file_path": str(world.main / "LEAK_FILE.txt"), "content": "leak\n"}, id="call_leak_file"),
            *shell_turns(world, "run_shell_command", {}, "command"),
            call("write_file", {"file_path": str(world.wt / "inside.txt"), "content": "inside\n"}, id="call_inside"),
            say("done"),
        )
        _gemini_run(world, gemini, fake, "E2E-GEMINI")
        outputs = {c: fake.output_for(c) or "" for c in ("call_leak_file", "call_redirect", "call_switch", "call_ordinary", "call_inside")}
    assert "Tool execution blocked" in outputs["call_leak_file"]
    assert codes_in(outputs["call_leak_file"]) == {"WG101"}, outputs["call_leak_file"]
    check_shell(world, fake, outputs)
    assert (world.wt / "inside.txt").read_text() == "inside\n"
    assert len(world.audit()) >= 5  # every call went through the installed hook (Gemini sends no call ids)


# --- GitHub Copilot CLI --------------------------------------------------------------------------------


def _copilot(world: World, copilot: Path, fake: FakeResponses, model: str, marker: str) -> None:
    env = {
        "COPILOT_HOME": str(world.home / ".copilot"), "COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": f"{fake.url}/v1",
        "COPILOT_PROVIDER_WIRE_API": "responses", "COPILOT_PROVIDER_API_KEY": "sk-e2e", "COPILOT_MODEL": model,
        "COPILOT_AUTO_UPDATE": "false", "COPILOT_ALLOW_ALL": "true",  # "true" also trusts the cwd: .github/hooks loads
        # The npm wrapper unpacks the real client (235 MB) under XDG_CACHE_HOME: once, beside the install.
        "XDG_CACHE_HOME": str(COPILOT.install_dir / "xdg-cache"),
    }
    world.run([str(copilot), "-p", f"{marker} go", "--allow-all-tools", "--disable-client-telemetry"], env=env)


def test_copilot_apply_patch_and_bash(copilot: Path, tmp_path: Path) -> None:
    """With a GPT model Copilot writes files with apply_patch (a raw patch string) and runs bash."""
    world = World(tmp_path, "copilot")
    patch = "*** Begin Patch\n*** Add File: {}\n+{}\n*** End Patch\n"
    with FakeResponses() as fake:
        fake.script(
            "E2E-COPILOT-GPT",
            call("apply_patch", patch.format(world.main / "LEAK_FILE.txt", "leak"), id="call_leak_file"),
            *shell_turns(world, "bash", {"description": "e2e"}, "command"),
            call("apply_patch", patch.format(world.wt / "inside.txt", "inside"), id="call_inside"),
            say("done"),
        )
        _copilot(world, copilot, fake, "gpt-5.5", "E2E-COPILOT-GPT")
        outputs = {c: fake.output_for(c) or "" for c in ("call_leak_file", "call_redirect", "call_switch", "call_ordinary", "call_inside")}
    assert "Denied by preToolUse hook" in outputs["call_leak_file"]
    assert codes_in(outputs["call_leak_file"]) == {"WG101"}, outputs["call_leak_file"]
    check_shell(world, fake, outputs)
    assert (world.wt / "inside.txt").read_text() == "inside\n"


def test_copilot_create(copilot: Path, tmp_path: Path) -> None:
    """With a Claude model Copilot writes files with `create`."""
    world = World(tmp_path, "copilot")
    with FakeResponses() as fake:
        fake.script(
            "E2E-COPILOT-CLAUDE",
            call("create", {"path": str(world.main / "LEAK_FILE.txt"), "file_text": "leak\n"}, id="call_leak_file"),
            call("create", {"path": str(world.wt / "inside.txt"), "file_text": "inside\n"}, id="call_inside"),
            say("done"),
        )
        _copilot(world, copilot, fake, "claude-sonnet-4.5", "E2E-COPILOT-CLAUDE")
        leak = fake.output_for("call_leak_file") or ""
    world.main_untouched("LEAK_FILE.txt")
    assert "Denied by preToolUse hook" in leak and codes_in(leak) == {"WG101"}, leak
    assert (world.wt / "inside.txt").read_text() == "inside\n"


# --- Cline ---------------------------------------------------------------------------------------------


def _cline_auth(world: World, cline: Path, fake: FakeChat, model: str = "fake-model") -> list[str]:
    """Point the client at the fake; the arguments every later run takes."""
    data = world.base / "cline-data"
    world.run([str(cline), "auth", "-p", "openai-compatible", "-k", "sk-e2e", "-m", model, "-b", f"{fake.url}/v1", "--data-dir", str(data)])
    return ["--json", "--data-dir", str(data), "-P", "openai-compatible", "-m", model]


def test_cline(cline: Path, tmp_path: Path) -> None:
    """Cline cannot refuse one call and go on: the guard turns a refused call into one that writes nothing and
    hands the model the reason (docs/runtimes/cline.md). The run goes on to the calls that follow."""
    world = World(tmp_path, "cline")
    with FakeChat() as fake:
        args = _cline_auth(world, cline, fake)
        fake.script(
            "E2E-CLINE",
            call("editor", {"path": str(world.main / "LEAK_FILE.txt"), "new_text": "leak\n"}, id="call_leak_file"),
            *[call("run_commands", {"commands": [c.args["command"]]}, id=c.id) for c in shell_turns(world, "x", {}, "command")],
            call("editor", {"path": str(world.wt / "inside.txt"), "new_text": "inside\n"}, id="call_inside"),
            say("done"),
        )
        run = world.run([str(cline), *args, "E2E-CLINE go"])
        outputs = {c: fake.output_for(c) or "" for c in ("call_leak_file", "call_redirect", "call_switch", "call_ordinary", "call_inside")}
    assert codes_in(outputs["call_leak_file"]) == {"WG101"}, outputs["call_leak_file"]
    assert '"success":false' in outputs["call_leak_file"].replace(" ", "")
    check_shell(world, fake, outputs)
    assert (world.wt / "inside.txt").read_text() == "inside\n"
    assert '"finishReason":"completed"' in run.stdout.replace(" ", "")  # not cancelled: the run went on
    assert Path("/dev/null").is_char_device()


# --- Claude Agent SDK for Python (with the Claude Code CLI it bundles) ------------------------------------


def _sdk(world: World, site: Path, fake: FakeAnthropic, mode: str, prompt: str, *, cwd: Path | None = None, settings: dict | None = None) -> list[dict]:
    """Run the driver; the calls the `can_use_tool` fallback was asked about."""
    driver = Path(__file__).with_name("agent_sdk_driver.py")
    fallback_log = world.base / "fallback.jsonl"
    env = {
        "ANTHROPIC_BASE_URL": fake.base_url, "ANTHROPIC_API_KEY": "sk-ant-e2e", "IS_SANDBOX": "1",
        "CLAUDE_CODE_TMPDIR": str(world.base / "claude-tmp"), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
        "PYTHONPATH": str(REPO_ROOT),  # this checkout's worktree_guard (it is also the venv's editable install)
        "WG_E2E_FALLBACK_LOG": str(fallback_log),
    }
    world.run([sys.executable, str(driver), str(site), str(cwd or world.wt), mode, prompt, json.dumps(settings or {})], env=env)
    assert not fake.errors, fake.errors
    return [json.loads(line) for line in fallback_log.read_text().splitlines()] if fallback_log.exists() else []


def test_agent_sdk_hooks(agent_sdk: Path, tmp_path: Path) -> None:
    """`hooks=agent_sdk.hooks()` judges every call in the SDK's process, in bypassPermissions too."""
    world = World(tmp_path, "claude-code")
    with FakeAnthropic() as fake:
        turns = [
            [tool_use("Write", {"file_path": str(world.main / "LEAK_FILE.txt"), "content": "leak\n"}, id="call_leak_file")],
            *[[tool_use("Bash", {"command": c.args["command"]}, id=c.id)] for c in shell_turns(world, "x", {}, "command")],
            [tool_use("Write", {"file_path": str(world.wt / "inside.txt"), "content": "inside\n"}, id="call_inside")],
            [text("done")],
        ]
        fake.scripts["E2E-SDK-HOOKS"] = turns
        _sdk(world, agent_sdk, fake, "hooks", "E2E-SDK-HOOKS go")
        outputs = {c: fake.tool_result_text(c) for c in ("call_leak_file", "call_redirect", "call_switch", "call_ordinary", "call_inside")}
        leak = fake.tool_result("call_leak_file")
    assert leak is not None and leak.get("is_error") is True
    assert outputs["call_leak_file"].startswith("PreToolUse:Write hook error") and codes_in(outputs["call_leak_file"]) == {"WG101"}
    check_shell(world, fake, outputs)
    assert (world.wt / "inside.txt").read_text() == "inside\n"
    # One verdict per call, from the callbacks: with setting_sources=[] the CLI loads no settings file, so the
    # shell hooks `install` wrote never run.
    assert sorted(r["tool_use_id"] for r in world.audit()) == sorted(outputs)


def test_agent_sdk_can_use_tool(agent_sdk: Path, tmp_path: Path) -> None:
    """`can_use_tool` is consulted only where the CLI would ask (here: a Write outside the cwd, default mode): the
    guard refuses what it objects to, and the user's own callback (`fallback`) decides the rest."""
    world = World(tmp_path, "claude-code")
    with FakeAnthropic() as fake:
        fake.scripts["E2E-SDK-CUT"] = [
            [tool_use("Write", {"file_path": str(world.main / "LEAK_FILE.txt"), "content": "leak\n"}, id="call_leak_file")],
            [text("done")],
        ]
        asked = _sdk(world, agent_sdk, fake, "can_use_tool", "E2E-SDK-CUT go")
        leak = fake.tool_result("call_leak_file")
        reason = fake.tool_result_text("call_leak_file")
    world.main_untouched("LEAK_FILE.txt")
    assert leak is not None and leak.get("is_error") is True
    assert codes_in(reason) == {"WG101"} and "PreToolUse" not in reason, reason
    assert asked == []  # a refusal never reaches the user's callback


def test_agent_sdk_can_use_tool_never_allows_what_it_merely_does_not_refuse(agent_sdk: Path, tmp_path: Path) -> None:
    """The review's case: a session in the main checkout (not confined), default mode, a redirect outside it.
    The old helper answered allow, and the file was written; now the user's callback decides it."""
    world = World(tmp_path, "claude-code")
    outside = world.base / "outside"
    outside.mkdir()
    with FakeAnthropic() as fake:
        fake.scripts["E2E-SDK-FALLBACK"] = [
            [tool_use("Bash", {"command": f"echo pwned > {outside}/denied.txt"}, id="call_denied")],
            [tool_use("Bash", {"command": f"echo fallback-allows > {outside}/allowed.txt"}, id="call_allowed")],
            [text("done")],
        ]
        asked = _sdk(world, agent_sdk, fake, "can_use_tool", "E2E-SDK-FALLBACK go", cwd=world.main)
        denied = fake.tool_result_text("call_denied")
    assert not (outside / "denied.txt").exists(), denied
    assert "the user's own permission callback says no" in denied and not codes_in(denied)
    assert (outside / "allowed.txt").read_text() == "fallback-allows\n"
    assert [a["tool_input"]["command"] for a in asked] == [f"echo pwned > {outside}/denied.txt", f"echo fallback-allows > {outside}/allowed.txt"]


def test_agent_sdk_can_use_tool_judges_the_input_the_users_callback_returns(agent_sdk: Path, tmp_path: Path) -> None:
    """A Write outside W but in the allow-listed temp dir passes the guard; the user's callback moves it into the
    main checkout; that input is judged again and refused."""
    world = World(tmp_path, "claude-code")
    outside = world.base / "outside"
    outside.mkdir()
    with FakeAnthropic() as fake:
        content = f"fallback-moves-to:{world.main / 'LEAK_FILE.txt'}"
        fake.scripts["E2E-SDK-MOVES"] = [[tool_use("Write", {"file_path": str(outside / "x.txt"), "content": content}, id="call_moves")], [text("done")]]
        asked = _sdk(world, agent_sdk, fake, "can_use_tool", "E2E-SDK-MOVES go")
        reason = fake.tool_result_text("call_moves")
    world.main_untouched("LEAK_FILE.txt")
    assert not (outside / "x.txt").exists() and codes_in(reason) == {"WG101"}, reason
    assert [a["tool_input"]["file_path"] for a in asked] == [str(outside / "x.txt")]


def test_agent_sdk_can_use_tool_asks_the_user_about_a_rewritten_call(agent_sdk: Path, tmp_path: Path) -> None:
    """Rewrite mode: the Write into the main checkout is moved into W and put to the user's callback as moved."""
    world = World(tmp_path, "claude-code")
    with FakeAnthropic() as fake:
        fake.scripts["E2E-SDK-REWRITE"] = [
            [tool_use("Write", {"file_path": str(world.main / "moved.txt"), "content": "fallback-allows\n"}, id="call_moved")],
            [text("done")],
        ]
        asked = _sdk(world, agent_sdk, fake, "can_use_tool", "E2E-SDK-REWRITE go", settings={"mode": "rewrite"})
    world.main_untouched("moved.txt")
    assert (world.wt / "moved.txt").read_text() == "fallback-allows\n"
    assert [a["tool_input"]["file_path"] for a in asked] == [str(world.wt / "moved.txt")]


# --- The review's escapes, in the real clients (review-runtimes.md; tests/test_runtime_escapes.py) ------------
# 1: `W/a/../../repo` through a symlink `a -> p/q` in W is the main checkout for a client that drops `a/..` as
#    text, and W/repo for the kernel (the guard judged only the kernel's reading);
# 2: a patch header with a character Python splits lines at, and Codex and Copilot do not (\x85, \u2028, \x0b);
# 3: a patch in a Codex shell command, applied from the command's workdir or after its `cd`;
# 4: a shell reading its input, started for Codex's write_stdin (which no hook sees);
# 5: `install --runtime codex` run in the linked worktree, where Codex reads the main checkout's hooks.

ODD = {"LEAK_NEL.txt": "\x85", "LEAK_LS.txt": "\u2028", "LEAK_VT.txt": "\x0b"}
PATCH = "*** Begin Patch\n*** Add File: {}\n+{}\n*** End Patch\n"


def test_codex_review_escapes(codex: Path, tmp_path: Path) -> None:
    import os
    import tempfile

    world = World(tmp_path, "codex")
    world.symlink_trick()
    temp = os.path.realpath(tempfile.gettempdir())
    up = os.path.relpath(world.main, temp)
    shell_patch = "apply_patch <<'EOF'\n" + PATCH.format("{}", "leak") + "EOF\n"
    with FakeResponses() as fake:
        codex_home = world.codex_home(fake.url, model="gpt-5.5", trusted=world.wt)
        fake.script(
            "E2E-CODEX-REVIEW",
            call("apply_patch", PATCH.format("a/../../repo/LEAK_DOTDOT.txt", "leak"), id="call_dotdot"),
            *[call("apply_patch", PATCH.format(f"d{c}/../../repo/{name}", "leak"), id=f"call_{name}") for name, c in ODD.items()],
            call("exec_command", {"cmd": shell_patch.format(f"{up}/LEAK_WORKDIR.txt"), "workdir": temp}, id="call_workdir"),
            call("exec_command", {"cmd": f"cd {temp} && " + shell_patch.format(f"{up}/LEAK_CD.txt")}, id="call_cd"),
            call("exec_command", {"cmd": shell_patch.format("inside.txt")}, id="call_inside"),
            # 4: write_stdin reaches no hook, so a shell that would read it is refused when it starts.
            call("exec_command", {"cmd": "script -q /dev/null", "tty": True, "yield_time_ms": 500}, id="call_script"),
            say("done"),
        )
        _codex_run(world, codex, codex_home, "E2E-CODEX-REVIEW")
        outputs = {c: fake.output_for(c) or "" for c in ("call_dotdot", *(f"call_{n}" for n in ODD), "call_workdir", "call_cd", "call_inside", "call_script")}
    world.main_untouched("LEAK_DOTDOT.txt", *ODD, "LEAK_WORKDIR.txt", "LEAK_CD.txt")
    assert codes_in(outputs["call_dotdot"]) == {"WG101"}, outputs["call_dotdot"]
    for name in ODD:
        assert codes_in(outputs[f"call_{name}"]) == {"WG000"}, outputs[f"call_{name}"]
    assert codes_in(outputs["call_workdir"]) == {"WG401"}, outputs["call_workdir"]
    assert codes_in(outputs["call_cd"]) == {"WG401"}, outputs["call_cd"]
    assert (world.wt / "inside.txt").read_text() == "leak\n" and not codes_in(outputs["call_inside"])
    assert codes_in(outputs["call_script"]) == {"WG404"} and "session ID" not in outputs["call_script"], outputs["call_script"]


def test_codex_hooks_installed_from_a_linked_worktree_run_there(codex: Path, tmp_path: Path) -> None:
    """Nothing is committed: `install --runtime codex` runs in the linked worktree the session then runs in."""
    world = World(tmp_path, "codex", install_from="wt")
    with FakeResponses() as fake:
        codex_home = world.codex_home(fake.url, model="gpt-5.5", trusted=world.wt)
        fake.script("E2E-CODEX-INSTALL", call("apply_patch", PATCH.format(world.main / "LEAK_FILE.txt", "leak"), id="call_leak_file"), say("done"))
        _codex_run(world, codex, codex_home, "E2E-CODEX-INSTALL")
        leak = fake.output_for("call_leak_file") or ""
    world.main_untouched("LEAK_FILE.txt")
    assert "Command blocked by PreToolUse hook" in leak and codes_in(leak) == {"WG101"}, leak
    assert str(world.main / ".codex" / "hooks.json") in world.install_output


def test_copilot_review_escapes(copilot: Path, tmp_path: Path) -> None:
    world = World(tmp_path, "copilot")
    trick = world.symlink_trick()
    with FakeResponses() as fake:
        fake.script(
            "E2E-COPILOT-REVIEW",
            call("apply_patch", PATCH.format(f"{trick}/LEAK_DOTDOT.txt", "leak"), id="call_dotdot"),
            *[call("apply_patch", PATCH.format(f"{world.wt}/d{c}/../../repo/{name}", "leak"), id=f"call_{name}") for name, c in ODD.items()],
            call("sql", {"description": "notes", "query": "CREATE TABLE e2e_notes(a int)"}, id="call_sql"),  # was WG000
            say("done"),
        )
        _copilot(world, copilot, fake, "gpt-5.5", "E2E-COPILOT-REVIEW")
        outputs = {c: fake.output_for(c) or "" for c in ("call_dotdot", *(f"call_{n}" for n in ODD), "call_sql")}
    world.main_untouched("LEAK_DOTDOT.txt", *ODD)
    assert "completed successfully" in outputs["call_sql"] and not codes_in(outputs["call_sql"]), outputs["call_sql"]
    assert codes_in(outputs["call_dotdot"]) == {"WG101"}, outputs["call_dotdot"]
    for name in ODD:
        assert "Denied by preToolUse hook" in outputs[f"call_{name}"] and codes_in(outputs[f"call_{name}"]) == {"WG000"}, outputs[f"call_{name}"]


def test_gemini_review_escapes(gemini: Path, tmp_path: Path) -> None:
    world = World(tmp_path, "gemini")
    trick = world.symlink_trick()
    _gemini_settings(world)
    with FakeGemini() as fake:
        fake.script(
            "E2E-GEMINI-REVIEW",
            call("write_file", {"file_path": f"{trick}/LEAK_DOTDOT.txt", "content": "leak\n"}, id="call_write"),
            call("replace", {"file_path": f"{trick}/README.md", "instruction": "x", "old_string": "hello", "new_string": "pwned"}, id="call_replace"),
            call("run_shell_command", {"command": "git switch -c x", "dir_path": "a/../../repo"}, id="call_switch"),
            say("done"),
        )
        _gemini_run(world, gemini, fake, "E2E-GEMINI-REVIEW")
        outputs = {c: fake.output_for(c) or "" for c in ("call_write", "call_replace", "call_switch")}
    world.main_untouched("LEAK_DOTDOT.txt")
    assert (world.main / "README.md").read_text() == "hello\n"
    assert codes_in(outputs["call_write"]) == {"WG101"}, outputs["call_write"]
    assert codes_in(outputs["call_replace"]) == {"WG101"}, outputs["call_replace"]
    assert codes_in(outputs["call_switch"]) == {"WG201", "WG301"}, outputs["call_switch"]


def test_cline_review_escapes(cline: Path, tmp_path: Path) -> None:
    world = World(tmp_path, "cline")
    trick = world.symlink_trick()
    with FakeChat() as fake:
        args = _cline_auth(world, cline, fake)
        fake.script(
            "E2E-CLINE-REVIEW",
            call("editor", {"path": f"{trick}/README.md", "old_text": "hello", "new_text": "pwned"}, id="call_edit"),
            call("editor", {"path": f"{trick}/LEAK_DOTDOT.txt", "new_text": "leak\n"}, id="call_new"),
            say("done"),
        )
        world.run([str(cline), *args, "E2E-CLINE-REVIEW go"])
        outputs = {c: fake.output_for(c) or "" for c in ("call_edit", "call_new")}
    world.main_untouched("LEAK_DOTDOT.txt")
    assert (world.main / "README.md").read_text() == "hello\n"
    assert codes_in(outputs["call_edit"]) == {"WG101"} and codes_in(outputs["call_new"]) == {"WG101"}, outputs


# --- The review's wrong denies, in the real clients ---------------------------------------------------------


def test_codex_ephemeral_session(codex: Path, tmp_path: Path) -> None:
    """`codex exec --ephemeral` writes no transcript: every Bash call was WG000, ordinary work included."""
    world = World(tmp_path, "codex")
    with FakeResponses() as fake:
        codex_home = world.codex_home(fake.url, model="gpt-5.5", trusted=world.wt)
        fake.script("E2E-CODEX-EPHEMERAL", *shell_turns(world, "exec_command", {}, "cmd"), say("done"))
        world.run(
            [str(codex), "exec", "--ephemeral", "--dangerously-bypass-hook-trust", "--json", "--skip-git-repo-check", "E2E-CODEX-EPHEMERAL go"],
            env={"CODEX_HOME": str(codex_home), "FAKE_API_KEY": "sk-e2e"},
        )
        outputs = {c: fake.output_for(c) or "" for c in ("call_redirect", "call_switch", "call_ordinary")}
    assert not list(codex_home.rglob("rollout-*.jsonl"))  # no transcript to read the session's directory from
    check_shell(world, fake, outputs)


def test_cline_apply_patch(cline: Path, tmp_path: Path) -> None:
    """Cline offers GPT models `apply_patch` instead of `editor`: a refused patch becomes one that cannot apply and
    tells the model why, and the run goes on (it was WG000, which cancelled the run)."""
    world = World(tmp_path, "cline")
    with FakeChat() as fake:
        args = _cline_auth(world, cline, fake, model="gpt-5.5")
        fake.script(
            "E2E-CLINE-PATCH",
            call("apply_patch", {"input": PATCH.format(world.main / "LEAK_FILE.txt", "leak")}, id="call_leak_file"),
            call("apply_patch", {"input": PATCH.format("inside.txt", "inside")}, id="call_inside"),
            say("done"),
        )
        run = world.run([str(cline), *args, "E2E-CLINE-PATCH go"])
        outputs = {c: fake.output_for(c) or "" for c in ("call_leak_file", "call_inside")}
    world.main_untouched("LEAK_FILE.txt")
    assert "Unknown line while parsing" in outputs["call_leak_file"] and codes_in(outputs["call_leak_file"]) == {"WG101"}, outputs
    assert (world.wt / "inside.txt").read_text().rstrip("\n") == "inside"  # Cline writes no final newline
    assert '"finishReason":"completed"' in run.stdout.replace(" ", "")
