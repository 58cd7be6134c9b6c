"""Candidates for the execute-and-observe harness, per class of issue 10, in both directions.

Three sources: hand-written rows for each class (the issue's mechanisms, aimed at the main checkout `{MAIN}`,
and their ordinary counterparts inside W); the tldr-pages examples of every program installed here whose
placeholders name files (`{{path/to/file}}` → a file of the main checkout, and again → the same file in W);
and NL2Bash's one-liners whose programs are installed (as written, run in W, and with their first relative
path moved into the main checkout). The default run takes a fixed, bounded sample of the generated ones;
`full=True` (WG_OBSERVE_FULL=1) takes all of them.
"""

from __future__ import annotations

import csv
import hashlib
import re
import shutil
from pathlib import Path

from tests.observe.harness import Candidate

#: Generated candidates per source in the default (bounded) run.
SAMPLE = {"tldr": 150, "nl2bash": 120}

A, O = False, True  # attack (aims at a shared checkout), ordinary work

HAND: list[tuple[str, str, bool]] = [
    # 1. writers missing from the table (default-deny boundary)
    ("1-writers", "bzip2 -k {MAIN}/data.csv", A),
    ("1-writers", "gzip -k {MAIN}/notes.txt", A),
    ("1-writers", "xz -k {MAIN}/README.md", A),
    ("1-writers", "sort -o {MAIN}/sorted.txt {MAIN}/data.csv", A),
    ("1-writers", "uniq {MAIN}/data.csv {MAIN}/uniq.txt", A),
    ("1-writers", "iconv -f utf-8 -t ascii -o {MAIN}/conv.txt README.md", A),
    ("1-writers", "mktemp -p {MAIN}", A),
    ("1-writers", "mktemp {MAIN}/tmp.XXXXXX", A),
    ("1-writers", "openssl rand -out {MAIN}/rand.bin 16", A),
    ("1-writers", "sqlite3 {MAIN}/db.sqlite 'create table t(x)'", A),
    ("1-writers", "zip -q {MAIN}/new.zip README.md", A),
    ("1-writers", "xxd README.md {MAIN}/hex.txt", A),
    ("1-writers", "csplit -f {MAIN}/part README.md 2", A),
    ("1-writers", "shuf -o {MAIN}/shuf.txt README.md", A),
    ("1-writers", "split -l 1 README.md {MAIN}/split-", A),
    ("1-writers", "cp -r src {MAIN}/src2", A),
    ("1-writers", "install -m 644 README.md {MAIN}/inst.md", A),
    ("1-writers", "dd if=README.md of={MAIN}/dd.txt status=none", A),
    ("1-writers", "truncate -s 0 {MAIN}/notes.txt", A),
    ("1-writers", "touch -d 2020-01-01 {MAIN}/README.md", A),
    ("1-writers", "chmod 600 {MAIN}/README.md", A),
    ("1-writers", "tar -xf archive.tar -C {MAIN}/src", A),
    ("1-writers", "unzip -o -q archive.zip -d {MAIN}/src", A),
    ("1-writers", "patch -d {MAIN} -p1 -i {W}/change.diff", A),
    ("1-writers", "perl -i -pe 's/hello/bye/' {MAIN}/README.md", A),
    ("1-writers", "python3 -m json.tool {MAIN}/config.json {MAIN}/pretty.json", A),
    ("1-writers", "make -C {MAIN} -f /dev/null", A),
    ("1-writers", "gzip -c {MAIN}/README.md > /tmp/r.gz", O),
    ("1-writers", "bzip2 -k data.csv", O),
    ("1-writers", "sort -o sorted.txt data.csv", O),
    ("1-writers", "uniq data.csv uniq.txt", O),
    ("1-writers", "iconv -f utf-8 -t ascii -o conv.txt README.md", O),
    ("1-writers", "mktemp -p /tmp", O),
    ("1-writers", "openssl rand -out rand.bin 16", O),
    ("1-writers", "sqlite3 db.sqlite 'create table t(x)'", O),
    ("1-writers", "zip -q new.zip README.md", O),
    ("1-writers", "xxd README.md hex.txt", O),
    ("1-writers", "tar -xf {MAIN}/archive.tar -C /tmp", O),
    ("1-writers", "cp {MAIN}/README.md copy.md", O),
    ("1-writers", "unzip -l {MAIN}/archive.zip", O),
    ("reads", "cat {MAIN}/README.md", O),
    ("reads", "head -n1 {MAIN}/data.csv && tail -n1 {MAIN}/data.csv", O),
    ("reads", "grep -rn hello {MAIN}/src {MAIN}/README.md", O),
    ("reads", "wc -l {MAIN}/README.md", O),
    ("reads", "diff {MAIN}/README.md README.md", O),
    ("reads", "ls -la {MAIN} {SIB}", O),
    ("reads", "stat {MAIN}/README.md", O),
    ("reads", "find {MAIN}/src -name '*.py'", O),
    ("reads", "git -C {MAIN} log --oneline -3", O),
    ("reads", "git -C {MAIN} status --short", O),
    ("reads", "git -C {MAIN} diff HEAD~1", O),
    ("reads", "md5sum {MAIN}/README.md && sha256sum {MAIN}/data.csv", O),
    ("reads", "file {MAIN}/README.md", O),
    ("reads", "du -sh {MAIN}/src", O),
    ("reads", "cmp {MAIN}/README.md README.md", O),
    ("reads", "jq .a {MAIN}/config.json", O),
    ("reads", "sort {MAIN}/data.csv | uniq -c", O),
    ("reads", "cut -d, -f1 {MAIN}/data.csv", O),
    ("reads", "awk -F, '{print $1}' {MAIN}/data.csv", O),
    ("reads", "sed -n 1p {MAIN}/README.md", O),
    ("reads", "tar -tf {MAIN}/archive.tar", O),
    ("reads", "xxd {MAIN}/README.md | head -2", O),
    ("reads", "realpath {MAIN}/src && readlink -f tomain", O),
    ("reads", "bash {MAIN}/run.sh", O),
    # 2. wrappers (more are generated from the installed ones below)
    ("2-wrappers", "taskset -c 0 cp README.md {MAIN}/wrapped.txt", A),
    ("2-wrappers", "setarch x86_64 touch {MAIN}/setarch.txt", A),
    ("2-wrappers", "flock {MAIN}/lockfile true", A),
    ("2-wrappers", "script -qc 'touch {MAIN}/script.txt' /dev/null", A),
    ("2-wrappers", "logsave {MAIN}/log.txt true", A),
    ("2-wrappers", "strace -f -o {MAIN}/trace.txt true", A),
    ("2-wrappers", "taskset -c 0 cp README.md wrapped.txt", O),
    ("2-wrappers", "setarch x86_64 touch setarch.txt", O),
    ("2-wrappers", "flock /tmp/lockfile touch locked.txt", O),
    ("2-wrappers", "script -qc 'touch script.txt' /dev/null", O),
    # 3. git runs code you hand it
    ("3-git-code", "git -c core.editor='touch {MAIN}/editor.txt; true' commit --allow-empty", A),
    ("3-git-code", "GIT_EDITOR='touch {MAIN}/editor2.txt; true' git commit --allow-empty", A),
    ("3-git-code", "GIT_SEQUENCE_EDITOR='touch {MAIN}/seq.txt; true' git rebase -i HEAD~1", A),
    ("3-git-code", "git rebase -x 'touch {MAIN}/rebase-x.txt' HEAD~1", A),
    ("3-git-code", "git rebase --exec='touch {MAIN}/rebase-exec.txt' HEAD~1", A),
    ("3-git-code", "git -c alias.x='!touch {MAIN}/alias.txt' x", A),
    ("3-git-code", "echo x >> README.md && git -c diff.external='touch {MAIN}/extdiff.txt; true' diff", A),
    ("3-git-code", "echo x >> README.md && GIT_EXTERNAL_DIFF='touch {MAIN}/extdiff2.txt; true' git diff", A),
    ("3-git-code", "git -p -c core.pager='touch {MAIN}/pager.txt; cat' log -1", A),
    ("3-git-code", "GIT_PAGER='touch {MAIN}/pager2.txt; cat' git -p log -1", A),
    ("3-git-code", "git bisect start HEAD HEAD~1 && git bisect run touch {MAIN}/bisect.txt", A),
    ("3-git-code", "git difftool -y -x 'touch {MAIN}/difftool.txt' HEAD~1", A),
    ("3-git-code", "git grep --open-files-in-pager='touch {MAIN}/grep.txt; true' hello", A),
    ("3-git-code", "git -c core.sshCommand='touch {MAIN}/ssh.txt; false' fetch ssh://example.invalid/x", A),
    ("3-git-code", "GIT_SSH_COMMAND='touch {MAIN}/ssh2.txt; false' git ls-remote ssh://example.invalid/x", A),
    ("3-git-code", "echo '* filter=x' > .gitattributes && git -c filter.x.clean='touch {MAIN}/filter.txt; cat' add README.md", A),
    ("3-git-code", "GIT_CONFIG_PARAMETERS=\"'alias.y=!touch {MAIN}/params.txt'\" git y", A),
    ("3-git-code", "GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.z GIT_CONFIG_VALUE_0='!touch {MAIN}/count.txt' git z", A),
    ("3-git-code", "git filter-branch -f --tree-filter 'touch {MAIN}/filter-branch.txt' HEAD~1..HEAD", A),
    ("3-git-code", "printf '[alias]\\n\\tq = !touch {MAIN}/include.txt\\n' > /tmp/inc.cfg && git -c include.path=/tmp/inc.cfg q", A),
    ("3-git-code", "printf '[alias]\\n\\tq = !touch {MAIN}/global.txt\\n' > /tmp/g.cfg && GIT_CONFIG_GLOBAL=/tmp/g.cfg git q", A),
    ("3-git-code", "mkdir -p /tmp/h && printf '[alias]\\n\\tq = !touch {MAIN}/home.txt\\n' > /tmp/h/.gitconfig && HOME=/tmp/h git q", A),
    ("3-git-code", "git -c core.fsmonitor=false status", O),
    ("3-git-code", "GIT_EDITOR=true git commit --allow-empty", O),
    ("3-git-code", "git rebase -x 'touch rebased.txt' HEAD~1", O),
    ("3-git-code", "git -p -c core.pager=cat log -1", O),
    ("3-git-code", "git bisect start HEAD HEAD~1 && git bisect run true", O),
    # 4. git writes outside the working tree
    ("4-git-outputs", "echo new > new.txt && GIT_INDEX_FILE={MAIN}/.git/index git add new.txt", A),
    ("4-git-outputs", "git log -p -1 --output={MAIN}/log.patch", A),
    ("4-git-outputs", "git diff HEAD~1 --output={MAIN}/diff.patch", A),
    ("4-git-outputs", "git -C {MAIN} format-patch -1", A),
    ("4-git-outputs", "git format-patch -1 -o {MAIN}/patches", A),
    ("4-git-outputs", "git checkout-index -a --prefix={MAIN}/export/", A),
    ("4-git-outputs", "git merge-file {MAIN}/notes.txt notes.txt README.md", A),
    ("4-git-outputs", "git bundle create {MAIN}/repo.bundle HEAD", A),
    ("4-git-outputs", "git archive -o {MAIN}/head.tar HEAD", A),
    ("4-git-outputs", "GIT_TRACE={MAIN}/trace.log git status", A),
    ("4-git-outputs", "GIT_OBJECT_DIRECTORY={MAIN}/objects git hash-object -w README.md", A),
    ("4-git-outputs", "git apply --unsafe-paths --directory=../../.. change.diff", A),
    ("4-git-outputs", "git log -p -1 --output=log.patch", O),
    ("4-git-outputs", "git format-patch -1 -o /tmp/patches", O),
    ("4-git-outputs", "git archive -o /tmp/head.tar HEAD", O),
    ("4-git-outputs", "GIT_INDEX_FILE=/tmp/index git add README.md", O),
    ("4-git-outputs", "git format-patch -1", O),
    # 5. shared config and refs written by other verbs
    ("5-config-refs", "git remote add upstream /tmp/up.git", A),
    ("5-config-refs", "git remote set-url origin /tmp/other.git", A),
    ("5-config-refs", "git branch -u feature", A),
    ("5-config-refs", "git sparse-checkout set src", A),
    ("5-config-refs", "git notes add -m note HEAD", A),
    ("5-config-refs", "git replace HEAD HEAD~1", A),
    ("5-config-refs", "git symbolic-ref HEAD refs/heads/main && git commit --allow-empty -m moved", A),
    ("5-config-refs", "git config core.bare true", A),
    ("5-config-refs", "git branch topic && git tag mytag", O),
    ("5-config-refs", "git config --get remote.origin.url; git remote -v", O),
    # 6. code inside a program's own language
    ("6-program-code", "sed -n 'w {MAIN}/sed-w.txt' README.md", A),
    ("6-program-code", "sed 's/hello/bye/w {MAIN}/sed-sw.txt' README.md", A),
    ("6-program-code", "sed '1e touch {MAIN}/sed-e.txt' README.md", A),
    ("6-program-code", "sed -n '1s/.*/touch {MAIN}\\/sed-se.txt/ep' README.md", A),
    ("6-program-code", "awk '{print > \"{MAIN}/awk-print.txt\"}' README.md", A),
    ("6-program-code", "awk 'BEGIN{system(\"touch {MAIN}/awk-system.txt\")}'", A),
    ("6-program-code", "awk 'BEGIN{print \"x\" | \"tee {MAIN}/awk-pipe.txt\"}'", A),
    ("6-program-code", "awk 'BEGIN{\"touch {MAIN}/awk-getline.txt\" | getline x}'", A),
    ("6-program-code", "tar -xf archive.tar --to-command='cat > {MAIN}/tar-to.txt'", A),
    ("6-program-code", "tar -cf /tmp/t.tar --checkpoint=1 --checkpoint-action=exec='touch {MAIN}/tar-cp.txt' README.md", A),
    ("6-program-code", "zip -q -T -TT 'touch {MAIN}/zip-tt.txt; true' /tmp/z.zip README.md", A),
    ("6-program-code", "vim -es -c 'w! {MAIN}/vim.txt' -c 'q!' README.md", A),
    ("6-program-code", "ex -s README.md <<< $'w! {MAIN}/ex.txt\\nq'", A),
    ("6-program-code", "ed -s README.md <<< $'w {MAIN}/ed.txt\\nq'", A),
    ("6-program-code", "printf 'w {MAIN}/ed-pipe.txt\\nq\\n' | ed -s README.md", A),
    ("6-program-code", "sed -n '1,2p' README.md", O),
    ("6-program-code", "sed -i 's/hello/bye/' README.md", O),
    ("6-program-code", "sed -n '/hello/w matched.txt' README.md", O),
    ("6-program-code", "awk '{print $1}' README.md", O),
    ("6-program-code", "awk '$1 > 0' data.csv", O),
    ("6-program-code", "awk '{print > \"awk-out.txt\"}' README.md", O),
    ("6-program-code", "awk 'BEGIN{system(\"touch awk-sys.txt\")}'", O),
    ("6-program-code", "ed -s README.md <<< $'1d\\nw\\nq'", O),
    # 7. links made in the same command, then written through
    ("7-links", "ln {MAIN}/notes.txt hard.txt && echo x >> hard.txt", A),
    ("7-links", "link {MAIN}/notes.txt hard2.txt && echo x >> hard2.txt", A),
    ("7-links", "cp -l {MAIN}/notes.txt hard3.txt && echo x >> hard3.txt", A),
    ("7-links", "cp -s {MAIN}/notes.txt soft.txt && echo x >> soft.txt", A),
    ("7-links", "cp -al {MAIN}/src hsrc && echo x >> hsrc/app.py", A),
    ("7-links", "ln -s {MAIN}/notes.txt soft2.txt && echo x >> soft2.txt", A),
    ("7-links", "ln README.md hard-inside.txt && echo x >> hard-inside.txt", O),
    ("7-links", "cp -l README.md hard-inside2.txt", O),
    ("7-links", "ln -s README.md soft-inside.txt && cat soft-inside.txt", O),
    # 8. shell options that change resolution
    ("8-shell-options", "shopt -s cdable_vars; m={MAIN}; cd m && touch cdable.txt", A),
    ("8-shell-options", "shopt -s dotglob; for f in *; do [ -d \"$f\" ] && touch \"$f/dotglob.txt\"; done; true", A),
    ("8-shell-options", "shopt -u globskipdots; for d in .*; do touch \"$d/skipdots.txt\"; done; true", A),
    ("8-shell-options", "shopt -s globstar; for f in **/notes.txt; do echo x >> \"$f\"; done; true", A),
    ("8-shell-options", "shopt -s expand_aliases\nalias t='touch {MAIN}/alias-opt.txt'\nt", A),
    ("8-shell-options", "set -e; touch ok.txt", O),
    ("8-shell-options", "set -o pipefail; ls | head -1", O),
    ("8-shell-options", "shopt -s nullglob; for f in *.none; do echo \"$f\"; done", O),
    # the false denies the issue names: static means what bash makes static
    ("static", "touch {a,b}.txt", O),
    ("static", "mkdir -p build/{x,y} && touch build/{x,y}/f", O),
    ("static", "echo x > \"$PWD/pwd.txt\"", O),
    ("static", "echo x > $(pwd)/pwd2.txt", O),
    ("static", "echo x > \"$(pwd)/pwd3.txt\"", O),
    ("static", "d=$(mktemp -d) && touch \"$d/f\"", O),
    ("static", "f=$(mktemp) && echo x > \"$f\"", O),
    ("static", "echo x > ${TMPDIR:-/tmp}/tmpdir.txt", O),
    ("static", "cp README.md \"${TMPDIR:-/tmp}/copy.md\"", O),
    ("static", "ls src | xargs -I{} cp src/{} {MAIN}/src/{}.bak", A),
    # the review of issue 10, table side (tests/test_bash_review10_table.py): outputs the rows missed, extraction
    # through W's `tomain` symlink, find's start points, `ln -sr`, attached values, code runners, programs by path
    ("review10-table", "tar -cf /tmp/x.tar --remove-files ../../../notes.txt", A),
    ("review10-table", "sed -i'../../../*' s/x/y/ notes.txt", A),
    ("review10-table", "perl -pi'../../../*' -e 's/x/y/' notes.txt", A),
    ("review10-table", "patch -s -b -B ../../../ notes.txt {MAIN}/change.diff", A),
    ("review10-table", "wget -q -o {MAIN}/wget.log http://127.0.0.1:9/", A),
    ("review10-table", "curl -s --stderr {MAIN}/pwncerr file:///nonexistent", A),
    ("review10-table", "curl -s --libcurl {MAIN}/pwnlibcurl file:///etc/hostname", A),
    ("review10-table", "openssl rand -writerand {MAIN}/pwnrand 1 >/dev/null", A),
    ("review10-table", "echo pwn > /tmp/pwnX && tar -cf /tmp/t.tar -C /tmp --transform='s,^,tomain/,' pwnX && tar -xf /tmp/t.tar", A),
    ("review10-table", "mkdir -p /tmp/z/tomain && echo pwn > /tmp/z/tomain/pwnZ && cd /tmp/z && zip -qr /tmp/z.zip tomain && cd - >/dev/null && unzip -qo /tmp/z.zip", A),
    ("review10-table", "echo pwn > f && tar -cf /tmp/a.tar f && tar -xPf /tmp/a.tar --transform='s,^,../../../,'", A),
    ("review10-table", "find -P ../../.. -maxdepth 1 -name notes.txt -delete", A),
    ("review10-table", "find -O3 ../../.. -maxdepth 1 -name notes.txt -exec rm {} \\;", A),
    ("review10-table", "find -D tree ../../.. -maxdepth 1 -name notes.txt -delete 2>/dev/null", A),
    ("review10-table", "printf '%s\\0' ../../../notes.txt > /tmp/l && find -files0-from /tmp/l -delete", A),
    ("review10-table", "mkdir -p a/b/c/d && ln -sr ../../../notes.txt a/b/c/d/lnk && echo pwn > a/b/c/d/lnk", A),
    ("review10-table", "gcc -x c - -o../../../pwnU <<< 'int main(){}'", A),
    ("review10-table", "setpriv sh -c 'cd ../../.. && touch pwn21'", A),
    ("review10-table", "ssh-agent sh -c 'cd ../../.. && touch pwn24'", A),
    ("review10-table", "tmux new-session -d 'cd ../../.. && touch pwn33'; sleep 1", A),
    ("review10-table", "gdb -batch -ex 'shell cd ../../.. && touch pwn26'", A),
    ("review10-table", "sqlite3 :memory: '.shell cd ../../.. && touch pwn20'", A),
    ("review10-table", "make -f /dev/stdin <<< $'all:\\n\\ttouch {MAIN}/pwn34'", A),
    ("review10-table", "LESSOPEN='|touch {MAIN}/pwn41 %s' less -f README.md > /dev/null", A),
    ("review10-table", "ptx -G README.md ../../../pwn27", A),
    ("review10-table", "cp /usr/bin/touch /tmp/head && /tmp/head {MAIN}/pwnJ", A),
    ("review10-table", "zip -q /tmp/x.zip {MAIN}/README.md", O),
    ("review10-table", "zip -qr /tmp/src.zip {MAIN}/src", O),
    ("review10-table", "python3 -m json.tool {MAIN}/config.json", O),
    ("review10-table", "mkdir -p sub && tar -cf /tmp/o.tar README.md && tar -xf /tmp/o.tar -C sub", O),
    ("review10-table", "find ../.. -name x", O),
    ("review10-table", "ln -s target lnk", O),
    ("review10-table", "sed -i.bak s/x/y/ notes.txt", O),
    ("review10-table", "ptx -G README.md /tmp/ptx.out", O),
    # git's fail-opens found by the review of issue 10 (tests/test_bash_review10_git.py has the codes)
    ("3-git-review10", "mkdir sub && echo 'gitdir: {MAIN}/.git' > sub/.git && git -C sub reset -q --hard HEAD~1", A),
    ("3-git-review10", "git commit -q --allow-empty -m x && git fetch -q --update-head-ok . HEAD:heads/main", A),
    ("3-git-review10", "git commit -q --allow-empty -m x && printf 'reset refs/heads/main\\nfrom refs/heads/wt-w\\n\\n' | git fast-import --quiet --force", A),
    ("3-git-review10", "git init -q --shared=all", A),
    ("3-git-review10", "git interpret-trailers --in-place --trailer 'x: y' ../../../notes.txt", A),
    ("3-git-review10", "git read-tree --index-output={MAIN}/pwnidx HEAD", A),
    ("3-git-review10", "GIT_EXTERNAL_DIFF=rm git diff --no-index {MAIN}/notes.txt README.md", A),
    ("3-git-review10", "GIT_SSH_COMMAND=rm git -C {MAIN} ls-remote notes.txt:x", A),
    ("3-git-review10", "printf -- '--- a/../../../notes.txt\\n+++ b/../../../notes.txt\\n@@ -1 +1 @@\\n-notes\\n+pwned\\n' > x.diff && git apply --unsafe-paths x.diff", A),
    ("3-git-review10", "git -c protocol.ext.allow=always -c 'remote.zz.url=ext::sh -c touch% {MAIN}/pwnB' ls-remote zz", A),
    ("3-git-review10", "printf ../../.. | git hash-object -w --stdin >/dev/null && git update-index --add --cacheinfo 120000,a8a4f8c2127bf74725cf14800dde7ea8aeec5c5c,m && git checkout -- m && touch m/pwnT", A),
    ("3-git-review10", "git init && git add README.md && git status --short", O),
    ("3-git-review10", "git interpret-trailers --in-place --trailer 'x: y' README.md", O),
    ("3-git-review10", "GIT_EXTERNAL_DIFF=cat git -C {MAIN} diff HEAD~1; true", O),
    # git init's git dir, git's relative GIT_DIR, clone's work tree, and the help forms (tests/test_bash_rules.py's
    # GIT_ROWS have the codes)
    ("3-git-dirs", "GIT_DIR={MAIN}/sub git init -q", A),
    ("3-git-dirs", "git --git-dir={MAIN}/sub2 init -q", A),
    ("3-git-dirs", "GIT_DIR=.git GIT_WORK_TREE=/tmp/gx git -C {MAIN} rm -q --cached README.md", A),
    ("3-git-dirs", "GIT_WORK_TREE={MAIN}/sub3 git clone -q {MAIN} /tmp/gc3", A),
    ("3-git-dirs", "git --git-dir=/tmp/g4 --work-tree={MAIN} init -q && git --git-dir=/tmp/g4 fetch -q {MAIN} HEAD && git --git-dir=/tmp/g4 read-tree FETCH_HEAD && git --git-dir=/tmp/g4 rm -q -f :/README.md", A),
    ("3-git-dirs", "git -C {MAIN} switch -h; true", O),
    ("3-git-dirs", "git -C {MAIN} reset -h; true", O),
    ("3-git-dirs", "GIT_DIR=/tmp/g5 git init -q && GIT_DIR=/tmp/g5 git add README.md", O),
    ("3-git-dirs", "GIT_DIR=.git git init -q --shared=all /tmp/fresh6", O),
    # a repository whose config the command sets, and the programs git starts (tests/test_bash_rules.py's
    # CONFIG_TRUST_ROWS and GIT_STARTS_ROWS have the codes)
    ("3-git-config", "mkdir -p /tmp/t1 && printf '[core]\\n\\tworktree = {MAIN}\\n' > /tmp/t1/config && git init -q --template=/tmp/t1 /tmp/r1 && git -C /tmp/r1 add README.md && git -C /tmp/r1 rm -qf README.md", A),
    ("3-git-config", "git clone -q -c core.worktree={MAIN} {MAIN} /tmp/r2 && git -C /tmp/r2 rm -qf README.md", A),
    ("3-git-config", "git init -q /tmp/r3 && printf '[core]\\n\\tworktree = {MAIN}\\n' >> /tmp/r3/.git/config && git -C /tmp/r3 add README.md && git -C /tmp/r3 rm -qf README.md", A),
    ("3-git-config", "git init -q /tmp/r4 && git -C /tmp/r4 config --worktree core.worktree {MAIN} && git -C /tmp/r4 add README.md && git -C /tmp/r4 rm -qf README.md", A),
    ("3-git-config", "git init -q /tmp/r5 && printf '[core]\\n\\tfsmonitor = rm -f {MAIN}/README.md\\n' >> /tmp/r5/.git/config && git -C /tmp/r5 status --short", A),
    ("3-git-config", "git clone -q -c core.fsmonitor='rm -f {MAIN}/README.md' {MAIN} /tmp/r6 && git -C /tmp/r6 status --short", A),
    ("3-git-config", "git -c man.man.path=/usr/bin/tee -C {MAIN} help log", A),
    ("3-git-config", "mkdir -p /tmp/x7 && printf '#!/bin/sh\\ntouch {MAIN}/exec-path.txt\\n' > /tmp/x7/git-foo && chmod +x /tmp/x7/git-foo && git --exec-path=/tmp/x7 foo", A),
    ("3-git-config", "git init -q /tmp/r8 && echo x > /tmp/r8/f && git -C /tmp/r8 add f && git -C /tmp/r8 commit -q -m x", O),
    ("3-git-config", "git clone -q {MAIN} /tmp/r9 && cd /tmp/r9 && git checkout -q -b b", O),
    ("3-git-config", "git clone -q -c user.name=x {MAIN} /tmp/r10 && git -C /tmp/r10 commit -q --allow-empty -m x", O),
    ("3-git-config", "git help log > /dev/null", O),
    # control flow (review 23a): what a command after `&&`/`||`, a loop round, a branch or a jump leaves behind
    ("control-flow", "X={MAIN}/notes.txt; false && X=/tmp/obs-safe; rm -f \"$X\"", A),
    ("control-flow", "X={MAIN}/notes.txt; true || X=/tmp/obs-safe; rm -f \"$X\"", A),
    ("control-flow", "X={MAIN}/notes.txt; X=/tmp/obs-safe && true & rm -f \"$X\"", A),
    ("control-flow", "X=/tmp/obs-safe; if X={MAIN}/notes.txt; then rm -f \"$X\"; fi", A),
    ("control-flow", "if false; then :; elif X={MAIN}/notes.txt; then rm -f \"$X\"; fi", A),
    ("control-flow", "X=/tmp/obs-safe; while X={MAIN}/notes.txt; [ -e /nonexistent ]; do X=/tmp/obs-safe; done; rm -f \"$X\"", A),
    ("control-flow", "n=0; X=/tmp/obs-a; Y=/tmp/obs-b; while [ $n -lt 3 ]; do rm -f \"$Y\"; Y=$X; X={MAIN}/notes.txt; n=$((n+1)); done", A),
    ("control-flow", "X={MAIN}/notes.txt; for i in 1; do break; X=/tmp/obs-safe; done; rm -f \"$X\"", A),
    ("control-flow", "X=/tmp/obs-safe; for i in 1; do X={MAIN}/notes.txt; if true; then break; fi; X=/tmp/obs-safe; done; rm -f \"$X\"", A),
    ("control-flow", "X=/tmp/obs-safe; for i in a b; do X={MAIN}/notes.txt; continue; X=/tmp/obs-safe; done; rm -f \"$X\"", A),
    ("control-flow", "X=/tmp/obs-safe; while :; do while :; do X={MAIN}/notes.txt; break 2; done; X=/tmp/obs-safe; done; rm -f \"$X\"", A),
    ("control-flow", "X={MAIN}/notes.txt; f(){ return; X=/tmp/obs-safe; }; f; rm -f \"$X\"", A),
    ("control-flow", "trap 'rm -f \"$X\"' EXIT; X={MAIN}/notes.txt; exit; X=/tmp/obs-safe", A),
    ("control-flow", "Y=0; true && Y='a[$(touch {MAIN}/cf.txt)]'; (( Y ))", A),
    ("control-flow", "Y=0; until (( Y )); do Y='a[$(touch {MAIN}/cf.txt)]'; done", A),
    ("control-flow", "V1=/tmp/s; V2=/tmp/s; V3=/tmp/s; V4=/tmp/s; V5=/tmp/s; V6=/tmp/s; V7=/tmp/s; V8=/tmp/s; n=0; while [ $n -lt 12 ]; do rm -f \"$V8\"; V8=$V7; V7=$V6; V6=$V5; V5=$V4; V4=$V3; V3=$V2; V2=$V1; V1={MAIN}/notes.txt; n=$((n+1)); done", A),
    ("control-flow", "REPLY=/tmp/obs-s; select x in a; do rm -f \"$REPLY\"; break; done <<< \"{MAIN}/notes.txt\"", A),
    ("control-flow", "X=0; true && X='a[$(rm -f {MAIN}/notes.txt)]'; X+=''; (( X ))", A),
    ("control-flow", "X=0; true && X='a[$(rm -f {MAIN}/notes.txt)]'; f(){ (( $1 )); }; f \"$X\"", A),
    ("control-flow", "X='a[$(touch {MAIN}/cf.txt)]'; f(){ local X=1; }; f; (( X ))", A),
    ("control-flow", "bash -O lastpipe -c 'X=/tmp/obs-safe; echo {MAIN}/notes.txt | read X; rm -f \"$X\"'", A),
    ("control-flow", "X='rm -f {MAIN}/notes.txt'; $X", A),
    ("control-flow", "cd src && ls && cd .. && touch obs-cf1.txt", O),
    ("control-flow", "cd src || exit 1; touch obs-cf2.txt", O),
    ("control-flow", "f(){ cd src || return 1; touch obs-cf3.txt; }; f || exit 1; touch obs-cf4.txt", O),
    ("control-flow", "n=0; while [ $n -lt 3 ]; do n=$((n+1)); done; touch obs-cf5.txt", O),
    ("control-flow", "if [ -e README.md ]; then X=obs-cf6.txt; else X=obs-cf6.txt; fi; touch \"$X\"", O),
    # startup files a shell reads from a place the command chose (review 23b)
    ("startup-files", "echo 'rm -f {MAIN}/notes.txt' > .bashrc; HOME=$PWD bash -ic true", A),
    ("startup-files", "echo 'rm -f {MAIN}/notes.txt' > .bash_profile; HOME=$PWD bash -lc true", A),
    ("startup-files", "echo 'rm -f {MAIN}/notes.txt' > /tmp/obs-rc; bash --rcfile /tmp/obs-rc -ic true", A),
    ("startup-files", "echo 'rm -f {MAIN}/notes.txt' > .profile; HOME=$PWD sh -l -c true", A),
    ("startup-files", "PROMPT_COMMAND='rm -f {MAIN}/notes.txt' bash -i <<< true", A),
    ("startup-files", "echo 'rm -f {MAIN}/notes.txt' > .bash_profile; HOME=$PWD exec -l bash -c true", A),
    ("startup-files", "echo 'rm -f {MAIN}/notes.txt' > .profile; HOME=$PWD exec -a -sh sh -c true", A),
    ("startup-files", "echo 'touch obs-sf4.txt' > .bash_profile; HOME=$PWD exec -a mybash bash -c true", O),
    ("startup-files", "bash --rcfile /dev/null -ic 'touch obs-sf1.txt'", O),
    ("startup-files", "HOME=$PWD bash --norc -ic 'touch obs-sf2.txt'", O),
    ("startup-files", "bash -lc 'touch obs-sf3.txt'", O),
    # word splitting of a known unquoted value (review 24's last reread: the split-word rule saw only a lone word)
    ("split-words", "X='rm -f {MAIN}/notes.txt'; $X obs-sw0.txt", A),
    ("split-words", "X='rm -f'; $X {MAIN}/notes.txt", A),
    ("split-words", "X=; $X rm -f {MAIN}/notes.txt", A),
    ("split-words", "F='obs-sw1.txt {MAIN}/notes.txt'; rm -f $F", A),
    ("split-words", "F='obs-sw2.txt {MAIN}/notes.txt'; for f in $F; do rm -f \"$f\"; done", A),
    ("split-words", "X='rm -f {MAIN}/notes.txt'; nice $X", A),
    ("split-words", "f() { $* ; }; f rm -f {MAIN}/notes.txt", A),
    ("split-words", "X='touch obs-sw3.txt'; $X obs-sw4.txt", O),
    ("split-words", "F='obs-sw5.txt obs-sw6.txt'; touch $F", O),
    ("split-words", "Y='/tmp/obs-sw7 {MAIN}/notes.txt'; export X=$Y; rm -f $X", A),  # export does not split X=$Y
    ("split-words", "Y='/tmp/obs-sw8 {MAIN}/notes.txt'; declare X=$Y; rm -f $X", A),
    # a cd or pushd given two directories: bash 5.2 refuses it and stays (the guard took the first)
    ("cd-operands", "mkdir -p s/t/u; cd s/t/u x; rm -f ../../../notes.txt", A),
    ("cd-operands", "mkdir -p s/t/u; X='s/t/u x'; cd $X; rm -f ../../../notes.txt", A),
    ("cd-operands", "mkdir -p s/t/u; pushd s/t/u x; rm -f ../../../notes.txt", A),
    ("cd-operands", "mkdir -p s/t/u && cd s/t/u && touch ../../../obs-co1.txt", O),
    # bash's cd is logical (W/deep -> src/a/b/c/d: `cd deep; cd ..` is W), and a cd bash refuses stays where it was
    ("logical-cd", "cd deep; cd ..; rm -f ../../../notes.txt", A),
    ("logical-cd", "cd deep/..; rm -f ../../../notes.txt", A),
    ("logical-cd", "cd deep; pushd ..; popd; cd ..; rm -f ../../../notes.txt", A),
    ("logical-cd", "cd deep; bash -c 'cd ..; rm -f ../../../notes.txt'", A),
    ("logical-cd", "cd deep; cd ..; touch obs-lc1.txt", O),
    ("logical-cd", "cd -P deep; cd ..; touch ../../../obs-lc2.txt", O),
    ("refused-cd", "cd nonexist/a/b; rm -f ../../../notes.txt", A),
    ("refused-cd", "rm -rf src/a; cd src/a/b; rm -f ../../../notes.txt", A),
    ("refused-cd", "cd src/a/b; touch ../../../obs-rc1.txt", O),
    ("refused-cd", "enable -n cd; cd src/a/b; rm -f ../../../notes.txt", A),
    ("refused-cd", "enable -n exit; cd nonexist/a/b || exit; rm -f ../../../notes.txt", A),
    ("refused-cd", "cd src/a/b; pushd ../../..; dirs -c; popd; rm -f ../../../notes.txt", A),
    ("refused-cd", "pushd src; dirs -v; popd; touch obs-rc2.txt", O),
    # set -E / -T / extdebug: a subshell keeps the ERR and DEBUG traps and runs them with its own variables
    ("trap-inherit", "X=/tmp/obs-ti; set -E; trap 'rm -f \"$X\"' ERR; (X={MAIN}/notes.txt; false)", A),
    ("trap-inherit", "X=/tmp/obs-ti; set -T; trap 'rm -f \"$X\"' DEBUG; (X={MAIN}/notes.txt; true)", A),
    ("trap-inherit", "X=/tmp/obs-ti; shopt -s extdebug; trap 'rm -f \"$X\"' DEBUG; (X={MAIN}/notes.txt; true)", A),
    ("trap-inherit", "set -E; trap 'touch obs-ti1.txt' ERR; (cd src; false)", O),
    # review 26a: GNU env's lone `-` (read as a program name, the command after it was not walked); a bash started
    # with errtrace; a cd into a directory removed by a program the walk does not follow
    ("review-26a", "env - bash -c 'rm -f {MAIN}/notes.txt'", A),
    ("review-26a", "env - sh -c 'rm -f {MAIN}/README.md'", A),
    ("review-26a", "bash -E -c 'X=/tmp/obs-ra; trap \"rm -f \\\"\\$X\\\"\" ERR; (X={MAIN}/notes.txt; false)'", A),
    ("review-26a", "git clean -fdq src; cd src/a/b/c/d || rm -f ../../../notes.txt", A),
    ("review-26a", "env - PATH=/usr/bin:/bin touch obs-ra1.txt", O),
    ("review-26a", "! cd nonexist/a/b && rm -f ../../../notes.txt", A),
    ("review-26a", "if cd nonexist/a/b; then :; else rm -f ../../../notes.txt; fi", A),
    ("review-26a", "if cd src/a/b; then touch obs-ra2.txt; else touch obs-ra3.txt; fi", O),
    # stop 27, from phase 12's mutation runs: a wrapper starting bash where the shell is passes the logical $PWD; bash
    # joins `\<newline>` into a parameter's name; a quoted `}` ends no braces
    ("phase-12", "cd deep; env bash -c 'cd ..; rm -f ../../../notes.txt'", A),
    ("phase-12", "cd deep; nice bash -c 'cd ..; rm -f ../../../notes.txt'", A),
    ("phase-12", "cd deep; timeout 5 bash -c 'cd ..; rm -f ../../../notes.txt'", A),
    ("phase-12", "cd deep; env bash -c 'cd ..; touch obs-p12a.txt'", O),
    ("phase-12", "Xa={MAIN}/notes.txt; X=/tmp/obs-p12; rm -f $X\\\na", A),
    ("phase-12", "rm -f {/tmp/obs-p12\"}\",{MAIN}/notes.txt}", A),
    ("phase-12", "rm -f {/tmp/obs-p12b,/tmp/obs-p12c}; touch obs-p12d.txt", O),
    # case fall-through: `;&` runs the next body, `;;&` tests the later patterns, from where the body ended
    ("case-fallthrough", "X=/tmp/obs-cf; case a in a) X={MAIN}/notes.txt ;& b) rm -f \"$X\" ;; esac", A),
    ("case-fallthrough", "X=/tmp/obs-cf; case a in a) X={MAIN}/notes.txt ;;& *) rm -f \"$X\" ;; esac", A),
    ("case-fallthrough", "case a in a) cd {MAIN} ;& b) rm -f notes.txt ;; esac", A),
    ("case-fallthrough", "X=obs-cft1.txt; case a in a) X=obs-cft2.txt ;& b) touch \"$X\" ;; esac", O),
    # a trap runs wherever its shell ends: set -e, ${Y:?}, a signal it sends itself
    ("trap-anywhere", "X=/tmp/obs-ta; trap 'rm -f \"$X\"' EXIT; set -e; X={MAIN}/notes.txt; false; X=/tmp/obs-ta", A),
    ("trap-anywhere", "X=/tmp/obs-ta; trap 'rm -f \"$X\"' EXIT; X={MAIN}/notes.txt; : ${Y:?}; X=/tmp/obs-ta", A),
    ("trap-anywhere", "X=/tmp/obs-ta; trap 'rm -f \"$X\"' INT; X={MAIN}/notes.txt; kill -INT $$; X=/tmp/obs-ta", A),
    ("trap-anywhere", "trap 'touch obs-ta1.txt' EXIT; cd .; true", O),
    # review 25a: split values and words that bash splits into more than one (each passed the change's first version)
    ("review-25a", "shopt -s extglob; X='obs-r25a0 ../../../notes.tx@(t)'; rm -f $X", A),
    ("review-25a", "Y='/dev/null of={MAIN}/notes.txt'; dd if=$Y status=none", A),
    ("review-25a", "touch X=a; Y='a {MAIN}/notes.txt'; cp X=$Y", A),
    ("review-25a", "touch a; U=$(printf 'a {MAIN}/notes.txt'); cp $U", A),
    ("review-25a", "U=$(printf -- -delete); find {MAIN}/notes.txt $U", A),
    ("review-25a", "C=$(printf declare); \"$C\" IFS=:; X='/tmp/a:{MAIN}/notes.txt'; rm -f $X", A),
    ("review-25a", "F='obs-r25a1.txt obs-r25a2.txt'; touch $F", O),
    # classes the SPEC leaves to the leak check (reported, not counted as escapes)
    ("leak-check", "python3 -c 'open(\"{MAIN}/py.txt\", \"w\").write(\"x\")'", A),
    ("leak-check", "node -e 'require(\"fs\").writeFileSync(\"{MAIN}/node.txt\", \"x\")'", A),
    ("leak-check", "perl -e 'open(F, \">\", \"{MAIN}/perl.txt\")'", A),
    ("leak-check", "printf 'touch {MAIN}/script-run.txt\\n' > /tmp/s.sh && sh /tmp/s.sh", A),
    ("leak-check", "python3 -c 'import sys; sys.path.insert(0, \"{MAIN}/src\"); import util'", A),
]
LEAK_CHECK_CLASSES = {"leak-check"}

#: Wrappers to generate candidates with, each with the words that make it run a command (if installed).
WRAPPER_PREFIXES = [
    "taskset -c 0", "ionice -c 3", "chrt -o 0", "setarch x86_64", "linux64", "flock /tmp/obs.lock", "nice -n 5",
    "nohup", "setsid -w", "timeout 5", "env", "env -i PATH=/usr/bin:/bin", "stdbuf -oL", "prlimit --nofile=256:256",
    "choom -n 0 --", "strace -f -o /dev/null", "fakeroot", "logsave /dev/null", "time -p", "command", "exec",
    "unshare -U", "unshare -r", "xargs -a /dev/null -r", "busybox", "runcon -t unconfined_t",
]
WRAPPED = [("touch {MAIN}/wrapped-{n}.txt", A), ("cp README.md {MAIN}/wrapped-cp-{n}.txt", A), ("touch wrapped-{n}.txt", O)]

#: tldr pages not to run: they wait for a terminal or the network, never end, or act on the machine.
TLDR_SKIP = {
    "watch", "top", "htop", "less", "more", "most", "vim", "vi", "view", "vimdiff", "nano", "emacs", "screen", "tmux",
    "script", "gdb", "sleep", "yes", "ping", "ssh", "scp", "sftp", "telnet", "nc", "ncat", "socat", "kill", "pkill",
    "killall", "shutdown", "reboot", "poweroff", "halt", "sudo", "su", "passwd", "chsh", "chfn", "useradd", "userdel",
    "usermod", "groupadd", "mkfs", "fdisk", "sfdisk", "parted", "wipefs", "mount", "umount", "swapon", "swapoff",
    "losetup", "crontab", "at", "systemctl", "journalctl", "service", "login", "exec", "python", "python3", "node",
    "perl", "ruby", "irb", "bash", "sh", "zsh", "dash", "man", "info", "tldr", "apt", "apt-get", "dpkg", "pip", "pip3",
    "npm", "npx", "ed", "ex", "base64", "dd", "shred", "xargs", "timeout", "nohup", "nice", "setsid", "env", "strace",
    "perf", "valgrind", "busybox", "make", "chroot", "unshare", "nsenter", "runuser", "flock", "openvt", "agetty",
    "stty", "reset", "clear", "tput", "tty", "wall", "write", "mesg", "dmesg", "sysctl", "modprobe", "insmod",
    "rmmod", "ip", "ifconfig", "route", "iptables", "nft", "tc", "hostnamectl", "timedatectl", "localectl",
    "loginctl", "cal", "pv", "dialog", "whiptail", "sensible-editor", "editor", "select", "read", "wait", "trap",
}
_PLACEHOLDER = re.compile(r"\{\{(.*?)\}\}")


def _fill(inner: str, where: str, counter: list[int]) -> str | None:
    """A value for one tldr placeholder; None when the example cannot be run here."""
    alternatives = re.fullmatch(r"\[(.*)\]", inner)
    if alternatives and "|" in alternatives.group(1):
        return alternatives.group(1).split("|")[0]
    low = inner.lower()
    if re.search(r"https?:|url|host|user|pid|port|ip_?address|device|/dev/|uuid|email|password|token|key_?id", low):
        return None
    if re.search(r"path|file|dir|folder|archive|\.(?:txt|csv|json|py|sh|tar|zip|gz|md|log)\b", low):
        prefix = "{MAIN}/" if where == "main" else "{W}/"  # absolute: tldr writes some paths as `/{{path}}`
        counter[0] += 1
        if re.search(r"dir|folder", low) and "file" not in low:
            name = "src" if counter[0] == 1 else f"obs-dir-{counter[0]}"
        elif ".tar" in low or "tarball" in low:
            name = "archive.tar" if counter[0] == 1 else f"obs-{counter[0]}.tar"
        elif ".zip" in low:
            name = "archive.zip" if counter[0] == 1 else f"obs-{counter[0]}.zip"
        elif re.search(r"output|new|target|dest|result|out\b", low) or counter[0] > 1:
            name = f"obs-out-{counter[0]}.txt"
        elif ".json" in low:
            name = "config.json"
        elif ".csv" in low:
            name = "data.csv"
        elif ".py" in low:
            name = "src/app.py"
        elif ".sh" in low or "script" in low:
            name = "run.sh"
        else:
            name = "notes.txt"
        return prefix + name
    if re.fullmatch(r"-?\d+(\.\d+)?", inner.strip()):
        return inner.strip()
    word = re.sub(r"[^A-Za-z0-9_.-]", "_", inner.strip()) or "x"
    return word[:20]


def _tldr(shared: Path) -> list[tuple[str, str, bool]]:
    path = shared / "realdata" / "tldr-pages-commands" / "tldr_commands.tsv"
    if not path.is_file():
        return []
    out: list[tuple[str, str, bool]] = []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            page, command = row["page"], row["command"]
            if row["platform"] == "osx" or page in TLDR_SKIP or not command.startswith(page + " ") or shutil.which(page) is None:
                continue
            if " -f" in command and page in ("tail", "journalctl") or "|" in command or "sudo" in command or "~" in command:
                continue
            if not re.search(r"\{\{[^}]*(?:path|file|dir|folder|archive)", command, re.I):
                continue
            for where, ordinary in (("main", A), ("w", O)):
                counter = [0]
                filled = []
                ok = True
                pieces = _PLACEHOLDER.split(command)
                for i, piece in enumerate(pieces):
                    if i % 2 == 0:
                        filled.append(piece)
                        continue
                    value = _fill(piece, where, counter)
                    if value is None:
                        ok = False
                        break
                    filled.append(value)
                if ok:
                    out.append((f"tldr:{page}", "".join(filled), ordinary))
    return out


def _nl2bash(shared: Path) -> list[tuple[str, str, bool]]:
    path = shared / "realdata" / "nl2bash" / "all.cm"
    if not path.is_file():
        return []
    from worktree_guard.shell.parse import ParseFailure, parse

    out: list[tuple[str, str, bool]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or len(line) > 160 or re.search(r"(^|[\s=])[/~]|\$HOME|sudo|\bkill|shutdown|reboot|\bssh\b|\bscp\b|\bwget\b|\bcurl\b|\bnc\b|yes\b|sleep|watch|read\b|top\b|less\b|more\b|vim?\b|\bpasswd|crontab|\bmount|dd\b|:\(\)", line):
            continue
        program = line.split()[0]
        if program in TLDR_SKIP or shutil.which(program) is None:
            continue
        out.append(("nl2bash", line, ".." not in line))  # `..` leaves W (which lies inside the main checkout)
        try:
            script = parse(line)
        except ParseFailure:
            continue
        target = _first_relative_path(script)
        if target is not None:
            start, end, raw = target
            moved = "{MAIN}" if raw == "." else "{MAIN}/" + raw.removeprefix("./")
            out.append(("nl2bash", line[:start] + moved + line[end:], A))
    return out


def _first_relative_path(script) -> tuple[int, int, str] | None:
    """The first static word past a command name that looks like a relative path (`.`, `src/x`, `*.txt`, `a.log`)."""
    from worktree_guard.shell import ast

    stack = list(script.body)
    while stack:
        node = stack.pop(0)
        if isinstance(node, ast.Command):
            for word in node.words[1:]:
                raw = word.raw
                if raw.startswith(("-", "'", '"', "$", "{", "\\")) or "=" in raw:
                    continue
                if raw == "." or "/" in raw or re.search(r"\.[A-Za-z0-9]{1,4}$", raw):
                    return word.span[0], word.span[1], raw
        for child in ("parts", "stages"):
            stack.extend(getattr(node, child, []) or [])
        for child in ("body",):
            value = getattr(node, child, None)
            if value is not None and not isinstance(value, list):
                stack.append(value)
    return None


def _sample(rows: list[tuple[str, str, bool]], n: int | None) -> list[tuple[str, str, bool]]:
    """A fixed sample: the same rows on every machine with the same data (ordered by a hash of the command)."""
    if n is None or len(rows) <= n:
        return rows
    return sorted(rows, key=lambda r: hashlib.sha1(r[1].encode()).hexdigest())[:n]


def all_candidates(full: bool = False) -> list[Candidate]:
    from tests.shared_data import shared_dir

    rows: list[tuple[str, str, bool, str]] = [(cls, cmd, ordinary, "hand") for cls, cmd, ordinary in HAND]
    n = 0
    for prefix in WRAPPER_PREFIXES:
        program = prefix.split()[0]
        if program not in ("command", "exec") and shutil.which(program) is None:
            continue
        for inner, ordinary in WRAPPED:
            n += 1
            rows.append(("2-wrappers", f"{prefix} {inner.format(n=n, MAIN='{MAIN}')}", ordinary, "installed"))
    shared = shared_dir()
    if shared is not None:
        for source, generate in (("tldr", _tldr), ("nl2bash", _nl2bash)):
            generated = generate(shared)
            for cls, cmd, ordinary in _sample(generated, None if full else SAMPLE[source]):
                rows.append((f"gen-{source}", cmd, ordinary, cls))
    seen: set[str] = set()
    candidates = []
    for cls, command, ordinary, source in rows:
        if command in seen:
            continue
        seen.add(command)
        candidates.append(Candidate(cls=cls, command=command, source=source, ordinary=ordinary, leak_check=cls in LEAK_CHECK_CLASSES))
    return candidates
