"""The code of the hook process's own modules from one cached file, instead of one `.pyc` file each.

Before a module's code runs, importing it from its `.pyc` costs the import system about 50–100 µs here: a stat
of its directory and of its source, opening, reading and closing the `.pyc`, and the finder's and loader's own
work. A Bash call judged in-process imports about 80 submodules of worktree_guard, bashlex and pluggy that way.
`install()` puts a finder first on `sys.meta_path` that serves the submodules of those packages from one file
in the user's private cache directory: its index is read once, and each module's code with one `pread`.

**The same modules, with the same code.** A submodule is served only when all of these hold:
1. its parent package's `__path__` is one directory, the one it was read from;
2. that directory's modification time, inode and device are unchanged: a file added, removed or renamed there
   changes them. This is the rule by which the import system's own `FileFinder` lists a directory again, so an
   ordinary import would find the same file;
3. its source file's size, modification time, change time, inode and device are unchanged. A `.pyc` file
   holds only the size and the modification time.

The module is then made by importlib's own `SourceFileLoader`, so `__file__`, `__cached__`, `__spec__`,
`__loader__`, `__path__`, tracebacks and `get_source` are as usual. Only its code object comes from the
cache. Everything else is left to the ordinary finders: a top-level package, a module never cached, a stale
entry, a cache that cannot be read.

A submodule the cache does not hold is found by `PathFinder` (the finder the import system would ask next) and
read by the same loader as usual, which records its code object; each module is stamped before and after the
read, so a module edited in between is not recorded. `save()` runs after the reply is written: when this
process recorded any module, it rewrites the file with those and every other entry whose source still exists.
Entries are keyed by path, so several installed copies share the file.

**Trust.** The file is code the hook runs. It lives where the parse tables do (`private_dir`: owned by the
user, mode 0700, outside every worktree and refused to an agent's writes), so only what could also rewrite the
`.pyc` files or the installed package can change it. Like a `.pyc` file it has no checksum: it is written to a
temporary file and renamed into place, so a reader never sees it half-written, and a reader keeps the file it
opened.
"""

from __future__ import annotations

import marshal
import posix
import sys
from importlib.machinery import ModuleSpec, PathFinder, SourceFileLoader  # inspect (pluggy's) loads them anyway
from typing import Any

#: The packages whose submodules are served (their top-level `__init__` is found the ordinary way).
PACKAGES = frozenset({"worktree_guard", "bashlex", "pluggy"})
#: Changes whenever the layout of the file changes.
FORMAT = 1
MAGIC = b"WGCC"
CACHE_NAME = f"hook-code-{sys.implementation.cache_tag}.bin"
_INDEX_SIZE = 8  # bytes of the index's length, after the header line

#: "<directory>/<last part of the name>" → (directory stamp, source, source stamp, is a package, offset, length);
#: the offset counts from `_base`, the end of the index.
_index: dict[str, tuple[tuple, str, tuple, bool, int, int]] = {}
_fd: int | None = None  # the cache file as opened by install(): its code is read from this file, whatever replaces it
_base = 0
_cache_dir: str | None = None
#: key → (directory stamp, source, source stamp, is a package, code) of each module read from its `.pyc` or source.
_recorded: dict[str, tuple[tuple, str, tuple, bool, Any]] = {}
_stamps: dict[str, tuple | None] = {}
#: How the last `install()` went ("hit", "none", "not used (…)"), for tests.
last_load: dict[str, str] = {}


def header() -> bytes:
    """What a file must begin with to be read by this Python: the format, the interpreter's exact version and its
    bytecode's cache tag, the marshal version."""
    return MAGIC + f" {FORMAT} {sys.hexversion} {sys.implementation.cache_tag} {marshal.version}\n".encode()


def stamp(path: str, *, directory: bool = False) -> tuple | None:
    """What must not change for a cached module to be served (see the module's docstring); None when absent."""
    try:
        st = posix.stat(path)
    except OSError:
        return None
    if directory:
        return (st.st_mtime_ns, st.st_ino, st.st_dev)
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def _directory_stamp(path: str) -> tuple | None:
    if path not in _stamps:
        _stamps[path] = stamp(path, directory=True)
    return _stamps[path]


class CachedCode:
    """The meta path finder of the submodules of PACKAGES: from the cache when it holds them unchanged, else as
    PathFinder finds them (the finder the import system would ask next), with a loader that records their code."""

    @staticmethod
    def find_spec(name: str, path: Any = None, target: Any = None) -> Any:
        top, dot, leaf = name.partition(".")
        if not dot or top not in PACKAGES or path is None:
            return None
        try:
            directories = list(path)
            if len(directories) != 1:
                return None
            key = f"{directories[0]}/{name.rpartition('.')[2]}"
            spec = _cached_spec(name, key)
            if spec is None:
                spec = PathFinder.find_spec(name, directories)
                if spec is not None and type(spec.loader) is SourceFileLoader and spec.origin == _source_of(key, spec):
                    spec.loader = CachedLoader(name, spec.origin)
                    spec.loader.key = key
            return spec
        except Exception:  # noqa: BLE001 — anything odd: the ordinary finders decide
            return None

    @staticmethod
    def invalidate_caches() -> None:
        _stamps.clear()


def _source_of(key: str, spec: Any) -> str:
    return f"{key}/__init__.py" if spec.submodule_search_locations is not None else f"{key}.py"


def _cached_spec(name: str, key: str) -> Any:
    entry = _index.get(key) if _fd is not None else None
    if entry is None:
        return None
    directory_stamp, source, source_stamp, is_package, offset, length = entry
    if _directory_stamp(key.rpartition("/")[0]) != directory_stamp or stamp(source) != source_stamp:
        return None
    loader = CachedLoader(name, source)
    loader.blob = (offset, length)
    spec = ModuleSpec(name, loader, origin=source, is_package=is_package)
    spec.has_location = True  # as spec_from_file_location: __file__ and __cached__ are set from the origin
    if is_package:
        spec.submodule_search_locations = [source.rpartition("/")[0]]
    return spec


class CachedLoader(SourceFileLoader):
    """importlib's loader of a source module, with the code object read from the cache file; or, for a module
    not served from it (`key` set), read as usual and recorded for `save()`."""

    blob: tuple[int, int] | None = None
    key: str | None = None

    def get_code(self, fullname: str) -> Any:
        if self.blob is not None and _fd is not None:
            offset, length = self.blob
            try:
                return marshal.loads(posix.pread(_fd, length, _base + offset))
            except (OSError, EOFError, ValueError, TypeError):  # a file cut short or damaged: the .pyc
                pass
        if self.key is None:
            return super().get_code(fullname)
        directory = self.key.rpartition("/")[0]
        before = (stamp(directory, directory=True), stamp(self.path))
        code = super().get_code(fullname)
        if code is not None and None not in before and (stamp(directory, directory=True), stamp(self.path)) == before:
            _recorded[self.key] = (before[0], self.path, before[1], self.path.endswith("/__init__.py"), code)
        return code  # a module edited while it was read is not recorded


def install(cache_dir: str | None = None) -> None:
    """Open the cache file, read its index and put the finder first on sys.meta_path (once)."""
    global _cache_dir
    if any(finder is CachedCode for finder in sys.meta_path):
        return
    if cache_dir is None:
        import os

        from .private_dir import cache_root

        cache_dir = cache_root(os.environ)
    _cache_dir = cache_dir
    try:
        _open(cache_dir)
        last_load["cache"] = "hit" if _index else "none"
    except Exception as e:  # noqa: BLE001 — unreadable, foreign, not private: the ordinary imports
        _close()
        last_load["cache"] = f"not used ({type(e).__name__}: {e})"
    sys.meta_path.insert(0, CachedCode)


def _open(cache_dir: str) -> None:
    global _fd, _index, _base
    from .private_dir import open_private_dir

    dir_fd = open_private_dir(cache_dir)
    try:
        _fd = posix.open(CACHE_NAME, posix.O_RDONLY | posix.O_NOFOLLOW | posix.O_CLOEXEC, dir_fd=dir_fd)
    except FileNotFoundError:
        return
    finally:
        posix.close(dir_fd)
    head = header()
    start = posix.read(_fd, 1 << 16)
    if not start.startswith(head) or len(start) < len(head) + _INDEX_SIZE:
        raise ValueError("written by another format or Python")
    size = int.from_bytes(start[len(head) : len(head) + _INDEX_SIZE], "big")
    begin = len(head) + _INDEX_SIZE
    data = start[begin : begin + size]
    if len(data) < size:
        data += posix.pread(_fd, size - len(data), begin + len(data))
    index = marshal.loads(data)
    if type(index) is not dict or not all(type(e) is tuple and len(e) == 6 for e in index.values()):
        raise ValueError("the index has the wrong shape")
    _index, _base = index, begin + size


def _close() -> None:
    global _fd, _index
    if _fd is not None:
        posix.close(_fd)
    _fd, _index = None, {}


def save() -> None:
    """Rewrite the cache file when this process read a submodule of PACKAGES from its `.pyc` or source: with the
    code recorded, and every other entry of the file whose source still exists."""
    if _cache_dir is None or not _recorded:
        return
    blobs = {key: (*entry[:4], marshal.dumps(entry[4])) for key, entry in _recorded.items()}
    for key, (directory_stamp, source, source_stamp, is_package, offset, length) in _index.items():
        if key in blobs or stamp(source) is None or _fd is None:  # a source removed: its entry goes
            continue
        code = posix.pread(_fd, length, _base + offset)
        if len(code) == length:
            blobs[key] = (directory_stamp, source, source_stamp, is_package, code)
    _write(blobs)


def _write(blobs: dict[str, tuple[tuple, str, tuple, bool, bytes]]) -> None:
    from .private_dir import open_private_dir, write_atomically

    index: dict[str, tuple[tuple, str, tuple, bool, int, int]] = {}
    offset = 0
    for key, (directory_stamp, source, source_stamp, is_package, code) in blobs.items():
        index[key] = (directory_stamp, source, source_stamp, is_package, offset, len(code))
        offset += len(code)
    encoded = marshal.dumps(index)
    head = header() + len(encoded).to_bytes(_INDEX_SIZE, "big")
    assert _cache_dir is not None
    dir_fd = open_private_dir(_cache_dir)
    try:
        write_atomically(dir_fd, CACHE_NAME, head + encoded + b"".join(blob[4] for blob in blobs.values()))
    finally:
        posix.close(dir_fd)
