// Launches the kernels of test/tool/counter_stepped_in_inner_loop.cu, struct_field_branches.cu,
// branch_between_loops.cu and local_array_copies.cu at their RUN lines' launches, for Nsight Compute; each epilogue twice, beta 0 and
// not, to show what its branch decides.
#include "../../test/tool/counter_stepped_in_inner_loop.cu"
#include "../../test/tool/struct_field_branches.cu"
#include "../../test/tool/branch_between_loops.cu"
#include "../../test/tool/local_array_copies.cu"

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  cudaMemset(in, 0, 1 << 20);
  cudaMemset(out, 0, 1 << 20);
  pipelinedTiles<<<4, 64>>>(in, out, 10);
  EpilogueParams p{{2.0f, 0.0f}, out, in, 4};
  epilogue<<<1, 32>>>(p);
  p.scaling.beta = 1.0f;
  epilogue<<<1, 32>>>(p);
  scaledRows<<<1, 32>>>(p);
  epilogueFragments<<<1, 32>>>(out, in, 2.0f, 0.0f);
  epilogueFragments<<<1, 32>>>(out, in, 2.0f, 1.0f);
  guardedRows<<<1, 32>>>(out, 0.5f, 5);
  columnSums<<<48, 32>>>(in, out, 100, 40);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
