"""The indirection rule (SPEC §5.2): commands that run other commands are looked inside.

Wrappers (`env`, `sudo`, `nohup`, `timeout`, `nice`, `time`, `command`, `builtin`, `exec`, `xargs`,
`find -exec`, …) hand their inner argv to the walker; string-executing commands (`bash -c`, `eval`,
`trap`, a heredoc fed to a shell) hand it shell code to parse. What cannot be looked inside — a computed
command name whose arguments matter, shell code that is not a literal — is WG404.
"""

from __future__ import annotations

import itertools
import os
import re
from typing import TYPE_CHECKING

from ..hookspecs import hookimpl
from ..shell.invocation import read_invocation
from ..shell.steps import inherited
from ..shell.words import has_code, has_unquoted_expansion
from ..model import Violation
from ..paths import real
from ..shell.powershell import is_powershell

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..engine import Context
    from ..shell.ast import Word
    from ..shell.steps import ShellCommand, ShellState, Unwrapped
    from ..shell.wrappers import Wrapper

RULE = "indirection"

SHELLS = frozenset({"bash", "rbash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "yash"})
# Programs that start a shell reading its commands from their input — which a runtime may write to later, in a
# call no hook sees (Codex's write_stdin) — unless given a command: program → (options that give a command or
# start no shell, options that take the next word, how many operands come before a command). `script`: util-
# linux `script [-q] [file]`, `-c CMD`; BSD/macOS `script [-q] [file [command …]]`, `-p` plays a file back.
STDIN_SHELL_STARTERS: dict[str, tuple[frozenset[str], frozenset[str], int]] = {
    "script": (
        frozenset({"-c", "--command", "-p", "-V", "--version", "-h", "--help"}),
        frozenset({"-E", "--echo", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-T", "--log-timing",
                   "-m", "--logging-format", "-o", "--output-limit", "-F"}),
        1,
    ),
    # review 33a: each with no command started a shell that read `echo … > <main>/x` from its input
    "unshare": (
        frozenset({"-h", "--help", "-V", "--version"}),
        frozenset({"-S", "--setuid", "-G", "--setgid", "--propagation", "--setgroups", "--map-user", "--map-group", "--map-users", "--map-groups", "--monotonic", "--boottime", "-w", "--wd", "-R", "--root"}),
        0,
    ),
    "nsenter": (
        frozenset({"-h", "--help", "-V", "--version"}),
        frozenset({"-t", "--target", "-S", "--setuid", "-G", "--setgid"}),
        0,
    ),
    # `su [-] [user [argument…]]`: the arguments are the shell's (a script file, or `-c CMD` after the user)
    **dict.fromkeys(("su", "runuser"), (
        frozenset({"-c", "--command", "-C", "--session-command", "-u", "--user", "-h", "--help", "-V", "--version"}),
        frozenset({"-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment"}),
        2,
    )),
    "sg": (frozenset({"-c", "-h", "--help"}), frozenset(), 1),
    "newgrp": (frozenset({"-h", "--help"}), frozenset(), 2),
}
#: sudo's options that run the target user's shell (`-s`, `-i`): with no command it reads its input
SUDO_SHELL_OPTIONS = frozenset({"-s", "--shell", "-i", "--login"})
SUDO_VALUE_OPTIONS = frozenset({"-u", "--user", "-g", "--group", "-C", "--close-from", "-D", "--chdir", "-h", "--host", "-p", "--prompt", "-r", "--role", "-t", "--type", "-U", "--other-user", "-T", "--command-timeout", "-R", "--chroot"})
#: Programs that run their command (or an interactive shell) with `$SHELL`, and when (`_runs_shell_variable`): the
#: shell reads BASH_ENV (bash -c), ENV (an interactive sh), ZDOTDIR or HOME's .zshenv (zsh), and SHELL names it.
SHELL_VARIABLE_RUNNERS = frozenset({"script", "tmux", "flock", "su", "runuser", "entr", "screen", "sudo"})
#: The startup file a non-interactive bash reads: any program may start one (a script's `#!/bin/bash`, a git hook).
STARTUP_VARIABLE = "BASH_ENV"
#: What the shell a `$SHELL` runner starts reads or runs, when the command sets it: the shell itself, bash's and sh's
#: startup files, zsh's (ZDOTDIR, HOME), an interactive shell's prompt commands, tmux's own config under HOME or
#: XDG_CONFIG_HOME (review 33b: `XDG_CONFIG_HOME=. tmux new -d`, `PROMPT_COMMAND=… tmux new -d` ran them).
SHELL_RUNNER_VARIABLES = ("SHELL", STARTUP_VARIABLE, "ENV", "ZDOTDIR", "HOME", "XDG_CONFIG_HOME", "PROMPT_COMMAND", "PS0", "PS1")
#: Windows programs WSL runs from bash that start commands worktree-guard cannot see, on the same files: `wsl.exe
#: [-e|--exec|--] CMD` and `bash.exe -c CMD` in a Linux distribution, `cmd.exe /c CMD` (`/k`, `/r`); with no
#: command they read one from their input. Program (compared in lower case) → the first words that only ask
#: (version, help, a list or status) and pass.
WINDOWS_LAUNCHERS: dict[str, frozenset[str]] = {
    **dict.fromkeys(("wsl", "wsl.exe"), frozenset({"--version", "-v", "-l", "--list", "--status", "--help"})),
    "bash.exe": frozenset({"--version", "--help"}),
    "cmd.exe": frozenset({"/?"}),
}
# Arguments that make a computed command name matter: git's mutating subcommands and location options.
SENSITIVE_ARGUMENTS = frozenset({
    "checkout", "switch", "reset", "restore", "clean", "stash", "merge", "rebase", "pull", "cherry-pick", "revert",
    "am", "apply", "commit", "add", "rm", "mv", "update-ref", "symbolic-ref", "branch", "worktree", "config", "push",
    "-C", "--git-dir", "--work-tree", "-c", "cd", "pushd", "popd",
})
#: Characters that make an argument of a computed command name shell code if that name is `eval`.
SHELL_SYNTAX = frozenset(" \t\n;&|<>()$`'\"\\*?[{~")
# (GNU xargs' --eof[=E], --max-lines[=N] and --replace[=R] take a value only after `=`: review 34d, `xargs --eof sh -c …`)
XARGS_WITH_VALUE = frozenset({"-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "-n", "--max-args", "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var"})


def _skip_options(
    values: list[str | None],
    start: int,
    with_value: frozenset[str],
    optional_value: frozenset[str] = frozenset(),
    order: list[tuple[str, str | None]] | None = None,
) -> tuple[int, dict[str, str | None]]:
    """Index of the first operand after GNU-style options, and the options seen (with their values).

    Short clusters are read letter by letter (`env -iC dir`, `sudo -Eu root`, `xargs -rI{}`): a letter
    that takes a value takes the rest of the cluster, or the next word. `optional_value` options take only
    an attached value (`xargs -i[R]`, `--replace[=R]`). An option only known at run time ends the options.
    `order`, when given, gets every option as it comes, repeated ones too (`xargs -IQ -L1`: the later -L
    drops the replace string).
    """
    seen: dict[str, str | None] = {}

    def see(name: str, value: str | None) -> None:
        seen[name] = value
        if order is not None:
            order.append((name, value))

    i = start
    while i < len(values):
        value = values[i]
        if value is None or not value.startswith("-") or value == "-":
            break
        if value == "--":
            return i + 1, seen
        i += 1
        if value.startswith("--"):
            name, eq, attached = value.partition("=")
            if name in with_value and not eq:
                see(name, values[i] if i < len(values) else None)
                i += 1
            else:
                see(name, attached if eq else None)
            continue
        for j in range(1, len(value)):
            name, rest = "-" + value[j], value[j + 1:]
            if name in with_value:
                if rest:
                    see(name, rest)
                else:
                    see(name, values[i] if i < len(values) else None)
                    i += 1
                break
            if name in optional_value:
                see(name, rest or None)
                break
            see(name, None)
    return i, seen


def _shell_code(command: ShellCommand) -> tuple[str, Word | None, str | None]:
    """For a shell: ("c", word, value) for `-c STRING`, ("file", …) for a script, ("stdin", None, None) otherwise;
    the value is None when it, or where it stands, is only known at run time (shell/invocation.py reads the line)."""
    invocation = read_invocation(command.name or "", command.values())
    if invocation.at is None or invocation.at >= len(command.words):
        return (invocation.reads, None, None)  # h-ind33: `zsh -H` named a word past the end (an IndexError, WG000)
    return (invocation.reads, command.words[invocation.at], command.values()[invocation.at] if invocation.known else None)


def _startup_file(command: ShellCommand, name: str) -> str | None:
    """A startup file a shell reads before its code, from a place the command chose (review 23b): `--rcfile F` or
    `--init-file F` (but /dev/null); or, with HOME changed by the command (or unknown), the files bash reads from it
    interactive (`-i`: ~/.bashrc, but `--norc`) or as a login shell (`-l`, `--login`: ~/.bash_profile, ~/.profile,
    but `--noprofile`), and zsh's ~/.zshenv and $ZDOTDIR/.zshenv, which every zsh reads (but `-f`). Unchanged, HOME
    is the user's, outside W: the agent cannot have written those (the leak check covers what was there before).
    An interactive ksh, mksh or yash reads ~/.kshrc, ~/.mkshrc, ~/.yashrc (yash: but `--norcfile`; `--rcfile=F`); a
    login yash its `--profile=F`."""
    invocation = read_invocation(name, command.values())
    for target in invocation.startup:
        if target != "/dev/null":
            return f"the startup file {target if target is not None else 'only known at run time'}"
    for value in invocation.long:
        if value.startswith(("--rcfile=", "--init-file=", "--profile=")) and value.partition("=")[2] != "/dev/null":
            return f"the startup file {value.partition('=')[2]}"  # yash's spelling (`--profile=F`: a login yash's)
    long = set(invocation.long)
    interactive = "i" in invocation.letters
    login = _login_by_exec(command) or "--login" in long or "l" in invocation.letters
    norc = bool(long & {"--norc", "--norcfile"})
    noprofile = "--noprofile" in long
    no_rcs = "--no-rcs" in long or (name == "zsh" and "f" in invocation.letters)
    if interactive:
        # PS0 is walked as the prompt it is (shell/evaluated.py); PROMPT_COMMAND runs as code, PS1 expands as a prompt
        present, value = command.env("PROMPT_COMMAND")
        if present and value != "":
            return "the code in $PROMPT_COMMAND (an interactive shell runs it before each prompt)"
        present, value = command.env("PS1")
        if present and (value is None or has_code(value)):
            return "the substitutions in $PS1 (an interactive shell expands it before each prompt)"
    home = command.env("HOME")[1]
    if home == command.home:
        return None if name != "zsh" or no_rcs or not command.env("ZDOTDIR")[0] else "$ZDOTDIR/.zshenv"
    if name == "zsh" and not no_rcs:
        return "~/.zshenv of the HOME this command sets"
    if interactive and not norc and name == "bash":
        return "~/.bashrc of the HOME this command sets"
    if interactive and not norc and name in ("ksh", "mksh", "yash"):
        # ksh93 and mksh read $ENV, by default ~/.kshrc and ~/.mkshrc; yash ~/.yashrc (but `--norcfile`)
        return f"the rc file (~/.{'kshrc' if name == 'ksh' else name + 'rc'}) of the HOME this command sets"
    if login and not noprofile:
        return "the login profile (~/.profile and kin) of the HOME this command sets"
    return None


def _login_by_exec(command: ShellCommand) -> bool:
    """Whether `exec` runs this shell as a login shell: `exec -l` puts a dash before its argv[0], and `exec -a NAME`
    gives it NAME, a login shell's when it starts with `-` (or is only known at run time). The exec's own words are
    those of the command it wraps (`HOME=$PWD exec -l bash -c …` read W's ~/.bash_profile: left by review 24b)."""
    if "exec" not in command.via:
        return False
    words = command.node.words
    values = [command.value(word) for word in words]
    if "exec" not in values:
        return True  # the exec came out of an expansion: its options are not known
    i = values.index("exec") + 1
    while i < len(values):
        value = values[i]
        if value is None:
            return True
        if value == "--" or not value.startswith("-") or value == "-":
            return False
        for j, letter in enumerate(value[1:], start=1):
            if letter == "l":
                return True
            if letter == "a":
                name = value[j + 1 :] or (values[i + 1] if i + 1 < len(values) else "")
                if name is None or name.startswith("-"):
                    return True
                if not value[j + 1 :]:
                    i += 1
                break
        i += 1
    return False


#: bash's tables of command names: BASH_ALIASES' elements are aliases, BASH_CMDS' the paths hashed names run
#: (`BASH_CMDS[ls]=/bin/rm; ls -f <main>/README.md` removed it; `shopt -s expand_aliases; BASH_ALIASES[ls]='rm …'` then
#: `ls` on a line of its own: review 29a). Builtins that may set them by name.
NAME_TABLES = ("BASH_ALIASES", "BASH_CMDS")
NAMING_BUILTINS = frozenset({"export", "declare", "typeset", "local", "readonly", "read", "mapfile", "readarray", "printf", "getopts"})


def _name_table_set(command: ShellCommand) -> str | None:
    """BASH_ALIASES or BASH_CMDS when the command assigns one (`BASH_CMDS[ls]=…`, `declare -A BASH_ALIASES=(…)`,
    `read 'BASH_CMDS[x]'`, `printf -v …`); None otherwise."""
    for assignment in command.assignments:
        if assignment.name.partition("[")[0] in NAME_TABLES:
            return assignment.name.partition("[")[0]
    name = command.words[0].value if command.words else None
    if name in NAMING_BUILTINS and (name != "printf" or any(w.raw.startswith("-v") for w in command.words[1:])):
        for word, value in zip(command.words[1:], command.values()[1:]):  # as written too: `declare -A BASH_ALIASES=(…)`
            for table in NAME_TABLES:  # has no static value; `BASH_\CMDS[ls]=…` is one as bash reads it (review 29c)
                if table in word.raw or (value is not None and table in value):
                    return table
    return None


def _read_otherwise(command: ShellCommand, name: str, code: tuple[str, Word | None, str | None]) -> str | None:
    """Why bash may read the code otherwise than its parse (reviews 29a, 29c): history expansion rewrites the lines of
    a script it reads from stdin (`!$`, `^a^b^`, `histchars`) once history and histexpand may be on: an interactive
    shell, `-H` or `-o` on its line, SHELLOPTS, or a `set` with `-H`/`-o`, `shopt -o` or `histchars` in the script
    (`echo <main>/x` then `rm -f !$` removed it); an interactive shell told about its comments (`set +o
    interactive-comments`, `shopt -u interactive_comments`) reads `#` as a word. Only bash: dash has neither; dash has
    no `$'…'` either. A script file bash runs is not read (the class of scripts written and run)."""
    import re

    fed = _stdin_script(command)
    if name in ("sh", "dash", "ash") and (_dollar_quote(code[2] or "") or _dollar_quote(fed[0] if fed is not None else "")):
        # dash has no `$'…'` or `$"…"`: `$` is a character and `'…'` a quote that a backslash does not escape, so its
        # words, and where its commands start, differ from bash's (review 40a F6, F7: `sh -c 'echo $'"'"'x\'"'"' ;
        # echo pwned > <main>/x …'` wrote main; 40b G2, G3)
        return "`$'…'` or `$\"…\"`, which dash (sh) reads otherwise than bash"
    if name not in ("bash", "rbash", "sh"):
        return None
    invocation = read_invocation(name, command.values())
    line = " ".join(word.raw for word in command.words)
    interactive = "i" in invocation.letters
    history_chars = "!" in (fed[0] if fed else "") or re.search(r"(^|\n)\s*\^", fed[0] if fed else "") or "histchars" in (fed[0] if fed else "") or command.env("histchars")[0]
    if code[0] == "stdin" and fed is not None and history_chars:
        on_line = "H" in invocation.letters or any(w.raw.lstrip("'\"")[:2] in ("-o", "+o") or (w.raw[:1] == "-" and "o" in w.raw[1:] and w.raw[:2] != "--") for w in command.words[1:])
        in_script = re.search(r"\bset\b[^\n;|&]*(-[A-Za-z]*H|[-+]o)|histchars|\bshopt\b[^\n;|&]*-[a-z]*o", fed[0])
        if interactive or on_line or in_script or command.env("SHELLOPTS")[0]:
            return "history expansion in the lines it reads, once history may be on"
    text = (code[2] or "") + (fed[0] if fed is not None else "")
    if interactive and "#" in text and re.search(r"interactive|[-+]o|shopt|set", line + text):
        return "`#` read as a word once interactive comments may be off"
    return None


#: A `$` before a quote, line continuations between: `$'…'`/`$"…"` to bash, a `$` and a quote to dash.
_DOLLAR_QUOTE = re.compile(r"\$(?:\\\n)*['\"]")


#: Builtins that read a string as code again (`eval`, `trap`'s action): the text they get is not the text written.
_REREAD = re.compile(r"(?<![\w$-])(eval|trap)(?![\w-])")


def _dollar_quote(code: str) -> bool:
    """Whether shell code holds a `$` before a quote anywhere (`$'`, `$"`, `$\\<newline>'`: review 40b G2). Where it
    is quoted text both shells read alike (`grep '\\.py$'`) it counts too: a scanner of quotes and comments that
    told those apart was fooled by `\\ #` and `${x:- #}` (review 40c H1). Code that reads a string again (`eval`,
    `trap`) holding a `$` or a backslash counts as well: the string it reads may be `$'…'` once its quotes are gone
    (review 40d I1: `eval python3 run.py \\$\\'…\\'`). The cost is a false deny, WG404."""
    if _DOLLAR_QUOTE.search(code) is not None:
        return True
    return _REREAD.search(code) is not None and ("$" in code or "\\" in code)


def _stdin_script(command: ShellCommand) -> tuple[str, int] | None:
    """Shell code fed on stdin by a heredoc or here-string of this command, when literal."""
    for redirect in command.node.redirects:
        if redirect.op in ("<<", "<<-") and redirect.heredoc is not None:
            return redirect.heredoc, redirect.span[1]
        if redirect.op == "<<<" and redirect.target is not None and command.value(redirect.target) is not None:
            return command.value(redirect.target), redirect.target.span[0]
    return None


def _offset(word: Word) -> int:
    """Where the string's text starts in the command, so nested spans point into the quotes."""
    return word.span[0] + (1 if word.raw[:1] in ("'", '"') else 0)


@hookimpl
def worktree_guard_wrappers() -> dict[str, Wrapper]:
    from ..shell.wrappers import BUILTIN_WRAPPERS

    return dict(BUILTIN_WRAPPERS)


@hookimpl
def worktree_guard_shell_unwrap(command: ShellCommand, ctx: Context) -> Unwrapped | None:
    from ..shell.steps import Script, Unwrapped

    name = command.name
    if name is None or not command.words:
        return None
    values = command.values()
    words = command.words
    if name in SHELLS:
        code = _shell_code(command)
        # the options its command line gives the code's shell (`bash -O nocaseglob -c …`: review 28b)
        invocation = read_invocation(name, values)
        options = invocation.options
        fed = _stdin_script(command)
        if code[0] == "c" and code[2] is not None and code[1] is not None:
            # dash's `-sc CODE` reads more code from stdin after CODE, in the same shell (review 29a): walked as one
            # script (the spans of the fed part point past the string)
            source = code[2] + ("\n" + fed[0] if invocation.then_stdin and fed is not None else "")
            return Unwrapped(scripts=[Script(source, _offset(code[1]), command.cwd, f"{name} -c", options=options)], own_words=len(words))
        if code[0] == "stdin" and fed is not None:
            return Unwrapped(scripts=[Script(fed[0], fed[1], command.cwd, f"{name} <<", options=options)])
        return None
    if name == "eval":
        rest = values[1:]
        if rest and all(v is not None for v in rest):
            return Unwrapped(scripts=[Script(" ".join(rest), words[1].span[0], command.cwd, "eval", same_shell=True)])  # type: ignore[arg-type]
        return None
    if name == "trap":
        first = _trap_action(values)
        if first is not None and values[first] is not None:
            return Unwrapped(scripts=[Script(values[first], _offset(words[first]), command.cwd, "trap", same_shell=True, takes_prefixes=False)])  # type: ignore[arg-type]
        return None
    if name in CALLBACK_BUILTINS:
        return _callbacks(command, values, CALLBACK_BUILTINS[name])
    if name == "env":
        return _env(command, values)
    if name == "xargs":
        return _xargs(command, values)
    if name == "find":
        return _find_exec(command, values, ctx)
    if name == "chroot":
        return _chroot(command, values, ctx)
    found = wrapper_for(command, ctx)
    if found is not None:
        key, wrapper = found
        return _wrapped(command, values, key, wrapper)
    return None


def wrapper_table(ctx: Context) -> dict[str, Wrapper]:
    """The wrapper table with every plugin's rows (`worktree_guard_wrappers`), built once per call."""
    from ..plugins import merged_table

    return merged_table(ctx, "worktree_guard_wrappers")


def wrapper_for(command: ShellCommand, ctx: Context) -> tuple[str, Wrapper] | None:
    """(key, entry) when the command is a known wrapper: by name, or by name and subcommand (`uv run`)."""
    table = wrapper_table(ctx)
    name = command.name
    if name is None:
        return None
    if name in table:
        return name, table[name]
    if len(command.words) > 1:
        key = f"{name} {command.value(command.words[1])}"
        if key in table:
            return key, table[key]
    return None


def _wrapped(command: ShellCommand, values: list[str | None], key: str, wrapper: Wrapper) -> Unwrapped | None:
    """What a table wrapper runs: its inner argv (in the directory it gives), or the shell code of its options."""
    from ..shell.steps import Inner, Script, Unwrapped

    words = command.words
    if key == "command" and any(v in ("-v", "-V") for v in values[1:2]):
        return None
    first = 1 + key.count(" ")
    if key == "sg" and values[first:first + 1] == ["-"]:
        first += 1  # `sg - GROUP -c CMD`: a login environment (review 33b)
    if wrapper.operand_first and first < len(values) and values[first] is not None and not values[first].startswith("-"):  # type: ignore[union-attr]
        first += 1
    start, seen = _wrapper_options(values, first, wrapper, command)
    if wrapper.no_command & set(seen) or any(option in wrapper.new_root for option in seen):
        return Unwrapped(own_words=len(words))  # acts on a process, or is refused (WG404) by this rule's command check
    cwd = _start_directory(command.cwd, seen, wrapper.chdir)
    moves = any(option in seen for option in wrapper.chdir)  # `sudo -D <main> make` goes there as `cd` would (review 35)
    if wrapper.cwd_unknown & set(seen) or (key in ("su", "runuser") and start < len(values) and values[start] == "-"):
        cwd = None
    start += wrapper.leading
    codes = [option for option in seen if option in wrapper.code]
    if not codes and wrapper.code and start < len(values) and values[start] in wrapper.code:
        # `flock FILE -c 'cmd'`: the code option follows the operand.
        codes = [values[start]]  # type: ignore[list-item]
        seen = dict(seen, **{values[start]: values[start + 1] if start + 1 < len(values) else None})  # type: ignore[dict-item]
        start += 2
    if codes:
        scripts = []
        for option in codes:
            index = _value_index(values, option)
            code = seen[option]
            if code is None:
                return Unwrapped(own_words=len(words))  # the rule's command check reports it (WG404)
            offset = _offset(words[index]) if index is not None else command.span[0]
            scripts.append(Script(code, offset, cwd, f"{key} {option}", moves=moves))
        # a permuting wrapper's operands may follow its code option (`script -q LOG -c CMD` writes LOG): all its own
        return Unwrapped(scripts=scripts, own_words=len(words) if wrapper.permutes else min(start, len(words)))
    if key == "runuser" and {"-u", "--user"} & set(seen):
        argv = _runuser_argv(values, first, wrapper.value_options | wrapper.chdir | wrapper.code)
        if not argv:
            return Unwrapped(own_words=len(words))  # the rule's command check refuses an argv only known at run time
        return Unwrapped(inner=[Inner([words[k] for k in argv], cwd, label=key, moves=moves)], own_words=len(words))
    if wrapper.code_only or start >= len(words):
        return Unwrapped(own_words=len(words))
    if wrapper.joined and not wrapper.argv_with & set(seen):
        rest = values[start:]
        if any(v is None for v in rest):
            return Unwrapped(own_words=len(words))
        return Unwrapped(scripts=[Script(" ".join(rest), _offset(words[start]), cwd, key, moves=moves)], own_words=start)  # type: ignore[arg-type]
    assignments = []
    if wrapper.assignments:
        from ..shell.ast import Assignment

        while start < len(words) and values[start] is not None and "=" in values[start] and not values[start].startswith("="):  # type: ignore[operator]
            name, _, _ = values[start].partition("=")  # type: ignore[union-attr]
            assignments.append(Assignment(name=name, value=_value_word(words[start], name), span=words[start].span))
            start += 1
        if start >= len(words):
            return Unwrapped(own_words=len(words))
    return Unwrapped(inner=[Inner(words[start:], cwd, assignments, label=key, same_shell=wrapper.same_shell, moves=moves)], own_words=start)


def _wrapper_options(values: list[str | None], first: int, wrapper: Wrapper, command: ShellCommand) -> tuple[int, dict[str, str | None]]:
    """`_skip_options` for a wrapper; for one whose options may follow its operands (`permutes`: util-linux su's
    getopt, `su root -c CMD` and `su - root -c CMD` passed unread at 878de58), the options after them too, up to
    `--`. A word only known at run time that the command built may be a code option there: `-c` with a value only
    known at run time; one the agent's environment gave (`su $USER -c make`) is an operand."""
    longs = WRAPPER_LONGS.get(command.name or "")
    if longs is not None:
        values = _spelled_out(values, longs)
    with_value = wrapper.value_options | wrapper.chdir | wrapper.code
    if not wrapper.permutes:
        return _skip_options(values, first, with_value, wrapper.optional_value)
    # su's words after `--` are the shell's own, never su's options (review 34b: `su root -f -- -s` read `-s` as su's)
    end = values.index("--", first) if "--" in values[first:] else len(values)
    head = values[:end]
    start, seen = _skip_options(head, first, with_value, wrapper.optional_value)
    seen = dict(seen)
    users = 0
    i = start
    while i < end:
        value = head[i]
        if value is None:
            if _plain_reference(command.words[i], command.state):
                users += 1
                i += 1
                continue  # `su $USER -c make`: the user; `su "--command=$X"` is an option with an unknown value
            seen.setdefault(sorted(wrapper.code)[0], None)
            break
        if value.startswith("-") and value != "-":
            after, more = _skip_options(head, i, with_value, wrapper.optional_value)
            seen.update(more)
            i = max(after, i + 1)
        else:
            users += value != "-"
            i += 1
    if command.name == "runuser" and {"-u", "--user"} & set(seen):
        return start, seen  # `runuser -u USER … CMD …`: its argv (`_runuser_argv`)
    if command.name in ("su", "runuser"):
        for option in wrapper.code & set(seen):
            if (seen[option] or "").startswith(("-", "+")):
                seen[option] = None  # `su root -c -x CODE`: the shell reads -x as its option and runs CODE (review 34b)
        rest = values[end + 1:]
        if rest and not users:
            rest = rest[1:]  # `su -- root -c CMD`: the user comes first
        if wrapper.code & set(seen):
            rest = []  # the shell runs su's own code; the words after it are its `$0`, `$1`… (review 34c)
        elif users > 1:
            rest = [None]  # `su root evil.sh -- -c true`: the shell runs evil.sh, a script (review 34c)
        if rest:
            # the shell's own words (`su root -- -c CMD` runs CMD). bash reads options after `-c`, and its code is the
            # first word that is none (`su root -- -c -x CMD`: review 34): only `-c CODE` is read
            code = rest[1] if rest[0] == "-c" and len(rest) > 1 and rest[1] is not None and not rest[1].startswith(("-", "+")) else None
            seen[sorted(wrapper.code)[0]] = code
    return start, seen


def _runuser_argv(values: list[str | None], first: int, with_value: frozenset[str]) -> list[int] | None:
    """The indices of the argv `runuser -u USER …` runs: its operands in order, its options taken out wherever they
    stand (getopt permutes them: `runuser -u root sh -- -c CMD` runs `sh -c CMD`, review 34c), then every word after
    the first `--`. None when a word only known at run time may be an option."""
    end = values.index("--", first) if "--" in values[first:] else len(values)
    head = values[:end]
    argv: list[int] = []
    i = first
    while i < end:
        value = head[i]
        if value is None:
            return None
        if value.startswith("-") and value != "-":
            after, _ = _skip_options(head, i, with_value)
            if any(v is None for v in head[i:after]):
                return None
            i = max(after, i + 1)
            continue
        argv.append(i)
        i += 1
    return argv + list(range(end + 1, len(values)))


def _value_index(values: list[str | None], option: str) -> int | None:
    """The index of the word that holds an option's value (`-c CODE` → CODE; `--command=CODE` → itself)."""
    for i, value in enumerate(values):
        if value == option:
            return i + 1 if i + 1 < len(values) else None
        if value is not None and (value.startswith(option + "=") or (len(option) == 2 and value.startswith(option) and len(value) > 2)):
            return i
    return None


def _chroot(command: ShellCommand, values: list[str | None], ctx: Context) -> Unwrapped | None:
    """`chroot NEWROOT cmd`: unwrapped only when NEWROOT is `/`; any other root is refused by the command check."""
    from ..shell.steps import Inner, Unwrapped

    start, seen = _skip_options(values, 1, frozenset({"--userspec", "--groups"}))
    if start >= len(values):
        return None
    root = values[start]
    if root is None or command.cwd is None and not root.startswith("/"):
        return Unwrapped(own_words=len(values))
    if ctx.policy.canonical(root, command.cwd or "/") != "/":
        return Unwrapped(own_words=len(values))
    cwd = command.cwd if "--skip-chdir" in seen else "/"
    return Unwrapped(inner=[Inner(command.words[start + 1:], cwd, label="chroot")], own_words=start + 1) if start + 1 < len(values) else None


def _start_directory(cwd: str | None, seen: dict[str, str | None], options: Iterable[str]) -> str | None:
    """Where a program given `options` (`env -C`, `sudo -D`) starts what it runs. It changes directory once, to the
    last value, from where it was started (review 35b: `env -C x/y/z --chdir=../../.. make` ran in the main
    checkout, not in W): `seen` holds each option's last value; two spellings given, which came last is not kept,
    so unknown."""
    given = [option for option in options if option in seen]
    if not given:
        return cwd
    return _chdir(cwd, seen[given[0]]) if len(given) == 1 else None


def _chdir(cwd: str | None, target: str | None) -> str | None:
    """The directory chdir(2) reaches: links followed before `..` (review 35b: `env -C lnsub/.. touch x`, with lnsub a
    link into the main checkout, wrote there; a text `..` took it back into W)."""
    if target is None:
        return None
    if not target.startswith("/") and cwd is None:
        return None
    return real(os.path.join(cwd or "/", target))


#: GNU env's long options (coreutils 9.1): getopt takes any unique prefix of one (`--ch=<dir>`, `--s=…`).
ENV_LONG_OPTIONS = (
    "--block-signal", "--chdir", "--debug", "--default-signal", "--help", "--ignore-environment", "--ignore-signal",
    "--list-signal-handling", "--null", "--split-string", "--unset", "--version",
)
ENV_VALUE_OPTIONS = frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"})


def _env_spelled_out(values: list[str | None]) -> list[str | None]:
    """env's words with each abbreviated long option before the command spelled out, as getopt reads it
    (`env --ch=<main> git rm x` ran git in <main> and passed: review 22). An ambiguous prefix is left as it is
    (env refuses it and runs nothing)."""
    out = list(values)
    i = 1
    while i < len(out):
        value = out[i]
        if value is None or not value.startswith("-") or value in ("-", "--"):
            break
        i += 1
        if value.startswith("--"):
            name, eq, attached = value.partition("=")
            matches = [option for option in ENV_LONG_OPTIONS if option.startswith(name)]
            if name not in ENV_LONG_OPTIONS and len(matches) == 1:
                name = matches[0]
                out[i - 1] = name + eq + attached
            if name in ENV_VALUE_OPTIONS and not eq:
                i += 1
        else:
            for j in range(1, len(value)):
                if value[j] in "uCS":  # takes the rest of the cluster, or the next word
                    i += 1 if j == len(value) - 1 else 0
                    break
    return out


def _env(command: ShellCommand, values: list[str | None]) -> Unwrapped | None:
    from ..shell.steps import Inner, Script, Unwrapped

    values = _env_spelled_out(values)
    words = command.words
    start, seen = _skip_options(values, 1, ENV_VALUE_OPTIONS)
    bare_dash = start < len(values) and values[start] == "-"
    if bare_dash:
        start += 1  # GNU env: a lone `-` after the options is `-i` (review 26a: `env - bash -c …` was read as a program "-")
    cwd = _start_directory(command.cwd, seen, ("-C", "--chdir"))
    moves = "-C" in seen or "--chdir" in seen  # `env -C <main> make` goes there as `cd` would (review 35)
    for split in ("-S", "--split-string"):
        if split in seen:
            # GNU env splits the string into words that stand where it stood, env's own options among them
            # (`env -S '-C<main> git' rm x` ran git in <main>: review 22, F3): read as `env WORDS REST`, the rest
            # as written (a word only known at run time stays unknown). A string only known at run time, or holding
            # anything env reads otherwise than the shell does, is this rule's WG404 (`_env_split_unread`).
            text = _env_split_string(values)
            if not isinstance(text, str) or _env_split_unread(text):
                return None
            if moves and re.search(r"(^|\s)(-[^-\s]*C|--c)", text.replace('"', "").replace("'", "")):  # `-vC..`, `--c=..`, `"-C"` (35c, 35d)
                cwd = None  # both name a directory: env takes the last from where it started (review 35b: `env -C d -S '-C ..'`)
            rest = " ".join(word.raw for word in words[start:])
            return Unwrapped(scripts=[Script(f"env {text} {rest}".strip(), command.span[0], cwd, "env -S", moves=moves)])
    from ..shell.ast import Assignment

    assignments = []
    while start < len(words) and values[start] is not None and "=" in values[start] and not values[start].startswith("="):  # type: ignore[operator]
        name, _, _ = values[start].partition("=")  # type: ignore[union-attr]
        assignments.append(Assignment(name=name, value=_value_word(words[start], name), span=words[start].span))
        start += 1
    if start >= len(words):
        return None
    clears, unsets = _env_removes(values[1:start])
    clears |= bare_dash
    label = "env -C" if cwd != command.cwd else "env"
    return Unwrapped(inner=[Inner(words[start:], cwd, assignments, label=label, unsets=unsets, clears=clears, moves=moves)], own_words=start)


_NO_SPLIT = object()
#: What an `env -S` string may hold to be read as the shell reads it: GNU env splits at spaces and honours '…' and
#: "…" as the shell does, but takes `;`, `|`, `&`, `<`, `>`, `(`, `)` as plain characters, `#` as the end of the
#: string (not of the command line), `\_`, `\t`… and `\c` as escapes, `${VAR}` from its environment (not the
#: shell's variables), other whitespace as separators, and expands no globs, braces or `~` (review 22b: `env -S
#: '-C<main> rm -f |' README.md` and `env -S 'git -C <main> #' rm -q README.md` ran rm/git in <main>).
_ENV_SPLIT_READ = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 _./=:,+@%^'\"-")


def _env_split_unread(text: str) -> bool:
    """Whether an `env -S` string holds a character env reads otherwise than the shell does (see _ENV_SPLIT_READ)."""
    return not set(text) <= _ENV_SPLIT_READ


def _env_split_string(values: list[str | None]) -> object:
    """The string `env -S` / `--split-string` is given (None: only known at run time, or given more than once: env
    splits each in place and reads its options again, review 22c), or _NO_SPLIT."""
    spelled = _env_spelled_out(values)
    start, seen = _skip_options(spelled, 1, ENV_VALUE_OPTIONS)
    found = [split for split in ("-S", "--split-string") if split in seen]
    if not found:
        return _NO_SPLIT
    given = sum(1 for value in spelled[1:start] if value is not None and (value.startswith("--split-string") or (value.startswith("-") and not value.startswith("--") and "S" in value)))
    return None if given > 1 else seen[found[0]]


def _env_removes(options: list[str | None]) -> tuple[bool, tuple[str, ...]]:
    """(`-i` given, the names `-u` takes out) among env's options and assignments: what the environment loses before
    env's own `NAME=value` words apply. A `-u` whose name is only known at run time takes out nothing known."""
    clears, unsets = False, []
    i = 0
    while i < len(options):
        value = options[i]
        i += 1
        if value is None or not value.startswith("-") or value == "--":
            continue
        if value.startswith("--"):
            name, eq, attached = value.partition("=")
            if name == "--ignore-environment":
                clears = True
            elif name == "--unset":
                unsets.append(attached if eq else (options[i] if i < len(options) else None))
                i += 0 if eq else 1
            elif name in ("--chdir", "--split-string") and not eq:
                i += 1
            continue
        for j in range(1, len(value)):
            letter, rest = value[j], value[j + 1:]
            if letter == "i":
                clears = True
            elif letter in "uCS":
                given = rest or (options[i] if i < len(options) else None)
                if not rest:
                    i += 1
                if letter == "u":
                    unsets.append(given)
                break
    return clears, tuple(name for name in unsets if name is not None)


def _value_word(word: Word, name: str) -> Word:
    """The `value` part of an `env NAME=value` word, as a word of its own."""
    from ..shell.ast import Word as WordNode

    value = word.value.partition("=")[2] if word.value is not None else None
    return WordNode(raw=word.raw[len(name) + 1:], span=(word.span[0] + len(name) + 1, word.span[1]), value=value)


def _dynamic(word: Word) -> Word:
    from ..shell.ast import Word as WordNode

    return WordNode(raw=word.raw, span=word.span, value=None, substitutions=word.substitutions)


#: GNU xargs' long options (findutils 4.9): getopt_long takes a unique prefix of one (review 30b: `xargs --rep sh -c
#: '{}'`, `xargs --max-a 1 bash -c …` were read as other words).
XARGS_LONG = (
    "--null", "--arg-file", "--delimiter", "--eof", "--replace", "--max-lines", "--max-args", "--max-chars",
    "--interactive", "--verbose", "--exit", "--show-limits", "--no-run-if-empty", "--open-tty", "--max-procs",
    "--process-slot-var", "--help", "--version",
)


def _xargs_values(values: list[str | None]) -> list[str | None]:
    """xargs' words with an abbreviated long option (before its command) written in full."""
    out = list(values)
    i = 1
    while i < len(values):
        value = values[i]
        if value is None or not value.startswith("-") or value == "--":
            break
        if value.startswith("--"):
            name, eq, rest = value.partition("=")
            matches = [o for o in XARGS_LONG if o.startswith(name)]
            if name not in XARGS_LONG and len(matches) == 1:
                out[i] = name = matches[0]
                out[i] += eq + rest
            i += 2 if not eq and name in XARGS_WITH_VALUE else 1
            continue
        step = 1  # a cluster's letters in turn: one that takes a value takes the rest, else the next word (`-n 1`);
        for k, letter in enumerate(value[1:], start=1):  # `-a-n` is -a's file `-n` (h-ind34a)
            if letter in "adEILnPs":
                step = 1 if value[k + 1:] else 2
                break
            if letter in "eil":  # an optional value, attached only
                break
        i += step
    return out


def _xargs(command: ShellCommand, values: list[str | None]) -> Unwrapped | None:
    """`xargs cmd args`: the inner argv gets the input appended (or put in place of -I's string): unknown words."""
    from ..shell.steps import Inner, Unwrapped

    values = _xargs_values(values)
    words = command.words
    order: list[tuple[str, str | None]] = []
    start, seen = _skip_options(values, 1, XARGS_WITH_VALUE, frozenset({"-i", "-e", "-l"}), order)  # `-ea`: -e's value `a` (review 34d)
    # the last replace option given wins: each one's string is read as the input (h-new34: `xargs -ia --rep sh -c {}`)
    replaces = [seen[k] or "{}" for k in ("-I", "-i", "--replace") if k in seen]
    if start >= len(words):
        return None  # xargs runs echo
    # a later -L/-l/--max-lines, or -n with more than 1, drops the replace string and appends the input (review 35:
    # `xargs -IQ -L1 touch` touched what the input named); a -n only known at run time may or may not: both readings
    dropped = _xargs_replace_dropped(order) if replaces else False
    appended = Inner([*words[start:], _input(words[-1], None)], command.cwd, label="xargs")
    if dropped is True:
        return Unwrapped(inner=[appended], own_words=start)
    inner = list(words[start:])
    if replaces:
        shell = inner[0].value in SHELLS if inner[0].value else False

        def filled(w: Word) -> Word:
            if w.value is None:
                return _dynamic(w)
            hit = next((r for r in replaces if r in w.value), None)
            # xargs puts the input into the words as text: in a shell's code it is code (review 30a: `xargs -I{} sh -c
            # {} < f` and `sh -c 'echo {}'` ran what f held), so that code is only known at run time (WG404)
            return w if hit is None else _input(w, None if shell or len(set(replaces)) > 1 else hit)

        inner = [filled(w) for w in inner]
    else:
        return Unwrapped(inner=[appended], own_words=start)
    return Unwrapped(inner=[Inner(inner, command.cwd, label="xargs"), *([appended] if dropped is None else [])], own_words=start)


def _xargs_replace_dropped(order: list[tuple[str, str | None]]) -> bool | None:
    """Does an option after the last replace option drop its string, as GNU xargs does (`-IQ -L1`: "options
    --replace and -L are mutually exclusive, ignoring previous --replace value")? None: a -n only known at run time
    may (`-n1` keeps it)."""
    dropped: bool | None = False
    for name, value in order:
        if name in ("-I", "-i", "--replace"):
            dropped = False
        elif name in ("-L", "-l", "--max-lines"):
            dropped = True
        elif name in ("-n", "--max-args") and dropped is False:
            number = re.fullmatch(r"\s*[+-]?\d+", value) if value is not None else None
            if number is None:
                dropped = None  # only known at run time, or no number (xargs refuses it): either way
            elif int(value) != 1:  # type: ignore[arg-type]
                dropped = True  # `-IQ -n1` (`-n +1`, `-n 01`: strtol's 1) keeps it; -n 2 drops it
    return dropped


#: How a word of xargs' input reads: built by the command (its input), so it may be any option of the program
#: (stop 30: `ls | xargs tar -cf a.tar` with a file named `--checkpoint-action=exec=sh<x.sh` ran x.sh).
XARGS_INPUT = '"$(xargs input)"'


def _input(word: Word, replace: str | None) -> Word:
    """A word xargs fills from its input: appended (`replace` None), or with -I's string replaced."""
    from ..shell.ast import Word as WordNode

    import shlex

    if replace is None or word.value is None:
        raw = XARGS_INPUT
    else:  # written anew from the value: the replace string may stand inside quotes (`'{}'`), where XARGS_INPUT is text
        raw = XARGS_INPUT.join(shlex.quote(piece) if piece else "" for piece in word.value.split(replace))
    return WordNode(raw=raw, span=word.span, value=None, substitutions=word.substitutions)


def _find_exec(command: ShellCommand, values: list[str | None], ctx: Context) -> Unwrapped | None:
    """`find … -exec cmd {} \\;`: each -exec/-execdir/-ok runs its argv with `{}` standing for a found path.

    Found paths lie under the starting points (find does not follow symlinks unless -L/-follow), so when
    every starting point is static and inside W, `{}` is judged as a path under each of them; otherwise it is
    unknown (a starting point outside W may hold a shared checkout anywhere below it).
    """
    from ..shell.steps import Inner, Unwrapped

    words = command.words
    from ..shell.programs import find_roots

    found_roots, i = find_roots(words, values)  # after -H/-L/-P/-O<n>/-D; -files0-from: unknown
    roots: list[str | None] = [value for _, value in found_roots]
    # -H/-L only before the starting points (anywhere else find refuses them: `-execdir grep -H` is grep's, review 38),
    # -follow anywhere
    follows = "-follow" in values or any(v in ("-L", "-H") for v in values[:i])
    known_roots = [r for r in (roots or ["."]) if r is not None] if not follows and None not in roots else []
    if command.cwd is None or not all(ctx.policy.judge(r, command.cwd).place == "inside" for r in known_roots):
        known_roots = []
    # A found path may be a symlink, and the command run on it may follow it (`-exec chmod 770 {} \;`): unless
    # a -type test leaves links out, the symlinks below the starting points that leave W are found paths too.
    links: list[str] = []
    # only the tests before the first action filter what it acts on (h-ind34a: `find . -exec chmod … \; -name y`)
    actions = [k for k, v in enumerate(values) if v in ("-exec", "-execdir", "-ok", "-okdir")]
    # each test with its argument, read in order (review 35: `-printf -name -true` is -printf's format, not a test);
    # None when a word is no test this reads
    tests = _find_tests(values[i:actions[0]] if actions else values[i:])
    # an operator anywhere (`-o`, `!`, `,`) may make an action run on what a test refuses (review 34d: `find .
    # ! -type d -exec …`, `find . -name x -exec true \; -o -exec chmod …`): no test then filters
    operators = tests is None or any(v in ("-o", "-or", "!", "-not", ",") or v is None for v in values)
    types = [] if operators else [argument for test, argument in tests if test == "-type"]
    if known_roots and not (types and all(t is not None and "l" not in t for t in types)):
        for root in known_roots:
            escaping = escaping_links(ctx.policy.canonical(root, command.cwd or "/"), ctx)
            if escaping is None:
                known_roots = []  # too much to look through: `{}` is unknown
                break
            links += escaping if operators or tests is None else _named(escaping, tests)
    # -execdir runs in each found path's directory: a starting point's own is its directory as written (`find
    # <W> -execdir` runs in W's parent: review 37b; `b/..` in b, `.` and `..` here), the others are below it
    in_w = bool(known_roots) and all(ctx.policy.judge(os.path.dirname(r.rstrip("/")) or ".", command.cwd or "/", directory=True).place == "inside" for r in known_roots)
    found = []
    while i < len(values):
        if values[i] in ("-exec", "-execdir", "-ok", "-okdir"):
            action = values[i]
            j = i + 1
            while j < len(values) and values[j] not in (";", "+"):
                j += 1
            argv = words[i + 1:j]
            cwd = None if action in ("-execdir", "-okdir") else command.cwd
            if argv and known_roots and cwd is not None:
                for root in known_roots + links:
                    found.append(Inner([_found_path(w, root, exact=root in links) for w in argv], cwd, label=f"find {action}"))
            elif argv:
                # so anywhere, unless every starting point and its directory are inside W (review 37: `find <main> -name
                # Makefile -execdir make \;` ran make in main): a move there, as `env -C "$D"` is
                # (review 37c: and from W's directories only with arguments that name no place of their own: `make -C
                # ../../..` there, or `{}` that may be a link leaving W, reaches main)
                here = in_w and all(_execdir_plain(w) for w in argv[1:]) and not (links and any("{}" in (w.value or "") for w in argv[1:]))
                if _data_reader(argv[0]):
                    here = True  # its words are data it reads, wherever it runs (review 38: `-execdir grep -n 'def main' {} +`)
                elif here and argv[1:]:
                    # a plain name is read in each found path's directory, where a symlink of that name may leave W
                    # (`-execdir make -C to-main \;` with a link to-main below the start point)
                    named = _link_names(known_roots, command.cwd, ctx)
                    here = named is not None and not (named & {n for w in argv[1:] for n in _plain_names(w)})
                found.append(Inner([_dynamic(w) if w.value is None or "{}" in w.value else w for w in argv], cwd, label=f"find {action}", moves=cwd is None and not here))
        # every action word starts an action, read from there: one may be a test's argument and the next the real
        # action (review 35b: `find . -printf -exec -exec sh -c CMD \;` printed `-exec` and ran CMD); reading more is safe
        i += 1
    return Unwrapped(inner=found) if found else None


def _execdir_plain(word: Word) -> bool:
    """An -execdir argument that names no place of its own: an option or a plain name, `{}` (the found path, in its
    own directory), or an absolute path (judged as it stands). A relative path with a `/`, `.` or `..` (also as an
    option's value: `-d..`, `--out=..`), a word only known at run time, or shell code (a blank, `$` or backquote: its
    words are walked with no directory, review 37e: `sh -c 'make -C "$D"'` with D=../../..) is read from a directory
    the guard cannot name (review 37c: `-execdir make -C ../../..`)."""
    value = word.value
    if value is None:
        return False
    if value.startswith("/"):
        return True
    if any(c in value for c in " \t\n$`"):
        return False
    attached = value[2:] if value[:1] == "-" and value[1:2] != "-" else ""
    # `..` attached after a cluster too (`-sC..`: review 38d)
    clustered = bool(attached) and re.search(r"[A-Za-z]\.\.", value[1:]) is not None
    return "/" not in value and value not in (".", "..") and not value.startswith("~") and not attached.startswith("..") and not clustered and not any(part.startswith("..") for part in value.split("=")[1:])


#: Programs whose every word is data they read, with no option that writes, runs a program or changes the system:
#: what -execdir may run from anywhere (review 38: `-execdir grep -n 'def main' {} +` was WG202). A short list
#: checked by hand, not the read-only table, which holds shells, awks, `zstdcat -o` and `mount` (review 38b: `find .
#: -execdir zstdcat -qfo ../../../README.md {} \;` and `-execdir mount --bind ../../.. {}` reached main); not `file`
#: either (`file -C` writes a compiled magic file where it runs: review 38c).
EXECDIR_DATA_READERS = frozenset({
    "grep", "egrep", "fgrep", "cat", "tac", "head", "tail", "wc", "nl", "od", "hexdump", "strings", "cut", "rev",
    "ls", "stat", "du", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum",
    "cksum", "cmp", "diff", "basename", "dirname", "realpath", "readlink", "echo", "printf", "test", "[", "true",
    "false", "pwd",
})


def _data_reader(word: Word) -> bool:
    """An -execdir program from EXECDIR_DATA_READERS, named bare or from a system directory (`/tmp/grep` may be a
    copy of anything)."""
    from ..shell.programs import TRUSTED_PROGRAM_DIRS

    value = word.value
    if value is None or ("/" in value and os.path.dirname(os.path.normpath(value)) not in TRUSTED_PROGRAM_DIRS):
        return False
    return os.path.basename(value) in EXECDIR_DATA_READERS


def _plain_names(word: Word) -> set[str]:
    """The names a plain -execdir argument may give a program: itself, what follows any `=` (`--define=DIR=to-main`:
    phase 24, m39b), or an attached short option's value (`-Cto-main`); every one of them could be a file in the
    directory it runs in."""
    value = word.value or ""
    names = {value, *(value.split("=", k)[-1] for k in range(1, value.count("=") + 1))}
    if value[:1] == "-" and value[1:2] != "-":
        names |= {value[k:] for k in range(2, len(value))}  # after a cluster of flags too (`-sCto-main`)
    return names - {""}


def _link_names(roots: list[str], cwd: str | None, ctx: Context) -> set[str] | None:
    """The names of the symlinks that lead out of W where -execdir runs, to an allowed place too (review 38b: `t ->
    /tmp`, then `make -C t -C … -C <main>`): below `roots`, and beside each (a starting point's own directory); None
    when that is not known (too many entries, or unreadable)."""
    names: set[str] = set()
    for root in roots:
        escaping = escaping_links(ctx.policy.canonical(root, cwd or "/"), ctx, inside_only=True)
        if escaping is None:
            return None
        names |= {os.path.basename(link) for link in escaping}
        try:  # its own directory as written, as in_w reads it (`src/..` runs in src)
            with os.scandir(ctx.policy.canonical(os.path.dirname(root.rstrip("/")) or ".", cwd or "/")) as entries:
                beside = [entry.path for entry in itertools.islice(entries, MAX_FIND_ENTRIES + 1)]
        except OSError:
            return None
        if len(beside) > MAX_FIND_ENTRIES:
            return None
        names |= {os.path.basename(path) for path in beside if os.path.islink(path) and ctx.policy.judge(path, "/").place != "inside"}
    return names


def _found_path(word: Word, root: str, exact: bool = False) -> Word:
    """`{}` in an -exec argument, as a path under the starting point `root` (or, `exact`, as `root` itself)."""
    from ..shell.ast import Word as WordNode

    if word.value is None or "{}" not in word.value:
        return word
    found = root if exact else root.rstrip("/") + "/{}"
    return WordNode(raw=word.raw, span=word.span, value=word.value.replace("{}", found), substitutions=word.substitutions)


def _named(links: list[str], tests: list[tuple[str, str | None]]) -> list[str]:
    """The links a find expression's `-name`/`-iname` tests (joined by and: no `-o`, `!`, `-not`) can match. A
    pattern that Python's fnmatch reads otherwise than find filters nothing: `\\` (no escapes), `[^` (a `^` to it, "not"
    to find: review 35), `[!`, `[]`, and a class anywhere in a bracket (`[[:alpha:]]`: review 34d; `[x[:alpha:]]`,
    `[[=e=]]`: review 35)."""
    import fnmatch

    for test, pattern in tests:
        if test in ("-name", "-iname") and pattern is not None and not any(p in pattern for p in ("\\", "[^", "[!", "[[", "[]", "[:", "[=", "[.")):
            fold = (lambda t: t.lower()) if test == "-iname" else (lambda t: t)
            # a name that is not ASCII stays: find's `?` may be a byte or a character (review 35b: `-name '??'` matched é)
            links = [link for link in links if not os.path.basename(link).isascii() or fnmatch.fnmatchcase(fold(os.path.basename(link)), fold(pattern))]
    return links


#: find's tests and options that take no argument, one, or two (GNU findutils 4.9); `(` and `)` group.
FIND_NO_ARGUMENT = frozenset({
    "(", ")", "-true", "-false", "-empty", "-readable", "-writable", "-executable", "-depth", "-d", "-mount", "-xdev",
    "-noleaf", "-nouser", "-nogroup", "-daystart", "-ignore_readdir_race", "-noignore_readdir_race", "-warn", "-nowarn",
    "-print", "-print0", "-ls", "-prune", "-quit", "-delete", "-a", "-and",
})
FIND_ONE_ARGUMENT = frozenset({
    "-name", "-iname", "-type", "-xtype", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-lname",
    "-ilname", "-maxdepth", "-mindepth", "-mtime", "-atime", "-ctime", "-mmin", "-amin", "-cmin", "-size", "-perm",
    "-user", "-group", "-uid", "-gid", "-links", "-inum", "-newer", "-anewer", "-cnewer", "-samefile", "-fstype", "-used",
    "-regextype", "-context", "-fprint", "-fprint0", "-fls", "-printf",
})


def _find_tests(expression: list[str | None]) -> list[tuple[str, str | None]] | None:
    """A find expression's words before its first action as (test, argument) pairs, or None when one is not in
    the tables above (a test this does not read may take arguments that look like tests)."""
    tests: list[tuple[str, str | None]] = []
    k = 0
    while k < len(expression):
        word = expression[k]
        if word in FIND_NO_ARGUMENT:
            tests.append((word, None))
            k += 1
        elif word in FIND_ONE_ARGUMENT or (word is not None and word.startswith("-newer") and len(word) == 8):
            if k + 1 >= len(expression):
                return None
            tests.append((word, expression[k + 1]))
            k += 2
        elif word == "-fprintf":
            if k + 2 >= len(expression):
                return None
            tests.append((word, expression[k + 2]))
            k += 3
        else:
            return None
    return tests


#: Most entries `find -exec` looks through for symlinks that leave W; past it, `{}` counts as unknown.
MAX_FIND_ENTRIES = 5000


def escaping_links(root: str, ctx: Context, inside_only: bool = False) -> list[str] | None:
    """Symlinks at or below `root` (not followed, as find does) whose target is outside W; None when that is not
    known: past the bound, or below a directory that cannot be read (it may hold one). A directory that does not
    exist (yet) holds none. Shared by `find -exec` here and the writes rule's extraction check (an archive's
    members follow them). `inside_only`: a link to an allowed place outside W counts too."""
    links: list[str] = []
    seen = 0
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            with os.scandir(directory) as entries:
                for entry in entries:
                    seen += 1
                    if seen > MAX_FIND_ENTRIES:
                        return None
                    if entry.is_symlink():
                        judgement = ctx.policy.judge(entry.path, "/")
                        if not judgement.ok or (inside_only and judgement.place != "inside"):
                            links.append(entry.path)
                    elif entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
        except (FileNotFoundError, NotADirectoryError):
            continue  # nothing there: no link below it
        except OSError:
            return None  # unreadable (permissions, I/O): what it holds is unknown
    return links


@hookimpl
def worktree_guard_shell_command(command: ShellCommand, ctx: Context) -> list[Violation] | None:
    base = dict(rule=RULE, tool=ctx.call.tool, worktree_root=ctx.worktree_root, span=command.span)
    table = "BASH_ALIASES" if "alias" in command.state.options and command.words else _name_table_set(command)
    if table is not None:
        what = "an alias" if table == "BASH_ALIASES" else "the program a command name runs, as `hash -p` does"
        return [Violation(code="WG404", message=f"Setting {table} inside a command defines {what}, which worktree-guard does not follow; run the command it stands for directly.", **base)]
    if not command.words:
        return None
    first_raw = command.words[0].raw
    if _NESTED_SUBSCRIPT.match(first_raw):  # (its `]=` may stand in a later word: `PS4[ 0]=…`, review 34d)
        # bash reads `BASH_CMDS[a[0]]=/bin/sh` as an assignment (its subscripts nest), the parser as a command name:
        # the table or variable it sets is not followed (h-ind34a: `'a[0]' -c …` then ran sh)
        return [Violation(code="WG404", message=f"`{first_raw[:40]}` is an assignment whose subscript holds brackets, which worktree-guard does not read; write the subscript without them.", **base)]
    name = command.name
    values = command.values()
    literal = command.words[0].value
    if literal == "alias" and any(v is None or "=" in v for v in values[1:]):
        return [Violation(code="WG404", message="An alias defined inside a command is not followed by worktree-guard; run the command it stands for directly.", **base)]
    if name is None:
        if values[0] is None and has_unquoted_expansion(command.words[0].raw) and not inherited(command.words[0], command.state):
            # An unquoted `$X` or `$(…)` whose value is not known is split into a command and arguments nobody has
            # seen, whatever words follow (review 24b: `X='rm -f <main>/x'; $X` ran; `$X a` too). A known value is
            # split by the walker (`field_split`), and its words are judged like any others. A value the agent's
            # environment gave (`$VIRTUAL_ENV/bin/python`, `${PYTHON:-python3}`) is judged as a computed name.
            return [Violation(code="WG404", message=f"The command word {command.words[0].raw} is computed at run time and bash splits it into a command and arguments nobody has seen, which could leave {ctx.worktree_root}; quote it if it is one word, or write the words out.", **base)]
        if _arguments_matter(command, ctx):
            return [Violation(code="WG404", message=f"The command name {command.words[0].raw!r} is computed at run time and its arguments could leave {ctx.worktree_root}; call the program by its literal name.", **base)]
        return None
    startup = _startup_for_any_program(command, name)
    if startup is not None:
        return [Violation(code="WG404", message=startup, **base)]
    if name in SHELLS:
        for variable in ("BASH_ENV", "ENV"):
            if not command.env(variable)[0]:
                continue
            if not command.names(variable):
                # only a step assigning names only known at run time may have set it (`export $(cat .env)`). Also for
                # sh, which reads neither for a script: the bash it starts would (review 32b: `sh -c "bash run.sh"`)
                return [Violation(code="WG404", message=f"`{name}` or a shell it starts would first run the file named by ${variable}, which a step before may have set (it assigned names only known at run time); run the commands directly.", **base)]
            return [Violation(code="WG404", message=f"`{name}` would first run the file named by ${variable}, which worktree-guard cannot see; leave {variable} out.", **base)]
        startup = _startup_file(command, name)
        if startup is not None:
            return [Violation(code="WG404", message=f"`{name}` would first run {startup}, which worktree-guard cannot see; start it without that file.", **base)]
        code = _shell_code(command)
        if code[0] == "c" and code[2] is None:
            return [Violation(code="WG404", message=f"`{name} -c` runs shell code only known at run time; pass it a literal string.", **base)]
        then_stdin = read_invocation(name, values).then_stdin
        if (code[0] == "stdin" or then_stdin) and _stdin_script(command) is None:
            return [Violation(code="WG404", message=f"`{name}` runs shell code from its input, which worktree-guard cannot see; run the commands directly.", **base)]
        if then_stdin:
            # dash parses the string alone, then its input, in one shell: walked joined, the string's end could take
            # the input's first lines (review 29b: a trailing `\`; review 29c: `$'\'`, which bash reads as a quote)
            return [Violation(code="WG404", message=f"`{name} -sc` runs the string and then its input in one shell, which worktree-guard cannot walk as dash reads them; run the commands directly.", **base)]
        if code[0] == "file" and (code[2] is None or _unseen_file(code[2], command.cwd)):
            shown = code[1].raw if code[1] is not None else "?"
            return [Violation(code="WG404", message=f"`{name}` runs a script worktree-guard cannot see ({shown}); run the commands directly.", **base)]
        reread = _read_otherwise(command, name, code)
        if reread is not None:
            return [Violation(code="WG404", message=f"`{name}` would read its code otherwise than worktree-guard parses it ({reread}); run the commands directly.", **base)]
    if is_powershell(name):
        message = _powershell(command)
        if message is not None:
            return [Violation(code="WG404", message=message, **base)]
    if name.lower() in WINDOWS_LAUNCHERS and (len(values) < 2 or values[1] not in WINDOWS_LAUNCHERS[name.lower()]):
        return [Violation(code="WG404", message=f"`{name}` runs a command in a shell or Linux distribution of its own (or reads one from its input), which worktree-guard cannot see; run the commands directly.", **base)]
    # a word the agent's environment gave is an operand (`su $USER`: review 33c), never an option
    # (quoted, one word; unquoted, it may also vanish, so it is left out: `script $OPTS /dev/null` reads its input)
    # (one variable and nothing else: a default or an alternative is the command's own, `${NOPE:--c…}`: review 34)
    operands_known = [
        v if v is not None or not _plain_reference(w, command.state) else "\0inherited"
        for w, v in zip(command.words, values)
        if not (v is None and has_unquoted_expansion(w.raw) and _plain_reference(w, command.state))
    ]
    if name in STDIN_SHELL_STARTERS and _starts_a_shell_reading_input(operands_known, *STDIN_SHELL_STARTERS[name]) or name == "sudo" and _sudo_shell_reads_input(values):
        return [Violation(code="WG404", message=f"`{name}` starts a shell that reads its commands from its input, which worktree-guard cannot see (a later write to that input reaches no hook); run the commands directly.", **base)]
    if name == "env" and (split := _env_split_string(values)) is not _NO_SPLIT and (split is None or _env_split_unread(split)):  # type: ignore[arg-type]
        shown = "a string only known at run time (or more than one string, each split where it stands)" if split is None else "characters env reads otherwise than the shell does (escapes, ${VAR}, # or an operator)"
        return [Violation(code="WG404", message=f"`env -S` splits {shown} into the command line it runs, which worktree-guard does not follow; write the words out.", **base)]
    if name == "eval" and any(v is None for v in values[1:]):
        return [Violation(code="WG404", message="`eval` runs code only known at run time; run the command directly.", **base)]
    if name == "trap" and (first := _trap_action(values)) is not None and values[first] is None:
        return [Violation(code="WG404", message="`trap` installs code only known at run time.", **base)]
    if name in CALLBACK_BUILTINS and any(code is None for code, _, _ in _callback_code(values, CALLBACK_BUILTINS[name])):
        return [Violation(code="WG404", message=f"`{name}` runs code only known at run time; run the commands directly.", **base)]
    if name in ("source", ".") and len(values) > 1:
        target = values[1]
        if target is None or _unseen_file(target, command.cwd):
            return [Violation(code="WG404", message=f"`{name}` runs shell code worktree-guard cannot see ({command.words[1].raw}); run the commands directly.", **base)]
    if name == "alias" and any(v is None or "=" in v for v in values[1:]):
        return [Violation(code="WG404", message="An alias defined inside a command is not followed by worktree-guard; run the command it stands for directly.", **base)]
    if name == "chroot" and command.unwrapped is not None and not command.unwrapped.inner and len(values) > 1:
        return [Violation(code="WG404", message="`chroot` runs the command under another root directory, where worktree-guard cannot tell what its paths name; run it without chroot.", **base)]
    found = wrapper_for(command, ctx)
    if found is not None:
        key, wrapper = found
        first = 1 + key.count(" ") + (1 if wrapper.operand_first and len(values) > 1 + key.count(" ") else 0) + (1 if key == "sg" and values[1:2] == ["-"] else 0)
        if wrapper.permutes and command.named_env("POSIXLY_CORRECT")[0]:
            # its getopt then stops at the first operand: what follows is the shell's (review 34b)
            return [Violation(code="WG404", message=f"`{key}` reads its options otherwise with POSIXLY_CORRECT set (they end at its first operand); leave POSIXLY_CORRECT out.", **base)]
        start, seen = _wrapper_options(values, first, wrapper, command)
        rooted = sorted(option for option in seen if option in wrapper.new_root)
        if rooted:
            return [Violation(code="WG404", message=f"`{key} {rooted[0]}` runs the command under another root or mount namespace, where worktree-guard cannot tell what its paths name.", **base)]
        codes = [option for option in seen if option in wrapper.code]
        if not codes and wrapper.code and start + wrapper.leading < len(values) and values[start + wrapper.leading] in wrapper.code:
            codes = [values[start + wrapper.leading]]  # type: ignore[list-item]
            seen = {codes[0]: values[start + wrapper.leading + 1] if start + wrapper.leading + 1 < len(values) else None}
        if any(seen.get(option) is None for option in codes):
            return [Violation(code="WG404", message=f"`{key}` runs shell code only known at run time; pass it a literal string.", **base)]
        if key == "runuser" and {"-u", "--user"} & set(seen) and not codes and _runuser_argv(values, first, wrapper.value_options | wrapper.chdir | wrapper.code) is None:
            return [Violation(code="WG404", message="`runuser -u` is given a word only known at run time, which may be one of its options (getopt permutes them); write its words out.", **base)]
        for shell_given in ("-s", "--shell") if key in ("su", "runuser") else ():
            from ..shell.programs import TRUSTED_PROGRAM_DIRS

            if shell_given not in seen:
                continue
            chosen = seen[shell_given]  # each of -s and --shell, whichever came last (review 34d)
            if chosen is None or os.path.dirname(chosen) not in TRUSTED_PROGRAM_DIRS or os.path.basename(chosen) not in SHELLS:
                # the code is the chosen program's, not a shell's the guard reads (review 34c: `su -s /usr/bin/python3 root -c …`)
                return [Violation(code="WG404", message=f"`{key} {shell_given}` runs its code with {chosen or 'a program only known at run time'}, not a shell of the system's; leave {shell_given} out.", **base)]
        if wrapper.joined and not wrapper.argv_with & set(seen) and any(v is None for v in values[start + wrapper.leading:]):
            return [Violation(code="WG404", message=f"`{key}` runs a command line only known at run time through a shell.", **base)]
        if (shown := _option_like_at(command, start)) is not None:
            return [Violation(code="WG404", message=f"`{key}` is given {shown}, only known at run time, which may be one of its own options (a directory to run in, a file to write, code); write its options out.", **base)]
    if name == "env" and (shown := _option_like_at(command, _skip_options(values, 1, ENV_VALUE_OPTIONS)[0])) is not None:
        return [Violation(code="WG404", message=f"`env` is given {shown}, only known at run time, which may be one of its options (`--chdir=…`, `-S …`); write its options out.", **base)]
    return None


def _startup_for_any_program(command: ShellCommand, name: str) -> str | None:
    """Why a program that is no shell (those are judged below) would run a startup file or a shell the command chose
    (stop 33; reviews 32a and 32c: `BASH_ENV=./evil.sh ./run.sh` and `SHELL=./evil.sh script -qc ls` ran ./evil.sh).

    Any program may start a bash (a script's `#!/bin/bash`, a git hook, `make`'s recipes calling bash), and that bash
    first runs the file $BASH_ENV names: refused when the command sets it to anything but "" or /dev/null (the corpora
    hold no command that does). A program that runs its command with `$SHELL` (`_runs_shell_variable`) is refused as
    a shell is: the command sets SHELL (but to a shell of the system's), BASH_ENV, ENV, ZDOTDIR or HOME (but the
    agent's own: zsh reads .zshenv there, tmux its .tmux.conf), or a step before assigned names only known at run
    time."""
    from ..shell.programs import TRUSTED_PROGRAM_DIRS
    from ..shell.steps import BASH_BUILTINS

    exported = next((a.name for a in command.assignments if a.name.startswith("BASH_FUNC_")), None)
    if exported is not None and name not in BASH_BUILTINS:
        # review 33a: `env 'BASH_FUNC_ls%%=() { … }' bash -c ls` ran the body, which `export -f` would have shown
        return f"`{name}` gets {exported}, a function a bash it starts runs in place of a command, which worktree-guard does not read; define the function in the command instead."
    # a builtin or function runs in this shell; a wrapper runs a program of that name (`sudo -s BASH_ENV=… true` runs
    # it with `$SHELL -c`, which reads BASH_ENV: review 34)
    in_this_shell = not command.via or command.via[-1] in ("command", "builtin")
    if name in SHELLS or in_this_shell and (name in command.state.functions or name in BASH_BUILTINS and not command.state.is_disabled(name)):
        return None
    runs_shell = name in SHELL_VARIABLE_RUNNERS and _runs_shell_variable(name, command.values())
    if runs_shell and command.state.names_unknown:
        return f"`{name}` runs its command with $SHELL, and that shell first runs the file $BASH_ENV, $ENV or $ZDOTDIR names; a step before assigned names only known at run time, so any of them may be set; run the commands directly."
    if name == "tmux" and (given := _tmux_environment(command.values())) is not None:
        return f"`tmux {given}` makes the shells or commands it starts run code worktree-guard cannot see (a startup file, a prompt command, a function, a default command or shell, a hook); leave it out."
    for variable in SHELL_RUNNER_VARIABLES if runs_shell else (STARTUP_VARIABLE,):
        present, value = command.named_env(variable)
        if not present or value in ("", "/dev/null") and variable in (STARTUP_VARIABLE, "ENV"):
            continue
        if variable == "SHELL":
            if value is not None and os.path.dirname(value) in TRUSTED_PROGRAM_DIRS and os.path.basename(value) in SHELLS:
                continue  # `SHELL=/bin/bash script -qc …`: a shell of the system's
            return f"`{name}` runs its command with $SHELL, which this command sets ({value or 'only known at run time'}); leave SHELL out."
        if variable == "HOME" and value == command.home:
            continue  # the agent's own HOME is its environment
        if runs_shell:
            return f"`{name}` runs its command with $SHELL, and that shell (or `{name}` itself) first reads a file ${variable} names, which worktree-guard cannot see; leave {variable} out."
        return f"`{name}` may start a bash (a script, a hook, a recipe), which first runs the file named by $BASH_ENV, which worktree-guard cannot see; leave BASH_ENV out."
    return None


#: Each `$SHELL` runner's long options (getopt_long reads a unique prefix as the option: `sudo --sh`) and which of
#: them take a value; the short ones that take one; the letters that make it run `$SHELL` (review 33b).
_RUNNER_OPTIONS: dict[str, tuple[tuple[str, ...], frozenset[str], str, str]] = {
    "script": (
        ("--append", "--command", "--echo", "--return", "--flush", "--force", "--log-in", "--log-out", "--log-io", "--log-timing",
         "--logging-format", "--output-limit", "--quiet", "--timing", "--version", "--help"),
        frozenset({"--command", "--echo", "--log-in", "--log-out", "--log-io", "--log-timing", "--logging-format", "--output-limit"}),
        "cEIOBTmo", "c",
    ),
    "flock": (
        ("--shared", "--exclusive", "--nonblock", "--nb", "--timeout", "--wait", "--conflict-exit-code", "--close", "--no-fork",
         "--unlock", "--fcntl", "--verbose", "--help", "--version"),
        frozenset({"--timeout", "--wait", "--conflict-exit-code"}),
        "wE", "",
    ),
    "sudo": (
        ("--askpass", "--background", "--bell", "--close-from", "--chdir", "--preserve-env", "--edit", "--group", "--set-home",
         "--help", "--host", "--login", "--remove-timestamp", "--reset-timestamp", "--list", "--non-interactive",
         "--preserve-groups", "--prompt", "--chroot", "--role", "--stdin", "--shell", "--type", "--command-timeout",
         "--other-user", "--user", "--version", "--validate"),
        frozenset({"--close-from", "--chdir", "--group", "--host", "--prompt", "--chroot", "--role", "--type", "--command-timeout", "--other-user", "--user"}),
        "CDghprRtTuU", "si",
    ),
    "entr": ((), frozenset(), "", "s"),
}
_RUNNER_SHELL_LONGS = frozenset({"--command", "--shell", "--login"})
#: A word bash may read as an array element's assignment: a name, then `[` (`_NESTED_SUBSCRIPT` with a `]=` after).
_NESTED_SUBSCRIPT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\[")
#: A word that is one variable and nothing else (`_plain_reference`).
_PLAIN_REFERENCE = re.compile(r'"?\$(?:\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*|[$?#])"?\Z')  # `$$`: a number
#: util-linux su's and runuser's long options, to read a unique prefix as getopt_long does (`su root --comm CMD`).
_SU_LONGS = ("--command", "--session-command", "--fast", "--group", "--supp-group", "--login", "--preserve-environment",
             "--shell", "--pty", "--no-pty", "--whitelist-environment", "--user", "--help", "--version")


#: Every long option of the wrappers whose abbreviations are read as getopt_long reads them (review 34: `unshare --w
#: <main> rm x`, `flock --conf 1 l -c CMD`, `script -q --comm CMD f` passed). Only a program whose long options are
#: all here: a real option that is a prefix of a listed one would otherwise be taken for it.
WRAPPER_LONGS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("su", "runuser"), _SU_LONGS),
    "script": _RUNNER_OPTIONS["script"][0],
    "flock": _RUNNER_OPTIONS["flock"][0],
    "sudo": _RUNNER_OPTIONS["sudo"][0],  # getopt_long (review 35b: `sudo --chd=<main> make`)
    "unshare": ("--boottime", "--cgroup", "--fork", "--help", "--ipc", "--keep-caps", "--kill-child", "--map-auto", "--map-current-user",
                "--map-group", "--map-groups", "--map-root-user", "--map-user", "--map-users", "--monotonic", "--mount", "--mount-proc",
                "--net", "--pid", "--propagation", "--root", "--setgid", "--setgroups", "--setuid", "--time", "--user", "--uts",
                "--version", "--wd"),
    "nsenter": ("--all", "--cgroup", "--follow-context", "--help", "--ipc", "--mount", "--net", "--no-fork", "--pid",
                "--preserve-credentials", "--root", "--setgid", "--setuid", "--target", "--time", "--user", "--uts", "--version",
                "--wd", "--wdns"),
}


def _spelled_out(values: list[str | None], longs: tuple[str, ...]) -> list[str | None]:
    """The words with each abbreviated long option spelled out (`--comm=x` → `--command=x`), up to `--`."""
    out: list[str | None] = []
    for k, value in enumerate(values):
        if value == "--":
            return out + values[k:]
        option = _long_option(value, longs) if value is not None and value.startswith("--") else None
        out.append(option + value[len(value.partition("=")[0]):] if option is not None and value is not None else value)
    return out


def _getopt_permuted(words: list[str | None], with_value: frozenset[str]) -> tuple[dict[str, str | None], list[str | None], list[str | None]]:
    """(options and their values, operands, the words after `--`) of a program whose getopt permutes (util-linux su,
    runuser, script): its options may follow its operands, an option's value is no option (`su -w -c root`: `-c` is
    `-w`'s value; review 34). A word only known at run time is an operand here (None)."""
    end = words.index("--") if "--" in words else len(words)
    head = words[:end]
    seen: dict[str, str | None] = {}
    operands: list[str | None] = []
    i = 0
    while i < len(head):
        value = head[i]
        if value is None or value == "-" or not value.startswith("-"):
            operands.append(value)
            i += 1
            continue
        after, more = _skip_options(head, i, with_value)
        seen.update(more)
        i = max(after, i + 1)
    return seen, operands, words[end + 1:]


def _plain_reference(word: Word, state: ShellState) -> bool:
    """A word that is one variable the agent's environment gave, nothing else (`$USER`, `"${name}"`, `$$`): its value is
    no option the command wrote. A default or an alternative (`${NOPE:--c…}`, `${USER:+-c}`) or more text around it
    (`\\-c"…"$USER`) is the command's own (review 34)."""
    return _PLAIN_REFERENCE.match(word.raw) is not None and inherited(word, state)


def _long_option(word: str, longs: tuple[str, ...]) -> str | None:
    """The long option getopt_long reads `word` as: itself, or the one it is a unique prefix of; None otherwise."""
    name = word.partition("=")[0]
    if name in longs:
        return name
    found = [option for option in longs if option.startswith(name)]
    return found[0] if len(found) == 1 else None


def _runner_options(name: str, values: list[str | None]) -> tuple[bool, int]:
    """(runs `$SHELL` by an option, index of its first operand) for a `_RUNNER_OPTIONS` program. script permutes its
    options (`script -q /dev/null -c ls`); flock, sudo and entr stop at their first operand. A word only known at run
    time may be such an option."""
    longs, long_values, short_values, letters = _RUNNER_OPTIONS[name]
    permutes = name == "script"
    operand: int | None = None
    shell = False
    i = 1
    while i < len(values):
        value = values[i]
        if value is None:
            return True, i
        if value == "--":
            return shell, operand if operand is not None else i + 1
        if not value.startswith("-") or value == "-":
            operand = i if operand is None else operand
            if not permutes:
                return shell, i
            i += 1
            continue
        i += 1
        if value.startswith("--"):
            option = _long_option(value, longs)
            shell = shell or option in _RUNNER_SHELL_LONGS
            if option in long_values and "=" not in value:
                i += 1
            continue
        for k, letter in enumerate(value[1:], start=1):
            shell = shell or letter in letters  # read on: `sudo -s -u root` has no command (review 33c)
            if letter in short_values:
                i += 0 if value[k + 1:] else 1  # `-w3` holds its value, `-w 3` takes the next word
                break
    return shell, operand if operand is not None else i


#: tmux options whose value is a command or shell a new window runs, or tmux commands run at an event (hooks; every
#: `after-<command>` too); a name tmux reads as one of them (a unique prefix: `set -g default-c CMD`) is refused when set.
_TMUX_CODE_OPTIONS = (
    "default-command", "default-shell", "command-alias", "alert-activity", "alert-bell", "alert-silence", "client-active", "client-attached",
    "client-detached", "client-focus-in", "client-focus-out", "client-resized", "client-session-changed", "command-error",
    "pane-died", "pane-exited", "pane-focus-in", "pane-focus-out", "pane-mode-changed", "pane-set-clipboard", "session-closed",
    "session-created", "session-renamed", "session-window-changed", "pane-title-changed", "window-layout-changed", "window-linked",
    "window-pane-changed", "window-renamed", "window-resized", "window-unlinked",
)


def _tmux_commands(values: list[str | None]) -> list[tuple[str | None, list[str | None]]]:
    """Each tmux command of the line after tmux's own options (`-f FILE`, `-L NAME`…): the command as tmux reads its
    name (`tmux_verb`; None when only known at run time) and its words. A `;` word (or one ending in `;`) ends one."""
    from ..shell.runners import tmux_verb

    i = 1
    while i < len(values) and values[i] is not None and values[i].startswith("-") and values[i] != "-":  # type: ignore[union-attr]
        value = values[i]
        i += 1
        if value == "--":
            break
        at = next((k for k, letter in enumerate(value[1:], start=1) if letter in "cfLST"), None)  # type: ignore[arg-type]
        if at is not None and not value[at + 1:]:  # type: ignore[index]
            i += 1
    commands: list[tuple[str | None, list[str | None]]] = []
    words: list[str | None] | None = None
    for value in values[i:]:
        ends = value is not None and value.endswith(";") and not value.endswith("\\;")
        if ends:
            value = value[:-1]  # type: ignore[index]
        if words is None:
            if value != "" or not ends:
                words = []
                commands.append((tmux_verb(value) if value is not None else None, words))
        elif value != "" or not ends:
            words.append(value)
        if ends:
            words = None
    return commands


def _tmux_flags(words: list[str | None]) -> tuple[str, list[str | None]]:
    """(the flag letters, the operands) of one tmux command's words, as its getopt reads them: options up to the first
    operand or `--`, `-t` taking the rest of its word or the next one (review 34b: `set -gtu default-command …` has
    no -u, `set -g default-command -u` sets it to `-u`)."""
    flags = ""
    i = 0
    while i < len(words):
        word = words[i]
        if word is None or not word.startswith("-") or word == "-":
            break
        i += 1
        if word == "--":
            break
        for k, letter in enumerate(word[1:], start=1):
            if letter == "t":
                i += 0 if word[k + 1:] else 1
                break
            flags += letter
    return flags, words[i:]


def _tmux_environment(values: list[str | None]) -> str | None:
    """What a tmux call gives the shells or commands it starts that makes them run unseen code: `-e NAME=VALUE` (a
    `SHELL_RUNNER_VARIABLES` name, a `BASH_FUNC_…`, a value only known at run time: review 33b, `tmux new -d -e
    BASH_ENV=./evil.sh ls`), `set-environment` of one, or `set-option` of a default command, a default shell that is
    no system shell, or a hook (review 33c; review 34: tmux reads abbreviated commands and option names, `set-e`,
    `set -g default-c`). Unsetting (`-u`) and showing pass."""
    from ..shell.programs import TRUSTED_PROGRAM_DIRS

    if any(value is not None and "#(" in value for value in values[1:]):
        return "#(…)"  # a format's job, in any word (review 34b: `display -p -- '-#(…)'`, an option's value)
    for verb, words in _tmux_commands(values):
        if verb is None:
            return "<a command only known at run time>"
        flags, operands = _tmux_flags(words)
        if verb in ("set-option", "set-window-option") and "u" not in flags and "U" not in flags:
            name = operands[0] if operands else ""
            if name is None:
                return f"{verb} <an option only known at run time>"
            name = name.partition("[")[0]  # an array option's item (`session-created[0]`: review 34b)
            if name and any(option.startswith(name) for option in _TMUX_CODE_OPTIONS) or name.startswith("after-"):
                given = operands[1] if len(operands) > 1 else ""
                if "default-shell".startswith(name) and not "default-command".startswith(name) and given is not None and os.path.dirname(given) in TRUSTED_PROGRAM_DIRS and os.path.basename(given) in SHELLS:
                    continue  # `set -g default-shell /bin/zsh`: a shell of the system's
                return f"{verb} {name}"
        if verb == "set-environment" and "u" not in flags and "r" not in flags:
            named = operands[0] if operands else ""
            return f"{verb} {named or '<only known at run time>'}"  # any variable: git's, a loader's… (review 34d)
    for i, value in enumerate(values[1:], start=1):
        if value is None or not value.startswith("-") or value.startswith("--"):
            continue
        # `-de X=1`; `splitw -fe X=1` (review 34b): whether a letter before `e` takes a value depends on the command,
        # so any `e` in a cluster is read as -e
        at = value.find("e", 1)
        if at < 0:
            continue
        given = value[at + 1:] if value[at + 1:] else (values[i + 1] if i + 1 < len(values) else "")
        if given is None:
            return "-e <only known at run time>"
        variable, _, assigned = given.partition("=")
        if variable in (STARTUP_VARIABLE, "ENV") and assigned in ("", "/dev/null"):
            continue  # reads nothing, as the same assignment before tmux (review 33c)
        # any other variable: what the commands it starts do with it is not judged as an assignment before them is
        # (review 34d: `-e GIT_CONFIG_COUNT=1 -e GIT_CONFIG_KEY_0=core.fsmonitor …` ran the hook)
        return f"-e {given}"
    return None

def _runs_shell_variable(name: str, values: list[str | None]) -> bool:
    """Whether this call of a `SHELL_VARIABLE_RUNNERS` program runs its command or a shell with `$SHELL` (review
    33a's false denies: `flock l true`, `sudo -n true` run none). tmux's commands, su's and runuser's always do;
    script with `-c`, flock with `-c` after its lock file, sudo with `-s`/`-i`, entr with `-s`; screen with none of
    its operands read here."""
    if name in ("tmux", "su", "runuser", "screen"):
        return True
    shell, operand = _runner_options(name, values)
    if name != "flock" or shell:
        return shell
    after = values[operand + 1] if operand + 1 < len(values) else ""  # `flock [options] FILE -c CMD`, exactly these
    return after is None or after in ("-c", "--command")


def _literal_dash(raw: str) -> bool:
    """Does a word start with a `-` the command wrote itself (quotes, `$'` and backslashes removed, before its first
    expansion): `-C"$X"`, `\\-C"$X"`, `$'-C'"$X"`?"""
    literal = re.split(r"[$`]", re.sub(r"\$'", "'", raw), maxsplit=1)[0]
    return literal.replace("\\", "").replace('"', "").replace("'", "").startswith("-")


def _option_like_at(command: ShellCommand, at: int) -> str | None:
    """The word a wrapper reads where its options end, when the command built it and it may be an option, so that the
    wrapper may read it as one (stop 30: `U=$(cat f); env "$U" sed -i … README.md` with U=`--chdir=<main>` edited the
    main checkout's file; `strace "$U" true` with U=`-o<main>/x` wrote it)."""
    from ..shell.steps import chosen_elsewhere
    from ..shell.words import may_be_option

    if at >= len(command.words):
        return None
    word = command.words[at]
    if command.value(word) is not None or not may_be_option(word.raw):
        return None
    if chosen_elsewhere(word, command.state) and not _literal_dash(word.raw):
        # `su $USER -c make`: an operand; but a word the command begins with `-` is an option whatever the environment
        # holds (review 35b: `env -C"$OLDPWD" make`; 35c: `\-C"$OLDPWD"`; 35d: reading `timeout -k"$K"` as a value
        # left `5` as the command and the real one unwalked, so `nice -n"$NICE" make` stays WG404)
        return None
    return word.raw


def _powershell(command: ShellCommand) -> str | None:
    """Why this PowerShell command line (`shell.powershell`) runs code worktree-guard cannot see, or None.

    PowerShell is a shell the guard cannot read at all: `pwsh -c '…'` is what `bash -c "$X"` is, code only known
    to the program, so it is WG404 in every profile (an inline interpreter's `python -c` is WG405 in `strict`
    only) — else a confined agent told to leave the PowerShell tool (WG900) runs the same code from Bash. A
    version or help query passes, and so does a script file, as `python3 script.py` does: its words are an
    unknown program's (WG406 in a shared checkout), unless it is a device or descriptor (`-File /dev/stdin`)."""
    from ..shell.powershell import launch

    name = command.name or ""
    values = command.values()
    what, at = launch(name, values)
    shown = command.words[at].raw if at is not None else ""
    advice = "write the commands in bash instead"
    if what == "code":
        return f"`{name} {shown}` runs PowerShell code, which worktree-guard cannot read; {advice}."
    if what == "command":
        return f"`{name}` runs its arguments as PowerShell code, which worktree-guard cannot read; {advice}."
    if what == "input":
        return f"`{name}{' ' + shown if shown else ''}` reads PowerShell code from its input, which worktree-guard cannot see; {advice}."
    if what == "split":
        return f"`{name}` is given {shown}, which Windows splits into other words (WSL leaves its double quote or tab unescaped), so worktree-guard cannot tell what PowerShell code it runs; {advice}."
    if what == "unknown":
        if at is not None and values[at] is None:
            if at >= 1 and command.words[at].span == command.words[at - 1].span and command.via[-1:] == ("xargs",):
                shown = "xargs' input"  # the word xargs appends stands in the place of the last one (`_xargs`)
            return f"`{name}` is given {shown}, only known at run time, so worktree-guard cannot tell what PowerShell code it runs; {advice}."
        return f"`{name} {shown}` is a parameter worktree-guard does not know, so it cannot tell what PowerShell code runs; {advice}."
    if what == "file" and at is not None and (path := values[at]) is not None and _unseen_file(path, command.cwd):
        return f"`{name}` runs a script worktree-guard cannot see ({shown}); {advice}."
    return None


def _trap_action(values: list[str | None]) -> int | None:
    """Index of the code `trap [--] CODE SIGNAL…` installs; None when it installs none (`trap -p`, `trap - INT`)."""
    first = 2 if len(values) > 1 and values[1] == "--" else 1
    if len(values) <= first + 1:
        return None
    action = values[first]
    if action is not None and (action == "-" or (first == 1 and action.startswith("-"))):
        return None
    return first


#: Builtins that run shell code given in an option: name → {option: (runs in this shell?, prefix, suffix)}.
#: `mapfile -C CODE` evaluates "CODE index line" in this shell; `compgen -F` calls its function here, `-C` runs
#: its command in a subshell; `compgen -W` expands its word list (command substitutions included).
CALLBACK_BUILTINS: dict[str, dict[str, tuple[bool, str, str]]] = {
    **{name: {"-C": (True, "", ' 0 "$WORKTREE_GUARD_CALLBACK_LINE"')} for name in ("mapfile", "readarray")},
    "compgen": {"-C": (False, "", ""), "-F": (True, "", ""), "-W": (True, ": ", "")},
}
#: Options of those builtins that take a value (the value is not an option).
CALLBACK_VALUE_OPTIONS = frozenset({"-d", "-n", "-O", "-s", "-u", "-C", "-c", "-A", "-G", "-W", "-X", "-P", "-S", "-o", "-F", "-V"})


def _callback_code(values: list[str | None], options: dict[str, tuple[bool, str, str]]) -> list[tuple[str | None, int, str]]:
    """(code, index of the word holding it, option) for every code option of a callback builtin; code None when
    not known (or when an option only known at run time may be one)."""
    found: list[tuple[str | None, int, str]] = []
    i = 1
    while i < len(values):
        value = values[i]
        if value is None:
            found.append((None, i, "?"))  # an option only known at run time may be -C
            break
        if value == "--" or not value.startswith("-") or value == "-":
            break
        for j in range(1, len(value)):
            option = "-" + value[j]
            if option in CALLBACK_VALUE_OPTIONS:
                attached = value[j + 1:]
                index = i if attached else i + 1
                code = attached or (values[i + 1] if i + 1 < len(values) else "")
                if not attached:
                    i += 1
                if option in options:
                    found.append((code, index, option))
                break
        i += 1
    return found


def _callbacks(command: ShellCommand, values: list[str | None], options: dict[str, tuple[bool, str, str]]) -> Unwrapped | None:
    from ..shell.steps import Script, Unwrapped

    scripts = []
    for code, index, option in _callback_code(values, options):
        if code is None or index >= len(command.words):
            return None  # reported by the command check (WG404), or no code at all
        word = command.words[index]
        same_shell, prefix, suffix = options[option]
        scripts.append(Script(prefix + code + suffix, _offset(word), command.cwd, f"{command.name} {option}", same_shell=same_shell))
    return Unwrapped(scripts=scripts) if scripts else None


def _unseen_file(path: str, cwd: str | None) -> bool:
    """A script path whose text worktree-guard cannot read before it runs: a device, a descriptor, a process
    file (`/dev/stdin`, `//dev/fd/3`, `/./proc/self/fd/0`, a link to one), or anything that is not a regular file."""
    import stat

    joined = path if path.startswith("/") else os.path.join(cwd, path) if cwd is not None else None
    if joined is None:
        return ".." in path.split("/")
    normal = "/" + os.path.normpath(joined).lstrip("/")
    real_path = real(normal)  # a link into a process's own /proc is the shell's, never followed here (stop 37)
    for candidate in (normal, real_path):
        if candidate in ("/dev", "/proc") or candidate.startswith(("/dev/", "/proc/")):
            return True
    try:
        return not stat.S_ISREG(os.stat(normal).st_mode)
    except OSError:
        return False  # missing: the shell fails to open it


def _sudo_shell_reads_input(values: list[str | None]) -> bool:
    """`sudo -s` or `sudo -i` (`--sh`, `--us root -s`: review 33b) with no command starts a shell that reads its input;
    `NAME=value` words after the options are the environment, no command (`sudo -s FOO=1`)."""
    shell, operand = _runner_options("sudo", values)
    rest = values[operand:]
    while rest and rest[0] is not None and "=" in rest[0] and not rest[0].startswith(("=", "-")):
        rest = rest[1:]
    return shell and (not rest or rest[0] is None)


#: The options of su, runuser and script that give a command and take a value (`-c CMD`, `-u USER CMD`), to read each
#: value as no option (`su -c -s root` runs `-s`).
_COMMAND_VALUE_OPTIONS = frozenset({"-c", "--command", "-C", "--session-command", "-u", "--user"})


def _starts_a_shell_reading_input(values: list[str | None], command_options: frozenset[str], value_options: frozenset[str], before: int) -> bool:
    """No option gives the program a command, and no word after its first `before` operands is one. A word only
    known at run time might be anything: the shell is then assumed to read its input."""
    if values[0] in ("sg", "newgrp") and values[1:2] == ["-"]:
        values = values[:1] + values[2:]  # `sg - root`: a login environment, no operand (review 33b)
    longs = WRAPPER_LONGS.get(values[0] or "") or tuple(sorted(o for o in command_options | value_options if o.startswith("--")))
    values = _spelled_out(values, longs)  # `unshare --setu 0` (review 33b)
    if values[0] in ("su", "runuser", "script"):
        # getopt permutes their options (`su --login postgres --command "…"`, `su root -s /bin/bash`: review 33b;
        # `script /dev/null -q`: review 34), an option's value is none (`su -w -c root`). A word only known at run
        # time may be a command option: the wrapper rule reads it. su's words after `--` are the shell's own (a
        # script, `-c CMD`), and the user comes first when none came before (`su -- root`: review 33c)
        seen, operands, after = _getopt_permuted(values[1:], value_options | (command_options & _COMMAND_VALUE_OPTIONS))
        if set(seen) & command_options or None in operands:
            return False
        if values[0] == "script":
            return len(operands) + len(after) <= before
        return len(after) <= (0 if any(o != "-" for o in operands) else 1)  # `su - -- root`: `-` is a login, no user
    end, seen = _skip_options(values, 1, value_options)
    if set(seen) & command_options:
        return False
    if end + before < len(values) and values[end + before] in command_options:
        return False  # after the operands that come first (`sg grp -c "$X"`)
    if any(v is None for v in values[1:]):
        return True
    return len(values) - end <= before


def _arguments_matter(command: ShellCommand, ctx: Context) -> bool:
    """A computed command name matters when an argument is a sensitive git/cd word, unknown, or a path leaving W.

    A literal name counts too when an option set earlier lets it be an alias (`shopt -s expand_aliases; cd …`).
    """
    if command.words[0].value in SENSITIVE_ARGUMENTS:
        return True
    # Only a name the shell itself looks up can be a builtin (`find -exec $x`, `xargs $x` exec a program).
    in_this_shell = not command.via or command.via[-1] in ("command", "builtin")
    for word, value in zip(command.words[1:], command.values()[1:]):
        if value is None:
            return True
        if value in SENSITIVE_ARGUMENTS:
            return True
        if command.name is None and in_this_shell and SHELL_SYNTAX.intersection(value):
            return True  # the name may be `eval` (or `source`…): this argument would then be shell code
        if "/" in value or value in (".", ".."):
            if command.cwd is None and not value.startswith("/"):
                return True
            if not ctx.policy.judge(value, command.cwd or "/").ok:
                return True
    return False
