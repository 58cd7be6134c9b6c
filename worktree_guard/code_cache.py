"""The code of the modules the hook process imports, from one cached file instead of one `.pyc` file each.

Before a module's code runs, importing it from its `.pyc` costs the import system about 50–100 µs here: a stat
of its directory and of its source, opening, reading and closing the `.pyc`, and the finder's and loader's own
work. A Bash call judged in-process imports about 130 modules that way: the guard's, bashlex's, pluggy's and the
standard library's that they need. `install()` puts a finder first on `sys.meta_path` that serves them from one
file in the user's private cache directory: its index is read once, and each module's code with one `pread`.

**The same modules, with the same code.** The finder stands in for `PathFinder` only, the finder the import
system asks after the built-in and frozen ones: it answers nothing while any other finder stands between it and
`PathFinder`, and nothing for a built-in or frozen module. A module is served only when all of these hold:
1. the directories `PathFinder` would search up to the one it was found in (the parent package's one
   `__path__` directory, or the first entries of `sys.path`) are the same absolute paths as when it was cached;
2. each of those directories has the same modification time, inode and device: a file added, removed or
   renamed there changes them. This is the rule by which the import system's own `FileFinder` lists a
   directory again, so an ordinary import would find the same file;
3. its source file's size, modification time, change time, inode and device are unchanged. A `.pyc` file
   holds only the size and the modification time.

The module is then made by importlib's own `SourceFileLoader`, so `__file__`, `__cached__`, `__spec__`,
`__loader__`, `__path__`, tracebacks and `get_source` are as usual. Only its code object comes from the cache.

A module the cache does not hold (or holds stale) is found by `PathFinder` itself and read by the same loader as
usual, which records its code object. Each module is stamped before and after the read, so a module edited in
between is not recorded. `save()` runs after the reply is written: when this process recorded any module, it
rewrites the file with those, and with every other entry whose source still exists.

**Trust.** The file is code the hook runs. It lives where the parse tables do (`private_dir`: owned by the
user, mode 0700, outside every worktree and refused to an agent's writes), so only what could also rewrite the
`.pyc` files or the installed packages can change it. Like a `.pyc` file it has no checksum: it is written to a
temporary file and renamed into place, so a reader never sees it half-written, and a reader keeps reading the
file it opened.
"""

from __future__ import annotations

import _imp
import marshal
import posix
import sys

# importlib.machinery's classes, from the bootstrap modules every interpreter holds from its start: importing
# importlib.machinery (or typing) here would load them before the finder is in place, and not from the cache.
from _frozen_importlib import BuiltinImporter, FrozenImporter, ModuleSpec
from _frozen_importlib_external import PathFinder, SourceFileLoader

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Changes whenever the layout of the file changes.
FORMAT = 2
MAGIC = b"WGCC"
CACHE_NAME = f"hook-code-{sys.implementation.cache_tag}.bin"
_INDEX_SIZE = 8  # bytes of the index's length, after the header line

#: The index, module name → (directories searched, their stamps, source, source stamp, is a package, offset,
#: length); the offset counts from `_base`, the end of the index.
_index: dict[str, tuple[tuple[str, ...], tuple, str, tuple, bool, int, int]] = {}
_fd: int | None = None  # the cache file as opened by install(): its code is read from this file, whatever replaces it
_base = 0
_cache_dir: str | None = None
_opened: tuple | None = None  # the stamp of the file install() opened (None: there was none)
#: name → the index's entry without its place in the file, and the code object, of each module read as usual.
_recorded: dict[str, tuple[tuple[str, ...], tuple, str, tuple, bool, Any]] = {}
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


def _directory_stamps(directories: tuple[str, ...]) -> tuple:
    """The stamps of directories searched, each taken once in this process (as FileFinder keeps its listing)."""
    stamps = []
    for directory in directories:
        if directory not in _stamps:
            _stamps[directory] = stamp(directory, directory=True)
        stamps.append(_stamps[directory])
    return tuple(stamps)


class CachedCode:
    """The meta path finder: a module from the cache when it holds it unchanged, else as PathFinder finds it, with a
    loader that records its code."""

    @staticmethod
    def find_spec(name: str, path: Any = None, target: Any = None) -> Any:
        try:
            searched = _searched(name, path)
            if searched is None:
                return None
            spec = _cached_spec(name, searched)
            if spec is None:
                spec = _recording_spec(name, path, searched)
            return spec
        except Exception:  # noqa: BLE001 — anything odd: the ordinary finders decide
            return None

    @staticmethod
    def invalidate_caches() -> None:
        _stamps.clear()


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
    if path is None:
        if name in sys.builtin_module_names or _imp.is_frozen(name):
            return None
        searched = tuple(sys.path)
    else:
        searched = tuple(path)
        if len(searched) != 1:
            return None
    if not all(type(entry) is str and entry.startswith("/") for entry in searched):
        return None  # '' is the cwd, whose stamp is always None: another process's cwd may hold the module
    return searched


def _leaf(name: str) -> str:
    return name.rpartition(".")[2]


def _cached_spec(name: str, searched: tuple[str, ...]) -> Any:
    entry = _index.get(name) if _fd is not None else None
    if entry is None:
        return None
    directories, directory_stamps, source, source_stamp, is_package, offset, length = entry
    if searched[: len(directories)] != directories or _directory_stamps(directories) != directory_stamps:
        return None
    if stamp(source) != source_stamp:
        return None
    loader = CachedLoader(name, source)
    loader.blob = (offset, length)
    spec = ModuleSpec(name, loader, origin=source, is_package=is_package)
    spec.has_location = True  # as spec_from_file_location: __file__ and __cached__ are set from the origin
    if is_package:
        spec.submodule_search_locations = [source.rpartition("/")[0]]
    return spec


def _recording_spec(name: str, path: Any, searched: tuple[str, ...]) -> Any:
    """PathFinder's spec for `name`; a source module's loader records its code and where it was found."""
    spec = PathFinder.find_spec(name, path)
    if spec is None or type(spec.loader) is not SourceFileLoader or not isinstance(spec.origin, str):
        return spec
    is_package = spec.submodule_search_locations is not None
    found = spec.origin.removesuffix("/__init__.py" if is_package else ".py").rpartition("/")[0]
    if found not in searched or spec.origin != f"{found}/{_leaf(name)}" + ("/__init__.py" if is_package else ".py"):
        return spec
    directories = searched[: searched.index(found) + 1]
    loader = CachedLoader(name, spec.origin)
    loader.found = (directories, _directory_stamps(directories), is_package)
    spec.loader = loader
    return spec


class CachedLoader(SourceFileLoader):
    """importlib's loader of a source module, with the code object read from the cache file; or, for a module
    read as usual (`found` set), recording its code for `save()`."""

    blob: tuple[int, int] | None = None
    found: tuple[tuple[str, ...], tuple, bool] | None = None

    def get_code(self, fullname: str) -> Any:
        if self.blob is not None and _fd is not None:
            offset, length = self.blob
            try:
                return marshal.loads(posix.pread(_fd, length, _base + offset))
            except (OSError, EOFError, ValueError, TypeError):  # a file cut short or damaged: the .pyc
                pass
        if self.found is None:
            return super().get_code(fullname)
        directories, directory_stamps, is_package = self.found
        before = stamp(self.path)
        code = super().get_code(fullname)
        if code is not None and before is not None and stamp(self.path) == before and None not in directory_stamps[-1:]:
            _recorded[fullname] = (directories, directory_stamps, self.path, before, is_package, code)
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
    global _fd, _index, _base, _opened
    from .private_dir import open_private_dir

    dir_fd = open_private_dir(cache_dir)
    try:
        _fd = posix.open(CACHE_NAME, posix.O_RDONLY | posix.O_NOFOLLOW | posix.O_CLOEXEC, dir_fd=dir_fd)
    except FileNotFoundError:
        return
    finally:
        posix.close(dir_fd)
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
    if type(index) is not dict or not all(type(e) is tuple and len(e) == 7 for e in index.values()):
        raise ValueError("the index has the wrong shape")
    _index, _base = index, begin + size


def _close() -> None:
    global _fd, _index
    if _fd is not None:
        posix.close(_fd)
    _fd, _index = None, {}


def save() -> None:
    """Rewrite the cache file when this process read a module as usual: with the code recorded, and every other
    entry of the file whose source still exists."""
    if _cache_dir is None or not _recorded:
        return
    try:
        st = posix.stat(f"{_cache_dir}/{CACHE_NAME}")
        now = (st.st_ino, st.st_dev, st.st_mtime_ns, st.st_size)
    except OSError:
        now = None
    if now != _opened:
        return  # another hook process saved it meanwhile (many calls at once on a cold cache): the next call adds ours
    blobs = {name: (*entry[:5], marshal.dumps(entry[5])) for name, entry in _recorded.items()}
    for name, (directories, directory_stamps, source, source_stamp, is_package, offset, length) in _index.items():
        if name in blobs or stamp(source) is None or _fd is None:  # a source removed: its entry goes
            continue
        code = posix.pread(_fd, length, _base + offset)
        if len(code) == length:
            blobs[name] = (directories, directory_stamps, source, source_stamp, is_package, code)
    _write(blobs)


def _write(blobs: dict[str, tuple[tuple[str, ...], tuple, str, tuple, bool, bytes]]) -> None:
    from .private_dir import open_private_dir, write_atomically

    index = {}
    offset = 0
    for name, (directories, directory_stamps, source, source_stamp, is_package, code) in blobs.items():
        index[name] = (directories, directory_stamps, source, source_stamp, is_package, offset, len(code))
        offset += len(code)
    encoded = marshal.dumps(index)
    assert _cache_dir is not None
    dir_fd = open_private_dir(_cache_dir)
    try:
        write_atomically(dir_fd, CACHE_NAME, header() + len(encoded).to_bytes(_INDEX_SIZE, "big") + encoded + b"".join(blob[5] for blob in blobs.values()))
    finally:
        posix.close(dir_fd)
