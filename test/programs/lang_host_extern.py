"""Python host implementations of lang_host_extern.gt's extern functions
(gir-run --host-extern test/programs/lang_host_extern.py)."""


def label_length(name):
    """The length of a string."""
    return len(name)


def spread(counts, out, n, factor):
    """Writes `counts` times `factor` into `out` (copied back to the device) and
    gives the largest count."""
    out[:n] = counts[:n] * factor
    return int(counts[:n].max())


def describe(n):
    """A string built on the host."""
    return f"max degree {n}"
