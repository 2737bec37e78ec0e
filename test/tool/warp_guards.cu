// Block reductions in two stages: every warp reduces its own values with shuffles, lane 0 of each warp leaves
// the warp's sum in shared memory, and the first warp reduces those. `warp == 0` (warp = threadIdx.x / 32)
// admits the first 32 threads, also where lane = threadIdx.x % 32 is used beside it.
// RUN: roofcheck-lint %s --grid 2 --block 256 | FileCheck %s

__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

// 5 adds in every thread, 5 more in the 32 threads of warp 0: (5 * 256 + 5 * 32) * 2 blocks = 2880.
__global__ void blockSum(const float *in, float *out) {
  __shared__ float partial[32];
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float v = warpSum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (lane == 0)
    partial[warp] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? partial[lane] : 0.0f;
  if (warp == 0)
    v = warpSum(v);
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}

// CHECK-LABEL: kernel blockSum
// CHECK: flops.fp32 5 * blockDim.x * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z + 160 * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z = 2880{{$}}

// A warp test in front of a loop whose bound is a constant too: the test still guards the loop's threads.
// Warps 1 and up (threadIdx.x >= 32) run 5 adds: 5 * 224 * 2 = 2240.
__global__ void laterWarps(const float *in, float *out) {
  int warp = threadIdx.x / 32;
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
  if (warp != 0)
    out[blockIdx.x * blockDim.x + threadIdx.x] = warpSum(v);
}

// CHECK-LABEL: kernel laterWarps
// CHECK: flops.fp32 {{.*}} = 2240{{$}}
