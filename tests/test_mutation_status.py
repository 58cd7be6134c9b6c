"""bench/mutation_status.py: every module of the decision core's packages says where it stands in mutation testing,
and the scores file is read strictly (issue 13)."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "mutation_status.py"


@pytest.fixture(scope="module")
def status():
    spec = importlib.util.spec_from_file_location("mutation_status", BENCH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses looks its module up
    spec.loader.exec_module(module)
    return module


def test_every_module_of_the_core_packages_is_listed_and_exists(status):
    entries = status.read_scores()
    assert status.unlisted(entries) == []
    assert [e.module for e in entries if not status.module_file(e.module).is_file()] == []
    assert status.main(["--check"]) == 0


def test_a_new_module_is_reported_until_listed(status, tmp_path):
    scores = tmp_path / "scores.txt"
    kept = [line for line in status.SCORES.read_text(encoding="utf-8").splitlines() if not line.startswith("rules/cd |")]
    scores.write_text("\n".join(kept) + "\n", encoding="utf-8")
    assert status.unlisted(status.read_scores(scores)) == ["rules/cd"]


def test_a_malformed_line_names_itself(status, tmp_path):
    scores = tmp_path / "scores.txt"
    scores.write_text("# comment\npaths | 1 | 22da3f9 | 153 | 100 %\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"scores.txt:2: expected 6 fields"):
        status.read_scores(scores)


def test_a_module_never_measured_says_so(status, capsys, monkeypatch):
    real = status.read_scores
    unmeasured = [replace(e, phase="-", commit="-", mutants="-", score="-") if e.module == "shell/programs" else e for e in real()]
    monkeypatch.setattr(status, "read_scores", lambda path=status.SCORES: unmeasured)
    assert status.main([]) == 0
    rows = {line.split("|")[1].strip(" `"): line for line in capsys.readouterr().out.splitlines()[2:]}
    assert "| never measured | - |" in rows["shell/programs"]
    assert list(rows)[0] == "shell/programs"  # the modules never measured come first


def test_the_table_counts_the_lines_changed_since_the_measured_commit(status, capsys):
    assert status.main([]) == 0
    rows = {line.split("|")[1].strip(" `"): line for line in capsys.readouterr().out.splitlines()[2:]}
    assert not [module for module, row in rows.items() if "never measured" in row]  # phase 17 measured the last one
    assert "shell/ast" not in rows  # n/a: not core
    assert status.changed_since("HEAD", "paths") == (0, 0)
    assert status.changed_since("0" * 40, "paths") is None  # a commit a shallow clone lacks
    measured = next(e for e in status.read_scores() if e.module == "paths")
    changed = status.changed_since(measured.commit, "paths")
    expected = f"{measured.commit} is not in this clone" if changed is None else f"| {changed[0]} ({100 * changed[0] // len(status.module_file('paths').read_text().splitlines())} %) | {changed[1]} |"
    assert expected in rows["paths"]
