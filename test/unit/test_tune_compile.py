"""How gir-tune compiles its candidates (`gir.tune.compiling`), on OpenCL (PoCL):
a worker's printed program runs and validates in the main process; a worker's
failure is the candidate's one-line reason; candidates that differ only in
values the host passes build their kernels once; compiling ahead keeps the
order the sampler suggested, the journal and `--resume`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import gir
from gir.tune.cache import algorithm_text
from gir.tune.compiling import CandidateProgram, CompileAhead, load_host, print_candidate
from gir.tune.labels import label_applies

pytest.importorskip("optuna")

PROGRAMS = Path(__file__).parents[1] / "programs"
GRAPH = "rmat:6"
BFS = label_applies((PROGRAMS / "bfs.gt").read_text())


def _hybrid(threshold: float) -> str:
    """A schedule section of bfs.gt: push below `threshold` of the vertices, pull above."""
    return f"""schedule:
    SimpleGPUSchedule push;
    push.configLoadBalance(EDGE_ONLY);
    SimpleGPUSchedule pull;
    pull.configDirection(PULL, BITMAP);
    pull.configFrontierCreation(UNFUSED_BITMAP);
    HybridGPUSchedule both (INPUT_VERTEXSET_SIZE, {threshold}, push, pull);
    program->applyGPUSchedule("search:expand", both);
"""


def _text(section: str) -> str:
    return algorithm_text(BFS) + "\n\n" + section


def test_a_program_printed_by_a_worker_runs_and_validates() -> None:
    text = _text(_hybrid(0.05))
    ahead = CompileAhead("bfs", "opencl", workers=1)
    try:
        ahead.submit(text)
        printed = ahead.take(text)
    finally:
        ahead.close()
    assert printed.failure == "" and printed.compiled is not None and printed.lower_s > 0
    here = gir.compile(text).compiled("opencl")
    assert (printed.compiled.kernel_source, printed.compiled.host_source) == (here.kernel_source, here.host_source)
    default = gir.compile(_text("schedule:\n"))
    program = CandidateProgram(default, load_host(printed.compiled, text, "bfs"))
    assert program.run(GRAPH, 0, target="opencl", validate=True).times


def test_a_worker_builds_cuda_kernels_with_nvcc() -> None:
    """The cubin a worker builds for the device's architecture (no GPU needed),
    once per kernel source."""
    from gir.runtime.device import find_nvcc

    if find_nvcc() is None:
        pytest.skip("nvcc is not installed")
    text = _text(_hybrid(0.05))
    printed = print_candidate(text, "bfs", "cuda", "sm_90")
    assert printed.compiled is not None and printed.binary is not None and printed.binary[:4] == b"\x7fELF"
    again = print_candidate(_text(_hybrid(0.3)), "bfs", "cuda", "sm_90")
    assert again.binary == printed.binary and again.build_s < printed.build_s


def test_a_killed_worker_leaves_compiling_to_this_process() -> None:
    import os
    import signal

    ahead = CompileAhead("bfs", "opencl", workers=1)
    try:
        assert ahead.pool is not None and ahead.started is not None
        ahead.started.result(timeout=120)
        for pid in list(ahead.pool._processes):  # what the kernel's OOM killer would do
            os.kill(pid, signal.SIGKILL)
        text = _text(_hybrid(0.05))
        ahead.submit(text)
        printed = ahead.take(text)
        assert printed.compiled is not None and printed.failure == "" and ahead.pool is None
    finally:
        ahead.close()


def test_a_candidate_that_does_not_compile_is_a_one_line_failure() -> None:
    section = _hybrid(0.05).replace('"search:expand"', '"search:nowhere"')
    printed = print_candidate(_text(section), "bfs", "opencl")
    assert printed.compiled is None and "\n" not in printed.failure
    with pytest.raises(gir.UserError) as here:
        gir.compile(_text(section))
    assert printed.failure == str(here.value).splitlines()[0].removeprefix("error: ")


def test_candidates_differing_only_in_a_host_value_build_their_kernels_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hybrid's threshold reaches the host alone: the second candidate's
    kernels are the first's, built once on the device (the CSV's kernels_reused)."""
    from gir.tune.search import HANG_GRACE_S, _Tuner

    options = {
        "budget": 60.0, "target": "opencl", "device": None, "trials": 1, "warmup": 0,
        "journal": tmp_path / "journal.jsonl", "resume": False, "seed": 0,
        "progress": lambda message: None, "on_hang": None, "hang_grace": HANG_GRACE_S, "compile_workers": 0,
    }  # fmt: skip
    tuner = _Tuner(BFS, "bfs", GRAPH, [0], options)
    device = tuner.loaded.device
    built: list[str] = []
    build = device._build
    monkeypatch.setattr(device, "_build", lambda *args: built.append(args[0]) or build(*args))
    first = tuner.measure(_hybrid(0.05), "search")
    builds = len(built)  # none where an earlier test built the same kernels
    second = tuner.measure(_hybrid(0.3), "search")
    assert (first.status, second.status) == ("ok", "ok"), (first.detail, second.detail)
    assert first.schedule != second.schedule and not first.kernels_reused and second.kernels_reused
    assert len(built) == builds
    tuner.ahead.close()


def _journal(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


COMMON = {"target": "opencl", "trials": 1, "warmup": 0, "store": False}


def test_a_search_compiled_ahead_resumes_from_its_journal(tmp_path: Path) -> None:
    """The journal of a search with a worker is its measurements in order; resumed,
    it keeps them first and measures none of them again."""
    journal = tmp_path / "journal.jsonl"
    first = gir.tune(BFS, GRAPH, 0, budget=2, journal=journal, compile_workers=1, **COMMON)
    again = gir.tune(BFS, GRAPH, 0, budget=1, journal=journal, resume=True, compile_workers=1, **COMMON)
    schedules = list(dict.fromkeys(line["schedule"] for line in _journal(journal)))  # finalists come twice
    assert schedules[: len(first.measurements)] == [m.schedule for m in first.measurements]
    assert len(schedules) == len(again.measurements) >= len(first.measurements)


def _tuner(tmp_path: Path) -> object:
    from gir.tune.search import HANG_GRACE_S, _Tuner

    options = {
        "budget": 60.0, "target": "opencl", "device": None, "trials": 2, "warmup": 0,
        "journal": tmp_path / "journal.jsonl", "resume": False, "seed": 0,
        "progress": lambda message: None, "on_hang": None, "hang_grace": HANG_GRACE_S, "compile_workers": 0,
    }  # fmt: skip
    return _Tuner(BFS, "bfs", GRAPH, [0], options)


def test_the_final_round_runs_the_fastest_candidates_again_and_chooses_by_it(tmp_path: Path) -> None:
    """The search keeps the programs of its `FINALISTS` fastest candidates (and of
    the auto schedule); the final round runs them again in whole turns, and the
    winner is chosen by those runs alone."""
    from gir.tune.search import FINALISTS, _Journal

    tuner = _tuner(tmp_path)
    measured = [tuner.measure(_hybrid(t), "search") for t in (0.01, 0.05, 0.1, 0.2, 0.4)]
    measured.append(tuner.measure(tuner.auto, "auto"))
    assert all(m.status == "ok" for m in measured), [m.detail for m in measured]
    searched = sorted((m for m in measured if m.origin == "search"), key=lambda m: m.search_median_ms)
    assert {m.schedule for m, _ in tuner.finalists.values()} == {m.schedule for m in searched[:FINALISTS]} | {
        tuner.auto
    }
    tuner.final_round()
    finalists = [m for m in measured if m.final_ms]
    assert len(finalists) == len(tuner.finalists) and all(m.schedule in tuner.finalists for m in finalists)
    assert len({len(m.final_ms) for m in finalists}) == 1 and len(finalists[0].final_ms) % 2 == 0  # whole turns
    assert tuner.best() is min(finalists, key=lambda m: m.final_median_ms)
    # the journal has each finalist again, with its final round; read back, one entry each
    again = _Journal._read(tmp_path / "journal.jsonl", tuner.key)
    assert len(again) == len(measured) and sum(bool(m.final_ms) for m in again) == len(finalists)
    tuner.ahead.close()


def test_a_lucky_search_time_does_not_win_against_the_final_round() -> None:
    """The search's fastest median loses to a finalist that the final round timed
    faster, and a candidate the final round did not run cannot win once it ran."""
    from types import SimpleNamespace

    from gir.tune.search import Measurement, _Tuner

    lucky = Measurement("a", "search", times_ms=[0.5], final_ms=[0.9, 0.9])
    steady = Measurement("b", "program", times_ms=[0.7], final_ms=[0.6, 0.6])
    unchecked = Measurement("c", "search", times_ms=[0.55])
    assert _Tuner.best(SimpleNamespace(order=[lucky, steady, unchecked])) is steady  # type: ignore[arg-type]
    assert _Tuner.best(SimpleNamespace(order=[Measurement("d", "search", times_ms=[0.5]), unchecked])).schedule == "d"  # type: ignore[arg-type]


class _Recorder:
    """What `_Search` asks of a tuner and its `CompileAhead`, recorded: a stand-in
    that measures instantly, for a budget of `steps` measurements."""

    def __init__(self, workers: int, steps: int):
        from gir.tune.search import Measurement

        self.space = gir.schedule_space(BFS, target="opencl")
        self.options = {"seed": 0, "compile_workers": workers}
        self.journal = type("Journal", (), {"previous": []})()
        self.measured: dict[str, Measurement] = {}
        self.events: list[tuple[str, str]] = []
        self.ahead = self
        self.steps = steps
        self.make = Measurement

    def program_text(self, section: str) -> str:
        return section

    def submit(self, text: str) -> None:
        self.events.append(("submit", text))

    def time_left(self) -> bool:
        return self.steps > 0

    def measure(self, section: str, origin: str, trial: object = None):
        self.steps -= 1
        self.events.append(("measure", section))
        found = self.measured[section] = self.make(section, origin, times_ms=[float(len(self.measured))])
        return found


@pytest.mark.parametrize("workers", [0, 2])
def test_the_search_compiles_each_point_ahead_and_measures_in_the_order_asked(workers: int) -> None:
    from gir.tune.search import _Search

    tuner = _Recorder(workers, steps=6)
    _Search(tuner).run()  # type: ignore[arg-type]
    submitted = [text for kind, text in tuner.events if kind == "submit"]
    measured = [text for kind, text in tuner.events if kind == "measure"]
    assert len(measured) == 6 and measured == submitted[:6]
    for index, section in enumerate(measured):
        # when a point is measured, the next `workers` points are compiling already
        before = tuner.events[: tuner.events.index(("measure", section))]
        assert sum(kind == "submit" for kind, _ in before) == min(index + 1 + workers, len(submitted))
