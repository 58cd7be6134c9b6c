"""A sub-agent that removes its own worktree neither escapes the leak check nor gets to do it (review of issue 12, F4).

Before: after SubagentStart, `python3 -c "open('<main>/README.md','a').write('leak')" && git worktree remove --force W`
passed the guard (removing W counted as a path inside W), and at SubagentStop the cwd could not be placed, so the
user got a systemMessage and the stop went on, main's README.md still modified. Now `git worktree remove|move` of W
itself is WG304, and a stop whose cwd cannot be placed is judged from what the leak check recorded at the start.
"""

from __future__ import annotations

import re

import pytest

from tests.helpers import Repo, git, lifecycle_payload, run_hook_process, subagent_payload


def codes(result) -> set[str]:
    return set(re.findall(r"WG\d{3}", result.reason.rpartition("[worktree-guard")[2]))


def test_the_stop_of_a_sub_agent_that_removed_its_own_worktree_is_still_compared(repo: Repo) -> None:
    started = run_hook_process(lifecycle_payload(repo, "SubagentStart"), cwd=repo.worktree)
    assert str(repo.worktree) in started.output["hookSpecificOutput"]["additionalContext"]
    # What the sub-agent did: an inline interpreter (passed in the default profile) leaks, and git removes W.
    with open(repo.main / "README.md", "a") as f:
        f.write("leak\n")
    git("worktree", "remove", "--force", str(repo.worktree), cwd=repo.main)
    assert not repo.worktree.exists() and str(repo.worktree) not in git("worktree", "list", cwd=repo.main)
    stopped = run_hook_process(lifecycle_payload(repo, "SubagentStop"), cwd=repo.main)
    assert stopped.returncode == 0 and stopped.stop_blocked
    reason = stopped.output["reason"]
    assert str(repo.main / "README.md") in reason and reason.endswith("[worktree-guard WG602]")
    # Blocked once: the next stop goes through and tells the user what is still there.
    again = run_hook_process(lifecycle_payload(repo, "SubagentStop", stop_hook_active=True), cwd=repo.main)
    assert not again.stop_blocked and "WG602" in again.output["systemMessage"]


def test_a_stop_that_cannot_be_placed_and_has_no_record_still_tells_the_user(repo: Repo) -> None:
    """No start was seen (not isolated then, or another session): nothing to compare, the user is told."""
    git("worktree", "remove", "--force", str(repo.worktree), cwd=repo.main)
    stopped = run_hook_process(lifecycle_payload(repo, "SubagentStop"), cwd=repo.main)
    assert not stopped.stop_blocked and stopped.output["systemMessage"].endswith("[worktree-guard WG000]")


@pytest.mark.parametrize(
    "command",
    [
        "git worktree remove --force {W}",
        "git worktree remove .",
        "cd .. && git worktree remove {name}",
        "git -C {main} worktree remove {W}",
        "git worktree move {W} {base}/moved",
        "git worktree move . {W}/inner",
    ],
)
def test_removing_or_moving_ones_own_worktree_is_wg304(repo: Repo, command: str) -> None:
    text = command.format(W=repo.worktree, name=repo.worktree.name, main=repo.main, base=repo.base)
    result = run_hook_process(subagent_payload(repo, "Bash", {"command": text}), cwd=repo.worktree)
    assert (result.decision, codes(result) - {"WG201"}) == ("deny", {"WG304"}), text


def test_worktrees_of_its_own_inside_w_are_still_its_business(repo: Repo) -> None:
    for text in ("git worktree add -q inner && git worktree remove inner", "git worktree list", "git worktree lock ."):
        result = run_hook_process(subagent_payload(repo, "Bash", {"command": text}), cwd=repo.worktree)
        assert result.decision == "pass", (text, result.reason)
