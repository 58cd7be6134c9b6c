"""A sub-agent's call loads the wave machinery only when a dispatch of its repository declared an ownership
(subagents/places.py `may_have_workers`): the in-process speed goal of issue 12 (docs/performance.md). The
verdicts are those of the full machinery: a worker is still found, and a registry that cannot be read still
fails closed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.helpers import Repo, payload
from tests.test_wave import SESSION, Wave, codes, wave  # noqa: F401 — the fixture
from worktree_guard.subagents.places import registry_dir

AGENT = "a00000000000000d4"
PROBE = (
    "import json, sys\n"
    "from worktree_guard.hook import run_hook\n"
    "reply = run_hook(sys.stdin.buffer.read())\n"
    "print(json.dumps({'stdout': reply.stdout, 'wave': 'worktree_guard.subagents.registry' in sys.modules}))\n"
)


def judged_alone(wave: Wave, relative: str) -> tuple[set[str], bool]:
    """The codes of a sub-agent's Write into the main checkout, judged in a fresh process, and whether that process
    loaded the wave registry."""
    data = payload(wave.repo.main, "Write", {"file_path": str(wave.repo.main / relative), "content": "x\n"}, agent_id=AGENT, agent_type="general-purpose", tool_use_id="toolu_w", **wave.common())
    done = subprocess.run([sys.executable, "-c", PROBE], input=json.dumps(data).encode(), capture_output=True, env=dict(os.environ, WT_GUARD_DAEMON="0"), timeout=120, check=True)
    out = json.loads(done.stdout)

    class Result:
        output = json.loads(out["stdout"]) if out["stdout"] else None

    return codes(Result), out["wave"]


def test_dispatches_without_an_ownership_load_no_wave_machinery(wave: Wave) -> None:
    wave.start(AGENT, "toolu_plain", None)
    assert judged_alone(wave, "src/app.py") == (set(), False)


def test_a_dispatch_with_an_ownership_loads_it_and_finds_the_worker(wave: Wave) -> None:
    wave.start(AGENT, "toolu_owner", "docs/**")
    assert judged_alone(wave, "src/app.py") == ({"WG701"}, True)
    assert judged_alone(wave, "docs/a.md") == (set(), True)


def test_a_registry_that_cannot_be_read_still_fails_closed(wave: Wave, repo: Repo) -> None:
    wave.start(AGENT, "toolu_plain", None)
    workers = Path(registry_dir(os.path.realpath(repo.main / ".git"))) / "workers.json"
    assert workers.is_file()
    workers.write_text("{not json")
    assert judged_alone(wave, "src/app.py") == ({"WG701"}, True)


def test_a_registry_too_deep_to_parse_still_fails_closed(wave: Wave, repo: Repo) -> None:
    """`json` raises RecursionError (not a ValueError) on a deeply nested file: the pre-check leaves it to the
    full machinery, which refuses (the review of the merge found it answered a warn: the call went through)."""
    wave.start(AGENT, "toolu_owner", "docs/**")
    workers = Path(registry_dir(os.path.realpath(repo.main / ".git"))) / "workers.json"
    workers.write_text("[" * 100_000 + "]" * 100_000)
    assert judged_alone(wave, "docs/a.md")[0] == {"WG701"}  # as any registry that cannot be read: the worker owns nothing


def test_a_worker_known_only_by_the_wave_index_is_found_from_outside_every_repository(wave: Wave, tmp_path: Path) -> None:
    """Its call's cwd has no repository (it followed a `cd`): the pre-check asks the wave index by its keys."""
    wave.start(AGENT, "toolu_owner", "docs/**")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    data = payload(elsewhere, "Write", {"file_path": str(wave.repo.main / "src/app.py"), "content": "x\n"}, agent_id=AGENT, agent_type="general-purpose", tool_use_id="toolu_w", **wave.common())
    done = subprocess.run([sys.executable, "-c", PROBE], input=json.dumps(data).encode(), capture_output=True, env=dict(os.environ, WT_GUARD_DAEMON="0"), timeout=120, check=True)
    out = json.loads(done.stdout)

    class Result:
        output = json.loads(out["stdout"]) if out["stdout"] else None

    assert (codes(Result), out["wave"]) == ({"WG701"}, True)
