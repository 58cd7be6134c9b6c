"""State a judgement writes is written once, whoever answers the call (review of issue 12, F5).

Before: the daemon abandons a judgement that runs over its limit and the hook process judges the call again in its
own process; what the abandoned judgement had written stayed. A SubagentStop whose save stalled had counted its
block already, so the second judgement let the stop through with a warning; dispatches and audit lines were
recorded twice. Now the daemon judges with state writes refused (a call that would write is declined before
anything is written, and judged in the hook process), and hands audit lines to the hook process, which appends
them only when it takes the daemon's answer.

The stall is injected with a `sitecustomize` on PYTHONPATH that slows the daemon alone (and gives it a key of its
own): SubagentStore.save, or the audit append, sleeps past daemon.REQUEST_SECONDS after it has written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers import FAST_HOOK, Repo, lifecycle_payload, run_hook_process, subagent_payload, wait_for_daemon
from tests.test_daemon import cache  # noqa: F401 — the fixture: this test's own runtime directory and daemons
from worktree_guard import client, daemon, effects

STALL = """
import sys
if "worktree_guard.daemon" in sys.orig_argv:
    import time
    import worktree_guard.{module} as target
    target = {owner}
    original = getattr(target, "{name}")

    def stalled(*args, **kwargs):
        result = original(*args, **kwargs)
        time.sleep({seconds})
        return result

    setattr(target, "{name}", stalled)
"""


def stalling(tmp_path: Path, module: str, owner: str, name: str) -> dict[str, str]:
    """The environment of a hook whose daemon stalls after `name` of `owner` (an expression in which `target` is
    the module `worktree_guard.<module>`) has done its work."""
    site = tmp_path / f"stall-{name}"
    site.mkdir()
    (site / "sitecustomize.py").write_text(STALL.format(module=module, owner=owner, name=name, seconds=daemon.REQUEST_SECONDS + 1))
    probe = __import__("subprocess").run(
        [__import__("sys").executable, "-c", f"import sys; sys.orig_argv.append('worktree_guard.daemon'); import runpy; runpy.run_path({str(site / 'sitecustomize.py')!r})"],
        capture_output=True,
    )
    assert probe.returncode == 0, probe.stderr  # the stall itself loads (a broken one would prove nothing)
    return {"PYTHONPATH": str(site)}


def warm(repo: Repo, env: dict[str, str]) -> None:
    """Start the daemon of this environment and wait until it listens."""
    run_hook_process(subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "a.py"), "content": "x"}), cwd=repo.worktree, command=FAST_HOOK, env=env)
    wait_for_daemon({**os.environ, **env})


def test_a_stop_whose_save_stalls_in_the_daemon_is_still_blocked_once(repo: Repo, cache: Path, tmp_path: Path) -> None:
    env = stalling(tmp_path, "subagents.state", "target.SubagentStore", "save")
    warm(repo, env)
    started = run_hook_process(lifecycle_payload(repo, "SubagentStart"), cwd=repo.worktree, command=FAST_HOOK, env=env)
    assert str(repo.worktree) in started.stdout
    (repo.main / "README.md").write_text("leaked\n")
    stopped = run_hook_process(lifecycle_payload(repo, "SubagentStop"), cwd=repo.worktree, command=FAST_HOOK, env=env)
    assert stopped.stop_blocked and stopped.output["reason"].endswith("[worktree-guard WG602]")
    saved = next(Path(os.environ["XDG_STATE_HOME"], "worktree-guard", "subagents").glob("*/*.json"))
    assert json.loads(saved.read_text())["blocks"] == 1
    again = run_hook_process(lifecycle_payload(repo, "SubagentStop", stop_hook_active=True), cwd=repo.worktree, command=FAST_HOOK, env=env)
    assert not again.stop_blocked and "WG602" in again.output["systemMessage"]


def test_an_audit_line_is_written_once_when_the_daemon_abandons_the_judgement(repo: Repo, cache: Path, tmp_path: Path) -> None:
    env = stalling(tmp_path, "audit", "target", "append_line")
    log = tmp_path / "audit.jsonl"
    warm(repo, env)
    data = subagent_payload(repo, "Write", {"file_path": str(repo.main / "src" / "app.py"), "content": "x"})
    result = run_hook_process(data, "--audit-log", str(log), cwd=repo.worktree, command=FAST_HOOK, env=env)
    assert result.codes == ["WG101"]
    lines = log.read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["codes"] == ["WG101"]


def test_a_served_calls_audit_line_is_written_by_the_hook_process(repo: Repo, cache: Path, tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    warm(repo, {})
    data = subagent_payload(repo, "Write", {"file_path": str(repo.main / "src" / "app.py"), "content": "x"})
    os.chdir(repo.worktree)
    exit_code, out, _ = client.ask_daemon(["hook", "--audit-log", str(log)], json.dumps(data).encode(), spawn=False)
    assert exit_code == 0 and "WG101" in out  # the daemon served it…
    assert json.loads(log.read_text())["codes"] == ["WG101"]  # …and this process appended its line, once


def test_calls_that_write_state_are_declined_by_the_daemon_before_anything_is_written(repo: Repo, cache: Path) -> None:
    warm(repo, {})
    os.chdir(repo.worktree)
    state = Path(os.environ["XDG_STATE_HOME"], "worktree-guard")
    for data in (
        lifecycle_payload(repo, "SubagentStart"),
        subagent_payload(repo, "Agent", {"description": "d", "prompt": "p", "subagent_type": "general-purpose"}),
    ):
        before = sorted(state.rglob("*")) if state.exists() else []
        with pytest.raises(client.NoDaemon, match="declined"):
            client.ask_daemon(["hook"], json.dumps(data).encode(), spawn=False)
        assert (sorted(state.rglob("*")) if state.exists() else []) == before
        through = run_hook_process(data, cwd=repo.worktree, command=FAST_HOOK)  # judged in the hook process: written
        assert through.returncode == 0
    assert any(state.rglob("workers.json")) and any(state.rglob(f"{repo.agent_id}.json"))


def test_where_writes_are_refused_the_first_write_raises_and_nothing_is_written(tmp_path: Path) -> None:
    from worktree_guard.subagents.state import SubagentStore, sweep

    store = SubagentStore("s1", root=str(tmp_path / "state"))
    with effects.refusing() as lines:
        with pytest.raises(effects.StatefulCall):
            store.record_window("a1", "t", "start")
        with pytest.raises(effects.StatefulCall):
            sweep(str(tmp_path / "state"))
        effects.append_line(str(tmp_path / "audit.jsonl"), b"{}\n")
    assert not (tmp_path / "state").exists() and not (tmp_path / "audit.jsonl").exists()
    assert lines == [(str(tmp_path / "audit.jsonl"), b"{}\n")]
    store.record_window("a1", "t", "start")  # outside, it writes
    assert (tmp_path / "state" / "s1" / "windows.jsonl").exists()
