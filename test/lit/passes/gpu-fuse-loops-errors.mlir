// RUN: not gir-opt %S/Inputs/fused-block-sizes.gt -p lower-to-gpu 2>&1 | filecheck %s --check-prefix=SIZES
// RUN: not gir-opt %S/Inputs/fused-edge-only.gt -p lower-to-gpu 2>&1 | filecheck %s --check-prefix=SCAN
// RUN: not gir-opt %S/Inputs/fused-string.gt -p lower-to-gpu 2>&1 | filecheck %s --check-prefix=STRING

// What kernel fusion cannot fuse is one line on stderr naming the statement and
// the reason, exit status 1, no traceback: a cooperative kernel whose blocks are
// not the fused kernel's, a host-side scan's per-iteration scratch buffer, and
// a string (a host value) used in the loop.

// SIZES:      error: kernel fusion of statement 'search': kernel @map_search_expand has threads that cooperate ('gir_gpu.shared_alloc') on 128-thread blocks, but the fused kernel runs blocks of 256 threads; give both schedules the same block size
// SIZES-NOT:  Traceback
// SCAN:       error: kernel fusion of statement 'search': 'host.alloc' in the loop body cannot run inside a kernel (a scratch buffer per iteration, as a device-wide scan makes: the load balances with host steps, EDGE_ONLY, STRICT and MERGE_PATH, have one over a frontier)
// SCAN-NOT:   Traceback
// STRING:     fused-string.gt:22:14: error: kernel fusion of statement 'search': strings live on the host: move the string's uses out of the loop, or leave it unfused
// STRING-NOT: Traceback
