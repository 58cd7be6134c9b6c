"""Drive the Claude Agent SDK for Python once, with worktree-guard's in-process callbacks (run as a script).

    python agent_sdk_driver.py SDK_SITE CWD MODE PROMPT [SETTINGS_JSON]

SDK_SITE is where `claude-agent-sdk` was installed (`pip install --target`); it is appended to sys.path, after
this interpreter's site-packages, so the guard's own dependencies are the ones it was tested with. MODE is
`hooks` (agent_sdk.hooks(), bypassPermissions), `can_use_tool` (agent_sdk.can_use_tool(), default mode) or `log`
(no guard: a PreToolUse callback appends `{"hook_cwd", "payload"}` a line to the file named by WG_E2E_PAYLOAD_LOG,
bypassPermissions).
The CLI the SDK bundles talks to the fake API named by ANTHROPIC_BASE_URL in the environment.

The `can_use_tool` fallback stands for the user's own approval: it allows a call whose input holds
FALLBACK_ALLOWS, allows a Write whose content is FALLBACK_MOVES + a path with that path as its `file_path`, and
denies every other; it records each call it is asked about (one JSON line each) in the file named by
WG_E2E_FALLBACK_LOG.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys


FALLBACK_ALLOWS = "fallback-allows"
FALLBACK_MOVES = "fallback-moves-to:"


async def fallback(tool_name: str, tool_input: dict, context: object) -> object:
    from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

    text = json.dumps(tool_input)
    with open(os.environ["WG_E2E_FALLBACK_LOG"], "a") as log:
        log.write(json.dumps({"tool_name": tool_name, "tool_input": tool_input}) + "\n")
    if FALLBACK_ALLOWS in text:
        return PermissionResultAllow()
    content = tool_input.get("content")
    if isinstance(content, str) and content.startswith(FALLBACK_MOVES):
        return PermissionResultAllow(updated_input={**tool_input, "file_path": content[len(FALLBACK_MOVES):].strip()})
    return PermissionResultDeny(message="the user's own permission callback says no")


async def main(cwd: str, mode: str, prompt: str, settings: dict) -> None:
    from claude_agent_sdk import ClaudeAgentOptions, query

    from worktree_guard import agent_sdk

    async def messages():  # can_use_tool needs the streaming form of the prompt
        yield {"type": "user", "message": {"role": "user", "content": prompt}}

    options = ClaudeAgentOptions(cwd=cwd, env=dict(os.environ), setting_sources=[], permission_mode="bypassPermissions", hooks=agent_sdk.hooks(**settings))
    if mode == "log":
        from claude_agent_sdk import HookMatcher

        async def log(input_data: dict, tool_use_id: object, context: object) -> dict:
            with open(os.environ["WG_E2E_PAYLOAD_LOG"], "a") as f:
                f.write(json.dumps({"hook_cwd": os.getcwd(), "payload": input_data}) + "\n")
            return {}

        options = ClaudeAgentOptions(cwd=cwd, env=dict(os.environ), setting_sources=[], permission_mode="bypassPermissions", hooks={"PreToolUse": [HookMatcher(matcher=None, hooks=[log])]})
    if mode == "can_use_tool":
        can_use_tool = agent_sdk.can_use_tool(cwd, fallback, **settings)
        options = ClaudeAgentOptions(cwd=cwd, env=dict(os.environ), setting_sources=[], permission_mode="default", can_use_tool=can_use_tool)
    async for message in query(prompt=messages(), options=options):
        print(type(message).__name__, flush=True)


if __name__ == "__main__":
    site, cwd, mode, prompt = sys.argv[1:5]
    sys.path.append(site)
    asyncio.run(main(cwd, mode, prompt, json.loads(sys.argv[5]) if len(sys.argv) > 5 else {}))
