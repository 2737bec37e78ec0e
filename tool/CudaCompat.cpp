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
// nvcc defines __CUDACC__ as 1, clang's wrapper as nothing: `#if __CUDACC__` must see a number.
#if defined(__CUDACC__)
#undef __CUDACC__
#define __CUDACC__ 1
#endif
// nvcc's version macros, which code tests in #if and prints from host code; derived from the toolkit's own
// CUDA_VERSION (13000 for 13.0), as nvcc's match its toolkit. The build number is not known here: 0.
#if defined(CUDA_VERSION) && !defined(__CUDACC_VER_MAJOR__)
#define __CUDACC_VER_MAJOR__ (CUDA_VERSION / 1000)
#define __CUDACC_VER_MINOR__ (CUDA_VERSION % 1000 / 10)
#define __CUDACC_VER_BUILD__ 0
#endif
// nvcc's atomic built-ins (CUDA 12.8), which code reaches once the version macros say nvcc 12.8 or later:
// clang's __atomic built-ins with the same memory orders; the scope does not change which bytes move.
#if defined(__CUDA__) && !defined(__NV_ATOMIC_RELAXED)
#define __NV_ATOMIC_RELAXED __ATOMIC_RELAXED
#define __NV_ATOMIC_CONSUME __ATOMIC_CONSUME
#define __NV_ATOMIC_ACQUIRE __ATOMIC_ACQUIRE
#define __NV_ATOMIC_RELEASE __ATOMIC_RELEASE
#define __NV_ATOMIC_ACQ_REL __ATOMIC_ACQ_REL
#define __NV_ATOMIC_SEQ_CST __ATOMIC_SEQ_CST
#define __NV_THREAD_SCOPE_THREAD 0
#define __NV_THREAD_SCOPE_BLOCK 1
#define __NV_THREAD_SCOPE_CLUSTER 2
#define __NV_THREAD_SCOPE_DEVICE 3
#define __NV_THREAD_SCOPE_SYSTEM 4
template <class T> static __device__ __inline__ T __nv_atomic_load_n(const T *p, int order, int = 4) {
  return __atomic_load_n(p, order);
}
template <class T> static __device__ __inline__ void __nv_atomic_load(const T *p, T *out, int order, int = 4) {
  __atomic_load(p, out, order);
}
template <class T> static __device__ __inline__ void __nv_atomic_store_n(T *p, T value, int order, int = 4) {
  __atomic_store_n(p, value, order);
}
template <class T> static __device__ __inline__ void __nv_atomic_store(T *p, T *value, int order, int = 4) {
  __atomic_store(p, value, order);
}
template <class T> static __device__ __inline__ T __nv_atomic_exchange_n(T *p, T value, int order, int = 4) {
  return __atomic_exchange_n(p, value, order);
}
template <class T>
static __device__ __inline__ bool __nv_atomic_compare_exchange_n(T *p, T *expected, T desired, bool weak,
                                                                 int success, int failure, int = 4) {
  return __atomic_compare_exchange_n(p, expected, desired, weak, success, failure);
}
#define __ROOFCHECK_FETCH(OP)                                                                                \
  template <class T> static __device__ __inline__ T __nv_atomic_fetch_##OP(T *p, T value, int order, int = 4) { \
    return __atomic_fetch_##OP(p, value, order);                                                             \
  }
__ROOFCHECK_FETCH(add) __ROOFCHECK_FETCH(sub) __ROOFCHECK_FETCH(and) __ROOFCHECK_FETCH(or) __ROOFCHECK_FETCH(xor)
__ROOFCHECK_FETCH(min) __ROOFCHECK_FETCH(max)
#undef __ROOFCHECK_FETCH
static __device__ __inline__ void __nv_atomic_thread_fence(int order, int = 4) { __atomic_thread_fence(order); }
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
