// A kernel that prints (device printf, one line a launch) and one that does not: kernel replay runs a launch
// once per pass, so a printing launch profiled with more than one pass would print its line again.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void say(int round, float *data) {
  if (threadIdx.x == 0)
    printf("device says %d\n", round);
  data[threadIdx.x] = data[threadIdx.x] * 3.0f + 1.0f; // one FFMA a thread
}

__global__ void add_one(float *data) { data[threadIdx.x] += 1.0f; }

int main() {
  float *data = nullptr;
  if (cudaMalloc(&data, 32 * sizeof(float)) != cudaSuccess || cudaMemset(data, 0, 32 * sizeof(float)) != cudaSuccess)
    return 2;
  for (int round = 0; round < 4; ++round) {
    say<<<1, 32>>>(round, data);
    add_one<<<1, 32>>>(data);
    if (cudaDeviceSynchronize() != cudaSuccess) // the device's printf buffer is printed here
      return 2;
  }
  float seen = -1;
  if (cudaMemcpy(&seen, data, sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
    return 2;
  std::printf("device_printf ok %g\n", seen);
  return 0;
}
