"""The analyser's limits (WG901, SPEC §5.2): nesting depth, the time budget, the size budget, at their edges.

`test_deep_nesting_is_wg901` (tests/test_bash_rules.py) asserts WG404 on a command that is not nested (each
`bash -c bash` runs a shell reading its stdin). With the depth limit raised to a million and the time check
off every test passed, and nine nested `bash -c` got WG401 instead of WG901. Each limit is tested here on both
sides of its edge, through the engine with a real repository.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

import pytest

from tests.helpers import Repo, subagent_payload
from worktree_guard.engine import build_context, decide
from worktree_guard.model import Verdict
from worktree_guard.plugins import plugin_manager
from worktree_guard.runtimes.claude_code import to_tool_call
from worktree_guard.shell import parse, walk

PM = plugin_manager()


def bash(repo: Repo, command: str) -> Verdict:
    call = to_tool_call(subagent_payload(repo, "Bash", {"command": command}))
    return decide(call, build_context(call, pm=PM))


def nest(inner: str, levels: int, wrap: Callable[[str], str]) -> str:
    for _ in range(levels):
        inner = wrap(inner)
    return inner


def bash_c(command: str) -> str:
    return "bash -c " + shlex.quote(command)


def eval_(command: str) -> str:
    return "eval " + shlex.quote(command)


def test_the_documented_depth_is_eight() -> None:
    assert walk.MAX_DEPTH == 8  # README and docs/bash.md say so: change them together


@pytest.mark.parametrize("wrap", [bash_c, eval_], ids=["bash -c", "eval"])
def test_strings_nested_nine_deep_are_wg901_and_eight_are_judged(repo: Repo, wrap: Callable[[str], str]) -> None:
    escape = f"touch {repo.main}/x"
    eight = bash(repo, nest(escape, 8, wrap))
    assert eight.decision == "deny" and eight.codes == ["WG401"]  # still looked inside
    assert bash(repo, nest("ls", 8, wrap)).decision == "pass"
    nine = bash(repo, nest(escape, 9, wrap))
    assert nine.decision == "deny" and nine.codes == ["WG901"]
    assert "shell code nests deeper than 8 levels" in nine.violations[0].message  # refused before it is parsed
    assert bash(repo, nest("ls", 9, wrap)).codes == ["WG901"]  # over the budget even when harmless


def test_wrappers_nested_nine_deep_are_wg901(repo: Repo) -> None:
    assert bash(repo, "nice " * 8 + f"touch {repo.main}/x").codes == ["WG401"]
    assert bash(repo, "nice " * 8 + "ls").decision == "pass"
    nine = bash(repo, "nice " * 9 + "ls")
    assert nine.codes == ["WG901"] and "wrap each other deeper than 8 levels" in nine.violations[0].message


def chain(levels: int, body: str) -> str:
    """f0 calls f1 … calls f<levels>, whose body is `body`; then f0 is called."""
    functions = "; ".join(f"f{i}() {{ f{i + 1}; }}" for i in range(levels))
    return f"{functions}; f{levels}() {{ {body}; }}; f0"


def test_functions_calling_each_other_past_the_depth_are_wg901(repo: Repo) -> None:
    assert bash(repo, chain(7, f"touch {repo.main}/x")).codes == ["WG401"]
    assert bash(repo, chain(7, "ls")).decision == "pass"
    over = bash(repo, chain(8, "ls"))
    assert over.codes == ["WG901"] and "functions call each other deeper than 8 levels" in over.violations[0].message


def test_recursion_is_wg901_not_a_hang(repo: Repo) -> None:
    assert bash(repo, "f() { f; }; f").codes == ["WG901"]


def test_past_the_step_budget_is_wg901(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """The analysis budget counts walk steps, not seconds (issue 12): a command that takes exactly the budget
    passes, one step fewer of budget is WG901."""
    from tests.helpers import subagent_payload
    from worktree_guard.engine import build_context
    from worktree_guard.plugins import plugin_manager
    from worktree_guard.rules.bash import analyse
    from worktree_guard.runtimes.claude_code import to_tool_call

    command = "true; true; true; true"
    ctx = build_context(to_tool_call(subagent_payload(repo, "Bash", {"command": command})), pm=plugin_manager())
    used = analyse(command, ctx)[0].steps
    assert 4 < used < 100
    monkeypatch.setattr(walk, "MAX_WALK_STEPS", used)
    assert bash(repo, command).decision == "pass"
    monkeypatch.setattr(walk, "MAX_WALK_STEPS", used - 1)
    verdict = bash(repo, command)
    assert verdict.codes == ["WG901"] and f"more than {used - 1} steps" in verdict.violations[0].message


def test_the_size_budget_is_64_kib_of_utf8(repo: Repo) -> None:
    assert parse.MAX_SOURCE_BYTES == 64 * 1024
    fits = "echo " + "a" * (parse.MAX_SOURCE_BYTES - len("echo "))
    assert bash(repo, fits).decision == "pass"
    assert bash(repo, fits + "a").codes == ["WG901"]
    # Bytes, not characters: 2-byte letters reach the limit at half the length.
    wide = "echo " + "é" * ((parse.MAX_SOURCE_BYTES - len("echo ")) // 2 + 1)
    assert len(wide) < parse.MAX_SOURCE_BYTES and bash(repo, wide).codes == ["WG901"]
