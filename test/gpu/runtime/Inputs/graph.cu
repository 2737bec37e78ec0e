// Three kernels captured into a CUDA graph, the graph launched twice: six kernel executions that exist
// for the shim only as activity records.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void add_one(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}

__global__ void double_it(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= 2.0f;
}

int main() {
  constexpr int n = 1 << 16;
  float *x = nullptr;
  cudaStream_t stream;
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess || cudaMemset(x, 0, n * sizeof(float)) != cudaSuccess ||
      cudaStreamCreate(&stream) != cudaSuccess)
    return 2;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  add_one<<<n / 256, 256, 0, stream>>>(x, n);
  add_one<<<n / 256, 256, 0, stream>>>(x, n);
  double_it<<<n / 128, 128, 0, stream>>>(x, n);
  if (cudaStreamEndCapture(stream, &graph) != cudaSuccess || cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess)
    return 2;
  for (int i = 0; i < 2; ++i)
    cudaGraphLaunch(exec, stream);
  float first = 0;
  cudaMemcpyAsync(&first, x, sizeof first, cudaMemcpyDeviceToHost, stream);
  if (cudaStreamSynchronize(stream) != cudaSuccess)
    return 2;
  // ((0 + 2) * 2 + 2) * 2 = 12
  std::printf("graph %s x[0]=%.0f\n", first == 12.0f ? "ok" : "MISMATCH", first);
  return first == 12.0f ? 0 : 1;
}
