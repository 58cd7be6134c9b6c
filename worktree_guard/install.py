"""`worktree-guard install` / `uninstall`: wire the hook into a runtime's hook configuration (SPEC §9).

Each runtime's files and entries come from its adapter (`HookConfig`, worktree_guard/hook_config.py): JSON
settings with matcher groups (Claude Code, Codex, Gemini CLI), JSON with a flat list per event (Copilot,
Cursor), or an executable hook file (Cline). For every one of them:

The entries are merged, never overwritten: every other key, event and handler of the file is kept, and a
handler that runs `worktree-guard hook` (in any spelling this module writes, or a hand-written
one by absolute path: `guard_program`) counts as the guard's own, so installing twice gives the same file as installing once. The command
written is the absolute path of the installed console script: Claude Code runs hooks with the sub-agent's
worktree as cwd and keeps `CLAUDE_PROJECT_DIR` at the launch directory, so a relative command or one built
on `$CLAUDE_PROJECT_DIR` would not be what runs there — and a command that is not found fails *open*.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shlex
import shutil
import sys
import sysconfig
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .hook_config import HookConfig, Scope
from .runtimes.claude_code import PRE_TOOL_USE_MATCHER, PRE_TOOL_USE_TIMEOUT, SUBAGENT_TIMEOUT, guard_groups  # noqa: F401 — re-exported

CLAUDE_CODE = "claude-code"

EVENTS = ("PreToolUse", "SubagentStart", "SubagentStop")
BACKUP_SUFFIX = ".worktree-guard.bak"
SCRIPT_NAMES = ("worktree-guard", "worktree-guard.exe")


class InstallError(Exception):
    """The settings file cannot be changed safely; the message says why and what to do. Nothing was written."""


@dataclass(slots=True)
class Outcome:
    """What install/uninstall did to one settings file."""

    path: Path
    changed: bool
    backup: Path | None = None
    removed: int = 0
    added: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def project_dir(cwd: str | os.PathLike[str] | None = None) -> Path:
    """The top of the checkout holding `cwd` (where Claude Code looks for `.claude/`), else `cwd` itself."""
    from .layout import find_layout

    here = os.path.realpath(cwd or os.getcwd())
    return Path(find_layout(here).worktree_root or here)


def main_checkout(cwd: str | os.PathLike[str] | None = None) -> Path | None:
    """The main checkout of the repository when `cwd` is in one of its linked worktrees; else None."""
    from .engine import main_worktree_in
    from .layout import find_layout

    layout = find_layout(os.path.realpath(cwd or os.getcwd()))
    main = main_worktree_in(layout)
    return Path(main) if main and main != layout.worktree_root else None


def config_paths(config: HookConfig, scope: Scope, cwd: str | os.PathLike[str] | None = None) -> list[Path]:
    """The files install writes for one scope: the checkout's own, and in a linked worktree, when the runtime
    reads the main checkout's project file there (Codex), that one first."""
    paths = [config.path(scope, project_dir(cwd), os.environ)]
    main = main_checkout(cwd) if scope != "user" and config.linked_worktree == "main_and_own" else None
    if main is not None:
        paths.insert(0, config.path(scope, main, os.environ))
    return list(dict.fromkeys(paths))


def settings_path(scope: Scope, cwd: str | os.PathLike[str] | None = None, environ: dict[str, str] | None = None) -> Path:
    """The Claude Code settings file of a scope: `.claude/settings.json`, `.claude/settings.local.json`, or the
    user's `settings.json` under `$CLAUDE_CONFIG_DIR` (default `~/.claude`)."""
    from .runtimes.claude_code import HOOK_CONFIG

    return HOOK_CONFIG.path(scope, project_dir(cwd), os.environ if environ is None else environ)


def hook_command(runtime: str = "claude-code") -> str:
    """The command line for the settings file: this environment's interpreter running `fast_hook.py`.

    `python -S -P …/worktree_guard/fast_hook.py` is `worktree-guard hook` without site-packages and pip's
    wrapper: the fastest form (docs/performance.md). The interpreter path keeps its symlinks (a venv's
    `bin/python` must stay the venv's). Without an installed package there is nothing a hook could run from
    every directory: refused.
    """
    fast_hook = Path(__file__).resolve().with_name("fast_hook.py")
    python = os.path.abspath(sys.executable) if sys.executable else ""
    if python and os.access(python, os.X_OK) and fast_hook.is_file() and _installed():
        flags = [] if runtime == CLAUDE_CODE else ["--runtime", runtime]
        return shlex.join([python, "-S", "-P", str(fast_hook), *flags])
    raise InstallError(
        f"no installed worktree-guard package beside {sys.executable or 'this interpreter'}; install the package "
        "(pip install / pipx install) and run `worktree-guard install` from there. Nothing was changed."
    )


def _installed() -> bool:
    """True when the package is installed in this environment (a console script stands beside it)."""
    scripts = sysconfig.get_path("scripts")
    return any(
        os.path.isfile(os.path.join(directory or "", name))
        for directory in (scripts, os.path.dirname(sys.executable))
        for name in SCRIPT_NAMES
    )


#: The interpreter flags a guard command may carry before `fast_hook.py` or `-m worktree_guard` (`install` writes
#: `-S -P`); `-W`/`-X` take a value. Nothing else: `-` and `-c` run another program, `-V`/`--version`/`-h` print and
#: exit, `-i` stays interactive — none of them is the guard. The interpreter's name is not checked: `sys.executable`
#: may be `python3.12d`, `python3-intel64` or `pypy3`, and install writes it as it is.
PYTHON_FLAGS = frozenset({"-S", "-P", "-I", "-E", "-s", "-B", "-u", "-O", "-OO"})
PYTHON_VALUE_FLAGS = frozenset({"-W", "-X"})
#: Shells whose `-c STRING` may hold the guard's command line (and nothing else).
HOOK_SHELLS = frozenset({"sh", "bash"})
#: Characters of shell syntax that run more than the one program, or send its answer elsewhere.
SHELL_OPERATORS = frozenset("();<>|&")
#: Characters that make a word more, or other, than its text: an expansion (`$X`, `${IFS}`, `$(…)`, backquotes)
#: or a pattern (`/x/*/worktree-guard` may name several files).
EXPANDING = frozenset("$`*?[")
#: `env`'s own options a guard command may carry: `-i`, `-u NAME`, `--`; not `-S` (splits its string into more
#: words), `-C` or any other.
ENV_SWITCHES = frozenset({"-i", "--ignore-environment", "-"})
ENV_VALUE_OPTIONS = frozenset({"-u", "--unset"})
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=.*", re.DOTALL)


def command_words(command: str) -> list[str] | None:
    """The words of a command line that runs one program and nothing else; None when it cannot be split, or when
    shell syntax makes it more (`… && curl x`, `;`, `|`, `&`, a redirection, `$…`, backquotes, a glob, a second
    line, a comment: `#` is one only at the start of a word, where shlex.shlex does not see it)."""
    if "\n" in command or "\r" in command:
        return None
    lexer = shlex.shlex(command, posix=True, punctuation_chars="".join(sorted(SHELL_OPERATORS)))
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        words = list(lexer)
    except ValueError:
        return None
    if any(set(word) <= SHELL_OPERATORS or EXPANDING & set(word) or word.startswith("#") for word in words):
        return None
    return words


def _program_words(words: list[str]) -> list[str] | None:
    """The words from the program on: leading `NAME=value` words and `env` with its own allowed options skipped;
    None when an option env has that the guard's command never needs (`-S`, `-C dir`) is there."""
    i = 0
    in_env = False
    while i < len(words):
        word = words[i]
        if _ASSIGNMENT.fullmatch(word):
            i += 1
        elif word == "env" or (word.startswith("/") and os.path.basename(word) == "env"):
            in_env, i = True, i + 1
        elif in_env and word == "--":
            in_env, i = False, i + 1
        elif in_env and word in ENV_SWITCHES:
            i += 1
        elif in_env and word in ENV_VALUE_OPTIONS:
            i += 2
        elif in_env and (word.startswith("--unset=") or (word.startswith("-u") and len(word) > 2)):
            i += 1
        elif in_env and word.startswith("-"):
            return None
        else:
            return words[i:]
    return None


def _hook_flags() -> dict[str, bool]:
    """The hook's own flags (`flags.add_config_flags`, which `hook` and `fast_hook.py` read): flag → takes a value."""
    import argparse

    from .flags import add_config_flags

    parser = argparse.ArgumentParser(add_help=False)
    add_config_flags(parser)
    return {option: action.nargs != 0 for action in parser._actions for option in action.option_strings}


def _only_hook_flags(words: list[str]) -> bool:
    """Nothing but the hook's own flags, each spelled in full (`--runtime codex`, `--mode=warn`, `--isolated`)."""
    flags = _hook_flags()
    i = 0
    while i < len(words):
        name, eq, _ = words[i].partition("=")
        if name not in flags or (eq and not flags[name]):
            return False
        i += 1 if eq or not flags[name] else 2
        if i > len(words):
            return False
    return True


def guard_program(command: str, args: list[Any] | None = None) -> str | None:
    """The absolute program a hook command starts when it runs `worktree-guard hook` and nothing else; else None.

    After `NAME=value` words and `env` (`-i`, `-u NAME`, `--`), the command is one of: (a) an absolute path named
    `worktree-guard` and `hook`; (b) an absolute interpreter, only the flags of PYTHON_FLAGS, and
    `-m worktree_guard hook` or an absolute `…/worktree_guard/fast_hook.py`; (c) `sh -c STRING` or `bash -c STRING`
    and nothing more, STRING one of these. (a) and (b) may end in the hook's own flags, as install writes
    `--runtime NAME`. A relative program or script is not the guard's: it is found from the directory the hook
    runs in, an agent's worktree. doctor counts what this recognises as the guard's coverage, and install
    replaces it, so a command that runs something else first or besides (`python3 -V …`, `… && curl x`) is not it.
    (`exec`-form `args` are the command's further words.)
    """
    words = command_words(command)
    if words is None:
        return None
    words = _program_words(words + [str(a) for a in args or []])
    if not words:
        return None
    program, rest = words[0], words[1:]
    name = os.path.basename(program)
    if name in HOOK_SHELLS and ("/" not in program or program.startswith("/")):
        return guard_program(rest[1]) if len(rest) == 2 and rest[0] == "-c" else None
    if not program.startswith("/"):
        return None
    if name in SCRIPT_NAMES:
        return program if rest[:1] == ["hook"] and _only_hook_flags(rest[1:]) else None
    while rest and (rest[0] in PYTHON_FLAGS or rest[0][:2] in PYTHON_VALUE_FLAGS):
        if rest[0] in PYTHON_VALUE_FLAGS and len(rest) < 2:
            return None
        rest = rest[2:] if rest[0] in PYTHON_VALUE_FLAGS else rest[1:]  # `-W ignore`; `-Xutf8` holds its value
    if rest and rest[0].startswith("/") and rest[0].endswith("/worktree_guard/fast_hook.py") and _only_hook_flags(rest[1:]):
        return program
    if rest[:3] == ["-m", "worktree_guard", "hook"] and _only_hook_flags(rest[3:]):
        return program
    return None


def is_guard_handler(handler: Any) -> bool:
    """Does this settings handler run `worktree-guard hook`, and nothing else (`guard_program`)?"""
    if not isinstance(handler, dict) or handler.get("type", "command") != "command":
        return False
    command = handler.get("command", handler.get("bash"))  # Copilot names the command `bash`
    if not isinstance(command, str):
        return False
    args = handler.get("args")
    return guard_program(command, args if isinstance(args, list) else None) is not None


def _hooks_block(settings: dict[str, Any], path: Path) -> dict[str, Any]:
    hooks = settings.get("hooks", {})
    if not isinstance(hooks, dict):
        raise InstallError(f"{path}: `hooks` is a {type(hooks).__name__}, not an object; fix it by hand, then run this again. Nothing was changed.")
    for event, groups in hooks.items():
        if not isinstance(groups, list):
            raise InstallError(f"{path}: `hooks.{event}` is a {type(groups).__name__}, not a list; fix it by hand, then run this again. Nothing was changed.")
    return hooks


def without_guard(settings: dict[str, Any], path: Path) -> tuple[dict[str, Any], int]:
    """A copy of `settings` with every guard handler removed, and how many were removed.

    A matcher group is dropped only when it held nothing but guard handlers; an event or the `hooks` key
    only when removing guard handlers left it empty. Everything else is kept as it was.
    """
    result = copy.deepcopy(settings)
    hooks = _hooks_block(result, path)
    removed = 0
    for event in list(hooks):
        kept_groups = []
        removed_here = 0
        for group in hooks[event]:
            if is_guard_handler(group):  # a flat list of handlers (Copilot, Cursor)
                removed_here += 1
                continue
            handlers = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(handlers, list):
                kept_groups.append(group)
                continue
            kept = [h for h in handlers if not is_guard_handler(h)]
            removed_here += len(handlers) - len(kept)
            if len(kept) == len(handlers):
                kept_groups.append(group)
            elif kept:
                kept_groups.append({**group, "hooks": kept})
        removed += removed_here
        if removed_here and not kept_groups:
            del hooks[event]
        else:
            hooks[event] = kept_groups
    if "hooks" in result and not hooks and removed:
        del result["hooks"]
    return result, removed


def with_guard(settings: dict[str, Any], path: Path, command: str, config: HookConfig | None = None, scope: Scope | None = None) -> tuple[dict[str, Any], int]:
    """`settings` with exactly one guard entry under each event (older guard handlers replaced); a new file
    also gets the keys the runtime wants at the top of one (`"version": 1`)."""
    result, removed = without_guard(settings, path)
    if not settings and config is not None and scope is not None:
        result.update(config.new_file.get(scope, {}))
    hooks = result.setdefault("hooks", {})
    entries = config.entries(command) if config else guard_groups(command)
    for event, entry in entries.items():
        hooks.setdefault(event, []).append(entry)
    return result, removed


def read_settings(path: Path) -> tuple[dict[str, Any], str | None]:
    """The settings object and the file's text (None when the file does not exist). Refuses non-objects."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}, None
    except (OSError, UnicodeDecodeError) as e:
        raise InstallError(f"{path}: cannot read it ({e}). Nothing was changed.") from e
    if not text.strip():
        return {}, text
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InstallError(
            f"{path} is not valid JSON (line {e.lineno}, column {e.colno}: {e.msg}); "
            "fix it by hand, then run this again. Nothing was changed."
        ) from None
    if not isinstance(data, dict):
        raise InstallError(f"{path} holds a JSON {type(data).__name__}, not an object; fix it by hand, then run this again. Nothing was changed.")
    return data, text


def write_settings(path: Path, settings: dict[str, Any], old_text: str | None) -> Path | None:
    """Write `settings` as JSON, atomically, with a backup of the old text (see `write_text`)."""
    return write_text(path, json.dumps(settings, indent=2, ensure_ascii=False) + "\n", old_text)


def write_text(path: Path, text: str, old_text: str | None, mode: int | None = None) -> Path | None:
    """Write `text` atomically (same directory, then rename), keeping the file's mode; back up the old text.

    `path` must already be the real file (see `_real`), so that a symlinked settings file stays a symlink.
    `mode` is the new file's mode (default: 0o666 less the umask).
    """
    backup = None
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if old_text is not None:
            backup = path.with_name(path.name + BACKUP_SUFFIX)
            shutil.copy2(path, backup)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        if old_text is not None and mode is None:
            shutil.copymode(path, tmp)
        else:
            os.chmod(tmp, (0o666 if mode is None else mode) & ~_umask())
        os.replace(tmp, path)
    except OSError as e:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        raise InstallError(f"{path}: cannot write it ({e.strerror or e}). The file is unchanged.") from e
    return backup


def _real(path: Path) -> Path:
    """The file a (possibly symlinked, e.g. dotfiles-managed) settings path points to."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _warnings(settings: dict[str, Any]) -> list[str]:
    notes = []
    if settings.get("disableAllHooks") is True:
        notes.append("this file sets `disableAllHooks: true`, so Claude Code runs no hook from it, the guard included")
    return notes


def install(path: Path, command: str | None = None, config: HookConfig | None = None, scope: Scope | None = None) -> Outcome:
    """Merge the guard's entries into the hook configuration at `path` (created when missing)."""
    path = _real(path)
    command = command or hook_command(config.runtime if config else CLAUDE_CODE)
    if config is not None and config.layout == "script":
        return install_script(path, config.entries(command)[SCRIPT_KEY])
    settings, old_text = read_settings(path)
    new, removed = with_guard(settings, path, command, config, scope)
    events = list(config.entries(command)) if config else list(EVENTS)
    outcome = Outcome(path=path, changed=False, removed=removed, added=events, warnings=_warnings(new))
    if old_text is not None and new == settings:
        return outcome
    outcome.backup = write_settings(path, new, old_text)
    outcome.changed = True
    return outcome


def uninstall(path: Path, config: HookConfig | None = None) -> Outcome:
    """Remove every guard handler from the hook configuration at `path`; other entries stay."""
    path = _real(path)
    if config is not None and config.layout == "script":
        return uninstall_script(path)
    settings, old_text = read_settings(path)
    new, removed = without_guard(settings, path)
    outcome = Outcome(path=path, changed=False, removed=removed)
    if old_text is None or not removed:
        return outcome
    outcome.backup = write_settings(path, new, old_text)
    outcome.changed = True
    return outcome


# --- a hook that is a file of its own (Cline) ------------------------------------------------------------

SCRIPT_KEY = "script"
SCRIPT_MARK = "# worktree-guard hook"


def is_guard_script(text: str | None) -> bool:
    return text is not None and any(line.startswith(SCRIPT_MARK) for line in text.splitlines()[1:2])


def _read_text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as e:
        raise InstallError(f"{path}: cannot read it ({e}). Nothing was changed.") from e


def _foreign_script(path: Path, text: str) -> InstallError:
    return InstallError(
        f"{path} is a hook of someone else's; Cline runs one file per event, so make it call "
        f"`{text.splitlines()[-1].removeprefix('exec ')}` itself (with the payload on stdin), or move it away. Nothing was changed."
    )


def install_script(path: Path, text: str) -> Outcome:
    """Write the guard's hook file; a hook file that is not the guard's is never replaced."""
    old = _read_text(path)
    outcome = Outcome(path=path, changed=False, added=[path.name])
    if old is not None and not is_guard_script(old):
        raise _foreign_script(path, text)
    if old == text:
        return outcome
    outcome.backup = write_text(path, text, old, mode=0o755)
    outcome.removed = 0 if old is None else 1
    outcome.changed = True
    return outcome


def uninstall_script(path: Path) -> Outcome:
    old = _read_text(path)
    outcome = Outcome(path=path, changed=False)
    if not is_guard_script(old):
        return outcome
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    try:
        shutil.copy2(path, backup)
        path.unlink()
    except OSError as e:
        raise InstallError(f"{path}: cannot remove it ({e.strerror or e}).") from e
    outcome.backup, outcome.removed, outcome.changed = backup, 1, True
    return outcome


def preflight(path: Path, config: HookConfig, action: Literal["install", "uninstall"], command: str) -> None:
    """Raise the InstallError that `install` or `uninstall` of this file would raise, writing nothing."""
    path = _real(path)
    if config.layout == "script":
        old = _read_text(path)
        if action == "install" and old is not None and not is_guard_script(old):
            raise _foreign_script(path, config.entries(command)[SCRIPT_KEY])
        return
    settings, _ = read_settings(path)
    without_guard(settings, path)


def hook_configs() -> dict[str, HookConfig]:
    """Every runtime's wiring, from the adapters (built-in and third-party), by runtime name."""
    from .plugins import plugin_manager

    configs = [c for c in plugin_manager().hook.worktree_guard_hook_config() if c is not None]
    return {c.runtime: c for c in reversed(configs)}  # registration order; a later plugin wins


def run(action: Literal["install", "uninstall"], scope: Scope | None, cwd: str | None = None, runtime: str = CLAUDE_CODE) -> int:
    """The command: act on one scope's file, report in a few lines; exit 1 (and no write) on a refused file."""
    configs = hook_configs()
    config = configs.get(runtime)
    if config is None:
        print(f"worktree-guard {action}: unknown runtime {runtime!r} (known: {', '.join(configs)})", file=sys.stderr)
        return 2
    scope = scope or config.default_scope
    if scope not in config.files:
        print(f"worktree-guard {action}: {runtime} has no {scope} hook configuration (it has: {', '.join('--' + s for s in config.files)})", file=sys.stderr)
        return 2
    paths = config_paths(config, scope, cwd)
    try:
        command = hook_command(runtime) if action == "install" else ""
        for path in paths:  # every file is checked before any is written: a refused one leaves all unchanged
            preflight(path, config, action, command)
        outcomes = [install(path, command, config, scope) if action == "install" else uninstall(path, config) for path in paths]
    except InstallError as e:
        print(f"worktree-guard {action}: {e}", file=sys.stderr)
        return 1
    if len(paths) > 1:
        print(f"{runtime} reads the main checkout's project hooks in a linked worktree, and only while the worktree has its own: both files get them")
    for outcome in outcomes:
        _report(action, outcome, command)
    if action == "install" and config.next_step:
        print(f"  next step: {config.next_step}")
    return 0


def _report(action: str, outcome: Outcome, command: str) -> None:
    path = outcome.path
    if action == "install":
        if outcome.changed:
            print(f"Installed worktree-guard hooks ({', '.join(outcome.added)}) in {path}")
            print(f"  command: {command}")
        else:
            print(f"worktree-guard hooks are already installed in {path}; nothing changed")
    elif outcome.changed:
        print(f"Removed {outcome.removed} worktree-guard hook handler(s) from {path}")
    else:
        print(f"No worktree-guard hook in {path}; nothing changed")
    if outcome.backup is not None:
        print(f"  backup of the previous file: {outcome.backup}")
    for note in outcome.warnings:
        print(f"  warning: {note}", file=sys.stderr)
