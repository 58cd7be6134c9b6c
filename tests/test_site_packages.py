"""site_packages: a `-S` hook process loads site-packages as site does, less a few known `.pth` lines until needed.

Each case runs a fresh `python -S` (the state is the interpreter's: sys.path, sys.meta_path, the set-aside
list), with a site directory of its own holding `.pth` files whose effects are visible: a path line adds a
directory; a code line leaves a mark in a file each time it runs; an editable install's finder line (one of
the deferred kind) installs a finder that serves a module and leaves a mark too.
"""

from __future__ import annotations

import json
import os
import re
import site
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.helpers import FAST_HOOK, REPO_ROOT, Repo, install_plugin, run_hook_inline, run_hook_process, subagent_payload
from worktree_guard.private_dir import cache_root


def run_python_s(code: str, tmp_path: Path) -> Any:
    """Run `code` in `python -S` with the repository importable; it prints one JSON object, returned here."""
    script = tmp_path / "case.py"
    script.write_text(f"import json, sys\nsys.path.append({str(REPO_ROOT)!r})\n{code}\n")
    result = subprocess.run([sys.executable, "-S", "-P", str(script)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def site_dir(tmp_path: Path) -> tuple[Path, Path]:
    """A site directory with a path-only `.pth` (dir `by_path`), a `.pth` with a code line that adds dir `by_code`
    and marks "code", and an editable install's finder line (setuptools' shape) whose finder serves the modules of
    dir `editable` and marks "finder" when it is installed."""
    sd = tmp_path / "site"
    for name in ("by_path", "by_code", "editable"):
        (sd / name).mkdir(parents=True)
        (sd / name / f"{name}_mod.py").write_text("VALUE = 1\n")
    marks = tmp_path / "marks"
    (sd / "a_paths.pth").write_text(f"# a comment\n{sd / 'by_path'}\n")
    (sd / "b_code.pth").write_text(f"import sys; sys.path.append({str(sd / 'by_code')!r}); open({str(marks)!r}, 'a').write('code\\n')\n")
    (sd / "__editable__.demo-1.0.pth").write_text("import __editable___demo_1_0_finder; __editable___demo_1_0_finder.install()\n")
    (sd / "__editable___demo_1_0_finder.py").write_text(
        "import importlib.machinery, sys\n"
        f"open({str(marks)!r}, 'a').write('finder\\n')\n"
        "class _Finder:\n"
        "    @classmethod\n"
        "    def find_spec(cls, fullname, path=None, target=None):\n"
        f"        return importlib.machinery.PathFinder.find_spec(fullname, [{str(sd / 'editable')!r}]) if path is None else None\n"
        "def install():\n"
        "    sys.meta_path.append(_Finder)\n"
    )
    return sd, marks


def test_only_the_known_lines_wait_and_they_run_when_an_import_needs_them(tmp_path: Path) -> None:
    sd, marks = site_dir(tmp_path)
    out = run_python_s(
        f"""
import site, os
from worktree_guard import site_packages
with site_packages.pth_lines_deferred():
    site.addsitedir({str(sd)!r})
marks = lambda: open({str(marks)!r}).read().split() if os.path.exists({str(marks)!r}) else []
state = {{"paths": [p for p in sys.path if p.startswith({str(sd)!r})], "after_load": marks()}}
try:
    import _winapi  # another platform's module: not finding it runs nothing
except ImportError:
    pass
state["after_other_platform_miss"] = marks()
import by_path_mod, by_code_mod
state["after_ordinary_imports"] = marks()
import editable_mod  # only the deferred finder serves it
state["after_editable_import"] = marks()
site_packages.flush()
try:
    import no_such_module_anywhere
except ImportError:
    pass
state["at_end"] = marks()
print(json.dumps(state))
""",
        tmp_path,
    )
    assert out == {
        "paths": [str(sd), str(sd / "by_path"), str(sd / "by_code")],
        "after_load": ["code"],  # an ordinary code line runs at once, as site runs it
        "after_other_platform_miss": ["code"],
        "after_ordinary_imports": ["code"],
        "after_editable_import": ["code", "finder"],
        "at_end": ["code", "finder"],  # once, however many lookups and flushes followed
    }


def test_without_the_context_manager_site_runs_every_line_at_once(tmp_path: Path) -> None:
    """The control: the same site directory read by site itself."""
    sd, marks = site_dir(tmp_path)
    out = run_python_s(f"import site, os\nsite.addsitedir({str(sd)!r})\nprint(json.dumps(open({str(marks)!r}).read().split()))", tmp_path)
    assert out == ["finder", "code"]  # site reads the files in sorted order


def test_code_lines_see_the_readers_names_as_under_site(tmp_path: Path) -> None:
    """Namespace packages' -nspkg.pth lines read `sys._getframe(1).f_locals['sitedir']`; others name `sitedir`."""
    sd = tmp_path / "site"
    sd.mkdir()
    out_file = tmp_path / "seen"
    (sd / "ns-nspkg.pth").write_text(f"import sys; open({str(out_file)!r}, 'a').write(sys._getframe(1).f_locals['sitedir'] + '\\n')\n")
    (sd / "plain.pth").write_text(f"import sys; open({str(out_file)!r}, 'a').write(sitedir + '\\n')\n")
    code = "import site\n{}site.addsitedir({!r})\nprint(json.dumps(open({!r}).read().split()))"
    deferred = run_python_s(code.format("from worktree_guard import site_packages\nwith site_packages.pth_lines_deferred():\n    ", str(sd), str(out_file)), tmp_path)
    out_file.unlink()
    assert deferred == run_python_s(code.format("", str(sd), str(out_file)), tmp_path) == [str(sd), str(sd)]


def plugin_process(tmp_path: Path, sd: Path) -> list[str]:
    """A fresh `-S` process whose site-packages include `sd`: the names of the third-party plugins its plugin manager
    registered (the entry points are read once, as in a hook call)."""
    return run_python_s(
        f"""
import site
own = site.getsitepackages
site.getsitepackages = lambda prefixes=None: [*own(prefixes), {str(sd)!r}]
from worktree_guard import site_packages
site_packages.load()
from worktree_guard import plugins
pm = plugins.plugin_manager()
print(json.dumps(sorted(name for name, _ in pm.list_name_plugin() if name.startswith("wg-"))))
""",
        tmp_path,
    )


def test_an_editable_plugin_loads_through_its_deferred_finder_from_a_scan_and_from_the_cache(tmp_path: Path) -> None:
    """Its code is importable only through the deferred finder line, its metadata lies in site-packages; its
    package is named like another platform's module (org.*), which alone does not run the deferred lines."""
    sd, _ = site_dir(tmp_path)
    install_plugin(sd, sd / "editable", "wg-org", "org.wgplugin.rules")
    assert plugin_process(tmp_path, sd) == ["wg-org"]  # entry points read afresh
    assert plugin_process(tmp_path, sd) == ["wg-org"]  # from the cache: plugins load after the deferred lines


def test_a_plugin_in_a_directory_that_a_code_line_adds_only_once_it_exists_is_found_when_it_appears(tmp_path: Path) -> None:
    """A review found such a line deferred, so the cache's key did not change when the directory appeared. Code
    lines other than the known ones run at once now, as site runs them."""
    sd, _ = site_dir(tmp_path)
    later = tmp_path / "later"
    (sd / "c_when.pth").write_text(f"import os, sys; p = {str(later)!r}; os.path.isdir(p) and sys.path.append(p)\n")
    assert plugin_process(tmp_path, sd) == []
    assert plugin_process(tmp_path, sd) == []  # cached
    install_plugin(later, later, "wg-later", "wg_later_plugin")
    assert plugin_process(tmp_path, sd) == ["wg-later"]
    install_plugin(sd / "by_code", sd / "by_code", "wg-code", "wg_code_plugin")
    assert plugin_process(tmp_path, sd) == ["wg-code", "wg-later"]


def pth_import_modules() -> set[str]:
    """Modules named by the import lines of this interpreter's `.pth` files, less the standard library's."""
    names = set()
    for directory in site.getsitepackages():
        for pth in Path(directory).glob("*.pth"):
            for line in pth.read_text(errors="replace").splitlines():
                if line.startswith(("import ", "import\t")):
                    names.update(re.findall(r"(?:^|;)\s*import\s+([\w.]+)", line))
                    names.update(re.findall(r"__import__\('([\w.]+)'\)", line))
    return {name for name in names if name.partition(".")[0] not in sys.stdlib_module_names}


def test_the_hook_judging_in_process_imports_no_pth_module(repo: Repo, tmp_path: Path) -> None:
    """The installed command (fast_hook.py, -S) judging a Write and a Bash call in-process: the right verdicts, and
    none of the modules this environment's `.pth` files import (the editable install's finder, setuptools'
    distutils shim) was loaded. The README's set-up (`pip install -e`) puts such files there. The first call of a
    new HOME reads the installed entry points (and so runs the files): it is made first."""
    modules = pth_import_modules()
    assert modules, "this environment has no .pth file with an import line: the test would prove nothing"
    first = run_hook_process(subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "a"), "content": "x"}), cwd=repo.worktree, command=FAST_HOOK)
    assert first.codes == []
    calls = {
        "write in W": (subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "src" / "n.py"), "content": "x"}), []),
        "write in main": (subagent_payload(repo, "Write", {"file_path": str(repo.main / "src" / "app.py"), "content": "x"}), ["WG101"]),
        "bash commit": (subagent_payload(repo, "Bash", {"command": "git add -A && git commit -m \"$(cat <<'EOF'\nx\nEOF\n)\""}), []),
    }
    for name, (data, codes) in calls.items():
        command = [FAST_HOOK[0], "-X", "importtime", *FAST_HOOK[1:]]
        result = run_hook_process(data, cwd=repo.worktree, command=command, env={"WT_GUARD_DAEMON": "0"})
        assert result.codes == codes, name
        imported = {line.split("|")[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
        assert "worktree_guard.hook" in imported, name  # the call was judged in this process
        assert not (modules & imported), (name, modules & imported)


def test_path_lines_keep_sites_order_when_a_file_also_has_code(tmp_path: Path) -> None:
    """`0mixed.pth` (read first) adds `first/` and has an import line; `1paths.pth` adds `second/`: a module in
    both is found in `first/`, as site finds it."""
    sd = tmp_path / "site"
    for name in ("first", "second"):
        (sd / name).mkdir(parents=True)
        (sd / name / "shadowed.py").write_text(f"WHERE = {name!r}\n")
    (sd / "0mixed.pth").write_text(f"{sd / 'first'}\nimport os\n")
    (sd / "1paths.pth").write_text(f"{sd / 'second'}\n")
    code = f"import site\n{{}}site.addsitedir({str(sd)!r})\nimport shadowed\nprint(json.dumps(shadowed.WHERE))"
    deferred = run_python_s(code.format("from worktree_guard import site_packages\nwith site_packages.pth_lines_deferred():\n    "), tmp_path)
    assert deferred == run_python_s(code.format(""), tmp_path) == "first"


def test_two_ways_of_starting_the_hook_each_keep_their_entry_point_record(tmp_path: Path) -> None:
    """The daemon, `fast_hook.py` under -S and the console scripts see different sys.paths; with one record they
    rewrote each other's and every call read every distribution's metadata. Each keeps its record now."""
    code = """
import sys
from worktree_guard import site_packages
site_packages.load()
sys.path.insert(0, {extra!r})
from worktree_guard import plugins
scans = []
real = plugins.scan_entry_points
plugins.scan_entry_points = lambda: scans.append(1) or real()
plugins.installed_entry_points()
print(json.dumps(len(scans)))
"""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    runs = [run_python_s(code.format(extra=str(d)), tmp_path) for d in (first, second, first, second, first)]
    assert runs == [1, 1, 0, 0, 0]


def test_an_entry_point_cache_nested_too_deeply_to_read_is_read_afresh(repo: Repo) -> None:
    """json.loads raises RecursionError, not ValueError, on deep nesting: every call was refused (WG000) and the
    file was never rewritten (a review found it)."""
    root = Path(cache_root(os.environ))
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    (root / "entry-points.json").write_text("[" * 200_000)
    result = run_hook_inline(subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "n.py"), "content": "x"}))
    assert result.codes == [] and result.decision == "pass"
    assert "records" in json.loads((root / "entry-points.json").read_text())
