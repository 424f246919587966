// Inputs gir-opt and gir-translate cannot read are one line each, no traceback.

// RUN: rm -rf %t && mkdir -p %t/dir.gt
// RUN: not gir-opt %t/missing.mlir 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not gir-translate %t/missing.gt 2>&1 | filecheck %s --check-prefix=MISSING
// MISSING-NOT: Traceback
// MISSING: error: No such file or directory: {{.*}}missing.
// RUN: not gir-opt %t/dir.gt 2>&1 | filecheck %s --check-prefix=DIR
// RUN: not gir-translate %t/dir.gt 2>&1 | filecheck %s --check-prefix=DIR
// DIR-NOT: Traceback
// DIR: error: Is a directory: {{.*}}dir.gt
// RUN: not gir-opt %t 2>&1 | filecheck %s --check-prefix=NOEXT
// NOEXT-NOT: Traceback
// NOEXT: error: {{.*}}
