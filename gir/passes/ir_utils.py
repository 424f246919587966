"""Small IR helpers shared by gir's passes (not a pass).

Statement names for diagnostics, symbol lookups, cloning a function's body into a
region, inlining calls, and tracing where an index value comes from.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import graph
from gir.ir_walk import walk


def statement(op: Operation) -> str:
    """How diagnostics name the statement of `op`: `statement 's0:s1'`."""
    label = op.properties.get("label") or op.attributes.get("graph.label")
    if isinstance(label, StringAttr):
        return f"statement '{label.data}'"
    udf = op.properties.get("udf")
    if isinstance(udf, SymbolRefAttr):
        return f"the unlabelled statement applying '@{udf.root_reference.data}'"
    return f"an unlabelled '{op.name}'"


def functions(module: ModuleOp) -> dict[str, func.FuncOp]:
    """The module's functions by name."""
    return {op.sym_name.data: op for op in module.ops if isinstance(op, func.FuncOp)}


def main_function(module: ModuleOp) -> func.FuncOp:
    """`func.func @main`, or a user error."""
    main = functions(module).get("main")
    if main is None:
        raise UserError("error: the program has no 'main' function")
    return main


def symbol_refs(op: Operation) -> Iterator[tuple[str, SymbolRefAttr]]:
    """The (key, symbol) pairs among `op`'s properties and attributes."""
    for key, value in [*op.properties.items(), *op.attributes.items()]:
        if isinstance(value, SymbolRefAttr):
            yield key, value


APPLY_OPS = (graph.EdgeSetApplyOp, graph.VertexSetApplyOp, graph.VertexSetFilterOp)
"""The graph ops that run user functions on the GPU."""

FUNCTION_ROLES = ("udf", "to_filter", "src_filter", "dst_filter", "filter")
"""Properties of apply ops that name a user function."""


def applied_functions(op: Operation) -> Iterator[tuple[str, str]]:
    """(role, function name) of each user function an apply op runs."""
    for role in FUNCTION_ROLES:
        ref = op.properties.get(role)
        if isinstance(ref, SymbolRefAttr):
            yield role, ref.root_reference.data


def body_region(function: func.FuncOp, yield_op: type[Operation]) -> Region:
    """A copy of `function`'s body whose `func.return` is replaced by `yield_op`
    (built from the returned values)."""
    if len(function.body.blocks) != 1:
        raise UserError.at(
            function, f"error: function '@{function.sym_name.data}' has more than one block"
        )
    region = function.body.clone()
    block = region.block
    inline_calls_in(block, _module_of(function))
    terminator = block.last_op
    assert isinstance(terminator, func.ReturnOp)
    Rewriter.replace_op(terminator, yield_op(*terminator.arguments))
    return region


def _module_of(op: Operation) -> ModuleOp:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ModuleOp):
        parent = parent.parent_op()
    assert parent is not None
    return parent


def inline_calls_in(root: Block | Region | Operation, module: ModuleOp) -> None:
    """Inlines every `func.call` under `root` (recursively) with the callee's body.
    Callees are single-block functions of `module`; calls of declarations (extern
    functions) stay."""
    table = functions(module)
    depth = 0
    while True:
        calls = [op for op in _walk(root) if isinstance(op, func.CallOp) and not _is_extern(op, table)]
        if not calls:
            return
        depth += 1
        if depth > 64:
            raise UserError.at(calls[0], "error: recursive function calls are not supported")
        for call in calls:
            callee = table.get(call.callee.root_reference.data)
            if callee is None or not callee.body.blocks:
                raise UserError.at(
                    call,
                    f"error: call to '@{call.callee.root_reference.data}', "
                    "which is not a function of the program"
                )
            inline_call(call, callee)


def _is_extern(call: func.CallOp, table: dict[str, func.FuncOp]) -> bool:
    """Whether `call` calls a declaration (an `extern func`: device code the
    printers call by name, never inlined)."""
    callee = table.get(call.callee.root_reference.data)
    return callee is not None and callee.is_declaration


def _walk(root: Block | Region | Operation) -> Iterable[Operation]:
    if isinstance(root, Block):
        return [op for child in root.ops for op in walk(child)]
    return list(walk(root))


def inline_function(
    function: func.FuncOp, args: Sequence[SSAValue], point: InsertPoint
) -> list[SSAValue]:
    """Inserts a copy of `function`'s (single-block) body at `point` with `args` for
    its parameters; returns the values it returned."""
    if len(function.body.blocks) != 1:
        raise UserError.at(
            function, f"error: function '@{function.sym_name.data}' has more than one block"
        )
    block = function.body.clone().block
    terminator = block.last_op
    assert isinstance(terminator, func.ReturnOp)
    results = list(terminator.arguments)
    Rewriter.erase_op(terminator, safe_erase=False)
    Rewriter.inline_block(block, point, args)
    return results


def inline_call(call: func.CallOp, callee: func.FuncOp) -> None:
    """Replaces `call` by a copy of `callee`'s (single-block) body."""
    results = inline_function(callee, call.arguments, InsertPoint.before(call))
    for old, new in zip(call.results, results, strict=True):
        old.replace_all_uses_with(new)
    Rewriter.erase_op(call)


_SAME_VALUE_CASTS = (arith.ExtSIOp, arith.ExtUIOp, arith.TruncIOp, arith.IndexCastOp)


def index_source(value: SSAValue) -> SSAValue:
    """The value an index is a conversion of: looks through `graph.vertex_id`,
    `graph.to_vertex` and integer casts."""
    while True:
        owner = value.owner
        if isinstance(owner, graph.VertexIdOp):
            value = owner.vertex
        elif isinstance(owner, graph.ToVertexOp):
            value = owner.id
        elif isinstance(owner, _SAME_VALUE_CASTS):
            value = owner.input
        else:
            return value


def parameter_index(value: SSAValue, function_block: Block) -> int | None:
    """Which parameter of the function whose entry block is `function_block` the
    index `value` is (through conversions), or None."""
    source = index_source(value)
    if isinstance(source, BlockArgument) and source.block is function_block:
        return source.index
    return None


def constant_value(value: SSAValue) -> Attribute | None:
    """The attribute of an `arith.constant` defining `value`, or None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp):
        return owner.value
    return None
