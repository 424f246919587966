"""Fuzzing: mutated user input gives a result or one user error, never another
exception and never a hang.

Three properties over byte-level mutations of real inputs (hypothesis, derandomized
so CI sees the same examples every run):

* GraphIt programs (`test/programs/*.gt`): the frontend builds a module, which
  prints and reads back (`gir.ir_input`), or raises a `SourceError` located in
  the program;
* IR text (the printed modules of those programs and the `.mlir` inputs under
  `test/lit`): `parse_module_text` gives a module, which lowers to the GPU level
  and prints as OpenCL, or one error of the kinds the tools print as one line;
* graph files (`.el`, `.wel`, `.mtx`): `load_graph` gives a graph or a
  `GraphError`.

Every example must finish within `GIR_FUZZ_SECONDS` (default 10). CI runs a few
hundred derandomized examples per property; the long mode runs `GIR_FUZZ_EXAMPLES`
(default 10,000) random ones of each by hand (hypothesis prints how to replay a
failure)::

    GIR_FUZZ_EXAMPLES=10000 python -m pytest -m fuzz test/unit/test_fuzz_inputs.py
"""

from __future__ import annotations

import io
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.context import Context
from xdsl.utils.exceptions import PassFailedException
from xdsl.printer import Printer
from xdsl.utils.exceptions import DiagnosticException

from gir.diagnostics import SourceError, UserError
from gir.dialects import register_dialects
from gir.frontend import parse_graphit_source
from gir.frontend.source import ensure_recursion_headroom
from gir.ir_input import parse_module_text
from gir.runtime.graph import GraphError, load_graph
from gir.lowering import translate

ROOT = Path(__file__).resolve().parents[2]
SECONDS = float(os.environ.get("GIR_FUZZ_SECONDS", "10"))
LONG_EXAMPLES = int(os.environ.get("GIR_FUZZ_EXAMPLES", "10000"))
ensure_recursion_headroom()  # what the first parse does anyway; hypothesis wants it stable

PIECES = [
    b'"', b"(", b")", b"{", b"}", b"[", b"]", b"<", b">", b"%", b"//", b"\\", b"-",
    b";", b":", b",", b"=", b"#", b"0", b"9", b"-1", b"99999999999", b"0x", b"1e309",
    b"\xff", b"\xc3", "é".encode(), "ﬁ".encode(), "²".encode(), "〇".encode(),
    b"\n", b" ", b"\t", b"end\n", b"if true\n", b"elif true\n", b"while true\n",
    b"delete ", b"var ", b"[0]", b"[-1]", b"vector[4294967296](int)", b"print ",
    b'"\\q', b"i99999999999", b"!graph.", b"%0", b"^bb0", b"@main", b"#graph.",
    b"scf.if", b"func.func", b"arith.constant", b"\x00", b"\x0b",
]  # fmt: skip
"""Snippets the mutations insert: syntax, limits and the characters that broke
gir before."""


@st.composite
def mutated(draw: st.DrawFn, seeds: list[bytes]) -> bytes:
    """One seed with 1 to 4 mutations: deletions, insertions (a snippet, or a
    snippet repeated up to 300 times for nesting), duplications, byte flips and
    splices from another seed."""
    data = bytearray(draw(st.sampled_from(seeds)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "repeat", "duplicate", "flip", "splice"]))
        at = draw(st.integers(0, len(data)))
        if kind == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        elif kind == "insert":
            data[at:at] = draw(st.sampled_from(PIECES))
        elif kind == "repeat":
            data[at:at] = draw(st.sampled_from(PIECES)) * draw(st.integers(2, 300))
        elif kind == "duplicate":
            data[at:at] = data[at : at + draw(st.integers(1, 80))]
        elif kind == "flip" and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif kind == "splice":
            other = draw(st.sampled_from(seeds))
            start = draw(st.integers(0, len(other)))
            data[at:at] = other[start : start + draw(st.integers(1, 200))]
    return bytes(data)


def printed(module: object) -> str:
    """A module as gir-opt prints it."""
    stream = io.StringIO()
    Printer(stream=stream).print_op(module)  # type: ignore[arg-type]
    return stream.getvalue()


def new_context() -> Context:
    """A context with gir's dialects."""
    ctx = Context()
    register_dialects(ctx)
    return ctx


def gt_seeds() -> list[bytes]:
    """The example programs."""
    return [path.read_bytes() for path in sorted((ROOT / "test/programs").glob("*.gt"))]


def mlir_seeds() -> list[bytes]:
    """The printed modules of the example programs and the lit tests' IR, split
    at `// -----`."""
    seeds = [
        printed(parse_graphit_source(source, "seed.gt")).encode() for source in gt_seeds()[:6]
    ]
    for path in sorted((ROOT / "test/lit").rglob("*.mlir")):
        if "Output" not in path.parts:
            seeds.extend(chunk for chunk in path.read_bytes().split(b"// -----") if chunk.strip())
    return seeds


GRAPH_SEEDS = {
    ".el": [b"0 1\n1 2\n2 0\n2 3\n", b"# comment\n0 1\n1 0\n3 4\n"],
    ".wel": [b"0 1 5\n1 2 7\n2 0 1\n2 3 -2\n", b"0 1 1\n"],
    ".mtx": [
        b"%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 3\n3 1\n",
        b"%%MatrixMarket matrix coordinate integer symmetric\n% c\n4 4 2\n2 1 3\n4 3 9\n",
    ],
}


def timed(check: Callable[[bytes], None]) -> Callable[[bytes], None]:
    """`check`, failing when one example takes more than `SECONDS`."""

    def run(data: bytes) -> None:
        start = time.monotonic()
        check(data)
        elapsed = time.monotonic() - start
        assert elapsed < SECONDS, f"took {elapsed:.1f} s: {data[:200]!r}"

    return run


def check_program(data: bytes) -> None:
    """A mutated program compiles (and its IR reads back) or is a located error."""
    try:
        module = parse_graphit_source(data, "fuzz.gt")
    except SourceError as error:
        assert str(error).startswith("fuzz.gt:"), str(error)
        return
    except UserError as error:
        pytest.fail(f"unlocated or internal error: {error}")
    parse_module_text(printed(module), "printed.mlir", new_context())


def check_ir(data: bytes) -> None:
    """Mutated IR parses (and translates) or is one user-facing error."""
    try:
        module = parse_module_text(data, "fuzz.mlir", new_context())
    except UserError as error:
        assert str(error).startswith("fuzz.mlir"), str(error)
        return
    try:
        translate(module, "opencl", "fuzz.mlir")
    except (UserError, DiagnosticException, PassFailedException):
        pass


def check_graph(suffix: str) -> Callable[[bytes], None]:
    """A mutated graph file loads or is a GraphError."""

    def check(data: bytes) -> None:
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / f"fuzz{suffix}"
            path.write_bytes(data)
            try:
                load_graph(path, cache=False)
            except GraphError:
                pass

    return check


def run_fuzz(check: Callable[[bytes], None], seeds: list[bytes], mode: str, ci: int) -> None:
    """Mutations of `seeds` through `check`: `ci` derandomized ones in mode "ci",
    else `LONG_EXAMPLES` random ones."""
    fuzz = settings(
        max_examples=ci if mode == "ci" else LONG_EXAMPLES,
        derandomize=mode == "ci",
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )(given(mutated(seeds))(timed(check)))
    fuzz()


MODES = ["ci", pytest.param("long", marks=pytest.mark.fuzz)]


@pytest.mark.parametrize("mode", MODES)
def test_fuzz_graphit_programs(mode: str) -> None:
    run_fuzz(check_program, gt_seeds(), mode, 250)


@pytest.mark.parametrize("mode", MODES)
def test_fuzz_ir_text(mode: str) -> None:
    run_fuzz(check_ir, mlir_seeds(), mode, 200)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("suffix", sorted(GRAPH_SEEDS))
def test_fuzz_graph_files(mode: str, suffix: str) -> None:
    run_fuzz(check_graph(suffix), GRAPH_SEEDS[suffix], mode, 100)


def test_redos_string_answers_fast() -> None:
    """The unterminated 40-character string that used to hang xDSL's lexer."""
    text = 'builtin.module attributes {a = "' + "x" * 40 + "\n} {\n}\n"
    start = time.monotonic()
    with pytest.raises(SourceError, match=r"^r\.mlir:1:32: error: unterminated string literal"):
        parse_module_text(text, "r.mlir", new_context())
    assert time.monotonic() - start < 1.0
