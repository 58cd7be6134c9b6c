"""When the guard fails, who was the agent? The guess honours configured isolation and is bounded (review of issue 12, F3).

Before, a hook installed with `--isolated` (or a project file saying `isolated = true`) whose configuration had a
bad key elsewhere answered with a systemMessage: the call went through. And when the watchdog fired during a slow
agent-definition search, the guess searched again, without a watchdog, past the runtime's hook timeout.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.helpers import Repo, payload, run_hook_process, write_agent
from worktree_guard import agents, engine, hook


def main_write(repo: Repo, **extra: object) -> dict:
    """The main agent (or a misplaced sub-agent) writing in the main checkout: nothing places it in a worktree."""
    return payload(repo.main, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}, **extra)


def decision(result) -> tuple[str, list[str]]:
    return result.decision, result.codes


@pytest.mark.parametrize(
    "project, args, extra, env",
    [
        ('mode = "enforc"\n', ["--isolated"], {}, {}),
        ('isolated = true\ncolour = "blue"\n', [], {}, {}),
        ('isolated_agents = ["reviewer"]\nmode = "loud"\n', [], {"agent_id": "a1", "agent_type": "reviewer"}, {}),
        ('colour = "blue"\n', [], {"agent_id": "a1", "agent_type": "reviewer"}, {"WORKTREE_GUARD_ISOLATED_AGENTS": "reviewer"}),
        ('colour = "blue"\n', [], {}, {"WORKTREE_GUARD_ISOLATED": "on"}),
    ],
    ids=["flag", "project-isolated", "project-isolated-agents", "environment-isolated-agents", "environment-isolated"],
)
def test_configured_isolation_survives_an_invalid_configuration(repo: Repo, project: str, args: list[str], extra: dict, env: dict) -> None:
    (repo.main / ".worktree-guard.toml").write_text(project)
    result = run_hook_process(main_write(repo, **extra), *args, cwd=repo.main, env=env)
    assert decision(result) == ("deny", ["WG000"])
    assert "invalid configuration" in result.reason


def test_the_user_file_and_the_definitions_frontmatter_say_so_too(repo: Repo, tmp_path: Path) -> None:
    user = tmp_path / "user.toml"
    user.write_text('isolated = true\nbogus = 1\n')
    result = run_hook_process(main_write(repo), cwd=repo.main, env={"WORKTREE_GUARD_USER_CONFIG": str(user)})
    assert decision(result) == ("deny", ["WG000"])
    write_agent(repo.main, "auditor", "worktree-guard:\n  isolated: true\n  colour: blue")
    result = run_hook_process(main_write(repo, agent_id="a1", agent_type="auditor"), cwd=repo.main)
    assert decision(result) == ("deny", ["WG000"])


def test_without_any_claim_of_isolation_an_invalid_configuration_is_a_message_with_its_code(repo: Repo) -> None:
    (repo.main / ".worktree-guard.toml").write_text('colour = "blue"\n')
    result = run_hook_process(main_write(repo), cwd=repo.main)
    message = result.output["systemMessage"]
    assert result.decision == "warn" and "'colour'" in message and message.endswith("[worktree-guard WG000]")
    # The hook command's own flag is the highest layer, and argparse checked it: it is believed.
    (repo.main / ".worktree-guard.toml").write_text('isolated = true\ncolour = "blue"\n')
    assert run_hook_process(main_write(repo), "--not-isolated", cwd=repo.main).decision == "warn"


def test_a_project_file_that_does_not_parse_claims_nothing(repo: Repo) -> None:
    """A broken pyproject.toml must not lock the main agent out of the write that fixes it."""
    (repo.main / "pyproject.toml").write_text("[tool.worktree-guard\nisolated = true\n")
    result = run_hook_process(main_write(repo), cwd=repo.main)
    assert result.decision == "warn" and "not valid TOML" in result.output["systemMessage"]


def slow_definition_search(monkeypatch: pytest.MonkeyPatch, seconds_for_call: Callable[[int], float]) -> list[float]:
    """Make every agent-definition search sleep `seconds_for_call(n)` seconds on its n-th call (1-based), both where
    the agents module and where the engine looks it up; the times the searches began."""
    searches: list[float] = []
    real = agents.find_agent_definition

    def slow(*args: object, **kwargs: object) -> object:
        searches.append(time.monotonic())
        time.sleep(seconds_for_call(len(searches)))
        return real(*args, **kwargs)

    monkeypatch.setattr(agents, "find_agent_definition", slow)
    monkeypatch.setattr(engine, "find_agent_definition", slow)
    return searches


def test_the_guess_searches_no_definitions_once_the_watchdog_fired(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """A misplaced agent (isolated_agents names it; it runs in the main checkout) whose definition search is slow."""
    (repo.main / ".worktree-guard.toml").write_text('isolated_agents = ["general-purpose"]\n')
    write_agent(repo.main, "general-purpose", "model: inherit")
    searches = slow_definition_search(monkeypatch, lambda n: 1.5)
    monkeypatch.setattr(hook, "WATCHDOG_SECONDS", 0.5)
    reply = hook.run_hook(json.dumps(main_write(repo, agent_id="a1", agent_type="general-purpose")).encode(), cwd=str(repo.main))
    reason = json.loads(reply.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert reason.endswith("[worktree-guard WG000]") and "longer than 0.5 s" in reason
    assert len(searches) == 1  # the judgement's own search; the guess did not search again


def test_the_guess_itself_is_bounded_by_what_is_left_of_the_judgements_time(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """The configuration fails fast; the guess's definition search would outlast the watchdog: unknown, refused."""
    (repo.main / ".worktree-guard.toml").write_text('colour = "blue"\n')
    write_agent(repo.main, "helper", "model: inherit")
    calls = slow_definition_search(monkeypatch, lambda n: 3 if n > 1 else 0)
    monkeypatch.setattr(hook, "WATCHDOG_SECONDS", 1.0)
    reply = hook.run_hook(json.dumps(main_write(repo, agent_id="a1", agent_type="helper")).encode(), cwd=str(repo.main))
    out = json.loads(reply.stdout)
    assert "hookSpecificOutput" in out, out  # refused: the guess ran out of time, and unknown is "isolated"
    assert out["hookSpecificOutput"]["permissionDecisionReason"].endswith("[worktree-guard WG000]")
    assert len(calls) == 2


def test_malformed_stdin_from_an_agent_that_is_not_isolated_ends_with_its_code(repo: Repo) -> None:
    result = run_hook_process(b"{oops", cwd=repo.main)
    message = result.output["systemMessage"]
    assert "not valid JSON" in message and message.endswith("[worktree-guard WG000]")


def test_the_last_resorts_note_for_other_events_ends_with_its_code(capsys: pytest.CaptureFixture[str]) -> None:
    from worktree_guard import hook_process

    hook_process.refuse_unjudged(json.dumps({"hook_event_name": "SubagentStop"}).encode(), "the guard cannot load")
    message = json.loads(capsys.readouterr().out)["systemMessage"]
    assert message == "worktree-guard: the guard cannot load [worktree-guard WG000]"


class _Hooks:
    def __init__(self, answer: object) -> None:
        self.answer = answer

    def worktree_guard_confined_agent(self, call: object) -> object:
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


class _PM:
    def __init__(self, answer: object) -> None:
        self.hook = _Hooks(answer)


class _Scope:
    class isolation:  # noqa: N801 — the shape of an event's scope
        isolated = False


@pytest.mark.parametrize(("answer", "expected"), [(True, True), (None, False), (RuntimeError("registry"), True)])
def test_a_failed_event_of_a_shared_checkout_worker_is_guessed_confined(answer: object, expected: bool) -> None:
    """A worker of a wave runs in the shared checkout, not isolated: when its stop (or a call after its context was
    built) fails, the wave's own record is asked, and an error there counts as confined (review of the merge: an
    internal error at a worker's stop let the stop through)."""
    state = {"scope": _Scope(), "event": object(), "pm": _PM(answer)}
    assert hook._guess_isolated(state, {}, process_cwd="/") is expected
