"""parse() over the real command corpora in shared/realdata (select with `-m corpus`).

Every command must give a Script or a ParseFailure, never another exception and never a hang.
The ParseFailure rate of each corpus is printed (run with -s to see it) and bounded where the
corpus is ordinary shell. Where bashlex parsed a command, the neutral AST is checked against a
walk of bashlex's own nodes, and a sample is checked against the fallback parser: every command
mvdan/sh finds must also be found (seeing more is harmless, seeing less is an escape).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from tests.shared_data import CORPORA, Hang, bash_rejects, load, time_limit
from tests.shell.ast_walk import command_names, commands, iter_nodes
from worktree_guard.shell import fallback
from worktree_guard.shell.ast import Command, Script
from worktree_guard.shell.parse import ParseFailure, _load_bashlex, parse
from worktree_guard.shell.words import ASSIGNMENT_PREFIX

pytestmark = pytest.mark.corpus

#: Largest ParseFailure rate (%) allowed per corpus. parable is a parser test suite full of
#: deliberately odd bash (and some invalid bash); its rate is reported, not bounded.
MAX_FAILURE_PERCENT = {"dippy": 1.0, "nl2bash": 1.0, "cc-safe-setup": 1.0, "safety-net": 1.0, "owg": 1.0}
#: safety-net's edge-case tests feed deliberately broken commands (unterminated quotes, a leading
#: `&&`/`|`); those (the ones bash itself rejects) are left out of its rate.
DELIBERATELY_BROKEN_SOURCE = "tests/core/analyze/edge-cases.test.ts"
#: Seconds any one command may take before it counts as a hang.
MAX_SECONDS_PER_COMMAND = 10
#: Every Nth command bashlex parsed is also parsed by the fallback and compared.
SHFMT_SAMPLE_EVERY = 25


@pytest.mark.parametrize("name", list(CORPORA))
def test_corpus(name: str) -> None:
    records = load(name)
    bashlex = _load_bashlex()
    failures: list[dict[str, str]] = []
    parsers: Counter[str] = Counter()
    sampled = 0
    started = time.perf_counter()
    for index, record in enumerate(records):
        source = record["cmd"]
        try:
            with time_limit(MAX_SECONDS_PER_COMMAND):
                script = parse(source)
        except ParseFailure:
            failures.append(record)
            continue
        except Hang:
            pytest.fail(f"parse() hung on {source!r}")
        parsers[script.parser] += 1
        if script.parser == "bashlex":
            check_against_bashlex_nodes(bashlex, script)
            if index % SHFMT_SAMPLE_EVERY == 0 and fallback.shfmt_path() is not None:
                sampled += 1
                check_against_fallback(script)
    elapsed = time.perf_counter() - started

    excluded = 0
    if name == "safety-net":
        broken = [
            r for r in failures if r.get("src", "").endswith(DELIBERATELY_BROKEN_SOURCE) and bash_rejects(r["cmd"])
        ]
        excluded = len(broken)
        failures = [r for r in failures if r not in broken]
    total = len(records) - excluded
    rate = 100 * len(failures) / total
    print(
        f"\n{name}: {len(records)} commands, {dict(parsers)}, ParseFailure {len(failures)} "
        f"({rate:.2f} %), {excluded} deliberately broken left out, {sampled} compared with shfmt, "
        f"{elapsed:.1f} s"
    )
    for record in failures[:10]:
        print(f"   fails: {record['cmd']!r:.100}")
    if name in MAX_FAILURE_PERCENT:
        assert rate < MAX_FAILURE_PERCENT[name], [r["cmd"] for r in failures]


# -- cross-checks ---------------------------------------------------------------------------------


def bashlex_trees(bashlex: Any, source: str) -> list[Any]:
    """bashlex's own top-level nodes for `source` (the patched parser, no translation)."""
    trees = []
    index = 0
    while index < len(source):
        tree = bashlex.parser._parser(source[index:]).parse()
        if not isinstance(tree, bashlex.ast.node):
            break
        if index:
            bashlex.ast.posshifter(index).visit(tree)
        trees.append(tree)
        ends = [tree.pos[1]] + [n.pos[1] for n in bashlex_nodes(tree, True) if n.kind == "heredoc"]
        index = max(ends) + 1
    return trees


def bashlex_nodes(node: Any, substitutions: bool) -> Iterator[Any]:
    yield node
    if not substitutions and node.kind in ("commandsubstitution", "processsubstitution"):
        return
    values = [node.body] if node.kind == "function" else node.__dict__.values()  # body is in parts too
    for value in values:
        for child in value if isinstance(value, list) else [value]:
            if hasattr(child, "kind"):
                yield from bashlex_nodes(child, substitutions)


def bashlex_first_word(source: str, command: Any) -> str | None:
    """The source text of a bashlex command node's name, skipping what the translation skips:
    leading assignments and `{fd}` words glued to a redirection."""
    parts = command.parts
    for i, part in enumerate(parts):
        if part.kind not in ("word", "assignment"):
            continue
        raw = source[part.pos[0] : part.pos[1]]
        following = parts[i + 1] if i + 1 < len(parts) else None
        glued = following is not None and following.kind == "redirect" and following.pos[0] == part.pos[1]
        if glued and re.fullmatch(r"\{[A-Za-z_][A-Za-z0-9_]*\}", raw):
            continue
        if ASSIGNMENT_PREFIX.match(raw):
            continue  # still before the name, so an assignment
        return raw
    return None


def check_against_bashlex_nodes(bashlex: Any, script: Script) -> None:
    source = script.source
    trees = bashlex_trees(bashlex, source)
    assert len(trees) == len(script.body), source
    # commands outside substitutions: same number, same names, same order
    theirs = [
        bashlex_first_word(source, n)
        for tree in trees
        for n in bashlex_nodes(tree, substitutions=False)
        if n.kind == "command"
    ]
    ours = [
        (n.words[0].raw if n.words else None)
        for top in script.body
        for n in iter_nodes(top, substitutions=False)
        if isinstance(n, Command)
    ]
    assert ours == theirs, source
    # commands inside substitutions: ours are among bashlex's (we drop those it invents inside
    # single quotes)
    all_theirs = Counter(
        bashlex_first_word(source, n) for tree in trees for n in bashlex_nodes(tree, True) if n.kind == "command"
    )
    all_ours = Counter(c.words[0].raw if c.words else None for c in commands(script))
    assert not all_ours - all_theirs, source
    # a static name without quotes or escapes is its own text
    for cmd in commands(script):
        if cmd.words and cmd.words[0].value is not None and not set("'\"\\") & set(cmd.words[0].raw):
            assert cmd.words[0].value == cmd.words[0].raw.lstrip("~") or cmd.words[0].tilde, source


def check_against_fallback(script: Script) -> None:
    try:
        other = fallback.parse_with_shfmt(script.source)
    except fallback.FallbackError:
        return  # mvdan/sh rejects a few things bash and bashlex accept
    ours = Counter(n for n in command_names(script) if n is not None)
    theirs = Counter(n for n in command_names(other) if n is not None)
    missing = theirs - ours
    assert not missing, (script.source, missing)
