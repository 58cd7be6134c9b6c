"""Hidden write surfaces (SPEC §11, WG702): programs that write beyond their operands. Data, extended by plugins.

A `Surface` row says when a program writes more than it names (a subcommand, an option) and what it then
writes, relative to the project directory it acts on (the cwd, or a directory option such as `npm --prefix`):
fixed files and trees (`package.json`, `node_modules/`), and, for formatters, fixers, code generators and
snapshot updaters, every operand as a whole tree (the project directory when none is given). A package manager
does not stop at its directory: it walks up to the nearest manifest (`package.json`, `pyproject.toml`,
`Cargo.toml`, …), and a workspace keeps its lockfile at the workspace root above that. So a row that names its
`manifests` writes its files at the project directory and at every directory above it, up to the checkout's
root, that holds one of them (`find_projects`, given by the caller, which knows the files). A check mode
(`ruff format --check`, `black --diff`) writes nothing: `without_options`. A worker must own all of it;
`surfaces_of` lists what a command writes, and the wave rule checks each against the ownership.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

# Runners that start the program named by their first operand (`npx prettier`, `python -m black`).
RUNNERS: dict[str, tuple[str, ...]] = {"npx": (), "bunx": (), "pnpx": (), "uvx": (), "pipx": ("run",)}
MODULE_RUNNERS = ("python", "python3", "py")


@dataclass(frozen=True, slots=True)
class Surface:
    """What a program writes beyond its operands, and when.

    kind: in words, for messages ("package manager", "formatter", …).
    subcommands: the first operand must be one of these (empty: any, or none at all).
    without_subcommand: the row also applies when the program is run with no operand (`yarn`, `ruff format`'s `.`).
    with_options: only when one of these options is given (`--fix`, `-w`, `-u`); empty: always.
    without_options: never when one of these is given (a check mode: `--check`, `--diff`).
    files: paths relative to the project directory, written whenever the row applies (`name/` is a whole tree).
    operand_trees: every operand after the subcommand is written, a directory as a whole tree; none given: the
        project directory itself.
    dir_options: options whose value is the project directory (`--prefix`, `-C`).
    value_options: other options that take a separate value, so that it is not read as an operand.
    manifests: the files that mark a project; the program acts on the nearest one above its directory, and on a
        workspace root above that, so `files` are written at each directory from there up that holds one.
    """

    kind: str
    subcommands: frozenset[str] = frozenset()
    without_subcommand: bool = False
    with_options: frozenset[str] = frozenset()
    without_options: frozenset[str] = frozenset()
    files: tuple[str, ...] = ()
    operand_trees: bool = False
    dir_options: frozenset[str] = frozenset()
    value_options: frozenset[str] = frozenset()
    manifests: tuple[str, ...] = ()


def _f(*names: str) -> frozenset[str]:
    return frozenset(names)


NPM_FILES = ("package.json", "package-lock.json", "npm-shrinkwrap.json", "node_modules/")
PYTHON_ENV = (".venv/",)
SNAPSHOTS = "snapshot updater"

BUILTIN_SURFACES: dict[str, tuple[Surface, ...]] = {
    # package managers: manifests, lockfiles, installed trees
    "npm": (Surface("package manager", _f("install", "i", "add", "ci", "uninstall", "remove", "rm", "un", "update", "up", "upgrade", "dedupe", "prune", "link", "audit", "pkg", "init", "version"), files=NPM_FILES, dir_options=_f("--prefix", "-C"), manifests=("package.json",), value_options=_f("--registry", "--tag", "-w", "--workspace")),),
    "pnpm": (Surface("package manager", _f("install", "i", "add", "remove", "rm", "uninstall", "un", "update", "up", "upgrade", "dedupe", "prune", "link", "import", "init"), without_subcommand=True, files=("package.json", "pnpm-lock.yaml", "pnpm-workspace.yaml", "node_modules/"), dir_options=_f("-C", "--dir"), manifests=("package.json", "pnpm-workspace.yaml"), value_options=_f("--filter", "-F")),),
    "yarn": (Surface("package manager", _f("install", "add", "remove", "upgrade", "up", "dedupe", "link", "init", "import"), without_subcommand=True, files=("package.json", "yarn.lock", "node_modules/", ".pnp.cjs", ".pnp.loader.mjs", ".yarn/"), dir_options=_f("--cwd"), manifests=("package.json",)),),
    "bun": (Surface("package manager", _f("install", "i", "add", "a", "remove", "rm", "update", "link", "init"), files=("package.json", "bun.lock", "bun.lockb", "node_modules/"), dir_options=_f("--cwd"), manifests=("package.json",)),),
    "pip": (Surface("package manager", _f("install", "uninstall"), files=(*PYTHON_ENV, "venv/", "build/"), value_options=_f("-r", "--requirement", "-c", "--constraint", "-t", "--target", "--prefix", "-i", "--index-url")),),
    "pip3": (Surface("package manager", _f("install", "uninstall"), files=(*PYTHON_ENV, "venv/", "build/"), value_options=_f("-r", "--requirement", "-c", "--constraint", "-t", "--target", "--prefix", "-i", "--index-url")),),
    "uv": (
        Surface("package manager", _f("add", "remove", "lock", "sync", "run", "init", "version", "tool"), files=("pyproject.toml", "uv.lock", *PYTHON_ENV), dir_options=_f("--directory", "--project"), manifests=("pyproject.toml",), value_options=_f("--python", "-p", "--with", "--group", "--extra", "--package", "--index")),
        Surface("package manager", _f("pip", "venv"), files=PYTHON_ENV, dir_options=_f("--directory", "--project")),
    ),
    "poetry": (Surface("package manager", _f("add", "remove", "lock", "install", "update", "sync", "init", "version"), files=("pyproject.toml", "poetry.lock", *PYTHON_ENV), dir_options=_f("-C", "--directory", "-P", "--project"), manifests=("pyproject.toml",), value_options=_f("--group", "-G", "--extras", "-E")),),
    "pipenv": (Surface("package manager", _f("install", "uninstall", "lock", "sync", "update", "upgrade"), files=("Pipfile", "Pipfile.lock", *PYTHON_ENV), manifests=("Pipfile",)),),
    "cargo": (
        Surface("package manager", _f("add", "remove", "rm", "update", "generate-lockfile", "build", "b", "check", "c", "test", "t", "run", "r", "bench", "doc", "install", "fetch", "vendor"), files=("Cargo.toml", "Cargo.lock", "target/"), dir_options=_f("-C"), manifests=("Cargo.toml",), value_options=_f("-p", "--package", "--features", "-F", "--bin", "--example", "--test", "--manifest-path", "--target-dir", "-j", "--jobs", "--target", "--profile")),
        Surface("formatter", _f("fmt", "fix", "clippy"), without_options=_f("--check"), operand_trees=True, dir_options=_f("-C"), value_options=_f("-p", "--package", "--manifest-path"), manifests=("Cargo.toml",)),
        Surface(SNAPSHOTS, _f("insta"), operand_trees=True),
    ),
    "go": (
        Surface("package manager", _f("get", "mod", "work", "install"), files=("go.mod", "go.sum", "go.work", "go.work.sum", "vendor/"), dir_options=_f("-C"), manifests=("go.mod", "go.work"), value_options=_f("-modfile", "-o")),
        Surface("code generator", _f("generate", "fmt", "fix"), operand_trees=True, dir_options=_f("-C"), value_options=_f("-run", "-skip")),
    ),
    "bundle": (Surface("package manager", _f("install", "add", "remove", "update", "lock"), without_subcommand=True, files=("Gemfile", "Gemfile.lock", "vendor/"), manifests=("Gemfile",)),),
    "composer": (Surface("package manager", _f("install", "require", "remove", "update", "dump-autoload"), files=("composer.json", "composer.lock", "vendor/"), dir_options=_f("-d", "--working-dir"), manifests=("composer.json",)),),
    # formatters and fixers on what they are given (a directory: its whole tree)
    "ruff": (
        Surface("formatter", _f("format"), without_options=_f("--check", "--diff"), operand_trees=True, value_options=_f("--config", "--target-version", "--line-length", "--exclude")),
        Surface("fixer", _f("check"), with_options=_f("--fix", "--unsafe-fixes", "--add-noqa"), operand_trees=True, value_options=_f("--config", "--select", "--ignore", "--extend-select", "--target-version", "--exclude", "--output-format")),
    ),
    "black": (Surface("formatter", without_options=_f("--check", "--diff"), operand_trees=True, without_subcommand=True, value_options=_f("-l", "--line-length", "-t", "--target-version", "--config", "--include", "--exclude", "--extend-exclude")),),
    "isort": (Surface("formatter", without_options=_f("--check", "--check-only", "-c", "--diff"), operand_trees=True, without_subcommand=True, value_options=_f("--settings-path", "--profile", "-l", "--line-length")),),
    "pre-commit": (Surface("fixer (its hooks rewrite files)", _f("run", "try-repo"), without_subcommand=True, files=("./",), value_options=_f("--files", "--from-ref", "--to-ref", "-c", "--config", "--hook-stage")),
                   Surface("hook installer", _f("install", "install-hooks", "uninstall", "autoupdate", "migrate-config"), files=(".pre-commit-config.yaml", ".git/"))),
    "autopep8": (Surface("formatter", with_options=_f("-i", "--in-place"), operand_trees=True),),
    "prettier": (Surface("formatter", with_options=_f("--write", "-w"), operand_trees=True, value_options=_f("--config", "--ignore-path", "--plugin", "--parser")),),
    "eslint": (Surface("fixer", with_options=_f("--fix"), operand_trees=True, without_subcommand=True, value_options=_f("-c", "--config", "--ext", "--rule", "--format", "-f", "-o", "--output-file")),),
    "biome": (Surface("formatter", _f("format", "lint", "check"), with_options=_f("--write", "--fix", "--apply"), operand_trees=True),),
    "gofmt": (Surface("formatter", with_options=_f("-w"), operand_trees=True),),
    "goimports": (Surface("formatter", with_options=_f("-w"), operand_trees=True),),
    "rustfmt": (Surface("formatter", without_options=_f("--check"), operand_trees=True),),
    "clang-format": (Surface("formatter", with_options=_f("-i"), operand_trees=True, value_options=_f("--style")),),
    "shfmt": (Surface("formatter", with_options=_f("-w", "--write"), operand_trees=True),),
    "terraform": (Surface("formatter", _f("fmt"), without_options=_f("-check", "--check"), operand_trees=True),),
    # code generators (they write wherever their configuration says: the whole project or the named tree)
    "protoc": (Surface("code generator", operand_trees=False, files=("./",)),),
    "buf": (Surface("code generator", _f("generate"), operand_trees=True),),
    "openapi-generator": (Surface("code generator", _f("generate"), files=("./",)),),
    "openapi-generator-cli": (Surface("code generator", _f("generate"), files=("./",)),),
    "prisma": (Surface("code generator", _f("generate", "migrate", "db"), files=("./",)),),
    "sqlc": (Surface("code generator", _f("generate"), files=("./",)),),
    # snapshot updaters (every snapshot under what they are given)
    "jest": (Surface(SNAPSHOTS, with_options=_f("-u", "--updateSnapshot", "--ci=false"), operand_trees=True, without_subcommand=True, value_options=_f("-c", "--config", "-t", "--testNamePattern")),),
    "vitest": (Surface(SNAPSHOTS, with_options=_f("-u", "--update"), operand_trees=True, without_subcommand=True, value_options=_f("-c", "--config", "-t", "--testNamePattern")),),
    "pytest": (Surface(SNAPSHOTS, with_options=_f("--snapshot-update", "--inline-snapshot", "--force-regen", "--regen-all"), operand_trees=True, without_subcommand=True, value_options=_f("-k", "-m", "-c", "-p", "--rootdir", "-o")),),
}


@dataclass(frozen=True, slots=True)
class Written:
    """One thing a command writes beyond its operands: a path relative to the command's cwd, maybe a whole tree."""

    kind: str
    path: str | None  # None: only known at run time
    tree: bool


def _parse(argv: list[str | None], surface: Surface) -> tuple[set[str], list[str | None], str | None, bool]:
    """(options present, operands, project directory or None, dynamic project directory?)."""
    options: set[str] = set()
    operands: list[str | None] = []
    project: str | None = "."
    dynamic = False
    takes_value = surface.dir_options | surface.value_options
    i = 0
    while i < len(argv):
        value = argv[i]
        i += 1
        if value is None:
            operands.append(None)
            continue
        if value == "--":
            operands.extend(argv[i:])
            break
        if value.startswith("-") and len(value) > 1:
            name, eq, attached = value.partition("=")
            options.add(name)
            if name.startswith("-") and not name.startswith("--") and len(name) > 2 and name[:2] in takes_value:
                name, eq, attached = name[:2], "=", name[2:]  # `-Cdir`
                options.add(name)
            elif not eq and not name.startswith("--") and len(name) > 2:
                options.update(f"-{letter}" for letter in name[1:])  # `-ir` is `-i -r`
            if name in takes_value:
                if not eq:
                    attached = argv[i] if i < len(argv) else None
                    i += 1
                if name in surface.dir_options:
                    project = attached
                    dynamic = attached is None
            continue
        operands.append(value)
    return options, operands, project, dynamic


#: Where a row with `manifests` acts, given its project directory (relative to the cwd) and the manifest names:
#: that directory and every one above it, up to the checkout, that holds a manifest (absolute or cwd-relative).
FindProjects = Callable[[str, tuple[str, ...]], list[str]]


def surfaces_of(
    name: str, argv: list[str | None], table: dict[str, tuple[Surface, ...]], depth: int = 0, find_projects: FindProjects | None = None,
) -> list[Written]:
    """What `name argv…` writes beyond its operands, by the table; [] when no row applies."""
    if name in RUNNERS and depth < 3:
        rest = list(argv)
        for word in RUNNERS[name]:
            if rest and rest[0] == word:
                rest = rest[1:]
        while rest and rest[0] is not None and rest[0].startswith("-"):
            rest = rest[1:]
        if rest and rest[0] is not None:
            return surfaces_of(rest[0].rsplit("/", 1)[-1].split("@", 1)[0] if not rest[0].startswith("@") else rest[0], rest[1:], table, depth + 1, find_projects)
        return []
    if name.rstrip("0123456789.") in MODULE_RUNNERS and depth < 3 and "-m" in argv:
        at = argv.index("-m")
        module = argv[at + 1] if at + 1 < len(argv) else None
        return surfaces_of(module, argv[at + 2:], table, depth + 1, find_projects) if module else []
    written: list[Written] = []
    for surface in table.get(name, ()):
        options, operands, project, dynamic = _parse(argv, surface)
        rest = operands
        if surface.subcommands:
            if not operands:
                if not surface.without_subcommand:
                    continue
            elif operands[0] is None:
                written.append(Written(surface.kind, None, True))  # `npm $cmd`: anything
                continue
            elif operands[0] not in surface.subcommands:
                continue
            else:
                rest = operands[1:]
        if surface.with_options and not (options & surface.with_options):
            continue
        if options & surface.without_options:
            continue
        base = None if dynamic else project or "."
        projects = find_projects(base, surface.manifests) if base is not None and surface.manifests and find_projects is not None else []
        bases: list[str | None] = list(dict.fromkeys([base, *projects]))
        for at in bases:
            for relative in surface.files:
                tree = relative.endswith("/")
                path = None if at is None else _join(at, relative.rstrip("/") or ".")
                written.append(Written(surface.kind, path, tree))
        if surface.operand_trees:
            targets = [o for o in rest if o is None or not o.startswith("-")]
            if not targets:
                written.append(Written(surface.kind, projects[0] if projects else base, True))  # the nearest project
            for target in targets:
                written.append(Written(surface.kind, None if target is None or base is None else _join(base, target), True))
    return written


def _join(base: str, relative: str) -> str:
    if relative.startswith("/"):
        return relative
    if relative in (".", "./"):
        return base
    return relative if base == "." else f"{base.rstrip('/')}/{relative}"
