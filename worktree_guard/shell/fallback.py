"""The second parser: mvdan/sh through `shfmt --to-json`, translated into the neutral AST.

Used only for what bashlex cannot parse or cannot be trusted with (`parse.parse` decides). shfmt
comes from the `shfmt-py` wheel, which installs the binary beside the interpreter; it is run from
there, never looked up on PATH (an agent could put its own `shfmt` first on PATH).

mvdan/sh reports byte offsets; spans here are character offsets like everywhere else. mvdan/sh's
offsets inside a backquoted substitution that holds a backslash are shifted by the unescaping, so
such a substitution is unescaped and parsed again on its own (as bash does); spans inside it index
the unescaped text and are approximate. Should that ever fail to apply, the words are dynamic.
"""

from __future__ import annotations

import os
import re
import sys
import sysconfig
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
from worktree_guard.shell.words import ASSIGNMENT_PREFIX, remove_quotes, word_value

#: Seconds shfmt may take before the command counts as over the parse budget (WG901): a last resort only. Its
#: work is bounded beforehand by the input's size (parse.MAX_SOURCE_BYTES, walk.MAX_PARSED_CHARS): the largest
#: input takes about 1 s of CPU (20 MB of JSON), 2.5 s on a loaded 2-core machine, which the old 5 s came close
#: to. 15 s is load no judgement survives anyway (the hook's own watchdog, 20 s, refuses the call too).
SHFMT_TIMEOUT_S = 15.0
#: Word parts that can be static; every other part type is an expansion.
_LITERAL_PARTS = frozenset(("Lit", "SglQuoted", "DblQuoted"))
#: The operators of `[[ ]]` whose operands bash evaluates as arithmetic.
_ARITHMETIC_TESTS = frozenset(("-eq", "-ne", "-lt", "-le", "-gt", "-ge"))


class FallbackError(Exception):
    """shfmt is missing, rejected the command, or produced something we cannot translate."""


class FallbackTimeout(FallbackError):
    """shfmt took longer than SHFMT_TIMEOUT_S."""


def shfmt_path() -> str | None:
    """The shfmt binary installed by shfmt-py next to this interpreter, or None."""
    for directory in (sysconfig.get_path("scripts"), os.path.dirname(sys.executable)):
        if directory:
            candidate = os.path.join(directory, "shfmt")
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
    return None


def run_shfmt(source: str) -> dict[str, Any]:
    """shfmt's JSON syntax tree for `source` (bash dialect)."""
    import json
    import subprocess

    path = shfmt_path()
    if path is None:
        raise FallbackError("shfmt (PyPI shfmt-py) is not installed beside this interpreter")
    try:
        proc = subprocess.run(
            [path, "-ln", "bash", "--to-json"],
            input=source.encode("utf-8"),
            capture_output=True,
            timeout=SHFMT_TIMEOUT_S,
            cwd="/",
        )
    except subprocess.TimeoutExpired:
        raise FallbackTimeout(f"shfmt took over {SHFMT_TIMEOUT_S} s") from None
    if proc.returncode != 0:
        message = proc.stderr.decode("utf-8", "replace").strip() or f"exit {proc.returncode}"
        raise FallbackError(message)
    tree = json.loads(proc.stdout)
    if not isinstance(tree, dict) or tree.get("Type") != "File":
        raise FallbackError("unexpected shfmt output")
    return tree


def parse_with_shfmt(source: str, offset: int = 0) -> Script:
    tree = run_shfmt(source)
    translator = _Translator(source, offset)
    body = [translator.statement(stmt, top_level=True) for stmt in tree.get("Stmts") or []]
    return Script(source=source, body=body, parser="shfmt")


class _Translator:
    """shfmt JSON (byte offsets) → neutral nodes (character spans + offset)."""

    def __init__(self, source: str, offset: int) -> None:
        self.source = source
        self.offset = offset
        self.opaque_depth = 0  # > 0 inside backquotes whose text holds a backslash
        if source.isascii():
            self.char_at: list[int] | None = None
        else:
            table: list[int] = []
            for index, char in enumerate(source):
                table.extend([index] * len(char.encode("utf-8", "surrogatepass")))
            table.append(len(source))
            self.char_at = table

    # -- positions ---------------------------------------------------------------------------

    def index(self, pos: dict[str, Any]) -> int:
        byte = pos["Offset"]
        return byte if self.char_at is None else self.char_at[min(byte, len(self.char_at) - 1)]

    def bounds(self, n: dict[str, Any]) -> tuple[int, int]:
        return self.index(n["Pos"]), self.index(n["End"])

    def span(self, n: dict[str, Any]) -> Span:
        start, end = self.bounds(n)
        return (start + self.offset, end + self.offset)

    # -- statements --------------------------------------------------------------------------

    def statement(self, stmt: dict[str, Any], top_level: bool = False) -> Node:
        node = self.statement_core(stmt)
        if top_level and stmt.get("Background"):
            return Sequence(span=self.span(stmt), parts=[node], ops=["&"])
        return node

    def statement_core(self, stmt: dict[str, Any]) -> Node:
        redirects = [self.redirect(r) for r in stmt.get("Redirs") or []]
        cmd = stmt.get("Cmd")
        if cmd is None:
            node: Node = Command(span=self.span(stmt), redirects=redirects)
        else:
            node = self.command(cmd, redirects)
        if stmt.get("Negated"):
            if isinstance(node, Pipeline):
                node.negated = not node.negated
            else:
                node = Pipeline(span=self.span(stmt), stages=[node], negated=True)
        return node

    def statements(self, stmts: list[dict[str, Any]] | None, around: dict[str, Any]) -> Node:
        """A command list: one node, or a Sequence joined by `;` / `&`."""
        stmts = stmts or []
        if len(stmts) == 1 and not stmts[0].get("Background"):
            return self.statement_core(stmts[0])
        parts = [self.statement_core(s) for s in stmts]
        ops = ["&" if s.get("Background") else ";" for s in stmts]
        if ops and ops[-1] == ";":
            ops.pop()
        span = (self.span(stmts[0])[0], self.span(stmts[-1])[1]) if stmts else self.span(around)
        return Sequence(span=span, parts=parts, ops=ops)

    def command(self, cmd: dict[str, Any], redirects: list[Redirect]) -> Node:
        kind = cmd.get("Type")
        span = self.span(cmd)
        if kind == "CallExpr":
            return Command(
                span=span,
                words=[self.word(w) for w in cmd.get("Args") or []],
                assignments=[self.assignment(a) for a in cmd.get("Assigns") or []],
                redirects=redirects,
            )
        if kind == "BinaryCmd":
            return self.binary(cmd)
        if kind == "Block":
            return Group(span=span, body=self.statements(cmd.get("Stmts"), cmd), redirects=redirects)
        if kind == "Subshell":
            return Subshell(span=span, body=self.statements(cmd.get("Stmts"), cmd), redirects=redirects)
        if kind == "IfClause":
            compound = Compound(span=span, kind="if", redirects=redirects)
            clause: dict[str, Any] | None = cmd
            while clause is not None:
                if clause.get("Cond"):
                    compound.bodies.append(self.statements(clause["Cond"], clause))
                if clause.get("Then"):
                    compound.bodies.append(self.statements(clause["Then"], clause))
                clause = clause.get("Else")
            return compound
        if kind == "WhileClause":
            return Compound(
                span=span,
                kind="until" if cmd.get("Until") else "while",
                bodies=[self.statements(cmd.get("Cond"), cmd), self.statements(cmd.get("Do"), cmd)],
                redirects=redirects,
            )
        if kind == "ForClause":
            return self.for_clause(cmd, redirects)
        if kind == "CaseClause":
            compound = Compound(span=span, kind="case", words=[self.word(cmd["Word"])], redirects=redirects)
            for item in cmd.get("Items") or []:
                compound.words.extend(self.word(p) for p in item.get("Patterns") or [])
                if item.get("Stmts"):
                    compound.bodies.append(self.statements(item["Stmts"], item))
                    compound.terminators.append(item.get("Op") or ";;")
                elif item.get("Op") == ";;&" and compound.terminators[-1:] == [";&"]:
                    compound.terminators[-1] = ";;&"  # `a) X=1 ;& b) ;;&`: a's state goes on testing
            if all(op == ";;" for op in compound.terminators):
                compound.terminators = []
            return compound
        if kind == "FuncDecl":
            return Function(span=span, name=cmd["Name"]["Value"], body=self.statement_core(cmd["Body"]), redirects=redirects)
        if kind == "ArithmCmd":
            return Compound(span=span, kind="arith", words=self.words_within(cmd.get("X")), redirects=redirects)
        if kind == "TestClause":
            nodes = self.word_nodes(cmd.get("X"))
            words = [self.word(n) for n in nodes]
            operands = {id(n) for n in self.arithmetic_operands(cmd.get("X"))}
            arithmetic = [word for word, node in zip(words, nodes) if id(node) in operands]
            return Compound(span=span, kind="cond", words=words, redirects=redirects, arithmetic=arithmetic)
        if kind == "DeclClause":
            words = [self.literal_word(cmd["Variant"])]
            words.extend(self.word_from_span(a) for a in cmd.get("Args") or [])
            return Command(span=span, words=words, redirects=redirects)
        if kind == "LetClause":
            start = self.index(cmd["Let"])
            words = [self.word_at(start, start + 3)]
            words.extend(self.word_from_span(e) for e in cmd.get("Exprs") or [])
            return Command(span=span, words=words, redirects=redirects)
        if kind == "TimeClause":
            inner = cmd.get("Stmt")
            return self.statement_core(inner) if inner else Command(span=span, redirects=redirects)
        if kind == "CoprocClause":
            return Subshell(span=span, body=self.statement_core(self.coproc_statement(cmd["Stmt"])), redirects=redirects)
        raise FallbackError(f"unsupported shfmt node {kind!r}")

    def coproc_statement(self, stmt: dict[str, Any]) -> dict[str, Any]:
        """shfmt reads the words after `coproc` as arguments, assignments among them; bash runs `coproc X=1 cmd` as
        the simple command `X=1 cmd` (`coproc GIT_DIR=<main>/.git GIT_WORK_TREE=<main> git rm x` ran git rm in
        the main checkout and passed: review 22, F4). Leading words spelled as assignments become assignments."""
        inner = stmt.get("Cmd") or {}
        args = inner.get("Args") or []
        if inner.get("Type") != "CallExpr" or not args:
            return stmt
        start, end = self.bounds(args[0])
        first = self.source[start:end]
        if (first.isdigit() or re.fullmatch(r"\{[A-Za-z_][A-Za-z0-9_]*\}", first)) and self.source[end:end + 1] in ("<", ">"):
            # `coproc 2>/dev/null cmd`, `coproc {fd}>f cmd`: shfmt takes the redirection's fd for a word (the command was `2`: review
            # 22b); the redirection itself is the statement's
            args = args[1:]
            inner = {**inner, "Args": args}
            stmt = {**stmt, "Cmd": inner}
            if not args:
                return stmt
        taken = 0
        while taken < len(args) - 1:  # the last word is the command (`coproc X=1` alone is a name and a command)
            start, end = self.bounds(args[taken])
            if ASSIGNMENT_PREFIX.match(self.source[start:end]) is None:
                break
            taken += 1
        if not taken:
            return stmt
        assigns = [{"Pos": a["Pos"], "End": a["End"], "Value": {"Parts": a.get("Parts") or []}} for a in args[:taken]]
        return {**stmt, "Cmd": {**inner, "Assigns": [*(inner.get("Assigns") or []), *assigns], "Args": args[taken:]}}

    def binary(self, cmd: dict[str, Any]) -> Node:
        op = cmd["Op"]
        pipe = op in ("|", "|&")
        if not pipe and op not in ("&&", "||"):
            raise FallbackError(f"unsupported operator {op!r}")
        parts: list[Node] = []
        ops: list[str] = []

        def flatten(stmt: dict[str, Any]) -> None:
            inner = stmt.get("Cmd") or {}
            joins = ("|", "|&") if pipe else ("&&", "||")
            plain = not (stmt.get("Redirs") or stmt.get("Negated") or stmt.get("Background"))
            if plain and inner.get("Type") == "BinaryCmd" and inner["Op"] in joins:
                flatten(inner["X"])
                ops.append(inner["Op"])
                flatten(inner["Y"])
            else:
                parts.append(self.statement_core(stmt))

        flatten(cmd["X"])
        ops.append(op)
        flatten(cmd["Y"])
        if pipe:
            return Pipeline(span=self.span(cmd), stages=parts)
        return Sequence(span=self.span(cmd), parts=parts, ops=ops)

    def for_clause(self, cmd: dict[str, Any], redirects: list[Redirect]) -> Compound:
        loop = cmd["Loop"]
        body = [self.statements(cmd.get("Do"), cmd)]
        if loop.get("Type") == "CStyleLoop":
            words: list[Word] = []
            for key in ("Init", "Cond", "Post"):
                words.extend(self.words_within(loop.get(key)))
            return Compound(span=self.span(cmd), kind="arith_for", bodies=body, words=words, redirects=redirects)
        return Compound(
            span=self.span(cmd),
            kind="select" if cmd.get("Select") else "for",
            bodies=body,
            words=[self.word(w) for w in loop.get("Items") or []],
            variable=loop["Name"]["Value"],
            redirects=redirects,
        )

    # -- words -------------------------------------------------------------------------------

    def word(self, w: dict[str, Any]) -> Word:
        start, end = self.bounds(w)
        raw = self.source[start:end]
        substitutions = self.substitutions(w)
        if self.opaque_depth:
            return Word(raw=raw, span=self.span(w), value=None, substitutions=substitutions)
        value, tilde = word_value(raw)
        if value is not None and not all(_is_literal(p) for p in w.get("Parts") or []):
            value = None
        return Word(raw=raw, span=self.span(w), value=value, substitutions=substitutions, tilde=tilde)

    def word_at(self, start: int, end: int, holder: Any = None) -> Word:
        """A word known only by its character range; expansions make it dynamic (see words.py)."""
        raw = self.source[start:end]
        value, tilde = (None, False) if self.opaque_depth else word_value(raw)
        subs = self.substitutions(holder) if holder is not None else []
        if subs:
            value = None
        return Word(raw=raw, span=(start + self.offset, end + self.offset), value=value, substitutions=subs, tilde=tilde)

    def word_from_span(self, n: dict[str, Any]) -> Word:
        start, end = self.bounds(n)
        return self.word_at(start, end, n)

    def literal_word(self, lit: dict[str, Any]) -> Word:
        start, end = self.bounds(lit)
        return self.word_at(start, end)

    def words_within(self, tree: Any) -> list[Word]:
        """Every word in an arithmetic or test expression, in source order."""
        return [self.word(n) for n in self.word_nodes(tree)]

    def arithmetic_operands(self, tree: Any) -> list[dict[str, Any]]:
        """The word nodes of a test expression that bash evaluates as arithmetic: the operands of -eq, -ne, -lt,
        -le, -gt and -ge (`[[ 'a[$(cmd)]' -eq 1 ]]` runs cmd; `[[ $s == 'a[$(cmd)]' ]]` does not)."""
        found: list[dict[str, Any]] = []
        stack = [tree]
        while stack:
            n = stack.pop()
            if isinstance(n, list):
                stack.extend(n)
            elif isinstance(n, dict):
                if n.get("Type") == "BinaryTest" and n.get("Op") in _ARITHMETIC_TESTS:
                    found.extend(side for side in (n.get("X"), n.get("Y")) if isinstance(side, dict) and side.get("Type") == "Word")
                stack.extend(v for v in n.values() if isinstance(v, (dict, list)))
        return found

    def word_nodes(self, tree: Any) -> list[dict[str, Any]]:
        """The Word nodes of an arithmetic or test expression, in source order."""
        found: list[dict[str, Any]] = []
        stack = [tree]
        while stack:
            n = stack.pop()
            if isinstance(n, list):
                stack.extend(reversed(n))
            elif isinstance(n, dict):
                if n.get("Type") == "Word":
                    found.append(n)
                else:
                    stack.extend(reversed([v for v in n.values() if isinstance(v, (dict, list))]))
        return found

    def substitutions(self, tree: Any) -> list[Node]:
        """The command lists of every `$( )`, backquote, `<( )` and `>( )` inside `tree`,
        however deep (in `${…}`, arithmetic, double quotes, heredoc bodies), outermost only."""
        found: list[Node] = []
        stack: list[tuple[Any, bool]] = [(tree, False)]
        while stack:
            n, in_parameter = stack.pop()
            if isinstance(n, list):
                stack.extend((v, in_parameter) for v in reversed(n))
            elif isinstance(n, dict):
                kind = n.get("Type")
                if kind in ("CmdSubst", "ProcSubst"):
                    if n.get("Stmts"):
                        found.append(self.substitution(n))
                    continue
                if in_parameter and kind == "Lit" and ("<(" in n["Value"] or ">(" in n["Value"]):
                    # bash runs `${x:-<(cmd)}`; mvdan/sh reads it as literal text
                    raise FallbackError("process substitution inside ${…}")
                inner = in_parameter or kind == "ParamExp"
                stack.extend(
                    (v, inner) for v in reversed(n.values()) if isinstance(v, (dict, list))
                )
        return found

    def substitution(self, n: dict[str, Any]) -> Node:
        start, end = self.bounds(n)
        text = self.source[start:end]
        if n.get("Backquotes") and "\\" in text and text.startswith("`") and text.endswith("`"):
            # bash unescapes \$ \` \\ in a backquoted text and then parses it; do the same, so the
            # words inside get their real values (spans then index the unescaped text)
            inner = parse_with_shfmt(_unescape_backquoted(text[1:-1]), self.offset + start + 1)
            if len(inner.body) == 1:
                return inner.body[0]
            return Sequence(span=self.span(n), parts=inner.body, ops=[";"] * (len(inner.body) - 1))
        opaque = bool(n.get("Backquotes")) and "\\" in text
        self.opaque_depth += opaque
        try:
            return self.statements(n["Stmts"], n)
        finally:
            self.opaque_depth -= opaque

    def assignment(self, a: dict[str, Any]) -> Assignment:
        start, end = self.bounds(a)
        raw = self.source[start:end]
        match = None if a.get("Naked") else ASSIGNMENT_PREFIX.match(raw)
        if match is None:  # `declare x` style: no value
            name, append, value_start = raw, False, end
        else:
            name, append, value_start = match.group(1), bool(match.group(2)), start + match.end()
        value = self.word_at(value_start, end)
        value.substitutions = self.substitutions(a)  # those of the subscript too
        parts = (a.get("Value") or {}).get("Parts") or []
        if a.get("Array") is not None or not all(_is_literal(p) for p in parts):
            value.value = None
        return Assignment(name=name, value=value, span=self.span(a), append=append)

    def redirect(self, r: dict[str, Any]) -> Redirect:
        op = r["Op"]
        fd_text = (r.get("N") or {}).get("Value")
        fd = int(fd_text) if fd_text and fd_text.isdigit() else None
        target_word = r.get("Word")
        start = self.index(r["Pos"])
        end = self.bounds(target_word)[1] if target_word else self.index(r["End"])
        span = (start + self.offset, end + self.offset)
        if op in ("<<", "<<-"):
            if target_word is not None and re.search(r"\$['\"]", self.source[slice(*self.bounds(target_word))]):
                # bash decodes a `$'…'` delimiter (`<<$'E\x4fF'` ends at EOF) and shfmt does not: the body, and the
                # commands after it, would differ (review 40a F1)
                raise FallbackError("a heredoc delimiter written with $'…' or $\"…\"")
            parts = (target_word or {}).get("Parts") or []
            quoted = any(p.get("Type") != "Lit" or "\\" in p.get("Value", "") for p in parts)
            doc = r.get("Hdoc")
            body = self.heredoc_body(target_word, doc, op == "<<-") if doc else ""
            subs = [] if quoted or not doc else self.substitutions(doc)
            return Redirect(op=op, span=span, fd=fd, heredoc=body, heredoc_quoted=quoted, heredoc_substitutions=subs)
        return Redirect(op=op, span=span, fd=fd, target=self.word(target_word) if target_word else None)

    def heredoc_body(self, delimiter_word: dict[str, Any] | None, doc: dict[str, Any], strip_tabs: bool) -> str:
        """The body text as bash feeds it: lines up to the delimiter line, tabs stripped for `<<-`."""
        start = self.index(doc["Pos"])
        delimiter: str | None = None
        if delimiter_word is not None:
            d_start, d_end = self.bounds(delimiter_word)
            unquoted = remove_quotes(self.source[d_start:d_end])
            delimiter = unquoted[0] if unquoted else None
        lines: list[str] = []
        text = self.source[start:]
        for line in (part + "\n" for part in text.split("\n")) if text else ():
            if strip_tabs:
                line = line.lstrip("\t")
            if delimiter is not None and line in (delimiter + "\n", delimiter):
                break
            lines.append(line)
        return "".join(lines)


def _unescape_backquoted(text: str) -> str:
    """The command text of a backquoted substitution: a backslash before `$`, a backquote or a
    backslash is removed, every other backslash stays (bash manual, Command Substitution)."""
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text) and text[i + 1] in "$`\\":
            i += 1
        out.append(text[i])
        i += 1
    return "".join(out)


def _is_literal(part: dict[str, Any]) -> bool:
    kind = part.get("Type")
    if kind not in _LITERAL_PARTS or part.get("Dollar"):
        return False
    if kind == "DblQuoted":
        return all(p.get("Type") == "Lit" for p in part.get("Parts") or [])
    return True
