"""The configuration flags that `hook`, `check`, `explain` and `doctor` share: the highest settings layer (SPEC §8)."""

from __future__ import annotations

TYPE_CHECKING = False  # typing costs milliseconds at import, and the hook's path imports this module
if TYPE_CHECKING:
    import argparse
    from typing import Any

MODES = ("enforce", "rewrite", "warn", "off")


def config_flags(args: argparse.Namespace) -> dict[str, Any]:
    """Settings given as flags: the highest configuration layer (SPEC §8)."""
    flags: dict[str, Any] = {}
    for name in ("mode", "profile", "runtime", "audit_log", "worktree_root"):
        value = getattr(args, name, None)
        if value is not None:
            flags[name] = value
    for name in ("allow", "protect", "shared_roots"):
        value = getattr(args, name, None)
        if value:
            flags[name] = value
    if getattr(args, "isolated", None) is not None:
        flags["isolated"] = args.isolated
    return flags


def add_config_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mode", choices=MODES, help="enforce (default), rewrite, warn or off")
    parser.add_argument("--profile", choices=("default", "strict"))
    parser.add_argument("--runtime", help="the runtime whose payload to read (default: recognise it)")
    parser.add_argument("--root", dest="worktree_root", metavar="DIR", help="the agent's worktree root W (default: detected)")
    parser.add_argument("--shared", dest="shared_roots", action="append", metavar="DIR", help="an extra shared root (repeatable)")
    parser.add_argument("--allow", action="append", metavar="PATTERN", help="an extra writable location (repeatable)")
    parser.add_argument("--protect", action="append", metavar="PATTERN", help="an extra protected pattern inside W (repeatable)")
    parser.add_argument("--audit-log", dest="audit_log", metavar="FILE", help="append one JSON line per verdict to FILE")
    parser.add_argument("--isolated", dest="isolated", action="store_true", default=None, help="treat the agent as isolated")
    parser.add_argument("--not-isolated", dest="isolated", action="store_false", help="treat the agent as not isolated")
