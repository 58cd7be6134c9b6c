"""Code in a program's own language and in its options (shell/embedded.py), pinned for mutation testing (issue 13,
phase 16).

Each row builds the step the walker would hand the rules for one command (as `tests/test_program_code_mutants.py`
does) and compares, whole, what `embedded_code` finds: every written target with all its fields, every command
string with its offset, every reason for code that cannot be read, in order; and what `embedded_writes` gives
the write table, when it differs from the targets (the programs whose code writes nothing for it: vim, tar…).
The readings are `tests/shell/embedded_readings.json`; `python -m tests.shell.test_embedded_mutants --write`
rewrites it from the code as it is (a changed reading is then a diff to read).

The rows are the commands of the other tests that run one of these programs, and the shapes mutation testing found
unpinned: each option form (`-eX`, `-e X`, `--expression=X`, a cluster, a prefix of a long option), each sed
command and address, each awk token that ends a print or starts a command, each ed verb, and the script files
`sed -f` and `awk -f` read at check time (`FILE_ROWS`, in a directory of their own).

The readings pin what the code does, right or wrong. The rows under `# -- fail-opens` pin the fail-opens found in
phase 16 and reported, not fixed (docs/testing.md, "Phase 16 (issue 13): shell/embedded"): a fix changes their
readings, which is then the diff to read.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from worktree_guard.shell.embedded import MAX_AWK_INCLUDES, MAX_SCRIPT_FILE, embedded_code, embedded_writes
from worktree_guard.shell.parse import parse
from worktree_guard.shell.state import UNLISTED, ShellState
from worktree_guard.shell.steps import ShellCommand

READINGS = Path(__file__).with_name("embedded_readings.json")


def step(source: str, cwd: str | None = "/w", variables: dict | None = None, written: list | None = None, options: set | None = None) -> ShellCommand:
    """The last simple command of `source` as the walker builds it (`: ; ed …` puts the command at an offset)."""
    node = parse(source).body[0]
    node = getattr(node, "parts", [node])[-1]
    state = ShellState(cwd=cwd, variables=dict(variables or {}), written=list(written or []), options=set(options or ()))
    return ShellCommand(node=node, words=node.words, assignments=list(node.assignments), cwd=cwd, state=state, home="/h")


def _target(t) -> list:
    fields = [t.value, t.how]
    extra = [t.word, t.recursive, t.kind, t.base, t.follows_links]
    return ["w", *fields] if extra == [None, False, "write", None, False] else ["w", *fields, *[str(e) for e in extra]]


def reading_of(command: ShellCommand) -> list:
    """Everything embedded finds for one command, as JSON would hold it."""
    found = embedded_code(command)
    out = [_target(t) for t in found.writes]
    out += [["c", code, offset] for code, offset in found.commands]
    out += [["o", reason] for reason in found.opaque]
    hooked = [_target(t) for t in embedded_writes(command)]
    if hooked != out[: len(found.writes)]:
        out.append(["writes for the table", hooked])
    return out


Q = '"'
ROWS: list[str] = [
    # -- not one of these programs, or no name known
    "cat 'w x'", "echo 'BEGIN{system(\"c\")}'", "$X 'w x' f",
    # -- sed: how the script is given
    "sed 's/a/b/w out' f", "sed -n 'w out' f", "gsed -n 'w out' f", "sed -e 'w out' f", "sed -e'w out' f", "sed '-ew out' f",
    "sed --expression 'w out' f", "sed --expression='w out' f", "sed --expression=w\\ out f", "sed -ew\\ out f",
    "sed -e 's/a/b/' -e 'w /m/x' README.md", "sed -e p 'w out' f", "sed p 'w out'", "sed -n -e p -e 'w out'",
    "sed -e", "sed -n -e", "sed --expression", "sed -f", "sed", "sed -n", "sed -s -n 'w out' f", "sed -E 'w out' f",
    "sed -i 's/x/y/w out' f", "sed -i.bak 'w out' f", "sed --in-place=.bak 'w out' f", "sed -l 5 'w out' f",
    "sed -l5 'w out' f", "sed --line-length 5 'w out' f", "sed --line-length=5 'w out' f", "sed -l 'w out' f",
    "sed -- 'w out' f", "sed -n -- 'w out' f", "sed -e 'w a' -- 'w out' f", "sed --sandbox 'w out' f",
    "sed -n --sandbox -e 'e c' f", "sed -e 'w a' --sandbox f", "sed --debug 'w out' f", "sed -z 'w out' f",
    "sed -ne 'w out' f", "sed -nf s f", "sed -en p f", "sed - 'w out' f", "sed -- -n 'w out'",
    # words only known at run time
    "sed \"$(c)\" f", "sed -n \"$(c)\" f", "sed -e p \"$(c)\" f", "sed -$(c) 'w out' f", "sed -e \"$(c)\" f",
    "sed -e\"$(c)\" f", "sed --expression=\"$(c)\" f", "sed -f \"$(c)\" f", "sed -- \"$(c)\" f", "sed \"$(c)\" \"$(d)\" f",
    "sed 'w out' \"$(c)\"", "sed \"$HOME\" f", "sed -e p \"$HOME\" f", "sed -e p \"$HOME\"/*.md", "sed $'w out' f",
    "sed \"w $(c)\" f", "sed 's/a/b/' \"$(c)\" 'w out'",
    # -- sed: its commands
    "sed 'w /m/x' README.md", "sed 'W out' f", "sed 'w' f", "sed 'w ' f", "sed 'W' f", "sed 'ww' f", "sed 'w out\nw two' f",
    "sed '1w out' f", "sed '$w out' f", "sed '1,3w out' f", "sed '1, 3w out' f", "sed '1,\t3w out' f", "sed '1~2w out' f",
    "sed '0~3w out' f", "sed '2,~4w out' f", "sed '2,+4w out' f", "sed '+4w out' f", "sed '~4w out' f", "sed '1,+w out' f",
    "sed '/a/w out' f", "sed '/a/Iw out' f", "sed '/a/Mw out' f", "sed '/a/IMw out' f", "sed '\\%a%w out' f",
    "sed '\\%a/%w out' f", "sed '/a\\/b/w out' f", "sed '/a/,/b/w out' f", "sed '/a/,$w out' f", "sed '/a/ !w out' f",
    "sed '1!w out' f", "sed '1 ! w out' f", "sed '/a' f", "sed '/a\nw x/w out' f", "sed '\\' f", "sed '1,' f",
    "sed '$!N;w out' f", "sed '1{w out\n}' f", "sed '{;w out\n}' f", "sed '1{\nw out\n}' f", "sed 'p;p;w out' f",
    "sed '# w x\nw out' f", "sed '#n\nw out' f", "sed ' \t;w out' f",
    "sed '1e touch x' f", "sed 'e touch x' f", "sed -n 'e touch x' f", "sed 'e  touch x  ' f", "sed 'e' f",
    "sed 'e\np' f", "sed '1e touch x\nw out' f", "sed 'e\ne c' f", "sed '1e' f", "sed -n '$e c' f",
    "sed 's/a/b/' f", "sed 's/a/b/gw out' f", "sed 's/a/b/2pw out' f", "sed 's/a/b/e' f",
    "sed 's/a/b/ge' f", "sed 's/a/b/ee' f", "sed 's/a/b/IiMm3e' f", "sed 's/a/b/w' f", "sed 's/a/b/ w out' f",
    "sed 's|a/b|c|w out' f", "sed 's/a\\/b/c/w out' f", "sed 's/a/b\\\nc/w out' f", "sed 's/a/b' f", "sed 's/a\n/b/w x' f",
    "sed 's\nab\nw x' f", "sed 's\\a\\b\\w x' f", "sed 's' f", "sed 's/a/b/;s/c/d/e' f", "sed 's/a/b/e;s/c/d/e' f",
    "sed 's/a/b/w out;p' f", "sed 's/a/b/gx' f", "sed 's/a/b/gxw out' f",
    "sed 'y/ab/cd/;w out' f", "sed 'y/ab/cd' f", "sed 'y/a/b/w x' f", "sed 'y' f",
    "sed 'a text w x' f", "sed 'a\\\ntext\nw out' f", "sed 'a\\\nline\\\nw x\nw out' f", "sed 'i\\\nw x' f",
    "sed 'c\\\nw x\\' f", "sed '1a w x' f", "sed 'a\\' f", "sed 'a' f",
    "sed ':a;w out' f", "sed ':a\nw out' f", "sed 'b;w out' f", "sed 'ba;w out' f", "sed 't x;w out' f", "sed 'Tx\nw out' f",
    "sed 'b end w x' f",
    "sed 'r w;w out' f", "sed 'r x\nw out' f", "sed 'R w\nw out' f", "sed 'r' f",
    "sed 'l;w out' f", "sed 'l 5;w out' f", "sed 'q5\nw out' f", "sed 'Q 1;w out' f", "sed 'L;w out' f", "sed 'v;w out' f",
    "sed 'l 5 w out' f", "sed 'q\tw out' f",
    "sed '=;d;D;g;G;h;H;n;N;p;P;x;z;F;w out' f", "sed 'dw out' f",
    "sed 'k' f", "sed 'k;w out' f", "sed 'k;e' f", "sed 'kW' f", "sed 'k;s/a/b/' f", "sed '1,3k' f", "sed '@e c' f",
    "sed 'se' f", "sed 'sW' f", "sed 'sw' f",
    "sed -n '/hello/w matched.txt' README.md", "sed -n '1s/.*/touch /m\\/sed-se.txt/ep' README.md",
    "sed -e :a -e '$!N;s/\\n//;ta' README.md", "sed -f /dev/fd/3 README.md 3<<< '1e touch /m/p'", "sed -f //dev/stdin",
    "sed -f /proc/self/fd/0 f", "sed -f /dev/null f", "sed -f /tmp/../dev/null f", "sed -f /nonexistent/s.sed f",
    # -- awk: how the program is given
    "awk '{print > \"f\"}' x", "gawk '{print > \"f\"}' x", "mawk 'BEGIN{system(\"c\")}'", "awk -F, '{print > \"f\"}' x",
    "awk -F , '{print > \"f\"}' x", "awk --field-separator=, '{print > \"f\"}' x", "awk --field-separator , '{print > \"f\"}'",
    "awk -v x=1 '{print > \"f\"}' x", "awk -vx=1 '{print > \"f\"}' x", "awk --assign=x=1 '{print > \"f\"}'",
    "awk --assign x=1 '{print > \"f\"}'", "awk -e '{print > \"f\"}' x", "awk -e'{print > \"f\"}' x",
    "awk --source='{print > \"f\"}' x", "awk --source '{print > \"f\"}' x", "awk -e 'BEGIN{}' -e '{print > \"f\"}'",
    "awk -e 'BEGIN{}' '{print > \"f\"}'", "awk -n '{print > \"f\"}' x", "awk --posix '{print > \"f\"}' x",
    "awk -- '{print > \"f\"}' x", "awk -F, -- '{print > \"f\"}' x", "awk --", "awk -- \"$(c)\" x", "awk -e p -- 'x'",
    "awk -i inc '{print > \"f\"}'", "awk -l lib '{print > \"f\"}'", "awk -W lint '{print > \"f\"}'", "awk -Wlint '{print > \"f\"}'",
    "awk -E '{print > \"f\"}'", "awk --exec '{print > \"f\"}'", "awk -f", "awk -F", "awk -e", "awk -f \"$(c)\" x",
    "awk -e \"$(c)\" x", "awk -e\"$(c)\" x", "awk --source=\"$(c)\" x", "awk \"$(c)\" x", "awk -F, \"$(c)\" x",
    "awk -$(c) '{print > \"f\"}' x", "awk '{print > \"f\"}' \"$(c)\"", "awk -e p \"$(c)\"", "awk - '{print > \"f\"}'",
    "awk", "awk -F, 'NR>1{s+=$2} END{print s / NR}' data.csv", "busybox-awk -F: '{print $1}' /m/README.md",
    "awk -f /dev/stdin <<< 'BEGIN{system(\"touch /m/p\")}'", "awk -f /nonexistent/p.awk x", "awk --file=/dev/null x",
    "awk -f/dev/null x", "awk -f /dev/null '{print > \"f\"}'", "awk -E /dev/null x", "awk --exec /dev/null x",
    # -- awk: its program
    "awk 'BEGIN { system(\"date\") }'", "awk 'BEGIN{system(\"touch /m/x\")}'", "awk '{system($0)}' x", "awk '{system(\"a\" $1)}'",
    "awk '{system (\"a\")}'", "awk '{system(\"a\"}'", "awk '{x = system}'", "awk 'system'", "awk '{system(\"a\")}{system(\"b\")}'",
    "awk 'BEGIN{\"touch /m/x\" | getline}'", "awk 'BEGIN{\"c\" | getline x}'", "awk '\"c\" | getline'", "awk '{print; \"c\" | getline}'",
    "awk '{x = \"c\" | getline}'", "awk '{if (\"c\" | getline > 0) n++}'", "awk '{f(1, \"c\" | getline)}'", "awk '{y x \"c\" | getline}'",
    "awk '{ok && \"c\" | getline}'", "awk '{ok || \"c\" | getline}'", "awk '{! \"c\" | getline}'", "awk '{1 + \"c\" | getline}'",
    "awk '{cmd | getline}'", "awk '| getline'", "awk '{$0 | getline}'", "awk '{\"a\" \"c\" | getline}'", "awk 'END{\"c\" |& getline}'",
    "awk '{print | \"sort\"}'", "awk '{print |& \"sort\"}'", "awk '{print | cmd}'", "awk '{print |'", "awk '{a || b}'",
    "awk '{print > \"f\"}'", "awk '{print >> \"f\"}'", "awk '{print > f}'", "awk '{print > $2}'", "awk '{printf \"%s\", $0 > \"f\"}'",
    "awk '{print $1, $2 > \"f\"}'", "awk '{print (1 > 2)}'", "awk '{print a[1 > 2] > \"f\"}'", "awk '{print (a) > \"f\"}'",
    "awk '{if ($1 > 2) print $0 > \"out.txt\"}'", "awk '{x = 1 > 2}'", "awk '{print; x > \"f\"}'", "awk '{print\nx > \"f\"}'",
    "awk '{print} {x > \"f\"}'", "awk '{print}; 1 > \"f\"'", "awk '{print >= \"f\"}'", "awk '{print > \"a\" > \"b\"}'",
    "awk '{print >'", "awk '{print (a > \"f\")}'", "awk '{printf(\"%s\", 1) > \"f\"}'", "awk 'BEGIN{print 1 > \"README.md\"}'",
    "awk '{print((1)) > \"f\"}'", "awk '{print [1] > \"f\"}'", "awk '{print ] > \"f\"}'", "awk '{print ) > \"f\"}'",
    # awk strings and their escapes
    "awk 'BEGIN{system(\"a\\nb\\tc\\\\d\\\"e\\/f\\rg\\ah\\bi\\fj\\vk\\ql\\.m\")}'", "awk 'BEGIN{system(\"\")}'",
    "awk '{print > \"a\\\"b\"}'", "awk '{print > \"a\\tb\"}'", "awk '{print > \"a\\zb\"}'",
    # awk regexes, divisions and comments
    "awk '/w/{print > \"f\"}'", "awk '/a\\/b/{system(\"c\")}'", "awk '/[/]/{system(\"c\")}'", "awk '/[]/]/{system(\"c\")}'",
    "awk '/[/{system(\"c\")}'", "awk '/a\n{system(\"c\")}'", "awk '$1 ~ /x/ {print > \"f\"}'", "awk '{x = a / b / c; system(\"c\")}'",
    "awk '{x = 1 / 2 / 3; system(\"c\")}'", "awk '{x = \"a\" / 2 / 3; system(\"c\")}'", "awk '{x = (a) / 2 / 3; system(\"c\")}'",
    "awk '{x = a[1] / 2 / 3; system(\"c\")}'", "awk '{x = $ / 2 / 3; system(\"c\")}'", "awk '{x = /a/ / 2 / 3; system(\"c\")}'",
    "awk '{x = i++ / 2 / 3; system(\"c\")}'", "awk '{x = i-- / 2 / 3; system(\"c\")}'", "awk '{x = ! / 2 / 3; system(\"c\")}'",
    "awk '{x = 1.5e3 / 2 / 3; system(\"c\")}'", "awk '{x = .5 / 2 / 3; system(\"c\")}'", "awk '{x = a\n/ 2 / 3; system(\"c\")}'",
    "awk '# system(\"c\")\n{print}'", "awk '{print} # > \"f\"'", "awk '{x = 1 \\\n+ 2; system(\"c\")}'", "awk '{x=1\r; system(\"c\")}'",
    "awk '{print @x}'", "awk '{print @x; system(\"c\")}'", "awk '{print @x > \"f\"}'", "awk '{@ | \"c\"}'", "awk '@getline'",
    "awk '{x = `c`}'", "awk '/x/ {print > \"a\"} @'",
    # -- ed and ex: a heredoc or here-string is their script
    "ed -s f <<'EOF'\nw /m/x\nq\nEOF", "ed -s f <<EOF\nw /m/x\nq\nEOF", "ed -s f <<EOF\nw $x\nEOF", "ed -s f <<EOF\nw `c`\nEOF",
    "ed -s f <<\"EOF\"\nw $x\nEOF", "ed -s f <<-EOF\n\tw x\nEOF", "ed -s f <<< 'w /m/x'", "ed -s f <<< $'w /m/ed.txt\\nq'",
    "ed -s f <<< \"$(c)\"", "ed -s f < script", "ed -s f", "ed f < s <<< 'w x'", "ed f <<< 'w x' <<< 'w y'",
    "ed f 2>/dev/null <<< 'w x'", "red f <<< 'w x'", "ed --version", "ed -V f", "ed --help", "ed -h", "ed -s -h",
    ": ; ed f <<< '!touch x'", ": ; ed f <<< $'w !c\\nr !d'", "ed f <<< $'1a\\nw x\\n.\\nw y'", "ed f <<< $'a\\nw x\\n.\\nw y'",
    "ed f <<< $'i\\nw x\\n.\\nw y'", "ed f <<< $'c\\nw x\\n.\\nw y'", "ed f <<< $'1,$c\\nw x\\n.\\nw y'", "ed f <<< $'ab\\nw y'",
    "ed f <<< $'a1\\nw x\\n.\\nw y'", "ed f <<< $'a\\nw x'", "ed f <<< $'a\\n.\\n.\\nw y'",
    "ed f <<< 'w'", "ed f <<< 'w  '", "ed f <<< 'W x'", "ed f <<< 'wq x'", "ed f <<< 'wa x'", "ed f <<< 'write x'",
    "ed f <<< 'w! x'", "ed f <<< 'w!x'", "ed f <<< 'wx'", "ed f <<< 'r x'", "ed f <<< 'e x'", "ed f <<< 'E x'",
    "ed f <<< 'x x'", "ed f <<< 'sav x'", "ed f <<< 'saveas x'", "ed f <<< 'up x'", "ed f <<< 'update x'",
    "ed f <<< 'r !c'", "ed f <<< 'e !c'", "ed f <<< 'E !c'", "ed f <<< 'w !c'", "ed f <<< 'w ! c'", "ed f <<< 'e'",
    "ed f <<< '1,$w x'", "ed f <<< '1,2w x'", "ed f <<< '.,$w x'", "ed f <<< ';w x'", "ed f <<< '+1w x'", "ed f <<< '-w x'",
    "ed f <<< '^w x'", "ed f <<< \"'aw x\"", "ed f <<< \"'a,'bw x\"", "ed f <<< '/re/w x'", "ed f <<< '/r\\/e/w x'",
    "ed f <<< '?re?w x'", "ed f <<< '?r\\?e?w x'", "ed f <<< '/rew x'", "ed f <<< ':w x'", "ed f <<< ' : w x'",
    "ed f <<< '\tw x'", "ed f <<< 'g/re/w x'", "ed f <<< 'v/re/w x'", "ed f <<< 'G/re/w x'", "ed f <<< 'V/re/w x'",
    "ed f <<< 'g/r\\/e/w x'", "ed f <<< '!c'", "ed f <<< ' !c'", "ed f <<< '1!c'", "ed f <<< '!'",
    "ed f <<< 'call system(1)'", "ed f <<< 'exe x'", "ed f <<< 'execute x'", "ed f <<< 'source x'", "ed f <<< 'so x'",
    "ed f <<< 'py x'", "ed f <<< 'python x'", "ed f <<< 'lua x'", "ed f <<< 'perl x'", "ed f <<< 'ruby x'", "ed f <<< 'pyx x'",
    "ed f <<< 'xsystem x'", "ed f <<< 'd system'", "ed f <<< 'd call this one and that one and another one and more'",
    "ed f <<< $'q\\nw x'", "ed f <<< $'\\nw x'", "ed f <<< 'p'",
    "ex -s f <<< 'w x'", "ex -s f <<< $'w! /m/ex.txt\\nq'", "ex -s -c 'w x' f <<< 'q'", "ex +w f <<< 'q'", "ex -c q f",
    "ex -es f <<< 'w x'", "ex --version <<< 'w x'", "ex -V", "ex \"$(c)\" f <<< q", "ex -$(c) f <<< q",
    # -- vim: its options, and ex mode's script
    "vim -c 'w! /m/x' f", "vim --cmd 'w x' f", "vim -S s.vim f", "vim -s keys f", "vim -w out f", "vim -W out f",
    "vim +'w /m/x' f", "vim +10 f", "vim + f", "vim +/pat f", "vim +1x f", "vim +w f", "vim -- +w f", "vim -c", "vim f",
    "vi -c 'w x' f", "nvim -c 'w x' f", "view -c 'w x' f", "vim.tiny -c 'w x' f", "rview -c 'w! /m/x' f", "nvi -c 'w! /m/x' f",
    "vim \"$(c)\" f", "vim -$(c) f", "vim +$(c) f", "vim \"+$(c)\" f", "vim -c \"$(c)\" f", "vim -u \"$(c)\" f", "vim f \"$(c)\"",
    "vim -e f", "vim -E f", "vim -es f", "vim -Es f", "vim -e -s f", "vim -se f", "vim -s f", "vim -es f <<< 'w x'",
    "vim -e -s f <<< 'w x'", "vim -Es f <<< $'w x\\n!c'", "vim -es f <<EOF\nw x\nEOF", "vim -es -c 'w y' f <<< 'w x'",
    "vim -en f <<< 'w x'", "vim -esn f <<< 'w x'", "vim -esX f <<< 'w x'", "vim -esZ f <<< 'w x'", "vim -esN f <<< 'w x'",
    "vim -esq f <<< 'w x'", "vim -e -c 'w y' f", "vim -e +w f", "vim --e -s f <<< 'w x'", "vim -b -s f <<< 'w x'",
    "vim -e f <<< 'w x'", "vim -es -s f <<< 'w x'", "vim -ves f <<< 'w x'", "vim -es \"$(c)\" f <<< 'w x'",
    "vim.tiny -es -c 'w! /m/x' -c q README.md", "vim -es -c 'w! /m/vim.txt' -c 'q!' README.md",
    # -- tar: options that run a command
    "tar -xf a.tar --to-command='tee /m/x'", "tar -xf a.tar --to-command=cat", "tar -xf a.tar \"--to-command=cat\"",
    "tar -xf a.tar --to-command cat", "tar -xf a.tar --to-command", "tar -xf a.tar --to-command \"$(c)\"",
    "tar -xf a.tar --to-command=\"$(c)\"", "tar -xf a.tar \"$(c)\"", "tar -xf a.tar --to-c=cat", "tar -xf a.tar --to=cat",
    "tar -xf a.tar --t=cat", "tar -xf a.tar --to-commandx=cat", "tar -xf a.tar --to-command-x=cat",
    "tar -cf a.tar --use-compress-program=gzip .", "tar -cf a.tar --use-compress-program gzip .", "tar -cf a.tar --use=gzip .",
    "tar -cf a.tar --use-compress-program=\"$(c)\" .", "tar -cf a.tar --rsh-command=ssh h:a", "tar -cf a.tar --rsh=ssh h:a",
    "tar -cf a.tar --rsh-command ssh h:a", "tar -cf a.tar --rmt-command=x h:a", "tar -cf a.tar --rm=x h:a",
    "tar -cf a.tar --info-script=x .", "tar -cf a.tar --info=x .", "tar -cf a.tar --new-volume-script=x .",
    "tar -cf a.tar --new=x .", "tar -cf a.tar --n=x .", "tar -cf a.tar --in=x .", "tar -cf a.tar --i=x .",
    "tar -I 'touch /m/x; gzip' -cf /tmp/t.tgz .", "tar -I gzip -cf a.tgz .", "tar -cf a.tgz -I gzip .", "tar -cf a.tgz -I",
    "tar -cf a.tgz -I \"$(c)\" .", "tar -cf a.tgz -Igzip .", "tar -cf a.tgz -I'gzip -9' .", "tar -xf a.tar -I'rm -f x'",
    "tar -cIgzip -f a.tgz .", "tar -cvI gzip -f a.tgz .", "tar -cvI", "tar -cvI \"$(c)\" -f a .", "tar -cfI a.tgz .",
    "tar -cf a.tgz -F x .", "tar -cf a.tgz -Fx .", "tar -cf a.tgz -F", "tar -cf a.tgz -MF x .", "tar -C d -xf a.tar -I x",
    "tar -cf -- -I x", "tar -cf a -- -I x", "tar -cf a.tar -- --to-command=x", "tar -cf a.tar -b 20 -I x .",
    "tar -cf a.tar -b20 -I x .", "tar -cbf 20 a.tar -I x .", "tar -cfb a.tar 20 -I x .", "tar -H gnu -cf a -I x",
    "tar xfI a.tar 'rm -f to-main/README.md'", "tar xfC a.tar to-main", "tar czf /tmp/a.tgz .", "tar xIf gzip a.tgz",
    "tar xf \"$(c)\" -I x", "tar xfI \"$(c)\" x", "tar cfI a.tgz \"$(c)\" .", "tar x -I x", "tar xv --to-command=cat",
    "tar -cf /dev/null --checkpoint=1 --checkpoint-action 'exec=rm -f to-main/README.md' README.md",
    "tar -cf /dev/null --checkpoint=1 --checkpoint-ac 'exec=rm -f x' README.md",
    "tar -cf /dev/null README.md --checkpoint=1 --checkpoint-act=exec='rm -f x'",
    "tar -cf a --checkpoint-action=exec=cat .", "tar -cf a \"--checkpoint-action=exec=cat\" .", "tar -cf a --checkpoint-action=echo .",
    "tar -cf a --checkpoint-action=exec= .", "tar -cf a --checkpoint-action echo .", "tar -cf a --checkpoint-action exec= .",
    "tar -cf a --checkpoint-action \"$(c)\" .", "tar -cf a --checkpoint-action", "tar -cf a --checkpoint-action=\"$(c)\" .",
    "tar -cf a --checkpoint-action=\"exec=$(c)\" .", "tar -cf a --checkpoint-action \"exec=$(c)\" .", "tar -cf a --che=exec=x .",
    "tar -cf a --checkpoint=exec=x .", "tar -cf a --checkpoint exec=x .", "tar -cf a --ch=exec=x .", "tar -cf a --c=exec=x .",
    "tar -cf a --checkpoint-action=exec=a --checkpoint-action=exec=b .", "tar -cf a --checkpoint-action=exec=a=b .",
    "tar -cf a --to-command=\"$(c)\" --checkpoint-action=\"$(d)\" --use-compress-program=\"$(e)\" .",
    "tar -cf a \"$(c)\"--to-command .", "tar -cf a --rsh-command=\"$(c)\" .", "tar -cf a --info-script=\"$(c)\" .",
    "tar -cf a --to-command=x \"$HOME\"", "tar -cf a -T \"$(c)\" .", "tar -cf a \"$(c)\" -T x .", "tar -tf /m/a.tar",
    "gtar -xf a.tar --to-command=cat", "bsdtar -xf a.tar --to-command=cat", "tar", "tar --to-command", "tar -I",
    "tar -cf a --ab=x .", "tar -cf a --=x .", "tar -cf a -- .",
    # -- zip, rsync
    "zip -T -TT 'touch /m/x' /tmp/z.zip f", "zip -TT x a.zip f", "zip -TTx a.zip f", "zip -T -TT", "zip -TT \"$(c)\" a.zip f",
    "zip --unzip-command=x a.zip f", "zip --unzip-command x a.zip f", "zip --unzip-command=\"$(c)\" a.zip f",
    "zip -qTT x a.zip f", "zip -b d -TT x a.zip f", "zip -bd -TT x a.zip f", "zip a.zip -- -TT x", "zip -q /m/a.zip README.md",
    "zip -q \"$(c)\" a.zip f", "zip -O \"$(c)\" a.zip f", "zip a.zip f \"$(c)\"",
    "rsync -e 'touch /m/x' a host:b", "rsync -e ssh a h:b", "rsync -essh a h:b", "rsync -avessh a h:b", "rsync -ave ssh a h:b",
    "rsync -av -e ssh a h:b", "rsync --rsh=ssh a h:b", "rsync --rsh ssh a h:b", "rsync --rsh=\"$(c)\" a h:b",
    "rsync -e \"$(c)\" a h:b", "rsync -e", "rsync -ave", "rsync \"$U\" h:a b", "rsync \"$(c)\" h:a b", "rsync -- \"$(c)\" h:a b",
    "rsync -a \"$(c)\"", "rsync --exclude \"$(c)\" a h:b", "rsync --exclude=\"$(c)\" a h:b", "rsync -f \"$(c)\" a h:b",
    "rsync -a src/ /m/src/", "rsync -B 10 -e ssh a h:b", "rsync -T d -e ssh a h:b", "rsync -Td -e ssh a h:b",
    # -- ssh, scp, sftp
    "ssh -o ProxyCommand='touch /m/x' host", "ssh -oProxyCommand=c host", "ssh -o ProxyCommand=c host", "ssh -o 'ProxyCommand c' host",
    "ssh -o ' ProxyCommand = c ' host", "ssh -o 'ProxyCommand=' host", "ssh -o ProxyCommand host", "ssh -o proxycommand=c host",
    "ssh -o PROXYCOMMAND=c host", "ssh -o LocalCommand=c host", "ssh -o KnownHostsCommand=c host", "ssh -o RemoteCommand=c host",
    "ssh -o ProxyJump=c host", "ssh -o 'ProxyCommand=a\nb' host", "ssh -o \"ProxyCommand=c\" host", "ssh \"-oProxyCommand=c\" host",
    "ssh -o \"$(c)\" host", "ssh -o", "ssh -o\"$(c)\" host", "ssh -o 'Match exec \"c\"' host", "ssh -o 'match EXEC c' host",
    "ssh -o 'Match host x' host", "ssh -o 'Match' host", "ssh -o '=c' host", "ssh -o '9=c' host",
    "ssh -o ProxyCommand=a -o LocalCommand=b host", "ssh -p 22 -o ProxyCommand=c host", "ssh -F x -o ProxyCommand=c h",
    "scp -S prog a h:b", "scp -S \"$(c)\" a h:b", "scp -S", "ssh -S sock host", "sftp -S prog h", "scp -o ProxyCommand=c a h:b",
    "sftp -o ProxyCommand=c h", "scp -S prog -o ProxyCommand=c a h:b", "ssh host \"$(c)\"", "ssh \"$(c)\" host", "ssh -p \"$(c)\" host",
    "ssh -- \"$(c)\" host", "ssh host -o ProxyCommand=c", "ssh", "ssh -S", "scp -So a h:b", "ssh -vo ProxyCommand=c host",
    # -- phase 16: rows added for the mutants the first screening left
    "sed -ee f", "sed --expression=p -e 'w out' f", "sed -ep -e 'w out' f", "sed -e 'w a' -e", "sed p -e 'w out' f",
    "gsed 's/a/b/e' f", "sed '/w/' f", "sed 'w x\ns' f", "sed 's/w/\\/' f", "sed '/a\\//w out' f", "sed '\\\na\nw out' f",
    "sed 'sXwXbX' f", "sed 's//b/w out' f", "sed 'w x\n\\' f", "sed '//w out' f", "sed '1,Xw out' f", "sed '1, /x/w out' f",
    "sed 'X;w out' f", "sed '1Xw out' f", "sed 'a one\\\n\nw out' f", "sed 'bX;w out' f", "sed 's/a/b/Xw out' f",
    "sed 's/a/b/wout' f", "sed 'w x\ny' f", "sed 'lX;w out' f",
    "awk -e 'BEGIN{system(\"c\")}' \"$(c)\"", "awk -- '-1{system(\"c\")}' f", "awk -e 'BEGIN{system(\"c\")}'", "gawk '{system($0)}'",
    "awk '{x = a / 2; system(\"c\"); y = 1 / 3}'", "awk '{x = 1 / 2; system(\"c\"); y = 1 / 3}'",
    "awk '{x = \"s\" / 2; system(\"c\"); y = 1 / 3}'", "awk '{x = (a) / 2; system(\"c\"); y = 1 / 3}'",
    "awk '{x = a[1] / 2; system(\"c\"); y = 1 / 3}'", "awk '{x = $/ 2; system(\"c\"); y = 1 / 3}'",
    "awk '{x = /a/ / 2; system(\"c\"); y = 1 / 3}'", "awk '{x = i++ / 2; system(\"c\"); y = 1 / 3}'",
    "awk '{x = i-- / 2; system(\"c\"); y = 1 / 3}'", "awk '{x = a\n/ 2; system(\"c\"); y = 1 / 3}'",
    "awk '{x = a #c\n/ 2; system(\"c\"); y = 1 / 3}'",
    "awk '//{system(\"c\")}'", "awk '{system(\"c\")} /x'", "awk '/\\/{system(\"c\")}/'", "awk '/\\//{system(\"c\")}'",
    "awk '/[/]{system(\"c\")}/'", "awk 'x[1] ~ /[/]/ {system(\"c\")}'", "awk '/[/]/ {a[1]; system(\"c\")}'", "awk 'x[1] ~ /[a/]{system(\"c\")}/'", "awk '/[]/{system(\"c\")}'",
    "awk '/a/system(\"c\")'", "awk '{print 1 {y > \"f\"}}'", "awk '{print 1} y > \"f\"'", "awk 'system(\"c\")'", "awk 'system(\"c\"'",
    "awk '| getline \"c\"'", "awk '\"c\" | getline x + 1'", "awk '1 \"c\" | getline'", "awk '{}\"c\" | getline'",
    "red f <<< 'call x'", "ed f <<< 'Xw x'", "ed f <<< 'wq /m/x'", "ex -s f <<< 'write /m/x'",
    "ed f <<'E'\na\nt\nw x\n.\nw y\nE", "ed f <<'E'\na\n.\nw y\nE", "ed f <<'E'\n\nw x\nE", "ed f <<'E'\nX\nw y\nE",
    "ed f <<'E'\nA\nw y\nE", "ed f <<'E'\nab\nw y\nE", "ed f <<'E'\na1\nw x\n.\nw y\nE", "ed f <<'E'\n!c\nw y\nE",
    "ed f <<'E'\nw x\nw y\nE", "ed f <<'E'\n1a\nw x\n.\nw y\nE", "ed f <<'E'\ni\nw x\n.\nw y\nE", "ed f <<'E'\nc\nw x\n.\nw y\nE",
    "vim -es f <<< '!c'", "vim -es f <<< 'w !c'", ": ; vim -es f <<< '!c'", "vim -e --startuptime t f <<< 'w x'",
    "vi -es f <<< 'call x'", "vim \"$(c)\" -c x f",
    "tar -cf a -b 20 --checkpoint-action exec=x", "zip -qb -TT x a.zip f", "rsync -aT -e ssh a h:b", "tar -xf a --to-command=a=b",
    "tar -c -f -I x .", "tar -cvI x", "tar -cvf a.tar -I x .", "tar -cvI x -I y", "tar -I x -I y .",
    "ssh -o \"$(c)\" -o ProxyCommand=c h", "scp a -S prog",
    # -- fail-opens (phase 16, reported): each of these finds less than the program writes or runs
    "sed -- 'w /m/x' f", "sed -- '1e touch /m/y' f", "sed -e p -ne 'w /m/x' f",  # the script after `--`; `-ne` after a script
    "ed -s f <<< 'wq /m/x'", "ex -s f <<< 'saveas /m/x'", "vim -es f <<< 'wq /m/x'",  # read as `w q /m/x`, `sav eas /m/x`
    "zip -q -T -TT'touch /m/x' z.zip f", "zip -q -T -qTT 'touch /m/x' z.zip f",  # -TT attached or in a cluster
    "ssh -vo ProxyCommand='touch /m/x' host",  # -o in a cluster
    "vim -e f <<< 'w! /m/x'", "vim -u evil.vim -es f <<< q",  # Ex mode without -s reads stdin; -u sources a file
    "ex \"$(printf %s -c)\" 'w! /m/x' f <<< q",  # no check of built words for ex
    "gawk -i ./evil.awk 'BEGIN{}'",  # -i includes source code, like -f
    "vim -es f <<< 'w /m/x'",  # found, but embedded_writes gives the write table nothing for vim
    # -- gawk's inplace library by -f, -i and --include, each spelling, only that name; after another -f too (phase 20)
    "gawk -f inplace '{}' f g", "gawk -f inplace.awk f", "gawk -i inplace '{}' f", "gawk -i inplace.awk '{}' f",
    "gawk --include=inplace '{}' f", "gawk --include inplace '{}' f", "gawk -i lib '{}' f", "gawk -f inplace -f lib f",
    "gawk -i inplace -i lib '{}' f", "gawk -f lib -f inplace f",
    # phase 21: `@load "inplace"` in the program; the operands it rewrites: one only known at run time, not `-` nor an
    # assignment (`X=1`, `v=1`); `--incl` as gawk's getopt_long prefix of --include
    # phase 21: ed's `w >> F` appends to F (spaced or not); tar's -I keeps an attached `=` (only zip drops it)
    "ed -s f <<< 'w >> /m/x'", "ed -s f <<< 'w >>/m/x'", "tar -cf a.tgz -I=gzip .",
    "gawk '@load \"inplace\"' f g", "gawk -i inplace '{}' \"$F\"", "gawk -i inplace '{}' - X=1 v=1 f", "gawk --incl=inplace '{}' f",    # phase 22: an attached short value's `=` dropped (zip's -TT=, rsync's -e=); zip's two-letter -lf takes the next
    # word (a log file named -TT); a long prefix is the first option it begins, a value option too (--r: --read-batch)
    "zip -TT=x a.zip f", "rsync -e=ssh a h:b", "zip -lf -TT a.zip f", "rsync --r=x a h:b",
    "sed -f - f", "awk -f - f",  # the script from stdin: not read
    "sed --", "sed -- 'w out'", "sed -n -- 'w out'",  # `--` as the last word, and its script as the last
    "sed -ie -n 'w out' f", "sed -Xe -n 'w out' f",  # -i takes the rest (suffix e); -e after another letter takes -n
    "ssh h grep -F x f", "ssh -- h -F x",  # ssh's remote command begins at its second operand, `--` one of them
    "scp -B -S prog a h:b", "scp -X \"$(c)\" a h:b", "ssh -F \"$(c)\" h", "ssh -F /dev/null h", "ssh -F none h",  # scp's letters
    "ssh -o Include=x h", "ssh -o 'include x' h",  # a config file ssh reads, not read here
    # vim's -u/-U vimrc (none with NONE, NORC, DEFAULTS), -i's viminfo written (not with NONE), each as the last word too
    "vim -U gvimrc f", "vim -u NONE f", "vim -u NORC f", "vim -u DEFAULTS f", "vim -u NONE", "vim f -u",
    "vim -i info f", "vim -i info", "vim -i NONE f", "vim f -i",
]

#: (source, the state it runs in): a cwd not known, variables set before it, what the command wrote earlier.
STATE_ROWS: list[tuple[str, dict]] = [
    ("rsync \"$U\" h:a b", {"variables": {"U": None}}),
    ("rsync \"$U\" h:a b", {"variables": {"U": "-essh"}}),
    ("sed -e p \"$HOME\" f", {"variables": {"HOME": None}}),
    ("sed 'w out' f", {"cwd": None}),
    ("sed 'w out' f", {"options": {"expand_aliases"}}),
    ("sed -f s.sed f", {"cwd": None}),
    ("awk -f p.awk f", {"cwd": None}),
    # gawk looks for a -f name without `/` on AWKPATH (phase 20)
    ("awk -f p.awk f", {"variables": {"AWKPATH": "lib"}}), ("awk -f ./p.awk f", {"variables": {"AWKPATH": "lib"}}),
    ("awk -f p.awk f", {"variables": {"AWKPATH": None}}),
    ("gawk -i p '{}' f", {"variables": {"AWKPATH": "lib"}}),  # -i searches AWKPATH too (phase 21)
    ("gawk -i p '{}' f", {"variables": {"AWKPATH": ""}}), ("gawk -i p '{}' f", {"variables": {"AWKPATH": None}}),
]

#: Script files read at check time, each row run in a directory holding them (`script_files`).
FILE_ROWS: list[str] = [
    "sed -f s.sed f", "sed -fs.sed f", "sed --file=s.sed f", "sed --file s.sed f", "sed -n -f s.sed -e 'w b' f",
    "sed -f ./s.sed f", "sed -f sub/../s.sed f", "sed -f none.sed f", "sed -f dir f", "sed -f fifo f", "sed -f big.sed f",
    "sed -f limit.sed f", "sed -f over.sed f", "sed -f s.sed/x f", "sed -f bad.sed f", "sed -f null f", "sed -f link f",
    "sed -f dangling f", "sed -f stdin f", "sed -f empty.sed f", "sed -f {D}/s.sed f", "sed -f s.sed \"$(c)\"",
    "awk -f p.awk f", "awk -fp.awk f", "awk --file=p.awk f", "awk --file p.awk f", "awk -f p.awk '{system(\"b\")}' f",
    "awk -f none.awk f", "awk -f dir f", "awk -f big.sed f", "awk -f bad.awk f", "awk -E p.awk f", "awk --exec=p.awk f",
    "awk -f p.awk -f p.awk f", "awk -e 'BEGIN{system(\"a\")}' -f p.awk f", "awk -f {D}/p.awk f",
    "sed -nf s.sed f", "sed -sf link f",  # fail-opens: a cluster ending in `f` reads its value as the script
    "awk -fq f", "sed -f /X{D}/s.sed f", "sed -f {SHM} f", "sed -f /proc/self/root{D}/s.sed f", "sed -f ver f", "awk -f ver f", "sed -f shm f",
    # awk -W exec FILE (a prefix of exec too; after -W's value the next word is the file): read as -f reads (phase 20)
    "awk -W exec p.awk f", "awk -We p.awk f", "awk -W ex p.awk f", "awk -W EXEC p.awk f", "awk -W exec=1 p.awk f",
    "awk -W exec dir f", "awk -W exec", "awk -W exec \"$(c)\" f", "awk -W \"$(c)\" p.awk f", "awk -W lint p.awk f",
    "awk -W lint=x=exec p.awk f", "awk -W exec none.awk f", "awk -W exec p.awk -W exec p.awk f",
    # gawk -i F reads F, else F.awk, from the cwd; a name ending in .awk only as given (x.awk.awk is not x.awk) (phase 21)
    "gawk -i p '{}' f", "gawk -i p.awk '{}' f", "gawk -i x.awk '{}' f", "gawk -i x '{}' f", "gawk -i \"$X\" '{}' f",
    "gawk -i q '{}' f",  # q and q.awk: only the first gawk finds, q
    "gawk '@include \"p\"' f", ": ; gawk '@include \"p\"' f",  # an @include's program at the command's start
    # phase 22: after `-W exec FILE` no operand is the program, FILE unreadable (a directory) too; nor after `-W "$(c)"`
    "awk -W exec dir 'BEGIN{system(\"c\")}'", "awk -W \"$(c)\" x 'BEGIN{system(\"c\")}'",
    # phase 22: an @include read once, the ones after a repeated one still read; -i inplace before an @include still rewrites
    "gawk '@include \"p\"; @include \"p\"; @include \"q\"' f", "gawk -i inplace '@include \"p\"' f",
    # an unreadable @include; one an included file makes (outer.awk includes q); MAX_AWK_INCLUDES files and one more
    "gawk '@include \"none\"' f", "gawk '@include \"outer\"' f",
    "gawk '" + "; ".join(f'@include "inc{n}"' for n in range(1, MAX_AWK_INCLUDES + 1)) + "; BEGIN{system(\"c\")}' f",
    "gawk '" + "; ".join(f'@include "inc{n}"' for n in range(1, MAX_AWK_INCLUDES + 2)) + "; BEGIN{system(\"c\")}' f",
]
#: FILE_ROWS run where the cwd is not known: an absolute path is still read.
NO_CWD_ROWS: list[str] = ["sed -f {D}/s.sed f", "sed -f s.sed f"]
#: FILE_ROWS whose script the command itself wrote before (state.written): not read, since not known at check time.
WRITTEN_ROWS: list[str] = ["sed -f s.sed f", "awk -f p.awk f", "sed -f sub/../s.sed f", "awk -W exec p.awk f"]
#: FILE_ROWS run after the command wrote these ({D}: the scripts' directory; UNLISTED: names made there not known):
#: a script below a directory written earlier is not read, one beside or above it is (phase 22).
WRITTEN_DIRECTORY_ROWS: list[tuple[str, list[str]]] = [
    ("sed -f outX/s.sed f", ["{D}/outX"]), ("sed -f s.sed f", ["{D}/outX"]), ("sed -f s.sed f", ["/"]),
    ("sed -f s.sed f", ["/elsewhere"]), ("sed -f s.sed f", [UNLISTED + "/elsewhere"]), ("sed -f s.sed f", [UNLISTED]),
    ("sed -f s.sed f", [UNLISTED + "{D}"]),
]


def script_files(directory: Path) -> None:
    (directory / "s.sed").write_text("w out\n1e touch z\n")
    (directory / "p.awk").write_text('BEGIN { system("date"); print 1 > "o" }\n')
    (directory / "dir").mkdir()
    (directory / "sub").mkdir()
    (directory / "outX").mkdir()  # a directory whose name ends in X (`rstrip("/")` of its name)
    (directory / "outX" / "s.sed").write_text("w outX\n")
    os.mkfifo(directory / "fifo")
    (directory / "big.sed").write_text("w big\n" + "#" * MAX_SCRIPT_FILE)
    (directory / "limit.sed").write_text("#" * (MAX_SCRIPT_FILE - len("\nw limit")) + "\nw limit")
    (directory / "over.sed").write_text(("w over\n" + "#" * MAX_SCRIPT_FILE)[: MAX_SCRIPT_FILE + 1])
    (directory / "bad.sed").write_bytes(b"w bad\xff\n")
    (directory / "bad.awk").write_bytes(b'BEGIN{system("a\xffb")}\n')
    (directory / "empty.sed").write_text("")
    (directory / "null").symlink_to("/dev/null")
    (directory / "link").symlink_to("s.sed")
    (directory / "dangling").symlink_to("nowhere.sed")
    (directory / "stdin").symlink_to("/dev/stdin")
    (directory / "q").write_text('BEGIN { system("q") }')
    (directory / "x.awk.awk").write_text('BEGIN { system("x2") }')  # gawk adds .awk only to a name without it
    (directory / "q.awk").write_text('BEGIN { system("q2") }')
    (directory / "outer.awk").write_text('@include "q"\n')
    for n in range(1, MAX_AWK_INCLUDES + 2):
        (directory / f"inc{n}.awk").write_text("#\n")
    (directory / "ver").symlink_to("/proc/version")  # a regular file under /proc, through a link
    # a regular file under /dev, through a link: /dev/shm is the one place there that can hold one
    shm_file(directory).write_text("w shm\n")
    (directory / "shm").symlink_to(shm_file(directory))
    shm_link(directory).symlink_to(directory / "s.sed")  # under /dev, to a file that is not


def commands(directory: Path) -> list[tuple[str, ShellCommand]]:
    """(key, step) for every row; FILE_ROWS run in `directory`, which holds `script_files`."""
    out = [(source, step(source)) for source in ROWS]
    out += [(f"{source} @ {json.dumps(state, sort_keys=True, default=sorted)}", step(source, **state)) for source, state in STATE_ROWS]
    d = str(directory)
    out += [(f"file: {source}", step(source.replace("{D}", d).replace("{SHM}", str(shm_link(directory))), cwd=d)) for source in FILE_ROWS]
    written = [os.path.realpath(os.path.join(d, "s.sed")), os.path.realpath(os.path.join(d, "p.awk"))]
    out += [(f"no cwd: {source}", step(source.replace("{D}", d), cwd=None)) for source in NO_CWD_ROWS]
    out += [(f"written: {source}", step(source, cwd=d, written=written)) for source in WRITTEN_ROWS]
    out += [(f"written unknown: {source}", step(source, cwd=d, written=["/elsewhere", None])) for source in WRITTEN_ROWS]
    for source, paths in WRITTEN_DIRECTORY_ROWS:
        label = json.dumps([p.replace(UNLISTED, "UNLISTED:") for p in paths])
        out.append((f"written {label}: {source}", step(source, cwd=d, written=[p.replace("{D}", os.path.realpath(d)) for p in paths])))
    return out


def normal(reading: list, directory: Path) -> list:
    """A reading with the scripts' directory written as {D} (FILE_ROWS give it in reasons)."""
    text = json.dumps(reading).replace(json.dumps(str(shm_link(directory)))[1:-1], "{SHM}")
    return json.loads(text.replace(json.dumps(str(directory))[1:-1], "{D}"))


def shm_file(directory: Path) -> Path:
    """The script under /dev/shm, one per process and directory (runs side by side must not share it)."""
    return Path("/dev/shm") / f"wg-embedded-{os.getpid()}-{directory.name}.sed"


def shm_link(directory: Path) -> Path:
    return shm_file(directory).with_suffix(".link")


def remove_shm(directory: Path) -> None:
    for path in (shm_file(directory), shm_link(directory)):
        path.unlink(missing_ok=True)


def test_what_embedded_finds(tmp_path: Path) -> None:
    script_files(tmp_path)
    try:
        expected = json.loads(READINGS.read_text())
        rows = commands(tmp_path)
        keys = [key for key, _ in rows]
        assert len(set(keys)) == len(keys) and set(keys) == set(expected), "rows and readings differ: run with --write"
        for key, command in rows:
            assert normal(reading_of(command), tmp_path) == expected[key], key
    finally:
        remove_shm(tmp_path)


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        script_files(Path(scratch))
        try:
            got = {key: normal(reading_of(command), Path(scratch)) for key, command in commands(Path(scratch))}
        finally:
            remove_shm(Path(scratch))
    lines = [f" {json.dumps(key, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}" for key, value in got.items()]
    READINGS.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    print(f"{len(got)} readings written to {READINGS}")


#: gawk's own library as the fake below holds it: a name there, and one below a directory there.
GAWK_LIBRARY = ("/usr/share/awk/ordchr.awk", "/usr/share/awk/sub/lib.awk")


def test_gawk_own_library(tmp_path: Path, monkeypatch) -> None:
    """gawk's own library (-i NAME or @include "NAME", NAME or NAME.awk in /usr/share/awk) passes when the cwd has
    neither; a name holding a `/` is never looked up there (gawk searches no path for it), nor is the library looked
    up from the hook's own cwd. The machines here have no gawk, hence no /usr/share/awk: a fake `isfile` holds
    GAWK_LIBRARY (phase 22: `_awk_include` 28, 40-43 could not be told from gawk's library missing)."""
    real = os.path.isfile
    monkeypatch.setattr(os.path, "isfile", lambda path: path in GAWK_LIBRARY or (not str(path).startswith("/usr/share/awk/") and real(path)))
    (tmp_path / "own.awk").write_text('BEGIN { system("own") }')
    elsewhere = tmp_path / "hook-cwd"
    elsewhere.mkdir()
    (elsewhere / "nolib.awk").write_text("")  # the hook's own cwd is not where gawk looks
    monkeypatch.chdir(elsewhere)
    (tmp_path / "work").mkdir()
    work = str(tmp_path / "work")
    unreadable = "`gawk` includes {}, which worktree-guard cannot read"
    rows = {
        "gawk -i ordchr '{}' f": [],
        "gawk -i ordchr.awk '{}' f": [],
        "gawk '@include \"ordchr\"' f": [],
        "gawk -i sub/lib '{}' f": [["o", unreadable.format("sub/lib")]],
        "gawk -i ./ordchr '{}' f": [["o", unreadable.format("./ordchr")]],
        "gawk -i nolib '{}' f": [["o", unreadable.format("nolib")]],
        "gawk -i ../own '{}' f": [["c", "own", 24]],  # the cwd's file, read (at the word, plus its place in the file)
    }
    for source, expected in rows.items():
        assert reading_of(step(source, cwd=work)) == expected, source


def test_a_script_under_proc_is_not_read_where_its_real_place_leaves_proc(tmp_path: Path, monkeypatch) -> None:
    """A script path under /proc is refused as written, before where it leads: some of /proc's own links leave it
    (`/proc/fs/xfs/stat` -> `/sys/fs/xfs/stats/stats`, found by phase 26's fuzz of every path under /proc), and
    `paths.real` resolves those. A fake `paths_real` sends /proc/version to a file outside /proc (phase 26 (m41c):
    `_read_script` 41, 42, the lexical `/proc/` test dropped, read /proc/version's text as the script)."""
    from worktree_guard.shell import embedded
    from worktree_guard.paths import real

    (tmp_path / "version").write_text("")
    command = step("sed -f /proc/version f", cwd=str(tmp_path))
    assert embedded._read_script("/proc/version", command) is None
    monkeypatch.setattr(embedded, "paths_real", lambda path: str(tmp_path / "version") if path.startswith("/proc/") else real(path))
    assert embedded._read_script("/proc/version", command) is None
    assert embedded._read_script(str(tmp_path / "version"), command) == ""  # a file outside /proc is read
