"""worktree-guard in the Claude Agent SDK for Python: hook callbacks that judge each call in this process.

    from claude_agent_sdk import ClaudeAgentOptions, query
    from worktree_guard import agent_sdk

    options = ClaudeAgentOptions(cwd=worktree, hooks=agent_sdk.hooks(), ...)

`hooks()` returns the dict for `ClaudeAgentOptions(hooks=...)`: PreToolUse, SubagentStart and SubagentStop
matchers whose callbacks hand the SDK's hook input (exactly the Claude Code CLI's hook stdin) to the same
engine `worktree-guard hook` runs, in this process: no subprocess, no daemon. Their answers are the CLI hook's
answers (a deny reaches the model as "PreToolUse:Write hook error: <reason>"). A callback that times out
BLOCKS the call in the SDK (unlike a shell hook), and the judgement never raises: the guard fails closed.

`can_use_tool(cwd)` is the other way in, for users who want it: a permission callback. The CLI consults it only
when it would ask the user, so it is NEVER consulted in `permission_mode="bypassPermissions"` (the SDK warns
`CanUseToolShadowedWarning`), nor for calls the mode already allows: use `hooks()` to guard every call.

Both need `claude-agent-sdk` installed (it is not a dependency of worktree-guard).
"""

from __future__ import annotations

import json
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


def can_use_tool(cwd: str, **settings: Any) -> Any:
    """A `can_use_tool` callback for ClaudeAgentOptions, judging calls made from `cwd` (the session's `cwd`).

    Never consulted in bypassPermissions, nor for a call the permission mode allows without asking: prefer
    `hooks()`. A refusal is PermissionResultDeny(message=reason), a rewrite PermissionResultAllow(updated_input=…).
    """
    from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

    guard = _Guard(settings)

    async def decide(tool_name: str, tool_input: dict[str, Any], context: Any) -> Any:
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
        if answer.get("permissionDecision") == "deny":
            return PermissionResultDeny(message=answer.get("permissionDecisionReason") or "refused by worktree-guard")
        if "updatedInput" in answer:
            return PermissionResultAllow(updated_input=answer["updatedInput"])
        return PermissionResultAllow()

    return decide
