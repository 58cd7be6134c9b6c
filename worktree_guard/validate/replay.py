"""Recorded calls → findings, through the hook's own engine: adapter, context, rules, verdict.

Only the layout differs from the hook: it is reconstructed (layouts.py) instead of read from the live
checkout, and handed to `engine.context_for_layout`. Verdicts of identical calls (same agent layout,
cwd, tool and input) are computed once.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pluggy

from ..config import ConfigError, EffectiveConfig, load_config
from ..fast_dataclass import replace
from ..engine import CallError, Context, context_for_layout, decide, definitions_start, project_root_of
from ..isolation import Isolation
from ..model import ToolCall, Violation
from ..paths import home_dir
from ..policy import PathPolicy
from .calls import Anchor, LineProblem, RecordedCall
from .findings import Finding, status_of
from .layouts import FoundLayout, LayoutHints, reconstruct, recorded_home

# validate reports every violation whatever mode the project's configuration asks the hook for.
REPLAY_FLAGS = {"mode": "enforce"}


@dataclass(slots=True, frozen=True)
class ReplayOptions:
    """What the command line decides for every call: layout hints, audit mode, home, extra settings."""

    hints: LayoutHints = LayoutHints()
    audit: bool = False
    home: str | None = None
    settings: tuple[tuple[str, Any], ...] = ()


@dataclass(slots=True)
class ReplayStats:
    """Counts for the summary."""

    calls: int = 0
    judged: int = 0
    verdicts: int = 0
    unjudged: Counter[str] = field(default_factory=Counter)
    outcomes: Counter[str] = field(default_factory=Counter)

    def add(self, other: ReplayStats) -> None:
        self.calls += other.calls
        self.judged += other.judged
        self.verdicts += other.verdicts
        self.unjudged.update(other.unjudged)
        self.outcomes.update(other.outcomes)


@dataclass(slots=True, frozen=True)
class _Judged:
    violations: tuple[Violation, ...]
    isolated: bool


def _frozen(value: Any) -> Any:
    """A hashable stand-in for a tool input value (strings hash in C, so file contents cost little)."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


class Replayer:
    """Judges recorded calls; keeps its caches for the life of the process (one per worker)."""

    def __init__(self, options: ReplayOptions, pm: pluggy.PluginManager | None = None) -> None:
        if pm is None:
            from ..plugins import plugin_manager

            pm = plugin_manager()
        self.pm = pm
        self.options = options
        self.flags = {**dict(options.settings), **REPLAY_FLAGS}
        self.stats = ReplayStats()
        self._layouts: dict[tuple[Anchor, str], FoundLayout] = {}
        self._configs: dict[str | None, EffectiveConfig | ConfigError] = {}
        self._policies: dict[tuple[Any, ...], PathPolicy] = {}
        self._contexts: dict[tuple[Any, ...], tuple[Context, bool]] = {}
        self._verdicts: dict[tuple[Any, ...], _Judged | None] = {}

    def replay(self, calls: list[RecordedCall]) -> tuple[list[Finding], list[LineProblem]]:
        findings: list[Finding] = []
        problems: list[LineProblem] = []
        for call in calls:
            try:
                findings += self.judge(call)
            except (CallError, ConfigError) as e:
                problems.append(LineProblem(call.file, call.line, f"{call.tool} call not judged: {e}"))
            except Exception as e:  # noqa: BLE001 — one bad call never stops a replay
                problems.append(LineProblem(call.file, call.line, f"{call.tool} call not judged: internal error {type(e).__name__}: {e}"))
        return findings, problems

    def home_of(self, call: RecordedCall) -> str:
        return self.options.home or call.home or recorded_home(call.anchor.cwd, call.file) or home_dir()

    def layout_of(self, call: RecordedCall, home: str) -> FoundLayout:
        key = (call.anchor, home)
        found = self._layouts.get(key)
        if found is None:
            found = self._layouts[key] = reconstruct(call.anchor, self.options.hints, home)
        return found

    def judge(self, call: RecordedCall) -> list[Finding]:
        self.stats.calls += 1
        self.stats.outcomes[call.outcome] += 1
        home = self.home_of(call)
        found = self.layout_of(call, home)
        cwd = found.layout.worktree_root if call.anchor.worktree_agent and found.layout.worktree_root else call.cwd
        tool_input = call.payload.get("tool_input")
        items = tuple(sorted((k, _frozen(v)) for k, v in tool_input.items())) if isinstance(tool_input, dict) else ()
        key = (call.runtime, id(found), home, cwd, call.tool, call.agent_type, items, call.agent_id if call.dispatch_prompt or call.wave_session else None, call.dispatch_prompt)
        if key in self._verdicts:
            judged = self._verdicts[key]
        else:
            judged = self._verdicts[key] = self._decide(call, found, home, cwd)
        if judged is None:
            self.stats.unjudged[call.tool] += 1
            return []
        self.stats.judged += 1
        layout = found.layout
        return [
            Finding(
                **v.model_dump(),
                status=status_of(v, call.outcome),
                file=call.file,
                line=call.line,
                session_id=call.session_id,
                agent_id=call.agent_id,
                agent_type=call.agent_type,
                tool_use_id=call.tool_use_id,
                cwd=cwd,
                outcome=call.outcome,
                outcome_detail=call.outcome_detail,
                isolated=judged.isolated,
                layout_source=found.source,
                shared_roots=list(layout.shared_roots),
            )
            for v in judged.violations
        ]

    def _config(self, project_root: str | None) -> EffectiveConfig:
        config = self._configs.get(project_root)
        if config is None:
            try:
                config = load_config(project_root, flags=self.flags)
            except ConfigError as e:
                config = e
            self._configs[project_root] = config
        if isinstance(config, ConfigError):
            raise config
        return config

    def _context(self, tool_call: ToolCall, call: RecordedCall, found: FoundLayout, config: EffectiveConfig, home: str) -> tuple[Context, bool]:
        """The engine's context for an agent's call, and whether the agent was isolated (before audit mode)."""
        settings = config.settings
        definition = None
        if tool_call.agent_type and os.path.isdir(call.anchor.cwd):
            from ..agents import find_agent_definition

            definition = find_agent_definition(tool_call.agent_type, definitions_start(found.layout, call.anchor.cwd), home)
        policy_key = (id(found), home, tuple(settings.allow), tuple(settings.protect))
        policy = self._policies.get(policy_key)
        if policy is None:
            policy = self._policies[policy_key] = PathPolicy(found.layout, settings.allow, settings.protect, home)
        ctx = context_for_layout(tool_call, found.layout, config, self.pm, definition=definition, home=home, policy=policy)
        isolated = ctx.isolation.isolated
        if self.options.audit and not isolated:
            ctx.scope.isolation = Isolation(isolated=True, reason=f"audit mode ({ctx.isolation.reason})")
        return ctx, isolated

    def _decide(self, call: RecordedCall, found: FoundLayout, home: str, cwd: str) -> _Judged | None:
        """The verdict of one distinct call; None when the adapter does not know the tool (not judged)."""
        payload = {**call.payload, "cwd": cwd}
        tool_call = self.pm.hook.worktree_guard_read_payload(payload=payload, runtime=call.runtime)
        if tool_call is None:
            raise CallError(f"no runtime adapter reads {call.runtime!r} payloads")
        layout = found.layout
        config = self._config(project_root_of(layout))
        settings = config.settings
        if tool_call.kind == "unknown" and tool_call.tool not in settings.pass_tools:
            return None
        self.stats.verdicts += 1
        context_key = (id(found), home, cwd, tool_call.agent_type)
        cached = self._contexts.get(context_key)
        if cached is None:
            cached = self._contexts[context_key] = self._context(tool_call, call, found, config, home)
        else:
            # Same agent, cwd and layout: only the call differs (and a fresh `extra`, which rules may write to).
            cached = (replace(cached[0], call=tool_call, extra={}), cached[1])
        ctx, isolated = cached
        from ..subagents.linking import worker_from_record

        ctx.live = False  # no registry of running workers applies to a recording
        ctx.worker = worker_from_record(
            call.agent_id, tool_call.agent_type, call.session_id, call.dispatch_prompt, call.wave_session,
            found.layout.worktree_root, isolated, settings,
        )
        verdict = decide(tool_call, ctx)
        violations = verdict.violations
        if not isolated:
            # Audit mode confines a non-isolated agent's paths; passing isolation down to the sub-agents it
            # dispatches (WG5xx) is only ever asked of isolated agents, so those findings would be invented.
            violations = [v for v in violations if not v.code.startswith("WG5")]
        return _Judged(tuple(violations), isolated)
