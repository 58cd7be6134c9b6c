"""What a worker may write (SPEC §11): ownership declarations, their grammar, and matching paths against them.

An ownership is a list of pathspec patterns (gitignore syntax, as `pathspec` reads it) relative to the root of
the checkout the worker writes: `src/auth/**` is that directory's tree, `*.md` a Markdown file at any depth,
`/README.md` the top one. `owns: none` is the empty ownership of a read-only worker.

The dispatch prompt's block, exactly:

    ```worktree-guard
    owns: src/auth/**, tests/auth/**
    ```

It holds the one key `owns` with one or more comma-separated patterns (blank lines and `#` comment lines are
allowed). An empty `owns:`, an unknown key, a repeated key, a line that is not `key: value`, an empty pattern
(`a,,b`), a negation (`!x`: an ownership names what a worker may write, never what it may not), a pattern that
leaves the checkout (`..`), a pattern `pathspec` rejects, a second block or an unclosed fence make it
malformed (WG710).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

FENCE_INFO = "worktree-guard"
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([^`]*?)[ \t]*$")
_GLOB = frozenset("*?[\\")
# A name no real file has: a path made of it is matched only by a pattern that covers a whole tree.
PROBE = "\x7fwg-probe\x7f"
DEFAULT_SCRATCH = ("__pycache__/", ".pytest_cache/", ".mypy_cache/", ".ruff_cache/", "node_modules/.cache/")


class OwnershipError(ValueError):
    """A malformed ownership declaration; the message says what is wrong, for the orchestrator to fix."""


@dataclass(frozen=True, slots=True)
class Ownership:
    """The patterns a worker owns and where they were declared (`source`, for messages)."""

    patterns: tuple[str, ...]
    source: str
    _spec: object = field(default=None, compare=False, repr=False)

    @classmethod
    def of(cls, patterns: list[str] | tuple[str, ...], source: str) -> Ownership:
        checked = tuple(check_pattern(p, source) for p in patterns)
        return cls(checked, source, _compile(checked))

    @property
    def none(self) -> bool:
        return not self.patterns

    def describe(self) -> str:
        return ", ".join(self.patterns) if self.patterns else "none (a read-only worker)"

    def matches(self, relative: str) -> bool:
        """True when `relative` (a path relative to the checkout root, `/`-separated) is owned."""
        return match_patterns(self.patterns, self._spec, relative)

    def covers_tree(self, relative_dir: str) -> bool:
        """True when everything that could ever be below `relative_dir` is owned (a tree writer's target)."""
        base = "" if relative_dir in ("", ".") else relative_dir.rstrip("/") + "/"
        return self.matches(f"{base}{PROBE}/{PROBE}.{PROBE}")


def _compile(patterns: tuple[str, ...]) -> object:
    import pathspec

    return pathspec.PathSpec.from_lines("gitignore", patterns) if patterns else None


def check_pattern(pattern: str, source: str = "ownership") -> str:
    """The pattern itself when it is one an ownership may hold; OwnershipError otherwise."""
    text = pattern.strip()
    if not text:
        raise OwnershipError(f"{source}: an empty pattern")
    if text.startswith("!"):
        raise OwnershipError(f"{source}: {text!r} is a negation; an ownership lists what a worker may write")
    if text.startswith("#"):
        raise OwnershipError(f"{source}: {text!r} is a comment, not a pattern")
    if ".." in text.strip("/").split("/"):
        raise OwnershipError(f"{source}: {text!r} leaves the checkout (`..`)")
    import pathspec

    try:
        pathspec.PathSpec.from_lines("gitignore", [text])
    except Exception as e:  # noqa: BLE001 — pathspec's own error types differ between versions
        raise OwnershipError(f"{source}: {text!r} is not a valid pattern ({e})") from None
    return text


def _literal_match(pattern: str, relative: str) -> bool | None:
    """gitignore matching done with string operations for the common shapes; None for the others."""
    if pattern.startswith("!") or pattern != pattern.strip():
        return None
    tree = pattern.endswith("/**")
    body = pattern[: -len("/**")] if tree else pattern
    core = body.strip("/")
    if not core or _GLOB & set(body):
        return None
    anchored = tree or "/" in body.rstrip("/")
    directory_only = body.endswith("/")
    if tree or (anchored and directory_only):
        return relative.startswith(core + "/")
    if anchored:
        return relative == core or relative.startswith(core + "/")
    parts = relative.split("/")
    return core in (parts[:-1] if directory_only else parts)


def match_patterns(patterns: tuple[str, ...], spec: object, relative: str) -> bool:
    """Is `relative` matched by one of `patterns`? The fast path must agree with pathspec (a property test says so)."""
    if not patterns:
        return False
    slow = False
    for pattern in patterns:
        found = _literal_match(pattern, relative)
        if found:
            return True
        if found is None:
            slow = True
    return bool(slow and spec is not None and spec.match_file(relative))  # type: ignore[attr-defined]


def literal_prefix(pattern: str) -> str:
    """The leading directories of a pattern without glob characters: where all it can match lies.

    "" when it can match anywhere (no `/` before its end, so gitignore matches it at any depth).
    """
    body = pattern.strip()
    anchored = "/" in body.rstrip("/")
    if not anchored:
        return ""
    parts = body.strip("/").split("/")
    literal: list[str] = []
    for part in parts:
        if _GLOB & set(part):
            break
        literal.append(part)
    return "/".join(literal)


def _contains(outer: str, inner: str) -> bool:
    return outer == "" or inner == outer or inner.startswith(outer + "/")


def overlap(a: Ownership, b: Ownership, tree: list[str]) -> str | None:
    """Where two ownerships overlap (SPEC §11, WG704), in words; None when they do not.

    They overlap when a file of the tree matches both, or when a literal prefix of one contains the other's.
    """
    if a.none or b.none:
        return None
    for first in a.patterns:
        for second in b.patterns:
            p, q = literal_prefix(first), literal_prefix(second)
            if _contains(p, q) or _contains(q, p):
                return f"{first!r} and {second!r} can name the same files"
    for path in tree:
        if a.matches(path) and b.matches(path):
            return f"{path} matches both"
    return None


# --- the dispatch prompt's block ----------------------------------------------------------------------------


def _near_miss(info: str) -> bool:
    """An info string meant to be `worktree-guard` but not exactly it (case, `_`, extra words, a typo)."""
    if info == FENCE_INFO or not info:
        return False
    first = info.split()[0]
    compact = re.sub(r"[^a-z]", "", first.lower())
    return compact == "worktreeguard" or first == FENCE_INFO or _distance(compact, "worktreeguard") <= 3


def _distance(a: str, b: str) -> int:
    """Levenshtein distance (for typos in the fence's info string)."""
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


_OWNS_LINE = re.compile(r"^\s*owns\s*:", re.IGNORECASE)
_KEY_LINE = re.compile(r"^\s*worktree[-_ ]?guard\s*:", re.IGNORECASE)


def find_block(prompt: str) -> list[str] | None:
    """The lines of the prompt's ```worktree-guard block; None when it has none. OwnershipError when malformed,
    or when something in the prompt was almost certainly meant as the block and would otherwise be dropped
    silently (an unconfined worker): a fence whose info string is nearly `worktree-guard`, an `owns:` line
    outside a block, a `worktree-guard:` key, a ```worktree-guard fence inside another code block. A fence may
    be indented (a block in a list item)."""
    lines = prompt.splitlines()
    found: list[str] | None = None
    i = 0
    while i < len(lines):
        line = lines[i]
        match = _FENCE.match(line)
        i += 1
        if not match:
            if _OWNS_LINE.match(line):
                raise OwnershipError(f"line {i}: an `owns:` line outside a ```{FENCE_INFO} block; put it in one")
            if _KEY_LINE.match(line):
                raise OwnershipError(f"line {i}: a `worktree-guard:` key; write the ownership as a ```{FENCE_INFO} block holding `owns: …`")
            continue
        fence, info = match.group(1), match.group(2)
        body: list[str] = []
        closed = False
        while i < len(lines):
            end = _FENCE.match(lines[i])
            i += 1
            if end and end.group(1)[0] == fence[0] and len(end.group(1)) >= len(fence) and not end.group(2):
                closed = True
                break
            body.append(lines[i - 1])
        if info != FENCE_INFO:
            if _near_miss(info):
                raise OwnershipError(f"the fence ```{info} looks like an ownership block; its info string must be exactly `{FENCE_INFO}`")
            for inner in body:
                nested = _FENCE.match(inner)
                if nested and (nested.group(2) == FENCE_INFO or _near_miss(nested.group(2))):
                    raise OwnershipError(f"a ```{FENCE_INFO} block inside another code block (```{info}); close that one first")
                if _KEY_LINE.match(inner):
                    raise OwnershipError(f"a `worktree-guard:` key in a ```{info} block; write the ownership as a ```{FENCE_INFO} block holding `owns: …`")
            continue
        if not closed:
            raise OwnershipError(f"the ```{FENCE_INFO} block is not closed")
        if found is not None:
            raise OwnershipError(f"the prompt holds more than one ```{FENCE_INFO} block")
        found = body
    return found


def parse_block(lines: list[str], source: str = f"the ```{FENCE_INFO} block") -> Ownership:
    """The ownership a block's lines declare (the grammar in this module's docstring)."""
    owns: list[str] | None = None
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, colon, value = line.partition(":")
        key = key.strip()
        if not colon:
            raise OwnershipError(f"{source}, line {number}: {line!r} is not `owns: PATTERN, …`")
        if key != "owns":
            raise OwnershipError(f"{source}, line {number}: unknown key {key!r} (the only key is `owns`)")
        if owns is not None:
            raise OwnershipError(f"{source}, line {number}: `owns` is given twice")
        value = value.strip()
        if not value:
            raise OwnershipError(f"{source}, line {number}: `owns:` is empty (write `owns: none` for a read-only worker)")
        if value.lower() == "none":
            owns = []
            continue
        owns = [check_pattern(item, f"{source}, line {number}") for item in value.split(",")]
    if owns is None:
        raise OwnershipError(f"{source} has no `owns:` line")
    return Ownership.of(owns, "the dispatch prompt's ```worktree-guard block")


def from_prompt(prompt: str) -> Ownership | None:
    """The ownership a dispatch prompt declares; None without a block; OwnershipError when it is malformed."""
    lines = find_block(prompt)
    return None if lines is None else parse_block(lines)


def from_setting(value: object, source: str) -> Ownership:
    """An ownership from configuration or frontmatter: a list of patterns, or "none"."""
    if isinstance(value, str):
        if value.strip().lower() == "none":
            return Ownership.of([], source)
        value = [part for part in value.split(",")]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise OwnershipError(f"{source}: `owns` must be a list of patterns or \"none\"")
    return Ownership.of(list(value), source)


def relative_to(root: str, resolved: str) -> str | None:
    """`resolved` relative to `root`, `/`-separated; None when it lies outside."""
    if resolved == root:
        return ""
    if not resolved.startswith(root.rstrip("/") + "/"):
        return None
    return os.path.relpath(resolved, root).replace(os.sep, "/")
