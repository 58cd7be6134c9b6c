"""A word that begins an option a row declares as making the program write is read as that option
(`programs.long_option`, stop 31). That reading is wrong when the program has an option the row does not declare
that the word names exactly or begins as well: `tar --checkpoint` begins `--checkpoint-action`, `wget --hsts`
`--hsts-file`; the row would take a flag for an option with a value and miss the next word as a file. And when the
row declares a writing option this program lacks (a row shared by several programs), a word the program reads as
one of its own may be read as that one.

This test reads each installed program's own help (`--help`, curl's `--help all`, an option `--no-X` naming `--X`
too) and fails on either, so that a row gaining an option is checked against the real program."""

from __future__ import annotations

import os
import re
import shutil
import subprocess

from worktree_guard.shell import programs
from worktree_guard.shell.programs import BUILTIN_WRITERS, WriteSpec, _declared, _writing


def _rows() -> dict[str, WriteSpec]:
    rows = {name: spec for name, spec in BUILTIN_WRITERS.items() if spec.gnu_options and spec.abbreviations}
    # the custom readers that take prefixes read with their own specs
    rows.update({"tar": programs._TAR_SPEC, "zip": programs._ZIP_SPEC, "patch": programs._PATCH_SPEC})
    return rows


def _help_options(program: str) -> set[str]:
    # curl's and xz's --help list a few options; `--help all` and `--long-help` list them all
    argv = [program, "--help", "all"] if program.endswith("/curl") else [program, "--long-help"] if os.path.basename(program) in ("xz", "unxz", "lzma", "unlzma") else [program, "--help"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=20, stdin=subprocess.DEVNULL, check=False)
    found = set(re.findall(r"(?<![\w-])(--[A-Za-z0-9][\w-]*)", done.stdout + done.stderr))
    return found | {"--" + option[5:] for option in found if option.startswith("--no-") and len(option) > 5}


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
        writing = {option for option in _writing(spec) if option.startswith("--")}
        for option in sorted(real - declared):
            longer = sorted(d for d in writing if d.startswith(option))
            if longer:
                found.append(f"{name}: {option} begins {longer}")
            # a word the program takes for this option alone (the longest prefix it shares with a writing option the
            # program lacks begins no other of the program's options) is read by the row as that writing option
            lacked = sorted(
                d for d in writing - real
                if len(shared := os.path.commonprefix([d, option])) >= 3 and [r for r in real if r.startswith(shared)] == [option]
            )
            if lacked:
                found.append(f"{name}: {option} shares a prefix with {lacked}, which it lacks")
    return checked, found


def test_no_option_a_row_leaves_out_begins_one_it_declares() -> None:
    checked, found = _left_out(_rows())
    assert found == []
    # the programs of the write table on this machine kind (coreutils, tar, sed, gzip, xz, zstd, wget, curl, patch…)
    assert len(checked) >= 40, checked


def test_the_check_finds_a_flag_left_out() -> None:
    """The check above can fail: tar's spec without `--list` (it begins `--listed-incremental`) and wget's without
    `--hsts` (`--hsts-file`) are caught, and a row declaring a writing option gzip lacks (`--formats`, which gzip's
    own `--force` shares `--fo` with)."""
    tar = programs._TAR_SPEC
    wget = BUILTIN_WRITERS["wget"]
    gzip = BUILTIN_WRITERS["gzip"]
    rows = {
        "tar": WriteSpec(value_options=tar.value_options, flags=tar.flags - {"--list"}, write_flags=tar.write_flags),
        "wget": WriteSpec(value_options=wget.value_options, target_options=wget.target_options),
        "gzip": WriteSpec(value_options=gzip.value_options, target_options=gzip.target_options | {"--formats"}, not_with=gzip.not_with),
    }
    checked, found = _left_out(rows)
    assert checked == ["gzip", "tar", "wget"]
    assert "tar: --list begins ['--listed-incremental']" in found
    assert "wget: --hsts begins ['--hsts-file']" in found
    assert "gzip: --force shares a prefix with ['--formats'], which it lacks" in found


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
