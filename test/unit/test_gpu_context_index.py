"""`GpuContext` answers its lookups (a global's buffer, a shared setup value, the
module's global vectors, where setup code goes) from indexes built once per pass,
so lowering a program with many globals takes time linear in its size: the
number of walks over `main` and the module must not grow with the globals."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from gir.frontend import parse_graphit_source
from gir.lowering import translate
from gir.passes import frontier_host_setup, gpu_elements
from gir.passes.gpu_kernels import GpuContext


def many_globals(count: int) -> str:
    """A program of `count` vertex vectors, each read and written once by `main`."""
    lines = [
        "element Vertex end",
        "element Edge end",
        "const links : edgeset{Edge}(Vertex,Vertex) = load (argv[1]);",
        *(f"const v{index} : vector{{Vertex}}(int) = {index};" for index in range(count)),
        "func main()",
        *(f"    v{index}[0] = v{index}[1] + 1;" for index in range(count)),
        "    print v0[0];",
        "end",
    ]
    return "\n".join(lines) + "\n"


def walks_while_lowering(count: int) -> Counter[str]:
    """How often the lowering of `many_globals(count)` to the host program indexes `main`'s
    bindings and shared values, reads the module's global vectors and walks the
    setup code from the graph load."""
    walks: Counter[str] = Counter()

    def counted(name: str, function: Callable[..., object]) -> Callable[..., object]:
        def wrapper(*args: object, **kwargs: object) -> object:
            walks[name] += 1
            return function(*args, **kwargs)

        return wrapper

    with pytest.MonkeyPatch.context() as patch:
        for name in ("_index_bindings", "_index_shared", "_setup_start"):
            patch.setattr(GpuContext, name, counted(name, getattr(GpuContext, name)))
        vectors = counted("global_vectors", gpu_elements.global_vectors)
        patch.setattr(gpu_elements, "global_vectors", vectors)
        patch.setattr(frontier_host_setup, "global_vectors", vectors)
        module = parse_graphit_source(many_globals(count), f"globals{count}.gt")
        text = translate(module, "host-python", f"globals{count}.gt")
    assert f"v{count - 1}" in text
    return walks


def test_lookups_walk_main_a_fixed_number_of_times_whatever_the_globals() -> None:
    walks_while_lowering(2)  # a first lowering reads the globals once more (imports, caches)
    few = walks_while_lowering(10)
    many = walks_while_lowering(150)
    assert few["_index_bindings"] >= 1 and few["global_vectors"] >= 1
    assert many == few, (few, many)
