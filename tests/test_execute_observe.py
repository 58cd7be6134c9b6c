"""The execute-and-observe harness (issue 10): every candidate runs for real, as nobody, in a fresh copy of a real
layout, and what changed in the shared checkouts is compared with the guard's verdict (see tests/observe/harness.py
for the layout, the snapshots and the definitions of escape and false deny).

The default run takes the hand-written rows, the installed wrappers, and a fixed sample of the tldr and NL2Bash
candidates (about 500 commands, 4–6 minutes here); WG_OBSERVE_FULL=1 runs every generated candidate. It needs
root (to drop to nobody and make namespaces), as CI has; elsewhere it is skipped with the reason.
`python -m tests.observe.harness [--full] [--guard-path OTHER_CHECKOUT]` prints the same report, for any guard.
"""

from __future__ import annotations

import os

import pytest

from tests.observe.candidates import all_candidates
from tests.observe.harness import Report, run_all, sandbox_available


@pytest.fixture(scope="module")
def report() -> Report:
    reason = sandbox_available()
    if reason:
        pytest.skip(reason)
    result = run_all(all_candidates(full=os.environ.get("WG_OBSERVE_FULL") == "1"))
    print("\n" + result.table())
    return result


def test_no_escape(report: Report) -> None:
    """No shared checkout changed while the guard let the command through."""
    assert report.listing("escape") == ""


#: Refusals of ordinary commands accepted by decision (docs/decisions.md "Paths"): a glob that matches a symlink into
#: the shared checkout gives an unknown program that link, as its static name would (WG406: stop 38, review 38e's
#: `frob *-main` wrote main through the link `to-main` the layout's W holds); jar only reads it.
ACCEPTED_FALSE_DENIES = frozenset({"jar cf {W}/notes.txt *"})


def test_no_false_deny(report: Report) -> None:
    """No ordinary command that left everything outside W alone was refused with a code that names a place."""
    left = [o for o in report.outcomes if o.kind == "false-deny" and o.candidate.command not in ACCEPTED_FALSE_DENIES]
    assert left == [], report.listing("false-deny")


def test_the_harness_sees_what_changes(report: Report) -> None:
    """The snapshots must be able to fail the tests: the classes left to the leak check really change the main
    checkout (and pass), and most attacks are caught in the act, not refused for doing nothing."""
    leaks = [o for o in report.outcomes if o.candidate.leak_check]
    assert leaks and all(o.changed and o.decision != "deny" for o in leaks), report.listing("pass", "leak-check")
    attacks = [o for o in report.outcomes if o.candidate.source == "hand" and not o.candidate.ordinary and not o.candidate.leak_check]
    assert sum(1 for o in attacks if o.kind == "caught") >= 0.75 * len(attacks), report.listing("refused")


def test_ordinary_work_changes_nothing_shared(report: Report) -> None:
    """The ordinary candidates stay in W and the temp dir for real (else they would not be ordinary)."""
    wrong = [o.candidate.command for o in report.outcomes if o.candidate.ordinary and o.candidate.source == "hand" and o.changed]
    assert wrong == []
