"""How long the Bash analysis takes on the commands that cost it most, for this checkout and, side by side, another.

Each case is a command built to make the walker work: directories it may be in, traps walked in many states,
loops, nested functions, and-or lists, cds that may be refused. Each checkout is measured in a child process of
its own (its `worktree_guard` first on PYTHONPATH), the checkouts alternating, best of --repeat; the table gives
seconds, the walker's steps, the error codes, and the ratio to the first checkout.

Run: .venv/bin/python bench/worst_cases.py [--against OTHER_CHECKOUT] [--repeat 3] [--only NAME]
This is a measurement, not a test: it never fails on a number (the budget, WG901, is what bounds the real ones).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def cases() -> dict[str, str]:
    big_function = "f(){ " + "; ".join(f"echo a{i}" for i in range(1500)) + "; }; "
    cleanup = "cleanup(){ " + "; ".join(f"rm -f t{i}" for i in range(40)) + "; }; trap cleanup EXIT; "
    return {
        "300 writes after an ambiguous cd": "if [ -f a ]; then cd src; fi; [ -f b ] && cd sub; " + " ".join(f"touch x{i};" for i in range(300)),
        "a trap and 300 states": "trap 'rm -f \"$X\"' EXIT; " + " ".join(f"X=/tmp/{i}; true;" for i in range(300)),
        "6 nested functions, ambiguous": "".join(f"f{i}(){{ if c; then cd a; fi; f{i + 1}; f{i + 1}; }}; " for i in range(6)) + "f6(){ touch x; }; f0",
        "a big trap and 400 states": cleanup + " ".join(f"X={i}; true;" for i in range(400)),
        "a big trap and 400 exits": cleanup + " ".join(f"X={i}; true || exit 1;" for i in range(400)),
        "a trap, 1,500-command function": big_function + "trap 'rm -f \"$X\"' EXIT; " + " ".join(f"X=/tmp/{i};" for i in range(1500)),
        "1,200 loops and a big function": big_function + " ".join("while :; do :; done;" for _ in range(1200)),
        "6 nested loops": "for a in $(ls); do " * 6 + "touch x; " + "done; " * 6,
        "100 and-or lists": " ".join(f"[ -f a{i} ] && X=$i || Y=$i;" for i in range(100)),
        "200 cds that may be refused": " ".join(f"cd nope{i}; touch x{i};" for i in range(200)),
        "200 cds through a link and back": "mkdir -p src/a; ln -s src/a lnk; " + " ".join(f"cd lnk; cd ..; touch y{i};" for i in range(200)),
    }


def measure(only: str | None) -> dict[str, list]:
    """In the child: every case once, in a fresh worktree, as the hook judges it."""
    import worktree_guard  # first: bench/bash_corpora.py puts this checkout on sys.path
    from worktree_guard.engine import build_context
    from worktree_guard.plugins import plugin_manager
    from worktree_guard.rules.bash import analyse
    from worktree_guard.runtimes.claude_code import to_tool_call

    sys.path.insert(0, str(HERE))
    from bash_corpora import make_worktree

    expected = os.environ.get("WG_WORST_CHECKOUT")
    if expected and not worktree_guard.__file__.startswith(expected + os.sep):
        sys.exit(f"measured {worktree_guard.__file__}, not the checkout {expected}")

    pm = plugin_manager()
    found: dict[str, list] = {}
    with tempfile.TemporaryDirectory(prefix="wg-worst-") as tmp:
        _, worktree = make_worktree(Path(os.path.realpath(tmp)))
        payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(worktree), "agent_id": "abench", "agent_type": "general-purpose"}
        for name, command in cases().items():
            if only and only not in name:
                continue
            ctx = build_context(to_tool_call({**payload, "tool_input": {"command": command}}), pm=pm)
            start = time.perf_counter()
            walker, _ = analyse(command, ctx)
            elapsed = time.perf_counter() - start
            found[name] = [elapsed, walker.steps, sorted({v.code for v in walker.findings if v.severity == "error"})]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", help="another checkout, measured beside this one")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", help="the cases whose name holds this")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.only)))
        return
    checkouts = [HERE.parent] + ([Path(args.against).resolve()] if args.against else [])
    best: dict[Path, dict[str, list]] = {c: {} for c in checkouts}
    for _ in range(args.repeat):
        for checkout in checkouts:  # alternating, so that the load of the moment falls on both
            env = {**os.environ, "PYTHONPATH": str(checkout), "WG_WORST_CHECKOUT": str(checkout)}
            child = [sys.executable, str(HERE / "worst_cases.py"), "--child"] + (["--only", args.only] if args.only else [])
            done = subprocess.run(child, env=env, cwd=tempfile.gettempdir(), capture_output=True, text=True)
            if done.returncode:
                sys.exit(f"{checkout}: {done.stderr.strip()}")
            out = done.stdout
            for name, row in json.loads(out).items():
                if name not in best[checkout] or row[0] < best[checkout][name][0]:
                    best[checkout][name] = row
    first = checkouts[0]
    header = f"{'case':34} " + " ".join(f"{c.name[:14]:>14} {'steps':>7}" for c in checkouts) + ("   ratio" if len(checkouts) > 1 else "")
    print(header)
    for name, row in best[first].items():
        line = f"{name:34} " + " ".join(f"{best[c][name][0]:13.2f}s {best[c][name][1]:7}" for c in checkouts)
        if len(checkouts) > 1:
            line += f"   {row[0] / max(best[checkouts[1]][name][0], 1e-9):5.2f}"
        print(line)
    for checkout in checkouts:
        print(f"{checkout}: codes " + "; ".join(f"{name}: {' '.join(row[2]) or 'pass'}" for name, row in best[checkout].items()))


if __name__ == "__main__":
    main()
