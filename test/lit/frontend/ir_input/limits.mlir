// Sizes that xDSL or Python cannot take: located errors, not tracebacks.
// RUN: python -c "print('builtin.module attributes {x = ' + '{a = ' * 1100 + '1' + '}' * 1100 + '} {}')" > %t.deep.mlir
// RUN: not gir-opt %t.deep.mlir 2>&1 | filecheck %s --check-prefix=DEEP
// DEEP: deep.mlir:1:{{[0-9]+}}: error: nesting too deep (limit 1024)
// DEEP-NOT: Traceback
// RUN: python -c "print('builtin.module attributes {x = ' + '{a = ' * 300 + '1' + '}' * 300 + '} {}')" > %t.ok.mlir
// RUN: gir-opt %t.ok.mlir | gir-opt | filecheck %s --check-prefix=OK
// OK: builtin.module attributes {x = {a = {a =
// RUN: python -c "print('builtin.module attributes {a = ' + '7' * 4301 + ' : i64} {}')" > %t.digits.mlir
// RUN: not gir-opt %t.digits.mlir 2>&1 | filecheck %s --check-prefix=DIGITS
// DIGITS: digits.mlir:1:32: error: number with 4301 digits (limit 1000)
// RUN: printf 'builtin.module {\n  // caf\xe9\n}\n' > %t.latin1.mlir
// RUN: not gir-translate --to-opencl %t.latin1.mlir 2>&1 | filecheck %s --check-prefix=UTF8
// UTF8: latin1.mlir:2:9: error: invalid UTF-8 byte 0xe9: source files must be UTF-8
