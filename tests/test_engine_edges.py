"""The engine's merging and wording, field by field: each test here kills mutants of worktree_guard/engine.py that
bench/mutation.py found surviving the other tests (issue 13, phase 3). Verdicts are built from real calls in a
real repository with real linked worktrees where the engine places them (`repo.worktree` is the agent's W)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from worktree_guard.config import Settings
from worktree_guard.engine import CallError, build_context, combine, decide, decide_event, reason_text, scope_for
from worktree_guard.model import AgentEvent, EventVerdict, ToolCall, Verdict, Violation
from worktree_guard.plugins import plugin_manager

from .helpers import Repo, payload

PM = plugin_manager(entry_points=False)


def violation(code: str = "WG101", message: str = "Outside.", **fields: Any) -> Violation:
    return Violation(code=code, rule="r", tool="Write", message=message, **fields)


# --- reason_text -----------------------------------------------------------------------------------------------


def test_the_reason_names_the_errors_with_their_suggestions_then_the_codes() -> None:
    errors = [
        violation("WG401", "First.  ", suggestion="/w/a"),
        violation("WG101", "Second, use /w/b.", suggestion="/w/b"),  # the suggestion is in the text already
        violation("WG401", "Third."),
        violation("WG104", "A warning.", severity="warning"),
        violation("WG105", "Info.", severity="info"),
    ]
    assert reason_text(Verdict(decision="deny", violations=errors)) == "First. Use /w/a instead. Second, use /w/b. Third. [worktree-guard WG101 WG401]"
    assert reason_text(Verdict(decision="rewrite", violations=errors[:1])) == "First. Rewritten to /w/a. [worktree-guard WG401]"
    warnings = [violation("WG104", "Read outside.", severity="warning", suggestion="/w/r"), violation("WG105", "Info.", severity="info")]
    assert reason_text(Verdict(decision="warn", violations=warnings)) == "Read outside. Use /w/r instead. [worktree-guard WG104]"
    assert reason_text(Verdict(decision="pass", violations=[])) == " [worktree-guard ]"


# --- combine ---------------------------------------------------------------------------------------------------


def test_combine_by_mode_and_fixes() -> None:
    fix = {"file_path": "/w/x"}
    enforce, rewrite, warn = Settings(mode="enforce"), Settings(mode="rewrite"), Settings(mode="warn")
    fixed = violation(fixed_input=fix)
    assert combine([], enforce, "/w") == Verdict(decision="pass", violations=[], worktree_root="/w", isolated=True)
    assert combine([], enforce, "/w", isolated=False) == Verdict(decision="pass", worktree_root="/w", isolated=False)
    note = violation("WG104", severity="warning")
    info = violation("WG105", severity="info")
    assert combine([note, info], enforce, "/w") == Verdict(decision="warn", violations=[note, info], worktree_root="/w", isolated=True)
    assert combine([info], enforce, "/w").decision == "pass"
    assert combine([info], enforce, "/w").violations == [info]
    assert combine([fixed, note], warn, "/w", False) == Verdict(decision="warn", violations=[fixed, note], worktree_root="/w", isolated=False)
    assert combine([fixed, note], rewrite, "/w") == Verdict(decision="rewrite", violations=[fixed, note], updated_input=fix, worktree_root="/w", isolated=True)
    assert combine([fixed, violation(fixed_input=dict(fix))], rewrite, "/w").decision == "rewrite"
    assert combine([fixed, violation(fixed_input={"file_path": "/w/y"})], rewrite, "/w").decision == "deny"
    assert combine([fixed, violation()], rewrite, "/w").decision == "deny"
    assert combine([violation(), fixed], rewrite, "/w").decision == "deny"
    assert combine([fixed], enforce, "/w").decision == "deny"  # enforce: only fixes meant for enforce mode apply
    in_enforce = violation(fixed_input=fix, fix_in_enforce=True)
    assert combine([in_enforce], enforce, "/w") == Verdict(decision="rewrite", violations=[in_enforce], updated_input=fix, worktree_root="/w", isolated=True)
    assert combine([in_enforce, fixed], enforce, "/w").decision == "deny"
    assert combine([in_enforce, fixed], enforce, "/w", isolated=False) == Verdict(decision="deny", violations=[in_enforce, fixed], worktree_root="/w", isolated=False)


# --- decide_event ----------------------------------------------------------------------------------------------


def plugins_answering(*verdicts: EventVerdict | None) -> Any:
    """A plugin manager stand-in whose lifecycle plugins answer `verdicts` (pluggy calls the last registered first)."""
    asked: list[Any] = []

    def agent_event(**kwargs: Any) -> list[EventVerdict | None]:
        asked.append(kwargs)
        return list(reversed(verdicts))

    return SimpleNamespace(hook=SimpleNamespace(worktree_guard_agent_event=agent_event), asked=asked)


def test_lifecycle_verdicts_are_merged_block_first_and_joined_in_registration_order() -> None:
    scope = SimpleNamespace(settings=Settings())
    event = AgentEvent(runtime="claude-code", event="SubagentStop", cwd="/w", agent_id="a")
    v1, v2 = violation("WG601"), violation("WG602")
    pm = plugins_answering(
        EventVerdict(decision="block", violations=[v1], reason="undo it", context="c1", user_message="u1"),
        None,
        EventVerdict(decision="warn", violations=[v2], reason="not a block's", context="", user_message="u2"),
        EventVerdict(decision="block", reason="and this", context="c3"),
    )
    merged = decide_event(event, scope, pm)
    assert merged == EventVerdict(decision="block", violations=[v1, v2], reason="undo it\n\nand this", context="c1\n\nc3", user_message="u1\n\nu2")
    assert pm.asked == [{"event": event, "scope": scope, "pm": pm}]
    assert decide_event(event, scope, plugins_answering(EventVerdict(decision="pass"), EventVerdict(decision="warn", user_message="u"))) == EventVerdict(decision="warn", user_message="u")
    assert decide_event(event, scope, plugins_answering(EventVerdict(), None)) == EventVerdict()
    assert decide_event(event, scope, plugins_answering()) == EventVerdict(decision="pass", violations=[], reason=None, context=None, user_message=None)
    off = plugins_answering(EventVerdict(decision="block", reason="r"))
    assert decide_event(event, SimpleNamespace(settings=Settings(mode="off")), off) == EventVerdict() and off.asked == []


# --- decide ----------------------------------------------------------------------------------------------------


def verdict_for(body: dict[str, Any], **flags: Any) -> Verdict:
    call = PM.hook.worktree_guard_read_payload(payload=body, runtime="auto")
    return decide(call, build_context(call, flags=flags, pm=PM))


def test_decide_passes_what_it_need_not_judge(repo: Repo) -> None:
    outside = payload(repo.worktree, "Write", {"file_path": str(repo.main / "x"), "content": "x"})
    assert verdict_for(outside).decision == "deny"
    assert verdict_for(outside, mode="off") == Verdict(decision="pass", worktree_root=str(repo.worktree), isolated=True)
    assert verdict_for(outside, pass_tools=["Write"]) == Verdict(decision="pass", worktree_root=str(repo.worktree), isolated=True)
    post = payload(repo.worktree, "Write", {"file_path": str(repo.main / "x")}, hook_event_name="PostToolUse")
    assert verdict_for(post) == Verdict(decision="pass", worktree_root=str(repo.worktree), isolated=True)
    main_write = payload(repo.main, "Write", {"file_path": str(repo.main / "x")})
    assert verdict_for(main_write) == Verdict(decision="pass", worktree_root=str(repo.main), isolated=False)
    assert verdict_for(payload(repo.main, "mcp__fs__write", {})) == Verdict(decision="pass", worktree_root=str(repo.main), isolated=False)


def test_decide_refuses_an_unknown_tool_of_an_isolated_agent(repo: Repo) -> None:
    verdict = verdict_for(payload(repo.worktree, "mcp__fs__write", {"path": "x"}))
    (v,) = verdict.violations
    assert (verdict.decision, v.code, v.rule, v.tool, v.worktree_root) == ("deny", "WG000", "engine", "mcp__fs__write", str(repo.worktree))
    assert v.message == (
        f"worktree-guard does not know the tool 'mcp__fs__write', so it cannot tell whether it stays in {repo.worktree}; "
        "add it to `pass_tools` if it writes nothing, or leave it out of the hook matcher."
    )


def test_decide_refuses_a_misplaced_isolated_agent(repo: Repo) -> None:
    from .helpers import write_agent

    write_agent(repo.main / ".claude" / "agents", "iso", "isolation: worktree")
    write = payload(repo.main, "Write", {"file_path": str(repo.main / "x")}, agent_id="a1", agent_type="iso")
    verdict = verdict_for(write)
    (v,) = verdict.violations
    assert (verdict.decision, verdict.isolated, v.code, v.rule, v.tool, v.worktree_root) == ("deny", True, "WG002", "engine", "Write", str(repo.main))
    assert v.message == (
        f"This agent declares worktree isolation but runs in {repo.main}, which is not a linked worktree: "
        "its isolation was not applied. Stop and report this to the user instead of changing files."
    )
    read = payload(repo.main, "Read", {"file_path": str(repo.main / "x")}, agent_id="a1", agent_type="iso")
    assert [v.code for v in verdict_for(read).violations] == []  # a read is not guarded when misplaced


# --- scopes ----------------------------------------------------------------------------------------------------


def test_a_call_without_an_absolute_cwd_cannot_be_judged() -> None:
    from worktree_guard.engine import scope_for_layout

    for cwd in ("", "relative/dir"):
        with pytest.raises(CallError) as caught:
            scope_for(cwd, None)
        assert str(caught.value) == f"the call has no absolute cwd (got {cwd!r})"
        with pytest.raises(CallError) as caught:
            scope_for_layout(cwd, None, None, None)  # type: ignore[arg-type]
        assert str(caught.value) == f"the call has no absolute cwd (got {cwd!r})"


def test_run_rules_needs_a_plugin_manager(repo: Repo) -> None:
    from worktree_guard.engine import run_rules

    call = ToolCall(runtime="claude-code", tool="Write", kind="file_write", cwd=str(repo.worktree), input={"file_path": "x"}, path_field="file_path")
    ctx = build_context(call)
    with pytest.raises(CallError) as caught:
        run_rules(call, ctx)
    assert str(caught.value) == "no plugin manager"


def test_context_for_layout_judges_with_exactly_what_validate_passes(repo: Repo) -> None:
    """`validate` places a recorded call with a layout, configuration, definition, home and policy it
    reconstructed: each one is the context's, and the call's own agent type decides the isolation."""
    from worktree_guard.agents import AgentDefinition
    from worktree_guard.config import load_config
    from worktree_guard.engine import context_for_layout
    from worktree_guard.isolation import Isolation
    from worktree_guard.layout import layout_of_cwd
    from worktree_guard.policy import PathPolicy

    layout = layout_of_cwd(str(repo.main))
    config = load_config(str(repo.main), flags={"isolated_agents": ["iso"]})
    definition = AgentDefinition(path="/opt/wg-agents/iso.md", name="iso", isolation=None)
    call = ToolCall(runtime="claude-code", tool="Write", kind="file_write", cwd=f"{repo.main}/src/..", input={}, path_field="file_path", agent_type="iso")
    policy = PathPolicy(layout, [], [], "/opt/wg-other-home")
    ctx = context_for_layout(call, layout, config, PM, definition=definition, home="/opt/wg-home", policy=policy)
    assert (ctx.call, ctx.pm, ctx.layout, ctx.config, ctx.definition, ctx.policy) == (call, PM, layout, config, definition, policy)
    assert ctx.call is call and ctx.pm is PM and ctx.layout is layout and ctx.config is config and ctx.policy is policy
    assert ctx.cwd == str(repo.main)
    assert ctx.isolation == Isolation(isolated=True, reason="configuration lists agent type 'iso' in isolated_agents", misplaced=True)
    assert ctx.scope.definitions_from == str(repo.main)
    built = context_for_layout(call, layout, config, home="/opt/wg-home")
    assert (built.pm, built.definition, built.policy.home, built.policy.root) == (None, None, "/opt/wg-home", str(repo.main))
    assert built.isolation == ctx.isolation


def test_confined_is_isolated_or_a_wave_worker_or_marked(repo: Repo) -> None:
    """`confined` decides whether the hook refuses what it cannot judge (fail closed): any one of the three."""
    from worktree_guard.engine import confined

    def ctx_in(cwd: Path) -> Any:
        call = ToolCall(runtime="claude-code", tool="Write", kind="file_write", cwd=str(cwd), input={}, path_field="file_path")
        return build_context(call, pm=PM)

    isolated, free = ctx_in(repo.worktree), ctx_in(repo.main)
    assert (isolated.isolation.isolated, free.isolation.isolated) == (True, False)
    assert confined(isolated) is True and confined(free) is False  # the worker is not asked yet
    free.worker = None
    assert confined(free) is False
    isolated.worker = None
    assert confined(isolated) is True
    free.worker = SimpleNamespace(name="worker-1")
    assert confined(free) is True
    marked = ctx_in(repo.main)
    marked.extra["confined"] = True
    assert confined(marked) is True


def test_a_misplaced_agent_is_told_the_checkout_it_runs_in_not_its_subdirectory(repo: Repo) -> None:
    from .helpers import write_agent

    write_agent(repo.main, "iso", "isolation: worktree")
    (repo.main / "src").mkdir(exist_ok=True)
    write = payload(repo.main / "src", "Write", {"file_path": str(repo.main / "x")}, agent_id="a1", agent_type="iso")
    (v,) = verdict_for(write).violations
    assert (v.code, v.worktree_root) == ("WG002", str(repo.main))
    assert v.message == (
        f"This agent declares worktree isolation but runs in {repo.main}, which is not a linked worktree: "
        "its isolation was not applied. Stop and report this to the user instead of changing files."
    )


def test_another_agents_definition_is_found_where_this_agents_was_and_in_the_scopes_home(repo: Repo, tmp_path: Path) -> None:
    """A dispatch target's definition: looked up from the main worktree (not the agent's own W, which it can
    write) and in the home the scope was made with (validate's recorded home), through the scope and the context."""
    from worktree_guard.config import load_config
    from worktree_guard.engine import Context, scope_for_layout
    from worktree_guard.layout import layout_of_cwd

    from .helpers import write_agent

    project = write_agent(repo.main, "reviewer", "isolation: worktree")
    write_agent(repo.worktree, "reviewer", "isolation: none")  # in W: never read
    home = tmp_path / "recorded-home"
    in_home = write_agent(home, "helper", "isolation: none")
    layout = layout_of_cwd(str(repo.worktree))
    scope = scope_for_layout(str(repo.worktree), None, layout, load_config(str(repo.main)), home=str(home))
    assert (scope.definitions_from, scope.policy.home) == (str(repo.main), str(home))
    found = scope.find_definition("reviewer")
    assert (found.path, found.name, found.isolation) == (str(project), "reviewer", "worktree")
    assert scope.find_definition("helper").path == str(in_home)
    ctx = Context(call=ToolCall(runtime="claude-code", tool="Task", kind="dispatch", cwd=str(repo.worktree)), scope=scope)
    assert ctx.find_definition("helper").path == str(in_home)
    assert ctx.find_definition("reviewer").path == str(project)
    assert scope.find_definition("nobody") is None


def test_a_lifecycle_event_is_placed_with_its_agent_type_flags_and_environment(repo: Repo) -> None:
    from worktree_guard.engine import scope_for_event

    from .helpers import write_agent

    write_agent(repo.main, "reviewer", "isolation: worktree\nworktree-guard:\n  reads: warn")
    event = AgentEvent(runtime="claude-code", event="SubagentStart", cwd=str(repo.worktree), agent_id="a", agent_type="reviewer")
    scope = scope_for_event(event, PM, flags={"mode": "warn"}, environ={"WORKTREE_GUARD_PROTECT": '["secrets/**"]'})
    assert (scope.cwd, scope.layout.worktree_root, scope.definition.name) == (str(repo.worktree), str(repo.worktree), "reviewer")
    assert (scope.settings.mode, scope.settings.reads, scope.settings.protect) == ("warn", "warn", ["secrets/**"])


def test_a_stop_whose_worktree_is_gone_is_placed_where_its_start_was_recorded(repo: Repo, tmp_path: Path) -> None:
    """The sub-agent removed its own worktree: no git record places its cwd, the lifecycle plugins' record does
    (asked with the event itself); with no record either, the stop cannot be placed (LayoutUnknown)."""
    from worktree_guard.engine import scope_for_event
    from worktree_guard.layout import Layout, LayoutUnknown

    from .helpers import write_agent

    gone = tmp_path / "gone-worktree"
    recorded = Layout(worktree_root=str(gone), shared_roots=[str(repo.main)], linked=True, common_dir=str(repo.main / ".git"), source="recorded")
    asked: list[Any] = []

    def plugins_recording(layout: Layout | None) -> Any:
        def recorded_layout(**kwargs: Any) -> Layout | None:
            asked.append(kwargs)
            return layout

        return SimpleNamespace(hook=SimpleNamespace(worktree_guard_recorded_layout=recorded_layout))

    write_agent(repo.main, "reviewer", "worktree-guard:\n  reads: warn")
    event = AgentEvent(runtime="claude-code", event="SubagentStop", cwd=str(gone), agent_id="a", agent_type="reviewer")
    environ = {"WORKTREE_GUARD_PROTECT": '["secrets/**"]'}
    scope = scope_for_event(event, plugins_recording(recorded), flags={"mode": "warn"}, environ=environ)
    assert asked == [{"event": event}]
    assert (scope.cwd, scope.layout, scope.definition.name) == (str(gone), recorded, "reviewer")
    assert (scope.settings.mode, scope.settings.reads, scope.settings.protect) == ("warn", "warn", ["secrets/**"])
    assert (scope.isolation.isolated, scope.policy.root, scope.policy.shared_roots) == (True, str(gone), [str(repo.main), str(repo.main / ".git")])
    with pytest.raises(LayoutUnknown) as caught:
        scope_for_event(event, plugins_recording(None))
    assert str(caught.value) == f"the call's cwd {gone} does not exist and no git repository lists a worktree there, so the agent cannot be placed"


def test_combine_in_warn_mode_keeps_whether_the_agent_is_isolated() -> None:
    warn = Settings(mode="warn")
    assert combine([violation()], warn, "/w").isolated is True
    assert combine([violation()], warn, "/w", isolated=False).isolated is False


def test_without_plugins_there_is_no_wave_worker(repo: Repo) -> None:
    """find_worker with no plugin manager: no worker (remembered), so a free agent's unknown tool still passes."""
    from worktree_guard.engine import UNKNOWN, find_worker

    call = ToolCall(runtime="claude-code", tool="mcp__fs__write", kind="unknown", cwd=str(repo.main), input={})
    ctx = build_context(call)
    assert ctx.worker is UNKNOWN
    assert find_worker(call, ctx) is None and ctx.worker is None
    assert decide(call, build_context(call)) == Verdict(decision="pass", worktree_root=str(repo.main), isolated=False)


def test_decide_passes_a_call_that_does_nothing_the_guard_judges_before_asking_any_plugin(repo: Repo) -> None:
    """kind "other" (a read-only tool the adapter knows): pass at once, without a plugin manager to ask."""
    call = ToolCall(runtime="claude-code", tool="mcp__notes__list", kind="other", cwd=str(repo.worktree), input={})
    assert decide(call, build_context(call)) == Verdict(decision="pass", worktree_root=str(repo.worktree), isolated=True)


def test_decide_keeps_w_and_isolation_on_every_verdict(repo: Repo) -> None:
    inside = verdict_for(payload(repo.worktree, "Write", {"file_path": str(repo.worktree / "x"), "content": "x"}))
    assert inside == Verdict(decision="pass", violations=[], worktree_root=str(repo.worktree), isolated=True)
    outside = verdict_for(payload(repo.worktree, "Write", {"file_path": str(repo.main / "x"), "content": "x"}))
    assert (outside.decision, outside.codes, outside.worktree_root, outside.isolated) == ("deny", ["WG101"], str(repo.worktree), True)


def test_a_free_agents_findings_from_the_rules_for_all_agents_are_combined(repo: Repo) -> None:
    """A free agent (no isolation) is judged by `worktree_guard_check_any_call` only: its findings decide, and
    the verdict says where it stands and that it is not isolated."""
    finding = violation("WG701", "A wave worker may not do this.")
    asked: list[str] = []
    hook = SimpleNamespace(
        worktree_guard_find_worker=lambda **kw: asked.append("find_worker"),
        worktree_guard_check_call=lambda **kw: asked.append("check_call") or [[violation("WG101")]],
        worktree_guard_check_any_call=lambda **kw: asked.append("check_any_call") or [[finding]],
    )
    call = ToolCall(runtime="claude-code", tool="Write", kind="file_write", cwd=str(repo.main), input={"file_path": "x"}, path_field="file_path")
    ctx = build_context(call)
    ctx.pm = SimpleNamespace(hook=hook)  # type: ignore[assignment]
    assert decide(call, ctx) == Verdict(decision="deny", violations=[finding], worktree_root=str(repo.main), isolated=False)
    assert asked == ["find_worker", "check_any_call"]


def test_configured_shared_roots_are_read_from_the_cwd_and_never_name_w_twice_or_w_itself(repo: Repo) -> None:
    extra = repo.base / "extra"
    extra.mkdir()
    relative = os.path.relpath(extra, repo.worktree)
    scope = scope_for(str(repo.worktree), None, flags={"shared_roots": [relative, str(repo.main), str(repo.worktree)]})
    assert scope.layout.worktree_root == str(repo.worktree)
    assert scope.layout.shared_roots.count(str(repo.main)) == 1 and str(repo.worktree) not in scope.layout.shared_roots
    assert scope.layout.shared_roots[-1] == str(extra)
    configured = scope_for(str(repo.worktree), None, flags={"worktree_root": str(repo.worktree), "shared_roots": [relative]})
    assert (configured.layout.source, configured.layout.worktree_root) == ("configuration", str(repo.worktree))
    assert str(extra) in configured.layout.shared_roots


def test_definitions_are_looked_up_from_where_the_agent_was_placed_before_a_configured_root(repo: Repo) -> None:
    """A configured worktree_root replaces W and S, not where agent definitions are looked up (the cwd's layout)."""
    src = repo.main / "src"
    scope = scope_for(str(src), None, flags={"worktree_root": str(repo.worktree)})
    assert (scope.layout.worktree_root, scope.definitions_from) == (str(repo.worktree), str(src))


def test_an_empty_home_looks_up_user_agent_definitions_in_the_password_entrys_home(repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """HOME set but empty: the user's home is the passwd entry's (home_dir, as bash does), for agent definitions
    too (os.path.expanduser would make it `/`)."""
    import pwd

    from .helpers import write_agent

    home = tmp_path / "passwd-home"
    found = write_agent(home, "helper", "isolation: none")
    monkeypatch.setenv("HOME", "")
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: SimpleNamespace(pw_dir=str(home)))
    scope = scope_for(str(repo.main), "helper")
    assert (scope.definition.path, scope.policy.home) == (str(found), str(home))


def test_the_project_root_is_the_main_worktree_only_for_a_linked_worktree_with_one() -> None:
    """The main worktree is `<common>/..` when the common dir is a `.git` and that directory is a shared root."""
    from worktree_guard.engine import project_root_of
    from worktree_guard.layout import Layout

    linked = Layout(worktree_root="/r/wt", shared_roots=["/r"], linked=True, common_dir="/r/.git")
    assert project_root_of(linked) == "/r"
    # a checkout of its own whose git dir lies in a shared root (`--separate-git-dir`): W is the project
    assert project_root_of(Layout(worktree_root="/m", shared_roots=["/r"], linked=False, common_dir="/r/.git")) == "/m"
    # a linked worktree of a bare repository has no main worktree: the directory holding the repository, unless it
    # lies in a linked worktree that holds the cwd (W or one around it); never W or a checkout W lies in
    assert project_root_of(Layout(worktree_root="/x/wt", shared_roots=["/x"], linked=True, common_dir="/x/b.git")) == "/x"
    nested = Layout(worktree_root="/p/m/.claude/worktrees/a", shared_roots=["/p/m", "/y"], linked=True, common_dir="/p/.bare")
    assert project_root_of(nested) == "/p"
    nested.enclosing = ["/p/m/.claude/worktrees/a", "/p/m"]
    assert project_root_of(nested) == "/p"
    assert project_root_of(Layout(worktree_root="/x/wt/in", shared_roots=["/x/wt"], linked=True, common_dir="/x/wt/b.git", enclosing=["/x/wt/in", "/x/wt"])) is None
    assert project_root_of(Layout(worktree_root="/x/wt", shared_roots=[], linked=True, common_dir="/x/wt/in/b.git")) is None
    assert project_root_of(Layout(worktree_root="/x/wt", shared_roots=[], linked=True, common_dir="/x/wt/b.git")) is None  # the holder is W itself
    assert project_root_of(Layout(worktree_root="/x/wt", shared_roots=["/x/wt"], linked=True, common_dir=None)) is None
    assert project_root_of(Layout(worktree_root=None, shared_roots=["/x"], linked=True, common_dir="/x/b.git")) is None
    assert project_root_of(Layout(worktree_root=None, shared_roots=["/x"], linked=True, common_dir="/x/b.git", enclosing=["/q"])) == "/x"
    # a main worktree inside a worktree around the cwd (the agent's own repository, made inside W): not read
    inner = Layout(worktree_root="/w/x", shared_roots=["/w/inner", "/w"], linked=True, common_dir="/w/inner/.git", enclosing=["/w/x", "/w"])
    assert project_root_of(inner) is None
    inner.enclosing = ["/w/x"]
    assert project_root_of(inner) == "/w/inner"
    assert project_root_of(Layout(worktree_root="/r/wt", shared_roots=["/elsewhere"], linked=True, common_dir="/r/.git")) == "/r"
    assert project_root_of(Layout(worktree_root="/m", shared_roots=[], linked=False, common_dir=None)) == "/m"


def test_the_project_root_of_a_found_layout_reads_no_config_again(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every call of a sub-agent asks for its project root: the main worktree the layout walk read is used, and the
    repository's config is read again only for a layout made elsewhere (a start record, a test's)."""
    from worktree_guard import engine
    from worktree_guard.layout import find_layout

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the config was read again")

    layout = find_layout(str(repo.worktree))
    monkeypatch.setattr(engine, "main_worktree_of", refuse)
    assert engine.project_root_of(layout) == str(repo.main)


# --- _agent_can_write ------------------------------------------------------------------------------------------


def test_what_the_agent_can_write_is_judged_from_the_layers_it_cannot_write(repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An explicit W and S of those layers (`~` from the call's HOME, not the process's), the path as found and as
    it resolves (a symlink in the shared checkout into W), the runtimes' directories the allow-list holds (an inline
    interpreter writes there unread) but not the guard's own files there."""
    from worktree_guard.engine import _agent_can_write
    from worktree_guard.layout import find_layout
    from worktree_guard.policy import own_paths, runtime_homes
    from worktree_guard.paths import inside
    import tempfile

    home = Path(os.path.realpath(tmp_path)) / "home"
    other = Path(os.path.realpath(tmp_path)) / "other"
    home.mkdir()
    other.mkdir()
    monkeypatch.setenv("HOME", str(other))  # the process's HOME is not the call's
    found = find_layout(str(repo.worktree))
    can = _agent_can_write(found, Settings(), str(home))
    assert can(str(repo.worktree / "x")) and not can(str(repo.main / "x")) and can(str(tmp_path / "x"))  # the temp dir
    (repo.main / "to-w").symlink_to(repo.worktree)
    assert can(str(repo.main / "to-w" / "x"))  # refused as found, inside W as it resolves
    assert can(str(home / ".claude" / "agents" / "a.md"))  # refused to the guarded writes, held by the allow-list
    assert can(str(other / ".claude" / "agents" / "a.md"))  # not a runtime's directory for this call: the temp dir
    runtimes = runtime_homes({**os.environ, "HOME": str(home)})
    own = [p for p in own_paths(str(home)) if inside(p, tempfile.gettempdir()) and not any(inside(p, d) for d in runtimes)]
    assert own and not any(can(os.path.join(p, "x")) for p in own)  # the guard's own (its sockets) stay its own
    clone = home / "clone"
    clone.mkdir()
    explicit = _agent_can_write(found, Settings(worktree_root="~/clone", shared_roots=["~/s", str(repo.worktree)]), str(home))
    assert explicit(str(clone / "x")) and not explicit(str(repo.worktree / "x")) and not explicit(str(home / "s" / "x"))
    assert explicit(str(repo.main / "x"))  # not shared by these layers: the temp dir holds it


def test_what_the_agent_can_write_outside_the_temp_dir_needs_w(repo: Repo, temp_elsewhere: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from worktree_guard.engine import _agent_can_write
    from worktree_guard.layout import find_layout

    home = Path(os.path.realpath(tmp_path)) / "home"
    (home / "clone").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(repo.base / "other"))
    found = find_layout(str(repo.worktree))
    explicit = _agent_can_write(found, Settings(worktree_root="~/clone"), str(home))
    assert explicit(str(home / "clone" / "x")) and not explicit(str(repo.base / "other" / "clone" / "x"))
    assert not explicit(str(repo.worktree / "x")) and not explicit(str(repo.main / "x"))
    # a runtime's directory the allow-list does not hold is refused, not the agent's
    assert not _agent_can_write(found, Settings(), str(home))(str(home / ".claude" / "agents" / "a.md"))


def test_an_agent_in_a_worktree_nested_in_its_own_is_judged_from_the_outermost(repo: Repo) -> None:
    """`git clone … c && git -C c worktree add x && cd x` inside W: W's files stay the agent's (the outermost
    linked worktree's layout), not shared as they are for the inner one; three deep too."""
    from worktree_guard.engine import _agent_can_write
    from worktree_guard.layout import find_layout

    from .helpers import git

    w = repo.worktree
    git("clone", "-q", str(repo.main), str(w / "c1"), cwd=w)
    git("worktree", "add", "-q", "-b", "x1", str(w / "x1"), cwd=w / "c1")
    git("clone", "-q", str(repo.main), str(w / "x1" / "c2"), cwd=w)
    git("worktree", "add", "-q", "-b", "x2", str(w / "x1" / "x2"), cwd=w / "x1" / "c2")
    two = find_layout(str(w / "x1"))
    three = find_layout(str(w / "x1" / "x2"))
    assert two.enclosing == [str(w / "x1"), str(w)] and three.enclosing == [str(w / "x1" / "x2"), str(w / "x1"), str(w)]
    assert str(w / "c1") in two.shared_roots and str(w) in three.shared_roots
    for layout in (two, three):
        can = _agent_can_write(layout, Settings(), "/nonexistent-home")
        assert can(str(w / "c1" / "x")) and can(str(w / "y")) and can(str(w / "x1" / "c2" / "x")) and not can(str(repo.main / "x"))


# --- a relative worktree_root (phase 21: a fail-open, fixed: _agent_can_write reads it from the cwd too) -------------------


@pytest.mark.parametrize("form", ["absolute", "relative"])
def test_a_relative_root_keeps_the_protect_of_a_user_definition(repo: Repo, temp_elsewhere: Path, form: str) -> None:
    """`WORKTREE_GUARD_WORKTREE_ROOT=.` (or `--root .`) from the agent's W names W, for the scope as for the
    absolute path: the user's definition (outside W and outside the temp dir, so not the agent's) still protects
    `*.secret` in W. With `.` read from `/`, every file is "the agent's" and the definition is dropped: the write passes."""
    from .helpers import run_hook_inline

    home = Path(os.environ["HOME"])
    write_agent_home = home / ".claude" / "agents"
    write_agent_home.mkdir(parents=True)
    (write_agent_home / "rev.md").write_text("---\nname: rev\ndescription: t\nworktree-guard:\n  protect: ['*.secret']\n---\nbody\n")
    root = str(repo.worktree) if form == "absolute" else "."
    scope = scope_for(str(repo.worktree), "rev", flags={"worktree_root": root})
    assert scope.layout.worktree_root == str(repo.worktree)
    write = payload(repo.worktree, "Write", {"file_path": str(repo.worktree / "a.secret"), "content": "x"}, agent_id="a1", agent_type="rev")
    result = run_hook_inline(write, environ={"WORKTREE_GUARD_WORKTREE_ROOT": root})
    assert ("*.secret" in scope.settings.protect, result.decision, result.codes) == (True, "deny", ["WG103"])


@pytest.mark.parametrize("form", ["absolute", "relative"])
def test_a_relative_root_keeps_the_protect_of_the_project_file_in_the_temp_dir(repo: Repo, form: str) -> None:
    """The main agent in the main checkout names W relative to its cwd: the project file there (a shared checkout,
    not the agent's) protects `*.secret` in W. Read from `/`, W is a path that does not exist, the project file lies
    "outside" it in the temp dir the allow-list holds, so it counts as the agent's and is dropped: the write passes."""
    from .helpers import run_hook_inline

    (repo.main / ".worktree-guard.toml").write_text("protect = ['*.secret']\n")
    root = str(repo.worktree) if form == "absolute" else os.path.relpath(repo.worktree, repo.main)
    scope = scope_for(str(repo.main), None, flags={"worktree_root": root})
    assert (scope.layout.worktree_root, scope.isolation.isolated) == (str(repo.worktree), True)
    write = payload(repo.main, "Write", {"file_path": str(repo.worktree / "a.secret"), "content": "x"})
    result = run_hook_inline(write, environ={"WORKTREE_GUARD_WORKTREE_ROOT": root})
    assert ("*.secret" in scope.settings.protect, result.decision, result.codes) == (True, "deny", ["WG103"])


def test_a_relative_shared_root_is_read_from_the_cwd_for_what_the_agent_can_write_too(repo: Repo, tmp_path: Path) -> None:
    """A relative `shared_roots` entry beside an explicit W names the directory below the agent's cwd, for what the
    agent can write as for its scope: a file there (in the temp dir, which the allow-list holds) is shared, so not the
    agent's. Read from `/`, the shared root is `/<entry>`, which does not exist, and the file counts as the agent's
    (phase 22: `_agent_can_write` 14 survived; the lead's fix f41e0e5 reads the roots from the cwd)."""
    from worktree_guard.engine import _agent_can_write
    from worktree_guard.layout import find_layout

    extra = repo.base / "extra-shared"
    extra.mkdir()
    w = str(repo.worktree)
    settings = Settings(worktree_root=w, shared_roots=["extra-shared"])  # from the cwd repo.base; from `/`, /extra-shared
    can = _agent_can_write(find_layout(w), settings, str(tmp_path / "home"), str(repo.base))
    assert not can(str(extra / "x.md")) and can(str(repo.worktree / "x.md")) and can(str(repo.base / "x.md"))
    scope = scope_for(str(repo.base), None, flags={"worktree_root": w, "shared_roots": ["extra-shared"]})
    assert str(extra) in scope.layout.shared_roots  # the scope reads it from the same cwd


# --- _config_files: which project files and definitions may be the agent's (phase 21) -----------------------------


def test_the_project_files_judged_are_the_two_names_at_the_project_root(repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An agent isolated by the hook's flags in its own checkout (the project root is W): `.worktree-guard.toml`, or
    else `[tool.worktree-guard]` of `pyproject.toml`, there is its own and configures nothing, unless the layers it
    cannot write protect it; a name that is not there is not judged (an absent pyproject.toml the agent could write
    does not drop the protected file beside it). Looked up at the project root, not in the process's directory."""
    monkeypatch.chdir(tmp_path)  # neither file here
    main = str(repo.main)
    project = repo.main / ".worktree-guard.toml"
    project.write_text('mode = "warn"\n')
    assert scope_for(main, None, flags={"isolated": True}).settings.mode == "enforce"  # the agent's: dropped
    protected = scope_for(main, None, flags={"isolated": True, "protect": ["/.worktree-guard.toml"]})
    assert (protected.isolation.isolated, protected.settings.mode) == (True, "warn")
    project.unlink()
    (repo.main / "pyproject.toml").write_text('[tool.worktree-guard]\nmode = "warn"\n')
    assert scope_for(main, None).settings.mode == "warn"  # a free agent's own file configures it
    assert scope_for(main, None, flags={"isolated": True}).settings.mode == "enforce"


def test_a_project_root_outside_w_and_its_shared_checkouts_counts_as_the_agents_when_nested(repo: Repo) -> None:
    """W nested in another linked worktree (`git clone main /tmp/c && git -C /tmp/c worktree add W/x && cd W/x`):
    the clone, x's main worktree and so its project root, is a shared checkout of x that the agent made (the temp
    dir): its file configures nothing. One level deep, the main worktree's file is filtered out as shared (unread
    here: the agent cannot write it) and configures the agent."""
    from .helpers import git

    clone = repo.base / "c"
    git("clone", "-q", str(repo.main), str(clone), cwd=repo.base)
    git("worktree", "add", "-q", "-b", "x", str(repo.worktree / "x"), cwd=clone)
    (clone / ".worktree-guard.toml").write_text("protect = ['*.secret']\n")
    nested = scope_for(str(repo.worktree / "x"), None)
    assert (nested.layout.enclosing, nested.isolation.isolated) == ([str(repo.worktree / "x"), str(repo.worktree)], True)
    assert str(clone) in nested.layout.shared_roots and "*.secret" not in nested.settings.protect
    (repo.main / ".worktree-guard.toml").write_text("protect = ['*.secret']\n")
    assert "*.secret" in scope_for(str(repo.worktree), None).settings.protect


def test_the_context_holds_the_call_and_the_plugin_manager(repo: Repo) -> None:
    call = ToolCall(runtime="claude-code", tool="Write", kind="file_write", cwd=str(repo.worktree), input={"file_path": "x"}, path_field="file_path")
    ctx = build_context(call, pm=PM)
    assert ctx.call is call and ctx.pm is PM and ctx.layout.worktree_root == str(repo.worktree)


def test_definitions_of_a_linked_worktree_without_a_project_root_are_the_users_only() -> None:
    from worktree_guard.engine import definitions_start
    from worktree_guard.layout import Layout

    assert definitions_start(Layout(worktree_root="/x/wt", shared_roots=[], linked=True, common_dir="/x/wt/b.git"), "/x/wt/src") == "/"
    assert definitions_start(Layout(worktree_root="/r/wt", shared_roots=["/r"], linked=True, common_dir="/r/.git"), "/r/wt/src") == "/r"
    assert definitions_start(Layout(worktree_root="/m", shared_roots=[], linked=False, common_dir="/m/.git"), "/m/src") == "/m/src"


def test_the_main_worktree_is_what_git_names_and_only_a_shared_one(repo: Repo, tmp_path: Path) -> None:
    """`core.worktree` names the main worktree of a repository whose git dir lies elsewhere (`--separate-git-dir`):
    its project file is the one read, not one beside the git dir. A main worktree that is not a shared root is none;
    a repository config that cannot be read is unknown (LayoutUnknown), not a guess."""
    from worktree_guard.engine import main_worktree_in, project_root_of
    from worktree_guard.layout import Layout, LayoutUnknown

    from .helpers import git

    base = Path(os.path.realpath(tmp_path)) / "sep"
    main, gitdir = base / "main", base / "gitdir"
    main.mkdir(parents=True)
    git("init", "-q", "-b", "main", f"--separate-git-dir={gitdir}", cwd=main)
    git("config", "core.worktree", str(main), cwd=main)
    (main / "f").write_text("x\n")
    git("add", "-A", cwd=main)
    git("commit", "-q", "-m", "init", cwd=main)
    git("worktree", "add", "-q", "-b", "w", str(base / "wt"), cwd=main)
    (main / ".worktree-guard.toml").write_text('mode = "warn"\n')
    (base / ".worktree-guard.toml").write_text('reads = "warn"\n')
    scope = scope_for(str(base / "wt"), None)
    assert (project_root_of(scope.layout), main_worktree_in(scope.layout)) == (str(main), str(main))
    assert (scope.settings.mode, scope.settings.reads) == ("warn", "off")  # the main worktree's file, not the one beside the git dir
    recorded = Layout(worktree_root=str(base / "wt"), shared_roots=[str(main)], linked=True, common_dir=str(gitdir))  # no main_worktree: read from the config
    assert main_worktree_in(recorded) == str(main)
    assert main_worktree_in(Layout(worktree_root="/r/wt", shared_roots=["/r"], linked=True, common_dir="/r/.git", main_worktree="/m")) is None
    assert main_worktree_in(Layout(worktree_root="/r/wt", shared_roots=["/r", "/m"], linked=True, common_dir="/r/.git", main_worktree="/m")) == "/m"
    broken = tmp_path / "broken" / ".git"
    (broken / "config").mkdir(parents=True)  # a config that is a directory cannot be read, not even by root
    with pytest.raises(LayoutUnknown):
        main_worktree_in(Layout(worktree_root="/b/wt", shared_roots=[str(broken.parent)], linked=True, common_dir=str(broken)))


def test_a_definition_the_agent_wrote_is_passed_over_and_the_rest_still_configures_it(repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The agent wrote a definition of its own type above the project (the temp dir is the repository's parent here):
    the next one on the project's walk up is read (above the temp dir, before the user's), and the project file it
    could not write, the flags and the environment all still count."""
    import tempfile

    monkeypatch.setenv("TMPDIR", str(repo.base))
    monkeypatch.setattr(tempfile, "tempdir", str(repo.base))
    from .helpers import write_agent

    above = write_agent(Path(os.path.realpath(tmp_path)), "reviewer", "worktree-guard:\n  profile: strict")
    write_agent(Path.home(), "reviewer", "worktree-guard:\n  profile: default")
    write_agent(repo.base, "reviewer", "worktree-guard:\n  mode: \"off\"")  # the agent's
    (repo.main / ".worktree-guard.toml").write_text('mode = "warn"\n')
    scope = scope_for(str(repo.worktree), "reviewer", flags={"reads": "warn"}, environ={"WORKTREE_GUARD_PROTECT": '["secrets/**"]'})
    assert (scope.definition.path, scope.settings.profile, scope.settings.mode) == (str(above), "strict", "warn")
    assert (scope.settings.reads, scope.settings.protect, scope.isolation.isolated) == ("warn", ["secrets/**"], True)
    # HOME set but empty: the user's definitions behind the agent's are the passwd entry's home's (home_dir)
    import pwd

    above.unlink()
    home = Path.home()
    user = home / ".claude" / "agents" / "reviewer.md"
    monkeypatch.setattr(pwd, "getpwuid", lambda uid: SimpleNamespace(pw_dir=str(home)))
    monkeypatch.setenv("HOME", "")
    assert scope_for(str(repo.worktree), "reviewer").definition.path == str(user)


def test_an_agent_isolated_by_its_type_is_judged_by_it_without_the_file_it_wrote(repo: Repo) -> None:
    """`isolated_agents` of the hook's flags isolates the agent in the main checkout (misplaced): the project file
    there is its own, so the scope without it decides, and its reason is the configuration's."""
    (repo.main / ".worktree-guard.toml").write_text('mode = "warn"\n')
    scope = scope_for(str(repo.main), "rev", flags={"isolated_agents": ["rev"]})
    assert scope.settings.mode == "enforce"
    assert scope.isolation.reason == "configuration lists agent type 'rev' in isolated_agents" and scope.isolation.misplaced


def test_a_file_the_agent_wrote_cannot_free_it_from_any_layer_it_cannot_write(repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`isolated = false` in a project file the agent can write (its own checkout, or a clone in the temp dir) frees it
    from none of what isolates it in the layers it cannot write: the user file's `isolated = true`, the flags'
    `isolated_agents`, the flags' `worktree_root` (a linked worktree). Each one alone."""
    from .helpers import git

    (repo.main / ".worktree-guard.toml").write_text("isolated = false\n")
    assert scope_for(str(repo.main), "rev").isolation.isolated is False  # nothing else isolates it: the file decides
    user = tmp_path / "user-config.toml"
    user.write_text("isolated = true\n")
    monkeypatch.setenv("WORKTREE_GUARD_USER_CONFIG", str(user))
    assert scope_for(str(repo.main), "rev").isolation.isolated is True
    monkeypatch.delenv("WORKTREE_GUARD_USER_CONFIG")
    assert scope_for(str(repo.main), "rev", flags={"isolated_agents": ["rev"]}).isolation.isolated is True
    assert scope_for(str(repo.main), "rev", environ={"WORKTREE_GUARD_ISOLATED_AGENTS": '["rev"]'}).isolation.isolated is True
    clone = repo.base / "clone"
    git("clone", "-q", str(repo.main), str(clone), cwd=repo.base)
    (clone / ".worktree-guard.toml").write_text("isolated = false\n")
    configured = scope_for(str(clone), None, flags={"worktree_root": str(repo.worktree)})
    assert (configured.layout.worktree_root, configured.isolation.isolated) == (str(repo.worktree), True)


def test_what_a_definition_the_agent_wrote_adds_only_tightens(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """A definition of its own type the agent wrote (the temp dir is the repository's parent here): its isolation
    declaration still makes it misplaced in the main checkout (with the reason of the layers that isolate it), its
    shared roots stay shared (the path policy rebuilt with the flags' allow and protect), and the W it names is not
    made shared."""
    import tempfile

    from worktree_guard.isolation import Isolation

    from .helpers import write_agent

    monkeypatch.setenv("TMPDIR", str(repo.base))
    monkeypatch.setattr(tempfile, "tempdir", str(repo.base))
    write_agent(repo.base, "rev", "isolation: worktree")
    misplaced = scope_for(str(repo.main), "rev", flags={"isolated": True})
    assert misplaced.isolation == Isolation(isolated=True, reason="configuration sets isolated = true", misplaced=True)
    extra = repo.base / "extra"
    write_agent(repo.base, "rev", f"worktree-guard:\n  shared_roots: ['{extra}']")
    flags = {"protect": ["*.secret"], "allow": ["/opt/wg-allowed/**"]}
    scope = scope_for(str(repo.worktree), "rev", flags=flags)
    assert str(extra) in scope.layout.shared_roots and scope.definition is None
    judge = scope.policy.judge_resolved
    assert (judge(str(extra / "x")).ok, judge(str(repo.worktree / "a.secret")).ok, judge("/opt/wg-allowed/x").ok) == (False, False, True)
    assert judge(str(repo.worktree / "plain")).ok
    write_agent(repo.base, "rev", f"worktree-guard:\n  worktree_root: '{repo.main}'")
    named = scope_for(str(repo.worktree), "rev")
    assert named.layout.worktree_root == str(repo.worktree) and str(repo.worktree) not in named.layout.shared_roots


def test_a_definition_the_agent_could_write_hides_no_isolation_it_did_not_declare(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """The user's definition declares isolation (the agent in the main checkout is misplaced: WG002); a definition of
    the same type in the temp dir above the project, which the agent could write, must not make it free."""
    import tempfile

    from .helpers import run_hook_inline, write_agent

    monkeypatch.setenv("TMPDIR", str(repo.base))
    monkeypatch.setattr(tempfile, "tempdir", str(repo.base))
    write_agent(Path.home(), "rev", "isolation: worktree")
    write_agent(repo.base, "rev", "description: the agent's")
    result = run_hook_inline(payload(repo.main, "Write", {"file_path": str(repo.sibling / "x"), "content": "x"}, agent_id="a1", agent_type="rev"))
    assert (scope_for(str(repo.main), "rev").isolation.isolated, result.codes) == (True, ["WG002"])


# --- phase 23 (m38d): _agent_can_write's runtime clause ------------------------------------------------------------------


def test_a_file_in_a_runtime_directory_the_allow_list_holds_is_the_agent_s_unless_it_lies_in_a_shared_checkout(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The runtimes' directories are refused only to the writes the guard reads: a file there that the allow-list
    holds (a HOME in the temp dir) counts as one the agent could write (an inline interpreter can), though the policy
    refuses it (`_agent_can_write` 59, 60: the clause never true). The clause is for a place outside every checkout:
    a runtime directory inside the main checkout (`CODEX_HOME` there) stays the shared checkout's, not the agent's
    (58: any place but "outside"); one outside the allow-list (HOME out of the temp dir) is not the agent's either."""
    from worktree_guard.engine import _agent_can_write
    from worktree_guard.layout import find_layout
    from worktree_guard.policy import PathPolicy

    home = Path(os.environ["HOME"])  # the test's, in the temp dir: the allow-list holds it
    monkeypatch.delenv("CODEX_HOME", raising=False)
    layout = find_layout(str(repo.worktree))
    can = _agent_can_write(layout, Settings(), str(home))
    policy = PathPolicy(layout, Settings().allow, Settings().protect, str(home))
    in_runtime = str(home / ".codex" / "agents" / "rev.md")
    assert (policy.judge_resolved(in_runtime).ok, policy.judge_resolved(in_runtime).place) == (False, "outside")
    assert can(in_runtime) and can(str(home / ".copilot" / "x.md")) and can(str(home / ".claude" / "agents" / "rev.md"))
    monkeypatch.setenv("CODEX_HOME", str(repo.main / "codex-home"))  # a runtime directory inside the main checkout
    shared = _agent_can_write(layout, Settings(), str(home))
    assert not shared(str(repo.main / "codex-home" / "agents" / "rev.md")) and not shared(str(repo.main / "x.md"))
    assert shared(str(home / ".copilot" / "x.md"))
    elsewhere = Path("/nonexistent-wg-home")  # not in the allow-list: its runtime directories are not the agent's
    monkeypatch.delenv("CODEX_HOME")
    assert not _agent_can_write(layout, Settings(), str(elsewhere))(str(elsewhere / ".codex" / "agents" / "rev.md"))
