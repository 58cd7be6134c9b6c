"""Site-packages for a hook process started with `-S`: as `site.main()` loads them, less three known `.pth` lines until needed.

`python -S -P …/fast_hook.py` skips site-packages, so that a call the daemon answers costs little more than the
interpreter's start. Judging in-process, it needs them (pluggy, bashlex). `site.main()` also runs the code lines
of every `.pth` file, and in an editable install two of them are most of what `python -c pass` costs although
the hook never imports through them: setuptools' editable-install finder (`fast_hook.py` finds the package
beside itself) and its distutils shim (≈ 4 ms of an in-process call measured here).

So `load()` runs `site.main()` itself — the running Python's own `.pth` reader, with its order, encodings and
error handling — and only the lines in `DEFERRED_LINES` are set aside: an editable install's finder, setuptools'
distutils shim and virtualenv's `_virtualenv`, none of which adds a directory to `sys.path`. Every other line runs
at once, as site runs it (one that adds a directory only sometimes included). A finder appended to
`sys.meta_path` runs the set-aside lines, in site's order, the first time an import finds nothing (a
third-party plugin installed in editable mode is imported through such a finder), and then looks again;
`flush()` runs them at once (before the entry points are read or a third-party plugin is loaded).
`set_aside_files()` names the files they came from, for the entry-point cache's key.

Known difference from `site.main()`: a `sitecustomize` or `usercustomize` module that only a set-aside line would
make importable is not run (site runs them before the finder is in place; one on the ordinary paths runs).
"""

from __future__ import annotations

import builtins
import contextlib
import os
import re
import sys
from collections.abc import Iterator
from typing import Any

#: The `.pth` code lines that wait until an import needs them (each matched whole, after trailing whitespace):
#: none adds a directory to sys.path.
DEFERRED_LINES = (
    # setuptools ≥ 64, `pip install -e`: the finder that maps the editable distribution's packages to its sources
    re.compile(r"import (__editable___\w+_finder); \1\.install\(\)"),
    # setuptools' distutils-precedence.pth: a shim for `import distutils`
    re.compile(re.escape("import os; var = 'SETUPTOOLS_USE_DISTUTILS'; enabled = os.environ.get(var, 'local') == 'local'; enabled and __import__('_distutils_hack').add_shim();")),
    # virtualenv's _virtualenv.pth: patches for distutils and setuptools
    re.compile(r"import _virtualenv"),
)

#: The set-aside lines not yet run, as (site directory, file name, line), in site's order.
_pending: list[tuple[str, str, str]] = []
#: Every `.pth` file a line was set aside from (kept after the lines ran: the entry-point cache's key).
_files: list[str] = []

#: Modules of another platform's or another Python's standard library, which the standard library probes for
#: when it loads (`copy` tries Jython's `org.python.core`, `subprocess` Windows' `_winapi`). Not finding them
#: does not run the set-aside lines (tests/test_site_packages.py checks that the hook's ordinary calls run
#: none); a third-party plugin is loaded only after `flush()`, whatever its package is called.
OTHER_PLATFORMS = frozenset({"org", "java", "nt", "_winapi", "winreg", "msvcrt", "_overlapped", "_wmi", "_scproxy"})


def load() -> None:
    """`site.main()` with the lines of DEFERRED_LINES left to the first import that needs them."""
    import site

    with pth_lines_deferred():
        site.main()


@contextlib.contextmanager
def pth_lines_deferred() -> Iterator[None]:
    """While inside, site's `.pth` reader runs every code line but those of DEFERRED_LINES, which it sets aside.

    site's reader runs a code line with `exec(line)` in its own frame; a module global named `exec` in site's
    namespace is found before the builtin, so it is put there for as long as this lasts. (A Python whose reader
    stopped calling `exec` by that name would run every line, as `site.main()` does: slower, never different.)
    """
    import site

    had_own = "exec" in vars(site)

    def exec_or_set_aside(line: Any, *rest: Any) -> Any:
        caller = sys._getframe(1)
        if rest:
            return builtins.exec(line, *rest)
        # Lines read the reader's `sitedir` as `sys._getframe(1).f_locals['sitedir']` (namespace packages'
        # -nspkg.pth): this frame is now the one above theirs, so it holds the same names.
        sitedir, name = caller.f_locals.get("sitedir"), caller.f_locals.get("name")
        text = line.rstrip() if isinstance(line, str) else None
        deferred = text is not None and caller.f_globals is vars(site) and any(p.fullmatch(text) for p in DEFERRED_LINES)
        if deferred and isinstance(sitedir, str) and isinstance(name, str):
            _pending.append((sitedir, name, text))
            if os.path.join(sitedir, name) not in _files:
                _files.append(os.path.join(sitedir, name))
            return None
        return builtins.exec(line, caller.f_globals, caller.f_locals)

    site.exec = exec_or_set_aside  # type: ignore[attr-defined]
    try:
        yield
    finally:
        if not had_own:
            del site.exec  # type: ignore[attr-defined]
        if _pending and not any(isinstance(f, RunSetAsideOnMiss) for f in sys.meta_path):
            sys.meta_path.append(RunSetAsideOnMiss())


def flush() -> None:
    """Run the set-aside lines now, in site's order (each once), as site's reader runs them."""
    for finder in [f for f in sys.meta_path if isinstance(f, RunSetAsideOnMiss)]:
        sys.meta_path.remove(finder)
    if not _pending:
        return
    import site
    import traceback

    pending = list(_pending)
    _pending.clear()
    for sitedir, name, line in pending:
        try:
            builtins.exec(line, vars(site), {"sitedir": sitedir, "name": name, "line": line})
        except Exception:  # noqa: BLE001 — as site: report the file and go on
            print(f"Error processing a line of {os.path.join(sitedir, name)}:", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)


def set_aside_files() -> list[str]:
    """Each `.pth` file a line was set aside from (the entry-point cache's key stamps them)."""
    return list(_files)


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
