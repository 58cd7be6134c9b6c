"""config.py exactly: each layer's value and name, every error's text, the order of the layers, and what
claims_isolation reads when the configuration as a whole is invalid — the rows that phase 14 of issue 13 (mutation
testing, docs/testing.md) found missing."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from worktree_guard import config
from worktree_guard.config import (
    ConfigError,
    Layer,
    Settings,
    _env_value,
    _normalise_keys,
    _read_toml,
    claims_isolation,
    env_layer,
    load_config,
    project_layer,
    resolve,
    user_config_path,
    user_layer,
)

KNOWN = ", ".join(sorted(Settings.model_fields))


@pytest.fixture
def user_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "user" / "config.toml"
    path.parent.mkdir()
    monkeypatch.setenv("WORKTREE_GUARD_USER_CONFIG", str(path))
    return path


# --- values ------------------------------------------------------------------------------------------------------


def test_normalise_keys() -> None:
    assert _normalise_keys({"a-b-c": 1, "d_e": 2, 3: 4}) == {"a_b_c": 1, "d_e": 2, "3": 4}


@pytest.mark.parametrize("name,raw,expected", [
    ("allow", ' ["a", "b"] ', ["a", "b"]),
    ("allow", f"a{os.pathsep}b{os.pathsep}{os.pathsep}c d", ["a", "b", "c d"]),
    ("owns", f"src{os.pathsep}docs", ["src", "docs"]),
    ("owns", "none", ["none"]),
    ("isolated", " TRUE ", "true"),
    ("isolated", "no", "no"),
    ("isolated", "", None),
    ("isolated", " None ", None),
    ("isolated", "NULL", None),
    ("allow_isolation_downgrade", "none", "none"),
    ("allow_isolation_downgrade", "", ""),
    ("allow_isolation_downgrade", "Yes", "yes"),
    ("mode", " Warn ", "Warn"),
    ("audit_log", "  ", None),
    ("audit_log", " /x ", "/x"),
    ("stale_worker_after", " 5 ", "5"),
])
def test_env_values(name: str, raw: str, expected: object) -> None:
    assert _env_value(name, raw) == expected


def test_env_value_a_bad_json_list_is_named() -> None:
    with pytest.raises(ConfigError) as raised:
        _env_value("isolated_agents", "[a")
    assert str(raised.value).startswith("environment WORKTREE_GUARD_ISOLATED_AGENTS: not a JSON list: Expecting value")


def test_env_layer_names_its_variables_in_the_models_order(monkeypatch: pytest.MonkeyPatch) -> None:
    environ = {"WORKTREE_GUARD_ALLOW": "/a", "WORKTREE_GUARD_MODE": "warn", "WORKTREE_GUARD_USER_CONFIG": "/u", "OTHER": "1"}
    assert env_layer(environ) == Layer("environment WORKTREE_GUARD_MODE, WORKTREE_GUARD_ALLOW", {"mode": "warn", "allow": ["/a"]})
    assert env_layer({}) is None
    assert env_layer({"WORKTREE_GUARD_USER_CONFIG": "/u", "OTHER": "1"}) is None
    assert env_layer({"WORKTREE_GUARD_mode": "warn"}) is None  # the names are upper case
    monkeypatch.setenv("WORKTREE_GUARD_PROFILE", "strict")
    assert env_layer() == Layer("environment WORKTREE_GUARD_PROFILE", {"profile": "strict"})
    assert env_layer({"WORKTREE_GUARD_MODE": "off"}) == Layer("environment WORKTREE_GUARD_MODE", {"mode": "off"})


def test_env_layer_refuses_an_unknown_variable() -> None:
    with pytest.raises(ConfigError) as raised:
        env_layer({"WORKTREE_GUARD_MODE": "warn", "WORKTREE_GUARD_NOPE": "1"})
    assert str(raised.value) == f"environment WORKTREE_GUARD_NOPE: unknown setting (known: {KNOWN})"


# --- files -------------------------------------------------------------------------------------------------------


def test_read_toml_of_missing_and_odd_files(tmp_path: Path) -> None:
    assert _read_toml(str(tmp_path / "missing.toml")) is None
    (tmp_path / "file").write_text("")
    assert _read_toml(str(tmp_path / "file" / "below.toml")) is None
    assert _read_toml("/dev/null") == {}
    (tmp_path / "ok.toml").write_text('mode = "warn"\n')
    assert _read_toml(str(tmp_path / "ok.toml")) == {"mode": "warn"}
    with pytest.raises(ConfigError) as raised:
        _read_toml(str(tmp_path))
    assert str(raised.value) == f"{tmp_path}: cannot read: Is a directory"


def test_read_toml_of_a_fifo_neither_blocks_nor_reads(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)

    def late(*_: object) -> None:
        raise TimeoutError("open() blocked on the FIFO")

    previous = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, 3)
    try:
        with pytest.raises(ConfigError) as raised:
            _read_toml(str(fifo))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert str(raised.value) == f"{fifo}: cannot read: not a regular file"


def test_read_toml_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(config, "MAX_CONFIG_FILE", 2 << 20)
    exact = tmp_path / "exact.toml"
    exact.write_bytes(b"#" + b"x" * ((2 << 20) - 2) + b"\n")
    assert _read_toml(str(exact)) == {}
    over = tmp_path / "over.toml"
    over.write_bytes(b"#" + b"x" * ((2 << 20) - 1) + b"\n")
    with pytest.raises(ConfigError) as raised:
        _read_toml(str(over))
    assert str(raised.value) == f"{over}: cannot read: larger than 2 MiB"


def test_read_toml_reads_no_more_than_the_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(config, "MAX_CONFIG_FILE", 1 << 20)
    reads: list[int] = []

    class Recording:
        def __init__(self, *args: object, **kwargs: object) -> None:
            self.file = open(*args, **kwargs)  # noqa: SIM115

        def __enter__(self) -> "Recording":
            return self

        def __exit__(self, *exc: object) -> None:
            self.file.close()

        def read(self, size: int | None = -1) -> bytes:
            data = self.file.read(size)
            reads.append(len(data))
            return data

    monkeypatch.setattr(config, "open", Recording, raising=False)
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (3 << 20))
    with pytest.raises(ConfigError):
        _read_toml(str(big))
    assert reads == [(1 << 20) + 1]


def test_read_toml_names_the_error_of_open_and_of_read(tmp_path: Path) -> None:
    loop = tmp_path / "loop.toml"
    loop.symlink_to(loop)
    with pytest.raises(ConfigError) as raised:
        _read_toml(str(loop))
    assert str(raised.value) == f"{loop}: cannot read: Too many levels of symbolic links"
    with pytest.raises(ConfigError) as raised:
        _read_toml("/proc/self/mem")  # a regular file whose first page cannot be read
    assert str(raised.value) == "/proc/self/mem: cannot read: Input/output error"


@pytest.mark.parametrize("data", [b"mode = \n", b"\xff = 1\n"])
def test_read_toml_invalid(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(data)
    with pytest.raises(ConfigError) as raised:
        _read_toml(str(path))
    assert str(raised.value).startswith(f"{path}: not valid TOML: ")


def test_user_config_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HOME", "/home/u")
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.delenv("WORKTREE_GUARD_USER_CONFIG", raising=False)
    assert user_config_path() == "/home/u/.config/worktree-guard/config.toml"
    monkeypatch.setenv("XDG_CONFIG_HOME", "/xdg")
    assert user_config_path() == "/xdg/worktree-guard/config.toml"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative")
    assert user_config_path() == "/home/u/.config/worktree-guard/config.toml"
    monkeypatch.setenv("WORKTREE_GUARD_USER_CONFIG", "relative.toml")
    assert user_config_path() == "/home/u/.config/worktree-guard/config.toml"
    monkeypatch.setenv("WORKTREE_GUARD_USER_CONFIG", "/abs/c.toml")
    assert user_config_path() == "/abs/c.toml"


def test_user_layer(user_file: Path) -> None:
    assert user_layer() is None  # no file
    user_file.write_text("")
    assert user_layer() is None  # an empty file says nothing
    user_file.write_text('pass-tools = ["X"]\n')
    assert user_layer() == Layer(f"user file {user_file}", {"pass_tools": ["X"]})


def test_project_layer(tmp_path: Path) -> None:
    assert project_layer(None) is None
    assert project_layer("") is None
    assert project_layer(str(tmp_path)) is None
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text('[project]\nname = "x"\n')
    assert project_layer(str(tmp_path)) is None
    pyproject.write_text('[tool.other]\na = 1\n')
    assert project_layer(str(tmp_path)) is None
    pyproject.write_text('[tool.worktree-guard]\nallow-isolation-downgrade = true\n')
    assert project_layer(str(tmp_path)) == Layer(f"project file {pyproject} [tool.worktree-guard]", {"allow_isolation_downgrade": True})
    pyproject.write_text('[tool]\nworktree-guard = "warn"\n')
    with pytest.raises(ConfigError) as raised:
        project_layer(str(tmp_path))
    assert str(raised.value) == f"{pyproject}: [tool.worktree-guard] must be a table"
    own = tmp_path / ".worktree-guard.toml"
    own.write_text("")
    assert project_layer(str(tmp_path)) == Layer(f"project file {own}", {})  # present, even empty: it wins
    own.write_text('on-parse-error = "warn"\n')
    assert project_layer(str(tmp_path)) == Layer(f"project file {own}", {"on_parse_error": "warn"})


# --- merging -----------------------------------------------------------------------------------------------------


def test_resolve_later_layers_win_key_by_key() -> None:
    effective = resolve([Layer("one", {"mode": "warn", "reads": "warn"}), Layer("two", {"mode": "off"})])
    assert (effective.settings.mode, effective.settings.reads) == ("off", "warn")
    assert effective.sources["mode"] == "two" and effective.sources["reads"] == "one" and effective.sources["profile"] == "default"
    assert set(effective.sources) == set(Settings.model_fields)
    assert resolve([]).sources == {name: "default" for name in Settings.model_fields}
    assert resolve([]).settings == Settings()


def test_resolve_names_the_layer_and_the_key_of_each_error() -> None:
    with pytest.raises(ConfigError) as raised:
        resolve([Layer("first", {"nope": 1, "mode": "bad"}), Layer("second", {"mode": "worse", "reads": "warn"})])
    assert str(raised.value) == (
        "invalid configuration: second: key 'mode': Input should be 'enforce', 'rewrite', 'warn' or 'off'; first: key 'nope': unknown setting"
    )
    with pytest.raises(ConfigError) as raised:
        resolve([Layer("L", {"agents": {"w": {"owns": 3}}}), Layer("M", {"mode": "warn"})])
    assert str(raised.value) == (
        "invalid configuration: L: key 'agents.w.owns.list[str]': Input should be a valid list; L: key 'agents.w.owns.str': Input should be a valid string"
    )


def test_load_config_orders_the_layers(user_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WORKTREE_GUARD_MODE", raising=False)
    user_file.write_text('mode = "warn"\nreads = "warn"\nprofile = "strict"\naudit-log = "/u"\nallow = ["/u"]\n')
    project = tmp_path / "project"
    project.mkdir()
    (project / ".worktree-guard.toml").write_text('reads = "deny"\nprofile = "default"\naudit-log = "/p"\nallow = ["/p"]\n')
    effective = load_config(
        str(project),
        frontmatter=Layer("agent definition d.md", {"profile": "strict", "audit_log": "/f", "allow": ["/f"]}),
        environ={"WORKTREE_GUARD_AUDIT_LOG": "/e", "WORKTREE_GUARD_ALLOW": "/e"},
        flags={"allow": ["/c"]},
    )
    s = effective.settings
    assert (s.mode, s.reads, s.profile, s.audit_log, s.allow) == ("warn", "deny", "strict", "/e", ["/c"])
    assert effective.sources["mode"] == f"user file {user_file}"
    assert effective.sources["reads"] == f"project file {project}/.worktree-guard.toml"
    assert effective.sources["profile"] == "agent definition d.md"
    assert effective.sources["audit_log"] == "environment WORKTREE_GUARD_ALLOW, WORKTREE_GUARD_AUDIT_LOG"
    assert effective.sources["allow"] == "command-line flags"
    plain = load_config(None, environ={})
    assert plain.settings.mode == "warn" and plain.sources["reads"] == f"user file {user_file}"
    assert load_config(None, environ={}, flags={"allow-isolation-downgrade": True}).settings.allow_isolation_downgrade is True
    assert load_config(None, environ={}, flags={}).sources["allow"] == f"user file {user_file}"


# --- claims_isolation --------------------------------------------------------------------------------------------


def test_claims_isolation_the_hook_flag_wins(user_file: Path) -> None:
    user_file.write_text("isolated = true\n")
    assert claims_isolation(None, None, flags={"isolated": False}, environ={}) is False
    assert claims_isolation(None, None, flags={"isolated": True}, environ={}) is True
    assert claims_isolation(None, None, flags={"isolated": None}, environ={}) is True
    assert claims_isolation(None, None, flags={}, environ={}) is True


def test_claims_isolation_reads_each_layer(user_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WORKTREE_GUARD_ISOLATED", raising=False)
    monkeypatch.delenv("WORKTREE_GUARD_ISOLATED_AGENTS", raising=False)
    project = tmp_path / "project"
    project.mkdir()
    assert claims_isolation(str(project), "w", environ={}) is False
    assert claims_isolation(str(project), None, environ={}) is False
    user_file.write_text("isolated = [\n")  # does not parse: says nothing, the project file is still read
    (project / ".worktree-guard.toml").write_text('isolated-agents = ["w"]\nmode = "bad"\n')
    assert claims_isolation(str(project), "w", environ={}) is True
    assert claims_isolation(str(project), "v", environ={}) is False
    assert claims_isolation(str(project), None, environ={}) is False
    (project / ".worktree-guard.toml").write_text('isolated-agents = "w"\n')
    assert claims_isolation(str(project), "w", environ={}) is True
    (project / ".worktree-guard.toml").write_text("isolated = false\n")
    assert claims_isolation(str(project), "w", environ={}) is False
    (project / ".worktree-guard.toml").write_text("isolated = 1\n")
    assert claims_isolation(str(project), "w", environ={}) is False


@pytest.mark.parametrize("frontmatter,expected", [
    ({"isolated": True}, True),
    ({"isolated": " YES "}, True),
    ({"isolated": "t"}, True),
    ({"isolated": "no"}, False),
    ({"isolated": False}, False),
    ({"isolated-agents": ["w"]}, True),
    ({"isolated-agents": ["v"]}, False),
    ({"isolated-agents": "w"}, True),
    ({"isolated-agents": "ww"}, False),
    ({}, False),
])
def test_claims_isolation_from_the_frontmatter(frontmatter: dict, expected: bool) -> None:
    assert claims_isolation(None, "w", frontmatter=frontmatter, environ={}) is expected


@pytest.mark.parametrize("environ,expected", [
    ({"WORKTREE_GUARD_ISOLATED": "on"}, True),
    ({"WORKTREE_GUARD_ISOLATED": "off"}, False),
    ({"WORKTREE_GUARD_isolated": "on"}, False),
    ({"WORKTREE_GUARD_ISOLATED_AGENTS": f"v{os.pathsep}w"}, True),
    ({"WORKTREE_GUARD_ISOLATED_AGENTS": '["w"]'}, True),
    ({"WORKTREE_GUARD_ISOLATED_AGENTS": "w"}, True),
    ({"WORKTREE_GUARD_ISOLATED_AGENTS": f"v{os.pathsep}ww"}, False),
    ({"WORKTREE_GUARD_ISOLATED_AGENTS": "[w"}, False),  # not a JSON list: says nothing
    ({"WORKTREE_GUARD_ISOLATED_AGENTS": "[w", "WORKTREE_GUARD_ISOLATED": "1"}, True),
])
def test_claims_isolation_from_the_environment_given(environ: dict, expected: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WORKTREE_GUARD_ISOLATED", raising=False)
    monkeypatch.delenv("WORKTREE_GUARD_ISOLATED_AGENTS", raising=False)
    assert claims_isolation(None, "w", environ=environ) is expected
    assert claims_isolation(None, "w", environ=environ, flags={"mode": "warn"}) is expected


def test_claims_isolation_reads_os_environ_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKTREE_GUARD_ISOLATED", "yes")
    assert claims_isolation(None, None) is True
    assert claims_isolation(None, None, environ={}) is False
