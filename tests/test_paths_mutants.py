"""paths.py exactly, function by function: the rows that phase 14 of issue 13 (mutation testing, docs/testing.md)
found missing. Each pins what a function returns for an input where a one-token change of its code gives another
answer (HOME against the `home` argument, a leading `//`, a device path, a pattern's literal prefix through a
symlink, the fast literal matcher against pathspec)."""

from __future__ import annotations

import os
import pwd
import tempfile
from pathlib import Path

import pytest

from worktree_guard import paths, records
from worktree_guard.paths import (
    PathPatterns,
    _anchored_literals,
    _canonical_pattern,
    _literal_matches,
    _plain,
    _resolved,
    absolute_home,
    canonical,
    cleaned,
    deepest_root,
    expand_user,
    home_dir,
    inside,
    descriptor,
    literal_tilde,
    as_descriptor,
    own_process,
    own_process_place,
    may_become_own_process,
    real,
    temp_dirs,
)


@pytest.fixture
def base(tmp_path: Path) -> Path:
    """tmp_path canonical, with `real/` and `link` -> real, `dirX/` (a name ending in X) and `sp ` (ending in a space)."""
    root = Path(os.path.realpath(tmp_path))
    (root / "real").mkdir()
    (root / "link").symlink_to(root / "real")
    (root / "dirX").mkdir()
    return root


# --- HOME, the passwd entry, `~` ---------------------------------------------------------------------------------


def test_home_dir_is_HOME_when_set_else_the_passwd_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/some/home")
    assert home_dir() == "/some/home"
    monkeypatch.delenv("HOME")
    assert home_dir() == pwd.getpwuid(os.getuid()).pw_dir


def test_without_a_passwd_entry_home_is_the_root(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(uid: int) -> None:
        raise KeyError(uid)

    monkeypatch.setattr(pwd, "getpwuid", missing)
    monkeypatch.delenv("HOME", raising=False)
    assert paths._passwd_home() == "/"
    assert home_dir() == "/"
    assert absolute_home({}) == "/"


def test_absolute_home_reads_the_environment_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/from/os/environ")
    passwd = pwd.getpwuid(os.getuid()).pw_dir
    assert absolute_home({"HOME": "/given"}) == "/given"
    assert absolute_home({"HOME": "relative/home"}) == passwd
    assert absolute_home({}) == passwd
    assert absolute_home() == "/from/os/environ"
    monkeypatch.setenv("HOME", "relative")
    assert absolute_home() == passwd


def test_expand_user_uses_the_home_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/env/home")
    assert expand_user("~", "/h") == "/h"
    assert expand_user("~/a/b", "/h") == "/h/a/b"
    assert expand_user("~/a/b") == "/env/home/a/b"
    assert expand_user("~root") == pwd.getpwnam("root").pw_dir
    assert expand_user("~root/a/b") == pwd.getpwnam("root").pw_dir + "/a/b"
    assert expand_user("/a/~/b", "/h") == "/a/~/b"


# --- canonical, cleaned --------------------------------------------------------------------------------------------


def test_canonical_uses_the_home_argument_not_HOME(monkeypatch: pytest.MonkeyPatch, base: Path) -> None:
    monkeypatch.setenv("HOME", "/env/home")
    assert canonical("~/link/f", "/", str(base)) == f"{base}/real/f"
    assert canonical("~/x", "/") == "/env/home/x"


def test_canonical_of_a_device_written_with_a_leading_double_slash() -> None:
    # POSIX leaves `//` alone (normpath keeps it); `//dev/stdout` is still the device, kept as written, not resolved
    # to /proc/self/fd/1 or a pipe (it leads into /proc/self: `own_process`); another device resolves to itself.
    assert canonical("//dev/stdout", "/") == "/dev/stdout"
    assert canonical("//dev/fd/0", "/") == "/dev/fd/0"
    assert canonical("/dev/../dev/stderr", "/") == "/dev/stderr"
    assert canonical("//X/dev/null", "/") == "/X/dev/null"  # one slash taken off, nothing else


def test_canonical_joins_a_relative_path_to_cwd(base: Path) -> None:
    assert canonical("f", str(base / "link")) == f"{base}/real/f"
    assert canonical("link", str(base)) == f"{base}/real"


def test_cleaned_drops_dotdot_as_text_before_symlinks(monkeypatch: pytest.MonkeyPatch, base: Path) -> None:
    (base / "real" / "deep").mkdir()
    (base / "dlink").symlink_to(base / "real" / "deep")
    assert cleaned("dlink/../x", str(base)) == f"{base}/x"
    assert canonical("dlink/../x", str(base)) == f"{base}/real/x"
    monkeypatch.setenv("HOME", "/env/home")
    assert cleaned("~/dlink/../link/f", "/", str(base)) == f"{base}/real/f"
    assert cleaned("/abs/../y", str(base)) == "/y"


# --- containment -------------------------------------------------------------------------------------------------


def test_deepest_root_is_none_when_no_root_holds_the_path() -> None:
    assert deepest_root("/x/y", ["/y", "/x/z"]) is None
    assert deepest_root("/x/y", []) is None
    assert deepest_root("/x/y", ["/x/y", "/x", "/"]) == "/x/y"
    assert deepest_root("/x/y", ["/", "/x"]) == "/x"


def test_inside_the_root_directory() -> None:
    assert inside("/", "/")
    assert inside("/a", "/")
    assert not inside("a", "/")
    assert not inside("/ab", "/a")
    assert inside("/a/b", "/a")


# --- the temp dirs -------------------------------------------------------------------------------------------------


def test_temp_dirs_add_an_absolute_TMPDIR_only(monkeypatch: pytest.MonkeyPatch, base: Path) -> None:
    system = os.path.realpath(tempfile.gettempdir())
    monkeypatch.setenv("TMPDIR", str(base / "link"))
    assert temp_dirs() == sorted({system, f"{base}/real"})
    monkeypatch.setenv("TMPDIR", "relative")
    assert temp_dirs() == [system]
    monkeypatch.delenv("TMPDIR")
    assert temp_dirs() == [system]


# --- patterns ------------------------------------------------------------------------------------------------------


def test_canonical_pattern_resolves_the_literal_prefix_only(monkeypatch: pytest.MonkeyPatch, base: Path) -> None:
    monkeypatch.setenv("HOME", "/env/home")
    assert _canonical_pattern(f"{base}/link/*.txt", None) == f"{base}/real/*.txt"
    assert _canonical_pattern(f"{base}/link/a/*/b", None) == f"{base}/real/a/*/b"
    assert _canonical_pattern(f"{base}/link", None) == f"{base}/real"
    assert _canonical_pattern(f"{base}/link/", None) == f"{base}/real"
    assert _canonical_pattern(f"{base}/dirX/*", None) == f"{base}/dirX/*"
    assert _canonical_pattern(f"{base}/*/x", None) == f"{base}/*/x"
    assert _canonical_pattern("~/link/x*", str(base)) == f"{base}/real/x*"
    assert _canonical_pattern("/*", None) == "/*"
    assert _canonical_pattern("/", None) == "/"
    assert _canonical_pattern("*.txt", None) == "*.txt"
    assert _canonical_pattern("/dev/fd/*", None) == "/dev/fd/*"
    monkeypatch.setenv("WG_TEST_BASE", str(base))
    assert _canonical_pattern("$WG_TEST_BASE/link/y?", None) == f"{base}/real/y?"


def test_path_patterns_absolute_adds_the_tree_of_each_plain_directory(monkeypatch: pytest.MonkeyPatch, base: Path) -> None:
    monkeypatch.setenv("HOME", "/env/home")
    assert PathPatterns([f"{base}/link"]).patterns == [f"{base}/real", f"{base}/real/**"]
    assert PathPatterns([f"{base}/dirX"]).patterns == [f"{base}/dirX", f"{base}/dirX/**"]
    assert PathPatterns([f"{base}/sp "]).patterns == [f"{base}/sp ", f"{base}/sp /**"]
    assert PathPatterns([f"{base}/link/*.txt"]).patterns == [f"{base}/real/*.txt"]
    assert PathPatterns(["/dev/null", "/dev/fd/*"]).patterns == ["/dev/null", "/dev/fd/*"]
    assert PathPatterns(["~/link"], str(base)).patterns == [f"{base}/real", f"{base}/real/**"]
    # relative (a protect-list): as written, no tree added, no `~` expanded
    assert PathPatterns(["build", "~/x", "*.log"], str(base), absolute=False).patterns == ["build", "~/x", "*.log"]


def test_path_patterns_match(base: Path) -> None:
    allow = PathPatterns([f"{base}/link", "/tmp/x*"])
    assert allow.matches(f"{base}/real")
    assert allow.matches(f"{base}/real/a/b")
    assert not allow.matches(f"{base}/realx")
    assert not PathPatterns([]).matches("/anything")
    assert not PathPatterns([], absolute=False).matches("a")
    protect = PathPatterns(["*.log"], absolute=False)
    assert protect._literal is None
    assert protect.matches("a/b.log")
    assert not protect.matches("a/b.txt")


DEFAULT = ["/.git", "/.git/**", "**/.git", "**/.git/**"]


def test_the_literal_patterns_are_read_exactly() -> None:
    assert _anchored_literals(DEFAULT) == [(False, ".git", False), (False, ".git", True), (True, ".git", False), (True, ".git", True)]
    assert _anchored_literals(["/a/b", "/a b/**"]) == [(False, "a/b", False), (False, "a b", True)]
    assert _anchored_literals([]) == []


@pytest.mark.parametrize("pattern", ["/", "xy", "**/a/b", "/a/", "//a", "/a*", "/a?", "/[a]", "/a/../b", "/a/./b", "/a\\b", "**/", "/**", "!a", "**/a*"])
def test_patterns_that_are_not_plain_literals_go_to_pathspec(pattern: str) -> None:
    assert _anchored_literals([pattern]) is None
    assert _anchored_literals(["/.git", pattern]) is None


# (patterns, path, expected): the fast matcher and pathspec agree on each (checked both ways below).
LITERAL_ROWS = [
    (["/a"], "a", True),
    (["/a"], "a/x", True),
    (["/a"], "/a/x", True),
    (["/a"], "b", False),
    (["/a"], "ab", False),
    (["/a"], "Xa", False),
    (["/a"], "x/a", False),
    (["/a/**"], "a", False),
    (["/a/**"], "/a", False),
    (["/a/**"], "a/x", True),
    (["/a/b"], "a/b/c", True),
    (["/a/b"], "a/c", False),
    (["**/a"], "a", True),
    (["**/a"], "x/a", True),
    (["**/a"], "x/a/y", True),
    (["**/a"], "x/ab", False),
    (["**/a/**"], "x/a", False),
    (["**/a/**"], "a", False),
    (["**/a/**"], "a/b", True),
    (["**/a/**"], "x/a/b", True),
    (DEFAULT, ".git", True),
    (DEFAULT, "/.git", True),
    (DEFAULT, "src/.git/config", True),
    (DEFAULT, ".gitx", False),
    # not plain: pathspec decides (the fast matcher would answer otherwise)
    (["/.git"], "./.git", True),
    (["/.git"], "//.git", False),
    (["/b"], "a/../b", False),
    (["**/.git"], "a/./.git", True),
]


@pytest.mark.parametrize("patterns,path,expected", LITERAL_ROWS)
def test_literal_patterns_match_as_pathspec_does(patterns: list[str], path: str, expected: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = PathPatterns(patterns, absolute=False)
    assert fast._literal is not None
    assert fast.matches(path) is expected
    with monkeypatch.context() as patch:
        patch.setattr(records, "FAST_PATH", False)
        assert PathPatterns(patterns, absolute=False).matches(path) is expected


@pytest.mark.parametrize("patterns,path,expected", [row for row in LITERAL_ROWS if _plain(row[1])])
def test_a_plain_path_is_matched_without_pathspec(patterns: list[str], path: str, expected: bool) -> None:
    fast = PathPatterns(patterns, absolute=False)
    assert fast.matches(path) is expected
    assert fast._spec is None  # pathspec neither imported nor compiled
    bare = path.lstrip("/")
    assert any(_literal_matches(p, bare, bare.split("/")) for p in fast._literal) is expected


def test_plain_paths() -> None:
    assert _plain("a/b/.git")
    assert _plain("/a/b")
    assert _plain("a/")
    for path in ("a//b", "//a", "./a", "a/.", "a/../b", "..", "a\\b"):
        assert not _plain(path), path


def test_literal_tilde_puts_only_a_leading_tilde_below_the_current_directory() -> None:
    # phase 19: a `~` bash left alone (`'~/a'`, `~$E`) names the directory `~` where the program runs
    assert literal_tilde("~/a") == "./~/a"
    assert literal_tilde("~") == "./~"
    for value in ("a/~", "/x/~", "", "./~"):
        assert literal_tilde(value) == value, value
    assert literal_tilde(None) is None


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/proc/self", True),
        ("/proc/thread-self/cwd", True),
        ("/proc/self/cwd/../..", True),
        ("//proc//./self/cwd", True),
        ("/proc/1/../self/cwd", True),  # `..` below /proc/<pid> is /proc
        ("/x/../proc/self", True),
        ("/proc/../proc/self/fd/1", True),
        ("/proc/1/cwd", True),  # another process's: its cwd may change after the guard reads it (review 38)
        ("/proc/1", True),
        ("/proc/1x/cwd", False),
        ("/proc/selfish", False),
        ("/proc", False),
        ("/x/proc/self", False),
        ("/self/proc", False),
        ("/proc/cpuinfo/self", False),
        ("/proc/self/../1", True),  # it went through /proc/self
        ("/../proc/self", True),
        ("/", False),
        ("/proc/net/../cwd", True),  # /proc/net is self/net
        ("/proc/mounts", True),
        ("/dev/fd/../cwd", True),  # /dev/fd is /proc/self/fd
        ("/dev/fd/3", True),
        ("/dev/stdin", True),
        ("/dev/stdout/x", True),
        ("/dev/stderr", True),
        ("/dev/null", False),
        ("/dev/tty", False),
        ("/dev/fdx", False),
        ("/proc/fd", False),
        ("/dev/self", False),
    ],
)
def test_own_process_paths(path: str, expected: bool) -> None:
    assert own_process(path) is expected


def test_real_keeps_a_path_into_the_own_process_as_written_with_its_dotdot(base: Path) -> None:
    """Stop 36: `/proc/self/cwd` was resolved in the guard's own process (its cwd). Kept as written from the link on,
    only empty and `.` parts dropped, its `..` kept so that a later look still sees where it went."""
    assert real("/proc//./self/cwd/../..") == "/proc/self/cwd/../.."
    assert real("/proc/1/../self/cwd/x") == "/proc/1/../self/cwd/x"  # a pid's directory is one too (review 38)
    assert canonical("../self/cwd/../x", "/proc/1") == "/proc/1/../self/cwd/../x"
    assert real("/proc/x/../self/cwd/x") == "/proc/self/cwd/x"  # up to the link, `..` as written: /proc/x is a directory
    assert real("/dev/../dev/stderr") == "/dev/stderr"
    assert canonical("/proc/self/cwd", str(base)) == "/proc/self/cwd"
    assert real(str(base / "link" / "x")) == str(base / "real" / "x")
    assert real("/dev/fd/../cwd/..") == "/dev/fd/../cwd/.."  # normalised it was /dev, and realpath the guard's cwd's parent
    assert real("/dev//fd/./3") == "/dev/fd/3"
    assert real("/proc/self//cwd/./") == "/proc/self/cwd"  # empty and `.` parts after the link dropped too
    assert canonical("//dev/null", "/") == "/dev/null"
    assert real("/dev/null/../x") == "/dev/x"
    assert real("//tmp/../dev/null") == "/dev/null"


@pytest.fixture
def links(base: Path) -> Path:
    """`base` with links of every kind `_resolved` meets: relative, absolute, to `/`, up and down again, a chain, a
    dangling one, a loop, one to a file, and links into a process's own /proc directory or descriptors."""
    (base / "real" / "sub").mkdir()
    (base / "file").write_text("")
    for name, target in [
        ("rel", "real/sub"), ("abs", str(base / "real")), ("root", "/"), ("updown", "real/sub/../.."), ("dot", "."),
        ("chain", "rel"), ("dang", "missing/q"), ("loop1", "loop2"), ("loop2", "loop1"), ("lfile", "file"),
        ("pl", "/proc/self/cwd"), ("plrel", "../" * len(base.parts) + "proc/self/cwd"), ("fd", "/dev/fd/3"),
        ("viaroot", "root/proc/self"), ("proc", "/proc"), ("devdir", "/dev"), ("plchain", "pl"),
        ("slash", "real/"), ("dslash", "real//sub"),
    ]:
        (base / name).symlink_to(target)
    (base / "dirs" / "proc" / "self").mkdir(parents=True)  # directories named so, not the process's own
    (base / "dirs" / "lps").symlink_to("./proc/self")  # a relative target read from the link's directory
    return base


@pytest.mark.parametrize(
    "rest",
    [
        "", "real", "real/sub/x", "rel", "rel/x", "rel/..", "rel/../..", "abs/sub/../x", "root", "root/tmp", "root/..",
        "updown/real", "updown/..", "dot/dot/rel/x", "chain/../x", "chain/x/..", "dang", "dang/..", "dang/../y", "missing/../x",
        "missing/x/../..", "lfile", "lfile/..", "lfile/x", "real/../rel/./x", "..", "../..", "x/./y/", "file/..",
        "dirs/lps/x", "slash", "slash/sub", "dslash", "dslash/..",
    ],
)
def test_resolved_is_realpath_without_own_process_links(links: Path, rest: str) -> None:
    """Stop 37: `_resolved` walks a path as `os.path.realpath` does (a missing name and the `..` after it read as
    written, a file taken for a directory, a relative link from its directory, an absolute one from `/`)."""
    path = str(links / rest) if rest else str(links)
    assert _resolved(path) == os.path.realpath(path)
    assert real(path) == os.path.realpath(path)


@pytest.mark.parametrize(
    ("rest", "expected"),
    [
        ("pl", "/proc/self/cwd"),
        ("pl/../x", "/proc/self/cwd/../x"),
        ("pl/./a//b", "/proc/self/cwd/a/b"),
        ("plrel/x", "/proc/self/cwd/x"),  # a relative target that climbs to `/` and down into /proc/self
        ("plchain/../x", "/proc/self/cwd/../x"),  # a link to such a link
        ("root/proc/self/cwd/../x", "/proc/self/cwd/../x"),  # a link to `/`, then the names written after it
        ("viaroot/cwd", "/proc/self/cwd"),  # a link to a link to `/` in its target
        ("proc/self/fd/3", "/proc/self/fd/3"),
        ("proc/1/../self/cwd", "/proc/1/../self/cwd"),  # a pid's directory is one too (review 38)
        ("devdir/fd/../x", "/dev/fd/../x"),
        ("devdir/stdout", "/dev/stdout"),
        ("fd", "/dev/fd/3"),
        ("fd/../../x", "/dev/fd/3/../../x"),
        ("real/../pl/x", "/proc/self/cwd/x"),
    ],
)
def test_a_link_into_the_own_process_is_kept_as_written(links: Path, rest: str, expected: str) -> None:
    """Stop 37: a link made before the command (`pl -> /proc/self/cwd`) was followed in the guard's process, into the
    guard's cwd: `cd .. && echo x > src/pl/../f` was W/f to the guard and W/.. to bash. From such a link on the path is
    the shell's, kept as written (`own_process`), and no checkout's."""
    assert real(str(links / rest)) == expected
    assert own_process(real(str(links / rest)))


def test_resolved_gives_up_where_the_kernel_does(links: Path) -> None:
    """A loop, or more than 40 links (Linux's ELOOP), keeps the rest as written from the link it stopped at, `..`
    applied: no process can open it. Exactly 40 links still resolve."""
    assert _resolved(str(links / "loop1" / "x" / "..")) in (str(links / "loop1"), str(links / "loop2"))
    assert _resolved(str(links / "loop1" / "..")) == str(links)
    chain = links / "c"
    chain.mkdir()
    (chain / "l0").symlink_to(links / "real")
    for k in range(1, 41):
        (chain / f"l{k}").symlink_to(f"l{k - 1}")
    assert _resolved(str(chain / "l39" / "sub")) == str(links / "real" / "sub")  # 40 links
    assert _resolved(str(chain / "l40" / "sub")) == str(chain / "l0" / "sub")  # 41: the 41st is l0, kept with the rest
    assert _resolved(str(chain / "l40" / "sub" / ".." / "..")) == str(chain)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/dev/fd/3", True),
        ("/dev/fd/12", True),
        ("/dev/stdin", True),
        ("/dev/stdout", True),
        ("/dev/stderr", True),
        ("/dev/fd/3/x", False),
        ("/dev/fd/x", False),
        ("/dev/fd", False),
        ("/dev/fd/", False),
        ("/dev/stdout/x", False),
        ("/dev/null", False),
        ("/proc/self/fd/3", False),  # not on the allow-list: the SPEC names /dev/fd/*
        ("/x/dev/stdout", False),
        ("/dev", False),
    ],
)
def test_descriptor_is_a_descriptor_file_itself(path: str, expected: bool) -> None:
    assert descriptor(path) is expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/proc/self/cwd", True),
        ("/proc/self/cwd/x", True),
        ("/proc/thread-self/root/tmp", True),
        ("/proc/self/fd/3/x", True),  # below a descriptor: a directory opened as one
        ("/proc/self/exe", True),
        ("/proc/self/map_files/1-2", True),
        ("/proc/self/task/7/cwd", True),
        ("/proc/self/status", False),  # a file of the process's own /proc directory
        ("/proc/self/environ", False),
        ("/proc/self/", True),
        ("/proc/self", True),  # holds cwd/ and root/ (review 37c: an archive extracted into it wrote <main>)
        ("/proc/thread-self", True),
        ("/proc/self/fd/3", False),  # a descriptor: `as_descriptor` and the opened numbers judge it
        ("/proc/thread-self/fd/0", False),
        ("/proc/net/tcp", False),
        ("/proc/mounts", False),
        ("/proc/net/../cwd", True),  # up from where it leads
        ("/proc/self/status/..", True),
        ("/proc/self/./cwd", True),
        ("/var/run/../proc/self/status", True),  # a link's name right after a `..`: the whole path kept
        ("/dev/fd/3", False),
        ("/dev/stdin", False),
        ("/dev/fd/3/x", True),
        ("/dev/stdin/x", True),
        ("/dev/fd/x", True),
        ("/dev/fd", True),  # holds every descriptor
        ("/dev/null", False),
        ("/tmp/proc/self/cwd", False),
        # review 38: a pid's directory, whose cwd, root and descriptors may change after the guard reads them
        # (`make -C /proc/<pid>/fd/3` of a process that opened `3<../../..` later)
        ("/proc/123/fd/3", True),  # another process's descriptor: no descriptor of this command's
        ("/proc/123/cwd", True),
        ("/proc/123", True),
        ("/proc/123/status", False),
        ("/proc/12x/cwd", False),
    ],
)
def test_own_process_place(path: str, expected: bool) -> None:
    """Review 37/37b: an unknown program given a place reached through a process's own /proc directory is refused
    (`make -C /proc/self/cwd/../..`); a file of it (`/proc/self/status`) or a descriptor of it is not such a place."""
    assert own_process_place(path) is expected


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/proc/self/fd/3", "/dev/fd/3"),
        ("/proc/thread-self/fd/12", "/dev/fd/12"),
        ("/proc/self/fd/x", "/proc/self/fd/x"),
        ("/proc/self/fd/3/x", "/proc/self/fd/3/x"),
        ("/proc/1/fd/3", "/proc/1/fd/3"),
        ("/proc/self/fdinfo/3", "/proc/self/fdinfo/3"),
        ("/dev/fd/3", "/dev/fd/3"),
        ("/x/proc/self/fd/3", "/x/proc/self/fd/3"),
    ],
)
def test_as_descriptor(path: str, expected: str) -> None:
    assert as_descriptor(path) == expected


@pytest.mark.parametrize(
    ("start", "expected"),
    [
        ("/proc/", True),  # then `$$`
        ("/proc/1", True),  # then more digits: a pid
        ("/proc/123", True),
        ("/proc", True),
        ("/pro", True),
        ("/proc/s", True),
        ("/proc/self/cwd/", True),
        ("/dev/", True),
        ("/dev/s", True),  # stdin, stdout, stderr
        ("/dev/fd/", True),
        ("/dev/null", False),
        ("/dev/shm/out-", False),
        ("/proc/1x", False),
        ("/proc/12/", True),  # a pid written out: that process's, which may change after the guard reads it (review 38)
        ("/proc/cpuinfo", False),
        ("/tmp/", False),
        ("/", False),  # an absolute path only known at run time: as `"$X"`, not this check's
        ("/x/proc/", False),
    ],
)
def test_may_become_own_process(start: str, expected: bool) -> None:
    """Review 37b/37c: a path only known at run time whose text begins with `start` may still be the shell's own
    /proc directory (`/proc/$$/cwd`)."""
    assert may_become_own_process(start) is expected
