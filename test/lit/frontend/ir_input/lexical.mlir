// IR text that xDSL's lexer would hang or crash on gives one located error
// (gir/ir_input.py), one per chunk.
// RUN: gir-opt %s --split-input-file --parsing-diagnostics | filecheck %s

builtin.module attributes {a = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
} {
}
// CHECK: lexical.mlir:5:32: error: unterminated string literal

// -----

builtin.module attributes {a = "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\q"} {
}
// CHECK: lexical.mlir:12:74: error: invalid escape in string literal

// -----

builtin.module attributes {a = 〇} {
}
// CHECK: lexical.mlir:18:32: error: unexpected character '〇' (U+3007): outside string literals and comments IR text is ASCII

// -----

// A comment may hold anything: "é
builtin.module attributes {a = 1 : i99999999999999999999} {
}
// CHECK: lexical.mlir:25:36: error: integer type 'i99999999999999999999' is too wide (limit i1024)

// -----

builtin.module attributes {a = "ok \"é\" \0A", b = 1 : i32} {
}
// CHECK: builtin.module attributes {a = "ok \22\C3\A9\22 \0A", b = 1 : i32} {
