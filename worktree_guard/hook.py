"""`worktree-guard hook`: one payload on stdin, the runtime's reply on stdout, exit 0 — whatever happens.

Fail closed (SPEC §6): for an isolated agent any internal error, unreadable input or invalid configuration
is a WG000 deny with a one-line cause, never a traceback and never exit 1 (Claude Code lets exit 1 through).
The failure path uses the standard library only, so even a broken install still answers.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import os
import time
import _signal  # `signal` builds its enums at import: milliseconds the hook does not need
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .effects import StatefulCall
from .layout import find_layout, forget_layouts, layouts_remembered
from .reply import Reply

if TYPE_CHECKING:
    import pluggy

    from .model import AgentEvent

_MAX_STDIN = 16 * 1024 * 1024

#: The directory the hook process runs in while `run_hook` judges its payload (None when unknown, or outside
#: run_hook: `validate`). For an adapter whose runtime starts the hook in the session's directory but leaves
#: that directory out of some payloads (Codex without a transcript).
HOOK_PROCESS_CWD: contextvars.ContextVar[str | None] = contextvars.ContextVar("hook_process_cwd", default=None)


def run_hook(
    stdin: bytes,
    *,
    flags: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
    usage_error: str | None = None,
    cwd: str | None = None,
    pm: Any = None,
) -> Reply:
    """The reply for one hook payload. Never raises. `usage_error` refuses the call (the hook's flags were bad).

    `cwd` is the hook process's working directory (default: this process's), used only to guess isolation when
    the payload has no usable cwd; "" means it is unknown (the guess is then "isolated"). `pm` is a plugin
    manager to reuse (default: a new one).
    """
    flags = dict(flags or {})
    environ = dict(os.environ if environ is None else environ)
    state: dict[str, Any] = {"flags": flags}
    deadline = time.monotonic() + WATCHDOG_SECONDS
    token = None
    try:
        forget_layouts()
        token = HOOK_PROCESS_CWD.set(_process_cwd(cwd))
        with _watchdog(WATCHDOG_SECONDS):
            return _judge(stdin, flags, environ, state, usage_error, pm)
    except StatefulCall:
        raise  # the daemon declines the call: the hook process judges it itself (effects.py)
    except BaseException as error:  # noqa: BLE001 — every failure must become a reply
        return _failure_reply(error, state, environ, cwd, deadline)
    finally:
        if token is not None:
            HOOK_PROCESS_CWD.reset(token)


def _process_cwd(cwd: str | None) -> str | None:
    """`run_hook`'s `cwd` as an absolute directory, or None when it is unknown ("", or this process has none)."""
    if cwd is None:
        try:
            cwd = os.getcwd()
        except OSError:
            return None
    return cwd if cwd and os.path.isabs(cwd) else None


#: Wall-clock limit of one in-process judgement. Claude Code's hook timeout (30 s as installed) fails OPEN,
#: so the guard must answer before it: past this, the call is refused.
WATCHDOG_SECONDS = 20.0


class WatchdogExpired(BaseException):
    """The judgement ran past WATCHDOG_SECONDS (a BaseException: no `except Exception` may swallow it)."""

    def __str__(self) -> str:
        return f"judging the call took longer than {WATCHDOG_SECONDS:g} s"


@contextlib.contextmanager
def _watchdog(seconds: float) -> Iterator[None]:
    """Raise WatchdogExpired in this thread after `seconds`; only the main thread can take a signal
    (the daemon's workers have the daemon's own request limit, past which the client judges in-process)."""
    if seconds <= 0:
        raise WatchdogExpired
    if not hasattr(_signal, "setitimer"):
        yield
        return
    armed = _signal.getitimer(_signal.ITIMER_REAL)[0]
    if 0 < armed <= seconds:
        yield  # a shorter limit is already running (the daemon's per-request one): it decides
        return

    def expire(signum: int, frame: Any) -> None:
        raise WatchdogExpired

    try:
        previous = _signal.signal(_signal.SIGALRM, expire)
    except ValueError:  # not the main thread
        yield
        return
    _signal.setitimer(_signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        _signal.setitimer(_signal.ITIMER_REAL, 0)
        _signal.signal(_signal.SIGALRM, previous)


def _runtime(flags: dict[str, Any], environ: dict[str, str]) -> str:
    return flags.get("runtime") or environ.get("WORKTREE_GUARD_RUNTIME") or "auto"


def _judge(stdin: bytes, flags: dict[str, Any], environ: dict[str, str], state: dict[str, Any], usage_error: str | None, pm: Any) -> Reply:
    from .engine import CallError, build_context, decide
    from .plugins import plugin_manager

    runtime = _runtime(flags, environ)
    state["runtime"] = runtime
    parsed: Any = None
    unreadable: str | None = None
    if len(stdin) <= _MAX_STDIN and stdin.strip():
        try:
            parsed = json.loads(stdin)
        except (ValueError, RecursionError) as e:
            unreadable = f"stdin is not valid JSON ({e})"
        if isinstance(parsed, dict):
            state["payload"] = parsed  # before the plugins load: one that fails must not hide where the agent is
    if pm is None:
        pm = plugin_manager()
    state["pm"] = pm  # before the payload's errors: even an unreadable payload is refused in the runtime's own words
    if len(stdin) > _MAX_STDIN:
        # unread, its cwd cannot place the agent: refused whoever sent it (h-hk31: from a hook run outside W, an
        # isolated agent's 16 MiB Write was let through with a WG000 note)
        state["unplaced"] = True
        raise CallError(f"stdin holds {len(stdin)} bytes, more than a hook payload can be ({_MAX_STDIN})")
    if not stdin.strip():
        raise CallError("stdin is empty: expected one hook payload, a JSON object")
    if unreadable is not None:
        raise CallError(unreadable)
    if not isinstance(parsed, dict):
        raise CallError(f"stdin is JSON but not an object (got {type(parsed).__name__})")
    payload = parsed
    if usage_error:
        raise CallError(usage_error)
    event = pm.hook.worktree_guard_read_event(payload=payload, runtime=runtime)
    if event is not None:
        return _judge_event(event, pm, flags, environ, state)
    call = pm.hook.worktree_guard_read_payload(payload=payload, runtime=runtime)
    if call is None:
        raise CallError(f"no runtime adapter recognises this payload (runtime {runtime!r})")
    state["call"] = call
    with layouts_remembered():
        ctx = build_context(call, flags=flags, environ=environ, pm=pm)
        state["ctx"] = ctx
        verdict = decide(call, ctx)
    pm.hook.worktree_guard_call_judged(call=call, ctx=ctx, verdict=verdict)
    reply = pm.hook.worktree_guard_render_reply(verdict=verdict, call=call)
    if reply is None:
        raise CallError(f"no runtime adapter renders replies for {call.runtime!r}")
    if ctx.settings.audit_log:
        from . import audit

        audit.append(audit_path(ctx.scope), call, verdict)
    return reply


def audit_path(scope: Any) -> str:
    """The configured audit log, a relative path taken from the project root (docs/configuration.md, "Audit log")."""
    from .engine import project_root_of
    from .paths import canonical

    return canonical(scope.settings.audit_log, project_root_of(scope.layout) or scope.cwd)


def _judge_event(event: AgentEvent, pm: pluggy.PluginManager, flags: dict[str, Any], environ: dict[str, str], state: dict[str, Any]) -> Reply:
    """A sub-agent's start or stop (SPEC §5.4): the lifecycle plugins' verdict in the runtime's words."""
    from .engine import CallError, decide_event, scope_for_event

    state["event"] = event
    scope = scope_for_event(event, pm, flags=flags, environ=environ)
    state["scope"] = scope
    verdict = decide_event(event, scope, pm)
    reply = pm.hook.worktree_guard_render_event_reply(verdict=verdict, event=event)
    if reply is None:
        raise CallError(f"no runtime adapter renders replies for {event.runtime!r}")
    if scope.settings.audit_log:
        from . import audit

        audit.append_event(audit_path(scope), event, verdict, scope.isolation.isolated)
    return reply


def _one_line(error: BaseException) -> str:
    from_engine = type(error).__name__ in ("CallError", "ConfigError", "AgentDefinitionError", "WatchdogExpired", "LayoutUnknown")
    text = str(error) if from_engine else f"internal error {type(error).__name__}: {error}"
    text = " ".join(text.split())
    return text[:1000] if text else type(error).__name__


def _confined_agent(state: dict[str, Any]) -> bool:
    """Does a plugin know the agent of the failed call or event as confined (a wave's worker)? An error: yes."""
    agent, pm = state.get("call") or state.get("event"), state.get("pm")
    if agent is None or pm is None:
        return False
    try:
        return bool(pm.hook.worktree_guard_confined_agent(call=agent))
    except Exception:
        return True


def _guess_isolated(state: dict[str, Any], environ: dict[str, str], process_cwd: str | None = None) -> bool:
    """Was the failed call an isolated agent's? Unknown counts as yes: the guard fails closed.

    The payload's cwd and the hook process's own (`process_cwd`, default os.getcwd()) are both looked at: either
    in a linked worktree makes the answer yes. So does any configuration layer that says so, read as written
    (the configuration as a whole may be what failed), and the agent's definition. The caller bounds the time
    this takes (`_failure_reply`).
    """
    ctx = state.get("ctx")
    if ctx is not None:
        from .engine import confined

        # A worker whose lookup itself failed is not yet known to ctx: the wave's own record is asked too.
        return confined(ctx) or _confined_agent(state)
    known = state.get("scope")
    if known is not None:
        return bool(known.isolation.isolated) or _confined_agent(state)  # a shared-checkout worker's stop
    if state.get("unplaced"):
        return True  # a payload too large to read: where the agent runs is unknown
    try:
        if _confined_agent(state):
            return True  # e.g. a worker of a wave, whose configuration could not be read
        flags = state.get("flags") or {}
        if flags.get("isolated") is not None:
            return bool(flags["isolated"])  # the hook command's own flag, checked by argparse: the highest layer
        if (environ.get("WORKTREE_GUARD_ISOLATED") or "").lower() in ("1", "true", "yes", "on"):
            return True
        payload = state.get("payload") or {}
        cwd = payload.get("cwd") if isinstance(payload, dict) else None
        pm = state.get("pm")
        if (not isinstance(cwd, str) or not cwd) and pm is not None and isinstance(payload, dict):
            cwd = pm.hook.worktree_guard_payload_cwd(payload=payload, runtime=state.get("runtime", "auto"))
        here = os.getcwd() if process_cwd is None else process_cwd
        if not isinstance(cwd, str) or not os.path.isabs(cwd):
            cwd = here
            if not os.path.isabs(cwd):
                return True  # the hook's own cwd is unknown too
        if not os.path.isdir(cwd):
            return True  # a cwd that is gone cannot be placed: unknown is never "not isolated"
        # The payload's cwd may be where a command runs rather than where the agent is (Codex sends a command's
        # workdir): the hook process's own directory in a linked worktree counts as well.
        directories = [d for d in dict.fromkeys((cwd, here)) if os.path.isabs(d)]
        layouts = [find_layout(os.path.realpath(d)) for d in directories]
        if any(layout.linked for layout in layouts):
            return True
        agent_type = payload.get("agent_type") if isinstance(payload, dict) else None
        agent_type = agent_type if isinstance(agent_type, str) and agent_type else None
        from .config import claims_isolation
        from .engine import project_root_of

        # Both directories count, as for the layouts: a claim in either project (its configuration or the agent's
        # definition there) is a claim.
        for directory, layout in zip(directories, layouts):
            definition = None
            if agent_type:
                from .agents import find_agent_definition

                definition = find_agent_definition(agent_type, os.path.realpath(directory))
                if definition is not None and definition.isolated:
                    return True
            if claims_isolation(
                project_root_of(layout),
                agent_type,
                frontmatter=definition.guard_settings if definition is not None else None,
                flags=flags,
                environ=environ,
            ):
                return True
        return False
    except BaseException:  # noqa: BLE001
        return True


def _guessed_isolated(error: BaseException, state: dict[str, Any], environ: dict[str, str], process_cwd: str | None, deadline: float | None) -> bool:
    """`_guess_isolated`, within what is left of the judgement's time: once the watchdog has fired, no search may
    run (the runtime's hook timeout is near, and past it the call goes through): the answer is "isolated"."""
    if isinstance(error, WatchdogExpired):
        return True
    left = WATCHDOG_SECONDS if deadline is None else deadline - time.monotonic()
    try:
        with _watchdog(left):
            return _guess_isolated(state, environ, process_cwd)
    except BaseException:  # noqa: BLE001 — WatchdogExpired, or the daemon's own request limit
        return True


def _failure_reply(error: BaseException, state: dict[str, Any], environ: dict[str, str], process_cwd: str | None = None, deadline: float | None = None) -> Any:
    message = _one_line(error)
    if not _guessed_isolated(error, state, environ, process_cwd, deadline):
        # Not confined: the call goes on, and the user is told why the guard said nothing.
        return Reply(stdout=json.dumps({"systemMessage": f"worktree-guard: {message} [worktree-guard WG000]"}, ensure_ascii=False))
    pm = state.get("pm")
    if pm is not None:
        try:
            reply = pm.hook.worktree_guard_render_error(message=message, payload=state.get("payload"), runtime=state.get("runtime", "auto"))
            if reply is not None:
                return reply
        except BaseException:  # noqa: BLE001
            pass
    reason = f"worktree-guard could not check this call, so it is refused: {message} [worktree-guard WG000]"
    output = {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}
    return Reply(stdout=json.dumps({"hookSpecificOutput": output}, ensure_ascii=False))
