"""An agent definition's values as the runtime reads them, and unknown ones refused (issue 12 round 2, other notes).

`isolation:` with a value the guard does not know (a typo such as `worktre`, or `remote`) counted as "not isolated":
unknown must not mean that. And PyYAML reads YAML 1.1, where `off` is a boolean: `mode: off` in a definition's
`worktree-guard:` mapping became `False`, an invalid mode, so every call of that agent was WG000.
"""

from __future__ import annotations

import pytest

from tests.helpers import Repo, payload, run_hook_process, subagent_payload, write_agent
from worktree_guard.agents import AgentDefinitionError, find_agent_definition, read_frontmatter


@pytest.mark.parametrize("value", ["worktre", "remote", "off", "yes", "true", "'true'", "''", "[worktree]"])
@pytest.mark.parametrize("where", ["main", "worktree"])
def test_an_unknown_isolation_value_is_refused_wherever_the_agent_runs(repo: Repo, value: str, where: str) -> None:
    path = write_agent(repo.main, "worker", f"isolation: {value}")
    cwd = repo.main if where == "main" else repo.worktree
    data = payload(cwd, "Write", {"file_path": str(repo.main / "src" / "app.py"), "content": "x"}, agent_id="a1", agent_type="worker")
    result = run_hook_process(data, cwd=cwd)
    assert (result.decision, result.codes) == ("deny", ["WG000"])
    assert str(path) in result.reason and "is not a value worktree-guard knows" in result.reason


def test_the_known_values_are_still_known(repo: Repo) -> None:
    for value, isolated in (("worktree", True), ("Worktree", True), ("work_tree", True), ("work-tree", True), ("none", False), ("None", False), ("~", None)):
        write_agent(repo.main, "worker", f"isolation: {value}")
        found = find_agent_definition("worker", str(repo.main))
        assert found is not None and (found.isolated if isolated is not None else found.isolation) == (isolated if isolated is not None else None), value


def test_an_unknown_value_is_an_error_naming_the_file(repo: Repo) -> None:
    path = write_agent(repo.main, "worker", "isolation: worktre")
    with pytest.raises(AgentDefinitionError, match="worktre"):
        find_agent_definition("worker", str(repo.main))
    assert str(path)


@pytest.mark.parametrize("setting, value", [("mode", "off"), ("reads", "off"), ("mode", "warn")])
def test_yaml_1_1_booleans_are_the_words_they_look_like(repo: Repo, setting: str, value: str) -> None:
    write_agent(repo.main, "relaxed", f"isolation: worktree\nworktree-guard:\n  {setting}: {value}")
    data = subagent_payload(repo, "Write", {"file_path": str(repo.main / "src" / "app.py"), "content": "x"}, agent_type="relaxed")
    result = run_hook_process(data, cwd=repo.worktree)
    expected = {("mode", "off"): ("pass", []), ("reads", "off"): ("deny", ["WG101"]), ("mode", "warn"): ("warn", ["WG101"])}[(setting, value)]
    assert (result.decision, result.codes) == expected


def test_frontmatter_is_read_as_yaml_1_2(tmp_path) -> None:
    path = tmp_path / "a.md"
    path.write_text("---\nname: a\nbackground: true\nx: off\ny: yes\nz: No\nw: FALSE\n---\n")
    assert read_frontmatter(str(path)) == {"name": "a", "background": True, "x": "off", "y": "yes", "z": "No", "w": False}
