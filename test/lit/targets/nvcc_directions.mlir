// REQUIRES: nvcc
// The CUDA of the programs with PULL traversals and hybrid schedules compiles
// with nvcc for sm_90.
// RUN: gir-translate --to-cuda %S/../../programs/pagerank_pull.gt -o %t.prpull.cu && nvcc -arch=sm_90 -std=c++17 -c %t.prpull.cu -o %t.prpull.o
// RUN: gir-translate --to-cuda %S/../../programs/bfs_hybrid_argv.gt -o %t.bfshy.cu && nvcc -arch=sm_90 -std=c++17 -c %t.bfshy.cu -o %t.bfshy.o
