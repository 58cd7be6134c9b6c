"""Site-packages for a hook process started with `-S`: the directories at once, `.pth` code only when an import needs it.

`python -S -P …/fast_hook.py` skips site-packages, so that a call the daemon answers costs little more than the
interpreter's start. Judging in-process, it needs them (pluggy, bashlex). `site.main()` would also run the
`import` lines of every `.pth` file, and in an editable install that is most of what `python -c pass` costs
(the install's import finder: ≈ 11 ms of 28 measured here) although the hook never imports through it
(`fast_hook.py` finds the package beside itself).

So `load()` runs `site.main()` with every `.pth` file that holds an `import` line set aside (files of paths only
are read as site reads them), and appends a finder to `sys.meta_path` that runs the set-aside files, in site's
order and through site's own reader, the first time an import finds nothing, and then looks again. An import
that only such a file makes possible (a third-party plugin installed in editable mode) still succeeds, at the
cost the file would have had at start-up. `flush()` runs them at once: the entry-point scan calls it before
reading the installed distributions.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator
from typing import Any

#: The set-aside `.pth` files, as (site directory, file name), in the order site met them.
_set_aside: list[tuple[str, str]] = []

#: Modules of another platform's or another Python's standard library, which the standard library probes for
#: when it loads (`copy` tries Jython's `org.python.core`, `subprocess` Windows' `_winapi`). No `.pth` file
#: supplies them, so not finding them does not run the set-aside files (tests/test_site_packages.py checks
#: that the hook's ordinary calls run none).
OTHER_PLATFORMS = frozenset({"org", "java", "nt", "_winapi", "winreg", "msvcrt", "_overlapped", "_wmi", "_scproxy"})


def load() -> None:
    """`site.main()` with the `.pth` files' `import` lines deferred to the first import that needs them."""
    import site

    with pth_imports_set_aside():
        site.main()


@contextlib.contextmanager
def pth_imports_set_aside() -> Iterator[None]:
    """While inside, site reads `.pth` files of paths as usual and sets aside those with an `import` line."""
    import site

    read = site.addpackage

    def add_or_set_aside(sitedir: str, name: str, known_paths: Any) -> Any:
        if _has_import_line(os.path.join(sitedir, name)):
            _set_aside.append((sitedir, name))
            return known_paths
        return read(sitedir, name, known_paths)

    site.addpackage = add_or_set_aside
    try:
        yield
    finally:
        site.addpackage = read
        if _set_aside and not any(isinstance(f, RunSetAsideOnMiss) for f in sys.meta_path):
            sys.meta_path.append(RunSetAsideOnMiss())


def _has_import_line(path: str) -> bool:
    """Whether site would execute a line of this `.pth` file (read as site reads it); unreadable: no (site skips it)."""
    try:
        with io.TextIOWrapper(io.open_code(path), encoding="locale") as f:
            return any(line.startswith(("import ", "import\t")) for line in f)
    except (OSError, ValueError):  # ValueError: undecodable, which site reports when it reads the file
        return True  # let site's own reader meet it, with its own report, if anything ever needs it


def flush() -> None:
    """Run the set-aside `.pth` files now, as site would have at start-up (each once)."""
    for finder in [f for f in sys.meta_path if isinstance(f, RunSetAsideOnMiss)]:
        sys.meta_path.remove(finder)
    if not _set_aside:
        return
    import site

    pending = list(_set_aside)
    _set_aside.clear()
    for sitedir, name in pending:
        try:
            site.addpackage(sitedir, name, None)
        except Exception:  # noqa: BLE001 — undecodable: site would not have started; what it held stays unfound
            continue


class RunSetAsideOnMiss:
    """The last finder: an import nothing else found runs the set-aside `.pth` files, then is looked up again."""

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
