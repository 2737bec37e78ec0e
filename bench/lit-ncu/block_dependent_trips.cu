// Launches the kernels of test/tool/block_dependent_trips.cu at their RUN lines' launches, for Nsight Compute.
#include "../../test/tool/block_dependent_trips.cu"

int main() {
  float *in, *weights, *out;
  cudaMalloc(&in, 1 << 20);
  cudaMalloc(&weights, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  cudaMemset(in, 0, 1 << 20);
  cudaMemset(weights, 0, 1 << 20);
  triangleTiles<<<6, 32>>>(in, out);
  sliceOfK<<<dim3(1, 1, 5), 32>>>(in, weights, out, 100, 32);
  roundedSlices<<<dim3(1, 1, 5), 32>>>(in, out, 100, 32);
  guardedTriangle<<<6, 32>>>(in, out, 4);
  prefetchSlices<<<dim3(1, 1, 5), 32>>>(in, out, 100, 32);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
