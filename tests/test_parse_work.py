"""The parser's own regular expressions read each character a bounded number of times (review of issue 12, R1).

`git status # ` and 28 `#` and a backslash-newline (43 bytes) took 21.7 s through the daemon and ended WG000, and
each further `#` doubled it: `(?:[ \\t\\r\\n]+|#[^\\n]*)*` (from_bashlex) and the substitution tails (bashlex_fixes)
split a run of `#` every possible way before failing. That work was counted nowhere: not a walk step, not the
parse budget. The patterns are now possessive, or split by lines, and match exactly the same strings.

"Fast" is shown as a size, not a time: inputs of the parse budget's full size (64 KiB, over 2**65,000 tries for
the old patterns) must be parsed at all. They run in a child process so that a regression fails the test (its
timeout is a guard against a hang, not a measurement).
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys

from tests.helpers import Repo, run_hook_inline, subagent_payload
from worktree_guard.shell import bashlex_fixes, from_bashlex
from worktree_guard.shell.parse import MAX_SOURCE_BYTES

#: The patterns as they were: the reference the new ones must agree with.
BEFORE = {
    "blank rest": (re.compile(r"(?:[ \t\r\n]+|#[^\n]*)*\Z"), from_bashlex._BLANK_REST),
    "substitution tail": (re.compile(r"(?:[ \t\r\n;&]|#[^\n]*)*\)"), bashlex_fixes._SUBSTITUTION_TAIL),
    "backquote tail": (re.compile(r"(?:[ \t\r\n;&]|#[^\n]*)*\Z"), bashlex_fixes._BACKQUOTE_TAIL),
}

REVIEWERS_INPUT = "git status # " + "#" * 28 + "\n\\"


def test_the_patterns_match_the_same_strings_as_before() -> None:
    """Every string of up to five characters over the characters that matter, from two starting points."""
    alphabet = " \n#);x\r&\t"
    checked = 0
    for length in range(6):
        for chars in itertools.product(alphabet, repeat=length):
            text = "".join(chars)
            for name, (old, new) in BEFORE.items():
                for start in {0, min(1, len(text))}:
                    assert (old.match(text, start) is None) == (new.match(text, start) is None), (name, text, start)
                    checked += 1
    assert checked > 390_000


def test_the_reviewers_input_is_judged(repo: Repo) -> None:
    assert len(REVIEWERS_INPUT.encode()) == 43
    result = run_hook_inline(subagent_payload(repo, "Bash", {"command": REVIEWERS_INPUT}))
    assert result.decision == "pass"  # `git status` and a comment


def test_inputs_of_the_full_parse_budget_are_parsed() -> None:
    """Each shape that was exponential, at 64 KiB: the old patterns would not finish in the age of the universe."""
    size = MAX_SOURCE_BYTES - 64
    inputs = {
        "comment then backslash-newline": "git status # " + "#" * size + "\n\\",
        "comment in a substitution": "echo $(true " + "#" * size + "\n\\\n)",
        "comment in backquotes": "echo `true " + "#" * size + "\n\f`",
        "blanks then backslash-newline": "true" + " " * size + "\\\n",
    }
    code = (
        "import json, sys\n"
        "from worktree_guard.shell.parse import parse, ParseFailure\n"
        "out = {}\n"
        "for name, text in json.load(sys.stdin).items():\n"
        "    try:\n"
        "        out[name] = type(parse(text)).__name__\n"
        "    except ParseFailure as e:\n"
        "        out[name] = 'budget' if e.budget else 'failure'\n"
        "print(json.dumps(out))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], input=json.dumps(inputs), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == dict.fromkeys(inputs, "Script")
