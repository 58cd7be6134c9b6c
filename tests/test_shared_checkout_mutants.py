"""Tests written from the mutation run of the shared-checkout regime's modules (issue 13, phase 17): what a worker
wrote outside its files is found at its stop (`subagents/snapshots`), and only what it can be blamed for is rolled
back (`subagents/blame`). Each test kills mutants that tests/test_subagent_mutants.py left alive; real files and
real git repositories under tmp_path, in this process (so that mutmut's coverage selection reaches them)."""

from __future__ import annotations

import hashlib
import os

import pytest

from worktree_guard.subagents import snapshots as snaps

# --- snapshots ----------------------------------------------------------------------------------------------------


def _vanishing(monkeypatch, name: str) -> None:
    """os.lstat fails for one name, as for a file removed between the directory's listing and its stat."""
    real = os.lstat

    def lstat(path, *args, **kwargs):
        if os.path.basename(os.fspath(path)) == name:
            raise FileNotFoundError(2, "gone", path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "lstat", lstat)


def test_tree_fingerprint_goes_on_past_a_file_that_vanished_and_hashes_names_that_are_not_utf_8(tmp_path, monkeypatch) -> None:
    d = tmp_path / "d"
    d.mkdir()
    for name in ("a", "b", "c"):
        (d / name).write_text(name)
        os.utime(d / name, ns=(7, 7))
    _vanishing(monkeypatch, "b")
    expected = hashlib.sha256()
    for rel in ("a", "c"):  # b is counted but not hashed; c still is
        expected.update(f"{rel}\0{1}\0{7}\n".encode())
    assert snaps.tree_fingerprint(str(d)) == f"tree:{expected.hexdigest()}:3"
    monkeypatch.undo()
    odd = os.fsdecode(b"n\xffme")  # a name git lists from a checkout that is not UTF-8
    e = tmp_path / "e"
    e.mkdir()
    (e / odd).write_text("x")
    os.utime(e / odd, ns=(7, 7))
    expected = hashlib.sha256(f"{odd}\0{1}\0{7}\n".encode("utf-8", "surrogateescape"))
    assert snaps.tree_fingerprint(str(e)) == f"tree:{expected.hexdigest()}:1"


def test_tree_manifest_goes_on_past_a_file_that_vanished_and_reads_a_directory_named_with_x(tmp_path, monkeypatch) -> None:
    (tmp_path / "out").mkdir()
    for name in ("a", "b", "c"):
        (tmp_path / "out" / name).write_text(name)
    mark = lambda p: f"1:{os.lstat(tmp_path / p).st_mtime_ns}"  # noqa: E731
    want = {"out/a": mark("out/a"), "out/c": mark("out/c")}
    _vanishing(monkeypatch, "b")
    assert snaps.tree_manifest(str(tmp_path), "out/") == want
    monkeypatch.undo()
    (tmp_path / "boX").mkdir()
    (tmp_path / "bo").mkdir()  # what `boX/` would be with its X stripped too
    (tmp_path / "boX" / "f").write_text("f")
    assert snaps.tree_manifest(str(tmp_path), "boX/") == {"boX/f": mark("boX/f")}


def test_fingerprint_of_reads_a_tree_only_for_a_path_listed_with_a_slash(tmp_path) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "f").write_text("f")
    (tmp_path / "l").symlink_to("d")
    assert snaps.fingerprint_of(str(tmp_path), "l") == "link:d"  # a symlink to a directory is the link, not the tree
    assert snaps.fingerprint_of(str(tmp_path), "l/").startswith("tree:")
    (tmp_path / "was-a-dir").write_text("now a file")
    assert snaps.fingerprint_of(str(tmp_path), "was-a-dir/") == snaps.fingerprint(str(tmp_path / "was-a-dir"))
    assert snaps.fingerprint_of(str(tmp_path), "was-a-dir/").startswith("sha256:")
    (tmp_path / "boX").mkdir()
    (tmp_path / "boX" / "f").write_text("f")
    assert snaps.fingerprint_of(str(tmp_path), "boX/") == snaps.tree_fingerprint(str(tmp_path / "boX")) != "absent"


def test_fingerprint_reads_a_file_to_its_end_once(tmp_path, monkeypatch) -> None:
    """Block by block until read gives b"": a loop that missed the end would read (and hash) forever."""
    import builtins

    data = b"y" * ((1 << 20) + 5)
    (tmp_path / "f").write_bytes(data)
    reads = []
    real_open = builtins.open

    class Counted:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def read(self, size=-1):
            reads.append(size)
            if len(reads) > 10:
                raise AssertionError("read past the end")
            return self.f.read(size)

    monkeypatch.setattr(builtins, "open", lambda *a, **k: Counted(real_open(*a, **k)))
    assert snaps.fingerprint(str(tmp_path / "f")) == "sha256:" + hashlib.sha256(data).hexdigest()
    assert len(reads) == 3  # two blocks, then the empty read that ends it


def test_git_lines_never_hands_git_the_hook_s_stdin_and_gives_up_after_its_timeout(tmp_path, monkeypatch) -> None:
    import subprocess

    from tests.helpers import make_repo

    repo = make_repo(tmp_path / "w")
    root = str(repo.main)
    read_end, write_end = os.pipe()
    os.write(write_end, b"the hook's payload\n")
    os.close(write_end)
    saved = os.dup(0)
    os.dup2(read_end, 0)
    try:
        got = snaps.git_lines(root, "hash-object", "--stdin")
    finally:
        os.dup2(saved, 0)
        os.close(saved)
        os.close(read_end)
    assert got == ["e69de29bb2d1d6434b8b29ae775ad8c2e48c5391\n"]  # the empty blob: git read nothing
    monkeypatch.setattr(snaps, "GIT_TIMEOUT", 0.3)
    with pytest.raises(subprocess.TimeoutExpired):
        snaps.git_lines(root, "-c", "alias.slow=!sleep 2", "slow")
    long = "x" * 300
    with pytest.raises(RuntimeError) as raised:
        snaps.git_lines(root, long)
    prefix = f"git {long} failed in {root}: "
    assert str(raised.value).startswith(prefix + "git: 'xxx") and len(str(raised.value)) == len(prefix) + 200


def test_a_path_is_the_nested_checkout_s_only_when_its_name_is_the_checkout_s(tmp_path) -> None:
    root = str(tmp_path)
    assert snaps._ignored(root, "boX/", [root, f"{root}/boX"])
    assert not snaps._ignored(root, "bo/", [root, f"{root}/boX"])
    assert not snaps._ignored(root, "x ", [root, f"{root}/x"])  # a file `x ` beside the nested checkout `x` is this one's
    assert snaps._ignored(root, "x/", [root, f"{root}/x"]) and snaps._ignored(root, "x/f", [root, f"{root}/x"])


def test_parse_status_keeps_a_path_that_starts_with_a_space(tmp_path) -> None:
    """Porcelain v2 separates its fields by one space: the path is the rest of the entry, leading spaces and all."""
    out = b"\0".join([
        b"1 .M N... 100644 100644 100644 abc abc  one", b"2 R. N... 100644 100644 100644 abc abc R100  two", b" was",
        b"u UU N... 100644 100644 100644 100644 a b c  three", b"",
    ])
    assert snaps.parse_status(out) == (None, None, {" one": ".M", " two": "R.", " was": "R.", " three": "UU"})
    from tests.helpers import git, make_repo

    repo = make_repo(tmp_path / "w")
    (repo.main / " lead.txt").write_text("a")
    git("add", " lead.txt", cwd=repo.main)
    git("commit", "-q", "-m", "c", cwd=repo.main)
    (repo.main / " lead.txt").write_text("b")
    [state] = snaps.snapshot([str(repo.main)], [str(repo.main)], ignored=False)
    assert state.dirty == {" lead.txt": (".M", snaps.fingerprint(str(repo.main / " lead.txt")))}


def test_snapshot_reads_the_checkout_it_is_given_whatever_git_s_variables_in_the_environment_say(tmp_path, monkeypatch) -> None:
    from tests.helpers import make_repo

    repo = make_repo(tmp_path / "w")
    other = make_repo(tmp_path / "o")
    (repo.main / "mine.txt").write_text("m")
    (other.main / "theirs.txt").write_text("t")
    monkeypatch.setenv("GIT_DIR", str(other.main / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(other.main))
    [state] = snaps.snapshot([str(repo.main)], [str(repo.main)], fingerprints=False, ignored=False)
    assert state.error is None and state.dirty == {"mine.txt": ("??", "")}


def test_snapshot_gives_every_root_its_state_when_git_cannot_run_fails_or_takes_too_long(tmp_path, monkeypatch) -> None:
    from tests.helpers import git, make_repo

    repo = make_repo(tmp_path / "w")
    good = str(repo.main)
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / ".git").write_text("gitdir: /nonexistent/" + "x" * 300 + "\n")
    missing = str(tmp_path / "missing")
    states = snaps.snapshot([missing, str(broken), good], [good], fingerprints=False, ignored=False)
    assert [s.root for s in states] == [missing, str(broken), good]
    assert states[0].error == "cannot run git: No such file or directory"
    assert states[1].error.startswith("git status failed: fatal: not a git repository: /nonexistent/xxx")
    assert len(states[1].error) == len("git status failed: ") + 200
    assert states[2].error is None and states[2].branch == "main"
    hook = tmp_path / "slow-fsmonitor"
    hook.write_text("#!/bin/sh\nsleep 4\n")
    hook.chmod(0o755)
    git("config", "core.fsmonitor", str(hook), cwd=repo.main)  # every `git status` of the repository now takes 4 s
    monkeypatch.setattr(snaps, "GIT_TIMEOUT", 0.5)
    slow = snaps.snapshot([good, missing], [good], fingerprints=False, ignored=False)
    assert [(s.root, s.error, s.head) for s in slow] == [(good, "git status took more than 0 s", None), (missing, "cannot run git: No such file or directory", None)]


# --- blame: a worker's stop, from its start snapshot and the registry -------------------------------------------------

from worktree_guard.subagents import blame as bl  # noqa: E402
from worktree_guard.subagents import ownership as own  # noqa: E402
from worktree_guard.subagents import registry as reg  # noqa: E402
from worktree_guard.subagents.linking import Worker  # noqa: E402

STALE = 3600.0


def _shared(tmp_path):
    """A main checkout that ignores build/, with a linked worktree nested in it outside .claude/worktrees/ (a
    checkout of its own: never this one's content), and the registry of its repository."""
    from tests.helpers import git, make_repo

    repo = make_repo(tmp_path / "w")
    root = str(repo.main)
    (repo.main / ".gitignore").write_text("build/\n")
    (repo.main / "renamed-from.txt").write_text("r\n")
    git("add", "-A", cwd=repo.main)
    git("commit", "-q", "-m", "ignore build", cwd=repo.main)
    git("worktree", "add", "-q", "-b", "nested", str(repo.main / "nested-wt"), cwd=repo.main)
    (repo.main / "build").mkdir()
    (repo.main / "build" / "old.o").write_text("o")
    common = git("rev-parse", "--path-format=absolute", "--git-common-dir", cwd=repo.main).strip()
    return repo, root, common, reg.Registry(common, str(tmp_path / "waves"))


def test_start_state_lists_ignored_trees_file_by_file_for_a_shared_worker_and_passes_over_nested_checkouts(tmp_path) -> None:
    repo, root, common, _ = _shared(tmp_path)
    (repo.main / "nested-wt" / "theirs.txt").write_text("t")
    (repo.main / "loose.txt").write_text("l")
    state = bl.start_state(common, root)
    assert set(state.dirty) == {"loose.txt", "build/"}  # ignored listed; nothing of the nested worktree
    assert state.dirty["build/"][0] == "!!"
    assert state.trees == {"build/": {"build/old.o": f"1:{os.lstat(repo.main / 'build' / 'old.o').st_mtime_ns}"}}
    isolated = bl.start_state(common, root, isolated=True)
    assert set(isolated.dirty) == {"loose.txt", "build/"} and isolated.trees == {}


def _wave(registry: reg.Registry, root: str, sibling: str, t0: float, now: float) -> None:
    D = reg.Dispatch
    with registry.changing() as w:
        w.dispatches["d1"] = D(dispatch_id="d1", session_id="s", agent_type="coder", checkout=root, owns=["src/**"], time=t0)
        w.agents["a1"] = reg.Agent(agent_id="a1", session_id="s", dispatch_id="d1", checkout=root, started=t0 + 1)
        # overlapping, stopped: its files are its own
        w.dispatches["d2"] = D(dispatch_id="d2", session_id="s", checkout=root, owns=["b.txt"], time=t0)
        w.agents["a2"] = reg.Agent(agent_id="a2", session_id="s", dispatch_id="d2", started=t0 + 2, stopped=t0 + 5)
        # isolated: works in a worktree of its own, so it cannot have written here
        w.dispatches["d3"] = D(dispatch_id="d3", session_id="s", checkout=root, owns=["c.txt"], isolated=True, time=t0)
        w.agents["a3"] = reg.Agent(agent_id="a3", session_id="s", dispatch_id="d3", started=t0 + 2)
        # stopped before a1 started
        w.dispatches["d4"] = D(dispatch_id="d4", session_id="s", checkout=root, owns=["d.txt"], time=t0 - 200)
        w.agents["a4"] = reg.Agent(agent_id="a4", session_id="s", dispatch_id="d4", started=t0 - 100, stopped=t0 - 50)
        # in another checkout
        w.dispatches["d5"] = D(dispatch_id="d5", session_id="s", checkout=sibling, owns=["e.txt"], time=t0)
        w.agents["a5"] = reg.Agent(agent_id="a5", session_id="s", dispatch_id="d5", started=t0 + 2)
        # dispatched, not linked yet: running while PENDING_AFTER lasts
        w.dispatches["d6"] = D(dispatch_id="d6", session_id="s", checkout=root, owns=["f.txt"], time=now - 10)
        # dispatched long ago, not linked, but a sub-agent of its session and type started after it and still runs
        w.dispatches["d7"] = D(dispatch_id="d7", session_id="s7", agent_type="t7", checkout=root, owns=["g.txt"], time=t0 - 1000)
        w.agents["a7"] = reg.Agent(agent_id="a7", session_id="s7", agent_type="t7", started=t0 - 990)
        # not linked, long ago, nothing of its kind runs: forgotten at PENDING_AFTER, before a1 started
        w.dispatches["d8"] = D(dispatch_id="d8", session_id="s8", checkout=root, owns=["h.txt"], time=t0 - 1000)


def test_blame_of_spares_what_the_worker_s_wave_owns_and_blames_the_rest_with_what_was_committed(tmp_path) -> None:
    import time

    from tests.helpers import git

    repo, root, common, registry = _shared(tmp_path)
    start = git("rev-parse", "HEAD", cwd=repo.main).strip()
    before = bl.start_state(common, root)
    registry.write("snapshots", "a1", before.model_dump_json())
    now = time.time()
    t0 = now - 100
    _wave(registry, root, str(repo.sibling), t0, now)
    for name in ("b.txt", "c.txt", "d.txt", "e.txt", "f.txt", "g.txt", "h.txt"):
        (repo.main / name).write_text(name)
    (repo.main / "src" / "mine.py").write_text("m")
    (repo.main / "build" / "new.o").write_text("n")  # ignored: still a change
    (repo.main / "nested-wt" / "theirs.txt").write_text("t")  # another checkout's
    (repo.main / "committed.txt").write_text("c")
    git("mv", "renamed-from.txt", "renamed-to.txt", cwd=repo.main)
    git("add", "committed.txt", cwd=repo.main)
    git("commit", "-q", "-m", "a worker's commit", cwd=repo.main)
    worker = Worker(agent_id="a1", agent_type="coder", ownership=own.Ownership.of(["src/**"], "the prompt"), root=root, isolated=False, linked_by="test", dispatch_id="d1")
    blame = bl.blame_of(registry, "a1", worker, ["*.tmp"], now, STALE)
    assert [(b.path, b.existed, b.committed) for b in blame.blamed] == [
        ("build/new.o", False, False),
        ("c.txt", False, False),
        ("d.txt", False, False),
        ("e.txt", False, False),
        ("h.txt", False, False),
        ("committed.txt", False, True),
        ("renamed-from.txt", True, True),  # a rename committed: the old name is restored, the new one removed
        ("renamed-to.txt", False, True),
    ]
    assert blame.wave == ["agent a2", "agent (dispatched by d6)", "t7 (dispatched by d7)"]
    assert blame.nested == [] and blame.changed_again == [] and blame.start_head == start
    assert bl.committed_since(root, start, "HEAD") == ["committed.txt", "renamed-from.txt", "renamed-to.txt"]
    (repo.main / "README.md").write_text("uncommitted\n")
    assert bl.committed_since(root, start, git("rev-parse", "HEAD", cwd=repo.main).strip()) == ["committed.txt", "renamed-from.txt", "renamed-to.txt"]


def test_blame_of_without_a_start_with_an_unreadable_state_and_for_a_worker_the_registry_does_not_know(tmp_path) -> None:
    import time

    repo, root, common, registry = _shared(tmp_path)
    worker = Worker(agent_id="a1", agent_type=None, ownership=own.Ownership.of([], "p"), root=root, isolated=False, linked_by="test")
    now = time.time()
    assert bl.blame_of(registry, "a1", worker, [], now, STALE) is None
    registry.write("snapshots", "a1", snaps.CheckoutState(root=root, error="git status took more than 20 s").model_dump_json())
    with pytest.raises(RuntimeError) as raised:
        bl.blame_of(registry, "a1", worker, [], now, STALE)
    assert str(raised.value) == "git status took more than 20 s"
    registry.write("snapshots", "a1", bl.start_state(common, root).model_dump_json())
    with registry.changing() as w:  # a worker that stopped an hour ago, owning x.txt
        w.dispatches["d2"] = reg.Dispatch(dispatch_id="d2", checkout=root, owns=["x.txt"], time=now - 3700)
        w.agents["a2"] = reg.Agent(agent_id="a2", dispatch_id="d2", started=now - 3690, stopped=now - 3600)
    (repo.main / "x.txt").write_text("x")
    # a1 unknown to the registry: its window is taken as now alone, which a2's does not meet
    blame = bl.blame_of(registry, "a1", worker, [], now, STALE)
    assert [b.path for b in blame.blamed] == ["x.txt"] and blame.wave == []
    with registry.changing() as w:  # known, but its start not recorded: the same
        w.agents["a1"] = reg.Agent(agent_id="a1")
    assert [b.path for b in bl.blame_of(registry, "a1", worker, [], now, STALE).blamed] == ["x.txt"]
    with registry.changing() as w:  # started before a2 stopped: a2's x.txt is its own
        w.agents["a1"] = reg.Agent(agent_id="a1", started=now - 3650)
    assert bl.blame_of(registry, "a1", worker, [], now, STALE).blamed == []


def test_blame_of_names_the_setting_an_unusable_pattern_came_from(tmp_path) -> None:
    import time

    repo, root, common, registry = _shared(tmp_path)
    worker = Worker(agent_id="a1", agent_type=None, ownership=own.Ownership.of([], "p"), root=root, isolated=False, linked_by="test")
    registry.write("snapshots", "a1", bl.start_state(common, root).model_dump_json())
    with pytest.raises(own.OwnershipError) as raised:
        bl.blame_of(registry, "a1", worker, ["../up"], time.time(), STALE)
    assert str(raised.value) == "scratch: '../up' leaves the checkout (`..`)"
    with registry.changing() as w:  # a record that holds what no dispatch check lets through
        w.dispatches["d2"] = reg.Dispatch(dispatch_id="d2", checkout=root, owns=["!neg"], time=time.time())
    with pytest.raises(own.OwnershipError) as raised:
        bl.blame_of(registry, "a1", worker, [], time.time(), STALE)
    assert str(raised.value) == ": '!neg' is a negation; an ownership lists what a worker may write"


def _w(root, owns=("src/**",)) -> Worker:
    return Worker(agent_id="a1", agent_type="coder", ownership=own.Ownership.of(list(owns), "the prompt"), root=str(root), isolated=False, linked_by="test")


def _st(root, head="h", dirty=None, trees=None):
    return snaps.CheckoutState(root=str(root), head=head, branch="main", dirty=dirty or {}, trees=trees or {})


NOBODY = own.Ownership.of([], "scratch")


def test_an_ignored_directory_gone_at_the_stop_is_judged_file_by_file_with_the_paths_around_it(tmp_path) -> None:
    root = tmp_path
    (root / "a.txt").write_text("a")
    (root / "z.txt").write_text("z")
    before = _st(root, dirty={"out/": ("!!", "t")}, trees={"out/": {"out/f1": "1:1", "out/f2": "1:1"}})
    after = _st(root, dirty={"a.txt": ("??", ""), "z.txt": ("??", "")})
    blame = bl.compute_blame(before, after, _w(root), [], NOBODY)
    assert [b.path for b in blame.blamed] == ["a.txt", "z.txt"]  # the paths before and after the directory both count
    assert blame.changed_again == ["out/f1", "out/f2"]  # ignored, there at the start: reported, never rolled back


def test_names_that_only_a_stripped_character_tells_apart_are_judged_as_git_lists_them(tmp_path) -> None:
    """`fooX` is not `foo`, `x ` is not `x`: a name must be judged as it is, else one path is taken for another."""
    root = tmp_path
    for name in ("fooX", "x ", "keep"):
        (root / name).write_text(name)
    (root / "boX").mkdir()
    (root / "boX" / "f").write_text("f")
    from tests.test_subagent_mutants import _registered

    (root / ".git").mkdir()
    _registered(root / ".claude" / "worktrees" / "agent-q", root / ".git")
    after = _st(root, dirty={"fooX": ("??", ""), "x ": ("??", ""), "boX/": ("??", ""), ".claude/worktrees/agent-q/": ("??", "")})
    blame = bl.compute_blame(_st(root), after, _w(root, owns=("fooX", "x", "boX/**")), [], NOBODY)
    assert [b.path for b in blame.blamed] == ["x "]  # the checkout the runtime made under `.claude/worktrees/` is its own
    dir_only = bl.compute_blame(_st(root), _st(root, dirty={"keep": ("??", "")}), _w(root, owns=("keep/",)), [], NOBODY)
    assert [b.path for b in dir_only.blamed] == ["keep"]  # `keep/` owns a directory of that name, not the file
    (root / "x" / ".git").mkdir(parents=True)  # repositories of their own
    (root / "bo" / ".git").mkdir(parents=True)
    assert bl.nested_checkout(str(root), "x ") is None and bl.nested_checkout(str(root), "boX/") is None
    assert bl.nested_checkout(str(root), "x/f") == "x" and bl.nested_checkout(str(root), "bo/") == "bo"


def test_restore_touches_only_the_file_named_and_takes_the_start_s_content_not_the_staged_one(tmp_path) -> None:
    from tests.helpers import git, make_repo

    repo = make_repo(tmp_path / "w")
    root = str(repo.main)
    start = git("rev-parse", "HEAD", cwd=repo.main).strip()
    for name in ("x ", "x", "boX", "bo"):
        (repo.main / name).write_text(name)
    blame = bl.Blame(agent_id="a1", root=root, start_head=start, owns=[], owns_source="p")
    bl.restore(blame, bl.BlamedPath(path="x ", existed=False, fingerprint=""))
    bl.restore(blame, bl.BlamedPath(path="boX", existed=False, fingerprint=""))
    assert sorted(p for p in os.listdir(root) if p.startswith(("x", "bo"))) == ["bo", "x"]
    (repo.main / "README.md").write_text("the worker's edit, staged\n")
    git("add", "README.md", cwd=repo.main)
    bl.restore(blame, bl.BlamedPath(path="README.md", existed=True, fingerprint=""))
    assert (repo.main / "README.md").read_text() == "hello\n"


def test_rollback_of_a_directory_or_a_file_changed_again_alone_says_it_left_it(tmp_path) -> None:
    r = reg.Registry(str(tmp_path / "c.git"), str(tmp_path / "waves"))
    item = bl.BlamedPath(path="out/", existed=False, fingerprint="x")
    r.write("blame", "a1", bl.Blame(agent_id="a1", root=str(tmp_path), start_head="h", owns=[], owns_source="p", blamed=[item]).model_dump_json())
    assert bl.rollback(r, "a1", apply=True) == ([f"worker agent a1 in {tmp_path} owns none; blamed on it:", f"  {tmp_path}/out/: a directory, which rollback never removes; left alone"], 1)
    (tmp_path / "f").write_text("edited again after the stop")
    item = bl.BlamedPath(path="f", existed=False, fingerprint="sha256:what-the-worker-left")
    r.write("blame", "a1", bl.Blame(agent_id="a1", root=str(tmp_path), start_head="h", owns=[], owns_source="p", blamed=[item]).model_dump_json())
    assert bl.rollback(r, "a1", apply=True) == ([f"worker agent a1 in {tmp_path} owns none; blamed on it:", f"  {tmp_path}/f: changed again since the worker stopped; left alone"], 1)
    assert (tmp_path / "f").exists()


def test_changed_since_leaves_ignored_paths_out_and_in_commit_asks_for_the_path_alone(tmp_path) -> None:
    from tests.helpers import git, make_repo

    repo = make_repo(tmp_path / "w")
    (repo.main / ".gitignore").write_text("*.o\n")
    (repo.main / "XX--XX").write_text("a file with an odd name\n")
    git("add", "-A", cwd=repo.main)
    git("commit", "-q", "-m", "c", cwd=repo.main)
    base = git("rev-parse", "HEAD", cwd=repo.main).strip()
    (repo.main / "built.o").write_text("o")
    (repo.main / "loose.txt").write_text("l")
    assert bl.changed_since(str(repo.main), base) == {"loose.txt"}
    assert not bl._in_commit(str(repo.main), base, "absent.txt") and bl._in_commit(str(repo.main), base, "XX--XX")


def test_live_changes_diffs_each_worktree_from_where_it_parted_and_copes_without_a_main_checkout(tmp_path) -> None:
    from tests.helpers import bare_clone, git, make_repo

    repo = make_repo(tmp_path / "w")
    (repo.main / "later.txt").write_text("on main after the others parted\n")
    git("add", "later.txt", cwd=repo.main)
    git("commit", "-q", "-m", "later", cwd=repo.main)
    base = git("rev-parse", "HEAD", cwd=repo.main).strip()
    common = git("rev-parse", "--path-format=absolute", "--git-common-dir", cwd=repo.main).strip()
    got = bl.live_changes(common, str(repo.main), base)
    assert got == {str(repo.worktree): set(), str(repo.sibling): set(), str(repo.outside): set()}  # not later.txt: they never had it
    (tmp_path / "b").mkdir()
    bare, wt = bare_clone(repo, tmp_path / "b")
    (wt / "w.txt").write_text("w")
    assert bl.live_changes(str(bare), str(tmp_path / "elsewhere"), base) == {str(wt): {"w.txt"}}


def test_prune_keeps_a_record_exactly_as_old_as_the_history(tmp_path) -> None:
    now = 10_000_000.0
    edge, past = now - reg.HISTORY_AFTER, now - reg.HISTORY_AFTER - 1
    w = reg.Workers(
        dispatches={"kept": reg.Dispatch(dispatch_id="kept", checkout="/c", time=edge), "gone": reg.Dispatch(dispatch_id="gone", checkout="/c", time=past)},
        agents={"kept": reg.Agent(agent_id="kept", stopped=edge), "gone": reg.Agent(agent_id="gone", stopped=past)},
    )
    reg._prune(w, now)
    assert set(w.dispatches) == {"kept"} and set(w.agents) == {"kept"}


# --- phase 18: after stop 33's changes (runtime_owned, linked_checkout, the nested rule) -----------------------------


def _ignored_claude(tmp_path):
    """A real repository whose `.claude/` is ignored, with the runtime's two real linked worktrees below
    `.claude/worktrees/` (make_repo's): what the stop sees as one `!!` entry, `.claude/`."""
    from tests.helpers import git, make_repo

    repo = make_repo(tmp_path / "w")
    (repo.main / ".gitignore").write_text(".claude/\n")
    git("add", ".gitignore", cwd=repo.main)
    git("commit", "-q", "-m", "ignore .claude", cwd=repo.main)
    return repo, str(repo.main)


def test_an_ignored_claude_directory_s_fingerprint_counts_a_worker_s_file_beside_the_runtime_s_worktrees(tmp_path) -> None:
    """Kills tree_fingerprint 16 (runtime_owned(None, …): a file directly below .claude/worktrees/ raised)."""
    repo, root = _ignored_claude(tmp_path)
    before = snaps.fingerprint_of(root, ".claude/")
    (repo.worktree / "mine.txt").write_text("in its own checkout")  # a linked checkout: not .claude/'s content
    (repo.main / ".claude" / "settings.local.json").write_text("{}")  # the runtime's file
    assert snaps.fingerprint_of(root, ".claude/") == before
    (repo.main / ".claude" / "worktrees" / "notes.txt").write_text("a worker's")
    assert snaps.fingerprint_of(root, ".claude/") != before


def test_runtime_owned_matches_the_runtime_s_file_by_its_whole_name(tmp_path) -> None:
    """Kills runtime_owned 2 (rstrip(None): `settings.local.json ` was the runtime's) and 4 (rstrip("XX/XX"):
    `settings.local.jsonX` was). Names git lists for files a worker wrote beside the runtime's."""
    repo, root = _ignored_claude(tmp_path)
    assert snaps.runtime_owned(root, ".claude/settings.local.json")
    for name in (".claude/settings.local.json ", ".claude/settings.local.jsonX", ".claude/settings.local.json\t"):
        (repo.main / name).write_text("a worker's")
        assert not snaps.runtime_owned(root, name), repr(name)
    wt = os.path.relpath(repo.worktree, root)
    assert snaps.runtime_owned(root, f"{wt}/deep/er/f") and snaps.runtime_owned(root, f"{wt}/")


def test_linked_checkout_reads_the_first_4096_bytes_of_dot_git_and_a_gitdir_relative_to_the_checkout(tmp_path) -> None:
    """Kills linked_checkout 21 and 22 (read(None), read(4097): a word past the 4096th byte was read into the
    gitdir's name) and 31 (a relative gitdir was read from the process's directory, not the checkout's). The
    runtime's real worktree (make_repo's), its `.git` file rewritten the ways git reads it."""
    repo, root = _ignored_claude(tmp_path)
    common = snaps.common_dir(root)
    dot_git = repo.worktree / ".git"
    line = dot_git.read_bytes().rstrip(b"\n")
    gitdir = line[len(b"gitdir: "):].decode()
    assert snaps.linked_checkout(str(repo.worktree), common)
    dot_git.write_bytes(line + b" " * (4096 - len(line)) + b"x")  # the x is the 4097th byte: never read
    assert snaps.linked_checkout(str(repo.worktree), common)
    dot_git.write_bytes(line + b" " * (4095 - len(line)) + b"x")  # the 4096th: read, and no gitdir is named so
    assert not snaps.linked_checkout(str(repo.worktree), common)
    dot_git.write_text(f"gitdir: {os.path.relpath(gitdir, repo.worktree)}\n")  # relative to the checkout, as git reads it
    assert snaps.linked_checkout(str(repo.worktree), common)
    assert snaps.runtime_owned(root, f"{os.path.relpath(repo.worktree, root)}/f")


def test_linked_checkout_reads_its_gitdir_file_as_bytes_up_to_4096_of_them(tmp_path) -> None:
    """Kills linked_checkout 38 (the gitdir file read as text: a checkout whose path is not UTF-8 was none) and 49,
    50 (read(None), read(4097) of the gitdir file: a word past the 4096th byte was read into the name)."""
    from tests.helpers import git

    repo, root = _ignored_claude(tmp_path)
    common = snaps.common_dir(root)
    odd = os.path.join(os.fsencode(repo.main), b".claude", b"worktrees", b"agent-\xff")
    git("worktree", "add", "-q", "-b", "odd", os.fsdecode(odd), cwd=repo.main)
    assert snaps.linked_checkout(os.fsdecode(odd), common)
    assert snaps.runtime_owned(root, os.fsdecode(os.path.relpath(odd, os.fsencode(root))) + "/f")
    gitdir = repo.worktree / ".git"
    back_file = os.path.join(gitdir.read_text()[len("gitdir: "):].strip(), "gitdir")
    with open(back_file, "rb") as handle:
        back = handle.read().rstrip(b"\n")
    with open(back_file, "wb") as handle:
        handle.write(back + b" " * (4096 - len(back)) + b"x")  # the 4097th byte: never read
    assert snaps.linked_checkout(str(repo.worktree), common)
    with open(back_file, "wb") as handle:
        handle.write(back + b" " * (4095 - len(back)) + b"x")  # the 4096th: read, and it names no .git
    assert not snaps.linked_checkout(str(repo.worktree), common)


def test_holds_a_checkout_reads_the_first_4096_bytes_of_dot_git(tmp_path) -> None:
    """Kills _holds_a_checkout 22 and 23 (read(None), read(4097): a word past the 4096th byte of `.git` was read
    into the gitdir's name). A real linked worktree nested in the checkout outside .claude/worktrees/ (_shared's)."""
    repo, root, _, _ = _shared(tmp_path)
    dot_git = repo.main / "nested-wt" / ".git"
    line = dot_git.read_bytes().rstrip(b"\n")
    assert bl.nested_checkout(root, "nested-wt/") == "nested-wt"
    dot_git.write_bytes(line + b" " * (4096 - len(line)) + b"x")  # the 4097th byte: never read
    assert bl.nested_checkout(root, "nested-wt/") == "nested-wt"
    dot_git.write_bytes(line + b" " * (4095 - len(line)) + b"x")  # the 4096th: read, and it names no git directory
    assert bl.nested_checkout(root, "nested-wt/") is None


def test_tracked_at_is_a_file_the_start_s_commit_holds_as_that_very_path(tmp_path) -> None:
    """What lets rollback restore a file beside a `.git` a worker made (review 33b, 7): a blob of the start's commit
    (a file or a symlink), not a submodule's gitlink, a directory, a path the index alone holds (a worker can write
    the index: review 34b), a prefix of a name, or anything when there is no commit or no repository."""
    import subprocess

    root = tmp_path / "r"

    def run(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=root, check=True, capture_output=True, text=True).stdout

    root.mkdir()
    run("init", "-q")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("x\n")
    (root / "link").symlink_to("src/app.py")
    run("add", ".")
    run("update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},sub")  # a submodule's gitlink
    run("-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "i")
    head = run("rev-parse", "HEAD").strip()
    (root / "staged.txt").write_text("x\n")
    run("add", "staged.txt")
    run("init", "-q", str(root / "src"))  # a worker's `git init src`
    r = str(root)
    assert bl.tracked_at(r, head, "src/app.py") and bl.tracked_at(r, head, "link")
    for not_tracked in ("sub", "src", "staged.txt", "src/app.p", "rc/app.py", "src/absent.py"):
        assert not bl.tracked_at(r, head, not_tracked), not_tracked
    assert not bl.tracked_at(r, None, "src/app.py") and not bl.tracked_at(r, "", "src/app.py")
    assert not bl.tracked_at(str(tmp_path), head, "r/src/app.py")  # no repository there: git fails
    (root / "src" / "app.py").unlink()
    assert bl.tracked_at(r, head, "src/app.py")  # removed since: the commit still holds it


# --- phase 19: snapshots after 5061774 and 9e72a37 (common_dir, linked_checkout of one repository) -----------------


def test_a_linked_checkout_at_claude_worktrees_itself_is_not_the_runtime_s(tmp_path) -> None:
    """Kills runtime_owned 3 (lstrip for rstrip: `.claude/worktrees/`, as git lists a checkout there, kept its `/`,
    was read as a name below the runtime's directory and owned as the linked checkout it is). The runtime makes its
    worktrees below .claude/worktrees/; one made at .claude/worktrees itself is a worker's."""
    from tests.helpers import git

    fresh = tmp_path / "fresh"
    fresh.mkdir()
    git("init", "-q", "-b", "main", cwd=fresh)
    git("commit", "-q", "--allow-empty", "-m", "init", cwd=fresh)
    git("worktree", "add", "-q", "-b", "x", ".claude/worktrees", cwd=fresh)
    root = os.path.realpath(fresh)
    assert snaps.linked_checkout(os.path.join(root, ".claude", "worktrees"), snaps.common_dir(root))
    assert not snaps.runtime_owned(root, ".claude/worktrees/")
    assert not snaps.runtime_owned(root, ".claude/worktrees")


def test_common_dir_reads_the_first_4096_bytes_of_dot_git_and_of_commondir(tmp_path) -> None:
    """Kills common_dir 17 and 18 (read(None), read(4097) of `.git`: a word past the 4096th byte was read into the
    gitdir's name). A real linked worktree (make_repo's outside one), its `.git` file and its gitdir's `commondir`
    padded as git reads them (whitespace stripped)."""
    from tests.helpers import make_repo

    repo = make_repo(tmp_path / "w")
    root = str(repo.outside)
    common = os.path.realpath(repo.main / ".git")
    assert snaps.common_dir(root) == common
    dot_git = repo.outside / ".git"
    line = dot_git.read_bytes().rstrip(b"\n")
    dot_git.write_bytes(line + b" " * (4096 - len(line)) + b"x")  # the x is the 4097th byte: never read
    assert snaps.common_dir(root) == common
    dot_git.write_bytes(line + b" " * (4095 - len(line)) + b"x")  # the 4096th: read into the gitdir's name
    assert snaps.common_dir(root) != common
    dot_git.write_bytes(line + b"\n")
    commondir = os.path.join(line[len(b"gitdir: "):].decode(), "commondir")
    with open(commondir, "rb") as handle:
        back = handle.read().rstrip(b"\n")
    with open(commondir, "wb") as handle:
        handle.write(back + b" " * (4096 - len(back)) + b"x")  # the 4097th byte: never read
    assert snaps.common_dir(root) == common
    with open(commondir, "wb") as handle:
        handle.write(back + b" " * (4095 - len(back)) + b"x")  # the 4096th: read, and it names no directory
    assert snaps.common_dir(root) != common


def test_common_dir_reads_a_gitdir_relative_to_the_checkout_and_commondir_as_bytes(tmp_path) -> None:
    """Kills common_dir 26 (a relative gitdir was read from the process's directory, not the checkout's) and 33
    (commondir read as text: a common dir whose path is not UTF-8 was none). git 2.48 writes relative paths
    (worktree.useRelativePaths); commondir may name the common dir by its absolute path."""
    from tests.helpers import make_repo

    odd = os.path.join(os.fsencode(tmp_path), b"w-\xff")
    repo = make_repo(os.fsdecode(odd))
    root = str(repo.outside)
    common = os.path.realpath(repo.main / ".git")
    dot_git = repo.outside / ".git"
    gitdir = dot_git.read_text(errors="surrogateescape")[len("gitdir: "):].strip()
    dot_git.write_text(f"gitdir: {os.path.relpath(gitdir, root)}\n", errors="surrogateescape")
    assert snaps.common_dir(root) == common
    assert os.getcwd() != root
    with open(os.path.join(os.fsencode(gitdir), b"commondir"), "wb") as handle:
        handle.write(os.fsencode(common) + b"\n")
    assert snaps.common_dir(root) == common


def test_common_dir_of_a_checkout_whose_git_dir_stands_apart_is_that_git_dir(tmp_path) -> None:
    """Kills common_dir 50 (realpath(None): a `.git` file naming a git dir with no `commondir`, as
    `git init --separate-git-dir` makes, raised TypeError out of the stop's snapshot). Its linked worktrees are its."""
    from tests.helpers import git

    root, store = tmp_path / "r", tmp_path / "store.git"
    root.mkdir()
    git("init", "-q", "-b", "main", f"--separate-git-dir={store}", cwd=root)
    git("commit", "-q", "--allow-empty", "-m", "init", cwd=root)
    git("worktree", "add", "-q", "-b", "x", ".claude/worktrees/agent-a1", cwd=root)
    assert snaps.common_dir(str(root)) == os.path.realpath(store)
    assert snaps.runtime_owned(str(root), ".claude/worktrees/agent-a1/f")


def test_unowned_changes_reports_a_tracked_file_beside_the_runtime_s_worktrees_and_spares_its_settings(tmp_path) -> None:
    """Kills wave's unowned_changes 19 (runtime_owned(None, …): a tracked file changed below .claude/worktrees/ raised
    TypeError out of the dispatch's warning). The runtime's settings.local.json, tracked and changed, is no one's
    change to own; a file beside its worktrees is (WG705)."""
    from tests.helpers import git, make_repo
    from worktree_guard.subagents.wave import unowned_changes

    repo = make_repo(tmp_path / "w")
    notes, settings = repo.main / ".claude" / "worktrees" / "notes.txt", repo.main / ".claude" / "settings.local.json"
    notes.write_text("x\n")
    settings.write_text("{}\n")
    git("add", "-f", str(notes), str(settings), cwd=repo.main)
    git("commit", "-q", "-m", "tracked", cwd=repo.main)
    notes.write_text("a worker's\n")
    settings.write_text('{"permissions": {}}\n')
    (repo.main / "src" / "app.py").write_text("changed\n")
    assert unowned_changes(str(repo.main), []) == [".claude/worktrees/notes.txt", "src/app.py"]


def test_a_worktree_git_made_in_the_checkout_during_the_run_is_nested_not_blamed(tmp_path) -> None:
    """Kills blame's compute_blame 103, 108, 109 (linked_checkout given no common dir, the nested directory's name
    read from the process's directory, the checkout's root instead of the directory: a linked worktree made during
    the worker's run, outside .claude/worktrees/, was blamed on it and rolled back as its new directory). A
    repository a worker made (`git init`) is blamed (review 33b)."""
    from tests.helpers import git

    repo, root, _, _ = _shared(tmp_path)  # nested-wt: a linked worktree of this repository, made after the start
    (repo.main / "own-repo").mkdir()
    git("init", "-q", "-b", "main", cwd=repo.main / "own-repo")
    (repo.main / "own-repo" / "f").write_text("f")
    after = _st(root, dirty={"nested-wt/": ("??", ""), "own-repo/": ("??", "")})
    blame = bl.compute_blame(_st(root), after, _w(root), [], NOBODY)
    assert blame.nested == ["nested-wt/"]
    assert [b.path for b in blame.blamed] == ["own-repo/"]


def test_parse_status_reads_a_rename_s_original_path_once_and_goes_on(tmp_path) -> None:
    """Kills parse_status 67 and 68 (`i = 1`, `i -= 1` after a rename's original path: the fields were read again
    from the second, for ever), and 12 and 13 (the same after every field); the screening counted them as timeouts.
    A time limit makes the endless loop fail."""
    from tests.shared_data import time_limit

    out = b"\0".join([b"# branch.oid abc", b"2 R. N... 100644 100644 100644 abc abc R100 new", b"old", b"? u", b""])
    with time_limit(2):
        assert snaps.parse_status(out) == ("abc", None, {"new": "R.", "old": "R.", "u": "??"})


# --- phase 19 (late): restore after stop 34 (tracked_at beside a worker's `.git`, a directory through a symlink) ------


def test_restore_takes_back_a_file_the_start_held_below_a_worker_s_git_and_never_through_a_symlinked_directory(tmp_path) -> None:
    """A file in a plain subdirectory is restored (restore 52 took every subdirectory for a symlink); one the start's
    HEAD held below a `.git` a worker made is restored too (19–24: tracked_at asked wrongly, so it was refused); one it
    did not hold there is refused, though it existed (18); a directory that is a symlink inside the checkout is refused
    with its own reason (55–57). tracked_at reads ls-tree's line at its tab, so names with spaces and tabs count
    (tracked_at 28, 39, 40, 42)."""
    from tests.helpers import git, make_repo

    repo = make_repo(tmp_path / "w")
    main = repo.main
    lib = main / "vendor" / "lib"
    lib.mkdir(parents=True)
    (lib / "a.txt").write_text("start\n")
    (main / "a b c.txt").write_text("s\n")
    (main / "t\tab.txt").write_text("t\n")
    git("add", ".", cwd=main)
    git("-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "vendor", cwd=main)
    start = git("rev-parse", "HEAD", cwd=main).strip()
    assert bl.tracked_at(str(main), start, "a b c.txt") and bl.tracked_at(str(main), start, "t\tab.txt")
    assert not bl.tracked_at(str(main), start, "ab.txt") and not bl.tracked_at(str(main), start, "c.txt")
    blame = bl.Blame(agent_id="a", root=str(main), start_head=start, owns=[], owns_source="p")
    (lib / "a.txt").write_text("worker\n")
    bl.restore(blame, bl.BlamedPath(path="vendor/lib/a.txt", existed=True, fingerprint=""))
    assert (lib / "a.txt").read_text() == "start\n"
    (main / "vendor" / ".git").mkdir()  # a worker's `git init vendor`
    (lib / "a.txt").write_text("worker\n")
    bl.restore(blame, bl.BlamedPath(path="vendor/lib/a.txt", existed=True, fingerprint=""))
    assert (lib / "a.txt").read_text() == "start\n"
    (main / "vendor" / "new.txt").write_text("n\n")
    with pytest.raises(RuntimeError, match="inside the nested checkout"):
        bl.restore(blame, bl.BlamedPath(path="vendor/new.txt", existed=True, fingerprint=""))
    (main / "d").symlink_to("vendor/lib")
    with pytest.raises(RuntimeError) as raised:
        bl.restore(blame, bl.BlamedPath(path="d/a.txt", existed=True, fingerprint=""))
    assert str(raised.value) == "its directory is a symlink: rollback never follows it"
