"""Values bash runs as code while it expands a word or looks a variable name up: `eval` without `eval`.

Measured with bash 5.2 (docs/bash.md, "Values run as code"):

- `${x@P}` expands x's value as a prompt string: its escapes are decoded (`\\044` and `\\444` are `$`, `\\[` is
  nothing), then the result is expanded like a double-quoted string, command substitutions included (`promptvars`
  is on by default). No other transformation (`@Q @E @A @a @K @k @U @u @L`) expands its result again.
- Arithmetic evaluates a variable's value as an expression, and a subscript in that expression is expanded: with
  `x='a[$(cmd)]'`, `$((x))`, `$(( $x ))`, `((x))`, `let x`, `$[x]`, `[[ x -eq 1 ]]`, `${s:x}`, `${b[x]}`, `b[x]=1`
  and a `declare -i` variable assigned `x` all run cmd. Inside `$((…))`, `((…))`, a subscript or an offset, single
  quotes do not keep `$(…)` literal: `$(( '$(cmd)' ))` and `${b['$(cmd)']}` run cmd.
- A variable name with a subscript is expanded where bash looks the name up: `${!x}` (x holding `a[$(cmd)]`),
  `printf -v`, `read`, `declare`/`typeset`/`local`, `test -v`/`[ -v`, `unset`, `wait -p`; and `declare -a/-A`
  evaluates a value `(…)` given as a string (`declare -a a="$v"`) as an array assignment.

Each finding is text to walk where bash runs it: the body of an unquoted heredoc, which bash expands as it expands a
prompt string or a subscript (parameters, command substitutions, arithmetic; quotes stay literal). So a harmless
value passes and an escaping one is judged as the command in it would be. Where the value, or the name, is only
known at run time, the finding has no script and the walker reports it, as `eval "$x"` is reported. Arithmetic on a
value only known at run time is not reported: `$((n + 1))` with n from `$(wc -l …)` is ordinary shell, and refusing
it would refuse every counter (a documented gap).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..fast_dataclass import fast_dataclass
from .ast import Word
from .steps import word_value
from .words import ASSIGNMENT_PREFIX, UNSET, _closing, has_code

if TYPE_CHECKING:
    from .ast import Command, Compound, Span
    from .state import ShellState
    from .steps import ShellCommand


@fast_dataclass(frozen=True, slots=True)
class Evaluated:
    """Code bash runs while expanding: `script` is shell code to walk in a subshell where it runs; None when the
    text is only known at run time, and `reason` then says what runs it."""

    script: str | None
    span: Span
    reason: str = ""


#: Variables bash expands as prompt strings where an agent's command can make it, judged here: PS4 before each
#: command `set -x` traces (in this shell, and in a child bash, which takes PS4 from its environment unless run as
#: root), PS0 in `bash -i` reading its input. An assignment is judged as `${PS4@P}` would be, whether or not tracing
#: is ever turned on. PS1, PS2 and PROMPT_COMMAND also run in `bash -i`/`sh -i` fed its input, without a terminal
#: (bash 5.2; an earlier test missed it because Debian's bash.bashrc resets PS1): a known gap (docs/bash.md).
PROMPTS = frozenset({"PS0", "PS4"})
#: Declaration builtins: their operands are names, `NAME[sub]=value` assignments included.
DECLARING = frozenset({"declare", "typeset", "local", "export", "readonly"})
#: Options of `read` that take a value (the next word, or the rest of the cluster).
_READ_VALUE_OPTIONS = frozenset("adinNptu")
#: Patterns are compiled at first use (re keeps them): most commands have no expansion that needs them.
_IDENTIFIER = r"[A-Za-z_][A-Za-z0-9_]*"
#: A parameter's name in `${…}`: a variable, a positional parameter, or a special parameter.
_PARAMETER_NAME = r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-]"
#: `$1`, `${12}`: a positional parameter in arithmetic text (its value, known inside a walked function call).
_POSITIONAL_IN_TEXT = r"\$([0-9])|\$\{([0-9]+)\}"
_DELIMITER = "WORKTREE_GUARD_EXPANDED"
#: Special parameters that hold no variable name (`${!#}` is the last positional parameter).
_NUMBERS_AND_FLAGS = frozenset("#?$!-@*")


def as_expanded(text: str) -> str:
    """Shell code that expands `text` as bash expands a prompt string or a subscript: an unquoted heredoc's body."""
    delimiter = _DELIMITER
    while delimiter in text:
        delimiter += "_"
    if text.endswith("\\"):
        text += " "  # a final backslash would join the delimiter line to the body
    return f": <<{delimiter}\n{text}\n{delimiter}\n"


# -- prompt strings -----------------------------------------------------------------------------------------

#: Prompt escapes that stand for text no command gives (user, host, time, counters, the shell's name and version,
#: and the cwd, which bash quotes): one harmless letter each. `\D{format}` is handled apart.
_PROMPT_VALUES = frozenset("dhHjlstTuvVwW@A!#")
_PROMPT_CHARACTERS = {"a": "\a", "e": "\x1b", "n": "\n", "r": "\r", "\\": "\\", "[": "", "]": "", "$": "\\$"}


def prompt_decoded(value: str) -> str:
    """`value` with bash's prompt escapes decoded, as `${x@P}` decodes them before it expands the result.

    `\\nnn` is the byte nnn modulo 256 (`\\044` and `\\444` are both `$`); `\\[`/`\\]` are nothing outside readline;
    `\\$` is `\\$` (for root `#`: either way no expansion); `\\w`, `\\D{…}` and the other values stand for text the
    command does not choose. An unknown escape keeps its backslash, as bash does.
    """
    out: list[str] = []
    i, n = 0, len(value)
    while i < n:
        c = value[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        escape = value[i + 1]
        if escape in "01234567":
            digits = escape
            while len(digits) < 3 and i + 1 + len(digits) < n and value[i + 1 + len(digits)] in "01234567":
                digits += value[i + 1 + len(digits)]
            out.append(chr(int(digits, 8) & 0xFF))
            i += 1 + len(digits)
        elif escape == "D" and value.startswith("{", i + 2) and "}" in value[i + 3:]:
            out.append("x")
            i = value.index("}", i + 3) + 1
        elif escape in _PROMPT_VALUES:
            out.append("x")
            i += 2
        elif escape in _PROMPT_CHARACTERS:
            out.append(_PROMPT_CHARACTERS[escape])
            i += 2
        else:
            out.append(c + escape)
            i += 2
    return "".join(out)


# -- the scan of a command's words --------------------------------------------------------------------------


def in_command(node: Command, state: ShellState, home: str) -> list[Evaluated]:
    """What the words, assignments, redirection targets and unquoted heredoc bodies of a simple command run."""
    found: list[Evaluated] = []
    for word in node.words:
        _scan(word.raw, state, word.span, found)
    for assignment in node.assignments:
        value = assignment.value
        _scan(value.raw, state, value.span, found)
        base, bracket, subscript = assignment.name.partition("[")
        if bracket:
            _names(subscript, state, assignment.span, found)  # `b[x]=1`: the subscript is arithmetic
        for subscript in _array_subscripts(value.raw):
            _arithmetic_text(subscript, state, value.span, found)  # `b=([x]=1)`, `b=(['$(cmd)']=1)`
        if base not in state.transformed and base not in PROMPTS:
            continue
        known = _assigned_value(value, state, home)  # `n=$x`: the value bash assigns
        if base in state.transformed and known is not None:
            _arithmetic_value(known, state, value.span, found)  # a `declare -i` variable assigned `x`
        if base in PROMPTS:
            _prompt(known if not assignment.append else None, f"`{base}`", value.span, found)
    for redirect in node.redirects:
        if redirect.target is not None:
            _scan(redirect.target.raw, state, redirect.target.span, found)
        if redirect.heredoc and not redirect.heredoc_quoted:
            _scan(redirect.heredoc, state, redirect.span, found, heredoc=True)
    return found


def _assigned_value(value: Word, state: ShellState, home: str) -> str | None:
    """The value an assignment gives, known variables substituted. Bash neither splits nor globs it, so a value
    without quotes, backslashes, tildes or command substitutions is read as if double-quoted (`n=$x` with x
    holding `a[$(cmd)]`, which the word reader leaves unknown because an unquoted word would be split there)."""
    raw = value.raw
    if value.value is None and not any(c in raw for c in "'\"\\`~") and "$(" not in raw:
        value = Word(raw=f'"{raw}"', span=value.span, value=None)
    return word_value(value, state, home)


def in_compound(node: Compound, state: ShellState) -> list[Evaluated]:
    """What the words of a compound command run: `for`/`case` words, and the operands of `[[ ]]`, `(( ))` and
    `for (( ))`. An operand of `(( ))` or of an arithmetic test in `[[ ]]` is arithmetic as written; any other
    operand of `[[ ]]` may still name a variable evaluated as arithmetic (`[[ -v $x ]]`)."""
    found: list[Evaluated] = []
    arithmetic = node.kind in ("arith", "arith_for")
    for word in node.words:
        if arithmetic:
            _arithmetic_text(word.raw, state, word.span, found)
            continue
        if any(word is operand for operand in node.arithmetic):
            _arithmetic_text(word.raw, state, word.span, found)  # `[[ 'a[$(cmd)]' -eq 1 ]]`, as in `(( ))`
            continue
        _scan(word.raw, state, word.span, found)
        if node.kind == "cond":
            _names(word.raw, state, word.span, found)
    return found


def _scan(raw: str, state: ShellState, span: Span, found: list[Evaluated], heredoc: bool = False) -> None:
    if "${" not in raw and "$((" not in raw and "$[" not in raw:
        return
    for kind, inner in _expansions(raw, heredoc):
        if kind == "parameter":
            _parameter(inner, state, span, found)
        else:
            _arithmetic_text(inner, state, span, found)


def _expansions(raw: str, heredoc: bool = False) -> Iterator[tuple[str, str]]:
    """The `${…}` ("parameter") and `$((…))`/`$[…]` ("arithmetic") expansions of raw text, with their inner text.

    Single-quoted and `$'…'` text is literal, except in a heredoc body, where quotes are plain characters. Command
    and process substitutions are skipped: the walker walks their commands with their own state.
    """
    i, n = 0, len(raw)
    double = heredoc
    while i < n:
        c = raw[i]
        if c == "\\":
            i += 2
            continue
        if c == "'" and not double:
            close = raw.find("'", i + 1)
            if close < 0:
                return
            i = close + 1
            continue
        if c == '"' and not heredoc:
            double = not double
            i += 1
            continue
        opener = raw[i + 1] if i + 1 < n else " "
        if c == "`" or (c in "<>" and opener == "(") or (c == "$" and (opener in "({" or (opener == "'" and not double))):
            close = _closing(raw, i)
            if close < 0:
                return
            if c == "$" and opener == "{":
                yield "parameter", raw[i + 2 : close - 1]
            elif c == "$" and raw.startswith("((", i + 1) and raw.endswith("))", 0, close):
                yield "arithmetic", raw[i + 3 : close - 2]
            i = close
            continue
        if c == "$" and opener == "[":
            close = _bracket_close(raw, i + 1)
            if close < 0:
                return
            yield "arithmetic", raw[i + 2 : close]
            i = close + 1
            continue
        i += 1


def _array_subscripts(raw: str) -> Iterator[str]:
    """The subscript of each `[index]=value` element of a compound array assignment `(…)` as written: arithmetic
    for an indexed array (an associative array's key is not evaluated again; where the walk cannot tell which the
    array is, it is judged as arithmetic). Quoted text between elements is skipped."""
    if not raw.startswith("("):
        return
    i, n = 1, len(raw)
    while i < n:
        c = raw[i]
        if c == "\\":
            i += 2
        elif c in "'\"":
            close = raw.find(c, i + 1)
            if close < 0:
                return
            i = close + 1
        elif c == "[" and raw[i - 1] in "( \t\n":
            close = _bracket_close(raw, i)
            if close < 0:
                return
            yield raw[i + 1 : close]
            i = close + 1
        else:
            i += 1


def _bracket_close(text: str, i: int) -> int:
    """The index of the `]` that closes the `[` at text[i] (nested brackets counted); -1 when none does."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "[":
            depth += 1
        elif text[j] == "]":
            depth -= 1
            if depth == 0:
                return j
    return -1


def _parameter(inner: str, state: ShellState, span: Span, found: list[Evaluated]) -> None:
    """One `${…}`: `@P`, an indirection, a subscript or an offset (arithmetic), and the expansions in its word."""
    indirect = inner.startswith("!") and len(inner) > 1
    body = inner[1:] if indirect else inner
    if not indirect and body.startswith("#") and len(body) > 1 and body[1] not in "}:-=?+#%/":
        body = body[1:]  # `${#x}`: the length of x
    match = re.match(_PARAMETER_NAME, body)
    if match is None:
        return
    name, rest = match.group(0), body[match.end():]
    subscript = None
    if rest.startswith("["):
        close = _bracket_close(rest, 0)
        if close < 0:
            return
        subscript, rest = rest[1:close], rest[close + 1:]
        if subscript not in ("@", "*"):
            _arithmetic_text(subscript, state, span, found)
    value: str | None = None
    if indirect:
        if (subscript is None and rest in ("*", "@")) or (subscript in ("@", "*") and not rest):
            return  # `${!prefix*}`, `${!a[@]}`: names and keys, nothing is looked up
        if name in _NUMBERS_AND_FLAGS:
            return  # a count, a status, a process id or the flags: never a name with a subscript
        reference = _known(name, state) if subscript is None else None
        if reference is None:
            found.append(Evaluated(None, span, f"`${{{inner}}}` reads the variable named by the value of {name}, a name only known at run time (a subscript in it runs command substitutions)"))
            return
        _name(reference, state, span, found)
        value = _known(reference, state) if re.fullmatch(_IDENTIFIER, reference) else None
    elif subscript is None:
        value = _known(name, state) if name not in ("@", "*") else _positional(state)
    if rest == "@P":
        _prompt(value, f"`${{{inner}}}`", span, found)
        return
    if rest.startswith(":") and rest[1:2] not in ("-", "=", "?", "+"):
        for offset in rest[1:].split(":"):
            _arithmetic_text(offset, state, span, found)  # `${s:x:y}`
        return
    _scan(rest, state, span, found)  # `${x:-${y@P}}`


def _prompt(value: str | None, what: str, span: Span, found: list[Evaluated]) -> None:
    """A value bash expands as a prompt string (`${x@P}`, PS4 under `set -x`)."""
    if value is None:
        found.append(Evaluated(None, span, f"{what} expands a value only known at run time as a prompt string, which runs the command substitutions in it"))
        return
    decoded = prompt_decoded(value)
    if has_code(decoded):
        found.append(Evaluated(as_expanded(decoded), span))


def _known(name: str, state: ShellState) -> str | None:
    """A variable's known value ("" when it is known to be unset); None when not known."""
    value = state.lookup_word(name)
    return "" if value == UNSET else value


def _positional(state: ShellState) -> str | None:
    """`$@`/`$*` inside a function whose call's words are all known: their text (each is expanded alike)."""
    if state.positional is None or any(w.value is None for w in state.positional):
        return None
    return " ".join(w.value for w in state.positional)


# -- arithmetic and names -----------------------------------------------------------------------------------


def _arithmetic_text(text: str, state: ShellState, span: Span, found: list[Evaluated]) -> None:
    """Arithmetic as written in the command (`$((…))`, a subscript, an offset): bash expands it as a double-quoted
    string, so a single-quoted `$(cmd)` in it runs too; and every variable it names is evaluated in turn."""
    if "'" in text and has_code(text):
        found.append(Evaluated(as_expanded(text), span))
    else:
        _scan(text, state, span, found, heredoc=True)
    _names(text, state, span, found)


def _arithmetic_value(text: str, state: ShellState, span: Span, found: list[Evaluated]) -> None:
    """Arithmetic given as a value (`let 'a[$(cmd)]'`, a name's subscript): all of it is expanded when evaluated."""
    if has_code(text):
        found.append(Evaluated(as_expanded(text), span))
    _names(text, state, span, found)


def _names(text: str, state: ShellState, span: Span, found: list[Evaluated]) -> None:
    """Variables an arithmetic text names are evaluated as arithmetic in turn: a known value holding a subscript with
    a substitution runs it (`x='a[$(cmd)]'; $((x))`), and so does a known positional parameter (`$1`, `${1}`).
    Values only known at run time are not followed (module doc)."""
    seen: set[str] = set()
    pending = [(text, False)]
    while pending:
        text, held_code = pending.pop()
        positional = [a or b for a, b in re.findall(_POSITIONAL_IN_TEXT, text)]  # `$(( $1 ))` in a function
        for name in re.findall(_IDENTIFIER, text) + positional:
            if name in seen:
                continue
            seen.add(name)
            value = state.lookup(name)
            if value is None and state.lost_code and not held_code and not state.alternatives.get(name) and not any(f.script is None and f.span == span for f in found):
                found.append(Evaluated(None, span, f"arithmetic reads {name}, a value only known at run time, after a value that runs code ({state.lost_code[0]}) became unknown: it may hold it"))
            # a value the outcomes disagree on may still be one of the known ones that run code (review 24a)
            for held in sorted(state.alternatives.get(name, ())) if value is None else (value,):
                if has_code(held):
                    found.append(Evaluated(as_expanded(held), span))
                # the names inside a value that runs code are walked with it; another value may be derived from one
                pending.append((held, held_code or (value is None and has_code(held))))


def _name(text: str, state: ShellState, span: Span, found: list[Evaluated]) -> None:
    """A variable name bash looks up (`${!x}`'s target, `printf -v NAME`): a subscript in it is expanded."""
    base, bracket, subscript = text.partition("[")
    if bracket:
        _arithmetic_value(subscript.rpartition("]")[0] or subscript, state, span, found)
    elif has_code(text):
        found.append(Evaluated(as_expanded(text), span))


# -- builtins that take names -------------------------------------------------------------------------------

#: `${!prefix@}` / `${!prefix*}` as a whole word: the names of set variables.
_NAMES_OF_SET_VARIABLES = r'"?\$\{![A-Za-z_][A-Za-z0-9_]*[@*]\}"?'
#: Builtins that look a variable name up, subscript and all (export and readonly refuse a subscript in a name).
_NAMING = frozenset({"printf", "read", "test", "[", "unset", "wait", "let"}) | DECLARING


def in_builtin(step: ShellCommand) -> list[Evaluated]:
    """What a builtin that looks variable names up runs: `printf -v`, `read`, `declare` and kin, `test -v`, `unset`,
    `wait -p`, and `let`'s arithmetic."""
    name = step.name
    if name not in _NAMING or step.value(step.words[0]) != name:
        return []
    values = step.values()
    found: list[Evaluated] = []
    if name == "let":
        for word, value in zip(step.words[1:], values[1:]):
            if value is not None:
                _arithmetic_value(value, step.state, word.span, found)
        return found
    for word, value, options in _named_operands(name, step.words, values):
        _operand(name, word, value, options, step.state, found)
    return found


def _named_operands(name: str, words: list[Word], values: list[str | None]) -> Iterator[tuple[Word, str | None, str]]:
    """(word, value, the builtin's options) for every operand of the builtin that is a variable name."""
    if name == "printf":
        if len(values) > 2 and values[1] == "-v":
            yield words[2], values[2], ""
        elif len(values) > 1 and values[1] is not None and values[1].startswith("-v"):
            yield words[1], values[1][2:], ""
    elif name in ("test", "[", "wait"):
        flag = "-p" if name == "wait" else "-v"
        for i in range(1, len(values) - 1):
            if values[i] == flag:
                yield words[i + 1], values[i + 1], ""
    elif name == "read":
        i = 1
        while i < len(values):
            value = values[i]
            if value == "--":
                i += 1
                break
            if value is None or not value.startswith("-") or value == "-":
                break
            letters = value[1:]
            taking = next((j for j, letter in enumerate(letters) if letter in _READ_VALUE_OPTIONS), None)
            i += 2 if taking == len(letters) - 1 else 1  # `-p PROMPT`, but `-t5`
        for k in range(i, len(values)):
            yield words[k], values[k], ""
    else:  # unset and the declaration builtins
        options = ""
        for word, value in zip(words[1:], values[1:]):
            if value is not None and value[:1] in ("-", "+") and len(value) > 1 and "=" not in value:
                options += value[1:] if value[0] == "-" else ""
                continue
            if set(options) & set("fFp"):
                return  # functions, or printing
            yield word, value, options


def _operand(builtin: str, word: Word, value: str | None, options: str, state: ShellState, found: list[Evaluated]) -> None:
    """One name operand: the subscript of its name, and for `declare -a/-A` an array value given as a string."""
    known = value is not None
    if not known and re.fullmatch(_NAMES_OF_SET_VARIABLES, word.raw):
        return  # `unset "${!GIT_@}"`: names bash has set, never with a subscript
    text = value if value is not None else _static_head(word.raw)
    declaring = builtin in DECLARING
    name, eq, rest = text.partition("=") if declaring else (text, "", "")
    exporting = builtin in ("export", "readonly")
    if not known and not eq and "[" not in name and not exporting:
        found.append(Evaluated(None, word.span, f"`{builtin}` is given a variable name only known at run time ({word.raw}), and bash expands a subscript in a name, command substitutions included"))
        return
    if not known and not eq and not exporting:
        # `unset "h[$i]"`, `printf -v "a[$(cmd)]"`: bash expands the subscript a second time, run-time part and all.
        found.append(Evaluated(None, word.span, f"`{builtin}` is given a variable name whose subscript is only known at run time ({word.raw}), and bash expands a subscript in a name, command substitutions included"))
        return
    if not exporting and (eq or not declaring):
        _name(name, state, word.span, found)  # `declare 'a[$(cmd)]=1'`, `printf -v 'a[$(cmd)]'`
    if not (declaring and eq):
        return
    match = ASSIGNMENT_PREFIX.match(word.raw)
    if match is not None and "A" not in options:  # an associative array's keys are expanded once, as words
        for subscript in _array_subscripts(word.raw[match.end():]):
            _arithmetic_text(subscript, state, word.span, found)  # `declare -a a=([x]=1)`, `local a=(['$(cmd)']=1)`
    if ("a" in options or "A" in options) and not (match is not None and word.raw[match.end():].startswith("(")):
        # `declare -a a="$v"`: a value `(…)` given as a string is read as an array assignment.
        if not known:
            letter = "a" if "a" in options else "A"
            found.append(Evaluated(None, word.span, f"`{builtin} -{letter}` reads a value only known at run time ({word.raw}) as an array assignment, which runs the command substitutions in it"))
        elif rest.startswith("(") and has_code(rest):
            found.append(Evaluated(f"{name.partition('[')[0]}={rest}\n", word.span))
    if name in PROMPTS:
        _prompt(rest if known else None, f"`{name}`", word.span, found)  # `export PS4='$(cmd)'`
    if not known:
        if "n" in options and state.lost_code:
            found.append(Evaluated(None, word.span, f"`{builtin} -n` is given a name only known at run time ({word.raw}) after a value that runs code ({state.lost_code[0]}) became unknown: it may hold it"))
            return
        if "n" in options and "[" in rest:
            # `declare -n r="a[$x]"`: the subscript of the name r stands for is expanded again at each use of r.
            found.append(Evaluated(None, word.span, f"`{builtin} -n` is given a variable name whose subscript is only known at run time ({word.raw}), and bash expands a subscript in a name, command substitutions included"))
        return
    if "n" in options:
        _name(rest, state, word.span, found)  # `declare -n r='a[$(cmd)]'`: the name r stands for
    if "i" in options or name.partition("[")[0] in state.transformed:
        _arithmetic_value(rest, state, word.span, found)  # `declare -i n='a[$(cmd)]'`, `export n=x` after it


def _static_head(raw: str) -> str:
    """The quote-removed text of a word before its first expansion (`"x=$1"` → `x=`)."""
    out: list[str] = []
    i, n = 0, len(raw)
    double = False
    while i < n:
        c = raw[i]
        if c in "$`":
            break
        if c == "\\" and i + 1 < n:
            out.append(raw[i + 1])
            i += 2
            continue
        if c == "'" and not double:
            close = raw.find("'", i + 1)
            if close < 0:
                break
            out.append(raw[i + 1 : close])
            i = close + 1
            continue
        if c == '"':
            double = not double
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)
