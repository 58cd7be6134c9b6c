"""Parse a list of commands with bashlex in a fresh process and print one digest per command, for comparing parsers.

    python -m tests.shell.bashlex_dump stock|cached COMMANDS.json [CACHE_DIR]

`stock` imports bashlex the ordinary way (PLY builds the tables); `cached` loads it through
`worktree_guard.shell.tables` with the cache in CACHE_DIR. Each command is parsed twice: by the unpatched
bashlex (`bashlex.parse`, its nodes' `dump()`), then — after `bashlex_fixes` are applied, as `_load_bashlex`
does — through `parse_with_bashlex` into the neutral AST (its `repr`). An exception counts as a result (its type
and message). Output: one JSON line per command, `[raw digest, fixed digest]`, then a summary line.
"""

from __future__ import annotations

import hashlib
import json
import signal
import sys
from typing import Any

PER_COMMAND_SECONDS = 20


class Hang(BaseException):
    pass


def _on_alarm(signum: int, frame: Any) -> None:
    raise Hang


def outcome(function: Any, source: str) -> str:
    signal.setitimer(signal.ITIMER_REAL, PER_COMMAND_SECONDS)
    try:
        return function(source)
    except Hang:
        return "hang"
    except BaseException as e:  # noqa: BLE001 — the exception is the result being compared
        return f"{type(e).__name__}: {e}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


def main() -> int:
    mode, commands_file = sys.argv[1], sys.argv[2]
    signal.signal(signal.SIGALRM, _on_alarm)
    if mode == "stock":
        import bashlex
        import bashlex.parser  # noqa: F401
    else:
        from worktree_guard.shell import tables

        bashlex = tables.load_bashlex(sys.argv[3])
        if tables.last_load.get("cache") != "hit":
            print(json.dumps({"cache": tables.last_load.get("cache")}))
            return 1
    commands = json.loads(open(commands_file, encoding="utf-8").read())
    raw = [digest(outcome(lambda s: "\n".join(n.dump() for n in bashlex.parse(s)), c)) for c in commands]

    from worktree_guard.shell import bashlex_fixes
    from worktree_guard.shell.from_bashlex import parse_with_bashlex

    bashlex_fixes.apply(bashlex)
    for c, r in zip(commands, raw):
        print(json.dumps([r, digest(outcome(lambda s: repr(parse_with_bashlex(bashlex, s)), c))]))
    print(json.dumps({"done": len(commands)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
