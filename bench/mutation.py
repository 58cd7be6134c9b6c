"""Mutation testing of the decision core with mutmut 3: a score per module, equivalent mutants read from a file.

    .venv/bin/pip install -e '.[mutation]'
    .venv/bin/python bench/mutation.py                        # phase 1 modules (the default list below)
    .venv/bin/python bench/mutation.py shell/walk rules/cd    # any modules, paths relative to worktree_guard/
    .venv/bin/python bench/mutation.py --report               # the last run's scores again, without running
    .venv/bin/python bench/mutation.py rules engine --only rules/cd   # mutate all, test one module's mutants

With `--only`, every listed module is mutated (so the one coverage pass covers them all) but only the mutants of
the `--only` modules are tested and reported: the next module is then another `--resume --only` run in the same
workdir that pays no second coverage pass.

The run happens in a copy of the checkout (`--workdir`, default $TMPDIR/worktree-guard-mutation), never in the
checkout itself: mutmut writes its trampolined copy (`mutants/`) beside the sources it mutates. mutmut first runs
the selected tests once and records which tests call which function; each mutant then runs only those tests,
stopping at the first failure (per-mutant selection by coverage, at function granularity). Child processes
load the checkout's editable install, not the mutants, so the tests that judge only there (the daemon, the
real CLI in tests/e2e, install) are left out; so are the corpus replays (`-m corpus`), for time. See
docs/testing.md.

Equivalent mutants live in bench/mutation-equivalents.txt, one a line: `MUTANT-ID-OR-GLOB | TEXT | reason`,
where TEXT must occur in the mutant's changed line: an entry whose text no longer matches (the code moved, the
numbering shifted) is reported as stale and not applied.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = "worktree_guard"
EQUIVALENTS = REPO / "bench" / "mutation-equivalents.txt"
#: Phase 1 of issue 13: the modules that find W, S and isolation and judge paths (engine and the rest: phase 2).
PHASE_1 = ["paths", "layout", "isolation", "policy", "config", "agents"]
#: Left out of the test selection: they judge in child processes, which load the checkout's editable install and
#: never the mutants (and test_install compares the paths it writes with the checkout's own).
IGNORED_TESTS = ["tests/e2e", "tests/test_daemon.py", "tests/test_install.py", "tests/test_hook_faults.py"]
#: Tests that wait for a daemon. In the copy, the daemon a hook process starts runs `python -P -m worktree_guard.daemon`,
#: which imports the checkout's editable install, not mutants/: its package dir is not the one it was started for
#: (`--package-dir`), so it exits (daemon.py), no daemon ever listens, and the test fails after 60 s. In the coverage
#: pass that failure stopped mutmut with "failed to collect stats. runner returned 1" and no output (phase 14).
#: tests/test_hook_faults.py (above) is all such tests; these are the others.
DAEMON_TESTS = [
    "tests/test_daemon_identity.py::test_a_stopped_daemon_is_killed_through_its_pidfd",
    "tests/test_judged_once.py::test_a_stop_whose_save_stalls_in_the_daemon_is_still_blocked_once",
    "tests/test_judged_once.py::test_an_audit_line_is_written_once_when_the_daemon_abandons_the_judgement",
    "tests/test_judged_once.py::test_a_served_calls_audit_line_is_written_by_the_hook_process",
    "tests/test_judged_once.py::test_calls_that_write_state_are_declined_by_the_daemon_before_anything_is_written",
    "tests/test_main_session_isolated.py::test_the_daemon_declines_the_call_that_writes_the_record_and_serves_the_rest",
]

# mutmut's exit codes per mutant (mutmut.stats.status_by_exit_code).
KILLED = {1, 3, 37}
#: Seconds one `--recheck` run of a mutant may take.
RECHECK_TIMEOUT = 900
SURVIVED = {0}
NO_TESTS = {5, 33}
TIMEOUT = {36, 24, -24, 152, 255}


def module_files(modules: list[str]) -> list[str]:
    """`paths` → worktree_guard/paths.py; `rules` → every module under worktree_guard/rules/."""
    files: list[str] = []
    for module in modules:
        name = module.replace(".", "/").removeprefix(PACKAGE + "/").removesuffix(".py")
        directory = REPO / PACKAGE / name
        if directory.is_dir():
            files += sorted(str(p.relative_to(REPO)) for p in directory.rglob("*.py") if p.name != "__init__.py")
        elif (REPO / PACKAGE / f"{name}.py").is_file():
            files.append(f"{PACKAGE}/{name}.py")
        else:
            raise SystemExit(f"mutation.py: no module {module!r} under {PACKAGE}/")
    return files


def copy_checkout(workdir: Path, fresh: bool = True) -> None:
    """The checkout's files as they are now (tracked and untracked, not ignored) into `workdir` (emptied first
    unless resuming: then mutmut's `mutants/` and its results stay)."""
    if fresh and workdir.exists():
        shutil.rmtree(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    listed = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"], cwd=REPO, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = REPO / name
        if source.is_file():
            target = workdir / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


HOOKIMPL = re.compile(r"^(@hookimpl(?:\([^)\n]*\))?)\n(def ([A-Za-z_]\w*)\()", re.M)


def lift_hookimpls(workdir: Path, files: list[str]) -> int:
    """mutmut mutates no decorated function, and every rule's body is a `@hookimpl` function: in the copy, each
    module-level `@hookimpl` becomes `name = hookimpl(name)` at the end of the module (what the decorator does),
    so that mutmut mutates the body and pluggy still finds the marked function (the trampoline keeps its
    signature through `functools.wraps`). Returns how many were lifted."""
    lifted = 0
    for file in files:
        path = workdir / file
        text = path.read_text()
        marks: list[str] = []

        def lift(match: re.Match[str]) -> str:
            decorator, name = match.group(1)[1:], match.group(3)
            marks.append(f"{name} = {decorator}({name})")
            return match.group(2)

        text = HOOKIMPL.sub(lift, text)
        if marks:
            path.write_text(text.rstrip("\n") + "\n\n\n# bench/mutation.py: the @hookimpl decorators, lifted so that mutmut mutates these functions\n" + "\n".join(marks) + "\n")
            lifted += len(marks)
    return lifted


def write_config(workdir: Path, files: list[str], pytest_args: list[str], tests: list[str] | None = None, warmup: str = "none") -> None:
    # mutmut reads [tool.mutmut] from pyproject.toml, else [mutmut] from setup.cfg: the project has neither,
    # so the run's own setup.cfg in the copy is the configuration.
    selection = [*(tests or ["tests"]), *(f"--ignore={t}" for t in IGNORED_TESTS), *(f"--deselect={t}" for t in DAEMON_TESTS), *pytest_args]
    # mutmut copies the sources and tests/ into mutants/; the tests also read fixtures/, hooks/, .claude-plugin/…
    also_copy = sorted(p.name for p in workdir.iterdir() if p.name not in (PACKAGE, "tests", "mutants", "setup.cfg"))
    lines = [
        "[mutmut]",
        f"source_paths = {PACKAGE}",
        "also_copy = " + "\n    ".join(also_copy),
        "only_mutate = " + "\n    ".join(files),
        "pytest_add_cli_args_test_selection = " + "\n    ".join(selection),
        "pytest_add_cli_args = -p\n    no:cacheprovider",
        "use_git_change_detection = false",
        # A mutant's tests may take this many times their clean duration before it counts as a timeout: the
        # machine is shared (2 cores, other runs at full load), and mutmut's default of 15 timed out kills.
        "timeout_multiplier = 50",
        # Each pytest run in a fresh child of a fork server that has collected nothing (`--warmup none`): a second
        # collection in a process that has already collected tests/test_bash_rules.py misses parametrized ids the
        # coverage pass recorded; pytest exits 4 ("not found"), and mutmut stops (main process) or counts the mutant
        # as a timeout (exit 255, fork server). A selection without it may warm up (`--warmup collect`): each child
        # then starts with the tests collected, not from an empty interpreter.
        "process_isolation = forkserver",
        f"forkserver_warmup = {warmup}",
    ]
    (workdir / "setup.cfg").write_text("\n".join(lines) + "\n")


def refresh_tests(workdir: Path) -> None:
    """Resuming: mutmut copies tests/ into mutants/ only when a file is missing there, so a test file changed
    since the last run is copied again (a new test in it is then found and gets its coverage collected)."""
    for source in (workdir / "tests").rglob("*"):
        target = workdir / "mutants" / source.relative_to(workdir)
        if source.is_file() and (not target.exists() or target.read_bytes() != source.read_bytes()):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def mutant_names(
    workdir: Path, files: list[str], only_unkilled: bool, skip: list[str] = (), equivalents: list["Equivalent"] = ()
) -> list[str]:
    """The `--only` modules' mutants as names for `mutmut run`: a glob per module, or (resuming) every mutant
    of theirs not killed last time, by name (mutmut re-tests a mutant named on its command line). Resuming, a
    mutant the equivalents file excuses is not run again (each costs a full covering run and cannot be killed),
    nor is one whose name matches a `--skip` glob (a known endless loop: it would hold a slot until its timeout);
    a skipped mutant keeps its last result, so the report still counts it against the score."""
    names: list[str] = []
    for file in files:
        meta = workdir / "mutants" / f"{file}.meta"
        if not only_unkilled or not meta.exists():
            names.append(file.removesuffix(".py").replace("/", ".") + ".*")
            continue
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        unkilled = sorted(name for name, code in codes.items() if code not in KILLED)
        names += [n for n in unkilled if not any(fnmatch.fnmatchcase(n, g) for g in skip) and not excused(workdir, file, n, equivalents)]
    return names


def recheck(workdir: Path, files: list[str], tests: list[str], pytest_args: list[str], skip: list[str], equivalents: list["Equivalent"]) -> int:
    """Each mutant of `files` not killed last time, run against `tests` (the checkout's current copies) one at a time,
    stopping at the first failure; a mutant some test fails is recorded as killed. For the tests the recorded
    coverage does not send a mutant to: a file outside the run's selection, or tests run only in a subprocess.
    Returns how many were killed."""
    copy_checkout(workdir, fresh=False)
    refresh_tests(workdir)
    killed = 0
    for file in files:
        meta = workdir / "mutants" / f"{file}.meta"
        for name in mutant_names(workdir, [file], True, skip, equivalents):
            env = {**os.environ, "MUTANT_UNDER_TEST": name}
            command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *pytest_args, *tests]
            try:
                code = subprocess.run(command, cwd=workdir / "mutants", env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=RECHECK_TIMEOUT).returncode
            except subprocess.TimeoutExpired:
                code = None  # a hang is no kill here: mutmut's own run counts it as a timeout
            print(f"recheck {name}: {'killed' if code == 1 else 'not killed'}", flush=True)
            if code == 1:
                data = json.loads(meta.read_text())
                data["exit_code_by_key"][name] = 1
                meta.write_text(json.dumps(data))
                killed += 1
    return killed


def excused(workdir: Path, file: str, name: str, equivalents: list["Equivalent"]) -> bool:
    """Does an entry of the equivalents file match this mutant (its name and its changed line)?"""
    candidates = [e for e in equivalents if fnmatch.fnmatchcase(name, e.pattern)]
    if not candidates:
        return False
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    here = os.getcwd()
    os.chdir(workdir)
    try:
        changed = changed_lines(get_diff_for_mutant(name, path=file))
    finally:
        os.chdir(here)
    return any(e.text in changed for e in candidates)


def drop_covering_tests(workdir: Path, prefixes: list[str]) -> int:
    """Take the tests under `prefixes` out of the recorded coverage (mutants/mutmut-stats.json), so that no mutant
    runs them: for slow replays (test_records, the property tests) on a starved machine. Kills are then a lower
    bound. The test selection itself is unchanged, so mutmut keeps its coverage pass (no second one)."""
    stats = workdir / "mutants" / "mutmut-stats.json"
    if not prefixes or not stats.exists():
        return 0
    data = json.loads(stats.read_text())
    dropped = 0
    for name, tests in data["tests_by_mangled_function_name"].items():
        kept = [t for t in tests if not t.startswith(tuple(prefixes))]
        dropped += len(tests) - len(kept)
        data["tests_by_mangled_function_name"][name] = kept
    stats.write_text(json.dumps(data))
    return dropped


def forget_survivors(workdir: Path, files: list[str]) -> int:
    """Resuming: every mutant that was not killed is tested again (new tests may kill it); kills are kept."""
    count = 0
    for file in files:
        meta = workdir / "mutants" / f"{file}.meta"
        if not meta.exists():
            continue
        data = json.loads(meta.read_text())
        for name, code in data["exit_code_by_key"].items():
            if code is not None and code not in KILLED:
                data["exit_code_by_key"][name] = None
                count += 1
        meta.write_text(json.dumps(data))
    return count


GENERATE = """
import os
from mutmut.__main__ import create_mutants
from mutmut.mutation.trampoline import set_mutant_under_test
from mutmut.utils.file_utils import copy_also_copy_files, copy_src_dir, setup_source_paths
set_mutant_under_test("mutant_generation")
os.makedirs("mutants", exist_ok=True)
copy_src_dir()
copy_also_copy_files()
setup_source_paths()
stats = create_mutants({jobs})
print(f"mutants generated: {{stats.mutated}} files mutated, {{stats.ignored}} copied, {{stats.unmodified}} unchanged")
"""


def changed_functions(source: str, diff: str) -> set[str]:
    """The functions and methods (`name`, `Class.name`) of a module's `source` that hold a line `diff` (`git diff -U0`
    of that module, its new side) adds or changes; a deleted line counts for the function it was deleted from."""
    lines: set[int] = set()
    for hunk in re.finditer(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@", diff, re.M):
        start, count = int(hunk.group(1)), int(hunk.group(2) or 1)
        lines.update(range(start, start + max(count, 1)))
    found: set[str] = set()

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                if lines & set(range(first, child.end_lineno + 1)):
                    found.add(prefix + child.name)
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")

    visit(ast.parse(source), "")
    return found


def mutant_function(name: str) -> str:
    """The function a mutmut 3 mutant name belongs to: `pkg.mod.x_f__mutmut_3` -> `f`, `pkg.mod.xǁCǁm__mutmut_1` -> `C.m`."""
    mangled = name.rsplit(".", 1)[1].rsplit("__mutmut_", 1)[0]
    if mangled.startswith("x\u01c1"):
        return mangled[2:].replace("\u01c1", ".")
    return mangled.removeprefix("x_")


def changed_names(workdir: Path, files: list[str], commit: str, repo: Path = REPO) -> list[str]:
    """The mutants of `files` in functions whose code changed between `commit` and the checkout (what a module's
    score measured at `commit` has not seen): mutmut's names, from the workdir's `.meta` files."""
    names: list[str] = []
    for file in files:
        diff = subprocess.run(["git", "diff", "-U0", commit, "--", file], cwd=repo, capture_output=True, text=True, check=True).stdout
        functions = changed_functions((repo / file).read_text(), diff)
        codes = json.loads((workdir / "mutants" / f"{file}.meta").read_text())["exit_code_by_key"]
        names += sorted(n for n in codes if mutant_function(n) in functions)
    return names


def generate(workdir: Path, jobs: int) -> None:
    """mutmut's generation step alone (its `run` goes on to a coverage pass and tests every mutant): the mutated
    copy in `mutants/` and each file's `.meta` with every mutant untested, for `--screen`."""
    done = subprocess.run([sys.executable, "-c", GENERATE.format(jobs=jobs)], cwd=workdir)
    if done.returncode != 0:
        raise SystemExit(f"mutation.py: generating the mutants failed (exit {done.returncode})")


def screen(workdir: Path, files: list[str], tests: list[str], pytest_args: list[str], seconds: float, names: Path | None) -> float:
    """bench/mutation_screen.py in one pytest process in `mutants/`: each mutant of `files` not killed yet, against `tests`
    (the checkout's tests as they are now: copied into the workdir, then into `mutants/`)."""
    # only tests/: the workdir's sources carry the lifted @hookimpl decorators that the mutants' diffs are read against
    shutil.copytree(REPO / "tests", workdir / "tests", dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
    refresh_tests(workdir)
    env = dict(os.environ)
    env.setdefault("WG_SHARED_DIR", str(REPO.parent / "shared"))
    env["CI"] = "true"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "bench"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    command = ["nice", "-n", "19", sys.executable, "-m", "pytest", "-p", "mutation_screen", "-p", "no:cacheprovider",
               "-p", "no:randomly", "-q", "--screen-seconds", str(seconds), *(f"--screen-files={f}" for f in files),
               *([f"--screen-names={names.resolve()}"] if names else []), *pytest_args, *tests]
    started = time.monotonic()
    done = subprocess.run(command, cwd=workdir / "mutants", env=env)
    if done.returncode not in (0, 5):
        raise SystemExit(f"mutation.py: the screening exited {done.returncode}")
    return time.monotonic() - started


def run_mutmut(workdir: Path, jobs: int, names: list[str] | None = None) -> float:
    env = dict(os.environ)
    env.setdefault("WG_SHARED_DIR", str(REPO.parent / "shared"))
    env["CI"] = "true"  # the CI hypothesis profile: every mutant meets the same examples
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    command = ["nice", "-n", "19", sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs), *(names or [])]
    started = time.monotonic()
    with open(workdir / "mutmut.log", "wb") as log:
        done = subprocess.run(command, cwd=workdir, env=env, stdout=log, stderr=subprocess.STDOUT)
    elapsed = time.monotonic() - started
    if done.returncode != 0:
        raise SystemExit(f"mutation.py: mutmut exited {done.returncode}; see {workdir / 'mutmut.log'}")
    (workdir / "elapsed.json").write_text(json.dumps({"seconds": elapsed}))
    return elapsed


@dataclass
class Equivalent:
    pattern: str
    text: str
    reason: str
    line: int
    used: int = 0


def read_equivalents(path: Path) -> list[Equivalent]:
    entries = []
    for number, raw in enumerate(path.read_text().splitlines() if path.exists() else [], 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in raw.split(" | ")]
        if len(parts) != 3 or not all(parts):
            raise SystemExit(f"{path}:{number}: expected `MUTANT-ID-OR-GLOB | TEXT IN THE CHANGED LINE | reason`")
        entries.append(Equivalent(*parts, line=number))
    return entries


@dataclass
class ModuleScore:
    file: str
    killed: int = 0
    equivalent: int = 0
    survived: list[tuple[str, str]] = field(default_factory=list)
    no_tests: list[tuple[str, str]] = field(default_factory=list)
    timeout: list[tuple[str, str]] = field(default_factory=list)
    other: list[tuple[str, str]] = field(default_factory=list)

    @property
    def counted(self) -> int:
        return self.killed + len(self.survived) + len(self.no_tests) + len(self.timeout) + len(self.other)

    @property
    def score(self) -> float:
        return 100.0 * self.killed / self.counted if self.counted else 100.0


def changed_lines(diff: str) -> str:
    return "\n".join(line[1:] for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++"))


def collect(workdir: Path, files: list[str], equivalents: list[Equivalent]) -> list[ModuleScore]:
    os.chdir(workdir)
    from mutmut.mutation.diff_apply import get_diff_for_mutant

    scores = []
    for file in files:
        meta = workdir / "mutants" / f"{file}.meta"
        score = ModuleScore(file)
        scores.append(score)
        if not meta.exists():
            continue
        results = json.loads(meta.read_text())["exit_code_by_key"]
        for name, code in sorted(results.items()):
            if code in KILLED:
                score.killed += 1
                continue
            diff = get_diff_for_mutant(name, path=file)
            changed = changed_lines(diff)
            match = next((e for e in equivalents if fnmatch.fnmatchcase(name, e.pattern) and e.text in changed), None)
            if match is not None:
                match.used += 1
                score.equivalent += 1
            elif code in SURVIVED:
                score.survived.append((name, changed))
            elif code in NO_TESTS:
                score.no_tests.append((name, changed))
            elif code in TIMEOUT:
                score.timeout.append((name, changed))
            else:
                score.other.append((name, f"exit code {code}: {changed}"))
    return scores


def report(scores: list[ModuleScore], equivalents: list[Equivalent], elapsed: float | None, verbose: bool) -> int:
    print(f"{'module':38} {'mutants':>7} {'killed':>6} {'equiv':>5} {'survived':>8} {'no test':>7} {'timeout':>7} {'score':>7}")
    total = ModuleScore("total")
    for s in scores:
        print(f"{s.file:38} {s.counted + s.equivalent:7} {s.killed:6} {s.equivalent:5} {len(s.survived):8} {len(s.no_tests):7} {len(s.timeout):7} {s.score:6.1f}%")
        total.killed += s.killed
        total.equivalent += s.equivalent
        for name in ("survived", "no_tests", "timeout", "other"):
            getattr(total, name).extend(getattr(s, name))
    print(f"{'total':38} {total.counted + total.equivalent:7} {total.killed:6} {total.equivalent:5} {len(total.survived):8} {len(total.no_tests):7} {len(total.timeout):7} {total.score:6.1f}%")
    print("score = killed / (mutants - equivalent); a timeout is not counted as killed")
    if elapsed is not None:
        print(f"run time: {elapsed / 60:.1f} min")
    reported = tuple(s.file.removesuffix(".py").replace("/", ".") + "." for s in scores)
    for e in equivalents:
        if e.used == 0 and e.pattern.startswith(reported):  # an entry for a module not reported here is not stale
            print(f"stale equivalent (matches no surviving mutant): line {e.line}: {e.pattern} | {e.text}")
    if verbose:
        for s in scores:
            for kind in ("survived", "no_tests", "timeout", "other"):
                for name, changed in getattr(s, kind):
                    print(f"\n{kind.replace('_', ' ')}: {name}\n    {changed.replace(chr(10), chr(10) + '    ')}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", default=PHASE_1, help=f"modules under {PACKAGE}/ (default: {' '.join(PHASE_1)})")
    parser.add_argument("--workdir", type=Path, default=Path(tempfile.gettempdir()) / "worktree-guard-mutation")
    parser.add_argument("--jobs", type=int, default=2, help="mutants tested at a time (default 2, at nice 19)")
    parser.add_argument("--equivalents", type=Path, default=EQUIVALENTS)
    parser.add_argument("--pytest", action="append", default=None, metavar="ARG",
                        help="extra pytest arguments for the test selection (default: -m 'not corpus')")
    parser.add_argument("--tests", action="append", default=None, metavar="PATH",
                        help="test files or folders for the coverage pass instead of all of tests/ (repeatable)")
    parser.add_argument("--warmup", choices=["none", "collect"], default="none",
                        help="collect: mutmut's fork server collects the selection once and forks warm children (only for a "
                        "selection that collects the same ids twice in one process; tests/test_bash_rules.py does not)")
    parser.add_argument("--report", action="store_true", help="only print the scores of the last run in --workdir")
    parser.add_argument("--resume", action="store_true",
                        help="keep the last run's kills in --workdir, take the checkout's current tests, and test only the other mutants again")
    parser.add_argument("--only", action="append", default=None, metavar="MODULE",
                        help="test and report only these modules' mutants (all the listed modules are mutated and covered)")
    parser.add_argument("--drop-covering", action="append", default=[], metavar="TESTS",
                        help="resuming: no mutant runs the tests whose id starts with TESTS (e.g. tests/test_records.py)")
    parser.add_argument("--skip", action="append", default=[], metavar="GLOB",
                        help="resuming with --only: do not run the mutants whose name matches (known endless loops); they keep their last result")
    parser.add_argument("--recheck", action="append", default=[], metavar="TESTS",
                        help="with --only: run each mutant not killed last time against these test files, one at a time (pytest -x), "
                        "and record the ones they kill; for tests the recorded coverage does not reach (repeatable)")
    parser.add_argument("--generate", action="store_true",
                        help="only copy the checkout and generate the mutants (no mutmut run), for --screen")
    parser.add_argument("--screen", action="append", default=[], metavar="TESTS",
                        help="with --only or a generated workdir: screen every mutant not killed yet against these tests in one "
                        "pytest process (bench/mutation_screen.py), record the results, and report (repeatable)")
    parser.add_argument("--screen-seconds", type=float, default=20.0, help="--screen's alarm for all the tests of one mutant")
    parser.add_argument("--screen-names", type=Path, default=None, help="--screen only the mutants named in this file")
    parser.add_argument("--changed-since", default=None, metavar="COMMIT",
                        help="--screen only the mutants of functions whose code changed since COMMIT (with --screen-names: "
                        "those of its names); alone with --only: print their names")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every mutant that was not killed, with its change")
    args = parser.parse_args(argv)
    files = module_files(args.modules)
    only = module_files(args.only) if args.only else files
    if not set(only) <= set(files):
        raise SystemExit("mutation.py: --only names modules that are not in the mutated list")
    equivalents = read_equivalents(args.equivalents)
    workdir = args.workdir.resolve()
    elapsed = None
    if args.recheck:
        if not args.only:
            raise SystemExit("mutation.py: --recheck needs --only (the modules whose survivors to run again)")
        started = time.monotonic()
        pytest_args = args.pytest if args.pytest is not None else ["-m", "not corpus"]
        print(f"recheck: {recheck(workdir, only, args.recheck, pytest_args, args.skip, equivalents)} more killed", flush=True)
        return report(collect(workdir, only, equivalents), equivalents, time.monotonic() - started, args.verbose)
    names_file = args.screen_names
    if args.changed_since:
        changed = changed_names(workdir, only, args.changed_since)
        if not args.screen:
            print("\n".join(changed))
            return 0
        if args.screen_names:
            named = set(args.screen_names.read_text().split())
            changed = [n for n in changed if n in named]
        names_file = workdir / "changed.names"
        names_file.write_text("".join(f"{n}\n" for n in changed))
        print(f"--changed-since {args.changed_since}: {len(changed)} mutants in changed functions", flush=True)
    if args.screen:
        pytest_args = args.pytest if args.pytest is not None else ["-m", "not corpus"]
        elapsed = screen(workdir, only, args.screen, pytest_args, args.screen_seconds, names_file)
        return report(collect(workdir, only, equivalents), equivalents, elapsed, args.verbose)
    if args.generate:
        copy_checkout(workdir, fresh=True)
        print(f"{lift_hookimpls(workdir, files)} @hookimpl functions made mutable", flush=True)
        write_config(workdir, files, args.pytest if args.pytest is not None else ["-m", "not corpus"], args.tests, args.warmup)
        generate(workdir, args.jobs)
        return report(collect(workdir, only, equivalents), equivalents, None, False)
    if not args.report:
        copy_checkout(workdir, fresh=not args.resume)
        print(f"{lift_hookimpls(workdir, files)} @hookimpl functions made mutable", flush=True)
        write_config(workdir, files, args.pytest if args.pytest is not None else ["-m", "not corpus"], args.tests, args.warmup)
        names = mutant_names(workdir, only, args.resume, args.skip, equivalents) if args.only else None
        if args.resume:
            refresh_tests(workdir)
            if args.drop_covering:
                print(f"{drop_covering_tests(workdir, args.drop_covering)} test-to-function links dropped", flush=True)
            if names is None:
                print(f"resuming: {forget_survivors(workdir, files)} mutants not killed last time are tested again", flush=True)
            else:
                print(f"resuming: {len(names)} names for mutmut (the --only modules' mutants not killed last time)", flush=True)
        if names == []:
            print("nothing to test: every mutant of the --only modules was killed")
        else:
            elapsed = run_mutmut(workdir, args.jobs, names)
    elif (workdir / "elapsed.json").exists():
        elapsed = json.loads((workdir / "elapsed.json").read_text())["seconds"]
    return report(collect(workdir, only, equivalents), equivalents, elapsed, args.verbose)


if __name__ == "__main__":
    sys.exit(main())
