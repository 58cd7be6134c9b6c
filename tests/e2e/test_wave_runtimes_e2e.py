"""The shared-workspace wave (SPEC §11) inside the real Codex and Copilot clients.

The orchestrator runs in the main checkout of a repository whose hooks `worktree-guard install --runtime R`
wrote (PreToolUse and, now, the sub-agent's start and stop). It dispatches a worker whose prompt holds an
ownership block. What is checked, in each client:
- the worker's very first call is judged against its ownership (the link from its prompt, found through the
  client's own files by that call): a patch inside it lands, one outside it is refused (WG701);
- a write no hook can see (an inline interpreter) outside the ownership blocks the worker's stop once (WG706),
  the client makes it go on with the reason, and `rollback --agent ID --apply` restores the file;
- Codex, whose spawn_agent returns at once: a second spawn that overlaps the running worker is refused (WG704).
"""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path

from .clients import COPILOT
from .fake_models import Conversation, FakeResponses, call, say
from .harness import GUARD_EXE
from .runtime_world import World, codes_in

OWNED = "```worktree-guard\nowns: src/auth/**\n```"
LEAK = "open('src/app.py', 'w').write('rewritten behind the hook\\n')"
PATCH = "*** Begin Patch\n*** Add File: {}\n+{}\n*** End Patch\n"


def _patch_command(path: str, line: str) -> str:
    return f"apply_patch <<'EOF'\n{PATCH.format(path, line)}EOF\n"



def _after_stop(marker: str):
    """The worker's turn after its first stop: it says what the guard told it."""

    def turn(conversation: Conversation):
        told = any("WG706" in text for text in conversation.user_texts)
        return say(f"[{marker}] noted WG706" if told else f"[{marker}] nothing to note")

    return turn


def _rollback(world: World, agent_id: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(GUARD_EXE), "rollback", "--agent", agent_id, "--apply"], cwd=world.main, capture_output=True, text=True, env=world.env(), timeout=60)


def _stops(world: World, agent_id: str) -> list[dict]:
    return [r for r in world.audit() if r.get("agent_id") == agent_id and r.get("tool") == "SubagentStop"]


def test_codex_wave(tmp_path: Path, codex: Path) -> None:
    world = World(tmp_path, "codex")
    with FakeResponses() as fake:
        # An unknown model id: Codex then offers the multi_agent_v1 tools (spawn_agent, wait_agent).
        codex_home = world.codex_home(fake.url, model="fake-fallback-model", trusted=world.main)
        fake.script(
            "E2E-CODEX-WAVE",
            call("spawn_agent", {"message": f"[[E2E-CODEX-A]] Fix the login.\n{OWNED}"}, id="call_spawn_a", namespace="multi_agent_v1"),
            call("spawn_agent", {"message": "[[E2E-CODEX-C]] Everything.\n```worktree-guard\nowns: src/**\n```"}, id="call_spawn_c", namespace="multi_agent_v1"),
            lambda c: call("wait_agent", {"targets": [json.loads(c.outputs["call_spawn_a"])["agent_id"]], "timeout_ms": 60000}, id="call_wait", namespace="multi_agent_v1"),
            say("done"),
        )
        fake.script(
            "E2E-CODEX-A",
            # With this model Codex offers no apply_patch tool; a patch given to `apply_patch` in a command is one.
            call("exec_command", {"cmd": _patch_command("src/auth/login.py", "A")}, id="call_a_inside"),  # its very first call
            call("exec_command", {"cmd": _patch_command("README2.md", "nope")}, id="call_a_outside"),
            call("exec_command", {"cmd": f"python3 -c {shlex.quote(LEAK)}"}, id="call_a_leak"),
            say("A done"),
            _after_stop("E2E-CODEX-A"),
        )
        fake.script("E2E-CODEX-C", say("C should never run"))
        world.run(
            [str(codex), "exec", "--dangerously-bypass-hook-trust", "--json", "--skip-git-repo-check", "E2E-CODEX-WAVE go"],
            env={"CODEX_HOME": str(codex_home), "FAKE_API_KEY": "sk-e2e"}, cwd=world.main,
        )
        outputs = {c: fake.output_for(c) or "" for c in ("call_spawn_a", "call_spawn_c", "call_a_inside", "call_a_outside", "call_a_leak")}
        told = [r for r in fake.scripted("E2E-CODEX-A") if any("WG706" in t for t in r.user_texts)]
    agent_a = json.loads(outputs["call_spawn_a"])["agent_id"]
    assert (world.main / "src/auth/login.py").read_text() == "A\n", outputs["call_a_inside"]
    assert not (world.main / "README2.md").exists()
    assert "Command blocked by PreToolUse hook" in outputs["call_a_outside"] and codes_in(outputs["call_a_outside"]) == {"WG701"}
    assert codes_in(outputs["call_spawn_c"]) == {"WG704"}
    assert agent_a in outputs["call_spawn_c"] or "call_spawn_a" in outputs["call_spawn_c"]  # named by its dispatch until it started
    assert told, "the blocked stop's reason reached the worker as its next prompt"
    stops = _stops(world, agent_a)
    assert [s["decision"] for s in stops[:2]] == ["block", "warn"], stops
    assert (world.main / "src/app.py").read_text() == "rewritten behind the hook\n"
    restored = _rollback(world, agent_a)
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert (world.main / "src/app.py").read_text() == "print('app')\n"


def test_copilot_wave(tmp_path: Path, copilot: Path) -> None:
    world = World(tmp_path, "copilot")
    with FakeResponses() as fake:
        fake.script(
            "E2E-COPILOT-WAVE",
            call("task", {"description": "login", "prompt": f"[[E2E-COPILOT-A]] Fix the login.\n{OWNED}", "agent_type": "general-purpose", "name": "login"}, id="call_task_a"),
            say("done"),
        )
        fake.script(
            "E2E-COPILOT-A",
            call("apply_patch", PATCH.format("src/auth/login.py", "A"), id="call_a_inside"),  # its very first call
            call("apply_patch", PATCH.format("README2.md", "nope"), id="call_a_outside"),
            call("bash", {"command": f"python3 -c {shlex.quote(LEAK)}", "description": "w"}, id="call_a_leak"),
            say("A done"),
            _after_stop("E2E-COPILOT-A"),
        )
        env = {
            "COPILOT_HOME": str(world.home / ".copilot"), "COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": f"{fake.url}/v1",
            "COPILOT_PROVIDER_WIRE_API": "responses", "COPILOT_PROVIDER_API_KEY": "sk-e2e", "COPILOT_MODEL": "gpt-5.5",
            "COPILOT_AUTO_UPDATE": "false", "COPILOT_ALLOW_ALL": "true", "XDG_CACHE_HOME": str(COPILOT.install_dir / "xdg-cache"),
        }
        world.run([str(copilot), "-p", "E2E-COPILOT-WAVE go", "--allow-all-tools", "--disable-client-telemetry"], env=env, cwd=world.main)
        outputs = {c: fake.output_for(c) or "" for c in ("call_a_inside", "call_a_outside", "call_a_leak", "call_task_a")}
        told = [r for r in fake.scripted("E2E-COPILOT-A") if any("WG706" in t for t in r.user_texts)]
    assert (world.main / "src/auth/login.py").read_text() == "A\n", outputs["call_a_inside"]
    assert not (world.main / "README2.md").exists()
    assert "Denied by preToolUse hook" in outputs["call_a_outside"] and codes_in(outputs["call_a_outside"]) == {"WG701"}
    assert told, "the blocked stop's reason reached the worker as its next prompt"
    (agent_a,) = {r["agent_id"] for r in world.audit() if r.get("agent_id") and r.get("tool") == "SubagentStop"}
    stops = _stops(world, agent_a)
    assert [s["decision"] for s in stops[:2]] == ["block", "warn"], stops
    restored = _rollback(world, agent_a)
    assert restored.returncode == 0, restored.stdout + restored.stderr
    assert (world.main / "src/app.py").read_text() == "print('app')\n"
