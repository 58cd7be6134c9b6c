"""The refusal printed when the guard itself cannot run (it cannot load, or cannot print its reply).

Standard library only, and nothing else of the package: it must work when the rest does not. Each runtime
reads a refusal in its own words (worktree_guard/runtimes/*); the hook command names its runtime with
`--runtime`, and without one the reply is Claude Code's (also read by Codex and Copilot's PascalCase form).
"""

import json


def runtime_of(argv: "list[str]") -> str:
    """The value of `--runtime R` / `--runtime=R` in the hook command's arguments, else ''."""
    for i, word in enumerate(argv):
        if word == "--runtime" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--runtime="):
            return word.partition("=")[2]
    return ""


def refusal(runtime: str, reason: str) -> str:
    """A tool call refused with `reason`, as `runtime` reads a refusal (one JSON line)."""
    claude = {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}
    if runtime == "gemini":
        out: dict = {"decision": "deny", "reason": reason}
    elif runtime == "copilot":
        out = {"permissionDecision": "deny", "permissionDecisionReason": reason, "hookSpecificOutput": claude}
    elif runtime == "cursor":
        out = {"permission": "deny", "user_message": reason, "agent_message": reason}
    elif runtime == "cline":
        out = {"cancel": True, "errorMessage": reason}
    else:
        out = {"hookSpecificOutput": claude}
    return json.dumps(out)
