"""The workers of one repository (SPEC §11): who was dispatched with which ownership, who runs, since when.

One directory per repository (keyed by its common git dir) beside the §5.4 snapshots:
`$XDG_STATE_HOME/worktree-guard/waves/<key>/` (0700), holding `workers.json` (dispatches and sub-agents),
`workers.lock` (an flock: hooks of parallel tool calls run at the same time), `snapshots/<agent>.json` (a
worker's checkout at its start) and `blame/<agent>.json` (what its stop could blame on it, for rollback).

A dispatch is recorded at its PreToolUse, keyed by the call's tool-use id, whatever it declares (so that a
sub-agent linked to a dispatch without an ownership is known not to be a worker). It is first recorded
*provisionally*, in the same locked step that checks it against the running workers (WG704), so that two
dispatches judged at the same time cannot both pass; the verdict then confirms it or, when the dispatch was
refused, drops it. A provisional record that was never confirmed (the hook failed after the check) counts for
PROVISIONAL_AFTER only. A sub-agent is recorded at its start and linked to its dispatch as soon as the runtime
tells which one it was. A worker is running from its dispatch until its stop. It is forgotten as running
(never as history: the wave of a later stop still needs it) when it stopped, when it never started within
PENDING_AFTER, or when it has run longer than `stale_worker_after`, so that a crashed worker cannot block the
next wave; its window (`WorkerView.window`) ends there too. Whatever is older than HISTORY_AFTER is removed.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from ..records import Field, Record

from .places import registry_dir, waves_root
from .state import _private_dir, safe_name, state_root

M = TypeVar("M", bound=Record)

PENDING_AFTER = 300.0  # seconds a dispatch with no linked sub-agent counts as running
PROVISIONAL_AFTER = 60.0  # seconds a dispatch checked but never confirmed by its verdict counts as running
HISTORY_AFTER = 7 * 24 * 3600
LOCK_TIMEOUT = 10.0


class Dispatch(Record):
    """One dispatch (an Agent/Task call), as the orchestrator made it."""

    dispatch_id: str
    session_id: str | None = None
    dispatcher: str | None = Field(default=None, description="who dispatched it, as its sub-agent names its parent (`parent_id`)")
    agent_type: str | None = Field(default=None, description="the type of agent it starts, when the dispatch names one")
    checkout: str = Field(description="the checkout the dispatching agent worked in")
    isolated: bool = Field(default=False, description="the sub-agent gets a worktree of its own")
    owns: list[str] | None = Field(default=None, description="None: no ownership declared (not a worker)")
    owns_source: str | None = None
    prompt_digest: str | None = None
    time: float
    provisional: bool = Field(default=False, description="checked, but its verdict not known yet")


class Agent(Record):
    """One sub-agent's window, and the dispatch it was linked to."""

    agent_id: str
    session_id: str | None = None
    agent_type: str | None = None
    parent_id: str | None = None
    transcript_path: str | None = Field(default=None, description="the transcript its runtime named at its start")
    dispatch_id: str | None = None
    checkout: str | None = Field(default=None, description="where it works: its worktree, or the shared checkout")
    started: float | None = None
    stopped: float | None = None
    base_head: str | None = Field(default=None, description="an isolated worker's HEAD at its start (WG707)")
    blocks: int = 0


class Workers(Record):
    version: int = 1
    dispatches: dict[str, Dispatch] = Field(default_factory=dict)
    agents: dict[str, Agent] = Field(default_factory=dict)


class WorkerView(Record):
    """A dispatch with an ownership, and its sub-agent when known: one worker of a wave."""

    dispatch: Dispatch
    agent: Agent | None = None

    @property
    def name(self) -> str:
        who = self.dispatch.agent_type or "agent"
        return f"{who} {self.agent.agent_id}" if self.agent else f"{who} (dispatched by {self.dispatch.dispatch_id})"

    def window(self, now: float, stale_after: float, workers: Workers | None = None) -> tuple[float, float]:
        """From its start (else its dispatch) to its stop; a worker that was never seen to stop ends where it was
        forgotten as running: a dispatch never linked at PENDING_AFTER (unless a sub-agent that may be it still
        runs), a sub-agent never stopped at `stale_after` after its start."""
        agent = self.agent
        start = agent.started if agent and agent.started else self.dispatch.time
        if agent is not None and agent.stopped is not None:
            return start, agent.stopped
        if agent is not None:
            return start, min(now, start + stale_after)
        if workers is not None and is_running(self, workers, now, stale_after):
            return start, now
        return start, min(now, self.dispatch.time + min(PENDING_AFTER, stale_after))


def prompt_digest(prompt: str) -> str:
    return hashlib.sha256(prompt.strip().encode("utf-8", "surrogatepass")).hexdigest()




class Registry:
    """The workers file of one repository, read freely, changed under the lock."""

    def __init__(self, common_dir: str, root: str | None = None) -> None:
        self.common_dir = common_dir
        self.dir = registry_dir(common_dir, root)
        self.path = os.path.join(self.dir, "workers.json")

    def _ensure(self) -> None:
        base = os.path.dirname(self.dir)
        _private_dir(os.path.dirname(base))
        _private_dir(base)
        _private_dir(self.dir)

    def load(self) -> Workers:
        return load_model(self.path, Workers)

    def _save(self, workers: Workers) -> None:
        write_private(self.path, workers.model_dump_json())

    @contextmanager
    def changing(self) -> Iterator[Workers]:
        """The workers, to change in place; saved atomically when the block ends, all under the lock."""
        self._ensure()
        with flocked(os.path.join(self.dir, "workers.lock"), f"the wave registry {self.path}"):
            workers = self.load()
            yield workers
            _prune(workers, time.time())
            self._save(workers)

    # --- the files beside it ----------------------------------------------------------------------------

    def file(self, kind: str, agent_id: str) -> str:
        return os.path.join(self.dir, kind, safe_name(agent_id) + ".json")

    def write(self, kind: str, agent_id: str, text: str) -> None:
        self._ensure()
        path = self.file(kind, agent_id)
        _private_dir(os.path.dirname(path))
        write_private(path, text)

    def read(self, kind: str, agent_id: str) -> str | None:
        try:
            with open(self.file(kind, agent_id), encoding="utf-8") as f:
                return f.read()
        except FileNotFoundError:
            return None


def load_model(path: str, model: type[M]) -> M:
    """The record stored at `path`; an empty one when there is no file yet."""
    try:
        with open(path, encoding="utf-8") as f:
            return model.model_validate_json(f.read())
    except FileNotFoundError:
        return model()


def write_private(path: str, text: str) -> None:
    """Replace `path` atomically with `text`, readable by the owner only."""
    temp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(temp, path)


@contextmanager
def flocked(lock_path: str, what: str) -> Iterator[None]:
    """Hold an exclusive flock on `lock_path` (created 0600) for the block; TimeoutError after LOCK_TIMEOUT."""
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        deadline = time.monotonic() + LOCK_TIMEOUT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except OSError as e:
                if e.errno not in (errno.EAGAIN, errno.EACCES) or time.monotonic() > deadline:
                    raise TimeoutError(f"{what} stayed locked for {LOCK_TIMEOUT:g} s") from None
                time.sleep(0.01)
        yield
    finally:
        os.close(fd)


def _prune(workers: Workers, now: float) -> None:
    for key, agent in list(workers.agents.items()):
        if now - (agent.stopped or agent.started or now) > HISTORY_AFTER:
            del workers.agents[key]
    linked = {a.dispatch_id for a in workers.agents.values()}
    for key, dispatch in list(workers.dispatches.items()):
        if now - dispatch.time > HISTORY_AFTER and key not in linked:
            del workers.dispatches[key]


def agent_of(workers: Workers, dispatch_id: str) -> Agent | None:
    return next((a for a in workers.agents.values() if a.dispatch_id == dispatch_id), None)


def workers_of(workers: Workers, checkout: str | None = None) -> list[WorkerView]:
    """Every dispatch with an ownership (in `checkout`, when given), with its sub-agent when linked."""
    views = []
    for dispatch in workers.dispatches.values():
        if dispatch.owns is None or (checkout is not None and dispatch.checkout != checkout):
            continue
        views.append(WorkerView(dispatch=dispatch, agent=agent_of(workers, dispatch.dispatch_id)))
    return views


def is_running(view: WorkerView, workers: Workers, now: float, stale_after: float) -> bool:
    """Still running: not stopped, not stale, and (when not linked yet) dispatched recently or plausibly started."""
    agent = view.agent
    if agent is not None:
        if agent.stopped is not None:
            return False
        return now - (agent.started or view.dispatch.time) < stale_after
    if view.dispatch.provisional:
        return now - view.dispatch.time < min(PROVISIONAL_AFTER, stale_after)
    if now - view.dispatch.time < min(PENDING_AFTER, stale_after):
        return True
    # Not linked yet: a sub-agent of that session and type that started after the dispatch and still runs may be it.
    return any(
        a.dispatch_id is None
        and a.session_id == view.dispatch.session_id
        and view.dispatch.agent_type in (None, a.agent_type)
        and a.started is not None
        and a.started >= view.dispatch.time
        and a.stopped is None
        and now - a.started < stale_after
        for a in workers.agents.values()
    )


def session_declared(workers: Workers, session_id: str | None) -> bool:
    """Did this session dispatch a worker with an ownership (still remembered)?"""
    return any(d.owns is not None and d.session_id == session_id for d in workers.dispatches.values())


def dispatcher_declared(workers: Workers, dispatcher: str | None) -> bool:
    """Did this agent (its `dispatcher_key`) dispatch a worker with an ownership (still remembered)?"""
    return dispatcher is not None and any(d.owns is not None and d.dispatcher == dispatcher for d in workers.dispatches.values())


def wave_declared(workers: Workers, agent: object) -> bool:
    """Is this sub-agent's session, or the agent that dispatched it, one that declared a wave?"""
    return session_declared(workers, getattr(agent, "session_id", None)) or dispatcher_declared(workers, getattr(agent, "parent_id", None))
