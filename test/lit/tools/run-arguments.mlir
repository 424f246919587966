// gir-run's argument errors are one line, reported before the program runs.

// RUN: not gir-run %programs/bfs.gt road:4:4 2147483648 2>&1 | filecheck %s --check-prefix=START
// START-NOT: Traceback
// START: error: argv[2] is 2147483648, which does not fit the program's i32 (it must lie in [-2147483648, 2147483647])

// RUN: not gir-run %programs/bfs.gt road:4:4 0 --max-memory lots 2>&1 | filecheck %s --check-prefix=MEMORY
// MEMORY-NOT: Traceback
// MEMORY: error: argument --max-memory: 'lots' is not a positive byte count (e.g. 17179869184, 16G) or 'auto'

// RUN: not gir-run %S/Inputs/indegree.gt road:4:4 --validate 2>&1 | filecheck %s --check-prefix=VALIDATE
// VALIDATE-NOT: Traceback
// VALIDATE: error: --validate: cannot tell which CPU reference applies to '{{.*}}indegree.gt'

// RUN: not gir-run %programs/bfs.gt road:4:4 0 --dump %t.missing/out.npz 2>&1 | filecheck %s --check-prefix=DUMP
// DUMP-NOT: Traceback
// DUMP: error: cannot write '{{.*}}missing/out.npz': no directory
