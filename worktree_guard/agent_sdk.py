"""worktree-guard in the Claude Agent SDK for Python: hook callbacks that judge each call in this process.

    from claude_agent_sdk import ClaudeAgentOptions, query
    from worktree_guard import agent_sdk

    options = ClaudeAgentOptions(cwd=worktree, hooks=agent_sdk.hooks(), ...)

`hooks()` returns the dict for `ClaudeAgentOptions(hooks=...)`: PreToolUse, SubagentStart and SubagentStop
matchers whose callbacks hand the SDK's hook input (exactly the Claude Code CLI's hook stdin) to the same
engine `worktree-guard hook` runs, in this process: no subprocess, no daemon. Their answers are the CLI hook's
answers (a deny reaches the model as "PreToolUse:Write hook error: <reason>"). A callback that times out
BLOCKS the call in the SDK (unlike a shell hook), and the judgement never raises: the guard fails closed.

`can_use_tool(cwd, fallback)` is the other way in, for users who want it: a permission callback. The CLI
consults it only when it would ask the user, so it is NEVER consulted in `permission_mode="bypassPermissions"`
(the SDK warns `CanUseToolShadowedWarning`), nor for calls the mode already allows: use `hooks()` to guard every
call. It never approves a call itself (SPEC §6): what the guard does not refuse goes to `fallback`, the user's
own permission callback, which decides.

Both need `claude-agent-sdk` installed (it is not a dependency of worktree-guard).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

from .runtimes.claude_code import LIFECYCLE_EVENTS, PRE_TOOL_USE_MATCHER, PRE_TOOL_USE_TIMEOUT, SUBAGENT_TIMEOUT


class _Guard:
    """The engine, set up once for a session's callbacks: its plugin manager and setting flags."""

    def __init__(self, settings: dict[str, Any]) -> None:
        from .plugins import plugin_manager

        self.flags = {k: v for k, v in settings.items() if v is not None}
        self.pm = plugin_manager()

    def judge(self, payload: dict[str, Any]) -> dict[str, Any]:
        """The hook's JSON answer to one payload ({} = no objection). Never raises (run_hook fails closed)."""
        from .hook import run_hook

        # cwd="": this process's directory says nothing about the agent's, so a failure is judged without it.
        reply = run_hook(json.dumps(payload, default=str).encode(), flags=self.flags, cwd="", pm=self.pm)
        try:
            answer = json.loads(reply.stdout) if reply.stdout.strip() else {}
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            reason = "worktree-guard could not check this call, so it is refused: its reply was not a JSON object [worktree-guard WG000]"
            return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}}
        return answer

    async def ajudge(self, payload: dict[str, Any]) -> dict[str, Any]:
        """`judge` in a worker thread: parsing a long command must not stall the SDK's event loop."""
        import anyio.to_thread

        return await anyio.to_thread.run_sync(self.judge, payload)

    async def hook(self, input_data: dict[str, Any], tool_use_id: str | None, context: Any) -> dict[str, Any]:
        payload = dict(input_data)
        if tool_use_id and not payload.get("tool_use_id"):
            payload["tool_use_id"] = tool_use_id
        return await self.ajudge(payload)


def hooks(**settings: Any) -> dict[str, list[Any]]:
    """The `hooks=` dict for ClaudeAgentOptions. `settings` are the guard's settings as flags (mode="rewrite",
    audit_log=…, isolated=True, …), above every other configuration layer (docs/configuration.md)."""
    from claude_agent_sdk import HookMatcher

    guard = _Guard(settings)
    matchers: dict[str, list[Any]] = {"PreToolUse": [HookMatcher(matcher=PRE_TOOL_USE_MATCHER, hooks=[guard.hook], timeout=PRE_TOOL_USE_TIMEOUT)]}
    for event in LIFECYCLE_EVENTS:
        matchers[event] = [HookMatcher(matcher=None, hooks=[guard.hook], timeout=SUBAGENT_TIMEOUT)]
    return matchers


def can_use_tool(cwd: str, fallback: Callable[..., Any], **settings: Any) -> Any:
    """A `can_use_tool` callback for ClaudeAgentOptions, judging calls made from `cwd` (the session's `cwd`).

    The CLI asks it where it would ask the user. A call the guard refuses is PermissionResultDeny(message=reason).
    Every other call is decided by `fallback` — your own `can_use_tool` callback (`(tool_name, tool_input,
    context)`, async or not): the guard never allows a call merely because it has no objection, which would
    skip the user's approval (SPEC §6). A call the guard rewrites (rewrite mode) goes to `fallback` with the
    corrected input and, if allowed, runs with it. An input `fallback` changes is judged again before it runs.
    Never consulted in bypassPermissions, nor for a call the permission mode allows without asking: prefer `hooks()`.
    """
    from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

    if not callable(fallback):
        raise TypeError("can_use_tool needs `fallback`: the permission callback that decides the calls worktree-guard does not refuse")
    guard = _Guard(settings)

    async def judge(tool_name: str, tool_input: dict[str, Any], context: Any) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "hook_event_name": "PreToolUse",
            "tool_name": tool_name,
            "tool_input": tool_input,
            "cwd": cwd,
            "permission_mode": "default",
            "tool_use_id": getattr(context, "tool_use_id", None),
        }
        agent_id = getattr(context, "agent_id", None)
        if agent_id:
            payload["agent_id"] = agent_id
        answer = (await guard.ajudge(payload)).get("hookSpecificOutput", {})
        return answer if isinstance(answer, dict) else {"permissionDecision": "deny"}

    def refused(answer: dict[str, Any]) -> Any:
        return PermissionResultDeny(message=answer.get("permissionDecisionReason") or "refused by worktree-guard")

    async def decide(tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
        answer = await judge(tool_name, tool_input, context)
        if answer.get("permissionDecision") == "deny":
            return refused(answer)
        proposed = answer["updatedInput"] if isinstance(answer.get("updatedInput"), dict) else tool_input
        result = fallback(tool_name, proposed, context)
        if inspect.isawaitable(result):
            result = await result
        if not isinstance(result, PermissionResultAllow):
            return result
        final = result.updated_input if result.updated_input is not None else proposed
        if final != proposed:  # the fallback's own input is judged like any other, and must pass as it is
            again = await judge(tool_name, final, context)
            if again.get("permissionDecision") == "deny" or "updatedInput" in again:
                return refused(again)
        if final == tool_input:
            return result
        return PermissionResultAllow(updated_input=final, updated_permissions=result.updated_permissions)

    return decide
