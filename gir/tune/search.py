"""The search behind `gir-tune` and `gir.tune`: measure points of the schedule
space on one graph, within a time budget, and keep the fastest correct one.

Candidates come first from three seeds, measured whatever the budget (the
default schedule, the program's own schedule section if it has one, and the
auto model's schedule), then, until the budget is spent, from
optuna's TPE sampler over the space's categorical parameters
(`gir.tune.params`). Each candidate is compiled once (a point suggested again is
answered from its first measurement), ahead of its turn in worker processes
while the device measures the candidates before it (`gir.tune.compiling`: the
sampler is asked for the next points before it is told the current one's time,
pending points counted at a pessimistic value, TPE's constant liar), then run
`warmup + trials` times on the graph
already resident on the device, and timed by the program's own timer
(`startTimer()`..`stopTimer()`, else its run without the graph load): the median
of the timed trials, warm-up excluded. Its last trial's vectors are checked
against gir's CPU reference where gir knows the algorithm, else against the
default schedule's vectors; a candidate that fails to compile, to run or to
validate is recorded with the reason and never chosen.

The budget bounds every candidate's runs, not only the start of the next one:
a candidate whose runs go on past the budget's end (a seed's: past the later
of that end and `SEED_SHARE` of the budget, at least `SEED_LEAST_S`, after its
runs began) is stopped at its next kernel launch or device access
(`gir.runtime.run.run_deadline`) and recorded as a `timeout`, never chosen; a
search candidate compiled past the budget is not run. So a search ends by the
budget plus at most one compile (and the seeds' shares, when they start late). A single kernel that never returns
cannot be stopped inside the process: `gir-tune` records it as hung
`hang_grace` seconds (`HANG_GRACE_S` by default) after its time, writes what it
has and exits (`on_hang`).

A search's few trials per candidate are noisy (a host loop of sub-millisecond
levels varies by tens of per cent from run to run), and the fastest of a
hundred noisy medians is mostly the luckiest. So the last `FINAL_SHARE` of the
budget is a final round: the search's `FINALISTS` fastest candidates, and the
program's own and the auto schedule, run again side by side, in turns, and the
winner is chosen by the final round's medians alone.

Every measurement is appended to a journal (JSON lines, by default one per
tuning key in the tuning cache); with `resume`, a journal of the same key is read
back first: its candidates are
not measured again, and the sampler is told their results.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from gir.diagnostics import UsageError, UserError, one_line
from gir.runtime.run import RunDeadline, run_deadline

__all__ = ["Measurement", "TuneResult", "journal_path", "parse_budget", "tune"]

DEFAULT_SECTION = "schedule:\n"
"""An empty schedule section: every apply at gir's default schedule."""

SEED_SHARE = 0.25
"""The least part of the budget each seed's runs may take, even when the
budget's end comes sooner: the seeds are measured whatever the budget, and one
that starts late is still given a fair chance (see `_Tuner.deadline_of`)."""

SEED_LEAST_S = 5.0
"""The least seconds each seed's runs may take, however short the budget: a
seed's first run also builds kernels the device compiles lazily (PoCL, for each
work-group size a launch uses), which on a loaded machine takes seconds."""

HANG_GRACE_S = 10.0
"""How long after a candidate's deadline gir-tune waits for a kernel that has not
returned (so no host step came to stop the run) before it calls the candidate
hung: the deadline is checked between host steps only, and no thread can
interrupt a kernel inside the process (see `_Tuner.watch_for_hangs`)."""

FINAL_SHARE = 0.2
"""The part of the budget kept for the final round (the search starts no
candidate in it)."""

FINALISTS = 3
"""How many of the search's fastest candidates the final round runs again,
besides the program's own and the auto schedule."""

FINAL_ROUNDS = 3
"""The most turns of the final round; each runs every finalist `warmup + trials`
times, and only whole turns count."""

MAX_REPEATS = 64
"""Consecutive suggestions of already-measured points after which the search
stops: the sampler has little left to try (a small space, mostly measured)."""


@dataclass
class Measurement:
    """One candidate schedule and what became of it."""

    schedule: str
    """Its `schedule:` section."""
    origin: str
    """`default`, `program` (the program's own section), `auto` or `search`."""
    status: str = "ok"
    """`ok`, `failed` (did not compile or run), `invalid` (wrong result) or
    `timeout` (its runs went on past the time it had: see `_Tuner.deadline_of`)."""
    times_ms: list[float] = field(default_factory=list)
    compile_s: float = 0.0
    """Seconds its compile took, wherever it ran: lowering and printing (in a
    worker, when compiled ahead), and building its kernels."""
    waited_s: float = 0.0
    """Seconds the search waited for its compile before it could run (about
    `compile_s` when compiled here; little when a worker compiled it ahead)."""
    detail: str = ""
    kernels_reused: bool = False
    """Whether its kernel source equals an earlier candidate's, so the device's
    built kernels were reused (`Device.load_program` builds once per source):
    candidates that differ only in host-side values (a hybrid's threshold,
    delta, a fused loop's blocks per SM) build no kernels."""
    final_ms: list[float] = field(default_factory=list)
    """Its timed trials in the final round, if it was a finalist: what the winner
    is chosen by."""
    params: dict[str, str] = field(default_factory=dict)
    """The optuna parameters that suggested it (search candidates)."""
    choices: dict[str, list[str]] = field(default_factory=dict)
    """Each parameter's choices, to tell a resumed study."""

    @property
    def median_ms(self) -> float | None:
        """The final round's median if it ran in it, else the search's."""
        return self.final_median_ms or self.search_median_ms

    @property
    def search_median_ms(self) -> float | None:
        return statistics.median(self.times_ms) if self.status == "ok" and self.times_ms else None

    @property
    def final_median_ms(self) -> float | None:
        return statistics.median(self.final_ms) if self.status == "ok" and self.final_ms else None


@dataclass
class TuneResult:
    """What `tune` found: the best schedule and every measurement."""

    schedule: str
    """The best candidate's `schedule:` section."""
    program: str
    """The program's source with its schedule section replaced by `schedule`."""
    best: Measurement
    measurements: list[Measurement]
    space_size: int
    graph_class: str
    key: str
    """The tuning cache's key (`gir.tune.cache.tuning_key`)."""
    device: str
    seconds: float

    @property
    def median_ms(self) -> float:
        median = self.best.median_ms
        assert median is not None
        return median


def parse_budget(text: str | float | int) -> float:
    """Seconds from `120`, `120s`, `2m` or `1h`; a UserError otherwise."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        seconds = float(text)
    else:
        units = {"s": 1.0, "m": 60.0, "h": 3600.0}
        value = str(text).strip().lower()
        scale = units.get(value[-1:], None)
        number = value[:-1] if scale is not None else value
        try:
            seconds = float(number) * (scale or 1.0)
        except ValueError:
            raise UsageError(f"error: budget '{text}' is not a duration (e.g. 120, 120s, 2m)") from None
    if not seconds > 0:
        raise UsageError(f"error: the budget must be positive, not {text}")
    return seconds


def _same_vectors(expected: dict[str, np.ndarray], got: dict[str, np.ndarray]) -> str | None:
    """Why `got` differs from `expected` (None: the same, floats within 1e-4)."""
    for name, want in expected.items():
        have = got.get(name)
        if have is None or have.shape != want.shape:
            return f"vector '{name}' differs in shape from the default schedule's"
        if np.issubdtype(want.dtype, np.floating):
            if not np.allclose(have, want, rtol=1e-4, atol=1e-6, equal_nan=True):
                return f"vector '{name}' differs from the default schedule's"
        elif not np.array_equal(have, want):
            return f"vector '{name}' differs from the default schedule's"
    return None


class _Journal:
    """The results journal: a header line with the tuning key, then one JSON line
    per measurement."""

    def __init__(self, path: Path | None, key: str, resume: bool):
        self.path = path
        self.previous: list[Measurement] = []
        if path is None:
            return
        if resume and path.is_file():
            self.previous = self._read(path, key)
        if not self.previous:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps({"key": key}) + "\n")

    @staticmethod
    def _read(path: Path, key: str) -> list[Measurement]:
        lines = path.read_text().splitlines()
        try:
            header = json.loads(lines[0]) if lines else {}
        except ValueError:
            header = {}
        if header.get("key") != key:
            return []
        found: dict[str, Measurement] = {}
        for line in lines[1:]:
            try:
                measurement = Measurement(**json.loads(line))
            except (ValueError, TypeError):
                continue  # a line cut short by an interrupted run
            found[measurement.schedule] = measurement  # a finalist's line again, with its final round
        return list(found.values())

    def add(self, measurement: Measurement) -> None:
        if self.path is not None:
            with self.path.open("a") as stream:
                stream.write(json.dumps(asdict(measurement)) + "\n")


def journal_path(key: str) -> Path:
    """Where a tuning run keeps its journal unless told: `$GIR_CACHE_DIR/tune/
    journals/KEY.jsonl`, one per program, graph and device."""
    from gir.tune.cache import cache_dir

    return cache_dir() / "journals" / f"{key}.jsonl"


class _Tuner:
    """One tuning run: the space, the graph on the device, the measurements."""

    def __init__(self, source: str, name: str, graph: Any, args: Sequence[Any], options: dict[str, Any]):
        from gir.api import choose_target, load_graph
        from gir.space import schedule_space
        from gir.tune.auto import auto_point, classify
        from gir.tune.cache import algorithm_text, tuning_key
        from gir.tune.compiling import CompileAhead
        from gir.tune.stats import graph_stats

        self.started = time.perf_counter()
        self.source, self.name, self.args = source, name, list(args)
        self.options = options
        self.progress: Callable[[str], None] = options["progress"]
        self.target = choose_target(options["target"])
        self.loaded = load_graph(graph, target=self.target, device=options["device"])
        # the workers start (import gir) while the graph's statistics are computed
        self.ahead = CompileAhead(self.name, self.target, options["compile_workers"], self.loaded.device)
        self.weighted = _reads_weights(source)
        self.host = _host_graph(self.loaded, self.weighted)
        self.stats = graph_stats(self.host)
        self.graph_class = classify(self.stats)
        self.space = schedule_space(source, self.graph_class, target=self.target)
        self.algorithm = algorithm_text(source)
        self.key = tuning_key(source, self.stats.degrees, self.target, self.loaded.device.name)
        self.auto = auto_point(self.space, self.stats)[0].schedule_section()
        self.journal = _Journal(options["journal"] or journal_path(self.key), self.key, options["resume"])
        self.measured: dict[str, Measurement] = {m.schedule: m for m in self.journal.previous}
        self.order: list[Measurement] = list(self.journal.previous)
        self.reference: dict[str, np.ndarray] | None = None
        self.kernel_sources: set[str] = set()
        self.deadline = self.started + options["budget"]
        self.search_deadline = self.started + options["budget"] * (1 - FINAL_SHARE)
        """After it the search starts no candidate: the rest is the final round's."""
        self.finalists: dict[str, tuple[Measurement, Any]] = {}
        """The finalists so far and their compiled programs, by schedule section
        (`keep`)."""
        self.algorithm_program: Any = None
        """The program at the default schedule, compiled here: what every
        candidate printed by a worker runs as (`CandidateProgram`)."""

    # -- measuring -------------------------------------------------------------------

    def program_text(self, section: str) -> str:
        return self.algorithm + "\n\n" + section

    def measure(self, section: str, origin: str, trial: Any = None) -> Measurement:
        """`section`'s measurement: from before, or compiled, run and checked now."""
        known = self.measured.get(section)
        if known is not None:
            return known
        found = Measurement(section, origin)
        if trial is not None:
            found.params = {name: str(value) for name, value in trial.params.items()}
            found.choices = {name: list(d.choices) for name, d in trial.distributions.items()}
        started = began = deadline = time.perf_counter()
        warmup, trials = self.options["warmup"], self.options["trials"]
        try:
            program = self.compile(section, found)
            began = time.perf_counter()
            found.waited_s = began - started
            deadline = self.deadline_of(origin, began)
            if began > deadline:
                raise RunDeadline("not run: the budget was spent while it compiled")
            with run_deadline(deadline), self.watch_for_hangs(found, deadline):
                result = program.run(self.loaded, *self.args, target=self.target,
                                     device=self.options["device"], trials=warmup + trials)  # fmt: skip
            found.times_ms = [seconds * 1e3 for seconds in result.times[warmup:]]
            problem = self.check(program, result.vectors, section)
            if problem is not None:
                found.status, found.detail = "invalid", problem
            else:
                self.keep(found, program)
        except (KeyboardInterrupt, SystemExit):
            raise
        except RunDeadline as stopped:
            found.status, found.detail = "timeout", str(stopped)
            if deadline >= began:
                found.detail = (
                    f"stopped after {time.perf_counter() - began:.1f} s: {deadline - began:.1f} s were left "
                    f"for its {warmup + trials} run(s)"
                )
            with self.watch_for_hangs(found, time.perf_counter()):
                self.settle()
        except Exception as error:  # a candidate that cannot run is a result, not a crash
            found.status, found.detail = "failed", one_line(error)
            found.compile_s = found.compile_s or time.perf_counter() - started
            found.waited_s = found.waited_s or time.perf_counter() - started
        self.record(found)
        return found

    def compile(self, section: str, found: Measurement) -> Any:
        """`section`'s program, its kernels built on the device, its compile
        seconds in `found`: the default schedule compiled here (every other
        candidate runs as its program), any other taken from the workers that
        compiled it ahead (`CompileAhead`), a worker's failure raised here."""
        from gir.tune.compiling import CandidateProgram, load_host

        started = time.perf_counter()
        binary = None
        if section == DEFAULT_SECTION:
            program = self.default_program()
        else:
            text = self.program_text(section)
            printed = self.ahead.take(text)
            found.compile_s = printed.lower_s + printed.build_s
            if printed.compiled is None:
                raise UserError(printed.failure)
            program = CandidateProgram(self.default_program(), load_host(printed.compiled, text, self.name))
            binary = printed.binary
        built = time.perf_counter()
        compiled = program.compiled(self.target)
        found.kernels_reused = compiled.kernel_source in self.kernel_sources
        self.kernel_sources.add(compiled.kernel_source)
        if binary is not None and not found.kernels_reused:
            try:  # the worker's nvcc build; the device builds the source itself if it does not load
                self.loaded.device.load_program(compiled.kernel_source, compiled.signatures, binary)
            except Exception:
                pass
        compiled.kernels(self.loaded.device)
        found.compile_s += time.perf_counter() - (built if section != DEFAULT_SECTION else started)
        return program

    def default_program(self) -> Any:
        """The program at the default schedule, compiled here once."""
        if self.algorithm_program is None:
            import gir

            self.algorithm_program = gir.compile(self.program_text(DEFAULT_SECTION), name=self.name)
        return self.algorithm_program

    def deadline_of(self, origin: str, compiled: float) -> float:
        """When the runs of a candidate compiled at `compiled` must stop: at the
        budget's end, or for a seed (measured whatever the budget) no sooner than
        `SEED_SHARE` of the budget, nor `SEED_LEAST_S`, after its runs began."""
        if origin == "search":
            return self.deadline
        return max(self.deadline, compiled + max(SEED_SHARE * self.options["budget"], SEED_LEAST_S))

    @contextmanager
    def watch_for_hangs(self, found: Measurement, deadline: float) -> Iterator[None]:
        """Where the caller gave `on_hang` (gir-tune does), calls it with the
        measurements, `found` recorded as a hung `timeout`, if the runs inside
        are still going `hang_grace` seconds after `deadline`: then a kernel has not
        returned, and only ending the process stops it (`on_hang` must not
        return). Without `on_hang` (the Python API), a hung kernel holds the
        search."""
        on_hang = self.options["on_hang"]
        if on_hang is None:
            yield
            return
        grace = self.options["hang_grace"]

        def hung() -> None:
            self.ahead.close(wait=True)
            found.status = "timeout"
            found.detail = f"hung: a kernel had not returned {grace:g} s after its time ran out"
            self.record(found)
            on_hang(self.order)

        watchdog = threading.Timer(max(0.0, deadline - time.perf_counter()) + grace, hung)
        watchdog.daemon = True
        watchdog.start()
        try:
            yield
        finally:
            watchdog.cancel()

    def settle(self) -> None:
        """Waits for the kernels a stopped candidate had queued, so that they are
        not timed as the next candidate's."""
        try:
            self.loaded.device.synchronize()
        except Exception:  # a device in an error state: the next candidate says so
            pass

    def check(self, program: Any, vectors: dict[str, np.ndarray], section: str) -> str | None:
        """Why `vectors` (of `section`) are wrong (None: right): against the CPU
        reference, else against the default schedule's vectors."""
        if program.validator is not None:
            try:
                program.validate(self.host, vectors, *self.args)
            except UserError as error:
                return one_line(error)
            return None
        if self.reference is None:
            if section == DEFAULT_SECTION:
                self.reference = {name: array.copy() for name, array in vectors.items()}
                return None
            self.reference = self.default_vectors()
        return _same_vectors(self.reference, vectors)

    def default_vectors(self) -> dict[str, np.ndarray]:
        """The vectors of one run at the default schedule (a resumed search has
        its time from the journal, but not its vectors)."""
        result = self.default_program().run(self.loaded, *self.args, target=self.target, device=self.options["device"])
        return {name: array.copy() for name, array in result.vectors.items()}

    def record(self, found: Measurement) -> None:
        self.measured[found.schedule] = found
        self.order.append(found)
        self.journal.add(found)
        best = self.best()
        outcome = f"{found.median_ms:.3f} ms" if found.median_ms is not None else f"{found.status}: {found.detail}"
        best_text = f"{best.median_ms:.3f} ms" if best is not None and best.median_ms is not None else "none"
        self.progress(
            f"[{len(self.order)}] {found.origin}: {outcome} | best {best_text} | "
            f"{max(0.0, self.deadline - time.perf_counter()):.0f} s left"
        )

    def best(self) -> Measurement | None:
        """The fastest correct candidate: among those the final round timed, once
        it has, else by the search's medians."""
        correct = [m for m in self.order if m.median_ms is not None]
        finalists = [m for m in correct if m.final_ms]
        return min(finalists or correct, key=lambda m: m.median_ms or 0.0) if correct else None

    def time_left(self) -> bool:
        """Whether the search may start another candidate."""
        return time.perf_counter() < self.search_deadline

    # -- the final round ---------------------------------------------------------------

    def keep(self, found: Measurement, program: Any) -> None:
        """Keeps `found`'s compiled program while it is a finalist: the program's
        own or the auto schedule, or one of the `FINALISTS` fastest in the search."""
        self.finalists[found.schedule] = (found, program)
        ranked = sorted(
            (m for m, _ in self.finalists.values() if m.origin not in ("program", "auto")),
            key=lambda m: m.search_median_ms or 0.0,
        )
        for dropped in ranked[FINALISTS:]:
            del self.finalists[dropped.schedule]

    def final_round(self) -> None:
        """Runs the finalists again in turns until the budget's end (at most
        `FINAL_ROUNDS` turns, only whole turns counted), each turn in the other
        order, their trials kept in `final_ms`."""
        finalists = [m for m, _ in self.finalists.values()]
        if len(finalists) < 2:
            return
        warmup, trials = self.options["warmup"], self.options["trials"]
        turn_s = sum((m.search_median_ms or 0.0) * 1e-3 * (warmup + trials) * 2 for m in finalists)
        turns = 0
        while turns < FINAL_ROUNDS and time.perf_counter() + turn_s < self.deadline:
            began = time.perf_counter()
            order = finalists if turns % 2 == 0 else finalists[::-1]
            times: dict[str, list[float]] = {}
            try:
                with run_deadline(self.deadline):
                    for m in order:
                        with self.watch_for_hangs(m, self.deadline):
                            times[m.schedule] = self.run_again(m, warmup + trials)[warmup:]
            except (KeyboardInterrupt, SystemExit):
                raise
            except Exception:  # stopped at the budget's end (or failing now): the turn does not count
                self.settle()
                break
            for m in finalists:
                m.final_ms += times[m.schedule]
            turns += 1
            turn_s = time.perf_counter() - began
        if turns == 0:
            self.progress(f"final round: no time left to run the {len(finalists)} finalists again")
            return
        for m in finalists:
            self.journal.add(m)
        fastest = min(finalists, key=lambda m: m.final_median_ms or 0.0)
        self.progress(
            f"final round: {len(finalists)} finalists run again {turns} time(s) x {warmup + trials}: fastest "
            f"{fastest.final_median_ms or 0.0:.3f} ms ({fastest.origin}; {fastest.search_median_ms or 0.0:.3f} ms "
            "in the search)"
        )

    def run_again(self, found: Measurement, runs: int) -> list[float]:
        """Milliseconds of `runs` more runs of a finalist."""
        _, program = self.finalists[found.schedule]
        result = program.run(
            self.loaded, *self.args, target=self.target, device=self.options["device"], trials=runs
        )
        return [seconds * 1e3 for seconds in result.times]

    # -- searching -------------------------------------------------------------------

    def run(self) -> TuneResult:
        self.progress(
            f"{len(self.space):,} schedules in the space ({self.graph_class} graph, "
            f"{self.target} on {self.loaded.device.name}); budget {self.options['budget']:.0f} s"
        )
        from gir.space import SCHEDULE_SECTION

        seeds = [(DEFAULT_SECTION, "default")]
        own = SCHEDULE_SECTION.search(self.source)
        if own is not None:
            seeds.append((self.source[own.start():], "program"))
        seeds.append((self.auto, "auto"))
        try:
            for section, _ in seeds[1:]:
                if section not in self.measured:
                    self.ahead.submit(self.program_text(section))
            search = _Search(self)
            search.ask_ahead()  # the first search candidates compile while the seeds run
            for section, origin in seeds:  # measured whatever the budget: at most three
                self.measure_seed(section, origin)
            if self.time_left():
                search.run()
        finally:
            self.ahead.close()
        self.final_round()
        best = self.best()
        if best is None:
            raise UserError(
                f"error: gir-tune: no schedule of '{self.name}' ran correctly in {len(self.order)} "
                f"candidate(s); the first failure: {self.order[0].detail if self.order else 'none tried'}"
            )
        return TuneResult(
            best.schedule, self.program_text(best.schedule), best, self.order, len(self.space),
            self.graph_class, self.key, self.loaded.device.name, time.perf_counter() - self.started,
        )  # fmt: skip

    def measure_seed(self, section: str, origin: str) -> None:
        """Measures a seed; a UserError where the default schedule shows that no
        schedule can mend the run, or that no candidate can be checked."""
        found = self.measure(section, origin)
        if origin == "default" and found.status == "failed":
            # what fails at the default schedule is the program, its arguments
            # or the graph, which no schedule mends
            raise UserError(f"error: {found.detail}")
        if origin == "default" and found.status == "timeout" and not _has_cpu_reference(self.source):
            raise UserError(
                f"error: gir-tune: the default schedule of '{self.name}' did not finish in the "
                f"budget ({found.detail}); without a CPU reference for this program, candidates are "
                "checked against the default schedule's result: give a larger --budget"
            )


class _Search:
    """optuna's TPE sampler over the space, asked ahead: the points it suggests
    are queued and compiled by the workers, one per worker beyond the one the
    device measures; they are measured, and the sampler told their times, in the
    order it suggested them."""

    def __init__(self, tuner: _Tuner):
        import warnings

        from gir.tune.params import SpaceParameters

        self.tuner = tuner
        self.optuna = optuna = _optuna()
        self.parameters = SpaceParameters(tuner.space)
        with warnings.catch_warnings():  # constant_liar is marked experimental
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            sampler = optuna.samplers.TPESampler(seed=tuner.options["seed"], n_startup_trials=10, constant_liar=True)
        self.study = optuna.create_study(direction="minimize", sampler=sampler)
        for previous in tuner.journal.previous:
            if previous.params:
                _replay(optuna, self.study, previous)
        self.queue: deque[tuple[Any, str]] = deque()
        """The suggested points not yet measured: each trial and its section."""
        self.depth = tuner.options["compile_workers"] + 1
        """How many points are queued before one is taken to measure: the rest
        compile, one per worker, while it runs."""
        self.repeats = 0
        """Consecutive suggestions of points measured or queued already."""

    def ask_ahead(self) -> None:
        """Asks the sampler until `depth` new points are queued (their compiles
        started), or it has suggested `MAX_REPEATS` known points in a row; a
        point already measured is told its time at once."""
        from gir.tune.params import NoSuchPoint

        trial_state = self.optuna.trial.TrialState
        while len(self.queue) < self.depth and self.repeats < MAX_REPEATS:
            trial = self.study.ask()
            try:
                point = self.parameters.suggest(trial)
            except NoSuchPoint:
                self.study.tell(trial, state=trial_state.PRUNED)
                self.repeats += 1
                continue
            section = point.schedule_section()
            known = self.tuner.measured.get(section)
            queued = any(section == other for _, other in self.queue)
            self.repeats = self.repeats + 1 if known is not None or queued else 0
            if known is not None:
                self.tell(trial, known)
                continue
            self.queue.append((trial, section))
            self.tuner.ahead.submit(self.tuner.program_text(section))

    def run(self) -> None:
        """Measures the queued points in turn until the budget is spent."""
        while self.tuner.time_left():
            self.ask_ahead()
            if not self.queue:
                return  # the sampler suggests only known points
            trial, section = self.queue.popleft()
            self.tell(trial, self.tuner.measure(section, "search", trial))

    def tell(self, trial: Any, found: Measurement) -> None:
        if found.median_ms is None:
            self.study.tell(trial, state=self.optuna.trial.TrialState.FAIL)
        else:
            self.study.tell(trial, found.median_ms)


def _has_cpu_reference(source: str) -> bool:
    """Whether gir knows the program's algorithm and checks results against its
    CPU reference (else against the default schedule's result)."""
    from gir.space import without_schedules
    from gir.validate import find_validator

    return find_validator(without_schedules(source, "<program>")) is not None


def _reads_weights(source: str) -> bool:
    """Whether gir's CPU reference of the program needs edge weights (SSSP)."""
    from gir.space import without_schedules
    from gir.validate import find_validator

    validator = find_validator(without_schedules(source, "<program>"))
    return validator is not None and bool(validator.weighted)


def _host_graph(loaded: Any, weighted: bool) -> Any:
    """The host graph of `loaded` for the statistics and the reference, with
    weights when the reference needs them (a generator makes them on request)."""
    from gir.runtime.graph import Graph, load_graph

    if isinstance(loaded.source, Graph) or not weighted:
        return loaded.host_graph
    return load_graph(loaded.source, weighted=True)


def _replay(optuna: Any, study: Any, measurement: Measurement) -> None:
    """Tells `study` a measurement of an earlier run (from the journal)."""
    distributions = {
        name: optuna.distributions.CategoricalDistribution(choices)
        for name, choices in measurement.choices.items()
    }
    state = optuna.trial.TrialState.COMPLETE if measurement.median_ms is not None else optuna.trial.TrialState.FAIL
    try:
        study.add_trial(
            optuna.trial.create_trial(
                params=measurement.params, distributions=distributions, value=measurement.median_ms, state=state
            )
        )
    except ValueError:
        pass  # a journal line of an older space: the sampler learns without it


def _optuna() -> Any:
    """optuna, quietened; a UserError saying how to install it when it is missing."""
    try:
        import optuna
    except ImportError:
        raise UserError(
            "error: gir-tune searches with optuna, which is not installed "
            "(pip install 'gir[tune]' or pip install optuna)"
        ) from None
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    return optuna


def read_program(program: Any) -> tuple[str, str]:
    """The source of `program` (a `.gt` path or GraphIt text), its unlabelled
    applies labelled (`gir.tune.labels`), and its run name."""
    import os

    from gir.space import read_program as read
    from gir.tune.labels import label_applies

    source, filename = read(program)
    source = label_applies(source)
    name = "<program>" if filename == "<string>" else os.path.splitext(os.path.basename(filename))[0]
    return source, name


def tune(
    program: Any,
    graph: Any,
    *args: Any,
    budget: float | str = 120.0,
    target: str | None = None,
    device: int | None = None,
    trials: int = 5,
    warmup: int = 1,
    journal: str | Path | None = None,
    resume: bool = False,
    seed: int = 0,
    store: bool = True,
    compile_workers: int | None = None,
    progress: Callable[[str], None] | None = None,
    on_hang: Callable[[list[Measurement]], NoReturn] | None = None,
    hang_grace: float = HANG_GRACE_S,
) -> TuneResult:
    """Searches `program`'s schedule space (`gir.schedule_space`) for the fastest
    correct schedule on `graph` with the program's arguments `args`.

    `program` is a `.gt` path or GraphIt source; `graph` anything `Program.run`
    takes. `budget` is seconds (or `"2m"`): no candidate starts after it, and the
    runs of the one running are stopped at its end (a seed's no sooner than
    `SEED_SHARE` of the budget after they began), that candidate recorded as a
    `timeout` and never chosen. Each candidate runs `warmup + trials` times, timed by the
    program's own timer (median of the trials). The journal (`journal`, by
    default `journal_path(key)` in the tuning cache) records every measurement;
    `resume` reads it back first when it is of the same program, graph and device. The best schedule is stored in the tuning cache (`store`), where
    `gir-run --schedule tuned` and `gir.compile(..., schedule="tuned")` find it.
    A kernel that never returns cannot be stopped inside the process: with
    `on_hang`, it is called with the measurements (the hung candidate last) once
    a run is `hang_grace` seconds past its time, and must end the process
    (gir-tune writes its CSV and exits); without it, the search waits. `compile_workers`
    processes compile the next candidates while the device measures one (None:
    `gir.tune.compiling.default_workers()`; 0: each is compiled here in its turn).
    """
    from gir.tune.cache import read_entry, write_entry
    from gir.tune.compiling import default_workers

    if not isinstance(trials, int) or trials < 1 or not isinstance(warmup, int) or warmup < 0:
        raise UserError("error: trials must be at least 1 and warmup at least 0")
    if not hang_grace > 0:
        raise UserError(f"error: hang_grace must be a positive number of seconds, not {hang_grace!r}")
    if compile_workers is None:
        compile_workers = default_workers()
    if not isinstance(compile_workers, int) or compile_workers < 0:
        raise UserError(f"error: compile_workers must be a count of at least 0, not {compile_workers!r}")
    _optuna()
    source, name = read_program(program)
    options = {
        "budget": parse_budget(budget), "target": target, "device": device, "trials": trials,
        "warmup": warmup, "journal": None if journal is None else Path(journal), "resume": resume,
        "seed": seed, "progress": progress or (lambda message: None), "on_hang": on_hang,
        "hang_grace": hang_grace, "compile_workers": compile_workers,
    }  # fmt: skip
    result = _Tuner(source, name, graph, args, options).run()
    if store:
        earlier = read_entry(result.key)
        if earlier is None or not earlier.get("median_ms", 0) < result.median_ms:
            write_entry(result.key, {
                "schedule": result.schedule, "median_ms": result.median_ms, "device": result.device,
                "graph_class": result.graph_class, "program": name, "candidates": len(result.measurements),
                "date": time.strftime("%Y-%m-%d"),
            })  # fmt: skip
    return result
