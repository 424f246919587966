"""End to end: control flow nested deeper than Python allows in one function (20
nested loops, 100 indentation levels) runs, the host printer moving the deep
part into functions of their own (`gir.targets.host_python.OUTLINE_DEPTH`).
Run on OpenCL (PoCL in CI) and CUDA where present."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from gir.api import lower_for_run
from gir.frontend import parse_graphit_source
from gir.frontend.limits import MAX_LOOP_NESTING, MAX_NESTING
from gir.executor import compile_program
from gir.targets.host_python import print_host_python
from test_programs import TARGETS

HEADER = """element Vertex end
element Edge end
const links : edgeset{Edge}(Vertex,Vertex) = load (argv[1]);
const nodes : vertexset{Vertex} = links.getVertices();
const hits : vector{Vertex}(int) = 0;
func bump(v : Vertex)
    hits[v] = hits[v] + 1;
end
"""


def nested_program(depth: int) -> str:
    """`main` nests `depth` levels of `for`, `while` and `if` (in turn, then only
    `if`s once the loops reach the frontend's limit) around a vertex apply and a
    sum; the outermost loop runs 3 times, the others once, so it prints
    3 * argv[2], then 3 (the hits of vertex 0)."""
    opening: list[str] = ["    for r in 0:3"]
    closing: list[str] = ["    end"]
    for level in range(1, depth):
        kind = level % 3 if level < 2 * MAX_LOOP_NESTING // 3 else 2  # loops within the limit
        if kind == 0:
            opening.append(f"    for i{level} in 0:1")
            closing.append("    end")
        elif kind == 1:
            opening += [f"    var w{level} : int = 0;", f"    while w{level} < 1"]
            closing.append(f"    w{level} = w{level} + 1;\n    end")
        else:
            opening.append(f"    if k > {-level}")
            closing.append("    end")
    body = ["    d = d + k;", "    nodes.apply(bump);"]
    main = ["func main()", "    var d : int = 0;", "    var k : int = atoi(argv[2]);"]
    main += opening + body + closing[::-1] + ["    print d;", "    print hits[0];", "end"]
    return HEADER + "\n".join(main) + "\n"


def test_deep_host_code_compiles_as_python() -> None:
    """No function of the printed host program nests more than Python allows."""
    module = lower_for_run(parse_graphit_source(nested_program(MAX_NESTING), "deep.gt"))
    source = print_host_python(module)
    compile(source, "deep.py", "exec")
    assert "def gir_nested_" in source


@pytest.mark.parametrize("depth", [21, 64])
@pytest.mark.parametrize("target", TARGETS)
def test_deep_nesting_runs(target, devices, depth: int) -> None:
    module = lower_for_run(parse_graphit_source(nested_program(depth), "deep.gt"))
    name, index = target
    out = io.StringIO()
    compile_program(module, name).run(devices(name, index), ["deep", "road:4:4", "5"], out)
    assert out.getvalue().split() == ["15", "3"]
