// REQUIRES: nvcc
// The CUDA printed for BFS under the group-mapped load balances (a warp per
// vertex, WM) compiles with nvcc for sm_90.
// RUN: gir-translate --to-cuda %S/../passes/Inputs/bfs_wm.gt -o %t.wm.cu && nvcc -arch=sm_90 -std=c++17 -c %t.wm.cu -o %t.wm.o
