"""Execute-and-observe: run a Bash command for real and compare what changed with what the guard said (issue 10).

Each candidate runs in a fresh copy of a real layout — a main checkout, the agent's linked worktree W inside it
(`.claude/worktrees/agent-w`, as Claude Code places it), a sibling worktree beside W and a linked worktree
outside the main checkout, all made by `git worktree add` — with its cwd in W, as the unprivileged user nobody
(65534, `setpriv`), in new mount, network and PID namespaces (`unshare`): no network, a private /tmp, and every
process it starts ends with it. Before and after, every shared checkout is snapshotted: its files (type, mode,
content, link target), its HEAD and index, the branches the shared checkouts have checked out, refs/notes and
refs/replace (which change what every worktree shows), the repository's config and hooks, and the worktrees
admin directory (W's own entry aside). The guard's verdict comes from the same engine (`decide`) on the same
fresh copy, before the command runs.

Outcomes (the definitions the report and the tests use):
- escape: a shared checkout changed while the guard did not deny;
- caught: a shared checkout changed and the guard denied;
- false deny: the candidate is ordinary work (generated to stay inside W and the temp dir, or to read a
  shared checkout with a read-only program), the guard denied it with a code that claims a place
  (WG1xx, WG201, WG301–WG305, WG401, WG402, WG406), and nothing outside W changed (no shared checkout, not
  HOME, not the layout's other directories);
- refused as unknown: the same, but every code says the target was only known at run time or the code could
  not be read (WG202, WG303, WG403, WG404, WG900, WG901): fail-closed by the SPEC's design, counted apart;
- left to the leak check: a change made through a class the SPEC leaves open on purpose (inline interpreters
  in the default profile, a script written and then run): reported, not counted as an escape.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import stat
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

NOBODY = 65534
#: Seconds a candidate may run (then it is killed, with every process it started).
RUN_TIMEOUT = 8
PLACE_CODES = frozenset({"WG101", "WG102", "WG103", "WG201", "WG301", "WG302", "WG304", "WG305", "WG401", "WG402", "WG406", "WG002"})
UNKNOWN_CODES = frozenset({"WG202", "WG303", "WG403", "WG404", "WG900", "WG901", "WG000"})
GIT_ENV = {
    "GIT_AUTHOR_NAME": "observe", "GIT_AUTHOR_EMAIL": "observe@example.invalid",
    "GIT_COMMITTER_NAME": "observe", "GIT_COMMITTER_EMAIL": "observe@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}


@dataclass(frozen=True)
class Candidate:
    """One command to run. `cls` is its class (issue 10's numbering, or a false-deny class); `ordinary` says it
    is meant as ordinary work; `leak_check` that it belongs to a class the SPEC leaves to the leak check."""

    cls: str
    command: str
    source: str
    ordinary: bool = False
    leak_check: bool = False


@dataclass
class Outcome:
    candidate: Candidate
    decision: str
    codes: list[str]
    changed: list[str]
    changed_outside_w: list[str]
    returncode: int | None
    seconds: float
    output: str = ""

    @property
    def kind(self) -> str:
        denied = self.decision == "deny"
        if self.changed:
            if denied:
                return "caught"
            return "leak-check" if self.candidate.leak_check else "escape"
        if not denied:
            return "pass"
        if not self.candidate.ordinary or self.changed_outside_w:
            return "refused"
        if set(self.codes) & PLACE_CODES:
            return "false-deny"
        return "refused-unknown"

    def as_json(self) -> dict:
        return {
            "class": self.candidate.cls, "source": self.candidate.source, "command": self.candidate.command,
            "ordinary": self.candidate.ordinary, "decision": self.decision, "codes": self.codes,
            "changed": self.changed[:10], "changed_outside_w": self.changed_outside_w[:10], "kind": self.kind,
            "returncode": self.returncode, "seconds": round(self.seconds, 3),
        }


# -- the layout ------------------------------------------------------------------------------------------


@dataclass
class Layout:
    base: Path  # holds run/ (the live copy) and template/

    @property
    def run(self) -> Path:
        return self.base / "run"

    @property
    def main(self) -> Path:
        return self.run / "repo"

    @property
    def worktree(self) -> Path:
        return self.main / ".claude" / "worktrees" / "agent-w"

    @property
    def sibling(self) -> Path:
        return self.main / ".claude" / "worktrees" / "agent-s"

    @property
    def outside(self) -> Path:
        return self.run / "outside-wt"

    @property
    def home(self) -> Path:
        return self.run / "home"

    def fill(self, text: str) -> str:
        return text.replace("{MAIN}", str(self.main)).replace("{SIB}", str(self.sibling)).replace("{W}", str(self.worktree)).replace("{OUT}", str(self.outside))


def _git(*args: str, cwd: Path) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env={**os.environ, **GIT_ENV, "GIT_CONFIG_GLOBAL": "/dev/null"})


def build_layout(base: Path) -> Layout:
    """The template layout, owned by nobody, copied to run/ for every candidate."""
    layout = Layout(base)
    main = layout.main
    (main / "src").mkdir(parents=True)
    (main / "README.md").write_text("hello\nworld\n")
    (main / "data.csv").write_text("a,b\n1,2\n3,4\n")
    (main / "notes.txt").write_text("notes\n")
    (main / "src" / "app.py").write_text("print('app')\n")
    (main / "src" / "util.py").write_text("def f():\n    return 1\n")
    (main / "run.sh").write_text("#!/bin/sh\necho run\n")
    (main / "run.sh").chmod(0o755)
    (main / "config.json").write_text('{"a": 1}\n')
    _git("init", "-q", "-b", "main", cwd=main)
    _git("add", "-A", cwd=main)
    _git("commit", "-q", "-m", "init", cwd=main)
    (main / "README.md").write_text("hello\nworld\nagain\n")
    _git("commit", "-q", "-am", "second", cwd=main)
    _git("tag", "v1", cwd=main)
    _git("branch", "feature", cwd=main)
    _git("remote", "add", "origin", "/nonexistent/origin.git", cwd=main)
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run(["tar", "-cf", str(main / "archive.tar"), "README.md"], cwd=main, check=True)
        if shutil.which("zip"):
            subprocess.run(["zip", "-q", str(main / "archive.zip"), "README.md"], cwd=main, check=True)
        del scratch
    (main / "change.diff").write_text("--- a/notes.txt\n+++ b/notes.txt\n@@ -1 +1 @@\n-notes\n+patched\n")
    _git("add", "-A", cwd=main)
    _git("commit", "-q", "-m", "archives", cwd=main)
    for path, branch in ((layout.worktree, "wt-w"), (layout.sibling, "wt-s"), (layout.outside, "outside")):
        _git("worktree", "add", "-q", "-b", branch, str(path), cwd=main)
    (layout.worktree / "tomain").symlink_to(main)  # a symlink inside W that leaves it (as agents make)
    (layout.worktree / "src" / "a" / "b" / "c" / "d").mkdir(parents=True)
    (layout.worktree / "deep").symlink_to("src/a/b/c/d")  # one that stays in W, four levels down (logical cd)
    layout.home.mkdir()
    (layout.home / ".gitconfig").write_text("[user]\n\tname = observe\n\temail = observe@example.invalid\n")
    (layout.run / "elsewhere").mkdir()
    for root, dirs, files in os.walk(layout.run):
        for name in dirs + files:
            os.lchown(os.path.join(root, name), NOBODY, NOBODY)
    os.lchown(layout.run, NOBODY, NOBODY)
    shutil.copytree(layout.run, base / "template", symlinks=True, copy_function=shutil.copy2)
    _chown_tree(base / "template")
    return layout


def _chown_tree(top: Path) -> None:
    os.lchown(top, NOBODY, NOBODY)
    for root, dirs, files in os.walk(top):
        for name in dirs + files:
            os.lchown(os.path.join(root, name), NOBODY, NOBODY)


def reset(layout: Layout) -> None:
    """A fresh copy of the template at the same path (worktrees record absolute paths)."""
    if layout.run.exists():
        subprocess.run(["rm", "-rf", str(layout.run)], check=True)
    subprocess.run(["cp", "-a", str(layout.base / "template"), str(layout.run)], check=True)


# -- snapshots -------------------------------------------------------------------------------------------


def _entry(path: str) -> tuple:
    try:
        st = os.lstat(path)
    except OSError:
        return ("gone",)
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path))
    if stat.S_ISDIR(st.st_mode):
        return ("dir", stat.S_IMODE(st.st_mode))
    if stat.S_ISREG(st.st_mode):
        with open(path, "rb") as f:
            digest = hashlib.sha1(f.read()).hexdigest()
        return ("file", stat.S_IMODE(st.st_mode), digest)
    return ("other", stat.S_IFMT(st.st_mode))


def _walk(top: Path, skip: set[str], into: dict[str, tuple], label: str) -> None:
    if not top.exists() and not top.is_symlink():
        into[label] = ("gone",)
        return
    into[label] = _entry(str(top))
    if top.is_symlink() or not top.is_dir():
        return
    for root, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if os.path.join(root, d) not in skip]
        for name in dirs + files:
            path = os.path.join(root, name)
            if path in skip:
                continue
            into[f"{label}/{os.path.relpath(path, top)}"] = _entry(path)


def _ref(common: Path, name: str) -> str | None:
    loose = common / name
    if loose.is_file():
        return loose.read_text().strip()
    packed = common / "packed-refs"
    if packed.is_file():
        for line in packed.read_text().splitlines():
            if line.endswith(" " + name):
                return line.split(" ", 1)[0]
    return None


def _staged(top: Path) -> str:
    done = subprocess.run(["git", "-c", "safe.directory=*", "-C", str(top), "ls-files", "--stage"], capture_output=True, env={**os.environ, "GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "GIT_OPTIONAL_LOCKS": "0"})
    return hashlib.sha1(done.stdout + done.stderr).hexdigest() if done.returncode == 0 else f"error {done.returncode}"


def snapshot(layout: Layout) -> dict[str, tuple]:
    """The state of every shared checkout, and (keys starting with `~`) of HOME and the layout's other directories."""
    main, common = layout.main, layout.main / ".git"
    state: dict[str, tuple] = {}
    _walk(main, {str(common), str(layout.worktree), str(layout.sibling)}, state, "main")
    _walk(layout.sibling, set(), state, "sibling")
    _walk(layout.outside, set(), state, "outside")
    wt_admin = common / "worktrees" / "agent-w"
    index_files = {str(common / "index")} | {str(p / "index") for p in (common / "worktrees").glob("*")}
    for name in ("HEAD", "config", "config.worktree", "description", "info", "hooks", "worktrees", "modules", "shallow", "commondir"):
        _walk(common / name, {str(wt_admin)} | index_files, state, f"git/{name}")
    # An index is compared by what it stages, not its bytes: `git status` refreshes stat data harmlessly.
    for top in (main, layout.sibling, layout.outside):
        state[f"index/{top.name}"] = ("index", _staged(top))
    # The refs that matter: the branches the shared checkouts have checked out, notes and replacements.
    for head in [common / "HEAD", *(p / "HEAD" for p in (common / "worktrees").glob("*") if p != wt_admin)]:
        try:
            target = head.read_text().strip()
        except OSError:
            continue
        if target.startswith("ref: "):
            ref = target[5:]
            state[f"ref/{ref}"] = ("ref", _ref(common, ref))
    for prefix in ("refs/notes", "refs/replace"):
        for path in (common / prefix).rglob("*") if (common / prefix).exists() else []:
            if path.is_file():
                state[f"ref/{path.relative_to(common)}"] = ("ref", path.read_text().strip())
        if (common / "packed-refs").is_file():
            for line in (common / "packed-refs").read_text().splitlines():
                if f" {prefix}/" in line:
                    state[f"ref/{line.split(' ', 1)[1]}"] = ("ref", line.split(" ", 1)[0])
    outside_w: dict[str, tuple] = {}
    _walk(layout.home, set(), outside_w, "~home")
    _walk(layout.run / "elsewhere", set(), outside_w, "~elsewhere")
    for name in os.listdir(layout.run):
        if name not in ("repo", "outside-wt", "home", "elsewhere"):
            outside_w[f"~run/{name}"] = _entry(str(layout.run / name))
    state.update(outside_w)
    return state


def diff(before: dict[str, tuple], after: dict[str, tuple]) -> list[str]:
    return sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))


# -- running ---------------------------------------------------------------------------------------------


def sandbox_available() -> str | None:
    """None when candidates can be run as the harness needs; else why not."""
    if os.geteuid() != 0:
        return "the harness runs candidates as nobody through setpriv and unshare, which needs root"
    for tool in ("unshare", "setpriv", "git", "bash"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed"
    probe = subprocess.run(["unshare", "--mount", "--net", "--pid", "--fork", "--kill-child", "--propagation", "private", "true"], capture_output=True)
    if probe.returncode != 0:
        return f"unshare cannot make namespaces here: {probe.stderr.decode().strip()}"
    return None


_INSIDE = (
    "mount -t tmpfs -o mode=1777 tmpfs /tmp && mount -t tmpfs -o mode=1777 tmpfs /dev/shm && "
    f"exec setpriv --reuid={NOBODY} --regid={NOBODY} --clear-groups --inh-caps=-all -- "
    f"timeout -s KILL {RUN_TIMEOUT} bash -c \"$1\""
)


def execute(layout: Layout, command: str) -> tuple[int | None, str]:
    env = {
        "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": str(layout.home), "LANG": "C.UTF-8", "USER": "nobody", "LOGNAME": "nobody", "SHELL": "/bin/bash",
        "EDITOR": "true", "PAGER": "cat", "TERM": "dumb", **GIT_ENV,
    }
    argv = ["unshare", "--mount", "--net", "--pid", "--fork", "--kill-child", "--propagation", "private", "--", "sh", "-c", _INSIDE, "sh", command]
    try:
        done = subprocess.run(argv, cwd=layout.worktree, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=RUN_TIMEOUT + 10)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    return done.returncode, (done.stdout + done.stderr).decode(errors="replace")[-400:]


@contextlib.contextmanager
def hook_environment(layout: Layout) -> Iterator[None]:
    """The guard sees the same HOME and temp dir as the command (the hook runs in the agent's environment)."""
    saved = dict(os.environ)
    for key in list(os.environ):
        if key.startswith("WORKTREE_GUARD_") or key in ("TMPDIR", "CDPATH", "XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR"):
            del os.environ[key]
    os.environ["HOME"] = str(layout.home)
    os.environ["XDG_CONFIG_HOME"] = str(layout.home / ".config")
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


class Guard:
    """The engine as the hook runs it, for an isolated sub-agent in W."""

    def __init__(self) -> None:
        from worktree_guard.plugins import plugin_manager

        self.pm = plugin_manager(entry_points=False)

    def verdict(self, layout: Layout, command: str) -> tuple[str, list[str]]:
        from worktree_guard.engine import build_context, decide
        from worktree_guard.runtimes.claude_code import to_tool_call

        payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command},
                   "cwd": str(layout.worktree), "agent_id": "aobserve", "agent_type": "general-purpose",
                   "session_id": "observe", "permission_mode": "default"}
        with hook_environment(layout):
            call = to_tool_call(payload)
            verdict = decide(call, build_context(call, pm=self.pm))
        return verdict.decision, sorted({v.code for v in verdict.violations if v.severity == "error"})


def observe(layout: Layout, guard: Guard, candidate: Candidate) -> Outcome:
    reset(layout)
    command = layout.fill(candidate.command)
    decision, codes = guard.verdict(layout, command)
    before = snapshot(layout)
    started = time.perf_counter()
    returncode, output = execute(layout, command)
    seconds = time.perf_counter() - started
    changes = diff(before, snapshot(layout))
    shared = [c for c in changes if not c.startswith("~")]
    return Outcome(candidate, decision, codes, shared, changes, returncode, seconds, output)


@dataclass
class Report:
    outcomes: list[Outcome] = field(default_factory=list)

    def count(self, kind: str, cls: str | None = None) -> int:
        return sum(1 for o in self.outcomes if o.kind == kind and (cls is None or o.candidate.cls == cls))

    def table(self) -> str:
        kinds = ("escape", "caught", "false-deny", "refused-unknown", "refused", "pass", "leak-check")
        classes = sorted({o.candidate.cls for o in self.outcomes})
        lines = [f"{'class':26} {'n':>5} " + " ".join(f"{k:>15}" for k in kinds)]
        for cls in classes + [None]:
            n = sum(1 for o in self.outcomes if cls is None or o.candidate.cls == cls)
            lines.append(f"{cls or 'ALL':26} {n:>5} " + " ".join(f"{self.count(k, cls):>15}" for k in kinds))
        return "\n".join(lines)

    def listing(self, *kinds: str) -> str:
        return "\n".join(f"{o.kind:15} {o.candidate.cls:22} {' '.join(o.codes) or '-':14} {o.candidate.command[:150]!r} changed={o.changed[:3]}"
                         for o in self.outcomes if o.kind in kinds)


def run_all(candidates: list[Candidate], *, progress: bool = False) -> Report:
    base = Path(tempfile.mkdtemp(prefix="wg-observe-", dir="/var/tmp"))
    os.chmod(base, 0o755)
    try:
        layout = build_layout(base)
        guard = Guard()
        report = Report()
        for i, candidate in enumerate(candidates):
            outcome = observe(layout, guard, candidate)
            report.outcomes.append(outcome)
            if progress and (i + 1) % 50 == 0:
                print(f"  {i + 1}/{len(candidates)}", flush=True)
        return report
    finally:
        subprocess.run(["rm", "-rf", str(base)], check=False)


def main(argv: list[str] | None = None) -> int:
    """`python -m tests.observe.harness [--full] [--json FILE] [--guard-path DIR]`: run and print the report.

    `--guard-path DIR` judges with the worktree_guard package found in DIR (another checkout, e.g. main),
    so the same candidates give before/after numbers side by side.
    """
    import argparse
    import sys

    parser = argparse.ArgumentParser(description=main.__doc__.split("\n")[0])
    parser.add_argument("--full", action="store_true", help="every candidate, not the bounded default sample")
    parser.add_argument("--json", help="write every outcome to this file")
    parser.add_argument("--guard-path", help="a checkout whose worktree_guard package judges")
    parser.add_argument("--only", help="one class")
    parser.add_argument("--list", default="escape,false-deny", help="kinds to list")
    args = parser.parse_args(argv)
    if args.guard_path:
        sys.path.insert(0, os.path.abspath(args.guard_path))
        for name in [n for n in sys.modules if n == "worktree_guard" or n.startswith("worktree_guard.")]:
            del sys.modules[name]
    import worktree_guard

    print(f"guard: {os.path.dirname(worktree_guard.__file__)}")
    reason = sandbox_available()
    if reason:
        print(f"cannot run: {reason}")
        return 2
    from tests.observe.candidates import all_candidates

    candidates = [c for c in all_candidates(full=args.full) if args.only in (None, c.cls)]
    print(f"{len(candidates)} candidates")
    started = time.perf_counter()
    report = run_all(candidates, progress=True)
    print(report.table())
    print(f"{time.perf_counter() - started:.0f} s")
    if args.list:
        print(report.listing(*args.list.split(",")))
    if args.json:
        Path(args.json).write_text("\n".join(json.dumps(o.as_json()) for o in report.outcomes) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
