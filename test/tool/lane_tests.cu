// A test of a thread's lane (threadIdx.x % 32 == 0 after a warp reduction, a range of lanes that the
// optimiser folds into a bit test) picks a known number of each block's threads: whole rounds of 32 and what
// the last, partial one reaches. The warp's add stays in every thread, where the source has it, not sunk
// under the lane test. A lane test beside another bound on the same coordinate stays unknown.
// RUN: roofcheck-lint %s --grid 10 --block 100 --arg n=50 | FileCheck %s

// 100 threads a block, each adding its neighbour's value; lanes 0, 32, 64 and 96 scale the warp's total.
__global__ void warp_totals(const float *a, float *y, float scale) {
  float s = a[blockIdx.x * blockDim.x + threadIdx.x];
  s += __shfl_down_sync(0xffffffff, s, 16);
  if (threadIdx.x % 32 == 0)
    y[blockIdx.x * 4 + threadIdx.x / 32] = s * scale;
}

// Lanes 8 to 15 of each warp: 8 in each of the 3 whole warps, none in the 4 threads of the last.
__global__ void middle_lanes(float *y, float scale) {
  int lane = threadIdx.x & 31;
  if (lane >= 8)
    if (lane < 16)
      y[blockIdx.x * blockDim.x + threadIdx.x] *= scale;
}

// The first n threads, and of those the first lane of each warp: two bounds on one coordinate.
__global__ void bounded_lanes(float *y, float scale, int n) {
  if (threadIdx.x < n)
    if (threadIdx.x % 32 == 0)
      y[blockIdx.x] *= scale;
}

// CHECK-LABEL: kernel warp_totals
// CHECK: flops.total blockDim.x * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z + blockDim.x / 32 * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z + blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z * min(max(blockDim.x - 32 * (blockDim.x / 32), 0), 1) = 1040{{$}}
// CHECK-LABEL: kernel middle_lanes
// CHECK: flops.total {{.*}} = 240{{$}}
// CHECK-LABEL: kernel bounded_lanes
// CHECK: flops.total unknown
