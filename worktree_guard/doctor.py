"""`worktree-guard doctor` (SPEC §9): what the guard sees here, where each setting comes from, whether Claude Code
runs the hook, and a self-test that feeds the installed hook a known-bad call and shows it refused."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .runtimes.claude_code import GUARDED_TOOLS, LIFECYCLE_EVENTS

MANAGED_SETTINGS = "/etc/claude-code/managed-settings.json"
_EXACT_MATCHER = re.compile(r"[A-Za-z0-9_\-, |]*")


@dataclass
class HookEntry:
    """One handler in a settings file that runs `worktree-guard hook`."""

    settings_file: str
    event: str
    matcher: str
    command: str
    executable: str | None  # the program it starts, resolved; None when it cannot be found
    argv: list[str] = field(default_factory=list)  # how Claude Code starts it: `sh -c command`, or command + args
    covers: list[str] = field(default_factory=list)  # PreToolUse: guarded tools its matcher matches


@dataclass
class Wiring:
    files: dict[str, str]  # settings file → "ok" | "absent" | an error
    entries: list[HookEntry]
    #: The linked worktree doctor runs in (None in the main checkout): an agent there can write its settings files.
    agent_writable: str | None = None

    def agent_can_write(self, settings_file: str) -> bool:
        from .paths import inside

        return bool(self.agent_writable) and inside(os.path.realpath(settings_file), self.agent_writable)

    def counted(self) -> list[HookEntry]:
        """The entries that say what runs the guard: not those of a settings file an agent can write. An agent's
        `<W>/.claude/settings.local.json` naming the guard for every tool would hide the tools the user's own
        settings leave out, and its command is never run either (`installed_command`)."""
        return [e for e in self.entries if not self.agent_can_write(e.settings_file)]

    def not_counted(self) -> list[str]:
        """The settings files with guard entries that `counted` leaves out, each with why."""
        files = sorted({e.settings_file for e in self.entries if self.agent_can_write(e.settings_file)})
        return [f"{f}: an agent in {self.agent_writable} can write it; run doctor in the main checkout to check it" for f in files]

    def covered(self) -> set[str]:
        return {tool for e in self.counted() if e.event == "PreToolUse" and e.executable for tool in e.covers}

    def problems(self) -> list[str]:
        found = []
        missing = [t for t in GUARDED_TOOLS if t not in self.covered()]
        if missing:
            found.append(f"PreToolUse does not run worktree-guard for: {', '.join(missing)}")
        for event in LIFECYCLE_EVENTS:
            if not any(e.event == event and e.executable for e in self.counted()):
                found.append(f"{event} does not run worktree-guard: the leak check around sub-agents is off")
        found += [f"{e.settings_file}: {e.event} command {e.command!r}: program not found" for e in self.entries if not e.executable]
        found += [f"{path}: {state}" for path, state in self.files.items() if state not in ("ok", "absent")]
        return found


def settings_files(project_roots: list[str]) -> list[str]:
    """Claude Code's settings files for these project roots, the user's, and the managed one (hook-protocols §1.1)."""
    files = []
    for root in dict.fromkeys(project_roots):
        files += [os.path.join(root, ".claude", "settings.json"), os.path.join(root, ".claude", "settings.local.json")]
    config_dir = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    return files + [os.path.join(config_dir, "settings.json"), MANAGED_SETTINGS]


def matcher_matches(matcher: str | None, name: str) -> bool:
    """Claude Code's matcher rules: empty or `*` is everything, plain names are an exact list, else a regex."""
    if not matcher or matcher == "*":
        return True
    if _EXACT_MATCHER.fullmatch(matcher):
        return name in {part.strip() for part in re.split(r"[|,]", matcher)}
    try:
        return re.search(matcher, name) is not None
    except re.error:
        return False


def guard_executable(command: str, args: list[str] | None) -> tuple[bool, str | None]:
    """Does this handler run `worktree-guard hook`, and nothing else, and which program does it start, resolved
    (None when it cannot be run)? One recogniser for doctor and install: `install.guard_program`."""
    from .install import guard_program

    program = guard_program(command, args)
    if program is None:
        return False, None
    return True, _resolved(program)


def _resolved(program: str) -> str | None:
    """The program a handler starts, found as the shell finds it; None when it cannot be run."""
    program = os.path.expandvars(program)
    return shutil.which(program) if not os.path.isabs(program) else (program if os.access(program, os.X_OK) else None)


def read_wiring(paths: list[str], agent_writable: str | None = None) -> Wiring:
    files: dict[str, str] = {}
    entries: list[HookEntry] = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except FileNotFoundError:
            files[path] = "absent"
            continue
        except (OSError, ValueError) as e:
            files[path] = f"unreadable: {e}"
            continue
        files[path] = "ok"
        hooks = data.get("hooks") if isinstance(data, dict) else None
        for event, groups in (hooks or {}).items() if isinstance(hooks, dict) else []:
            for group in groups if isinstance(groups, list) else []:
                if not isinstance(group, dict):
                    continue
                matcher = str(group.get("matcher") or "")
                for handler in group.get("hooks") or []:
                    if not isinstance(handler, dict) or handler.get("type", "command") != "command":
                        continue
                    command = str(handler.get("command") or "")
                    runs_guard, program = guard_executable(command, handler.get("args"))
                    if runs_guard:
                        covers = [t for t in GUARDED_TOOLS if matcher_matches(matcher, t)] if event == "PreToolUse" else []
                        args = handler.get("args")
                        argv = [command, *map(str, args)] if isinstance(args, list) else ["sh", "-c", command]
                        entries.append(HookEntry(settings_file=path, event=event, matcher=matcher or "*", command=command, executable=program, argv=argv, covers=covers))
    return Wiring(files, entries, agent_writable)


def runtime_wiring(project_roots: list[str], agent_writable: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """Every other runtime's hook files (each scope) and the guard handlers in them: runtime → files.

    A file inside `agent_writable` (the linked worktree doctor runs in) is listed apart, as Claude Code's are
    (`Wiring.counted`): an agent there can write it, so its handlers go under `not_counted`, never `commands`."""
    from .install import CLAUDE_CODE, InstallError, hook_configs, is_guard_handler, is_guard_script, read_settings
    from .paths import inside

    found: dict[str, list[dict[str, Any]]] = {}
    for name, config in hook_configs().items():
        if name == CLAUDE_CODE:
            continue  # Claude Code's settings are read in full above (matchers, lifecycle events)
        files = []
        paths = [config.path(s, Path(root), os.environ) for s in config.files for root in ([*dict.fromkeys(project_roots)] if s != "user" else project_roots[:1])]
        for path in dict.fromkeys(paths):
            entry: dict[str, Any] = {"file": str(path), "state": "absent", "commands": []}
            if config.layout == "script":
                try:
                    text = path.read_text(encoding="utf-8")
                    entry["state"] = "ok"
                    if is_guard_script(text):
                        entry["commands"] = [text.rstrip().splitlines()[-1].removeprefix("exec ")]
                except FileNotFoundError:
                    pass
                except (OSError, UnicodeDecodeError) as e:
                    entry["state"] = f"unreadable: {e}"
            elif path.exists():
                try:
                    settings, _ = read_settings(path)
                    entry["state"] = "ok"
                    for items in (settings.get("hooks") or {}).values() if isinstance(settings.get("hooks"), dict) else []:
                        for item in items if isinstance(items, list) else []:
                            handlers = item.get("hooks", [item]) if isinstance(item, dict) else []
                            entry["commands"] += [h.get("command", h.get("bash")) for h in handlers if is_guard_handler(h)]
                except InstallError as e:
                    entry["state"] = str(e)
            if agent_writable and entry["commands"] and inside(os.path.realpath(path), agent_writable):
                entry["not_counted"], entry["commands"] = entry["commands"], []
                entry["note"] = f"an agent in {agent_writable} can write it; run doctor in the main checkout to check it"
            entry["runnable"] = [guard_executable(c, None)[1] is not None or _program_exists(c) for c in entry["commands"]]
            files.append(entry)
        found[name] = files
    return found


def _program_exists(command: str) -> bool:
    try:
        program = shlex.split(command)[0]
    except (ValueError, IndexError):
        return False
    return os.access(program, os.X_OK) if os.path.isabs(program) else shutil.which(program) is not None


def runtime_problems(wiring: dict[str, list[dict[str, Any]]]) -> list[str]:
    problems = []
    for name, files in wiring.items():
        for entry in files:
            if entry["state"] not in ("ok", "absent"):
                problems.append(f"{name}: {entry['file']}: {entry['state']}")
            problems += [f"{name}: {entry['file']}: program of {c!r} not found" for c, ok in zip(entry["commands"], entry["runnable"]) if not ok]
    return problems


def installed_command(wiring: Wiring) -> list[str]:
    """The hook command to test: the one Claude Code runs (first wired PreToolUse entry), else this install's.
    An entry from a settings file an agent can write (`Wiring.counted`) is never run: doctor would run its
    command as the user."""
    for entry in wiring.counted():
        if entry.event == "PreToolUse" and entry.executable:
            return entry.argv
    beside = os.path.join(os.path.dirname(sys.executable), "worktree-guard")
    program = beside if os.access(beside, os.X_OK) else shutil.which("worktree-guard")
    return [program, "hook"] if program else [sys.executable, "-m", "worktree_guard", "hook"]


def self_test(command: list[str], project_dir: str) -> dict[str, Any]:
    """Feed the hook, as a separate process, a sub-agent's Write into the main checkout of a fresh temp repository."""
    from .demo import make_repository

    with tempfile.TemporaryDirectory(prefix="wg-doctor-") as base:
        names = make_repository(os.path.realpath(base))
        target = os.path.join(names["MAIN"], "src", "doctor.py")
        payload = {
            "session_id": "worktree-guard-doctor",
            "cwd": names["WT"],
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Write",
            "tool_input": {"file_path": target, "content": "print('leak')\n"},
            "tool_use_id": "toolu_doctor",
            "agent_id": "a1b2c3d4e5f6a7b8c",
            "agent_type": "general-purpose",
        }
        env = {**os.environ, "CLAUDE_PROJECT_DIR": project_dir}
        started = time.perf_counter()
        try:
            result = subprocess.run(command, input=json.dumps(payload).encode(), capture_output=True, cwd=names["MAIN"], env=env, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as e:
            return {"command": command, "ok": False, "detail": f"the hook did not run: {e}"}
        elapsed = time.perf_counter() - started
        stdout = result.stdout.decode(errors="replace").strip()
        try:
            specific = json.loads(stdout).get("hookSpecificOutput", {}) if stdout else {}
        except ValueError:
            specific = {}
        decision = specific.get("permissionDecision") or ("pass" if not stdout else "unreadable reply")
        reason = specific.get("permissionDecisionReason", "")
        return {
            "command": command,
            "call": f"Write {target} from a sub-agent in {names['WT']}",
            "exit_code": result.returncode,
            "decision": decision,
            "reason": reason,
            "seconds": round(elapsed, 3),
            "ok": result.returncode == 0 and decision == "deny" and "WG101" in reason,
        }


def diagnose(cwd: str, agent_type: str | None, flags: dict[str, Any], run_self_test: bool = True) -> dict[str, Any]:
    """Everything doctor reports, as data."""
    from . import __version__
    from .engine import project_root_of, scope_for

    scope = scope_for(cwd, agent_type, flags=flags)
    settings = scope.settings.model_dump(mode="json")
    project = project_root_of(scope.layout) or scope.cwd
    writable = scope.layout.worktree_root if scope.layout.linked else None
    wiring = read_wiring(settings_files([project, scope.layout.worktree_root or scope.cwd]), writable)
    report: dict[str, Any] = {
        "version": __version__,
        "cwd": scope.cwd,
        "worktree_root": scope.layout.worktree_root,
        "layout_source": scope.layout.source,
        "shared_roots": scope.layout.shared_roots,
        "isolated": scope.isolation.isolated,
        "isolation_reason": scope.isolation.reason,
        "misplaced": scope.isolation.misplaced,
        "agent_definition": scope.definition.path if scope.definition else None,
        "configuration": {key: {"value": value, "source": scope.config.sources.get(key, "default")} for key, value in settings.items()},
        "settings_files": wiring.files,
        "hook_entries": [asdict(e) for e in wiring.entries],
        "not_counted": wiring.not_counted(),
        "problems": wiring.problems(),
    }
    report["runtimes"] = runtime_wiring([project, scope.layout.worktree_root or scope.cwd], writable)
    if not wiring.entries and any(f["commands"] for files in report["runtimes"].values() for f in files):
        report["problems"] = [p for p in report["problems"] if p.startswith(tuple(wiring.files))]  # not a Claude Code user
    report["problems"] += runtime_problems(report["runtimes"])
    if run_self_test:
        report["self_test"] = self_test(installed_command(wiring), project)
        unrun = sorted({e.settings_file for e in wiring.entries if wiring.agent_can_write(e.settings_file)})
        if unrun:
            report["self_test"]["not_run"] = [f"{f}: an agent in {writable} can write it; run doctor in the main checkout to test it" for f in unrun]
        if not report["self_test"]["ok"]:
            report["problems"].append("the self-test call was not refused")
    return report


def render(report: dict[str, Any]) -> str:
    lines = [f"worktree-guard {report['version']}", "", "Where this agent stands"]
    lines.append(f"  cwd            {report['cwd']}")
    lines.append(f"  worktree root  {report['worktree_root'] or '-'} ({report['layout_source']})")
    for root in report["shared_roots"] or ["-"]:
        lines.append(f"  shared root    {root}")
    lines.append(f"  isolated       {'yes' if report['isolated'] else 'no'}: {report['isolation_reason']}" + (" — MISPLACED: its isolation was not applied" if report["misplaced"] else ""))
    lines.append(f"  agent file     {report['agent_definition'] or '-'}")
    lines += ["", "Configuration (value, and where it came from)"]
    width = max(len(k) for k in report["configuration"])
    for key, item in report["configuration"].items():
        value = json.dumps(item["value"]) if not isinstance(item["value"], str) else item["value"]
        if isinstance(item["value"], list) and len(value) > 60:
            value = f"[{len(item['value'])} entries]"
        lines.append(f"  {key:<{width}}  {value}  ({item['source']})")
    lines += ["", "Claude Code settings"]
    for path, state in report["settings_files"].items():
        hooks = [e for e in report["hook_entries"] if e["settings_file"] == path]
        lines.append(f"  {path}: {state}" + (f", {len(hooks)} worktree-guard hook(s)" if hooks else ""))
        if any(note.startswith(f"{path}: ") for note in report.get("not_counted", [])):
            lines.append("    not counted: an agent can write this file; run doctor in the main checkout to check it")
        for e in hooks:
            covers = f" covers {', '.join(e['covers']) or 'no guarded tool'}" if e["event"] == "PreToolUse" else ""
            lines.append(f"    {e['event']} [{e['matcher']}] {e['command']}{covers}{'' if e['executable'] else ' — PROGRAM NOT FOUND'}")
    lines += ["", "Other runtimes (files and the worktree-guard hooks in them)"]
    for name, files in report.get("runtimes", {}).items():
        wired = [f for f in files if f["commands"]]
        lines.append(f"  {name}: " + ("wired in " + ", ".join(f["file"] for f in wired) if wired else "not wired"))
        for f in files:
            if f["state"] not in ("ok", "absent"):
                lines.append(f"    {f['file']}: {f['state']}")
            if f.get("not_counted"):
                lines.append(f"    {f['file']}: not counted: an agent can write this file; run doctor in the main checkout to check it")
    test = report.get("self_test")
    if test is not None:
        lines += ["", "Self-test"]
        lines.append(f"  ran      {shlex.join(test['command'])}")
        if "decision" in test:
            lines.append(f"  call     {test['call']}")
            lines.append(f"  answer   {test['decision']} (exit {test['exit_code']}, {test['seconds'] * 1000:.0f} ms)")
            if test["reason"]:
                lines.append(f"  reason   {test['reason']}")
        else:
            lines.append(f"  result   {test['detail']}")
        lines.append(f"  {'ok: the installed hook refused the call' if test['ok'] else 'FAILED: the call was not refused'}")
        lines += [f"  not run  {note}" for note in test.get("not_run", [])]
    lines += ["", "Problems" if report["problems"] else "No problems found."]
    lines += [f"  - {p}" for p in report["problems"]]
    return "\n".join(lines)
