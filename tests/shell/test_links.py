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

from worktree_guard import paths
from worktree_guard.layout import Layout
from worktree_guard.paths import MadeLinks, made_links, made_links_read_as, real
from worktree_guard.policy import PathPolicy
from worktree_guard.shell.links import note_made_links
from worktree_guard.shell.parse import parse
from worktree_guard.shell.programs import BUILTIN_READERS, BUILTIN_WRITERS
from worktree_guard.shell.state import ShellState
from worktree_guard.shell.steps import ShellCommand
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


def _filled(links: dict[str, str], w: str) -> dict[str, str]:
    return {key.replace("{W}", w): value.replace("{W}", w) for key, value in links.items()}


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
]


@pytest.mark.parametrize("command,links,as_link,as_directory", ROWS, ids=[r[0] for r in ROWS])
def test_what_a_command_makes(w: str, command: str, links, as_link, as_directory) -> None:
    made = made_by(command, w)
    assert (made.links, made.as_link, made.as_directory) == (_filled(links, w), _filled(as_link, w), _filled(as_directory, w))


def test_a_name_an_earlier_step_wrote_may_be_a_directory_by_then(w: str) -> None:
    """`mkdir d; ln -s T d` makes d/T's name, `touch d; ln -sf T d` makes d: both kept when a step before wrote d, a
    directory above it, or somewhere only known at run time; not for a place elsewhere, nor one on disk now."""
    for written in ([f"{w}/new"], [w], [None], ["/"]):
        made = made_by("ln -s /tmp new", w, written)
        assert (made.links, made.as_link, made.as_directory) == ({}, {f"{w}/new": "/tmp"}, {f"{w}/new/tmp": "/tmp"}), written
    for written in ([f"{w}/other"], [f"{w}/new/x"], [f"{w}/ne"]):
        assert made_by("ln -s /tmp new", w, written).links == {f"{w}/new": "/tmp"}, written
    assert made_by("ln -s /tmp file", w, [f"{w}/file"]).links == {f"{w}/file": "/tmp"}  # on disk: a file now
    made = made_by("ln -s / new", w, [f"{w}/new"])
    assert (made.links, made.as_link, made.as_directory) == ({}, {f"{w}/new": "/"}, {})  # no name inside
    made = made_by("cp -P lnk new", w, [f"{w}/new"])
    assert (made.as_link, made.as_directory) == ({f"{w}/new": "/tmp/x"}, {f"{w}/new/lnk": "/tmp/x"})


def test_an_unknown_directory_keeps_only_absolute_words(w: str) -> None:
    assert made_by("ln -s /tmp t", None).links == {}
    assert made_by("ln -s /tmp /abs/t", None).links == {"/abs/t": "/tmp"}
    assert made_by("ln -s /tmp -t /abs", None).links == {"/abs/tmp": "/tmp"}
    assert made_by("ln -s tmp /abs/t", None).links == {}


def test_a_link_the_command_made_is_copied_and_moved_as_one(w: str) -> None:
    for kind in ("links", "as_link", "as_directory"):
        before = MadeLinks()
        getattr(before, kind)[f"{w}/t"] = "/tmp"
        made = made_by("mv t u", w, made=before)
        assert made.links[f"{w}/u"] == "/tmp" and len(made.links) == 1 + (kind == "links"), kind
    before = MadeLinks()
    before.add(f"{w}/t", "/tmp")
    assert made_by("cp -P t dir", w, made=before).links == {f"{w}/t": "/tmp", f"{w}/dir/t": "/tmp"}
    before = MadeLinks()
    before.add(f"{w}/t", "/tmp")
    assert made_by("ln -sn /etc t", w, made=before).links == {f"{w}/t": "/tmp"}  # -n: t is a link (made): replaced; the first reading stays
    before = MadeLinks()
    before.add(f"{w}/t", "/tmp")
    assert made_by("ln -s /etc t", w, made=before).links == {f"{w}/t": "/tmp", "/tmp/etc": "/etc"}  # through t, a directory


def test_each_step_is_read_once(w: str) -> None:
    """Walked again (`rules.bash.analyse`), a step would find its own link and read its operand as a directory."""
    made = made_by("ln -s /tmp t", w)
    again = made_by("ln -s /tmp t", w, made=made)
    assert again.links == {f"{w}/t": "/tmp"} and len(again.steps) == 1
    assert made_by("ln -s /tmp u", w, made=made).links == {f"{w}/t": "/tmp", f"{w}/u": "/tmp"}


def test_a_plugin_that_takes_ln_out_of_the_write_table_makes_it_unknown(w: str) -> None:
    made = MadeLinks()
    node = parse("ln -s /tmp t").body[0]
    step = ShellCommand(node=node, words=node.words, assignments=[], cwd=w, state=ShellState(cwd=w), home="/h")
    with made_links(made):
        note_made_links(step, ProgramTables(writers={}, readers={}), made, [])
    assert not made


# -- reading paths through them (paths.real, PathPolicy.forms) -------------------------------------------------

def test_real_reads_a_made_link_as_one_on_disk(w: str) -> None:
    made = MadeLinks()
    made.add(f"{w}/t", "/tmp")
    made.add(f"{w}/rel", "dir")
    made.add(f"{w}/up", "..")
    assert real(f"{w}/t/x") == f"{w}/t/x"  # outside a walk: none
    with made_links(made):
        assert real(f"{w}/t/x") == "/tmp/x"
        assert real(f"{w}/t/../etc") == "/etc"
        assert real(f"{w}/rel/a") == f"{w}/dir/a"  # relative: from the link's directory
        assert real(f"{w}/up/x") == os.path.dirname(w) + "/x"
        assert real(f"{w}/t") == "/tmp"
        assert real(f"{w}/tt/x") == f"{w}/tt/x"
        with made_links_read_as("none"):
            assert real(f"{w}/t/../etc") == f"{w}/etc"
        assert paths.made_link_readings() == ("none",)
        with made_links_read_as("none"):
            assert paths.made_link_readings() == ()
    assert paths.made_link_readings() == ()
    assert paths.current_made_links() is None


def test_a_link_that_may_be_a_directory_has_both_readings(w: str) -> None:
    made = MadeLinks()
    made.add_either(f"{w}/d", "tmp", "/tmp")
    assert len(made) == 2
    with made_links(made):
        assert paths.made_link_readings() == ("link", "none")
        assert real(f"{w}/d/tmp/../x") == "/x"  # d a directory, d/tmp the link
        assert real(f"{w}/d/x") == f"{w}/d/x"
        with made_links_read_as("link"):
            assert real(f"{w}/d/tmp/../x") == "/tmp/x"  # d the link
            assert real(f"{w}/d/x") == "/tmp/x"
        with made_links_read_as("none"):
            assert real(f"{w}/d/tmp/../x") == f"{w}/d/x"
    made = MadeLinks()
    made.add(f"{w}/d", "/etc")
    made.add_either(f"{w}/d", "tmp", "/tmp")  # a link known for certain wins over either reading
    with made_links(made):
        assert real(f"{w}/d/x") == "/etc/x"
        with made_links_read_as("link"):
            assert real(f"{w}/d/x") == "/etc/x"


def test_forms_place_every_reading(w: str) -> None:
    """The worst reading of a path wins (PathPolicy.judge): through the link, the other reading of a link that may be
    a directory, and as if no link were made (the `ln` may fail: `false && ln -sfn /tmp lnk; echo x > lnk/f`)."""
    layout = Layout(worktree_root=w)
    policy = PathPolicy(layout, [], [], home="/h")
    made = MadeLinks()
    made.add(f"{w}/t", "/tmp")
    assert policy.forms("t/x", w) == [f"{w}/t/x"]
    with made_links(made):
        assert policy.forms("t/x", w) == ["/tmp/x", f"{w}/t/x"]
        assert policy.forms("t/../x", w) == ["/x", f"{w}/x"]
        assert policy.forms("dir/x", w) == [f"{w}/dir/x"]
    made = MadeLinks()
    made.add_either(f"{w}/d", "tmp", "/tmp")
    with made_links(made):
        assert policy.forms("d/tmp/../x", w) == ["/x", f"{w}/d/x", "/tmp/x"]
        assert policy.forms("d/tmp/x", w) == ["/tmp/x", "/tmp/tmp/x", f"{w}/d/tmp/x"]
