// The RUN lines' filecheck (served by test/lit/tool_server.py) fails when its
// input does not match, with FileCheck's message, so no lit test passes for want
// of a check that ran.
// RUN: echo "an unexpected line" | not filecheck %s 2>&1 | filecheck %s --check-prefix=MESSAGE
// CHECK: the expected line
// MESSAGE: filecheck-fails.mlir:5: error: Couldn't match "the expected line".
