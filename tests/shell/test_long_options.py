"""A long option's unique prefix is read as the option it begins (`programs.long_option`, stop 31). That reading is
wrong in one case only: the program has an option the row does not declare whose name is exactly the word and also
begins an option the row declares (`tar --checkpoint` begins `--checkpoint-action`, `install --strip` begins
`--strip-program`): the row would read a flag as an option taking the next word, and miss that word as a file.

This test reads each installed program's own `--help` and fails on such an option, so that a row gaining a long
option is checked against the real program."""

from __future__ import annotations

import re
import shutil
import subprocess

from worktree_guard.shell import programs
from worktree_guard.shell.programs import BUILTIN_WRITERS, WriteSpec, _declared


def _rows() -> dict[str, WriteSpec]:
    rows = {name: spec for name, spec in BUILTIN_WRITERS.items() if spec.gnu_options and spec.abbreviations}
    # the custom readers that take prefixes read with their own specs
    rows.update({"tar": programs._TAR_SPEC, "zip": programs._ZIP_SPEC, "patch": programs._PATCH_SPEC})
    return rows


def _help_options(program: str) -> set[str]:
    done = subprocess.run([program, "--help"], capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL, check=False)
    return set(re.findall(r"(?<![\w-])(--[A-Za-z0-9][\w-]*)", done.stdout + done.stderr))


def _left_out(rows: dict[str, WriteSpec]) -> tuple[list[str], list[str]]:
    """(the programs checked, each undeclared option of theirs that begins a declared one)."""
    checked: list[str] = []
    found: list[str] = []
    for name, spec in sorted(rows.items()):
        declared = {option for option in _declared(spec) if option.startswith("--")}
        path = shutil.which(name)
        if not declared or path is None:
            continue
        real = _help_options(path)
        if not real & declared:
            continue  # no GNU-style help text (the row's options are not listed there)
        checked.append(name)
        for option in sorted(real - declared):
            longer = sorted(d for d in declared if d.startswith(option))
            if longer:
                found.append(f"{name}: {option} begins {longer}")
    return checked, found


def test_no_option_a_row_leaves_out_begins_one_it_declares() -> None:
    checked, found = _left_out(_rows())
    assert found == []
    # the programs of the write table on this machine kind (coreutils, tar, sed, gzip, xz, zstd, wget, curl, patch…)
    assert len(checked) >= 40, checked


def test_the_check_finds_a_flag_left_out() -> None:
    """The check above can fail: tar's spec without `--checkpoint` and install's without `--strip` are caught."""
    tar = programs._TAR_SPEC
    install = BUILTIN_WRITERS["install"]
    rows = {"tar": WriteSpec(value_options=tar.value_options, flags=tar.flags - {"--checkpoint"}), "install": WriteSpec(value_options=install.value_options)}
    checked, found = _left_out(rows)
    assert checked == ["install", "tar"]
    assert found == ["install: --strip begins ['--strip-program']", "tar: --checkpoint begins ['--checkpoint-action']"]


def test_long_option() -> None:
    names = frozenset({"--target-directory", "--file", "--files-from", "-t"})
    assert programs.long_option("--t", names) == "--target-directory"
    assert programs.long_option("--target-directory", names) == "--target-directory"
    assert programs.long_option("--fil", names) == "--file"  # a prefix of two: the first (the program refuses it)
    assert programs.long_option("--files", names) == "--files-from"
    assert programs.long_option("--x", names) == "--x"
    assert programs.long_option("--", names) == "--"
    assert programs.long_option("-t", names) == "-t"
    assert programs.long_option("-ta", names) == "-ta"
