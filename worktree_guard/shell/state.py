"""The simulated shell state the walker carries through a command (SPEC §5.2). Nothing is ever executed."""

from __future__ import annotations


from ..fast_dataclass import fast_dataclass, field
from .ast import Compound, Function
from .words import has_code

#: Why a variable the command never named may hold anything (`ShellCommand.env` after `ShellState.names_unknown`).
NAMES_UNKNOWN = "a step before assigned variables whose names are only known at run time (`export $(cat f)`, `read \"$N\"`, `source f`), so any variable may be set"

#: Paths globs may stand for in one command, counted each time a rule expands one (WG901 past it). Each path
#: is then judged (resolved, placed) by every rule that asked: the reviewer's `rm d/* d/* …` (220 words over
#: 1,999 files, 440,000 paths) took 20 s and ended WG000. Four globs over 1,999 files (8,000 paths: two
#: realpaths each) took 1–2 s on this loaded 2-core machine; five are past the budget.
MAX_GLOB_PATHS = 10_000
#: Directory entries read to expand globs count as one path per this many (a listing is read once per command).
ENTRIES_PER_PATH = 10
#: The start of a `ShellState.written` entry for a directory where a step made files under names the guard does not
#: know (git putting another commit's files in a work tree, `curl -O` naming one after its URL): a later glob's names
#: there are not known (`steps.written_matches`). No path starts with it, so no other reader takes it for a write.
UNLISTED = "\0unlisted:"


class BudgetExceeded(Exception):
    """The command nests deeper or takes more work to analyse than the budget allows (WG901)."""


@fast_dataclass(slots=True)
class GlobWork:
    """What expanding globs has cost so far in one command: one meter shared by every scope, like `written`,
    and the directory listings already read (a second `d/*` reads `d` no more)."""

    paths: int = 0
    listings: dict[str, list[str] | None] = field(default_factory=dict)
    #: The names of the symlinks in a directory (`written._links_named`), None past MAX_LINK_ENTRIES entries.
    links: dict[str, list[str] | None] = field(default_factory=dict)
    #: Every name in a directory (`written._glob_paths`), None past MAX_LINK_ENTRIES entries.
    names: dict[str, list[str] | None] = field(default_factory=dict)

    def charge(self, paths: int) -> None:
        self.paths += paths
        if self.paths > MAX_GLOB_PATHS:
            raise BudgetExceeded(f"its globs stand for more than {MAX_GLOB_PATHS} paths")


@fast_dataclass(slots=True)
class ShellState:
    """cwd, OLDPWD, the directory stack and the variables whose values are known.

    `cwd` is None once a directory change could not be followed; `variables` maps a name to its known
    literal value, or to None when the command set it to something unknown.
    """

    cwd: str | None
    oldpwd: str | None = None
    dirstack: list[str | None] = field(default_factory=list)
    variables: dict[str, str | None] = field(default_factory=dict)
    exported: set[str] = field(default_factory=set)
    functions: dict[str, Function] = field(default_factory=dict)
    #: `shopt -s lastpipe`: the last stage of a pipeline runs in this shell (None: it may or may not).
    lastpipe: bool | None = False
    #: Variables known to be unset (`unset X`, TMPDIR absent from the hook's environment): `${X:-d}` is d.
    unset: set[str] = field(default_factory=set)
    #: Shell options set in the command that change how later words resolve (SPEC §5.2 "shell options"):
    #: `cdable_vars`, `dotglob`, `noglob`, `expand_aliases`, `+braceexpand`… ("*" when not known which); "alias"
    #: once BASH_ALIASES was set (an alias defined without the `alias` builtin).
    options: set[str] = field(default_factory=set)
    #: Canonical paths written so far by the whole command (None: a target only known at run time). One list
    #: shared by every scope: a file a subshell wrote stays written. An entry starting with `UNLISTED` names a
    #: directory where files appeared under names the guard does not know.
    written: list[str | None] = field(default_factory=list)
    #: Directories git filled itself earlier in the command (a repository `git init` / `git clone` made, the
    #: patches of `git format-patch`; shared like `written`): their writing sends a later git nowhere else.
    repositories: list[str] = field(default_factory=list)
    #: Repositories (their directory, or their git dir) whose config or hooks this command put there without the
    #: guard reading them: a template's copy, `git config` (shared like `written`). A later git there reads them.
    configured: list[str] = field(default_factory=list)
    #: Variables that cannot be assigned or unset (`readonly X`, `declare -r X`): bash refuses both.
    readonly: set[str] = field(default_factory=set)
    #: Namerefs (`declare -n r=d`) and the variable each stands for (None: not known which).
    namerefs: dict[str, str | None] = field(default_factory=dict)
    #: `hash -p PATH NAME`: the program NAME runs from now on (None: not known); "*" when any name may be hashed.
    hashed: dict[str, str | None] = field(default_factory=dict)
    #: The words of the running function's call ("$@"), None outside a function or when not known.
    positional: list | None = None
    #: Variables whose assignments are transformed (`declare -i/-l/-u X`): their values are not followed.
    transformed: set[str] = field(default_factory=set)
    #: One set per function call being walked: the names it declared local (shared by every scope, like
    #: `written`, so a local declared in a branch counts too).
    local_frames: list[set[str]] = field(default_factory=list)
    #: The glob work of the whole command (shared by every scope).
    globs: GlobWork = field(default_factory=GlobWork)
    #: A variable outcomes disagree on (its value None) that may hold one of these known values, each of which bash
    #: would run code from when it evaluates the variable as arithmetic (`a[$(cmd)]`): they are walked there
    #: (review 24a: `Y=0; true && Y='a[$(touch <main>/f)]'; (( Y ))` passed once the merge made Y unknown).
    alternatives: dict[str, frozenset[str]] = field(default_factory=dict)
    #: Known values that ran code when evaluated as arithmetic and that a merge or a forget made unknown (shared by
    #: every scope, like `written`): once one is, an unknown value may be derived from it (`X+=''`, `Y="$X"`, `f "$X"`,
    #: a nameref), and arithmetic on any unknown value is refused (review 24b).
    lost_code: list[str] = field(default_factory=list)
    #: Which shell of the command this state belongs to (0: the agent's own; a child shell gets its own number).
    shell: int = 0
    #: When `cwd` is None because outcomes that each knew it disagree (`cd src && make && cd ..`: W/src or W), the
    #: directories the shell may be in, 2 to MAX_CWDS of them, each as (physical, logical: its $PWD, None when not
    #: known); the walker judges each command in each. Empty when not known. Set only by `merge`; every other change
    #: of the directory empties it.
    cwds: tuple[tuple[str, str | None], ...] = ()
    #: Whether the last cd/pushd/popd may have failed and left the shell where it was: its target was not a
    #: directory it could enter when the command was checked, or the command wrote at or above it before. The
    #: and-or list it ends goes on from either directory (`cd nonexist/a/b; rm -f ../../../x` stays in W).
    cd_may_fail: bool = False
    #: Builtins `enable -n` turned off ("*": not known which): such a name runs a program if one is found, so the
    #: builtin's change to the shell may not happen (`enable -n unset; unset X`, `enable -n exit; cd x || exit`).
    disabled: set[str] = field(default_factory=set)
    #: Whether a step may have assigned a variable whose name is only known at run time (`source`, a computed
    #: command name, `declare "$N=…"`, `read "$N"`): a variable the command never assigned may then not be the
    #: inherited one. IFS is made unknown with it (the walker splits words only with IFS as bash starts it).
    names_unknown: bool = False

    def copy(self) -> ShellState:
        """The state a subshell starts with; its changes never come back."""
        return ShellState(
            cwd=self.cwd,
            oldpwd=self.oldpwd,
            dirstack=list(self.dirstack),
            variables=dict(self.variables),
            exported=set(self.exported),
            functions=dict(self.functions),
            lastpipe=self.lastpipe,
            unset=set(self.unset),
            options=set(self.options),
            written=self.written,
            repositories=self.repositories,
            configured=self.configured,
            readonly=set(self.readonly),
            transformed=set(self.transformed),
            namerefs=dict(self.namerefs),
            hashed=dict(self.hashed),
            positional=self.positional,
            local_frames=self.local_frames,
            globs=self.globs,
            alternatives=dict(self.alternatives),
            lost_code=self.lost_code,
            shell=self.shell,
            cwds=self.cwds,
            names_unknown=self.names_unknown,
            cd_may_fail=self.cd_may_fail,
            disabled=set(self.disabled),
        )

    def lookup(self, name: str) -> str | None:
        """The known value of `$name`; None when unknown or unset (an unset variable is not trusted to be empty)."""
        return self.variables.get(name)

    def lookup_word(self, name: str) -> str | None:
        """As `lookup`, but `words.UNSET` for a variable known to be unset (for `${X:-default}`)."""
        if name in self.unset and name not in self.variables:
            from .words import UNSET

            return UNSET
        return self.variables.get(name)

    def assign(self, name: str, value: str | None, append: bool = False) -> None:
        """`NAME=value` (None: unknown), `NAME+=value` with `append`. OLDPWD feeds `cd -`; assigning PWD makes
        the logical cwd unknown, assigning DIRSTACK the directory stack. `NAME[i]=v` changes `$NAME` (element 0)
        in a way not followed: NAME becomes unknown. A readonly name keeps its value (bash refuses); through a
        nameref the variable it stands for becomes unknown (every variable when that is not known)."""
        base, bracket, _ = name.partition("[")
        if base in self.readonly:
            return
        if base in self.namerefs:
            target = self.namerefs[base]
            self.variables[base] = None
            if target is None or target == base:
                self.forget_variables()
            else:
                self.assign(target, None)
            return
        if bracket or base in self.transformed:
            value = None
        elif append and value is not None:
            current = self.variables.get(name)
            if current is None and name not in self.unset:
                value = None
            else:
                value = (current or "") + value
        self.unset.discard(base)
        if value is None and (self.alternatives.get(base) or _may_run_code(self.variables.get(base) or "")):
            record_lost_code(self.lost_code, base)  # `X+=''`, a restore after `local`: what it held may live on in the new value
        self.variables[base] = value
        self.alternatives.pop(base, None)
        if base == "OLDPWD":
            self.oldpwd = value
        elif base == "PWD":
            self.cwd, self.cwds = None, ()
        elif base == "DIRSTACK":
            self.forget_dirstack()
        elif base == "BASH_CMDS":
            self.hashed["*"] = None  # its elements are hashed names' paths, as `hash -p` sets them (review 29a)
        elif base == "BASH_ALIASES":
            self.options.add("alias")  # its elements are aliases: a later name may stand for any code (review 29a)

    def forget_dirstack(self) -> None:
        """The directory stack was changed in a way not followed: every entry is unknown (and one more)."""
        self.dirstack = [None] * (len(self.dirstack) + 1)

    def forget_variables(self) -> None:
        """Any variable may have changed: none keeps a known value (nor OLDPWD, PWD and the stack). A value that runs
        code when evaluated as arithmetic may still be the one it holds (`alternatives`)."""
        self.forget_names()
        self.cwd, self.cwds = None, ()

    def forget_names(self) -> None:
        """A variable whose name is only known at run time may have been assigned, so any variable may have: none keeps
        a known value, none is known to be unset, and OLDPWD, $PWD (the logical cwd) and the stack (DIRSTACK) are not
        known (review 32a: HOME, TMPDIR, CDPATH and OLDPWD kept theirs after `export $(cat e)`); IFS among them (review
        25a: `"$C" IFS=:` with C=declare, then `rm -f $X` split X at `:`). A value that runs code when evaluated as
        arithmetic may still be the one it holds (`alternatives`)."""
        self.names_unknown = True
        for key, value in list(self.variables.items()):
            if value is not None and _may_run_code(value):
                self.alternatives[key] = self.alternatives.get(key, frozenset()) | {value}
                record_lost_code(self.lost_code, key)
            self.variables[key] = None
        self.unset.clear()
        self.oldpwd = None
        self.forget_dirstack()
        self.variables["IFS"] = None

    def forget(self) -> None:
        """A command the simulation cannot follow ran in this shell (a computed command name may be `cd`,
        `declare`, `unset`, `read`…): the directory, the stack and every variable become unknown."""
        self.forget_variables()

    def is_disabled(self, name: str | None) -> bool:
        """Whether the builtin `name` may have been turned off by `enable -n`."""
        return bool(self.disabled) and (name in self.disabled or "*" in self.disabled)

    def logical(self) -> str | None:
        """The shell's logical directory, $PWD: what bash's `cd ..` climbs from (`cd link; cd ..` goes back to
        where `link` is, not to the parent of what it points to). None when not known."""
        if self.cwd is None:
            return None
        if "PWD" not in self.variables and "PWD" not in self.unset:
            return self.cwd  # a state made without it (the walker's own start: `rules.bash.initial_state` sets it)
        pwd = self.variables.get("PWD")
        return pwd if pwd is not None and pwd.startswith("/") else None

    def chdir(self, target: str | None, logical: str | None | object = ...) -> None:
        """The shell moved to `target` (physical; None: not known), with $PWD `logical` (the target when not given,
        None when not known)."""
        self.oldpwd = self.logical()  # $PWD before: not known when it was not (`cd -` is then WG202)
        self.cwd, self.cwds = target, ()
        self.variables["OLDPWD"] = self.oldpwd
        self.variables["PWD"] = target if logical is ... or target is None else logical  # type: ignore[assignment]

    def merge(self, others: list[ShellState]) -> None:
        """After branches that may or may not run: keep only what every outcome agrees on (the directory: the
        ones it may be, when each outcome knows it and they are few)."""
        places = _places(self)
        for other in others:
            theirs = _places(other)
            places = None if places is None or theirs is None else places | theirs
            if other.cwd != self.cwd:
                self.cwd = None
            if other.oldpwd != self.oldpwd:
                self.oldpwd = None
            if other.dirstack != self.dirstack:
                self.dirstack = [None] * max(len(self.dirstack), len(other.dirstack))
            for name in set(self.variables) | set(other.variables):
                mine, theirs = self.variables.get(name), other.variables.get(name)
                if mine != theirs:
                    self.variables[name] = None
                    held = self.alternatives.get(name, frozenset()) | other.alternatives.get(name, frozenset())
                    held |= {v for v in (mine, theirs) if v is not None and _may_run_code(v)}
                    if held:
                        self.alternatives[name] = held
                        record_lost_code(self.lost_code, name)
            for name, held in other.alternatives.items():
                if name not in self.alternatives or not held <= self.alternatives[name]:
                    self.alternatives[name] = self.alternatives.get(name, frozenset()) | held
            self.exported |= other.exported
            for name, theirs in other.functions.items():
                self.functions[name] = _either(self.functions.get(name), theirs)
            if other.lastpipe != self.lastpipe:
                self.lastpipe = None
            self.unset &= other.unset
            self.options |= other.options
            # a name readonly in one outcome only may or may not take a later assignment: its value is unknown
            # and stays so (`if c; then readonly X; fi; X=<main>/src; rm -rf "$X"` kept X's old value: review 22f)
            for name in self.readonly ^ other.readonly:
                self.variables[name] = None
            self.readonly |= other.readonly
            self.transformed |= other.transformed
            for table, theirs in ((self.namerefs, other.namerefs), (self.hashed, other.hashed)):
                # a key only one outcome has may or may not be in force (`if c; then hash -p /bin/true rm; fi; rm …`
                # ran the real rm when c failed, judged as /bin/true: review 22f): not known which
                for key in set(table) | set(theirs):
                    if key not in table or key not in theirs or table[key] != theirs[key]:
                        table[key] = None
            if other.positional is not self.positional:
                self.positional = None
            self.names_unknown |= other.names_unknown
            self.cd_may_fail |= other.cd_may_fail
            self.disabled |= other.disabled
        if self.cwd is not None:
            self.cwds = ()
        else:
            self.cwds = tuple(sorted(places, key=_place_key)) if places is not None and 1 < len(places) <= MAX_CWDS else ()


#: The most directories a shell is followed in at once (`ShellState.cwds`): each command is judged in each.
MAX_CWDS = 4


def _places(state: ShellState) -> frozenset[tuple[str, str | None]] | None:
    """The directories a state may be in, (physical, logical) each; None when not known."""
    if state.cwd is not None:
        return frozenset(((state.cwd, state.logical()),))
    return frozenset(state.cwds) if state.cwds else None


def _place_key(place: tuple[str, str | None]) -> tuple[str, str]:
    return place[0], place[1] or ""


def record_lost_code(lost: list[str], name: str) -> None:
    """Record that `name`'s value, which runs code, became unknown (once: loops merge again and again)."""
    if name not in lost:
        lost.append(name)


def _may_run_code(value: str) -> bool:
    """Whether evaluating `value` as arithmetic may run a command."""
    return has_code(value)


def _either(mine: Function | None, theirs: Function) -> Function:
    """A function two outcomes define differently (`g(){ :; }; if c; then g(){ … }; fi`): either body may be the one
    a later call runs, so a call walks each (a Compound of kind "either", walked as an `if`'s branches). Review 22c:
    the entry's body replaced the branch's, and `g` after the `fi` ran the branch's unwalked."""
    if mine is None or mine is theirs:
        return theirs
    bodies: list = []
    for function in (mine, theirs):
        alternatives = function.body.bodies if isinstance(function.body, Compound) and function.body.kind == "either" else [function.body]
        bodies.extend(body for body in alternatives if not any(body is seen for seen in bodies))
    if len(bodies) == 1:
        return mine
    redirects = [*mine.redirects, *(r for r in theirs.redirects if not any(r is seen for seen in mine.redirects))]
    return Function(span=mine.span, name=mine.name, body=Compound(span=mine.span, kind="either", bodies=bodies), redirects=redirects)
