// A flat index taken apart into coordinates (row = i / cols, col = i % cols; nested divisions, 64-bit
// indices) addresses each coordinate with its own stride: the footprint is a box over the digits, whatever
// layout the strides give (a pitched output, the two halves of a gated input, a 2x upsampled image).
// RUN: roofcheck-lint %s --grid 4096 --block 256 --arg rows=1024 --arg cols=1000 --arg pitch=1024 --arg m=16 --arg s=64 --arg n=1024 --arg h=128 --arg w=128 --arg planes=64 | FileCheck %s

// 1024 x 1000 floats, written at a pitch of 1024.
__global__ void pad_rows(const float *x, float *y, int rows, int cols, int pitch) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows * cols)
    return;
  int r = i / cols, c = i % cols;
  y[r * pitch + c] = x[i];
}

// m x s x n outputs; each reads its element of both halves of x (m x 2s x n floats).
__global__ void gated(const float *x, float *y, int m, int s, int n) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= m * s * n)
    return;
  int i = index / s / n, j = index / n % s, k = index % n;
  y[i * s * n + j * n + k] = x[i * 2 * s * n + j * n + k] * x[i * 2 * s * n + (j + s) * n + k];
}

// planes x h x w inputs, each written to a 2x2 block of the output (planes x 2h x 2w floats).
__global__ void upsample2x(const float *x, float *out, int planes, int h, int w) {
  size_t flat = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (flat >= (size_t)planes * h * w)
    return;
  size_t p = flat / (h * w), i = flat / w % h, j = flat % w;
  float v = x[flat];
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 2; ++b)
      out[p * 4 * h * w + (2 * i + a) * 2 * w + 2 * j + b] = v;
}

// CHECK-LABEL: kernel pad_rows
// CHECK: bytes.read {{.*}} = 4096000{{$}}
// CHECK: bytes.write {{.*}} = 4096000{{$}}
// CHECK-LABEL: kernel gated
// CHECK: bytes.read {{.*}} = 8388608{{$}}
// CHECK: bytes.write {{.*}} = 4194304{{$}}
// CHECK-LABEL: kernel upsample2x
// CHECK: bytes.read {{.*}} = 4194304{{$}}
// CHECK: bytes.write {{.*}} = 16777216{{$}}

// A guard on the top digit of the flat index (the first `keep` rows): the footprint is the rows it keeps, 10
// of 100 columns each, and the threads that pass are those below keep * cols, 1000.
// RUN: roofcheck-lint %s --kernel first_rows --grid 100 --block 100 --arg cols=100 --arg keep=10 | FileCheck %s --check-prefix=ROWS
__global__ void first_rows(const float *in, float *out, int cols, int keep) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i / cols < keep)
    out[i] = 2.0f * in[i];
}
// ROWS: flops.total blockDim.y * blockDim.z * gridDim.y * gridDim.z * min(cols * keep, blockDim.x * gridDim.x) = 1000{{$}}
// ROWS: bytes.read 4 * min(ceil_div(blockDim.x * gridDim.x, cols), keep) * min(cols, blockDim.x * gridDim.x) = 4000{{$}}
// ROWS: bytes.write {{.*}} = 4000{{$}}
// ROWS-NOT: unknown:
