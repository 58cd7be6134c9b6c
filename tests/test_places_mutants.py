"""Where the sub-agent state lives (`worktree_guard/subagents/places.py`), each function called directly: tests
written from its mutation run (issue 13, phase 20). The functions moved here from `subagents/state` and
`subagents/main_agent` after phase 5 and were reached only through the hook; these rows pin each one's exact
answer (the file names ids become, the start records accepted and refused, the wave pre-check's yes and no)."""

from __future__ import annotations

import hashlib
import json
import os
from types import SimpleNamespace

import pytest

from worktree_guard.subagents import places

MIB = 1 << 20


def _hashed(text: str) -> str:
    return "h-" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


# --- state_root, waves_root ---------------------------------------------------------------------------------


def test_state_root_takes_an_absolute_xdg_state_home_and_ignores_a_relative_one(monkeypatch) -> None:
    assert places.state_root({"XDG_STATE_HOME": "/x/state", "HOME": "/h"}) == "/x/state/worktree-guard/subagents"
    assert places.state_root({"XDG_STATE_HOME": "rel/state", "HOME": "/h"}) == "/h/.local/state/worktree-guard/subagents"
    assert places.state_root({"XDG_STATE_HOME": "", "HOME": "/h"}) == "/h/.local/state/worktree-guard/subagents"
    assert places.state_root({"HOME": "/h"}) == "/h/.local/state/worktree-guard/subagents"
    monkeypatch.setenv("XDG_STATE_HOME", "/from/environ")
    assert places.state_root() == "/from/environ/worktree-guard/subagents"
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.setenv("HOME", "/home/env")
    assert places.state_root() == "/home/env/.local/state/worktree-guard/subagents"


def test_waves_root_is_beside_the_subagents_directory(monkeypatch) -> None:
    assert places.waves_root({"XDG_STATE_HOME": "/x/state"}) == "/x/state/worktree-guard/waves"
    monkeypatch.setenv("XDG_STATE_HOME", "/from/environ")
    assert places.waves_root() == "/from/environ/worktree-guard/waves"


# --- safe_name, started_path, main_started_path -------------------------------------------------------------


ALL_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"  # every character a plain id may use


@pytest.mark.parametrize("text", ["abc", "A-b_c.9", "x" * 100, "a.", "a-", "X1", "XX", ALL_SAFE])
def test_safe_name_keeps_a_plain_id(text: str) -> None:
    assert places.safe_name(text) == text


@pytest.mark.parametrize("text", ["x" * 101, ".hidden", "-opt", "..", "a/b", "a b", "é", "a\udcff", "@main"])
def test_safe_name_hashes_any_other_id(text: str) -> None:
    assert places.safe_name(text) == _hashed(text)


def test_safe_name_of_no_id_is_no_session() -> None:
    assert places.safe_name(None) == "no-session"
    assert places.safe_name("") == "no-session"


def test_started_path_and_main_started_path(monkeypatch) -> None:
    assert places.started_path("s1", "a1", "/r") == "/r/s1/a1.started"
    assert places.started_path(None, "a/1", "/r") == f"/r/no-session/{_hashed('a/1')}.started"
    assert places.main_started_path("s/1", "/r") == f"/r/{_hashed('s/1')}/@main.started"
    monkeypatch.setenv("XDG_STATE_HOME", "/st")
    assert places.started_path("s1", "a1") == "/st/worktree-guard/subagents/s1/a1.started"
    assert places.main_started_path("s1") == "/st/worktree-guard/subagents/s1/@main.started"


# --- start_sessions, keys_of --------------------------------------------------------------------------------


def test_start_sessions_adds_a_dispatcher_named_apart() -> None:
    assert places.start_sessions(SimpleNamespace(session_id="s")) == ["s"]
    assert places.start_sessions(SimpleNamespace(session_id="s", parent_id=None)) == ["s"]
    assert places.start_sessions(SimpleNamespace(session_id="s", parent_id="")) == ["s"]
    assert places.start_sessions(SimpleNamespace(session_id="s", parent_id="s")) == ["s"]
    assert places.start_sessions(SimpleNamespace(session_id="s", parent_id="p")) == ["s", "p"]
    assert places.start_sessions(SimpleNamespace(session_id=None, parent_id="p")) == [None, "p"]


def test_keys_of_lists_the_agent_its_session_and_its_dispatcher() -> None:
    assert places.keys_of(SimpleNamespace(agent_id="a", session_id="s", parent_id="p")) == ["agent:a", "session:s", "dispatcher:p"]
    assert places.keys_of(SimpleNamespace(agent_id="a")) == ["agent:a"]
    assert places.keys_of(SimpleNamespace(session_id="s")) == ["session:s"]
    assert places.keys_of(SimpleNamespace(parent_id="p")) == ["dispatcher:p"]
    assert places.keys_of(SimpleNamespace(agent_id="", session_id=None, parent_id=7)) == []
    assert places.keys_of(object()) == []


# --- started_record, started_layout -------------------------------------------------------------------------

GOOD = {"worktree_root": "/w/wt", "common_dir": "/w/.git", "shared_roots": ["/w", "/v"]}


def test_started_record_keeps_the_three_fields_only() -> None:
    assert places.started_record({**GOOD, "other": 1}) == GOOD
    assert places.started_record({**GOOD, "common_dir": None, "shared_roots": []}) == {"worktree_root": "/w/wt", "common_dir": None, "shared_roots": []}


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        "text",
        {},
        {**GOOD, "worktree_root": None},
        {**GOOD, "worktree_root": "wt"},
        {**GOOD, "worktree_root": 5},
        {**GOOD, "common_dir": 5},
        {**GOOD, "common_dir": ["/w/.git"]},
    ],
)
def test_started_record_refuses_a_record_that_names_no_worktree(data) -> None:
    with pytest.raises(ValueError, match=r"^its start record names no worktree$"):
        places.started_record(data)


@pytest.mark.parametrize(
    "shared",
    [None, "/w", ("/w",), ["w"], ["/w", "v"], ["/w", 5], [None]],
)
def test_started_record_refuses_shared_roots_that_are_no_list_of_absolute_paths(shared) -> None:
    with pytest.raises(ValueError, match=r"^its start record names no shared checkouts$"):
        places.started_record({**GOOD, "shared_roots": shared})
    if shared is not None:
        data = dict(GOOD)
        del data["shared_roots"]
        with pytest.raises(ValueError, match=r"^its start record names no shared checkouts$"):
            places.started_record(data)


def _write(path: str, data: bytes | str) -> str:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())
    return path


def test_started_layout_reads_the_record_of_an_isolated_start(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert places.started_layout("s", "a") is None
    _write(places.started_path("s", "a"), json.dumps({**GOOD, "extra": True}))
    assert places.started_layout("s", "a") == GOOD
    assert places.started_layout(None, "a") is None
    _write(places.started_path(None, "a"), json.dumps(GOOD))
    assert places.started_layout(None, "a") == GOOD


def test_started_layout_refuses_a_record_it_cannot_read(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    path = places.started_path("s", "a")
    os.makedirs(path)  # a directory: IsADirectoryError, an OSError
    with pytest.raises(ValueError, match=r"^its start record cannot be read \(\[Errno 21\] Is a directory: ") as caught:
        places.started_layout("s", "a")
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
    os.rmdir(path)
    _write(path, "{not json")
    with pytest.raises(ValueError, match=r"^its start record cannot be read \(Expecting property name"):
        places.started_layout("s", "a")
    _write(path, json.dumps({**GOOD, "worktree_root": "rel"}))
    with pytest.raises(ValueError, match="names no worktree"):
        places.started_layout("s", "a")


def _padded(record: dict, size: int) -> str:
    """`record` as JSON of exactly `size` bytes, the padding inside a string (cut short, it is no JSON)."""
    text = json.dumps({**record, "pad": ""})
    return json.dumps({**record, "pad": "x" * (size - len(text))})


def test_started_layout_reads_one_mebibyte_and_no_more(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    path = places.started_path("s", "a")
    _write(path, _padded(GOOD, MIB))
    assert places.started_layout("s", "a") == GOOD
    _write(path, _padded(GOOD, MIB + 1))
    with pytest.raises(ValueError, match="cannot be read"):
        places.started_layout("s", "a")
    _write(path, _wide(GOOD))  # a mebibyte of bytes, not of characters
    with pytest.raises(ValueError, match="cannot be read"):
        places.started_layout("s", "a")


def _wide(record: dict) -> bytes:
    """`record` as UTF-8 JSON of 1.5 MiB whose padding is two-byte characters: under a million characters."""
    return json.dumps({**record, "pad": "\u00e9" * (3 * MIB // 4)}, ensure_ascii=False).encode()


def test_a_record_that_is_not_utf8_cannot_be_read(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    path = places.started_path("s", "a")
    _write(path, b'{"worktree_root": "/w\xff"}')
    with pytest.raises(ValueError, match=r"^its start record cannot be read \('utf-8' codec can't decode byte 0xff"):
        places.started_layout("s", "a")
    main = _write(str(tmp_path / "m" / places.MAIN_STARTED), b'{"worktree_root": "/w\xff"}')
    with pytest.raises(ValueError, match=r"^its start record cannot be read \('utf-8' codec can't decode byte 0xff"):
        places.read_main_started(main)


# --- read_main_started --------------------------------------------------------------------------------------

MAIN = {**GOOD, "moving": False, "launch": None}


def test_read_main_started_none_when_there_is_no_record(tmp_path) -> None:
    assert places.read_main_started(str(tmp_path / "missing")) is None
    _write(str(tmp_path / "file"), "{}")
    assert places.read_main_started(str(tmp_path / "file" / "@main.started")) is None  # ENOTDIR


def test_read_main_started_lets_other_read_errors_through(tmp_path) -> None:
    (tmp_path / "dir").mkdir()
    with pytest.raises(IsADirectoryError):
        places.read_main_started(str(tmp_path / "dir"))


@pytest.mark.parametrize(
    "record, read",
    [
        ({"worktree_root": None}, {"worktree_root": None, "moving": False}),
        ({"worktree_root": None, "moving": True}, {"worktree_root": None, "moving": True}),
        ({"worktree_root": None, "moving": False}, {"worktree_root": None, "moving": False}),
        (GOOD, MAIN),
        ({**GOOD, "moving": True}, {**MAIN, "moving": True}),
        ({**GOOD, "launch": "/l"}, {**MAIN, "launch": "/l"}),
        ({**GOOD, "launch": None, "moving": False, "extra": 1}, MAIN),
    ],
)
def test_read_main_started_reads_a_free_or_an_isolated_start(tmp_path, record, read) -> None:
    path = _write(str(tmp_path / "s" / places.MAIN_STARTED), json.dumps(record))
    assert places.read_main_started(path) == read


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", r"^its start record cannot be read \(Expecting property name"),
        ("[" * 100_000 + "]" * 100_000, r"^its start record cannot be read \("),
        ("", r"^its start record cannot be read \(Expecting value"),
        (json.dumps({"worktree_root": None, "moving": "yes"}), r"^its start record says neither yes nor no about a move$"),
        (json.dumps({**GOOD, "moving": 1}), r"^its start record says neither yes nor no about a move$"),
        (json.dumps({**GOOD, "moving": None}), r"^its start record says neither yes nor no about a move$"),
        (json.dumps({"worktree_root": None, "launch": "/l"}), r"^its start record names no worktree$"),
        (json.dumps({"worktree_root": None, "common_dir": None}), r"^its start record names no worktree$"),
        (json.dumps({"moving": False}), r"^its start record names no worktree$"),
        (json.dumps({}), r"^its start record names no worktree$"),
        (json.dumps([]), r"^its start record names no worktree$"),
        (json.dumps("text"), r"^its start record names no worktree$"),
        (json.dumps({**GOOD, "launch": "rel"}), r"^its start record names no launch directory$"),
        (json.dumps({**GOOD, "launch": 5}), r"^its start record names no launch directory$"),
        (json.dumps({**GOOD, "launch": ""}), r"^its start record names no launch directory$"),
        (json.dumps({**GOOD, "shared_roots": None}), r"^its start record names no shared checkouts$"),
    ],
)
def test_read_main_started_refuses_a_record_that_makes_no_sense(tmp_path, text, message) -> None:
    path = _write(str(tmp_path / "s" / places.MAIN_STARTED), text)
    with pytest.raises(ValueError, match=message) as caught:
        places.read_main_started(path)
    assert caught.value.__cause__ is None


def test_read_main_started_reads_one_mebibyte_and_no_more(tmp_path) -> None:
    path = _write(str(tmp_path / "s" / places.MAIN_STARTED), _padded(GOOD, MIB))
    assert places.read_main_started(path) == MAIN
    _write(path, _padded(GOOD, MIB + 1))
    with pytest.raises(ValueError, match="cannot be read"):
        places.read_main_started(path)
    _write(path, _wide(GOOD))
    with pytest.raises(ValueError, match="cannot be read"):
        places.read_main_started(path)


# --- registry_dir, may_have_workers -------------------------------------------------------------------------


def test_registry_dir_keys_the_real_common_dir(tmp_path, monkeypatch) -> None:
    real = tmp_path / "repo" / ".git"
    real.mkdir(parents=True)
    (tmp_path / "link").symlink_to(tmp_path / "repo")
    key = hashlib.sha256(str(real).encode()).hexdigest()[:32]
    assert places.registry_dir(str(tmp_path / "link" / ".git"), "/waves") == f"/waves/{key}"
    monkeypatch.setenv("XDG_STATE_HOME", "/st")
    assert places.registry_dir(str(real)) == f"/st/worktree-guard/waves/{key}"
    odd = "/no/such/\udcff"
    assert places.registry_dir(odd, "/w") == "/w/" + hashlib.sha256(odd.encode("utf-8", "surrogatepass")).hexdigest()[:32]


@pytest.fixture
def waves(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    common = tmp_path / "repo" / ".git"
    common.mkdir(parents=True)
    return SimpleNamespace(root=places.waves_root(), common=str(common))


def _index(waves, content) -> None:
    _write(os.path.join(waves.root, "index.json"), content if isinstance(content, str) else json.dumps(content))


def _workers(waves, content) -> None:
    _write(os.path.join(places.registry_dir(waves.common), "workers.json"), content if isinstance(content, str) else json.dumps(content))


def test_may_have_workers_no_when_no_wave_was_ever_recorded(waves) -> None:
    assert not os.path.exists(waves.root)
    assert places.may_have_workers(waves.common, ["agent:a"]) is False
    os.makedirs(waves.root)
    assert places.may_have_workers(waves.common, ["agent:a"]) is False
    assert places.may_have_workers(None, ["agent:a"]) is False


def test_may_have_workers_yes_for_a_key_the_index_knows(waves) -> None:
    _index(waves, {"keys": {"agent:a": 1, "session:s": 2}})
    assert places.may_have_workers(None, ["agent:a"]) is True
    assert places.may_have_workers(None, ["agent:x", "session:s"]) is True
    assert places.may_have_workers(None, ["agent:x"]) is False
    assert places.may_have_workers(None, []) is False
    assert places.may_have_workers(waves.common, ["agent:x"]) is False  # no workers file


def test_may_have_workers_asks_the_repository_s_dispatches(waves) -> None:
    _index(waves, {"keys": {}})
    _workers(waves, {"dispatches": {"d1": {"owns": None}, "d2": {"owns": ["src"]}}})
    assert places.may_have_workers(waves.common, ["agent:a"]) is True
    assert places.may_have_workers("", ["agent:a"]) is False
    assert places.may_have_workers(None, ["agent:a"]) is False
    _workers(waves, {"dispatches": {"d1": {"owns": None}, "d2": {"owns": None}}})
    assert places.may_have_workers(waves.common, ["agent:a"]) is False
    _workers(waves, {"dispatches": {}})
    assert places.may_have_workers(waves.common, ["agent:a"]) is False
    os.remove(os.path.join(waves.root, "index.json"))  # no index: the workers file still decides
    _workers(waves, {"dispatches": {"d1": {"owns": []}}})
    assert places.may_have_workers(waves.common, ["agent:a"]) is True


@pytest.mark.parametrize(
    "index, workers",
    [
        ("{bad", None),
        ({"nokeys": {}}, None),
        ("[" * 100_000 + "]" * 100_000, None),
        ({"keys": {}}, "{bad"),
        ({"keys": {}}, {"nodispatches": {}}),
        ({"keys": {}}, {"dispatches": {"d": {}}}),
        ({"keys": {}}, {"dispatches": ["d"]}),
    ],
)
def test_may_have_workers_leaves_what_it_cannot_read_to_the_full_check(waves, index, workers) -> None:
    _index(waves, index)
    if workers is not None:
        _workers(waves, workers)
    assert places.may_have_workers(waves.common, ["agent:a"]) is True


def test_may_have_workers_leaves_an_unreadable_index_to_the_full_check(waves) -> None:
    os.makedirs(os.path.join(waves.root, "index.json"))
    assert places.may_have_workers(None, ["agent:a"]) is True
