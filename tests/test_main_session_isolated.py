"""A main agent the runtime started in a linked worktree stays isolated when its cwd leaves it.

`claude --worktree` and `cd W && claude` put a main agent (no agent id) in a linked worktree W, where its calls are
isolated. Claude Code's `cwd` follows `cd` (research/hook-protocols.md §1.4), and `cd /tmp/t` is allowed (the temp
dir is in the default allow-list): before, its next calls, made from /tmp/t, were judged as those of an agent
outside any checkout, not isolated, so a write, a `git checkout` or a `cd` into the main checkout passed, and so
did everything in a clone it made there. The session's first judged call now records what the runtime chose —
W, or free (subagents/main_agent.py) — and a session recorded in W is judged with W wherever its cwd is outside W,
until a judged ExitWorktree is followed by a call in the main checkout.
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
    assert json.loads(record_path().read_text()) == {"worktree_root": None, "moving": False}  # started free: once, for the session


def test_a_session_that_started_free_is_isolated_in_a_sibling_only_while_there(repo: Repo, outside: Path) -> None:
    """A main agent in the main checkout that `cd`s into a sub-agent's worktree to review it is isolated there (its
    cwd), and free again from /tmp/t or the main checkout: its session started free (review finding 2)."""
    assert call(repo.main, "Bash", {"command": f"cd {repo.sibling}"}) == "pass"
    assert call(repo.sibling, "Write", {"file_path": str(repo.sibling / "a.txt"), "content": "x"}) == "pass"
    assert call(repo.sibling, "Bash", {"command": f"cd {repo.main}"}) == ["WG201"]  # as before: its cwd isolates it
    assert call(repo.sibling, "Bash", {"command": f"cd {outside}"}) == "pass"
    assert call(outside, "Bash", {"command": f"cd {repo.main}"}) == "pass"
    assert call(outside, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == "pass"
    assert call(repo.main, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == "pass"
    assert json.loads(record_path().read_text()) == {"worktree_root": None, "moving": False}


def test_another_sessions_record_does_not_confine_it(repo: Repo, left: Path) -> None:
    other = "5f1c2a4e-0000-4000-8000-000000000002"
    assert call(left, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}, session_id=other) == "pass"


def test_a_call_without_a_session_id_leaves_no_record(repo: Repo, outside: Path) -> None:
    """Sessions without ids cannot be told apart: a shared record would confine every such session's agent."""
    body = payload(repo.worktree, "Write", {"file_path": str(repo.worktree / "a.txt"), "content": "x"})
    del body["session_id"]
    assert run_hook_inline(body).decision == "pass"
    assert not any(Path(os.environ["XDG_STATE_HOME"]).rglob("@main.started"))


def test_a_link_extracted_and_entered_in_one_call_is_no_way_back(repo: Repo, left: Path) -> None:
    """`echo <b64 tar holding m -> <main>> | base64 -d | tar -x -C /tmp/t && cd /tmp/t/m`: when it is judged, the
    `cd` target does not exist yet and lies in the temp dir, so it passes; the cwd is then the main checkout, and
    no `cd` the guard refused got it there. The record applies there too, and in a sibling (review finding 1)."""
    import base64
    import io
    import subprocess
    import tarfile

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        member = tarfile.TarInfo("m")
        member.type, member.linkname = tarfile.SYMTYPE, str(repo.main)
        tar.addfile(member)
    trick = f"echo {base64.b64encode(buffer.getvalue()).decode()} | base64 -d | tar -x -C {left} && cd {left}/m"
    assert call(left, "Bash", {"command": trick}) == "pass"  # nothing to see yet: the gap this record closes
    subprocess.run(["bash", "-c", trick], cwd=left, check=True)
    for where in (left / "m", repo.main):  # Claude Code may report the logical or the physical directory
        assert call(where, "Bash", {"command": "git checkout -q -b evil"}) == ["WG301"]
        assert call(where, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]
    assert call(repo.sibling, "Write", {"file_path": str(repo.sibling / "a.txt"), "content": "x"}) == ["WG101"]
    assert call(left, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]
    assert json.loads(record_path().read_text())["worktree_root"] == str(repo.worktree)


def test_a_first_call_already_in_the_main_checkout_through_a_link_is_confined(repo: Repo) -> None:
    """The same trick from W itself: the first call recorded W, the next one comes from the main checkout."""
    assert call(repo.worktree, "Write", {"file_path": str(repo.worktree / "a.txt"), "content": "x"}) == "pass"
    link = repo.worktree / "m"
    link.symlink_to(repo.main)
    assert call(link, "Bash", {"command": "git checkout -q -b evil"}) == ["WG301"]
    assert call(repo.main, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]


def test_exit_worktree_then_a_call_in_the_main_checkout_frees_the_session(repo: Repo, left: Path) -> None:
    """ExitWorktree (the runtime's word), asked for from W, puts the cwd back in the main checkout: judged from
    there, and free for the rest of the session, a later `cd /tmp/t` included."""
    assert call(left, "ExitWorktree", {"action": "keep"}) == "pass"  # from /tmp/t: marks nothing
    assert json.loads(record_path().read_text())["moving"] is False
    assert call(repo.worktree, "ExitWorktree", {"action": "keep"}) == "pass"
    assert json.loads(record_path().read_text())["moving"] is True
    assert call(repo.main, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == "pass"
    assert json.loads(record_path().read_text()) == {"worktree_root": None, "moving": False}
    assert call(left, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == "pass"
    assert call(repo.main, "Bash", {"command": "git checkout -q -b x"}) == "pass"


def test_an_exit_the_runtime_refused_leaves_the_record(repo: Repo) -> None:
    """ExitWorktree, then a call still in W (the runtime refused the exit): the mark is consumed there, and a later
    call in the main checkout (the link trick) is judged with W."""
    assert call(repo.worktree, "ExitWorktree", {"action": "remove", "discard_changes": True}) == "pass"
    assert call(repo.worktree, "Write", {"file_path": str(repo.worktree / "a.txt"), "content": "x"}) == "pass"
    assert json.loads(record_path().read_text())["moving"] is False
    assert call(repo.main, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]
    assert call(repo.main, "Bash", {"command": "git checkout -q -b evil"}) == ["WG301"]


def test_a_sibling_worktree_is_another_agents(repo: Repo, left: Path) -> None:
    """A sibling worktree does not move the record (review finding 1): it stays a shared checkout."""
    assert call(repo.sibling, "Write", {"file_path": str(repo.sibling / "a.txt"), "content": "x"}) == ["WG101"]
    assert call(left, "Write", {"file_path": str(repo.worktree / "a.txt"), "content": "x"}) == "pass"
    assert json.loads(record_path().read_text())["worktree_root"] == str(repo.worktree)


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


def test_a_record_that_makes_no_sense_is_unknown_for_the_session(repo: Repo, left: Path) -> None:
    assert record_path().is_file()
    for text, cause in (("{not json", "its start record cannot be read"), ('{"worktree_root": "relative"}', "its start record names no worktree")):
        record_path().write_text(text)
        for where in (left, repo.worktree, repo.main):
            result = run_hook_inline(payload(where, "Write", {"file_path": str(where / "x"), "content": "x"}))
            assert result.decision == "deny" and result.codes == ["WG000"] and cause in result.reason, result.stdout


def test_no_state_directory_is_no_record(repo: Repo, outside: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """XDG_STATE_HOME under a regular file: reading the record is ENOTDIR, nothing can have been written there, and
    writing fails. Every call is judged as without this record (before, WG000 for every call: review finding 3)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker / "state"))
    assert call(repo.worktree, "Write", {"file_path": str(repo.worktree / "a.txt"), "content": "x"}) == "pass"
    assert call(repo.worktree, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]
    assert call(repo.main, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == "pass"
    assert call(outside, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == "pass"


def test_an_unwritable_state_directory_leaves_calls_judged_as_usual(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """A record that cannot be written never turns a judged call into WG000 (before: every call in W was refused)."""
    import errno

    from worktree_guard.subagents.state import SubagentStore

    def refused(self: SubagentStore) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", self.session_dir)

    monkeypatch.setattr(SubagentStore, "_ensure", refused)  # as root, no mode makes a directory unwritable
    assert call(repo.worktree, "Write", {"file_path": str(repo.worktree / "a.txt"), "content": "x"}) == "pass"
    assert call(repo.worktree, "Bash", {"command": f"git -C {repo.main} checkout -q -b x"}) == ["WG301"]
    assert not record_path().exists()


def test_a_record_that_cannot_be_read_refuses_only_outside_every_checkout(repo: Repo, outside: Path) -> None:
    """A read error other than "no such file" (here EISDIR): in a checkout the cwd places the agent; in none,
    where the record matters most, the call is refused (fail closed)."""
    record_path().mkdir(parents=True)
    assert call(repo.worktree, "Write", {"file_path": str(repo.worktree / "a.txt"), "content": "x"}) == "pass"
    assert call(repo.worktree, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]
    assert call(repo.main, "Write", {"file_path": str(repo.main / "a.txt"), "content": "x"}) == "pass"
    result = run_hook_inline(payload(outside, "Write", {"file_path": str(outside / "x"), "content": "x"}))
    assert result.decision == "deny" and result.codes == ["WG000"] and "worktree record cannot be read" in result.reason, result.stdout


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


def test_an_exit_asked_for_from_the_main_checkout_frees_nothing(repo: Repo, left: Path) -> None:
    """The link trick put the cwd in the main checkout (still confined); an ExitWorktree from there is no move of
    the runtime's (it would not have had to move the agent there): no mark, and the next call is still judged with W
    (the second review's finding 1)."""
    assert call(repo.main, "ExitWorktree", {"action": "keep"}) == "pass"
    assert json.loads(record_path().read_text())["moving"] is False
    assert call(repo.main, "Bash", {"command": "git checkout -q -b evil"}) == ["WG301"]
    assert call(repo.main, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]


@pytest.mark.parametrize("where", ["worktree", "main", "outside"])
def test_enter_worktree_is_refused_to_a_session_recorded_in_w(repo: Repo, left: Path, where: str) -> None:
    """By `name` the runtime resumes an existing worktree (a sibling agent's) or makes a new one, by `path` it
    enters one (even inside W, an older runtime first went to the main checkout), and an ExitWorktree from there
    returns to the main checkout: every move away from W is refused to a session recorded in W (the third
    review's findings 1, 2 and 4), wherever its cwd is."""
    cwd = {"worktree": repo.worktree, "main": repo.main, "outside": left}[where]
    assert call(cwd, "EnterWorktree", {"name": repo.sibling.name}) == ["WG505"]
    assert call(cwd, "EnterWorktree", {"name": "fresh"}) == ["WG505"]
    assert call(cwd, "EnterWorktree", {"path": str(repo.worktree / "src")}) == ["WG505"]
    assert json.loads(record_path().read_text())["worktree_root"] == str(repo.worktree)


def test_a_free_session_is_not_locked_by_an_exit_it_asks_for_in_a_sibling(repo: Repo, outside: Path) -> None:
    """A session that started free, reviewing a sibling's work from there, asks for ExitWorktree (the runtime has
    no worktree session to leave): the next call in the sibling records nothing, and /tmp/t is free (the third
    review's finding 3)."""
    assert call(repo.main, "Bash", {"command": "git status"}) == "pass"
    assert call(repo.sibling, "ExitWorktree", {"action": "keep"}) == "pass"
    assert call(repo.sibling, "Bash", {"command": f"cd {outside}"}) == "pass"
    assert json.loads(record_path().read_text()) == {"worktree_root": None, "moving": False}
    assert call(outside, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == "pass"


def test_a_refused_enter_worktree_marks_nothing(repo: Repo, left: Path) -> None:
    assert call(left, "EnterWorktree", {"path": str(repo.sibling)}) == ["WG505"]
    assert json.loads(record_path().read_text())["moving"] is False
    assert call(repo.sibling, "Write", {"file_path": str(repo.sibling / "b.txt"), "content": "x"}) == ["WG101"]


def test_enter_worktree_does_not_record_a_session_that_started_free(repo: Repo, outside: Path) -> None:
    """A known gap, pinned so that a change to it is seen: EnterWorktree from a free session records nothing; the
    worktree it enters isolates the agent by its cwd alone."""
    assert call(repo.main, "EnterWorktree", {"name": "feature"}) == "pass"
    assert call(repo.worktree, "Bash", {"command": f"cd {outside}"}) == "pass"
    assert json.loads(record_path().read_text()) == {"worktree_root": None, "moving": False}


def test_an_exit_back_to_the_launch_worktree_frees_the_session(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """`claude --worktree` launched from a linked worktree (CLAUDE_PROJECT_DIR, set by the runtime): ExitWorktree
    returns there, not to the main checkout, and frees the session (the fourth review's finding 1)."""
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(repo.outside))
    assert call(repo.worktree, "Bash", {"command": "git status"}) == "pass"
    assert call(repo.worktree, "ExitWorktree", {"action": "keep"}) == "pass"
    assert call(repo.outside, "Write", {"file_path": str(repo.outside / "a.txt"), "content": "x"}) == "pass"
    assert json.loads(record_path().read_text()) == {"worktree_root": None, "moving": False}


def test_an_exit_somewhere_else_than_the_launch_directory_frees_nothing(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(repo.outside))
    assert call(repo.worktree, "ExitWorktree", {"action": "keep"}) == "pass"
    assert call(repo.sibling, "Write", {"file_path": str(repo.sibling / "a.txt"), "content": "x"}) == ["WG101"]
    assert json.loads(record_path().read_text())["moving"] is False


def test_enter_worktree_as_the_first_call_in_w_is_refused(repo: Repo) -> None:
    """The call that records W is already the session's in W: EnterWorktree is refused there too (review 4, 2)."""
    assert call(repo.worktree, "EnterWorktree", {"name": repo.sibling.name}) == ["WG505"]
    assert json.loads(record_path().read_text())["worktree_root"] == str(repo.worktree)


def test_a_sweep_that_fails_does_not_cost_the_record(repo: Repo, outside: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An old session directory the sweep cannot remove (left by another user): the record is written anyway."""
    from worktree_guard.subagents import state

    def refuse(root: str) -> None:
        raise PermissionError(13, "Permission denied", root)

    monkeypatch.setattr(state, "sweep", refuse)
    assert call(repo.worktree, "Bash", {"command": f"cd {outside}"}) == "pass"
    assert call(outside, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]


def test_a_launch_directory_above_the_repository_frees_only_outside_its_checkouts(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """Launched above the repository: after the exit, a call in a checkout below the launch directory (a sibling
    worktree, the main checkout's) is no return there (review 6, M1)."""
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(repo.base))
    assert call(repo.worktree, "ExitWorktree", {"action": "keep"}) == "pass"
    assert call(repo.outside, "Write", {"file_path": str(repo.outside / "a.txt"), "content": "x"}) == ["WG101"]


def test_a_launch_directory_inside_w_frees_nothing(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """`cd W/src && claude`: an ExitWorktree the runtime treats as a no-op leaves the cwd in W/src, which is no
    return (review 6, M2 and M3)."""
    (repo.worktree / "src").mkdir(exist_ok=True)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(repo.worktree / "src"))
    assert call(repo.worktree / "src", "ExitWorktree", {"action": "keep"}) == "pass"
    assert call(repo.worktree / "src", "Bash", {"command": "git status"}) == "pass"
    assert json.loads(record_path().read_text())["worktree_root"] == str(repo.worktree)


# --- what mutation testing found untested (issue 13): the record's fields, the guards of its first call ---------


def judged(cwd: Path, tool: str, tool_input: dict[str, str], **flags: object):
    """The engine's verdict for a main-agent call (the record as the hook left it), with its violations' fields."""
    from tests.test_bash_rules import PM
    from worktree_guard.engine import build_context, decide
    from worktree_guard.runtimes.claude_code import to_tool_call

    agent_call = to_tool_call(payload(cwd, tool, tool_input))
    return decide(agent_call, build_context(agent_call, flags=flags or None, pm=PM))


def test_the_enter_worktree_refusal_names_the_recorded_worktree(repo: Repo, left: Path) -> None:
    (found,) = judged(repo.main, "EnterWorktree", {"name": "fresh"}).violations
    w = str(repo.worktree)
    assert (found.code, found.rule, found.tool, found.worktree_root) == ("WG505", "main-agent", "EnterWorktree", w)
    assert found.message == (
        f"This session's agent is confined to its worktree {w}, where the session started: EnterWorktree would "
        f"move it to another worktree. Stay in {w}.")


def test_an_unreadable_record_refuses_enter_worktree_in_the_worktree_the_agent_is_in(repo: Repo) -> None:
    """The cwd places the agent (isolated in the sibling worktree it is in), and whether the session is confined is
    what the record would say: unknown, EnterWorktree is refused, naming the worktree it is in."""
    record_path().mkdir(parents=True)  # EISDIR
    (found,) = judged(repo.sibling, "EnterWorktree", {"name": "fresh"}).violations
    assert (found.code, found.rule, found.worktree_root) == ("WG505", "main-agent", str(repo.sibling))


def test_a_call_placed_by_the_record_says_so(repo: Repo, left: Path) -> None:
    """`explain`, `check` and doctor show where W came from: the record, not the cwd."""
    from tests.test_bash_rules import PM
    from worktree_guard.engine import build_context
    from worktree_guard.runtimes.claude_code import to_tool_call
    from worktree_guard.subagents.main_agent import SOURCE

    ctx = build_context(to_tool_call(payload(left, "Bash", {"command": "ls"})), pm=PM)
    assert (ctx.layout.worktree_root, ctx.layout.source, ctx.isolation.isolated) == (str(repo.worktree), SOURCE, True)


@pytest.mark.parametrize("flags", [{"worktree_root": "W"}, {"isolated": False}, {"isolated": True}], ids=["configured-w", "not-isolated", "main-isolated"])
def test_a_first_call_whose_worktree_or_isolation_is_configured_records_the_session_free(repo: Repo, outside: Path, flags: dict) -> None:
    """Only the runtime's choice is recorded: a W the configuration names applies wherever it is configured, an
    agent in W that the configuration leaves unisolated is not confined later, and one the configuration isolates
    in the main checkout has no worktree to record."""
    where = repo.main if flags == {"isolated": True} else repo.worktree
    flags = {k: (str(repo.worktree) if v == "W" else v) for k, v in flags.items()}
    run_hook_inline(payload(where, "Bash", {"command": "git status"}), flags=flags)
    assert json.loads(record_path().read_text()) == {"worktree_root": None, "moving": False}
    assert call(outside, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == "pass"


def test_a_free_record_is_written_once_and_never_turns_into_w(repo: Repo, outside: Path) -> None:
    """Started free in the main checkout: the record is written at once, so a later first-looking call in a
    sibling worktree (a review of its work) is no start in W."""
    assert call(repo.main, "Bash", {"command": "git status"}) == "pass"
    assert json.loads(record_path().read_text()) == {"worktree_root": None, "moving": False}
    assert call(repo.sibling, "Bash", {"command": "git status"}) == "pass"
    assert call(outside, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == "pass"


def test_the_first_main_agent_call_sweeps_old_sessions(repo: Repo) -> None:
    """A session without sub-agents (no SubagentStart) still clears what crashed sessions left."""
    import time

    from worktree_guard.subagents.state import STALE_AFTER

    stale = record_path("5f1c2a4e-0000-4000-8000-0000000000aa")
    stale.parent.mkdir(parents=True)
    stale.write_text('{"worktree_root": null}')
    old = time.time() - STALE_AFTER - 600
    for path in (stale, stale.parent):
        os.utime(path, (old, old))
    assert call(repo.worktree, "Bash", {"command": "git status"}) == "pass"
    assert record_path().is_file() and not stale.exists()


def test_a_record_without_a_repository_returns_only_to_its_launch_directory(repo: Repo) -> None:
    """A record may name no common git dir (as a sub-agent's may): a marked one is then no return to any main
    worktree, and the session stays confined there."""
    record_path().parent.mkdir(parents=True)
    record_path().write_text(json.dumps({"worktree_root": str(repo.worktree), "common_dir": None, "shared_roots": [str(repo.main)], "moving": True}))
    assert call(repo.main, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}) == ["WG101"]


def test_an_internal_error_before_the_call_is_placed_fails_closed_for_a_confined_session(repo: Repo, left: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An error before the context exists: the record, not the cwd in no checkout, says the agent is confined."""
    from worktree_guard import engine

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "build_context", broken)
    result = run_hook_inline(payload(left, "Write", {"file_path": str(left / "a.txt"), "content": "x"}))
    assert result.decision == "deny" and result.codes == ["WG000"], result.stdout


def test_an_internal_error_for_a_free_session_outside_every_checkout_is_no_refusal(repo: Repo, outside: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from worktree_guard import engine

    assert call(repo.main, "Bash", {"command": "git status"}) == "pass"

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(engine, "build_context", broken)
    result = run_hook_inline(payload(outside, "Write", {"file_path": str(outside / "a.txt"), "content": "x"}))
    assert result.decision != "deny", result.stdout


def test_an_unreadable_record_refuses_enter_worktree_to_an_agent_with_a_configured_worktree(repo: Repo) -> None:
    """A W the configuration names is never recorded (its first call records the session free), but whether this
    session was recorded in a worktree is unknown: EnterWorktree is refused, naming the configured W."""
    record_path().mkdir(parents=True)  # EISDIR
    agent_call = payload(repo.worktree, "EnterWorktree", {"name": "fresh"})
    result = run_hook_inline(agent_call, flags={"worktree_root": str(repo.worktree)})
    assert result.decision == "deny" and result.codes == ["WG505"], result.stdout
    assert f"confined to its worktree {repo.worktree}," in result.reason
