// A tile loop bounded by a signed division (`t < n / TILE`, n an int): its trip count is n / 16, read as
// floor division, which C's truncating division equals for the non-negative sizes a launch passes.
// RUN: roofcheck-lint %s --grid 4,4 --block 16,16 --arg n=64 | FileCheck %s
// RUN: roofcheck-lint %s --grid 4,4 --block 16,16 --arg n=72 | FileCheck %s --check-prefix=REMAINDER
//
// By hand, n = 64, TILE = 16, 64 x 64 threads: n / 16 = 4 tiles of 16 FMAs: 128 flops per thread,
// 4096 threads -> 524288 = 2n^3. A[row*n + t*16 + tx]: 64 x 64 floats = 16384 B; B likewise -> read =
// 32768; C: 16384 B.
// n = 72: 72 / 16 = 4 tiles (the last 8 columns are never read: the kernel assumes n % 16 == 0), so
// 4 * 16 * 2 = 128 flops per thread again over the 64 x 64 threads launched -> 524288.
#define TILE 16
__global__ void matmul_tiles(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    As[ty][tx] = A[row * n + t * TILE + tx];
    Bs[ty][tx] = B[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// CHECK-LABEL: kernel matmul_tiles
// CHECK: flops.total {{.*}} = 524288{{$}}
// CHECK: bytes.read {{.*}} = 32768{{$}}
// CHECK: bytes.write {{.*}} = 16384{{$}}
// CHECK-NOT: unknown:
// REMAINDER-LABEL: kernel matmul_tiles
// REMAINDER: flops.total {{.*}} = 524288{{$}}
