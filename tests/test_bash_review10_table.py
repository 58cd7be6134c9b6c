"""The review of issue 10's merged change, table side (C9–C12, D21–D23): outputs the write table's rows missed,
extraction through symlinks, find's start points, `ln -sr`, attached option values, programs that run code, and
programs named by a path outside the system's bin directories. Each row in both directions, with exact codes.

W is a linked worktree inside the main checkout {MAIN} (`../../..` from W), holding symlinks `to-main` → {MAIN}
and `to-ssl` → /etc/ssl (the `world` fixture of tests/test_bash_rules.py).
"""

from __future__ import annotations

import pytest

from tests.helpers import Repo
from tests.test_bash_rules import assert_row, bash, world  # noqa: F401  (the fixture)

ROWS: dict[str, list[tuple[str, object]]] = {
    "C9 outputs the rows missed": [
        ("tar -cf /tmp/x.tar --remove-files ../../../README.md", {"WG401"}),
        ("tar -C ../../.. -cf /tmp/x.tar --remove-files README.md", {"WG401"}),
        ("tar --remove-files -cf /tmp/x.tar -T list.txt", {"WG403"}),
        ("tar -cf /tmp/x.tar --index-file={MAIN}/idx ./src", {"WG401"}),
        ("tar -cf /tmp/x.tar ../../../README.md", "pass"),  # archiving reads
        ("sed -i'../../../*' s/x/y/ README.md", {"WG401"}),
        ("sed --in-place='../../../*' s/x/y/ README.md", {"WG401"}),
        ("sed -i'bak/*' s/x/y/ README.md", "pass"),
        ("sed -i.bak s/x/y/ README.md", "pass"),
        ("perl -pi'../../../*' -e 's/x/y/' README.md", {"WG401"}),
        ("perl -pi.orig -e 's/x/y/' README.md", "pass"),
        ("patch -s -b -B ../../../ README.md p.diff", {"WG401"}),
        ("patch -s --prefix=../../../ README.md p.diff", {"WG401"}),
        ("patch -r {MAIN}/rej README.md p.diff", {"WG401"}),
        ("patch -b -B bak/ README.md p.diff", "pass"),
        ("wget -q -o {MAIN}/log http://127.0.0.1/x", {"WG401"}),
        ("wget -q -a {MAIN}/log http://127.0.0.1/x", {"WG401"}),
        ("wget -q --no-such-option {MAIN}/log http://127.0.0.1/x", {"WG406"}),  # a URL that is a path: not read
        ("wget -O /tmp/f http://127.0.0.1/x", "pass"),
        ("wget -q -o /tmp/log -O /tmp/f http://127.0.0.1/x", "pass"),
        ("curl -s --stderr {MAIN}/x http://127.0.0.1/", {"WG401"}),
        ("curl --libcurl {MAIN}/x http://127.0.0.1/", {"WG401"}),
        ("curl --etag-save={MAIN}/x http://127.0.0.1/", {"WG401"}),
        ("curl --some-new-output={MAIN}/x http://127.0.0.1/", {"WG406"}),  # an option the row does not name
        ("curl --some-new-output {MAIN}/x http://127.0.0.1/", {"WG406"}),
        ("curl -s -o /tmp/x http://127.0.0.1/", "pass"),
        ("curl -s --data @{MAIN}/README.md http://127.0.0.1/", "pass"),  # -d reads
        ("openssl rand -writerand {MAIN}/x 1", {"WG401"}),
        ("openssl req -new -key k.pem -out {MAIN}/r.csr", {"WG401"}),
        ("openssl foo -brandnewout {MAIN}/x", {"WG406"}),  # an option openssl's row does not name
        ("openssl x509 -in {MAIN}/cert.pem -noout -text", "pass"),
        ("openssl rand -out /tmp/r 16", "pass"),
        ("sort -o /tmp/s --no-such={MAIN}/x README.md", {"WG406"}),  # an attached value of an undeclared option
        ("sort -o /tmp/s {MAIN}/README.md", "pass"),
        ("zip -q /tmp/x.zip {MAIN}/README.md", "pass"),  # zip reads what it archives…
        ("zip -qr /tmp/src.zip {MAIN}/src", "pass"),
        ("zip -q {MAIN}/a.zip README.md", {"WG401"}),  # …and writes its archive
        ("zip -qm /tmp/x.zip {MAIN}/README.md", {"WG401"}),  # -m deletes what it archived
        ("zip -q -O {MAIN}/o.zip /tmp/x.zip README.md", {"WG401"}),
        ("python3 -m json.tool {MAIN}/config.json", "pass"),  # one operand: read
        ("python3 -m json.tool --indent 2 {MAIN}/config.json /tmp/out.json", "pass"),
        ("python3 -m json.tool config.json {MAIN}/out.json", {"WG401"}),
        ("python3 {MAIN}/script.py", {"WG406"}),  # a program the guard does not read
        ("python3 -m mymod {MAIN}/x", {"WG406"}),
    ],
    "C10 extraction through symlinks": [
        ("tar -xf /tmp/t.tar", {"WG403"}),  # W holds to-main → {MAIN}: a member `to-main/x` lands in {MAIN}
        ("unzip -qo /tmp/z.zip", {"WG403"}),
        ("tar -xf /tmp/t.tar -C src", "pass"),  # no symlink below src
        ("unzip -qo /tmp/z.zip -d src", "pass"),
        ("mkdir -p out && tar -xzf /tmp/t.tgz -C out", "pass"),
        ("tar -xPf /tmp/t.tar -C src", {"WG403"}),
        ("tar --absolute-names -xf /tmp/t.tar -C src", {"WG403"}),
        ("tar -xf /tmp/t.tar -C src --transform='s,^,../../../../,'", {"WG403"}),
        ("tar -xf /tmp/t.tar -C src --xform 's,^,x,'", {"WG403"}),
        ("unzip -: /tmp/z.zip -d src", {"WG403"}),
        ("tar -cPf /tmp/t.tar src", "pass"),  # -P when creating only keeps names
        ("tar -tf /tmp/t.tar", "pass"),
        ("unzip -l /tmp/z.zip", "pass"),
    ],
    "C11 find's start points": [
        ("find -P ../../.. -maxdepth 1 -name README.md -delete", {"WG401"}),
        ("find -O3 ../../.. -maxdepth 1 -name README.md -exec rm {} \\;", {"WG403"}),  # found paths outside W: unknown
        ("find -D tree ../../.. -maxdepth 1 -name README.md -delete", {"WG401"}),
        ("find -H -L ../../.. -name README.md -delete", {"WG401"}),
        ("printf '%s\\0' ../../../README.md > /tmp/l && find -files0-from /tmp/l -delete", {"WG403"}),
        ("find -files0-from /tmp/l -exec rm {} \\;", {"WG403"}),
        ("find ../.. -name x", "pass"),
        ("find -P ../../.. -name '*.md'", "pass"),
        ("find -O2 src -name '*.pyc' -delete", "pass"),
        ("find -files0-from /tmp/l -name x", "pass"),
    ],
    "C12 ln -sr": [
        ("mkdir -p a/b/c/d && ln -sr ../../../README.md a/b/c/d/lnk && echo pwn > a/b/c/d/lnk", {"WG401"}),
        ("ln -s --relative ../../../README.md a/lnk", {"WG401"}),
        ("ln -sr src/x a/b/lnk", "pass"),
        ("ln -s target lnk", "pass"),
    ],
    "D21 attached option values": [
        ("gcc -x c - -o../../../pwnU <<< 'int main(){}'", {"WG406"}),
        ("cc -o../../../pwnU x.c", {"WG406"}),
        ("gcc -o out x.c", "pass"),
        ("gcc -o./out -I./include x.c", "pass"),
        ("gcc -I../../../src x.c", {"WG406"}),  # an attached path into {MAIN}: not known to be only read
    ],
    "D22 programs that run code": [
        ("setpriv sh -c 'cd ../../.. && touch p'", {"WG201", "WG401"}),
        ("setpriv --reuid=1000 touch {MAIN}/p", {"WG401"}),
        ("sg nogroup -c 'cd ../../.. && touch p'", {"WG201", "WG401"}),
        ("sg nogroup 'touch {MAIN}/p'", {"WG401"}),
        ("ssh-agent sh -c 'cd ../../.. && touch p'", {"WG201", "WG401"}),
        ("ssh-agent -a {MAIN}/sock sleep 1", {"WG401"}),
        ("setpriv --reuid=1000 ls", "pass"),
        ("ssh-agent -s", "pass"),
        ("tmux new-session -d 'cd ../../.. && touch p'", {"WG201", "WG401"}),  # walked where tmux runs it
        ("tmux new -d -c ../../.. 'touch p'", {"WG201", "WG401", "WG406"}),  # and tmux, unknown, is given {MAIN}
        ('tmux new -d "touch $X"', {"WG404"}),
        ("tmux new-session -s vims -n vim0 -d 'vim foo'", "pass"),
        ("tmux send-keys -t x 'touch p' Enter", {"WG404"}),
        ("tmux ls", "pass"),
        ("tmux new-session -ds cf", "pass"),  # starts the user's shell: no command given (an NL2Bash row)
        ("tmux new -d -s x -c src", "pass"),
        ("tmux -c 'touch {MAIN}/p'", {"WG404"}),
        ("tmux new-window -t vims -d -n win0 'touch {MAIN}/p'", {"WG202", "WG401"}),
        ("tmux new-window -d 'touch p'", {"WG202", "WG403"}),  # a new window starts in the session's directory: unknown
        ('tmux -2 new-session -s name "script.sh $1"', {"WG404"}),
        ("gdb -batch -ex 'shell cd ../../.. && touch p'", {"WG404"}),
        ("gdb -batch --eval-command='shell touch p' ./a.out", {"WG404"}),
        ("gdb --version", "pass"),
        ("sqlite3 :memory: '.shell cd ../../.. && touch p'", {"WG404"}),
        ("sqlite3 :memory: \"vacuum into '../../../p'\"", {"WG404", "WG406"}),
        ("sqlite3 /tmp/x.db 'select 1'", "pass"),
        ("make -f /dev/stdin <<< $'all:\\n\\ttouch {MAIN}/p'", {"WG404"}),
        ("make -f - <<< x", {"WG404"}),
        ("make --eval='all:;touch x'", {"WG404"}),
        ("make -f Makefile test", "pass"),
        ("make test", "pass"),
        ("LESSOPEN='|touch {MAIN}/p %s' less README.md", {"WG401"}),  # walked where less runs it
        ("export LESSCLOSE='touch {MAIN}/p %s %s'; less README.md", {"WG401"}),
        ('LESSOPEN="$X" less README.md', {"WG404"}),
        ("LESSOPEN='| lesspipe %s' less README.md", "pass"),
        ("less README.md", "pass"),
        ("man -P 'touch {MAIN}/p' ls", {"WG401"}),
        ("MANPAGER='touch {MAIN}/p' man ls", {"WG401"}),
        ("man -P cat ls", "pass"),
        ("MANPAGER=cat man ls", "pass"),
        # man-db reads options from MANOPT first (phase 14 of shell/runners: `MANOPT=-Psh man -l p.txt` ran sh)
        ("MANOPT=-Psh man -l p.txt", {"WG404"}),
        ("export MANOPT='-P sh'; man ls", {"WG404"}),
        ("tar -xsf /tmp/t.tar -C src", "pass"),  # GNU tar's -s is --same-order
        ("zip -T /tmp/x.zip {MAIN}/README.md", "pass"),
        ("ptx -G README.md ../../../p", {"WG401"}),
        ("ptx -G README.md /tmp/p", "pass"),
        ("ptx README.md {MAIN}/README.md", "pass"),  # without -G every operand is read
        ("fd -x sh -c 'cd ../../.. && touch p'", {"WG201", "WG401"}),  # the argv fd runs is walked
        ("fd -x touch {MAIN}/p", {"WG401", "WG403"}),  # and the found path touch is given
        ("fdfind . src -X rm", {"WG403"}),  # rm of the found paths: only known at run time
        ("fd -e py . src -x rm {}", {"WG403"}),
        ("fd -e py . src", "pass"),
        ("fd --type f --exec cat {}", "pass"),  # Dippy's read-only rows
        ("fd pattern -x cat", "pass"),
        ("fd -x echo", "pass"),
        ("sqlite3 -cmd 'SELECT 1' mydb.db", "pass"),
        ("sqlite3 -cmd '.shell touch p' mydb.db", {"WG404"}),
        ("tar -xOf /tmp/t.tar", "pass"),  # members to standard output
        ("xmllint --output {MAIN}/x.xml README.md", {"WG401"}),
        ("xmllint --noout {MAIN}/x.xml", "pass"),
        ("tidy -m {MAIN}/index.html", {"WG401"}),
        ("tidy -q -o {MAIN}/out.html index.html", {"WG401"}),
        ("tidy -q -e {MAIN}/index.html", "pass"),
        ("pdftotext {MAIN}/x.pdf", {"WG401"}),  # writes {MAIN}/x.txt
        ("pdftotext x.pdf {MAIN}/x.txt", {"WG401"}),
        ("pdftotext {MAIN}/x.pdf /tmp/x.txt", "pass"),
        ("pnpm exec -C ../../.. touch p", {"WG201", "WG401"}),
        ("pnpm exec -C src touch p", "pass"),
    ],
    "D23 programs named by a path": [
        ("cp /usr/bin/touch /tmp/head && /tmp/head {MAIN}/p", {"WG406"}),
        ("/tmp/head {MAIN}/p", {"WG406"}),
        ("/tmp/nohup {MAIN}/p", {"WG406"}),  # a copy named like a wrapper is not unwrapped as one
        ("./bin/cat ../../../README.md", {"WG406"}),
        ("/usr/bin/head {MAIN}/README.md", "pass"),
        ("/bin/cat {MAIN}/README.md", "pass"),
        ("./node_modules/.bin/eslint src", "pass"),
        (".venv/bin/pytest -q tests", "pass"),
        ("/tmp/tool README.md /tmp/out", "pass"),
    ],
}


@pytest.mark.parametrize(("group", "command", "expected"), [(g, c, e) for g, rows in ROWS.items() for c, e in rows])
def test_review10_table(world: Repo, group: str, command: str, expected) -> None:  # noqa: F811
    assert_row(world, command, expected)


def test_extraction_names_the_link_that_leaves_w(world: Repo) -> None:  # noqa: F811
    (violation,) = bash(world, "tar -xf /tmp/t.tar").violations
    assert violation.code == "WG403" and violation.rule == "writes"
    assert str(world.worktree / "to-") in violation.message


def test_extraction_into_a_subdirectory_with_an_escaping_link_is_refused(world: Repo) -> None:  # noqa: F811
    (world.worktree / "src" / "up").symlink_to(world.main)
    verdict = bash(world, "tar -xf /tmp/t.tar -C src")
    assert {v.code for v in verdict.violations} == {"WG403"}
    (world.worktree / "src" / "up").unlink()
    (world.worktree / "src" / "in").symlink_to(world.worktree / "README.md")
    assert bash(world, "tar -xf /tmp/t.tar -C src").decision == "pass"  # a link that stays in W
