// Warp reductions written as inline PTX, the way template libraries write them: the shuffle sets a predicate
// that says whether the lane's source lane exists, and the add runs only where it does. A down-shuffle by c
// over a whole warp has a source in 32 - c lanes, an up-shuffle by c in 32 - c, a butterfly in all 32; a
// logical warp of 8 (segment mask 24 in the clamp) has 8 - c in each of its four parts. The offset and clamp
// are constants once the helper is inlined; where the clamp is a run-time value (a partial warp), how many
// lanes add is not known, and the FLOPs say so.
// Nsight Compute on the H200 at this launch (nvcc -O3 -arch=sm_90, bench/lit-ncu.sh, 2026-12-04): octet_sum
// 544 and warp_scan 1,280 (1,032 FADD, 248 FMUL), as counted here; partial_warp_sum 40 (lanes 0-4 of each
// warp with the last lane 20). warp_sum 792: ptxas moves the last step's add (31 lanes) under the lane test,
// where only lane 0 uses it (99 a warp); the count here is the source's, 129 a warp.
// RUN: roofcheck-lint %s --grid 4 --block 64 --arg last=20 | FileCheck %s

__device__ __forceinline__ float add_from_lane_below(float v, int offset, int clamp) {
  float r;
  asm volatile("{ .reg .f32 t; .reg .pred found;\n"
               "  shfl.sync.down.b32 t|found, %1, %2, %3, 0xffffffff;\n"
               "  @found add.f32 t, t, %1;\n"
               "  mov.f32 %0, t; }"
               : "=f"(r)
               : "f"(v), "r"(offset), "r"(clamp));
  return r;
}

__device__ __forceinline__ float scan_step(float v, int offset) {
  float r;
  asm volatile("{ .reg .f32 t, u; .reg .pred found;\n"
               "  shfl.sync.up.b32 t|found, %1, %2, 0, 0xffffffff;\n"
               "  mov.f32 u, %1;\n"
               "  @found add.f32 u, t, u;\n"
               "  @!found mul.f32 u, u, 0f3FC00000;\n"
               "  mov.f32 %0, u; }"
               : "=f"(r)
               : "f"(v), "r"(offset));
  return r;
}

// The steps are unrolled by template recursion, as the libraries write them, so each offset is a constant.
template <int Offset, int Clamp> __device__ __forceinline__ float reduce_from(float v) {
  v = add_from_lane_below(v, Offset, Clamp);
  if constexpr (Offset > 1)
    v = reduce_from<Offset / 2, Clamp>(v);
  return v;
}

template <int Offset> __device__ __forceinline__ float scan_from(float v) {
  v = scan_step(v, Offset);
  if constexpr (Offset < 16)
    v = scan_from<Offset * 2>(v);
  return v;
}

// Offsets 16, 8, 4, 2, 1 over whole warps: 16 + 24 + 28 + 30 + 31 = 129 adds a warp, 2 warps a block.
__global__ void warp_sum(const float *x, float *y) {
  float v = reduce_from<16, 31>(x[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x % 32 == 0)
    y[blockIdx.x * 2 + threadIdx.x / 32] = v;
}

// Logical warps of 8: offsets 4, 2, 1 leave 4 + 6 + 7 = 17 adds of each 8 lanes, 68 a warp.
__global__ void octet_sum(const float *x, float *y) {
  float v = reduce_from<4, (24 << 8) | 7>(x[blockIdx.x * blockDim.x + threadIdx.x]);
  y[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// An inclusive scan: the add where lane - c exists (32 - c lanes), the multiply in the c lanes without one:
// 32 operations a warp at each of the 5 steps.
__global__ void warp_scan(float *x) {
  float v = scan_from<1>(x[blockIdx.x * blockDim.x + threadIdx.x]);
  x[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// The steps as a loop of constant trips, which nvcc unrolls: each trip's offset (16 >> step) is known, so the
// lanes are summed over the trips, 129 of 160 a warp as above. No lane test after it. (Not yet profiled.)
__global__ void warp_sum_loop(const float *x, float *y) {
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
#pragma unroll
  for (int step = 0; step < 5; ++step)
    v = add_from_lane_below(v, 16 >> step, 31);
  y[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// The last lane is an argument: the lanes that add depend on it.
__global__ void partial_warp_sum(const float *x, float *y, int last) {
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  v = add_from_lane_below(v, 16, last);
  y[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// CHECK-LABEL: kernel warp_sum
// CHECK: flops.total 129 * blockDim.x * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z / 32 = 1032{{$}}
// CHECK-LABEL: kernel octet_sum
// CHECK: flops.total {{.*}} = 544{{$}}
// CHECK-LABEL: kernel warp_scan
// CHECK: flops.total {{.*}} = 1280{{$}}
// CHECK-LABEL: kernel warp_sum_loop
// The per-trip fractions (lanes of 32 * 5) reduce with the trips: 129 / 32, not 645 / 160.
// CHECK: flops.total 129 * blockDim.x * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z / 32 = 1032{{$}}
// CHECK-LABEL: kernel partial_warp_sum
// CHECK: flops.total unknown
// CHECK: arithmetic in inline assembly under a shfl.down predicate whose lanes depend on a run-time offset or clamp
