"""The leak check around a sub-agent (SPEC §5.4), on real repositories with real linked worktrees."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path

import pytest

from tests.helpers import Repo, git, lifecycle_payload, run_hook_inline, run_hook_process
from worktree_guard.subagents.snapshots import CheckoutState, find_leaks, parse_status
from worktree_guard.subagents.state import STALE_AFTER, SubagentStore, state_root, sweep

SESSION = "5f1c2a4e-0000-4000-8000-000000000001"


def start(repo: Repo, **extra) -> dict:
    result = run_hook_inline(lifecycle_payload(repo, "SubagentStart", **extra))
    assert result.returncode == 0 and "Traceback" not in result.stdout
    return result.output or {}


def stop(repo: Repo, **extra):
    return run_hook_inline(lifecycle_payload(repo, "SubagentStop", **extra))


def snapshot_file(repo: Repo, agent_id: str | None = None) -> Path:
    return Path(state_root()) / SESSION / f"{agent_id or repo.agent_id}.json"


def test_start_records_the_shared_checkouts_and_tells_the_sub_agent(repo: Repo) -> None:
    out = start(repo)
    context = out["hookSpecificOutput"]["additionalContext"]
    assert out["hookSpecificOutput"]["hookEventName"] == "SubagentStart"
    assert str(repo.worktree) in context and str(repo.main) in context
    saved = json.loads(snapshot_file(repo).read_text())
    assert saved["worktree_root"] == str(repo.worktree)
    assert {c["root"] for c in saved["checkouts"]} == {str(repo.main), str(repo.sibling), str(repo.outside)}
    main = next(c for c in saved["checkouts"] if c["root"] == str(repo.main))
    assert main["branch"] == "main" and len(main["head"]) == 40
    # Sibling worktrees nested in the main checkout are not its dirty content.
    assert main["dirty"] == {}


def test_state_directory_is_private_and_outside_every_checkout(repo: Repo) -> None:
    start(repo)
    for directory in (Path(state_root()), Path(state_root()) / SESSION):
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    assert stat.S_IMODE(snapshot_file(repo).stat().st_mode) == 0o600
    assert not str(snapshot_file(repo)).startswith(str(repo.base))


def test_switching_the_main_checkouts_branch_blocks_the_stop(repo: Repo) -> None:
    start(repo)
    git("switch", "-q", "-c", "agent-work", cwd=repo.main)
    result = run_hook_process(lifecycle_payload(repo, "SubagentStop"))
    assert result.returncode == 0 and result.stop_blocked
    reason = result.output["reason"]
    assert f"{repo.main} was on main" in reason and "now on agent-work" in reason
    assert reason.endswith("[worktree-guard WG601]")
    assert "WG601" in result.output["systemMessage"]


def test_a_file_written_into_the_main_checkout_blocks_the_stop(repo: Repo) -> None:
    start(repo)
    (repo.main / "src" / "feature.py").write_text("print('leaked')\n")
    result = stop(repo)
    assert result.stop_blocked
    reason = result.output["reason"]
    assert f"{repo.main}/src/feature.py is untracked and was not when you started. [WG602]" in reason
    # How to move it: the same path under the sub-agent's own worktree.
    assert f"cp {repo.main}/src/feature.py {repo.worktree}/src/feature.py" in reason
    assert reason.endswith("[worktree-guard WG602]")


@pytest.mark.parametrize("where", ["sibling", "outside"])
def test_a_file_written_into_another_agents_worktree_is_reported(repo: Repo, where: str) -> None:
    """The sibling lives inside the main checkout's tree, the other one outside it: both are shared checkouts."""
    other = getattr(repo, where)
    start(repo)
    (other / "src" / "app.py").write_text("overwritten\n")
    result = stop(repo)
    assert result.stop_blocked
    assert f"{other}/src/app.py is modified and was not when you started. [WG602]" in result.output["reason"]


def test_a_commit_in_a_sibling_worktree_is_reported(repo: Repo) -> None:
    start(repo)
    (repo.sibling / "README.md").write_text("changed by someone\n")
    git("commit", "-qam", "sneaky", cwd=repo.sibling)
    result = stop(repo)
    assert result.stop_blocked
    assert f"{repo.sibling}: HEAD moved from" in result.output["reason"]
    assert "git cherry-pick" in result.output["reason"]


def test_a_file_dirty_before_the_start_is_not_blamed(repo: Repo) -> None:
    (repo.main / "README.md").write_text("the user's own edit\n")
    (repo.main / "notes.txt").write_text("untracked before\n")
    start(repo)
    # The start recorded them (a start that recorded nothing would make the silent stop below meaningless)…
    saved = json.loads(snapshot_file(repo).read_text())
    main = next(c for c in saved["checkouts"] if c["root"] == str(repo.main))
    assert {path: status for path, (status, _) in main["dirty"].items()} == {"README.md": ".M", "notes.txt": "??"}
    # …and the stop does not blame them.
    result = stop(repo)
    assert result.stdout == ""
    assert not snapshot_file(repo).exists()


def test_a_change_inside_its_own_worktree_is_not_blamed(repo: Repo) -> None:
    start(repo)
    (repo.worktree / "src" / "feature.py").write_text("mine\n")
    (repo.worktree / "README.md").write_text("mine too\n")
    git("switch", "-q", "-c", "my-branch", cwd=repo.worktree)
    assert stop(repo).stdout == ""


def test_a_file_dirty_before_the_start_and_changed_again_is_reported(repo: Repo) -> None:
    """Decision: the change that was there is not blamed; a further change to that file is (content fingerprint)."""
    (repo.main / "README.md").write_text("the user's own edit\n")
    start(repo)
    (repo.main / "README.md").write_text("the user's own edit\nand the sub-agent's\n")
    result = stop(repo)
    assert result.stop_blocked
    assert "README.md had uncommitted changes before you started (modified) and changed again" in result.output["reason"]


def test_discarding_someone_elses_uncommitted_change_is_reported(repo: Repo) -> None:
    (repo.main / "README.md").write_text("the user's own edit\n")
    start(repo)
    git("checkout", "--", "README.md", cwd=repo.main)
    result = stop(repo)
    assert result.stop_blocked and "they are gone now" in result.output["reason"]


def test_runtime_activity_is_not_blamed(repo: Repo) -> None:
    """A new sibling worktree (another sub-agent starting) and Claude Code's own settings.local.json."""
    start(repo)
    git("worktree", "add", "-q", "-b", "worktree-agent-a999", str(repo.main / ".claude" / "worktrees" / "agent-a999"), cwd=repo.main)
    (repo.main / ".claude" / "settings.local.json").write_text("{}\n")
    assert stop(repo).stdout == ""


def test_files_that_only_start_like_the_runtimes_are_leaks(repo: Repo) -> None:
    """Matched whole, not as a prefix of the text (h-sub32): the sub-agent's files beside the runtime's are reported."""
    start(repo)
    (repo.main / ".claude" / "settings.local.json.bak").write_text("{}\n")
    (repo.main / ".claude" / "worktrees" / "notes.txt").write_text("x\n")
    (repo.main / ".claude" / "worktrees" / "agent-fake").mkdir()
    (repo.main / ".claude" / "worktrees" / "agent-fake" / "f").write_text("not a checkout\n")
    result = stop(repo)
    assert result.stop_blocked
    reason = result.output["reason"]
    assert ".claude/settings.local.json.bak" in reason and ".claude/worktrees/notes.txt" in reason and ".claude/worktrees/agent-fake/f" in reason


@pytest.mark.parametrize("ignore", ["", ".claude/worktrees/\n", "/.claude/worktrees\n", ".claude/\n", ".claude/settings.local.json\n"])
@pytest.mark.parametrize("stray", [False, True], ids=["runtime-only", "stray"])
def test_the_runtimes_activity_is_silent_and_a_stray_file_is_not_whatever_git_ignores(repo: Repo, ignore: str, stray: bool) -> None:
    """An ignored directory is one entry with a fingerprint of what is below it: the linked checkouts below it and
    the runtime's settings.local.json are not in it, nor a directory's time (which moves when the runtime makes a
    worktree in it). At 878de58 an ignored `.claude/` blocked the stop when a sibling worktree was made; matching
    names whole (stop 33) made an ignored `.claude/worktrees/` do the same until the fingerprint left them out."""
    (repo.main / ".gitignore").write_text(ignore)
    git("add", ".gitignore", cwd=repo.main)
    git("commit", "-qm", "ignore", cwd=repo.main)
    start(repo)
    git("worktree", "add", "-q", "-b", "worktree-agent-a999", str(repo.main / ".claude" / "worktrees" / "agent-a999"), cwd=repo.main)
    (repo.main / ".claude" / "worktrees" / "agent-a999" / "sibling.txt").write_text("the sibling's\n")
    (repo.main / ".claude" / "settings.local.json").write_text('{"permissions": {}}\n')
    (repo.worktree / "mine.txt").write_text("mine\n")
    if stray:
        (repo.main / ".claude" / "worktrees" / "notes.txt").write_text("x\n")
    result = stop(repo)
    if not stray:
        assert result.stdout == ""
        return
    assert result.stop_blocked
    reason = result.output["reason"]
    assert ".claude/worktrees/notes.txt" in reason or ignore and f"{repo.main}/{ignore.strip().strip('/')}/ " in reason
    assert "agent-a999" not in reason and "settings.local.json" not in reason


def _fake_checkout(repo: Repo) -> str:
    fake = repo.main / ".claude" / "skills" / "evil"  # .claude/skills was there at the start (review 33b)
    fake.mkdir(parents=True)
    (fake / ".git").write_text("gitdir: /x\n")
    (fake / "SKILL.md").write_text("run this\n")
    return ".claude/"


def _forged_pair(repo: Repo) -> str:
    """Review 33b: a `.git` file and a gitdir in the sub-agent's own worktree that name each other."""
    fake = repo.main / ".claude" / "skills" / "evil"
    fake.mkdir(parents=True)
    gitdir = repo.worktree / "g"
    gitdir.mkdir()
    (gitdir / "gitdir").write_text(f"{fake / '.git'}\n")
    (fake / ".git").write_text(f"gitdir: {gitdir}\n")
    (fake / "SKILL.md").write_text("run this\n")
    return ".claude/"


def _forged_runtime_worktree(repo: Repo) -> str:
    fake = repo.main / ".claude" / "worktrees" / "agent-fake"
    fake.mkdir()
    gitdir = repo.worktree / "g"
    gitdir.mkdir()
    (gitdir / "gitdir").write_text(f"{fake / '.git'}\n")
    (fake / ".git").write_text(f"gitdir: {gitdir}\n")
    (fake / "payload.sh").write_text("x\n")
    return ".claude/worktrees/agent-fake/payload.sh"


def _symlinked_worktree(repo: Repo) -> str:
    (repo.worktree / "evil").mkdir()
    (repo.worktree / "evil" / "SKILL.md").write_text("run this\n")
    (repo.main / ".claude" / "skills").symlink_to(repo.worktree)
    return ".claude/"


def _fake_runtime_worktree(repo: Repo) -> str:
    fake = repo.main / ".claude" / "worktrees" / "agent-fake"
    fake.mkdir()
    (fake / ".git").write_text("gitdir: /nowhere\n")
    (fake / "payload.sh").write_text("x\n")
    return ".claude/worktrees/agent-fake/payload.sh"


@pytest.mark.parametrize("ignore,make", [
    (".claude/\n", _fake_checkout), (".claude/\n", _symlinked_worktree), ("", _fake_runtime_worktree),
    (".claude/worktrees/\n", _fake_runtime_worktree), (".claude/\n", _forged_pair), ("", _forged_runtime_worktree),
])
def test_a_git_file_or_symlink_the_sub_agent_made_hides_nothing(repo: Repo, ignore: str, make) -> None:
    """Review 33a: a linked checkout is one git made (its gitdir names it back), never a `.git` file a sub-agent
    wrote, nor a symlink to a checkout; each of these passed the stop silently."""
    (repo.main / ".gitignore").write_text(ignore)
    git("add", ".gitignore", cwd=repo.main)
    git("commit", "-qm", "ignore", cwd=repo.main)
    (repo.main / ".claude" / "skills").mkdir(exist_ok=True)
    (repo.main / ".claude" / "skills" / "kept.md").write_text("the user's\n")
    start(repo)
    if make is _symlinked_worktree:
        (repo.main / ".claude" / "skills" / "kept.md").unlink()
        (repo.main / ".claude" / "skills").rmdir()  # the symlink stands where the directory was
    named = make(repo)
    result = stop(repo)
    assert result.stop_blocked and f"{repo.main}/{ignore.strip() or named}" in result.output["reason"]


def test_a_directory_named_like_the_runtimes_file_is_a_leak(repo: Repo) -> None:
    """h-snap33: git lists an ignored directory `.claude/settings.local.json/` as one entry; stripped of its `/`, it
    was taken for the runtime's file, and what a sub-agent wrote in it was never reported."""
    (repo.main / ".gitignore").write_text(".claude/settings.local.json\n")
    git("add", ".gitignore", cwd=repo.main)
    git("commit", "-qm", "ignore", cwd=repo.main)
    start(repo)
    (repo.main / ".claude" / "settings.local.json").mkdir()
    (repo.main / ".claude" / "settings.local.json" / "payload.sh").write_text("x\n")
    result = stop(repo)
    assert result.stop_blocked and f"{repo.main}/.claude/settings.local.json/" in result.output["reason"]


def test_the_second_stop_goes_through_and_tells_the_user(repo: Repo) -> None:
    start(repo)
    (repo.main / "LEAK.txt").write_text("x\n")
    assert stop(repo).stop_blocked
    second = stop(repo, stop_hook_active=True)
    assert not second.stop_blocked
    assert "LEAK.txt" in second.output["systemMessage"] and "WG602" in second.output["systemMessage"]
    assert not snapshot_file(repo).exists()
    # Nothing left to compare: a third stop is silent, never a loop.
    assert stop(repo, stop_hook_active=True).stdout == ""


def test_a_stop_is_blocked_at_most_once_even_without_stop_hook_active(repo: Repo) -> None:
    start(repo)
    (repo.main / "LEAK.txt").write_text("x\n")
    assert stop(repo).stop_blocked
    assert not stop(repo).stop_blocked


def test_other_sub_agents_in_the_same_window_are_named(repo: Repo) -> None:
    start(repo)
    # A non-isolated Explore agent in the main checkout starts and finishes while ours runs…
    explore = dict(cwd=str(repo.main), agent_id="aexplore0000000001", agent_type="Explore")
    start(repo, **explore)
    stop(repo, **explore)
    # …and the sibling's agent starts and is still running; one that ran before ours started is not named.
    sibling = dict(cwd=str(repo.sibling), agent_id=repo.sibling.name.removeprefix("agent-"), agent_type="reviewer")
    start(repo, **sibling)
    (repo.main / "LEAK.txt").write_text("x\n")
    reason = stop(repo).output["reason"]
    assert "Explore aexplore0000000001 (not isolated, finished)" in reason
    assert f"reviewer {sibling['agent_id']} (isolated in {repo.sibling}, still running)" in reason


def test_no_other_sub_agent_is_said_when_there_was_none(repo: Repo) -> None:
    early = dict(cwd=str(repo.main), agent_id="aearly", agent_type="Explore")
    start(repo, **early)
    stop(repo, **early)
    time.sleep(0.01)
    start(repo)
    (repo.main / "LEAK.txt").write_text("x\n")
    assert "No other sub-agent of this session ran while you did" in stop(repo).output["reason"]


def test_a_sub_agent_that_is_not_isolated_is_not_checked(repo: Repo) -> None:
    explore = dict(cwd=str(repo.main), agent_id="aexplore", agent_type="Explore")
    assert start(repo, **explore) == {}
    assert not snapshot_file(repo, "aexplore").exists()
    (repo.main / "notes.md").write_text("Explore may write where it runs\n")
    assert stop(repo, **explore).stdout == ""


def test_stop_without_a_recorded_start_passes(repo: Repo) -> None:
    assert stop(repo).stdout == ""


def test_stop_cwd_need_not_be_the_worktree(repo: Repo) -> None:
    """What was recorded at the start decides; the stop payload may carry the parent's cwd."""
    start(repo)
    (repo.main / "LEAK.txt").write_text("x\n")
    assert stop(repo, cwd=str(repo.main), agent_type=None).stop_blocked


def test_warn_mode_reports_without_blocking_and_off_mode_records_nothing(repo: Repo) -> None:
    start(repo)
    (repo.main / "LEAK.txt").write_text("x\n")
    warned = run_hook_inline(lifecycle_payload(repo, "SubagentStop"), flags={"mode": "warn"})
    assert not warned.stop_blocked and "WG602" in warned.output["systemMessage"]
    assert run_hook_inline(lifecycle_payload(repo, "SubagentStart"), flags={"mode": "off"}).stdout == ""
    assert not snapshot_file(repo).exists()


def test_leaks_are_recorded_in_the_audit_log(repo: Repo, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    (repo.main / ".worktree-guard.toml").write_text(f'audit_log = "{log}"\n')
    start(repo)
    git("switch", "-q", "-c", "x", cwd=repo.main)
    (repo.main / "LEAK.txt").write_text("x\n")
    stop(repo)
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["tool"] for r in records] == ["SubagentStart", "SubagentStop"]
    assert records[1]["decision"] == "block" and set(records[1]["codes"]) == {"WG601", "WG602"}


def test_a_malformed_stop_payload_never_blocks(repo: Repo) -> None:
    bad = lifecycle_payload(repo, "SubagentStop")
    del bad["agent_id"]
    result = run_hook_process(bad)
    assert result.returncode == 0 and not result.stop_blocked
    assert "WG000" in result.output["systemMessage"] and "agent_id" in result.output["systemMessage"]
    assert "hookSpecificOutput" not in result.output  # never a PreToolUse-shaped reply to a lifecycle event


def test_state_directory_inside_a_checkout_is_refused(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(repo.main / "state"))
    out = start(repo)
    assert "inside the checkout" in out["systemMessage"] and "hookSpecificOutput" not in out
    assert not (repo.main / "state").exists()


def test_stale_state_is_swept(repo: Repo) -> None:
    root = state_root()
    store = SubagentStore("old-session", root)
    store.record_window("aold", "x", "start")
    old = time.time() - STALE_AFTER - 60
    for path in Path(store.session_dir).iterdir():
        os.utime(path, (old, old))
    os.utime(store.session_dir, (old, old))
    start(repo)  # every start sweeps
    assert not Path(store.session_dir).exists()
    assert snapshot_file(repo).exists()


def test_sweep_keeps_at_most_max_snapshots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import worktree_guard.subagents.state as state

    monkeypatch.setattr(state, "MAX_SNAPSHOTS", 3)
    session = tmp_path / "s"
    session.mkdir()
    for i in range(5):
        (session / f"a{i}.json").write_text("{}")
        os.utime(session / f"a{i}.json", (time.time() - 100 + i, time.time() - 100 + i))
    assert sweep(str(tmp_path)) == 2
    assert sorted(p.name for p in session.iterdir()) == ["a2.json", "a3.json", "a4.json"]


def test_ids_from_the_payload_cannot_escape_the_state_directory(repo: Repo) -> None:
    start(repo, agent_id="../../../../escape", session_id="../x")
    files = [p for p in Path(state_root()).rglob("*") if p.is_file()]
    assert files and all(str(p).startswith(state_root()) for p in files)
    assert not any(".." in p.name for p in files)


def test_parse_status_porcelain_v2() -> None:
    out = (
        b"# branch.oid 0123456789abcdef0123456789abcdef01234567\0# branch.head main\0"
        b"1 .M N... 100644 100644 100644 aaa aaa src/a b.py\0"
        b"2 R. N... 100644 100644 100644 aaa aaa R100 new name.py\0old name.py\0"
        b"? untracked file\0"
    )
    head, branch, dirty = parse_status(out)
    assert head == "0123456789abcdef0123456789abcdef01234567" and branch == "main"
    assert dirty == {"src/a b.py": ".M", "new name.py": "R.", "old name.py": "R.", "untracked file": "??"}
    assert parse_status(b"# branch.oid (initial)\0# branch.head (detached)\0")[:2] == (None, None)


def test_find_leaks_on_states() -> None:
    before = CheckoutState(root="/nonexistent", head="a" * 40, branch="main", dirty={"x": (".M", "absent")})
    same = CheckoutState(root="/nonexistent", head="a" * 40, branch="main", dirty={"x": (".M", "")})
    assert find_leaks(before, same) == []
    moved = CheckoutState(root="/nonexistent", head="b" * 40, branch="main", dirty={})
    assert [l.kind for l in find_leaks(before, moved)] == ["head"]  # x was committed: part of the HEAD move


# --- what no PreToolUse hook sees, and the leak check reports (issue 10) -------------------------------------


def test_an_inline_interpreter_writing_into_the_main_checkout_is_reported(repo: Repo) -> None:
    import subprocess
    import sys

    start(repo)
    code = f"open({str(repo.main / 'src' / 'app.py')!r}, 'w').write('rewritten')"
    subprocess.run([sys.executable, "-c", code], cwd=repo.worktree, check=True)
    result = stop(repo)
    assert result.stop_blocked
    assert f"{repo.main}/src/app.py is modified and was not when you started. [WG602]" in result.output["reason"]


def test_a_script_written_in_the_worktree_then_run_is_reported(repo: Repo) -> None:
    import subprocess

    start(repo)
    script = repo.worktree / "gen.sh"
    script.write_text(f"#!/bin/sh\necho generated > {repo.main}/generated.txt\n")
    script.chmod(0o755)
    subprocess.run([str(script)], cwd=repo.worktree, check=True)
    result = stop(repo)
    assert result.stop_blocked
    assert f"{repo.main}/generated.txt is untracked and was not when you started. [WG602]" in result.output["reason"]


def commit(repo: Repo, relative: str, text: str) -> None:
    """A file of the main checkout, written and committed."""
    (repo.main / relative).write_text(text)
    git("add", relative, cwd=repo.main)
    git("commit", "-qm", f"add {relative}", cwd=repo.main)


def test_pycache_written_into_the_main_checkout_by_importing_its_code_is_reported(repo: Repo) -> None:
    """git status does not list ignored files by default: the snapshot asks for them (--ignored=matching)."""
    import subprocess
    import sys

    commit(repo, ".gitignore", "__pycache__/\n")
    commit(repo, "src/lib.py", "X = 1\n")
    start(repo)
    subprocess.run([sys.executable, "-c", "import lib"], cwd=repo.worktree, check=True, env={**os.environ, "PYTHONPATH": str(repo.main / "src"), "PYTHONDONTWRITEBYTECODE": ""})
    assert (repo.main / "src" / "__pycache__").is_dir()
    result = stop(repo)
    assert result.stop_blocked
    assert f"{repo.main}/src/__pycache__/ is a path git ignores and was not when you started. [WG602]" in result.output["reason"]


def test_an_ignored_directory_there_before_is_reported_when_a_file_appears_in_it(repo: Repo) -> None:
    commit(repo, ".gitignore", "build/\n")
    (repo.main / "build").mkdir()
    (repo.main / "build" / "old.o").write_text("old\n")
    start(repo)
    assert stop(repo).stdout == ""  # unchanged: nothing to say
    start(repo)
    (repo.main / "build" / "new.o").write_text("new\n")
    result = stop(repo)
    assert result.stop_blocked and "build/ had uncommitted changes before you started" in result.output["reason"]
