"""Agent definitions (`worktree_guard/agents.py`) called directly: tests written from its mutation run (issue 13,
phase 20). Since phase 1 the module gained the regular-file opener, the YAML 1.2 loader without aliases, the
bound on the entries below an agents directory, the `skip` of files the agent could have written, and the
refusal of an unknown `isolation:` value; these rows pin each one's exact answer and words.

`_yaml12_loader` builds its loader once per process (`_LOADER`): the autouse fixture below clears it, so that
every test here builds it again (a test that reuses the loader built earlier would not see a change to it)."""

from __future__ import annotations

import os
import signal
import stat
from pathlib import Path

import pytest

from worktree_guard import agents
from worktree_guard.agents import AgentDefinition, AgentDefinitionError, agent_dirs, find_agent_definition, read_frontmatter


@pytest.fixture(autouse=True)
def _fresh_loader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(agents, "_LOADER", None)


def _md(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# --- AgentDefinition.isolated -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "isolation, isolated",
    [("worktree", True), (" WorkTree ", True), ("work_tree", True), ("work-tree", True), ("none", False), (None, False), ("", False), ("worktrees", False)],
)
def test_isolated_reads_the_aliases_whatever_their_case_and_spaces(isolation, isolated) -> None:
    assert AgentDefinition(path="/p.md", name="a", isolation=isolation).isolated is isolated


def test_a_definition_s_guard_settings_default_to_a_fresh_mapping() -> None:
    first, second = AgentDefinition(path="/a.md", name="a", isolation=None), AgentDefinition(path="/b.md", name="b", isolation=None)
    assert first.guard_settings == {} and first.guard_settings is not second.guard_settings


# --- read_frontmatter: the opener ---------------------------------------------------------------------------


def test_a_fifo_definition_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "agent.md"
    os.mkfifo(fifo)
    previous = signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("the open blocked")))
    signal.setitimer(signal.ITIMER_REAL, 5)
    try:
        with pytest.raises(AgentDefinitionError) as caught:
            read_frontmatter(str(fifo))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert str(caught.value) == f"{fifo}: cannot read: [Errno 22] not a regular file: '{fifo}'"


@pytest.mark.parametrize("path", ["/dev/null", "/dev/zero"])
def test_a_device_is_no_definition(path: str) -> None:
    with pytest.raises(AgentDefinitionError, match=r"cannot read: \[Errno 22\] not a regular file"):
        read_frontmatter(path)


def test_a_directory_is_no_definition(tmp_path: Path) -> None:
    with pytest.raises(AgentDefinitionError) as caught:
        read_frontmatter(str(tmp_path))
    assert str(caught.value) == f"{tmp_path}: cannot read: [Errno 22] not a regular file: '{tmp_path}'"


def test_the_opener_closes_what_it_refuses(tmp_path: Path) -> None:
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(20):
        with pytest.raises(OSError):
            agents._open_regular(str(tmp_path), os.O_RDONLY)
    assert len(os.listdir("/proc/self/fd")) == before


def test_the_opener_opens_a_regular_file_read_only_without_a_controlling_terminal(tmp_path: Path) -> None:
    path = _md(tmp_path / "a.md", "x")
    fd = agents._open_regular(str(path), os.O_RDONLY | os.O_CLOEXEC)
    try:
        flags = __import__("fcntl").fcntl(fd, __import__("fcntl").F_GETFL)
        assert flags & os.O_NONBLOCK and flags & os.O_ACCMODE == os.O_RDONLY
        assert stat.S_ISREG(os.fstat(fd).st_mode)
    finally:
        os.close(fd)


def test_a_missing_definition_is_an_error_naming_the_file(tmp_path: Path) -> None:
    with pytest.raises(AgentDefinitionError) as caught:
        read_frontmatter(str(tmp_path / "gone.md"))
    assert str(caught.value) == f"{tmp_path / 'gone.md'}: cannot read: [Errno 2] No such file or directory: '{tmp_path / 'gone.md'}'"
    assert isinstance(caught.value.__cause__, FileNotFoundError)


# --- read_frontmatter: the text -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, data",
    [
        ("---\nname: a\n---\n", {"name": "a"}),
        ("---\nname: a\n  ---  \nbody\n", {"name": "a"}),
        ("---\n---\n", {}),
        ("---\n# only a comment\n---\n", {}),
        ("---\nname: a\n", None),
        ("---", None),
        ("", None),
        (" ---\nname: a\n---\n", None),
        ("---x\nname: a\n---\n", {"name": "a"}),
        ("---\nname: a\n---\nname: b\n---\n", {"name": "a"}),
    ],
)
def test_the_frontmatter_is_what_lies_between_the_first_two_dash_lines(tmp_path: Path, text: str, data) -> None:
    assert read_frontmatter(str(_md(tmp_path / "a.md", text))) == data


def test_a_frontmatter_that_is_no_mapping_or_no_yaml_is_an_error_in_these_words(tmp_path: Path) -> None:
    path = _md(tmp_path / "a.md", "---\n- x\n---\n")
    with pytest.raises(AgentDefinitionError) as caught:
        read_frontmatter(str(path))
    assert str(caught.value) == f"{path}: frontmatter is not a mapping"
    _md(path, "---\nname: [x\n---\n")
    with pytest.raises(AgentDefinitionError) as caught:
        read_frontmatter(str(path))
    assert str(caught.value).startswith(f"{path}: frontmatter is not valid YAML: while parsing a flow sequence")
    _md(path, "---\nx: 5\n---\n")
    assert read_frontmatter(str(path)) == {"x": 5}
    _md(path, "---\nplain words\n---\n")
    with pytest.raises(AgentDefinitionError, match="frontmatter is not a mapping"):
        read_frontmatter(str(path))


# --- the YAML 1.2 loader ------------------------------------------------------------------------------------


def test_the_loader_is_built_once() -> None:
    loader = agents._yaml12_loader()
    assert agents._yaml12_loader() is loader and agents._LOADER is loader
    import yaml

    assert issubclass(loader, yaml.SafeLoader) and loader is not yaml.SafeLoader


@pytest.mark.parametrize(
    "word, value",
    [
        ("true", True), ("True", True), ("TRUE", True), ("false", False), ("False", False), ("FALSE", False),
        ("yes", "yes"), ("no", "no"), ("on", "on"), ("off", "off"), ("Yes", "Yes"), ("OFF", "OFF"), ("y", "y"), ("tRue", "tRue"),
        ("truex", "truex"), ("xtrue", "xtrue"), ("t", "t"), ("f", "f"),
        ("5", 5), ("-2", -2), ("1.5", 1.5), ("null", None), ("~", None), ("'true'", "true"),
    ],
)
def test_the_loader_reads_yaml_1_2_booleans_and_the_other_scalars_as_safe_load_does(tmp_path: Path, word: str, value) -> None:
    assert read_frontmatter(str(_md(tmp_path / "a.md", f"---\nv: {word}\n---\n"))) == {"v": value}
    import yaml

    assert yaml.load(f"v: {word}", Loader=agents._yaml12_loader()) == {"v": value}  # noqa: S506


def test_the_original_safe_loader_keeps_its_yaml_1_1_booleans() -> None:
    agents._yaml12_loader()
    import yaml

    assert yaml.safe_load("v: off") == {"v": False}


@pytest.mark.parametrize("text", ["a: &x 1\nb: *x", "a: &x [1]\nb: [*x, *x]", "a: *x"])
def test_an_alias_is_refused_in_these_words(tmp_path: Path, text: str) -> None:
    path = _md(tmp_path / "a.md", f"---\n{text}\n---\n")
    with pytest.raises(AgentDefinitionError) as caught:
        read_frontmatter(str(path))
    assert str(caught.value).startswith(f"{path}: frontmatter is not valid YAML: an alias (*name) is not read in agent frontmatter\n  in ")


def test_an_anchor_without_an_alias_is_read(tmp_path: Path) -> None:
    assert read_frontmatter(str(_md(tmp_path / "a.md", "---\na: &x 1\nb: [2, {c: 3}]\n---\n"))) == {"a": 1, "b": [2, {"c": 3}]}


# --- agent_dirs ---------------------------------------------------------------------------------------------


def test_agent_dirs_walks_up_to_the_root_and_adds_the_user_scope_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    (home / ".claude" / "agents").mkdir(parents=True)
    (home / "p" / ".claude" / "agents").mkdir(parents=True)
    (home / "p" / "q" / ".claude").mkdir(parents=True)  # no agents/ below it
    expected = [str(home / "p" / ".claude" / "agents"), str(home / ".claude" / "agents")]
    assert agent_dirs(str(home / "p" / "q"), str(home)) == expected  # the user's directory, met on the way up, once
    monkeypatch.setenv("HOME", str(home))
    assert agent_dirs(str(home / "p" / "q")) == expected
    other = tmp_path / "elsewhere"
    other.mkdir()
    assert agent_dirs(str(other), str(home)) == [str(home / ".claude" / "agents")]
    assert agent_dirs(str(other), str(tmp_path / "nohome")) == []
    assert agent_dirs(str(other)) == [str(home / ".claude" / "agents")]  # no home given: $HOME's, met nowhere on the walk
    (home / ".claude" / "agents").rmdir()
    _md(home / ".claude" / "agents", "a file, not a directory")
    assert agent_dirs(str(home / "p"), str(home)) == [str(home / "p" / ".claude" / "agents")]


def test_agent_dirs_takes_the_user_scope_from_claude_config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cc" / "agents").mkdir(parents=True)
    (tmp_path / "home" / ".claude" / "agents").mkdir(parents=True)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    assert agent_dirs(str(tmp_path), str(tmp_path / "home")) == [str(tmp_path / "cc" / "agents")]
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", "")
    assert agent_dirs(str(tmp_path), str(tmp_path / "home")) == [str(tmp_path / "home" / ".claude" / "agents")]


# --- _candidates --------------------------------------------------------------------------------------------


def test_candidates_the_named_file_first_then_every_markdown_file_in_sorted_order(tmp_path: Path) -> None:
    d = tmp_path / "agents"
    for name in ["b.md", "a.md", "x.md", "notes.txt", "z/c.md", "y/d.md", "y/e.MD", "md"]:
        _md(d / name, "---\n---\n")
    assert agents._candidates(str(d), "x") == [str(d / p) for p in ["x.md", "a.md", "b.md", "y/d.md", "z/c.md"]]
    assert agents._candidates(str(d), "q") == [str(d / p) for p in ["a.md", "b.md", "x.md", "y/d.md", "z/c.md"]]
    (d / "dir.md").mkdir()
    assert agents._candidates(str(d), "dir")[0] == str(d / "a.md")  # a directory named <type>.md is not the file


def _entries(directory: Path, files: int, subdirs: int = 0) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for i in range(files):
        (directory / f"f{i:05}").touch()
    for i in range(subdirs):
        (directory / f"d{i:05}").mkdir()


def test_candidates_reads_at_most_ten_thousand_entries(tmp_path: Path) -> None:
    assert agents.MAX_DEFINITION_ENTRIES == 10_000
    d = tmp_path / "agents"
    _entries(d, 9_998, 1)
    _entries(d / "d00000", 1)
    assert agents._candidates(str(d), "x") == []  # 10,000 entries: files and directories, at every depth
    (d / "d00000" / "one-more").touch()
    with pytest.raises(AgentDefinitionError) as caught:
        agents._candidates(str(d), "x")
    assert str(caught.value) == f"{d}: more than 10000 entries, so its agent definitions cannot be read"
    (d / "d00000" / "one-more").unlink()
    (d / "d00001").mkdir()  # a directory counts as one entry too
    with pytest.raises(AgentDefinitionError, match="more than 10000 entries"):
        agents._candidates(str(d), "x")


# --- find_agent_definition ----------------------------------------------------------------------------------


def test_find_returns_the_file_its_name_isolation_and_guard_settings(tmp_path: Path) -> None:
    d = tmp_path / "p" / ".claude" / "agents"
    _md(d / "w.md", "---\nisolation: WorkTree\nworktree-guard:\n  mode: warn\n---\n")
    _md(d / "n.md", "---\nname: 12\nisolation: none\nworktree-guard:\n---\n")
    _md(d / "plain.md", "---\ndescription: x\n---\n")
    found = find_agent_definition("w", str(tmp_path / "p"), str(tmp_path / "home"))
    assert (found.path, found.name, found.isolation, found.guard_settings, found.isolated) == (str(d / "w.md"), "w", "WorkTree", {"mode": "warn"}, True)
    found = find_agent_definition("12", str(tmp_path / "p"), str(tmp_path / "home"))
    assert (found.path, found.name, found.isolation, found.guard_settings, found.isolated) == (str(d / "n.md"), "12", "none", {}, False)
    found = find_agent_definition("plain", str(tmp_path / "p"), str(tmp_path / "home"))
    assert (found.path, found.name, found.isolation, found.guard_settings) == (str(d / "plain.md"), "plain", None, {})
    assert find_agent_definition("n", str(tmp_path / "p"), str(tmp_path / "home")) is None  # named 12 inside


def test_find_prefers_the_dashed_guard_block_and_reads_an_empty_one_as_none(tmp_path: Path) -> None:
    d = tmp_path / ".claude" / "agents"
    _md(d / "a.md", "---\nworktree-guard:\n  mode: warn\nworktree_guard:\n  mode: off\n---\n")
    _md(d / "b.md", "---\nworktree-guard:\nworktree_guard:\n  mode: off\n---\n")
    _md(d / "c.md", "---\nworktree-guard: []\n---\n")
    _md(d / "e.md", "---\nworktree-guard: x\n---\n")
    assert find_agent_definition("a", str(tmp_path), str(tmp_path)).guard_settings == {"mode": "warn"}
    assert find_agent_definition("b", str(tmp_path), str(tmp_path)).guard_settings == {}
    assert find_agent_definition("c", str(tmp_path), str(tmp_path)).guard_settings == {}
    with pytest.raises(AgentDefinitionError) as caught:
        find_agent_definition("e", str(tmp_path), str(tmp_path))
    assert str(caught.value) == f"{d / 'e.md'}: `worktree-guard:` must be a mapping"


def test_find_passes_over_the_files_skip_names_and_files_without_frontmatter(tmp_path: Path) -> None:
    near = tmp_path / "p" / ".claude" / "agents"
    far = tmp_path / ".claude" / "agents"
    _md(near / "a.md", "---\nisolation: worktree\n---\n")
    _md(near / "other.md", "no frontmatter: the file name is no name then")
    _md(far / "a.md", "---\nisolation: none\n---\n")
    cwd, home = str(tmp_path / "p"), str(tmp_path / "nohome")
    assert find_agent_definition("a", cwd, home).path == str(near / "a.md")
    seen = []
    found = find_agent_definition("a", cwd, home, skip=lambda path: seen.append(path) or path == str(near / "a.md"))
    assert found.path == str(far / "a.md") and seen == [str(near / "a.md"), str(near / "other.md"), str(far / "a.md")]
    assert find_agent_definition("a", cwd, home, skip=lambda path: True) is None
    assert find_agent_definition("other", cwd, home) is None
    assert find_agent_definition("a", cwd, home, skip=lambda path: False).path == str(near / "a.md")


@pytest.mark.parametrize("value", ["remote", "worktre", "true", "yes", "[worktree]", "''", "0"])
def test_an_unknown_isolation_value_is_refused_in_these_words(tmp_path: Path, value: str) -> None:
    path = _md(tmp_path / ".claude" / "agents" / "a.md", f"---\nisolation: {value}\n---\n")
    with pytest.raises(AgentDefinitionError) as caught:
        find_agent_definition("a", str(tmp_path), str(tmp_path))
    shown = {"true": "True", "yes": "yes", "[worktree]": "['worktree']", "''": "", "0": "0"}.get(value, value)
    assert str(caught.value) == f"{path}: `isolation: {shown}` is not a value worktree-guard knows (work-tree, work_tree, worktree (isolated) or none)"


@pytest.mark.parametrize("value", ["worktree", " Work_Tree", "WORK-TREE", "none", "None ", "null", "~"])
def test_a_known_isolation_value_is_read(tmp_path: Path, value: str) -> None:
    _md(tmp_path / ".claude" / "agents" / "a.md", f"---\nisolation: '{value}'\n---\n" if value.strip() != value else f"---\nisolation: {value}\n---\n")
    found = find_agent_definition("a", str(tmp_path), str(tmp_path))
    assert found.isolation == (None if value in ("null", "~") else value)


def test_the_search_goes_on_past_a_file_without_frontmatter_or_with_another_name(tmp_path: Path) -> None:
    d = tmp_path / ".claude" / "agents"
    _md(d / "a.md", "no frontmatter")
    _md(d / "b.md", "---\nname: other\n---\n")
    _md(d / "c.md", "---\nname: x\nisolation: worktree\n---\n")
    assert find_agent_definition("x", str(tmp_path), str(tmp_path / "nohome")).path == str(d / "c.md")


@pytest.mark.parametrize("agent_type", ["a/b", "../x", ".x", "/x"])
def test_a_type_that_names_a_path_is_never_looked_up_even_when_a_file_there_claims_it(tmp_path: Path, agent_type: str) -> None:
    d = tmp_path / "p" / ".claude" / "agents"
    _md(d / "a" / "b.md", "---\nname: a/b\n---\n")
    _md(d / ".." / "x.md", "---\nname: ../x\n---\n")
    _md(d / ".x.md", "---\nname: .x\n---\n")
    _md(d / "sub" / "y.md", "---\nname: /x\n---\n")
    assert find_agent_definition(agent_type, str(tmp_path / "p"), str(tmp_path / "nohome")) is None
