"""The shared-workspace wave (SPEC §11) through the other runtimes' adapters, at payload level, on real
repositories: Codex (`spawn_agent`, a sub-agent's `apply_patch`), Copilot (`task`, both event forms), Cline
(`spawn_agent`) and Gemini (`invoke_agent`, whose sub-agents carry no identity). The payloads are the ones the
real clients sent (fixtures/runtime-lifecycle, shared/realdata/runtime-payloads), placed in a repository whose
main checkout is the orchestrator's: a worker shares it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import REPO_ROOT, Repo, git
from tests.shared_data import require_shared
from worktree_guard.hook import run_hook

LIFECYCLE = REPO_ROOT / "fixtures" / "runtime-lifecycle"
OWNED = "Work on the login.\n```worktree-guard\nowns: src/auth/**\n```"
OTHER = "Work on the docs.\n```worktree-guard\nowns: docs/**\n```"
PATCH = "*** Begin Patch\n{}*** End Patch\n"


def placed(text: str, repo: Repo, **places: str) -> Any:
    for placeholder, value in {"<CWD>": str(repo.main), "<OUTSIDE>": str(repo.main), **places}.items():
        text = text.replace(placeholder, value)
    return json.loads(text)


def answer(payload: dict[str, Any], runtime: str) -> dict[str, Any] | None:
    """The hook's reply, as the runtime reads it; the hook process runs in the agent's directory."""
    out = run_hook(json.dumps(payload).encode(), flags={"runtime": runtime}, cwd=payload.get("cwd") or "")
    assert out.exit_code == 0, out
    return json.loads(out.stdout) if out.stdout.strip() else None


def codes_of(text: str | None) -> set[str]:
    return set(text.rsplit("[worktree-guard ", 1)[1].split("]")[0].split()) if text and "[worktree-guard " in text else set()


def rollback(repo: Repo, agent_id: str, *flags: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("worktree-guard")
    return subprocess.run([str(exe), "rollback", "--agent", agent_id, *flags], cwd=repo.main, capture_output=True, text=True, timeout=60)


# --- Codex ------------------------------------------------------------------------------------------------


class Codex:
    """An orchestrator session in the main checkout, its rollout files where Codex keeps them, and the payloads
    Codex sent for a spawn, the sub-agent's start, one of its calls and its stop (fixtures/runtime-lifecycle)."""

    def __init__(self, repo: Repo, tmp: Path) -> None:
        self.repo = repo
        self.home = tmp / "codex-home"
        spawn, start, call, stop = placed((LIFECYCLE / "codex" / "hook_input_spawn_start_call_stop.json").read_text(), repo, **{"<CODEX_HOME>": str(self.home)})
        self.spawn_payload, self.start_payload, self.call_payload, self.stop_payload = spawn, start, call, stop
        self.session = spawn["session_id"]
        self.parent_rollout = Path(spawn["transcript_path"])
        self.parent_rollout.parent.mkdir(parents=True, exist_ok=True)
        meta = {"type": "session_meta", "payload": {"session_id": self.session, "id": self.session, "cwd": str(repo.main), "cli_version": "0.171.0"}}
        self.parent_rollout.write_text(json.dumps(meta) + "\n")
        self.head = (LIFECYCLE / "codex" / "subagent_rollout_head.jsonl").read_text().replace("<CWD>", str(repo.main))

    def rollout(self, agent_id: str, prompt: str | None) -> str:
        """The sub-agent's rollout as Codex writes it before its first tool call: session_meta, its first prompt."""
        meta, message = (json.loads(line) for line in self.head.splitlines())
        meta["payload"]["id"] = agent_id
        message["payload"]["item"]["content"][0]["text"] = prompt
        path = self.parent_rollout.with_name(f"rollout-sub-{agent_id}.jsonl")
        path.write_text(json.dumps(meta) + "\n" + (json.dumps(message) + "\n" if prompt is not None else ""))
        return str(path)

    def spawn(self, call_id: str, message: str) -> dict[str, Any] | None:
        return answer({**self.spawn_payload, "tool_use_id": call_id, "tool_input": {"message": message}}, "codex")

    def start(self, agent_id: str, prompt: str | None) -> None:
        transcript = self.rollout(agent_id, prompt)
        assert answer({**self.start_payload, "agent_id": agent_id, "transcript_path": transcript}, "codex") is None

    def call(self, agent_id: str, tool: str, tool_input: dict[str, Any], **extra: Any) -> dict[str, Any] | None:
        transcript = str(self.parent_rollout.with_name(f"rollout-sub-{agent_id}.jsonl"))
        return answer({**self.call_payload, "agent_id": agent_id, "transcript_path": transcript, "tool_name": tool, "tool_input": tool_input, "tool_use_id": f"call_{tool}", **extra}, "codex")

    def patch(self, agent_id: str, body: str) -> dict[str, Any] | None:
        return self.call(agent_id, "apply_patch", {"command": PATCH.format(body)})

    def stop(self, agent_id: str) -> dict[str, Any] | None:
        transcript = str(self.parent_rollout.with_name(f"rollout-sub-{agent_id}.jsonl"))
        return answer({**self.stop_payload, "agent_id": agent_id, "agent_transcript_path": transcript}, "codex")


def denied(out: dict[str, Any] | None) -> set[str]:
    """Codex's and Claude Code's deny: the codes of its reason."""
    assert out is not None and out["hookSpecificOutput"]["permissionDecision"] == "deny", out
    return codes_of(out["hookSpecificOutput"]["permissionDecisionReason"])


@pytest.fixture
def codex(repo: Repo, tmp_path: Path) -> Codex:
    return Codex(repo, tmp_path)


A, B = "01a2334e-aaaa-7882-b79f-92be12ae4978", "01a2334e-bbbb-7882-b79f-92be12ae4978"


def test_codex_a_sub_agents_apply_patch_is_judged_against_its_spawns_ownership(codex: Codex) -> None:
    assert codex.spawn("call_spawn_a", OWNED) is None
    codex.start(A, OWNED)
    main = codex.repo.main
    assert codex.patch(A, "*** Add File: src/auth/login.py\n+x\n") is None  # relative: from the session's cwd
    assert codex.patch(A, f"*** Add File: {main}/src/auth/token.py\n+x\n") is None
    outside = codex.patch(A, "*** Update File: src/app.py\n@@\n-print('app')\n+print('x')\n")
    assert denied(outside) == {"WG701"} and "src/auth/**" in outside["hookSpecificOutput"]["permissionDecisionReason"]
    assert denied(codex.patch(A, "*** Add File: src/auth/a.py\n+a\n*** Add File: README2.md\n+b\n")) == {"WG701"}  # one in, one out
    assert denied(codex.patch(A, "*** Update File: src/auth/a.py\n*** Move to: src/a.py\n@@\n-a\n+b\n")) == {"WG701"}  # moved out
    assert denied(codex.call(A, "Bash", {"command": "echo x > src/app.py"})) == {"WG701"}
    assert denied(codex.call(A, "Bash", {"command": "git commit -qam x"})) == {"WG703"}
    assert codex.call(A, "Bash", {"command": "git status && echo x > src/auth/b.py"}) is None
    # a patch in a command (Codex applies it itself), and a program worktree-guard does not know
    in_command = "apply_patch <<'EOF'\n" + PATCH + "EOF\n"
    assert codex.call(A, "Bash", {"command": in_command.format("*** Add File: src/auth/c.py\n+c\n")}) is None
    assert denied(codex.call(A, "Bash", {"command": in_command.format("*** Add File: src/auth/c.py\n+c\n*** Add File: NOTES.md\n+n\n")})) == {"WG701"}
    assert denied(codex.call(A, "Bash", {"command": "cd src && apply_patch <<'EOF'\n" + PATCH.format("*** Add File: app2.py\n+x\n") + "EOF\n"})) == {"WG701"}
    assert denied(codex.call(A, "Bash", {"command": "frobnicate README.md"})) == {"WG701"}
    assert codex.call(A, "Bash", {"command": "frobnicate src/auth/login.py && cat README.md"}) is None


def test_codex_a_sub_agent_is_linked_by_its_rollout_without_its_start(codex: Codex) -> None:
    """The link is the prompt in the sub-agent's own rollout (its call's `transcript_path`), there by its first
    call; no SubagentStart needed, even with two spawns of the same session not linked yet."""
    assert codex.spawn("call_spawn_a", OWNED) is None
    assert codex.spawn("call_spawn_b", OTHER) is None
    codex.rollout(B, OTHER)
    codex.rollout(A, OWNED)
    assert codex.patch(A, "*** Add File: src/auth/a.py\n+a\n") is None
    assert denied(codex.patch(A, "*** Add File: README2.md\n+b\n")) == {"WG701"}
    assert codex.patch(B, "*** Add File: docs/b.md\n+b\n") is None


def test_codex_two_spawns_each_sub_agent_gets_its_own_ownership(codex: Codex) -> None:
    assert codex.spawn("call_spawn_a", OWNED) is None
    assert codex.spawn("call_spawn_b", OTHER) is None
    codex.start(B, OTHER)  # B starts first
    codex.start(A, OWNED)
    assert codex.patch(B, "*** Add File: docs/b.md\n+b\n") is None
    assert denied(codex.patch(B, "*** Add File: src/auth/a.py\n+a\n")) == {"WG701"}
    assert codex.patch(A, "*** Add File: src/auth/a.py\n+a\n") is None
    assert denied(codex.patch(A, "*** Add File: docs/b.md\n+b\n")) == {"WG701"}


def test_codex_an_overlapping_spawn_is_refused_until_the_first_sub_agent_stops(codex: Codex) -> None:
    assert codex.spawn("call_spawn_a", OWNED) is None
    codex.start(A, OWNED)
    overlapping = "Also the login.\n```worktree-guard\nowns: src/**\n```"
    refused = codex.spawn("call_spawn_c", overlapping)
    assert denied(refused) == {"WG704"} and A in refused["hookSpecificOutput"]["permissionDecisionReason"]
    assert codex.stop(A) is None  # it changed nothing outside its ownership
    assert codex.spawn("call_spawn_c2", overlapping) is None


def test_codex_without_its_prompt_a_sub_agent_is_linked_only_when_its_parent_has_one_unlinked_spawn(codex: Codex) -> None:
    assert codex.spawn("call_spawn_a", OWNED) is None
    codex.start(A, None)  # its rollout holds no prompt (yet): its parent thread spawned one sub-agent, this one
    assert codex.patch(A, "*** Add File: src/auth/a.py\n+a\n") is None
    assert codex.spawn("call_spawn_b", OTHER) is None
    assert codex.spawn("call_spawn_c", "Tests.\n```worktree-guard\nowns: tests/**\n```") is None
    codex.start(B, None)  # two unlinked spawns of the same parent: either could be B's
    refused = codex.patch(B, "*** Add File: docs/b.md\n+b\n")
    assert denied(refused) == {"WG701"} and "could not be linked" in refused["hookSpecificOutput"]["permissionDecisionReason"]


def test_codex_a_stop_with_a_change_outside_the_ownership_is_blocked_once_and_rolled_back(codex: Codex) -> None:
    repo = codex.repo
    assert codex.spawn("call_spawn_a", OWNED) is None
    codex.start(A, OWNED)
    (repo.main / "src" / "app.py").write_text("rewritten through python -c\n")  # no hook sees an inline interpreter
    blocked = codex.stop(A)
    assert blocked["decision"] == "block" and codes_of(blocked["reason"]) == {"WG706"}
    assert f"{repo.main}/src/app.py" in blocked["reason"] and f"rollback --agent {A} --apply" in blocked["reason"]
    second = codex.stop(A)
    assert "decision" not in second and codes_of(second["systemMessage"]) == {"WG706"}
    applied = rollback(repo, A, "--apply")
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert (repo.main / "src" / "app.py").read_text() == "print('app')\n"


# --- Copilot ----------------------------------------------------------------------------------------------


class Copilot:
    """The payloads Copilot sent for a `task`, the sub-agent's start, one of its calls and its stop, in one of its
    two forms (`camel`: preToolUse, subagentStart, subagentStop; `pascal`: PreToolUse, SubagentStart,
    SubagentStop), and the session's events.jsonl that holds each sub-agent's prompt."""

    EVENTS = {"camel": ("preToolUse", "subagentStart", "subagentStop"), "pascal": ("PreToolUse", "SubagentStart", "SubagentStop")}

    def __init__(self, repo: Repo, tmp: Path, form: str) -> None:
        self.repo, self.form = repo, form
        self.home = tmp / "copilot-home"
        captured = placed((LIFECYCLE / "copilot" / "hook_input_task_start_call_stop.json").read_text(), repo, **{"<COPILOT_HOME>": str(self.home)})
        pre, start, stop = self.EVENTS[form]
        by_event: dict[str, list[dict[str, Any]]] = {}
        for item in captured:
            by_event.setdefault(item["event"], []).append(item["payload"])
        (self.task_payload, self.call_payload), (self.start_payload,), (self.stop_payload,) = by_event[pre], by_event[start], by_event[stop]
        self.session = self.start_payload.get("sessionId") or self.start_payload.get("session_id")
        self.events = self.home / "session-state" / self.session / "events.jsonl"
        self.events.parent.mkdir(parents=True, exist_ok=True)
        self.events.write_text("")
        self.message = json.loads((LIFECYCLE / "copilot" / "events_user_message.jsonl").read_text().splitlines()[0])
        self.keys = ("toolName", "toolArgs", "agentId") if form == "camel" else ("tool_name", "tool_input", "agent_id")

    def task(self, prompt: str, timestamp: int) -> dict[str, Any] | None:
        args_key = self.keys[1]
        stamp = timestamp if self.form == "camel" else f"2026-12-01T20:32:{timestamp % 60:02d}.000Z"
        return answer({**self.task_payload, args_key: {**self.task_payload[args_key], "prompt": prompt}, "timestamp": stamp}, "copilot")

    def prompted(self, agent_id: str, prompt: str) -> None:
        """What Copilot appends to events.jsonl when the sub-agent gets its prompt (before its first tool call)."""
        with self.events.open("a") as f:
            f.write(json.dumps({**self.message, "agentId": agent_id, "data": {**self.message["data"], "content": prompt}}) + "\n")

    def start(self, agent_id: str, prompt: str | None) -> None:
        key = "agentId" if self.form == "camel" else "agent_id"
        assert answer({**self.start_payload, key: agent_id}, "copilot") is None
        if prompt is not None:
            self.prompted(agent_id, prompt)

    def call(self, agent_id: str, tool: str, args: Any) -> dict[str, Any] | None:
        name, args_key, agent_key = self.keys
        session_key = "sessionId" if self.form == "camel" else "session_id"
        return answer({**self.call_payload, name: tool, args_key: args, agent_key: agent_id, session_key: agent_id}, "copilot")

    def stop(self, agent_id: str) -> dict[str, Any] | None:
        key = "agentId" if self.form == "camel" else "agent_id"
        return answer({**self.stop_payload, key: agent_id}, "copilot")

    # the sub-agent's tools in this form
    def write(self, agent_id: str, path: str) -> dict[str, Any] | None:
        return self.call(agent_id, "create" if self.form == "camel" else "Write", {"path": path, "file_text": "x\n"})

    def patch(self, agent_id: str, body: str) -> dict[str, Any] | None:
        return self.call(agent_id, "apply_patch" if self.form == "camel" else "Edit", PATCH.format(body))

    def bash(self, agent_id: str, command: str) -> dict[str, Any] | None:
        return self.call(agent_id, "bash" if self.form == "camel" else "Bash", {"command": command, "description": "w"})


def refused(out: dict[str, Any] | None) -> set[str]:
    """Copilot's deny (both forms): the codes of its reason."""
    assert out is not None and out["permissionDecision"] == "deny", out
    return codes_of(out["permissionDecisionReason"])


@pytest.fixture(params=["camel", "pascal"])
def copilot(repo: Repo, tmp_path: Path, request: pytest.FixtureRequest) -> Copilot:
    return Copilot(repo, tmp_path, request.param)


C1, C2 = "d53c329b-1111-4312-8c9f-a3845606c0fa", "d53c329b-2222-4312-8c9f-a3845606c0fa"


def test_copilot_a_task_sub_agents_writes_are_judged_against_its_ownership(copilot: Copilot) -> None:
    assert copilot.task(OWNED, 1796157142733) is None
    copilot.start(C1, OWNED)
    main = copilot.repo.main
    assert copilot.write(C1, str(main / "src" / "auth" / "login.py")) is None
    out = copilot.write(C1, str(main / "src" / "app.py"))
    assert refused(out) == {"WG701"} and "src/auth/**" in out["permissionDecisionReason"]
    assert copilot.patch(C1, "*** Add File: src/auth/a.py\n+a\n") is None
    assert refused(copilot.patch(C1, "*** Add File: src/auth/a.py\n+a\n*** Add File: NOTES.md\n+b\n")) == {"WG701"}
    assert refused(copilot.bash(C1, "echo x > README.md")) == {"WG701"}
    assert refused(copilot.bash(C1, "git add -A")) == {"WG703"}
    assert refused(copilot.bash(C1, "frobnicate README.md")) == {"WG701"}  # the ownership boundary
    assert copilot.bash(C1, "grep -rn login . && frobnicate src/auth/login.py") is None


def test_copilot_two_tasks_each_sub_agent_gets_its_own_ownership(copilot: Copilot) -> None:
    assert copilot.task(OWNED, 1796157142733) is None
    assert copilot.task(OTHER, 1796157142734) is None
    copilot.start(C2, OTHER)
    copilot.start(C1, OWNED)
    assert copilot.patch(C2, "*** Add File: docs/x.md\n+x\n") is None
    assert refused(copilot.patch(C2, "*** Add File: src/auth/x.py\n+x\n")) == {"WG701"}
    assert copilot.patch(C1, "*** Add File: src/auth/x.py\n+x\n") is None
    assert refused(copilot.patch(C1, "*** Add File: docs/x.md\n+x\n")) == {"WG701"}


def test_copilot_an_overlapping_task_is_refused_while_the_first_runs(copilot: Copilot) -> None:
    assert copilot.task(OWNED, 1796157142733) is None
    copilot.start(C1, OWNED)
    out = copilot.task("More.\n```worktree-guard\nowns: src/**\n```", 1796157142799)
    assert refused(out) == {"WG704"} and C1 in out["permissionDecisionReason"]
    assert copilot.stop(C1) is None
    assert copilot.task("More.\n```worktree-guard\nowns: src/**\n```", 1796157142800) is None


def test_copilot_two_unlinked_tasks_of_one_dispatcher_without_a_prompt_own_nothing(copilot: Copilot) -> None:
    assert copilot.task(OWNED, 1796157142733) is None
    assert copilot.task(OTHER, 1796157142734) is None
    copilot.start(C1, None)  # its prompt is not in events.jsonl: its dispatcher has two unlinked tasks
    out = copilot.patch(C1, "*** Add File: src/auth/x.py\n+x\n")
    assert refused(out) == {"WG701"} and "could not be linked" in out["permissionDecisionReason"]


def test_copilot_a_stop_with_a_change_outside_the_ownership_is_blocked_once_and_rolled_back(copilot: Copilot) -> None:
    repo = copilot.repo
    assert copilot.task(OWNED, 1796157142733) is None
    copilot.start(C1, OWNED)
    (repo.main / "README.md").write_text("rewritten behind the hook's back\n")
    blocked = copilot.stop(C1)
    assert blocked["decision"] == "block" and codes_of(blocked["reason"]) == {"WG706"} and f"{repo.main}/README.md" in blocked["reason"]
    assert "decision" not in copilot.stop(C1)
    assert rollback(repo, C1, "--apply").returncode == 0
    assert (repo.main / "README.md").read_text() == "hello\n"


def test_copilot_sub_agent_linked_from_its_dispatchers_session_state_without_its_start(copilot: Copilot, monkeypatch: pytest.MonkeyPatch) -> None:
    """An install without the start/stop hooks: the sub-agent's first call finds its prompt in the session
    state of its dispatcher (`parentAgentId`) under COPILOT_HOME."""
    monkeypatch.setenv("COPILOT_HOME", str(copilot.home))
    assert copilot.task(OWNED, 1796157142733) is None
    copilot.prompted(C1, OWNED)
    assert copilot.patch(C1, "*** Add File: src/auth/x.py\n+x\n") is None
    assert refused(copilot.patch(C1, "*** Add File: NOTES.md\n+x\n")) == {"WG701"}


# --- Cline ------------------------------------------------------------------------------------------------


class Cline:
    """Cline's spawn_agent and its sub-agent's calls (fixtures/runtime-lifecycle/cline)."""

    def __init__(self, repo: Repo) -> None:
        self.repo = repo
        events = placed((LIFECYCLE / "cline" / "hook_input_spawn_start_call_complete.json").read_text(), repo)
        calls = [e["payload"] for e in events if e["event"] == "PreToolUse"]
        self.spawn_payload, self.call_payload = calls
        self.main_agent = self.spawn_payload["agent_id"]

    def spawn(self, call_id: str, task: str) -> dict[str, Any] | None:
        tool_call = {**self.spawn_payload["tool_call"], "id": call_id, "input": {"systemPrompt": "you are a sub-agent", "task": task}}
        return answer({**self.spawn_payload, "tool_call": tool_call}, "cline")

    def call(self, agent_id: str, name: str, tool_input: dict[str, Any]) -> dict[str, Any] | None:
        tool_call = {"id": f"call_{name}", "name": name, "input": tool_input}
        return answer({**self.call_payload, "agent_id": agent_id, "tool_call": tool_call}, "cline")


def test_cline_a_spawned_sub_agent_is_linked_by_its_parent_and_judged(repo: Repo) -> None:
    cline = Cline(repo)
    assert cline.spawn("call_spawn_a", OWNED) is None
    assert cline.call("agent_sub_a", "editor", {"path": str(repo.main / "src/auth/a.py"), "new_text": "a\n"}) is None
    out = cline.call("agent_sub_a", "editor", {"path": str(repo.main / "src/app.py"), "new_text": "x\n"})
    assert out["overrideInput"]["path"].startswith("/dev/null/") and "WG701" in out["overrideInput"]["path"]
    (command,) = cline.call("agent_sub_a", "run_commands", {"commands": ["git commit -qam x"]})["overrideInput"]["commands"]
    assert "WG703" in command


def test_cline_two_unlinked_spawns_of_one_parent_cannot_be_told_apart(repo: Repo) -> None:
    cline = Cline(repo)
    assert cline.spawn("call_spawn_a", OWNED) is None
    assert cline.spawn("call_spawn_b", OTHER) is None
    out = cline.call("agent_sub_a", "editor", {"path": str(repo.main / "src/auth/a.py"), "new_text": "a\n"})
    assert "WG701" in out["overrideInput"]["path"] and "could not be linked" in out["overrideInput"]["path"]


def test_cline_extension_new_task_with_an_ownership_is_refused_it_could_not_be_enforced(repo: Repo) -> None:
    """The VS Code extension's new_task hands over to a new task whose calls carry no agent id: WG708, by cancelling."""
    def new_task(context: str) -> dict[str, Any]:
        return {"clineVersion": "3.40.0", "hookName": "PreToolUse", "timestamp": "1796144000000", "taskId": "task-1", "workspaceRoots": [str(repo.main)],
                "userId": "u", "preToolUse": {"toolName": "new_task", "parameters": {"context": context}}}

    out = answer(new_task(OWNED), "cline")
    assert out is not None and out["cancel"] is True and codes_of(out["errorMessage"]) == {"WG708"}
    assert answer(new_task("Carry on with the login."), "cline") is None


# --- Gemini -----------------------------------------------------------------------------------------------


def test_gemini_an_ownership_it_could_not_enforce_is_refused_at_dispatch(repo: Repo) -> None:
    invoke, sub_shell, _ = placed((require_shared("realdata", "runtime-payloads", "gemini") / "hook_input_invoke_agent_and_subagent.json").read_text(), repo)
    out = answer({**invoke, "tool_input": {**invoke["tool_input"], "prompt": OWNED}}, "gemini")
    assert out["decision"] == "deny" and codes_of(out["reason"]) == {"WG708"}
    assert answer(invoke, "gemini") is None  # no ownership: nothing to enforce
    # A sub-agent's call looks like the orchestrator's own: the guard cannot tell (docs/wave.md says so).
    assert answer({**sub_shell, "tool_input": {"command": "echo x > src/app.py"}}, "gemini") is None


# --- install ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("runtime", "events"), [("codex", {"PreToolUse", "SubagentStart", "SubagentStop"}), ("copilot", {"preToolUse", "subagentStart", "subagentStop"})])
def test_install_wires_the_sub_agent_start_and_stop(runtime: str, events: set[str]) -> None:
    from worktree_guard.install import hook_configs

    config = hook_configs()[runtime]
    assert set(config.entries("guard")) == events
