"""Where a path lies with respect to W, S, the allow-list and the protect-list — §5.1's order, shared by every rule."""

from __future__ import annotations

import os
from typing import Literal

from .fast_dataclass import fast_dataclass
from .layout import Layout
from .paths import DEFAULT_ALLOW, DEFAULT_PROTECT, PathPatterns, canonical, cleaned, deepest_root, descriptor, expand_user, home_dir, inside, made_link_readings, made_links_read_as, own_process, temp_dirs

Place = Literal["protected", "inside", "shared", "allowed", "outside"]
#: The allow-list's device files: writing one replaces no directory (checked before the guard's own paths are found).
_DEVICES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})
# Which place wins when the forms of one path land in different places (the first of equals is kept).
_SEVERITY: dict[str, int] = {"inside": 0, "allowed": 0, "protected": 1, "outside": 2, "shared": 3}


@fast_dataclass(frozen=True, slots=True)
class Judgement:
    """The place of one path: `resolved` is canonical; `shared_root` and `suggestion` are set for "shared"."""

    place: Place
    resolved: str
    shared_root: str | None = None
    suggestion: str | None = None

    @property
    def ok(self) -> bool:
        return self.place in ("inside", "allowed")


class PathPolicy:
    """Judges paths for one agent: W, S, allow- and protect-lists, all canonical."""

    def __init__(self, layout: Layout, allow: list[str], protect: list[str], home: str | None = None) -> None:
        self.home = home if home is not None else home_dir()
        self.root = layout.worktree_root
        self.shared_roots = list(layout.shared_roots)
        # The repository's own git dir (refs, config, hooks) is shared by every worktree. Inside a main
        # checkout it is covered already; a bare repository's lies outside every checkout, maybe in /tmp.
        self.git_dir = layout.common_dir
        if self.git_dir and self.git_dir not in self.shared_roots and not (self.root and inside(self.git_dir, self.root)):
            self.shared_roots.append(self.git_dir)
        self._allow_patterns = list(allow)
        self._allow: PathPatterns | None = None
        self._own: list[str] | None = None
        self._own_boundaries: set[str] | None = None
        self.protect = PathPatterns([*DEFAULT_PROTECT, *protect], self.home, absolute=False)

    @property
    def allow(self) -> PathPatterns:
        """The allow-list, built when a path outside W and S is first judged (it finds the temp dirs)."""
        if self._allow is None:
            self._allow = PathPatterns([*DEFAULT_ALLOW, *temp_dirs(), *self._allow_patterns], self.home)
        return self._allow

    @property
    def own(self) -> list[str]:
        """worktree-guard's own directories and files (`own_paths`), found with the allow-list."""
        if self._own is None:
            self._own = own_paths(self.home)
        return self._own

    def touches_own(self, resolved: str) -> bool:
        """`resolved` is one of the guard's own paths, lies inside one, or holds one: moving, removing or replacing
        such a parent (`mv ~/.config x && ln -s mine ~/.config`, `cp -r evil/.config ~`) would put another in its
        place. HOME included, where it lies in the allow-list (CI, containers). The temp dirs and `/` themselves stay
        writable destinations (`cp x /tmp`); a tree copied or unpacked into the temp dir itself may still reach a
        HOME that lies directly below it (docs/configuration.md)."""
        if resolved in _DEVICES:
            return False  # a device holds no directory and lies in none of the guard's (`2>/dev/null`: no lookup)
        if any(inside(resolved, own) for own in self.own):
            return True
        if resolved in self.own_boundaries:
            return False
        return any(inside(own, resolved) for own in self.own)

    @property
    def own_boundaries(self) -> set[str]:
        """`/` and the temp dirs: they hold the guard's own paths and everything else too."""
        if self._own_boundaries is None:
            self._own_boundaries = {"/", *temp_dirs()}
        return self._own_boundaries

    def canonical(self, path: str, cwd: str) -> str:
        return canonical(path, cwd, self.home)

    def forms(self, path: str, cwd: str) -> list[str]:
        """The places `path` (as written, relative to `cwd`) may lead to: the canonical path (symlinks first,
        then `..`: the kernel's reading) and, when it differs, the `cleaned` one (`..` first: a client's)."""
        found = self._forms(path, cwd)
        for reading in made_link_readings():
            # the command makes symlinks (`ln -s /tmp t`): a link that may be the path itself or a name in it, and
            # the word read as if none were made (the `ln` may fail, or run after the word: `{ …; } & ln -s …`)
            with made_links_read_as(reading):
                found += [form for form in self._forms(path, cwd) if form not in found]
        return found

    def _forms(self, path: str, cwd: str) -> list[str]:
        physical = self.canonical(path, cwd)
        if ".." not in os.path.join(cwd, expand_user(path, self.home)).split("/"):
            return [physical]  # nothing to drop as text: one reading (and no second walk of the filesystem)
        textual = cleaned(path, cwd, self.home)
        return [physical] if textual == physical else [physical, textual]

    def judge(self, path: str, cwd: str, directory: bool = False) -> Judgement:
        """Place `path` (as written, relative to `cwd`) in §5.1's order: protected, W, S, allow-list, elsewhere;
        `directory`: as a directory something runs in (`cd`, `env -C`), which a descriptor is not.

        Every form of the path is placed (`forms`) and the worst place wins: the guard cannot know whether
        the program that opens the path resolves `..` before or after symlinks, so both must stay in.
        """
        judgements = [self.judge_resolved(form, directory) for form in self.forms(path, cwd)]
        return max(judgements, key=lambda j: _SEVERITY[j.place])

    def judge_resolved(self, resolved: str, directory: bool = False) -> Judgement:
        if own_process(resolved) and (directory or not descriptor(resolved)):
            # the process's own /proc directory or a descriptor of it, not the guard's: no place it can name (stop 36)
            return Judgement("outside", resolved)
        shared = deepest_root(resolved, self.shared_roots)
        # W wins over a shared root that holds it (the main checkout holds `.claude/worktrees/<W>`), but a
        # shared root nested inside W (a sibling worktree made inside it) is still someone else's checkout.
        if self.root is not None and inside(resolved, self.root) and not (shared is not None and inside(shared, self.root) and shared != self.root):
            relative = os.path.relpath(resolved, self.root)
            if relative != "." and self.protect.matches(relative):
                return Judgement("protected", resolved)
            return Judgement("inside", resolved)
        if shared is not None:
            return Judgement("shared", resolved, shared, self.counterpart(resolved, shared))
        if self.on_allow_list(resolved):
            return Judgement("allowed", resolved)
        return Judgement("outside", resolved)

    def on_allow_list(self, resolved: str) -> bool:
        """§5.1's allow-list step for a canonical path: listed, and none of the guard's own paths, nor a path through
        a process's own /proc directory (a descriptor itself, `/dev/fd/3`, is listed as a file to write)."""
        if own_process(resolved) and not descriptor(resolved):
            return False
        return self.allow.matches(resolved) and not self.touches_own(resolved)

    def counterpart(self, resolved: str, shared_root: str) -> str | None:
        """The path under W that corresponds to `resolved` under `shared_root`; None if that one is protected."""
        if self.root is None or shared_root == self.git_dir:
            return None
        relative = os.path.relpath(resolved, shared_root)
        if relative == ".":
            return self.root
        if self.protect.matches(relative):
            return None
        return os.path.join(self.root, relative)


#: The runtimes' own directories (variable naming it, else the directory under HOME), and the entries of one that are
#: protected (None: all of it): each holds the user-level hook configuration that starts the guard, and Claude Code's
#: holds the shell snapshot it sources before every Bash call (`shell-snapshots/`: a `cd <main>` appended there ran
#: every later call in the main checkout while the payload's cwd said W; shell-persistence observation, stop 27).
#: Claude Code's plans and transcripts (`plans/`, `projects/`) stay as the default allow-list has them.
RUNTIME_HOMES: tuple[tuple[str | None, str, tuple[str, ...] | None], ...] = (
    ("CLAUDE_CONFIG_DIR", ".claude", ("shell-snapshots", "settings.json", "settings.local.json", "plugins", "hooks")),
    ("CODEX_HOME", ".codex", None),
    ("COPILOT_HOME", ".copilot", None),
    (None, ".gemini", None),
    (None, ".cline", None),
    (None, ".cursor", None),
    (None, ".claude.json", None),
)


def runtime_homes(environ: dict[str, str]) -> list[str]:
    """The protected paths of the runtimes' directories (RUNTIME_HOMES) in this environment, absolute ones only."""
    found = []
    for variable, name, entries in RUNTIME_HOMES:
        given = environ.get(variable) if variable else None
        # `CODEX_HOME=~/x` (review 27b), as the installer reads it (hook_config.user_dir, without its pathlib)
        directory = expand_user(given, environ["HOME"]) if given else os.path.join(environ["HOME"], name)
        found.extend([directory] if entries is None else [os.path.join(directory, entry) for entry in entries])
    return [path for path in found if os.path.isabs(path)]


def own_paths(home: str) -> list[str]:
    """worktree-guard's own directories and files, canonical: its cache (parse tables, entry points), the daemons'
    sockets, the sub-agent and wave state, the user's configuration, and the runtimes' own directories (RUNTIME_HOMES:
    the hooks that start it, Claude Code's shell snapshot). What they hold decides what the guard does,
    so no write there (nor to a directory holding them) is allowed, whatever the allow-list says: a HOME or XDG
    directory under the temp dir would otherwise put them inside it. A configuration file named by
    WORKTREE_GUARD_USER_CONFIG is protected itself, not its directory; a path that is the temp dir, HOME or `/`
    is left out (the directory of a socket or a file named there stays writable, rather than the whole temp dir
    refused)."""
    from .client import socket_dir
    from .config import ENV_PREFIX, user_config_path
    from .private_dir import cache_root
    from .subagents.places import state_root

    environ = dict(os.environ)
    if not os.path.isabs(environ.get("HOME") or ""):
        environ["HOME"] = home
    config = user_config_path()
    found = [cache_root(environ), os.path.dirname(state_root(environ))]
    found.append(config if os.environ.get(ENV_PREFIX + "USER_CONFIG") else os.path.dirname(config))
    found.append(socket_dir(environ))
    found.extend(runtime_homes(environ))
    never = {"/", canonical(home, "/", home), *temp_dirs()}
    own = {canonical(path, "/", home) for path in found if os.path.isabs(path)}
    return sorted(own - never)
