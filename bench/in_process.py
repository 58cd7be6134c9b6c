"""The in-process path alone (issue 12's goal), side by side with another copy of the package.

    .venv/bin/python bench/in_process.py [--rounds N] [--before DIR]

Builds the repository and the Claude Code payloads of `bench/hook_latency.py` (a sub-agent's Write in its
worktree, the heredoc commit), then runs `fast_hook.py` with WT_GUARD_DAEMON=0 as whole processes, shuffled
within each round with `python -c pass` and `python -S -c pass` (and, with `--before DIR`, the `fast_hook.py`
of the package in DIR, e.g. from `git archive <rev> worktree_guard | tar -x -C DIR`). Prints medians of wall
and CPU time (user + system, from wait4) and the ratios to `python -c pass`. The first call of each command is
made before the rounds (it writes the entry-point and parse-table caches; each package has a cache directory
of its own). hook_latency.py times every way of
starting the hook, the daemon's included; this one only the path without a daemon, in fewer processes.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hook_latency import FAST_HOOK, PYTHON, calls, make_repo  # noqa: E402

PAYLOADS = ("Write pass", "Bash pass (heredoc commit)")


def run(argv: list[str], stdin: bytes, env: dict[str, str]) -> tuple[float, float]:
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, env=env, cwd="/")
    proc.stdin.write(stdin)
    proc.stdin.close()
    _, _, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--before", help="a directory holding another worktree_guard package")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="wg-in-process-") as tmp:
        base = Path(tmp)
        main_checkout, worktree = make_repo(base)
        bodies = {c.name: json.dumps(c.body).encode() for c in calls(main_checkout, worktree) if c.name in PAYLOADS}
        home = base / "home"
        home.mkdir()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("WORKTREE_GUARD_", "WT_GUARD_"))}
        env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_CACHE_HOME=str(home / ".cache"), WT_GUARD_DAEMON="0")
        hooks = {"this package": FAST_HOOK}
        if args.before:
            compileall.compile_dir(os.path.join(args.before, "worktree_guard"), quiet=1)
            hooks["before"] = [PYTHON, "-S", "-P", os.path.join(os.path.abspath(args.before), "worktree_guard", "fast_hook.py")]
        compileall.compile_dir(str(Path(FAST_HOOK[-1]).parent), quiet=1)
        commands = {"`python -c pass`": ([PYTHON, "-c", "pass"], b"", env), "`python -S -c pass`": ([PYTHON, "-S", "-c", "pass"], b"", env)}
        for index, (label, argv) in enumerate(hooks.items()):
            # Each package its own cache directory: their cache files (parse tables, entry points) may differ in
            # format or key, and a shared file would be rebuilt by each in turn.
            own = {**env, "XDG_CACHE_HOME": str(home / f".cache-{index}")}
            for name, body in bodies.items():
                commands[f"{name}, {label}"] = (argv, body, own)
        for argv, body, command_env in commands.values():
            run(argv, body, command_env)
        times: dict[str, list[tuple[float, float]]] = {k: [] for k in commands}
        for _ in range(args.rounds):
            order = list(commands)
            random.shuffle(order)
            for label in order:
                times[label].append(run(*commands[label]))
    medians = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in times.items()}
    wall, cpu = medians["`python -c pass`"]
    print(f"rounds: {args.rounds}; {PYTHON}")
    print("| command | wall ms | × `python -c pass` | CPU ms | CPU × `python -c pass` |")
    print("|---|---:|---:|---:|---:|")
    for label, (w, c) in medians.items():
        print(f"| {label} | {w * 1000:.1f} | {w / wall:.2f} | {c * 1000:.1f} | {c / cpu:.2f} |")


if __name__ == "__main__":
    main()
