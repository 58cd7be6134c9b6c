"""Did a recorded call run? Read from its tool result: a refused call is reported "blocked", not as a leak."""

from __future__ import annotations

import re
from typing import Any

from .calls import Outcome

# An error result that still means the call ran: a shell command that exited non-zero, timed out or was
# interrupted had its side effects. Every other error result is the runtime refusing the call before it ran
# (a hook's deny, a permission denial, the user's rejection, an input the tool rejected).
_RAN_PREFIXES = ("Exit code ", "Error: Exit code ")
_RAN_WORDS = ("timed out", "interrupted")
_DETAIL_CHARS = 200
_GUARD_CODES = re.compile(r"\[worktree-guard ((?:WG\d{3} ?)+)\]")


def result_text(content: Any) -> str:
    """The text of a tool_result's `content` (a string, or a list of text blocks)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict) and isinstance(b.get("text"), str))
    return ""


def outcome_of(is_error: bool | None, text: str = "") -> tuple[Outcome, str | None]:
    """(outcome, detail): `is_error` None means no result was recorded; detail is the refusal's first line."""
    if is_error is None:
        return "no result", None
    if not is_error:
        return "executed", None
    head = text.strip()
    if head.startswith(_RAN_PREFIXES) or any(word in head[:_DETAIL_CHARS].lower() for word in _RAN_WORDS):
        return "executed", None
    guard = _GUARD_CODES.search(head)
    if guard:
        return "refused", f"denied by worktree-guard ({guard.group(1).strip()})"
    head = head.removeprefix("<tool_use_error>").strip()
    first = head.splitlines()[0] if head else "error result"
    return "refused", first[:_DETAIL_CHARS]
