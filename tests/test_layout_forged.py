"""What lies on the walk up from the cwd cannot loosen an isolated agent's worktree (review of issue 12, F1 and F2).

F1: a sub-agent that made its own worktree unsearchable (`chmod 600 .`) was placed in the main checkout, because a
`.git` that could not be examined counted as absent: unknown must be a refusal (WG000), never "not isolated".
F2: the nearest `.git` won, so a nested repository (`git init sub && cd sub`), a submodule, or a `.git` file written
by hand inside W (`gitdir: <main>/.git`) made the agent a main-worktree agent, not confined. Now an enclosing linked
worktree is still W, a linked worktree is believed only when git's records link back to it, and git commands are
judged where git itself finds its `.git`. Run against the installed command, as the runtime runs it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers import FAST_HOOK, Repo, git, payload, run_hook_process, subagent_payload
from worktree_guard.layout import LayoutUnknown, find_layout, git_checkouts_at


def codes(result) -> set[str]:
    return set(re.findall(r"WG\d{3}", result.reason.rpartition("[worktree-guard")[2]))


def write_main(repo: Repo, cwd: Path) -> dict:
    return subagent_payload(repo, "Write", {"file_path": str(repo.main / "src" / "app.py"), "content": "x"}, cwd=str(cwd))


def bash(repo: Repo, cwd: Path, command: str) -> dict:
    return subagent_payload(repo, "Bash", {"command": command}, cwd=str(cwd))


# --- F1: what cannot be examined is unknown, and refused ------------------------------------------------------------

#: As root, permissions do not apply: the hook runs without the capabilities that bypass them (CAP_DAC_OVERRIDE,
#: CAP_DAC_READ_SEARCH), as an ordinary user's hook would. The directories stay root's, so the guard still loads.
UNPRIVILEGED = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"] if os.geteuid() == 0 else []


def run_unprivileged(data: dict, cwd: Path) -> object:
    return run_hook_process(data, cwd="/", command=[*UNPRIVILEGED, *FAST_HOOK], env={"WT_GUARD_DAEMON": "0"})


@pytest.mark.parametrize("mode", [0o600, 0o000, 0o644])
def test_a_worktree_made_unsearchable_is_refused_not_placed_in_the_main_checkout(repo: Repo, mode: int) -> None:
    """`chmod 600 .`, `chmod 000 .`, `chmod a-x .` in W: the guard cannot look inside W any more."""
    os.chmod(repo.worktree, mode)
    try:
        probe = subprocess.run([*UNPRIVILEGED, "stat", str(repo.worktree / ".git")], capture_output=True)
        assert probe.returncode != 0, "the unprivileged hook could still search W: the test would prove nothing"
        result = run_unprivileged(write_main(repo, repo.worktree), repo.worktree)
        assert (result.returncode, result.decision, codes(result)) == (0, "deny", {"WG000"})
        assert "cannot be examined" in result.reason
        result = run_unprivileged(bash(repo, repo.worktree, f"cd {repo.main} && git switch -c x && echo hi > README.md"), repo.worktree)
        assert (result.decision, codes(result)) == ("deny", {"WG000"})
        sibling = subagent_payload(repo, "Write", {"file_path": str(repo.sibling / "a.txt"), "content": "x"})
        assert codes(run_unprivileged(sibling, repo.worktree)) == {"WG000"}
    finally:
        os.chmod(repo.worktree, 0o755)
    assert codes(run_unprivileged(write_main(repo, repo.worktree), repo.worktree)) == {"WG101"}  # searchable again: W


def test_an_unreadable_list_of_worktrees_is_unknown_not_empty(repo: Repo) -> None:
    """`<common>/worktrees` that cannot be listed would leave the siblings out of S: a write into one would pass."""
    admin = repo.main / ".git" / "worktrees"
    os.chmod(admin, 0o000)
    try:
        data = subagent_payload(repo, "Write", {"file_path": str(repo.outside / "a.txt"), "content": "x"})
        result = run_unprivileged(data, repo.worktree)
        assert (result.decision, codes(result)) == ("deny", {"WG000"})
    finally:
        os.chmod(admin, 0o755)


def test_layout_raises_rather_than_guess_for_an_entry_it_cannot_examine(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    real_stat = os.stat

    def denied(path, *args, **kwargs):
        if str(path) == str(repo.worktree / ".git"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", denied)
    monkeypatch.setattr(os, "lstat", denied)
    with pytest.raises(LayoutUnknown):
        find_layout(str(repo.worktree / "src"))


# --- F2: nested and forged checkouts inside W --------------------------------------------------------------------


def test_a_nested_repository_inside_w_keeps_the_agent_in_w(repo: Repo) -> None:
    nested = repo.worktree / "sub"
    nested.mkdir()
    git("init", "-q", "-b", "main", cwd=nested)
    layout = find_layout(str(nested))
    assert (layout.worktree_root, layout.linked) == (str(repo.worktree), True)
    result = run_hook_process(write_main(repo, nested), cwd=nested)
    assert (result.decision, codes(result)) == ("deny", {"WG101"})
    assert str(repo.worktree / "src" / "app.py") in result.reason  # the suggestion is under W
    result = run_hook_process(bash(repo, nested, f"cd {repo.main} && git checkout -b evil && echo x > README.md"), cwd=nested)
    assert (result.decision, codes(result)) == ("deny", {"WG201", "WG301", "WG401"})
    # Work in the nested repository itself is work inside W.
    inside = run_hook_process(bash(repo, nested, "echo x > a.txt && git add a.txt && git commit -q -m a"), cwd=nested)
    assert inside.decision == "pass"


def test_a_submodule_inside_w_keeps_the_agent_in_w(repo: Repo, tmp_path: Path) -> None:
    library = Path(os.path.realpath(tmp_path)) / "library"
    library.mkdir()
    git("init", "-q", "-b", "main", cwd=library)
    (library / "lib.py").write_text("x = 1\n")
    git("add", "-A", cwd=library)
    git("commit", "-q", "-m", "lib", cwd=library)
    git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(library), "vendor/lib", cwd=repo.worktree)
    sub = repo.worktree / "vendor" / "lib"
    assert (sub / ".git").is_file()  # a link to the git dir under the worktree's admin dir
    assert find_layout(str(sub)).worktree_root == str(repo.worktree)
    result = run_hook_process(write_main(repo, sub), cwd=sub)
    assert (result.decision, codes(result)) == ("deny", {"WG101"})


def test_a_hand_written_dot_git_file_linking_to_the_main_git_dir(repo: Repo) -> None:
    """`gitdir: <main>/.git` in W/sub2: the agent is still in W, and git run there would move MAIN's HEAD."""
    forged = repo.worktree / "sub2"
    forged.mkdir()
    (forged / ".git").write_text(f"gitdir: {repo.main / '.git'}\n")
    assert find_layout(str(forged)).worktree_root == str(repo.worktree)
    assert git_checkouts_at(str(forged)) == [str(forged), str(repo.main)]
    result = run_hook_process(write_main(repo, forged), cwd=forged)
    assert (result.decision, codes(result)) == ("deny", {"WG101"})
    for command, expected in (("git checkout -b evil", {"WG301"}), ("git add -A && git commit -q -m x", {"WG302"}), ("git reset --hard", {"WG302"})):
        result = run_hook_process(bash(repo, forged, command), cwd=forged)
        assert (result.decision, codes(result)) == ("deny", expected), command
    # What git really does there, for the record: the main checkout's branch moves.
    git("checkout", "-q", "-b", "evil", cwd=forged)
    assert git("branch", "--show-current", cwd=repo.main).strip() == "evil"


def test_a_dot_git_file_linking_to_a_siblings_admin_dir_is_not_believed(repo: Repo) -> None:
    """A linked worktree is one whose admin dir's `gitdir` names it back; this one names the sibling."""
    link = (repo.sibling / ".git").read_text()
    forged = repo.worktree / "sub3"
    forged.mkdir()
    (forged / ".git").write_text(link)
    layout = find_layout(str(forged))
    assert layout.worktree_root == str(repo.worktree) and layout.linked
    into_sibling = subagent_payload(repo, "Write", {"file_path": str(repo.sibling / "README.md"), "content": "x"}, cwd=str(forged))
    assert codes(run_hook_process(into_sibling, cwd=forged)) == {"WG101"}


def test_a_dot_git_directory_that_is_no_repository_is_passed_over_as_git_passes_it(repo: Repo) -> None:
    fake = repo.worktree / "sub4"
    (fake / ".git").mkdir(parents=True)
    assert find_layout(str(fake)).worktree_root == str(repo.worktree)
    assert git("rev-parse", "--show-toplevel", cwd=fake).strip() == str(repo.worktree)
    assert codes(run_hook_process(write_main(repo, fake), cwd=fake)) == {"WG101"}


def test_a_worktree_of_another_repository_nested_in_w_is_confined_to_the_enclosing_repositorys_checkouts(repo: Repo) -> None:
    """W/inner is a repository of its own with a linked worktree W/innerwt: that is the nearest linked worktree, and
    the enclosing repository's checkouts (the main one, the siblings, W itself) stay shared."""
    inner = repo.worktree / "inner"
    inner.mkdir()
    git("init", "-q", "-b", "main", cwd=inner)
    git("commit", "-q", "--allow-empty", "-m", "x", cwd=inner)
    git("worktree", "add", "-q", "-b", "b", str(repo.worktree / "innerwt"), cwd=inner)
    layout = find_layout(str(repo.worktree / "innerwt"))
    assert layout.worktree_root == str(repo.worktree / "innerwt")
    assert {str(repo.main), str(repo.sibling), str(repo.outside), str(repo.worktree), str(inner)} <= set(layout.shared_roots)
    result = run_hook_process(write_main(repo, repo.worktree / "innerwt"), cwd=repo.worktree / "innerwt")
    assert codes(result) == {"WG101"}


def test_the_main_agent_in_a_nested_repository_of_the_main_checkout_is_not_confined(repo: Repo) -> None:
    """No linked worktree encloses it: still the main checkout's (or the nested repository's) agent."""
    nested = repo.main / "vendor"
    nested.mkdir()
    git("init", "-q", cwd=nested)
    data = payload(nested, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"})
    assert run_hook_process(data, cwd=nested).stdout == ""


# --- the protect-list: `.git` at any depth inside W ---------------------------------------------------------------


@pytest.mark.parametrize("relative", ["sub/.git", "a/b/.git", "vendor/lib/.git/config"])
def test_writing_a_dot_git_anywhere_inside_w_is_wg103(repo: Repo, relative: str) -> None:
    data = subagent_payload(repo, "Write", {"file_path": str(repo.worktree / relative), "content": f"gitdir: {repo.main / '.git'}\n"})
    result = run_hook_process(data, cwd=repo.worktree)
    assert (result.decision, codes(result)) == ("deny", {"WG103"})
    shell = subagent_payload(repo, "Bash", {"command": f"mkdir -p sub && echo 'gitdir: {repo.main / '.git'}' > {relative}"})
    assert codes(run_hook_process(shell, cwd=repo.worktree)) == {"WG103"}


@pytest.mark.parametrize("relative", ["sub/.gitignore", ".github/workflows/ci.yml", "x.git/y", "a/.gitkeep"])
def test_names_that_only_start_with_dot_git_pass(repo: Repo, relative: str) -> None:
    data = subagent_payload(repo, "Write", {"file_path": str(repo.worktree / relative), "content": "x"})
    assert run_hook_process(data, cwd=repo.worktree).stdout == ""


def test_git_checkouts_at_is_what_git_says(repo: Repo) -> None:
    """Where git finds its `.git`, compared with git itself, for the ordinary places."""
    for where in (repo.main, repo.main / "src", repo.worktree, repo.sibling):
        top = git("rev-parse", "--show-toplevel", cwd=where).strip()
        assert git_checkouts_at(str(where)) == [top]
    shutil.rmtree(repo.outside)
    assert git_checkouts_at("/") == []
