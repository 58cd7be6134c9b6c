"""Property tests of the wave (SPEC §11): ownership matching is pathspec's, and rollback touches the blamed set only."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pathspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import git
from worktree_guard.subagents.blame import Blame, compute_blame, rollback
from worktree_guard.subagents.linking import Worker
from worktree_guard.subagents.ownership import Ownership, OwnershipError
from worktree_guard.subagents.registry import Registry
from worktree_guard.subagents.snapshots import fingerprint, snapshot

NAMES = ["src", "auth", "a.py", "b.md", "x", "__pycache__", "docs", "tests"]
GLOBS = ["*", "*.py", "**", "a?", "[ab]*", "*.md"]

component = st.sampled_from(NAMES + GLOBS)
pattern = st.builds(
    lambda lead, parts, tail: lead + "/".join(parts) + tail,
    st.sampled_from(["", "/"]),
    st.lists(component, min_size=1, max_size=4),
    st.sampled_from(["", "/", "/**"]),
)
path = st.builds("/".join, st.lists(st.sampled_from(NAMES), min_size=1, max_size=5))


@settings(max_examples=400, deadline=None)
@given(st.lists(pattern, min_size=1, max_size=3), st.lists(path, min_size=1, max_size=10))
def test_ownership_matching_agrees_with_pathspec(patterns: list[str], paths: list[str]) -> None:
    try:
        ownership = Ownership.of(patterns, "test")
    except OwnershipError:
        return  # rejected patterns are the grammar's business (tests/test_wave.py)
    spec = pathspec.PathSpec.from_lines("gitignore", patterns)
    for p in paths:
        assert ownership.matches(p) == spec.match_file(p), (patterns, p)


# --- rollback ---------------------------------------------------------------------------------------------------

FILES = ["a/one.txt", "a/two.txt", "b/one.txt", "b/two.txt", "c/one.txt", "c/two.txt", "top.txt"]
ACTORS = ["worker", "sibling", "user"]
edit = st.tuples(st.sampled_from(ACTORS), st.sampled_from(FILES + ["a/new.txt", "b/new.txt", "c/new.txt"]), st.sampled_from(["write", "delete"]))


def _state(root: Path, relative: str) -> str:
    return fingerprint(str(root / relative))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    dirty_before=st.lists(st.sampled_from(FILES), max_size=3, unique=True),
    during=st.lists(edit, max_size=8),
    after=st.lists(st.sampled_from(FILES + ["c/new.txt"]), max_size=2),
)
def test_rollback_never_touches_a_path_outside_the_blamed_set(dirty_before: list[str], during: list, after: list[str]) -> None:
    for key, value in {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e.invalid", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e.invalid", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}.items():
        os.environ.setdefault(key, value)
    with tempfile.TemporaryDirectory() as base:
        root = Path(os.path.realpath(base)) / "repo"
        for relative in FILES:
            (root / relative).parent.mkdir(parents=True, exist_ok=True)
            (root / relative).write_text(f"committed {relative}\n")
        git("init", "-q", "-b", "main", cwd=root)
        git("add", "-A", cwd=root)
        git("commit", "-qm", "init", cwd=root)
        for relative in dirty_before:
            (root / relative).write_text("the user's uncommitted edit\n")
        (before,) = snapshot([str(root)], [str(root)])
        for number, (actor, relative, op) in enumerate(during):
            target = root / relative
            if op == "write":
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(f"{actor} {number}\n")
            elif target.exists():
                target.unlink()
        (stopped,) = snapshot([str(root)], [str(root)], fingerprints=False)
        worker = Worker(agent_id="aworker", agent_type="w", ownership=Ownership.of(["a/**"], "test"), root=str(root), isolated=False, linked_by="test")
        blame = compute_blame(before, stopped, worker, [Ownership.of(["b/**"], "sibling")], Ownership.of(["__pycache__/"], "scratch"))
        blamed = {item.path for item in blame.blamed}
        assert not blamed & set(dirty_before), "a path dirty at the start is never blamed"
        assert not any(p.startswith(("a/", "b/")) for p in blamed), "owned paths (the worker's, the sibling's) are never blamed"
        registry = Registry(str(root / ".git"), str(Path(base) / "state"))
        registry.write("blame", "aworker", blame.model_dump_json())
        for relative in after:  # the user goes on editing after the stop
            (root / relative).parent.mkdir(parents=True, exist_ok=True)
            (root / relative).write_text("the user, after the stop\n")
        paths = sorted({*FILES, "a/new.txt", "b/new.txt", "c/new.txt"})
        states = {p: _state(root, p) for p in paths}
        rollback(registry, "aworker", apply=True)
        for p in paths:
            if p in blamed and p not in after:
                expected = _state_at_commit(root, p)
                assert _state(root, p) == expected, p
            else:
                assert _state(root, p) == states[p], f"{p} is outside the blamed set (or changed after the stop) and was touched"


def _state_at_commit(root: Path, relative: str) -> str:
    import subprocess

    done = subprocess.run(["git", "cat-file", "-e", f"HEAD:{relative}"], cwd=root, capture_output=True)
    if done.returncode != 0:
        return "absent"
    import hashlib

    content = subprocess.run(["git", "show", f"HEAD:{relative}"], cwd=root, capture_output=True, check=True).stdout
    return "sha256:" + hashlib.sha256(content).hexdigest()


def test_blame_model_round_trips() -> None:
    blame = Blame(agent_id="a", root="/r", start_head=None, owns=[], owns_source="s")
    assert Blame.model_validate_json(blame.model_dump_json()) == blame
