"""Extern functions: GraphIt's `extern func f(x : int) -> y : int;` declarations,
implemented by the user's own device code.

The frontend turns each declaration into a body-less `func.func private @f`, and
calls from vertex and edge functions into `func.call @f` that no pass inlines; the
kernel printer calls `f(...)` by name and includes the user's file (given with
`gir-run --extern FILE` or `gir-translate --extern FILE`) verbatim before the
kernels: the one place where gir prints text it did not generate.

That code may `printf` on the device, as gir's own `print` in a vertex function
does (`gir_gpu.print`), so a kernel that calls an extern function is treated as
one that prints (`kernel_prints`): both host printers fence its launches
(`device_print_fence`: flush the host's output, synchronize, flush the device's
printf buffer), and the user's lines come out in program order with the host's.
The fence synchronizes around each such launch, whether or not the user's code
prints: gir cannot tell from the text (a macro may call printf).
"""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.traits import SymbolTable

from gir.diagnostics import UserError
from gir.dialects.gir_gpu import PrintOp
from gir.ir_walk import walk


EXTERN_HELP = (
    "the device code (CUDA .cuh or OpenCL .cl) of the program's extern functions, "
    "included verbatim before the kernels"
)
"""`--extern`'s help, as gir-run and gir-translate give it."""


def called_externs(module: ModuleOp) -> list[func.FuncOp]:
    """The extern declarations of `module` that some `func.call` calls, in order."""
    called = {
        op.callee.root_reference.data for op in walk(module) if isinstance(op, func.CallOp)
    }
    return [
        op
        for op in module.ops
        if isinstance(op, func.FuncOp) and op.is_declaration and op.sym_name.data in called
    ]


def kernel_prints(kernel: Operation) -> bool:
    """Whether `kernel` may print on the device: it holds a `gir_gpu.print`, or
    calls an extern function (the user's device code may printf). The host
    printers fence the launches of such kernels."""
    return any(
        isinstance(op, PrintOp) or (isinstance(op, func.CallOp) and _calls_declaration(op))
        for op in walk(kernel)
    )


def _calls_declaration(call: func.CallOp) -> bool:
    """Whether `call` calls a body-less `func.func` (an extern function)."""
    callee = SymbolTable.lookup_symbol(call, call.callee)
    return isinstance(callee, func.FuncOp) and callee.is_declaration


def read_extern(path: str) -> str:
    """The text of the `--extern` file at `path`, or a user error saying why not."""
    try:
        return Path(path).read_text()
    except (OSError, UnicodeDecodeError) as reason:
        detail = reason.strerror if isinstance(reason, OSError) and reason.strerror else reason
        raise UserError(f"error: cannot read the --extern file '{path}': {detail}") from None


def extern_section(module: ModuleOp, source: str | None) -> str | None:
    """The user's device code to print before the kernels, or None when the
    program calls no extern function; one located error at the first declaration
    when it does and no `--extern` file was given."""
    externs = called_externs(module)
    if not externs:
        return None
    if source is None:
        first = externs[0]
        names = ", ".join(f"'{op.sym_name.data}'" for op in externs)
        noun = "function" if len(externs) == 1 else "functions"
        raise UserError.at(
            first,
            f"error: extern {noun} {names} called but not implemented: give the device "
            "code with --extern FILE (a CUDA .cuh or OpenCL .cl file)",
        )
    return source.rstrip("\n")
