"""The fast path is the slow path, faster (issue 12, defect 5): proven equal, not assumed.

The hook judges without importing pydantic (worktree_guard/records.py), matches the default protect-list
without pathspec, and remembers the entry points. With `records.FAST_PATH = False` every record goes through
its pydantic model, every pattern through pathspec and the entry points are read from the distributions: the
verdict JSON (and the audit line) must be identical, on the real corpora, the Bash catalogue rows and the
file-tool cases.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import Repo, make_repo, run_hook_inline, subagent_payload
from tests.shared_data import CORPORA, load, shared_dir
from tests.test_bash_rules import CD_ROWS, GIT_ROWS, INDIRECTION_ROWS, ORDINARY_WORK, WRITE_ROWS, fill
from worktree_guard import records
from worktree_guard.audit import AuditRecord
from worktree_guard.config import AgentSettings, Settings
from worktree_guard.model import AgentEvent, EventVerdict, FileWrite, ToolCall, Verdict, Violation
from worktree_guard.paths import PathPatterns
from worktree_guard.runtimes.claude_code import PreToolUsePayload, SubagentPayload
from worktree_guard.subagents.registry import Agent, Dispatch, Workers
from worktree_guard.subagents.snapshots import CheckoutState
from worktree_guard.subagents.state import SubagentSnapshot

RECORDS = (
    ToolCall, FileWrite, Violation, Verdict, AgentEvent, EventVerdict, Settings, AgentSettings, PreToolUsePayload, SubagentPayload, AuditRecord,
    Dispatch, Agent, Workers, CheckoutState, SubagentSnapshot,
)


def both_ways(monkeypatch: pytest.MonkeyPatch, judge: Any) -> tuple[Any, Any]:
    fast = judge()
    with monkeypatch.context() as patch:
        patch.setattr(records, "FAST_PATH", False)
        slow = judge()
    return fast, slow


@pytest.fixture(scope="module")
def module_repo(tmp_path_factory: pytest.TempPathFactory) -> Repo:
    repo = make_repo(tmp_path_factory.mktemp("fast"))
    (repo.worktree / "src").mkdir(exist_ok=True)
    return repo


def hook_reply(repo: Repo, data: dict[str, Any], audit: Path, **flags: Any) -> tuple[str, str]:
    if audit.exists():
        audit.unlink()
    out = run_hook_inline(data, flags={"audit_log": str(audit), **flags}).stdout
    return out, audit.read_text() if audit.exists() else ""


def corpus_commands() -> list[str]:
    commands = [fill(c, _PLACEHOLDER) for c, _ in CD_ROWS + INDIRECTION_ROWS + GIT_ROWS + WRITE_ROWS] + ORDINARY_WORK
    if shared_dir() is not None:
        for name in CORPORA:
            commands += [r["cmd"] for r in load(name)[::40]]
    return commands


class _Placeholder:  # the catalogue's {MAIN}/{W}/… are filled per repository in the test
    def __getattr__(self, name: str) -> str:
        return "{" + {"main": "MAIN", "sibling": "SIB", "worktree": "W", "outside": "OUT"}[name] + "}"


_PLACEHOLDER: Any = _Placeholder()


def test_bash_verdicts_and_audit_lines_are_identical_without_the_fast_path(module_repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    audit = tmp_path / "audit.jsonl"
    seen = set()
    for template in corpus_commands():
        command = fill(template, module_repo)
        data = subagent_payload(module_repo, "Bash", {"command": command, "description": "x"})
        fast, slow = both_ways(monkeypatch, lambda: hook_reply(module_repo, data, audit))
        fast_line, slow_line = (json.loads(x) if x else {} for x in (fast[1], slow[1]))
        fast_line.pop("time", None), slow_line.pop("time", None)
        assert (fast[0], fast_line) == (slow[0], slow_line), command
        seen.add(fast_line.get("decision"))
    assert seen >= {"pass", "deny"}


def file_cases(repo: Repo) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    paths = [repo.worktree / "src" / "new.py", repo.main / "src" / "app.py", repo.sibling / "x", repo.outside / "y", repo.worktree / ".git", repo.worktree / ".git" / "config",
             Path("/dev/null"), Path("/tmp/wg-scratch/x"), Path("/etc/passwd"), repo.worktree / "a" / ".." / ".." / "x"]
    cases: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for path in paths:
        for flags in ({}, {"mode": "rewrite"}, {"mode": "warn"}, {"protect": ["secret", "/build/**"]}):
            cases.append((subagent_payload(repo, "Write", {"file_path": str(path), "content": "x"}), flags))
            cases.append((subagent_payload(repo, "Edit", {"file_path": str(path), "old_string": "a", "new_string": "b"}, permission_mode="acceptEdits"), flags))
    cases.append((subagent_payload(repo, "Agent", {"description": "d", "prompt": "p", "subagent_type": "general-purpose"}), {}))
    cases.append((subagent_payload(repo, "Agent", {"description": "d", "prompt": "p", "isolation": "none"}), {}))
    cases.append((subagent_payload(repo, "Frobnicate", {"x": 1}), {}))
    cases.append((subagent_payload(repo, "Write", {"file_path": 7}), {}))
    cases.append(({"cwd": str(repo.worktree), "tool_name": 3, "tool_input": {}}, {}))
    cases.append(({"cwd": str(repo.worktree), "tool_name": "Write", "tool_input": [], "agent_id": "x"}, {}))
    cases.append(({"cwd": str(repo.worktree), "tool_name": "Write", "tool_input": {"file_path": "/x"}, "session_id": 5}, {}))
    cases.append((subagent_payload(repo, "Write", {"file_path": str(repo.main / "x")}), {"mode": "bogus"}))
    return cases


def test_file_tool_verdicts_are_identical_without_the_fast_path(module_repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    audit = tmp_path / "audit.jsonl"
    decisions = set()
    for data, flags in file_cases(module_repo):
        fast, slow = both_ways(monkeypatch, lambda: hook_reply(module_repo, data, audit, **flags))
        strip = [json.loads(x) if x else {} for x in (fast[1], slow[1])]
        for line in strip:
            line.pop("time", None)
        assert (fast[0], strip[0]) == (slow[0], strip[1]), (data, flags)
        decisions.add(fast[0][:40])
    assert len(decisions) >= 4


VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False, width=16), st.sampled_from(["WG101", "x", "", "error", "deny", "pass", "file_write", "/a"]),
    st.lists(st.sampled_from(["a", 1, None]), max_size=3), st.tuples(st.integers(0, 3), st.integers(0, 3)), st.dictionaries(st.sampled_from(["a", "b"]), st.integers(), max_size=2),
)


@settings(max_examples=300, deadline=None)
@given(cls=st.sampled_from(RECORDS), data=st.data())
def test_a_record_holds_what_its_pydantic_model_makes_of_any_input(cls: type, data: st.DataObject) -> None:
    """Every field gets an arbitrary value (or is left out); the record and its pydantic model agree on the
    values, the dumps, and on which inputs are errors (with the same error)."""
    fields = {name: data.draw(VALUES) for name in cls.model_fields if data.draw(st.booleans())}
    if data.draw(st.booleans()):
        fields["unknown_key"] = data.draw(VALUES)
    model = cls.pydantic_model()
    try:
        expected = model(**fields)
    except Exception as error:  # noqa: BLE001 — compared below
        with pytest.raises(type(error)) as raised:
            cls(**fields)
        assert str(raised.value) == str(error)
        return
    record = cls(**fields)
    for mode in ("python", "json"):
        assert record.model_dump(mode=mode) == expected.model_dump(mode=mode)
    assert record.to_pydantic() == expected
    text = expected.model_dump_json()
    assert record.model_dump_json() == text
    assert cls.model_validate_json(text).model_dump(mode="json") == model.model_validate_json(text).model_dump(mode="json")


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_a_records_schema_is_its_pydantic_models(cls: type) -> None:
    for mode in ("validation", "serialization"):
        assert cls.model_json_schema(mode=mode) == cls.pydantic_model().model_json_schema(mode=mode)
    assert cls.model_json_schema()["title"] == cls.__name__


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    patterns=st.lists(st.sampled_from(["/.git", "/.git/**", "/build", "/build/**", "/a b", "/dist/**"]), min_size=1, max_size=4),
    path=st.lists(st.sampled_from([".git", "build", "a b", "dist", "src", "x.py", ".gitx", "", ".", ".."]), min_size=1, max_size=4).map("/".join),
    lead=st.sampled_from(["", "/", "./"]),
)
def test_anchored_literal_patterns_match_as_pathspec_matches_them(patterns: list[str], path: str, lead: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = PathPatterns(patterns, absolute=False)
    assert fast._literal is not None
    with monkeypatch.context() as patch:
        patch.setattr(records, "FAST_PATH", False)
        expected = PathPatterns(patterns, absolute=False).matches(lead + path)
    assert fast.matches(lead + path) == expected


def test_the_hook_does_not_import_pydantic_or_pathspec_for_a_write_or_the_heredoc_commit(repo: Repo, tmp_path: Path) -> None:
    """What the fast path is for: the in-process hook (no daemon) of an ordinary call loads neither."""
    import subprocess
    import sys

    from tests.helpers import FAST_HOOK

    dispatch = subagent_payload(repo, "Agent", {"description": "d", "prompt": "p", "subagent_type": "general-purpose"})
    subprocess.run(FAST_HOOK, input=json.dumps(dispatch).encode(), capture_output=True, cwd=repo.worktree, check=True)  # the wave's registry now has a dispatch to read
    for data in (
        subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "x.py"), "content": "x"}),
        subagent_payload(repo, "Bash", {"command": "git add -A && git commit -m \"$(cat <<'EOF'\nFix\nEOF\n)\""}),
    ):
        for _ in range(2):  # the first call writes the entry-point cache
            result = subprocess.run([*FAST_HOOK[:1], "-X", "importtime", *FAST_HOOK[1:]], input=json.dumps(data).encode(), capture_output=True, cwd=repo.worktree)
        assert result.returncode == 0 and result.stdout == b""
        imported = {line.rpartition("|")[2].strip() for line in result.stderr.decode().splitlines()}
        assert "worktree_guard.engine" in imported
        assert not {m for m in imported if m.split(".")[0] in ("pydantic", "pydantic_core", "pathspec")} | ({"importlib.metadata"} & imported)
    assert sys.executable


def test_what_the_fast_check_cannot_honour_is_left_to_pydantic_or_refused() -> None:
    """A field option the fast check does not know (max_length, alias…) sends every value through pydantic; a validator,
    which the fast path would skip, is refused when the class is made."""
    import pydantic

    from worktree_guard.records import Field, Record

    class Bounded(Record):
        size: int = Field(default=1, gt=0)

    class Short(Record):
        name: str = Field(default="", max_length=3)

    assert not Bounded._always_pydantic and Bounded(size=2).size == 2  # numeric bounds: checked on the fast path
    with pytest.raises(pydantic.ValidationError):
        Bounded(size=0)
    assert Short._always_pydantic and Short(name="abc").name == "abc"
    with pytest.raises(pydantic.ValidationError):
        Short(name="abcd")
    with pytest.raises(TypeError, match="no pydantic validators"):

        class Checked(Record):
            size: int = 1

            @pydantic.field_validator("size")
            @classmethod
            def positive(cls, value: int) -> int:
                return value
