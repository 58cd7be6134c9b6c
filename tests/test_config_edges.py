"""The configuration layers at their edges (SPEC §8): environment values, where the user file is, odd project files.

Written for the mutation run of `config.py` (bench/mutation.py): each test pins one reading that a mutant changed
with the suite still green.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from worktree_guard.config import ConfigError, Layer, env_layer, load_config, project_layer, resolve, user_config_path, user_layer


@pytest.mark.parametrize(
    "raw,expected",
    [("true", True), ("TRUE", True), (" false ", False), ("none", None), ("null", None), ("", None), ("None", None)],
)
def test_env_booleans_and_unset(raw: str, expected: bool | None) -> None:
    layer = env_layer({"WORKTREE_GUARD_ISOLATED": raw})
    assert resolve([layer]).settings.isolated is expected


def test_env_none_is_not_a_value_for_a_plain_boolean() -> None:
    # The word reaches the model as written (and is refused as a word), not as "unset".
    assert env_layer({"WORKTREE_GUARD_ALLOW_ISOLATION_DOWNGRADE": "none"}).values == {"allow_isolation_downgrade": "none"}
    with pytest.raises(ConfigError, match=r"environment WORKTREE_GUARD_ALLOW_ISOLATION_DOWNGRADE: key 'allow_isolation_downgrade': "
                       r"Input should be a valid boolean, unable to interpret input"):
        resolve([env_layer({"WORKTREE_GUARD_ALLOW_ISOLATION_DOWNGRADE": "none"})])


def test_env_lists_and_strings() -> None:
    layer = env_layer({"WORKTREE_GUARD_ALLOW": f"/a{os.pathsep}{os.pathsep}/b{os.pathsep}", "WORKTREE_GUARD_AUDIT_LOG": "  "})
    assert layer.values == {"allow": ["/a", "/b"], "audit_log": None}
    assert env_layer({"WORKTREE_GUARD_PROTECT": ' ["x:y"] '}).values == {"protect": ["x:y"]}
    assert env_layer({"WORKTREE_GUARD_MODE": " warn "}).values == {"mode": "warn"}
    with pytest.raises(ConfigError, match=r"^environment WORKTREE_GUARD_ALLOW: not a JSON list: "):
        env_layer({"WORKTREE_GUARD_ALLOW": "[/a"})


def test_env_layer_names_its_variables_in_order_and_ignores_the_rest() -> None:
    layer = env_layer({"WORKTREE_GUARD_PROFILE": "strict", "WORKTREE_GUARD_MODE": "warn", "HOME": "/h", "WORKTREE_GUARD_USER_CONFIG": "/u.toml"})
    assert layer.source == "environment WORKTREE_GUARD_MODE, WORKTREE_GUARD_PROFILE"
    assert env_layer({"HOME": "/h"}) is None
    assert env_layer({}) is None
    with pytest.raises(ConfigError) as error:
        env_layer({"WORKTREE_GUARD_COLOUR": "blue"})
    from worktree_guard.config import Settings

    assert str(error.value) == f"environment WORKTREE_GUARD_COLOUR: unknown setting (known: {', '.join(sorted(Settings.model_fields))})"


def test_where_the_user_file_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert user_config_path() == str(tmp_path / "xdg" / "worktree-guard" / "config.toml")
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert user_config_path() == str(Path.home() / ".config" / "worktree-guard" / "config.toml")
    monkeypatch.setenv("XDG_CONFIG_HOME", "")
    assert user_config_path() == str(Path.home() / ".config" / "worktree-guard" / "config.toml")
    monkeypatch.setenv("WORKTREE_GUARD_USER_CONFIG", str(tmp_path / "mine.toml"))
    assert user_config_path() == str(tmp_path / "mine.toml")


def test_the_user_file_as_a_layer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "u.toml"
    monkeypatch.setenv("WORKTREE_GUARD_USER_CONFIG", str(path))
    assert user_layer() is None  # missing
    path.write_text("")
    assert user_layer() is None  # empty: no layer, so no source named after it
    path.write_text('on-parse-error = "warn"\n')
    layer = user_layer()
    assert layer == Layer(f"user file {path}", {"on_parse_error": "warn"})


def test_project_layer_edges(tmp_path: Path) -> None:
    assert project_layer(None) is None
    assert project_layer(str(tmp_path)) is None  # neither file
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert project_layer(str(tmp_path)) is None  # no [tool.worktree-guard]
    (tmp_path / "pyproject.toml").write_text('[tool.other]\nx = 1\n')
    assert project_layer(str(tmp_path)) is None
    (tmp_path / "pyproject.toml").write_text('[tool]\nworktree-guard = 3\n')
    with pytest.raises(ConfigError) as error:
        project_layer(str(tmp_path))
    assert str(error.value) == f"{tmp_path / 'pyproject.toml'}: [tool.worktree-guard] must be a table"
    (tmp_path / "pyproject.toml").write_text("[tool.worktree-guard\n")
    with pytest.raises(ConfigError, match=r"pyproject\.toml: not valid TOML"):
        project_layer(str(tmp_path))


def test_a_project_file_that_cannot_be_read_names_the_file(tmp_path: Path) -> None:
    (tmp_path / ".worktree-guard.toml").mkdir()
    with pytest.raises(ConfigError) as error:
        project_layer(str(tmp_path))
    assert str(error.value).startswith(f"{tmp_path / '.worktree-guard.toml'}: cannot read: ")


def test_every_invalid_key_is_named_with_its_layer(tmp_path: Path) -> None:
    (tmp_path / ".worktree-guard.toml").write_text('mode = "loud"\ncolour = 1\n')
    with pytest.raises(ConfigError) as error:
        load_config(str(tmp_path), environ={"WORKTREE_GUARD_PROFILE": "lax"})
    message = str(error.value)
    assert message.startswith("invalid configuration: ")
    problems = message.removeprefix("invalid configuration: ").split("; ")
    project = f"project file {tmp_path / '.worktree-guard.toml'}"
    assert problems[0].startswith(f"{project}: key 'mode': Input should be")
    assert any(p.startswith("environment WORKTREE_GUARD_PROFILE: key 'profile': Input should be") for p in problems)
    assert f"{project}: key 'colour': unknown setting" in problems


def test_without_a_project_root_only_the_other_layers_count(monkeypatch: pytest.MonkeyPatch) -> None:
    config = load_config(None, flags={"mode": "warn"}, environ={})
    assert config.settings.mode == "warn" and config.sources["mode"] == "command-line flags"
    assert config.sources["profile"] == "default"
    assert load_config(None, flags={}, environ={}).sources["mode"] == "default"  # empty flags: no layer


def test_flag_and_frontmatter_keys_with_dashes(tmp_path: Path) -> None:
    frontmatter = Layer("agent definition x.md", {"on_parse_error": "warn"})
    config = load_config(str(tmp_path), frontmatter=frontmatter, flags={"audit-log": "/tmp/a.jsonl"}, environ={})
    assert config.settings.audit_log == "/tmp/a.jsonl" and config.sources["audit_log"] == "command-line flags"
    assert config.sources["on_parse_error"] == "agent definition x.md"
