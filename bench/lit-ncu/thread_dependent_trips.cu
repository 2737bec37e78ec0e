// Launches the kernels of test/tool/thread_dependent_trips.cu at their RUN lines' launches, for Nsight Compute.
#include "../../test/tool/thread_dependent_trips.cu"

int main() {
  float *x, *y, *dst;
  cudaMalloc(&x, 1 << 20);
  cudaMalloc(&y, 1 << 20);
  cudaMalloc(&dst, 1 << 20);
  cudaMemset(x, 0, 1 << 20);
  cudaMemset(y, 0, 1 << 20);
  pairStride<<<3, 128>>>(x, y, dst, 1000);
  warpRowBlocks<<<3, dim3(32, 4)>>>(x, y, dst, 3200);
  warpRowBlocks<<<3, dim3(32, 3)>>>(x, y, dst, 3200);
  guardedPairs<<<3, 128>>>(x, dst, 1000, 100);
  gridPairs<<<3, 128>>>(x, dst, 1000);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
