"""bashlex's tree to ours (shell/from_bashlex.py) and the fixes bashlex is loaded with (shell/bashlex_fixes.py), whole.

Phase 16 of issue 13 (mutation testing). Each row is parsed by the patched bashlex through `parse_with_bashlex`
directly (no fallback, so that each `NeedsFallback` and its construct shows), with an offset, and its reading is the
whole neutral tree (every field of every node) or the exception's type and message. The readings are pinned in
`from_bashlex_readings.json`; `python -m tests.shell.test_from_bashlex_mutants --write` rewrites it, and a change
of a reading is then a diff to read. The rows were chosen so that each branch of the two modules changes one.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

READINGS = Path(__file__).with_name("from_bashlex_readings.json")
OFFSET = 7

ROWS = [
    # empty input, blanks and comments
    "", "   ", "# c", "ls # c", "ls\n# c\n", "\n\nls\n\n", "ls\n  # a\n# b", "ls;", "ls ;  ", "ls &", "ls\t&\t",
    # lists, terminators
    "ls; pwd", "ls & pwd", "ls && pwd || id", "ls\npwd", "ls &\npwd", "ls; pwd;", "ls; pwd &", "ls & pwd &",
    "ls;\n", "ls &;", "ls & ;pwd", "a && b; c || d & e", "a\n\nb", "a ;\n b",
    # pipelines
    "a | b | c", "! a | b", "! ! a", "a |& b", "! a", "a | ! b", "a && ! b | c",
    # assignments
    "x=1", "x=1 y=2 cmd a", "cmd x=1", "a[1]=2", "a[$(x)]=1", "a[`x`]=1", "a[$i]=1", "x+=1", "x=$(ls)", "x='$(a)'",
    "x=~/a", "x=~", "x=", "x=\"$y\" ls", "=x ls", "1x=2", "x=1 >f", ">f x=1 ls", "x=${y:-$(id)}",
    # fd variables
    "{fd}>file ls", "ls {fd}>f", "ls {fd} >f", "ls {1x}>f", "ls {fd}>>f x", "ls {a}<&-", "ls {fd}x>f", "ls x{fd}>f",
    # groups, subshells, arithmetic
    "{ ls; }", "( ls )", "(ls; pwd)", "{ a; b; } > f", "( a ) 2>&1", "((x=1))", "(( x ))", "( (ls) )", "{ a & }",
    "(a) && (b)", "{ a; } | { b; }", "( a; b; c )",
    # if, while, until
    "if a; then b; fi", "if a; then b; else c; fi", "if a; then b; elif c; then d; fi",
    "if a; then b; elif c; then d; elif e; then f; else g; fi", "while a; do b; done", "until a; do b; done",
    "while a; b; do c; d; done > f", "if a; then b; fi 2>/dev/null",
    # for
    "for x in a b; do c; done", "for x; do c; done", "for x in; do c; done", "for x in $(ls) 'a b'; do c $x; done",
    "for x in a\ndo c\ndone",
    # case
    "case x in a) b;; esac", "case x in a) b;; c|d) e;& f) ;;& *) g;; esac", "case $x in (a) b;; esac",
    "case x in a) ;; esac", "case x in a) b ;;& c) d;; esac", "case x in a) X=1 ;& b) ;;& esac",
    "case x in a) b;& c) d;& esac", "case x in a|b|c) d;; esac", "case x in\n a) b\n ;;\nesac", "case x in esac",
    "case $(id) in a) b;; esac", "case x in a) b; c;; esac", "case x in a) b;; esac > f", "case x in (a|b) c;; esac",
    "case x in a) b;;& esac", "case x in a) ;& b) c;; esac", "echo a; case x in a) b;; esac; echo c",
    # functions
    "f() { ls; }", "function f { ls; }", "f() ( ls )", "function f() { a; b; }", "f() { g() { ls; }; }",
    # words
    "echo $(ls)", "echo `ls`", "echo `ls \\`pwd\\``", "echo `a \\$b`", "echo <(ls) >(cat)", "echo ${x}",
    "echo ${x:-$(ls)}", "echo ${x:-`ls`}", "echo ${x:-<(ls)}", "echo ${x:->(ls)}", "echo ${ ls; }", "echo ${|ls;}",
    "echo ${\tls; }", "echo ${\nls; }", "echo '$(ls)'", "echo \"$(ls)\"", "echo ~/x", "echo ~", "echo \"a b\"",
    "echo $((1+2))", "echo a$(b)c$(d)", "echo $(a $(b))", "echo \"${x}\" '${y}'", "echo ${x}$(y)", "echo $x",
    "echo 'a' \"b\" c\\ d", "echo $'a\\n'", "echo x'$(a)'y", "echo \"`id`\"",
    # redirects
    "ls > f", "ls >> f", "ls 2> f", "ls >&2", "ls 2>&1", "ls <&-", "ls >&-", "ls >&-x/../f", "ls >&- x", "ls >&-;",
    "ls >&-|cat", "ls >&-&", "ls >&-)", "( ls >&-)", "ls &> f", "ls < f", "ls <<< word", "ls >| f", "ls 3<> f",
    "ls &>> f", "ls 2>&-", "ls >&2 x", "ls > $(f)", "ls > 'a b'", "ls 1>&2 2>&1", "ls >&-<f", "ls >&->f",
    # heredocs
    "cat <<EOF\nhello\nEOF", "cat <<'EOF'\n$(x)\nEOF", "cat <<EOF\n$(x)\nEOF", "cat <<EOF\n`x`\nEOF",
    "cat <<EOF\n$x\nEOF", "cat <<-EOF\n\tx\n\tEOF", "cat <<-'EOF'\n\t$(x)\n\tEOF", "cat <<\"E\"\nx\nE",
    "cat <<\\EOF\nx\nEOF", "cat <<E'O'F\nx\nEOF", "cat <<A <<B\na\nA\nb\nB", "cat <<A; cat <<B\na\nA\nb\nB",
    "if true; then cat <<EOF\nx\nEOF\nfi", "{ cat <<EOF; }\nx\nEOF", "cat <<EOF", "cat <<EOF\nx", "cat <<EOF\nx\nEOF\nls",
    "cat <<EOF\nx\nEOF\n\n", "cat <<$'E'\nx\nE", "cat <<'EOF\nx\nEOF", "echo $(cat <<'EOF'\n$(x)\nEOF\n)",
    "x=$(cat <<EOF\na\nEOF\n)", "cat <<EOF > f\nx\nEOF", "cat 2<<EOF\nx\nEOF", "cat <<EOF | wc\nx\nEOF",
    "cat <<A && cat <<B\na\nA\nb\nB", "cat <<EOF; ls\nx\nEOF", "cat <<EOF\nEOF", "cat <<-EOF\nx\nEOF",
    "cat <<EOF\nx\n EOF\nEOF", "cat <<A <<B\na\nA\nb\nB\nls", "while cat <<EOF; do ls; done\nx\nEOF",
    "cat <<EOF\nx\nEOF\ncat <<EOF\ny\nEOF", "cat <<\"$x\"\na\n$x", "cat <<A\n$(x)\nA", "cat <<A\na`\nA",
    # nested parses
    "echo $(true\ngit switch main)", "echo $(ls # c\n)", "echo $(ls ; )", "echo $(ls &)", "echo `ls ; `", "echo `ls\npwd`",
    "echo $(ls\n)", "echo $(ls\n# c\n)", "echo $(\nls\n)", "echo `ls # c`", "echo `ls ;\n`", "echo $(a)$(b\nc)",
    "echo $(ls\t;\t)", "echo $(ls;\n# x\n  )", "echo `ls &`", "echo $(ls) $(id\nx)", "echo $(a;\n\nb)",
    # quoted ends and code between
    "echo 'a'$(x)'b'", "echo 'a'\"b\"'c'", "echo 'a''b'", "echo 'a'`x`'b'", "echo 'a'${x}'b'", "echo 'ab'",
    "echo 'a'<(x)'b'", "echo 'a'>(x)'b'", "echo 'a'$x'b'", "echo ''", "echo '''", "echo 'x'", "echo '$(x)'",
    "echo '${x}'", "echo 'a'\"$(x)\"'b'", "echo ''$(x)''",
    # time
    "time ls", "time -p ls", "time", "time ;", "time ls | wc", "time ls; pwd", "time -p", "ls; time",
    "time { ls; }", "time ! ls", "time -- ls", "time\nls",
    # what bashlex stops at, or refuses
    "ls )", "ls; )", "ls ) x", "a | ", "if a", "ls &&", "echo $(", "echo `", "ls >", "select x in a; do b; done",
    "coproc ls", "[[ -f x ]]", "ls ;; ls", "(( x ) )", "ls ( )", "f ( ) { a; }", "{ ls }", "echo a\\\nb",
    "ls\x00", "ls \\\n; pwd", "\\\n", "ls \\\n", "ls; \\\n", "! ;", "!", "! ! ;",
    # a last pattern without its terminator, an empty body after `;&`, `((` after the start
    "case x in a) b\nesac", "case x in a) b;& c) d\nesac", "case x in a) b;& c) ;; esac", "case x in a) b;& c)\nesac",
    "ls; ((x=1))", "echo a && ((b))", "ls; ( (a) )",
    # case and if after a newline: bashlex shifts the second tree's positions with its visitor
    "ls\ncase x in a) b;; esac", "ls\ncase $(id) in a|b) c;& d) e;; esac", "ls\ncase x in (a) b;; esac",
    "ls\nif a; then b; elif c; then d; elif e; then f; fi",
    # heredoc bodies: a backslash-newline, blanks before the tab of `<<-`, an X after it
    "cat <<EOF\na\\\nb\nEOF", "cat <<-EOF\n  \tx\n\tEOF", "cat <<-EOF\n\tXx\n\tEOF", "cat <<EOF\\\nx\nEOF",
    # a quoted body's backslash-newline, which bashlex joins and bash keeps (phase 16's fail-open, h-hk31's fix): the
    # fallback, with its reason (phase 26 (m41c): redirect 22, 24-26); a quoted body with a lone backslash is read
    "cat <<'EOF'\na\\\nb\nEOF", "bash <<-'E'\n\techo hi >x\\\n\t/../README.md\nE",
    "cat <<'EOF'\na\\b\nEOF",
    # a word with single-quoted ends whose only inner quote is the second or the last but one character
    "echo ''$(x)\\'", "echo '$(x)''", "echo ''`x`\\'", "echo '`x`''",
    # `time` alone before a terminator
    "time &", "time;ls", "time &&", "time | ls", "time\n", "ls | time", "time &\nls",
]


def _dump(value: Any) -> Any:
    if isinstance(value, list):
        return [_dump(v) for v in value]
    if isinstance(value, tuple):
        return [_dump(v) for v in value]
    slots = getattr(type(value), "__slots__", None)
    if slots is not None and not isinstance(value, (str, int)):
        return {"_": type(value).__name__, **{name: _dump(getattr(value, name)) for name in slots}}
    return value


def _message(e: Exception) -> list[str]:
    """An exception's type and first line. bashlex's "unexpected EOF" names a position that depends on what the
    same process parsed before (its tokenizer keeps state), so that position is left out."""
    text = re.sub(r"unexpected EOF \(position \d+\)", "unexpected EOF", str(e).split("\n", 1)[0][:300])
    return [type(e).__name__, text]


def _tree(node: Any) -> Any:
    """A bashlex node as the patched bashlex builds it: every attribute, recursively."""
    if isinstance(node, (list, tuple)):
        return [_tree(v) for v in node]
    if hasattr(node, "kind") and hasattr(node, "__dict__"):
        return {key: _tree(value) for key, value in sorted(node.__dict__.items())}
    return node


def _raw(bashlex: Any, command: str) -> Any:
    """bashlex's own top-level parse (`bashlex.parse`: its loop, and its position shifter over each later tree)."""
    try:
        return [_tree(t) for t in bashlex.parse(command)]
    except Exception as e:  # noqa: BLE001
        return ["error", *_message(e)]


def reading(command: str) -> Any:
    """Our tree (or the exception) for `command`, and bashlex's own as the fixes leave it."""
    from worktree_guard.shell import parse as parse_module
    from worktree_guard.shell.from_bashlex import NeedsFallback, parse_with_bashlex

    bashlex = parse_module._load_bashlex()
    raw = _raw(bashlex, command)
    try:
        script = parse_with_bashlex(bashlex, command, OFFSET)
    except NeedsFallback as e:
        return ["fallback", str(e), raw]
    except Exception as e:  # noqa: BLE001 — bashlex's own errors are part of the reading
        return ["error", *_message(e), raw]
    return ["ok", _dump(script), raw]


@functools.lru_cache(maxsize=1)
def _readings() -> dict[str, Any]:
    return json.loads(READINGS.read_text())


@pytest.mark.parametrize("command", ROWS)
def test_reading(command: str) -> None:
    assert reading(command) == _readings()[command]


def test_the_fixes_are_applied_once_and_bound_where_the_parser_looks() -> None:
    from bashlex import heredoc, subst

    from worktree_guard.shell import bashlex_fixes
    from worktree_guard.shell import parse as parse_module

    bashlex = parse_module._load_bashlex()
    assert bashlex._worktree_guard_fixes is True
    before = (heredoc.makeheredoc, subst._recursiveparse, subst._expandwordinternal, bashlex.ast.nodevisitor.visit)
    bashlex_fixes.apply(bashlex)
    assert (heredoc.makeheredoc, subst._recursiveparse, subst._expandwordinternal, bashlex.ast.nodevisitor.visit) == before
    rebound = {"p_timespec", "p_pipeline_command", "p_case_command", "p_pattern", "p_pattern_list", "p_case_clause_sequence",
               "p_case_clause", "p_elif_clause"}
    productions = [p for p in bashlex.parser.yaccparser.productions if p.func in rebound]
    assert {p.func for p in productions} == rebound
    for production in productions:
        action = getattr(bashlex.parser, production.func)
        assert action is production.callable and action.__name__ == production.func


def test_the_default_offset_and_the_end_of_a_tree_without_heredoc() -> None:
    from worktree_guard.shell import parse as parse_module
    from worktree_guard.shell.from_bashlex import _last_heredoc_end, parse_with_bashlex

    bashlex = parse_module._load_bashlex()
    assert parse_with_bashlex(bashlex, "ls x").body[0].words[1].span == (3, 4)
    tree = bashlex.parser._parser("ls x").parse()
    assert _last_heredoc_end(tree) == -1
    tree = bashlex.parser._parser("cat <<E\nx\nE\n").parse()
    assert _last_heredoc_end(tree) == 11


def test_rows_are_distinct_and_all_read() -> None:
    assert len(set(ROWS)) == len(ROWS)
    assert set(_readings()) == set(ROWS)


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    READINGS.write_text(json.dumps({row: reading(row) for row in ROWS}, indent=1, ensure_ascii=False) + "\n")
