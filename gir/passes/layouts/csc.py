"""The CSC layout on the GPU (the transpose): in-edges of vertex v are positions
csc_ptr[v] .. csc_ptr[v+1]-1 of csc_idx (sources) and csc_weights. The host
builds these arrays once per loaded graph, from its cached transpose."""

from __future__ import annotations

from gir.dialects.host import GraphArray
from gir.passes.layouts.csr import Csr


class Csc(Csr):
    """Compressed sparse columns, by destination: read like CSR over the transpose."""

    value = "CSC"
    direction = "PULL"
    transposed = "CSR"

    offsets = GraphArray.CSC_PTR
    others = GraphArray.CSC_IDX
    weights = GraphArray.CSC_WEIGHTS
    owners = GraphArray.CSC_DST
