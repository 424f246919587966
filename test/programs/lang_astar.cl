// OpenCL C implementation of lang_astar.gt's heuristic, called from the edge function.
double heuristic(int from_vertex, int to_vertex) { return 0.0; }
