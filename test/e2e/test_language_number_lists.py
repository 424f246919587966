"""End to end: lists of numbers (`test/programs/lang_number_lists.gt`, GraphIt's
`list{int}`) grown, shrunk and measured by main, and given to a Python host
extern as the list itself (its changes are the program's); a pop of an empty
list is one error at the pop."""

from __future__ import annotations

from pathlib import Path

import pytest

import gir
from gir.diagnostics import UserError
from test_programs import TARGETS

PROGRAMS = Path(__file__).parents[1] / "programs"
PROGRAM = PROGRAMS / "lang_number_lists.gt"


@pytest.mark.parametrize("target", TARGETS)
def test_number_lists_on_the_host(target, devices):
    name, index = target
    devices(name, index)
    program = gir.compile(PROGRAM, host_externs=PROGRAM.with_suffix(".py"))
    printed = program.run(target=name, device=index).stdout.split()
    assert printed[:4] == ["4950", "100", "98", "96"]  # drop_odd removed the odd numbers in place
    assert float(printed[4]) == 2.5 and printed[5] == "1"


@pytest.mark.parametrize("target", TARGETS)
def test_pop_of_an_empty_list_is_an_error_at_the_pop(target, devices, tmp_path):
    name, index = target
    devices(name, index)
    source = tmp_path / "empty_pop.gt"
    source.write_text(
        "func main()\n"
        "    var v : list{int} = new list{int}();\n"
        "    v.append(1);\n"
        "    print v.pop();\n"
        "    print v.pop();\n"
        "end\n"
    )
    with pytest.raises(UserError, match=rf"^{source}:5:5: error: the program pops from an empty list$"):
        gir.compile(source).run(target=name, device=index)
