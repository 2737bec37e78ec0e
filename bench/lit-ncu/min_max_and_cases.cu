// Launches the kernels of test/tool/libdevice_min_max.cu and impossible_cases.cu at their RUN lines'
// launches, for Nsight Compute.
#include "../../test/tool/libdevice_min_max.cu"
#include "../../test/tool/impossible_cases.cu"

int main() {
  float *data, *in, *out;
  cudaMalloc(&data, 1 << 20);
  cudaMalloc(&in, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  cudaMemset(data, 0, 1 << 20);
  cudaMemset(in, 0, 1 << 20);
  clamped<<<2, 32>>>(data, 100, 64);
  clampedTiles<<<2, 32>>>(data, 100, 64);
  widened<<<2, 32>>>(data, 100u, 64u);
  bitsCounted<<<2, 32>>>(data, 100);
  alternatingOffsets<<<2, 64>>>(in, out, 10);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
