"""Custom `protect` patterns, sent through the hook (SPEC §2, §5.1, §8). Only `.git` had been tested.

Patterns are gitignore-style and relative to W: `*.pem` matches at any depth, `/build` only at the top.
"""

from __future__ import annotations

import pytest

from tests.helpers import Repo, run_hook_inline, run_hook_process, subagent_payload

PROTECT = 'protect = ["secrets/**", "*.pem", "/build"]\n'


def write(repo: Repo, path: str) -> dict:
    return subagent_payload(repo, "Write", {"file_path": path, "content": "x"})


@pytest.fixture
def protected(repo: Repo) -> Repo:
    (repo.main / ".worktree-guard.toml").write_text(PROTECT)
    return repo


@pytest.mark.parametrize("relative", ["secrets/a.txt", "secrets/deep/b", "key.pem", "src/deep/key.pem", "build", "build/out.o", ".git"])
def test_protected_paths_inside_w_are_wg103(protected: Repo, relative: str) -> None:
    result = run_hook_inline(write(protected, str(protected.worktree / relative)))
    assert result.decision == "deny" and result.codes == ["WG103"]
    assert result.reason.startswith(f"{protected.worktree / relative} is protected inside this worktree")


@pytest.mark.parametrize("relative", ["src/app.py", "src/build/out.o", "secretsX/a", "key.pem.txt", "notes/secrets"])
def test_other_paths_inside_w_pass(protected: Repo, relative: str) -> None:
    assert run_hook_inline(write(protected, str(protected.worktree / relative))).stdout == ""


def test_without_the_setting_they_pass(repo: Repo) -> None:
    for relative in ("secrets/a.txt", "key.pem", "build/out.o"):
        assert run_hook_inline(write(repo, str(repo.worktree / relative))).stdout == "", relative


def test_the_copy_in_a_shared_checkout_is_wg101_with_no_suggestion_and_no_rewrite(protected: Repo) -> None:
    """The suggestion would be a protected path of W: none is offered, and rewrite mode cannot move it."""
    data = write(protected, str(protected.main / "secrets" / "a.txt"))
    denied = run_hook_inline(data)
    assert denied.codes == ["WG101"] and "Use " not in denied.reason
    still = run_hook_inline(data, flags={"mode": "rewrite"})
    assert still.decision == "deny" and still.codes == ["WG101"]
    moved = run_hook_inline(write(protected, str(protected.main / "src" / "a.py")), flags={"mode": "rewrite"})
    assert moved.decision == "ask" and moved.output["hookSpecificOutput"]["updatedInput"]["file_path"] == str(protected.worktree / "src" / "a.py")


@pytest.mark.parametrize("command", ["echo x > secrets/a", "echo x >> src/key.pem", "touch build/x"])
def test_bash_writes_to_protected_paths_are_wg103(protected: Repo, command: str) -> None:
    result = run_hook_inline(subagent_payload(protected, "Bash", {"command": command}))
    assert result.decision == "deny" and result.codes == ["WG103"]


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_protect_from_the_flag_and_the_environment_of_the_real_hook(repo: Repo, how: str) -> None:
    data = write(repo, str(repo.worktree / "secrets" / "a.txt"))
    if how == "flag":
        result = run_hook_process(data, "--protect", "secrets/**")
    else:
        result = run_hook_process(data, env={"WORKTREE_GUARD_PROTECT": '["secrets/**"]'})
    assert result.decision == "deny" and result.codes == ["WG103"]
