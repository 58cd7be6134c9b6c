"""The shell rules' edges found by the mutation run of `rules/` (issue 13 phase 5), each pinned by exact codes.

Each test kills mutants of `worktree_guard/rules/` that every other in-process test let through. The rows run
through the engine with the real repository of `tests/test_bash_rules.py` (W a linked worktree inside the main
checkout {MAIN}).
"""

from __future__ import annotations

from tests.helpers import Repo
from tests.test_bash_rules import bash, world  # noqa: F401  (the fixture)


def test_a_cd_out_of_w_is_wg201_and_one_inside_passes(world: Repo) -> None:
    verdict = bash(world, "cd /etc")
    assert (verdict.decision, set(verdict.codes)) == ("deny", {"WG201"})
    assert bash(world, "cd src").decision == "pass"
