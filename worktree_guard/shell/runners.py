"""Programs that run code handed to them in a form the guard does not walk (SPEC §5.2 "strings that a program will
run as code"), as data: tmux's command strings, gdb's `-ex 'shell …'`, sqlite3's `.shell`, `make -f /dev/stdin`,
less's `LESSOPEN='|cmd %s'`, `fd -x`. A `CodeRunner` row says which options, subcommands, operands or
environment variables make the program run such code; the program-code rule refuses them (WG404). Plugins
extend the table through `worktree_guard_code_runners`.
"""

from __future__ import annotations

import re
import shlex
from typing import TYPE_CHECKING

from ..fast_dataclass import fast_dataclass
from .state import NAMES_UNKNOWN

if TYPE_CHECKING:
    from .ast import Word
    from .steps import ShellCommand


def _f(*names: str) -> frozenset[str]:
    return frozenset(names)


@fast_dataclass(frozen=True, slots=True)
class CodeRunner:
    """When a program runs code the guard cannot walk.

    options: options whose presence means it runs code (`gdb -ex`), also as `--opt=value` or an attached short value;
    options_first: `options` count only before the first operand (tmux's `-c CMD`, while `new -c DIR` is a directory);
    verbs: every verb's (name, alias), to read a word as the program does (`tmux_verb`: `tmux run-s CMD`);
    verb_values: a `command_subcommands` verb's letters that take a value (`splitw -p 50 CMD`; its -f is a flag), in
        place of `value_options` for the options before the command it runs;
    subcommands: words that, as any operand, name a verb running a command (`tmux send-keys 'cmd' Enter`);
    command_subcommands: verbs that run a command when given one after their options (`tmux new-session -d 'cmd'`;
        `tmux new-session -d -s x` starts the user's shell): it is walked, in the directory of `chdir_options` (of
        `verb_chdir` for its verbs), else the cwd for the verbs in `here_subcommands` and an unknown one for the
        rest; value_options: their options
        with a value (and the program's: a word only known at run time given as one's value is no option);
    code_operands: a pattern an operand matching is code (sqlite3's `.shell`, `.output`);
    stdin_files: options whose value is a file of code: `-`, `/dev/stdin` and other descriptors, or a value only known
        at run time, are code the guard does not see (`make -f /dev/stdin <<< …`);
    env: variables that, set for it, hold a command it runs that the guard does not walk;
    coded_options: options whose value is checked against `code_operands` (`sqlite3 -cmd '.shell …'`);
    argv_options: options followed by an argv it runs (up to a `;` word) once per found path or with all of them
        (`fd -x cmd {}`): that argv is judged as a command, its `placeholders` (or an appended path) unknown;
    walk_options / walk_env: options and variables whose value is a shell command it runs (`man -P cat`,
        `LESSOPEN='|cmd %s'`, a leading `|` dropped): walked where it runs; only known at run time → WG404.
    """

    options: frozenset[str] = frozenset()
    options_first: bool = False
    verbs: tuple[tuple[str, str], ...] = ()
    verb_values: tuple[tuple[str, str], ...] = ()
    subcommands: frozenset[str] = frozenset()
    command_subcommands: frozenset[str] = frozenset()
    here_subcommands: frozenset[str] = frozenset()
    chdir_options: frozenset[str] = frozenset()
    #: a verb whose directory option is another than `chdir_options` (tmux's `display-popup -d DIR`, its -c names a client)
    verb_chdir: tuple[tuple[str, str], ...] = ()
    #: a `command_subcommands` verb's flag letters (its `verb_values` are the rest): any other letter makes the command
    #: it runs unknown
    verb_flags: tuple[tuple[str, str], ...] = ()
    value_options: frozenset[str] = frozenset()
    code_operands: str | None = None
    stdin_files: frozenset[str] = frozenset()
    env: tuple[str, ...] = ()
    coded_options: frozenset[str] = frozenset()
    argv_options: frozenset[str] = frozenset()
    placeholders: tuple[str, ...] = ()
    walk_options: frozenset[str] = frozenset()
    walk_env: tuple[str, ...] = ()
    #: options whose value may only be attached (`make -j4`): written out with a value only known at run time, the
    #: word is that option
    attached_options: frozenset[str] = frozenset()
    #: the program reads its options with getopt_long_only: one dash starts a long option as two do, and a unique
    #: prefix is read as the option (`gdb -eval-c CMD`: stop 31)
    long_only: bool = False
    #: variables the program reads more options from, or a config file of them (`TAR_OPTIONS`, `ZIPOPT`, `WGETRC`,
    #: curl's `.curlrc` under CURL_HOME or HOME): set by the command, what they make it write or run is not read
    option_env: tuple[str, ...] = ()
    #: a known value of an `option_env` variable whose every word matches this is harmless (`XZ_OPT=-9`,
    #: `TAR_OPTIONS=--no-same-owner`: review 31b's false denies)
    safe_env_words: str | None = None
    #: options naming a file of more options (`curl -K F`, `wget --config F`), which the guard does not read
    option_files: frozenset[str] = frozenset()
    #: its short options cluster as getopt's do (`wget -qe CMD`): a code option may end a cluster of flags
    short_clusters: bool = False
    #: letters of `value_options` that are flags in a cluster of the program's own options (tmux's `-l`)
    cluster_flags: frozenset[str] = frozenset()
    #: what a `coded_options` value that matches `code_operands` is, in the refusal
    coded_reason: str = "is given code"


#: tmux 3.3a's commands and their aliases (`tmux list-commands`; "" for none).
TMUX_COMMANDS: tuple[tuple[str, str], ...] = (("attach-session", "attach"), ("bind-key", "bind"), ("break-pane", "breakp"), ("capture-pane", "capturep"), ("choose-buffer", ""), ("choose-client", ""), ("choose-tree", ""), ("clear-history", "clearhist"), ("clear-prompt-history", "clearphist"), ("clock-mode", ""), ("command-prompt", ""), ("confirm-before", "confirm"), ("copy-mode", ""), ("customize-mode", ""), ("delete-buffer", "deleteb"), ("detach-client", "detach"), ("display-menu", "menu"), ("display-message", "display"), ("display-popup", "popup"), ("display-panes", "displayp"), ("find-window", "findw"), ("has-session", "has"), ("if-shell", "if"), ("join-pane", "joinp"), ("kill-pane", "killp"), ("kill-server", ""), ("kill-session", ""), ("kill-window", "killw"), ("last-pane", "lastp"), ("last-window", "last"), ("link-window", "linkw"), ("list-buffers", "lsb"), ("list-clients", "lsc"), ("list-commands", "lscm"), ("list-keys", "lsk"), ("list-panes", "lsp"), ("list-sessions", "ls"), ("list-windows", "lsw"), ("load-buffer", "loadb"), ("lock-client", "lockc"), ("lock-server", "lock"), ("lock-session", "locks"), ("move-pane", "movep"), ("move-window", "movew"), ("new-session", "new"), ("new-window", "neww"), ("next-layout", "nextl"), ("next-window", "next"), ("paste-buffer", "pasteb"), ("pipe-pane", "pipep"), ("previous-layout", "prevl"), ("previous-window", "prev"), ("refresh-client", "refresh"), ("rename-session", "rename"), ("rename-window", "renamew"), ("resize-pane", "resizep"), ("resize-window", "resizew"), ("respawn-pane", "respawnp"), ("respawn-window", "respawnw"), ("rotate-window", "rotatew"), ("run-shell", "run"), ("save-buffer", "saveb"), ("select-layout", "selectl"), ("select-pane", "selectp"), ("select-window", "selectw"), ("send-keys", "send"), ("send-prefix", ""), ("server-access", ""), ("set-buffer", "setb"), ("set-environment", "setenv"), ("set-hook", ""), ("set-option", "set"), ("set-window-option", "setw"), ("show-buffer", "showb"), ("show-environment", "showenv"), ("show-hooks", ""), ("show-messages", "showmsgs"), ("show-options", "show"), ("show-prompt-history", "showphist"), ("show-window-options", "showw"), ("source-file", "source"), ("split-window", "splitw"), ("start-server", "start"), ("suspend-client", "suspendc"), ("swap-pane", "swapp"), ("swap-window", "swapw"), ("switch-client", "switchc"), ("unbind-key", "unbind"), ("unlink-window", "unlinkw"), ("wait-for", "wait"))


def tmux_verb(word: str, verbs: tuple[tuple[str, str], ...] = TMUX_COMMANDS) -> str:
    """The command a word names as tmux's cmd_find reads it: an alias, a name, or a unique prefix of one name
    (review 34: `tmux run-s CMD`, `tmux new-s -d CMD`, `tmux set-e …` ran); the word itself otherwise."""
    for name, alias in verbs:
        if word in (name, alias):
            return name
    found = [name for name, _ in verbs if name.startswith(word)] if word else []
    return found[0] if len(found) == 1 else word


#: less's lesskey: key bindings and an `#env` section (LESSOPEN among it, run as a command) read from a file or text
#: these variables name or hold, or from LESSKEY_FILES in HOME. None of it is read by the guard.
LESSKEY_VARIABLES = ("LESSKEYIN", "LESSKEY", "LESSKEYIN_SYSTEM", "LESSKEY_SYSTEM", "LESSKEY_CONTENT")
LESSKEY_FILES = (".lesskey", ".less", ".config/lesskey")
#: less options (on its command line or in $LESS) that name a lesskey file or text; long names may be abbreviated
#: and spelled in any case (`names_lesskey_option`).
LESSKEY_OPTIONS = ("--lesskey-file", "--lesskey-src", "--lesskey-content")


def names_lesskey_option(word: str) -> bool:
    """Whether less may take a word for a lesskey option: a long option name in any case (less matches names
    regardless of case where no other option differs only in case, as none of these does) that is a prefix of one
    (a unique prefix is that option; one of several is refused or, counted here, a lesskey one)."""
    if not word.startswith("--"):
        return False
    name = word.partition("=")[0].lower()
    return len(name) > 2 and any(option.startswith(name) for option in LESSKEY_OPTIONS)


def less_options_opaque(value: str | None) -> bool:
    """Whether less options (the value of $LESS) may give less a lesskey file or text, or commands it runs at start:
    `-k`/`-k<file>` in a cluster of letters (with or without a leading `-`), a long option that abbreviates a lesskey
    one, or `+<command>` (a `+!cmd` runs cmd). Only known at run time counts too."""
    if value is None:
        return True
    for word in value.split():
        if word.startswith("--"):
            if names_lesskey_option(word):
                return True
        elif word.startswith("+") or "k" in word.lstrip("-"):
            return True
    return False


# short_clusters: `less -Sk kf` (h-run32); value_options end a cluster (review 32c: `less -pkernel f` is a search)
_LESS = CodeRunner(walk_env=("LESSOPEN", "LESSCLOSE"), env=LESSKEY_VARIABLES, options=_f("-k", *LESSKEY_OPTIONS), short_clusters=True, value_options=_f("-b", "-D", "-h", "-j", "-o", "-O", "-p", "-P", "-t", "-T", "-x", "-y", "-z", "-#"))
# gdb 13's options that run gdb commands (its `shell` among them) or read a file of them, each with one dash or two
_GDB = CodeRunner(
    options=_f(*(dash + name for dash in ("-", "--") for name in (
        "ex", "eval-command", "x", "command", "iex", "init-eval-command", "ix", "init-command",
        "eiex", "early-init-eval-command", "eix", "early-init-command",
        # the data directory's python/gdb/__init__.py runs at start (review 31a)
        "data-directory", "D",
    ))),
    long_only=True,
    # gdb reads $HOME/.gdbinit and $XDG_CONFIG_HOME/gdb/gdbinit (review 31a: `HOME=$PWD gdb -batch` ran ./.gdbinit)
    option_env=("HOME", "XDG_CONFIG_HOME"),
)
# wgetrc commands (`wget -e CMD`, any case, `-` and `_` ignored) whose value is a file wget writes (stop 31: `wget -e
# dir_prefix=<main> URL` wrote there)
_WGETRC_OUTPUTS = ("outputdocument", "dirprefix", "logfile", "savecookies", "warcfile", "warctempdir", "rejectedlog", "hstsfile")
_WGETRC_OUTPUT = r"(?i)^\s*(" + "|".join("[-_]*".join(name) for name in _WGETRC_OUTPUTS) + r")[-_]*\s*="
#: Words of a compressor's options that name no file and run nothing (`-9`, `-T0`, `--threads=4`).
_SAFE_COMPRESSOR_WORDS = r"\d+|-[0-9]+e?|-e|-T\d*|-M[\w.%]+|-[vqkf]+|--(threads=\d+|memlimit[-\w]*=[\w.%]+|check=\w+|fast|best|extreme|verbose|quiet|keep|force|sparse|rsyncable|long(=\d+)?)"
_TAR = CodeRunner(
    option_env=("TAR_OPTIONS", "TAPE", "XZ_OPT", "XZ_DEFAULTS", "BZIP", "BZIP2"),
    safe_env_words=_SAFE_COMPRESSOR_WORDS + r"|-[vkpsmhoSOz]+|--(no-same-owner|no-same-permissions|same-owner|numeric-owner|verbose|totals|warning=[\w-]+|owner=[\w.-]+|group=[\w.-]+|mode=[\w+=,-]+|sort=\w+|format=\w+|no-overwrite-dir|keep-old-files|skip-old-files|overwrite|one-file-system|exclude-vcs|exclude-vcs-ignores|wildcards|no-wildcards|anchored|ignore-case)",
)
# fd (clap) clusters its short flags, the last of them may be -x (`fd -Hx rm {}`: h-run32) and its value attached
# (`-Hxrm`); the short options that take a value end a cluster (`-ex` is `-e x`)
_FD = CodeRunner(argv_options=_f("-x", "--exec", "-X", "--exec-batch"), placeholders=("{}", "{/}", "{//}", "{.}", "{/.}"), short_clusters=True, value_options=_f("-e", "-t", "-E", "-d", "-j", "-S", "-c", "-o"))
# value_options: a word only known at run time given as one of these is its value, no option (stop 30); not -j or -l,
# whose value is optional: `make -j "$N"` with N=--eval=… reads an option
# -C is not among them: the Makefile of a directory only known at run time is code the guard does not see (review
# 30b: `make -C "$X"` ran the main checkout's)
_MAKE = CodeRunner(options=_f("--eval", "-E"), stdin_files=_f("-f", "--file", "--makefile"), env=("MAKEFLAGS", "GNUMAKEFLAGS"), value_options=_f("-I", "--include-dir", "-o", "--old-file", "--assume-old", "-W", "--what-if", "--new-file", "--assume-new"), attached_options=_f("-j", "-l", "--jobs", "--load-average"))

BUILTIN_CODE_RUNNERS: dict[str, CodeRunner] = {
    "tmux": CodeRunner(
        options=_f("-c"),
        options_first=True,
        verbs=TMUX_COMMANDS,
        # tmux 3.3a's usage (`tmux list-commands`) and split-window's -p it still takes (review 34d: `splitw -p 50 CMD`,
        # `splitw -f CMD`, `neww -S CMD`)
        verb_values=(("new-session", "ceFfnstxy"), ("new-window", "cenFt"), ("split-window", "celFpt"), ("respawn-pane", "cet"),
                     ("respawn-window", "cet"), ("display-popup", "bcdehsStTwxy")),
        subcommands=_f(
            "run-shell", "run", "send-keys", "send", "if-shell", "if", "pipe-pane", "pipep", "source-file", "source",
            "command-prompt", "confirm-before", "confirm", "display-menu", "menu",
            "set-hook",  # a hook runs tmux commands (`run-shell …`) at a later event (review 34)
            "paste-buffer", "pasteb",  # types a buffer into a pane's shell (review 34b: `setb 'cmd\n' \; pasteb`)
        ),
        code_operands=r"#\(",  # a format's `#(cmd)` runs cmd (`tmux display -p '#(…)'`, `set status-right '#(…)'`: review 34)
        command_subcommands=_f("new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "respawn-window", "respawnw", "display-popup", "popup"),
        here_subcommands=_f("new-session", "new"),
        chdir_options=_f("-c"),
        # popup's -c is the client it shows on; without -d it runs in that client's session's directory (review 35)
        verb_chdir=(("display-popup", "-d"),),
        verb_flags=(("new-session", "AdDEPX"), ("new-window", "abdkPS"), ("split-window", "bdfhIvPZ"), ("respawn-pane", "k"),
                    ("respawn-window", "k"), ("display-popup", "BCE")),
        # -T takes a value before the subcommand (tmux 3.3's `2c:CDdf:lL:NqS:T:uUvV`), -l is a flag there (review 32c:
        # `tmux -lc CMD`) but a subcommand's value (`splitw -l 5 ls`)
        value_options=_f("-c", "-e", "-F", "-n", "-s", "-t", "-x", "-y", "-f", "-l", "-L", "-S", "-T"),
        cluster_flags=_f("-l"),
        short_clusters=True,  # `tmux -vc CMD` (h-run32)
        option_files=_f("-f"),  # its config file's commands run (`run-shell`); -f /dev/null passes
    ),
    "gdb": _GDB,
    "gdb-multiarch": _GDB,
    "sqlite3": CodeRunner(
        options=_f("-init", "--init"),
        coded_options=_f("-cmd", "--cmd"),
        code_operands=r"(?is)^\s*\.(shell|system|once|output|save|backup|restore|import|load|excel|read|log|open|clone|dump|cd)\b|\b(attach|vacuum\s+into|load_extension|writefile|edit)\b",
    ),
    "make": _MAKE,
    "gmake": _MAKE,
    "less": _LESS,
    "zless": _LESS,
    "lesspipe": _LESS,
    # man-db reads options from MANOPT before its command line (`MANOPT=-Psh man -l p.txt` ran sh on the page in a
    # terminal: phase 14's run of shell/runners): not read, so refused when the command sets it
    "man": CodeRunner(walk_options=_f("-P", "--pager"), walk_env=("MANPAGER", "PAGER", "LESSOPEN", "LESSCLOSE"), options=_f("-H", "--html"), env=(*LESSKEY_VARIABLES, "MANOPT"), short_clusters=True, value_options=_f("-C", "-e", "-E", "-L", "-m", "-M", "-p", "-r", "-R", "-s", "-S", "-T", "-X"), option_files=_f("-C", "--config-file")),  # `man -aP sh`, `man -aH` (h-run32); -C's file defines the programs man runs (review 32c)
    "fd": _FD,
    "fdfind": _FD,
    # programs that read more options from the environment or a file (stop 31: `TAR_OPTIONS=--directory=<main> tar
    # -xf a.tar`, `curl -K cfg URL` with `output = <main>/x` in cfg, `RSYNC_RSH=cmd rsync …` each passed)
    # tar reads TAPE (its archive when no -f) and hands XZ_OPT, XZ_DEFAULTS, BZIP, BZIP2 to the compressor it runs
    # (review 31b: `XZ_OPT=--files=l tar -cJf …` compressed l's files beside them)
    "tar": _TAR,
    "gtar": _TAR,
    "zip": CodeRunner(option_env=("ZIPOPT",), safe_env_words=r"-[0-9qrvyDXjJ]+"),
    # review 31a: `UNZIP='-d <main>' unzip a.zip`; flags that say nothing of where it writes pass (review 31c: -qq, -o)
    "unzip": CodeRunner(option_env=("UNZIP", "UNZIPOPT"), safe_env_words=r"-[qonjCLaXKMUVTN]+"),
    "zipinfo": CodeRunner(option_env=("ZIPINFO", "ZIPINFOOPT")),
    "split": CodeRunner(walk_options=_f("--filter")),  # review 31a: `split --filter=CMD f` runs CMD (as `sh -c`)
    **{name: CodeRunner(option_env=("XZ_OPT", "XZ_DEFAULTS"), safe_env_words=_SAFE_COMPRESSOR_WORDS) for name in ("xz", "unxz", "xzcat", "lzma", "unlzma", "lzcat")},
    **{name: CodeRunner(option_env=("BZIP", "BZIP2"), safe_env_words=_SAFE_COMPRESSOR_WORDS) for name in ("bzip2", "bunzip2", "bzcat")},
    # rsync runs RSYNC_RSH and RSYNC_CONNECT_PROG, and popt reads aliases from $HOME/.popt (review 31b)
    "rsync": CodeRunner(env=("RSYNC_RSH", "RSYNC_CONNECT_PROG"), option_env=("HOME", "RSYNC_PARTIAL_DIR")),  # review 32b: RSYNC_PARTIAL_DIR is --partial-dir's
    "curl": CodeRunner(
        option_files=_f("-K", "--config"),
        option_env=("CURL_HOME", "XDG_CONFIG_HOME", "HOME"),
        short_clusters=True,
        value_options=_f("-o", "-d", "-H", "-X", "-u", "-A", "-e", "-b", "-c", "-D", "-F", "-m", "-x", "-r", "-T", "-w", "-E", "-C", "-y", "-Y", "-z", "-t", "-U", "-P", "-Q"),
    ),
    "wget": CodeRunner(
        option_files=_f("--config"),
        option_env=("WGETRC", "SYSTEM_WGETRC", "HOME"),
        coded_options=_f("-e", "--execute"),
        code_operands=_WGETRC_OUTPUT,
        coded_reason="is given a setting that names a file it writes or reads settings from",
        short_clusters=True,
        value_options=_f("-O", "-o", "-a", "-P", "-t", "-T", "-U", "-i", "-B", "-l", "-A", "-R", "-D", "-I", "-X", "-Q", "-w"),
    ),
}

_STDIN = ("-", "/dev/stdin")


def opaque_code(command: ShellCommand, runner: CodeRunner) -> list[str]:
    """Why this command runs code the guard cannot walk (one reason each), or nothing."""
    name = command.name
    values = command.values()
    reasons: list[str] = []
    if command.state.names_unknown and (runner.env or runner.option_env or runner.walk_env):
        reasons.append(f"{NAMES_UNKNOWN}: `{name}` reads its options or a command from some")
    for variable in runner.env + runner.option_env:
        if not command.names(variable):
            continue  # said once above, or not set
        present, value = command.env(variable)
        if variable not in runner.env:
            if value is not None and runner.safe_env_words is not None and all(re.fullmatch(runner.safe_env_words, word) for word in value.split()):
                continue
            if present and not (variable == "HOME" and value == command.home):  # the agent's own HOME is its environment
                reasons.append(f"`{name}` reads more options from ${variable} (or a config file there), which this command sets: what they make it write or run is not read")
        elif variable in LESSKEY_VARIABLES:
            if present and value != "":
                reasons.append(f"`{name}` reads key bindings and commands (an #env LESSOPEN) from ${variable}")
        elif present:
            reasons.append(f"`{name}` runs the command in ${variable}")
    if LESSKEY_VARIABLES[0] in runner.env:
        present, options = command.named_env("LESS")
        if present and less_options_opaque(options):
            reasons.append(f"`{name}` reads $LESS, which gives less a lesskey file or text or startup commands")
    pattern = re.compile(runner.code_operands) if runner.code_operands else None
    reasons += _option_like(command, runner)
    operand_seen = False
    verbs_at = _verb_positions(values, runner)
    for i, value in enumerate(values[1:], start=1):
        if value is None:
            continue
        verb = _verb(value, runner) if i in verbs_at else value
        option, eq, attached = value.partition("=")
        option = _unabbreviated(option, runner)
        # a short option's attached value may hold `=` (review 31b: `wget -edir_prefix=…`, `curl -Kc=1`)
        short = len(value) > 2 and value[0] == "-" and value[1] != "-" and (not eq or not runner.long_only)
        if short and value[:2] in runner.options | runner.stdin_files | runner.coded_options | runner.option_files:
            option, eq, attached = value[:2], "", value[2:]  # `-f/dev/stdin`, `-Pcat`
        elif short and (runner.attached_options or runner.short_clusters):
            for k in range(1, len(value)):  # a cluster of flags before it (`make -kE'…'`: review 30c; `wget -qe …`)
                letter = "-" + value[k]
                if letter in runner.options | runner.stdin_files | runner.coded_options | runner.option_files:
                    option, eq, attached = letter, "", value[k + 1:]
                    break
                if letter in (runner.value_options - runner.cluster_flags) | runner.attached_options:
                    break
        # a separate value of an option is no operand (review 32c: `tmux -f /dev/null -c CMD`)
        operand_seen = operand_seen or not value.startswith("-") and not (i > 1 and _takes_next(values[i - 1], runner))
        if option in runner.options and not (runner.options_first and operand_seen):
            reasons.append(f"`{name} {option}` runs code")
        elif LESSKEY_OPTIONS[0] in runner.options and names_lesskey_option(value):
            reasons.append(f"`{name} {option}` reads key bindings and commands (an #env LESSOPEN) from a lesskey file or text")
        elif verb in runner.subcommands:
            reasons.append(f"`{name} {value}` runs a command")
        elif verb in runner.command_subcommands and _subcommand_command(command, i, runner) is None:
            reasons.append(f"`{name} {value}` runs a command only known at run time")
        elif pattern is not None and not value.startswith("-") and pattern.search(value):
            reasons.append(f"`{name}` is given code ({value[:40]!r})")
        if option in runner.coded_options and pattern is not None:
            given = attached if attached else (values[i + 1] if i + 1 < len(values) else None)
            if given is None or pattern.search(given):
                reasons.append(f"`{name} {option}` {runner.coded_reason}")
        if option in runner.option_files and not (runner.options_first and operand_seen) and (attached if attached else (values[i + 1] if i + 1 < len(values) else None)) != "/dev/null":
            reasons.append(f"`{name} {option}` reads more options from a file the guard does not read: they may say where it writes or what it runs")
        if option in runner.stdin_files:
            given = attached if attached else (values[i + 1] if i + 1 < len(values) else None)
            if given is None or given in _STDIN or given.startswith(("/dev/fd/", "/proc/")):
                reasons.append(f"`{name} {option}` reads code from its input or a file only known at run time")
    return reasons


def _verb(word: str, runner: CodeRunner) -> str:
    """A word as the runner's verb it names (`tmux_verb`), for a runner with `verbs`; else the word itself."""
    return tmux_verb(word, runner.verbs) if runner.verbs and not word.startswith("-") else word


def _verb_positions(values: list[str | None], runner: CodeRunner) -> set[int]:
    """Where a runner with `verbs` reads one: its first operand, and the word after each `;` (or after a word ending
    in one). Elsewhere a word is a name, a value or an argument (review 34b: `tmux new -d -s pipe` names a session)."""
    if not runner.verbs:
        return set()
    positions: set[int] = set()
    for i, value in enumerate(values[1:], start=1):
        if value is None:
            continue
        previous = values[i - 1]
        if i > 1 and previous is not None and previous.endswith(";"):
            positions.add(i)
        elif not positions and not value.startswith("-") and not (i > 1 and previous not in runner.cluster_flags and _takes_next(previous, runner)):
            positions.add(i)  # tmux's own `-l` is a flag (review 34c: `tmux -l new-s -d CMD`)
    return positions


def _unabbreviated(option: str, runner: CodeRunner) -> str:
    """A long option as getopt_long reads it: a unique prefix of one (`make --fil=/dev/stdin`, `gdb --eval=…`: review
    30b), with one dash too for getopt_long_only (`gdb -eval-c`); a prefix of several that holds one of the runner's
    is read as that one."""
    one_dash = runner.long_only and option.startswith("-") and not option.startswith("--")
    if not (option.startswith("--") and len(option) >= 4 or one_dash and len(option) >= 3) or LESSKEY_OPTIONS[0] in runner.options:
        return option  # less's own reading (`names_lesskey_option`) takes its abbreviations
    known = runner.options | runner.stdin_files | runner.walk_options | runner.coded_options | runner.argv_options | runner.value_options | runner.option_files
    if option in known:
        return option
    matches = sorted(o for o in known if o.startswith(option))
    return matches[0] if matches else option


def _option_like(command: ShellCommand, runner: CodeRunner) -> list[str]:
    """A word only known at run time where an option may stand, which the command built, may be one of the options
    that run code (stop 30: `man "$O" ls` with O=`-Psh -c …`). The value of one of `value_options` is no option."""
    if not (runner.options or runner.walk_options or runner.stdin_files or runner.coded_options or runner.argv_options):
        return []
    from .programs import WriteSpec, built_words, parse_argv
    from .steps import chosen_elsewhere

    import re

    takes_value = runner.value_options | runner.walk_options | runner.stdin_files | runner.coded_options
    argv = parse_argv(command.words, command.values(), WriteSpec(value_options=takes_value))
    attached = runner.value_options | runner.attached_options  # not a code option's: `make -f"$X"` (review 30c)
    built = [
        word for word in built_words(argv, lambda word: chosen_elsewhere(word, command.state))
        # an option that takes a value, written out with its value only known at run time (`make -j"$(nproc)"`,
        # `--jobs="$N"`), is that option; not a flag's cluster (`make -k"$X"`, X=`E…`) nor an abbreviation
        # (`make --ev="$X"`: review 30b)
        if not (re.match(r"-[A-Za-z0-9]", word.raw) and word.raw[:2] in attached or word.raw.partition("=")[0] in attached and "=" in word.raw)
    ]
    return [f"`{command.name}` is given {built[0].raw}, only known at run time, which may be one of its options that run code"] if built else []


def _takes_next(previous: str | None, runner: CodeRunner) -> bool:
    """Whether the word after `previous` is its option's value: a value option alone, or ending a cluster of flags."""
    if previous is None or not previous.startswith("-") or previous.startswith("--") or "=" in previous:
        return previous in runner.value_options
    values = runner.value_options - runner.cluster_flags  # tmux's -l is a flag in a cluster (h-shell34: `tmux -lL s -c CMD`)
    return previous in runner.value_options or (len(previous) > 2 and "-" + previous[-1] in values and all("-" + c not in values for c in previous[1:-1]))


def env_code(command: ShellCommand, runner: CodeRunner) -> list[str]:
    """The shell code the program runs from its `walk_env` variables (those known), as `walked_code` gives it."""
    codes: list[str] = []
    for variable in runner.walk_env:
        given, value = command.env(variable)
        if given and value is not None and value.strip():
            codes.append(value.lstrip().lstrip("|"))
    return codes


def walked_code(command: ShellCommand, runner: CodeRunner) -> tuple[list[tuple[str, int]], list[str]]:
    """(shell code, offset) the program runs from its `walk_options` and `walk_env`, and why some cannot be walked."""
    name = command.name
    scripts: list[tuple[str, int]] = []
    reasons: list[str] = []
    for variable in runner.walk_env:
        given, value = command.named_env(variable)  # an unnamed one: `opaque_code` says it once
        if not given:
            continue
        if value is None:
            reasons.append(f"`{name}` runs the command in ${variable}, only known at run time")
        elif value.strip():
            scripts.append((value.lstrip().lstrip("|"), command.span[0]))
    words = command.words
    values = command.values()
    for i, value in enumerate(values[1:], start=1):
        if value is None:
            continue
        option, eq, attached = value.partition("=")
        option = _unabbreviated(option, runner)  # `split --fil=CMD`, `man --pag=CMD`
        if not eq and len(value) > 2 and value[0] == "-" and value[1] != "-" and value[:2] in runner.walk_options:
            option, eq, attached = value[:2], "=", value[2:]
        elif runner.short_clusters and len(value) > 2 and value[0] == "-" and value[1] != "-":
            for k in range(2, len(value)):  # a cluster of flags before it (h-run32: `man -aP sh`, `man -lPsh`)
                if "-" + value[k] in runner.walk_options:
                    option, eq, attached = "-" + value[k], "", ""
                    if value[k + 1:]:
                        eq, attached = "=", value[k + 1:]
                    break
                if "-" + value[k] in runner.value_options:
                    break
        if option not in runner.walk_options:
            continue
        code = attached if eq else (values[i + 1] if i + 1 < len(values) else None)
        word = words[i] if eq else (words[i + 1] if i + 1 < len(words) else words[i])
        if code is None:
            reasons.append(f"`{name} {option}` runs a command only known at run time")
        else:
            prelude = _split_file(command) if name == "split" else ""
            at = word.raw.find(code)  # where the code's text starts in the word (after `--filter=` and a quote)
            scripts.append((prelude + code, word.span[0] + max(at, 0) - len(prelude)))
    return scripts, reasons


def _split_file(command: ShellCommand) -> str:
    """split runs `--filter`'s command with $FILE set to each output's name, its prefix (the second operand, `x` by
    default) and a suffix: walked after `FILE=<prefix>aa; ` (the corpora's `split --filter='gzip > $FILE.gz'`);
    nothing when the prefix is only known at run time."""
    import shlex

    from .programs import BUILTIN_WRITERS, parse_argv

    operands = parse_argv(command.words, command.values(), BUILTIN_WRITERS["split"]).operands
    prefix = operands[1][1] if len(operands) > 1 else "x"
    return "" if prefix is None else f"FILE={shlex.quote(prefix + 'aa')}; "


def run_argv(command: ShellCommand, runner: CodeRunner) -> tuple[list[list[Word]], int] | None:
    """The argv(s) the program runs (`fd -x cmd {}` → [cmd, <unknown>]), each placeholder an unknown word (a
    found path), and how many words before the first are the program's own; None when it runs none."""
    from .ast import Word as WordNode

    words = command.words
    values = command.values()
    runs: list[list[Word]] = []
    own: int | None = None
    i = 1
    while i < len(values):
        attached = _attached_argv_value(values[i], runner)
        if attached is None:
            i += 1
            continue
        own = i if own is None else own
        j = i + 1
        argv: list[Word] = []
        if attached:
            # clap: a value attached to its option (`--exec=rm`, `-Hxrm`) is its only one; the words after it are
            # fd's own (review 33a: `fd --exec=rm . <main>` removes what it finds there)
            argv.append(WordNode(raw=attached, span=words[i].span, value=attached, substitutions=[]))
        while not attached and j < len(values) and values[j] != ";":
            argv.append(words[j])
            j += 1
        placed = False
        for k, word in enumerate(argv):
            if word.value is not None and any(p in word.value for p in runner.placeholders):
                argv[k] = WordNode(raw=word.raw, span=word.span, value=None, substitutions=word.substitutions)
                placed = True
        if argv and not placed:
            argv.append(WordNode(raw="{}", span=argv[-1].span, value=None, substitutions=[]))
        if argv:
            runs.append(argv)
        i = j + 1
    return (runs, own) if own is not None else None


def _attached_argv_value(value: str | None, runner: CodeRunner) -> str | None:
    """For one of `argv_options` (`-x`): "" alone, its attached value given with `=` (`--exec=rm`, `-x=rm`) or, for a
    cluster of short flags ending in one (`-Hx`, `-Hxrm`), what follows that letter; None for any other word."""
    if value is None:
        return None
    if value in runner.argv_options:
        return ""
    option, eq, rest = value.partition("=")
    if eq and option in runner.argv_options:
        return rest or None  # `--exec=` gives an empty program: fd refuses it
    if not runner.short_clusters or len(value) < 3 or value[0] != "-" or value[1] == "-":
        return None
    for k in range(1, len(value)):
        letter = "-" + value[k]
        if letter in runner.argv_options:
            rest = value[k + 1:]
            return rest[1:] if rest.startswith("=") else rest  # clap drops the `=` of `-Hx=rm` (review 33b)
        if letter in runner.value_options:
            return None
    return None


def _subcommand_command(command: ShellCommand, at: int, runner: CodeRunner) -> tuple[str, int, str | None] | None:
    """(shell code, offset, cwd) of the command the verb at `at` runs ("" when none); None when only known at run time."""
    import os

    words = command.words
    values = command.values()
    verb = _verb(values[at] or "", runner) if at in _verb_positions(values, runner) else values[at]
    cwd = command.cwd if verb in runner.here_subcommands else None
    letters_of = dict(runner.verb_values)
    takes_value = frozenset("-" + letter for letter in letters_of[verb]) if verb in letters_of else runner.value_options
    chdir_of = dict(runner.verb_chdir)
    chdir_options = frozenset({chdir_of[verb]}) if verb in chdir_of else runner.chdir_options
    flags_of = dict(runner.verb_flags)
    i = at + 1
    while i < len(values):
        value = values[i]
        if value is None:
            return None
        if value == ";":
            return "", 0, cwd
        if value == "--":
            i += 1  # getopt's end of options: what follows is the command, whatever it starts with
            break
        if value.startswith("-") and len(value) > 1:
            letters = [k for k, letter in enumerate(value[1:], start=1) if "-" + letter in takes_value]
            flags = value[1:letters[0]] if letters else value[1:]
            if verb in flags_of and any(letter not in flags_of[verb] for letter in flags):
                # a letter this verb does not take in tmux 3.3a: another version may give it a value, and then the
                # word after it is that value, not the command (review 35's residual risk, as `splitw -p 50 CMD`)
                return None
            takes_next = bool(letters) and letters[0] == len(value) - 1  # `-ds NAME`; `-sNAME` holds its value
            if letters and "-" + value[letters[0]] in chdir_options:
                given = values[i + 1] if takes_next and i + 1 < len(values) else (value[letters[0] + 1:] or None)
                # a format (`#{pane_current_path}`, review 34b) names a directory only known at run time
                # (any `#`: tmux expands `#H`, `#T`… too; review 35b: `-c '#H'` ran in the session's directory)
                cwd = None if given is None or "#" in given or (command.cwd is None and not given.startswith("/")) else os.path.join(command.cwd or "/", given)
            i += 2 if takes_next else 1
            continue
        break
    rest: list[str] = []
    for word_value in values[i:]:
        if word_value == ";":
            break
        if word_value is None:
            return None
        rest.append(word_value)
    if not rest:
        return "", 0, cwd
    # one word is a shell command line; more are a program and its arguments, run with no shell (review 34c:
    # `tmux new -d bash -c 'eval "$1"' '#' CMD` ran CMD): quoted, so that the walk reads them as tmux runs them
    return (rest[0] if len(rest) == 1 else shlex.join(rest)), words[i].span[0], cwd


def subcommand_scripts(command: ShellCommand, runner: CodeRunner) -> list[tuple[str, int, str | None]]:
    """The commands `command_subcommands` run (`tmux new -d 'make test'`), to walk."""
    found = []
    values = command.values()
    verbs_at = _verb_positions(values, runner)
    for i, value in enumerate(values[1:], start=1):
        if value is not None and (_verb(value, runner) if i in verbs_at else value) in runner.command_subcommands:
            script = _subcommand_command(command, i, runner)
            if script is not None and script[0]:
                found.append(script)
    return found
