"""Where each module of the decision core stands in mutation testing (issue 13): its last score and how much of it
changed since it was measured.

    python bench/mutation_status.py            # a Markdown table, stalest first
    python bench/mutation_status.py --check    # exit 1 when a module of rules/, shell/, runtimes/ or subagents/ is not listed

The scores come from bench/mutation-scores.txt (kept by hand from docs/testing.md's phases); the changes are
`git diff --numstat <commit measured at> HEAD` of the module's file, so a score goes visibly stale when its
module changes.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCORES = REPO / "bench" / "mutation-scores.txt"
#: The packages every module of which is listed (a new module there must say where it stands).
LISTED_PACKAGES = ("rules", "shell", "runtimes", "subagents")


@dataclass
class Entry:
    module: str
    phase: str
    commit: str
    mutants: str
    score: str
    note: str


def read_scores(path: Path = SCORES) -> list[Entry]:
    """The entries of the scores file; a malformed line is an error naming it."""
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = [f.strip() for f in line.split("|")]
        if len(fields) != 6:
            raise ValueError(f"{path}:{number}: expected 6 fields separated by |, found {len(fields)}: {line!r}")
        entries.append(Entry(*fields))
    return entries


def module_file(module: str) -> Path:
    return REPO / "worktree_guard" / f"{module}.py"


def unlisted(entries: list[Entry]) -> list[str]:
    """Modules of LISTED_PACKAGES that the file does not list."""
    listed = {e.module for e in entries}
    found = []
    for package in LISTED_PACKAGES:
        for path in sorted((REPO / "worktree_guard" / package).glob("*.py")):
            name = f"{package}/{path.stem}"
            if path.stem != "__init__" and name not in listed:
                found.append(name)
    return found


def changed_since(commit: str, module: str) -> tuple[int, int] | None:
    """(lines added + removed, commits) in the module's file from `commit` to HEAD; None when this clone lacks the
    commit (a shallow one)."""
    relative = str(module_file(module).relative_to(REPO))
    known = subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=REPO, capture_output=True)
    if known.returncode != 0:
        return None
    numstat = subprocess.run(["git", "diff", "--numstat", commit, "HEAD", "--", relative], cwd=REPO, capture_output=True, text=True, check=True).stdout
    lines = sum(int(a) + int(b) for a, b, _ in (row.split("\t") for row in numstat.splitlines()))
    log = subprocess.run(["git", "rev-list", "--count", f"{commit}..HEAD", "--", relative], cwd=REPO, capture_output=True, text=True, check=True).stdout
    return lines, int(log)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that every module is listed and exists")
    args = parser.parse_args(argv)
    entries = read_scores()
    problems = [f"not listed in {SCORES.name}: {m}" for m in unlisted(entries)]
    problems += [f"listed but missing: {e.module}" for e in entries if not module_file(e.module).is_file()]
    if args.check or problems:
        print("\n".join(problems) or f"{len(entries)} modules listed, every one exists")
        return 1 if problems else 0
    rows = []
    for e in entries:
        if e.phase == "n/a":
            continue
        size = len(module_file(e.module).read_text(encoding="utf-8").splitlines())
        changed = changed_since(e.commit, e.module) if e.commit != "-" else (size, 0)
        rows.append((e, size, *(changed or (None, None))))
    rows.sort(key=lambda r: (r[0].commit != "-", -(r[2] if r[2] is not None else r[1]) / max(r[1], 1)))
    print("| module | lines | phase | measured at | mutants | score | lines changed since | commits since | note |")
    print("|---|---:|---:|---|---:|---:|---:|---:|---|")
    for e, size, lines, commits in rows:
        if e.commit == "-":
            since = "never measured"
        elif lines is None:
            since = f"{e.commit} is not in this clone"
        else:
            since = f"{lines} ({100 * lines // max(size, 1)} %)"
        print(f"| `{e.module}` | {size} | {e.phase} | {e.commit} | {e.mutants} | {e.score} | {since} | {commits if e.commit != '-' else '-'} | {e.note} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
