"""What kind of file a descriptor is, where the guard reads files an agent can make."""

from __future__ import annotations

import os
import stat


def is_null_device(status: os.stat_result) -> bool:
    """/dev/null, which git and the guard read as an empty file (`GIT_CONFIG_GLOBAL=/dev/null`, a config linked
    to it); any other device is not a file to read."""
    if not stat.S_ISCHR(status.st_mode):
        return False
    try:
        null = os.stat(os.devnull)
    except OSError:
        return False
    return stat.S_ISCHR(null.st_mode) and status.st_rdev == null.st_rdev
