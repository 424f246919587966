"""Tests of gir-run's arguments, --dump and --validate: one clear line for every user
error, and validation that fails when it cannot tell what to check."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from gir.runtime import reference
from gir.runtime.graph import load_graph
from gir.program_inputs import check_int_arguments
from gir.tools.run import _memory_size, main, parse_program
from gir.validate import find_validator

PROGRAMS = Path(__file__).parents[1] / "programs"


def one_error_line(capsys: pytest.CaptureFixture[str]) -> str:
    errors = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error")]
    assert len(errors) == 1, errors
    return errors[0]


# --------------------------------------------------------------------------------------
# Integer arguments and --max-memory
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("start", ["2147483648", "-2147483649", "0x80000000"])
def test_a_start_vertex_outside_i32_is_one_line(
    start: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(PROGRAMS / "bfs.gt"), "road:4:4", start, "--target", "opencl"]) == 1
    assert one_error_line(capsys) == (
        f"error: argv[2] is {start}, which does not fit the program's i32 "
        "(it must lie in [-2147483648, 2147483647])"
    )


def test_int_arguments_in_range_or_unread_pass() -> None:
    program = parse_program(str(PROGRAMS / "bfs.gt"))
    check_int_arguments(program, ["bfs", "g.el", "2147483647"])
    check_int_arguments(program, ["bfs", "g.el", "-2147483648"])
    check_int_arguments(program, ["bfs", "g.el"])  # reported by the run itself
    check_int_arguments(program, ["bfs", "g.el", "seven"])


@pytest.mark.parametrize(
    ("text", "expected"), [("auto", None), ("1024", 1024), ("16G", 16 << 30), ("3m", 3 << 20)]
)
def test_max_memory_values(text: str, expected: int | None) -> None:
    assert _memory_size(text) == expected


def test_a_bad_max_memory_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_status:
        main([str(PROGRAMS / "bfs.gt"), "road:4:4", "0", "--max-memory", "lots"])
    assert exit_status.value.code == 2
    assert "'lots' is not a positive byte count" in capsys.readouterr().err


def test_max_memory_refuses_a_graph_before_generating_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [str(PROGRAMS / "bfs.gt"), "rmat:16", "0", "--target", "opencl", "--max-memory", "1M"]
    assert main(argv) == 1
    line = one_error_line(capsys)
    assert line.startswith("error: generating 'rmat:16:16,seed=0' needs about ")
    assert line.endswith("but --max-memory allows 1 MB (gir-run --max-memory BYTES overrides this)")


# --------------------------------------------------------------------------------------
# --dump
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["file", "allow_pickle"])
def test_dump_takes_vectors_named_like_savez_arguments(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / f"bfs_{name}.gt"
    program.write_text((PROGRAMS / "bfs.gt").read_text().replace("pred", name))
    dump = tmp_path / "out.npz"
    argv = [str(program), "road:4:4", "0", "--target", "opencl", "--dump", str(dump)]
    assert main([*argv, "--validate"]) == 0, capsys.readouterr().err
    with np.load(dump, allow_pickle=False) as vectors:
        assert name in vectors.files
        parent = vectors[name]
    assert reference.check_bfs_parent(load_graph("road:4:4"), 0, parent) is None
    assert [path.name for path in tmp_path.iterdir() if path.suffix == ".tmp"] == []


# --------------------------------------------------------------------------------------
# --validate
# --------------------------------------------------------------------------------------

UNRECOGNISED = """\
element Vertex end
element Edge end
const links : edgeset{Edge}(Vertex,Vertex) = load (argv[1]);
const nodes : vertexset{Vertex} = links.getVertices();
const degree : vector{Vertex}(int) = 0;
func count(u : Vertex, w : Vertex)
    degree[w] += 1;
end
func main()
    links.apply(count);
    print degree[0];
end
"""


def test_validate_fails_when_no_reference_applies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "indegree.gt"
    program.write_text(UNRECOGNISED)
    assert find_validator(parse_program(str(program))) is None
    assert main([str(program), "road:4:4", "--target", "opencl", "--validate"]) == 1
    line = one_error_line(capsys)
    assert line.startswith("error: --validate: cannot tell which CPU reference applies")
    assert main([str(program), "road:4:4", "--target", "opencl"]) == 0


@pytest.mark.parametrize(
    ("program", "rank"),
    [("pagerank.gt", "rank"), ("pagerank_default.gt", "rank"), ("pagerank_double.gt", "score")],
)
def test_pagerank_validation_checks_the_rank_vector(program: str, rank: str) -> None:
    validator = find_validator(parse_program(str(PROGRAMS / program)))
    assert validator is not None and f"ranks in '{rank}'" in validator.algorithm
    graph = load_graph("road:6:5")
    ranks = reference.pagerank(graph, iterations=20)
    others = {"drift": np.zeros_like(ranks), "share": ranks.copy(), "inflow": ranks.copy()}
    assert validator.check(graph, [program, "road:6:5"], {rank: ranks, **others}) is None
    wrong = ranks.copy()
    wrong[3] *= 1.5
    problem = validator.check(graph, [program, "road:6:5"], {rank: wrong, **others})
    assert problem is not None and "vertex 3" in problem


def test_pagerank_with_two_candidate_rank_vectors_is_not_recognised() -> None:
    source = (PROGRAMS / "pagerank_default.gt").read_text()
    # `drift` now also feeds the shares, so it is a rank candidate as much as `rank`.
    ambiguous = source.replace("share[v] = rank[v] / fanout[v];", "share[v] = (rank[v] + drift[v]) / fanout[v];")
    assert ambiguous != source
    module = parse_program_text(ambiguous)
    assert find_validator(module) is None


def parse_program_text(source: str):
    from gir.frontend import parse_graphit_source

    return parse_graphit_source(source, "ambiguous.gt")


def test_validation_uses_a_graph_loaded_independently_of_the_cache(
    tmp_path: Path, cache_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.el"
    path.write_text("0 1\n1 0\n1 2\n2 1\n2 3\n3 2\n")
    argv = [str(PROGRAMS / "bfs.gt"), str(path), "0", "--target", "opencl", "--validate"]
    assert main(argv) == 0
    # A forged entry: other edges, a key and checksum that match them.
    from gir.runtime.graph import from_edges
    from gir.runtime.graph.cache import CacheEntry

    entry = CacheEntry.for_file(path, path.stat().st_size, path.stat().st_mtime_ns)
    forged = from_edges(4, np.array([0, 1, 0, 3]), np.array([1, 0, 3, 0]))
    entry.write(forged, lambda message: None)
    capsys.readouterr()
    assert main(argv) == 1
    assert one_error_line(capsys).startswith("error: validation of BFS (parent tree in 'pred') failed")


def test_a_hexadecimal_start_vertex_is_validated_like_the_run_reads_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = [str(PROGRAMS / "bfs.gt"), "road:4:4", "0x5", "--target", "opencl", "--validate"]
    assert main(argv) == 0, capsys.readouterr().err


# --------------------------------------------------------------------------------------
# Checks before the compile, and --warmup
# --------------------------------------------------------------------------------------


def _refuse_to_compile(monkeypatch: pytest.MonkeyPatch) -> None:
    from gir import executor

    def compile_program(*args: object, **kwargs: object) -> None:
        raise AssertionError("gir-run compiled a program it should have refused first")

    monkeypatch.setattr(executor, "compile_program", compile_program)


def test_a_missing_graph_file_is_reported_before_the_compile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _refuse_to_compile(monkeypatch)
    missing = tmp_path / "typo.el"
    assert main([str(PROGRAMS / "bfs.gt"), str(missing), "0", "--target", "opencl"]) == 1
    assert one_error_line(capsys) == f"error: graph file not found: {missing}"


def test_a_missing_fixed_graph_file_is_reported_before_the_compile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _refuse_to_compile(monkeypatch)
    monkeypatch.chdir(tmp_path)  # fixed_bfs.gt's graphs/ folder is not here
    assert main([str(PROGRAMS / "fixed_bfs.gt"), "--target", "opencl"]) == 1
    assert one_error_line(capsys).startswith("error: graph file not found: ")


@pytest.mark.parametrize("warmup", [0, 2])
def test_warmup_runs_are_untimed_and_print_nothing(
    warmup: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from gir.runtime.program import CompiledProgram

    runs: list[int] = []
    original = CompiledProgram.run

    def counted(self: CompiledProgram, *args: object, **kwargs: object) -> object:
        runs.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(CompiledProgram, "run", counted)
    argv = [str(PROGRAMS / "lang_hostonly.gt"), "20", "--trials", "2", "--warmup", str(warmup)]
    assert main([*argv, "--target", "opencl"]) == 0
    captured = capsys.readouterr()
    assert len(runs) == warmup + 2
    assert captured.out == "8\n77\n19\n5\n2.375\n" * 2  # the timed trials' output only
    assert "over 2 trial(s)" in captured.err


def test_a_negative_warmup_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_status:
        main([str(PROGRAMS / "lang_hostonly.gt"), "20", "--warmup", "-1"])
    assert exit_status.value.code == 2
    assert capsys.readouterr().err.endswith(
        "gir-run: error: argument --warmup: must be at least 0, not -1\n"
    )


@pytest.mark.parametrize(
    "text, value",
    [("0", 0), ("17", 17), ("-3", -3), ("+4", 4), ("0x1f", 31), ("-0X1F", -31),
     ("1_0", None), ("\uff11", None), ("0b1", None), ("0o7", None), ("01", None),
     (" 5", None), ("5 ", None), ("", None), ("0x", None)],
)
def test_argv_integers_are_read_as_the_cpp_runtime_reads_them(text: str, value: int | None) -> None:
    """Python's int(text, 0) also takes `1_0`, full-width digits, `0b1`, `0o7` and
    spaces, which the complete CUDA program's strtoll-based reader refuses."""
    from gir.protocol import parse_argv_int

    assert parse_argv_int(text) == value


def test_an_argv_integer_with_an_underscore_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(PROGRAMS / "bfs.gt"), "road:4:4", "1_0", "--target", "opencl"]) == 1
    assert one_error_line(capsys) == "error: argv[2] must be an integer, not '1_0'"
