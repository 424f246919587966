"""gir's modules share helpers through public names: no module of `gir/`
imports another module's private (`_name`) helper, so that a pass's (or a
tool's) internals can change without breaking another (the scan and reduce
expansions share theirs through `gir/passes/gpu_parallel_primitives.py`,
gir-bench its cells through `CompiledCell` and `check_cell`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[2] / "gir"


def private_imports(path: Path) -> list[str]:
    """`module._name` for each private name `path` imports from a gir module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gir"):
            found += [
                f"{node.module}.{alias.name}"
                for alias in node.names
                if alias.name.startswith("_") and not alias.name.startswith("__")
            ]
    return found


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_imports_private_helpers(path: Path) -> None:
    assert private_imports(path) == []


def test_the_check_sees_a_private_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("from gir.passes.gpu_expand_scan import _named, ScanNames\n")
    assert private_imports(module) == ["gir.passes.gpu_expand_scan._named"]
