"""Run (patched) bashlex over a command string and translate its nodes into the neutral AST.

bashlex parses one top-level command per call; `parse_with_bashlex` loops over the string as
`bashlex.parse` does, but treats empty and comment-only input as an empty script. Where bashlex's
tree is known to be wrong or incomplete (bash-parsing.md §3.3), the translator raises
`NeedsFallback` instead of returning it, and the caller hands the string to the second parser:

* `${…}` holding `$(`, a backtick or `<(`/`>(` (W2): bashlex keeps it as one opaque parameter;
* an unquoted heredoc body holding `$(` or a backtick (W3): bashlex does not parse bodies;
* a heredoc body that does not start where bash starts it (W4/W5, heredocs in compound commands);
* backquotes holding a backslash: bashlex parses the text without bash's unescaping, so nested
  backquotes are missed;
* `((`…`))` read as two subshells (W6), and any text left over after the last command.
"""

from __future__ import annotations

import re
from typing import Any

from worktree_guard.shell.ast import (
    Assignment,
    Command,
    Compound,
    Function,
    Group,
    Node,
    Pipeline,
    Redirect,
    Script,
    Sequence,
    Span,
    Subshell,
    Word,
)
from worktree_guard.shell.words import ASSIGNMENT_PREFIX, word_value


class NeedsFallback(Exception):
    """bashlex's tree for this input cannot be trusted; `args[0]` names the construct."""


#: A `{varname}` word glued to the redirection after it: bash's fd-allocating redirection (W7).
_FD_VARIABLE = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}\Z")
#: What may follow the last command bashlex returned: blanks and comments only. Possessive, so that a run of
#: `#` or blanks is read once: `(?:[ \t\r\n]+|#[^\n]*)*\Z` split it every possible way before failing (2**n
#: tries, review of issue 12 R1); the same strings match (tests/test_parse_work.py).
_BLANK_REST = re.compile(r"(?:[ \t\r\n]++|#[^\n]*+)*+\Z")
#: Text in a `${…}` that means a command runs inside it (W2).
_CODE_IN_PARAMETER = ("$(", "`", "<(", ">(")
#: Characters that can end a word (or the end of the input: "").
_WORD_END = ("", " ", "\t", "\n", "\r", ";", "&", "|", "(", ")", "<", ">")
_OPERATOR_NAMES = {"\n": ";", ";": ";", "&": "&", "&&": "&&", "||": "||"}


def parse_with_bashlex(bashlex: Any, source: str, offset: int = 0) -> Script:
    """Parse `source` with bashlex (already patched) into a Script; raises bashlex's exceptions,
    RecursionError, or NeedsFallback."""
    translator = _Translator(source, offset)
    body: list[Node] = []
    index = 0
    length = len(source)
    while index < length:
        tree = bashlex.parser._parser(source[index:]).parse()
        if not isinstance(tree, bashlex.ast.node):
            break  # None or a bare string: nothing but blanks/comments from here
        if index:
            bashlex.ast.posshifter(index).visit(tree)
        body.append(translator.node(tree))
        index = max(tree.pos[1], _last_heredoc_end(tree)) + 1
    if index < length and not _BLANK_REST.match(source, index):
        raise NeedsFallback("text after the last command bashlex read")
    translator.check_heredoc_positions()
    return Script(source=source, body=body, parser="bashlex")


def _runs_code(parameter: str) -> bool:
    """W2: does the text of a `${…}` (as bashlex cut it, up to the first `}`) run a command?
    Substitutions inside it, and bash 5.3's `${ cmd; }` / `${| cmd; }` command forms."""
    return any(t in parameter for t in _CODE_IN_PARAMETER) or parameter[:1] in (" ", "\t", "\n", "|")


def _children(n: Any) -> list[Any]:
    out: list[Any] = []
    for value in n.__dict__.values():
        if isinstance(value, list):
            out.extend(v for v in value if hasattr(v, "kind"))
        elif hasattr(value, "kind"):
            out.append(value)
    return out


def _last_heredoc_end(tree: Any) -> int:
    end = -1
    stack = [tree]
    while stack:
        n = stack.pop()
        if n.kind == "heredoc":
            end = max(end, n.pos[1])
        stack.extend(_children(n))
    return end


class _Translator:
    """bashlex nodes (positions relative to `source`) → neutral nodes (spans + offset)."""

    def __init__(self, source: str, offset: int) -> None:
        self.source = source
        self.offset = offset
        # (end of the redirection's delimiter word, body start, end of the delimiter line)
        self.heredocs: list[tuple[int, int, int]] = []

    def span(self, pos: tuple[int, int]) -> Span:
        return (pos[0] + self.offset, pos[1] + self.offset)

    # -- structure ---------------------------------------------------------------------------

    def node(self, n: Any) -> Node:
        kind = n.kind
        if kind == "list":
            return self.sequence(n)
        if kind == "pipeline":
            return self.pipeline(n)
        if kind == "command":
            return self.command(n)
        if kind == "compound":
            return self.compound(n)
        if kind == "function":
            return Function(span=self.span(n.pos), name=n.name.word, body=self.node(n.body))
        raise NeedsFallback(f"bashlex node {kind!r}")

    def sequence(self, n: Any) -> Node:
        parts: list[Node] = []
        ops: list[str] = []
        for part in n.parts:
            if part.kind == "operator":
                op = _OPERATOR_NAMES.get(part.op)
                if op is None:
                    raise NeedsFallback(f"operator {part.op!r}")
                if len(ops) == len(parts):  # two terminators in a row: `&` wins over `;`
                    if ops and op == "&":
                        ops[-1] = op
                    continue
                ops.append(op)
            else:
                parts.append(self.node(part))
        if len(ops) == len(parts) and ops and ops[-1] == ";":
            ops.pop()  # a trailing `;` or newline changes nothing; a trailing `&` is kept
        if len(parts) == 1 and not ops:
            return parts[0]
        return Sequence(span=self.span(n.pos), parts=parts, ops=ops)

    def pipeline(self, n: Any) -> Node:
        stages: list[Node] = []
        negated = False
        for part in n.parts:
            if part.kind == "reservedword" and part.word == "!":
                negated = not negated
            elif part.kind != "pipe":
                stages.append(self.node(part))
        return Pipeline(span=self.span(n.pos), stages=stages, negated=negated)

    def command(self, n: Any) -> Command:
        cmd = Command(span=self.span(n.pos))
        parts = n.parts
        for i, part in enumerate(parts):
            kind = part.kind
            if kind == "redirect":
                cmd.redirects.append(self.redirect(part))
            elif kind == "word" and self.is_fd_variable(part, parts[i + 1 : i + 2]):
                continue  # `{fd}>file`: part of the redirection, not an argument
            elif kind in ("word", "assignment"):
                if not cmd.words:
                    assignment = self.assignment(part)
                    if assignment is not None:
                        cmd.assignments.append(assignment)
                        continue
                cmd.words.append(self.word(part))
            else:
                raise NeedsFallback(f"bashlex command part {kind!r}")
        return cmd

    def is_fd_variable(self, word: Any, following: list[Any]) -> bool:
        return (
            bool(following)
            and following[0].kind == "redirect"
            and following[0].pos[0] == word.pos[1]
            and _FD_VARIABLE.match(self.source, word.pos[0], word.pos[1]) is not None
        )

    def compound(self, n: Any) -> Node:
        first = n.list[0]
        redirects = [self.redirect(r) for r in n.redirects]
        if first.kind == "reservedword" and first.word in ("{", "("):
            inner = [self.node(part) for part in n.list[1:-1]]
            body = inner[0] if len(inner) == 1 else Sequence(span=self.span(n.pos), parts=inner)
            if first.word == "{":
                return Group(span=self.span(n.pos), body=body, redirects=redirects)
            if self.source.startswith("((", n.pos[0]):
                raise NeedsFallback("arithmetic command (( ))")  # W6: not two subshells
            return Subshell(span=self.span(n.pos), body=body, redirects=redirects)
        kind = first.kind
        compound = Compound(span=self.span(n.pos), kind=kind, redirects=redirects)
        if kind in ("if", "while", "until"):
            for part in first.parts:
                if part.kind != "reservedword":
                    compound.bodies.append(self.node(part))
                elif not isinstance(part.word, str):
                    raise NeedsFallback("nested elif")  # unpatched bashlex hides these branches
        elif kind == "for":
            self.for_loop(first, compound)
        elif kind == "case":
            for part in first.parts:
                if part.kind == "word":
                    compound.words.append(self.word(part))
                elif part.kind == "pattern":
                    terminator = getattr(part, "terminator", ";;")
                    bodies = len(compound.bodies)
                    for item in part.parts:
                        if item.kind == "word":
                            compound.words.append(self.word(item))
                        else:
                            compound.bodies.append(self.node(item))
                    if len(compound.bodies) > bodies:
                        compound.terminators.append(terminator)
                    elif terminator == ";;&" and compound.terminators[-1:] == [";&"]:
                        compound.terminators[-1] = ";;&"  # `a) X=1 ;& b) ;;&`: a's state goes on testing
            if all(op == ";;" for op in compound.terminators):
                compound.terminators = []
        else:
            raise NeedsFallback(f"bashlex compound {kind!r}")
        return compound

    def for_loop(self, n: Any, compound: Compound) -> None:
        parts = n.parts
        compound.variable = parts[1].word
        in_list = False
        for part in parts[2:]:
            if part.kind == "reservedword":
                in_list = part.word == "in"
            elif part.kind == "word":
                if in_list:
                    compound.words.append(self.word(part))
            else:
                compound.bodies.append(self.node(part))

    # -- words -------------------------------------------------------------------------------

    def word(self, n: Any) -> Word:
        raw = self.source[n.pos[0] : n.pos[1]]
        value, tilde = word_value(raw)
        # A static word has no `$` or backquote outside single quotes, so any substitution bashlex
        # reports in it is one of its inventions inside single quotes (`x='$(a)'`, W11).
        substitutions = [] if value is not None else self.substitutions(n)
        return Word(raw=raw, span=self.span(n.pos), value=value, substitutions=substitutions, tilde=tilde)

    def substitutions(self, n: Any) -> list[Node]:
        found: list[Node] = []
        for part in n.parts:
            if part.kind in ("commandsubstitution", "processsubstitution"):
                text = self.source[part.pos[0] : part.pos[1]]
                if text.startswith("`") and "\\" in text:
                    raise NeedsFallback("backslash inside backquotes")
                found.append(self.node(part.command))
            elif part.kind == "parameter" and _runs_code(part.value):
                raise NeedsFallback("command substitution inside ${…}")
        return found

    def assignment(self, n: Any) -> Assignment | None:
        start, end = n.pos
        raw = self.source[start:end]
        match = ASSIGNMENT_PREFIX.match(raw)
        if match is None:
            return None
        value_raw = raw[match.end() :]
        value, tilde = word_value(value_raw)
        value_start = start + match.end()
        # subscript substitutions included: `a[$(x)]=1` runs x
        static_name = "$" not in match.group(1) and "`" not in match.group(1)
        substitutions = [] if value is not None and static_name else self.substitutions(n)
        value_word = Word(
            raw=value_raw,
            span=self.span((value_start, end)),
            value=value,
            substitutions=substitutions,
            tilde=tilde,
        )
        return Assignment(
            name=match.group(1), value=value_word, span=self.span(n.pos), append=bool(match.group(2))
        )

    def redirect(self, n: Any) -> Redirect:
        fd = n.input if isinstance(n.input, int) else None
        output = n.output
        if n.type in ("<<", "<<-"):
            doc = n.heredoc
            if not doc.quoted and ("$(" in doc.body or "`" in doc.body):
                raise NeedsFallback("command substitution in an unquoted here-document")  # W3
            if doc.quoted and "\\\n" in self.source[doc.pos[0] : doc.pos[1]]:
                # bashlex drops a backslash-newline in a quoted body, which bash keeps: `bash <<-'E'` then joined
                # `>x\` and `/../../README.md` into one path bashlex read as two words (h-hk31)
                raise NeedsFallback("backslash-newline in a quoted here-document")
            self.heredocs.append((output.pos[1], doc.pos[0], doc.pos[1]))
            return Redirect(
                op=n.type,
                span=self.span((n.pos[0], output.pos[1])),
                fd=fd,
                heredoc=doc.body,
                heredoc_quoted=doc.quoted,
            )
        if hasattr(output, "kind"):
            target = self.word(output)
        else:  # `>&2`, `<&-`: bashlex gives the number or dash itself
            text = str(output)
            end = n.pos[1]
            if text == "-" and self.source[end : end + 1] not in _WORD_END:
                # `>&-x/../f` writes to the file `-x/../f`; bashlex closes the fd and makes
                # `x/../f` an argument
                raise NeedsFallback("`>&-word` redirection")
            target = Word(raw=text, span=self.span((end - len(text), end)), value=text)
        return Redirect(op=n.type, span=self.span(n.pos), fd=fd, target=target)

    def check_heredoc_positions(self) -> None:
        """W4: each body must start on the line after its redirection, or right after the body of
        an earlier heredoc on that same line. bashlex reads bodies late inside compounds."""
        line_end = -1
        previous_end = -1
        for redirect_end, body_start, body_end in sorted(self.heredocs):
            if redirect_end <= line_end:
                expected = previous_end + 1
            else:
                line_end = self.source.find("\n", redirect_end)
                if line_end < 0:
                    raise NeedsFallback("here-document without a body")
                expected = line_end + 1
            if body_start != expected:
                raise NeedsFallback("here-document inside a compound command")
            previous_end = body_end
