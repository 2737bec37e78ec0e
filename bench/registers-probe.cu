// Kernels of growing register pressure, each launched once: what the function attribute says
// (cudaFuncGetAttributes' numRegs, printed here), against CUPTI's kernel activity record (through
// `roofcheck run`) and ncu's launch__registers_per_thread (bench/registers-probe.sh runs all three).
#include <cstdio>

template <int Live> __global__ void pressure(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float acc[Live];
#pragma unroll
  for (int k = 0; k < Live; ++k)
    acc[k] = in[(i + k * 37) % n];
#pragma unroll
  for (int r = 0; r < 8; ++r)
#pragma unroll
    for (int k = 0; k < Live; ++k)
      acc[k] = acc[k] * acc[(k + 1) % Live] + 1.0f;
  float sum = 0;
#pragma unroll
  for (int k = 0; k < Live; ++k)
    sum += acc[k];
  out[i] = sum;
}

template <int Live> void run(const float *in, float *out, int n) {
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, pressure<Live>);
  pressure<Live><<<(n + 255) / 256, 256>>>(in, out, n);
  std::printf("pressure<%d> numRegs %d\n", Live, attributes.numRegs);
}

int main() {
  const int n = 1 << 16;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemset(in, 0, n * sizeof(float));
  run<1>(in, out, n);
  run<6>(in, out, n);
  run<13>(in, out, n);
  run<29>(in, out, n);
  run<50>(in, out, n);
  run<90>(in, out, n);
  cudaError_t status = cudaDeviceSynchronize();
  std::printf("%s\n", cudaGetErrorString(status));
  return status == cudaSuccess ? 0 : 1;
}
