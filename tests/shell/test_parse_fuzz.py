"""Property: whatever the input, parse() returns a Script or raises ParseFailure, nothing else."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.shell.ast_walk import all_words
from worktree_guard.shell.ast import Script
from worktree_guard.shell.parse import ParseFailure, parse

FRAGMENTS = [
    "cd", "git", "switch", "main", "echo", "cat", "/tmp", "..", "~", "~/x", "a=b", "X=~/a", "é", "日本",
    "'", '"', "'q q'", '"d $x"', "\\", "\\\n", "$", "$x", "${x:-y}", "${x:-$(", "$(", "$((", "$[", ")",
    "))", "`", "(", "{", "}", "[[", "]]", "[", "]", "*", "?", "{a,b}", "$'\\x63d'", '$"t"',
    ";", ";;", "&&", "||", "|", "|&", "&", "!", ">", ">>", "<", "2>&1", ">&-", "<>", "&>", "<<<",
    "<<EOF", "<<'EOF'", "<<-X", "EOF", "X", "\tX", "<(", ">(", "#", "# c",
    "if", "then", "elif", "else", "fi", "for", "in", "do", "done", "while", "case", "esac",
    "time", "function", "f()", "select", "coproc", "\n", "\r", " ", "\t",
]

commands = st.lists(
    st.tuples(st.sampled_from(FRAGMENTS), st.sampled_from(["", " ", " ", "\n"])),
    max_size=25,
).map(lambda parts: "".join(a + b for a, b in parts))


def check(source: str) -> None:
    try:
        script = parse(source)
    except ParseFailure:
        return
    assert isinstance(script, Script)
    if script.parser == "bashlex" or "`" not in source:  # spans in re-parsed backquotes are approximate
        for word in all_words(script):
            assert source[word.span[0] : word.span[1]] == word.raw, (source, word)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commands)
def test_parse_returns_a_script_or_a_parse_failure(source: str) -> None:
    check(source)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=60))
def test_arbitrary_text(source: str) -> None:
    check(source)
