"""A linked worktree of a bare repository has no main worktree. The project file and the agent definitions were
read from W there, which the agent can write: a `.worktree-guard.toml` with `mode = "off"` or `isolated = false`,
or a definition of its own type, switched its guard off. They are now read from a place it cannot write
(engine.project_root_of): the checkout W lies in, else the directory holding the bare repository.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Repo, git, payload, run_hook_inline, write_agent


@pytest.fixture
def bare(repo: Repo) -> dict[str, Path]:
    """`proj/.bare` (a bare clone), its linked worktrees `proj/main` and `proj/feat`, and a sub-agent's worktree
    nested in `proj/main/.claude/worktrees/`, as Claude Code makes them."""
    proj = repo.base / "proj"
    proj.mkdir()
    git("clone", "-q", "--bare", str(repo.main), str(proj / ".bare"), cwd=repo.base)
    git("worktree", "add", "-q", str(proj / "main"), "main", cwd=proj / ".bare")
    git("worktree", "add", "-q", "-b", "feat", str(proj / "feat"), "main", cwd=proj / ".bare")
    nested = proj / "main" / ".claude" / "worktrees" / "agent-b1234567890abcdef"
    git("worktree", "add", "-q", "-b", "worktree-agent-b1234567890abcdef", str(nested), "main", cwd=proj / ".bare")
    return {"proj": proj, "main": proj / "main", "feat": proj / "feat", "nested": nested}


def write_call(cwd: Path, target: Path, agent_type: str = "general-purpose") -> list[str] | str:
    result = run_hook_inline(payload(cwd, "Write", {"file_path": str(target), "content": "x"}, agent_id="b1234567890abcdef", agent_type=agent_type))
    return "pass" if result.decision == "pass" else result.codes


@pytest.mark.parametrize("text", ['mode = "off"\n', "isolated = false\n"])
def test_a_project_file_the_agent_writes_into_its_own_worktree_does_not_loosen_its_guard(bare: dict[str, Path], text: str) -> None:
    assert write_call(bare["feat"], bare["main"] / "x") == ["WG101"]
    assert write_call(bare["feat"], bare["feat"] / ".worktree-guard.toml") == "pass"  # its own file: it may edit it
    (bare["feat"] / ".worktree-guard.toml").write_text(text)
    (bare["feat"] / "pyproject.toml").write_text("[tool.worktree-guard]\n" + text)
    assert write_call(bare["feat"], bare["main"] / "x") == ["WG101"]
    (bare["nested"] / ".worktree-guard.toml").write_text(text)
    assert write_call(bare["nested"], bare["feat"] / "x") == ["WG101"]


def test_the_project_file_of_a_bare_repository_is_read_beside_it_and_from_the_checkout_holding_w(bare: dict[str, Path]) -> None:
    (bare["proj"] / ".worktree-guard.toml").write_text('mode = "off"\n')
    assert write_call(bare["feat"], bare["main"] / "x") == "pass"  # the user's own file, where the agent cannot write
    assert write_call(bare["nested"], bare["feat"] / "x") == ["WG101"]  # a nested worktree: proj/main's file counts
    (bare["main"] / ".worktree-guard.toml").write_text('mode = "off"\n')
    assert write_call(bare["nested"], bare["feat"] / "x") == "pass"


def test_an_agent_definition_the_agent_writes_into_its_own_worktree_does_not_count(bare: dict[str, Path]) -> None:
    for where in (bare["feat"], bare["nested"]):
        write_agent(where, "general-purpose", "name: general-purpose\nworktree-guard:\n  mode: \"off\"")
        write_agent(where, "free", "name: free\nisolation: none")
        assert write_call(where, bare["main"] / "x" if where != bare["main"] else bare["feat"] / "x") == ["WG101"]
    write_agent(bare["main"], "general-purpose", "name: general-purpose\nworktree-guard:\n  mode: \"off\"")
    assert write_call(bare["nested"], bare["feat"] / "x") == "pass"  # the session's project (proj/main): Claude Code's
    assert write_call(bare["feat"], bare["main"] / "x") == ["WG101"]  # not feat's project: proj/ holds no definition
