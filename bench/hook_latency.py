"""Time the hook as a whole process against a bare interpreter, side by side, and report medians, ratios and RSS.

    .venv/bin/python bench/hook_latency.py [--rounds N] [--seed S] [--before DIR]

Builds a real repository with a linked worktree (a sub-agent's, `.claude/worktrees/agent-…`) in a temp dir and
sends the hook the payloads Claude Code sends for that sub-agent (`CALLS`: Write inside its worktree (pass),
Write into the main checkout (deny), Bash with the heredoc commit idiom (pass), Bash `cd <main> && git switch
main` (deny), and an Agent call (a rewrite)). Each is run through every way of starting the hook
(`HOOK_COMMANDS`), with the daemon warm, and without it:

  fast_hook                 python -S -P …/worktree_guard/fast_hook.py   (the command `install` writes)
  worktree-guard-hook       the console script of the hook alone
  worktree-guard hook       the full CLI's console script
  fast_hook in-process      fast_hook with WT_GUARD_DAEMON=0             (first call, CI, containers, sandboxes)
  worktree-guard hook in-process

Each other runtime's installed command (`fast_hook --runtime R`) is timed on that runtime's own payloads
(`runtime_payloads`, a pass and a deny each); a `Call` may also name its own command lines (`commands`: a
label, argv and environment each), which otherwise are HOOK_COMMANDS. The baselines: `python -S -c pass`
(interpreter start without site-packages; the strict one) and `python -c pass` (with this venv's
site-packages, whose .pth files an editable install makes costly). All measurements of a round run in a
shuffled order, so that machine noise spreads over all of them; the table shows medians over rounds. Besides
the wall-clock medians, the CPU time (user + system, from wait4) of each process is reported: on a machine
shared with other work it moves far less than wall time. Peak RSS is measured in separate, untimed runs under
GNU time (`/usr/bin/time -f %M`): wait4's ru_maxrss of a child spawned from this process would include this
process's own memory from before the exec. For the daemon it is its VmHWM.

`--before DIR` adds the hook of another copy of the package for comparison, run in-process as `worktree-guard
hook` ran it there (e.g. `git archive <rev> worktree_guard | tar -x -C DIR`).

The hook runs with a temporary HOME, XDG_CACHE_HOME and WT_GUARD_DAEMON_DIR (its own daemon and table cache); the package's
modules are byte-compiled first, as `pip install` does (this environment may set PYTHONDONTWRITEBYTECODE).
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from worktree_guard import client  # noqa: E402

PYTHON = sys.executable
BIN = Path(sys.executable).parent
FAST_HOOK = [PYTHON, "-S", "-P", str(REPO_ROOT / "worktree_guard" / "fast_hook.py")]
HEREDOC_COMMIT = "git add -A && git commit -m \"$(cat <<'EOF'\nFix the parser\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\""
#: Issue 7's goals for the daemon path: fast_hook at most this many times `python -S -c pass`.
DAEMON_GOALS = {"Write pass": 2.0, "Bash pass (heredoc commit)": 3.0}
#: Issue 12's goals for the path without a daemon: fast_hook in-process at most this many times `python -c pass`.
IN_PROCESS_GOALS = {"Write pass": 2.0, "Bash pass (heredoc commit)": 2.5}
#: Every way of starting the hook: (label, argv, extra environment).
HOOK_COMMANDS: list[tuple[str, list[str], dict[str, str]]] = [
    ("fast_hook", FAST_HOOK, {}),
    ("worktree-guard-hook", [str(BIN / "worktree-guard-hook")], {}),
    ("worktree-guard hook", [str(BIN / "worktree-guard"), "hook"], {}),
    ("fast_hook in-process", FAST_HOOK, {"WT_GUARD_DAEMON": "0"}),
    ("worktree-guard hook in-process", [str(BIN / "worktree-guard"), "hook"], {"WT_GUARD_DAEMON": "0"}),
]
DAEMON_COMMAND, IN_PROCESS_COMMAND = "fast_hook", "fast_hook in-process"


@dataclass
class Call:
    """One row of the table: a payload, and the command lines to send it to (default HOOK_COMMANDS)."""

    name: str
    body: dict
    commands: list[tuple[str, list[str], dict[str, str]]] | None = None


@dataclass
class Measure:
    """One command line with one stdin, run many times."""

    label: str
    argv: list[str]
    stdin: bytes = b""
    env: dict[str, str] = field(default_factory=dict)
    cwd: str = "/"
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    rss_kib: list[int] = field(default_factory=list)
    output: bytes = b""

    def rss(self) -> str:
        return f"{statistics.median(self.rss_kib) / 1024:.1f}" if self.rss_kib else "n/a"


GNU_TIME = "/usr/bin/time"


def run_once(m: Measure, base_env: dict[str, str], *, rss: bool = False) -> None:
    """Spawn, wait, record the wall time (or, with `rss`, the peak RSS under GNU time); stdin from a file."""
    with tempfile.TemporaryFile() as stdin:
        stdin.write(m.stdin)
        stdin.seek(0)
        read_end, write_end = os.pipe()
        actions = [(os.POSIX_SPAWN_DUP2, stdin.fileno(), 0), (os.POSIX_SPAWN_DUP2, write_end, 1), (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0)]
        env = {**base_env, **m.env}
        argv = m.argv
        report = None
        if rss:
            report = tempfile.NamedTemporaryFile(suffix=".rss")
            argv = [GNU_TIME, "-f", "%M", "-o", report.name, *m.argv]
        cwd = os.getcwd()
        os.chdir(m.cwd)
        try:
            started = time.perf_counter()
            pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
            _, status, usage = os.wait4(pid, 0)
            elapsed = time.perf_counter() - started
        finally:
            os.chdir(cwd)
        os.close(write_end)
        with os.fdopen(read_end, "rb") as out:
            m.output = out.read()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{m.label}: exit status {status}")
    if report is not None:
        with report:
            m.rss_kib.append(int(report.read().split()[-1]))
    else:
        m.seconds.append(elapsed)
        m.cpu.append(usage.ru_utime + usage.ru_stime)


def git(*args: str, cwd: Path) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x.invalid", "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x.invalid", "GIT_CONFIG_GLOBAL": "/dev/null"}
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env)


def make_repo(base: Path) -> tuple[Path, Path]:
    main = base / "repo"
    (main / "src").mkdir(parents=True)
    git("init", "-q", "-b", "main", cwd=main)
    (main / "src" / "app.py").write_text("print('app')\n")
    git("add", "-A", cwd=main)
    git("commit", "-q", "-m", "init", cwd=main)
    worktree = main / ".claude" / "worktrees" / "agent-a1234567890abcdef"
    git("worktree", "add", "-q", "-b", "worktree-agent-a1234567890abcdef", str(worktree), cwd=main)
    git("worktree", "add", "-q", "-b", "sibling", str(main / ".claude" / "worktrees" / "agent-b"), cwd=main)
    return main, worktree


def payloads(main: Path, worktree: Path) -> dict[str, dict]:
    """The Claude Code payloads of CALLS, by name (bench/daemon_wait.py sends them too)."""
    return {c.name: c.body for c in calls(main, worktree)}


def calls(main: Path, worktree: Path) -> list[Call]:
    def call(tool: str, tool_input: dict) -> dict:
        return {
            "session_id": "5f1c2a4e-0000-4000-8000-000000000001",
            "transcript_path": "/home/u/.claude/projects/-repo/5f1c2a4e.jsonl",
            "cwd": str(worktree),
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": "toolu_01BENCH",
            "agent_id": "a1234567890abcdef",
            "agent_type": "general-purpose",
        }

    dispatch_rule = (REPO_ROOT / "worktree_guard" / "rules" / "dispatch.py").exists()
    agent_label = "Agent rewrite" if dispatch_rule else "Agent (no dispatch rule in this checkout: a pass)"
    return [
        Call("Write pass", call("Write", {"file_path": str(worktree / "src" / "new.py"), "content": "x = 1\n"})),
        Call("Write deny", call("Write", {"file_path": str(main / "src" / "app.py"), "content": "x = 1\n"})),
        Call("Bash pass (heredoc commit)", call("Bash", {"command": HEREDOC_COMMIT, "description": "Commit"})),
        Call("Bash deny", call("Bash", {"command": f"cd {main} && git switch main", "description": "Switch"})),
        Call(agent_label, call("Agent", {"description": "Explore", "prompt": "Look around", "subagent_type": "general-purpose"})),
    ]


def runtime_payloads(main: Path, worktree: Path, base: Path) -> dict[str, tuple[str, dict]]:
    """label → (runtime, payload): each other runtime's installed command (`fast_hook --runtime R`) on its own
    payload shapes (research/runtimes-observed.md), a file write inside the worktree and a shell redirect into main."""
    rollout = base / "codex-rollout.jsonl"  # Codex's session directory comes from its transcript's first record
    rollout.write_text(json.dumps({"type": "session_meta", "payload": {"id": "s", "cwd": str(worktree)}}) + "\n")
    inside, leak = str(worktree / "src" / "new.py"), f"echo x > {main}/leak.txt"
    codex = {"session_id": "s", "turn_id": "t", "transcript_path": str(rollout), "cwd": str(worktree), "hook_event_name": "PreToolUse", "model": "gpt-5.5", "permission_mode": "bypassPermissions", "tool_use_id": "call_b"}
    gemini = {"session_id": "s", "transcript_path": "/x", "cwd": str(worktree), "hook_event_name": "BeforeTool", "timestamp": "2026-12-01T16:53:08.259Z"}
    copilot = {"sessionId": "s", "timestamp": 1796144161357, "cwd": str(worktree)}
    cline = {"hookName": "tool_call", "taskId": "t", "workspaceRoots": [str(worktree)], "workspaceInfo": {"rootPath": str(worktree)}, "agent_id": "a", "parent_agent_id": None}
    cursor = {"hook_event_name": "preToolUse", "conversation_id": "c", "generation_id": "g", "workspace_roots": [str(worktree)]}
    return {
        "Codex apply_patch pass": ("codex", {**codex, "tool_name": "apply_patch", "tool_input": {"command": f"*** Begin Patch\n*** Add File: {inside}\n+x\n*** End Patch\n"}}),
        "Codex Bash deny": ("codex", {**codex, "tool_name": "Bash", "tool_input": {"command": leak}}),
        "Gemini write_file pass": ("gemini", {**gemini, "tool_name": "write_file", "tool_input": {"file_path": inside, "content": "x"}}),
        "Gemini run_shell_command deny": ("gemini", {**gemini, "tool_name": "run_shell_command", "tool_input": {"command": leak}}),
        "Copilot create pass": ("copilot", {**copilot, "toolName": "create", "toolArgs": {"path": inside, "file_text": "x"}}),
        "Copilot bash deny": ("copilot", {**copilot, "toolName": "bash", "toolArgs": {"command": leak, "description": "w"}}),
        "Cline editor pass": ("cline", {**cline, "tool_call": {"id": "c", "name": "editor", "input": {"path": inside, "new_text": "x"}}}),
        "Cline run_commands deny": ("cline", {**cline, "tool_call": {"id": "c", "name": "run_commands", "input": {"commands": [leak]}}}),
        "Cursor Write pass": ("cursor", {**cursor, "tool_name": "Write", "tool_input": {"file_path": inside}}),
        "Cursor Shell deny": ("cursor", {**cursor, "tool_name": "Shell", "tool_input": {"command": leak}}),
    }


def decision(output: bytes) -> str:
    """pass, deny, allow, ask, warn — whichever runtime's words the reply is in."""
    if not output.strip() or output.strip() == b"{}":
        return "pass"
    reply = json.loads(output)
    specific = reply.get("hookSpecificOutput", {})
    if "overrideInput" in reply or reply.get("cancel") is True:
        return "deny"  # Cline: the call is turned into one that reports the reason
    found = specific.get("permissionDecision") or reply.get("permissionDecision") or reply.get("decision") or reply.get("permission")
    return found or ("warn" if "systemMessage" in reply else "?")


def machine() -> str:
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")
    except OSError:
        model = platform.processor() or "?"
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()} ({PYTHON})"


def daemon_memory(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        return f"VmHWM {int(fields['VmHWM'].split()[0]) / 1024:.1f} MiB, VmRSS {int(fields['VmRSS'].split()[0]) / 1024:.1f} MiB"
    except (OSError, KeyError, ValueError):
        return "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--before", metavar="DIR", help="a directory holding another worktree_guard package to time in-process")
    args = parser.parse_args()
    compileall.compile_dir(str(REPO_ROOT / "worktree_guard"), quiet=1)
    before: list[str] = []
    if args.before:
        before_dir = os.path.realpath(args.before)
        compileall.compile_dir(os.path.join(before_dir, "worktree_guard"), quiet=1)
        before = [PYTHON, "-c", f"import sys; sys.path.insert(0, {before_dir!r}); from worktree_guard.cli import main; sys.exit(main(['hook']))"]

    with tempfile.TemporaryDirectory(prefix="wg-bench-") as temp:
        base = Path(os.path.realpath(temp))
        main_dir, worktree = make_repo(base)
        home = base / "home"
        home.mkdir()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("WORKTREE_GUARD_", "WT_GUARD_"))}
        run_dir = base / "run"
        run_dir.mkdir(mode=0o700)
        env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_CACHE_HOME=str(home / ".cache"), WT_GUARD_DAEMON_DIR=str(run_dir / "worktree-guard"), WT_GUARD_DAEMON_IDLE="120")
        env.pop("CLAUDE_CONFIG_DIR", None)

        measures: list[Measure] = [
            Measure("python -S -c pass", [PYTHON, "-S", "-c", "pass"]),
            Measure("python -c pass", [PYTHON, "-c", "pass"]),
        ]
        rows: list[tuple[str, list[Measure]]] = []
        for row in calls(main_dir, worktree):
            stdin = json.dumps(row.body).encode()
            group = [Measure(label, argv, stdin, env=dict(extra), cwd=str(worktree)) for label, argv, extra in (row.commands or HOOK_COMMANDS)]
            if before:
                # its own cache directory: the two packages' cache files may differ in format or key
                group.append(Measure(f"before ({args.before})", before, stdin, env={"WT_GUARD_DAEMON": "0", "XDG_CACHE_HOME": str(home / ".cache-before")}, cwd=str(worktree)))
            rows.append((row.name, group))
            measures.extend(group)
        for name, (runtime, body) in runtime_payloads(main_dir, worktree, base).items():
            group = [Measure(f"fast_hook --runtime {runtime}", [*FAST_HOOK, "--runtime", runtime], json.dumps(body).encode(), cwd=str(worktree))]
            rows.append((name, group))
            measures.extend(group)

        # Start the daemon (the first call spawns it) and wait until it serves.
        first = rows[0][1][0]
        run_once(first, env)
        key_env = {**env}
        socket_path = Path(client.socket_dir(key_env)) / f"{client.daemon_key(key_env)}.sock"
        deadline = time.monotonic() + 60
        while not socket_path.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        lock = socket_path.with_suffix(".lock")
        daemon_pid = int(lock.read_text().split()[0]) if lock.exists() else None
        first.seconds.clear()
        first.rss_kib.clear()
        for m in measures:  # warm-up: file caches, the table cache, the daemon's first judgements
            run_once(m, env)
            m.seconds.clear()
        if os.access(GNU_TIME, os.X_OK):
            for m in measures:
                for _ in range(5):
                    run_once(m, env, rss=True)

        rng = random.Random(args.seed)
        for _ in range(args.rounds):
            order = list(measures)
            rng.shuffle(order)
            for m in order:
                run_once(m, env)

        # Every way of starting the hook gave the in-process answer.
        for name, group in rows:
            answers = {m.label: decision(m.output) for m in group}
            if len(set(answers.values())) != 1:
                raise SystemExit(f"{name}: the commands disagree: {answers}")
        served = "unknown"
        saved_env, saved_cwd = dict(os.environ), os.getcwd()
        try:
            os.environ.clear()
            os.environ.update(env)
            os.chdir(worktree)
            client.ask_daemon(["hook"], rows[0][1][0].stdin, spawn=False)
            served = "yes"
        except client.NoDaemon as e:
            served = f"no ({e})"
        finally:
            os.environ.clear()
            os.environ.update(saved_env)
            os.chdir(saved_cwd)
        daemon_mem = daemon_memory(daemon_pid) if daemon_pid else "no daemon"
        current = int(lock.read_text().split()[0]) if lock.exists() else None
        if current != daemon_pid:
            served = f"{served}; the daemon was replaced during the run (pid {daemon_pid} → {current}): a file of the package changed?"
        for pid in {daemon_pid, current} - {None}:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass

    strict = statistics.median(measures[0].seconds)
    loose = statistics.median(measures[1].seconds)
    print(f"machine: {machine()}")
    print(f"rounds: {args.rounds} (shuffled within each round); daemon warm and serving: {served}; daemon memory: {daemon_mem}")
    print()
    loose_cpu = statistics.median(measures[1].cpu)
    print("| call | command | median ms | × `python -S -c pass` | × `python -c pass` | CPU ms | CPU × `python -c pass` | peak RSS MiB |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for m in measures[:2]:
        t, c = statistics.median(m.seconds), statistics.median(m.cpu)
        print(f"| baseline | `{m.label}` | {t * 1000:.1f} | {t / strict:.2f} | {t / loose:.2f} | {c * 1000:.1f} | {c / loose_cpu:.2f} | {m.rss()} |")
    for name, group in rows:
        for m in group:
            t, c = statistics.median(m.seconds), statistics.median(m.cpu)
            print(f"| {name} ({decision(m.output)}) | {m.label} | {t * 1000:.1f} | {t / strict:.2f} | {t / loose:.2f} | {c * 1000:.1f} | {c / loose_cpu:.2f} | {m.rss()} |")
    print()
    print("| call | daemon (fast_hook) × `python -c pass` | in-process (fast_hook) × `python -c pass` | daemon × `python -S -c pass` | in-process × `python -S -c pass` | in-process CPU × `python -c pass` CPU |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, group in rows:
        by_label = {m.label: m for m in group}
        if DAEMON_COMMAND not in by_label or IN_PROCESS_COMMAND not in by_label:
            continue
        d, i = statistics.median(by_label[DAEMON_COMMAND].seconds), statistics.median(by_label[IN_PROCESS_COMMAND].seconds)
        ic = statistics.median(by_label[IN_PROCESS_COMMAND].cpu)
        print(f"| {name} | {d / loose:.2f} | {i / loose:.2f} | {d / strict:.2f} | {i / strict:.2f} | {ic / loose_cpu:.2f} |")
    print()
    for label, commands in (("served by the daemon", ("fast_hook", "worktree-guard-hook", "worktree-guard hook")), ("judging in-process", ("fast_hook in-process", "worktree-guard hook in-process"))):
        peaks = [max(m.rss_kib) for _, group in rows for m in group if m.rss_kib and m.label in commands]
        if peaks:
            print(f"largest peak RSS of a hook process {label}: {max(peaks) / 1024:.1f} MiB (goal: under 40)")
    groups = dict(rows)
    for name, goal in DAEMON_GOALS.items():
        fast = statistics.median(next(m for m in groups[name] if m.label == DAEMON_COMMAND).seconds)
        print(f"goal (issue 7) {name}: fast_hook via the daemon {fast / strict:.2f}× `python -S -c pass` (≤ {goal}: {'met' if fast / strict <= goal else 'NOT met'}), {fast / loose:.2f}× `python -c pass`")
    for name, goal in IN_PROCESS_GOALS.items():
        m = next(m for m in groups[name] if m.label == IN_PROCESS_COMMAND)
        wall, cpu = statistics.median(m.seconds), statistics.median(m.cpu)
        print(f"goal (issue 12) {name}: fast_hook in-process {wall / loose:.2f}× `python -c pass` (≤ {goal}: {'met' if wall / loose <= goal else 'NOT met'}); CPU {cpu / loose_cpu:.2f}×")
    shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
