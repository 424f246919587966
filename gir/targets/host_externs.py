"""Host extern functions: `extern func` declarations called from host code
(`main`, or a function `main` calls), implemented by the user's own host code.

Sema marks those calls, the frontend builds them as `graph.call_extern`, and
`frontier-host-setup` lowers them to `host.call_extern`, whose vector arguments
are device buffers. The user's implementation depends on the host:

- the Python host (`gir-run --host-extern FILE.py`, `gir.compile(program,
  host_externs=...)`): a Python module defining a function of each name, taking
  as many arguments as the declaration. Scalars come as Python numbers, strings
  as `str`, vectors as numpy arrays holding a host copy of the whole device
  buffer, copied back to the device after the call (`Run.call_extern`); the
  returned value is checked against the declared output at the call.
- the complete CUDA program (`gir-translate --to-cuda --host-extern FILE.cpp`):
  C++ text printed verbatim before `main`, followed by one `static_assert` per
  function that its type is the declaration's, so that a mismatch is an `nvcc`
  error naming the function. Strings are `std::string`, vectors pointers `T*`
  to a host copy (`gir_rt::HostCopy`), copied back after the call.

Device externs (`--extern`, `gir.targets.externs`) are a separate file: an
extern function called on both sides needs both implementations.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute

from gir.diagnostics import UserError, source_position
from gir.dialects import host
from gir.dialects.gir_gpu import LIBRARY_NAMES, check_kernel_name
from gir.ir_walk import walk

HOST_EXTERN_HELP = (
    "the host code of the extern functions main calls: a Python module (gir-run) "
    "or a C++ file (gir-translate --to-cuda), see docs/language.md"
)
"""`--host-extern`'s help, as gir-run and gir-translate give it."""

HostExterns = Mapping[str, Callable[..., Any]]
"""The Python implementations of a program's host extern functions, by name."""


def host_extern_declarations(module: ModuleOp) -> list[func.FuncOp]:
    """The extern declarations of `module` that some `host.call_extern` or
    `host.apply_extern` (or, above the GPU level, their `graph` namesakes)
    calls, in order."""
    from gir.dialects import graph

    called = {
        op.callee.root_reference.data
        for op in walk(module)
        if isinstance(
            op, host.CallExternOp | graph.CallExternOp | host.ApplyExternOp | graph.ApplyExternOp
        )
    }
    return [
        op
        for op in module.ops
        if isinstance(op, func.FuncOp) and op.is_declaration and op.sym_name.data in called
    ]


def call_site(op: Any) -> str:
    """`file:line:col` of a call, for errors at run time ("" where unknown)."""
    position = source_position(op)
    return "" if position is None else f"{position[0]}:{position[1]}:{position[2]}"


def _not_implemented(declarations: list[func.FuncOp], how: str) -> UserError:
    names = ", ".join(f"'{op.sym_name.data}'" for op in declarations)
    noun = "function" if len(declarations) == 1 else "functions"
    return UserError.at(
        declarations[0],
        f"error: extern {noun} {names} called from the host but not implemented: {how}",
    )


# -- the Python host -----------------------------------------------------------


def load_host_externs(source: str | os.PathLike[str] | ModuleType | HostExterns) -> HostExterns:
    """The functions of a Python host extern file (a path), a module, or a
    mapping of names to callables, by name; a UserError when a file cannot be
    loaded."""
    if isinstance(source, ModuleType):
        return {name: value for name, value in vars(source).items() if callable(value)}
    if isinstance(source, Mapping):
        return dict(source)
    path = os.fspath(source)
    if not os.path.isfile(path):
        raise UserError(f"error: cannot read the --host-extern file '{path}': no such file")
    module_name = f"gir_host_externs_{Path(path).stem}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise UserError(f"error: the --host-extern file '{path}' is not a Python module (.py)")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # the user's module failed while loading
        raise UserError(
            f"error: loading the --host-extern file '{path}' raised {type(error).__name__}: {error}"
        ) from None
    return {name: value for name, value in vars(module).items() if callable(value)}


def bind_host_externs(module: ModuleOp, implementations: HostExterns | None) -> dict[str, Callable[..., Any]]:
    """The implementation of each host extern `module` calls, checked: a callable
    of that name taking the declaration's number of arguments; one located
    error at the declaration otherwise."""
    declarations = host_extern_declarations(module)
    if not declarations:
        return {}
    if implementations is None:
        raise _not_implemented(
            declarations,
            "give a Python module defining them with --host-extern FILE.py "
            "(gir.compile(..., host_externs=...))",
        )
    missing = [op for op in declarations if op.sym_name.data not in implementations]
    if missing:
        raise _not_implemented(
            missing, f"the host extern code does not define {'it' if len(missing) == 1 else 'them'}"
        )
    bound = {}
    for op in declarations:
        name = op.sym_name.data
        function = implementations[name]
        arity = len(op.function_type.inputs.data)
        if not _accepts(function, arity):
            raise UserError.at(
                op,
                f"error: the host implementation of extern function '{name}' must take "
                f"{arity} argument(s), as declared: it is {name}{_signature(function)}",
            )
        bound[name] = function
    return bound


def _accepts(function: Callable[..., Any], arity: int) -> bool:
    """Whether `function` can be called with `arity` positional arguments."""
    try:
        inspect.signature(function).bind(*range(arity))
    except TypeError:
        return False
    except ValueError:  # no signature to inspect (some builtins): trust it
        return True
    return True


def _signature(function: Callable[..., Any]) -> str:
    try:
        return str(inspect.signature(function))
    except (TypeError, ValueError):
        return "(...)"


def result_kind(type_: Attribute) -> str:
    """How `Run.call_extern` checks a host extern's returned value: "string",
    "bool", "int<bits>" or "float<bits>"."""
    from xdsl.dialects.builtin import IntegerType

    from gir.dialects.printing import StringType

    if isinstance(type_, StringType):
        return "string"
    if isinstance(type_, IntegerType):
        width = type_.width.data
        return "bool" if width == 1 else f"int{width}"
    return f"float{type_.bitwidth}"  # type: ignore[attr-defined]


# -- the complete CUDA program -------------------------------------------------


def read_host_extern(path: str) -> str:
    """The text of a C++ `--host-extern` file, or a user error saying why not."""
    try:
        with open(path, encoding="utf-8") as stream:
            return stream.read()
    except (OSError, UnicodeDecodeError) as reason:
        detail = reason.strerror if isinstance(reason, OSError) and reason.strerror else reason
        raise UserError(f"error: cannot read the --host-extern file '{path}': {detail}") from None


def cpp_host_section(module: ModuleOp, source: str | None, c_type: Callable[[Attribute], str]) -> str | None:
    """The C++ printed before `main`: the user's host extern code, then a
    `static_assert` per function that its type is the declaration's (`c_type`
    spells a parameter's or result's type, a buffer's as `T*`); None when
    `main` calls no extern; one located error when it does and no file was
    given."""
    declarations = host_extern_declarations(module)
    if not declarations:
        return None
    for op in declarations:
        if op.sym_name.data in LIBRARY_NAMES:
            reason = check_kernel_name(op.sym_name.data) or ""
            raise UserError.at(
                op,
                f"error: extern function '{op.sym_name.data}' cannot be called from a CUDA "
                f"program's host: {reason.replace('kernel name', 'name')} (gir-run's Python "
                "host can call it)",
            )
    if source is None:
        raise _not_implemented(
            declarations, "give the C++ code with --host-extern FILE (gir-translate --to-cuda)"
        )
    lines = [
        "// The program's host extern functions: the user's --host-extern code, and a",
        "// check that each has the type the program declares.",
        source.rstrip("\n"),
    ]
    for op in declarations:
        name = op.sym_name.data
        params = ", ".join(c_type(t) for t in op.function_type.inputs.data)
        outputs = op.function_type.outputs.data
        result = c_type(outputs[0]) if outputs else "void"
        lines.append(
            f"static_assert(std::is_same<decltype(&{name}), {result} (*)({params})>::value,\n"
            f'              "host extern function \'{name}\' must be {result} {name}({params}), '
            'as the program declares it");'
        )
    return "\n".join(lines)

