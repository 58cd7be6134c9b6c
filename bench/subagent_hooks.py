"""Wall time of `worktree-guard hook` per event, as Claude Code runs it (a fresh process per payload).

Prints the median and the ratio to a PreToolUse Write, side by side, for SubagentStart (one `git status` per
shared checkout) and SubagentStop (the same again, then the comparison). Usage:

    .venv/bin/python bench/subagent_hooks.py [--rounds N] [--files N]

--files adds N untracked files to the main checkout, to see how `git status -uall` and fingerprints scale.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HOOK = [os.path.join(os.path.dirname(sys.executable), "worktree-guard"), "hook"]


def git(*args: str, cwd: str) -> None:
    subprocess.run(["git", "-c", "user.name=b", "-c", "user.email=b@example.invalid", *args], cwd=cwd, check=True, capture_output=True)


def build(base: str, files: int) -> tuple[str, str]:
    main = os.path.join(base, "repo")
    os.makedirs(os.path.join(main, "src"))
    git("init", "-q", "-b", "main", cwd=main)
    for i in range(50):
        with open(os.path.join(main, "src", f"m{i}.py"), "w") as f:
            f.write(f"x = {i}\n")
    git("add", "-A", cwd=main)
    git("commit", "-qm", "init", cwd=main)
    worktree = os.path.join(main, ".claude", "worktrees", "agent-a0000000000000001")
    git("worktree", "add", "-q", "-b", "w1", worktree, cwd=main)
    git("worktree", "add", "-q", "-b", "w2", os.path.join(main, ".claude", "worktrees", "agent-a0000000000000002"), cwd=main)
    git("worktree", "add", "-q", "-b", "w3", os.path.join(base, "outside"), cwd=main)
    os.makedirs(os.path.join(main, "scratch"))
    for i in range(files):
        with open(os.path.join(main, "scratch", f"u{i}.txt"), "w") as f:
            f.write("untracked\n")
    with open(os.path.join(main, "src", "m0.py"), "w") as f:
        f.write("x = 'dirty before'\n")
    return main, worktree


def run(payload: dict, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(HOOK, input=json.dumps(payload).encode(), capture_output=True, env=env, check=True)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--files", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="wg-bench-") as base:
        base = os.path.realpath(base)
        main_dir, worktree = build(base, args.files)
        env = {**os.environ, "XDG_STATE_HOME": os.path.join(base, "state"), "HOME": os.path.join(base, "home")}
        common = {"session_id": "bench", "cwd": worktree, "agent_id": "a0000000000000001", "agent_type": "general-purpose"}
        pre = {**common, "hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"file_path": f"{worktree}/src/new.py", "content": "x"}}
        times: dict[str, list[float]] = {"PreToolUse Write": [], "SubagentStart": [], "SubagentStop": []}
        for _ in range(args.rounds):  # interleaved, so that load from elsewhere hits every event alike
            times["PreToolUse Write"].append(run(pre, env))
            times["SubagentStart"].append(run({**common, "hook_event_name": "SubagentStart"}, env))
            times["SubagentStop"].append(run({**common, "hook_event_name": "SubagentStop", "stop_hook_active": False}, env))
        baseline = statistics.median(times["PreToolUse Write"])
        print(f"3 shared checkouts, {args.files} extra untracked files in the main checkout, {args.rounds} rounds")
        for name, values in times.items():
            median = statistics.median(values)
            print(f"  {name:18} median {median * 1000:6.1f} ms   min {min(values) * 1000:6.1f} ms   ×{median / baseline:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
