// Two contexts of the driver API on device 0, the program's launches alternating between them on one
// thread: the range profiler has an object per context, and the GPU's counters serve one at a time.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>

__global__ void add_one(float *data) { data[threadIdx.x] += 1.0f; }

int main() {
  CUdevice device = 0;
  CUcontext contexts[2] = {};
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS)
    return 2;
  for (CUcontext &context : contexts)
    if (cuCtxCreate(&context, nullptr, 0, device) != CUDA_SUCCESS)
      return 2;
  float *data[2] = {};
  for (int c = 0; c < 2; ++c)
    if (cuCtxSetCurrent(contexts[c]) != CUDA_SUCCESS || cudaMalloc(&data[c], 32 * sizeof(float)) != cudaSuccess ||
        cudaMemset(data[c], 0, 32 * sizeof(float)) != cudaSuccess)
      return 2;
  for (int round = 0; round < 2; ++round)
    for (int c = 0; c < 2; ++c) {
      cuCtxSetCurrent(contexts[c]);
      add_one<<<1, 32>>>(data[c]);
    }
  float seen[2] = {-1, -1};
  for (int c = 0; c < 2; ++c) {
    cuCtxSetCurrent(contexts[c]);
    if (cudaMemcpy(&seen[c], data[c], sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
      return 2;
    cudaFree(data[c]);
  }
  for (CUcontext context : contexts)
    cuCtxDestroy(context);
  std::printf("two_contexts ok %g %g\n", seen[0], seen[1]);
  return 0;
}
