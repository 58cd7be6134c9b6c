"""The paths an `apply_patch` patch writes (Codex, and Copilot with GPT models): its file headers.

The format (the Lark grammar Codex sends the model, runtime-payloads/codex/tool_schemas_gpt-5.5.json):
`*** Begin Patch`, then hunks `*** Add File: P`, `*** Delete File: P`, `*** Update File: P` with an optional
`*** Move to: Q` after it, then `*** End Patch`. Every P and Q is written (an update's P is deleted too when it
moves). Paths are as the model wrote them: a relative one resolves from the cwd.

Headers are matched on stripped lines anywhere in the text, which finds every header Codex's own parser
finds (it strips lines before matching markers) and perhaps a few more: an extra path judged is a refusal
too many, a missed one an escape.
"""

from __future__ import annotations

from ..model import FileWrite, WriteAction

BEGIN = "*** Begin Patch"
HEADERS: tuple[tuple[str, WriteAction], ...] = (
    ("*** Add File:", "write"),
    ("*** Update File:", "write"),
    ("*** Delete File:", "delete"),
    ("*** Move to:", "move_to"),
)


class PatchError(ValueError):
    """The text names no file at all, or a header names an empty path: it cannot be judged."""


def patch_writes(text: str) -> list[FileWrite]:
    """Every file the patch writes, in order; PatchError when it names none or a header's path is empty."""
    writes: list[FileWrite] = []
    for line in text.splitlines():
        stripped = line.strip()
        for marker, action in HEADERS:
            if stripped.startswith(marker):
                path = stripped[len(marker):].strip()
                if not path:
                    raise PatchError(f"the patch line {stripped!r} names no path")
                if action == "move_to" and writes and writes[-1].action == "write":
                    writes[-1] = FileWrite(path=writes[-1].path, action="move_from")
                writes.append(FileWrite(path=path, action=action))
                break
    if not writes:
        raise PatchError("the patch names no file (no `*** Add/Update/Delete File:` line)")
    return writes


def holds_patch(text: str) -> bool:
    """Does this text (a shell command) carry a patch, as `apply_patch <<'EOF' … EOF` does?"""
    return BEGIN in text
