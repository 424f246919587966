"""Graph reorderings: the vertex relabellings a program may ask for with
`program->configReorder(NAME)` (or `edges.relabel()`).

A reordering gives every vertex a new id so that vertices read together get
nearby ids: a gather over a relabelled graph then touches fewer cache lines
(PageRank's pull reads `share[src]` for every in-edge; with rmat's ids each read
brings its own 32-byte sector, see docs/performance.md). The graph is
relabelled once, when it is loaded, and every vertex-indexed input and output of
the program is mapped between the user's ids and the new ones, so results do
not change.

Each ordering is one entry of `ORDERINGS`: a function from the vertex count and
the (src, dst) edge arrays to `order`, the old ids listed in their new order
(`order[new] = old`). A new ordering is one function and one `register` line.

```python
relabelling = relabel("DEGREE", num_vertices, src, dst)
relabelling.new_of_old[old]   # the vertex's id inside the program
relabelling.old_of_new[new]   # the user's id of a vertex of the program
```

This module sits below the dialects (their verifiers check ordering names
against `ORDERINGS`) and below the runtime (which relabels graphs with it); it
imports numpy, and scipy only for RCM.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

OrderFunction = Callable[[int, np.ndarray, np.ndarray], np.ndarray]
"""(num_vertices, src, dst) -> the old ids in their new order."""


@dataclass(frozen=True)
class Ordering:
    """One registered reordering: its schedule name, what it does, and its function."""

    name: str
    summary: str
    order: OrderFunction


ORDERINGS: dict[str, Ordering] = {}
"""The registered reorderings by schedule name, in registration order."""


def register(name: str, summary: str) -> Callable[[OrderFunction], OrderFunction]:
    """Registers the decorated function as the ordering `name`."""

    def add(function: OrderFunction) -> OrderFunction:
        ORDERINGS[name] = Ordering(name, summary, function)
        return function

    return add


def unknown_ordering(name: str) -> str | None:
    """Why `name` is no registered ordering (None: it is one)."""
    if name in ORDERINGS:
        return None
    return f"unknown reordering '{name}', expected one of {', '.join(ORDERINGS)}"


@dataclass(frozen=True)
class Relabelling:
    """A permutation of the vertices and its inverse (int32 arrays of V entries)."""

    name: str
    new_of_old: np.ndarray
    """`new_of_old[old]`: the id a user's vertex has inside the program."""
    old_of_new: np.ndarray
    """`old_of_new[new]`: the user's id of a vertex of the program."""

    def to_internal(self, vertex: int) -> int:
        """The program's id of the user's `vertex` (ids outside the graph are kept,
        so the program's own bounds checks report them)."""
        if 0 <= vertex < self.new_of_old.size:
            return int(self.new_of_old[vertex])
        return vertex

    def indexed_to_user(self, values: np.ndarray) -> np.ndarray:
        """A vertex-indexed vector of the program, indexed by the user's ids."""
        return values[self.new_of_old]

    def ids_to_user(self, values: np.ndarray) -> np.ndarray:
        """Vertex ids of the program as the user's ids (negative values, such as
        -1 for 'none', and values past the vertex count are kept)."""
        ids = np.asarray(values)
        inside = (ids >= 0) & (ids < self.old_of_new.size)
        mapped = ids.copy()
        mapped[inside] = self.old_of_new[ids[inside].astype(np.int64)]
        return mapped


def relabel(name: str, num_vertices: int, src: np.ndarray, dst: np.ndarray) -> Relabelling:
    """The relabelling of ordering `name` for a graph's edges (a ValueError for an
    unknown name, or an ordering that is no permutation)."""
    refused = unknown_ordering(name)
    if refused is not None:
        raise ValueError(refused)
    order = np.asarray(ORDERINGS[name].order(num_vertices, src, dst), dtype=np.int64)
    return relabelling_of(name, order, num_vertices)


def relabelling_of(name: str, order: np.ndarray, num_vertices: int) -> Relabelling:
    """The relabelling whose new order is `order` (checked to be a permutation)."""
    if order.shape != (num_vertices,):
        raise ValueError(f"ordering {name} gave {order.size} ids for {num_vertices} vertices")
    new_of_old = np.full(num_vertices, -1, np.int64)
    new_of_old[order] = np.arange(num_vertices, dtype=np.int64)
    if num_vertices and (new_of_old < 0).any():
        raise ValueError(f"ordering {name} is not a permutation of the vertices")
    return Relabelling(name, new_of_old.astype(np.int32), order.astype(np.int32))


def _degrees(num_vertices: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Each vertex's in-degree plus out-degree."""
    return np.bincount(src, minlength=num_vertices) + np.bincount(dst, minlength=num_vertices)


@register("DEGREE", "by decreasing degree (in + out), ties by id: the hubs first, together")
def degree_order(num_vertices: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    degrees = _degrees(num_vertices, src, dst)
    return np.argsort(-degrees, kind="stable")


@register(
    "HUB_CLUSTER",
    "hub clustering: vertices of more than average degree first, each group in its "
    "old order (most of DEGREE's locality, little of its disruption)",
)
def hub_cluster_order(num_vertices: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    degrees = _degrees(num_vertices, src, dst)
    average = degrees.mean() if num_vertices else 0.0
    return np.argsort(~(degrees > average), kind="stable")


@register(
    "DEGREE_GROUP",
    "degree-based grouping: groups of degree within a power of two, the largest "
    "degrees first, each group in its old order",
)
def degree_group_order(num_vertices: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    degrees = _degrees(num_vertices, src, dst)
    groups = np.floor(np.log2(np.maximum(degrees, 1))).astype(np.int64) + (degrees > 0)
    return np.argsort(-groups, kind="stable")


@register(
    "RCM",
    "reverse Cuthill-McKee over the undirected pattern: neighbours get nearby ids "
    "(bandwidth reduction, for road-like graphs)",
)
def rcm_order(num_vertices: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    import scipy.sparse as sparse
    from scipy.sparse.csgraph import reverse_cuthill_mckee

    ones = np.ones(2 * src.size, dtype=np.int8)
    rows = np.concatenate([src, dst]).astype(np.int32)
    cols = np.concatenate([dst, src]).astype(np.int32)
    pattern = sparse.csr_matrix((ones, (rows, cols)), shape=(num_vertices, num_vertices))
    return np.asarray(reverse_cuthill_mckee(pattern, symmetric_mode=True))
