"""bench/mutation_screen.py records each mutant as the tests judge it: killed by a failing test, by its alarm (an
endless loop) or on import, and survived when no test fails (issue 13's in-process screening).

The mutants here are written by hand the way mutmut's trampolines choose them (the active mutant's name in
MUTANT_UNDER_TEST), so the test needs no mutmut."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"

MODULE = '''
import os

def _active():
    return os.environ.get("MUTANT_UNDER_TEST", "").rpartition(".")[2]

def double(x):
    name = _active()
    if name == "x_double__mutmut_1":
        return x + x + 1          # a test sees it
    if name == "x_double__mutmut_2":
        return x * 2              # the same function: no test can see it
    if name == "x_double__mutmut_3":
        while True:               # an endless loop
            pass
    return x + x

def _table():
    if _active() == "x__table__mutmut_1":
        raise RuntimeError("only at import")
    return {"a": 1}

TABLE = _table()
'''

TESTS = '''
from worktree_guard.calc import double

def test_double():
    assert double(2) == 4

def test_zero():
    assert double(0) == 0
'''

NAMES = ["x_double__mutmut_1", "x_double__mutmut_2", "x_double__mutmut_3", "x__table__mutmut_1", "x_double__mutmut_4"]


def screen(mutants: Path, *extra: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(BENCH), "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("MUTANT_UNDER_TEST", None)
    command = [sys.executable, "-m", "pytest", "-p", "mutation_screen", "-p", "no:cacheprovider", "-p", "no:randomly",
               "-q", "--screen-files=worktree_guard/calc.py", "--screen-seconds=3", "tests", *extra]
    return subprocess.run(command, cwd=mutants, env=env, capture_output=True, text=True, timeout=300)


def make_mutants(tmp_path: Path, module: str = MODULE) -> Path:
    mutants = tmp_path / "mutants"
    (mutants / "worktree_guard").mkdir(parents=True)
    (mutants / "worktree_guard" / "__init__.py").write_text("")
    (mutants / "worktree_guard" / "calc.py").write_text(module)
    (mutants / "tests").mkdir()
    (mutants / "tests" / "test_calc.py").write_text(TESTS)
    codes = {f"worktree_guard.calc.{n}": None for n in NAMES}
    codes["worktree_guard.calc.x_double__mutmut_4"] = 1  # killed by an earlier run: not screened again
    (mutants / "worktree_guard" / "calc.py.meta").write_text(json.dumps({"exit_code_by_key": codes}))
    return mutants


def test_each_mutant_is_recorded_as_the_tests_judge_it(tmp_path):
    mutants = make_mutants(tmp_path)
    done = screen(mutants)
    assert done.returncode == 0, done.stdout + done.stderr
    codes = json.loads((mutants / "worktree_guard" / "calc.py.meta").read_text())["exit_code_by_key"]
    assert codes == {
        "worktree_guard.calc.x_double__mutmut_1": 1,
        "worktree_guard.calc.x_double__mutmut_2": 0,
        "worktree_guard.calc.x_double__mutmut_3": 1,
        "worktree_guard.calc.x__table__mutmut_1": 1,
        "worktree_guard.calc.x_double__mutmut_4": 1,
    }
    summary = json.loads((tmp_path / "screen.json").read_text())
    assert {n.rpartition(".")[2]: s["killed_by"] for n, s in summary.items()} == {
        "x_double__mutmut_1": "tests/test_calc.py::test_double",
        "x_double__mutmut_2": "",
        "x_double__mutmut_3": "timeout",
        "x__table__mutmut_1": "import",
    }
    assert "4 screened, 3 killed (1 by the alarm), 1 survived" in done.stdout
    assert "survived: worktree_guard.calc.x_double__mutmut_2" in done.stdout


FIXTURE_TESTS = '''
import pytest
from worktree_guard.calc import double

@pytest.fixture
def doubled():
    return double(1)

def test_fixture(doubled):
    assert doubled == 2

def test_double():
    assert double(2) == 4
'''


def test_an_alarm_inside_a_fixture_leaves_the_later_mutants_judged_as_before(tmp_path):
    """Mutant 3 loops in a fixture's setup: the alarm ends it there (killed), and mutant 5 after it, which no test
    sees, must still survive, not be "killed" by a setup the alarm left broken (phase 20, h-m35b); the alarm is at
    least five times the clean run."""
    module = MODULE.replace('''    if name == "x_double__mutmut_3":''', '''    if name == "x_double__mutmut_5":
        return 2 * x
    if name == "x_double__mutmut_3":''')
    mutants = make_mutants(tmp_path, module)
    (mutants / "tests" / "test_calc.py").write_text(FIXTURE_TESTS)
    meta = mutants / "worktree_guard" / "calc.py.meta"
    codes = json.loads(meta.read_text())
    codes["exit_code_by_key"]["worktree_guard.calc.x_double__mutmut_5"] = None
    meta.write_text(json.dumps(codes))
    done = screen(mutants)
    assert done.returncode == 0, done.stdout + done.stderr
    codes = json.loads(meta.read_text())["exit_code_by_key"]
    assert codes["worktree_guard.calc.x_double__mutmut_3"] == 1
    assert codes["worktree_guard.calc.x_double__mutmut_5"] == 0
    assert codes["worktree_guard.calc.x_double__mutmut_2"] == 0
    assert codes["worktree_guard.calc.x_double__mutmut_1"] == 1


def test_only_the_named_mutants_are_screened(tmp_path):
    mutants = make_mutants(tmp_path)
    names = tmp_path / "names.txt"
    names.write_text("worktree_guard.calc.x_double__mutmut_1\n")
    done = screen(mutants, f"--screen-names={names}")
    assert done.returncode == 0, done.stdout + done.stderr
    codes = json.loads((mutants / "worktree_guard" / "calc.py.meta").read_text())["exit_code_by_key"]
    assert codes["worktree_guard.calc.x_double__mutmut_1"] == 1
    assert codes["worktree_guard.calc.x_double__mutmut_2"] is None


def test_a_selection_that_fails_without_a_mutant_screens_nothing(tmp_path):
    mutants = make_mutants(tmp_path, MODULE.replace("return x + x\n", "return x + x + 2\n"))
    done = screen(mutants)
    assert done.returncode != 0
    assert "fails without any mutant" in done.stdout + done.stderr
    codes = json.loads((mutants / "worktree_guard" / "calc.py.meta").read_text())["exit_code_by_key"]
    assert codes["worktree_guard.calc.x_double__mutmut_1"] is None


def test_a_selection_of_one_test_with_a_fixture_still_lets_a_mutant_survive(tmp_path):
    """One test (a pinning test with its readings, as tests/shell/test_embedded_mutants.py is) run again with itself
    as its next test kept no fixture value: `KeyError: 'tmp_path'` "killed" every mutant (phase 20)."""
    mutants = make_mutants(tmp_path)
    (mutants / "tests" / "test_calc.py").write_text(
        "from worktree_guard.calc import double\n\ndef test_double(tmp_path):\n    assert tmp_path.is_dir() and double(2) == 4\n"
    )
    names = tmp_path / "names.txt"
    names.write_text("worktree_guard.calc.x_double__mutmut_1\nworktree_guard.calc.x_double__mutmut_2\n")
    done = screen(mutants, f"--screen-names={names}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 screened, 1 killed (0 by the alarm), 1 survived" in done.stdout
    assert "survived: worktree_guard.calc.x_double__mutmut_2" in done.stdout
