// Four host threads, each launching on its own stream, and NVTX ranges around the launches: every launch
// must be recorded once with its own arguments, stream and NVTX range.
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

__global__ void scale(float *x, int n, float factor, long long tag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * factor + static_cast<float>(tag & 1);
}

int main() {
  constexpr int threads = 4, launchesPerThread = 5, n = 4096;
  std::vector<std::thread> workers;
  int failures = 0;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back([t, &failures] {
      cudaStream_t stream;
      float *x = nullptr;
      if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess ||
          cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) {
        ++failures;
        return;
      }
      std::string range = "worker" + std::to_string(t);
      nvtxRangePushA(range.c_str());
      for (int i = 0; i < launchesPerThread; ++i)
        scale<<<n / 256, 256, 0, stream>>>(x, n, 2.0f, 1000LL * t + i);
      nvtxRangePop();
      if (cudaStreamSynchronize(stream) != cudaSuccess)
        ++failures;
      cudaFree(x);
      cudaStreamDestroy(stream);
    });
  for (auto &w : workers)
    w.join();
  std::printf("multi_stream %s\n", failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}
