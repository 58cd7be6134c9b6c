"""Records at the edges the review found (issue 12, records.py): each must behave as its pydantic model does.

An unknown key named like a method hid the method (`{"model_dump": 1}` in a SubagentStop payload made the leak
check fail with a TypeError); `$` in a field's pattern matched before a final newline ("WG101\\n" was a code);
model_validate_json took lone surrogate escapes pydantic refuses.
"""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from tests.helpers import Repo, lifecycle_payload, run_hook_inline
from worktree_guard.model import Violation
from worktree_guard.runtimes.claude_code import SubagentPayload
from worktree_guard.subagents.registry import Workers


def test_an_unknown_key_named_like_a_method_does_not_hide_it() -> None:
    data = {"cwd": "/x", "hook_event_name": "SubagentStop", "agent_id": "a", "model_dump": 1, "model_copy": 2, "extra": 3}
    record = SubagentPayload.model_validate(data)
    model = SubagentPayload.pydantic_model().model_validate(data)
    assert record.model_dump() == model.model_dump()
    assert record.model_dump(include={"cwd", "agent_id"}) == {"cwd": "/x", "agent_id": "a"}
    assert record.model_extra == model.model_extra == {"model_dump": 1, "model_copy": 2, "extra": 3}
    assert record.extra == model.extra == 3
    assert record.model_copy(update={"cwd": "/y"}).cwd == "/y" and record.cwd == "/x"
    assert record.to_pydantic() == model


def test_the_leak_check_runs_for_a_stop_payload_with_such_keys(repo: Repo) -> None:
    run_hook_inline(lifecycle_payload(repo, "SubagentStart"))
    (repo.main / "README.md").write_text("leaked\n")
    result = run_hook_inline(lifecycle_payload(repo, "SubagentStop", model_dump=1, model_validate="x"))
    assert result.stop_blocked and result.output["reason"].endswith("[worktree-guard WG602]")


@pytest.mark.parametrize("code", ["WG101\n", "WG101\n\n", "\nWG101"])
def test_a_code_with_a_newline_is_refused_as_pydantic_refuses_it(code: str) -> None:
    with pytest.raises(ValidationError) as expected:
        Violation.pydantic_model()(code=code, rule="r", tool="t", message="m")
    with pytest.raises(ValidationError) as raised:
        Violation(code=code, rule="r", tool="t", message="m")
    assert str(raised.value) == str(expected.value)
    assert Violation(code="WG101", rule="r", tool="t", message="m").code == "WG101"


@pytest.mark.parametrize(
    "text",
    [
        '{"runtime": "r", "tool": "\\ud800", "kind": "other", "cwd": "/", "input": {}}',
        '{"runtime": "r", "tool": "t", "kind": "other", "cwd": "/a\\udfff", "input": {}}',
        b'{"runtime": "r", "tool": "\xed\xa0\x80", "kind": "other", "cwd": "/", "input": {}}',
    ],
)
def test_json_pydantic_refuses_is_refused(text: str | bytes) -> None:
    from worktree_guard.model import ToolCall

    with pytest.raises(ValidationError) as expected:
        ToolCall.pydantic_model().model_validate_json(text)
    with pytest.raises(ValidationError) as raised:
        ToolCall.model_validate_json(text)
    assert str(raised.value) == str(expected.value)


def test_a_valid_surrogate_pair_is_read_as_pydantic_reads_it() -> None:
    text = json.dumps({"version": 1}).replace("}", ', "dispatches": {}}')
    assert Workers.model_validate_json(text).model_dump() == Workers.pydantic_model().model_validate_json(text).model_dump()
    from worktree_guard.model import ToolCall

    pair = '{"runtime": "r", "tool": "\\ud83d\\ude00", "kind": "other", "cwd": "/", "input": {}}'
    assert ToolCall.model_validate_json(pair).model_dump() == ToolCall.pydantic_model().model_validate_json(pair).model_dump()
