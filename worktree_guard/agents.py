"""Agent definition files (`.claude/agents/**/*.md`), found the way Claude Code finds them (SPEC §4)."""

from __future__ import annotations

import errno
import os
import stat
from typing import Any

from .fast_dataclass import fast_dataclass, field

ISOLATION_ALIASES = {"worktree", "work_tree", "work-tree"}
NO_ISOLATION = {"none"}


class AgentDefinitionError(Exception):
    """A definition file that exists but cannot be read; the message names the file."""


@fast_dataclass(slots=True)
class AgentDefinition:
    """What the guard reads from one agent definition: its file, isolation, and `worktree-guard:` mapping."""

    path: str
    name: str
    isolation: str | None
    guard_settings: dict[str, Any] = field(default_factory=dict)

    @property
    def isolated(self) -> bool:
        return (self.isolation or "").strip().lower() in ISOLATION_ALIASES


def _open_regular(path: str, flags: int) -> int:
    """open()'s opener: without blocking (a FIFO), and only a regular file (not /dev/zero, not a FIFO)."""
    fd = os.open(path, flags | os.O_NONBLOCK | os.O_NOCTTY)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError(errno.EINVAL, "not a regular file", path)
    return fd


def read_frontmatter(path: str) -> dict[str, Any] | None:
    """The YAML mapping between the leading `---` lines of a Markdown file; None when there is none."""
    try:
        with open(path, encoding="utf-8", opener=_open_regular) as f:
            text = f.read(256 * 1024)
    except (OSError, UnicodeDecodeError) as e:
        raise AgentDefinitionError(f"{path}: cannot read: {e}") from e
    if not text.startswith("---"):
        return None
    lines = text.splitlines()
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        return None
    import yaml

    try:
        data = yaml.load("\n".join(lines[1:end]), Loader=_yaml12_loader())  # noqa: S506 — a SafeLoader subclass
    except yaml.YAMLError as e:
        raise AgentDefinitionError(f"{path}: frontmatter is not valid YAML: {e}") from e
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise AgentDefinitionError(f"{path}: frontmatter is not a mapping")
    return data


_LOADER: Any = None


def _yaml12_loader() -> Any:
    """PyYAML's SafeLoader with YAML 1.2's booleans (`true`/`false` only), as Claude Code reads frontmatter.

    PyYAML reads YAML 1.1, where `off`, `on`, `yes` and `no` are booleans: `mode: off` in a definition's
    `worktree-guard:` mapping became `False`, an invalid mode, and every call of that agent a WG000."""
    global _LOADER
    if _LOADER is None:
        import re

        import yaml

        bool_tag = "tag:yaml.org,2002:bool"

        class Yaml12Loader(yaml.SafeLoader):
            yaml_implicit_resolvers = {
                first: [(tag, regexp) for tag, regexp in resolvers if tag != bool_tag]
                for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
            }

        def compose_node(self: Any, parent: Any, index: Any) -> Any:
            # No aliases: nine nested `*a` lists in 500 bytes expand to a billion items (the "billion laughs").
            if self.check_event(yaml.AliasEvent):
                raise yaml.composer.ComposerError(None, None, "an alias (*name) is not read in agent frontmatter", self.peek_event().start_mark)
            return yaml.SafeLoader.compose_node(self, parent, index)

        Yaml12Loader.compose_node = compose_node
        Yaml12Loader.add_implicit_resolver(bool_tag, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
        _LOADER = Yaml12Loader
    return _LOADER


def agent_dirs(cwd: str, home: str | None = None) -> list[str]:
    """Project `.claude/agents/` walking up from cwd (nearest first), then the user's `~/.claude/agents/`."""
    dirs = []
    current = cwd
    while True:
        candidate = os.path.join(current, ".claude", "agents")
        if os.path.isdir(candidate):
            dirs.append(candidate)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    config_dir = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(home or os.path.expanduser("~"), ".claude")
    user = os.path.join(config_dir, "agents")
    if os.path.isdir(user) and user not in dirs:
        dirs.append(user)
    return dirs


#: The most entries looked at below one agents directory.
MAX_DEFINITION_ENTRIES = 10_000


def _candidates(directory: str, agent_type: str) -> list[str]:
    """`<name>.md` first (the usual case, one stat), then every other Markdown file below the directory."""
    direct = os.path.join(directory, agent_type + ".md")
    found = [direct] if os.path.isfile(direct) else []
    seen = 0
    for root, subdirs, files in os.walk(directory):
        seen += len(subdirs) + len(files)
        if seen > MAX_DEFINITION_ENTRIES:  # `.claude/agents -> /` would walk the whole filesystem on every call
            raise AgentDefinitionError(f"{directory}: more than {MAX_DEFINITION_ENTRIES} entries, so its agent definitions cannot be read")
        subdirs.sort()
        for name in sorted(files):
            path = os.path.join(root, name)
            if name.endswith(".md") and path != direct:
                found.append(path)
    return found


def find_agent_definition(agent_type: str, cwd: str, home: str | None = None, skip: Any = None) -> AgentDefinition | None:
    """The definition whose frontmatter `name` is `agent_type`; the nearest scope wins. `skip(path)`: files not to
    read (those the agent could have written itself: engine.scope_for)."""
    if not agent_type or "/" in agent_type or agent_type.startswith("."):
        return None
    for directory in agent_dirs(cwd, home):
        for path in _candidates(directory, agent_type):
            if skip is not None and skip(path):
                continue
            data = read_frontmatter(path)
            if data is None:
                continue
            name = data.get("name", os.path.splitext(os.path.basename(path))[0])
            if str(name) != agent_type:
                continue
            isolation = data.get("isolation")
            if isolation is not None and str(isolation).strip().lower() not in ISOLATION_ALIASES | NO_ISOLATION:
                # Unknown is never "not isolated": a typo (`worktre`) or a mode the guard does not know (`remote`)
                # makes the definition invalid, and an invalid definition is a refusal (WG000), as invalid
                # configuration is (SPEC §8).
                known = ", ".join(sorted(ISOLATION_ALIASES)) + " (isolated) or none"
                raise AgentDefinitionError(f"{path}: `isolation: {isolation}` is not a value worktree-guard knows ({known})")
            guard = data.get("worktree-guard", data.get("worktree_guard")) or {}
            if not isinstance(guard, dict):
                raise AgentDefinitionError(f"{path}: `worktree-guard:` must be a mapping")
            return AgentDefinition(
                path=path,
                name=str(name),
                isolation=None if isolation is None else str(isolation),
                guard_settings=guard,
            )
    return None
