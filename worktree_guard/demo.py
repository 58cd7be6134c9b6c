"""`worktree-guard demo`: a real repository with linked worktrees in a temp dir, and example calls run through the hook."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile

from .hook import run_hook


def _git(*args: str, cwd: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def make_repository(base: str) -> dict[str, str]:
    """main checkout, an agent worktree under .claude/worktrees, a sibling worktree outside the main checkout."""
    main = os.path.join(base, "repo")
    os.makedirs(os.path.join(main, "src"))
    _git("init", "-q", "-b", "main", cwd=main)
    with open(os.path.join(main, "README.md"), "w") as f:
        f.write("demo\n")
    _git("add", "README.md", cwd=main)
    _git("-c", "user.name=demo", "-c", "user.email=demo@example.invalid", "commit", "-q", "-m", "init", cwd=main)
    worktree = os.path.join(main, ".claude", "worktrees", "agent-a1b2c3d4e5f6a7b8c")
    sibling = os.path.join(base, "sibling")
    _git("worktree", "add", "-q", "-b", "worktree-agent-a1b2c3d4e5f6a7b8c", worktree, cwd=main)
    _git("worktree", "add", "-q", "-b", "sibling", sibling, cwd=main)
    return {"MAIN": main, "WT": worktree, "SIBLING": sibling, "TMP": os.path.realpath(tempfile.gettempdir())}


def substitute(value: object, names: dict[str, str]) -> object:
    if isinstance(value, str):
        for key, path in names.items():
            value = value.replace("{" + key + "}", path)
        return value
    if isinstance(value, dict):
        return {k: substitute(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [substitute(v, names) for v in value]
    return value


def decision_of(stdout: str) -> str:
    if not stdout:
        return "pass"
    out = json.loads(stdout)
    specific = out.get("hookSpecificOutput", {})
    if "updatedInput" in specific:
        return "rewrite"
    return specific.get("permissionDecision", "warn" if "systemMessage" in out else "pass")


def codes_of(stdout: str) -> list[str]:
    """The codes a reply's reason ends with (`[worktree-guard WG201 WG301]`); [] for a pass."""
    if not stdout:
        return []
    out = json.loads(stdout)
    text = out.get("hookSpecificOutput", {}).get("permissionDecisionReason") or out.get("systemMessage") or ""
    match = re.search(r"\[worktree-guard ((?:WG\d{3} ?)+)\]$", text.rstrip())
    return match.group(1).split() if match else []


def run_demo(fixtures: str) -> int:
    calls_file = os.path.join(fixtures, "calls.jsonl")
    if not os.path.isfile(calls_file):
        print(f"worktree-guard demo: no {calls_file} (run it from the project's checkout, or name the fixtures directory)", file=sys.stderr)
        return 2
    with open(calls_file, encoding="utf-8") as f:
        examples = [json.loads(line) for line in f if line.strip()]
    with tempfile.TemporaryDirectory(prefix="wg-demo-") as base:
        names = make_repository(os.path.realpath(base))
        print(f"main checkout:   {names['MAIN']}\nagent worktree:  {names['WT']}\nsibling worktree: {names['SIBLING']}\n")
        failures = 0
        for example in examples:
            payload = substitute(example["payload"], names)
            reply = run_hook(json.dumps(payload).encode(), flags=example.get("flags"), environ={})
            got, codes = decision_of(reply.stdout), codes_of(reply.stdout)
            # The exact codes, not only the decision: a deny for the wrong reason is a wrong verdict.
            right = got == example["expect"] and codes == example["codes"]
            failures += not right
            shown = f"{got} {' '.join(codes)}".strip()
            print(f"[{'ok ' if right else 'BAD'}] {shown:20} {example['title']}")
            if not right:
                print(f"           expected: {' '.join([example['expect'], *example['codes']])}")
            if reply.stdout:
                specific = json.loads(reply.stdout).get("hookSpecificOutput", {})
                if specific.get("permissionDecisionReason"):
                    print(f"           reason: {specific['permissionDecisionReason']}")
                if specific.get("updatedInput"):
                    print(f"           updated file_path: {specific['updatedInput'].get('file_path')}")
        print(f"\n{len(examples) - failures} of {len(examples)} calls got the expected verdict")
    return 1 if failures else 0
