"""The git rule (SPEC §5.2): git may not change a shared checkout, its branch, or the shared refs and config.

The effective checkout of each git invocation comes from the directory it runs in, `-C` (cumulative),
`--git-dir`, `--work-tree`, `-c core.worktree`, and GIT_DIR / GIT_WORK_TREE / GIT_COMMON_DIR given as
prefixes or set earlier in the command (read by `shell/git_call.py`). Codes: WG301 branch/HEAD change, WG302
other changes to the working tree, index or HEAD, WG303 location not static, WG304 `git worktree` outside W,
WG305 refs and config shared by every worktree, WG404 config git would read that cannot be looked inside. The
code git runs (`-c core.pager=…`, GIT_EDITOR, `rebase -x`…) is handed to the walker where git runs it; the files
git writes beside its checkout are the write table's (`git` entry), judged by the writes rule.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..hookspecs import hookimpl
from ..layout import checked_out_branch, git_dir_of, read_git_core
from ..model import Violation
from ..paths import canonical, own_process

if TYPE_CHECKING:
    from ..engine import Context
    from ..shell.ast import Word
    from ..shell.git_call import GitCall
    from ..shell.programs import ParsedArgv, WriteSpec
    from ..shell.steps import ShellCommand, Unwrapped

RULE = "git"

BRANCH_MOVING = {"-f", "--force", "-m", "-M", "--move", "-d", "-D", "--delete", "-C", "--copy", "-c"}


BRANCH_LISTING = {"-l", "--list", "-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "--show-current", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--format", "--sort"}
TAG_LISTING = {"-l", "--list", "-v", "--verify", "-n", "--contains", "--no-contains", "--points-at", "--merged", "--no-merged", "--format", "--sort"}
# Read-only for the checkout, but they write what every worktree shares (refs, objects, worktrees) in any form.
WRITES_SHARED_STATE = frozenset({"fetch", "push", "gc", "prune", "repack", "pack-refs", "maintenance", "init", "replace", "rerere", "update-ref", "notes", "remote", "worktree"})
SHARED_STATE_READ_FORMS = {"notes": ("list", "show"), "remote": ("show", "get-url"), "worktree": ("list",)}

# WG305 from any checkout: what writes the refs, config or hooks every worktree shares whatever its arguments.
# Subcommands (the review of issue 10 moved main's branch with each)…
SHARED_STATE_SUBCOMMANDS: dict[str, str] = {
    "fast-import": "`git fast-import` writes any ref its input names, the branches other checkouts have checked out among them",
    "send-pack": "`git send-pack` pushes into any ref, and can run a receive-pack that updates a checked-out branch",
    "receive-pack": "`git receive-pack` updates any ref a client sends it",
}
# …options of a subcommand…
SHARED_STATE_FLAGS: dict[str, dict[str, str]] = {
    "fetch": {
        "--update-head-ok": "`git fetch --update-head-ok` may move a branch another checkout has checked out (through any refspec, remote config or --refmap)",
        "-u": "`git fetch -u` (--update-head-ok) may move a branch another checkout has checked out",
    },
}
# …and config given for one call (fnmatch patterns of the key, lower case).
SHARED_STATE_CONFIG: dict[str, str] = {
    "alias.*": "runs commands worktree-guard cannot see",
    "core.hookspath": "runs hooks worktree-guard cannot see",
    "receive.deny*": "lets a push update a branch another checkout has checked out",
}


def writes_repository(call: GitCall) -> bool:
    """True when the invocation writes a checkout's tree, index or HEAD (not `is_read_only`), or the refs, stash,
    config, objects or worktrees that every checkout shares. A shared-workspace worker may run only the others
    (SPEC §11, WG703): the same tables as WG301–WG305, read the other way round."""
    from ..shell.git_call import is_read_only

    if call.subcommand_dynamic or not is_read_only(call):
        return True
    sub = call.subcommand
    if sub is None:
        return False
    flags, operands = call.flags(), call.operands()
    if sub == "config":
        return _writes_config(flags, operands)
    if sub == "branch":
        return bool(flags & BRANCH_MOVING) or ("--set-upstream-to" in flags or "-u" in flags) or (bool(operands) and not flags & BRANCH_LISTING)
    if sub == "tag":
        return bool(flags & {"-d", "--delete", "-f", "--force", "-a", "-s", "-m"}) or (bool(operands) and not flags & TAG_LISTING)
    if sub == "symbolic-ref":
        return len(operands) >= 2 or bool(flags & {"-d", "--delete"})
    if sub == "reflog":
        return bool(operands) and operands[0] in ("expire", "delete")
    if sub == "hash-object":
        return "-w" in flags
    if sub in SHARED_STATE_READ_FORMS:
        return bool(operands) and operands[0] not in SHARED_STATE_READ_FORMS[sub]
    return sub in WRITES_SHARED_STATE


@hookimpl
def worktree_guard_shell_command(command: ShellCommand, ctx: Context) -> list[Violation] | None:
    from ..shell.git_call import affected_checkouts, git_code, is_read_only, read_git_call, written_location

    if command.name != "git":
        return None
    call = read_git_call(command)
    found: list[Violation] = []
    base = dict(rule=RULE, tool=ctx.call.tool, worktree_root=ctx.worktree_root, span=command.span)
    checkouts = affected_checkouts(call, command.home)
    planted = written_location(call, command)
    if planted is not None:
        checkouts = None
    if checkouts is None:
        # HEAD's own moves too (review 38: `git -C /proc/self/cwd/../../.. symbolic-ref HEAD refs/heads/x` switched
        # main's branch): a known shared checkout's are WG301
        if not is_read_only(call) or _moves_head(call):
            reasons = "; ".join(call.dynamic) or planted or "the directory it runs in is not known"
            found.append(Violation(code="WG303", message=f"worktree-guard cannot tell which checkout this git command acts on ({reasons}); run git with literal paths inside {ctx.worktree_root}.", **base))
    else:
        for checkout in dict.fromkeys(checkouts):
            judgement = ctx.policy.judge_resolved(checkout)
            if judgement.place != "shared":
                continue
            found.extend(_shared_checkout(call, judgement.shared_root or checkout, ctx, base))
        if call.subcommand_dynamic and not found:
            # `git "$@"`, xargs' input: words only known at run time may be git's own options (`-C <dir>`,
            # `--git-dir=…`, `-c …`), which move it to any checkout; a known shared checkout was judged above.
            found.append(Violation(code="WG303", message=f"worktree-guard cannot tell which checkout this git command acts on (its words {_dynamic_words(command)} are only known at run time and may hold git's options such as -C); run git with literal words inside {ctx.worktree_root}.", **base))
    found.extend(_side_doors(call, command, checkouts, ctx, base))
    for reason in dict.fromkeys(git_code(command, call).opaque):
        found.append(Violation(code="WG404", message=f"{reason}; run git without it.", **base))
    _remember_config(call, command)
    return found or None


def _remember_config(call: GitCall, command: ShellCommand) -> None:
    """After this git is judged: the repositories whose config or hooks it put there unread (a template's, a
    `git config` write), which a later git of the command reads (shell/git_call.py `unread_repository_config`)."""
    from ..shell.git_call import config_repository, unread_config

    configured = unread_config(call, command)
    flags, operands = call.flags(), call.operands()
    if call.subcommand == "config" and _writes_config(flags, operands) and not flags & CONFIG_ELSEWHERE and _sets_a_moving_key(flags, operands):
        configured.append(config_repository(call, command) or "/")  # not known where: any later git may read it
    command.state.configured.extend(configured)


def _sets_a_moving_key(flags: set[str], operands: list[str | None]) -> bool:
    """Whether a `git config` write may send a later git in the repository to another work tree or make it run code
    (shell/git_call.py `moves_or_runs`): `git config --worktree user.email …` before a commit does not. An edit, a
    renamed or removed section, or a key only known at run time may."""
    from ..shell.git_call import moves_or_runs

    if flags & {"-e", "--edit", "--rename-section", "--remove-section"}:
        return True
    if operands and operands[0] in ("set", "unset", "edit", "rename-section", "remove-section"):
        if operands[0] not in ("set", "unset"):
            return True
        operands = operands[1:]
    if not operands:
        return True
    return moves_or_runs(operands[0], operands[1] if len(operands) > 1 else None)


@hookimpl
def worktree_guard_write_operands() -> dict[str, WriteSpec]:
    """git's row of the write table: the files it writes beside its checkout (GIT_INDEX_FILE, `--output`…)."""
    from ..shell.git_call import git_writes
    from ..shell.programs import WriteSpec

    return {"git": WriteSpec(command_writes=git_writes)}


@hookimpl
def worktree_guard_shell_unwrap(command: ShellCommand, ctx: Context) -> Unwrapped | None:
    """Strings git runs as commands (`-c core.pager=…`, GIT_EDITOR, `rebase -x`, `bisect run`…), walked where
    git runs them: the top of the checkout it acts on."""
    from ..shell.git_call import git_code
    from ..shell.steps import Inner, Script, Unwrapped

    if command.name != "git":
        return None
    code = git_code(command)
    if not code.scripts and not code.argv:
        return None
    # git hands its config on to the commands it runs (`-c` as GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT/KEY/VALUE, its
    # pager and editor variables): a git in that code finds the same code again, as lesspipe finds LESSOPEN (walk.py
    # `_walk_once`), so `GIT_CONFIG_KEY_0=alias.x GIT_CONFIG_VALUE_0='!git stash clear' git x` is walked once, not
    # until the budget (WG901).
    return Unwrapped(
        scripts=[Script(text, offset, cwd, "git", from_env=True) for text, offset, cwd in code.scripts],
        inner=[Inner(words, cwd, label="git bisect run") for words, cwd in code.argv if words],
    )


def _dynamic_words(command: ShellCommand) -> str:
    return " ".join(word.raw for word, value in zip(command.words[1:], command.values()[1:]) if value is None) or "?"


def _moves_head(call: GitCall) -> bool:
    """`git symbolic-ref REF TARGET` or `git update-ref HEAD …`: they move HEAD of the checkout git acts on, which
    `is_read_only` (the working tree and index) does not count."""
    operands = call.operands()
    return (call.subcommand == "symbolic-ref" and len(operands) >= 2) or (call.subcommand == "update-ref" and operands[:1] == ["HEAD"])


def _shared_checkout(call: GitCall, shared: str, ctx: Context, base: dict) -> list[Violation]:
    from ..shell.git_call import CHANGES_CHECKOUT, asks_for_help, is_read_only

    if asks_for_help(call):
        return []  # `git switch -h`: its usage, nothing changed
    sub = call.subcommand
    values = call.values()
    root = ctx.worktree_root
    extra = dict(base, path=shared, resolved=shared, shared_root=shared, suggestion=root)
    if sub == "switch" and not {"-h", "--help"} & set(v for v in values if v):
        return [Violation(code="WG301", message=f"`git switch` would change the branch of the shared checkout {shared}; switch branches only in this agent's worktree {root}.", **extra)]
    if sub == "checkout" and not is_read_only(call):
        flags, operands = call.flags(), call.operands()
        paths_only = "--" in values or "--pathspec-from-file" in flags or (not operands and not flags & {"-b", "-B", "--orphan", "--detach"})
        if paths_only:
            return [Violation(code="WG302", message=f"`git checkout` would rewrite or discard files of the shared checkout {shared}; run it in {root}.", **extra)]
        return [Violation(code="WG301", message=f"`git checkout` would change the branch of the shared checkout {shared}; switch branches only in this agent's worktree {root}.", **extra)]
    if _moves_head(call):
        what = "`git symbolic-ref`" if sub == "symbolic-ref" else "`git update-ref HEAD`"
        return [Violation(code="WG301", message=f"{what} would move HEAD of the shared checkout {shared}.", **extra)]
    if is_read_only(call):
        return []
    what = f"`git {sub}`" if sub else "this git command"
    known = sub in CHANGES_CHECKOUT
    message = (
        f"{what} would change the working tree, index or HEAD of the shared checkout {shared}; run it in this agent's worktree {root}."
        if known
        else f"worktree-guard cannot tell whether {what} changes the shared checkout {shared}; run it in this agent's worktree {root}."
    )
    return [Violation(code="WG302", message=message, **extra)]


def _shared_branches(ctx: Context) -> dict[str, str]:
    """branch name → the shared checkout that has it checked out (read once per call)."""
    branches = ctx.extra.get("shared_branches")
    if branches is None:
        branches = {}
        for top in ctx.layout.shared_roots:
            branch = checked_out_branch(top)
            if branch:
                branches[branch] = top
        ctx.extra["shared_branches"] = branches
    return branches


#: The keys of a branch's config that say where a push, fetch or pull without refspec goes and which branch it moves
#: (`branch.<b>.remote=.` with `merge=refs/heads/main`); the other `remote.*`, `url.*` keys and `push.default` too.
BRANCH_ROUTING = (".remote", ".pushremote", ".merge")


#: Subcommands that an option only known at run time can turn on a branch another checkout has checked out
#: (`branch -m`, `-D`, `--set-upstream-to`; `switch`/`checkout --ignore-other-worktrees`; `worktree add -f`).
OPTION_MOVED_BRANCHES = frozenset({"branch", "switch", "checkout", "worktree", "tag", "reset"})  # update-ref, symbolic-ref: WG305 by name already


def _option_like_beside_a_branch(call: GitCall, command: ShellCommand, branches: dict[str, str], base: dict) -> list[Violation]:
    """A word the command built that may be an option, beside a literal word naming a branch another checkout has
    checked out (review 30b: `X=$(cat f); git branch "$X" main foo` with X=-m renamed main; `git switch "$X" main`
    with X=--ignore-other-worktrees checked main out in W, whose commits then moved it)."""
    from ..shell.git_call import words_that_may_be_options

    loose = words_that_may_be_options(call, call.parsed(), (), command.state)
    if not loose:
        return []
    unknown = [word for word, value in call.args if value is None and word is not loose[0]]
    if unknown:  # review 30c: `git branch "$X" "$Y" foo` with Y=main
        return [Violation(code="WG305", message=f"`git {call.subcommand}` is given {loose[0].raw}, only known at run time, which may be an option that moves, renames or checks out the branch {unknown[0].raw} names, which another checkout may have checked out; write the words out.", **base)]
    for value in call.values():
        if value is not None and _branch_name(value.rpartition("=")[2]) in branches:
            name = _branch_name(value.rpartition("=")[2])
            return [Violation(code="WG305", message=f"`git {call.subcommand}` is given {loose[0].raw}, only known at run time, which may be an option that moves, renames or checks out `{name}`, the branch checked out in {branches[name]}; write the options out.", **base)]
    return []


def _branch_name(ref: str) -> str:
    ref = ref.lstrip("+")
    return ref[len("refs/heads/"):] if ref.startswith("refs/heads/") else ref


def _side_doors(call: GitCall, command: ShellCommand, checkouts: list[str] | None, ctx: Context, base: dict) -> list[Violation]:
    """Refs and config are shared by every worktree: guarded from wherever git runs (WG304, WG305)."""
    from ..shell.git_call import _environment_config_keys, clone_settings, filled_directories

    found: list[Violation] = []
    sub = call.subcommand
    flags = call.flags()
    operands = call.operands()
    branches = _shared_branches(ctx)

    def side_door(message: str, code: str = "WG305") -> None:
        found.append(Violation(code=code, message=message, **base))

    settings = [*call.configs, *call.config_envs, *[(word, setting) for word, setting in clone_settings(call) if setting is not None]]
    # config git takes from its environment counts as `-c` (phase 9's mutation run: `GIT_CONFIG_COUNT=1
    # GIT_CONFIG_KEY_0=core.hooksPath … git commit` ran a hook from /tmp and passed)
    # (one only known at run time is WG404 already; an alias from there is walked as the code it runs)
    settings += [(None, key) for key in _environment_config_keys(command) or [] if not key.lower().startswith("alias.")]
    if settings:
        import fnmatch  # only for a call that sets config (-c, GIT_CONFIG_*): most never do
    for _, setting in settings:
        key = setting.partition("=")[0].lower()
        for pattern, why in SHARED_STATE_CONFIG.items():
            if fnmatch.fnmatchcase(key, pattern):
                side_door(f"`git -c {key}=…` {why}; leave it out.")
    if sub in ("push", "fetch", "pull") or (sub == "remote" and operands[:1] in (["update"], ["prune"])):
        # `git -c remote.origin.url=. push origin HEAD:main`; `remote update --prune` deletes branches (review 25b), `-c url.<x>.insteadOf`, an upstream of `.` with
        # `push.default=upstream`: config that sends the call back into this repository, or says which branch a
        # push without refspec moves (left by stop 24)
        # push.default only where the push may go to this repository: no remote named (the branch's, which may be
        # `.`), or one that is (`git -c push.default=current push origin` is an ordinary push: review 10's must-pass);
        # only push reads it (`git -c push.default=upstream fetch` was a false WG305, phase 11's run)
        here = not operands or operands[0] is None or _is_this_repository(operands[0], call, command, ctx)
        for _, setting in settings:
            key = setting.partition("=")[0].lower()
            if key.startswith(("remote.", "url.")) or (key == "push.default" and here and sub == "push") or (key.startswith("branch.") and key.endswith(BRANCH_ROUTING)):
                side_door(f"`git -c {key}=…` changes where `git {sub}` sends or takes refs, which could be a branch another checkout has checked out; leave it out.")
                break
    if sub in SHARED_STATE_SUBCOMMANDS:
        side_door(f"{SHARED_STATE_SUBCOMMANDS[sub]}; ask the user.")
    for flag, why in SHARED_STATE_FLAGS.get(sub or "", {}).items():
        if flag in flags:
            side_door(f"{why}; fetch into a branch of your own instead.")
    if sub == "init":
        found.extend(_init(call, command, ctx, base))
    command.state.repositories.extend(filled_directories(call, command))
    if sub in OPTION_MOVED_BRANCHES and branches:
        found.extend(_option_like_beside_a_branch(call, command, branches, base))
    if sub in ("checkout", "switch") and "--ignore-other-worktrees" in flags:
        side_door(f"`--ignore-other-worktrees` would check out a branch another worktree has checked out; create a new branch in {ctx.worktree_root} instead.")
    if sub == "branch" and flags & BRANCH_MOVING:
        named = [_branch_name(v) for v in operands if v is not None]
        if any(v is None for v in operands):
            side_door("`git branch` with a branch name only known at run time could move a branch another checkout uses.")
        for name in named:
            # Old or new name alike: `-M x main` and `-C main` overwrite it, `-m main x` and `-d main` take it away.
            if name in branches:
                side_door(f"`git branch` would move, rename, overwrite or delete `{name}`, the branch checked out in {branches[name]}.")
    if sub == "update-ref":
        refs = [v for v in operands if v is not None]
        if "--stdin" in flags or any(v is None for v in operands):
            side_door("`git update-ref` with refs only known at run time could move a branch another checkout uses.")
        elif refs and _branch_name(refs[0]) in branches and refs[0].startswith("refs/heads/"):
            side_door(f"`git update-ref` would move `{refs[0]}`, the branch checked out in {branches[_branch_name(refs[0])]}.")
    parsed = call.parsed() if sub in ("fetch", "push", "pull") else None
    if parsed is not None and (parsed.operands[1:] or parsed.options.get("--refmap") or (sub != "push" and (None in call.values() or "--stdin" in parsed.options))):
        # A push moves the remote's refs; a fetch or pull those of the repository git runs in, whatever the remote:
        # pull fetches with --update-head-ok, so `git pull origin main:main` in W moved the main checkout's `main`
        # (git 2.39, stop 28; only a remote that is this repository was judged before)
        remote = operands[0] if operands else ""
        local = remote is None or (remote != "" and _is_this_repository(remote, call, command, ctx)) or (sub != "push" and _runs_in_this_repository(call, command, checkouts, ctx))
        if local:
            refspecs = [(value, False) for _, value in [*parsed.operands[1:], *parsed.options.get("--refmap", [])] if value is not None]  # pull passes --refmap on (review 28a)
            if sub == "push":
                refspecs += [(None, False) for _, value in parsed.operands[1:] if value is None]
            else:
                refspecs += _unknown_words(call, parsed, command)
            for spec, glob in refspecs:
                if spec is None:
                    side_door(f"`git {sub}` into this repository with a refspec or option only known at run time could move a checked-out branch.")
                    continue
                for destination in _shared_branches_in(spec, branches, push=False, glob=glob):  # `push . main`: main onto itself
                    side_door(f"`git {sub}` would move `{destination}`, the branch checked out in {branches[destination]}.")
    verb = operands[0] if operands else None
    if sub == "remote" and verb in ("add", "set-url", "rename", "remove", "rm", "set-head", "set-branches"):
        side_door(f"`git remote {verb}` writes the repository config every worktree shares; ask the user.")
    if sub == "branch" and flags & {"-u", "--set-upstream-to", "--unset-upstream", "--edit-description"}:
        side_door("`git branch` would write the upstream or description into the repository config every worktree shares; ask the user.")
    if sub == "maintenance" and verb in ("register", "unregister", "start", "stop"):
        side_door(f"`git maintenance {verb}` writes config for this repository; ask the user.")
    if sub == "sparse-checkout" and verb in ("set", "add", "init", "reapply", "disable") and not _worktree_config(ctx):
        side_door("`git sparse-checkout` would turn on per-worktree config in the config every worktree shares; ask the user.")
    if sub == "notes" and verb not in (None, "list", "show", "get-ref"):
        side_door(f"`git notes {verb}` writes refs/notes, which every worktree shares; ask the user.")
    if sub == "replace" and operands and not flags & {"-l", "--list"}:
        side_door("`git replace` writes refs/replace, which changes history for every worktree; ask the user.")
    if sub == "symbolic-ref" and len(operands) >= 2 and not flags & {"-d", "--delete"}:
        names = {_branch_name(v) for v in operands[:2] if v is not None}
        shared = sorted(names & set(branches))
        if shared or any(v is None for v in operands[:2]):
            side_door(f"`git symbolic-ref` would point a ref at `{shared[0] if shared else '?'}`, the branch another checkout has checked out.")
    if sub == "config" and _writes_config(flags, operands):
        shared_target = checkouts is not None and any(ctx.policy.judge_resolved(c).place == "shared" for c in checkouts)
        if "--worktree" not in flags or "--no-worktree" in flags or shared_target:  # `--no-worktree` undoes it (review 27b)
            side_door(f"`git config` would write configuration every worktree shares; use `git config --worktree` in {ctx.worktree_root}, or ask the user.")
        elif not flags & CONFIG_ELSEWHERE and (checkouts is None or any(ctx.policy.judge_resolved(c).place == "inside" for c in checkouts)):
            door = _lasting_door(call, command, ctx, flags, operands, branches)
            if door is not None:
                key, why = door
                side_door(f"`git config --worktree {key}` stays in the config of {ctx.worktree_root} after this command, and {why}; set it with `git -c` on the one git command that needs it, where worktree-guard can check it, or ask the user.")
    if sub == "worktree" and operands:
        found.extend(_worktree_command(call, command, ctx, base))
    return found


def _lasting_door(call: GitCall, command: ShellCommand, ctx: Context, flags: set[str], operands: list[str | None], branches: dict[str, str]) -> tuple[str, str] | None:
    """Why a `git config --worktree` write in W is a door that stays open for W's later calls (with
    extensions.worktreeConfig, git keeps it in W's own config.worktree), as (the key, why); None when it is not.
    worktree-guard reads the config a command writes only for the rest of that command, so a key that runs code or
    moves where git writes, checked in one call, took effect unseen in the next: phase 11's mutation run of rules/git
    (`remote.origin.url <W>`, then a fetch refspec into refs/heads/main, then `git pull -q origin` moved main, one call
    each), and `core.fsmonitor 'rm -f <main>/README.md'` before a `git status` in the next call removed the file
    (git 2.39). Removing a key passes: git then reads the shared config, which `git config` cannot write unrefused
    (WG305; `git branch -t` and `push -u` write an upstream there, harmless without push.default upstream)."""
    from ..shell.git_call import LOCATION_KEYS, REDIRECT_KEYS, SETUP_KEYS, allows_ext, code_kind, local_url

    if flags & {"-e", "--edit", "--rename-section", "--remove-section"}:
        return "(an edited, renamed or removed section)", "worktree-guard cannot tell which keys it holds then"
    if operands and operands[0] in ("set", "unset", "edit", "rename-section", "remove-section"):
        if operands[0] not in ("set", "unset"):
            return f"{operands[0]}", "worktree-guard cannot tell which keys it holds then"
        if operands[0] == "unset":
            return None
        operands = operands[1:]
    elif flags & {"--unset", "--unset-all"}:
        return None
    if not operands or operands[0] is None:
        return "(a key only known at run time)", "it may be one that runs code or sends a later push or fetch into a checked-out branch"
    raw = operands[0].strip()
    value = operands[1] if len(operands) > 1 else None
    key = raw.lower()
    section, _, variable = key.rpartition(".")
    section = section.partition(".")[0]
    if key in LOCATION_KEYS or key in SETUP_KEYS or key.startswith(("include.", "includeif.")):
        return raw, "a later git in it would find another work tree or read config worktree-guard has not read"
    if code_kind(key) is not None or allows_ext(key, value) or key.startswith("receive.deny"):
        return raw, "a later git in it would run that code, or let a push update a checked-out branch, without worktree-guard seeing it"
    if (section, variable) in (("remote", "url"), ("remote", "pushurl")):
        # a URL's value is a path whatever it looks like (`selfrepo`, then `ln -s . selfrepo`: review 27a)
        if value is None or local_url(value):
            return raw, "a later push or fetch in it would go to a path on this machine, which is or may come to be this repository itself, whose branches the other checkouts have checked out"
        return None
    if (section, variable) in (("branch", "remote"), ("branch", "pushremote")) or key == "remote.pushdefault":
        # a remote's name (a bare word), or a URL or path
        if value is None or (_names_a_path(value) and local_url(value)):
            return raw, "a later push or fetch in it would go to a path on this machine, which is or may come to be this repository itself, whose branches the other checkouts have checked out"
        return None
    if (section, variable) in (("url", "insteadof"), ("url", "pushinsteadof")):
        # git replaces the matched prefix by this base as text, so any local base may lead into this repository
        # (`url./.insteadOf gh:` then `git pull gh:<W's path without its slash>`: review 27a)
        base = raw[len("url."):].rpartition(".")[0]
        if local_url(base):
            return raw, "a later push or fetch in it would be rewritten to a path on this machine, which may be this repository itself, whose branches the other checkouts have checked out"
        return None
    if (section, variable) in REDIRECT_KEYS:
        return raw, "a later git in it would send or read files named elsewhere"
    if section == "remote" and variable in ("fetch", "push"):
        if value is None or _shared_branches_in(value, branches, push=variable == "push"):
            return raw, f"a later `git {variable}` or `pull` in it could move a branch another checkout has checked out"
        return None
    if section == "remote" and variable == "mirror":
        return raw, "a later `git push` in it would mirror every ref"
    if key == "push.default" and (value is None or value.strip().lower() in ("upstream", "tracking")):
        return raw, "a later `git push` in it would push to the branch's upstream, which may be a branch another checkout has checked out"
    return None


def _names_a_path(remote: str) -> bool:
    """Whether a remote given by config (`branch.<b>.remote`) is a URL or path rather than a remote's name."""
    return remote in (".", "..") or remote.startswith("~") or "/" in remote or ":" in remote


def _shared_branches_in(refspec: str, branches: dict[str, str], push: bool, glob: bool = False) -> list[str]:
    """The branches checked out in shared checkouts that a refspec's destination (`+refs/heads/*:refs/remotes/x/*`,
    `main:main`) may be: in full (`refs/heads/main`), as git finds a short one (`main`, `heads/main`), or through a
    `*`. git splits a refspec at its last colon. A fetch refspec without a colon stores nothing; a push one pushes to
    the same name. `glob`: the refspec is a bash pattern whose matches are not known, so a `?` is any character
    too, and the destination may be a full name (`x:r*/heads/main` matches a file `x:refs/heads/main`)."""
    import re

    spec = refspec.strip().lstrip("+")  # a negative refspec (`^refs/heads/main`) keeps its `^`, which no ref name holds
    source, colon, destination = spec.rpartition(":")
    if not colon:
        if not push:
            return []
        destination = spec
    if not destination:
        return []
    names = [destination] if destination.startswith("refs/") else [f"refs/heads/{destination}", f"refs/{destination}", *([destination] if glob else [])]
    wildcards = {"*": ".*", "?": "."} if glob else {"*": ".*"}
    patterns = [re.compile("".join(wildcards.get(c) or re.escape(c) for c in name)) for name in names]
    return [branch for branch in branches if any(p.fullmatch(f"refs/heads/{branch}") for p in patterns)]


def _unknown_words(call: GitCall, parsed: ParsedArgv, command: ShellCommand) -> list[tuple[str | None, bool]]:
    """A fetch's or pull's words only known at run time, as refspecs to judge: (its pattern, True) for a glob that
    can only be a refspec or `--refmap=` (its matches are then covered, `*` and `?` as any text); (None, False) for
    one that may be anything, a refspec, `-u`, `--refmap=…` or `--upload-pack=…` (review 28b: `$(echo --refmap=…)`,
    a glob that may start with `-`, an unquoted `$R` that splits into `origin main:main`, a glob without a colon that
    matches `x:main`; review 28c: `--jobs=$X` split into `--jobs=1 main:main`, `"$@"`, a quoted `"$R"` holding `-u`
    or `--upload-pack=…`), and for `fetch --stdin`, whose refspecs come from its input. Left out: the value of a
    named option other than --refmap and the code options, quoted as one parameter (`--depth="$N"`, `-j "$J"`)."""
    import re

    from ..shell.git_call import CODE_OPTIONS, QUOTED_SCALAR

    def plain(name: str) -> bool:  # an option other than --refmap and the code options, in any abbreviation
        code = CODE_OPTIONS.get(call.subcommand or "", ())
        if len(name) == 2:
            return name not in code
        return len(name) >= 3 and not "--refmap".startswith(name) and not any(o.startswith(name) for o in code)

    values_of_options = {id(word) for name, entries in parsed.options.items() if plain(name) for word, value in entries if value is None and word is not None}
    found: list[tuple[str | None, bool]] = [(None, False)] if "--stdin" in parsed.options else []
    for word, value in call.args:
        if value is not None:
            continue
        name, equals, rest = word.raw.partition("=")
        if (equals and re.fullmatch(r"--[a-z][a-z-]*", name) and plain(name) and re.fullmatch(QUOTED_SCALAR, rest)) or (id(word) in values_of_options and re.fullmatch(QUOTED_SCALAR, word.raw)):
            continue
        pattern = _refspec_pattern(word, command)
        if pattern is None or pattern[0] in "*?":  # unknown, or a glob that may start with `-`
            found.append((None, False))
        elif pattern.startswith("-"):
            name, equals, refmap = pattern.partition("=")
            known = equals and len(name) >= 3 and "--refmap".startswith(name) and ":" in refmap
            found.append((refmap, True) if known else (None, False))
        else:
            found.append((pattern, True) if ":" in pattern else (None, False))
    return found


def _refspec_pattern(word: Word, command: ShellCommand) -> str | None:
    """A word that is unknown only because bash may expand its `*` or `?` as a glob: its pattern. None when anything
    else in it is unknown: a substitution, a `[…]` or escaped glob character, a shell option that changes globbing,
    or a shell that options given on its command line may have changed (`bash -O nocaseglob -c …`, review 28b)."""
    from ..shell.steps import GLOB_OPTIONS
    from ..shell.words import glob_pattern

    if command.depth or command.state.options & GLOB_OPTIONS:
        return None
    pattern = glob_pattern(word.raw, command.state.lookup)
    return None if pattern is None or "[" in pattern or "\\" in pattern else pattern


def _runs_in_this_repository(call: GitCall, command: ShellCommand, checkouts: list[str] | None, ctx: Context) -> bool:
    """Whether git acts on this repository's refs: it runs in W or a shared checkout, is given its git dir (a bare
    one too), or where it runs is not known."""
    if checkouts is None:
        return True
    mine = {ctx.worktree_root, *ctx.layout.shared_roots}
    if any(checkout in mine for checkout in checkouts):
        return True
    common = ctx.layout.common_dir
    if not common:
        return False
    # git finds its git dir where it runs, inside the common dir too (review 28a: `git -C <bare> --work-tree=…`), or
    # is given it; a file holding `gitdir:` given as one is followed, as git does (review 28a)
    places = [canonical(call.run_dir, "/", command.home)] if call.run_dir is not None else []
    if call.git_dir is not None:
        given = canonical(call.git_dir, "/", command.home)
        places += [given, *([git_dir_of(given) or given] if os.path.isfile(given) else [])]
    return any(place == common or place.startswith(common.rstrip("/") + "/") for place in places)


#: `git init` in an existing repository with only these options writes nothing that is not there already; any
#: other option (`--shared`, `--template`, `--bare`, `--separate-git-dir`…), `-c`, or these variables may rewrite
#: the config or hooks every worktree shares (the review of issue 10: `--shared=all`, `--template=/tmp/t`).
INIT_HARMLESS_FLAGS = frozenset({"-q", "--quiet", "-b", "--initial-branch"})
INIT_VARIABLES = ("GIT_TEMPLATE_DIR", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT")


def _init(call: GitCall, command: ShellCommand, ctx: Context, base: dict) -> list[Violation]:
    """`git init` with options in a checkout of this repository re-initialises the repository every worktree shares:
    its config (`--shared`), its hooks (`--template`). WG305 inside any of them; a new repository elsewhere, and a
    plain `git init` (which only adds missing template files), pass."""
    flags = call.flags()
    if flags & {"-h", "--help"}:
        return []
    rewrites = sorted(flags - INIT_HARMLESS_FLAGS)
    if call.configs or call.config_envs:
        rewrites.append("-c")
    rewrites += [f"${v}" for v in INIT_VARIABLES if command.env(v)[0]]
    if not rewrites:
        return []  # re-initialising picks up missing template files only: "safe", as git's manual says
    from ..shell.git_call import init_git_dir

    operands = call.operands()
    places: list[str | None] = [init_git_dir(call)] if call.names_git_dir else []
    if operands:
        target = operands[0]
        places.append(None if target is None else (target if target.startswith("/") else (None if call.run_dir is None else os.path.join(call.run_dir, target))))
    else:
        places.append(call.run_dir)
    roots = [r for r in (ctx.worktree_root, *ctx.layout.shared_roots, ctx.layout.common_dir) if r]
    for place in places:
        resolved = None if place is None else canonical(place, "/", command.home)
        if resolved is None or own_process(resolved) or any(resolved == r or resolved.startswith(r.rstrip("/") + "/") for r in roots):
            where = resolved or "a directory only known at run time"
            return [Violation(code="WG305", message=f"`git init` with {', '.join(rewrites)} in {where} would rewrite the repository every worktree shares (its config, its hooks); run it outside the checkouts, in a directory of its own.", **base)]
    return []


def _worktree_config(ctx: Context) -> bool:
    """Whether the repository already keeps per-worktree config (extensions.worktreeConfig)."""
    common = ctx.layout.common_dir
    if not common:
        return False
    return read_git_core(os.path.join(common, "config")).get("extensions.worktreeconfig", "").lower() in ("true", "yes", "on", "1")


#: `git config` options that write a file other than the repository's config (judged as written elsewhere).
CONFIG_ELSEWHERE = frozenset({"--global", "--system", "-f", "--file", "--blob"})


def _writes_config(flags: set[str], operands: list[str | None]) -> bool:
    if flags & {"--get", "--get-all", "--get-regexp", "--get-urlmatch", "-l", "--list", "--get-color", "--get-colorbool"}:
        return False
    if operands and operands[0] in ("get", "list"):
        return False
    if flags & {"--unset", "--unset-all", "--add", "--replace-all", "--rename-section", "--remove-section", "-e", "--edit"}:
        return True
    if operands and operands[0] in ("set", "unset", "rename-section", "remove-section", "edit"):
        return True
    return len(operands) >= 2


def _top(directory: str) -> str:
    """The top of the worktree git finds from `directory` (the nearest directory up holding `.git`), where git has
    moved to by the time it reads a relative remote; `directory` itself outside every worktree."""
    current = directory
    while True:
        if os.path.lexists(os.path.join(current, ".git")):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            return directory
        current = parent


def _is_this_repository(remote: str, call: GitCall, command: ShellCommand, ctx: Context) -> bool:
    """Whether a fetch's or push's remote is a path (or file:// URL) into this repository: its own worktree, a shared
    checkout or the common git dir. A relative path is git's, from the top of the worktree it runs in (git moves
    there before it reads the remote: `cd src && git push ../../..` is W's `../../..`, not src's; the shell's cwd was
    used, review 23's mutation run of rules/git); where git runs is unknown, any relative path may be this
    repository. A word without a slash is a remote's name (`origin`), unless it is `.` or `..` or exists as a path
    where git runs; `host:path` is ssh; a URL of any other scheme is elsewhere."""
    if remote.startswith("file://"):
        from urllib.parse import unquote

        # git drops the host, whatever it is (`file://~/…`, `file://localhost/…`: review 27b), then decodes %XX
        # (review 27a: `/%74mp/…`); decoding first turned a host `~%2F` into a path under HOME (review 27b)
        remote = unquote("/" + remote[len("file://"):].partition("/")[2])
    elif "://" in remote:
        return False
    elif "/" not in remote and remote not in (".", ".."):
        # A remote's name, unless git finds no such remote and takes it as a path: one that exists where git runs
        # (`.git`, a symlink `to-main`) is judged as a path (review 24b: `git push .git HEAD:main` moved main's branch),
        # there or at the top of its worktree, where git looks for it (review 27a: `cd src && git pull .git …`).
        if call.run_dir is None or not any(os.path.lexists(os.path.join(d, remote)) for d in (call.run_dir, _top(call.run_dir))):
            return False
    elif ":" in remote.partition("/")[0]:
        return False  # `git@host:x/y.git`: git's scp-like ssh form, a colon before the first slash (review 24b)
    if not remote.startswith(("/", "~")) and call.run_dir is None:
        return True
    if remote.startswith("~") and command.env("HOME")[1] != command.home:
        return True  # git expands a `~` it is given with its own HOME, which the command changed (phase 10's run)
    resolved = canonical(remote, call.work_tree or _top(call.run_dir or "/"), command.home)
    if own_process(resolved):
        return True  # the git process's own /proc directory or descriptor: no repository the guard can name (stop 36)
    places = [ctx.worktree_root, *ctx.layout.shared_roots, ctx.layout.common_dir]
    # git also tries `<path>.git`, `<path>/.git` and `<path>.git/.git` (review 27a: `<base>/b` for the bare `<base>/b.git`),
    # and follows a file holding `gitdir: X` there (review 27b: `cp .git /tmp/g && git pull /tmp/g …` moved main);
    # such a file the command wrote first may name any git dir
    tried = [resolved, *(canonical(resolved + suffix, "/", command.home) for suffix in (".git", "/.git", ".git/.git"))]
    written = command.state.written
    for candidate in list(tried):
        if any(w is None or candidate == w or candidate.startswith(w.rstrip("/") + "/") for w in written):
            return True
        if os.path.isfile(candidate):
            linked = git_dir_of(candidate)
            if linked is not None:
                tried.append(linked)
    return any(p and (t == p or t.startswith(p + "/")) for t in tried for p in places)


def _worktree_command(call: GitCall, command: ShellCommand, ctx: Context, base: dict) -> list[Violation]:
    """`git worktree add|move|remove|prune|lock|unlock|repair` touching a path outside W, or removing or moving W
    itself (WG304)."""
    values = call.values()
    action = values[0]
    if action in ("list", None):
        return []
    if action == "prune":
        return [Violation(code="WG304", message="`git worktree prune` removes other worktrees' records; leave that to the user.", **base)]
    paths: list[tuple[Word, str | None]] = []
    args = call.args[1:]
    i = 0
    while i < len(args):
        word, value = args[i]
        if value in ("-b", "-B", "--reason"):
            i += 2
            continue
        if value is None or not value.startswith("-"):
            paths.append((word, value))
        i += 1
    if action == "add":
        paths = paths[:1]
    found = []
    for word, value in paths:
        if value is None or (call.run_dir is None and not value.startswith("/")):
            found.append(Violation(code="WG304", message=f"`git worktree {action}` names a path only known at run time.", **dict(base, span=word.span)))
            continue
        judgement = ctx.policy.judge(value, call.run_dir or "/")
        if action in ("remove", "move") and judgement.resolved == ctx.worktree_root and word is paths[0][0]:
            # Its own worktree gone, the agent can no longer be placed, nor its leaks found at its stop.
            found.append(Violation(
                code="WG304",
                message=f"`git worktree {action}` would take away this agent's own worktree {ctx.worktree_root}; leave that to the user.",
                **dict(base, span=word.span, path=value, resolved=judgement.resolved),
            ))
        elif judgement.place not in ("inside", "protected"):
            found.append(Violation(
                code="WG304",
                message=f"`git worktree {action}` would touch {judgement.resolved}, outside this agent's worktree {ctx.worktree_root}.",
                **dict(base, span=word.span, path=value, resolved=judgement.resolved),
            ))
    return found
