"""A main agent that worked in a linked worktree stays isolated when its cwd leaves it.

`claude --worktree`, `cd W && claude` and the EnterWorktree tool put a main agent (no agent id) in a linked
worktree W, where its calls are isolated. Claude Code's `cwd` follows `cd` (research/hook-protocols.md §1.4), and
`cd /tmp/t` is allowed (the temp dir is in the default allow-list): before, its next calls, made from /tmp/t, were
judged as those of an agent outside any checkout, not isolated, so a write, a `git checkout` or a `cd` into the main
checkout passed, and so did everything in a clone it made there. Its first call in W now records W for its session
(subagents/main_agent.py), and a call from outside W is judged with W as recorded, unless it is in another checkout
of the repository (ExitWorktree puts it back in the main one).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers import Repo, git, payload, run_hook_inline
from tests.test_daemon import cache  # noqa: F401 — the fixture: this test's own runtime directory and daemons

SESSION = "5f1c2a4e-0000-4000-8000-000000000001"  # tests.helpers.payload's


def call(cwd: Path, tool: str, tool_input: dict[str, str], **extra: str) -> list[str] | str:
    """The main agent's call (no agent id): "pass", or the codes its reply names."""
    result = run_hook_inline(payload(cwd, tool, tool_input, **extra))
    assert result.returncode == 0, result.stderr
    return "pass" if result.decision == "pass" else result.codes


def record_path(session: str = SESSION) -> Path:
    """Where the session's record is (places.main_started_path), spelled out: the tests run on the old code too."""
    return Path(os.environ["XDG_STATE_HOME"], "worktree-guard", "subagents", session, "@main.started")


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory in the temp dir (allowed), outside every checkout: where `cd /tmp/t` takes the agent."""
    found = tmp_path / "t"
    found.mkdir()
    return found


@pytest.fixture
def left(repo: Repo, outside: Path) -> Path:
    """The main agent worked in W (its first call there) and moved to `outside`."""
    assert call(repo.worktree, "Bash", {"command": f"cd {outside}"}) == "pass"
    return outside


def test_a_main_agent_that_left_its_worktree_is_judged_with_it(repo: Repo, left: Path) -> None:
    assert call(left, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]
    assert call(left, "Bash", {"command": f"git -C {repo.main} checkout -q -b x"}) == ["WG301"]
    assert call(left, "Bash", {"command": f"cd {repo.main}"}) == ["WG201"]
    assert call(left, "Bash", {"command": f"echo x > {repo.main}/README.md"}) == ["WG401"]
    assert call(left, "Write", {"file_path": str(left / "scratch.txt"), "content": "x"}) == "pass"  # allowed
    assert call(left, "Write", {"file_path": str(repo.worktree / "a.txt"), "content": "x"}) == "pass"  # its own W


def test_a_main_agent_never_in_a_linked_worktree_is_judged_as_before(repo: Repo, outside: Path) -> None:
    assert call(repo.main, "Write", {"file_path": str(repo.main / "a.txt"), "content": "x"}) == "pass"
    assert call(outside, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == "pass"
    assert not record_path().exists()


def test_another_sessions_record_does_not_confine_it(repo: Repo, left: Path) -> None:
    other = "5f1c2a4e-0000-4000-8000-000000000002"
    assert call(left, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}, session_id=other) == "pass"


def test_a_call_without_a_session_id_leaves_no_record(repo: Repo, outside: Path) -> None:
    """Sessions without ids cannot be told apart: a shared record would confine every such session's agent."""
    body = payload(repo.worktree, "Write", {"file_path": str(repo.worktree / "a.txt"), "content": "x"})
    del body["session_id"]
    assert run_hook_inline(body).decision == "pass"
    assert not any(Path(os.environ["XDG_STATE_HOME"]).rglob("@main.started"))


def test_exit_worktree_puts_it_back_in_the_main_checkout_free(repo: Repo, left: Path) -> None:
    """ExitWorktree moves the cwd to the main checkout (Bash cannot: `cd` there is refused): judged from there, and
    the record goes, so that a later `cd /tmp/t` of the free agent does not confine it again."""
    assert record_path().is_file()
    assert call(repo.main, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == "pass"
    assert not record_path().exists()
    assert call(left, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == "pass"


def test_entering_another_worktree_moves_the_record(repo: Repo, left: Path) -> None:
    assert call(repo.sibling, "Write", {"file_path": str(repo.sibling / "a.txt"), "content": "x"}) == "pass"
    assert json.loads(record_path().read_text())["worktree_root"] == str(repo.sibling)
    assert call(left, "Write", {"file_path": str(repo.worktree / "a.txt"), "content": "x"}) == ["WG101"]
    assert call(left, "Write", {"file_path": str(repo.sibling / "a.txt"), "content": "x"}) == "pass"


def test_a_clone_it_made_in_the_temp_dir_is_no_way_out(repo: Repo, left: Path) -> None:
    """`git clone <main> /tmp/t/c; cd /tmp/t/c`: the clone's main worktree is another repository's, whose
    configuration it wrote; so is a worktree of that clone."""
    clone = left / "c"
    git("clone", "-q", str(repo.main), str(clone), cwd=left)
    (clone / ".worktree-guard.toml").write_text('mode = "off"\n')
    git("worktree", "add", "-q", "-b", "x", str(left / "c2"), cwd=clone)
    for where in (clone, left / "c2"):
        assert call(where, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]
        assert call(where, "Bash", {"command": f"git -C {repo.main} checkout -q -b evil"}) == ["WG301"]
    assert call(clone, "Write", {"file_path": str(clone / "a.txt"), "content": "x"}) == "pass"  # the temp dir


def test_a_link_to_the_main_checkout_is_no_way_back(repo: Repo, left: Path) -> None:
    """`ln -s <main> /tmp/t/m && cd /tmp/t/m`: the `cd` is judged where the link leads."""
    (left / "m").symlink_to(repo.main)
    assert call(left, "Bash", {"command": f"cd {left / 'm'}"}) == ["WG201"]


def test_a_worktree_of_its_clone_made_inside_its_worktree_does_not_free_it(repo: Repo, left: Path) -> None:
    clone = left / "c"
    git("clone", "-q", str(repo.main), str(clone), cwd=left)
    (clone / ".worktree-guard.toml").write_text('mode = "off"\n')
    git("worktree", "add", "-q", "-b", "x", str(repo.worktree / "x"), cwd=clone)
    assert call(repo.worktree / "x", "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]


def test_a_record_that_cannot_be_read_is_unknown(repo: Repo, left: Path) -> None:
    assert record_path().is_file()
    for text, cause in (("{not json", "its start record cannot be read"), ('{"worktree_root": "relative"}', "its start record names no worktree")):
        record_path().write_text(text)
        result = run_hook_inline(payload(left, "Write", {"file_path": str(left / "x"), "content": "x"}))
        assert result.decision == "deny" and result.codes == ["WG000"] and cause in result.reason, result.stdout


def test_the_sweep_removes_an_old_record(repo: Repo, left: Path) -> None:
    import time

    from worktree_guard.subagents.state import STALE_AFTER, sweep

    old = time.time() - STALE_AFTER - 60
    os.utime(record_path(), (old, old))
    assert sweep() == 1 and not record_path().exists()


# --- the daemon: it declines the call that writes the record, and serves the calls the record places -------------


def test_the_daemon_declines_the_call_that_writes_the_record_and_serves_the_rest(
    repo: Repo, cache: Path, outside: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.helpers import FAST_HOOK, run_hook_process
    from tests.test_judged_once import warm
    from worktree_guard import client

    warm(repo, {})
    first = json.dumps(payload(repo.worktree, "Bash", {"command": f"cd {outside}"})).encode()
    monkeypatch.chdir(repo.worktree)
    with pytest.raises(client.NoDaemon, match="declined"):
        client.ask_daemon(["hook"], first, spawn=False)
    assert not record_path().exists()
    assert run_hook_process(json.loads(first), cwd=repo.worktree, command=FAST_HOOK).decision == "pass"  # written here
    assert record_path().is_file()
    assert client.ask_daemon(["hook"], first, spawn=False)[:2] == (0, "")  # nothing to write: served
    monkeypatch.chdir(outside)
    write = payload(outside, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"})
    exit_code, out, _ = client.ask_daemon(["hook"], json.dumps(write).encode(), spawn=False)
    assert exit_code == 0 and json.loads(out)["hookSpecificOutput"]["permissionDecisionReason"].endswith("[worktree-guard WG101]"), out
