// C++ host implementations of lang_extern_apply.gt's applied externs
// (gir-translate --to-cuda --host-extern): the program's vectors are globals
// gir defines and points at host copies while an apply runs, as GraphIt's C++
// reads them.
#include <algorithm>

extern int* heaviest;
extern int* marked;

void keep_heaviest(int src, int dst, int weight) { heaviest[src] = std::max(heaviest[src], weight); }

void mark(int v) { marked[v] = v % 3 == 0 ? 1 : 0; }
