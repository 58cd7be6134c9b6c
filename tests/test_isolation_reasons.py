"""Who is isolated and why, branch by branch (SPEC §4): the verdict, the reason `doctor` and `explain` show, and
whether the agent is misplaced. Written for the mutation run of `isolation.py` (bench/mutation.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Repo, write_agent
from worktree_guard.engine import scope_for


def isolation(cwd: Path, agent_type: str | None = None, **flags):
    return scope_for(str(cwd), agent_type, flags=flags or None, environ={}).isolation


def test_a_linked_worktree(repo: Repo) -> None:
    got = isolation(repo.worktree / "src")
    assert (got.isolated, got.misplaced, got.reason) == (True, False, f"cwd is in the linked worktree {repo.worktree}")


def test_the_main_worktree_and_outside_git(repo: Repo, tmp_path: Path) -> None:
    got = isolation(repo.main)
    assert (got.isolated, got.misplaced, got.reason) == (False, False, "cwd is in the main worktree")
    outside = tmp_path / "plain"
    outside.mkdir()
    got = isolation(outside)
    assert (got.isolated, got.misplaced, got.reason) == (False, False, "cwd is outside any git checkout")


@pytest.mark.parametrize("value", ["none", "None", " NONE "])
def test_a_definition_that_says_none_is_named_in_the_reason(repo: Repo, value: str) -> None:
    path = write_agent(repo.main, "helper", f"isolation: '{value}'")
    got = isolation(repo.main, "helper")
    assert (got.isolated, got.misplaced) == (False, False)
    assert got.reason == f"cwd is in the main worktree; {path} declares isolation: {value}"


def test_a_definition_without_isolation_adds_nothing_to_the_reason(repo: Repo) -> None:
    write_agent(repo.main, "helper", "model: sonnet")
    assert isolation(repo.main, "helper").reason == "cwd is in the main worktree"


@pytest.mark.parametrize("alias", ["worktree", "Worktree", "work_tree", "work-tree", " WORKTREE "])
def test_a_declared_isolation_in_the_main_worktree_is_misplaced(repo: Repo, alias: str) -> None:
    path = write_agent(repo.main, "worker", f"isolation: '{alias}'")
    got = isolation(repo.main, "worker")
    assert (got.isolated, got.misplaced) == (True, True)
    # the definition lies in the agent's own checkout, which it can write: it counts for the isolation only
    assert got.reason == f"agent definition {path} declares isolation: {alias} (from a file this agent can write: only its isolation counts)"


def test_a_declared_isolation_in_a_linked_worktree_is_applied(repo: Repo) -> None:
    path = write_agent(repo.main, "worker", "isolation: worktree")
    got = isolation(repo.worktree, "worker")
    assert (got.isolated, got.misplaced, got.reason) == (True, False, f"agent definition {path} declares isolation: worktree")


@pytest.mark.parametrize("value", [True, False])
def test_isolated_from_configuration(repo: Repo, value: bool) -> None:
    for cwd in (repo.main, repo.worktree):
        got = isolation(cwd, None, isolated=value)
        assert (got.isolated, got.misplaced, got.reason) == (value, False, f"configuration sets isolated = {str(value).lower()}")


def test_isolated_true_with_a_declared_isolation_in_the_main_worktree_is_still_misplaced(repo: Repo) -> None:
    write_agent(repo.main, "worker", "isolation: worktree")
    got = isolation(repo.main, "worker", isolated=True)
    assert (got.isolated, got.misplaced) == (True, True)


def test_isolated_agents(repo: Repo) -> None:
    got = isolation(repo.main, "reviewer", isolated_agents=["reviewer"])
    assert (got.isolated, got.misplaced) == (True, True)
    assert got.reason == "configuration lists agent type 'reviewer' in isolated_agents"
    got = isolation(repo.worktree, "reviewer", isolated_agents=["reviewer"])
    assert (got.isolated, got.misplaced) == (True, False)
    assert isolation(repo.main, None, isolated_agents=["reviewer"]).isolated is False
    assert isolation(repo.main, "other", isolated_agents=["reviewer"]).isolated is False


def test_a_configured_root_is_never_misplaced(repo: Repo) -> None:
    write_agent(repo.main, "worker", "isolation: worktree")
    (repo.main / "sub").mkdir()
    got = isolation(repo.main, "worker", worktree_root=str(repo.main / "sub"))
    assert (got.isolated, got.misplaced) == (True, False)
