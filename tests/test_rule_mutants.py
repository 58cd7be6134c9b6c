"""The shell rules' edges from the mutation run of `rules/` (issue 13 phase 5), each pinned by exact codes.

The cd, interpreters and program_code tests kill mutants that every other in-process test let through (each
checked on its mutant); the bash, writes, git and indirection ones were written from reading those modules
before their runs, which phase 5 did not reach. The rows run through the engine with the real repository of
`tests/test_bash_rules.py` (W a linked worktree inside the main checkout {MAIN}).
"""

from __future__ import annotations

import os

import pytest

from tests.helpers import Repo
from tests.test_bash_rules import OUTSIDE_HOME, bash, world  # noqa: F401  (the fixture)


def test_a_cd_out_of_w_is_wg201_and_one_inside_passes(world: Repo) -> None:
    verdict = bash(world, "cd /etc")
    assert (verdict.decision, set(verdict.codes)) == ("deny", {"WG201"})
    assert bash(world, "cd src").decision == "pass"


def test_a_cd_whose_logical_place_is_the_main_checkout_is_refused_though_its_physical_one_is_w(world: Repo) -> None:
    """Bash's cd is logical: `cd {MAIN}/to-w/..` ends in {MAIN} although the link leads into W."""
    (world.main / "to-w").symlink_to(world.worktree / "src")
    (finding,) = bash(world, "cd {MAIN}/to-w/..").violations
    assert (finding.code, finding.resolved, finding.shared_root, finding.suggestion) == ("WG201", str(world.main), str(world.main), f"cd {world.worktree}")


def test_a_cd_into_the_main_checkouts_git_directory_has_no_suggestion(world: Repo) -> None:
    """The repository every worktree shares is a shared root of its own, and W has no counterpart to suggest."""
    main = str(world.main)
    (finding,) = bash(world, "cd {MAIN}/.git").violations
    assert (finding.code, finding.resolved, finding.shared_root, finding.suggestion) == ("WG201", f"{main}/.git", f"{main}/.git", None)


# --- rules/interpreters.py ------------------------------------------------------------------------------------


VERBOSE_ROWS = [
    # python's -v is --verbose, not --version: `python3 -v` with no script runs what its input holds
    # (`echo 'print(1)' | python3 -v` prints 1), so it is inline code like a bare `python3`.
    ("python3 -v", {"WG405"}),
    ("pypy3 -v", {"WG405"}),
    ("python3 -v script.py", "pass"),
    ("python3 -V", "pass"),
    ("python3 -m", "pass"),  # python refuses a -m without a module and runs nothing
    # for the others -v prints the version and exits
    ("node -v", "pass"),
    ("perl -v", "pass"),
    # a short option glued to its code is inline code, whatever follows it (without the glue test the words
    # would read as an option and a script: `python3 -X dev x.py`)
    ("python3 '-cprint(1)' x.py", {"WG405"}),
    ("perl -e'print 1' x.pl", {"WG405"}),
]


@pytest.mark.parametrize(("command", "expected"), VERBOSE_ROWS)
def test_a_version_or_verbose_option_in_the_strict_profile(world: Repo, command: str, expected: object) -> None:
    verdict = bash(world, command, profile="strict")
    assert (verdict.decision, set(verdict.codes)) == (("pass", set()) if expected == "pass" else ("deny", expected)), command



def test_the_inline_code_finding_points_at_its_command(world: Repo) -> None:
    command = "cd src && python3 -c 'print(1)'"
    (finding,) = bash(world, command, profile="strict").violations
    assert (finding.code, finding.span) == ("WG405", (10, len(command)))
    (glued,) = bash(world, "python3 '-cprint(1)'", profile="strict").violations
    assert glued.message.startswith("`python3` runs inline code worktree-guard cannot check"), glued.message


# --- rules/program_code.py ------------------------------------------------------------------------------------

PROGRAM_CODE_ROWS = [
    # fd's --base-directory moves the directory its -x argv runs in: a relative path there is not known
    ("fd -x sh -c 'touch a'", "pass"),
    ("fd --base-directory /etc -x sh -c 'touch a'", {"WG403"}),
    ("fd --base-directory=/tmp/a=b -x sh -c 'touch a'", {"WG403"}),
]


@pytest.mark.parametrize(("command", "expected"), PROGRAM_CODE_ROWS)
def test_code_a_program_runs(world: Repo, command: str, expected: object) -> None:
    verdict = bash(world, command)
    assert (verdict.decision, set(verdict.codes)) == (("pass", set()) if expected == "pass" else ("deny", expected)), command


# --- rules/bash.py --------------------------------------------------------------------------------------------


def shell_started_in(repo: Repo, start: str, command: str):
    """A shell call that names its own start directory (Codex's workdir), relative to the agent's cwd W."""
    from tests.helpers import subagent_payload
    from tests.test_bash_rules import PM
    from worktree_guard.engine import build_context, decide
    from worktree_guard.runtimes.claude_code import to_tool_call

    call = to_tool_call(subagent_payload(repo, "Bash", {"command": command, "description": "t"})).model_copy(update={"shell_cwd": start})
    return decide(call, build_context(call, pm=PM))


def test_a_command_is_walked_from_the_directory_its_call_names_in_each_reading(world: Repo) -> None:
    """`to-ssl/..` is W for the shell's logical `..` and /etc for the kernel's: the command is walked from both."""
    main = str(world.main)
    assert shell_started_in(world, "src", "touch a").violations == []
    got = shell_started_in(world, "to-ssl/..", "touch a").violations
    assert [(v.code, v.rule, v.resolved) for v in got] == [("WG402", "writes", "/etc/a"), ("WG201", "cd", "/etc")]
    got = shell_started_in(world, "../../..", "touch a").violations  # W's third parent: the main checkout
    assert [(v.code, v.rule, v.resolved) for v in got] == [("WG401", "writes", f"{main}/a"), ("WG201", "cd", main)]
    got = shell_started_in(world, "to-ssl/..", "touch /etc/x").violations  # the same write from both readings: once
    assert [(v.code, v.rule, v.resolved) for v in got] == [("WG402", "writes", "/etc/x"), ("WG201", "cd", "/etc")]


def test_a_start_directory_that_is_a_descriptor_is_no_place_the_guard_can_name(world: Repo) -> None:
    """rules/cd's `directory=True` (review 36): `/dev/fd/3` is on the allow-list as a file to write, but as the directory
    a shell call starts in it is whatever the command opened as fd 3 (`3<../../..`: the main checkout): outside."""
    for start in ("/dev/fd/3", "/dev/stdin", "/proc/self/fd/3"):
        got = shell_started_in(world, start, "make -s").violations
        assert [(v.code, v.rule, v.resolved) for v in got if v.rule == "cd"] == [("WG201", "cd", start)], start
    assert [v.rule for v in shell_started_in(world, "src", "make -s").violations] == []


def test_the_second_reading_of_a_start_directory_is_walked_from_its_own_place(world: Repo) -> None:
    """`up/../../..` with up → W/src/a/b/c: the kernel's reading stays in W (W/src), the textual one is two levels
    above W, in the main checkout: the walk from the second reading starts there, not again from the first."""
    deep = world.worktree / "src" / "a" / "b" / "c"
    deep.mkdir(parents=True)
    (world.worktree / "up").symlink_to(deep)
    above = os.path.dirname(os.path.dirname(str(world.worktree)))
    got = shell_started_in(world, "up/../../..", "touch a").violations
    assert [(v.code, v.rule, v.resolved) for v in got] == [("WG401", "writes", f"{above}/a"), ("WG201", "cd", above)]


def test_an_unparseable_command_is_wg900_over_its_whole_text(world: Repo) -> None:
    command = "echo 'unterminated"
    (finding,) = bash(world, command).violations
    assert (finding.code, finding.rule, finding.span, finding.severity) == ("WG900", "bash", (0, len(command)), "error")


def test_an_unparseable_command_is_a_warning_with_on_parse_error_warn(world: Repo) -> None:
    """Phase 20: `on_parse_failure`'s severity (now `_parse_error_severity`, shared with PowerShell) had no test."""
    command = "echo 'unterminated"
    verdict = bash(world, command, on_parse_error="warn")
    assert verdict.decision == "warn"
    assert [(v.code, v.rule, v.span, v.severity) for v in verdict.violations] == [("WG900", "bash", (0, len(command)), "warning")]


def test_the_initial_state_without_a_start_is_the_calls_start_directory(world: Repo) -> None:
    """Phase 20: `analyse` without `start` (the wave's walk of a worker's command, `explain`) starts where the call does."""
    from tests.helpers import subagent_payload
    from tests.test_bash_rules import PM
    from worktree_guard.engine import build_context
    from worktree_guard.rules.bash import initial_state
    from worktree_guard.runtimes.claude_code import to_tool_call

    call = to_tool_call(subagent_payload(world, "Bash", {"command": "ls", "description": "t"}))
    state = initial_state(build_context(call, pm=PM))
    assert state.cwd == str(world.worktree) and state.variables["PWD"] == str(world.worktree)
    assert state.variables["HOME"] == OUTSIDE_HOME and "TMPDIR" in state.unset


def test_home_is_known_to_the_shell_as_the_hook_knows_it(world: Repo) -> None:
    """$HOME is the agent's home from the first word (a write there is outside the allow-list, not unknown)."""
    (finding,) = bash(world, 'echo x > "$HOME/notes.txt"').violations
    assert (finding.code, finding.path, finding.resolved) == ("WG402", '"$HOME/notes.txt"', f"{OUTSIDE_HOME}/notes.txt")
    assert bash(world, 'case "${HOME+set}" in set) ;; *) rm -rf /tmp/x ;; esac').decision == "pass"


def test_an_empty_cdpath_in_the_hook_environment_changes_nothing(world: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """CDPATH set but empty: bash searches no directory, so `cd src` is W/src (a value of CDPATH, not its mere
    presence, makes a bare name dynamic)."""
    monkeypatch.setenv("CDPATH", "")
    assert bash(world, "cd src && touch x").decision == "pass"


def test_a_command_over_the_walks_budget_is_wg901_over_its_whole_text(world: Repo) -> None:
    """The walk's own budget (here the depth of function calls), not the parser's: the finding covers the command."""
    command = "f() { f; }; f"
    (finding,) = bash(world, command).violations
    assert (finding.code, finding.rule, finding.span, finding.severity) == ("WG901", "bash", (0, len(command)), "error")
    assert finding.message.startswith("The command is over worktree-guard's budget (functions call each other deeper than")
    assert finding.message.endswith("); split it into smaller commands.")


def powershell_call(repo: Repo, tool_input: dict, **flags):
    from tests.helpers import subagent_payload
    from tests.test_bash_rules import PM
    from worktree_guard.engine import build_context, decide
    from worktree_guard.runtimes.claude_code import to_tool_call

    call = to_tool_call(subagent_payload(repo, "PowerShell", tool_input))
    assert call.kind == "powershell"
    return decide(call, build_context(call, flags=flags or None, pm=PM))


POWERSHELL_MESSAGE = "worktree-guard cannot read PowerShell, so it cannot tell what this command writes; run it with the Bash tool instead."


def test_a_powershell_command_is_wg900_over_its_whole_text_with_the_parse_error_severity(world: Repo) -> None:
    """Phase 20: `unreadable_powershell` (new since phase 7) had no test of its span, severity or message."""
    got = powershell_call(world, {"command": "Get-ChildItem"}).violations
    assert [(v.code, v.rule, v.span, v.severity, v.message) for v in got] == [("WG900", "bash", (0, 13), "error", POWERSHELL_MESSAGE)]
    assert got[0].tool == "PowerShell" and got[0].worktree_root == str(world.worktree)
    verdict = powershell_call(world, {"command": "Get-ChildItem"}, on_parse_error="warn")
    assert verdict.decision == "warn"
    assert [(v.code, v.span, v.severity) for v in verdict.violations] == [("WG900", (0, 13), "warning")]
    got = powershell_call(world, {"description": "no command"}).violations
    assert [(v.code, v.span, v.severity) for v in got] == [("WG900", None, "error")]


@pytest.mark.parametrize(("command", "name", "span"), [
    ("BASH_CMDS[ls]=/bin/rm ls", "BASH_CMDS", (0, 14)),
    ("(( BASH_ALIASES [a] += 1 ))", "BASH_ALIASES", (3, 22)),  # spaces, +=, in arithmetic
    ("declare BASH_\\CMDS[ls]=x", "BASH_CMDS", (8, 22)),  # read without the escape: the span is in that text
    ("typeset 'BASH_'CMDS[ls]=/bin/rm", "BASH_CMDS", (8, 22)),  # read without quotes
    ('typeset "BASH_"CMDS[ls]=/bin/rm', "BASH_CMDS", (8, 22)),
    ("BASH_CMDS=([ls]=/bin/rm)", "BASH_CMDS", (0, 10)),  # the whole table
    ("BASH_ALIASES+=([ls]=x)", "BASH_ALIASES", (0, 14)),
])
def test_an_assignment_to_a_name_table_anywhere_is_wg404_naming_the_table(world: Repo, command: str, name: str, span: tuple) -> None:
    """Phase 20: NAME_TABLE_ELEMENT (review 29c) was pinned by codes only; here its finding, as the rule bash gives it."""
    got = [v for v in bash(world, command).violations if v.rule == "bash"]
    message = f"The command assigns {name}, which defines what a command name runs; worktree-guard does not follow it; run the command directly."
    assert [(v.code, v.span, v.message) for v in got] == [("WG404", span, message)]


def test_code_bash_evaluates_from_a_value_only_known_at_run_time_is_wg404_with_its_reason(world: Repo) -> None:
    """Phase 20: `on_unknown_code` (new since phase 7): the walker's `Evaluated` with no script, its reason and span."""
    got = bash(world, 'echo "${X@P}"').violations
    reason = "`${X@P}` expands a value only known at run time as a prompt string, which runs the command substitutions in it"
    assert [(v.code, v.rule, v.span, v.message) for v in got] == [("WG404", "bash", (5, 13), f"{reason}; worktree-guard cannot see what that code does.")]


@pytest.mark.parametrize(("command", "step", "program"), [
    ("ln -s src a; touch b; mv -bT -S .[o] b a", "mv -bT -S .[o] b a", "mv"),
    ('ln -s /tmp/wg-x a; touch b; mv -bT -S "$(echo .o)" b a', 'mv -bT -S "$(echo .o)" b a', "mv"),
    ("ln -s src a; ln -sfb -S .[o] src/x a", "ln -sfb -S .[o] src/x a", "ln"),
])
def test_a_link_the_command_makes_that_cannot_be_placed_is_wg403_on_its_step(world: Repo, command: str, step: str, program: str) -> None:
    """Phase 26 (m41d): `analyse`'s WG403 for a step whose links shell/links cannot place (`note_made_links`: here the
    backup of a made link under a suffix only known at run time, review 39c F4) was pinned only by test_bash_rules'
    STOP_39 rows, by code. Here its every field; the link may lead anywhere, W included: its backup's name is unknown."""
    got = bash(world, command).violations
    start = command.index(step)
    message = (f"`{program}` keeps a backup of the link {world.worktree}/a under a suffix only known at run time; name the link "
               "and the directory it goes in.")
    assert [(v.code, v.rule, v.tool, v.severity, v.worktree_root, v.span, v.path, v.resolved, v.message) for v in got] == [
        ("WG403", "bash", "Bash", "error", str(world.worktree), (start, start + len(step)), None, None, message)], command


def test_a_backup_under_an_unknown_suffix_of_no_made_link_passes(world: Repo) -> None:
    """The must-pass neighbour: nothing the command made is backed up (src/a is no link), so nothing is unplaced."""
    assert bash(world, "touch b; mv -bT -S .[o] b src/a").violations == []
    assert bash(world, "ln -s src a; touch b; mv -bT -S .o b a").violations == []


def _link_chain(links: int) -> str:
    """`ln -s l3 a/b/c/d; ln -s l2 a/b/c; ln -s l1 a/b; ln -s src a` (4 links): each link is made through the one the
    step after it makes, so each walk of the command places one more of them (the first walk places `a` only) and
    the walk after the last one finds nothing new: `links` + 1 walks."""
    names = "abcdefgh"[:links]
    return "; ".join(f"ln -s l{i} {'/'.join(names[:i + 1])}" if i else "ln -s src a" for i in range(links - 1, -1, -1))


def _only_wg901_over_the_whole_command(world: Repo, command: str, message: str) -> None:
    """The call's one violation: WG901 from the bash rule over the whole command, with `message`."""
    got = bash(world, command).violations
    assert [(v.code, v.rule, v.tool, v.severity, v.worktree_root, v.span, v.message) for v in got] == [
        ("WG901", "bash", "Bash", "error", str(world.worktree), (0, len(command)), message)], command


def test_links_made_through_links_made_later_are_walked_again_up_to_made_link_walks_then_wg901(world: Repo) -> None:
    """Phase 26 (m41d): `analyse` walks a command that makes links again while a walk finds a new one, MADE_LINK_WALKS
    walks at most. A chain that needs exactly that many (the last one finds nothing new) passes; one link more is
    WG901 over the whole command (before only test_bash_rules' slow STOP_39 rows made links, none this deep)."""
    from worktree_guard.rules.bash import MADE_LINK_WALKS

    assert MADE_LINK_WALKS == 4
    assert bash(world, _link_chain(MADE_LINK_WALKS - 1)).violations == []  # a/b/c placed at the 3rd walk; the 4th finds nothing new
    command = _link_chain(MADE_LINK_WALKS)
    assert command == "ln -s l3 a/b/c/d; ln -s l2 a/b/c; ln -s l1 a/b; ln -s src a"
    _only_wg901_over_the_whole_command(world, command, "The command makes symlinks through symlinks it made before, over 4 "
                                       "levels deep; split it into smaller commands.")


def test_a_write_through_a_link_made_after_it_is_found_by_the_second_walk_after_the_first_walks_findings(world: Repo) -> None:
    """Phase 26 (m41d): the first walk's findings stay, the next walk's come after them (`walker.findings[:0] =
    before`): `t` is made after the write through it (`../../../..` from W is the directory above the main checkout),
    so only the second walk finds that the write lands in main's README."""
    main = str(world.main)
    command = "echo pwned >> t/repo/README.md; echo x > /etc/a; ln -s ../../../.. t"
    got = bash(world, command).violations
    assert [(v.code, v.rule, v.span, v.resolved) for v in got] == [
        ("WG402", "writes", (41, 47), "/etc/a"), ("WG401", "writes", (14, 30), f"{main}/README.md")], command


def test_a_command_linking_the_same_places_in_more_ways_than_are_read_is_wg901(world: Repo) -> None:
    """Phase 26 (m41d): seven places each linked twice are 2**7 readings, over MAX_MADE_READINGS (64): WG901 over the
    whole command; six (64 readings) are read."""
    from worktree_guard.paths import MAX_MADE_READINGS

    assert MAX_MADE_READINGS == 64
    twice = [f"ln -sfn /tmp/wg-x p{i}; ln -sfn /tmp/wg-y p{i}" for i in range(7)]
    assert bash(world, "; ".join(twice[:6])).violations == []
    command = "; ".join(twice)
    _only_wg901_over_the_whole_command(world, command, "The command links the same places again and again, more ways together "
                                       "than worktree-guard follows (64); split it into smaller commands.")


def test_a_command_over_the_parse_budget_is_wg901_over_its_whole_text(world: Repo) -> None:
    """Phase 26 (m41d): `on_parse_failure`'s budget branch (a ParseFailure with `budget`: the parser's size limit),
    every field; one byte less is parsed."""
    command = "echo " + "a" * (64 * 1024 - 4)
    _only_wg901_over_the_whole_command(world, command, "The command is over worktree-guard's budget (command is over the parse "
                                       "budget of 65536 bytes); split it into smaller commands.")
    assert bash(world, command[:-1]).violations == []


@pytest.mark.parametrize(("command", "span"), [
    ("cp f /dev/fd/3 3<../../..", (5, 14)),  # the descriptor the command opens, in the context the writes rule reads
    ('exec 3<../../..; eval "exec "4"<&3"; cp f /dev/fd/4', (42, 51)),  # the copy in eval's string of one opened outside it (review 37)
    ("exec 3<../../..; eval 'exec 4<&3'; cp f /dev/fd/4", (40, 49)),
    ("eval 'exec 3<../../..'; cp f /dev/fd/3", (29, 38)),
    ("source x.sh; cp f /dev/fd/4", (18, 27)),  # the script it reads may open any descriptor (review 37b)
    (". x.sh; cp f /dev/fd/4", (13, 22)),
    ("exec 3<../../..; eval cp f /dev/fd/3", (27, 36)),  # in eval's string: its span is in the command's text
])
def test_a_descriptor_opened_or_copied_in_any_string_the_walker_reads_is_written_through(world: Repo, command: str, span: tuple) -> None:
    """Phase 26 (m41d): `analyse`'s `parse` gathers the descriptors each string opens on a path and its copies,
    across strings (eval's, a sourced script's any), into the context the writes rule reads (READ_DESCRIPTORS)."""
    got = bash(world, command).violations
    assert [(v.code, v.rule, v.span) for v in got] == [("WG403", "writes", span)], command
    assert got[0].message.startswith(f"`cp` (operand) writes {command[span[0]:span[1]]}, a descriptor the command opens on a path"), command


@pytest.mark.parametrize("command", ["cp f /dev/fd/4", "exec 3<../../..; cp f /dev/fd/4", "eval 'exec 3<../../..'; cp f /dev/fd/4", "sourced x.sh; cp f /dev/fd/4"])
def test_a_descriptor_no_string_opens_on_a_path_is_no_path_written(world: Repo, command: str) -> None:
    """The must-pass neighbours: no `N<` anywhere; another descriptor opened, in the command or in eval's string; a
    program named like `source` that reads no script into the shell."""
    assert bash(world, command).violations == [], command


def test_shell_code_in_a_string_is_walked_with_spans_in_the_commands_text(world: Repo) -> None:
    """Phase 26 (m41d): `parse` hands the string's offset to the parser: a finding in eval's string points into the
    command, at any depth (unquoted words: eval's string starts at its first word, which a quote would shift)."""
    for command, span in (("eval cp f /etc/a", (10, 16)), ("eval eval cp f /etc/a", (15, 21))):
        assert [(v.code, v.span) for v in bash(world, command).violations] == [("WG402", span)], command


def test_the_links_of_a_step_refused_already_are_not_read(world: Repo) -> None:
    """Phase 26 (m41d): a step with an error (here `mv` moves /etc/b: WG402) refuses the call, so `each_command` does not
    read its links: the backup of the made link `a` under a run-time suffix adds no WG403 to it."""
    got = bash(world, "ln -s src a; mv -bT -S .[o] /etc/b a").violations
    assert [(v.code, v.rule, v.span) for v in got] == [("WG402", "writes", (28, 34))]


@pytest.mark.parametrize("command", ["f() { rm -f ../../../README.md; }", "trap 'rm -f ../../../README.md' EXIT"])
def test_the_top_level_walk_is_depth_0_where_uncalled_functions_and_traps_are_walked(world: Repo, command: str) -> None:
    """Phase 26 (m41d): `analyse` walks the command at depth 0, where `walk_script` walks a function defined but never
    called and the traps at the shell's end: both reach the main checkout's README (W's third parent)."""
    main = str(world.main)
    assert [(v.code, v.span, v.resolved) for v in bash(world, command).violations] == [("WG401", (12, 30), f"{main}/README.md")], command


# --- rules/writes.py ------------------------------------------------------------------------------------------


def test_a_git_entry_written_where_writes_are_allowed_is_wg403_by_the_verb(world: Repo) -> None:
    """A `.git` entry redirects a later git wherever it is written (W's own are protected already: WG103)."""
    w = str(world.worktree)
    for command, how, verb in (("echo 'gitdir: x' > /tmp/wg-5r/.git", "the redirection `>`", "writes"), ("ln -s x /tmp/wg-5r/.git/", "`ln` (operand)", "writes")):
        (finding,) = bash(world, command).violations
        assert (finding.code, finding.rule, finding.path, finding.worktree_root, command[finding.span[0]:finding.span[1]]) == (
            "WG403", "writes", command.split()[-1], w, command.split()[-1]), command
        assert finding.message == (
            f"{how} {verb} {command.split()[-1]!r}: a `.git` entry tells git which repository and checkout a directory belongs to, "
            "and one written here can send a later git to a shared checkout (`gitdir: <main>/.git`). Leave .git entries to git itself."
        ), command


def test_an_extraction_into_a_directory_with_a_link_out_of_w_or_too_many_entries_says_which(world: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    src, w = world.worktree / "src", str(world.worktree)
    tail = ": a member named through it is written wherever it leads, which only the archive says. Extract into a new directory (`-C`/`-d`)."
    (src / "up").symlink_to(world.main)
    (finding,) = bash(world, "tar -xf /tmp/t.tar -C src").violations
    assert (finding.code, finding.rule, finding.path, finding.span) == ("WG403", "writes", "src", (22, 25))
    assert finding.message == f"`tar` (extract into) writes below {src}, which holds the symlink {src}/up, which leads out of {w}{tail}"
    (src / "up").unlink()
    assert bash(world, "tar -xf /tmp/t.tar -C src").violations == []
    for i in range(3):
        (src / f"f{i}").write_text("x")
    import worktree_guard.rules.indirection as indirection

    monkeypatch.setattr(indirection, "MAX_FIND_ENTRIES", 2)
    (finding,) = bash(world, "tar -xf /tmp/t.tar -C src").violations
    assert finding.message == (
        f"`tar` (extract into) writes below {src}, which holds more than 2 entries or a directory it cannot read, "
        f"so it cannot be checked for symlinks that leave {w}{tail}"
    )


def test_the_symlink_scan_looks_through_exactly_max_find_entries_and_gives_up_past_them(world: Repo, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """escaping_links counts each entry once and gives up only past MAX_FIND_ENTRIES (phase 19: a count starting at 1,
    counting by 2, or giving up at the bound itself refused a directory holding exactly that many)."""
    import worktree_guard.rules.indirection as indirection

    box = world.worktree / "box"
    box.mkdir()
    for i in range(3):
        (box / f"f{i}").write_text("x")
    monkeypatch.setattr(indirection, "MAX_FIND_ENTRIES", 3)
    assert bash(world, "tar -xf /tmp/t.tar -C box").violations == []
    (box / "f3").write_text("x")
    (finding,) = bash(world, "tar -xf /tmp/t.tar -C box").violations
    assert "holds more than 3 entries or a directory it cannot read" in finding.message


def test_find_exec_past_the_symlink_scan_bound_runs_on_paths_only_known_at_run_time(world: Repo, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """`find DIR -exec CMD {} \\;` below a directory too big to look through for symlinks leaving W: `{}` is unknown,
    and the command is still walked (phase 23, h-m38a: `_find_exec` returning there instead of leaving the loop walked
    nothing, so chmod on every found path passed)."""
    import worktree_guard.rules.indirection as indirection

    box = world.worktree / "box"
    box.mkdir()
    for i in range(3):
        (box / f"f{i}").write_text("x")
    monkeypatch.setattr(indirection, "MAX_FIND_ENTRIES", 3)
    assert bash(world, "find box -exec chmod 700 {} \\;").violations == []
    monkeypatch.setattr(indirection, "MAX_FIND_ENTRIES", 2)
    (finding,) = bash(world, "find box -exec chmod 700 {} \\;").violations
    assert (finding.rule, finding.code, finding.path) == ("writes", "WG403", "{}")

def test_execdir_plain_names_are_read_against_the_links_leaving_w_below_and_beside_each_start_point(world: Repo, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: F811
    """Phase 24 (h-m39b): `_link_names` and `escaping_links(inside_only=True)` give the names of the links that leave W
    (to an allowed place too) below each starting point and in its own directory; an -execdir argument naming one is
    read from a directory the guard cannot name (WG202). A link that stays in W is no such name, a link named like an
    option (`-m`) is, and the directory beside the starting point is read up to exactly MAX_FIND_ENTRIES entries. The
    extraction check (`escaping_links` without inside_only) still counts only links to places the policy refuses."""
    import worktree_guard.rules.indirection as indirection

    w = world.worktree
    (w / "in-w").symlink_to(w / "src")  # stays in W
    for command in ("find src -maxdepth 0 -execdir make -C in-w \\;", "find . -maxdepth 0 -execdir make -C in-w \\;"):
        assert bash(world, command).decision == "pass", command
    (w / "-m").symlink_to(world.main)  # a name an option's spelling has
    assert set(bash(world, "find src -maxdepth 0 -execdir python3 run.py -- -m \\;").codes) == {"WG202"}
    (w / "-m").unlink()
    (w / "src" / "tmp").symlink_to("/tmp")  # an allowed place: no extraction finding, but a name -execdir refuses
    assert bash(world, "tar -xf /tmp/t.tar -C src").violations == []
    assert set(bash(world, "find src/a -maxdepth 0 -execdir make -C tmp \\;").codes) == {"WG202"}
    (w / "src" / "tmp").unlink()
    entries = len(os.listdir(w))  # what -execdir from `src` reads beside it; src itself is empty
    monkeypatch.setattr(indirection, "MAX_FIND_ENTRIES", entries)
    assert bash(world, "find src -maxdepth 0 -execdir make -C elsewhere \\;").decision == "pass"
    monkeypatch.setattr(indirection, "MAX_FIND_ENTRIES", entries - 1)
    assert set(bash(world, "find src -maxdepth 0 -execdir make -C elsewhere \\;").codes) == {"WG202"}


def test_execdir_plain_names_after_each_equals_sign(world: Repo) -> None:  # noqa: F811
    """Phase 25 (m40b), `_plain_names` since 43442c9: what follows each `=` of a plain -execdir word may be a name in the
    directory it runs in, the middle ones too (`--define=DIR=lk` names `DIR=lk` as well as `lk`)."""
    w = world.worktree
    (w / "DIR=lk").symlink_to(world.main)
    assert set(bash(world, "find src -maxdepth 0 -execdir python3 run.py --define=DIR=lk \\;").codes) == {"WG202"}
    assert set(bash(world, "find src -maxdepth 0 -execdir python3 run.py a=DIR=lk \\;").codes) == {"WG202"}
    assert bash(world, "find src -maxdepth 0 -execdir python3 run.py --define=DIR=elsewhere \\;").decision == "pass"


# --- rules/git.py ---------------------------------------------------------------------------------------------


def test_git_given_config_only_known_at_run_time_is_wg404_even_for_a_read_only_subcommand(world: Repo) -> None:
    """`git -c core.fsmonitor="$X" status` runs $X as shell code (git 2.39 does, checked by hand): whatever the
    subcommand, config only known at run time may be a command git runs."""
    for command, word in (('git -c core.fsmonitor="$X" status', 'core.fsmonitor="$X"'), ('git -c "$K" log', '"$K"'),
                          ("git --config-env $K diff", "$K"), ("git -c diff.external=$X diff", "diff.external=$X")):
        verdict = bash(world, command)
        assert [(v.code, v.message) for v in verdict.violations] == [
            ("WG404", f"`git` is given config only known at run time ({word}), which may name a command git runs; run git without it.")
        ], command
    # a mutating subcommand was refused already (the checkout is not known either)
    assert set(bash(world, 'git -c core.fsmonitor="$X" commit -m x').codes) == {"WG303", "WG404"}
    assert bash(world, "git -c core.fsmonitor=false status").decision == "pass"


# Every record of the git rule as the agent reads it: (code, message, path fields, the word the span covers;
# "ALL" = the whole command). {MAIN} is the main checkout, {W} this agent's worktree.
GIT_RECORDS = [
    ('git -C {MAIN} switch x', [('WG301', "`git switch` would change the branch of the shared checkout {MAIN}; switch branches only in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} checkout -- a', [('WG302', '`git checkout` would rewrite or discard files of the shared checkout {MAIN}; run it in {W}.', {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} checkout x', [('WG301', "`git checkout` would change the branch of the shared checkout {MAIN}; switch branches only in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} checkout --pathspec-from-file=f', [('WG302', '`git checkout` would rewrite or discard files of the shared checkout {MAIN}; run it in {W}.', {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} checkout -b y', [('WG301', "`git checkout` would change the branch of the shared checkout {MAIN}; switch branches only in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} symbolic-ref HEAD refs/heads/x', [('WG301', '`git symbolic-ref` would move HEAD of the shared checkout {MAIN}.', {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} update-ref HEAD abc', [('WG301', '`git update-ref HEAD` would move HEAD of the shared checkout {MAIN}.', {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} reset --hard', [('WG302', "`git reset` would change the working tree, index or HEAD of the shared checkout {MAIN}; run it in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C {MAIN} frobnicate', [('WG302', "worktree-guard cannot tell whether `git frobnicate` changes the shared checkout {MAIN}; run it in this agent's worktree {W}.", {'path': '{MAIN}', 'resolved': '{MAIN}', 'shared_root': '{MAIN}', 'suggestion': '{W}'}, 'ALL')]),
    ('git -C $D commit', [('WG303', 'worktree-guard cannot tell which checkout this git command acts on (-C $D is only known at run time); run git with literal paths inside {W}.', {}, 'ALL')]),
    ('git "$@"', [('WG303', 'worktree-guard cannot tell which checkout this git command acts on (its words "$@" are only known at run time and may hold git\'s options such as -C); run git with literal words inside {W}.', {}, 'ALL')]),
    ('git -c alias.x=y status', [('WG305', '`git -c alias.x=…` runs commands worktree-guard cannot see; leave it out.', {}, 'ALL')]),
    ('git fast-import', [('WG305', '`git fast-import` writes any ref its input names, the branches other checkouts have checked out among them; ask the user.', {}, 'ALL')]),
    ('git fetch -u origin', [('WG305', '`git fetch -u` (--update-head-ok) may move a branch another checkout has checked out; fetch into a branch of your own instead.', {}, 'ALL')]),
    ('git fetch --update-head-ok origin', [('WG305', '`git fetch --update-head-ok` may move a branch another checkout has checked out (through any refspec, remote config or --refmap); fetch into a branch of your own instead.', {}, 'ALL')]),
    ('git -C {MAIN} init --shared=all', [('WG305', '`git init` with --shared in {MAIN} would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('git checkout --ignore-other-worktrees main', [('WG305', '`--ignore-other-worktrees` would check out a branch another worktree has checked out; create a new branch in {W} instead.', {}, 'ALL')]),
    ('git branch -f main', [('WG305', '`git branch` would move, rename, overwrite or delete `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git branch -D $X', [('WG305', '`git branch` with a branch name only known at run time could move a branch another checkout uses.', {}, 'ALL')]),
    ('git update-ref refs/heads/main abc', [('WG305', '`git update-ref` would move `refs/heads/main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git update-ref --stdin', [('WG305', '`git update-ref` with refs only known at run time could move a branch another checkout uses.', {}, 'ALL')]),
    ('git push . HEAD:main', [('WG305', '`git push` would move `main`, the branch checked out in {MAIN}.', {}, 'ALL')]),
    ('git fetch . $X', [('WG305', '`git fetch` into this repository with a refspec or option only known at run time could move a checked-out branch.', {}, 'ALL')]),
    ('git remote add o u', [('WG305', '`git remote add` writes the repository config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git branch -u origin/x', [('WG305', '`git branch` would write the upstream or description into the repository config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git maintenance start', [('WG305', '`git maintenance start` writes config for this repository; ask the user.', {}, 'ALL')]),
    ('git sparse-checkout set a', [('WG305', '`git sparse-checkout` would turn on per-worktree config in the config every worktree shares; ask the user.', {}, 'ALL')]),
    ('git notes add', [('WG305', '`git notes add` writes refs/notes, which every worktree shares; ask the user.', {}, 'ALL')]),
    ('git replace a b', [('WG305', '`git replace` writes refs/replace, which changes history for every worktree; ask the user.', {}, 'ALL')]),
    ('git symbolic-ref refs/heads/x refs/heads/main', [('WG305', '`git symbolic-ref` would point a ref at `main`, the branch another checkout has checked out.', {}, 'ALL')]),
    ('git config user.name x', [('WG305', '`git config` would write configuration every worktree shares; use `git config --worktree` in {W}, or ask the user.', {}, 'ALL')]),
    ('git worktree prune', [('WG304', "`git worktree prune` removes other worktrees' records; leave that to the user.", {}, 'ALL')]),
    ('git worktree add /etc/x', [('WG304', "`git worktree add` would touch /etc/x, outside this agent's worktree {W}.", {'path': '/etc/x', 'resolved': '/etc/x'}, '/etc/x')]),
    ('git worktree remove {W}', [('WG304', "`git worktree remove` would take away this agent's own worktree {W}; leave that to the user.", {'path': '{W}', 'resolved': '{W}'}, '{W}')]),
    ('git worktree add $X', [('WG304', '`git worktree add` names a path only known at run time.', {}, '$X')]),
    ('git -c core.pager=$X log', [('WG404', '`git` is given config only known at run time (core.pager=$X), which may name a command git runs; run git without it.', {}, 'ALL')]),
    ('git init $X --template=/tmp/t', [('WG305', '`git init` with --template in a directory only known at run time would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.', {}, 'ALL')]),
    ('git send-pack x', [('WG305', '`git send-pack` pushes into any ref, and can run a receive-pack that updates a checked-out branch; ask the user.', {}, 'ALL')]),
    ('git -c receive.denyCurrentBranch=ignore push', [('WG305', '`git -c receive.denycurrentbranch=…` lets a push update a branch another checkout has checked out; leave it out.', {}, 'ALL')]),
    ('git -c core.hooksPath=/tmp/h commit', [('WG305', '`git -c core.hookspath=…` runs hooks worktree-guard cannot see; leave it out.', {}, 'ALL')]),
]


@pytest.mark.parametrize(("command", "expected"), GIT_RECORDS, ids=[row[0] for row in GIT_RECORDS])
def test_a_git_command_gets_its_exact_records(world: Repo, command: str, expected: list) -> None:
    from tests.test_bash_rules import fill

    filled = fill(command, world)
    got = []
    for v in bash(world, command).violations:
        if v.rule != "git":
            continue  # what git writes is the writes rule's
        assert (v.tool, v.severity, v.worktree_root) == ("Bash", "error", str(world.worktree)), command
        fields = {k: fill(x, world) for k, x in v.model_dump(exclude_none=True).items() if k in ("path", "resolved", "shared_root", "suggestion")}
        covered = "ALL" if v.span == (0, len(filled)) else filled[v.span[0]:v.span[1]]
        got.append((v.code, v.message, fields, covered))
    assert got == [(code, fill(message, world), {k: fill(x, world) for k, x in extra.items()}, fill(span, world)) for code, message, extra, span in expected], command


# --- rules/indirection.py -------------------------------------------------------------------------------------

# What cannot be looked inside, with the message the agent reads: every record is WG404 of the indirection rule
# and points at the whole command. {W} is this agent's worktree.
INDIRECTION_RECORDS = [
    ("alias ll='ls -l'", ['An alias defined inside a command is not followed by worktree-guard; run the command it stands for directly.']),
    ('"$X" checkout main', ["The command name '\"$X\"' is computed at run time and its arguments could leave {W}; call the program by its literal name."]),
    ('$X checkout main', ["The command name '$X' is computed at run time and its arguments could leave {W}; call the program by its literal name."]),
    ('$(cat f) checkout main', ["The command word $(cat f) is computed at run time and bash splits it into a command and arguments nobody has seen, which could leave {W}; quote it if it is one word, or write the words out."]),
    ("BASH_ENV=/tmp/x bash -c 'cd .'", ['`bash` would first run the file named by $BASH_ENV, which worktree-guard cannot see; leave BASH_ENV out.']),
    ('ENV=/tmp/x sh -c ls', ['`sh` would first run the file named by $ENV, which worktree-guard cannot see; leave ENV out.']),
    ('bash -c "$X"', ['`bash -c` runs shell code only known at run time; pass it a literal string.']),
    ('bash', ['`bash` runs shell code from its input, which worktree-guard cannot see; run the commands directly.']),
    ('bash $S', ['`bash` runs a script worktree-guard cannot see ($S); run the commands directly.']),
    ('bash /dev/stdin', ['`bash` runs a script worktree-guard cannot see (/dev/stdin); run the commands directly.']),
    ('script', ['`script` starts a shell that reads its commands from its input, which worktree-guard cannot see (a later write to that input reaches no hook); run the commands directly.']),
    ('script -q /dev/null', ['`script` starts a shell that reads its commands from its input, which worktree-guard cannot see (a later write to that input reaches no hook); run the commands directly.']),
    ('eval "$X"', ['`eval` runs code only known at run time; run the command directly.']),
    ('trap "$X" EXIT', ['`trap` installs code only known at run time.']),
    ('mapfile -C "$X" arr', ['`mapfile` runs code only known at run time; run the commands directly.']),
    ('source $F', ['`source` runs shell code worktree-guard cannot see ($F); run the commands directly.']),
    ('. /dev/stdin', ['`.` runs shell code worktree-guard cannot see (/dev/stdin); run the commands directly.']),
    ('chroot /mnt ls', ['`chroot` runs the command under another root directory, where worktree-guard cannot tell what its paths name; run it without chroot.']),
    ('unshare --root=/mnt ls', ['`unshare --root` runs the command under another root or mount namespace, where worktree-guard cannot tell what its paths name.']),
    ('flock /tmp/l -c "$X"', ['`flock` runs shell code only known at run time; pass it a literal string.']),
    ('watch $X', ['`watch` runs a command line only known at run time through a shell.']),
    ('sg grp "$X"', ['`sg` runs a command line only known at run time through a shell.']),  # the agent's X is the command (review 33c)
    ('sg grp -c "$X"', ['`sg` runs shell code only known at run time; pass it a literal string.']),
    ('su -c "$X"', ['`su` runs shell code only known at run time; pass it a literal string.']),
    ('command alias x=y', ['An alias defined inside a command is not followed by worktree-guard; run the command it stands for directly.']),
    ('builtin alias x=y', ['An alias defined inside a command is not followed by worktree-guard; run the command it stands for directly.']),
]


@pytest.mark.parametrize(("command", "messages"), INDIRECTION_RECORDS, ids=[row[0] for row in INDIRECTION_RECORDS])
def test_what_cannot_be_looked_inside_is_wg404_with_its_reason(world: Repo, command: str, messages: list) -> None:
    from tests.test_bash_rules import fill

    got = bash(world, command).violations
    assert [(v.code, v.rule, v.tool, v.severity, v.worktree_root, v.span) for v in got] == [
        ("WG404", "indirection", "Bash", "error", str(world.worktree), (0, len(command)))] * len(messages), command
    assert [v.message for v in got] == [fill(m, world) for m in messages], command
