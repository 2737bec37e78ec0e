// Launches five kernels, waits for them, then aborts: the measured file must still hold the five.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

__global__ void tick(int *counter, int step) { atomicAdd(counter, step); }

int main() {
  int *counter = nullptr;
  if (cudaMalloc(&counter, sizeof(int)) != cudaSuccess)
    return 2;
  for (int i = 0; i < 5; ++i)
    tick<<<1, 32>>>(counter, i + 1);
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 2;
  std::printf("aborting after 5 launches\n");
  std::fflush(stdout);
  std::abort();
}
