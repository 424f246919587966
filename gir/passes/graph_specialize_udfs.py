"""Gives every apply statement its own copy of the user functions it runs."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr
from xdsl.passes import ModulePass

from gir.ir_walk import walk
from gir.passes.ir_utils import (
    APPLY_OPS,
    applied_functions,
    functions,
    inline_calls_in,
    symbol_refs,
)


@dataclass(frozen=True)
class GraphSpecializeUdfs(ModulePass):
    """Clones each user function per apply statement, so per-schedule rewrites don't clash.

    The first statement that applies a function keeps it; every further one (and
    every function that is also called directly) gets a copy named after the
    statement. Calls inside applied functions are inlined, so each copy is
    self-contained, and functions nothing refers to any more are removed.

    Before:
    ```mlir
    %a = graph.edgeset_apply %e from %f apply_modified @relax {tracked = @d, label = "s1"} ...
    %b = graph.edgeset_apply %e from %g apply_modified @relax {tracked = @d, label = "s2"} ...
    ```
    After:
    ```mlir
    %a = graph.edgeset_apply %e from %f apply_modified @relax {tracked = @d, label = "s1"} ...
    %b = graph.edgeset_apply %e from %g apply_modified @relax_s2 {tracked = @d, label = "s2"} ...
    func.func @relax_s2(...)   // a copy of @relax
    ```
    """

    name = "graph-specialize-udfs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        table = functions(op)
        called = {
            call.callee.root_reference.data
            for call in walk(op)
            if isinstance(call, func.CallOp)
        }
        owned: set[str] = set()
        taken = set(table)
        counter = Counter[str]()
        for site in [child for child in walk(op) if isinstance(child, APPLY_OPS)]:
            for role, name in applied_functions(site):
                function = table.get(name)
                if function is None:
                    continue
                if name not in owned and name not in called:
                    owned.add(name)
                    inline_calls_in(function.body, op)
                    continue
                clone = function.clone()
                new_name = _fresh_name(name, site, taken, counter)
                clone.sym_name = StringAttr(new_name)
                op.body.block.insert_op_after(clone, function)
                inline_calls_in(clone.body, op)
                table[new_name] = clone
                owned.add(new_name)
                site.properties[role] = SymbolRefAttr(new_name)
        _remove_unused(op)


def _fresh_name(name: str, site, taken: set[str], counter: Counter[str]) -> str:
    label = site.properties.get("label")
    if isinstance(label, StringAttr):
        base = f"{name}_{re.sub(r'[^A-Za-z0-9_]', '_', label.data)}"
    else:
        counter[name] += 1
        base = f"{name}_{counter[name]}"
    candidate, index = base, 1
    while candidate in taken:
        index += 1
        candidate = f"{base}_{index}"
    taken.add(candidate)
    return candidate


def _remove_unused(module: ModuleOp) -> None:
    """Erases functions (other than main) that no symbol reference names."""
    while True:
        used = {"main"}
        for child in walk(module):
            if isinstance(child, func.CallOp):
                used.add(child.callee.root_reference.data)
            for _, ref in symbol_refs(child):
                used.add(ref.root_reference.data)
        dead = [
            function
            for function in module.ops
            if isinstance(function, func.FuncOp) and function.sym_name.data not in used
        ]
        if not dead:
            return
        for function in dead:
            module.body.block.erase_op(function)
