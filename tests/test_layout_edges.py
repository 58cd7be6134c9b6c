"""Layout functions the decisions lean on, at their edges: which checkout owns a git dir, and W set by configuration.

Written from the mutation run's survivors in `layout.py` (bench/mutation.py).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

import pytest

from tests.helpers import Repo, bare_clone, git, lifecycle_payload, payload, run_hook_inline, subagent_payload
from worktree_guard.engine import scope_for
from worktree_guard.layout import find_layout, owner_of_git_dir, with_explicit_root


def git_rev(cwd: Path, ref: str) -> str:
    import subprocess

    return subprocess.run(["git", "rev-parse", ref], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def test_the_owner_of_each_kind_of_git_dir(repo: Repo, tmp_path: Path) -> None:
    common = repo.main / ".git"
    assert owner_of_git_dir(str(common)) == str(repo.main)
    for checkout in (repo.worktree, repo.sibling, repo.outside):
        entry = common / "worktrees" / checkout.name
        assert owner_of_git_dir(str(entry)) == str(checkout), checkout
    bare, wt = bare_clone(repo, tmp_path)
    # a bare repository has no checkout of its own; moving its HEAD's branch moves the worktree that has it (stop 29)
    assert owner_of_git_dir(str(bare)) == str(wt)
    git("symbolic-ref", "HEAD", "refs/heads/nobody", cwd=bare)
    assert owner_of_git_dir(str(bare)) is None  # a branch no worktree has
    git("update-ref", "--no-deref", "HEAD", git_rev(bare, "refs/heads/main"), cwd=bare)
    assert owner_of_git_dir(str(bare)) is None  # detached
    assert owner_of_git_dir(str(tmp_path)) is None  # not a git dir at all
    # a file holding `gitdir:` is followed (review 28a's L4); one that is no such link is no git dir
    (tmp_path / "link").write_text(f"gitdir: {common}\n")
    (tmp_path / "junk").write_text("x\n")
    assert owner_of_git_dir(str(tmp_path / "link")) == str(repo.main)
    assert owner_of_git_dir(str(tmp_path / "junk")) is None
    (common / "junk-link").write_text("x\n")  # no `gitdir:` beside a `.git` dir: still no git dir (not the main checkout)
    assert owner_of_git_dir(str(common / "junk-link")) is None
    # one that cannot be read is unknown, not "no git dir" (phase 21: the read made lenient answered None)
    from worktree_guard.layout import LayoutUnknown

    (tmp_path / "long").write_text("gitdir: /" + "x" * 9000 + "\n")
    with pytest.raises(LayoutUnknown, match=r"long has a first line longer than 8192 characters"):
        owner_of_git_dir(str(tmp_path / "long"))



def test_the_owner_of_a_bare_repository_whose_head_or_worktrees_cannot_be_read_is_unknown(repo: Repo, tmp_path: Path) -> None:
    """Whose branch a bare repository's HEAD moves is read strictly: a HEAD that cannot be read, or a worktree entry
    of its list that cannot be, is LayoutUnknown, not "no worktree has it" (phase 20: `_checkout_of_head_branch`'s
    two strict reads, each lenient in six mutants, answered None)."""
    from worktree_guard.layout import LayoutUnknown, git_checkouts_at

    bare, wt = bare_clone(repo, tmp_path)
    head = (bare / "HEAD").read_text()
    (bare / "HEAD").write_text("ref: refs/heads/" + "x" * 9000 + "\n")
    with pytest.raises(LayoutUnknown, match=r"HEAD has a first line longer than 8192 characters"):
        owner_of_git_dir(str(bare))
    with pytest.raises(LayoutUnknown, match=r"HEAD has a first line longer than 8192 characters"):
        git_checkouts_at(str(bare))
    (bare / "HEAD").write_text(head)
    assert owner_of_git_dir(str(bare)) == str(wt)
    entry = bare / "worktrees" / "zz-unreadable"
    (entry / "gitdir").mkdir(parents=True)
    with pytest.raises(LayoutUnknown, match=r"zz-unreadable/gitdir cannot be read \(Is a directory\)"):
        owner_of_git_dir(str(bare))
    with pytest.raises(LayoutUnknown, match=r"zz-unreadable/gitdir cannot be read \(Is a directory\)"):
        git_checkouts_at(str(bare))

def test_the_owner_of_a_git_dir_whose_core_worktree_is_elsewhere(tmp_path: Path) -> None:
    base = Path(os.path.realpath(tmp_path))
    (base / "repo").mkdir()
    (base / "tree").mkdir()
    git("init", "-q", "-b", "main", cwd=base / "repo")
    git("config", "core.worktree", "../../tree", cwd=base / "repo")
    assert owner_of_git_dir(str(base / "repo" / ".git")) == str(base / "tree")


def test_git_dir_of_a_sibling_worktree_is_that_worktree(repo: Repo) -> None:
    """`GIT_DIR=<common>/worktrees/<sibling>` switches the sibling's branch, wherever git runs."""
    git("branch", "feature", cwd=repo.main)
    entry = repo.main / ".git" / "worktrees" / repo.sibling.name
    result = run_hook_inline(subagent_payload(repo, "Bash", {"command": f"GIT_DIR={entry} git switch feature"}))
    assert result.decision == "deny" and result.codes == ["WG301"]
    assert f"shared checkout {repo.sibling};" in result.reason


def test_a_configured_root_with_configured_shared_roots(repo: Repo, tmp_path: Path) -> None:
    extra = Path(os.path.realpath(tmp_path)) / "extra"
    extra.mkdir()
    layout = with_explicit_root(str(repo.worktree), [str(extra), str(repo.main), str(repo.worktree)])
    assert layout.worktree_root == str(repo.worktree) and layout.source == "configuration"
    assert layout.linked and layout.common_dir == str(repo.main / ".git")
    # Detected shared roots first, each once; the extra one added; W itself never.
    assert layout.shared_roots == [str(repo.main), str(repo.sibling), str(repo.outside), str(extra)]
    flags = {"worktree_root": str(repo.worktree), "shared_roots": [str(extra)]}
    result = run_hook_inline(subagent_payload(repo, "Write", {"file_path": str(extra / "f"), "content": "x"}), flags=flags)
    assert result.decision == "deny" and result.codes == ["WG101"]


def test_a_configured_root_outside_any_repository(tmp_path: Path) -> None:
    root = Path(os.path.realpath(tmp_path)) / "plain"
    root.mkdir()
    layout = with_explicit_root(str(root))
    assert layout.worktree_root == str(root) and layout.shared_roots == [] and not layout.linked
    data = payload(root, "Write", {"file_path": str(root / "a.txt"), "content": "x"})
    assert run_hook_inline(data, flags={"isolated": True, "worktree_root": str(root)}).stdout == ""
    outside = payload(root, "Write", {"file_path": "/opt/wg-test-nowhere/a", "content": "x"})
    assert run_hook_inline(outside, flags={"isolated": True, "worktree_root": str(root)}).codes == ["WG102"]


def test_a_configured_root_keeps_the_repositorys_git_dir_shared(repo: Repo, tmp_path: Path) -> None:
    """A bare repository's git dir lies outside every checkout (here in the allow-listed temp dir): still shared."""
    bare, wt = bare_clone(repo, tmp_path)
    scope = scope_for(str(wt), None, flags={"worktree_root": str(wt)})
    assert scope.layout.source == "configuration" and scope.layout.common_dir == str(bare)
    data = payload(wt, "Write", {"file_path": str(bare / "hooks" / "pre-commit"), "content": "x"}, agent_id="a1", agent_type="t")
    result = run_hook_inline(data, flags={"worktree_root": str(wt)})
    assert result.decision == "deny" and result.codes == ["WG101"]


def test_the_owner_through_a_relative_gitdir_link(repo: Repo) -> None:
    """git >= 2.48 may write relative links (worktree.useRelativePaths): resolved from the entry itself."""
    entry = repo.main / ".git" / "worktrees" / repo.sibling.name
    (entry / "gitdir").write_text(os.path.relpath(repo.sibling / ".git", entry) + "\n")
    assert owner_of_git_dir(str(entry)) == str(repo.sibling)
    # a `gitdir:` file given as the git dir (GIT_DIR=link) whose link is relative: read from the file's directory
    (repo.outside / "rel-link").write_text(f"gitdir: {os.path.relpath(entry, repo.outside)}\n")
    assert owner_of_git_dir(str(repo.outside / "rel-link")) == str(repo.sibling)


def test_a_git_dir_entry_needs_both_its_gitdir_and_commondir_files(tmp_path: Path) -> None:
    entry = Path(os.path.realpath(tmp_path)) / "entry"
    entry.mkdir()
    (entry / "gitdir").write_text("/somewhere/checkout/.git\n")
    assert owner_of_git_dir(str(entry)) is None  # no commondir: not a linked worktree's entry


def test_a_dot_git_directory_is_owned_by_its_parent_even_when_bare(tmp_path: Path) -> None:
    base = Path(os.path.realpath(tmp_path))
    git("init", "-q", "--bare", str(base / "x" / ".git"), cwd=base)
    assert owner_of_git_dir(str(base / "x" / ".git")) == str(base / "x")


def test_inside_a_bare_repository(tmp_path: Path, repo: Repo) -> None:
    bare, _ = bare_clone(repo, tmp_path)
    layout = find_layout(str(bare / "refs" / "heads"))
    assert (layout.worktree_root, layout.common_dir, layout.source, layout.linked) == (None, str(bare), "bare repository", False)


@pytest.mark.parametrize("missing", ["HEAD", "objects"])
def test_a_bare_repository_needs_head_and_objects(tmp_path: Path, missing: str) -> None:
    fake = Path(os.path.realpath(tmp_path)) / "fake.git"
    fake.mkdir()
    (fake / "config").write_text("[core]\n\tbare = true\n")
    if missing != "HEAD":
        (fake / "HEAD").write_text("ref: refs/heads/main\n")
    if missing != "objects":
        (fake / "objects").mkdir()
    layout = find_layout(str(fake))
    assert (layout.source, layout.common_dir) == ("outside git", None)


def test_while_a_call_is_judged_each_directory_is_walked_once_and_each_caller_gets_its_own_copy(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    from worktree_guard import layout

    walks: list[str] = []
    real = layout._find_layout
    monkeypatch.setattr(layout, "_find_layout", lambda cwd: walks.append(cwd) or real(cwd))
    with layout.layouts_remembered():
        first = layout.find_layout(str(repo.worktree))
        first.shared_roots.append("/changed/by/a/caller")
        again = layout.find_layout(str(repo.worktree))
        assert again == real(str(repo.worktree)) and "/changed/by/a/caller" not in again.shared_roots
    assert walks == [str(repo.worktree)]
    layout.find_layout(str(repo.worktree))  # outside a judgement: walked every time
    assert walks == [str(repo.worktree)] * 2


def test_a_lookup_that_fails_is_tried_again(tmp_path: Path) -> None:
    from worktree_guard import layout

    place = tmp_path / "place"
    place.mkdir()
    (place / ".git").write_text(f"gitdir: {tmp_path / 'nowhere'}\n")  # a link that leads nowhere: unknown
    with layout.layouts_remembered():
        with pytest.raises(layout.LayoutUnknown):
            layout.find_layout(str(place))
        (place / ".git").unlink()
        assert layout.find_layout(str(place)).source == "outside git"


def test_a_bash_call_walks_each_checkout_once(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """The heredoc commit asks for the layout of its cwd and of the checkout of each git call: one walk."""
    from worktree_guard import layout

    walks: list[str] = []
    real = layout._find_layout
    monkeypatch.setattr(layout, "_find_layout", lambda cwd: walks.append(cwd) or real(cwd))
    data = subagent_payload(repo, "Bash", {"command": "git add -A && git commit -m \"$(cat <<'EOF'\nx\nEOF\n)\""})
    assert run_hook_inline(data).codes == []
    assert walks == [str(repo.worktree)]


def test_a_memo_left_behind_by_an_interrupted_judgement_is_not_used_by_the_next_call(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """The daemon's request limit may interrupt a judgement anywhere (a review showed one between setting the memo
    and entering its `try`): the next call, on the paths outside the memo too (a sub-agent's start, the failure
    guess), walks the layout afresh. Here a stale 'outside git' for the worktree is left behind on purpose."""
    from worktree_guard import layout

    with pytest.raises(RuntimeError):
        with layout.layouts_remembered():
            raise RuntimeError("interrupted")
    assert layout._REMEMBERED.get() is None
    walks: list[str] = []
    real = layout._find_layout
    monkeypatch.setattr(layout, "_find_layout", lambda cwd: walks.append(cwd) or real(cwd))
    layout._REMEMBERED.set({str(repo.worktree): layout.Layout(worktree_root=None, source="outside git")})
    try:
        started = run_hook_inline(lifecycle_payload(repo, "SubagentStart"))
        assert str(repo.worktree) in started.stdout
        assert str(repo.worktree) in walks
    finally:
        layout._REMEMBERED.set(None)


# --- a cwd that is gone (vanished_worktree_layout) and the branch a checkout has (git_dir_of) ------------------


def test_a_gone_worktree_is_placed_from_gits_records_down_to_a_gone_subdirectory(repo: Repo) -> None:
    """The directory of W was deleted (not `git worktree remove`d): git still lists it, so W and S are known,
    for W itself and for a directory below it that is gone too; a name that only begins like W is not in W."""
    import shutil

    from worktree_guard.layout import Layout, LayoutUnknown, layout_of_cwd, vanished_worktree_layout

    shutil.rmtree(repo.worktree)
    common = str(repo.main / ".git")
    for cwd in (str(repo.worktree), str(repo.worktree / "src" / "deep")):
        layout = vanished_worktree_layout(cwd)
        assert layout == Layout(
            worktree_root=str(repo.worktree),
            shared_roots=layout.shared_roots,
            linked=True,
            common_dir=common,
            source="linked worktree (its directory is gone)",
        )
        assert layout.shared_roots[0] == str(repo.main) and sorted(layout.shared_roots[1:]) == sorted([str(repo.sibling), str(repo.outside)])
        # the entry point for an agent's cwd asks git's records for a cwd that is gone (phase 21: it was only reached
        # through the engine's subprocess tests)
        assert layout_of_cwd(cwd) == layout
    assert layout_of_cwd(str(repo.main / "src")) == find_layout(str(repo.main / "src"))  # there: found as usual
    beside = f"{repo.worktree}-other"
    with pytest.raises(LayoutUnknown) as caught:
        vanished_worktree_layout(beside)
    assert str(caught.value) == f"the call's cwd {beside} does not exist and no git repository lists a worktree there, so the agent cannot be placed"


@pytest.mark.parametrize("name", ["agent-gone-X", "agent-gone "], ids=["ends-in-X", "ends-in-a-space"])
def test_a_gone_worktree_whose_name_ends_in_any_character_is_placed(repo: Repo, name: str) -> None:
    """Only a `/` is taken off the end of a listed worktree before the prefix test (a name may end in a space)."""
    import shutil

    from worktree_guard.layout import vanished_worktree_layout

    top = repo.main / ".claude" / "worktrees" / name
    git("worktree", "add", "-q", "-b", "gone", str(top), cwd=repo.main)
    shutil.rmtree(top)
    assert vanished_worktree_layout(str(top / "src")).worktree_root == str(top)


def test_the_git_dir_and_branch_of_a_linked_worktree_come_from_its_gitdir_link(repo: Repo, tmp_path: Path) -> None:
    from worktree_guard.layout import checked_out_branch, git_dir_of

    assert git_dir_of(str(repo.worktree / ".git")) == str(repo.main / ".git" / "worktrees" / repo.worktree.name)
    assert checked_out_branch(str(repo.worktree)) == "worktree-agent-a1234567890abcdef"
    assert checked_out_branch(str(repo.main)) == "main"
    for text in ("not a link\n", "\n", ""):
        (tmp_path / ".git").write_text(text)
        assert git_dir_of(str(tmp_path / ".git")) is None
    (tmp_path / ".git").write_text("gitdir: sub/.git\n")  # relative to the directory of the `.git` file
    assert git_dir_of(str(tmp_path / ".git")) == os.path.join(os.path.realpath(tmp_path), "sub", ".git")


def test_the_branch_a_checkout_has_is_read_from_its_head(repo: Repo, tmp_path: Path) -> None:
    """A bare repository's own HEAD; a detached HEAD, a HEAD on a tag, a missing HEAD: no branch; `ref:` without
    the space git writes is still a ref (git skips the blanks after `ref:`)."""
    from worktree_guard.layout import checked_out_branch

    bare, _ = bare_clone(repo, tmp_path)
    assert checked_out_branch(str(bare)) == "main"
    git("checkout", "-q", "--detach", cwd=repo.sibling)
    assert checked_out_branch(str(repo.sibling)) is None
    assert checked_out_branch(str(tmp_path)) is None  # no `.git`, no HEAD
    admin = repo.main / ".git" / "worktrees" / repo.outside.name
    (admin / "HEAD").write_text("ref: refs/tags/v1\n")
    assert checked_out_branch(str(repo.outside)) is None
    (admin / "HEAD").write_text("ref:refs/heads/feature\n")
    assert checked_out_branch(str(repo.outside)) == "feature"
    (admin / "HEAD").unlink()
    assert checked_out_branch(str(repo.outside)) is None


def test_where_git_acts_past_dot_git_entries_git_passes_over(repo: Repo) -> None:
    """An empty `.git` directory and a dangling `.git` link are passed over, as git passes them over; a `.git`
    file that is no `gitdir:` link cannot be told; a relative `gitdir:` is read from the `.git` file's directory."""
    from worktree_guard.layout import LayoutUnknown, git_checkouts_at

    empty = repo.worktree / "empty"
    (empty / ".git").mkdir(parents=True)
    assert git_checkouts_at(str(empty)) == [str(repo.worktree)]
    dangling = repo.worktree / "dangling"
    dangling.mkdir()
    (dangling / ".git").symlink_to(repo.worktree / "nowhere")
    assert git_checkouts_at(str(dangling)) == [str(repo.worktree)]
    garbage = repo.worktree / "garbage"
    garbage.mkdir()
    (garbage / ".git").write_text("not a link\n")
    with pytest.raises(LayoutUnknown) as caught:
        git_checkouts_at(str(garbage))
    assert str(caught.value) == f"{garbage / '.git'} is not a readable `gitdir:` link"
    crafted = repo.worktree / "crafted"  # a git dir whose `commondir` names the main one: git works where it is
    (crafted / ".git").mkdir(parents=True)
    (crafted / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (crafted / ".git" / "commondir").write_text(os.path.relpath(repo.main / ".git", crafted / ".git") + "\n")  # as git writes it
    (crafted / ".git" / "config").write_text(f"[core]\n\tworktree = {repo.sibling}\n")  # not read for the work tree
    assert git_checkouts_at(str(crafted))[0] == str(crafted)
    placed = find_layout(str(crafted))  # a linked worktree of the main repository, where its `.git` is
    assert (placed.worktree_root, placed.linked, placed.common_dir, placed.source) == (str(crafted), True, str(repo.main / ".git"), "linked worktree")
    for name, parts in (("no-refs", ["objects"]), ("no-objects", ["refs"])):  # git wants HEAD, objects and refs
        incomplete = repo.worktree / name
        for part in parts:
            (incomplete / ".git" / part).mkdir(parents=True)
        (incomplete / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
        assert git_checkouts_at(str(incomplete)) == [str(repo.worktree)]
    linking = repo.worktree / "linking-crafted"  # a `.git` file naming that git dir: the same
    linking.mkdir()
    (linking / ".git").write_text(f"gitdir: {crafted / '.git'}\n")
    assert git_checkouts_at(str(linking))[0] == str(linking)
    unreadable = repo.worktree / "unreadable"  # a `commondir` that exists but cannot be read (a directory)
    (unreadable / ".git" / "commondir").mkdir(parents=True)
    (unreadable / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    with pytest.raises(LayoutUnknown) as caught:
        git_checkouts_at(str(unreadable))
    assert str(caught.value) == f"{unreadable / '.git' / 'commondir'} cannot be read (Is a directory)"
    relative = repo.worktree / "relative"
    relative.mkdir()
    (relative / ".git").write_text(f"gitdir: {os.path.relpath(repo.main / '.git', relative)}\n")
    assert git_checkouts_at(str(relative)) == [str(relative), str(repo.main)]


def test_where_git_acts_in_a_checkout_whose_git_dir_names_another_work_tree(repo: Repo, tmp_path: Path) -> None:
    """`core.worktree` in a `.git` directory's config: git acts on that work tree, not where the `.git` is; a
    config that cannot be read (here a directory) cannot be told."""
    from worktree_guard.layout import LayoutUnknown, git_checkouts_at

    elsewhere = Path(os.path.realpath(tmp_path)) / "elsewhere"
    elsewhere.mkdir()
    place = Path(os.path.realpath(tmp_path)) / "place"
    place.mkdir()
    git("init", "-q", cwd=place)
    git("config", "core.worktree", "../../elsewhere", cwd=place)  # relative to the git dir, as git reads it
    assert git_checkouts_at(str(place)) == [str(elsewhere)]
    linking = Path(os.path.realpath(tmp_path)) / "linking"
    linking.mkdir()
    (linking / ".git").write_text(f"gitdir: {place / '.git'}\n")  # a `.git` file naming that git dir: the same
    assert git_checkouts_at(str(linking)) == [str(elsewhere)]
    (place / ".git" / "config").unlink()
    (place / ".git" / "config").mkdir()
    with pytest.raises(LayoutUnknown) as caught:
        find_layout(str(place))
    assert str(caught.value) == f"{place / '.git' / 'config'} cannot be read (Is a directory)"
    flagged = Path(os.path.realpath(tmp_path)) / "flagged-bare"  # core.bare in a checkout's `.git`: still W there
    flagged.mkdir()
    git("init", "-q", cwd=flagged)
    git("config", "core.bare", "true", cwd=flagged)
    assert find_layout(str(flagged)).worktree_root == str(flagged)
    for where in (place, linking):
        with pytest.raises(LayoutUnknown) as caught:
            git_checkouts_at(str(where))
        assert str(caught.value) == f"{place / '.git' / 'config'} cannot be read (Is a directory)"


def test_a_bare_repository_that_cannot_be_read_cannot_be_placed(repo: Repo, tmp_path: Path) -> None:
    """Inside a bare repository its worktrees are S: a config or a worktree record that exists but cannot be read
    (here a directory) is LayoutUnknown, never "outside git" (a shared root left out would let a write pass)."""
    from worktree_guard.layout import LayoutUnknown

    bare, worktree = bare_clone(repo, tmp_path)
    placed = find_layout(str(bare))
    assert (placed.source, placed.worktree_root, placed.shared_roots) == ("bare repository", None, [str(worktree)])
    gitdir_record = bare / "worktrees" / worktree.name / "gitdir"
    saved = gitdir_record.read_text()
    gitdir_record.unlink()
    gitdir_record.mkdir()
    with pytest.raises(LayoutUnknown):
        find_layout(str(bare))
    gitdir_record.rmdir()
    gitdir_record.write_text(saved)
    (bare / "config").rename(bare / "config.saved")
    (bare / "config").mkdir()
    with pytest.raises(LayoutUnknown):
        find_layout(str(bare))
    from worktree_guard.layout import git_checkouts_at

    with pytest.raises(LayoutUnknown, match=r"b\.git/config cannot be read \(Is a directory\)"):
        git_checkouts_at(str(bare))  # git run in it: its config says whether it has a work tree (phase 20)


def test_a_linked_worktree_whose_repository_records_cannot_be_read_cannot_be_placed(repo: Repo) -> None:
    """W's main worktree comes from the common config, S from every worktree record: one that exists but cannot be
    read (here a directory) is LayoutUnknown, not a layout with a shared root left out. The worktree outside the
    main checkout: no enclosing checkout reads the records first."""
    from worktree_guard.layout import LayoutUnknown

    assert (find_layout(str(repo.main)).source, find_layout(str(repo.outside)).source) == ("main worktree", "linked worktree")
    record = repo.main / ".git" / "worktrees" / repo.sibling.name / "gitdir"
    record.unlink()
    record.mkdir()
    for where in (repo.outside, repo.main):  # W's records, and the main checkout's list of its worktrees
        with pytest.raises(LayoutUnknown) as caught:
            find_layout(str(where))
        assert str(caught.value) == f"{record} cannot be read (Is a directory)"
    record.rmdir()
    config = repo.main / ".git" / "config"
    config.rename(repo.main / ".git" / "config.saved")
    config.mkdir()
    with pytest.raises(LayoutUnknown) as caught:
        find_layout(str(repo.outside))
    assert str(caught.value) == f"{config} cannot be read (Is a directory)"


@pytest.mark.parametrize("where", ["find_layout", "git_checkouts_at"])
@pytest.mark.parametrize("make", ["fifo", "garbage", "empty"])
def test_a_dot_git_that_is_no_gitdir_link_is_named_as_such(repo: Repo, where: str, make: str) -> None:
    """A `.git` that is neither a directory nor a readable `gitdir:` link (a FIFO is not even opened, a file of
    something else, an empty file) cannot be told from a linked worktree's or a submodule's: LayoutUnknown, in words
    that name the entry (a FIFO read as a file would say "not a regular file"; text read past its first word, that
    it links nowhere)."""
    from worktree_guard.layout import LayoutUnknown, git_checkouts_at

    sub = repo.worktree / "sub"
    sub.mkdir()
    dotgit = sub / ".git"
    if make == "fifo":
        os.mkfifo(dotgit)
    else:
        dotgit.write_text("not a link\n" if make == "garbage" else "")
    judge = find_layout if where == "find_layout" else git_checkouts_at
    with pytest.raises(LayoutUnknown) as caught:
        judge(str(sub))
    expected = f"{dotgit} is not a readable `gitdir:` link"
    assert str(caught.value) == (expected if where == "git_checkouts_at" else f"{expected}, so the checkout at {sub} cannot be placed")


@pytest.mark.parametrize("where", ["find_layout", "git_checkouts_at"])
def test_a_dot_git_link_too_long_to_read_is_named_by_its_length(repo: Repo, where: str) -> None:
    """A `gitdir:` line over MAX_GIT_LINE is read strictly: the refusal says why, not that the link is unreadable."""
    from worktree_guard.layout import MAX_GIT_LINE, LayoutUnknown, git_checkouts_at

    sub = repo.worktree / "sub"
    sub.mkdir()
    dotgit = sub / ".git"
    dotgit.write_text("gitdir: " + "x" * MAX_GIT_LINE + "\n")
    judge = find_layout if where == "find_layout" else git_checkouts_at
    with pytest.raises(LayoutUnknown) as caught:
        judge(str(sub))
    assert str(caught.value) == f"{dotgit} has a first line longer than {MAX_GIT_LINE} characters"


@pytest.mark.parametrize("name", ["commondir", "gitdir"])
def test_a_linked_worktree_whose_admin_links_cannot_be_read_is_unknown(repo: Repo, name: str) -> None:
    """W's admin dir has a `commondir` (or `gitdir` back-link) that is not a file: W cannot be placed. Read
    leniently, an admin dir with its HEAD would pass for a checkout of its own, a main worktree, and the agent would
    not be isolated; a back-link read leniently would make W a forged link."""
    from worktree_guard.layout import LayoutUnknown

    admin = Path((repo.worktree / ".git").read_text().removeprefix("gitdir:").strip())
    (admin / name).unlink()
    (admin / name).mkdir()
    with pytest.raises(LayoutUnknown) as caught:
        find_layout(str(repo.worktree))
    assert str(caught.value) == f"{admin / name} cannot be read (Is a directory)"
    result = run_hook_inline(payload(repo.worktree, "Write", {"file_path": str(repo.main / "x"), "content": ""}))
    assert result.decision == "deny" and result.reason.endswith("[worktree-guard WG000]")


def test_a_linked_worktree_whose_admin_dir_was_pruned_is_still_a_linked_worktree(repo: Repo) -> None:
    """`git worktree prune` (or an rm) took W's `<common>/worktrees/<name>`: W's `.git` still names it, and W is
    placed as a linked worktree of <common>, isolated, with the main checkout shared."""
    import shutil

    admin = Path((repo.worktree / ".git").read_text().removeprefix("gitdir:").strip())
    shutil.rmtree(admin)
    placed = find_layout(str(repo.worktree))
    assert (placed.worktree_root, placed.linked, placed.common_dir, placed.source) == (
        str(repo.worktree), True, str(repo.main / ".git"), "linked worktree (its admin dir is gone)")
    assert placed.shared_roots[0] == str(repo.main) and str(repo.sibling) in placed.shared_roots
    result = run_hook_inline(payload(repo.worktree, "Write", {"file_path": str(repo.main / "x"), "content": ""}))
    assert result.decision == "deny" and result.reason.endswith("[worktree-guard WG101]")


@pytest.mark.parametrize("target", ["beside-worktrees", "worktrees-without-head"])
def test_a_dot_git_link_to_no_git_dir_is_unknown(repo: Repo, tmp_path: Path, target: str) -> None:
    """A `gitdir:` link to a directory that is no git dir can only be a pruned linked worktree when it lies in a
    `worktrees/` directory of a git dir (one with a HEAD); anything else cannot be placed."""
    from worktree_guard.layout import LayoutUnknown

    if target == "beside-worktrees":  # in the main git dir, but not under worktrees/
        gitdir = repo.main / ".git" / "modules" / "gone"
    else:  # under a worktrees/ directory whose parent has no HEAD
        gitdir = tmp_path / "plain" / "worktrees" / "gone"
        gitdir.mkdir(parents=True)
    sub = repo.worktree / "sub"
    sub.mkdir()
    (sub / ".git").write_text(f"gitdir: {gitdir}\n")
    with pytest.raises(LayoutUnknown) as caught:
        find_layout(str(sub))
    assert str(caught.value) == f"{sub / '.git'} links to {gitdir}, which is not a git dir, so the checkout at {sub} cannot be placed"


def test_an_unreadable_config_worktree_is_unknown_when_git_would_read_it(repo: Repo) -> None:
    """With extensions.worktreeConfig on, git reads `config.worktree` (core.worktree may be there): one that cannot
    be read leaves the main worktree unknown, and so W's shared roots."""
    from worktree_guard.layout import LayoutUnknown

    git("config", "extensions.worktreeConfig", "true", cwd=repo.main)
    (repo.main / ".git" / "config.worktree").mkdir()
    with pytest.raises(LayoutUnknown) as caught:
        find_layout(str(repo.worktree))
    assert str(caught.value) == f"{repo.main / '.git' / 'config.worktree'} cannot be read (Is a directory)"


def test_the_owner_of_a_git_dir_is_looked_up_leniently(tmp_path: Path) -> None:
    """owner_of_git_dir names whose HEAD a GIT_DIR moves: a `.git` whose config cannot be read is still its
    parent's (git reads the same HEAD), not an error."""
    base = Path(os.path.realpath(tmp_path))
    git("init", "-q", str(base / "x"), cwd=base)
    (base / "x" / ".git" / "config").unlink()
    (base / "x" / ".git" / "config").mkdir()
    assert owner_of_git_dir(str(base / "x" / ".git")) == str(base / "x")


def test_a_forged_git_dir_that_shares_the_main_refs_is_no_way_to_move_its_branch(repo: Repo, tmp_path: Path) -> None:
    """A git dir made by hand in the temp dir (HEAD naming the main checkout's branch, `commondir` naming its
    `.git`, no `gitdir` link) is one git works through: `GIT_DIR=/tmp/g git commit` moved the main checkout's
    branch (checked with git 2.39) and passed. Whose branch it moves cannot be told: refused."""
    base = Path(os.path.realpath(tmp_path))
    forged, tree = base / "g", base / "x"
    forged.mkdir()
    tree.mkdir()
    (forged / "HEAD").write_text("ref: refs/heads/main\n")
    (forged / "commondir").write_text(f"{repo.main / '.git'}\n")
    result = run_hook_inline(subagent_payload(repo, "Bash", {"command": f"GIT_DIR={forged} GIT_WORK_TREE={tree} git commit --allow-empty -m x"}))
    assert result.codes == ["WG000"]
    assert f"{forged} shares another repository's refs (its `commondir`) but is no worktree's git dir (none that git keeps in that repository's `worktrees`)" in result.reason
    (forged / "gitdir").write_text(f"{tree / '.git'}\n")  # a `gitdir` link written by hand as well: the same
    result = run_hook_inline(subagent_payload(repo, "Bash", {"command": f"GIT_DIR={forged} GIT_WORK_TREE={tree} git commit --allow-empty -m x"}))
    assert result.codes == ["WG000"]
    (tree / ".git").write_text(f"gitdir: {forged}\n")  # the same git dir through a `.git` file: where git acts is unknown
    result = run_hook_inline(subagent_payload(repo, "Bash", {"command": f"git -C {tree} commit --allow-empty -m x"}))
    assert result.codes == ["WG303"]


def test_the_lenient_readers_skip_what_they_cannot_read(repo: Repo, tmp_path: Path) -> None:
    """Leak checks, blame and replays list a repository's checkouts leniently (by default): an entry whose
    `gitdir` cannot be read is left out, the others are listed; layout detection reads the same strictly."""
    from worktree_guard.layout import LayoutUnknown, linked_worktrees_of, main_worktree_of

    common = repo.main / ".git"
    bad = common / "worktrees" / "zz-unreadable"
    (bad / "gitdir").mkdir(parents=True)
    assert set(linked_worktrees_of(str(common))) == {str(repo.worktree), str(repo.sibling), str(repo.outside)}
    with pytest.raises(LayoutUnknown):
        linked_worktrees_of(str(common), strict=True)
    base = Path(os.path.realpath(tmp_path))
    git("init", "-q", "--bare", str(base / "x" / ".git"), cwd=base)  # core.bare = true in a `.git` directory
    assert main_worktree_of(str(base / "x" / ".git")) is None
    git("init", "-q", str(base / "y"), cwd=base)
    assert main_worktree_of(str(base / "y" / ".git")) == str(base / "y")


def _repository(path: Path) -> Path:
    git("init", "-q", "-b", "main", str(path), cwd=path.parent)
    git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", "init", cwd=path)
    return path


def test_worktrees_nested_three_repositories_deep_share_every_enclosing_repositorys_checkouts(tmp_path: Path) -> None:
    """C's worktree inside B's worktree inside A's: W is C's, and the checkouts of B and of A are all shared (the
    enclosing linked worktrees are walked from the nearest outwards, each of them)."""
    base = Path(os.path.realpath(tmp_path))
    a = _repository(base / "A")
    wa = base / "A-wt"
    git("worktree", "add", "-q", "-b", "wa", str(wa), cwd=a)
    b = _repository(wa / "B")
    wb = wa / "B-wt"
    git("worktree", "add", "-q", "-b", "wb", str(wb), cwd=b)
    c = _repository(wb / "C")
    wc = wb / "C-wt"
    git("worktree", "add", "-q", "-b", "wc", str(wc), cwd=c)
    placed = find_layout(str(wc))
    assert placed.worktree_root == str(wc) and placed.linked
    assert set(placed.shared_roots) == {str(c), str(wb), str(b), str(wa), str(a)}
    assert len(placed.shared_roots) == len(set(placed.shared_roots))


def test_two_enclosing_worktrees_of_one_repository_share_its_checkouts_once(tmp_path: Path) -> None:
    base = Path(os.path.realpath(tmp_path))
    a = _repository(base / "A")
    outer = base / "A-wt1"
    git("worktree", "add", "-q", "-b", "w1", str(outer), cwd=a)
    inner = outer / "inner"
    git("worktree", "add", "-q", "-b", "w2", str(inner), cwd=a)
    b = _repository(base / "B")
    wb = inner / "B-wt"
    git("worktree", "add", "-q", "-b", "wb", str(wb), cwd=b)
    placed = find_layout(str(wb))
    assert placed.worktree_root == str(wb)
    assert sorted(placed.shared_roots) == sorted([str(b), str(a), str(outer), str(inner)])


def test_an_unconfirmed_dot_git_link_is_w_when_nothing_confirmed_holds_it(repo: Repo, tmp_path: Path) -> None:
    """A `.git` file written by hand that links to W's admin dir (whose `gitdir` names W, not it) is still a linked
    worktree: the agent there is isolated in it. A repository nested inside it does not free the agent either."""
    admin = (repo.worktree / ".git").read_text().removeprefix("gitdir:").strip()
    base = Path(os.path.realpath(tmp_path))
    forged = base / "y"
    forged.mkdir()
    (forged / ".git").write_text(f"gitdir: {admin}\n")
    placed = find_layout(str(forged))
    assert (placed.worktree_root, placed.linked, placed.common_dir) == (str(forged), True, str(repo.main / ".git"))
    nested = _repository(forged / "sub")
    placed = find_layout(str(nested))
    assert (placed.worktree_root, placed.linked) == (str(forged), True)




def test_an_unconfirmed_dot_git_link_inside_w_leaves_w_the_worktree(repo: Repo) -> None:
    """The same hand-written `.git` file, now inside W and linking to the sibling's admin dir (whose `gitdir` names
    the sibling): git's records confirm W and not it, so W stays the worktree (phase 20: the four mutants of
    `linked_back` in `_checkout_at` that confirm every link, or none, all placed the agent in `forged`)."""
    admin = (repo.sibling / ".git").read_text().removeprefix("gitdir:").strip()
    forged = repo.worktree / "forged"
    forged.mkdir()
    (forged / ".git").write_text(f"gitdir: {admin}\n")
    placed = find_layout(str(forged))
    assert (placed.worktree_root, placed.linked, placed.common_dir) == (str(repo.worktree), True, str(repo.main / ".git"))
    assert placed.enclosing == [str(forged), str(repo.worktree)]
    relative = repo.worktree / "rel"
    relative.mkdir()
    (relative / ".git").write_text(f"gitdir: {os.path.relpath(admin, relative)}\n")
    assert find_layout(str(relative)).worktree_root == str(repo.worktree)
    assert find_layout(str(repo.sibling)).worktree_root == str(repo.sibling)  # its own link, confirmed
@pytest.mark.parametrize("value,bare", [("true", True), ("yes", True), ("On", True), ("1", True), ("false", False), ("0", False), ("off", False), ("", False)])
def test_core_bare_takes_gits_boolean_words(tmp_path: Path, value: str, bare: bool) -> None:
    """git's booleans: true/yes/on/1, any case (`bare = On`); a `.git` marked bare has no main worktree."""
    from worktree_guard.layout import main_worktree_of

    base = Path(os.path.realpath(tmp_path))
    (base / "x" / ".git").mkdir(parents=True)
    (base / "x" / ".git" / "config").write_text(f"[core]\n\tbare = {value}\n" if value else "[core]\n\tbare\n")
    assert main_worktree_of(str(base / "x" / ".git")) == (None if bare or not value else str(base / "x"))


def test_a_worktrees_list_that_cannot_be_listed_is_named(repo: Repo) -> None:
    from worktree_guard.layout import LayoutUnknown, linked_worktrees_of

    common = repo.main / ".git"
    (common / "worktrees").rename(common / "worktrees-moved")
    (common / "worktrees").symlink_to(common / "worktrees")  # a loop: listing it fails with ELOOP
    with pytest.raises(LayoutUnknown) as caught:
        linked_worktrees_of(str(common), strict=True)
    assert str(caught.value) == f"{common / 'worktrees'} cannot be listed (Too many levels of symbolic links)"
    assert linked_worktrees_of(str(common)) == []


def test_an_entry_without_a_gitdir_file_is_passed_over_and_the_rest_listed(repo: Repo) -> None:
    from worktree_guard.layout import linked_worktrees_of

    common = repo.main / ".git"
    (common / "worktrees" / "000-half-made").mkdir()  # sorts first
    assert set(linked_worktrees_of(str(common), strict=True)) == {str(repo.worktree), str(repo.sibling), str(repo.outside)}


# --- phase 6: what the readers under layout do with files the agent can make (in-process, so mutation testing sees it)

def unknown(judge: Callable[[str], object], path: Path | str) -> str:
    """The words of the LayoutUnknown `judge(path)` raises (the test fails when it raises none)."""
    from worktree_guard.layout import LayoutUnknown

    with pytest.raises(LayoutUnknown) as caught:
        judge(str(path))
    return str(caught.value)


def _git_dir_with(tmp: Path, name: str) -> tuple[Path, Path]:
    """A `.git` directory git would take (HEAD, objects, refs) in `<tmp>/sub`, without its `name` file yet."""
    fake = tmp / "sub" / ".git"
    (fake / "objects").mkdir(parents=True)
    (fake / "refs").mkdir()
    (fake / "HEAD").write_text("ref: refs/heads/main\n")
    return tmp / "sub", fake / name


def test_a_fifo_commondir_is_refused_without_blocking(tmp_path: Path) -> None:
    """Opened without O_NONBLOCK a FIFO with no writer blocks for good: the alarm turns that into a failure."""
    import signal

    from worktree_guard.layout import LayoutUnknown

    sub, commondir = _git_dir_with(Path(os.path.realpath(tmp_path)), "commondir")
    os.mkfifo(commondir)

    def blocked(signum: int, frame: object) -> None:
        raise TimeoutError("the read blocked on a FIFO")

    previous = signal.signal(signal.SIGALRM, blocked)
    signal.alarm(5)
    try:
        with pytest.raises(LayoutUnknown) as caught:
            find_layout(str(sub))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert str(caught.value) == f"{commondir} is not a regular file"


def test_a_commondir_in_a_loop_of_links_is_named(tmp_path: Path) -> None:
    from worktree_guard.layout import LayoutUnknown

    sub, commondir = _git_dir_with(Path(os.path.realpath(tmp_path)), "commondir")
    commondir.symlink_to(commondir)
    assert unknown(find_layout, sub) == f"{commondir} cannot be read (Too many levels of symbolic links)"


def test_a_dot_git_in_a_loop_of_links_is_named(repo: Repo) -> None:
    from worktree_guard.layout import LayoutUnknown

    sub = repo.worktree / "sub"
    sub.mkdir()
    (sub / ".git").symlink_to(sub / ".git")
    assert unknown(find_layout, sub) == f"{sub / '.git'} cannot be examined (Too many levels of symbolic links), so the checkout cannot be placed"


def test_a_dot_git_linked_to_a_file_that_fails_to_read_is_named(repo: Repo) -> None:
    """/proc/self/mem is a regular file (size 0) whose read at offset 0 fails (EIO): a read error, not "no link"."""
    from worktree_guard.layout import LayoutUnknown

    sub = repo.worktree / "sub"
    sub.mkdir()
    (sub / ".git").symlink_to("/proc/self/mem")
    assert unknown(find_layout, sub) == f"{sub / '.git'} cannot be read (Input/output error)"


def test_a_config_whose_size_stat_hides_is_still_bounded(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """procfs files say size 0 and hold more: the read itself is bounded (/proc/kallsyms holds megabytes)."""
    from worktree_guard import layout

    monkeypatch.setattr(layout, "MAX_GIT_FILE", 1 << 20)
    config = repo.base / "config"
    config.symlink_to("/proc/kallsyms")
    with pytest.raises(layout.LayoutUnknown) as caught:
        layout.read_git_core(str(config), strict=True)
    assert str(caught.value) == f"{config} is larger than 1 MiB"
    assert layout.read_git_core(str(config)) == {}


def test_a_gitdir_link_that_is_not_utf8_is_read_as_bytes(repo: Repo) -> None:
    """A `.git` link with a byte that is no UTF-8 (a Latin-1 directory name) is read as git reads bytes, not an
    error: here it names no git dir, and says so with the undecodable byte kept."""
    from worktree_guard.layout import LayoutUnknown

    sub = repo.worktree / "sub"
    sub.mkdir()
    (sub / ".git").write_bytes(b"gitdir: /nowhere/caf\xe9\n")
    with pytest.raises(LayoutUnknown) as caught:
        find_layout(str(sub))
    assert "links to /nowhere/caf\udce9, which is not a git dir" in str(caught.value)


GIT_CONFIGS = [
    "[core]\n\tworktree = /a # comment\n",
    "[core]\n\tworktree = /a ; comment\n",
    "[core]\n\tworktree = \"/a b\"\n",
    "[core]\n\tworktree = /a b\n",
    "[core]\n# worktree = /commented\n; worktree = /also\n\tworktree = /a\n",
    "[core] worktree = /on-the-header-line\n",
    "[core]\n\tbare\n",
    "[core]\n\tbare = true\n\tBare = false\n",
    "[CORE]\n\tWorkTree = /upper\n",
    "[core]\n\tworktree = /a=b\n",
    "[user]\n\tworktree = /not-core\n[core]\n\tbare = false\n",
    "[extensions]\n\tworktreeConfig = true\n",
    "[core]\n[remote \"origin\"]\n\tworktree = /x\n",
    "[core \"sub\"]\n\tworktree = /sub\n",
    "\n\n[core]\n\n\tworktree = /after-blank-lines\n",
    "[core]\n#\n;\n\tworktree = /after-lone-comment-marks\n",
    "[core] worktree = /x]y\n",
    "[core]worktree = /tight\n",
    "[core]\n\tworktree = /tmp/X\n",
]


@pytest.mark.parametrize("text", GIT_CONFIGS)
def test_the_git_config_reader_agrees_with_git(tmp_path: Path, text: str) -> None:
    """read_git_core against `git config -f` for the keys it keeps (git 2.39 is the oracle)."""
    import subprocess

    from worktree_guard.layout import GIT_CORE_KEYS, read_git_core

    config = tmp_path / "config"
    config.write_text(text)
    expected = {}
    for key in GIT_CORE_KEYS:
        found = subprocess.run(["git", "config", "-f", str(config), "--get", key], capture_output=True, text=True)
        if found.returncode == 0:
            expected[key] = found.stdout.rstrip("\n")
    read = read_git_core(str(config))
    for key, value in expected.items():  # a key without `=` is git's true: `--get` prints it empty
        assert read.get(key) == (value if value else "true"), (key, read)
    assert set(read) == set(expected)


def test_a_checkout_with_a_separate_git_dir_is_a_main_worktree_with_its_own_worktrees(tmp_path: Path) -> None:
    """`git init --separate-git-dir`: `.git` is a file linking to a git dir with no `commondir`, a checkout of its
    own, whose linked worktrees are shared."""
    base = Path(os.path.realpath(tmp_path))
    git("init", "-q", "-b", "main", "--separate-git-dir", str(base / "meta.git"), str(base / "tree"), cwd=base)
    git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", "init", cwd=base / "tree")
    git("worktree", "add", "-q", "-b", "other", str(base / "other"), cwd=base / "tree")
    placed = find_layout(str(base / "tree"))
    assert (placed.worktree_root, placed.shared_roots, placed.common_dir, placed.source, placed.linked) == (
        str(base / "tree"), [str(base / "other")], str(base / "meta.git"), "main worktree", False)
    (base / "meta.git" / "worktrees" / "zz" / "gitdir").mkdir(parents=True)  # an entry that cannot be read: strict
    from worktree_guard.layout import LayoutUnknown

    assert unknown(find_layout, base / "tree") == f"{base / 'meta.git' / 'worktrees' / 'zz' / 'gitdir'} cannot be read (Is a directory)"


def test_a_back_link_that_cannot_be_read_outside_the_worktrees_list_is_unknown(repo: Repo, tmp_path: Path) -> None:
    """A `.git` file linking to an admin dir made by hand outside `<common>/worktrees` (so no listing reads its
    `gitdir` again): a back-link that cannot be read leaves the checkout unknown, not an unconfirmed link."""
    from worktree_guard.layout import LayoutUnknown

    admin = Path(os.path.realpath(tmp_path)) / "admin"
    (admin / "gitdir").mkdir(parents=True)
    (admin / "commondir").write_text(f"{repo.main / '.git'}\n")
    (admin / "HEAD").write_text("ref: refs/heads/main\n")
    sub = repo.worktree / "sub"
    sub.mkdir()
    (sub / ".git").write_text(f"gitdir: {admin}\n")
    assert unknown(find_layout, sub) == f"{admin / 'gitdir'} cannot be read (Is a directory)"


def test_a_directory_git_cannot_examine_is_named(tmp_path: Path) -> None:
    """Where git would run in a directory whose name is too long to look up: unknown, in words that say why."""
    from worktree_guard.layout import LayoutUnknown, git_checkouts_at

    long_name = str(Path(os.path.realpath(tmp_path)) / ("a" * 300))
    with pytest.raises(LayoutUnknown) as caught:
        git_checkouts_at(long_name)
    assert str(caught.value) == f"{long_name}/.git cannot be examined (File name too long), so the checkout cannot be placed"


def test_git_run_inside_a_git_dir_acts_on_that_git_dir(repo: Repo, tmp_path: Path) -> None:
    """git finds a directory that is itself a git dir where it runs, before any `.git` above it (setup.c's
    GIT_DIR_BARE): a bare layout's `.bare` under a project whose `.git` file names it, a `.git` directory, a worktree's
    admin dir (review 28a's L3: the walk went on up and found the project's `.git` file instead)."""
    from worktree_guard.layout import git_checkouts_at

    bare, wt = bare_clone(repo, tmp_path)
    (Path(os.path.realpath(tmp_path)) / ".git").write_text("gitdir: ./b.git\n")
    assert git_checkouts_at(str(bare)) == [str(wt)]  # HEAD's branch, main, is wt's
    assert git_checkouts_at(str(bare / "refs" / "heads")) == [str(wt)]
    assert git_checkouts_at(str(repo.main / ".git")) == [str(repo.main)]
    assert git_checkouts_at(str(repo.main / ".git" / "objects")) == [str(repo.main)]
    entry = repo.main / ".git" / "worktrees" / repo.sibling.name
    assert git_checkouts_at(str(entry)) == [str(repo.sibling)]
    # a bare repository given a work tree by core.worktree works there
    tree = Path(os.path.realpath(tmp_path)) / "tree"
    tree.mkdir()
    git("config", "core.worktree", str(tree), cwd=bare)
    assert git_checkouts_at(str(bare)) == [str(tree), str(wt)]


def test_the_lenient_readers_of_a_dot_git_and_a_head_answer_none_for_what_they_cannot_read(tmp_path: Path) -> None:
    """`git_dir_of` and `checked_out_branch` read leniently (the git rule asks them for a branch name): a `.git` that
    is a FIFO or has a first line too long, a HEAD that is a directory, is no git dir and no branch, not an error
    (phase 20: `_read_first_line`'s default made strict)."""
    from worktree_guard.layout import checked_out_branch, git_dir_of

    base = Path(os.path.realpath(tmp_path))
    fifo = base / "fifo"
    fifo.mkdir()
    os.mkfifo(fifo / ".git")
    assert git_dir_of(str(fifo / ".git")) is None
    long = base / "long"
    long.mkdir()
    (long / ".git").write_text("gitdir: /" + "x" * 9000 + "\n")
    assert git_dir_of(str(long / ".git")) is None
    assert checked_out_branch(str(long)) is None
    odd = base / "odd"
    (odd / ".git" / "HEAD").mkdir(parents=True)
    assert git_dir_of(str(odd / ".git")) == str(odd / ".git")
    assert checked_out_branch(str(odd)) is None


def test_a_linked_layout_keeps_the_main_worktree_it_read(repo: Repo) -> None:
    """`_linked_layout` reads the repository's config for the main worktree once and keeps it in the layout, so that
    the call's project root does not read it again (phase 20: `main_worktree=None` passed every decision test)."""
    placed = find_layout(str(repo.worktree))
    assert placed.main_worktree == str(repo.main)


def test_git_run_inside_a_worktree_s_admin_dir_reads_no_config_of_that_dir(repo: Repo) -> None:
    """Inside `<common>/worktrees/<n>` git reads the common dir's config, never a `config` beside that dir's HEAD
    (`git rev-parse --show-toplevel` there: "must be run in a work tree", whatever core.worktree that file names):
    the checkout it acts on is the worktree that owns the dir, nothing the file names (phase 20: the mutants of
    git_checkouts_at's `own` test, which read such a dir as a repository of its own, took the file's work tree)."""
    from worktree_guard.layout import git_checkouts_at

    entry = repo.main / ".git" / "worktrees" / repo.sibling.name
    (entry / "config").write_text(f"[core]\n\tworktree = {repo.outside}\n")
    assert git_checkouts_at(str(entry)) == [str(repo.sibling)]


def test_git_dir_link_of_each_kind_of_dot_git(repo: Repo, tmp_path: Path) -> None:
    """What a `.git` entry links to, asked directly (the git rule asks it for `git init` through a link; phase 20:
    its symlink, FIFO, junk and unreadable cases were reached only through git calls that did not tell them apart)."""
    from worktree_guard.layout import LayoutUnknown, git_dir_link

    base = Path(os.path.realpath(tmp_path))
    target = base / "target"
    target.mkdir()
    (target / "linkfile").write_text(f"gitdir: {repo.main / '.git'}\n")
    (target / "junkfile").write_text("junk\n")
    os.mkfifo(target / "fifo")
    cases = {}
    for name, make in {
        "dir": lambda d: (d / ".git").mkdir(),
        "file-junk": lambda d: (d / ".git").write_text("junk\n"),
        "file-empty": lambda d: (d / ".git").write_text(""),
        "file-link": lambda d: (d / ".git").write_text(f"gitdir: {repo.main / '.git'}\n"),
        "sym-to-dir": lambda d: (d / ".git").symlink_to(target),
        "sym-to-linkfile": lambda d: (d / ".git").symlink_to(target / "linkfile"),
        "sym-to-fifo": lambda d: (d / ".git").symlink_to(target / "fifo"),
        "sym-to-junk": lambda d: (d / ".git").symlink_to(target / "junkfile"),
        "sym-dangling": lambda d: (d / ".git").symlink_to(target / "nothing"),
        "fifo": lambda d: os.mkfifo(d / ".git"),
        "missing": lambda d: None,
    }.items():
        d = base / name
        d.mkdir()
        make(d)
        cases[name] = git_dir_link(str(d / ".git"))
    assert cases == {
        "dir": None,
        "file-junk": None,
        "file-empty": None,
        "file-link": str(repo.main / ".git"),
        "sym-to-dir": str(target),
        "sym-to-linkfile": str(repo.main / ".git"),  # a symlink to a `gitdir:` file: where that file links
        "sym-to-fifo": str(target / "fifo"),
        "sym-to-junk": str(target / "junkfile"),  # no `gitdir:` link: git makes its git dir where it leads
        "sym-dangling": str(target / "nothing"),
        "fifo": None,
        "missing": None,
    }
    assert git_dir_link(str(repo.worktree / ".git")) is None  # W's own link, confirmed by git's records
    long = base / "long"
    long.mkdir()
    (long / ".git").write_text("gitdir: /" + "x" * 9000 + "\n")
    with pytest.raises(LayoutUnknown, match=r"long/\.git has a first line longer than 8192 characters"):
        git_dir_link(str(long / ".git"))


def test_git_dir_link_confirms_a_worktree_only_through_readable_records_that_name_it_back(repo: Repo, tmp_path: Path) -> None:
    """A `.git` file is a linked worktree's own (None) only when its admin dir's `gitdir` names that very file and its
    `commondir` puts the admin dir under `<common>/worktrees`; relative links (git 2.48's worktree.useRelativePaths)
    are read from the `.git` file's directory and from the admin dir; a record that is there but cannot be read is
    LayoutUnknown, not "unconfirmed"; and a directory named through `.` or `..` (`git --git-dir=DIR/. init`) links
    to its real path (phase 21: the 11 survivors phase 20 left in `git_dir_link`)."""
    from worktree_guard.layout import LayoutUnknown, git_dir_link

    base = Path(os.path.realpath(tmp_path))
    plain = base / "plain"
    (plain / "sub").mkdir(parents=True)
    assert git_dir_link(f"{plain}/.") == str(plain)
    assert git_dir_link(f"{plain}/sub/..") == str(plain)
    # a hand-written link to the sibling's admin dir: its `gitdir` names the sibling's `.git`, not this one
    admin = repo.main / ".git" / "worktrees" / repo.sibling.name
    (base / "fake").mkdir()
    (base / "fake" / ".git").write_text(f"gitdir: {admin}\n")
    assert git_dir_link(str(base / "fake" / ".git")) == str(admin)
    # a repository and worktree linked by relative paths, as git 2.48 writes them with worktree.useRelativePaths
    common, wt = base / "repo" / ".git", base / "wt"
    entry = common / "worktrees" / "wt"
    entry.mkdir(parents=True)
    wt.mkdir()
    (wt / ".git").write_text("gitdir: ../repo/.git/worktrees/wt\n")
    (entry / "gitdir").write_text("../../../../wt/.git\n")
    (entry / "commondir").write_text("../..\n")
    assert git_dir_link(str(wt / ".git")) is None
    (entry / "gitdir").write_text("../../../../elsewhere/.git\n")
    assert git_dir_link(str(wt / ".git")) == str(entry)  # the records name another file
    (entry / "gitdir").write_text("../../../../wt/.git\n")
    # records that are there but cannot be read
    (entry / "commondir").unlink()
    (entry / "commondir").mkdir()
    with pytest.raises(LayoutUnknown, match=r"worktrees/wt/commondir cannot be read \(Is a directory\)"):
        git_dir_link(str(wt / ".git"))
    (entry / "gitdir").unlink()
    (entry / "gitdir").mkdir()
    with pytest.raises(LayoutUnknown, match=r"worktrees/wt/gitdir cannot be read \(Is a directory\)"):
        git_dir_link(str(wt / ".git"))


def test_a_configured_root_inside_a_worktree_makes_that_worktree_shared(repo: Repo) -> None:
    """W configured as a directory inside a checkout: the checkout around it is a shared root, by its path (phase 21:
    `shared_roots.append(None)` survived)."""
    layout = with_explicit_root(str(repo.worktree / "src"))
    assert layout.worktree_root == str(repo.worktree / "src")
    assert str(repo.worktree) in layout.shared_roots and None not in layout.shared_roots
