"""How fast `worktree-guard validate` reads transcripts, next to the floor of `json.loads` on every line.

Replicates the real Claude Code transcripts of shared/realdata/spotter-claude-code-worktrees/ into a temp
dir until they weigh about --megabytes, then times, in one run and alternating (best of --repeat):
  floor     open each file in binary and json.loads every line — nothing else;
  validate  worktree_guard.validate.command.validate() on the same files (find, group, read, judge), in the
            default mode (only isolated agents go through the rules: none in these sessions) and in audit
            mode (every call goes through every rule, the Bash parser included).
Two corpora: identical copies (a verdict computed for one copy serves the others: the cache at work), and
distinct copies whose paths are renamed per copy (no verdict is shared between copies: the worst case).
Run: .venv/bin/python bench/validate_speed.py [--megabytes 100] [--repeat 3] [--jobs 1]
This is a measurement, not a test: it never fails on a number.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from worktree_guard.validate.command import validate  # noqa: E402
from worktree_guard.validate.replay import ReplayOptions  # noqa: E402

SOURCE_NAME = "spotter-claude-code-worktrees"
WORKTREES = "/home/USER/projects/spotter-worktrees/"


def find_source() -> Path:
    explicit = os.environ.get("WG_SHARED_DIR")
    candidates = [Path(explicit)] if explicit else []
    candidates += [parent / "shared" for parent in HERE.parents]
    for candidate in candidates:
        if (candidate / "realdata" / SOURCE_NAME).is_dir():
            return candidate / "realdata" / SOURCE_NAME
    sys.exit(f"cannot find shared/realdata/{SOURCE_NAME} (set WG_SHARED_DIR)")


def transcripts(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.jsonl"))


def replicate(source: Path, dest: Path, megabytes: float, distinct: bool) -> int:
    """Copies of the source tree under dest/copy-<k>/ until the total reaches `megabytes`; returns bytes."""
    size = sum(p.stat().st_size for p in transcripts(source))
    copies = max(1, round(megabytes * 1e6 / size))
    for k in range(copies):
        target = dest / f"copy-{k:03d}"
        if not distinct:
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("*.md"))
            continue
        for path in transcripts(source):
            out = target / path.relative_to(source)
            out.parent.mkdir(parents=True, exist_ok=True)
            text = path.read_bytes().replace(WORKTREES.encode(), f"/home/USER/projects/spotter-worktrees-{k:03d}/".encode())
            out.write_bytes(text)
    return sum(p.stat().st_size for p in transcripts(dest))


def floor(root: Path) -> float:
    started = time.perf_counter()
    loads = json.loads
    for path in transcripts(root):
        with open(path, "rb") as f:
            for line in f:
                loads(line)
    return time.perf_counter() - started


def run_validate(root: Path, jobs: int, audit: bool) -> tuple[float, str]:
    started = time.perf_counter()
    report = validate([str(root)], ReplayOptions(audit=audit), jobs=jobs)
    seconds = time.perf_counter() - started
    stats = report.stats
    note = f"{stats.calls:,} calls, {stats.verdicts:,} distinct verdicts, {len(report.findings)} findings, {len(report.problems)} skipped"
    return seconds, note


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=100.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    source = find_source()
    rows = []
    with tempfile.TemporaryDirectory(prefix="wg-bench-") as tmp:
        for distinct in (False, True):
            root = Path(tmp) / ("distinct" if distinct else "identical")
            size = replicate(source, root, args.megabytes, distinct)
            floor(root)  # warm the page cache
            floors: list[float] = []
            runs: dict[bool, list[float]] = {False: [], True: []}
            notes: dict[bool, str] = {}
            for _ in range(args.repeat):
                floors.append(floor(root))
                for audit in (False, True):
                    seconds, notes[audit] = run_validate(root, args.jobs, audit)
                    runs[audit].append(seconds)
            name = "distinct copies" if distinct else "identical copies"
            for audit in (False, True):
                mode = "audit (every agent judged)" if audit else "enforce (default)"
                rows.append((name, mode, size, min(floors), min(runs[audit]), notes[audit]))
            shutil.rmtree(root)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, --jobs {args.jobs}, best of {args.repeat}")
    print("| corpus | --mode | MB | json.loads floor s | floor MB/s | validate s | validate MB/s | validate / floor | replayed |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, mode, size, f_s, v_s, note in rows:
        mb = size / 1e6
        print(f"| {name} | {mode} | {mb:.1f} | {f_s:.3f} | {mb / f_s:.0f} | {v_s:.3f} | {mb / v_s:.0f} | {v_s / f_s:.2f}× | {note} |")


if __name__ == "__main__":
    main()
