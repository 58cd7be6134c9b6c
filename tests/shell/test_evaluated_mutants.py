"""Code bash runs while it expands a word or looks a name up (shell/evaluated.py), pinned for mutation testing
(issue 13, phase 15).

Each row walks a command with the bare walker of `test_shell_mutants.py` and lists, in order, every finding the
module gives the walker (`Walker.evaluations`' input): ("code", TEXT, span) is shell code to walk, the body of
an unquoted heredoc (`as_expanded`); ("script", TEXT, span) other code (`declare -a a="(…)"`); ("unknown",
REASON, span) code only known at run time (WG404 through the rules). The commands are those of
`tests/test_bash_evaluated.py` (which real bash showed to run, or not to run, their code) with CODE as `c`,
and the shapes mutation testing found unpinned (the rows after `# -- phase 15`).
"""

from __future__ import annotations

from unittest import mock

import pytest

from tests.shell.test_shell_mutants import bare_walker
from worktree_guard.shell import walk as shell_walk
from worktree_guard.shell.evaluated import _array_subscripts, _bracket_close, _expansions, _static_head, as_expanded, prompt_decoded
from worktree_guard.shell.parse import parse
from worktree_guard.shell.state import ShellState

PRE, POST = ": <<WORKTREE_GUARD_EXPANDED\n", "\nWORKTREE_GUARD_EXPANDED\n"


def evaluations(source: str, variables: dict | None = None) -> list[tuple]:
    walker, _ = bare_walker()
    got: list[tuple] = []
    original = shell_walk.Walker.evaluations

    def record(self, found, state, depth):
        got.extend((f.script, f.span, f.reason) for f in found)
        return original(self, found, state, depth)

    with mock.patch.object(shell_walk.Walker, "evaluations", record):
        walker.walk_script(parse(source), ShellState(cwd="/w", variables=dict(variables or {})))
    out = []
    for script, span, reason in got:
        if script is None:
            out.append(("unknown", reason, span))
        elif script.startswith(PRE) and script.endswith(POST) and script.count("WORKTREE_GUARD_EXPANDED") == 2:
            out.append(("code", script[len(PRE):-len(POST)], span))
        else:
            out.append(("script", script, span))
    return out


ROWS = {
    'x=\'$(c)\'; echo "${x@P}"': [('code', '$(c)', (15, 23))],
    'x=\'`c`\'; echo "${x@P}"': [('code', '`c`', (14, 22))],
    'x=\'\\044(c)\'; echo "${x@P}"': [('code', '$(c)', (18, 26))],
    'x=\'\\444(c)\'; echo "${x@P}"': [('code', '$(c)', (18, 26))],
    'x=\'$\\[(c)\'; echo "${x@P}"': [('code', '$(c)', (17, 25))],
    'x=\'\\x$(c)\'; echo "${x@P}"': [('code', '\\x$(c)', (17, 25))],
    'x="\'\\$(c)\'"; echo "${x@P}"': [('code', "'$(c)'", (18, 26))],
    'f() { echo "${1@P}"; }; f \'$(c)\'': [('code', '$(c)', (11, 19))],
    'f() { echo "${@@P}"; }; f \'$(c)\'': [('code', '$(c)', (11, 19))],
    'y=\'$(c)\'; x=y; echo "${!x@P}"': [('code', '$(c)', (20, 29))],
    "PS4='$(c)'; set -x; true": [('code', '$(c)', (4, 10))],
    "export PS4='$(c)'; set -o xtrace; :": [('code', '$(c)', (7, 17))],
    "p='$(c)'; PS4=$p; set -x; :": [('code', '$(c)', (14, 16))],
    'p=\'$(c)\'; PS4="+ ${p}"; set -x; :': [('code', '+ $(c)', (14, 22))],
    "PS0='$(c)' bash -i <<< true 2>/dev/null": [('code', '$(c)', (4, 10))],
    'x=\'a[$(c)]\'; echo "${!x}"': [('code', '$(c)', (18, 25))],
    'i=\'b[$(c)]\'; x=\'a[i]\'; echo "${!x}"': [('code', 'b[$(c)]', (28, 35))],
    'declare -A h; x=\'h[$(c)]\'; echo "${!x}"': [('code', '$(c)', (32, 39))],
    "x='a[$(c)]'; echo $(( x ))": [('code', 'a[$(c)]', (18, 26))],
    "x='a[$(c)]'; echo $(( $x + 1 ))": [('code', 'a[$(c)]', (18, 31))],
    "x='a[$(c)]'; (( x ))": [('code', 'a[$(c)]', (16, 17))],
    "x='a[$(c)]'; let x": [('code', 'a[$(c)]', (17, 18))],
    "x='a[$(c)]'; echo $[x]": [('code', 'a[$(c)]', (18, 22))],
    "x='a[$(c)]'; [[ $x -eq 1 ]]": [('code', 'a[$(c)]', (16, 18))],
    "x='a[$(c)]'; [[ -v $x ]]": [('code', 'a[$(c)]', (19, 21))],
    "[[ 'a[$(c)]' -eq 1 ]]": [('code', "'a[$(c)]'", (3, 12))],
    "[[ $'a[$(c)]' -eq 1 ]]": [('code', "$'a[$(c)]'", (3, 13))],
    "[[ 1 -lt 'a[`c`]' ]]": [('code', "'a[`c`]'", (9, 17))],
    "[[ -n x && ( 2 -ge 'a[$(c)]' ) ]]": [('code', "'a[$(c)]'", (19, 28))],
    "y='a[$(c)]'; x=y; echo $(( x ))": [('code', 'a[$(c)]', (23, 31))],
    'o=\'a[$(c)]\'; b=(1 2); echo "${b[o]}"': [('code', 'a[$(c)]', (27, 36))],
    "o='a[$(c)]'; b=(1 2); b[o]=3": [('code', 'a[$(c)]', (22, 28))],
    "o='a[$(c)]'; b=([$o]=3)": [('code', 'a[$(c)]', (15, 23))],
    "a=(['$(c)']=1)": [('code', "'$(c)'", (2, 14))],
    "a=(x [1]=y ['$(c)']=1)": [('code', "'$(c)'", (2, 22))],
    "declare -a a=(['$(c)']=1)": [('code', "'$(c)'", (11, 25))],
    "x='b[$(c)]'; declare -a a=([x]=1)": [('code', 'b[$(c)]', (24, 33))],
    "x='b[$(c)]'; f() { local -a a=([$x]=1); }; f": [('code', 'b[$(c)]', (28, 38))],
    "x='b[$(c)]'; declare a=([x]=1)": [('code', 'b[$(c)]', (21, 30))],
    "x='b[$(c)]'; typeset -ga a=([1]=2 [x]=1)": [('code', 'b[$(c)]', (25, 40))],
    'o=\'a[$(c)]\'; s=abc; echo "${s:o}"': [('code', 'a[$(c)]', (25, 33))],
    "declare -i n; x='a[$(c)]'; n=x": [('code', 'a[$(c)]', (29, 30))],
    "x='a[$(c)]'; declare -i n; n=$x": [('code', 'a[$(c)]', (29, 31))],
    'x=\'a[$(c)]\'; declare -i n; n="${x}"': [('code', 'a[$(c)]', (29, 35))],
    "x='a[$(c)]'; declare -i n; declare n=x": [('code', 'a[$(c)]', (35, 38))],
    "x='a[$(c)]'; declare -i n; export n=x": [('code', 'a[$(c)]', (34, 37))],
    "x='a[$(c)]'; for ((i = 0; i < x; i++)); do :; done": [('code', 'a[$(c)]', (30, 31))],
    "x='a[$(c)]'; case $((x)) in *) ;; esac": [('code', 'a[$(c)]', (18, 24))],
    "f() { echo $(( $1 )); }; f 'a[$(c)]'": [('code', 'a[$(c)]', (11, 20))],
    'f() { for v in "$@"; do echo "${!v}"; done; }; f HOME \'a[$(c)]\'': [('code', '$(c)', (29, 36))],
    "f() { (( ${2} + 1 )); }; x='a[$(c)]'; f 1 x": [('code', 'a[$(c)]', (9, 13))],
    "echo $(( '$(c)' ))": [('code', " '$(c)' ", (5, 18))],
    "(( '$(c)' ))": [('code', "'$(c)'", (3, 9))],
    'echo "${a[\'$(c)\']}"': [('code', "'$(c)'", (5, 19))],
    "s=abc; echo ${s:'$(c)'}": [('code', "'$(c)'", (12, 23))],
    'let "a[\'\\$(c)\']"': [('code', "a['$(c)']", (4, 16))],
    "let 'a[$(c)]'": [('code', 'a[$(c)]', (4, 13))],
    "printf -v 'a[$(c)]' x": [('code', '$(c)', (10, 19))],
    'x=\'a[$(c)]\'; printf -v "$x" y': [('code', '$(c)', (23, 27))],
    "declare 'a[$(c)]=1'": [('code', '$(c)', (8, 19))],
    'x=\'a[$(c)]=1\'; declare "$x"': [('code', '$(c)', (23, 27))],
    "f() { local 'a[$(c)]=1'; }; f": [('code', '$(c)', (12, 23))],
    "typeset -g 'a[$(c)]=1'": [('code', '$(c)', (11, 22))],
    "test -v 'a[$(c)]'": [('code', '$(c)', (8, 17))],
    "[ -v 'a[$(c)]' ]": [('code', '$(c)', (5, 14))],
    "read 'a[$(c)]' < /dev/null": [('code', '$(c)', (5, 14))],
    "a=(1 2); unset 'a[$(c)]'": [('code', '$(c)', (15, 24))],
    "declare -A h; unset 'h[$(c)]'": [('code', '$(c)', (20, 29))],
    'declare -n r=\'a[$(c)]\'; echo "$r"': [('code', '$(c)', (11, 22))],
    "declare -i n='a[$(c)]'": [('code', 'a[$(c)]', (11, 22))],
    "declare -a 'a=($(c))'": [('script', 'a=($(c))\n', (11, 21))],
    'x=\'($(c))\'; declare -a a="$x"': [('script', 'a=($(c))\n', (23, 29))],
    'f() { local -a a="$1"; }; f \'($(c))\'': [('script', 'a=($(c))\n', (15, 21))],
    "export -a 'a=($(c))'": [('script', 'a=($(c))\n', (10, 20))],
    "readonly -A 'h=([$(c)]=1)'": [('script', 'h=([$(c)]=1)\n', (12, 26))],
    'PS1=\'\\u@\\h:\\w\\$ \'; echo "${PS1@P}"': [],
    'x=\'\\D{%H:%M} \\j \\! \\# \\s \\v [\\t]\'; echo "${x@P}"': [],
    'x=\'$(git status --short) \\w\'; echo "${x@P}"': [('code', '$(git status --short) x', (35, 43))],
    'x=\'\\$(c)\'; echo "${x@P}"': [('code', '\\$(c)', (16, 24))],
    'x=\'\\\\$(c)\'; echo "${x@P}"': [('code', '\\$(c)', (17, 25))],
    'f() { echo "${1@P}"; }; f \'\\u@\\h\'': [],
    'x=HOME; echo "${!x}"': [],
    'for v in HOME PWD; do echo "${!v}"; done': [],
    'check() { for v in "$@"; do [ -n "${!v:-}" ] || exit 1; done; }; check API_KEY DB_URL': [],
    'name=\'arr[@]\'; arr=(a b); echo "${!name}"': [],
    "a=(1 2); x='a[1]'; echo $(( x + 1 ))": [],
    'n=$(wc -l < README.md); echo $(( n + 1 ))': [],
    'for ((i = 0; i < 3; i++)); do echo $i; done': [],
    'f() { echo $(( $1 + ${2} * 10 )); }; f 3 4; f "$(wc -l < README.md)" 1': [],
    'printf -v now \'%s\' x; echo "$now"': [],
    'while IFS= read -r line; do echo "$line"; done < README.md': [],
    "read -rp 'name: ' ans < /dev/null": [],
    'f() { local x="$1"; local -a all=("$@"); local -n ref=$1; }; f a b': [],
    'declare -a arr=("$HOME"); declare -A m=([a]=1); echo "${arr[0]} ${m[a]}"': [],
    'i=2; a=([0]=x [i]=y [$i+1]=z \'[q]\' "[$(date)]"); declare -a b=([i*2]=1); local_x=([1]="$HOME")': [],
    'test -v HOME && [ -v PWD ] && [[ -v HOME ]]': [],
    'unset x; unset -f f; unset "${!GIT_@}"': [],
    "export $(grep -v '^#' .env | xargs) 2>/dev/null": [],
    's=hello; echo "${s:0:3} ${s: -2} ${#s}"': [],
    'grep "^${var}$" README.md': [],
    "PS4='+ $(date) ${LINENO}: '; set -x; true": [('code', '+ $(date) ${LINENO}: ', (4, 27))],
    'p=\'+ \'; PS4=$p; PS0="$p"; set -x; true': [],
    'declare -i n; x=5; n=$x+1; n="${x}"; declare n=x; export n=2': [],
    'export PS1="(venv) $PS1"': [],
    'x=\'$(c)\'; echo "${x@Q}"': [],
    'x=\'$(c)\'; echo "${x@E}"': [],
    'x=\'$(c)\'; echo "${x@A}"': [],
    'x=\'$(c)\'; echo "${x@a}"': [],
    'x=\'$(c)\'; echo "${x@K}"': [],
    'x=\'$(c)\'; echo "${x@k}"': [],
    'x=\'$(c)\'; echo "${x@U}"': [],
    'x=\'$(c)\'; echo "${x@u}"': [],
    'x=\'$(c)\'; echo "${x@L}"': [],
    'y=\'$(c)\'; x=y; echo "${!x}"': [],
    'x=\'a[$(c)]\'; test "$x" -eq 1': [],
    'x=\'a[$(c)]\'; declare "$x"': [],
    "export 'a[$(c)]=1'": [],
    "declare -A h=(['$(c)']=1)": [],
    "k='a[$(c)]'; declare -A h=([$k]=1)": [],
    "s=x; [[ $s == 'a[$(c)]' ]]": [],
    "s=x; [[ $s != *'[$(c)'* || -z 'a[$(c)]' ]]": [],
    'echo "${x@P}"': [('unknown', '`${x@P}` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (5, 13))],
    'f() { echo "${1@P}"; }; f "$(cat notes.txt)"': [('unknown', '`${1@P}` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (11, 19))],
    'echo "${!x}"': [('unknown', '`${!x}` reads the variable named by the value of x, a name only known at run time (a subscript in it runs command substitutions)', (5, 12))],
    'f() { for v in "$@"; do echo "${!v}"; done; }; f HOME "$(cat names)"': [('unknown', '`${!v}` reads the variable named by the value of v, a name only known at run time (a subscript in it runs command substitutions)', (29, 36))],
    'printf -v "$x" y': [('unknown', '`printf` is given a variable name only known at run time ("$x"), and bash expands a subscript in a name, command substitutions included', (10, 14))],
    'read "$x" < /dev/null': [('unknown', '`read` is given a variable name only known at run time ("$x"), and bash expands a subscript in a name, command substitutions included', (5, 9))],
    'declare "$x"': [('unknown', '`declare` is given a variable name only known at run time ("$x"), and bash expands a subscript in a name, command substitutions included', (8, 12))],
    'test -v "$x"': [('unknown', '`test` is given a variable name only known at run time ("$x"), and bash expands a subscript in a name, command substitutions included', (8, 12))],
    'unset "$x"': [('unknown', '`unset` is given a variable name only known at run time ("$x"), and bash expands a subscript in a name, command substitutions included', (6, 10))],
    'declare -a a="$x"': [('unknown', '`declare -a` reads a value only known at run time (a="$x") as an array assignment, which runs the command substitutions in it', (11, 17))],
    'PS4="$x"; set -x; true': [('unknown', '`PS4` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (4, 8))],
    'printf -v "a[$(printf \'%s\' \'$(c)\')]" x': [('unknown', '`printf` is given a variable name whose subscript is only known at run time ("a[$(printf \'%s\' \'$(c)\')]"), and bash expands a subscript in a name, command substitutions included', (10, 36))],
    'test -v "a[$(printf \'%s\' \'$(c)\')]"': [('unknown', '`test` is given a variable name whose subscript is only known at run time ("a[$(printf \'%s\' \'$(c)\')]"), and bash expands a subscript in a name, command substitutions included', (8, 34))],
    '[ -v "a[$(printf \'%s\' \'$(c)\')]" ]': [('unknown', '`[` is given a variable name whose subscript is only known at run time ("a[$(printf \'%s\' \'$(c)\')]"), and bash expands a subscript in a name, command substitutions included', (5, 31))],
    'declare "a[$(printf \'%s\' \'$(c)\')]=1"': [('unknown', '`declare` is given a variable name whose subscript is only known at run time ("a[$(printf \'%s\' \'$(c)\')]=1"), and bash expands a subscript in a name, command substitutions included', (8, 36))],
    'f() { local "a[$(printf \'%s\' \'$(c)\')]=1"; }; f': [('unknown', '`local` is given a variable name whose subscript is only known at run time ("a[$(printf \'%s\' \'$(c)\')]=1"), and bash expands a subscript in a name, command substitutions included', (12, 40))],
    'typeset "a[$(printf \'%s\' \'$(c)\')]=1"': [('unknown', '`typeset` is given a variable name whose subscript is only known at run time ("a[$(printf \'%s\' \'$(c)\')]=1"), and bash expands a subscript in a name, command substitutions included', (8, 36))],
    'read "a[$(printf \'%s\' \'$(c)\')]" < /dev/null': [('unknown', '`read` is given a variable name whose subscript is only known at run time ("a[$(printf \'%s\' \'$(c)\')]"), and bash expands a subscript in a name, command substitutions included', (5, 31))],
    'declare -n r="a[$(printf \'%s\' \'$(c)\')]"; : "$r"': [('unknown', '`declare -n` is given a variable name whose subscript is only known at run time (r="a[$(printf \'%s\' \'$(c)\')]"), and bash expands a subscript in a name, command substitutions included', (11, 39))],
    'i=$(printf \'%s\' \'$(c)\'); declare -A h; unset "h[$i]"': [('unknown', '`unset` is given a variable name whose subscript is only known at run time ("h[$i]"), and bash expands a subscript in a name, command substitutions included', (45, 52))],
    'x=$(date); printf -v "a[1]" %s "$x"; declare "a[2]=$x"; test -v "a[1]"; unset "a[1]"': [],
    'i=3; a=(1 2 3 4); unset "a[$i]"; read "a[$i]" < /dev/null': [],
    'f() { local -n ref=$1; ref=$(date); }; f out': [],
    'x=$(date); declare -n r="$x"; declare "m=$x"': [],
    'f() { bash -c \'for v in "$@"; do echo "${!v}"; done\' _ \'a[$(c)]\'; }; f HOME': [],
    'f() { env bash -c \'for v in "$@"; do echo "${!v}"; done\' _ \'a[$(c)]\'; }; f HOME': [],
    'f() { bash -s \'a[$(c)]\' <<\'E\'\nfor v in "$@"; do echo "${!v}"; done\nE\n}; f HOME': [],
    'f() { trap \'for v in "$@"; do echo "${!v}"; done\' EXIT; }; set -- \'a[$(c)]\'; f HOME': [],
    # -- phase 15: redirections, heredocs, assignments, every form of ${…}, names after a value became unknown,
    # each builtin's way of naming a variable
    'x=\'a[$(c)]\'; echo > "$((x))"': [('code', 'a[$(c)]', (20, 28))],
    'x=\'$(c)\'; echo > "${x@P}"; echo 2> "${x@P}"': [('code', '$(c)', (17, 25)), ('code', '$(c)', (35, 43))],
    'x=\'$(c)\'; echo > f 2> "${x@P}"': [('code', '$(c)', (22, 30))],
    "x='a[$(c)]'; cat <<E\n$((x))\nE": [('code', 'a[$(c)]', (17, 20))],
    'x=\'$(c)\'; cat <<E\n\'${x@P}\' "${x@P}"\nE': [('code', '$(c)', (14, 17)), ('code', '$(c)', (14, 17))],
    "x='$(c)'; cat <<'E'\n${x@P}\nE": [],
    'x=\'$(c)\'; cat > "${x@P}" <<E\n${x@P}\nE': [('code', '$(c)', (16, 24)), ('code', '$(c)', (25, 28))],
    "x='$(c)'; y=${x@P}": [('code', '$(c)', (12, 18))],
    'x=\'$(c)\'; y="a${x@P}"': [('code', '$(c)', (12, 21))],
    "PS4+='$(c)'; set -x; :": [('unknown', '`PS4` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (5, 11))],
    "PS4=~'$(c)'; set -x; :": [('code', '~$(c)', (4, 11))],
    "X='$(c x)'; PS4=$X; set -x; :": [('code', '$(c x)', (16, 18))],
    "X='$(c x)'; PS4=${X}; set -x; :": [('code', '$(c x)', (16, 20))],
    'PS4=$(c); set -x; :': [('unknown', '`PS4` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (4, 8))],
    'PS4="$(c)"; set -x; :': [('unknown', '`PS4` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (4, 10))],
    'x=\'$(c)\'; echo "${#x}" "${#}" "${#:-a}" "${#x@P}"': [('code', '$(c)', (40, 49))],
    'x=\'$(c)\'; echo "${!#}" "${!}" "${!x*}" "${!x@}" "${!a[@]}" "${!a[*]}"': [],
    'x=\'a[$(c)]\'; echo "${!x[@]}" "${!x[*]}" "${!x[1]}"': [('unknown', '`${!x[1]}` reads the variable named by the value of x, a name only known at run time (a subscript in it runs command substitutions)', (40, 50))],
    'y=\'$(c)\'; x=\'y\'; echo "${!x@P}" "${!x:-z}"': [('code', '$(c)', (22, 31))],
    'x=\'a[$(c)]\'; echo "${b[@]}" "${b[*]}" "${b[x]}" "${b[x]:-z}" "${b[1]@P}"': [('code', 'a[$(c)]', (38, 47)), ('code', 'a[$(c)]', (48, 60)), ('unknown', '`${b[1]@P}` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (61, 72))],
    'x=\'a[$(c)]\'; s=abc; echo "${s:-x}" "${s:=x}" "${s:?x}" "${s:+x}" "${s: x}" "${s:1:x}" "${s:x:1}"': [('code', 'a[$(c)]', (65, 74)), ('code', 'a[$(c)]', (75, 85)), ('code', 'a[$(c)]', (86, 96))],
    'x=\'a[$(c)]\'; s=abc; echo "${s:-$((x))}" "${s:+${x@P}}"': [('code', 'a[$(c)]', (25, 39)), ('code', 'a[$(c)]', (40, 54))],
    'x=\'$(c)\'; echo "${@@P}" "${*@P}" "${x@Q}"': [('unknown', '`${@@P}` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (15, 23)), ('unknown', '`${*@P}` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (24, 32))],
    'f() { echo "${*@P}" "${@:x}"; }; f \'$(c)\' \'\\u\'': [('code', '$(c) x', (11, 19))],
    'f() { echo "${@@P}"; }; f \'$(c)\' "$(date)"': [('unknown', '`${@@P}` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (11, 19))],
    'x=\'$(c)\'; echo "${x[@]@P}" "${x[1]@P}"': [('unknown', '`${x[@]@P}` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (15, 26)), ('unknown', '`${x[1]@P}` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (27, 38))],
    "X=0; true && X='a[$(c)]'; X+=''; (( X ))": [('unknown', 'arithmetic reads X, a value only known at run time, after a value that runs code (X) became unknown: it may hold it', (36, 37))],
    "X=0; true && X='a[$(c)]'; X+=''; (( X + Y + X ))": [('unknown', 'arithmetic reads X, a value only known at run time, after a value that runs code (X) became unknown: it may hold it', (36, 37)), ('unknown', 'arithmetic reads Y, a value only known at run time, after a value that runs code (X) became unknown: it may hold it', (40, 41)), ('unknown', 'arithmetic reads X, a value only known at run time, after a value that runs code (X) became unknown: it may hold it', (44, 45))],
    "X=0; true && X='a[$(c)]'; X+=''; (( X )); (( Y ))": [('unknown', 'arithmetic reads X, a value only known at run time, after a value that runs code (X) became unknown: it may hold it', (36, 37)), ('unknown', 'arithmetic reads Y, a value only known at run time, after a value that runs code (X) became unknown: it may hold it', (45, 46))],
    'X=0; true && X=\'a[$(c)]\'; declare -n r="$X"; echo $r': [('unknown', '`declare -n` is given a name only known at run time (r="$X") after a value that runs code (X) became unknown: it may hold it', (37, 43))],
    'X=0; true && X=\'a[$(c)]\'; f(){ (( $1 )); }; f "$X"': [('unknown', 'arithmetic reads 1, a value only known at run time, after a value that runs code (X) became unknown: it may hold it', (34, 36))],
    "X='a[$(c)]'; f(){ local X=1; }; f; (( X ))": [('unknown', 'arithmetic reads X, a value only known at run time, after a value that runs code (X) became unknown: it may hold it', (38, 39))],
    "X=0; true && X='a[$(c)]'; (( X ))": [('code', 'a[$(c)]', (29, 30))],
    "X=0; true && X='a[$(c)]'; Y=$X; (( Y ))": [('unknown', 'arithmetic reads Y, a value only known at run time, after a value that runs code (X) became unknown: it may hold it', (35, 36))],
    "x='y'; y='a[$(c)]'; (( x + x ))": [('code', 'a[$(c)]', (23, 24)), ('code', 'a[$(c)]', (27, 28))],
    "x='y + z'; y='a[$(c)]'; z='a[$(d)]'; (( x ))": [('code', 'a[$(c)]', (40, 41)), ('code', 'a[$(d)]', (40, 41))],
    "printf -v 'a[$(c)]' x; printf -va[$(c)] x; printf -v; printf x": [('code', '$(c)', (10, 19))],
    "printf '-va[$(c)]' x; printf -v x 'a[$(c)]'": [('code', '$(c)', (7, 18))],
    "test -v 'a[$(c)]'; test x -v 'a[$(c)]'; test 'a[$(c)]' -v; [ -v 'b[$(d)]' ]": [('code', '$(c)', (8, 17)), ('code', '$(c)', (29, 38)), ('code', '$(d)', (64, 73))],
    "wait -p 'a[$(c)]'; wait -v 'a[$(c)]'; wait -p": [('code', '$(c)', (8, 17))],
    "read -r 'a[$(c)]'; read -p 'p' 'a[$(c)]'; read -t5 'a[$(c)]'; read -rp 'q' 'a[$(c)]'": [('code', '$(c)', (8, 17)), ('code', '$(c)', (31, 40)), ('code', '$(c)', (51, 60)), ('code', '$(c)', (75, 84))],
    'read -- \'a[$(c)]\'; read - \'a[$(c)]\'; read "$x" \'a[$(c)]\'; read -a \'a[$(c)]\'': [('code', '$(c)', (8, 17)), ('code', '$(c)', (26, 35)), ('unknown', '`read` is given a variable name only known at run time ("$x"), and bash expands a subscript in a name, command substitutions included', (42, 46)), ('code', '$(c)', (47, 56))],
    "read -u 3 'a[$(c)]'; read -dx 'a[$(c)]'; read -d": [('code', '$(c)', (10, 19)), ('code', '$(c)', (30, 39))],
    "unset -f 'a[$(c)]'; unset -v 'a[$(c)]'; declare -p 'a[$(c)]'; declare -F 'a[$(c)]'": [('code', '$(c)', (29, 38))],
    "declare +x 'a[$(c)]=1'; declare -x 'a[$(c)]=1'; declare - 'a[$(c)]=1'": [('code', '$(c)', (11, 22)), ('code', '$(c)', (35, 46)), ('code', '$(c)', (58, 69))],
    "declare -i n='a[$(c)]'; declare -n r='a[$(c)]'; declare -a a='($(c))'; declare -A h='([$(c)]=1)'": [('code', 'a[$(c)]', (11, 22)), ('code', '$(c)', (35, 46)), ('script', 'a=($(c))\n', (59, 69)), ('script', 'h=([$(c)]=1)\n', (82, 96))],
    "declare -A h=(['$(c)']=1); declare -a a=(['$(c)']=1)": [('code', "'$(c)'", (38, 52))],
    'declare -a "a=($(c))"; declare -a a="$v"; declare -A a="$v"': [('unknown', '`declare -a` reads a value only known at run time ("a=($(c))") as an array assignment, which runs the command substitutions in it', (11, 21)), ('unknown', '`declare -a` reads a value only known at run time (a="$v") as an array assignment, which runs the command substitutions in it', (34, 40)), ('unknown', '`declare -A` reads a value only known at run time (a="$v") as an array assignment, which runs the command substitutions in it', (53, 59))],
    'declare -n r="a[$x]"; declare -n r=$x': [('unknown', '`declare -n` is given a variable name whose subscript is only known at run time (r="a[$x]"), and bash expands a subscript in a name, command substitutions included', (11, 20))],
    'X=0; true && X=\'a[$(c)]\'; X+=\'\'; declare -n r="$X"': [('unknown', '`declare -n` is given a name only known at run time (r="$X") after a value that runs code (X) became unknown: it may hold it', (44, 50))],
    'export PS4=\'$(c)\'; readonly PS0=\'$(c)\'; declare PS4="$x"': [('code', '$(c)', (7, 17)), ('code', '$(c)', (28, 38)), ('unknown', '`PS4` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (48, 56))],
    "export n='a[$(c)]'; declare -i n; export n='a[$(c)]'": [('code', 'a[$(c)]', (41, 52))],
    'let \'a[$(c)]\' "$x" \'b[$(d)]\'': [('code', 'a[$(c)]', (4, 13)), ('code', 'b[$(d)]', (19, 28))],
    "let x; x='a[$(c)]'; let y x": [('code', 'a[$(c)]', (26, 27))],
    "command printf -v 'a[$(c)]' x": [],
    "'printf' -v 'a[$(c)]' x": [('code', '$(c)', (12, 21))],
    "p\\rintf -v 'a[$(c)]' x": [('code', '$(c)', (11, 20))],
    'declare "$x=1"; declare "a[$x]=1"': [('unknown', '`declare` is given a variable name only known at run time ("$x=1"), and bash expands a subscript in a name, command substitutions included', (8, 14)), ('unknown', '`declare` is given a variable name whose subscript is only known at run time ("a[$x]=1"), and bash expands a subscript in a name, command substitutions included', (24, 33))],
    'export "$x"; export "a[$x]"; readonly "$x=1"': [],
    'unset "${!GIT_@}" "${!X*}"; unset ${!GIT_@}': [],
    "declare a=(['$(c)']=1)": [('code', "'$(c)'", (8, 22))],
    'local a=([x]=1)': [],
    "x='a[$(c)]'; declare -i n; n+=x": [('code', 'a[$(c)]', (30, 31))],
    "x='a[$(c)]'; declare -i n; m=x": [],
    "b[x]=1; x='a[$(c)]'; b[x]=2": [('code', 'a[$(c)]', (21, 27))],
    "x='a[$(c)]'; b=([x]=1 [2]=3)": [('code', 'a[$(c)]', (15, 28))],
    'x=\'a[$(c)]\'; for v in "$((x))"; do :; done; case "$((x))" in "$((x))") ;; esac': [('code', 'a[$(c)]', (22, 30)), ('code', 'a[$(c)]', (49, 57)), ('code', 'a[$(c)]', (61, 69))],
    'x=\'a[$(c)]\'; [[ -n "$((x))" ]]; [[ x == y ]]': [('code', 'a[$(c)]', (19, 27)), ('code', 'a[$(c)]', (19, 27)), ('code', 'a[$(c)]', (35, 36))],
    "x='a[$(c)]'; [[ $x -eq 1 && -v x ]]": [('code', 'a[$(c)]', (16, 18)), ('code', 'a[$(c)]', (31, 32))],
    "x='a[$(c)]'; for (( ; x; )); do break; done": [('code', 'a[$(c)]', (22, 23))],
    "echo $(( '$(c)' + x ))": [('code', " '$(c)' + x ", (5, 22))],
    'echo $(( "$(c)" ))': [],
    'x=\'a[$(c)]\'; echo "$(( $x ))" $[ $x ] "${s:$x}"': [('code', 'a[$(c)]', (18, 29)), ('code', 'a[$(c)]', (30, 37)), ('code', 'a[$(c)]', (38, 47))],
    "x='a[$(c)]'; echo ${s:'$(c)':1}": [('code', "'$(c)'", (18, 31))],
    "x='a[$(c)]'; a=1 b=$((x))": [('code', 'a[$(c)]', (19, 25))],
    "PS4=~/'$(c)'; set -x; :": [('code', '/h/$(c)', (4, 12))],
    "[[ 'a[$(c)]' == x && 1 -eq 2 ]]": [],
    'x=\'a[$(c)]\'; echo "${#Xa[x]}"': [('code', 'a[$(c)]', (18, 29))],
    'a=(x \'$(c)\'); x=\'a[1]\'; echo "${!x@P}"': [('unknown', '`${!x@P}` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (29, 38))],
    'f() { IFS=-; echo "${*@P}"; }; f \'$(c)\' \'\\u\'': [('code', '$(c) x', (18, 26))],
    "x='$(c)'; echo $(( ${x@P} )) $(( '${x@P}' ))": [('code', '$(c)', (15, 28)), ('code', '$(c)', (15, 28)), ('code', " '${x@P}' ", (29, 44)), ('code', '$(c)', (29, 44)), ('code', '$(c)', (2, 27))],
    "y='a[$(c)]'; echo $(( x + x + y ))": [('code', 'a[$(c)]', (18, 34))],
    "x='a[$(c)]'; echo $(( x + x ))": [('code', 'a[$(c)]', (18, 30))],
    "X=0; true && X='a[$(c)]'; X+=''; y='a[$(d)]'; echo $(( y + X ))": [('code', 'a[$(d)]', (51, 63)), ('unknown', 'arithmetic reads X, a value only known at run time, after a value that runs code (X) became unknown: it may hold it', (51, 63))],
    "X=0; true && X='a[$(c)]'; X+=''; true && y=Z || y=W; echo $(( y ))": [('unknown', 'arithmetic reads y, a value only known at run time, after a value that runs code (X) became unknown: it may hold it', (58, 66))],
    "printf -v 'a[b[$(c)]]' x": [('code', 'b[$(c)]', (10, 22))],
    "printf -v '$(c)' x": [('code', '$(c)', (10, 16))],
    "printf -v 'a[$(c)]'": [('code', '$(c)', (10, 19))],
    'printf': [],
    "printf '-va[$(c)]'": [('code', '$(c)', (7, 18))],
    "printf '-v$(c)' x": [('code', '$(c)', (7, 15))],
    "read -- '-$(c)'": [('code', '-$(c)', (8, 15))],
    "read -p '$(c)' -- x": [],
    "unset '+a[$(c)]'": [],
    "declare '-a[$(c)]=1'": [('code', '$(c)', (8, 20))],
    "declare -i -x n='a[$(c)]'": [('code', 'a[$(c)]', (14, 25))],
    "declare +i n='a[$(c)]'": [],
    "declare -X 'a[$(c)]=1'": [('code', '$(c)', (11, 22))],
    "declare -F 'a[$(c)]=1'": [],
    "printf -v 'x=$(c)'": [('code', 'x=$(c)', (10, 18))],
    "declare -a a='$(c)'": [],
    "declare -a 'a[1]=($(c))'": [('script', 'a=($(c))\n', (11, 24))],
    "declare -i n; declare 'n[1]=a[$(c)]'": [('code', 'a[$(c)]', (22, 36))],
    'unset "aX[$x]"': [('unknown', '`unset` is given a variable name whose subscript is only known at run time ("aX[$x]"), and bash expands a subscript in a name, command substitutions included', (6, 14))],
    'unset \'\'"a[$x]"': [('unknown', '`unset` is given a variable name whose subscript is only known at run time (\'\'"a[$x]"), and bash expands a subscript in a name, command substitutions included', (6, 15))],
    'unset a\\[*': [('unknown', '`unset` is given a variable name whose subscript is only known at run time (a\\[*), and bash expands a subscript in a name, command substitutions included', (6, 10))],
    'unset \'a\'[x"$y"': [('unknown', '`unset` is given a variable name whose subscript is only known at run time (\'a\'[x"$y"), and bash expands a subscript in a name, command substitutions included', (6, 15))],
    'f() { x=1; echo "${!x@P}"; }; f \'$(c)\'': [('unknown', '`${!x@P}` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (16, 25))],
    'XXXX=\'$(c)\'; unset x; echo "${!x@P}"': [('unknown', '`${!x@P}` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (27, 36))],
    "X=0; true && X='a[$(c)]'; X+=''; if t; then y='a[$(c)]'; else y=B; fi; echo $(( y ))": [('code', 'a[$(c)]', (76, 84))],
    'export -a "$x"; readonly PS4"$x"': [],
    'declare \'P\'\'S4\'="$x"': [('unknown', '`PS4` expands a value only known at run time as a prompt string, which runs the command substitutions in it', (8, 20))],
    "X=0; true && X='a[$(c)]'; X+=''; y='a[$(d)]'; echo $(( y ))": [('code', 'a[$(d)]', (51, 59)), ('unknown', 'arithmetic reads a, a value only known at run time, after a value that runs code (X) became unknown: it may hold it', (51, 59))],
}


@pytest.mark.parametrize("source", list(ROWS))
def test_what_bash_runs_while_expanding(source: str) -> None:
    assert evaluations(source) == ROWS[source]


# -- the pure helpers, each on the inputs that set its branches apart (values from the code as it stands, which
# test_bash_evaluated.py's rows hold to bash's behaviour) -------------------------------------------------------

PROMPTS = {'\\D{%H}b': 'xb', 'ab\\D{x}c': 'abxc', '\\D{x': '\\D{x', '\\D': '\\D', 'x\\Dy{}': 'x\\Dy{}', '\\D{a}\\D{b}': 'xx', '\\D{}x}': 'xx}', '\\D{}': 'x', 'a\\D{}': 'ax', '\\Dz}': '\\Dz}', '\\D{': '\\D{', '\\1': '\x01', '\\12': '\n', '\\123': 'S', '\\1234': 'S4', '\\18': '\x018', 'a\\101b': 'aAb', 'x\\0': 'x\x00', '\\08': '\x008', '\\7': '\x07', 'ab\\77': 'ab?', '\\777': 'ÿ', '\\400': '\x00', '\\': '\\', 'a\\': 'a\\', '\\x': '\\x', '\\u': 'x', 'a\\wb': 'axb', '\\n\\a\\e\\r': '\n\x07\x1b\r', '\\[x\\]': 'x', '\\$': '\\$', '\\\\': '\\', 'ab\\@c': 'abxc', 'plain': 'plain', '\\X': '\\X', '\\1X': '\x01X'}
AS_EXPANDED = {'x': ': <<WORKTREE_GUARD_EXPANDED\nx\nWORKTREE_GUARD_EXPANDED\n', 'a\\': ': <<WORKTREE_GUARD_EXPANDED\na\\ \nWORKTREE_GUARD_EXPANDED\n', 'WORKTREE_GUARD_EXPANDED': ': <<WORKTREE_GUARD_EXPANDED_\nWORKTREE_GUARD_EXPANDED\nWORKTREE_GUARD_EXPANDED_\n', 'WORKTREE_GUARD_EXPANDED_ and WORKTREE_GUARD_EXPANDED': ': <<WORKTREE_GUARD_EXPANDED__\nWORKTREE_GUARD_EXPANDED_ and WORKTREE_GUARD_EXPANDED\nWORKTREE_GUARD_EXPANDED__\n', '\\\\': ': <<WORKTREE_GUARD_EXPANDED\n\\\\ \nWORKTREE_GUARD_EXPANDED\n', '': ': <<WORKTREE_GUARD_EXPANDED\n\nWORKTREE_GUARD_EXPANDED\n'}
EXPANSIONS = {'${a}': ([('parameter', 'a')], [('parameter', 'a')]), '$((1+2))': ([('arithmetic', '1+2')], [('arithmetic', '1+2')]), '$[1+2]': ([('arithmetic', '1+2')], [('arithmetic', '1+2')]), "'${a}'": ([], [('parameter', 'a')]), '"\'${a}\'"': ([('parameter', 'a')], [('parameter', 'a')]), "$'${a}'": ([], [('parameter', 'a')]), '"$\'${a}\'"': ([('parameter', 'a')], [('parameter', 'a')]), '`${a}`': ([], []), '<(${a})': ([], []), '>(${a})': ([], []), 'a<${b}': ([('parameter', 'b')], [('parameter', 'b')]), 'a>${b}': ([('parameter', 'b')], [('parameter', 'b')]), '$(${a})': ([], []), '\\${a}': ([], []), '${a}${b}': ([('parameter', 'a'), ('parameter', 'b')], [('parameter', 'a'), ('parameter', 'b')]), "x'open ${a}": ([], [('parameter', 'a')]), '${a': ([], []), '$[1': ([], []), '$[a[1]]${b}': ([('arithmetic', 'a[1]'), ('parameter', 'b')], [('arithmetic', 'a[1]'), ('parameter', 'b')]), '$((1))x${c}': ([('arithmetic', '1'), ('parameter', 'c')], [('arithmetic', '1'), ('parameter', 'c')]), '$(( 1 ))$((2))': ([('arithmetic', ' 1 '), ('arithmetic', '2')], [('arithmetic', ' 1 '), ('arithmetic', '2')]), '$((a) )${b}': ([('parameter', 'b')], [('parameter', 'b')]), '$( (1) )${b}': ([('parameter', 'b')], [('parameter', 'b')]), '"${a}"${b}': ([('parameter', 'a'), ('parameter', 'b')], [('parameter', 'a'), ('parameter', 'b')]), "'a'${b}'${c}'${d}": ([('parameter', 'b'), ('parameter', 'd')], [('parameter', 'b'), ('parameter', 'c'), ('parameter', 'd')]), "a'b'c${d}": ([('parameter', 'd')], [('parameter', 'd')]), "x${a}'${b}'": ([('parameter', 'a')], [('parameter', 'a'), ('parameter', 'b')]), "$'x'${a}": ([('parameter', 'a')], [('parameter', 'a')]), '$': ([], []), '${a}$': ([('parameter', 'a')], [('parameter', 'a')]), '\\': ([], []), 'x\\': ([], []), "$(('1'))": ([('arithmetic', "'1'")], [('arithmetic', "'1'")]), '$[${a}]': ([('arithmetic', '${a}')], [('arithmetic', '${a}')]), 'x\\${a}${b}': ([('parameter', 'b')], [('parameter', 'b')]), '\\a${b}': ([('parameter', 'b')], [('parameter', 'b')]), "''${a}'": ([('parameter', 'a')], [('parameter', 'a')]), 'X(${a})': ([('parameter', 'a')], [('parameter', 'a')]), '$X${a}': ([('parameter', 'a')], [('parameter', 'a')]), "$'\\'${a}'": ([], [('parameter', 'a')]), "$[1']${b}'": ([('arithmetic', "1'"), ('parameter', 'b')], [('arithmetic', "1'"), ('parameter', 'b')])}
ARRAY_SUBSCRIPTS = {'([x]=1)': ['x'], '( [x]=1 [y]=2)': ['x', 'y'], '(a [b]=1)': ['b'], '(a[b]=1)': [], "('[x]'=1 [y]=2)": ['y'], '("[x]" [y]=2)': ['y'], '(\\[x]=1 [y]=2)': ['y'], 'x([y]=1)': [], '([a[1]]=2 [z]=3)': ['a[1]', 'z'], '([x=1)': [], "('open [x]=1)": [], '(\t[t]=1\n[n]=2)': ['t', 'n'], "([x]=1 'q' [y]=2)": ['x', 'y'], '(a\\ [b]=1 [c]=2)': ['b', 'c'], '("a\'b" [c]=1)': ['c'], "(\\' [y]=2)": ['y'], '(X [a]=1 X [b]=2)': ['a', 'b'], "('a' [x]=1 'b')": ['x'], "('' [x]=1 ')": ['x'], "('a''[z]' [y]=2)": ['y'], '(aX[b]=1)': [], "([a]'[b]' [c]=1)": ['a', 'c'], "([a']=1 [b]=2 ')": ["a'", 'b']}
BRACKET_CLOSE = {('[a]', 0): 2, ('x[a[b]]y', 1): 6, ('[[]', 0): -1, ('[a', 0): -1, ('a]', 0): -1, ('x[]', 1): 2, ('ab[c]', 2): 4}
STATIC_HEAD = {'x=$1': 'x=', '"x=$1"': 'x=', "'a'b$c": 'ab', 'a\\$b': 'a$b', 'a\\': 'a\\', "'open": '', '"a\'b"$c': "a'b", 'x`y`': 'x', 'plain': 'plain', 'a"b"c$d': 'abc', "\\'x": "'x"}


def test_prompt_escapes_decode_exactly() -> None:
    for value, decoded in PROMPTS.items():
        assert prompt_decoded(value) == decoded, value


def test_text_is_expanded_as_an_unquoted_heredocs_body_whose_delimiter_it_does_not_hold() -> None:
    for text, script in AS_EXPANDED.items():
        assert as_expanded(text) == script, text


def test_the_expansions_of_raw_text_in_a_word_and_in_a_heredoc() -> None:
    for raw, (in_word, in_heredoc) in EXPANSIONS.items():
        assert (list(_expansions(raw)), list(_expansions(raw, True))) == (in_word, in_heredoc), raw
        assert list(_expansions(raw, heredoc=False)) == in_word, raw


def test_the_subscripts_of_a_compound_array_assignment() -> None:
    for raw, subscripts in ARRAY_SUBSCRIPTS.items():
        assert list(_array_subscripts(raw)) == subscripts, raw


def test_the_bracket_that_closes() -> None:
    for (text, i), close in BRACKET_CLOSE.items():
        assert _bracket_close(text, i) == close, text


def test_the_static_head_of_a_word() -> None:
    for raw, head in STATIC_HEAD.items():
        assert _static_head(raw) == head, raw
