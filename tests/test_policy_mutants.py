"""policy.py exactly: §5.1's order for each place, both readings of a path with `..`, the guard's own paths and the
runtimes' directories — the rows that phase 14 of issue 13 (mutation testing, docs/testing.md) found missing. The
layouts are built by hand (no git): W inside the main checkout S, as `.claude/worktrees/<W>` is."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from worktree_guard.config import user_config_path
from worktree_guard.layout import Layout
from worktree_guard.paths import DEFAULT_PROTECT
from worktree_guard.policy import Judgement, PathPolicy, own_paths, runtime_homes

CLAUDE_ENTRIES = ["shell-snapshots", "settings.json", "settings.local.json", "plugins", "hooks"]
RUNTIME_VARIABLES = ["CLAUDE_CONFIG_DIR", "CODEX_HOME", "COPILOT_HOME"]


@pytest.fixture
def base(tmp_path: Path) -> Path:
    root = Path(os.path.realpath(tmp_path))
    (root / "real" / "deep").mkdir(parents=True)
    (root / "dlink").symlink_to(root / "real" / "deep")
    return root


def policy_for(base: Path, *, shared: list[str] | None = None, common: str | None = None, allow: list[str] = (), protect: list[str] = (), home: str | None = None) -> PathPolicy:
    main = f"{base}/main"
    layout = Layout(f"{main}/.claude/worktrees/w", [main] if shared is None else shared, linked=True, common_dir=common)
    return PathPolicy(layout, list(allow), list(protect), home=home if home is not None else f"{base}/home")


# --- runtime_homes, own_paths --------------------------------------------------------------------------------------


def test_runtime_homes_by_default_lie_under_home() -> None:
    expected = [f"/h/.claude/{entry}" for entry in CLAUDE_ENTRIES]
    expected += ["/h/.codex", "/h/.copilot", "/h/.gemini", "/h/.cline", "/h/.cursor", "/h/.claude.json"]
    assert runtime_homes({"HOME": "/h"}) == expected


def test_runtime_homes_named_by_their_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/env/home")
    environ = {"HOME": "/h", "CLAUDE_CONFIG_DIR": "/cc", "CODEX_HOME": "~/cx", "COPILOT_HOME": "relative"}
    expected = [f"/cc/{entry}" for entry in CLAUDE_ENTRIES]
    expected += ["/h/cx", "/h/.gemini", "/h/.cline", "/h/.cursor", "/h/.claude.json"]  # a relative one is left out
    assert runtime_homes(environ) == expected


@pytest.fixture
def own_env(monkeypatch: pytest.MonkeyPatch, base: Path) -> Path:
    """Every directory own_paths reads named under `base` (none of them the temp dir, HOME or `/`)."""
    monkeypatch.setenv("HOME", f"{base}/home")
    monkeypatch.setenv("XDG_CACHE_HOME", f"{base}/cache")
    monkeypatch.setenv("XDG_STATE_HOME", f"{base}/state")
    monkeypatch.setenv("XDG_CONFIG_HOME", f"{base}/cfg")
    monkeypatch.setenv("WT_GUARD_DAEMON_DIR", f"{base}/sock")
    monkeypatch.delenv("WORKTREE_GUARD_USER_CONFIG", raising=False)
    for variable in RUNTIME_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    return base


def own_expected(base: Path, home: str, config: str) -> list[str]:
    found = [f"{base}/cache/worktree-guard", f"{base}/state/worktree-guard", config, f"{base}/sock"]
    found += [f"{home}/.claude/{entry}" for entry in CLAUDE_ENTRIES]
    found += [f"{home}/{name}" for name in (".codex", ".copilot", ".gemini", ".cline", ".cursor", ".claude.json")]
    return sorted(found)


def test_own_paths_exactly(own_env: Path) -> None:
    base = own_env
    assert own_paths(f"{base}/home") == own_expected(base, f"{base}/home", f"{base}/cfg/worktree-guard")
    # the argument is HOME only where HOME is not absolute
    assert own_paths(f"{base}/other") == own_expected(base, f"{base}/home", f"{base}/cfg/worktree-guard")


def test_own_paths_with_a_relative_HOME_take_the_home_given(own_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = own_env
    monkeypatch.setenv("HOME", "relative")
    assert own_paths(f"{base}/given") == own_expected(base, f"{base}/given", f"{base}/cfg/worktree-guard")


def test_own_paths_protect_an_explicit_configuration_file_not_its_directory(own_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = own_env
    monkeypatch.setenv("WORKTREE_GUARD_USER_CONFIG", f"{base}/conf/mine.toml")
    assert user_config_path() == f"{base}/conf/mine.toml"
    assert own_paths(f"{base}/home") == own_expected(base, f"{base}/home", f"{base}/conf/mine.toml")


def test_own_paths_leave_out_the_root_home_and_the_temp_dir(own_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = own_env
    temp = os.path.realpath(tempfile.gettempdir())
    monkeypatch.setenv("CODEX_HOME", "/")
    monkeypatch.setenv("COPILOT_HOME", f"{base}/home")
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", f"{base}/dlink/..")  # canonical: real, kept
    monkeypatch.setenv("WT_GUARD_DAEMON_DIR", temp)
    own = own_paths(f"{base}/home")
    assert "/" not in own and f"{base}/home" not in own and temp not in own
    assert f"{base}/real/shell-snapshots" in own
    assert f"{base}/home/.gemini" in own


def test_own_paths_home_is_compared_as_the_home_given(own_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A home given as `~` is the path `/~` (expanded with itself), not the process's HOME.
    monkeypatch.setenv("CODEX_HOME", "/~")
    assert "/~" not in own_paths("~")
    assert f"{own_env}/home/.gemini" in own_paths("~")


def test_own_paths_state_dir_under_the_home_given_when_HOME_is_relative(own_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = own_env
    monkeypatch.setenv("HOME", "relative")
    monkeypatch.delenv("XDG_STATE_HOME")
    assert f"{base}/given/.local/state/worktree-guard" in own_paths(f"{base}/given")


def test_a_policy_finds_the_guards_own_paths_itself(own_env: Path) -> None:
    base = own_env
    policy = policy_for(base, home=f"{base}/home", allow=[str(base)])
    assert policy.own == own_paths(f"{base}/home")
    assert policy.touches_own(f"{base}/cache/worktree-guard/x")
    assert policy.judge_resolved(f"{base}/cache/worktree-guard/x") == Judgement("outside", f"{base}/cache/worktree-guard/x")
    assert policy.judge_resolved(f"{base}/free/x") == Judgement("allowed", f"{base}/free/x")


# --- PathPolicy: construction --------------------------------------------------------------------------------------


def test_a_policy_keeps_the_home_it_is_given_else_HOME(monkeypatch: pytest.MonkeyPatch, base: Path) -> None:
    monkeypatch.setenv("HOME", "/env/home")
    assert policy_for(base, home="/given").home == "/given"
    assert PathPolicy(Layout(None), [], []).home == "/env/home"
    policy = policy_for(base, home="/given")
    assert policy.canonical("~/x", "/") == "/given/x"
    assert policy.canonical("x", f"{base}/dlink") == f"{base}/real/deep/x"


def test_the_git_dir_is_a_shared_root_when_no_checkout_holds_it(base: Path) -> None:
    main = f"{base}/main"
    assert policy_for(base, common=f"{base}/bare.git").shared_roots == [main, f"{base}/bare.git"]
    assert policy_for(base, common=f"{main}/.git").shared_roots == [main, f"{main}/.git"]  # under S, named on its own
    assert policy_for(base, shared=[main, f"{main}/.git"], common=f"{main}/.git").shared_roots == [main, f"{main}/.git"]
    assert policy_for(base, common=f"{main}/.claude/worktrees/w/.git").shared_roots == [main]  # inside W
    assert policy_for(base, common=None).shared_roots == [main]
    outside = PathPolicy(Layout(None, [], common_dir=f"{base}/bare.git"), [], [], home="/h")
    assert outside.shared_roots == [f"{base}/bare.git"]
    assert PathPolicy(Layout(None), [], [], home="/h").shared_roots == []


def test_the_protect_list_is_relative_and_as_written(base: Path) -> None:
    policy = policy_for(base, protect=["secrets", "~/x", "/bin"])
    assert policy.protect.patterns == [*DEFAULT_PROTECT, "secrets", "~/x", "/bin"]


# --- judging -------------------------------------------------------------------------------------------------------


def test_each_place_exactly(base: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    main = f"{base}/main"
    w = f"{main}/.claude/worktrees/w"
    sibling = f"{w}/sib"
    policy = policy_for(base, shared=[main, sibling, w], allow=[f"{base}/ok"], protect=["*.key"])
    policy._own, policy._own_boundaries = [f"{base}/ok/own"], {"/"}
    assert policy.judge_resolved(f"{w}/a") == Judgement("inside", f"{w}/a")
    assert policy.judge_resolved(w) == Judgement("inside", w)
    assert policy.judge_resolved(f"{w}/.git") == Judgement("protected", f"{w}/.git")
    assert policy.judge_resolved(f"{w}/d/k.key") == Judgement("protected", f"{w}/d/k.key")
    assert policy.judge_resolved(f"{sibling}/a") == Judgement("shared", f"{sibling}/a", sibling, f"{w}/a")
    assert policy.judge_resolved(f"{main}/src/a") == Judgement("shared", f"{main}/src/a", main, f"{w}/src/a")
    assert policy.judge_resolved(main) == Judgement("shared", main, main, w)
    assert policy.judge_resolved(f"{main}/k.key") == Judgement("shared", f"{main}/k.key", main, None)
    assert policy.judge_resolved(f"{base}/ok/x") == Judgement("allowed", f"{base}/ok/x")
    assert policy.judge_resolved(f"{base}/ok/own/x") == Judgement("outside", f"{base}/ok/own/x")
    assert policy.judge_resolved(f"{base}/ok") == Judgement("outside", f"{base}/ok")  # holds an own path
    assert policy.judge_resolved("/opt/wg-elsewhere") == Judgement("outside", "/opt/wg-elsewhere")
    assert policy.judge_resolved("/dev/null") == Judgement("allowed", "/dev/null")


def test_w_itself_is_inside_whatever_the_protect_list_says(base: Path) -> None:
    w = f"{base}/main/.claude/worktrees/w"
    policy = policy_for(base, protect=["*"])
    assert policy.judge_resolved(w) == Judgement("inside", w)
    assert policy.judge_resolved(f"{w}/a") == Judgement("protected", f"{w}/a")


def test_outside_any_checkout(base: Path) -> None:
    policy = PathPolicy(Layout(None), [f"{base}/ok"], [], home="/h")
    policy._own, policy._own_boundaries = [], {"/"}
    assert policy.judge_resolved(f"{base}/ok/x") == Judgement("allowed", f"{base}/ok/x")
    assert policy.judge_resolved("/opt/wg-x") == Judgement("outside", "/opt/wg-x")
    assert policy.counterpart("/opt/wg-x", "/opt") is None


def test_no_counterpart_in_the_git_dir(base: Path) -> None:
    main = f"{base}/main"
    policy = policy_for(base, common=f"{base}/bare.git")
    assert policy.judge_resolved(f"{base}/bare.git/hooks/x") == Judgement("shared", f"{base}/bare.git/hooks/x", f"{base}/bare.git", None)
    assert policy.counterpart(f"{base}/bare.git/hooks/x", f"{base}/bare.git") is None
    assert policy.counterpart(f"{main}/a/b", main) == f"{main}/.claude/worktrees/w/a/b"
    assert policy.counterpart(main, main) == f"{main}/.claude/worktrees/w"


def test_touches_own(base: Path) -> None:
    policy = policy_for(base)
    temp = os.path.realpath(tempfile.gettempdir())
    policy._own = [f"{base}/own/cache", f"{temp}/wg-own-x"]
    assert policy.touches_own(f"{base}/own/cache")
    assert policy.touches_own(f"{base}/own/cache/x")
    assert policy.touches_own(f"{base}/own")  # holds one
    assert policy.touches_own(str(base))
    assert not policy.touches_own(f"{base}/own/other")
    assert not policy.touches_own("/")
    assert not policy.touches_own(temp)
    assert not policy.touches_own("/dev/null")
    policy._own = ["/dev/null/x"]
    assert not policy.touches_own("/dev/null")


# --- both readings of `..` -----------------------------------------------------------------------------------------


def test_forms_of_a_path_with_dotdot_after_a_symlink(base: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", "/env/home")
    policy = policy_for(base, home=f"{base}/dlink/..")
    assert policy.forms("dlink/../x", str(base)) == [f"{base}/real/x", f"{base}/x"]
    assert policy.forms(f"{base}/dlink/../x", "/") == [f"{base}/real/x", f"{base}/x"]
    assert policy.forms("x", f"{base}/dlink/..") == [f"{base}/real/x", f"{base}/x"]  # the `..` in cwd
    assert policy.forms("~/x", "/") == [f"{base}/real/x", f"{base}/x"]  # the `..` in the policy's home
    assert policy.forms("real/../x", str(base)) == [f"{base}/x"]  # both readings agree
    assert policy.forms("dlink/x", str(base)) == [f"{base}/real/deep/x"]
    assert policy.forms("..", f"{base}/real") == [str(base)]


def test_the_worst_reading_wins(base: Path) -> None:
    main = f"{base}/main"
    w = f"{main}/.claude/worktrees/w"
    os.makedirs(w)
    os.makedirs(f"{main}/t")
    os.symlink(f"{main}/t", f"{w}/tl")
    os.symlink(f"{w}/sub", f"{main}/ml")
    policy = policy_for(base)
    policy._own, policy._own_boundaries = [], {"/"}
    # kernel: main/x (shared); text: w/x (inside)
    assert policy.judge("tl/../x", w) == Judgement("shared", f"{main}/x", main, f"{w}/x")
    # kernel: w/x (inside); text: main/x (shared)
    assert policy.judge("ml/../x", main) == Judgement("shared", f"{main}/x", main, f"{w}/x")
    assert policy.judge("a/../b", w) == Judgement("inside", f"{w}/b")
