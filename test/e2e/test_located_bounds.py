"""End to end: source locations survive the lowering into what runs. A bounds
miss in an edge function is reported at that function's statement
(`prog.gt:LINE:COL: error: ...`), on every target; a program given as IR keeps
the `loc(...)` it was written with."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from gir.api import lower_for_run
from gir.diagnostics import UserError
from gir.tools.run import parse_program
from test_programs import TARGETS

SOURCE = """element Vertex end
element Edge end
const edges : edgeset{Edge}(Vertex,Vertex) = load (argv[1]);
const reach : vector{Vertex}(int) = 0;

func spread(src : Vertex, dst : Vertex)
    reach[dst] += 1;
    reach[dst + 1000] += 1;
end

func main()
    #spreading# edges.apply(spread);
end
"""
MISS = "reach[dst + 1000] += 1;"


def _bounds_error(path: Path, target: str, device: object) -> str:
    from gir.executor import compile_program

    executable = compile_program(lower_for_run(parse_program(str(path)), check_bounds=True), target)
    with pytest.raises(UserError) as raised:
        executable.run(device, [path.name, "road:4:4"], io.StringIO())
    return str(raised.value)


@pytest.mark.parametrize("target", TARGETS)
def test_a_bounds_miss_names_its_statement(target, devices, tmp_path: Path) -> None:
    target_name, index = target
    program = tmp_path / "spread.gt"
    program.write_text(SOURCE)
    line = SOURCE.splitlines().index(f"    {MISS}") + 1
    message = _bounds_error(program, target_name, devices(target_name, index))
    assert message.startswith(f"{program}:{line}:5: error: out-of-bounds access: kernel @map_spreading ")
    assert "element 1" in message and "of vector 'reach', which has 16 elements" in message


@pytest.mark.parametrize("target", TARGETS)
def test_ir_input_keeps_its_written_locations(target, devices, tmp_path: Path) -> None:
    """The graph-level IR of the program, printed with its locations and read back,
    reports the same position."""
    from xdsl.printer import Printer

    program = tmp_path / "spread.gt"
    program.write_text(SOURCE)
    text = io.StringIO()
    Printer(stream=text, print_debuginfo=True).print_op(parse_program(str(program)))
    ir = tmp_path / "spread.mlir"
    ir.write_text(text.getvalue())
    target_name, index = target
    line = SOURCE.splitlines().index(f"    {MISS}") + 1
    message = _bounds_error(ir, target_name, devices(target_name, index))
    assert message.startswith(f"{program}:{line}:5: error: out-of-bounds access")
