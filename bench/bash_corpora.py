"""Replay real command corpora through the Bash rules inside a real linked worktree and report the verdicts.

    .venv/bin/python bench/bash_corpora.py [--shared DIR] [--show N]

Corpora (../shared/realdata, see each SOURCES.md): the Bash commands of the real Claude Code transcripts
(derived/agent_tool_calls.tsv; each was run in a worktree, replayed here with that worktree as W), NL2Bash,
and the peer guards' test commands. Each command runs with cwd five directories deep inside W, so relative
paths stay inside it; a deny is then either an escape by absolute path (by design) or a false deny.
Prints, per corpus: commands, passes, denies by code, WG900 (parse failure) rate, the slowest command.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.shared_data import CORPORA, load, replay_in, transcript_bash_commands  # noqa: E402
from worktree_guard.engine import build_context  # noqa: E402
from worktree_guard.plugins import plugin_manager  # noqa: E402
from worktree_guard.rules.bash import analyse  # noqa: E402
from worktree_guard.runtimes.claude_code import to_tool_call  # noqa: E402


def make_worktree(base: Path) -> tuple[Path, Path]:
    env = {**os.environ, "GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@x.invalid", "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@x.invalid"}
    main = base / "main"
    main.mkdir()
    run = lambda *a, cwd=main: subprocess.run(["git", *a], cwd=cwd, check=True, capture_output=True, env=env)  # noqa: E731
    run("init", "-q", "-b", "main")
    run("commit", "-q", "--allow-empty", "-m", "init")
    worktree = main / ".claude" / "worktrees" / "agent-abench"
    run("worktree", "add", "-q", "-b", "wt", str(worktree))
    return main, worktree


def load_all(only: str | None) -> dict[str, list[tuple[str, tuple[str, str] | None]]]:
    """corpus name → [(command, (recorded cwd, recorded worktree root) or None)]"""
    corpora: dict[str, list[tuple[str, tuple[str, str] | None]]] = {}
    corpora["transcripts"] = [(c, (cwd, root)) for c, cwd, root in transcript_bash_commands()]
    for name in CORPORA:
        records = load(name)
        corpora[name] = [(r["cmd"], None) for r in records]
        if name == "dippy":
            corpora["dippy-allow"] = [(r["cmd"], None) for r in records if r.get("expect") == "allow"]
    return {k: v for k, v in corpora.items() if only in (None, k)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared")
    parser.add_argument("--show", type=int, default=15, help="denies to list per corpus")
    parser.add_argument("--only", help="one corpus")
    args = parser.parse_args()
    if args.shared:
        os.environ["WG_SHARED_DIR"] = args.shared
    corpora = load_all(args.only)
    pm = plugin_manager()
    with tempfile.TemporaryDirectory(prefix="wg-corpus-") as tmp:
        main_dir, worktree = make_worktree(Path(os.path.realpath(tmp)))
        deep = worktree / "a" / "b" / "c" / "d" / "e"
        deep.mkdir(parents=True)
        payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": ""}, "cwd": str(deep), "agent_id": "abench", "agent_type": "general-purpose"}
        for name, commands in corpora.items():
            codes: Counter[str] = Counter()
            denied: list[tuple[str, list[str], str]] = []
            slowest = (0.0, "")
            started = time.perf_counter()
            for command, recorded in commands:
                cwd = deep
                if recorded is not None:
                    command, cwd = replay_in(worktree, command, *recorded)
                ctx = build_context(to_tool_call({**payload, "tool_input": {"command": command}, "cwd": str(cwd)}), pm=pm)
                t0 = time.perf_counter()
                walker, _ = analyse(command, ctx)
                elapsed = time.perf_counter() - t0
                slowest = max(slowest, (elapsed, command[:80]))
                errors = [v for v in walker.findings if v.severity == "error"]
                if errors:
                    found = sorted({v.code for v in errors})
                    codes.update(found)
                    denied.append((command, found, errors[0].message))
            total = len(commands)
            wall = time.perf_counter() - started
            print(f"\n== {name}: {total} commands, {total - len(denied)} pass, {len(denied)} denied ({100 * len(denied) / max(total, 1):.2f} %), "
                  f"WG900 {100 * codes['WG900'] / max(total, 1):.2f} %, {1000 * wall / max(total, 1):.2f} ms/command, slowest {1000 * slowest[0]:.1f} ms")
            print("   denies by code: " + ", ".join(f"{c} {n}" for c, n in sorted(codes.items())))
            for command, found, message in denied[: args.show]:
                print(f"   {' '.join(found):12} {command[:110]!r}\n                {message[:150]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
