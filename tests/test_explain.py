"""`worktree-guard explain COMMAND` (SPEC §9): the parse, the simulated cwd at each step, each decision. No test had it."""

from __future__ import annotations

import re
import subprocess

from tests.helpers import HOOK_EXE, Repo


def explain(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(HOOK_EXE), "explain", *args], capture_output=True, text=True, timeout=60)


def section(output: str, title: str) -> list[str]:
    """The indented lines under a `title` line (up to the next blank line)."""
    lines = output.splitlines()
    start = lines.index(title) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return lines[start:end]


def test_explain_shows_the_parse_each_steps_cwd_each_finding_and_the_verdict(repo: Repo) -> None:
    w, main = repo.worktree, repo.main
    command = f"cd src && echo x > {main}/f; cd $X"
    result = explain(command, "--cwd", str(w))
    assert result.returncode == 0 and result.stderr == ""
    out = result.stdout
    assert section(out, "parsed by bashlex:") == [
        "  Sequence ['&&', ';']",
        "    Command [cd src]  @0-6",
        f"    Command [echo x] >{main}/f  @10-{10 + len(f'echo x > {main}/f')}",
        f"    Command [cd <$X>]  @{command.index('cd $X')}-{len(command)}",
    ]
    assert f"worktree root W: {w} (linked worktree); isolated: yes (cwd is in the linked worktree {w})" in out.splitlines()
    shared = {line.split(":", 1)[1].strip() for line in out.splitlines() if line.startswith("shared root:")}
    assert shared == {str(main), str(repo.sibling), str(repo.outside)}
    # The cd moved the simulated shell: the echo runs in W/src; the list may also stop where the cd failed, in W,
    # so the last cd is walked in both (stop 25).
    assert section(out, "steps (where each runs):") == [
        f"  command  cwd={w}  'cd src'",
        f"  redirect cwd={w}/src  '> {main}/f'",
        f"  command  cwd={w}/src  'echo x > {main}/f'",
        f"  command  cwd={w}  'cd $X'",
        f"  command  cwd={w}/src  'cd $X'",
    ]
    findings = section(out, "findings:")
    assert [re.match(r"  (WG\d{3}) \[(\w+)\] at (\d+)-(\d+) '([^']*)'", f).groups() for f in findings] == [
        ("WG401", "writes", str(command.index(f"{main}/f")), str(command.index(f"{main}/f") + len(f"{main}/f")), f"{main}/f"),
        ("WG202", "cd", str(command.index("$X")), str(len(command)), "$X"),
    ]
    assert findings[0].endswith(f"(suggestion: {w}/f)")
    assert "verdict: deny" in out.splitlines()
    (reason,) = [line for line in out.splitlines() if line.startswith("reason sent to the agent: ")]
    assert reason.endswith("[worktree-guard WG202 WG401]")


def test_explain_for_an_agent_that_is_not_isolated(repo: Repo) -> None:
    out = explain(f"git switch feature && echo x > {repo.sibling}/f", "--cwd", str(repo.main)).stdout
    assert f"worktree root W: {repo.main} (main worktree); isolated: no (cwd is in the main worktree)" in out.splitlines()
    # The rules still say what they see; the verdict is a pass because the agent is not confined.
    assert [line.split()[0] for line in section(out, "findings:")] == ["WG401"]
    assert out.splitlines()[-1] == "verdict: pass"


def test_explain_an_unparseable_command(repo: Repo) -> None:
    out = explain("echo 'unterminated", "--cwd", str(repo.worktree)).stdout
    assert out.splitlines()[0].startswith("no parser could handle it: ")
    assert [line.split()[0] for line in section(out, "findings:")] == ["WG900"]
    assert "verdict: deny" in out.splitlines()


def test_explain_with_flags_and_a_bad_configuration(repo: Repo) -> None:
    out = explain("python3 -c 'print(1)'", "--cwd", str(repo.worktree), "--profile", "strict").stdout
    assert [line.split()[0] for line in section(out, "findings:")] == ["WG405"]
    (repo.main / ".worktree-guard.toml").write_text('mode = "sometimes"\n')
    bad = explain("ls", "--cwd", str(repo.worktree))
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("worktree-guard explain: ") and "'mode'" in bad.stderr and "Traceback" not in bad.stderr
