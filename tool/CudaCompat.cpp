#include "CudaCompat.h"

namespace roofcheck::lint {

const char *const CudaCompatHeaderPath = "/roofcheck-virtual/roofcheck_cuda_compat.h";

// The cache hints change where a line may be cached, not which bytes move: for the counting engine they are
// plain loads and stores. nvcc's sm_32_intrinsics.h declares them for these types; clang 22 defines __ldcg,
// __ldcs, __ldcv and __stwt itself, and the __half/__nv_bfloat16 forms come from cuda_fp16.h/cuda_bf16.h.
const char *const CudaCompatHeader = R"(#pragma once
#if defined(CUDART_VERSION) && CUDART_VERSION >= 13000
extern "C" __host__ cudaError_t cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                                  cudaStream_t stream = 0);
#endif
#if defined(__CUDA__) && defined(__clang__) && __clang_major__ == 22
#define __ROOFCHECK_EACH_TYPE(M, F)                                                                          \
  M(F, long) M(F, unsigned long) M(F, char) M(F, signed char) M(F, short) M(F, int) M(F, long long)          \
  M(F, char2) M(F, char4) M(F, short2) M(F, short4) M(F, int2) M(F, int4) M(F, longlong2) M(F, unsigned char) \
  M(F, unsigned short) M(F, unsigned int) M(F, unsigned long long) M(F, uchar2) M(F, uchar4) M(F, ushort2)   \
  M(F, ushort4) M(F, uint2) M(F, uint4) M(F, ulonglong2) M(F, float) M(F, double) M(F, float2) M(F, float4)  \
  M(F, double2)
#define __ROOFCHECK_LOAD(F, T) static __device__ __inline__ T F(const T *__ptr) { return *__ptr; }
#define __ROOFCHECK_STORE(F, T) static __device__ __inline__ void F(T *__ptr, T __value) { *__ptr = __value; }
__ROOFCHECK_EACH_TYPE(__ROOFCHECK_LOAD, __ldca)
__ROOFCHECK_EACH_TYPE(__ROOFCHECK_LOAD, __ldlu)
__ROOFCHECK_EACH_TYPE(__ROOFCHECK_STORE, __stwb)
__ROOFCHECK_EACH_TYPE(__ROOFCHECK_STORE, __stcg)
__ROOFCHECK_EACH_TYPE(__ROOFCHECK_STORE, __stcs)
#undef __ROOFCHECK_LOAD
#undef __ROOFCHECK_STORE
#undef __ROOFCHECK_EACH_TYPE
#endif
)";

} // namespace roofcheck::lint
