"""SARIF 2.1.0 for GitHub code scanning: one rule a code, one result a finding, located at file and line.

A call that was refused at the time is a result with an external suppression (GitHub shows it dismissed);
lines that could not be read are tool execution notifications.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .calls import LineProblem
from .findings import Finding
from .report import Report

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"

# Short descriptions of the codes SPEC §5 defines; a plugin's own codes fall back to their rule's name.
CODE_TITLES = {
    "WG000": "The guard could not judge the call",
    "WG002": "The agent declares worktree isolation but runs in a main worktree",
    "WG101": "A file tool writes into a shared checkout",
    "WG102": "A file tool writes outside the worktree and the allow-list",
    "WG103": "A file tool writes a protected path inside the worktree",
    "WG104": "A read of a shared checkout",
    "WG201": "cd into a shared checkout or outside the worktree",
    "WG202": "cd to a target that cannot be resolved statically",
    "WG301": "git checkout/switch changes a shared checkout's branch or HEAD",
    "WG302": "A git command changes a shared checkout's working tree, index or HEAD",
    "WG303": "A git command whose checkout cannot be resolved statically",
    "WG304": "git worktree add/move/remove/prune outside the worktree",
    "WG305": "A git command changes refs or configuration shared by every worktree",
    "WG401": "A shell command writes into a shared checkout",
    "WG402": "A shell command writes outside the worktree and the allow-list",
    "WG403": "A shell write whose target cannot be resolved statically",
    "WG404": "A computed command name where its arguments matter",
    "WG405": "An inline interpreter (strict profile)",
    "WG501": "A nested dispatch without isolation",
    "WG502": "A nested dispatch that turns isolation off",
    "WG503": "A nested dispatch with a cwd outside the worktree",
    "WG504": "A fork requested by a fork",
    "WG505": "EnterWorktree with a path outside the worktree",
    "WG601": "A sub-agent moved a shared checkout's HEAD or branch",
    "WG602": "A sub-agent left changed files in a shared checkout",
    "WG900": "A command no parser can handle",
    "WG901": "A command over the size or time budget",
}
_LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def artifact_location(path: str, base: str) -> dict[str, Any]:
    """A URI relative to `base` (the %SRCROOT%) when the file lies below it, else an absolute file URI."""
    absolute = os.path.abspath(path)
    relative = os.path.relpath(absolute, base)
    if relative.startswith(".."):
        return {"uri": Path(absolute).as_uri()}
    return {"uri": quote(relative.replace(os.sep, "/")), "uriBaseId": SRCROOT}


def _location(path: str, line: int, base: str) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": artifact_location(path, base)}
    if line > 0:
        physical["region"] = {"startLine": line}
    return {"physicalLocation": physical}


def _rule(code: str, rule_name: str) -> dict[str, Any]:
    title = CODE_TITLES.get(code, f"{code} raised by the {rule_name} rule")
    return {
        "id": code,
        "name": f"worktree-guard/{rule_name}/{code}",
        "shortDescription": {"text": title},
        "fullDescription": {"text": f"{title} (worktree-guard code {code}, raised by the {rule_name} rule)."},
        "defaultConfiguration": {"level": "error"},
        "properties": {"tags": ["worktree-isolation", rule_name]},
    }


def _fingerprint(f: Finding) -> str:
    key = "|".join(str(part) for part in (f.code, f.session_id, f.agent_id, f.tool_use_id or f"{f.file}:{f.line}", f.path, f.span))
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def _result(f: Finding, rule_index: int, base: str) -> dict[str, Any]:
    text = f.message + (f" Suggestion: {f.suggestion}" if f.suggestion else "")
    properties = {
        "status": f.status,
        "tool": f.tool,
        "outcome": f.outcome,
        "sessionId": f.session_id,
        "agentId": f.agent_id,
        "toolUseId": f.tool_use_id,
        "path": f.path,
        "resolved": f.resolved,
        "worktreeRoot": f.worktree_root,
        "sharedRoot": f.shared_root,
        "suggestion": f.suggestion,
        "layoutSource": f.layout_source,
        "isolated": f.isolated,
    }
    result: dict[str, Any] = {
        "ruleId": f.code,
        "ruleIndex": rule_index,
        "level": _LEVELS[f.severity],
        "message": {"text": text},
        "locations": [_location(f.file, f.line, base)],
        "partialFingerprints": {"worktreeGuardFinding/v1": _fingerprint(f)},
        "properties": {k: v for k, v in properties.items() if v is not None},
    }
    if f.status == "blocked":
        reason = f"refused when it was made: {f.outcome_detail}" if f.outcome_detail else "refused when it was made"
        result["suppressions"] = [{"kind": "external", "justification": reason}]
    return result


def _notification(p: LineProblem, base: str) -> dict[str, Any]:
    return {"level": "warning", "message": {"text": p.reason}, "locations": [_location(p.file, p.line, base)]}


def sarif_log(report: Report, base: str | None = None) -> dict[str, Any]:
    """The SARIF log of a report; `base` (default: the current directory) is %SRCROOT%."""
    from .. import __version__

    base = os.path.abspath(base or os.getcwd())
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    results = []
    for f in sorted(report.findings, key=lambda f: (f.file, f.line, f.code)):
        if f.code not in index:
            index[f.code] = len(rules)
            rules.append(_rule(f.code, f.rule))
        results.append(_result(f, index[f.code], base))
    run = {
        "tool": {"driver": {"name": "worktree-guard", "version": __version__, "semanticVersion": __version__, "rules": rules}},
        "originalUriBaseIds": {SRCROOT: {"uri": Path(base).as_uri() + "/"}},
        "invocations": [
            {
                "executionSuccessful": True,
                "toolExecutionNotifications": [_notification(p, base) for p in sorted(report.problems, key=lambda p: (p.file, p.line))],
            }
        ],
        "results": results,
    }
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
