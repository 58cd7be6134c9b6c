"""The records the walker hands to the shell rules: one simple command, one redirection, an unwrapping."""

from __future__ import annotations

import os
import re

from ..fast_dataclass import fast_dataclass, field
from ..paths import own_process, real
from . import words
from .ast import Assignment, Command, Redirect, Word
from .state import ENTRIES_PER_PATH, UNLISTED, ShellState


@fast_dataclass(slots=True)
class ShellCommand:
    """A simple command where it runs. `words` are the argv after unwrapping (`words[0]` is the name);
    `assignments` the `NAME=value` prefixes in force; `cwd` None when unknown; `via` the wrappers that led here."""

    node: Command
    words: list[Word]
    assignments: list[Assignment]
    cwd: str | None
    state: ShellState
    home: str
    depth: int = 0
    via: tuple[str, ...] = ()
    #: What this command runs, when it is a wrapper or runs code (`env -C d cmd`, `bash -c '…'`); set by the walker.
    unwrapped: Unwrapped | None = None
    #: git's reading of this command (`git_call.read_git_call`), made once: the git rule, the write table's git
    #: entry and the writes rule's unlisted names all read it.
    git_call: object = field(default=None, repr=False, compare=False)

    @property
    def name(self) -> str | None:
        """The static command name, without any directory (`/usr/bin/git` → `git`). None when it is computed,
        or when an option set earlier lets any name be an alias (`shopt -s expand_aliases`, `set -k`)."""
        if not self.words or self.state.options & NAME_OPTIONS:
            return None
        value = self.value(self.words[0])
        if value is None:
            return None
        name = value.rsplit("/", 1)[-1]
        hashed = self.state.hashed
        if hashed and "/" not in value and name not in BASH_BUILTINS and name not in self.state.functions:
            # `hash -p PATH NAME`: NAME now runs PATH (unknown when PATH, or which names were hashed, is).
            if "*" in hashed:
                return None
            if name in hashed:
                target = hashed[name]
                return None if target is None else target.rsplit("/", 1)[-1]
        return name

    @property
    def span(self) -> tuple[int, int]:
        return self.node.span

    def value(self, word: Word) -> str | None:
        """The word's static value with `~` expanded, or None when it is dynamic."""
        return word_value(word, self.state, self.home)

    def values(self) -> list[str | None]:
        return [self.value(w) for w in self.words]

    def env(self, name: str) -> tuple[bool, str | None]:
        """(set?, value) of a variable for this command: a prefix assignment first, then one made earlier.

        An earlier plain `NAME=v` counts even without `export`: the variable may already be exported in
        the agent's shell, so assuming the child does not see it would be a guess. The command's own prefixes
        expand left to right (`D=/x; D=<main>/.git GIT_DIR=$D git …` gives git <main>/.git); a wrapper's
        (`env GIT_DIR=$D`) are words the shell expanded before its prefixes applied. After a step that may have
        assigned a name only known at run time (`ShellState.names_unknown`), any variable may be set to anything.
        """
        for index in range(len(self.assignments) - 1, -1, -1):
            if self.assignments[index].name == name:
                return True, self._prefix_value(index)
        if name in self.state.variables:
            return True, self.state.variables[name]
        if self.state.names_unknown:
            return True, None  # a step assigned a name only known at run time: `export $(cat e)` may set GIT_DIR
        return False, None

    def names(self, name: str) -> bool:
        """Whether the command itself sets the variable (a prefix, or an assignment made earlier), rather than only
        a step assigning names only known at run time may have (`env` then says it is set to an unknown value)."""
        return name in self.state.variables or any(a.name == name for a in self.assignments)

    def named_env(self, name: str) -> tuple[bool, str | None]:
        """`env`, for a variable the command names (`names`); (False, None) for one only a step assigning names only
        known at run time may have set: a rule that reads many variables says that once (`state.NAMES_UNKNOWN`)."""
        return self.env(name) if self.names(name) else (False, None)

    def _prefix_value(self, index: int) -> str | None:
        assignment = self.assignments[index]
        own = {id(a) for a in getattr(self.node, "assignments", [])}
        earlier = [a for a in self.assignments[:index] if id(a) in own]
        if id(assignment) not in own or not earlier:
            return word_value(assignment.value, self.state, self.home)
        state = self.state.copy()
        for before in earlier:
            state.assign(before.name, word_value(before.value, state, self.home), before.append)
        return word_value(assignment.value, state, self.home)


@fast_dataclass(slots=True)
class ShellRedirect:
    """A redirection and the directory it is opened in."""

    redirect: Redirect
    cwd: str | None
    state: ShellState
    home: str

    @property
    def span(self) -> tuple[int, int]:
        return self.redirect.span

    def target(self) -> str | None:
        return word_value(self.redirect.target, self.state, self.home) if self.redirect.target is not None else None


@fast_dataclass(slots=True)
class Inner:
    """A command a wrapper runs: its argv, the directory it runs in, and added environment."""

    words: list[Word]
    cwd: str | None
    assignments: list[Assignment] = field(default_factory=list)
    label: str = ""
    same_shell: bool = False
    #: Variables the wrapper takes out of the environment before its own assignments (`env -u NAME`), and whether
    #: it starts from an empty one (`env -i`): the shell's prefixes of those names do not reach the command.
    unsets: tuple[str, ...] = ()
    clears: bool = False
    #: The wrapper's own option chose `cwd` (`env -C d`, `sudo -D d`): judged as a `cd` there (rules/cd.py).
    moves: bool = False


@fast_dataclass(slots=True)
class Script:
    """A string a command runs as shell code (`bash -c`, `eval`, a heredoc fed to a shell); `offset` is its span start."""

    source: str
    offset: int
    cwd: str | None
    label: str = ""
    same_shell: bool = False
    #: A program's environment variable holds it (`LESSOPEN`): the program it runs may find it there again.
    from_env: bool = False
    #: Whether the prefix assignments of the command that runs it are its environment (`X=1 bash -c`, `X=1 eval`);
    #: a trap's code runs later, without them.
    takes_prefixes: bool = True
    #: Options a new shell running it starts with, from its command line (`bash -O nocaseglob -c …`), as
    #: `ShellState.options` holds them (shell/invocation.py).
    options: frozenset[str] = frozenset()
    #: The program's own option chose `cwd` (`env -C d -S …`, `tmux neww -c d CMD`, or none where one would run it
    #: somewhere only known at run time): judged as a `cd` there (rules/cd.py).
    moves: bool = False


@fast_dataclass(slots=True)
class Unwrapped:
    """What an indirection rule found inside a command. `own_words`: how many of the command's words are the
    wrapper's own (its name, options and their values); the rest are what it runs. None: all of them."""

    inner: list[Inner] = field(default_factory=list)
    scripts: list[Script] = field(default_factory=list)
    own_words: int | None = None


def expand_tilde(value: str, state: ShellState, home: str) -> str | None:
    """The text after `~` as the parser gives it (`""`, `/x`, `user/x`, `+/x`, `-`) expanded, or None."""
    head, sep, tail = value.partition("/")
    if head == "":
        # bash expands `~` to $HOME as it is, empty too (`HOME=; git -C ~/repo …` is /repo: review 22f); an unknown
        # HOME is unknown; only an unset one is the passwd entry's (the hook's `home`)
        if "HOME" in state.variables:
            base = state.variables["HOME"]
        elif state.names_unknown:
            base = None  # a name only known at run time may have been HOME (review 32a)
        else:
            base = home
    elif head == "+":
        base = state.lookup("PWD")
    elif head == "-":
        base = state.lookup("OLDPWD")
    elif head.lstrip("+-").isdigit():
        return None
    else:
        import pwd

        try:
            base = pwd.getpwnam(head).pw_dir
        except KeyError:
            return "~" + value
    if base is None:
        return None
    return base + (sep + tail if sep else "")


#: Command substitutions whose output bash makes static (SPEC §5.2): `$(pwd)` where the cwd is known, and
#: `$(mktemp)` / `$(mktemp -d)` without a template (a fresh path in the temp dir). Each is read as a variable.
_KNOWN_SUBSTITUTION = re.compile(r"\$\(\s*(pwd(?:\s+-[LP])?|mktemp(?:\s+(?:-d|--directory))?)\s*\)|`\s*(pwd(?:\s+-[LP])?|mktemp(?:\s+(?:-d|--directory))?)\s*`")
_SUBSTITUTED = "WORKTREE_GUARD_SUBSTITUTED_"


def _known_substitutions(word: Word, state: ShellState) -> tuple[str, dict[str, str]] | None:
    """The word's raw text with every substitution replaced by a variable of known value; None unless all are known."""
    found: dict[str, str] = {}

    def replace(match: re.Match[str]) -> str:
        command = (match.group(1) or match.group(2)).split()
        if command[0] == "pwd":
            value = state.cwd
        else:
            tmpdir = state.lookup_word("TMPDIR")
            value = None if tmpdir is None else os.path.join("/tmp" if tmpdir in (words.UNSET, "") else tmpdir, "tmp.worktree-guard-mktemp")
        if value is None:
            return match.group(0)
        name = f"{_SUBSTITUTED}{len(found)}"
        found[name] = value
        return "${" + name + "}"

    raw = _KNOWN_SUBSTITUTION.sub(replace, word.raw)
    if len(found) != len(word.substitutions):
        return None
    return raw, found


def word_value(word: Word, state: ShellState, home: str) -> str | None:
    """A word's static value in this state, known variables substituted; None when dynamic."""
    value, tilde = word.value, word.tilde
    if value is None:
        if ("$" not in word.raw and "`" not in word.raw) or "IFS" in state.variables:
            return None  # with IFS changed, an unquoted expansion may split anywhere
        raw, lookup = word.raw, state.lookup_word
        if word.substitutions:
            known = _known_substitutions(word, state)
            if known is None:
                return None
            raw, extra = known
            lookup = lambda name: extra[name] if name in extra else state.lookup_word(name)  # noqa: E731
        value, tilde = words.word_value(raw, lookup)
        if value is None:
            return None
    if tilde:
        return expand_tilde(value, state, home)
    return value


#: More directory entries than this and a glob counts as unknown: reading them is not worth the time.
MAX_GLOB_ENTRIES = 2000
#: Shell options (shopt/set) that change what a glob matches: the guard then does not expand globs itself.
GLOB_OPTIONS = frozenset({"dotglob", "nullglob", "failglob", "globstar", "nocaseglob", "extglob", "noglob", "globasciiranges", "globskipdots", "*"})
#: bash 5.2's builtins (`enable -a`): they run before any program a `hash -p` names.
BASH_BUILTINS = frozenset(
    ". : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown "
    "echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile "
    "popd printf pushd pwd read readarray readonly return set shift shopt source suspend test times trap true "
    "type typeset ulimit umask unalias unset wait".split()
)
#: Options after which a command name may stand for something else: an alias, or an assignment word (`set -k`).
NAME_OPTIONS = frozenset({"expand_aliases", "keyword", "*"})


def glob_values(word: Word, state: ShellState) -> list[str] | None:
    """What a word whose only expansions are unquoted `*`, `?`, `[…]` in its last component expands to now.

    Expanded on the filesystem at check time, by reading one directory (the matches can change before the
    command runs: a documented time-of-check gap). No match: bash keeps the pattern itself. None — unknown —
    when the word has other expansions, a glob in a directory component (`/*/*/x` could walk the whole
    disk), or a directory with more than MAX_GLOB_ENTRIES entries.
    """
    if word.substitutions or globs_changed(state) or words.fnmatch_misreads(word.raw):
        return None  # `cp f t[[:alpha:]]-main` matched no link `to-main` to fnmatch, and wrote main (review 39a)
    pattern = words.glob_pattern(word.raw, state.lookup)
    if pattern is None:
        return None
    if not pattern.startswith("/"):
        if state.cwd is None:
            return None
        pattern = os.path.join(state.cwd, pattern)
    directory, _, last = pattern.rpartition("/")
    if words.has_glob_syntax(directory):
        return None
    import fnmatch

    directory = words.unescape_glob(directory) or "/"
    if own_process(directory):
        return None  # listed here it would be the guard's own cwd or descriptors, not the shell's (stop 36)
    work = state.globs
    if directory not in work.listings:
        work.listings[directory] = _listing(directory)
        work.charge(len(work.listings[directory] or ()) // ENTRIES_PER_PATH)
    names = work.listings[directory]
    if names is None:
        return None
    hidden_ok = last.startswith(".") or last.startswith("[.]")
    regex = re.compile(fnmatch.translate(words.bash_brackets(last)))
    matches = [os.path.join(directory, n) for n in names if regex.match(n) and (hidden_ok or not n.startswith("."))]
    # Every path is judged by the rule that asked: that is the work, counted each time (state.MAX_GLOB_PATHS).
    work.charge(len(matches))
    return matches or [os.path.join(directory, words.unescape_glob(last))]


def globs_changed(state: ShellState) -> bool:
    """An option set earlier changes what a glob matches (`shopt -s dotglob`, `nocaseglob`…), or GLOBIGNORE is set,
    which turns on dotglob (review 39b: `GLOBIGNORE=zz; cp f *hid` wrote through a link `.hid`)."""
    return bool(state.options & GLOB_OPTIONS) or "GLOBIGNORE" in state.variables


def _listing(directory: str) -> list[str] | None:
    """The sorted names in `directory` ([] when it cannot be read: bash then keeps the pattern), None when it
    has more than MAX_GLOB_ENTRIES entries."""
    names: list[str] = []
    try:
        with os.scandir(directory) as entries:
            for count, entry in enumerate(entries):
                if count >= MAX_GLOB_ENTRIES:
                    return None
                names.append(entry.name)
    except OSError:
        return []
    return sorted(names)


def brace_expanded(items: list[Word], state: ShellState) -> list[Word]:
    """The words after bash's brace expansion (`touch {a,b}.txt` runs `touch a.txt b.txt`): each field a word of
    its own, static when its text is. Words without an unquoted brace expansion are kept as they are."""
    if "+braceexpand" in state.options or "*" in state.options:
        return items
    out: list[Word] = []
    for word in items:
        fields = words.brace_fields(word.raw) if word.value is None and "{" in word.raw else None
        if fields is None:
            out.append(word)
            continue
        for raw in fields:
            value, tilde = words.word_value(raw)
            subs = word.substitutions if ("$(" in raw or "`" in raw or "<(" in raw or ">(" in raw) else []
            out.append(Word(raw=raw, span=word.span, value=value if not subs else None, substitutions=subs, tilde=tilde))
    return out


#: A command with more words than this is not split (each word's fields are capped by words.MAX_SPLIT_FIELDS).
MAX_WORDS_SPLIT = 1024


def field_split(items: list[Word], state: ShellState, declaration: bool = False) -> list[Word]:
    """The words after bash's word splitting (`X='rm -f a'; $X b` runs `rm -f a b`; an empty unquoted `$X` is no
    word at all): each field a static word of its own, which keeps the source text and span of the word it came
    from. Words whose expansions are not all known, or that splitting leaves as they are, are kept; so are all of
    them while IFS is set (the walker does not split at other characters: those words stay unknown), and, for a
    declaration builtin (`declaration`), words written as assignments (`NAME=$Y`)."""
    if "IFS" in state.variables:
        return items
    if len(items) > MAX_WORDS_SPLIT:
        return items  # left unknown, as a value with too many fields is
    out: list[Word] = []
    for word in items:
        fields = None
        # A word written as an assignment is not split when the command word is a declaration builtin (`export
        # X=$Y` gives X all of Y); for any other command it is (`cp X=$Y`, `dd if=$Y`: review 25a).
        if word.value is None and not word.substitutions and "$" in word.raw and not (declaration and words.ASSIGNMENT_PREFIX.match(word.raw)):
            fields = words.split_fields(word.raw, state.lookup_word)
        if fields is None:
            out.append(word)
            continue
        out.extend(Word(raw=word.raw, span=word.span, value=field) for field in fields)
    return out


#: `$NAME`, `${NAME}`, `${NAME:-word}` and kin: the parameters a command word may take from the agent's environment.
_PARAMETER = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-+=?][^}$`]*)?\}|([A-Za-z_][A-Za-z0-9_]*))")


_NUMBER_PARAMETER = re.compile(r"\$[$?!#]")
#: A parameter as `_PARAMETER` reads it, with the operator and word of `${X-w}`, `${X:+w}` … (the text it may give).
_PARAMETER_WORD = re.compile(r"\$\{[A-Za-z_][A-Za-z0-9_]*(?::?([-+=?])([^}$`]*))?\}|\$[A-Za-z_][A-Za-z0-9_]*")


def chosen_elsewhere(word: Word, state: ShellState) -> bool:
    """Whether a word that may be an option (`words.may_be_option`) is one the command cannot make an option (stop 30):
    a value the agent's environment gave (`inherited`: `"$HOME"`, `"${X}"`), or a glob none of whose names starts
    with `-` now (`*.md`, `"$HOME"/*.md`; with a file named `-t..` in W, `cp * dst/` copied into W's parent: the
    matches are read at check time, with globs' time-of-check gap). Never `~-`/`~+` ($OLDPWD, $PWD: the command may
    set them), an extglob, or a `${U:-…}` whose default the command wrote (`${U:--t<main>}`)."""
    raw = word.raw
    if raw.startswith(("~-", "~+")) or re.search(r"[?*+@!]\(|\$\{[A-Za-z_][A-Za-z_0-9]*:?[-=+]", raw):
        return False
    if raw.startswith("~"):
        head = raw[1:].partition("/")[0]
        if head[:1].isdigit() or (head == "" and "HOME" in state.variables):
            return False  # `~1` is the directory stack (`pushd`), `~` a HOME the command set (review 30b)
    if inherited(word, state):
        glob = re.search(r"[*?\[]", raw)
        if glob is None or ("$" in raw[: glob.start()] and "/" in raw[raw.index("$"): glob.start()]):
            return True  # the runtime's value, as before; or a glob after it and a `/` (`$DIR/*.trc`)
    return glob_names_no_option(word, state)


def glob_names_no_option(word: Word, state: ShellState) -> bool:
    """Whether a word is a glob (`*`, `?`, `[…]`; its parameters known, no other expansion) whose expansion starts
    with no `-` now: its known start is no `-` (`a*`, `/x/*`, `"$HOME"/*.md`), or every name it matches now starts
    otherwise (`*.md`; not `*` beside a file named `-t..`, nor a glob whose matches are not known, nor one that starts
    with a bracket, nor `"$NOPE"*`, whose parameter is not known)."""
    raw = word.raw
    if any(c in raw for c in "`{(") or raw.startswith("~") or word.substitutions:
        return False
    pattern = words.glob_pattern(raw, state.lookup)
    if pattern is None or not words.has_glob_syntax(pattern):
        return False
    if pattern[:1] not in "*?[-":
        return True
    if pattern[:1] == "[":
        return False  # bash's `[^…]` and `[[:class:]]` are not Python's (review 30a: `cp [^a]* d` read `-t..`)
    matches = glob_values(word, state)
    if matches is None or any(os.path.basename(match).startswith("-") for match in matches):
        return False
    made = written_matches(word, state)
    return made is not None and not any(os.path.basename(path).startswith("-") for path in made)


def written_matches(word: Word, state: ShellState) -> list[str] | None:
    """The paths the command wrote before that a glob in its last component matches (the listing read at check time
    does not hold them: `touch ./-t..; cp * d/`, review 30a); None when it wrote a path only known at run time."""
    import fnmatch

    pattern = words.glob_pattern(word.raw, state.lookup)
    if pattern is None or state.cwd is None and not pattern.startswith("/") or words.fnmatch_misreads(word.raw):
        return None
    directory, _, last = (pattern if pattern.startswith("/") else os.path.join(state.cwd or "/", pattern)).rpartition("/")
    directory = real(words.unescape_glob(directory) or "/")  # `written` holds canonical paths
    found: list[str] = []
    for path in state.written:
        if path is not None and path.startswith(UNLISTED):
            path = path[len(UNLISTED):] or None  # names made there are not known (`git checkout x -- .`: stop 31)
        if path is None or path == directory or directory.startswith(path.rstrip("/") + "/"):
            return None  # a write into the directory itself (`mv sub/-tup .`, `cp -r sub/. .`: review 30c)
        if os.path.dirname(path) == directory and fnmatch.fnmatchcase(os.path.basename(path), words.bash_brackets(last)):
            found.append(path)
    return found


def inherited(word: Word, state: ShellState) -> bool:
    """Whether every expansion in a word is a variable the command never assigned, while no step may have assigned a
    name only known at run time: its value is the one the runtime gave the agent's shell, not one the command built
    (`$(cat f)`, `X=$(…); $X`, `read X`). Review 25a: refusing those refused `$EDITOR f` and `$JAVA_HOME/bin/java`."""
    raw = word.raw
    if word.substitutions or "`" in raw or "$(" in raw or state.names_unknown:
        return False
    found = _PARAMETER.findall(raw)
    numbers = sum(match.count("$") for match in _NUMBER_PARAMETER.findall(raw))  # `$$`, `$?`, `$!`, `$#`: numbers
    if len(found) + numbers != raw.count("$") - raw.count("\\$"):
        return False  # another expansion, or a `$'…'` (review 40a F4: `$NOPE$'--target-directory=<main>'`)
    joined = raw.replace("\\\n", "")  # bash drops a line continuation first (review 40b G1: `$NOPE\\<newline>-delete`)
    bare = _PARAMETER_WORD.sub(lambda match: match.group(2) if match.group(1) in ("-", "+", "=") else "", joined)
    if not joined.lstrip("\"'").startswith("-") and bare.replace('"', "").replace("'", "").lstrip("\\").startswith("-"):
        return False  # text after the variable makes the word an option when it is empty or unset (review 40a F4:
        # `cp "$NOPE"--target-directory=<main> f`, `${NOPE:--delete}`); a word that starts with `-` shows it is one
    return all((braced or plain) not in state.variables and (braced or plain) not in SET_BY_BASH for braced, plain in found)


#: Variables bash itself sets from what the command reads or runs, without the command naming them (`read` without a
#: name sets REPLY, `mapfile` MAPFILE, `getopts` OPTARG, `[[ =~ ]]` BASH_REMATCH, every command `_`): the command's
#: values, never the runtime's (review 30a: `read < f; cp "$REPLY" README.md` copied into the main checkout).
SET_BY_BASH = frozenset({"REPLY", "MAPFILE", "OPTARG", "BASH_REMATCH", "_", "COPROC", "READLINE_LINE", "READLINE_ARGUMENT", "BASH_ARGV", "BASH_COMMAND", "BASH_EXECUTION_STRING", "FUNCNAME", "BASH_SOURCE"})
