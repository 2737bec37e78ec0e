// What nvcc defines and clang does not: __CUDACC__ as 1, the version macros (in #if and in host expressions), the atomic
// built-ins that code behind `__CUDACC_VER_MAJOR__ >= 12.8` uses, __CUDA_ARCH_LIST__, the macros of
// -extended-lambda and --expt-relaxed-constexpr.
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1000 -- -extended-lambda --expt-relaxed-constexpr \
// RUN:   -arch=sm_90 | FileCheck %s
#include <cstdio>

#if !__CUDACC__ || !defined(__CUDACC_VER_MAJOR__) || !defined(__CUDACC_EXTENDED_LAMBDA__) || \
    !defined(__CUDACC_RELAXED_CONSTEXPR__) || __CUDA_ARCH_LIST__ != 900
#error "nvcc's macros are missing"
#endif

void print_version() { std::printf("built with CUDA %d.%d\n", __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__); }

__device__ int relaxed_read(const int *p) {
#if (__CUDACC_VER_MAJOR__ > 12) || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 8)
  return __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
#else
  return *(const volatile int *)p;
#endif
}

// A variant compiled without device code ends the thread through a [[noreturn]] function: no work there,
// and no unknown (as ggml's NO_DEVICE_CODE).
[[noreturn]] __device__ void no_code_for_this_variant() { __trap(); }

template <bool Supported> __global__ void copy_ints(int *out, const int *in, int n) {
  if (!Supported)
    no_code_for_this_variant();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = relaxed_read(in + i) + 1;
}
template __global__ void copy_ints<true>(int *, const int *, int);
template __global__ void copy_ints<false>(int *, const int *, int);

// CHECK-LABEL: kernel copy_ints<true>
// CHECK: bytes.read 4 * min(n, blockDim.x * gridDim.x) = 4000{{$}}
// CHECK: bytes.write 4 * min(n, blockDim.x * gridDim.x) = 4000{{$}}
// CHECK-LABEL: kernel copy_ints<false>
// CHECK: flops.total 0
// CHECK-NOT: unknown:
