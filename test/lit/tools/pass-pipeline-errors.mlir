// A malformed pass pipeline is one located line (the column counts in the text given).

// RUN: not gir-opt %programs/bfs.gt --pass-pipeline 'builtin.module(' 2>&1 | filecheck %s --check-prefix=OPEN
// OPEN-NOT: Traceback
// OPEN: pass-pipeline:1:8: error: Unknown token in 'builtin.module('
// RUN: not gir-opt %programs/bfs.gt --pass-pipeline 'builtin.module(graph-default-schedule{x=})' 2>&1 | filecheck %s --check-prefix=ARG
// ARG-NOT: Traceback
// ARG: pass-pipeline:1:41: error: Unknown argument value
// RUN: not gir-opt %programs/bfs.gt -p 'a,,b' 2>&1 | filecheck %s --check-prefix=EMPTY
// EMPTY-NOT: Traceback
// EMPTY: pass-pipeline:1:3: error: Expected pass name here in 'a,,b'
// RUN: not gir-opt %programs/bfs.gt -p 'no-such-pass' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN-NOT: Traceback
// UNKNOWN: error: Unrecognized passes: ['no-such-pass']

// A malformed command line exits with status 2 (as argparse's own errors do), an
// error in the input with status 1.
// RUN: sh -c 'gir-opt %programs/bfs.gt -p no-such-pass 2>/dev/null; echo status $?' | filecheck %s --check-prefix=USAGE
// RUN: sh -c 'gir-opt %programs/bfs.gt -p a --pass-pipeline b 2>/dev/null; echo status $?' | filecheck %s --check-prefix=USAGE
// RUN: sh -c 'gir-opt %programs/bfs.gt --no-such-option 2>/dev/null; echo status $?' | filecheck %s --check-prefix=USAGE
// USAGE: status 2
// RUN: sh -c 'gir-opt %s.missing 2>/dev/null; echo status $?' | filecheck %s --check-prefix=INPUT
// INPUT: status 1
