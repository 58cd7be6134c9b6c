"""site_packages: a `-S` hook process loads site-packages without running `.pth` code until an import needs it.

Each case runs a fresh `python -S` (the state is the interpreter's: sys.path, sys.meta_path, the set-aside
list), with a site directory of its own holding `.pth` files whose effects are visible: a path line adds a
directory, an import line leaves a mark in a file each time it runs.
"""

from __future__ import annotations

import json
import re
import site
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.helpers import FAST_HOOK, REPO_ROOT, Repo, run_hook_process, subagent_payload


def run_python_s(code: str, tmp_path: Path) -> Any:
    """Run `code` in `python -S` with the repository importable; it prints one JSON object, returned here."""
    script = tmp_path / "case.py"
    script.write_text(f"import json, sys\nsys.path.append({str(REPO_ROOT)!r})\n{code}\n")
    result = subprocess.run([sys.executable, "-S", "-P", str(script)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def site_dir(tmp_path: Path) -> tuple[Path, Path]:
    """A site directory with a path-only `.pth` (dir `by_path`, module `by_path_mod`) and a `.pth` with an import
    line that adds dir `by_code` (module `by_code_mod`) and appends a line to `marks` each time it runs."""
    sd = tmp_path / "site"
    for name in ("by_path", "by_code"):
        (sd / name).mkdir(parents=True)
        (sd / name / f"{name}_mod.py").write_text("VALUE = 1\n")
    marks = tmp_path / "marks"
    (sd / "a_paths.pth").write_text(f"# a comment\n{sd / 'by_path'}\n")
    (sd / "b_code.pth").write_text(f"import sys; sys.path.append({str(sd / 'by_code')!r}); open({str(marks)!r}, 'a').write('ran\\n')\n")
    return sd, marks


def test_a_path_only_pth_is_read_at_once_and_one_with_code_waits_for_an_import_that_needs_it(tmp_path: Path) -> None:
    sd, marks = site_dir(tmp_path)
    out = run_python_s(
        f"""
import site, os
from worktree_guard import site_packages
with site_packages.pth_imports_set_aside():
    site.addsitedir({str(sd)!r})
state = {{"by_path_on_path": {str(sd / 'by_path')!r} in sys.path, "by_code_on_path": {str(sd / 'by_code')!r} in sys.path,
          "ran_before": os.path.exists({str(marks)!r})}}
try:
    import _winapi  # another platform's module: not finding it runs nothing
except ImportError:
    pass
state["ran_after_other_platform_miss"] = os.path.exists({str(marks)!r})
import by_path_mod
import by_code_mod  # only the set-aside file makes it importable
state["by_code_value"] = by_code_mod.VALUE
site_packages.flush()
try:
    import no_such_module_anywhere
except ImportError:
    state["still_missing"] = True
state["runs"] = open({str(marks)!r}).read().count("ran")
print(json.dumps(state))
""",
        tmp_path,
    )
    assert out == {
        "by_path_on_path": True,
        "by_code_on_path": False,
        "ran_before": False,
        "ran_after_other_platform_miss": False,
        "by_code_value": 1,
        "still_missing": True,
        "runs": 1,  # once, however many lookups and flushes followed
    }


def test_without_the_context_manager_site_runs_the_same_file_at_once(tmp_path: Path) -> None:
    """The control: the same site directory read by site itself runs the import line immediately."""
    sd, marks = site_dir(tmp_path)
    out = run_python_s(f"import site, os\nsite.addsitedir({str(sd)!r})\nprint(json.dumps({{'ran': os.path.exists({str(marks)!r})}}))", tmp_path)
    assert out == {"ran": True}


def test_the_entry_point_scan_runs_the_set_aside_files_first(tmp_path: Path) -> None:
    """A plugin whose distribution lies in a directory only a set-aside `.pth` file adds is still found and loaded."""
    sd, _ = site_dir(tmp_path)
    dist = sd / "by_code" / "wg_demo_plugin-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: wg-demo-plugin\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text("[worktree_guard]\nwg-demo = wg_demo_plugin\n")
    (sd / "by_code" / "wg_demo_plugin.py").write_text("from worktree_guard.hookspecs import hookimpl\n\n@hookimpl\ndef worktree_guard_read_only_programs():\n    return {}\n")
    out = run_python_s(
        f"""
import site
from worktree_guard import site_packages
site_packages.load()  # the interpreter's own site-packages (pluggy)
with site_packages.pth_imports_set_aside():
    site.addsitedir({str(sd)!r})
from worktree_guard import plugins
pm = plugins.plugin_manager()  # the entry points (no cache yet: a scan), then each plugin loaded
print(json.dumps({{"found": [list(p) for p in plugins.installed_entry_points() if p[0] == "wg-demo"], "registered": pm.has_plugin("wg-demo")}}))
""",
        tmp_path,
    )
    assert out == {"found": [["wg-demo", "wg_demo_plugin"]], "registered": True}


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


def test_load_sets_aside_the_interpreters_own_pth_code_and_runs_it_when_an_import_needs_it(tmp_path: Path) -> None:
    """`load()` itself, with the test's site directory among the interpreter's site-packages."""
    sd, marks = site_dir(tmp_path)
    out = run_python_s(
        f"""
import site, os
own = site.getsitepackages
site.getsitepackages = lambda prefixes=None: [*own(prefixes), {str(sd)!r}]
from worktree_guard import site_packages
site_packages.load()
before = os.path.exists({str(marks)!r})
import pluggy  # in the venv's site-packages: found without running anything
after_pluggy = os.path.exists({str(marks)!r})
import by_code_mod
print(json.dumps({{"before": before, "after_pluggy": after_pluggy, "after": os.path.exists({str(marks)!r})}}))
""",
        tmp_path,
    )
    assert out == {"before": False, "after_pluggy": False, "after": True}


def plugin_process(tmp_path: Path, sd: Path) -> dict:
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


def install_plugin(directory: Path, name: str, module: str) -> None:
    """A distribution with a `worktree_guard` entry point `name` = `module` (a package path with dots allowed)."""
    dist = directory / f"{name.replace('-', '_')}-1.0.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(f"[worktree_guard]\n{name} = {module}\n")
    path = directory.joinpath(*module.split("."))
    path.parent.mkdir(parents=True, exist_ok=True)
    for parent in list(path.parents)[: len(module.split(".")) - 1]:
        (parent / "__init__.py").touch()
    path.with_suffix(".py").write_text("from worktree_guard.hookspecs import hookimpl\n\n@hookimpl\ndef worktree_guard_read_only_programs():\n    return {}\n")


def test_a_plugin_installed_where_only_set_aside_code_looks_is_found_by_the_next_call(tmp_path: Path) -> None:
    """The entry-point cache is keyed by the directories the set-aside lines added when they last ran: installing
    into one of them, or removing from it, is seen by the next hook process (a review found both missed)."""
    sd, _ = site_dir(tmp_path)  # b_code.pth's import line adds site/by_code
    install_plugin(sd / "by_code", "wg-a", "wg_a_plugin")
    assert plugin_process(tmp_path, sd) == ["wg-a"]
    assert plugin_process(tmp_path, sd) == ["wg-a"]  # from the cache
    install_plugin(sd / "by_code", "wg-b", "wg_b_plugin")
    assert plugin_process(tmp_path, sd) == ["wg-a", "wg-b"]
    for leftover in (sd / "by_code").glob("wg_a*"):
        subprocess.run(["rm", "-r", str(leftover)], check=True)
    assert plugin_process(tmp_path, sd) == ["wg-b"]


def test_a_plugin_in_a_package_named_like_another_platforms_module_still_loads_from_the_cache(tmp_path: Path) -> None:
    sd, _ = site_dir(tmp_path)
    install_plugin(sd / "by_code", "wg-org", "org.wgplugin.rules")
    assert plugin_process(tmp_path, sd) == ["wg-org"]
    assert plugin_process(tmp_path, sd) == ["wg-org"]  # a cache hit


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
    deferred = run_python_s(code.format("from worktree_guard import site_packages\nwith site_packages.pth_imports_set_aside():\n    "), tmp_path)
    assert deferred == run_python_s(code.format(""), tmp_path) == "first"


def test_two_ways_of_starting_the_hook_each_keep_their_entry_point_record(tmp_path: Path) -> None:
    """The daemon, `fast_hook.py` under -S and the console scripts see different sys.paths; with one record they
    rewrote each other's and every call read every distribution's metadata. Each keeps its record now."""
    code = f"""
import sys
from worktree_guard import site_packages
site_packages.load()
sys.path.insert(0, {{extra!r}})
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
