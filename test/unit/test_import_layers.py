"""gir's source structure: its packages are layered, and code is not kept in strings.

Every import in every module under `gir/` (at module level or inside a function,
since a lazy import is a dependency all the same; not those under `if
TYPE_CHECKING:`, which only annotations read) is read with `ast`. Grouped by
gir's top-level packages and modules (`gir.dialects`, `gir.passes`,
`gir.targets`, `gir.runtime`, `gir.tools`, `gir.api`, ...), they must form no
cycle: each package only imports those below it (for example `gir.protocol`,
`gir.output` and `gir.cpp` below both `gir.targets` and `gir.runtime`, which do
not import each other, and `gir.executor` above them).
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

GIR = Path(__file__).parents[2] / "gir"

ALLOWED_UPWARD_IMPORTS: dict[tuple[str, str], str] = {}
"""Imports that would close a cycle, each with why it is tolerated for now (none
today); `test_allowed_upward_imports_still_exist` says when an entry is stale."""

MAX_STRING_LINES = 100
"""The longest string literal gir's Python may hold: longer text (a C++
runtime, a template) belongs in a file of its own."""


def _modules() -> Iterator[tuple[str, Path]]:
    """Every module under `gir/`, by dotted name (a package by its own name)."""
    for path in sorted(GIR.rglob("*.py")):
        parts = list(path.relative_to(GIR.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        yield ".".join(parts), path


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes inside `if TYPE_CHECKING:` blocks: imports for annotations,
    never executed, so they are no dependency at run time."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for statement in node.body:
                hidden.update(id(child) for child in ast.walk(statement))
    return hidden


def _imports() -> Iterator[tuple[str, str, str]]:
    """(importing module, imported gir name, `file:line`) for every import of gir
    that runs."""
    for module, path in _modules():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        tree = ast.parse(path.read_text(), str(path))
        hidden = _type_checking_only(tree)
        for node in ast.walk(tree):
            if id(node) in hidden:
                continue
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([node.module] if node.module else []))
                names = [f"{base}.{alias.name}" for alias in node.names]
            for name in names:
                if name.startswith("gir."):
                    yield module, name, f"{path.relative_to(GIR.parent)}:{node.lineno}"


def _package(name: str) -> str | None:
    """The top-level package or module of gir that `name` lies in (None: `gir` itself)."""
    parts = name.split(".")
    return ".".join(parts[:2]) if len(parts) > 1 else None


def _package_imports() -> dict[tuple[str, str], list[str]]:
    """Each import between two of gir's top-level packages, with where it is made."""
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for module, name, where in _imports():
        source, target = _package(module), _package(name)
        if source is not None and target is not None and source != target:
            if where not in edges[(source, target)]:
                edges[(source, target)].append(where)
    return edges


def _cycles(edges: set[tuple[str, str]]) -> list[set[str]]:
    """The strongly connected groups of more than one package (Tarjan's algorithm)."""
    successors: dict[str, set[str]] = defaultdict(set)
    for source, target in edges:
        successors[source].add(target)
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for successor in sorted(successors[node]):
            if successor not in order:
                visit(successor)
                low[node] = min(low[node], low[successor])
            elif successor in stack:
                low[node] = min(low[node], order[successor])
        if low[node] == order[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(successors):
        if node not in order:
            visit(node)
    return groups


def test_gir_packages_import_each_other_without_cycles() -> None:
    edges = _package_imports()
    checked = set(edges) - set(ALLOWED_UPWARD_IMPORTS)
    report = []
    for group in _cycles(checked):
        report.append(f"cycle between {', '.join(sorted(group))}:")
        for source, target in sorted(checked):
            if source in group and target in group:
                report.append(f"  {source} -> {target}: {', '.join(edges[(source, target)])}")
    assert not report, "gir's packages import each other in a cycle:\n" + "\n".join(report)


def test_the_runtime_and_the_targets_stay_apart() -> None:
    """The targets print what the runtime runs, through `gir.protocol` and
    `gir/cpp`; `gir.executor`, above both, puts them together."""
    edges = _package_imports()
    for source, target in [
        ("gir.runtime", "gir.targets"),
        ("gir.targets", "gir.runtime"),
        ("gir.runtime", "gir.tools"),
        ("gir.runtime", "gir.api"),
    ]:
        assert (source, target) not in edges, f"{source} imports {target}: {edges[(source, target)]}"


def test_allowed_upward_imports_still_exist() -> None:
    edges = _package_imports()
    stale = [f"{source} -> {target}" for source, target in ALLOWED_UPWARD_IMPORTS if (source, target) not in edges]
    assert not stale, f"remove from ALLOWED_UPWARD_IMPORTS, no longer imported: {stale}"


def test_a_cycle_is_reported() -> None:
    assert _cycles({("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")}) == [{"a", "b", "c"}]
    assert _cycles({("a", "b"), ("b", "c")}) == []


def test_no_string_literal_is_longer_than_a_hundred_lines() -> None:
    long = []
    for _, path in _modules():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Constant | ast.JoinedStr) and isinstance(getattr(node, "value", ""), str):
                span = (node.end_lineno or node.lineno) - node.lineno + 1
                lines = max(span, str(getattr(node, "value", "")).count("\n") + 1)
                if lines > MAX_STRING_LINES:
                    long.append(f"{path.relative_to(GIR.parent)}:{node.lineno} ({lines} lines)")
    assert not long, f"string literals over {MAX_STRING_LINES} lines (move them to files): {long}"
