// The overhead benchmark's program: 10,400 short launches of four kernels (4 signatures) on 64 Ki
// floats, then one checksum line. Each kernel runs for a few microseconds, so launch handling dominates.
// usage: runtime-launches [iterations]   (default 2600; four launches an iteration)
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

__global__ void axpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

__global__ void scale(float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] *= a;
}

__global__ void shift(float *y, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += b;
}

__global__ void clamp(float *y, float lo, float hi, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = fminf(fmaxf(y[i], lo), hi);
}

int main(int argc, char **argv) {
  int iterations = argc > 1 ? std::atoi(argv[1]) : 2600;
  constexpr int n = 1 << 16;
  float *x = nullptr, *y = nullptr;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess || cudaMalloc(&y, n * sizeof(float)) != cudaSuccess)
    return 2;
  cudaMemset(x, 0, n * sizeof(float));
  cudaMemset(y, 0, n * sizeof(float));
  for (int it = 0; it < iterations; ++it) {
    axpy<<<n / 256, 256>>>(y, x, 0.5f, n);
    scale<<<n / 128, 128>>>(y, 0.999f, n);
    shift<<<n / 512, 512>>>(y, 1.0f, n);
    clamp<<<n / 256, 256>>>(y, -100.0f, 100.0f, n);
  }
  float first = 0;
  if (cudaMemcpy(&first, y, sizeof first, cudaMemcpyDeviceToHost) != cudaSuccess)
    return 2;
  std::printf("launches=%d y[0]=%.4f\n", 4 * iterations, first);
  return 0;
}
