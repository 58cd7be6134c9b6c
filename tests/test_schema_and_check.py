"""`worktree-guard schema` and `worktree-guard check`, run as people run them."""

from __future__ import annotations

import json
import subprocess

import jsonschema
import pytest

from tests.helpers import HOOK_EXE, Repo


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(HOOK_EXE), *args], capture_output=True, text=True, timeout=60)


def test_schema_publishes_every_record() -> None:
    result = cli("schema")
    assert result.returncode == 0
    schemas = json.loads(result.stdout)
    assert set(schemas) == {"violation", "config", "payload", "audit"}
    violation = schemas["violation"]
    for required_field in ("code", "rule", "tool", "message", "path", "resolved", "worktree_root", "shared_root", "suggestion", "span"):
        assert required_field in violation["properties"]
    assert "fixed_input" not in violation["properties"]  # may hold file content: never published
    assert "mode" in schemas["config"]["properties"]


def test_check_json_output_validates_against_the_published_schema(repo: Repo) -> None:
    schema = json.loads(cli("schema", "violation").stdout)
    result = cli("check", "--tool", "Write", "--path", str(repo.main / "x.py"), "--cwd", str(repo.worktree), "--json")
    assert result.returncode == 1
    out = json.loads(result.stdout)
    assert out["decision"] == "deny" and out["isolated"] is True
    for violation in out["violations"]:
        jsonschema.validate(violation, schema)
    assert out["violations"][0]["suggestion"] == str(repo.worktree / "x.py")


def test_check_human_output(repo: Repo) -> None:
    result = cli("check", "--tool", "Edit", "--path", str(repo.sibling / "README.md"), "--cwd", str(repo.worktree))
    assert result.returncode == 1
    assert result.stdout.startswith("deny: Edit")
    assert "WG101" in result.stdout and f"suggestion: {repo.worktree}/README.md" in result.stdout
    ok = cli("check", "--tool", "Write", "--path", "src/x.py", "--cwd", str(repo.worktree))
    assert ok.returncode == 0 and ok.stdout.startswith("pass: Write src/x.py")


@pytest.mark.parametrize("args,message", [
    (("check", "--tool", "Frob", "--path", "x"), "unknown tool"),
    (("check", "--tool", "Write"), "--path is required"),
])
def test_check_usage_errors_exit_2(args: tuple[str, ...], message: str) -> None:
    result = cli(*args)
    assert result.returncode == 2 and message in result.stderr


def test_check_bad_config_is_a_clear_error(repo: Repo) -> None:
    (repo.main / ".worktree-guard.toml").write_text("mode = 7\n")
    result = cli("check", "--tool", "Write", "--path", "x", "--cwd", str(repo.worktree))
    assert result.returncode == 2 and "'mode'" in result.stderr and "Traceback" not in result.stderr
