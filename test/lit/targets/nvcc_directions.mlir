// REQUIRES: nvcc
// The CUDA of the programs with PULL traversals and hybrid schedules compiles
// with nvcc for sm_90: BFS pulling from a bitmap with every load balance, and
// G2's PageRank schedule (PULL, EDGE_ONLY, blocked).
// RUN: gir-translate --to-cuda %S/../../programs/pagerank_pull.gt -o %t.prpull.cu
// RUN: gir-translate --to-cuda %S/../../programs/bfs_hybrid_argv.gt -o %t.bfshy.cu
// RUN: sed -e 's/configLoadBalance(VERTEX_BASED)/configLoadBalance(TWCE)/' %S/../../programs/bfs_pull_bitmap.gt > %t.twce.gt && gir-translate --to-cuda %t.twce.gt -o %t.twce.cu
// RUN: sed -e 's/configLoadBalance(VERTEX_BASED)/configLoadBalance(TWC)/' %S/../../programs/bfs_pull_bitmap.gt > %t.twc.gt && gir-translate --to-cuda %t.twc.gt -o %t.twc.cu
// RUN: sed -e 's/configLoadBalance(VERTEX_BASED)/configLoadBalance(CM)/' %S/../../programs/bfs_pull_bitmap.gt > %t.cm.gt && gir-translate --to-cuda %t.cm.gt -o %t.cm.cu
// RUN: sed -e 's/configLoadBalance(VERTEX_BASED)/configLoadBalance(WM)/' %S/../../programs/bfs_pull_bitmap.gt > %t.wm.gt && gir-translate --to-cuda %t.wm.gt -o %t.wm.cu
// RUN: sed -e 's/configLoadBalance(VERTEX_BASED)/configLoadBalance(STRICT)/' %S/../../programs/bfs_pull_bitmap.gt > %t.strict.gt && gir-translate --to-cuda %t.strict.gt -o %t.strict.cu
// RUN: sed -e 's/configLoadBalance(VERTEX_BASED)/configLoadBalance(MERGE_PATH)/' %S/../../programs/bfs_pull_bitmap.gt > %t.merge_path.gt && gir-translate --to-cuda %t.merge_path.gt -o %t.merge_path.cu
// RUN: sed -e 's/configLoadBalance(VERTEX_BASED)/configLoadBalance(EDGE_ONLY)/' %S/../../programs/bfs_pull_bitmap.gt > %t.edge_only.gt && gir-translate --to-cuda %t.edge_only.gt -o %t.edge_only.cu
// RUN: gir-translate --to-cuda --kernels-only %S/../../programs/pagerank_pull_blocked.gt -o %t.prblocked.cu
// RUN: %nvcc-batch -arch=sm_90 -std=c++17 -- %t.prpull.cu %t.bfshy.cu %t.twce.cu %t.twc.cu %t.cm.cu %t.wm.cu %t.strict.cu %t.merge_path.cu %t.edge_only.cu %t.prblocked.cu
