// A block's threads numbered flat (tid = threadIdx.y * 16 + threadIdx.x) and taken apart again into rows
// and columns of a tile (tid / 2 and tid % 2, warp = tid / 32 and lane = tid % 32, lane / 8 and lane % 8),
// a tile loop that fetches the next tile ahead (the guarded fetch runs on every trip but the last), and a
// tile stored as four quadrants 64 rows and columns apart: each is one box over the thread's digits.
// RUN: roofcheck-lint %s --grid 8,8 --block 16,16 --arg K=256 --arg N=1024 --arg lda=32 | FileCheck %s

// Each block reads 128 rows of A (K floats each) in tiles of 8 columns: the first before the loop, the
// next ones fetched ahead inside it.
__global__ void prefetched_rows(const float *A, float *out, int K) {
  int tid = threadIdx.y * 16 + threadIdx.x;
  int row = tid / 2, col = tid % 2 * 4;
  const float *a = A + blockIdx.y * 128 * K;
  float4 next = *reinterpret_cast<const float4 *>(&a[row * K + col]);
  float4 sum = make_float4(0, 0, 0, 0);
  int k = 0;
  do {
    float4 now = next;
    k += 8;
    if (k < K)
      next = *reinterpret_cast<const float4 *>(&a[row * K + col + k]);
    sum.x += now.x;
    sum.y += now.y;
    sum.z += now.z;
    sum.w += now.w;
  } while (k < K);
  *reinterpret_cast<float4 *>(&out[((blockIdx.y * gridDim.x + blockIdx.x) * 256 + tid) * 4]) = sum;
}

// Eight warps, one row of 32 floats each.
__global__ void warp_rows(const float *a, float *out, int lda) {
  int tid = threadIdx.y * 16 + threadIdx.x;
  int warp = tid / 32, lane = tid % 32;
  out[(blockIdx.y * gridDim.x + blockIdx.x) * 256 + tid] = a[((blockIdx.y * gridDim.x + blockIdx.x) * 8 + warp) * lda + lane];
}

// A 128 x 128 tile per block, as four 64 x 64 quadrants of 4 rows x float4 per thread.
__global__ void quadrants(float *C, int N) {
  int tid = threadIdx.y * 16 + threadIdx.x;
  int warp = tid / 32, lane = tid % 32;
  int row = warp / 2 * 16 + lane / 8 * 4;
  int col = warp % 2 * 32 + lane % 8 * 4;
  float4 v = make_float4(1, 2, 3, 4);
  for (int i = 0; i < 4; i++)
    *reinterpret_cast<float4 *>(&C[(128 * blockIdx.y + row + i) * N + 128 * blockIdx.x + col]) = v;
  for (int i = 0; i < 4; i++)
    *reinterpret_cast<float4 *>(&C[(128 * blockIdx.y + row + i) * N + 128 * blockIdx.x + col + 64]) = v;
  for (int i = 0; i < 4; i++)
    *reinterpret_cast<float4 *>(&C[(128 * blockIdx.y + row + 64 + i) * N + 128 * blockIdx.x + col]) = v;
  for (int i = 0; i < 4; i++)
    *reinterpret_cast<float4 *>(&C[(128 * blockIdx.y + row + 64 + i) * N + 128 * blockIdx.x + col + 64]) = v;
}

// The parity of the trip and the thread picks the sign: both sides read the same element.
__global__ void alternating(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 16; k++)
    s += (k + i) % 2 ? x[i] : -x[i];
  y[i] = s;
}

// CHECK-LABEL: kernel prefetched_rows
// CHECK: flops.total 4 * blockDim.x * blockDim.y * blockDim.z * ceil_div(max(8, K), 8) * gridDim.x * gridDim.y * gridDim.z = 2097152{{$}}
// CHECK: bytes.read 16 * ceil_div(blockDim.x, 2) * ceil_div(max(8, K), 8) * gridDim.y * min(16, blockDim.y) * min(2, blockDim.x) = 1048576{{$}}
// CHECK: bytes.write 16 * blockDim.y * gridDim.x * gridDim.y * min(256, blockDim.x) = 262144{{$}}
// CHECK-LABEL: kernel warp_rows
// CHECK: bytes.read 4 * blockDim.x * ceil_div(blockDim.y, 2) * gridDim.x * gridDim.y * min(2, blockDim.y) = 65536{{$}}
// CHECK-LABEL: kernel quadrants
// CHECK: bytes.write {{.*}} = 4194304{{$}}
// CHECK-LABEL: kernel alternating
// CHECK: flops.total 16 * blockDim.x * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z = 262144{{$}}
// CHECK: bytes.read 4 * blockDim.x * gridDim.x = 512{{$}}
