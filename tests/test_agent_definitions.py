"""Agent definition files, found and read the way Claude Code finds them (SPEC §4), tested in-process.

Written from the mutation run's survivors in `agents.py` (bench/mutation.py): the only tests of the search
(`<name>.md` first, then every Markdown file below the directory) ran the hook as a subprocess, which a mutant
never reaches.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Repo, payload, run_hook_inline, write_agent
from worktree_guard.agents import AgentDefinitionError, agent_dirs, find_agent_definition, read_frontmatter


def agents_dir(repo: Repo) -> Path:
    path = repo.main / ".claude" / "agents"
    path.mkdir(parents=True, exist_ok=True)
    return path


def test_a_definition_is_found_by_its_frontmatter_name_anywhere_below_the_directory(repo: Repo) -> None:
    nested = agents_dir(repo) / "team" / "some-file.md"
    nested.parent.mkdir()
    nested.write_text("---\nname: reviewer\nisolation: worktree\n---\n")
    found = find_agent_definition("reviewer", str(repo.main))
    assert found is not None and found.path == str(nested) and found.isolated
    # Through the hook: declared but in the main checkout, so misplaced.
    data = payload(repo.main, "Write", {"file_path": str(repo.main / "x"), "content": "x"}, agent_id="a9", agent_type="reviewer")
    assert run_hook_inline(data).codes == ["WG002"]


def test_only_markdown_files_are_definitions(repo: Repo) -> None:
    (agents_dir(repo) / "reviewer.txt").write_text("---\nname: reviewer\nisolation: worktree\n---\n")
    (agents_dir(repo) / "reviewer.MD.bak").write_text("---\nname: reviewer\nisolation: worktree\n---\n")
    assert find_agent_definition("reviewer", str(repo.main)) is None


def test_the_file_named_after_the_agent_wins_over_another_claiming_its_name(repo: Repo) -> None:
    (agents_dir(repo) / "a-first.md").write_text("---\nname: worker\nisolation: none\n---\n")
    named = write_agent(repo.main, "worker", "isolation: worktree")
    found = find_agent_definition("worker", str(repo.main))
    assert found is not None and found.path == str(named) and found.isolated


def test_a_name_in_the_frontmatter_overrides_the_file_name(repo: Repo) -> None:
    (agents_dir(repo) / "worker.md").write_text("---\nname: other\nisolation: worktree\n---\n")
    assert find_agent_definition("worker", str(repo.main)) is None
    assert find_agent_definition("other", str(repo.main)) is not None


def test_the_first_frontmatter_line_counts(repo: Repo) -> None:
    (agents_dir(repo) / "worker.md").write_text("---\nisolation: worktree\nname: worker\n---\nbody\n")
    found = find_agent_definition("worker", str(repo.main))
    assert found is not None and found.isolation == "worktree"


def test_frontmatter_edges(tmp_path: Path) -> None:
    empty = tmp_path / "empty.md"
    empty.write_text("---\n---\nbody\n")
    assert read_frontmatter(str(empty)) == {}
    none = tmp_path / "none.md"
    none.write_text("# just Markdown\n---\n")
    assert read_frontmatter(str(none)) is None
    unclosed = tmp_path / "unclosed.md"
    unclosed.write_text("---\nname: x\n")
    assert read_frontmatter(str(unclosed)) is None
    first = tmp_path / "first.md"
    first.write_text("---\nisolation: worktree\n---\n")
    assert read_frontmatter(str(first)) == {"isolation": "worktree"}


def test_only_the_first_256_kib_are_read(tmp_path: Path) -> None:
    """A definition is read up to 256 KiB: a frontmatter that closes beyond is no frontmatter."""
    limit = 256 * 1024
    head = "---\nname: big\ndescription: "
    for closing_at, expected in ((limit - 8, {"name": "big"}), (limit + 8, None)):
        text = head + "x" * (closing_at - len(head) - 1) + "\n---\nbody\n"
        path = tmp_path / f"big-{closing_at}.md"
        path.write_text(text)
        data = read_frontmatter(str(path))
        assert (data if data is None else {"name": data["name"]}) == expected, closing_at


@pytest.mark.parametrize(
    "content,message",
    [
        (b"---\nname: x\n---\n\xff\xfe", "cannot read"),
        (b"---\n- a\n- b\n---\n", "frontmatter is not a mapping"),
        (b"---\nname: [x\n---\n", "frontmatter is not valid YAML"),
    ],
)
def test_an_unreadable_definition_is_an_error_naming_the_file(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.md"
    path.write_bytes(content)
    with pytest.raises(AgentDefinitionError) as error:
        read_frontmatter(str(path))
    assert str(error.value).startswith(f"{path}: {message}")


def test_a_non_mapping_guard_block_is_an_error(repo: Repo) -> None:
    path = write_agent(repo.main, "worker", "worktree_guard: [a]")
    with pytest.raises(AgentDefinitionError, match=r"`worktree-guard:` must be a mapping") as error:
        find_agent_definition("worker", str(repo.main))
    assert str(error.value).startswith(str(path))


def test_the_guard_block_under_either_spelling(repo: Repo) -> None:
    write_agent(repo.main, "a", "worktree-guard:\n  mode: warn")
    write_agent(repo.main, "b", "worktree_guard:\n  mode: off")
    assert find_agent_definition("a", str(repo.main)).guard_settings == {"mode": "warn"}
    assert find_agent_definition("b", str(repo.main)).guard_settings == {"mode": False}  # YAML 1.1: off is false


@pytest.mark.parametrize("agent_type", ["", "../x", "a/b", ".hidden"])
def test_agent_types_that_cannot_name_a_file_find_nothing(repo: Repo, agent_type: str) -> None:
    write_agent(repo.main, "x", "isolation: worktree")
    (agents_dir(repo) / ".hidden.md").write_text("---\nname: .hidden\n---\n")
    assert find_agent_definition(agent_type, str(repo.main)) is None


def test_agent_dirs_nearest_first_then_the_user_scope(repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inner = repo.main / "src" / ".claude" / "agents"
    inner.mkdir(parents=True)
    outer = agents_dir(repo)
    home = Path.home()
    user = home / ".claude" / "agents"
    user.mkdir(parents=True)
    assert agent_dirs(str(repo.main / "src"), str(home))[:2] == [str(inner), str(outer)]
    assert agent_dirs(str(repo.main / "src"), str(home))[-1] == str(user)
    # CLAUDE_CONFIG_DIR moves the user scope.
    config = tmp_path / "cc"
    (config / "agents").mkdir(parents=True)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    assert agent_dirs(str(repo.main), str(home))[-1] == str(config / "agents")
    # The nearest definition wins.
    (inner / "w.md").write_text("---\nname: w\nisolation: worktree\n---\n")
    (outer / "w.md").write_text("---\nname: w\nisolation: none\n---\n")
    assert find_agent_definition("w", str(repo.main / "src")).path == str(inner / "w.md")
    assert find_agent_definition("w", str(repo.main)).path == str(outer / "w.md")
