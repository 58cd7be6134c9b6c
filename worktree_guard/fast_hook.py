"""`python -S -P /path/to/worktree_guard/fast_hook.py [flags]` — `worktree-guard hook` at the cost of a bare interpreter.

Without site-packages (`-S`) the interpreter starts in about the time of `python -c pass` minus the site
machinery (and an editable install's import finder); this file then imports only the hook process's
home (`worktree_guard.hook_process`, standard library only) from the package directory it sits in, which
hands the call to the daemon, or loads site-packages and judges it in-process. `-P` keeps this directory
off the front of `sys.path`. Once its reply is written and flushed, the process ends at once (`posix._exit`).
The file stays tiny because a script, unlike a module, is compiled on every run.
"""

import gc
import sys

gc.disable()  # one call, then posix._exit: the cyclic collector only runs during the imports (≈ 2–5 ms of CPU)
_package_parent = __file__.rpartition("/")[0].rpartition("/")[0] or "/"
sys.path.append(_package_parent)  # after the standard library: only `worktree_guard` is looked up there
try:
    from worktree_guard.hook_process import main
except BaseException as error:  # noqa: BLE001 — a broken install must still refuse, not exit 1 (fail open)
    _cause = f"{type(error).__name__}: {error}"

    def main() -> int:
        import json

        reason = f"worktree-guard could not check this call, so it is refused: {__file__} cannot load ({_cause}) [worktree-guard WG000]"
        try:  # the runtime's own words, when that much of the package still loads
            sys.path.append(_package_parent)
            from worktree_guard.last_resort import refusal, runtime_of

            print(refusal(runtime_of(sys.argv[1:]), reason))
        except BaseException:  # noqa: BLE001
            output = {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}
            print(json.dumps({"hookSpecificOutput": output}))
        return 0

finally:
    sys.path.remove(_package_parent)

if __name__ == "__main__":
    _code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:  # the reply is out: skip the interpreter's tear-down of every module (≈ 7 ms of CPU in-process); the
        import posix  # hook holds no buffered file, thread or exit handler (audit lines are single write(2) calls)

        posix._exit(_code)
