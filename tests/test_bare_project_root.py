"""A linked worktree of a bare repository has no main worktree. The project file and the agent definitions were
read from W there, which the agent can write: a `.worktree-guard.toml` with `mode = "off"` or `isolated = false`,
or a definition of its own type, switched its guard off. They are now read from a place it cannot write
(engine.project_root_of): the checkout W lies in, else the directory holding the bare repository.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import Repo, git, payload, run_hook_inline, write_agent


@pytest.fixture
def bare(repo: Repo, temp_elsewhere: Path) -> dict[str, Path]:
    """`proj/.bare` (a bare clone), its linked worktrees `proj/main` and `proj/feat`, and a sub-agent's worktree
    nested in `proj/main/.claude/worktrees/`, as Claude Code makes them; outside the allow-listed temp dir, as on a
    user's machine (in it, the agent could write `proj/.worktree-guard.toml` itself: see the last test)."""
    proj = repo.base / "proj"
    proj.mkdir()
    git("clone", "-q", "--bare", str(repo.main), str(proj / ".bare"), cwd=repo.base)
    git("worktree", "add", "-q", str(proj / "main"), "main", cwd=proj / ".bare")
    git("worktree", "add", "-q", "-b", "feat", str(proj / "feat"), "main", cwd=proj / ".bare")
    nested = proj / "main" / ".claude" / "worktrees" / "agent-b1234567890abcdef"
    git("worktree", "add", "-q", "-b", "worktree-agent-b1234567890abcdef", str(nested), "main", cwd=proj / ".bare")
    return {"proj": proj, "main": proj / "main", "feat": proj / "feat", "nested": nested}


def write_call(cwd: Path, target: Path, agent_type: str = "general-purpose") -> list[str] | str:
    result = run_hook_inline(payload(cwd, "Write", {"file_path": str(target), "content": "x"}, agent_id="b1234567890abcdef", agent_type=agent_type))
    return "pass" if result.decision == "pass" else result.codes


@pytest.mark.parametrize("text", ['mode = "off"\n', "isolated = false\n"])
def test_a_project_file_the_agent_writes_into_its_own_worktree_does_not_loosen_its_guard(bare: dict[str, Path], text: str) -> None:
    assert write_call(bare["feat"], bare["main"] / "x") == ["WG101"]
    assert write_call(bare["feat"], bare["feat"] / ".worktree-guard.toml") == "pass"  # its own file: it may edit it
    (bare["feat"] / ".worktree-guard.toml").write_text(text)
    (bare["feat"] / "pyproject.toml").write_text("[tool.worktree-guard]\n" + text)
    assert write_call(bare["feat"], bare["main"] / "x") == ["WG101"]
    (bare["nested"] / ".worktree-guard.toml").write_text(text)
    assert write_call(bare["nested"], bare["feat"] / "x") == ["WG101"]


def test_the_project_file_of_a_bare_repository_is_read_beside_it(bare: dict[str, Path]) -> None:
    (bare["main"] / ".worktree-guard.toml").write_text('mode = "off"\n')  # the session's checkout: an agent there can write it
    assert write_call(bare["nested"], bare["feat"] / "x") == ["WG101"]
    assert write_call(bare["feat"], bare["main"] / "y") == ["WG101"]
    (bare["proj"] / ".worktree-guard.toml").write_text('mode = "off"\n')
    assert write_call(bare["feat"], bare["main"] / "x") == "pass"  # the user's own file, where no agent can write
    assert write_call(bare["nested"], bare["feat"] / "x") == "pass"


def test_an_agent_definition_the_agent_writes_into_its_own_worktree_does_not_count(bare: dict[str, Path]) -> None:
    for where in (bare["feat"], bare["nested"], bare["main"]):  # main: the parent of nested, which it could use
        write_agent(where, "general-purpose", "name: general-purpose\nworktree-guard:\n  mode: \"off\"")
    assert write_call(bare["feat"], bare["main"] / "x") == ["WG101"]
    assert write_call(bare["nested"], bare["feat"] / "x") == ["WG101"]
    write_agent(bare["proj"], "general-purpose", "name: general-purpose\nworktree-guard:\n  mode: \"off\"")
    assert write_call(bare["nested"], bare["feat"] / "x") == "pass"  # the definition beside the repository counts


@pytest.mark.parametrize("inner", ["same repository", "a bare repository made in W", "a repository made in W"])
def test_a_worktree_the_agent_makes_inside_its_own_does_not_make_w_its_project(bare: dict[str, Path], inner: str) -> None:
    """`git worktree add x && cd x`: from W/x, the real W is a shared root around the cwd, where the agent wrote
    `mode = "off"` before; and a repository it made in W has its main worktree, or its holder, in W."""
    w = bare["feat"]
    (w / ".worktree-guard.toml").write_text('mode = "off"\n')
    if inner == "same repository":
        git("worktree", "add", "-q", "-b", "x", str(w / "x"), "main", cwd=w)
    elif inner == "a bare repository made in W":
        git("clone", "-q", "--bare", str(bare["proj"] / ".bare"), str(w / "inner.git"), cwd=w)
        git("worktree", "add", "-q", str(w / "x"), "main", cwd=w / "inner.git")
    else:
        git("clone", "-q", str(bare["proj"] / ".bare"), str(w / "inner"), cwd=w)
        (w / "inner" / ".worktree-guard.toml").write_text('mode = "off"\n')
        git("worktree", "add", "-q", "-b", "x", str(w / "x"), cwd=w / "inner")
    assert write_call(w / "x", bare["main"] / "x") == ["WG101"]
    assert write_call(w / "x", w / "x" / "ok") == "pass"


def test_the_main_worktree_is_where_core_worktree_puts_it(repo: Repo) -> None:
    """A repository whose git dir is `holder/.git` and whose work tree (`core.worktree`) is `checkout`: the project
    file is the checkout's, as git names it, not one in the git dir's parent."""
    holder, checkout, linked = repo.base / "holder", repo.base / "checkout", repo.base / "linked"
    git("init", "-q", "-b", "main", str(holder), cwd=repo.base)
    checkout.mkdir()
    git("config", "core.worktree", str(checkout), cwd=holder)
    (checkout / "f").write_text("x\n")
    git("add", "-A", cwd=holder)
    git("commit", "-q", "-m", "i", cwd=holder)
    git("worktree", "add", "-q", "-b", "l", str(linked), cwd=holder)
    assert write_call(linked, checkout / "f") == ["WG101"]
    (holder / ".worktree-guard.toml").write_text('mode = "off"\n')
    assert write_call(linked, checkout / "f") == ["WG101"]
    (checkout / ".worktree-guard.toml").write_text('mode = "off"\n')
    assert write_call(linked, checkout / "f") == "pass"


def test_in_the_temp_dir_the_file_beside_a_bare_repository_is_the_agents_to_write(repo: Repo) -> None:
    """Without `temp_elsewhere` the repository lies in the allow-listed temp dir: the agent may write
    `proj/.worktree-guard.toml`, so it only counts for the agent's isolation, never to loosen it."""
    proj = repo.base / "proj"
    proj.mkdir()
    git("clone", "-q", "--bare", str(repo.main), str(proj / ".bare"), cwd=repo.base)
    git("worktree", "add", "-q", str(proj / "main"), "main", cwd=proj / ".bare")
    git("worktree", "add", "-q", "-b", "feat", str(proj / "feat"), "main", cwd=proj / ".bare")
    assert write_call(proj / "feat", proj / ".worktree-guard.toml") == "pass"  # the agent can write it
    (proj / ".worktree-guard.toml").write_text('mode = "off"\nisolated = false\n')
    assert write_call(proj / "feat", proj / "main" / "x") == ["WG101"]


def test_a_fetch_given_the_bare_git_dir_may_move_a_worktrees_branch(bare: dict[str, Path]) -> None:
    """A fetch or pull moves the branches of the repository git runs in: here the bare one, named by `--git-dir`
    from a directory in no checkout, whose `main` the checkout `proj/main` has checked out (stop 28)."""

    def codes(command: str) -> list[str] | str:
        result = run_hook_inline(payload(bare["feat"], "Bash", {"command": command}, agent_id="b1234567890abcdef"))
        return "pass" if result.decision == "pass" else result.codes

    git_dir, elsewhere = bare["proj"] / ".bare", bare["proj"]
    assert codes(f"git --git-dir={git_dir} -C {elsewhere} fetch origin x:main") == ["WG305"]
    assert codes(f"git --git-dir={git_dir}/worktrees/feat -C {elsewhere} pull origin x:main") == ["WG305"]
    assert codes(f"git --git-dir={git_dir} -C {elsewhere} fetch origin x:mine") == "pass"
    assert codes(f"git --git-dir={git_dir}x -C {elsewhere} fetch origin x:main") == "pass"  # a name beside it
    # run inside the git dir, git finds it there (review 28a: `git -C <bare> --work-tree=… pull origin main:main`)
    # (and the pull's merge moves `main`, HEAD's branch there, which proj/main has checked out: stop 29)
    assert codes(f"git -C {git_dir} --work-tree={elsewhere} pull origin x:main") == ["WG302", "WG305"]
    assert codes(f"git -C {git_dir}/refs --work-tree={elsewhere} fetch origin x:main") == ["WG305"]
    # a file holding `gitdir:` given as the git dir is followed, as git does (review 28a)
    (elsewhere / "gf").write_text(f"gitdir: {git_dir}\n")
    (elsewhere / "gx").write_text(f"gitdir: {git_dir}x\n")
    assert codes(f"git --git-dir={elsewhere}/gf -C {elsewhere} fetch origin x:main") == ["WG305"]
    assert codes(f"git --git-dir={elsewhere}/gx -C {elsewhere} fetch origin x:main") == "pass"


def _rev(cwd: Path, ref: str) -> str:
    import subprocess

    return subprocess.run(["git", "rev-parse", ref], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def test_a_reset_in_the_bare_git_dir_moves_a_worktrees_branch_and_is_refused(bare: dict[str, Path]) -> None:
    """Run in the bare repository itself (`-C <proj>/.bare`, `--git-dir`), git finds that git dir, not the project's
    `.git` file above it: `reset --soft` moves the branch its HEAD names, `main`, which the checkout `proj/main` has
    checked out (review 28a's L3: passed until stop 29). Run for real after the verdict, it moves `main`."""

    def codes(command: str) -> list[str] | str:
        result = run_hook_inline(payload(bare["feat"], "Bash", {"command": command}, agent_id="b1234567890abcdef"))
        return "pass" if result.decision == "pass" else result.codes

    git_dir, proj = bare["proj"] / ".bare", bare["proj"]
    git("commit", "-q", "--allow-empty", "-m", "second", cwd=bare["main"])
    (proj / ".git").write_text("gitdir: ./.bare\n")  # the usual bare layout: git run in proj finds .bare
    for command in (
        f"git -C {git_dir} reset --soft HEAD~1",
        f"git -C {git_dir}/refs reset --soft HEAD~1",
        f"git --git-dir={git_dir} -C {proj} reset --soft HEAD~1",
        f"git -C {git_dir} --work-tree={proj}/tmp-tree commit --allow-empty -qm x",
    ):
        assert codes(command) == ["WG302"], command
    assert codes(f"git -C {git_dir} log --oneline") == "pass"
    assert codes(f"git -C {git_dir} rev-parse HEAD") == "pass"
    # HEAD detached in the bare repository, or naming a branch no worktree has: no checkout's branch moves
    git("symbolic-ref", "HEAD", "refs/heads/nobody", cwd=git_dir)
    assert codes(f"git -C {git_dir} update-ref refs/heads/nobody {_rev(bare['main'], 'HEAD')}") == "pass"
    git("symbolic-ref", "HEAD", "refs/heads/main", cwd=git_dir)
    # what the refused reset does in git 2.39
    before = _rev(bare["main"], "HEAD")
    git("reset", "-q", "--soft", "HEAD~1", cwd=git_dir)
    assert _rev(bare["main"], "HEAD") != before


def test_a_gitdir_file_given_as_the_git_dir_is_followed_for_every_subcommand(repo: Repo) -> None:
    """`GIT_DIR=/tmp/g git reset --soft HEAD~1`, /tmp/g holding `gitdir: <main>/.git` (written in an earlier call),
    moves the main checkout's branch: git follows the file (review 28a's L4, closed for fetch and pull in stop 28,
    for every subcommand in stop 29). Run for real after the verdict, it moves `main`."""
    git("commit", "-q", "--allow-empty", "-m", "second", cwd=repo.main)
    elsewhere = repo.base / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "g").write_text(f"gitdir: {repo.main}/.git\n")
    (elsewhere / "own").write_text(f"gitdir: {repo.main}/.git/worktrees/{repo.worktree.name}\n")
    (elsewhere / "junk").write_text("not a link\n")

    def codes(command: str) -> list[str] | str:
        result = run_hook_inline(payload(repo.worktree, "Bash", {"command": command}))
        return "pass" if result.decision == "pass" else result.codes

    assert codes(f"GIT_DIR={elsewhere}/g git reset --soft HEAD~1") == ["WG302"]
    assert codes(f"git --git-dir={elsewhere}/g --work-tree={elsewhere} commit --allow-empty -qm x") == ["WG302"]
    assert codes(f"GIT_DIR={elsewhere}/g git log") == "pass"
    assert codes(f"GIT_DIR={elsewhere}/own git reset --soft HEAD") == "pass"  # W's own git dir
    assert codes(f"GIT_DIR={elsewhere}/junk git reset --soft HEAD") == "pass"  # git refuses it
    before = _rev(repo.main, "HEAD")
    import os
    import subprocess

    subprocess.run(["git", "reset", "-q", "--soft", "HEAD~1"], cwd=elsewhere, env={**os.environ, "GIT_DIR": str(elsewhere / "g")}, check=True)
    assert _rev(repo.main, "HEAD") != before
