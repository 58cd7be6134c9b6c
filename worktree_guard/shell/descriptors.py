"""The descriptors a command opens on a path for reading (`3<../../..`, `< file`, `exec {fd}<x`).

The allow-list holds `/dev/fd/*` and the standard streams as files a command may write: a pipe, a terminal. Opened
by the command on a path, a descriptor is that path: `cp f /dev/fd/3 3<../../..` copies into the directory fd 3 is,
`echo x 3<../../../README >/dev/fd/3` reopens the main checkout's README for writing, `rm -rf /dev/fd/3/` deletes
it (review 36b: each passed). A write opens its path itself (`3>f`: judged as written), so only the reading opens
and the copies of them (`4<&3`) count. Read from the command's text, every string the walker parses, quotes and
arithmetic included: a number too many only refuses a write to that descriptor.
"""

from __future__ import annotations

import re

#: Where a descriptor number may stand: at a word's start (the digits of `-1<f`, `x=3<f`, `\3<f` belong to the word,
#: and the redirection is stdin's); a backquote starts a command, so a word.
_WORD_START = r"(?:^|(?<=[\s;&|()`]))"
#: A redirection that opens a descriptor on a path for reading: `N<`, `N<>` (not `<<`, `<&`, `<(`), or an fd variable
#: (`{fd}<`, and an array's element, `{a[0]}<`: review 37b, bash 5.2 opened fd 10 where the guard read stdin).
_READ_OPEN = re.compile(r"(?:" + _WORD_START + r"(?:([0-9]+)|(\{[A-Za-z_][^\s{}<>]*\})))?(?<![<>])<(?![<&(])")
#: A copy of a descriptor: `N<&M`, `N>&M`; M after blanks, quoted or only known at run time is any descriptor.
_COPY = re.compile(r"(?:" + _WORD_START + r"(?:([0-9]+)|(\{[A-Za-z_][^\s{}<>]*\})))?(?<![<>&])([<>])&(?!-)[ \t]*([^\s;&|()<>]*)")
#: Every descriptor: an fd variable's number is only known at run time.
ANY = -1
#: Where the shell rules keep the numbers for the call (`Context.extra`).
READ_DESCRIPTORS = "read_descriptors"


def read_opened(text: str) -> set[int]:
    """The descriptor numbers `text` may open on a path for reading (ANY: any of them)."""
    opened, copies = opens_and_copies(text)
    return with_copies(opened, copies)


def opens_and_copies(text: str) -> tuple[set[int], list[tuple[int, int]]]:
    """The numbers `text` opens on a path for reading, and its copies (target, source; ANY: any of them)."""
    if "<" not in text and ">&" not in text:
        return set(), []  # every string the walker parses comes here: no redirection that opens or copies one
    # the text as written and with its line continuations joined (`3\` and `<f`): a `\\` or a comment before the
    # newline is no continuation (review 36d), and reading both never misses one
    texts = (text, text.replace("\\\n", ""))
    opened = {_number(m.group(1), m.group(2), 0) for t in texts for m in _READ_OPEN.finditer(t)}
    copies = dict.fromkeys((_number(m.group(1), m.group(2), 0 if m.group(3) == "<" else 1), int(m.group(4)) if m.group(4).isascii() and m.group(4).isdigit() else ANY)
                           for t in texts for m in _COPY.finditer(t))
    return opened, list(copies)


def with_copies(opened: set[int], copies: list[tuple[int, int]]) -> set[int]:
    """`opened` and every descriptor copied from one of them, through chains of copies (`4<&3`, then `5<&4`)."""
    opened = set(opened)
    changed = True
    while changed and ANY not in opened:
        changed = False
        for target, source in copies:
            if (source in opened or source == ANY) and target not in opened:
                opened.add(target)
                changed = True
    return opened


def _number(digits: str | None, variable: str | None, default: int) -> int:
    if variable is not None:
        return ANY
    return int(digits) if digits else default


def opened_on_a_path(path: str, opened: set[int]) -> bool:
    """`path` (as `paths.real` keeps it) is a descriptor in `opened`: one the command opens on a path for reading."""
    from ..paths import descriptor

    if not opened or not descriptor(path):
        return False
    name = path.rpartition("/")[2]
    number = {"stdin": 0, "stdout": 1, "stderr": 2}.get(name)
    return ANY in opened or (int(name) if number is None else number) in opened
