"""A third-party plugin registered through the `worktree_guard` entry-point group (SPEC §10). No test had one.

The plugin is a real installed distribution: a module and its `.dist-info` (METADATA, entry_points.txt) in a
directory on PYTHONPATH, found by importlib.metadata exactly as pip-installed packages are. It adds a rule
(`worktree_guard_check_call`) and a program's write operands (`worktree_guard_write_operands`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import FAST_HOOK, Repo, install_plugin, run_hook_process, subagent_payload

PLUGIN = '''
from worktree_guard.hookspecs import hookimpl
from worktree_guard.model import Violation
from worktree_guard.shell.programs import WriteSpec


@hookimpl
def worktree_guard_check_call(call, ctx):
    if call.kind == "file_write" and (call.path or "").endswith(".secret"):
        return [Violation(code="WG990", rule="no-secrets", tool=call.tool, message="Secrets are not written by agents.",
                          path=call.path, worktree_root=ctx.worktree_root)]
    return None


@hookimpl
def worktree_guard_write_operands():
    return {"frobcp": WriteSpec(operands="last")}
'''


@pytest.fixture
def plugin_path(tmp_path: Path) -> str:
    site = tmp_path / "site"
    install_plugin(site, site, "no-secrets", "wg_no_secrets", PLUGIN)
    return str(site)


@pytest.mark.parametrize("command", [None, FAST_HOOK], ids=["worktree-guard hook", "fast hook"])
def test_a_rule_from_an_entry_point_judges_calls(repo: Repo, plugin_path: str, command: list[str] | None) -> None:
    data = subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "db.secret"), "content": "x"})
    assert run_hook_process(data, command=command).stdout == ""  # control: not installed
    result = run_hook_process(data, env={"PYTHONPATH": plugin_path}, command=command)
    assert result.decision == "deny" and result.codes == ["WG990"]
    assert result.reason.startswith("Secrets are not written by agents.")
    # The built-in rules still run beside it.
    both = subagent_payload(repo, "Write", {"file_path": str(repo.main / "db.secret"), "content": "x"})
    assert run_hook_process(both, env={"PYTHONPATH": plugin_path}, command=command).codes == ["WG101", "WG990"]


def test_a_program_table_row_from_an_entry_point(repo: Repo, plugin_path: str) -> None:
    data = subagent_payload(repo, "Bash", {"command": f"frobcp notes.txt {repo.main}/notes.txt"})
    assert "WG401" not in run_hook_process(data).codes  # control: without the row, frobcp's operand is not a write
    result = run_hook_process(data, env={"PYTHONPATH": plugin_path})
    assert result.decision == "deny" and result.codes == ["WG401"]
    assert f"Use {repo.worktree / 'notes.txt'} instead." in result.reason
