"""Issue 10's classes, each in both directions, with the exact codes (SPEC §5.2's new bullets).

The rows run through the engine with the real repository of `tests/test_bash_rules.py` (W a linked worktree
inside the main checkout {MAIN}, a sibling {SIB}); `tests/observe/` runs commands like these for real and
compares what changed with the verdict.
"""

from __future__ import annotations

import pytest

from tests.helpers import Repo, plain_id
from tests.test_bash_rules import assert_row, bash, world  # noqa: F401  (the fixture)

# (command, expected): "pass", or the exact set of error codes.
ROWS: dict[str, list[tuple[str, object]]] = {
    "1 default-deny boundary": [
        ("bzip2 -k {MAIN}/README.md", {"WG401"}),
        ("gzip {MAIN}/README.md", {"WG401"}),
        ("uniq {MAIN}/README.md {MAIN}/u.txt", {"WG401"}),
        ("iconv -f utf-8 -t ascii -o {MAIN}/c.txt README.md", {"WG401"}),
        ("mktemp -p {MAIN}", {"WG401"}),
        ("openssl rand -out {MAIN}/r.bin 16", {"WG401"}),
        ("sqlite3 {MAIN}/db.sqlite 'create table t(x)'", {"WG406"}),  # unknown: it may write its database
        ("sqlite3 ~/.cache/x.db .tables", "pass"),  # …which passes outside the shared checkouts (a real transcript)
        ("zip -q {MAIN}/a.zip README.md", {"WG401"}),
        ("somewriter {MAIN}/README.md", {"WG406"}),
        ("somewriter --output={MAIN}/x", {"WG406"}),
        ("somewriter out={MAIN}/x", {"WG406"}),
        ("somewriter -o{MAIN}/x", {"WG406"}),
        ("python3 -m json.tool {MAIN}/a.json {MAIN}/b.json", {"WG401"}),  # json.tool writes its second operand
        ("make -C {MAIN}", {"WG406"}),
        ("pytest {SIB}/tests", {"WG406"}),
        ("somewriter ../../..", {"WG406"}),  # W's grandparent is the main checkout
        ("cat {MAIN}/README.md", "pass"),
        ("grep -rn x {MAIN}/src", "pass"),
        ("diff {MAIN}/README.md README.md", "pass"),
        ("ls -la {MAIN} {SIB}", "pass"),
        ("wc -l {MAIN}/README.md", "pass"),
        ("stat {MAIN}/README.md", "pass"),
        ("find {MAIN} -name '*.py'", "pass"),
        ("jq . {MAIN}/a.json", "pass"),
        ("gzip -c {MAIN}/README.md > /tmp/r.gz", "pass"),
        ("unzip -l {MAIN}/a.zip", "pass"),
        ("tar -tf {MAIN}/a.tar", "pass"),
        ("cp {MAIN}/README.md copy.md", "pass"),
        ("somewriter README.md /tmp/out /etc/hosts", "pass"),  # outside the shared checkouts unknown programs pass
        ("bzip2 -k README.md", "pass"),
        ("rg --pre cat x {MAIN}", {"WG406"}),  # --pre runs a program on every file: no longer only a reader
        ("yq -i .a=1 {MAIN}/a.yaml", {"WG406"}),
    ],
    "2 wrappers": [
        # xargs hands git words only known at run time: they may be git's own options, so the checkout is unknown
        ("xargs git <<< '-C {MAIN} switch -c x'", {"WG303"}),
        ("echo '-C {MAIN} switch -c x' | xargs git", {"WG303"}),
        ("xargs -a args.txt git", {"WG303"}),
        ("git $(cat args.txt)", {"WG303"}),
        ("busybox sh -c 'git -C {MAIN} switch -c x'", {"WG301"}),
        ("script -qc 'git -C {MAIN} switch -c x' /dev/null", {"WG301"}),
        ("xargs git -C . status <<< '-s'", "pass"),
        ("taskset -c 0 cp a {MAIN}/b", {"WG401"}),
        ("setarch x86_64 touch {MAIN}/x", {"WG401"}),
        ("linux64 touch {MAIN}/x", {"WG401"}),
        ("chrt -o 0 touch {MAIN}/x", {"WG401"}),
        ("ionice -c 3 rm {MAIN}/README.md", {"WG401"}),
        ("prlimit --nofile=256:256 touch {MAIN}/x", {"WG401"}),
        ("strace -f -o /dev/null touch {MAIN}/x", {"WG401"}),
        ("strace -o {MAIN}/trace true", {"WG401"}),
        ("time -o {MAIN}/t ls", {"WG406"}),  # bash's time keyword: `-o` is the command, given a path in main
        ("/usr/bin/time -o {MAIN}/t ls", {"WG401"}),
        ("flock {MAIN}/lock true", {"WG401"}),
        ("flock /tmp/l -c 'touch {MAIN}/x'", {"WG401"}),
        ('flock /tmp/l -c "$CMD"', {"WG404"}),
        ("script -qc 'touch {MAIN}/x' /dev/null", {"WG401"}),
        ("watch -n1 touch {MAIN}/x", {"WG401"}),
        ("su -c 'touch {MAIN}/x'", {"WG401"}),
        ("uv run touch {MAIN}/x", {"WG401"}),
        ("uv run --directory {MAIN} touch x", {"WG201", "WG401"}),  # and uv starts in main: a cd (stop 35)
        ("sudo -D {MAIN} touch x", {"WG201", "WG401"}),
        ("unshare -U touch {MAIN}/x", {"WG401"}),
        ("unshare -R /srv ls", {"WG404"}),
        ("chroot /srv ls", {"WG404"}),
        ("unknownwrapper touch {MAIN}/x", {"WG406"}),  # an unknown wrapper: its operands are the boundary's
        ("taskset -c 0 cp a b", "pass"),
        ("setarch x86_64 touch x", "pass"),
        ("flock /tmp/l touch x", "pass"),
        ("sudo -D {MAIN} ls", {"WG201"}),  # sudo -D is a cd into main (stop 35: `sudo -D <main> make` built there)
        ("chroot / ls", "pass"),
        ("uv run pytest -q", "pass"),
    ],
    "3 git code strings": [
        ("git -c core.pager='touch {MAIN}/p' log", {"WG401"}),
        ("git -c core.editor='touch {MAIN}/e' commit", {"WG401"}),
        ("git -c sequence.editor='touch {MAIN}/e' rebase -i HEAD~1", {"WG401", "WG404"}),  # WG404: the todo list it writes runs (review 22)
        ("git -c diff.external='touch {MAIN}/d' diff", {"WG401", "WG403"}),  # WG403: git adds its own arguments (files in W)
        ("git -c diff.x.textconv='touch {MAIN}/d' diff", {"WG401", "WG403"}),  # WG403: git adds its own arguments (files in W)
        ("git -c filter.x.clean='touch {MAIN}/f' add .", {"WG401"}),
        ("git -c credential.helper='!touch {MAIN}/c' fetch", {"WG401"}),
        ("git -c core.sshCommand='touch {MAIN}/s' fetch", {"WG401", "WG403"}),  # WG403: git adds its own arguments (files in W)
        ("git -c core.fsmonitor='touch {MAIN}/m' status", {"WG401"}),
        ("git -c alias.x='!touch {MAIN}/a' x", {"WG305", "WG401"}),
        ("GIT_EDITOR='touch {MAIN}/e' git commit", {"WG401"}),
        ("GIT_SEQUENCE_EDITOR='touch {MAIN}/e' git rebase -i HEAD~1", {"WG401", "WG404"}),  # WG404: the todo list it writes runs (review 22)
        ("GIT_EXTERNAL_DIFF='touch {MAIN}/d' git diff", {"WG401", "WG403"}),  # WG403: git adds its own arguments (files in W)
        ("GIT_SSH_COMMAND='touch {MAIN}/s' git fetch", {"WG401", "WG403"}),  # WG403: git adds its own arguments (files in W)
        ("GIT_PAGER='touch {MAIN}/p' git log", {"WG401"}),
        ("export GIT_PAGER='touch {MAIN}/p'; git log", {"WG401"}),
        ("GIT_CONFIG_PARAMETERS=\"'core.pager=touch {MAIN}/p'\" git log", {"WG401"}),
        ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='touch {MAIN}/p' git log", {"WG401"}),
        ("git rebase -x 'touch {MAIN}/r' HEAD~1", {"WG401"}),
        ("git rebase --exec='touch {MAIN}/r' HEAD~1", {"WG401"}),
        ("git bisect run touch {MAIN}/b", {"WG401"}),
        ("git filter-branch --tree-filter 'touch {MAIN}/f' HEAD", {"WG401"}),
        ("git difftool -x 'touch {MAIN}/d' HEAD~1", {"WG401", "WG403"}),  # WG403: git adds its own arguments (files in W)
        ("git grep --open-files-in-pager='touch {MAIN}/g' x", {"WG401", "WG403"}),  # WG403: the matching files follow
        ("git submodule foreach 'touch {MAIN}/s'", {"WG401"}),
        ("git -c include.path=/tmp/x.cfg status", {"WG404"}),
        ("git -c includeIf.onbranch:main.path=/tmp/x.cfg status", {"WG404"}),
        ("GIT_CONFIG_GLOBAL=/tmp/g.cfg git status", {"WG404"}),
        ("GIT_CONFIG=/tmp/g.cfg git status", {"WG404"}),
        ("mkdir -p /tmp/h && echo '[alias] q = !x' > /tmp/h/.gitconfig && HOME=/tmp/h git q", {"WG404"}),
        ('GIT_EDITOR="$ED" git commit', {"WG404"}),
        ("git rebase -x 'make test' HEAD~3", "pass"),
        ("GIT_EDITOR=true git commit --allow-empty", "pass"),
        ("git -c core.pager=cat log", "pass"),
        ("git -c core.fsmonitor=false status", "pass"),
        ("GIT_CONFIG_GLOBAL=/dev/null git status", "pass"),
        ("HOME=/tmp/h git status", "pass"),  # a HOME whose config the command did not write: its environment
        ("git bisect run pytest -x", "pass"),
    ],
    "4 git outputs": [
        ("GIT_INDEX_FILE={MAIN}/.git/index git add README.md", {"WG401"}),
        ("GIT_OBJECT_DIRECTORY={MAIN}/objs git hash-object -w README.md", {"WG401"}),
        ("GIT_TRACE={MAIN}/trace git status", {"WG401"}),
        ("git log -p --output={MAIN}/x.patch", {"WG401"}),
        ("git diff --output {MAIN}/x.patch", {"WG401"}),
        ("git -C {MAIN} format-patch -1", {"WG401"}),
        ("git format-patch -1 -o {MAIN}/p", {"WG401"}),
        ("git checkout-index -a --prefix={MAIN}/export/", {"WG401"}),
        ("git apply --directory=../../.. x.diff", {"WG401"}),
        ("git merge-file {MAIN}/README.md base other", {"WG401"}),
        ("git bundle create {MAIN}/b HEAD", {"WG401"}),
        ("git archive -o {MAIN}/a.tar HEAD", {"WG401"}),
        ("git format-patch -1", "pass"),
        ("git -C {MAIN} format-patch -1 --stdout > p.patch", "pass"),
        ("git log -p --output=x.patch", "pass"),
        ("GIT_INDEX_FILE=/tmp/idx git add README.md", "pass"),
        ("GIT_TRACE=1 git status", "pass"),
        ("git merge-file -p {MAIN}/README.md base other > merged", "pass"),
    ],
    "5 config and refs": [
        ("git remote add up /tmp/up.git", {"WG305"}),
        ("git remote set-url origin /tmp/x.git", {"WG305"}),
        ("git branch --set-upstream-to=origin/main", {"WG305"}),
        ("git branch -u origin/main", {"WG305"}),
        ("git maintenance register", {"WG305"}),
        ("git sparse-checkout set src", {"WG305"}),
        ("git notes add -m x", {"WG305"}),
        ("git replace HEAD HEAD~1", {"WG305"}),
        ("git symbolic-ref HEAD refs/heads/main", {"WG305"}),
        ("git symbolic-ref refs/heads/main refs/heads/feature", {"WG305"}),
        ("git remote -v", "pass"),
        ("git notes list", "pass"),
        ("git replace -l", "pass"),
        ("git symbolic-ref HEAD", "pass"),
        ("git symbolic-ref HEAD refs/heads/mine", "pass"),
        ("git branch topic", "pass"),
    ],
    "6 program code": [
        ("sed 'w {MAIN}/x' README.md", {"WG401"}),
        ("sed -n '/a/W {MAIN}/x' README.md", {"WG401"}),
        ("sed 's/a/b/w {MAIN}/x' README.md", {"WG401"}),
        ("sed -e 's/a/b/' -e 'w {MAIN}/x' README.md", {"WG401"}),
        ("sed '1e touch {MAIN}/x' README.md", {"WG401"}),
        ("sed 's/a/b/e' README.md", {"WG404"}),
        ("sed 'e' README.md", {"WG404"}),
        ("awk '{print > \"{MAIN}/x\"}' README.md", {"WG401"}),
        ("awk '{print $1 >> \"{MAIN}/x\"}' README.md", {"WG401"}),
        ("awk '{printf \"%s\", $0 > \"{MAIN}/x\"}' README.md", {"WG401"}),
        ("awk 'BEGIN{system(\"touch {MAIN}/x\")}'", {"WG401"}),
        ("awk '{print | \"tee {MAIN}/x\"}' README.md", {"WG401"}),
        ("awk 'BEGIN{\"touch {MAIN}/x\" | getline}'", {"WG401"}),
        ("awk '{system($0)}' README.md", {"WG404"}),
        ("awk '{print > $2}' README.md", {"WG403"}),
        ("tar -xf a.tar --to-command='tee {MAIN}/x'", {"WG401"}),
        ("tar -cf /tmp/t.tar --checkpoint=1 --checkpoint-action=exec='touch {MAIN}/x' .", {"WG401"}),
        ("tar -I 'touch {MAIN}/x; gzip' -cf /tmp/t.tgz .", {"WG401"}),
        ("zip -T -TT 'touch {MAIN}/x' /tmp/z.zip README.md", {"WG401"}),
        ("rsync -e 'touch {MAIN}/x' a host:b", {"WG401"}),
        ("ssh -o ProxyCommand='touch {MAIN}/x' host", {"WG401"}),
        ("vim -c 'w! {MAIN}/x' README.md", {"WG404"}),
        ("vim.tiny -es -c 'w! {MAIN}/x' -c q README.md", {"WG404"}),  # Debian's vi
        ("vim.basic -c 'w! {MAIN}/x' README.md", {"WG404"}),
        ("original-awk 'BEGIN{print 1 > \"{MAIN}/x\"}'", {"WG401"}),
        ("goawk 'BEGIN{print 1 > \"{MAIN}/x\"}'", {"WG401"}),
        ("goawk 'BEGIN{print 1 > \"x\"}'", "pass"),
        ("rview -c 'w! {MAIN}/x' README.md", {"WG404"}),
        ("nvi -c 'w! {MAIN}/x' README.md", {"WG404"}),
        ("onetrue-awk 'BEGIN{print 1 > \"{MAIN}/x\"}'", {"WG401"}),
        ("vim.tiny README.md", "pass"),  # the family's code is read; without any there is nothing to refuse
        ("original-awk '{print}' README.md", "pass"),  # code that writes nothing, on a file in W
        ("goawk '{print}' {MAIN}/README.md", "pass"),  # reads the main checkout, as gawk may (was WG406)
        ("busybox-awk -F: '{print $1}' {MAIN}/README.md", "pass"),
        ("original-awk -i inplace '{print}' {MAIN}/README.md", {"WG401", "WG406"}),  # gawk's in-place option: a write (WG401: stop 31 reads the inplace library's writes)
        ("vim +'w {MAIN}/x' README.md", {"WG404"}),
        ("ex -s README.md <<'EOF'\nw! {MAIN}/x\nq\nEOF", {"WG401"}),
        ("ed -s README.md <<'EOF'\nw {MAIN}/x\nq\nEOF", {"WG401"}),
        ("ed -s README.md <<< 'w {MAIN}/x'", {"WG401"}),
        ("ed -s README.md <<'EOF'\n!touch {MAIN}/x\nq\nEOF", {"WG401"}),
        ("ed -s README.md <<< $'w {MAIN}/x\\nq'", {"WG401"}),  # $'…' is decoded (review 39e O4): the script writes main
        ("printf 'w x\\n' | ed -s README.md", {"WG404"}),
        ("sed -n '1,5p' README.md", "pass"),
        ("sed -i 's/a/b/;s/c/d/g' README.md", "pass"),
        ("sed -n '/x/w out.txt' README.md", "pass"),
        ("sed -e :a -e '$!N;s/\\n//;ta' README.md", "pass"),
        ("sed 's/hello/bye/w /dev/stdout' README.md", "pass"),
        ("awk '{print $1}' README.md", "pass"),
        ("awk '$3 > 5 {print $1}' README.md", "pass"),
        ("awk '{if ($1 > 2) print $0 > \"out.txt\"}' README.md", "pass"),
        ("awk -F, 'NR>1{s+=$2} END{print s / NR}' data.csv", "pass"),
        ("awk 'BEGIN{system(\"date\")}'", "pass"),
        ("tar -xf a.tar --to-command=cat", "pass"),
        ("vim +10 README.md", "pass"),
        ("ed -s README.md <<'EOF'\n1d\nw\nq\nEOF", "pass"),
        ("ed -s README.md <<'EOF'\n1a\nw {MAIN}/x is text here\n.\nw\nq\nEOF", "pass"),
    ],
    "7 links": [
        ("ln {MAIN}/README.md f && echo x >> f", {"WG401"}),
        ("ln {MAIN}/README.md", {"WG401"}),
        ("link {MAIN}/README.md f", {"WG401"}),
        ("cp -l {MAIN}/README.md f", {"WG401"}),
        ("cp -al {MAIN}/src s", {"WG401"}),
        ("cp --link {MAIN}/README.md f", {"WG401"}),
        ("cp -s {MAIN}/README.md f", {"WG401"}),
        ("ln -t . {MAIN}/README.md", {"WG401"}),
        ("ln -s {MAIN}/README.md f", {"WG401"}),
        ("ln README.md f && echo x >> f", "pass"),
        ("cp -l README.md f", "pass"),
        ("cp -s README.md f", "pass"),
        ("cp {MAIN}/README.md f && echo x >> f", "pass"),
        ("ln -s /tmp/x f", "pass"),
    ],
    "8 shell options": [
        ("shopt -s cdable_vars; m={MAIN}; cd m", {"WG202"}),
        ("shopt -s autocd; cd src", {"WG202"}),
        ("shopt -s dotglob; rm -rf *", {"WG403"}),
        ("shopt -s nullglob; for f in *; do rm -rf \"$f\"; done", {"WG403"}),
        ("shopt -s globstar; rm -f **/x", {"WG403"}),
        ("shopt -u globskipdots; rm -rf .*", {"WG403"}),
        ("set -f; rm -f *.txt", {"WG403"}),
        ("shopt -s expand_aliases; ls && cp a {MAIN}/b", {"WG404"}),
        ("set -k; cp a {MAIN}/b", {"WG404"}),
        ("shopt -s $opt; cd src", {"WG404"}),  # any option may be set, expand_aliases too: `cd` may be an alias
        ("set -e; cd src && touch x", "pass"),
        ("set -euo pipefail; rm -rf build", "pass"),
        ("shopt -s nullglob; echo *.py", "pass"),
        ("shopt -s lastpipe; ls | read x", "pass"),
        ("rm -rf *.egg-info", "pass"),
    ],
    "static words": [
        ("touch {a,b}.txt", "pass"),
        ("mkdir -p build/{x,y}/out", "pass"),
        ("cp README.md{,.bak}", "pass"),
        ("touch {{MAIN}/x,y}", {"WG401"}),
        ("touch {1..3}.log", "pass"),
        ("touch '{a,b}'", "pass"),
        ("echo x > \"$PWD/f\"", "pass"),
        ("echo x > $(pwd)/f", "pass"),
        ("echo x > \"`pwd`/f\"", "pass"),
        ("cd src && echo x > $(pwd)/f", "pass"),
        ("cd {MAIN} ; echo x > $(pwd)/f", {"WG201", "WG401"}),
        ("d=$(mktemp -d) && cd \"$d\" && touch f", "pass"),
        ("f=$(mktemp) && echo x > \"$f\"", "pass"),
        ("echo x > $(mktemp -p {MAIN})", {"WG401", "WG403"}),  # the -p mktemp writes main; its output is unknown
        ("echo x > ${TMPDIR:-/tmp}/f", "pass"),
        ("echo x > \"${TMPDIR:-/tmp}/f\"", "pass"),
        ("TMPDIR={MAIN}; echo x > ${TMPDIR:-/tmp}/f", {"WG401"}),
        ("unset HOMEDIR; echo x > ${HOMEDIR:-/tmp}/f", "pass"),
        ("echo x > ${UNKNOWNVAR:-/tmp}/f", {"WG403"}),
        ("ls | xargs -I{} cp {} {MAIN}/src/{}", {"WG401", "WG403"}),  # WG403: xargs' input may be an option (stop 30)
        ("ls | xargs -I% cp % {MAIN}/%", {"WG401", "WG403"}),
        ("ls | xargs -I{} cp ./{} {MAIN}/src/{}", {"WG401"}),
        ("echo x > {MAIN}/$name", {"WG401"}),
        ("ls | xargs -I{} cp {} out/{}", {"WG403"}),
    ],
}

CASES = [(group, command, expected) for group, rows in ROWS.items() for command, expected in rows]


@pytest.mark.parametrize("group,command,expected", CASES, ids=[f"{g[:2].strip()}:{plain_id(c, 45)}" for g, c, _ in CASES])
def test_boundary_catalogue(world: Repo, group: str, command: str, expected) -> None:  # noqa: F811
    assert_row(world, command, expected)


def test_a_dynamic_target_in_a_shared_checkout_suggests_the_same_directory_in_w(world: Repo) -> None:  # noqa: F811
    (violation,) = bash(world, "ls | xargs -I{} cp ./{} {MAIN}/src/{}").violations
    assert violation.code == "WG401"
    assert violation.suggestion == str(world.worktree / "src")
    assert violation.shared_root == str(world.main)


def test_wg406_names_the_program_and_suggests_the_copy_in_w(world: Repo) -> None:  # noqa: F811
    (violation,) = bash(world, "somewriter {MAIN}/README.md").violations
    assert violation.code == "WG406" and violation.rule == "writes"
    assert "`somewriter`" in violation.message
    assert violation.suggestion == str(world.worktree / "README.md")
