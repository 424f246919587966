"""What a method call means, as sema decided it (`MethodCall.info`): one small
frozen class per meaning, carrying what IR building needs, so that irgen reads
the decision instead of deciding again. Edgeset apply chains mean an
`EdgeApplyInfo` (see `symbols`)."""

from __future__ import annotations

from dataclasses import dataclass

from gir.dialects.graph import ReduceKind


@dataclass(frozen=True)
class Method:
    """What a method call other than an edgeset apply means."""


@dataclass(frozen=True)
class GetVertices(Method):
    """`edges.getVertices()`: the graph's vertices as a vertexset."""


@dataclass(frozen=True)
class VertexCount(Method):
    """`edges.getVertices()` where GraphIt reads it as the vertex count (a `for`
    bound, `print`, an operand): an int."""


@dataclass(frozen=True)
class Transpose(Method):
    """`edges.transpose()`: the edgeset with every edge reversed."""


@dataclass(frozen=True)
class Relabel(Method):
    """`edges.relabel()` (GraphIt's): the edgeset itself, and the program's graph
    is relabelled when it is loaded (by the schedule's `configReorder`, else
    DEGREE), its vertex inputs and outputs mapped (`graph-map-vertex-ids`)."""


@dataclass(frozen=True)
class OutDegrees(Method):
    """`edges.getOutDegrees()` (or `getOutDegreesUint()`) as a whole vector's value."""


@dataclass(frozen=True)
class Neighbours(Method):
    """`edges.getNgh(v)`: the vertexset of `v`'s out-neighbours."""


@dataclass(frozen=True)
class VertexSetSize(Method):
    """`set.size()` / `set.getVertexSetSize()`."""


@dataclass(frozen=True)
class AddVertex(Method):
    """`set.addVertex(v)`."""


@dataclass(frozen=True)
class ExternApply(Method):
    """`vertices.apply(f)` / `edges.apply(f)` of an extern function `f`: the
    user's host implementation runs once per vertex or edge, on the host."""

    function: str
    over: str
    """"vertices" or "edges"."""


@dataclass(frozen=True)
class VertexSetApply(Method):
    """`set.apply(udf)`: the vertex function `udf` on every member."""

    udf: str


@dataclass(frozen=True)
class VertexSetFilter(Method):
    """`set.filter(udf)` / `set.where(udf)`: the members `udf` is true for."""

    udf: str


@dataclass(frozen=True)
class VectorReduction(Method):
    """`v.sum()`, `v.max()`, `v.min()`: a whole vector reduced by `kind`
    (signed; irgen makes min and max unsigned for unsigned elements)."""

    kind: ReduceKind


@dataclass(frozen=True)
class UpdatePriority(Method):
    """`pq.updatePriorityMin(v, old, new)` (`kind` MIN) or `updatePriorityMax` (MAX)."""

    kind: ReduceKind


@dataclass(frozen=True)
class UpdatePrioritySum(Method):
    """`pq.updatePrioritySum(v, diff, threshold)`."""


@dataclass(frozen=True)
class FinishedNode(Method):
    """`pq.finishedNode(v)`."""


@dataclass(frozen=True)
class DequeueReadySet(Method):
    """`pq.dequeue_ready_set()`."""


@dataclass(frozen=True)
class QueueFinished(Method):
    """`pq.finished()`."""


@dataclass(frozen=True)
class CurrentPriority(Method):
    """`pq.get_current_priority()`."""


@dataclass(frozen=True)
class ListInsert(Method):
    """`list.insert(set)` / `list.append(set)`: push a copy of `set`."""


@dataclass(frozen=True)
class NumberListAppend(Method):
    """`numbers.append(x)` / `numbers.insert(x)` on a `list{int}`."""


@dataclass(frozen=True)
class NumberListPop(Method):
    """`numbers.pop()` on a `list{int}`: its last number."""


@dataclass(frozen=True)
class NumberListSize(Method):
    """`numbers.size()` on a `list{int}`."""


@dataclass(frozen=True)
class ListRetrieve(Method):
    """`list.pop()` (the last set, as a new one) or `list.retrieve(set)` (the
    last set becomes `set`'s value)."""
