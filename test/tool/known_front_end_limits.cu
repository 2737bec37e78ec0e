// What nvcc accepts and clang's CUDA front end does not, found on the real-code corpus
// (bench/conformance): the file is not analysed, and the miss says in one line what stopped it, exit 2.
//
// A cuda::barrier in shared memory (SGEMM_CUDA's double-buffering kernel): nvcc lets a __shared__ variable
// have libcu++'s defaulted constructor, clang requires an empty one (its members have initialisers).
// RUN: roofcheck-lint %s -- -std=c++17 2> %t.err; test $? -eq 2
// RUN: FileCheck %s < %t.err
// CHECK: roofcheck-lint: error: cannot compile the device side of {{.*}}known_front_end_limits.cu: {{.*}}known_front_end_limits.cu:[[@LINE+4]]:{{[0-9]+}}: initialization is not supported for __shared__ variables
#include <cuda/barrier>

__global__ void staged(float *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> ready;
  if (threadIdx.x == 0)
    init(&ready, blockDim.x);
  __syncthreads();
  out[threadIdx.x] = 1.0f;
  ready.arrive_and_wait();
}
