"""What the tests that run hand-written GPU-level IR on devices share: the OpenCL
devices to parametrize over, parsing, and one opened device per target and index
for a whole test module."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser

from gir.dialects import register_dialects
from gir.runtime.device import Device, DeviceUnavailable, opencl_devices
from gir.executor import open_device


def opencl_device_count() -> int:
    """How many OpenCL devices this machine has (0 without pyopencl)."""
    try:
        return len(opencl_devices())
    except (DeviceUnavailable, ImportError):
        return 0


def parse(text: str) -> ModuleOp:
    """A verified module from IR text."""
    ctx = Context()
    register_dialects(ctx)
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


@contextmanager
def opened_devices() -> Iterator[Callable[[str, int | None], Device]]:
    """`get(target, index)`: a device opened on first use and kept until the end."""
    opened: dict[tuple[str, int | None], Device] = {}

    def get(target: str, index: int | None) -> Device:
        if (target, index) not in opened:
            opened[(target, index)] = open_device(target, index)
        return opened[(target, index)]

    try:
        yield get
    finally:
        for device in opened.values():
            device.close()
