"""`worktree-guard explain COMMAND`: the parse, the simulated cwd at each step, and each decision."""

from __future__ import annotations

import os
from typing import Any

from .fast_dataclass import fields
from .shell import ast


def _node_lines(node: Any, source: str, indent: int = 0) -> list[str]:
    pad = "  " * indent
    kind = type(node).__name__
    if isinstance(node, ast.Command):
        words = " ".join(w.value if w.value is not None else f"<{w.raw}>" for w in node.words)
        extra = "".join(f" {a.name}=…" for a in node.assignments)
        redirects = "".join(f" {r.op}{(r.target.raw if r.target else '<heredoc>')}" for r in node.redirects)
        lines = [f"{pad}Command{extra} [{words}]{redirects}  @{node.span[0]}-{node.span[1]}"]
        for word in node.words:
            for sub in word.substitutions:
                lines += [f"{pad}  substitution in {word.raw!r}:"] + _node_lines(sub, source, indent + 2)
        for redirect in node.redirects:
            for sub in redirect.heredoc_substitutions:
                lines += [f"{pad}  substitution in heredoc:"] + _node_lines(sub, source, indent + 2)
        return lines
    lines = [f"{pad}{kind}" + (f" {node.kind}" if isinstance(node, ast.Compound) else "") + (f" {node.ops}" if isinstance(node, ast.Sequence) else "")]
    for field in fields(node):
        value = getattr(node, field.name)
        children = value if isinstance(value, list) else [value]
        for child in children:
            if isinstance(child, (ast.Command, ast.Pipeline, ast.Sequence, ast.Subshell, ast.Group, ast.Compound, ast.Function)):
                lines += _node_lines(child, source, indent + 1)
    return lines


def explain(command: str, cwd: str, flags: dict[str, Any]) -> str:
    from .engine import build_context, decide, reason_text
    from .plugins import plugin_manager
    from .rules.bash import analyse
    from .runtimes.claude_code import to_tool_call
    from .shell.parse import ParseFailure, parse

    out: list[str] = []
    try:
        script = parse(command)
        out.append(f"parsed by {script.parser}:")
        for node in script.body:
            out += _node_lines(node, command, 1)
        if not script.body:
            out.append("  (empty or comment only)")
    except ParseFailure as error:
        out.append(f"no parser could handle it: {error}")
    pm = plugin_manager()
    call = to_tool_call({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}, "cwd": os.path.abspath(cwd)})
    ctx = build_context(call, flags=flags, pm=pm)
    out.append(f"\nworktree root W: {ctx.worktree_root} ({ctx.layout.source}); isolated: {'yes' if ctx.isolation.isolated else 'no'} ({ctx.isolation.reason})")
    for shared in ctx.layout.shared_roots:
        out.append(f"shared root:     {shared}")
    walker, _ = analyse(command, ctx)
    out.append("\nsteps (where each runs):")
    for kind, step_cwd, (start, end) in walker.trace:
        out.append(f"  {kind:8} cwd={step_cwd or '<unknown>'}  {command[start:end]!r}")
    out.append("\nfindings:")
    for v in walker.findings:
        where = f" at {v.span[0]}-{v.span[1]} {command[v.span[0]:v.span[1]]!r}" if v.span else ""
        out.append(f"  {v.code} [{v.rule}]{where}: {v.message}" + (f" (suggestion: {v.suggestion})" if v.suggestion else ""))
    if not walker.findings:
        out.append("  none")
    verdict = decide(call, ctx)
    out.append(f"\nverdict: {verdict.decision}" + ("" if verdict.decision == "pass" else f"\nreason sent to the agent: {reason_text(verdict)}"))
    return "\n".join(out)
