"""Every reading the git rule makes, pinned whole and called in this process (issue 13, phase 17, `rules/git`).

Phase 13's mutmut run reached `_side_doors` only through tests its recorded coverage did not send the mutants to
(288 of its mutants never ran), and each of those tests builds a repository of three worktrees. Here one world is
built once (the `world` of tests/test_bash_rules.py: W a linked worktree inside the main checkout {MAIN}, a sibling
agent's worktree {SIB}, a worktree {OUT} outside the main checkout, `feature` a branch no checkout has, `to-main` a
link in W to {MAIN}; here also {MAIN}/vendor, a repository of its own inside the main checkout, {BASE}/gitfile naming
{MAIN}/.git, {BASE}/gitfile-refs naming {MAIN}/.git/refs, and gitfiles to {MAIN}/.git at {BASE}/sfx-a.git, {BASE}/sfx-b/.git,
{BASE}/sfx-c.git/.git), and each row is judged through the engine in this process. Its reading is every code of the
verdict, the git rule's records whole (code, message, path fields, the text the span covers, the paths written as
{MAIN}, {W}, {SIB}, {OUT}, {BASE}), and what `writes_repository` (a shared-workspace worker's WG703 table) says of
each git step.

`git_rule_readings.json` holds the readings: under "harvested", the git commands of the rule tests at phase 17
(tests/test_git_mutants.py, test_bash_rules.py, test_bash_review10_*.py, test_bash_boundary.py, test_rule_mutants.py)
and of shell/git_call's readings (/m, /w, /b written back as {MAIN}, {W}, {BASE}); under "rows", ROWS below, added
for the mutants those left alive. The readings pin what the code does now; a change of a reading is a change of what
the guard decides, to be read in the diff of the JSON file, which
`python -m tests.test_git_rule_mutants --write` rewrites.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tests.readings import rule_record, world_environment, write_readings

READINGS = Path(__file__).with_name("git_rule_readings.json")
OUTSIDE_HOME = "/opt/wg-test-home"  # tests/test_bash_rules.py's HOME for the world
WORLD_PATH_LENGTH = 150

# Rows added in phase 17 for the mutants the harvested commands left alive (the mutant each kills in docs/testing.md).
ROWS: list[str] = [
    # _sets_a_moving_key: an edited, renamed or removed section, and the verbs, leave W's config untrusted for the
    # later git (WG404) whatever the operands are (git itself refuses `-e` with operands)
    "git config -e user.name x && git status",
    "git config --edit user.name x && git status",
    "git config --rename-section user.name x && git status",
    "git config --remove-section user.name x && git status",
    "git config set core.worktree /x && git status",
    "git config unset core.worktree && git status",
    "git config edit user.name x && git status",
    "git config rename-section a b && git status",
    "git config remove-section a b && git status",
    # worktree_guard_shell_command: a repository nested in a shared checkout is named by that checkout's root
    "git -C {MAIN}/vendor reset --hard",
    # _option_like_beside_a_branch: a branch named after a literal word's last `=`, in the check and the message; a
    # glob whose names start with no `-` now is no option (the command's shell state is read: W holds README.md)
    'git branch "$X" --set-upstream-to=main',
    'git branch "$X" x=main',
    "git branch *.md main",
    # _side_doors: a fetch given only --refmap is judged by it (a cautious reading: git applies --refmap to refspecs
    # on the command line only)
    "git fetch . --refmap=x:main",
    "git fetch . --stdin",  # its refspecs come from its input, with no refspec or unknown word on the command line
    "git push --refmap=x:main",  # no remote: a push's is not the directory it runs in (git has no push --refmap)
    "git -C {BASE} fetch x main:main",  # run in no repository: another repository's refs, not this one's
    'git fetch . "$X" x*:main',  # an unknown word, then a glob refspec into main: both reasons
    # _shared_branches_in: a `?` is no wildcard in a refspec git reads (only in a glob bash expands); a bare
    # destination is a pattern only for such a glob; git splits a refspec at its last colon
    "git config --worktree remote.o.fetch 'x:mai?'",
    "git fetch . 'x:r*/heads/main'",
    "git fetch . a:b:main",
    # _unknown_words: a named option's value quoted as one parameter is exempt from a three-letter abbreviation on,
    # but not --refmap's in any abbreviation; the words after an exempt one are still read
    'git fetch . --j="$N"',
    'git fetch . --ref="$R"',
    'git fetch . --depth="$N" "$R"',
    # _refspec_pattern and _unknown_words: a glob refspec read with the command's variables, its first character a
    # wildcard or not; a glob after `-`: --refmap's in any abbreviation from three letters, split at its first `=`,
    # a `?` a wildcard in it; another option's is unknown (with or without a colon)
    'B=x; git fetch . "$B"*:main',
    "git fetch . x*:main",
    "git fetch . X*:main",
    "git fetch . --r=x*:main",
    "git fetch . --depth=x*:main",
    "git fetch . -j=x*:main",
    "git fetch . --depth=x*",
    "git fetch . --refmap=x?:mai?",
    "git fetch . --refmap=x*:a=main",
    # _worktree_config: `git sparse-checkout` passes where the repository keeps per-worktree config, in each
    # spelling git reads as true (the row's prefix sets extensions.worktreeConfig in the common config for it)
    "[extensions.worktreeConfig=true] git sparse-checkout set a",
    "[extensions.worktreeConfig=True] git sparse-checkout set a",
    "[extensions.worktreeConfig=yes] git sparse-checkout set a",
    "[extensions.worktreeConfig=on] git sparse-checkout set a",
    "[extensions.worktreeConfig=1] git sparse-checkout set a",
    "[extensions.worktreeConfig=false] git sparse-checkout set a",
    # _runs_in_this_repository: a git dir inside the common dir that no checkout owns, given by path, by a path with
    # `..`, or run from inside it
    "git -C {BASE} --git-dir={MAIN}/.git/refs fetch x main:main",
    "git -C {BASE} --git-dir={MAIN}/.git/refs/../refs fetch x main:main",
    "GIT_DIR={MAIN}/.git/refs git -C {BASE} fetch x main:main",
    "git -C {MAIN}/.git/refs --git-dir={MAIN}/.git/refs fetch x main:main",
    "git -C {MAIN}/.git/refs --git-dir={BASE}/none fetch x main:main",  # run inside the common dir
    "git -C {BASE} --git-dir={BASE}/gitfile-refs fetch x main:main",  # a gitfile into the common dir
    # _is_this_repository: the suffixes git tries, and a gitfile followed
    "git push -q {BASE}/sfx-a HEAD:main",
    "git push -q {BASE}/sfx-b HEAD:main",
    "git push -q {BASE}/sfx-c HEAD:main",
    "git push -q {BASE}/gitfile HEAD:main",
    # _writes_config: each reading option and verb with two operands reads; each writing one with one operand writes
    "git config --get a b", "git config --get-all a b", "git config --get-regexp a b", "git config --get-urlmatch a b",
    "git config -l a b", "git config --list a b", "git config --get-color a b", "git config --get-colorbool a b",
    "git config get a b", "git config list a b",
    "git config --unset a", "git config --unset-all a", "git config --add a", "git config --replace-all a",
    "git config --rename-section a", "git config --remove-section a", "git config -e a", "git config --edit a",
    "git config set", "git config unset", "git config rename-section", "git config remove-section", "git config edit",
    # _sets_a_moving_key: after `set`/`unset` the key and value are read; with neither the write may be anything
    "git config set user.name x && git status",
    "git config unset user.name && git status",
    "git config set && git status",
    "git config protocol.ext.allow never && git status",  # the value is read: `never` allows no ext:: transport
    # phase 22 (stop 36): a place through the git process's own /proc directory is no place the guard can name: `git
    # init` that rewrites is refused there, and such a remote is this repository (it may be); a new repository elsewhere
    # and a remote elsewhere pass
    "git init -q --template=/tmp/t /proc/self/cwd/../x",
    "git init -q --template=/tmp/t {BASE}/new",
    "git push -q /proc/self/cwd/../../.. HEAD:main",
    "git push -q {BASE}/elsewhere HEAD:main",
    # phase 24 (m39a): a remote's `~` (one bash left alone) is git's, expanded with the HOME the command has, which is
    # the path policy's home (`validate` gives the recorded one; the hook, the process's): {BASE}/repo is the main
    # checkout (_is_this_repository 58, 61 read the process's HOME, /opt/wg-test-home)
    "[policy-home={BASE}] git push -q '~/repo' HEAD:main",
    "[policy-home={BASE}] git push -q '~/elsewhere' HEAD:main",
    # phase 24 (m39a): a glob refspec holding a backslash is only known at run time (_refspec_pattern 15)
    "git fetch . x\\\\*:main",
    'git fetch . "x\\\\"*:main',
]


def make_world(base: Path):
    """tests/test_bash_rules.py's `world`, built in `base` (HOME, TMPDIR and CDPATH are the caller's to set)."""
    from tests.helpers import git, make_repo

    # the world's paths have one length wherever it is built, so that the spans are the same numbers in every run
    padding = WORLD_PATH_LENGTH - len(str(Path(os.path.realpath(base)) / "work")) - 1
    assert padding > 0, f"{base} is too long a place for the world"
    repo = make_repo(base / ("p" * padding) / "work")
    assert len(str(repo.base)) == WORLD_PATH_LENGTH
    (repo.worktree / "src").mkdir(exist_ok=True)
    (repo.worktree / "to-main").symlink_to(repo.main)
    (repo.worktree / "to-ssl").symlink_to("/etc/ssl")
    git("branch", "feature", cwd=repo.main)
    git("init", "-q", str(repo.main / "vendor"), cwd=repo.main)  # a repository of its own inside the main checkout
    (repo.base / "gitfile").write_text(f"gitdir: {repo.main}/.git\n")  # a gitfile outside every checkout
    (repo.base / "gitfile-refs").write_text(f"gitdir: {repo.main}/.git/refs\n")  # one naming no git dir of a checkout
    # the forms git tries after a local remote's path: <p>.git, <p>/.git, <p>.git/.git (gitfiles to the main checkout's)
    for name in ("sfx-a.git", "sfx-b/.git", "sfx-c.git/.git"):
        (repo.base / name).parent.mkdir(parents=True, exist_ok=True)
        (repo.base / name).write_text(f"gitdir: {repo.main}/.git\n")
    return repo


class _Steps:
    """Records what `writes_repository` says of each git step the walker hands the rules."""

    def __init__(self) -> None:
        self.seen: list[bool] = []

    def hook(self):
        from worktree_guard.hookspecs import hookimpl

        steps = self

        class Plugin:
            @hookimpl
            def worktree_guard_shell_command(self, command, ctx):
                if command.name == "git":
                    from worktree_guard.rules.git import writes_repository
                    from worktree_guard.shell.git_call import read_git_call

                    steps.seen.append(writes_repository(read_git_call(command)))
                return None

        return Plugin()


_PM = None
_STEPS = _Steps()


def plugins():
    global _PM
    if _PM is None:
        from worktree_guard.plugins import plugin_manager

        _PM = plugin_manager()
        _PM.register(_STEPS.hook(), name="phase-17-writes-repository")
    return _PM


def reading(repo, command: str, home: str | None = None) -> dict:
    """What the guard decides for `command` run in W: every code, the git rule's records, writes_repository per step.
    A row `[policy-home=P] …` gives the path policy the home P (as `validate` gives the recorded one:
    `context_for_layout`), the process's HOME left as it is."""
    from tests.helpers import subagent_payload
    from worktree_guard.engine import build_context, context_for_layout, decide
    from worktree_guard.runtimes.claude_code import to_tool_call

    names = (("{W}", repo.worktree), ("{SIB}", repo.sibling), ("{OUT}", repo.outside), ("{MAIN}", repo.main), ("{BASE}", repo.base))

    def unfill(text: str) -> str:
        for name, path in names:
            text = text.replace(str(path), name)
        return text

    if command.startswith("[extensions.worktreeConfig="):
        from tests.helpers import git

        value, _, rest = command[len("[extensions.worktreeConfig="):].partition("] ")
        git("config", "extensions.worktreeConfig", value, cwd=repo.main)
        try:
            return reading(repo, rest)
        finally:
            git("config", "--unset", "extensions.worktreeConfig", cwd=repo.main)
    if command.startswith("[policy-home="):
        policy_home, _, rest = command[len("[policy-home="):].partition("] ")
        for name, path in reversed(names):
            policy_home = policy_home.replace(name, str(path))
        return reading(repo, rest, policy_home)
    main = str(repo.main)
    filled = command.replace("{MAINENC}", "/%" + format(ord(main[1]), "02x") + main[2:])  # its first letter %-encoded
    for name, path in reversed(names):
        filled = filled.replace(name, str(path))
    call = to_tool_call(subagent_payload(repo, "Bash", {"command": filled, "description": "test"}))
    pm = plugins()
    ctx = build_context(call, pm=pm)
    if home is not None:
        ctx = context_for_layout(call, ctx.layout, ctx.scope.config, pm, home=home)
    _STEPS.seen = []
    verdict = decide(call, ctx)
    # a span's offsets, not its text: a span in code git takes from a variable may cut a path, whose text differs
    records = [rule_record(v, unfill, filled) for v in verdict.violations if v.rule == "git"]
    out: dict = {"codes": sorted({v.code for v in verdict.violations})}
    if records:
        out["git"] = records
    if any(_STEPS.seen):
        out["writes"] = _STEPS.seen
    return out


def all_commands(saved: dict | None) -> dict[str, list[str]]:
    harvested = list((saved or {}).get("harvested", {}))
    return {"harvested": harvested, "rows": list(dict.fromkeys(ROWS))}


def readings(repo, commands: dict[str, list[str]]) -> dict:
    with world_environment(OUTSIDE_HOME):
        return {part: {c: reading(repo, c) for c in rows} for part, rows in commands.items()}


def test_every_reading_of_the_git_rule(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", OUTSIDE_HOME)
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.delenv("CDPATH", raising=False)
    saved = json.loads(READINGS.read_text())
    commands = all_commands(saved)
    assert set(commands["rows"]) == set(saved["rows"]), "rows and readings differ: run with --write"
    repo = make_world(tmp_path)
    # the rows first, the newest first (the same readings): a mutant of code changed since the harvest is told apart by a
    # recent row, and an in-process screening stops at the first difference instead of reading the harvest first
    for part in ("rows", "harvested"):
        rows = commands[part][::-1] if part == "rows" else commands[part]
        for command in rows:
            assert reading(repo, command) == saved[part][command], command


if __name__ == "__main__" and sys.argv[1:2] == ["--write"]:
    saved = json.loads(READINGS.read_text()) if READINGS.exists() else {}
    if sys.argv[2:]:  # the harvested commands, from a JSON list or object (phase 17's harvest)
        saved["harvested"] = dict.fromkeys(json.loads(Path(sys.argv[2]).read_text()))
    write_readings(READINGS, make_world, lambda repo: readings(repo, all_commands(saved)), parts=True)
