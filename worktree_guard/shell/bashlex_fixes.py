"""Load-time fixes to bashlex 0.18, made through its own modules (no copied or forked files).

* `heredoc.makeheredoc` is replaced: the delimiter is quote-removed, so `<<'EOF'`, `<<"EOF"`,
  `<<\\EOF`, `<<E'O'F` and `<<-'EOF'` terminate (idank/bashlex#99), and the heredoc node records
  `quoted` (the body is literal) and `body` (the text without the delimiter line, tabs stripped for
  `<<-`).
* The grammar actions that raise NotImplementedError for `time` and `case` are given working
  bodies, and the `elif` action no longer hides the branches after a second `elif`. PLY binds each production to its action function when the tables are built, so the
  new functions are set both on `bashlex.parser` and on the productions of `yaccparser`.
* Nested parses (`subst._recursiveparse`) report where they really end and refuse to stop early,
  and words of the shape `'…'$(…)'…'`, whose substitutions bashlex skips, are refused.
* `ast.nodevisitor.visit` learns the two node kinds the `case` action creates (`case`,
  `pattern`), because bashlex shifts positions with that visitor.

Everything here depends on bashlex internals, which is why pyproject pins bashlex==0.18.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

from worktree_guard.shell.words import remove_quotes

_APPLIED_FLAG = "_worktree_guard_fixes"
#: What may follow a nested command before its closing `)` / the end of a backquoted text: blanks, `;`, `&`
#: and comments. Written so that each character is read once or twice (lines of blanks and comments, then a
#: last line that reaches the `)`, which a comment may hold), not `(?:[ \t\r\n;&]|#[^\n]*)*`, which split a
#: run of `#` every possible way before failing: 2**n tries. The same strings match (tests/test_parse_work.py).
_SUBSTITUTION_TAIL = re.compile(r"(?:[ \t\r;&]*+(?:#[^\n]*+)?\n)*[ \t\r;&]*+(?:#[^\n]*)?\)")
_BACKQUOTE_TAIL = re.compile(r"(?:[ \t\r\n;&]++|#[^\n]*+)*+\Z")


def apply(bashlex: ModuleType) -> None:
    """Patch an imported bashlex package in place; calling it again does nothing."""
    if getattr(bashlex, _APPLIED_FLAG, False):
        return
    from bashlex import ast, errors, heredoc, parser, subst

    def makeheredoc(tokenizer: Any, redirnode: Any, lineno: int, killleading: bool) -> str:
        raw = redirnode.output.word
        unquoted = remove_quotes(raw)
        if unquoted is None:
            raise errors.ParsingError(
                "unsupported here-document delimiter %r" % raw,
                tokenizer._shell_input_line,
                tokenizer._shell_input_line_index,
            )
        delimiter, quoted = unquoted
        startpos = tokenizer._shell_input_line_index
        lines: list[str] = []
        while True:
            line = tokenizer.readline(False)
            if line is None:
                raise errors.ParsingError(
                    "here-document delimited by end-of-file (wanted %r)" % delimiter,
                    tokenizer._shell_input_line,
                    tokenizer._shell_input_line_index,
                )
            if killleading:
                line = line.lstrip("\t")
            if line in (delimiter + "\n", delimiter):
                break
            lines.append(line)
        body = "".join(lines)
        endpos = tokenizer._shell_input_line_index - 1
        redirnode.heredoc = ast.node(
            kind="heredoc", value=body, body=body, quoted=quoted, pos=(startpos, endpos)
        )
        # as bashlex does: a heredoc right after its redirection extends the redirection, which is
        # how the end of a `$( … )` holding a heredoc is found
        if redirnode.pos[1] + 1 == startpos:
            redirnode.pos = (redirnode.pos[0], endpos)
        return body

    heredoc.makeheredoc = makeheredoc
    subst._recursiveparse = _make_recursiveparse(subst._recursiveparse, errors)
    subst._expandwordinternal = _make_expandwordinternal(subst._expandwordinternal, errors)

    _rebind(parser, "p_timespec", _make_timespec(ast))
    _rebind(parser, "p_pipeline_command", _make_pipeline_command(ast, parser.p_pipeline_command))
    for name, action in _make_case_actions(ast, parser).items():
        _rebind(parser, name, action)
    _rebind(parser, "p_elif_clause", _make_elif_clause(ast))
    _teach_visitor(ast)
    setattr(bashlex, _APPLIED_FLAG, True)


def _make_recursiveparse(original: Any, errors: Any) -> Any:
    def _recursiveparse(parserobj: Any, base: str, sindex: int, tokenizerargs: Any = None) -> Any:
        """The stock function, plus two checks on where the nested command ends.

        * The end covers heredoc bodies. A command node's end stops at its redirection, but in
          `$(cat <<'EOF'⏎…⏎EOF⏎)` the body comes after it; bashlex used the command's end to find
          the `)`, then scanned the body as part of the enclosing word and reported `$(…)` in a
          quoted body as commands.
        * Only blanks, newlines, comments and terminators may follow up to the `)` (or the end of
          a backquoted text). bashlex stops a nested parse at the first newline, so
          `$(true⏎git switch main)` silently lost the second line; that now raises.
        """
        expects_paren = bool(tokenizerargs) and "eoftoken" in tokenizerargs
        node, end = original(parserobj, base, sindex, tokenizerargs)
        stack = [node]
        while stack:
            n = stack.pop()
            if n.kind == "heredoc":
                end = max(end, n.pos[1] - sindex)  # positions were already shifted by sindex
            for value in n.__dict__.values():
                if isinstance(value, list):
                    stack.extend(v for v in value if hasattr(v, "kind"))
                elif hasattr(value, "kind"):
                    stack.append(value)
        tail = _SUBSTITUTION_TAIL if expects_paren else _BACKQUOTE_TAIL
        if not tail.match(base, sindex + end):
            raise errors.ParsingError(
                "command substitution that bashlex reads only in part", base, sindex + end
            )
        return node, end

    return _recursiveparse


#: Text that starts a command (or a `${…}` that may hold one) inside a word.
_CODE_OPENERS = ("$(", "`", "<(", ">(", "${")


def _make_expandwordinternal(original: Any, errors: Any) -> Any:
    def _expandwordinternal(parserobj: Any, wordtoken: Any, *args: Any) -> Any:
        """The stock function, but refusing the word shape it skips by mistake.

        bashlex treats a word that starts and ends with `'` as one single-quoted string, so in
        `'a'$(git switch main)'b'` it never sees the substitution. Such words raise (and the
        caller falls back) when they hold anything that could run a command.
        """
        text = wordtoken.value
        if (
            len(text) > 2
            and text[0] == "'"
            and text[-1] == "'"
            and "'" in text[1:-1]
            and any(opener in text for opener in _CODE_OPENERS)
        ):
            raise errors.ParsingError(
                "word with single-quoted ends and code between them", text, 0
            )
        return original(parserobj, wordtoken, *args)

    return _expandwordinternal


def _rebind(parser: ModuleType, name: str, action: Any) -> None:
    """Make `action` the grammar action `name`, for the built parser and any later rebuild."""
    action.__name__ = name
    setattr(parser, name, action)
    for production in parser.yaccparser.productions:
        if production.func == name:
            production.callable = action


def _make_timespec(ast: Any) -> Any:
    def p_timespec(p: Any) -> None:
        """timespec : TIME | TIME TIMEOPT | TIME TIMEOPT TIMEIGN"""
        p[0] = ast.node(kind="reservedword", word="time", pos=(p.lexpos(1), p.endlexpos(len(p) - 1)))

    return p_timespec


def _make_pipeline_command(ast: Any, original: Any) -> Any:
    def p_pipeline_command(p: Any) -> None:
        """The stock action, except that `time` is dropped: it changes nothing but the report."""
        first = p[1] if len(p) == 3 else None
        if getattr(first, "kind", None) == "reservedword" and first.word == "time":
            inner = p[2]
            if getattr(inner, "kind", "operator") != "operator":
                p[0] = inner
            else:  # `time` alone, before a terminator
                p[0] = ast.node(kind="command", parts=[], pos=first.pos)
            return
        original(p)

    return p_pipeline_command


def _make_elif_clause(ast: Any) -> Any:
    def p_elif_clause(p: Any) -> None:
        """The stock action wrapped a nested elif_clause (a list) in a `reservedword` node, which
        hid the third and later branches of `if … elif … elif … else … fi`; flatten it instead."""
        parts: list[Any] = []
        for i in range(1, len(p)):
            if isinstance(p[i], ast.node):
                parts.append(p[i])
            elif isinstance(p[i], list):
                parts.extend(p[i])
            else:
                parts.append(ast.node(kind="reservedword", word=p[i], pos=p.lexspan(i)))
        p[0] = parts

    return p_elif_clause


def _make_case_actions(ast: Any, parser: Any) -> dict[str, Any]:
    """Actions for the `case` productions; the node is a `compound` holding a `case` node whose
    parts are: reservedword `case`, the subject word, reservedword `in`, `pattern` nodes, `esac`.
    A `pattern` node's parts are its pattern words followed by its command list (if any)."""
    expandword = parser._expandword

    def reserved(p: Any, i: int) -> Any:
        return ast.node(kind="reservedword", word=p[i], pos=p.lexspan(i))

    def p_case_command(p: Any) -> None:
        subject = expandword(p.context, p.slice[2])
        items: list[Any] = []
        for i in range(5, len(p) - 1):
            if isinstance(p[i], list):
                items.extend(p[i])
        parts = [reserved(p, 1), subject, reserved(p, 4), *items, reserved(p, len(p) - 1)]
        pos = (p.lexpos(1), p.endlexpos(len(p) - 1))
        case = ast.node(kind="case", parts=parts, pos=pos)
        p[0] = ast.node(kind="compound", list=[case], redirects=[], pos=pos)

    def p_pattern(p: Any) -> None:
        if len(p) == 2:
            p[0] = [expandword(p.context, p.slice[1])]
        else:
            p[0] = p[1] + [expandword(p.context, p.slice[3])]

    def p_pattern_list(p: Any) -> None:
        paren = 3 if isinstance(p[2], list) else 4
        patterns = p[paren - 1]
        body = p[len(p) - 1]
        parts = list(patterns)
        end = p.endlexpos(paren)
        if isinstance(body, ast.node):
            parts.append(body)
            end = body.pos[1]
        start = p.lexpos(2) if paren == 4 else patterns[0].pos[0]
        p[0] = ast.node(kind="pattern", parts=parts, pos=(start, end))

    def p_case_clause_sequence(p: Any) -> None:
        # `pattern_list ;;`, `;&` or `;;&`: the terminator decides where bash goes after the body
        pattern = p[1] if len(p) == 3 else p[2]
        pattern.terminator = p[len(p) - 1]
        p[0] = [pattern] if len(p) == 3 else p[1] + [pattern]

    def p_case_clause(p: Any) -> None:
        p[0] = [p[1]] if len(p) == 2 else p[1] + [p[2]]

    return {
        "p_case_command": p_case_command,
        "p_pattern": p_pattern,
        "p_pattern_list": p_pattern_list,
        "p_case_clause_sequence": p_case_clause_sequence,
        "p_case_clause": p_case_clause,
    }


def _teach_visitor(ast: Any) -> None:
    original = ast.nodevisitor.visit

    def visit(self: Any, n: Any) -> Any:
        if n.kind in ("case", "pattern"):
            self.visitnode(n)
            for child in n.parts:
                self.visit(child)
            self.visitnodeend(n)
            return None
        return original(self, n)

    ast.nodevisitor.visit = visit
