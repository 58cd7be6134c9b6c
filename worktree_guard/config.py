"""The settings model and its layers: defaults, user file, project file, agent frontmatter, env, flags (SPEC §8)."""

from __future__ import annotations

import errno
import json
import os
import stat
from typing import Any, Literal

from .devices import is_null_device
from .fast_dataclass import fast_dataclass, field
from .records import ConfigDict, Field, Record, validation_error

ENV_PREFIX = "WORKTREE_GUARD_"
PROJECT_FILE = ".worktree-guard.toml"

# Claude Code tools that neither write, run commands nor dispatch agents: they pass unexamined.
DEFAULT_PASS_TOOLS = [
    "TodoWrite",
    "TodoRead",
    "WebFetch",
    "WebSearch",
    "ExitWorktree",
    "BashOutput",
    "KillShell",
    "KillBash",
    "TaskOutput",
    "TaskStop",
    "AskUserQuestion",
    "ExitPlanMode",
    "Skill",
    "SlashCommand",
    "ListMcpResourcesTool",
    "ReadMcpResourceTool",
]


class AgentSettings(Record):
    """Settings for one agent type (`[agents.<type>]`): what a worker of that type owns (SPEC §11)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    owns: list[str] | str | None = Field(default=None, description='pathspec patterns relative to the checkout root, or "none" (a read-only worker)')


class Settings(Record):
    """Every setting of the guard. Unknown keys are errors, so a typo never silently weakens the guard."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: Literal["enforce", "rewrite", "warn", "off"] = Field(
        default="enforce",
        description="enforce: deny violations; rewrite: move file-tool paths into W, deny the rest; warn: pass with a message; off: pass",
    )
    profile: Literal["default", "strict"] = Field(default="default", description="strict also refuses inline interpreters (WG405)")
    allow: list[str] = Field(default_factory=list, description="extra writable locations (pathspec patterns), added to the built-in list")
    protect: list[str] = Field(default_factory=list, description="paths inside W that are still refused (patterns relative to W), added to `.git`")
    reads: Literal["off", "warn", "deny"] = Field(default="off", description="confine Read/Glob/Grep/LS too (WG104)")
    on_parse_error: Literal["deny", "warn"] = Field(default="deny", description="what a command no parser handles gets (WG900), every PowerShell command included")
    allow_isolation_downgrade: bool = Field(default=False, description="let an isolated agent dispatch a non-isolated one (WG502)")
    runtime: Literal["auto", "claude-code", "agent-sdk", "codex", "gemini", "copilot", "cline", "cursor"] = Field(
        default="auto", description="which runtime's payload to expect; auto recognises it"
    )
    audit_log: str | None = Field(default=None, description="JSONL file that gets one line per verdict")
    worktree_root: str | None = Field(default=None, description="explicit W (SPEC §3 rule 1)")
    shared_roots: list[str] = Field(default_factory=list, description="extra shared roots added to the detected ones")
    isolated: bool | None = Field(default=None, description="force isolation on or off for this session")
    isolated_agents: list[str] = Field(default_factory=list, description="agent types that are isolated whatever their definition says")
    pass_tools: list[str] = Field(default_factory=lambda: list(DEFAULT_PASS_TOOLS), description="tool names that pass unexamined")
    owns: list[str] | str | None = Field(default=None, description='this agent\'s ownership (SPEC §11), usually from its definition\'s frontmatter: patterns, or "none"')
    agents: dict[str, AgentSettings] = Field(default_factory=dict, description="per agent type: `[agents.<type>] owns = [...]`")
    scratch: list[str] = Field(
        default_factory=lambda: ["__pycache__/", ".pytest_cache/", ".mypy_cache/", ".ruff_cache/", "node_modules/.cache/"],
        description="build and test caches any worker may write (patterns relative to the checkout root)",
    )
    stale_worker_after: float = Field(default=4 * 3600, gt=0, description="seconds after which a worker that never stopped is forgotten (a crashed one must not block the next wave)")


class ConfigError(Exception):
    """An invalid configuration value; the message names the source, the key and the reason."""


@fast_dataclass(slots=True)
class Layer:
    """One source of settings: its name for people, and the raw values it holds."""

    source: str
    values: dict[str, Any]


@fast_dataclass(slots=True)
class EffectiveConfig:
    """The validated settings and, for every key, the layer its value came from."""

    settings: Settings
    sources: dict[str, str] = field(default_factory=dict)


def _normalise_keys(values: dict[str, Any]) -> dict[str, Any]:
    return {str(k).replace("-", "_"): v for k, v in values.items()}


#: The largest config file read (a `pyproject.toml` can be large; a config is a few hundred bytes). Without a
#: bound, a config linked to /dev/zero made the hook read until the kernel killed it, and a killed hook lets the
#: call through.
MAX_CONFIG_FILE = 16 << 20


def _read_toml(path: str) -> dict[str, Any] | None:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)  # a FIFO must not block
    except (FileNotFoundError, NotADirectoryError):
        return None  # NotADirectory: nothing can be there (HOME=/dev/null, as some service accounts have)
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror}") from e
    try:
        status = os.fstat(fd)
        if stat.S_ISDIR(status.st_mode):
            raise ConfigError(f"{path}: cannot read: {os.strerror(errno.EISDIR)}")  # as open() says it
        if not stat.S_ISREG(status.st_mode) and not is_null_device(status):  # /dev/null: an empty config
            raise ConfigError(f"{path}: cannot read: not a regular file")
        with open(fd, "rb", closefd=False) as f:
            data = f.read(MAX_CONFIG_FILE + 1)
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror}") from e
    finally:
        os.close(fd)
    if len(data) > MAX_CONFIG_FILE:
        raise ConfigError(f"{path}: cannot read: larger than {MAX_CONFIG_FILE >> 20} MiB")
    import tomllib  # only when there is a file: most calls have none

    try:
        return tomllib.loads(data.decode())  # as tomllib.load does
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from e


def user_config_path() -> str:
    explicit = os.environ.get(ENV_PREFIX + "USER_CONFIG")
    if explicit and os.path.isabs(explicit):  # a relative one would be read from the hook's cwd, the agent's worktree
        return explicit
    base = os.environ.get("XDG_CONFIG_HOME") or ""
    if not os.path.isabs(base):  # the XDG spec: a relative value is ignored (it would be read from the agent's cwd)
        from .paths import absolute_home

        base = os.path.join(absolute_home(), ".config")
    return os.path.join(base, "worktree-guard", "config.toml")


def user_layer() -> Layer | None:
    path = user_config_path()
    data = _read_toml(path)
    return Layer(f"user file {path}", _normalise_keys(data)) if data else None


def project_layer(project_root: str | None) -> Layer | None:
    """`.worktree-guard.toml`, else `[tool.worktree-guard]` of `pyproject.toml`, at the project root."""
    if not project_root:
        return None
    path = os.path.join(project_root, PROJECT_FILE)
    data = _read_toml(path)
    if data is not None:
        return Layer(f"project file {path}", _normalise_keys(data))
    path = os.path.join(project_root, "pyproject.toml")
    data = _read_toml(path)
    if data is None:
        return None
    section = data.get("tool", {}).get("worktree-guard")
    if section is None:
        return None
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: [tool.worktree-guard] must be a table")
    return Layer(f"project file {path} [tool.worktree-guard]", _normalise_keys(section))


def _env_value(name: str, raw: str) -> Any:
    """Lists are JSON arrays or os.pathsep-separated; booleans true/false; everything else a string."""
    annotation = Settings.model_fields[name].annotation
    text = raw.strip()
    if "list" in str(annotation):
        if text.startswith("["):
            try:
                return json.loads(text)
            except json.JSONDecodeError as e:
                raise ConfigError(f"environment {ENV_PREFIX}{name.upper()}: not a JSON list: {e}") from e
        return [part for part in text.split(os.pathsep) if part]
    if "bool" in str(annotation):
        lowered = text.lower()
        if lowered in ("", "none", "null") and "None" in str(annotation):
            return None
        return lowered
    return text or None


def env_layer(environ: dict[str, str] | None = None) -> Layer | None:
    environ = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    names: list[str] = []
    for name in Settings.model_fields:
        key = ENV_PREFIX + name.upper()
        if key in environ:
            values[name] = _env_value(name, environ[key])
            names.append(key)
    for key in environ:
        if key.startswith(ENV_PREFIX) and key != ENV_PREFIX + "USER_CONFIG" and key[len(ENV_PREFIX):].lower() not in Settings.model_fields:
            raise ConfigError(f"environment {key}: unknown setting (known: {', '.join(sorted(Settings.model_fields))})")
    return Layer("environment " + ", ".join(names), values) if values else None


def resolve(layers: list[Layer]) -> EffectiveConfig:
    """Merge the layers (later wins, key by key), validate once, and name the culprit of any error."""
    merged: dict[str, Any] = {}
    sources: dict[str, str] = {name: "default" for name in Settings.model_fields}
    for layer in layers:
        for key, value in layer.values.items():
            merged[key] = value
            sources[key] = layer.source
    try:
        settings = Settings.model_validate(merged)  # pydantic judges every value it would not take as it is
    except validation_error() as e:
        problems = []
        for error in e.errors():
            key = str(error["loc"][0]) if error["loc"] else "?"
            where = sources.get(key, next((l.source for l in reversed(layers) if key in l.values), "configuration"))
            reason = "unknown setting" if error["type"] == "extra_forbidden" else error["msg"]
            dotted = ".".join(str(part) for part in error["loc"]) or key
            problems.append(f"{where}: key '{dotted}': {reason}")
        raise ConfigError("invalid configuration: " + "; ".join(problems)) from None
    return EffectiveConfig(settings=settings, sources={k: v for k, v in sources.items() if k in Settings.model_fields})


def load_config(
    project_root: str | None,
    *,
    frontmatter: Layer | None = None,
    flags: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
) -> EffectiveConfig:
    """All layers, lowest first: defaults, user file, project file, frontmatter, environment, flags."""
    layers = [
        layer
        for layer in (
            user_layer(),
            project_layer(project_root),
            frontmatter,
            env_layer(environ),
            Layer("command-line flags", _normalise_keys(flags)) if flags else None,
        )
        if layer is not None
    ]
    return resolve(layers)


_YES = ("1", "true", "yes", "on", "t", "y")


def claims_isolation(
    project_root: str | None,
    agent_type: str | None,
    *,
    frontmatter: dict[str, Any] | None = None,
    flags: dict[str, Any] | None = None,
    environ: dict[str, str] | None = None,
) -> bool:
    """Does any layer, read as written, make this agent isolated (`isolated = true`, or its type in
    `isolated_agents`)? For when the configuration as a whole is invalid and no Settings exist: a layer with a
    bad key elsewhere still says what it says about isolation, and unknown is never "not isolated". Only a yes
    counts (a file that does not parse says nothing; a broken pyproject.toml must not lock the main agent out
    of the write that fixes it), except the hook command's own flag, which argparse checked: it wins.
    """
    if flags and flags.get("isolated") is not None:
        return bool(flags["isolated"])
    environ = os.environ if environ is None else environ
    layers: list[dict[str, Any]] = []
    for read in (user_layer, lambda: project_layer(project_root)):
        try:
            layer = read()
        except ConfigError:
            continue
        if layer is not None:
            layers.append(layer.values)
    if frontmatter:
        layers.append(_normalise_keys(frontmatter))
    env = {name: environ[ENV_PREFIX + name.upper()] for name in ("isolated", "isolated_agents") if ENV_PREFIX + name.upper() in environ}
    if "isolated_agents" in env:
        try:
            env["isolated_agents"] = _env_value("isolated_agents", env["isolated_agents"])
        except ConfigError:
            del env["isolated_agents"]
    layers += [env, dict(flags or {})]
    for values in layers:
        isolated = values.get("isolated")
        if isolated is True or (isinstance(isolated, str) and isolated.strip().lower() in _YES):
            return True
        agents = values.get("isolated_agents")
        if agent_type and (agents == agent_type or (isinstance(agents, list) and agent_type in agents)):
            return True
    return False
