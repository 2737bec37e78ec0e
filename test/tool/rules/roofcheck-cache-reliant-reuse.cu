// roofcheck-cache-reliant-reuse (docs/rules/roofcheck-cache-reliant-reuse.md): loads in a loop that every
// thread along a dimension of the block repeats, in a kernel that requests many times its ideal bytes.
// RUN: not roofcheck-lint --quiet %s '--rules=-*,roofcheck-cache-reliant-reuse' --grid 8,8 --block 16,16 --arg n=128 2>/dev/null \
// RUN:   | FileCheck %s --implicit-check-not=warning: --implicit-check-not=note:
// Unbound, the factor is an expression; the repeated loads are reason enough.
// RUN: not roofcheck-lint --quiet %s --kernel naive 2>/dev/null | FileCheck %s --check-prefix=FREE
// FREE: warning: kernel 'naive' requests a multiple of its ideal bytes that grows with the launch (bind --grid, --block and --arg for the factor) from global memory and relies on L1/L2 to reuse it; stage the reused tiles in shared memory [roofcheck-cache-reliant-reuse]
// The threshold is an option: with 100x required, the 86x of `naive` at n = 128 passes.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// RUN: printf 'options:\n  roofcheck-cache-reliant-reuse.min-reuse-factor: 100\n' > %t/.roofcheck.yaml
// RUN: roofcheck-lint --quiet %t/k.cu --kernel naive --grid 8,8 --block 16,16 --arg n=128

// (Only this rule runs: gemv's row-per-thread loads of M are also uncoalesced.)
// A naive matmul: row and col come from the two thread dimensions; A[row][k] is the same for every
// threadIdx.x, B[k][col] for every threadIdx.y. Requested: 2 loads x 4 B x n per thread, n^2 threads
// = 8 n^3 = 16.8 MB, plus the 65.5 kB of C; ideal 3 x 4 n^2 = 197 kB: 85.7, shown as 86x.
__global__ void naive(const float *A, const float *B, float *C, int n) {
  // CHECK: :[[@LINE-1]]:17: warning: kernel 'naive' requests 86x its ideal bytes (16.8 MB for 197 kB) from global memory and relies on L1/L2 to reuse it; stage the reused tiles in shared memory [roofcheck-cache-reliant-reuse]
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n && col < n) {
    float acc = 0.0f;
    for (int k = 0; k < n; ++k)
      acc += A[row * n + k] * B[k * n + col];
    // CHECK: :[[@LINE-1]]:14: note: every threadIdx.x of a block loads the same 'A' element, at each iteration of the loop at line [[@LINE-2]]
    // CHECK: :[[@LINE-2]]:31: note: every threadIdx.y of a block loads the same 'B' element, at each iteration of the loop at line [[@LINE-3]]
    C[row * n + col] = acc;
  }
}

// The same product with 16 x 16 tiles staged in shared memory: every global load moves with both thread
// dimensions, the reuse is explicit. Not reported.
#define TILE 16
__global__ void tiled(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

// Rows and columns from one flattened thread index (tid = 16 * threadIdx.y + threadIdx.x: row tid / 2, column
// tid % 2 * 4), as tiled GEMMs load their panels: the load moves with threadIdx.x through both digits, so no
// thread repeats another's element. Not reported.
__global__ void flat_panel(const float *A, float *out, int n) {
  int tid = threadIdx.y * 16 + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < n; t += 8)
    acc += A[(tid / 2) * n + (tid % 2) * 4 + t];
  out[blockIdx.x * 256 + tid] = acc;
}

// Every thread of a 1-D block reads all of x: a matrix-vector product with the vector left to the caches.
__global__ void gemv(const float *M, const float *x, float *y, int n) {
  // CHECK: :[[@LINE-1]]:17: warning: kernel 'gemv' requests {{[0-9]+}}x its ideal bytes {{.*}} [roofcheck-cache-reliant-reuse]
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float acc = 0.0f;
    for (int k = 0; k < n; ++k)
      acc += M[row * n + k] * x[k];
    // CHECK: :[[@LINE-1]]:31: note: every threadIdx.x of a block loads the same 'x' element, at each iteration of the loop at line [[@LINE-2]]
    y[row] = acc;
  }
}

// A short fixed loop over a few neighbours: requested bytes stay close to ideal. Not reported.
__global__ void smooth(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 3 < n) {
    float acc = 0.0f;
    for (int k = 0; k < 3; ++k)
      acc += in[i + k];
    out[i] = acc;
  }
}

// A prefix sum that one thread runs (the guard leaves the global index 0 alone), in a kernel whose other
// accesses span x: the loop's loads are not repeated along x, as their count does not grow with the block.
// Not reported, bound or not.
__global__ void serial_prefix(const float *w, float *scaled, float *cdf, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n)
    scaled[i] = 2.0f * w[i];
  if (i == 0) {
    cdf[0] = w[0];
    for (int x = 1; x < n; x++)
      cdf[x] = w[x] + cdf[x - 1];
  }
}
// RUN: roofcheck-lint --quiet %s --kernel serial_prefix 2>&1 | FileCheck %s --check-prefix=SERIAL --allow-empty
// SERIAL-NOT: warning:

// A fixed table walked once per thread, 32 entries a trip of a constant-trip loop (ggml's topk-moe bias):
// every threadIdx.y reads the same entries, but no thread reads one twice; L1 serves the block's rows, and
// shared memory would save nothing. Not reported.
__global__ void add_table(const float *table, const float *in, float *out) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  for (int i = 0; i < 128; i += 32)
    out[row * 128 + i + threadIdx.x] = in[row * 128 + i + threadIdx.x] + table[i + threadIdx.x];
}
