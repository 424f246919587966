"""`tools/sanitize.sh --dry-run` lowers every e2e program with every registered
load balance (what the GPU run then sanitizes), so a change of gir's Python API
that the script uses shows here, not first on the GPU machine."""

from __future__ import annotations

import subprocess
from pathlib import Path

from gir.passes.load_balance import LOAD_BALANCES

ROOT = Path(__file__).resolve().parents[2]


def test_dry_run_lowers_every_program_with_every_strategy(tmp_path: Path) -> None:
    done = subprocess.run(
        ["bash", "tools/sanitize.sh", "--dry-run", "--graph", "rmat:4", "--out", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lowered = {path.name for path in tmp_path.glob("*.mlir")}
    for strategy in LOAD_BALANCES:
        for program in ("bfs", "sssp_bf", "cc", "pagerank"):
            assert f"{program}.{strategy.lower()}.mlir" in lowered
