"""In-process screening of mutants: a pytest plugin that runs every mutant of some modules against some tests
in ONE pytest process, and records the results where `bench/mutation.py --report` reads them.

    .venv/bin/python bench/mutation.py shell/state --generate --workdir /tmp/m          # the mutants, no mutmut run
    .venv/bin/python bench/mutation.py shell/state --screen tests/shell/test_state.py --workdir /tmp/m -v

mutmut runs each mutant in a forked child with its covering tests. That is exact but slow on 2 cores: a
module of 2,000 mutants took hours. mutmut's trampolines choose the function body at each call from the
active mutant's name (`mutmut.mutation.trampoline.set_mutant_under_test`), so one process can run many
mutants: the plugin collects the given tests once, runs them once with no mutant (all must pass), then for
each mutant runs them in order and stops at the first failure, as `pytest -x` would. Kept between mutants:
the collected tests, the session and module fixtures built with the original code, the imported modules.
Cleared before each mutant: every `functools` cache of the package (a result cached by another mutant, or by
the original code, must not answer for this one).

Each mutant gets an alarm (`--screen-seconds`, default 20 s for all its tests); a mutant the alarm stops is
an endless loop or close to one, and is recorded as killed (a test run that never ends fails CI as surely as
an assertion), listed apart in the summary. A mutant no test kills is checked once more in a fresh process
that imports its module with the mutant active: a mutant of a function run at import time fails there, and is
killed. What survives both is recorded as survived (exit code 0), so `--report` counts it against the score
unless the equivalents file excuses it. `--recheck` (plain pytest per mutant, in a fresh process) remains the
check for the survivors: a mutant a session fixture's world hides (built once with the original code) is only
caught there.

Written per mutant into `mutants/<file>.meta` (mutmut's own record): 1 killed, 0 survived. A summary with the
killing test of each mutant goes to `screen.json` in the workdir.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from _pytest.runner import runtestprotocol

PACKAGE = "worktree_guard"


class ScreenTimeout(BaseException):
    """The alarm of one mutant: a BaseException, so that the guard's own `except Exception` cannot swallow it."""


_fired = False


def _alarm(signum: int, frame: object) -> None:
    global _fired
    _fired = True
    raise ScreenTimeout()


def _clear_caches() -> int:
    cleared = 0
    for name, module in list(sys.modules.items()):
        if module is None or not (name == PACKAGE or name.startswith(PACKAGE + ".")):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()
                cleared += 1
    return cleared


def _activate(name: str) -> None:
    """Make `name` the active mutant ("" for none): the environment variable every trampoline reads first, and
    mutmut's process-local copy (a test that clears os.environ must not turn the mutant off)."""
    os.environ["MUTANT_UNDER_TEST"] = name
    try:
        from mutmut.mutation.trampoline import set_mutant_under_test
    except ImportError:
        return
    set_mutant_under_test(name)


def _mutants(files: list[str], names: set[str] | None) -> list[tuple[str, str]]:
    """(file, mutant name) of every mutant of `files` not killed yet (or only those in `names`)."""
    found = []
    for file in files:
        meta = Path(f"{file}.meta")
        if not meta.exists():
            raise pytest.UsageError(f"mutation_screen: no {meta} in {os.getcwd()}: generate the mutants first (--generate)")
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        for name, code in sorted(codes.items()):
            if (names is None and code != 1) or (names is not None and name in names):
                found.append((file, name))
    return found


def _record(file: str, results: dict[str, int]) -> None:
    meta = Path(f"{file}.meta")
    data = json.loads(meta.read_text())
    data["exit_code_by_key"].update(results)
    meta.write_text(json.dumps(data))


def _run_item(item: pytest.Item, nextitem: pytest.Item | None) -> bool:
    """Run one test; did it fail (in setup, call or teardown)?"""
    reports = runtestprotocol(item, log=False, nextitem=nextitem)
    return any(report.failed for report in reports)


def _fails_on_import(file: str, name: str) -> bool:
    module = file.removesuffix(".py").replace("/", ".")
    env = {**os.environ, "MUTANT_UNDER_TEST": name}
    done = subprocess.run([sys.executable, "-c", f"import {module}"], cwd=os.getcwd(), env=env, capture_output=True, timeout=120)
    return done.returncode != 0


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("mutation_screen")
    group.addoption("--screen-files", action="append", default=[], help="module files whose mutants to screen (worktree_guard/x.py)")
    group.addoption("--screen-names", default=None, help="a file of mutant names: screen only these")
    group.addoption("--screen-seconds", type=float, default=20.0, help="alarm for all the tests of one mutant")
    group.addoption("--screen-out", default="../screen.json", help="the summary (default: screen.json beside mutants/)")


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> bool:
    global _fired
    config = session.config
    files = config.getoption("--screen-files")
    if not files:
        raise pytest.UsageError("mutation_screen: give --screen-files")
    import worktree_guard

    if not Path(worktree_guard.__file__).resolve().is_relative_to(Path.cwd().resolve()):
        raise pytest.UsageError(f"mutation_screen: worktree_guard is imported from {worktree_guard.__file__}, not from the mutants in {os.getcwd()}")
    names_file = config.getoption("--screen-names")
    names = set(Path(names_file).read_text().split()) if names_file else None
    mutants = _mutants(files, names)
    items = session.items
    seconds = config.getoption("--screen-seconds")
    out = Path(config.getoption("--screen-out"))
    terminal = config.pluginmanager.get_plugin("terminalreporter")

    def say(text: str) -> None:
        terminal.write_line(text) if terminal else print(text, flush=True)

    def next_of(i: int) -> pytest.Item:
        # the last test's next is the first one (its session and module fixtures stay up between mutants), but not
        # itself: a one-test selection rerun with itself as its next kept no fixture values (KeyError: every mutant
        # "killed")
        return items[i + 1] if i + 1 < len(items) else (items[0] if len(items) > 1 else None)  # type: ignore[return-value]

    _activate("")
    started = time.monotonic()
    for i, item in enumerate(items):
        if _run_item(item, next_of(i)):
            raise pytest.UsageError(f"mutation_screen: {item.nodeid} fails without any mutant; screening needs a green selection")
    clean = time.monotonic() - started
    # an alarm near the clean run's time ends a mutant that only runs slowly (phase 20: 20 s on a selection that took 20 s)
    seconds = max(seconds, 5 * clean)
    say(f"mutation_screen: {len(items)} tests pass without a mutant in {clean:.1f} s; {len(mutants)} mutants to screen, alarm {seconds:g} s each")

    def still_green(after: str) -> None:
        """After an alarm, which may have gone off inside a fixture: everything torn down, and the selection must pass
        again with no mutant, else every later mutant would be "killed" by the broken setup (phase 20, h-m35b)."""
        session._setupstate.teardown_exact(None)  # type: ignore[arg-type]
        # a fixture the alarm stopped in its setup cached nothing but kept its finalizers: pytest then refuses to set it
        # up again (`assert not self._finalizers`), so each later test failed in setup
        for test in items:
            for definitions in test._fixtureinfo.name2fixturedefs.values():  # type: ignore[attr-defined]
                for definition in definitions:
                    if definition.cached_result is None:
                        definition._finalizers.clear()
        for i, item in enumerate(items):
            if _run_item(item, next_of(i)):
                raise pytest.UsageError(f"mutation_screen: after {after}'s alarm, {item.nodeid} fails with no mutant; the mutants after it were not screened (--screen-names for the rest)")

    summary: dict[str, dict[str, str]] = {}
    results: dict[str, dict[str, int]] = {file: {} for file in files}
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        here = os.getcwd()
        for count, (file, name) in enumerate(mutants, 1):
            _fired = False
            _clear_caches()
            _activate(name)
            killer = None
            signal.setitimer(signal.ITIMER_REAL, seconds)
            try:
                for i, item in enumerate(items):
                    if _run_item(item, next_of(i)):
                        killer = item.nodeid
                        break
            except ScreenTimeout:
                killer = "timeout"
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
                _activate("")
            if _fired:  # the alarm went off inside a test, whose report then failed
                killer = "timeout"
            os.chdir(here)
            if killer == "timeout":
                still_green(name)
            else:
                session._setupstate.teardown_exact(items[0] if len(items) > 1 else None)  # type: ignore[arg-type]
            if killer is None and _fails_on_import(file, name):
                killer = "import"
            results[file][name] = 0 if killer is None else 1
            summary[name] = {"file": file, "killed_by": killer or ""}
            if count % 25 == 0 or count == len(mutants):
                for f, r in results.items():
                    _record(f, r)
                    r.clear()
                out.write_text(json.dumps(summary, indent=1, sort_keys=True))
                say(f"mutation_screen: {count}/{len(mutants)} after {time.monotonic() - started:.0f} s")
    finally:
        signal.signal(signal.SIGALRM, previous)
        for f, r in results.items():
            if r:
                _record(f, r)
        out.write_text(json.dumps(summary, indent=1, sort_keys=True))
    survived = sorted(n for n, s in summary.items() if not s["killed_by"])
    timeouts = sorted(n for n, s in summary.items() if s["killed_by"] == "timeout")
    say(f"mutation_screen: {len(summary)} screened, {len(summary) - len(survived)} killed ({len(timeouts)} by the alarm), {len(survived)} survived")
    for name in survived:
        say(f"survived: {name}")
    return True
