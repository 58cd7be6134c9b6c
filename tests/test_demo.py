"""The README's first command runs the built-in example; every example call must get its expected verdict."""

from __future__ import annotations

import subprocess

from tests.helpers import HOOK_EXE, REPO_ROOT


def test_demo_gets_every_expected_verdict() -> None:
    result = subprocess.run([str(HOOK_EXE), "demo", str(REPO_ROOT / "fixtures" / "demo")], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BAD" not in result.stdout
    assert "14 of 14 calls got the expected verdict" in result.stdout
