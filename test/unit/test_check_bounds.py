"""`gpu-check-bounds` end to end on OpenCL (PoCL in CI): a computed index outside a
vector is skipped on the device and reported in one line by gir-run, and guarded
programs still compute the right results."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ArrayAttr, StringAttr

from gir.diagnostics import UserError
from gir.dialects.gir_gpu import BOUNDS_RECORD, BOUNDS_SITES, bounds_sites
from gir.api import lower_for_run
from gir.tools.run import _build_parser, checks_bounds, main, parse_program

PROGRAMS = Path(__file__).parents[1] / "programs"
OOB = PROGRAMS / "oob_computed_index.gt"


def _opencl_unavailable() -> str | None:
    try:
        import pyopencl as cl

        if not any(platform.get_devices() for platform in cl.get_platforms()):
            return "no OpenCL device"
    except Exception as error:  # noqa: BLE001 - any failure means no device here
        return f"no OpenCL: {error}"
    return None


needs_opencl = pytest.mark.skipif(_opencl_unavailable() is not None, reason=str(_opencl_unavailable()))


def _errors(capsys: pytest.CaptureFixture[str]) -> list[str]:
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return [line for line in captured.err.splitlines() if "error: " in line]


@needs_opencl
def test_a_computed_index_past_the_end_is_one_line_and_a_failure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(OOB), "road:4:4", "--target", "opencl", "--check-bounds"]) == 1
    # located at the vertex function's statement that made the access
    assert _errors(capsys) == [
        f"{OOB}:11:5: error: out-of-bounds access: kernel @map_poking stores element 1000000 of "
        "vector 'x', which has 16 elements; the access was skipped and the run stopped"
    ]


@needs_opencl
def test_a_negative_computed_index_names_its_loop(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    program = tmp_path / "negative.gt"
    program.write_text(
        OOB.read_text()
        .replace("x[v + 1000000] = v;", "x[v - 3] += 1;")
        .replace("#poking# vertices.apply(poke);", "#again# for i in 0:2\n        vertices.apply(poke);\n    end")
    )
    assert main([str(program), "road:4:4", "--target", "opencl", "--check-bounds"]) == 1
    (error,) = _errors(capsys)
    # vertices 0, 1 and 2 all miss; whichever thread records first is reported
    assert re.fullmatch(
        re.escape(f"{program}:11:5: ")
        + r"error: out-of-bounds access: kernel @map_\w+ \(statement 'again'\) atomically updates "
        r"element -[123] of vector 'x', which has 16 elements; the access was skipped and the run stopped",
        error,
    ), error


@needs_opencl
def test_a_loop_whose_exit_a_skipped_store_broke_still_stops(tmp_path: Path) -> None:
    program = tmp_path / "loop.gt"
    program.write_text(
        OOB.read_text()
        .replace("x[v + 1000000] = v;", "x[v + 1000000] = 1;")
        .replace("#poking# vertices.apply(poke);", "#waiting# while (x[0] == 0)\n        vertices.apply(poke);\n    end")
    )
    command = [sys.executable, "-m", "gir.tools.run", str(program), "road:4:4", "--target", "opencl", "--check-bounds"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == (
        f"{program}:11:5: error: out-of-bounds access: kernel @map_poke (statement 'waiting') stores element "
        "1000000 of vector 'x', which has 16 elements; the access was skipped and the run stopped"
    )


def test_without_the_flag_the_program_still_compiles() -> None:
    from gir.executor import compile_program

    module = lower_for_run(parse_program(str(OOB)))
    assert bounds_sites(module) is None
    program = compile_program(module, "opencl")
    assert "x[" in program.kernel_source and "bounds" not in program.kernel_source
    assert program.bounds_sites is None


def test_with_the_flag_every_access_is_a_site() -> None:
    module = lower_for_run(parse_program(str(PROGRAMS / "bfs.gt")), check_bounds=True)
    sites = bounds_sites(module)
    assert sites is not None
    buffers = {site.buffer for site in sites}
    assert {"vector 'pred'", "graph array 'row_ptr'", "graph array 'col_idx'", "frontier storage"} <= buffers
    assert {site.label for site in sites if site.kernel == "map_search_expand"} == {"search"}


def test_every_site_names_its_source_position() -> None:
    bfs = PROGRAMS / "bfs.gt"
    module = lower_for_run(parse_program(str(bfs)), check_bounds=True)
    sites = bounds_sites(module)
    assert sites is not None
    assert all(re.fullmatch(re.escape(str(bfs)) + r":\d+:\d+", site.location) for site in sites)
    # `pred[w] = u` in claim (line 23) is the one atomic update of pred
    updates = {site.location for site in sites if site.buffer == "vector 'pred'" and site.access == "atomically updates"}
    assert updates == {f"{bfs}:23:5"}


@pytest.mark.parametrize(
    ("flags", "expected"),
    [([], False), (["--validate"], True), (["--check-bounds"], True), (["--validate", "--no-check-bounds"], False)],
)
def test_bounds_checks_are_on_with_validate_unless_turned_off(flags: list[str], expected: bool) -> None:
    options = _build_parser().parse_args(["p.gt", "g", *flags])
    assert checks_bounds(options) is expected


@needs_opencl
@pytest.mark.parametrize(
    ("program", "graph"),
    [("bfs.gt", "road:6:5"), ("sssp_bf.gt", "road:6:5,w"), ("cc_default.gt", "rmat:6"), ("pagerank_default.gt", "rmat:6")],
)
def test_guarded_programs_validate(program: str, graph: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(PROGRAMS / program), graph, "0", "--target", "opencl", "--validate"]) == 0
    assert _errors(capsys) == []


@needs_opencl
def test_the_record_is_not_a_result_vector() -> None:
    from gir.executor import compile_program, open_device

    program = compile_program(lower_for_run(parse_program(str(PROGRAMS / "bfs.gt")), check_bounds=True), "opencl")
    result = program.run(open_device("opencl"), ["bfs", "road:4:4", "0"], io.StringIO())
    assert BOUNDS_RECORD not in result.globals and "pred" in result.globals


def test_a_malformed_site_list_is_a_user_error() -> None:
    module = lower_for_run(parse_program(str(OOB)))
    module.attributes[BOUNDS_SITES] = ArrayAttr([StringAttr("not a site")])
    with pytest.raises(UserError, match="is not a list of"):
        bounds_sites(module)
