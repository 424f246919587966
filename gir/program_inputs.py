"""What a program reads from outside: the graphs it loads and its integer arguments.

A program loads a graph from its command line, `load(argv[N])`, or from a fixed
file, `load("graphs/small.el")` (a path relative to the folder it runs in, as in
GraphIt's own tests). `gir-run`, the Python API (`gir.api`) and `--validate`
(`gir.validate`) all ask this module, at any level of the IR (`graph.load_edges`
above the GPU level, `host.load_graph` at it):

- `loads_graph`: whether the program loads a graph at all;
- `takes_graph_argument`: whether one of those graphs comes from argv, so that
  `gir-run` needs a GRAPH and `Program.run` a graph first;
- `graph_sources`: where each loaded graph comes from (`GraphSource`);
- `unused_graph_note`: the note for a GRAPH given to a program that never reads it;
- `check_int_arguments`: integer arguments that do not fit the program's types.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerType, ModuleOp
from xdsl.ir import Operation

from gir.diagnostics import UserError
from gir.dialects import graph, host
from gir.ir_walk import walk
from gir.protocol import parse_argv_int


@dataclass(frozen=True)
class GraphSource:
    """Where a program loads one graph from: its `argv[argv]` or the fixed `path`."""

    argv: int | None = None
    path: str | None = None

    @staticmethod
    def of(load: graph.LoadEdgesOp | host.LoadGraphOp) -> GraphSource:
        """The source a load op names."""
        if load.path is not None:
            return GraphSource(path=load.path.data)
        assert load.argv is not None
        return GraphSource(argv=load.argv.value.data)

    def spec(self, argv: Sequence[str]) -> str:
        """The graph file or generator spec in a run with `argv` (argv[0] is the
        program's name)."""
        if self.path is not None:
            return self.path
        assert self.argv is not None
        if self.argv >= len(argv):
            raise UserError(
                f"error: the program loads its graph from argv[{self.argv}], but only "
                f"{len(argv) - 1} argument(s) were given"
            )
        return argv[self.argv]

    def __str__(self) -> str:
        return f"'{self.path}'" if self.path is not None else f"argv[{self.argv}]"


def _loads(program: Operation) -> list[graph.LoadEdgesOp | host.LoadGraphOp]:
    return [op for op in walk(program) if isinstance(op, graph.LoadEdgesOp | host.LoadGraphOp)]


def graph_sources(program: Operation) -> list[GraphSource]:
    """Where each graph `program` loads comes from, in program order, each once."""
    return list(dict.fromkeys(GraphSource.of(load) for load in _loads(program)))


def loads_graph(program: Operation) -> bool:
    """Whether `program` (at any level) loads a graph, from argv or a fixed file."""
    return bool(_loads(program))


def takes_graph_argument(program: Operation) -> bool:
    """Whether `program` loads a graph named by its argv: only then is its
    argv[1] the GRAPH of `gir-run` (and the graph `Program.run` takes first)."""
    return any(source.argv is not None for source in graph_sources(program))


def _reads_argv(program: Operation, index: int) -> bool:
    return any(
        isinstance(op, graph.ArgvIntOp | host.ArgvIntOp) and op.index.value.data == index
        for op in walk(program)
    ) or GraphSource(argv=index) in graph_sources(program)


def unused_graph_note(program: Operation, arguments: Sequence[str]) -> str | None:
    """The `note:` for a program that loads its graph from a fixed file and never
    reads argv[1], run with `arguments` (its argv[1..]) that start with a GRAPH
    anyway; None when there is nothing to say."""
    paths = [source.path for source in graph_sources(program) if source.path is not None]
    if not paths or not arguments or _reads_argv(program, 1):
        return None
    return (
        f"note: the program loads its graph from '{paths[0]}': "
        f"the GRAPH argument '{arguments[0]}' is unused"
    )


def check_int_arguments(program: ModuleOp, argv: Sequence[str]) -> None:
    """Raise a UserError when an integer argument the program reads does not fit its type.

    `argv` is the program's (argv[0] is its name); arguments it does not read, or
    that are not integers, are left to the run to report.
    """
    for op in walk(program):
        if not isinstance(op, (graph.ArgvIntOp, host.ArgvIntOp)) or not isinstance(op.result.type, IntegerType):
            continue
        index = op.index.value.data
        if index >= len(argv):
            continue
        value = parse_argv_int(argv[index])
        if value is None:
            continue
        bits = op.result.type.width.data
        low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        if not low <= value <= high:
            raise UserError(
                f"error: argv[{index}] is {argv[index]}, which does not fit the program's "
                f"i{bits} (it must lie in [{low}, {high}])"
            )
