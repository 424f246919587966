"""A graph larger than one device, partitioned over several, validated: every
stage timed (docs/large-graphs.md, "Larger than one GPU").

    python tools/big_graph.py [--devices 4] [--target cuda] [--source 0] [--threshold 0.05]
                              [--program test/programs/bfs_hybrid.gt] SPEC

In one process, so the graph is generated once: generate SPEC; estimate the
device memory the program needs on one device and on each of N (`DeviceFootprint`)
against the devices' memory; ask for a one-device run, which gir refuses before
uploading anything when it does not fit; split the graph into N parts (CSR and
CSC of each); run on N devices; validate against the CPU reference (C++ on every
core from 2^24 edges on). Prints one line per stage and the peak host memory.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections.abc import Callable
from typing import TypeVar

import gir
from gir.api import _device, choose_target
from gir.diagnostics import UserError
from gir.runtime import reference
from gir.runtime.graph import load_graph
from gir.runtime.graph.memory import format_bytes
from gir.runtime.graph.partition import partition

T = TypeVar("T")


def timed(stage: str, work: Callable[[], T]) -> T:
    """`work()`, its time printed as one stage."""
    started = time.perf_counter()
    result = work()
    print(
        f"stage {stage}: {time.perf_counter() - started:.2f} s "
        f"(host memory now {format_bytes(resident_bytes())}, peak {format_bytes(peak_host_bytes())})",
        flush=True,
    )
    return result


def resident_bytes() -> int:
    """The process's resident memory now."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


def peak_host_bytes() -> int:
    """The process's peak resident memory."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("spec")
    parser.add_argument("--program", default="test/programs/bfs_hybrid.gt")
    parser.add_argument("--devices", type=int, default=4)
    parser.add_argument("--target", default=None)
    parser.add_argument("--source", type=int, default=0)
    parser.add_argument("--threshold", default="0.05", help="bfs_hybrid's switch to pull (a fraction of V)")
    parser.add_argument(
        "--skip-one-device", action="store_true", help="no one-device attempt (a graph that fits would run)"
    )
    options = parser.parse_args(argv)
    args = (options.source, float(options.threshold))

    program = timed("compile", lambda: gir.compile(options.program))
    target = choose_target(options.target)
    graph = timed("generate", lambda: load_graph(options.spec, cache=False))
    vertices, edges = graph.num_vertices, graph.num_edges
    print(f"graph {options.spec}: {vertices:,} vertices, {edges:,} edges", flush=True)

    memory = _device(target, 0).memory_bytes()
    one = program.compiled(target).for_edges(edges)
    split = program._partitioned(target, options.devices)
    assert one.footprint is not None and split.footprint is not None
    one_graph, one_buffers = one.footprint.bytes(vertices, edges)
    part_graph, part_buffers = split.footprint.bytes(vertices, -(-edges // options.devices))
    print(
        f"device memory on 1 device ({one.edge_index_width}-bit edge indices): {format_bytes(one_graph + one_buffers)} "
        f"({format_bytes(one_graph)} graph arrays + {format_bytes(one_buffers)} vectors and queues); "
        f"on each of {options.devices}: {format_bytes(part_graph + part_buffers)} "
        f"({format_bytes(part_graph)} + {format_bytes(part_buffers)}); "
        f"device 0 has {format_bytes(memory) if memory is not None else 'an unknown amount'}",
        flush=True,
    )

    def one_device() -> None:
        try:
            result = program.run(graph, *args, target=target)
            print(f"one device ran it (it fits): median {result.median * 1e3:.1f} ms", flush=True)
        except UserError as refusal:
            print(f"one device refused before uploading: {refusal}", flush=True)

    if memory is not None and one_graph + one_buffers <= memory:
        print(f"NOTE: {options.spec} fits one device of this machine: no one-device attempt", flush=True)
    elif not options.skip_one_device:
        timed("one-device attempt", one_device)

    def split_graph() -> None:
        for part in partition(graph, options.devices):
            part.csr()
            part.csc()

    timed(f"split into {options.devices} parts (CSR and CSC of each)", split_graph)
    result = timed(
        f"run on {options.devices} devices (upload included)",
        lambda: program.run(graph, *args, target=target, devices=options.devices),
    )
    print(f"program printed: {' '.join(result.stdout.split())}", flush=True)
    print(f"run time (program's timer): median {result.median * 1e3:.1f} ms over {len(result.times)} trial(s)")
    if result.exchanged is not None:
        print(f"exchanged {result.exchanged.bytes:,} bytes in {result.exchanged.collectives} collectives per rank")
    timed("reference BFS levels", lambda: reference.bfs_levels(graph, options.source))
    timed("validate", lambda: program.validate(graph, result, *args))
    print(
        f"VALIDATED {options.program} on {options.spec} ({edges:,} edges) over {options.devices} devices; "
        f"peak host memory {format_bytes(peak_host_bytes())} ({peak_host_bytes() / max(edges, 1):.1f} B/edge)",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
