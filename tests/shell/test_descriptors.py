"""shell/descriptors.py: the descriptors a command opens on a path for reading, read from its text (stop 36,
review 36b: `cp f /dev/fd/3 3<../../..` copied into the main checkout through the allow-listed /dev/fd/*)."""

from __future__ import annotations

import pytest

from worktree_guard.shell.descriptors import ANY, opened_on_a_path, read_opened


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("cp f /dev/fd/3 3<../../..", {3}),
        ("echo x <f", {0}),
        ("cat< f", {0}),
        ("echo a3<f", {0}),  # a3 is a word; the redirection is stdin's
        ("cmd <>f", {0}),
        ("cmd 12<>f", {12}),
        ("cat <<EOF\nx\nEOF", set()),
        ("cat <<<x", set()),
        ("diff <(ls) x", set()),
        ("x 2>&1", set()),
        ("cmd 3>f", set()),  # a write opens its path itself: judged as written
        ("a 3<&0 < f", {0, 3}),  # a copy of a descriptor opened on a path
        ("4<&3 3<x", {3, 4}),
        (">&3 3<x", {1, 3}),  # `>&3` is stdout's copy
        ("5>&4 4<&3 3<x", {3, 4, 5}),
        ("6>&5 5>&4 4<&3 3<x", {3, 4, 5, 6}),  # copies read until nothing changes
        ("3<&- x", set()),
        ("exec {fd}<x", {ANY}),
        ("a=$((3<4))", {3}),  # arithmetic reads the same: a number too many only refuses a write to it
        # review 36c: digits stuck to a word are the word's (`-1<f`, `x=3<f`, `\\3<f`, `./3<f`, a non-ASCII digit):
        # the redirection is stdin's
        ("echo x -1<R", {0}),
        ("x=3<R cp e /dev/fd/0", {0}),
        ("echo x \\3<R", {0}),
        ("echo x ./3<R", {0}),
        ("echo x \u0663<R", {0}),
        ("head -1<f", {0}),
        ("3<R x=4>&3 cp e /dev/stdout", {1, 3}),  # `x=4` is a word: `>&3` copies into stdout
        ("cp e /dev/fd/3 3\\\n<R", {0, 3}),  # a line continuation (read as written too: a number too many)
        ('echo x 3<R 4<&"3"', {3, 4}),  # a copy of a descriptor quoted, after a blank, or only known at run time
        ("echo x 3<R 4<& 3", {3, 4}),
        ("n=3; 4<&$n 3<R", {3, 4}),
        ("(3<f cmd)", {3}),
        ("cat<f", {0}),
        ("echo >&-", set()),
        ("cat <&3 3<R", {0, 3}),  # a copy with no number is stdin's for `<&`, stdout's for `>&`
        ("exec {v}<&3 3<R", {3, ANY}),  # into an fd variable: any number
        ("echo x {a[0]}<R", {ANY}),  # an array's element as the fd variable (review 37b: bash opened fd 10)
        ("cmd {a[$i]}<&3", set()),
        ("echo ${a}<R", {0}),  # a parameter, then stdin's
        ("echo {1a}<R", {0}),  # no name: a word, then stdin's
        # review 36d: a backquote starts a word; a backslash-newline that is no continuation (`\\\\`, a comment)
        ("echo `3<R cp x /dev/fd/3`", {3}),
        ("echo \\\\\n3<R cp x /dev/fd/3", {0, 3}),
        ("true #\\\n3<R cp x /dev/fd/3", {0, 3}),
    ],
)
def test_read_opened(text: str, expected: set[int]) -> None:
    assert read_opened(text) == expected


@pytest.mark.parametrize(
    ("path", "opened", "expected"),
    [
        ("/dev/fd/3", {3}, True),
        ("/dev/fd/3", {4}, False),
        ("/dev/fd/3", {ANY}, True),
        ("/dev/stdin", {0}, True),
        ("/dev/stdout", {1}, True),
        ("/dev/stderr", {2}, True),
        ("/dev/stderr", {0, 1}, False),
        ("/dev/fd/12", {12}, True),
        ("/dev/fd/1", {1}, True),
        ("/dev/null", {ANY}, False),
        ("/dev/fd/3/x", {3}, False),  # no descriptor itself: judged outside every place already
        ("/dev/fd/3", set(), False),
    ],
)
def test_opened_on_a_path(path: str, opened: set[int], expected: bool) -> None:
    assert opened_on_a_path(path, opened) is expected


def test_opens_and_copies_keep_apart_what_one_string_says() -> None:
    """Review 37: a copy in eval's string (`exec 4<&3`) of a descriptor opened in the outer one (`3<../../..`) was
    followed in neither string. Each string gives its opens and its copies; `with_copies` follows copies across all."""
    from worktree_guard.shell.descriptors import opens_and_copies, with_copies

    assert opens_and_copies("exec 3<R") == ({3}, [])
    assert opens_and_copies("exec 4<&3 5>&4") == (set(), [(4, 3), (5, 4)])
    assert opens_and_copies("echo x") == (set(), [])
    assert opens_and_copies("echo x >&2") == (set(), [(1, 2)])
    assert with_copies({3}, [(4, 3)]) == {3, 4}
    assert with_copies({3}, [(5, 4), (4, 3)]) == {3, 4, 5}  # a chain, in any order
    assert with_copies({3}, [(4, 2)]) == {3}
    assert with_copies(set(), [(4, ANY)]) == {4}  # a source only known at run time
    opened = {3}
    assert with_copies(opened, [(4, 3)]) == {3, 4} and opened == {3}  # the caller's set is not changed
