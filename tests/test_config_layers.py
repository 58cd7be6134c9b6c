"""The configuration layers of SPEC §8, layer by layer, through a real agent definition's frontmatter.

Lowest first: default, user file, project file, agent frontmatter (`worktree-guard:`), environment, flags.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Repo, run_hook_inline, subagent_payload, write_agent
from worktree_guard.agents import AgentDefinitionError
from worktree_guard.config import ConfigError, Settings
from worktree_guard.engine import scope_for

LAYERS = ["default", "user", "project", "frontmatter", "environment", "flags"]


def set_layers(repo: Repo, upto: str) -> tuple[dict[str, str], dict[str, Any]]:
    """Give `audit_log` a distinct value in every layer up to `upto`; return (environ, flags)."""
    environ: dict[str, str] = {}
    flags: dict[str, Any] = {}
    for layer in LAYERS[1 : LAYERS.index(upto) + 1]:
        value = f"/logs/{layer}.jsonl"
        if layer == "user":
            user = Path.home() / ".config" / "worktree-guard" / "config.toml"
            user.parent.mkdir(parents=True, exist_ok=True)
            user.write_text(f'audit-log = "{value}"\n')
        elif layer == "project":
            (repo.main / ".worktree-guard.toml").write_text(f'audit_log = "{value}"\n')
        elif layer == "frontmatter":
            write_agent(repo.main, "worker", f"isolation: worktree\nworktree-guard:\n  audit-log: {value}")
        elif layer == "environment":
            environ["WORKTREE_GUARD_AUDIT_LOG"] = value
        else:
            flags["audit_log"] = value
    return environ, flags


@pytest.mark.parametrize("top", LAYERS)
def test_each_layer_overrides_the_ones_below(repo: Repo, top: str) -> None:
    environ, flags = set_layers(repo, top)
    scope = scope_for(str(repo.worktree), "worker", flags=flags, environ=environ)
    expected_source = {
        "default": "default",
        "user": f"user file {Path.home() / '.config' / 'worktree-guard' / 'config.toml'}",
        "project": f"project file {repo.main / '.worktree-guard.toml'}",
        "frontmatter": f"agent definition {repo.main / '.claude' / 'agents' / 'worker.md'} (worktree-guard:)",
        "environment": "environment WORKTREE_GUARD_AUDIT_LOG",
        "flags": "command-line flags",
    }[top]
    assert scope.settings.audit_log == (None if top == "default" else f"/logs/{top}.jsonl")
    assert scope.config.sources["audit_log"] == expected_source


def test_every_effective_value_knows_its_source(repo: Repo) -> None:
    environ, flags = set_layers(repo, "flags")
    write_agent(repo.main, "worker", "isolation: worktree\nworktree-guard:\n  mode: warn\n  audit-log: /logs/f.jsonl")
    scope = scope_for(str(repo.worktree), "worker", flags=flags, environ=environ)
    assert set(scope.config.sources) == set(Settings.model_fields)
    assert scope.config.sources["mode"].startswith("agent definition ")
    assert scope.config.sources["profile"] == "default"
    assert scope.settings.mode == "warn"


def test_frontmatter_applies_only_to_its_agent_type(repo: Repo) -> None:
    write_agent(repo.main, "worker", "worktree-guard:\n  mode: warn")
    assert scope_for(str(repo.worktree), "worker").settings.mode == "warn"
    assert scope_for(str(repo.worktree), "reviewer").settings.mode == "enforce"
    assert scope_for(str(repo.worktree), None).settings.mode == "enforce"


def test_user_scope_definition_is_found_and_project_scope_wins(repo: Repo, temp_elsewhere: Path) -> None:
    write_agent(Path.home(), "worker", "worktree-guard:\n  profile: strict")
    assert scope_for(str(repo.worktree), "worker").config.sources["profile"].startswith(f"agent definition {Path.home()}")
    write_agent(repo.main, "worker", "worktree-guard:\n  reads: warn")
    scope = scope_for(str(repo.worktree), "worker")
    assert scope.settings.profile == "default" and scope.settings.reads == "warn"


def test_a_user_definition_where_the_agent_can_write_it_cannot_loosen_its_guard(repo: Repo) -> None:
    """HOME in the temp dir (CI, containers): the default allow-list lets an isolated agent write
    ~/.claude/agents, so a definition there counts for its isolation only, never for its settings."""
    write_agent(Path.home(), "general-purpose", "worktree-guard:\n  mode: \"off\"\n  profile: strict")
    scope = scope_for(str(repo.worktree), "general-purpose")
    assert scope.isolation.isolated and (scope.settings.mode, scope.settings.profile) == ("enforce", "default") and scope.definition is None
    result = run_hook_inline(subagent_payload(repo, "Write", {"file_path": str(repo.main / "x.py"), "content": ""}))
    assert result.codes == ["WG101"]
    write_agent(Path.home(), "helper", "isolation: worktree\nworktree-guard:\n  mode: warn")  # it still isolates
    free = scope_for(str(repo.main), "helper")
    assert free.isolation.isolated and free.isolation.misplaced and free.settings.mode == "enforce"


def test_a_definition_written_into_the_agents_own_worktree_cannot_loosen_its_guard(repo: Repo) -> None:
    """Like the project file, definitions are read from the main worktree: the agent can write its own."""
    write_agent(repo.worktree, "general-purpose", "worktree-guard:\n  mode: \"off\"")
    result = run_hook_inline(subagent_payload(repo, "Write", {"file_path": str(repo.main / "x.py"), "content": ""}))
    assert result.decision == "deny" and "WG101" in result.reason


@pytest.mark.parametrize(
    "frontmatter,key,reason",
    [
        ("worktree-guard:\n  mode: loud", "mode", "Input should be"),
        ("worktree-guard:\n  colour: blue", "colour", "unknown setting"),
        ("worktree-guard:\n  allow: 3", "allow", "valid list"),
        ("worktree-guard:\n  allow-isolation-downgrade: maybe", "allow_isolation_downgrade", "valid boolean"),
    ],
)
def test_invalid_frontmatter_value_names_file_key_and_reason(repo: Repo, frontmatter: str, key: str, reason: str) -> None:
    path = write_agent(repo.main, "worker", "isolation: worktree\n" + frontmatter)
    with pytest.raises(ConfigError) as error:
        scope_for(str(repo.worktree), "worker")
    message = str(error.value)
    assert str(path) in message and f"'{key}'" in message and reason in message
    # For an isolated agent it is a WG000 deny carrying the same explanation.
    result = run_hook_inline(subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "a.py"), "content": ""}, agent_type="worker"))
    assert result.decision == "deny"
    assert result.reason.endswith("[worktree-guard WG000]") and str(path) in result.reason and f"'{key}'" in result.reason


@pytest.mark.parametrize(
    "frontmatter,expected",
    [
        ("worktree-guard: [mode, warn]", "`worktree-guard:` must be a mapping"),
        ("worktree-guard: {mode: warn", "frontmatter is not valid YAML"),
    ],
)
def test_malformed_frontmatter_block_names_the_file(repo: Repo, frontmatter: str, expected: str) -> None:
    path = write_agent(repo.main, "worker", frontmatter)
    with pytest.raises(AgentDefinitionError) as error:
        scope_for(str(repo.worktree), "worker")
    assert str(path) in str(error.value) and expected in str(error.value)
    result = run_hook_inline(subagent_payload(repo, "Edit", {"file_path": str(repo.worktree / "a.py"), "old_string": "a", "new_string": "b"}, agent_type="worker"))
    assert result.decision == "deny" and "WG000" in result.reason and str(path) in result.reason


def test_invalid_frontmatter_for_an_agent_that_is_not_isolated_is_shown_not_denied(repo: Repo) -> None:
    path = write_agent(repo.main, "helper", "worktree-guard:\n  mode: loud")
    result = run_hook_inline({**subagent_payload(repo, "Write", {"file_path": str(repo.main / "a.py"), "content": ""}, agent_type="helper"), "cwd": str(repo.main)})
    assert result.decision == "warn"
    assert str(path) in result.output["systemMessage"] and "'mode'" in result.output["systemMessage"]
