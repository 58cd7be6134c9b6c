"""The writes rule's edges from the mutation run of `rules/writes` (issue 13 phase 8), each pinned by exact codes.

Each test kills a mutant of `worktree_guard/rules/writes.py` that the other in-process tests let through (each
checked on its mutant). The rows run through the engine with the real repository of `tests/test_bash_rules.py`
(W a linked worktree inside the main checkout {MAIN}).
"""

from __future__ import annotations

import os

from tests.helpers import Repo
from tests.test_bash_rules import bash, world  # noqa: F401  (the fixture)

import pytest

from worktree_guard.model import Violation


def _record(finding: Violation, command: str) -> tuple:
    """Every field a finding carries but its message, with the span as the text it points at."""
    return (
        finding.code, finding.rule, finding.tool, finding.path, finding.resolved, finding.shared_root, finding.suggestion,
        finding.worktree_root, finding.severity, finding.span, command[finding.span[0]:finding.span[1]],
    )


def _filled(world: Repo, command: str) -> str:
    return command.replace("{MAIN}", str(world.main)).replace("{W}", str(world.worktree))


# --- judge_write: each place of §5.1, with every field of its finding ------------------------------------------


def test_a_redirection_into_each_place_gets_its_code_and_every_field(world: Repo) -> None:
    main, w = str(world.main), str(world.worktree)
    rows = [
        ("echo x > {MAIN}/a", ("WG401", f"{main}/a", f"{main}/a", main, f"{w}/a"),
         f"the redirection `>` writes {main}/a in the shared checkout {main}, not in this agent's worktree {w}."),
        ("echo x > /etc/a", ("WG402", "/etc/a", "/etc/a", None, None),
         f"the redirection `>` writes /etc/a, outside this agent's worktree {w} and the allow-list."),
        ("echo x > {W}/.git", ("WG103", f"{w}/.git", f"{w}/.git", None, None),
         f"the redirection `>` writes {w}/.git, which is protected inside this worktree."),
        ("echo x > $X", ("WG403", "$X", None, None, None),
         f"the redirection `>` writes '$X', which is only known at run time; use a literal path inside {w}."),
    ]
    for command, (code, path, resolved, shared_root, suggestion), message in rows:
        text = _filled(world, command)
        (finding,) = bash(world, command).violations
        assert _record(finding, text) == (code, "writes", "Bash", path, resolved, shared_root, suggestion, w, "error",
                                          (9, len(text)), text[9:]), command
        assert finding.message == message, command
    # must-pass neighbours: W itself and the allow-listed temp dir
    for command in ("echo x > src/a", "echo x > {W}/a", "echo x > /tmp/wg8-a"):
        assert bash(world, command).violations == [], command


def test_a_relative_write_after_an_unknown_cd_is_wg403_and_an_absolute_one_is_still_judged(world: Repo) -> None:
    w = str(world.worktree)
    command = "cd $X; echo x > a"
    cd, finding = bash(world, command).violations
    assert cd.code == "WG202"
    assert _record(finding, command) == ("WG403", "writes", "Bash", "a", None, None, None, w, "error", (16, 17), "a")
    assert finding.message == f"the redirection `>` writes the relative path 'a' after a directory change worktree-guard cannot follow; use an absolute path inside {w}."
    # an absolute path, or one from HOME, needs no cwd: judged as anywhere else
    assert [v.code for v in bash(world, "cd $X; echo x > /etc/a").violations] == ["WG202", "WG402"]
    assert [(v.code, v.resolved) for v in bash(world, "cd $X; echo x > ~/a").violations] == [("WG202", None), ("WG402", "/opt/wg-test-home/a")]
    assert [v.code for v in bash(world, "cd $X; echo x > /tmp/wg8-a").violations] == ["WG202"]


def test_a_path_known_only_at_run_time_in_a_shared_checkout_is_wg401_from_its_static_directory(world: Repo) -> None:
    main, w = str(world.main), str(world.worktree)
    for command, start in (("echo x > {MAIN}/$X/a", 9), ("cd $X; echo x > {MAIN}/$X/a", 16), ("cp a {MAIN}/src/$X", 5)):
        text = _filled(world, command)
        finding = bash(world, command).violations[-1]
        directory = f"{main}/src" if "src" in command else main
        assert _record(finding, text) == ("WG401", "writes", "Bash", text[start:], directory, main, directory.replace(main, w, 1),
                                          w, "error", (start, len(text)), text[start:]), command
        how = "`cp` (operand)" if command.startswith("cp") else "the redirection `>`"
        assert finding.message == (
            f"{how} writes {text[start:]!r}, which starts in {directory} in the shared checkout {main}, not in this agent's worktree {w}."
        ), command
    # a relative static directory is placed from the known cwd (W's `to-main` link leads into the main checkout)
    for command, directory in (("echo x > to-main/src/$X", f"{main}/src"), ("cp a ../../../$X", main)):
        (finding,) = bash(world, command).violations
        assert (finding.code, finding.resolved, finding.shared_root, finding.suggestion) == ("WG401", directory, main, directory.replace(main, w, 1)), command
    # a static directory in W or the temp dir says nothing about where the write lands: still WG403
    for command, written in (("echo x > src/$X/a", "src/$X/a"), ("echo x > /tmp/$X", "/tmp/$X"), ("cd $X; cp a src/$X", "src/$X")):
        finding = bash(world, command).violations[-1]
        assert (finding.code, finding.path, finding.resolved) == ("WG403", written, None), command
        assert finding.message == f"`cp` (operand) writes {written!r}, which is only known at run time; use a literal path inside {w}." if "cp" in command else (
            f"the redirection `>` writes {written!r}, which is only known at run time; use a literal path inside {w}."), command


def test_a_link_to_a_shared_file_says_that_writing_through_it_changes_the_shared_file(world: Repo) -> None:
    main, w = str(world.main), str(world.worktree)
    for command, how, start in (("ln -s {MAIN}/a b", "`ln` (a link to it)", 6), ("cp -l {MAIN}/a b", "`cp` (a link to it)", 6)):
        text = _filled(world, command)
        (finding,) = bash(world, command).violations
        assert _record(finding, text) == ("WG401", "writes", "Bash", f"{main}/a", f"{main}/a", main, f"{w}/a", w, "error", (start, start + len(main) + 2), f"{main}/a")
        assert finding.message == (
            f"{how} links to {main}/a in the shared checkout {main}, not in this agent's worktree {w}. Writing through the link would change the shared file."
        ), command
    (finding,) = bash(world, "ln -s /etc/passwd b").violations
    assert (finding.code, finding.message) == ("WG402", f"`ln` (a link to it) links to /etc/passwd, outside this agent's worktree {w} and the allow-list.")
    assert bash(world, "ln -s /tmp/wg8-x b").violations == []
    assert bash(world, "ln -s src/a b").violations == []


def test_a_recursive_write_above_a_shared_checkout_is_wg401_naming_it(world: Repo) -> None:
    main, w = str(world.main), str(world.worktree)
    above = os.path.dirname(main)
    for command, resolved, start in (("rm -rf {MAIN}/..", above, 7), ("rm -rf /tmp", "/tmp", 7), ("tar -xf /tmp/t.tar -C /tmp", "/tmp", 22)):
        text = _filled(world, command)
        (finding,) = bash(world, command).violations
        assert _record(finding, text) == ("WG401", "writes", "Bash", text[start:], resolved, main, None, w, "error", (start, len(text)), text[start:]), command
        how = "`tar` (extract into)" if command.startswith("tar") else "`rm` (operand)"
        assert finding.message == f"{how} reaches everything below {resolved}, which holds the shared checkout {main}.", command
    # nothing shared below: W, a directory in it, an empty corner of the temp dir
    for command in ("rm -r src", "rm -r {W}", "rm -r /tmp/wg8-nothing", "rm -rf {W}/src", "tar -xf /tmp/t.tar -C /tmp/wg8-nothing"):
        assert bash(world, command).violations == [], command
    # not recursive: the directory itself only
    assert bash(world, "rmdir /tmp").violations == []


# --- _operand: an unknown program's operand at the shared boundary (WG406) -------------------------------------


def test_an_unknown_programs_operand_in_a_shared_checkout_is_wg406_with_every_field(world: Repo) -> None:
    main, w = str(world.main), str(world.worktree)
    for command, start in (("frob {MAIN}/a", 5), ("cd $X; frob {MAIN}/a", 12)):
        text = _filled(world, command)
        finding = bash(world, command).violations[-1]
        assert _record(finding, text) == ("WG406", "writes", "Bash", f"{main}/a", f"{main}/a", main, f"{w}/a", w, "error", (start, len(text)), f"{main}/a"), command
        assert finding.message == (
            f"`frob`, a program worktree-guard does not know, is given {main}/a in the shared checkout {main}; it may write it, "
            f"so it counts as written. Work on the copy in {w}."
        ), command
    # the cwd itself as an operand, relative to a known cwd
    (cd, finding) = bash(world, "cd {MAIN} && frob .").violations
    assert (cd.code, finding.code, finding.path, finding.resolved, finding.suggestion) == ("WG201", "WG406", ".", main, w)
    # must-pass neighbours: outside the shared roots unknown programs pass; a relative operand after an unknown cd
    # is not static
    for command, codes in (("frob src", []), ("frob /etc/a", []), ("frob {W}/a", []), ("cd $X; frob a", ["WG202"]), ("cd $X; frob $Y", ["WG202"])):
        assert [v.code for v in bash(world, command).violations] == codes, command


def test_an_unknown_programs_descriptor_opened_on_a_path_is_wg406_with_every_field(world: Repo) -> None:
    """A descriptor the command opens on a path (`3<f`, `< f`) is that path, which may be in the shared checkout:
    an unknown program given it may write it (review 36d: `python3 run.py /dev/stdin < {MAIN}/f`), allowed or not
    (`/dev/stdin` is on no allow-list). A descriptor the command does not open on a path is no operand to judge."""
    w = str(world.worktree)
    for command, descriptor in (("frob /dev/fd/3 3<../../../README.md", "/dev/fd/3"), ("frob /dev/stdin < ../../../README.md", "/dev/stdin")):
        text = _filled(world, command)
        (finding,) = bash(world, command).violations
        assert _record(finding, text) == ("WG406", "writes", "Bash", descriptor, descriptor, None, None, w, "error",
                                          (5, 5 + len(descriptor)), descriptor), command
        assert finding.message == (
            f"`frob`, a program worktree-guard does not know, is given {descriptor}, a descriptor the command opens on a "
            f"path (`N<…`), which may be in the shared checkout; it may write it, so it counts as written. Name a path inside {w}."
        ), command
    # must-pass neighbours: a descriptor no `N<` opens, a descriptor other than the one opened
    for command in ("frob /dev/fd/3", "frob /dev/fd/4 3<../../../README.md", "frob /dev/stdout < ../../../README.md"):
        assert bash(world, command).violations == [], command


def test_an_unknown_programs_own_process_place_is_wg406_with_every_field(world: Repo) -> None:
    """A place reached through the process's own /proc directory is no place the guard can name and may be the shared
    checkout (review 37: `make -C /proc/self/cwd/../../..` ran in main), nor is a word only known at run time that may
    still become one (review 37b/37c: `/proc/$$/cwd`); a file of it (`/proc/self/status`) is no such place."""
    w = str(world.worktree)
    for command, given in (("frob /proc/self/cwd/../../../README.md", "/proc/self/cwd/../../../README.md"), ("frob /dev/fd/3/x 3<../../..", "/dev/fd/3/x")):
        text = _filled(world, command)
        (finding,) = bash(world, command).violations
        assert _record(finding, text) == ("WG406", "writes", "Bash", given, given, None, None, w, "error", (5, 5 + len(given)), given), command
        assert finding.message == (
            f"`frob`, a program worktree-guard does not know, is given {given}, a path through the process's own /proc "
            f"directory or a descriptor, which may be in the shared checkout; it may write it, so it counts as written. Name a path inside {w}."
        ), command
    for command, given in (("frob //proc/$$/cwd/x", "//proc/$$/cwd/x"), ('frob -C"/proc"/$$/cwd', '-C"/proc"/$$/cwd')):
        text = _filled(world, command)
        (finding,) = bash(world, command).violations
        assert _record(finding, text) == ("WG406", "writes", "Bash", given, None, None, None, w, "error", (5, 5 + len(given)), given), command
        assert finding.message == (
            f"`frob`, a program worktree-guard does not know, is given {given}, only known at run time and in /proc or /dev: "
            f"it may be the process's own /proc directory (`/proc/$$/cwd`), which may be the shared checkout; it may write it, "
            f"so it counts as written. Name a path inside {w}."
        ), command
    for command in ("frob /proc/self/status", "frob /proc/self/fd/2", "frob /tmp/$x", "frob /dev/null$X", "frob $X"):
        assert bash(world, command).violations == [], command


def test_an_unknown_programs_run_time_operand_starting_in_a_shared_checkout_is_wg406_with_every_field(world: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """A word only known at run time whose static directory is in the shared checkout starts there wherever it ends
    (stop 38: `python3 run.py ../../../README$NOPE.md` wrote main's README): WG406, resolved to that directory with
    its copy under W as the suggestion. A beginning elsewhere, unknown, or relative after an unknown cd passes."""
    main, w = str(world.main), str(world.worktree)
    for command, given, start, directory in (
        ("frob ../../../README$X.md", "../../../README$X.md", 5, main),
        ("cd $X; frob {MAIN}/src/$F", "{MAIN}/src/$F", 12, f"{main}/src"),
        ("frob --out=../../../$F", "--out=../../../$F", 5, main),
    ):
        text, given = _filled(world, command), _filled(world, given)
        finding = bash(world, command).violations[-1]
        suggestion = w + directory[len(main):]
        assert _record(finding, text) == ("WG406", "writes", "Bash", given, directory, main, suggestion, w, "error", (start, len(text)), given), command
        assert finding.message == (
            f"`frob`, a program worktree-guard does not know, is given {given}, only known at run time, which starts in "
            f"{directory} in the shared checkout {main}; it may write there, so it counts as written. Work on the copy in {w}."
        ), command
    monkeypatch.setenv("HOME", str(world.base))
    assert [(v.code, v.resolved) for v in bash(world, f"frob ~/{world.main.name}/$F").violations] == [("WG406", main)]
    for command, codes in (("frob src/$F", []), ("frob $F", []), ("frob /etc/$F", []), ("frob {W}/$F", []),
                           ("cd $X; frob ../../../$F", ["WG202"]), ("frob ../$F", ["WG406"]), ("cd src && frob ../$F", [])):
        assert [v.code for v in bash(world, command).violations] == codes, command


def test_a_write_to_a_descriptor_opened_on_a_path_is_wg403_and_a_links_target_is_no_descriptor(world: Repo) -> None:
    """`cp f /dev/fd/3 3<../../..` writes the path fd 3 is opened on (review 36b): WG403, although /dev/fd/* is on
    the allow-list. A link's target is judged as a place reached through the link (`directory`), which a descriptor
    is not: `ln -s /dev/fd/3 l` is WG402 (stop 36), where the same descriptor written is allowed."""
    w = str(world.worktree)
    command = "cp f /dev/fd/3 3<../../.."
    (finding,) = bash(world, command).violations
    assert _record(finding, command) == ("WG403", "writes", "Bash", "/dev/fd/3", "/dev/fd/3", None, None, w, "error", (5, 14), "/dev/fd/3")
    assert finding.message == (
        f"`cp` (operand) writes /dev/fd/3, a descriptor the command opens on a path (`N<…`): that path is written, which "
        f"worktree-guard does not follow; name the path itself, inside {w}."
    )
    command = "ln -s /dev/fd/3 l"
    (finding,) = bash(world, command).violations
    assert _record(finding, command) == ("WG402", "writes", "Bash", "/dev/fd/3", "/dev/fd/3", None, None, w, "error", (6, 15), "/dev/fd/3")
    assert finding.message == f"`ln` (a link to it) links to /dev/fd/3, outside this agent's worktree {w} and the allow-list."
    assert [v.code for v in bash(world, "ln -s /dev/fd/3 l 3<src").violations] == ["WG402"]  # outside: not WG403
    # must-pass neighbours: a descriptor written that no `N<` opens, or another one than the opened
    for command in ("echo x > /dev/fd/3", "cp f /dev/fd/3", "cp f /dev/fd/4 3<../../..", "echo x > /dev/stdout"):
        assert bash(world, command).violations == [], command


def test_a_relative_operand_after_an_unknown_cd_is_not_placed_from_the_root(world: Repo) -> None:
    """`cd $X; frob tmp/…/repo/a` names the main checkout only if $X is `/`: not static, so no WG406 (read from
    `/`, the relative path would land in the main checkout)."""
    relative = str(world.main).lstrip("/")
    assert [v.code for v in bash(world, f"cd $X; frob {relative}/a").violations] == ["WG202"]
    assert [v.code for v in bash(world, f"cd / && frob {relative}/a").violations] == ["WG201", "WG406"]


def test_an_operand_from_home_after_an_unknown_cd_is_still_static(world: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """`~/a` needs no cwd: with HOME the main checkout, it names the shared `a` whatever the cd did."""
    main = str(world.main)
    monkeypatch.setenv("HOME", main)
    got = [(v.code, v.resolved) for v in bash(world, "cd $X; frob ~/a").violations]
    assert got == [("WG202", None), ("WG406", f"{main}/a")]
    assert [v.code for v in bash(world, "cd $X; frob a").violations] == ["WG202"]


# --- judge: the current directory as the target, links below it, `.git` entries, the state --------------------


def test_an_extraction_into_the_current_directory_is_judged_there_with_no_word_to_point_at(world: Repo) -> None:
    main, w = str(world.main), str(world.worktree)
    cd, finding = bash(world, "cd {MAIN} && tar -xf /tmp/t.tar").violations
    assert cd.code == "WG201"
    assert (finding.code, finding.rule, finding.path, finding.resolved, finding.shared_root, finding.suggestion, finding.span) == (
        "WG401", "writes", ".", main, main, w, (0, 0))
    assert finding.message == (
        f"`tar` writing extract into the current directory writes {main} in the shared checkout {main}, not in this agent's worktree {w}."
    )
    cd, finding = bash(world, "cd $X; tar -xf /tmp/t.tar").violations
    assert (cd.code, finding.code, finding.path, finding.span) == ("WG202", "WG403", ".", (0, 0))
    assert finding.message == f"`tar` writing extract into the current directory writes '.', which is only known at run time; use a literal path inside {w}."
    # into a directory of W without links out of it: passes
    assert bash(world, "cd src && tar -xf /tmp/t.tar").violations == []
    assert bash(world, "cd /tmp && tar -xf /tmp/t.tar -C /tmp/wg8-nothing").violations == []


def test_an_extraction_into_the_current_directory_with_a_link_out_of_w_points_at_nothing(world: Repo) -> None:
    """W's top holds the fixture's `to-ssl` and `to-main` links: a member `to-ssl/x` lands in /etc/ssl."""
    w = str(world.worktree)
    (finding,) = bash(world, "tar -xf /tmp/t.tar").violations
    assert _record(finding, "") == ("WG403", "writes", "Bash", ".", None, None, None, w, "error", (0, 0), "")
    assert finding.message.startswith(f"`tar` writing extract into the current directory writes below {w}, which holds the symlink {w}/to-")
    # a relative directory after an unknown cd cannot be looked into: WG403 for the path, not for links
    cd, finding = bash(world, "cd $X; tar -xf /tmp/t.tar -C src").violations
    assert (cd.code, finding.code, finding.path) == ("WG202", "WG403", "src")
    assert finding.message == f"`tar` (extract into) writes the relative path 'src' after a directory change worktree-guard cannot follow; use an absolute path inside {w}."


def test_an_extraction_into_an_absolute_directory_after_an_unknown_cd_is_looked_into(world: Repo) -> None:
    src, w = world.worktree / "src", str(world.worktree)
    (src / "up").symlink_to(world.main)
    cd, finding = bash(world, "cd $X; tar -xf /tmp/t.tar -C {W}/src").violations
    assert (cd.code, finding.code, finding.rule) == ("WG202", "WG403", "writes")
    assert finding.message.startswith(f"`tar` (extract into) writes below {src}, which holds the symlink {src}/up, which leads out of {w}: ")
    (src / "up").unlink()
    assert [v.code for v in bash(world, "cd $X; tar -xf /tmp/t.tar -C {W}/src").violations] == ["WG202"]


def test_a_git_entry_is_wg403_only_where_nothing_else_refuses_it(world: Repo) -> None:
    main = str(world.main)
    (finding,) = bash(world, "echo x > {MAIN}/.git").violations
    assert (finding.code, finding.shared_root) == ("WG401", f"{main}/.git")
    for command, path in (("echo x > /tmp/wg8/.git/", "/tmp/wg8/.git/"), ("cd /tmp && echo x > .git", ".git"), ("ln /tmp/wg8-a /tmp/wg8/.git", "/tmp/wg8/.git")):
        (finding,) = bash(world, command).violations
        assert (finding.code, finding.path) == ("WG403", path), command
    # a link to a `.git` entry: a write through the link writes the entry
    (finding,) = bash(world, "ln -s /tmp/wg8/.git /tmp/wg8/l").violations
    assert (finding.code, finding.path, finding.span) == ("WG403", "/tmp/wg8/.git", (6, 19))
    assert finding.message == (
        "`ln` (a link to it) links to '/tmp/wg8/.git': a `.git` entry tells git which repository and checkout a directory belongs to, "
        "and one written here can send a later git to a shared checkout (`gitdir: <main>/.git`). Leave .git entries to git itself."
    )
    # extracting into a `.git` directory writes entries of it; no word names it
    (finding,) = bash(world, "cd /tmp/wg8/.git && tar -xf /tmp/t.tar").violations
    assert (finding.code, finding.path, finding.span) == ("WG403", ".", (0, 0))
    assert finding.message.startswith("`tar` writing extract into the current directory writes '.': a `.git` entry tells git")
    assert bash(world, "cd /tmp/wg8 && tar -xf /tmp/t.tar").violations == []
    # names that only contain `.git`
    for command in ("echo x > /tmp/wg8/.gitignore", "echo x > /tmp/wg8/x.git", "echo x > /tmp/.git-x", "ln -s /tmp/wg8/a /tmp/wg8/.gitx",
                    "echo x > /tmp/wg8/.gitX"):
        assert bash(world, command).violations == [], command


def test_what_a_command_writes_is_remembered_for_the_programs_that_read_files_later(world: Repo) -> None:
    """A sed script written earlier in the command cannot be read at check time (WG404); one it did not write is
    read as it is now; a write only known at run time may be any file."""
    wrote = "echo 's/a/b/w /etc/x' > /tmp/wg8.sed; sed -f /tmp/wg8.sed f"
    assert [(v.code, v.rule) for v in bash(world, wrote).violations] == [("WG404", "program-code")]
    assert bash(world, "sed -f /tmp/wg8-none.sed f").violations == []
    # a program's write is remembered as a redirection's is
    assert [(v.code, v.rule) for v in bash(world, "cp /tmp/wg8-x /tmp/wg8.sed; sed -f /tmp/wg8.sed f").violations] == [("WG404", "program-code")]
    assert bash(world, "cp /tmp/wg8-x /tmp/wg8-other.sed; sed -f /tmp/wg8.sed f").violations == []
    assert [(v.code, v.rule) for v in bash(world, "echo x > $X; sed -f /tmp/wg8-none.sed f").violations] == [("WG403", "writes"), ("WG404", "program-code")]
    assert [(v.code, v.rule) for v in bash(world, "cd src && echo x > s.sed; sed -f s.sed f").violations] == [("WG404", "program-code")]
    assert bash(world, "cd src && echo x > t.sed; sed -f s.sed f").violations == []


def test_a_write_into_a_git_dir_relative_to_a_known_cwd_is_remembered_where_it_lands(world: Repo) -> None:
    w = str(world.worktree)
    command = "cd src && mkdir -p d/.git && echo x > d/.git/config; git -C d status"
    got = [(v.code, v.rule, v.resolved) for v in bash(world, command).violations]
    assert got == [("WG103", "writes", f"{w}/src/d/.git"), ("WG103", "writes", f"{w}/src/d/.git/config"), ("WG404", "git", None)]
    # the same git without the write: nothing to refuse
    assert bash(world, "cd src && git -C d status").violations == []


# --- judge_write's defaults, as the apply_patch program's rule calls it ------------------------------------------


def _patch(line: str, quote: str = "'") -> str:
    return f"apply_patch <<{quote}EOF{quote}\n*** Begin Patch\n{line}\n*** End Patch\nEOF"


def test_a_patch_program_gets_judge_writes_defaults_a_plain_write_of_one_path(world: Repo) -> None:
    main, w = str(world.main), str(world.worktree)
    (finding,) = bash(world, _patch("*** Add File: {MAIN}/a\n+x")).violations
    assert (finding.code, finding.rule, finding.path, finding.resolved, finding.shared_root, finding.suggestion) == (
        "WG401", "apply-patch", f"{main}/a", f"{main}/a", main, f"{w}/a")
    assert finding.message == f"`apply_patch` (write) writes {main}/a in the shared checkout {main}, not in this agent's worktree {w}."
    # not recursive: deleting a file named like a directory above the main checkout reaches nothing below it
    assert bash(world, _patch("*** Delete File: {MAIN}/..")).violations == []
    assert bash(world, _patch("*** Add File: /tmp/wg8-a\n+x")).violations == []
    # no static prefix is looked at: a path only known at run time is WG403 even below the main checkout
    (finding,) = bash(world, _patch("*** Add File: {MAIN}/$X/a\n+x", quote="")).violations
    assert (finding.code, finding.rule, finding.path, finding.resolved) == ("WG403", "apply-patch", f"{main}/$X/a", None)
    assert finding.message == f"`apply_patch` (write) writes '{main}/$X/a', which is only known at run time; use a literal path inside {w}."


# --- the hook process's own cwd never matters ------------------------------------------------------------------


def test_a_tilde_word_no_user_has_is_judged_the_same_whatever_the_hook_process_cwd(world: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """`~nosuchuser/a` is not expanded (no such user): after a cd the guard cannot follow, where it lands is not
    known, and the hook process's own cwd (the main checkout here) must not stand in for it.

    The write is refused either way. Bash keeps the word as a relative path, so WG403 is the SPEC's code; the
    guard says WG402 today (it places the word from `/`; reported, not changed), so only the decision and the
    sameness are pinned here. An unknown program's relative operand after such a cd is not static: no WG406."""
    verdicts = {}
    for where in (world.main, "/"):
        monkeypatch.chdir(where)
        write = bash(world, "cd $X; echo x > ~nosuchuser/a")
        assert (write.decision, write.codes[0], len(write.codes)) == ("deny", "WG202", 2), where
        verdicts[str(where)] = [(v.code, v.resolved, v.shared_root) for v in write.violations]
        assert [v.code for v in bash(world, "cd $X; frob ~nosuchuser/a").violations] == ["WG202"], where
    assert verdicts[str(world.main)] == verdicts["/"]


# phase 26 (m41d): _operand's `record.unplaced` branch (a run-time operand the guard reads no place for)


def test_an_unknown_programs_operand_with_more_parts_than_are_read_is_wg406_naming_why_with_every_field(world: Repo) -> None:
    """A word of more than MAX_WORD_PARTS parts (`a=a=…b`) is not all read (shell/written's `unplaced` record): one of
    its parts may be a path into the shared checkout, which the guard cannot name. The finding's message says why
    (the record's `unplaced` text), and every field is the word's."""
    from worktree_guard.shell.written import MAX_WORD_PARTS

    w = str(world.worktree)
    word = "a=" * (MAX_WORD_PARTS + 1) + "b"
    command = f"frob {word}"
    (finding,) = bash(world, command).violations
    assert _record(finding, command) == ("WG406", "writes", "Bash", word, None, None, None, w, "error", (5, len(command)), word)
    assert finding.message == (
        f"`frob`, a program worktree-guard does not know, is given {word}, only known at run time: a word of more than "
        f"{MAX_WORD_PARTS} parts (values between `=`, `:` and `,`, or flags before an attached value), which are not all "
        f"read, and may be one into the shared checkout; it may write it, so it counts as written. Name a path inside {w}."
    )
    # must-pass neighbour: as many parts as are read (the bound itself), none of them in the shared checkout
    assert bash(world, "frob " + "a=" * MAX_WORD_PARTS + "b").violations == []
