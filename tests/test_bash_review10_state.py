"""Issue 10, the review of the shell-state simulation (D14–D20): each attack the reviewer ran for real in
`tests/observe/` wrote into the main checkout; here each is denied with its exact code, and the ordinary work
next to it passes. SPEC §5.2's principle: when the simulation cannot follow something exactly, the state it
touches becomes unknown, never a stale known value.

W is a linked worktree inside the main checkout {MAIN} (`../../..` from W); W holds `to-main`, a symlink to it.
"""

from __future__ import annotations

import pytest

from tests.helpers import Repo, plain_id
from tests.test_bash_rules import assert_row, bash, world  # noqa: F401  (the fixture)

# (command, expected): "pass", or the exact set of error codes.
ROWS: dict[str, list[tuple[str, object]]] = {
    "D14 unset and default-value assignment": [
        ('unset X; : "${X:={MAIN}}"; echo hi > "${X-/tmp}/p"', {"WG403"}),
        ('unset X; : "${X={MAIN}}"; echo hi > "${X-/tmp}/p"', {"WG403"}),
        ("X=/tmp; : $((X=1)); echo hi > $X/p", {"WG403"}),
        ("X=/tmp; let X=1; echo hi > $X/p", {"WG403"}),
        ("X=/tmp; ((X++)); echo hi > $X/p", {"WG403"}),
        ('readonly X={MAIN}; unset X 2>/dev/null; echo hi > "${X-/tmp}/p"', {"WG401"}),
        ("readonly X={MAIN}; X=/tmp 2>/dev/null; echo hi > $X/p", {"WG401"}),
        ('declare -r X={MAIN}; unset X; echo hi > "${X-/tmp}/p"', {"WG401"}),
        ('X={MAIN}; unset -f X; echo hi > "${X-/tmp}/p"', {"WG401"}),
        ('f() { local X; unset X; }; X={MAIN}; f; echo hi > "${X-/tmp}/p"', {"WG403"}),
        ("X=/tmp; X[0]={MAIN}; echo hi > $X/p", {"WG403"}),
        ("X=/t; X+=mp; echo hi > $X/p", "pass"),  # /tmp, followed
        ("X=../..; X+=/..; cd $X; touch p", {"WG201", "WG401"}),
        ("touch() { :; }; unset -f touch; touch {MAIN}/p", {"WG401"}),
        ("bash() { :; }; unset -f bash; bash -c 'touch {MAIN}/p'", {"WG401"}),
        ("unset X; echo hi > out.txt", "pass"),
        ('unset X; echo hi > "${X:-out.txt}"', "pass"),
        ("X=src; unset -f X; cd $X; touch p", "pass"),
        ("X=/tmp; unset -v X; echo hi > ${X-out.txt}", "pass"),
        ("readonly R=src; cd $R; touch p", "pass"),
        ("let n=1+2; echo $n > out.txt", "pass"),
    ],
    "D15 function-local variables": [
        ("X={MAIN}; f() { local X=/tmp; }; f; echo hi > $X/p", {"WG403"}),
        ("X={MAIN}; f() { declare X=/tmp; }; f; echo hi > $X/p", {"WG403"}),
        ("X={MAIN}; f() { typeset X=/tmp; }; f; echo hi > $X/p", {"WG403"}),
        ("X={MAIN}; f() { local X; X=/tmp; }; f; echo hi > $X/p", {"WG403"}),
        ('X=/tmp; f() { local X; echo hi > "${X-{MAIN}}/p"; }; f', {"WG401"}),
        ("X={MAIN}; local X=/tmp; echo hi > $X/p", {"WG401"}),  # `local` outside a function assigns nothing
        ("f() { local X=/tmp; g; }; g() { unset X; echo hi > ${X-/tmp}/p; }; X={MAIN}; f", {"WG403"}),
        ("f() { local d=src; cd $d; }; f; touch p", "pass"),
        ("f() { local out=/tmp/x; echo hi > $out; }; f", "pass"),
        ("f() { declare -g X=/tmp; }; f; echo hi > $X/p", "pass"),
        ("X=src; f() { local Y=/tmp; }; f; cd $X; touch p", "pass"),
        ("f() { local X=/tmp; }; X=/tmp; f; echo hi > $X/p", "pass"),  # unchanged by the call: still known
    ],
    "D16 namerefs": [
        ('declare -n r=d; d=src; r=to-main; cd "$d"; touch p', {"WG202", "WG403"}),
        ('local -n r=d 2>/dev/null; f() { local -n r=d; d=src; r=to-main; cd "$d"; touch p; }; f', {"WG202", "WG403"}),
        ('typeset -n r=d; d=src; r=to-main; cd "$d"; touch p', {"WG202", "WG403"}),
        ('declare -n r; d=src; r=d; r=to-main; cd "$d"; touch p', {"WG202", "WG403"}),
        ('declare -n r=d; d=src; read r <<< to-main; cd "$d"; touch p', {"WG202", "WG403"}),
        ('declare -n r=d; d=/tmp; unset r; echo hi > "${d-{MAIN}}/p"', {"WG403"}),
        ("declare -n r=PWD; d=src; cd $d; touch p", "pass"),
        ('declare -n r=d; e=src; cd "$e"; touch p', "pass"),
    ],
    "D17 DIRSTACK": [
        ("pushd src >/dev/null; DIRSTACK[1]={MAIN}; popd >/dev/null; touch p", {"WG202", "WG403"}),
        ("pushd src >/dev/null; DIRSTACK=({MAIN}); popd >/dev/null; touch p", {"WG202", "WG403"}),
        ("pushd src >/dev/null; read 'DIRSTACK[1]' <<< {MAIN}; popd >/dev/null; touch p", {"WG202", "WG403"}),
        ("pushd src >/dev/null; popd >/dev/null; touch p", "pass"),
    ],
    "D18 computed cd": [
        ("$(printf cd) to-main; touch p", {"WG403", "WG404"}),  # WG404 since stop 25: printf's words are split
        ("CDPATH=../../.. $(printf cd) src && touch p", {"WG403", "WG404"}),
        ("c=cd; $c src; touch p", "pass"),  # a variable known to hold `cd`: followed…
        ("c=cd; $c to-main; touch p", {"WG201", "WG401"}),  # …as the builtin it is
        ("c=pushd; $c to-main; touch p", {"WG201", "WG401"}),
        ("f=g; g() { cd ../../..; }; $f; touch p", {"WG201", "WG401"}),  # …and a variable holding a function's name
        ("$(printf eval) 'cd ..;cd ..;cd ..;touch p'", {"WG404"}),
        ("d=src; $(printf declare) d=..; cd $d; cd $d; cd $d; touch p", {"WG202", "WG403", "WG404"}),
        ("$(printf cd) to-main; touch /tmp/x", {"WG404"}),  # a command word the command built (stop 25)
        ("\"$(printf cd)\" to-main; touch /tmp/x", "pass"),
        ("$CC -O2 -DX=1 main.c; cat a.out > /tmp/o", "pass"),
        ("find src -exec \"$0\" {} +", "pass"),  # find execs a program: never `eval` (NL2Bash)
        ("find src -exec $0 {} +", {"WG403", "WG404"}),  # unquoted: $0 may split into find's options (stop 25)
        ("find src -name '*.txt' -exec \"${2:-file}\" {} \\;", "pass"),
    ],
    "D19 builtins that run code": [
        ("mapfile -c 1 -C 'touch {MAIN}/p' a <<< x", {"WG401", "WG403"}),  # touch also gets the line: unknown
        ("readarray -c 1 -C 'touch {MAIN}/p' a <<< x", {"WG401", "WG403"}),  # touch also gets the line: unknown
        ("mapfile -c1 -C'touch {MAIN}/p' a <<< x", {"WG401", "WG403"}),
        ('mapfile -C "$cb" a <<< x', {"WG404"}),
        ("compgen -C 'touch {MAIN}/p' x", {"WG401"}),
        ("compgen -F 'touch {MAIN}/p' x", {"WG401"}),
        ("compgen -W '$(touch {MAIN}/p)' x", {"WG401"}),
        ("trap -- 'touch {MAIN}/p' EXIT", {"WG401"}),
        ('trap -- "$code" EXIT', {"WG404"}),
        ("hash -p /usr/bin/touch cat; cat {MAIN}/p", {"WG401"}),
        ("hash -p /usr/bin/touch cat; cat README.md", "pass"),
        ("hash -p $T cat; cat {MAIN}/p", {"WG404"}),
        ("hash -p /bin/true cd; cd ../../..; touch p", {"WG201", "WG401"}),  # builtins run before hashed programs
        ("hash -p /usr/bin/touch cat; hash -r; cat {MAIN}/p", "pass"),
        ("mapfile -t a < list.txt", "pass"),
        ("mapfile -t -C 'echo' -c 10 a < list.txt", "pass"),
        ("trap 'rm -f tmp.txt' EXIT", "pass"),
        ("trap -- 'rm -f tmp.txt' EXIT", "pass"),
        ("trap - EXIT", "pass"),
        ("compgen -c git", "pass"),
        ("hash -r; hash", "pass"),
    ],
    "D20 shell code from stdin or a device": [
        ("bash -s x <<< 'touch {MAIN}/p'", {"WG401"}),
        ("sh -s -- a <<< 'touch {MAIN}/p'", {"WG401"}),
        ("bash -s x", {"WG404"}),
        ('gzip -d --stdout file.gz | bash -s -- "-n wordpress localhost"', {"WG404"}),  # NL2Bash: code from the pipe
        ("source //dev/stdin <<< 'touch {MAIN}/p'", {"WG404"}),
        ("bash //dev/stdin <<< 'touch {MAIN}/p'", {"WG404"}),
        (". /./dev/fd/3 3<<< 'touch {MAIN}/p'", {"WG404"}),
        (". /proc/self/fd/0 <<< 'touch {MAIN}/p'", {"WG404"}),
        ("awk -f /dev/stdin <<< 'BEGIN{system(\"touch {MAIN}/p\")}'", {"WG404"}),
        ("awk -f /dev/fd/3 3<<< 'BEGIN{system(\"touch {MAIN}/p\")}'", {"WG404"}),
        ("sed -f /dev/fd/3 README.md 3<<< '1e touch {MAIN}/p'", {"WG404"}),
        ("echo x | sed -f //dev/stdin", {"WG404"}),
        ("bash -s <<< 'echo hi'", "pass"),
        ("bash -s -- a b <<< 'echo \"$1\" > out.txt'", "pass"),
        ("source ./env.sh", "pass"),
        ("d=/tmp; source ./env.sh; echo hi > $d/p", {"WG403"}),  # the script may set d to anything
        ("source ./env.sh; echo hi > /tmp/out", "pass"),
        ("bash script.sh", "pass"),
    ],
}

CASES = [(group, command, expected) for group, rows in ROWS.items() for command, expected in rows]


@pytest.mark.parametrize("group,command,expected", CASES, ids=[f"{g.split()[0]}:{plain_id(c, 50)}" for g, c, _ in CASES])
def test_review10_state(world: Repo, group: str, command: str, expected) -> None:  # noqa: F811
    assert_row(world, command, expected)


def test_a_script_read_at_check_time_is_only_a_regular_file(world: Repo, tmp_path) -> None:  # noqa: F811
    """A FIFO named by `awk -f` is never opened by the guard (opening it would block or read the wrong input)."""
    import os

    fifo = world.worktree / "prog.awk"
    os.mkfifo(fifo)
    verdict = bash(world, "awk -f prog.awk README.md")
    assert verdict.decision == "deny" and {v.code for v in verdict.violations} == {"WG404"}
