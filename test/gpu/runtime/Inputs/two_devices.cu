// Launches on each of the first two devices, from one thread switching devices: every launch must be
// recorded with the device it ran on. Needs two GPUs (the test that runs it says so).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void on_device(int *out, int device) { out[threadIdx.x] = device; }

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 2) {
    std::printf("two_devices: needs 2 GPUs, found %d\n", count);
    return 2;
  }
  int *out[2] = {};
  for (int device = 0; device < 2; ++device)
    if (cudaSetDevice(device) != cudaSuccess || cudaMalloc(&out[device], 32 * sizeof(int)) != cudaSuccess)
      return 2;
  for (int round = 0; round < 2; ++round)
    for (int device = 0; device < 2; ++device) {
      cudaSetDevice(device);
      on_device<<<1, 32>>>(out[device], device);
    }
  int seen[2] = {-1, -1};
  for (int device = 0; device < 2; ++device) {
    cudaSetDevice(device);
    if (cudaMemcpy(&seen[device], out[device], sizeof(int), cudaMemcpyDeviceToHost) != cudaSuccess)
      return 2;
  }
  std::printf("two_devices ok %d %d\n", seen[0], seen[1]);
  return 0;
}
