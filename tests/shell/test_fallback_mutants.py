"""The second parser (shell/fallback.py): shfmt's tree to ours, whole, and its failures.

Phase 16 of issue 13 (mutation testing). Each row is parsed by `fallback.parse_with_shfmt` directly, with an offset;
its reading is the whole neutral tree (every field of every node) or the exception's type and message. The rows are
those of `test_from_bashlex_mutants.py` (what bashlex reads, and what it refuses) and the constructs only shfmt
reads: `[[ ]]`, `(( ))`, `let`, `declare`, `coproc`, `select`, C-style `for`, backquotes holding backslashes,
text that is not ASCII. `python -m tests.shell.test_fallback_mutants --write` rewrites `fallback_readings.json`.
"""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.shell.test_from_bashlex_mutants import ROWS as BASHLEX_ROWS
from tests.shell.test_from_bashlex_mutants import _dump
from worktree_guard.shell import fallback

READINGS = Path(__file__).with_name("fallback_readings.json")
OFFSET = 5

SHFMT_ROWS = [
    # [[ ]] and its arithmetic operands
    "[[ -f x ]]", "[[ $a == b ]]", "[[ a -eq 1 ]]", "[[ 'a[$(c)]' -eq 1 ]]", "[[ $s == 'a[$(c)]' ]]", "[[ x -ne y && z -lt 2 ]]",
    "[[ a -le b || c -gt d ]]", "[[ ! a -ge b ]]", "[[ ( a -eq b ) ]]", "[[ -n $(id) ]]", "[[ a =~ b.* ]]", "[[ a -nt b ]]",
    # arithmetic
    "((x=1))", "(( x + $(id) ))", "((a[$(c)]++))", "for ((i=0;i<3;i++)); do c; done", "for ((;;)); do c; done",
    "for ((i=$(a); i<`b`; i++)); do :; done", "let x=1 y=2", "let 'x=$(c)'", "echo $((1+2))", "echo $(( $(a) + 1 ))",
    # declarations
    "declare -a x=(1 2)", "declare x", "local x=1 y", "export X=1", "readonly X=$(id)", "declare -x X=`c`", "typeset a",
    "declare x+=1", "declare a[1]=2", "export", "local -n r=x",
    # coproc
    "coproc ls", "coproc X=1 ls", "coproc X=1 Y=2 ls a", "coproc X=1", "coproc 2>/dev/null ls", "coproc {fd}>f ls",
    "coproc 2>/dev/null", "coproc name { ls; }", "coproc { ls; }", "coproc 2 x", "coproc {f}x ls", "coproc 12>f X=1 ls",
    "coproc a=b", "coproc x y=1",
    # select, until, if chains
    "select x in a b; do c; done", "select x; do c; done", "until a; do b; done", "while a; do b; done",
    "if a; then b; elif c; then d; else e; fi", "if a; then :; fi", "if a; b; then c; d; fi",
    # case terminators
    "case x in a) b;; esac", "case x in a) b;& c) d;;& e) f;; esac", "case x in a) ;;& esac", "case x in a) X=1 ;& b) ;;& esac",
    "case x in a) ;& b) ;;& esac", "case x in a) ;; b) c;;& esac", "case x in a|b) ;; esac", "case x in esac",
    # backquotes with backslashes, nested
    "echo `ls \\`pwd\\``", "echo `a \\$b`", "echo `echo \\\\`", "echo `a`; echo `b \\\\ c`", "echo \"`a \\$b`\"",
    "echo `a; b \\$c`", "echo `\\`a\\`; b`", "echo `a \\x`", "echo `a \\X \\$b`", "x=`a \\$b`", "echo $(echo `a \\$b`)", "echo `a\\",
    # process substitution inside ${…}, parameters
    "echo ${x:-<(ls)}", "echo ${x:->(ls)}", "echo ${x:-$(ls)}", "echo ${x:-a<b}", "echo ${x:-\"<(a)\"}", "echo ${#x}",
    "echo ${x/a/$(b)}", "echo ${x[$(a)]}", "echo \"${x:-`a`}\"",
    # words: literal or not
    "echo $'a'", "echo $\"a\"", "echo \"a$x\"", "echo \"a\\\"b\"", "echo 'a'\"b\"c", "echo ~/x", "echo ~u/x", "echo a*",
    "echo {a,b}", "echo \"$(a)\"", "x=(a b)", "x=a$b", "x=\"a\"", "x=$'a'", "a[1]=x", "a[$(c)]=x", "x+=(a)", "x= ls",
    # redirects
    "ls > f", "ls 2> f", "ls >&2", "ls 10> f", "ls {fd}> f", "ls &> f", "ls <<< $(a)", "ls > $(f)", "ls 2>&-", "ls <> f",
    "cat <<EOF\n$(a)\nEOF", "cat <<'EOF'\n$(a)\nEOF", "cat <<\"EOF\"\nx\nEOF", "cat <<\\EOF\nx\nEOF", "cat <<-EOF\n\tx\n\tEOF",
    "cat <<E'O'F\n$(a)\nEOF", "cat <<EOF\nEOF", "cat <<EOF\n`a`\nEOF", "cat <<EOF\n${x:-$(a)}\nEOF", "cat <<A <<B\na\nA\nb\nB",
    "cat <<EOF\na\nb\nEOF\nls", "cat <<E\\OF\nx\nEOF", "cat <<EOF\n\tx\nEOF", "cat <<-EOF\n\tx\nEOF", "cat <<EOF\nx\nEOF ",
    "cat <<EOF\nx\n\nEOF", "cat << EOF\nEOFx\nEOF", "cat <<$x\na\n$x", "cat <<\"\"\na\n\n",
    # time, negation, background, functions
    "time ls", "time", "time -p ls | wc", "! ls", "! a | b", "! ! a", "ls &", "a & b", "a & b &", "{ a & b; }", "( a & )",
    "f() { a; }", "function f { a; } > x", "f() ( a ) 2>&1", "! { a; }", "! ( a )", "a && ! b", "a | b |& c",
    "a && b || c", "a || (b && c)", "(a && b) || c", "a | (b | c)", "ls > f | wc", "ls | wc > f", "a && b > f",
    "{ a; } && b", "{ a; } | b", "! a && b", "a & && b", "ls; ; ls", "ls &&", "echo $(", ")", "a |",
    # not ASCII
    "echo é; ls ü", "echo 😀 $(ls)", "echo 'é' > \"ü\"", "é=1 ls", "cat <<E\né\nE", "echo \u00e9\u00e9 `a \\$b`",
    # statements without a command
    "> f", "2>&1", "x=1", "x=1 > f", "{ > f; }",
    # chains: a negated one is not flattened into the next; `|&` and `||` on the left
    "! a && b || c", "! a | b | c && d", "a |& b |& c", "a || b && c", "a || b || c", "a |& b | c",
    # redirections of every kind of command
    "((x)) > f", "[[ -f x ]] 2>/dev/null", "declare x=1 > f", "let x=1 > f", "coproc ls > f", "f() { a; } > f",
    "time ls > f", "for x in a; do b; done > f", "case x in a) b;; esac 2> f",
    # empty bodies
    "while a; do\ndone", "if a; then\nfi", "( )", "{ }", "f() { }", "case x in a) # c\n;; esac", "for x; do\ndone",
    # coproc: an fd word, upper-case, `<`, before assignments
    "coproc {FD}>f ls", "coproc 2<f ls", "coproc 2>/dev/null X=1 ls", "coproc A=1 B=2 C=3 ls", "coproc >f",
    "coproc {fd}<f X=1 ls",
    # process substitution text in double quotes, outside `${…}`; more redirections
    'echo "<(a)" ">(b)"', "echo '<(a)'", "for ((;;)); do c; done > f", "function f { a; } 2>&1", "time { a; } > f",
    "coproc { ls; } > f", "coproc n { ls; } 2>&1", "f() ( a ) > f",
]

ROWS = list(dict.fromkeys([*BASHLEX_ROWS, *SHFMT_ROWS]))


def reading(command: str) -> Any:
    try:
        script = fallback.parse_with_shfmt(command, OFFSET)
    except fallback.FallbackError as e:
        return ["error", type(e).__name__, str(e).split("\n", 1)[0][:300]]
    return ["ok", _dump(script)]


@functools.lru_cache(maxsize=1)
def _readings() -> dict[str, Any]:
    return json.loads(READINGS.read_text())


@pytest.mark.parametrize("command", ROWS)
def test_reading(command: str) -> None:
    assert reading(command) == _readings()[command]


def test_the_default_offset() -> None:
    assert fallback.parse_with_shfmt("ls x").body[0].words[1].span == (3, 4)


class _Done:
    def __init__(self, returncode: int, stdout: bytes, stderr: bytes = b"") -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def test_how_shfmt_is_run_and_its_failures(monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess

    calls: list[tuple[Any, dict[str, Any]]] = []
    answer: list[Any] = [_Done(0, b'{"Type": "File"}')]

    def fake(args: Any, **kwargs: Any) -> Any:
        calls.append((args, kwargs))
        if isinstance(answer[0], BaseException):
            raise answer[0]
        return answer[0]

    monkeypatch.setattr(subprocess, "run", fake)
    assert fallback.run_shfmt("é") == {"Type": "File"}
    assert calls == [([fallback.shfmt_path(), "-ln", "bash", "--to-json"], {"input": "é".encode(), "capture_output": True, "timeout": 15.0, "cwd": "/"})]

    def failure(*given: Any) -> str:
        answer[0] = given[0]
        with pytest.raises(fallback.FallbackError) as info:
            fallback.run_shfmt("x")
        return f"{type(info.value).__name__}: {info.value}"

    assert failure(subprocess.TimeoutExpired("shfmt", 15)) == "FallbackTimeout: shfmt took over 15.0 s"
    assert failure(_Done(1, b"", b" 1:2: bad \xff thing \n")) == "FallbackError: 1:2: bad \ufffd thing"
    assert failure(_Done(2, b"", b"  ")) == "FallbackError: exit 2"
    assert failure(_Done(0, b"[]")) == "FallbackError: unexpected shfmt output"
    assert failure(_Done(0, b'{"Type": "Stmt"}')) == "FallbackError: unexpected shfmt output"
    assert failure(_Done(0, b"{}")) == "FallbackError: unexpected shfmt output"
    monkeypatch.setattr(fallback, "shfmt_path", lambda: None)
    assert failure(_Done(0, b"{}")) == "FallbackError: shfmt (PyPI shfmt-py) is not installed beside this interpreter"


def test_shfmt_is_an_executable_file_beside_the_interpreter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sysconfig

    scripts, beside = tmp_path / "scripts", tmp_path / "bin"
    (scripts / "shfmt").mkdir(parents=True)  # a directory of that name is no program
    beside.mkdir()
    monkeypatch.setattr(sysconfig, "get_path", lambda name: str(scripts))
    monkeypatch.setattr(sys, "executable", str(beside / "python"))
    assert fallback.shfmt_path() is None
    (beside / "shfmt").write_text("#!/bin/sh\n")
    assert fallback.shfmt_path() is None  # not executable
    (beside / "shfmt").chmod(0o755)
    assert fallback.shfmt_path() == str(beside / "shfmt")
    (scripts / "shfmt").rmdir()
    (scripts / "shfmt").write_text("#!/bin/sh\n")
    (scripts / "shfmt").chmod(0o755)
    assert fallback.shfmt_path() == str(scripts / "shfmt")
    monkeypatch.setattr(sysconfig, "get_path", lambda name: "")
    assert fallback.shfmt_path() == str(beside / "shfmt")


def test_rows_are_all_read() -> None:
    assert set(_readings()) == set(ROWS)


def test_every_fallback_loop_returns() -> None:
    """The loops that walk a backquoted text and a test expression end (phase 17): a mutant whose index stops
    advancing (`i = 1`, `i -= 1`) or whose stack never shrinks (`n = None`) fails here under an alarm, where
    mutmut would only count a timeout."""
    import signal

    def hang(*_: object) -> None:
        raise TimeoutError

    cond = fallback.run_shfmt("[[ a -eq 1 && $(c) == x ]]")["Stmts"][0]["Cmd"]["X"]
    arith = fallback.run_shfmt("(( a + b ))")["Stmts"][0]["Cmd"]["X"]
    translator = fallback._Translator("[[ a -eq 1 && $(c) == x ]]", 0)
    previous = signal.signal(signal.SIGALRM, hang)
    signal.setitimer(signal.ITIMER_REAL, 3.0)
    try:
        unescaped = fallback._unescape_backquoted("ab\\$c\\`d\\\\e\\x")
        operands = translator.arithmetic_operands(cond)
        words = translator.word_nodes(cond) + translator.word_nodes(arith)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert unescaped == "ab$c`d\\e\\x"
    assert [w["Parts"][0]["Value"] for w in operands] == ["a", "1"]
    assert [(w["Pos"]["Offset"], w["End"]["Offset"]) for w in words] == [(3, 4), (9, 10), (14, 18), (22, 23), (3, 4), (7, 8)]


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    READINGS.write_text(json.dumps({row: reading(row) for row in ROWS}, indent=1, ensure_ascii=False) + "\n")
