"""The files the guard reads that an agent can make: a `.git` entry and the git files it leads to, a config, an
agent definition. Each is read only when it is a regular file, opened without blocking, and never past a bound.

Before, a `.git` link to /dev/zero (or a sparse file of many GiB) made the hook read until memory ran out, and a
hook the kernel kills has no reply, which Claude Code takes as "go on"; a FIFO made it wait out its 20 s budget.
The subprocess cases run under a 1 GiB address-space limit and a 15 s timeout, so that the old code fails them
quickly (MemoryError, or the timeout) instead of taking the machine's memory.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import HOOK_EXE, Repo, payload, run_hook_inline, write_agent
from worktree_guard import layout
from worktree_guard.config import MAX_CONFIG_FILE
from worktree_guard.layout import MAX_GIT_FILE, LayoutUnknown


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def run_limited(data: dict[str, object], cwd: Path, env: dict[str, str] | None = None) -> dict[str, object]:
    """`worktree-guard hook` in a fresh process with 1 GiB of address space, given 15 s."""
    result = subprocess.run(
        [str(HOOK_EXE), "hook"], input=json.dumps(data).encode(), capture_output=True, cwd=cwd,
        env={**os.environ, **(env or {})}, timeout=15, preexec_fn=_limited,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["hookSpecificOutput"]


def bash_in(repo: Repo, command: str) -> dict[str, str]:
    return payload(repo.worktree, "Bash", {"command": command}, agent_id=repo.agent_id, agent_type="general-purpose")


@pytest.mark.parametrize("make", ["dev-zero", "fifo", "sparse"])
def test_a_git_entry_the_agent_made_is_refused_without_being_read(repo: Repo, make: str) -> None:
    sub = repo.worktree / "sub"
    sub.mkdir()
    dotgit = sub / ".git"
    if make == "dev-zero":
        dotgit.symlink_to("/dev/zero")
    elif make == "fifo":
        os.mkfifo(dotgit)
    else:
        with open(dotgit, "wb") as f:
            f.write(b"gitdir: ../x")
            f.truncate(20 << 30)  # sparse: 20 GiB that take no disk
    reply = run_limited(bash_in(repo, "cd sub && git status"), cwd=repo.worktree)
    assert reply["permissionDecision"] == "deny"
    reason = reply["permissionDecisionReason"]
    assert reason.endswith("[worktree-guard WG000]")
    if make == "sparse":
        assert f"{dotgit} is larger than 16 MiB" in reason
    else:
        assert f"{dotgit} is not a readable `gitdir:` link" in reason


def test_a_git_dir_the_agent_made_with_a_fifo_inside_is_refused_promptly(repo: Repo) -> None:
    """A `.git` directory git would take (HEAD, objects, refs) whose `commondir` is a FIFO."""
    fake = repo.worktree / "sub" / ".git"
    (fake / "objects").mkdir(parents=True)
    (fake / "refs").mkdir()
    (fake / "HEAD").write_text("ref: refs/heads/main\n")
    os.mkfifo(fake / "commondir")
    reply = run_limited(bash_in(repo, "cd sub && git status"), cwd=repo.worktree)
    assert reply["permissionDecision"] == "deny"
    assert f"{fake / 'commondir'} is not a regular file" in reply["permissionDecisionReason"]
    assert reply["permissionDecisionReason"].endswith("[worktree-guard WG000]")


def test_a_large_git_file_is_unknown_in_process(repo: Repo) -> None:
    """Just over the bound, so that the old code's full read stays cheap: strict reads refuse, others see nothing."""
    big = repo.worktree / "sub" / ".git"
    big.parent.mkdir()
    with open(big, "wb") as f:
        f.write(b"gitdir: ../x")
        f.truncate(MAX_GIT_FILE + 1)
    result = run_hook_inline(bash_in(repo, "cd sub && git status"))
    assert result.decision == "deny" and result.codes == ["WG000"]
    assert f"{big} is larger than 16 MiB" in result.reason
    with pytest.raises(LayoutUnknown, match="is larger than 16 MiB"):
        layout._read_first_line(str(big), strict=True)
    assert layout._read_text(str(big)) is None
    exact = repo.worktree / "exact"
    exact.write_bytes(b"x" * MAX_GIT_FILE)
    assert layout._read_text(str(exact), strict=True) == "x" * MAX_GIT_FILE  # the bound itself is read


def test_a_file_that_grows_past_the_bound_while_read_is_cut_off(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """/proc files report size 0 and a file can grow after fstat: the read itself is bounded too."""
    small = repo.worktree / "small"
    small.write_bytes(b"y" * 64)
    monkeypatch.setattr(layout, "MAX_GIT_FILE", 16)
    with pytest.raises(LayoutUnknown, match="is larger than"):
        layout._read_text(str(small), strict=True)
    with pytest.raises(LayoutUnknown, match="is larger than"):
        layout._read_first_line(str(small), strict=True)
    assert layout._read_first_line(str(small)) is None
    small.write_bytes(b"y" * 16)
    assert layout._read_first_line(str(small), strict=True) == "y" * 16


def test_non_strict_reads_of_a_fifo_or_device_see_nothing(tmp_path: Path) -> None:
    """In a child under the limits: the old code blocks on the FIFO and reads /dev/zero without end."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code = (
        "import sys\nfrom worktree_guard import layout\n"
        "print(layout._read_text(sys.argv[1]), layout._read_first_line('/dev/zero'))\n"
        "try:\n    layout._read_text('/dev/zero', strict=True)\nexcept layout.LayoutUnknown as e:\n    print(e)\n"
    )
    result = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=15, preexec_fn=_limited)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["None None", "/dev/zero is not a regular file"]


@pytest.mark.parametrize("make", ["dev-zero", "fifo"])
def test_a_user_config_that_is_not_a_regular_file_is_refused(repo: Repo, tmp_path: Path, make: str) -> None:
    config = tmp_path / "guard.toml"
    if make == "dev-zero":
        config.symlink_to("/dev/zero")
    else:
        os.mkfifo(config)
    reply = run_limited(bash_in(repo, "ls"), cwd=repo.worktree, env={"WORKTREE_GUARD_USER_CONFIG": str(config)})
    assert reply["permissionDecision"] == "deny"
    assert f"{config}: cannot read: not a regular file" in reply["permissionDecisionReason"]


def test_a_user_config_of_dev_null_is_an_empty_config(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKTREE_GUARD_USER_CONFIG", os.devnull)
    assert run_hook_inline(bash_in(repo, "ls")).decision == "pass"
    assert run_hook_inline(bash_in(repo, f"touch {repo.main}/x")).codes == ["WG401"]  # the guard still judges


def test_a_config_over_the_bound_is_refused(repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "guard.toml"
    config.write_bytes(b"#" * (MAX_CONFIG_FILE + 1))
    monkeypatch.setenv("WORKTREE_GUARD_USER_CONFIG", str(config))
    result = run_hook_inline(bash_in(repo, "ls"))
    assert result.decision == "deny" and result.codes == ["WG000"]
    assert f"{config}: cannot read: larger than 1 MiB" in result.reason
    config.write_bytes(b"#" * MAX_CONFIG_FILE)  # a comment of exactly the bound is read
    assert run_hook_inline(bash_in(repo, "ls")).decision == "pass"


def test_an_agent_definition_that_is_a_fifo_is_refused_promptly(repo: Repo) -> None:
    """The definition of the dispatched type, looked up in the project's `.claude/agents`, is a FIFO."""
    agents = repo.main / ".claude" / "agents"
    write_agent(repo.main, "helper", "name: helper\nisolation: worktree\n")
    os.mkfifo(agents / "other.md")  # read while looking for `reviewer` (any .md below may name it)
    code = (
        "import sys\nfrom worktree_guard.agents import AgentDefinitionError, find_agent_definition\n"
        "try:\n    find_agent_definition('reviewer', sys.argv[1], sys.argv[2])\nexcept AgentDefinitionError as e:\n"
        "    print(e)\n"
    )
    result = subprocess.run([sys.executable, "-c", code, str(repo.main), str(repo.base / "home")],
                            capture_output=True, text=True, timeout=15, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"{agents / 'other.md'}: cannot read: [Errno {errno.EINVAL}] not a regular file: '{agents / 'other.md'}'"


def test_a_home_that_is_not_a_directory_has_no_user_config(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """HOME=/dev/null (some service accounts): nothing can lie below it, so there is no user config, as with a
    HOME that does not exist. Before, every call was refused (WG000: "Not a directory")."""
    monkeypatch.setenv("HOME", os.devnull)
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert run_hook_inline(bash_in(repo, "ls")).decision == "pass"
    assert run_hook_inline(bash_in(repo, f"touch {repo.main}/x")).codes == ["WG401"]
    file_home = repo.base / "home-file"
    file_home.write_text("")
    monkeypatch.setenv("HOME", str(file_home))
    assert run_hook_inline(bash_in(repo, "ls")).decision == "pass"
