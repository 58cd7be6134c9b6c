"""bench/mutation.py --changed-since: the mutants a module's last score has not seen are those of the functions whose
code changed since the commit it was measured at (issue 13: keep the score true for changed code)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "mutation.py"

BEFORE = '''\
import functools


def kept(x):
    return x


class Box:
    def opened(self):
        return 1

    def shut(self):
        return 0


@functools.cache
def cached():
    return 2


def trimmed():
    a = 1
    b = 2
    return a + b
'''

AFTER = '''\
import functools


def kept(x):
    return x


class Box:
    def opened(self):
        return 1

    def shut(self):
        return -1


@functools.lru_cache(maxsize=1)
def cached():
    return 2


def trimmed():
    a = 1
    return a + 2
'''


@pytest.fixture(scope="module")
def mutation():
    spec = importlib.util.spec_from_file_location("mutation_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses looks its module up
    spec.loader.exec_module(module)
    return module


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


def test_a_changed_body_a_changed_decorator_and_a_deleted_line_name_their_function(mutation, tmp_path):
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    git(repo, "init", "-q")
    (repo / "pkg" / "mod.py").write_text(BEFORE)
    git(repo, "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "before")
    (repo / "pkg" / "mod.py").write_text(AFTER)
    diff = git(repo, "diff", "-U0", "HEAD", "--", "pkg/mod.py")
    assert mutation.changed_functions(AFTER, diff) == {"Box.shut", "cached", "trimmed"}
    assert mutation.changed_functions(AFTER, "") == set()

    mangled = ["x_kept", "xǁBoxǁopened", "xǁBoxǁshut", "x_cached", "x_trimmed"]
    meta = tmp_path / "work" / "mutants" / "pkg" / "mod.py.meta"
    meta.parent.mkdir(parents=True)
    meta.write_text(json.dumps({"exit_code_by_key": {f"pkg.mod.{m}__mutmut_{i}": None for m in mangled for i in (1, 2)}}))
    names = mutation.changed_names(tmp_path / "work", ["pkg/mod.py"], "HEAD", repo)
    assert names == sorted(f"pkg.mod.{m}__mutmut_{i}" for m in ("xǁBoxǁshut", "x_cached", "x_trimmed") for i in (1, 2))


@pytest.mark.parametrize(
    ("name", "function"),
    [
        ("worktree_guard.engine.x_scope_for__mutmut_12", "scope_for"),
        ("worktree_guard.engine.x__scope_with__mutmut_3", "_scope_with"),
        ("worktree_guard.engine.xǁAgentScopeǁfind_definition__mutmut_1", "AgentScope.find_definition"),
        ("worktree_guard.shell.embedded.xǁ_SedScannerǁ__init____mutmut_2", "_SedScanner.__init__"),
    ],
)
def test_a_mutant_name_gives_its_function(mutation, name, function):
    assert mutation.mutant_function(name) == function
