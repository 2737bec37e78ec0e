// Nested loops: naive matrix multiply (a k-loop inside the 2D thread grid) and a column-major gemv (an
// inner loop inside a grid-stride loop).
// RUN: not roofcheck-lint %s --kernel matmul --grid 4,4 --block 16,16 --arg n=64 | FileCheck %s --check-prefix=MM
// RUN: roofcheck-lint %s --kernel gemv --grid 2 --block 64 --arg rows=1000 --arg cols=8 | FileCheck %s --check-prefix=GEMV
//
// matmul, n = 64, 64 x 64 threads: n FMAs per thread -> 2 * 64^3 = 524288 fp32 flops.
// A[row*n + k]: rows x k = 64 x 64 floats = 16384 B; B[k*n + col]: 16384 B -> read = 32768; C: 16384.
// A is read at the same address by all threads of a warp (stride 0), B and C 4 B apart: predicted = ideal.
__global__ void matmul(const float *A, const float *B, float *C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0.0f;
    for (int k = 0; k < n; ++k)
      acc += A[row * n + k] * B[k * n + col];
    C[row * n + col] = acc;
  }
}

// gemv, rows = 1000, cols = 8, 128 threads: every row once (grid-stride), cols FMAs per row
// -> 2 * 1000 * 8 = 16000 flops. A: 1000 * 8 floats = 32000 B, x: 32 B -> read = 32032; y: 4000 B.
__global__ void gemv(const float *A, const float *x, float *y, int rows, int cols) {
  for (int row = blockIdx.x * blockDim.x + threadIdx.x; row < rows; row += blockDim.x * gridDim.x) {
    float acc = 0.0f;
    for (int j = 0; j < cols; ++j)
      acc += A[j * rows + row] * x[j];
    y[row] = acc;
  }
}

// MM-LABEL: kernel matmul
// MM: flops.fp32 {{.*}} = 524288{{$}}
// MM: bytes.read {{.*}} = 32768{{$}}
// MM: bytes.write {{.*}} = 16384{{$}}
// MM: bytes.predicted {{.*}} = 49152{{$}}
// MM: load A: stride 0 B, 1 sectors/request, coalesced
// MM-NOT: kernel gemv
// GEMV-LABEL: kernel gemv
// GEMV: flops.fp32 2 * blockDim.y * blockDim.z * cols * gridDim.y * gridDim.z * rows = 16000{{$}}
// GEMV: bytes.read 4 * cols * rows + 4 * cols = 32032{{$}}
// GEMV: bytes.write 4 * rows = 4000{{$}}
// MM: nested_loops.cu:9:17: warning: kernel 'matmul' requests 43x its ideal bytes (2.11 MB for 49.2 kB) {{.*}} [roofcheck-cache-reliant-reuse]
