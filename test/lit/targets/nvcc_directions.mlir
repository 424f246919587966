// REQUIRES: nvcc
// The CUDA of the programs with PULL traversals and hybrid schedules compiles
// with nvcc for sm_90: BFS pulling from a bitmap with every load balance, and
// G2's PageRank schedule (PULL, EDGE_ONLY, blocked).
// RUN: gir-translate --to-cuda %S/../../programs/pagerank_pull.gt -o %t.prpull.cu && nvcc -arch=sm_90 -std=c++17 -c %t.prpull.cu -o %t.prpull.o
// RUN: gir-translate --to-cuda %S/../../programs/bfs_hybrid_argv.gt -o %t.bfshy.cu && nvcc -arch=sm_90 -std=c++17 -c %t.bfshy.cu -o %t.bfshy.o
// RUN: sed -e 's/configLoadBalance(VERTEX_BASED)/configLoadBalance(TWCE)/' %S/../../programs/bfs_pull_bitmap.gt > %t.twce.gt && gir-translate --to-cuda %t.twce.gt -o %t.twce.cu && nvcc -arch=sm_90 -std=c++17 -c %t.twce.cu -o %t.twce.o
// RUN: sed -e 's/configLoadBalance(VERTEX_BASED)/configLoadBalance(TWC)/' %S/../../programs/bfs_pull_bitmap.gt > %t.twc.gt && gir-translate --to-cuda %t.twc.gt -o %t.twc.cu && nvcc -arch=sm_90 -std=c++17 -c %t.twc.cu -o %t.twc.o
// RUN: sed -e 's/configLoadBalance(VERTEX_BASED)/configLoadBalance(CM)/' %S/../../programs/bfs_pull_bitmap.gt > %t.cm.gt && gir-translate --to-cuda %t.cm.gt -o %t.cm.cu && nvcc -arch=sm_90 -std=c++17 -c %t.cm.cu -o %t.cm.o
// RUN: sed -e 's/configLoadBalance(VERTEX_BASED)/configLoadBalance(WM)/' %S/../../programs/bfs_pull_bitmap.gt > %t.wm.gt && gir-translate --to-cuda %t.wm.gt -o %t.wm.cu && nvcc -arch=sm_90 -std=c++17 -c %t.wm.cu -o %t.wm.o
// RUN: sed -e 's/configLoadBalance(VERTEX_BASED)/configLoadBalance(STRICT)/' %S/../../programs/bfs_pull_bitmap.gt > %t.strict.gt && gir-translate --to-cuda %t.strict.gt -o %t.strict.cu && nvcc -arch=sm_90 -std=c++17 -c %t.strict.cu -o %t.strict.o
// RUN: sed -e 's/configLoadBalance(VERTEX_BASED)/configLoadBalance(MERGE_PATH)/' %S/../../programs/bfs_pull_bitmap.gt > %t.merge_path.gt && gir-translate --to-cuda %t.merge_path.gt -o %t.merge_path.cu && nvcc -arch=sm_90 -std=c++17 -c %t.merge_path.cu -o %t.merge_path.o
// RUN: sed -e 's/configLoadBalance(VERTEX_BASED)/configLoadBalance(EDGE_ONLY)/' %S/../../programs/bfs_pull_bitmap.gt > %t.edge_only.gt && gir-translate --to-cuda %t.edge_only.gt -o %t.edge_only.cu && nvcc -arch=sm_90 -std=c++17 -c %t.edge_only.cu -o %t.edge_only.o
// RUN: gir-translate --to-cuda --kernels-only %S/../../programs/pagerank_pull_blocked.gt -o %t.prblocked.cu && nvcc -arch=sm_90 -std=c++17 -c %t.prblocked.cu -o %t.prblocked.o
