// Launches the kernels of test/tool/broadcast_remainders.cu at their RUN lines' launches, for Nsight Compute.
#include "../../test/tool/broadcast_remainders.cu"

int main() {
  float *a, *b, *out;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&b, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  cudaMemset(a, 0, 1 << 20);
  cudaMemset(b, 0, 1 << 20);
  broadcastAdd<<<dim3(1, 4, 6), 64>>>(a, b, out, 64, 4, 3, 2, 64, 1, 3, 1, 64, 256, 768, 64, 64, 192);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
