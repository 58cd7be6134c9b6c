"""What every runtime adapter does alike: read typed fields of a payload, look a tool up, print JSON."""

from __future__ import annotations

import json
from typing import Any

from ..engine import CallError
from ..model import ToolKind

Tools = dict[str, tuple[ToolKind, str | None]]


def as_json(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False)


def text_field(payload: dict[str, Any], key: str, runtime: str, *, required: bool = True) -> str | None:
    """`payload[key]` as a string; CallError when it is required and missing, or present and not a string."""
    value = payload.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or (required and not value):
        raise CallError(f"the {runtime} payload's `{key}` is {'missing' if value is None else f'not a usable string ({value!r:.80})'}")
    return value


def object_field(payload: dict[str, Any], key: str, runtime: str) -> dict[str, Any]:
    """`payload[key]` as a JSON object (absent: empty); CallError otherwise."""
    value = payload.get(key, {})
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise CallError(f"the {runtime} payload's `{key}` is a {type(value).__name__}, not an object")
    return value


def tool_kind(tools: Tools, passing: frozenset[str], name: str) -> tuple[ToolKind, str | None]:
    """(kind, path field) of a tool: from the adapter's table, "other" for tools known to write nothing, else
    "unknown" (refused for an isolated agent, WG000)."""
    if name in tools:
        return tools[name]
    if name in passing:
        return "other", None
    return "unknown", None
