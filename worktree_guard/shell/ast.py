"""The neutral shell syntax tree that every parser back-end produces and the walker reads.

bashlex is the parser (SPEC §5.2); a second real parser takes over where bashlex fails. Both are
translated into these few node types so that the walker and the rules never see a back-end's quirks.
Every node carries `span`, the half-open character range of its source text in the command string
the walker was given (nested strings re-parsed from `bash -c` carry spans relative to the outermost
command: the parser adds the offset).
"""

from __future__ import annotations


from ..fast_dataclass import fast_dataclass, field

Span = tuple[int, int]


@fast_dataclass(slots=True)
class Word:
    """One shell word. `value` is the text after quote removal when the word is static, else None.

    A word is static only when it holds no parameter, substitution, unquoted glob or brace, and no
    `$'…'`/`$"…"` that the back-end could not decode (SPEC §5.2). `substitutions` holds the commands
    nested in it (`$(…)`, backticks, `<(…)`, `>(…)`), which run whether or not the word is static.
    `tilde` is True when the word starts with an unquoted `~` (the walker expands it from its state);
    `value` then holds the quote-removed text after the `~`: `~` → "", `~/x` → "/x",
    `~user/x` → "user/x", `~+/x` → "+/x", `~-` → "-" (so "" or a leading "/" means HOME).
    `raw` is the source text of the word; `span` points at it.
    """

    raw: str
    span: Span
    value: str | None
    substitutions: list[Node] = field(default_factory=list)
    tilde: bool = False
    #: For a word a wrapper made dynamic (xargs' `{}`): where in `raw` the part only known at run time starts.
    unknown_from: int | None = None

    @property
    def static(self) -> bool:
        return self.value is not None


@fast_dataclass(slots=True)
class Assignment:
    """`NAME=value` before a command or alone; `value.value` is None when not static.

    `name` includes a subscript as written (`a[1]`); `value` is the word after `=`/`+=`, and its
    `substitutions` also hold those of the subscript (`a[$(cmd)]=1` runs cmd).
    """

    name: str
    value: Word
    span: Span
    append: bool = False


@fast_dataclass(slots=True)
class Redirect:
    """A redirection. `op` is the operator as written without the fd: `>`, `>>`, `>|`, `&>`, `&>>`,
    `<>`, `<`, `>&`, `<&`, `<<`, `<<-`, `<<<`. `fd` is the explicit descriptor number, if any.
    `target` is the word after the operator (None for heredocs; `2` or `-` for `>&2`, `<&-`).
    For heredocs, `heredoc` is the body as bash feeds it (without the delimiter line, leading tabs
    removed for `<<-`), `heredoc_quoted` says whether the delimiter was quoted (body is literal
    data), and `heredoc_substitutions` holds the commands of `$(…)`/backquotes in an unquoted body.
    `span` covers the operator and the delimiter word, not the body. A `{var}>f` fd-variable is
    part of the redirection (not a word); `fd` is then None."""

    op: str
    span: Span
    fd: int | None = None
    target: Word | None = None
    heredoc: str | None = None
    heredoc_quoted: bool = False
    heredoc_substitutions: list[Node] = field(default_factory=list)


@fast_dataclass(slots=True)
class Command:
    """A simple command: assignments, words (words[0] is the command name), redirections."""

    span: Span
    words: list[Word] = field(default_factory=list)
    assignments: list[Assignment] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)


@fast_dataclass(slots=True)
class Pipeline:
    """`a | b | c`; every stage but (with lastpipe) the last runs in a subshell."""

    span: Span
    stages: list[Node]
    negated: bool = False


@fast_dataclass(slots=True)
class Sequence:
    """Commands joined by `;`, `&`, newlines, `&&`, `||`. `ops[i]` is the operator after parts[i]:
    one of `;` (also a newline), `&`, `&&`, `||`. There is one op per join, plus one more when
    the list ends with `&` (the last part runs in the background); a trailing `;` is dropped."""

    span: Span
    parts: list[Node]
    ops: list[str] = field(default_factory=list)


@fast_dataclass(slots=True)
class Subshell:
    """`( … )`: runs in a child shell; cd inside it does not leave it."""

    span: Span
    body: Node
    redirects: list[Redirect] = field(default_factory=list)


@fast_dataclass(slots=True)
class Group:
    """`{ …; }`: runs in the current shell."""

    span: Span
    body: Node
    redirects: list[Redirect] = field(default_factory=list)


@fast_dataclass(slots=True)
class Compound:
    """if / while / until / for / select / case / arithmetic-for / `[[ ]]` / `(( ))`.

    `kind` is one of `if`, `while`, `until`, `for`, `select`, `case`, `arith_for`, `cond`
    (`[[ ]]`), `arith` (`(( ))`), or `either` (no syntax: the bodies a function may have after branches that
    define it differently, shell/state.py `_either`); `words` holds the words the construct itself expands (the `for` list, the
    `case` subject and patterns, the operands of `[[ ]]`); `bodies` are the command lists it may run,
    in source order (conditions included). The walker treats every body as possibly run.
    For `arith_for`, `cond` and `arith`, `words` holds every word of the expressions; for `cond`, `arithmetic`
    holds those of them that are operands of an arithmetic test (`-eq`, `-lt`…). For `case`, `terminators` holds
    the operator after each body (`;;`, `;&` falls into the next body, `;;&` goes on testing the patterns after
    it); empty when every one is `;;`.
    """

    span: Span
    kind: str
    bodies: list[Node] = field(default_factory=list)
    words: list[Word] = field(default_factory=list)
    variable: str | None = None
    redirects: list[Redirect] = field(default_factory=list)
    arithmetic: list[Word] = field(default_factory=list)
    terminators: list[str] = field(default_factory=list)


@fast_dataclass(slots=True)
class Function:
    """`name() { … }`: analysed where it is called (and once at definition if never called)."""

    span: Span
    name: str
    body: Node
    redirects: list[Redirect] = field(default_factory=list)


Node = Command | Pipeline | Sequence | Subshell | Group | Compound | Function


@fast_dataclass(slots=True)
class Script:
    """The parse of one command string. `parser` names the back-end that produced it:
    "bashlex" or "shfmt". `body` is empty for empty and comment-only input."""

    source: str
    body: list[Node]
    parser: str = "bashlex"
