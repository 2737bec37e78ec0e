// Ideal bytes are the unique footprint (DESIGN.md): a row read in several passes counts once, however each
// pass spells its loads (scalar, float4 through reinterpret_cast, a block-stride loop).
// RUN: roofcheck-lint %s --grid 64 --block 256 --arg rows=64 --arg cols=1024 | FileCheck %s
//
// 64 rows of 1024 floats: 262144 bytes read once, 262144 written once, in both kernels.

__global__ void three_passes(float *out, const float *in, int rows, int cols) {
  __shared__ float partial[32];
  const float *x = in + blockIdx.x * cols;
  float m = -INFINITY;
  for (int i = threadIdx.x; i < cols; i += blockDim.x)
    m = fmaxf(m, x[i]);
  if (threadIdx.x == 0)
    partial[0] = m;
  __syncthreads();
  m = partial[0];
  float sum = 0.0f;
  for (int i = threadIdx.x; i < cols; i += blockDim.x)
    sum += __expf(x[i] - m);
  for (int i = threadIdx.x; i < cols; i += blockDim.x)
    out[blockIdx.x * cols + i] = __expf(x[i] - m) / sum;
}

__global__ void vector_then_scalar(float *out, const float *in, int rows, int cols) {
  const float4 *x4 = reinterpret_cast<const float4 *>(in + blockIdx.x * cols);
  float m = -INFINITY;
  for (int i = threadIdx.x; i < cols / 4; i += blockDim.x) {
    float4 v = x4[i];
    m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
  }
  for (int i = threadIdx.x; i < cols; i += blockDim.x)
    out[blockIdx.x * cols + i] = __expf(in[blockIdx.x * cols + i] - m);
}

// CHECK-LABEL: kernel three_passes
// CHECK: bytes.read 4 * cols * gridDim.x = 262144{{$}}
// CHECK: bytes.write 4 * cols * gridDim.x = 262144{{$}}
// CHECK-LABEL: kernel vector_then_scalar
// CHECK: bytes.read {{.*}} = 262144{{$}}
// CHECK: bytes.write 4 * cols * gridDim.x = 262144{{$}}
