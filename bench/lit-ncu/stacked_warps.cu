// Launches the kernels of test/tool/stacked_warps.cu and warp_rows.cu's two_rows_a_warp at their RUN lines'
// launches, for Nsight Compute.
#include "../../test/tool/stacked_warps.cu"
#define two_rows_a_warp warp_rows_two_rows_a_warp
#include "../../test/tool/warp_rows.cu"

int main() {
  float *a, *v, *out;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&v, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  cudaMemset(a, 0, 1 << 20);
  cudaMemset(v, 0, 1 << 20);
  gemv_two_rows<<<50, dim3(32, 4)>>>(a, v, out, 300);
  row_sums_stacked<<<50, dim3(32, 4)>>>(a, out, 150, 100);
  warp_rows_two_rows_a_warp<<<64, 128>>>(out, a, 200);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
