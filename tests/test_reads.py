"""`reads = "warn" | "deny"`: a read of a shared checkout is a stale read, WG104 (SPEC §5.1). No test had it."""

from __future__ import annotations

import pytest

from tests.helpers import Repo, payload, run_hook_inline, run_hook_process, subagent_payload

READS = [
    ("Read", {"file_path": "{MAIN}/src/app.py"}),
    ("Glob", {"pattern": "**/*.py", "path": "{MAIN}/src"}),
    ("Grep", {"pattern": "app", "path": "{SIB}"}),
    ("LS", {"path": "{OUT}"}),
]


def fill(repo: Repo, tool_input: dict) -> dict:
    return {k: v.replace("{MAIN}", str(repo.main)).replace("{SIB}", str(repo.sibling)).replace("{OUT}", str(repo.outside)) for k, v in tool_input.items()}


@pytest.mark.parametrize("tool,tool_input", READS, ids=[r[0] for r in READS])
def test_reads_of_a_shared_checkout_pass_by_default_and_are_wg104_when_asked(repo: Repo, tool: str, tool_input: dict) -> None:
    data = subagent_payload(repo, tool, fill(repo, tool_input))
    assert run_hook_inline(data).stdout == ""  # reads = off (default): not even looked at
    warned = run_hook_inline(data, flags={"reads": "warn"})
    assert warned.decision == "warn" and warned.codes == ["WG104"]
    assert "may be stale" in warned.output["systemMessage"]
    denied = run_hook_inline(data, flags={"reads": "deny"})
    assert denied.decision == "deny" and denied.codes == ["WG104"]


def test_the_wg104_reason_names_the_copy_in_w(repo: Repo) -> None:
    data = subagent_payload(repo, "Read", {"file_path": str(repo.main / "src" / "app.py")})
    denied = run_hook_inline(data, flags={"reads": "deny"})
    assert f"shared checkout {repo.main}:" in denied.reason
    assert f"Use {repo.worktree / 'src' / 'app.py'} instead." in denied.reason


@pytest.mark.parametrize("where", ["inside", "elsewhere", "temp", "relative", "no-path"])
def test_reads_outside_the_shared_checkouts_pass_in_deny_mode(repo: Repo, where: str) -> None:
    tool_input = {
        "inside": {"file_path": str(repo.worktree / "src" / "app.py")},
        "elsewhere": {"file_path": "/etc/hostname"},
        "temp": {"file_path": "/tmp/x"},
        "relative": {"file_path": "src/app.py"},
        "no-path": {"pattern": "*.py"},  # Glob without `path` searches the cwd: W
    }[where]
    tool = "Glob" if where == "no-path" else "Read"
    assert run_hook_inline(subagent_payload(repo, tool, tool_input), flags={"reads": "deny"}).stdout == ""


def test_a_read_without_a_path_reads_the_cwd(repo: Repo) -> None:
    """Glob/Grep/LS without `path` read the cwd: an agent confined to W whose cwd is the main checkout reads S."""
    data = payload(repo.main, "Grep", {"pattern": "x"}, agent_id="a1", agent_type="t")
    flags = {"reads": "deny", "isolated": True, "worktree_root": str(repo.worktree)}
    assert run_hook_inline(data, flags=flags).codes == ["WG104"]


def test_reads_config_through_the_real_hook_and_the_project_file(repo: Repo) -> None:
    data = subagent_payload(repo, "Read", {"file_path": str(repo.main / "README.md")})
    (repo.main / ".worktree-guard.toml").write_text('reads = "deny"\n')
    result = run_hook_process(data)
    assert result.decision == "deny" and result.codes == ["WG104"]


def test_reads_of_a_non_isolated_agent_are_never_judged(repo: Repo) -> None:
    data = payload(repo.main, "Read", {"file_path": str(repo.sibling / "README.md")})
    assert run_hook_inline(data, flags={"reads": "deny"}).stdout == ""
