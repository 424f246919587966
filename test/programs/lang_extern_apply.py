"""Host implementations of lang_extern_apply.gt's applied externs. `heaviest`
and `marked` are the program's vectors: gir binds them here (numpy arrays)
while an apply runs, as GraphIt's C++ declares `extern int* heaviest;`."""

heaviest = None
marked = None


def keep_heaviest(src, dst, weight):
    """Runs once per edge: the heaviest weight leaving `src`."""
    heaviest[src] = max(heaviest[src], weight)


def mark(v):
    """Runs once per vertex: 1 where the id is a multiple of 3."""
    marked[v] = 1 if v % 3 == 0 else 0
