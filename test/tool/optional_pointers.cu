// A pointer parameter tested against null is an optional input or output (a bias, the mean a normalisation
// may also write): the counts and the footprint of what is read or written through it take the test, the
// pointer standing for whether it is given (1) or null (0). Work done only when it is missing is counted times
// the test too. 1,000 rows of 64 floats; 4 blocks of 256 threads.
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg rows=1000 --arg cols=64 --arg n=1000 --arg bias=1 --arg mean=1 \
// RUN:   --arg scale=1 | FileCheck %s
// RUN: roofcheck-lint %s --kernel add_bias --grid 4 --block 256 --arg n=1000 --arg bias=0 | FileCheck %s --check-prefix=NO-BIAS

// A thread a row: the row's sum (64 adds), its mean written where asked for (a division, a special
// function in roofcheck's buckets).
__global__ void row_means(float *sums, float *mean, const float *x, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c)
    s += x[row * cols + c];
  sums[row] = s;
  if (mean != nullptr)
    mean[row] = s / cols;
}

// A bias added where one is given.
__global__ void add_bias(float *y, const float *bias, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = y[i];
    if (bias)
      v += bias[i];
    y[i] = v;
  }
}

// A warp a row, its first lane writing the row's mean where asked for: 32 warps, so rows 0 to 31.
__global__ void warp_row_means(float *mean, const float *x, int rows, int cols) {
  int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (row >= rows)
    return;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32)
    s += x[row * cols + c];
  for (int offset = 16; offset > 0; offset /= 2)
    s += __shfl_down_sync(0xffffffff, s, offset);
  if (lane == 0 && mean != nullptr)
    mean[row] = s / cols;
}

// A default scale where no scale is given, the given one otherwise: a multiply either way, whatever the
// pointer (the given one's reads are counted).
__global__ void default_scale(float *y, const float *scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = y[i];
    if (scale == nullptr)
      v *= 2.0f;
    else
      v *= scale[i];
    y[i] = v;
  }
}

// CHECK-LABEL: kernel row_means
// CHECK: flops.total {{.*}} = 64000{{$}}
// CHECK: flops.special {{.*}} = 1000{{$}}
// CHECK: bytes.read {{.*}} = 256000{{$}}
// CHECK: bytes.write {{.*}} = 8000{{$}}
// CHECK-NOT: unknown:
// CHECK-LABEL: kernel add_bias
// CHECK: flops.total bias * {{.*}} = 1000{{$}}
// CHECK: bytes.read {{.*}} = 8000{{$}}
// CHECK: bytes.write {{.*}} = 4000{{$}}
// CHECK-NOT: unknown:
// CHECK-LABEL: kernel warp_row_means
// CHECK: flops.total {{.*}} = 7168{{$}}
// CHECK: flops.special {{.*}} = 32{{$}}
// CHECK: bytes.read {{.*}} = 8192{{$}}
// CHECK: bytes.write {{.*}} = 128{{$}}
// CHECK-NOT: unknown:
// CHECK-LABEL: kernel default_scale
// CHECK: flops.total {{.*}} = 1000{{$}}
// CHECK: bytes.read {{.*}} = 8000{{$}}
// CHECK-NOT: unknown:

// NO-BIAS: flops.total bias * {{.*}} = 0{{$}}
// NO-BIAS: bytes.read 4 * bias * {{.*}} = 4000{{$}}
