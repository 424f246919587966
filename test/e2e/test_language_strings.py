"""End to end: `string` locals of `main` (`test/programs/lang_strings.gt`): a
literal, `argv[N]` as written, copies, `==`/`!=` and `print`, on the Python host
and in the complete CUDA program (built with nvcc, not run)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gir.runtime.device import find_nvcc
from test_programs import TARGETS

PROGRAMS = Path(__file__).parents[1] / "programs"


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", ["gir", "graphit"])
def test_strings_print_and_compare(target, name, run_program, tmp_path):
    """The program prints its literal, its argv strings as given, whether
    argv[2] is "gir" (`==`, `!=`, `==` on argv itself), the string a loop
    reassigns each round, the one an `if` chose, and `atoi` of a string."""
    graph = tmp_path / "triangle.el"
    graph.write_text("0 1\n1 2\n2 0\n")
    printed = run_program("lang_strings.gt", target, [str(graph), name, "-42"])
    same = int(name == "gir")
    kind = "gir" if same else "other"
    expected = ["graph:", str(graph), "name:", name, str(same), str(1 - same), str(same)]
    assert printed == [*expected, name, "again", kind, "-41", "3"]


@pytest.mark.skipif(find_nvcc() is None, reason="nvcc is not installed")
def test_strings_complete_cuda_program_builds(complete_cuda):
    """The complete `.cu` holds the strings as std::string and builds with nvcc."""
    text, problem = complete_cuda("lang_strings.gt")
    assert "std::string" in text and "gir_rt::argv_str(2)" in text and "gir_rt::text_int(" in text
    assert problem is None, problem[-4000:]
