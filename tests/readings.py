"""What the readings tests share (issue 13): each judges rows through the engine in this process, in a world built once,
and compares each reading whole with a JSON file that `python -m tests.<module> --write` rewrites.

Used by tests/test_git_rule_mutants.py, tests/test_indirection_mutants.py and tests/test_worker_calls_mutants.py:
the environment a world's rows run under (`world_environment`), how a record's paths and span are written
(`rule_record`), the JSON layout of the files (`readings_text`), and the `--write` run itself (`write_readings`).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: a record's fields written out whole, beside its code, message and span
RECORD_FIELDS = ("path", "resolved", "shared_root", "suggestion", "tool", "severity", "worktree_root")


class world_environment:
    """HOME set, and TMPDIR and CDPATH unset (`keep_tmpdir`: TMPDIR left as it is), for the rows' time only."""

    def __init__(self, home: str, *, keep_tmpdir: bool = False) -> None:
        self.home = home
        self.unset = ("CDPATH",) if keep_tmpdir else ("TMPDIR", "CDPATH")

    def __enter__(self) -> world_environment:
        self.saved = {k: os.environ.get(k) for k in ("HOME", *self.unset)}
        os.environ["HOME"] = self.home
        for name in self.unset:
            os.environ.pop(name, None)
        return self

    def __exit__(self, *_: object) -> None:
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def rule_record(violation: Any, unfill: Callable[[str], str], filled: str) -> list:
    """One rule's record whole: code, message, its path fields and the span (`ALL` for the whole command, else its
    offsets: the same numbers in every run, as the world's paths have one length), the world's paths written back
    by `unfill`."""
    fields = {k: unfill(str(x)) for k, x in violation.model_dump(exclude_none=True).items() if k in RECORD_FIELDS}
    return [violation.code, unfill(violation.message), fields, span_of(violation, filled)]


def span_of(violation: Any, filled: str) -> str | list[int] | None:
    return "ALL" if violation.span == (0, len(filled)) else list(violation.span) if violation.span else None


def readings_text(got: dict[str, Any], *, parts: bool) -> str:
    """The JSON file: one reading a line (under each part's name when `parts`), so that a change reads in a diff."""

    def lines(values: dict[str, Any], indent: str) -> str:
        return ",\n".join(f"{indent}{json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}" for k, v in values.items())

    if not parts:
        return "{\n" + lines(got, "  ") + "\n}\n"
    return "{\n" + ",\n".join(f' "{part}": {{\n' + lines(values, "  ") + "\n }" for part, values in got.items()) + "\n}\n"


def write_readings(path: Path, make_world: Callable[[Path], Any], compute: Callable[[Any], dict[str, Any]], *, parts: bool) -> None:
    """The `--write` run: a world in a scratch directory (under $WG_SCRATCH when set) with an isolated HOME and no
    daemon, as tests/conftest.py has it; `compute(world)` gives the readings, written to `path`."""
    from tests.helpers import isolated_environment

    with tempfile.TemporaryDirectory(dir=os.environ.get("WG_SCRATCH")) as scratch, isolated_environment(Path(scratch) / "test-home"):
        os.environ["WT_GUARD_DAEMON"] = "0"
        got = compute(make_world(Path(scratch)))
    path.write_text(readings_text(got, parts=parts))
    count = sum(len(v) for v in got.values()) if parts else len(got)
    print(f"{count} readings written to {path}")
