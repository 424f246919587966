// Graphs too large for gir are refused with one line before they are built.
// More than 2^31 edges pass the size checks (they run with 64-bit edge
// indices, docs/large-graphs.md): the host memory they need refuses them here.

// RUN: not gir-run %programs/bfs.gt rmat:30 0 --target opencl --max-memory 16G 2>&1 | filecheck %s --check-prefix=RMAT
// RMAT-NOT: Traceback
// RMAT: error: generating 'rmat:30:16,seed=0' needs about 560.0 GB of memory, but --max-memory allows 16.0 GB (gir-run --max-memory BYTES overrides this)

// RUN: not gir-run %programs/bfs.gt rmat:12:100000000 0 --target opencl --max-memory 16G 2>&1 | filecheck %s --check-prefix=FACTOR
// FACTOR: error: generating 'rmat:12:100000000,seed=0' needs about {{[0-9.]+}} GB of memory

// RUN: not gir-run %programs/bfs.gt %S/Inputs/big_vertex_id.el 0 --target opencl --max-memory 16G 2>&1 | filecheck %s --check-prefix=VERTEX
// VERTEX-NOT: Traceback
// VERTEX: error: {{.*}}big_vertex_id.el (2,147,483,647 vertices, 2 edges) needs about 32.0 GB of memory, but --max-memory allows 16.0 GB (gir-run --max-memory BYTES overrides this)
