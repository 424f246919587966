"""Exit statuses of every tool, as README documents them: 2 for a malformed command
line (argparse's errors, bad option values, a missing argument), 1 for an error in
what the tool was given, never a traceback; and gir-run checks a graph generator
spec before it compiles."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gir import __main__ as gir_main
from gir.tools import bench, opt, run, translate

PROGRAMS = Path(__file__).parents[1] / "programs"
BFS = str(PROGRAMS / "bfs.gt")
HOST_ONLY = str(PROGRAMS / "lang_hostonly.gt")


def status_of(main, argv: list[str]) -> int:  # type: ignore[no-untyped-def]
    """The exit status of a tool's `main(argv)`, whether it returns it or argparse
    exits with it."""
    try:
        return main(argv)
    except SystemExit as exit_status:
        return int(exit_status.code or 0)


USAGE_ERRORS = [
    (run.main, [], "the following arguments are required: program"),
    (run.main, [HOST_ONLY, "20", "--trials", "0"], "argument --trials: must be at least 1, not 0"),
    (run.main, [HOST_ONLY, "20", "--trials", "x"], "argument --trials: invalid int value: 'x'"),
    (run.main, [HOST_ONLY, "20", "--warmup", "-1"], "argument --warmup: must be at least 0, not -1"),
    (run.main, [HOST_ONLY, "20", "--device", "-1"], "argument --device: must be at least 0, not -1"),
    (run.main, [HOST_ONLY, "20", "--dump", "out.txt"], "argument --dump: needs a file name ending in .npz"),
    (run.main, [HOST_ONLY, "20", "--target", "tpu"], "argument --target: invalid choice: 'tpu'"),
    (run.main, [BFS], "loads a graph: give it as GRAPH (gir-run PROGRAM GRAPH [ARGS...])"),
    (bench.main, ["--trials", "0"], "argument --trials: must be at least 1, not 0"),
    (bench.main, ["--warmup", "-2"], "argument --warmup: must be at least 0, not -2"),
    (bench.main, ["--device", "-1"], "argument --device: must be at least 0, not -1"),
    (bench.main, ["--algorithms", "bfs,dfs"], "unknown algorithm 'dfs' (expected bfs, sssp, pr, cc, bc)"),
    (bench.main, ["--graphs", ","], "--algorithms, --graphs and --schedules must each name something"),
    (bench.main, ["--algorithms", "bfs", "--schedules", "g2,auto,tuned,bets"], "has schedule 'bets' for bfs"),
    (opt.main, ["--bogus", BFS], "unrecognized arguments: --bogus"),
    (opt.main, ["-p", "no-such-pass", BFS], "Unrecognized passes: ['no-such-pass']"),
    (translate.main, [], "the following arguments are required: file"),
    (translate.main, ["--to-cuda", "--to-opencl", BFS], "not allowed with argument --to-cuda"),
    (translate.main, ["--kernels-only", "--to-opencl", BFS], "--kernels-only goes with --to-cuda"),
    (gir_main.main, ["--bogus"], "unrecognized arguments: --bogus"),
    (gir_main.main, ["cache", "shrink"], "invalid choice: 'shrink'"),
]


@pytest.mark.parametrize(("main", "argv", "message"), USAGE_ERRORS)
def test_usage_errors_exit_2_with_one_message(
    main, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]  # type: ignore[no-untyped-def]
) -> None:
    assert status_of(main, argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


USER_ERRORS = [
    (run.main, ["no-such-program.gt", "rmat:4"], "error: cannot read program 'no-such-program.gt'"),
    (run.main, [BFS, "no-such-graph.el"], "error: graph file not found: no-such-graph.el"),
    (bench.main, ["--programs", "no-such-folder"], "error: no benchmark programs folder 'no-such-folder'"),
    (bench.main, ["--graphs", "rmat:8,rmat:x"], "error: bad graph generator spec 'rmat:x'"),
    (bench.main, ["--graphs", "no-such-graph.el"], "error: graph file not found: no-such-graph.el"),
    (opt.main, ["no-such-program.gt"], "error: No such file or directory: no-such-program.gt"),
    (translate.main, ["no-such-program.gt"], "error: No such file or directory: no-such-program.gt"),
]


@pytest.mark.parametrize(("main", "argv", "message"), USER_ERRORS)
def test_user_errors_exit_1_with_one_line(
    main, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]  # type: ignore[no-untyped-def]
) -> None:
    assert status_of(main, argv) == 1
    err = capsys.readouterr().err
    assert err.startswith(message) and len(err.splitlines()) == 1, err


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("rmat:x", "error: bad graph generator spec 'rmat:x': expected 'rmat:SCALE[:EDGEFACTOR][,w][,seed=N][,a=P]'"),
        ("rnat:8", "error: unknown graph generator 'rnat' in 'rnat:8'"),
        ("road:4", "error: bad graph generator spec 'road:4': expected 'road:W:H[,w][,seed=N]'"),
        ("rmat:8,seed=x", "error: bad graph generator spec 'rmat:8,seed=x'"),
    ],
)
def test_gir_run_checks_a_generator_spec_before_compiling(
    spec: str, message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import gir.executor

    def no_compile(*args: object, **kwargs: object) -> object:
        raise AssertionError("compiled before the graph argument was checked")

    monkeypatch.setattr(gir.executor, "compile_program", no_compile)
    assert run.main([BFS, spec, "0", "--target", "opencl"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(message) and len(err.splitlines()) == 1, err


def test_gir_run_takes_options_between_its_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    """`gir-run PROG --trials 2 GRAPH` was 'unrecognized arguments: GRAPH' (exit 2)."""
    assert run.main([HOST_ONLY, "--target", "opencl", "--trials", "2", "20"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "8\n77\n19\n5\n2.375\n" * 2 and "over 2 trial(s)" in captured.err


@pytest.mark.parametrize(
    "command",
    [
        ["gir.tools.run", "--bogus"],
        ["gir.tools.opt", "--bogus"],
        ["gir.tools.translate", "--bogus", "x.gt"],
        ["gir.tools.bench", "--bogus"],
        ["gir", "--bogus"],
    ],
)
def test_every_tool_exits_2_on_an_unknown_option_as_a_process(command: list[str]) -> None:
    result = subprocess.run([sys.executable, "-m", *command], capture_output=True, text=True)
    assert result.returncode == 2, result.stderr
    assert "error:" in result.stderr and "Traceback" not in result.stderr


def test_xdsl_universe_has_no_frontend_hook_yet() -> None:
    """Why gir wraps `xDSLOptMain.register_all_frontends` to give `xdsl-opt` its
    `.gt` frontend (gir/universe.py): xDSL 0.74's plugin entry point takes
    dialects, passes and targets only. When this fails, xDSL has grown a hook:
    register gir's `.gt` frontend in GIR_UNIVERSE and drop the wrapper."""
    import inspect

    from xdsl.universe import Universe

    assert set(inspect.signature(Universe).parameters) == {"all_dialects", "all_passes", "all_targets"}


BLOCKED_FRONTIER_SCHEDULE = """schedule:
    SimpleGPUSchedule blocked;
    blocked.configLoadBalance(EDGE_ONLY, BLOCKED, 1024);
    program->applyGPUSchedule("search:expand", blocked);
"""
"""Edge blocking on BFS's traversal from a frontier: the frontend accepts it,
`graph-default-schedule` refuses it at the statement."""


def test_xdsl_opt_reads_graphit(tmp_path: Path) -> None:
    """`xdsl-opt prog.gt -p PASSES` runs gir's passes on GraphIt, and a bad `.gt`
    is gir's one located line with exit status 1, not xDSL's traceback."""
    from test_api_xdsl_plugin import _gir_installed_with_entry_point, _with_entry_point, _xdsl_opt

    env = None if _gir_installed_with_entry_point() else _with_entry_point(tmp_path)
    lowered = _xdsl_opt([BFS, "-p", "lower-to-gpu"], env)
    assert lowered.returncode == 0, lowered.stderr
    assert "gir_gpu.kernel" in lowered.stdout
    bad = tmp_path / "bad.gt"
    bad.write_text("func main()\n  var x : int = ;\nend\n")
    failed = _xdsl_opt([str(bad)], env)
    assert failed.returncode == 1
    assert failed.stderr == f"{bad}:2:17: error: expected expression, found ';'\n"
    assert failed.stdout == ""
    # a schedule that only a pass finds wrong is one line too
    blocked = tmp_path / "blocked.gt"
    blocked.write_text(Path(BFS).read_text().split("schedule:")[0] + BLOCKED_FRONTIER_SCHEDULE)
    failed = _xdsl_opt([str(blocked), "-p", "lower-to-gpu"], env)
    assert failed.returncode == 1 and len(failed.stderr.splitlines()) == 1, failed.stderr
    assert failed.stderr.startswith(f"{blocked}:") and "error: edge blocking (BLOCKED)" in failed.stderr


def test_graphit_frontend_wrapper_is_installed_once_and_never_replaces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Loading gir's plugin again keeps one wrapper, and a `gt` frontend that
    xDSL itself registers (the day it has one) is kept, not replaced by gir's."""
    from xdsl.tools.command_line_tool import CommandLineTool
    from xdsl.xdsl_opt_main import xDSLOptMain

    from gir import universe

    installed = xDSLOptMain.register_all_frontends
    universe.register_graphit_frontend()
    assert xDSLOptMain.register_all_frontends is installed
    assert "gt" in xDSLOptMain(args=[]).available_frontends

    def xdsl_with_its_own_gt(self: CommandLineTool) -> None:
        self.available_frontends["gt"] = xdsl_with_its_own_gt

    monkeypatch.setattr(CommandLineTool, "register_all_frontends", xdsl_with_its_own_gt)
    monkeypatch.setattr(xDSLOptMain, "register_all_frontends", CommandLineTool.register_all_frontends)
    universe.register_graphit_frontend()
    assert xDSLOptMain(args=[]).available_frontends["gt"] is xdsl_with_its_own_gt


def test_graphit_reaches_xdsl_opt_through_gir_opt(tmp_path: Path) -> None:
    """The other documented way: `gir-opt prog.gt | xdsl-opt -p PASSES`."""
    from test_api_xdsl_plugin import _gir_installed_with_entry_point, _with_entry_point

    env = None if _gir_installed_with_entry_point() else _with_entry_point(tmp_path)
    graph_ir = subprocess.run(
        [sys.executable, "-m", "gir.tools.opt", BFS], capture_output=True, text=True, check=True
    ).stdout
    code = "import sys; from xdsl.tools.xdsl_opt import main; sys.argv[0] = 'xdsl-opt'; main()"
    lowered = subprocess.run(
        [sys.executable, "-c", code, "-p", "lower-to-gpu"],
        input=graph_ir, capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert lowered.returncode == 0, lowered.stderr
    assert "gir_gpu.kernel" in lowered.stdout
