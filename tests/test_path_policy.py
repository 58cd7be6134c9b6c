"""Paths and §5.1's order at their edges: HOME, `//`, devices, patterns through symlinks, TMPDIR, and where a path
lies with respect to W, S, the repository's git dir, the allow- and protect-lists.

Written for the mutation run of `paths.py` and `policy.py` (bench/mutation.py).
"""

from __future__ import annotations

import os
import pwd
import tempfile
from pathlib import Path

import pytest

from tests.helpers import Repo, bare_clone, git
from worktree_guard.layout import Layout, find_layout
from worktree_guard.paths import PathPatterns, canonical, expand_user, home_dir, temp_dirs
from worktree_guard.policy import Judgement, PathPolicy

# -- paths ------------------------------------------------------------------------------------------


def test_home_dir_falls_back_to_the_password_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/some/home")
    assert home_dir() == "/some/home"
    passwd = pwd.getpwuid(os.getuid()).pw_dir
    monkeypatch.setenv("HOME", "")
    assert home_dir() == passwd
    monkeypatch.delenv("HOME")
    assert home_dir() == passwd


def test_expand_user_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/env/home")
    assert expand_user("~") == "/env/home"
    assert expand_user("~/a/b") == "/env/home/a/b"
    assert expand_user("~", home="/given") == "/given" and expand_user("~/x", home="/given") == "/given/x"
    assert expand_user("~root") == pwd.getpwnam("root").pw_dir
    assert expand_user("x/~") == "x/~"


def test_a_leading_double_slash_is_one_slash(tmp_path: Path) -> None:
    """POSIX lets `//` mean something else, so normpath keeps it; the guard reads it as `/` (Linux does)."""
    assert canonical("//dev/stdout", "/") == "/dev/stdout"  # still a device, not resolved through /proc
    assert canonical("///dev/fd/3", "/") == "/dev/fd/3"
    base = os.path.realpath(tmp_path)
    assert canonical("/" + base + "/x", "/") == base + "/x"


def test_relative_paths_and_tilde_through_canonical(tmp_path: Path) -> None:
    base = os.path.realpath(tmp_path)
    assert canonical("~/f", "/elsewhere", home=base) == f"{base}/f"
    assert canonical("a/../../b", f"{base}/w") == f"{base}/b"
    assert canonical("/dev/null/../stdout", "/") == "/dev/stdout"  # lexical for devices


def test_absolute_patterns_resolve_their_literal_prefix_through_symlinks(tmp_path: Path) -> None:
    base = Path(os.path.realpath(tmp_path))
    (base / "real" / "cache").mkdir(parents=True)
    (base / "link").symlink_to(base / "real")
    glob = PathPatterns([str(base / "link" / "ca*")])
    assert glob.matches(str(base / "real" / "cache"))  # canonical paths are what gets matched
    plain = PathPatterns([str(base / "link" / "cache")])
    assert plain.patterns == [str(base / "real" / "cache"), str(base / "real" / "cache") + "/**"]
    assert plain.matches(str(base / "real" / "cache" / "deep" / "f"))
    root_only = PathPatterns([str(base / "link")])
    assert root_only.patterns == [str(base / "real"), str(base / "real") + "/**"]


def test_patterns_expand_variables_and_keep_devices_and_relative_ones(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    base = os.path.realpath(tmp_path)
    monkeypatch.setenv("WG_TEST_DIR", base)
    assert PathPatterns(["$WG_TEST_DIR/out"]).matches(f"{base}/out/a")
    devices = PathPatterns(["/dev/fd/*", "/dev/null"])
    assert devices.patterns == ["/dev/fd/*", "/dev/null"]  # no `/**` added, not resolved
    assert devices.matches("/dev/fd/3") and devices.matches("/dev/null") and not devices.matches("/dev/nullx")
    relative = PathPatterns(["build", "*.key"], absolute=False)
    assert relative.patterns == ["build", "*.key"]
    assert relative.matches("build/x") and relative.matches("a/b.key") and not relative.matches("src/app.py")
    assert not PathPatterns([]).matches("/anything")


def test_temp_dirs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    system = os.path.realpath(tempfile.gettempdir())
    monkeypatch.delenv("TMPDIR", raising=False)
    assert temp_dirs() == [system]
    monkeypatch.setenv("TMPDIR", "relative/tmp")
    assert temp_dirs() == [os.path.realpath(tempfile.gettempdir())]
    link = tmp_path / "tmplink"
    link.symlink_to(tmp_path)
    monkeypatch.setenv("TMPDIR", str(link))
    assert os.path.realpath(tmp_path) in temp_dirs()


# -- policy -----------------------------------------------------------------------------------------


def test_w_wins_over_the_main_checkout_that_holds_it_but_not_over_a_sibling_inside_w(repo: Repo) -> None:
    nested = repo.worktree / "nested-wt"
    git("worktree", "add", "-q", "-b", "nested", str(nested), cwd=repo.main)
    policy = PathPolicy(find_layout(str(repo.worktree)), [], [])
    assert policy.judge_resolved(str(repo.worktree / "a")) == Judgement("inside", str(repo.worktree / "a"))
    assert policy.judge_resolved(str(repo.worktree)).place == "inside"  # W itself, never "protected"
    got = policy.judge_resolved(str(nested / "a"))
    assert (got.place, got.shared_root, got.suggestion) == ("shared", str(nested), str(repo.worktree / "a"))


def test_suggestions_for_a_shared_path(repo: Repo) -> None:
    policy = PathPolicy(find_layout(str(repo.worktree)), [], ["secrets/**"])
    assert policy.judge_resolved(str(repo.main)) == Judgement("shared", str(repo.main), str(repo.main), str(repo.worktree))
    assert policy.judge_resolved(str(repo.main / "src" / "a")).suggestion == str(repo.worktree / "src" / "a")
    assert policy.judge_resolved(str(repo.main / "secrets" / "k")).suggestion is None  # protected under W
    assert policy.judge_resolved(str(repo.main / ".git" / "config")).suggestion is None


def test_a_git_dir_outside_every_checkout_is_shared_without_a_suggestion(tmp_path: Path, repo: Repo) -> None:
    bare, wt = bare_clone(repo, tmp_path)
    policy = PathPolicy(find_layout(str(wt)), [], [])
    assert policy.shared_roots == [str(bare)]
    got = policy.judge_resolved(str(bare / "hooks" / "x"))
    assert (got.place, got.shared_root, got.suggestion) == ("shared", str(bare), None)


def test_a_git_dir_inside_the_checkout_or_already_shared_is_not_added_again(repo: Repo) -> None:
    main = PathPolicy(find_layout(str(repo.main)), [], [])
    assert str(repo.main / ".git") not in main.shared_roots  # inside W: its .git is protected there
    assert main.judge_resolved(str(repo.main / ".git" / "config")).place == "protected"
    linked = PathPolicy(find_layout(str(repo.worktree)), [], [])
    # Under the main checkout already, but named on its own: the deepest root for .git/…, so no suggestion.
    assert linked.shared_roots == [str(repo.main), str(repo.sibling), str(repo.outside), str(repo.main / ".git")]
    assert linked.judge_resolved(str(repo.main / ".git" / "HEAD")).shared_root == str(repo.main / ".git")
    layout = Layout(worktree_root=str(repo.worktree), shared_roots=[str(repo.main / ".git")], common_dir=str(repo.main / ".git"))
    assert PathPolicy(layout, [], []).shared_roots == [str(repo.main / ".git")]


def test_the_allow_list_and_what_lies_elsewhere(repo: Repo, tmp_path: Path) -> None:
    policy = PathPolicy(find_layout(str(repo.worktree)), ["/opt/wg-cache"], [], home="/home/someone")
    assert policy.home == "/home/someone"
    assert policy.judge_resolved("/opt/wg-cache/x").place == "allowed"
    assert policy.judge_resolved("/home/someone/.claude/plans/p.md").place == "allowed"
    assert policy.judge_resolved("/opt/other").place == "outside"
    assert policy.judge("x/../y", str(repo.worktree)) == Judgement("inside", str(repo.worktree / "y"))
    assert policy.canonical("~/a", "/") == "/home/someone/a"


def test_outside_any_checkout_there_is_no_w(tmp_path: Path) -> None:
    policy = PathPolicy(Layout(worktree_root=None), [], [], home=str(tmp_path))
    assert policy.judge_resolved("/opt/x").place == "outside"
    assert policy.counterpart("/opt/x", "/opt") is None


@pytest.mark.parametrize(
    ("path", "as_file", "as_directory"),
    [
        ("/dev/fd/3", "allowed", "outside"),  # a descriptor is a file to write, never a directory the guard can name
        ("/dev/stdout", "allowed", "outside"),
        ("/dev/fd/3/../f", "outside", "outside"),  # fd 3 may be any directory the command opened
        ("/dev/stdout/x", "outside", "outside"),  # the allow-list's /dev/stdout does not hold it
        ("/proc/self/cwd/x", "outside", "outside"),
        ("/dev/null", "allowed", "allowed"),
    ],
)
def test_a_path_through_the_process_own_proc_directory_is_no_place(repo: Repo, path: str, as_file: str, as_directory: str) -> None:
    """Stop 36: the process that opens `/dev/fd/3` or `/proc/self/cwd` is the shell or a program it runs, not the
    guard; a write through one, a link to one or a start directory there has no place the guard can name."""
    policy = PathPolicy(find_layout(str(repo.worktree)), [], [])
    assert policy.judge(path, "/").place == as_file
    assert policy.judge(path, "/", directory=True).place == as_directory
    assert policy.judge_resolved(canonical(path, "/"), directory=True) == Judgement(as_directory, canonical(path, "/"))
    assert policy.judge_resolved(canonical(path, "/")) == Judgement(as_file, canonical(path, "/"))
    # a wave worker's allow-list step (subagents/worker_calls) asks the same of the file
    assert policy.on_allow_list(canonical(path, "/")) is (as_file == "allowed")
