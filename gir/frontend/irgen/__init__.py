"""GraphIt syntax tree to graph-dialect IR.

`build_module(program, filename)` checks the program (`sema`), evaluates its
schedule section (`schedule`), and builds one `builtin.module`:

* every program-level `const` becomes a `graph.global`, in source order; its
  initializer runs at the start of `@main` (`graph.load_edges`,
  `graph.get_vertices`, `graph.vector_fill`, `graph.out_degrees`,
  `graph.global_store`), the graph's load first and the others in source
  order (GraphIt sizes a vertex vector declared before the load by the graph
  too); vectors without one are filled with zero. A local
  vector (`var v : vector{Vertex}(int) = -1;` in a host function) is a
  `graph.global` too, initialized where its declaration runs;
* every function becomes a `func.func` (a named output is a local returned at the
  end);
* locals are SSA values: `while`, `for` and `if` become `scf.while`, `scf.for` and
  `scf.if` that carry (yield) every outer local their body reassigns. Vertexsets,
  lists and queues are references, so `frontier.addVertex(v)` needs no SSA update;
* `break` becomes a flag: a loop with a `break` carries an `i1` "broken" local,
  false on entry, that the `break` sets; the statements after an `if` that may
  break run under `scf.if` on the flag being false, and the loop condition is
  false once it is set (the user's condition is not evaluated then). A `for` with
  a `break` becomes an `scf.while` carrying its counter, since `scf.for` cannot
  stop early. Everything stays structured control flow, so the host printers and
  the graph-level passes see ordinary loops and ifs;
* labelled statements get their label path (`label` of edgeset/vertexset applies,
  `graph.label` on loops and ifs) and their schedule (`schedule` of an edgeset
  apply, `graph.schedule` on a kernel-fused `scf.while`);
* every op is located at the statement (or declaration) it was built for,
  `loc("prog.gt":LINE:COL)`, by `emit` (see `IRGen.located`).

The package is split by concern: `values` (IR types and operator tables),
`locals` (what a loop or `if` carries), and one builder mixin per concern over
`base.IRGenBase` (`declarations`, `statements`, `control_flow`, `expressions`,
`calls`), combined in `IRGen`; `nesting` measures what was built against
`gir.frontend.limits`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.utils.exceptions import VerifyException

from gir.diagnostics import SourceError, UserError
from gir.dialects import graph, host
from gir.frontend import ast
from gir.frontend.deletes import check_deletes
from gir.frontend.exports import main_program
from gir.frontend.irgen.calls import CallGen
from gir.frontend.irgen.control_flow import ControlFlowGen
from gir.frontend.irgen.declarations import DeclarationGen
from gir.frontend.irgen.expressions import ExpressionGen
from gir.frontend.irgen.statements import StatementGen
from gir.frontend.notes import Warnings
from gir.frontend.schedule import ProgramReorder, resolve_schedule_section
from gir.frontend.sema import check_program
from gir.ir_walk import walk
from gir.verifier import verify_module


class IRGen(DeclarationGen, StatementGen, ControlFlowGen, ExpressionGen, CallGen):
    """Builds the module of one checked program (`build`)."""


def build_module(program: ast.Program, filename: str, strict_schedule: bool = False) -> ModuleOp:
    """Checks `program`, attaches its schedules and builds its graph-dialect module.

    Raises `SourceError` for errors in the program or its schedule section;
    warnings go to stderr (schedule warnings are errors with `strict_schedule`).
    """
    program = main_program(program, filename)
    sema = check_program(program, filename)
    # the bodies sema checked: specializations of functions over vectors, not those
    check_deletes([function.decl for function in sema.functions.values()], filename)
    warnings = Warnings(filename, strict_schedule)
    for pos, message in sema.conversions:
        warnings.warning(pos, message)
    section = resolve_schedule_section(program, sema, filename, warnings)
    bindings = section.bindings
    module = IRGen(program, sema, bindings, filename).build()
    reorder = section.reorder
    if reorder is None and sema.relabels:
        reorder = ProgramReorder(RELABEL_ORDERING, sema.relabels[0])
    if reorder is not None:
        _reorder_graph(module, reorder, filename)
    if section.exchange is not None:
        module.attributes[host.EXCHANGE_FORMAT] = StringAttr(section.exchange.value)
    try:
        verify_module(module)
    except VerifyException as error:
        raise UserError(
            f"{filename}: error: internal frontend error, the generated IR does not verify: {error}"
        ) from None
    return module


RELABEL_ORDERING = "DEGREE"
"""The ordering of GraphIt's `edges.relabel()` when the schedule names none
(`program->configReorder(NAME)` does)."""


def _reorder_graph(module: ModuleOp, reorder: ProgramReorder, filename: str) -> None:
    """Puts `program->configReorder(NAME)` on the program's graph load."""
    loads = [op for op in walk(module) if isinstance(op, graph.LoadEdgesOp)]
    if not loads:
        raise SourceError(
            filename, reorder.pos.line, reorder.pos.col,
            "configReorder and relabel() relabel the program's graph, but the program loads none",
        )  # fmt: skip
    for load in loads:
        load.reorder = StringAttr(reorder.name)
