"""The shared-workspace wave (SPEC §11) at payload level, on real repositories: dispatch, a worker's calls, its
start and stop, and rollback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import Repo, git, payload, run_hook_inline, write_agent

SESSION = "5f1c2a4e-0000-4000-8000-00000000wave"
A, B, C = "a00000000000000a1", "a00000000000000b2", "a00000000000000c3"


class Wave:
    """An orchestrator in the main checkout dispatching workers, and the files Claude Code writes for them."""

    def __init__(self, repo: Repo, tmp: Path) -> None:
        self.repo = repo
        self.transcript = tmp / "home" / ".claude" / "projects" / "-repo" / f"{SESSION}.jsonl"
        self.transcript.parent.mkdir(parents=True, exist_ok=True)
        self.transcript.write_text("")

    def common(self, **extra) -> dict:
        return {"session_id": SESSION, "transcript_path": str(self.transcript), **extra}

    def dispatch(self, tool_use_id: str, owns: str | None, *, body: str | None = None, **fields) -> dict:
        prompt = "Do your part.\n" + (body if body is not None else (f"```worktree-guard\nowns: {owns}\n```\n" if owns is not None else ""))
        tool_input = {"description": "a worker", "prompt": prompt, "subagent_type": "general-purpose", **fields}
        out = run_hook_inline(payload(self.repo.main, "Agent", tool_input, tool_use_id=tool_use_id, **self.common()))
        return out

    def link(self, agent_id: str, tool_use_id: str) -> None:
        """What Claude Code writes by the sub-agent's first call (observed on 2.1.197 and 2.1.332)."""
        meta = self.transcript.with_suffix("") / "subagents" / f"agent-{agent_id}.meta.json"
        meta.parent.mkdir(parents=True, exist_ok=True)
        meta.write_text(json.dumps({"agentType": "general-purpose", "toolUseId": tool_use_id, "spawnDepth": 1}))

    def event(self, name: str, agent_id: str, **extra) -> dict:
        body = {"hook_event_name": name, "cwd": str(self.repo.main), "agent_id": agent_id, "agent_type": "general-purpose", **self.common()}
        if name == "SubagentStop":
            body["stop_hook_active"] = False
        body.update(extra)
        return run_hook_inline(body)

    def call(self, agent_id: str, tool: str, tool_input: dict, **extra):
        extra.setdefault("tool_use_id", f"toolu_{tool}")
        return run_hook_inline(payload(self.repo.main, tool, tool_input, agent_id=agent_id, agent_type="general-purpose", **self.common(), **extra))

    def write(self, agent_id: str, relative: str):
        return self.call(agent_id, "Write", {"file_path": str(self.repo.main / relative), "content": "x\n"})

    def bash(self, agent_id: str, command: str):
        return self.call(agent_id, "Bash", {"command": command})

    def start(self, agent_id: str, tool_use_id: str, owns: str | None) -> None:
        assert self.dispatch(tool_use_id, owns).decision in ("pass", "warn")  # warn: WG705, a dirty baseline
        self.event("SubagentStart", agent_id)
        self.link(agent_id, tool_use_id)


def codes(result) -> set[str]:
    out = result.output or {}
    text = out.get("hookSpecificOutput", {}).get("permissionDecisionReason") or out.get("reason") or out.get("systemMessage") or ""
    return {c for c in text.rsplit("[worktree-guard ", 1)[-1].rstrip("]").split() if c.startswith("WG")} if "[worktree-guard" in text else set()


@pytest.fixture
def wave(repo: Repo, tmp_path: Path) -> Wave:
    return Wave(repo, tmp_path)


# --- ownership on a worker's calls ------------------------------------------------------------------------------


def test_a_worker_writes_inside_its_ownership_and_is_refused_outside_naming_it(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/auth/**, tests/auth/**")
    assert wave.write(A, "src/auth/login.py").decision == "pass"
    refused = wave.write(A, "src/billing/pay.py")
    assert refused.decision == "deny" and codes(refused) == {"WG701"}
    assert "src/auth/**, tests/auth/**" in refused.reason and "dispatch prompt" in refused.reason


def test_bash_writes_redirections_and_tree_writers_are_judged_against_the_ownership(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    assert wave.bash(A, "echo x > src/auth/a.py && cp README.md src/auth/b.md && rm -r src/auth/old").decision == "pass"
    assert codes(wave.bash(A, "echo x > src/app.py")) == {"WG701"}
    assert codes(wave.bash(A, "cp README.md src/copied.md")) == {"WG701"}
    assert codes(wave.bash(A, "rm -r src")) == {"WG701"}  # reaches src/app.py, not owned
    assert codes(wave.bash(A, "echo x > $OUT")) == {"WG701"}  # only known at run time: fail closed
    assert codes(wave.bash(A, f"echo x > {wave.repo.sibling}/README.md")) == {"WG701"}  # another checkout


def test_reads_scratch_and_the_allow_list_pass(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    assert wave.bash(A, "cat src/app.py 2>/dev/null && git status && git diff && ls -la >&2").decision == "pass"
    assert wave.write(A, "src/__pycache__/app.cpython-311.pyc").decision == "pass"
    assert wave.bash(A, "echo x > /tmp/scratch.txt && rm -rf .pytest_cache").decision == "pass"
    assert wave.call(A, "Read", {"file_path": str(wave.repo.main / "src" / "app.py")}).decision == "pass"


@pytest.mark.parametrize(
    ("command", "surface"),
    [
        ("npm install left-pad", "package.json"),
        ("uv add requests", "pyproject.toml"),
        ("pnpm add zod", "pnpm-lock.yaml"),
        ("cargo add serde", "Cargo.toml"),
        ("go get example.com/x", "go.mod"),
        ("ruff format .", "everything below"),
        ("npx prettier --write src", "everything below"),
        ("python -m black src", "everything below"),
        ("jest -u", "everything below"),
    ],
)
def test_hidden_write_surfaces_are_refused_when_not_owned(wave: Wave, command: str, surface: str) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    refused = wave.bash(A, command)
    assert codes(refused) == {"WG702"}, refused.reason
    assert surface in refused.reason


def test_hidden_write_surfaces_pass_when_owned(wave: Wave) -> None:
    wave.start(A, "toolu_A", "package.json, package-lock.json, npm-shrinkwrap.json, node_modules/**, src/auth/**")
    assert wave.bash(A, "npm install left-pad").decision == "pass"
    assert wave.bash(A, "ruff format src/auth && ruff check --fix src/auth").decision == "pass"
    assert wave.bash(A, "ruff check src").decision == "pass"  # no --fix: reads


def test_a_shared_workspace_workers_git_is_refused_unless_read_only(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    for command in ("git commit -qm x", "git add src/auth/a.py", "git stash", "git switch -c x", "git branch feature",
                    "git tag v1", "git config user.name x", "git fetch origin", "git worktree add ../x"):
        assert codes(wave.bash(A, command)) == {"WG703"}, command
    for command in ("git status", "git log -1", "git diff HEAD", "git show HEAD", "git branch", "git branch --list",
                    "git tag -l", "git config --get user.name", "git stash list", "git worktree list", "git rev-parse HEAD"):
        assert wave.bash(A, command).decision == "pass", command


def test_a_read_only_worker_writes_nothing(wave: Wave) -> None:
    wave.start(A, "toolu_A", "none")
    refused = wave.write(A, "src/app.py")
    assert codes(refused) == {"WG701"} and "none (a read-only worker)" in refused.reason


def test_transcript_first_prompt_links_when_the_metadata_is_missing(wave: Wave) -> None:
    assert wave.dispatch("toolu_A", "src/auth/**").decision == "pass"
    prompt = "Do your part.\n```worktree-guard\nowns: src/auth/**\n```\n"
    transcript = wave.transcript.with_suffix("") / "subagents" / f"agent-{A}.jsonl"
    transcript.parent.mkdir(parents=True, exist_ok=True)
    transcript.write_text(json.dumps({"type": "user", "message": {"role": "user", "content": prompt}}) + "\n")
    assert wave.write(A, "src/auth/a.py").decision == "pass"
    assert codes(wave.write(A, "src/app.py")) == {"WG701"}


def test_an_unlinkable_sub_agent_of_a_wave_session_owns_nothing(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    refused = wave.write(B, "src/auth/a.py")  # no metadata, no transcript for B
    assert codes(refused) == {"WG701"} and "could not be linked" in refused.reason


def test_a_session_without_ownership_is_unaffected(wave: Wave) -> None:
    assert wave.dispatch("toolu_A", None).decision == "pass"
    wave.link(A, "toolu_A")
    assert wave.write(A, "src/app.py").decision == "pass"
    assert wave.write(B, "src/app.py").decision == "pass"  # not linkable, but the session declared nothing
    assert wave.bash(B, "git commit -qm x").decision == "pass"


def test_a_sub_agent_linked_to_a_dispatch_without_ownership_is_no_worker(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    wave.start(B, "toolu_B", None)
    assert wave.write(B, "src/app.py").decision == "pass"


def test_ownership_from_configuration_and_frontmatter(wave: Wave) -> None:
    (wave.repo.main / ".worktree-guard.toml").write_text('[agents.general-purpose]\nowns = ["docs/**"]\n')
    wave.start(A, "toolu_A", None)
    assert wave.write(A, "docs/a.md").decision == "pass"
    assert codes(wave.write(A, "src/app.py")) == {"WG701"}
    write_agent(wave.repo.main, "general-purpose", "worktree-guard:\n  owns: [src/**]")
    wave.start(B, "toolu_B", None)
    assert wave.write(B, "src/app.py").decision == "pass"  # frontmatter over configuration
    assert codes(wave.write(B, "docs/a.md")) == {"WG701"}


# --- at dispatch -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("```worktree-guard\nonws: src/**\n```\n", "unknown key 'onws'"),
        ("```worktree-guard\nowns:\n```\n", "`owns:` is empty"),
        ("```worktree-guard\nowns: src/**\n", "not closed"),
        ("```worktree-guard\nowns: src/x\\\n```\n", "not a valid pattern"),
        ("```worktree-guard\nowns: a\nowns: b\n```\n", "given twice"),
        ("```worktree-guard\nowns: !src\n```\n", "negation"),
    ],
)
def test_a_malformed_block_denies_the_dispatch(wave: Wave, body: str, says: str) -> None:
    refused = wave.dispatch("toolu_A", None, body=body)
    assert refused.decision == "deny" and codes(refused) == {"WG710"}
    assert says in refused.reason


def test_an_overlapping_dispatch_is_refused_while_the_other_worker_runs(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    assert codes(wave.dispatch("toolu_C", "src/**")) == {"WG704"}  # not linked yet: its dispatch is named
    wave.write(A, "src/auth/a.py")  # its first call links it
    refused = wave.dispatch("toolu_C", "src/**")
    assert codes(refused) == {"WG704"} and A in refused.reason and "src/auth/**" in refused.reason
    assert wave.dispatch("toolu_B", "src/billing/**").decision == "pass"
    wave.event("SubagentStop", A)  # forgotten at its stop
    assert wave.dispatch("toolu_C2", "src/auth/**").decision == "pass"
    assert codes(wave.dispatch("toolu_C3", "src/**")) == {"WG704"}  # B (src/billing/**) is still pending


def test_an_overlap_through_a_file_of_the_tree(wave: Wave) -> None:
    wave.start(A, "toolu_A", "*.py")
    refused = wave.dispatch("toolu_C", "src/app.py")
    assert codes(refused) == {"WG704"} and "src/app.py" in refused.reason


def test_a_stale_worker_is_forgotten(wave: Wave) -> None:
    (wave.repo.main / ".worktree-guard.toml").write_text("stale_worker_after = 0.2\n")
    wave.start(A, "toolu_A", "src/**")
    import time

    time.sleep(0.3)
    assert wave.dispatch("toolu_C", "src/**").decision == "pass"


def test_uncommitted_tracked_changes_warn_by_default_and_deny_in_strict(wave: Wave) -> None:
    (wave.repo.main / "README.md").write_text("the user's edit\n")
    warned = wave.dispatch("toolu_A", "src/**")
    assert warned.decision == "warn" and codes(warned) == {"WG705"} and "README.md" in warned.output["systemMessage"]
    (wave.repo.main / ".worktree-guard.toml").write_text('profile = "strict"\n')
    assert codes(wave.dispatch("toolu_B", "docs/**")) == {"WG705"} and wave.dispatch("toolu_B", "docs/**").decision == "deny"


# --- at the stop, and rollback ---------------------------------------------------------------------------------


def rollback(repo: Repo, agent_id: str, *flags: str) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("worktree-guard")
    return subprocess.run([str(exe), "rollback", "--agent", agent_id, *flags], cwd=repo.main, capture_output=True, text=True, timeout=60)


def test_a_change_outside_the_ownership_blocks_the_stop_once_and_rollback_restores_exactly_it(wave: Wave) -> None:
    repo = wave.repo
    (repo.main / "NOTES.md").write_text("the user's notes, dirty before\n")
    wave.start(A, "toolu_A", "src/auth/**")
    wave.start(B, "toolu_B", "docs/**")
    # A (through an inline interpreter the hook cannot see) rewrites the tracked src/app.py and makes a new file;
    # B writes its own docs; the user edits NOTES.md again.
    (repo.main / "src" / "app.py").write_text("print('changed by A')\n")
    (repo.main / "src" / "stray.py").write_text("stray\n")
    (repo.main / "src" / "auth").mkdir()
    (repo.main / "src" / "auth" / "login.py").write_text("mine\n")
    (repo.main / "docs").mkdir()
    (repo.main / "docs" / "b.md").write_text("B's\n")
    (repo.main / "NOTES.md").write_text("the user's notes, edited again\n")
    first = wave.event("SubagentStop", A)
    assert first.stop_blocked and codes(first) == {"WG706"}
    reason = first.output["reason"]
    assert f"{repo.main}/src/app.py" in reason and f"{repo.main}/src/stray.py" in reason
    assert "login.py" not in reason and "docs/b.md" not in reason and "NOTES.md" not in reason
    assert f"rollback --agent {A} --apply" in reason
    second = wave.event("SubagentStop", A, stop_hook_active=True)
    assert not second.stop_blocked and "WG706" in second.output["systemMessage"]

    listed = rollback(repo, A)
    assert listed.returncode == 0 and "would restore" in listed.stdout and "would remove" in listed.stdout
    assert (repo.main / "src" / "stray.py").exists()
    applied = rollback(repo, A, "--apply")
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert (repo.main / "src" / "app.py").read_text() == "print('app')\n"
    assert not (repo.main / "src" / "stray.py").exists()
    assert (repo.main / "src" / "auth" / "login.py").read_text() == "mine\n"
    assert (repo.main / "docs" / "b.md").read_text() == "B's\n"
    assert (repo.main / "NOTES.md").read_text() == "the user's notes, edited again\n"


def test_a_git_file_a_worker_writes_takes_no_tracked_file_out_of_blame(wave: Wave) -> None:
    """Review 33a: `src/.git` beside the tracked src/app.py made the checkout's own file look nested (only an info
    note, no blame, no rollback)."""
    repo = wave.repo
    wave.start(A, "toolu_A", "docs/**")
    (repo.main / "src" / "app.py").write_text("print('changed by A')\n")
    (repo.main / "src" / ".git").write_text("gitdir: /x\n")
    first = wave.event("SubagentStop", A)
    assert first.stop_blocked and codes(first) == {"WG706"} and f"{repo.main}/src/app.py" in first.output["reason"]
    applied = rollback(repo, A, "--apply")
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert (repo.main / "src" / "app.py").read_text() == "print('app')\n"


@pytest.mark.parametrize("made", ["git init", "a .git file naming a git directory"])
def test_rollback_restores_the_checkout_s_files_beside_a_repository_a_worker_made(wave: Wave, made: str, tmp_path: Path) -> None:
    """Review 33b, 7: after a worker's `git init src`, the stop named the tracked src/app.py (git lists it) but
    `rollback --apply` refused it, "inside the nested checkout", exit 1. A path the checkout's own git lists is
    the checkout's; a repository that was there at the start keeps its files."""
    repo = wave.repo
    git("init", "-q", str(repo.main / "vendor" / "lib"), cwd=repo.main)  # there before: a nested repository of its own
    (repo.main / "vendor" / "lib" / "theirs.txt").write_text("the vendored repository's\n")
    wave.start(A, "toolu_A", "docs/**")
    if made == "git init":
        git("init", "-q", str(repo.main / "src"), cwd=repo.main)
    else:
        git("init", "-q", "--bare", str(tmp_path / "elsewhere.git"), cwd=tmp_path)
        (repo.main / "src" / ".git").write_text(f"gitdir: {tmp_path / 'elsewhere.git'}\n")
    (repo.main / "src" / "app.py").write_text("print('changed by A')\n")
    (repo.main / "src" / "new.py").write_text("made by A\n")
    (repo.main / "vendor" / "lib" / "theirs.txt").write_text("changed by A\n")
    first = wave.event("SubagentStop", A)
    reason = first.output["reason"]
    assert first.stop_blocked and codes(first) == {"WG706"}
    assert f"{repo.main}/src/app.py" in reason and f"{repo.main}/src/new.py" in reason and "vendor" not in reason
    applied = rollback(repo, A, "--apply")
    assert f"{repo.main}/src/app.py: restored" in applied.stdout, applied.stdout + applied.stderr
    assert (repo.main / "src" / "app.py").read_text() == "print('app')\n"
    # a new file inside a repository is never removed (which repository made it, git cannot say): said, exit 1
    assert applied.returncode == 1 and f"{repo.main}/src/new.py: could not remove" in applied.stdout
    assert (repo.main / "src" / "new.py").exists()
    assert (repo.main / "vendor" / "lib" / "theirs.txt").read_text() == "changed by A\n"


def test_rollback_never_removes_a_vendored_file_the_worker_staged_or_reached_through_a_symlink(wave: Wave) -> None:
    """Review 34b: a worker that stages a file of a repository nested in the checkout (`git update-index --add`, or
    `git add d/theirs.txt` and then `d` a symlink to the repository) had rollback remove the vendored file."""
    repo = wave.repo
    lib = repo.main / "vendor" / "lib"
    git("init", "-q", str(lib), cwd=repo.main)
    (lib / "theirs.txt").write_text("the vendored repository's\n")
    (lib / "mine.txt").write_text("the vendored repository's too\n")
    wave.start(A, "toolu_A", "docs/**")
    blob = git("hash-object", "-w", str(lib / "theirs.txt"), cwd=repo.main).strip()
    git("update-index", "--add", "--cacheinfo", f"100644,{blob},vendor/lib/theirs.txt", cwd=repo.main)
    (repo.main / "d").mkdir()
    (repo.main / "d" / "mine.txt").write_text("x\n")
    git("add", "d/mine.txt", cwd=repo.main)
    (repo.main / "d" / "mine.txt").unlink()
    (repo.main / "d").rmdir()
    (repo.main / "d").symlink_to(lib)
    first = wave.event("SubagentStop", A)
    assert first.stop_blocked and codes(first) == {"WG706"}
    wave.event("SubagentStop", A)
    applied = rollback(repo, A, "--apply")
    assert applied.returncode == 1, applied.stdout
    assert (lib / "theirs.txt").read_text() == "the vendored repository's\n"
    assert (lib / "mine.txt").read_text() == "the vendored repository's too\n"


def test_a_repository_a_worker_makes_in_the_checkout_is_blamed(wave: Wave) -> None:
    """Review 33b: `git init src/plugins` and a file in it were only a note (a nested checkout); one that was not
    there at the worker's start is its change."""
    repo = wave.repo
    git("init", "-q", str(repo.main / "vendor" / "lib"), cwd=repo.main)  # there before: a nested repository of its own
    wave.start(A, "toolu_A", "docs/**")
    git("init", "-q", str(repo.main / "src" / "plugins"), cwd=repo.main)
    (repo.main / "src" / "plugins" / "__init__.py").write_text("x\n")
    (repo.main / "vendor" / "lib" / "changed.txt").write_text("x\n")
    first = wave.event("SubagentStop", A)
    assert first.stop_blocked and codes(first) == {"WG706"} and f"{repo.main}/src/plugins/" in first.output["reason"]
    assert "vendor" not in first.output["reason"]


def _worker_beside_the_runtime(wave: Wave, ignore: str) -> Path:
    """Worker A starts with `ignore` in the main checkout's .gitignore; the runtime then makes a worktree under
    .claude/worktrees/ (which another sub-agent writes in). Returns the main checkout's .claude."""
    repo = wave.repo
    (repo.main / ".gitignore").write_text(ignore)
    git("add", ".gitignore", cwd=repo.main)
    git("commit", "-qm", "ignore", cwd=repo.main)
    wave.start(A, "toolu_A", "src/auth/**")
    claude = repo.main / ".claude"
    git("worktree", "add", "-q", "-b", "worktree-agent-a999", str(claude / "worktrees" / "agent-a999"), cwd=repo.main)
    (claude / "worktrees" / "agent-a999" / "theirs.txt").write_text("x\n")
    return claude


@pytest.mark.parametrize("ignore", ["", ".claude/\n", ".claude/worktrees/\n"])
def test_the_runtimes_own_activity_during_a_workers_window_is_not_blamed(wave: Wave, ignore: str) -> None:
    claude = _worker_beside_the_runtime(wave, ignore)
    (claude / "settings.local.json").write_text("{}\n")
    assert wave.event("SubagentStop", A).stdout == ""


@pytest.mark.parametrize("ignore", ["", ".claude/\n", ".claude/worktrees/\n"])
def test_a_workers_file_beside_the_runtimes_own_is_blamed_and_rolled_back(wave: Wave, ignore: str) -> None:
    """The runtime's settings.local.json and the checkouts it makes under .claude/worktrees/ are never a worker's;
    a name that only starts like them is (h-sub32: matched as a text prefix, these went unblamed), whether or not
    git ignores them (an ignored directory is judged file by file)."""
    repo = wave.repo
    claude = _worker_beside_the_runtime(wave, ignore)
    (claude / "settings.local.json").write_text('{"permissions": {"allow": ["Bash(ls)"]}}\n')
    (claude / "settings.local.json.evil").write_text("evil\n")
    (claude / "worktrees").mkdir(exist_ok=True)
    (claude / "worktrees" / "notes.txt").write_text("stray\n")
    first = wave.event("SubagentStop", A)
    assert first.stop_blocked and codes(first) == {"WG706"}
    reason = first.output["reason"]
    assert f"{claude}/settings.local.json.evil" in reason and f"{claude}/worktrees/notes.txt" in reason
    assert f"{claude}/settings.local.json," not in reason and not reason.rstrip().endswith("settings.local.json") and "agent-a999" not in reason
    applied = rollback(repo, A, "--apply")
    assert applied.returncode == 0, applied.stdout + applied.stderr
    assert not (claude / "settings.local.json.evil").exists() and not (claude / "worktrees" / "notes.txt").exists()
    assert (claude / "settings.local.json").read_text() == '{"permissions": {"allow": ["Bash(ls)"]}}\n'


def test_a_path_dirty_at_the_start_that_changes_again_is_information_only(wave: Wave) -> None:
    (wave.repo.main / "README.md").write_text("dirty before\n")
    wave.start(A, "toolu_A", "src/auth/**")
    (wave.repo.main / "README.md").write_text("dirty before, and again\n")
    result = wave.event("SubagentStop", A)
    assert not result.stop_blocked and "README.md" in result.output["systemMessage"] and "never rolled back" in result.output["systemMessage"]


def test_rollback_leaves_a_path_changed_again_after_the_stop(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    (wave.repo.main / "src" / "app.py").write_text("by A\n")
    assert wave.event("SubagentStop", A).stop_blocked
    (wave.repo.main / "src" / "app.py").write_text("the user fixed it up after\n")
    applied = rollback(wave.repo, A, "--apply")
    assert applied.returncode == 1 and "changed again since the worker stopped" in applied.stdout
    assert (wave.repo.main / "src" / "app.py").read_text() == "the user fixed it up after\n"


def test_a_clean_worker_stops_silently_and_rollback_says_so(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/**")
    (wave.repo.main / "src" / "new.py").write_text("owned\n")
    assert wave.event("SubagentStop", A).stdout == ""
    done = rollback(wave.repo, A)
    assert done.returncode == 0 and "changed nothing outside its ownership" in done.stdout
    assert rollback(wave.repo, B).returncode == 2


# --- an isolated worker (WG707) ---------------------------------------------------------------------------------


def test_an_isolated_workers_changes_that_another_live_worktree_changed_too_are_reported(wave: Wave) -> None:
    repo = wave.repo
    tool_input = {"description": "iso", "prompt": "Go.\n```worktree-guard\nowns: src/**\n```\n", "subagent_type": "general-purpose", "isolation": "worktree"}
    assert run_hook_inline(payload(repo.main, "Agent", tool_input, tool_use_id="toolu_iso", **wave.common())).decision == "pass"
    # Before it starts, another agent's worktree changed src/app.py (committed) and another README.md.
    (repo.sibling / "src" / "app.py").write_text("the sibling's version\n")
    git("commit", "-qam", "sibling", cwd=repo.sibling)
    (repo.outside / "README.md").write_text("unrelated\n")
    iso = dict(cwd=str(repo.worktree), agent_id=repo.agent_id)
    wave.event("SubagentStart", **iso)
    wave.link(repo.agent_id, "toolu_iso")
    # Inside its own worktree the ownership applies too.
    inside = run_hook_inline(payload(repo.worktree, "Write", {"file_path": str(repo.worktree / "docs" / "x.md"), "content": "x"}, agent_id=repo.agent_id, agent_type="general-purpose", **wave.common()))
    assert codes(inside) == {"WG701"}
    (repo.worktree / "src" / "app.py").write_text("the worker's version\n")
    git("commit", "-qam", "worker", cwd=repo.worktree)
    result = wave.event("SubagentStop", **iso)
    assert not result.stop_blocked
    message = result.output["systemMessage"]
    assert "WG707" in message and f"src/app.py (also changed in {repo.sibling})" in message
    assert "README.md" not in message


def test_a_dispatch_with_an_ownership_that_cannot_be_recorded_is_refused(wave: Wave, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail closed: an unrecorded worker could not be found again, so its dispatch must not go through."""
    import worktree_guard.subagents.registry as registry

    def broken(self):
        raise TimeoutError("the wave registry stayed locked")

    monkeypatch.setattr(registry.Registry, "changing", broken)
    refused = wave.dispatch("toolu_A", "src/**")
    assert refused.decision == "deny" and codes(refused) == {"WG000"} and "stayed locked" in refused.reason
    assert wave.dispatch("toolu_B", None).decision == "warn"  # no ownership: the orchestrator is only told


def test_a_configured_ownership_that_does_not_parse_makes_its_workers_own_nothing(wave: Wave) -> None:
    (wave.repo.main / ".worktree-guard.toml").write_text('[agents.general-purpose]\nowns = ["src/x\\\\"]\n')
    refused = wave.write(A, "src/x.py")
    assert codes(refused) == {"WG701"} and "not a valid pattern" in refused.reason


def test_a_workers_sub_agent_owns_what_the_worker_owns_or_a_part_of_it(wave: Wave) -> None:
    wave.start(A, "toolu_A", "src/auth/**")
    wave.write(A, "src/auth/a.py")  # linked
    nested = lambda tool_use_id, prompt: wave.call(A, "Agent", {"description": "helper", "prompt": prompt, "subagent_type": "general-purpose"}, tool_use_id=tool_use_id)
    escalating = nested("toolu_n1", "Help.\n```worktree-guard\nowns: docs/**\n```\n")
    assert codes(escalating) == {"WG701"} and "docs/**" in escalating.reason
    assert nested("toolu_n3", "Help with no block.").decision == "pass"  # inherits src/auth/**, not A's overlap
    narrower = nested("toolu_n2", "Help.\n```worktree-guard\nowns: src/auth/tokens/**\n```\n")
    assert codes(narrower) == {"WG704"} and "toolu_n3" in narrower.reason  # a part of A's, but n3 has it all now
    wave.event("SubagentStart", C)
    wave.link(C, "toolu_n3")
    assert wave.write(C, "src/auth/b.py").decision == "pass"
    assert codes(wave.write(C, "src/app.py")) == {"WG701"}  # inherited: src/auth/** only


def test_a_worker_whose_start_was_not_seen_is_forgotten_at_its_stop(wave: Wave) -> None:
    assert wave.dispatch("toolu_A", "src/auth/**").decision == "pass"
    wave.link(A, "toolu_A")
    assert wave.write(A, "src/auth/a.py").decision == "pass"  # linked by its first call; no SubagentStart hook ran
    assert codes(wave.dispatch("toolu_C", "src/**")) == {"WG704"}
    assert wave.event("SubagentStop", A).stdout == ""
    assert wave.dispatch("toolu_C2", "src/**").decision == "pass"
