"""Host implementations of lang_astar.gt's extern functions: the coordinates are
not needed by a heuristic of 0, which only records how many vertices there are."""

VERTICES = {}


def read_coordinates(path, vertex_count):
    """Records the graph's vertex count (a real A* would read `path`)."""
    VERTICES[path] = vertex_count


def heuristic(from_vertex, to_vertex):
    """An admissible estimate of the distance: 0."""
    return 0.0
