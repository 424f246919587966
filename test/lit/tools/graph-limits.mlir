// Graphs too large for gir are refused with one line before they are built.

// RUN: not gir-run %programs/bfs.gt rmat:30 0 --target opencl 2>&1 | filecheck %s --check-prefix=RMAT
// RMAT-NOT: Traceback
// RMAT: error: 'rmat:30' has 17,179,869,184 edges, but gir's edge offsets are 32-bit (at most 2,147,483,647 edges); 64-bit offsets are not supported

// RUN: not gir-run %programs/bfs.gt rmat:12:100000000 0 --target opencl 2>&1 | filecheck %s --check-prefix=FACTOR
// FACTOR: error: 'rmat:12:100000000' has 409,600,000,000 edges

// RUN: not gir-run %programs/bfs.gt %S/Inputs/big_vertex_id.el 0 --target opencl --max-memory 16G 2>&1 | filecheck %s --check-prefix=VERTEX
// VERTEX-NOT: Traceback
// VERTEX: error: {{.*}}big_vertex_id.el (2,147,483,647 vertices, 2 edges) needs about 32.0 GB of memory, but --max-memory allows 16.0 GB (gir-run --max-memory BYTES overrides this)
