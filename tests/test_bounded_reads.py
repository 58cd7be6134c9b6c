"""The files the guard reads that an agent can make: a `.git` entry and the git files it leads to, a config, an
agent definition. Each is read only when it is a regular file, opened without blocking, and never past a bound.

Before, a `.git` link to /dev/zero (or a sparse file of many GiB) made the hook read until memory ran out, and a
hook the kernel kills has no reply, which Claude Code takes as "go on"; a FIFO made it wait out its 20 s budget.
The subprocess cases run under a 1 GiB address-space limit and a 15 s timeout, so that the old code fails them
quickly (MemoryError, or the timeout) instead of taking the machine's memory.
"""

from __future__ import annotations

import errno
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import HOOK_EXE, Repo, payload, run_hook_inline, write_agent
from worktree_guard import layout
from worktree_guard.config import MAX_CONFIG_FILE
from worktree_guard.layout import MAX_GIT_FILE, MAX_GIT_LINE, LayoutUnknown


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def run_limited(data: dict[str, object], cwd: Path, env: dict[str, str] | None = None) -> dict[str, object]:
    """`worktree-guard hook` in a fresh process with 1 GiB of address space, given 15 s."""
    result = subprocess.run(
        [str(HOOK_EXE), "hook"], input=json.dumps(data).encode(), capture_output=True, cwd=cwd,
        env={**os.environ, **(env or {})}, timeout=15, preexec_fn=_limited,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["hookSpecificOutput"]


def bash_in(repo: Repo, command: str) -> dict[str, str]:
    return payload(repo.worktree, "Bash", {"command": command}, agent_id=repo.agent_id, agent_type="general-purpose")


@pytest.mark.parametrize("make", ["dev-zero", "fifo", "sparse"])
def test_a_git_entry_the_agent_made_is_refused_without_being_read(repo: Repo, make: str) -> None:
    sub = repo.worktree / "sub"
    sub.mkdir()
    dotgit = sub / ".git"
    if make == "dev-zero":
        dotgit.symlink_to("/dev/zero")
    elif make == "fifo":
        os.mkfifo(dotgit)
    else:
        with open(dotgit, "wb") as f:
            f.write(b"gitdir: ../x")
            f.truncate(20 << 30)  # sparse: 20 GiB that take no disk
    reply = run_limited(bash_in(repo, "cd sub && git status"), cwd=repo.worktree)
    assert reply["permissionDecision"] == "deny"
    reason = reply["permissionDecisionReason"]
    assert reason.endswith("[worktree-guard WG000]")
    if make == "sparse":
        assert f"{dotgit} is larger than 4 MiB" in reason
    else:
        assert f"{dotgit} is not a readable `gitdir:` link" in reason


def test_a_git_dir_the_agent_made_with_a_fifo_inside_is_refused_promptly(repo: Repo) -> None:
    """A `.git` directory git would take (HEAD, objects, refs) whose `commondir` is a FIFO."""
    fake = repo.worktree / "sub" / ".git"
    (fake / "objects").mkdir(parents=True)
    (fake / "refs").mkdir()
    (fake / "HEAD").write_text("ref: refs/heads/main\n")
    os.mkfifo(fake / "commondir")
    reply = run_limited(bash_in(repo, "cd sub && git status"), cwd=repo.worktree)
    assert reply["permissionDecision"] == "deny"
    assert f"{fake / 'commondir'} is not a regular file" in reply["permissionDecisionReason"]
    assert reply["permissionDecisionReason"].endswith("[worktree-guard WG000]")


def test_a_large_git_file_is_unknown_in_process(repo: Repo) -> None:
    """Just over the bound, so that the old code's full read stays cheap: strict reads refuse, others see nothing."""
    big = repo.worktree / "sub" / ".git"
    big.parent.mkdir()
    with open(big, "wb") as f:
        f.write(b"gitdir: ../x")
        f.truncate(MAX_GIT_FILE + 1)
    result = run_hook_inline(bash_in(repo, "cd sub && git status"))
    assert result.decision == "deny" and result.codes == ["WG000"]
    assert f"{big} is larger than 4 MiB" in result.reason
    with pytest.raises(LayoutUnknown, match="is larger than 4 MiB"):
        layout._read_first_line(str(big), strict=True)
    assert layout._read_text(str(big)) is None
    exact = repo.worktree / "exact"
    exact.write_bytes(b"x" * MAX_GIT_FILE)
    assert layout._read_text(str(exact), strict=True) == "x" * MAX_GIT_FILE  # the bound itself is read
    assert layout._read_first_line(str(exact)) is None  # but not as a first line: that bound is MAX_GIT_LINE


def test_a_file_that_grows_past_the_bound_while_read_is_cut_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """/proc files report size 0 (as a file that grows after fstat): the read itself is bounded too."""
    monkeypatch.setattr(layout, "MAX_GIT_FILE", 16)
    assert os.stat("/proc/self/maps").st_size == 0
    with pytest.raises(LayoutUnknown, match="/proc/self/maps is larger than"):
        layout._read_text("/proc/self/maps", strict=True)
    assert layout._read_text("/proc/self/maps") is None
    monkeypatch.setattr(layout, "MAX_GIT_LINE", 8)
    with pytest.raises(LayoutUnknown, match="/proc/self/maps has a first line longer than 8 characters"):
        layout._read_first_line("/proc/self/maps", strict=True)


def test_a_first_line_is_read_up_to_its_bound(tmp_path: Path) -> None:
    line = tmp_path / "gitdir"
    line.write_text("a" * MAX_GIT_LINE + "\nrest\n")
    assert layout._read_first_line(str(line), strict=True) == "a" * MAX_GIT_LINE
    line.write_text("a" * (MAX_GIT_LINE + 1) + "\n")
    with pytest.raises(LayoutUnknown, match=f"has a first line longer than {MAX_GIT_LINE} characters"):
        layout._read_first_line(str(line), strict=True)
    assert layout._read_first_line(str(line)) is None


def test_a_gitdir_link_longer_than_a_path_is_refused_at_once(repo: Repo) -> None:
    """Resolving `gitdir: a/a/a/…` of 16 MiB took longer than the hook's 20 s budget."""
    dotgit = repo.worktree / "sub" / ".git"
    dotgit.parent.mkdir()
    dotgit.write_text("gitdir: " + "a/" * 500_000 + "\n")
    result = run_hook_inline(bash_in(repo, "cd sub && git status"))
    assert result.codes == ["WG000"]
    assert f"{dotgit} has a first line longer than {MAX_GIT_LINE} characters" in result.reason


def test_the_git_config_reader_keeps_only_the_keys_it_needs(tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.write_text("[core]\n" + "".join(f"\tk{i} = {i}\n" for i in range(1000)) + "\tworktree = /w\n\tbare = false\n[extensions]\n\tworktreeConfig = true\n\tother = 1\n")
    assert layout.read_git_core(str(config)) == {"core.worktree": "/w", "core.bare": "false", "extensions.worktreeconfig": "true"}


def test_a_git_config_linked_to_dev_null_is_empty_as_git_reads_it(repo: Repo) -> None:
    config = repo.main / ".git" / "config"
    config.unlink()
    config.symlink_to(os.devnull)
    assert run_hook_inline(bash_in(repo, "ls")).decision == "pass"
    assert run_hook_inline(bash_in(repo, f"touch {repo.main}/x")).codes == ["WG401"]
    assert layout._read_text(str(config), strict=True) == ""


def test_non_strict_reads_of_a_fifo_or_device_see_nothing(tmp_path: Path) -> None:
    """In a child under the limits: the old code blocks on the FIFO and reads /dev/zero without end."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    code = (
        "import sys\nfrom worktree_guard import layout\n"
        "print(layout._read_text(sys.argv[1]), layout._read_first_line('/dev/zero'))\n"
        "try:\n    layout._read_text('/dev/zero', strict=True)\nexcept layout.LayoutUnknown as e:\n    print(e)\n"
    )
    result = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=15, preexec_fn=_limited)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["None None", "/dev/zero is not a regular file"]


@pytest.mark.parametrize("make", ["dev-zero", "fifo"])
def test_a_user_config_that_is_not_a_regular_file_is_refused(repo: Repo, tmp_path: Path, make: str) -> None:
    config = tmp_path / "guard.toml"
    if make == "dev-zero":
        config.symlink_to("/dev/zero")
    else:
        os.mkfifo(config)
    reply = run_limited(bash_in(repo, "ls"), cwd=repo.worktree, env={"WORKTREE_GUARD_USER_CONFIG": str(config)})
    assert reply["permissionDecision"] == "deny"
    assert f"{config}: cannot read: not a regular file" in reply["permissionDecisionReason"]


def test_a_user_config_of_dev_null_is_an_empty_config(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKTREE_GUARD_USER_CONFIG", os.devnull)
    assert run_hook_inline(bash_in(repo, "ls")).decision == "pass"
    assert run_hook_inline(bash_in(repo, f"touch {repo.main}/x")).codes == ["WG401"]  # the guard still judges


def test_a_large_pyproject_without_a_guard_section_is_read(repo: Repo) -> None:
    """A pyproject.toml of 2 MiB (a long dependency list) is no reason to refuse every call."""
    (repo.main / "pyproject.toml").write_text('[project]\nname = "x"\n' + "# padding\n" * 220_000)
    assert run_hook_inline(bash_in(repo, "ls")).decision == "pass"


def test_a_config_that_is_not_utf8_is_a_config_error(tmp_path: Path) -> None:
    from worktree_guard.config import ConfigError, project_layer

    (tmp_path / ".worktree-guard.toml").write_bytes(b"mode = '\xe9'\n")
    with pytest.raises(ConfigError, match=r"\.worktree-guard\.toml: not valid TOML"):
        project_layer(str(tmp_path))


def test_a_config_that_grows_past_the_bound_while_read_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from worktree_guard import config
    from worktree_guard.config import ConfigError

    monkeypatch.setattr(config, "MAX_CONFIG_FILE", 16)
    with pytest.raises(ConfigError, match="/proc/self/maps: cannot read: larger than"):
        config._read_toml("/proc/self/maps")


def test_a_config_over_the_bound_is_refused(repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "guard.toml"
    config.write_bytes(b"#" * (MAX_CONFIG_FILE + 1))
    monkeypatch.setenv("WORKTREE_GUARD_USER_CONFIG", str(config))
    result = run_hook_inline(bash_in(repo, "ls"))
    assert result.decision == "deny" and result.codes == ["WG000"]
    assert f"{config}: cannot read: larger than 16 MiB" in result.reason
    config.write_bytes(b"#" * MAX_CONFIG_FILE)  # a comment of exactly the bound is read
    assert run_hook_inline(bash_in(repo, "ls")).decision == "pass"


def test_an_agent_definition_that_is_a_fifo_is_refused_promptly(repo: Repo) -> None:
    """The definition of the dispatched type, looked up in the project's `.claude/agents`, is a FIFO."""
    agents = repo.main / ".claude" / "agents"
    write_agent(repo.main, "helper", "name: helper\nisolation: worktree\n")
    os.mkfifo(agents / "other.md")  # read while looking for `reviewer` (any .md below may name it)
    code = (
        "import sys\nfrom worktree_guard.agents import AgentDefinitionError, find_agent_definition\n"
        "try:\n    find_agent_definition('reviewer', sys.argv[1], sys.argv[2])\nexcept AgentDefinitionError as e:\n"
        "    print(e)\n"
    )
    result = subprocess.run([sys.executable, "-c", code, str(repo.main), str(repo.base / "home")],
                            capture_output=True, text=True, timeout=15, env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"{agents / 'other.md'}: cannot read: [Errno {errno.EINVAL}] not a regular file: '{agents / 'other.md'}'"


def test_a_home_that_is_not_a_directory_has_no_user_config(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """HOME=/dev/null (some service accounts): nothing can lie below it, so there is no user config, as with a
    HOME that does not exist. Before, every call was refused (WG000: "Not a directory")."""
    monkeypatch.setenv("HOME", os.devnull)
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert run_hook_inline(bash_in(repo, "ls")).decision == "pass"
    assert run_hook_inline(bash_in(repo, f"touch {repo.main}/x")).codes == ["WG401"]
    file_home = repo.base / "home-file"
    file_home.write_text("")
    monkeypatch.setenv("HOME", str(file_home))
    assert run_hook_inline(bash_in(repo, "ls")).decision == "pass"


def test_agent_frontmatter_with_aliases_is_refused_at_once(repo: Repo) -> None:
    """500 bytes of nested aliases expand to a billion items when `name` is turned into a string."""
    from worktree_guard.agents import AgentDefinitionError, find_agent_definition

    levels = ["l0: &l0 [x, x, x, x, x, x, x, x, x]"] + [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, 9)]
    write_agent(repo.main, "bomb", "\n".join(levels) + "\nname: *l8")
    with pytest.raises(AgentDefinitionError, match=r"frontmatter is not valid YAML: an alias \(\*name\) is not read"):
        find_agent_definition("general-purpose", str(repo.main), str(repo.base / "home"))
    write_agent(repo.main, "bomb", "name: bomb\nanchored: &a 1\nisolation: worktree")  # an anchor alone is fine
    assert find_agent_definition("bomb", str(repo.main), str(repo.base / "home")).isolated


def test_an_agents_directory_with_too_many_entries_is_refused(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """`.claude/agents -> /` walked the whole filesystem on every call."""
    from worktree_guard import agents
    from worktree_guard.agents import AgentDefinitionError, find_agent_definition

    directory = repo.main / ".claude" / "agents"
    directory.mkdir(parents=True)
    for i in range(6):
        (directory / f"a{i}.md").write_text("no frontmatter\n")
    monkeypatch.setattr(agents, "MAX_DEFINITION_ENTRIES", 6)
    assert find_agent_definition("reviewer", str(repo.main), str(repo.base / "home")) is None  # 6: the bound
    (directory / "sub").mkdir()
    with pytest.raises(AgentDefinitionError, match=f"{directory}: more than 6 entries"):
        find_agent_definition("reviewer", str(repo.main), str(repo.base / "home"))


def test_an_agent_definition_is_read_up_to_256_kib(repo: Repo) -> None:
    from worktree_guard.agents import find_agent_definition

    path = write_agent(repo.main, "late", "name: late\nisolation: worktree\n" + "# pad\n" * 50_000)
    assert path.stat().st_size > 256 * 1024  # its closing `---` lies past the bound: no frontmatter is read
    assert find_agent_definition("late", str(repo.main), str(repo.base / "home")) is None
    path = write_agent(repo.main, "early", "name: early\nisolation: worktree\n" + "# pad\n" * 40_000)
    assert path.stat().st_size < 256 * 1024
    assert find_agent_definition("early", str(repo.main), str(repo.base / "home")).isolated


def test_the_reads_themselves_are_bounded_when_the_size_lies(tmp_path: Path) -> None:
    """A file whose size fstat under-reports (a /proc file, one that grows after the look) is still read only up to
    the bound: in a child under 1 GiB, with fstat made to say 0 for a sparse 20 GiB git file and config."""
    sparse = tmp_path / "big"
    with open(sparse, "wb") as f:
        f.truncate(20 << 30)
    code = (
        "import os, sys\nfrom worktree_guard import config, layout\n"
        "real = os.fstat\n"
        "class Small:\n    def __init__(self, s): self.s = s\n    def __getattr__(self, n): return 0 if n == 'st_size' else getattr(self.s, n)\n"
        "os.fstat = lambda fd: Small(real(fd))\n"
        "for read in (lambda: layout._read_text(sys.argv[1], strict=True), lambda: layout._read_first_line(sys.argv[1], strict=True),\n"
        "             lambda: config._read_toml(sys.argv[1])):\n"
        "    try:\n        read()\n    except (layout.LayoutUnknown, config.ConfigError) as e:\n        print(str(e).replace(sys.argv[1], 'F'))\n"
    )
    result = subprocess.run([sys.executable, "-c", code, str(sparse)], capture_output=True, text=True, timeout=60, preexec_fn=_limited)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "F is larger than 4 MiB", f"F has a first line longer than {MAX_GIT_LINE} characters", "F: cannot read: larger than 16 MiB",
    ]
