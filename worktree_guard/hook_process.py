"""The hook process: one payload on stdin, the runtime's reply on stdout, exit 0 — the daemon's reply or this process's.

`worktree-guard hook`, `worktree-guard-hook` and `python -S -P …/fast_hook.py` all run `main` here, and the
daemon judges with `hook_reply` from here, so the hook has one home. The import graph has no circle:
`cli`, `fast_hook` and `daemon` import this module; it imports `client` (the daemon's stdlib-only wire) and,
only when it judges in this process, `hook`.

At import it loads built-in modules only (`posix`, `sys`): `python -S -P …/fast_hook.py` must cost little
more than the interpreter's start when the daemon answers.
"""

import sys

from . import client

TYPE_CHECKING = False  # `typing` is not imported at run time
if TYPE_CHECKING:
    import argparse

    from .reply import Reply

HOOK_HELP = "read one hook payload on stdin, write the runtime's reply"


# --- judging in this process ----------------------------------------------------------------------


def hook_reply(argv: list[str], stdin: bytes, *, cwd: str | None = None, pm: object = None) -> "Reply":
    """The reply of `worktree-guard hook` with these arguments to this payload, judged in this process.

    `cwd` is the hook process's working directory when another process judges for it (the daemon);
    `pm` a plugin manager built already. A bad flag is a reply too, never argparse's exit 2 with usage text.
    """
    from .hook import run_hook

    if argv == ["hook"]:
        return run_hook(stdin, cwd=cwd, pm=pm)  # no flags: what the parser would find, without loading argparse
    import contextlib
    import io

    from .flags import config_flags

    try:
        with contextlib.redirect_stderr(io.StringIO()):
            args = hook_parser().parse_args(argv[1:])
    except SystemExit:
        reply = run_hook(stdin, usage_error=f"the hook command's flags are invalid: {' '.join(argv[1:])}", cwd=cwd, pm=pm)
        reply.exit_code = 0
        return reply
    return run_hook(stdin, flags=config_flags(args), cwd=cwd, pm=pm)


_hook_parser: "argparse.ArgumentParser | None" = None


def hook_parser() -> "argparse.ArgumentParser":
    """The parser of `hook`'s own flags (the `hook` sub-parser of `cli.build_parser`), built once."""
    global _hook_parser
    if _hook_parser is None:
        import argparse

        from .flags import add_config_flags

        _hook_parser = argparse.ArgumentParser(prog="worktree-guard hook", description=HOOK_HELP)
        add_config_flags(_hook_parser)
    return _hook_parser


def write_reply(reply: "Reply") -> int:
    """Print a hook reply as the hook process does; its exit code."""
    if reply.stdout:
        sys.stdout.write(reply.stdout + "\n")
    if reply.stderr:
        sys.stderr.write(reply.stderr + "\n")
    sys.stdout.flush()
    return reply.exit_code


def judge_here(argv: list[str], stdin: bytes) -> int:
    """Judge the call in this process; write the reply; the exit code.

    The watchdog (hook.WATCHDOG_SECONDS) gets what remains of client.TOTAL_SECONDS since this process started,
    less client.ANSWER_MARGIN to print the refusal: the deadline counts the interpreter's start, the imports
    and any wait for a daemon.
    """
    fast = sys.flags.no_site  # started with -S for speed (fast_hook.py): the guard's dependencies are in site-packages
    if fast:
        from . import code_cache

        try:
            code_cache.install()
        except Exception:  # noqa: BLE001, S110 — without the cache the modules load the ordinary way
            pass
        from . import site_packages

        site_packages.load()
    from . import hook

    left = client.TOTAL_SECONDS - client.ANSWER_MARGIN - client.process_age()
    if left <= 0.05:
        return refuse_unjudged(stdin, f"the hook process ran out of time ({client.TOTAL_SECONDS:g} s) before it could judge the call", argv)
    hook.WATCHDOG_SECONDS = min(hook.WATCHDOG_SECONDS, left)
    exit_code = write_reply(hook_reply(argv, stdin))
    if fast:
        try:
            code_cache.save()  # the reply is out: what this process compiled or read serves the next one
        except Exception:  # noqa: BLE001, S110 — a cache that cannot be written is only slower
            pass
    return exit_code


def read_stdin() -> bytes:
    try:
        return sys.stdin.buffer.read()
    except BaseException:  # noqa: BLE001 — unreadable stdin is a payload error, judged like an empty one
        return b""


def refuse_unjudged(stdin: bytes, cause: str, argv: "list[str] | None" = None) -> int:
    """The last resort when the guard cannot load or print its reply: refuse a tool call (WG000), note any other event.

    Standard library only, ASCII only. Without it the process would end with a traceback and exit 1, which
    Claude Code treats as a non-blocking error: the call would go through. The refusal is in the words of the
    runtime the hook command names (`--runtime`, see last_resort).
    """
    import json

    try:
        event = json.loads(stdin).get("hook_event_name", "PreToolUse")
    except Exception:  # noqa: BLE001 — unreadable: treat it as the call it most likely is
        event = "PreToolUse"
    cause = " ".join(cause.split())[:1000]
    from .last_resort import refusal, runtime_of

    runtime = runtime_of(argv or [])
    if event == "PreToolUse" or runtime:  # other runtimes send other event names, or none: refuse
        reason = f"worktree-guard could not check this call, so it is refused: {cause} [worktree-guard WG000]"
        text = refusal(runtime, reason)
    else:
        text = json.dumps({"systemMessage": f"worktree-guard: {cause} [worktree-guard WG000]"})
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
    return 0


# --- the hook command -----------------------------------------------------------------------------


def run_hook_command(argv: list[str]) -> int:
    """`worktree-guard hook [flags]`: the daemon's reply when it gives one, else the in-process judgement."""
    stdin = read_stdin()
    try:
        exit_code, out, err = client.ask_daemon(argv, stdin)
    except BaseException:  # noqa: BLE001 — NoDaemon or anything else: the in-process judgement answers
        try:
            return judge_here(argv, stdin)
        except BaseException as error:  # noqa: BLE001 — never a traceback and exit 1, which lets the call through
            return refuse_unjudged(stdin, f"{type(error).__name__}: {error}", argv)
    try:
        if out:
            sys.stdout.write(out + "\n")
        if err:
            sys.stderr.write(err + "\n")
        sys.stdout.flush()
    except BaseException as error:  # noqa: BLE001 — as in-process (write_reply inside judge_here)
        return refuse_unjudged(stdin, f"{type(error).__name__}: {error}", argv)
    return exit_code


def main(argv: list[str] | None = None) -> int:
    """`worktree-guard-hook [flags]` (and `fast_hook.py`): the hook command, `hook` implied."""
    args = ["hook", *(sys.argv[1:] if argv is None else argv)]
    if {"-h", "--help"} & set(args):
        try:
            hook_parser().parse_args(["--help"])
        except SystemExit as done:
            return int(done.code or 0)
    return run_hook_command(args)
