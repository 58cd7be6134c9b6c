"""worktree_guard.digest: SHA-256 from the interpreter's built-in module (`_sha2` from 3.12 on, `_sha256` in 3.11),
not hashlib (OpenSSL, ≈ 3 ms a process): the same digests, and a sub-agent's call does not load hashlib.

The modules that used `_sha256` by name (the daemon's key, the parse tables' key) failed to import it on Python
3.12 and later, where it is called `_sha2`.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

from tests.helpers import REPO_ROOT, Repo, subagent_payload
from worktree_guard.digest import sha256
from worktree_guard.subagents.places import registry_dir


def test_the_digests_are_hashlibs() -> None:
    for data in (b"", b"abc", bytes(range(256)) * 1000):
        assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
        incremental = sha256()
        incremental.update(data[:7])
        incremental.update(data[7:])
        assert incremental.digest() == hashlib.sha256(data).digest()
    assert sha256.__module__ in ("_sha2", "_sha256")  # the built-in one, not OpenSSL's


def test_the_wave_registry_keeps_its_directory_names(tmp_path) -> None:
    common = str(tmp_path / "repo" / ".git")
    expected = hashlib.sha256(os.path.realpath(common).encode()).hexdigest()[:32]
    assert registry_dir(common, "/root-of-waves") == f"/root-of-waves/{expected}"


def test_a_subagents_call_after_a_recorded_dispatch_does_not_load_hashlib(repo: Repo) -> None:
    """Once any dispatch was recorded (the waves directory exists), every sub-agent call names its repository's
    wave registry; that used hashlib."""
    waves = os.path.join(os.environ["XDG_STATE_HOME"], "worktree-guard", "waves")
    os.makedirs(waves, mode=0o700)
    data = subagent_payload(repo, "Bash", {"command": "git add -A && git commit -m \"$(cat <<'EOF'\nx\nEOF\n)\""})
    code = f"""
import json, sys
sys.path.insert(0, {str(REPO_ROOT)!r})
from worktree_guard.hook import run_hook
reply = run_hook({json.dumps(json.dumps(data))}.encode(), cwd={str(repo.worktree)!r})
print(json.dumps({{"stdout": reply.stdout, "hashlib": "hashlib" in sys.modules, "_hashlib": "_hashlib" in sys.modules, "places": "worktree_guard.subagents.places" in sys.modules}}))
"""
    result = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p.endswith("site-packages"))})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[-1]) == {"stdout": "", "hashlib": False, "_hashlib": False, "places": True}


def test_the_installed_hooks_call_after_a_recorded_dispatch_runs_no_set_aside_line(repo: Repo) -> None:
    """digest picks its module by version: trying `_sha2` first on 3.11 failed, and a failed import in the hook
    process runs the `.pth` lines site_packages set aside (≈ 4 ms; the editable install's finder)."""
    from tests.test_site_packages import pth_import_modules

    modules = pth_import_modules()
    assert modules, "this environment has no .pth file with an import line: the test would prove nothing"
    os.makedirs(os.path.join(os.environ["XDG_STATE_HOME"], "worktree-guard", "waves"), mode=0o700)
    payload = repo.base / "bash.json"
    payload.write_text(json.dumps(subagent_payload(repo, "Bash", {"command": "git add -A && git commit -m \"$(cat <<'EOF'\nx\nEOF\n)\""})))
    code = f"""
import json, os, sys
sys.argv = ["fast_hook.py"]
sys.path.append({str(REPO_ROOT)!r})
os.dup2(os.open({str(payload)!r}, os.O_RDONLY), 0)
from worktree_guard import hook_process
code = hook_process.main()
print(json.dumps({{"code": code, "loaded": sorted(sys.modules)}}))
"""
    for _ in range(2):  # the first call of a new HOME reads the installed entry points (and so runs the lines)
        result = subprocess.run([sys.executable, "-S", "-P", "-c", code], capture_output=True, text=True, timeout=120, env={**os.environ, "WT_GUARD_DAEMON": "0"}, cwd=repo.worktree)
        assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout.splitlines()[-1])
    assert out["code"] == 0 and "worktree_guard.subagents.places" in out["loaded"]
    assert not (modules & set(out["loaded"])), modules & set(out["loaded"])
    assert "hashlib" not in out["loaded"]
