// A green context on half of device 0's SMs beside the primary context, launches going in turn into the
// primary context's NULL stream, the green context's NULL stream and a stream of the green context's own.
// CUPTI's launch callbacks name the primary context for all of them.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>

__global__ void add_one(float *data) { data[threadIdx.x] += 1.0f; }

int main() {
  CUdevice device = 0;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS || cudaFree(nullptr) != cudaSuccess)
    return 2;
  CUcontext primary = nullptr, greenContext = nullptr;
  CUdevResource sms, half, rest;
  unsigned int groups = 1;
  CUdevResourceDesc description;
  CUgreenCtx green;
  CUstream greenStream = nullptr;
  if (cuCtxGetCurrent(&primary) != CUDA_SUCCESS ||
      cuDeviceGetDevResource(device, &sms, CU_DEV_RESOURCE_TYPE_SM) != CUDA_SUCCESS ||
      cuDevSmResourceSplitByCount(&half, &groups, &sms, &rest, 0, sms.sm.smCount / 2) != CUDA_SUCCESS ||
      cuDevResourceGenerateDesc(&description, &half, 1) != CUDA_SUCCESS ||
      cuGreenCtxCreate(&green, description, device, CU_GREEN_CTX_DEFAULT_STREAM) != CUDA_SUCCESS ||
      cuCtxFromGreenCtx(&greenContext, green) != CUDA_SUCCESS ||
      cuGreenCtxStreamCreate(&greenStream, green, CU_STREAM_NON_BLOCKING, 0) != CUDA_SUCCESS)
    return 2;
  struct Target {
    CUcontext context;
    CUstream stream;
    float *data;
  } targets[3] = {{primary, nullptr, nullptr}, {greenContext, nullptr, nullptr}, {greenContext, greenStream, nullptr}};
  for (Target &target : targets)
    if (cuCtxSetCurrent(target.context) != CUDA_SUCCESS || cudaMalloc(&target.data, 32 * sizeof(float)) != cudaSuccess ||
        cudaMemset(target.data, 0, 32 * sizeof(float)) != cudaSuccess)
      return 2;
  for (int round = 0; round < 2; ++round)
    for (Target &target : targets) {
      cuCtxSetCurrent(target.context);
      add_one<<<1, 32, 0, target.stream>>>(target.data);
    }
  float seen[3] = {-1, -1, -1};
  for (int t = 0; t < 3; ++t) {
    cuCtxSetCurrent(targets[t].context);
    if (cudaMemcpy(&seen[t], targets[t].data, sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess)
      return 2;
  }
  cuStreamDestroy(greenStream);
  cuGreenCtxDestroy(green);
  std::printf("green_context ok %g %g %g\n", seen[0], seen[1], seen[2]);
  return 0;
}
