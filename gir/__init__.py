"""gir: a multi-level IR compiler for graph algorithms on GPUs, built on xDSL."""
