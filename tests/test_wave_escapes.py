"""The wave (SPEC §11) against an attacker: each way an independent review found for a worker to escape its
ownership, for rollback to touch what is not its to touch, and for the guard to refuse what is harmless. Payload
level, on real repositories (the review's reproductions, made exact)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from tests.helpers import Repo, git, payload, run_hook_inline
from tests.test_wave import SESSION, A, B, C, Wave, codes, rollback


@pytest.fixture
def wave(repo: Repo, tmp_path: Path) -> Wave:
    return Wave(repo, tmp_path)


def call_from(wave: Wave, agent_id: str, tool: str, tool_input: dict, cwd: Path | str, **extra):
    """A worker's call whose hook `cwd` is elsewhere (it follows the worker's `cd`)."""
    extra.setdefault("tool_use_id", f"toolu_{tool}_{time.time_ns()}")
    return run_hook_inline(payload(cwd, tool, tool_input, agent_id=agent_id, agent_type="general-purpose", **wave.common(), **extra))


def nested_repo(wave: Wave) -> Path:
    """A repository inside the checkout (a vendored one, or a submodule's working tree)."""
    nested = wave.repo.main / "vendor" / "lib"
    nested.mkdir(parents=True)
    git("init", "-q", "-b", "main", cwd=nested)
    (nested / "f").write_text("1\n")
    git("add", "-A", cwd=nested)
    git("commit", "-qm", "x", cwd=nested)
    return nested


def registry_file(wave: Wave) -> Path:
    (found,) = (Path(os.environ["XDG_STATE_HOME"]) / "worktree-guard" / "waves").glob("*/workers.json")
    return found


# --- 1. a worker stays a worker wherever its calls come from -----------------------------------------------------


def test_a_worker_whose_cwd_leaves_the_checkout_is_still_judged_against_it(wave: Wave, tmp_path: Path) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    readme = {"file_path": str(wave.repo.main / "README.md"), "content": "x\n"}
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    assert codes(call_from(wave, A, "Write", readme, outside)) == {"WG701"}
    nested = nested_repo(wave)
    assert codes(call_from(wave, A, "Write", readme, nested)) == {"WG701"}
    assert codes(call_from(wave, A, "Write", {"file_path": str(nested / "f"), "content": "2\n"}, nested)) == {"WG701"}
    assert codes(call_from(wave, A, "Bash", {"command": "echo x > ../../README.md && git -C ../.. add -A"}, nested)) == {"WG701", "WG703"}
    assert codes(call_from(wave, A, "Bash", {"command": f"git -C {wave.repo.main} commit -am x"}, outside)) == {"WG703"}
    assert call_from(wave, A, "Write", {"file_path": str(wave.repo.main / "src/auth/a.py"), "content": "x"}, outside).decision == "pass"


def test_an_unlinked_sub_agent_of_a_wave_session_owns_nothing_from_any_directory(wave: Wave, tmp_path: Path) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    refused = call_from(wave, B, "Write", {"file_path": str(wave.repo.main / "src/auth/a.py"), "content": "x"}, tmp_path)
    assert codes(refused) == {"WG701"} and "could not be linked" in refused.reason


# --- 2. two dispatches judged at the same time ----------------------------------------------------------------


def test_two_overlapping_dispatches_judged_at_the_same_time_cannot_both_pass(wave: Wave) -> None:
    from worktree_guard.engine import build_context, decide
    from worktree_guard.plugins import plugin_manager

    pm = plugin_manager()

    def judged(tool_use_id: str, owns: str):
        tool_input = {"description": "w", "prompt": f"x\n```worktree-guard\nowns: {owns}\n```\n", "subagent_type": "general-purpose"}
        body = payload(wave.repo.main, "Agent", tool_input, tool_use_id=tool_use_id, **wave.common())
        call = pm.hook.worktree_guard_read_payload(payload=body, runtime="claude-code")
        ctx = build_context(call, pm=pm)
        return call, ctx, decide(call, ctx)

    first, second = judged("toolu_A", "src/**"), judged("toolu_B", "src/auth/**")  # both decided before either verdict is known
    for call, ctx, verdict in (first, second):
        pm.hook.worktree_guard_call_judged(call=call, ctx=ctx, verdict=verdict)
    assert first[2].decision == "pass" and {v.code for v in second[2].violations} == {"WG704"}
    assert "toolu_A" in second[2].violations[0].message
    # The refused one left no record behind: a dispatch that overlaps only it passes.
    assert wave.dispatch("toolu_C", "docs/**").decision == "pass"
    workers = json.loads(registry_file(wave).read_text())
    assert set(workers["dispatches"]) == {"toolu_A", "toolu_C"}
    assert not any(d["provisional"] for d in workers["dispatches"].values())


# --- 3, 4. rollback never touches a nested checkout, a directory, or another worker's file ------------------------


def test_a_sibling_worktree_made_inside_the_checkout_is_never_blamed_or_removed(wave: Wave) -> None:
    nested = nested_repo(wave)  # there at the start (one made in the window is blamed: review 33b)
    wave.start(A, "toolu_A", "src/auth/**")
    git("worktree", "add", "-q", "-b", "feature-b", "worktrees/feature-b", cwd=wave.repo.main)
    (wave.repo.main / "worktrees/feature-b/WIP.md").write_text("someone's uncommitted work\n")
    (nested / "f").write_text("changed in the nested repository\n")
    stopped = wave.event("SubagentStop", A)
    assert not stopped.stop_blocked, stopped.output
    listed = rollback(wave.repo, A, "--apply")
    assert "feature-b" not in listed.stdout and "vendor" not in listed.stdout
    assert (wave.repo.main / "worktrees/feature-b/WIP.md").read_text() == "someone's uncommitted work\n"
    assert (nested / "f").read_text() == "changed in the nested repository\n"


def test_an_ignored_directory_is_judged_file_by_file_and_rollback_removes_files_only(wave: Wave) -> None:
    repo = wave.repo
    (repo.main / ".gitignore").write_text("out/\n")
    git("add", "-A", cwd=repo.main)
    git("commit", "-qm", "ignore out", cwd=repo.main)
    wave.start(A, "toolu_A", "src/auth/**")
    wave.start(B, "toolu_B", "out/b/**")
    (repo.main / "out/b").mkdir(parents=True)
    (repo.main / "out/b/result.txt").write_text("B's owned output\n")
    (repo.main / "out/stray.txt").write_text("nobody's\n")
    stopped = wave.event("SubagentStop", A)
    assert stopped.stop_blocked and codes(stopped) == {"WG706"}
    reason = stopped.output["reason"]
    assert f"{repo.main}/out/stray.txt" in reason and "result.txt" not in reason and f"{repo.main}/out/ " not in reason
    wave.event("SubagentStop", A)
    applied = rollback(repo, A, "--apply")
    assert applied.returncode == 0, applied.stdout
    assert not (repo.main / "out/stray.txt").exists()
    assert (repo.main / "out/b/result.txt").read_text() == "B's owned output\n"
    assert (repo.main / "out").is_dir()


def test_a_new_file_in_an_ignored_directory_that_was_there_at_the_start_is_blamed(wave: Wave) -> None:
    repo = wave.repo
    (repo.main / ".gitignore").write_text("build/\n")
    git("add", "-A", cwd=repo.main)
    git("commit", "-qm", "ignore build", cwd=repo.main)
    (repo.main / "build").mkdir()
    (repo.main / "build/old.o").write_text("from before\n")
    wave.start(A, "toolu_A", "src/auth/**")
    (repo.main / "build/new.o").write_text("made during the window\n")
    (repo.main / "build/old.o").write_text("rebuilt\n")
    stopped = wave.event("SubagentStop", A)
    reason = stopped.output["reason"]
    assert stopped.stop_blocked and f"{repo.main}/build/new.o" in reason and "old.o" not in reason
    wave.event("SubagentStop", A)
    assert rollback(repo, A, "--apply").returncode == 0
    assert not (repo.main / "build/new.o").exists() and (repo.main / "build/old.o").read_text() == "rebuilt\n"


# --- 5. a worker that never started, or never stopped, leaves the wave ------------------------------------------


def _age(wave: Wave, seconds: float, dispatch: str, agent: str | None = None) -> None:
    path = registry_file(wave)
    data = json.loads(path.read_text())
    data["dispatches"][dispatch]["time"] -= seconds
    if agent is not None:
        data["agents"][agent]["started"] -= seconds
    path.write_text(json.dumps(data))


def test_a_dispatch_that_never_started_does_not_excuse_a_later_workers_change(wave: Wave) -> None:
    assert wave.dispatch("toolu_X", "README.md").decision == "pass"
    _age(wave, 2 * 3600, "toolu_X")  # dispatched two hours ago; its sub-agent never ran
    wave.start(A, "toolu_A", "src/auth/**")
    (wave.repo.main / "README.md").write_text("changed by A through python -c\n")
    stopped = wave.event("SubagentStop", A)
    assert stopped.stop_blocked and codes(stopped) == {"WG706"} and "README.md" in stopped.output["reason"]


def test_a_crashed_worker_does_not_excuse_a_later_workers_change(wave: Wave) -> None:
    wave.start(C, "toolu_X", "/README.md")
    assert wave.write(C, "README.md").decision == "pass"
    _age(wave, 6 * 3600, "toolu_X", C)  # started six hours ago, never stopped
    wave.start(A, "toolu_A", "src/auth/**")
    (wave.repo.main / "README.md").write_text("A's opaque change\n")
    stopped = wave.event("SubagentStop", A)
    assert stopped.stop_blocked and codes(stopped) == {"WG706"} and "README.md" in stopped.output["reason"]


# --- 6. a commit made during the window does not hide a change --------------------------------------------------


def test_a_change_committed_during_the_window_is_blamed_and_rolled_back(wave: Wave) -> None:
    repo = wave.repo
    wave.start(A, "toolu_A", "src/auth/**")
    (repo.main / "README.md").write_text("A rewrote this through python3 -c\n")
    git("commit", "-qam", "orchestrator checkpoint", cwd=repo.main)
    stopped = wave.event("SubagentStop", A)
    assert stopped.stop_blocked and codes(stopped) == {"WG706"}
    assert f"{repo.main}/README.md" in stopped.output["reason"]
    wave.event("SubagentStop", A)
    listed = rollback(repo, A)
    assert "committed during the worker's window" in listed.stdout
    assert rollback(repo, A, "--apply").returncode == 0
    assert (repo.main / "README.md").read_text() == "hello\n"


# --- 7. what a worker runs must be seen, and links are writes ------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        "$(printf git) add -A",
        "$(printf cp) src/auth/login.py README.md",
        "$CMD README.md",
        'eval "$X"',
        "source /dev/stdin",
        "cat x | bash",
        "alias x='touch README.md'",
        'bash -c "$X"',
        'echo "${X@P}"',  # a prompt string's command substitutions run
        'printf -v "$X" y',  # a subscript in the name runs command substitutions
    ],
)
def test_a_worker_command_that_cannot_be_seen_is_refused(wave: Wave, command: str) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    assert codes(wave.bash(A, command)) == {"WG404"}, command


def test_a_computed_command_given_only_owned_paths_passes(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    # quoted: one word, a computed name whose words are all owned (unquoted, bash may split what printf prints into
    # more words than the guard sees: WG404 since stop 25)
    assert wave.bash(A, "\"$(printf cp)\" src/auth/a.py src/auth/b.py").decision == "pass"
    assert wave.bash(A, "$(printf cp) src/auth/a.py src/auth/b.py").decision == "deny"


@pytest.mark.parametrize(
    ("owns", "command"),
    [
        ("src/auth/**", "ln -s ../../README.md src/auth/l && echo x > src/auth/l"),
        ("src/auth/**", "ln README.md src/auth/h"),
        ("none", "mkdir -p __pycache__/d && ln -s ../../src/billing __pycache__/d/b && echo HACKED > __pycache__/d/b/pay.py"),
    ],
)
def test_a_link_to_a_file_the_worker_does_not_own_is_a_write_of_it(wave: Wave, owns: str, command: str) -> None:
    wave.start(A, "toolu_A", owns)
    assert codes(wave.bash(A, command)) == {"WG701"}, command


# --- the gaps §5.2 left: the ownership is a default-deny boundary -------------------------------------------------


def auth_project(wave: Wave) -> None:
    (wave.repo.main / "src/auth").mkdir(parents=True, exist_ok=True)
    (wave.repo.main / "src/auth/login.py").write_text("x = 1\n")
    git("add", "-A", cwd=wave.repo.main)
    git("commit", "-qm", "auth", cwd=wave.repo.main)
    wave.start(A, "toolu_A", "src/auth/**")


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        # writers the first table missed, code strings, git's outputs and code, wrappers (review, t_bash.py, t_hard.py)
        ("uniq src/auth/login.py README.md", {"WG701"}),
        ("gzip -k README.md", {"WG701"}),
        ("zip out.zip src/auth/login.py", {"WG701"}),  # the archive it writes (what it archives, it reads)
        ("iconv -f utf8 -t ascii -o README.md src/auth/login.py", {"WG701"}),
        ("setarch x86_64 touch README.md", {"WG701"}),
        ("busybox touch README.md", {"WG701"}),
        ("""awk 'BEGIN{print 1 > "README.md"}'""", {"WG701"}),
        ("sed -n 'w README.md' src/auth/login.py", {"WG701"}),
        ("git diff --output=README.md", {"WG701"}),
        ("git log -p --output=README.md", {"WG701"}),
        ("git archive -o out.tar HEAD", {"WG701"}),
        ("git format-patch -1", {"WG701"}),
        ("git -c core.fsmonitor='touch README.md' status", {"WG701"}),
        ("cp -l README.md src/auth/h", {"WG701"}),
        ("taskset -c 0 touch README.md", {"WG701"}),
        ("script -qc 'touch README.md' /dev/null", {"WG701"}),
        ("watch -n1 touch README.md", {"WG701"}),
        ("strace -o /dev/null touch README.md", {"WG701"}),
        ("parallel touch ::: README.md", {"WG701"}),
        # hidden surfaces the table missed
        ("pre-commit run --all-files", {"WG702"}),
        ("pre-commit install", {"WG702"}),
        ("poetry run black .", {"WG702"}),
        ("npm exec -- prettier --write .", {"WG702"}),
        ("autopep8 -ir .", {"WG702"}),
        # a program worktree-guard does not know, given a path in the checkout it does not own
        ("frobnicate README.md", {"WG701"}),
        ("frobnicate --out=README.md", {"WG701"}),
        ("frobnicate -o/dev/null ./new.txt", {"WG701"}),
        ("frobnicate src", {"WG701"}),
        ("cd src/auth && frobnicate ../../README.md", {"WG701"}),
        ("python3 src/app.py README.md", {"WG701"}),  # the script is read; what it is given counts as written
        ("node src/app.py --out=README.md", {"WG701"}),
        ("python3 -c 'import sys' README.md", {"WG701"}),  # inline code's own operands are at the boundary too
    ],
)
def test_the_ownership_is_a_default_deny_boundary(wave: Wave, command: str, expected: set[str]) -> None:
    auth_project(wave)
    refused = wave.bash(A, command)
    assert codes(refused) == expected, (command, refused.reason)
    assert refused.decision == "deny"


@pytest.mark.parametrize(
    "command",
    [
        # an unknown program given only what the worker owns, or nothing that names a path in the checkout
        "frobnicate src/auth/login.py", "frobnicate src/auth/new.txt", "cd src/auth && frobnicate login.py new.txt",
        "frobnicate /usr/share/dict", "make lint", "npm test", "zip src/auth/out.zip README.md",
        # an interpreter reads the script it runs (what the script writes is opaque, as `python -c` is)
        "python3 src/app.py", "python3.11 -u src/app.py src/auth/login.py", "node src/app.py test",
        # inline code is opaque for every agent (passed in the default profile; what it writes is named at the stop)
        "python3 -c \"open('README.md', 'w').write('x')\"", "node -e \"require('fs').writeFileSync('src/app.py', '')\"",
        "node -e README.md",  # a JavaScript expression (README.md: a property of README), whatever it looks like
        "frobnicate 'print(\"a/b\")'",  # text with a slash whose directory does not exist names no path
        # read-only programs read what the worker does not own
        "cat README.md", "grep -rn x .", "wc -l README.md src/app.py", "diff README.md src/app.py", "head -5 src/app.py",
        "ls -la", "git status", "git diff", "git log -p -- src/app.py", "rg -n hello .",
        # programs the hidden-surface table knows, in a mode that writes nothing
        "pytest src/auth", "python3 -m pytest src/auth", "ruff check src", "black --check .",
    ],
)
def test_the_boundary_passes_owned_paths_and_read_only_programs(wave: Wave, command: str) -> None:
    auth_project(wave)
    result = wave.bash(A, command)
    assert result.decision == "pass", (command, result.reason)


# --- 8. package managers act where their manifest is -------------------------------------------------------------


def test_a_package_manager_run_below_its_project_writes_the_projects_files(wave: Wave) -> None:
    repo = wave.repo
    (repo.main / "package.json").write_text('{"name": "root", "version": "1.0.0"}\n')
    (repo.main / "src/auth").mkdir(parents=True)
    git("add", "-A", cwd=repo.main)
    git("commit", "-qm", "npm project", cwd=repo.main)
    wave.start(A, "toolu_A", "src/auth/**")
    refused = wave.bash(A, "cd src/auth && npm install --offline ../../vendor/leftpad")
    assert codes(refused) == {"WG702"}
    assert f"{repo.main}/package.json" in refused.reason and f"{repo.main}/package-lock.json" in refused.reason
    (repo.main / "Cargo.toml").write_text("[workspace]\n")
    (repo.main / "src/auth/Cargo.toml").write_text("[package]\nname = 'auth'\n")
    cargo = wave.bash(A, "cd src/auth && cargo add serde")
    assert codes(cargo) == {"WG702"} and f"{repo.main}/Cargo.lock" in cargo.reason


# --- 9. a worker whose configuration cannot be read is refused ------------------------------------------------


@pytest.mark.parametrize("config", ["mode = 'enforce'\nbogus_key = 1\n", "[agents.general-purpose]\nowns = 5\n"])
def test_a_workers_call_with_an_invalid_configuration_is_refused(wave: Wave, config: str) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    assert codes(wave.write(A, "README.md")) == {"WG701"}
    (wave.repo.main / ".worktree-guard.toml").write_text(config)
    for refused in (wave.write(A, "README.md"), wave.bash(A, "git add -A")):
        assert refused.decision == "deny" and codes(refused) == {"WG000"}, refused.stdout


# --- 10, 11. an ownership block that is almost right ---------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "```Worktree-Guard\nowns: src/**\n```\n",
        "```worktree_guard\nowns: src/**\n```\n",
        "```worktree-guard yaml\nowns: src/**\n```\n",
        "```worktree-gaurd\nowns: src/**\n```\n",
        "owns: src/**\n",
        "```yaml\nworktree-guard:\n  owns: src/**\n```\n",
    ],
)
def test_a_near_miss_ownership_block_is_malformed_not_ignored(wave: Wave, body: str) -> None:
    refused = wave.dispatch("toolu_A", None, body=body)
    assert refused.decision == "deny" and codes(refused) == {"WG710"}, refused.reason


@pytest.mark.parametrize("indent", ["    ", "\t", "  "])
def test_an_indented_ownership_block_is_read(wave: Wave, indent: str) -> None:
    body = f"1. Fix it.\n{indent}```worktree-guard\n{indent}owns: src/auth/**\n{indent}```\n"
    assert wave.dispatch("toolu_A", None, body=body).decision == "pass"
    wave.event("SubagentStart", A)
    wave.link(A, "toolu_A")
    assert wave.write(A, "src/auth/a.py").decision == "pass"
    assert codes(wave.write(A, "README.md")) == {"WG701"}


def test_a_malformed_block_let_through_in_warn_mode_makes_a_worker_that_owns_nothing(wave: Wave, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKTREE_GUARD_MODE", "warn")
    warned = wave.dispatch("toolu_A", None, body="```worktree-guard\nonws: src/auth/**\n```\n")
    assert warned.decision == "warn" and codes(warned) == {"WG710"}
    wave.event("SubagentStart", A)
    wave.link(A, "toolu_A")
    written = wave.write(A, "README.md")
    assert written.decision == "warn" and codes(written) == {"WG701"}


# --- 12. an isolated worker whose start names its dispatcher's directory ----------------------------------------


def test_an_isolated_worker_is_never_blamed_for_the_main_checkout(wave: Wave) -> None:
    repo = wave.repo
    agent = repo.agent_id  # its worktree, .claude/worktrees/agent-<id>, exists
    assert wave.dispatch("toolu_I", "src/auth/**", isolation="worktree").decision == "pass"
    wave.event("SubagentStart", agent)  # cwd: the main checkout, as its dispatcher's
    wave.link(agent, "toolu_I")
    (repo.main / "README.md").write_text("the user's edit in the main checkout\n")
    stopped = wave.event("SubagentStop", agent)
    assert "WG706" not in stopped.stdout  # (the §5.4 leak check may still ask it about the main checkout: WG602)
    listed = rollback(repo, agent)
    assert listed.returncode == 2 and "no recorded stop" in listed.stderr


# --- wrong denies -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    ["mkdir -p __pycache__", "mkdir -p src/auth/__pycache__", "mkdir -p src/auth", "ruff format --check src", "ruff format --diff src",
     "black --check .", "black --diff src", "isort --check-only .", "cargo fmt --check", "rm -rf __pycache__"],
)
def test_commands_that_write_nothing_unowned_pass(wave: Wave, command: str) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    result = wave.bash(A, command)
    assert result.decision == "pass", result.reason


# --- robustness ---------------------------------------------------------------------------------------------


def test_a_shared_worker_may_not_enter_another_worktree_or_make_one(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    assert codes(wave.call(A, "EnterWorktree", {"path": str(wave.repo.sibling)})) == {"WG701"}
    assert codes(wave.call(A, "EnterWorktree", {"name": "feature"})) == {"WG703"}
    # Had it got there, its writes and its git would still be refused: it is judged against its own checkout.
    inside_sibling = call_from(wave, A, "Bash", {"command": "echo x > README.md && git add -A"}, wave.repo.sibling)
    assert codes(inside_sibling) == {"WG701", "WG703"}


def test_the_guards_own_audit_log_in_the_checkout_is_no_workers_change(wave: Wave) -> None:
    repo = wave.repo
    (repo.main / ".gitignore").write_text(".wg/\n")
    (repo.main / ".wg").mkdir()
    (repo.main / ".worktree-guard.toml").write_text('audit_log = ".wg/audit.jsonl"\n')
    git("add", "-A", cwd=repo.main)
    git("commit", "-qm", "audit", cwd=repo.main)
    wave.start(A, "toolu_A", "src/auth/**")
    assert wave.write(A, "src/auth/x.py").decision == "pass"  # appends to the audit log
    assert (repo.main / ".wg/audit.jsonl").exists()
    assert wave.event("SubagentStop", A).stdout == ""


def test_the_transcript_fallback_links_only_a_dispatch_of_the_same_agent_type(wave: Wave) -> None:
    prompt = "Do your part.\n```worktree-guard\nowns: src/auth/**\n```\n"
    assert wave.dispatch("toolu_A", "src/auth/**", subagent_type="reviewer").decision == "pass"
    transcript = wave.transcript.with_suffix("") / "subagents" / f"agent-{A}.jsonl"
    transcript.parent.mkdir(parents=True, exist_ok=True)
    transcript.write_text(json.dumps({"type": "user", "message": {"role": "user", "content": prompt}}) + "\n")
    refused = wave.write(A, "src/auth/a.py")  # a general-purpose sub-agent with the same prompt is not that dispatch's
    assert codes(refused) == {"WG701"} and "could not be linked" in refused.reason


def test_the_wave_index_and_registry_stay_private(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    waves = registry_file(wave).parent.parent
    assert (waves / "index.json").stat().st_mode & 0o777 == 0o600
    assert os.stat(waves).st_mode & 0o777 == 0o700
