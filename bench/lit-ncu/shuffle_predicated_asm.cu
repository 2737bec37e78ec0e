// Launches the kernels of test/tool/shuffle_predicated_asm.cu at its RUN line's launch, for Nsight Compute.
#include "../../test/tool/shuffle_predicated_asm.cu"

int main() {
  float *x, *y;
  cudaMalloc(&x, 256 * sizeof(float));
  cudaMalloc(&y, 256 * sizeof(float));
  cudaMemset(x, 0, 256 * sizeof(float));
  warp_sum<<<4, 64>>>(x, y);
  octet_sum<<<4, 64>>>(x, y);
  warp_scan<<<4, 64>>>(x);
  partial_warp_sum<<<4, 64>>>(x, y, 20);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
