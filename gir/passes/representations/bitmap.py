"""The bitmap (`!frontier.bitmap`) on the GPU: one bit per vertex, G2's
UNFUSED_BITMAP output and a PULL input.

Host value: `words` (a `memref<?xi32>` of ceil(V / 32) words; vertex v is bit
v % 32 of word v / 32). Enqueueing sets the bit with an atomic or, since the
other bits of the word may be set at the same time.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, memref
from xdsl.dialects.builtin import i32
from xdsl.ir import SSAValue

from gir.dialects import gir_gpu
from gir.dialects.frontier import BitmapType
from gir.dialects.gir_gpu import AtomicKind
from gir.passes.gpu_kernels import GpuContext, as_i32, as_index, constant
from gir.passes.representations.dense import DenseFrontier


def _word_and_mask(b: Builder, vertex: SSAValue) -> tuple[SSAValue, SSAValue]:
    """Device code: the word (an index) and the bit mask (i32) of `vertex` (i32)."""
    vertex = as_i32(b, vertex)
    word = b.insert(arith.ShRSIOp(vertex, constant(b, 5))).result
    offset = b.insert(arith.AndIOp(vertex, constant(b, 31))).result
    mask = b.insert(arith.ShLIOp(constant(b, 1), offset)).result
    return as_index(b, word), mask


class Bitmap(DenseFrontier):
    """`!frontier.bitmap` as 32-bit words of membership bits."""

    type = BitmapType
    creation = "UNFUSED_BITMAP"
    pull_frontier = "BITMAP"
    element = i32
    host_names = ("words",)

    def slots(self, ctx: GpuContext, b: Builder) -> SSAValue:
        def make(setup: Builder) -> SSAValue:
            padded = setup.insert(arith.AddiOp(ctx.vertices, constant(setup, 31))).result
            words = setup.insert(arith.DivSIOp(padded, constant(setup, 32))).result
            words.name_hint = "bitmap_words"
            return words

        return ctx.shared("bitmap_words", make)

    def test(self, b: Builder, storage: SSAValue, vertex: SSAValue) -> SSAValue:
        word, mask = _word_and_mask(b, vertex)
        bits = b.insert(memref.LoadOp.get(storage, [word])).res
        held = b.insert(arith.AndIOp(bits, mask)).result
        return b.insert(arith.CmpiOp(held, constant(b, 0), "ne")).result

    def mark(self, b: Builder, storage: SSAValue, vertex: SSAValue) -> None:
        word, mask = _word_and_mask(b, vertex)
        b.insert(gir_gpu.AtomicRMWOp(AtomicKind.OR, mask, storage, word))
