"""What the hook process prints and how it exits — standard library only, so the failure path can use it too."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Reply:
    stdout: str = ""
    exit_code: int = 0
    stderr: str = ""
