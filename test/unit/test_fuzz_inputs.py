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

and three over generated inputs: every argv index of IR ops that read the command
line is verified (a negative one is a located error); control flow nested at any
depth prints host Python that compiles; verifying a program of any number of
calls looks no symbol up by scanning (linear compile time).

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
    b"for i in 0:1\n", b"argv[0xFFFFFFFFFFFFFFFF]", b"argv[", b"list{", b"0" * 64,
]  # fmt: skip
"""Snippets the mutations insert: syntax, limits (nesting, argv indices, long
literals) and the characters that broke gir before."""


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


ARGV_OPS = [
    "%x = graph.argv_int argv[{index}] : i32",
    "%x = host.argv_int argv[{index}] : i32",
    "%g = graph.load_edges {{argv = {index} : i64}} : !graph.edgeset",
    "%g = host.load_graph {{argv = {index} : i64}}",
]
"""The IR ops that read the command line, with an argv index to fill in."""


def structured(check: Callable[..., None], strategy: st.SearchStrategy, mode: str, ci: int) -> None:
    """`check` over values of `strategy`: `ci` derandomized ones in mode "ci",
    else `LONG_EXAMPLES` random ones."""
    settings(
        max_examples=ci if mode == "ci" else LONG_EXAMPLES,
        derandomize=mode == "ci",
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )(given(strategy)(check))()


@pytest.mark.parametrize("mode", MODES)
def test_fuzz_argv_indices_in_ir(mode: str) -> None:
    """Every argv index of IR is verified: negative ones are a located error, the
    others read."""

    def check(case: tuple[str, int]) -> None:
        op, index = case
        text = f"builtin.module {{\n  func.func @main() {{\n    {op.format(index=index)}\n    func.return\n  }}\n}}\n"
        if index < 0:
            with pytest.raises(UserError, match=rf"fuzz.mlir:3:5: .*argv index {index} is negative"):
                parse_module_text(text, "fuzz.mlir", new_context())
        else:
            parse_module_text(text, "fuzz.mlir", new_context())

    indices = st.integers(-(2**63), 2**63 - 1) | st.integers(-3, 3)
    structured(check, st.tuples(st.sampled_from(ARGV_OPS), indices), mode, 100)


def nested_program(kinds: list[str]) -> str:
    """`main` nesting `for`, `while` and `if` in the order of `kinds` around a sum."""
    opening, closing = [], []
    for level, kind in enumerate(kinds):
        if kind == "for":
            opening.append(f"    for i{level} in 0:1")
            closing.append("    end")
        elif kind == "while":
            opening += [f"    var w{level} : int = 0;", f"    while w{level} < 1"]
            closing.append(f"    w{level} = w{level} + 1;\n    end")
        else:
            opening.append("    if d >= 0")
            closing.append("    end")
    lines = ["func main()", "    var d : int = 0;", *opening, "    d = d + 1;", *closing[::-1]]
    return "\n".join([*lines, "    print d;", "end", ""])


@pytest.mark.parametrize("mode", MODES)
def test_fuzz_nesting_depth(mode: str) -> None:
    """Control flow nested to any depth the frontend accepts prints host Python
    that compiles."""
    from gir.api import lower_for_run
    from gir.targets.host_python import print_host_python

    def check(kinds: list[str]) -> None:
        module = lower_for_run(parse_graphit_source(nested_program(kinds), "fuzz.gt"))
        compile(print_host_python(module), "host.py", "exec")

    from gir.frontend.limits import MAX_LOOP_NESTING, MAX_NESTING

    loops = st.lists(st.sampled_from(["for", "while"]), max_size=MAX_LOOP_NESTING)
    ifs = st.integers(0, MAX_NESTING - MAX_LOOP_NESTING).map(lambda count: ["if"] * count)
    kinds = st.tuples(loops, ifs).flatmap(lambda pair: st.permutations(pair[0] + pair[1]))
    structured(check, kinds.filter(bool), mode, 15)


@pytest.mark.parametrize("mode", MODES)
def test_fuzz_call_counts(mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Verifying a program of any number of calls scans no symbol table."""
    import gir.verifier

    scans: list[object] = []
    scanning = gir.verifier._scanning_lookup  # pyright: ignore[reportPrivateUsage]
    monkeypatch.setattr(gir.verifier, "_scanning_lookup", lambda *args: scans.append(args) or scanning(*args))

    def check(calls: int) -> None:
        lines = [line for index in range(calls) for line in (f"func f{index}(x : int) -> y : int", f"    y = x + {index};", "end")]
        lines += ["func main()", "    var s : int = 0;", *(f"    s = f{index}(s);" for index in range(calls)), "    print s;", "end"]
        module = parse_graphit_source("\n".join(lines), "fuzz.gt")
        gir.verifier.verify_module(module)
        assert not scans

    structured(check, st.integers(1, 300 if mode == "ci" else 3000), mode, 10)


def test_redos_string_answers_fast() -> None:
    """The unterminated 40-character string that used to hang xDSL's lexer."""
    text = 'builtin.module attributes {a = "' + "x" * 40 + "\n} {\n}\n"
    start = time.monotonic()
    with pytest.raises(SourceError, match=r"^r\.mlir:1:32: error: unterminated string literal"):
        parse_module_text(text, "r.mlir", new_context())
    assert time.monotonic() - start < 1.0
