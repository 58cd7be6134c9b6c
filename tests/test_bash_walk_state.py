"""Behaviours of the simulated shell state that a sampled mutation run could break unnoticed (issue 13, item 12).

Each case is a command whose verdict depends on one piece of the walk: a glob directly under `/`, a `cd` as
the last stage of a pipeline with and without `lastpipe`, and `cd -` after a `cd` inside W. Where the verdict
rests on where bash would be, real bash is asked the same question (`pwd`) in the same worktree.
"""

from __future__ import annotations

import subprocess

import pytest

from tests.helpers import Repo, subagent_payload
from worktree_guard.engine import build_context, decide
from worktree_guard.model import Verdict
from worktree_guard.plugins import plugin_manager
from worktree_guard.runtimes.claude_code import to_tool_call

PM = plugin_manager()


def bash(repo: Repo, command: str) -> Verdict:
    call = to_tool_call(subagent_payload(repo, "Bash", {"command": command}))
    return decide(call, build_context(call, pm=PM))


def real_pwd(repo: Repo, command: str) -> str:
    """Where real bash is after `command`, run non-interactively in W (as an agent's Bash tool runs it)."""
    done = subprocess.run(["bash", "-c", command + "\npwd -P"], cwd=repo.worktree, capture_output=True, text=True, check=True, timeout=30)
    return done.stdout.splitlines()[-1]


# -- a glob directly under / ---------------------------------------------------------------------


@pytest.mark.parametrize("command", ["rm -rf /et*", "rm -rf /e?c", "touch /[e]tc", "echo x > /et?"])
def test_a_glob_directly_under_the_root_is_expanded_there(repo: Repo, command: str) -> None:
    """`/et*` is read in `/` (it matches /etc): not taken for a relative name inside W."""
    verdict = bash(repo, command)
    assert verdict.decision == "deny" and verdict.codes == ["WG402"]
    assert verdict.violations[0].resolved == "/etc"


def test_a_glob_under_the_root_that_matches_nothing_is_its_own_literal_path(repo: Repo) -> None:
    verdict = bash(repo, "touch /wg-no-such-entry-*")
    assert verdict.codes == ["WG402"] and verdict.violations[0].resolved == "/wg-no-such-entry-*"


# -- cd as the last stage of a pipeline -------------------------------------------------------------


def test_a_cd_at_the_end_of_a_pipeline_runs_in_a_subshell(repo: Repo) -> None:
    command = "echo | cd src"
    assert real_pwd(repo, command) == str(repo.worktree)  # bash: the cd did not stick
    verdict = bash(repo, command + "; rm -rf ../x")  # ../x from W is in the main checkout
    assert verdict.decision == "deny" and verdict.codes == ["WG401"]
    assert verdict.violations[0].resolved == str(repo.worktree.parent / "x")


def test_with_lastpipe_the_last_stage_runs_in_this_shell(repo: Repo) -> None:
    command = "shopt -s lastpipe; echo | cd src"
    assert real_pwd(repo, command) == str(repo.worktree / "src")  # bash: the cd stuck
    assert bash(repo, command + "; rm -rf ../x").decision == "pass"  # ../x from src is W/x


def test_lastpipe_does_not_carry_a_cd_out_of_an_earlier_stage(repo: Repo) -> None:
    command = "shopt -s lastpipe; cd src | cat"
    assert real_pwd(repo, command) == str(repo.worktree)
    assert bash(repo, command + "; rm -rf ../x").codes == ["WG401"]


# -- cd - -------------------------------------------------------------------------------------------


def test_cd_dash_after_a_cd_inside_w_returns_to_the_known_directory(repo: Repo) -> None:
    command = "cd src; cd -"
    assert real_pwd(repo, command + " >/dev/null") == str(repo.worktree)
    assert bash(repo, command).decision == "pass"
    assert bash(repo, command + "; rm -rf x").decision == "pass"  # W/x
    assert bash(repo, command + "; rm -rf ../x").codes == ["WG401"]  # back in W, not still in src


def test_cd_dash_from_the_temp_dir_back_into_w(repo: Repo) -> None:
    assert bash(repo, "cd /tmp; cd -; touch f").decision == "pass"
    assert bash(repo, "cd /tmp; cd -; rm -rf ../x").codes == ["WG401"]


def test_cd_dash_with_no_earlier_cd_is_unknown(repo: Repo) -> None:
    assert bash(repo, "cd -").codes == ["WG202"]
