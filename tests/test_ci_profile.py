"""`.ci/run` loads the hypothesis `ci` profile itself (issue 13, item 11).

CI sets CI=true, a local `bash .ci/run` did not: the two explored different examples, and a CI failure could not
be replayed locally. The pytest line of `.ci/run` now sets the variable; this test reads that line and proves the
variables it sets load the profile (derandomized, no example database) in a fresh interpreter.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys

from tests.helpers import REPO_ROOT

PROBE = "import tests.conftest; from hypothesis import settings; d = settings.default; print(d.derandomize, d.database)"


def pytest_line_assignments() -> dict[str, str]:
    """The `NAME=value` words in front of the command on `.ci/run`'s pytest line."""
    lines = [line for line in (REPO_ROOT / ".ci" / "run").read_text().splitlines() if "-m pytest" in line and not line.lstrip().startswith("#")]
    assert len(lines) == 1, lines
    assignments = {}
    for word in shlex.split(lines[0]):
        name, eq, value = word.partition("=")
        if not eq or not name.isidentifier():
            break
        assignments[name] = value
    return assignments


def profile(extra: dict[str, str]) -> str:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO_ROOT, env={**env, **extra}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_ci_script_loads_the_derandomized_profile_whatever_the_caller_sets() -> None:
    assert profile(pytest_line_assignments()) == "True None"


def test_without_it_a_local_run_explores_new_examples() -> None:
    assert profile({}).startswith("False ")
