// Shared-memory tiling: tiles of A and B staged in __shared__ arrays; shared accesses are on-chip and
// count no bytes.
// RUN: roofcheck-lint %s --grid 4,4 --block 16,16 --arg n=64 | FileCheck %s
//
// By hand, n = 64, TILE = 16, 64 x 64 threads: the t-loop runs ceil_div(n, 16) = 4 times, the k-loop
// 16 FMAs each: 4 * 16 * 2 = 128 flops per thread, 4096 threads -> 524288 = 2n^3.
// A[row*n + t + tx]: tx in [0, 16), t in {0, 16, 32, 48}, row in [0, 64): 64 * 64 floats = 16384 B;
// B likewise 16384 B -> read = 32768; C: 16384 B. All coalesced: predicted = ideal = 49152.
#define TILE 16
__global__ void matmul_tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[ty][tx] = (row < n && t + tx < n) ? A[row * n + t + tx] : 0.0f;
    Bs[ty][tx] = (t + ty < n && col < n) ? B[(t + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n)
    C[row * n + col] = acc;
}

// CHECK-LABEL: kernel matmul_tiled
// CHECK: flops.total 32 * blockDim.x * blockDim.y * blockDim.z * ceil_div(n, 16) * gridDim.x * gridDim.y * gridDim.z = 524288{{$}}
// CHECK: bytes.read {{.*}} = 32768{{$}}
// CHECK: bytes.write 4 * min(n, 16 * gridDim.x) * min(n, 16 * gridDim.y) = 16384{{$}}
// CHECK: bytes.predicted {{.*}} = 49152{{$}}
// CHECK-NOT: unknown:
