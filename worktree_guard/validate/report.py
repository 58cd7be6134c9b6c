"""Human text and JSON lines for the findings, and the summary both end with."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TextIO

from .calls import LineProblem
from .findings import Finding
from .replay import ReplayStats


@dataclass(slots=True)
class Report:
    """Everything one `validate` run found, and what it read to find it."""

    findings: list[Finding] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)
    stats: ReplayStats = field(default_factory=ReplayStats)
    files: int = 0
    sessions: int = 0
    records: int = 0
    size: int = 0
    seconds: float = 0.0
    audit: bool = False

    def count(self, status: str) -> int:
        return sum(1 for f in self.findings if f.status == status)

    @property
    def exit_code(self) -> int:
        """1 when a violation got through (a blocked call alone is not one), else 0."""
        return 1 if self.count("violation") else 0


def shown_path(path: str) -> str:
    """A path relative to the current directory when it lies below it, else as it is."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith("..") else relative


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def summary_line(report: Report) -> str:
    stats = report.stats
    rate = report.size / 1e6 / report.seconds if report.seconds > 0 else 0.0
    unjudged = ", ".join(f"{tool} {n}" for tool, n in sorted(stats.unjudged.items()))
    parts = [
        f"{_plural(report.files, 'file')}, {report.sessions:,} sessions/logs, {_plural(report.records, 'record')}",
        f"{_plural(stats.calls, 'tool call')} ({stats.judged:,} judged, {stats.verdicts:,} distinct verdicts"
        + (f"; not judged, unknown tools: {unjudged}" if unjudged else "")
        + ")",
        f"{_plural(report.count('violation'), 'violation')}, {report.count('blocked'):,} blocked, "
        f"{_plural(report.count('warning'), 'warning')}, {report.count('info'):,} info",
        f"skipped {_plural(sum(1 for p in report.problems if p.line), 'unreadable line')}, "
        f"{_plural(sum(1 for p in report.problems if not p.line), 'file')}",
        f"{report.seconds:.2f} s, {rate:.1f} MB/s" + (" (audit mode)" if report.audit else ""),
    ]
    return "summary: " + "; ".join(parts)


def _agent_label(finding: Finding) -> str:
    name = f"sub-agent {finding.agent_id}" if finding.agent_id else "main agent"
    if finding.agent_type:
        name += f" ({finding.agent_type})"
    if not finding.isolated:
        name += ", not isolated"
    return f"{name}: W {finding.worktree_root or '-'} from {finding.layout_source}"


def _status_text(finding: Finding) -> str:
    if finding.status == "blocked":
        return f"blocked ({finding.outcome_detail})" if finding.outcome_detail else "blocked"
    if finding.status == "violation" and finding.outcome == "no result":
        return "violation (no result recorded)"
    return finding.status


def write_text(report: Report, out: TextIO) -> None:
    """Findings grouped by session and agent, then the unreadable lines, then the summary."""
    session = agent = None
    for f in sorted(report.findings, key=lambda f: (f.session_id or f.file, f.agent_id or "", f.file, f.line)):
        if (f.session_id or f.file) != session:
            session, agent = f.session_id or f.file, None
            out.write(f"session {session}\n")
        if _agent_label(f) != agent:
            agent = _agent_label(f)
            out.write(f"  {agent}\n")
        out.write(f"    {shown_path(f.file)}:{f.line}  {f.tool}  {f.code} {_status_text(f)}\n")
        out.write(f"      {f.message}\n")
        if f.path is not None:
            out.write(f"      path: {f.path}\n")
        if f.suggestion:
            out.write(f"      suggestion: {f.suggestion}\n")
    write_problems(report.problems, out)
    out.write(summary_line(report) + "\n")


def write_problems(problems: Iterable[LineProblem], out: TextIO) -> None:
    problems = list(problems)
    if problems:
        out.write("skipped:\n")
        for p in sorted(problems, key=lambda p: (p.file, p.line)):
            where = f"{shown_path(p.file)}:{p.line}" if p.line else shown_path(p.file)
            out.write(f"  {where}  {p.reason}\n")


def write_json(report: Report, out: TextIO) -> None:
    """One JSON object a line, one line a finding (the `Finding` schema)."""
    for f in sorted(report.findings, key=lambda f: (f.file, f.line, f.code)):
        out.write(json.dumps(f.model_dump(mode="json"), ensure_ascii=False) + "\n")
