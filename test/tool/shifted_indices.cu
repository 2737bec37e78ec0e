// Indices divided by shifting: a block's row read through a wider type ((blockIdx.x * d) >> 2 with float4),
// a half index shifted into a __half2 index, a loop that walks two halves a thread a trip, and a count of
// chunks that is at least one (n / 32, or 1 where that is 0). What no progression describes stays unknown.
// RUN: roofcheck-lint %s --grid 64 --block 32 --arg d=1024 --arg width=1000 --arg n=4096 | FileCheck %s

#include <cuda_fp16.h>

// Rows of d floats read as float4: a block's row starts at (blockIdx.x * d) >> 2, its length is d >> 2.
__global__ void rows_as_float4(float *out, const float *in, int d) {
  int d4 = d >> 2;
  int inBase = ((long long)blockIdx.x * d * 3) >> 2;
  int outBase = ((long long)blockIdx.x * d) >> 2;
  const float4 *in4 = reinterpret_cast<const float4 *>(in);
  float4 *out4 = reinterpret_cast<float4 *>(out);
  for (int i = threadIdx.x; i < d4; i += blockDim.x) {
    float4 a = in4[inBase + i], b = in4[inBase + d4 + i], c = in4[inBase + 2 * d4 + i];
    out4[outBase + i] = make_float4(a.x + b.x + c.x, a.y + b.y + c.y, a.z + b.z + c.z, a.w + b.w + c.w);
  }
}

// Two halves a thread a trip, addressed as __half2 by shifting the half index.
__global__ void add_bias_half2(__half *x, const __half *bias, int width) {
  int row = blockIdx.x * width;
  for (int c = 2 * threadIdx.x; c < width; c += 2 * blockDim.x) {
    __half2 b = reinterpret_cast<const __half2 *>(bias)[c >> 1];
    __half2 *p = reinterpret_cast<__half2 *>(x) + ((row + c) >> 1);
    *p = __hadd2(*p, b);
  }
}

// At least one chunk of 32, however small n is.
__global__ void dot_rows(const float *a, const float *x, float *y, int n) {
  int chunks = n / 32;
  if (chunks == 0)
    chunks = 1;
  float s = 0;
  for (int k = 0; k < chunks; ++k)
    s += a[blockIdx.x * n + k * 32 + threadIdx.x] * x[k * 32 + threadIdx.x];
  y[blockIdx.x * 32 + threadIdx.x] = s;
}

// Two chunks where n / 32 is 0: not the larger of the two.
__global__ void two_chunks_when_short(const float *a, float *y, int n) {
  int chunks = n / 32;
  if (chunks == 0)
    chunks = 2;
  float s = 0;
  for (int k = 0; k < chunks; ++k)
    s += a[k * 32 + threadIdx.x];
  y[threadIdx.x] = s;
}

// A shifted product of a block and a thread coordinate: no progression describes it.
__global__ void shifted_product(const float *a, float *y) {
  y[blockIdx.x * blockDim.x + threadIdx.x] = a[(blockIdx.x * threadIdx.x) >> 2];
}

// 64 blocks, each reading three rows of 256 float4 and writing one.
// CHECK-LABEL: kernel rows_as_float4
// CHECK: flops.total 8 * blockDim.y * blockDim.z * (d / 4) * gridDim.x * gridDim.y * gridDim.z = 131072{{$}}
// CHECK: bytes.read 48 * (d / 4) * gridDim.x = 786432{{$}}
// CHECK: bytes.write 16 * (d / 4) * gridDim.x = 262144{{$}}
// 64 rows of 500 __half2, read and written in place; the 500 of the bias read once.
// CHECK-LABEL: kernel add_bias_half2
// CHECK: flops.total 2 * blockDim.y * blockDim.z * ceil_div(width, 2) * gridDim.x * gridDim.y * gridDim.z = 64000{{$}}
// CHECK: bytes.read 4 * ceil_div(width, 2) * gridDim.x + 4 * ceil_div(width, 2) = 130000{{$}}
// CHECK: bytes.write 4 * ceil_div(width, 2) * gridDim.x = 128000{{$}}
// 128 chunks of 32 a row.
// CHECK-LABEL: kernel dot_rows
// CHECK: flops.total 2 * blockDim.x * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z * max(n / 32, 1) = 524288{{$}}
// CHECK: bytes.read 4 * blockDim.x * gridDim.x * max(n / 32, 1) + 4 * blockDim.x * max(n / 32, 1) = 1064960{{$}}
// CHECK-LABEL: kernel two_chunks_when_short
// CHECK: bytes.read unknown
// CHECK: unknown: loop trip count it cannot determine
// CHECK-LABEL: kernel shifted_product
// CHECK: bytes.read unknown
// CHECK: unknown: non-affine index (division)
