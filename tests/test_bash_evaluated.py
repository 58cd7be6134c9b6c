"""Values bash runs as code while expanding (shell/evaluated.py): `${x@P}`, `${!x}`, arithmetic and names with subscripts.

Each shape is written once with CODE where its command goes. Real bash runs it with CODE a `touch` of a marker
(so the table holds only shapes that really run code, bash 5.2), and the guard judges it with CODE the escaping
command: it gets the escaping command's own code, as `eval 'rm -rf …'` does. The same shape with a harmless value
passes; a value only known at run time is WG404, as `eval "$x"` is. Before, every row of SHAPES passed.

W is a linked worktree inside the main checkout {MAIN} (`../../..` from W).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.helpers import Repo, plain_id
from tests.test_bash_rules import assert_row, bash, world  # noqa: F401  (the fixture)
from worktree_guard.shell.evaluated import prompt_decoded

ESCAPE = "rm -rf {MAIN}/src"

# (shape): CODE is the command the value runs.
SHAPES = [
    # `${x@P}`: the value is decoded as a prompt string, then expanded like a double-quoted string.
    "x='$(CODE)'; echo \"${x@P}\"",
    "x='`CODE`'; echo \"${x@P}\"",
    "x='\\044(CODE)'; echo \"${x@P}\"",  # an octal escape is `$`…
    "x='\\444(CODE)'; echo \"${x@P}\"",  # …modulo 256
    "x='$\\[(CODE)'; echo \"${x@P}\"",  # `\[` is nothing without readline
    "x='\\x$(CODE)'; echo \"${x@P}\"",  # an unknown escape keeps its backslash, and the `$(` runs
    "x=\"'\\$(CODE)'\"; echo \"${x@P}\"",  # quotes in the value are plain characters
    "f() { echo \"${1@P}\"; }; f '$(CODE)'",
    "f() { echo \"${@@P}\"; }; f '$(CODE)'",
    "y='$(CODE)'; x=y; echo \"${!x@P}\"",
    "PS4='$(CODE)'; set -x; true",  # PS4 is expanded as a prompt string before each traced command
    "export PS4='$(CODE)'; set -o xtrace; :",
    "p='$(CODE)'; PS4=$p; set -x; :",
    "p='$(CODE)'; PS4=\"+ ${p}\"; set -x; :",
    "PS0='$(CODE)' bash -i <<< true 2>/dev/null",  # PS0: an interactive bash, before each command it reads
    # `${!x}`: the name x holds is looked up, and a subscript in it is expanded.
    "x='a[$(CODE)]'; echo \"${!x}\"",
    "i='b[$(CODE)]'; x='a[i]'; echo \"${!x}\"",
    "declare -A h; x='h[$(CODE)]'; echo \"${!x}\"",
    # Arithmetic evaluates a variable's value, and a subscript in it is expanded.
    "x='a[$(CODE)]'; echo $(( x ))",
    "x='a[$(CODE)]'; echo $(( $x + 1 ))",
    "x='a[$(CODE)]'; (( x ))",
    "x='a[$(CODE)]'; let x",
    "x='a[$(CODE)]'; echo $[x]",
    "x='a[$(CODE)]'; [[ $x -eq 1 ]]",
    "x='a[$(CODE)]'; [[ -v $x ]]",
    "[[ 'a[$(CODE)]' -eq 1 ]]",  # an operand of an arithmetic test is arithmetic, quotes and all
    "[[ $'a[$(CODE)]' -eq 1 ]]",
    "[[ 1 -lt 'a[`CODE`]' ]]",
    "[[ -n x && ( 2 -ge 'a[$(CODE)]' ) ]]",
    "y='a[$(CODE)]'; x=y; echo $(( x ))",
    "o='a[$(CODE)]'; b=(1 2); echo \"${b[o]}\"",
    "o='a[$(CODE)]'; b=(1 2); b[o]=3",
    "o='a[$(CODE)]'; b=([$o]=3)",
    "a=(['$(CODE)']=1)",  # a compound array's subscript is arithmetic, quotes and all
    "a=(x [1]=y ['$(CODE)']=1)",
    "declare -a a=(['$(CODE)']=1)",
    "x='b[$(CODE)]'; declare -a a=([x]=1)",
    "x='b[$(CODE)]'; f() { local -a a=([$x]=1); }; f",
    "x='b[$(CODE)]'; declare a=([x]=1)",
    "x='b[$(CODE)]'; typeset -ga a=([1]=2 [x]=1)",
    "o='a[$(CODE)]'; s=abc; echo \"${s:o}\"",
    "declare -i n; x='a[$(CODE)]'; n=x",
    "x='a[$(CODE)]'; declare -i n; n=$x",  # the value assigned, known variables substituted
    "x='a[$(CODE)]'; declare -i n; n=\"${x}\"",
    "x='a[$(CODE)]'; declare -i n; declare n=x",
    "x='a[$(CODE)]'; declare -i n; export n=x",
    "x='a[$(CODE)]'; for ((i = 0; i < x; i++)); do :; done",
    "x='a[$(CODE)]'; case $((x)) in *) ;; esac",
    "f() { echo $(( $1 )); }; f 'a[$(CODE)]'",  # a positional parameter the walk knows
    "f() { for v in \"$@\"; do echo \"${!v}\"; done; }; f HOME 'a[$(CODE)]'",
    "f() { (( ${2} + 1 )); }; x='a[$(CODE)]'; f 1 x",
    # Inside `$((…))`, `((…))`, a subscript or an offset single quotes do not keep `$(…)` literal.
    "echo $(( '$(CODE)' ))",
    "(( '$(CODE)' ))",
    "echo \"${a['$(CODE)']}\"",
    "s=abc; echo ${s:'$(CODE)'}",
    "let \"a['\\$(CODE)']\"",
    "let 'a[$(CODE)]'",
    # Builtins that look a variable name up expand a subscript in it.
    "printf -v 'a[$(CODE)]' x",
    "x='a[$(CODE)]'; printf -v \"$x\" y",
    "declare 'a[$(CODE)]=1'",
    "x='a[$(CODE)]=1'; declare \"$x\"",
    "f() { local 'a[$(CODE)]=1'; }; f",
    "typeset -g 'a[$(CODE)]=1'",
    "test -v 'a[$(CODE)]'",
    "[ -v 'a[$(CODE)]' ]",
    "read 'a[$(CODE)]' < /dev/null",
    "a=(1 2); unset 'a[$(CODE)]'",
    "declare -A h; unset 'h[$(CODE)]'",
    "declare -n r='a[$(CODE)]'; echo \"$r\"",
    "declare -i n='a[$(CODE)]'",
    # `declare -a/-A` reads a value `(…)` given as a string as an array assignment.
    "declare -a 'a=($(CODE))'",
    "x='($(CODE))'; declare -a a=\"$x\"",
    "f() { local -a a=\"$1\"; }; f '($(CODE))'",
    "export -a 'a=($(CODE))'",
    "readonly -A 'h=([$(CODE)]=1)'",
]

# The same forms with values that run nothing the guard minds, and forms bash does not evaluate at all.
HARMLESS = [
    "PS1='\\u@\\h:\\w\\$ '; echo \"${PS1@P}\"",
    "x='\\D{%H:%M} \\j \\! \\# \\s \\v [\\t]'; echo \"${x@P}\"",
    "x='$(git status --short) \\w'; echo \"${x@P}\"",  # the code in it is walked, and passes
    "x='\\$(" + ESCAPE + ")'; echo \"${x@P}\"",  # `\$` keeps the `$` literal
    "x='\\\\$(" + ESCAPE + ")'; echo \"${x@P}\"",  # `\\` is a backslash, which then escapes the `$`
    "f() { echo \"${1@P}\"; }; f '\\u@\\h'",
    "x=HOME; echo \"${!x}\"",
    "for v in HOME PWD; do echo \"${!v}\"; done",
    "check() { for v in \"$@\"; do [ -n \"${!v:-}\" ] || exit 1; done; }; check API_KEY DB_URL",  # before, WG404
    "name='arr[@]'; arr=(a b); echo \"${!name}\"",
    "a=(1 2); x='a[1]'; echo $(( x + 1 ))",
    "n=$(wc -l < README.md); echo $(( n + 1 ))",  # a value only known at run time: not followed (docs/bash.md)
    "for ((i = 0; i < 3; i++)); do echo $i; done",
    "f() { echo $(( $1 + ${2} * 10 )); }; f 3 4; f \"$(wc -l < README.md)\" 1",
    "printf -v now '%s' x; echo \"$now\"",
    "while IFS= read -r line; do echo \"$line\"; done < README.md",
    "read -rp 'name: ' ans < /dev/null",
    "f() { local x=\"$1\"; local -a all=(\"$@\"); local -n ref=$1; }; f a b",
    "declare -a arr=(\"$HOME\"); declare -A m=([a]=1); echo \"${arr[0]} ${m[a]}\"",
    "i=2; a=([0]=x [i]=y [$i+1]=z '[q]' \"[$(date)]\"); declare -a b=([i*2]=1); local_x=([1]=\"$HOME\")",
    "test -v HOME && [ -v PWD ] && [[ -v HOME ]]",
    "unset x; unset -f f; unset \"${!GIT_@}\"",
    "export $(grep -v '^#' .env | xargs) 2>/dev/null",
    "s=hello; echo \"${s:0:3} ${s: -2} ${#s}\"",
    "grep \"^${var}$\" README.md",  # a `$` ending a word after `${…}`
    "PS4='+ $(date) ${LINENO}: '; set -x; true",
    "p='+ '; PS4=$p; PS0=\"$p\"; set -x; true",  # a known value without code: before, WG404
    "declare -i n; x=5; n=$x+1; n=\"${x}\"; declare n=x; export n=2",
    "export PS1=\"(venv) $PS1\"",  # PS1 is not judged (it runs only in an interactive shell: a known gap)
]

# Shapes bash does not run the code of (measured with the marker): the guard passes them too.
NOT_RUN = [
    *(f"x='$(CODE)'; echo \"${{x@{op}}}\"" for op in "QEAaKkUuL"),
    "y='$(CODE)'; x=y; echo \"${!x}\"",  # the value of the variable named is not expanded again
    "x='a[$(CODE)]'; test \"$x\" -eq 1",  # test's -eq takes integers only
    "x='a[$(CODE)]'; declare \"$x\"",  # a name without `=` is not assigned
    "export 'a[$(CODE)]=1'",  # export and readonly refuse a subscript
    "declare -A h=(['$(CODE)']=1)",  # an associative array's key is expanded once
    "k='a[$(CODE)]'; declare -A h=([$k]=1)",
    "s=x; [[ $s == 'a[$(CODE)]' ]]",  # a string comparison: the operand is not evaluated
    "s=x; [[ $s != *'[$(CODE)'* || -z 'a[$(CODE)]' ]]",
]

UNKNOWN = [
    ('echo "${x@P}"', "`${x@P}` expands a value only known at run time as a prompt string"),
    ('f() { echo "${1@P}"; }; f "$(cat notes.txt)"', "`${1@P}` expands a value only known at run time as a prompt string"),
    ('echo "${!x}"', "`${!x}` reads the variable named by the value of x, a name only known at run time"),
    ('f() { for v in "$@"; do echo "${!v}"; done; }; f HOME "$(cat names)"', "`${!v}` reads the variable named by the value of v"),
    ('printf -v "$x" y', "`printf` is given a variable name only known at run time"),
    ('read "$x" < /dev/null', "`read` is given a variable name only known at run time"),
    ('declare "$x"', "`declare` is given a variable name only known at run time"),
    ('test -v "$x"', "`test` is given a variable name only known at run time"),
    ('unset "$x"', "`unset` is given a variable name only known at run time"),
    ('declare -a a="$x"', "`declare -a` reads a value only known at run time"),
    ('PS4="$x"; set -x; true', "`PS4` expands a value only known at run time as a prompt string"),
]


def _fill(shape: str, code: str) -> str:
    return shape.replace("CODE", code)


def _runs_in_bash(shape: str, tmp_path: Path) -> bool:
    """Whether real bash, running the shape with CODE a `touch` of a marker, runs it (as an agent's Bash tool runs
    a command: `bash -c`, non-interactive, default options)."""
    marker = tmp_path / "ran"
    marker.unlink(missing_ok=True)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    subprocess.run(["bash", "-c", _fill(shape, f"touch {marker}")], cwd=tmp_path, env=env, capture_output=True, timeout=30, stdin=subprocess.DEVNULL)
    return marker.exists()


@pytest.mark.parametrize("shape", SHAPES, ids=[plain_id(s, 50) for s in SHAPES])
def test_a_value_run_as_code_is_judged_as_the_code(world: Repo, shape: str, tmp_path: Path) -> None:  # noqa: F811
    assert _runs_in_bash(shape, tmp_path), f"bash does not run the code of {shape!r}"
    assert_row(world, _fill(shape, ESCAPE), {"WG401"})
    assert_row(world, _fill(shape, "git -C {MAIN} switch feature"), {"WG301"})
    assert_row(world, _fill(shape, "touch /tmp/wg-evaluated"), "pass")


@pytest.mark.parametrize("command", HARMLESS, ids=[plain_id(c, 50) for c in HARMLESS])
def test_harmless_values_pass(world: Repo, command: str) -> None:  # noqa: F811
    assert_row(world, command, "pass")


@pytest.mark.parametrize("shape", NOT_RUN, ids=[plain_id(s, 50) for s in NOT_RUN])
def test_forms_bash_does_not_evaluate_pass(world: Repo, shape: str, tmp_path: Path) -> None:  # noqa: F811
    assert not _runs_in_bash(shape, tmp_path), f"bash runs the code of {shape!r}"
    assert_row(world, _fill(shape, ESCAPE), "pass")


@pytest.mark.parametrize("command,words", UNKNOWN, ids=[plain_id(c, 50) for c, _ in UNKNOWN])
def test_a_value_only_known_at_run_time_is_refused_as_eval_is(world: Repo, command: str, words: str) -> None:  # noqa: F811
    verdict = bash(world, command)
    (violation,) = [v for v in verdict.violations if v.severity == "error"]
    assert verdict.decision == "deny" and violation.code == "WG404"
    assert violation.message.startswith(words) and violation.message.endswith("worktree-guard cannot see what that code does.")


def test_a_backslash_before_an_escaped_dollar_is_judged_as_a_user_would_run_it(world: Repo) -> None:  # noqa: F811
    r"""`\\\$(cmd)` is `\` and `\$` once decoded: for root `\#(cmd)`, for any other user `\\$(cmd)`, which runs cmd
    (bash 5.2 run as nobody). Agents do not run as root: the other user's reading is the one judged."""
    assert_row(world, "x='\\\\\\$(" + ESCAPE + ")'; echo \"${x@P}\"", {"WG401"})


DECODED = ["\\044(x)", "\\444(x)", "a\\[b\\]c", "\\x41\\(", "\\n\\a\\e\\r", "\\\\", "\\1234", "\\77", "tail\\"]


@pytest.mark.parametrize("value", DECODED)
def test_prompt_escapes_decode_as_bash_decodes_them(value: str) -> None:
    """With `promptvars` off bash only decodes (no expansion): the decoder must give the same text."""
    done = subprocess.run(["bash", "-c", 'shopt -u promptvars; printf %s "${1@P}"', "_", value], capture_output=True, timeout=30, check=True)
    assert prompt_decoded(value).encode("latin-1") == done.stdout


# A name operand whose subscript holds a part only known at run time: bash expands the subscript a second time when
# it looks the name up, so the run-time part runs as code ($(printf …) stands for any run-time value).
RUN_TIME = "$(printf '%s' '$(CODE)')"
RUN_TIME_SUBSCRIPTS = [
    ('printf -v "a[' + RUN_TIME + ']" x', "`printf` is given a variable name whose subscript is only known at run time"),
    ('test -v "a[' + RUN_TIME + ']"', "`test` is given a variable name whose subscript is only known at run time"),
    ('[ -v "a[' + RUN_TIME + ']" ]', "`[` is given a variable name whose subscript is only known at run time"),
    ('declare "a[' + RUN_TIME + ']=1"', "`declare` is given a variable name whose subscript is only known at run time"),
    ('f() { local "a[' + RUN_TIME + ']=1"; }; f', "`local` is given a variable name whose subscript is only known at run time"),
    ('typeset "a[' + RUN_TIME + ']=1"', "`typeset` is given a variable name whose subscript is only known at run time"),
    ('read "a[' + RUN_TIME + ']" < /dev/null', "`read` is given a variable name whose subscript is only known at run time"),
    ('declare -n r="a[' + RUN_TIME + ']"; : "$r"', "`declare -n` is given a variable name whose subscript is only known at run time"),
    ("i=" + RUN_TIME + '; declare -A h; unset "h[$i]"', "`unset` is given a variable name whose subscript is only known at run time"),
]


@pytest.mark.parametrize("shape,words", RUN_TIME_SUBSCRIPTS, ids=[plain_id(s, 50) for s, _ in RUN_TIME_SUBSCRIPTS])
def test_a_name_whose_subscript_is_only_known_at_run_time_is_refused(world: Repo, shape: str, words: str, tmp_path: Path) -> None:  # noqa: F811
    assert _runs_in_bash(shape, tmp_path), f"bash does not run the code of {shape!r}"
    verdict = bash(world, _fill(shape, ESCAPE))
    (violation,) = [v for v in verdict.violations if v.severity == "error"]
    assert verdict.decision == "deny" and violation.code == "WG404"
    assert violation.message.startswith(words)


# Neighbours: a subscript known in full, or a value only known at run time after the name (not in it).
KNOWN_SUBSCRIPTS = [
    'x=$(date); printf -v "a[1]" %s "$x"; declare "a[2]=$x"; test -v "a[1]"; unset "a[1]"',
    'i=3; a=(1 2 3 4); unset "a[$i]"; read "a[$i]" < /dev/null',
    'f() { local -n ref=$1; ref=$(date); }; f out',
    'x=$(date); declare -n r="$x"; declare "m=$x"',
]


@pytest.mark.parametrize("command", KNOWN_SUBSCRIPTS, ids=[plain_id(c, 50) for c in KNOWN_SUBSCRIPTS])
def test_a_name_whose_subscript_is_known_passes(world: Repo, command: str) -> None:  # noqa: F811
    assert_row(world, command, "pass")


def test_a_subscript_counted_by_arithmetic_is_a_known_false_deny(world: Repo) -> None:  # noqa: F811
    """`i` assigned only by arithmetic holds a number, yet the state does not keep how a variable was assigned:
    `unset "a[$i]"` after `((i++))` is WG404 (docs/bash.md, known gaps)."""
    verdict = bash(world, 'a=(1 2 3); i=0; ((i++)); unset "a[$i]"')
    assert verdict.decision == "deny" and {v.code for v in verdict.violations if v.severity == "error"} == {"WG404"}


# A child shell (`bash -c CODE ARG0 ARGS…`, `bash -s ARGS`) has positional parameters of its own, and a trap runs
# with those of wherever the shell is when it fires: neither sees the words of the function around it (review 12's
# finding 1: with the function's words bound, `"$@"` there named HOME and these passed).
CALLERS_WORDS_ROWS = [
    "f() { bash -c 'for v in \"$@\"; do echo \"${!v}\"; done' _ 'a[$(CODE)]'; }; f HOME",
    "f() { env bash -c 'for v in \"$@\"; do echo \"${!v}\"; done' _ 'a[$(CODE)]'; }; f HOME",
    "f() { bash -s 'a[$(CODE)]' <<'E'\nfor v in \"$@\"; do echo \"${!v}\"; done\nE\n}; f HOME",
    "f() { trap 'for v in \"$@\"; do echo \"${!v}\"; done' EXIT; }; set -- 'a[$(CODE)]'; f HOME",
]


@pytest.mark.parametrize("row", CALLERS_WORDS_ROWS, ids=lambda row: plain_id(row, 60))
def test_a_child_shell_or_a_trap_does_not_see_the_calling_functions_words(world: Repo, row: str) -> None:
    verdict = bash(world, row.replace("CODE", f"rm -rf {world.main}/src"))
    assert (verdict.decision, verdict.codes) == ("deny", ["WG404"]), verdict.violations


def test_a_function_still_sees_its_own_words_after_a_child_shell_and_a_trap(world: Repo) -> None:
    row = "check() { bash -c 'true'; trap 'true' EXIT; for v in \"$@\"; do [ -n \"${!v:-}\" ] || exit 1; done; }; check HOME"
    assert bash(world, row).decision == "pass"
