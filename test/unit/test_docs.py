"""The docs: the generated pages and parts (dialect reference, levels, the
schedule reference's option and strategy tables, all from the code and the
registries) are what `docs/generate.py` makes now, the option table has one row
per schedule method with its default, every page is in mkdocs.yml's nav, and `mkdocs build --strict` succeeds (skipped where
mkdocs is not installed: `pip install '.[docs]'`)."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.dialects.builtin import IntegerAttr

from gir.dialects.schedule import SIMPLE_SCHEDULE_FIELDS
from gir.frontend.schedule import ScheduleEvaluator
from gir.frontend.notes import Warnings

ROOT = Path(__file__).parents[2]
DOCS = ROOT / "docs"


def _generator():
    spec = importlib.util.spec_from_file_location("docs_generate", DOCS / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("page", ["dialects.md", "levels.md", "schedules.md"])
def test_generated_page_is_current(page: str) -> None:
    text = _generator().PAGES[page]()
    assert (DOCS / page).read_text() == text, f"docs/{page} is stale: run `python docs/generate.py`"


def test_dialect_reference_has_every_op() -> None:
    from gir.dialects import DIALECT_FACTORIES

    text = (DOCS / "dialects.md").read_text()
    for name in _generator().GIR_DIALECTS:
        for op in DIALECT_FACTORIES[name]().operations:
            assert f"### `{op.name}`" in text


def test_schedule_reference_has_every_option_and_default() -> None:
    text = (DOCS / "schedules.md").read_text()
    rows = {
        match.group(1): match.group(0)
        for match in re.finditer(r"^\| `(config\w+)\(.*$", text, re.MULTILINE)
    }
    evaluator = ScheduleEvaluator(None, "<docs>", Warnings("<docs>"))  # type: ignore[arg-type]
    assert sorted(rows) == sorted(evaluator.methods), "one table row per config method"
    methods = {arg.field: name for name, args in evaluator.methods.items() for arg in args}
    for field in SIMPLE_SCHEDULE_FIELDS:
        default = field.default()
        shown = str(default.value.data) if isinstance(default, IntegerAttr) else str(default.data)
        row = rows[methods[field.key]]
        assert f"`{shown}` (default)" in row or f"(default {shown})" in row, f"{field.key}: {shown}"


def test_every_page_is_in_the_nav() -> None:
    config = (ROOT / "mkdocs.yml").read_text()
    pages = {path.name for path in DOCS.glob("*.md")}
    assert pages == set(re.findall(r":\s*(\S+\.md)\s*$", config, re.MULTILINE))


def test_mkdocs_build_strict(tmp_path: Path) -> None:
    if importlib.util.find_spec("mkdocs") is None and shutil.which("mkdocs") is None:
        pytest.skip("mkdocs is not installed (pip install '.[docs]')")
    command = [sys.executable, "-m", "mkdocs"] if importlib.util.find_spec("mkdocs") else ["mkdocs"]
    done = subprocess.run(
        [*command, "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "tutorial" / "index.html").exists()
