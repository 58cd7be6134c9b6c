"""The published JSON schemas (`worktree-guard schema`): violation record, configuration, payload, audit line."""

from __future__ import annotations

from typing import Any


def schemas() -> dict[str, Any]:
    from .audit import AuditRecord
    from .config import Settings
    from .model import Violation
    from .runtimes.claude_code import PreToolUsePayload

    return {
        "violation": Violation.model_json_schema(mode="serialization"),
        "config": Settings.model_json_schema(),
        "payload": PreToolUsePayload.model_json_schema(),
        "audit": AuditRecord.model_json_schema(mode="serialization"),
    }
