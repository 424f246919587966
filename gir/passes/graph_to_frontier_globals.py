"""`graph-to-frontier`'s promotion of globals: the non-vector globals of a
program (scalars, the edgeset, vertexsets) become the SSA values `main` stores
in them, carried through the `scf.if`, `scf.while` and `scf.for` ops that store
them."""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import graph
from gir.ir_walk import walk
from gir.passes.ir_utils import statement

def _zero_of(value_type: Attribute) -> Operation | None:
    if isinstance(value_type, IntegerType):
        return arith.ConstantOp(IntegerAttr(0, value_type))
    try:
        return arith.ConstantOp(FloatAttr(0.0, value_type))  # type: ignore[arg-type]
    except Exception:  # noqa: BLE001
        return None


@dataclass
class _Globals:
    """The non-vector globals of a module, promoted to SSA values in `main`."""

    declared: dict[str, graph.GlobalOp]
    entry: Block
    """`main`'s entry block, where the zero of a global read before any store goes."""
    zeros: dict[str, SSAValue] = field(default_factory=dict)
    stores: dict[Operation, list[str]] = field(default_factory=dict)
    """`stored`'s answers, by op: an op's list is built from those of the ops
    it holds, so that nested control flow is walked once, not once per level."""

    def name(self, op: Operation) -> str | None:
        """The promoted global that a `graph.global_load`/`global_store` names, else None."""
        if not isinstance(op, graph.GlobalLoadOp | graph.GlobalStoreOp):
            return None
        name = op.global_name.root_reference.data
        return name if name in self.declared else None

    def current(self, name: str, values: dict[str, SSAValue], user: Operation) -> SSAValue:
        """The value of global `name` where `values` holds: the last value stored,
        else its zero (an error for a type without one)."""
        if name in values:
            return values[name]
        if name not in self.zeros:
            zero = _zero_of(self.declared[name].global_type)
            if zero is None:
                raise UserError.at(user, f"error: global '@{name}' is read before it is set")
            zero.results[0].name_hint = name
            Rewriter.insert_op(zero, InsertPoint.at_start(self.entry))
            self.zeros[name] = zero.results[0]
        return self.zeros[name]

    def stored(self, op: Operation) -> list[str]:
        """The promoted globals stored anywhere inside `op`'s regions, in order.
        Asked of an op before any op inside it is promoted (promotion goes from
        the outside in), so a remembered answer stays true."""
        if op not in self.stores:
            names: dict[str, None] = {}
            for region in op.regions:
                for block in region.blocks:
                    for child in block.ops:
                        if isinstance(child, graph.GlobalStoreOp) and (name := self.name(child)) is not None:
                            names.setdefault(name)
                        elif child.regions:
                            names.update(dict.fromkeys(self.stored(child)))
            self.stores[op] = list(names)
        return self.stores[op]


def promote_globals(module: ModuleOp, main: func.FuncOp) -> None:
    """Replaces the loads and stores of non-vector globals in `main` by SSA values:
    a load reads the value last stored before it, and the `scf.if`, `scf.while`
    and `scf.for` ops whose bodies store a global carry its value (as results,
    and as loop arguments), the way the frontend carries the locals they set."""
    declared = {
        child.sym_name.data: child
        for child in module.ops
        if isinstance(child, graph.GlobalOp)
        and not isinstance(child.global_type, graph.VectorType)
    }
    globals_ = _Globals(declared, main.body.block)
    _promote_block(main.body.block, {}, globals_)
    for child in walk(main):
        if (name := globals_.name(child)) is not None:
            raise UserError.at(child, f"error: global '@{name}' could not be promoted")


def _promote_block(block: Block, values: dict[str, SSAValue], globals_: _Globals) -> None:
    """Promotes the globals in `block`'s ops, in order, from `values` (each
    global's value on entry), which ends up holding their values at its end."""
    for op in list(block.ops):
        name = globals_.name(op)
        if isinstance(op, graph.GlobalLoadOp) and name is not None:
            op.result.replace_all_uses_with(globals_.current(name, values, op))
            Rewriter.erase_op(op)
        elif isinstance(op, graph.GlobalStoreOp) and name is not None:
            if op.value.name_hint is None:
                op.value.name_hint = name
            values[name] = op.value
            Rewriter.erase_op(op)
        elif isinstance(op, scf.IfOp):
            _promote_if(op, values, globals_)
        elif isinstance(op, scf.WhileOp):
            _promote_while(op, values, globals_)
        elif isinstance(op, scf.ForOp):
            _promote_for(op, values, globals_)
        elif op.regions:
            _promote_device(op, values, globals_)


def _promote_device(op: Operation, values: dict[str, SSAValue], globals_: _Globals) -> None:
    """Promotes the globals read by the functions a traversal or vertex map runs
    on the GPU: they read the host's current values (kernel arguments, later)."""
    for child in list(walk(op)):
        name = globals_.name(child)
        if isinstance(child, graph.GlobalStoreOp) and name is not None:
            raise UserError.at(child,
                f"error: global '@{name}' is set in a function that runs on the GPU "
                f"({statement(op)}), which is not supported yet"
            )
        if isinstance(child, graph.GlobalLoadOp) and name is not None:
            child.result.replace_all_uses_with(globals_.current(name, values, op))
            Rewriter.erase_op(child)


def _carry(block: Block, carried: list[str], inits: list[SSAValue]) -> dict[str, SSAValue]:
    """Appends an argument to `block` per carried global; returns them by name."""
    args: dict[str, SSAValue] = {}
    for name, init in zip(carried, inits, strict=True):
        args[name] = block.insert_arg(init.type, len(block.args))
        args[name].name_hint = name
    return args


def _extend_terminator(block: Block, extra: list[SSAValue]) -> None:
    """Appends `extra` to the operands of `block`'s `scf.yield`/`scf.condition`."""
    terminator = block.last_op
    assert isinstance(terminator, scf.YieldOp | scf.ConditionOp)
    terminator.operands = (*terminator.operands, *extra)


def _detach_regions(op: Operation) -> list[Region]:
    """Takes all of `op`'s regions out of it, in order, for the op replacing it."""
    return [op.detach_region(region) for region in list(op.regions)]


def _replace_carrying(
    op: Operation, new: Operation, carried: list[str], values: dict[str, SSAValue]
) -> None:
    """Replaces `op` by `new`, which has `op`'s results then one per carried
    global: those become the globals' values after it."""
    new.attributes.update(op.attributes)
    new.location = op.location
    kept = len(op.results)
    for name, result in zip(carried, new.results[kept:], strict=True):
        result.name_hint = name
        values[name] = result
    Rewriter.replace_op(op, new, new.results[:kept])


def _promote_if(op: scf.IfOp, values: dict[str, SSAValue], globals_: _Globals) -> None:
    """An `scf.if` yields the globals either branch stores (an `else` that
    does not exist yet yields their values before the `if`)."""
    carried = globals_.stored(op)
    inits = [globals_.current(name, values, op) for name in carried]
    for region in op.regions:
        if region.blocks:
            branch = dict(values)
            _promote_block(region.block, branch, globals_)
            if carried:
                _extend_terminator(region.block, [branch[name] for name in carried])
    if not carried:
        return
    then_region, else_region = _detach_regions(op)
    if not else_region.blocks:
        else_region.add_block(Block([scf.YieldOp(*inits)]))
    types = [*op.result_types, *(init.type for init in inits)]
    _replace_carrying(op, scf.IfOp(op.cond, types, then_region, else_region), carried, values)


def _promote_while(op: scf.WhileOp, values: dict[str, SSAValue], globals_: _Globals) -> None:
    """An `scf.while` carries the globals its condition or body stores: after
    its own arguments, through `scf.condition` and `scf.yield`."""
    carried = globals_.stored(op)
    inits = [globals_.current(name, values, op) for name in carried]
    before, after = op.before_region.block, op.after_region.block
    testing = values | _carry(before, carried, inits)
    _promote_block(before, testing, globals_)
    _extend_terminator(before, [testing[name] for name in carried])
    looping = values | _carry(after, carried, inits)
    _promote_block(after, looping, globals_)
    _extend_terminator(after, [looping[name] for name in carried])
    if not carried:
        return
    before_region, after_region = _detach_regions(op)
    types = [*op.result_types, *(init.type for init in inits)]
    new = scf.WhileOp([*op.arguments, *inits], types, before_region, after_region)
    _replace_carrying(op, new, carried, values)


def _promote_for(op: scf.ForOp, values: dict[str, SSAValue], globals_: _Globals) -> None:
    """An `scf.for` carries the globals its body stores, after its own `iter_args`."""
    carried = globals_.stored(op)
    inits = [globals_.current(name, values, op) for name in carried]
    body = op.body.block
    looping = values | _carry(body, carried, inits)
    _promote_block(body, looping, globals_)
    _extend_terminator(body, [looping[name] for name in carried])
    if not carried:
        return
    (body_region,) = _detach_regions(op)
    new = scf.ForOp(op.lb, op.ub, op.step, [*op.iter_args, *inits], body_region)
    _replace_carrying(op, new, carried, values)
