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
