"""`worktree-guard validate PATH…`: find the files, replay each unit (in parallel with --jobs), print the report."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TextIO

from .calls import LineProblem, ReadResult
from .findings import Finding
from .progress import Progress
from .replay import Replayer, ReplayOptions, ReplayStats
from .report import Report, summary_line, write_json, write_problems, write_text
from .sources import Unit, UsageError, units_of


@dataclass(slots=True)
class UnitResult:
    """What replaying one unit gave; small enough to send back from a worker process."""

    unit: Unit
    findings: list[Finding] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)
    stats: ReplayStats = field(default_factory=ReplayStats)
    records: int = 0


_worker_replayer: Replayer | None = None


def _start_worker(options: ReplayOptions) -> None:
    """A worker process's replayer: its caches serve every unit the worker replays."""
    global _worker_replayer
    _worker_replayer = Replayer(options)


def _replay_in_worker(unit: Unit) -> UnitResult:
    assert _worker_replayer is not None
    return replay_unit(unit, _worker_replayer)


def read_unit(unit: Unit, replayer: Replayer) -> ReadResult:
    from .hooklogs import read_audit_log, read_hook_log
    from .transcripts import read_session

    try:
        if unit.kind == "transcript":
            return read_session(unit.files)
        if unit.kind == "hook-log":
            return read_hook_log(unit.files[0], replayer.pm)
        if unit.kind == "codex-session":
            from .codex_sessions import read_codex_session

            return read_codex_session(unit.files[0])
        return read_audit_log(unit.files[0])
    except OSError as e:
        return ReadResult(problems=[LineProblem(unit.files[0], 0, f"cannot read: {e.strerror or e}")])


def replay_unit(unit: Unit, replayer: Replayer) -> UnitResult:
    """Read and judge one unit."""
    replayer.stats = ReplayStats()
    read = read_unit(unit, replayer)
    findings, problems = replayer.replay(read.calls)
    return UnitResult(unit, findings, read.problems + problems, replayer.stats, read.records)


def _results(units: list[Unit], options: ReplayOptions, jobs: int) -> Iterator[UnitResult]:
    """Each unit's result; with jobs > 1 from worker processes, biggest units first, in completion order."""
    if jobs <= 1 or len(units) <= 1:
        replayer = Replayer(options)
        for unit in units:
            yield replay_unit(unit, replayer)
        return
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(options,)) as pool:
        futures = [pool.submit(_replay_in_worker, unit) for unit in sorted(units, key=lambda u: -u.size)]
        for future in as_completed(futures):
            yield future.result()


def validate(paths: list[str], options: ReplayOptions, *, jobs: int = 1, progress: Progress | None = None) -> Report:
    """Replay every session and log under `paths`; UsageError when a path does not exist."""
    started = time.perf_counter()
    units, problems = units_of(paths)
    report = Report(problems=problems, audit=options.audit)
    if progress is not None:
        progress.total = max(sum(u.size for u in units), 1)
    done = 0
    for result in _results(units, options, jobs):
        report.findings += result.findings
        report.problems += result.problems
        report.stats.add(result.stats)
        report.records += result.records
        report.files += len(result.unit.files)
        report.sessions += 1
        report.size += result.unit.size
        done += result.unit.size
        if progress is not None:
            progress.update(done, report.files, report.count("violation"))
    report.seconds = time.perf_counter() - started
    return report


def run(
    paths: list[str],
    options: ReplayOptions,
    *,
    output_format: str = "text",
    jobs: int = 1,
    show_progress: bool | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """The command: 0 clean, 1 a violation got through, 2 a usage error. `show_progress` None: on a terminal."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if show_progress is None:
        show_progress = stderr.isatty()
    progress = Progress(1, stderr, show_progress)
    try:
        report = validate(paths, options, jobs=jobs, progress=progress)
    except UsageError as e:
        progress.close()
        stderr.write(f"worktree-guard validate: {e}\n")
        return 2
    progress.close()
    if report.sessions == 0:
        write_problems(report.problems, stderr)
        stderr.write(f"worktree-guard validate: no transcript, hook-input log or audit log under {' '.join(paths)}\n")
        return 2
    if output_format == "json":
        write_json(report, stdout)
        write_problems(report.problems, stderr)
        stderr.write(summary_line(report) + "\n")
    elif output_format == "sarif":
        from .sarif import sarif_log

        stdout.write(json.dumps(sarif_log(report), indent=2, ensure_ascii=False) + "\n")
        stderr.write(summary_line(report) + "\n")
    else:
        write_text(report, stdout)
    return report.exit_code
