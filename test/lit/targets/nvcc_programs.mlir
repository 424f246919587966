// REQUIRES: nvcc
// The CUDA that gir-translate prints for each end-to-end program (lowered with
// lower-to-gpu) compiles with nvcc for sm_90, as the README promises.
// RUN: gir-translate --to-cuda %S/../../programs/bfs.gt -o %t.bfs.cu
// RUN: gir-translate --to-cuda %S/../../programs/sssp_bf.gt -o %t.sssp.cu
// RUN: gir-translate --to-cuda %S/../../programs/cc_default.gt -o %t.cc.cu
// RUN: gir-translate --to-cuda %S/../../programs/pagerank_default.gt -o %t.pr.cu
// RUN: gir-translate --to-cuda %S/../../programs/pagerank_double.gt -o %t.prd.cu
// RUN: %nvcc-batch -arch=sm_90 -std=c++17 -- %t.bfs.cu %t.sssp.cu %t.cc.cu %t.pr.cu %t.prd.cu
