"""gir-tune end to end on OpenCL (PoCL on the CPU): a short search on a small
RMAT graph whose winner is a valid program, stored in the tuning cache where
`gir-run --schedule tuned` finds it; a resumed search measures nothing twice;
`--schedule auto` runs and validates."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

import gir
from gir.tools.bench import main as gir_bench
from gir.tools.run import main as gir_run
from gir.tools.tune import main as gir_tune

pytest.importorskip("optuna")

PROGRAMS = Path(__file__).parents[1] / "programs"
GRAPH = "rmat:8"


def test_a_short_tune_writes_a_valid_program_and_fills_the_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, table, journal = tmp_path / "bfs_tuned.gt", tmp_path / "tune.csv", tmp_path / "journal.jsonl"
    args = [str(PROGRAMS / "bfs.gt"), GRAPH, "0", "--target", "opencl", "--budget", "6s", "--trials", "2"]
    assert gir_tune([*args, "-o", str(out), "--csv", str(table), "--journal", str(journal)]) == 0
    err = capsys.readouterr().err
    assert "schedules in the space" in err and "best" in err and "s left" in err

    rows = list(csv.DictReader(table.open()))
    assert [row["origin"] for row in rows[:2]] == ["default", "auto"]  # bfs.gt has no schedule of its own
    assert rows[0]["status"] == rows[1]["status"] == "ok"
    assert {row["status"] for row in rows} <= {"ok", "failed", "invalid", "timeout"}  # a failure is a row, not a crash
    journal_schedules = [json.loads(line)["schedule"] for line in journal.read_text().splitlines()[1:]]
    assert len(set(journal_schedules)) == len(rows)  # a finalist's line comes again with its final round
    finalists = [row for row in rows if row["final_ms"]]
    assert all(row["median_ms"] == row["final_ms"] for row in finalists)  # what the winner is chosen by
    assert ("final round:" in err) == (len(finalists) >= 2) or "final round: no time left" in err

    # the winner is the whole program: it compiles and validates
    result = gir.compile(str(out)).run(GRAPH, 0, target="opencl", validate=True)
    assert result.times

    # gir-run finds it in the cache for this program and graph, and not for another graph
    assert gir_run([str(PROGRAMS / "bfs.gt"), GRAPH, "0", "--target", "opencl", "--schedule", "tuned", "--validate"]) == 0
    assert "validated BFS" in capsys.readouterr().err
    assert gir_run([str(PROGRAMS / "bfs.gt"), "rmat:7", "0", "--target", "opencl", "--schedule", "tuned"]) == 1
    assert "no tuning result" in capsys.readouterr().err

    # resuming measures none of the earlier candidates again
    assert gir_tune([*args, "--budget", "1s", "--journal", str(journal), "--resume"]) == 0
    schedules = [json.loads(line)["schedule"] for line in journal.read_text().splitlines()[1:]]
    assert len(set(schedules)) >= len(rows)


def test_auto_runs_and_validates(capsys: pytest.CaptureFixture[str]) -> None:
    assert gir_run([str(PROGRAMS / "bfs.gt"), GRAPH, "0", "--target", "opencl", "--schedule", "auto", "--validate"]) == 0
    assert "validated BFS" in capsys.readouterr().err
    assert gir.compile(str(PROGRAMS / "bfs.gt"), schedule="auto").run(GRAPH, 0, target="opencl", validate=True).times


def test_bench_runs_auto_and_says_why_tuned_has_no_program(tmp_path: Path) -> None:
    table = tmp_path / "bench.csv"
    args = ["--target", "opencl", "--algorithms", "pr", "--graphs", "rmat:6", "--trials", "1"]
    assert gir_bench([*args, "--schedules", "auto,tuned", "--csv", str(table)]) == 0
    auto, tuned = csv.DictReader(table.open())
    assert (auto["schedule"], auto["status"], auto["detail"]) == ("auto", "ok", "validated")
    assert tuned["status"] == "no program" and "no tuning result" in tuned["detail"]


def test_a_program_failing_at_its_default_schedule_stops_the_search(capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(PROGRAMS / "bfs.gt"), GRAPH, "--target", "opencl", "--budget", "60s"]
    assert gir_tune(args) == 1  # no start vertex: no schedule can mend that
    assert capsys.readouterr().err.splitlines()[-1] == (
        "error: the program reads argv[2], but only 1 argument(s) were given"
    )


IN_DEGREES = """element Vertex end
element Edge end
const edges : edgeset{Edge}(Vertex,Vertex) = load (argv[1]);
const indeg : vector{Vertex}(int) = 0;
func count(src : Vertex, dst : Vertex)
    indeg[dst] += 1;
end
func main()
    #tally# edges.apply(count);
end
"""


def test_without_a_cpu_reference_candidates_match_the_default_schedule(tmp_path: Path) -> None:
    assert gir.compile(IN_DEGREES).validator is None
    journal = tmp_path / "journal.jsonl"
    first = gir.tune(IN_DEGREES, GRAPH, budget=2, target="opencl", trials=1, journal=journal)
    # the one candidate running when the budget ends may be stopped (timeout), none is wrong
    assert all(m.status in ("ok", "timeout") for m in first.measurements), [m.detail for m in first.measurements]
    # resumed, the default's vectors come from a fresh run, not the journal
    again = gir.tune(IN_DEGREES, GRAPH, budget=2, target="opencl", trials=1, journal=journal, resume=True)
    assert len(again.measurements) >= len(first.measurements)
    assert all(m.status in ("ok", "timeout") for m in again.measurements), [m.detail for m in again.measurements]


SLOW_AT_DEFAULT = """element Vertex end
element Edge end
const roads : edgeset{Edge}(Vertex,Vertex,int) = load (argv[1]);
const est : vector{Vertex}(int) = 2147483647;
const buckets : priority_queue{Vertex}(int);
func relax(u : Vertex, w : Vertex, len : int)
    var via_u : int = est[u] + len;
    buckets.updatePriorityMin(w, est[w], via_u);
end
func main()
    var source : int = atoi(argv[2]);
    buckets = new priority_queue{Vertex}(int)(false, false, est, 1, 2, false, source);
    est[source] = 0;
    #steps# while (buckets.finished() == false)
        var ready : vertexset{Vertex} = buckets.dequeue_ready_set();
        #relaxing# roads.from(ready).applyUpdatePriority(relax);
        delete ready;
    end
    delete buckets;
end

schedule:
    SimpleGPUSchedule wide;
    wide.configDelta(100000);
    program->applyGPUSchedule("steps:relaxing", wide);
"""
"""Delta-stepping SSSP whose own schedule (bucket width 100000) runs a weighted
road grid of 256x256 in 0.05 s on PoCL here, while the default schedule (width
1: one bucket per distance, thousands of host iterations) runs it for 29 s on
the 2-core machine at load average 11 (four times the 4-second budget below
when idle)."""

SLOW_GRAPH = "road:256:256,w"


def test_a_candidate_running_past_the_budget_is_stopped_and_never_chosen(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    program, table, out = tmp_path / "sssp.gt", tmp_path / "tune.csv", tmp_path / "best.schedule"
    program.write_text(SLOW_AT_DEFAULT)
    budget = 4.0  # the stopped default runs on every core until then
    started = time.perf_counter()
    status = gir_tune([
        str(program), SLOW_GRAPH, "0", "--target", "opencl", "--budget", f"{budget:g}s", "--trials", "1",
        "--warmup", "0", "--csv", str(table), "-o", str(out), "--journal", str(tmp_path / "journal.jsonl"),
    ])  # fmt: skip
    elapsed = time.perf_counter() - started
    assert status == 0, capsys.readouterr().err
    rows = list(csv.DictReader(table.open()))
    default = rows[0]
    assert (default["origin"], default["status"], default["median_ms"]) == ("default", "timeout", "")
    assert default["detail"].startswith("stopped after"), default["detail"]
    assert rows[1]["origin"] == "program" and rows[1]["status"] == "ok"
    assert "configDelta(1)" not in out.read_text()  # the winner is never the stopped default
    # the default alone runs longer than this; the search is the budget, the
    # other seeds' compiles and runs, and at most their quarter-budget shares
    assert elapsed < budget + 2 * (budget / 4) + 20


def test_a_run_past_its_deadline_stops_at_its_next_host_step() -> None:
    from gir.runtime.run import RunDeadline, run_deadline

    slow = gir.compile(SLOW_AT_DEFAULT, schedule="schedule:\n")
    slow.compiled("opencl")
    started = time.perf_counter()
    with pytest.raises(RunDeadline, match="stopped after"), run_deadline(time.perf_counter() + 2.0):
        slow.run(SLOW_GRAPH, 0, target="opencl")
    assert time.perf_counter() - started < 10  # the whole run takes 29 s
    # outside the block, runs have no deadline again
    assert gir.compile(str(PROGRAMS / "bfs.gt")).run(GRAPH, 0, target="opencl").times


def test_gir_bench_stops_a_cell_past_its_limit(tmp_path: Path) -> None:
    """`gir-bench --cell-limit`: the slow default schedule's cell is a `timeout`
    row after about its limit, and the run goes on to write the table."""
    from gir.tools import bench

    programs, table = tmp_path / "programs", tmp_path / "cells.csv"
    programs.mkdir()
    (programs / "sssp_default.gt").write_text(SLOW_AT_DEFAULT.split("schedule:")[0])
    started = time.perf_counter()
    status = bench.main([
        "--target", "opencl", "--algorithms", "sssp", "--graphs", SLOW_GRAPH.split(",")[0],
        "--schedules", "default", "--programs", str(programs), "--trials", "2", "--warmup", "0",
        "--cell-limit", "2", "--csv", str(table),
    ])  # fmt: skip
    assert status == 0
    assert time.perf_counter() - started < 25  # the cell alone runs 29 s per trial
    (row,) = list(csv.DictReader(table.open()))
    assert (row["status"], row["median_ms"]) == ("timeout", "")
    assert row["detail"] == "stopped after 2 s (--cell-limit), 0 timed trial(s) done"


HANGS = """element Vertex end
element Edge end
const edges : edgeset{Edge}(Vertex,Vertex) = load (argv[1]);
const vertices : vertexset{Vertex} = edges.getVertices();
const spins : vector{Vertex}(int) = 0;
func spin(v : Vertex)
    var k : int = 0;
    while (k >= 0)
        k = k + 1;
        if (k > 1000000)
            k = 0;
        end
    end
    spins[v] = k;
end
func main()
    vertices.apply(spin);
end
"""
"""A program whose one kernel never returns, at any schedule."""


def test_a_kernel_that_never_returns_is_reported_hung_and_gir_tune_exits(tmp_path: Path) -> None:
    program, table, journal = tmp_path / "hangs.gt", tmp_path / "tune.csv", tmp_path / "journal.jsonl"
    program.write_text(HANGS)
    started = time.perf_counter()
    finished = subprocess.run(
        [sys.executable, "-m", "gir.tools.tune", str(program), "rmat:4", "--target", "opencl", "--budget", "2s",
         "--trials", "1", "--warmup", "0", "--csv", str(table), "--journal", str(journal), "--hang-grace", "1"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert finished.returncode == 1, finished.stderr
    assert "hung (a kernel did not return)" in finished.stderr.splitlines()[-1]
    assert "Traceback" not in finished.stderr
    (row,) = csv.DictReader(table.open())
    assert (row["origin"], row["status"]) == ("default", "timeout") and row["detail"].startswith("hung")
    assert json.loads(journal.read_text().splitlines()[1])["status"] == "timeout"
    assert time.perf_counter() - started < 90  # the kernel alone would spin forever


def test_tune_matrix_times_the_chosen_classes(tmp_path: Path) -> None:
    """tools/tune_matrix.py tunes a cell, then times only the classes asked for,
    each validated, and writes their ratios; an unknown class is a usage error."""
    tool = Path(__file__).parents[2] / "tools" / "tune_matrix.py"
    command = [sys.executable, str(tool), "--out", str(tmp_path), "--graphs", "rmat:8,a=0.45",
               "--algorithms", "bfs", "--budget", "2s", "--trials", "2", "--target", "opencl"]  # fmt: skip
    done = subprocess.run([*command, "--classes", "auto,tuned"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    (row,) = csv.DictReader(next(tmp_path.glob("tune_matrix_*.csv")).open())
    assert row["graph"] == "rmat:8,a=0.45" and row["algorithm"] == "bfs"
    assert float(row["auto_ms"]) > 0 and float(row["tuned_ms"]) > 0 and float(row["auto_vs_tuned"]) > 0
    assert row["default_ms"] == row["best_ms"] == "" and row["notes"].strip() == ""  # both validated
    bad = subprocess.run([*command, "--classes", "auto,fast"], capture_output=True, text=True)
    assert bad.returncode == 2 and "unknown classes fast" in bad.stderr
