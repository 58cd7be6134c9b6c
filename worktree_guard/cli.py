"""The `worktree-guard` command. Each subcommand imports its own modules only when chosen."""

from __future__ import annotations

import sys

from .flags import add_config_flags, config_flags

TYPE_CHECKING = False  # typing costs milliseconds at import, and the hook's path imports this module
if TYPE_CHECKING:
    import argparse
    from typing import Any


def cmd_hook(args: argparse.Namespace) -> int:
    """`hook` reached through the full parser (`main` routes a leading `hook` to `hook_process` first)."""
    from .hook import run_hook
    from .hook_process import read_stdin, write_reply

    return write_reply(run_hook(read_stdin(), flags=config_flags(args)))


def cmd_check(args: argparse.Namespace) -> int:
    import json
    import os

    from .engine import build_context, decide, reason_text
    from .plugins import plugin_manager
    from .runtimes.claude_code import TOOLS, to_tool_call

    tool = args.tool
    if tool not in TOOLS:
        print(f"worktree-guard check: unknown tool {tool!r} (known: {', '.join(TOOLS)})", file=sys.stderr)
        return 2
    kind, path_field = TOOLS[tool]
    tool_input: dict[str, Any] = {}
    if kind in ("shell", "powershell"):
        if args.command is None:
            print("worktree-guard check: --command is required for a shell tool", file=sys.stderr)
            return 2
        tool_input["command"] = args.command
    elif path_field is not None:
        if args.path is None and kind != "file_read":
            print(f"worktree-guard check: --path is required for {tool}", file=sys.stderr)
            return 2
        if args.path is not None:
            tool_input[path_field] = args.path
    cwd = os.path.abspath(args.cwd or os.getcwd())
    payload = {"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input, "cwd": cwd}
    if args.agent_type:
        payload["agent_type"] = args.agent_type
    try:
        pm = plugin_manager()
        call = to_tool_call(payload)
        ctx = build_context(call, flags=config_flags(args), pm=pm)
        verdict = decide(call, ctx)
    except Exception as e:  # noqa: BLE001 — people get the cause in one line, never a traceback
        print(f"worktree-guard check: {e}", file=sys.stderr)
        return 2
    if args.json:
        out = {
            "decision": verdict.decision,
            "worktree_root": ctx.layout.worktree_root,
            "shared_roots": ctx.layout.shared_roots,
            "isolated": ctx.isolation.isolated,
            "isolation_reason": ctx.isolation.reason,
            "violations": [v.model_dump(mode="json") for v in verdict.violations],
            "updated_input": verdict.updated_input,
        }
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        target = args.command if kind in ("shell", "powershell") else tool_input.get(path_field or "", cwd)
        print(f"{verdict.decision}: {tool} {target}")
        print(f"  worktree root: {ctx.layout.worktree_root or '-'} ({ctx.layout.source})")
        for shared in ctx.layout.shared_roots:
            print(f"  shared root:   {shared}")
        print(f"  isolated:      {'yes' if ctx.isolation.isolated else 'no'} ({ctx.isolation.reason})")
        for v in verdict.violations:
            print(f"  {v.code} [{v.rule}] {v.message}")
            if v.suggestion:
                print(f"      suggestion: {v.suggestion}")
        if verdict.decision != "pass":
            print(f"  reason sent to the agent: {reason_text(verdict)}")
    return 0 if verdict.decision == "pass" else 1


def cmd_explain(args: argparse.Namespace) -> int:
    import os

    from .explain import explain

    try:
        print(explain(args.shell_command, args.cwd or os.getcwd(), config_flags(args)))
    except Exception as e:  # noqa: BLE001 — a clear one-line cause, never a traceback
        print(f"worktree-guard explain: {e}", file=sys.stderr)
        return 2
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    import json

    from .schemas import schemas

    available = schemas()
    if args.which == "all":
        out: Any = available
    else:
        out = available[args.which]
    print(json.dumps(out, indent=2))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run_demo

    return run_demo(args.fixtures)


def cmd_doctor(args: argparse.Namespace) -> int:
    import json
    import os

    from .doctor import diagnose, render

    try:
        report = diagnose(os.path.abspath(args.cwd or os.getcwd()), args.agent_type, config_flags(args), run_self_test=not args.no_self_test)
    except Exception as e:  # noqa: BLE001 — people get the cause in one line, never a traceback
        print(f"worktree-guard doctor: {e}", file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2, ensure_ascii=False) if args.json else render(report))
    return 1 if report["problems"] else 0


def cmd_validate(args: argparse.Namespace) -> int:
    import os

    from .paths import canonical, home_dir
    from .validate.command import run
    from .validate.layouts import LayoutHints
    from .validate.replay import ReplayOptions

    if args.jobs < 1:
        print("worktree-guard validate: --jobs must be at least 1", file=sys.stderr)
        return 2
    home = os.path.abspath(args.home) if args.home else None
    where = os.getcwd()
    hints = LayoutHints(
        root=canonical(args.root, where, home or home_dir()) if args.root else None,
        shared=tuple(canonical(s, where, home or home_dir()) for s in args.shared or ()),
    )
    settings = tuple((k, v) for k, v in (("allow", args.allow), ("protect", args.protect), ("profile", args.profile)) if v)
    options = ReplayOptions(hints=hints, audit=args.mode == "audit", home=home, settings=settings)
    return run(args.paths, options, output_format=args.format, jobs=args.jobs, show_progress=args.progress)


def cmd_rollback(args: argparse.Namespace) -> int:
    import os

    from .layout import find_layout
    from .subagents.blame import rollback
    from .subagents.registry import Registry

    layout = find_layout(os.path.realpath(args.cwd or os.getcwd()))
    if not layout.common_dir:
        print("worktree-guard rollback: not inside a git checkout", file=sys.stderr)
        return 2
    try:
        lines, status = rollback(Registry(layout.common_dir), args.agent, args.apply)
    except Exception as e:  # noqa: BLE001 — a clear one-line cause, never a traceback
        print(f"worktree-guard rollback: {e}", file=sys.stderr)
        return 2
    print("\n".join(lines), file=sys.stderr if status == 2 else sys.stdout)
    return status


def build_parser() -> argparse.ArgumentParser:
    import argparse

    from . import __version__

    parser = argparse.ArgumentParser(prog="worktree-guard", description="Keep AI coding agents inside their own git worktree.")
    parser.add_argument("--version", action="version", version=f"worktree-guard {__version__}")
    sub = parser.add_subparsers(dest="command_name", metavar="COMMAND", required=True)

    from .hook_process import HOOK_HELP

    hook = sub.add_parser("hook", help=HOOK_HELP)
    add_config_flags(hook)
    hook.set_defaults(func=cmd_hook)

    check = sub.add_parser("check", help="judge one call given as flags, for people")
    check.add_argument("--tool", required=True, help="tool name, e.g. Write, Edit, Bash")
    check.add_argument("--path", help="the path a file tool writes")
    check.add_argument("--command", help="the command of a shell tool")
    check.add_argument("--cwd", help="the agent's working directory (default: here)")
    check.add_argument("--agent-type", dest="agent_type", help="the agent's type, to read its definition")
    check.add_argument("--json", action="store_true", help="machine-readable output")
    add_config_flags(check)
    check.set_defaults(func=cmd_check)

    explain = sub.add_parser("explain", help="show how a Bash command is parsed, where each step runs, and each decision")
    explain.add_argument("shell_command", metavar="COMMAND", help="the Bash command, as one argument")
    explain.add_argument("--cwd", help="the agent's working directory (default: here)")
    add_config_flags(explain)
    explain.set_defaults(func=cmd_explain)

    schema = sub.add_parser("schema", help="print the JSON schemas of the records and the configuration")
    schema.add_argument("which", nargs="?", default="all", choices=("all", "violation", "config", "payload", "audit"))
    schema.set_defaults(func=cmd_schema)

    doctor = sub.add_parser("doctor", help="show W, S, isolation, the configuration and its sources, the hook wiring, and test the installed hook")
    doctor.add_argument("--cwd", help="the agent's working directory (default: here)")
    doctor.add_argument("--agent-type", dest="agent_type", help="the agent's type, to read its definition")
    doctor.add_argument("--json", action="store_true", help="machine-readable output")
    doctor.add_argument("--no-self-test", dest="no_self_test", action="store_true", help="do not run the installed hook")
    add_config_flags(doctor)
    doctor.set_defaults(func=cmd_doctor)
    validate = sub.add_parser("validate", help="replay recorded sessions and logs offline and report every escape")
    validate.add_argument("paths", nargs="+", metavar="PATH", help="transcript, hook-input log or audit log files, or directories (searched recursively)")
    validate.add_argument("--mode", choices=("enforce", "audit"), default="enforce", help="enforce: judge isolated agents, as the hook does (default); audit: judge every agent")
    validate.add_argument("--format", choices=("text", "json", "sarif"), default="text", help="text (default), json (one finding a line) or sarif (SARIF 2.1.0)")
    validate.add_argument("--root", metavar="DIR", help="the worktree root W of every agent replayed (default: reconstructed)")
    validate.add_argument("--shared", action="append", metavar="DIR", help="a shared root added to every agent's S (repeatable)")
    validate.add_argument("--home", metavar="DIR", help="the recording user's home (default: from the transcript's place or the cwd)")
    validate.add_argument("--allow", action="append", metavar="PATTERN", help="an extra writable location (repeatable)")
    validate.add_argument("--protect", action="append", metavar="PATTERN", help="an extra protected pattern inside W (repeatable)")
    validate.add_argument("--profile", choices=("default", "strict"))
    validate.add_argument("--jobs", "-j", type=int, default=1, metavar="N", help="replay N sessions at a time in worker processes (default 1)")
    validate.add_argument("--progress", dest="progress", action="store_true", default=None, help="show a progress bar (default: when stderr is a terminal)")
    validate.add_argument("--no-progress", dest="progress", action="store_false", help="never show a progress bar")
    validate.set_defaults(func=cmd_validate)

    rollback = sub.add_parser("rollback", help="list (or with --apply restore) what a shared-workspace worker changed outside its ownership")
    rollback.add_argument("--agent", required=True, metavar="ID", help="the worker's agent id (as its hook payloads and the audit log name it)")
    rollback.add_argument("--apply", action="store_true", help="restore those files to their state at the worker's start")
    rollback.add_argument("--cwd", help="a directory of the checkout (default: here)")
    rollback.set_defaults(func=cmd_rollback)

    demo = sub.add_parser("demo", help="build a repository with worktrees in a temp dir and run the example calls through the hook")
    demo.add_argument("fixtures", nargs="?", default="fixtures/demo", help="directory of example calls (default: fixtures/demo)")
    demo.set_defaults(func=cmd_demo)

    # install / uninstall (SPEC §9): the module is imported only when one of them runs.
    def cmd_install(args: argparse.Namespace) -> int:
        from .install import run

        return run(args.command_name, args.scope, runtime=args.runtime)

    for action, text in (("install", "add the hook to a runtime's hook configuration"), ("uninstall", "remove the hook from a runtime's hook configuration")):
        installer = sub.add_parser(action, help=text)
        installer.add_argument(
            "--runtime", default="claude-code", metavar="RUNTIME",
            help="claude-code (default), codex, gemini, copilot, cline or cursor (docs/runtimes/)",
        )
        where = installer.add_mutually_exclusive_group()
        where.add_argument("--project", dest="scope", action="store_const", const="project", help="this checkout's shared configuration (the default, except for Claude Code)")
        where.add_argument("--local", dest="scope", action="store_const", const="local", help="Claude Code: .claude/settings.local.json of this checkout (its default)")
        where.add_argument("--user", dest="scope", action="store_const", const="user", help="the user's configuration: every project")
        installer.set_defaults(func=cmd_install, scope=None)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["hook"] and not {"-h", "--help"} & set(argv):
        # The hot path: the daemon's reply when one is running, else the same judgement in this process.
        from .hook_process import run_hook_command

        return run_hook_command(argv)
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
