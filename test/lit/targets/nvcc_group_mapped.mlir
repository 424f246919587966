// REQUIRES: nvcc
// The CUDA printed for BFS under the group-mapped load balances (a warp per
// vertex, WM; a block per vertex, CM) compile with nvcc for sm_90.
// RUN: gir-translate --to-cuda %S/../passes/Inputs/bfs_wm.gt -o %t.wm.cu
// RUN: gir-translate --to-cuda %S/../passes/Inputs/bfs_cm.gt -o %t.cm.cu
// RUN: %nvcc-batch -arch=sm_90 -std=c++17 -- %t.wm.cu %t.cm.cu
