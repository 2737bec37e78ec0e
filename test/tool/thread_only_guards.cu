// A guard that only picks which threads of a block run an access (the first lane of each row's warp, the
// corner thread of a 2D block) leaves the footprint as it is when the address does not move with the
// coordinates it tests: one value per row, one per block. The count of such work stays unknown; the bytes
// do not. A guard on coordinates the address moves with (a diagonal) keeps the footprint unknown.
// RUN: roofcheck-lint %s --grid 64 --block 32,8 --arg cols=4096 | FileCheck %s

// 64 blocks of 8 rows: 512 rows, one float each.
__global__ void row_sums(const float *a, float *y, int cols) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  float s = a[row * cols + threadIdx.x];
  for (int o = 16; o > 0; o >>= 1)
    s += __shfl_down_sync(0xffffffff, s, o);
  if (threadIdx.x % 32 == 0)
    y[row] = s;
}

// One partial sum per block: 64 floats.
__global__ void block_partials(const float *in, float *partial) {
  __shared__ float total;
  if (threadIdx.x == 0 && threadIdx.y == 0)
    total = 0;
  __syncthreads();
  atomicAdd(&total, in[(blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0)
    partial[blockIdx.x] = total;
}

// Which elements are written depends on the tested coordinates themselves.
__global__ void unit_diagonal(float *m, int cols) {
  if (threadIdx.x == threadIdx.y)
    m[threadIdx.y * cols + threadIdx.x] = 1.0f;
}

// CHECK-LABEL: kernel row_sums
// CHECK: bytes.write 4 * blockDim.y * gridDim.x = 2048{{$}}
// CHECK-LABEL: kernel block_partials
// CHECK: bytes.read 4 * blockDim.x * blockDim.y * gridDim.x = 65536{{$}}
// CHECK: bytes.write 4 * gridDim.x = 256{{$}}
// CHECK-LABEL: kernel unit_diagonal
// CHECK: bytes.write unknown
// CHECK: unknown: guard on the thread coordinates it cannot express
