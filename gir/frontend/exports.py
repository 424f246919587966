"""GraphIt `export func` entry points: each export is compiled as a program of its own.

An export takes the graph as its one edgeset parameter, numbers and vectors of
numbers (or of fixed-size vectors) after it, and returns a vector or a number,
or several in parentheses (GraphIt's grammar for
results, `'->' (ident_decl | '(' ident_decl {',' ident_decl} ')')`):

```
export func pagerank_delta(edges : edgeset{Edge}(Vertex,Vertex), rounds : int) -> rank : vector{Vertex}(double)
    ...
end
export func bfs(edges : edgeset{Edge}(Vertex,Vertex), src : int) -> (parent : vector{Vertex}(int), level : vector{Vertex}(int))
    ...
end
```

`export_program` turns the file into the program whose `main` is that export's
body, so that the whole-program lowering (`lower-to-gpu`) and the runtime take it
as they take any program:

- the edgeset parameter becomes the program's graph, `const edges : ... =
  load(argv[1]);`, placed before every other constant (vectors are sized by it,
  and constants may read it, e.g. `edges.getVertices()`); the edgesets the file
  itself loads (for its `main`) are left out;
- the scalar parameters become `main`'s first locals, read from argv[2],
  argv[3], ... in order (float and double parameters read the argument as a float);
- each output names a vector the export returns: when the body assigns a global
  vector to it at its top level (`rank = cur_rank;`, GraphIt's way) that global
  is returned and the assignment dropped; otherwise the output becomes a global
  vector of its own (zero at the start), which the body and its functions write.
  The signature lists the returned vectors in declaration order.

- each vector parameter becomes a program-level vector of its name, `supplied`:
  bound but not zeroed, the caller's array copied in when the run binds it
  (a vector of fixed-size vectors as rows: `ExportSignature.lanes`).

An export without an edgeset parameter that `owns_graph` (its file declares no
edgeset, or its body loads a fixed file, `edges = load("FILE");`) takes no
graph from its caller: its program loads none, or that file, and its numbers
are argv[1..]. An edgeset parameter set into a program-level edgeset
(`edges = input_edges;`) is loaded as that edgeset's type (GraphIt gives a
`float`-weighted parameter to an `int`-weighted global).

In a file where some export takes no edgeset (GraphIt's `set_graph(edges)` then
`do_pagerank_delta()`), the exports share state (`shares_state`, and
`gir.api.ExportSession` on the caller's side): such an export loads the
program-level edgeset declared without a value (the caller gives it the graph an
earlier call received), the program-level vectors declared without a value are
supplied (the values the last call left), the scalars so declared are read from
argv after the export's numbers and stored at the end into one-element carriers
(`NAME_state`), and a vertexset so declared is the graph's vertices.

`main` (if the file has one) and the other exports are left out, and so are the
schedule lines that name their labels. `main_program` is the file for the
command-line tools: its `main`, without the exports.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from gir.diagnostics import SourceError, UserError
from gir.frontend import ast

NOT_SCALAR_PARAMETERS = ("bool", "string")
"""Scalar types an export cannot take: argv gives numbers."""


@dataclass(frozen=True)
class ExportSignature:
    """What a caller of an export needs: its parameters and its result."""

    name: str
    graph: str | None
    """The name of the edgeset parameter (the program's argv[1]); None for an
    export that runs on the graph an earlier export call was given."""
    scalars: tuple[tuple[str, str], ...]
    """The scalar parameters after the graph, as (name, GraphIt type), in argv order."""
    results: tuple[str, ...]
    """The global vectors returned, one per output in declaration order (empty
    for an export without output; two outputs may return the same vector)."""
    outputs: tuple[str, ...]
    """The outputs' names in the source, in declaration order."""
    scalar_outputs: tuple[bool, ...] = ()
    """Per output, whether it is a scalar (returned as a Python number, carried
    in its `results` vector, a `vector[1]`) rather than a vertex vector."""
    params: tuple[str, ...] = ()
    """Every parameter after the graph, in declaration order (how a caller
    passes them): the scalars and the vector parameters."""
    vectors: tuple[str, ...] = ()
    """The vector parameters: global vectors of the same names whose values the
    caller gives (numpy arrays, one element per vertex or per fixed index)."""
    state_vectors: tuple[str, ...] = ()
    """In a file whose exports share state: the program-level vectors declared
    without a value, carried from one export call to the next."""
    state_scalars: tuple[tuple[str, str, str], ...] = ()
    """In such a file: the program-level scalars declared without a value, as
    (name, GraphIt type, carrier): read from argv after the scalar parameters,
    and stored into their `carrier` (a `vector[1]`) when the export ends."""
    own_graph: bool = False
    """Whether the export, taking no edgeset, needs no graph from its caller: it
    loads a fixed file itself, or its file declares no graph (`owns_graph`);
    its numbers are then argv[1..]."""
    lanes: tuple[tuple[str, int], ...] = ()
    """The vector parameters and returned vectors whose elements are fixed-size
    vectors, with their length: passed and returned as two-dimensional arrays
    (one row per element)."""

    def __str__(self) -> str:
        shown = [name if name in self.vectors else f"{name} : {dict(self.scalars)[name]}" for name in self.params]
        params = ", ".join([*([self.graph] if self.graph is not None else []), *shown])
        if not self.outputs:
            return f"{self.name}({params})"
        outputs = self.outputs[0] if len(self.outputs) == 1 else f"({', '.join(self.outputs)})"
        return f"{self.name}({params}) -> {outputs}"


def exported(program: ast.Program) -> list[ast.FuncDecl]:
    """The program's `export func`s, in source order."""
    return [decl for decl in program.functions if decl.exported]


def main_program(program: ast.Program, filename: str) -> ast.Program:
    """`program` without its exports (what `gir-opt` and `gir-run` compile), once
    their signatures are checked; a program of exports only is an error that
    says how to call them."""
    exports = exported(program)
    if not exports:
        return program
    outputs = _own_outputs(program, filename)
    if not any(decl.name == "main" and not decl.exported for decl in program.functions):
        names = ", ".join(f"'{decl.name}'" for decl in exports)
        raise SourceError(
            filename,
            exports[0].pos.line,
            exports[0].pos.col,
            f"the program has no 'main' function; its exports ({names}) are called from "
            f"Python: gir.compile(...).{exports[0].name}("
            + ("..." if owns_graph(exports[0], program) else "graph, ...") + ")",
        )
    return _keeping(program, [*(decl for decl in program.decls if decl not in exports), *outputs])


def export_program(
    program: ast.Program, name: str, filename: str
) -> tuple[ast.Program, ExportSignature]:
    """The program that runs export `name` as its `main`, and the export's
    signature; a `UserError` when `program` has no export of that name."""
    decl = next((decl for decl in exported(program) if decl.name == name), None)
    if decl is None:
        names = ", ".join(decl.name for decl in exported(program)) or "none"
        raise UserError(f"{filename}: error: no 'export func {name}' in the program (its exports: {names})")
    stateful = shares_state(program)
    graph_param, params = _split_params(decl, filename, stateful or owns_graph(decl, program))
    scalars = [param for param in params if isinstance(param.type, ast.ScalarTypeExpr)]
    vectors = [param for param in params if param not in scalars]
    body, results = _bind_outputs(decl, program, filename)
    own_graph = graph_param is None and owns_graph(decl, program)
    graph: ast.ConstDecl | None
    if graph_param is not None:
        body, bound_graphs = _bind_graph_globals(body, graph_param, program)
        # the program-level edgeset says how the program reads the weights (GraphIt
        # gives a `float`-weighted parameter to an `int`-weighted global)
        read_as = next((d.type for d in bound_graphs.values()), graph_param.type)
        graph = ast.ConstDecl(
            graph_param.pos, graph_param.name, graph_param.pos, read_as,
            ast.Load(graph_param.pos, ast.Argv(graph_param.pos, 1)),
        )
    elif own_graph:
        body, graph = _own_loaded_graph(body, program)
        bound_graphs = {} if graph is None else {graph.name: None}
    else:
        shared = _shared_graph(program, decl, filename)
        graph = ast.ConstDecl(shared.pos, shared.name, shared.name_pos, shared.type, ast.Load(shared.pos, ast.Argv(shared.pos, 1)))
        bound_graphs = {shared.name: None}
    first_argv = 2 if graph_param is not None or not own_graph else 1
    reads = [
        ast.VarDecl(param.pos, param.name, param.pos, param.type, ast.Argv(param.pos, index))
        for index, param in enumerate(scalars, start=first_argv)
    ]
    assert graph is not None or not stateful
    state = _State.of(program, graph.name, first_argv + len(scalars)) if stateful and graph else _State()
    main = ast.FuncDecl(decl.pos, "main", [], None, reads + body + state.stores())
    elements = [d for d in program.decls if isinstance(d, ast.ElementDecl)]
    supplied = [
        ast.ConstDecl(param.pos, param.name, param.pos, param.type, None, supplied=True) for param in vectors
    ]
    rest = [
        state.declaration(bound_graphs.get(d.name, d)) if isinstance(d, ast.ConstDecl) else d
        for d in program.decls
        if (isinstance(d, ast.ConstDecl) and not isinstance(d.init, ast.Load) and bound_graphs.get(d.name, d) is not None)
        or (isinstance(d, ast.FuncDecl) and d.name != "main" and not d.exported)
    ]
    signature = ExportSignature(
        name,
        graph_param.name if graph_param is not None else None,
        tuple((param.name, _type_name(param.type)) for param in scalars),
        tuple(results),
        tuple(output.name for output in decl.outputs),
        tuple(isinstance(output.type, ast.ScalarTypeExpr) for output in decl.outputs),
        tuple(param.name for param in params),
        tuple(param.name for param in vectors),
        tuple(state.vectors),
        tuple(state.scalars),
        own_graph,
        tuple(_lanes(program, decl, vectors, results)),
    )
    outputs = _own_outputs(program, filename, decl)
    loaded = [] if graph is None else [graph]
    return _keeping(program, [*elements, *loaded, *outputs, *rest, *supplied, *state.carriers, main]), signature


def shares_state(program: ast.Program) -> bool:
    """Whether the file's exports share state as GraphIt's do when one of them
    takes no graph (`set_graph(edges)` stores it and sets globals up,
    `do_pagerank_delta()` then runs on them); an export that loads its graph
    itself, or runs on none, shares nothing."""
    return any(
        not any(isinstance(param.type, ast.EdgeSetTypeExpr) for param in decl.params)
        and not owns_graph(decl, program)
        for decl in exported(program)
    )


def owns_graph(decl: ast.FuncDecl, program: ast.Program) -> bool:
    """Whether export `decl`, taking no edgeset, needs no graph from its caller:
    its body loads a fixed file into a program-level edgeset
    (`edges = load("graph.el");`, GraphIt's simple_export_func.gt), or the file
    declares no edgeset at all (it computes on numbers and fixed-size vectors)."""
    if any(isinstance(param.type, ast.EdgeSetTypeExpr) for param in decl.params):
        return False
    if not any(isinstance(d.type, ast.EdgeSetTypeExpr) for d in program.consts):
        return True
    return _own_loaded_graph(decl.body, program)[1] is not None


def _own_loaded_graph(
    body: list[ast.Stmt], program: ast.Program
) -> tuple[list[ast.Stmt], ast.ConstDecl | None]:
    """The body without its top-level `G = load("FILE");` of a program-level
    edgeset `G` declared without a value, and `G` declared with that load as
    its value; (body, None) where there is no such statement."""
    unset = _unset_edgesets(program)
    for stmt in body:
        target, value = _sets_one_of(stmt, unset)
        if target is not None and isinstance(value, ast.Load) and isinstance(value.source, ast.StringLit):
            kept = [other for other in body if other is not stmt]
            return kept, replace(unset[target], init=value)
    return body, None


def _unset_edgesets(program: ast.Program) -> dict[str, ast.ConstDecl]:
    """The program-level edgesets declared without a value, by name."""
    return {d.name: d for d in program.consts if isinstance(d.type, ast.EdgeSetTypeExpr) and d.init is None}


def _sets_one_of(stmt: ast.Stmt, names: dict[str, ast.ConstDecl]) -> tuple[str | None, ast.Expr | None]:
    """The name and the value of `stmt`, `NAME = value;`, where NAME is one of
    `names`; (None, None) for any other statement."""
    if (
        isinstance(stmt, ast.Assign)
        and stmt.op == "="
        and isinstance(stmt.target, ast.Name)
        and stmt.target.name in names
    ):
        return stmt.target.name, stmt.value
    return None, None


def _lanes(
    program: ast.Program, decl: ast.FuncDecl, vectors: list[ast.Param], results: list[str]
) -> Iterator[tuple[str, int]]:
    """The vector parameters and returned vectors that hold fixed-size vectors
    (`vector{Vertex}(vector[20](float))`), with the length of each element, so
    that the caller passes and gets them as two-dimensional arrays."""
    sizes = {
        d.name: d.init.value for d in program.consts
        if isinstance(d.init, ast.IntLit) and isinstance(d.type, ast.ScalarTypeExpr)
    }  # fmt: skip
    types = {d.name: d.type for d in program.consts if isinstance(d.type, ast.VectorTypeExpr)}
    types |= {output.name: output.type for output in decl.outputs}
    named = [(param.name, param.type) for param in vectors]
    named += [(result, types[result]) for result in dict.fromkeys(results) if result in types]
    for name, type_expr in named:
        assert isinstance(type_expr, ast.VectorTypeExpr)
        value = type_expr.value
        if isinstance(value, ast.VectorTypeExpr):
            lanes = value.size if value.size is not None else sizes.get(value.size_name or "", 0)
            if lanes:
                yield name, lanes


def _shared_graph(program: ast.Program, decl: ast.FuncDecl, filename: str) -> ast.ConstDecl:
    """The program-level edgeset an export without a graph parameter runs on:
    the one declared without a value, which another export sets."""
    unset = list(_unset_edgesets(program).values())
    if len(unset) != 1:
        raise SourceError(
            filename, decl.pos.line, decl.pos.col,
            f"export '{decl.name}' takes no edgeset, and the program declares "
            + ("no edgeset without a value" if not unset else f"{len(unset)} edgesets without a value")
            + " for another export to set: give it the graph as a parameter",
        )
    return unset[0]


@dataclass
class _State:
    """What an export of a file whose exports share state carries between calls:
    the program-level vectors and scalars declared without a value (vertexsets
    so declared are the graph's vertices)."""

    vectors: list[str] = field(default_factory=list)
    scalars: list[tuple[str, str, str]] = field(default_factory=list)
    carriers: list[ast.ConstDecl] = field(default_factory=list)
    graph: str = ""
    first_argv: int = 2

    @staticmethod
    def of(program: ast.Program, graph: str, first_argv: int) -> _State:
        state = _State(graph=graph, first_argv=first_argv)
        taken = {d.name for d in program.decls if isinstance(d, ast.ConstDecl | ast.FuncDecl)}
        for d in program.consts:
            if d.init is not None:
                continue
            if isinstance(d.type, ast.VectorTypeExpr):
                state.vectors.append(d.name)
            elif isinstance(d.type, ast.ScalarTypeExpr) and d.type.name not in NOT_SCALAR_PARAMETERS:
                carrier = next(n for n in (f"{d.name}_state{k or ''}" for k in range(len(taken) + 1)) if n not in taken)
                taken.add(carrier)
                state.scalars.append((d.name, d.type.name, carrier))
                carrier_type = ast.VectorTypeExpr(d.pos, None, 1, d.type)
                state.carriers.append(ast.ConstDecl(d.pos, carrier, d.pos, carrier_type, None))
        return state

    def declaration(self, decl: ast.ConstDecl) -> ast.ConstDecl:
        """`decl` as the export's program declares it: a carried vector is
        supplied, a carried scalar read from argv, a vertexset declared without
        a value the graph's vertices."""
        if decl.init is not None or not self.graph:
            return decl
        if decl.name in self.vectors:
            return ast.ConstDecl(decl.pos, decl.name, decl.name_pos, decl.type, None, supplied=True)
        for index, (name, _, _) in enumerate(self.scalars, start=self.first_argv):
            if name == decl.name:
                return replace(decl, init=ast.Argv(decl.pos, index))
        if isinstance(decl.type, ast.VertexSetTypeExpr):
            vertices = ast.MethodCall(decl.pos, ast.Name(decl.pos, self.graph), "getVertices", decl.pos, [])
            return replace(decl, init=vertices)
        return decl

    def stores(self) -> list[ast.Stmt]:
        """The statements that end the export: each carried scalar into its carrier."""
        stores: list[ast.Stmt] = []
        for (name, _, carrier), decl in zip(self.scalars, self.carriers, strict=True):
            at = decl.pos
            target = ast.Index(at, ast.Name(at, carrier), ast.IntLit(at, 0))
            stores.append(ast.Assign(at, target, "=", at, ast.Name(at, name)))
        return stores


def _bind_graph_globals(
    body: list[ast.Stmt], graph_param: ast.Param, program: ast.Program
) -> tuple[list[ast.Stmt], dict[str, ast.ConstDecl]]:
    """GraphIt's way of giving an export's graph to the program: a program-level
    edgeset declared without a value (`const edges : edgeset{Edge}(Vertex,Vertex);`)
    set from the parameter at the body's top level (`edges = input_edges;`).
    Each such global becomes a constant holding the parameter's graph, declared
    after it; the assignments are dropped. Returns the body and those constants."""
    unset = _unset_edgesets(program)
    bound: dict[str, ast.ConstDecl] = {}
    kept: list[ast.Stmt] = []
    for stmt in body:
        target, value = _sets_one_of(stmt, unset)
        if target is not None and isinstance(value, ast.Name) and value.name == graph_param.name:
            bound[target] = replace(unset[target], init=value)
            continue
        kept.append(stmt)
    return kept, bound


def _own_outputs(program: ast.Program, filename: str, first: ast.FuncDecl | None = None) -> list[ast.Decl]:
    """The global vectors of the exports' outputs that no global is assigned to:
    program-level vectors, so that the functions an export calls may write them
    (and every export's signature checked). Exports may name their outputs
    alike (`output`): one global of the name, as export `first` declares it."""
    outputs: list[ast.Decl] = []
    exports = exported(program)
    ordered = exports if first is None else [first, *(decl for decl in exports if decl is not first)]
    for decl in ordered:
        graph_optional = shares_state(program) or owns_graph(decl, program)
        if _split_params(decl, filename, graph_optional)[0] is None and not owns_graph(decl, program):
            _shared_graph(program, decl, filename)
        results = _bind_outputs(decl, program, filename)[1]
        for output, result in zip(decl.outputs, results, strict=True):
            if isinstance(output.type, ast.ScalarTypeExpr):
                carrier = ast.VectorTypeExpr(output.pos, None, 1, output.type)
                outputs.append(ast.ConstDecl(output.pos, result, output.pos, carrier, None))
            elif result == output.name:
                outputs.append(ast.ConstDecl(output.pos, result, output.pos, output.type, None))
    unique = {d.name: d for d in reversed(outputs) if isinstance(d, ast.ConstDecl)}
    return [d for d in outputs if isinstance(d, ast.ConstDecl) and unique[d.name] is d]


def _split_params(
    decl: ast.FuncDecl, filename: str, graph_optional: bool = False
) -> tuple[ast.Param | None, list[ast.Param]]:
    """The export's edgeset parameter (None for one that runs on the graph an
    earlier call was given, when `graph_optional`), and its other parameters:
    numbers and vectors of numbers."""
    graphs = [param for param in decl.params if isinstance(param.type, ast.EdgeSetTypeExpr)]
    if not graphs and not graph_optional:
        raise SourceError(
            filename, decl.pos.line, decl.pos.col,
            f"export '{decl.name}' takes no edgeset: gir runs each export on the graph given "
            "to it, so exports cannot share state across calls (one setting the graph, another "
            "using it); give it the graph as a parameter",
        )
    if len(graphs) > 1:
        at = graphs[1].pos
        raise SourceError(
            filename, at.line, at.col,
            f"export '{decl.name}' takes exactly one edgeset parameter (the graph), not {len(graphs)}",
        )
    params = [param for param in decl.params if param not in graphs]
    for param in params:
        if not (_is_number(param.type) or _is_vector_of_numbers(param.type)):
            raise SourceError(
                filename, param.pos.line, param.pos.col,
                f"export parameter '{param.name}' must be a number (int, float, double) or a "
                "vector of numbers (vector{Vertex}(float), vector[N](int), "
                "vector{Vertex}(vector[N](float))): an export takes the graph, numbers and "
                "vectors (vertexsets and edgesets after the graph as export parameters are "
                "not supported yet)",
            )
    return (graphs[0] if graphs else None), params


def _is_number(type_expr: ast.TypeExpr) -> bool:
    return isinstance(type_expr, ast.ScalarTypeExpr) and type_expr.name not in NOT_SCALAR_PARAMETERS


def _is_vector_of_numbers(type_expr: ast.TypeExpr) -> bool:
    """`vector{Vertex}(T)` or `vector[N](T)` of numbers, or of fixed-size vectors
    of numbers (`vector{Vertex}(vector[20](float))`, `vector[10](vector[10](int))`)."""
    if not isinstance(type_expr, ast.VectorTypeExpr):
        return False
    value = type_expr.value
    if isinstance(value, ast.VectorTypeExpr) and value.element is None:
        return _is_number(value.value)
    return _is_number(value)


def _is_vector_output(type_expr: ast.TypeExpr) -> bool:
    """A vector an export may return: as its parameters may be, a bool vector too."""
    if not isinstance(type_expr, ast.VectorTypeExpr):
        return False
    value = type_expr.value
    if isinstance(value, ast.VectorTypeExpr) and value.element is None:
        value = value.value
    return isinstance(value, ast.ScalarTypeExpr) and value.name != "string"


def _bind_outputs(
    decl: ast.FuncDecl, program: ast.Program, filename: str
) -> tuple[list[ast.Stmt], list[str]]:
    """The export's body without its `output = vector;` statements, and the
    global vector each output returns, in declaration order."""
    body = decl.body
    results: list[str] = []
    for output in _checked_outputs(decl, filename):
        if isinstance(output.type, ast.ScalarTypeExpr):
            body, result = _bind_scalar_output(output, body, program, decl)
        else:
            body, result = _bind_output(output, body, program, filename)
        results.append(result)
    return body, results


def _bind_scalar_output(
    output: ast.Param, body: list[ast.Stmt], program: ast.Program, decl: ast.FuncDecl
) -> tuple[list[ast.Stmt], str]:
    """A scalar output (`-> count : int`): a local of the body, zero at its
    start, stored at its end into the one-element vector that carries it back
    (`count_result`, with a counter where that name is taken)."""
    taken = {d.name for d in program.decls if isinstance(d, ast.ConstDecl | ast.FuncDecl)}
    taken |= {o.name for o in decl.outputs} | {p.name for p in decl.params}
    candidates = [f"{output.name}_result", *(f"{output.name}_result{n}" for n in range(2, len(taken) + 3))]
    carrier = next(name for name in candidates if name not in taken)
    at = output.pos
    start = ast.VarDecl(at, output.name, at, output.type, None)
    store = ast.Assign(
        at, ast.Index(at, ast.Name(at, carrier), ast.IntLit(at, 0)), "=", at, ast.Name(at, output.name)
    )
    return [start, *body, store], carrier


def _checked_outputs(decl: ast.FuncDecl, filename: str) -> list[ast.Param]:
    """The export's outputs, each a vector of numbers (or of fixed-size vectors)
    or a number, with a name of its own."""
    seen = {param.name for param in decl.params}
    for output in decl.outputs:
        scalar = isinstance(output.type, ast.ScalarTypeExpr) and output.type.name != "string"
        if not (scalar or _is_vector_output(output.type)):
            raise SourceError(
                filename, output.pos.line, output.pos.col,
                f"export output '{output.name}' must be a vector of numbers such as "
                "vector{Vertex}(int), vector[10](float) or vector{Vertex}(vector[20](float)), "
                "or a number (int, float, double, bool)",
            )
        if output.name in seen:
            raise SourceError(
                filename, output.pos.line, output.pos.col,
                f"export output '{output.name}' is already "
                + ("a parameter" if any(p.name == output.name for p in decl.params) else "an output")
                + f" of '{decl.name}'",
            )
        seen.add(output.name)
    return decl.outputs


def _bind_output(
    output: ast.Param, body: list[ast.Stmt], program: ast.Program, filename: str
) -> tuple[list[ast.Stmt], str]:
    """`body` without its `output = vector;` statements, and the name of the
    global vector `output` returns (its own name when the body assigns none)."""
    vectors = {d.name: d.type for d in program.consts if isinstance(d.type, ast.VectorTypeExpr)}
    aliases = [stmt for stmt in body if _aliases_output(stmt, output.name, set(vectors))]
    targets = {stmt.value.name for stmt in aliases if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Name)}
    if len(targets) > 1:
        at = aliases[1].pos
        raise SourceError(
            filename, at.line, at.col,
            f"export output '{output.name}' is bound to more than one vector ({', '.join(sorted(targets))})",
        )
    if not targets:
        return body, output.name
    target = targets.pop()
    declared, held = _vector_type_name(output.type), _vector_type_name(vectors[target])
    if declared != held:
        at = aliases[0].pos
        raise SourceError(
            filename, at.line, at.col,
            f"export output '{output.name}' holds {declared}, but '{target}' holds {held}",
        )
    return [stmt for stmt in body if stmt not in aliases], target


def _vector_type_name(vector: ast.TypeExpr) -> str:
    """A vector type as GraphIt spells it, `vector{Vertex}(vector[20](float))`."""
    if isinstance(vector, ast.ScalarTypeExpr):
        return vector.name
    assert isinstance(vector, ast.VectorTypeExpr)
    size = f"{{{vector.element}}}" if vector.element is not None else f"[{vector.size or vector.size_name}]"
    return f"vector{size}({_vector_type_name(vector.value)})"


def vector_lanes(vector: ast.TypeExpr) -> int:
    """How many numbers one element of a vector holds: K for a vector of
    `vector[K](T)`, else 1 (0 where K is a name, known to sema only)."""
    assert isinstance(vector, ast.VectorTypeExpr)
    value = vector.value
    if isinstance(value, ast.VectorTypeExpr):
        return value.size or 0
    return 1


def _aliases_output(stmt: ast.Stmt, output: str, vectors: set[str]) -> bool:
    """Whether `stmt` is `output = v;` for a global vertex vector `v`."""
    return (
        isinstance(stmt, ast.Assign)
        and stmt.op == "="
        and isinstance(stmt.target, ast.Name)
        and stmt.target.name == output
        and isinstance(stmt.value, ast.Name)
        and stmt.value.name in vectors
    )


def _type_name(type_expr: ast.TypeExpr) -> str:
    """A scalar parameter's GraphIt type name."""
    assert isinstance(type_expr, ast.ScalarTypeExpr)
    return type_expr.name


def _keeping(program: ast.Program, decls: list[ast.Decl]) -> ast.Program:
    """`program` with `decls`, and without the schedule lines that name labels of
    the functions left out."""
    kept = {label for decl in decls if isinstance(decl, ast.FuncDecl) for label in _labels(decl.body)}
    dropped = {
        label for decl in program.functions if decl not in decls for label in _labels(decl.body)
    } - kept
    schedule = [stmt for stmt in program.schedule if _schedule_root(stmt) not in dropped]
    return replace(program, decls=decls, schedule=schedule)


def _labels(body: list[ast.Stmt]) -> Iterator[str]:
    """The labels of the statements in `body`, nested ones included."""
    for stmt in body:
        if stmt.label is not None:
            yield stmt.label
        if isinstance(stmt, ast.If):
            yield from _labels(stmt.then_body)
            yield from _labels(stmt.else_body or [])
        elif isinstance(stmt, ast.While | ast.For):
            yield from _labels(stmt.body)


def _schedule_root(stmt: ast.SchedStmt) -> str | None:
    """The first label of the path an `applyGPUSchedule` line names, else None."""
    if not isinstance(stmt, ast.SchedProgramCall) or not stmt.args or stmt.args[0].kind != "string":
        return None
    path = stmt.args[0].value
    return path.split(":")[0] if isinstance(path, str) else None
