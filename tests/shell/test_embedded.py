"""The sed, awk and ed scanners of shell/embedded.py: they find what the code writes and runs, and they always
end. A scanner that loops is a hook that never answers (the hook's watchdog then refuses every call)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.shared_data import Hang, time_limit
from worktree_guard.shell.embedded import Embedded, _awk_program, _ed_script, _sed_script

SED_ALPHABET = "swWeyaicrRbtT{}!;:/\\|,$0123456789 \n\tIMpgdqxhHnN=\"'~+"
AWK_ALPHABET = 'printfsystemgetline|>"(){};$ab\n/\\#=&+-*<~!,[]0123456789 '


def _scan(function, text: str) -> Embedded:
    found = Embedded()
    try:
        with time_limit(2.0):
            function(text, 0, found, "x") if function is not _ed_script else function(text, found, "x")
    except Hang:
        raise AssertionError(f"the scanner did not end on {text!r}") from None
    return found


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=SED_ALPHABET, max_size=40))
def test_the_sed_scanner_always_ends(text: str) -> None:
    _scan(_sed_script, text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=AWK_ALPHABET, max_size=60))
def test_the_awk_scanner_always_ends(text: str) -> None:
    _scan(_awk_program, text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="wWqaic.!eEr /x\n0123456789,$g", max_size=40))
def test_the_ed_scanner_always_ends(text: str) -> None:
    _scan(_ed_script, text)


def test_sed_script_at_its_end() -> None:
    """`"" in " \\t"` is True in Python: the scanner once looped forever on a script ending after an address."""
    for text in ("1", "1,", "$!", "/x/", "1,3 !", "y", "s", "l 5", "q"):
        _scan(_sed_script, text)


def test_what_the_scanners_find() -> None:
    found = _scan(_sed_script, "s/a/b/w /tmp/x\n/y/W out\n1e touch z\ns/q/r/e")
    assert [t.value for t in found.writes] == ["/tmp/x", "out"]
    assert [c for c, _ in found.commands] == ["touch z"]
    assert found.opaque and "s///e" in found.opaque[0]
    found = _scan(_awk_program, '{ if ($1 > 2) print $0 > "f" } END { system("date"); "ls" | getline x; print | "sort" }')
    assert [t.value for t in found.writes] == ["f"]
    assert [c for c, _ in found.commands] == ["date", "ls", "sort"]
    found = _scan(_ed_script, "1a\nw /not/a/write\n.\nw /tmp/y\n!touch z\nq")
    assert [t.value for t in found.writes] == ["/tmp/y"]
    assert [c for c, _ in found.commands] == ["touch z"]
