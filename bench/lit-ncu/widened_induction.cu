// Launches the kernel of test/tool/widened_induction.cu at its RUN line's launch, for Nsight Compute.
#include "../../test/tool/widened_induction.cu"

int main() {
  half *x;
  float *y, *dst;
  cudaMalloc(&x, 1 << 20);
  cudaMalloc(&y, 1 << 20);
  cudaMalloc(&dst, 1 << 20);
  cudaMemset(x, 0, 1 << 20);
  cudaMemset(y, 0, 1 << 20);
  halfRow<<<2, 32>>>(x, y, dst, 1000, 2000);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
