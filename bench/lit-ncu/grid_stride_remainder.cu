// Launches the kernels of test/tool/grid_stride_remainder.cu at their RUN lines' launches, for Nsight Compute.
#include "../../test/tool/grid_stride_remainder.cu"

int main() {
  float *x, *bias, *y;
  cudaMalloc(&x, 1 << 20);
  cudaMalloc(&bias, 1 << 20);
  cudaMalloc(&y, 1 << 20);
  cudaMemset(x, 0, 1 << 20);
  cudaMemset(bias, 0, 1 << 20);
  addRowBias<<<4, 64>>>(x, bias, y, 10000, 96);
  addRowBias<<<4, 64>>>(x, bias, y, 50, 96);
  rowOfEach<<<4, 64>>>(x, bias, y, 10000, 96);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
