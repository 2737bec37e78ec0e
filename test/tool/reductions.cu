// Canonical reduction shapes: a tree over a template block size (the loop has a constant trip count, but
// its `threadIdx.x < s` guard halves the work each trip), warp shuffles, and a block-stride loop whose int
// index is compared with an int64_t bound (the comparison sees the index sign-extended).
// RUN: roofcheck-lint %s --grid 64 --block 256 --arg n=100000 --arg ncols=4096 | FileCheck %s

template <int Block> __global__ void tree_sum(float *out, const float *in, int n) {
  __shared__ float partial[Block];
  float sum = 0.0f;
  for (int i = blockIdx.x * Block + threadIdx.x; i < n; i += Block * gridDim.x)
    sum += in[i];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int s = Block / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0];
}
template __global__ void tree_sum<256>(float *, const float *, int);

__global__ void row_max(float *out, const float *x, const long long ncols) {
  const float *row = x + blockIdx.x * ncols;
  float m = -INFINITY;
  for (int col = threadIdx.x; col < ncols; col += blockDim.x)
    m = fmaxf(m, row[col]);
  for (int offset = 16; offset > 0; offset >>= 1)
    m += __shfl_xor_sync(0xffffffff, m, offset);
  if (threadIdx.x == 0)
    out[blockIdx.x] = m;
}

// n adds in the grid-stride loop, 128 + 64 + ... + 1 = 255 per block in the tree.
// CHECK-LABEL: kernel tree_sum<256>
// CHECK: flops.total {{.*}} = 116320{{$}}
// CHECK: bytes.read 4 * n = 400000{{$}}
// 5 shuffle adds per thread (no guard: every thread, every trip).
// CHECK-LABEL: kernel row_max
// CHECK: flops.total {{.*}} = 81920{{$}}
// CHECK: bytes.read 4 * gridDim.x * ncols = 1048576{{$}}
// CHECK-NOT: unknown:
