"""Tests written from the mutation run of `worktree_guard/subagents/state.py` (issue 13, phase 18): the leak check's
private state directory (SPEC §5.4), the records a sub-agent's and the main agent's start leave there, and the sweep.
Each pins what `tests/test_subagent_mutants.py` left open; real files in this test's state directory, in-process."""

from __future__ import annotations

import json
import os
import stat

from worktree_guard.subagents import places, state
from worktree_guard.subagents.state import SubagentStore


def _mode(path: str) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_record_start_writes_the_started_record_where_places_reads_it(tmp_path) -> None:
    # Kills record_start 7 (the name without the session's directory), 10 (`safe_name(None)`), 11, 12 (the suffix),
    # 13 (`json.dumps(None)`).
    root = str(tmp_path / "st")
    layout = {"worktree_root": "/w/wt", "common_dir": "/w/.git", "shared_roots": ["/w"]}
    store = SubagentStore("sess/1", root=root)
    store.record_start("agent/x", layout)
    path = places.started_path("sess/1", "agent/x", root)
    assert os.listdir(store.session_dir) == [os.path.basename(path)]
    assert os.path.basename(path).endswith(".started") and os.path.basename(path).startswith("h-")
    with open(path, encoding="utf-8") as f:
        assert json.loads(f.read()) == layout
    assert places.started_record(json.load(open(path))) == layout
    assert _mode(path) == 0o600
    store.record_start("a1", {"worktree_root": "/w/other", "common_dir": None, "shared_roots": []})
    assert sorted(os.listdir(store.session_dir)) == sorted([os.path.basename(path), "a1.started"])
    assert json.load(open(places.started_path("sess/1", "a1", root))) == {"worktree_root": "/w/other", "common_dir": None, "shared_roots": []}


def test_record_main_writes_the_main_agent_s_record_where_places_reads_it(tmp_path) -> None:
    # Kills record_main 1–8 (its path, its text).
    root = str(tmp_path / "st")
    store = SubagentStore("s1", root=root)
    store.record_main({"worktree_root": None})
    path = places.main_started_path("s1", root)
    assert os.listdir(store.session_dir) == [places.MAIN_STARTED]
    assert places.read_main_started(path) == {"worktree_root": None, "moving": False}
    record = {"worktree_root": "/w/wt", "common_dir": "/w/.git", "shared_roots": ["/w"], "moving": True, "launch": "/w/wt"}
    store.record_main(record)
    assert json.load(open(path)) == record
    assert places.read_main_started(path) == record
    assert _mode(path) == 0o600 and _mode(store.session_dir) == 0o700
    assert os.listdir(store.session_dir) == [places.MAIN_STARTED]


def _aged(path, seconds_before: float, now: float) -> None:
    os.utime(path, (now - seconds_before, now - seconds_before))


def test_sweep_passes_over_an_entry_it_cannot_examine_and_counts_every_file_it_removed(tmp_path, monkeypatch) -> None:
    # Kills sweep 30 (`break` for `continue` after a failed stat) and 33 (`removed = ...` for `+=`): a dangling symlink
    # (its stat fails) listed before two stale files does not stop the sweep, and both stale files are counted.
    now = 10_000_000.0
    root = tmp_path / "st"
    session = root / "s"
    session.mkdir(parents=True)
    os.symlink(str(tmp_path / "gone"), str(session / "a-dangling"))
    for name in ("b.json", "c.started"):
        (session / name).write_text("{}")
        _aged(session / name, state.STALE_AFTER + 1, now)
    real = os.listdir
    monkeypatch.setattr(os, "listdir", lambda p: sorted(real(p)))  # the dangling link first, whatever the file system's order
    assert state.sweep(str(root), now=now) == 2
    assert os.listdir(session) == ["a-dangling"]


def test_sweep_keeps_a_file_exactly_stale_after_old_and_a_session_exactly_a_minute_old(tmp_path) -> None:
    # Kills sweep 32 (`>=` for `>` on STALE_AFTER) and 41 (`>=` for `>` on the session's minute).
    now = 10_000_000.0
    root = tmp_path / "st"
    kept, empty = root / "kept", root / "empty"
    kept.mkdir(parents=True)
    empty.mkdir()
    (kept / "a.json").write_text("{}")
    _aged(kept / "a.json", state.STALE_AFTER, now)
    _aged(kept, 61, now)
    _aged(empty, 60, now)
    assert state.sweep(str(root), now=now) == 0
    assert sorted(os.listdir(root)) == ["empty", "kept"] and os.listdir(kept) == ["a.json"]
    assert state.sweep(str(root), now=now + 0.5) == 1  # half a second later: the file is stale, both sessions go
    assert os.listdir(root) == []


def test_a_private_directory_is_private_from_its_creation(tmp_path, monkeypatch) -> None:
    # Kills _private_dir 6 (makedirs at the default mode) and 8 (0o701): under a usual umask (022) the directory
    # must not exist for a moment with group or other bits, to be tightened only afterwards.
    chmods = []
    real = os.chmod
    monkeypatch.setattr(os, "chmod", lambda p, m, **kw: chmods.append((str(p), m)) or real(p, m, **kw))
    old = os.umask(0o022)
    try:
        made = state._private_dir(str(tmp_path / "fresh"))
        store = SubagentStore("s", root=str(tmp_path / "state" / "subagents"))
        store.record_start("a1", {"worktree_root": "/w"})
    finally:
        os.umask(old)
    assert _mode(made) == 0o700
    assert [_mode(d) for d in (store.session_dir, store.root, os.path.dirname(store.root))] == [0o700] * 3
    assert chmods == []


def test_write_truncates_a_temp_file_a_crashed_write_left(tmp_path) -> None:
    # Kills _write 9 (`O_TRUNC & O_CLOEXEC`: neither flag): a leftover temp file of the same process and thread, longer
    # than the new text, must not leave its tail in the record that replaces the old one.
    import threading

    store = SubagentStore("s", root=str(tmp_path / "st"))
    store.record_start("a1", {"worktree_root": "/w/one"})
    path = places.started_path("s", "a1", store.root)
    temp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
    with open(temp, "w") as f:
        f.write(" " * 10 + "x" * 4096)
    store.record_start("a1", {"worktree_root": "/w/two"})
    with open(path, encoding="utf-8") as f:
        assert f.read() == json.dumps({"worktree_root": "/w/two"})
    assert os.listdir(store.session_dir) == ["a1.started"]
