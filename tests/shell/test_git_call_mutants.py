"""Every reading shell/git_call.py makes of a git command, pinned whole (issue 13, phase 15).

`shell/git_call` had only been reached through the git rule's tests, which look at the verdict: most of what the
module reads (the call's fields, its parsed options, the targets of `git_writes` with their words and bases, the
scripts and reasons of `git_code`, where it places the work tree, what it takes as written first) can change
without a verdict changing in those rows. Its first mutation run left a third of its 2,891 mutants alive.

`git_call_readings.json` holds, for each command (the git commands of the rule tests, `{MAIN}` as /m, W as /w,
`{BASE}` as /b, and the rows added for this phase), every git step the walker hands the rules (from /w, HOME /h)
and what each function of git_call makes of it (`reading`, defaults left out). The rows with a shell state (what
the command wrote first, the repositories it made or configured) are `STATE_ROWS`. The readings pin what the code
does now; a change of a reading is a change of what the guard sees, to be read in the diff of the JSON file, which
`python -m tests.shell.test_git_call_mutants --write` rewrites.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


from worktree_guard.shell import git_call as g
from worktree_guard.shell.parse import parse
from worktree_guard.shell.state import ShellState

READINGS = Path(__file__).with_name("git_call_readings.json")


def raw(word):
    return None if word is None else word.raw


def target(t):
    row = [raw(t.word), t.value, t.how]
    defaults = {"recursive": False, "kind": "write", "base": None, "follows_links": False}
    extra = {k: getattr(t, k) for k in defaults if getattr(t, k) != defaults[k]}
    return (*row, extra) if extra else tuple(row)


def reading(step) -> dict:
    """What each function of git_call makes of one git step (values equal to their default left out)."""
    call = g.read_git_call(step)
    fields = {
        "subcommand": call.subcommand, "args": [v for _, v in call.args], "run_dir": call.run_dir, "git_dir": call.git_dir,
        "work_tree": call.work_tree, "dynamic": call.dynamic, "configs": [(raw(w), s) for w, s in call.configs],
        "config_envs": [(raw(w), s) for w, s in call.config_envs], "unknown_configs": [raw(w) for w in call.unknown_configs],
        "subcommand_dynamic": call.subcommand_dynamic, "names_git_dir": call.names_git_dir, "git_dir_given": call.git_dir_given,
        "git_dir_word": raw(call.git_dir_word), "names_work_tree": call.names_work_tree, "work_tree_word": raw(call.work_tree_word),
        "exec_paths": call.exec_paths,
    }
    out = {k: v for k, v in fields.items() if v not in (None, False, [])}
    if call.subcommand is not None:
        parsed = call.parsed()
        out["options"] = {k: [(raw(w), v) for w, v in entries] for k, entries in parsed.options.items()}
        out["operands"] = [v for _, v in parsed.operands]
        if parsed.dynamic_option:
            out["dynamic_option"] = True
    for name in ("is_read_only", "asks_for_help", "clone_settings", "init_git_dir"):
        value = getattr(g, name)(call)
        if name == "clone_settings":
            value = [(raw(w), s) for w, s in value]
        if value not in (None, False, []):
            out[name] = value
    for name in ("affected_checkouts", "checkout_top"):
        out[name] = getattr(g, name)(call, step.home)
    for name in ("filled_directories", "copies_template", "sets_config", "unread_config", "config_repository",
                 "unread_repository_config", "written_location", "clone_directory"):
        value = getattr(g, name)(call, step)
        if value not in (None, False, []):
            out[name] = value
    unlisted = g.unlisted_directories(step)  # phase 23 (m38b): where it makes names the guard does not know
    if unlisted:
        out["unlisted_directories"] = unlisted
    writes = [target(t) for t in g.git_writes(step)]
    if writes:
        out["writes"] = writes
    code = g.git_code(step, call)
    if code.scripts:
        out["scripts"] = code.scripts
    if code.argv:
        out["argv"] = [([raw(w) for w in words], top) for words, top in code.argv]
    if code.opaque:
        out["opaque"] = code.opaque
    return out


def git_steps(command: str, state: ShellState | None = None) -> list:
    """The git steps the walker hands the rules for `command`, from /w with HOME /h."""
    from tests.shell.test_shell_mutants import bare_walker

    walker, seen = bare_walker()
    walker.walk_script(parse(command), state or ShellState(cwd="/w"))
    return [step for step in seen if step.name == "git"]


#: (command, what the command wrote first, the repositories git filled, the repositories configured, variables):
#: the readings that depend on the shell state the rules keep (`written_location`, `unread_repository_config`,
#: `config_repository`, `_git_dir_written`, `_home_config`).
STATE_ROWS: list[tuple[str, list, list, list, dict]] = [
    # a git dir written first: its control files, not what is left there (description, logs)
    ("git status", ["/w/.git/config"], [], [], {}),
    ("git status", ["/w/.git/description"], [], [], {}),
    ("git status", ["/w/.git/hooks/pre-commit"], [], [], {}),
    ("git status", ["/w/.git/hooks"], [], [], {}),
    ("git status", ["/w/.git/info"], [], [], {}),
    ("git status", ["/w/.git"], [], [], {}),
    ("git status", ["/w/.git/"], [], [], {}),
    ("git status", ["/.git/config"], [], [], {}),
    ("git status", ["/wx/.git/config"], [], [], {}),
    ("git -C /w/sub status", ["/w/.git/config"], [], [], {}),
    ("git -C /w/sub status", ["/w/sub/.git/HEAD"], [], [], {}),
    ("git -C /x status", ["/w/.git/config"], [], [], {}),
    ("git -C $D status", ["/w/.git/config"], [], [], {}),
    ("git --git-dir=/g status", ["/g/config"], [], [], {}),
    ("git --git-dir=/g/ status", ["/g/hooks/x"], [], [], {}),
    ("git --git-dir=/g status", ["/g/description"], [], [], {}),
    ("git --git-dir=/g status", ["/gx/config"], [], [], {}),
    ("git --git-dir=/g status", ["/"], [], [], {}),
    ("git --git-dir=/g status", ["/g"], [], [], {}),
    ("git --git-dir=/g/x status", ["/g"], [], [], {}),
    ("git status", [], [], [], {"GIT_DIR": "/g"}),
    ("git status", ["/g/refs/heads/main"], [], [], {"GIT_DIR": "/g"}),
    # where git runs or works, written first
    ("git status", ["/w"], [], [], {}),
    ("git status", ["/w/"], [], [], {}),
    ("git status", ["/"], [], [], {}),
    ("git status", ["/w/a"], [], [], {}),
    ("git status", ["/wx"], [], [], {}),
    ("git -C /w/a/b status", ["/w/a"], [], [], {}),
    ("git --work-tree=/t status", ["/t"], [], [], {}),
    ("git --work-tree=/t status", ["/t/a"], [], [], {}),
    ("git --work-tree=/t status", ["/"], [], [], {}),
    ("git status", [None], [], [], {}),
    ("git status", [None, "/w/.git/config"], [], [], {}),
    # what git filled itself, and this git's own outputs, are no earlier write
    ("git -C /w/r status", ["/w/r"], ["/w/r"], [], {}),
    ("git -C /w/r status", ["/w/r", "/w/r/.git/config"], ["/w/r"], [], {}),
    ("git diff --output=/w/o", ["/w/o"], [], [], {}),
    ("git diff --output=/w/.git/config", ["/w/.git/config"], [], [], {}),
    ("git diff --output=/w/.git/config", ["/w/.git/config", "/w/.git/config"], [], [], {}),
    ("git diff --output=/w/.git/config", ["/w/.git/config", "/w/a", "/w/.git/config", "/w/b"], [], [], {}),
    # the repository `git config` writes: the git dir, the one the command made around it, the checkout
    ("git -C /w/r/sub config a.b c", [], ["/w/r", "/w"], [], {}),
    ("git -C /w/r config a.b c", [], ["/w/r/"], [], {}),
    ("git -C /w/rx config a.b c", [], ["/w/r"], [], {}),
    ("git --git-dir=/g config a.b c", [], ["/w"], [], {}),
    ("git -C $D config a.b c", [], ["/w"], [], {}),
    # a repository whose config the command set
    ("git -C /c/sub status", [], [], ["/c"], {}),
    ("git -C /c status", [], [], ["/c"], {}),
    ("git -C /cx status", [], [], ["/c"], {}),
    ("git --git-dir=/c/.git status", [], [], ["/c"], {}),
    ("git --git-dir=/c/.git status", [], [], ["/d", "/c"], {}),
    ("git -C $D status", [], [], ["/c"], {}),
    ("git status", [], [], ["/w/x"], {}),
    ("git status", ["/w/x/.git/config"], [], ["/w/x"], {}),
    # a HOME or XDG_CONFIG_HOME whose git config the command wrote first
    ("HOME=/h2 git log", ["/h2/.gitconfig"], [], [], {}),
    ("HOME=/h2 git log", ["/h2/.config/git/config"], [], [], {}),
    ("HOME=/h2 git log", ["/h2/.lesskey"], [], [], {}),
    ("HOME=/h2 git log", ["/h2/other"], [], [], {}),
    ("HOME=/h2 git log", [None], [], [], {}),
    ("HOME=/h git log", ["/h/.gitconfig"], [], [], {}),
    ("HOME=h2 git log", ["/w/h2/.gitconfig"], [], [], {}),
    ("HOME=$U git log", [], [], [], {}),
    ("git log", ["/h2/.gitconfig"], [], [], {"HOME": "/h2"}),
    ("XDG_CONFIG_HOME=/x git log", ["/x/git/config"], [], [], {}),
    ("XDG_CONFIG_HOME=/x git log", ["/x/lesskey"], [], [], {}),
    ("XDG_CONFIG_HOME=/h git log", ["/h/git/config"], [], [], {}),
    ("XDG_CONFIG_HOME=x git log", ["/w/x/git/config"], [], [], {}),
    ("XDG_CONFIG_HOME=$X git log", [], [], [], {}),
    ("HOME=$U XDG_CONFIG_HOME=/x git log", ["/x/git/config"], [], [], {}),
    ("git diff --output=/w/.git/config", ["/w/.git/config", "/w", "/w/.git/config", "/w/b"], [], [], {}),
    ("git diff --output=/w/.git/config", ["/w/.git/config", "/w/b", "/w/.git/config", "/w"], [], [], {}),
    ("git --git-dir=/gX status", ["/gX/config"], [], [], {}),
    ("git --git-dir=/ status", ["/config"], [], [], {}),
    ("git -C /a/.git/b status", ["/a/.git/b/.git/config"], [], [], {}),
    # this git's own outputs: not its operands (an unknown subcommand's), each target read (not the first only)
    ("git interpret-trailers --in-place /w/.git/config", ["/w/.git/config"], [], [], {}),
    ("GIT_INDEX_FILE=$I git diff --output=/w/.git/config", ["/w/.git/config"], [], [], {}),
    ("GIT_INDEX_FILE=.git/config git status", ["/w/.git/config"], [], [], {}),
    ("GIT_INDEX_FILE='~/.git/config' git -C /h status", ["/h/.git/config"], [], [], {}),
    ("git -C $D --work-tree=/t status", ["/t"], [], [], {}),
    ("git -C /w/a status", ["/wX"], [], [], {}),
    ("git --git-dir=/g/x status", ["/gX"], [], [], {}),
    ("git -C /w/r/sub config a.b c", [], ["/w/rX"], [], {}),
    ("git -C /w/r/sub config a.b c", [], ["/w/r/"], [], {}),
    # phase 23 (m38b): a relative HOME is read from the cwd and from git's -C directory (review 32b), each
    ("HOME=h2 git -C /x log", ["/w/h2/.gitconfig"], [], [], {}),
    ("HOME=h2 git -C /x log", ["/x/h2/.gitconfig"], [], [], {}),
    ("HOME=h2 git -C /x log", ["/h2/.gitconfig"], [], [], {}),
    # phase 24 (m39a): an own output git places only at run time (relative, from a cwd only known then) is skipped and
    # the ones after it still read: the git dir's config is this git's own output, no earlier write (_own_outputs 27)
    ('cd "$D"; git --git-dir=/g diff --output=o --output=/g/config', ["/g/config"], [], [], {}),
    ('cd "$D"; GIT_INDEX_FILE=i GIT_TRACE=/g/config git --git-dir=/g status', ["/g/config"], [], [], {}),
]


def state_of(written: list, repositories: list, configured: list, variables: dict) -> ShellState:
    return ShellState(cwd="/w", written=list(written), repositories=list(repositories), configured=list(configured),
                      variables=dict(variables))


def state_key(row: tuple) -> str:
    return json.dumps(row)


def readings_now() -> dict:
    commands = json.loads(READINGS.read_text())["commands"] if READINGS.exists() else {}
    return {
        "commands": {command: [reading(s) for s in git_steps(command)] for command in commands},
        "state": {state_key(row): [reading(s) for s in git_steps(row[0], state_of(*row[1:]))] for row in STATE_ROWS},
    }


def normal(value):
    return json.loads(json.dumps(value))


SAVED = json.loads(READINGS.read_text()) if READINGS.exists() else {"commands": {}, "state": {}}


def test_every_reading_of_a_git_command() -> None:
    """One test for all the rows (1 ms to 10 ms each): a mutant is then one test run, not hundreds."""
    for command, expected in SAVED["commands"].items():
        assert normal([reading(s) for s in git_steps(command)]) == expected, command


def test_every_reading_after_what_the_command_did_first() -> None:
    assert {state_key(row) for row in STATE_ROWS} == set(SAVED["state"])
    for row in STATE_ROWS:
        assert normal([reading(s) for s in git_steps(row[0], state_of(*row[1:]))]) == SAVED["state"][state_key(row)], row


# -- `git init` through a `.git` link that exists (layout.git_dir_link reads the filesystem) -------------------------

#: command → the targets git_writes gives for init (`how` starting "init"), {T} the temporary directory: T/d/.git and
#: T/.git are files `gitdir: T/g`, T/e/.git a directory, T/l/.git and T/gitX symlinks to T/g, T/loop/.git a link to itself.
INIT_THROUGH_A_LINK = {
    "git init {T}/d": [("{T}/d", "{T}/d", "init", {"base": "/w"}), ("{T}/d", "{T}/g", "init, the git dir {T}/d/.git links to", {"base": "/w"})],
    "git init {T}/d/": [("{T}/d/", "{T}/d/", "init", {"base": "/w"}), ("{T}/d/", "{T}/g", "init, the git dir {T}/d/.git links to", {"base": "/w"})],
    "git init --bare {T}/d": [("{T}/d", "{T}/d", "init", {"base": "/w"})],
    "git -C {T} init d": [("d", "d", "init", {"base": "{T}"}), ("d", "{T}/g", "init, the git dir {T}/d/.git links to", {"base": "{T}"})],
    "git -C {T} init": [(None, "\x00cwd", "init", {"base": "{T}"}), (None, "{T}/g", "init, the git dir {T}/.git links to", {"base": "{T}"})],
    "git -C {T}/d init": [(None, "\x00cwd", "init", {"base": "{T}/d"}), (None, "{T}/g", "init, the git dir {T}/d/.git links to", {"base": "{T}/d"})],
    "git -C $D init d": [("d", "d", "init", {"base": "\x00unknown"})],
    "git init {T}/e": [("{T}/e", "{T}/e", "init", {"base": "/w"})],
    "git init {T}/l": [("{T}/l", "{T}/l", "init", {"base": "/w"}), ("{T}/l", "{T}/g", "init, the git dir {T}/l/.git links to", {"base": "/w"})],
    "git init {T}/x": [("{T}/x", "{T}/x", "init", {"base": "/w"})],
    "GIT_DIR={T}/d/.git git init": [("{T}/d/.git", "{T}/d", "init, the git dir named by GIT_DIR or --git-dir", {"base": "/w"}),
                                    ("{T}/d/.git", "{T}/g", "init, the git dir {T}/d/.git links to", {"base": "/w"})],
    "git --git-dir={T}/d/.git init": [("--git-dir={T}/d/.git", "{T}/d", "init, the git dir named by GIT_DIR or --git-dir", {"base": "/w"}),
                                      ("--git-dir={T}/d/.git", "{T}/g", "init, the git dir {T}/d/.git links to", {"base": "/w"})],
    "GIT_DIR={T}/d/.git/ git init": [("{T}/d/.git/", "{T}/d", "init, the git dir named by GIT_DIR or --git-dir", {"base": "/w"}),
                                     ("{T}/d/.git/", "{T}/g", "init, the git dir {T}/d/.git links to", {"base": "/w"})],
    "GIT_DIR=d/.git git -C {T} init": [("d/.git", "{T}/d", "init, the git dir named by GIT_DIR or --git-dir", {"base": "{T}"}),
                                       ("d/.git", "{T}/g", "init, the git dir {T}/d/.git links to", {"base": "{T}"})],
    "GIT_DIR=.git git -C {T} init d": [("d", "d", "init", {"base": "{T}"}), (".git", "{T}/d", "init, the git dir named by GIT_DIR or --git-dir", {"base": "{T}"}),
                                       (".git", "{T}/g", "init, the git dir {T}/d/.git links to", {"base": "{T}"})],
    "GIT_DIR=$G git init": [("$G", None, "init, the git dir named by GIT_DIR or --git-dir", {"base": "/w"})],
    "git --git-dir=$G init": [("--git-dir=$G", None, "init, the git dir named by GIT_DIR or --git-dir", {"base": "/w"})],
    "git init $D": [("$D", None, "init", {"base": "/w"})],
    "git -C {T} init ./d": [("./d", "./d", "init", {"base": "{T}"}), ("./d", "{T}/g", "init, the git dir {T}/d/.git links to", {"base": "{T}"})],
    "git -C {T}/d init .": [(".", ".", "init", {"base": "{T}/d"}), (".", "{T}/g", "init, the git dir {T}/d/.git links to", {"base": "{T}/d"})],
    "git init -- {T}/d": [("{T}/d", "{T}/d", "init", {"base": "/w"}), ("{T}/d", "{T}/g", "init, the git dir {T}/d/.git links to", {"base": "/w"})],
    "GIT_DIR={T}/.git git init": [("{T}/.git", "{T}", "init, the git dir named by GIT_DIR or --git-dir", {"base": "/w"}),
                                  ("{T}/.git", "{T}/g", "init, the git dir {T}/.git links to", {"base": "/w"})],
    "git -C {T} init --bare d": [("d", "d", "init", {"base": "{T}"})],
    # phase 23 (m38b): a `.git` that cannot be examined (a link to itself: ELOOP) is a git dir only known at run time
    "git init {T}/loop": [("{T}/loop", "{T}/loop", "init", {"base": "/w"}), ("{T}/loop", None, "init, through {T}/loop/.git, which cannot be read", {"base": "/w"})],
    'cd "$D"; git init {T}/d': [("{T}/d", "{T}/d", "init", {"base": "\x00unknown"}), ("{T}/d", "{T}/g", "init, the git dir {T}/d/.git links to", {"base": "\x00unknown"})],
    "GIT_DIR={T}/gitX git init": [("{T}/gitX", "{T}/gitX", "init, the git dir named by GIT_DIR or --git-dir", {"base": "/w"}),
                                  ("{T}/gitX", "{T}/g", "init, the git dir {T}/gitX links to", {"base": "/w"})],  # only / stripped
    "git -C {T}/loop init": [(None, "\x00cwd", "init", {"base": "{T}/loop"}), (None, None, "init, through {T}/loop/.git, which cannot be read", {"base": "{T}/loop"})],
    # phase 24 (m39a): stop 38's fix (m38b's fail-open): a quoted `~` is the directory `~` where git runs, not HOME
    # (T/~/d/.git is a file `gitdir: T/g`; HOME /h has no such link)
    "git -C {T} init '~/d'": [("'~/d'", "~/d", "init", {"base": "{T}"}), ("'~/d'", "{T}/g", "init, the git dir {T}/~/d/.git links to", {"base": "{T}"})],
    "git -C {T} init \\~/d": [("\\~/d", "~/d", "init", {"base": "{T}"}), ("\\~/d", "{T}/g", "init, the git dir {T}/~/d/.git links to", {"base": "{T}"})],
}


def test_git_init_through_a_git_link_that_exists(tmp_path: Path) -> None:
    t = str(tmp_path.resolve())
    (tmp_path / "d").mkdir()
    (tmp_path / "g").mkdir()
    (tmp_path / "e" / ".git").mkdir(parents=True)
    (tmp_path / "l").mkdir()
    (tmp_path / "l" / ".git").symlink_to(tmp_path / "g")
    (tmp_path / "gitX").symlink_to(tmp_path / "g")
    (tmp_path / "loop").mkdir()
    (tmp_path / "loop" / ".git").symlink_to(tmp_path / "loop" / ".git")
    (tmp_path / "~" / "d").mkdir(parents=True)
    for link in (tmp_path / "d" / ".git", tmp_path / ".git", tmp_path / "~" / "d" / ".git"):
        link.write_text(f"gitdir: {t}/g\n")
    for command, expected in INIT_THROUGH_A_LINK.items():
        (step,) = git_steps(command.replace("{T}", t))
        got = [target(x) for x in g.git_writes(step) if x.how.startswith("init")]
        assert normal(got) == normal(json.loads(json.dumps(expected).replace("{T}", t))), command


# -- where git acts, in a real repository (layout reads the filesystem) ------------------------------------------

#: command → (affected_checkouts, checkout_top), {T} a temporary directory with a repository T/r (made by `git init`),
#: T/r/sub, and T/o whose `.git` file links to T/r's git dir.
WHERE_GIT_ACTS = {
    "git -C {T}/r status": (["{T}/r"], "{T}/r"),
    "git -C {T}/r/sub status": (["{T}/r"], "{T}/r"),
    "git -C {T}/o status": (["{T}/o", "{T}/r"], "{T}/o"),
    "git --work-tree={T}/o -C {T}/r status": (["{T}/o", "{T}/r"], "{T}/o"),
    "git --work-tree={T}/r -C {T}/r status": (["{T}/r"], "{T}/r"),
    "git --git-dir={T}/r/.git status": (["{T}/r", "/w"], "/w"),
    "git --git-dir={T}/r/.git -C {T}/o status": (["{T}/r", "{T}/o"], "{T}/o"),
    "git -C {T}/x status": ([], "{T}/x"),
    "git --work-tree={T}/r status": (["{T}/r"], "{T}/r"),
    "git --git-dir={T}/r/.git -C {T}/r/sub status": (["{T}/r", "{T}/r/sub"], "{T}/r/sub"),
}


def test_where_git_acts_in_a_real_repository(tmp_path: Path) -> None:
    import subprocess

    t = str(tmp_path.resolve())
    subprocess.run(["git", "init", "-q", f"{t}/r"], check=True)
    (tmp_path / "r" / "sub").mkdir()
    (tmp_path / "o").mkdir()
    (tmp_path / "o" / ".git").write_text(f"gitdir: {t}/r/.git\n")
    for command, (checkouts, top) in WHERE_GIT_ACTS.items():
        (step,) = git_steps(command.replace("{T}", t))
        call = g.read_git_call(step)
        assert g.affected_checkouts(call, "/h") == [c.replace("{T}", t) for c in checkouts], command
        assert g.checkout_top(call, "/h") == top.replace("{T}", t), command


# phase 23 (m38b): a place git acts in that leads through a process's own /proc directory by a link found on disk
# (`_place_directories`, review 37b: `git -C c1 status` with c1 -> /proc/self/cwd was an internal error). The places
# written so are rows of the readings; these need the links. {T} the temporary directory: T/pl -> /proc/self/cwd,
# T/rl -> /, T/d a directory. command → `GitCall.dynamic`.
OWN_PROCESS_LINKS = {
    "git -C {T}/pl status": ["{T}/pl"],
    "git -C {T}/pl/.. status": ["{T}/pl/.."],
    "git -C {T}/rl/proc/self/cwd status": ["{T}/rl/proc/self/cwd"],
    "git -C {T}/rl/tmp status": [],
    "git -C {T}/d status": [],
    "git --git-dir={T}/pl/.git status": ["{T}/pl/.git"],
    "git --work-tree={T}/pl status": ["{T}/pl"],
    "git -C {T}/d --git-dir=../pl --work-tree=. status": ["{T}/d/../pl"],
    "git -C {T}/d --git-dir=.git --work-tree=../rl/dev/fd status": ["{T}/d/../rl/dev/fd"],
    "git -C {T}/pl --git-dir=../d/.git --work-tree=../d status": ["{T}/pl", "{T}/pl/../d/.git", "{T}/pl/../d"],
}


def test_a_place_through_a_link_into_proc_self_is_unknown(tmp_path: Path) -> None:
    t = str(tmp_path.resolve())
    (tmp_path / "pl").symlink_to("/proc/self/cwd")
    (tmp_path / "rl").symlink_to("/")
    (tmp_path / "d").mkdir()
    for command, places in OWN_PROCESS_LINKS.items():
        (step,) = git_steps(command.replace("{T}", t))
        expected = [f"{p.replace('{T}', t)} is in a process's own /proc directory, which names the process that opens it" for p in places]
        assert g.read_git_call(step).dynamic == expected, command


# phase 23 (m38b): a HOME or XDG_CONFIG_HOME that already holds a git config or lesskey file (`_home_config`, review
# 32a: `HOME=. git status` with a W/.gitconfig setting core.fsmonitor ran it). {T} the temporary directory: T/h holds
# .gitconfig, T/x holds git/config, T/l holds .lesskey, T/e is empty. command → git_code's opaque reasons about them.
HOME_CONFIG_ON_DISK = {
    "HOME={T}/h git log": ["git would read config from $HOME ({T}/h), which holds a config file worktree-guard does not read"],
    "HOME=h git -C {T} log": ["git would read config from $HOME (h), which holds a config file worktree-guard does not read"],
    "HOME=. git -C {T}/h log": ["git would read config from $HOME (.), which holds a config file worktree-guard does not read"],
    "XDG_CONFIG_HOME={T}/x git log": ["git would read config from $XDG_CONFIG_HOME ({T}/x), which holds a config file worktree-guard does not read"],
    "HOME={T}/l git log": ["git would read config from $HOME ({T}/l), which holds a config file worktree-guard does not read"],
    "HOME={T}/e git log": [],
    "HOME={T}/x git log": [],
    "XDG_CONFIG_HOME={T}/h git log": [],
    "HOME=e git -C {T} log": [],
    # from a cwd only known at run time, a relative one is looked for from / ({R}: {T} without its leading /)
    'cd "$D"; HOME={R}/h git log': ["git would read config from $HOME ({R}/h), which holds a config file worktree-guard does not read"],
}


def test_a_home_that_holds_a_git_config_is_unread_code(tmp_path: Path) -> None:
    t = str(tmp_path.resolve())
    for path in ("h/.gitconfig", "x/git/config", "l/.lesskey"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("[core]\n\tpager = true\n")
    (tmp_path / "e").mkdir()
    for command, expected in HOME_CONFIG_ON_DISK.items():
        (step,) = git_steps(command.replace("{T}", t).replace("{R}", t[1:]))
        got = [r for r in g.git_code(step).opaque if "git would read config" in r]
        assert got == [e.replace("{T}", t).replace("{R}", t[1:]) for e in expected], command


# phase 23 (m38b): what git takes from the top of the checkout it moved to, in a real repository (layout reads the
# filesystem): a relative GIT_INDEX_FILE or SSLKEYLOGFILE (review 30b/30c/32a) and a relative HOME's config (review
# 32b). {T} the temporary directory: T/r a repository (`git init`) with T/r/sub, T/r/hh/.gitconfig and
# T/r/sub/ss/.gitconfig, T/rX a repository with T/rX/sub. command → the bases of the targets those variables name, and the opaque reasons of the HOMEs.
TOP_ROWS = {
    "GIT_INDEX_FILE=i git -C {T}/r/sub status": (["{T}/r"], []),
    "GIT_INDEX_FILE=i git -C {T}/r status": (["{T}/r"], []),
    "GIT_INDEX_FILE=i git -C {T}/x status": (["{T}/x"], []),
    "GIT_INDEX_FILE=i git --work-tree={T}/r/sub -C {T}/r status": (["{T}/r"], []),
    "GIT_INDEX_FILE=i git --work-tree={T}/r/ -C {T}/r/sub status": (["{T}/r"], []),
    "GIT_INDEX_FILE=i git --work-tree=/ -C {T}/r/sub status": (["/"], []),
    "GIT_INDEX_FILE=i git --work-tree={T}/r -C {T}/rr status": (["{T}/rr"], []),
    "GIT_OBJECT_DIRECTORY=o git -C {T}/r/sub status": (["{T}/r"], []),
    "GIT_INDEX_FILE=i git -C {T}/rX/sub status": (["{T}/rX"], []),  # a top ending in X: only / is stripped
    "SSLKEYLOGFILE=k git -C {T}/r/sub ls-remote https://h/r": (["{T}/r"], []),
    "SSLKEYLOGFILE=k git --work-tree={T}/r/ -C {T}/r/sub ls-remote https://h/r": (["{T}/r"], []),
    "SSLKEYLOGFILE=k git --work-tree=/ -C {T}/r/sub ls-remote https://h/r": (["/"], []),
    "SSLKEYLOGFILE=k git --work-tree={T}/r/sub -C {T}/r ls-remote https://h/r": (["{T}/r"], []),
    "SSLKEYLOGFILE=k git -C {T}/x ls-remote https://h/r": (["{T}/x"], []),
    "SSLKEYLOGFILE=k git -C {T}/rX/sub ls-remote https://h/r": (["{T}/rX"], []),
    "HOME=hh git -C {T}/r/sub log": ([], ["git would read config from $HOME (hh), which holds a config file worktree-guard does not read"]),
    "HOME=ss git -C {T}/r/sub log": ([], ["git would read config from $HOME (ss), which holds a config file worktree-guard does not read"]),
    "HOME=ss git -C {T}/r log": ([], []),
}


def test_what_git_reads_from_the_top_it_moved_to(tmp_path: Path) -> None:
    import subprocess

    t = str(tmp_path.resolve())
    subprocess.run(["git", "init", "-q", f"{t}/r"], check=True)
    subprocess.run(["git", "init", "-q", f"{t}/rX"], check=True)
    (tmp_path / "rX" / "sub").mkdir()
    for path in ("r/hh/.gitconfig", "r/sub/ss/.gitconfig"):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("[core]\n\tpager = true\n")
    (tmp_path / "rr").mkdir()
    for command, (bases, opaque) in TOP_ROWS.items():
        (step,) = git_steps(command.replace("{T}", t))
        got = [x.base for x in g.git_writes(step) if any(v in x.how for v in ("GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "TLS key log"))]
        assert got == [b.replace("{T}", t) for b in bases], command
        reasons = [r for r in g.git_code(step).opaque if "git would read config" in r]
        assert reasons == [r.replace("{T}", t) for r in opaque], command


# phase 23 (m38b): a glob whose names start with no `-` now is no option (stop 30), for a code option
# (`_subcommand_code`) and for an output option (`git_writes`); a glob that matches a `-` name may be one. {T}: the
# cwd, holding a.txt and -x.md.
GLOB_ROWS = {
    "git difftool -y *.txt": ([], [], []),
    "git difftool -y *.md": (["-x.md"], [], ["*.md, only known at run time, may be --output"]),
    "git diff *.txt": ([], [], []),
    "git diff *.md": ([], [], ["*.md, only known at run time, may be --output"]),
}


def test_a_glob_that_names_no_option_now(tmp_path: Path) -> None:
    t = str(tmp_path.resolve())
    (tmp_path / "a.txt").write_text("")
    (tmp_path / "-x.md").write_text("")
    for command, (_, _, writes) in GLOB_ROWS.items():
        (step,) = git_steps(command, ShellState(cwd=t))
        code = g.git_code(step)
        got = {"code": bool(code.scripts or code.argv or code.opaque), "writes": [x.how for x in g.git_writes(step) if "only known at run time" in x.how]}
        assert got == {"code": command.startswith("git difftool") and command.endswith(".md"), "writes": writes if command.startswith("git diff ") else []}, command


# -- the small helpers, called by the git rule directly -----------------------------------------------------

MOVES_OR_RUNS = {
    (None, None): True, ("user.email", "a@b"): False, (" Core.Worktree ", "/t"): True, ("core.bare", "false"): True,
    ("extensions.worktreeConfig", "true"): True, ("core.repositoryformatversion", "1"): True, ("include.path", "/i"): True,
    ("includeIf.gitdir:/x.path", "/i"): True, ("includex.path", "/i"): False, ("remote.o.url", "/r"): True,
    ("remote.o.pushurl", "/r"): True, ("remote.pushDefault", "o"): True, ("url.x.insteadOf", "y"): True,
    ("url.x.pushInsteadOf", "y"): True, ("branch.main.remote", "o"): True, ("branch.main.pushRemote", "o"): True,
    ("sendemail.smtpServer", "/s"): True, ("http.cookieFile", "/c"): True, ("core.attributesFile", "/a"): True,
    ("remote.o.fetch", "x"): False, ("branch.main.merge", "x"): False, ("core.pager", "less"): True,
    ("protocol.ext.allow", "always"): True, ("protocol.ext.allow", "never"): False, ("user.name", "ext::x"): True,
    ("url", "x"): False, ("remote.url", "x"): True, ("core", None): False, ("include.other", "v"): True,
    ("includeIf.x.other", "v"): True,
}


def test_which_config_keys_move_a_later_git_or_run_code() -> None:
    assert {k: g.moves_or_runs(*k) for k in MOVES_OR_RUNS} == MOVES_OR_RUNS
    assert g.moves_or_runs("core.worktree") is True and g.moves_or_runs("user.name") is False


CONTROLS_GIT = {
    "": True, "config": True, "config.worktree": True, "configx": False, "hooks": True, "hooks/pre-commit": True,
    "hooksx": False, "info": True, "info/": True, "info/attributes": True, "info/exclude": False, "description": False,
    "logs/HEAD": False, "index": False, "refs/heads/main": True, "objects/info/alternates": True, "worktrees/w/gitdir": True,
    "rebase-merge/git-rebase-todo": True, "packed-refs": True, "shallow": True, "remotes/o": True, "branches": True,
    "info/grafts": True, "modules": True, "sequencer/todo": True, "HEAD": True, "head": False, "commondir": True,
    "gitdir": True, "rebase-apply": True,
    "infoX": False, "hooksX/": False,  # phase 23 (m38b): only / is stripped
}


def test_which_files_of_a_git_dir_control_it() -> None:
    assert {k: g.controls_git(k) for k in CONTROLS_GIT} == CONTROLS_GIT


LOCAL_URLS = {
    "/r": True, "r": True, "~/r": True, "./r": True, " file:///r": True, "FILE:/r": True, "https://h/r": False,
    "ssh://h/r": False, "h:r": False, "h:/r": False, "./h:r": True, "a/b:c": True, "": True, "x://": False,
    # phase 24 (m39a): a `://` after a `/` is still a URL to git (2.39: "protocol './x' is not supported"), no path
    "./x://r": False, "a/b://c": False,
}


def test_which_remote_urls_are_on_this_machine() -> None:
    assert {k: g.local_url(k) for k in LOCAL_URLS} == LOCAL_URLS


ALLOWS_EXT = {
    ("protocol.ext.allow", "always"): True, ("protocol.ext.allow", " User "): True, ("protocol.ext.allow", "never"): False,
    ("protocol.ext.allow", None): True, ("Protocol.Allow", "always"): True, ("protocol.allow", "never"): False,
    ("url.EXT::x.insteadOf", "y"): True, ("remote.o.url", "Ext::sh"): True, ("remote.o.url", "/r"): False,
    ("protocol.file.allow", "always"): False, ("a.b", None): False,
}


def test_which_config_lets_git_run_ext() -> None:
    assert {k: g.allows_ext(*k) for k in ALLOWS_EXT} == ALLOWS_EXT


CODE_KINDS = {
    "core.pager": "shell", "Core.Pager": "shell", "pager.log": "shell", "core.sshCommand": "args", "alias.x": "!",
    "credential.https://h.helper": "helper", "core.hooksPath": "opaque", "user.name": None, "diff.x.textconv": "args",
    "includeIf.gitdir:/x.path": "opaque", "sendemail.tocmd": "args",
}


def test_which_config_keys_git_runs_and_how() -> None:
    assert {k: g.code_kind(k) for k in CODE_KINDS} == CODE_KINDS


def test_how_many_words_an_option_takes_and_where_the_operands_start() -> None:
    takes = frozenset({"-t", "--type", "-f"})
    widths = {"--type": 2, "--type=x": 1, "--typ": 1, "-t": 2, "-tx": 1, "-zt": 2, "-ztx": 1, "-z": 1, "-": 1, "-zf": 2,
              "--x": 1, "-zz": 1}
    assert {k: g.option_width(k, takes) for k in widths} == widths
    verbs = frozenset({"set", "get"})
    rows = {
        (): 0, ("a",): 0, ("-z", "a"): 1, ("-t", "x", "a"): 2, ("--type", "x", "a"): 2, ("--type=x", "a"): 1,
        ("-z", "--", "a"): 1, ("-z", "-", "a"): 1, ("-z", None, "a"): 1, ("-z",): 1, ("-t",): 1, ("set", "-z", "a"): 2,
        ("set", "set"): 1, ("-z", "set", "a"): 2, ("get",): 1, ("set", "--", "a"): 1,
    }
    assert {k: g.first_operand(list(k), takes, verbs) for k in rows} == rows
    assert g.first_operand(["set", "a"], takes) == 0


def test_a_path_inside_a_directory_and_a_joined_directory() -> None:
    assert [g._inside(p, d) for p, d in [("/a", "/a"), ("/a/b", "/a"), ("/ab", "/a"), ("/a/b", "/a/"), ("/a", "/"), ("/", "/"), ("/a/b", "/aX")]] \
        == [True, True, False, True, True, True, False]
    assert [g._join(b, v) for b, v in [(None, "/x"), (None, "x"), ("/b", "x"), ("/b", "/x"), ("/b/", "x")]] \
        == ["/x", None, "/b/x", "/x", "/b/x"]
    assert g.arguments_after(None) == ' "$@"' and g.arguments_after("/w/") == ' /w/"$@"' and g.arguments_after("/a b") == " '/a b/'\"$@\""


def test_git_config_count_is_read_up_to_a_thousand_keys() -> None:
    (step,) = git_steps("GIT_CONFIG_COUNT=5000 git log")
    missing = [reason for reason in g.git_code(step).opaque if reason.startswith("$GIT_CONFIG_KEY_")]
    assert len(missing) == 1000 and missing[-1] == "$GIT_CONFIG_KEY_999 is only known at run time"


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    now = readings_now()
    parts = [
        f'"{section}": {{\n' + ",\n".join(f"{json.dumps(k)}: {json.dumps(v, sort_keys=True)}" for k, v in sorted(now[section].items())) + "\n}"
        for section in ("commands", "state")
    ]
    READINGS.write_text("{\n" + ",\n".join(parts) + "\n}\n")
