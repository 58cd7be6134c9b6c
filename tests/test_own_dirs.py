"""worktree-guard's own directories are never writable by an isolated agent, even inside the allow-list.

The cache (parse tables, entry points), the daemons' sockets, the sub-agent and wave state and the user's
configuration decide what the guard does. Here, as in CI and in containers whose HOME is under the temp dir,
HOME and the XDG directories lie in /tmp, which the default allow-list holds: writes there used to pass.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import Repo, run_hook_inline, subagent_payload
from worktree_guard.client import socket_dir
from worktree_guard.config import user_config_path
from worktree_guard.private_dir import cache_root
from worktree_guard.subagents.places import state_root


def own_files() -> dict[str, str]:
    return {
        "cache": os.path.join(cache_root(os.environ), "entry-points.json"),
        "sockets": os.path.join(socket_dir(os.environ), "x.lock"),
        "state": os.path.join(state_root(), "s", "a.json"),
        "config": user_config_path(),
    }


def test_the_directories_lie_in_the_allow_listed_temp_dir_here() -> None:
    assert all(path.startswith("/tmp/") for path in own_files().values()), own_files()


@pytest.mark.parametrize("which", ["cache", "sockets", "state", "config"])
def test_a_write_into_the_guards_own_files_is_refused(repo: Repo, which: str) -> None:
    target = own_files()[which]
    write = run_hook_inline(subagent_payload(repo, "Write", {"file_path": target, "content": "x"}))
    assert write.decision == "deny" and write.codes == ["WG102"], write.stdout
    bash = run_hook_inline(subagent_payload(repo, "Bash", {"command": f"echo x > {target}"}))
    assert bash.decision == "deny" and bash.codes == ["WG402"], bash.stdout


def test_the_rest_of_the_temp_dir_stays_allowed(repo: Repo, tmp_path: Path) -> None:
    beside = Path(cache_root(os.environ)).parent / "other-tool" / "x"  # the same cache dir, another tool's
    for path in (tmp_path / "scratch.txt", beside):
        assert run_hook_inline(subagent_payload(repo, "Write", {"file_path": str(path), "content": "x"})).decision == "pass"
        assert run_hook_inline(subagent_payload(repo, "Bash", {"command": f"echo x > {path}"})).decision == "pass"
