"""The parse layer: one command string in, one neutral `Script` out, or `ParseFailure`.

bashlex (patched at load time, see `bashlex_fixes`) is the primary parser (SPEC §5.2). When it
raises, or returns a tree known to be wrong for the input (`from_bashlex.NeedsFallback`), mvdan/sh
through `shfmt --to-json` parses the string instead (`fallback`). When both fail, `ParseFailure`
says why; the caller reports WG900, or WG901 when `budget` is set.

`parse` never raises anything else. bashlex is imported on first use, not with this module.
"""

from __future__ import annotations

import functools
from types import ModuleType

from worktree_guard.shell.ast import Script

#: Largest command accepted, in UTF-8 bytes. Larger input is refused as over budget (WG901):
#: bashlex costs ~10–20 µs per word, so 64 KiB stays well inside a hook's time budget.
MAX_SOURCE_BYTES = 64 * 1024
#: Nesting is bounded by Python's recursion limit: bashlex recurses per `$( )` level and raises
#: RecursionError near depth 200, which is reported as over budget (WG901) rather than retried.

_bashlex: ModuleType | None = None


class ParseFailure(Exception):
    """No parser could turn the command into a trustworthy tree.

    `construct` names what could not be parsed when that is known; `budget` is True when the
    input was refused for its size or nesting depth rather than its syntax.
    """

    def __init__(self, message: str, *, construct: str | None = None, budget: bool = False) -> None:
        super().__init__(message)
        self.construct = construct
        self.budget = budget


def _load_bashlex() -> ModuleType:
    """Import bashlex and apply the project's fixes, once. The one place bashlex is loaded.

    The LALR tables come from the private, integrity-checked cache of `tables` rather than being rebuilt.
    """
    global _bashlex
    if _bashlex is None:
        from worktree_guard.shell import bashlex_fixes, tables

        bashlex = tables.load_bashlex()
        bashlex_fixes.apply(bashlex)
        _bashlex = bashlex
    return _bashlex


def parse(source: str, *, offset: int = 0) -> Script:
    """Parse one command string. Spans in the result are positions in `source` plus `offset`."""
    try:
        return _parse(source, offset)
    except ParseFailure:
        raise
    except RecursionError:
        raise ParseFailure("command nests too deeply (over the parse budget)", budget=True) from None
    except Exception as exc:  # the contract: nothing but ParseFailure leaves this function
        raise ParseFailure(f"internal parser error: {type(exc).__name__}: {exc}") from None


def _parse(source: str, offset: int) -> Script:
    if not isinstance(source, str):
        raise ParseFailure(f"command is not a string but {type(source).__name__}")
    if len(source) > MAX_SOURCE_BYTES // 4 and len(source.encode("utf-8", "surrogatepass")) > MAX_SOURCE_BYTES:
        raise ParseFailure(
            f"command is over the parse budget of {MAX_SOURCE_BYTES} bytes", budget=True
        )
    from worktree_guard.shell.from_bashlex import NeedsFallback, parse_with_bashlex

    try:
        return parse_with_bashlex(_load_bashlex(), source, offset)
    except RecursionError:
        raise ParseFailure("command nests too deeply (over the parse budget)", budget=True) from None
    except NeedsFallback as exc:
        construct: str | None = str(exc)
        primary = f"bashlex cannot be trusted here ({construct})"
    except Exception as exc:
        construct = _construct_from_bashlex_error(exc)
        primary = f"bashlex: {type(exc).__name__}: {_first_line(str(exc))}"

    from worktree_guard.shell import fallback

    try:
        return fallback.parse_with_shfmt(source, offset)
    except RecursionError:
        raise ParseFailure("command nests too deeply (over the parse budget)", budget=True) from None
    except fallback.FallbackTimeout as exc:
        raise ParseFailure(f"{primary}; shfmt: {exc}", construct=construct, budget=True) from None
    except Exception as exc:
        what = f"cannot parse {construct}" if construct else "cannot parse the command"
        raise ParseFailure(
            f"{what}: {primary}; shfmt: {_first_line(str(exc))}", construct=construct
        ) from None


def _first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0][:200]


def _construct_from_bashlex_error(exc: Exception) -> str | None:
    """Name the construct behind a bashlex exception, when its message says so."""
    message = str(exc)
    if isinstance(exc, NotImplementedError):
        # "type = {select command}, token = …" or "arithmetic expansion"
        if message.startswith("type = {"):
            return message[len("type = {") :].split("}", 1)[0]
        return _first_line(message) or None
    if "here-document" in message:
        return "here-document"
    if "matching" in message:
        return "unterminated quote or substitution"
    return None


@functools.lru_cache(maxsize=1024)
def parse_cached(source: str, offset: int = 0) -> Script:
    """`parse`, remembering the last 1,024 results: the daemon and `validate` see the same commands again.

    The Script is shared between callers and must not be changed (the walker only reads it). Failures are
    not cached: `lru_cache` does not keep exceptions, so a ParseFailure is raised afresh each time.
    """
    return parse(source, offset=offset)
