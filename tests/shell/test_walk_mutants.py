"""The Bash walker's control flow (shell/walk.py), pinned for mutation testing (issue 13, phase 10).

The catalogue rows of tests/test_bash_rules.py that exercise the walker's control flow (and-or lists, `if`, loops,
`break`/`continue`/`return`/`exit`, traps, functions a branch defines) run here against one repository per module,
in-process through the hook, so that a mutant of shell/walk.py runs them in a fraction of a second each; then the
rows and walker states written for the survivors of the mutation run, each with its exact codes or exact state.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tests.test_bash_rules as catalogue
from tests.helpers import Repo, git, make_repo

ROWS = [
    *(("control", c, e) for c, e in catalogue.CONTROL_FLOW_ROWS),
    *(("trap", c, e) for c, e in catalogue.TRAP_AT_EXIT_ROWS),
    *(("function", c, e) for c, e in catalogue.FUNCTION_BRANCH_ROWS),
]


@pytest.fixture(scope="module")
def shared_repo(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    repo = make_repo(tmp_path_factory.mktemp("walk") / "work")
    (repo.worktree / "src").mkdir(exist_ok=True)
    (repo.worktree / "to-main").symlink_to(repo.main)
    (repo.worktree / "to-ssl").symlink_to("/etc/ssl")
    git("branch", "feature", cwd=repo.main)
    return repo


@pytest.fixture
def world(shared_repo: Repo, monkeypatch: pytest.MonkeyPatch) -> Repo:
    """tests/test_bash_rules.py's `world`, on a repository shared by the module (nothing here writes to it)."""
    monkeypatch.setenv("HOME", catalogue.OUTSIDE_HOME)
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.delenv("CDPATH", raising=False)
    return shared_repo


@pytest.mark.parametrize("kind,command,expected", ROWS, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(ROWS)])
def test_catalogue_rows(world: Repo, kind: str, command: str, expected) -> None:
    catalogue.assert_hook_row(world, command, expected)
