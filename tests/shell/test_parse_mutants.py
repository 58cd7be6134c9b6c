"""The parse layer's failures, field by field (shell/parse.py), pinned for mutation testing (issue 13, phase 14).

Each test here was written for a mutant of `worktree_guard/shell/parse.py` that the suite let live (docs/testing.md,
"Phase 14"). A ParseFailure's message is WG900's/WG901's text and its `construct` and `budget` choose between them:
each path that raises one says all three. Where the fallback parser has to fail, shfmt is replaced by a stub.
"""

from __future__ import annotations

import pytest

from worktree_guard.shell import fallback
from worktree_guard.shell import parse as parse_module
from worktree_guard.shell.parse import MAX_SOURCE_BYTES, ParseFailure, parse

NESTS = "command nests too deeply (over the parse budget)"


def failure(source, **kwargs) -> tuple[str, str | None, bool]:
    with pytest.raises(ParseFailure) as info:
        parse(source, **kwargs)
    return str(info.value), info.value.construct, info.value.budget


# -- the size budget: UTF-8 bytes, not characters -------------------------------------------------------------


def test_the_size_budget_is_64_kib_of_utf8() -> None:
    assert MAX_SOURCE_BYTES == 65536
    at_limit = "echo " + "a" * (MAX_SOURCE_BYTES - 5)
    assert parse(at_limit).body[0].words[1].value == "a" * (MAX_SOURCE_BYTES - 5)
    assert failure(at_limit + "a") == ("command is over the parse budget of 65536 bytes", None, True)
    # more characters than a quarter of the budget, fewer bytes than the budget: parsed
    two_byte = "echo " + "\u00e9" * 16390
    assert parse(two_byte).body[0].words[1].value == "\u00e9" * 16390
    # fewer characters than the budget, more bytes (4 each): refused
    assert failure("echo " + "\U0001f600" * 20000)[2] is True
    # a lone surrogate (no UTF-8) counts with its 3 bytes and does not break the count
    assert parse("echo " + "\ud800" * 17000).body[0].words[1].value == "\ud800" * 17000
    assert failure("echo " + "\ud800" * 21844) == ("command is over the parse budget of 65536 bytes", None, True)


def test_a_command_that_is_no_string() -> None:
    assert failure(None) == ("command is not a string but NoneType", None, False)
    assert failure(b"ls") == ("command is not a string but bytes", None, False)


def test_the_offset_moves_every_span() -> None:
    assert parse("ls x").body[0].words[1].span == (3, 4)
    assert parse("ls x", offset=10).body[0].words[1].span == (13, 14)
    assert parse("[[ -d x ]]", offset=10).body[0].span[0] == 10  # the fallback's spans too


def test_bashlex_is_loaded_patched_and_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setattr(parse_module, "_bashlex", None)
    script = parse("echo $(ls) x")
    assert script.parser == "bashlex"  # a bashlex that failed to load or to be patched sends it to shfmt
    assert parse_module._bashlex is sys.modules["bashlex"]
    assert parse_module._load_bashlex() is sys.modules["bashlex"]


# -- nesting and internal errors ------------------------------------------------------------------------------


def test_deep_nesting_is_over_the_budget() -> None:
    deep = "echo " + "$(" * 400 + "x" + ")" * 400
    assert failure(deep) == (NESTS, None, True)


def test_a_recursion_error_anywhere_is_over_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    def recurse(*_args, **_kwargs):
        raise RecursionError("deep")

    monkeypatch.setattr(fallback, "parse_with_shfmt", recurse)
    assert failure("[[ -d x ]]") == (NESTS, None, True)  # in the fallback parser
    monkeypatch.setattr(parse_module, "_parse", recurse)
    assert failure("ls") == (NESTS, None, True)  # anywhere else


def test_an_internal_error_is_a_parse_failure_that_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args, **_kwargs):
        raise KeyError("x")

    monkeypatch.setattr(parse_module, "_parse", broken)
    assert failure("ls") == ("internal parser error: KeyError: 'x'", None, False)


# -- when both parsers fail -----------------------------------------------------------------------------------


@pytest.fixture
def shfmt_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def fails(*_args, **_kwargs):
        raise fallback.FallbackError("  1:1: first line\nsecond line")

    monkeypatch.setattr(fallback, "parse_with_shfmt", fails)


@pytest.mark.parametrize(("source", "expected"), [
    ("select x in a; do :; done", ("cannot parse select command: bashlex: NotImplementedError: type = {select command}, "
                                   "token = {select}, parts = {x}; shfmt: 1:1: first line", "select command")),
    ("echo $((1))", ("cannot parse arithmetic expansion: bashlex: NotImplementedError: arithmetic expansion; shfmt: 1:1: "
                     "first line", "arithmetic expansion")),
    ("[[ -d x ]]", ("cannot parse the command: bashlex: ParsingError: unexpected token '-d' (position 3); shfmt: 1:1: "
                    "first line", None)),
    ("echo ${x:-$(git switch main)}", ("cannot parse command substitution inside ${\u2026}: bashlex cannot be trusted "
                                      "here (command substitution inside ${\u2026}); shfmt: 1:1: first line",
                                      "command substitution inside ${\u2026}")),
])
def test_both_parsers_fail(shfmt_fails, source: str, expected: tuple[str, str | None]) -> None:
    assert failure(source) == (*expected, False)


def test_shfmt_over_its_time_is_over_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(*_args, **_kwargs):
        raise fallback.FallbackTimeout("shfmt took over 15.0 s")

    monkeypatch.setattr(fallback, "parse_with_shfmt", slow)
    assert failure("select x in a; do :; done") == (
        "bashlex: NotImplementedError: type = {select command}, token = {select}, parts = {x}; shfmt: shfmt took over 15.0 s",
        "select command", True)
    assert failure("[[ -d x ]]") == (
        "bashlex: ParsingError: unexpected token '-d' (position 3); shfmt: shfmt took over 15.0 s", None, True)


def test_the_real_fallbacks_messages() -> None:
    assert failure("echo 'unterminated") == (
        "cannot parse unterminated quote or substitution: bashlex: MatchedPairError: unexpected EOF while looking for "
        "matching \"'\" (position 18); shfmt: 1:6: reached EOF without closing quote `'`",
        "unterminated quote or substitution", False)
    assert failure("cat <<EOF\nno end") == (
        "cannot parse here-document: bashlex: ParsingError: here-document delimited by end-of-file (wanted 'EOF') "
        "(position 17); shfmt: 1:5: unclosed here-document `EOF`", "here-document", False)


def test_a_first_line_is_stripped_and_at_most_200_characters() -> None:
    assert parse_module._first_line("  a\nb\nc ") == "a"
    assert parse_module._first_line("\n\n  x y \n") == "x y"
    assert parse_module._first_line("z" * 300 + "\nq") == "z" * 200
    assert parse_module._first_line("") == ""


def test_the_construct_named_by_bashlex_errors() -> None:
    construct = parse_module._construct_from_bashlex_error
    assert construct(NotImplementedError("type = {select command}, token = {select}")) == "select command"
    assert construct(NotImplementedError("type = {coproc}")) == "coproc"
    assert construct(NotImplementedError("  arithmetic expansion\nmore")) == "arithmetic expansion"
    assert construct(NotImplementedError("")) is None
    assert construct(NotImplementedError("a matching here-document")) == "a matching here-document"
    assert construct(ValueError("here-document delimited by end-of-file")) == "here-document"
    assert construct(ValueError("looking for matching ')'")) == "unterminated quote or substitution"
    assert construct(ValueError("here-document without matching")) == "here-document"
    assert construct(ValueError("unexpected token")) is None


def test_a_parse_failures_fields() -> None:
    plain = ParseFailure("m")
    assert (str(plain), plain.construct, plain.budget) == ("m", None, False)
    named = ParseFailure("n", construct="c", budget=True)
    assert (str(named), named.construct, named.budget) == ("n", "c", True)
