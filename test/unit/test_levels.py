"""Which level a module is at, decided by `gir.dialects.levels`."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.parser import Parser

from gir.diagnostics import UserError
from gir.dialects import register_dialects
from gir.dialects.levels import Level, check_level, level_of, level_violation
from gir.passes.registry import parse_pipeline

LIT = Path(__file__).parent.parent / "lit"


def parse(text: str):
    ctx = Context()
    register_dialects(ctx)
    return Parser(ctx, text).parse_module()


def lowered(pipeline: str):
    module = parse((LIT / "passes" / "Inputs" / "bfs.mlir").read_text())
    ctx = Context()
    register_dialects(ctx)
    import gir.passes  # noqa: F401  (fills the registry)

    parse_pipeline(pipeline).apply(ctx, module)
    return module


def test_each_lowering_step_lands_on_its_level():
    assert level_of(parse((LIT / "passes" / "Inputs" / "bfs.mlir").read_text())) == Level.GRAPH
    frontier = lowered("graph-default-schedule,graph-specialize-udfs,graph-insert-atomics,graph-to-frontier")
    assert level_of(frontier) == Level.FRONTIER
    gpu = lowered("lower-to-gpu")
    assert level_of(gpu) == Level.GPU
    check_level(gpu, Level.GPU)


def test_the_gpu_level_holds_no_graph_op():
    module = lowered("graph-default-schedule,graph-specialize-udfs,graph-insert-atomics,graph-to-frontier")
    op, reason = level_violation(module, Level.GPU)
    assert op.dialect_name() in ("graph", "frontier")
    assert "is not an op of the GPU level" in reason


GPU_KERNEL = """
  gir_gpu.kernel @k(%b: memref<?xi32>) {
    gir_gpu.return
  }
"""


@pytest.mark.parametrize(
    ("main_body", "extra", "message"),
    [
        (
            "%c = arith.constant 0 : index\n    %g = host.load_graph {argv = 1 : i64}\n"
            "    %r = host.graph_array %g row_ptr : memref<?xi32>\n"
            "    %x = memref.load %r[%c] : memref<?xi32>",
            "",
            "'memref.load' is device code: it belongs inside a gir_gpu.kernel",
        ),
        ("%i = gir_gpu.id global", "", "'gir_gpu.id' is device code"),
        ("", "  func.func @helper() {\n    func.return\n  }\n", "one host function @main, not @helper"),
        ("%s = graph.argv_int argv[1] : i32", "", "'graph.argv_int' is not an op of the GPU level"),
    ],
)
def test_gpu_level_placement_rules(main_body, extra, message):
    module = parse(
        f"builtin.module {{{GPU_KERNEL}{extra}  func.func @main() {{\n    {main_body}\n"
        "    func.return\n  }\n}"
    )
    assert level_of(module) != Level.GPU
    with pytest.raises(UserError, match=f"not at the GPU level: .*{message[:30]}"):
        check_level(module, Level.GPU)


def test_a_gpu_module_needs_main():
    module = parse(f"builtin.module {{{GPU_KERNEL}}}")
    assert level_of(module) == Level.GPU
    with pytest.raises(UserError, match="no host function 'func.func @main'"):
        check_level(module, Level.GPU)


def test_a_module_mixing_levels_has_none():
    module = parse(
        "builtin.module {\n  graph.global @p : !graph.vector<i32>\n"
        f"{GPU_KERNEL}  func.func @main() {{\n    func.return\n  }}\n}}"
    )
    assert level_of(module) is None


def test_kernel_names_must_be_c_identifiers():
    # gir_gpu.kernel's own verifier rejects it, so no GPU-level module holds one.
    with pytest.raises(Exception, match="not a C identifier"):
        parse(
            'builtin.module {\n  gir_gpu.kernel @"k\\"x"(%b: memref<?xi32>) {\n    gir_gpu.return\n  }\n'
            "  func.func @main() {\n    func.return\n  }\n}"
        )
