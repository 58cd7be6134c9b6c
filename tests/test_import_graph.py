"""The import graph has no circle (issue 12: cli and client imported each other; the hook process now has one home)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "worktree_guard"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """Every package module `path` imports, at module level or inside a function (TYPE_CHECKING blocks excluded)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return {m for m in found if m in modules and m != name}


def graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(paths)
    return {name: imports_of(path, modules) for name, path in paths.items()}


def reachable(edges: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    stack = list(edges[start])
    while stack:
        node = stack.pop()
        if node not in seen:
            seen.add(node)
            stack.extend(edges.get(node, ()))
    return seen


def test_no_module_of_the_package_imports_itself_back() -> None:
    edges = graph()
    assert "worktree_guard.client" in edges["worktree_guard.hook_process"]
    assert "worktree_guard.hook_process" in edges["worktree_guard.cli"] and "worktree_guard.hook_process" in edges["worktree_guard.daemon"]
    circles = {module: sorted(reachable(edges, module) & {m for m in edges if module in reachable(edges, m)}) for module in edges if module in reachable(edges, module)}
    assert circles == {}


def test_the_daemons_client_imports_only_built_in_helpers() -> None:
    """fast_hook's path to the daemon must not load the guard: the client reaches no module but private_dir,
    effects (the audit lines the daemon hands over; standard library only, nothing at import) and digest (the
    built-in SHA-256 of the daemon's key)."""
    edges = graph()
    assert reachable(edges, "worktree_guard.client") <= {"worktree_guard.private_dir", "worktree_guard.effects", "worktree_guard.digest"}
    assert reachable(edges, "worktree_guard.effects") == set()
    assert reachable(edges, "worktree_guard.digest") == set()
