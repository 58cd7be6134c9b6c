"""Which repositories' wave registries know a sub-agent, wherever its calls come from (SPEC §11).

A wave's registry is per repository, but a sub-agent's calls carry the directory it is in now: it follows its
`cd`, and may lie outside every checkout, in another repository or in a repository nested in the checkout.
So the registry is not chosen by the call's directory alone. This index maps
- `agent:<id>` (written when a sub-agent of a wave starts, and when it is linked to its dispatch),
- `session:<id>` and `dispatcher:<id>` (written when a dispatch with an ownership is recorded)
to the common git dirs of the repositories whose registries hold them. A worker found through it is judged
against the checkout recorded for it, whatever directory its call names.

One file, `$XDG_STATE_HOME/worktree-guard/waves/index.json` (0600, in the private waves directory), changed
under its own lock; entries older than HISTORY_AFTER are dropped.
"""

from __future__ import annotations

import os
import time
from typing import Any

from ..records import Field, Record
from .registry import HISTORY_AFTER, flocked, load_model, waves_root, write_private
from .places import keys_of  # noqa: F401  (re-exported: the wave index's keys)
from .state import _private_dir

MAX_PER_KEY = 8  # repositories remembered per key, the most recent first


class Entry(Record):
    common_dir: str
    time: float


class Index(Record):
    version: int = 1
    keys: dict[str, list[Entry]] = Field(default_factory=dict)


class WaveIndex:
    """The index file, read freely, changed under the lock."""

    def __init__(self, root: str | None = None) -> None:
        self.dir = root or waves_root()
        self.path = os.path.join(self.dir, "index.json")

    def load(self) -> Index:
        return load_model(self.path, Index)

    def lookup(self, keys: list[str]) -> list[str]:
        """The common dirs recorded under `keys`, in the order of the keys, each key's most recent first."""
        index = self.load()
        found: list[str] = []
        for key in keys:
            for entry in index.keys.get(key, []):
                if entry.common_dir not in found:
                    found.append(entry.common_dir)
        return found

    def note(self, keys: list[str], common_dir: str) -> None:
        """Record that the registry of `common_dir` knows each of `keys`."""
        if not keys:
            return
        _private_dir(os.path.dirname(self.dir))
        _private_dir(self.dir)
        now = time.time()
        with flocked(os.path.join(self.dir, "index.lock"), f"the wave index {self.path}"):
            index = self.load()
            for key in keys:
                entries = [e for e in index.keys.get(key, []) if e.common_dir != common_dir]
                index.keys[key] = [Entry(common_dir=common_dir, time=now), *entries][:MAX_PER_KEY]
            for key in list(index.keys):
                index.keys[key] = [e for e in index.keys[key] if now - e.time <= HISTORY_AFTER]
                if not index.keys[key]:
                    del index.keys[key]
            write_private(self.path, index.model_dump_json())
