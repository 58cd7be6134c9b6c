"""Every reading the indirection rule makes, pinned whole and called in this process (issue 13, phase 18,
`rules/indirection`).

Phase 8 measured rules/indirection.py only in part (624 of its 1,836 mutants never ran), and the module has grown a lot
since (review 33a: `_startup_for_any_program`, `_runs_shell_variable`, `_sudo_shell_reads_input`, `_wrapper_options`,
STDIN_SHELL_STARTERS). The world is tests/test_git_rule_mutants.py's (W a linked worktree inside the main checkout
{MAIN}, a sibling agent's worktree {SIB}, a worktree {OUT} outside it, {BASE} the directory holding them, `to-main` a
link in W to {MAIN}, `to-ssl` one to /etc/ssl), built once; each row is judged through the engine in this process.
Its reading is every code of the verdict, the indirection rule's records whole (code, message, path fields, the span:
`ALL` or its offsets), and every other rule's records as (rule, code, path, span): what the rule's unwrapping of a wrapper
(`env -C`, `sudo`, `xargs`, `find -exec`, …) hands the other rules shows there.

`indirection_readings.json` holds the readings: under "harvested", the Bash commands of the shell and rule tests at
phase 18 that name something this rule reads (a wrapper, a shell, a startup variable, a computed word); under "rows",
ROWS below, added for the mutants those left alive. A change of a reading is a change of what the guard decides, to
be read in the diff of the JSON file, which `python -m tests.test_indirection_mutants --write` rewrites (with a JSON
list of commands as its next argument, it takes those as the harvested ones).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.readings import rule_record, span_of, world_environment, write_readings
from tests.test_git_rule_mutants import OUTSIDE_HOME, make_world

READINGS = Path(__file__).with_name("indirection_readings.json")

# Rows added in phase 18 for the mutants the harvested commands left alive (the mutant each kills in docs/testing.md).
ROWS: list[str] = [
    # phase 19 (B): commands of the shell tests added since phase 18's harvest (su, sudo, tmux, unshare readings)
    "su --login postgres --command 'createdb x'",
    "su $username -c 'make test'",
    "su $username -c 'touch {MAIN}/x'",
    "X=$(cat f); su root $X",
    "echo x | su root",
    "SHELL=./evil.sh flock --timeout 3 l -c ls",
    "SHELL=./evil.sh script -q /dev/null -c ls",
    "SHELL=./evil.sh script --log-out f -c ls",
    "SHELL=./evil.sh sudo --user root -s ls",
    "SHELL=./evil.sh sudo --sh ls",
    "echo 'touch {MAIN}/r' | su root -s /bin/bash",
    "echo 'touch {MAIN}/r' | su root -l -p",
    "echo 'touch {MAIN}/r' | sudo --sh",
    "echo 'touch {MAIN}/r' | sudo --us root -s",
    "echo 'touch {MAIN}/r' | sudo -s FOO=1",
    "echo 'touch {MAIN}/r' | unshare --setu 0",
    "echo 'touch {MAIN}/r' | sg - root",
    "su root --comm 'touch {MAIN}/r'",
    "runuser root -c 'touch {MAIN}/r'",
    "sg - root -c 'touch {MAIN}/r'",
    "tmux new -d -e 'BASH_FUNC_ls%%=() { touch {MAIN}/f1; }' ls",
    "tmux new -de BASH_ENV=./evil.sh ls",
    "XDG_CONFIG_HOME=. tmux new -d",
    "PROMPT_COMMAND='touch {MAIN}/pc' tmux new -d",
    "unshare --kill-child bash -c 'touch {MAIN}/kc'",
    "fd -Hx=rm . {MAIN}",
    "unshare --kill-child ls",
    "tmux new -d -e FOO=1 ls",
    "sg - root -c ls",
    "sudo -u root make",
    "SHELL=./evil.sh flock l ls",
    "runuser -u nobody -- ls -l",
    "echo 'touch {MAIN}/r' | sudo -s -u root",
    "echo 'touch {MAIN}/r' | sudo -su root",
    "echo 'touch {MAIN}/r' | sudo -i -u root",
    "echo 'touch {MAIN}/r' | su $USER",
    "echo 'touch {MAIN}/r' | su - $USER",
    "echo 'touch {MAIN}/r' | su -- root",
    "echo 'touch {MAIN}/r' | runuser -- root",
    "echo 'touch {MAIN}/r' | su -ls /bin/bash -- root",
    "tmux -L r new -d \\; set -g default-command 'touch {MAIN}/t2' \\; new-window",
    "tmux -L r new -d \\; setenv -g PROMPT_COMMAND 'touch {MAIN}/t5' \\; neww",
    "zsh -H",
    "tmux new -d -e BASH_ENV=/dev/null make",
    "su -- root -c ls",
    "sudo -E make",
    "su $USER -c make",
    'su "--command=$X" root',
    'su root "--command=$X"',
    "tmux setenv FOO bar",
    "unshare -m ls",
    # phase 19 (B): _su_words, _long_option: su's abbreviated long options, a prefix of two options
    'su --comm=ls root',
    'echo x | su --sh /bin/bash -- root',
    'echo x | sudo --ch /tmp -s',
    # phase 19 (B): _runner_options: script permutes, `-` an operand, a long value option with and without `=`
    'SHELL=./evil.sh script -q /dev/null x -c ls',
    'echo x | sudo -s -',
    'echo x | sudo --preserve-env -s',
    'echo x | sudo --user=root -s',
    # phase 19 (B): _tmux_environment
    'tmux set -g default-shell ./evil.sh',
    'tmux set-environment -g BASH_ENV ./x',
    'tmux setenv -g BASH_ENV ./x',
    'tmux setenv BASH_ENV ./x',
    'tmux setenv BASH_FUNC_ls%% x',
    'X=$(cat f); tmux setenv "$X" y',
    'tmux setenv',
    'tmux setenv -g',
    'tmux new --e BASH_ENV=./x ls',
    'tmux new -Xe BASH_ENV=./x ls',
    'tmux new -Fe BASH_ENV=./x ls',
    'tmux new -eBASH_ENV=./x ls',
    'tmux new -eX BASH_ENV=./x ls',
    'tmux new -d -e',
    'tmux new -e BASH_ENV=./x',
    'tmux new -e BASH_ENV=./x ls',
    'tmux new -e BASH_ENV=./a=b ls',
    'tmux new -e ZDOTDIR= ls',
    'tmux new -e ENV=/dev/null ls',
    'tmux new -e BASH_ENV= ls',
    'tmux new -e BASH_ENV=/dev/null -e SHELL=./x ls',
    'X=$(cat f); tmux new -e "$X" ls',
    # phase 19 (B): _su_operands: value options (short, long, clustered, attached), `-`, `--`
    'echo x | su -s /bin/bash -- root',
    'echo x | su -s /bin/bash root -- x',
    'echo x | su -l -- root',
    'echo x | su - -- root',
    'echo x | su - root -- x',
    'echo x | su --shell /bin/bash -- root',
    'echo x | su --login root -- x',
    'echo x | su -sx root -- y',
    'echo x | su -l root -- x',
    # phase 19 (B): _short_code: su's short clusters
    'echo x | su --xc root',
    'su -cls root',
    'echo x | su -X root',
    'su -Xc ls root',
    'su -lC ls root',
    'echo x | su -Gc root',
    'echo x | su -sc root',
    # phase 19 (B): _sudo_shell_reads_input: NAME=value words after sudo's options
    'echo x | sudo -s FOO=1 ls',
    'echo x | sudo -s =x',
    'echo x | sudo -s -- -a=1',
    # phase 19 (B): _starts_a_shell_reading_input
    'echo x | newgrp - root',
    'echo x | sg - root ls',
    'X=$(cat f); su root "$X"',
    'echo x | su --command=ls root',
    'echo x | su --session-command=ls root',
    'echo x | su -- root ls',
    # phase 19 (B): su's code options after the user (before it, _skip_options reads them), sg's and newgrp's words
    'echo x | su root --session-command=ls',
    'su root -lC ls',
    'su root -Xc ls',
    'echo x | newgrp - root x',
    'echo x | sg -- root',
    'X=$(cat f); newgrp root x "$X" -h',
    'echo x | runuser root --command=ls',
    # phase 19 (B): _trap_action: a lone argument is a signal, an action starting with `-` an option
    "trap 'rm -f {MAIN}/x'",
    "trap '-x; rm -f {MAIN}/y' INT",
    # phase 19 (B): _callback_code, _callbacks: a word only known at run time, options after an operand, `--`, `-`,
    # -C last or its value last; mapfile's code runs in this shell, compgen -C's in a subshell where the command runs
    'X=$(cat f); mapfile "$X" arr',
    'X=$(cat f); mapfile arr -C "$X"',
    'X=$(cat f); mapfile -- -C "$X" arr',
    'X=$(cat f); mapfile - -C "$X" arr',
    'mapfile -C',
    "mapfile -C 'rm -rf {MAIN}/x'",
    "mapfile -C 'cd {MAIN}' -c 1 arr < f; rm -f x",
    "compgen -C 'rm -f ../../../x' x",
    # phase 19 (B): _unseen_file: a directory only known at run time, a relative device path, a regular file, /proc
    'cd "$(cat f)"; source /dev/stdin',
    'cd /dev && source stdin',
    'cd "$(cat f)"; source x',
    'cd "$(cat f)"; source ../x',
    'source /Xdev/stdin',
    'source /proc/self/environ',
    'source .git',
    # phase 19 (B): _arguments_matter: a computed name under command/builtin, `.` and `..`, a directory unknown
    """command "$(cat f)" 'a;b'""",
    """builtin "$(cat f)" 'a;b'""",
    'cd "$(cat f)"; "$(cat g)" .',
    '"$(cat f)" ..',
    'cd "$(cat f)"; "$(cat g)" {W}/x',
    'cd "$(cat f)"; "$(cat g)" a/b',
    # phase 19 (B): _powershell: Windows PowerShell's command words, a word Windows splits, xargs under a wrapper
    'powershell.exe x.ps1',
    """powershell.exe -c 'a"b'""",
    'echo a.ps1 | xargs pwsh "$(cat f)"',
    'echo a.ps1 | nice xargs pwsh',
    'cd /dev && pwsh -File stdin',
    # phase 19 (B): worktree_guard_shell_command: a name after BASH_ALIASES was set
    'BASH_ALIASES[ls]=x; ls',
    # an alias printed, one only known at run time, one defined with alias disabled (BASH_ENV's check comes between)
    'alias ls',
    'alias "$(cat f)"',
    'enable -n alias; BASH_ENV=./x alias a=b',
    '/usr/bin/alias a=b',  # the second alias check: a name `alias` that is not the literal word
    # chroot with a root and no command (runs the shell there), sg's `-` before the group with code unknown
    'chroot /tmp',
    'sg - root -c "$(cat f)"',
    # where a wrapper's own options start: after setarch's operand, after a two-word key (a word only known at run time there)
    'U=$(cat f); setarch x86_64 "$U" true',
    'setarch "$(cat f)"',  # setarch's operand alone: no option follows it
    'U=$(cat f); uv run "$U" pytest',
    # a wrapper's code option with no value after its leading operand; sg's code option one word later than `sg - GROUP`'s
    'sg root -c',
    'sg - root x -c',
    'sg "$GROUP" ls',  # the group the agent's environment gave: the joined line after it is known
    # bash's -s with -c reads no input (dash's does); a script relative to a device directory
    'bash -sc ls',
    'cd /dev && bash stdin',
    # a word the agent's environment gave: unquoted it may vanish (left out), quoted it is one operand, `-…` an option
    'echo x | script $OPTS /dev/null',
    'echo x | su -$OPT root',
    'echo x | su root "X-$USER"',
    # _startup_for_any_program: a bash function exported through the environment, to a program or a builtin
    "env 'BASH_FUNC_ls%%=() { rm -rf {MAIN}; }' bash -c ls",
    "BASH_FUNC_x%%='() { :; }' ./run.sh",
    "BASH_FUNC_x%%=1 echo hi",
    "X_BASH_FUNC_x=1 ./run.sh",
    # BASH_ENV for any program that is no shell, builtin or function; "" and /dev/null pass
    "BASH_ENV=./evil.sh ./run.sh",
    "BASH_ENV= ./run.sh",
    "BASH_ENV=/dev/null ./run.sh",
    'BASH_ENV="$X" ./run.sh',
    "ENV=./x ./run.sh",
    "ZDOTDIR=./x ./run.sh",
    "BASH_ENV=x echo hi",
    "f(){ :; }; BASH_ENV=x f",
    "enable -n echo; BASH_ENV=x echo hi",
    # a $SHELL runner: SHELL (a system shell passes), BASH_ENV, ENV, ZDOTDIR, HOME (the agent's own passes)
    "SHELL=./evil.sh script -qc ls",
    "SHELL=/bin/bash script -qc ls",
    "SHELL=/usr/bin/zsh script -qc ls",
    "SHELL=/bin/python3 script -qc ls",
    "SHELL=/tmp/bash script -qc ls",
    'SHELL="$X" script -qc ls',
    "SHELL=./evil.sh script -q /dev/null",
    "ZDOTDIR=/tmp/z tmux new ls",
    "HOME=/tmp/h tmux new ls",
    "HOME=/opt/wg-test-home tmux new ls",
    'HOME="$H" tmux new ls',
    "ENV= su root -c ls",
    "ENV=/dev/null su -c ls",
    "ENV=x su -c ls",
    "BASH_ENV=/dev/null flock l -c ls",
    "BASH_ENV= flock l -c ls",
    "BASH_ENV=x flock l -c ls",
    "ENV=x flock l true",
    'read -r "$N"; flock l -c ls',
    'read -r "$N"; flock l true',
    'read -r "$N"; ./run.sh',
    # _runs_shell_variable: flock
    "SHELL=./e flock l true",
    "SHELL=./e flock l -c ls",
    "SHELL=./e flock -w 3 l -c ls",
    "SHELL=./e flock -w3 l -c ls",
    "SHELL=./e flock -w c l ls",
    "SHELL=./e flock -E 3 l ls",
    "SHELL=./e flock -x l ls",
    "SHELL=./e flock -xc ls l",
    "SHELL=./e flock l --command ls",
    "SHELL=./e flock l --command=ls",
    "SHELL=./e flock --command=ls l",
    "SHELL=./e flock --command ls l",
    "SHELL=./e flock -- l -c ls",
    "SHELL=./e flock l",
    'SHELL=./e flock l "$X"',
    'SHELL=./e flock "$X" l',
    "SHELL=./e flock --nonblock l ls",
    # sudo
    "SHELL=./e sudo -n true",
    "SHELL=./e sudo -s true",
    "SHELL=./e sudo -i true",
    "SHELL=./e sudo -ns true",
    "SHELL=./e sudo --shell true",
    "SHELL=./e sudo --login true",
    "SHELL=./e sudo --login=x true",
    "SHELL=./e sudo --user=x true",
    "SHELL=./e sudo -u s true",
    "SHELL=./e sudo -u i -- true",
    "SHELL=./e sudo -us true",
    "SHELL=./e sudo -su x true",
    "SHELL=./e sudo -nu s true",
    "SHELL=./e sudo -nus true",
    'SHELL=./e sudo "$X" true',
    "SHELL=./e sudo -- true",
    "SHELL=./e sudo -- -s",
    "SHELL=./e sudo --other true",
    "SHELL=./e sudo -n",
    # entr, script, and the ones that always do
    "SHELL=./e entr -s ls",
    "SHELL=./e entr ls",
    "SHELL=./e entr -r ls",
    "SHELL=./e entr -rs ls",
    "SHELL=./e script -c ls",
    "SHELL=./e script -q -c ls",
    "SHELL=./e script --command ls",
    "SHELL=./e script --command=ls",
    "SHELL=./e script -E auto -c ls",
    "SHELL=./e script -E c x.log",
    "SHELL=./e script -Ec x.log",
    "SHELL=./e script -c",
    "SHELL=./e screen ls",
    "SHELL=./e su -c ls",
    "SHELL=./e runuser -u x ls",
    "SHELL=./e tmux ls",
    # _sudo_shell_reads_input
    "sudo -s", "sudo -i", "sudo -s ls", "sudo -u root -s", "sudo -s -u root", 'sudo -s "$X"', "sudo -n", "sudo --login",
    "sudo --shell", "sudo -s --", "sudo -s -- ls", "sudo -u", "sudo -su root",
    # _starts_a_shell_reading_input: each starter with and without a command, an operand, a word only known at run time
    "unshare", "unshare -r", "unshare -r ls", "unshare -S 0", "unshare -S 0 ls", "unshare --help", 'unshare "$X"',
    "nsenter -t 1", "nsenter -t 1 ls", "nsenter --target 1 -m", "nsenter -V",
    "su", "su -", "su root", "su - root", "su - root -c ls", "su root -c ls", "su root script.sh", "su -s /bin/sh root",
    "su -c ls root", "su -c ls", 'su "$U"', "su - root x", "su root -- -c ls", "su --help",
    "runuser -u x", "runuser -u x -- ls", "runuser root", "runuser -l root -c ls",
    "sg grp", "sg grp ls", "sg grp -c ls", "sg -c ls grp", "sg", 'sg grp "$X" ls',
    "newgrp", "newgrp grp", "newgrp - grp", "newgrp grp x", "newgrp -h",
    "script -c ls", "script x.log", "script -q x.log", "script -p x", "script -E auto", "script x.log ls", "script -V",
    'script "$X"', "script -q -- x.log",
    # _wrapper_options: su's options after the user, and the shell's words after --
    "su root -c 'rm -rf {MAIN}'",
    "su - root -c 'rm -rf {MAIN}'",
    "su root -- -c 'rm -rf {MAIN}'",
    "su root -- x -c 'rm -rf {MAIN}'",
    "su root -- -c",
    "su root -s /bin/sh -c 'rm {MAIN}/x'",
    "su root -c 'rm {MAIN}/x' -s /bin/sh",
    'su root "$X"',
    'su root "$X" -c ls',
    "su root --command='rm {MAIN}/x'",
    'su root -c "$X"',
    "runuser root -c 'rm {MAIN}/x'",
    "su root -lc 'rm {MAIN}/x'",
    "su root -w X -c 'rm {MAIN}/x'",
    "su root - -c 'rm {MAIN}/x'",
    "su -c 'rm {MAIN}/x' root",
    "su -c 'rm {MAIN}/x' -- root",
    "sudo su root -c 'rm {MAIN}/x'",
    # _wrapper_options: an optional-value option takes the rest of its cluster (`unshare -mw<dir>`: -m's value, no -w);
    # a value option after su's user takes the next word even when it starts with `-`; a word only known at run time
    # after an option ends the options there
    # _startup_for_any_program: a system SHELL, or an empty BASH_ENV, goes on to the next variable
    "SHELL=/bin/bash BASH_ENV=x script -qc ls",
    "BASH_ENV= ENV=x su -c ls",
    "BASH_ENV=/dev/null ZDOTDIR=x tmux new ls",
    # _runs_shell_variable: each program's letters, and its options that take a value (with an X, or a case, that
    # none of them has); a cluster ending in a value option; flock's `--` before its lock file; sudo's long options
    "SHELL=./e script -X x.log",
    "SHELL=./e flock -X l ls",
    "SHELL=./e sudo -X true",
    "SHELL=./e entr -X ls",
    "SHELL=./e flock -X -c l ls",
    "SHELL=./e flock -E 1 l -c ls",
    "SHELL=./e sudo -X -s true",
    "SHELL=./e sudo -C 3 -s true",
    "SHELL=./e sudo -u x -s true",
    "SHELL=./e script -X -c ls",
    "SHELL=./e script -m x -c ls",
    "SHELL=./e entr -X -s ls",
    "SHELL=./e flock -xw 3 l -c ls",
    "SHELL=./e flock -- -c ls",
    "SHELL=./e sudo --user x -s true",
    # _startup_file: a startup file only known at run time; a changed HOME for each shell and its options
    'bash --rcfile "$F" -c ls',
    'bash --init-file "$F" -i',
    "HOME=/tmp/h zsh -f -c ls",
    "HOME=/tmp/h yash -i -c ls",
    "HOME=/tmp/h ksh -il -c ls",
    "HOME=/tmp/h mksh -i -c ls",
    "HOME=/tmp/h bash -i --norc -c ls",
    "HOME=/tmp/h bash -l --noprofile -c ls",
    "HOME=/tmp/h sh -l -c ls",
    "ZDOTDIR=/tmp/z zsh -c ls",
    "ZDOTDIR=/tmp/z zsh -f -c ls",
    "su root -l \"$X\" --command='rm -f {MAIN}/x'",  # the words after one only known at run time are the shell's
    # fail-opens found in phase 18 (docs/testing.md), pinned as the code reads them now: a long option's value in
    # its own word (flock --timeout, script --echo, sudo --user) read as the command or lock file; unshare's short
    # -m takes no value (util-linux reads `-mw<dir>` as -m -w <dir>)
    "SHELL=./e flock --timeout 3 l -c ls",
    "SHELL=./e script --echo auto -qc ls /dev/null",
    "SHELL=./e sudo --prompt p -s true",
    # _startup_file: each spelling with `=`, a value holding `=`, zsh's --no-rcs, PROMPT_COMMAND and PS1 of an
    # interactive shell, an empty ZDOTDIR
    "bash --init-file=/tmp/x -i",
    "bash --rcfile=a=b -i",
    "bash --rcfile=x=/dev/null -i",
    "bash --rcfile=/dev/null -i",
    "HOME=/tmp/h zsh --no-rcs -c ls",
    "PROMPT_COMMAND= bash -i -c ls",
    "PROMPT_COMMAND=x bash -i -c ls",
    "PS1='$(date)' bash -i -c ls",
    "PS1=x bash -i -c ls",
    'PS1="$X" bash -i -c ls',
    "ZDOTDIR= zsh -c ls",
    # _login_by_exec: exec's options before a shell with HOME changed (`-l`, `-a NAME` a login shell's or not,
    # attached or not, only known at run time; `-c`, `--`, `-`; an exec that came out of an expansion)
    'HOME=/tmp/h exec -l bash -c ls',
    'HOME=/tmp/h exec bash -c ls',
    'HOME=/tmp/h exec -a -bash bash -c ls',
    'HOME=/tmp/h exec -a x bash -c ls',
    'HOME=/tmp/h exec -a-bash bash -c ls',
    'HOME=/tmp/h exec -ax bash -c ls',
    'HOME=/tmp/h exec -a "$N" bash -c ls',
    'HOME=/tmp/h exec "$O" bash -c ls',
    'HOME=/tmp/h exec -- bash -c ls',
    'HOME=/tmp/h exec - bash -c ls',
    'HOME=/tmp/h exec -c bash -c ls',
    'HOME=/tmp/h exec -cl bash -c ls',
    'HOME=/tmp/h exec -a x -l bash -c ls',
    'HOME=/tmp/h exec -ax -l bash -c ls',
    'HOME=/tmp/h exec -ca -bash bash -c ls',
    'HOME=/tmp/h exec -ca x -l bash -c ls',
    'HOME=/tmp/h exec -a l bash -c ls',
    'HOME=/tmp/h exec -al bash -c ls',
    'HOME=/tmp/h exec -c -- -l bash -c ls',
    'E=exec; HOME=/tmp/h $E -l bash -c ls',
    'E=exec; HOME=/tmp/h $E bash -c ls',
    'HOME=/tmp/h command exec -l bash -c ls',
    # _read_otherwise: history expansion in what bash reads from its input, and `#` once interactive comments may be off
    "bash <<'E'\nset -H\necho x\nrm -f !$\nE",
    'bash -H <<E\nrm !$\nE',
    "rbash -H <<< 'rm !$'",
    "sh -H <<< 'rm !$'",
    "bash -H <<< 'rm !$'",
    "bash <<< 'rm !$'",
    "SHELLOPTS=history bash <<< 'rm !$'",
    "histchars=x bash -H <<< 'ls'",
    "histchars=x bash <<< 'ls'",
    "bash -o history <<< 'ls ^a^b^'",
    "bash -H <<< '^a^b^'",
    "bash -H <<< 'x\n ^a^b'",
    "bash -H <<< 'x ^a^b'",
    "bash <<< 'histchars=@; set -H'",
    "bash <<< 'shopt -o history; rm !$'",
    "bash <<< 'set -o history; rm !$'",
    "bash <<< 'set -eH; rm !$'",
    "bash -i <<< 'ls'",
    "bash -i <<< 'rm !$'",
    "bash -i <<< 'set +o interactive-comments; # x'",
    "bash -i -c 'shopt -u interactive_comments; # rm'",
    "bash -i -c 'ls # x'",
    "bash -c 'ls # x'",
    "bash -i <<< '# x'",
    "dash -H <<< 'rm !$'",
    "zsh -H <<< 'rm !$'",  # raises IndexError in _shell_code (docs/testing.md, phase 18): the hook refuses it
    "bash -xo history <<< 'rm !$'",
    "bash +o history <<< 'rm !$'",
    "bash '-o' history <<< 'rm !$'",
    "bash --verbose <<< 'rm !$'",
    "bash -s <<< 'rm !$'",
    'bash -H <<< "$X"',
    "bash -c 'rm !$' -H",
    "bash -H -c 'rm !$'",
    "bash -i -c 'set -o x; # y'",
    "bash -i <<< 'shopt -u x; #y'",
    "HOME=/tmp/h exec -a bash",  # -a's value is the last word: no shell follows
    "HOME=/tmp/h exec -ca bash",
    "HOME=/tmp/h exec bash -c ls xl",  # the shell's own words are no exec options
    "bash -o history <<< 'rm !$'",
    "bash -o vi <<< 'rm !$'",
    "bash -xo vi <<< 'rm !$'",
    "SHELLOPTS= bash <<< 'rm !$'",  # SHELLOPTS set, even empty
    "bash -H <<E\nrm !$",  # a heredoc with no end
    "bash -H <<-E\n\trm !$\n\tE",
    "bash <<< 'rm -f {MAIN}/x'",  # the here-string's code: where it starts in the command
    "bash <<E\nrm -f {MAIN}/x\nE",
    "BASH_ALIASES[a[0]]=x true",
    "BASH_CMDS[ls]=/bin/rm ls",
    # _skip_options: a long option that takes a value, last; an optional value attached
    "env --chdir", "env --unset", "xargs --arg-file", "env -C", "sudo -u",
    "ls | xargs -iZ sh -c Z",
    "ls | xargs -i sh -c {}",
    "ls | xargs --replace=Z sh -c Z",
    "unshare -mw{MAIN} rm -f x",
    "su root -s -c 'rm -f {MAIN}/x'",
    "su root -l \"$X\" -c 'rm -f {MAIN}/x'",
    # phase 19 (shell/wrappers' table): unshare's --kill-child takes a value only after `=` (a separate word is the command)
    "unshare --kill-child rm -f {MAIN}/x", "unshare --kill-child=SIGKILL rm -f {MAIN}/x",
    # phase 19 (A): _find_exec: -L, -follow, -H (links followed: {} unknown); no starting point is `.`; -type tests
    "find -L . -exec rm {} +",
    "find . -follow -exec rm {} +",
    "find -H . -exec rm {} +",
    "find -exec rm {} +",
    "find . -type f -exec rm {} +",
    "find . -exec rm {} \\; -type f",
    'find . -type "$X" -exec rm {} +',
    "find . -type l -exec rm {} +",
    # two actions, an empty one, the words after `;` and `+`; -execdir/-okdir run in the found path's directory
    "find . -exec rm {} \\; -exec rm x {} + -name y",
    "find . -execdir rm {} \\;",
    "find . -okdir rm {} \\;",
    "find . src -exec rm {} \\;",
    "find src -exec \\;",
    "find src -exec \\; -exec rm {MAIN}/x \\;",
    "find src -exec ls \\; -exec rm {MAIN}/x \\;",
    "find src -exec ls {} + -exec rm {MAIN}/x \\;",
    "find / -exec rm x \\;",
    "find / -exec \"$X\" 'a;b' \\;",
    # _found_path: a link found is the path itself (exact), another path is below the starting point
    "find . -name to-main -exec git -C {}/.. switch x \\;",
    "find 'to-main ' -exec rm {} \\;",
    "find to-mainX -exec rm {} \\;",
    "find {W} -exec git -C {}/../../.. switch x \\;",
    "find {W}/ -name to-main -exec git -C {}/.. switch x \\;",
    "find {W}/ -exec git -C {} switch x \\;",
    # _named: -name/-iname narrow the links; -o, -or, !, -not, `,` and an unknown word do not
    "find . -name 'TO-MAIN' -exec rm {} \\;",
    "find . -iname 'TO-MAIN' -exec rm {} \\;",
    "find . -iname '[_-z]o-main' -exec rm {} \\;",
    "find . -name 'to-ssl' -exec rm {} \\;",
    "find . -name to-ssl -o -name x -exec rm {} \\;",
    "find . -name to-ssl -or -name x -exec rm {} \\;",
    "find . ! -name to-main -exec rm {} \\;",
    "find . -not -name to-main -exec rm {} \\;",
    "find . -name to-ssl , -name x -exec rm {} \\;",
    "find . -exec rm {} \\; -name to-ssl",
    # phase 19 (A): _chroot: `/` runs the command from `/` (--skip-chdir: here); --userspec/--groups take a value
    "chroot / rm -f x",
    "chroot --skip-chdir / rm -f x",
    "chroot --userspec u:g / rm -f x",
    "chroot --groups g / rm -f x",
    "chroot",
    "chroot --skip-chdir",
    'chroot "$R" rm -f x',
    "chroot ../../../../../../../../../../../../../../../../../../.. rm -f x",
    "chroot . rm -f x",
    'cd "$D"; chroot / rm -f {MAIN}/x',
    'cd "$D"; chroot . rm -f {MAIN}/x',
    "chroot / ls {MAIN}",
    "chroot / \"$X\" 'a;b'",
    "chroot / rm -f {MAIN}/x",
    "chroot / {MAIN}/run.sh",
    # phase 19 (A): _chdir: a directory option when the current one is only known at run time
    'cd "$D"; env -C {MAIN} rm -f x',
    'cd "$D"; env -C src rm -f x',
    # phase 19 (A): _value_index: a code option's value attached (`-cCODE`): the code's spans
    "su -c'rm -f {MAIN}/x' root",
    "su -c'(' root",
    # phase 19 (A): _env_removes: what -i, -u and --unset take out of the environment env's command gets (GIT_DIR)
    "GIT_DIR={MAIN}/.git env ai=1 git commit -m x",
    "GIT_DIR={MAIN}/.git env --unset GIT_DIR git commit -m x",
    "GIT_DIR={MAIN}/.git env --unset=X -u GIT_DIR git commit -m x",
    "GIT_DIR={MAIN}/.git env --unset -i git commit -m x",
    "GIT_DIR={MAIN}/.git env --unset X -u GIT_DIR git commit -m x",
    "GIT_DIR={MAIN}/.git env --debug -u GIT_DIR git commit -m x",
    "GIT_DIR={MAIN}/.git env --chdir -i git commit -m x",
    "GIT_DIR={MAIN}/.git env --chdir=src -u GIT_DIR git commit -m x",
    "GIT_DIR={MAIN}/.git env -u X --chdir src git commit -m x",
    "GIT_DIR={MAIN}/.git env --chdir src -u GIT_DIR git commit -m x",
    "GIT_DIR={MAIN}/.git env -Ci git commit -m x",
    "GIT_DIR={MAIN}/.git env -vXi git commit -m x",
    "GIT_DIR={MAIN}/.git env -u X -u GIT_DIR git commit -m x",
    # phase 19 (A): _env_spelled_out: an abbreviation after a value option, a cluster, an ambiguous or unknown one
    "GIT_DIR={MAIN}/.git env --i git commit -m x",
    "env --frob git status",
    "env --debug --ch={MAIN} rm -f x",
    "env --unset X --ch={MAIN} rm -f x",
    "env --unset=X --ch={MAIN} rm -f x",
    "env -u X --ch={MAIN} rm -f x",
    "env -C src --ch={MAIN} rm -f x",
    "env -uX --ch={MAIN} rm -f x",
    "env -Xu X --ch={MAIN} rm -f x",
    # phase 19 (A): _env: -S's code runs here; a computed name is no builtin; `=x` is no assignment; a name with `=`
    "env -S 'rm -f x'",
    "env -S 'rm -f ../x'",
    "env \"$X\" 'a;b'",
    "env =x rm -f {MAIN}/y",
    "env GIT_DIR={MAIN}/.git GIT_DIR=a=b git commit -m x",
    "env GIT_DIR=x={MAIN}/.git git commit -m x",
    "env GIT_DIR={MAIN}/.git; git commit -m x",
    # phase 19 (A): _env_split_unread: a -S string of every character read as the shell reads it; _env_split_string
    "env -S \"abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 _./=:,+@%^- 'a' \\\"b\\\"\"",
    "env --unset=S -S 'ls'",
    # phase 19 (A): _xargs_values: an abbreviation (--rep) after each kind of option, which xargs reads as --replace
    'ls | xargs "$X" rm',
    "ls | xargs --rep=Z sh -c Z",
    "ls | xargs --frob rm",
    "ls | xargs --max-args 1 --rep sh -c {}",
    "ls | xargs --null --rep sh -c {}",
    "ls | xargs -n 1 --rep sh -c {}",
    "ls | xargs -0 --rep sh -c {}",
    "ls | xargs -L 1 --rep sh -c {}",
    "xargs -ax --rep sh -c {}",
    "xargs -a-n --rep sh -c {}",  # fail-open (docs/testing.md, phase 19 A): -a's value `-n` attached is read as -n
    # phase 19 (A): _xargs: the input in a shell's script word; a word only known at run time
    "ls | xargs -I{} bash x{}",
    'ls | xargs -I{} rm "$X"',
    "ls | xargs -I{} $X",
    # phase 19 (A): worktree_guard_shell_unwrap: stdin fed to `bash -c` is not read; the code's shell options and cwd
    "bash -c 'ls' <<< 'rm -f {MAIN}/x'",
    "bash -f -c 'rm -f {MAIN}/*'",
    "bash -O nocaseglob <<< 'cd .GIT'",
    "bash -f <<< 'rm -f {MAIN}/*'",
    "bash <<< 'rm -f ../x'",
    "eval rm -f {MAIN}/x",
    "mapfile -C 'rm -f {MAIN}/x' -c 1 a",
    # phase 19 (A): wrapper_for: a wrapper known by its name and subcommand
    "uv run rm -f {MAIN}/x",
    # phase 19 (A): _wrapped: `command -v/-V` runs nothing; `sg - GROUP`; setarch's architecture operand
    "command -v rm -f {MAIN}/x",
    "command -V rm -f {MAIN}/x",
    "command rm -v {MAIN}/x",
    "sg - g -c 'rm -f ../x'",
    "sg - g 'rm -f {MAIN}/x'",
    "su - -c 'rm -f ../x'",
    "setarch",
    'setarch "$A" rm -f {MAIN}/x',
    "setarch aarch64 cd ..",
    # phase 19 (A): _skip_options: a lone `-` ends the options (env's -i); `--` ends them
    "GIT_DIR={MAIN}/.git env - git commit -m x",
    "env -- -C {MAIN} rm -f x",
    "env -- rm -f {MAIN}/x",
    # phase 19 (A): _wrapped: an option that acts on a process or another root runs nothing here; su's/runuser's `-`
    "setarch --list rm -f {MAIN}/x",
    "taskset -p 1 rm -f {MAIN}/x",
    "su - root -c 'rm -f x'",
    "runuser - root -c 'rm -f x'",
    "su root - -c 'rm -f x'",
    "sudo -i rm -f x",
    # a code option after the operand (flock FILE -c), with no value; the wrapper's own words (the lock file)
    'su -c "$X" root {MAIN}/x',
    "su root {MAIN}/x",
    "flock l -c",
    "flock -x {MAIN}/l -c ls",
    "flock {MAIN}/l -c ls",
    "flock -x l -c ls {MAIN}/x",
    "su -c ls root {MAIN}/x",
    # watch joins its words into one command line for sh -c, run here
    "watch 'rm -f ../x'",
    "watch rm -f x",
    "watch cd ..",
    'watch rm -f x "$X"',
    'watch ls {MAIN} "$X"',
    # sudo's NAME=value words
    "sudo X=1",
    "sudo =x rm -f {MAIN}/y",
    "sudo GIT_DIR={MAIN}/.git; git commit -m x",
    # phase 19 (A): _wrapper_options: an optional value attached to a short option (nsenter -n, watch -d)
    "nsenter -nt 1 ls {MAIN}",
    "watch -dn 1 cd ..",
    "su $(whoami) -c 'rm -f {MAIN}/x'",
    'su "--command=$X" root',
    'su root "-c$X"',
    # phase 19 (A): _read_otherwise: histchars set (even empty) with -H or -i; a word that only ends in `-o`
    "histchars= bash -H <<< 'ls'",
    "bash -s X-o <<< 'rm !$'",
    # phase 19 (A): a subscript holding `[` (BASH_CMDS["a[0]"]): not read as an assignment; fail-open (docs/testing.md)
    "BASH_CMDS[a[0]]=/bin/sh; 'a[0]' -c 'rm -f ../x'",
    # phase 19 (A): _find_exec: a -name or -type test after the action does not narrow what the action ran on (fail-open)
    "find . -exec chmod 700 {} \\; -name y",
    "find . -exec chmod 700 {} \\; -type f",
    # phase 19 (A): _name_table_set: BASH_ALIASES/BASH_CMDS set by a builtin, as written or as its value
    "declare -A BASH_ALIASES=([ls]=x)",
    "read 'BASH_CMDS[x]'",
    "printf 'BASH_CMDS[ls]' %s /bin/rm",
    'x=BASH_CMDS; declare "$x[ls]=/bin/rm"',
    # phase 19 (A): worktree_guard_shell_unwrap: dash's -sc reads more code from stdin after CODE
    "dash -sc 'ls' <<< 'rm -f {MAIN}/x'",
    # phase 19 (A): _wrapper_options: a word of the agent's environment that starts with `-` after a quote or letter;
    # a word the command built after an option
    "su X-$USER -c 'rm -f {MAIN}/x'",
    "su root -l \"$(echo x)\" -c 'rm -f {MAIN}/x'",
    'su root "$(cat f)" -c ls',  # fail-open (docs/testing.md, phase 19 A): a word built after the user may be -s SHELL
    # phase 19 (A): _chroot: a root other than `/`: the command's own words are only chroot's
    "chroot . rm -f {MAIN}/x",
    # phase 19 (late): _getopt_permuted: `-` is an operand of script (two operands: no shell reading input)
    'script - f',
    # phase 19 (late): _wrapper_options: script's optional -t takes the rest of its cluster, before and after an operand; su's users before and
    # after `--` (`-` is no user); runuser's -u/--user end its options at the command
    "script -tc 'rm -f {MAIN}/x' f",
    "script f -tc 'rm -f {MAIN}/x'",
    "su root - -- -c 'rm -f {MAIN}/x'",
    "su - -- root -c 'rm -f {MAIN}/x'",
    "runuser --user nobody ls -c 'rm -f {MAIN}/x'",
    'runuser -u nobody rm -f {MAIN}/x',
    # phase 19 (late): _starts_a_shell_reading_input: script permutes (an option after its file), the words after `--` are operands
    'script -q f -E never',
    'script -- f g',
    # phase 19 (late): _tmux_commands: tmux's own options before the command (a value letter alone, attached, in a cluster; `--`; `-`),
    # `\;` in a word, a word ending in `;`, an empty word
    "tmux -L s set -g default-command 'rm x'",
    "tmux - set -g default-command 'rm x'",
    "tmux -- -x set -g default-command 'rm x'",
    "tmux -Ls set -g default-command 'rm x'",
    "tmux -X set -g default-command 'rm x'",
    "tmux -f /dev/null set -g default-command 'rm x'",
    "tmux ls 'a\\;' set -g default-command 'rm x'",
    "tmux set -g 'default-command;'",
    "tmux '' set -g default-command 'rm x'",
    "tmux set -g '' default-command",
    # phase 19 (late): _tmux_flags: `-`, `--`, -u after -g, -t with its value separate and attached, a cluster
    "tmux set - default-command 'rm x'",
    'tmux set -g -u default-command',
    'tmux set -- -g default-command',
    'tmux set -t x default-command y',
    'tmux set -tx default-command y',
    'tmux set -ug default-command x',
    # phase 19 (late): _tmux_environment: `#(` in a word that starts with `-`
    "tmux display -p -- '-#(rm x)'",
    # phase 19 (late): _xargs_values: a flag before a value letter in a cluster (`-rn 1`); fail-opens (docs/testing.md, phase 19 late):
    # -i's attached string wins over a later --replace, and -e's attached eof string is read as -a taking the next word
    'xargs -rn 1 --rep sh -c {}',
    'xargs -ia --rep sh -c {}',
    'xargs -ea --rep sh -c {}',
    # phase 19 (late): _find_exec: an -execdir/-okdir/-ok before a test is an action too (only the tests before it narrow the links)
    'find . -ok chmod 700 {} \\; -name y',
    'find . -execdir true \\; -name y -exec chmod 700 {} \\;',
    'find . -okdir true \\; -name y -exec chmod 700 {} \\;',
    # phase 19 (late): _startup_for_any_program: a builtin run by a wrapper is a program (sudo's $SHELL reads BASH_ENV); by `command`, this shell's
    'sudo -s BASH_ENV=./evil.sh true',
    'BASH_ENV=./evil.sh command true',
    # phase 19 (late): _startup_for_any_program: by `builtin`, this shell's
    'BASH_ENV=./evil.sh builtin true',
    # phase 19 (late): worktree_guard_shell_command: a nested subscript's `+=`
    "BASH_CMDS[a[0]]+=/bin/sh; 'a[0]' -c ls",
    # phase 19 (late): _wrapper_options: a code that starts with `-` or `+` is the shell's option (su, runuser; before and after `--`);
    # runuser's -u in a cluster
    "runuser root -c -x 'rm -f {MAIN}/x'",
    "su root -c -x 'rm -f {MAIN}/x'",
    "su root -c +x 'rm -f {MAIN}/x'",
    "su root -- -c -x 'rm -f {MAIN}/x'",
    "su root -- -c +x 'rm -f {MAIN}/x'",
    'runuser -lu nobody ls',
    # phase 19 (late): _tmux_environment: `#(` in the verb's word; setw; -u/-U/-r; set with no option; an array item; an option that runs
    # nothing; a system shell (its name a prefix of both default-shell and default-command: no), then another command;
    # -e's value attached after an `e` in it
    "tmux '#(rm x)'",
    "tmux setw -g default-command 'rm x'",
    'tmux set -U default-command x',
    'tmux set -g',
    "tmux set -g 'default-command[0]' x",
    'tmux set -g status on',
    'tmux set -g default-shell /bin/zsh',
    'tmux set -g default-shell',
    'tmux set -g default /bin/zsh',
    'tmux set -g default-shell /bin/zsh \\; set -g default-command x',
    'tmux setenv -u BASH_ENV',
    'tmux setenv -r BASH_ENV',
    'tmux new -eBASH_ENV=./e ls',
    # phase 19 (late): worktree_guard_shell_command: a nested subscript's word longer than the message shows
    'BASH_CMDS[aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa[0]]=/bin/sh',
    # phase 19 (late): worktree_guard_shell_command: POSIXLY_CORRECT set (even empty) before a permuting wrapper
    "POSIXLY_CORRECT=1 su root -c 'rm -f {MAIN}/x'",
    "POSIXLY_CORRECT= su root -c 'rm -f {MAIN}/x'",
    # phase 19 (late): _tmux_environment: a hook option (`after-…`)
    "tmux set -g after-new-session 'run x'",
    # phase 19 (late): _starts_a_shell_reading_input: an abbreviation unique among the options it reads but not among all
    # the program's (`--mo`: --monotonic, --mount…), one of a program not in WRAPPER_LONGS (sg), a command option that
    # takes no value (script -C is none: two operands)
    'unshare --mo 1',
    'sg --he grp',
    'script -C f g',
    # stop 35 (review 35): _xargs_replace_dropped (a later -L/-l/--max-lines, -n other than 1, a -n only known at run
    # time, a later -I again), _find_tests (each test's arguments, -fprintf's two, -newerXY, a test not in the tables,
    # an argument missing at the end) and _named's brackets
    "xargs -IQ -L1 touch",
    "xargs -IQ -l rm -rf",
    "xargs --replace -l rm",
    "xargs -i --max-l rm",
    "xargs -IQ -n2 touch",
    "xargs -IQ -n 02 touch",
    "xargs -IQ -n01 touch Q",
    "xargs -IQ -n ' 1' touch Q",
    "xargs -IQ --max-args=2 touch",
    "xargs -IQ -n1 touch Q",
    "xargs -L1 -IQ touch Q",
    "xargs -IQ -L1 -IR touch R",
    "xargs -n2 -IQ touch Q",
    'xargs -IQ -n "$N" sh -c Q',
    'xargs -IQ -n "$N" touch Q',
    "xargs -IQ -L1 env",
    "xargs -I{} -l sh -c 'echo {}'",
    "find . -name '[^x]*' -exec chmod 700 {} \\;",
    "find . -name 'to-mai[n]' -exec chmod 700 {} \\;",
    "find . -name 'to-main' -exec chmod 700 {} \\;",
    "find . -iname 'TO-MAIN' -exec chmod 700 {} \\;",
    "find . -name 'x*' -exec chmod 700 {} \\;",
    "find . -printf -name -true -exec chmod 700 {} \\;",
    "find . -fprintf /dev/null -name -true -exec chmod 700 {} \\;",
    "find . -fprintf /dev/null -exec chmod 700 {} \\;",
    "find . -printf -type -true -exec chmod 700 {} \\;",
    "find . -printf x -type f -exec chmod 700 {} \\;",
    "find . -maxdepth 1 -type f -exec chmod 700 {} \\;",
    "find . -newermt 2020-01-01 -name x -exec chmod 700 {} \\;",
    "find . -newerm x -name x -exec chmod 700 {} \\;",
    "find . \\( -name x \\) -exec chmod 700 {} \\;",
    "find . -samefile x -exec chmod 700 {} \\;",
    "find . -name x -a -type f -exec chmod 700 {} \\;",
    "find . -name",
    "find . -fprintf x",
    # stop 35: rules/cd's start directories (env -C, sudo -D, unshare -w, tmux -c/-d and none), shell/runners' verb_chdir
    "env -C {MAIN} make",
    "env -C to-main make",
    'env -C "$X" make',
    "env -C src make",
    "env -C {BASE} make",
    "env -C {MAIN} -S 'make all'",
    "sudo -D {MAIN} make",
    "sudo -D src make",
    "unshare -w {MAIN} make",
    "tmux popup -c /dev/pts/2 -E 'git reset --hard'",
    "tmux popup -d src -E 'touch x'",
    "tmux popup -d {MAIN} -E ls",
    "tmux neww -d -c nosuchdir 'git reset --hard'",
    "tmux neww -d -c src make",
    "tmux neww -d make",
    "tmux new -d 'make test'",
    "tmux new -d -c {MAIN} make",
    "find . -execdir make \\;",
    # stop 35, review 35b: _start_directory (the last value of one spelling, two spellings unknown), _chdir (links before
    # `..`), env -S beside -C, a literal dash before the environment's value, xargs' -n as strtol reads it, find's
    # action words anywhere, bracket classes anywhere
    "env -C src --chdir=.. make",
    "env -C src -C .. make",
    "env -C to-main/.. make",
    "env -C to-main/.git/.. ls",
    "env -C src -S '-C .. make'",
    "env -C src -S 'make all'",
    "env -S '-C src make'",
    "sudo -D src --chdir=.. make",
    "sudo --chd={MAIN} make",
    "unshare -w src --wd=.. make",
    'env -C"$OLDPWD" make',
    'env --chdir="$OLDPWD" make',
    'env "$OLDPWD" make',
    "'env' '-C'\"$OLDPWD\" make",
    "xargs -IQ -n +1 sh -c Q",
    "xargs -IQ -n ' +1' sh -c Q",
    "xargs -IQ -n -1 sh -c Q",
    "xargs -IQ -n x sh -c Q",
    "xargs -IQ -n '1 ' sh -c Q",
    "find . -maxdepth 0 -printf -exec -exec sh -c 'cd {MAIN} && make' \\;",
    "find . -exec echo {} \\; -exec sh -c 'cd {MAIN} && make' \\;",
    "find . -name '*.[ch]' -exec chmod 700 {} \\;",
    "find . -name 'to-mai[!x]' -exec chmod 700 {} \\;",
    "find . -name 'to-mai[]n]' -exec chmod 700 {} \\;",
    "find . -name 'to-mai[x[:alpha:]]' -exec chmod 700 {} \\;",
    "find . -name 'to-mai[[=n=]]' -exec chmod 700 {} \\;",
    "find . -name 'to-mai[[.n.]]' -exec chmod 700 {} \\;",
    "tmux neww -d -c '#H' 'touch p'",
    "tmux neww -d -c 'a#b' 'touch p'",
    # stop 35, review 35b, 8: shell/programs' _cp (a link copied as a link)
    "cp -P to-main d3",
    "cp -r to-ssl d3",
    "cp -rL to-main d3",
    "cp -aL to-main d3",
    "cp -t src -P to-main",
    "cp -P src d3",
    "cp -d to-main",
    # stop 35, review 35c: _spells (a literal option before the environment's value), env -S's inner -C in a cluster or
    # by prefix, cp's long options by prefix, a copied link to a system file
    "env -C src -S '-vC.. make'",
    "env -C src -S '--c=.. make'",
    'env \\-C"$OLDPWD" make',
    'env \\-\\-chdir="$OLDPWD" make',
    'env $\'-C\'"$OLDPWD" make',
    'env -u"$VAR" make',
    'nice -n"$NICE" make',
    'timeout -k"$K" 60 make',
    'stdbuf -o"$MODE" make',
    'cp --no-d to-main d3',
    'cp --arch to-main d3',
    'cp --recur to-main d3',
    'cp -a to-ssl d5',
    # phase 21: _find_tests' -fprintf (its file and format, before and after -name, last before the action), a test's
    # argument read after it (-name's pattern with a test after it); _named's `\\` and `[[` (fnmatch reads them otherwise);
    # _literal_dash's double quotes before the environment's value
    "find . -fprintf /dev/null '%p' -name 'x*' -exec chmod 700 {} \\;",
    "find . -name 'x*' -fprintf /dev/null '%p' -exec chmod 700 {} \\;",
    "find . -name 'to-m*' -type l -exec chmod 700 {} \\;",
    "find . -name 'to\\-main' -exec chmod 700 {} \\;",
    "find . -name '[[a]o-main' -exec chmod 700 {} \\;",
    'env "-C""$OLDPWD" make',
    "env -C src -S 'make -C sub'",
    'cp --re to-main d3',
    'cp -aL to-ssl d5',
    # phase 22 (m37a): _named's `[=` and `[.` in a bracket no `[[` starts (`[x[=n=]]`: fnmatch reads `[x[=n=]` as one
    # bracket, find an equivalence class that matches `n`: the link to main is found); _literal_dash's `$'…'` before the
    # environment's value (a word `inherited` reads: its `\$X` is counted as the `$` of `$'`); a false deny pinned as the
    # code reads it (docs/testing.md, phase 22 A: bash's word is `$-C…`, no option)
    "find . -name 'to-mai[x[=n=]]' -exec chmod 700 {} \\;",
    "find . -name 'to-mai[x[.n.]]' -exec chmod 700 {} \\;",
    'env $\'-C\'"$OLDPWD"\'\\$X\' make',
    "env \\$'-C'\"$OLDPWD\" make",
    # phase 22 (m37a): _xargs_replace_dropped: a -I or -i after -L keeps the replace string, -r drops nothing, a -n only
    # known at run time reads both ways (a word after the replace string: the input appended stands there)
    "xargs -L1 -IQ touch Q x",
    "xargs -L1 -i touch {} x",
    "xargs -IQ -r touch Q x",
    'xargs -IQ -n "$N" touch Q x',
    # phase 22 (m37a): worktree_guard_shell_command: runuser -u/--user given a word only known at run time after the
    # command's name (getopt permutes: it may be one of runuser's options)
    'runuser -u nobody ls "$X"',
    'runuser --user nobody ls "$X"',
    # phase 22 (m37a): worktree_guard_shell_command: su's and runuser's -s/--shell, each alone: a program that is no shell
    # (its code option runs it), one only known at run time, a shell outside the system's directories
    "su -s /usr/bin/python3 root -c 'print(1)'",
    "su --shell /usr/bin/python3 root -c 'print(1)'",
    "runuser -s /usr/bin/python3 nobody -c 'print(1)'",
    'su -s "$S" root -c ls',
    "su -s /opt/bash root -c ls",
    # phase 22 (m37b): _runuser_argv (a lone `-` after runuser -u's options, which runuser reads as --login and refuses
    # beside -u; `--` after the program: the words after it are its own, -c among them; every operand kept in order),
    # _starts_a_shell_reading_input (newgrp given a word only known at run time first), _tmux_commands and
    # _xargs_values (options and no command)
    "runuser -u nobody - rm -f {MAIN}/x",
    "runuser -u nobody sh -- -c 'rm -f {MAIN}/x'",
    "runuser -u nobody rm {MAIN}/a {MAIN}/b",
    'newgrp "$(id -gn)" x y',
    "tmux -L sock",
    "xargs -0 --no-run-if-empty",
    # phase 22 (m37b): _env (a lone `-` is -i, then the command; --split-string spelled out; an -S string env reads
    # otherwise is not walked; -C inside -S in double or single quotes; the words after -S's string joined by spaces)
    "env - bash -c 'rm -f {MAIN}/x'",
    "env --split-string='rm -f {MAIN}/x'",
    "env -S 'rm -f {MAIN}/x #'",
    "env -C src -S '\"-C..\" make'",
    "env -C src -S \"'-C..' make\"",
    "env -S 'rm -f' {MAIN}/x {MAIN}/y",
    # phase 22 (m37b): _tmux_environment (a tmux command only known at run time: the message says so)
    'tmux "$(echo neww)" ls',
    # phase 22 (m37b): _wrapper_options (runuser's --user spelled out: its argv, `--` and all)
    "runuser --user nobody -- rm -f {MAIN}/x",
    # su given two operands before `--`: the second is a script the shell runs, not the `-c` after `--`
    "su root ./evil.sh -- -c true",
    # phase 22 (m37b): _xargs (one replace string keeps the word's other text; two different ones make it unknown)
    "xargs -I{} rm {MAIN}/{}",
    "xargs -ix -IQ rm {MAIN}/Q",
    # phase 23 (m38a): _execdir_plain (an -execdir argument that names a place of its own: `.`, `..`, a quoted `~`; one
    # that does not: an absolute path, `-X` (no blank), `v1..v2` and `VAR=x=..` (`..` inside a word, not after the first
    # `=`), a long option `--..d` (no attached value))
    "find src -maxdepth 0 -execdir python3 {W}/run.py \\;",
    "find . -name '*.py' -execdir python3 -X utf8 {} \\;",
    "find . -name '*.md' -execdir git diff v1..v2 -- {} \\;",
    "find src -maxdepth 0 -execdir python3 run3.py --..d \\;",
    "find src -maxdepth 0 -execdir make VAR=x=.. \\;",
    "find src -maxdepth 0 -execdir grep -r foo . \\;",
    "find src -maxdepth 0 -execdir ls .. \\;",
    "find src -maxdepth 0 -execdir make -C '~' \\;",
    # phase 23 (m38a): _find_exec (-execdir from W's directories: a starting point's directory is read without its
    # trailing `/` (`{W}/` runs in W's parent) and only `/` is stripped; the first argument is read too; `+` ends an
    # action (what follows is find's); an operator after the first action leaves every link escaping W found)
    "find {W}/ -maxdepth 0 -execdir make \\;",
    "find {W}/X -maxdepth 0 -execdir make \\;",
    "find . -name '*.py' -exec black {} + -newer {MAIN}/stamp",
    "find . -name x -exec true \\; -o -exec chmod 700 {} \\;",
    "find . -name x -exec true \\; -or -exec chmod 700 {} \\;",
    "find . -name x -exec true \\; , -exec chmod 700 {} \\;",
    "find . -name x -exec true \\; ! -name y -exec chmod 700 {} \\;",
    "find . -name x -exec true \\; -not -name y -exec chmod 700 {} \\;",
    # -ok and -okdir are actions: the -name test before one narrows the links it reaches (none is named y)
    "find . -name y -ok chmod 700 {} \\;",
    "find . -name y -okdir chmod 700 {} \\;",
    # phase 23 (m38a): _wrapped (runuser -u's command runs in the cwd and is run by runuser (a builtin's name is a
    # program there); its words only known at run time or a wrapper with no command: the wrapper's words are its own)
    "runuser -u nobody -- rm -f x",
    "BASH_ENV=./evil.sh runuser -u nobody -- true",
    'runuser -u nobody "$X" {MAIN}/x',
    "sudo -D {MAIN}",
    # sudo's NAME=value words: the name ends at the first `=`; `command`/`builtin` run their command in this shell
    "sudo BASH_ENV=./a=b bash -c ls",
    "command cd {MAIN} && rm -f README.md",
    # a permuting wrapper's operand after its code option is its own (script's log file); -u is runuser's alone (sudo -u
    # takes NAME=value words before its command)
    "script -c ls {MAIN}/log",
    "sudo -u root FOO=1 rm -f {MAIN}/x",
    # runuser without -u (su-like) given only a user: the inner argv read from the user on keeps runuser's own options
    # after it (getopt permutes them), so `-w {MAIN}/x` is read as an operand of a program `nobody`: WG406 beside the
    # WG404 that refuses the command (a misreading on the safe side, pinned as the code reads it; phase 23 (m38a))
    "runuser nobody -w {MAIN}/x",
    # phase 23 (m38a): _unseen_file (a file below /dev that is not there: still a device path, read as unseen)
    "bash /dev/shm/wg-m38a-none.sh",
    # phase 23 (m38a): _xargs (phase 22's survivors: -l takes the rest of its cluster as its value; the words before the
    # command are xargs' own in each reading; the replace reading runs in the cwd, by xargs; a -n only known at run time
    # keeps both readings)
    "xargs -lIQ rm {MAIN}/Q",
    "xargs rm -f {MAIN}/x",
    "xargs -IQ -L1 rm -f {MAIN}/Q",
    'xargs -IQ -n "$N" touch {MAIN}/Q',
    "echo x | xargs -I{} cp {} out.txt",
    "BASH_ENV=./evil.sh xargs -I{} true {}",
    # phase 24 (m39b): _link_names and _plain_names (stop 38: an -execdir argument naming a link that leaves W below
    # the starting point or in its own directory, to-main and to-ssl beside src here, is read from a directory the
    # guard cannot name): attached after a short option, after a single one (no other argument), after `=` in a long
    # option; the starting point's directory is read without a trailing `/` (`src/` is in W) and is `src` for `src/X`
    # (none there); each starting point's links count (`.` holds them, `src/X` none)
    "find src -maxdepth 0 -execdir make -Cto-main \\;",
    "find src/ -maxdepth 0 -execdir make -Cto-main \\;",
    "find src/X -maxdepth 0 -execdir make -Cto-main \\;",
    "find . src/X -maxdepth 0 -execdir make -C to-main \\;",
    "find src -maxdepth 0 -execdir make --directory=to-main \\;",
    "find src -maxdepth 0 -execdir make -C to-ssl \\;",
    # ... and names that are none: a long option (no attached value), a word that is no option (`into-main`), a
    # cluster read from its third character (`-to-main` is -t -o -main), W's .git (no link)
    "find src -maxdepth 0 -execdir python3 run3.py --to-main \\;",
    "find src -maxdepth 0 -execdir make into-main \\;",
    "find src -maxdepth 0 -execdir make -to-main \\;",
    "find src -maxdepth 0 -execdir make -C .git \\;",
    # what follows any `=` is a name (phase 24, m39b: `--define=DIR=to-main` was read after the first `=` only, and a
    # program that reads DIR=PATH wrote main through the link)
    "find src -maxdepth 0 -execdir python3 run3.py --define=DIR=to-main \\;",
    # phase 24 (m39b): _execdir_plain (`..` attached after one option character that is no letter; after a lowercase
    # cluster; `.` and `..` alone, given to a program that is no data reader since stop 38's `ls ..`/`grep -r foo .`)
    "find src -maxdepth 0 -execdir python3 run3.py -1.. \\;",
    "find src -maxdepth 0 -execdir python3 run3.py -qd.. \\;",
    "find src -maxdepth 0 -execdir make -C . \\;",
    "find src -maxdepth 0 -execdir make -C .. \\;",
    # ... and `..` after a letter in a word that is no short option is no attached value (`main..feature`, a git range)
    "find src -maxdepth 0 -execdir git diff main..feature \\;",
    # phase 24 (m39b): worktree_guard_shell_command 560 (the `runuser -u` check is for runuser -u only: `--help` runs
    # nothing, whatever the word after it)
    'runuser --help "$X"',
    # phase 26 (m41b): _read_otherwise and _dollar_quote (stop 40, reviews 40a-d): dash, ash and sh read `$'…'` and
    # `$"…"` as a `$` and a quote (dash 0.5.12: `dash -c 'echo $"x"'` prints `$x`, bash `x`), in the string and in
    # the input; code that eval or trap reads again holding a `$` or a backslash may become one (a false deny, WG404),
    # eval with neither is read as written; bash has `$"…"` and is not refused for it
    "dash -c 'echo $\"x\"'",
    "ash -c 'echo $\"x\"'",
    "sh -c 'echo $\"x\"'",
    "bash -c 'echo $\"x\"'",
    "sh <<< 'echo $\"x\"'",
    "sh -s <<< 'echo $\"x\"'",
    "sh -c 'eval echo $HOME'",
    "sh -c 'eval echo a\\;b'",
    "sh -c 'eval echo ab'",
    "sh -c 'echo a\\;b $HOME'",
]

_PM = None


def plugins():
    global _PM
    if _PM is None:
        from worktree_guard.plugins import plugin_manager

        _PM = plugin_manager()
    return _PM


def reading(repo, command: str) -> dict:
    """What the guard decides for `command` run in W: every code, the indirection rule's records, the others' paths."""
    from tests.helpers import subagent_payload
    from worktree_guard.engine import build_context, decide
    from worktree_guard.runtimes.claude_code import to_tool_call

    names = (("{W}", repo.worktree), ("{SIB}", repo.sibling), ("{OUT}", repo.outside), ("{MAIN}", repo.main), ("{BASE}", repo.base))

    def unfill(text: str) -> str:
        for name, path in names:
            text = text.replace(str(path), name)
        return text

    filled = command
    for name, path in reversed(names):
        filled = filled.replace(name, str(path))
    call = to_tool_call(subagent_payload(repo, "Bash", {"command": filled, "description": "test"}))
    ctx = build_context(call, pm=plugins())
    try:
        verdict = decide(call, ctx)
    except Exception as error:  # the hook refuses such a call (WG000); phase 18 found one: `zsh -H <<< …`
        return {"raises": type(error).__name__}
    records = [rule_record(v, unfill, filled) for v in verdict.violations if v.rule == "indirection"]
    others = [[v.rule, v.code, unfill(str(v.path)) if v.path else None, span_of(v, filled)] for v in verdict.violations if v.rule != "indirection"]
    out: dict = {"codes": sorted({v.code for v in verdict.violations})}
    if records:
        out["indirection"] = records
    if others:
        out["others"] = others
    return out


def all_commands(saved: dict | None) -> dict[str, list[str]]:
    harvested = list((saved or {}).get("harvested", {}))
    return {"harvested": harvested, "rows": list(dict.fromkeys(ROWS))}


def readings(repo, commands: dict[str, list[str]]) -> dict:
    with world_environment(OUTSIDE_HOME):
        return {part: {c: reading(repo, c) for c in rows} for part, rows in commands.items()}


def test_every_reading_of_the_indirection_rule(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", OUTSIDE_HOME)
    monkeypatch.delenv("TMPDIR", raising=False)
    monkeypatch.delenv("CDPATH", raising=False)
    saved = json.loads(READINGS.read_text())
    commands = all_commands(saved)
    assert set(commands["rows"]) == set(saved["rows"]), "rows and readings differ: run with --write"
    repo = make_world(tmp_path)
    # ROWS first, the newest first: most mutants only they tell apart, and a screening stops at the first difference
    # (phase 21)
    for part, rows in sorted(commands.items(), key=lambda item: item[0] != "rows"):
        for command in reversed(rows) if part == "rows" else rows:
            assert reading(repo, command) == saved[part][command], command


if __name__ == "__main__" and sys.argv[1:2] == ["--write"]:
    saved = json.loads(READINGS.read_text()) if READINGS.exists() else {}
    if sys.argv[2:]:
        saved["harvested"] = dict.fromkeys(json.loads(Path(sys.argv[2]).read_text()))
    write_readings(READINGS, make_world, lambda repo: readings(repo, all_commands(saved)), parts=True)
