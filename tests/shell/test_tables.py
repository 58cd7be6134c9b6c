"""The bashlex table cache (`worktree_guard.shell.tables`): same parses as stock bashlex, verified, private.

bashlex can be imported only once per process, so every case runs in a fresh interpreter.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT
from tests.shared_data import CORPORA, load
from worktree_guard.shell import tables

LOAD = """
import json, sys
from worktree_guard.shell import tables
bashlex = tables.load_bashlex(sys.argv[1])
tree = bashlex.parse("git commit -m x && cd /tmp")
print(json.dumps({"cache": tables.last_load["cache"], "tree": [n.dump() for n in tree]}))
"""


def load_in_subprocess(cache_dir: Path) -> dict[str, str]:
    done = subprocess.run([sys.executable, "-c", LOAD, str(cache_dir)], capture_output=True, text=True, cwd=REPO_ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def cache_file(cache_dir: Path) -> Path:
    return cache_dir / tables.CACHE_NAME


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "worktree-guard"


def test_first_use_writes_a_private_cache_then_reads_it(cache_dir: Path) -> None:
    first = load_in_subprocess(cache_dir)
    assert first["cache"] == "rebuilt (no cache file)"
    assert cache_dir.stat().st_mode & 0o777 == 0o700
    assert cache_file(cache_dir).stat().st_mode & 0o777 == 0o600
    second = load_in_subprocess(cache_dir)
    assert second == {**first, "cache": "hit"}


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda data: b"", "not a table cache file"),
        (lambda data: data[:4] + bytes(32) + data[36:], "built for another bashlex or Python"),
        (lambda data: data[:-1] + bytes([data[-1] ^ 1]), "payload does not match its digest"),
        (lambda data: data[:100], "payload does not match its digest"),
    ],
    ids=["empty", "other-key", "flipped-bit", "truncated"],
)
def test_a_cache_that_does_not_match_is_rebuilt(cache_dir: Path, damage, reason: str) -> None:
    good = load_in_subprocess(cache_dir)
    intact = cache_file(cache_dir).read_bytes()
    cache_file(cache_dir).write_bytes(damage(intact))
    rebuilt = load_in_subprocess(cache_dir)
    assert rebuilt["cache"] == f"rebuilt ({reason})"
    assert rebuilt["tree"] == good["tree"]
    assert cache_file(cache_dir).read_bytes() == intact
    assert load_in_subprocess(cache_dir)["cache"] == "hit"


def test_the_key_covers_every_bashlex_source_file(tmp_path: Path) -> None:
    package = tmp_path / "bashlex"
    package.mkdir()
    for name in ("parser.py", "yacc.py", "tokenizer.py", "utils.py"):
        (package / name).write_text(f"# {name}\n")
    key = tables.grammar_key(str(package))
    assert tables.grammar_key(str(package)) == key
    for name in ("parser.py", "yacc.py", "tokenizer.py", "utils.py"):
        original = (package / name).read_text()
        (package / name).write_text(original + " ")
        assert tables.grammar_key(str(package)) != key, name
        (package / name).write_text(original)


def test_the_key_sees_an_edit_that_keeps_the_size(tmp_path: Path) -> None:
    """The key is made of each file's name, size and modification time (as Python's .pyc check): a same-size edit
    is seen through its modification time."""
    package = tmp_path / "bashlex"
    package.mkdir()
    source = package / "parser.py"
    source.write_text("x = 1\n")
    os.utime(source, ns=(1_000_000_000, 1_000_000_000))
    key = tables.grammar_key(str(package))
    source.write_text("x = 2\n")
    os.utime(source, ns=(2_000_000_000, 2_000_000_000))
    assert tables.grammar_key(str(package)) != key
    (package / "new.py").write_text("")
    assert tables.grammar_key(str(package)) != key


@pytest.mark.parametrize("how", ["group-writable", "world-readable", "symlink", "other-owner"])
def test_a_cache_dir_that_is_not_private_is_refused(tmp_path: Path, cache_dir: Path, how: str) -> None:
    load_in_subprocess(cache_dir)  # a valid cache file to be left alone
    intact = cache_file(cache_dir).read_bytes()
    used = cache_dir
    if how == "group-writable":
        cache_dir.chmod(0o770)
    elif how == "world-readable":
        cache_dir.chmod(0o705)
    elif how == "symlink":
        used = tmp_path / "link"
        used.symlink_to(cache_dir)
    else:
        if os.geteuid() != 0:
            pytest.skip("changing a directory's owner needs root")
        os.chown(cache_dir, 65534, 65534)
    cache_file(cache_dir).write_bytes(b"WGBT" + b"x" * 100)  # would be rebuilt if the directory were trusted
    result = load_in_subprocess(used)
    assert result["cache"].startswith("refused: "), result["cache"]
    assert cache_file(cache_dir).read_bytes() == b"WGBT" + b"x" * 100
    assert intact != cache_file(cache_dir).read_bytes()


def _commands() -> list[str]:
    commands: list[str] = []
    for name in CORPORA:  # every peer corpus and nl2bash
        commands.extend(record["cmd"] for record in load(name))
    return commands


def _dump(mode: str, commands_file: Path, cache: Path | None = None) -> list[list[str]]:
    argv = [sys.executable, "-m", "tests.shell.bashlex_dump", mode, str(commands_file)] + ([str(cache)] if cache else [])
    done = subprocess.run(argv, capture_output=True, text=True, cwd=REPO_ROOT, timeout=1800)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines[-1] == {"done": len(lines) - 1}
    return lines[:-1]


def _first_difference(commands: list[str], stock: list[list[str]], cached: list[list[str]]) -> str | None:
    for command, a, b in zip(commands, stock, cached):
        if a != b:
            return f"{command!r}: stock {a}, cached {b}"
    return None


@pytest.mark.corpus
def test_cached_tables_parse_every_corpus_command_as_stock_bashlex(tmp_path: Path, cache_dir: Path) -> None:
    """Raw bashlex trees and, with the project's fixes, neutral ASTs, compared over all 29k corpus commands."""
    commands = _commands()
    assert len(commands) > 25_000
    commands_file = tmp_path / "commands.json"
    commands_file.write_text(json.dumps(commands))
    assert load_in_subprocess(cache_dir)["cache"] == "rebuilt (no cache file)"
    stock = _dump("stock", commands_file)
    cached = _dump("cached", commands_file, cache_dir)
    assert len(stock) == len(cached) == len(commands)
    assert _first_difference(commands, stock, cached) is None
    assert len({s[0] for s in stock}) > len(commands) // 2  # the digests do tell commands apart


def test_the_comparison_sees_a_wrong_table(tmp_path: Path, cache_dir: Path) -> None:
    """The corpus comparison can fail: a cache with one action changed (and a valid key and digest) parses differently."""
    every = _commands()
    commands = every[:1000] + [c for c in every if c.startswith("if ")][:200]
    commands_file = tmp_path / "commands.json"
    commands_file.write_text(json.dumps(commands))
    load_in_subprocess(cache_dir)
    data = cache_file(cache_dir).read_bytes()
    key = data[4:36]
    productions, action, goto = tables.decode_tables(key, data)
    action[0]["IF"] = action[0]["WHILE"]  # a command starting with `if` is read as a `while` loop
    import marshal
    from _sha256 import sha256

    payload = marshal.dumps((productions, action, goto))
    cache_file(cache_dir).write_bytes(tables.MAGIC + key + sha256(payload).digest() + payload)
    stock = _dump("stock", commands_file)
    cached = _dump("cached", commands_file, cache_dir)
    difference = _first_difference(commands, stock, cached)
    assert difference is not None and difference.lstrip("'\"").startswith("if ")


def test_two_installs_with_equal_names_sizes_and_times_have_different_keys(tmp_path: Path) -> None:
    """A Nix store sets every modification time to 1 and reproducible builds set them alike: the package's own
    path and its files' inodes tell two such installs apart."""
    keys = []
    for place in ("one", "two"):
        package = tmp_path / place / "bashlex"
        package.mkdir(parents=True)
        (package / "parser.py").write_text("x = 1\n")
        os.utime(package / "parser.py", ns=(1_000_000_000, 1_000_000_000))
        keys.append(tables.grammar_key(str(package)))
    assert keys[0] != keys[1]
    assert tables.grammar_key(str(tmp_path / "one" / "bashlex")) == keys[0]
