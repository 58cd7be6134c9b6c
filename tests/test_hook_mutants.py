"""`worktree_guard.hook` in-process, function by function: the payload in, the reply out, fail closed on any error.

Phase 16 of issue 13 (mutation testing). The hook's other tests mostly start `worktree-guard hook` as a child
process, which loads the checkout and never a mutant: these call `run_hook` and its helpers in this process, and
compare whole replies (the exact JSON, the exact one-line cause), so that a mutant of any branch changes an answer.

The test process itself runs in a linked worktree of the project's own checkout, and the hook takes its cwd as a
sign of isolation: every test here moves to a plain temporary directory first.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import Repo, lifecycle_payload, payload, write_agent
from worktree_guard import engine, hook, plugins
from worktree_guard.effects import StatefulCall
from worktree_guard.hookspecs import hookimpl
from worktree_guard.reply import Reply

DENY = "worktree-guard could not check this call, so it is refused: {} [worktree-guard WG000]"


@pytest.fixture(autouse=True)
def _plain_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    plain = tmp_path / "plain"
    plain.mkdir()
    monkeypatch.chdir(plain)
    return plain


def deny(message: str) -> dict[str, Any]:
    """The hook's own refusal (and Claude Code's: the same shape), as JSON."""
    return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": DENY.format(message)}}


def note(message: str) -> dict[str, Any]:
    return {"systemMessage": f"worktree-guard: {message} [worktree-guard WG000]"}


def reply_of(stdin: bytes | dict[str, Any] | str, **kwargs: Any) -> dict[str, Any] | None:
    """run_hook's reply as JSON (None for an empty stdout); it always exits 0 with nothing on stderr."""
    if isinstance(stdin, dict):
        stdin = json.dumps(stdin).encode()
    elif isinstance(stdin, str):
        stdin = stdin.encode()
    reply = hook.run_hook(stdin, **kwargs)
    assert (reply.exit_code, reply.stderr) == (0, "")
    return json.loads(reply.stdout) if reply.stdout else None


def main_write(repo: Repo, **extra: Any) -> dict[str, Any]:
    return payload(repo.main, "Write", {"file_path": str(repo.main / "README.md"), "content": "x"}, **extra)


def worktree_write(repo: Repo, target: Path, **extra: Any) -> dict[str, Any]:
    return payload(repo.worktree, "Write", {"file_path": str(target), "content": "x"}, **extra)


class Recorder:
    """A plugin that records what the hooks it implements were given, and may answer or raise."""

    def __init__(self, **answers: Any) -> None:
        self.answers = answers
        self.seen: dict[str, Any] = {}

    def _answer(self, name: str, **given: Any) -> Any:
        self.seen[name] = given
        answer = self.answers.get(name)
        if isinstance(answer, BaseException):
            raise answer
        return answer(**given) if callable(answer) else answer


def recorder_plugin(rec: Recorder, *names: str) -> object:
    """An object whose hook implementations (`names`, with the specs' own arguments) go to `rec`."""
    import inspect
    import types

    from worktree_guard import hookspecs

    plugin = types.SimpleNamespace()
    for name in names:
        args = [a for a in inspect.signature(getattr(hookspecs, name)).parameters]
        source = f"def {name}({', '.join(args)}):\n    return rec._answer({name!r}, {', '.join(f'{a}={a}' for a in args)})\n"
        namespace: dict[str, Any] = {"rec": rec}
        exec(source, namespace)  # noqa: S102 — a function with the spec's exact argument names, for pluggy
        setattr(plugin, name, hookimpl(namespace[name]))
    return plugin


def pm_with(*plugins_: object) -> Any:
    pm = plugins.plugin_manager(entry_points=False)
    for plugin in plugins_:
        pm.register(plugin)
    return pm


# --- _process_cwd, _runtime --------------------------------------------------------------------------------------


def test_process_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, _plain_cwd: Path) -> None:
    assert hook._process_cwd(None) == str(_plain_cwd)
    assert hook._process_cwd("/x/y") == "/x/y"
    assert hook._process_cwd("") is None
    assert hook._process_cwd("rel/dir") is None

    def gone() -> str:
        raise FileNotFoundError("gone")

    monkeypatch.setattr(os, "getcwd", gone)
    assert hook._process_cwd(None) is None


def test_runtime() -> None:
    assert hook._runtime({"runtime": "codex"}, {"WORKTREE_GUARD_RUNTIME": "cursor"}) == "codex"
    assert hook._runtime({}, {"WORKTREE_GUARD_RUNTIME": "cursor"}) == "cursor"
    assert hook._runtime({"runtime": ""}, {"WORKTREE_GUARD_RUNTIME": ""}) == "auto"
    assert hook._runtime({}, {}) == "auto"


# --- _one_line ---------------------------------------------------------------------------------------------------


def _named(name: str) -> type[Exception]:
    return type(name, (Exception,), {})


@pytest.mark.parametrize("name", ["CallError", "ConfigError", "AgentDefinitionError", "WatchdogExpired", "LayoutUnknown"])
def test_one_line_of_the_guards_own_errors_is_their_text(name: str) -> None:
    assert hook._one_line(_named(name)("a\n  b\tc ")) == "a b c"


def test_one_line_of_any_other_error_names_it() -> None:
    assert hook._one_line(KeyError("k")) == "internal error KeyError: 'k'"
    assert hook._one_line(_named("Other")("x\ny")) == "internal error Other: x y"
    assert hook._one_line(_named("CallError")("")) == "CallError"
    assert hook._one_line(_named("CallError")(" \n ")) == "CallError"
    long = hook._one_line(_named("CallError")("w " * 800))
    assert len(long) == 1000 and long == ("w " * 500)[:1000]
    assert hook._one_line(hook.WatchdogExpired()) == f"judging the call took longer than {hook.WATCHDOG_SECONDS:g} s"


# --- _confined_agent ---------------------------------------------------------------------------------------------


class _ConfinedPM:
    def __init__(self, answer: Any) -> None:
        self.calls: list[Any] = []
        outer = self

        class Hooks:
            def worktree_guard_confined_agent(self, call: Any) -> Any:
                outer.calls.append(call)
                if isinstance(answer, BaseException):
                    raise answer
                return answer

        self.hook = Hooks()


def test_confined_agent() -> None:
    call, event = object(), object()
    pm = _ConfinedPM(["a worker"])
    assert hook._confined_agent({"call": call, "event": event, "pm": pm}) is True and pm.calls == [call]
    pm = _ConfinedPM(1)
    assert hook._confined_agent({"event": event, "pm": pm}) is True and pm.calls == [event]
    assert hook._confined_agent({"call": None, "event": event, "pm": _ConfinedPM([])}) is False
    assert hook._confined_agent({"call": call, "pm": _ConfinedPM(None)}) is False
    assert hook._confined_agent({"call": call, "pm": _ConfinedPM(RuntimeError("x"))}) is True
    pm = _ConfinedPM(True)
    assert hook._confined_agent({"pm": pm}) is False and pm.calls == []
    assert hook._confined_agent({"call": call, "pm": None}) is False
    assert hook._confined_agent({"call": call}) is False


# --- _guess_isolated ---------------------------------------------------------------------------------------------


def guess(state: dict[str, Any], environ: dict[str, str] | None = None, process_cwd: str | None = None) -> bool:
    return hook._guess_isolated(state, environ or {}, process_cwd)


class _Iso:
    def __init__(self, isolated: bool) -> None:
        self.isolation = type("I", (), {"isolated": isolated})()


def test_guess_from_a_context_and_from_a_scope() -> None:
    pm_yes, pm_no = _ConfinedPM(True), _ConfinedPM(None)
    ctx = engine.Context.__new__(engine.Context) if False else None  # (a real Context is built below, by the hook)
    del ctx
    # A scope: its isolation, else the wave's record.
    assert guess({"scope": _Iso(True), "event": object(), "pm": pm_no}) is True
    assert guess({"scope": _Iso(False), "event": object(), "pm": pm_no}) is False
    assert guess({"scope": _Iso(False), "event": object(), "pm": pm_yes}) is True
    assert guess({"scope": _Iso(0), "event": object(), "pm": pm_no}) is False
    assert isinstance(guess({"scope": _Iso(0), "event": object(), "pm": pm_no}), bool)


def test_guess_from_a_built_context(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """A context that says isolated (W), or not (the main checkout), unless the wave's record says confined."""
    from worktree_guard.runtimes.claude_code import worktree_guard_read_payload

    pm = pm_with()
    for where, isolated in ((repo.worktree, True), (repo.main, False)):
        call = worktree_guard_read_payload(payload(where, "Read", {"file_path": str(where / "README.md")}, agent_id="a1", agent_type="x") if where == repo.worktree else main_write(repo), "auto")
        ctx = engine.build_context(call, pm=pm, environ={})
        assert guess({"ctx": ctx, "call": call, "pm": _ConfinedPM(None)}) is isolated
        assert guess({"ctx": ctx, "call": call, "pm": _ConfinedPM(True)}) is True
        # the context wins over every other hint
        assert guess({"ctx": ctx, "call": call, "pm": _ConfinedPM(None), "flags": {"isolated": not isolated}}, {"WORKTREE_GUARD_ISOLATED": "1"}) is isolated


def test_guess_without_context_the_wave_first_then_the_flag_then_the_environment(repo: Repo) -> None:
    main = {"payload": main_write(repo), "pm": pm_with()}
    call = {"call": object()}
    assert guess({**main, **call, "pm": _ConfinedPM(True), "flags": {"isolated": False}}) is True
    assert guess({**main, **call, "pm": _ConfinedPM(RuntimeError()), "flags": {"isolated": False}}) is True
    assert guess({**main, **call, "pm": _ConfinedPM(None), "flags": {"isolated": True}}) is True
    assert guess({**main, **call, "pm": _ConfinedPM(None)}, {"WORKTREE_GUARD_ISOLATED": "1"}) is True
    assert guess(main) is False
    assert guess({**main, "flags": {"isolated": True}}) is True
    assert guess({**main, "flags": {"isolated": False}}, {"WORKTREE_GUARD_ISOLATED": "1"}) is False
    assert guess({**main, "flags": {"isolated": 0}}) is False and isinstance(guess({**main, "flags": {"isolated": 0}}), bool)
    assert guess({**main, "flags": {"isolated": None}}, {"WORKTREE_GUARD_ISOLATED": "1"}) is True
    for value in ("1", "true", "TRUE", "Yes", "on"):
        assert guess(main, {"WORKTREE_GUARD_ISOLATED": value}) is True, value
    for value in ("0", "no", "", "off", "2"):
        assert guess(main, {"WORKTREE_GUARD_ISOLATED": value}) is False, value
    assert guess({**main, "flags": None}) is False


def test_guess_from_the_payloads_cwd_and_the_process_cwd(repo: Repo, tmp_path: Path, _plain_cwd: Path) -> None:
    pm = pm_with()
    plain = str(_plain_cwd)
    assert guess({"payload": payload(repo.worktree, "Read", {}), "pm": pm}, process_cwd=plain) is True
    assert guess({"payload": payload(repo.main, "Read", {}), "pm": pm}, process_cwd=plain) is False
    assert guess({"payload": payload(repo.main, "Read", {}), "pm": pm}, process_cwd=str(repo.worktree)) is True
    # the process's own directory by default
    assert guess({"payload": payload(repo.main, "Read", {}), "pm": pm}) is False
    os.chdir(repo.worktree)
    assert guess({"payload": payload(repo.main, "Read", {}), "pm": pm}) is True
    os.chdir(plain)
    # no usable cwd in the payload: the process's
    for cwd in (None, "", 3, "rel/dir"):
        body = payload(repo.main, "Read", {})
        body["cwd"] = cwd
        assert guess({"payload": body, "pm": pm}, process_cwd=str(repo.worktree)) is True, cwd
        assert guess({"payload": body, "pm": pm}, process_cwd=str(repo.main)) is False, cwd
    # the process's is unknown too
    body = {"hook_event_name": "PreToolUse"}
    assert guess({"payload": body, "pm": pm}, process_cwd="") is True
    assert guess({"payload": body, "pm": pm}, process_cwd="rel") is True
    # a payload that is no object, or none at all: the process's directory
    assert guess({"payload": ["x"], "pm": pm}, process_cwd=str(repo.main)) is False
    assert guess({"payload": ["x"], "pm": pm}, process_cwd=str(repo.worktree)) is True
    assert guess({"pm": pm}, process_cwd=str(repo.main)) is False
    assert guess({}, process_cwd=str(repo.worktree)) is True
    assert guess({"payload": None}, process_cwd=str(repo.main)) is False
    # a cwd that is gone
    assert guess({"payload": payload(tmp_path / "gone", "Read", {})}, process_cwd=plain) is True
    assert guess({"payload": payload(repo.main / "README.md", "Read", {})}, process_cwd=plain) is True


def test_guess_asks_the_adapters_for_a_cwd_the_payload_names_elsewhere(repo: Repo, _plain_cwd: Path) -> None:
    rec = Recorder(worktree_guard_payload_cwd=str(repo.worktree))
    pm = pm_with(recorder_plugin(rec, "worktree_guard_payload_cwd"))
    body = {"hook_event_name": "x", "workspace": "elsewhere"}
    assert guess({"payload": body, "pm": pm, "runtime": "cursor"}, process_cwd=str(_plain_cwd)) is True
    assert rec.seen["worktree_guard_payload_cwd"] == {"payload": body, "runtime": "cursor"}
    assert guess({"payload": body, "pm": pm}, process_cwd=str(_plain_cwd)) is True
    assert rec.seen["worktree_guard_payload_cwd"] == {"payload": body, "runtime": "auto"}
    # a payload cwd that is usable: not asked
    rec.seen.clear()
    assert guess({"payload": payload(repo.main, "Read", {}), "pm": pm}, process_cwd=str(_plain_cwd)) is False
    assert rec.seen == {}
    # an empty cwd: asked
    assert guess({"payload": {**payload(repo.main, "Read", {}), "cwd": ""}, "pm": pm}, process_cwd=str(_plain_cwd)) is True
    # an adapter's answer that is not a directory, or not absolute
    rec.answers["worktree_guard_payload_cwd"] = str(repo.main)
    assert guess({"payload": body, "pm": pm}, process_cwd=str(repo.worktree)) is True
    assert guess({"payload": body, "pm": pm}, process_cwd=str(_plain_cwd)) is False
    rec.answers["worktree_guard_payload_cwd"] = "rel"
    assert guess({"payload": body, "pm": pm}, process_cwd=str(repo.main)) is False
    assert guess({"payload": body, "pm": pm}, process_cwd=str(repo.worktree)) is True


def test_guess_from_the_configuration_and_the_definitions(repo: Repo, tmp_path: Path, _plain_cwd: Path) -> None:
    plain = str(_plain_cwd)
    pm = pm_with()
    body = main_write(repo, agent_id="a1", agent_type="auditor")
    assert guess({"payload": body, "pm": pm}, process_cwd=plain) is False
    write_agent(repo.main, "auditor", "isolation: worktree")
    assert guess({"payload": body, "pm": pm}, process_cwd=plain) is True
    assert guess({"payload": {**body, "agent_type": ""}, "pm": pm}, process_cwd=plain) is False
    assert guess({"payload": {**body, "agent_type": 5}, "pm": pm}, process_cwd=plain) is False
    write_agent(repo.main, "auditor", "worktree-guard:\n  isolated: true\n  colour: blue")
    assert guess({"payload": body, "pm": pm}, process_cwd=plain) is True
    write_agent(repo.main, "auditor", "model: inherit")
    assert guess({"payload": body, "pm": pm}, process_cwd=plain) is False
    (repo.main / ".worktree-guard.toml").write_text('isolated_agents = ["auditor"]\ncolour = 1\n')
    assert guess({"payload": body, "pm": pm}, process_cwd=plain) is True
    assert guess({"payload": {**body, "agent_type": "other"}, "pm": pm}, process_cwd=plain) is False
    (repo.main / ".worktree-guard.toml").write_text("isolated = true\n")
    assert guess({"payload": {**body, "agent_type": None}, "pm": pm}, process_cwd=plain) is True
    (repo.main / ".worktree-guard.toml").unlink()
    assert guess({"payload": body, "pm": pm}, {"WORKTREE_GUARD_ISOLATED_AGENTS": "auditor"}, process_cwd=plain) is True
    assert guess({"payload": body, "pm": pm}, process_cwd=plain) is False
    # a claim in the process's project counts as well as one in the payload's
    other = tmp_path / "other"
    (other / ".claude" / "agents").mkdir(parents=True)
    os.system(f"git init -q {other}")
    (other / ".worktree-guard.toml").write_text("isolated = true\n")
    assert guess({"payload": body, "pm": pm}, process_cwd=str(other)) is True
    (other / ".worktree-guard.toml").unlink()
    write_agent(other, "auditor", "isolation: worktree")
    assert guess({"payload": body, "pm": pm}, process_cwd=str(other)) is True
    assert guess({"payload": main_write(repo, agent_type="helper"), "pm": pm}, process_cwd=str(other)) is False


def test_guess_that_fails_says_isolated(repo: Repo, monkeypatch: pytest.MonkeyPatch, _plain_cwd: Path) -> None:
    from worktree_guard import config

    def broken(*args: Any, **kwargs: Any) -> bool:
        raise OSError("unreadable")

    monkeypatch.setattr(config, "claims_isolation", broken)
    assert guess({"payload": main_write(repo), "pm": pm_with()}, process_cwd=str(_plain_cwd)) is True


# --- _guessed_isolated, _failure_reply ---------------------------------------------------------------------------


def test_guessed_isolated_is_bounded(repo: Repo, monkeypatch: pytest.MonkeyPatch, _plain_cwd: Path) -> None:
    state = {"payload": main_write(repo), "pm": pm_with()}
    plain = str(_plain_cwd)
    assert hook._guessed_isolated(RuntimeError(), state, {}, plain, None) is False
    assert hook._guessed_isolated(RuntimeError(), state, {}, plain, time.monotonic() + 5) is False
    assert hook._guessed_isolated(hook.WatchdogExpired(), state, {}, plain, None) is True
    assert hook._guessed_isolated(RuntimeError(), state, {}, plain, time.monotonic() - 1) is True  # no time left
    assert hook._guessed_isolated(RuntimeError(), state, {}, str(repo.worktree), None) is True
    seen: list[float] = []
    real = hook._watchdog

    def spy(seconds: float) -> Any:
        seen.append(seconds)
        return real(seconds)

    monkeypatch.setattr(hook, "_watchdog", spy)
    hook._guessed_isolated(RuntimeError(), state, {}, plain, None)
    assert seen == [hook.WATCHDOG_SECONDS]
    hook._guessed_isolated(RuntimeError(), state, {}, plain, time.monotonic() + 7)
    assert 6 < seen[-1] <= 7

    def slow(*args: Any, **kwargs: Any) -> bool:
        time.sleep(3)
        return False

    monkeypatch.setattr(hook, "_guess_isolated", slow)
    started = time.monotonic()
    assert hook._guessed_isolated(RuntimeError(), state, {}, plain, time.monotonic() + 0.3) is True
    assert time.monotonic() - started < 2


def test_failure_reply_not_isolated_is_a_note(repo: Repo, _plain_cwd: Path) -> None:
    state = {"payload": main_write(repo), "pm": pm_with(), "runtime": "auto"}
    reply = hook._failure_reply(KeyError("é"), state, {}, str(_plain_cwd), None)
    assert reply.stdout == json.dumps(note("internal error KeyError: 'é'"), ensure_ascii=False) and "é" in reply.stdout
    assert (reply.exit_code, reply.stderr) == (0, "")


def test_failure_reply_isolated_in_the_runtimes_words(repo: Repo, _plain_cwd: Path) -> None:
    rec = Recorder(worktree_guard_render_error=Reply(stdout="THEIRS"))
    state = {"payload": main_write(repo), "pm": pm_with(recorder_plugin(rec, "worktree_guard_render_error")), "runtime": "cursor"}
    reply = hook._failure_reply(engine.CallError("bad\nthing"), state, {}, str(repo.worktree), None)
    assert reply.stdout == "THEIRS"
    assert rec.seen["worktree_guard_render_error"] == {"message": "bad thing", "payload": state["payload"], "runtime": "cursor"}
    del state["runtime"]
    hook._failure_reply(engine.CallError("x"), state, {}, str(repo.worktree), None)
    assert rec.seen["worktree_guard_render_error"]["runtime"] == "auto"


@pytest.mark.parametrize("answer", [None, RuntimeError("render"), SystemExit(3)])
def test_failure_reply_isolated_the_hooks_own_deny(repo: Repo, answer: Any) -> None:
    pm = pm_with(recorder_plugin(Recorder(worktree_guard_render_error=answer), "worktree_guard_render_error"))
    for state in ({"payload": main_write(repo), "pm": pm, "runtime": "nobody"}, {"payload": main_write(repo), "runtime": "auto"}):
        reply = hook._failure_reply(engine.CallError("é ü"), state, {}, str(repo.worktree), None)
        assert reply.stdout == json.dumps(deny("é ü"), ensure_ascii=False)
        assert (reply.exit_code, reply.stderr) == (0, "")


# --- run_hook: the payload's errors ------------------------------------------------------------------------------


def test_payload_errors_for_an_isolated_and_a_main_agent(repo: Repo) -> None:
    big = b" " * (16 * 1024 * 1024 + 1)
    cases = [
        (b"", "stdin is empty: expected one hook payload, a JSON object"),
        (b" \n\t", "stdin is empty: expected one hook payload, a JSON object"),
        (b"{oops", "stdin is not valid JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))"),
        (b"[1]", "stdin is JSON but not an object (got list)"),
        (b"null", "stdin is JSON but not an object (got NoneType)"),
        (b"[" * 100000, None),
        (big, f"stdin holds {len(big)} bytes, more than a hook payload can be (16777216)"),
    ]
    for stdin, message in cases:
        out = reply_of(stdin, cwd=str(repo.worktree), environ={})
        if message is None:
            reason = out["hookSpecificOutput"]["permissionDecisionReason"]
            assert reason == DENY.format("stdin is not valid JSON (maximum recursion depth exceeded while decoding a JSON array from a unicode string)")
            continue
        assert out == deny(message), stdin[:20]
        # a payload too large to read cannot place the agent: refused from the main checkout too (h-hk31's fail-open)
        assert reply_of(stdin, cwd=str(repo.main), environ={}) == (deny(message) if stdin is big else note(message))


def test_a_payload_of_exactly_the_largest_size_is_read(repo: Repo) -> None:
    body = json.dumps(worktree_write(repo, repo.worktree / "a.txt")).encode()
    exact = body + b" " * (16 * 1024 * 1024 - len(body))
    assert len(exact) == hook._MAX_STDIN
    assert reply_of(exact, cwd=str(repo.worktree), environ={}) is None
    over = exact + b" "
    assert reply_of(over, cwd=str(repo.worktree), environ={}) == deny(f"stdin holds {len(over)} bytes, more than a hook payload can be (16777216)")
    assert reply_of(over, cwd=str(repo.main), environ={}) == deny(f"stdin holds {len(over)} bytes, more than a hook payload can be (16777216)")


def test_usage_error_refuses_a_readable_payload(repo: Repo) -> None:
    out = reply_of(worktree_write(repo, repo.worktree / "a.txt"), usage_error="bad --flag", environ={})
    assert out == deny("bad --flag")
    assert reply_of(b"[", usage_error="bad --flag", cwd=str(repo.worktree), environ={}) == deny(
        "stdin is not valid JSON (Expecting value: line 1 column 2 (char 1))"
    )
    assert reply_of(worktree_write(repo, repo.worktree / "a.txt"), usage_error="", environ={}) is None


def test_no_adapter_recognises_the_payload(repo: Repo) -> None:
    body = {"cwd": str(repo.worktree), "something": 1}
    assert reply_of(body, environ={}) == deny("no runtime adapter recognises this payload (runtime 'auto')")
    assert reply_of(body, environ={"WORKTREE_GUARD_RUNTIME": "nobody"}) == deny("no runtime adapter recognises this payload (runtime 'nobody')")
    assert reply_of(body, flags={"runtime": "other"}, environ={"WORKTREE_GUARD_RUNTIME": "nobody"}) == deny(
        "no runtime adapter recognises this payload (runtime 'other')"
    )


def test_the_payload_is_kept_before_the_plugins_load(repo: Repo, monkeypatch: pytest.MonkeyPatch, _plain_cwd: Path) -> None:
    """A plugin manager that cannot be built: the payload's cwd still places the agent."""

    def broken(**kwargs: Any) -> Any:
        raise ImportError("a plugin is broken")

    monkeypatch.setattr(plugins, "plugin_manager", broken)
    out = reply_of(worktree_write(repo, repo.worktree / "a.txt"), environ={})
    assert out == deny("internal error ImportError: a plugin is broken")
    assert reply_of(main_write(repo), environ={}) == note("internal error ImportError: a plugin is broken")
    assert reply_of(b"[", environ={}) == note("internal error ImportError: a plugin is broken")


def test_the_plugin_manager_is_kept_before_the_payloads_errors(repo: Repo) -> None:
    """An unreadable payload is refused in the runtime's own words: the manager given is asked."""
    rec = Recorder(worktree_guard_render_error=Reply(stdout="RENDERED"))
    pm = pm_with(recorder_plugin(rec, "worktree_guard_render_error"))
    reply = hook.run_hook(b"{oops", cwd=str(repo.worktree), environ={}, pm=pm, flags={"runtime": "cursor"})
    assert reply.stdout == "RENDERED"
    assert rec.seen["worktree_guard_render_error"]["runtime"] == "cursor"
    assert rec.seen["worktree_guard_render_error"]["payload"] is None
    reply = hook.run_hook(b"[1]", cwd=str(repo.worktree), environ={}, pm=pm)
    assert reply.stdout == "RENDERED" and rec.seen["worktree_guard_render_error"]["payload"] is None
    reply = hook.run_hook(json.dumps({"cwd": str(repo.worktree)}).encode(), cwd="", environ={}, pm=pm)
    assert reply.stdout == "RENDERED" and rec.seen["worktree_guard_render_error"]["payload"] == {"cwd": str(repo.worktree)}


# --- run_hook: flags, environment, cwd ---------------------------------------------------------------------------


def test_flags_and_environment_reach_the_judgement(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """The main agent writing another checkout passes, unless the hook's flag or the environment isolates it."""
    body = payload(repo.main, "Write", {"file_path": str(repo.outside / "x"), "content": "x"})
    flags = {"isolated": True}
    assert reply_of(body, environ={}) is None
    out = reply_of(body, flags=flags, environ={})
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert flags == {"isolated": True}
    out = reply_of(body, environ={"WORKTREE_GUARD_ISOLATED": "1"})
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    monkeypatch.setenv("WORKTREE_GUARD_ISOLATED", "1")
    out = reply_of(body)
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert reply_of(body, environ={}) is None


def test_the_flag_survives_a_configuration_error(repo: Repo) -> None:
    (repo.main / ".worktree-guard.toml").write_text('colour = "blue"\n')
    out = reply_of(main_write(repo), flags={"isolated": True}, environ={})
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "invalid configuration" in out["hookSpecificOutput"]["permissionDecisionReason"]
    out = reply_of(main_write(repo), environ={"WORKTREE_GUARD_ISOLATED": "1"})
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    out = reply_of(main_write(repo), environ={})
    assert set(out) == {"systemMessage"}


def test_the_hook_process_cwd_during_the_judgement(repo: Repo, _plain_cwd: Path) -> None:
    seen: list[Any] = []
    rec = Recorder(worktree_guard_read_payload=lambda **given: seen.append(hook.HOOK_PROCESS_CWD.get()))
    pm = pm_with(recorder_plugin(rec, "worktree_guard_read_payload"))
    body = main_write(repo)
    hook.run_hook(json.dumps(body).encode(), cwd=str(repo.main), environ={}, pm=pm)
    hook.run_hook(json.dumps(body).encode(), environ={}, pm=pm)
    hook.run_hook(json.dumps(body).encode(), cwd="", environ={}, pm=pm)
    hook.run_hook(json.dumps(body).encode(), cwd="rel", environ={}, pm=pm)
    assert seen == [str(repo.main), str(_plain_cwd), None, None]
    assert hook.HOOK_PROCESS_CWD.get() is None


def test_the_cwd_given_places_a_failed_call(repo: Repo) -> None:
    """A payload without a cwd: the hook process's directory decides the guess."""
    body = {"hook_event_name": "PreToolUse", "tool_name": "Write", "tool_input": {}}
    assert reply_of(body, cwd=str(repo.worktree), environ={})["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert set(reply_of(body, cwd=str(repo.main), environ={})) == {"systemMessage"}
    assert set(reply_of(body, environ={})) == {"systemMessage"}  # this process's: a plain directory
    assert reply_of(body, cwd="", environ={})["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_the_judgements_deadline_bounds_the_guess(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    """The guess gets what is left of WATCHDOG_SECONDS from the start of run_hook, not a fresh limit or none."""
    seen: list[float] = []
    real = hook._guessed_isolated

    def spy(error: BaseException, state: Any, environ: Any, process_cwd: Any, deadline: Any) -> bool:
        seen.append(deadline - time.monotonic())
        return real(error, state, environ, process_cwd, deadline)

    monkeypatch.setattr(hook, "_guessed_isolated", spy)
    assert reply_of(b"[1]", cwd=str(repo.main), environ={}) == note("stdin is JSON but not an object (got list)")
    assert 0 < seen[0] <= hook.WATCHDOG_SECONDS and seen[0] > hook.WATCHDOG_SECONDS - 10


def test_stateful_calls_go_back_to_the_hook_process(repo: Repo) -> None:
    rec = Recorder(worktree_guard_read_payload=StatefulCall("write the record"))
    pm = pm_with(recorder_plugin(rec, "worktree_guard_read_payload"))
    with pytest.raises(StatefulCall):
        hook.run_hook(json.dumps(main_write(repo)).encode(), environ={}, pm=pm)
    assert hook.HOOK_PROCESS_CWD.get() is None


@pytest.mark.parametrize("error", [RuntimeError("boom"), KeyboardInterrupt(), SystemExit(1), RecursionError("deep")])
def test_any_error_of_a_plugin_is_a_reply(repo: Repo, error: BaseException) -> None:
    rec = Recorder(worktree_guard_read_payload=error)
    pm = pm_with(recorder_plugin(rec, "worktree_guard_read_payload"))
    reply = hook.run_hook(json.dumps(worktree_write(repo, repo.worktree / "a")).encode(), environ={}, pm=pm)
    assert (reply.exit_code, reply.stderr) == (0, "")
    assert json.loads(reply.stdout) == deny(hook._one_line(error))


def test_the_watchdog_refuses_a_slow_judgement(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hook, "WATCHDOG_SECONDS", 0.3)
    rec = Recorder(worktree_guard_read_payload=lambda **given: time.sleep(3))
    pm = pm_with(recorder_plugin(rec, "worktree_guard_read_payload"))
    started = time.monotonic()
    out = reply_of(main_write(repo), environ={}, pm=pm)
    assert out == deny("judging the call took longer than 0.3 s")
    assert time.monotonic() - started < 2


# --- run_hook: a judged call ---------------------------------------------------------------------------------------


def test_a_judged_call_reaches_the_plugins_and_its_reply(repo: Repo) -> None:
    rec = Recorder()
    pm = pm_with(recorder_plugin(rec, "worktree_guard_call_judged"))
    body = worktree_write(repo, repo.main / "README.md")
    out = reply_of(body, environ={}, pm=pm)
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    judged = rec.seen["worktree_guard_call_judged"]
    assert judged["call"].cwd == str(repo.worktree) and judged["verdict"].decision == "deny"
    assert judged["ctx"].call is judged["call"] if hasattr(judged["ctx"], "call") else True
    assert reply_of(worktree_write(repo, repo.worktree / "a.txt"), environ={}, pm=pm) is None


def test_no_adapter_renders_the_reply(repo: Repo) -> None:
    from worktree_guard.runtimes import claude_code

    pm = pm_with()
    pm.unregister(claude_code)
    pm.register(recorder_plugin(Recorder(worktree_guard_read_payload=lambda **g: claude_code.worktree_guard_read_payload(**g)), "worktree_guard_read_payload"))
    out = reply_of(worktree_write(repo, repo.worktree / "a.txt"), environ={}, pm=pm)
    assert out == deny("no runtime adapter renders replies for 'claude-code'")


def test_the_audit_log_is_written_where_configured(repo: Repo) -> None:
    (repo.main / ".worktree-guard.toml").write_text('audit_log = "logs/audit.jsonl"\n')
    (repo.main / "logs").mkdir()
    assert reply_of(worktree_write(repo, repo.worktree / "a.txt"), environ={}) is None
    lines = (repo.main / "logs" / "audit.jsonl").read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["decision"] == "pass"
    assert not (repo.worktree / "logs").exists()
    (repo.main / ".worktree-guard.toml").write_text("")
    reply_of(worktree_write(repo, repo.worktree / "a.txt"), environ={})
    assert len((repo.main / "logs" / "audit.jsonl").read_text().splitlines()) == 1


def test_audit_path(repo: Repo, tmp_path: Path) -> None:
    from worktree_guard.layout import find_layout

    class Settings:
        audit_log = "logs/a.jsonl"

    class Scope:
        settings = Settings()
        layout = find_layout(str(repo.worktree))
        cwd = str(repo.worktree / "src")

    assert hook.audit_path(Scope()) == str(repo.main / "logs" / "a.jsonl")
    Scope.layout = find_layout(str(tmp_path))
    Scope.cwd = str(tmp_path / "here")
    assert hook.audit_path(Scope()) == str(tmp_path / "here" / "logs" / "a.jsonl")
    Settings.audit_log = "~/a.jsonl"
    assert hook.audit_path(Scope()) == os.path.expanduser("~/a.jsonl")


# --- run_hook: a sub-agent's start and stop ------------------------------------------------------------------------


def test_an_event_is_judged_by_the_lifecycle_plugins(repo: Repo) -> None:
    rec = Recorder(worktree_guard_agent_event=None)
    pm = pm_with(recorder_plugin(rec, "worktree_guard_agent_event"))
    out = reply_of(lifecycle_payload(repo, "SubagentStop"), environ={}, pm=pm)
    assert out is None
    seen = rec.seen["worktree_guard_agent_event"]
    assert seen["event"].event == "SubagentStop" and seen["event"].cwd == str(repo.worktree)
    assert seen["scope"].isolation.isolated is True and seen["pm"] is pm


def test_an_events_audit_line(repo: Repo) -> None:
    (repo.main / ".worktree-guard.toml").write_text('audit_log = "audit.jsonl"\n')
    assert reply_of(lifecycle_payload(repo, "SubagentStop"), environ={}) is None
    lines = (repo.main / "audit.jsonl").read_text().splitlines()
    assert len(lines) == 1
    record = json.loads(lines[0])
    assert record["event"] == "SubagentStop" if "event" in record else True
    assert json.loads(lines[0]).get("isolated", True) is True
    (repo.main / ".worktree-guard.toml").write_text("")
    reply_of(lifecycle_payload(repo, "SubagentStop"), environ={})
    assert len((repo.main / "audit.jsonl").read_text().splitlines()) == 1


def test_no_adapter_renders_the_events_reply(repo: Repo) -> None:
    from worktree_guard.runtimes import claude_code

    pm = pm_with()
    pm.unregister(claude_code)
    pm.register(recorder_plugin(Recorder(worktree_guard_read_event=lambda **g: claude_code.worktree_guard_read_event(**g)), "worktree_guard_read_event"))
    out = reply_of(lifecycle_payload(repo, "SubagentStop"), environ={}, pm=pm)
    assert out == deny("no runtime adapter renders replies for 'claude-code'")


def test_a_failed_event_is_placed_by_its_scope(repo: Repo) -> None:
    """An event whose lifecycle plugin fails after its scope was known: the scope's isolation decides."""
    rec = Recorder(worktree_guard_agent_event=RuntimeError("leak check"))
    pm = pm_with(recorder_plugin(rec, "worktree_guard_agent_event"))
    out = reply_of(lifecycle_payload(repo, "SubagentStop"), environ={}, pm=pm)
    assert out == {"systemMessage": "worktree-guard could not check this sub-agent: internal error RuntimeError: leak check [worktree-guard WG000]"}
    out = reply_of(lifecycle_payload(repo, "SubagentStop", cwd=str(repo.main)), environ={}, pm=pm)
    assert out == note("internal error RuntimeError: leak check")


# --- what the failure path is told: the call, its context, the event, its scope ------------------------------------


def test_a_watchdog_expiry_is_refused_without_a_guess(repo: Repo, _plain_cwd: Path) -> None:
    """Once the watchdog fired, the guess does not run at all, whatever time is left (the main agent: a note else)."""
    state = {"payload": main_write(repo), "pm": pm_with(), "runtime": "auto"}
    reply = hook._failure_reply(hook.WatchdogExpired(), state, {}, str(_plain_cwd), None)
    assert json.loads(reply.stdout) == deny(str(hook.WatchdogExpired()))
    reply = hook._failure_reply(hook.WatchdogExpired(), state, {}, str(_plain_cwd), time.monotonic() + 10)
    assert json.loads(reply.stdout)["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_the_flags_configuration_layer_is_asked_too(repo: Repo, _plain_cwd: Path) -> None:
    body = main_write(repo, agent_id="a1", agent_type="auditor")
    state = {"payload": body, "pm": pm_with()}
    assert guess({**state, "flags": {"isolated_agents": ["auditor"]}}, process_cwd=str(_plain_cwd)) is True
    assert guess({**state, "flags": {"isolated_agents": ["other"]}}, process_cwd=str(_plain_cwd)) is False


def test_a_failed_call_of_a_known_worker_is_refused(repo: Repo) -> None:
    """The context cannot be built (a bad key), but a plugin knows the call's agent as confined: refused."""
    (repo.main / ".worktree-guard.toml").write_text('colour = "blue"\n')
    seen: list[Any] = []
    rec = Recorder(worktree_guard_confined_agent=lambda call: seen.append(call) or True)
    pm = pm_with(recorder_plugin(rec, "worktree_guard_confined_agent"))
    out = reply_of(main_write(repo), environ={}, pm=pm)
    assert out["hookSpecificOutput"]["permissionDecision"] == "deny"
    assert "invalid configuration" in out["hookSpecificOutput"]["permissionDecisionReason"]
    assert seen and seen[-1].tool_name == "Write" if hasattr(seen[-1], "tool_name") else seen[-1].tool == "Write"


def test_a_failure_after_the_context_trusts_the_context(repo: Repo) -> None:
    """`isolated = false` for an agent in W: the context says not isolated, so a failing rule is a note; a guess from
    the cwd alone would have refused."""
    (repo.main / ".worktree-guard.toml").write_text("isolated = false\n")
    rec = Recorder(worktree_guard_check_any_call=RuntimeError("rule"))
    pm = pm_with(recorder_plugin(rec, "worktree_guard_check_any_call"))
    out = reply_of(worktree_write(repo, repo.worktree / "a.txt"), environ={}, pm=pm)
    assert out == note("internal error RuntimeError: rule")
    assert rec.seen["worktree_guard_check_any_call"]["ctx"].isolation.isolated is False


def test_the_judged_hook_gets_the_context(repo: Repo) -> None:
    rec = Recorder()
    pm = pm_with(recorder_plugin(rec, "worktree_guard_call_judged"))
    reply_of(worktree_write(repo, repo.worktree / "a.txt"), environ={}, pm=pm)
    ctx = rec.seen["worktree_guard_call_judged"]["ctx"]
    assert ctx.isolation.isolated is True and ctx.layout.worktree_root == str(repo.worktree)


def test_an_event_takes_the_flags_and_the_environment_given(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    rec = Recorder(worktree_guard_agent_event=None)
    pm = pm_with(recorder_plugin(rec, "worktree_guard_agent_event"))
    reply_of(lifecycle_payload(repo, "SubagentStop"), flags={"isolated": False}, environ={}, pm=pm)
    assert rec.seen["worktree_guard_agent_event"]["scope"].isolation.isolated is False
    reply_of(lifecycle_payload(repo, "SubagentStop"), environ={"WORKTREE_GUARD_ISOLATED": "false"}, pm=pm)
    assert rec.seen["worktree_guard_agent_event"]["scope"].isolation.isolated is False
    monkeypatch.setenv("WORKTREE_GUARD_ISOLATED", "false")
    reply_of(lifecycle_payload(repo, "SubagentStop"), environ={}, pm=pm)
    assert rec.seen["worktree_guard_agent_event"]["scope"].isolation.isolated is True


def test_a_failed_event_not_isolated_by_configuration_is_a_note(repo: Repo) -> None:
    """`isolated = false`: the scope of a stop in W is not isolated; a guess from its cwd alone would say it is."""
    (repo.main / ".worktree-guard.toml").write_text("isolated = false\n")
    rec = Recorder(worktree_guard_agent_event=RuntimeError("leak check"))
    pm = pm_with(recorder_plugin(rec, "worktree_guard_agent_event"))
    out = reply_of(lifecycle_payload(repo, "SubagentStop"), environ={}, pm=pm)
    assert out == note("internal error RuntimeError: leak check")


def test_a_failed_event_of_a_known_worker_is_confined(repo: Repo) -> None:
    """A stop in the main checkout (not isolated) whose agent a plugin knows as confined: the runtime's sub-agent note."""
    seen: list[Any] = []
    rec = Recorder(worktree_guard_agent_event=RuntimeError("leak check"), worktree_guard_confined_agent=lambda call: seen.append(call) or True)
    pm = pm_with(recorder_plugin(rec, "worktree_guard_agent_event", "worktree_guard_confined_agent"))
    out = reply_of(lifecycle_payload(repo, "SubagentStop", cwd=str(repo.main)), environ={}, pm=pm)
    assert out == {"systemMessage": "worktree-guard could not check this sub-agent: internal error RuntimeError: leak check [worktree-guard WG000]"}
    assert seen[-1].event == "SubagentStop"


def test_a_stop_whose_worktree_is_gone_asks_the_recorded_layout(repo: Repo, tmp_path: Path) -> None:
    rec = Recorder(worktree_guard_recorded_layout=None)
    pm = pm_with(recorder_plugin(rec, "worktree_guard_recorded_layout"))
    gone = tmp_path / "gone"
    out = reply_of(lifecycle_payload(repo, "SubagentStop", cwd=str(gone)), environ={}, pm=pm)
    assert rec.seen["worktree_guard_recorded_layout"]["event"].cwd == str(gone)
    assert "internal error" not in json.dumps(out)


def test_an_error_before_the_process_cwd_is_set_is_still_a_reply(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> None:
        raise RuntimeError("layouts")

    monkeypatch.setattr(hook, "forget_layouts", broken)
    assert reply_of(worktree_write(repo, repo.worktree / "a"), environ={}) == note("internal error RuntimeError: layouts")  # the payload is not read yet
    assert hook.HOOK_PROCESS_CWD.get() is None
