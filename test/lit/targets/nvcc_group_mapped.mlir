// REQUIRES: nvcc
// The CUDA printed for BFS under the group-mapped load balances (a warp per
// vertex, WM; a block per vertex, CM) compile with nvcc for sm_90.
// RUN: gir-translate --to-cuda %S/../passes/Inputs/bfs_wm.gt -o %t.wm.cu && nvcc -arch=sm_90 -std=c++17 -c %t.wm.cu -o %t.wm.o
// RUN: gir-translate --to-cuda %S/../passes/Inputs/bfs_cm.gt -o %t.cm.cu && nvcc -arch=sm_90 -std=c++17 -c %t.cm.cu -o %t.cm.o
