"""The one interface between a printed host program and the runtime.

It sits below both sides: `gir.targets` prints calls of it and `gir.runtime`
implements it, and neither imports the other for it.

`gir.targets.host_python` prints a GPU-level `@main` as `run(rt, K)`: `rt` is a
`HostRuntime` (in practice a `gir.runtime.run.Run`) and `K` the program's constants
table (every string of the IR: kernel and global names, print text, paths). Each
host op is one call, keyed by the host dialect's enums and by `DType`, never by a
name spelled again in the printed text:

| host op                 | call                                              |
|-------------------------|---------------------------------------------------|
| `host.argv_int argv[i]` | `rt.argv_int(i)` (`vertex`: `rt.argv_vertex(i)`)  |
| `host.argv_string argv[i]` | `rt.argv_str(i)` (a `str`; `host.string_constant`: `K[j]`, `host.string_eq`: `a == b`, `host.string_to_int`: `rt.text_int(s)`) |
| `host.load_graph`       | `rt.load_graph(rt.argv_str(i) or K[j], weighted)` (`reorder`: `, reorder=K[k]`) |
| `host.graph_size`       | `rt.graph_size(g, GraphSize.VERTICES)`            |
| `host.graph_array`      | `rt.graph_array(g, GraphArray.ROW_PTR, DType.INT32)`, blocked arrays `rt.graph_array(g, GraphArray.BLOCKED_SRC, DType.INT32, size)` |
| `host.alloc` / `free`   | `rt.alloc(n, DType.INT32)` / `rt.free(b)`         |
| `host.fill` / `copy`    | `rt.fill(b, v, n, DType.F32)` / `rt.copy(a, b, n, dtype)` |
| `host.read` / `write`   | `rt.read(b, i, dtype)` / `rt.write(b, i, v, dtype)` |
| `host.bind_global`      | `rt.bind_global(K[j], b, dtype, n)` (`unsigned=True` for uint vectors; `vertex_indexed=True`, `vertex_values=True` in a reordered program) |
| `host.launch`           | `launch = rt.launcher(K[j], site, {0: b, ...})`, then `launch(grid, block, *others)` |
| `host.resident_blocks`  | `rt.resident_blocks(K[j], block, per_sm)` (0: default) |
| `host.start_timer` / `stop_timer` | `rt.start_timer()` / `rt.stop_timer()`  |
| `host.print`            | `rt.print(x)` / `rt.print_text(K[j])` (a string value: `rt.print_text(s)`) |
| `host.list_new` / `list_push` / `list_pop` | `rt.list_new()` / `rt.list_push(l, b, n)` / `n = rt.list_pop(l, b)` |
| `host.call_extern @f`   | `rt.call_extern(K[j], K[k], (args...), (buffer positions), K[m])`: the name, the call's `file:line:col`, the result's kind (`None`: no result) |
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from xdsl.dialects.builtin import Float32Type, Float64Type, IndexType, IntegerType
from xdsl.ir import Attribute
from xdsl.utils.str_enum import StrEnum

from gir.diagnostics import UserError
from gir.dialects.host import GraphArray, GraphSize

if TYPE_CHECKING:
    import numpy as np

__all__ = ["DType", "GraphArray", "GraphSize", "HostRuntime", "Launch"]


class DType(StrEnum):
    """Element types of device buffers and scalar kernel arguments (numpy's names;
    `BOOL` is one byte per element)."""

    BOOL = "bool"
    INT8 = "int8"
    INT16 = "int16"
    INT32 = "int32"
    INT64 = "int64"
    FLOAT32 = "float32"
    FLOAT64 = "float64"

    @property
    def numpy(self) -> np.dtype:
        """The numpy dtype of this element type."""
        import numpy as np  # here: the printers import this module, and need no numpy

        return np.dtype(self.value)

    @staticmethod
    def of(type_: Attribute, index_width: int = 32) -> DType:
        """The element type of buffers of the IR type `type_` (`index` is
        `index_width` bits: the module's edge index width)."""
        if isinstance(type_, IndexType):
            return DType(f"int{index_width}")
        if isinstance(type_, IntegerType):
            width = type_.width.data
            if width == 1:
                return DType.BOOL
            if width in (8, 16, 32, 64):
                return DType(f"int{width}")
        if isinstance(type_, Float32Type):
            return DType.FLOAT32
        if isinstance(type_, Float64Type):
            return DType.FLOAT64
        raise UserError(f"error: GPU buffers cannot hold {type_} elements")


Buffer = Any
"""A device buffer: opaque to host code (a device pointer on CUDA, a
`pyopencl.Buffer` on OpenCL)."""

Launch = Callable[..., None]
"""A prepared launch: `launch(grid, block, *changing_arguments)`."""


class HostRuntime(Protocol):
    """What a printed host program calls, one method per host op."""

    def argv_int(self, index: int) -> int:
        """The program's `argv[index]` as an integer."""
        ...

    def call_extern(
        self, name: str, where: str, args: tuple[Any, ...], buffers: tuple[int, ...], result: str | None
    ) -> Any:
        """Calls the user's host implementation of the extern function `name`
        (`gir.targets.host_externs`) with `args`; the device buffers at the
        positions `buffers` are passed as numpy copies and copied back after
        the call. The returned value is checked as `result` says ("int32",
        "float64", "bool", "string"; None: ignored); errors name `where`."""
        ...

    def apply_extern(
        self,
        name: str,
        where: str,
        over: str,
        graph: tuple[Any, ...],
        buffers: tuple[Any, ...],
        names: tuple[str, ...],
    ) -> None:
        """Runs the user's host implementation of the extern function `name`
        once per vertex (`over` "vertices": `graph` is the vertex count) or per
        edge in CSR order ("edges": the vertex count, the loaded graph and
        whether the function takes each edge's weight), with each
        device buffer of `buffers` copied to the host, bound to the function's
        module under its name of `names` while the apply runs, and copied back
        after it; errors name `where`."""
        ...

    def number_list_pop(self, numbers: list[Any], where: str) -> Any:
        """`l.pop()` of a list of numbers: its last item, removed; an empty list
        is an error at `where` (`file:line:col`)."""
        ...

    def text_int(self, text: str) -> int:
        """`atoi(s)`: the string `text` read as an integer argument is."""
        ...

    def argv_float(self, index: int) -> float:
        """The program's `argv[index]` as a float."""
        ...

    def argv_str(self, index: int) -> str:
        """The program's `argv[index]`."""
        ...

    def argv_vertex(self, index: int) -> int:
        """The program's `argv[index]`, a user's vertex id, as the loaded graph's id
        of that vertex (they differ where the graph was reordered)."""
        ...

    def load_graph(
        self, spec: str, weighted: bool, partitioned: bool = False, reorder: str | None = None
    ) -> Any:
        """A handle of the graph `spec` (file or generator), resident on the device;
        `partitioned`: this device's part of its edges in a partitioned run;
        `reorder`: relabelled by that ordering (see `gir.reorder`)."""
        ...

    def clone(self, buffer: Buffer) -> Buffer:
        """A new buffer holding a copy of `buffer` (`host.clone`)."""
        ...

    def allreduce(self, buffer: Buffer, combine: str, base: Buffer | None = None, exchange: str = "dense") -> None:
        """Combines every device's copy of `buffer` (`host.allreduce`), sending
        what `exchange` (a `host.ExchangeFormat`) says."""
        ...

    def allgather(self, items: Buffer, count: Buffer, claims: Sequence[Buffer] = ()) -> None:
        """The union of every device's queue, with the claims of `claims` that
        go with it (`host.allgather`)."""
        ...

    def graph_size(self, graph: Any, what: GraphSize) -> int:
        """The number of vertices or edges of a loaded graph."""
        ...

    def graph_array(
        self, graph: Any, array: GraphArray, dtype: DType, blocking_size: int | None = None
    ) -> Buffer:
        """A device array of a loaded graph, with `dtype` elements (the blocked
        arrays: of the edges tiled by `blocking_size`)."""
        ...

    def alloc(self, count: int, dtype: DType) -> Buffer:
        """A new device buffer of `count` elements (contents undefined)."""
        ...

    def free(self, buffer: Buffer) -> None:
        """Releases a buffer of this run (a bound global is copied out first)."""
        ...

    def fill(self, buffer: Buffer, value: Any, count: int, dtype: DType) -> None:
        """Sets the first `count` elements of `buffer` to `value` (queued)."""
        ...

    def copy(self, source: Buffer, target: Buffer, count: int, dtype: DType) -> None:
        """Copies the first `count` elements of `source` into `target` (queued)."""
        ...

    def read(self, buffer: Buffer, index: int, dtype: DType) -> Any:
        """Element `index` of `buffer`, once all queued work is done."""
        ...

    def write(self, buffer: Buffer, index: int, value: Any, dtype: DType) -> None:
        """Sets element `index` of `buffer` to `value` (queued after earlier work)."""
        ...

    def bind_global(
        self,
        name: str,
        buffer: Buffer,
        dtype: DType,
        count: int | None,
        unsigned: bool = False,
        vertex_indexed: bool = False,
        vertex_values: bool = False,
    ) -> None:
        """Names `buffer` as the global vector `name`, returned after the run
        (`unsigned`: its integers as numpy's unsigned type of their width; in a
        reordered program, `vertex_indexed`: in the user's vertex order,
        `vertex_values`: its vertex ids as the user's)."""
        ...

    def launcher(self, kernel: str, site: int, fixed: Mapping[int, Any]) -> Launch:
        """A prepared launch of `kernel` at launch site `site`, with the arguments at
        the positions of `fixed` bound once."""
        ...

    def resident_blocks(self, kernel: str, block: int, per_sm: int = 0) -> int:
        """How many `block`-thread blocks of `kernel` the device keeps resident at
        once, at most `per_sm` per multiprocessor (0: `PERSISTENT_THREADS_PER_SM`
        threads' worth); 0 where the target cannot synchronize a grid."""
        ...

    def start_timer(self) -> None:
        """Starts the program's timer once all queued work is done."""
        ...

    def stop_timer(self) -> float:
        """Seconds since `start_timer`, once all queued work is done."""
        ...

    def print(self, value: Any) -> None:
        """Prints a number and a newline (`%g` for floats, as GraphIt's C++ does)."""
        ...

    def print_text(self, text: str) -> None:
        """Prints a string and a newline."""
        ...

    def device_print_fence(self) -> None:
        """Around a kernel that prints (device `printf`): flushes what was printed
        so far, waits for the device and flushes the C library's stdout, so that
        the kernel's lines come between the host's lines before and after it."""
        ...

    def list_new(self) -> Any:
        """An empty list of i32 device arrays (`host.list_new`)."""
        ...

    def list_push(self, stack: Any, buffer: Buffer, count: int) -> None:
        """Copies `buffer[0:count]` onto the end of the list (queued)."""
        ...

    def list_pop(self, stack: Any, buffer: Buffer) -> int:
        """Copies the last entry into `buffer[0:n]` (queued), drops it, returns n."""
        ...

    def list_export(self, stack: Any, room: int) -> tuple[Buffer, Buffer, int, int]:
        """The list's storage, grown for `room` more items, a new device array of
        its header and ends with room for `room + 1` more entries, and their
        element counts (`host.list_export`, `host.ListSlot`)."""
        ...

    def list_import(self, stack: Any, ends: Buffer) -> None:
        """Takes the list's entries back from `ends` (waits), frees it, and raises
        a `UserError` if a device step set its status (`host.list_import`)."""
        ...


_ARGV_INT = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F]+|0|[1-9][0-9]*)")


def parse_argv_int(text: str) -> int | None:
    """`text` as both hosts read an integer argument (the C++ runtime's `argv_int`
    reads the same): ASCII decimal without leading zeros or `0x` hexadecimal, with
    an optional sign; None for anything else (`1_0`, full-width digits, `0b1`,
    surrounding spaces), which Python's `int(text, 0)` would have taken."""
    return int(text, 0) if _ARGV_INT.fullmatch(text) else None

