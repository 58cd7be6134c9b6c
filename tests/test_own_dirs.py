"""worktree-guard's own directories are never writable by an isolated agent, even inside the allow-list.

The cache (parse tables, entry points), the daemons' sockets, the sub-agent and wave state and the user's
configuration decide what the guard does. Here, as in CI and in containers whose HOME is under the temp dir,
HOME and the XDG directories lie in /tmp, which the default allow-list holds: writes there used to pass.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import Repo, run_hook_inline, subagent_payload
from worktree_guard.client import socket_dir
from worktree_guard.config import user_config_path
from worktree_guard.private_dir import cache_root
from worktree_guard.subagents.places import state_root


def own_files() -> dict[str, str]:
    return {
        "cache": os.path.join(cache_root(os.environ), "entry-points.json"),
        "sockets": os.path.join(socket_dir(os.environ), "x.lock"),
        "state": os.path.join(state_root(), "s", "a.json"),
        "config": user_config_path(),
    }


def test_the_directories_lie_in_the_allow_listed_temp_dir_here() -> None:
    assert all(path.startswith("/tmp/") for path in own_files().values()), own_files()


@pytest.mark.parametrize("which", ["cache", "sockets", "state", "config"])
def test_a_write_into_the_guards_own_files_is_refused(repo: Repo, which: str) -> None:
    target = own_files()[which]
    write = run_hook_inline(subagent_payload(repo, "Write", {"file_path": target, "content": "x"}))
    assert write.decision == "deny" and write.codes == ["WG102"], write.stdout
    bash = run_hook_inline(subagent_payload(repo, "Bash", {"command": f"echo x > {target}"}))
    assert bash.decision == "deny" and bash.codes == ["WG402"], bash.stdout


def test_the_rest_of_the_temp_dir_stays_allowed(repo: Repo, tmp_path: Path) -> None:
    beside = Path(cache_root(os.environ)).parent / "other-tool" / "x"  # the same cache dir, another tool's
    for path in (tmp_path / "scratch.txt", beside):
        assert run_hook_inline(subagent_payload(repo, "Write", {"file_path": str(path), "content": "x"})).decision == "pass"
        assert run_hook_inline(subagent_payload(repo, "Bash", {"command": f"echo x > {path}"})).decision == "pass"


@pytest.mark.parametrize("command", [
    "mv {config_home} /tmp/old-config",
    "rm -rf {config_home}",
    "ln -sfn /tmp/mine {config_home}",
    "rm -rf {cache_home}",
])
def test_a_directory_holding_the_guards_own_files_cannot_be_moved_or_replaced(repo: Repo, command: str) -> None:
    """`mv ~/.config x && ln -s mine ~/.config` would put another configuration in place of the user's."""
    config_home = os.path.dirname(os.path.dirname(user_config_path()))
    cache_home = os.path.dirname(cache_root(os.environ))
    result = run_hook_inline(subagent_payload(repo, "Bash", {"command": command.format(config_home=config_home, cache_home=cache_home)}))
    assert result.decision == "deny" and result.codes == ["WG402"], result.stdout


def test_the_temp_dir_itself_stays_a_writable_destination(repo: Repo, tmp_path: Path) -> None:
    """It holds the guard's files here, and everything else too: `cp x /tmp` writes into /tmp."""
    for command in (f"mkdir -p {tmp_path}/out && cp README.md {tmp_path}/out", "cp README.md /tmp", f"touch {tmp_path}/worktree-guard-other"):
        assert run_hook_inline(subagent_payload(repo, "Bash", {"command": command})).decision == "pass", command


@pytest.mark.parametrize("command", [
    "rm -rf ~", "mv ~ /tmp/old-home", "cp -r /tmp/evil/.config ~", "cp -r /tmp/evil/. ~", "tar -xf /tmp/e.tar -C ~",
    "rsync -a /tmp/evil/ ~/", "cp README.md ~",
])
def test_a_home_in_the_allow_list_is_not_replaced_or_filled(repo: Repo, command: str) -> None:
    """Where HOME lies in the temp dir (CI, containers), it holds the guard's configuration and state: a tree copied
    into it (`cp -r evil/.config ~`, then mode = off) or HOME replaced would change the guard. A file copied to HOME
    itself is refused too there (a small false deny)."""
    result = run_hook_inline(subagent_payload(repo, "Bash", {"command": command}))
    assert result.decision == "deny" and "WG402" in result.codes, (command, result.stdout)


def test_relative_xdg_directories_are_ignored(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """A relative XDG_CONFIG_HOME was read from the hook's cwd, the agent's worktree: the agent could write the
    user configuration (mode = "off") there. The XDG spec says to ignore a relative value."""
    monkeypatch.setenv("XDG_CONFIG_HOME", "rel-config")
    monkeypatch.setenv("XDG_STATE_HOME", "rel-state")
    monkeypatch.chdir(repo.worktree)
    assert user_config_path() == os.path.join(os.environ["HOME"], ".config", "worktree-guard", "config.toml")
    assert state_root() == os.path.join(os.environ["HOME"], ".local", "state", "worktree-guard", "subagents")
    (repo.worktree / "rel-config" / "worktree-guard").mkdir(parents=True)
    (repo.worktree / "rel-config" / "worktree-guard" / "config.toml").write_text('mode = "off"\n')
    result = run_hook_inline(subagent_payload(repo, "Bash", {"command": f"cd {repo.main} && git switch -c x"}))
    assert result.decision == "deny" and set(result.codes) == {"WG201", "WG301"}, result.stdout


def test_an_explicit_configuration_file_in_the_temp_dir_protects_the_file_not_the_temp_dir(repo: Repo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("WORKTREE_GUARD_USER_CONFIG", "/tmp/wg-test-config.toml")
    assert run_hook_inline(subagent_payload(repo, "Bash", {"command": "echo x > /tmp/wg-test-config.toml"})).codes == ["WG402"]
    assert run_hook_inline(subagent_payload(repo, "Bash", {"command": f"echo x > {tmp_path}/scratch.txt"})).decision == "pass"
    assert run_hook_inline(subagent_payload(repo, "Write", {"file_path": "/tmp/other.txt", "content": "x"})).decision == "pass"


def test_a_relative_home_or_configuration_path_is_not_read_from_the_agents_directory(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "rel-home")
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.chdir(repo.worktree)
    assert os.path.isabs(user_config_path()) and not user_config_path().startswith(str(repo.worktree))
    assert os.path.isabs(state_root()) and not state_root().startswith(str(repo.worktree))
    monkeypatch.setenv("WORKTREE_GUARD_USER_CONFIG", "rel-config.toml")
    assert os.path.isabs(user_config_path())


def test_the_allow_lists_devices_stay_writable_whatever_the_cache_directory_is(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """`2>/dev/null` is in most commands: it is judged without looking the guard's directories up, and a cache
    directory named below /dev/null (an XDG_CACHE_HOME of /dev/null/…, as service accounts' HOMEs are) does not make
    /dev/null a directory holding one."""
    monkeypatch.setenv("XDG_CACHE_HOME", "/dev/null/cache")
    for command in ("ls 2>/dev/null", "echo x >/dev/stderr", "git status >/dev/null 2>&1"):
        assert run_hook_inline(subagent_payload(repo, "Bash", {"command": command})).decision == "pass", command


@pytest.mark.parametrize(("variable", "name"), [("CLAUDE_CONFIG_DIR", ".claude"), ("CODEX_HOME", ".codex"), ("COPILOT_HOME", ".copilot"), (None, ".gemini"), (None, ".cline"), (None, ".cursor")])
def test_the_runtimes_own_directories_are_refused_in_the_temp_dir(repo: Repo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, variable: str | None, name: str) -> None:
    """Claude Code sources `~/.claude/shell-snapshots/snapshot-bash-*.sh` before every Bash call: a `cd <main>`
    appended there ran every later call in the main checkout while the payload's cwd said W (observed, stop 27:
    docs/shell-persistence.md). Each runtime's directory also holds the user-level hooks that start the guard."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    for other in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "COPILOT_HOME"):
        monkeypatch.delenv(other, raising=False)
    default = home / name / "shell-snapshots" / "snapshot-bash-1-x.sh"
    targets = [default] if name == ".claude" else [home / name / "hooks.json"]
    if name == ".claude":
        targets += [home / name / "settings.json", home / name / "plugins" / "p" / "hooks" / "hooks.json"]
    if variable is not None:
        moved = tmp_path / "elsewhere" / name.lstrip(".")
        monkeypatch.setenv(variable, str(moved))
        targets = [moved / "settings.json"]
    for target in targets:
        bash = run_hook_inline(subagent_payload(repo, "Bash", {"command": f"echo 'cd {repo.main}' >> {target}"}))
        assert bash.decision == "deny" and bash.codes == ["WG402"], bash.stdout
        write = run_hook_inline(subagent_payload(repo, "Write", {"file_path": str(target), "content": "x"}))
        assert write.decision == "deny" and write.codes == ["WG102"], write.stdout
    beside = home / "notes.txt"  # the rest of a HOME in the temp dir stays allowed
    assert run_hook_inline(subagent_payload(repo, "Bash", {"command": f"echo x > {beside}"})).decision == "pass"
    if name == ".claude":  # so do Claude Code's plans and transcripts, which the default allow-list holds
        for kept in (home / ".claude" / "plans" / "p.md", home / ".claude" / "projects" / "-x" / "s.jsonl"):
            assert run_hook_inline(subagent_payload(repo, "Write", {"file_path": str(kept), "content": "x"})).decision == "pass", kept


def test_claude_json_and_a_runtime_home_given_with_a_tilde_are_refused(repo: Repo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Review 27b: `~/.claude.json` (Claude Code's MCP servers start commands) passed, and `CODEX_HOME=~/x` was
    dropped as not absolute."""
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CODEX_HOME", "~/codex-home")
    for target in (home / ".claude.json", home / "codex-home" / "config.toml"):
        bash = run_hook_inline(subagent_payload(repo, "Bash", {"command": f"echo x >> {target}"}))
        assert bash.decision == "deny" and bash.codes == ["WG402"], (target, bash.stdout)
