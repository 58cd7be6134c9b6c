"""Tests written from the mutation run of `worktree_guard/subagents/` (issue 13, phase 5): each pins one behaviour
of the sub-agent machinery (the wave regime of SPEC §11, the §5.4 leak check, their state on disk) that no test
reached in this process before. Real git repositories with linked worktrees (tests/helpers.py), in-process."""

from __future__ import annotations

import os
import shutil

from worktree_guard.subagents import places


def test_state_root_takes_an_absolute_xdg_state_home_and_ignores_a_relative_one(tmp_path) -> None:
    home = str(tmp_path / "home")
    assert places.state_root({"XDG_STATE_HOME": "/st", "HOME": home}) == "/st/worktree-guard/subagents"
    assert places.state_root({"XDG_STATE_HOME": "rel", "HOME": home}) == os.path.join(home, ".local", "state", "worktree-guard", "subagents")
    assert places.state_root({"HOME": home}) == os.path.join(home, ".local", "state", "worktree-guard", "subagents")
    assert places.waves_root({"XDG_STATE_HOME": "/st", "HOME": home}) == "/st/worktree-guard/waves"


# --- places: where the state lives, and the cheap "may this sub-agent be a worker" test ----------------------------


def _waves(tmp_path) -> str:
    return places.waves_root()


def test_registry_dir_is_the_first_32_hex_of_the_sha256_of_the_real_common_dir(tmp_path) -> None:
    import hashlib

    real = tmp_path / "real.git"
    real.mkdir()
    link = tmp_path / "link.git"
    link.symlink_to(real)
    key = hashlib.sha256(str(real).encode()).hexdigest()[:32]
    assert places.registry_dir(str(link), "/r") == f"/r/{key}"
    assert places.registry_dir(str(real)) == os.path.join(places.waves_root(), key)


def test_keys_of_names_the_agent_its_session_and_its_dispatcher_in_that_order_and_skips_the_empty_ones() -> None:
    from types import SimpleNamespace as NS

    assert places.keys_of(NS(agent_id="a1", session_id="s1", parent_id="p1")) == ["agent:a1", "session:s1", "dispatcher:p1"]
    assert places.keys_of(NS(agent_id="", session_id=7, parent_id="p1")) == ["dispatcher:p1"]
    assert places.keys_of(object()) == []


def _write_json(path: str, data) -> None:
    import json

    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(json.dumps(data) if not isinstance(data, str) else data)


def test_may_have_workers_reads_the_index_and_the_repository_registry(tmp_path) -> None:
    root = places.waves_root()
    common = str(tmp_path / "c.git")
    os.makedirs(common)
    assert places.may_have_workers(common, ["agent:a"]) is False  # no waves directory at all
    os.makedirs(root)
    assert places.may_have_workers(common, ["agent:a"]) is False  # neither index nor registry
    _write_json(os.path.join(root, "index.json"), {"keys": {"agent:a": [], "session:s": []}})
    assert places.may_have_workers(common, ["agent:x", "session:s"]) is True
    assert places.may_have_workers(common, ["agent:x"]) is False  # index without the key, no registry
    assert places.may_have_workers(None, ["agent:x"]) is False
    assert places.may_have_workers("", ["agent:x"]) is False
    workers = os.path.join(places.registry_dir(common, root), "workers.json")
    _write_json(workers, {"dispatches": {"t1": {"owns": None}}})
    assert places.may_have_workers(common, ["agent:x"]) is False  # a dispatch without an ownership makes no worker
    _write_json(workers, {"dispatches": {"t1": {"owns": None}, "t2": {"owns": ["src/**"]}}})
    assert places.may_have_workers(common, ["agent:x"]) is True
    os.unlink(os.path.join(root, "index.json"))
    assert places.may_have_workers(common, ["agent:x"]) is True  # no index: the registry still decides
    _write_json(workers, {"dispatches": {"t1": {"owns": None}}})
    assert places.may_have_workers(common, ["agent:x"]) is False


def test_may_have_workers_leaves_an_unreadable_index_or_registry_to_the_full_check(tmp_path) -> None:
    root = places.waves_root()
    common = str(tmp_path / "c.git")
    os.makedirs(common)
    _write_json(os.path.join(root, "index.json"), "{not json")
    assert places.may_have_workers(common, ["agent:x"]) is True
    _write_json(os.path.join(root, "index.json"), {"nokeys": {}})
    assert places.may_have_workers(common, ["agent:x"]) is True
    _write_json(os.path.join(root, "index.json"), {"keys": {}})
    _write_json(os.path.join(places.registry_dir(common, root), "workers.json"), {"dispatches": {"t": {}}})
    assert places.may_have_workers(common, ["agent:x"]) is True


# --- the wave index -----------------------------------------------------------------------------------------------


def test_the_wave_index_keeps_each_keys_repositories_most_recent_first_without_duplicates(tmp_path) -> None:
    import stat

    from worktree_guard.subagents.index import MAX_PER_KEY, WaveIndex

    index = WaveIndex(str(tmp_path / "state" / "waves"))
    index.note([], "/c0")
    assert not os.path.exists(index.dir)  # nothing to note: nothing made
    index.note(["agent:a", "session:s"], "/c1")
    index.note(["agent:a"], "/c2")
    assert index.lookup(["agent:a"]) == ["/c2", "/c1"]
    assert index.lookup(["session:s", "agent:a"]) == ["/c1", "/c2"]
    assert index.lookup(["agent:zz"]) == []
    index.note(["agent:a"], "/c1")  # again: moved to the front, not listed twice
    assert index.lookup(["agent:a"]) == ["/c1", "/c2"]
    for n in range(3, 3 + MAX_PER_KEY):
        index.note(["agent:a"], f"/c{n}")
    assert index.lookup(["agent:a"]) == [f"/c{n}" for n in range(2 + MAX_PER_KEY, 2, -1)]
    assert len(index.lookup(["agent:a"])) == MAX_PER_KEY == 8
    assert stat.S_IMODE(os.stat(index.dir).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(os.path.dirname(index.dir)).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(index.path).st_mode) == 0o600
    assert os.path.exists(os.path.join(index.dir, "index.lock"))
    assert sorted(os.listdir(index.dir)) == ["index.json", "index.lock"]


def test_the_wave_index_drops_entries_older_than_the_history_and_keys_left_empty(tmp_path) -> None:
    import json
    import time

    from worktree_guard.subagents.index import WaveIndex
    from worktree_guard.subagents.registry import HISTORY_AFTER

    index = WaveIndex(str(tmp_path / "waves"))
    now = time.time()
    _write_json(index.path, {"version": 1, "keys": {
        "agent:old": [{"common_dir": "/old", "time": now - HISTORY_AFTER - 100}],
        "agent:mixed": [{"common_dir": "/new", "time": now - HISTORY_AFTER + 100}, {"common_dir": "/gone", "time": now - HISTORY_AFTER - 100}],
    }})
    index.note(["agent:b"], "/b")
    keys = json.loads(open(index.path).read())["keys"]
    assert sorted(keys) == ["agent:b", "agent:mixed"]
    assert [e["common_dir"] for e in keys["agent:mixed"]] == ["/new"]
    assert index.lookup(["agent:old", "agent:mixed", "agent:b"]) == ["/new", "/b"]


# --- state: the leak check's private directory -----------------------------------------------------------------------


def test_safe_name_keeps_plain_ids_and_hashes_anything_else() -> None:
    import hashlib

    from worktree_guard.subagents.state import safe_name

    assert safe_name(None) == "no-session"
    assert safe_name("") == "no-session"
    assert safe_name("a1b2_C.d-e") == "a1b2_C.d-e"
    assert safe_name("a" * 100) == "a" * 100
    for bad in ("a" * 101, ".hidden", "-x", "a/b", "a b", "..", "é"):
        assert safe_name(bad) == "h-" + hashlib.sha256(bad.encode()).hexdigest()[:32], bad
    assert safe_name("\udcff") == "h-" + hashlib.sha256("\udcff".encode("utf-8", "surrogatepass")).hexdigest()[:32]


def test_private_dir_makes_a_0700_directory_and_tightens_an_open_one(tmp_path) -> None:
    import stat

    from worktree_guard.subagents.state import _private_dir

    made = _private_dir(str(tmp_path / "a" / "b"))
    assert made == str(tmp_path / "a" / "b")
    assert stat.S_IMODE(os.stat(made).st_mode) == 0o700
    os.chmod(made, 0o750)
    _private_dir(made)
    assert stat.S_IMODE(os.stat(made).st_mode) == 0o700
    os.chmod(made, 0o701)
    _private_dir(made)
    assert stat.S_IMODE(os.stat(made).st_mode) == 0o700
    os.chmod(made, 0o500)
    _private_dir(made)
    assert stat.S_IMODE(os.stat(made).st_mode) == 0o500  # not widened: only group and other bits are taken


def _snap(agent_id: str = "a1", **extra):
    from worktree_guard.subagents.state import SubagentSnapshot

    fields = dict(session_id="s", agent_id=agent_id, agent_type="t", started=1.0, cwd="/w", worktree_root="/w", common_dir="/c", checkouts=[])
    fields.update(extra)
    return SubagentSnapshot(**fields)


def test_the_store_saves_privately_loads_and_deletes_a_snapshot(tmp_path) -> None:
    import stat

    from worktree_guard.subagents.state import SubagentStore, state_root

    store = SubagentStore("sess/1")
    assert store.root == state_root()
    assert store.session_dir == os.path.join(state_root(), "h-" + __import__("hashlib").sha256(b"sess/1").hexdigest()[:32])
    assert store.load("a1") is None
    store.delete("a1")  # nothing there: no error
    store.save(_snap(blocks=2))
    path = store.path_of("a1")
    assert path == os.path.join(store.session_dir, "a1.json")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    for d in (store.session_dir, store.root, os.path.dirname(store.root)):
        assert stat.S_IMODE(os.stat(d).st_mode) == 0o700, d
    assert os.listdir(store.session_dir) == ["a1.json"]  # the temp file was renamed
    assert store.load("a1") == _snap(blocks=2)
    store.save(_snap(blocks=3))
    assert store.load("a1").blocks == 3
    store.delete("a1")
    assert store.load("a1") is None
    other = SubagentStore("s", root=str(tmp_path / "elsewhere"))
    assert other.session_dir == str(tmp_path / "elsewhere" / "s")


def test_overlapping_names_the_other_agents_whose_window_meets_the_interval(tmp_path) -> None:
    import json

    from worktree_guard.subagents.state import WINDOWS, SubagentStore

    store = SubagentStore("s", root=str(tmp_path / "st"))
    assert store.overlapping("me", 0, 100) == []  # no log yet
    store.record_window("me", "t", "start")
    lines = [
        {"agent_id": "me", "event": "start", "time": 10},
        {"agent_id": "early", "agent_type": "x", "event": "start", "time": 1},
        {"agent_id": "early", "event": "stop", "time": 9.5},
        {"agent_id": "edge", "agent_type": "y", "event": "start", "time": 1, "isolated": True, "worktree": "/wt"},
        {"agent_id": "edge", "event": "stop", "time": 10},
        {"agent_id": "late", "event": "start", "time": 20},
        {"agent_id": "atend", "event": "start", "time": 20.0},
        {"agent_id": "running", "event": "start", "time": 15},
        {"agent_id": "stoponly", "event": "stop", "time": 12},
        {"agent_id": 5, "event": "start", "time": 12},
        {"agent_id": "noevent", "time": 12},
    ]
    with open(os.path.join(store.session_dir, WINDOWS), "a") as f:
        f.write("not json\n")
        for line in lines:
            f.write(json.dumps(line) + "\n")
    found = {w["agent_id"]: w for w in store.overlapping("me", 10, 19.99)}
    assert sorted(found) == ["edge", "noevent", "running", "stoponly"]
    assert found["edge"] == {"agent_id": "edge", "agent_type": "y", "start": 1, "stop": 10, "isolated": True, "worktree": "/wt"}
    assert found["stoponly"] == {"agent_id": "stoponly", "agent_type": None, "start": None, "stop": 12}
    assert found["noevent"] == {"agent_id": "noevent", "agent_type": None, "start": None, "stop": None}
    assert sorted(w["agent_id"] for w in store.overlapping("me", 10, 20)) == ["atend", "edge", "late", "noevent", "running", "stoponly"]
    assert sorted(w["agent_id"] for w in store.overlapping("nobody", 9.5, 9.5)) == ["early", "edge", "noevent", "stoponly"]  # "me" started again at 10


def test_record_window_appends_one_line_with_the_time_and_the_extra_fields(tmp_path) -> None:
    import json
    import time

    from worktree_guard.subagents.state import WINDOWS, SubagentStore

    store = SubagentStore("s", root=str(tmp_path / "st"))
    before = time.time()
    store.record_window("a1", "t", "start", isolated=True)
    store.record_window("a1", None, "stop")
    rows = [json.loads(line) for line in open(os.path.join(store.session_dir, WINDOWS))]
    assert [{k: v for k, v in r.items() if k != "time"} for r in rows] == [
        {"agent_id": "a1", "agent_type": "t", "event": "start", "isolated": True},
        {"agent_id": "a1", "agent_type": None, "event": "stop"},
    ]
    assert all(before <= r["time"] <= time.time() for r in rows)


def test_sweep_removes_stale_files_empty_old_sessions_and_the_oldest_snapshots_beyond_the_limit(tmp_path, monkeypatch) -> None:
    from worktree_guard.subagents import state

    root = tmp_path / "st"
    assert state.sweep(str(root), now=1000.0) == 0  # no directory yet
    root.mkdir()
    (root / "stray-file").write_text("")  # not a session directory: passed over
    now = 10_000_000.0
    old, fresh = root / "old", root / "fresh"
    old.mkdir()
    fresh.mkdir()
    stale = old / "a.json"
    stale.write_text("{}")
    os.utime(stale, (now - state.STALE_AFTER - 1, now - state.STALE_AFTER - 1))
    kept = fresh / "b.json"
    kept.write_text("{}")
    os.utime(kept, (now - state.STALE_AFTER + 5, now - state.STALE_AFTER + 5))
    log = fresh / "windows.jsonl"
    log.write_text("")
    os.utime(log, (now - 10, now - 10))
    os.utime(old, (now - 61, now - 61))
    os.utime(fresh, (now - 61, now - 61))
    assert state.sweep(str(root), now=now) == 1
    assert not old.exists()  # emptied and older than a minute: removed
    assert sorted(os.listdir(fresh)) == ["b.json", "windows.jsonl"]
    just_made = root / "new"
    just_made.mkdir()
    os.utime(just_made, (now - 59, now - 59))
    assert state.sweep(str(root), now=now) == 0
    assert just_made.exists()  # a session a starting sub-agent has just made stays
    monkeypatch.setattr(state, "MAX_SNAPSHOTS", 2)
    for n in range(4):
        p = fresh / f"s{n}.json"
        p.write_text("{}")
        os.utime(p, (now - 100 + n, now - 100 + n))
    (fresh / "x.txt").write_text("")
    os.utime(fresh / "x.txt", (now - 500, now - 500))
    assert state.sweep(str(root), now=now) == 3  # b.json (oldest), s0, s1
    assert sorted(os.listdir(fresh)) == ["s2.json", "s3.json", "windows.jsonl", "x.txt"]


def test_sweep_defaults_to_the_state_root_and_the_clock(tmp_path) -> None:
    import time

    from worktree_guard.subagents import state

    session = os.path.join(state.state_root(), "s")
    os.makedirs(session)
    path = os.path.join(session, "a.json")
    open(path, "w").close()
    t = time.time() - state.STALE_AFTER - 5
    os.utime(path, (t, t))
    assert state.sweep() == 1
    assert not os.path.exists(path)


# --- surfaces: what a command writes beyond its operands ----------------------------------------------------------


def _written(argv: list, find_projects=None):
    from worktree_guard.subagents.surfaces import BUILTIN_SURFACES, surfaces_of

    return [(w.kind, w.path, w.tree) for w in surfaces_of(argv[0], argv[1:], BUILTIN_SURFACES, find_projects=find_projects)]


NPM = [("package manager", p, t) for p, t in (("package.json", False), ("package-lock.json", False), ("npm-shrinkwrap.json", False), ("node_modules", True))]


def test_a_package_manager_writes_its_files_in_the_project_directory_it_is_given() -> None:
    assert _written(["npm", "install"]) == NPM
    assert _written(["npm", "test"]) == []
    assert _written(["npm"]) == []  # npm without a subcommand writes nothing
    assert _written(["npm", "--prefix", "sub", "install"]) == [(k, f"sub/{p}", t) for k, p, t in NPM]
    assert _written(["npm", "--prefix=sub/", "i"]) == [(k, f"sub/{p}", t) for k, p, t in NPM]
    assert _written(["npm", "-Csub", "ci"]) == [(k, f"sub/{p}", t) for k, p, t in NPM]
    assert _written(["npm", "--prefix", None, "install"]) == [(k, None, t) for k, p, t in NPM]  # known at run time only
    assert _written(["npm", "install", "--prefix"]) == [(k, None, t) for k, p, t in NPM]  # the value is missing
    assert _written(["npm", None]) == [("package manager", None, True)]  # `npm $cmd`: anything
    assert _written(["npm", "--tag", "install", "test"]) == []  # `install` is --tag's value, `test` the subcommand
    assert _written(["npm", "--registry=x", "install"]) == NPM
    assert _written(["npm", "--prefix=", "install"]) == NPM  # an empty directory is the cwd
    assert _written(["npm", "--prefix", "/abs", "install"])[0] == ("package manager", "/abs/package.json", False)
    pnpm = [("package manager", p, t) for p, t in (("package.json", False), ("pnpm-lock.yaml", False), ("pnpm-workspace.yaml", False), ("node_modules", True))]
    assert _written(["pnpm"]) == pnpm  # without a subcommand: an install
    assert _written(["pnpm", "run", "build"]) == []


def test_a_package_manager_also_writes_at_every_project_above_it_that_find_projects_names() -> None:
    asked = []

    def find(base, manifests):
        asked.append((base, manifests))
        return ["..", ".", "../.."]

    got = _written(["npm", "install"], find)
    assert asked == [(".", ("package.json",))]
    assert [p for _, p, _ in got] == ["package.json", "package-lock.json", "npm-shrinkwrap.json", "node_modules", "../package.json", "../package-lock.json", "../npm-shrinkwrap.json", "../node_modules", "../../package.json", "../../package-lock.json", "../../npm-shrinkwrap.json", "../../node_modules"]
    assert _written(["npm", "--prefix", None, "install"], find) == [(k, None, t) for k, p, t in NPM]  # no directory to look from
    assert len(asked) == 1
    # a formatter with manifests: no operand means the nearest project
    assert _written(["cargo", "fmt"], lambda base, m: ["crate", ".."]) == [("formatter", "crate", True)]
    assert _written(["cargo", "fmt"]) == [("formatter", ".", True)]
    assert _written(["cargo", "fmt", "--check"]) == []
    assert _written(["cargo", "fmt", "-C", None]) == [("formatter", None, True)]


def test_formatters_write_their_operands_as_trees_and_nothing_in_a_check_mode() -> None:
    assert _written(["ruff", "format"]) == [("formatter", ".", True)]
    assert _written(["ruff", "format", "a", "b/c"]) == [("formatter", "a", True), ("formatter", "b/c", True)]
    assert _written(["ruff", "format", "--check", "a"]) == []
    assert _written(["ruff", "format", "--diff"]) == []
    assert _written(["ruff", "format", "--config", "c.toml", "a"]) == [("formatter", "a", True)]
    assert _written(["ruff", "format", "--config=c.toml"]) == [("formatter", ".", True)]
    assert _written(["ruff", "format", "--", "-x", None]) == [("formatter", None, True)]  # after `--`: `-x` is skipped as an option-like target
    assert _written(["ruff", "format", "/abs/x"]) == [("formatter", "/abs/x", True)]
    assert _written(["ruff", "format", None, "a"]) == [("formatter", None, True), ("formatter", "a", True)]  # past a run-time word
    assert _written(["npm", "--", "--prefix", "x", "install"]) == []  # after `--`, `--prefix` is the (unknown) subcommand
    assert _written(["prettier", "--", "--write", "a"]) == []  # after `--`, `--write` is an operand, not the option
    assert _written(["ruff", "check", "a"]) == []
    assert _written(["ruff", "check", "--fix", "a"]) == [("fixer", "a", True)]
    assert _written(["ruff", None]) == [("formatter", None, True), ("fixer", None, True)]
    assert _written(["prettier", "a"]) == []
    assert _written(["prettier", "-w", "a"]) == [("formatter", "a", True)]
    assert _written(["prettier", "--write"]) == [("formatter", ".", True)]
    assert _written(["autopep8", "-ir", "a"]) == [("formatter", "a", True)]  # `-ir` is `-i -r`
    assert _written(["autopep8", "-r", "a"]) == []
    assert _written(["autopep8", "-ir=x", "a"]) == []  # `-ir=x` is one option with a value, not `-i -r`
    assert _written(["prettier", "--wombat", "a"]) == []  # a long option is not split into letters (`-w`)
    assert _written(["npm", "-", "install"]) == []  # a lone `-` is the first operand: not a subcommand
    assert _written(["npm", "-Cx", "install"])[0] == ("package manager", "x/package.json", False)
    assert _written(["black", "-"]) == [("formatter", ".", True)]  # a lone `-` is an operand, not an option
    assert _written(["isort", "-c", "a"]) == []
    assert _written(["go", "-C", "sub", "generate", "./x"]) == [("code generator", "sub/./x", True)]
    assert _written(["go", "-Csub", "fmt"]) == [("code generator", "sub", True)]
    assert _written(["protoc", "x.proto"]) == [("code generator", ".", True)]
    assert _written(["pre-commit", "install"]) == [("hook installer", ".pre-commit-config.yaml", False), ("hook installer", ".git", True)]
    assert _written(["jest", "-u"]) == [("snapshot updater", ".", True)]
    assert _written(["jest", "-c", "-u", "x"]) == []  # `-u` is the config file's name here


def test_runners_start_the_program_their_first_operand_names() -> None:
    fmt = [("formatter", "a", True)]
    assert _written(["npx", "prettier", "--write", "a"]) == fmt
    assert _written(["npx", "-y", "--quiet", "prettier@3.1", "--write", "a"]) == fmt
    assert _written(["npx", "./node_modules/.bin/prettier", "--write", "a"]) == fmt
    assert _written(["pipx", "run", "black", "a"]) == fmt
    assert _written(["pipx", "black", "a"]) == fmt
    assert _written(["uvx", "run", "a"]) == []  # only pipx has the `run` word
    assert _written(["npx"]) == []
    assert _written(["npx", "-y", "prettier", "--write", "a"]) == fmt  # one option, then the program
    assert _written(["npx", "prettier@npm:prettier@3", "--write", "a"]) == fmt  # the name ends at the first `@`
    assert _written(["pyX", "-m", "black", "a"]) == []  # not an interpreter: only version digits are stripped
    up = lambda base, manifests: [base, ".."]  # noqa: E731
    assert ("package manager", "../pnpm-lock.yaml", False) in _written(["npx", "pnpm", "install"], up)  # the runner keeps find_projects
    assert ("package manager", "../poetry.lock", False) in _written(["python3", "-m", "poetry", "lock"], up)
    assert _written(["npx", "-y"]) == []
    assert _written(["npx", None, "--write", "a"]) == []
    assert _written(["npx", "@biomejs/biome", "format", "--write", "a"]) == []  # a scoped name stays whole: no row
    assert _written(["npx", "npx", "npx", "prettier", "-w", "a"]) == fmt  # three runners deep
    assert _written(["npx", "npx", "npx", "npx", "prettier", "-w", "a"]) == []
    assert _written(["python", "-m", "black", "a"]) == fmt
    assert _written(["python3.12", "-m", "black", "a"]) == fmt
    assert _written(["py", "-m", "black"]) == [("formatter", ".", True)]
    assert _written(["python", "-m"]) == []
    assert _written(["python", "-m", None, "a"]) == []
    assert _written(["python", "black", "a"]) == []
    assert _written(["python", "-m", "python", "-m", "python", "-m", "black", "a"]) == fmt
    assert _written(["python", "-m", "python", "-m", "python", "-m", "python", "-m", "black", "a"]) == []


def test_a_scoped_runner_package_and_a_table_row_by_that_name() -> None:
    from worktree_guard.subagents.surfaces import Surface, surfaces_of

    table = {"@s/tool": (Surface("tool", operand_trees=True),), "tool": (Surface("plain", files=("out/",)),)}
    assert [(w.kind, w.path, w.tree) for w in surfaces_of("npx", ["@s/tool", "x"], table)] == [("tool", "x", True)]
    assert [(w.kind, w.path, w.tree) for w in surfaces_of("npx", ["dir/tool@1"], table)] == [("plain", "out", True)]
    assert [(w.kind, w.path, w.tree) for w in surfaces_of("tool", [], table)] == [("plain", "out", True)]
    assert surfaces_of("other", ["x"], table) == []
    valued = {"gen": (Surface("generator", with_options=frozenset({"-o"}), value_options=frozenset({"-o"}), files=("out/",)),)}
    assert [(w.kind, w.path, w.tree) for w in surfaces_of("gen", ["-oout"], valued)] == [("generator", "out", True)]
    assert surfaces_of("gen", ["x"], valued) == []
    rows = {"t": (
        Surface("needs a subcommand", frozenset({"sub"}), files=("a",)),
        Surface("needs --w", with_options=frozenset({"--w"}), files=("b",)),
        Surface("not with --c", without_options=frozenset({"--c"}), files=("c",)),
        Surface("always", files=("d",)),
    )}
    assert [w.kind for w in surfaces_of("t", ["--c"], rows)] == ["always"]  # each row skipped goes on to the next
    assert [w.kind for w in surfaces_of("t", ["other"], rows)] == ["not with --c", "always"]
    assert [w.kind for w in surfaces_of("t", [None], rows)] == ["needs a subcommand", "not with --c", "always"]
    named = {"n": (Surface("n", files=("logX", "/", "outX/"), dir_options=frozenset({"-C"})),)}
    assert [(w.path, w.tree) for w in surfaces_of("n", ["-C", "p"], named)] == [("p/logX", False), ("p", True), ("p/outX", True)]


# --- ownership: the declarations, their grammar, and matching -----------------------------------------------------

import pytest  # noqa: E402

from worktree_guard.subagents import ownership as own  # noqa: E402


def _error(call, *args) -> str:
    with pytest.raises(own.OwnershipError) as raised:
        call(*args)
    return str(raised.value)


def test_check_pattern_refuses_what_an_ownership_may_not_hold_in_exact_words() -> None:
    assert own.check_pattern("  src/**  ") == "src/**"
    assert own.check_pattern("a..b/c") == "a..b/c"
    assert _error(own.check_pattern, "   ", "S") == "S: an empty pattern"
    assert _error(own.check_pattern, "") == "ownership: an empty pattern"
    assert _error(own.check_pattern, "!src", "S") == "S: '!src' is a negation; an ownership lists what a worker may write"
    assert _error(own.check_pattern, "#x", "S") == "S: '#x' is a comment, not a pattern"
    assert _error(own.check_pattern, "src/../x", "S") == "S: 'src/../x' leaves the checkout (`..`)"
    assert _error(own.check_pattern, "/../x/", "S") == "S: '/../x/' leaves the checkout (`..`)"
    assert _error(own.check_pattern, "..", "S") == "S: '..' leaves the checkout (`..`)"
    assert _error(own.check_pattern, "src/x\\", "S").startswith("S: 'src/x\\\\' is not a valid pattern (")


def test_an_ownership_describes_itself_and_knows_when_it_is_none() -> None:
    o = own.Ownership.of(["src/**", " docs/*.md "], "here")
    assert o.patterns == ("src/**", "docs/*.md") and o.source == "here" and not o.none
    assert o.describe() == "src/**, docs/*.md"
    empty = own.Ownership.of([], "there")
    assert empty.none and empty.describe() == "none (a read-only worker)"
    assert empty._spec is None and not empty.matches("anything")
    assert o == own.Ownership(("src/**", "docs/*.md"), "here")  # the compiled spec is not compared
    assert _error(own.Ownership.of, ["ok", "!x"], "frontmatter") == "frontmatter: '!x' is a negation; an ownership lists what a worker may write"


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("src/**", "src/a.py", True),
        ("src/**", "src", False),
        ("src/**", "srcx/a", False),
        ("/src/", "src/a", True),
        ("/src/", "src", False),
        ("a/b", "a/b", True),
        ("a/b", "a/b/c", True),
        ("a/b", "x/a/b", False),
        ("/top", "top", True),
        ("/top", "x/top", False),
        ("top", "x/top", True),
        ("top", "x/top/y", True),
        ("dir/", "x/dir/f", True),
        ("dir/", "x/dir", False),
        ("f.md", "f.md", True),
        ("*.md", "x/f.md", True),
        ("*.md", "x/f.py", False),
        ("src/*", "src/a", True),
        (" src/** ", "src/a", False),
        ("a/X", "a/X", True),
        ("a/X", "b/a/X", False),
    ],
)
def test_matching_agrees_with_gitignore(pattern: str, path: str, expected: bool) -> None:
    import pathspec

    spec = pathspec.PathSpec.from_lines("gitignore", [pattern])
    assert bool(spec.match_file(path)) is expected  # what the fast path must agree with
    assert own.match_patterns((pattern,), spec, path) is expected
    assert own.match_patterns((pattern,), None, path) is (expected and own._literal_match(pattern, path) is True)


def test_literal_match_is_none_for_the_shapes_it_leaves_to_pathspec() -> None:
    for pattern in ("!x", " x", "x ", "*.md", "a/?", "a[bc]", "a\\b", "/", "**", "/**"):
        assert own._literal_match(pattern, "a") is None, pattern
    assert own._literal_match("a/b/", "a/b/c") is True
    assert own._literal_match("a/b/", "a/b") is False
    assert own._literal_match("/a", "a/x") is True
    assert own._literal_match("a", "a") is True
    assert own._literal_match("a/", "a") is False
    assert own._literal_match("a/", "a/x") is True


def test_match_patterns_tries_every_pattern_and_falls_back_to_the_spec_only_for_the_slow_shapes() -> None:
    class Spec:
        def __init__(self, answer):
            self.answer, self.asked = answer, []

        def match_file(self, path):
            self.asked.append(path)
            return self.answer

    assert own.match_patterns((), Spec(True), "a") is False
    spec = Spec(True)
    assert own.match_patterns(("b", "a"), spec, "a") is True and spec.asked == []
    spec = Spec(True)
    assert own.match_patterns(("b", "c"), spec, "a") is False and spec.asked == []  # every shape literal: no spec
    spec = Spec(True)
    assert own.match_patterns(("b", "*.x"), spec, "a") is True and spec.asked == ["a"]
    assert own.match_patterns(("b", "*.x"), Spec(False), "a") is False
    assert own.match_patterns(("*.x",), None, "a") is False


def test_covers_tree_asks_whether_everything_below_a_directory_is_owned() -> None:
    o = own.Ownership.of(["src/**"], "s")
    assert o.covers_tree("src") and o.covers_tree("src/") and o.covers_tree("src/a")
    assert not o.covers_tree("") and not o.covers_tree(".") and not o.covers_tree("docs")
    assert own.Ownership.of(["**"], "s").covers_tree(".")
    assert own.Ownership.of(["**"], "s").covers_tree("")
    assert not own.Ownership.of(["*.py"], "s").covers_tree("src")
    assert own.Ownership.of(["src"], "s").covers_tree("src")
    assert own.Ownership.of(["/src/*/**"], "s").covers_tree("src/a/")  # a trailing slash is dropped, not doubled
    assert own.Ownership.of(["boX/**"], "s").covers_tree("boX")  # only slashes are stripped
    assert own.Ownership.of(["x /**"], "s").covers_tree("x ")  # and not spaces


def test_literal_prefix_is_where_all_a_pattern_can_match() -> None:
    assert own.literal_prefix("src/auth/**") == "src/auth"
    assert own.literal_prefix("/src/a*/x") == "src"
    assert own.literal_prefix(" src/x/ ") == "src/x"
    assert own.literal_prefix("src/") == ""  # not anchored: any depth
    assert own.literal_prefix("*.md") == ""
    assert own.literal_prefix("a/b[c]/d") == "a"
    assert own.literal_prefix("a/b?/d") == "a"
    assert own.literal_prefix("a\\/b/c") == ""
    assert own.literal_prefix("Xsrc/a/*") == "Xsrc/a"  # only slashes are stripped
    assert own.literal_prefix("aX/X") == "aX/X"


def test_overlap_names_the_patterns_or_the_file_that_both_can_own() -> None:
    of = own.Ownership.of
    assert own.overlap(of(["src/**"], "a"), of(["src/auth/**"], "b"), []) == "'src/**' and 'src/auth/**' can name the same files"
    assert own.overlap(of(["src/auth/**"], "a"), of(["src/**"], "b"), []) == "'src/auth/**' and 'src/**' can name the same files"
    assert own.overlap(of(["src/a/**"], "a"), of(["src/ab/**"], "b"), ["src/a/x", "src/ab/x"]) is None
    assert own.overlap(of(["src/a/**"], "a"), of(["src/a/**"], "b"), []) == "'src/a/**' and 'src/a/**' can name the same files"
    assert own.overlap(of(["x/**", "*.py"], "a"), of(["src/app.py"], "b"), ["README.md", "src/app.py"]) == "'*.py' and 'src/app.py' can name the same files"
    assert own.overlap(of(["/docs/*.md"], "a"), of(["/src/*.py"], "b"), ["docs/a.md", "src/a.py"]) is None
    assert own.overlap(of(["/docs/**"], "a"), of(["/x/**"], "b"), ["docs/a", "x/a"]) is None
    assert own.overlap(of([], "a"), of(["*.py"], "b"), ["a.py"]) is None
    assert own.overlap(of(["*.py"], "a"), of([], "b"), ["a.py"]) is None


def test_overlap_through_a_file_of_the_tree() -> None:
    of = own.Ownership.of
    a, b = of(["/src/a*/**"], "a"), of(["/src/*b/**"], "b")
    assert own.literal_prefix("/src/a*/**") == "src" and own.overlap(a, b, ["src/ab/x"]) == "'/src/a*/**' and '/src/*b/**' can name the same files"
    a, b = of(["/a/x*"], "a"), of(["/b/*y"], "b")
    assert own.overlap(a, b, ["a/xy", "b/xy"]) is None
    a, b = of(["/a/**", "/c/**"], "a"), of(["/b/**", "/d/**"], "b")
    assert own.overlap(a, b, ["a/1", "b/1"]) is None


def test_near_misses_of_the_fence_info_string() -> None:
    for info in ("Worktree-Guard", "worktree_guard", "worktree-guard extra", "worktreeguard", "worktre-gaurd", "wrktree-guard", "W-O-R-K-T-R-E-E-GUARD"):
        assert own._near_miss(info), info
    for info in ("worktree-guard", "", "python", "toml", "worktree", "guard", "yaml worktree-guard", "WORKTREE GUARD"):
        assert not own._near_miss(info), info
    assert own._distance("kitten", "sitting") == 3
    assert own._distance("", "abc") == 3 and own._distance("abc", "") == 3 and own._distance("abc", "abc") == 0
    assert own._distance("worktreeguard", "worktreguard") == 1
    assert own._near_miss("wxrktrxxguard")  # distance 3
    assert not own._near_miss("wxrktrxxgxard")  # distance 4


def test_find_block_reads_the_one_block_and_refuses_what_was_meant_as_one() -> None:
    assert own.find_block("no block here\n") is None
    assert own.find_block("```python\nx = 1\n```\n") is None
    assert own.find_block("```python\nx = 1\n```\nthen\n```worktree-guard\nowns: a\n```\n") == ["owns: a"]  # a block after another
    assert own.find_block("```worktree-guard\nowns: a\n\n# c\n```\n") == ["owns: a", "", "# c"]
    assert own.find_block("  - item\n   ~~~~ worktree-guard  \n   owns: a\n   ~~~~\n") == ["   owns: a"]
    assert own.find_block("````worktree-guard\nowns: a\n```\nowns: b\n````\n") == ["owns: a", "```", "owns: b"]
    assert own.find_block("```worktree-guard\nowns: a\n~~~\n```\n") == ["owns: a", "~~~"]
    assert own.find_block("```worktree-guard\nowns: a\n``` x\n```\n") == ["owns: a", "``` x"]
    assert _error(own.find_block, "intro\nowns: src/**\n") == "line 2: an `owns:` line outside a ```worktree-guard block; put it in one"
    assert _error(own.find_block, "x\ny\n  Worktree_Guard : z\n") == "line 3: a `worktree-guard:` key; write the ownership as a ```worktree-guard block holding `owns: …`"
    assert _error(own.find_block, "```Worktree-Guard\nowns: a\n```\n") == "the fence ```Worktree-Guard looks like an ownership block; its info string must be exactly `worktree-guard`"
    assert _error(own.find_block, "```md\n```worktree-guard\nowns: a\n```\n") == "a ```worktree-guard block inside another code block (```md); close that one first"
    assert _error(own.find_block, "````md\n```worktree_guard\n````\n") == "a ```worktree-guard block inside another code block (```md); close that one first"
    assert _error(own.find_block, "```yaml\nworktree-guard: x\n```\n") == "a `worktree-guard:` key in a ```yaml block; write the ownership as a ```worktree-guard block holding `owns: …`"
    assert own.find_block("```yaml\nowns: x\n```\n") is None  # an `owns:` line inside another block is that block's
    assert _error(own.find_block, "```worktree-guard\nowns: a\n") == "the ```worktree-guard block is not closed"
    assert _error(own.find_block, "```worktree-guard\nowns: a\n```\n```worktree-guard\nowns: b\n```\n") == "the prompt holds more than one ```worktree-guard block"
    assert _error(own.find_block, "```worktree-guard\n```\n```worktree-guard\nowns: b\n```\n") == "the prompt holds more than one ```worktree-guard block"


def test_parse_block_reads_the_grammar_in_exact_words() -> None:
    got = own.parse_block(["", "# note", " owns : src/**, docs/** "])
    assert got.patterns == ("src/**", "docs/**") and got.source == "the dispatch prompt's ```worktree-guard block"
    assert own.parse_block(["owns: NONE"]).patterns == ()
    assert own.parse_block(["owns: a:b, c"]).patterns == ("a:b", "c")  # the key ends at the first colon
    src = "the ```worktree-guard block"
    assert _error(own.parse_block, ["", "just words"]) == f"{src}, line 2: 'just words' is not `owns: PATTERN, …`"
    assert _error(own.parse_block, ["onws: x"]) == f"{src}, line 1: unknown key 'onws' (the only key is `owns`)"
    assert _error(own.parse_block, ["owns: a", "owns: b"]) == f"{src}, line 2: `owns` is given twice"
    assert _error(own.parse_block, ["owns: none", "owns: b"]) == f"{src}, line 2: `owns` is given twice"
    assert _error(own.parse_block, ["owns:   "]) == f"{src}, line 1: `owns:` is empty (write `owns: none` for a read-only worker)"
    assert _error(own.parse_block, ["owns: a,,b"]) == f"{src}, line 1: an empty pattern"
    assert _error(own.parse_block, ["# only a comment"]) == f"{src} has no `owns:` line"
    assert _error(own.parse_block, [], "S") == "S has no `owns:` line"
    assert own.from_prompt("no block") is None
    assert own.from_prompt("```worktree-guard\nowns: a\n```").patterns == ("a",)


def test_from_setting_takes_a_list_a_comma_string_or_none() -> None:
    assert own.from_setting(["a", "b"], "cfg") == own.Ownership(("a", "b"), "cfg")
    assert own.from_setting(("a",), "cfg").patterns == ("a",)
    assert own.from_setting("a, b", "cfg").patterns == ("a", "b")
    assert own.from_setting("  None ", "cfg").patterns == () and own.from_setting("none", "cfg").source == "cfg"
    for bad in (3, None, ["a", 1], {"a": 1}):
        assert _error(own.from_setting, bad, "cfg") == 'cfg: `owns` must be a list of patterns or "none"'


def test_relative_to_is_slash_separated_and_none_outside() -> None:
    assert own.relative_to("/r", "/r") == ""
    assert own.relative_to("/r", "/r/a/b") == "a/b"
    assert own.relative_to("/r/", "/r/a") == "a"
    assert own.relative_to("/r", "/rx/a") is None
    assert own.relative_to("/r", "/") is None
    assert own.relative_to("/rX", "/r/a") is None
    assert own.relative_to("/r//", "/r/a") == "a"


# --- snapshots: a checkout's state and its differences -------------------------------------------------------------

from worktree_guard.subagents import snapshots as snaps  # noqa: E402


def test_fingerprint_tells_content_links_directories_specials_and_absence_apart(tmp_path) -> None:
    import hashlib
    import stat

    f = tmp_path / "f"
    f.write_bytes(b"abc")
    assert snaps.fingerprint(str(f)) == "sha256:" + hashlib.sha256(b"abc").hexdigest()
    big = tmp_path / "big"
    big.write_bytes(b"x" * (2 * 1024 * 1024 + 1))
    assert snaps.fingerprint(str(big)) == "sha256:" + hashlib.sha256(b"x" * (2 * 1024 * 1024 + 1)).hexdigest()  # read in blocks
    (tmp_path / "l").symlink_to("target/x")
    assert snaps.fingerprint(str(tmp_path / "l")) == "link:target/x"
    assert snaps.fingerprint(str(tmp_path)) == "dir"
    assert snaps.fingerprint(str(tmp_path / "nope")) == "absent"
    os.mkfifo(tmp_path / "fifo")
    assert snaps.fingerprint(str(tmp_path / "fifo")) == f"special:{stat.S_IFIFO}"
    assert snaps.fingerprint(str(f / "under-a-file")) == "unreadable:20"  # ENOTDIR
    assert snaps.fingerprint_of(str(tmp_path), "f") == snaps.fingerprint(str(f))


def test_a_file_above_the_hash_limit_is_fingerprinted_by_size_and_mtime(tmp_path, monkeypatch) -> None:
    f = tmp_path / "f"
    f.write_bytes(b"12345")
    monkeypatch.setattr(snaps, "HASH_LIMIT", 4)
    st = os.stat(f)
    assert snaps.fingerprint(str(f)) == f"large:5:{st.st_mtime_ns}"
    monkeypatch.setattr(snaps, "HASH_LIMIT", 5)
    assert snaps.fingerprint(str(f)).startswith("sha256:")


def test_tree_fingerprint_hashes_names_sizes_and_times_below_a_directory(tmp_path, monkeypatch) -> None:
    import hashlib

    d = tmp_path / "d"
    (d / "sub").mkdir(parents=True)
    (d / "b").write_text("bb")
    (d / "a").write_text("a")
    (d / "sub" / "c").write_text("ccc")
    for p in (d / "a", d / "b", d / "sub" / "c", d / "sub"):
        os.utime(p, ns=(1_000_000_000, 1_000_000_000))
    expected = hashlib.sha256()
    for rel, mark in (("a", f"1\0{1_000_000_000}"), ("b", f"2\0{1_000_000_000}"), ("sub", "dir"), ("sub/c", f"3\0{1_000_000_000}")):
        expected.update(f"{rel}\0{mark}\n".encode())
    assert snaps.tree_fingerprint(str(d)) == f"tree:{expected.hexdigest()}:4"
    os.utime(d / "sub", ns=(2_000_000_000, 2_000_000_000))  # a directory's time is not its content (stop 33)
    assert snaps.tree_fingerprint(str(d)) == f"tree:{expected.hexdigest()}:4"
    assert snaps.fingerprint_of(str(tmp_path), "d/") == snaps.tree_fingerprint(str(d))
    # a linked checkout of the root's repository below it is not its content; a repository of its own (vendored) is
    (tmp_path / ".git").mkdir()  # tmp_path is the checkout: its common git dir
    _registered(d / "wt", tmp_path / ".git")
    (d / "wt" / "f").write_text("f")
    assert snaps.fingerprint_of(str(tmp_path), "d/") == f"tree:{expected.hexdigest()}:4"
    assert snaps.tree_fingerprint(str(d)) != f"tree:{expected.hexdigest()}:4"  # without the root, no repository to ask
    (d / "wt" / ".git").write_text("gitdir: /r/.git/worktrees/wt\n")  # a `.git` file written by hand (review 33a)
    assert snaps.fingerprint_of(str(tmp_path), "d/") != f"tree:{expected.hexdigest()}:4"
    (d / "wt" / ".git").unlink()
    (d / "wt" / ".git").mkdir()
    assert snaps.fingerprint_of(str(tmp_path), "d/") != f"tree:{expected.hexdigest()}:4"
    shutil.rmtree(d / "wt")
    (d / "sl").symlink_to(d / "sub")  # a symlink is content, whatever it points at
    assert snaps.tree_fingerprint(str(d)) != f"tree:{expected.hexdigest()}:4"
    (d / "sl").unlink()
    # the runtime's settings.local.json below an ignored .claude/ is not its content, given the checkout's root
    claude = tmp_path / ".claude"
    claude.mkdir()
    (claude / "x").write_text("x")
    before = snaps.fingerprint_of(str(tmp_path), ".claude/")
    (claude / "settings.local.json").write_text("{}")
    assert snaps.fingerprint_of(str(tmp_path), ".claude/") == before
    assert snaps.tree_fingerprint(str(claude)) != before  # without the root, it is a file like any other
    (claude / "settings.local.json.bak").write_text("{}")
    assert snaps.fingerprint_of(str(tmp_path), ".claude/") != before
    assert snaps.tree_fingerprint(str(tmp_path / "none")) == "absent"
    (tmp_path / "file").write_text("x")
    assert snaps.tree_fingerprint(str(tmp_path / "file")) == snaps.fingerprint(str(tmp_path / "file"))
    monkeypatch.setattr(snaps, "TREE_LIMIT", 2)
    first_two = hashlib.sha256()
    for rel, size in (("a", 1), ("b", 2)):
        first_two.update(f"{rel}\0{size}\0{1_000_000_000}\n".encode())
    assert snaps.tree_fingerprint(str(d)) == f"tree:{first_two.hexdigest()}:2+"
    monkeypatch.setattr(snaps, "TREE_LIMIT", 4)
    assert snaps.tree_fingerprint(str(d)) == f"tree:{expected.hexdigest()}:4"


def _registered(directory, gitdirs) -> None:
    """Make `directory` a linked checkout as `git worktree add` leaves one: its `.git` file names a gitdir whose
    `gitdir` file names that `.git` back."""
    gitdir = gitdirs / "worktrees" / directory.name
    gitdir.mkdir(parents=True)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / ".git").write_text(f"gitdir: {gitdir}\n")
    (gitdir / "gitdir").write_text(f"{directory / '.git'}\n")


def test_tree_manifest_lists_the_files_below_an_ignored_directory_but_not_a_linked_checkout(tmp_path, monkeypatch) -> None:
    root = tmp_path / "r"
    (root / "out" / "x").mkdir(parents=True)
    (root / "out" / "nested" / ".git").mkdir(parents=True)  # a repository of its own: its files, not its database
    (root / "out" / "nested" / ".git" / "HEAD").write_text("ref: x\n")
    (root / "out" / "nested" / "f").write_text("n")
    (root / "out" / "gitfile").mkdir()
    (root / "out" / "gitfile" / ".git").write_text("gitdir: /x\n")  # written by hand: no checkout (review 33a)
    (root / "out" / "gitfile" / "g").write_text("g")
    (root / ".git").mkdir()
    _registered(root / "out" / "linked", root / ".git")
    (root / "out" / "linked" / "theirs").write_text("t")
    (root / "out" / "a").write_text("aa")
    (root / "out" / "x" / "b").write_text("b")
    (root / "out" / "l").symlink_to("a")
    marks = {p: f"{os.lstat(root / p).st_size}:{os.lstat(root / p).st_mtime_ns}" for p in ("out/a", "out/x/b", "out/nested/f", "out/gitfile/.git", "out/gitfile/g")}
    want = {**marks, "out/l": "link:a"}
    assert snaps.tree_manifest(str(root), "out/") == want
    assert snaps.tree_manifest(str(root), "out") == want
    (root / "out" / "linked").rename(root / "out" / "moved")  # its gitdir no longer names it back
    assert "out/moved/theirs" in snaps.tree_manifest(str(root), "out/")
    small = tmp_path / "s"
    (small / "out" / "x").mkdir(parents=True)
    (small / "out" / "a").write_text("aa")
    (small / "out" / "x" / "b").write_text("b")
    (small / "out" / "l").symlink_to("a")
    monkeypatch.setattr(snaps, "TREE_LIMIT", 3)  # a, l, then the one directory walked into (x): 3, then b: 4
    assert snaps.tree_manifest(str(small), "out/") is None
    monkeypatch.setattr(snaps, "TREE_LIMIT", 4)
    assert set(snaps.tree_manifest(str(small), "out/")) == {"out/a", "out/x/b", "out/l"}


def test_linked_checkout_is_one_git_made_and_names_it_back(tmp_path) -> None:
    from tests.helpers import git, make_repo

    repo = make_repo(tmp_path / "w")
    common = snaps.common_dir(str(repo.main))
    assert common == os.path.realpath(repo.main / ".git") and snaps.common_dir(str(repo.worktree)) == common
    assert snaps.common_dir(str(tmp_path)) is None
    assert snaps.linked_checkout(str(repo.worktree), common) and snaps.linked_checkout(str(repo.sibling), common)
    assert not snaps.linked_checkout(str(repo.worktree), None) and not snaps.linked_checkout(str(repo.worktree), str(tmp_path))
    assert not snaps.linked_checkout(str(repo.main), common)  # its .git is a directory
    fake = tmp_path / "fake"
    fake.mkdir()
    (fake / ".git").write_text("gitdir: /nowhere\n")
    assert not snaps.linked_checkout(str(fake), common)
    (fake / ".git").write_text(f"gitdir: {git('rev-parse', '--git-dir', cwd=repo.worktree).strip()}\n")  # a real gitdir, not its own
    assert not snaps.linked_checkout(str(fake), common)
    forged = repo.worktree / "g"  # review 33b: two plain files naming each other, outside the repository's worktrees/
    forged.mkdir()
    (forged / "gitdir").write_text(f"{fake / '.git'}\n")
    (fake / ".git").write_text(f"gitdir: {forged}\n")
    assert not snaps.linked_checkout(str(fake), common)
    (tmp_path / "link").symlink_to(repo.worktree)  # a symlink to a checkout is no checkout where it stands
    assert not snaps.linked_checkout(str(tmp_path / "link"), common)
    (fake / ".git").unlink()
    (fake / ".git").symlink_to(repo.worktree / ".git")
    assert not snaps.linked_checkout(str(fake), common)
    assert not snaps.linked_checkout(str(tmp_path / "none"), common)
    # git 2.48's worktree.useRelativePaths writes both files relative to where they stand (review 33b)
    from pathlib import Path as pathlib_path

    gitdir = pathlib_path(git("rev-parse", "--absolute-git-dir", cwd=repo.sibling).strip())
    (repo.sibling / ".git").write_text(f"gitdir: {os.path.relpath(gitdir, repo.sibling)}\n")
    (gitdir / "gitdir").write_text(f"{os.path.relpath(repo.sibling / '.git', gitdir)}\n")
    assert snaps.linked_checkout(str(repo.sibling), common)


def test_git_lines_splits_the_nul_output_and_raises_with_git_s_words(tmp_path, monkeypatch) -> None:
    from tests.helpers import make_repo

    repo = make_repo(tmp_path / "w")
    (repo.main / "n e w").write_text("x")
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "nowhere"))  # ignored: git is pointed at the checkout it runs in
    assert snaps.git_lines(str(repo.main), "ls-files", "-z", "--others", "--", "n e w", "README.md") == ["n e w"]
    with pytest.raises(RuntimeError) as raised:
        snaps.git_lines(str(repo.main), "rev-parse", "--verify", "-q", "nosuchref^{commit}x")
    assert str(raised.value).startswith(f"git rev-parse failed in {repo.main}")
    with pytest.raises(RuntimeError) as raised:
        snaps.git_lines(str(repo.main), "frobnicate")
    assert str(raised.value).startswith(f"git frobnicate failed in {repo.main}: git: 'frobnicate' is not a git command")
    env = snaps._git_env()
    assert "GIT_DIR" not in env and env["GIT_OPTIONAL_LOCKS"] == "0" and env["LC_ALL"] == "C"


def test_parse_status_reads_porcelain_v2() -> None:
    out = b"\0".join([
        b"# branch.oid (initial)", b"# branch.head (detached)",
        b"1 .M N... 100644 100644 100644 abc abc a file.txt",
        b"2 R. N... 100644 100644 100644 abc abc R100 new name", b"old name",
        b"u UU N... 100644 100644 100644 100644 a b c conflict x",
        b"? un tracked", b"! ignored/", b"",
    ])
    assert snaps.parse_status(out) == (None, None, {"a file.txt": ".M", "new name": "R.", "old name": "R.", "conflict x": "UU", "un tracked": "??", "ignored/": "!!"})
    assert snaps.parse_status(b"# branch.oid abc\0# branch.head main\0# branch.upstream x\0") == ("abc", "main", {})
    assert snaps.parse_status(b"2 R. N... 100644 100644 100644 abc abc R100 last") == (None, None, {"last": "R."})
    assert snaps.parse_status(b"") == (None, None, {})


def test_describe_status_in_words() -> None:
    assert snaps.describe_status("??") == "untracked"
    assert snaps.describe_status("!!") == "a path git ignores"
    assert snaps.describe_status(".M") == "modified"
    assert snaps.describe_status("M.") == "staged as modified"
    assert snaps.describe_status("AM") == "modified, staged as added"
    assert snaps.describe_status("RD") == "deleted, staged as renamed"
    assert snaps.describe_status("CT") == "type changed, staged as copied"
    assert snaps.describe_status("UU") == "unmerged, staged as unmerged"
    assert snaps.describe_status("..") == ".."
    assert snaps.describe_status("X") == "X"


def test_a_leak_s_code_and_where_a_checkout_was() -> None:
    assert {snaps.Leak(k, "/r").code for k in ("branch", "head")} == {"WG601"}
    assert {snaps.Leak(k, "/r").code for k in ("new", "changed", "reverted")} == {"WG602"}
    S = snaps.CheckoutState
    assert snaps._at(S(root="/r", head="0123456789abcdef", branch="main")) == "main (0123456789ab)"
    assert snaps._at(S(root="/r", head="0123456789abcdef")) == "a detached HEAD (0123456789ab)"
    assert snaps._at(S(root="/r", branch="main")) == "main (no commit yet)"


def test_find_leaks_blames_what_changed_since_the_start(tmp_path) -> None:
    S = snaps.CheckoutState
    root = str(tmp_path)
    (tmp_path / "same").write_text("s")
    (tmp_path / "edited").write_text("new")
    fp_same = snaps.fingerprint(str(tmp_path / "same"))
    before = S(root=root, head="h1", branch="main", dirty={"same": (".M", fp_same), "edited": (".M", "old"), "restaged": (".M", "x"), "gone": ("??", "y")})
    after = S(root=root, head="h1", branch="main", dirty={"same": (".M", "ignored"), "edited": (".M", "z"), "restaged": ("M.", "x"), "fresh": ("??", "q")})
    assert snaps.find_leaks(before, after) == [
        snaps.Leak("changed", root, "edited", before=".M", after=".M"),
        snaps.Leak("new", root, "fresh", after="??"),
        snaps.Leak("changed", root, "restaged", before=".M", after="M."),
        snaps.Leak("reverted", root, "gone", before="??"),
    ]
    moved = after.model_copy(update={"head": "h2", "dirty": {}})
    assert snaps.find_leaks(before.model_copy(update={"dirty": {}}), moved) == [snaps.Leak("head", root, before="h1", after="h2")]
    assert snaps.find_leaks(before, moved) == [snaps.Leak("head", root, before="h1", after="h2")]  # a commit took them: not reverted
    switched = after.model_copy(update={"branch": "other", "dirty": {}})
    assert snaps.find_leaks(before, switched) == [snaps.Leak("branch", root, before="main (h1)", after="other (h1)")]
    assert snaps.find_leaks(before, before.model_copy(update={"dirty": {**before.dirty, "same": (".M", fp_same)}})) == [
        snaps.Leak("changed", root, "edited", before=".M", after=".M"),
        snaps.Leak("changed", root, "gone", before="??", after="??"),
        snaps.Leak("changed", root, "restaged", before=".M", after=".M"),
    ]


def test_snapshot_reads_each_root_with_git_status_and_passes_over_nested_checkouts_and_the_runtime_s_files(tmp_path) -> None:
    from tests.helpers import git, make_repo

    repo = make_repo(tmp_path / "w")
    main = str(repo.main)
    (repo.main / ".gitignore").write_text("out/\n*.log\n")
    git("add", ".gitignore", cwd=repo.main)
    git("commit", "-q", "-m", "ignore", cwd=repo.main)
    head = git("rev-parse", "HEAD", cwd=repo.main).strip()
    (repo.main / "README.md").write_text("changed\n")
    (repo.main / "new.txt").write_text("n")
    (repo.main / "out").mkdir()
    (repo.main / "out" / "o.bin").write_text("o")
    (repo.main / "x.log").write_text("l")
    (repo.main / ".claude").mkdir(exist_ok=True)
    (repo.main / ".claude" / "settings.local.json").write_text("{}")
    (repo.worktree / "inside-wt.txt").write_text("w")
    checkouts = [main, str(repo.worktree), str(repo.sibling), str(repo.outside)]
    [state] = snaps.snapshot([main], checkouts, manifests=True)
    assert state.root == main and state.head == head and state.branch == "main" and state.error is None
    assert set(state.dirty) == {"README.md", "new.txt", "out/", "x.log"}
    assert state.dirty["README.md"] == (".M", snaps.fingerprint(str(repo.main / "README.md")))
    assert state.dirty["out/"] == ("!!", snaps.tree_fingerprint(str(repo.main / "out")))
    assert state.trees == {"out/": {"out/o.bin": f"1:{os.lstat(repo.main / 'out' / 'o.bin').st_mtime_ns}"}}
    [plain] = snaps.snapshot([main], checkouts, fingerprints=False, ignored=False)
    assert plain.dirty == {"README.md": (".M", ""), "new.txt": ("??", "")} and plain.trees == {}
    [no_trees] = snaps.snapshot([main], checkouts)
    assert no_trees.trees == {} and "out/" in no_trees.dirty
    [unnested] = snaps.snapshot([main], [main], ignored=False, fingerprints=False)
    assert "README.md" in unnested.dirty and not any(p.startswith(".claude") for p in unnested.dirty)
    own = os.path.relpath(repo.worktree, main)
    assert own.startswith(".claude/worktrees/agent-")
    assert snaps._ignored(main, f"{own}/f", [main]) and snaps._ignored(main, f"{own}/", [main]) and snaps._ignored(main, ".claude/settings.local.json", [main])
    assert not snaps._ignored(main, ".claude/settings.json", [main])
    assert not snaps._ignored(main, ".claude/settings.local.json/", [main])  # a directory of that name (h-snap33)
    # Matched whole, not as a prefix of the text: these are a worker's files (h-sub32's finding).
    assert not snaps._ignored(main, ".claude/settings.local.json.bak", [main]) and not snaps._ignored(main, ".claude/settings.local.jsonrc", [main])
    assert not snaps._ignored(main, ".claude/worktrees", [main]) and not snaps._ignored(main, ".claude/worktrees/notes.txt", [main])
    assert not snaps._ignored(main, ".claude/worktrees/agent-x/f", [main])  # no such checkout
    fake = repo.main / ".claude" / "worktrees"
    (fake / "cloned" / ".git").mkdir(parents=True)  # a repository, not a checkout the runtime made
    (fake / "linked").mkdir()
    (fake / "linked" / ".git").symlink_to(repo.worktree / ".git")
    (fake / "texted").mkdir()
    (fake / "texted" / ".git").write_text("gitdir; x\n")
    (fake / "made").mkdir()
    (fake / "made" / ".git").write_text("gitdir: /elsewhere\n")  # a `.git` file a worker wrote (review 33a)
    _registered(fake / "registered", repo.main / ".git")  # as git leaves one, even before `git worktree list` shows it
    for name, owned in (("cloned", False), ("linked", False), ("texted", False), ("made", False), ("registered", True)):
        assert snaps.runtime_owned(main, f".claude/worktrees/{name}/f") is owned, name
        assert snaps.runtime_owned(main, f".claude/worktrees/{name}/") is owned, name
    assert not snaps.runtime_owned(main, ".claude/worktrees/registered.txt") and not snaps.runtime_owned(main, ".claude/worktreesX/registered/f")
    assert snaps._ignored(main, "outside/x", [main, f"{main}/outside"])
    assert not snaps._ignored(main, "outsidex/y", [main, f"{main}/outside"])
    assert not snaps._ignored(main, "x", [main, "/elsewhere"])


def test_snapshot_records_why_a_state_could_not_be_read(tmp_path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    [failed, missing] = snaps.snapshot([str(plain), str(tmp_path / "missing")], [])
    assert failed.root == str(plain) and failed.error.startswith("git status failed: fatal: not a git repository") and failed.head is None
    assert missing.error.startswith("cannot run git: ") and "No such file or directory" in missing.error


# --- registry: the workers of one repository -------------------------------------------------------------------------

from worktree_guard.subagents import registry as reg  # noqa: E402


def _dispatch(did="t1", **extra):
    fields = dict(dispatch_id=did, checkout="/c", owns=["src/**"], time=1000.0)
    fields.update(extra)
    return reg.Dispatch(**fields)


def test_a_worker_view_s_name() -> None:
    assert reg.WorkerView(dispatch=_dispatch(agent_type="coder"), agent=reg.Agent(agent_id="a1")).name == "coder a1"
    assert reg.WorkerView(dispatch=_dispatch(), agent=reg.Agent(agent_id="a1")).name == "agent a1"
    assert reg.WorkerView(dispatch=_dispatch("toolu_9")).name == "agent (dispatched by toolu_9)"


def test_a_worker_s_window_runs_from_its_start_to_its_stop_or_to_where_it_was_forgotten() -> None:
    d = _dispatch(time=1000.0)
    W = reg.WorkerView
    assert W(dispatch=d, agent=reg.Agent(agent_id="a", started=1010.0, stopped=1050.0)).window(5000.0, 100.0) == (1010.0, 1050.0)
    assert W(dispatch=d, agent=reg.Agent(agent_id="a", stopped=1050.0)).window(5000.0, 100.0) == (1000.0, 1050.0)
    assert W(dispatch=d, agent=reg.Agent(agent_id="a", started=1010.0)).window(5000.0, 100.0) == (1010.0, 1110.0)
    assert W(dispatch=d, agent=reg.Agent(agent_id="a", started=1010.0)).window(1020.0, 100.0) == (1010.0, 1020.0)
    assert W(dispatch=d).window(5000.0, 100.0) == (1000.0, 1100.0)  # never linked: the stale limit when shorter
    assert W(dispatch=d).window(5000.0, 1000.0) == (1000.0, 1000.0 + reg.PENDING_AFTER)
    assert W(dispatch=d).window(1100.0, 1000.0) == (1000.0, 1100.0)
    running = reg.Workers(dispatches={"t1": d}, agents={"x": reg.Agent(agent_id="x", session_id=None, started=1001.0)})
    assert W(dispatch=d).window(2000.0, 10_000.0, running) == (1000.0, 2000.0)  # a sub-agent that may be it still runs
    assert W(dispatch=d).window(2000.0, 10_000.0, reg.Workers()) == (1000.0, 1000.0 + reg.PENDING_AFTER)


def test_is_running_by_stop_staleness_provisional_and_pending_dispatches() -> None:
    W, A = reg.WorkerView, reg.Agent
    d = _dispatch(time=1000.0, session_id="s", agent_type="coder")
    none = reg.Workers()
    assert not reg.is_running(W(dispatch=d, agent=A(agent_id="a", started=1000.0, stopped=1001.0)), none, 1002.0, 100.0)
    assert reg.is_running(W(dispatch=d, agent=A(agent_id="a", started=1000.0)), none, 1099.0, 100.0)
    assert not reg.is_running(W(dispatch=d, agent=A(agent_id="a", started=1000.0)), none, 1100.0, 100.0)
    assert reg.is_running(W(dispatch=d, agent=A(agent_id="a")), none, 1099.0, 100.0)  # not started: since its dispatch
    assert not reg.is_running(W(dispatch=d, agent=A(agent_id="a")), none, 1100.0, 100.0)
    p = d.model_copy(update={"provisional": True})
    assert reg.is_running(W(dispatch=p), none, 1000.0 + reg.PROVISIONAL_AFTER - 1, 1000.0)
    assert not reg.is_running(W(dispatch=p), none, 1000.0 + reg.PROVISIONAL_AFTER, 1000.0)
    assert not reg.is_running(W(dispatch=p), none, 1030.0, 30.0)
    assert reg.is_running(W(dispatch=d), none, 1000.0 + reg.PENDING_AFTER - 1, 10_000.0)
    assert not reg.is_running(W(dispatch=d), none, 1000.0 + reg.PENDING_AFTER, 10_000.0)
    assert not reg.is_running(W(dispatch=d), none, 1050.0, 50.0)
    now = 2000.0

    def runs(**agent) -> bool:
        fields = dict(agent_id="x", session_id="s", agent_type="coder", started=1500.0)
        fields.update(agent)
        return reg.is_running(W(dispatch=d), reg.Workers(agents={"x": A(**fields)}), now, 10_000.0)

    assert runs()
    assert runs(started=1000.0)
    assert not runs(started=999.0)
    assert not runs(dispatch_id="other")
    assert not runs(session_id="t")
    assert not runs(agent_type="other")
    assert not runs(started=None)
    assert not runs(stopped=1900.0)
    assert not reg.is_running(W(dispatch=d), reg.Workers(agents={"x": A(agent_id="x", session_id="s", agent_type="coder", started=1500.0)}), now, 500.0)
    assert reg.is_running(W(dispatch=d), reg.Workers(agents={"x": A(agent_id="x", session_id="s", agent_type="coder", started=1500.0)}), now, 500.1)
    untyped = d.model_copy(update={"agent_type": None})
    assert reg.is_running(W(dispatch=untyped), reg.Workers(agents={"x": A(agent_id="x", session_id="s", agent_type="any", started=1500.0)}), now, 10_000.0)


def test_workers_of_lists_dispatches_with_an_ownership_and_their_linked_agents() -> None:
    w = reg.Workers(
        dispatches={"t1": _dispatch("t1"), "t2": _dispatch("t2", owns=None), "t3": _dispatch("t3", checkout="/other"), "t4": _dispatch("t4", owns=[])},
        agents={"a": reg.Agent(agent_id="a", dispatch_id="t3"), "b": reg.Agent(agent_id="b")},
    )
    assert [(v.dispatch.dispatch_id, v.agent and v.agent.agent_id) for v in reg.workers_of(w)] == [("t1", None), ("t3", "a"), ("t4", None)]
    assert [v.dispatch.dispatch_id for v in reg.workers_of(w, "/c")] == ["t1", "t4"]
    assert reg.agent_of(w, "t3").agent_id == "a" and reg.agent_of(w, "t1") is None


def test_which_sessions_and_dispatchers_declared_a_wave() -> None:
    from types import SimpleNamespace as NS

    w = reg.Workers(dispatches={"t1": _dispatch("t1", session_id="s", dispatcher="p"), "t2": _dispatch("t2", owns=None, session_id="s2", dispatcher="p2")})
    assert reg.session_declared(w, "s") and not reg.session_declared(w, "s2") and not reg.session_declared(w, None)
    assert reg.dispatcher_declared(w, "p") and not reg.dispatcher_declared(w, "p2") and not reg.dispatcher_declared(w, None)
    nobody = reg.Workers(dispatches={"t1": _dispatch("t1", session_id=None, dispatcher=None)})
    assert reg.session_declared(nobody, None) and not reg.dispatcher_declared(nobody, None)
    assert reg.wave_declared(w, NS(session_id="s", parent_id=None))
    assert reg.wave_declared(w, NS(session_id="x", parent_id="p"))
    assert not reg.wave_declared(w, NS(session_id="s2", parent_id="p2"))
    assert not reg.wave_declared(w, object())


def test_prompt_digest_is_the_sha256_of_the_stripped_prompt() -> None:
    import hashlib

    assert reg.prompt_digest("  do it \n") == hashlib.sha256(b"do it").hexdigest()
    assert reg.prompt_digest("\udcff") == hashlib.sha256("\udcff".encode("utf-8", "surrogatepass")).hexdigest()


def test_the_registry_file_is_private_pruned_and_saved_under_its_lock(tmp_path) -> None:
    import stat
    import time

    r = reg.Registry(str(tmp_path / "c.git"), str(tmp_path / "st" / "waves"))
    assert r.dir == reg.registry_dir(str(tmp_path / "c.git"), str(tmp_path / "st" / "waves"))
    assert r.path == os.path.join(r.dir, "workers.json")
    assert r.load() == reg.Workers()
    now = time.time()
    old = now - reg.HISTORY_AFTER - 10
    with r.changing() as w:
        w.dispatches["old"] = _dispatch("old", time=old)
        w.dispatches["kept"] = _dispatch("kept", time=old)
        w.dispatches["new"] = _dispatch("new", time=now)
        w.agents["gone"] = reg.Agent(agent_id="gone", started=old, stopped=old)
        w.agents["linked"] = reg.Agent(agent_id="linked", dispatch_id="kept", started=old, stopped=now - 5)
        w.agents["stopped-late"] = reg.Agent(agent_id="stopped-late", started=old, stopped=now)
        w.agents["never"] = reg.Agent(agent_id="never")
        w.agents["running"] = reg.Agent(agent_id="running", started=old + 20)
    saved = r.load()
    assert sorted(saved.dispatches) == ["kept", "new"]
    assert sorted(saved.agents) == ["linked", "never", "running", "stopped-late"]
    assert stat.S_IMODE(os.stat(r.path).st_mode) == 0o600
    for d in (r.dir, os.path.dirname(r.dir), os.path.dirname(os.path.dirname(r.dir))):
        assert stat.S_IMODE(os.stat(d).st_mode) == 0o700, d
    assert sorted(os.listdir(r.dir)) == ["workers.json", "workers.lock"]
    assert r.file("blame", "a/b") == os.path.join(r.dir, "blame", reg.safe_name("a/b") + ".json")
    assert r.read("blame", "a1") is None
    r.write("blame", "a1", "text")
    assert r.read("blame", "a1") == "text"
    assert stat.S_IMODE(os.stat(os.path.join(r.dir, "blame")).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(r.file("blame", "a1")).st_mode) == 0o600


def test_flocked_waits_for_the_lock_and_times_out_in_words(tmp_path, monkeypatch) -> None:
    import fcntl
    import stat

    lock = str(tmp_path / "x.lock")
    with reg.flocked(lock, "the thing"):
        assert stat.S_IMODE(os.stat(lock).st_mode) == 0o600
    fd = os.open(lock, os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    monkeypatch.setattr(reg, "LOCK_TIMEOUT", 0.05)
    try:
        with pytest.raises(TimeoutError) as raised:
            with reg.flocked(lock, "the thing"):
                pass
        assert str(raised.value) == "the thing stayed locked for 0.05 s"
    finally:
        os.close(fd)
    with reg.flocked(lock, "the thing"):  # free again
        pass


def test_flocked_refuses_a_lock_it_cannot_take_for_another_reason(tmp_path, monkeypatch) -> None:
    import errno
    import fcntl

    def fail(fd, how):
        raise OSError(errno.EBADF, "bad")

    monkeypatch.setattr(fcntl, "flock", fail)
    with pytest.raises(TimeoutError) as raised:
        with reg.flocked(str(tmp_path / "l"), "W"):
            pass
    assert str(raised.value) == "W stayed locked for 10 s"


def test_load_model_reads_a_record_or_gives_an_empty_one(tmp_path) -> None:
    (tmp_path / "d").mkdir()
    p = str(tmp_path / "d" / "w.json")
    assert reg.load_model(p, reg.Workers) == reg.Workers()
    reg.write_private(p, reg.Workers(dispatches={"t": _dispatch("t")}).model_dump_json())
    assert reg.load_model(p, reg.Workers).dispatches["t"].checkout == "/c"
    assert os.listdir(tmp_path / "d") == ["w.json"]


# --- blame and rollback ------------------------------------------------------------------------------------------------

from worktree_guard.subagents import blame as bl  # noqa: E402
from worktree_guard.subagents.linking import Worker  # noqa: E402


def _worker(root, owns=("src/**",), agent_id="a1", **extra) -> Worker:
    fields = dict(agent_id=agent_id, agent_type="coder", ownership=own.Ownership.of(list(owns), "the prompt"), root=str(root), isolated=False, linked_by="test")
    fields.update(extra)
    return Worker(**fields)


def _state(root, head="h", branch="main", dirty=None, trees=None):
    return snaps.CheckoutState(root=str(root), head=head, branch=branch, dirty=dirty or {}, trees=trees or {})


def test_compute_blame_blames_changed_unowned_clean_paths_only(tmp_path) -> None:
    root = tmp_path
    for name in ("mine.txt", "new.txt", "added.txt", "mod.txt", "again.txt", "scratch.pyc", "other.txt", "audit.log"):
        (root / name).write_text(name)
    (root / "nest" / "inner").mkdir(parents=True)
    (root / "nest" / ".git").mkdir()  # a repository of its own, which git lists as one entry
    (root / "nest" / "inner" / "f").write_text("f")
    (root / ".git").mkdir()
    _registered(root / ".claude" / "worktrees" / "agent-x", root / ".git")
    (root / "fresh" / ".git").mkdir(parents=True)  # a repository made during the window (review 33b: `git init`)
    before = _state(root, dirty={"again.txt": (".M", "old"), "gone.txt": (".M", "x"), "nest/": ("??", "")})
    after = _state(root, dirty={
        "src/mine.py": ("??", ""), "new.txt": ("??", ""), "added.txt": ("A.", ""), "mod.txt": (".M", ""), "again.txt": (".M", ""),
        "scratch.pyc": ("??", ""), "other.txt": ("??", ""), "audit.log": ("??", ""), ".claude/settings.local.json": ("??", ""),
        ".claude/worktrees/agent-x/": ("??", ""), "nest/": ("??", ""), "nest/inner/f": ("??", ""), "ign.txt": ("!!", ""), "fresh/": ("??", ""),
        ".claude/settings.local.json.bak": ("??", ""), ".claude/worktrees/stray.txt": ("??", ""),
    })
    (root / "ign.txt").write_text("i")
    w = _worker(root)
    other = own.Ownership.of(["other.txt"], "")
    blame = bl.compute_blame(before, after, w, [other], own.Ownership.of(["*.pyc"], "scratch"), exclude=("audit.log",))
    assert blame.agent_id == "a1" and blame.agent_type == "coder" and blame.root == str(root) and blame.start_head == "h"
    assert blame.owns == ["src/**"] and blame.owns_source == "the prompt"
    assert [(b.path, b.existed, b.committed) for b in blame.blamed] == [
        (".claude/settings.local.json.bak", False, False), (".claude/worktrees/stray.txt", False, False),
        ("added.txt", False, False), ("fresh/", False, False), ("ign.txt", False, False), ("mod.txt", True, False),
        ("nest/inner/f", False, False),  # git listed it itself: this checkout's, whatever `.git` is beside it (review 33a)
        ("new.txt", False, False),
    ]
    assert {b.path: b.fingerprint for b in blame.blamed}["mod.txt"] == snaps.fingerprint(str(root / "mod.txt"))
    assert blame.changed_again == ["again.txt", "gone.txt"]
    assert blame.nested == ["nest/"]  # git lists a repository of its own as one entry
    assert blame.wave == []


def test_compute_blame_asks_the_start_head_when_head_moved_and_adds_what_the_commits_changed(tmp_path) -> None:
    from tests.helpers import git, make_repo

    repo = make_repo(tmp_path / "w")
    root = str(repo.main)
    start = git("rev-parse", "HEAD", cwd=repo.main).strip()
    (repo.main / "committed.txt").write_text("c")
    (repo.main / "README.md").write_text("changed and committed\n")
    git("add", "committed.txt", "README.md", cwd=repo.main)
    git("commit", "-q", "-m", "by a worker", cwd=repo.main)
    head = git("rev-parse", "HEAD", cwd=repo.main).strip()
    assert sorted(bl.committed_since(root, start, head)) == ["README.md", "committed.txt"]
    assert bl.committed_since(root, start, start) == [] and bl.committed_since(root, None, head) == [] and bl.committed_since(root, start, None) == []
    (repo.main / "src" / "app.py").write_text("edited\n")
    (repo.main / "loose.txt").write_text("l")
    before = _state(root, head=start)
    after = _state(root, head=head, dirty={"src/app.py": (".M", ""), "loose.txt": ("??", ""), "README.md": (".M", "")})
    blame = bl.compute_blame(before, after, _worker(root, owns=("docs/**",)), [], own.Ownership.of([], "s"), committed=["README.md", "committed.txt"])
    assert [(b.path, b.existed, b.committed) for b in blame.blamed] == [("README.md", True, False), ("loose.txt", False, False), ("src/app.py", True, False), ("committed.txt", False, True)]
    assert bl._in_commit(root, start, "README.md") and not bl._in_commit(root, start, "committed.txt")
    assert not bl._in_commit(root, "0" * 40, "README.md")  # a commit git cannot read: not in it
    assert bl._in_commit(root, start, "src/app.py") and not bl._in_commit(root, start, "src/*.py")  # literal, not a glob
    nohead = bl.compute_blame(before.model_copy(update={"head": None}), after, _worker(root, owns=("docs/**",)), [], own.Ownership.of([], "s"))
    assert [(b.path, b.existed) for b in nohead.blamed] == [("README.md", False), ("loose.txt", False), ("src/app.py", False)]


def test_an_ignored_directory_is_blamed_file_by_file(tmp_path) -> None:
    root = tmp_path
    (root / "out").mkdir()
    (root / "out" / "keep").write_text("k")
    (root / "out" / "mine.o").write_text("m")
    (root / "out" / "theirs.o").write_text("t")
    (root / "out" / "changed").write_text("c2")
    st = lambda p: f"{os.lstat(root / p).st_size}:{os.lstat(root / p).st_mtime_ns}"  # noqa: E731
    then = {"out/keep": st("out/keep"), "out/changed": "1:1", "out/removed": "1:1"}
    before = _state(root, dirty={"out/": ("!!", "t1")}, trees={"out/": then})
    after = _state(root, dirty={"out/": ("!!", "t2")})
    w = _worker(root, owns=("out/mine.o",))
    blame = bl.compute_blame(before, after, w, [own.Ownership.of(["out/theirs.o"], "")], own.Ownership.of([], "s"))
    assert blame.blamed == []
    assert blame.changed_again == ["out/changed", "out/removed"]
    assert bl._tree_changes(str(root), "out/", before) == [("out/changed", "!!", True, False), ("out/mine.o", "!!", False, False), ("out/theirs.o", "!!", False, False), ("out/removed", "!!", True, False)]
    fresh = _state(root)  # not there at the start: every file is new
    assert [c[0] for c in bl._tree_changes(str(root), "out/", fresh)] == ["out/changed", "out/keep", "out/mine.o", "out/theirs.o"]
    assert all(c[2] is False for c in bl._tree_changes(str(root), "out/", fresh))
    unlisted = _state(root, dirty={"out/": ("!!", "t1")})  # there, but its files were not listed
    assert bl._tree_changes(str(root), "out/", unlisted) == [("out/", "!!", True, False)]
    blame = bl.compute_blame(fresh, after, _worker(root, owns=("x",)), [], own.Ownership.of([], "s"))
    assert [b.path for b in blame.blamed] == ["out/changed", "out/keep", "out/mine.o", "out/theirs.o"]
    whole = bl.compute_blame(unlisted, _state(root, dirty={"out/": ("!!", "t3")}), _worker(root, owns=("out/**",)), [], own.Ownership.of([], "s"))
    assert whole.blamed == [] and whole.changed_again == []  # the whole tree is owned
    tracked_dir = bl.compute_blame(_state(root), _state(root, dirty={"new/": ("??", "")}), _worker(root, owns=("x",)), [], own.Ownership.of([], "s"))
    assert [(b.path, b.existed) for b in tracked_dir.blamed] == [("new/", False)]  # untracked, not ignored: one entry


def test_nested_checkout_finds_the_directory_holding_a_checkout_on_the_way(tmp_path) -> None:
    (tmp_path / "a" / "b" / "c").mkdir(parents=True)
    assert bl.nested_checkout(str(tmp_path), "a/b/c/f") is None
    (tmp_path / "a" / "b" / ".git").write_text("gitdir: x")  # names no git directory: a file someone wrote (review 33a)
    assert bl.nested_checkout(str(tmp_path), "a/b/c/f") is None
    (tmp_path / "a" / "b" / "x").mkdir()
    (tmp_path / "a" / "b" / "x" / "HEAD").write_text("ref: refs/heads/main\n")  # now it does (a submodule's, a worktree's)
    assert bl.nested_checkout(str(tmp_path), "a/b/c/f") == "a/b"
    assert bl.nested_checkout(str(tmp_path), "a/b/") == "a/b"
    assert bl.nested_checkout(str(tmp_path), "a/b") == "a/b"
    (tmp_path / "a" / ".git").symlink_to("nowhere")  # neither a directory nor a file
    assert bl.nested_checkout(str(tmp_path), "a/b/c") == "a/b"
    (tmp_path / "a" / ".git").unlink()
    (tmp_path / "a" / ".git").mkdir()  # a repository of its own
    assert bl.nested_checkout(str(tmp_path), "a/b/c") == "a"
    (tmp_path / "a" / ".git").rmdir()
    (tmp_path / "a" / ".git").write_text("not a gitdir line\n")
    assert bl.nested_checkout(str(tmp_path), "a/b/c") == "a/b"
    assert bl._overlaps((1, 2), (2, 3)) and bl._overlaps((2, 3), (1, 2)) and not bl._overlaps((1, 2), (2.5, 3)) and not bl._overlaps((3, 4), (1, 2))


def test_block_reason_lists_the_blamed_files_and_the_wave(tmp_path) -> None:
    w = _worker("/r", agent_id="a9")
    blame = bl.Blame(agent_id="a9", root="/r", start_head="h", owns=["src/**"], owns_source="p", blamed=[bl.BlamedPath(path=f"f{i}", existed=True, fingerprint="x") for i in range(27)])
    text = bl.block_reason(blame, w, ["coder a2", "coder a3"])
    lines = text.split("\n")
    assert lines[0] == "worktree-guard: while you ran, files of /r outside your ownership changed, and no other worker of this wave owns them:"
    assert lines[1] == "- /r/f0 [WG706]" and lines[25] == "- /r/f24 [WG706]" and lines[26] == "- … and 2 more."
    assert lines[27] == "You own src/** (the prompt)."
    assert lines[28] == ("Do not undo them yourself: name each one in your final answer (what you changed and why), so that the orchestrator can keep it or run "
                         "`worktree-guard rollback --agent a9 --apply`, which restores exactly these files.")
    assert lines[29] == "Other workers ran in /r at the same time (coder a2, coder a3), and so may the user: a change you did not make is not yours to explain; say so."
    assert lines[30] == "[worktree-guard WG706]" and len(lines) == 31
    assert "\n- … and 1 more.\n" in bl.block_reason(blame.model_copy(update={"blamed": blame.blamed[:26]}), w)
    short = bl.block_reason(blame.model_copy(update={"blamed": blame.blamed[:25]}), w)
    assert "more." not in short and "Other workers" not in short and short.endswith("restores exactly these files.\n[worktree-guard WG706]")


def _registry_with_blame(tmp_path, blame: bl.Blame):
    r = reg.Registry(str(tmp_path / "c.git"), str(tmp_path / "waves"))
    r.write("blame", blame.agent_id, blame.model_dump_json())
    return r


def test_rollback_lists_then_restores_exactly_the_blamed_files(tmp_path) -> None:
    from tests.helpers import git, make_repo

    repo = make_repo(tmp_path / "w")
    root = str(repo.main)
    start = git("rev-parse", "HEAD", cwd=repo.main).strip()
    (repo.main / "README.md").write_text("the worker's edit\n")
    (repo.main / "made.txt").write_text("m")
    (repo.main / "later.txt").write_text("l")
    fp = lambda p: snaps.fingerprint(str(repo.main / p))  # noqa: E731
    items = [
        bl.BlamedPath(path="README.md", existed=True, fingerprint=fp("README.md")),
        bl.BlamedPath(path="made.txt", existed=False, fingerprint=fp("made.txt"), committed=True),
        bl.BlamedPath(path="later.txt", existed=False, fingerprint="sha256:before-a-later-edit"),
        bl.BlamedPath(path="out/", existed=False, fingerprint="x"),
        bl.BlamedPath(path="absent.txt", existed=False, fingerprint="absent"),
    ]
    blame = bl.Blame(agent_id="a1", agent_type="coder", root=root, start_head=start, owns=["src/**", "docs/**"], owns_source="p", blamed=items)
    r = _registry_with_blame(tmp_path, blame)
    lines, status = bl.rollback(r, "a1", apply=False)
    assert status == 1
    assert lines == [
        f"worker coder a1 in {root} owns src/**, docs/**; blamed on it:",
        f"  {root}/README.md: would restore from {start[:12]}",
        f"  {root}/made.txt: would remove (it did not exist at the start) (it was committed during the worker's window)",
        f"  {root}/later.txt: changed again since the worker stopped; left alone",
        f"  {root}/out/: a directory, which rollback never removes; left alone",
        f"  {root}/absent.txt: would remove (it did not exist at the start)",
        "Run again with --apply to do it.",
    ]
    assert (repo.main / "README.md").read_text() == "the worker's edit\n"
    lines, status = bl.rollback(r, "a1", apply=True)
    assert status == 1
    assert lines == [
        f"worker coder a1 in {root} owns src/**, docs/**; blamed on it:",
        f"  {root}/README.md: restored",
        f"  {root}/made.txt: removed",
        f"  {root}/later.txt: changed again since the worker stopped; left alone",
        f"  {root}/out/: a directory, which rollback never removes; left alone",
        f"  {root}/absent.txt: removed",
    ]
    assert (repo.main / "README.md").read_text() == "hello\n" and not (repo.main / "made.txt").exists() and (repo.main / "later.txt").exists()


def test_rollback_with_nothing_recorded_nothing_blamed_or_all_clean(tmp_path) -> None:
    r = reg.Registry(str(tmp_path / "c.git"), str(tmp_path / "waves"))
    assert bl.rollback(r, "zz", True) == (["worktree-guard rollback: no recorded stop of worker zz in this repository (it has not stopped, or it was not a shared-workspace worker)"], 2)
    r.write("blame", "a1", bl.Blame(agent_id="a1", root="/r", start_head=None, owns=[], owns_source="p").model_dump_json())
    assert bl.rollback(r, "a1", True) == (["worker a1 changed nothing outside its ownership (none)."], 0)
    r.write("blame", "a2", bl.Blame(agent_id="a2", root="/r", start_head=None, owns=["x", "y"], owns_source="p").model_dump_json())
    assert bl.rollback(r, "a2", False) == (["worker a2 changed nothing outside its ownership (x, y)."], 0)
    (tmp_path / "f").write_text("f")
    item = bl.BlamedPath(path="f", existed=True, fingerprint=snaps.fingerprint(str(tmp_path / "f")))
    r.write("blame", "a3", bl.Blame(agent_id="a3", root=str(tmp_path), start_head=None, owns=[], owns_source="p", blamed=[item]).model_dump_json())
    assert bl.rollback(r, "a3", False) == ([f"worker agent a3 in {tmp_path} owns none; blamed on it:", f"  {tmp_path}/f: would restore from ?", "Run again with --apply to do it."], 0)
    lines, status = bl.rollback(r, "a3", True)
    assert status == 1 and lines[1] == f"  {tmp_path}/f: could not restore from ?: the checkout had no commit at the worker's start"
    assert (tmp_path / "f").exists()


def test_restore_never_touches_directories_nested_checkouts_or_paths_through_a_symlink(tmp_path) -> None:
    root = tmp_path / "r"
    (root / "d").mkdir(parents=True)
    (root / "nest" / ".git").mkdir(parents=True)
    (root / "nest" / "f").write_text("n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "f").write_text("o")
    (root / "link").symlink_to(outside)
    blame = bl.Blame(agent_id="a", root=str(root), start_head="abc", owns=[], owns_source="p")

    def why(path, existed=False):
        with pytest.raises(RuntimeError) as raised:
            bl.restore(blame, bl.BlamedPath(path=path, existed=existed, fingerprint=""))
        return str(raised.value)

    assert why("d/") == "a directory: rollback restores files only"
    assert why("d") == "a directory now: rollback restores files only"
    assert why("nest/f") == f"inside the nested checkout {root}/nest, which rollback never touches"
    assert why("link/f") == "its directory leads out of the checkout (a symlink): rollback never follows it"
    assert (outside / "f").exists() and (root / "nest" / "f").exists()
    (root / "sym").symlink_to("d")
    bl.restore(blame, bl.BlamedPath(path="sym", existed=False, fingerprint=""))  # the link goes, its target stays
    assert not os.path.lexists(root / "sym") and (root / "d").is_dir()
    bl.restore(blame, bl.BlamedPath(path="never-there", existed=False, fingerprint=""))
    with pytest.raises(RuntimeError) as raised:
        bl.restore(blame, bl.BlamedPath(path="x", existed=True, fingerprint=""))
    assert str(raised.value).startswith(f"git restore failed in {root}")


def test_changed_since_and_live_changes_name_what_each_worktree_changed(tmp_path) -> None:
    from tests.helpers import git, make_repo

    repo = make_repo(tmp_path / "w")
    base = git("rev-parse", "HEAD", cwd=repo.main).strip()
    (repo.sibling / "s.txt").write_text("s")
    git("add", "s.txt", cwd=repo.sibling)
    git("commit", "-q", "-m", "s", cwd=repo.sibling)
    (repo.sibling / "README.md").write_text("dirty\n")
    (repo.outside / "o.txt").write_text("o")
    (repo.main / "m.txt").write_text("m")
    assert bl.changed_since(str(repo.sibling), base) == {"s.txt", "README.md"}
    common = git("rev-parse", "--path-format=absolute", "--git-common-dir", cwd=repo.main).strip()
    got = bl.live_changes(common, str(repo.worktree), base)
    assert got == {str(repo.main): {"m.txt"}, str(repo.sibling): {"s.txt", "README.md"}, str(repo.outside): {"o.txt"}}
    git("worktree", "remove", "--force", str(repo.outside), cwd=repo.main)
    import shutil

    shutil.rmtree(repo.sibling)  # gone without git knowing
    assert bl.live_changes(common, str(repo.main), base) == {str(repo.worktree): set()}


def test_in_the_daemon_every_state_write_is_refused_before_anything_is_written(tmp_path) -> None:
    from worktree_guard import effects
    from worktree_guard.subagents import state
    from worktree_guard.subagents.index import WaveIndex

    store = state.SubagentStore("s", root=str(tmp_path / "st"))
    store.save(_snap())
    r = reg.Registry(str(tmp_path / "c.git"), str(tmp_path / "waves"))

    def refused(call, *args):
        with effects.refusing():
            with pytest.raises(effects.StatefulCall) as raised:
                call(*args)
        return raised.value.args

    assert refused(store.delete, "a1") == ("the snapshot of a1",)
    assert store.load("a1") is not None
    assert refused(state.sweep, str(tmp_path / "st"), 1e12) == (f"a sweep of {tmp_path / 'st'}",)
    assert store.load("a1") is not None
    assert refused(state._private_dir, str(tmp_path / "new")) == (f"state under {tmp_path / 'new'}",)
    assert not (tmp_path / "new").exists()
    assert refused(store.record_window, "a1", "t", "start") == (f"state under {os.path.dirname(store.root)}",)
    assert refused(r.write, "blame", "a1", "x") == (f"state under {os.path.dirname(os.path.dirname(r.dir))}",)
    assert not os.path.exists(r.dir)
    assert refused(WaveIndex(str(tmp_path / "w2" / "waves")).note, ["agent:a"], "/c") == (f"state under {tmp_path / 'w2'}",)
    assert not (tmp_path / "w2").exists()


# --- linking: a worker's dispatch found again -----------------------------------------------------------------------

from types import SimpleNamespace as _NS  # noqa: E402

from worktree_guard.subagents import linking as lk  # noqa: E402


def _agent(agent_id="a1", **extra):
    from worktree_guard.model import AgentEvent

    fields = dict(runtime="claude-code", event="SubagentStart", cwd="/c", agent_id=agent_id, agent_type="coder", session_id="s")
    fields.update(extra)
    return AgentEvent(**fields)


def _pm(found=None, asked=None):
    def find(agent):
        if asked is not None:
            asked.append(agent)
        return found

    return _NS(hook=_NS(worktree_guard_find_dispatch=find))


def test_described_finds_the_one_unlinked_dispatch_that_fits() -> None:
    D = lambda did, **e: _dispatch(did, **{"session_id": "s", "dispatcher": "p", "agent_type": "coder", "prompt_digest": reg.prompt_digest("go"), "time": 1000.0, **e})  # noqa: E731
    one = reg.Workers(dispatches={"t1": D("t1")})
    assert lk.described(one, _agent(parent_id="p"), None, None) == "t1"
    assert lk.described(one, _agent(parent_id=None), None, None) is None  # a session alone names no dispatch
    assert lk.described(one, _agent(parent_id=None), None, "go") == "t1"
    assert lk.described(one, _agent(parent_id=None, session_id="other"), None, "go") is None
    assert lk.described(one, _agent(parent_id="q"), None, None) is None
    assert lk.described(one, _agent(parent_id="p"), None, " go\n") == "t1"
    assert lk.described(one, _agent(parent_id="p"), None, "stop") is None
    assert lk.described(one, _agent(parent_id="p", agent_type="tester"), None, None) is None
    assert lk.described(one, _agent(parent_id="p", agent_type=None), None, None) == "t1"
    assert lk.described(reg.Workers(dispatches={"t1": D("t1", agent_type=None)}), _agent(parent_id="p"), None, None) == "t1"
    started = lambda t: reg.Agent(agent_id="a1", started=t)  # noqa: E731
    assert lk.described(one, _agent(parent_id="p"), started(1000.0 + lk.START_AFTER), None) == "t1"
    assert lk.described(one, _agent(parent_id="p"), started(1000.0 + lk.START_AFTER + 0.5), None) is None
    assert lk.described(one, _agent(parent_id="p"), started(995.0), None) == "t1"
    assert lk.described(one, _agent(parent_id="p"), started(994.5), None) is None
    assert lk.described(one, _agent(parent_id="p"), reg.Agent(agent_id="a1"), None) == "t1"
    two = reg.Workers(dispatches={"t1": D("t1"), "t2": D("t2")})
    assert lk.described(two, _agent(parent_id="p"), None, None) is None
    taken = two.model_copy(update={"agents": {"b": reg.Agent(agent_id="b", dispatch_id="t2"), "c": reg.Agent(agent_id="c")}})
    assert lk.described(taken, _agent(parent_id="p"), None, None) == "t1"
    provisional = reg.Workers(dispatches={"t1": D("t1"), "t2": D("t2", provisional=True)})
    assert lk.described(provisional, _agent(parent_id="p"), None, None) == "t1"


def test_record_creates_or_updates_the_agent_s_entry() -> None:
    w = reg.Workers()
    lk.record(w, _agent(parent_id="p"), dispatch_id="t1", checkout="/x")
    assert w.agents["a1"] == reg.Agent(agent_id="a1", session_id="s", agent_type="coder", parent_id="p", dispatch_id="t1", checkout="/x")
    lk.record(w, _agent(parent_id="other", agent_type="zz"), started=5.0)
    assert w.agents["a1"].parent_id == "p" and w.agents["a1"].agent_type == "coder" and w.agents["a1"].started == 5.0 and w.agents["a1"].dispatch_id == "t1"
    lk.record(w, _NS(agent_id="b", session_id=None, agent_type=None))
    assert w.agents["b"] == reg.Agent(agent_id="b")


def test_placed_is_the_dispatch_s_checkout_or_the_isolated_worker_s_own() -> None:
    shared = _dispatch(checkout="/main")
    iso = _dispatch(checkout="/main", isolated=True)
    A = lambda c: reg.Agent(agent_id="a", checkout=c)  # noqa: E731
    assert lk.placed(shared, A("/wt"), "/elsewhere", True) == ("/main", False)
    assert lk.placed(iso, A("/wt"), "/call", True) == ("/wt", True)
    assert lk.placed(iso, A("/main"), "/call", True) == ("/call", True)
    assert lk.placed(iso, A(None), "/call", True) == ("/call", True)
    assert lk.placed(iso, None, "/call", False) == ("/call", True)
    assert lk.placed(iso, None, None, True) == ("/main", True)
    assert lk.placed(iso, A("/main"), None, False) == ("/main", True)


def test_configured_ownership_from_owns_then_the_agent_type_table() -> None:
    from worktree_guard.config import AgentSettings, Settings

    assert lk.configured_ownership(Settings(), "coder") is None
    s = Settings(owns=["a/**"], agents={"coder": AgentSettings(owns=["b/**"])})
    assert lk.configured_ownership(s, "coder") == own.Ownership(("a/**",), "configuration `owns`")
    s = Settings(agents={"coder": AgentSettings(owns="none"), "t": AgentSettings()})
    assert lk.configured_ownership(s, "coder", "the frontmatter") == own.Ownership((), "the frontmatter [agents.coder] owns")
    assert lk.configured_ownership(s, "t") is None and lk.configured_ownership(s, None) is None and lk.configured_ownership(s, "x") is None


def _wave_registry(tmp_path, **dispatches):
    root = str(tmp_path / "waves")
    r = reg.Registry(str(tmp_path / "c.git"), root)
    with r.changing() as w:
        for did, d in dispatches.items():
            w.dispatches[did] = d
    return r, root


def test_link_finds_the_dispatch_through_the_runtime_records_it_and_remembers_it(tmp_path) -> None:
    import time

    from worktree_guard.subagents.index import WaveIndex

    now = time.time()
    r, root = _wave_registry(tmp_path, t1=_dispatch("t1", time=now, session_id="s", dispatcher="p"))
    asked = []
    workers, did, how = lk.link(_agent(), r, _pm(lk.DispatchLink("t1", how="its meta file"), asked))
    assert (did, how) == ("t1", "its meta file") and workers.agents["a1"].dispatch_id == "t1"
    assert r.load().agents["a1"].dispatch_id == "t1"
    assert WaveIndex(root).lookup(["agent:a1"]) == [r.common_dir]
    assert lk.link(_agent(), r, None)[1:] == ("t1", "the wave registry")
    assert lk.link(_agent("a2"), r, None) == (r.load(), None, "nothing (the runtime recorded no link yet)")
    assert lk.link(_agent("a2"), r, _pm(lk.DispatchLink("zz", how="x")))[1:] == (None, "x")  # an unknown dispatch, nothing described
    r2, _ = _wave_registry(tmp_path / "two", t2=_dispatch("t2", time=now, session_id="s", dispatcher="p"))
    assert lk.link(_agent("a3", parent_id="p"), r2, None)[1:] == ("t2", "its dispatcher p")
    r3, _ = _wave_registry(tmp_path / "three", t3=_dispatch("t3", time=now, session_id="s", prompt_digest=reg.prompt_digest("go")))
    assert lk.link(_agent("a4"), r3, _pm(lk.DispatchLink(None, prompt="go", how="its prompt")))[1:] == ("t3", "its prompt")


def test_link_asks_the_runtime_with_the_transcript_named_at_the_start(tmp_path) -> None:
    r, _ = _wave_registry(tmp_path)
    with r.changing() as w:
        w.agents["a1"] = reg.Agent(agent_id="a1", transcript_path="/t.jsonl")
    asked = []
    lk.link(_agent(), r, _pm(None, asked))
    assert asked[-1].transcript_path == "/t.jsonl"
    lk.link(_agent(transcript_path="/mine.jsonl"), r, _pm(None, asked))
    assert asked[-1].transcript_path == "/mine.jsonl"
    lk.link(_agent("a9"), r, _pm(None, asked))
    assert asked[-1].transcript_path is None


def test_worker_for_builds_the_worker_from_its_dispatch_configuration_or_wave(tmp_path) -> None:
    import time

    from worktree_guard.config import Settings

    now = time.time()
    r, root = _wave_registry(tmp_path, t1=_dispatch("t1", time=now, checkout="/main", owns=["src/**"], owns_source="the block"), t0=_dispatch("t0", time=now, owns=None))
    common = r.common_dir
    pm = _pm(lk.DispatchLink("t1", how="meta"))
    w = lk.worker_for(_agent(), "/call", False, Settings(), common, pm, root)
    assert w == Worker(agent_id="a1", agent_type="coder", ownership=own.Ownership(("src/**",), "the block"), root="/main", isolated=False,
                       linked_by="its dispatch t1, found through meta", dispatch_id="t1", session_id="s")
    assert lk.worker_for(_agent("b"), "/call", False, Settings(), common, _pm(lk.DispatchLink("t0", how="m")), root) is None  # no ownership: no worker
    assert lk.worker_for(_agent(""), "/call", False, Settings(), common, pm, root) is None
    nameless = _dispatch("t5", time=now, owns=["x"], owns_source=None)
    with r.changing() as ws:
        ws.dispatches["t5"] = nameless
    assert lk.worker_for(_agent("c"), "/call", False, Settings(), common, _pm(lk.DispatchLink("t5", how="m")), root).ownership.source == "the dispatch"
    cfg = Settings(owns=["cfg/**"])
    got = lk.worker_for(_agent("d", session_id="other"), "/call", True, cfg, common, None, root)
    assert got == Worker(agent_id="d", agent_type="coder", ownership=own.Ownership(("cfg/**",), "configuration `owns`"), root="/call", isolated=True, linked_by="configuration `owns`", session_id="other")
    assert lk.worker_for(_agent("d", session_id="other"), None, True, cfg, common, None, root) is None  # nowhere to be relative to
    assert lk.worker_for(_agent("e", session_id="other"), "/call", False, Settings(), common, None, root) is None  # no wave declared


def test_a_sub_agent_of_a_wave_that_cannot_be_linked_owns_nothing(tmp_path) -> None:
    import time

    from worktree_guard.config import Settings

    now = time.time()
    r, root = _wave_registry(tmp_path, t1=_dispatch("t1", time=now - 10, checkout="/old", session_id="s"), t2=_dispatch("t2", time=now, checkout="/new", session_id="s"),
                             t3=_dispatch("t3", time=now + 5, checkout="/no-owns", session_id="s", owns=None), t4=_dispatch("t4", time=now + 6, checkout="/other-session", session_id="z"))
    with r.changing() as w:
        w.dispatches["t1"].agent_type = w.dispatches["t2"].agent_type = "other"  # so that nothing is described
    w = lk.worker_for(_agent("x"), None, False, Settings(), r.common_dir, None, root)
    reason = "nothing: this session dispatched workers with ownerships, and this sub-agent could not be linked to its dispatch"
    assert w == Worker(agent_id="x", agent_type="coder", ownership=own.Ownership((), reason), root="/new", isolated=False,
                       linked_by="no dispatch (looked in nothing (the runtime recorded no link yet))", session_id="s")
    assert lk.worker_for(_agent("x"), "/call", True, Settings(), r.common_dir, None, root).root == "/call"
    by_parent = lk.worker_for(_agent("y", session_id="q", parent_id="p"), None, False, Settings(), r.common_dir, None, root)
    assert by_parent is None  # p dispatched nothing
    with r.changing() as ws:
        ws.dispatches["t4"].dispatcher = "p"
    linked = lk.worker_for(_agent("y", session_id="q", parent_id="p"), None, False, Settings(), r.common_dir, None, root)
    assert (linked.root, linked.linked_by) == ("/other-session", "its dispatch t4, found through its dispatcher p")
    with r.changing() as ws:
        ws.dispatches["t4"].agent_type = "other"
        ws.agents["y"] = reg.Agent(agent_id="y", checkout="/recorded")
    assert lk.worker_for(_agent("y", session_id="q", parent_id="p"), None, False, Settings(), r.common_dir, None, root).root == "/recorded"
    with r.changing() as ws:
        del ws.agents["y"]
    assert lk.worker_for(_agent("y", session_id="q", parent_id="p"), None, False, Settings(), r.common_dir, None, root).root == "/other-session"
    cfg = lk.worker_for(_agent("y", session_id="q", parent_id="p"), "/call", False, Settings(owns="none"), r.common_dir, None, root)
    assert cfg.linked_by == "configuration `owns`"  # the configuration wins over the wave's nothing


def test_registries_for_looks_where_the_agent_was_recorded_then_the_call_s_repository_then_its_wave(tmp_path) -> None:
    from worktree_guard.subagents.index import WaveIndex

    root = str(tmp_path / "waves")
    index = WaveIndex(root)
    index.note(["session:s"], "/by-session")
    index.note(["dispatcher:p"], "/by-parent")
    index.note(["agent:a1"], "/by-agent")
    index.note(["agent:a1"], "/call")
    found = lk.registries_for(_agent(parent_id="p"), "/call", root)
    assert [r.common_dir for r in found] == ["/call", "/by-agent", "/by-session", "/by-parent"]
    assert all(r.dir == reg.registry_dir(r.common_dir, root) for r in found)
    assert [r.common_dir for r in lk.registries_for(_agent("zz"), None, root)] == ["/by-session"]
    assert lk.index_of(found[0]).dir == root


def test_safe_worker_for_fails_closed_to_owning_nothing(tmp_path, monkeypatch) -> None:
    from worktree_guard.config import Settings

    def broken(*a, **k):
        raise ValueError("bad registry")

    monkeypatch.setattr(lk, "worker_for", broken)
    w = lk.safe_worker_for(_agent(), "/call", True, Settings(), "/c.git", None)
    assert w == Worker(agent_id="a1", agent_type="coder", ownership=own.Ownership((), "nothing: the wave state could not be read (ValueError: bad registry)"), root="/call", isolated=True, linked_by="no dispatch", session_id="s")
    assert lk.safe_worker_for(_agent(), None, True, Settings(), "/c.git", None) is None
    assert lk.safe_worker_for(_NS(agent_id="", agent_type=None, session_id=None), "/call", True, Settings(), "/c.git", None) is None
    assert lk.safe_worker_for(object(), "/call", True, Settings(), "/c.git", None) is None  # no agent id at all
    asked = []
    monkeypatch.setattr(lk, "worker_for", lambda *a: asked.append(a) or "the worker")
    agent, settings, pm = _agent(), Settings(), object()
    assert lk.safe_worker_for(agent, "/call", True, settings, "/c.git", pm) == "the worker"
    assert asked == [(agent, "/call", True, settings, "/c.git", pm)]


def test_worker_from_record_reads_the_recorded_dispatch_prompt(tmp_path) -> None:
    from worktree_guard.config import Settings

    base = dict(agent_id="a1", agent_type="coder", root="/r", isolated=False, session_id="s")
    block = "```worktree-guard\nowns: src/**\n```\n"
    assert lk.worker_from_record("a1", "coder", "s", block, False, "/r", False, Settings()) == Worker(ownership=own.Ownership(("src/**",), "the dispatch prompt's ```worktree-guard block"), linked_by="its recorded dispatch", **base)
    bad = lk.worker_from_record("a1", "coder", "s", "```worktree-guard\nonws: x\n```\n", False, "/r", False, Settings())
    assert bad.ownership == own.Ownership((), "nothing: its dispatch's block is malformed (the ```worktree-guard block, line 1: unknown key 'onws' (the only key is `owns`))")
    assert bad.linked_by == "its recorded dispatch"
    assert lk.worker_from_record("a1", "coder", "s", "no block", False, "/r", False, Settings(owns=["c"])) == Worker(ownership=own.Ownership(("c",), "configuration `owns`"), linked_by="configuration `owns`", **base)
    assert lk.worker_from_record("a1", "coder", "s", "no block", True, "/r", False, Settings()) is None  # its dispatch is recorded, without a block
    nothing = lk.worker_from_record("a1", "coder", "s", None, True, "/r", True, Settings())
    assert nothing == Worker(ownership=own.Ownership((), "nothing: this session dispatched workers with ownerships, and this sub-agent's dispatch is not recorded"), linked_by="no recorded dispatch", **{**base, "isolated": True})
    assert lk.worker_from_record("a1", "coder", "s", None, False, "/r", False, Settings()) is None
    from worktree_guard.config import AgentSettings

    typed = lk.worker_from_record("a1", "coder", "s", None, True, "/r", False, Settings(agents={"coder": AgentSettings(owns=["t/**"])}))
    assert typed == Worker(ownership=own.Ownership(("t/**",), "configuration [agents.coder] owns"), linked_by="configuration [agents.coder] owns", **base)
    assert lk.worker_from_record(None, "coder", "s", block, True, "/r", False, Settings()) is None
    assert lk.worker_from_record("a1", "coder", "s", block, True, None, False, Settings()) is None


# --- a worker's own calls, through the engine ---------------------------------------------------------------------

from tests.test_wave import A as WA, B as WB, Wave, codes  # noqa: E402


@pytest.fixture
def wv(repo, tmp_path) -> Wave:
    return Wave(repo, tmp_path)


def _reason(result) -> str:
    return result.reason


OWNS_AUTH = "This worker owns src/auth/** (the dispatch prompt's ```worktree-guard block)"


def test_worker_write_messages_name_the_path_the_ownership_and_where(wv: Wave) -> None:
    main = wv.repo.main
    wv.start(WA, "toolu_A", "src/auth/**")
    r = wv.write(WA, "src/app.py")
    assert codes(r) == {"WG701"}
    assert f"Write writes {main}/src/app.py, which this worker's ownership does not match. {OWNS_AUTH}: write only there, and name what else needs changing in your answer." in r.reason
    r = wv.call(WA, "Write", {"file_path": str(wv.repo.outside / "x"), "content": ""})
    assert codes(r) == {"WG701"} and f"Write writes {wv.repo.outside}/x, in another checkout, {wv.repo.outside}. {OWNS_AUTH}." in r.reason
    outside = "/srv/wg-not-a-checkout/elsewhere.txt"  # not below /tmp, which the allow-list lets anyone write
    r = wv.call(WA, "Write", {"file_path": outside, "content": ""})
    assert codes(r) == {"WG701"} and f"Write writes {outside}, outside the checkout {main}. {OWNS_AUTH}." in r.reason
    r = wv.bash(WA, "echo x > .git/config2")
    assert codes(r) == {"WG701"} and f"the redirection `>` writes {main}/.git/config2, which is protected (git's own files). {OWNS_AUTH}." in r.reason
    r = wv.bash(WA, "echo x > $OUT")
    assert f"the redirection `>` writes '$OUT', which is only known at run time. {OWNS_AUTH}; write to literal paths it owns." in r.reason
    r = wv.bash(WA, "cd $D && echo x > f")
    assert codes(r) == {"WG701"} and f"writes the relative path 'f' after a directory change worktree-guard cannot follow. {OWNS_AUTH}; use an absolute path." in r.reason
    assert wv.bash(WA, "cd $D && echo x > /tmp/abs-scratch").decision == "pass"  # an absolute allowed path after it
    r = wv.bash(WA, "rm -r src")
    assert codes(r) == {"WG701"} and f"writes everything below {main}/src, which this worker's ownership does not match" in r.reason
    assert wv.bash(WA, "rm -r src/auth").decision == "pass"  # the owned tree itself
    assert wv.bash(WA, "mkdir -p src/auth/new && touch src/auth/new/f").decision == "pass"
    assert wv.bash(WA, "rm -rf src/__pycache__").decision == "pass"  # scratch, as a tree
    assert wv.bash(WA, "rm -r README.md") .decision == "deny"  # a file named to a tree writer is that file
    assert "writes everything below" not in wv.bash(WA, "rm -r README.md").reason


def test_a_worker_s_file_tool_without_a_usable_path_is_refused(wv: Wave) -> None:
    wv.start(WA, "toolu_A", "src/auth/**")
    r = wv.call(WA, "Write", {"file_path": "", "content": ""})
    assert codes(r) == {"WG000"}
    r = wv.call(WA, "Write", {"file_path": "src/auth/a\0b", "content": ""})
    assert codes(r) == {"WG000"} and "The Write call names no usable path, so worktree-guard cannot check what this worker writes." in r.reason
    assert wv.call(WA, "Write", {"file_path": "src/auth/rel.py", "content": ""}).decision == "pass"  # relative to the call's cwd
    assert codes(wv.call(WA, "Write", {"file_path": "src/rel.py", "content": ""})) == {"WG701"}


def test_enter_worktree_for_a_shared_workspace_worker(wv: Wave) -> None:
    main = wv.repo.main
    wv.start(WA, "toolu_A", "src/auth/**")
    assert wv.call(WA, "EnterWorktree", {"path": str(main)}).decision == "pass"
    r = wv.call(WA, "EnterWorktree", {"path": str(wv.repo.sibling)})
    assert f"EnterWorktree would move this worker to {wv.repo.sibling}, out of the checkout {main} its ownership names. {OWNS_AUTH}; stay there." in r.reason
    r = wv.call(WA, "EnterWorktree", {"path": ""})
    assert codes(r) == {"WG701"} and "EnterWorktree would move this worker to '', out of the checkout" in r.reason
    r = wv.call(WA, "EnterWorktree", {"name": "x"})
    assert codes(r) == {"WG703"} and f"EnterWorktree makes a new worktree of the repository that every worker of {main} shares: workers leave git to the orchestrator." in r.reason


def test_a_worker_s_git_that_writes_is_refused_in_words(wv: Wave) -> None:
    main = wv.repo.main
    wv.start(WA, "toolu_A", "src/auth/**")
    r = wv.bash(WA, "git commit -qm x")
    assert codes(r) == {"WG703"}
    assert (f"`git commit` writes the index, refs, HEAD, stash, config or worktrees that every worker of {main} shares: workers leave git to the orchestrator. "
            "Read-only git (status, diff, log, show) is fine; say in your answer what should be committed.") in r.reason


def test_hidden_surfaces_are_named_in_one_finding(wv: Wave) -> None:
    main = wv.repo.main
    wv.start(WA, "toolu_A", "src/auth/**, package-lock.json")
    r = wv.bash(WA, "npm install")
    assert codes(r) == {"WG702"}
    assert (f"`npm` (package manager) writes beyond its operands: {main}/package.json, {main}/npm-shrinkwrap.json, everything below {main}/node_modules, "
            f"which this worker's ownership does not match. This worker owns src/auth/**, package-lock.json (the dispatch prompt's ```worktree-guard block); "
            "leave this command to the orchestrator, or ask for those files to be yours.") in r.reason
    r = wv.bash(WA, "ruff $CMD")
    assert codes(r) == {"WG702"} and "`ruff` (formatter and fixer) writes beyond its operands: a path only known at run time, which" in r.reason
    assert wv.bash(WA, "ruff format src/auth").decision == "pass"


def test_package_managers_write_at_every_manifest_up_to_the_worker_s_checkout(wv: Wave) -> None:
    from worktree_guard.subagents.worker_calls import projects_above

    main = wv.repo.main
    (main / "pkg" / "sub").mkdir(parents=True)
    (main / "package.json").write_text("{}")
    (main / "pkg" / "package.json").write_text("{}")
    assert projects_above(str(main / "pkg" / "sub"), str(main), ("package.json",)) == [str(main / "pkg"), str(main)]
    assert projects_above(str(main / "pkg"), str(main / "pkg"), ("package.json", "x")) == [str(main / "pkg")]
    assert projects_above(str(main), str(main / "pkg"), ("package.json",)) == []
    assert projects_above(str(main / "pkg" / "sub"), str(main), ("nothing",)) == []
    wv.start(WA, "toolu_A", "pkg/**")
    r = wv.bash(WA, "cd pkg/sub && npm install")
    assert codes(r) == {"WG702"} and f"{main}/package.json" in r.reason and f"{main}/pkg/package.json" not in r.reason
    r = wv.bash(WA, "cd $X && npm install")
    assert codes(r) == {"WG702"}
    assert wv.bash(WA, "npm --prefix pkg/sub ci --ignore-scripts").decision == "deny"


def test_a_program_outside_both_tables_writes_what_it_is_given_inside_the_checkout(wv: Wave) -> None:
    main = wv.repo.main
    wv.start(WA, "toolu_A", "src/auth/**")
    r = wv.bash(WA, "frobnicate src/app.py")
    assert codes(r) == {"WG701"}
    assert f"`frobnicate` (a program in neither the write table nor the read-only table: what it is given counts as written) writes {main}/src/app.py" in r.reason
    assert "writes everything below" in wv.bash(WA, "frobnicate src").reason
    assert wv.bash(WA, "frobnicate src/auth/x.py").decision == "pass"
    assert wv.bash(WA, "frobnicate hello world").decision == "pass"  # naming nothing: words
    assert codes(wv.bash(WA, "frobnicate src/new.py")) == {"WG701"}  # a new file in an existing directory
    assert wv.bash(WA, "frobnicate nodir/new.py").decision == "pass"
    assert wv.bash(WA, "frobnicate $X /etc/hosts").decision == "pass"  # run-time words and paths outside: other rules
    assert wv.bash(WA, "cd $D && frobnicate src/app.py").decision == "pass"
    assert wv.bash(WA, "npm test src/app.py").decision == "pass"  # a table program: its own writes, not its operands


def test_interpreters_read_their_script_and_run_inline_code_opaquely(wv: Wave) -> None:
    (wv.repo.main / "tool.py").write_text("print(1)\n")
    wv.start(WA, "toolu_A", "src/auth/**")
    assert wv.bash(WA, "python3 tool.py src/auth/x").decision == "pass"
    assert codes(wv.bash(WA, "python3 tool.py src/app.py")) == {"WG701"}  # the script's own operands are at the boundary
    assert codes(wv.bash(WA, "python3 tool.py tool.py")) == {"WG701"}  # only the first script is the program
    assert wv.bash(WA, "python3.12 -c 'print(1)' src/auth/x").decision == "pass"
    assert wv.bash(WA, "node -e 'x' src/auth/x").decision == "pass"
    assert codes(wv.bash(WA, "frobnicate -c README.md")) == {"WG701"}  # `-c` is inline code only for an interpreter


def test_a_computed_command_name_is_refused_only_when_its_arguments_matter(wv: Wave) -> None:
    wv.start(WA, "toolu_A", "src/auth/**")
    r = wv.bash(WA, "$CMD src/app.py")
    assert codes(r) == {"WG404"}
    assert f"The command name '$CMD' is computed at run time and its arguments name paths this worker does not own. {OWNS_AUTH}; call the program by its literal name." in r.reason
    assert wv.bash(WA, "$CMD -v src/auth/x").decision == "pass"
    assert codes(wv.bash(WA, "$CMD $X")) == {"WG404"}
    assert codes(wv.bash(WA, "$CMD commit")) == {"WG404"}  # a sensitive argument


def test_apply_patch_in_a_worker_s_shell_writes_the_files_its_patch_names(wv: Wave) -> None:
    main = wv.repo.main
    wv.start(WA, "toolu_A", "src/auth/**")
    patch = "*** Begin Patch\n*** Add File: {}\n+x\n*** End Patch\n"
    assert wv.bash(WA, "apply_patch <<'EOF'\n" + patch.format("src/auth/n.py") + "EOF\n").decision == "pass"
    r = wv.bash(WA, "apply_patch <<'EOF'\n" + patch.format("src/n.py") + "EOF\n")
    assert codes(r) == {"WG701"} and f"`apply_patch` (write) writes {main}/src/n.py" in r.reason
    moved = "*** Begin Patch\n*** Update File: src/auth/a.py\n*** Move to: src/b.py\n@@\n-x\n+y\n*** End Patch\n"
    r = wv.bash(WA, "apply_patch <<'EOF'\n" + moved + "EOF\n")
    assert codes(r) == {"WG701"} and f"`apply_patch` (move to) writes {main}/src/b.py" in r.reason
    r = wv.bash(WA, "apply_patch < p.diff")
    assert codes(r) == {"WG701"} and "`apply_patch` (a patch worktree-guard cannot see or read) writes 'its patch', which is only known at run time." in r.reason
    r = wv.bash(WA, "apply_patch <<'EOF'\nnot a patch\nEOF\n")
    assert codes(r) == {"WG701"} and "cannot see or read" in r.reason
    r = wv.bash(WA, "apply_patch <<EOF\n" + patch.format("src/auth/$X") + "EOF\n")
    assert codes(r) == {"WG701"} and "only known at run time" in r.reason
    assert wv.bash(WA, "apply_patch <<'EOF'\n" + patch.format("src/auth/$X") + "EOF\n").decision == "pass"  # quoted: literal


# --- at dispatch ------------------------------------------------------------------------------------------------------


def _workers_of(repo) -> reg.Workers:
    from tests.helpers import git

    common = git("rev-parse", "--path-format=absolute", "--git-common-dir", cwd=repo.main).strip()
    return reg.Registry(common).load()


def test_a_dispatch_is_recorded_with_everything_its_worker_is_found_by(wv: Wave) -> None:
    import time

    before = time.time()
    assert wv.dispatch("toolu_A", "src/auth/**", subagent_type="coder").decision == "pass"
    d = _workers_of(wv.repo).dispatches["toolu_A"]
    prompt = "Do your part.\n```worktree-guard\nowns: src/auth/**\n```\n"
    assert d.model_dump(exclude={"time"}) == dict(
        dispatch_id="toolu_A", session_id="5f1c2a4e-0000-4000-8000-00000000wave", dispatcher="5f1c2a4e-0000-4000-8000-00000000wave", agent_type="coder",
        checkout=str(wv.repo.main), isolated=False, owns=["src/auth/**"], owns_source="the dispatch prompt's ```worktree-guard block",
        prompt_digest=reg.prompt_digest(prompt), provisional=False,
    )
    assert before <= d.time <= time.time()
    assert wv.dispatch("toolu_N", None).decision == "pass"
    n = _workers_of(wv.repo).dispatches["toolu_N"]
    assert n.owns is None and n.owns_source is None and n.provisional is False and n.agent_type == "general-purpose"
    assert wv.dispatch("toolu_I", "docs/**", isolation="worktree").decision == "pass"
    assert _workers_of(wv.repo).dispatches["toolu_I"].isolated is True
    from worktree_guard.subagents.index import WaveIndex

    assert WaveIndex().lookup(["session:5f1c2a4e-0000-4000-8000-00000000wave"]) != []


def test_a_refused_dispatch_leaves_no_record_and_a_malformed_one_says_how_to_fix_it(wv: Wave) -> None:
    r = wv.dispatch("toolu_M", None, body="```worktree-guard\nowns: !x\n```\n")
    assert codes(r) == {"WG710"}
    assert ("The ownership of this dispatch is malformed: the ```worktree-guard block, line 1: '!x' is a negation; an ownership lists what a worker may write. "
            "Fix it and dispatch again; the block holds one line, `owns: PATTERN, PATTERN` (or `owns: none`).") in r.reason
    assert "toolu_M" not in _workers_of(wv.repo).dispatches
    wv.start(WA, "toolu_A", "src/**")
    assert codes(wv.dispatch("toolu_C", "src/x/**")) == {"WG704"}
    assert "toolu_C" not in _workers_of(wv.repo).dispatches


def test_an_overlap_names_both_ownerships_the_worker_and_where(wv: Wave) -> None:
    main = wv.repo.main
    wv.start(WA, "toolu_A", "src/auth/**")
    wv.write(WA, "src/auth/a.py")
    r = wv.dispatch("toolu_C", "src/**")
    assert (f"This worker's ownership (src/**) overlaps that of general-purpose {WA}, which still runs in {main} (owns src/auth/**): "
            "'src/**' and 'src/auth/**' can name the same files. Wait for it to finish, or give this worker files no running worker owns.") in r.reason
    assert wv.dispatch("toolu_I", "src/**", isolation="worktree").decision == "pass"  # an isolated worker shares nothing
    assert wv.dispatch("toolu_R", "none").decision == "pass"  # a read-only worker overlaps nobody


def test_uncommitted_changes_are_listed_up_to_ten(wv: Wave) -> None:
    from tests.helpers import git

    main = wv.repo.main
    for i in range(12):
        (main / f"f{i:02}.txt").write_text("x")
    git("add", *[f"f{i:02}.txt" for i in range(12)], cwd=main)
    git("commit", "-q", "-m", "files", cwd=main)
    for i in range(12):
        (main / f"f{i:02}.txt").write_text("changed")
    (main / "untracked.txt").write_text("u")
    r = wv.dispatch("toolu_A", "src/**")
    assert r.decision == "warn" and codes(r) == {"WG705"}
    listed = ", ".join(f"f{i:02}.txt" for i in range(10))
    assert (f"{main} has uncommitted changes to tracked files that no running worker owns ({listed} and 2 more): commit them before a "
            "shared-workspace wave, so that every change can be told apart and rolled back.") in r.output["systemMessage"]
    for i in range(2):
        git("checkout", "--", f"f{i:02}.txt", cwd=main)
    r = wv.dispatch("toolu_B", "docs/**")
    assert "(" + ", ".join(f"f{i:02}.txt" for i in range(2, 12)) + "): commit" in r.output["systemMessage"]


def test_uncommitted_changes_owned_by_a_running_worker_are_no_warning(wv: Wave) -> None:
    from worktree_guard.subagents.wave import unowned_changes

    main = wv.repo.main
    wv.start(WA, "toolu_A", "src/**")
    (main / "src" / "app.py").write_text("the worker's\n")
    assert wv.dispatch("toolu_B", "docs/**").decision == "pass"
    (main / ".claude").mkdir(exist_ok=True)
    assert unowned_changes(str(main), [own.Ownership.of(["src/**"], "")]) == []
    assert unowned_changes(str(main), []) == ["src/app.py"]
    with pytest.raises(RuntimeError):
        unowned_changes(str(wv.repo.base), [])


def test_a_worker_hands_its_sub_agent_only_what_it_owns(wv: Wave) -> None:
    from worktree_guard.subagents.wave import within

    of = own.Ownership.of
    assert within(of(["src/a/**", "src/**", "docs/x"], ""), of(["src/**"], "")) == ["docs/x"]
    assert within(of(["*.py"], ""), of(["src/**"], "")) == ["*.py"]
    assert within(of(["src/a.py"], ""), of(["src/a.py"], "")) == []
    wv.start(WA, "toolu_A", "src/**")
    r = wv.call(WA, "Agent", {"description": "d", "prompt": "```worktree-guard\nowns: docs/**, src/x/**\n```\n", "subagent_type": "general-purpose"}, tool_use_id="toolu_S")
    assert codes(r) == {"WG701"}
    assert ("This worker may hand its sub-agent only files it owns (src/**); docs/** may name others. "
            "Leave the ownership block out (the sub-agent then owns what you own) or narrow it.") in r.reason


def test_a_dispatch_call_without_an_id_cannot_be_recorded(wv: Wave) -> None:
    from tests.helpers import payload, run_hook_inline

    body = payload(wv.repo.main, "Agent", {"description": "d", "prompt": "```worktree-guard\nowns: a/**\n```\n", "subagent_type": "general-purpose"}, **wv.common())
    body.pop("tool_use_id")
    r = run_hook_inline(body)
    assert codes(r) == {"WG000"} and "The Agent call carries no id, so worktree-guard cannot record its ownership and find it again on the worker's calls." in r.reason


def test_dispatch_target_and_isolation(wv: Wave) -> None:
    from tests.helpers import write_agent

    write_agent(wv.repo.main / ".claude" / "agents", "iso", "isolation: worktree")
    assert wv.dispatch("toolu_1", "a/**", subagent_type="iso").decision == "pass"
    assert _workers_of(wv.repo).dispatches["toolu_1"].isolated is True
    assert wv.dispatch("toolu_2", "b/**", subagent_type="iso", isolation="none").decision == "pass"
    assert _workers_of(wv.repo).dispatches["toolu_2"].isolated is False  # the input overrides the definition
    for value in (" Worktree ", "work_tree", "work-tree", "remote"):
        assert wv.dispatch(f"toolu_{value.strip()}", None, isolation=value).decision == "pass"
        assert _workers_of(wv.repo).dispatches[f"toolu_{value.strip()}"].isolated is True, value
    assert wv.dispatch("toolu_3", None, isolation="yes").decision == "pass"
    assert _workers_of(wv.repo).dispatches["toolu_3"].isolated is False


# --- a worker's start and stop ------------------------------------------------------------------------------------


def test_a_worker_s_start_is_recorded_with_its_checkout_and_snapshot(wv: Wave) -> None:
    import time

    main = wv.repo.main
    before = time.time()
    wv.start(WA, "toolu_A", "src/auth/**")
    workers = _workers_of(wv.repo)
    a = workers.agents[WA]
    assert a.started is not None and before <= a.started <= time.time()
    assert a.transcript_path == str(wv.transcript) and a.checkout == str(main) and a.base_head is None and a.stopped is None
    assert a.session_id == "5f1c2a4e-0000-4000-8000-00000000wave" and a.agent_type == "general-purpose"
    r = reg.Registry(workers and _common(wv.repo))
    saved = snaps.CheckoutState.model_validate_json(r.read("snapshots", WA))
    assert saved.root == str(main) and saved.head is not None and saved.branch == "main"
    from worktree_guard.subagents.index import WaveIndex

    assert WaveIndex().lookup([f"agent:{WA}"]) == [_common(wv.repo)]
    assert wv.event("SubagentStart", "a-stranger", session_id="another-session").stdout == ""
    assert "a-stranger" not in _workers_of(wv.repo).agents


def _common(repo) -> str:
    from tests.helpers import git

    return git("rev-parse", "--path-format=absolute", "--git-common-dir", cwd=repo.main).strip()


def test_a_worker_s_stop_blocks_once_then_warns_in_exact_words(wv: Wave) -> None:
    main = wv.repo.main
    wv.start(WA, "toolu_A", "src/auth/**")
    (main / "src" / "app.py").write_text("changed\n")
    (main / "stray.txt").write_text("s")
    first = wv.event("SubagentStop", WA)
    assert first.stop_blocked and codes(first) == {"WG706"}
    summary = (f"worktree-guard: worker general-purpose {WA} changed files outside its ownership: src/app.py, stray.txt; "
               f"`worktree-guard rollback --agent {WA} --apply` restores them. [worktree-guard WG706]")
    assert first.output["systemMessage"] == summary
    assert first.output["reason"].startswith(f"worktree-guard: while you ran, files of {main} outside your ownership changed")
    assert _workers_of(wv.repo).agents[WA].blocks == 1 and _workers_of(wv.repo).agents[WA].stopped is None
    second = wv.event("SubagentStop", WA, stop_hook_active=True)
    assert not second.stop_blocked and second.output["systemMessage"] == summary
    assert _workers_of(wv.repo).agents[WA].stopped is not None
    blame = bl.Blame.model_validate_json(reg.Registry(_common(wv.repo)).read("blame", WA))
    assert [(b.path, b.existed) for b in blame.blamed] == [("src/app.py", True), ("stray.txt", False)]


def test_in_warn_mode_a_worker_s_stop_only_warns(wv: Wave) -> None:
    (wv.repo.main / ".worktree-guard.toml").write_text('mode = "warn"\n')
    wv.start(WA, "toolu_A", "src/auth/**")
    (wv.repo.main / "stray.txt").write_text("s")
    r = wv.event("SubagentStop", WA)
    assert not r.stop_blocked and "changed files outside its ownership: stray.txt;" in r.output["systemMessage"]
    assert _workers_of(wv.repo).agents[WA].stopped is not None and _workers_of(wv.repo).agents[WA].blocks == 0


def test_a_stop_with_only_changed_again_or_nested_paths_is_a_note(wv: Wave) -> None:
    from tests.helpers import git

    main = wv.repo.main
    (main / "README.md").write_text("dirty before\n")
    wv.start(WA, "toolu_A", "src/auth/**")
    (main / "README.md").write_text("dirty before, and again\n")
    (wv.repo.sibling / "sib.txt").write_text("in a nested checkout")
    r = wv.event("SubagentStop", WA)
    assert not r.stop_blocked
    assert r.output["systemMessage"] == (f"worktree-guard: while worker {WA} ran, files dirty before it started or inside nested checkouts changed: README.md "
                                         "(not blamed, never rolled back). [worktree-guard WG706]")
    assert _workers_of(wv.repo).agents[WA].stopped is not None
    git("init", "-q", str(main / "inner"), cwd=main)
    wv.start(WB, "toolu_B", "src/auth/**")
    (main / "inner" / "f.txt").write_text("f")
    r = wv.event("SubagentStop", WB)
    assert not r.stop_blocked and "changed: inner/ (not blamed" in r.output["systemMessage"]


def test_a_clean_stop_and_a_stop_without_a_start_are_silent_but_recorded(wv: Wave) -> None:
    wv.start(WA, "toolu_A", "src/**")
    assert wv.event("SubagentStop", WA).stdout == ""
    assert _workers_of(wv.repo).agents[WA].stopped is not None
    assert wv.event("SubagentStop", "never-seen").stdout == ""
    assert "never-seen" not in _workers_of(wv.repo).agents
    r = reg.Registry(_common(wv.repo))
    with r.changing() as w:
        w.agents["half"] = reg.Agent(agent_id="half", session_id="5f1c2a4e-0000-4000-8000-00000000wave")
    assert wv.event("SubagentStop", "half").stdout == ""
    assert r.load().agents["half"].stopped is not None


def test_the_guard_s_own_audit_log_in_the_checkout_is_nobody_s_change(wv: Wave) -> None:
    main = wv.repo.main
    (main / ".worktree-guard.toml").write_text('audit_log = "audit.jsonl"\n')
    from tests.helpers import git

    git("add", ".worktree-guard.toml", cwd=main)
    git("commit", "-q", "-m", "cfg", cwd=main)
    wv.start(WA, "toolu_A", "src/auth/**")
    wv.write(WA, "src/auth/a.py")
    assert (main / "audit.jsonl").exists()
    assert wv.event("SubagentStop", WA).stdout == ""


def test_an_isolated_worker_s_stop_reports_clashes_in_exact_words(wv: Wave) -> None:
    from tests.helpers import git, payload, run_hook_inline

    repo = wv.repo
    tool_input = {"description": "iso", "prompt": "Go.\n```worktree-guard\nowns: src/**\n```\n", "subagent_type": "general-purpose", "isolation": "worktree"}
    assert run_hook_inline(payload(repo.main, "Agent", tool_input, tool_use_id="toolu_iso", **wv.common())).decision == "pass"
    (repo.sibling / "src" / "app.py").write_text("the sibling's version\n")
    git("commit", "-qam", "sibling", cwd=repo.sibling)
    iso = dict(cwd=str(repo.worktree), agent_id=repo.agent_id)
    wv.event("SubagentStart", **iso)
    wv.link(repo.agent_id, "toolu_iso")
    entry = _workers_of(repo).agents[repo.agent_id]
    assert entry.checkout == str(repo.worktree) and entry.base_head == git("rev-parse", "HEAD", cwd=repo.worktree).strip()
    assert reg.Registry(_common(repo)).read("snapshots", repo.agent_id) is None  # an isolated worker's HEAD is enough
    (repo.worktree / "src" / "app.py").write_text("the worker's version\n")
    result = wv.event("SubagentStop", **iso)
    assert result.output["systemMessage"] == (f"worktree-guard: worker general-purpose {repo.agent_id} changed files that other live worktrees changed too: "
                                              f"src/app.py (also changed in {repo.sibling}). Plan the merge before it conflicts. [worktree-guard WG707]")
    assert _workers_of(repo).agents[repo.agent_id].stopped is not None


def test_overlap_report_says_when_it_cannot_compare(tmp_path) -> None:
    from worktree_guard.subagents.worker_life import overlap_report

    r = reg.Registry(str(tmp_path / "c.git"), str(tmp_path / "waves"))
    event = _agent("w1", event="SubagentStop", agent_type=None)
    assert overlap_report(event, reg.Agent(agent_id="w1", checkout="/x"), r) is None
    assert overlap_report(event, reg.Agent(agent_id="w1", base_head="abc"), r) is None
    got = overlap_report(event, reg.Agent(agent_id="w1", checkout=str(tmp_path), base_head="abc"), r)
    assert got.decision == "pass" and got.user_message.startswith(f"worktree-guard could not compare worker w1's changes with the other worktrees: git diff failed in {tmp_path}")


# --- the leak check's words -----------------------------------------------------------------------------------------

from worktree_guard.subagents import leak_check as lc  # noqa: E402

L = snaps.Leak


def test_each_leak_in_one_sentence() -> None:
    assert lc._sentence(L("branch", "/s", before="main (abc)", after="x (def)")) == "/s was on main (abc) when you started and is now on x (def)."
    assert lc._sentence(L("head", "/s", before="0123456789abcdef", after="fedcba9876543210")) == "/s: HEAD moved from 0123456789ab to fedcba987654 (a commit, merge or reset ran there)."
    assert lc._sentence(L("head", "/s", before=None, after="fedcba9876543210")) == "/s: HEAD moved from None to fedcba987654 (a commit, merge or reset ran there)."
    assert lc._sentence(L("new", "/s", "a.txt", after="??")) == "/s/a.txt is untracked and was not when you started."
    assert lc._sentence(L("new", "/s", "a.txt")) == "/s/a.txt is  and was not when you started."
    assert lc._sentence(L("changed", "/s", "a", before=".M", after="M.")) == "/s/a had uncommitted changes before you started (modified) and changed again while you ran (now staged as modified)."
    assert lc._sentence(L("changed", "/s", "a")) == "/s/a had uncommitted changes before you started () and changed again while you ran (now )."
    assert lc._sentence(L("reverted", "/s", "a", before=".D")) == "/s/a had uncommitted changes when you started (deleted); they are gone now."
    assert lc._sentence(L("reverted", "/s", "a")) == "/s/a had uncommitted changes when you started (); they are gone now."


def _saved(worktree="/w", **extra):
    return _snap(worktree_root=worktree, **extra)


def test_the_block_reason_lists_the_leaks_and_how_to_move_them() -> None:
    leaks = [L("head", "/s", before="0123456789abcdef", after="fedcba9876543210"), L("new", "/s", "a.txt", after="??"), L("changed", "/s", "gone.txt", before=".M", after=".D")]
    text = lc.block_reason(leaks, _saved(), [])
    assert text.split("\n") == [
        "worktree-guard: while you ran, shared checkouts of this repository changed; you work in your own worktree /w.",
        "- /s: HEAD moved from 0123456789ab to fedcba987654 (a commit, merge or reset ran there). [WG601]",
        "- /s/a.txt is untracked and was not when you started. [WG602]",
        "- /s/gone.txt had uncommitted changes before you started (modified) and changed again while you ran (now deleted). [WG602]",
        "Move your work: copy each file you wrote there to the same path under /w (e.g. cp /s/a.txt /w/a.txt) and go on working there.",
        "If you committed or switched branches there, bring your commits into your own branch (git cherry-pick 0123456789ab..fedcba987654 in /w).",
        "Do not delete, revert, switch or commit anything in the shared checkouts yourself (worktree-guard refuses it): name what is listed above in your final answer, so that the user can restore those checkouts.",
        "No other sub-agent of this session ran while you did; the changes are yours, the main agent's or the user's.",
        "[worktree-guard WG601 WG602]",
    ]
    switched = lc.block_reason([L("branch", "/s", before="a", after="b")], _saved(), [])
    assert "If you committed or switched branches there, bring your commits into your own branch.\n" in switched and "Move your work" not in switched
    assert switched.endswith("[worktree-guard WG601]")
    none = lc.block_reason([L("new", "/s", "a.txt", after="??"), L("head", "/s", before="a", after="b")], _saved(None), [])
    assert none.startswith("worktree-guard: while you ran, shared checkouts of this repository changed; you work in your own worktree (none: your isolation was not applied).")
    assert "Move your work" not in none and "If you committed" not in none
    changed_only = lc.block_reason([L("changed", "/s", "c.txt", before=".M", after="M.")], _saved(), [])
    assert "Move your work: copy each file you wrote there to the same path under /w (e.g. cp /s/c.txt /w/c.txt) and go on working there." in changed_only
    only_deleted = lc.block_reason([L("new", "/s", "d", after="D.")], _saved(), [])
    assert "Move your work" not in only_deleted
    many = lc.block_reason([L("new", "/s", f"f{i}", after="??") for i in range(27)], _saved(), [])
    assert "- /s/f24 is untracked" in many and "- /s/f25" not in many and "\n- … and 2 more.\n" in many
    assert "\n- … and 1 more.\n" in lc.block_reason([L("new", "/s", f"f{i}", after="??") for i in range(26)], _saved(), [])
    assert "- … and" not in lc.block_reason([L("new", "/s", f"f{i}", after="??") for i in range(25)], _saved(), [])


def test_other_sub_agents_are_named_with_where_and_whether_they_still_run() -> None:
    others = [
        {"agent_id": "b", "agent_type": "coder", "worktree": "/wb", "stop": None},
        {"agent_id": "c", "agent_type": None, "isolated": True, "stop": 5.0},
        {"agent_id": "d", "isolated": False, "stop": None},
    ]
    assert lc._others_sentence(others) == ("Other sub-agents ran while you did: coder b (isolated in /wb, still running); agent c (isolated, finished); agent d (not isolated, still running). "
                                           "A change you did not make may be theirs, the main agent's or the user's: say so instead of moving it.")
    assert lc._others_note(others) == " (other sub-agents running then: coder b, agent c, agent d)"
    assert lc._others_note([]) == ""
    assert lc.block_reason([L("new", "/s", "a", after="??")], _saved(), others[:1]).split("\n")[-2].startswith("Other sub-agents ran while you did: coder b")


def test_the_short_list_names_five_leaks_and_counts_the_rest() -> None:
    leaks = [L("branch", "/s", before="a", after="b"), L("head", "/t"), L("new", "/s", "x"), L("reverted", "/s", None)]
    assert lc._short_list(leaks) == "/s switched from a to b; /t HEAD moved; /s/x; /s/"
    seven = [L("new", "/s", f"f{i}") for i in range(7)]
    assert lc._short_list(seven) == "/s/f0; /s/f1; /s/f2; /s/f3; /s/f4 and 2 more"
    assert lc._short_list(seven[:5]) == "/s/f0; /s/f1; /s/f2; /s/f3; /s/f4"
    assert lc._short_list(seven[:6]) == "/s/f0; /s/f1; /s/f2; /s/f3; /s/f4 and 1 more"


def test_a_leak_s_violation_suggests_where_the_file_belongs() -> None:
    v = lc._violation(L("new", "/s", "a/b.txt", after="??"), _saved())
    assert (v.code, v.rule, v.tool, v.path, v.resolved, v.worktree_root, v.shared_root, v.suggestion) == ("WG602", "leaks", "SubagentStop", "/s/a/b.txt", "/s/a/b.txt", "/w", "/s", "/w/a/b.txt")
    assert v.message == "/s/a/b.txt is untracked and was not when you started."
    assert lc._violation(L("changed", "/s", "c", before=".M", after=".M"), _saved()).suggestion == "/w/c"
    assert lc._violation(L("reverted", "/s", "c", before=".M"), _saved()).suggestion is None
    assert lc._violation(L("new", "/s", "c", after="??"), _saved(None)).suggestion is None
    head = lc._violation(L("head", "/s", before="a", after="b"), _saved())
    assert (head.code, head.path, head.suggestion) == ("WG601", "/s", None)


def test_the_recorded_layout_of_a_stopping_sub_agent(tmp_path) -> None:
    from worktree_guard.subagents.state import SubagentStore

    stop = _agent("a1", event="SubagentStop")
    assert lc.worktree_guard_recorded_layout(stop) is None
    SubagentStore("s").save(_snap(worktree_root="/w", common_dir="/c.git", checkouts=[snaps.CheckoutState(root="/m"), snaps.CheckoutState(root="/o")]))
    got = lc.worktree_guard_recorded_layout(stop)
    assert (got.worktree_root, got.shared_roots, got.linked, got.common_dir, got.source) == ("/w", ["/m", "/o"], True, "/c.git", "recorded at the sub-agent's start")
    assert lc.worktree_guard_recorded_layout(_agent("a1", event="SubagentStart")) is None
    SubagentStore("s").save(_snap(worktree_root=None))
    assert lc.worktree_guard_recorded_layout(stop).linked is False


def test_checkouts_of_and_own_worktree(repo) -> None:
    assert lc.checkouts_of(None, ["/f"]) == ["/f"] and lc.checkouts_of("", ["/f"]) == ["/f"]
    common = _common(repo)
    assert lc.checkouts_of(common, []) == [str(repo.main), str(repo.worktree), str(repo.sibling), str(repo.outside)]
    scope = _NS(layout=_NS(linked=False, worktree_root="/x"))
    event = _agent(repo.agent_id)
    assert lc.own_worktree(event, scope, lc.checkouts_of(common, [])) == str(repo.worktree)
    assert lc.own_worktree(_agent("zzz"), scope, lc.checkouts_of(common, [])) is None
    assert lc.own_worktree(_agent("zzz"), _NS(layout=_NS(linked=True, worktree_root="/x")), []) == "/x"


def test_the_leak_check_s_start_and_stop_in_exact_words(repo) -> None:
    from tests.helpers import lifecycle_payload, run_hook_inline

    from worktree_guard.subagents.state import SubagentStore

    out = run_hook_inline(lifecycle_payload(repo, "SubagentStart")).output
    assert out["hookSpecificOutput"]["additionalContext"] == (
        f"worktree-guard: you work in your own git worktree {repo.worktree}; write, commit and run git only there. "
        f"The other checkouts of this repository ({repo.main}, {repo.sibling}, {repo.outside}) belong to others: do not write, switch or commit in them. "
        "When you stop, they are compared with their state now.")
    store = SubagentStore("5f1c2a4e-0000-4000-8000-000000000001")
    saved = store.load(repo.agent_id)
    assert saved.agent_type == "general-purpose" and saved.cwd == str(repo.worktree) and saved.common_dir == _common(repo) and saved.blocks == 0
    (repo.main / "leak.txt").write_text("x")
    first = run_hook_inline(lifecycle_payload(repo, "SubagentStop"))
    assert first.stop_blocked
    summary = f"worktree-guard: sub-agent general-purpose ({repo.agent_id}) left changes in shared checkouts: {repo.main}/leak.txt [worktree-guard WG602]"
    assert first.output["systemMessage"] == summary
    assert store.load(repo.agent_id).blocks == 1
    second = run_hook_inline(lifecycle_payload(repo, "SubagentStop"))
    assert not second.stop_blocked and second.output["systemMessage"] == summary
    assert store.load(repo.agent_id) is None  # finished: its snapshot is gone
    assert run_hook_inline(lifecycle_payload(repo, "SubagentStop")).stdout == ""  # nothing recorded any more


def test_the_leak_check_in_warn_mode_and_with_a_checkout_gone(repo) -> None:
    import shutil

    from tests.helpers import lifecycle_payload, run_hook_inline

    from worktree_guard.subagents.state import SubagentStore

    (repo.main / ".worktree-guard.toml").write_text('mode = "warn"\n')
    from tests.helpers import git

    git("add", ".worktree-guard.toml", cwd=repo.main)
    git("commit", "-q", "-m", "warn", cwd=repo.main)
    run_hook_inline(lifecycle_payload(repo, "SubagentStart"))
    (repo.main / "leak.txt").write_text("x")
    r = run_hook_inline(lifecycle_payload(repo, "SubagentStop"))
    assert not r.stop_blocked and "left changes in shared checkouts" in r.output["systemMessage"]
    assert SubagentStore("5f1c2a4e-0000-4000-8000-000000000001").load(repo.agent_id) is None
    (repo.main / "leak.txt").unlink()
    run_hook_inline(lifecycle_payload(repo, "SubagentStart"))
    shutil.rmtree(repo.outside)
    r = run_hook_inline(lifecycle_payload(repo, "SubagentStop"))
    assert r.stdout == ""  # a removed checkout is not compared, and no leak elsewhere


def test_a_sub_agent_whose_isolation_was_not_applied_is_told_so(repo) -> None:
    from tests.helpers import lifecycle_payload, run_hook_inline, write_agent

    write_agent(repo.main / ".claude" / "agents", "iso", "isolation: worktree")
    out = run_hook_inline(lifecycle_payload(repo, "SubagentStart", cwd=str(repo.main), agent_id="anotherid", agent_type="iso")).output
    assert out["hookSpecificOutput"]["additionalContext"] == (
        f"worktree-guard: you were meant to work in your own git worktree, but your isolation was not applied: you run in {repo.main}. "
        "Stop and report this instead of changing files.")


def test_a_stale_temp_file_of_the_same_process_is_overwritten_not_appended_to(tmp_path) -> None:
    from worktree_guard.subagents.state import SubagentStore

    store = SubagentStore("s", root=str(tmp_path / "st"))
    store.save(_snap())
    with open(f"{store.path_of('a1')}.{os.getpid()}.tmp", "w") as f:
        f.write(" " * 10 + "x" * 10_000)  # left by a crash: longer than what is written next
    store.save(_snap(blocks=4))
    assert store.load("a1").blocks == 4
    path = str(tmp_path / "w.json")
    with open(f"{path}.{os.getpid()}.tmp", "w") as f:
        f.write("y" * 10_000)
    reg.write_private(path, "{}")
    assert open(path).read() == "{}"


def test_a_private_file_is_not_inherited_by_the_programs_the_guard_runs(tmp_path, monkeypatch) -> None:
    import fcntl

    from worktree_guard.subagents.state import SubagentStore

    seen = []
    real_fdopen = os.fdopen

    def spy(fd, *args, **kwargs):
        seen.append(fcntl.fcntl(fd, fcntl.F_GETFD) & fcntl.FD_CLOEXEC)
        return real_fdopen(fd, *args, **kwargs)

    monkeypatch.setattr(os, "fdopen", spy)
    SubagentStore("s", root=str(tmp_path / "st")).save(_snap())
    reg.write_private(str(tmp_path / "w.json"), "{}")
    assert seen == [fcntl.FD_CLOEXEC, fcntl.FD_CLOEXEC]


def _audited(wv: Wave, tmp_path):
    """Configure an audit log outside the checkout; return a reader of the last record's violations."""
    import json

    log = tmp_path / "audit.jsonl"
    (wv.repo.main / ".worktree-guard.toml").write_text(f'audit_log = "{log}"\n')

    def last() -> list[dict]:
        return json.loads(log.read_text().splitlines()[-1])["violations"]

    return last


def test_enter_worktree_findings_name_the_path_where_it_resolves_and_the_worker_s_checkout(wv: Wave, tmp_path) -> None:
    main = str(wv.repo.main)
    last = _audited(wv, tmp_path)
    wv.start(WA, "toolu_A", "src/auth/**")
    assert codes(wv.call(WA, "EnterWorktree", {"path": str(wv.repo.sibling)})) == {"WG701"}
    [v] = [v for v in last() if v["rule"] == "wave"]
    assert (v["code"], v["tool"], v["path"], v["resolved"], v["worktree_root"]) == ("WG701", "EnterWorktree", str(wv.repo.sibling), str(wv.repo.sibling), main)
    assert codes(wv.call(WA, "EnterWorktree", {"path": "src"})) == {"WG701"}  # relative to the call's cwd
    [v] = [v for v in last() if v["rule"] == "wave"]
    assert (v["path"], v["resolved"]) == ("src", f"{main}/src")
    r = wv.call(WA, "EnterWorktree", {"path": 5})
    assert "EnterWorktree would move this worker to 5, out of the checkout" in r.reason
    [v] = [v for v in last() if v["rule"] == "wave"]
    assert (v["path"], v["resolved"]) == (None, None)
    assert codes(wv.call(WA, "EnterWorktree", {"name": "x"})) == {"WG703"}
    [v] = [v for v in last() if v["rule"] == "wave"]
    assert (v["code"], v["tool"], v["worktree_root"]) == ("WG703", "EnterWorktree", main)


def test_a_computed_command_name_looks_past_options_at_every_argument(wv: Wave) -> None:
    wv.start(WA, "toolu_A", "src/auth/**")
    assert codes(wv.bash(WA, "$CMD -v src/app.py")) == {"WG404"}
    assert codes(wv.bash(WA, "$CMD src/auth/x src/app.py")) == {"WG404"}


def test_sweep_counts_only_the_files_it_removed(tmp_path) -> None:
    from worktree_guard.subagents import state

    assert state._unlink(str(tmp_path / "none")) == 0
    (tmp_path / "dir.json").mkdir()
    assert state._unlink(str(tmp_path / "dir.json")) == 0 and (tmp_path / "dir.json").is_dir()
    (tmp_path / "f").write_text("")
    assert state._unlink(str(tmp_path / "f")) == 1 and not (tmp_path / "f").exists()
    root = tmp_path / "st"
    (root / "s" / "old.json").mkdir(parents=True)  # a directory where a stale snapshot would be: not removable
    os.utime(root / "s" / "old.json", (1.0, 1.0))
    assert state.sweep(str(root), now=1e9) == 0


def test_a_common_dir_that_is_not_utf_8_still_has_its_registry(tmp_path) -> None:
    import hashlib

    odd = "/x\udcff.git"  # a byte that is not UTF-8, as os.fsdecode gives it
    assert places.registry_dir(odd, "/r") == "/r/" + hashlib.sha256(odd.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def test_the_wave_index_keeps_an_entry_exactly_as_old_as_the_history_and_names_its_lock(tmp_path, monkeypatch) -> None:
    import fcntl

    from worktree_guard.subagents import index as ix
    from worktree_guard.subagents.registry import HISTORY_AFTER

    index = ix.WaveIndex(str(tmp_path / "waves"))
    _write_json(index.path, {"version": 1, "keys": {"agent:edge": [{"common_dir": "/edge", "time": 1e9 - HISTORY_AFTER}]}})
    monkeypatch.setattr(ix.time, "time", lambda: 1e9)
    index.note(["agent:b"], "/b")
    assert index.lookup(["agent:edge"]) == ["/edge"]
    fd = os.open(os.path.join(index.dir, "index.lock"), os.O_RDWR)
    fcntl.flock(fd, fcntl.LOCK_EX)
    monkeypatch.setattr(reg, "LOCK_TIMEOUT", 0.05)
    try:
        with pytest.raises(TimeoutError) as raised:
            index.note(["agent:c"], "/c")
        assert str(raised.value) == f"the wave index {index.path} stayed locked for 0.05 s"
    finally:
        os.close(fd)
