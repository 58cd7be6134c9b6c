"""The neutral records every part of the guard speaks: ToolCall in, Violation and Verdict out (SPEC §6)."""

from __future__ import annotations

from typing import Any, Literal

from .records import ConfigDict, Field, Record

# "shell" runs a bash command the guard parses; "powershell" runs a PowerShell command, which it cannot read.
ToolKind = Literal["file_write", "file_read", "shell", "powershell", "dispatch", "enter_worktree", "other", "unknown"]
Decision = Literal["pass", "rewrite", "deny", "warn"]
WriteAction = Literal["write", "delete", "move_from", "move_to"]
SubagentPlace = Literal["input", "dispatcher_cwd"]


class FileWrite(Record):
    """One path a file tool writes. A call may write several (a patch): the files rule judges every one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str = Field(description="the path as written in the call; a relative path resolves from the call's cwd")
    input_field: str | None = Field(
        default=None,
        description="the input field whose whole value is this path, so a rewrite can replace it exactly; "
        "None when the path sits inside a larger value (a patch's file header), which is never rewritten",
    )
    action: WriteAction = Field(default="write", description="write (create or change), delete, or either side of a move")


class ToolCall(Record):
    """One tool call as the engine sees it, whatever runtime sent it.

    The runtime adapter fills it from the payload; `input` is the complete tool input as sent, so a
    rewrite can echo it with only one field changed.
    """

    model_config = ConfigDict(extra="forbid")

    runtime: str = Field(description="adapter that read the call, e.g. 'claude-code'")
    tool: str = Field(description="tool name as the runtime calls it, e.g. 'Write'")
    kind: ToolKind = Field(description="what the tool does, as far as the guard is concerned")
    input: dict[str, Any] = Field(default_factory=dict, description="the complete tool input")
    cwd: str = Field(description="the agent's working directory at the time of the call")
    path_field: str | None = Field(default=None, description="the input field that holds the path, for file tools")
    file_writes: list[FileWrite] | None = Field(
        default=None,
        description="every path a call writes as a file tool does, when there may be several (a patch); None: `path_field`",
    )
    commands: list[str] | None = Field(
        default=None,
        description="shell tools that run several commands, each in a new shell in the same directory ([]: none, a "
        "Monitor watching a websocket); None: input `command`",
    )
    shell_cwd: str | None = Field(
        default=None,
        description="shell tools: the directory the command starts in when the call names one (relative to cwd); None: cwd",
    )
    subagent_place: SubagentPlace = Field(
        default="input",
        description="dispatch: where the sub-agent runs is set by the input (`isolation`, `cwd`), or it always "
        "runs in the dispatcher's cwd (the runtime offers no choice)",
    )
    subagent_named: bool = Field(
        default=True,
        description="dispatch: the runtime names the sub-agent in its calls (an agent id); False: they look like the dispatcher's own",
    )
    subagent_prompt: str | None = Field(
        default=None,
        description="dispatch: the instructions the sub-agent gets (its first prompt); None: the input's `prompt`",
    )
    subagent_type: str | None = Field(
        default=None,
        description="dispatch: the type of agent it starts, as the runtime will name it in the sub-agent's calls; None: not named",
    )
    session_id: str | None = None
    agent_id: str | None = Field(default=None, description="present only inside a sub-agent")
    agent_type: str | None = None
    parent_id: str | None = Field(
        default=None,
        description="inside a sub-agent: the id of the agent that dispatched it (its `caller_id`), where the runtime says",
    )
    caller_id: str | None = Field(
        default=None,
        description="the id by which this agent's sub-agents name it as their parent; None: `agent_id`, else `session_id`",
    )
    permission_mode: str | None = None
    tool_use_id: str | None = None
    transcript_path: str | None = Field(default=None, description="the session's transcript, where the runtime keeps one")

    @property
    def dispatcher_key(self) -> str | None:
        """Who makes this call, as the sub-agents it dispatches name their parent (`parent_id`)."""
        return self.caller_id or self.agent_id or self.session_id

    @property
    def dispatch_prompt(self) -> str | None:
        """A dispatch's instructions for its sub-agent: `subagent_prompt`, else the input's `prompt` string."""
        if self.subagent_prompt is not None:
            return self.subagent_prompt
        value = self.input.get("prompt")
        return value if isinstance(value, str) else None

    @property
    def path(self) -> str | None:
        """The path a file tool acts on, as written (None when absent or not a string)."""
        if self.path_field is None:
            return None
        value = self.input.get(self.path_field)
        return value if isinstance(value, str) else None

    @property
    def writes(self) -> list[FileWrite]:
        """Every path this call writes as a file tool does, as written — the one accessor for "where does it write".

        A file tool's path (`path_field`), or every path in `file_writes` (a patch; also a shell call whose
        runtime applies a patch the command carries). Empty when the call names no usable path (the files
        rule then refuses a file tool, WG000). Bash write operands and redirections are not here: they reach
        rules through the `worktree_guard_shell_*` hooks as the command is walked.
        """
        if self.file_writes is not None:
            return list(self.file_writes)
        if self.kind != "file_write":
            return []
        path = self.path
        return [FileWrite(path=path, input_field=self.path_field)] if path else []

    @property
    def shell_commands(self) -> list[Any]:
        """The command strings a shell-tool call runs, each from `shell_cwd` (or cwd); items may be non-strings
        when the payload is malformed (the Bash rule refuses those, WG000)."""
        if self.commands is not None:
            return list(self.commands)
        return [self.input.get("command")]


class Violation(Record):
    """One reason to object to a call. Codes are stable; a code never changes meaning (SPEC §6)."""

    model_config = ConfigDict(extra="forbid")

    code: str = Field(pattern=r"^WG\d{3}$", description="stable code, e.g. WG101")
    rule: str = Field(description="name of the plugin that raised it")
    tool: str = Field(description="tool name of the call")
    message: str = Field(description="one sentence for the agent")
    severity: Literal["error", "warning", "info"] = Field(
        default="error", description="errors block (by mode); warnings pass with a message; info is only recorded"
    )
    path: str | None = Field(default=None, description="the path as written in the call")
    resolved: str | None = Field(default=None, description="the canonical path")
    worktree_root: str | None = None
    shared_root: str | None = Field(default=None, description="the shared checkout the path lies in")
    suggestion: str | None = Field(default=None, description="corrected path or command, when derivable")
    span: tuple[int, int] | None = Field(default=None, description="Bash: character range in the command")
    fixed_input: dict[str, Any] | None = Field(
        default=None,
        exclude=True,
        description="rewrite mode: the complete corrected tool input (never serialised: it may hold file content)",
    )
    fix_in_enforce: bool = Field(
        default=False,
        exclude=True,
        description="the fix is how the call must run, so it is applied in enforce mode too (§5.3 adds isolation)",
    )


class Verdict(Record):
    """The engine's answer to one call."""

    model_config = ConfigDict(extra="forbid")

    decision: Decision
    violations: list[Violation] = Field(default_factory=list)
    updated_input: dict[str, Any] | None = None
    worktree_root: str | None = None
    isolated: bool = False

    @property
    def codes(self) -> list[str]:
        return [v.code for v in self.violations]


AgentEventName = Literal["SubagentStart", "SubagentStop"]


class AgentEvent(Record):
    """A sub-agent's start or stop, as the engine sees it, whatever runtime sent it (SPEC §5.4)."""

    model_config = ConfigDict(extra="forbid")

    runtime: str = Field(description="adapter that read the event, e.g. 'claude-code'")
    event: AgentEventName
    cwd: str = Field(description="the directory the runtime reports for the sub-agent")
    agent_id: str = Field(description="the sub-agent's id, the same in its start and stop")
    agent_type: str | None = None
    session_id: str | None = None
    parent_id: str | None = Field(default=None, description="the id of the agent that dispatched it, where the runtime says")
    stop_hook_active: bool = Field(default=False, description="SubagentStop: a stop hook already made it continue once")
    permission_mode: str | None = None
    transcript_path: str | None = Field(default=None, description="the session's transcript, where the runtime keeps one")


class EventVerdict(Record):
    """The answer to a sub-agent lifecycle event: let it stop, block its stop, or only tell someone."""

    model_config = ConfigDict(extra="forbid")

    decision: Literal["pass", "block", "warn"] = "pass"
    violations: list[Violation] = Field(default_factory=list)
    reason: str | None = Field(default=None, description="block: what the sub-agent must do before it stops")
    context: str | None = Field(default=None, description="SubagentStart: text added to the sub-agent's conversation")
    user_message: str | None = Field(default=None, description="a line shown to the user")

    @property
    def codes(self) -> list[str]:
        return [v.code for v in self.violations]
