// cudaDeviceReset between two phases of launches, as a test harness running several cases in one process
// does: the first phase's context goes, and the second phase's launches run in a new primary context.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void add_one(float *data) { data[threadIdx.x] += 1.0f; }

static bool phase(float *result) {
  float *data = nullptr;
  if (cudaMalloc(&data, 32 * sizeof(float)) != cudaSuccess || cudaMemset(data, 0, 32 * sizeof(float)) != cudaSuccess)
    return false;
  for (int launch = 0; launch < 2; ++launch)
    add_one<<<1, 32>>>(data);
  bool copied = cudaMemcpy(result, data, sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess;
  return cudaFree(data) == cudaSuccess && copied;
}

int main() {
  float before = -1, after = -1;
  if (!phase(&before) || cudaDeviceReset() != cudaSuccess || !phase(&after))
    return 2;
  std::printf("reset_midway ok %g %g\n", before, after);
  return 0;
}
