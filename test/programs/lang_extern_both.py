"""Host implementations of lang_extern_both.gt's extern functions called from main."""


def load_hints(name, num_nodes):
    """What a loader would report: the vertices and the length of the graph's name."""
    return num_nodes + len(name)


def distance_hint(v, target):
    """|v - target|, as the device implementation computes it."""
    return abs(v - target)
