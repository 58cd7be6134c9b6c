"""The git rule's edges from its mutation run (issue 13 phase 9, `rules/git`), each pinned by exact codes.

The rows run in this process through the engine with the real repository of `tests/test_bash_rules.py` (W a
linked worktree inside the main checkout {MAIN}), so that mutmut sees them; `writes_repository` (the
shared-workspace worker's WG703 table) is asked directly for the git step the walker hands the rules.
"""

from __future__ import annotations

import pytest

from tests.helpers import Repo, plain_id, subagent_payload
from tests.test_bash_rules import bash, fill, world  # noqa: F401  (the fixture)


def git_step(repo: Repo, command: str):
    """The last `git` step the walker hands the rules for `command`."""
    from worktree_guard.engine import build_context
    from worktree_guard.plugins import plugin_manager
    from worktree_guard.rules.bash import analyse
    from worktree_guard.runtimes.claude_code import to_tool_call

    call = to_tool_call(subagent_payload(repo, "Bash", {"command": command}))
    ctx = build_context(call, pm=plugin_manager())
    seen = []
    analyse(command, ctx, on_command=lambda step: seen.append(step) or [], on_redirect=lambda r: [])
    return [s for s in seen if s.name == "git"][-1]


# --- writes_repository: what a shared-workspace worker may not run (WG703) -------------------------------------

WRITES_REPOSITORY = [
    ("git status", False),
    ("git commit -m x", True),
    ('git "$S"', True),  # the subcommand only known at run time
    ("git", False),  # no subcommand: git prints its usage
    ("git config user.name", False),
    ("git config user.name x", True),
    ("git config --get user.name", False),
    ("git config get user.name", False),
    ("git config --unset user.name", True),
    ("git config unset user.name", True),
    ("git branch", False),
    ("git branch -a", False),
    ("git branch x", True),
    ("git branch --list x", False),
    ("git branch -D x", True),
    ("git branch -u origin/x", True),
    ("git branch --set-upstream-to origin/x", True),
    ("git tag", False),
    ("git tag v1", True),
    ("git tag -l v1", False),
    ("git tag -d v1", True),
    ("git tag -a -m x", True),
    # a listing option beside the operands leaves the writing options to decide
    ("git tag -n v1", False),
    ("git tag -n -d v1", True),
    ("git tag -n --delete v1", True),
    ("git tag -n -f v1", True),
    ("git tag -n --force v1", True),
    ("git tag -n -a v1", True),
    ("git tag -n -s v1", True),
    ("git tag -n -m x v1", True),
    ("git branch --list x", False),
    ("git branch --list -D x", True),
    ("git branch --list -m x", True),
    ("git branch --list -u o/x", True),
    ("git branch --list --set-upstream-to o/x", True),
    ("git symbolic-ref HEAD", False),
    ("git symbolic-ref HEAD refs/heads/x", True),
    ("git symbolic-ref -d HEAD", True),
    ("git symbolic-ref --delete HEAD", True),
    ("git reflog", False),
    ("git reflog show", False),
    ("git reflog expire --all", True),
    ("git reflog delete HEAD@{1}", True),
    ("git hash-object f", False),
    ("git hash-object -w f", True),
    ("git notes", False),
    ("git notes list", False),
    ("git notes show", False),
    ("git notes add -m x", True),
    ("git remote", False),
    ("git remote show origin", False),
    ("git remote get-url origin", False),
    ("git remote add o u", True),
    ("git worktree list", False),
    ("git worktree add ../x", True),
    ("git fetch", True),
    ("git push", True),
    ("git gc", True),
    ("git log", False),
    ("git rev-parse HEAD", False),
]


@pytest.mark.parametrize(("command", "expected"), WRITES_REPOSITORY, ids=[plain_id(c, 50) for c, _ in WRITES_REPOSITORY])
def test_writes_repository_reads_each_subcommand_as_the_table_says(world: Repo, command: str, expected: bool) -> None:
    from worktree_guard.rules.git import writes_repository
    from worktree_guard.shell.git_call import read_git_call

    assert writes_repository(read_git_call(git_step(world, command))) is expected, command


# --- the rule's records: (command, every code of the verdict, the git rule's records) ---------------------------
# A record is (code, message, path fields, the text its span covers; "ALL" = the whole command). {MAIN} is the main
# checkout, {SIB} a sibling agent's worktree, {OUT} a worktree outside the main checkout, {W} this agent's
# worktree; `feature` is a branch no checkout has checked out (the `world` fixture), `main`, `outside` and the
# sibling's `worktree-agent-afedcba0987654321` are checked out elsewhere.

EDGE_RECORDS: list[tuple[str, set, list]] = [
    ('git -C {MAIN} switch -h', set(), []),
    ('git -C {MAIN} checkout', set(), []),
    ('git -C {MAIN} checkout --detach', {'WG301'}, [('WG301', "`git checkout` would change the branch of the shared checkout {MAIN}; switch branches only in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} checkout --orphan x', {'WG301'}, [('WG301', "`git checkout` would change the branch of the shared checkout {MAIN}; switch branches only in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} checkout -B x', {'WG301'}, [('WG301', "`git checkout` would change the branch of the shared checkout {MAIN}; switch branches only in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} checkout x -- a', {'WG302'}, [('WG302', '`git checkout` would rewrite or discard files of the shared checkout {MAIN}; run it in {W}.', {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} checkout -h', set(), []),
    ('git -C {MAIN} symbolic-ref HEAD', set(), []),
    ('git -C {MAIN} update-ref refs/heads/x abc', set(), []),
    ('git -C {MAIN} $X', {'WG302'}, [('WG302', "worktree-guard cannot tell whether this git command changes the shared checkout {MAIN}; run it in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} status', set(), []),
    ('git -C {MAIN} -C {MAIN} reset --hard', {'WG302'}, [('WG302', "`git reset` would change the working tree, index or HEAD of the shared checkout {MAIN}; run it in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} reset --hard && git -C {MAIN} reset --hard', {'WG302'}, [('WG302', "`git reset` would change the working tree, index or HEAD of the shared checkout {MAIN}; run it in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'git -C {MAIN} reset --hard'), ('WG302', "`git reset` would change the working tree, index or HEAD of the shared checkout {MAIN}; run it in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'git -C {MAIN} reset --hard')]),
    ('git -C {MAIN}/src reset --hard', {'WG302'}, [('WG302', "`git reset` would change the working tree, index or HEAD of the shared checkout {MAIN}; run it in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git --git-dir={MAIN}/.git reset --soft HEAD~1', {'WG302'}, [('WG302', "`git reset` would change the working tree, index or HEAD of the shared checkout {MAIN}; run it in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {SIB} commit -m x', {'WG302'}, [('WG302', "`git commit` would change the working tree, index or HEAD of the shared checkout {SIB}; run it in this agent's worktree {W}.", {'path': '{SIB}', 'resolved': '{SIB}', 'shared_root': '{SIB}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {SIB} $X', {'WG302'}, [('WG302', "worktree-guard cannot tell whether this git command changes the shared checkout {SIB}; run it in this agent's worktree {W}.", {'path': '{SIB}', 'resolved': '{SIB}', 'shared_root': '{SIB}', 'suggestion': '{W}'}, 'ALL')]),
    ('git clone -c alias.x=y /tmp/r /tmp/d', {'WG305'}, [('WG305', '`git -c alias.x=…` runs commands worktree-guard cannot see; leave it out.', {}, 'ALL')]),
    ('git clone --config=core.hooksPath=/tmp/h /tmp/r /tmp/d', {'WG305'}, [('WG305', '`git -c core.hookspath=…` runs hooks worktree-guard cannot see; leave it out.', {}, 'ALL')]),
    ('git clone --config $X /tmp/r /tmp/d', {'WG403', 'WG404'}, [('WG404', '`git clone -c` is given config only known at run time ($X), which may name a command git runs; run git without it.', {}, 'ALL'), ('WG404', '`git clone` is given $X, only known at run time, which may be -u or --upload-pack and run a command; run git without it.', {}, 'ALL')]),  # WG403 (the writes rule's): $X unquoted: split, it may be --separate-git-dir=… (stop 30)
    ('git -c Core.HooksPath=/tmp/h status', {'WG305'}, [('WG305', '`git -c core.hookspath=…` runs hooks worktree-guard cannot see; leave it out.', {}, 'ALL')]),
    ('git -c receive.denyNonFastForwards=false -c alias.y=z status', {'WG305'}, [('WG305', '`git -c receive.denynonfastforwards=…` lets a push update a branch another checkout has checked out; leave it out.', {}, 'ALL'), ('WG305', '`git -c alias.y=…` runs commands worktree-guard cannot see; leave it out.', {}, 'ALL')]),
    ('git -c user.name=x status', set(), []),
    ('git push -u origin x', set(), []),
    ('git receive-pack .', {'WG305'}, [('WG305', '`git receive-pack` updates any ref a client sends it; ask the user.', {}, 'ALL')]),
    ('git switch --ignore-other-worktrees main', {'WG305'}, [('WG305', '`--ignore-other-worktrees` would check out a branch another worktree has checked out; create a new branch in {W} instead.', {}, 'ALL')]),
    ('git checkout --ignore-other-worktrees -b y', {'WG305'}, [('WG305', '`--ignore-other-worktrees` would check out a branch another worktree has checked out; create a new branch in {W} instead.', {}, 'ALL')]),
    ('git branch --ignore-other-worktrees main', set(), []),
    ('git branch -m main x', {'WG305'}, [('WG305', '`git branch` would move, rename, overwrite or delete `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git branch -M x main', {'WG305'}, [('WG305', '`git branch` would move, rename, overwrite or delete `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git branch -c main x', {'WG305'}, [('WG305', '`git branch` would move, rename, overwrite or delete `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git branch -d feature', set(), []),
    ('git branch -D worktree-agent-afedcba0987654321', {'WG305'}, [('WG305', '`git branch` would move, rename, overwrite or delete `worktree-agent-afedcba0987654321`, the branch checked out in {SIB}.', {}, 'ALL')]),
    ('git branch -f refs/heads/main', {'WG305'}, [('WG305', '`git branch` would move, rename, overwrite or delete `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git branch -d +main', {'WG305'}, [('WG305', '`git branch` would move, rename, overwrite or delete `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git branch x main', set(), []),
    ('git branch -D feature $X', {'WG305'}, [('WG305', '`git branch` with a branch name only known at run time could move a branch another checkout uses.', {}, 'ALL')]),
    ('git update-ref refs/heads/feature abc', set(), []),
    ('git update-ref main abc', set(), []),
    ('git update-ref -d refs/heads/main', {'WG305'}, [('WG305', '`git update-ref` would move `refs/heads/main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git update-ref refs/heads/main $X', {'WG305'}, [('WG305', '`git update-ref` with refs only known at run time could move a branch another checkout uses.', {}, 'ALL')]),
    ('git update-ref $X abc', {'WG305'}, [('WG305', '`git update-ref` with refs only known at run time could move a branch another checkout uses.', {}, 'ALL')]),
    ('git update-ref --stdin', {'WG305'}, [('WG305', '`git update-ref` with refs only known at run time could move a branch another checkout uses.', {}, 'ALL')]),
    ('git push . HEAD:refs/heads/main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push . +HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push . HEAD:feature', set(), []),
    ('git push . main', set(), []),
    ('git push . HEAD:main HEAD:outside', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL'), ('WG305', '`git push` would move `outside`, the branch checked out in {OUT}.', {}, 'ALL')]),
    ('git push {MAIN} HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push {MAIN}/.git HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push {SIB} HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push {W} HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push {W}/src/.. HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push ./ HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push ../../.. HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push ../../../ HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push {MAIN}x HEAD:main', set(), []),
    ('git push /tmp/x HEAD:main', set(), []),
    ('git push origin HEAD:main', set(), []),
    # a remote only known at run time may be this repository (review 24): refused when its refspec moves a checked-out branch
    ('git push $R HEAD:main', {'WG305', 'WG404'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL'), ('WG404', '`git push` is given $R, only known at run time, which may be --receive-pack or --exec and run a command; run git without it.', {}, 'ALL')]),
    ('git push {MAIN} $X', {'WG305', 'WG404'}, [('WG305', '`git push` into this repository with a refspec or option only known at run time could move a checked-out branch.', {}, 'ALL'), ('WG404', '`git push` is given $X, only known at run time, which may be --receive-pack or --exec and run a command; run git without it.', {}, 'ALL')]),
    ('git push {MAIN}', set(), []),
    # git runs somewhere unknown: a relative remote may be this repository (review 24)
    ('cd $X; git push ../.. HEAD:main', {'WG202', 'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'git push ../.. HEAD:main')]),
    ('git fetch . x:main', {'WG305'}, [('WG305', '`git fetch` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git fetch . x:worktree-agent-afedcba0987654321 $Y', {'WG305'}, [('WG305', '`git fetch` would move `worktree-agent-afedcba0987654321`, the branch checked out in {SIB}.', {}, 'ALL'), ('WG305', '`git fetch` into this repository with a refspec or option only known at run time could move a checked-out branch.', {}, 'ALL')]),
    ('git fetch {MAIN} main:main', {'WG305'}, [('WG305', '`git fetch` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    # pull fetches with --update-head-ok: a refspec into a checked-out branch moves it (phase 9's finding, fixed)
    ('git pull . x:main', {'WG305'}, [('WG305', '`git pull` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git remote', set(), []),
    ('git remote -v', set(), []),
    ('git remote add o u', {'WG305'}, [('WG305', '`git remote add` writes the repository config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git remote set-url o u', {'WG305'}, [('WG305', '`git remote set-url` writes the repository config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git remote rename o p', {'WG305'}, [('WG305', '`git remote rename` writes the repository config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git remote remove o', {'WG305'}, [('WG305', '`git remote remove` writes the repository config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git remote rm o', {'WG305'}, [('WG305', '`git remote rm` writes the repository config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git remote set-head o -a', {'WG305'}, [('WG305', '`git remote set-head` writes the repository config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git remote set-branches o x', {'WG305'}, [('WG305', '`git remote set-branches` writes the repository config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git remote prune o', set(), []),
    ('git branch --unset-upstream', {'WG305'}, [('WG305', '`git branch` would write the upstream or description into the repository config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git branch --edit-description', {'WG305'}, [('WG305', '`git branch` would write the upstream or description into the repository config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git branch --set-upstream-to=origin/x', {'WG305'}, [('WG305', '`git branch` would write the upstream or description into the repository config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git maintenance register', {'WG305'}, [('WG305', '`git maintenance register` writes config for this repository; ask the user.', {}, 'ALL')]),
    ('git maintenance unregister', {'WG305'}, [('WG305', '`git maintenance unregister` writes config for this repository; ask the user.', {}, 'ALL')]),
    ('git maintenance stop', {'WG305'}, [('WG305', '`git maintenance stop` writes config for this repository; ask the user.', {}, 'ALL')]),
    ('git maintenance run', set(), []),
    ('git maintenance', set(), []),
    ('git sparse-checkout add a', {'WG305'}, [('WG305', '`git sparse-checkout` would turn on per-worktree config in the config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git sparse-checkout init', {'WG305'}, [('WG305', '`git sparse-checkout` would turn on per-worktree config in the config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git sparse-checkout reapply', {'WG305'}, [('WG305', '`git sparse-checkout` would turn on per-worktree config in the config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git sparse-checkout disable', {'WG305'}, [('WG305', '`git sparse-checkout` would turn on per-worktree config in the config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git sparse-checkout list', set(), []),
    ('git sparse-checkout', set(), []),
    ('git notes', set(), []),
    ('git notes list', set(), []),
    ('git notes show', set(), []),
    ('git notes get-ref', set(), []),
    ('git notes append -m x', {'WG305'}, [('WG305', '`git notes append` writes refs/notes, which every worktree shares; ask the user.', {}, 'ALL')]),
    ('git replace', set(), []),
    ('git replace -l', set(), []),
    ('git replace --list x', set(), []),
    ('git replace -d x', {'WG305'}, [('WG305', '`git replace` writes refs/replace, which changes history for every worktree; ask the user.', {}, 'ALL')]),
    ('git symbolic-ref -d HEAD refs/heads/main', set(), []),
    ('git symbolic-ref HEAD $X', {'WG305'}, [('WG305', '`git symbolic-ref` would point a ref at `?`, the branch another checkout has checked out.', {}, 'ALL')]),
    ('git symbolic-ref $X refs/heads/x', {'WG305'}, [('WG305', '`git symbolic-ref` would point a ref at `?`, the branch another checkout has checked out.', {}, 'ALL')]),
    ('git symbolic-ref refs/heads/main refs/heads/x', {'WG305'}, [('WG305', '`git symbolic-ref` would point a ref at `main`, the branch another checkout has checked out.', {}, 'ALL')]),
    ('git symbolic-ref refs/heads/x refs/heads/feature', set(), []),
    ('git symbolic-ref HEAD refs/heads/worktree-agent-afedcba0987654321', {'WG305'}, [('WG305', '`git symbolic-ref` would point a ref at `worktree-agent-afedcba0987654321`, the branch another checkout has checked out.', {}, 'ALL')]),
    ('git symbolic-ref HEAD', set(), []),
    ('git config --worktree x y', set(), []),
    ('git -C {MAIN} config --worktree x y', {'WG305'}, [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'ALL')]),
    ('git config x', set(), []),
    ('git config --list', set(), []),
    ('git config -l', set(), []),
    ('git config --get-regexp x', set(), []),
    ('git config --get-all x', set(), []),
    ('git config --get-urlmatch x u', set(), []),
    ('git config --get-color x', set(), []),
    ('git config --get-colorbool x', set(), []),
    ('git config list', set(), []),
    ('git config get x', set(), []),
    ('git config --add x y', {'WG305'}, [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'ALL')]),
    ('git config --replace-all x y', {'WG305'}, [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'ALL')]),
    ('git config --rename-section a b', {'WG305'}, [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'ALL')]),
    ('git config --remove-section a', {'WG305'}, [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'ALL')]),
    ('git config -e', {'WG305'}, [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'ALL')]),
    ('git config --edit', {'WG305'}, [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'ALL')]),
    ('git config --unset x', {'WG305'}, [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'ALL')]),
    ('git config --unset-all x', {'WG305'}, [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'ALL')]),
    ('git config set x y', {'WG305'}, [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'ALL')]),
    ('git config unset x', {'WG305'}, [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'ALL')]),
    ('git config rename-section a b', {'WG305'}, [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'ALL')]),
    ('git config remove-section a', {'WG305'}, [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'ALL')]),
    ('git config edit', {'WG305'}, [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'ALL')]),
    ('git worktree add -b x ../y', {'WG304'}, [('WG304', "`git worktree add` would touch {MAIN}/.claude/worktrees/y, outside this agent's worktree {W}.", {'path': '../y', 'resolved': '{MAIN}/.claude/worktrees/y'}, '../y')]),
    ('git worktree add -B x /tmp/y', {'WG304'}, [('WG304', "`git worktree add` would touch /tmp/y, outside this agent's worktree {W}.", {'path': '/tmp/y', 'resolved': '/tmp/y'}, '/tmp/y')]),
    ('git worktree add /tmp/y main', {'WG304'}, [('WG304', "`git worktree add` would touch /tmp/y, outside this agent's worktree {W}.", {'path': '/tmp/y', 'resolved': '/tmp/y'}, '/tmp/y')]),
    ('git worktree add --reason r ../y', {'WG304'}, [('WG304', "`git worktree add` would touch {MAIN}/.claude/worktrees/y, outside this agent's worktree {W}.", {'path': '../y', 'resolved': '{MAIN}/.claude/worktrees/y'}, '../y')]),
    ('git worktree lock --reason r {SIB}', {'WG304'}, [('WG304', "`git worktree lock` would touch {SIB}, outside this agent's worktree {W}.", {'path': '{SIB}', 'resolved': '{SIB}'}, '{SIB}')]),
    ('git worktree lock {W}', set(), []),
    ('git worktree move /tmp/a {W}', {'WG304'}, [('WG304', "`git worktree move` would touch /tmp/a, outside this agent's worktree {W}.", {'path': '/tmp/a', 'resolved': '/tmp/a'}, '/tmp/a')]),
    ('git worktree move {W} /tmp/a', {'WG304'}, [('WG304', "`git worktree move` would take away this agent's own worktree {W}; leave that to the user.", {'path': '{W}', 'resolved': '{W}'}, '{W}'), ('WG304', "`git worktree move` would touch /tmp/a, outside this agent's worktree {W}.", {'path': '/tmp/a', 'resolved': '/tmp/a'}, '/tmp/a')]),
    ('git worktree remove {W}', {'WG304'}, [('WG304', "`git worktree remove` would take away this agent's own worktree {W}; leave that to the user.", {'path': '{W}', 'resolved': '{W}'}, '{W}')]),
    ('git worktree remove {W}/sub', set(), []),
    ('git worktree remove -f {SIB}', {'WG304'}, [('WG304', "`git worktree remove` would touch {SIB}, outside this agent's worktree {W}.", {'path': '{SIB}', 'resolved': '{SIB}'}, '{SIB}')]),
    ('git worktree remove', set(), []),
    ('git worktree list', set(), []),
    ('git worktree $X', set(), []),
    ('git worktree unlock $X', {'WG304'}, [('WG304', '`git worktree unlock` names a path only known at run time.', {}, '$X')]),
    ('git worktree repair {SIB} {OUT}', {'WG304'}, [('WG304', "`git worktree repair` would touch {SIB}, outside this agent's worktree {W}.", {'path': '{SIB}', 'resolved': '{SIB}'}, '{SIB}'), ('WG304', "`git worktree repair` would touch {OUT}, outside this agent's worktree {W}.", {'path': '{OUT}', 'resolved': '{OUT}'}, '{OUT}')]),
    ('cd $X; git worktree add y', {'WG304', 'WG202'}, [('WG304', '`git worktree add` names a path only known at run time.', {}, 'y')]),
    ('cd $X; git worktree add /tmp/y', {'WG304', 'WG202'}, [('WG304', "`git worktree add` would touch /tmp/y, outside this agent's worktree {W}.", {'path': '/tmp/y', 'resolved': '/tmp/y'}, '/tmp/y')]),
    ('git -C src worktree add ../../x', {'WG304'}, [('WG304', "`git worktree add` would touch {MAIN}/.claude/worktrees/x, outside this agent's worktree {W}.", {'path': '../../x', 'resolved': '{MAIN}/.claude/worktrees/x'}, '../../x')]),
    ('git -C src worktree add ../x', set(), []),
    ('git init --bare -h', set(), []),
    ('git init --help', set(), []),
    ('cd $X; git init --bare sub', {'WG305', 'WG403', 'WG202'}, [('WG305', '`git init` with --bare in a directory only known at run time would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'git init --bare sub')]),
    ('cd $X; git init --bare /tmp/q', {'WG202'}, []),
    ('git init --bare $X', {'WG305', 'WG403'}, [('WG305', '`git init` with --bare in a directory only known at run time would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('git init -q --quiet -b x --initial-branch=y', set(), []),
    ('GIT_CONFIG_PARAMETERS="\'a=b\'" git init', {'WG305'}, [('WG305', '`git init` with $GIT_CONFIG_PARAMETERS in {W} would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('GIT_CONFIG_COUNT=0 git init', {'WG305'}, [('WG305', '`git init` with $GIT_CONFIG_COUNT in {W} would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('GIT_TEMPLATE_DIR=/tmp/t git init', {'WG305'}, [('WG305', '`git init` with $GIT_TEMPLATE_DIR in {W} would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('git -c x=y init', {'WG305'}, [('WG305', '`git init` with -c in {W} would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('git --config-env=x=Y init', {'WG305'}, [('WG305', '`git init` with -c in {W} would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('git --git-dir={MAIN}/.git init --bare /tmp/x', {'WG305', 'WG401'}, [('WG305', '`git init` with --bare in {MAIN}/.git would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('git --git-dir=/tmp/gd init --bare {MAIN}', {'WG305', 'WG401'}, [('WG305', '`git init` with --bare in {MAIN} would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('git init --bare {W}/src', {'WG305'}, [('WG305', '`git init` with --bare in {W}/src would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('git init --bare src', {'WG305'}, [('WG305', '`git init` with --bare in {W}/src would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('git -C /tmp init --bare src', set(), []),
    ('git init --bare /tmp/zz', set(), []),
    ('git init --bare {OUT}', {'WG305', 'WG401'}, [('WG305', '`git init` with --bare in {OUT} would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('git init --bare {MAIN}/.git', {'WG305', 'WG401'}, [('WG305', '`git init` with --bare in {MAIN}/.git would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('git init --bare {MAIN}', {'WG305', 'WG401'}, [('WG305', '`git init` with --bare in {MAIN} would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('git init --bare {MAIN}x', set(), []),
    ('git init --bare {MAIN}/', {'WG305', 'WG401'}, [('WG305', '`git init` with --bare in {MAIN} would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('git init --bare --shared', {'WG305'}, [('WG305', '`git init` with --bare, --shared in {W} would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('git worktree list /tmp/x', set(), []),
    ('git worktree add -f ../y', {'WG304'}, [('WG304', "`git worktree add` would touch {MAIN}/.claude/worktrees/y, outside this agent's worktree {W}.", {'path': '../y', 'resolved': '{MAIN}/.claude/worktrees/y'}, '../y')]),
    ('git worktree add src/y ../../x', set(), []),
    ('git $A $B', {'WG303'}, [('WG303', "worktree-guard cannot tell which checkout this git command acts on (its words $A $B are only known at run time and may hold git's options such as -C); run git with literal words inside {W}.", {}, 'ALL')]),
    ('echo x | xargs git', {'WG303'}, [('WG303', "worktree-guard cannot tell which checkout this git command acts on (its words \"$(xargs input)\" are only known at run time and may hold git's options such as -C); run git with literal words inside {W}.", {}, 'xargs git')]),
    ('xargs git status', set(), []),
    ('git -C {MAIN} "$@"', {'WG302'}, [('WG302', "worktree-guard cannot tell whether this git command changes the shared checkout {MAIN}; run it in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} -C $D commit', {'WG303'}, [('WG303', 'worktree-guard cannot tell which checkout this git command acts on (-C $D is only known at run time); run git with literal paths inside {W}.', {}, 'ALL')]),
    ("mkdir sub && echo 'gitdir: {MAIN}/.git' > sub/.git && git -C sub reset -q --hard", {'WG303', 'WG103'}, [('WG303', 'worktree-guard cannot tell which checkout this git command acts on (git runs in {W}/sub, which this command writes first, so a `.git` there may send it to another checkout); run git with literal paths inside {W}.', {}, 'git -C sub reset -q --hard')]),
    ('git -C $D -C $E commit', {'WG303'}, [('WG303', 'worktree-guard cannot tell which checkout this git command acts on (-C $D is only known at run time; -C $E is only known at run time); run git with literal paths inside {W}.', {}, 'ALL')]),
    ('git worktree add -f -b x ../y', {'WG304'}, [('WG304', "`git worktree add` would touch {MAIN}/.claude/worktrees/y, outside this agent's worktree {W}.", {'path': '../y', 'resolved': '{MAIN}/.claude/worktrees/y'}, '../y')]),
    ('git worktree add -f --reason r ../y', {'WG304'}, [('WG304', "`git worktree add` would touch {MAIN}/.claude/worktrees/y, outside this agent's worktree {W}.", {'path': '../y', 'resolved': '{MAIN}/.claude/worktrees/y'}, '../y')]),
    ('git worktree repair $X {SIB}', {'WG304'}, [('WG304', '`git worktree repair` names a path only known at run time.', {}, '$X'), ('WG304', "`git worktree repair` would touch {SIB}, outside this agent's worktree {W}.", {'path': '{SIB}', 'resolved': '{SIB}'}, '{SIB}')]),
    ('git push {MAIN}/src HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push {SIB}/src HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push {MAIN}/.git/worktrees HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git worktree lock {W}/.git', set(), []),
    ('git branch -D Xmain', set(), []),
    ('git -C {MAIN} checkout x --pathspec-from-file=f', {'WG302'}, [('WG302', '`git checkout` would rewrite or discard files of the shared checkout {MAIN}; run it in {W}.', {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('GIT_TEMPLATE_DIR=$T git init', {'WG305'}, [('WG305', '`git init` with $GIT_TEMPLATE_DIR in {W} would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('GIT_CONFIG_COUNT=$N git init', {'WG305', 'WG404'}, [('WG305', '`git init` with $GIT_CONFIG_COUNT in {W} would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL'), ('WG404', '$GIT_CONFIG_COUNT is only known at run time; run git without it.', {}, 'ALL')]),
    ('git config --worktree core.worktree /tmp/x && git status', {'WG305', 'WG404'}, [('WG305', '`git config --worktree core.worktree` stays in the config of {W} after this command, and a later git in it would find another work tree or read config worktree-guard has not read; set it with `git -c` on the one git command that needs it, where worktree-guard can check it, or ask the user.', {}, 'git config --worktree core.worktree /tmp/x'), ('WG404', "git would read the config or hooks of {W}, which this command set or wrote first (a template's, a write into its git dir, `git config`); run git without it.", {}, 'git status')]),
    ('git config --worktree user.name x && git status', set(), []),
    ('git config --worktree --get core.worktree && git status', set(), []),
    ('git add core.worktree /tmp/x && git status', set(), []),
    ('cd $X; git commit -m x', {'WG303', 'WG202'}, [('WG303', 'worktree-guard cannot tell which checkout this git command acts on (the directory it runs in is not known); run git with literal paths inside {W}.', {}, 'git commit -m x')]),
    ('git --work-tree={MAIN} reset --hard', {'WG302'}, [('WG302', "`git reset` would change the working tree, index or HEAD of the shared checkout {MAIN}; run it in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('GIT_WORK_TREE={MAIN} git reset --hard', {'WG302'}, [('WG302', "`git reset` would change the working tree, index or HEAD of the shared checkout {MAIN}; run it in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git --git-dir={MAIN}/.git --work-tree={W} reset --hard', {'WG302'}, [('WG302', "`git reset` would change the working tree, index or HEAD of the shared checkout {MAIN}; run it in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git --git-dir={MAIN}/.git/worktrees/agent-a1234567890abcdef --work-tree={MAIN} reset --hard', {'WG302'}, [('WG302', "`git reset` would change the working tree, index or HEAD of the shared checkout {MAIN}; run it in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} --work-tree={W} reset --hard', {'WG302'}, [('WG302', "`git reset` would change the working tree, index or HEAD of the shared checkout {MAIN}; run it in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C $D config core.worktree /tmp/x && git status', {'WG305', 'WG404'}, [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'git -C $D config core.worktree /tmp/x'), ('WG404', "git would read the config or hooks of /, which this command set or wrote first (a template's, a write into its git dir, `git config`); run git without it.", {}, 'git status')]),
    ('git -c alias.x=a=b status', {'WG305'}, [('WG305', '`git -c alias.x=…` runs commands worktree-guard cannot see; leave it out.', {}, 'ALL')]),
    ('git -c core.hooksPath=/tmp/h=1 commit -m x', {'WG305'}, [('WG305', '`git -c core.hookspath=…` runs hooks worktree-guard cannot see; leave it out.', {}, 'ALL')]),
    ('git fetch -u origin', {'WG305'}, [('WG305', '`git fetch -u` (--update-head-ok) may move a branch another checkout has checked out; fetch into a branch of your own instead.', {}, 'ALL')]),
    ('git fetch --update-head-ok origin', {'WG305'}, [('WG305', '`git fetch --update-head-ok` may move a branch another checkout has checked out (through any refspec, remote config or --refmap); fetch into a branch of your own instead.', {}, 'ALL')]),
    ('git fetch -q -u . HEAD:refs/heads/feature', {'WG305'}, [('WG305', '`git fetch -u` (--update-head-ok) may move a branch another checkout has checked out; fetch into a branch of your own instead.', {}, 'ALL')]),
    ('git fetch . $X x:main', {'WG305'}, [('WG305', '`git fetch` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL'), ('WG305', '`git fetch` into this repository with a refspec or option only known at run time could move a checked-out branch.', {}, 'ALL')]),
]


def git_records(repo: Repo, command: str) -> tuple[set[str], list[tuple]]:
    """Every code of the verdict, and the git rule's records as the rows spell them."""

    def unfill(text: str) -> str:
        for name, path in (("{W}", repo.worktree), ("{SIB}", repo.sibling), ("{OUT}", repo.outside), ("{MAIN}", repo.main), ("{BASE}", repo.base)):
            text = text.replace(str(path), name)
        return text

    command = command.replace("{BASE}", str(repo.base))  # the directory that holds {MAIN} and {OUT}, in no repository
    filled = fill(command, repo)
    verdict = bash(repo, command)
    records = []
    for v in verdict.violations:
        if v.rule != "git":
            continue
        assert (v.tool, v.severity, v.worktree_root) == ("Bash", "error", str(repo.worktree)), command
        fields = {k: unfill(str(x)) for k, x in v.model_dump(exclude_none=True).items() if k in ("path", "resolved", "shared_root", "suggestion")}
        covered = "ALL" if v.span == (0, len(filled)) else unfill(filled[v.span[0]:v.span[1]])
        records.append((v.code, unfill(v.message), fields, covered))
    return {v.code for v in verdict.violations}, records


@pytest.mark.parametrize(("command", "codes", "records"), EDGE_RECORDS, ids=[plain_id(c, 60) for c, _, _ in EDGE_RECORDS])
def test_each_git_command_gets_exactly_its_records(world: Repo, command: str, codes: set, records: list) -> None:
    assert git_records(world, command) == (codes, records), command


# --- phase 10 (rules/git again, after review 24's `_is_this_repository`, pull refspecs, config from the environment) ---

PHASE_10_RECORDS: list[tuple[str, set, list]] = [
    # `_is_this_repository` (phase 10, after review 24's change): a file:// URL is its path; any other scheme, and git's
    # scp-like `host:path`, are elsewhere
    ('git push file://{MAIN} HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push file://{MAIN}x HEAD:main', set(), []),
    ('git push file:// HEAD:main', set(), []),
    ('git push https://h{MAIN} HEAD:main', set(), []),
    ('git push ssh://h{MAIN} HEAD:main', set(), []),
    ('git push git@host:x/y.git HEAD:main', set(), []),
    ('git push host:{MAIN} HEAD:main', set(), []),
    # a word without a slash is a remote's name unless it is `.`, `..` or a path where git runs or at the top of its
    # worktree (W has `.git`, the symlinks `to-main` and `to-ssl`); `~` is the fixture's HOME, outside every checkout
    ('git push .git HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push to-main HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push to-ssl HEAD:main', set(), []),
    ('git push .. HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    # from W/src too: git looks for it at the top of W, where it moved (review 27a: `cd src && git pull -q .git …` moved main)
    ('git -C {W}/src push .git HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git -C {W}/src push nosuch HEAD:main', set(), []),
    ('git push ~/x HEAD:main', set(), []),
    ('git push ~ HEAD:main', set(), []),
    ('git push ../../../../x HEAD:main', set(), []),
    # a relative remote is read from the top of the worktree git runs in (W, not W/src), or from the work tree it is
    # given; outside every worktree ({BASE}) from where git runs
    ('git -C {W}/src push ../../../.. HEAD:main', set(), []),
    ('git -C {W}/src push ../../.. HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('cd src && git push ../../../.. HEAD:main', set(), []),
    ('cd src && git push ../../.. HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'git push ../../.. HEAD:main')]),
    ('git --work-tree=/tmp push ./ HEAD:main', set(), []),
    ('git --work-tree={MAIN} push ./ HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('GIT_WORK_TREE=/tmp git push ./ HEAD:main', set(), []),
    # where git runs only known at run time: any relative path may be this repository; an absolute one, a `~` one and a
    # remote's name are read as they are
    ('git -C $X push ./ HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git -C $X push . HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git -C $X push .. HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git -C $X push {MAIN} HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git -C $X push /tmp/x HEAD:main', set(), []),
    ('git -C $X push ~/x HEAD:main', set(), []),
    ('git -C $X push origin HEAD:main', set(), []),
    ('git -C $X push file://{MAIN} HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git -C $X push file://x HEAD:main', set(), []),  # `x` is the host, which git drops: the path is `/` (review 27b)
    # pull fetches with --update-head-ok: its refspecs are judged as a fetch's (phase 9's finding, fixed)
    ('git pull origin main', set(), []),
    ('git pull . HEAD:main', {'WG305'}, [('WG305', '`git pull` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git pull {MAIN} main:main', {'WG305'}, [('WG305', '`git pull` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git pull $R main', {'WG305'}, [('WG305', '`git pull` into this repository with a refspec or option only known at run time could move a checked-out branch.', {}, 'ALL')]),  # $R may split or be --refmap (review 28b)
    ('git pull . x:feature', set(), []),
    # config from the environment counts as `-c` (phase 9's finding, fixed); an alias from there is walked as its code,
    # in any case; a count only known at run time is WG404 alone
    ('GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/tmp/hk git commit -qm x', {'WG305'}, [('WG305', '`git -c core.hookspath=…` runs hooks worktree-guard cannot see; leave it out.', {}, 'ALL')]),
    ('GIT_CONFIG_PARAMETERS="\'core.hooksPath\'=\'/tmp/hk\'" git commit -qm x', {'WG305'}, [('WG305', '`git -c core.hookspath=…` runs hooks worktree-guard cannot see; leave it out.', {}, 'ALL')]),
    ('GIT_CONFIG_PARAMETERS="\'receive.denyNonFastForwards\'=\'false\'" git status', {'WG305'}, [('WG305', '`git -c receive.denynonfastforwards=…` lets a push update a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=user.name GIT_CONFIG_VALUE_0=me git commit -qm x', set(), []),
    ('GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.st GIT_CONFIG_VALUE_0=status git st', set(), []),
    ('GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=Alias.st GIT_CONFIG_VALUE_0=status git st', set(), []),
    ('GIT_CONFIG_COUNT=$N git commit -m x', {'WG404'}, [('WG404', '$GIT_CONFIG_COUNT is only known at run time; run git without it.', {}, 'ALL')]),
    ('GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/tmp/hk git -c alias.x=y status', {'WG305'}, [('WG305', '`git -c alias.x=…` runs commands worktree-guard cannot see; leave it out.', {}, 'ALL'), ('WG305', '`git -c core.hookspath=…` runs hooks worktree-guard cannot see; leave it out.', {}, 'ALL')]),
    # git expands a leading `~` of a local remote with its HOME (git 2.39.5), wherever it runs; a colon after the first
    # slash is a path (`./x:/..` is W: a pull there moved main, git 2.39.5); `./x://..` is no path to git ("protocol
    # './x' is not supported")
    ("git -C $X push '~/x' HEAD:main", set(), []),
    ("git push '~' HEAD:main", set(), []),
    ('git push ./x:/.. HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push ./x:/.. HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push ./x://.. HEAD:main', set(), []),
    # `git branch` writing the upstream into the shared config by its short option and its long one (only the
    # catalogues held them in phase 9's run)
    ('git branch -u origin/x', {'WG305'}, [('WG305', '`git branch` would write the upstream or description into the repository config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git branch --set-upstream-to origin/x', {'WG305'}, [('WG305', '`git branch` would write the upstream or description into the repository config every worktree shares; ask the user.', {}, 'ALL')]),
    # verbs and options only the catalogues held in phase 9's run
    ('git maintenance start', {'WG305'}, [('WG305', '`git maintenance start` writes config for this repository; ask the user.', {}, 'ALL')]),
    ('git notes add -m x', {'WG305'}, [('WG305', '`git notes add` writes refs/notes, which every worktree shares; ask the user.', {}, 'ALL')]),
    ('git symbolic-ref --delete HEAD refs/heads/main', set(), []),
    ('git replace -l x', set(), []),
    # symbolic-ref reads its two operands (`-m` takes a value); git refuses a third (usage)
    ('git symbolic-ref -m why HEAD refs/heads/main', {'WG305'}, [('WG305', '`git symbolic-ref` would point a ref at `main`, the branch another checkout has checked out.', {}, 'ALL')]),
    ('git symbolic-ref HEAD refs/heads/x refs/heads/main', set(), []),
    ('git symbolic-ref HEAD refs/heads/x $X', set(), []),
    # outside every worktree, git reads a relative remote from where it runs: `repo` in {BASE} is {MAIN}
    ('git -C {BASE} push repo HEAD:main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git -C {BASE} push ./x HEAD:main', set(), []),
]


@pytest.mark.parametrize(("command", "codes", "records"), PHASE_10_RECORDS, ids=[plain_id(c, 60) for c, _, _ in PHASE_10_RECORDS])
def test_each_remote_and_config_source_gets_exactly_its_records(world: Repo, command: str, codes: set, records: list) -> None:
    assert git_records(world, command) == (codes, records), command


def test_a_tilde_remote_is_read_with_the_scopes_home(world: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rule expands a remote's `~` with the home of the call's scope (what `validate` replays with the recorded
    one), not with whatever HOME the hook process has when the rule runs."""
    from tests.test_bash_rules import PM
    from worktree_guard.engine import build_context, decide
    from worktree_guard.runtimes.claude_code import to_tool_call

    call = to_tool_call(subagent_payload(world, "Bash", {"command": "git push '~/' HEAD:main", "description": "test"}))
    ctx = build_context(call, pm=PM)
    monkeypatch.setenv("HOME", str(world.main))
    assert decide(call, ctx).decision == "pass"


def test_a_remote_where_git_runs_unknown_does_not_depend_on_the_hooks_own_cwd(world: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """`~user` of no user stays a relative word (git cannot expand it); with the directory git runs in unknown it is
    read from `/`, so that the verdict does not change when the hook process runs inside the main checkout."""
    monkeypatch.chdir(world.main)
    assert git_records(world, "git -C $X push '~nosuchuser-wg/x' HEAD:main") == (set(), [])


# --- phase 11 (rules/git after stop 25: config that routes a push/fetch/pull, `heads/<b>`, a quoted `~` with HOME) ---

PHASE_11_RECORDS: list[tuple[str, set, list]] = [
    # `-c remote.*`, `url.*`, a branch's `.remote`/`.pushremote`/`.merge` (stop 25): config that sends a push, fetch or pull
    # back into this repository; from the environment too; the key in any case; one record however many keys
    ('git -c remote.origin.url=. push origin HEAD:main', {'WG305'}, [('WG305', '`git -c remote.origin.url=…` changes where `git push` sends or takes refs, which could be a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('git -c url.file://{MAIN}.insteadOf=gh: push gh: HEAD:main', {'WG305'}, [('WG305', '`git -c url.file://{MAIN}.insteadof=…` changes where `git push` sends or takes refs, which could be a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=. git push origin x:main', {'WG305'}, [('WG305', '`git -c remote.origin.url=…` changes where `git push` sends or takes refs, which could be a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('git -c remote.origin.url=. pull origin main', {'WG305'}, [('WG305', '`git -c remote.origin.url=…` changes where `git pull` sends or takes refs, which could be a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('git -c REMOTE.origin.URL=. push origin HEAD:main', {'WG305'}, [('WG305', '`git -c remote.origin.url=…` changes where `git push` sends or takes refs, which could be a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('git -c remote.origin.url=. -c url.x.insteadOf=y push origin HEAD:main', {'WG305'}, [('WG305', '`git -c remote.origin.url=…` changes where `git push` sends or takes refs, which could be a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('git -c branch.x.remote=. push', {'WG305'}, [('WG305', '`git -c branch.x.remote=…` changes where `git push` sends or takes refs, which could be a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('git -c branch.x.merge=refs/heads/main pull', {'WG305'}, [('WG305', '`git -c branch.x.merge=…` changes where `git pull` sends or takes refs, which could be a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('git -c branch.x.pushRemote=. push', {'WG305'}, [('WG305', '`git -c branch.x.pushremote=…` changes where `git push` sends or takes refs, which could be a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('git -c branch.x.description=y push', set(), []),
    ('git -c x.remote=. push', set(), []),
    ('git -c user.name=x push', set(), []),
    ('git -c remote.origin.url=. status', set(), []),
    # `push.default` only where the push may go to this repository: no remote named, one only known at run time, or one
    # that is this repository (`origin` is not: review 10's must-pass)
    ('git -c push.default=upstream push', {'WG305'}, [('WG305', '`git -c push.default=…` changes where `git push` sends or takes refs, which could be a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('git -c Push.Default=upstream push', {'WG305'}, [('WG305', '`git -c push.default=…` changes where `git push` sends or takes refs, which could be a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('git -c push.default=upstream push .', {'WG305'}, [('WG305', '`git -c push.default=…` changes where `git push` sends or takes refs, which could be a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('git -c push.default=upstream push $R', {'WG305', 'WG404'}, [('WG305', '`git -c push.default=…` changes where `git push` sends or takes refs, which could be a branch another checkout has checked out; leave it out.', {}, 'ALL'), ('WG404', '`git push` is given $R, only known at run time, which may be --receive-pack or --exec and run a command; run git without it.', {}, 'ALL')]),
    ('git -c push.default=current push -q origin', set(), []),
    ('git -c push.default=upstream push origin', set(), []),
    # only push reads push.default (a false WG305 on fetch and pull, phase 11's run)
    ('git -c push.default=upstream fetch', set(), []),
    ('git -c push.default=upstream pull', set(), []),
    ('git -c push.default=upstream pull .', set(), []),
    ('git -c push.default=upstream remote update', set(), []),
    # `git remote update`/`prune` with such config (review 25b: `--prune` deleted main's branch); other verbs read only
    ('git -c remote.origin.url=/tmp/e.git remote prune origin', {'WG305'}, [('WG305', '`git -c remote.origin.url=…` changes where `git remote` sends or takes refs, which could be a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('git -c remote.origin.url=/tmp/e.git remote update --prune', {'WG305'}, [('WG305', '`git -c remote.origin.url=…` changes where `git remote` sends or takes refs, which could be a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('git -c remote.origin.url=/tmp/e.git remote show origin', set(), []),
    ('git -c remote.origin.url=/tmp/e.git remote', set(), []),
    # `heads/<b>` as a destination is refs/heads/<b> to git (its first rule, refs/%s); only a checked-out branch counts, and
    # only after `heads/`; a refspec without a colon moves no branch here
    ('git push . HEAD:heads/main', {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git fetch . HEAD:heads/main', {'WG305'}, [('WG305', '`git fetch` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git pull . HEAD:heads/main', {'WG305'}, [('WG305', '`git pull` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git push . HEAD:heads/x', set(), []),
    ('git push . HEAD:heads/feature', set(), []),
    ('git push . HEAD:xheads/main', set(), []),
    ('git push . HEAD:xxxxxxmain', set(), []),
    ('git push . HEAD:heads', set(), []),
    ('git push . HEAD:heads/', set(), []),
    ('git push . main', set(), []),
    ('git fetch . main', set(), []),
    # a quoted `~` is expanded by git with the HOME the command gives it (phase 10's fail-open, fixed in stop 25): any
    # HOME the command sets other than the walker's may be a checkout; an unchanged HOME, or no `~`, reads as before
    ("HOME={MAIN} git push -q '~/' worktree-agent-a1234567890abcdef:main", {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ("export HOME={MAIN}; git push -q '~/' worktree-agent-a1234567890abcdef:main", {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, "git push -q '~/' worktree-agent-a1234567890abcdef:main")]),
    ("HOME=/tmp git push '~/x' HEAD:main", {'WG305'}, [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('HOME=/tmp git push /tmp/x HEAD:main', set(), []),
    ("HOME=/opt/wg-test-home git push '~/x' HEAD:main", set(), []),
    ("git push '~/x' HEAD:main", set(), []),
]


@pytest.mark.parametrize(("command", "codes", "records"), PHASE_11_RECORDS, ids=[plain_id(c, 60) for c, _, _ in PHASE_11_RECORDS])
def test_each_routing_config_and_destination_gets_exactly_its_records(world: Repo, command: str, codes: set, records: list) -> None:
    assert git_records(world, command) == (codes, records), command


# The code git runs (`worktree_guard_shell_unwrap`: phase 9 and 10 never reached its mutants; only the catalogues held
# rows): a pager or an alias's `!` code is walked in the top of the checkout git acts on (W from W/src: git moves there),
# and so is `git bisect run`'s command; code from git's environment config is walked once, not until the budget (WG901).
# The verdict and each violation's code and rule (the spans of `-c` code are off by one: phase 9's finding, not pinned).
GIT_CODE_ROWS: list[tuple[str, str, list[tuple[str, str]]]] = [
    ("git -c core.pager='touch {MAIN}/p' log", "deny", [("WG401", "writes")]),
    ("git -c core.pager='touch p' log", "pass", []),
    ("git -C {MAIN} -c core.pager='touch p' log", "deny", [("WG401", "writes")]),
    ("cd src && git -c core.pager='touch ../../p' log", "deny", [("WG401", "writes")]),
    ("git bisect run rm {MAIN}/x", "deny", [("WG401", "writes")]),
    ("git bisect run rm x", "pass", []),
    ("cd src && git bisect run rm ../x", "deny", [("WG401", "writes")]),
    # what `git bisect run` runs is a program, never shell code of this shell: a computed name with `;` in an argument is
    # no `eval` there
    ("git bisect run $X 'a;b'", "pass", []),
    ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!git x' git x", "pass", []),
    ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!git status' git x", "pass", []),
]


@pytest.mark.parametrize(("command", "decision", "codes"), GIT_CODE_ROWS, ids=[plain_id(c, 60) for c, _, _ in GIT_CODE_ROWS])
def test_the_code_git_runs_is_walked_where_git_runs_it(world: Repo, command: str, decision: str, codes: list) -> None:
    verdict = bash(world, command)
    assert (verdict.decision, sorted((v.code, v.rule) for v in verdict.violations)) == (decision, codes), command

# --- the repository's own state: per-worktree config, a detached shared checkout --------------------------------

WORKTREE_CONFIG = [("true", set()), ("True", set()), ("yes", set()), ("on", set()), ("1", set()), ("false", {"WG305"}), ("2", {"WG305"})]


@pytest.mark.parametrize(("value", "codes"), WORKTREE_CONFIG, ids=[v for v, _ in WORKTREE_CONFIG])
def test_sparse_checkout_passes_where_the_repository_keeps_per_worktree_config(world: Repo, value: str, codes: set) -> None:
    """`git sparse-checkout set` turns extensions.worktreeConfig on in the shared config unless it is on already
    (git's boolean words, in any case); with it on, the sparse patterns are this worktree's own."""
    from tests.helpers import git

    git("config", "extensions.worktreeConfig", value, cwd=world.main)
    for command in ("git sparse-checkout set a", "git sparse-checkout init --cone"):
        assert set(bash(world, command).codes) == codes, (value, command)


def test_a_detached_shared_checkout_has_no_branch_to_move(world: Repo) -> None:
    """A shared checkout on no branch lends none to the table of checked-out branches: a push or branch command
    that names no destination branch is not a move of one."""
    from tests.helpers import git

    git("checkout", "-q", "--detach", cwd=world.main)
    assert bash(world, "git push . HEAD").decision == "pass"
    assert bash(world, "git push . HEAD:main").decision == "pass"  # main is checked out nowhere now
    assert bash(world, "git fetch . HEAD").decision == "pass"
    assert set(bash(world, "git push . HEAD:outside").codes) == {"WG305"}


def test_git_init_inside_a_checkout_whose_name_ends_in_x(world: Repo) -> None:
    """A checkout of this repository at a path ending in `X` or a space holds what lies below it (its root is
    compared with one `/` after it, not stripped of other characters)."""
    from tests.helpers import git

    other = world.base / "wtX"
    git("worktree", "add", "-q", "-b", "x-branch", str(other), cwd=world.main)
    assert set(bash(world, f"git init -q --bare {other}/sub").codes) == {"WG305", "WG401"}
    assert bash(world, f"git init -q --bare {world.base}/wt/sub").decision == "pass"
    spaced = world.base / "wt "  # nor of a trailing space
    git("worktree", "add", "-q", "-b", "spaced-branch", str(spaced), cwd=world.main)
    assert set(bash(world, f"git init -q --bare '{spaced}/sub'").codes) == {"WG305", "WG401"}


def test_a_common_dir_ending_in_x_or_a_space_holds_what_lies_below_it() -> None:
    """Phase 24 (m39a): `_runs_in_this_repository` compares a place with the common dir and one `/` after it, the
    common dir stripped of `/` only (phase 17's survivors 42, 44: `rstrip(None)`, `rstrip("XX/XX")`), for where git
    runs and for the git dir it is given. The paths do not exist (canonical keeps them as written)."""
    from types import SimpleNamespace as NS

    from worktree_guard.rules.git import _runs_in_this_repository

    command = NS(home="/nonexistent-wg/h")
    for common in ("/nonexistent-wg/gX", "/nonexistent-wg/g ", "/nonexistent-wg/g/"):
        ctx = NS(worktree_root="/nonexistent-wg/w", layout=NS(shared_roots=["/nonexistent-wg/m"], common_dir=common))
        stem = common.rstrip("/")
        rows = [
            (NS(run_dir=f"{stem}/refs", git_dir=None), True),  # run inside the common dir
            (NS(run_dir="/nonexistent-wg/b", git_dir=f"{stem}/refs"), True),  # given a git dir inside it
            (NS(run_dir="/nonexistent-wg/g/refs", git_dir=None), common == "/nonexistent-wg/g/"),  # a sibling or the same
            (NS(run_dir="/nonexistent-wg/b", git_dir="/nonexistent-wg/g/refs"), common == "/nonexistent-wg/g/"),
            (NS(run_dir=None, git_dir=None), False),
        ]
        for call, expected in rows:
            assert _runs_in_this_repository(call, command, [], ctx) is expected, (common, call)


# --- _sets_a_moving_key: which `git config` writes leave the repository untrusted for a later git --------------

MOVING_KEY = [
    ({"-e"}, [], True),  # an edit may set anything, whatever key is named beside it
    ({"-e"}, ["user.email"], True),
    ({"--edit"}, ["user.email"], True),
    ({"--rename-section"}, ["user", "core"], True),
    ({"--remove-section"}, ["user"], True),
    ({"--add"}, ["user.email", "x"], False),
    ({"--add"}, ["core.worktree", "/x"], True),
    (set(), [], True),  # nothing named: may be anything
    (set(), ["set"], True),
    (set(), ["set", "user.email", "x"], False),  # the verb is not the key
    (set(), ["set", "core.worktree", "/x"], True),
    (set(), ["unset", "user.email"], False),
    (set(), ["unset", "core.worktree"], True),
    (set(), ["edit"], True),
    (set(), ["rename-section", "user", "core"], True),
    (set(), ["remove-section", "user"], True),
    (set(), ["user.email", "x"], False),
    (set(), ["core.worktree", "/x"], True),
    (set(), ["core.hooksPath", "/x"], True),
    (set(), ["protocol.allow", "always"], True),
    (set(), ["protocol.allow", "never"], False),  # the value decides: allows_ext reads it
    (set(), [None, "x"], True),  # a key only known at run time
    (set(), ["user.email"], False),
]


@pytest.mark.parametrize(("flags", "operands", "expected"), MOVING_KEY, ids=[plain_id(" ".join([*sorted(f), *map(str, o)]), 50) for f, o, _ in MOVING_KEY])
def test_only_a_config_write_that_moves_or_runs_leaves_the_repository_untrusted(flags: set, operands: list, expected: bool) -> None:
    from worktree_guard.rules.git import _sets_a_moving_key

    assert _sets_a_moving_key(set(flags), list(operands)) is expected


# --- _writes_config: a reading option or verb makes any `git config` a read, a writing one a write ---------------

WRITES_CONFIG = [
    *[({flag}, ["x", "y"], False) for flag in ("--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "--get-color", "--get-colorbool")],
    (set(), ["get", "x", "y"], False),
    (set(), ["list", "x", "y"], False),
    *[({flag}, ["x"], True) for flag in ("--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section", "-e", "--edit")],
    *[({flag}, [], True) for flag in ("--add", "--replace-all", "--rename-section", "-e", "--edit")],
    *[(set(), [verb], True) for verb in ("set", "unset", "rename-section", "remove-section", "edit")],
    (set(), ["x"], False),
    (set(), ["x", "y"], True),
    (set(), [], False),
]


@pytest.mark.parametrize(("flags", "operands", "expected"), WRITES_CONFIG, ids=[plain_id(" ".join([*sorted(f), *o]), 50) for f, o, _ in WRITES_CONFIG])
def test_git_config_writes_as_its_options_and_verbs_say(flags: set, operands: list, expected: bool) -> None:
    from worktree_guard.rules.git import _writes_config

    assert _writes_config(set(flags), list(operands)) is expected


@pytest.mark.parametrize("option", ["--global", "--system", "-f /tmp/c", "--file=/tmp/c"])
def test_a_config_written_elsewhere_leaves_the_repository_trusted(world: Repo, option: str) -> None:
    """`git config --global core.worktree …` writes no config of this repository: a later git here reads nothing
    the command put there. (Only the later git's records are asserted: the write itself gets WG305 today, a false
    deny reported in docs/testing.md, phase 9.)"""
    command = f"git config {option} core.worktree /tmp/x && git status"
    later = [r for r in git_records(world, command)[1] if r[3] == "git status"]
    assert later == [], command


def test_a_repository_nested_in_a_shared_checkout_is_named_by_that_checkout(world: Repo) -> None:
    """A repository of its own inside the main checkout is shared ground too: the record names the shared root
    it lies in, the place whose owner the agent must ask."""
    from tests.helpers import git

    git("init", "-q", str(world.main / "vendor"), cwd=world.main)
    assert git_records(world, "git -C {MAIN}/vendor reset --hard") == ({"WG302"}, [(
        "WG302", "`git reset` would change the working tree, index or HEAD of the shared checkout {MAIN}; run it in this agent's worktree {W}.",
        {"path": "{MAIN}", "resolved": "{MAIN}", "shared_root": "{MAIN}", "suggestion": "{W}"}, "ALL")])


# --- `git config --worktree` in W: the doors that stay open for later calls (rules/git.py `_lasting_door`) -----------
# With extensions.worktreeConfig git keeps the key in W's own config.worktree; a later call's git reads it, and the
# guard does not (it reads what a command configures only for the rest of that command). Phase 11's run of rules/git:
# `remote.origin.url <W>`, a fetch refspec into refs/heads/main and `git pull -q origin`, one call each, moved main.
# The fragment names which reason the WG305 gives (None: the row passes).
LASTING_WHY = {
    "L": "would find another work tree",
    "C": "would run that code",
    "U": "would go to a path on this machine",
    "R": "rewritten to a path on this machine",
    "F": "send or read files named elsewhere",
    "B": "could move a branch another checkout has checked out",
    "M": "would mirror every ref",
    "P": "push to the branch's upstream",
    "E": "cannot tell which keys it holds",
    "K": "a key only known at run time",
}
LASTING_DOOR_ROWS: list[tuple[str, str | None]] = [
    # code git runs, and where it finds its work tree or config
    ("git config --worktree core.fsmonitor 'rm -f {MAIN}/README.md'", "C"),
    ("git config --worktree core.pager less", "C"),
    ("git config --worktree alias.st 'log --oneline'", "C"),
    ("git config --worktree Alias.St '!rm x'", "C"),
    ("git config --worktree core.hooksPath /tmp/h", "C"),
    ("git config --worktree filter.x.clean cat", "C"),
    ("git config --worktree remote.origin.uploadpack 'rm x'", "C"),
    ("git config --worktree protocol.ext.allow always", "C"),
    ("git config --worktree protocol.ext.allow never", None),  # the value decides (phase 12's run)
    ("git config --worktree remote.origin.url 'ext::sh -c x'", "C"),
    ("git config --worktree set core.fsmonitor", "C"),  # a value only known to git: none given
    ("git config --worktree receive.denyCurrentBranch ignore", "C"),
    ("git config --worktree --type bool core.fsmonitor true", "C"),
    ("git config --worktree -t path core.fsmonitor x", "C"),  # -t is --type (review 27a: it read `path` as the key)
    ("git config --worktree --t path core.fsmonitor x", "C"),  # a one-letter prefix of --type (review 27b)
    ("git config --worktree -zt path core.fsmonitor x", "C"),
    ("git config --worktree -tpath core.fsmonitor x", "C"),
    ("git config --wor core.fsmonitor x", "C"),  # an abbreviation, resolved as git does
    ("git config set --worktree core.fsmonitor x", "C"),  # git 2.46's verb, its options after it
    ("git config --worktree set core.fsmonitor x", "C"),
    ("git config --worktree set --append core.fsmonitor x", "C"),
    ("git config --worktree --add core.fsmonitor x", "C"),
    ("git config --worktree --replace-all core.fsmonitor x", "C"),
    ("git config --worktree core.worktree {MAIN}", "L"),
    ("git config --worktree extensions.worktreeConfig false", "L"),
    ("git config --worktree core.bare true", "L"),
    ("git config --worktree include.path /tmp/i", "L"),
    ("git config --worktree includeIf.gitdir:/x.path /tmp/i", "L"),
    # where a later push or fetch goes: this repository itself (or not known) is a door, another repository is not
    ("git config --worktree remote.origin.url {W}", "U"),
    ("git config --worktree remote.origin.url file://{MAIN}", "U"),
    ("git config --worktree remote.origin.url .", "U"),
    ("git config --worktree remote.origin.url ../..", "U"),
    ("cd src && git config --worktree remote.origin.url ../..", "U"),
    ('git config --worktree remote.origin.url "$U"', "U"),
    ("git config --worktree Remote.Origin.URL {MAIN}", "U"),
    ("git config --worktree remote.origin.pushurl {MAIN}", "U"),
    ("git config --worktree branch.b.remote .", "U"),
    ("git config --worktree branch.b.pushRemote {MAIN}", "U"),
    ("git config --worktree remote.pushDefault {MAIN}", "U"),
    ("git config --worktree remote.origin.url https://example.com/x", None),
    # review 27a: any path is a door (a bare word too: `selfrepo`, then `ln -s . selfrepo`), a file: URL decoded or not
    ("git config --worktree remote.origin.url selfrepo", "U"),
    ("git config --worktree remote.origin.url /tmp/backup.git", "U"),
    ("git config --worktree remote.origin.url ~/r", "U"),
    ("git config --worktree remote.origin.url file:///%74mp/x", "U"),
    ("git config --worktree remote.origin.url FILE:///tmp/x", "U"),
    ("git config --worktree remote.origin.url /tmp/a:b", "U"),  # a colon after the first slash: still a path
    ("git config --worktree remote.origin.url 'a/b://x'", None),  # git takes `a/b` for a protocol it does not know
    ("git config --worktree branch.b.remote file:x", "U"),  # read as a path (git: ssh to a host `file`): refused
    ("git config --worktree branch.b.remote ~x", "U"),
    ("git config --worktree branch.b.remote ~/x", "U"),
    ("git config --worktree branch.b.remote ..", "U"),
    ("git config --worktree branch.b.remote https://example.com/x", None),
    ("git config --worktree branch.b.remote git@github.com:x/y.git", None),
    ("git config --worktree remote.origin.url git@github.com:x/y.git", None),
    ("git config --worktree remote.origin.pushurl https://example.com/x", None),
    ("git config --worktree branch.b.remote origin", None),
    ("git config --worktree remote.pushDefault origin", None),
    ("git config --worktree url.{MAIN}.insteadOf https://example.com/r", "R"),
    ("git config --worktree url.{MAIN}.pushInsteadOf https://example.com/r", "R"),
    ("git config --worktree url.https://example.com/.insteadOf gh:", None),
    ("git config --worktree url.git@github.com:.insteadOf gh:", None),
    # git replaces the prefix as text: any local base may lead into this repository (review 27a)
    ("git config --worktree url./.insteadOf gh:", "R"),
    ("git config --worktree URL./.INSTEADOF gh:", "R"),
    ("git config --worktree url.file:///.insteadOf gh:", "R"),
    ("git config --worktree url.{BASE}/.insteadOf https://github.com/org/", "R"),
    ("git config --worktree url.../.pushInsteadOf gh:", "R"),
    ("git config --worktree sendemail.smtpServer /tmp/x", "F"),
    ("git config --worktree http.cookieFile /tmp/x", "F"),
    ("git config --worktree core.attributesFile /tmp/x", "F"),
    # refspecs: a destination that may be a branch a shared checkout has checked out (main, in {MAIN})
    ("git config --worktree remote.origin.fetch +refs/heads/x:refs/heads/main", "B"),
    ("git config --worktree remote.origin.fetch +refs/heads/x:main", "B"),
    ("git config --worktree remote.origin.fetch +refs/heads/x:heads/main", "B"),
    ("git config --worktree remote.origin.fetch '+refs/heads/*:refs/heads/*'", "B"),
    ("git config --worktree remote.origin.fetch 'refs/heads/*:refs/heads/m*'", "B"),
    ('git config --worktree remote.origin.fetch "$R"', "B"),
    ("git config --worktree --add remote.origin.fetch +refs/heads/x:refs/heads/main", "B"),
    ("git config --worktree remote.origin.push HEAD:main", "B"),
    ("git config --worktree remote.origin.push main", "B"),
    ("git config --worktree remote.origin.push +main", "B"),
    ("git config --worktree remote.origin.fetch '+refs/heads/*:refs/remotes/origin/*'", None),
    ("git config --worktree remote.origin.fetch 'refs/heads/*:refs/heads/x/*'", None),
    ("git config --worktree remote.origin.fetch +refs/heads/x:refs/heads/mine", None),
    ("git config --worktree remote.origin.fetch +refs/heads/x:refs/heads/mainx", None),
    ("git config --worktree remote.origin.fetch refs/heads/main", None),
    ("git config --worktree remote.origin.fetch +refs/heads/x:", None),
    ("git config --worktree remote.origin.fetch ^refs/heads/main", None),
    ("git config --worktree remote.origin.push HEAD:mine", None),
    ("git config --worktree remote.origin.push ^refs/heads/main", None),
    ("git config --worktree remote.origin.mirror true", "M"),
    ("git config --worktree branch.b.merge refs/heads/main", None),  # push.default upstream/tracking is the door (review 27a)
    ("git config --worktree branch.b.merge main", None),
    ('git config --worktree branch.b.merge "$M"', None),
    ("git config --worktree branch.b.merge refs/heads/b", None),
    ("git config --worktree push.default upstream", "P"),
    ("git config --worktree push.default Tracking", "P"),
    ('git config --worktree push.default "$D"', "P"),
    ("git config --worktree push.default current", None),
    ("git config --worktree push.default simple", None),
    # what worktree-guard cannot read, and what is harmless
    ("git config --worktree --edit", "E"),
    ("git config --worktree -e", "E"),
    ("git config --worktree --edi", "E"),
    ("git config --worktree --rename xcore core", "E"),
    ("git config --worktree --rename-s xcore core", "E"),
    ("git config --worktree --remove alias", "E"),
    ("git config --worktree --rename-section xalias alias", "E"),
    ("git config --worktree --remove-section alias", "E"),
    ("git config --worktree rename-section xalias alias", "E"),
    ("git config --worktree remove-section alias", "E"),
    ("git config --worktree edit", "E"),
    ('git config --worktree "$K" v', "K"),
    ("git config --worktree set", "K"),
    ("git config --worktree user.name x", None),
    ("git config --worktree core.sparseCheckout true", None),
    ("git config --worktree pull.rebase true", None),
    ("git config --worktree --unset core.fsmonitor", None),
    ("git config --worktree --unset-all remote.origin.fetch", None),
    ("git config --worktree unset core.worktree", None),
    ("git config --worktree core.fsmonitor", None),
    ("git config --worktree --get core.fsmonitor", None),
    ("git config --worktree -f /tmp/x core.fsmonitor x", None),
    ("git config --worktree --file=/tmp/x core.fsmonitor x", None),
    ("git -C {BASE} config --worktree core.fsmonitor x", None),
]


@pytest.mark.parametrize(("command", "why"), LASTING_DOOR_ROWS, ids=[plain_id(c, 60) for c, _ in LASTING_DOOR_ROWS])
def test_a_worktree_config_that_stays_a_door_is_refused(world: Repo, command: str, why: str | None) -> None:
    assert_lasting_door(world, command, why)


def assert_lasting_door(world: Repo, command: str, why: str | None) -> None:
    """One WG305 of a lasting door with the reason `why` names (LASTING_WHY), or none when `why` is None."""
    codes, records = git_records(world, command)
    lasting = [r for r in records if r[0] == "WG305" and "stays in the config of {W} after this command" in r[1]]
    if why is None:
        assert lasting == [], (command, records)
        return
    assert len(lasting) == 1 and LASTING_WHY[why] in lasting[0][1], (command, records)
    assert all(LASTING_WHY[other] not in lasting[0][1] for other in LASTING_WHY if other != why), (command, lasting)
    assert lasting[0][1].endswith("set it with `git -c` on the one git command that needs it, where worktree-guard can check it, or ask the user."), lasting


# Review 27a: `git config` ends its options at the first operand (a `--worktree` after the key is a value pattern, and
# the write goes to the config every worktree shares), and takes a unique prefix of any of its long options.
SHARED = '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.'
CONFIG_PARSING_RECORDS: list[tuple[str, set, list]] = [
    ("git config -t path core.fsmonitor x --worktree", {"WG305"}, [("WG305", SHARED, {}, "ALL")]),
    ("git config user.email x --worktree", {"WG305"}, [("WG305", SHARED, {}, "ALL")]),
    ("git config user.email --worktree", {"WG305"}, [("WG305", SHARED, {}, "ALL")]),  # sets user.email to `--worktree`
    ("git config --edi", {"WG305"}, [("WG305", SHARED, {}, "ALL")]),
    ("git config --unse user.email", {"WG305"}, [("WG305", SHARED, {}, "ALL")]),
    ("git config --ge user.email", {"WG305"}, [("WG305", SHARED, {}, "ALL")]),  # ambiguous (--get, --get-all…): not known
    ("git config --get-a user.email", set(), []),
    ("git config --work user.email x", set(), []),
    ("git config --worktree -- user.email x", set(), []),
    ("git config -- user.email x --worktree", {"WG305"}, [("WG305", SHARED, {}, "ALL")]),
    # review 27b: `--no-worktree` undoes `--worktree` (the shared config was written); `--t` is `--type`
    ("git config --worktree --no-worktree core.autocrlf true", {"WG305"}, [("WG305", SHARED, {}, "ALL")]),
    ("git config --worktree --no-w user.name x", {"WG305"}, [("WG305", SHARED, {}, "ALL")]),
    ("git config --t bool --get core.bare", set(), []),
    # git drops a file:// URL's host, whatever it is, then decodes %XX (review 27b: `~%2F` as a host was decoded into a path)
    ("git push -q file://~{MAIN} HEAD:main", {"WG305"}, [("WG305", "`git push` would move `main`, the branch checked out in {MAIN}.", {}, "ALL")]),
    ("git push -q 'file://~%2F{MAIN}' HEAD:main", {"WG305"}, [("WG305", "`git push` would move `main`, the branch checked out in {MAIN}.", {}, "ALL")]),
    ("git push -q file://localhost{MAIN} HEAD:main", {"WG305"}, [("WG305", "`git push` would move `main`, the branch checked out in {MAIN}.", {}, "ALL")]),
    ("git push -q file://x/opt/wg-nowhere HEAD:main", set(), []),  # push: a pull into main is WG305 whatever the remote (stop 28)
    # a file holding `gitdir:` is followed (review 27b), and one the command wrote first may name any git dir
    ("cp .git {BASE}/g && git push -q {BASE}/g HEAD:main", {"WG305"}, [("WG305", "`git push` would move `main`, the branch checked out in {MAIN}.", {}, "git push -q {BASE}/g HEAD:main")]),
    ("cp -r src {BASE}/s && git push -q {BASE}/s HEAD:main", {"WG305"}, [("WG305", "`git push` would move `main`, the branch checked out in {MAIN}.", {}, "git push -q {BASE}/s HEAD:main")]),
    ("cp -r src {BASE}/s && git push -q {BASE}/other HEAD:main", set(), []),
    # the same call (review 27a, passed on main too): a bare name git finds at the top of W, a %-encoded file: URL
    ("cd src && git push -q .git +HEAD:refs/heads/main", {"WG305"}, [("WG305", "`git push` would move `main`, the branch checked out in {MAIN}.", {}, "git push -q .git +HEAD:refs/heads/main")]),
    ("git -C src push -q to-main HEAD:main", {"WG305"}, [("WG305", "`git push` would move `main`, the branch checked out in {MAIN}.", {}, "ALL")]),
    ("git push -q file://{MAINENC} HEAD:main", {"WG305"}, [("WG305", "`git push` would move `main`, the branch checked out in {MAIN}.", {}, "ALL")]),
    ("git push -q file://{MAIN}%2F HEAD:main", {"WG305"}, [("WG305", "`git push` would move `main`, the branch checked out in {MAIN}.", {}, "ALL")]),
    ("git -C src push -q nosuch HEAD:main", set(), []),
]


@pytest.mark.parametrize(("command", "codes", "records"), CONFIG_PARSING_RECORDS, ids=[plain_id(c, 60) for c, _, _ in CONFIG_PARSING_RECORDS])
def test_git_config_options_end_at_the_first_operand_and_abbreviate(world: Repo, command: str, codes: set, records: list) -> None:
    main = str(world.main)
    command = command.replace("{MAINENC}", "/%" + format(ord(main[1]), "02x") + main[2:])  # its first letter %-encoded
    assert git_records(world, command) == (codes, records), command


def test_a_gitfile_made_in_an_earlier_call_is_followed(world: Repo) -> None:
    """Review 27b: git follows a file holding `gitdir: X` given as a remote; one made in an earlier call (a copy of
    W's `.git` file) led a pull into the main repository's `main`."""
    (world.base / "g").write_text(f"gitdir: {world.main}/.git\n")
    (world.base / "h").write_text("not a gitfile\n")
    assert git_records(world, "git push -q {BASE}/g HEAD:main")[0] == {"WG305"}
    assert git_records(world, "git push -q {BASE}/h HEAD:main") == (set(), [])


def test_git_tries_its_dot_git_suffixes_on_a_local_remote(world: Repo) -> None:
    """Review 27a: git's `enter_repo` also tries `<path>.git`, `<path>/.git` and `<path>.git/.git`. Links made in an
    earlier call to the main repository's git dir under each of those names lead a pull given `<path>` into it
    (phase 12's run of rules/git: every suffix of `_is_this_repository` survived before these)."""
    git_dir = world.main / ".git"
    (world.base / "b.git").symlink_to(git_dir)
    (world.base / "d").mkdir()
    (world.base / "d" / ".git").symlink_to(git_dir)
    (world.base / "c.git").mkdir()
    (world.base / "c.git" / ".git").symlink_to(git_dir)
    (world.base / "e").mkdir()
    (world.base / "f.git").write_text(f"gitdir: {git_dir}\n")  # `<path>.git` a file holding `gitdir:`
    for name in ("b", "d", "c", "f"):
        assert git_records(world, f"git push -q {{BASE}}/{name} HEAD:main")[0] == {"WG305"}, name
    assert git_records(world, "git push -q {BASE}/e HEAD:main") == (set(), [])


@pytest.mark.parametrize(("command", "key", "why"), [
    ("git config --worktree --edit", "(an edited, renamed or removed section)", "worktree-guard cannot tell which keys it holds then"),
    ("git config --worktree edit", "edit", "worktree-guard cannot tell which keys it holds then"),
    ('git config --worktree "$K" v', "(a key only known at run time)", "it may be one that runs code or sends a later push or fetch into a checked-out branch"),
])
def test_a_lasting_door_that_cannot_be_read_says_so_exactly(world: Repo, command: str, key: str, why: str) -> None:
    """The WG305 of a `git config --worktree` whose keys cannot be read names what it is and why, word for word
    (phase 12's run of rules/git: the reason fragments alone let their text change)."""
    _, records = git_records(world, command)
    assert [r[1] for r in records] == [f"`git config --worktree {key}` stays in the config of {{W}} after this command, and {why}; set it with `git -c` on the one git command that needs it, where worktree-guard can check it, or ask the user."]


# --- stop 28: a fetch or pull moves the refs of the repository git runs in, whatever the remote ---
# `git pull origin main:main` in W moved the main checkout's `main` (git 2.39: pull fetches with --update-head-ok);
# only a remote that is this repository was judged before. A push still moves the remote's refs only.
MOVED_BY_PULL = "`git pull` would move `main`, the branch checked out in {MAIN}."
MOVED_BY_FETCH = "`git fetch` would move `main`, the branch checked out in {MAIN}."
UNKNOWN_REFSPEC = "`git {sub}` into this repository with a refspec or option only known at run time could move a checked-out branch."
PULL_INTO_SHARED_RECORDS: list[tuple[str, set, list]] = [
    ("git pull origin main:main", {"WG305"}, [("WG305", MOVED_BY_PULL, {}, "ALL")]),
    ("git pull -q --no-rebase origin +x:refs/heads/main", {"WG305"}, [("WG305", MOVED_BY_PULL, {}, "ALL")]),
    ("git pull origin x:heads/main", {"WG305"}, [("WG305", MOVED_BY_PULL, {}, "ALL")]),
    ("git -C src pull origin x:main", {"WG305"}, [("WG305", MOVED_BY_PULL, {}, "ALL")]),
    ("git fetch origin main:main", {"WG305"}, [("WG305", MOVED_BY_FETCH, {}, "ALL")]),
    ("git pull origin 'ma*:ma*'", {"WG305"}, [("WG305", MOVED_BY_PULL, {}, "ALL")]),
    ("git pull origin $X", {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="pull"), {}, "ALL")]),
    ("git pull origin main", set(), []),
    ("git pull origin main:mine", set(), []),
    ("git pull origin x:refs/remotes/origin/main", set(), []),
    ("git fetch origin '+refs/heads/*:refs/remotes/origin/*'", set(), []),
    # unquoted, that refspec is a glob: whatever bash makes of it, its destination matches the pattern with `*` and `?`
    # as any text (review 28a: `touch x:main && git pull . x:ma?n` moved main), and may be a full name
    ("git fetch origin +refs/heads/*:refs/remotes/origin/*", set(), []),
    ("touch x:main && git pull -q . x:ma?n", {"WG305"}, [("WG305", MOVED_BY_PULL, {}, "git pull -q . x:ma?n")]),
    ("git pull -q . 'x:ma?n'", set(), []),  # quoted: `?` is no branch name's character, git refuses it
    ("git pull -q . x:mai[n]", {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="pull"), {}, "ALL")]),
    ("git pull -q . x:mai\\?", set(), []),  # escaped: a literal `?`, as quoted
    ("git pull -q . x:r*/heads/main", {"WG305"}, [("WG305", MOVED_BY_PULL, {}, "ALL")]),
    ("git pull -q . x:m*n", {"WG305"}, [("WG305", MOVED_BY_PULL, {}, "ALL")]),
    ("git pull -q . x:m*x", set(), []),
    ("shopt -s nocaseglob; git pull -q . x:MAI?", {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="pull"), {}, "git pull -q . x:MAI?")]),
    # --refmap, which pull passes on to fetch (review 28a), in any spelling; an option only known at run time may be it
    ("git pull -q --no-rebase --refmap=+refs/heads/*:refs/heads/* origin main", {"WG305"}, [
        ("WG305", MOVED_BY_PULL, {}, "ALL"),
        ("WG305", "`git pull` would move `worktree-agent-afedcba0987654321`, the branch checked out in {SIB}.", {}, "ALL"),
        ("WG305", "`git pull` would move `outside`, the branch checked out in {OUT}.", {}, "ALL"),
    ]),
    ("git pull --refmap +refs/heads/x:refs/heads/main . x", {"WG305"}, [("WG305", MOVED_BY_PULL, {}, "ALL")]),
    ("git pull --refm=+refs/heads/x:refs/heads/main . x", {"WG305"}, [("WG305", MOVED_BY_PULL, {}, "ALL")]),
    ("git fetch --refmap=+refs/heads/x:refs/heads/main origin x", {"WG305"}, [("WG305", MOVED_BY_FETCH, {}, "ALL")]),
    ("git fetch --ref=+refs/heads/*:refs/heads/ma* origin x", {"WG305"}, [("WG305", MOVED_BY_FETCH, {}, "ALL")]),
    ("git pull -q --refmap=+refs/heads/*:refs/remotes/o/* origin main", set(), []),
    ("git fetch origin --refmap=HEAD:refs/guardian/x HEAD", set(), []),
    ("git fetch -$X origin", {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="fetch"), {}, "ALL")]),
    ("git pull --re=$R origin x", {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="pull"), {}, "ALL")]),
    ("git fetch --depth=$N origin", {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="fetch"), {}, "ALL")]),  # may split (review 28c)
    ('git fetch --depth="$N" origin', set(), []),
    ('git fetch -j "$J" --all', set(), []),
    ('git pull -s "$S" origin main', set(), []),
    ("git pull origin --jobs=$X", {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="pull"), {}, "ALL")]),
    ('git pull "$@"', {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="pull"), {}, "ALL")]),
    ('echo main:main | git fetch --stdin "$R"', {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="fetch"), {}, "git fetch --stdin \"$R\"")]),
    # review 28b: a word only known at run time may be an option or split into refspecs; a quoted remote alone is one
    # word, and pull ignores --refmap without a refspec
    ("git pull -- $X", {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="pull"), {}, "ALL")]),
    ("git pull -q $(echo --refmap=+refs/heads/main:refs/heads/main) origin main", {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="pull"), {}, "ALL")]),
    ('git pull -q "$R"', {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="pull"), {}, "ALL")]),  # "$R" may be -u or --upload-pack=… (review 28c)
    ('git pull -q "$R" main', {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="pull"), {}, "ALL")]),
    ('git fetch origin "$BRANCH"', {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="fetch"), {}, "ALL")]),
    # a glob without a colon may match `x:main`, one that starts with a wildcard an option (review 28b)
    ("touch x:main && git pull -q . x*", {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="pull"), {}, "git pull -q . x*")]),
    ("git pull -q origin main?main", {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="pull"), {}, "ALL")]),
    ("git pull -q . x ?-refmap=+refs/heads/x?refs/heads/main", {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="pull"), {}, "ALL")]),
    ("git pull -q -o -- --refmap=+refs/heads/x*:refs/heads/mai* . x", {"WG305"}, [("WG305", MOVED_BY_PULL, {}, "ALL")]),
    ("git pull -q . x --refmap=+refs/heads/x*:refs/remotes/o/*", set(), []),
    # in a shell that options on its command line may have changed (review 28b: `bash -O nocaseglob -c`)
    ('bash -O nocaseglob -c "git pull -q . x:MA?N"', {"WG305"}, [("WG305", UNKNOWN_REFSPEC.format(sub="pull"), {}, "git pull -q . x:MA?N")]),
    ("git pull -q . x:MA?N", set(), []),
    ("git fetch --all --prune", set(), []),
    # git fetch's --update-head-ok in any unique abbreviation (review 28a: `--update-h` moved main)
    ("git fetch -q --update-h origin main", {"WG305"}, [("WG305", "`git fetch --update-head-ok` may move a branch another checkout has checked out (through any refspec, remote config or --refmap); fetch into a branch of your own instead.", {}, "ALL")]),
    # pull's options that take a value are read as such: `-X theirs` is no remote
    ("git pull -X theirs . x:main", {"WG305"}, [("WG305", MOVED_BY_PULL, {}, "ALL")]),
    ("git pull -s ours origin main", set(), []),
    ("git fetch origin +refs/heads/*:refs/heads/*", {"WG305"}, [
        ("WG305", MOVED_BY_FETCH, {}, "ALL"),
        ("WG305", "`git fetch` would move `worktree-agent-afedcba0987654321`, the branch checked out in {SIB}.", {}, "ALL"),
        ("WG305", "`git fetch` would move `outside`, the branch checked out in {OUT}.", {}, "ALL"),
    ]),
    # …whatever matches it: a `*` that matched a colon would leave git a source with a colon, which it refuses
    ("mkdir -p +refs/heads && git fetch origin +refs/heads/*:refs/remotes/origin/*", set(), []),
    # a push sends to the remote: only one that is this repository counts
    ("git push origin HEAD:main", set(), []),
    ("git push . HEAD:main", {"WG305"}, [("WG305", "`git push` would move `main`, the branch checked out in {MAIN}.", {}, "ALL")]),
    # where git runs is not known, or is a shared checkout: its refs are this repository's all the same
    ('git -C "$D" pull -q origin x:main', {"WG303", "WG305"}, [
        ("WG303", 'worktree-guard cannot tell which checkout this git command acts on (-C "$D" is only known at run time); run git with literal paths inside {W}.', {}, "ALL"),
        ("WG305", MOVED_BY_PULL, {}, "ALL"),
    ]),
    ("git -C {MAIN} pull -q origin x:main", {"WG302", "WG305"}, [
        ("WG302", "`git pull` would change the working tree, index or HEAD of the shared checkout {MAIN}; run it in this agent's worktree {W}.", {"path": "{MAIN}", "resolved": "{MAIN}", "shared_root": "{MAIN}", "suggestion": "{W}"}, "ALL"),
        ("WG305", MOVED_BY_PULL, {}, "ALL"),
    ]),
    # this repository given by its git dir, from a directory in no repository
    ("git --git-dir={MAIN}/.git -C {BASE} fetch origin x:main", {"WG305"}, [("WG305", MOVED_BY_FETCH, {}, "ALL")]),
]


@pytest.mark.parametrize(("command", "codes", "records"), PULL_INTO_SHARED_RECORDS, ids=[plain_id(c, 60) for c, _, _ in PULL_INTO_SHARED_RECORDS])
def test_a_pull_into_a_shared_branch_is_refused_whatever_the_remote(world: Repo, command: str, codes: set, records: list) -> None:
    assert git_records(world, command) == (codes, records), command


def test_a_fetch_in_another_repository_moves_only_that_repositorys_branches(world: Repo, tmp_path) -> None:
    """Where git runs in a repository of its own (not W, not a shared checkout, not given this repository's git
    dir), its `main` is not the main checkout's."""
    from tests.helpers import git

    other = tmp_path / "other"
    git("init", "-q", "-b", "main", str(other), cwd=tmp_path)
    assert git_records(world, f"git -C {other} pull origin x:main") == (set(), [])
    assert git_records(world, f"git -C {other} fetch origin x:main") == (set(), [])
    assert git_records(world, f"git --git-dir={other}/.git -C {other} fetch origin x:main") == (set(), [])


def test_a_glob_refspec_is_read_as_bash_passes_it_not_as_a_path(world: Repo) -> None:
    """Review 28a: a glob refspec joined to the directory git runs in split at that directory's colon (`a:b`), and the
    destination `refs/heads/*` was never read; `main` moved."""
    (world.worktree / "a:b").mkdir()
    assert git_records(world, "cd a:b && git pull -q . +refs/heads/x/*:refs/heads/main")[0] == {"WG305"}
    assert git_records(world, "cd a:b && git pull -q . +refs/heads/x/*:refs/remotes/x/*") == (set(), [])


# --- phase 13 (rules/git after review 27b: `_side_doors`, `_lasting_door`, `_is_this_repository`) ------------------
# Rows written for the survivors of phase 13's mutation run, each shown to fail on its mutant.

PHASE_13_LASTING_ROWS: list[tuple[str, str | None]] = [
    ("git config --worktree remote.origin.push Xmain", None),  # only `+` is stripped: `Xmain` is no `main`
    ("git config --worktree remote.origin.prune true", None),  # of a remote's keys only `mirror` mirrors
    ("git config --worktree x.y.mirror true", None),  # and only a remote's
]


@pytest.mark.parametrize(("command", "why"), PHASE_13_LASTING_ROWS, ids=[plain_id(c, 60) for c, _ in PHASE_13_LASTING_ROWS])
def test_phase_13_lasting_doors(world: Repo, command: str, why: str | None) -> None:
    assert_lasting_door(world, command, why)


PUSH_MOVES_MAIN = ("WG305", "`git push` would move `main`, the branch checked out in {MAIN}.", {})  # a push: only its remote is judged (stop 28)
WRITTEN_REMOTE_ROWS: list[tuple[str, set, list]] = [
    # {BASE}/d/.git leads elsewhere now; the command writes {BASE}/d itself first, so git may find anything there
    ("rm -rf {BASE}/d && cp .git {BASE}/d && git push -q {BASE}/d HEAD:main", {"WG305"}, [(*PUSH_MOVES_MAIN, "git push -q {BASE}/d HEAD:main")]),
    ("touch {BASE}/d && git push -q {BASE}/d HEAD:main", {"WG305"}, [(*PUSH_MOVES_MAIN, "git push -q {BASE}/d HEAD:main")]),
    ("git push -q {BASE}/d HEAD:main", set(), []),
    # below a directory the command writes (its name ending in X: only a `/` is taken off its end)
    ("mkdir -p {BASE}/p && git push -q {BASE}/p/q HEAD:main", {"WG305"}, [(*PUSH_MOVES_MAIN, "git push -q {BASE}/p/q HEAD:main")]),
    ("mkdir -p {BASE}/pX && git push -q {BASE}/pX/q HEAD:main", {"WG305"}, [(*PUSH_MOVES_MAIN, "git push -q {BASE}/pX/q HEAD:main")]),
    ("mkdir -p {BASE}/p && git push -q {BASE}/pq HEAD:main", set(), []),
    ("mkdir -p '{BASE}/p ' && git push -q {BASE}/p/q HEAD:main", set(), []),  # `p ` is no `p`
    # a write whose target is only known at run time may have made any remote
    ('cp .git "$D" && git push -q {BASE}/e HEAD:main', {"WG305", "WG403"}, [(*PUSH_MOVES_MAIN, "git push -q {BASE}/e HEAD:main")]),
]


@pytest.mark.parametrize(("command", "codes", "records"), WRITTEN_REMOTE_ROWS, ids=[plain_id(c, 60) for c, _, _ in WRITTEN_REMOTE_ROWS])
def test_phase_13_a_remote_the_command_writes_first(world: Repo, command: str, codes: set, records: list) -> None:
    """A local remote this command writes (or a write only known at run time) may become any git dir: WG305 for a
    refspec into main, also where the remote's `.git` now leads elsewhere (its own path is compared, not only what
    lies below it: phase 13's run, `_is_this_repository`)."""
    (world.base / "d").mkdir()
    (world.base / "d" / ".git").symlink_to(world.base / "nowhere")
    assert git_records(world, command) == (codes, records), command


TO_A_PATH = "a later push or fetch in it would go to a path on this machine, which is or may come to be this repository itself, whose branches the other checkouts have checked out"
EXACT_LASTING_REASONS: list[tuple[str, str, str]] = [
    ("git config --worktree core.worktree {MAIN}", "core.worktree", "a later git in it would find another work tree or read config worktree-guard has not read"),
    ("git config --worktree core.fsmonitor x", "core.fsmonitor", "a later git in it would run that code, or let a push update a checked-out branch, without worktree-guard seeing it"),
    ("git config --worktree Remote.Origin.URL {W}", "Remote.Origin.URL", TO_A_PATH),
    ("git config --worktree branch.b.remote .", "branch.b.remote", TO_A_PATH),
    ("git config --worktree url./.insteadOf gh:", "url./.insteadOf", "a later push or fetch in it would be rewritten to a path on this machine, which may be this repository itself, whose branches the other checkouts have checked out"),
    ("git config --worktree http.cookieFile /tmp/x", "http.cookieFile", "a later git in it would send or read files named elsewhere"),
    ("git config --worktree remote.origin.fetch +refs/heads/x:main", "remote.origin.fetch", "a later `git fetch` or `pull` in it could move a branch another checkout has checked out"),
    ("git config --worktree remote.origin.push main", "remote.origin.push", "a later `git push` or `pull` in it could move a branch another checkout has checked out"),
    ("git config --worktree remote.origin.mirror true", "remote.origin.mirror", "a later `git push` in it would mirror every ref"),
    ("git config --worktree push.default upstream", "push.default", "a later `git push` in it would push to the branch's upstream, which may be a branch another checkout has checked out"),
]


@pytest.mark.parametrize(("command", "key", "why"), EXACT_LASTING_REASONS, ids=[plain_id(c, 60) for c, _, _ in EXACT_LASTING_REASONS])
def test_phase_13_each_lasting_door_says_why_exactly(world: Repo, command: str, key: str, why: str) -> None:
    """Each reason of `_lasting_door`, word for word (phase 13's run: the reason fragments of LASTING_DOOR_ROWS let
    the rest of each text change)."""
    test_a_lasting_door_that_cannot_be_read_says_so_exactly(world, command, key, why)


@pytest.mark.parametrize("command", [
    'git fetch --upload-pack="$X" .', "git fetch --upl=$X origin", 'git ls-remote --upload-pack="$X" .',
    'git rebase --exec="$X" --root', 'git rebase -x"$X" --root', 'git push --receive-pack=$X origin HEAD',
    'git clone -u"$X" x y', 'git clone --upload-pack="$X" x y',
])
def test_a_code_option_whose_value_is_only_known_at_run_time_is_wg404_in_any_spelling(world: Repo, command: str) -> None:
    """Review 28c: `--upload-pack="$X"` (one word) passed while `--upload-pack "$X"` was WG404; git ran the code and
    it wrote into the main checkout."""
    assert "WG404" in bash(world, command).codes, command


@pytest.mark.parametrize("command", ["git rebase -i HEAD~1", "git clone -q x y", 'git fetch --depth="$N" origin'])
def test_an_option_beside_a_code_option_is_no_code(world: Repo, command: str) -> None:
    assert "WG404" not in bash(world, command).codes, command
