"""The Cline adapter: the `PreToolUse` hook file, as the CLI (observed in 3.0.65, research/runtimes-observed.md)
and the VS Code extension (its documented payload: cline/cline src/core/hooks/hook-factory.ts) run it.

CLI payload: `hookName: "tool_call"`, the call as `tool_call {id, name, input}` (and again, stringified, under
`preToolUse`), `workspaceRoots` and `workspaceInfo.rootPath` instead of a cwd, `agent_id`, `parent_agent_id`.
Tools: `editor {path, old_text?, new_text, insert_line?}`, `apply_patch {input}` (offered instead of `editor`
to GPT models), `run_commands {commands: [...]}` (each command in a shell of its own, from the workspace),
`spawn_agent {systemPrompt, task}` (a sub-agent in the same workspace; its calls name the dispatching agent's
`agent_id` as their `parent_agent_id`, which is all that links them to the dispatch: no file the hook can find
holds the sub-agent's prompt by its first call).

Extension payload: `hookName: "PreToolUse"`, `workspaceRoots`, and the call only as `preToolUse {toolName,
parameters}` with every parameter a string: `write_to_file {path, content}`, `replace_in_file {path, diff}`,
`new_rule {path, …}`, `apply_patch {input}`, `execute_command {command}`, `new_task`. Its calls are read as
the runtime `cline-vscode`, because its answers differ. Any other `hookName` reaching the guard's PreToolUse
file is not a call the guard can judge (WG000).

Cline has no per-call deny that reaches the model: `cancel` stops the whole run, and exit 2 is not a block.
What the CLI does have is `overrideInput`, which replaces the tool's input, so the guard answers a refusal by
turning the call into one that cannot write and whose result carries the reason (tested in the real client):
- run_commands: one command that prints the reason on stderr and exits 1; the model reads it as the output;
- editor: the edit is aimed at `/dev/null/<reason>`, which fails before anything is written (`/dev/null` is
  not a directory); the model reads the reason in the failed call's path;
- apply_patch: a patch whose only line is the reason, which the patch parser rejects before anything is
  written; the model reads "apply_patch failed: Unknown line while parsing: <reason>";
- any other tool (a sub-agent start refused as misplaced, an unknown tool, a payload the guard cannot read),
  and every call of the extension, which has no `overrideInput`: `cancel`, which stops the run with the reason
  shown to the user.
A rewrite (rewrite mode) is `overrideInput` with the corrected input; the extension cannot take one, so there
it is a refusal.
"""

from __future__ import annotations

from typing import Any

from ..engine import CallError
from ..hook_config import HookConfig, user_dir
from ..hookspecs import hookimpl
from ..model import ToolCall, Verdict
from ..reply import Reply
from .common import Tools, answer, shared_cwd_call, as_json, object_field, reads, text_field, tool_kind, unjudged
from .patch import PatchError, patch_writes

NAME = "cline"
EXTENSION = "cline-vscode"  # the runtime of a call the VS Code extension sent: it takes no `overrideInput`
CLI_HOOK = "tool_call"
EXTENSION_HOOK = "PreToolUse"
TOOLS: Tools = {
    "editor": ("file_write", "path"),
    "apply_patch": ("file_write", None),
    "run_commands": ("shell", None),
    "spawn_agent": ("dispatch", None),
    # the VS Code extension's (ClineDefaultTool in cline/cline src/shared/tools.ts)
    "write_to_file": ("file_write", "path"),
    "replace_in_file": ("file_write", "path"),
    "new_rule": ("file_write", "path"),
    "execute_command": ("shell", None),
    "new_task": ("dispatch", None),
}
PASSING = frozenset({
    "read_files", "search_codebase", "fetch_web_content", "ask_question", "attempt_completion", "plan_mode_respond",
    "list_files", "skills",
    "read_file", "search_files", "list_code_definition_names", "browser_action", "access_mcp_resource",
    "load_mcp_documentation", "ask_followup_question", "act_mode_respond", "focus_chain", "web_fetch", "web_search",
    "condense", "summarize_task", "report_bug", "generate_explanation", "search_subagent",
})
# The CLI's tools whose refusal or rewrite can be an `overrideInput`; every other refusal is `cancel`.
OVERRIDABLE = frozenset({"editor", "apply_patch", "run_commands"})
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
    if hook == CLI_HOOK:
        call = object_field(payload, "tool_call", NAME)
        runtime, name, tool_input, tool_use_id = NAME, text_field(call, "name", NAME), object_field(call, "input", NAME), text_field(call, "id", NAME, required=False)
    elif hook == EXTENSION_HOOK:
        call = object_field(payload, "preToolUse", NAME)
        runtime, name, tool_input, tool_use_id = EXTENSION, text_field(call, "toolName", NAME), object_field(call, "parameters", NAME), None
    else:
        raise CallError(f"the Cline hook file was run for {hook!r}, not for a tool call ({CLI_HOOK!r} or {EXTENSION_HOOK!r})")
    kind, path_field = tool_kind(TOOLS, PASSING, name)
    extra: dict[str, Any] = {}
    if kind == "shell":
        extra["commands"] = _commands(name, tool_input)
    elif name == "apply_patch":
        patch = tool_input.get("input")
        if not isinstance(patch, str):
            raise CallError("the Cline apply_patch call has no patch text in `input`")
        try:
            extra["file_writes"] = patch_writes(patch)
        except PatchError as e:
            raise CallError(f"the Cline patch cannot be judged: {e}") from None
    if kind == "dispatch" and runtime == EXTENSION:
        # new_task hands the session to a new task: its calls carry no agent id, so an ownership in its
        # `context` could not be enforced (WG708, never silently dropped).
        context = tool_input.get("context")
        extra["subagent_prompt"] = context if isinstance(context, str) else None
        extra["subagent_named"] = False
    elif kind == "dispatch":
        task = tool_input.get("task")
        extra["subagent_prompt"] = task if isinstance(task, str) else None
    own = text_field(payload, "agent_id", NAME, required=False)
    parent = text_field(payload, "parent_agent_id", NAME, required=False)
    return shared_cwd_call(
        runtime, name, kind, tool_input, cwd, path_field,
        session_id=text_field(payload, "taskId", NAME, required=False),
        agent_id=own if parent else None,  # the main agent has an id too, but is no sub-agent
        parent_id=parent,
        caller_id=own,
        tool_use_id=tool_use_id,
        **extra,
    )


def _commands(name: str, tool_input: dict[str, Any]) -> list[Any]:
    """The commands a shell tool runs: run_commands' list, or execute_command's one `command`."""
    if name == "execute_command":
        return [tool_input.get("command")]
    commands = tool_input.get("commands")
    if not isinstance(commands, list):
        raise CallError(f"the Cline run_commands call's `commands` is not a list ({commands!r:.80})")
    return commands


def _reads(runtime: str, payload: dict[str, Any] | None) -> bool:
    """`--runtime cline` (or the runtime a recorded extension call names), or a payload recognised as Cline's."""
    return runtime == EXTENSION or reads(runtime, NAME, payload, recognises)


@hookimpl
def worktree_guard_read_payload(payload: dict[str, Any], runtime: str) -> ToolCall | None:
    return to_tool_call(payload) if _reads(runtime, payload) else None


def refusal(tool: str, reason: str) -> Reply:
    """The call turned into one that writes nothing and tells the model why; `cancel` where there is none."""
    if tool == "run_commands":
        import shlex  # here: a refusal is rare, and every hook call would load it

        command = f"printf '%s\\n' {shlex.quote(reason)} >&2; exit 1"
        return Reply(stdout=as_json({"overrideInput": {"commands": [command]}}))
    if tool == "editor":
        # One path component: no `/` (so no `..` either) can take the path out from under /dev/null.
        name = " ".join(reason.split()).replace("/", "\u2215")
        return Reply(stdout=as_json({"overrideInput": {"path": DEAD_END + name, "new_text": ""}}))
    if tool == "apply_patch":
        # One line the parser rejects: no patch line starts with a letter, so no file header can be in it.
        line = "worktree-guard refused this patch: " + " ".join(reason.split())
        return Reply(stdout=as_json({"overrideInput": {"input": f"*** Begin Patch\n{line}\n*** End Patch\n"}}))
    return Reply(stdout=as_json({"cancel": True, "errorMessage": reason}))


@hookimpl
def worktree_guard_render_reply(verdict: Verdict, call: ToolCall) -> Reply | None:
    if call.runtime not in (NAME, EXTENSION):
        return None
    tool = call.tool if call.runtime == NAME else ""  # the extension takes no overrideInput: every refusal cancels

    def rewrite(updated_input: dict[str, Any] | None, reason: str) -> Reply:
        return Reply(stdout=as_json({"overrideInput": updated_input})) if tool in OVERRIDABLE else refusal(tool, reason)

    context = "context" if call.runtime == NAME else "contextModification"
    return answer(
        verdict,
        deny=lambda reason: refusal(tool, reason),
        rewrite=rewrite,
        warn=lambda reason: Reply(stdout=as_json({context: reason})),
    )


@hookimpl
def worktree_guard_payload_cwd(payload: dict[str, Any], runtime: str) -> str | None:
    if not _reads(runtime, payload):
        return None
    try:
        return workspace(payload)
    except (CallError, TypeError, AttributeError):
        return None


@hookimpl
def worktree_guard_render_error(message: str, payload: dict[str, Any] | None, runtime: str) -> Reply | None:
    if not _reads(runtime, payload):
        return None
    call = payload.get("tool_call") if isinstance(payload, dict) and payload.get("hookName") == CLI_HOOK else None
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
