"""The runtime protocol under its former name: see `gir.protocol`.

Host programs printed before the protocol moved below the runtime and the targets
import it from here.
"""

from gir.protocol import Buffer, DType, GraphArray, GraphSize, HostRuntime, Launch

__all__ = ["Buffer", "DType", "GraphArray", "GraphSize", "HostRuntime", "Launch"]
