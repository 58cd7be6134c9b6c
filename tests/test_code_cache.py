"""The code cache of the in-process hook (worktree_guard/code_cache.py): the modules it serves are the ones an ordinary
import loads, with the same code, and anything stale, foreign or damaged is left to the ordinary import.

Each test runs the hook as installed (`fast_hook.py`, judged in-process) in fresh processes, with a copy of the
package where the test edits files, and the test's own cache directory (conftest's isolated environment).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import REPO_ROOT, Repo, subagent_payload

PROBE = r"""
import json, os, sys
sys.argv = ["fast_hook.py"]
sys.path.append(PACKAGE_PARENT)
os.dup2(os.open(PAYLOAD, os.O_RDONLY), 0)
from worktree_guard import hook_process
before = sorted(sys.modules)  # and worktree_guard.code_cache, which judge_here imports to install the cache
sys.stdout = open(REPLY, "w")
code = hook_process.main()
sys.stdout.close()
from worktree_guard import code_cache
modules = {}
for name, module in sorted(sys.modules.items()):
    spec = getattr(module, "__spec__", None)
    if spec is not None and isinstance(spec.origin, str) and spec.origin.endswith(".py"):
        modules[name] = {
            "file": module.__file__, "cached": getattr(module, "__cached__", None), "package": module.__package__,
            "path": list(getattr(module, "__path__", []) or []), "origin": spec.origin,
            "locations": spec.submodule_search_locations and list(spec.submodule_search_locations),
            "served": getattr(module.__loader__, "served", False),
            "names": sorted(k for k, v in vars(module).items() if not k.startswith("__") and type(v) is not type(sys)),  # submodules loaded vary
        }
reply = open(REPLY).read()
print(json.dumps({"code": code, "cache": code_cache.last_load.get("cache"), "modules": modules, "reply": reply, "before": before}), file=sys.__stdout__)
"""


def probe(package_parent: Path, payload: Path, tmp: Path, *, fast: bool = True) -> dict:
    """One in-process judgement by the hook's own `main` (as fast_hook.py calls it), and what it loaded."""
    code = PROBE.replace("PACKAGE_PARENT", repr(str(package_parent))).replace("PAYLOAD", repr(str(payload)))
    code = code.replace("REPLY", repr(str(tmp / "reply.txt")))
    argv = [sys.executable, "-S", "-P", "-c", code] if fast else [sys.executable, "-P", "-c", code]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=120, env={**os.environ, "WT_GUARD_DAEMON": "0"}, cwd="/")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


@pytest.fixture
def package(tmp_path: Path) -> Path:
    """A copy of the package (with its .pyc files), so that the tests can edit it."""
    parent = tmp_path / "site"
    shutil.copytree(REPO_ROOT / "worktree_guard", parent / "worktree_guard", symlinks=True)
    return parent


@pytest.fixture
def payloads(repo: Repo, tmp_path: Path) -> dict[str, Path]:
    files = {}
    for name, data in {
        "bash": subagent_payload(repo, "Bash", {"command": f"cd {repo.main} && git switch -c x"}),
        "commit": subagent_payload(repo, "Bash", {"command": "git add -A && git commit -m \"$(cat <<'EOF'\nx\nEOF\n)\""}),
        "write": subagent_payload(repo, "Write", {"file_path": str(repo.main / "src" / "app.py"), "content": "x"}),
    }.items():
        files[name] = tmp_path / f"{name}.json"
        files[name].write_text(json.dumps(data))
    return files


def cache_file() -> Path:
    from worktree_guard.code_cache import CACHE_NAME
    from worktree_guard.private_dir import cache_root

    return Path(cache_root(os.environ), CACHE_NAME)


def test_served_modules_are_the_modules_an_ordinary_import_loads(package: Path, payloads: dict[str, Path], tmp_path: Path) -> None:
    first = probe(package, payloads["bash"], tmp_path)  # no cache yet: every module read as usual, then saved
    second = probe(package, payloads["bash"], tmp_path)
    plain = probe(package, payloads["bash"], tmp_path, fast=False)  # with site, without the cache at all
    assert first["cache"] == "none" and second["cache"] == "hit" and cache_file().is_file()
    assert not any(m["served"] for m in first["modules"].values()) and not any(m["served"] for m in plain["modules"].values())
    served = {name for name, m in second["modules"].items() if m["served"]}
    loaded_before = {*second["before"], "worktree_guard.code_cache", "__future__"}  # what code_cache itself imports
    assert set(second["modules"]) - served == set(second["modules"]) & loaded_before  # every other source module
    assert {"worktree_guard.shell.walk", "worktree_guard.rules.cd", "worktree_guard.shell", "bashlex.parser", "pluggy._manager"} <= served
    if os.access(os.path.dirname(os.__file__), os.W_OK):  # rule 4: a standard library the user can write (root in CI)
        assert {"typing", "inspect", "ast", "dis"} <= served and len(served) >= 90
    else:
        assert not {"typing", "inspect", "ast", "dis"} & served
    for name, module in second["modules"].items():
        if name in plain["modules"]:
            expected = {**plain["modules"][name], "served": name in served}
            assert module == expected, name
    assert second["reply"] == first["reply"] == plain["reply"] != ""
    assert "WG201" in second["reply"] and "WG301" in second["reply"]


def test_a_module_edited_after_it_was_cached_is_read_afresh(package: Path, payloads: dict[str, Path], tmp_path: Path) -> None:
    probe(package, payloads["write"], tmp_path)
    target = package / "worktree_guard" / "rules" / "files.py"
    text = target.read_text()
    assert probe(package, payloads["write"], tmp_path)["modules"]["worktree_guard.rules.files"]["served"]
    target.write_text(text + "EDITED_MARK = 1\n")
    after = probe(package, payloads["write"], tmp_path)
    module = after["modules"]["worktree_guard.rules.files"]
    assert not module["served"] and "EDITED_MARK" in module["names"]
    again = probe(package, payloads["write"], tmp_path)["modules"]["worktree_guard.rules.files"]
    assert again["served"] and "EDITED_MARK" in again["names"]  # saved again, with the new code


def test_a_source_rewritten_with_its_old_size_and_times_is_not_served(package: Path, payloads: dict[str, Path], tmp_path: Path) -> None:
    probe(package, payloads["write"], tmp_path)
    target = package / "worktree_guard" / "rules" / "files.py"
    stat = target.stat()
    text = target.read_text()
    index = text.index('"""') + 3
    target.write_text(text[:index] + ("X" if text[index] != "X" else "Y") + text[index + 1 :])  # one character, same size
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert target.stat().st_size == stat.st_size and target.stat().st_mtime_ns == stat.st_mtime_ns
    assert not probe(package, payloads["write"], tmp_path)["modules"]["worktree_guard.rules.files"]["served"]


def test_a_file_added_beside_a_cached_module_is_found_as_an_ordinary_import_finds_it(package: Path, payloads: dict[str, Path], tmp_path: Path) -> None:
    """A package directory beside a module of the same name wins in an ordinary import: the cache must not serve the module."""
    probe(package, payloads["write"], tmp_path)
    shadow = package / "worktree_guard" / "rules" / "files"
    shadow.mkdir()
    source = (package / "worktree_guard" / "rules" / "files.py").read_text()
    (shadow / "__init__.py").write_text(re.sub(r"^(\s*from )\.", r"\1..", source, flags=re.M) + "SHADOW = 1\n")  # one level deeper
    result = probe(package, payloads["write"], tmp_path)
    module = result["modules"]["worktree_guard.rules.files"]
    assert not module["served"] and "SHADOW" in module["names"] and module["file"].endswith("rules/files/__init__.py")
    assert "WG101" in result["reply"]
    # every other module of that directory is read afresh too (the directory changed), and cached again
    assert not any(m["served"] for n, m in result["modules"].items() if n.startswith("worktree_guard.rules."))
    again = probe(package, payloads["write"], tmp_path)["modules"]
    assert again["worktree_guard.rules.files"]["served"] and again["worktree_guard.rules.files"]["file"].endswith("rules/files/__init__.py")


@pytest.mark.parametrize(
    "damage",
    ["garbage", "truncated", "other-python", "not-private"],
)
def test_a_damaged_or_untrusted_cache_is_not_used_and_the_verdict_is_the_same(package: Path, payloads: dict[str, Path], tmp_path: Path, damage: str) -> None:
    expected = probe(package, payloads["bash"], tmp_path)["reply"]
    path = cache_file()
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(os.urandom(len(data)))
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])  # the index is whole, the code of many modules is cut
    elif damage == "other-python":
        path.write_bytes(data.replace(str(sys.hexversion).encode(), str(sys.hexversion + 1).encode(), 1))
    else:
        path.parent.chmod(0o777)
    result = probe(package, payloads["bash"], tmp_path)
    assert result["reply"] == expected and "WG201" in expected
    served = [m for m in result["modules"].values() if m["served"]]
    assert result["cache"].startswith("not used") and not served  # an index entry past the end: the whole file
    if damage in ("garbage", "truncated", "other-python"):  # rewritten after the reply: everything served next time
        after = probe(package, payloads["bash"], tmp_path)
        assert {n for n, m in after["modules"].items() if not m["served"]} == set(after["modules"]) & {*after["before"], "worktree_guard.code_cache", "__future__"}


def test_the_installed_hook_command_answers_the_same_with_and_without_the_cache(payloads: dict[str, Path], repo: Repo) -> None:
    from tests.helpers import FAST_HOOK

    replies = []
    for _ in range(3):  # no cache, then the cache written by the first call, then again
        for name in ("bash", "commit", "write"):
            result = subprocess.run(FAST_HOOK, input=payloads[name].read_bytes(), capture_output=True, timeout=120, env={**os.environ, "WT_GUARD_DAEMON": "0"}, cwd=repo.worktree)
            assert result.returncode == 0, result.stderr
            replies.append((name, result.stdout))
    assert cache_file().is_file()
    assert replies[:3] == replies[3:6] == replies[6:]
    assert b"WG201" in replies[0][1] and replies[1][1] == b"" and b"WG101" in replies[2][1]


LOOKUP = r"""
import json, sys
sys.path[:0] = ENTRIES
sys.path.append(PACKAGE_PARENT)
from worktree_guard import code_cache
if BETWEEN:
    class Other:
        @staticmethod
        def find_spec(name, path=None, target=None):
            return None
    sys.meta_path.insert(0, Other)
code_cache.install(CACHE_DIR)
if BETWEEN:
    sys.meta_path.remove(Other)
    sys.meta_path.insert(1, Other)  # after the cache's finder, before PathFinder
if EDIT:  # the source changes while its code is read
    read = code_cache.SourceFileLoader.get_code
    def edited_while_read(self, fullname):
        code = read(self, fullname)
        with open(self.path, "a") as f:
            f.write("# edited\n")
        return code
    code_cache.SourceFileLoader.get_code = edited_while_read
PRELUDE
import mymod
if RIVAL:  # another hook process saves the file between this one's start and its save
    import os, shutil
    target = os.path.join(CACHE_DIR, code_cache.CACHE_NAME)
    if os.path.exists(target):
        shutil.copyfile(target, target + ".rival")
        os.replace(target + ".rival", target)
    else:
        open(target, "wb").close()
code_cache.save()
print(json.dumps({"value": mymod.VALUE, "file": mymod.__file__, "served": getattr(mymod.__loader__, "served", False)}))
"""


def lookup(
    tmp_path: Path, entries: list[str], *, between: bool = False, edit: bool = False, rival: bool = False, cwd: Path | None = None,
    prelude: str = "", flags: tuple[str, ...] = (), env: dict[str, str] | None = None,
) -> dict:
    """One process: the cache installed (in tmp_path/cache), `import mymod` with `entries` first on sys.path, save()."""
    code = LOOKUP.replace("ENTRIES", repr(entries)).replace("PACKAGE_PARENT", repr(str(REPO_ROOT))).replace("RIVAL", repr(rival))
    code = code.replace("CACHE_DIR", repr(str(tmp_path / "cache"))).replace("BETWEEN", repr(between)).replace("EDIT", repr(edit))
    code = code.replace("PRELUDE", prelude)
    result = subprocess.run([sys.executable, *flags, "-S", "-P", "-c", code], capture_output=True, text=True, timeout=60, cwd=cwd or tmp_path, env={**os.environ, **(env or {})})
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_a_top_level_module_is_served_only_while_the_search_before_it_is_unchanged(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (second / "mymod.py").write_text("VALUE = 2\n")
    entries = [str(first), str(second)]
    assert lookup(tmp_path, entries) == {"value": 2, "file": str(second / "mymod.py"), "served": False}
    assert lookup(tmp_path, entries) == {"value": 2, "file": str(second / "mymod.py"), "served": True}
    assert lookup(tmp_path, [str(second)])["served"] is False  # another search path: found afresh
    assert lookup(tmp_path, [str(tmp_path / "absent"), *entries])["served"] is False
    (first / "mymod.py").write_text("VALUE = 1\n")  # now an ordinary import finds this one first
    assert lookup(tmp_path, entries) == {"value": 1, "file": str(first / "mymod.py"), "served": False}
    assert lookup(tmp_path, entries) == {"value": 1, "file": str(first / "mymod.py"), "served": True}


def test_no_module_is_served_after_the_cwd_entry_or_past_another_finder(tmp_path: Path) -> None:
    """'' in sys.path is the cwd: another process, in another directory, may find the module there."""
    elsewhere, here = tmp_path / "elsewhere", tmp_path / "here"
    elsewhere.mkdir()
    here.mkdir()
    (tmp_path / "mymod.py").write_text("VALUE = 3\n")
    (here / "mymod.py").write_text("VALUE = 4\n")
    for _ in range(2):
        assert lookup(tmp_path, ["", str(tmp_path)], cwd=elsewhere) == {"value": 3, "file": str(tmp_path / "mymod.py"), "served": False}
    assert lookup(tmp_path, ["", str(tmp_path)], cwd=here) == {"value": 4, "file": str(here / "mymod.py"), "served": False}
    lookup(tmp_path, [str(tmp_path)])
    assert lookup(tmp_path, [str(tmp_path)])["served"] is True
    assert lookup(tmp_path, [str(tmp_path)], between=True)["served"] is False


def test_a_module_edited_while_its_code_is_read_is_not_cached(tmp_path: Path) -> None:
    (tmp_path / "mymod.py").write_text("VALUE = 5\n")
    assert lookup(tmp_path, [str(tmp_path)], edit=True)["served"] is False
    assert lookup(tmp_path, [str(tmp_path)])["served"] is False  # nothing was saved for it: read again, and saved now
    assert lookup(tmp_path, [str(tmp_path)])["served"] is True


def test_a_process_leaves_the_file_alone_when_another_saved_it_meanwhile(tmp_path: Path) -> None:
    """Many calls at once on a cold cache: the first to finish writes the file, the others do not rewrite it."""
    (tmp_path / "mymod.py").write_text("VALUE = 6\n")
    from worktree_guard.code_cache import CACHE_NAME

    cache = tmp_path / "cache" / CACHE_NAME
    assert lookup(tmp_path, [str(tmp_path)], rival=True)["served"] is False
    assert cache.stat().st_size == 0  # the rival's (empty) file stayed
    assert lookup(tmp_path, [str(tmp_path)])["served"] is False  # an empty file is no cache: read, and saved now
    written = cache.read_bytes()
    assert lookup(tmp_path, [str(tmp_path)], rival=True)["served"] is True  # nothing recorded: nothing to save
    assert cache.read_bytes() == written


def test_builtin_and_frozen_modules_are_left_to_their_finders(tmp_path: Path) -> None:
    """A file named like a built-in or frozen module is never what an ordinary import loads."""
    from importlib.machinery import BuiltinImporter, FrozenImporter, PathFinder

    from worktree_guard import code_cache

    for name in ("marshal", "os", "zipimport", "mymod"):  # built in, frozen (3.11), frozen, neither
        (tmp_path / f"{name}.py").write_text("VALUE = 1\n")
    (tmp_path / "importlib").mkdir()
    (tmp_path / "importlib" / "util.py").write_text("VALUE = 1\n")  # a frozen submodule (3.11)
    saved, saved_path = list(sys.meta_path), list(sys.path)
    sys.meta_path[:] = [code_cache.CachedCode, BuiltinImporter, FrozenImporter, PathFinder]  # as in the hook process
    sys.path.insert(0, str(tmp_path))
    try:
        found = {name: code_cache.CachedCode.find_spec(name) for name in ("marshal", "os", "zipimport", "mymod")}
        found["importlib.util"] = code_cache.CachedCode.find_spec("importlib.util", [str(tmp_path / "importlib")])
        sys.meta_path[:] = [code_cache.CachedCode, BuiltinImporter, FrozenImporter]  # no PathFinder at all
        found["without PathFinder"] = code_cache.CachedCode.find_spec("mymod")
    finally:
        sys.meta_path[:], sys.path[:] = saved, saved_path
    assert found["marshal"] is None and found["os"] is None and found["zipimport"] is None and found["importlib.util"] is None
    assert found["mymod"] is not None and found["mymod"].origin == str(tmp_path / "mymod.py")
    assert found["without PathFinder"] is None


def test_a_fifo_in_the_caches_place_does_not_hang_the_hook(payloads: dict[str, Path], repo: Repo) -> None:
    """An agent's inline interpreter can make a FIFO there: the hook must still answer, at once, and rightly."""
    from tests.helpers import FAST_HOOK
    from worktree_guard.code_cache import CACHE_NAME
    from worktree_guard.plugins import ENTRY_POINT_CACHE
    from worktree_guard.shell.tables import CACHE_NAME as TABLES

    directory = cache_file().parent
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o700)
    for name in (CACHE_NAME, TABLES, ENTRY_POINT_CACHE):
        os.mkfifo(directory / name, 0o600)
    result = subprocess.run(FAST_HOOK, input=payloads["bash"].read_bytes(), capture_output=True, timeout=60, env={**os.environ, "WT_GUARD_DAEMON": "0"}, cwd=repo.worktree)
    assert result.returncode == 0 and b"WG201" in result.stdout and b"WG301" in result.stdout, result
    assert not (directory / CACHE_NAME).is_fifo() or (directory / CACHE_NAME).stat().st_size == 0


def test_code_made_under_another_optimisation_level_is_not_served(tmp_path: Path) -> None:
    """`python -O` drops asserts and `__debug__` blocks (bashlex's parser asserts): its code is kept apart."""
    (tmp_path / "mymod.py").write_text("VALUE = __debug__\n")
    entries = [str(tmp_path)]
    assert lookup(tmp_path, entries, flags=("-O",)) == {"value": False, "file": str(tmp_path / "mymod.py"), "served": False}
    assert lookup(tmp_path, entries)["value"] is True
    assert lookup(tmp_path, entries) == {"value": True, "file": str(tmp_path / "mymod.py"), "served": True}
    assert lookup(tmp_path, entries, flags=("-O",)) == {"value": False, "file": str(tmp_path / "mymod.py"), "served": True}


def test_a_package_made_of_a_directory_that_was_already_there_is_found(tmp_path: Path) -> None:
    """FileFinder looks into a directory named like the module on every lookup: an `__init__.py` added there
    (a namespace portion, a leftover directory) makes it the package an ordinary import loads."""
    first, second = tmp_path / "first", tmp_path / "second"
    (first / "mymod").mkdir(parents=True)
    second.mkdir()
    (second / "mymod.py").write_text("VALUE = 2\n")
    entries = [str(first), str(second)]
    lookup(tmp_path, entries)
    assert lookup(tmp_path, entries)["served"] is True
    (first / "mymod" / "__init__.py").write_text("VALUE = 1\n")
    assert lookup(tmp_path, entries) == {"value": 1, "file": str(first / "mymod" / "__init__.py"), "served": False}
    assert lookup(tmp_path, entries)["served"] is True


def test_the_code_served_is_what_an_ordinary_import_takes_from_a_pyc_written_again(tmp_path: Path) -> None:
    """Python takes a .pyc whose size and seconds match the source even when the source changed; when that .pyc
    is written again (compileall -f), an ordinary import takes the new code, and so must the cache."""
    import py_compile

    source = tmp_path / "mymod.py"
    source.write_text("VALUE = 1\n")
    py_compile.compile(str(source), doraise=True)
    entries = [str(tmp_path)]
    lookup(tmp_path, entries)
    assert lookup(tmp_path, entries) == {"value": 1, "file": str(source), "served": True}
    st = source.stat()
    source.write_text("VALUE = 2\n")  # same size, and the old times put back: the .pyc still "matches"
    os.utime(source, ns=(st.st_atime_ns, st.st_mtime_ns))
    plain = subprocess.run([sys.executable, "-S", "-c", "import mymod; print(mymod.VALUE)"], capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert plain.stdout.strip() == "1"  # the ordinary import takes the stale .pyc
    assert lookup(tmp_path, entries)["value"] == 1
    py_compile.compile(str(source), doraise=True)  # the .pyc written again
    plain = subprocess.run([sys.executable, "-S", "-c", "import mymod; print(mymod.VALUE)"], capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert plain.stdout.strip() == "2"
    assert lookup(tmp_path, entries) == {"value": 2, "file": str(source), "served": False}
    assert lookup(tmp_path, entries) == {"value": 2, "file": str(source), "served": True}


def test_a_module_whose_directory_the_user_cannot_write_is_not_cached(tmp_path: Path) -> None:
    """Its .pyc files are out of the user's reach (a root-owned standard library): the cache must not make its code
    writable. (The tests run as root, so the permission check is what is made to fail.)"""
    (tmp_path / "mymod.py").write_text("VALUE = 7\n")
    read_only = f"import posix\n_access = posix.access\nposix.access = lambda path, mode, **kw: False if path == {str(tmp_path)!r} else _access(path, mode, **kw)\n"
    for _ in range(2):
        assert lookup(tmp_path, [str(tmp_path)], prelude=read_only)["served"] is False
    assert lookup(tmp_path, [str(tmp_path)])["served"] is False  # nothing was recorded for it
    assert lookup(tmp_path, [str(tmp_path)])["served"] is True


def test_a_blob_that_is_not_its_modules_code_is_not_run_and_is_replaced(tmp_path: Path) -> None:
    """An index entry pointing at another module's code (a damaged or misaligned file) must not run that code."""
    (tmp_path / "mymod.py").write_text("VALUE = 8\n")
    (tmp_path / "other.py").write_text("VALUE = 9\n")
    entries = [str(tmp_path)]
    lookup(tmp_path, entries, prelude="import other\n")
    assert lookup(tmp_path, entries, prelude="import other\n")["served"] is True
    swap = (
        "for key, entry in list(code_cache._index.items()):\n"
        "    if key.startswith('mymod\\0'):\n"
        "        other = next(e for k, e in code_cache._index.items() if k.startswith('other\\0'))\n"
        "        code_cache._index[key] = (*entry[:4], *other[4:])\n"
    )
    assert lookup(tmp_path, entries, prelude=swap) == {"value": 8, "file": str(tmp_path / "mymod.py"), "served": False}
    assert lookup(tmp_path, entries) == {"value": 8, "file": str(tmp_path / "mymod.py"), "served": True}  # saved again


def test_two_installations_of_one_python_keep_their_entries(tmp_path: Path) -> None:
    """Two venvs of one interpreter (or two checkouts) take turns without rewriting the file on every call."""
    first, second = tmp_path / "first", tmp_path / "second"
    for directory, value in ((first, 1), (second, 2)):
        directory.mkdir()
        (directory / "mymod.py").write_text(f"VALUE = {value}\n")
    lookup(tmp_path, [str(first)])
    lookup(tmp_path, [str(second)])
    from worktree_guard.code_cache import CACHE_NAME

    written = (tmp_path / "cache" / CACHE_NAME).stat().st_mtime_ns
    for directory, value in ((first, 1), (second, 2), (first, 1)):
        assert lookup(tmp_path, [str(directory)]) == {"value": value, "file": str(directory / "mymod.py"), "served": True}
    assert (tmp_path / "cache" / CACHE_NAME).stat().st_mtime_ns == written


def test_a_blob_that_cannot_be_read_is_read_as_usual_and_written_again(tmp_path: Path) -> None:
    """Damage inside the file's bounds (the index intact): that module is read from its source and recorded."""
    from worktree_guard.code_cache import CACHE_NAME

    (tmp_path / "mymod.py").write_text("VALUE = 10\n")
    lookup(tmp_path, [str(tmp_path)])
    cache = tmp_path / "cache" / CACHE_NAME
    data = bytearray(cache.read_bytes())
    data[-8:] = b"\xff" * 8  # the end of the last (only) blob
    cache.write_bytes(bytes(data))
    assert lookup(tmp_path, [str(tmp_path)]) == {"value": 10, "file": str(tmp_path / "mymod.py"), "served": False}
    assert lookup(tmp_path, [str(tmp_path)]) == {"value": 10, "file": str(tmp_path / "mymod.py"), "served": True}


def test_a_module_cached_while_its_directory_was_writable_is_not_served_once_it_is_not(tmp_path: Path) -> None:
    (tmp_path / "mymod.py").write_text("VALUE = 11\n")
    lookup(tmp_path, [str(tmp_path)])
    assert lookup(tmp_path, [str(tmp_path)])["served"] is True
    read_only = f"import posix\n_access = posix.access\nposix.access = lambda path, mode, **kw: False if path == {str(tmp_path)!r} else _access(path, mode, **kw)\n"
    assert lookup(tmp_path, [str(tmp_path)], prelude=read_only)["served"] is False


def test_a_device_in_a_cache_files_place_is_not_read(payloads: dict[str, Path], repo: Repo) -> None:
    """/dev/zero at the parse tables' path would be read for ever: only a regular file is read (tests run as root)."""
    from tests.helpers import FAST_HOOK
    from worktree_guard.shell.tables import CACHE_NAME as TABLES

    directory = cache_file().parent
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o700)
    os.mknod(directory / TABLES, 0o600 | stat.S_IFCHR, os.makedev(1, 5))
    result = subprocess.run(FAST_HOOK, input=payloads["bash"].read_bytes(), capture_output=True, timeout=60, env={**os.environ, "WT_GUARD_DAEMON": "0"}, cwd=repo.worktree)
    assert result.returncode == 0 and b"WG201" in result.stdout and b"WG301" in result.stdout, result


def test_a_temporary_file_is_never_opened_over_what_has_its_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A FIFO (or anything) already named like the temporary file makes the write fail at once, not wait."""
    from worktree_guard import private_dir

    directory = tmp_path / "private"
    directory.mkdir(mode=0o700)
    monkeypatch.setattr(private_dir.posix, "getpid", lambda: 4242)
    monkeypatch.setattr(private_dir.posix, "urandom", lambda n: b"\x01" * n)
    os.mkfifo(directory / f".x.bin.4242.{'01' * 6}.tmp")
    dir_fd = os.open(directory, os.O_RDONLY)

    def hung(*_: object) -> None:
        raise TimeoutError("write_atomically waited on the FIFO")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(10)
    try:
        with pytest.raises(FileExistsError):
            private_dir.write_atomically(dir_fd, "x.bin", b"data")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        os.close(dir_fd)
    assert not (directory / "x.bin").exists()


def test_a_file_made_while_the_module_is_searched_for_is_not_hidden(tmp_path: Path) -> None:
    """The directories are stamped before the search: a module made in an earlier directory during it (after
    PathFinder looked there) changes a stamp, so what was found then is not served later."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (second / "mymod.py").write_text("VALUE = 2\n")
    race = (
        "_find = code_cache.PathFinder.find_spec\n"
        "def _racing(name, path=None, target=None):\n"
        "    spec = _find(name, path, target)\n"
        f"    if name == 'mymod': open({str(first / 'mymod.py')!r}, 'w').write('VALUE = 1\\n')\n"
        "    return spec\n"
        "code_cache.PathFinder.find_spec = _racing\n"
    )
    assert lookup(tmp_path, [str(first), str(second)], prelude=race)["value"] == 2
    assert lookup(tmp_path, [str(first), str(second)]) == {"value": 1, "file": str(first / "mymod.py"), "served": False}


def test_another_pyc_prefix_is_another_cache(tmp_path: Path) -> None:
    """PYTHONPYCACHEPREFIX puts every .pyc elsewhere: an ordinary import may read other code there."""
    (tmp_path / "mymod.py").write_text("VALUE = 12\n")
    lookup(tmp_path, [str(tmp_path)])
    assert lookup(tmp_path, [str(tmp_path)])["served"] is True
    assert lookup(tmp_path, [str(tmp_path)], env={"PYTHONPYCACHEPREFIX": str(tmp_path / "prefix")})["served"] is False
