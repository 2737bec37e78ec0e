// Read-modify-write kernels on managed memory and on mapped pinned host memory, two launches each: kernel
// replay runs a profiled launch once per pass, so whatever such a launch writes must be as if it ran once.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void add_one(float *data) { data[threadIdx.x] += 1.0f; }

int main() {
  float *managed = nullptr, *mapped = nullptr, *mappedOnDevice = nullptr;
  if (cudaMallocManaged(&managed, 32 * sizeof(float)) != cudaSuccess ||
      cudaHostAlloc(&mapped, 32 * sizeof(float), cudaHostAllocMapped) != cudaSuccess ||
      cudaHostGetDevicePointer(&mappedOnDevice, mapped, 0) != cudaSuccess)
    return 2;
  for (int i = 0; i < 32; ++i)
    managed[i] = mapped[i] = 0;
  for (int launch = 0; launch < 2; ++launch) {
    add_one<<<1, 32>>>(managed);
    add_one<<<1, 32>>>(mappedOnDevice);
  }
  if (cudaDeviceSynchronize() != cudaSuccess)
    return 2;
  std::printf("memory_kinds managed %g mapped %g\n", managed[31], mapped[31]);
  return 0;
}
