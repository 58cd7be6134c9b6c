"""The symlinks a command makes (shell/links.py) and how later paths are read through them (paths.MadeLinks,
PathPolicy.forms): stop 39, review 38c's `ln -s /tmp t; echo x > t/<main>/README.md`.

Rows read what `note_made_links` adds for one simple command in a directory {W} holding `dir/`, `file`, `lnk ->
/tmp/x` and `lndir -> dir`: (links, as_link, as_directory), each a dict of link path → text, {W} for the directory.
What each program does was checked with GNU coreutils 9.1 (ln, cp, mv) on this machine.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from worktree_guard import fast_dataclass, paths
from worktree_guard.layout import Layout
from worktree_guard.paths import MadeLinks, made_links, made_links_read_as, real
from worktree_guard.policy import PathPolicy
from worktree_guard.shell import links
from worktree_guard.shell.links import note_made_links
from worktree_guard.shell.parse import parse
from worktree_guard.shell.programs import BUILTIN_READERS, BUILTIN_WRITERS
from worktree_guard.shell.state import ShellState
from worktree_guard.shell.steps import ShellCommand, Unwrapped
from worktree_guard.shell.written import ProgramTables

TABLES = ProgramTables(writers=dict(BUILTIN_WRITERS), readers=dict(BUILTIN_READERS))


@pytest.fixture
def w(tmp_path: Path) -> str:
    (tmp_path / "dir").mkdir()
    (tmp_path / "file").write_text("")
    (tmp_path / "lnk").symlink_to("/tmp/x")
    (tmp_path / "lndir").symlink_to("dir")
    return os.path.realpath(tmp_path)


def made_by(source: str, cwd: str | None, written_before: list[str | None] | None = None, made: MadeLinks | None = None) -> MadeLinks:
    made = MadeLinks() if made is None else made
    node = parse(source).body[0]
    step = ShellCommand(node=node, words=node.words, assignments=[], cwd=cwd, state=ShellState(cwd=cwd), home="/h")
    with made_links(made):
        note_made_links(step, TABLES, made, written_before or [])
    return made


def _filled(links: dict[str, str], w: str) -> dict[str, list[str]]:
    return {key.replace("{W}", w): [value.replace("{W}", w)] for key, value in links.items()}


# (command, links, as_link, as_directory)
ROWS = [
    ("ln -s /tmp t", {"{W}/t": "/tmp"}, {}, {}),
    ("ln -sf /tmp t", {"{W}/t": "/tmp"}, {}, {}),
    ("ln --sym /tmp t", {"{W}/t": "/tmp"}, {}, {}),
    ("ln --symbolic -- /tmp t", {"{W}/t": "/tmp"}, {}, {}),
    ("ln -s src t", {"{W}/t": "src"}, {}, {}),  # the text as given: read from the link's directory
    ("ln -s ../x dir/t", {"{W}/dir/t": "../x"}, {}, {}),
    ("ln -sr src t", {"{W}/t": "{W}/src"}, {}, {}),  # ln -r makes a text that leads to src read from the cwd
    ("ln --relative -s /tmp t", {"{W}/t": "/tmp"}, {}, {}),
    ("ln /tmp/x t", {}, {}, {}),  # a hard link: never a directory
    ("ln -s /tmp dir", {"{W}/dir/tmp": "/tmp"}, {}, {}),
    ("ln -s /tmp/ dir", {"{W}/dir/tmp": "/tmp/"}, {}, {}),
    ("ln -s /tmp new/", {"{W}/new/tmp": "/tmp"}, {}, {}),
    ("ln -sT /tmp dir", {"{W}/dir": "/tmp"}, {}, {}),
    ("ln -s --no-target-directory /tmp dir", {"{W}/dir": "/tmp"}, {}, {}),
    ("ln -s /tmp lndir", {"{W}/dir/tmp": "/tmp"}, {}, {}),  # through the link to dir
    ("ln -sn /tmp lndir", {"{W}/lndir": "/tmp"}, {}, {}),  # -n: the link itself is replaced (with -f)
    ("ln -s --no-dereference /tmp lndir", {"{W}/lndir": "/tmp"}, {}, {}),
    ("ln -sn /tmp dir", {"{W}/dir/tmp": "/tmp"}, {}, {}),  # -n changes nothing for a directory
    ("ln -s /tmp file", {"{W}/file": "/tmp"}, {}, {}),  # replaced with -f
    ("ln -s /tmp", {"{W}/tmp": "/tmp"}, {}, {}),
    ("ln -s /", {}, {}, {}),  # no name: ln makes nothing
    ("ln -s . dir", {}, {}, {}),
    ("ln -s .. t", {"{W}/t": ".."}, {}, {}),
    ("ln -st dir /tmp /etc", {"{W}/dir/tmp": "/tmp", "{W}/dir/etc": "/etc"}, {}, {}),
    ("ln -s -t dir /tmp", {"{W}/dir/tmp": "/tmp"}, {}, {}),
    ("ln -s --target-directory=dir /tmp", {"{W}/dir/tmp": "/tmp"}, {}, {}),
    ("ln -s --target=dir /tmp", {"{W}/dir/tmp": "/tmp"}, {}, {}),
    ("ln -s /tmp /etc dir", {"{W}/dir/tmp": "/tmp", "{W}/dir/etc": "/etc"}, {}, {}),
    ("ln -s /tmp $X", {}, {}, {}),  # refused already
    ("cp -P lnk u", {"{W}/u": "/tmp/x"}, {}, {}),
    ("cp -d lnk u", {"{W}/u": "/tmp/x"}, {}, {}),
    ("cp -a lnk dir", {"{W}/dir/lnk": "/tmp/x"}, {}, {}),
    ("cp -r lnk u", {"{W}/u": "/tmp/x"}, {}, {}),
    ("cp --no-d lnk u", {"{W}/u": "/tmp/x"}, {}, {}),  # getopt_long's unique prefix
    ("cp -PT lnk dir", {"{W}/dir": "/tmp/x"}, {}, {}),
    ("cp -P lnk lnk dir", {"{W}/dir/lnk": "/tmp/x"}, {}, {}),
    ("cp -P -t dir lnk", {"{W}/dir/lnk": "/tmp/x"}, {}, {}),
    ("cp -P lnk new/", {"{W}/new/lnk": "/tmp/x"}, {}, {}),
    ("cp lnk u", {}, {}, {}),  # copies what the link names
    ("cp -rL lnk u", {}, {}, {}),
    ("cp -LP lnk u", {"{W}/u": "/tmp/x"}, {}, {}),  # with -P beside it, which is last is not kept
    ("cp -P file u", {}, {}, {}),
    ("cp -P lnk/ u", {}, {}, {}),  # `lnk/` is the directory it names
    ("cp -P lnk", {}, {}, {}),
    ("mv lnk u", {"{W}/u": "/tmp/x"}, {}, {}),
    ("mv lnk dir", {"{W}/dir/lnk": "/tmp/x"}, {}, {}),
    ("mv -t dir lnk", {"{W}/dir/lnk": "/tmp/x"}, {}, {}),
    ("mv -T lnk dir", {"{W}/dir": "/tmp/x"}, {}, {}),
    ("mv file u", {}, {}, {}),
    ("rm lnk", {}, {}, {}),
    # phase 25 (m40a)
    ("ln -s /etc/X dir", {"{W}/dir/X": "/etc/X"}, {}, {}),  # the last component only (not cp --parents' whole path)
    ("ln -s .. dir", {}, {}, {}),  # dir/.. exists: ln makes nothing
    ("ln -s / new/", {}, {}, {}),  # no name to make inside new/
    ("ln -s /tmp newX", {"{W}/newX": "/tmp"}, {}, {}),
    ("ln -sT /tmp /", {"/": "/tmp"}, {}, {}),  # the root itself (outside W: refused anyway)
    ("ln -s /tmp -t di*", {"{W}/dir/tmp": "/tmp"}, {}, {}),  # a glob as -t's directory: its matches
    ("ln -s --target dir /tmp", {"{W}/dir/tmp": "/tmp"}, {}, {}),  # an abbreviated --target-directory takes the next word
    ("ln -s --relative src t", {"{W}/t": "{W}/src"}, {}, {}),
    ("ln --logical lnk u", {}, {}, {}),  # a hard link to what lnk names
    ("ln -LP lnk u", {"{W}/u": "/tmp/x"}, {}, {}),
    ("ln -L --physical lnk u", {"{W}/u": "/tmp/x"}, {}, {}),
    ("cp -r --dereference lnk u", {}, {}, {}),
    ("cp -rL --no-dereference lnk u", {"{W}/u": "/tmp/x"}, {}, {}),  # -L beside any of -P, -d, -a: read as a link copied
    ("cp -Ld lnk u", {"{W}/u": "/tmp/x"}, {}, {}),
    ("cp -La lnk u", {"{W}/u": "/tmp/x"}, {}, {}),
    ("cp -L --archive lnk u", {"{W}/u": "/tmp/x"}, {}, {}),
    ("cp --recursive lnk u", {"{W}/u": "/tmp/x"}, {}, {}),
    ("install -b -d dir lnk", {}, {}, {}),  # install -d makes directories: no link, no backup of one
    ("install -b --directory dir lnk", {}, {}, {}),
    ("cp -P ln* new", {"{W}/new/lnk": "/tmp/x", "{W}/new/lndir": "dir"}, {}, {}),  # two sources: new must be a directory
]


@pytest.mark.parametrize("command,links,as_link,as_directory", ROWS, ids=[r[0] for r in ROWS])
def test_what_a_command_makes(w: str, command: str, links, as_link, as_directory) -> None:
    made = made_by(command, w)
    assert (made.links, made.as_link, made.as_directory) == (_filled(links, w), _filled(as_link, w), _filled(as_directory, w))


def test_a_name_an_earlier_step_wrote_may_be_a_directory_by_then(w: str) -> None:
    """`mkdir d; ln -s T d` makes d/T's name, `touch d; ln -sf T d` makes d, `rmdir dir; ln -s T dir` makes dir
    (review 39b): both kept when a step before wrote the operand, a directory above it, or somewhere only known at
    run time, whatever is on disk now; not for a place elsewhere."""
    for name, written in (("new", [f"{w}/new"]), ("new", [w]), ("new", [None]), ("new", ["/"]), ("dir", [f"{w}/dir"]), ("file", [f"{w}/file"])):
        made = made_by(f"ln -s /tmp {name}", w, written)
        assert (made.links, made.as_link, made.as_directory) == ({}, {f"{w}/{name}": ["/tmp"]}, {f"{w}/{name}/tmp": ["/tmp"]}), (name, written)
    for written in ([f"{w}/other"], [f"{w}/new/x"], [f"{w}/ne"]):
        assert made_by("ln -s /tmp new", w, written).links == {f"{w}/new": ["/tmp"]}, written
    made = made_by("ln -s / new", w, [f"{w}/new"])
    assert (made.links, made.as_link, made.as_directory) == ({}, {f"{w}/new": ["/"]}, {})  # no name inside
    made = made_by("cp -P lnk new", w, [f"{w}/new"])
    assert (made.as_link, made.as_directory) == ({f"{w}/new": ["/tmp/x"]}, {f"{w}/new/lnk": ["/tmp/x"]})


def test_an_unknown_directory_keeps_only_absolute_words(w: str) -> None:
    assert made_by("ln -s /tmp t", None).links == {}
    assert made_by("ln -s /tmp /abs/t", None).links == {"/abs/t": ["/tmp"]}
    assert made_by("ln -s /tmp -t /abs", None).links == {"/abs/tmp": ["/tmp"]}
    assert made_by("ln -s tmp /abs/t", None).links == {}
    assert made_by("ln -s /tmp -t abs", None).links == {}


def _made(w: str, *links: tuple[str, str]) -> MadeLinks:
    made = MadeLinks()
    for path, text in links:
        made.add(f"{w}/{path}", text)
    return made


def test_a_link_the_command_made_is_copied_moved_and_hard_linked_as_one(w: str) -> None:
    for kind in ("links", "as_link", "as_directory"):
        before = MadeLinks()
        getattr(before, kind)[f"{w}/t"] = ["/tmp"]
        made = made_by("mv t u", w, made=before)
        assert made.links[f"{w}/u"] == ["/tmp"] and len(made.links) == 1 + (kind == "links"), kind
    assert made_by("cp -P t dir", w, made=_made(w, ("t", "/tmp"))).links == {f"{w}/t": ["/tmp"], f"{w}/dir/t": ["/tmp"]}
    # review 39b F5: a hard link to a symlink is a symlink (GNU ln's default -P, and link(2))
    for command in ("ln t u", "ln -P t u", "link t u"):
        assert made_by(command, w, made=_made(w, ("t", "/tmp"))).links[f"{w}/u"] == ["/tmp"], command
    assert f"{w}/u" not in made_by("ln -L t u", w, made=_made(w, ("t", "/tmp"))).links
    assert made_by("ln lnk u", w).links == {f"{w}/u": ["/tmp/x"]}
    assert made_by("ln file u", w).links == {}
    # review 39b F1: a link made again at the same place keeps every text, the last one last
    made = made_by("ln -sfn /etc t", w, made=_made(w, ("t", "/tmp")))
    assert made.links == {f"{w}/t": ["/tmp", "/etc"]}
    made = made_by("ln -s /etc t", w, made=_made(w, ("t", "/tmp")))
    assert made.links == {f"{w}/t": ["/tmp", "/etc"], "/tmp/etc": ["/etc"]}  # through t, a directory; or t, if t was not made


def test_a_directory_moved_or_copied_whole_brings_its_links(w: str) -> None:
    """Review 39b F4: `mkdir d; ln -s /tmp d/l; mv d e` makes e/l, a link; so do the links on disk below it, and
    `cp -R`/`-a`; `cp -rL` copies what they name."""
    os.mkdir(f"{w}/dir/sub")
    os.symlink("/etc", f"{w}/dir/sub/deep")
    made = made_by("mv dir e", w, made=_made(w, ("dir/l", "/tmp")))
    assert {path: texts for path, texts in made.links.items() if path.startswith(f"{w}/e/")} == {f"{w}/e/l": ["/tmp"], f"{w}/e/sub/deep": ["/etc"]}
    for command in ("cp -r dir e", "cp -a dir e", "cp -R dir e"):
        assert made_by(command, w).links == {f"{w}/e/sub/deep": ["/etc"]}, command
    assert made_by("cp -rL dir e", w).links == {}
    assert made_by("cp dir e", w).links == {}
    # a file a step before wrote may be a directory by then: the tree lands as it or in it, both kept
    assert made_by("mv dir file", w, [f"{w}/file"]).links == {f"{w}/file/sub/deep": ["/etc"], f"{w}/file/dir/sub/deep": ["/etc"]}
    made = made_by("mv dir lndir2", w, [f"{w}/lndir2"])
    assert (made.links[f"{w}/lndir2/sub/deep"], made.links[f"{w}/lndir2/dir/sub/deep"]) == (["/etc"], ["/etc"])
    assert made_by("mv file e", w).links == {}


def test_a_tree_whose_links_are_not_known_is_refused(w: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stop 39's left: past MAX_TREE_ENTRIES entries, or with a directory or link below it unreadable, the links below a
    directory moved or copied whole were not followed, and the call passed. They are unknown now: the call is
    refused (note_made_links gives the reason, WG403)."""
    from worktree_guard.shell import links

    os.mkdir(f"{w}/dir/sub")
    os.symlink("/etc", f"{w}/dir/sub/deep")
    (Path(w) / "dir" / "a").write_text("")

    def reason(command: str) -> str | None:
        node = parse(command).body[0]
        step = ShellCommand(node=node, words=node.words, assignments=[], cwd=w, state=ShellState(cwd=w), home="/h")
        made = MadeLinks()
        with made_links(made):
            return note_made_links(step, TABLES, made, [])

    assert reason("mv dir e") is None and reason("cp -r dir e") is None
    monkeypatch.setattr(links, "MAX_TREE_ENTRIES", 3)  # dir holds sub, a, sub/deep: 3 entries
    assert reason("mv dir e") is None
    monkeypatch.setattr(links, "MAX_TREE_ENTRIES", 2)
    for command in ("mv dir e", "cp -r dir e", "cp -a dir e"):
        assert reason(command) == f"`{command.split()[0]}` moves or copies the directory {w}/dir, which holds more than 2 entries or one worktree-guard cannot read: the symlinks it brings are not known", command
    assert reason("cp dir e") is None and reason("cp -rL dir e") is None  # nothing of the tree is copied as links
    monkeypatch.setattr(links, "MAX_TREE_ENTRIES", 10_000)
    scandir = os.scandir

    def unreadable(path):
        if str(path).endswith("/sub"):
            raise PermissionError(13, "Permission denied", path)
        return scandir(path)

    monkeypatch.setattr(os, "scandir", unreadable)
    assert "cannot read" in (reason("mv dir e") or "")
    monkeypatch.setattr(os, "scandir", scandir)

    def unread_link(path, *args, **kwargs):
        raise OSError(5, "Input/output error", path)

    monkeypatch.setattr(os, "readlink", unread_link)
    assert "cannot read" in (reason("mv dir e") or "")


def test_backups_of_a_link_are_links(w: str) -> None:
    """Review 39b F3: `mv -bT b a` over a link a keeps a~, a link to where a led; `-S`, SIMPLE_BACKUP_SUFFIX and the
    numbered backups (`a.~1~`) likewise, for ln, cp, mv and install."""
    for command in ("mv -bT file lnk", "cp -b file lnk", "ln -sfb /etc lnk", "install -b -T file lnk", "mv --backup=numbered file lnk"):
        made = made_by(command, w)
        assert made.links[f"{w}/lnk~"] == ["/tmp/x"] and made.links[f"{w}/lnk.~1~"] == ["/tmp/x"], command
    assert made_by("mv -S .old file lnk", w).links[f"{w}/lnk.old"] == ["/tmp/x"]
    assert made_by("mv --suffix=.o file lnk", w).links[f"{w}/lnk.o"] == ["/tmp/x"]
    assert made_by("mv -b file lnk", w, made=_made(w, ("lnk.~1~", "/x"))).links[f"{w}/lnk.~2~"] == ["/tmp/x"]
    assert made_by("mv file lnk", w).links == {}  # no backup asked for
    assert made_by("mv -b file dir", w).links == {}  # nothing replaced is a link
    made = made_by("mv -b lnk t", w, made=_made(w, ("t", "/nonexistent/x")))  # a link the command made, to no directory
    assert made.links[f"{w}/t~"] == ["/nonexistent/x"] and made.links[f"{w}/t"] == ["/nonexistent/x", "/tmp/x"]


def test_cp_parents_and_globs_place_the_link_where_they_land(w: str) -> None:
    """Review 39b: `cp -P --parents src/l d` makes d/src/l; `ln -s /tmp x*` makes its link where the glob matches at
    run time, in the directory a step before made too (`mkdir xd; ln -s /tmp x*`)."""
    os.mkdir(f"{w}/src")
    os.symlink("/tmp", f"{w}/src/l")
    assert made_by("cp -P --parents src/l dir", w).links == {f"{w}/dir/src/l": ["/tmp"]}
    made = made_by("ln -s /tmp di*", w)
    assert (made.as_link, made.as_directory) == ({f"{w}/dir": ["/tmp"]}, {f"{w}/dir/tmp": ["/tmp"]})
    made = made_by("ln -s /tmp x*", w)
    assert (made.links, made.as_link, made.as_directory) == ({}, {f"{w}/x*": ["/tmp"]}, {f"{w}/x*/tmp": ["/tmp"]})
    state = ShellState(cwd=w)
    state.written.append(f"{w}/xd")
    node = parse("ln -s /tmp x*").body[0]
    made = MadeLinks()
    with made_links(made):
        note_made_links(ShellCommand(node=node, words=node.words, assignments=[], cwd=w, state=state, home="/h"), TABLES, made, [f"{w}/xd"])
    assert made.as_directory.get(f"{w}/xd/tmp") == ["/tmp"]
    assert made_by("ln -s s?c/*.so lib", w).links == {}  # a source glob matching nothing: its text


def test_each_step_is_read_again_without_its_own_links(w: str) -> None:
    """Walked again, a step would find its own link (`ln -s . t`: t a directory, then t/. made); read without them,
    it adds what the other links now say (review 39b F8: a link made later in the command may be its directory)."""
    made = made_by("ln -s . t", w)
    again = made_by("ln -s . t", w, made=made)
    assert again.links == {f"{w}/t": ["."]} and len(again.steps) == 1
    made = _made(w, ("d", f"{w}/dir"))
    made = made_by("ln -s /tmp d/l", w, made=made)
    assert made.links[f"{w}/dir/l"] == ["/tmp"]
    assert made_by("ln -s /tmp u", w, made=made).links[f"{w}/u"] == ["/tmp"]


def test_a_plugin_that_takes_ln_out_of_the_write_table_makes_it_unknown(w: str) -> None:
    made = MadeLinks()
    node = parse("ln -s /tmp t").body[0]
    step = ShellCommand(node=node, words=node.words, assignments=[], cwd=w, state=ShellState(cwd=w), home="/h")
    with made_links(made):
        note_made_links(step, ProgramTables(writers={}, readers={}), made, [])
    assert not made


# -- reading paths through them (paths.real, PathPolicy.forms) -------------------------------------------------

def test_real_reads_a_made_link_as_one_on_disk(w: str) -> None:
    """Targets inside {W} (`dir`, `dir/sub`): a link on this machine's /tmp would change the readings (a probe once
    made /tmp/tmp -> /tmp)."""
    os.mkdir(f"{w}/dir/sub")
    made = _made(w, ("t", f"{w}/dir/sub"), ("rel", "dir"), ("up", ".."))
    assert real(f"{w}/t/x") == f"{w}/t/x"  # outside a walk: none
    with made_links(made):
        assert real(f"{w}/t/x") == f"{w}/dir/sub/x"
        assert real(f"{w}/t/../x") == f"{w}/dir/x"
        assert real(f"{w}/rel/a") == f"{w}/dir/a"  # relative: from the link's directory
        assert real(f"{w}/up/x") == os.path.dirname(w) + "/x"
        assert real(f"{w}/t") == f"{w}/dir/sub"
        assert real(f"{w}/tt/x") == f"{w}/tt/x"
        with made_links_read_as(("none", ())):
            assert real(f"{w}/t/../x") == f"{w}/x"
        assert paths.made_link_readings() == [("none", ())]
        with made_links_read_as(("none", ())):
            assert paths.made_link_readings() == []
    assert paths.made_link_readings() == []
    assert paths.current_made_links() is None


def test_a_place_linked_twice_has_a_reading_for_each(w: str) -> None:
    """Review 39b F1: `ln -s W/src t; ln -sfn /tmp t; … t/..` read t as the first link only."""
    os.mkdir(f"{w}/dir/sub")
    made = _made(w, ("t", f"{w}/dir/sub"), ("t", f"{w}/dir"), ("t", "/"))
    assert made.links == {f"{w}/t": [f"{w}/dir/sub", f"{w}/dir", "/"]} and len(made) == 3
    t = f"{w}/t"
    with made_links(made):
        assert real(f"{w}/t/x") == "/x"  # the last
        assert paths.made_link_readings() == [("directory", ((t, 0),)), ("directory", ((t, 1),)), ("none", ())]
        with made_links_read_as(("directory", ((t, 0),))):
            assert real(f"{w}/t/x") == f"{w}/dir/sub/x"
        with made_links_read_as(("directory", ((t, 1),))):
            assert real(f"{w}/t/x") == f"{w}/dir/x"
        with made_links_read_as(("directory", ((f"{w}/other", 0),))):
            assert real(f"{w}/t/x") == "/x"  # a place not chosen: its last
    # review 39c F3: each place's texts in every combination with the other's (A's first with B's last)
    made = _made(w, ("a", "/a1"), ("a", "/a2"), ("b", "/b1"), ("b", "/b2"), ("b", "/b3"))
    with made_links(made):
        readings = paths.made_link_readings()
        assert len(readings) == 2 * 3 - 1 + 1 and ("directory", ((f"{w}/a", 0), (f"{w}/b", 2))) in readings
        assert not paths.too_many_readings(made)
    for i in range(6):
        for text in ("/x", "/y"):
            made.add(f"{w}/p{i}", text)
    assert paths.too_many_readings(made)  # 6 x 2**6 ways
    with made_links(made):
        assert len(paths.made_link_readings()) == paths.MAX_MADE_READINGS + 1


def test_a_link_that_may_be_a_directory_has_both_readings(w: str) -> None:
    os.mkdir(f"{w}/dir/sub")
    target = f"{w}/dir/sub"
    made = MadeLinks()
    made.add_either(f"{w}/d", "sub", target)
    assert len(made) == 2
    with made_links(made):
        assert paths.made_link_readings() == [("link", ()), ("none", ())]
        assert real(f"{w}/d/sub/../x") == f"{w}/dir/x"  # d a directory, d/sub the link
        assert real(f"{w}/d/x") == f"{w}/d/x"
        with made_links_read_as(("link", ())):
            assert real(f"{w}/d/sub/../x") == f"{target}/x"  # d the link
            assert real(f"{w}/d/x") == f"{target}/x"
        with made_links_read_as(("none", ())):
            assert real(f"{w}/d/sub/../x") == f"{w}/d/x"
    made = _made(w, ("d", f"{w}/dir"))
    made.add_either(f"{w}/d", "sub", target)  # a link known for certain, then one that may be d or in it
    with made_links(made):
        assert real(f"{w}/d/x") == f"{w}/dir/x"  # d a directory: only the first is d
        with made_links_read_as(("link", ())):
            assert real(f"{w}/d/x") == f"{target}/x"  # d the link: the last
        with made_links_read_as(("link", ((f"{w}/d", 0),))):
            assert real(f"{w}/d/x") == f"{w}/dir/x"
        assert ("link", ((f"{w}/d", 0),)) in paths.made_link_readings()


def test_without_hides_a_steps_own_links_and_gives_them_back(w: str) -> None:
    made = _made(w, ("t", "/a"), ("t", "/b"))
    with made.without([("links", f"{w}/t", "/a"), ("links", f"{w}/u", "/z")]):
        assert made.links == {f"{w}/t": ["/b"]}
        made.add(f"{w}/t", "/c")
    assert made.links == {f"{w}/t": ["/a", "/b", "/c"]}
    with made.without([("links", f"{w}/t", "/b")]):
        made.add(f"{w}/t", "/b")  # made again meanwhile: kept where it was made again
    assert made.links == {f"{w}/t": ["/a", "/c", "/b"]}
    assert made.below(w) == [(f"{w}/t", "/a"), (f"{w}/t", "/c"), (f"{w}/t", "/b")] and made.below(f"{w}/t") == []


def test_forms_place_every_reading(w: str) -> None:
    """The worst reading of a path wins (PathPolicy.judge): through the link, the other reading of a link that may be
    a directory, and as if no link were made (the `ln` may fail: `false && ln -sfn /tmp lnk; echo x > lnk/f`)."""
    os.mkdir(f"{w}/dir/sub")
    target = f"{w}/dir/sub"
    layout = Layout(worktree_root=w)
    policy = PathPolicy(layout, [], [], home="/h")
    made = _made(w, ("t", target))
    assert policy.forms("t/x", w) == [f"{w}/t/x"]
    with made_links(made):
        assert policy.forms("t/x", w) == [f"{target}/x", f"{w}/t/x"]
        assert policy.forms("t/../x", w) == [f"{w}/dir/x", f"{w}/x"]
        assert policy.forms("dir/x", w) == [f"{w}/dir/x"]
    made = MadeLinks()
    made.add_either(f"{w}/d", "sub", target)
    with made_links(made):
        assert policy.forms("d/sub/../x", w) == [f"{w}/dir/x", f"{w}/d/x", f"{target}/x"]
        assert policy.forms("d/sub/x", w) == [f"{target}/x", f"{target}/sub/x", f"{w}/d/sub/x"]
    made = _made(w, ("t", target), ("t", f"{w}/dir"))
    with made_links(made):
        assert policy.forms("t/x", w) == [f"{w}/dir/x", f"{target}/x", f"{w}/t/x"]


# -- phase 25 (m40a): what the mutation screening of shell/links found untested ------------------------------------

def noted(source: str, cwd: str | None, written_before: list[str | None] | None = None, made: MadeLinks | None = None, state: ShellState | None = None, unwrapped: Unwrapped | None = None, tables: ProgramTables = TABLES) -> tuple[MadeLinks, str | None]:
    """`made_by`, with the reason `note_made_links` gives when the links cannot be placed."""
    made = MadeLinks() if made is None else made
    node = parse(source).body[0]
    state = ShellState(cwd=cwd) if state is None else state
    step = ShellCommand(node=node, words=node.words, assignments=[], cwd=cwd, state=state, home="/h", unwrapped=unwrapped)
    with made_links(made):
        reason = note_made_links(step, tables, made, written_before or [])
    return made, reason


def test_a_glob_whose_directory_a_step_before_wrote_unknown_names_in_is_unplaced(w: str) -> None:
    """`_operands`: a glob as the last operand or as -t's directory, after a write only known at run time, names a
    place only known at run time (the reason, WG403); a glob before the last operand is its matches now (a source)."""
    assert noted("ln -s /tmp x*", w, [None])[1] == "`ln`'s last operand 'x*' is a glob in a directory the command wrote before under names worktree-guard does not know: where it makes its links is only known at run time"
    assert noted("ln -s /tmp -t x*", w, [None])[1] == "`ln`'s `-t` directory 'x*' is a glob in a directory the command wrote before under names worktree-guard does not know: where it makes its links is only known at run time"
    made, reason = noted("ln -s di* new", w, [None])
    assert reason is None and made.as_link == {f"{w}/new": [f"{w}/dir"]}  # a glob source: its matches
    made, reason = noted("ln -s /tmp t", w)
    assert reason is None and made.links == {f"{w}/t": ["/tmp"]}


def test_the_root_or_the_cwd_as_the_last_operand_after_an_unknown_write(w: str) -> None:
    """`_place` of `.` and `..`: the directory itself, canonical (not `W/.`)."""
    parent = os.path.dirname(w)
    for name, place in ((".", w), ("..", parent)):
        made = made_by(f"ln -s /tmp {name}", w, [None])
        assert (made.links, made.as_link, made.as_directory) == ({}, {place: ["/tmp"]}, {f"{place}/tmp": ["/tmp"]}), name


def test_a_glob_as_the_last_operand_lands_in_each_of_its_matches(w: str) -> None:
    os.mkdir(f"{w}/dir2")
    made = made_by("ln -s /tmp di*", w)
    assert (made.links, made.as_link, made.as_directory) == ({}, {f"{w}/dir": ["/tmp"], f"{w}/dir2": ["/tmp"]}, {f"{w}/dir/tmp": ["/tmp"], f"{w}/dir2/tmp": ["/tmp"]})


def test_cp_parents_keeps_an_absolute_sources_whole_path_below_the_directory(w: str) -> None:
    """GNU `cp --parents /a/b/l d` makes d/a/b/l (the leading `/` only comes off; a trailing X is a name's)."""
    os.mkdir(f"{w}/src")
    os.symlink("/tmp", f"{w}/src/lX")
    assert made_by(f"cp -P --parents {w}/src/lX dir", w).links == {f"{w}/dir{w}/src/lX": ["/tmp"]}


def test_cp_long_recursive_options_copy_a_tree(w: str) -> None:
    os.mkdir(f"{w}/dir/sub")
    os.symlink("/etc", f"{w}/dir/sub/deep")
    for command in ("cp --recursive dir e", "cp --archive dir e", "cp --rec dir e"):
        assert made_by(command, w).links == {f"{w}/e/sub/deep": ["/etc"]}, command


def test_a_directory_only_the_command_made_brings_its_links(w: str) -> None:
    """`mkdir d; ln -s /tmp d/l; mv d e`: d is not on disk, its made links are moved."""
    made = made_by("mv newdir e", w, made=_made(w, ("newdir/l", "/tmp")))
    assert made.links == {f"{w}/newdir/l": ["/tmp"], f"{w}/e/l": ["/tmp"]}


def test_every_source_lands_with_several(w: str) -> None:
    """Several sources: a tree, a link and a backup each add to what the others made."""
    os.mkdir(f"{w}/dir/sub")
    os.symlink("/etc", f"{w}/dir/sub/deep")
    os.mkdir(f"{w}/e")
    assert made_by("mv lnk dir e", w).links == {f"{w}/e/lnk": ["/tmp/x"], f"{w}/e/dir/sub/deep": ["/etc"]}
    os.symlink("/etc", f"{w}/dir/file")
    assert made_by("mv -b -t dir lnk file", w).links == {f"{w}/dir/lnk": ["/tmp/x"], f"{w}/dir/file~": ["/etc"], f"{w}/dir/file.~1~": ["/etc"]}


def test_a_tree_is_read_up_to_max_tree_entries(w: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Exactly MAX_TREE_ENTRIES entries below the directory: every link among them is read."""
    monkeypatch.setattr(links, "MAX_TREE_ENTRIES", 3)
    for name in ("a", "b", "c"):
        os.symlink(f"/{name}", f"{w}/dir/{name}")
    assert made_by("cp -r dir e", w).links == {f"{w}/e/a": ["/a"], f"{w}/e/b": ["/b"], f"{w}/e/c": ["/c"]}


def test_backup_suffixes_exactly(w: str) -> None:
    """The backups of a link replaced: `~` and the next numbered ones after those there, and no more; a suffix with a
    `/` is not used (GNU: `~` instead); SIMPLE_BACKUP_SUFFIX and an abbreviated `--suffix` are."""
    made = made_by("mv -b file lnk", w, made=_made(w, ("lnk.~1~", "/x")))
    assert made.links == {f"{w}/lnk.~1~": ["/x", "/tmp/x"], f"{w}/lnk~": ["/tmp/x"], f"{w}/lnk.~2~": ["/tmp/x"]}
    assert made_by("mv -S /x file lnk", w).links == {f"{w}/lnk~": ["/tmp/x"], f"{w}/lnk.~1~": ["/tmp/x"]}
    assert made_by("mv --suf=.o file lnk", w).links == {f"{w}/lnk.o": ["/tmp/x"], f"{w}/lnk~": ["/tmp/x"], f"{w}/lnk.~1~": ["/tmp/x"]}
    state = ShellState(cwd=w)
    state.variables["SIMPLE_BACKUP_SUFFIX"] = ".bak"
    made, reason = noted("mv -b file lnk", w, state=state)
    assert reason is None and made.links == {f"{w}/lnk.bak": ["/tmp/x"], f"{w}/lnk~": ["/tmp/x"], f"{w}/lnk.~1~": ["/tmp/x"]}
    made, reason = noted('mv -b -S "$X" file lnk', w)
    assert reason == f"`mv` keeps a backup of the link {w}/lnk under a suffix only known at run time"


def test_a_step_read_again_does_not_see_its_own_links(w: str) -> None:
    """A step walked again (`rules.bash.analyse`) is read without what it made itself: `ln -s dir t` does not make
    t/dir through its own t; an `ln -sb` over its own link backs up nothing. Another step sees them (`mv t u`)."""
    made = made_by("ln -s dir t", w)
    made = made_by("ln -s dir t", w, made=made)
    assert made.links == {f"{w}/t": ["dir"]}
    made = made_by("ln -sb /tmp new", w, [f"{w}/new"])
    made = made_by("ln -sb /tmp new", w, [f"{w}/new"], made=made)
    assert (made.links, made.as_link, made.as_directory) == ({}, {f"{w}/new": ["/tmp"]}, {f"{w}/new/tmp": ["/tmp"]})
    made = made_by("mv t u", w, made=made_by("ln -s dir t", w))
    assert made.links == {f"{w}/t": ["dir"], f"{w}/u": ["dir"]}


def test_a_wrappers_own_words_are_the_ones_read(w: str) -> None:
    """An unwrap hook that gives the command's own words (`Unwrapped.own_words`): the words after them are what it
    runs, not its operands."""
    made, _ = noted("ln -s /tmp t sh -c x", w, unwrapped=Unwrapped(own_words=4))
    assert made.links == {f"{w}/t": ["/tmp"]}
    made, _ = noted("ln -s /tmp t", w, unwrapped=Unwrapped())
    assert made.links == {f"{w}/t": ["/tmp"]}


def test_ln_long_options_are_read_whatever_the_write_table_says(w: str) -> None:
    """A write table row without abbreviations (a plugin's): `--target=` is still ln's `--target-directory`."""
    tables = ProgramTables(writers={**BUILTIN_WRITERS, "ln": fast_dataclass.replace(BUILTIN_WRITERS["ln"], abbreviations=False)}, readers=dict(BUILTIN_READERS))
    assert noted("ln -s --target=dir /tmp", w, tables=tables)[0].links == {f"{w}/dir/tmp": ["/tmp"]}


def test_a_link_to_a_directory_copied_with_a_trailing_slash_brings_the_directorys_links(w: str) -> None:
    """`cp -r lndir/ e` copies dir (the trailing `/` follows the link) with its links. Phase 25 (m40a): `lndir` itself
    was read, a link and no directory, and nothing was made (test_bash_rules' real run of the same writes the main
    checkout); the directory it leads to is read since."""
    os.mkdir(f"{w}/dir/sub")
    os.symlink("/etc", f"{w}/dir/sub/deep")
    assert made_by("cp -r dir/ e", w).links == {f"{w}/e/sub/deep": ["/etc"]}  # a directory: read
    for command in ("cp -r lndir/ e", "cp -a lndir/ e"):
        assert made_by(command, w).links == {f"{w}/e/sub/deep": ["/etc"]}, command
# phase 25 (m40b): the rows stop 39's screening of paths' made-links overlay found missing ------------------------


def test_add_records_what_it_adds(w: str) -> None:
    """A step's record (`MadeLinks.steps`, what `without` hides when the step is read again) gets each new entry once,
    from `add` and from both halves of `add_either`."""
    made, record = MadeLinks(), []
    made.add(f"{w}/t", "/a", record)
    made.add(f"{w}/t", "/a", record)  # already there: not recorded again
    made.add_either(f"{w}/d", "sub", "/b", record)
    made.add_either(f"{w}/e", "", "/c", record)  # no name: only the link itself
    assert record == [("links", f"{w}/t", "/a"), ("as_link", f"{w}/d", "/b"), ("as_directory", f"{w}/d/sub", "/b"), ("as_link", f"{w}/e", "/c")]
    made.add(f"{w}/u", "/z")  # no record given
    assert record[-1] == ("as_link", f"{w}/e", "/c") and made.links[f"{w}/u"] == ["/z"]


def test_below_takes_the_directory_with_or_without_its_slash(w: str) -> None:
    made = _made(w, ("dir/t", "/a"), ("dirX/u", "/b"), ("sp /v", "/c"), ("sp/s", "/d"))
    assert made.below(f"{w}/dir/") == made.below(f"{w}/dir") == [(f"{w}/dir/t", "/a")]
    assert made.below(f"{w}/dirX") == [(f"{w}/dirX/u", "/b")]  # not dir/ (an X is no slash)
    assert made.below(f"{w}/sp ") == [(f"{w}/sp /v", "/c")]  # a trailing space is part of the name


def test_the_readings_are_named_by_their_kind(w: str) -> None:
    """A place linked twice beside a link that may be a directory: the directory readings of the first, then the
    link readings (`real` reads either kind; the names are what `made_links_read_as` is given)."""
    made = _made(w, ("t", "/a"), ("t", "/b"))
    made.add_either(f"{w}/d", "sub", "/c")
    t = f"{w}/t"
    with made_links(made):
        assert paths.made_link_readings() == [("directory", ((t, 0),)), ("link", ((t, 0),)), ("link", ((t, 1),)), ("none", ())]


def test_too_many_readings_at_the_bound_and_in_the_link_reading(w: str) -> None:
    made = MadeLinks()
    for i in range(6):
        for text in ("/x", "/y"):
            made.add(f"{w}/p{i}", text)
    assert not paths.too_many_readings(made)  # 2**6 == MAX_MADE_READINGS ways: placed, not refused
    with made_links(made):
        assert len(paths.made_link_readings()) == paths.MAX_MADE_READINGS - 1 + 1  # every one but `real`'s, and "none"
    made.add(f"{w}/p6", "/x")
    made.add(f"{w}/p6", "/y")
    assert paths.too_many_readings(made)
    # seven places linked for certain, each linked again where it may be the link itself (ln's last operand): 2**7
    # ways in the link reading, one in the directory reading
    made = MadeLinks()
    for i in range(7):
        made.add(f"{w}/q{i}", "/x")
        made.add_either(f"{w}/q{i}", "n", "/y")
    assert len(paths._choices(paths._texts_by_place(made, "directory"))) == 1
    assert paths.too_many_readings(made)
