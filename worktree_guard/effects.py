"""The state a judgement leaves behind for later calls, and who may write it: whoever answers the call, once.

A judgement is repeated when the daemon gives up on it: the daemon abandons a request that runs over its limit
(daemon.REQUEST_SECONDS), a hook process stops waiting for a daemon, and in both cases the hook process judges the
call again in its own process. A judgement that only reads can be repeated; one that writes state — the leak
check's snapshots and windows, the wave's registry and links — must happen once, or a stop blocked by the first
judgement is let through by the second (it finds the block already counted), and dispatches are recorded twice.

So the daemon judges with state writes refused (`refusing`): the first write raises StatefulCall before anything
is written, the daemon declines the call, and the hook process judges it itself, where it writes once. Such calls
are rare (a sub-agent's start and stop, a dispatch of a wave, a worker's first call). Audit lines, written for
every call when an audit log is configured, are not refused but handed to the hook process (`append_line`): it
appends them when it takes the daemon's answer, and not when it judges the call itself instead.

Standard library only, and nothing at import: the hook process's client imports it.
"""

_refusing = False
_deferred: "list[tuple[str, bytes]] | None" = None


class StatefulCall(BaseException):
    """The judgement would write state where writes are refused (a BaseException: no rule's `except Exception`
    may turn it into a verdict)."""


def will_write(what: str) -> None:
    """Say so before writing state that a later call reads; raises StatefulCall where that is refused."""
    if _refusing:
        raise StatefulCall(what)


def append_line(path: str, line: bytes) -> None:
    """Append one line to a log with one write(2) on an O_APPEND descriptor (created 0600), or leave it to the
    hook process when the daemon judges (`deferred_lines`)."""
    if _deferred is not None:
        _deferred.append((path, line))
        return
    write_line(path, line)


def write_line(path: str, line: bytes) -> None:
    import posix

    fd = posix.open(path, posix.O_WRONLY | posix.O_APPEND | posix.O_CREAT | posix.O_CLOEXEC, 0o600)
    try:
        written = posix.write(fd, line)
    finally:
        posix.close(fd)
    if written != len(line):
        raise OSError(f"short write to {path}: {written} of {len(line)} bytes")


class refusing:  # noqa: N801 — used as `with effects.refusing() as lines:`
    """State writes refused and log lines collected, for one judgement in the daemon; `as` gives the lines."""

    def __enter__(self) -> "list[tuple[str, bytes]]":
        global _refusing, _deferred
        self.saved = (_refusing, _deferred)
        _refusing, _deferred = True, []
        return _deferred

    def __exit__(self, *exc: object) -> None:
        global _refusing, _deferred
        _refusing, _deferred = self.saved
