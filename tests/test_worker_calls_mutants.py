"""Every finding a wave worker's own call gets, pinned whole and judged in this process (issue 13, phase 18,
`subagents/worker_calls`).

Phase 5's run reached 71 of this module's 796 mutants: the wave tests judge a worker's calls through the hook and check
the codes and a few words, and mutmut's coverage selection sent the mutants to few of them. Here one world is built once (a
main checkout {MAIN} with linked worktrees {W} (an isolated agent's), {SIB} and {OUT} (outside the main checkout),
files and manifests the rows need, a repository of its own at {MAIN}/vendor/lib, and links), and each row is one call
of one worker: its payload goes through the runtime's adapter and the engine's `build_context`, and
`check_worker_call` judges it against a `Worker` the row names (WORKERS: which checkout it is recorded in, whether it
is isolated, what it owns, where its call is made). A reading is every finding whole: code, rule, tool, message, path,
resolved, worktree_root and span, the paths written as {MAIN}, {W}, {SIB}, {OUT}, {BASE}, {HOME} (the world's paths
have one length wherever it is built, so the spans are the same numbers in every run).

`worker_calls_readings.json` holds the readings. They pin what the code does now; a change of a reading is a change
of what the guard decides, to be read in the diff of the JSON file, which `python -m tests.test_worker_calls_mutants
--write` rewrites.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tests.readings import world_environment, write_readings

READINGS = Path(__file__).with_name("worker_calls_readings.json")
OUTSIDE_HOME = "/opt/wg-wc-test-home"  # HOME for the rows: outside every checkout and every allow-listed directory
WORLD_PATH_LENGTH = 150
OWNS = "src/auth/**, build/, docs/*.md, sub/**, gen/**, __init__.py"

#: name: (the checkout it is recorded in, isolated?, what it owns, where its calls are made)
WORKERS: dict[str, tuple[str, bool, str, str]] = {
    "S": ("{MAIN}", False, OWNS, "{MAIN}"),  # a shared-workspace worker in the main checkout
    "S-src": ("{MAIN}", False, OWNS, "{MAIN}/src"),  # the same worker, its call made in a subdirectory
    "S-out": ("{MAIN}", False, OWNS, "{BASE}"),  # the same worker, its call made outside every checkout
    "S-vendor": ("{MAIN}", False, OWNS, "{MAIN}/vendor/lib"),  # … in a repository nested in its checkout
    "N": ("{MAIN}", False, "none", "{MAIN}"),  # a read-only worker
    "I": ("{W}", True, OWNS, "{W}"),  # an isolated worker in its own worktree (the call is isolated too)
    "I-main": ("{W}", True, OWNS, "{MAIN}"),  # an isolated worker whose call is made in the main checkout
    "Iw": ("{W}", False, OWNS, "{W}"),  # a shared-workspace worker of an isolated orchestrator's worktree
}

ROWS: list[str] = [
    # check_worker_call: each kind of call, and what each kind is given
    "S Write {MAIN}/src/auth/new.py",  # owned: passes
    "S Write {MAIN}/src/app.py",  # not owned: WG701, the path as written
    "S Edit src/app.py",  # relative: from the call's cwd
    "S-src Edit app.py",
    "S Write ",  # no usable path: WG000
    'S BashPatch ["src/auth/b.py", "src/app.py"]',  # a shell call whose runtime applies a patch: both judged
    'S Patch "*** Begin Patch\\n*** Add File: src/x.py\\n+x\\n*** Update File: src/auth/a.py\\n@@\\n-x\\n+y\\n*** End Patch\\n"',
    'S Patch "*** Begin Patch\\n*** Delete File: docs/a.md\\n*** Update File: docs/b.md\\n*** Move to: {MAIN}/docs/c.txt\\n@@\\n-x\\n+y\\n*** End Patch\\n"',
    "S PowerShell Set-Content x y",  # WG900 from the bash rule's function (not isolated)
    "I PowerShell Set-Content x y",  # isolated: the bash rule reports it already
    "S EnterWorktree {}",  # makes a worktree: WG703
    'S EnterWorktree {"name": "x"}',
    'S EnterWorktree {"path": "{MAIN}"}',  # where it is: passes
    'S EnterWorktree {"path": "."}',
    'S-src EnterWorktree {"path": ".."}',
    'S EnterWorktree {"path": "{W}"}',  # out of its checkout: WG701
    'S EnterWorktree {"path": ""}',
    'S EnterWorktree {"path": 5}',
    'I EnterWorktree {"path": "{SIB}"}',  # an isolated worker's is the dispatch rule's
    'I EnterWorktree {}',
    'Iw EnterWorktree {"path": "{MAIN}"}',
    'S Commands ["echo x > src/app.py", "echo y > docs/a.md"]',
    'S Commands ["echo x > src/app.py", 5]',  # a command that is not a string: WG000 alone
    'S Commands []',
    # judge_write: each place a written path can be
    "S Bash echo x > src/auth/a.py",  # owned
    "S Bash echo x > src/app.py",  # not owned
    "S Bash echo x > $OUT",  # only known at run time
    'S Bash cd "$D" && echo x > f',  # relative after a directory change that cannot be followed
    'S Bash cd "$D" && echo x > /opt/x',  # absolute: judged
    'S Bash cd "$D" && echo x > ~/x',  # from HOME: judged
    "S Bash echo x > ~/x",
    "S Bash echo x > {BASE}/x",  # the allow-listed temp dir, outside every checkout
    "S Bash echo x > /opt/x",  # outside the checkout
    "S Bash echo x > {SIB}/x",  # another checkout
    "S Bash echo x > {OUT}/x",
    "S Bash echo x > .git/config",  # protected
    "S Bash echo x > src/__pycache__/m.pyc",  # scratch
    "S Bash rm -rf .pytest_cache",
    "S Bash rm -rf __pycache__ src/__pycache__",
    "S Bash rm -r src/auth",  # a tree owned whole
    "S Bash rm -r src",  # a tree not owned whole
    "S Bash rm -r build",  # `build/`: the directory owned
    "S Bash rm -r build/x",
    "S Bash rm -r src/app.py",  # a tree writer given a file: the file
    "S Bash rm -r docs/a.md docs/x.txt",
    "S Bash touch src/auth",  # the directory of an owned tree, written as a file
    "S Bash touch build",
    "S Bash touch __init__.py src/__init__.py",
    "S Bash rm -r .",  # the checkout itself
    "S Bash touch .",
    "S Bash rm -rf {MAIN}",
    "N Bash echo x > src/auth/a.py",  # a read-only worker
    "N Bash touch src/__pycache__/x.pyc",
    "I Bash echo x > src/app.py; echo y > src/auth/a.py",
    "I Bash echo x > {MAIN}/x; echo x > /opt/x",  # outside its own worktree: the isolation rules judge it
    "I-main Bash echo x > {MAIN}/x; echo x > {W}/src/app.py; echo x > {W}/src/auth/a.py",
    "Iw Bash echo x > {MAIN}/x; echo x > src/app.py",  # a shared worker of W: judged here
    "S-out Bash echo x > {MAIN}/src/app.py; echo x > {MAIN}/src/auth/a.py; echo x > y",
    "S-vendor Bash echo x > f; echo x > ../../src/app.py",
    # command_writes: what each command writes, from where
    "S Bash tar -xf a.tar",
    "S-src Bash tar -xf a.tar",
    'S Bash cd "$D" && tar -xf a.tar',
    "S Bash cd gen && tar -xf a.tar",
    "S Bash curl -O http://x/y",
    "S Bash ln -s ../README.md docs/l.md",  # the link's target: a later write through it reaches it
    "S Bash ln -s auth/a.py src/l",
    "S Bash ln -s a.py src/auth/l",
    "S Bash ln README.md docs/h.md",
    'S Bash cd "$D" && ln -s a.py {MAIN}/src/auth/l',
    "S Bash git -C sub add x",
    "S Bash git -C sub rm -r --cached x",
    "S Bash cp README.md src/auth/ docs/",
    "S Bash mv src/app.py src/auth/",
    # worker_command: programs in neither table, interpreters, inline code
    "S Bash mytool src/app.py",
    "S Bash mytool src/newfile.txt",
    "S Bash mytool nothere",
    "S Bash mytool src",
    "S Bash mytool src/auth docs/a.md",
    'S Bash mytool "$X" ~/x {MAIN}/src/app.py /opt/x',
    'S Bash cd "$D" && mytool src/app.py',
    "S Bash python tools/run.py src/app.py",
    "S Bash python tools/run.py tools/run.py src/app.py",
    "S Bash python3.11 tools/run.py docs/x",
    "S Bash python -c 'print(1)' src/app.py",
    "S Bash python -c src/app.py docs/x",
    "S Bash node -e src/app.py docs/a.md",
    "S Bash node src/app.py",
    "S Bash ruby -e 1 tools/run.py src/app.py",
    "S Bash mytool -c src/app.py",
    "S Bash mytool tools/run.py src/app.py",
    "S Bash 3python tools/run.py src/app.py",
    "S Bash perl5.36 -e 1 src/app.py",
    # git: a shared worker's git that writes the repository
    "S Bash git add -A",
    "S Bash git status && git diff && git log -1",
    "S Bash git -c x=y",
    "S Bash git",
    "I Bash git add -A",
    "Iw Bash git commit -m x",
    # unseen: what the command runs cannot be seen
    'S Bash "$CMD" src/app.py',
    'S Bash "$CMD" src/auth/a.py',
    'S Bash "$CMD" -x --y src/auth/a.py',
    'S Bash "$CMD" commit',
    'S Bash "$CMD" "$X"',
    'S Bash "$CMD"',
    'S Bash eval "$X"',
    'I Bash "$CMD" src/app.py',
    'I Bash eval "$X"',
    "S Bash bash < script.sh",
    # hidden surfaces: package managers, formatters
    "S Bash npm install left-pad",
    "S-src Bash npm install left-pad",
    "S Bash cd sub/pkg && npm install x",
    "S Bash npm --prefix sub/pkg install x",
    "S Bash npm --prefix {BASE} install x",
    'S Bash npm --prefix "$P" install x',
    'S Bash cd "$D" && npm install x',
    'S Bash npm "$C"',
    "S Bash ruff format src/auth",
    "S Bash ruff format src docs/a.md",
    "S Bash ruff format",
    "S Bash ruff check src",
    "S Bash uv add x && pip install y",
    "S Bash go generate ./gen/...",
    "S Bash npx prettier --write src/auth gen",
    "S Bash black /opt/x",
    'S-out Bash npm install x',
    "I Bash npm install x",
    "N Bash ruff format __pycache__",
    # apply_patch in a shell command
    "S Bash apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: src/x.py\n+x\n*** Add File: src/auth/y.py\n+y\n*** End Patch\nEOF",
    "S Bash apply_patch <<EOF\n*** Begin Patch\n*** Add File: src/$X.py\n+x\n*** Delete File: src/auth/a.py\n*** End Patch\nEOF",
    "S Bash apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: src/$X.py\n+x\n*** End Patch\nEOF",
    "S Bash apply_patch < p.diff",
    "S Bash apply_patch <<'EOF'\nnot a patch\nEOF",
    'S Bash applypatch "$P"',
    "S Bash cd src && apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: auth/a.py\n*** Move to: app.py\n@@\n-x\n+y\n*** End Patch\nEOF",
    # rows added for the mutants the rows above left alive (phase 18)
    'S BashPatch ["", "src/auth/a.py"]',  # check_file_writes: an empty path among others is no usable path
    'S BashPatch ["src/auth/a\\u0000b.py"]',  # … nor one holding a NUL
    "I Bash echo x > src/app.py; echo $(",  # check_shell, isolated: the bash rule reports what cannot be parsed
    "I Bash nice nice nice nice nice nice nice nice nice nice echo x > src/app.py",  # … and what is over the budget
    "I Bash BASH_CMDS[ls]=x; ls; echo x > src/app.py",  # … and the code it cannot see
    "S Bash BASH_CMDS[ls]=x; ls",  # not isolated: the worker's call reports it
    "S Bash nice nice nice nice nice nice nice nice nice nice true",
    "S Bash curl -O src/app.py",  # command_writes: a record after the current directory's
    'S Bash curl "$U"',  # at_boundary: an operand only known at run time is not at the boundary
    "S Bash SSLKEYLOGFILE=src/app.py curl https://x",
    "S Bash export SSLKEYLOGFILE=src/app.py; curl https://x",  # no word of the command: its span
    'S Bash ln -s a.py "$D/l"',  # the link's directory only known at run time: so is its target
    'S Bash git "$SUB" x',  # a git command whose subcommand is only known at run time
    "S Bash python -c README.md",  # inline code naming a file: not a file it is given
    "S Bash node -e README.md docs/x",
    "S Bash phpX tools/run.py",  # only digits and dots are stripped from an interpreter's name
    "S Bash npx prettier --write src/auth README.md",  # a runner with surfaces: its operands are the table's
    'S Bash cd "$D" && mytool {MAIN}/src/app.py',  # an absolute operand after a directory change: judged
    'S Bash cd "$D" && npm --prefix {MAIN}/sub/pkg install x',  # the projects above an absolute prefix
    "S Bash apply_patch <<EOF\n*** Begin Patch\n*** Add File: src/auth/X.py\n+x\n*** End Patch\nEOF",  # no expansion
    'S Bash cd "$D" && apply_patch <<\'EOF\'\n*** Begin Patch\n*** Add File: ~/x\n+x\n*** End Patch\nEOF',
    'I Bash "$CMD" commit',  # _arguments_matter: the indirection rule did not judge an isolated call
    'I Bash "$CMD" "$X"',
    'I Bash "$CMD" -x src/app.py',
    'I Bash "$CMD" -x src/auth/a.py',
    "S Bash mkdocs build",  # hidden_surfaces: two kinds of one program (a plugin's rows)
    "S Bash mkdocs serve",
    "[scratch=!x] S Bash echo x > src/app.py",  # a scratch pattern that is no pattern: the words say where it is from
    "[scratch=out/] S Bash echo x > out/a; echo x > src/__pycache__/a.pyc",
    'S Bash ln -s {MAIN}/src/app.py "$D/l"',  # command_writes: an absolute target stays, whatever the link's directory
    "S Bash python -m black src/auth README.md",  # worker_command: a module run with surfaces: its operands are the table's
    'S Bash mytool src/"$X" src/app.py',  # command_writes: an operand after a run-time one with a static beginning (phase 26)
    # A value still starting with `~` is one bash left alone (quoted): these rows read it as HOME's, the fail-open
    # docs/testing.md's phase 18 reports (rules/writes reads it as `./~`); the fix changes their readings.
    'S Bash ln -s "~/x" "$D/l"',
    'S Bash echo x > "~/x"',
    '[home={MAIN}/src] S Bash cd "$D" && mytool "~/app.py"',
    # `~user` of no user is a relative path: after a directory change it cannot follow, read from `/`, never from
    # the hook process's own directory (the checkout, where a runtime starts it)
    '[cwd={MAIN}] S Bash cd "$D" && echo x > ~nosuchuser/x',
    '[cwd={MAIN}] S Bash cd "$D" && mytool ~nosuchuser/../../../README.md',
    'S Bash npm --prefix "~/sub" install x',  # surfaces_for: a quoted `~` prefix is the directory `~` here, below {MAIN}
    # check_file_writes: a file tool's `~` is the policy's HOME (validate judges with the session's recorded one), not
    # the process's (phase 19: expand_user(write.path, None) read the process's HOME, outside every checkout)
    "[policy-home={MAIN}/src] S Write ~/auth/new.py",  # owned there: passes
    "[policy-home={MAIN}/src] S Edit ~/app.py",  # not owned there: WG701
    # stop 36: a path through the process's own /proc directory or a descriptor is the shell's, never the guard's: the
    # hook started in {MAIN}/src/auth read /proc/self/cwd as its own cwd (owned) where the shell writes {MAIN}/y
    "[cwd={MAIN}/src/auth] S Bash echo x > /proc/self/cwd/y",
    "S Bash echo x 3<.. > /dev/fd/3/../f",  # fd 3 is {MAIN}/..: the allow-list's /dev/fd/* does not hold it
    "S Bash echo x > /dev/stdout/f",
    "S Bash echo x > /dev/stdout",  # the descriptor itself: allowed
    # review 36b: a descriptor the command opens on a path for reading is that path (src/app.py is not the worker's)
    "S Bash cp README.md /dev/fd/3 3<src/app.py",
    "S Bash echo x | tee /dev/stdout 1<src/app.py",
    "S Bash cp README.md /dev/fd/3 3<src/auth/a.py",  # its own file, but named through a descriptor: refused too
    # review 36c: the same misses, an unknown program given the descriptor, and a `..` through a link before /proc/self
    "S Bash x=3<src/app.py cp README.md /dev/fd/0",
    "S Bash echo x 3<src/app.py 4<& 3 >/dev/fd/4",
    "S Bash python3 tools/run.py /dev/fd/3 3<src/app.py",
    "S Bash cd /dev && mytool fd/3 3<{MAIN}/src/app.py",  # phase 22: a relative name of the descriptor, read from the known cwd
    "[cwd={MAIN}] S Bash ln -s /tmp src/auth/T; echo x > src/auth/T/../proc/self/cwd/src/app.py",
    "[cwd={MAIN}] S Write {MAIN}/src/auth/T/../proc/self/cwd/src/app.py",
    # the allow-list holds no path of the guard's own, for a worker too (HOME under the temp dir, as in CI)
    "[home={BASE}/h] S Bash echo x > ~/.claude/settings.json",  # the hooks that start the guard
    "[home={BASE}/h] S Bash echo x > ~/notes.txt",
    # review 37: a copy in one string of a descriptor opened in another (eval's), and an unknown program given a path
    # through the process's own /proc directory (`/proc/self/cwd` is the shell's, src/app.py not the worker's)
    'S Bash exec 3<src; eval "exec "4"<&3"; cp tools/run.py /dev/fd/4',
    'S Bash exec 3<src/app.py; eval "exec "1"<&3"; echo pwned > /dev/stdout',
    "S Bash python3 tools/run.py /proc/self/cwd/src/app.py",
    # review 39e R2: the parts an option's syntax gives are the worker's words too (after any `=`, an option's `,`)
    "S Bash python3 tools/run.py --define=DIR=package.json",
    "S Bash python3 tools/run.py --out=src/auth/x,package.json",
    "S Bash python3 tools/run.py -Wall -O2",
    "S Bash python3 tools/run.py /proc/self/root{MAIN}/src/app.py",
    "S Bash python3 tools/run.py /dev/fd/3/app.py 3<src",
    "S Bash python3 tools/run.py /proc/cpuinfo",  # no process's own: passes
    # review 37b: the shell's pid written out, an fd variable that is an array's element, a sourced script's copies;
    # a file of the process's own /proc directory, or its fd N not opened on a path, passes
    "S Bash python3 tools/run.py /proc/$$/cwd/src/app.py",
    "S Bash echo pwned {a[0]}<src/app.py >/dev/fd/10",
    "S Bash exec 3<src; . ./s4.sh; cp package.json /dev/fd/4",
    "S Bash python3 tools/run.py /proc/self/status",
    "S Bash python3 tools/run.py --log /proc/self/fd/2",
    "S Bash python3 tools/run.py --log /proc/self/fd/3 3<src/app.py",
    # review 37c: other spellings of /proc before the pid, and the own-process directory itself (an archive extracted
    # into /proc/self reaches the checkout through root/)
    "S Bash python3 tools/run.py //proc/$$/cwd/src/app.py",
    'S Bash python3 tools/run.py "/proc"/$BASHPID/cwd/src/app.py',
    "S Bash python3 -m zipfile -e /tmp/w.zip /proc/self",
    "S Bash python3 -m zipfile -e /tmp/w.zip /dev/fd 3<src",
    "S Bash python3 tools/run.py /dev/shm/out-$$",
    # stop 38: where a run-time operand starts is the shared boundary's (WG406, an isolated worker's), not the
    # ownership's: a shared worker's unknown program given src/auth/$F passes as before
    "S Bash python3 tools/run.py src/auth/$F",
    "S Bash python3 tools/run.py {MAIN}/src/auth/$F",
    "I Bash python3 tools/run.py {MAIN}/src/auth/$F",
    # phase 23 (m38c): `-` is a file for cp, tee, dd of= (coreutils 9.1 wrote <main>/-), standard output for tar -f
    "S Bash cp src/auth/a.py -",
    "S Bash echo x | tee -",
    "S Bash dd if=src/auth/a.py of=-",
    "S Bash tar -cf - src/auth",
    "S Bash uniq src/auth/a.py -",  # review 38c: standard output for uniq, zip, iconv, patch, openssl
    "S Bash zip -q - src/auth/a.py",
    "S Bash openssl rand -writerand - 4",  # review 38d: a file named `-` (openssl's -out - is standard output, not its -writerand)
]


def make_world(base: Path):
    """The main checkout and its worktrees (tests/helpers.make_repo), with what the rows name."""
    from tests.helpers import git, make_repo

    padding = WORLD_PATH_LENGTH - len(str(Path(os.path.realpath(base)) / "work")) - 1
    assert padding > 0, f"{base} is too long a place for the world"
    repo = make_repo(base / ("p" * padding) / "work")
    assert len(str(repo.base)) == WORLD_PATH_LENGTH
    main = repo.main
    for d in ("src/auth", "build", "docs", "sub/pkg", "gen", "tools", "empty"):
        (main / d).mkdir(parents=True, exist_ok=True)
    for f in ("src/auth/a.py", "docs/a.md", "tools/run.py", "sub/pkg/index.js", "gen/out.txt"):
        (main / f).write_text("x\n")
    (main / "package.json").write_text("{}\n")
    (main / "sub" / "package.json").write_text("{}\n")
    (main / "sub" / "pkg" / "package.json").write_text("{}\n")
    nested = main / "vendor" / "lib"
    nested.mkdir(parents=True)
    git("init", "-q", "-b", "main", cwd=nested)
    (main / "to-readme").symlink_to("README.md")
    for d in ("src/auth", "build"):
        (repo.worktree / d).mkdir(parents=True, exist_ok=True)
    return repo


def _names(repo) -> tuple[tuple[str, str], ...]:
    return (("{W}", str(repo.worktree)), ("{SIB}", str(repo.sibling)), ("{OUT}", str(repo.outside)), ("{MAIN}", str(repo.main)), ("{BASE}", str(repo.base)), ("{HOME}", OUTSIDE_HOME))


def fill(repo, text: str) -> str:
    for name, path in reversed(_names(repo)):
        text = text.replace(name, path)
    return text


def unfill(repo, text: str) -> str:
    for name, path in _names(repo):
        text = text.replace(path, name)
    return text


def the_call(repo, row: str):
    """(call, worker) for a row `WORKER TOOL ARGUMENT`."""
    from tests.helpers import payload
    from worktree_guard.subagents.linking import Worker
    from worktree_guard.subagents.ownership import from_setting

    who, tool, argument = row.split(" ", 2)
    root, isolated, owns, cwd = WORKERS[who]
    agent = repo.agent_id if isolated or root == "{W}" else "a0000000000000001"
    common = dict(agent_id=agent, agent_type="general-purpose")
    argument = fill(repo, argument)
    cwd = fill(repo, cwd)
    if tool == "Patch":  # Codex's apply_patch: the patch text (JSON), every path it names a write
        from worktree_guard.runtimes.codex import to_tool_call as codex

        body = payload(cwd, "apply_patch", {"command": json.loads(argument)}, turn_id="t1", **common)
        body.pop("transcript_path")
        call = codex(body)
    else:
        from worktree_guard.runtimes.claude_code import to_tool_call

        if tool in ("Bash", "PowerShell"):
            tool_input = {"command": argument, "description": "a row"}
        elif tool in ("Commands", "BashPatch"):  # several commands (JSON), as Cline's run_commands; a patch's paths
            tool_input = {"command": "true", "description": "a row"}
        elif tool in ("Write", "Edit"):
            tool_input = {"file_path": argument, "content": "x\n"} if tool == "Write" else {"file_path": argument, "old_string": "x", "new_string": "y"}
        else:
            tool_input = json.loads(argument)
        call = to_tool_call(payload(cwd, "Bash" if tool in ("Commands", "BashPatch") else tool, tool_input, **common))
        if tool == "Commands":
            call = call.model_copy(update={"commands": json.loads(argument)})
        elif tool == "BashPatch":  # a shell call whose runtime applies the patch it carries (Codex, Copilot)
            from worktree_guard.model import FileWrite

            call = call.model_copy(update={"file_writes": [FileWrite(path=p) for p in json.loads(argument)]})
    source = "the dispatch prompt"
    worker = Worker(agent_id=agent, agent_type="general-purpose", ownership=from_setting(owns, source), root=fill(repo, root), isolated=isolated, linked_by="a row")
    return call, worker


def reading(repo, row: str, home: str | None = None) -> list:
    """Every finding of `check_worker_call` on the row's call, whole; a row `[scratch=P] …` has the project's
    configuration say `scratch = [P]` for its time, a row `[home=P] …` HOME, a row `[cwd=P] …` the process's directory, a
    row `[policy-home=P] …` the path policy's home alone (as `validate` gives the recorded one: context_for_layout);
    an error raised is read as ["raised", type, message]."""
    from worktree_guard.engine import build_context, context_for_layout
    from worktree_guard.subagents.worker_calls import check_worker_call

    if row.startswith("[cwd="):  # the hook process's own directory (a runtime starts it in the project's)
        directory, _, rest = row[len("[cwd="):].partition("] ")
        here = os.getcwd()
        os.chdir(fill(repo, directory))
        try:
            return reading(repo, rest)
        finally:
            os.chdir(here)
    if row.startswith("[home="):
        home, _, rest = row[len("[home="):].partition("] ")
        os.environ["HOME"] = fill(repo, home)
        try:
            return reading(repo, rest)
        finally:
            os.environ["HOME"] = OUTSIDE_HOME
    if row.startswith("[policy-home="):
        policy_home, _, rest = row[len("[policy-home="):].partition("] ")
        return reading(repo, rest, fill(repo, policy_home))
    if row.startswith("[scratch="):
        pattern, _, rest = row[len("[scratch="):].partition("] ")
        config = repo.main / ".worktree-guard.toml"
        config.write_text(f"scratch = [{json.dumps(pattern)}]\n")
        try:
            return reading(repo, rest)
        finally:
            config.unlink()
    call, worker = the_call(repo, row)
    ctx = build_context(call, pm=plugins())
    if home is not None:
        ctx = context_for_layout(call, ctx.layout, ctx.scope.config, plugins(), home=home)
    ctx.worker = worker
    out = []
    try:
        found = check_worker_call(call, ctx, worker)
    except Exception as error:  # noqa: BLE001 — what the engine is handed, read as it is
        return ["raised", type(error).__name__, unfill(repo, str(error))]
    for v in found:
        fields = [v.code, v.rule, v.tool, v.severity, v.message, v.path, v.resolved, v.worktree_root, v.shared_root, v.suggestion]
        out.append([unfill(repo, x) if isinstance(x, str) else x for x in fields] + [list(v.span) if v.span else None])
    return out


_PM = None


def plugins():
    global _PM
    if _PM is None:
        from worktree_guard.plugins import plugin_manager

        _PM = plugin_manager()
        _PM.register(_Surfaces(), name="phase-18-hidden-surfaces")
    return _PM


class _Surfaces:
    """A plugin's rows of the hidden-surface table: one program with two kinds (`mkdocs build`)."""

    from worktree_guard.hookspecs import hookimpl

    @hookimpl
    def worktree_guard_hidden_surfaces(self):
        from worktree_guard.subagents.surfaces import Surface

        return {"mkdocs": (
            Surface("site builder", frozenset({"build"}), files=("site/",)),
            Surface("code generator", frozenset({"build", "serve"}), files=("docs/gen/", "docs/a.md")),
        )}


def all_rows() -> list[str]:
    return list(dict.fromkeys(ROWS))


def test_every_finding_on_a_workers_call(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", OUTSIDE_HOME)
    monkeypatch.delenv("CDPATH", raising=False)
    saved = json.loads(READINGS.read_text())
    rows = all_rows()
    assert list(saved) == rows, "rows and readings differ: run with --write"
    repo = make_world(tmp_path)
    for row in rows:
        assert reading(repo, row) == saved[row], row


if __name__ == "__main__" and sys.argv[1:2] == ["--write"]:

    def _readings(repo) -> dict:
        with world_environment(OUTSIDE_HOME, keep_tmpdir=True):
            return {row: reading(repo, row) for row in all_rows()}

    write_readings(READINGS, make_world, _readings, parts=False)
