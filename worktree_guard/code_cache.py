"""The code of the modules the hook process imports, from one cached file instead of one `.pyc` file each.

Before a module's code runs, importing it from its `.pyc` costs the import system about 50–100 µs here: a stat
of its directory and of its source, opening, reading and closing the `.pyc`, and the finder's and loader's own
work. A Bash call judged in-process imports about 130 modules that way: the guard's, bashlex's, pluggy's and the
standard library's that they need. `install()` puts a finder first on `sys.meta_path` that serves them from one
file in the user's private cache directory: its index is read once, and each module's code with one `pread`.

**The same modules, with the same code.** The finder stands in for `PathFinder` only, the finder the import
system asks after the built-in and frozen ones: it answers nothing while any other finder stands between it and
`PathFinder`, and nothing for a built-in or frozen name. A module is served only when all of these hold:
1. the directories `PathFinder` would search up to the one it was found in (its parent package's `__path__`,
   or the first entries of `sys.path`) are the same absolute paths as when it was cached;
2. each of those directories, and what each holds under the module's name (absent, or a directory), has the same
   modification time, inode and device. A file added, removed or renamed in a directory changes them: that is
   the rule by which the import system's own `FileFinder` lists a directory again. A package directory that
   gains an `__init__` changes the second;
3. its source file's size, modification time, change time, inode and device are unchanged (a `.pyc` file holds
   only the size and the modification time), the directory of its `.pyc` file is unchanged (Python may take a
   `.pyc` whose size and seconds match although the source changed, and then the cache holds what it took, until
   that `.pyc` is written again: Python, `py_compile` and `compileall` write it to a new file and rename it, which
   changes the directory), and its code object names its source;
4. the user can write the source's directory: the file adds no way to change a module's code that its `.pyc`
   did not give already (a read-only standard library is read from its own `.pyc` files).

The module is then made by importlib's own `SourceFileLoader`, so `__file__`, `__cached__`, `__spec__`,
`__loader__`, `__path__`, tracebacks and `get_source` are as usual. Only its code object comes from the cache.

A module the cache does not hold (or holds stale, or cut short) is found by `PathFinder` itself and read by the
same loader as usual, which records its code object with its source's and its `.pyc`'s stamps from before the
read (an edit during the read leaves a stamp that no longer matches). `save()` runs
after the reply is written: when this process recorded a module and the file is still the one it opened, it
rewrites the file with those and every other entry whose source still exists. Entries are keyed by name and
search path, so several installations of one Python share the file; the interpreter's exact version and its
optimisation level name the file.

**Trust.** The file is code the hook runs. It lives where the parse tables do (`private_dir`: owned by the
user, mode 0700, outside every worktree, and the guard's own directories are never writable by an isolated
agent's file tools or shell writes). Code the user runs can rewrite it, as it can rewrite the `.pyc` files of the
directories it can write (rule 4); an inline interpreter, which the default profile passes, is such code. The file
is opened without blocking and must be a regular file. Like a `.pyc` file it has no checksum: it is written to a
new temporary file and renamed into place, so a reader never sees it half-written and keeps reading the file it
opened; a code object that does not name its module's source is not run.
"""

from __future__ import annotations

import _imp
import marshal
import posix
import sys

# importlib.machinery's classes, from the bootstrap modules every interpreter holds from its start: importing
# importlib.machinery (or typing) here would load them before the finder is in place, and not from the cache.
from _frozen_importlib import BuiltinImporter, FrozenImporter, ModuleSpec
from _frozen_importlib_external import PathFinder, SourceFileLoader, cache_from_source

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Changes whenever the layout of the file changes.
FORMAT = 5
MAGIC = b"WGCC"
CACHE_NAME = f"hook-code-{sys.implementation.cache_tag}-{sys.hexversion:x}-o{sys.flags.optimize}.bin"
_INDEX_SIZE = 8  # bytes of the index's length, after the header line
_CODE = type(compile("", "", "exec"))

#: The index, key (`_key`) → (directories searched, their stamps, (source, its stamp, the directory of its .pyc,
#: that one's stamp), is a package, offset, length); the offset counts from `_base`, the end of the index.
_index: dict[str, tuple] = {}
_fd: int | None = None  # the cache file as opened by install(): its code is read from this file, whatever replaces it
_base = 0
_cache_dir: str | None = None
_opened: tuple | None = None  # the stamp of the file install() opened (None: there was none)
#: key → the index's entry without its place in the file, and the code object, of each module read as usual.
_recorded: dict[str, tuple] = {}
_stamps: dict[str, tuple | None] = {}
_writable: dict[str, bool] = {}
#: How the last `install()` went ("hit", "none", "not used (…)"), for tests.
last_load: dict[str, str] = {}


def header() -> bytes:
    """What a file must begin with to be read by this Python: the format, the interpreter's exact version, its
    bytecode's cache tag and optimisation level, the marshal version, the `.pyc` prefix directory."""
    prefix = repr(sys.pycache_prefix)  # PYTHONPYCACHEPREFIX: another .pyc for each source
    return MAGIC + f" {FORMAT} {sys.hexversion} {sys.implementation.cache_tag} {sys.flags.optimize} {marshal.version} {prefix}\n".encode("utf-8", "surrogateescape")


def stamp(path: str, *, directory: bool = False) -> tuple | None:
    """What must not change for a cached module to be served (see the module's docstring); None when absent."""
    try:
        st = posix.stat(path)
    except OSError:
        return None
    if directory:
        return (st.st_mtime_ns, st.st_ino, st.st_dev)
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def _file_stamps(source: str) -> tuple | None:
    """Rule 3: (source, its stamp, its `.pyc`'s directory, that one's stamp or None); None when the source is gone."""
    source_stamp = stamp(source)
    if source_stamp is None:
        return None
    cached = cache_from_source(source).rpartition("/")[0]
    return (source, source_stamp, cached, _directory_stamp(cached))


def _directory_stamp(directory: str) -> tuple | None:
    """A searched directory's stamp, taken once in this process (as FileFinder keeps its listing)."""
    if directory not in _stamps:
        _stamps[directory] = stamp(directory, directory=True)
    return _stamps[directory]


def _search_stamps(directories: tuple[str, ...], leaf: str) -> tuple:
    """Rule 2: each directory's stamp, and that of what it holds under the module's name (FileFinder looks into a
    directory of that name on every lookup)."""
    return tuple((_directory_stamp(d), stamp(f"{d}/{leaf}", directory=True)) for d in directories)


def _search_unchanged(directories: tuple[str, ...], leaf: str, recorded: tuple) -> bool:
    """`_search_stamps(directories, leaf) == recorded`, without a stat for a name that was absent: a directory whose
    stamp is unchanged still lacks it (creating it would have changed the directory)."""
    if len(recorded) != len(directories):
        return False
    for directory, (directory_stamp, leaf_stamp) in zip(directories, recorded):
        if _directory_stamp(directory) != directory_stamp:
            return False
        if leaf_stamp is not None and stamp(f"{directory}/{leaf}", directory=True) != leaf_stamp:
            return False
    return True


def _may_cache(source: str) -> bool:
    """Rule 4: the user can write the source's directory (and so its `.pyc` files) already."""
    directory = source.rpartition("/")[0]
    if directory not in _writable:
        _writable[directory] = posix.access(directory, posix.W_OK)
    return _writable[directory]


def _key(name: str, searched: tuple[str, ...]) -> str:
    return "\0".join((name, *searched))


class CachedCode:
    """The meta path finder: a module from the cache when it holds it unchanged, else as PathFinder finds it, with a
    loader that records its code."""

    @staticmethod
    def find_spec(name: str, path: Any = None, target: Any = None) -> Any:
        try:
            searched = _searched(name, path)
            if searched is None:
                return None
            return _cached_spec(name, searched) or _recording_spec(name, path, searched)
        except Exception:  # noqa: BLE001 — anything odd: the ordinary finders decide
            return None

    @staticmethod
    def invalidate_caches() -> None:
        _stamps.clear()
        _writable.clear()


def _searched(name: str, path: Any) -> tuple[str, ...] | None:
    """The directories PathFinder would search for `name`, in order; None when the finder must stay out of it."""
    finders = sys.meta_path
    position = next((i for i, finder in enumerate(finders) if finder is CachedCode), None)
    if position is None:
        return None
    for finder in finders[position + 1 :]:  # nothing but the built-in and frozen finders before PathFinder
        if finder is PathFinder:
            break
        if finder is not BuiltinImporter and finder is not FrozenImporter:
            return None
    else:
        return None
    if _imp.is_builtin(name) or _imp.is_frozen(name):  # a submodule too (3.11 freezes importlib.util)
        return None
    searched = tuple(sys.path if path is None else path)
    if not all(type(entry) is str and entry.startswith("/") for entry in searched):
        return None  # '' is the cwd, whose stamp is always None: another process's cwd may hold the module
    return searched


def _leaf(name: str) -> str:
    return name.rpartition(".")[2]


def _cached_spec(name: str, searched: tuple[str, ...]) -> Any:
    entry = _index.get(_key(name, searched)) if _fd is not None else None
    if entry is None:
        return None
    directories, search_stamps, files, is_package, offset, length = entry
    if searched[: len(directories)] != directories or not _search_unchanged(directories, _leaf(name), search_stamps):
        return None
    source, source_stamp, cached, cached_stamp = files
    if stamp(source) != source_stamp or _directory_stamp(cached) != cached_stamp or not _may_cache(source):
        return None
    loader = CachedLoader(name, source, (searched, directories, search_stamps, is_package), (offset, length))
    spec = ModuleSpec(name, loader, origin=source, is_package=is_package)
    spec.has_location = True  # as spec_from_file_location: __file__ and __cached__ are set from the origin
    if is_package:
        spec.submodule_search_locations = [source.rpartition("/")[0]]
    return spec


def _recording_spec(name: str, path: Any, searched: tuple[str, ...]) -> Any:
    """PathFinder's spec for `name`; a source module's loader records its code and where it was found."""
    stamps = _search_stamps(searched, _leaf(name))  # before the search: a file made during it changes a stamp
    spec = PathFinder.find_spec(name, path)
    if spec is None or type(spec.loader) is not SourceFileLoader or not isinstance(spec.origin, str):
        return spec
    is_package = spec.submodule_search_locations is not None
    found = spec.origin.removesuffix("/__init__.py" if is_package else ".py").rpartition("/")[0]
    if found not in searched or not _may_cache(spec.origin):
        return spec
    count = searched.index(found) + 1
    spec.loader = CachedLoader(name, spec.origin, (searched, searched[:count], stamps[:count], is_package))
    return spec


class CachedLoader(SourceFileLoader):
    """importlib's loader of a source module, with the code object read from the cache file (`blob`); or read as
    usual and recorded for `save()`."""

    served = False  # the code came from the cache (for tests)

    def __init__(self, fullname: str, path: str, found: tuple, blob: tuple[int, int] | None = None) -> None:
        super().__init__(fullname, path)
        self.found = found  # (searched, directories, their stamps, is a package): what a recorded entry holds
        self.blob = blob  # (offset, length) of the cached code, when there is some

    def get_code(self, fullname: str) -> Any:
        if self.blob is not None and _fd is not None:
            offset, length = self.blob
            try:
                code = marshal.loads(posix.pread(_fd, length, _base + offset))
            except Exception:  # noqa: BLE001 — a file cut short or damaged: read as usual, and recorded again
                code = None
            if type(code) is _CODE and code.co_filename == self.path:
                self.served = True
                return code
        before = _file_stamps(self.path)
        code = super().get_code(fullname)
        if code is not None and before is not None:
            searched, directories, search_stamps, is_package = self.found
            _recorded[_key(fullname, searched)] = (directories, search_stamps, before, is_package, code)
        return code  # a .pyc written by this read (there was none) changes its stamp: recorded again next time


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
    global _fd, _index, _base, _opened
    from .private_dir import open_private_dir, open_regular

    dir_fd = open_private_dir(cache_dir)
    try:
        _fd = open_regular(dir_fd, CACHE_NAME)
    finally:
        posix.close(dir_fd)
    if _fd is None:
        return
    st = posix.fstat(_fd)
    _opened = (st.st_ino, st.st_dev, st.st_mtime_ns, st.st_size)
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
    end = st.st_size - (begin + size)
    if type(index) is not dict or not all(type(k) is str and _well_formed(e, end) for k, e in index.items()):
        raise ValueError("the index has the wrong shape")
    _index, _base = index, begin + size


def _well_formed(entry: Any, end: int) -> bool:
    """An index entry of the right types, whose code lies inside the file (`end`: the size of its code part)."""
    if type(entry) is not tuple or len(entry) != 6:
        return False
    directories, search_stamps, files, is_package, offset, length = entry
    return (
        type(directories) is tuple and all(type(d) is str for d in directories) and type(search_stamps) is tuple
        and len(search_stamps) == len(directories) and type(files) is tuple and len(files) == 4
        and all(type(f) is str for f in files[::2]) and type(is_package) is bool
        and type(offset) is int and type(length) is int and 0 <= offset and 0 < length and offset + length <= end
    )


def _close() -> None:
    global _fd, _index
    if _fd is not None:
        posix.close(_fd)
    _fd, _index = None, {}


def save() -> None:
    """Rewrite the cache file when this process read a module as usual: with the code recorded, and every other
    entry of the file whose source still exists. Not when another process saved the file meanwhile (many calls at
    once on a cold cache): the next call adds what this one recorded."""
    if _cache_dir is None or not _recorded:
        return
    try:
        st = posix.stat(f"{_cache_dir}/{CACHE_NAME}")
        now = (st.st_ino, st.st_dev, st.st_mtime_ns, st.st_size)
    except OSError:
        now = None
    if now != _opened:
        return
    blobs = {key: (*entry[:4], marshal.dumps(entry[4])) for key, entry in _recorded.items()}
    for key, (directories, search_stamps, files, is_package, offset, length) in _index.items():
        if key in blobs or stamp(files[0]) is None or _fd is None:  # a source removed: its entry goes
            continue
        code = posix.pread(_fd, length, _base + offset)
        if len(code) == length:
            blobs[key] = (directories, search_stamps, files, is_package, code)
    _write(blobs)


def _write(blobs: dict[str, tuple]) -> None:
    from .private_dir import open_private_dir, write_atomically

    index = {}
    offset = 0
    for key, (directories, search_stamps, files, is_package, code) in blobs.items():
        index[key] = (directories, search_stamps, files, is_package, offset, len(code))
        offset += len(code)
    encoded = marshal.dumps(index)
    assert _cache_dir is not None
    dir_fd = open_private_dir(_cache_dir)
    try:
        write_atomically(dir_fd, CACHE_NAME, header() + len(encoded).to_bytes(_INDEX_SIZE, "big") + encoded + b"".join(blob[4] for blob in blobs.values()))
    finally:
        posix.close(dir_fd)
