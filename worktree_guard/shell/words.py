"""Static value of one shell word, read from its raw source text.

The parser back-end decides where a word starts and ends; this module only answers "what string
does this word stand for, if that is knowable without running anything?" It performs bash's quote
removal (backslash, single quotes, double quotes, line continuation) and gives up (returns None) on
everything that bash would expand: parameters and substitutions (any `$` or backtick, which also
covers `$'…'` and `$"…"`), unquoted glob characters, brace expansion, a tilde after `=` or `:`,
and unquoted characters that can only come from extglob or process substitution.

bashlex's own `word.word` is not used for this: it keeps quotes in `'a'b'c'`, drops the backslash in
`"a\\b"`, and turns `$'\\x63d'` into `$x63d` (bash-parsing.md §3.3 W1). Giving up is always safe: a
dynamic word in a sensitive place is denied by the rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable

#: Characters after a backslash inside double quotes that the backslash escapes (bash manual 3.1.2.3).
_DQUOTE_ESCAPABLE = '$`"\\'
#: Unquoted characters that make a word dynamic wherever they appear. `$` and backtick start an
#: expansion; `*` and `?` are glob characters; `(`, `)`, `<`, `>`, `|`, `&`, `;` can only be inside a
#: word through extglob or process substitution, and blanks not at all (a back-end mistake).
_DYNAMIC_UNQUOTED = frozenset("$`*?()<>|&; \t\n")
#: `NAME=`, `NAME+=`, `NAME[subscript]=` at the start of a word (bash's assignment syntax).
ASSIGNMENT_PREFIX = re.compile(r"([A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?)(\+?)=")
#: Characters that, inside a tilde-prefix, make bash skip tilde expansion (the prefix is quoted).
_QUOTING = frozenset("'\"\\")


#: `$NAME` or `${NAME}`: the only parameter forms replaced by a known value (SPEC §5.2 known variables).
#: Inside a function's body the positional parameters `$1`…, `${10}`, `$#` and `$*` are known too (walk.py binds them).
_SIMPLE_PARAMETER = re.compile(r"\$(?:([A-Za-z_][A-Za-z0-9_]*|[0-9#*])|\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|#)\})")
#: `${NAME:-word}` / `${NAME-word}` whose word holds no `$`, backquote or brace (SPEC §5.2: static when NAME is known).
_DEFAULT_PARAMETER = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(:?)-((?:[^`${}\\]|\\.)*)\}")
#: What a lookup returns for a variable known to be unset (no environment value can hold a NUL).
UNSET = "\0unset"
#: Characters a substituted value may not hold unquoted: bash would split or glob it.
_SPLIT_OR_GLOB = frozenset(" \t\n*?[")
#: extglob's patterns in a substituted value (`@(x)`, `+(x)`, `!(x)`; `?(`, `*(` hold a glob character already):
#: globbed when extglob is on, which the agent's shell may have turned on before the command (review 25a).
_EXTGLOB = re.compile(r"[@+!]\(")
#: Characters after `$` that start an expansion: a name, a special parameter, `${`, `$(`, `$[`, and unquoted
#: `$'…'` / `$"…"`. After any other character (or at the end) the `$` is literal.
_EXPANSION_STARTS_IN_QUOTES = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_{([$?!#*@-")
_EXPANSION_STARTS = _EXPANSION_STARTS_IN_QUOTES | frozenset("'\"")
_GLOB_SYNTAX = frozenset("*?[")

Lookup = Callable[[str], "str | None"]


def word_value(raw: str, lookup: Lookup | None = None) -> tuple[str | None, bool]:
    """Return `(value, tilde)` for the raw text of one word.

    `value` is the text after quote removal, or None when the word is not static. `tilde` is True
    when the word starts with an unquoted tilde-prefix; `value` then holds everything after the `~`
    (quote-removed): `~` → "", `~/x` → "/x", `~user/x` → "user/x", `~+/x` → "+/x", `~-` → "-".
    The caller expands it (HOME when the value is empty or starts with "/", else a login name,
    `+`/`-`/a number for PWD/OLDPWD/the directory stack). `lookup`, when given, supplies the known
    values of simple `$NAME`/`${NAME}` parameters (None: unknown).
    """
    while raw.startswith("\\\n"):
        raw = raw[2:]  # leading line continuations vanish before anything else: `\<newline>~` is `~`
    if raw.startswith("#"):
        return None, False  # a comment, not a word: a back-end mistake
    if raw.startswith("~"):
        slash = raw.find("/")
        # Line continuations vanish before any expansion: `~\<newline>` is a plain `~` to bash.
        prefix = (raw[1:] if slash < 0 else raw[1:slash]).replace("\\\n", "")
        # bash expands the tilde before parameters and commands: `~$E` looks up a user named `$E` literally, finds
        # none and leaves `~` to the word (E empty: the file `~` here, not HOME; phase 18's h-words33)
        if not _QUOTING.intersection(prefix) and "$" not in prefix and "`" not in prefix:
            return _unquote(raw, 1, lookup), True
    return _unquote(raw, 0, lookup), False


def tilde_expands(raw: str) -> bool:
    """Whether bash expands the `~` a word starts with: its prefix (up to the first `/`) holds no quote, backslash,
    `$` or backquote (`~"/x"`, `~\\/x`, `~''/x` are a directory `~`: review 40c H3)."""
    if not raw.startswith("~"):
        return False
    prefix = raw[1:].split("/", 1)[0].replace("\\\n", "")
    return not _QUOTING.intersection(prefix) and "$" not in prefix and "`" not in prefix


def _parameter(raw: str, i: int, lookup: Lookup | None, quoted: bool = False) -> tuple[str, int] | None:
    """The known value of a parameter at raw[i] and the index after it; None when not known.

    `$NAME` and `${NAME}` need NAME's value; `${NAME:-word}` / `${NAME-word}` is NAME's value when NAME is
    known to be set (and, for `:-`, not empty), and the word when NAME is known to be unset. In double quotes
    (`quoted`) a word holding a single quote or a backslash is not known: bash keeps the quotes there (`"${X:-'a'}"`
    is `'a'`: review 40b G6).
    """
    if lookup is None:
        return None
    match = _SIMPLE_PARAMETER.match(raw, i)
    if match is not None:
        name = match.group(1)
        if name and (name[0].isalpha() or name[0] == "_") and raw.startswith("\\\n", match.end()):
            return None  # bash removes `\<newline>` before it reads the name: `$X\<newline>a` is `$Xa` (phase 12's run)
        value = lookup(match.group(1) or match.group(2))
        return None if value is None or value == UNSET else (value, match.end())
    match = _DEFAULT_PARAMETER.match(raw, i)
    if match is None:
        return None
    value = lookup(match.group(1))
    if value is None:
        return None
    if value != UNSET and (value or not match.group(2)):
        return value, match.end()
    if quoted and ("'" in match.group(3) or "\\" in match.group(3)) or "~" in match.group(3):
        return None  # a default word's `~` bash expands unquoted (review 40c H4: `${X:-~}/x`): not read
    default = _unquote(match.group(3), 0, lookup)
    return None if default is None else (default, match.end())


def _unquote(raw: str, start: int, lookup: Lookup | None = None, glob: bool = False) -> str | None:
    """Quote removal of raw[start:]; None as soon as something would be expanded.

    With `glob`, unquoted `*`, `?` and `[…]` are kept as glob syntax and every literal character is
    escaped for `glob.glob`, so the result is a pattern to expand on the filesystem.
    """
    esc = _glob_escape if glob else _identity
    out: list[str] = []
    i = start
    n = len(raw)
    prev_unquoted = ""  # the previous character when it was unquoted, for `=~` and `:~`
    while i < n:
        c = raw[i]
        if c == "\\":
            if i + 1 >= n:
                return None  # a trailing backslash: literal in bash, but nothing a path needs
            nxt = raw[i + 1]
            i += 2
            if nxt != "\n":  # backslash-newline is a line continuation and vanishes
                out.append(esc(nxt))
            prev_unquoted = ""
            continue
        if c == "'":
            close = raw.find("'", i + 1)
            if close < 0:
                return None
            out.append(esc(raw[i + 1 : close]))
            i = close + 1
            prev_unquoted = ""
            continue
        if c == '"':
            i = _unquote_double(raw, i + 1, out, lookup, esc)
            if i < 0:
                return None
            prev_unquoted = ""
            continue
        if c == "$" and raw.startswith("\\\n", i + 1):
            return None  # bash removes `\<newline>` first: `$\<newline>a` is `$a` (found by test_static_values_agree_with_bash)
        if c == "$" and raw[i + 1 : i + 2] == "'":
            decoded = ansi_c_text(raw, i + 2)  # `$'…'` is quoting (review 39e O4: `python3 x.py $'<main>/x'` was unread)
            if decoded is None:
                return None
            out.append(esc(decoded[0]))
            i = decoded[1]
            prev_unquoted = ""
            continue
        if c == "$" and (i + 1 >= n or raw[i + 1] not in _EXPANSION_STARTS):
            out.append(esc("$"))  # `$/`, `$%`, a final `$`: bash keeps a `$` that starts no expansion
            prev_unquoted = "$"
            i += 1
            continue
        if c == "$":
            known = _parameter(raw, i, lookup)
            if known is None or _SPLIT_OR_GLOB.intersection(known[0]) or _EXTGLOB.search(known[0]):
                return None
            out.append(esc(known[0]))
            i = known[1]
            prev_unquoted = ""
            continue
        if glob and c in "*?":
            out.append(c)
            prev_unquoted = c
            i += 1
            continue
        if glob and c == "[" and "]" in raw[i + 1 :]:
            close = raw.index("]", i + 1)
            out.append(raw[i : close + 1])
            i = close + 1
            prev_unquoted = ""
            continue
        if c in _DYNAMIC_UNQUOTED:
            return None
        if c == "[" and "]" in raw[i + 1 :]:
            return None  # a bracket expression; a lone `[` (the test command) is literal
        if c == "{" and _looks_like_brace_expansion(raw, i):
            return None
        if c == "~" and prev_unquoted in ("=", ":"):
            return None  # bash expands a tilde after `=`/`:` in assignment-like words (W10)
        out.append(esc(c))
        prev_unquoted = c
        i += 1
    return "".join(out)


def _unquote_double(
    raw: str, i: int, out: list[str], lookup: Lookup | None = None, esc: Callable[[str], str] | None = None
) -> int:
    """Copy a double-quoted section starting after its `"`; return the index after the closing
    quote, or -1 when it holds an expansion or is not closed."""
    esc = esc or _identity
    n = len(raw)
    while i < n:
        c = raw[i]
        if c == '"':
            return i + 1
        if c == "\\" and i + 1 < n:
            nxt = raw[i + 1]
            if nxt == "\n":
                i += 2
                continue
            if nxt in _DQUOTE_ESCAPABLE:
                out.append(esc(nxt))
                i += 2
                continue
            out.append(esc("\\"))
            i += 1
            continue
        if c == "$" and raw.startswith("\\\n", i + 1):
            return -1  # `"$\<newline>a"` is `"$a"` too
        if c == "$" and (i + 1 >= n or raw[i + 1] not in _EXPANSION_STARTS_IN_QUOTES):
            out.append(esc("$"))  # `"s/^$//"`: a `$` that starts no expansion is literal
            i += 1
            continue
        if c == "$":
            known = _parameter(raw, i, lookup, quoted=True)
            if known is None:
                return -1
            out.append(esc(known[0]))
            i = known[1]
            continue
        if c == "`":
            return -1
        out.append(esc(c))
        i += 1
    return -1


def _identity(text: str) -> str:
    return text


def _glob_escape(text: str) -> str:
    """`glob.escape` for a literal piece: metacharacters become one-character classes."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)


def has_glob_syntax(pattern: str) -> bool:
    """True when a `glob_pattern` result has an unescaped `*`, `?` or `[…]` (escapes are `[c]` classes)."""
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "[" and i + 2 < len(pattern) and pattern[i + 2] == "]" and pattern[i + 1] in "*?[":
            i += 3
            continue
        if c in "*?[":
            return True
        i += 1
    return False


def unescape_glob(pattern: str) -> str:
    """A `glob_pattern` with no glob syntax back to the literal text."""
    return re.sub(r"\[([*?\[])\]", r"\1", pattern)


#: Brackets that Python's fnmatch reads otherwise than bash (review 39a): a class `[[:alpha:]]`, an equivalence class
#: `[[=t=]]` or a collating element `[[.t.]]`, and any `[:`, `[=` or `[.` after another `[` even unclosed (phase 25,
#: m40b: to bash `[[.]` is a `[` and the bracket `[.]`, matching `[.`; to fnmatch one character) (`[.]h*` is none: a
#: bracket holding `.`). bash's `[^x]` is fnmatch's `[!x]` (`bash_brackets`); a `]` first in the brackets (`[]t]`) is a
#: character to both.
FNMATCH_MISREADS = re.compile(r"\[([:=.]).*?\1\]|\[.*\[[:=.]", re.S)


def fnmatch_misreads(raw: str) -> bool:
    """Whether the word's text holds a bracket expression that Python's fnmatch does not read as bash does, even
    after `bash_brackets`: one of FNMATCH_MISREADS, or any backslash beside a bracket (`[t\\]]`)."""
    return "[" in raw and ("\\" in raw or FNMATCH_MISREADS.search(raw) is not None)


def bash_brackets(pattern: str) -> str:
    """A glob pattern for fnmatch, with bash's `[^…]` ("not") as fnmatch writes it, `[!…]` (to fnmatch `[^x]` is `^`
    or `x`: review 39a's `[^x]o-main`; review 39b: refusing it refused `rm -f src/[^_]*.pyc`)."""
    return pattern.replace("[^", "[!")


def brackets_widened(pattern: str) -> str:
    """`pattern` with each bracket expression as `?`, which matches every character it may (`[^_]*.py` → `?*.py`,
    `[[:alpha:]]o` → `?o`, `[t\\]]` → `?`): for a pattern that fnmatch would misread (`fnmatch_misreads`). A `[`
    with no closing `]` stays a `[` (escaped, as bash reads it)."""
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            out.append(_glob_escape(pattern[i + 1]))
            i += 2
            continue
        if c != "[":
            out.append(c)
            i += 1
            continue
        j = i + 1
        if j < n and pattern[j] in "!^":
            j += 1
        if j < n and pattern[j] == "]":
            j += 1  # a `]` first is one of the characters
        while j < n and pattern[j] != "]":
            if pattern[j] == "\\":
                j += 1
            elif pattern[j] == "[" and j + 1 < n and pattern[j + 1] in ":=.":
                close = pattern.find(pattern[j + 1] + "]", j + 2)  # `[:alpha:]`, `[=e=]`, `[.a.]`
                j = close + 1 if close >= 0 else j
            j += 1
        if j >= n:
            out.append("[[]")  # never closed: a literal `[`
            i += 1
            continue
        out.append("?")
        i = j + 1
    return "".join(out)


def glob_pattern(raw: str, lookup: Lookup | None = None) -> str | None:
    """The word as a `glob.glob` pattern when its only expansions are unquoted `*`, `?`, `[…]`; else None."""
    if raw.startswith("~") or not _GLOB_SYNTAX.intersection(raw):
        return None
    return _unquote(raw, 0, lookup, glob=True)


def _looks_like_brace_expansion(raw: str, i: int) -> bool:
    """Over-approximate: an unquoted `{` with a later `}` (the last) and a `,` or `..` between them.

    `{}` (find -exec) and `HEAD@{1}` stay static; `{a,b}` and `{1..3}` do not. Quoting inside the
    braces is ignored, which can only make a static word dynamic, never the reverse.
    """
    close = raw.rfind("}")  # the last one: a quoted, escaped or nested `}` ends no braces (phase 12's run: `{/tmp/x"}",<main>/x}`)
    if close <= i:
        return False
    inner = raw[i + 1 : close]
    return "," in inner or ".." in inner


#: More words than this from one word's splitting and the word counts as unknown.
MAX_SPLIT_FIELDS = 256
#: The characters bash splits an unquoted expansion at while IFS is unset or has its default value.
_IFS_DEFAULT = frozenset(" \t\n")


def split_fields(raw: str, lookup: Lookup) -> list[str] | None:
    """The words bash makes of one word whose unquoted parameter expansions all have known values, when word
    splitting changes it: `$X` with X='rm -f a' is three words, an unquoted `$X` that is empty is none. The caller
    must know that IFS has its default value.

    None when splitting leaves the word as `word_value` reads it (no unquoted expansion is empty or holds a blank),
    and when it cannot be read: an expansion or glob character not known, a substitution, a tilde prefix, a
    `${X:-word}` whose word is quoted (its quoted blanks would not split; left unknown rather than told apart).
    """
    if raw.startswith("~"):
        return None
    fields: list[str] = []
    current: list[str] = []
    started = False  # whether the current field exists (an empty quoted "" is a field; an empty expansion is not)
    splits = False
    i = 0
    n = len(raw)
    while i < n:
        c = raw[i]
        if c == "\\":
            if i + 1 >= n:
                return None
            if raw[i + 1] != "\n":
                current.append(raw[i + 1])
                started = True
            i += 2
            continue
        if c == "'":
            close = raw.find("'", i + 1)
            if close < 0:
                return None
            current.append(raw[i + 1 : close])
            started = True
            i = close + 1
            continue
        if c == '"':
            i = _unquote_double(raw, i + 1, current, lookup)
            if i < 0:
                return None
            started = True
            continue
        if c == "$" and (i + 1 >= n or raw[i + 1] not in _EXPANSION_STARTS):
            return None  # bash 5.2 splits no part of a word holding an unquoted `$` that starts nothing (`$y$`)
        if c == "$":
            known = _parameter(raw, i, lookup)
            if known is None or _GLOB_SYNTAX.intersection(known[0]) or _EXTGLOB.search(known[0]):
                return None  # unknown, or pathname expansion would follow
            value, end = known
            if not value or _IFS_DEFAULT.intersection(value):
                if not _SIMPLE_PARAMETER.match(raw, i) and _QUOTING.intersection(raw[i:end]):
                    return None
                splits = True
            for ch in value:
                if ch in _IFS_DEFAULT:
                    if started:
                        fields.append("".join(current))
                        current, started = [], False
                        if len(fields) > MAX_SPLIT_FIELDS:
                            return None
                else:
                    current.append(ch)
                    started = True
            i = end
            continue
        if c in _DYNAMIC_UNQUOTED or c in "[~" or (c == "{" and _looks_like_brace_expansion(raw, i)):
            return None
        current.append(c)
        started = True
        i += 1
    if started:
        fields.append("".join(current))
    if len(fields) > MAX_SPLIT_FIELDS:
        return None  # left unknown: a 15,000-word value read 200 times took 9.6 s (review 25a)
    return fields if splits else None


#: What a word may start with, known, that makes it no option whatever follows, unless bash splits it (`origin/"$B"`,
#: `./"$f"`, a process substitution `<(…)`, which is a /dev/fd path; not `~-` or `~+`, which are $OLDPWD and $PWD,
#: nor extglob's `@(` and `+(`: review 29b).
NO_OPTION_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._:%,=^<>")


def may_be_option(raw: str) -> bool:
    """Whether a word whose value is only known at run time may start with `-`, so that a program reads it as an
    option: its known start does not settle that (`"$U"`, `"$D/x"`, `*.txt`), or bash splits it into several words
    (`HEAD~$N`). Stop 30: `cp "$U" src/x` with U=`--target-directory=<main>` copied into the main checkout."""
    return raw.lstrip("'\"")[:1] not in NO_OPTION_START or has_unquoted_expansion(raw)


def has_unquoted_expansion(raw: str) -> bool:
    """Whether the word holds an expansion outside quotes (`$X`, `${X}`, `$(…)`, backquotes), whose value bash
    splits into several words (review 24b: `X='rm -f <main>/x'; $X` ran `rm` unjudged)."""
    quoted = False
    i = 0
    while i < len(raw):
        c = raw[i]
        if c == "\\":
            i += 2
            continue
        if c == "$" and not quoted and raw[i + 1 : i + 2] == "'":
            i = _past_ansi_c(raw, i + 2)  # `$'…'` is quoting, not an expansion
            continue
        if c == "$" and not quoted and raw[i + 1 : i + 2] == '"':
            i += 1  # `$"…"` is a double-quoted string (translated): the quote is read next
            continue
        if c == "'" and not quoted:
            end = raw.find("'", i + 1)
            i = len(raw) if end < 0 else end + 1
            continue
        if c == '"':
            quoted = not quoted
        elif c in "$`" and not quoted:
            return True
        i += 1
    return False


#: `$'…'`'s one-character escapes (bash 5.2's ansicstr).
_ANSI_C_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}
#: `\x`, `\u`, `\U`: the most hex digits each reads.
_ANSI_C_HEX_DIGITS = {"x": 2, "u": 4, "U": 8}
_OCTAL_DIGITS = "01234567"
_HEX_DIGITS = "0123456789abcdefABCDEF"


def ansi_c_text(raw: str, i: int) -> tuple[str, int] | None:
    """The text of the `$'…'` string whose body starts at raw[i], as bash 5.2 decodes it (its ansicstr), and the index
    after its closing quote; None when it does not close, or holds a character past ASCII that an escape makes (a
    byte such as `\\xff` or `\\351`, no character on its own; a `\\u`/`\\U` whose bytes depend on the locale). A NUL
    (`\\0`, `\\x00`, `\\c@`) ends the text, as in a C string; an unknown escape keeps its backslash (`\\q`, `\\x` with no
    hex digit, a `\\c` at the end)."""
    close = i
    while close < len(raw) and raw[close] != "'":
        close += 2 if raw[close] == "\\" else 1
    if close >= len(raw):
        return None
    body = raw[i:close]
    out: list[str] = []
    j, n = 0, len(body)
    while j < n:
        c = body[j]
        j += 1
        if c != "\\" or j >= n:
            out.append(c)
            continue
        escape, j = body[j], j + 1
        if escape in _ANSI_C_ESCAPES:
            out.append(_ANSI_C_ESCAPES[escape])
            continue
        if escape == "c" and j < n:
            # control-X: `\c?` is DEL, `\ca` and `\cA` are 1, `\c@` NUL; `\c\\` reads both backslashes
            if body[j] > "\x7e" or body[j] == "\x01":
                return None  # past ASCII; or DEL or ^A, which bash's lexer quotes with a ^A that `\c` reads (m40c)
            code = 0x7F if body[j] == "?" else ord(body[j].upper()) & 0x1F
            j += 2 if body[j : j + 2] == "\\\\" else 1
        elif escape in _OCTAL_DIGITS:
            stop = j
            while stop < min(j + 2, n) and body[stop] in _OCTAL_DIGITS:
                stop += 1
            code, j = int(body[j - 1 : stop], 8) & 0xFF, stop  # at most three digits, one byte (`\400` is NUL)
        elif escape == "x" and body[j : j + 1] == "{":
            # `\x{HHH…}`: every hex digit, then its `}` if it follows (bash 5.2 reads ksh93's form; `\x{}` is NUL)
            stop = j + 1
            while stop < n and body[stop] in _HEX_DIGITS:
                stop += 1
            code, j = int(body[j + 1 : stop] or "0", 16) & 0xFF, stop + (body[stop : stop + 1] == "}")
        elif escape in _ANSI_C_HEX_DIGITS:
            stop = j
            while stop < min(j + _ANSI_C_HEX_DIGITS[escape], n) and body[stop] in _HEX_DIGITS:
                stop += 1
            if stop == j:
                out.append("\\" + escape)
                continue
            code, j = int(body[j:stop], 16), stop
        else:
            out.append("\\" + escape)
            continue
        if code > 0x7F:
            return None
        out.append(chr(code))
    return "".join(out).split("\0", 1)[0], close + 1


def _past_ansi_c(raw: str, i: int) -> int:
    """The index after the `'` that closes a `$'…'` string whose text starts at raw[i] (a backslash escapes the next
    character, a quote too); the end of the word when it is not closed."""
    while i < len(raw):
        if raw[i] == "\\":
            i += 2
            continue
        if raw[i] == "'":
            return i + 1
        i += 1
    return len(raw)


def remove_quotes(raw: str) -> tuple[str, bool] | None:
    """Quote removal without any expansion, for a heredoc delimiter.

    Returns `(text, quoted)` where `quoted` says whether any part was quoted (the heredoc body is
    then literal). `$'…'`/`$"…"` delimiters are not handled (None): the caller falls back.
    """
    out: list[str] = []
    quoted = False
    i = 0
    n = len(raw)
    while i < n:
        c = raw[i]
        if c == "$" and i + 1 < n and raw[i + 1] in "'\"":
            return None
        if c == "\\":
            quoted = True
            if i + 1 < n:
                out.append(raw[i + 1])
            i += 2
            continue
        if c == "'":
            close = raw.find("'", i + 1)
            if close < 0:
                return None
            quoted = True
            out.append(raw[i + 1 : close])
            i = close + 1
            continue
        if c == '"':
            quoted = True
            i += 1
            while i < n and raw[i] != '"':
                if raw[i] == "\\" and i + 1 < n and raw[i + 1] in _DQUOTE_ESCAPABLE:
                    i += 1
                out.append(raw[i])
                i += 1
            if i >= n:
                return None
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out), quoted


def static_prefix(raw: str, lookup: Lookup | None = None, end: int | None = None) -> str | None:
    """The quote-removed text of raw[:end] before its first expansion, when there is one and it is not empty.

    `/repo/src/$f` → `/repo/src/`; `"$d"/x` → None. A tilde prefix is left to the caller (None here). Known
    variables are read on (`$A/b/$x` → `a/b/` with A=a); `$'…'` is quoting.
    """
    return _static_head(raw, lookup, end, glob=False)


def static_glob_prefix(raw: str, lookup: Lookup | None = None) -> str | None:
    """As `static_prefix`, but unquoted glob characters are kept as a glob pattern (every other character escaped),
    and do not end it: `q?/$'repo'/x"$X"` → `q?/repo/x` (review 40b G4)."""
    return _static_head(raw, lookup, None, glob=True)


def _static_head(raw: str, lookup: Lookup | None, end: int | None, glob: bool) -> str | None:
    full, raw = raw, raw if end is None else raw[:end]
    if raw.startswith("~"):
        return None
    i, quoted = 0, False
    while i < len(raw):
        c = raw[i]
        if c == "\\":
            i += 2
            continue
        if not quoted and c == "'":
            close = raw.find("'", i + 1)
            i = len(raw) if close < 0 else close + 1
            continue
        if not quoted and raw.startswith("$'", i):
            i = _past_ansi_c(raw, i + 2)  # quoting, which _unquote decodes (`$'<main>/'$X`)
            continue
        if c == '"':
            quoted = not quoted
        elif c == "$" and full[i + 1 : i + 2] not in (_EXPANSION_STARTS_IN_QUOTES if quoted else _EXPANSION_STARTS) and not full.startswith("\\\n", i + 1):
            pass  # `$/`, a final `$`: a character (in the whole word: `raw[:end]` may end inside an expansion)
        elif c == "$":
            known = _parameter(full, i, lookup, quoted)
            if not _usable(known, quoted, len(raw)):
                break
            i = known[1]  # a known variable: _unquote reads its value (`/r/\\$X/"$Y"`)
            continue
        elif c == "`" or (not quoted and (c == "{" or c in "*?[" and not glob)):
            break
        i += 1
    # The text before the cut, a double quote open there closed when the word closes it (review 40a F2:
    # `$'to-main/'"${X:+}"README.md`); else back up to the last `/` before the cut, so no quote is left open.
    head = raw[:i] + ('"' if quoted and _past(raw, i, '"') > 0 else "")
    while head:
        value = _unquote(head, 0, lookup, glob=glob)
        if value is not None:
            return value or None
        slash = head.rfind("/", 0, len(head) - 1)
        head = head[: slash + 1] if slash >= 0 else ""
    return None


def _usable(known: tuple[str, int] | None, quoted: bool, end: int) -> bool:
    """Whether `_unquote` reads a known parameter's value as it stands, whole before `end`: in double quotes any, else
    one bash neither splits nor globs."""
    return known is not None and known[1] <= end and (quoted or not (_SPLIT_OR_GLOB.intersection(known[0]) or _EXTGLOB.search(known[0])))


#: More fields than this from one word's brace expansion and the word counts as unknown.
MAX_BRACE_FIELDS = 256
_PROTECTED_BASE = 0xF0000  # a Unicode private-use plane: never in a command an agent writes


def brace_fields(raw: str) -> list[str] | None:
    """The raw words bash's brace expansion makes of `raw` (`{a,b}.txt` → `a.txt`, `b.txt`); None when the word
    has no brace expansion or it cannot be worked out (too many fields, an unclosed quote or substitution).

    Only unquoted braces expand: quoted text, `$'…'`, `${…}`, `$(…)` and backquotes are carried over verbatim
    (SPEC §5.2 "static means what bash makes static"). The expansion itself is bracex's (Bash-style).
    """
    if "{" not in raw:
        return None
    protected: list[str] = []
    out: list[str] = []

    def keep(text: str) -> None:
        for ch in text:
            out.append(chr(_PROTECTED_BASE + len(protected)))
            protected.append(ch)

    i, n = 0, len(raw)
    while i < n:
        c = raw[i]
        if c == "\\":
            keep(raw[i : i + 2])
            i += 2
            continue
        if c == "'":
            close = raw.find("'", i + 1)
            if close < 0:
                return None
            keep(raw[i : close + 1])
            i = close + 1
            continue
        if c == '"' or c == "`" or (c == "$" and i + 1 < n and raw[i + 1] in "({'\""):
            close = _closing(raw, i)
            if close < 0:
                return None
            keep(raw[i:close])
            i = close
            continue
        out.append(c)
        i += 1
    pattern = "".join(out)
    if "{" not in pattern:
        return None
    import bracex

    try:
        fields = bracex.expand(pattern, keep_escapes=True, limit=MAX_BRACE_FIELDS)
    except Exception:  # noqa: BLE001 — bracex's limit error and anything it cannot expand: unknown
        return None
    if fields == [pattern]:
        return None  # `{}`, `{a}`, `HEAD@{1}`: no expansion
    base = _PROTECTED_BASE
    return ["".join(protected[ord(ch) - base] if ord(ch) >= base else ch for ch in field) for field in fields]


def _past(raw: str, j: int, quote: str) -> int:
    """The index after the `quote` that ends a section starting at raw[j] (backslash escapes skipped); -1 if none."""
    while j < len(raw):
        if raw[j] == "\\":
            j += 2
            continue
        if raw[j] == quote:
            return j + 1
        j += 1
    return -1


def _closing(raw: str, i: int) -> int:
    """The index after the quoted section or expansion that starts at raw[i]; -1 when it does not close."""
    c = raw[i]
    if c == '"':
        return _past(raw, i + 1, '"')
    if c == "`":
        j = raw.find("`", i + 1)
        return -1 if j < 0 else j + 1
    opener = raw[i + 1]
    if opener == "'":  # $'…'
        return _past(raw, i + 2, "'")
    if opener == '"':
        return _closing(raw, i + 1)
    close = {"(": ")", "{": "}"}[opener]
    depth = 0
    j = i + 1
    while j < len(raw):
        ch = raw[j]
        if ch == "\\":
            j += 2
            continue
        if ch in "'\"":
            end = _closing(raw, j) if ch == '"' else raw.find("'", j + 1) + 1
            if end <= 0:
                return -1
            j = end
            continue
        if ch == opener:
            depth += 1
        elif ch == close:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return -1


#: `${NAME:=word}` / `${NAME=word}`: expanding the word assigns NAME (bash-parsing.md; SPEC §5.2).
_ASSIGNING_PARAMETER = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]]*\])?:?=")
#: Where arithmetic is evaluated inside a word: `$((…))`, `$[…]`, `((…))`, and array subscripts `[…]`.
_ARITHMETIC = re.compile(r"\(\((.*?)\)\)|\[(.*?)\]", re.S)
#: An arithmetic assignment (`X=1`, `X+=2`, `X<<=1`, `a[i]=3`) or increment (`X++`, `--X`). Compiled at first use
#: (re keeps it): most commands have no arithmetic, and compiling it costs ≈ 0.4 ms.
_ARITHMETIC_ASSIGNMENT = (
    r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\])?\s*(?:\*\*|<<|>>|[-+*/%&|^])?=(?!=)"
    r"|(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)|([A-Za-z_][A-Za-z0-9_]*)\s*(?:\+\+|--)"
)


def assigned_by_expansion(raw: str, arithmetic: bool = False) -> set[str]:
    """Names a word's expansion may assign: `${X:=d}`, `${X=d}`, and arithmetic (`$((X=1))`, `a[X++]`); with
    `arithmetic` the whole text is an arithmetic expression (`let`, `(( ))`). Over-approximate: a name listed
    here only becomes unknown."""
    names = {m.group(1) for m in _ASSIGNING_PARAMETER.finditer(raw)}
    pieces = [raw] if arithmetic else [m.group(1) or m.group(2) or "" for m in _ARITHMETIC.finditer(raw)]
    for piece in pieces:
        for m in re.finditer(_ARITHMETIC_ASSIGNMENT, piece):
            names.add(m.group(1) or m.group(2) or m.group(3))
    return names


#: Text that starts an expansion which may run a command once the text is expanded again.
_CODE_STARTS = ("$(", "`", "${", "$[")


def has_code(text: str) -> bool:
    """Whether expanding `text` again may run a command (a substitution, or a parameter or subscript form)."""
    return any(start in text for start in _CODE_STARTS)
