// Launches the kernels of test/tool/parameter_tests.cu at its RUN lines' launches, for Nsight Compute: each
// side of each test of parameters (glu's op 0, 1 and 7; fused with everything given, with nothing; limited
// on both sides; gatedSums with a gate and without).
#include "../../test/tool/parameter_tests.cu"

int main() {
  float *dst, *aux, *x, *gate, *bias;
  for (float **p : {&dst, &aux, &x, &gate, &bias}) {
    cudaMalloc(p, 1 << 20);
    cudaMemset(*p, 0, 1 << 20);
  }
  for (GluOp op : {Swiglu, Geglu, static_cast<GluOp>(7)})
    glu<<<4, 256>>>(dst, aux, x, gate, 1000, op);
  fused<<<4, 256>>>(dst, x, 1000, Fusion{bias, gate, true, 0.5f});
  fused<<<4, 256>>>(dst, x, 1000, Fusion{nullptr, gate, false, 0.0f});
  limited<<<4, 256>>>(dst, x, 1000, 4096, 2);
  limited<<<4, 256>>>(dst, x, 1000, 500, 3);
  gatedSums<<<4, 256>>>(dst, aux, x, gate);
  gatedSums<<<4, 256>>>(dst, aux, x, nullptr);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
