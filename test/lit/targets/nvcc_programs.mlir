// REQUIRES: nvcc
// The CUDA that gir-translate prints for each end-to-end program (lowered with
// lower-to-gpu) compiles with nvcc for sm_90, as the README promises.
// RUN: gir-translate --to-cuda %S/../../programs/bfs.gt -o %t.bfs.cu && nvcc -arch=sm_90 -std=c++17 -c %t.bfs.cu -o %t.bfs.o
// RUN: gir-translate --to-cuda %S/../../programs/sssp_bf.gt -o %t.sssp.cu && nvcc -arch=sm_90 -std=c++17 -c %t.sssp.cu -o %t.sssp.o
// RUN: gir-translate --to-cuda %S/../../programs/cc_default.gt -o %t.cc.cu && nvcc -arch=sm_90 -std=c++17 -c %t.cc.cu -o %t.cc.o
// RUN: gir-translate --to-cuda %S/../../programs/pagerank_default.gt -o %t.pr.cu && nvcc -arch=sm_90 -std=c++17 -c %t.pr.cu -o %t.pr.o
// RUN: gir-translate --to-cuda %S/../../programs/pagerank_double.gt -o %t.prd.cu && nvcc -arch=sm_90 -std=c++17 -c %t.prd.cu -o %t.prd.o
