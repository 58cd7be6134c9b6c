"""effects.py exactly, in-process: where state writes are refused and log lines deferred, and how a line is
appended (phase 14 of issue 13: the module was never measured; docs/testing.md)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from worktree_guard import effects


def test_outside_refusing_a_write_is_allowed_and_a_line_is_appended(tmp_path: Path) -> None:
    effects.will_write("anything")  # no exception
    log = tmp_path / "audit.jsonl"
    effects.append_line(str(log), b"one\n")
    effects.append_line(str(log), b"two\n")
    assert log.read_bytes() == b"one\ntwo\n"
    assert stat.S_IMODE(log.stat().st_mode) == 0o600 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_refusing_raises_on_the_first_write_and_collects_the_lines(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    with effects.refusing() as lines:
        with pytest.raises(effects.StatefulCall) as raised:
            effects.will_write("the registry")
        assert raised.value.args == ("the registry",)
        effects.append_line(str(log), b"a\n")
        effects.append_line(str(tmp_path / "other"), b"b\n")
        assert lines == [(str(log), b"a\n"), (str(tmp_path / "other"), b"b\n")]
    assert not log.exists()
    assert lines == [(str(log), b"a\n"), (str(tmp_path / "other"), b"b\n")]
    effects.will_write("after")  # refused no more
    effects.append_line(str(log), b"c\n")
    assert log.read_bytes() == b"c\n"


def test_refusing_nests_and_restores_what_was_there(tmp_path: Path) -> None:
    with effects.refusing() as outer:
        effects.append_line("/outer", b"1\n")
        with effects.refusing() as inner:
            effects.append_line("/inner", b"2\n")
        assert inner == [("/inner", b"2\n")]
        effects.append_line("/outer", b"3\n")
        with pytest.raises(effects.StatefulCall):
            effects.will_write("x")
    assert outer == [("/outer", b"1\n"), ("/outer", b"3\n")]
    assert effects._refusing is False and effects._deferred is None


def test_refusing_restores_after_an_exception() -> None:
    with pytest.raises(ValueError):
        with effects.refusing():
            raise ValueError
    assert effects._refusing is False and effects._deferred is None


def test_a_stateful_call_is_no_exception_a_rule_could_catch() -> None:
    assert not issubclass(effects.StatefulCall, Exception)
    assert issubclass(effects.StatefulCall, BaseException)


def test_write_line_names_a_short_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import posix

    monkeypatch.setattr(posix, "write", lambda fd, data: len(data) - 1)
    log = tmp_path / "audit.jsonl"
    with pytest.raises(OSError) as raised:
        effects.write_line(str(log), b"abc\n")
    assert str(raised.value) == f"short write to {log}: 3 of 4 bytes"


def test_write_line_appends_and_closes(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    log.write_bytes(b"old\n")
    before = len(os.listdir("/proc/self/fd"))
    effects.write_line(str(log), b"new\n")
    assert log.read_bytes() == b"old\nnew\n"
    assert len(os.listdir("/proc/self/fd")) == before
    with pytest.raises(FileNotFoundError):
        effects.write_line(str(tmp_path / "missing" / "x"), b"y\n")
