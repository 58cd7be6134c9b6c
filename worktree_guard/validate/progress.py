"""A one-line progress bar on a terminal's stderr; silent when stderr is not a terminal."""

from __future__ import annotations

import time
from typing import TextIO

_WIDTH = 30
_INTERVAL = 0.1


class Progress:
    """Bytes read of the total, files done, findings so far; redrawn at most ten times a second."""

    def __init__(self, total: int, out: TextIO, enabled: bool) -> None:
        self.total = max(total, 1)
        self.out = out
        self.enabled = enabled
        self._last = 0.0
        self._drawn = False

    def update(self, done: int, files: int, violations: int, *, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and now - self._last < _INTERVAL:
            return
        self._last = now
        fraction = min(done / self.total, 1.0)
        bar = "#" * int(fraction * _WIDTH)
        line = f"\r[{bar:<{_WIDTH}}] {fraction:4.0%}  {done / 1e6:,.1f}/{self.total / 1e6:,.1f} MB  {files:,} files  {violations:,} violations"
        self.out.write(line)
        self.out.flush()
        self._drawn = True

    def close(self) -> None:
        if self._drawn:
            self.out.write("\r\033[K")
            self.out.flush()
            self._drawn = False
