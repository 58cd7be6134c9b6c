"""An agent the guard cannot place is refused (issue 12, defect 1): a cwd that is gone, a `.git` link that leads nowhere.

Before, a payload whose cwd was a deleted linked worktree was judged as the main checkout's agent, not isolated,
so its Write into the main checkout passed. Run against the installed command as Claude Code runs it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import FAST_HOOK, Repo, git, payload, run_hook_process, subagent_payload

COMMANDS = {"worktree-guard hook": None, "fast_hook": FAST_HOOK}


def codes(result) -> set[str]:
    import re

    return set(re.findall(r"WG\d{3}", result.reason.rpartition("[worktree-guard")[2]))


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_deleted_worktree_that_git_still_lists_is_still_w(repo: Repo, command: str) -> None:
    """W is recovered from git's records: the rule's own code, and the suggestion under W."""
    shutil.rmtree(repo.worktree)
    data = subagent_payload(repo, "Write", {"file_path": str(repo.main / "src" / "app.py"), "content": "x"})
    result = run_hook_process(data, cwd=repo.main, command=COMMANDS[command])
    assert result.returncode == 0
    assert (result.decision, codes(result)) == ("deny", {"WG101"})
    assert str(repo.worktree / "src" / "app.py") in result.reason
    bash = subagent_payload(repo, "Bash", {"command": f"cd {repo.main} && git switch main"})
    result = run_hook_process(bash, cwd=repo.main, command=COMMANDS[command])
    assert (result.decision, codes(result)) == ("deny", {"WG201", "WG301"})


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_removed_and_pruned_worktree_is_refused(repo: Repo, command: str) -> None:
    shutil.rmtree(repo.worktree)
    git("worktree", "prune", cwd=repo.main)
    data = subagent_payload(repo, "Write", {"file_path": str(repo.main / "src" / "app.py"), "content": "x"})
    result = run_hook_process(data, cwd=repo.main, command=COMMANDS[command])
    assert result.returncode == 0
    assert (result.decision, codes(result)) == ("deny", {"WG000"})
    assert "does not exist" in result.reason


@pytest.mark.parametrize("where", ["inside-main", "outside-git"])
def test_the_main_agent_in_a_directory_that_does_not_exist_is_refused_too(repo: Repo, tmp_path: Path, where: str) -> None:
    cwd = repo.main / "gone" / "deeper" if where == "inside-main" else tmp_path / "nowhere"
    data = payload(cwd, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"})
    result = run_hook_process(data, cwd=repo.main)
    assert (result.returncode, result.decision, codes(result)) == (0, "deny", {"WG000"})


def test_a_cwd_that_is_a_file_is_refused(repo: Repo) -> None:
    data = subagent_payload(repo, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}, cwd=str(repo.main / "README.md"))
    result = run_hook_process(data, cwd=repo.main)
    assert (result.decision, codes(result)) == ("deny", {"WG000"})


@pytest.mark.parametrize("content", ["", "not a link\n", "gitdir: /nonexistent/elsewhere\n"])
def test_a_dot_git_file_that_leads_nowhere_is_refused(repo: Repo, content: str) -> None:
    """A `.git` file is a link (linked worktree or submodule); unreadable, the checkout cannot be placed."""
    (repo.worktree / ".git").write_text(content)
    data = subagent_payload(repo, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"})
    result = run_hook_process(data, cwd=repo.worktree)
    assert (result.decision, codes(result)) == ("deny", {"WG000"})


def test_a_worktree_whose_admin_dir_was_pruned_is_still_a_linked_worktree(repo: Repo) -> None:
    """Its `.git` still says `gitdir: <common>/worktrees/<name>`: that names the repository."""
    link = (repo.worktree / ".git").read_text()
    admin = Path(link.split(":", 1)[1].strip())
    shutil.rmtree(admin)
    data = subagent_payload(repo, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"})
    result = run_hook_process(data, cwd=repo.worktree)
    assert (result.decision, codes(result)) == ("deny", {"WG101"})
    inside = subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "README.md"), "content": "x"})
    assert run_hook_process(inside, cwd=repo.worktree).decision == "pass"


def test_a_sub_agent_stop_in_a_vanished_worktree_tells_the_user_and_does_not_block(repo: Repo) -> None:
    from tests.helpers import lifecycle_payload

    shutil.rmtree(repo.worktree)
    git("worktree", "prune", cwd=repo.main)
    result = run_hook_process(lifecycle_payload(repo, "SubagentStop"), cwd=repo.main)
    assert result.returncode == 0 and not result.stop_blocked
    assert "WG000" in (result.output or {}).get("systemMessage", "")
