"""One walk over a parsed command in execution order, carrying the simulated shell state (SPEC §5.2).

The walker knows shell semantics — scopes, subshells, functions, what `cd` and assignments do to the
state — and nothing of policy: at every simple command and redirection it asks the shell rules (pluggy
hooks) for violations, and asks the indirection rules what a wrapper runs inside it.
"""

from __future__ import annotations

from collections.abc import Callable

from ..fast_dataclass import fast_dataclass, field
from . import ast, evaluated
from .builtins import DECLARING_BUILTINS, DIRECTORY_BUILTINS, READING_BUILTINS, SET_NAMES, SHOPT_ON, apply_builtin, forget_positional
from .state import BudgetExceeded, ShellState, record_lost_code
from .words import assigned_by_expansion, has_code
from .steps import Inner, Script, ShellCommand, ShellRedirect, Unwrapped, brace_expanded, field_split, glob_values, word_value, written_matches

#: How deep strings may nest (`bash -c "eval '…'"`) and functions may call each other.
MAX_DEPTH = 8
#: Most values a `for` list may have to be walked value by value.
MAX_FOR_ITEMS = 32
#: Most rounds a loop body is walked to find the states it may start a round in (every state change a round
#: makes turns a known value unknown, so the rounds end; past this many, one more round from a widened shell).
MAX_LOOP_ROUNDS = 8
#: Different states a shell with a trap set passes through that its traps are walked in, each on its own; the
#: states past these are merged into the last one (what they agree on).
MAX_TRAP_STATES = 8
#: The kinds of Compound that repeat their bodies.
LOOPS = ("while", "until", "for", "select", "arith_for")
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

__all__ = ["BudgetExceeded", "Hooks", "Walker"]


#: Declaration builtins, after which a prefix assignment stays in bash too (`U=1 export U`).
KEEPS_PREFIX = frozenset({"export", "readonly", "declare", "typeset", "local"})
#: Builtins after which a prefix assignment may stay (`U=x export U`; in POSIX mode every special builtin: `U=x :`).
PREFIX_MAY_STAY = frozenset({
    "export", "readonly", "declare", "typeset", "local", ":", ".", "source", "break", "continue", "eval", "exec",
    "exit", "return", "set", "shift", "times", "trap", "unset",
})


@fast_dataclass(slots=True)
class Hooks:
    """What the walker asks at each step: the shell rules, the indirection rules, and the parser for strings."""

    on_command: Callable[[ShellCommand], list]
    on_redirect: Callable[[ShellRedirect], list]
    unwrap: Callable[[ShellCommand], Unwrapped | None]
    parse: Callable[[str, int], ast.Script]
    on_parse_failure: Callable[[Exception, int, int, str], list]
    #: Code bash runs while expanding (`${x@P}`, `${!x}`, a subscript) whose text is only known at run time.
    on_unknown_code: Callable[[evaluated.Evaluated], list]


@fast_dataclass
class Walker:
    hooks: Hooks
    home: str
    steps: int = 0
    parsed_chars: int = 0
    findings: list = field(default_factory=list)
    trace: list[tuple[str, str | None, tuple[int, int]]] = field(default_factory=list)
    _called: set[str] = field(default_factory=set)
    _defined: dict[str, tuple[ast.Function, ShellState]] = field(default_factory=dict)
    _active: set[tuple] = field(default_factory=set)
    #: Every trap set, with the state object of the shell that set it (which holds that shell's last state once
    #: the walk is done) and the names of trap's own prefixes.
    _traps: list[tuple[Script, ShellState, tuple[str, ...]]] = field(default_factory=list)
    #: The loops being walked, innermost last: the states `break` and `continue` leave each one with.
    _loops: list[_Jumps] = field(default_factory=list)
    #: The function calls being walked, innermost last: the states `return` leaves each one with.
    _returns: list[list[ShellState]] = field(default_factory=list)
    #: The states an `exit` ends a shell in: an EXIT trap of that shell runs with them too.
    _exits: list[ShellState] = field(default_factory=list)
    #: Per shell with a trap set: the states it passed through since, each different one (by `_same_state`) up to
    #: MAX_TRAP_STATES, the rest merged into the last. A trap may run at any of them (`set -e` and a failing
    #: command, `${x:?}`, a signal sent by a background `kill $$`).
    _since_trap: dict[int, list[ShellState]] = field(default_factory=dict)
    #: Child shells made so far (`_child`), to tell them apart.
    _shells: int = 0

    # -- entry points --------------------------------------------------------------------------

    def walk_script(self, script: ast.Script, state: ShellState, depth: int = 0) -> None:
        for node in script.body:
            self.visit(node, state, depth)
        if depth == 0:
            # A function defined but never called here may still run (an alias, a later call): analyse it once.
            # Its states are not ones the shell passed through: no trap is walked in them (review 25b: a helper
            # defined before `tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT` made the trap WG403).
            since, self._since_trap = self._since_trap, {}
            for name, (function, at_definition) in list(self._defined.items()):
                if name not in self._called:
                    self._called.add(name)
                    alone = at_definition.copy()
                    alone.local_frames = [set()]  # its `local` declarations are its own
                    self.visit(function.body, alone, depth + 1)
            self._since_trap = {**self._since_trap, **since}
            # A trap's code runs again with the state its shell ends in (EXIT; a signal at the last command). Its
            # code may set another trap, or run a program that walks code setting this one again (an alias whose
            # code sets a trap running git, review 22b): the same code in the same state is walked once.
            done = 0
            seen: set[tuple] = set()
            # An `exit` ends the shell where it is, in another state than the end's: the trap runs with those too.
            while done < len(self._traps):
                script, state, prefixed = self._traps[done]
                done += 1
                endings = [state]
                exits = [e for e in self._exits if e.shell == state.shell]
                if exits:  # walked once, with what they all agree on (review 24a: one walk each went over the budget)
                    merged = exits[0].copy()
                    merged.merge(exits[1:])
                    endings.append(merged)
                if state.shell in self._since_trap:  # the shell may end anywhere after the trap was set
                    endings.extend(self._since_trap[state.shell])
                for ending in endings:
                    key = (*_state_key(script.source, ending), prefixed)
                    if key in seen:
                        continue
                    seen.add(key)
                    self._walk_trap(script, ending.copy(), prefixed, depth)

    # -- nodes ---------------------------------------------------------------------------------

    def visit(self, node: ast.Node, state: ShellState, depth: int) -> None:
        self._check_budget(depth)
        if isinstance(node, ast.Command):
            self.command(node, state, depth)
        elif isinstance(node, ast.Sequence):
            self.sequence(node, state, depth)
        elif isinstance(node, ast.Pipeline):
            if node.negated:
                # `! PIPELINE` succeeds where the pipeline failed: a cd in it may have stayed where it was (review 26a:
                # `! cd nonexist/a/b && rm -f ../../../x` was judged from nonexist/a/b)
                before = _directory(state)
                self.visit(ast.Pipeline(span=node.span, stages=node.stages), state, depth)
                _may_have_stayed(state, before)
                return
            last = len(node.stages) - 1
            for i, stage in enumerate(node.stages):
                if i == last and state.lastpipe is None and len(node.stages) > 1:
                    # lastpipe may be on or off: the last stage's changes may or may not stay (review 23b)
                    before = state.copy()
                    self.visit(stage, state, depth)
                    state.merge([before])
                elif i == last and state.lastpipe and len(node.stages) > 1:
                    self.visit(stage, state, depth)
                else:
                    self.visit(stage, self._child(state) if len(node.stages) > 1 else state, depth)
        elif isinstance(node, ast.Subshell):
            inner = self._child(state)
            self.redirects(node.redirects, inner)
            self.visit(node.body, inner, depth)
        elif isinstance(node, ast.Group):
            self.redirects(node.redirects, state)
            self.visit(node.body, state, depth)
        elif isinstance(node, ast.Compound):
            self.compound(node, state, depth)
        elif isinstance(node, ast.Function):
            state.functions[node.name] = node
            self._defined.setdefault(node.name, (node, state.copy()))

    def sequence(self, node: ast.Sequence, state: ShellState, depth: int) -> None:
        """Lists: `a && b || c` is one and-or list, ended by `;`, a newline or `&`. `&` runs the whole and-or list in
        the background (`X=/tmp/safe && true &` left X set in the shell: review 23a)."""
        ops = node.ops + [";"] * (len(node.parts) - len(node.ops))
        start = 0
        for i, op in enumerate(ops):
            if op in ("&&", "||"):
                continue
            parts, joins, start = node.parts[start : i + 1], ops[start:i], i + 1
            if op == "&":
                self.and_or(parts, joins, self._child(state), depth)
            else:
                self.and_or(parts, joins, state, depth)

    def and_or(self, parts: list[ast.Node], joins: list[str], state: ShellState, depth: int) -> None:
        """An and-or list: the first command runs; a command after `&&` runs only where the list so far succeeded,
        after `||` only where it failed. Every state the list may stop in is kept with the status it stops with;
        a command runs from what the states that reach it agree on, and the shell goes on with what all of them
        agree on (`X=<main>/x; false && X=/tmp/safe; rm -f "$X"` judged the rm with /tmp/safe: review 23a).
        `cd src && make && cd .. && rm x` still judges the rm from the directory the last `cd` went to. A `cd`
        that fails stays where it was: where the list goes on after a failure, the directory before the command is
        kept too; and a cd that may be refused (`ShellState.cd_may_fail`: its target is not a directory yet, or was
        written to) and ends the list leaves the shell in either directory."""
        before = _directory(state)
        previous = parts[0]
        state.cd_may_fail = False
        self.visit(parts[0], state, depth)
        stopped: list[tuple[ShellState, bool]] = []  # (a state the list may be in, whether it succeeded there)
        for part, join in zip(parts[1:], joins):
            runs_after_success = join == "&&"
            reaching = [other for other, succeeded in stopped if succeeded == runs_after_success]
            stopped = [(other, succeeded) for other, succeeded in stopped if succeeded != runs_after_success]
            # A cd that fails stays where it was, whatever its target: a program the walk does not follow may have
            # removed it first (review 26a: `git clean -fdq src; cd src/a || rm ../../../x`).
            if not _leaves(previous, state):  # `exit`/`return` stop nowhere: the shell is gone (review 25b: `cd src || exit`)
                ended = state.copy()  # the command before may end either way
                if runs_after_success:
                    _may_have_stayed(ended, before)  # it failed: a cd that fails stays (review 25b: `cd a && cd b; rm ../x`)
                stopped.append((ended, not runs_after_success))
            if not runs_after_success:
                # after `||` the command before failed: a cd that fails stays where it was (`cd src || cd ..`
                # goes to W's parent), so the directory is the one before it or the one after
                _may_have_stayed(state, before)
            state.merge(reaching)
            before = _directory(state)
            previous = part
            state.cd_may_fail = False
            self.visit(part, state, depth)
        if state.cd_may_fail:
            # the list ends in a cd that may be refused (`cd nonexist/a/b; rm -f ../../../x`): the shell goes on
            # from the directory it went to or the one it was in
            _may_have_stayed(state, before)
            state.cd_may_fail = False
        if _leaves(previous, state) and stopped:
            first = stopped[0][0]
            first.merge([other for other, _ in stopped[1:]])
            _assign(state, first)  # the list goes on only where it did not reach the `exit`
        else:
            state.merge([other for other, _ in stopped])

    def compound(self, node: ast.Compound, state: ShellState, depth: int) -> None:
        for word in node.words:
            self.substitutions(word.substitutions, state, depth)
        self.evaluations(evaluated.in_compound(node, state), state, depth)
        if node.kind in ("arith", "arith_for"):
            # `((X++))`: the back-end gives the expression's operands, not its operators; any variable named in
            # it may be assigned (an over-approximation that only makes it unknown).
            for word in node.words:
                for name in {word.raw} | assigned_by_expansion(word.raw, arithmetic=True):
                    if name.isidentifier():
                        state.assign(name, None)
        else:
            _expansion_assignments([w.raw for w in node.words], state)
        self.redirects(node.redirects, state)
        if node.variable:
            state.assign(node.variable, None)  # the loop variable takes values we do not follow…
        if not node.bodies:
            return
        entry = state.copy()
        if node.kind in LOOPS:
            self.loop(node, state, depth)
            return
        if node.kind == "if":
            self.if_branches(node, state, depth)
            return
        # case / [[ ]] / (( )): each body may or may not run. In a `case`, a body after `;&` may also start where
        # the body before it ended, and any body after `;;&` where that one ended (bash goes on testing patterns):
        # such a body is walked a second time, from what those states agree on (review 24: `;&` let `X=<main>/x`
        # reach a body walked only with X=/tmp/safe). Two walks a body at most, however the bodies chain.
        outcomes = []
        traps_before = len(self._traps)
        terminators = node.terminators
        falls: ShellState | None = None
        resumes: list[ShellState] = []
        for i, body in enumerate(node.bodies):
            branch = entry.copy()
            self.visit(body, branch, depth)
            outcomes.append(branch)
            end = branch
            others = ([falls] if falls is not None else []) + resumes
            if others:
                carried = others[0].copy()
                carried.merge(others[1:])
                self.visit(body, carried, depth)
                outcomes.append(carried)
                end = branch.copy()
                end.merge([carried])
            op = terminators[i] if i < len(terminators) else ";;"
            falls = end if op == ";&" else None
            if op == ";;&":
                resumes.append(end)
        # Any body may be skipped (a false condition, no matching case): the entry state is an outcome too.
        first, rest = outcomes[0], outcomes[1:]
        first.merge(rest + [entry])
        _assign(state, first)
        self._rebind_traps(traps_before, outcomes, state)

    def if_branches(self, node: ast.Compound, state: ShellState, depth: int) -> None:
        """`if C1; then B1; elif C2; then B2; else B3; fi` (bodies [C1, B1, C2, B2, B3]): the conditions run in
        order until one succeeds, each in the state the ones before left; a branch starts from its condition's
        state (`X=/tmp/safe; if X=<main>/x; then rm -f "$X"; fi` judged the rm with /tmp/safe: review 23a). The
        shell goes on with what every branch, and the last condition when no `else` runs, agree on."""
        outcomes: list[ShellState] = []
        traps_before = len(self._traps)
        bodies = node.bodies
        i = 0
        while i + 1 < len(bodies):
            before = _directory(state)
            self.visit(bodies[i], state, depth)
            branch = state.copy()
            self.visit(bodies[i + 1], branch, depth)
            outcomes.append(branch)
            # the next condition, or the else, runs where this one failed: a cd in it may have stayed where it was
            # (review 26a: `if cd nonexist/a/b; then :; else rm -f ../../../x; fi` was judged from nonexist/a/b)
            _may_have_stayed(state, before)
            i += 2
        if i < len(bodies):
            branch = state.copy()
            self.visit(bodies[i], branch, depth)
            outcomes.append(branch)
        else:
            outcomes.append(state.copy())
        first, rest = outcomes[0], outcomes[1:]
        first.merge(rest)
        _assign(state, first)
        self._rebind_traps(traps_before, outcomes, state)

    def loop(self, node: ast.Compound, state: ShellState, depth: int) -> None:
        """A loop's rounds. `while C; do B; done` (bodies [C, B]) ends after a C that fails, `for` before a round;
        `break` ends it anywhere, `continue` starts the next round. A round may start in the state the loop started
        in or in any state a round ended in: the rounds are walked until that set of states stops growing (two
        rounds kept `X=/tmp/a; Y=/tmp/b; while c; do rm -rf "$Y"; Y=$X; X=<main>; done` known: review 23a). The shell
        goes on with what every way out agrees on."""
        items = self.for_items(node, state) if node.kind == "for" and node.variable else None
        traps_before = len(self._traps)
        jumps = _Jumps()
        self._loops.append(jumps)
        try:
            if items is not None:
                # …unless the list is short and known (`for f in *.py a b`): one walk per value, in order.
                for item in items:
                    state.assign(node.variable, item)  # type: ignore[arg-type]
                    for body in node.bodies:
                        self.visit(body, state, depth)
                    state.merge(jumps.continues)
                    jumps.continues = []
                state.assign(node.variable, items[-1])  # type: ignore[arg-type]
                state.merge(jumps.breaks)
                return
            exits: list[ShellState] = []
            rounds: list[ShellState] = []
            start = state.copy()
            written = len(set(state.written))
            while True:
                round_state = start.copy()
                rounds.append(round_state)
                if node.variable:
                    round_state.assign(node.variable, None)  # each round takes another value of the list…
                if node.kind == "select":
                    round_state.assign("REPLY", None)  # …and `select` reads REPLY (review 24a)
                bodies = node.bodies
                if node.kind in ("while", "until") and len(bodies) > 1:
                    self.visit(bodies[0], round_state, depth)
                    bodies = bodies[1:]
                exits.append(round_state.copy())
                for body in bodies:
                    self.visit(body, round_state, depth)
                round_state.merge(jumps.continues)
                jumps.continues = []
                following = start.copy()
                following.merge([round_state])
                if _same_state(following, start) and len(set(state.written)) == written:
                    break
                if len(rounds) > MAX_LOOP_ROUNDS:  # the round from a shell with nothing known is walked: done
                    exits.append(following)
                    break
                written = len(set(state.written))
                if len(rounds) == MAX_LOOP_ROUNDS:
                    # Still changing: a round starts with no variable, directory or parameter known, nor whatever else
                    # still changes, and is walked once more from there (review 24a's chain of eight variables
                    # reached its rm in the ninth round).
                    _widen(following, start)
                start = following
            first = exits[0]
            first.merge(exits[1:] + jumps.breaks)
            _assign(state, first)
            self._rebind_traps(traps_before, rounds, state)
        finally:
            self._loops.pop()

    def _child(self, state: ShellState) -> ShellState:
        """The state a child shell starts with (a subshell, a pipeline stage, `$(…)`, a background list, `bash -c`):
        a copy, marked as another shell, whose `exit` runs only its own traps."""
        child = state.copy()
        self._shells += 1
        child.shell = self._shells
        if state.shell in self._since_trap and state.options & INHERITED_TRAP_OPTIONS:
            # `set -E`, `set -T`, `shopt -s extdebug`: ERR, DEBUG and RETURN traps run in subshells and `$(…)` too,
            # with their state (`X=/tmp/x; set -E; trap 'rm -f "$X"' ERR; (X=<main>/x; false)`): walked there as
            # in this shell. Every trap of the shell is taken, whatever its signal.
            for script, owner, prefixed in list(self._traps):
                if owner.shell == state.shell:
                    self._traps.append((script, child, prefixed))
            self._since_trap[child.shell] = []
            self._may_end_here(child)
        return child

    def _rebind_traps(self, since: int, copies: list[ShellState], state: ShellState) -> None:
        """A trap set in a copy of this shell's state (a branch, a round) is this shell's: it runs with the state the
        shell ends in (`if true; then trap 'git rm …' EXIT; fi; export GIT_DIR=…` passed: review 22b)."""
        for i in range(since, len(self._traps)):  # none set: no work (every if and case comes here)
            script, owner, prefixed = self._traps[i]
            if any(owner is copy for copy in copies):
                self._traps[i] = (script, state, prefixed)

    def jump(self, step: ShellCommand) -> None:
        """`break`, `continue`, `return` and `exit` take the shell elsewhere in the state it is in: to after a loop,
        to a loop's next round, to after a function's call, to its EXIT trap. The walk records that state there and
        goes on as if the jump had not happened (what follows it is walked too: more findings, never fewer)."""
        name, state = step.name, step.state
        if name in ("break", "continue"):
            count = step.value(step.words[1]) if len(step.words) > 1 else "1"
            loops = self._loops
            if count is not None and count.isdigit() and int(count) > 0:
                loops = loops[max(0, len(loops) - int(count)) :][:1]
            for jumps in loops:
                (jumps.breaks if name == "break" else jumps.continues).append(state.copy())
        elif name == "return":
            if self._returns:
                self._returns[-1].append(state.copy())
        elif name == "exit":
            self._exits.append(state.copy())  # for the traps of this shell (ShellState.shell) only

    def for_items(self, node: ast.Compound, state: ShellState) -> list[str] | None:
        """The values a `for` loop takes when every word is static or a glob in its last component, at most
        MAX_FOR_ITEMS of them; None otherwise (the loop variable is then unknown). `"$@"` in a function's body
        stands for the words of its call (`for v in "$@"; do … "${!v}"; done` reads the names it was given)."""
        items: list[str] = []
        for word in field_split(brace_expanded(_positional_expanded(node.words, state), state), state):
            value = word_value(word, state, self.home)
            if value is not None:
                items.append(value)
                continue
            matches = glob_values(word, state)
            made = written_matches(word, state) if matches is not None else None
            if matches is None or made is None:
                return None
            # and the names the command wrote before, which the listing read now does not hold (review 30a)
            matches = sorted(set(matches) | set(made)) if made else matches
            base = (state.cwd or "") + "/"
            relative = not word.raw.startswith(("/", "~", "$"))
            items.extend(m[len(base):] if relative and m.startswith(base) else m for m in matches)
            if len(items) > MAX_FOR_ITEMS:
                return None
        return items if 0 < len(items) <= MAX_FOR_ITEMS else None

    def command(self, node: ast.Command, state: ShellState, depth: int) -> None:
        if state.cwd is None and state.cwds:
            # The shell is in one of a few known directories (`cd src && make && cd ..; touch x`): the command is
            # walked in each, as branches, and the shell goes on with what they agree on.
            outcomes = []
            traps_before = len(self._traps)
            for place in state.cwds:
                branch = state.copy()
                branch.cwd, branch.cwds = place[0], ()
                branch.variables["PWD"] = place[1]
                self._command(node, branch, depth)
                outcomes.append(branch)
            first = outcomes[0]
            first.merge(outcomes[1:])
            _assign(state, first)
            self._rebind_traps(traps_before, outcomes, state)
            return
        self._command(node, state, depth)

    def _command(self, node: ast.Command, state: ShellState, depth: int) -> None:
        if state.shell in self._since_trap:
            self._may_end_here(state)
        # Expansions run first, each in a subshell of its own: their cd never leaks out.
        for assignment in node.assignments:
            self.substitutions(assignment.value.substitutions, state, depth)
        for word in node.words:
            self.substitutions(word.substitutions, state, depth)
        for redirect in node.redirects:
            if redirect.target is not None:
                self.substitutions(redirect.target.substitutions, state, depth)
            self.substitutions(redirect.heredoc_substitutions, state, depth)
        self.evaluations(evaluated.in_command(node, state, self.home), state, depth)
        # `${X:=d}`, `$((X=1))` and `let X=1` assign while the words expand: X is then not followed.
        texts = [w.raw for w in node.words] + [a.value.raw for a in node.assignments] + [a.name for a in node.assignments]
        texts += [r.target.raw for r in node.redirects if r.target is not None]
        texts += [r.heredoc for r in node.redirects if r.heredoc]
        _expansion_assignments(texts, state)
        if node.words and node.words[0].value == "let":
            _expansion_assignments([w.raw for w in node.words[1:]], state, arithmetic=True)
        # Judging a command resolves paths from its cwd, component by component: a cwd made deep by a long
        # chain of `cd` costs that much more, and the budget counts it (COMPONENTS_PER_STEP).
        self.steps += (state.cwd or "").count("/") // COMPONENTS_PER_STEP
        step = ShellCommand(
            node=node,
            words=field_split(_positional_expanded(brace_expanded(node.words, state), state), state, bool(node.words) and node.words[0].value in DECLARING_BUILTINS),
            assignments=list(node.assignments),
            cwd=state.cwd,
            state=state,
            home=self.home,
            depth=depth,
        )
        self.redirects(node.redirects, state)
        if not step.words:
            apply_builtin(step)  # bare assignments change the state (also when the words expanded to none: `X=; $X`)
            return
        self.simple(step, depth)

    def simple(self, step: ShellCommand, depth: int) -> None:
        self._check_budget(depth)
        self.trace.append(("command", step.cwd, step.span))
        name = step.name
        # `command git` and `builtin cd` skip functions of that name (a `git() { command git …; }` wrapper).
        bypass = bool(step.via) and step.via[-1] in ("command", "builtin")
        function = step.state.functions.get(name) if name and step.value(step.words[0]) == name and not bypass else None
        # What a wrapper runs is known before the command is judged, so the rules can tell its own words apart.
        step.unwrapped = self.hooks.unwrap(step) if function is None else None
        self.findings.extend(self.hooks.on_command(step) or [])
        if function is not None:
            if depth + 1 > MAX_DEPTH:
                raise BudgetExceeded(f"functions call each other deeper than {MAX_DEPTH} levels")
            self._called.add(name)
            # The function may not be defined when this runs (defined in a branch that did not run, after `||`,
            # taken away by `unset -f` in one: review 22d), and then the program or builtin of that name runs.
            # Both are walked, the second from the state before the call, and only what the two outcomes agree on
            # is kept, as after an `if` (walked in the shell's own state, `eval(){ :; }; eval 'X=/tmp/safe'`
            # made X known: review 22e; `export(){ :; }` from code that may not have run hid `export GIT_DIR=…`:
            # review 22f).
            # A name that is no builtin changing the shell and runs no code the guard reads would only leave the
            # state as before the call: not merged (a function's own cd and assignments stay known; a body that
            # may not run counts as run, a known gap).
            # What the builtin would run and evaluate is read before the call, from the state it would start in;
            # only then is that state copied (most function calls shadow nothing and pay for no copy).
            unwrapped = self.hooks.unwrap(step)
            found = evaluated.in_builtin(step)
            shadows = unwrapped is not None or bool(found) or name in STATE_BUILTINS
            shell = step.state
            other = shell.copy() if shadows else shell
            self.call(function, step, depth)
            traps_before = len(self._traps)
            if shadows:
                step.state = other
                try:
                    if unwrapped is not None:
                        self._walk_unwrapped(step, unwrapped, depth)
                    self.evaluations(found, other, depth)
                    apply_builtin(step)
                finally:
                    step.state = shell
                shell.merge([other])
                for i in range(traps_before, len(self._traps)):  # a trap the builtin would set is this shell's
                    script, owner, prefixed = self._traps[i]
                    if owner is other:
                        self._traps[i] = (script, shell, prefixed)
            return
        self.evaluations(evaluated.in_builtin(step), step.state, depth)  # `printf -v 'a[$(cmd)]' x`
        if step.unwrapped is not None:
            self._walk_unwrapped(step, step.unwrapped, depth)
        if name in JUMPS:
            self.jump(step)
        if not step.assignments:
            apply_builtin(step)
            return
        # `X=1 unset X`: the prefix is the builtin's own; afterwards bash brings back what X was (the environment's
        # value: review 26's phase 11 run), so a name the builtin changed ends unknown
        before = {a.name: _held(step.state, a.name) for a in step.assignments}
        given = {a.name: step.value(a.value) for a in step.assignments}
        apply_builtin(step)
        for prefixed, held in before.items():
            if _held(step.state, prefixed) != held or name in KEEPS_PREFIX or (name in PREFIX_MAY_STAY and (given.get(prefixed) is None or held != (given[prefixed], False))):
                # review 30b: `U=$(cat f) export U`, `readonly`, `declare -x` keep the prefix when they declare its
                # name, and any special builtin in POSIX mode (dash, `sh -c`, `set -o posix`) keeps it (bash otherwise
                # drops it): either value, so unknown from here unless the two are the same (review 30c: `U=ok export
                # X` keeps the old U; stop 31: `sh -c 'U=-t<main> :; cp "$U" f'` copied into the main checkout)
                step.state.assign(prefixed, None)

    def _walk_unwrapped(self, step: ShellCommand, unwrapped: Unwrapped, depth: int) -> None:
        for inner in unwrapped.inner:
            self.inner(step, inner, depth)
        for script in unwrapped.scripts:
            if script.label == "trap":
                self.trap(script, step, depth)
                continue
            outer = step if script.takes_prefixes else None
            self.string(script.source, script.offset, step.state, script.cwd, depth + 1, script.same_shell, outer, script.from_env, script.options)

    def trap(self, script: Script, step: ShellCommand, depth: int) -> None:
        """A trap's code runs later (at EXIT, on a signal), with the positional parameters of wherever the shell is
        then, not those of the function that set it: walked in this shell with them unknown. A prefix of `trap`
        itself (`GIT_DIR=x trap '…' EXIT`) is dropped by bash and kept for the trap's code by dash and bash's POSIX
        mode: its names are unknown there. It is walked twice: now (a signal may come at once) and with the state
        this shell ends in (`trap 'git rm …' EXIT; export GIT_DIR=<main>/.git …` ran git in the main checkout and
        passed: review 22, F5); `walk_script` does the second at the end."""
        prefixed = tuple(a.name for a in step.assignments)
        # The code runs later, if at all: the shell goes on as if it had run or not, as after an `if`'s branch
        # (`trap 'X=/tmp/safe' INT; rm -f "$X"` judged the rm with the trap's X: review 22e; `readonly`, `hash -p`,
        # OLDPWD, a function the code defines: review 22f).
        before = step.state.copy()
        self._walk_trap(script, step.state, prefixed, depth)
        step.state.merge([before])
        self._traps.append((script, step.state, prefixed))
        if step.state.shell not in self._since_trap:
            self._since_trap[step.state.shell] = []
            self._may_end_here(step.state)

    def _may_end_here(self, state: ShellState) -> None:
        """The shell may end in this state (a signal, `set -e`), its traps running in it: kept for `walk_script`."""
        states = self._since_trap[state.shell]
        if any(_same_state(kept, state) for kept in states):
            return  # compared as a loop's rounds are: `_state_key` at every command took 7 s for 400 commands
        if len(states) < MAX_TRAP_STATES:
            states.append(state.copy())
        else:
            states[-1].merge([state])

    def _walk_trap(self, script: Script, state: ShellState, prefixed: tuple[str, ...], depth: int) -> None:
        saved_positional = state.positional
        saved_parameters = {k: v for k, v in state.variables.items() if _is_positional(k)}
        saved_prefixed = {name: state.variables.get(name, _MISSING) for name in prefixed}
        state.positional = None
        for key in saved_parameters:
            state.variables[key] = None
        for name in prefixed:
            state.assign(name, None)
        try:
            self.string(script.source, script.offset, state, script.cwd, depth + 1, script.same_shell, None, script.from_env)
        finally:
            state.positional = saved_positional
            for key in [k for k in state.variables if _is_positional(k)]:
                del state.variables[key]
            state.variables.update(saved_parameters)
            for name, value in saved_prefixed.items():
                if value is _MISSING:
                    state.variables.pop(name, None)
                else:
                    state.variables[name] = value

    def call(self, function: ast.Function, step: ShellCommand, depth: int) -> None:
        """A function's body, walked with the state of the call: its positional parameters are the call's words
        (those only known at run time stay unknown, and so do all after them), and its `local` variables end
        with it. A local whose value after the call differs from the one before becomes unknown: the walk
        cannot always tell whether the declaration ran (a branch), so restoring the old value could be stale.
        The call's prefix assignments (`GIT_DIR=x f`) are exported variables of the body; a name they changed
        ends unknown (bash restores it, its POSIX mode keeps the new value)."""
        state = step.state
        prefixed = {a.name: _held(state, a.name) for a in step.assignments}
        _export_prefixes(state, step.assignments, step, self.home)
        try:
            self._call_body(function, step, state, depth)
        finally:
            for name, (value, _) in prefixed.items():
                if _held(state, name) != prefixed[name]:  # `X=1 f` where f unsets X: the old X is back (phase 11)
                    if isinstance(value, str) and has_code(value):
                        record_lost_code(state.lost_code, name)  # review 24b: `X='a[$(…)]'; X=1 f; (( X ))`
                    state.assign(name, None)

    def _call_body(self, function: ast.Function, step: ShellCommand, state: ShellState, depth: int) -> None:
        saved_positional = state.positional
        saved_parameters = {k: v for k, v in state.variables.items() if _is_positional(k)}
        before = dict(state.variables)
        unset_before = set(state.unset)
        for key in list(state.variables):
            if _is_positional(key):
                del state.variables[key]
        arguments: list[ast.Word] = []
        known = True
        for i, word in enumerate(step.words[1:], start=1):
            value = step.value(word) if known else None
            if value is None:
                known = False
                arguments.append(ast.Word(raw='"$@"', span=word.span, value=None))
                continue
            arguments.append(ast.Word(raw=word.raw, span=word.span, value=value))
            state.variables[str(i)] = value
        state.variables["#"] = str(len(arguments)) if known else None
        state.variables["*"] = " ".join(w.value for w in arguments) if known else None  # type: ignore[misc]
        state.positional = arguments
        state.local_frames.append(set())
        self._returns.append([])
        try:
            self.visit(function.body, state, depth + 1)
            state.merge(self._returns[-1])  # a `return` ends the call in the state it was in
        finally:
            self._returns.pop()
            frame = state.local_frames.pop()
            state.positional = saved_positional
            for key in list(state.variables):
                if _is_positional(key):
                    del state.variables[key]
            state.variables.update(saved_parameters)
            for name in frame:
                after = (state.variables.get(name, _MISSING), name in state.unset)
                if after != (before.get(name, _MISSING), name in unset_before):
                    if any(isinstance(v, str) and has_code(v) for v in (before.get(name), state.variables.get(name))):
                        record_lost_code(state.lost_code, name)  # review 24b: `X='a[$(…)]'; f(){ local X=1; }; f; (( X ))`
                    state.variables[name] = None
                    state.unset.discard(name)

    def inner(self, outer: ShellCommand, inner: Inner, depth: int) -> None:
        if not inner.words:
            return
        # `command cd`, `builtin cd` run in this shell; every other wrapper starts a child process.
        state = outer.state if inner.same_shell else self._child(outer.state)
        if not inner.same_shell and (inner.cwd != outer.state.cwd or inner.clears or "PWD" in inner.unsets):
            # a new process elsewhere (`env -C d`), or one whose environment lost PWD: a shell it starts takes $PWD
            # from getcwd(). One started where the shell is keeps the inherited $PWD, logical (phase 12's run:
            # `cd deep; env bash -c 'cd ..; rm -f ../../../README.md'` was judged from the physical parent)
            state.cwd, state.cwds = inner.cwd, ()
            state.variables["PWD"] = inner.cwd
        step = ShellCommand(
            node=outer.node,
            words=inner.words,
            assignments=_reaching(outer.assignments, inner) + inner.assignments,
            cwd=inner.cwd,
            state=state,
            home=self.home,
            depth=depth + 1,
            via=outer.via + ((inner.label,) if inner.label else ()),
        )
        if depth + 1 > MAX_DEPTH:
            raise BudgetExceeded(f"commands wrap each other deeper than {MAX_DEPTH} levels")
        self.simple(step, depth + 1)

    def string(
        self,
        source: str,
        offset: int,
        state: ShellState,
        cwd: str | None,
        depth: int,
        same_shell: bool = False,
        outer: ShellCommand | None = None,
        from_env: bool = False,
        options: frozenset[str] = frozenset(),
    ) -> None:
        """Shell code held in a string (`bash -c`, `eval`, a heredoc fed to a shell): parsed and walked.

        `eval`, `source` and `trap` run it in this shell (its cd persists); `bash -c` in a child, which starts with
        the `options` its command line gives it (`bash -O nocaseglob -c …`: a glob matches more). The prefix
        assignments of the command that runs it (`GIT_DIR=x bash -c '…'`, `X=1 eval '…'`) are exported
        variables of the code it runs: `outer` carries them in (as `env`, `xargs` and `nohup` carry theirs)."""
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
        prefixes = outer.assignments if outer is not None else []
        if same_shell:
            # bash drops `X=1 eval …`'s X afterwards (POSIX mode keeps it): a name the prefix changed ends unknown.
            before = {a.name: _held(state, a.name) for a in prefixes}
            _export_prefixes(state, prefixes, outer, self.home)
            self.walk_script(script, state, depth)
            for name, held in before.items():
                if _held(state, name) != held:
                    state.assign(name, None)
            return
        inner = self._child(state)
        inner.options |= options
        if cwd != inner.cwd:
            # A shell started elsewhere (`env -C d bash -c …`) finds $PWD naming another directory and takes getcwd()
            inner.cwd, inner.cwds = cwd, ()
            inner.variables["PWD"] = cwd
        # BASHOPTS and SHELLOPTS in its environment name options it starts with (`env BASHOPTS=lastpipe bash -c …`);
        # set to a value only known at run time, any ("*").
        named: dict[str, set[str]] = {}
        for variable in ("BASHOPTS", "SHELLOPTS"):
            present, value = outer.env(variable) if outer is not None else (variable in state.variables, state.variables.get(variable))
            named[variable] = ({"*"} if value is None else set(value.split(":"))) if present else set()
        bashopts, shellopts = named["BASHOPTS"], named["SHELLOPTS"]
        # A new shell starts with lastpipe off, unless BASHOPTS or its command line turns it on (`shopt -s lastpipe;
        # bash -c 'X=<main>/x; echo /tmp/safe | read X; rm -f "$X"'` kept the parent's).
        invoked = outer is not None and any(v is None or "lastpipe" in v for v in outer.values()[1:])  # `bash -O lastpipe`
        inner.lastpipe = None if bashopts & {"lastpipe", "*"} or invoked else False
        # So does its cd: physical with `bash -o physical`/`-P` or SHELLOPTS naming it, else logical.
        if shellopts & {"physical", "*"} or (outer is not None and any(v is None or "physical" in v or v[:1] in "-+" and "P" in v for v in outer.values()[1:])):
            inner.options.add("physical")
        # …and its traps reach its subshells with `bash -E`/`-T`, `-o errtrace`/`functrace`, `-O extdebug` or
        # SHELLOPTS/BASHOPTS naming them (review 26a)
        if (shellopts | bashopts) & {"errtrace", "functrace", "extdebug", "*"} or (outer is not None and any(v is None or any(o in v for o in ("errtrace", "functrace", "extdebug")) or v[:1] in "-+" and ("E" in v or "T" in v) for v in outer.values()[1:])):
            inner.options.add("errtrace")
        # …and with the glob, cd and name options they name (`env BASHOPTS=nocaseglob bash -c 'chmod +x TO-MAI?'`)
        inner.options |= bashopts & (SHOPT_ON | {"*"}) | shellopts & (SET_NAMES | {"*"})
        # A child shell has positional parameters of its own (`bash -c CODE ARG0 ARGS…`, `bash -s ARGS`), never the
        # calling function's: unknown there, so `"$@"` and `$1` in its code are not the function's words.
        inner.positional = None
        for key in [k for k in inner.variables if _is_positional(k)]:
            inner.variables[key] = None
        _export_prefixes(inner, prefixes, outer, self.home)
        if from_env:
            self._walk_once(source, script, inner, depth)
        else:
            self.walk_script(script, inner, depth)

    def _walk_once(self, source: str, script: ast.Script, state: ShellState, depth: int) -> None:
        """Walk code a program runs from its environment, unless the same code in the same state is being walked
        from there already further out: the program finds it again in the environment it gives that code
        (`LESSOPEN='|lesspipe %s'`, which lesspipe's runner row walks), and that walk would find nothing new. Only
        this re-entry is cut short: any other code that runs itself again (`eval "$S"` after redefining a function
        or `hash -p`) is walked until the budget stops it.

        The key is everything in the state that can change what a walk finds: what the command wrote, the
        repositories it made or configured (a hook written on the way in makes a later `git commit` untrusted:
        review 22's F1), and each function by what it is, not by the object (code that defines a function defines
        a fresh one each time it runs, at another offset: review 22's R1). Sets, not lists: the same write made again is not new."""
        key = _state_key(source, state)
        if key in self._active:
            return
        self._active.add(key)
        try:
            self.walk_script(script, state, depth)
        finally:
            self._active.discard(key)

    # -- pieces --------------------------------------------------------------------------------

    def substitutions(self, nodes: list[ast.Node], state: ShellState, depth: int) -> None:
        for node in nodes:
            self.visit(node, self._child(state), depth)

    def evaluations(self, found: list[evaluated.Evaluated], state: ShellState, depth: int) -> None:
        """Values bash runs as code while it expands a word or looks a name up (shell/evaluated.py): each is walked
        in a subshell of this state, as the command substitutions in it run; one only known at run time is reported
        to the rules, as `eval "$x"` is. The same code twice in one command (`((x + x))`) is judged once."""
        seen: set[str] = set()
        for item in found:
            key = item.script if item.script is not None else item.reason
            if key in seen:
                continue
            seen.add(key)
            if item.script is None:
                self.findings.extend(self.hooks.on_unknown_code(item) or [])
            else:
                self.string(item.script, item.span[0], state, state.cwd, depth + 1)

    def redirects(self, redirects: list[ast.Redirect], state: ShellState) -> None:
        for redirect in redirects:
            event = ShellRedirect(redirect=redirect, cwd=state.cwd, state=state, home=self.home)
            self.trace.append(("redirect", state.cwd, redirect.span))
            self.findings.extend(self.hooks.on_redirect(event) or [])

    def _check_budget(self, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise BudgetExceeded(f"the command nests deeper than {MAX_DEPTH} levels")
        self.steps += 1
        if self.steps > MAX_WALK_STEPS:
            raise BudgetExceeded(f"analysing the command takes more than {MAX_WALK_STEPS} steps")


_MISSING = object()


def _widen(state: ShellState, before: ShellState) -> None:
    """A loop's round start that keeps changing: nothing about variables, directories and positional parameters is
    known any more, and neither is a hashed name, nameref, option or lastpipe that still changes. A walk from there
    can change only functions further, and a loop defines finitely many."""
    state.forget()
    forget_positional(state)
    if state.hashed != before.hashed:
        state.hashed = {key: None for key in state.hashed} | {"*": None}
    if state.namerefs != before.namerefs:
        state.namerefs = {key: None for key in state.namerefs}
        state.forget_variables()
    if state.options != before.options:
        state.options = state.options | {"*"}
    if state.lastpipe != before.lastpipe:
        state.lastpipe = None


#: The builtins that take the shell elsewhere (`Walker.jump`).
JUMPS = frozenset({"break", "continue", "return", "exit"})


@fast_dataclass(slots=True)
class _Jumps:
    """The states `break` and `continue` leave one loop with."""

    breaks: list[ShellState] = field(default_factory=list)
    continues: list[ShellState] = field(default_factory=list)
#: Builtins that change the shell's state (`apply_builtin`): a function of that name shadows them.
STATE_BUILTINS = frozenset((*DIRECTORY_BUILTINS, *DECLARING_BUILTINS, *READING_BUILTINS)) | frozenset({"unset", "printf", "source", ".", "shopt", "set", "shift", "hash", "export", "readonly", "declare", "typeset", "local"})


def _export_prefixes(state: ShellState, assignments: list[ast.Assignment], outer: ShellCommand | None, home: str) -> None:
    """A command's prefix assignments made exported variables of `state`. The shell's own prefixes expand left
    to right (`A=1 B=$A bash -c …` gives B the new A); a wrapper's (`env B=$A bash -c …`) were words the shell
    expanded before any prefix applied."""
    if not assignments or outer is None:
        return
    own = {id(a) for a in outer.node.assignments} if isinstance(outer.node, ast.Command) else set()
    before = state.copy()
    for assignment in assignments:
        source = state if id(assignment) in own else before
        state.assign(assignment.name, word_value(assignment.value, source, home), assignment.append)
        state.exported.add(assignment.name.partition("[")[0])


def _reaching(assignments: list[ast.Assignment], inner: Inner) -> list[ast.Assignment]:
    """The prefix assignments of a wrapper's command that reach what it runs: `env -i` starts from an empty
    environment and `env -u NAME` takes NAME out, before env's own `NAME=value` words apply."""
    if inner.clears:
        return []
    if not inner.unsets:
        return assignments
    return [a for a in assignments if a.name.partition("[")[0] not in inner.unsets]



def _state_key(source: str, state: ShellState) -> tuple:
    """Code and everything in the state that can change what walking it finds (see `Walker._walk_once`)."""
    return (
        source,
        state.cwd,
        state.cwds,
        state.names_unknown,
        state.oldpwd,
        tuple(state.dirstack),
        tuple(sorted(state.variables.items(), key=str)),
        tuple(sorted(state.exported)),
        tuple(sorted((name, _shape(body)) for name, body in state.functions.items())),
        tuple(sorted(state.hashed.items(), key=str)),
        tuple(sorted(state.options)),
        state.lastpipe,
        tuple(sorted(state.unset)),
        tuple(sorted(set(state.written), key=str)),
        tuple(sorted(set(state.repositories))),
        tuple(sorted(set(state.configured))),
        tuple(sorted(state.readonly)),
        tuple(sorted(state.namerefs.items(), key=str)),
        tuple(sorted(state.transformed)),
        _shape(state.positional),
        tuple(sorted(state.alternatives.items(), key=str)),
    )


def _bodies(function: ast.Function) -> frozenset[int]:
    """The bodies a function may have, by identity (a merge makes a new Function of kind "either" each time)."""
    body = function.body
    if isinstance(body, ast.Compound) and body.kind == "either":
        return frozenset(id(b) for b in body.bodies)
    return frozenset((id(body),))


def _same_state(a: ShellState, b: ShellState) -> bool:
    """Whether two states of one walk would lead a walk to the same findings (`loop`'s test for a stable round start):
    `_state_key`'s fields, functions by the identity of their bodies (a loop round defines the same ones again), and the
    lists shared by every scope by their length (a round that wrote something new is walked again). Cheap, unlike
    the key (review 24a: the key's shape of every function, twice a round, took a command 57 s)."""
    return (
        a.cwd == b.cwd
        and a.cwds == b.cwds
        and a.names_unknown == b.names_unknown
        and a.oldpwd == b.oldpwd
        and a.dirstack == b.dirstack
        and a.variables == b.variables
        and a.exported == b.exported
        and a.functions.keys() == b.functions.keys()
        and all(_bodies(a.functions[k]) == _bodies(b.functions[k]) for k in a.functions)
        and a.hashed == b.hashed
        and a.options == b.options
        and a.lastpipe == b.lastpipe
        and a.unset == b.unset
        and a.readonly == b.readonly
        and a.namerefs == b.namerefs
        and a.transformed == b.transformed
        and a.positional is b.positional
        and a.alternatives == b.alternatives
    )


def _shape(node: object) -> object:
    """A syntax tree (or list of words) without its positions: the same code parsed at another offset (an alias's
    code walked again inside itself) has the same shape. Field by field, so that no text in a word can pass for a
    position (a regex over `repr` took `'span=(1, 2)'` in a word for one: review 22c)."""
    from ..fast_dataclass import fields

    if isinstance(node, list):
        return tuple(_shape(item) for item in node)
    try:
        names = [f.name for f in fields(node)]
    except TypeError:
        return node
    return (type(node).__name__, *((name, _shape(getattr(node, name))) for name in names if name != "span"))


def _is_positional(name: str) -> bool:
    return name.isdigit() or name in ("#", "*")


def _expansion_assignments(texts: list[str], state: ShellState, arithmetic: bool = False) -> None:
    for text in texts:
        for name in assigned_by_expansion(text, arithmetic):
            state.assign(name, None)


def _positional_expanded(words: list[ast.Word], state: ShellState) -> list[ast.Word]:
    """`"$@"` inside a function's body: the words of its call (each one unknown when it is)."""
    if state.positional is None or not any(w.raw in ('"$@"', '"${@}"') for w in words):
        return words
    out: list[ast.Word] = []
    for word in words:
        if word.raw in ('"$@"', '"${@}"'):
            out.extend(ast.Word(raw=w.raw, span=word.span, value=w.value) for w in state.positional)
        else:
            out.append(word)
    return out


#: Shell options under which a subshell keeps its parent's ERR, DEBUG and RETURN traps.
INHERITED_TRAP_OPTIONS = frozenset({"errtrace", "functrace", "extdebug", "*"})


def _leaves(node: ast.Node, state: ShellState) -> bool:
    """Whether a part of an and-or list always leaves the shell: `exit`, `return`, or a `{ …; }` group ending in one;
    not when a function of that name may run instead (`exit(){ :; }`)."""
    while isinstance(node, ast.Group):
        node = node.body
        if isinstance(node, ast.Sequence):
            if node.ops[len(node.parts) - 1 : len(node.parts)] == ["&"]:
                return False
            node = node.parts[-1]
    return (
        isinstance(node, ast.Command)
        and bool(node.words)
        and node.words[0].value in ("exit", "return")
        and node.words[0].value not in state.functions
        and not state.is_disabled(node.words[0].value)  # `enable -n exit`: `exit` is a program not found
    )


def _held(state: ShellState, name: str) -> tuple:
    """What the shell holds for `name`: its known value (or none), and whether it is known to be unset."""
    return state.variables.get(name, _MISSING), name in state.unset


def _directory(state: ShellState) -> tuple:
    """What a failed cd leaves as it was: the directory, OLDPWD, the stack, and $PWD and $OLDPWD."""
    return (state.cwd, state.cwds, state.oldpwd, list(state.dirstack), state.variables.get("PWD", _MISSING), state.variables.get("OLDPWD", _MISSING))


def _may_have_stayed(state: ShellState, before: tuple) -> None:
    """The state may be the one after a command, or, when that command was a cd that failed, the one before it as far as
    directories go: what the two agree on (with the directories it may be in)."""
    if _directory(state) == before:
        return
    stayed = state.copy()
    stayed.cwd, stayed.cwds, stayed.oldpwd, stayed.dirstack = before[0], before[1], before[2], list(before[3])
    for name, value in (("PWD", before[4]), ("OLDPWD", before[5])):
        if value is _MISSING:
            stayed.variables.pop(name, None)
        else:
            stayed.variables[name] = value
    state.merge([stayed])


def _assign(target: ShellState, source: ShellState) -> None:
    target.cwd, target.oldpwd, target.dirstack = source.cwd, source.oldpwd, source.dirstack
    target.variables, target.exported, target.functions = source.variables, source.exported, source.functions
    target.lastpipe, target.unset, target.options = source.lastpipe, source.unset, source.options
    target.readonly, target.transformed, target.namerefs = source.readonly, source.transformed, source.namerefs
    target.hashed, target.positional, target.alternatives = source.hashed, source.positional, source.alternatives
    target.cwds, target.names_unknown, target.cd_may_fail = source.cwds, source.names_unknown, source.cd_may_fail
    target.disabled = source.disabled
