"""Import bashlex with its LALR tables read from a cache instead of rebuilt (bash-parsing.md §4.3, "v2").

bashlex builds its parse tables with PLY's `yacc.yacc()` every time `bashlex.parser` is imported (≈110 ms;
its shipped `parsetab.py` is never read). Here the package is loaded without running its `__init__`,
`yacc.yacc` is swapped for a function that returns a parser made from cached (productions, action, goto),
and then `__init__` runs as usual — so bashlex's own post-build table fixes run on the cached tables exactly
as on built ones, and nothing in bashlex is copied or edited.

The cache is a parser input: whoever can write it can change how commands parse. So it lives in the user's
private worktree-guard directory (`private_dir`), never in a worktree or a shared temp dir; a directory
that is not private is refused (the tables are then built, and nothing is read or written). A cache file
holds the key it was built for — a SHA-256 of every source file of the installed bashlex, the Python
version and this module's format — and a SHA-256 of its payload; a file whose key or digest does not
match is rebuilt and replaced. The digest catches damage, not forgery: a process of the same user could
write a consistent file (the guard refuses an agent's writes there; an inline interpreter could still).
"""

from __future__ import annotations

import marshal
import os
import sys
from types import ModuleType
from typing import Any

#: Changes whenever the layout of the cached data changes.
FORMAT = 1
MAGIC = b"WGBT"
CACHE_NAME = f"bashlex-tables-py{sys.version_info[0]}{sys.version_info[1]}.bin"

#: How the last `load_bashlex` got its tables ("hit", "rebuilt (…)", "refused: …"), for tests and diagnostics.
last_load: dict[str, str] = {}


class TableCacheError(Exception):
    """The cache file is absent, stale or damaged; the message says which."""


def bashlex_spec() -> Any:
    """The import spec of the installed bashlex package, found without importing it."""
    import importlib.util

    spec = importlib.util.find_spec("bashlex")
    if spec is None or spec.loader is None or not spec.submodule_search_locations:
        raise ImportError("bashlex is not installed as a package")
    return spec


def grammar_key(package_dir: str) -> bytes:
    """SHA-256 over the bashlex package's real path and each of its `.py` files' name, size, inode, modification and
    change times, with the Python version and FORMAT.

    Hashing the files' contents instead cost every Bash call judged in-process ≈ 2 ms. An upgrade or an edit
    changes a size, an inode or a time; two installs with equal names, sizes and times (a Nix store sets every
    time to 1, reproducible builds set them all alike) differ in their path or their inodes. Writing a file back
    with its old size and both of its old times is beyond a process's reach (the change time is the kernel's)."""
    from ..digest import sha256

    digest = sha256(f"worktree-guard bashlex tables {FORMAT} {sys.version_info[:2]} marshal {marshal.version}\n".encode())
    digest.update(f"{os.path.realpath(package_dir)}\n".encode("utf-8", "surrogateescape"))
    for name in sorted(n for n in os.listdir(package_dir) if n.endswith(".py")):
        stat = os.stat(os.path.join(package_dir, name))
        digest.update(f"{name} {stat.st_size} {stat.st_ino} {stat.st_mtime_ns} {stat.st_ctime_ns}\n".encode("utf-8", "surrogateescape"))
    return digest.digest()


def encode_tables(key: bytes, parser: Any) -> bytes:
    """The cache file for a freshly built PLY parser: MAGIC, key, payload digest, marshalled tables."""
    from ..digest import sha256

    productions = [(p.number, p.name, tuple(p.prod), tuple(p.prec), p.func, p.file, p.line) for p in parser.productions]
    action = {state: dict(row) for state, row in parser.action.items()}
    goto = {state: dict(row) for state, row in parser.goto.items()}
    payload = marshal.dumps((productions, action, goto))
    return MAGIC + key + sha256(payload).digest() + payload


def decode_tables(key: bytes, data: bytes | None) -> tuple[list[tuple], dict, dict]:
    """(productions, action, goto) from a cache file's bytes; TableCacheError unless key and digest match."""
    from ..digest import sha256

    if data is None:
        raise TableCacheError("no cache file")
    head = len(MAGIC) + 64
    if len(data) < head or data[: len(MAGIC)] != MAGIC:
        raise TableCacheError("not a table cache file")
    if data[len(MAGIC) : len(MAGIC) + 32] != key:
        raise TableCacheError("built for another bashlex or Python")
    payload = data[head:]
    if sha256(payload).digest() != data[len(MAGIC) + 32 : head]:
        raise TableCacheError("payload does not match its digest")
    try:
        tables = marshal.loads(payload)
    except (EOFError, ValueError, TypeError) as e:
        raise TableCacheError(f"payload unreadable: {e}") from None
    if not (isinstance(tables, tuple) and len(tables) == 3 and isinstance(tables[0], list)):
        raise TableCacheError("payload has the wrong shape")
    productions, action, goto = tables
    if not (isinstance(action, dict) and isinstance(goto, dict) and all(isinstance(p, tuple) and len(p) == 7 for p in productions)):
        raise TableCacheError("payload has the wrong shape")
    return productions, action, goto


def _parser_from_tables(yacc: ModuleType, tables: tuple[list[tuple], dict, dict], pdict: dict[str, Any]) -> Any:
    """A PLY LRParser from cached tables, its productions bound to the grammar actions in `pdict`."""
    productions_data, action, goto = tables
    productions = []
    for number, name, prod, prec, func, file, line in productions_data:
        production = yacc.Production(number, name, prod, prec, func, file, line)
        production.bind(pdict)
        productions.append(production)
    table = _Tables(productions, action, goto)
    parser = yacc.LRParser(table, pdict.get("p_error"))
    yacc.parse = parser.parse  # as yacc.yacc() leaves it
    return parser


class _Tables:
    """What `yacc.LRParser` reads from an `LRTable`."""

    def __init__(self, productions: list[Any], action: dict, goto: dict) -> None:
        self.lr_productions = productions
        self.lr_action = action
        self.lr_goto = goto


def default_cache_dir() -> str:
    from worktree_guard.private_dir import cache_root

    return cache_root(os.environ)


def load_bashlex(cache_dir: str | None = None) -> ModuleType:
    """The bashlex package (unpatched), its parse tables read from the cache in `cache_dir` when it is valid.

    A missing or stale cache is rebuilt by PLY and written back; an unusable cache directory is reported
    in `last_load["cache"]` and the tables are built without touching it. If bashlex was imported
    already, that module is returned as it is.
    """
    if "bashlex.parser" in sys.modules:
        last_load["cache"] = "bashlex was already imported"
        return sys.modules["bashlex"]
    import importlib.util

    from worktree_guard.private_dir import NotPrivate, open_private_dir, read_file, write_atomically

    spec = bashlex_spec()
    key = grammar_key(list(spec.submodule_search_locations)[0])
    dir_fd: int | None = None
    tables: tuple[list[tuple], dict, dict] | None = None
    try:
        dir_fd = open_private_dir(cache_dir if cache_dir is not None else default_cache_dir())
    except NotPrivate as e:
        last_load["cache"] = f"refused: {e}"
    if dir_fd is not None:
        try:
            tables = decode_tables(key, read_file(dir_fd, CACHE_NAME))
            last_load["cache"] = "hit"
        except (TableCacheError, OSError) as e:
            last_load["cache"] = f"rebuilt ({e})"

    package = importlib.util.module_from_spec(spec)
    sys.modules["bashlex"] = package
    try:
        from bashlex import yacc

        stock_yacc = yacc.yacc
        built: list[bytes] = []

        def cached_yacc(**options: Any) -> Any:
            pdict = sys._getframe(1).f_globals  # bashlex.parser's namespace, as yacc.yacc() reads it
            if tables is not None:
                return _parser_from_tables(yacc, tables, pdict)
            module = ModuleType(pdict["__name__"])
            module.__dict__.update(pdict)
            parser = stock_yacc(module=module, **options)
            built.append(encode_tables(key, parser))
            return parser

        yacc.yacc = cached_yacc
        try:
            spec.loader.exec_module(package)
        finally:
            yacc.yacc = stock_yacc
    except BaseException:
        for name in [n for n in sys.modules if n == "bashlex" or n.startswith("bashlex.")]:
            del sys.modules[name]
        if dir_fd is not None:
            os.close(dir_fd)
        raise
    if dir_fd is not None:
        try:
            if built:
                write_atomically(dir_fd, CACHE_NAME, built[0])
        except OSError as e:
            last_load["cache"] = f"not written ({e.strerror})"
        finally:
            os.close(dir_fd)
    return package

