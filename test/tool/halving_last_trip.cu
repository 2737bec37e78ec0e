// Tree reductions whose halving loop stops before 1 (the last warp is reduced apart): the threads of
// `if (threadIdx.x < s)` are start + start/2 + ... down to the last s the loop runs with, not down to 1.
// RUN: roofcheck-lint %s --grid 2 --block 256 | FileCheck %s

// s = 128, 64: 192 adds a block; then 6 adds in each of the first 32 threads, 192; 384 a block, 768 in all.
__global__ void stopsAt64(float *data, float *out) {
  __shared__ float partial[256];
  partial[threadIdx.x] = data[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (int s = 128; s > 32; s >>= 1) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    volatile float *last = partial;
    for (int s = 32; s > 0; s >>= 1)
      if (s < 64)
        last[threadIdx.x] += last[threadIdx.x + s];
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0];
}

// CHECK-LABEL: kernel stopsAt64
// CHECK: flops.fp32 {{.*}} = 768{{$}}

// The same from half the block, which the compiler rotates into a loop over 2s (s = that >> 1 in the
// body): 128 + 64 = 192 a block, and 256 adds of the two loads: 448 a block, 896 in all.
__global__ void fromHalfBlock(const float *in, float *out) {
  __shared__ float partial[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + tid;
  partial[tid] = in[i] + in[i + blockDim.x];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0];
}

// CHECK-LABEL: kernel fromHalfBlock
// CHECK: flops.fp32 {{.*}}max(2 * (blockDim.x / 2) - 64, 0){{.*}} = 896{{$}}
