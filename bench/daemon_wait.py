"""How long a healthy daemon makes a hook call wait under load: the measurement behind client.REPLY_TIMEOUT.

    .venv/bin/python bench/daemon_wait.py [--clients 128] [--rounds 3]

Starts a daemon for a real repository with a linked worktree (as bench/hook_latency.py does), then, each round,
starts `--clients` processes at once that each hand one call to the daemon (`client.ask_daemon`, with a wait
far above any limit) and print how long the daemon took to answer: from connecting to the last byte of the
reply, queueing behind the other calls included. Prints p50, p90, p99 and the maximum over all rounds, and
how many calls the daemon declined (its own limit per call, daemon.REQUEST_SECONDS) or did not answer.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "bench"))

from hook_latency import FAST_HOOK, make_repo, payloads  # noqa: E402

from worktree_guard import client  # noqa: E402

CLIENT = """
import sys, time
sys.path.append({root!r})
from worktree_guard import client
stdin = sys.stdin.buffer.read()
started = time.monotonic()
try:
    client.ask_daemon(["hook"], stdin, timeout=120.0, spawn=False)
    print(f"ok {{time.monotonic() - started:.6f}}")
except client.NoDaemon as e:
    print(f"no {{time.monotonic() - started:.6f}} {{e}}")
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=128)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="wg-wait-") as temp:
        base = Path(os.path.realpath(temp))
        main_dir, worktree = make_repo(base)
        run = base / "run"
        run.mkdir(mode=0o700)
        env = {k: v for k, v in os.environ.items() if not k.startswith(("WORKTREE_GUARD_", "WT_GUARD_"))}
        env.update(HOME=str(base), XDG_RUNTIME_DIR=str(run), XDG_CACHE_HOME=str(base / ".cache"), WT_GUARD_DAEMON_IDLE="120")
        bodies = [json.dumps(b).encode() for b in payloads(main_dir, worktree).values()]
        subprocess.run(FAST_HOOK, input=bodies[0], env=env, cwd=worktree, capture_output=True, check=True)
        sock = Path(client.socket_dir(env)) / f"{client.daemon_key(env)}.sock"
        deadline = time.monotonic() + 60
        while not sock.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        pid = int(sock.with_suffix(".lock").read_text().split()[0])
        code = CLIENT.format(root=str(REPO_ROOT))
        waits: list[float] = []
        failures: list[str] = []
        for _ in range(args.rounds):
            procs = []
            for i in range(args.clients):
                proc = subprocess.Popen([sys.executable, "-S", "-P", "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=worktree)
                procs.append((proc, bodies[i % len(bodies)]))
            for proc, body in procs:
                out, _ = proc.communicate(body, timeout=300)
                kind, seconds, *rest = out.decode().split(" ", 2)
                if kind == "ok":
                    waits.append(float(seconds))
                else:
                    failures.append(" ".join(rest).strip())
        os.kill(pid, signal.SIGTERM)
    waits.sort()

    def pct(p: float) -> float:
        return waits[min(len(waits) - 1, int(p * len(waits)))] * 1000

    load = os.getloadavg()
    print(f"{args.rounds} rounds of {args.clients} concurrent calls on {os.cpu_count()} cores (load average {load[0]:.1f}); daemon answered {len(waits)}, not {len(failures)}")
    if waits:
        print(f"wait for the daemon's reply, ms: p50 {pct(0.5):.0f}, p90 {pct(0.9):.0f}, p99 {pct(0.99):.0f}, max {waits[-1] * 1000:.0f}, mean {statistics.mean(waits) * 1000:.0f}")
    for reason in sorted(set(failures)):
        print(f"  not answered ({failures.count(reason)}): {reason}")
    print(f"client.REPLY_TIMEOUT {client.REPLY_TIMEOUT:g} s (a wait with no call taken), client.DAEMON_WAIT_SECONDS {client.DAEMON_WAIT_SECONDS:g} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
