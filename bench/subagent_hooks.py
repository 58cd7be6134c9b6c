"""Wall time of `worktree-guard hook` per event, as Claude Code runs it (a fresh process per payload).

Prints the median and the ratio to a PreToolUse Write, side by side, for SubagentStart (one `git status` per
shared checkout) and SubagentStop (the same again, then the comparison) of an isolated sub-agent; then, for a
shared-workspace wave (SPEC §11) of 2 and of 8 workers, each with its own ownership block, the same events when
the workers start and stop at the same moment (their hooks run in parallel, as Claude Code runs them). Usage:

    .venv/bin/python bench/subagent_hooks.py [--rounds N] [--files N] [--ignored N] [--waves 2,8]

--files adds N untracked files to the main checkout, to see how `git status -uall` and fingerprints scale;
--ignored adds N files in ignored directories (`__pycache__/`, `node_modules/`), which the snapshot lists too.
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


def build(base: str, files: int, ignored: int = 0) -> tuple[str, str]:
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
    with open(os.path.join(main, ".gitignore"), "w") as f:
        f.write("__pycache__/\nnode_modules/\n")
    git("add", ".gitignore", cwd=main)
    git("commit", "-qm", "ignore", cwd=main)
    for i in range(ignored):
        where = os.path.join(main, "node_modules", f"p{i // 100}") if i % 2 else os.path.join(main, "src", f"d{i // 100}", "__pycache__")
        os.makedirs(where, exist_ok=True)
        with open(os.path.join(where, f"f{i}.pyc"), "w") as f:
            f.write("cache\n")
    with open(os.path.join(main, "src", "m0.py"), "w") as f:
        f.write("x = 'dirty before'\n")
    return main, worktree


def run(payload: dict, env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(HOOK, input=json.dumps(payload).encode(), capture_output=True, env=env, check=True)
    return time.perf_counter() - started


def run_parallel(payloads: list[dict], env: dict[str, str]) -> list[float]:
    """Each payload's hook process started at once; the wall time of each."""
    started = time.perf_counter()
    processes = [subprocess.Popen(HOOK, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) for _ in payloads]
    for process, payload in zip(processes, payloads):
        process.stdin.write(json.dumps(payload).encode())
        process.stdin.close()
    times = []
    for process in processes:
        process.wait()
        times.append(time.perf_counter() - started)
        if process.returncode != 0:
            raise RuntimeError(process.stderr.read().decode())
    return times


def wave_round(main_dir: str, workers: int, env: dict[str, str], transcript: str, round_no: int, times: dict[str, list[float]]) -> None:
    """One wave: N dispatches with disjoint ownership blocks, N starts at once, a write each, N stops at once."""
    session = f"wave-bench-{round_no}"
    common = {"session_id": session, "transcript_path": transcript.replace("SESSION", session)}
    ids = [f"a{round_no:04d}{i:012d}" for i in range(workers)]
    meta_dir = os.path.join(common["transcript_path"][: -len(".jsonl")], "subagents")
    os.makedirs(meta_dir, exist_ok=True)
    for i, agent in enumerate(ids):
        prompt = f"part {i}\n```worktree-guard\nowns: src/w{i}/**\n```\n"
        dispatch = {**common, "hook_event_name": "PreToolUse", "cwd": main_dir, "tool_name": "Agent", "tool_use_id": f"toolu_{round_no}_{i}",
                    "tool_input": {"description": "w", "prompt": prompt, "subagent_type": "general-purpose"}}
        times["wave PreToolUse Agent"].append(run(dispatch, env))
    events = [{**common, "cwd": main_dir, "agent_id": agent, "agent_type": "general-purpose"} for agent in ids]
    times[f"wave {workers} SubagentStart"] += run_parallel([{**e, "hook_event_name": "SubagentStart"} for e in events], env)
    for i, agent in enumerate(ids):
        with open(os.path.join(meta_dir, f"agent-{agent}.meta.json"), "w") as f:
            json.dump({"toolUseId": f"toolu_{round_no}_{i}"}, f)
    writes = [{**e, "hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"file_path": f"{main_dir}/src/w{i}/new.py", "content": "x"}} for i, e in enumerate(events)]
    times[f"wave {workers} PreToolUse Write"] += run_parallel(writes, env)
    for i in range(workers):
        os.makedirs(os.path.join(main_dir, "src", f"w{i}"), exist_ok=True)
        with open(os.path.join(main_dir, "src", f"w{i}", "new.py"), "w") as f:
            f.write(f"w = {round_no}\n")
    times[f"wave {workers} SubagentStop"] += run_parallel([{**e, "hook_event_name": "SubagentStop", "stop_hook_active": False} for e in events], env)
    git("add", "-A", "src", cwd=main_dir)
    git("commit", "-qm", f"wave {round_no}", cwd=main_dir)


def snapshot_cost(main_dir: str, rounds: int) -> None:
    """The leak check's snapshot of one checkout with and without ignored paths, in-process, side by side."""
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from worktree_guard.subagents.snapshots import snapshot

    times: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(rounds):
        for ignored in (False, True):
            started = time.perf_counter()
            snapshot([main_dir], [main_dir], ignored=ignored)
            times[ignored].append(time.perf_counter() - started)
    without, with_ignored = statistics.median(times[False]), statistics.median(times[True])
    print(f"  snapshot of the main checkout: without ignored paths {without * 1000:.1f} ms, with them {with_ignored * 1000:.1f} ms (×{with_ignored / without:.2f})")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--files", type=int, default=0)
    parser.add_argument("--ignored", type=int, default=0)
    parser.add_argument("--waves", default="2,8", help="wave sizes to time (comma-separated; empty: none)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="wg-bench-") as base:
        base = os.path.realpath(base)
        main_dir, worktree = build(base, args.files, args.ignored)
        env = {**os.environ, "XDG_STATE_HOME": os.path.join(base, "state"), "HOME": os.path.join(base, "home")}
        common = {"session_id": "bench", "cwd": worktree, "agent_id": "a0000000000000001", "agent_type": "general-purpose"}
        pre = {**common, "hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {"file_path": f"{worktree}/src/new.py", "content": "x"}}
        times: dict[str, list[float]] = {"PreToolUse Write": [], "SubagentStart": [], "SubagentStop": []}
        for _ in range(args.rounds):  # interleaved, so that load from elsewhere hits every event alike
            times["PreToolUse Write"].append(run(pre, env))
            times["SubagentStart"].append(run({**common, "hook_event_name": "SubagentStart"}, env))
            times["SubagentStop"].append(run({**common, "hook_event_name": "SubagentStop", "stop_hook_active": False}, env))
        sizes = [int(n) for n in args.waves.split(",") if n.strip()]
        transcript = os.path.join(base, "home", ".claude", "projects", "-repo", "SESSION.jsonl")
        for round_no in range(args.rounds if sizes else 0):
            times["PreToolUse Write"].append(run(pre, env))  # the baseline keeps being measured beside the waves
            for size in sizes:
                times.setdefault("wave PreToolUse Agent", [])
                for event in ("SubagentStart", "PreToolUse Write", "SubagentStop"):
                    times.setdefault(f"wave {size} {event}", [])
                wave_round(main_dir, size, env, transcript, round_no * 100 + size, times)
        baseline = statistics.median(times["PreToolUse Write"])
        if args.ignored:
            snapshot_cost(main_dir, args.rounds * 2)
        print(f"3 shared checkouts, {args.files} extra untracked files and {args.ignored} ignored files in the main checkout, {args.rounds} rounds")
        print("(wave N: N workers' hooks started at the same moment; each process's wall time)")
        print("(×: to one PreToolUse Write alone; ×wave: to the N workers' PreToolUse Writes run in parallel the same way)")
        for name, values in times.items():
            median = statistics.median(values)
            line = f"  {name:28} median {median * 1000:6.1f} ms   min {min(values) * 1000:6.1f} ms   ×{median / baseline:.2f}"
            size = name.split()[1] if name.startswith("wave ") and name.split()[1].isdigit() else None
            if size and not name.endswith("Write"):
                line += f"   ×wave {median / statistics.median(times[f'wave {size} PreToolUse Write']):.2f}"
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
