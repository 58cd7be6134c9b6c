"""One walk over a parsed command in execution order, carrying the simulated shell state (SPEC §5.2).

The walker knows shell semantics — scopes, subshells, functions, what `cd` and assignments do to the
state — and nothing of policy: at every simple command and redirection it asks the shell rules (pluggy
hooks) for violations, and asks the indirection rules what a wrapper runs inside it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from . import ast
from .builtins import apply_builtin
from .state import ShellState
from .steps import Inner, ShellCommand, ShellRedirect, Unwrapped, brace_expanded, glob_values, word_value

#: How deep strings may nest (`bash -c "eval '…'"`) and functions may call each other.
MAX_DEPTH = 8
#: Most values a `for` list may have to be walked value by value.
MAX_FOR_ITEMS = 32
#: Work budget for analysing one command (WG901 past it): the steps of the walk (every node visited and
#: every simple command judged, loops and function calls counted each time they are walked), and the
#: characters of shell code parsed (strings run by `bash -c`, `eval`, a shell's heredoc, each time). It counts
#: work, not seconds, so that a verdict is a pure function of the command and the filesystem, whatever the
#: machine's load; the wall-clock watchdog of the hook process is only the last resort (docs/performance.md).
#: The largest of the 35,359 corpus commands (shared/realdata) takes 1,003 steps (a function of 1,000 commands).
MAX_WALK_STEPS = 10_000
MAX_PARSED_CHARS = 4 * 64 * 1024  # four times the largest command parse.py accepts
#: Path components of a command's cwd that count as one more step of its judgement.
COMPONENTS_PER_STEP = 8


class BudgetExceeded(Exception):
    """The command nests deeper or takes longer to analyse than the budget allows (WG901)."""


@dataclass(slots=True)
class Hooks:
    """What the walker asks at each step: the shell rules, the indirection rules, and the parser for strings."""

    on_command: Callable[[ShellCommand], list]
    on_redirect: Callable[[ShellRedirect], list]
    unwrap: Callable[[ShellCommand], Unwrapped | None]
    parse: Callable[[str, int], ast.Script]
    on_parse_failure: Callable[[Exception, int, int, str], list]


@dataclass
class Walker:
    hooks: Hooks
    home: str
    steps: int = 0
    parsed_chars: int = 0
    findings: list = field(default_factory=list)
    trace: list[tuple[str, str | None, tuple[int, int]]] = field(default_factory=list)
    _called: set[str] = field(default_factory=set)
    _defined: dict[str, tuple[ast.Function, ShellState]] = field(default_factory=dict)

    # -- entry points --------------------------------------------------------------------------

    def walk_script(self, script: ast.Script, state: ShellState, depth: int = 0) -> None:
        for node in script.body:
            self.visit(node, state, depth)
        if depth == 0:
            # A function defined but never called here may still run (an alias, a later call): analyse it once.
            for name, (function, at_definition) in list(self._defined.items()):
                if name not in self._called:
                    self._called.add(name)
                    self.visit(function.body, at_definition.copy(), depth + 1)

    # -- nodes ---------------------------------------------------------------------------------

    def visit(self, node: ast.Node, state: ShellState, depth: int, persistent: bool = True) -> None:
        self._check_budget(depth)
        if isinstance(node, ast.Command):
            self.command(node, state, depth, persistent)
        elif isinstance(node, ast.Sequence):
            for part, op in zip(node.parts, node.ops + [";"] * (len(node.parts) - len(node.ops))):
                if op == "&":
                    self.visit(part, state.copy(), depth, persistent=False)
                else:
                    self.visit(part, state, depth, persistent)
        elif isinstance(node, ast.Pipeline):
            last = len(node.stages) - 1
            for i, stage in enumerate(node.stages):
                if i == last and state.lastpipe and len(node.stages) > 1:
                    self.visit(stage, state, depth, persistent)
                else:
                    self.visit(stage, state.copy() if len(node.stages) > 1 else state, depth, persistent and len(node.stages) == 1)
        elif isinstance(node, ast.Subshell):
            inner = state.copy()
            self.redirects(node.redirects, inner, None)
            self.visit(node.body, inner, depth, persistent=False)
        elif isinstance(node, ast.Group):
            self.redirects(node.redirects, state, None)
            self.visit(node.body, state, depth, persistent)
        elif isinstance(node, ast.Compound):
            self.compound(node, state, depth, persistent)
        elif isinstance(node, ast.Function):
            state.functions[node.name] = node
            self._defined.setdefault(node.name, (node, state.copy()))

    def compound(self, node: ast.Compound, state: ShellState, depth: int, persistent: bool) -> None:
        for word in node.words:
            self.substitutions(word.substitutions, state, depth)
        self.redirects(node.redirects, state, None)
        if node.variable:
            state.assign(node.variable, None)  # the loop variable takes values we do not follow…
        if not node.bodies:
            return
        entry = state.copy()
        items = self.for_items(node, state) if node.kind == "for" and node.variable else None
        if items is not None:
            # …unless the list is short and known (`for f in *.py a b`): one walk per value, in order.
            for item in items:
                state.assign(node.variable, item)  # type: ignore[arg-type]
                for body in node.bodies:
                    self.visit(body, state, depth, persistent)
            state.assign(node.variable, items[-1])  # type: ignore[arg-type]
            return
        if node.kind in ("while", "until", "for", "select", "arith_for"):
            # A loop body may run zero, one or many times: walk it twice, then keep only what all agree on.
            for _ in range(2):
                for body in node.bodies:
                    self.visit(body, state, depth, persistent)
            state.merge([entry])
            return
        # if / case / [[ ]] / (( )): each body may or may not run.
        outcomes = []
        for body in node.bodies:
            branch = entry.copy()
            self.visit(body, branch, depth, persistent)
            outcomes.append(branch)
        # Any body may be skipped (a false condition, no matching case): the entry state is an outcome too.
        first, rest = outcomes[0], outcomes[1:]
        first.merge(rest + [entry])
        _assign(state, first)

    def for_items(self, node: ast.Compound, state: ShellState) -> list[str] | None:
        """The values a `for` loop takes when every word is static or a glob in its last component, at most
        MAX_FOR_ITEMS of them; None otherwise (the loop variable is then unknown)."""
        items: list[str] = []
        for word in brace_expanded(node.words, state):
            value = word_value(word, state, self.home)
            if value is not None:
                items.append(value)
                continue
            matches = glob_values(word, state)
            if matches is None:
                return None
            base = (state.cwd or "") + "/"
            relative = not word.raw.startswith(("/", "~", "$"))
            items.extend(m[len(base):] if relative and m.startswith(base) else m for m in matches)
            if len(items) > MAX_FOR_ITEMS:
                return None
        return items if 0 < len(items) <= MAX_FOR_ITEMS else None

    def command(self, node: ast.Command, state: ShellState, depth: int, persistent: bool) -> None:
        # Expansions run first, each in a subshell of its own: their cd never leaks out.
        for assignment in node.assignments:
            self.substitutions(assignment.value.substitutions, state, depth)
        for word in node.words:
            self.substitutions(word.substitutions, state, depth)
        for redirect in node.redirects:
            if redirect.target is not None:
                self.substitutions(redirect.target.substitutions, state, depth)
            self.substitutions(redirect.heredoc_substitutions, state, depth)
        # Judging a command resolves paths from its cwd, component by component: a cwd made deep by a long
        # chain of `cd` costs that much more, and the budget counts it (COMPONENTS_PER_STEP).
        self.steps += (state.cwd or "").count("/") // COMPONENTS_PER_STEP
        step = ShellCommand(
            node=node,
            words=brace_expanded(node.words, state),
            assignments=list(node.assignments),
            cwd=state.cwd,
            state=state,
            home=self.home,
            depth=depth,
            persistent=persistent,
        )
        self.redirects(node.redirects, state, step)
        if not node.words:
            apply_builtin(step)  # bare assignments change the state
            return
        self.simple(step, depth)

    def simple(self, step: ShellCommand, depth: int) -> None:
        self._check_budget(depth)
        self.trace.append(("command", step.cwd, step.span))
        name = step.name
        # `command git` and `builtin cd` skip functions of that name (a `git() { command git …; }` wrapper).
        bypass = bool(step.via) and step.via[-1] in ("command", "builtin")
        function = step.state.functions.get(name) if name and step.words[0].value == name and not bypass else None
        # What a wrapper runs is known before the command is judged, so the rules can tell its own words apart.
        step.unwrapped = self.hooks.unwrap(step) if function is None else None
        self.findings.extend(self.hooks.on_command(step) or [])
        if function is not None:
            if depth + 1 > MAX_DEPTH:
                raise BudgetExceeded(f"functions call each other deeper than {MAX_DEPTH} levels")
            self._called.add(name)
            self.visit(function.body, step.state, depth + 1, step.persistent)
            return
        unwrapped = step.unwrapped
        if unwrapped is not None:
            for inner in unwrapped.inner:
                self.inner(step, inner, depth)
            for script in unwrapped.scripts:
                self.string(script.source, script.offset, step.state, script.cwd, depth + 1, script.same_shell)
        apply_builtin(step)

    def inner(self, outer: ShellCommand, inner: Inner, depth: int) -> None:
        if not inner.words:
            return
        # `command cd`, `builtin cd` run in this shell; every other wrapper starts a child process.
        state = outer.state if inner.same_shell else outer.state.copy()
        state.cwd = inner.cwd if not inner.same_shell else state.cwd
        step = ShellCommand(
            node=outer.node,
            words=inner.words,
            assignments=outer.assignments + inner.assignments,
            cwd=inner.cwd,
            state=state,
            home=self.home,
            depth=depth + 1,
            via=outer.via + ((inner.label,) if inner.label else ()),
            persistent=outer.persistent and inner.same_shell,
        )
        if depth + 1 > MAX_DEPTH:
            raise BudgetExceeded(f"commands wrap each other deeper than {MAX_DEPTH} levels")
        self.simple(step, depth + 1)

    def string(self, source: str, offset: int, state: ShellState, cwd: str | None, depth: int, same_shell: bool = False) -> None:
        """Shell code held in a string (`bash -c`, `eval`, a heredoc fed to a shell): parsed and walked.

        `eval`, `source` and `trap` run it in this shell (its cd persists); `bash -c` in a child."""
        if depth > MAX_DEPTH:
            raise BudgetExceeded(f"shell code nests deeper than {MAX_DEPTH} levels")
        self.parsed_chars += len(source)
        if self.parsed_chars > MAX_PARSED_CHARS:
            raise BudgetExceeded(f"the command makes worktree-guard parse more than {MAX_PARSED_CHARS} characters of shell code")
        try:
            script = self.hooks.parse(source, offset)
        except Exception as error:  # noqa: BLE001 — the parser's own failure type is the caller's business
            self.findings.extend(self.hooks.on_parse_failure(error, offset, offset + len(source), source) or [])
            return
        if same_shell:
            self.walk_script(script, state, depth)
            return
        inner = state.copy()
        inner.cwd = cwd
        self.walk_script(script, inner, depth)

    # -- pieces --------------------------------------------------------------------------------

    def substitutions(self, nodes: list[ast.Node], state: ShellState, depth: int) -> None:
        for node in nodes:
            self.visit(node, state.copy(), depth, persistent=False)

    def redirects(self, redirects: list[ast.Redirect], state: ShellState, step: ShellCommand | None) -> None:
        for redirect in redirects:
            event = ShellRedirect(redirect=redirect, cwd=state.cwd, state=state, home=self.home, command=step)
            self.trace.append(("redirect", state.cwd, redirect.span))
            self.findings.extend(self.hooks.on_redirect(event) or [])

    def _check_budget(self, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise BudgetExceeded(f"the command nests deeper than {MAX_DEPTH} levels")
        self.steps += 1
        if self.steps > MAX_WALK_STEPS:
            raise BudgetExceeded(f"analysing the command takes more than {MAX_WALK_STEPS} steps")


def _assign(target: ShellState, source: ShellState) -> None:
    target.cwd, target.oldpwd, target.dirstack = source.cwd, source.oldpwd, source.dirstack
    target.variables, target.exported, target.functions = source.variables, source.exported, source.functions
    target.lastpipe, target.unset, target.options = source.lastpipe, source.unset, source.options
