"""What a PowerShell command line runs (`pwsh`, Windows PowerShell's `powershell.exe`), read from bash.

worktree-guard reads bash only: PowerShell code it never reads (the PowerShell tool is WG900), so the indirection
rule refuses every form of `pwsh` that runs code it cannot see (WG404) and lets a script file go the way of
`python3 script.py`. This module says which form a command line is, as PowerShell's console host reads it
(ConsoleHost's CommandLineParameterParser):

- a parameter starts with `-`, `--`, `/` or another dash (– — ―), is matched without regard to case, and may be
  shortened to any prefix at least as long as its shortest form (`-c`, `-co`, `-Command`; `-e`, `-ec`,
  `-EncodedCommand`; `-f`, `-File`);
- `-Command`/`-CommandWithArgs`/`-EncodedCommand` run the rest of the line (`-Command -`: its input); `-File F`
  runs F (`-File -`: its input); `-NoExit` and the server modes read commands from its input after that; with
  no program at all it reads its commands from its input;
- the first word that is no parameter ends them: pwsh runs it as a script file, the rest its arguments; Windows
  PowerShell 5.1 (`powershell`, `powershell.exe`) runs it and the rest as a command, and its `-Version` takes a
  value (pwsh's prints the version and stops).

A word only known at run time, or a parameter this table does not know (a later PowerShell's), may be any of
these: it is "unknown", never a script file.

Windows' own `pwsh.exe`/`powershell.exe`, run from WSL, get their words joined into one Windows command line:
WSL wraps a word holding a space in double quotes but escapes no double quote inside it (microsoft/WSL#2411,
#1625, #2835), and a tab separates words there. So a word holding `"` or a tab (or a space and a last `\\`,
which escapes the closing quote) is several words to PowerShell, not the one bash passes: it is "split",
anywhere on the line (`pwsh.exe -ExecutionPolicy 'Bypass" -c "Remove-Item …' a.ps1` runs inline code).
"""

from __future__ import annotations

#: Names PowerShell runs under: pwsh 7 (and its preview and LTS packages), Windows' own executables, which WSL
#: runs from bash. Compared in lower case (Windows' file systems under WSL find `PowerShell.exe` too).
POWERSHELLS = frozenset({"pwsh", "pwsh-preview", "pwsh-lts", "pwsh.exe", "powershell", "powershell.exe"})
#: The names of Windows PowerShell 5.1, whose first non-parameter word starts a command.
WINDOWS_POWERSHELLS = frozenset({"powershell", "powershell.exe"})
DASHES = "-\u2013\u2014\u2015"

#: (name, shortest form, what it does), in the order PowerShell tries them: "version" and "help" print and stop;
#: "code" runs the rest of the line; "input" reads commands from its input; "file" runs the script its value names;
#: "value" takes the next word; "switch" takes none.
PARAMETERS: tuple[tuple[str, str, str], ...] = (
    ("version", "v", "version"),
    ("help", "h", "help"),
    ("?", "?", "help"),
    ("login", "l", "switch"),
    ("noexit", "noe", "input"),  # stays and reads commands from its input once the command or script ends
    ("noprofile", "nop", "switch"),
    ("nologo", "nol", "switch"),
    ("noninteractive", "noni", "switch"),
    ("socketservermode", "so", "input"),
    ("servermode", "s", "input"),
    ("namedpipeservermode", "nam", "input"),
    ("sshservermode", "sshs", "input"),
    ("noprofileloadtime", "noprofileloadtime", "switch"),
    ("interactive", "i", "switch"),
    ("configurationname", "config", "value"),
    ("configurationfile", "configurationf", "value"),
    ("custompipename", "cus", "value"),
    ("commandwithargs", "commandwithargs", "code"),
    ("cwa", "cwa", "code"),
    ("command", "c", "code"),
    ("windowstyle", "w", "value"),
    ("file", "f", "file"),
    ("outputformat", "o", "value"),
    ("of", "o", "value"),
    ("inputformat", "inp", "value"),
    ("if", "if", "value"),
    ("executionpolicy", "ex", "value"),
    ("ep", "ep", "value"),
    ("encodedcommand", "e", "code"),
    ("ec", "e", "code"),
    ("encodedarguments", "encodeda", "value"),
    ("ea", "ea", "value"),
    ("settingsfile", "settings", "value"),
    ("sta", "sta", "switch"),
    ("mta", "mta", "switch"),
    ("workingdirectory", "wo", "value"),
    ("wd", "wd", "value"),
    ("removeworkingdirectorytrailingcharacter", "removeworkingdirectorytrailingcharacter", "switch"),
    ("psconsolefile", "psc", "value"),  # Windows PowerShell 5.1
)


def is_powershell(name: str | None) -> bool:
    return name is not None and name.lower() in POWERSHELLS


def split_on_windows(name: str, value: str) -> bool:
    """Is this word of a Windows executable (`*.exe`, run from WSL) several words once Windows splits the line?"""
    if not name.lower().endswith(".exe"):
        return False
    return '"' in value or "\t" in value or (" " in value and value.endswith("\\"))


def _parameter(word: str) -> tuple[str | None, bool]:
    """(what the parameter does or None when no parameter matches, is the word a parameter at all)."""
    if not word or (word[0] not in DASHES and word[0] != "/"):
        return None, False
    key = word[1:]
    if key and key[0] in DASHES:
        key = key[1:]
    key = key.lower()
    for name, shortest, what in PARAMETERS:
        if len(key) >= len(shortest) and name.startswith(key):
            return what, True
    return None, True


def launch(name: str, values: list[str | None]) -> tuple[str, int | None]:
    """(what the command line runs, index of the word that says so) for `values` (the argv, program first).

    What: "none" (a version or help query), "code" (code given to the parameter at the index), "command" (Windows
    PowerShell runs the words from the index as code), "input" (code read from its input), "file" (the script
    file at the index), "unknown" (a word only known at run time, or a parameter the table does not know, at the
    index), "split" (a word Windows splits into others, at the index: `split_on_windows`).
    """
    for k, value in enumerate(values[1:], 1):
        if value is not None and split_on_windows(name, value):
            return "split", k
    windows = name.lower() in WINDOWS_POWERSHELLS
    query: int | None = None
    i = 1
    while i < len(values):
        value = values[i]
        if value is None:
            return "unknown", i
        word = value.strip()
        if word == "-":
            return "input", i
        what, switch_like = _parameter(word)
        if what is None:
            if switch_like and word[0] != "/":
                return "unknown", i
            return ("command" if windows else "file"), i  # a path (`/x/a.ps1` is no parameter either)
        if what == "version":
            if windows and i + 1 < len(values):
                i += 2  # `powershell -Version 2 -Command …` starts version 2 and goes on
                continue
            return "none", i
        if what == "help":
            query = i
        elif what == "code":
            following = values[i + 1] if i + 1 < len(values) else None
            return ("input" if following is not None and following.strip() == "-" else "code"), i
        elif what == "input":
            return "input", i
        elif what == "file":
            if i + 1 >= len(values):
                return "none", i  # `-File` without one: PowerShell refuses the command line
            following = values[i + 1]
            if following is None:
                return "unknown", i + 1
            return ("input" if following.strip() == "-" else "file"), i + 1
        elif what == "value":
            i += 1
        i += 1
    return ("none", query) if query is not None else ("input", None)
