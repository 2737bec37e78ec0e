// Blocks of warps stacked along y (dim3 block(32, 4)): threadIdx.x is read only as a lane of its warp and
// blockDim.x not at all, so the engine counts the block with its lanes fastest, x = threadIdx.y * 32 + lane.
// A warp's row (blockIdx.x * blockDim.y + threadIdx.y) and, with two rows a warp, the lane's half of it
// (lane / 16) are then digits of one global index, and a guard on the row passes whole rows of lanes.
// Assumed as for every warp rank: blockDim.x a multiple of 32 (a block of 64 x 4 repeats each row's work).
// 50 blocks of 32 x 4. Nsight Compute on the H200 at this launch (nvcc -O3 -arch=sm_90, bench/lit-ncu.sh,
// 2026-12-04): row_sums_stacked 15,000 FADD, as counted here; gemv_two_rows 19,500 (4,800 FMUL, 14,700
// FADD): nvcc moves the last shuffle add of each row under the lane test that alone uses it (65 a row where
// the source has 80), the sinking this count does not follow.
// RUN: roofcheck-lint %s --grid 50 --block 32,4 --arg m=300 --arg rows=150 --arg n=100 | FileCheck %s

// Two rows a warp, 16 lanes a row, 16 columns: 400 rows launched, 300 pass. Each passing lane multiplies
// once and adds four times (offsets 8, 4, 2, 1 within its half): 4,800 lanes, 24,000 FLOPs as written.
__global__ void gemv_two_rows(const float *a, const float *v, float *out, int m) {
  int lane = threadIdx.x % 32;
  int row = (blockIdx.x * blockDim.y + threadIdx.y) * 2 + lane / 16;
  if (row < m) {
    float s = a[row * 16 + lane % 16] * v[lane % 16];
    for (int offset = 8; offset > 0; offset /= 2)
      s += __shfl_down_sync(0xffffffff, s, offset, 16);
    if (lane % 16 == 0)
      out[row] = s;
  }
}

// One row a warp, the lanes walking it: 200 rows launched, 150 pass, 100 values a row.
__global__ void row_sums_stacked(const float *a, float *out, int rows, int n) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= rows)
    return;
  float s = 0;
  for (int c = threadIdx.x % 32; c < n; c += 32)
    s += a[row * n + c];
  out[row * 32 + threadIdx.x % 32] = s;
}

// threadIdx.x in full (a column of the block): not a lane, nothing rewritten; a rank over two thread
// dimensions and the block stays an unknown.
__global__ void columns(float *out, int n) {
  int i = (blockIdx.x * blockDim.y + threadIdx.y) * 32 + threadIdx.x;
  if (i < n)
    out[i] *= 2.0f;
}

// CHECK-LABEL: kernel gemv_two_rows
// CHECK: flops.total 5 * (blockDim.x / 32) * blockDim.z * gridDim.y * gridDim.z * min(16 * m, 32 * blockDim.y * gridDim.x) = 24000{{$}}
// CHECK: bytes.read {{.*}} = 19264{{$}}
// CHECK: bytes.write {{.*}} = 1200{{$}}
// CHECK-NOT: unknown:
// CHECK-LABEL: kernel row_sums_stacked
// CHECK: flops.total {{.*}} = 15000{{$}}
// CHECK: bytes.read {{.*}} = 60000{{$}}
// CHECK: bytes.write {{.*}} = 19200{{$}}
// CHECK-NOT: unknown:
// CHECK-LABEL: kernel columns
// CHECK: flops.total unknown
// CHECK: unknown: guard on the thread coordinates it cannot express
