"""The hook specifications every plugin implements — built-in rules and adapters included (SPEC §10).

A third-party package registers a module or object under the `worktree_guard` entry-point group and
implements any of these with `@worktree_guard.hookspecs.hookimpl`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from .engine import AgentScope, Context
    from .hook_config import HookConfig
    from .layout import Layout
    from .reply import Reply
    from .model import AgentEvent, EventVerdict, ToolCall, Verdict, Violation
    from .shell.programs import ReadOnly, WriteSpec
    from .shell.runners import CodeRunner
    from .shell.wrappers import Wrapper
    from .subagents.linking import DispatchLink
    from .subagents.surfaces import Surface
    from .shell.steps import ShellCommand, ShellRedirect, Unwrapped

PROJECT = "worktree_guard"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def worktree_guard_check_call(call: ToolCall, ctx: Context) -> list[Violation] | None:
    """Judge one tool call of an isolated agent; return the violations found (or None)."""


@hookspec
def worktree_guard_check_any_call(call: ToolCall, ctx: Context) -> list[Violation] | None:
    """Judge one tool call of any agent, isolated or not (a wave's dispatch, a worker's writes, a fork's fork)."""


@hookspec(firstresult=True)
def worktree_guard_find_worker(call: ToolCall, ctx: Context) -> Any:
    """The wave worker (SPEC §11) making this call, with its ownership; None when the agent is no worker."""


@hookspec(firstresult=True)
def worktree_guard_confined_agent(call: ToolCall) -> bool | None:
    """Is the agent making this call confined, known without its configuration (a call that failed before it was placed)?"""


@hookspec(firstresult=True)
def worktree_guard_find_dispatch(agent: ToolCall | AgentEvent) -> DispatchLink | None:
    """Which dispatch started the sub-agent of this call or event, as its runtime records it; None when unknown."""


@hookspec
def worktree_guard_call_judged(call: ToolCall, ctx: Context, verdict: Verdict) -> None:
    """Remember what a judged call means for later ones (a dispatch); the hook calls it, `validate` never does."""


@hookspec(firstresult=True)
def worktree_guard_read_payload(payload: dict[str, Any], runtime: str) -> ToolCall | None:
    """Turn a runtime's hook payload into a ToolCall; None when the payload is not this adapter's."""


@hookspec(firstresult=True)
def worktree_guard_render_reply(verdict: Verdict, call: ToolCall) -> Reply | None:
    """Turn a verdict into the runtime's reply (stdout and exit code); None when the call is not this adapter's."""


@hookspec(firstresult=True)
def worktree_guard_render_error(message: str, payload: dict[str, Any] | None, runtime: str) -> Reply | None:
    """The runtime's deny reply for a call the guard could not judge (WG000); None when not this adapter's."""


@hookspec(firstresult=True)
def worktree_guard_payload_cwd(payload: dict[str, Any], runtime: str) -> str | None:
    """Where the agent of a payload that could not be judged stands, when the runtime does not call it `cwd`."""


@hookspec
def worktree_guard_agent_event(event: AgentEvent, scope: AgentScope, pm: pluggy.PluginManager) -> EventVerdict | None:
    """Observe a sub-agent's start or stop (SPEC §5.4, §11); return a verdict (or None when there is nothing to say)."""


@hookspec(firstresult=True)
def worktree_guard_recorded_layout(event: AgentEvent) -> Layout | None:
    """W and S recorded at this sub-agent's start, for an event whose cwd can no longer be placed (W removed)."""


@hookspec(firstresult=True)
def worktree_guard_started_layout(call: ToolCall) -> Layout | None:
    """W and S recorded for the isolated agent making this call (a sub-agent at its start, a main agent at a call in
    its linked worktree), when its cwd is outside that W."""


@hookspec(firstresult=True)
def worktree_guard_read_event(payload: dict[str, Any], runtime: str) -> AgentEvent | None:
    """Turn a runtime's sub-agent start/stop payload into an AgentEvent; None when it is not one (or not this adapter's)."""


@hookspec(firstresult=True)
def worktree_guard_render_event_reply(verdict: EventVerdict, event: AgentEvent) -> Reply | None:
    """Turn an event verdict into the runtime's reply; None when the event is not this adapter's."""


# --- Bash (SPEC §5.2): the walker calls these for every step of a parsed command --------------------


@hookspec
def worktree_guard_shell_command(command: ShellCommand, ctx: Context) -> list[Violation] | None:
    """Judge one simple command (after unwrapping `env`, `sudo`, `bash -c`…) where it runs; return violations."""


@hookspec
def worktree_guard_shell_redirect(redirect: ShellRedirect, ctx: Context) -> list[Violation] | None:
    """Judge one redirection where it is opened; return violations."""


@hookspec(firstresult=True)
def worktree_guard_shell_unwrap(command: ShellCommand, ctx: Context) -> Unwrapped | None:
    """The command(s) a wrapper or string-executing command runs (`env -C d cmd`, `bash -c '…'`), if any."""


@hookspec
def worktree_guard_write_operands() -> dict[str, WriteSpec] | None:
    """Extend the table of programs and the operands they write (`{"cp": WriteSpec(...)}`)."""


@hookspec
def worktree_guard_read_only_programs() -> dict[str, ReadOnly] | None:
    """Extend the table of programs that only read their operands (`{"cat": ReadOnly()}`)."""


@hookspec
def worktree_guard_wrappers() -> dict[str, Wrapper] | None:
    """Extend the table of wrappers, programs that run a command given on their line (`{"taskset": Wrapper(leading=1)}`)."""


@hookspec
def worktree_guard_code_runners() -> dict[str, CodeRunner] | None:
    """Extend the table of programs that run code the guard does not walk (`{"tmux": CodeRunner(subcommands=...)}`)."""


@hookspec
def worktree_guard_hidden_surfaces() -> dict[str, tuple[Surface, ...]] | None:
    """Extend the table of programs that write beyond their operands (`{"npm": (Surface(...),)}`, SPEC §11)."""


@hookspec
def worktree_guard_hook_config() -> HookConfig | None:
    """A runtime adapter's hook wiring: its config files per scope and the entries the guard adds (`install`)."""
