// Atomics: the updated location counts once as read and once as written; the atomic's own add is not a
// FLOP (Nsight Compute does not count it either). An atomic at a loaded index is unknown.
// RUN: roofcheck-lint --verbose %s --grid 4 --block 256 --arg n=1000 --arg nbins=64 | FileCheck %s
//
// dot: 1000 products (fmul) -> fp32 = 1000; x, y: 8000 B, plus *result read once = 8004; write 4.
__global__ void dot(const float *x, const float *y, float *result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    atomicAdd(result, x[i] * y[i]);
}

// histogram: hist[data[i]] depends on the data: read and write unknown, flops 0.
__global__ void histogram(const int *data, int *hist, int n, int nbins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int b = data[i];
    if (b >= 0 && b < nbins)
      atomicAdd(&hist[b], 1);
  }
}

// CHECK-LABEL: kernel dot
// CHECK: flops.fp32 {{.*}} = 1000{{$}}
// CHECK: bytes.read 8 * min(n, blockDim.x * gridDim.x) + 4 = 8004{{$}}
// CHECK: bytes.write 4{{$}}
// CHECK: atomic result: stride 0 B, 1 sectors/request, coalesced
// CHECK-LABEL: kernel histogram
// CHECK: flops.total 0{{$}}
// CHECK: bytes.read unknown
// CHECK: bytes.write unknown
// CHECK: atomics.cu:18:{{[0-9]+}}: unknown: indirect index
// CHECK: atomics.cu:18:7: note: kernel 'histogram': indirect index {{.*}} [unknown: indirect-access]
