"""`worktree-guard install` / `uninstall`, run as the installed command on real files, and the plugin's launcher."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import HOOK_EXE, REPO_ROOT, Repo, run_hook_process, subagent_payload
from worktree_guard.install import PRE_TOOL_USE_MATCHER, is_guard_handler

LAUNCHER = REPO_ROOT / "hooks" / "worktree-guard-hook"
# `install` runs as the console script: its interpreter is the one in the script's #! line.
_INTERPRETER = HOOK_EXE.read_text().splitlines()[0].removeprefix("#!").strip()
EXPECTED_COMMAND = f"{_INTERPRETER} -S -P {REPO_ROOT / 'worktree_guard' / 'fast_hook.py'}"


def guard(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([str(HOOK_EXE), *args], cwd=cwd, capture_output=True, text=True, env=full_env, timeout=60)


def settings_of(repo: Repo, name: str = "settings.json") -> Path:
    return repo.main / ".claude" / name


def guard_handlers(settings: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """event → the guard's matcher groups."""
    found: dict[str, list[dict[str, Any]]] = {}
    for event, groups in settings.get("hooks", {}).items():
        for group in groups:
            if any(is_guard_handler(h) for h in group.get("hooks", [])):
                found.setdefault(event, []).append(group)
    return found


OTHER_USERS_SETTINGS: dict[str, Any] = {
    "model": "opus",
    "permissions": {"allow": ["Bash(npm test)"], "deny": ["Read(./.env)"]},
    "env": {"FOO": "1"},
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "/opt/audit/log-bash.sh", "timeout": 5}]},
            {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "prettier --check"}, {"type": "command", "command": "lint.sh"}]},
        ],
        "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "ruff format"}]}],
        "SubagentStop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
    },
    "statusLine": {"type": "command", "command": "status.sh"},
}


def test_install_writes_the_three_events_with_the_absolute_console_script(repo: Repo) -> None:
    done = guard("install", "--project", cwd=repo.main / "src")  # from a subdirectory: the checkout's top
    assert done.returncode == 0, done.stderr
    path = settings_of(repo)
    assert str(path) in done.stdout
    settings = json.loads(path.read_text())
    groups = guard_handlers(settings)
    assert sorted(groups) == ["PreToolUse", "SubagentStart", "SubagentStop"]
    (pre,) = groups["PreToolUse"]
    assert pre["matcher"] == PRE_TOOL_USE_MATCHER
    assert set(PRE_TOOL_USE_MATCHER.split("|")) == {"Write", "Edit", "MultiEdit", "NotebookEdit", "Bash", "Monitor", "PowerShell", "Agent", "Task", "EnterWorktree", "ExitWorktree"}
    for event in ("SubagentStart", "SubagentStop"):
        (group,) = groups[event]
        assert "matcher" not in group  # every agent type
    for event_groups in groups.values():
        (handler,) = event_groups[0]["hooks"]
        assert handler["command"] == EXPECTED_COMMAND and os.path.isabs(handler["command"].split()[0])
    assert stat.S_IMODE(path.stat().st_mode) == 0o644 & ~_umask()
    assert not path.with_name("settings.json.worktree-guard.bak").exists()  # nothing to back up


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_install_twice_is_install_once(repo: Repo) -> None:
    path = settings_of(repo)
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(OTHER_USERS_SETTINGS))
    assert guard("install", "--project", cwd=repo.main).returncode == 0
    once = path.read_bytes()
    backup = path.with_name("settings.json.worktree-guard.bak")
    first_backup = backup.read_bytes()
    second = guard("install", "--project", cwd=repo.main)
    assert second.returncode == 0 and "already installed" in second.stdout
    assert path.read_bytes() == once
    assert backup.read_bytes() == first_backup == json.dumps(OTHER_USERS_SETTINGS).encode()


def test_install_keeps_every_other_key_and_hook_and_uninstall_restores_them(repo: Repo) -> None:
    path = settings_of(repo)
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(OTHER_USERS_SETTINGS, indent=4))
    path.chmod(0o600)
    assert guard("install", "--project", cwd=repo.main).returncode == 0
    installed = json.loads(path.read_text())
    for key in ("model", "permissions", "env", "statusLine"):
        assert installed[key] == OTHER_USERS_SETTINGS[key]
    hooks = installed["hooks"]
    # The other users' groups come first, untouched; the guard's group is appended.
    assert hooks["PreToolUse"][:2] == OTHER_USERS_SETTINGS["hooks"]["PreToolUse"]
    assert hooks["PostToolUse"] == OTHER_USERS_SETTINGS["hooks"]["PostToolUse"]
    assert hooks["SubagentStop"][0] == OTHER_USERS_SETTINGS["hooks"]["SubagentStop"][0]
    assert len(hooks["PreToolUse"]) == 3 and len(hooks["SubagentStop"]) == 2 and len(hooks["SubagentStart"]) == 1
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.with_name("settings.json.worktree-guard.bak").read_text()) == OTHER_USERS_SETTINGS

    done = guard("uninstall", "--project", cwd=repo.main)
    assert done.returncode == 0 and "Removed 3" in done.stdout
    assert json.loads(path.read_text()) == OTHER_USERS_SETTINGS
    again = guard("uninstall", "--project", cwd=repo.main)
    assert again.returncode == 0 and "nothing changed" in again.stdout


def test_install_replaces_a_hand_written_guard_entry_and_keeps_its_neighbours(repo: Repo) -> None:
    """The README's hand-written entry (another path, other flags) shares a group with someone else's hook."""
    path = settings_of(repo, "settings.local.json")
    path.parent.mkdir(exist_ok=True)
    mixed = {"matcher": "Write|Bash", "hooks": [{"type": "command", "command": "/old/venv/bin/worktree-guard hook --mode warn"}, {"type": "command", "command": "other.sh"}]}
    path.write_text(json.dumps({"hooks": {"PreToolUse": [mixed]}}))
    assert guard("install", "--local", cwd=repo.main).returncode == 0
    groups = json.loads(path.read_text())["hooks"]["PreToolUse"]
    assert groups[0] == {"matcher": "Write|Bash", "hooks": [{"type": "command", "command": "other.sh"}]}
    assert [h["command"] for g in groups for h in g["hooks"] if is_guard_handler(h)] == [EXPECTED_COMMAND]


@pytest.mark.parametrize(
    "content, complaint",
    [
        ('{"hooks": {"PreToolUse": [}', "is not valid JSON (line 1, column 27"),
        ("// a comment\n{}", "is not valid JSON (line 1, column 1"),
        ("[1, 2]", "holds a JSON list, not an object"),
        ('{"hooks": []}', "`hooks` is a list, not an object"),
        ('{"hooks": {"PreToolUse": {"matcher": "Bash"}}}', "`hooks.PreToolUse` is a dict, not a list"),
    ],
)
def test_a_broken_settings_file_is_refused_and_left_untouched(repo: Repo, content: str, complaint: str) -> None:
    path = settings_of(repo)
    path.parent.mkdir(exist_ok=True)
    path.write_text(content)
    before = path.stat()
    for action in ("install", "uninstall"):
        done = guard(action, "--project", cwd=repo.main)
        assert done.returncode == 1
        assert str(path) in done.stderr and complaint in done.stderr and "Nothing was changed" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    assert path.read_text() == content and path.stat().st_mtime_ns == before.st_mtime_ns
    assert sorted(p.name for p in path.parent.iterdir() if p.is_file()) == ["settings.json"]  # no backup, no temp file


def test_a_symlinked_settings_file_stays_a_symlink(repo: Repo, tmp_path: Path) -> None:
    dotfiles = tmp_path / "dotfiles" / "claude-settings.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text('{"model": "opus"}')
    link = Path(os.environ["HOME"]) / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(dotfiles)
    assert guard("install", "--user", cwd=repo.main).returncode == 0
    assert link.is_symlink() and guard_handlers(json.loads(dotfiles.read_text()))
    assert json.loads(dotfiles.read_text())["model"] == "opus"


def test_an_unwritable_settings_location_is_a_clear_error(repo: Repo, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    done = guard("install", "--user", cwd=repo.main, env={"CLAUDE_CONFIG_DIR": str(blocker / "claude")})
    assert done.returncode == 1 and "Not a directory" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert blocker.read_text() == "not a directory"


def test_scopes_pick_claude_codes_files(repo: Repo, tmp_path: Path) -> None:
    home = Path(os.environ["HOME"])
    assert guard("install", cwd=repo.main).returncode == 0  # default: local
    assert guard_handlers(json.loads(settings_of(repo, "settings.local.json").read_text()))
    assert guard("install", "--user", cwd=repo.main).returncode == 0
    assert guard_handlers(json.loads((home / ".claude" / "settings.json").read_text()))
    config_dir = tmp_path / "cc-config"
    assert guard("install", "--user", cwd=repo.main, env={"CLAUDE_CONFIG_DIR": str(config_dir)}).returncode == 0
    assert guard_handlers(json.loads((config_dir / "settings.json").read_text()))
    # Inside a linked worktree, --project means that checkout's own .claude/.
    assert guard("install", "--project", cwd=repo.worktree).returncode == 0
    assert (repo.worktree / ".claude" / "settings.json").exists()
    assert not settings_of(repo).exists()


def test_the_installed_command_judges_a_subagent_call_from_its_worktree(repo: Repo) -> None:
    """Claude Code runs the command through `sh -c` with the sub-agent's worktree as cwd and CLAUDE_PROJECT_DIR
    still at the launch directory: the command must find the guard and judge the call there."""
    assert guard("install", "--project", cwd=repo.main).returncode == 0
    (handler,) = guard_handlers(json.loads(settings_of(repo).read_text()))["PreToolUse"][0]["hooks"]
    payload = subagent_payload(repo, "Write", {"file_path": str(repo.main / "src" / "x.py"), "content": "x"})
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env.update(CLAUDE_PROJECT_DIR=str(repo.main), PATH="/usr/bin:/bin")
    done = subprocess.run(["sh", "-c", handler["command"]], cwd=repo.worktree, input=json.dumps(payload), capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stdout)["hookSpecificOutput"]
    assert reply["permissionDecision"] == "deny" and "WG101" in reply["permissionDecisionReason"]


def test_is_guard_handler_recognises_the_guard_and_nothing_else() -> None:
    ours = [
        {"type": "command", "command": "/v/bin/worktree-guard hook"},
        {"type": "command", "command": "'/path with space/worktree-guard' hook --mode warn"},
        {"type": "command", "command": "WORKTREE_GUARD_MODE=warn /v/bin/worktree-guard hook --runtime codex"},
        {"type": "command", "command": "/bin/sh -c '/v/bin/worktree-guard hook'"},
        {"type": "command", "command": "/v/bin/pypy3 -OO -X utf8 -m worktree_guard hook --isolated"},
        {"type": "command", "command": "/v/bin/python3 -m worktree_guard hook"},
        {"type": "command", "command": "/v/bin/worktree-guard", "args": ["hook"]},
        {"type": "command", "command": "/v/bin/python -S -P /v/lib/python3.11/site-packages/worktree_guard/fast_hook.py"},
        {"type": "command", "command": "/v/bin/python3 -I /src/worktree_guard/fast_hook.py --mode warn"},
        {"type": "command", "command": "/v/bin/python3 -W ignore -X utf8 -S /src/worktree_guard/fast_hook.py"},
    ]
    theirs = [
        {"type": "command", "command": "worktree-guard check --tool Write"},
        {"type": "command", "command": "echo worktree-guard hook"},
        {"type": "command", "command": "my-worktree-guard hook"},
        {"type": "command", "command": "worktree-guard hook"},  # not absolute: not known to be the guard's
        {"type": "command", "command": "/v/bin/python3 /x/other_guard/fast_hook.py"},
        {"type": "http", "url": "http://x/worktree-guard hook"},
        {"type": "command", "command": "unbalanced 'quote"},
        "not a handler",
    ]
    assert all(is_guard_handler(h) for h in ours)
    assert not any(is_guard_handler(h) for h in theirs)


@pytest.mark.parametrize("command", [
    "python3 - /v/worktree_guard/fast_hook.py",  # runs its input, not the hook
    "python3 --version /v/worktree_guard/fast_hook.py",  # prints and exits
    "python3 -V /v/worktree_guard/fast_hook.py",
    "python3 -h /v/worktree_guard/fast_hook.py",
    "python3 -i /v/worktree_guard/fast_hook.py",
    "python3 -c 'print(1)' /v/worktree_guard/fast_hook.py",
    "pythonfoo /v/worktree_guard/fast_hook.py",  # not absolute
    "./python3 /v/worktree_guard/fast_hook.py",  # relative: from the agent's worktree
    "python3 worktree_guard/fast_hook.py",
    "python3 /v/worktree_guard/fast_hook.py && curl evil",  # runs more
    "python3 /v/worktree_guard/fast_hook.py; curl evil",
    "python3 /v/worktree_guard/fast_hook.py | tee /tmp/x",
    "python3 /v/worktree_guard/fast_hook.py > /dev/null",  # its answer goes nowhere
    "python3 /v/worktree_guard/fast_hook.py & curl evil",
    "python3 /v/worktree_guard/fast_hook.py $(curl evil)",
    "python3 /v/worktree_guard/fast_hook.py\ncurl evil",
    "/v/bin/worktree-guard hook || true",
    "python3 -m worktree_guard hook; curl evil",
])
def test_a_handler_that_runs_something_else_or_more_is_not_the_guards(command: str) -> None:
    """doctor counts what is_guard_handler recognises as the guard's coverage: these were counted."""
    from worktree_guard.doctor import guard_executable

    assert not is_guard_handler({"type": "command", "command": command})
    assert guard_executable(command, None) == (False, None)


@pytest.mark.parametrize("name", [None, "python3.12d", "python3-intel64", "pypy3", "python3.13t"])
def test_every_command_install_writes_is_recognised_as_the_guards(name: str | None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """For every runtime (`hook_command`, placed as its adapter places it): recognised, and the program it starts
    resolved to this interpreter — under any name it has (a debug or vendor build's was not recognised, and a
    re-install added a second entry beside the first)."""
    from worktree_guard.doctor import guard_executable
    from worktree_guard.install import SCRIPT_KEY, hook_command, hook_configs, with_guard

    if name is not None:
        link = tmp_path / "bin" / name
        link.parent.mkdir()
        link.symlink_to(sys.executable)
        monkeypatch.setattr(sys, "executable", str(link))
        settings: dict[str, Any] = {}
        for _ in range(2):
            settings, _ = with_guard(settings, tmp_path / "settings.json", hook_command())
        assert len(settings["hooks"]["PreToolUse"]) == 1  # a re-install replaces, never duplicates

    configs = hook_configs()
    assert {"claude-code", "codex", "gemini", "copilot", "cline", "cursor"} <= set(configs)
    for name, config in configs.items():
        entries = config.entries(hook_command(name))
        if config.layout == "script":
            handlers = [{"type": "command", "command": entries[SCRIPT_KEY].rstrip().splitlines()[-1].removeprefix("exec ")}]
        else:
            handlers = [h for entry in entries.values() for h in entry.get("hooks", [entry])]
        assert handlers, name
        for handler in handlers:
            assert is_guard_handler(handler), (name, handler)
            command = handler.get("command", handler.get("bash"))
            assert guard_executable(command, handler.get("args")) == (True, os.path.abspath(sys.executable)), (name, command)


# --- the plugin's launcher (hooks/worktree-guard-hook) -----------------------------------------------------


def _launch(payload: dict[str, Any], *, launcher: Path = LAUNCHER, env: dict[str, str], cwd: Path) -> dict[str, Any] | None:
    env = {"WT_GUARD_DAEMON": "0", **env}  # judged in-process: no daemon left behind per test HOME
    done = subprocess.run(["/bin/sh", str(launcher)], input=json.dumps(payload), capture_output=True, text=True, env=env, cwd=cwd, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout) if done.stdout.strip() else None


def _plugin_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "plugin"
    shutil.copytree(REPO_ROOT / "hooks", copy / "hooks")
    shutil.copytree(REPO_ROOT / ".claude-plugin", copy / ".claude-plugin")
    return copy


def test_plugin_manifest_does_not_name_the_auto_loaded_hooks_file() -> None:
    manifest = json.loads((REPO_ROOT / ".claude-plugin" / "plugin.json").read_text())
    assert manifest["name"] == "worktree-guard" and "hooks" not in manifest  # "Duplicate hooks file" otherwise
    hooks = json.loads((REPO_ROOT / "hooks" / "hooks.json").read_text())["hooks"]
    assert hooks["PreToolUse"][0]["matcher"] == PRE_TOOL_USE_MATCHER
    assert {"Bash", "Monitor", "PowerShell"} <= set(hooks["PreToolUse"][0]["matcher"].split("|"))  # every shell tool
    assert sorted(hooks) == ["PreToolUse", "SubagentStart", "SubagentStop"]
    assert os.access(LAUNCHER, os.X_OK)


def test_launcher_runs_the_guard_from_the_plugins_venv(repo: Repo, tmp_path: Path) -> None:
    copy = _plugin_copy(tmp_path)
    (copy / ".venv").symlink_to(Path(sys.executable).parent.parent)  # this test run's venv
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"]}
    payload = subagent_payload(repo, "Write", {"file_path": str(repo.main / "x.txt"), "content": "x"})
    out = _launch(payload, launcher=copy / "hooks" / "worktree-guard-hook", env=env, cwd=repo.worktree)
    assert out is not None and "WG101" in out["hookSpecificOutput"]["permissionDecisionReason"]
    inside = subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "x.txt"), "content": "x"})
    assert _launch(inside, launcher=copy / "hooks" / "worktree-guard-hook", env=env, cwd=repo.worktree) is None


def test_launcher_ignores_a_worktree_guard_package_in_the_agents_cwd(repo: Repo, tmp_path: Path) -> None:
    """An agent must not be able to replace the guard by writing `worktree_guard/` into its worktree."""
    fake = repo.worktree / "worktree_guard"
    fake.mkdir()
    (fake / "__init__.py").write_text("")
    (fake / "cli.py").write_text("def main(argv):\n    print('{}')\n    return 0\n")
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"], "WT_GUARD_PYTHON": sys.executable}
    payload = subagent_payload(repo, "Write", {"file_path": str(repo.main / "x.txt"), "content": "x"})
    out = _launch(payload, env=env, cwd=repo.worktree)
    assert out is not None and out["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_launcher_fails_closed_when_the_package_cannot_be_imported(repo: Repo, tmp_path: Path) -> None:
    no_site = tmp_path / "python-without-packages"
    no_site.write_text(f'#!/bin/sh\nexec "{sys.executable}" -S "$@"\n')
    no_site.chmod(0o755)
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"], "WT_GUARD_PYTHON": str(no_site)}
    main_agent_write = subagent_payload(repo, "Write", {"file_path": str(repo.main / "x.txt")}, cwd=repo.main, agent_id=None)
    out = _launch(main_agent_write, env=env, cwd=tmp_path)
    assert out is not None
    reply = out["hookSpecificOutput"]
    assert reply["permissionDecision"] == "deny"
    assert "cannot be imported" in reply["permissionDecisionReason"] and reply["permissionDecisionReason"].endswith("[worktree-guard WG000]")
    # A SubagentStop is never blocked by a broken install (that would trap the sub-agent); the user is told.
    stop = {"hook_event_name": "SubagentStop", "cwd": str(repo.worktree), "agent_id": "a1", "agent_type": "general-purpose"}
    out = _launch(stop, env=env, cwd=tmp_path)
    assert out is not None and set(out) == {"systemMessage"} and "cannot be imported" in out["systemMessage"]


def test_launcher_fails_closed_without_any_python(repo: Repo, tmp_path: Path) -> None:
    copy = _plugin_copy(tmp_path)
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    env = {"PATH": str(empty)}
    payload = subagent_payload(repo, "Bash", {"command": "ls"})
    out = _launch(payload, launcher=copy / "hooks" / "worktree-guard-hook", env=env, cwd=tmp_path)
    assert out is not None and out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "no python3" in out["hookSpecificOutput"]["permissionDecisionReason"]


def test_hook_answers_subagent_start_and_stop_without_a_tool_call_error(repo: Repo) -> None:
    """`install` registers these events too: the hook must answer them as themselves, never with WG000 or a
    PreToolUse-shaped reply (until the leak check lands they simply pass)."""
    for event in ("SubagentStart", "SubagentStop"):
        payload = {"hook_event_name": event, "cwd": str(repo.worktree), "agent_id": repo.agent_id, "agent_type": "general-purpose", "session_id": "s"}
        result = run_hook_process(payload)
        assert result.returncode == 0 and "WG000" not in result.stdout, result.stdout
        specific = (result.output or {}).get("hookSpecificOutput", {})
        assert specific.get("hookEventName", event) == event, result.stdout
