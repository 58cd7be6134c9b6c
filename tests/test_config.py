"""Configuration layers and their sources (SPEC §8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Repo
from worktree_guard.config import ConfigError, Layer, env_layer, load_config, resolve


def test_defaults(repo: Repo) -> None:
    config = load_config(str(repo.main), environ={})
    assert config.settings.mode == "enforce" and config.settings.profile == "default"
    assert config.sources["mode"] == "default"


def test_precedence_user_project_frontmatter_env_flags(repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user = tmp_path / "user.toml"
    user.write_text('mode = "warn"\nprofile = "strict"\nreads = "warn"\naudit-log = "/tmp/u.jsonl"\non_parse_error = "warn"\n')
    monkeypatch.setenv("WORKTREE_GUARD_USER_CONFIG", str(user))
    (repo.main / ".worktree-guard.toml").write_text('mode = "rewrite"\nprofile = "default"\nreads = "deny"\naudit_log = "/tmp/p.jsonl"\n')
    frontmatter = Layer("agent definition x.md", {"mode": "off", "profile": "strict", "reads": "off"})
    environ = {"WORKTREE_GUARD_MODE": "enforce", "WORKTREE_GUARD_PROFILE": "default"}
    config = load_config(str(repo.main), frontmatter=frontmatter, environ=environ, flags={"mode": "warn"})
    s = config.settings
    assert (s.mode, s.profile, s.reads, s.audit_log, s.on_parse_error) == ("warn", "default", "off", "/tmp/p.jsonl", "warn")
    assert config.sources["mode"] == "command-line flags"
    assert config.sources["profile"].startswith("environment WORKTREE_GUARD_")
    assert config.sources["reads"] == "agent definition x.md"
    assert config.sources["audit_log"].startswith("project file") and config.sources["audit_log"].endswith(".worktree-guard.toml")
    assert config.sources["on_parse_error"] == f"user file {user}"


def test_pyproject_section(repo: Repo) -> None:
    (repo.main / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.worktree-guard]\nmode = "warn"\nallow = ["/srv/cache"]\n')
    config = load_config(str(repo.main), environ={})
    assert config.settings.mode == "warn" and config.settings.allow == ["/srv/cache"]
    assert "[tool.worktree-guard]" in config.sources["allow"]


def test_dot_file_wins_over_pyproject(repo: Repo) -> None:
    (repo.main / "pyproject.toml").write_text('[tool.worktree-guard]\nmode = "warn"\n')
    (repo.main / ".worktree-guard.toml").write_text('mode = "off"\n')
    assert load_config(str(repo.main), environ={}).settings.mode == "off"


@pytest.mark.parametrize("text,key,reason", [
    ('mode = "sometimes"', "mode", "Input should be"),
    ('colour = "blue"', "colour", "unknown setting"),
    ("allow = 3", "allow", "valid list"),
    ("isolated = \"perhaps\"", "isolated", "valid boolean"),
])
def test_invalid_project_value_names_file_key_and_reason(repo: Repo, text: str, key: str, reason: str) -> None:
    (repo.main / ".worktree-guard.toml").write_text(text + "\n")
    with pytest.raises(ConfigError) as error:
        load_config(str(repo.main), environ={})
    message = str(error.value)
    assert ".worktree-guard.toml" in message and f"'{key}'" in message and reason in message


def test_invalid_toml_names_the_file(repo: Repo) -> None:
    (repo.main / ".worktree-guard.toml").write_text("mode = \n")
    with pytest.raises(ConfigError, match=r"\.worktree-guard\.toml: not valid TOML"):
        load_config(str(repo.main), environ={})


def test_env_values() -> None:
    layer = env_layer({"WORKTREE_GUARD_ALLOW": "/a:/b", "WORKTREE_GUARD_PROTECT": '["x", "y:z"]', "WORKTREE_GUARD_ISOLATED": "true"})
    assert layer.values == {"allow": ["/a", "/b"], "protect": ["x", "y:z"], "isolated": "true"}
    assert resolve([layer]).settings.isolated is True
    with pytest.raises(ConfigError, match="WORKTREE_GUARD_MODEE: unknown setting"):
        env_layer({"WORKTREE_GUARD_MODEE": "off"})
    with pytest.raises(ConfigError, match=r"environment WORKTREE_GUARD_MODE.*'mode'"):
        resolve([env_layer({"WORKTREE_GUARD_MODE": "loose"})])
