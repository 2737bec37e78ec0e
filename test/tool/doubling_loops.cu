// Tree reductions whose loop variable doubles (for (s = 1; s < blockDim.x; s *= 2)): in trip s, the threads
// that add are those whose index, times 2s, stays below the block (interleaved addressing), or those whose
// index is a multiple of 2s. Either way blockDim/2 + blockDim/4 + ... + 1 = blockDim - 1 threads a block for
// a block of a power of two.
// RUN: roofcheck-lint %s --grid 4 --block 256 | FileCheck %s

// 255 adds a block, 1,020 in all.
__global__ void strided(const float *in, float *out) {
  __shared__ float partial[256];
  unsigned tid = threadIdx.x;
  partial[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      partial[index] += partial[index + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0];
}

// CHECK-LABEL: kernel strided
// CHECK: flops.fp32 {{.*}}blockDim.x * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z - blockDim.y * {{.*}} = 1020{{$}}

// The same threads, picked by a remainder.
__global__ void multiples(const float *in, float *out) {
  __shared__ float partial[256];
  unsigned tid = threadIdx.x;
  partial[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = partial[0];
}

// CHECK-LABEL: kernel multiples
// CHECK: flops.fp32 {{.*}} = 1020{{$}}

// Without a guard every thread adds in every trip, log2(blockDim.x) of them: no closed form, an unknown.
__global__ void everyThread(float *data) {
  float v = data[threadIdx.x];
  for (unsigned s = 1; s < blockDim.x; s *= 2)
    v += __shfl_xor_sync(0xffffffffu, v, s);
  data[threadIdx.x] = v;
}

// CHECK-LABEL: kernel everyThread
// CHECK: flops.fp32 unknown
// CHECK: unknown: doubling loop whose trip count has no closed form

// Half the block adds in the first trip whatever s is: the threads of a trip are not the loop's halving
// sequence, and no sum is given.
__global__ void otherBound(const float *in, float *out) {
  __shared__ float partial[512];
  unsigned tid = threadIdx.x;
  partial[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (2 * s * tid < 128)
      partial[tid] += partial[tid + s];
    __syncthreads();
  }
  out[blockIdx.x] = partial[0];
}

// CHECK-LABEL: kernel otherBound
// CHECK: flops.fp32 unknown
// CHECK: unknown: doubling loop whose threads per trip it cannot sum

// The threads of another dimension than the bound's: blockDim.x - 1 rows of a block of blockDim.y rows would
// be a guess, and no sum is given.
__global__ void otherDimension(const float *in, float *out) {
  __shared__ float partial[256];
  unsigned row = threadIdx.y;
  partial[row] = in[blockIdx.x * blockDim.y + row];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (2 * s * row < blockDim.x)
      partial[row] += partial[row + s];
    __syncthreads();
  }
  out[blockIdx.x] = partial[0];
}

// CHECK-LABEL: kernel otherDimension
// CHECK: flops.fp32 unknown
// CHECK: unknown: doubling loop whose threads per trip it cannot sum

// A constant bound is counted as before: 5 adds in every thread, 1,280 a block, 5,120 in all.
__global__ void warpScan(float *data) {
  float v = data[threadIdx.x];
  for (int offset = 1; offset < 32; offset *= 2)
    v += __shfl_xor_sync(0xffffffffu, v, offset);
  data[threadIdx.x] = v;
}

// CHECK-LABEL: kernel warpScan
// CHECK: flops.fp32 {{.*}} = 5120{{$}}
