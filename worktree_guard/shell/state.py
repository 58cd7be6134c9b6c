"""The simulated shell state the walker carries through a command (SPEC §5.2). Nothing is ever executed."""

from __future__ import annotations

from dataclasses import dataclass, field

from .ast import Function


@dataclass(slots=True)
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
    lastpipe: bool = False
    #: Variables known to be unset (`unset X`, TMPDIR absent from the hook's environment): `${X:-d}` is d.
    unset: set[str] = field(default_factory=set)
    #: Shell options set in the command that change how later words resolve (SPEC §5.2 "shell options"):
    #: `cdable_vars`, `dotglob`, `noglob`, `expand_aliases`, `+braceexpand`… ("*" when not known which).
    options: set[str] = field(default_factory=set)
    #: Canonical paths written so far by the whole command (None: a target only known at run time). One list
    #: shared by every scope: a file a subshell wrote stays written.
    written: list[str | None] = field(default_factory=list)

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

    def assign(self, name: str, value: str | None) -> None:
        """`NAME=value` (None: unknown). OLDPWD feeds `cd -`; assigning PWD makes the logical cwd unknown."""
        self.unset.discard(name)
        self.variables[name] = value
        if name == "OLDPWD":
            self.oldpwd = value
        elif name == "PWD":
            self.cwd = None

    def chdir(self, target: str | None) -> None:
        self.oldpwd = self.cwd
        self.cwd = target
        self.variables["OLDPWD"] = self.oldpwd
        self.variables["PWD"] = target

    def merge(self, others: list[ShellState]) -> None:
        """After branches that may or may not run: keep only what every outcome agrees on."""
        for other in others:
            if other.cwd != self.cwd:
                self.cwd = None
            if other.oldpwd != self.oldpwd:
                self.oldpwd = None
            if other.dirstack != self.dirstack:
                self.dirstack = [None] * max(len(self.dirstack), len(other.dirstack))
            for name in set(self.variables) | set(other.variables):
                if self.variables.get(name) != other.variables.get(name):
                    self.variables[name] = None
            self.exported |= other.exported
            self.functions.update(other.functions)
            self.lastpipe = self.lastpipe or other.lastpipe
            self.unset &= other.unset
            self.options |= other.options
