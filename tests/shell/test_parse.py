"""parse(): bashlex's gaps closed, its silent mis-reads caught, the fallback translated."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.shell.ast_walk import all_words, command_names, commands, iter_nodes
from worktree_guard.shell import fallback
from worktree_guard.shell.ast import (
    Command,
    Compound,
    Function,
    Group,
    Pipeline,
    Script,
    Sequence,
    Subshell,
    Word,
)
from worktree_guard.shell.parse import MAX_SOURCE_BYTES, ParseFailure, parse

needs_shfmt = pytest.mark.skipif(fallback.shfmt_path() is None, reason="shfmt-py is not installed")


def words_of(script: Script) -> list[tuple[str, str | None]]:
    return [(w.raw, w.value) for w in all_words(script)]


def only_command(script: Script) -> Command:
    (cmd,) = commands(script)
    return cmd


def assert_spans_match(script: Script, offset: int = 0) -> None:
    """Every word's span points at its raw text."""
    for word in all_words(script):
        start, end = word.span
        assert script.source[start - offset : end - offset] == word.raw, word


# -- empty input, basic structure ----------------------------------------------------------------


@pytest.mark.parametrize("source", ["", "   ", "\n\n", "# a note", "  # a note\n# another\n"])
def test_empty_and_comment_only_input_is_an_empty_script(source: str) -> None:
    script = parse(source)
    assert script.body == []
    assert script.source == source


def test_simple_command() -> None:
    script = parse("git status --short")
    assert script.parser == "bashlex"
    cmd = only_command(script)
    assert [w.value for w in cmd.words] == ["git", "status", "--short"]
    assert_spans_match(script)


def test_sequence_ops_and_background() -> None:
    (seq,) = parse("a && b || c; d").body
    assert isinstance(seq, Sequence)
    assert seq.ops == ["&&", "||", ";"]
    assert [c.words[0].value for c in seq.parts if isinstance(c, Command)] == ["a", "b", "c", "d"]
    (bg,) = parse("cd .. &").body
    assert isinstance(bg, Sequence) and bg.ops == ["&"]
    (trailing,) = parse("cd ..;").body
    assert isinstance(trailing, Command)


def test_lines_are_separate_top_level_nodes() -> None:
    script = parse("a\n# comment\nb #c\n\nc")
    assert command_names(script) == ["a", "b", "c"]
    assert len(script.body) == 3


def test_pipeline_and_negation() -> None:
    (pipe,) = parse("! a | b |& c").body
    assert isinstance(pipe, Pipeline) and pipe.negated
    assert command_names(parse("! a | b |& c")) == ["a", "b", "c"]


def test_assignments_and_redirections() -> None:
    source = "X=1 a[2]=3 b+=4 cmd arg >out 2>&1 <in 3<>rw &>log >|f <<<'str'"
    cmd = only_command(parse(source))
    assert [(a.name, a.value.value, a.append) for a in cmd.assignments] == [
        ("X", "1", False),
        ("a[2]", "3", False),
        ("b", "4", True),
    ]
    assert [w.value for w in cmd.words] == ["cmd", "arg"]
    redirects = [(r.op, r.fd, r.target.value if r.target else None) for r in cmd.redirects]
    assert redirects == [
        (">", None, "out"),
        (">&", 2, "1"),
        ("<", None, "in"),
        ("<>", 3, "rw"),
        ("&>", None, "log"),
        (">|", None, "f"),
        ("<<<", None, "str"),
    ]
    assert [source[r.span[0] : r.span[1]] for r in cmd.redirects][:2] == [">out", "2>&1"]


def test_fd_variable_redirection_is_not_an_argument() -> None:
    cmd = only_command(parse("exec {fd}>/x"))
    assert [w.value for w in cmd.words] == ["exec"]
    assert cmd.redirects[0].target is not None and cmd.redirects[0].target.value == "/x"


def test_subshell_group_function_and_loops() -> None:
    script = parse("(cd /a); { cd /b; }; f() { cd /c; }; for d in x y; do cd $d; done")
    kinds = [type(n).__name__ for n in iter_nodes(script.body[0])]
    assert "Subshell" in kinds and "Group" in kinds and "Function" in kinds and "Compound" in kinds
    (seq,) = script.body
    assert isinstance(seq, Sequence)
    subshell, group, function, loop = seq.parts
    assert isinstance(subshell, Subshell) and isinstance(group, Group)
    assert isinstance(function, Function) and function.name == "f"
    assert isinstance(loop, Compound) and loop.kind == "for" and loop.variable == "d"
    assert [w.value for w in loop.words] == ["x", "y"]


def test_every_elif_branch_is_kept() -> None:
    """bashlex's elif action hid the branches after a second elif."""
    script = parse("if a; then b; elif c; then d; elif e; then f; else git switch main; fi")
    assert command_names(script) == ["a", "b", "c", "d", "e", "f", "git"]
    (compound,) = script.body
    assert isinstance(compound, Compound) and compound.kind == "if" and len(compound.bodies) == 7


def test_spans_with_offset() -> None:
    script = parse("cd /x && ls", offset=100)
    assert [w.span for w in all_words(script)] == [(100, 102), (103, 105), (109, 111)]
    assert_spans_match(script, offset=100)


# -- quoted heredoc delimiters (the commit idiom) --------------------------------------------------

COMMIT = (
    'git add -A && git commit -m "$(cat <<\'EOF\'\n'
    "Fix the parser: $(not a command) `nor this`\n"
    "\n"
    "Co-Authored-By: Someone <x@example.com>\n"
    "EOF\n"
    ')" && git push'
)


def test_commit_message_idiom() -> None:
    script = parse(COMMIT)
    assert script.parser == "bashlex"
    assert command_names(script) == ["git", "git", "cat", "git"]
    commit = commands(script)[1]
    message = commit.words[3]
    assert message.value is None and message.raw.startswith('"$(cat')
    (cat,) = message.substitutions
    assert isinstance(cat, Command)
    (heredoc,) = cat.redirects
    assert heredoc.op == "<<" and heredoc.heredoc_quoted
    assert heredoc.heredoc == (
        "Fix the parser: $(not a command) `nor this`\n\nCo-Authored-By: Someone <x@example.com>\n"
    )
    assert heredoc.heredoc_substitutions == []
    assert COMMIT[heredoc.span[0] : heredoc.span[1]] == "<<'EOF'"


@pytest.mark.parametrize(
    ("op", "delimiter"),
    [("<<", "'EOF'"), ("<<", '"EOF"'), ("<<", "\\EOF"), ("<<", "E'O'F"), ("<<-", "'EOF'")],
)
def test_quoted_heredoc_delimiters(op: str, delimiter: str) -> None:
    tab = "\t" if op == "<<-" else ""
    source = f"cat {op}{delimiter} > out.txt\n{tab}hello $(x)\n{tab}EOF2\n{tab}EOF\necho done"
    script = parse(source)
    assert script.parser == "bashlex"
    assert command_names(script) == ["cat", "echo"]
    heredoc = commands(script)[0].redirects[0]
    assert heredoc.op == op and heredoc.heredoc_quoted
    assert heredoc.heredoc == "hello $(x)\nEOF2\n"


def test_unquoted_heredoc_without_substitution_stays_with_bashlex() -> None:
    script = parse("cat > f <<EOF\nhome is $HOME\nEOF")
    assert script.parser == "bashlex"
    heredoc = commands(script)[0].redirects[1]
    assert not heredoc.heredoc_quoted and heredoc.heredoc == "home is $HOME\n"


def test_heredoc_then_more_commands_on_its_line() -> None:
    script = parse("cat <<'EOF' && cd /etc\nbody\nEOF\nls")
    assert command_names(script) == ["cat", "cd", "ls"]


def test_two_heredocs_on_one_line() -> None:
    script = parse("cat <<A; cat <<'B'\na\nA\nb\nB\necho x")
    assert script.parser == "bashlex"
    assert command_names(script) == ["cat", "cat", "echo"]
    assert [c.redirects[0].heredoc for c in commands(script)[:2]] == ["a\n", "b\n"]


# -- silent mis-reads (research §3.3) --------------------------------------------------------------


@needs_shfmt
@pytest.mark.parametrize(
    "source",
    [
        "cat <<EOF\n$(git switch main)\nEOF",
        "cat <<EOF\n`git switch main`\nEOF",
        "cat > f <<EOF\nnow: ${x:-$(git switch main)}\nEOF",
    ],
)
def test_w3_substitutions_in_unquoted_heredoc_bodies_are_exposed(source: str) -> None:
    script = parse(source)
    heredoc = commands(script)[0].redirects[-1]
    assert not heredoc.heredoc_quoted
    assert [command_names(Script(source, [n])) for n in heredoc.heredoc_substitutions] == [["git"]]
    assert "git" in command_names(script)


def test_w3_quoted_heredoc_body_is_data() -> None:
    script = parse("cat <<'EOF'\n$(git switch main)\nEOF")
    assert command_names(script) == ["cat"]


@needs_shfmt
@pytest.mark.parametrize(
    "source",
    [
        "if true; then cat <<EOF\nEOF\ngit switch main\nEOF\nfi",
        "{ cat <<EOF\nEOF\ngit switch main\nEOF\n}",
        "( cat <<EOF\nEOF\ngit switch main\nEOF\n)",
        "for i in 1; do cat <<EOF\nEOF\ngit switch main\nEOF\ndone",
        "f() {\ncat <<EOF\nEOF\ngit switch main\nEOF\n}",
    ],
)
def test_w4_heredoc_in_compound_cannot_hide_a_command(source: str) -> None:
    script = parse(source)
    assert script.parser == "shfmt"
    assert "git" in command_names(script)
    heredoc = next(r for c in commands(script) for r in c.redirects if r.op == "<<")
    assert heredoc.heredoc == ""


@needs_shfmt
def test_w5_heredoc_body_in_group_is_not_a_command() -> None:
    script = parse("{ cat <<EOF\nhello\nEOF\n}")
    assert command_names(script) == ["cat"]
    assert commands(script)[0].redirects[0].heredoc == "hello\n"


@pytest.mark.parametrize(
    ("source", "index", "value"),
    [("$'\\x63d' /etc", 0, "cd"), ("$'cd' /etc", 0, "cd"), ("cd $'\\x2e\\x2e'", 1, ".."), ('$"cd" ..', 0, None), ("cd $'\\xe9'", 1, None)],
)
def test_w1_ansi_c_words_are_decoded_and_locale_words_are_dynamic(source: str, index: int, value: str | None) -> None:
    """bashlex's own word for `$'\\x63d'` is `$x63d` (W1); the guard decodes `$'…'` from the raw text as bash does
    (review 39e O4), and leaves `$"…"` (a translation) and a byte past ASCII unknown."""
    cmd = only_command(parse(source))
    assert cmd.words[index].value == value


@needs_shfmt
@pytest.mark.parametrize(
    "source",
    [
        "echo ${x:-$(git switch main)}",
        "echo ${x:=`git switch main`}",
        'echo "${x/$(git switch main)/y}"',
        "x=${ git switch main; }",
    ],
)
def test_w2_commands_inside_parameter_expansion_are_exposed(source: str) -> None:
    script = parse(source)
    assert "git" in command_names(script)
    assert all(w.value is None for w in all_words(script) if "$" in w.raw)


def test_w2_process_substitution_inside_parameter_expansion_fails_closed() -> None:
    # bash runs it; bashlex keeps an opaque parameter and mvdan/sh a literal: neither exposes it
    with pytest.raises(ParseFailure):
        parse("echo ${x:-<(git switch main)}")


@needs_shfmt
@pytest.mark.parametrize(
    "source",
    [
        "echo $(true\ngit switch main)",  # bashlex stopped nested parses at the first newline
        "echo `true\ngit switch main`",
        "echo 'a'$(git switch main)'b'",  # bashlex took the word for one single-quoted string
        "echo `echo \\`git switch main\\``",  # nested backquotes
    ],
)
def test_nested_commands_bashlex_would_miss(source: str) -> None:
    assert "git" in command_names(parse(source))


def test_nested_backquotes_get_real_word_values() -> None:
    script = parse("echo `echo \\`git switch main\\``")
    git = next(c for c in commands(script) if c.words[0].value == "git")
    assert [w.value for w in git.words] == ["git", "switch", "main"]


def test_single_quoted_text_is_not_a_command() -> None:
    # bashlex reports `$(echo hi)` inside these single quotes as a command substitution
    script = parse("alias c='$(echo hi)'; PS4='+$(date) ' x")
    assert command_names(script) == ["alias", "x"]
    assert words_of(script)[1] == ("c='$(echo hi)'", "c=$(echo hi)")


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        ("{/etc/x,y}", None),
        ("'{/etc/x,y}'", "{/etc/x,y}"),
        ("*k", None),
        ("'*k'", "*k"),
        ("/e*c", None),
        ("{}", "{}"),
        ("'a'b'c'", "abc"),
        ('"a\\b"', "a\\b"),
        ("c\\\nd", "cd"),
    ],
)
def test_w8_w9_globs_braces_and_quote_removal(raw: str, value: str | None) -> None:
    cmd = only_command(parse(f"touch {raw}"))
    assert (cmd.words[1].raw, cmd.words[1].value) == (raw, value)


def test_tilde_words() -> None:
    cmd = only_command(parse("cp ~ ~/x ~user/y '~'/z X=~/a"))
    assert [(w.value, w.tilde) for w in cmd.words[1:]] == [
        ("", True),
        ("/x", True),
        ("user/y", True),
        ("~/z", False),
        (None, False),  # W10: bash expands a tilde after = in an assignment-looking argument
    ]


def test_w10_tilde_in_assignments() -> None:
    cmd = only_command(parse("X=~/a PATH=x:~/bin cmd"))
    x, path = cmd.assignments
    assert (x.value.value, x.value.tilde) == ("/a", True)
    assert path.value.value is None


def test_quoted_command_names_are_resolved() -> None:
    assert command_names(parse('"c"d ..; \\cd ..; c\'\'d ..; c\\\nd ..')) == ["cd"] * 4


def test_substitutions_are_exposed_everywhere() -> None:
    script = parse("X=$(a) b \"$(c)\" `d` <(e) >(f) > $(g) <<< $(h)")
    assert sorted(n for n in command_names(script) if n) == list("abcdefgh")


# -- bashlex gaps: patched or handed to the fallback ----------------------------------------------


def test_time_keyword() -> None:
    script = parse("time git status | tail")
    assert script.parser == "bashlex"
    (pipe,) = script.body
    assert isinstance(pipe, Pipeline) and command_names(script) == ["git", "tail"]
    assert command_names(parse("time -p make -j2")) == ["make"]


def test_case_statement() -> None:
    script = parse("case $x in a|b) cd /a;; (c) git switch main;& *) ;; esac")
    assert script.parser == "bashlex"
    (case,) = script.body
    assert isinstance(case, Compound) and case.kind == "case"
    assert [w.raw for w in case.words] == ["$x", "a", "b", "c", "*"]
    assert [w.value for w in case.words] == [None, "a", "b", "c", None]
    assert command_names(script) == ["cd", "git"]


def test_case_inside_substitution() -> None:
    assert command_names(parse("echo $(case a in a) git status;; esac)")) == ["echo", "git"]


@needs_shfmt
@pytest.mark.parametrize(
    ("source", "names"),
    [
        ("[[ -d /x ]] && cd /x", ["cd"]),
        ('[[ $(git branch --show-current) == "main" ]] || exit', ["git", "exit"]),
        ("echo $((1 + 2))", ["echo"]),
        ("echo $[1 + 2]", ["echo"]),
        ("echo $(( $(git reset --hard) + 1 ))", ["echo", "git"]),
        ("(( i++ ))", []),
        ("((cd /x))", []),  # W6: arithmetic, not two subshells running cd
        ("for ((i=0; i<$(nproc); i++)); do make; done", ["nproc", "make"]),
        ("a=(1 2) && declare -A m=([k]=v) && a+=(x)", ["declare"]),
        ("echo $(foo;)", ["echo", "foo"]),
        ("echo { }", ["echo"]),
        ("select x in a b; do cd $x; done", ["cd"]),
        ("coproc cd /x", ["cd"]),
        ("time", []),
        ("echo a \\", ["echo"]),
    ],
)
def test_constructs_bashlex_rejects_parse_with_the_fallback(source: str, names: list[str]) -> None:
    script = parse(source)
    assert script.parser == "shfmt"
    assert command_names(script) == names
    assert_spans_match(script)


@needs_shfmt
def test_fallback_compound_shapes() -> None:
    (seq,) = parse("[[ -n $x ]] && (( y = $(z) ))").body
    assert isinstance(seq, Sequence)
    cond, arith = seq.parts
    assert isinstance(cond, Compound) and cond.kind == "cond"
    assert [w.raw for w in cond.words] == ["$x"]
    assert isinstance(arith, Compound) and arith.kind == "arith"
    assert [w.raw for w in arith.words] == ["y", "$(z)"]
    (array,) = parse("a=(1 $(b))").body
    assert isinstance(array, Command)
    assert array.assignments[0].name == "a" and array.assignments[0].value.value is None
    assert command_names(parse("a=(1 $(b))")) == ["b"]


@needs_shfmt
def test_fallback_spans_count_characters_not_bytes() -> None:
    source = "[[ -d /tmp/é ]] && cd 'dossier ü' && echo \"ß\" > /tmp/ñ"
    script = parse(source)
    assert script.parser == "shfmt"
    assert_spans_match(script)
    assert [w.value for w in all_words(script)] == ["cd", "dossier ü", "echo", "ß", "/tmp/ñ"]


@needs_shfmt
def test_fallback_heredocs() -> None:
    source = "[[ x ]] && cat <<-'EOF' >f\n\tliteral $(x)\n\tEOF\ncat <<E\n$(date) `id`\nE"
    script = parse(source)
    assert script.parser == "shfmt"
    first, second = (c.redirects[0] for c in commands(script) if c.words and c.words[0].value == "cat")
    assert first.heredoc_quoted and first.heredoc == "literal $(x)\n" and first.op == "<<-"
    assert not second.heredoc_quoted and second.heredoc == "$(date) `id`\n"
    assert command_names(script) == ["cat", "cat", "date", "id"]


# -- failures ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "construct"),
    [
        ("echo 'unterminated", "unterminated quote or substitution"),
        ("cat <<EOF\nno end", "here-document"),
        ("&& git reset --hard", None),
        ("console.log(x)", None),
    ],
)
def test_invalid_bash_is_a_parse_failure(source: str, construct: str | None) -> None:
    with pytest.raises(ParseFailure) as info:
        parse(source)
    assert info.value.construct == construct
    assert not info.value.budget


def test_over_size_budget() -> None:
    with pytest.raises(ParseFailure, match="budget") as info:
        parse("echo " + "a" * MAX_SOURCE_BYTES)
    assert info.value.budget


def test_over_nesting_budget() -> None:
    deep = "echo " + "$(" * 400 + "x" + ")" * 400
    with pytest.raises(ParseFailure, match="budget") as info:
        parse(deep)
    assert info.value.budget


def test_moderate_nesting_parses() -> None:
    assert command_names(parse("echo " + "$(echo " * 20 + "x" + ")" * 20)) == ["echo"] * 21


def test_not_a_string_is_a_parse_failure() -> None:
    with pytest.raises(ParseFailure):
        parse(None)  # type: ignore[arg-type]


def test_without_shfmt_fallback_constructs_fail_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fallback, "shfmt_path", lambda: None)
    with pytest.raises(ParseFailure, match="shfmt") as info:
        parse("[[ -d x ]]")
    assert "bashlex" in str(info.value)
    with pytest.raises(ParseFailure):
        parse("echo ${x:-$(git switch main)}")  # W2 is never answered with bashlex's tree
    assert command_names(parse("git status")) == ["git"]


def test_bashlex_is_imported_lazily() -> None:
    code = (
        "import sys, worktree_guard.shell.parse as p\n"
        "assert 'bashlex' not in sys.modules\n"
        "p.parse('true')\n"
        "assert 'bashlex' in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_typical_commands_parse_fast() -> None:
    import time

    typical = [
        "git status",
        "cd /repo/wt && git switch -c feature",
        "cd /repo && python -m pytest tests/ -x -q 2>&1 | tail -20",
        COMMIT,
    ]
    for source in typical:
        parse(source)
    for source in typical:
        times = []
        for _ in range(15):
            start = time.perf_counter()
            parse(source)
            times.append(time.perf_counter() - start)
        times.sort()
        median_ms = times[len(times) // 2] * 1000
        # typically 0.1–0.5 ms; the bound leaves room for a loaded CI machine
        assert median_ms < 5, (source, median_ms)


def test_words_are_words() -> None:
    for word in all_words(parse(COMMIT)):
        assert isinstance(word, Word)


@pytest.mark.parametrize(
    ("source", "terminators"),
    [
        ("case a in a) X=1 ;& b) rm ;;& c) d ;; esac", [";&", ";;&", ";;"]),
        ("case a in a) X=1 ;; esac", []),  # all `;;`: nothing to record
        ("case a in a) X=1;; b) ;;& c) d;; esac", []),  # an empty body testing on starts from the entry
        ("case a in (a) X=1 ;&\nb) y\n;;\nesac", [";&", ";;"]),
        ("case a in a) X=1 ;& b) ;;& c) d;; esac", [";;&", ";;"]),  # falls into an empty body that tests on
        ("case a in a) X=1 ;& b) ;& c) d;; esac", [";&", ";;"]),
        ("case a in a) X=1 ;& esac", [";&"]),
    ],
)
def test_case_terminators_from_both_parsers(source: str, terminators: list[str]) -> None:
    """Where bash goes after a case body (`;&` into the next, `;;&` on testing) is read by both back-ends."""
    from worktree_guard.shell import fallback

    for script in (parse(source), fallback.parse_with_shfmt(source, 0)):
        (case,) = script.body
        assert case.kind == "case" and case.terminators == terminators, (script.parser, source)
