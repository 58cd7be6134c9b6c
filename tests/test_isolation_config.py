"""Isolation and W set by configuration, sent through the hook (SPEC §3 rule 1, §4, §8).

`isolated`, `isolated_agents`, `worktree_root` and `shared_roots` were only parsed by the other tests: deleting
the code that applies them left every test green. Each test here has a control case (the same call without the
setting) so that it fails when the setting stops mattering.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Repo, payload, run_hook_inline, run_hook_process, subagent_payload, write_agent


def write(cwd: Path, path: Path | str, **extra) -> dict:
    return payload(cwd, "Write", {"file_path": str(path), "content": "x\n"}, **extra)


def project_config(repo: Repo, text: str) -> None:
    (repo.main / ".worktree-guard.toml").write_text(text)


# --- `isolated`: the whole session ----------------------------------------------------------------


def test_isolated_true_confines_an_agent_in_the_main_checkout(repo: Repo) -> None:
    into_sibling = write(repo.main, repo.sibling / "x.py")
    assert run_hook_inline(into_sibling).decision == "pass"  # control: a main-checkout agent is not confined
    project_config(repo, "isolated = true\n")
    result = run_hook_inline(into_sibling)
    assert result.decision == "deny" and result.codes == ["WG101"]
    # W is the main checkout itself: it is not misplaced (only a declared isolation can be), and writes inside pass.
    assert run_hook_inline(write(repo.main, repo.main / "src" / "new.py")).decision == "pass"
    elsewhere = run_hook_inline(write(repo.main, "/opt/wg-test-nowhere/f"))
    assert elsewhere.decision == "deny" and elsewhere.codes == ["WG102"]


@pytest.mark.parametrize("how", ["environment", "flag"])
def test_isolated_from_the_environment_and_the_flag(repo: Repo, how: str) -> None:
    data = write(repo.main, repo.sibling / "x.py")
    if how == "environment":
        result = run_hook_process(data, env={"WORKTREE_GUARD_ISOLATED": "true"})
    else:
        result = run_hook_process(data, "--isolated")
    assert result.decision == "deny" and result.codes == ["WG101"]


def test_isolated_false_releases_an_agent_in_a_linked_worktree(repo: Repo) -> None:
    into_main = subagent_payload(repo, "Write", {"file_path": str(repo.main / "x.py"), "content": "x"})
    assert run_hook_inline(into_main).codes == ["WG101"]  # control
    project_config(repo, "isolated = false\n")
    assert run_hook_inline(into_main).decision == "pass"
    assert run_hook_process(into_main, "--isolated").codes == ["WG101"]  # a flag outranks the project file


def test_isolated_false_outranks_a_declared_isolation(repo: Repo) -> None:
    write_agent(repo.main, "worker", "isolation: worktree")
    data = write(repo.main, repo.main / "x.py", agent_id="a1", agent_type="worker")
    assert run_hook_inline(data).codes == ["WG002"]  # control: declared but not applied
    assert run_hook_inline(data, flags={"isolated": False}).decision == "pass"


# --- `isolated_agents`: one agent type ------------------------------------------------------------


def test_isolated_agents_names_an_agent_type_that_is_then_misplaced_in_the_main_checkout(repo: Repo) -> None:
    reviewer = write(repo.main, repo.main / "x.py", agent_id="a1", agent_type="reviewer")
    assert run_hook_inline(reviewer).decision == "pass"  # control: no definition, main checkout
    project_config(repo, 'isolated_agents = ["reviewer"]\n')
    result = run_hook_inline(reviewer)
    assert result.decision == "deny" and result.codes == ["WG002"]
    assert "stop and report" in result.reason.lower()
    other = write(repo.main, repo.main / "x.py", agent_id="a2", agent_type="helper")
    assert run_hook_inline(other).decision == "pass"  # only the named type
    assert run_hook_inline(write(repo.main, repo.main / "x.py")).decision == "pass"  # nor the main agent


def test_isolated_agents_outranks_a_definition_that_says_none(repo: Repo) -> None:
    write_agent(repo.main, "reviewer", "isolation: none")
    data = write(repo.main, repo.main / "x.py", agent_id="a1", agent_type="reviewer")
    assert run_hook_inline(data).decision == "pass"  # control
    assert run_hook_inline(data, environ={"WORKTREE_GUARD_ISOLATED_AGENTS": "reviewer"}).codes == ["WG002"]


def test_isolated_agents_with_a_configured_root_is_not_misplaced(repo: Repo) -> None:
    """The configuration names W for the agent type it isolates: it is confined there, not told to stop."""
    root = repo.main / "sub"
    root.mkdir()
    flags = {"isolated_agents": ["reviewer"], "worktree_root": str(root)}
    inside = run_hook_inline(write(repo.main, root / "a.py", agent_id="a1", agent_type="reviewer"), flags=flags)
    assert inside.decision == "pass"
    into_main = run_hook_inline(write(repo.main, repo.main / "README.md", agent_id="a1", agent_type="reviewer"), flags=flags)
    assert into_main.decision == "deny" and into_main.codes == ["WG101"]
    assert f"Use {root / 'README.md'} instead." in into_main.reason


# --- `worktree_root` and `shared_roots` ----------------------------------------------------------


def test_a_configured_worktree_root_outranks_the_detected_one(repo: Repo) -> None:
    """SPEC §3: explicit configuration first. The detected worktree then is someone else's checkout."""
    into_sibling = subagent_payload(repo, "Write", {"file_path": str(repo.sibling / "x.py"), "content": "x"})
    own = subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "x.py"), "content": "x"})
    assert run_hook_inline(into_sibling).codes == ["WG101"]  # control
    project_config(repo, f'worktree_root = "{repo.sibling}"\n')
    assert run_hook_inline(into_sibling).decision == "pass"
    result = run_hook_inline(own)
    assert result.decision == "deny" and result.codes == ["WG101"]
    assert f"Use {repo.sibling / 'x.py'} instead." in result.reason
    # Through the real hook process and its --root flag too.
    assert run_hook_process(into_sibling, "--root", str(repo.sibling)).decision == "pass"


def test_a_relative_worktree_root_is_relative_to_the_cwd(repo: Repo) -> None:
    (repo.worktree / "pkg").mkdir()
    data = subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "other.py"), "content": "x"})
    result = run_hook_inline(data, flags={"worktree_root": "pkg"})
    assert result.decision == "deny" and result.codes == ["WG101"]
    assert f"Use {repo.worktree / 'pkg' / 'other.py'} instead." in result.reason


def test_configured_shared_roots_are_shared_even_in_the_allow_listed_temp_dir(repo: Repo, tmp_path: Path) -> None:
    extra = tmp_path / "another-checkout"
    extra.mkdir()
    data = subagent_payload(repo, "Write", {"file_path": str(extra / "f"), "content": "x"})
    assert run_hook_inline(data).decision == "pass"  # control: the temp dir is allow-listed
    for how in ({"flags": {"shared_roots": [str(extra)]}}, {"environ": {"WORKTREE_GUARD_SHARED_ROOTS": str(extra)}}):
        result = run_hook_inline(data, **how)
        assert result.decision == "deny" and result.codes == ["WG101"], how
        assert f"Use {repo.worktree / 'f'} instead." in result.reason
