"""The Cline CLI adapter: the `PreToolUse` hook file (observed in 3.0.65, research/runtimes-observed.md).

Payload: `hookName: "tool_call"`, the call as `tool_call {id, name, input}` (and again, stringified, under
`preToolUse`), `workspaceRoots` and `workspaceInfo.rootPath` instead of a cwd, `agent_id`, `parent_agent_id`.
Tools: `editor {path, old_text?, new_text, insert_line?}`, `run_commands {commands: [...]}` (each command in a
shell of its own, from the workspace), `spawn_agent {systemPrompt, task}` (a sub-agent in the same workspace;
its calls name the dispatching agent's `agent_id` as their `parent_agent_id`, which is all that links them to
the dispatch: no file the hook can find holds the sub-agent's prompt by its first call).

Cline has no per-call deny that reaches the model: `cancel` stops the whole run, and exit 2 is not a block.
What it does have is `overrideInput`, which replaces the tool's input, so the guard answers a refusal by
turning the call into one that cannot write and whose result carries the reason (tested in the real client):
- run_commands: one command that prints the reason on stderr and exits 1; the model reads it as the output;
- editor: the edit is aimed at `/dev/null/<reason>`, which fails before anything is written (`/dev/null` is
  not a directory); the model reads the reason in the failed call's path;
- any other tool (a sub-agent start refused as misplaced, an unknown tool, a payload the guard cannot read):
  `cancel`, which stops the run with the reason shown to the user.
A rewrite (rewrite mode) is `overrideInput` with the corrected input.
"""

from __future__ import annotations

import shlex
from typing import Any

from ..engine import CallError
from ..hook_config import HookConfig, user_dir
from ..hookspecs import hookimpl
from ..model import ToolCall, Verdict
from ..reply import Reply
from .common import Tools, answer, shared_cwd_call, as_json, object_field, reads, text_field, tool_kind, unjudged

NAME = "cline"
TOOLS: Tools = {
    "editor": ("file_write", "path"),
    "run_commands": ("shell", None),
    "spawn_agent": ("dispatch", None),
}
PASSING = frozenset({
    "read_files", "search_codebase", "fetch_web_content", "ask_question", "attempt_completion", "plan_mode_respond",
    "list_files", "skills",
})
# Where a refused editor call is aimed: below a file, so the editor's `mkdir -p` of the parent fails.
DEAD_END = "/dev/null/"


def recognises(payload: dict[str, Any]) -> bool:
    return "hookName" in payload and ("workspaceRoots" in payload or "tool_call" in payload)


def workspace(payload: dict[str, Any]) -> str:
    """The session's directory: `workspaceInfo.rootPath`, else the first of `workspaceRoots`."""
    info = object_field(payload, "workspaceInfo", NAME)
    root = info.get("rootPath")
    if not root:
        roots = payload.get("workspaceRoots")
        root = roots[0] if isinstance(roots, list) and roots else None
    if not isinstance(root, str) or not root:
        raise CallError("the Cline payload names no workspace root (`workspaceInfo.rootPath`, `workspaceRoots`)")
    return root


def to_tool_call(payload: dict[str, Any]) -> ToolCall:
    hook = text_field(payload, "hookName", NAME)
    cwd = workspace(payload)
    if hook != "tool_call":
        return ToolCall(runtime=NAME, tool=hook, kind="other", cwd=cwd)
    call = object_field(payload, "tool_call", NAME)
    name = text_field(call, "name", NAME)
    tool_input = object_field(call, "input", NAME)
    kind, path_field = tool_kind(TOOLS, PASSING, name)
    extra: dict[str, Any] = {}
    if kind == "shell":
        commands = tool_input.get("commands")
        if not isinstance(commands, list):
            raise CallError(f"the Cline run_commands call's `commands` is not a list ({commands!r:.80})")
        extra["commands"] = commands
    if kind == "dispatch":
        task = tool_input.get("task")
        extra["subagent_prompt"] = task if isinstance(task, str) else None
    own = text_field(payload, "agent_id", NAME, required=False)
    parent = text_field(payload, "parent_agent_id", NAME, required=False)
    return shared_cwd_call(
        NAME, name, kind, tool_input, cwd, path_field,
        session_id=text_field(payload, "taskId", NAME, required=False),
        agent_id=own if parent else None,  # the main agent has an id too, but is no sub-agent
        parent_id=parent,
        caller_id=own,
        tool_use_id=text_field(call, "id", NAME, required=False),
        **extra,
    )


@hookimpl
def worktree_guard_read_payload(payload: dict[str, Any], runtime: str) -> ToolCall | None:
    return to_tool_call(payload) if reads(runtime, NAME, payload, recognises) else None


def refusal(tool: str, reason: str) -> Reply:
    """The call turned into one that writes nothing and tells the model why; `cancel` where there is none."""
    if tool == "run_commands":
        command = f"printf '%s\\n' {shlex.quote(reason)} >&2; exit 1"
        return Reply(stdout=as_json({"overrideInput": {"commands": [command]}}))
    if tool == "editor":
        # One path component: no `/` (so no `..` either) can take the path out from under /dev/null.
        name = " ".join(reason.split()).replace("/", "\u2215")
        return Reply(stdout=as_json({"overrideInput": {"path": DEAD_END + name, "new_text": ""}}))
    return Reply(stdout=as_json({"cancel": True, "errorMessage": reason}))


@hookimpl
def worktree_guard_render_reply(verdict: Verdict, call: ToolCall) -> Reply | None:
    if call.runtime != NAME:
        return None
    return answer(
        verdict,
        deny=lambda reason: refusal(call.tool, reason),
        rewrite=lambda updated_input, reason: Reply(stdout=as_json({"overrideInput": updated_input})),
        warn=lambda reason: Reply(stdout=as_json({"context": reason})),
    )


@hookimpl
def worktree_guard_payload_cwd(payload: dict[str, Any], runtime: str) -> str | None:
    if not reads(runtime, NAME, payload, recognises):
        return None
    try:
        return workspace(payload)
    except (CallError, TypeError, AttributeError):
        return None


@hookimpl
def worktree_guard_render_error(message: str, payload: dict[str, Any] | None, runtime: str) -> Reply | None:
    if not reads(runtime, NAME, payload, recognises):
        return None
    call = payload.get("tool_call") if isinstance(payload, dict) else None
    tool = call.get("name") if isinstance(call, dict) else None
    return refusal(tool if isinstance(tool, str) else "", unjudged(message))


def _entries(command: str) -> dict[str, Any]:
    from ..install import SCRIPT_KEY, SCRIPT_MARK

    return {SCRIPT_KEY: f"#!/bin/sh\n{SCRIPT_MARK}: Cline's PreToolUse (written by `worktree-guard install --runtime cline`)\nexec {command}\n"}


HOOK_CONFIG = HookConfig(
    runtime=NAME,
    layout="script",
    files={
        "project": lambda project, env: project / ".clinerules" / "hooks" / "PreToolUse",
        "user": lambda project, env: user_dir(env, None, ".cline") / "hooks" / "PreToolUse",
    },
    default_scope="project",
    entries=_entries,
    next_step="Cline cannot refuse one call and go on: a refused command or edit is turned into one that reports the reason (docs/runtimes/cline.md).",
)


@hookimpl
def worktree_guard_hook_config() -> HookConfig:
    return HOOK_CONFIG
