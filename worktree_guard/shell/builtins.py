"""What bash builtins do to the simulated state: cd/pushd/popd, assignments, export, unset, source (SPEC §5.2).

Shell semantics only: whether a directory is allowed is the cd rule's business (rules/cd.py), which asks
`directory_change` here for the same answer the walker uses to move the state.
"""

from __future__ import annotations

import os

from ..fast_dataclass import fast_dataclass
from ..paths import canonical
from .ast import Word
from .state import ShellState
from .steps import BASH_BUILTINS, ShellCommand, word_value
from .words import ASSIGNMENT_PREFIX

DIRECTORY_BUILTINS = ("cd", "pushd", "popd")
DECLARING_BUILTINS = ("export", "declare", "typeset", "local", "readonly")
# Builtins that set a variable to something only known at run time.
READING_BUILTINS = ("read", "mapfile", "readarray", "getopts")


@fast_dataclass(frozen=True, slots=True)
class DirectoryChange:
    """Where a cd/pushd/popd goes. `physical` and `logical` are None when the target is not static;
    `reason` then says why. `moves` is False when the builtin leaves the directory alone (`cd ''`, `pushd -n`)."""

    word: Word | None
    written: str | None
    physical: str | None
    logical: str | None
    reason: str = ""
    moves: bool = True
    #: The target was not a directory the shell could enter when the command was checked, or the command wrote at
    #: or above it before: bash may refuse the cd and stay where it is.
    may_fail: bool = False
    #: Where the kernel's reading of the path goes, when it is not where bash's logical one does (`link/..`): bash
    #: falls back to it when the logical path breaks by the time the cd runs, and $PWD is then getcwd().
    kernel: str | None = None
    #: Whether $PWD after the cd is known: not when the cd is relative and $PWD was not (review 26a: after a merge of
    #: `cd deep` and `cd src/a/b/c/d`, `cd .` took the physical directory for $PWD).
    pwd_known: bool = True

    @property
    def static(self) -> bool:
        return self.physical is not None


def _split_options(values: list[str | None], allowed: str) -> tuple[list[str], int]:
    """Leading single-letter options of a builtin (`-LP`), up to `--`; returns them and the index of the first operand."""
    options: list[str] = []
    i = 1
    while i < len(values):
        value = values[i]
        if value == "--":
            return options, i + 1
        if value is None or not value.startswith("-") or value == "-" or len(value) < 2:
            break
        if not set(value[1:]) <= set(allowed):
            break
        options.extend(value[1:])
        i += 1
    return options, i


def _after_double_dash(values: list[str | None], first: int) -> bool:
    """Whether the operand at `first` follows `--` (then a leading `-` or `+` is part of a directory name)."""
    return first > 1 and values[first - 1] == "--"


#: Options after which `cd NAME` may go somewhere NAME does not name (`cdable_vars` tries $NAME).
CD_OPTIONS = frozenset({"cdable_vars", "autocd", "cdspell", "dirspell", "direxpand", "*"})


def _resolve(step: ShellCommand, target: str, word: Word | None, written: str, physical_only: bool) -> DirectoryChange:
    """Where the cd goes, as bash 5.2's does: `-P` (`physical_only`) resolves the target from the physical directory
    as the kernel does. Without it, a relative target is joined to $PWD and its `..` removed as text (`cd link; cd ..`
    goes back to where `link` is); that logical path is used when each directory before a `..` and the end exist,
    else the joined path as the kernel reads it (bash's fallback). $PWD becomes the logical path."""
    state = step.state
    cwd = state.cwd
    if not target.startswith("/"):
        if state.options & CD_OPTIONS:
            option = sorted(state.options & CD_OPTIONS)[0]
            return DirectoryChange(word, written, None, None, f"the shell option {option} set earlier may send it elsewhere")
        if cwd is None:
            return DirectoryChange(word, written, None, None, "the directory it is relative to is not known")
        cdpath_set, cdpath = step.env("CDPATH")
        if cdpath_set and cdpath != "" and not target.startswith(("./", "../")) and target not in (".", ".."):
            why = "CDPATH is set" if step.names("CDPATH") else "CDPATH may be set (a step before assigned names only known at run time)"
            return DirectoryChange(word, written, None, None, f"{why}, so the target depends on it (`cd ./{target}` does not read it)")
        base = cwd if physical_only else state.logical()
        if base is None:
            if ".." in target.split("/"):
                return DirectoryChange(word, written, None, None, "bash climbs `..` from the logical directory ($PWD), which is not known here")
            kernel = canonical(os.path.join(cwd, target), "/", step.home)
            return DirectoryChange(word, written, kernel, kernel, may_fail=_may_fail(state, kernel), pwd_known=False)
        target = os.path.join(base, target)
    kernel = canonical(target, "/", step.home)
    if physical_only:
        return DirectoryChange(word, written, kernel, kernel, may_fail=_may_fail(state, kernel))
    logical = os.path.normpath(target)
    if logical.startswith("//"):
        logical = "/" + logical.lstrip("/")
    physical = canonical(logical, "/", step.home)
    if physical == kernel:
        return DirectoryChange(word, written, physical, logical, may_fail=not _canonicalizes(target) or _may_fail(state, physical))
    if state.options & {"physical", "*"}:
        return DirectoryChange(word, written, None, None, "`set -P` (physical) may be in force, and the target differs read logically and physically")
    # The two readings differ (a link before a `..`): bash takes the logical one if it still works when the cd runs,
    # else the kernel's, and in POSIX mode (`sh`, `set -o posix`) refuses the cd. All three are followed: whether the
    # logical path still works then is not known here (the command may remove the link first: review 26a).
    return DirectoryChange(word, written, physical, logical, may_fail=True, kernel=kernel)


def _canonicalizes(path: str) -> bool:
    """Whether bash's cd can use the logical form of absolute `path`: every directory a `..` climbs out of is one,
    and so is the end (bash's `sh_canonpath` with PATH_CHECKDOTDOT and PATH_CHECKEXISTS)."""
    parts: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not os.path.isdir("/" + "/".join(parts)):
                return False
            if parts:
                parts.pop()
            continue
        parts.append(part)
    return os.path.isdir("/" + "/".join(parts))


def _may_fail(state: ShellState, physical: str) -> bool:
    """Whether a cd to `physical` may be refused: it is not a directory the shell can enter now, or the command
    wrote at or above it before (`rm -rf a; cd a/b`), or somewhere only known at run time."""
    if not os.path.isdir(physical) or not os.access(physical, os.X_OK):
        return True
    return written_at_or_above(state, physical)


def written_at_or_above(state: ShellState, physical: str) -> bool:
    """The command wrote `physical` or a directory above it before (`rm -rf a; cd a/b`), or somewhere only known at
    run time: it may not be there when the command reaches it."""
    return at_or_above(state.written, physical)


def at_or_above(written: list[str | None], physical: str) -> bool:
    """One of the canonical paths `written` is `physical` or a directory above it, or only known at run time (None)."""
    return any(path is None or path == "/" or physical == path or physical.startswith(path + "/") for path in written)


def directory_change(step: ShellCommand) -> DirectoryChange | None:
    """The directory a cd/pushd/popd would change to; None when the command is none of them."""
    name = step.name
    if name not in DIRECTORY_BUILTINS or step.value(step.words[0]) != name:
        return None
    values = step.values()
    state = step.state
    if state.is_disabled(name):
        word = step.words[1] if len(step.words) > 1 else None
        return DirectoryChange(word, word.raw if word else name, None, None, f"`enable -n` may have turned the builtin {name} off: it may not move")
    if name == "cd":
        options, first = _split_options(values, "LPe@")
        operands = step.words[first:]
        if not operands:
            home = state.lookup("HOME") or step.home
            return _resolve(step, home, None, "~", "P" in options)
        word = operands[0]
        value = values[first]
        if value is None:
            return DirectoryChange(word, word.raw, None, None, f"the target {word.raw!r} is only known at run time")
        if value.startswith("-") and value != "-" and not _after_double_dash(values, first):
            # bash refuses an option its cd does not take (`cd -x d`: exit 2, no move); another shell may take it.
            return DirectoryChange(word, word.raw, None, None, f"bash's cd takes no option {value!r}, another shell may")
        if len(operands) > 1:
            # bash 5.2 refuses it and stays (`cd a b`: too many arguments); zsh replaces a in $PWD by b. Taking the
            # first as the target put the guard one directory deeper than the shell (`X='src b'; cd $X; cd ..`).
            return DirectoryChange(word, word.raw, None, None, "bash refuses a cd given more than one directory and stays where it is (zsh would go elsewhere)")
        if value == "":
            return DirectoryChange(word, "", None, None, moves=False)
        if value == "-":
            if state.oldpwd is None:
                return DirectoryChange(word, "-", None, None, "`cd -` goes to OLDPWD, which is not known here")
            return _resolve(step, state.oldpwd, word, "-", "P" in options)
        return _resolve(step, value, word, word.raw, "P" in options)
    if name == "pushd":
        options, first = _split_options(values, "n")
        operands = step.words[first:]
        if "n" in options:
            return DirectoryChange(operands[0] if operands else None, None, None, None, moves=False)
        if not operands:
            top = state.dirstack[0] if state.dirstack else None
            if top is None:
                return DirectoryChange(None, "pushd", None, None, "`pushd` swaps with a stack entry that is not known here")
            return _resolve(step, top, None, "pushd", False)
        word, value = operands[0], values[first]
        if len(operands) > 1:
            return DirectoryChange(word, word.raw, None, None, "bash refuses a pushd given more than one directory and stays where it is")
        # `pushd ±N` rotates the stack, `pushd -` goes to OLDPWD, anything else after + or - is refused by bash.
        if value is None or value[:1] in ("+", "-") and not _after_double_dash(values, first):
            return DirectoryChange(word, word.raw, None, None, f"the target {word.raw!r} is only known at run time")
        return _resolve(step, value, word, word.raw, False)
    # popd
    options, first = _split_options(values, "n")
    if "n" in options:
        return DirectoryChange(None, None, None, None, moves=False)
    if step.words[first:]:
        return DirectoryChange(step.words[first], step.words[first].raw, None, None, "`popd ±N` picks a stack entry not known here")
    top = state.dirstack[0] if state.dirstack else None
    if top is None:
        return DirectoryChange(None, "popd", None, None, "`popd` returns to a directory stack entry that is not known here")
    return _resolve(step, top, None, "popd", False)


def apply_builtin(step: ShellCommand) -> None:
    """Change the state as the command would: assignments, directory changes, declarations, source."""
    state = step.state
    if not step.words:
        for assignment in step.assignments:
            state.assign(assignment.name, word_value(assignment.value, state, step.home), assignment.append)
        return
    name = step.name
    if name is None:
        # A computed command name may be any builtin (`$(printf cd) dir`, `$x declare d=..`): what it changed in
        # this shell is not followed, so the directory and every variable become unknown (SPEC §5.2).
        state.forget()
        return
    if step.value(step.words[0]) != name:
        return  # `/bin/cd` or `./cd` is not the builtin
    if state.is_disabled(name) and name in BASH_BUILTINS:
        # `enable -n NAME`: a program of that name runs, or none: whether the builtin's change happened is not known
        state.forget()
        forget_positional(state)
        return
    if name == "enable":
        _enable(step)
    elif name == "dirs":
        values = step.values()
        if None in values or any(v.startswith("-") and "c" in v[1:] for v in values[1:] if v):  # type: ignore[union-attr]
            state.dirstack = []  # `dirs -c` empties the stack: a popd after it fails and stays (not followed: WG202)
    elif name in DIRECTORY_BUILTINS:
        change = directory_change(step)
        if change is None:
            return
        if not change.moves:
            if name in ("pushd", "popd"):
                # `pushd -n dir` / `popd -n` edit the stack without moving: what it holds is no longer followed.
                state.dirstack = [None] * (len(state.dirstack) + 1)
            return
        previous = state.logical()  # the stack holds $PWD: not known when it was not (a popd to it is then WG202)
        fallback = state.copy() if change.kernel is not None else None
        state.chdir(change.physical, change.logical if change.pwd_known else None)
        if fallback is not None:
            fallback.chdir(change.kernel, change.kernel)  # bash's fallback: $PWD is getcwd() there
            state.merge([fallback])
        state.cd_may_fail = change.may_fail
        if name == "pushd":
            state.dirstack.insert(0, previous)
        elif name == "popd" and state.dirstack:
            state.dirstack.pop(0)
    elif name in DECLARING_BUILTINS:
        _declare(step)
    elif name == "unset":
        _unset(step)
    elif name in READING_BUILTINS or (name == "printf" and any(v == "-v" or (v is None and w.raw.startswith("-v")) for v, w in zip(step.values(), step.words))):
        values = step.values()
        if _names_unknown(step, values):
            state.forget_names()  # `read "$N"`, `printf -v "$N"`: a name only known at run time (IFS among them)
        for value in values[1:]:
            if value and not value.startswith("-") and value.partition("[")[0].replace("_", "a").isalnum():
                state.assign(value, None)
    elif name in ("source", "."):
        # The script may cd anywhere and set any variable: what follows runs somewhere unknown, with unknown values.
        state.forget()
        forget_positional(state)
    elif name == "shopt":
        values = step.values()
        letters, names, unknown = shopt_words(values)
        if unknown:
            state.lastpipe = None  # `shopt -s $opt`: lastpipe may have been turned on or off
        elif "lastpipe" in names and "o" not in letters and ("s" in letters or "u" in letters):
            state.lastpipe = "s" in letters  # `shopt -qs lastpipe` too (review 23b: only a lone `-s` was read)
        state.options |= shopt_options(values)
    elif name == "set":
        values = step.values()
        state.options |= set_options(values)
        if len(values) > 1 and (None in values or any(v is not None and not v.startswith(("-", "+")) or v in ("--", "-") for v in values[1:])):
            forget_positional(state)  # `set -- a b` / `set x`: new positional parameters
    elif name == "shift":
        forget_positional(state)
    elif name == "hash":
        _hash(step)


#: Positional parameters as the state holds them while a function's body is walked.
POSITIONAL_NAMES = ("#", "*")


def forget_positional(state: ShellState) -> None:
    """`shift`, `set -- …`, `source f args`: the positional parameters are no longer followed."""
    state.positional = None
    for key in list(state.variables):
        if key.isdigit() or key in POSITIONAL_NAMES:
            state.variables[key] = None


def _literal_name(raw: str) -> bool:
    """Whether a word starts with a variable's name written out (`X`, `X=$Y`, `a[$i]=1`)."""
    return bool(ASSIGNMENT_PREFIX.match(raw)) or _is_name(raw)


def _names_unknown(step: ShellCommand, values: list[str | None]) -> bool:
    """Whether `read`, `mapfile`, `getopts` or `printf -v` may assign a name only known at run time: for printf the
    word after `-v`; for the others any word only known at run time that is not an option's value."""
    words = step.words
    if step.name == "printf":
        return any((values[i - 1] == "-v" and values[i] is None) or (values[i] is None and words[i].raw.startswith("-v")) for i in range(1, len(values)))
    # `read -a NAME` (`-ra NAME`): the option's value is the array's name (review 32a: `read -ra "$(cat n)"` set CDPATH)
    return any(values[i] is None and not _literal_name(words[i].raw) and (not (values[i - 1] or "").startswith("-") or (step.name == "read" and _array_name_option(values[i - 1]))) for i in range(1, len(values)))


def _array_name_option(value: str | None) -> bool:
    """Whether a word of `read` is an option cluster whose last option is `-a`, so that the next word is a name."""
    return value is not None and value.startswith("-") and not value.startswith("--") and value.endswith("a") and value[1:].isalpha()


def _is_name(text: str) -> bool:
    return bool(text) and not text[0].isdigit() and text.replace("_", "a").isalnum()


def _declare(step: ShellCommand) -> None:
    """export/declare/typeset/local/readonly: values, attributes (-n, -r, -i/-l/-u), and function-local scope."""
    state = step.state
    name = step.name
    values = [word_value(word, state, step.home) for word in step.words[1:]]
    options: set[str] = set()
    removed: set[str] = set()
    unknown = False
    for value in values:
        if value is None:
            unknown = True  # an option or a name only known at run time (`declare $opt x=1`)
        elif value[:1] in ("-", "+") and len(value) > 1 and "=" not in value:
            options |= set(value[1:]) if value[0] == "-" else set()
            removed |= set(value[1:]) if value[0] == "+" else set()
    if any(value is None and not _literal_name(word.raw) for word, value in zip(step.words[1:], values)):
        state.forget_names()  # `declare "$N=…"`; not `export X=$Y`, whose name is written out
    if "f" in options or "F" in options or "p" in options:
        return  # functions, or printing
    frames = state.local_frames
    if name == "local" and not frames:
        return  # bash refuses `local` outside a function: nothing is assigned
    local = bool(frames) and name in ("local", "declare", "typeset") and "g" not in options
    for word, value in zip(step.words[1:], values):
        text = value if value is not None else word.raw
        variable, eq, rest = text.partition("=")
        append = variable.endswith("+")
        variable = variable.removesuffix("+")
        if variable[:1] in ("-", "+") or not _is_name(variable.partition("[")[0]):
            continue
        if local:
            frames[-1].add(variable)
            if not eq and variable not in state.readonly:
                # `local X`: a new variable of this call, unset until assigned (`${X-d}` is d).
                state.variables.pop(variable, None)
                state.unset.add(variable)
        if "n" in options or unknown:
            # `declare -n r=X`: assigning r assigns X (SPEC §5.2: the target, or every variable, becomes unknown).
            target = rest if eq and value is not None and _is_name(rest) and not unknown else None
            state.namerefs[variable] = target
            state.variables[variable] = None
            state.unset.discard(variable)
            continue
        if options & {"i", "l", "u"}:
            state.transformed.add(variable)
        if eq:
            state.assign(variable, rest if value is not None else None, append)
        if "r" in options or name == "readonly":
            state.readonly.add(variable)
        if name == "export" or "x" in options:
            state.exported.add(variable)
        if variable == "PWD" and "x" in removed:
            state.variables["PWD"] = None  # `declare +x PWD`: a child bash takes getcwd(), not $PWD (review 26a)


def _enable(step: ShellCommand) -> None:
    """`enable -n NAME…` turns builtins off, `enable NAME…` on again; `-f FILE NAME` loads one from a shared object
    (not read: the name may then do anything). A word only known at run time may turn off any of them."""
    state = step.state
    values = step.values()
    letters: set[str] = set()
    names: list[str] = []
    for value in values[1:]:
        if value is None:
            state.disabled.add("*")
            return
        if value.startswith("-") and len(value) > 1 and not names:
            letters |= set(value[1:])
            continue
        names.append(value)
    if "n" in letters or "f" in letters or "d" in letters:
        state.disabled.update(names)
    elif not letters & {"a", "p", "s"}:
        state.disabled.difference_update(names)


def _unset(step: ShellCommand) -> None:
    """`unset [-fvn] NAME…`: a readonly name stays; `-f` removes a function, not the variable; a name local to
    a calling function reveals an older value, which is not known."""
    state = step.state
    values = step.values()
    options: set[str] = set()
    i = 1
    while i < len(values) and values[i] is not None and values[i].startswith("-") and len(values[i]) > 1:  # type: ignore[union-attr]
        if values[i] == "--":
            i += 1
            break
        options |= set(values[i][1:])  # type: ignore[index]
        i += 1
    frames = state.local_frames
    for value in values[i:]:
        if value is None:
            state.forget_variables()  # which name is unset is only known at run time
            return
        if "f" in options:
            state.functions.pop(value, None)
            continue
        base, bracket, _ = value.partition("[")
        if base in state.readonly:
            continue  # bash refuses to unset it
        if base in state.namerefs:
            if "n" in options:
                del state.namerefs[base]
            else:
                state.assign(base, None)  # unsets the variable it stands for
                continue
        if bracket:
            state.assign(value, None)  # one element: `$NAME` or the stack is no longer followed
            continue
        if frames and base not in frames[-1] and any(base in frame for frame in frames[:-1]):
            state.assign(base, None)  # a caller's local: unsetting it reveals a value further out
            continue
        if "v" not in options and state.variables.get(base) is None:
            state.functions.pop(base, None)  # with no variable of that name, `unset NAME` removes the function
        state.variables.pop(base, None)
        state.exported.discard(base)
        state.unset.add(base)
        if base == "DIRSTACK":
            state.forget_dirstack()


def _hash(step: ShellCommand) -> None:
    """`hash -p PATH NAME`: NAME runs PATH from now on; `hash -r` forgets every such name, `-d NAME` one."""
    state = step.state
    values = step.values()
    path: str | None = ""
    i = 1
    while i < len(values):
        value = values[i]
        if value is None:
            state.hashed["*"] = None
            return
        if value == "--":
            i += 1
            break
        if not value.startswith("-") or value == "-":
            break
        if value == "-r":
            state.hashed.clear()
        elif "p" in value:
            rest = value[value.index("p") + 1:]
            path = rest or (values[i + 1] if i + 1 < len(values) else "")
            i += 0 if rest else 1
        elif "d" in value:
            for name in values[i + 1:]:
                if name is None:
                    state.hashed["*"] = None
                    return
                state.hashed.pop(name, None)
            return
        i += 1
    if path == "":
        return
    for name in values[i:]:
        if name is None:
            state.hashed["*"] = None
            return
        state.hashed[name] = path


#: shopt options that change how later words resolve when set (SPEC §5.2 "shell options"): where `cd NAME`
#: goes, what a glob matches, whether a command name is an alias.
SHOPT_ON = frozenset({
    "cdable_vars", "autocd", "cdspell", "dirspell", "direxpand", "expand_aliases",
    "dotglob", "nullglob", "failglob", "globstar", "nocaseglob", "extglob", "globasciiranges",
    "extdebug",  # subshells keep the ERR, DEBUG and RETURN traps (walk.INHERITED_TRAP_OPTIONS)
})
#: …and those that do when unset (bash 5.2's `.*` matches `..` without globskipdots).
SHOPT_OFF = frozenset({"globskipdots"})
#: `set -o` names and letters that matter: no globbing, assignments anywhere in the line, no brace expansion.
SET_LETTERS = {"f": "noglob", "k": "keyword", "P": "physical", "E": "errtrace", "T": "functrace"}
SET_NAMES = frozenset({"noglob", "keyword", "physical", "errtrace", "functrace"})


def shopt_words(values: list[str | None]) -> tuple[set[str], list[str], bool]:
    """A `shopt` line read as bash reads it: the letters of its options (`-qs` is `-q -s`), the option names, and
    whether a word is only known at run time."""
    if any(v is None for v in values[1:]):
        return set(), [], True
    letters: set[str] = set()
    names: list[str] = []
    ended = False  # after `--` every word is a name: `shopt -- -s lastpipe` sets nothing (phase 13's run of builtins)
    for value in values[1:]:
        if value == "--" and not ended and not names:
            ended = True
        elif value and value.startswith("-") and not names and not ended:
            letters.update(value[1:])
        else:
            names.append(value)  # type: ignore[arg-type]
    return letters, names, False


def shopt_options(values: list[str | None]) -> set[str]:
    """The options that matter a `shopt` line turns on (or, for SHOPT_OFF, off); "*" when it cannot be read."""
    letters, names, unknown = shopt_words(values)
    if unknown:
        return {"*"}
    if "o" in letters:
        return {"*"} if "s" in letters or "u" in letters else set()  # `shopt -os x` is `set -o x`
    if "s" in letters:
        return {n for n in names if n in SHOPT_ON}
    if "u" in letters:
        return {n for n in names if n in SHOPT_OFF}
    return set()


def set_options(values: list[str | None]) -> set[str]:
    """The options that matter a `set` line changes: `-f`, `-k`, `-o noglob`, `+B`, `+o braceexpand`."""
    found: set[str] = set()
    i = 1
    while i < len(values):
        value = values[i]
        if value is None:
            return {"*"}
        if value in ("--", "-"):
            break
        if value in ("-o", "+o"):
            option = values[i + 1] if i + 1 < len(values) else ""
            if option is None:
                return {"*"}
            if value == "-o" and option in SET_NAMES:
                found.add(option)
            elif value == "+o" and option == "braceexpand":
                found.add("+braceexpand")
            i += 2
            continue
        if value[:1] == "-" and len(value) > 1:
            found |= {SET_LETTERS[c] for c in value[1:] if c in SET_LETTERS}
        elif value[:1] == "+" and "B" in value[1:]:
            found.add("+braceexpand")
        elif value[:1] not in "-+":
            break  # positional parameters
        i += 1
    return found
