"""Property tests of the wave (SPEC §11): ownership matching is pathspec's, and rollback touches the blamed set only."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pathspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import git
from worktree_guard.subagents.blame import Blame, rollback
from worktree_guard.subagents.linking import Worker
from worktree_guard.subagents.ownership import Ownership, OwnershipError
from worktree_guard.subagents.registry import Registry
from worktree_guard.subagents.snapshots import fingerprint

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
#
# A checkout with tracked files and two ignored directories (`out/`, `gen/`), each there at the start or not;
# during the worker's window a repository may appear inside it (`vendor/r`) and a linked worktree (`nest/wt`).
# The worker owns `a/**`, the other worker of its wave `b/**` and `out/b/**`; the user edits anything, before
# and after the worker's stop; the orchestrator may commit. The blame goes through the start snapshot and
# `blame_of` as the hooks run them. Whatever happens, rollback --apply restores exactly the blamed files, and
# never: removes a directory, touches a path the other worker owns, a path dirty at the start, or anything in a
# nested checkout.

FILES = ["a/one.txt", "a/two.txt", "b/one.txt", "b/two.txt", "c/one.txt", "c/two.txt", "top.txt"]
NEW = ["a/new.txt", "b/new.txt", "c/new.txt", "c/deep/new.txt", "out/x.txt", "out/b/y.txt", "out/c/z.txt", "gen/g.txt", "gen/b/h.txt"]
NESTED = ["vendor/r/f.txt", "nest/wt/f.txt", "nest/wt/top.txt"]
ACTORS = ["worker", "sibling", "user"]
OPS = ["write", "delete", "mkdir", "commit", "worktree", "repository"]
edit = st.tuples(st.sampled_from(ACTORS), st.sampled_from(FILES + NEW + NESTED), st.sampled_from(OPS))


def _state(root: Path, relative: str) -> str:
    return fingerprint(str(root / relative))


def _world(base: str, ignored_before: list[str]) -> Path:
    root = Path(os.path.realpath(base)) / "repo"
    for relative in FILES:
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(f"committed {relative}\n")
    (root / ".gitignore").write_text("out/\ngen/\n")
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-qm", "init", cwd=root)
    for directory in ignored_before:
        (root / directory).mkdir()
        (root / directory / "old.txt").write_text("built before\n")
    return root


def _act(root: Path, number: int, actor: str, relative: str, op: str) -> None:
    target = root / relative
    if op == "commit":
        git("commit", "-qam", f"checkpoint {number}", "--allow-empty", cwd=root)
    elif op == "worktree":
        if not (root / "nest").exists():
            git("worktree", "add", "-q", "-b", f"nested-{number}", "nest/wt", cwd=root)
    elif op == "repository":
        if not (root / "vendor/r").exists():
            (root / "vendor/r").mkdir(parents=True)
            git("init", "-q", "-b", "main", cwd=root / "vendor/r")
    elif op == "mkdir":
        target.parent.mkdir(parents=True, exist_ok=True)
    elif op == "write":
        if relative.startswith("nest/") and not (root / "nest/wt").exists():
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"{actor} {number}\n")
    elif target.is_file():
        target.unlink()


def _tree(root: Path) -> tuple[set[str], dict[str, str]]:
    """Every directory, and every file's state, below root (git's own files left out)."""
    dirs, files = set(), {}
    for here, names, leaves in os.walk(root):
        names[:] = [n for n in names if n != ".git"]
        for name in names:
            dirs.add(os.path.relpath(os.path.join(here, name), root))
        for leaf in leaves:
            if leaf == ".git":
                continue
            relative = os.path.relpath(os.path.join(here, leaf), root)
            files[relative] = _state(root, relative)
    return dirs, files


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    ignored_before=st.lists(st.sampled_from(["out", "gen"]), max_size=2, unique=True),
    dirty_before=st.lists(st.sampled_from(FILES), max_size=3, unique=True),
    during=st.lists(edit, max_size=10),
    after=st.lists(st.sampled_from(FILES + NEW), max_size=2),
)
def test_rollback_never_touches_a_path_outside_the_blamed_set(ignored_before: list[str], dirty_before: list[str], during: list, after: list[str]) -> None:
    import time

    from worktree_guard.subagents.blame import blame_of, start_state
    from worktree_guard.subagents.registry import Agent, Dispatch

    for key, value in {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e.invalid", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@e.invalid", "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1"}.items():
        os.environ.setdefault(key, value)
    with tempfile.TemporaryDirectory() as base:
        root = _world(base, ignored_before)
        common = str(root / ".git")
        registry = Registry(common, str(Path(base) / "state"))
        started = time.time()
        with registry.changing() as workers:
            for agent, owns in (("aworker", ["a/**"]), ("asibling", ["b/**", "out/b/**"])):
                workers.dispatches[f"toolu_{agent}"] = Dispatch(dispatch_id=f"toolu_{agent}", checkout=str(root), owns=owns, time=started)
                workers.agents[agent] = Agent(agent_id=agent, dispatch_id=f"toolu_{agent}", checkout=str(root), started=started)
        for relative in dirty_before:
            (root / relative).write_text("the user's uncommitted edit\n")
        registry.write("snapshots", "aworker", start_state(common, str(root)).model_dump_json())
        for number, (actor, relative, op) in enumerate(during):
            _act(root, number, actor, relative, op)
        worker = Worker(agent_id="aworker", agent_type="w", ownership=Ownership.of(["a/**"], "test"), root=str(root), isolated=False, linked_by="test", dispatch_id="toolu_aworker")
        blame = blame_of(registry, "aworker", worker, ["__pycache__/"], time.time(), 3600.0)
        assert blame is not None and blame.wave == ["agent asibling"]
        blamed = {item.path for item in blame.blamed}
        assert not blamed & set(dirty_before), "a path dirty at the start is never blamed"
        assert not any(p.startswith(("a/", "b/", "out/b/")) for p in blamed), "owned paths (the worker's, the sibling's) are never blamed"
        registry.write("blame", "aworker", blame.model_dump_json())
        for relative in after:  # the user goes on editing after the stop
            (root / relative).parent.mkdir(parents=True, exist_ok=True)
            (root / relative).write_text("the user, after the stop\n")
        dirs, files = _tree(root)
        rollback(registry, "aworker", apply=True)
        dirs_now, files_now = _tree(root)
        assert dirs <= dirs_now, f"rollback removed directories: {sorted(dirs - dirs_now)}"
        for p in sorted(set(files) | set(files_now)):
            if p in blamed and p not in after:
                assert files_now.get(p, "absent") == _state_at(root, blame.start_head, p), p
            else:
                assert files_now.get(p, "absent") == files.get(p, "absent"), f"{p} is outside the blamed set (or changed after the stop) and was touched"


def _state_at(root: Path, commit: str | None, relative: str) -> str:
    import hashlib
    import subprocess

    done = subprocess.run(["git", "cat-file", "-e", f"{commit}:{relative}"], cwd=root, capture_output=True)
    if commit is None or done.returncode != 0:
        return "absent"
    content = subprocess.run(["git", "show", f"{commit}:{relative}"], cwd=root, capture_output=True, check=True).stdout
    return "sha256:" + hashlib.sha256(content).hexdigest()


def test_blame_model_round_trips() -> None:
    blame = Blame(agent_id="a", root="/r", start_head=None, owns=[], owns_source="s")
    assert Blame.model_validate_json(blame.model_dump_json()) == blame
