// One row per warp: warp = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32 is the global index divided by
// 32 (blockDim.x a multiple of 32, as such launches are written), so a guard on it passes whole warps; the
// warp's lanes walk the row together (for (i = lane; i < C; i += 32): C visits a warp), and a lane test after
// a shuffle reduction (if (lane == 0)) keeps 1 lane in 32. 64 blocks of 128 threads: 256 warps, 200 rows.
// The FLOPs below are what Nsight Compute counted of row_max and row_partial_sums built by nvcc -O3
// -arch=sm_90 at this launch on the H200 (2026-12-04): 20,000 FADDs each (x * 2.0f is an FADD of x and x);
// of weighted_rows, 20,000 FMULs.
// RUN: roofcheck-lint %s --grid 64 --block 128 --arg N=200 --arg C=100 | FileCheck %s

// The rank written out, an early return, the row's maximum of doubled values (one multiply a value).
__global__ void row_max(float *out, const float *in, int N, int C) {
  int warpsPerBlock = blockDim.x / 32;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int row = blockIdx.x * warpsPerBlock + warp;
  if (row >= N)
    return;
  float m = -1e30f;
  for (int i = lane; i < C; i += 32)
    m = fmaxf(m, in[(size_t)row * C + i] * 2.0f);
  for (int offset = 16; offset > 0; offset /= 2)
    m = fmaxf(m, __shfl_down_sync(0xffffffff, m, offset));
  if (lane == 0)
    out[row] = m;
}

// The rank in one expression, under an if; every lane writes its partial sum.
__global__ void row_partial_sums(float *out, const float *in, int N, int C) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row < N) {
    float s = 0;
    for (int i = lane; i < C; i += 32)
      s += in[row * C + i];
    out[row * 32 + lane] = s;
  }
}

// Every warp reads the same weights along its lanes: the guard on the rows passes whole warps, so the
// weights' footprint is C floats whichever rows run.
__global__ void weighted_rows(float *out, const float *in, const float *w, int N, int C) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= N)
    return;
  for (int i = lane; i < C; i += 32)
    out[row * C + i] = in[row * C + i] * w[i];
}

// Two rows a warp, 16 lanes a row: threadIdx.x only as a lane, so the warps count as stacked (stacked_warps.cu).
// At this one-dimensional launch the four warps of a block repeat its two rows: 128 rows of 16 values
// (Nsight Compute on the H200: 8,192 FADDs, 2026-12-04).
__global__ void two_rows_a_warp(float *out, const float *in, int N) {
  int row = (blockIdx.x * blockDim.y + threadIdx.y) * 2 + (threadIdx.x % 32) / 16;
  if (row < N)
    out[row * 16 + threadIdx.x % 16] = in[row * 16 + threadIdx.x % 16] * 2.0f;
}

// 200 rows of 100 floats: 20,000 values read, 200 maxima written.
// CHECK-LABEL: kernel row_max
// CHECK: flops.total blockDim.y * blockDim.z * gridDim.y * gridDim.z * max(C, 0) * min(32 * N, blockDim.x * gridDim.x) / 32 = 20000{{$}}
// CHECK: bytes.read 4 * max(C, 0) * min(ceil_div(min(32 * N, blockDim.x * gridDim.x), 32), N) = 80000{{$}}
// CHECK: bytes.write 4 * min(ceil_div(min(32 * N, blockDim.x * gridDim.x), 32), N) = 800{{$}}
// CHECK-NOT: unknown:
// CHECK-LABEL: kernel row_partial_sums
// CHECK: flops.total {{.*}} = 20000{{$}}
// CHECK: bytes.read {{.*}} = 80000{{$}}
// CHECK: bytes.write {{.*}} = 25600{{$}}
// CHECK-NOT: unknown:
// CHECK-LABEL: kernel weighted_rows
// CHECK: flops.total {{.*}} = 20000{{$}}
// CHECK: bytes.read 4 * max(C, 0) * min(ceil_div(min(32 * N, blockDim.x * gridDim.x), 32), N) + 4 * max(C, 0) = 80400{{$}}
// CHECK: bytes.write {{.*}} = 80000{{$}}
// CHECK-NOT: unknown:
// CHECK-LABEL: kernel two_rows_a_warp
// CHECK: flops.total {{.*}} = 8192{{$}}
// CHECK: bytes.read {{.*}} = 8192{{$}}
// CHECK: bytes.write {{.*}} = 8192{{$}}
// CHECK-NOT: unknown:
