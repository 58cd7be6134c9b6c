"""The shell rules' edges, each pinned by exact codes (and, where a message is what the agent reads, its text).

Written from the mutation run of `rules/` (bench/mutation.py, issue 13 phase 2): each test kills mutants that
every other in-process test let through. The rows run through the engine with the real repository of
`tests/test_bash_rules.py` (W a linked worktree inside the main checkout {MAIN}).
"""

from __future__ import annotations

import pytest

from tests.helpers import Repo
from tests.test_bash_rules import bash, fill, world  # noqa: F401  (the fixture)

# --- rules/interpreters.py: inline code is WG405 in the strict profile only ---------------------------------

INLINE_ROWS = [
    # every program of the table with every option that takes inline code
    ("python3 -c 'print(1)'", {"WG405"}),
    ("pypy3 -c 'print(1)'", {"WG405"}),
    ("node -e 'x'", {"WG405"}),
    ("node --eval 'x'", {"WG405"}),
    ("node -p '1'", {"WG405"}),
    ("node --print '1'", {"WG405"}),
    ("deno eval 'x'", {"WG405"}),
    ("bun -e 'x'", {"WG405"}),
    ("bun --eval 'x'", {"WG405"}),
    ("perl -e 'print 1'", {"WG405"}),
    ("perl -E 'say 1'", {"WG405"}),
    ("ruby -e 'p 1'", {"WG405"}),
    ("php -r 'echo 1;'", {"WG405"}),
    ("lua5.4 -e 'print(1)'", {"WG405"}),  # a version suffix is not part of the program's name
    ("osascript -e 'beep'", {"WG405"}),
    ("python3.12 '-cprint(1)'", {"WG405"}),  # a short option glued to its code
    ("perl -Mstrict -e 'print 1'", {"WG405"}),
    # a script, a module, a version: no inline code, nothing read from the input
    ("python3 script.py", "pass"),
    ("python3 -u script.py", "pass"),
    ("python3 $SCRIPT", "pass"),  # a word worktree-guard cannot read is taken as a script operand
    ("python3 -V", "pass"),
    ("python3 --help", "pass"),
    ("python3 -h", "pass"),
    ("node --version", "pass"),
    ("deno run main.ts", "pass"),
    ("node --evaluate x.js", "pass"),  # a long option is never a glued short one
    ("perl -x script.pl", "pass"),  # -x is no inline-code option: `script.pl` is the program
    # no program operand: the interpreter reads its program from its input
    ("python3 -u", {"WG405"}),
    ("ruby -", {"WG405"}),
    ("lua", {"WG405"}),
    ("3 -c x", "pass"),  # a name that is all version digits is no interpreter of the table
    ("nodeX -e x", "pass"),  # only a version suffix is stripped from the name: nodeX is another program
    ("python3 - arg", {"WG405"}),  # `-` is the program read from the input, whatever follows it
]


@pytest.mark.parametrize(("command", "expected"), INLINE_ROWS)
def test_inline_interpreter_code_in_the_strict_profile(world: Repo, command: str, expected: object) -> None:
    verdict = bash(world, command, profile="strict")
    assert (verdict.decision, set(verdict.codes)) == (("pass", set()) if expected == "pass" else ("deny", expected)), command
    assert bash(world, command).decision == "pass", command  # the default profile passes inline code


def test_the_inline_code_message_says_how_and_where(world: Repo) -> None:
    (inline,) = bash(world, "python3 -c 'print(1)'", profile="strict").violations
    assert inline.message == (
        f"`python3` runs inline code worktree-guard cannot check (strict profile); put it in a file inside {world.worktree} and run that."
    )
    assert (inline.rule, inline.tool, inline.worktree_root) == ("interpreters", "Bash", str(world.worktree))
    (stdin,) = bash(world, "python3", profile="strict").violations
    assert stdin.message == (
        "`python3` reads the code it runs from its input, which worktree-guard cannot check (strict profile); "
        f"put it in a file inside {world.worktree} and run that."
    )


# --- rules/cd.py: where a `cd` goes, and where a call names its shell's start directory ----------------------


def records(verdict) -> list[dict]:
    return [v.model_dump(exclude_none=True) for v in verdict.violations]


def test_a_cd_into_the_main_checkout_names_the_shared_checkout_and_suggests_the_same_place_in_w(world: Repo) -> None:
    main, w = str(world.main), str(world.worktree)
    assert records(bash(world, "cd {MAIN}/src")) == [{
        "code": "WG201", "rule": "cd", "tool": "Bash", "severity": "error",
        "message": f"`cd` moves into the shared checkout {main}, outside this agent's worktree {w}.",
        "path": f"{main}/src", "resolved": f"{main}/src", "worktree_root": w, "shared_root": main,
        "suggestion": f"cd {w}/src", "span": (3, 3 + len(f"{main}/src")),
    }]


def test_a_pushd_outside_is_named_as_pushd_and_has_no_suggestion(world: Repo) -> None:
    w = str(world.worktree)
    assert records(bash(world, "pushd /etc")) == [{
        "code": "WG201", "rule": "cd", "tool": "Bash", "severity": "error",
        "message": f"`pushd` moves to /etc, outside this agent's worktree {w} and the allow-list.",
        "path": "/etc", "resolved": "/etc", "worktree_root": w, "span": (6, 10),
    }]


def test_a_cd_without_a_word_goes_home_and_points_at_the_command(world: Repo) -> None:
    (home,) = records(bash(world, "true; cd"))
    assert (home["path"], home["resolved"], home["span"]) == ("~", "/opt/wg-test-home", (6, 8))


def test_a_cd_whose_physical_place_is_outside_is_judged_by_it(world: Repo) -> None:
    """`to-ssl/..` is W logically and /etc physically: `cd -P` reads it physically, and is refused."""
    (ssl,) = records(bash(world, "cd -P to-ssl/.."))
    assert (ssl["code"], ssl["path"], ssl["resolved"], ssl["span"]) == ("WG201", "to-ssl/..", "/etc", (6, 15))


def test_a_cd_to_a_word_known_only_at_run_time_says_why(world: Repo) -> None:
    w = str(world.worktree)
    assert records(bash(world, "cd $X")) == [{
        "code": "WG202", "rule": "cd", "tool": "Bash", "severity": "error",
        "message": f"`cd` goes to a directory worktree-guard cannot work out: the target '$X' is only known at run time; use a literal path inside {w}.",
        "path": "$X", "worktree_root": w, "span": (3, 5),
    }]


def shell_started_in(repo: Repo, start: str):
    """A shell call that names its own start directory (Codex's workdir, Gemini's dir_path), judged in-process."""
    from tests.helpers import subagent_payload
    from tests.test_bash_rules import PM
    from worktree_guard.engine import build_context, decide
    from worktree_guard.runtimes.claude_code import to_tool_call

    call = to_tool_call(subagent_payload(repo, "Bash", {"command": "ls", "description": "t"})).model_copy(update={"shell_cwd": start})
    return decide(call, build_context(call, pm=PM))


def test_a_shell_started_in_the_main_checkout_is_refused_with_the_place_in_w(world: Repo) -> None:
    main, w = str(world.main), str(world.worktree)
    assert records(shell_started_in(world, f"{main}/src")) == [{
        "code": "WG201", "rule": "cd", "tool": "Bash", "severity": "error",
        "message": f"The command would start in {main}/src, in the shared checkout {main}, not in this agent's worktree {w}.",
        "path": f"{main}/src", "resolved": f"{main}/src", "worktree_root": w, "shared_root": main, "suggestion": f"{w}/src",
    }]


def test_a_shell_started_outside_is_refused_and_one_started_in_w_or_the_allow_list_passes(world: Repo) -> None:
    import tempfile

    w = str(world.worktree)
    assert records(shell_started_in(world, "/etc")) == [{
        "code": "WG201", "rule": "cd", "tool": "Bash", "severity": "error",
        "message": f"The command would start in /etc, outside this agent's worktree {w} and the allow-list.",
        "path": "/etc", "resolved": "/etc", "worktree_root": w,
    }]
    assert shell_started_in(world, f"{w}/src").decision == "pass"
    assert shell_started_in(world, tempfile.gettempdir()).decision == "pass"


def test_a_cd_or_a_start_in_a_protected_path_of_w_is_no_move_out_of_w(world: Repo) -> None:
    """`.git` is protected against writes, but it lies inside W: going there is not leaving W."""
    assert bash(world, "cd .git/").decision == "pass"
    assert shell_started_in(world, f"{world.worktree}/.git").decision == "pass"


def test_a_program_that_starts_what_it_runs_elsewhere_is_refused_in_the_words_of_a_cd(world: Repo) -> None:
    """`env -C`, `sudo -D`, `tmux neww -c` (`_started_elsewhere`, review 35) field by field: the directory as the
    program goes there, the shared checkout and the same place in W, over the whole command (phase 21)."""
    main, w = str(world.main), str(world.worktree)
    command = f"env -C {main}/src make"
    assert records(bash(world, command)) == [{
        "code": "WG201", "rule": "cd", "tool": "Bash", "severity": "error",
        "message": f"`env` starts what it runs in {main}/src, in the shared checkout {main}, not in this agent's worktree {w}.",
        "path": f"{main}/src", "resolved": f"{main}/src", "worktree_root": w, "shared_root": main,
        "suggestion": f"{w}/src", "span": (0, len(command)),
    }]
    assert records(bash(world, "sudo -D /etc make")) == [{
        "code": "WG201", "rule": "cd", "tool": "Bash", "severity": "error",
        "message": f"`sudo` starts what it runs in /etc, outside this agent's worktree {w} and the allow-list.",
        "path": "/etc", "resolved": "/etc", "worktree_root": w, "span": (0, 17),
    }]
    command = f"env -C {main}/.git make"  # the repository every worktree shares: no counterpart in W
    assert records(bash(world, command)) == [{
        "code": "WG201", "rule": "cd", "tool": "Bash", "severity": "error",
        "message": f"`env` starts what it runs in {main}/.git, in the shared checkout {main}/.git, not in this agent's worktree {w}.",
        "path": f"{main}/.git", "resolved": f"{main}/.git", "worktree_root": w, "shared_root": f"{main}/.git",
        "span": (0, len(command)),
    }]
    assert records(bash(world, 'env -C "$X" make')) == [{
        "code": "WG202", "rule": "cd", "tool": "Bash", "severity": "error",
        "message": f"`env` starts what it runs in a directory worktree-guard cannot work out; give it a literal directory inside {w}.",
        "worktree_root": w, "span": (0, 16),
    }]
    for inside in ("env -C src make", "sudo -D src/.. make", "tmux neww -d -c src make"):
        assert records(bash(world, inside)) == [], inside


# --- rules/files.py: the file tools' records, field by field ------------------------------------------------


def file_tool(repo: Repo, tool: str, tool_input: dict, update: dict | None = None, **flags):
    from tests.helpers import subagent_payload
    from tests.test_bash_rules import PM
    from worktree_guard.engine import build_context, decide
    from worktree_guard.runtimes.claude_code import to_tool_call

    call = to_tool_call(subagent_payload(repo, tool, tool_input))
    if update:
        call = call.model_copy(update=update)
    return decide(call, build_context(call, flags=flags or None, pm=PM))


def test_a_write_into_the_main_checkout_is_wg101_with_the_rewrite_into_w(repo: Repo) -> None:
    main, w = str(repo.main), str(repo.worktree)
    verdict = file_tool(repo, "Write", {"file_path": f"{main}/a.py", "content": "x"})
    assert records(verdict) == [{
        "code": "WG101", "rule": "files", "tool": "Write", "severity": "error",
        "message": f"{main}/a.py is in the shared checkout {main}, not in this agent's worktree {w}.",
        "path": f"{main}/a.py", "resolved": f"{main}/a.py", "worktree_root": w, "shared_root": main, "suggestion": f"{w}/a.py",
    }]
    assert verdict.violations[0].fixed_input == {"file_path": f"{w}/a.py", "content": "x"}


def test_a_write_outside_and_a_write_to_a_protected_path_name_their_place(repo: Repo) -> None:
    w = str(repo.worktree)
    assert records(file_tool(repo, "Write", {"file_path": "/etc/x", "content": "x"})) == [{
        "code": "WG102", "rule": "files", "tool": "Write", "severity": "error",
        "message": f"/etc/x is outside this agent's worktree {w} and outside the allow-list; write inside {w} or a temp dir.",
        "path": "/etc/x", "resolved": "/etc/x", "worktree_root": w,
    }]
    assert records(file_tool(repo, "Write", {"file_path": f"{w}/.git", "content": "x"})) == [{
        "code": "WG103", "rule": "files", "tool": "Write", "severity": "error",
        "message": f"{w}/.git is protected inside this worktree and may not be written.",
        "path": f"{w}/.git", "resolved": f"{w}/.git", "worktree_root": w,
    }]


@pytest.mark.parametrize("tool_input", [{"content": "x"}, {"file_path": "", "content": "x"}])
def test_a_write_without_a_usable_path_is_wg000_naming_the_field(repo: Repo, tool_input: dict) -> None:
    assert records(file_tool(repo, "Write", tool_input)) == [{
        "code": "WG000", "rule": "files", "tool": "Write", "severity": "error",
        "message": "The Write call has no usable `file_path` string, so worktree-guard cannot check where it writes.",
        "worktree_root": str(repo.worktree),
    }]


@pytest.mark.parametrize("paths", [[""], ["a.py", "b\0.py"], []])
def test_a_patch_with_a_path_that_cannot_be_used_is_wg000_for_every_file(repo: Repo, paths: list[str]) -> None:
    from worktree_guard.model import FileWrite

    writes = [FileWrite(path=p) for p in paths]
    verdict = file_tool(repo, "Write", {"content": "x"}, update={"file_writes": writes})
    assert records(verdict) == [{
        "code": "WG000", "rule": "files", "tool": "Write", "severity": "error",
        "message": "The Write call has no usable path in every file it names, so worktree-guard cannot check where it writes.",
        "worktree_root": str(repo.worktree),
    }]


def test_a_patch_is_rewritten_only_when_every_refused_path_is_a_whole_field(repo: Repo) -> None:
    """Two WG101 paths, one held by no field (a patch header): no rewrite could be exact, so none is offered."""
    from worktree_guard.model import FileWrite

    main = str(repo.main)
    writes = [FileWrite(path=f"{main}/a.py", input_field="file_path"), FileWrite(path=f"{main}/b.py")]
    verdict = file_tool(repo, "Write", {"file_path": f"{main}/a.py", "content": "x"}, update={"file_writes": writes})
    assert verdict.codes == ["WG101", "WG101"]
    assert [v.fixed_input for v in verdict.violations] == [None, None]
    one = file_tool(repo, "Write", {"file_path": f"{main}/a.py", "content": "x"}, update={"file_writes": writes[:1]})
    assert one.violations[0].fixed_input == {"file_path": f"{repo.worktree}/a.py", "content": "x"}
    outside = [FileWrite(path=f"{main}/a.py", input_field="file_path"), FileWrite(path="/etc/b", input_field="other")]
    both = file_tool(repo, "Write", {"file_path": f"{main}/a.py", "content": "x"}, update={"file_writes": outside})
    assert (both.codes, [v.fixed_input for v in both.violations]) == (["WG101", "WG102"], [None, None])


@pytest.mark.parametrize(("reads", "decision", "severity"), [("warn", "warn", "warning"), ("deny", "deny", "error")])
def test_a_read_of_the_shared_checkout_is_wg104_with_the_copy_in_w(repo: Repo, reads: str, decision: str, severity: str) -> None:
    main, w = str(repo.main), str(repo.worktree)
    verdict = file_tool(repo, "Read", {"file_path": f"{main}/README.md"}, reads=reads)
    assert verdict.decision == decision
    assert records(verdict) == [{
        "code": "WG104", "rule": "files", "tool": "Read", "severity": severity,
        "message": f"{main}/README.md is in the shared checkout {main}: it may be stale for this agent's worktree {w}.",
        "path": f"{main}/README.md", "resolved": f"{main}/README.md", "worktree_root": w, "shared_root": main,
        "suggestion": f"{w}/README.md",
    }]
    assert file_tool(repo, "Read", {"file_path": f"{main}/README.md"}).decision == "pass"  # reads = off


# --- rules/program_code.py: code in a program's own language ------------------------------------------------


@pytest.mark.parametrize(("command", "reason"), [
    ("awk '{system($0)}' README.md", "`awk` calls system() with a command only known at run time"),
    ("sed 's/x/y/e' README.md", "`sed`'s `s///e` runs the pattern space, which is only known at run time"),
])
def test_code_that_cannot_be_read_is_wg404_with_its_reason(world: Repo, command: str, reason: str) -> None:
    assert records(bash(world, command)) == [{
        "code": "WG404", "rule": "program-code", "tool": "Bash", "severity": "error",
        "message": f"{reason}; worktree-guard cannot see what that code does.",
        "worktree_root": str(world.worktree), "span": (0, len(command)),
    }]


def test_a_sed_command_is_walked_where_sed_runs_and_its_spans_point_into_the_outer_command(world: Repo) -> None:
    command = fill("sed -n 'e cd {MAIN}' README.md", world)
    (cd,) = bash(world, command).violations
    assert (cd.code, command[cd.span[0]:cd.span[1]]) == ("WG201", str(world.main))
    # `../../..` from W's src is W's parent's parent: the .claude directory of the main checkout
    (up,) = bash(world, "cd src && sed -n 'e rm -rf ../../..' README.md").violations
    assert (up.code, up.resolved) == ("WG401", str(world.main / ".claude"))


# --- rules/dispatch.py: the records of a dispatch and of EnterWorktree --------------------------------------


def agent(repo: Repo, tool_input: dict, update: dict | None = None, tool: str = "Agent", **flags):
    return file_tool(repo, tool, {"description": "d", "prompt": "p", **tool_input} if tool == "Agent" else tool_input, update, **flags)


def full_records(verdict) -> list[dict]:
    return [v.model_dump(exclude_none=True) | {"fixed_input": v.fixed_input, "fix_in_enforce": v.fix_in_enforce} for v in verdict.violations]


def test_a_dispatch_without_isolation_is_rewritten_naming_the_default_agent(repo: Repo) -> None:
    w = str(repo.worktree)
    verdict = agent(repo, {})
    assert verdict.decision == "rewrite"
    assert full_records(verdict) == [{
        "code": "WG501", "rule": "dispatch", "tool": "Agent", "severity": "error",
        "message": f"This agent is isolated in {w}, so the sub-agent 'general-purpose' it dispatches must be isolated too.",
        "worktree_root": w, "suggestion": '"isolation": "worktree"',
        "fixed_input": {"description": "d", "prompt": "p", "isolation": "worktree"}, "fix_in_enforce": True,
    }]
    assert "'general-purpose'" in agent(repo, {"subagent_type": ""}).violations[0].message


def test_a_dispatch_of_a_definition_that_declares_isolation_is_info_naming_the_file(repo: Repo) -> None:
    from tests.helpers import write_agent

    path = write_agent(repo.main, "iso", "isolation: worktree")
    verdict = agent(repo, {"subagent_type": "iso"})
    assert verdict.decision == "pass"
    assert full_records(verdict) == [{
        "code": "WG501", "rule": "dispatch", "tool": "Agent", "severity": "info",
        "message": f"The sub-agent 'iso' declares isolation: worktree in {path}.",
        "worktree_root": str(repo.worktree), "fixed_input": None, "fix_in_enforce": False,
    }]


@pytest.mark.parametrize(("allowed", "decision", "severity"), [(False, "deny", "error"), (True, "pass", "info")])
def test_a_downgrade_is_wg502(repo: Repo, allowed: bool, decision: str, severity: str) -> None:
    w = str(repo.worktree)
    verdict = agent(repo, {"isolation": "none"}, allow_isolation_downgrade=allowed)
    assert verdict.decision == decision
    assert full_records(verdict) == [{
        "code": "WG502", "rule": "dispatch", "tool": "Agent", "severity": severity,
        "message": f"This agent is isolated in {w} and may not dispatch a sub-agent with isolation 'none': "
        'use "isolation": "worktree" (or leave the field out).',
        "worktree_root": w, "suggestion": '"isolation": "worktree"', "fixed_input": None, "fix_in_enforce": False,
    }]


@pytest.mark.parametrize("value", [" Remote ", "WORKTREE", "work-tree"])
def test_a_confining_isolation_value_passes_in_any_spelling(repo: Repo, value: str) -> None:
    assert full_records(agent(repo, {"isolation": value})) == []


def test_a_cwd_in_the_shared_checkout_or_outside_is_wg503_and_the_rewrite_still_comes(repo: Repo) -> None:
    main, w = str(repo.main), str(repo.worktree)
    tail = f"not in this agent's worktree {w}; leave out `cwd` (the sub-agent gets its own worktree) or name a directory inside {w}."
    shared = agent(repo, {"cwd": f"{main}/src"})
    assert shared.codes == ["WG503", "WG501"]
    assert full_records(shared)[0] == {
        "code": "WG503", "rule": "dispatch", "tool": "Agent", "severity": "error",
        "message": f"The sub-agent would run in {main}/src, the shared checkout {main}, {tail}",
        "path": f"{main}/src", "resolved": f"{main}/src", "worktree_root": w, "shared_root": main, "suggestion": f"{w}/src",
        "fixed_input": None, "fix_in_enforce": False,
    }
    outside = agent(repo, {"cwd": "/etc"})
    assert outside.violations[0].message == f"The sub-agent would run in /etc, outside it, {tail}"


@pytest.mark.parametrize("cwd", [3, "", "a\0b", None])
def test_a_cwd_that_is_no_path_is_wg000(repo: Repo, cwd: object) -> None:
    verdict = agent(repo, {"cwd": cwd})
    assert verdict.codes == ["WG000", "WG501"]
    assert verdict.violations[0].message == (
        f"The Agent call's `cwd` is not a usable path ({cwd!r}), so worktree-guard cannot check where the sub-agent would run."
    )


def test_a_cwd_inside_w_keeps_the_sub_agent_there_without_isolation(repo: Repo) -> None:
    w = str(repo.worktree)
    verdict = agent(repo, {"cwd": f"{w}/src"})
    assert verdict.decision == "pass"
    assert full_records(verdict) == [{
        "code": "WG501", "rule": "dispatch", "tool": "Agent", "severity": "info",
        "message": f"The sub-agent runs in this agent's worktree {w} (its `cwd`), so no isolation is added.",
        "worktree_root": w, "fixed_input": None, "fix_in_enforce": False,
    }]


def test_a_fork_of_a_fork_is_wg504_whatever_the_case_of_its_type(repo: Repo) -> None:
    verdict = agent(repo, {"subagent_type": "fork"}, update={"agent_type": "Fork"})
    assert verdict.codes == ["WG501", "WG504"]
    assert verdict.violations[1].message == (
        "This agent is a fork and may not fork again: forks are single-level. Do the work here, or dispatch a named sub-agent."
    )
    assert agent(repo, {"subagent_type": "Fork"}, update={"agent_type": "fork"}).codes == ["WG501"]  # the tool's type is exact


def test_a_dispatch_that_runs_in_the_dispatchers_cwd_has_nothing_to_check(repo: Repo) -> None:
    assert full_records(agent(repo, {"isolation": "none", "cwd": "/etc"}, update={"subagent_place": "dispatcher_cwd"})) == []


def test_enter_worktree_records(repo: Repo) -> None:
    main, w = str(repo.main), str(repo.worktree)
    assert full_records(agent(repo, {"path": main}, tool="EnterWorktree")) == [{
        "code": "WG505", "rule": "dispatch", "tool": "EnterWorktree", "severity": "error",
        "message": f"EnterWorktree would move this agent to {main}, outside its own worktree {w}; stay in {w}.",
        "path": main, "resolved": main, "worktree_root": w, "shared_root": main, "fixed_input": None, "fix_in_enforce": False,
    }]
    for value in ("", 3, "a\0b"):
        (finding,) = agent(repo, {"path": value}, tool="EnterWorktree").violations
        assert (finding.code, finding.message) == ("WG000", f"The EnterWorktree call's `path` is not a usable path ({value!r}), so worktree-guard cannot check it.")
    assert agent(repo, {"path": f"{w}/src"}, tool="EnterWorktree").decision == "pass"


# --- rules/bash.py: the Bash rule's own findings and how it gathers the others' -----------------------------


@pytest.mark.parametrize("command", [None, 3, ["ls"]])
def test_a_shell_call_without_a_command_string_is_wg000(world: Repo, command: object) -> None:
    verdict = file_tool(world, "Bash", {"command": command, "description": "t"})
    assert records(verdict) == [{
        "code": "WG000", "rule": "bash", "tool": "Bash", "severity": "error",
        "message": "The Bash call has no `command` string, so worktree-guard cannot check it.",
        "worktree_root": str(world.worktree),
    }]


def test_a_monitor_without_a_command_watches_a_socket_and_runs_nothing(world: Repo) -> None:
    """Claude Code's Monitor takes `command`, or `ws: {url, protocols?}` (hook-protocols.md): only the second,
    with no `command` key at all, runs nothing."""
    ws = {"url": "ws://127.0.0.1:1", "protocols": ["v1"]}
    assert file_tool(world, "Monitor", {"ws": ws, "description": "t"}).decision == "pass"
    assert file_tool(world, "Monitor", {"command": fill("touch {MAIN}/x", world)}).codes == ["WG401"]
    assert file_tool(world, "Monitor", {"ws": ws, "command": fill("touch {MAIN}/x", world)}).codes == ["WG401"]  # both: it runs the command
    assert file_tool(world, "Bash", {"description": "t"}).codes == ["WG000"]


@pytest.mark.parametrize("tool_input", [
    {"description": "t"},  # neither
    {"url": "ws://127.0.0.1:1"},  # not Monitor's field
    {"ws": {"url": "ws://127.0.0.1:1"}, "command": None},  # a command of null is no socket
    {"ws": "ws://127.0.0.1:1"},  # a `ws` that is no object
    {"ws": None},
    {"Command": "touch x"},  # field names are exact
])
def test_a_monitor_naming_no_usable_command_nor_socket_is_wg000_as_bash_is(world: Repo, tool_input: dict) -> None:
    verdict = file_tool(world, "Monitor", tool_input)
    assert records(verdict) == [{
        "code": "WG000", "rule": "bash", "tool": "Monitor", "severity": "error",
        "message": "The Monitor call has no `command` string, so worktree-guard cannot check it.",
        "worktree_root": str(world.worktree),
    }]


def test_the_budget_and_parse_findings_say_what_to_do(world: Repo) -> None:
    command = "echo " + "a" * (70 * 1024)
    (budget,) = bash(world, command).violations
    assert budget.message.startswith("The command is over worktree-guard's budget (")
    assert budget.message.endswith("); split it into smaller commands.")
    assert (budget.rule, budget.span, budget.severity) == ("bash", (0, len(command)), "error")
    (parse,) = bash(world, "echo 'unterminated").violations
    assert parse.message.startswith("worktree-guard cannot parse this command (")
    assert parse.message.endswith("); rewrite it in a simpler form (plain commands joined with && or ;).")
    assert (parse.rule, parse.severity) == ("bash", "error")


def test_findings_of_one_step_come_in_the_rules_registration_order(world: Repo) -> None:
    """writes is registered before program-code: a `sed -i` into the main checkout that runs its pattern space."""
    assert bash(world, "sed -i 's/x/y/e' {MAIN}/README.md").codes == ["WG401", "WG404"]


def test_the_agents_environment_gives_the_shell_its_tmpdir_and_cdpath(world: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TMPDIR", str(world.main))
    assert bash(world, 'touch "$TMPDIR/x"').codes == ["WG401"]
    monkeypatch.delenv("TMPDIR")
    assert bash(world, 'touch "${TMPDIR:-/tmp}/x"').decision == "pass"
    monkeypatch.setenv("CDPATH", "/etc")
    assert bash(world, "cd src").codes == ["WG202"]  # CDPATH may send `cd src` elsewhere
    monkeypatch.delenv("CDPATH")
    assert bash(world, "cd src").decision == "pass"


# --- rules/writes.py: each kind of written path, with the record the agent reads ----------------------------

WRITE_RECORDS = [
    ("echo x > {MAIN}/a", [("WG401", "the redirection `>` writes {MAIN}/a in the shared checkout {MAIN}, not in this agent's worktree {W}.",
                            "{MAIN}/a", "{MAIN}/a", "{MAIN}", "{W}/a")]),
    ("touch /etc/x", [("WG402", "`touch` (operand) writes /etc/x, outside this agent's worktree {W} and the allow-list.", "/etc/x", "/etc/x", None, None)]),
    ("touch .git/x", [("WG103", "`touch` (operand) writes {W}/.git/x, which is protected inside this worktree.", ".git/x", "{W}/.git/x", None, None)]),
    ("touch $X", [("WG403", "`touch` (operand) writes '$X', which is only known at run time; use a literal path inside {W}.", "$X", None, None, None)]),
    ("cd $D; touch a", [("WG202", None, "$D", None, None, None),
                        ("WG403", "`touch` (operand) writes the relative path 'a' after a directory change worktree-guard cannot follow; use an absolute path inside {W}.", "a", None, None, None)]),
    ("ln -s {MAIN}/README.md x", [("WG401", "`ln` (a link to it) links to {MAIN}/README.md in the shared checkout {MAIN}, not in this agent's worktree {W}. "
                                   "Writing through the link would change the shared file.", "{MAIN}/README.md", "{MAIN}/README.md", "{MAIN}", "{W}/README.md")]),
    ("rm -rf {MAIN}/..", [("WG401", "`rm` (operand) reaches everything below {BASE}, which holds the shared checkout {MAIN}.", "{MAIN}/..", "{BASE}", "{MAIN}", None)]),
    ("cp a {MAIN}/src/$X", [("WG401", "`cp` (operand) writes '{MAIN}/src/$X', which starts in {MAIN}/src in the shared checkout {MAIN}, not in this agent's worktree {W}.",
                             "{MAIN}/src/$X", "{MAIN}/src", "{MAIN}", "{W}/src")]),
    ("somewriter {MAIN}/README.md", [("WG406", "`somewriter`, a program worktree-guard does not know, is given {MAIN}/README.md in the shared checkout {MAIN}; "
                                      "it may write it, so it counts as written. Work on the copy in {W}.", "{MAIN}/README.md", "{MAIN}/README.md", "{MAIN}", "{W}/README.md")]),
    ("cd $D; somewriter a", [("WG202", None, "$D", None, None, None)]),  # an operand after an unknown cd is not at the boundary
    ("somewriter $X", []),
    ("cd {BASE} && somewriter repo/README.md", [("WG406", None, "repo/README.md", "{MAIN}/README.md", "{MAIN}", "{W}/README.md")]),
]


@pytest.mark.parametrize(("command", "expected"), WRITE_RECORDS)
def test_a_written_path_gets_its_exact_record(world: Repo, command: str, expected: list) -> None:
    def place(text: str | None) -> str | None:
        return None if text is None else fill(text, world).replace("{BASE}", str(world.main.parent))

    got = [(v.code, v.message if want[1] is not None else None, v.path, v.resolved, v.shared_root, v.suggestion)
           for v, want in zip(bash(world, place(command)).violations, expected)]
    assert len(bash(world, place(command)).violations) == len(expected), command
    assert got == [tuple(place(x) for x in row) for row in expected], command


def test_a_written_span_is_the_word_written(world: Repo) -> None:
    command = fill("echo x >> {MAIN}/a", world)
    (v,) = bash(world, command).violations
    assert command[v.span[0]:v.span[1]] == f"{world.main}/a"
