// One kernel through every launch path the shim hooks: <<<>>>, cudaLaunchKernelEx with a cluster,
// a cooperative launch, and cuLaunchKernel with its arguments packed in one buffer (`extra`).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>

__global__ void fill(int *out, int value, short small, double scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = value + small + static_cast<int>(scale);
}

int main() {
  int *out = nullptr;
  if (cudaMalloc(&out, 1024 * sizeof(int)) != cudaSuccess)
    return 2;
  fill<<<4, 64>>>(out, 1, 2, 3.0);

  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(4);
  config.blockDim = dim3(64);
  cudaLaunchAttribute cluster;
  cluster.id = cudaLaunchAttributeClusterDimension;
  cluster.val.clusterDim.x = 2;
  cluster.val.clusterDim.y = 1;
  cluster.val.clusterDim.z = 1;
  config.attrs = &cluster;
  config.numAttrs = 1;
  if (cudaLaunchKernelEx(&config, fill, out, 10, (short)-2, 30.0) != cudaSuccess)
    return 2;

  int value = 100;
  short small = 20;
  double scale = 300.0;
  void *args[] = {&out, &value, &small, &scale};
  if (cudaLaunchCooperativeKernel((void *)fill, dim3(2), dim3(32), args) != cudaSuccess)
    return 2;

  cudaFunction_t function;
  if (cudaGetFuncBySymbol(&function, (const void *)fill) != cudaSuccess)
    return 2;
  // The device-side layout: out @0 (8), value @8 (4), small @12 (2), scale @16 (8).
  alignas(8) unsigned char buffer[24] = {};
  int packedValue = 7;
  short packedSmall = 8;
  double packedScale = 9.0;
  std::memcpy(buffer, &out, 8);
  std::memcpy(buffer + 8, &packedValue, 4);
  std::memcpy(buffer + 12, &packedSmall, 2);
  std::memcpy(buffer + 16, &packedScale, 8);
  size_t size = sizeof buffer;
  void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buffer, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
  if (cuLaunchKernel(reinterpret_cast<CUfunction>(function), 1, 1, 1, 16, 1, 1, 0, nullptr, nullptr, extra) !=
      CUDA_SUCCESS)
    return 2;
  int first = 0;
  if (cudaMemcpy(&first, out, sizeof first, cudaMemcpyDeviceToHost) != cudaSuccess)
    return 2;
  std::printf("launch_apis %s out[0]=%d\n", first == 24 ? "ok" : "MISMATCH", first);
  return first == 24 ? 0 : 1;
}
