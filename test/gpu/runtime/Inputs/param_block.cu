// A kernel whose sizes come in a by-value parameter block of 88 bytes, as CUTLASS's Params: three
// launches, the first two with one value and the third with another, so the measured file holds two
// argument records that the launches name.
#include <cuda_runtime.h>

#include <cstdio>

struct ScaleParams {
  const float *in;
  float *out;
  int count;
  float factor;
  long long reserved[8];
};

__global__ void scale_block(ScaleParams p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.count)
    p.out[i] = p.factor * p.in[i];
}

int main() {
  static_assert(sizeof(ScaleParams) == 88, "the block the test expects");
  const int count = 1 << 16;
  float *in = nullptr, *out = nullptr;
  if (cudaMalloc(&in, count * sizeof(float)) != cudaSuccess || cudaMalloc(&out, count * sizeof(float)) != cudaSuccess)
    return 2;
  cudaMemset(in, 0, count * sizeof(float));
  ScaleParams p{in, out, count, 2.0f, {}};
  scale_block<<<count / 256, 256>>>(p);
  scale_block<<<count / 256, 256>>>(p);
  p.count = count / 2;
  scale_block<<<count / 512, 256>>>(p);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 2;
  std::printf("param_block ok\n");
  return 0;
}
