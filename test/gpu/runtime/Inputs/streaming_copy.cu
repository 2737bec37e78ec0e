// Copies of a buffer far larger than L2, back to back: each launch reads and writes 256 MiB of DRAM, so a
// launch's sampled traffic has a known answer.
// usage: streaming_copy LAUNCHES
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

__global__ void copy(const float4 *in, float4 *out, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

__global__ void fill(float4 *data, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    data[i] = make_float4(i, i + 1, i + 2, i + 3);
}

int main(int argc, char **argv) {
  int launches = argc > 1 ? std::atoi(argv[1]) : 8;
  const size_t n = (size_t(256) << 20) / sizeof(float4);
  float4 *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n * sizeof(float4)) != cudaSuccess || cudaMalloc(&b, n * sizeof(float4)) != cudaSuccess)
    return 2;
  fill<<<1056, 256>>>(a, n);
  for (int i = 0; i < launches; ++i)
    copy<<<1056, 256>>>(a, b, n);
  float4 last;
  if (cudaMemcpy(&last, b + n - 1, sizeof last, cudaMemcpyDeviceToHost) != cudaSuccess)
    return 2;
  std::printf("%d copies, last element %.0f %.0f %.0f %.0f\n", launches, last.x, last.y, last.z, last.w);
  return 0;
}
