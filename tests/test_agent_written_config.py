"""A config file or an agent definition an isolated agent could have written itself counts only for its
isolation, never for its settings (engine.scope_for, `_written_by_agent`). Whether it could is judged by the path
policy of the layers it cannot write: the defaults (the temp dir is allow-listed), the user file, the
environment, the hook's flags.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Repo, git, payload, run_hook_inline, write_agent


def write_from(cwd: Path, target: Path, flags: dict[str, object] | None = None, agent_type: str = "general-purpose") -> list[str] | str:
    result = run_hook_inline(payload(cwd, "Write", {"file_path": str(target), "content": "x"}, agent_id="c1234567890abcdef", agent_type=agent_type), flags=flags)
    return "pass" if result.decision == "pass" else result.codes


def test_a_clone_given_as_w_by_the_hook_flags_cannot_configure_itself(repo: Repo) -> None:
    """An orchestrator's worker in a clone of its own (`--root clone --isolated --shared main`): the clone's
    committed or written `.worktree-guard.toml` is the agent's to change."""
    clone = repo.base / "clone"
    git("clone", "-q", str(repo.main), str(clone), cwd=repo.base)
    flags = {"worktree_root": str(clone), "isolated": True, "shared_roots": [str(repo.main)]}
    assert write_from(clone, repo.main / "x", flags) == ["WG101"]
    (clone / ".worktree-guard.toml").write_text('mode = "off"\n')
    assert write_from(clone, repo.main / "x", flags) == ["WG101"]
    write_agent(clone, "general-purpose", 'name: general-purpose\nworktree-guard:\n  mode: "off"')
    assert write_from(clone, repo.main / "x", flags) == ["WG101"]
    assert write_from(clone, clone / "ok", flags) == "pass"


def test_a_clone_isolated_by_its_own_file_stays_isolated(repo: Repo) -> None:
    """Its file may make it isolated (an orchestrator's choice), and nothing it writes there undoes that."""
    clone = repo.base / "clone"
    git("clone", "-q", str(repo.main), str(clone), cwd=repo.base)
    (clone / ".worktree-guard.toml").write_text(f'isolated = true\nshared-roots = ["{repo.main}"]\n')
    assert write_from(clone, repo.main / "x") == ["WG101"]
    (clone / ".worktree-guard.toml").write_text(f'isolated = true\nmode = "off"\nshared-roots = ["{repo.main}"]\n')
    assert write_from(clone, repo.main / "x") == ["WG101"]


def test_a_definition_above_the_project_in_the_temp_dir_cannot_loosen_the_guard(repo: Repo) -> None:
    """Definitions are looked up from the project root upwards; above it, in the allow-listed temp dir, the agent
    can write `.claude/agents/` itself."""
    assert write_from(repo.worktree, repo.main / "x") == ["WG101"]
    write_agent(repo.base, "general-purpose", 'name: general-purpose\nworktree-guard:\n  mode: "off"')
    assert write_from(repo.worktree, repo.main / "x") == ["WG101"]


def test_a_file_in_the_agents_own_checkout_may_isolate_it(repo: Repo) -> None:
    """A main agent is free, so the file in its checkout is its own: it may still make it isolated."""
    assert write_from(repo.main, repo.sibling / "x") == "pass"
    (repo.main / ".worktree-guard.toml").write_text("isolated = true\n")
    assert write_from(repo.main, repo.sibling / "x") == ["WG101"]


def test_a_definition_the_agent_wrote_hides_none_it_did_not(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """The agent writes a definition of its own type above the project, in the allow-listed temp dir, where it would
    shadow the user's own (`profile: strict`): it is passed over, and the user's is read."""
    import tempfile

    from worktree_guard.engine import scope_for

    monkeypatch.setenv("TMPDIR", str(repo.base))  # the temp dir holds the repository, not HOME
    monkeypatch.setattr(tempfile, "tempdir", str(repo.base))
    mine = write_agent(Path.home(), "reviewer", "name: reviewer\nworktree-guard:\n  profile: strict")
    write_agent(repo.base, "reviewer", "name: reviewer\nworktree-guard:\n  profile: default")
    scope = scope_for(str(repo.worktree), "reviewer")
    assert scope.definition is not None and scope.definition.path == str(mine) and scope.settings.profile == "strict"


def test_a_project_file_the_agent_can_write_does_not_undo_its_definitions_isolation(repo: Repo, temp_elsewhere: Path) -> None:
    """The user's definition declares isolation; the agent runs in the main checkout (misplaced: WG002), whose
    `.worktree-guard.toml` it could write: `isolated = false` there does not make it free."""
    write_agent(Path.home(), "worker", "name: worker\nisolation: worktree")
    (repo.main / ".worktree-guard.toml").write_text("isolated = false\n")
    result = run_hook_inline(payload(repo.main, "Write", {"file_path": str(repo.main / "x"), "content": "x"}, agent_id="w1", agent_type="worker"))
    assert result.codes == ["WG002"]
