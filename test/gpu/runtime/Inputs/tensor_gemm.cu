// One cuBLAS GEMM of m = n = k = 4096 per tensor-core precision, each inside an NVTX range named after
// it, for calibrating the tensor-pipe counters against the known count: 2mnk FLOPs per GEMM.
// usage: tensor_gemm [PRECISION...]   (fp16 fp16acc bf16 tf32 fp64 int8, run in the order given, a repeated
// one again; default each once)
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {

constexpr int size = 4096;

__global__ void fill(unsigned char *bytes, size_t count) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x)
    bytes[i] = (i % 7 == 0) ? 0x3c : 0x00; // small finite values in every element type
}

struct Gemm {
  const char *name;
  cudaDataType_t input, output;
  cublasComputeType_t compute;
  size_t inputBytes, outputBytes;
};

const Gemm gemms[] = {
    {"fp16", CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2, 4},
    {"fp16acc", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F, 2, 2},
    {"bf16", CUDA_R_16BF, CUDA_R_32F, CUBLAS_COMPUTE_32F, 2, 4},
    {"tf32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, 4, 4},
    {"fp64", CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, 8, 8},
    {"int8", CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I, 1, 4},
};

} // namespace

int main(int argc, char **argv) {
  std::vector<const Gemm *> wanted;
  for (int i = 1; i < argc; ++i) {
    const Gemm *named = nullptr;
    for (const Gemm &g : gemms)
      if (std::strcmp(argv[i], g.name) == 0)
        named = &g;
    if (!named) {
      std::fprintf(stderr, "tensor_gemm: unknown precision '%s'\n", argv[i]);
      return 2;
    }
    wanted.push_back(named);
  }
  if (wanted.empty())
    for (const Gemm &g : gemms)
      wanted.push_back(&g);
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
    return 2;
  size_t elements = size_t(size) * size;
  void *a = nullptr, *b = nullptr, *c = nullptr;
  if (cudaMalloc(&a, elements * 8) != cudaSuccess || cudaMalloc(&b, elements * 8) != cudaSuccess ||
      cudaMalloc(&c, elements * 8) != cudaSuccess)
    return 2;
  fill<<<1024, 256>>>(static_cast<unsigned char *>(a), elements * 8);
  fill<<<1024, 256>>>(static_cast<unsigned char *>(b), elements * 8);
  for (const Gemm *named : wanted) {
    const Gemm &g = *named;
    // alpha and beta in the compute type's scalar type.
    double one64 = 1.0, zero64 = 0.0;
    float one32 = 1.0f, zero32 = 0.0f;
    int oneInt = 1, zeroInt = 0;
    __half one16 = __float2half(1.0f), zero16 = __float2half(0.0f);
    const void *alpha = &one32, *beta = &zero32;
    if (g.compute == CUBLAS_COMPUTE_64F) {
      alpha = &one64;
      beta = &zero64;
    } else if (g.compute == CUBLAS_COMPUTE_16F) {
      alpha = &one16;
      beta = &zero16;
    } else if (g.compute == CUBLAS_COMPUTE_32I) {
      alpha = &oneInt;
      beta = &zeroInt;
    }
    // cuBLAS runs int8 on the tensor cores with A transposed (its IMMA layout, "TN").
    cublasOperation_t transposeA = g.compute == CUBLAS_COMPUTE_32I ? CUBLAS_OP_T : CUBLAS_OP_N;
    nvtxRangePushA(g.name);
    cublasStatus_t status = cublasGemmEx(handle, transposeA, CUBLAS_OP_N, size, size, size, alpha, a, g.input, size,
                                         b, g.input, size, beta, c, g.output, size, g.compute, CUBLAS_GEMM_DEFAULT);
    nvtxRangePop();
    if (status != CUBLAS_STATUS_SUCCESS || cudaDeviceSynchronize() != cudaSuccess) {
      std::printf("tensor_gemm %s failed (cuBLAS status %d)\n", g.name, static_cast<int>(status));
      return 2;
    }
    std::printf("tensor_gemm %s m=n=k=%d flops=%.0f\n", g.name, size, 2.0 * size * size * size);
  }
  cublasDestroy(handle);
  return 0;
}
