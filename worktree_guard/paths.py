"""Canonical paths, containment, and the allow- and protect-lists (SPEC §2)."""

from __future__ import annotations

import contextlib
import contextvars
import itertools
import os
import pwd
import re
from collections.abc import Iterable, Iterator

# Character devices and descriptors: resolving them would give /proc/<pid>/fd/… or pipe:[…], never a path a
# checkout can contain, so they are kept as written (lexically normalised).
_UNRESOLVED_PREFIXES = ("/dev/",)
#: The links to a process's own /proc directory, by the directory that holds them: /proc/self, /proc/thread-self,
#: /proc/net (self/net), /proc/mounts (self/mounts), /dev/fd (/proc/self/fd) and the standard streams (/proc/self/fd/N).
#: Each names the process that opens it — the shell, git, a program the command runs — never the guard: resolved in
#: the guard's process `/proc/self/cwd` was the guard's cwd, and `ln -s /proc/self/cwd l && cd .. && echo x >
#: a/l/../x` wrote W/.. while the guard read W/x (stop 36); `/dev/fd/3` is whatever the command opened as fd 3.
_OWN_PROCESS = {"proc": frozenset({"self", "thread-self", "net", "mounts"}), "dev": frozenset({"fd", "stdin", "stdout", "stderr"})}

DEFAULT_ALLOW = (
    "/dev/null",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/tty",
    "/dev/fd/*",
    "~/.claude/plans/**",
    "~/.claude/projects/**",
    "/tmp/claude-*/**",
)
#: The worktree's own `.git` (SPEC §2), and a `.git` at any depth inside W (a nested repository's, a submodule's):
#: git writes those, a file tool never needs to, and a hand-written one points git at another checkout.
DEFAULT_PROTECT = ("/.git", "/.git/**", "**/.git", "**/.git/**")

_GLOB_CHARS = frozenset("*?[")


def home_dir() -> str:
    """$HOME, or the passwd entry when HOME is unset (as bash does)."""
    return os.environ.get("HOME") or _passwd_home()


def absolute_home(environ: "dict[str, str] | os._Environ[str] | None" = None) -> str:
    """$HOME when it is absolute, else the passwd entry's, else `/`: where the guard's own files live. A relative
    HOME would put them in the hook's cwd, the agent's worktree."""
    home = (os.environ if environ is None else environ).get("HOME") or ""
    return home if os.path.isabs(home) else _passwd_home()


def _passwd_home() -> str:
    try:
        return pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:  # no passwd entry (a container's arbitrary uid)
        return "/"


def expand_user(path: str, home: str | None = None) -> str:
    """Expand a leading `~` or `~user`; anything else is returned unchanged."""
    if not path.startswith("~"):
        return path
    head, sep, tail = path.partition("/")
    if head == "~":
        base = home if home is not None else home_dir()
    else:
        try:
            base = pwd.getpwnam(head[1:]).pw_dir
        except KeyError:
            return path
    return base + (sep + tail if sep else "")


def literal_tilde(value: str | None) -> str | None:
    """A path from a shell word as the program gets it. The shell evaluator expanded every `~` that bash expands (and
    apply_patch expands none), so a `~` still leading a value is one bash left alone — quoted, escaped, an unknown
    user, `~$E`, after `=` in an option (`touch '~/a'`, `--out=~/a`) — and names a directory `~` where the program
    runs: `env -C <main> touch '~/.claude/plans/x'` passed, the path read as the allow-listed one under HOME
    (mutation phase 8; a shared-checkout worker's, phase 18)."""
    return "./" + value if value is not None and value.startswith("~") else value


def canonical(path: str, cwd: str, home: str | None = None) -> str:
    """Absolute, `~` expanded, joined to `cwd`, symlinks resolved on the longest existing prefix, `..` after that."""
    path = expand_user(path, home)
    if not os.path.isabs(path):
        path = os.path.join(cwd, path)
    return real(path)


def real(path: str) -> str:
    """Where absolute `path` leads: symlinks resolved on the longest existing prefix, `..` after that
    (`os.path.realpath`). A device is kept as written, lexically normalised; a path through a process's own /proc
    directory or descriptors (`own_process`) is kept as written from that link on, `..` included, and is no place
    the guard can name: in no worktree, allow-list or checkout (`policy`), save a descriptor itself as a file to
    write (`/dev/fd/3`, `/dev/stdout`, as the allow-list has them)."""
    split = _own_process_split(path)
    if split is not None:
        return "/" + "/".join(split[0] + [part for part in split[1] if part not in ("", ".")])
    lexical = os.path.normpath(path)
    if lexical.startswith(_UNRESOLVED_PREFIXES):
        return lexical
    return _resolved(path)


#: Links one path may pass through before the kernel gives up (ELOOP, Linux's MAXSYMLINKS).
_MAX_LINKS = 40


def _resolved(path: str) -> str:
    """`os.path.realpath` of absolute `path` (links resolved where they exist, a missing name and the `..` after it
    read as written), except that a link whose target leads, with the rest of the path, through a process's own /proc
    directory ends the walk there: that path is `real`'s to keep as written (a link made before, `pl -> /proc/self/cwd`,
    was followed into the guard's cwd: `cd .. && echo x > pl/../f` wrote W/.. while the guard read W/f; stop 37).
    Past `_MAX_LINKS` links the rest is kept as written, as `realpath` keeps a loop (the kernel opens neither)."""
    done, rest, links = "/", [part for part in path.split("/") if part not in ("", ".")], 0
    made = _made_reading()
    while rest:
        name = rest.pop(0)
        if name == "..":
            done = os.path.dirname(done)
            continue
        step = os.path.join(done, name)
        target = made.get(step) if made else None
        if target is None:
            try:
                target = os.readlink(step)
            except OSError:
                done = step  # not a link (EINVAL), or missing, or unreadable: read as written, as realpath does
                continue
        links += 1
        if links > _MAX_LINKS:
            return os.path.normpath(os.path.join(step, *rest))
        after = os.path.join(done, target, *rest)
        if _own_process_split(after) is not None:
            return real(after)
        if target.startswith("/"):
            done = "/"
        rest[:0] = [part for part in target.split("/") if part not in ("", ".")]
    return done


class MadeLinks:
    """The symlinks the command being judged makes itself, for the words after them (stop 39: `ln -s /tmp t; echo x >
    t/../work/main/README.md` wrote the main checkout while the guard read W/work/main/README.md, `t` not being a link
    yet when the command was judged). Each is kept by its path (its directory canonical, its name as written) with its
    text, read from the link's directory as the kernel reads a link's (`_resolved`).

    `links`: where the link's place is known. `as_link`/`as_directory`: where it depends on whether a path is a
    directory when the command runs (`touch d; ln -s T d` links d itself, `mkdir d; ln -s T d` makes d/T's name), the
    two readings of each such link: `real` takes the directory one, `PathPolicy.forms` places both. A place may get
    several links over the command (`ln -sfn A t; ln -sfn B t`, a loop): each text is kept, in order; `real` takes the
    last, and `forms` each of them (review 39b: the first one alone was kept, and `t/..` read from it)."""

    __slots__ = ("links", "as_link", "as_directory", "steps", "trees")

    def __init__(self) -> None:
        self.links: dict[str, list[str]] = {}
        self.as_link: dict[str, list[str]] = {}
        self.as_directory: dict[str, list[str]] = {}
        #: What each step read added (`shell.links`), by the step: walked again, a step is read again without its own
        #: links (it would find the link it makes itself), and what it adds then is kept beside.
        self.steps: dict[tuple, list[tuple[str, str, str]]] = {}
        #: The symlinks on disk below a directory moved or copied whole (`shell.links`), read once a command.
        self.trees: dict[str, list[tuple[str, str]] | None] = {}

    def __len__(self) -> int:
        return sum(len(texts) for kind in (self.links, self.as_link, self.as_directory) for texts in kind.values())

    def add(self, link: str, text: str, record: list[tuple[str, str, str]] | None = None) -> None:
        """`link` (absolute, its directory canonical) will be a symlink holding `text`."""
        self._add("links", link, text, record)

    def add_either(self, path: str, name: str, text: str, record: list[tuple[str, str, str]] | None = None) -> None:
        """The link is `path` itself, or `path/name` if `path` is a directory by then (ln's last operand; no `name`:
        none is made in a directory)."""
        self._add("as_link", path, text, record)
        if name:
            self._add("as_directory", os.path.join(path, name), text, record)

    def _add(self, kind: str, path: str, text: str, record: list[tuple[str, str, str]] | None) -> None:
        texts = getattr(self, kind).setdefault(path, [])
        if text not in texts:
            texts.append(text)
            if record is not None:
                record.append((kind, path, text))

    def texts(self, path: str) -> list[str]:
        """Every text a link the command makes at `path` may hold (in any reading)."""
        return [text for kind in (self.links, self.as_link, self.as_directory) for text in kind.get(path, ())]

    def below(self, directory: str) -> list[tuple[str, str]]:
        """The links made below `directory`, as (path, text)."""
        prefix = directory.rstrip("/") + "/"
        return [(path, text) for kind in (self.links, self.as_link, self.as_directory) for path, texts in kind.items() if path.startswith(prefix) for text in texts]

    @contextlib.contextmanager
    def without(self, entries: list[tuple[str, str, str]]) -> Iterator[None]:
        """Meanwhile, as if `entries` were not made (a step read again: its own links are not there before it)."""
        taken: list[tuple[str, str, int, str]] = []
        for kind, path, text in entries:
            texts = getattr(self, kind).get(path, [])
            if text in texts:
                taken.append((kind, path, texts.index(text), text))
                texts.remove(text)
        try:
            yield
        finally:
            for kind, path, index, text in reversed(taken):
                texts = getattr(self, kind).setdefault(path, [])
                if text not in texts:  # made again meanwhile: kept where it was made again
                    texts.insert(min(index, len(texts)), text)


#: The links made so far by the command being judged (`made_links`), None outside the walk of a command.
_MADE: contextvars.ContextVar[MadeLinks | None] = contextvars.ContextVar("made_links", default=None)
#: Which reading of the made links `real` takes: (kind, choice). kind "directory" (the default) or "link"
#: (`MadeLinks.as_link`), with `choice` the text each place linked more than once has ((place, index) pairs; every
#: other place its last text); or "none" (as if the command made none: it may fail, or run after the word: `{ …; } &
#: ln -s …`).
_READING: contextvars.ContextVar[tuple[str, tuple[tuple[str, int], ...]]] = contextvars.ContextVar("made_links_reading", default=("directory", ()))
#: The readings `PathPolicy.forms` places at most; a command whose links have more is refused (WG901: `rules.bash`).
MAX_MADE_READINGS = 64


@contextlib.contextmanager
def made_links(links: MadeLinks | None = None) -> Iterator[MadeLinks]:
    """While the command is walked: `real` reads the paths `links` holds (a new, empty one by default) as the symlinks
    the command makes."""
    links = MadeLinks() if links is None else links
    token = _MADE.set(links)
    try:
        yield links
    finally:
        _MADE.reset(token)


def current_made_links() -> MadeLinks | None:
    """The links the command being walked makes (None outside a walk)."""
    return _MADE.get()


@contextlib.contextmanager
def made_links_read_as(reading: tuple[str, tuple[tuple[str, int], ...]]) -> Iterator[None]:
    """`real` takes another reading of the made links meanwhile (see `_READING`)."""
    token = _READING.set(reading)
    try:
        yield
    finally:
        _READING.reset(token)


def made_link_readings() -> list[tuple[str, tuple[tuple[str, int], ...]]]:
    """The readings of the made links other than `real`'s own that may place a path elsewhere: none when the command
    made no link (every path has one reading, as before). Each place linked more than once takes each of its texts,
    in every combination with the others' (review 39c: `ln -s B A; ln -s src/a B; test -e x && ln -sfn src A; ln -sfn
    /tmp B` makes A's first text with B's last), up to MAX_MADE_READINGS (past it, `too_many_readings`)."""
    made = _MADE.get()
    if not made or _READING.get() != ("directory", ()):
        return []
    readings: list[tuple[str, tuple[tuple[str, int], ...]]] = []
    for kind in ("directory", "link") if made.as_link else ("directory",):
        for choice in _choices(_texts_by_place(made, kind)):
            if kind == "link" or any(index != last for _, index, last in choice):
                readings.append((kind, tuple((place, index) for place, index, _ in choice)))
    return readings[: MAX_MADE_READINGS] + [("none", ())]


def too_many_readings(made: MadeLinks) -> bool:
    """The places the command links more than once have more readings together than `PathPolicy.forms` places."""
    return any(len(_choices(_texts_by_place(made, kind))) > MAX_MADE_READINGS for kind in ("directory", "link"))


def _choices(texts: dict[str, list[str]]) -> list[tuple[tuple[str, int, int], ...]]:
    """Every choice of one text for each place that has several, as (place, index, its last index), up to one past
    MAX_MADE_READINGS."""
    several = sorted((place, len(found)) for place, found in texts.items() if len(found) > 1)
    choices = []
    for indexes in itertools.product(*(range(count) for _, count in several)):
        choices.append(tuple((place, index, count - 1) for (place, count), index in zip(several, indexes)))
        if len(choices) > MAX_MADE_READINGS:
            break
    return choices


def _texts_by_place(made: MadeLinks, kind: str) -> dict[str, list[str]]:
    """Each place's texts in one reading: the links whose place is known, then the reading's own (`MadeLinks`)."""
    chosen = made.as_link if kind == "link" else made.as_directory
    merged = {path: list(texts) for path, texts in made.links.items()}
    for path, texts in chosen.items():
        merged.setdefault(path, []).extend(text for text in texts if text not in merged[path])
    return merged


def _made_reading() -> dict[str, str] | None:
    made = _MADE.get()
    if not made:
        return None
    kind, choice = _READING.get()
    if kind == "none":
        return None
    chosen = dict(choice)
    return {path: texts[chosen.get(path, -1)] for path, texts in _texts_by_place(made, kind).items() if texts}


def own_process(path: str) -> bool:
    """Absolute `path` goes through one of the links to a process's own /proc directory (`_OWN_PROCESS`)."""
    return _own_process_split(path) is not None


def _own_process_split(path: str) -> tuple[list[str], list[str]] | None:
    """(the parts up to the link to a process's own /proc directory, the parts after it), or None when `path` goes
    through none. Up to the link `..` is read as written: /proc, /proc/<pid> and /dev are directories
    (`/proc/1/../self/cwd` is /proc/self/cwd); after it, only the process that opens the path can tell. Right after
    a `..`, the names `proc` then `self` (or `dev` then `fd`, …) count wherever the `..` leads, the whole path kept."""
    if "/proc" not in path and "/dev" not in path:
        return None  # every path the guard judges comes here: no component named proc or dev, no such link
    stack: list[str] = []
    seen: list[str] = []
    parts = path.split("/")
    for i, part in enumerate(parts):
        if part in ("", "."):
            continue
        if part == "..":
            stack = stack[:-1]
        else:
            stack.append(part)
            if len(stack) == 2 and (part in _OWN_PROCESS.get(stack[0], ()) or (stack[0] == "proc" and part.isdigit())):
                # a pid's directory too: its cwd, root and descriptors change after the guard reads them (review 38:
                # `make -C /proc/<pid>/fd/3` of a process that opened `3<../../..` after the call was judged)
                return stack, parts[i + 1:]
            if seen[-2:-1] == [".."] and part in _OWN_PROCESS.get(seen[-1], ()):
                # a `..` climbs from where a link led (`/var/run/../proc/self`: /var/run is /run, so its `..` is `/`):
                # a link's directory right after a `..`, then its name, kept as written (review 36b)
                return [], parts
        seen.append(part)
    return None


#: What a process's own /proc directory holds that leads to other places: its cwd, root, descriptors (a directory
#: opened as one), executable, mapped files, threads (each with all of these).
_LEADS_ELSEWHERE = frozenset({"cwd", "root", "fd", "exe", "map_files", "task"})


def own_process_place(path: str) -> bool:
    """`path` (as `real` keeps it) goes through a process's own /proc directory to a place the guard cannot name: its
    cwd, root, a thread's, below a descriptor (`/dev/fd/3/x`, `/dev/stdin/x`), or up with `..`. Not a file of it
    (`/proc/self/status`, `/proc/net/tcp`), nor a descriptor (`/dev/fd/3`, `/proc/self/fd/3`: see `as_descriptor`)."""
    split = _own_process_split(path)
    if split is None or descriptor(as_descriptor(path)):
        return False
    link, rest = split[0], [part for part in split[1] if part not in ("", ".")]
    if not link or ".." in rest:
        return True  # a link's name right after a `..` (`/var/run/../proc/self`), or a climb from where it leads
    if link[0] == "dev":
        return bool(rest) or link[1] == "fd"  # below a descriptor; /dev/fd itself holds every descriptor (review 37c)
    if not rest:
        return link[1] in ("self", "thread-self") or link[1].isdigit()  # the directory itself holds cwd/ and root/ (review 37c: an archive
        # extracted into /proc/self wrote <main> through root/)
    return rest[0] in _LEADS_ELSEWHERE


def as_descriptor(path: str) -> str:
    """`/proc/self/fd/N` (or thread-self's) as the descriptor `/dev/fd/N` it is; any other path unchanged."""
    parts = path.split("/")
    if len(parts) == 5 and parts[1] == "proc" and parts[2] in ("self", "thread-self") and parts[3] == "fd" and parts[4].isdigit():
        return "/dev/fd/" + parts[4]
    return path


#: Where a process's own /proc directory starts: a path only known at run time whose text starts with a beginning of
#: one of these may still become it (`/proc/` then `$$`, `/dev/s` then `$X`).
_OWN_PROCESS_STARTS = ("/proc/self", "/proc/thread-self", "/proc/net", "/proc/mounts", "/dev/fd", "/dev/stdin", "/dev/stdout", "/dev/stderr")


def may_become_own_process(start: str) -> bool:
    """A path whose text begins with `start` (absolute, canonical up to its last `/`) and goes on with what is only
    known at run time may lead through a process's own /proc directory: `start` is in one already, or begins one, or
    a pid's directory (`/proc/12`: the shell's `$$` is a pid) (review 37b/37c)."""
    if own_process(start):
        return True
    return start != "/" and (any(whole.startswith(start) for whole in _OWN_PROCESS_STARTS) or _PID_START.fullmatch(start) is not None)


_PID_START = re.compile(r"/proc/[0-9]*")


def descriptor(path: str) -> bool:
    """`path` (as `real` keeps it) is a descriptor of the process itself, a file to write: `/dev/fd/N`, `/dev/stdin`,
    `/dev/stdout`, `/dev/stderr`; never a directory the guard can name."""
    parts = path.split("/")[1:]
    return parts[:1] == ["dev"] and (parts[1:] in (["stdin"], ["stdout"], ["stderr"]) or len(parts) == 3 and parts[1] == "fd" and parts[2].isdigit())


def cleaned(path: str, cwd: str, home: str | None = None) -> str:
    """Where a client that cleans the path as text before it opens it writes: `..` collapsed first (`a/..` is
    dropped whatever `a` is), then symlinks resolved, as `canonical` does for the rest of the path.

    Codex, Copilot, Gemini CLI and Cline were seen to resolve a file tool's path this way (Node's
    `path.resolve`, Rust's path absolutizing); the kernel does not. The two differ only when a `..` follows a
    symlink.
    """
    path = expand_user(path, home)
    if not os.path.isabs(path):
        path = os.path.join(cwd, path)
    return canonical(os.path.normpath(path), "/", home)


def inside(path: str, root: str) -> bool:
    """True when canonical `path` is `root` or below it, component-wise (`/repo-evil` is not inside `/repo`)."""
    if path == root:
        return True
    if root == "/":
        return path.startswith("/")
    return path.startswith(root + "/")


def deepest_root(path: str, roots: Iterable[str]) -> str | None:
    """The deepest of `roots` that holds `path` (sibling worktrees often live inside the main checkout)."""
    best = None
    for root in roots:
        if inside(path, root) and (best is None or len(root) > len(best)):
            best = root
    return best


def _canonical_pattern(pattern: str, home: str | None) -> str:
    """Resolve the literal directory prefix of an absolute pattern, so `/tmp/x*` matches on macOS' /private/tmp."""
    pattern = os.path.expandvars(expand_user(pattern, home))
    if not pattern.startswith("/") or pattern.startswith(_UNRESOLVED_PREFIXES):
        return pattern
    parts = pattern.split("/")
    literal: list[str] = []
    for part in parts[1:]:
        if _GLOB_CHARS & set(part):
            break
        literal.append(part)
    prefix = "/" + "/".join(literal)
    rest = parts[1 + len(literal):]
    resolved = os.path.realpath(prefix)
    return "/".join([resolved.rstrip("/")] + rest) if rest else resolved


class PathPatterns:
    """A list of gitignore-style patterns (pathspec) for absolute paths; a plain directory covers its tree.

    pathspec is imported and the patterns compiled only when a path needs them: a list of literal patterns
    (`/.git`, `/.git/**`, `**/.git`, `**/.git/**`: the default protect-list) is matched as pathspec matches them, without it
    (tests/test_records.py compares both)."""

    def __init__(self, patterns: Iterable[str], home: str | None = None, *, absolute: bool = True) -> None:
        lines: list[str] = []
        for raw in patterns:
            pattern = _canonical_pattern(raw, home) if absolute else raw
            lines.append(pattern)
            if absolute and not (_GLOB_CHARS & set(pattern)) and not pattern.startswith(_UNRESOLVED_PREFIXES):
                lines.append(pattern.rstrip("/") + "/**")
        self.patterns = lines
        self._spec: object | None = None
        self._literal = _anchored_literals(lines)

    def matches(self, path: str) -> bool:
        """True when `path` (absolute, or relative for a protect-list) matches one of the patterns."""
        if not self.patterns:
            return False
        from . import records

        if self._literal is not None and records.FAST_PATH and _plain(path):
            bare = path.lstrip("/")
            parts = bare.split("/")
            return any(_literal_matches(pattern, bare, parts) for pattern in self._literal)
        if self._spec is None:
            import pathspec

            self._spec = pathspec.PathSpec.from_lines("gitignore", self.patterns)
        return bool(self._spec.match_file(path))  # type: ignore[attr-defined]


def _anchored_literals(lines: list[str]) -> list[tuple[bool, str, bool]] | None:
    """(anywhere, literal, below only) for each pattern when every one is `/LITERAL`, `/LITERAL/**`, `**/NAME` or
    `**/NAME/**` (NAME one component); else None.

    gitignore (pathspec) matches `/L` on L and everything below it, `/L/**` on everything below L only, `**/N` on
    a component N at any depth and everything below it, `**/N/**` on everything below such a component."""
    out: list[tuple[bool, str, bool]] = []
    for line in lines:
        body, below = (line[:-3], True) if line.endswith("/**") else (line, False)
        anywhere = body.startswith("**/")
        literal = body[3:] if anywhere else body[1:]
        if not (anywhere or body.startswith("/")) or not literal or (anywhere and "/" in literal):
            return None
        if not _plain(literal) or _GLOB_CHARS & set(literal) or "\\" in literal or literal.endswith("/") or literal.startswith("/"):
            return None
        out.append((anywhere, literal, below))
    return out


def _literal_matches(pattern: tuple[bool, str, bool], bare: str, parts: list[str]) -> bool:
    anywhere, literal, below = pattern
    if not anywhere:
        return bare.startswith(literal + "/") or (not below and bare == literal)
    last = len(parts) - 1 if below else len(parts)  # below only: the component must have something under it
    return literal in parts[:last]


def _plain(path: str) -> bool:
    """A path with no `.`/`..` or empty components and no backslash, which pathspec would not rewrite."""
    if "\\" in path or "//" in path or path.startswith("!") or path.startswith("#"):
        return False
    return all(part not in (".", "..") for part in path.split("/"))


def temp_dirs() -> list[str]:
    """The system temp dir and $TMPDIR, both canonical."""
    import tempfile  # only when a path outside W and S is judged: it costs milliseconds

    dirs = {os.path.realpath(tempfile.gettempdir())}
    tmpdir = os.environ.get("TMPDIR")
    if tmpdir and os.path.isabs(tmpdir):
        dirs.add(os.path.realpath(tmpdir))
    return sorted(dirs)
