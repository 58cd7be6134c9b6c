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

import pytest

from .clients import AGENT_SDK, CLINE, CODEX, COPILOT, GEMINI, Client, ClientUnavailable
from .fake_anthropic import FakeAnthropic, text, tool_use
from .fake_models import FakeChat, FakeGemini, FakeResponses, call, say
from .harness import GUARD_EXE
from .runtime_world import World, codes_in

REPO_ROOT = Path(__file__).resolve().parents[2]
LEAKS = ("LEAK_FILE.txt", "LEAK_SHELL.txt")


def _client(client: Client) -> Path:
    try:
        return client.ensure()
    except ClientUnavailable as e:
        pytest.skip(str(e))


@pytest.fixture(scope="module")
def codex() -> Path:
    return _client(CODEX)


@pytest.fixture(scope="module")
def gemini() -> Path:
    return _client(GEMINI)


@pytest.fixture(scope="module")
def copilot() -> Path:
    return _client(COPILOT)


@pytest.fixture(scope="module")
def cline() -> Path:
    return _client(CLINE)


@pytest.fixture(scope="module")
def agent_sdk() -> Path:
    return _client(AGENT_SDK)


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
        world.run(
            [str(codex), "exec", "--dangerously-bypass-hook-trust", "--json", "--skip-git-repo-check", "E2E-CODEX go"],
            env={"CODEX_HOME": str(codex_home), "FAKE_API_KEY": "sk-e2e"},
        )
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


def test_gemini(gemini: Path, tmp_path: Path) -> None:
    world = World(tmp_path, "gemini")
    assert "GEMINI_CLI_TRUST_WORKSPACE" in world.install_output
    settings = world.home / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"security": {"auth": {"selectedType": "gemini-api-key"}}}))
    with FakeGemini() as fake:
        fake.script(
            "E2E-GEMINI",
            call("write_file", {"file_path": str(world.main / "LEAK_FILE.txt"), "content": "leak\n"}, id="call_leak_file"),
            *shell_turns(world, "run_shell_command", {}, "command"),
            call("write_file", {"file_path": str(world.wt / "inside.txt"), "content": "inside\n"}, id="call_inside"),
            say("done"),
        )
        env = {
            "GEMINI_API_KEY": "sk-e2e", "GOOGLE_GEMINI_BASE_URL": fake.url, "GEMINI_CLI_TRUST_WORKSPACE": "true",
            "GEMINI_CLI_NO_RELAUNCH": "true",
        }
        # --include-directories: without it Gemini CLI refuses a write outside the cwd before any hook runs.
        world.run([str(gemini), "-p", "E2E-GEMINI go", "--output-format", "json", "--yolo", "--skip-trust", "--include-directories", str(world.main)], env=env)
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


def test_cline(cline: Path, tmp_path: Path) -> None:
    """Cline cannot refuse one call and go on: the guard turns a refused call into one that writes nothing and
    hands the model the reason (docs/runtimes/cline.md). The run goes on to the calls that follow."""
    world = World(tmp_path, "cline")
    data = world.base / "cline-data"
    with FakeChat() as fake:
        auth = ["auth", "-p", "openai-compatible", "-k", "sk-e2e", "-m", "fake-model", "-b", f"{fake.url}/v1", "--data-dir", str(data)]
        world.run([str(cline), *auth])
        fake.script(
            "E2E-CLINE",
            call("editor", {"path": str(world.main / "LEAK_FILE.txt"), "new_text": "leak\n"}, id="call_leak_file"),
            *[call("run_commands", {"commands": [c.args["command"]]}, id=c.id) for c in shell_turns(world, "x", {}, "command")],
            call("editor", {"path": str(world.wt / "inside.txt"), "new_text": "inside\n"}, id="call_inside"),
            say("done"),
        )
        run = world.run([str(cline), "--json", "--data-dir", str(data), "-P", "openai-compatible", "-m", "fake-model", "E2E-CLINE go"])
        outputs = {c: fake.output_for(c) or "" for c in ("call_leak_file", "call_redirect", "call_switch", "call_ordinary", "call_inside")}
    assert codes_in(outputs["call_leak_file"]) == {"WG101"}, outputs["call_leak_file"]
    assert '"success":false' in outputs["call_leak_file"].replace(" ", "")
    check_shell(world, fake, outputs)
    assert (world.wt / "inside.txt").read_text() == "inside\n"
    assert '"finishReason":"completed"' in run.stdout.replace(" ", "")  # not cancelled: the run went on
    assert Path("/dev/null").is_char_device()


# --- Claude Agent SDK for Python (with the Claude Code CLI it bundles) ------------------------------------


def _sdk(world: World, site: Path, fake: FakeAnthropic, mode: str, prompt: str) -> None:
    driver = Path(__file__).with_name("agent_sdk_driver.py")
    env = {
        "ANTHROPIC_BASE_URL": fake.base_url, "ANTHROPIC_API_KEY": "sk-ant-e2e", "IS_SANDBOX": "1",
        "CLAUDE_CODE_TMPDIR": str(world.base / "claude-tmp"), "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
        "PYTHONPATH": str(REPO_ROOT),  # this checkout's worktree_guard (it is also the venv's editable install)
    }
    world.run([sys.executable, str(driver), str(site), str(world.wt), mode, prompt], env=env)
    assert not fake.errors, fake.errors


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
    """`can_use_tool` is consulted only where the CLI would ask (here: a Write outside the cwd, default mode)."""
    world = World(tmp_path, "claude-code")
    with FakeAnthropic() as fake:
        fake.scripts["E2E-SDK-CUT"] = [
            [tool_use("Write", {"file_path": str(world.main / "LEAK_FILE.txt"), "content": "leak\n"}, id="call_leak_file")],
            [text("done")],
        ]
        _sdk(world, agent_sdk, fake, "can_use_tool", "E2E-SDK-CUT go")
        leak = fake.tool_result("call_leak_file")
        reason = fake.tool_result_text("call_leak_file")
    world.main_untouched("LEAK_FILE.txt")
    assert leak is not None and leak.get("is_error") is True
    assert codes_in(reason) == {"WG101"} and "PreToolUse" not in reason, reason
