"""The shared-workspace wave (SPEC §11) and the single-level fork (§5.3, WG504) inside the real CLI.

They run on WAVE_VERSION (2.1.332): its sub-agents run in the background, so the orchestrator dispatches a third
worker while the first still runs, and it knows forks. Both versions write the sub-agent metadata the guard links
a worker by (`<session>/subagents/agent-<id>.meta.json`, `toolUseId`) by the worker's first tool call; that is
observed here too: worker A's very first call is judged against its ownership.
"""

from __future__ import annotations

import shlex
import time

from .fake_anthropic import Request, text, tool_use
from .harness import Sandbox, dispatch


def _records(sandbox: Sandbox, tool_use_id: str) -> list[dict]:
    return [r for r in sandbox.audit() if r.get("tool_use_id") == tool_use_id]


def _waiting_for(sandbox: Sandbox, tool_use_id: str, then: str, seconds: float = 90):
    """A turn that answers only once the CLI sent back the result of `tool_use_id` (so the worker is still running then)."""

    def turn(request: Request) -> list[dict]:
        deadline = time.monotonic() + seconds
        while sandbox.fake.tool_result(tool_use_id) is None and time.monotonic() < deadline:
            time.sleep(0.1)
        return [text(then)]

    return turn


def test_a_wave_of_two_workers_in_one_checkout(wave_sandbox: Sandbox) -> None:
    sandbox = wave_sandbox
    sandbox.set_up_guard(mode="enforce")
    repo = sandbox.repo
    block_a = "```worktree-guard\nowns: src/a/**\n```"
    block_b = "```worktree-guard\nowns: src/b/**\n```"
    leak = f"open({str(repo / 'README.md')!r}, 'w').write('B was here\\n')"

    def after_stop(request: Request) -> list[dict]:
        return [text("I changed README.md outside my ownership" if "WG706" in request.last_user_text else "no feedback")]

    worker_a = sandbox.script(
        "E2E-WAVE-A",
        [tool_use("Write", {"file_path": str(repo / "src" / "a" / "mine.py"), "content": "A = 1\n"}, id="toolu_a_inside")],
        [tool_use("Write", {"file_path": str(repo / "src" / "other.py"), "content": "nope\n"}, id="toolu_a_outside")],
        [tool_use("Bash", {"command": "npm install left-pad"}, id="toolu_a_npm")],
        [tool_use("Bash", {"command": "git add -A && git commit -qm 'A commits'"}, id="toolu_a_commit")],
        _waiting_for(sandbox, "toolu_dispatch_c", "A done"),
    )
    worker_b = sandbox.script(
        "E2E-WAVE-B",
        [tool_use("Bash", {"command": f"python3 -c {shlex.quote(leak)}"}, id="toolu_b_leak")],
        [text("B done")],
        after_stop,
    )
    third = sandbox.script("E2E-WAVE-C", [text("C should never run")])
    main = sandbox.script(
        "E2E-WAVE-MAIN",
        [
            dispatch(f"{worker_a} do part A\n{block_a}", isolation=None, id="toolu_dispatch_a", run_in_background=True),
            dispatch(f"{worker_b} do part B\n{block_b}", isolation=None, id="toolu_dispatch_b", run_in_background=True),
        ],
        [dispatch(f"{third} do everything\n```worktree-guard\nowns: src/**\n```", isolation=None, id="toolu_dispatch_c", run_in_background=True)],
        [text("waiting for the workers")],
    )
    head = sandbox.git("rev-parse", "HEAD")
    sandbox.claude(f"{main} run the wave", timeout=300)

    # A writes inside its ownership: the write lands.
    assert (repo / "src" / "a" / "mine.py").read_text() == "A = 1\n"
    assert not sandbox.fake.tool_result("toolu_a_inside").get("is_error")
    # A writes outside it: refused, naming the ownership.
    assert not (repo / "src" / "other.py").exists()
    outside = sandbox.fake.tool_result_text("toolu_a_outside")
    assert "WG701" in outside and "src/a/**" in outside, outside
    assert _records(sandbox, "toolu_a_outside")[0]["codes"] == ["WG701"]
    # A runs a package manager that edits the manifest and lockfile: refused.
    assert _records(sandbox, "toolu_a_npm")[0]["codes"] == ["WG702"]
    assert not (repo / "package.json").exists()
    # A commits: refused, and HEAD did not move.
    assert set(_records(sandbox, "toolu_a_commit")[0]["codes"]) == {"WG703"}  # git add, git commit
    assert sandbox.git("rev-parse", "HEAD") == head
    # A third dispatch overlapping A's ownership while A runs: refused, and it never ran.
    (record,) = _records(sandbox, "toolu_dispatch_c")
    assert record["decision"] == "deny" and set(record["codes"]) == {"WG704"}, record
    assert "src/a/**" in sandbox.fake.tool_result_text("toolu_dispatch_c")
    assert not sandbox.fake.scripted(third)
    # B's inline interpreter wrote README.md (no PreToolUse hook can see that); its stop was blocked once, naming it.
    assert (repo / "README.md").read_text() == "B was here\n"
    feedback = [r.last_user_text for r in sandbox.fake.scripted(worker_b) if "WG706" in r.last_user_text]
    assert len(feedback) == 1 and f"{repo}/README.md" in feedback[0], feedback
    b_id = next(r["agent_id"] for r in sandbox.audit() if r.get("tool_use_id") == "toolu_b_leak")
    stops = [r for r in sandbox.audit() if r["tool"] == "SubagentStop" and r["agent_id"] == b_id]
    assert [(r["decision"], r["codes"]) for r in stops] == [("block", ["WG706"]), ("warn", ["WG706"])], stops
    # `rollback --agent B --apply` restores it, and leaves A's owned work alone.
    listed = sandbox.guard("rollback", "--agent", b_id)
    assert listed.returncode == 0 and "README.md: would restore" in listed.stdout, listed.stdout + listed.stderr
    applied = sandbox.guard("rollback", "--agent", b_id, "--apply")
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert (repo / "README.md").read_text() == "hello\n"
    assert (repo / "src" / "a" / "mine.py").read_text() == "A = 1\n"


def test_a_fork_may_not_fork_but_may_dispatch_a_worker(wave_sandbox: Sandbox) -> None:
    """What the payload carries for a fork (observed): the fork's own calls come with `agent_type: "fork"`, and
    its metadata says `isFork: true`. WG504 rests on the calling agent's type."""
    sandbox = wave_sandbox
    sandbox.set_up_guard(mode="enforce")
    ordinary = sandbox.script("E2E-FORK-WORKER", [tool_use("Bash", {"command": "echo worker"}, id="toolu_fork_worker_bash")], [text("worker done")])
    nested = sandbox.script("E2E-FORK-NESTED", [text("a fork of a fork should never run")])
    fork = sandbox.script(
        "E2E-FORK-ONE",
        [tool_use("Agent", {"description": "fork again", "prompt": f"{nested} again", "subagent_type": "fork"}, id="toolu_fork_fork")],
        [dispatch(f"{ordinary} work", isolation=None, id="toolu_fork_dispatch")],
        [text("fork done")],
    )
    main = sandbox.script(
        "E2E-FORK-MAIN",
        [tool_use("Agent", {"description": "a fork", "prompt": f"{fork} go", "subagent_type": "fork"}, id="toolu_main_fork")],
        [text("main done")],
    )
    sandbox.claude(f"{main} fork", env={"CLAUDE_CODE_FORK_SUBAGENT": "1"}, timeout=300)

    (main_fork,) = _records(sandbox, "toolu_main_fork")
    assert main_fork["decision"] == "pass" and main_fork["agent_type"] is None, main_fork
    (fork_fork,) = _records(sandbox, "toolu_fork_fork")
    assert fork_fork["agent_type"] == "fork" and fork_fork["codes"] == ["WG504"] and fork_fork["decision"] == "deny", fork_fork
    assert "WG504" in sandbox.fake.tool_result_text("toolu_fork_fork")
    assert not sandbox.fake.scripted(nested)
    (fork_dispatch,) = _records(sandbox, "toolu_fork_dispatch")
    assert fork_dispatch["decision"] == "pass" and fork_dispatch["codes"] == [], fork_dispatch
    assert sandbox.fake.tool_result_text("toolu_fork_worker_bash").strip() == "worker"
