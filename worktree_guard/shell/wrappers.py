"""Wrappers: programs that run another program given on their command line (SPEC §5.2 "indirection"), as data.

`taskset -c 0 cp a b` runs `cp a b`; `flock /tmp/l -c 'cmd'` runs shell code; `sudo -D dir cmd` runs cmd in
dir. A `Wrapper` says how to find what it runs: its options that take a value, operands before the command,
options that move the command's directory, that make it act on a process instead, that change the root
directory (the guard cannot place such a command: WG404), or that hand it shell code. The indirection rule
reads the table (extended by plugins through `worktree_guard_wrappers`); the walker judges what it finds.
Keys are program names, or "program subcommand" for runners such as `uv run`.
"""

from __future__ import annotations

from ..fast_dataclass import fast_dataclass


def _f(*names: str) -> frozenset[str]:
    return frozenset(names)


@fast_dataclass(frozen=True, slots=True)
class Wrapper:
    """How a wrapper's own words end and what it runs.

    value_options: options that take a value (`-n 5`); optional_value: short options whose value may only be
    attached (`prlimit -n100`); leading: operands before the command (`timeout 10`, `flock FILE`, `chrt PRIO`);
    operand_first: one operand comes before the options (`setarch ARCH -R cmd`); chdir: options whose value is
    the directory the command runs in; cwd_unknown: options that start it somewhere else (`sudo -i`, `su -`);
    no_command: options that make it act on a process instead of running a command (`taskset -p`);
    new_root: options that run it under another root or mount namespace (WG404); code: options whose value is
    shell code (`flock -c`, `su -c`); code_only: it runs no argv, only `code` (`su`, `script`); joined: the
    rest of the line is joined and run by `sh -c` (`watch`), unless one of `argv_with` is given;
    same_shell: it runs the command in this shell (`builtin cd`); assignments: `NAME=value` words before the command
    are the command's environment, as env's are (`sudo TAR_OPTIONS=… tar …`: review 31b); permutes: its options may
    follow its operands, as getopt permutes them (`su root -c CMD`, `su - root -c CMD`: stop 33; `script -q /dev/null
    -c CMD`: review 34).
    """

    value_options: frozenset[str] = frozenset()
    optional_value: frozenset[str] = frozenset()
    leading: int = 0
    operand_first: bool = False
    chdir: frozenset[str] = frozenset()
    cwd_unknown: frozenset[str] = frozenset()
    no_command: frozenset[str] = frozenset()
    new_root: frozenset[str] = frozenset()
    code: frozenset[str] = frozenset()
    code_only: bool = False
    joined: bool = False
    argv_with: frozenset[str] = frozenset()
    same_shell: bool = False
    assignments: bool = False
    permutes: bool = False


_NS = _f("-m", "-u", "-i", "-n", "-p", "-U", "-C", "-T")
_PRLIMIT = _f("-c", "-d", "-e", "-f", "-i", "-l", "-m", "-n", "-q", "-r", "-s", "-t", "-u", "-v", "-x", "-y")
_UV_RUN = _f(
    "--with", "--with-editable", "--with-requirements", "--python", "-p", "--project", "--directory", "--env-file",
    "--extra", "--group", "--only-group", "--no-group", "--package", "--index", "--default-index", "--index-url",
    "--extra-index-url", "-f", "--find-links", "--python-preference", "--cache-dir", "--config-file", "-C",
    "--config-setting", "--color", "--keyring-provider", "--index-strategy", "--resolution", "--prerelease",
    "--exclude-newer", "--link-mode", "--refresh-package", "--reinstall-package", "--no-build-package",
    "--no-binary-package", "--only-binary-package", "--upgrade-package", "-P",
)

BUILTIN_WRAPPERS: dict[str, Wrapper] = {
    "nohup": Wrapper(),
    "nice": Wrapper(value_options=_f("-n", "--adjustment")),
    "timeout": Wrapper(value_options=_f("-s", "--signal", "-k", "--kill-after"), leading=1),
    "time": Wrapper(value_options=_f("-o", "--output", "-f", "--format")),
    "stdbuf": Wrapper(value_options=_f("-i", "-o", "-e", "--input", "--output", "--error")),
    "setsid": Wrapper(),
    "ionice": Wrapper(value_options=_f("-c", "--class", "-n", "--classdata"), no_command=_f("-p", "--pid", "-P", "--pgid", "-u", "--uid")),
    "chronic": Wrapper(),
    "unbuffer": Wrapper(),
    "eatmydata": Wrapper(),
    "catchsegv": Wrapper(),
    "torsocks": Wrapper(),
    "ifne": Wrapper(),
    "proxychains": Wrapper(value_options=_f("-f")),
    "proxychains4": Wrapper(value_options=_f("-f")),
    "doas": Wrapper(value_options=_f("-u", "-C")),
    "sudo": Wrapper(
        value_options=_f("-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C", "--close-from", "-r", "--role", "-t", "--type", "-U", "--other-user", "-T", "--command-timeout", "-D", "--chdir", "-R", "--chroot"),
        chdir=_f("-D", "--chdir"),
        new_root=_f("-R", "--chroot"),  # review 34
        cwd_unknown=_f("-i", "--login"),
        assignments=True,
    ),
    "pkexec": Wrapper(value_options=_f("--user")),
    "exec": Wrapper(value_options=_f("-a")),
    "command": Wrapper(same_shell=True),
    "builtin": Wrapper(same_shell=True),
    "flock": Wrapper(value_options=_f("-w", "--timeout", "--wait", "-E", "--conflict-exit-code"), leading=1, code=_f("-c", "--command")),
    "taskset": Wrapper(leading=1, no_command=_f("-p", "--pid")),
    "chrt": Wrapper(value_options=_f("-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"), leading=1, no_command=_f("-p", "--pid", "-m", "--max")),
    "setarch": Wrapper(operand_first=True, no_command=_f("--list")),
    **{alias: Wrapper() for alias in ("linux32", "linux64", "i386", "i686", "x86_64", "uname26")},
    "unshare": Wrapper(
        value_options=_f("-S", "--setuid", "-G", "--setgid", "--propagation", "--setgroups", "--map-user", "--map-group", "--map-users", "--map-groups", "--monotonic", "--boottime", "-w", "--wd", "-R", "--root"),  # --kill-child takes a value only after `=` (review 33b)
        optional_value=_f("--mount", "--uts", "--ipc", "--net", "--pid", "--user", "--cgroup", "--time"),  # its short ones are flags: `-mw DIR` is -m -w DIR (h-ind33)
        chdir=_f("-w", "--wd"),
        new_root=_f("-R", "--root"),
    ),
    "nsenter": Wrapper(
        value_options=_f("-t", "--target", "-S", "--setuid", "-G", "--setgid", "-W", "--wdns"),
        optional_value=_NS | _f("-r", "-w"),
        new_root=_f("-r", "--root", "-m", "--mount", "-w", "--wd", "-W", "--wdns"),  # -W: a directory in its mount namespace (review 34b)
    ),
    "strace": Wrapper(value_options=_f("-o", "--output", "-e", "-p", "--attach", "-s", "--string-limit", "-u", "--user", "-E", "--env", "-P", "--trace-path", "-I", "-a", "--columns", "-b", "--detach-on", "-S", "--summary-sort-by", "-O", "-X", "-U", "--summary-columns")),
    "ltrace": Wrapper(value_options=_f("-o", "--output", "-e", "-p", "-s", "-u", "-n", "--indent", "-a", "--align", "-l", "--library", "-x", "-F", "--config", "-A", "-D")),
    "prlimit": Wrapper(value_options=_f("-p", "--pid", "-o", "--output"), optional_value=_PRLIMIT),
    "choom": Wrapper(value_options=_f("-n", "--adjust", "-p", "--pid"), no_command=_f("-p", "--pid")),
    "runcon": Wrapper(value_options=_f("-u", "--user", "-r", "--role", "-t", "--type", "-l", "--range")),
    "fakeroot": Wrapper(value_options=_f("-l", "--lib", "--faked", "-i", "-s", "-b")),
    "logsave": Wrapper(leading=1),
    "systemd-cat": Wrapper(value_options=_f("-t", "--identifier", "-p", "--priority", "--stderr-priority", "--level-prefix")),
    "systemd-inhibit": Wrapper(value_options=_f("--what", "--who", "--why", "--mode")),
    "valgrind": Wrapper(),
    "xvfb-run": Wrapper(value_options=_f("-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file", "-p", "--xauth-protocol", "-w", "--wait")),
    "dbus-run-session": Wrapper(),
    "numactl": Wrapper(value_options=_f("-i", "--interleave", "-N", "--cpunodebind", "-m", "--membind", "-C", "--physcpubind", "-p", "--preferred", "-P", "--preferred-many")),
    "busybox": Wrapper(no_command=_f("--list", "--help")),
    "toybox": Wrapper(),
    "su": Wrapper(value_options=_f("-s", "--shell", "-g", "--group", "-G", "--supp-group", "-w", "--whitelist-environment"), cwd_unknown=_f("-", "-l", "--login"), code=_f("-c", "--command", "-C", "--session-command"), code_only=True, permutes=True),
    "runuser": Wrapper(value_options=_f("-u", "--user", "-g", "--group", "-G", "--supp-group", "-s", "--shell", "-w", "--whitelist-environment"), cwd_unknown=_f("-", "-l", "--login"), code=_f("-c", "--command", "--session-command"), permutes=True),
    "script": Wrapper(value_options=_f("-E", "--echo", "-I", "--log-in", "-O", "--log-out", "-B", "--log-io", "-T", "--log-timing", "-m", "--logging-format", "-o", "--output-limit"), optional_value=_f("-t"), code=_f("-c", "--command"), code_only=True, permutes=True),  # `script -q /dev/null -c CMD` (review 34)
    "watch": Wrapper(value_options=_f("-n", "--interval", "-q", "--equexit"), optional_value=_f("-d"), joined=True, argv_with=_f("-x", "--exec")),
    # Found by the review of issue 10.
    "setpriv": Wrapper(value_options=_f("--reuid", "--regid", "--ruid", "--euid", "--rgid", "--egid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label", "--apparmor-profile", "--landlock-access", "--landlock-rule", "--seccomp-filter")),
    "sg": Wrapper(leading=1, code=_f("-c"), joined=True),  # `sg GROUP -c 'cmd'` and `sg GROUP 'cmd'` run the string by sh
    "ssh-agent": Wrapper(value_options=_f("-a", "-E", "-t", "-O", "-P"), no_command=_f("-k", "-l", "-T")),
    # Project runners: `uv run pytest` runs pytest.
    "uv run": Wrapper(value_options=_UV_RUN, chdir=_f("--directory")),
    "poetry run": Wrapper(),
    "pipenv run": Wrapper(),
    "pdm run": Wrapper(value_options=_f("-p", "--project", "-v")),
    "rye run": Wrapper(),
    "conda run": Wrapper(value_options=_f("-n", "--name", "-p", "--prefix", "--cwd"), chdir=_f("--cwd")),
    "mamba run": Wrapper(value_options=_f("-n", "--name", "-p", "--prefix", "--cwd"), chdir=_f("--cwd")),
    "micromamba run": Wrapper(value_options=_f("-n", "--name", "-p", "--prefix", "--cwd"), chdir=_f("--cwd")),
    "pixi run": Wrapper(value_options=_f("--manifest-path", "-e", "--environment")),
    "bundle exec": Wrapper(),
    "npm exec": Wrapper(value_options=_f("--package", "-w", "--workspace"), code=_f("-c", "--call")),
    "pnpm exec": Wrapper(value_options=_f("--filter"), chdir=_f("-C", "--dir")),
    "npx": Wrapper(value_options=_f("-p", "--package"), code=_f("-c", "--call")),
    "bunx": Wrapper(value_options=_f("-p", "--package")),
}
