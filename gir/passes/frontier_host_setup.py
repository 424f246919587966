"""`frontier-host-setup`: the graph upload, the vector buffers and `main`'s own
vector accesses at the GPU level."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, SymbolRefAttr, i32
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from gir.diagnostics import UserError
from gir.dialects import frontier, gir_gpu, graph, host
from gir.dialects.gir_gpu import AtomicKind, buffer_type
from gir.dialects.host import GraphArray, GraphSize
from gir.ir_walk import walk
from gir.passes.gpu_elements import (
    combine,
    compare,
    element_position,
    element_type,
    from_element,
    global_vectors,
    to_element,
    zero,
)
from gir.passes.gpu_kernels import GpuContext, as_i32, constant, replace, resize
from gir.passes.ir_utils import main_function, statement


@dataclass(frozen=True)
class FrontierHostSetup(ModulePass):
    """Uploads the graph, makes a device buffer per vector and lowers main's own vector accesses.

    The graph is loaded once where `graph.load_edges` was (`host.load_graph` and
    its sizes); every global vector becomes a device buffer (bool vectors: i8)
    named with `host.bind_global` right after the graph load and zero-filled
    unless `main` fills it first or the caller supplies it (`supplied`: the run
    copies the caller's values in when it binds it); vector fills, out-degrees and element
    reads/writes in `main` (outside map bodies) become `host.fill` / `copy` /
    `read` / `write`; vertices carried by `scf` ops become i32 ids; a
    `frontier.size` of a host frontier inside a map body moves before the map
    (its value reaches the kernel as an argument). Map bodies are left to
    `frontier-lower-device-ops`, which also drops the globals and the edgeset.

    Before:
    ```mlir
    graph.global @dist : !graph.vector<i32>
    func.func @main() {
      %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
      %inf = arith.constant 1000000 : i32
      graph.vector_fill @dist, %inf : i32
      graph.store %z, @dist[%s] : i32, i32
      ...
    }
    ```
    After:
    ```mlir
    func.func @main() {
      %graph = host.load_graph {argv = 1 : i64}
      %num_vertices = host.graph_size %graph vertices : i32
      %dist = host.alloc %num_vertices : i32 -> memref<?xi32>
      host.bind_global %dist as "dist" : memref<?xi32>
      %e = graph.load_edges {argv = 1 : i64} : !graph.edgeset
      host.fill %dist, %inf, %num_vertices : memref<?xi32>, i32, i32
      host.write %z, %dist[%s] : i32, memref<?xi32>, i32
      ...
    }
    ```
    """

    name = "frontier-host-setup"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        main = main_function(op)
        _check_input(op, main)
        _hoist_frontier_sizes(main)
        _retype_vertices(main)
        load = _load_graph(main)
        _check_extern_calls(main, load)
        gpu = GpuContext.of(op)
        _allocate_buffers(gpu, main, load)
        _lower_block(gpu, main.body.block)
        _extern_buffer_types(op)


def _check_input(module: ModuleOp, main: func.FuncOp) -> None:
    vectors = global_vectors(module)
    for op in walk(module):
        if isinstance(op, frontier.EdgeTraverseOp):
            raise UserError.at(op,
                f"error: load balance {op.load_balance.data} of "
                f"{statement(op)} was not lowered: run frontier-lower-load-balance first"
            )
        if isinstance(op, func.FuncOp) and op is not main and not op.is_declaration:
            raise UserError.at(op,
                f"error: function '@{op.sym_name.data}' is left: run "
                "graph-to-frontier before frontier-to-gpu"
            )
        if isinstance(op, graph.GlobalOp) and op.sym_name.data not in vectors:
            raise UserError.at(op,
                f"error: global '@{op.sym_name.data}' is left: run "
                "graph-to-frontier before frontier-to-gpu"
            )


def _check_extern_calls(main: func.FuncOp, load: graph.LoadEdgesOp | None) -> None:
    """A host extern sees vertex ids and vectors as the device holds them: a
    reordered graph's would be in gir's order, not the user's, so it is refused."""
    if load is None or load.reorder is None:
        return
    for op in walk(main):
        if isinstance(op, graph.CallExternOp | graph.ApplyExternOp):
            raise UserError.at(op,
                f"error: extern function '{op.callee.root_reference.data}' is called from the "
                f"host of a program that reorders its graph ({load.reorder.data}): it would see "
                "vertex ids and vectors in gir's order; drop the reordering"
            )


def _hoist_frontier_sizes(main: func.FuncOp) -> None:
    """Moves `frontier.size` of a host frontier out of map bodies (GraphIt's
    `vertices.size()` in a vertex function): the size is computed on the host
    before the launch and reaches the kernel as a scalar argument."""
    for map_op in [op for op in walk(main) if isinstance(op, frontier.MapOps)]:
        for size in [op for op in walk(map_op) if isinstance(op, frontier.SizeOp)]:
            if not _defined_inside(size.frontier, map_op):
                size.detach()
                Rewriter.insert_op(size, InsertPoint.before(map_op))


def _defined_inside(value: SSAValue, op: Operation) -> bool:
    """Whether `value` is defined in one of `op`'s regions."""
    owner = value.owner
    if isinstance(owner, Block):
        parent = owner.parent_op()
        return parent is not None and op.is_ancestor(parent)
    return owner is not op and op.is_ancestor(owner)


def _retype_vertices(main: func.FuncOp) -> None:
    """Vertices carried by scf ops become i32 ids."""
    for op in list(walk(main)):
        if not isinstance(op, scf.WhileOp | scf.ForOp | scf.IfOp):
            continue
        for result in list(op.results):
            if isinstance(result.type, graph.VertexType):
                Rewriter.replace_value_with_new_type(result, i32)
        for region in op.regions:
            for block in region.blocks:
                for arg in list(block.args):
                    if isinstance(arg.type, graph.VertexType):
                        Rewriter.replace_value_with_new_type(arg, i32)


def _load_graph(main: func.FuncOp) -> graph.LoadEdgesOp | None:
    """The program's graph load, with `host.load_graph` before it; None when the
    program loads no graph (it computes on scalars and fixed-size vectors)."""
    loads = [op for op in walk(main) if isinstance(op, graph.LoadEdgesOp)]
    if not loads:
        return None
    if len(loads) != 1:
        raise UserError.at(loads[1],
            "error: the program must load exactly one graph (graph.load_edges) "
            f"in main, it loads {len(loads)}"
        )
    (load,) = loads
    if load.parent_block() is not main.body.block:
        raise UserError.at(load, "error: the graph must be loaded at the top level of main")
    edges_type = load.result.type
    assert isinstance(edges_type, graph.EdgeSetType)
    handle = Builder(InsertPoint.before(load)).insert(
        host.LoadGraphOp(
            argv=None if load.argv is None else load.argv.value.data,
            path=None if load.path is None else load.path.data,
            weighted=edges_type.is_weighted,
            reorder=None if load.reorder is None else load.reorder.data,
        )
    ).result
    handle.name_hint = "graph"
    return load


def _allocate_buffers(gpu: GpuContext, main: func.FuncOp, load: graph.LoadEdgesOp | None) -> None:
    first_uses = _first_uses(main)
    order = {op: index for index, op in enumerate(main.body.block.ops)}
    globals_ = {op.sym_name.data: op for op in gpu.module.ops if isinstance(op, graph.GlobalOp)}
    for name, vector in global_vectors(gpu.module).items():
        first = first_uses.get(name)
        if load is None and vector.per_vertex and GraphSize.VERTICES not in gpu.sizes:
            raise UserError.at(globals_[name],
                f"error: vertex vector '@{name}' needs a graph, but the program loads none "
                "(load one with `load(argv[1])`, declare the vertices with `const vertices : "
                "vertexset{Vertex} = new vertexset{Vertex}(N);` for a literal N, or give the "
                "vector a fixed size)"
            )
        if load is not None and first is not None and order[first] < order[load]:
            raise UserError.at(first, f"error: vector '@{name}' is used before the graph is loaded")
        b = gpu.setup_builder()
        count = _length(gpu, b, vector)
        buffer = b.insert(host.AllocOp(count, element_type(vector))).result
        buffer.name_hint = name
        reordered = load is not None and load.reorder is not None
        b.insert(
            host.BindGlobalOp(
                buffer,
                name,
                globals_[name].unsigned is not None,
                vertex_indexed=reordered and vector.per_vertex,
                vertex_values=reordered and globals_[name].vertex_values is not None,
            )
        )
        if not isinstance(first, graph.VectorFillOp | graph.OutDegreesOp) and globals_[name].supplied is None:
            b.insert(host.FillOp(buffer, zero(b, element_type(vector)), count))


def _first_uses(main: func.FuncOp) -> dict[str, Operation]:
    """The top-level op of main where each vector is first named."""
    first: dict[str, Operation] = {}
    for top in main.body.block.ops:
        for op in walk(top):
            for value in [*op.properties.values(), *op.attributes.values()]:
                refs = value.data if isinstance(value, ArrayAttr) else [value]
                for ref in refs:
                    if isinstance(ref, SymbolRefAttr):
                        first.setdefault(ref.root_reference.data, top)
    return first


def _length(gpu: GpuContext, b: Builder, vector: graph.VectorType) -> SSAValue:
    """How many scalars `vector`'s buffer holds: one per vertex or its fixed
    size, times the lanes of a vector of fixed-size vectors (an i32, so
    `|V| * lanes` must stay below 2^31)."""
    count = gpu.vertices if vector.per_vertex else constant(b, vector.size.value.data)
    if not vector.has_lanes:
        return count
    return b.insert(arith.MuliOp(count, constant(b, vector.lane_count))).result


def _vector(gpu: GpuContext, ref: SymbolRefAttr) -> tuple[SSAValue, graph.VectorType]:
    name = ref.root_reference.data
    return gpu.buffer(name), gpu.vectors[name]


def _lower_extern_call(gpu: GpuContext, b: Builder, call: graph.CallExternOp) -> None:
    """`graph.call_extern` -> `host.call_extern`: each vector argument is its
    device buffer, in the declaration's order (the host copies it for the call)."""
    scalars, vectors = iter(call.args), iter(call.vectors.data)
    args = [
        _vector(gpu, next(vectors))[0] if isinstance(t, graph.VectorType) else next(scalars)
        for t in call.declaration().function_type.inputs.data
    ]
    replace(call, list(b.insert(host.CallExternOp(call.callee.root_reference.data, args, call.res.types)).results))


def _lower_extern_apply(gpu: GpuContext, b: Builder, apply: graph.ApplyExternOp) -> None:
    """`graph.apply_extern` -> `host.apply_extern` over the vertex count (and,
    over edges, the loaded graph), with the device buffer of every global vector
    of the program: the user's host code reads them by name."""
    callee = apply.callee.root_reference.data
    args = [gpu.vertices]
    if apply.over.data == "edges":
        args.append(gpu.graph)
    names = sorted(gpu.vectors)
    lowered = host.ApplyExternOp(callee, apply.over.data, [*args, *(gpu.buffer(n) for n in names)], names)
    lowered.location = apply.location  # the user's errors are reported at the apply
    b.insert(lowered)
    Rewriter.erase_op(apply)


def _extern_buffer_types(module: ModuleOp) -> None:
    """Extern declarations take a vector as its device buffer (`memref<?xT>`),
    as `host.call_extern` passes it."""
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.is_declaration:
            inputs = [
                buffer_type(element_type(t)) if isinstance(t, graph.VectorType) else t
                for t in op.function_type.inputs.data
            ]
            op.function_type = func.FunctionType.from_lists(inputs, op.function_type.outputs.data)


def _lower_block(gpu: GpuContext, block: Block) -> None:
    for op in list(block.ops):
        if isinstance(op, frontier.MapOps):
            continue
        _lower_host_op(gpu, op)
        for region in op.regions:
            for inner in region.blocks:
                _lower_block(gpu, inner)


def _lower_host_op(gpu: GpuContext, op: Operation) -> None:
    """Lowers one vector or vertex op of `main` (outside map bodies)."""
    b = Builder(InsertPoint.before(op))
    if isinstance(op, graph.VectorFillOp):
        buffer, vector = _vector(gpu, op.vector)
        count = _length(gpu, b, vector)
        b.insert(host.FillOp(buffer, to_element(b, op.value, vector), count))
        Rewriter.erase_op(op)
    elif isinstance(op, graph.OutDegreesOp):
        buffer, vector = _vector(gpu, op.vector)
        if vector.element_type != i32:
            raise UserError.at(op, "error: getOutDegrees() is stored in vectors of int (i32) only")
        degrees = gpu.graph_array(GraphArray.OUT_DEGREES)
        b.insert(host.CopyOp(degrees, buffer, gpu.vertices))
        Rewriter.erase_op(op)
    elif isinstance(op, graph.VectorReduceOp):
        buffer, vector = _vector(gpu, op.vector)
        count = _length(gpu, b, vector)
        kind = AtomicKind(op.kind.data.value)
        replace(op, [b.insert(gir_gpu.VectorReduceOp(kind, buffer, count)).result])
    elif isinstance(op, graph.VectorCopyOp):
        source, vector = _vector(gpu, op.source)
        target, _ = _vector(gpu, op.target)
        count = _length(gpu, b, vector)
        b.insert(host.CopyOp(source, target, count))
        Rewriter.erase_op(op)
    elif isinstance(op, graph.LoadOp):
        buffer, vector = _vector(gpu, op.vector)
        index = element_position(b, vector, op.index, op.lane, on_device=False)
        read = b.insert(host.ReadOp(buffer, index)).result
        replace(op, [from_element(b, read, vector)])
    elif isinstance(op, graph.StoreOp):
        buffer, vector = _vector(gpu, op.vector)
        index = element_position(b, vector, op.index, op.lane, on_device=False)
        b.insert(host.WriteOp(to_element(b, op.value, vector), buffer, index))
        Rewriter.erase_op(op)
    elif isinstance(op, graph.ReduceOp):
        buffer, vector = _vector(gpu, op.vector)
        index = element_position(b, vector, op.index, op.lane, on_device=False)
        old = from_element(b, b.insert(host.ReadOp(buffer, index)).result, vector)
        new = combine(b, op.kind.data, old, op.value)
        b.insert(host.WriteOp(to_element(b, new, vector), buffer, index))
        replace(op, [compare(b, "ne", new, old)])
    elif isinstance(op, graph.CompareAndSwapOp):
        buffer, vector = _vector(gpu, op.vector)
        index = element_position(b, vector, op.index, op.lane, on_device=False)
        old = from_element(b, b.insert(host.ReadOp(buffer, index)).result, vector)
        success = compare(b, "eq", old, op.expected)
        write = Block([host.WriteOp(op.desired, buffer, index), scf.YieldOp()])
        b.insert(scf.IfOp(success, [], Region(write)))
        replace(op, [success])
    elif isinstance(op, graph.CallExternOp):
        _lower_extern_call(gpu, b, op)
    elif isinstance(op, graph.ApplyExternOp):
        _lower_extern_apply(gpu, b, op)
    elif isinstance(op, graph.VertexIdOp):
        replace(op, [resize(b, op.vertex, op.result.type)])
    elif isinstance(op, graph.ToVertexOp):
        replace(op, [as_i32(b, op.id)])
