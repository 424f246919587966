// Output files: a symlink stays a link (its target is written), a character device
// is written through, and a failed write leaves neither a partial file nor a
// temporary one.

// RUN: rm -rf %t && mkdir -p %t
// RUN: echo original > %t/target.cl && ln -s target.cl %t/link.cl
// RUN: gir-translate %programs/bfs.gt --to-opencl -o %t/link.cl
// RUN: test -L %t/link.cl
// RUN: filecheck %s --check-prefix=KERNELS < %t/target.cl
// KERNELS: __kernel void

// RUN: gir-translate %programs/bfs.gt --to-cuda -o /dev/null
// RUN: test -c /dev/null

// RUN: echo old > %t/efbig.mlir
// RUN: not sh -c 'ulimit -f 1; exec gir-opt %programs/bfs.gt -o %t/efbig.mlir' 2>&1 | filecheck %s --check-prefix=EFBIG
// EFBIG: error: cannot write '{{.*}}efbig.mlir': File too large
// RUN: filecheck %s --check-prefix=OLD < %t/efbig.mlir
// OLD: old
// RUN: not sh -c 'ulimit -f 1; exec gir-opt %programs/bfs.gt -o %t/new.mlir' 2>&1
// RUN: test ! -e %t/new.mlir
// RUN: ls -A %t > %t.files && not grep '[.]tmp$' %t.files

// RUN: not gir-translate %programs/bfs.gt -o %t 2>&1 | filecheck %s --check-prefix=DIR
// DIR: error: cannot write '{{.*}}': it is a directory
// RUN: not gir-opt %programs/bfs.gt -o %t/missing/out.mlir 2>&1 | filecheck %s --check-prefix=NODIR
// NODIR: error: cannot write '{{.*}}missing/out.mlir': No such file or directory

// The output file is the input (by its name or through a link): refused, and the
// input is left as it was.
// RUN: cp %programs/bfs.gt %t/self.gt && ln -s self.gt %t/self-link.gt
// RUN: not gir-opt %t/self.gt -o %t/self.gt 2>&1 | filecheck %s --check-prefix=SELF
// RUN: not gir-translate %t/self.gt --to-opencl -o %t/self-link.gt 2>&1 | filecheck %s --check-prefix=SELF
// SELF: error: cannot write '{{.*}}self{{.*}}.gt': it is the input file (give another output file)
// RUN: cmp %t/self.gt %programs/bfs.gt
