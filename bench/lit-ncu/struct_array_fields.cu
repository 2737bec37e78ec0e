// Launches the kernel of test/tool/struct_array_fields.cu at its RUN line's launch, for Nsight Compute.
#include "../../test/tool/struct_array_fields.cu"

int main() {
  Problem problem{{64, 2, 24}, nullptr, nullptr};
  cudaMalloc((void **)&problem.in, 1 << 20);
  cudaMalloc((void **)&problem.out, 1 << 20);
  cudaMemset((void *)problem.in, 0, 1 << 20);
  columnDepth<<<2, 32>>>(problem);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
