"""Static word values: unit cases, and a differential check against real bash."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from worktree_guard.shell.words import has_unquoted_expansion, remove_quotes, split_fields, word_value


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("plain", "plain"),
        ("'a'b'c'", "abc"),  # bashlex keeps the inner quotes: a'b'c
        ('"a\\b"', "a\\b"),  # bashlex drops the backslash
        ('"a\\"b"', 'a"b'),
        ('"a\\$b"', "a$b"),
        ("a\\ b", "a b"),
        ("c\\\nd", "cd"),  # line continuation inside a word
        ("a\"'b'\"", "a'b'"),
        ("'$HOME'", "$HOME"),
        ("\\$HOME", "$HOME"),
        ("''", ""),
        ("{}", "{}"),
        ("HEAD@{1}", "HEAD@{1}"),
        ("[", "["),
        ("'*k'", "*k"),
        ("'{/etc/x,y}'", "{/etc/x,y}"),
        ("\\*", "*"),
        ("a=b", "a=b"),
        ("ｃd", "ｃd"),
        ("/tmp\r", "/tmp\r"),
    ],
)
def test_static_words(raw: str, value: str) -> None:
    assert word_value(raw) == (value, False)


@pytest.mark.parametrize(
    "raw",
    [
        "$HOME",
        '"$HOME"',
        "${x}",
        "$(pwd)",
        "`pwd`",
        "$'\\xe9'",  # W1: ANSI-C quoting is decoded, but not a byte past ASCII
        "$'\\u00e9'",  # nor a character past ASCII (its bytes depend on the locale)
        "$'unclosed",
        '$"cd"',
        "*k",
        "/e*c",
        "a?",
        "a[12]",
        "{/etc/x,y}",  # W8
        "{1..3}",
        "!(foo)",
        "<(x)",
        "a=~/x",  # W10: tilde after = in an assignment-looking word
        "x:~/bin",
        "trailing\\",
        "'unclosed",
        '"unclosed',
    ],
)
def test_dynamic_words(raw: str) -> None:
    assert word_value(raw)[0] is None


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("~", ""),
        ("~/x", "/x"),
        ("~user/x", "user/x"),
        ("~+/x", "+/x"),
        ("~-", "-"),
        ("~/'a b'", "/a b"),
    ],
)
def test_tilde_words(raw: str, value: str) -> None:
    assert word_value(raw) == (value, True)


def test_tilde_with_dynamic_rest_and_quoted_tilde() -> None:
    assert word_value("~/$x") == (None, True)
    assert word_value("'~'/x") == ("~/x", False)
    assert word_value("~'user'/x") == ("~user/x", False)  # a quoted tilde-prefix is not expanded
    assert word_value("\\~") == ("~", False)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("EOF", ("EOF", False)),
        ("'EOF'", ("EOF", True)),
        ('"EOF"', ("EOF", True)),
        ("\\EOF", ("EOF", True)),
        ("E'O'F", ("EOF", True)),
        ("$EOF", ("$EOF", False)),
        ("$'EOF'", None),
    ],
)
def test_heredoc_delimiter_quote_removal(raw: str, expected: tuple[str, bool] | None) -> None:
    assert remove_quotes(raw) == expected


# -- differential check against bash -------------------------------------------------------------

_FRAGMENTS = st.sampled_from(
    [
        "a", "b", "/", ".", "-", "=", ":", "~", "é", " ", "\t", "\n", "'", '"', "\\", "\\\n",
        "'x y'", '"x y"', "'\\'", '"\\\\"', '"\\a"', '"\\$"', "*", "?", "[", "]", "{", "}", ",",
        "..", "{a,b}", "$", "$x", "`", "#", "!", "%", "^", "@", "$'x y'", "$'\\x2f'", "$'\\''",
    ]
)

_BASH = shutil.which("bash")


def _bash_fields(word: str, home: str, cwd: str, variables: dict[str, str] | None = None) -> list[str] | None:
    """The fields bash makes of `word` (failglob on, in an empty directory), or None on error."""
    script = "shopt -s failglob\nprintf '%s\\0' " + word + "\n"
    proc = subprocess.run(
        [_BASH, "--norc", "--noprofile", "-c", script],
        capture_output=True,
        cwd=cwd,
        env={"HOME": home, "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", **(variables or {})},
        timeout=10,
    )
    if proc.returncode != 0:
        return None
    return proc.stdout.decode("utf-8", "surrogateescape").split("\0")[:-1]


#: What can make bash expand, split, comment out or continue a word: word_value may call a word holding one of
#: these dynamic even when bash happens to give it one fixed value (a cautious verdict, at worst a false deny).
_MAY_EXPAND = frozenset("$`*?[]{}~!#\\ \t\n")


def _assert_dynamic_is_justified(word: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """A word word_value calls dynamic: bash gives it different fields in two environments, or rejects or splits
    it, or it holds a character that may expand. A plain word (`ab`, `'x y'`, `a=b:c`) is never dynamic."""
    plain_dir = tmp_path_factory.mktemp("empty")
    busy_dir = tmp_path_factory.mktemp("busy")
    for name in ("a", "b", "ab", "a b", "x", "-", "é", "a,b"):
        (busy_dir / name).touch()
    first = _bash_fields(word, "/home/tester", str(plain_dir))
    second = _bash_fields(word, "/home/other", str(busy_dir), {"x": "v w"})
    if first is not None and first == second and len(first) == 1:
        assert set(word) & _MAY_EXPAND, f"{word!r}: word_value calls it dynamic, bash always gives {first[0]!r}"


@pytest.mark.skipif(_BASH is None, reason="bash is not installed")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_FRAGMENTS, min_size=1, max_size=6).map("".join))
@example("~\\\n")  # a line continuation inside the tilde-prefix: found by this test, once
@example("\\\n#")  # a line continuation before a comment: found by this test, once
@example("\\\n~")  # … and before a tilde
@example("$\\\na")  # a line continuation after a `$`: found by this test, once (stop 28)
def test_static_values_agree_with_bash(tmp_path_factory: pytest.TempPathFactory, word: str) -> None:
    """Whenever word_value calls a word static, bash must turn it into exactly that one field."""
    value, tilde = word_value(word)
    if value is None:
        _assert_dynamic_is_justified(word, tmp_path_factory)
        return
    home = "/home/tester"
    fields = _bash_fields(word, home, str(tmp_path_factory.mktemp("empty")))
    if fields is None or len(fields) != 1:
        # not one word for bash (unquoted blank, syntax error, glob): word_value must not have
        # called a word static that bash splits, expands or rejects
        pytest.fail(f"{word!r}: word_value says {value!r}, bash gives {fields!r}")
    expected = fields[0]
    if tilde:
        if value == "" or value.startswith("/"):
            assert expected == home + value, word
        return
    assert expected == value, word


# -- `$'…'`, decoded as bash 5.2 decodes it (review 39e O4) ----------------------------------------------------

@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("$'/m/README.md'", "/m/README.md"),
        ("$'\\x2fm'", "/m"),
        ("$'\\x2Fm'", "/m"),
        ("$'\\x2e\\x2e'", ".."),
        ("$'\\057m'", "/m"),  # octal, three digits at most
        ("$'\\0571'", "/1"),
        ("$'\\57'", "/"),
        ("$'\\u002fm'", "/m"),
        ("$'\\U0000002fm'", "/m"),
        ("$'\\x{2f}m'", "/m"),  # ksh93's form: every hex digit, then its `}`
        ("$'\\x{002f}m'", "/m"),
        ("$'\\x{2f'", "/"),
        ("$'\\x2fx{'", "/x{"),
        ("$'\\x'", "\\x"),  # no hex digit: the backslash stays
        ("$'\\xg'", "\\xg"),
        ("$'\\u'", "\\u"),
        ("$'\\q'", "\\q"),
        ("$'\\c'", "\\c"),
        ("$'\\cA\\ca\\c?'", "\x01\x01\x7f"),
        ("$'\\c\\\\x'", "\x1cx"),  # `\c\\`: both backslashes are read
        ("$'a\\0b'c", "ac"),  # a NUL ends the string's text
        ("$'a\\x00b'c", "ac"),
        ("$'a\\400b'c", "ac"),  # `\400` is one byte: NUL
        ("$'a\\c@b'c", "ac"),
        ("$'\\'x'", "'x"),
        ("$'\\\\'", "\\"),
        ("$'\\\"\\?\\e\\E'", '"?\x1b\x1b'),
        ("$'a b'", "a b"),
        ("$'*'", "*"),  # quoted: no glob
        ("$'$x'", "$x"),
        ("x$'/m'\"/y\"", "x/m/y"),
        ('"$\'x\'"', "$'x'"),  # in double quotes `$'` is two plain characters
        ("$'\\x7f'", "\x7f"),
        ("$'\\xff'", None),  # a byte past ASCII: no character on its own
        ("$'\\351'", None),
        ("$'\\u00e9'", None),  # its bytes depend on the locale
        ("$'\\ce\\u0080'", None),
        ("$'\\cé'", None),
        ("$'\\c\x7f'", None),  # bash 5.2 gives ^A DEL: its lexer quotes the DEL with a ^A, which `\c` reads (m40c)
        ("$'\\c\x01'", None),
        ("$'/m", None),  # not closed
        ("$'/m\\'", None),
        ("$'/m'$x", None),
        # phase 25 (m40c): each checked with bash 5.2 (`printf %s WORD`)
        ("$'\\x{041}m'", "Am"),  # `\x{…}` reads every hex digit, an odd number too
        ("$'a\\x{g}'b", "ab"),  # `\x{` with no hex digit: NUL, which ends the text
        ("$'a\\x{}b'c", "ac"),
        ("$'\\x2m'", "\x02m"),  # `\x` with one hex digit
        ("$'\\u041m'", "Am"),  # `\u` with three
        ("$'\\61x'", "1x"),  # octal, two digits
        ("$'\\qa'", "\\qa"),  # an unknown escape keeps its backslash, and the text after it is read on
        ("$'a\\0b\\0c'd", "ad"),  # the first NUL ends the text
    ],
)
def test_ansi_c_words_are_decoded(raw: str, value: str | None) -> None:
    assert word_value(raw)[0] == value


_ANSI_C_FRAGMENTS = st.sampled_from(
    [
        "a", "/", ".", "é", " ", "*", "$x", '"', "\\'", "\\\\", "\\n", "\\t", "\\e", "\\E", "\\a", "\\b", "\\f", "\\v",
        "\\r", "\\?", '\\"', "\\q", "\\x", "\\x2", "\\x2f", "\\x2F", "\\xg", "\\x7f", "\\x80", "\\x00", "\\0", "\\00",
        "\\000", "\\0000", "\\1", "\\101", "\\1012", "\\400", "\\8", "\\u", "\\u41", "\\u0041", "\\u00e9", "\\U",
        "\\U0000002f", "\\uz", "\\c", "\\ca", "\\c?", "\\c@", "\\c\\\\", "\\c\\", "\\x{41}", "\\x{", "\\x{}", "}", "\\\n",
        "\n",
    ]
)


@pytest.mark.skipif(_BASH is None, reason="bash is not installed")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["", "x", "'q'", '"/d"']), st.lists(_ANSI_C_FRAGMENTS, max_size=6).map("".join), st.sampled_from(["", "y", "'z'", "/r"]))
@example("", "\\x{a,b}", "")  # found by its first run: `\x{` skips only a `}` right after its digits
@example("", "\\c\\\\x", "")
@example("", "a\\0b", "c")
def test_ansi_c_values_agree_with_bash(tmp_path_factory: pytest.TempPathFactory, before: str, body: str, after: str) -> None:
    """Whenever word_value decodes a `$'…'` word, bash makes exactly that one field of it."""
    word = f"{before}$'{body}'{after}"
    value = word_value(word)[0]
    if value is None:
        return
    fields = _bash_fields(word, "/home/tester", str(tmp_path_factory.mktemp("empty")), {"x": "v"})
    assert fields == [value], word


# -- word splitting of known values ----------------------------------------------------------------

_SPLIT_FRAGMENTS = st.sampled_from(
    ["a", "b", "-", "=", "/", "'", '"', "''", '""', "'x y'", '"x y"', "\\ ", "\\", "$", "$x", "${x}", "$y", '"$x"', "'$x'",
     "${x:-d e}", "${z:-d e}", "${z-}", "$'q r'", "~", "*"]
)
_SPLIT_VALUES = st.sampled_from(["", " ", "a b", " a  b ", "a\tb", "a\nb", "ab", "-f /m", "a*", "x=y z"])


@pytest.mark.skipif(_BASH is None, reason="bash is not installed")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_SPLIT_FRAGMENTS, min_size=1, max_size=5).map("".join), _SPLIT_VALUES, _SPLIT_VALUES)
@example("$x", " a  b ", "")
@example("a$x$y", "", "")  # a word of empty expansions after a literal: one field
@example('""$x', "", "")  # a quoted empty string makes a field
@example("$x$y", "", "")  # no field at all
@example("$x$", " ", "")  # found by this test: a lone `$` keeps bash from splitting the word
def test_split_fields_agree_with_bash(tmp_path_factory: pytest.TempPathFactory, word: str, x: str, y: str) -> None:
    """Whenever split_fields gives a word's fields, bash (IFS unset) makes exactly those fields of it."""
    known = {"x": x, "y": y}
    fields = split_fields(word, known.get)
    if fields is None:
        return
    cwd = str(tmp_path_factory.mktemp("busy"))
    for name in ("a", "ab", "b"):
        open(f"{cwd}/{name}", "w").close()
    # a first word of its own: printf with no argument left would still print one empty field
    made = _bash_fields("first " + word, "/home/tester", cwd, known)
    assert made is not None and made[0] == "first", word
    assert fields == made[1:], word


@pytest.mark.parametrize(
    ("raw", "fields"),
    [
        ("$x", ["rm", "-f", "a"]),
        ("${x}", ["rm", "-f", "a"]),
        ("a$x", ["arm", "-f", "a"]),
        ("$e", []),  # an empty unquoted expansion is no field
        ('""$e', [""]),
        ("$e$e", []),
        ("$x", ["rm", "-f", "a"]),
        ("--o=$x", ["--o=rm", "-f", "a"]),
        # splitting changes nothing, or the word is not read: None
        ("$k", None),  # one field: word_value reads it
        ('"$x"', None),
        ("$u", None),  # unknown
        ("$g", None),  # pathname expansion would follow
        ("a*$x", None),
        ("~/$x", None),
        ('${u:-"a b"}', None),  # a quoted default: not told apart
        ("$(cmd)$x", None),
        ("$x$", None),  # bash 5.2 splits no part of a word holding an unquoted `$` that starts nothing
        ("$x$/", None),
    ],
)
def test_split_fields(raw: str, fields: list[str] | None) -> None:
    known = {"x": "rm -f a", "e": "", "k": "ab", "g": "a *"}
    assert split_fields(raw, known.get) == fields


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("$X", True), ("${X}", True), ("a$X", True), ("$(cmd)", True), ("`cmd`", True), ('"$X"', False),
     ("'$X'", False), ("\\$X", False), ("$'echo'", False), ('$"echo"', False), ("$'a\\'$X'", False),
     ("$'a'$X", True), ('"a"$X', True), ('"$X"$Y', True), ("x", False)],
)
def test_has_unquoted_expansion(raw: str, expected: bool) -> None:
    assert has_unquoted_expansion(raw) is expected


def test_a_value_with_more_fields_than_the_cap_stays_unknown() -> None:
    """MAX_SPLIT_FIELDS: up to 256 fields are split; one more (found at the end, or while splitting) is unknown."""
    from worktree_guard.shell.words import MAX_SPLIT_FIELDS

    def fields(n: int, trailing: str = "") -> list[str] | None:
        return split_fields("$x", {"x": " ".join(["a"] * n) + trailing}.get)

    assert fields(MAX_SPLIT_FIELDS) == ["a"] * MAX_SPLIT_FIELDS
    assert fields(MAX_SPLIT_FIELDS + 1) is None  # the last field is over the cap
    assert fields(MAX_SPLIT_FIELDS, " ") == ["a"] * MAX_SPLIT_FIELDS  # a trailing blank makes no field
    assert fields(MAX_SPLIT_FIELDS + 1, " ") is None  # over the cap while splitting
    assert fields(MAX_SPLIT_FIELDS + 2) is None


def test_a_command_with_more_words_than_the_cap_is_not_split() -> None:
    """MAX_WORDS_SPLIT: a command of up to 1,024 words has its unquoted expansions split; a longer one keeps them
    as words only known at run time."""
    from worktree_guard.shell.ast import Word
    from worktree_guard.shell.state import ShellState
    from worktree_guard.shell.steps import MAX_WORDS_SPLIT, field_split

    state = ShellState(cwd="/w", variables={"X": "a b"})
    def split(n: int) -> list:
        items = [Word(raw="$X", span=(0, 2), value=None)] * n
        return [w.value for w in field_split(items, state)]

    assert split(MAX_WORDS_SPLIT) == ["a", "b"] * MAX_WORDS_SPLIT
    assert split(MAX_WORDS_SPLIT + 1) == [None] * (MAX_WORDS_SPLIT + 1)
