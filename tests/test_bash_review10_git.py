"""The independent review of issue 10's git handling: each fail-open it ran for real, with the exact code it
now gets, beside the ordinary work next to it that must still pass (SPEC §5.2 git, "strings that a program will
run as code", "git's other outputs", "the shared boundary is default-deny").

W is the agent's linked worktree inside the main checkout {MAIN} (so ../../.. from W is {MAIN}); W holds a
symlink `to-main` to {MAIN}; {SIB} is a sibling agent's worktree. See `tests/test_bash_rules.py`'s `world`.
"""

from __future__ import annotations

import pytest

from tests.helpers import Repo, plain_id
from tests.test_bash_rules import assert_row, bash, world  # noqa: F401  (the fixture)

SIB_ADMIN = "{MAIN}/.git/worktrees/agent-afedcba0987654321"

# (command, expected): "pass", or the exact set of error codes.
ROWS: dict[str, list[tuple[str, object]]] = {
    "A1 a .git written in the command": [
        ("mkdir sub && echo 'gitdir: {MAIN}/.git' > sub/.git && git -C sub reset -q --hard HEAD~1", {"WG103", "WG303"}),  # a .git anywhere inside W is protected (WG103, issue 12 review F2)
        ("mkdir -p /tmp/g && echo 'gitdir: {MAIN}/.git' > /tmp/g/.git && git -C /tmp/g reset -q --hard HEAD~1", {"WG403", "WG303"}),
        (f"mkdir sub && echo 'gitdir: {SIB_ADMIN}' > sub/.git && cd sub && git reset -q --soft HEAD~1", {"WG103", "WG303"}),
        ("echo 'gitdir: {MAIN}/.git' > .git && git reset -q --soft HEAD~1", {"WG103"}),  # W's own .git is protected
        ("cp -r /tmp/prepared sub && git -C sub reset -q --hard HEAD~1", {"WG303"}),  # it may hold a .git
        ("tar -xf /tmp/t.tar && git commit -qm x", {"WG303", "WG403"}),  # the archive may replace W's .git (and W holds a symlink out: WG403)
        ("cp -r /tmp/prepared sub && git -C sub log -1", "pass"),  # reading passes: the location decides nothing
        ("mkdir sub && echo x > sub/f && git add sub/f && git commit -qm x", "pass"),
        ("echo x > f && git add f && git -C src status", "pass"),
        ("mkdir -p build && cd build && git status --short", "pass"),
        ("git apply --directory=../../.. x.diff", {"WG401"}),  # its own output is not a .git planted before it
        ("git format-patch -1 && git am 0001-*.patch", "pass"),
    ],
    "A2 fetch --update-head-ok": [
        ("git commit -q --allow-empty -m x && git fetch -q --update-head-ok . HEAD:heads/main", {"WG305"}),
        ("git fetch -q --update-head-ok file://{MAIN} wt-w:main", {"WG305"}),
        ("git fetch -q --update-head-ok to-main wt-w:main", {"WG305"}),
        ("git fetch -q --update-head-ok . 'refs/heads/wt-w*:refs/heads/main*'", {"WG305"}),
        ("git fetch -q --update-head-ok --refmap='+refs/heads/wt-w:refs/heads/main' . wt-w", {"WG305"}),
        ("git -c remote.me.url=. -c remote.me.fetch=+refs/heads/wt-w:refs/heads/main fetch -q --update-head-ok me", {"WG305"}),
        ("git fetch -qu . HEAD:main", {"WG305"}),
        ("git fetch origin", "pass"),
        ("git fetch -q . main:refs/remotes/local/main", "pass"),
        ("git fetch --prune --tags origin", "pass"),
    ],
    "A3 fast-import, send-pack, receive.deny*": [
        ("printf 'reset refs/heads/main\\nfrom refs/heads/wt-w\\n\\n' | git fast-import --quiet --force", {"WG305"}),
        ("git send-pack --receive-pack='git -c receive.denyCurrentBranch=ignore receive-pack' . HEAD:refs/heads/main", {"WG305"}),
        ("git -c receive.denyCurrentBranch=ignore push -q to-main HEAD:main", {"WG305"}),
        ("git -c receive.denyDeletes=false push -q origin :x", {"WG305"}),
        ("git receive-pack .", {"WG305"}),
        ("git fast-export HEAD > /tmp/export.fi", "pass"),
        ("git push -q origin HEAD:refs/heads/wt-w", "pass"),
        ("git -c push.default=current push -q origin", "pass"),
    ],
    "A4 git init in a checkout": [
        ("git init -q --shared=all", {"WG305"}),
        ("mkdir -p /tmp/t/hooks && printf '#!/bin/sh\\n' > /tmp/t/hooks/post-commit && git init -q --template=/tmp/t", {"WG305"}),
        ("git init -q --bare", {"WG305"}),
        ("git -c init.templateDir=/tmp/t init -q", {"WG305"}),
        ("GIT_TEMPLATE_DIR=/tmp/t git init -q", {"WG305"}),
        ("git init -q --separate-git-dir=/tmp/gd", {"WG305"}),
        ("git -C {MAIN} init -q --shared=group", {"WG305", "WG401"}),  # WG401: the write table's row for init too
        ("git init -q --shared {SIB}", {"WG305", "WG401"}),
        # WG401 as for `git -C {MAIN} init` above: the git dir GIT_DIR names is init's target, and real git 2.39
        # rewrites {MAIN}/.git/config here (core.sharedRepository), a write inside the main checkout.
        ("GIT_DIR={MAIN}/.git git init -q --shared=group /tmp/x", {"WG305", "WG401"}),
        ("git init -q --shared=all $DIR", {"WG305", "WG403"}),
        # git's own behaviour here depends on files the agent writes in W (docs/decisions.md "Where `git init`
        # writes"): with these two files, real git 2.39 rewrote {MAIN}/.git/config (core.bare = true among it).
        ("printf 'ref: refs/heads/x\\n' > HEAD && echo {MAIN}/.git > commondir && git init -q --bare --shared=all", {"WG305"}),
        ("git init -q --shared=all sub", {"WG305"}),  # a sub/.git written before may name {MAIN}/.git
        # Re-initialising without options only adds missing template files ("safe", git's manual): a real
        # transcript runs this in its working directory.
        ("git init && git add test.txt && git status", "pass"),
        ("git init -q -b main", "pass"),
        ("git init -q /tmp/fresh-repo --shared=all", "pass"),  # outside every checkout: a repository of its own
        ("cd /tmp && git init -q scratch && cd scratch && git status", "pass"),  # /tmp is allow-listed
        ("git -C /tmp init -q scratch && git -C /tmp/scratch commit -q --allow-empty -m x", "pass"),
        ("git clone -q /tmp/r sub && git -C sub reset -q --hard", "pass"),  # the clone is a repository of its own
        ("git init --help", "pass"),
    ],
    "B5 git's path operands": [
        ("git interpret-trailers --in-place --trailer 'x: y' ../../../notes.txt", {"WG406"}),
        ("git interpret-trailers --in-place --trailer 'x: y' {MAIN}/notes.txt", {"WG406"}),
        ("git bugreport -o {MAIN}", {"WG401", "WG406"}),
        ("git diagnose -o {MAIN}", {"WG401", "WG406"}),
        ("git mailinfo {MAIN}/m {MAIN}/p < /tmp/change.diff", {"WG406"}),
        ("git mailsplit -o{MAIN} m", {"WG406"}),
        ("git rev-parse HEAD | git pack-objects -q {MAIN}/pk", {"WG406"}),
        ("git read-tree --index-output={MAIN}/x HEAD", {"WG401", "WG406"}),
        ("git credential-store --file {MAIN}/x store < /dev/null", {"WG406"}),
        ("git fast-export --export-marks={MAIN}/x HEAD > /dev/null", {"WG401", "WG406"}),
        ("git config --file {MAIN}/x a.b c", {"WG305", "WG406"}),  # WG305: the config rule reads any write as shared
        ("git -C {MAIN} interpret-trailers --in-place notes.txt", {"WG406"}),
        ("git interpret-trailers --in-place --trailer 'x: y' notes.txt", "pass"),
        ("git bugreport -o /tmp/report", "pass"),
        ("git -C {MAIN} log --oneline -1 -- src/app.py", "pass"),
        ("git -C {MAIN} show HEAD:README.md > /tmp/r.md", "pass"),
        ("git -C {MAIN} config --get remote.origin.url", "pass"),
        ("git -C {MAIN} blame README.md", "pass"),
        ("git -C {MAIN} grep -n app", "pass"),
        ("git diff --no-index {MAIN}/README.md README.md", "pass"),
        ("git log -p -- ../../../README.md", "pass"),
        ("git add src/app.py && git commit -qm 'x'", "pass"),
        ("git commit -F /tmp/msg.txt", "pass"),
        ("git hash-object {MAIN}/README.md", "pass"),
        ("git read-tree --index-output=/tmp/idx HEAD", "pass"),
    ],
    "B6 code git runs with its own arguments": [
        ("GIT_EXTERNAL_DIFF=rm git -C {MAIN} diff HEAD~1", {"WG401"}),
        ("git -C {MAIN} -c diff.external=rm diff HEAD~1", {"WG401"}),
        ("git -C {MAIN} difftool --no-prompt -x tee HEAD~1", {"WG401"}),
        ("GIT_EXTERNAL_DIFF=rm git diff --no-index {MAIN}/notes.txt README.md", {"WG403"}),
        ("GIT_SSH_COMMAND=rm git -C {MAIN} ls-remote notes.txt:x", {"WG401"}),
        ("GIT_SSH=rm git ls-remote host:x", {"WG403"}),
        ("git -C {MAIN} grep -Orm app", {"WG401"}),
        ("git ls-remote --upload-pack=rm {MAIN}/notes.txt", {"WG403"}),
        ("git -c diff.md.textconv=rm diff", {"WG403"}),
        ("GIT_EXTERNAL_DIFF=cat git -C {MAIN} diff HEAD~1", "pass"),
        ("GIT_EXTERNAL_DIFF=difft git diff", "pass"),
        ("GIT_SSH_COMMAND='ssh -i ~/.ssh/id_ed25519 -o IdentitiesOnly=yes' git fetch origin", "pass"),
        ("git -c core.sshCommand='ssh -F /dev/null' fetch origin", "pass"),
        ("git -C {MAIN} difftool --no-prompt -x 'diff -u' HEAD~1", "pass"),
        ("GIT_PAGER=cat git -C {MAIN} log -1", "pass"),
        ("GIT_EDITOR=true git commit --amend", "pass"),
        ("GIT_SEQUENCE_EDITOR=: git rebase -i --autosquash HEAD~2", "pass"),  # a todo editor that writes is WG404 (review 22)
        ("git -c diff.md.textconv=cat diff", "pass"),
    ],
    "B7 apply --unsafe-paths": [
        ("git apply --unsafe-paths x.diff", {"WG403"}),
        ("git apply --unsafe-paths --directory=src x.diff", {"WG403"}),
        ("git apply x.diff", "pass"),
        ("git apply --check --stat x.diff", "pass"),
        ("git apply --index x.diff", "pass"),
    ],
    "B8 ext:: through config": [
        ("git -c protocol.ext.allow=always -c 'url.ext::sh -c touch% {MAIN}/pwnA.insteadOf=zz' ls-remote zz", {"WG404"}),
        ("git -c protocol.ext.allow=always -c 'remote.zz.url=ext::sh -c touch% {MAIN}/pwnB' ls-remote zz", {"WG404"}),
        ("git -c 'remote.zz.url=ext::sh -c touch% {MAIN}/pwnB' ls-remote zz", {"WG404"}),
        ("git -c 'url.ext::sh -c touch% {MAIN}/pwnA.insteadOf=zz' ls-remote zz", {"WG404"}),
        ("git -c protocol.allow=always ls-remote zz", {"WG404"}),
        ("GIT_ALLOW_PROTOCOL=ext:file git ls-remote zz", {"WG404"}),
        ("GIT_ALLOW_PROTOCOL=https:ssh git fetch origin", "pass"),
        ("git -c protocol.file.allow=always submodule update --init", "pass"),
        ("git -c protocol.ext.allow=never ls-remote origin", "pass"),
        ("git -c url.https://github.com/.insteadOf=gh: ls-remote gh:o/r", "pass"),
    ],
    "C13 a symlink staged by hand": [
        ("printf ../../.. | git hash-object -w --stdin >/dev/null && git update-index --add --cacheinfo 120000,a8a4f8c2127bf74725cf14800dde7ea8aeec5c5c,m && git checkout -- m && touch m/pwnT", {"WG403"}),
        ("git update-index --add --cacheinfo 120000 a8a4f8c2127bf74725cf14800dde7ea8aeec5c5c m", {"WG403"}),
        ("git update-index --add --cacheinfo $MODE,a8a4f8c2127bf74725cf14800dde7ea8aeec5c5c,m", {"WG403"}),
        ("git update-index --index-info < /tmp/entries", {"WG403"}),
        ("git update-index --add --cacheinfo 100644,a8a4f8c2127bf74725cf14800dde7ea8aeec5c5c,m", "pass"),
        ("git update-index --chmod=+x run.sh", "pass"),
        ("git update-index --assume-unchanged README.md", "pass"),
    ],
}

CASES = [(group, command, expected) for group, rows in ROWS.items() for command, expected in rows]


@pytest.mark.parametrize("group,command,expected", CASES, ids=[f"{g.split()[0]}:{plain_id(c, 50)}" for g, c, _ in CASES])
def test_review10_git(world: Repo, group: str, command: str, expected) -> None:  # noqa: F811
    assert_row(world, command, expected)


def test_a_git_file_naming_another_checkouts_git_dir_moves_that_checkout(world: Repo) -> None:  # noqa: F811
    """Written in an earlier call (no write in this one to see): the `.git` file is read at check time, and the
    checkout whose git dir it names is the one git changes."""
    sub = world.worktree / "sub"
    sub.mkdir()
    (sub / ".git").write_text(f"gitdir: {world.main}/.git\n")
    verdict = bash(world, "git -C sub reset -q --hard HEAD~1")
    assert {v.code for v in verdict.violations} == {"WG302"}
    assert bash(world, "git -C sub log -1").decision == "pass"


def test_a_code_string_with_arguments_suggests_the_checkout(world: Repo) -> None:  # noqa: F811
    (violation,) = bash(world, "GIT_EXTERNAL_DIFF=rm git -C {MAIN} diff HEAD~1").violations
    assert violation.code == "WG401" and violation.shared_root == str(world.main)
