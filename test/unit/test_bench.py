"""Tests of gir-bench: a smoke run on PoCL (table, CSV, validation), cells gir
cannot lower, and ratios against a reference CSV."""

from __future__ import annotations

import csv
import shutil
import sys
from pathlib import Path

import pytest

from gir.diagnostics import UserError
from gir.runtime.graph import load_graph
from gir.tools import bench

PROGRAMS = bench.PROGRAMS

# One level of BFS and no loop: a parent tree that misses most of the graph.
TRUNCATED_BFS = """\
element Vertex end
element Edge end
const links : edgeset{Edge}(Vertex,Vertex) = load (argv[1]);
const parent : vector{Vertex}(int) = -1;
func unseen(v : Vertex) -> fresh : bool
    fresh = parent[v] == -1;
end
func claim(u : Vertex, w : Vertex)
    parent[w] = u;
end
func main()
    var root : int = atoi(argv[2]);
    var wave : vertexset{Vertex} = new vertexset{Vertex}(0);
    wave.addVertex(root);
    parent[root] = root;
    startTimer();
    var next_wave : vertexset{Vertex} = links.from(wave).to(unseen).applyModified(claim, parent, true);
    var seconds : float = stopTimer();
    print seconds;
end
"""


@pytest.fixture
def programs(tmp_path: Path) -> Path:
    folder = tmp_path / "programs"
    folder.mkdir()
    for name in ("bfs_default.gt", "pr_default.gt"):
        shutil.copy(PROGRAMS / name, folder / name)
    (folder / "bfs_truncated_road.gt").write_text(TRUNCATED_BFS)
    return folder


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open() as stream:
        return list(csv.DictReader(stream))


def test_every_algorithm_has_default_and_g2_programs_for_both_graph_classes() -> None:
    for algorithm in bench.ALGORITHMS:
        for schedule in ("default", "g2"):
            for klass in ("social", "road"):
                assert bench.find_program(PROGRAMS, algorithm, schedule, klass) is not None


def test_smoke_run_on_pocl_times_validates_and_writes_csv(
    programs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cells.csv"
    status = bench.main([
        "--target", "opencl", "--algorithms", "bfs,pr", "--graphs", "road:6:5",
        "--schedules", "default,truncated", "--trials", "1", "--warmup", "0",
        "--programs", str(programs), "--csv", str(out),
    ])  # fmt: skip
    captured = capsys.readouterr()
    assert status == 0, captured.err
    header = captured.out.splitlines()[0].split()
    assert header[:5] == ["algorithm", "graph", "schedule", "median", "ms"]
    assert "GTEPS" in header and "gir/ref" in header
    assert "[4/4] pr road:6:5 truncated" in captured.err

    rows = read_rows(out)
    assert list(rows[0]) == list(bench.CSV_COLUMNS)
    cells = {(row["algorithm"], row["schedule"]): row for row in rows}
    edges = load_graph("road:6:5").num_edges
    for algorithm in ("bfs", "pr"):
        row = cells[(algorithm, "default")]
        assert (row["status"], row["detail"], row["trials"]) == ("ok", "validated", "1")
        assert row["edges"] == str(edges) and row["graph"] == "road:6:5"
        median = float(row["median_ms"])
        assert float(row["min_ms"]) <= median <= float(row["max_ms"])
        assert float(row["gteps"]) == pytest.approx(edges / (median * 1e6), rel=0.01)
    truncated = cells[("bfs", "truncated")]
    assert truncated["status"] == "invalid"
    assert truncated["detail"] and truncated["median_ms"]
    assert cells[("pr", "truncated")]["status"] == "no program"
    assert "invalid: " in captured.out and "no program: no pr_truncated[_road].gt" in captured.out


def test_cells_gir_cannot_lower_are_one_line_and_the_run_goes_on(
    programs: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (programs / "bfs_g2.gt").write_text(TRUNCATED_BFS)
    (programs / "pr_g2.gt").write_text(TRUNCATED_BFS)

    def refuse(module: object) -> object:
        raise UserError("error: schedule option direction = PULL is not supported yet\n  detail")

    def crash(module: object) -> object:
        raise AssertionError("a strategy half landed")

    lowerings = iter([refuse, crash])
    monkeypatch.setattr(bench, "lower_for_run", lambda module: next(lowerings)(module))
    status = bench.main([
        "--target", "opencl", "--algorithms", "bfs,pr", "--graphs", "road:4:4",
        "--schedules", "g2", "--trials", "1", "--programs", str(programs),
    ])  # fmt: skip
    captured = capsys.readouterr()
    assert status == 0 and "Traceback" not in captured.err
    lines = captured.out.splitlines()
    assert lines[1].endswith(
        "not lowered: schedule option direction = PULL is not supported yet"
    )
    assert lines[2].endswith("not lowered: internal error: AssertionError: a strategy half landed")


def test_compare_ratios_against_a_reference_csv(tmp_path: Path) -> None:
    reference_csv = tmp_path / "ref.csv"
    reference_csv.write_text(
        "# measured somewhere\n"
        "algorithm,graph,schedule,median_ms,gpu\n"
        "bfs,rmat:22,g2,2.0,NVIDIA H200\n"
        "pr,rmat:22,g2,4.0,NVIDIA H200\n"
        "pr,rmat:22,default,8.0,NVIDIA H200\n"
        "cc,rmat:22,g2,,NVIDIA H200\n"
    )
    reference = bench.read_reference(reference_csv)
    assert reference.gpu == "NVIDIA H200"
    cells = [
        bench.Cell("bfs", "rmat:22", "default", times_ms=[1.0, 3.0, 1.0], edges=10**9),
        bench.Cell("pr", "rmat:22", "default", times_ms=[2.0]),
        bench.Cell("cc", "rmat:22", "g2", times_ms=[1.0]),
        bench.Cell("bc", "rmat:22", "g2", status="not lowered", detail="no PULL yet"),
    ]
    for cell in cells:
        cell.reference_ms = reference.lookup(cell)
    # bfs: the reference's only bfs time; pr: the same schedule's; cc: none measured
    assert [cell.ratio for cell in cells] == [0.5, 0.25, None, None]
    assert cells[0].gteps == pytest.approx(1000.0)
    table = bench.format_table(cells, "NVIDIA H100 80GB HBM3", reference)
    assert "Geometric mean of gir/ref over 2 cell(s): 0.35" in table
    assert "the reference ran on NVIDIA H200, this run on NVIDIA H100" in table
    assert "not lowered: no PULL yet" in table
    same = bench.format_table(cells, "NVIDIA H200 (CUDA, sm_90)", reference)
    assert "compare different GPUs" not in same


def test_the_shipped_g2_reference_has_every_cell() -> None:
    reference = bench.read_reference(bench.G2_REFERENCE)
    for algorithm in bench.ALGORITHMS:
        for graph in ("rmat:22", "road:2048:2048"):
            assert reference.lookup(bench.Cell(algorithm, graph, "g2")) is not None
    assert reference.lookup(bench.Cell("bfs", "rmat:22", "g2")) == 1.42


def test_a_reference_without_times_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("algorithm,graph,ms\nbfs,rmat:22,1.0\n")
    assert bench.main(["--compare", str(bad)]) == 1
    assert capsys.readouterr().err == f"error: reference '{bad}' lacks the column(s) median_ms\n"


def test_plot_without_matplotlib_is_one_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert bench.main(["--plot", str(tmp_path / "cells.png")]) == 1
    assert "--plot needs matplotlib" in capsys.readouterr().err


def test_trial_time_is_the_last_printed_number_else_the_timer() -> None:
    assert bench.trial_seconds("3\n0.25\n", 0.5, 0.7) == 0.25
    assert bench.trial_seconds("done\n", 0.5, 0.7) == 0.5
    assert bench.trial_seconds("", None, 0.7) == 0.7


def test_graph_lists_keep_generator_options_with_their_spec() -> None:
    assert bench._graph_list("rmat:10,w,seed=3,road:4:4") == ["rmat:10,w,seed=3", "road:4:4"]
    assert bench.graph_class("road:4:4") == "road" and bench.graph_class("rmat:10") == "social"


def _some_cells() -> list[bench.Cell]:
    return [
        bench.Cell("bfs", "rmat:22", "g2", times_ms=[1.0], reference_ms=2.0),
        bench.Cell("pr", "road:6:5", "default", times_ms=[4.0]),  # no reference
        bench.Cell("cc", "rmat:22", "g2", status="not lowered", detail="no PULL yet"),
    ]


def test_the_table_says_why_a_ratio_is_absent() -> None:
    reference = bench.Reference({}, "NVIDIA H200", "bench/g2_h200.csv")
    lines = bench.format_table(_some_cells(), "PoCL (OpenCL)", reference).splitlines()
    ratio = lines[0].index("gir/ref")
    assert lines[1][ratio:].startswith("0.50")
    assert lines[2][lines[0].index("ref ms"):].startswith(bench.NO_REFERENCE)
    assert lines[3][ratio:].startswith(bench.NOT_MEASURED)
    assert any(line.startswith(f"{bench.NO_REFERENCE}: bench/g2_h200.csv has no time") for line in lines)
    assert any(line.startswith(f"{bench.NOT_MEASURED}: no gir/ref for a cell") for line in lines)
    referenced = bench.format_table(_some_cells()[:1], "PoCL (OpenCL)", reference)
    assert bench.NO_REFERENCE not in referenced and "no gir/ref" not in referenced


def test_plot_shows_only_measured_bars_with_a_title() -> None:
    pytest.importorskip("matplotlib")
    reference = bench.Reference({}, "NVIDIA H200", "bench/g2_h200.csv")
    title = bench.plot_title("opencl", "PoCL (OpenCL)", "driver 3.1", "2026-11-27")
    assert title == "gir-bench --target opencl, 2026-11-27\nPoCL (OpenCL)\ndriver 3.1"
    assert bench.plot_title("cuda", "H200", "", "2026-11-27").count("\n") == 1
    figure = bench.plot_figure(_some_cells(), reference, title)
    axes = figure.axes[0]
    gir_bars, reference_bars = axes.containers  # the unmeasured cc cell has no bar
    assert [bar.get_height() for bar in gir_bars] == [1.0, 4.0]
    assert [bar.get_height() for bar in reference_bars] == [2.0]  # nothing drawn as 0
    assert [text.get_text() for text in axes.get_legend().get_texts()] == [
        "gir", "reference (NVIDIA H200)",
    ]  # fmt: skip
    assert axes.get_yscale() == "log"
    assert axes.get_title() == f"{title}\n1 cell(s) without a reference time"


def test_plot_without_any_reference_has_no_reference_legend() -> None:
    pytest.importorskip("matplotlib")
    reference = bench.Reference({}, "NVIDIA H200", "bench/g2_h200.csv")
    cells = [bench.Cell("pr", "road:6:5", "default", times_ms=[4.0])]
    figure = bench.plot_figure(cells, reference, "title")
    axes = figure.axes[0]
    assert len(axes.containers) == 1
    assert [text.get_text() for text in axes.get_legend().get_texts()] == ["gir"]


def test_schedule_names_with_an_ordering_are_checked_by_their_parts() -> None:
    """`best+DEGREE` passes the --schedules check (the class has programs, the
    ordering is registered); an unknown ordering or class is a usage error."""
    folder = Path(bench.PROGRAMS)
    algorithms = [bench.ALGORITHMS["pr"], bench.ALGORITHMS["cc"]]
    bench._check_schedules(folder, algorithms, ["best+DEGREE", "pull+HUB_CLUSTER", "auto+RCM"])
    with pytest.raises(UserError, match="unknown reordering 'NOPE'"):
        bench._check_schedules(folder, algorithms, ["best+NOPE"])
    with pytest.raises(UserError, match=r"has schedule 'fastest\+DEGREE'"):
        bench._check_schedules(folder, algorithms, ["fastest+DEGREE"])
