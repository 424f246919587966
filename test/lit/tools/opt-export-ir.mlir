// `--export` names an export of GraphIt source; IR has none.
// RUN: not gir-opt %s --export f 2>&1 | filecheck %s
// CHECK: error: --export names an 'export func' of GraphIt (.gt) input, not of IR
builtin.module {}
