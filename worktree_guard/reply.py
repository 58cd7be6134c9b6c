"""What the hook process prints and how it exits — standard library only, so the failure path can use it too
(`fast_dataclass` is standard library only)."""

from __future__ import annotations

from .fast_dataclass import fast_dataclass


@fast_dataclass(slots=True)
class Reply:
    stdout: str = ""
    exit_code: int = 0
    stderr: str = ""
