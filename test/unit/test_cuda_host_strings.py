"""The Python side of complete CUDA programs: IR strings become C string literals
that only hold data, and the `GIR_DUMP` text reads back into numpy arrays."""

from __future__ import annotations

import ast

import numpy as np
import pytest

from gir.targets.c_printer import c_string_literal
from gir.targets.cuda_host import read_dump


@pytest.mark.parametrize(
    "text", ['plain', 'quote " and \\ backslash', "line\nbreak\ttab", "*/ ??= //", "é ü 漢", "\x00\x7f"]
)
def test_c_string_literal_holds_only_data(text: str) -> None:
    literal = c_string_literal(text)
    body = literal[1:-1]
    assert literal[0] == literal[-1] == '"'
    assert all(0x20 <= ord(c) < 0x7F for c in literal)  # no raw newline or byte
    assert '"' not in body.replace('\\"', "") and "??" not in body
    # C's escapes used here (\", \\, \?, \ooo) read the same in Python bytes.
    assert ast.literal_eval("b" + literal.replace("\\?", "?")) == text.encode("utf-8")


def test_read_dump_reads_every_vector() -> None:
    text = "gir-dump pred int32 3\n-1\n0\n7\ngir-dump we%22ird%20name float32 2\n0.5\ninf\ngir-dump flags bool 2\n1\n0\n"
    vectors = read_dump(text)
    np.testing.assert_array_equal(vectors["pred"], np.array([-1, 0, 7], np.int32))
    assert vectors["pred"].dtype == np.int32
    np.testing.assert_array_equal(vectors['we"ird name'], np.array([0.5, np.inf], np.float32))
    assert vectors["flags"].tolist() == [True, False]


def test_read_dump_rejects_other_text() -> None:
    with pytest.raises(ValueError):
        read_dump("pred int32 1 x\n1\n")
