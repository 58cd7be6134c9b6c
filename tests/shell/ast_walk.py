"""Test helpers: flatten a neutral AST into comparable summaries."""

from __future__ import annotations

from collections.abc import Iterator

from worktree_guard.shell.ast import (
    Command,
    Compound,
    Function,
    Group,
    Node,
    Pipeline,
    Redirect,
    Script,
    Sequence,
    Subshell,
    Word,
)


def iter_nodes(node: Node, *, substitutions: bool = True) -> Iterator[Node]:
    """Every node reachable from `node`, depth first; commands nested in words and heredoc bodies
    are included unless `substitutions` is False."""
    yield node
    if not substitutions:
        yield from _structure(node)
        return
    if isinstance(node, Command):
        for assignment in node.assignments:
            yield from _word_nodes(assignment.value)
        for word in node.words:
            yield from _word_nodes(word)
        for redirect in node.redirects:
            yield from _redirect_nodes(redirect)
        return
    if isinstance(node, Pipeline):
        for stage in node.stages:
            yield from iter_nodes(stage)
    elif isinstance(node, Sequence):
        for part in node.parts:
            yield from iter_nodes(part)
    elif isinstance(node, (Subshell, Group, Function)):
        yield from iter_nodes(node.body)
    elif isinstance(node, Compound):
        for word in node.words:
            yield from _word_nodes(word)
        for body in node.bodies:
            yield from iter_nodes(body)
    for redirect in getattr(node, "redirects", []):
        yield from _redirect_nodes(redirect)


def _structure(node: Node) -> Iterator[Node]:
    children: list[Node] = []
    if isinstance(node, Pipeline):
        children = list(node.stages)
    elif isinstance(node, Sequence):
        children = list(node.parts)
    elif isinstance(node, (Subshell, Group, Function)):
        children = [node.body]
    elif isinstance(node, Compound):
        children = list(node.bodies)
    for child in children:
        yield from iter_nodes(child, substitutions=False)


def _word_nodes(word: Word | None) -> Iterator[Node]:
    if word is not None:
        for sub in word.substitutions:
            yield from iter_nodes(sub)


def _redirect_nodes(redirect: Redirect) -> Iterator[Node]:
    yield from _word_nodes(redirect.target)
    for sub in redirect.heredoc_substitutions:
        yield from iter_nodes(sub)


def commands(script: Script) -> list[Command]:
    return [n for top in script.body for n in iter_nodes(top) if isinstance(n, Command)]


def command_names(script: Script) -> list[str | None]:
    """First word value of every non-empty simple command, in source order."""
    return [c.words[0].value for c in commands(script) if c.words]


def all_words(script: Script) -> list[Word]:
    out: list[Word] = []
    for cmd in commands(script):
        out.extend(a.value for a in cmd.assignments)
        out.extend(cmd.words)
        out.extend(r.target for r in cmd.redirects if r.target is not None)
    return out
