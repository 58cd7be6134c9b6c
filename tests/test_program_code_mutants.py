"""The program-code rule's two hooks called directly (rules/program_code.py), pinned for mutation testing (issue 13,
phase 15).

Phase 5 measured this module with tests that reached it only through `worktree-guard hook` in a child process
(116 of 131 mutants not reached). Here each hook is called in-process with a step as the walker builds it and a
context that holds only what the rule reads (the plugin manager, the call's tool, W), and what it returns is
compared whole: every inner argv and script with its directory, offset, label and flags, and every finding.
"""

from __future__ import annotations

from types import SimpleNamespace

from worktree_guard.hookspecs import hookimpl
from worktree_guard.plugins import plugin_manager
from worktree_guard.rules import program_code
from worktree_guard.shell.parse import parse
from worktree_guard.shell.runners import BUILTIN_CODE_RUNNERS, CodeRunner
from worktree_guard.shell.state import ShellState
from worktree_guard.shell.steps import ShellCommand

PM = plugin_manager(entry_points=False)


def step(source: str, cwd: str | None = "/w") -> ShellCommand:
    node = parse(source).body[0]
    return ShellCommand(node=node, words=node.words, assignments=list(node.assignments), cwd=cwd, state=ShellState(cwd=cwd), home="/h")


def context(pm=PM) -> SimpleNamespace:
    return SimpleNamespace(pm=pm, extra={}, call=SimpleNamespace(tool="Bash"), worktree_root="/w")


def unwrapped(source: str, pm=PM) -> tuple | None:
    """What the rule unwraps: (inner argvs, scripts, own words), every field of each."""
    found = program_code.worktree_guard_shell_unwrap(step(source), context(pm))
    if found is None:
        return None
    return (
        [(tuple(w.raw for w in i.words), i.cwd, i.label, i.assignments, i.same_shell, i.unsets, i.clears) for i in found.inner],
        [(s.source, s.offset, s.cwd, s.label, s.same_shell, s.from_env, s.takes_prefixes, s.options) for s in found.scripts],
        found.own_words,
    )


def findings(source: str, pm=PM) -> list[dict] | None:
    found = program_code.worktree_guard_shell_command(step(source), context(pm))
    return None if found is None else [v.model_dump() for v in found]


def wg404(message: str, span: tuple[int, int]) -> dict:
    return {
        "code": "WG404", "rule": "program-code", "tool": "Bash", "severity": "error", "path": None, "resolved": None,
        "worktree_root": "/w", "shared_root": None, "suggestion": None, "span": span,
        "message": f"{message}; worktree-guard cannot see what that code does.",
    }


UNWRAP_ROWS = {
    # fd's -x argv runs in the cwd, or in a directory not known once --base-directory moves it (as one word or two;
    # only the option's name before the first `=` counts)
    "fd -x sh -c 'touch a'": ([(("sh", "-c", "'touch a'", "{}"), "/w", "fd -x", [], False, (), False)], [], 1),
    "fd --base-directory=/tmp/a=b -x touch a": ([(("touch", "a", "{}"), None, "fd -x", [], False, (), False)], [], 2),
    "fd --base-directory /etc -x touch a": ([(("touch", "a", "{}"), None, "fd -x", [], False, (), False)], [], 3),
    "fd --type=f -x touch a": ([(("touch", "a", "{}"), "/w", "fd -x", [], False, (), False)], [], 2),
    "fd a": None,  # a runner with argv options but none given: nothing to unwrap, and no other form of it
    # tmux runs its command in the -c directory, else the cwd for new-session
    "tmux new-session -c /tmp 'touch x'": ([], [("touch x", 25, "/tmp", "tmux command", False, False, True, frozenset())], None),
    "tmux new-session 'touch x'": ([], [("touch x", 17, "/w", "tmux command", False, False, True, frozenset())], None),
    "tmux ls": None,
    # a variable's command (less has only walk_env) is marked as the environment's; an option's (man -P) is not
    "LESSOPEN='|cat %s' less f": ([], [("cat %s", 0, "/w", "less command", False, True, True, frozenset())], None),
    "man -P 'cat -v' ls": ([], [("cat -v", 8, "/w", "man command", False, False, True, frozenset())], None),
    "less f": None,
    # code in a program's own language, walked in the cwd
    "sed -n 'e touch x' f": ([], [("touch x", 10, "/w", "sed code", False, False, True, frozenset())], None),
    "awk 'BEGIN { system(\"date\") }'": ([], [("date", 21, "/w", "awk code", False, False, True, frozenset())], None),
    "sed s/a/b/ f": None,  # a code family with no command in it
    "echo hi": None,
    "$x a": None,  # no static name
}


def test_what_the_rule_unwraps() -> None:
    for source, expected in UNWRAP_ROWS.items():
        assert unwrapped(source) == expected, source


def test_a_tmux_directory_that_is_not_there_is_unknown_and_a_moved_command_is_marked() -> None:
    """tmux runs its command in the session's or the server's directory when the -c one does not exist (review 35:
    `tmux neww -c nosuchdir 'git reset --hard'` reset the main checkout), nor when the command removed or wrote it or
    a directory above it before, or wrote somewhere only known at run time (review 35b: `rmdir e && tmux neww -c e
    …`): that directory is not known. The cwd itself is kept as it is (`/w` does not exist here). `moves` marks a
    script that runs elsewhere than the step."""
    rows = [
        ("tmux new-session -c /tmp 'touch x'", [], ("/tmp", True)),
        ("tmux new-session 'touch x'", [], ("/w", False)),
        ("tmux new-session -c /w 'touch x'", [], ("/w", False)),
        ("tmux new-session -c /nonexistent-wg 'touch x'", [], (None, True)),
        ("tmux new-session -c /tmp 'touch x'", ["/tmp"], (None, True)),
        ("tmux new-session -c /usr/bin 'touch x'", ["/usr"], (None, True)),  # a directory above it
        ("tmux new-session -c /usr 'touch x'", ["/usr/bin"], ("/usr", True)),  # one below it: still there
        ("tmux new-session -c /tmp 'touch x'", ["/w/e"], ("/tmp", True)),
        ("tmux new-session -c /tmp 'touch x'", [None], (None, True)),
        ('tmux new-session -c "$D" \'touch x\'', [], (None, True)),
    ]
    for source, written, (cwd, moves) in rows:
        command = step(source)
        command.state.written.extend(written)  # what the command wrote before this step
        found = program_code.worktree_guard_shell_unwrap(command, context())
        assert [(s.source, s.cwd, s.label, s.moves) for s in found.scripts] == [("touch x", cwd, "tmux command", moves)], (source, written)


def test_the_code_runners_hook_gives_a_copy_of_the_built_in_table() -> None:
    table = program_code.worktree_guard_code_runners()
    assert table == BUILTIN_CODE_RUNNERS and table is not BUILTIN_CODE_RUNNERS


FINDING_ROWS = {
    "gdb -ex 'shell x'": [wg404("`gdb -ex` runs code", (0, 17))],
    "sed 's/a/b/e' f": [wg404("`sed`'s `s///e` runs the pattern space, which is only known at run time", (0, 15))],
    # the same reason twice is one finding; two reasons are two, in order
    "sed 's/a/b/e;s/c/d/e' f": [wg404("`sed`'s `s///e` runs the pattern space, which is only known at run time", (0, 23))],
    "sed -e 's/a/b/e' -e e f": [
        wg404("`sed`'s `s///e` runs the pattern space, which is only known at run time", (0, 23)),
        wg404("`sed`'s `e` command runs the pattern space, which is only known at run time", (0, 23)),
    ],
    "LESSOPEN=$x less f": [wg404("`less` runs the command in $LESSOPEN, only known at run time", (0, 18))],
    "sed -n 'e touch x' f": None,
    "less f": None,
    "echo hi": None,
}


def test_what_the_rule_refuses() -> None:
    for source, expected in FINDING_ROWS.items():
        assert findings(source) == expected, source


class _AwkRunner:
    """A plugin's row for a program that also has a language of its own: both kinds of reason are given."""

    @hookimpl
    def worktree_guard_code_runners(self) -> dict[str, CodeRunner]:
        return {"awk": CodeRunner(options=frozenset({"--exec-hook"}))}


def test_a_plugins_runner_for_a_program_with_its_own_language_adds_to_its_reasons() -> None:
    pm = plugin_manager(entry_points=False)
    pm.register(_AwkRunner(), name="awk-runner")
    source = "awk --exec-hook '{system($0)}' f"
    assert findings(source, pm) == [
        wg404("`awk --exec-hook` runs code", (0, len(source))),
        wg404("`awk` calls system() with a command only known at run time", (0, len(source))),
    ]
    assert unwrapped("awk --exec-hook 'BEGIN { system(\"date\") }'", pm) == (
        [], [("date", 33, "/w", "awk code", False, False, True, frozenset())], None)
