"""Site-packages for a hook process started with `-S`: the directories at once, `.pth` code only when an import needs it.

`python -S -P …/fast_hook.py` skips site-packages, so that a call the daemon answers costs little more than the
interpreter's start. Judging in-process, it needs them (pluggy, bashlex). `site.main()` would also run the
`import` lines of every `.pth` file, and in an editable install that is most of what `python -c pass` costs
(the install's import finder, setuptools' distutils shim: ≈ 4 ms of an in-process call measured here) although
the hook never imports through them (`fast_hook.py` finds the package beside itself).

So `load()` runs `site.main()` with its `.pth` reader replaced: the path lines of every file are added at once,
in site's order, as site adds them; the `import` lines are set aside, and a finder appended to `sys.meta_path`
runs them, in site's order, the first time an import finds nothing, and then looks again. An import that only
such a line makes possible (a third-party plugin installed in editable mode) still succeeds, at the cost the
line would have had at start-up. `flush()` runs them at once: before the entry points are read, and before a
third-party plugin is loaded. What the set-aside lines may still change for the entry-point cache is given by
`set_aside_stamp()` (the files) and `added_paths()` (the directories their code added, once it ran).

Known difference from `site.main()`: a `sitecustomize` or `usercustomize` module that only a set-aside line would
make importable is not run (site runs them before the finder is in place; one on the ordinary paths runs).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator
from typing import Any

#: The `import` lines set aside and not yet run, as (site directory, file name, line), in site's order.
_pending: list[tuple[str, str, str]] = []
#: Every `.pth` file that had a line set aside (kept after the lines ran: the entry-point cache's key).
_files: list[str] = []
#: sys.path entries that appeared while set-aside lines ran.
_added: list[str] = []

#: Modules of another platform's or another Python's standard library, which the standard library probes for
#: when it loads (`copy` tries Jython's `org.python.core`, `subprocess` Windows' `_winapi`). Not finding them
#: does not run the set-aside lines (tests/test_site_packages.py checks that the hook's ordinary calls run
#: none); a third-party plugin is loaded only after `flush()`, whatever its package is called.
OTHER_PLATFORMS = frozenset({"org", "java", "nt", "_winapi", "winreg", "msvcrt", "_overlapped", "_wmi", "_scproxy"})


def load() -> None:
    """`site.main()` with the `.pth` files' `import` lines deferred to the first import that needs them."""
    import site

    with pth_imports_set_aside():
        site.main()


@contextlib.contextmanager
def pth_imports_set_aside() -> Iterator[None]:
    """While inside, site adds the path lines of each `.pth` file it reads and leaves its `import` lines to `flush`."""
    import site

    read = site.addpackage

    def add_paths_set_aside_code(sitedir: str, name: str, known_paths: Any) -> Any:
        return _read_pth(site, sitedir, name, known_paths)

    site.addpackage = add_paths_set_aside_code
    try:
        yield
    finally:
        site.addpackage = read
        if _pending and not any(isinstance(f, RunSetAsideOnMiss) for f in sys.meta_path):
            sys.meta_path.append(RunSetAsideOnMiss())


def _read_pth(site: Any, sitedir: str, name: str, known_paths: Any) -> Any:
    """site.addpackage (Python 3.11) with its `import` lines set aside instead of run."""
    reset = known_paths is None
    if reset:
        known_paths = site._init_pathinfo()
    fullname = os.path.join(sitedir, name)
    try:
        f = io.TextIOWrapper(io.open_code(fullname), encoding="locale")
    except OSError:
        return None if reset else known_paths
    set_aside = False
    with f:
        try:
            for line in f:
                if line.startswith("#") or line.strip() == "":
                    continue
                if line.startswith(("import ", "import\t")):
                    _pending.append((sitedir, name, line))
                    set_aside = True
                    continue
                directory, dircase = site.makepath(sitedir, line.rstrip())
                if dircase not in known_paths and os.path.exists(directory):
                    sys.path.append(directory)
                    known_paths.add(dircase)
        except Exception as error:  # noqa: BLE001 — as site: report the file, ignore the rest of it
            print(f"Error processing {fullname}: {type(error).__name__}: {error}\nRemainder of file ignored", file=sys.stderr)
    if set_aside:
        _files.append(fullname)
    return None if reset else known_paths


def flush() -> None:
    """Run the set-aside `import` lines now, in site's order (each once), as site runs them."""
    for finder in [f for f in sys.meta_path if isinstance(f, RunSetAsideOnMiss)]:
        sys.meta_path.remove(finder)
    if not _pending:
        return
    import site
    import traceback

    pending = list(_pending)
    _pending.clear()
    before = set(sys.path)
    for sitedir, name, line in pending:  # `sitedir`: namespace-package lines read it from their caller's frame
        try:
            exec(line, vars(site), {})  # noqa: S102 — what site.addpackage does with the line
        except Exception:  # noqa: BLE001 — as site: report it and go on
            print(f"Error processing a line of {os.path.join(sitedir, name)}:", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
    _added.extend(p for p in sys.path if p not in before and p not in _added)


def set_aside_stamp() -> list[str]:
    """Each `.pth` file that had a line set aside, with its size and modification time."""
    stamp = []
    for path in _files:
        try:
            info = os.stat(path)
            stamp.append(f"{path}\0{info.st_size}\0{info.st_mtime_ns}")
        except OSError:
            stamp.append(f"{path}\0-")
    return stamp


def added_paths() -> list[str]:
    """The sys.path entries the set-aside lines added when they ran (none yet: they have not run)."""
    return list(_added)


class RunSetAsideOnMiss:
    """The last finder: an import nothing else found runs the set-aside lines, then is looked up again."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname.partition(".")[0] in OTHER_PLATFORMS:
            return None
        flush()
        for finder in sys.meta_path:
            find_spec = getattr(finder, "find_spec", None)
            if find_spec is not None:
                spec = find_spec(fullname, path, target)
                if spec is not None:
                    return spec
        return None
