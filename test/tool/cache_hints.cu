// Loads and stores spelled with cache hints (clang implements some of them as inline PTX, the tool declares
// the ones clang lacks) or written as inline PTX count like plain ones: 16-byte vectors included.
// RUN: roofcheck-lint %s --grid 8 --block 128 --arg n=1000 | FileCheck %s
//
// Each kernel touches n = 1000 elements (1024 threads): int4 and float4 move 16 B each way, float 4 B.
#include <cuda_pipeline.h>

__global__ void streaming_copy(int4 *out, const int4 *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __stcs(out + i, __ldcs(reinterpret_cast<const int4 *>(in) + i));
}

__global__ void global_only(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __stcg(out + i, __ldcg(in + i) * 3.0f);
}

__global__ void cached_write_back(float4 *out, const float4 *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __stwb(out + i, __ldca(in + i));
}

__global__ void last_use(double *out, const double *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __stwt(out + i, __ldlu(in + i) + __ldcv(in + i));
}

__global__ void written_in_ptx(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v;
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(in + i));
    asm volatile("{ .reg .f32 t;\n add.f32 t, %1, %1;\n st.global.f32 [%0], t; }" ::"l"(out + i), "f"(v));
  }
}

// __ldg reads through a cast of the pointer to the global space: the same footprint, per thread.
__global__ void read_only_path(float4 *out, const float4 *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __ldg(in + i);
}

// An asynchronous copy into shared memory reads 16 global bytes per thread (cuda_pipeline.h, inline PTX).
__global__ void async_copy(float *out, const float4 *in, int n) {
  __shared__ float4 tile[128];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __pipeline_memcpy_async(&tile[threadIdx.x], in + i, sizeof(float4));
    __pipeline_commit();
    __pipeline_wait_prior(0);
    out[i] = tile[threadIdx.x].y;
  }
}

// CHECK-LABEL: kernel streaming_copy
// CHECK: bytes.read 16 * min(n, blockDim.x * gridDim.x) = 16000{{$}}
// CHECK: bytes.write 16 * min(n, blockDim.x * gridDim.x) = 16000{{$}}
// CHECK: load in: stride 16 B
// CHECK: store out: stride 16 B
// CHECK-LABEL: kernel global_only
// CHECK: flops.fp32 {{.*}} = 1000{{$}}
// CHECK: bytes.read {{.*}} = 4000{{$}}
// CHECK: bytes.write {{.*}} = 4000{{$}}
// CHECK-LABEL: kernel cached_write_back
// CHECK: bytes.read {{.*}} = 16000{{$}}
// CHECK: bytes.write {{.*}} = 16000{{$}}
// CHECK-LABEL: kernel last_use
// CHECK: flops.fp64 {{.*}} = 1000{{$}}
// CHECK: bytes.read 8 * min(n, blockDim.x * gridDim.x) = 8000{{$}}
// CHECK: bytes.write 8 * min(n, blockDim.x * gridDim.x) = 8000{{$}}
// CHECK-LABEL: kernel written_in_ptx
// CHECK: flops.fp32 {{.*}} = 1000{{$}}
// CHECK: bytes.read {{.*}} = 4000{{$}}
// CHECK: bytes.write {{.*}} = 4000{{$}}
// CHECK-LABEL: kernel read_only_path
// CHECK: bytes.read 16 * min(n, blockDim.x * gridDim.x) = 16000{{$}}
// CHECK-LABEL: kernel async_copy
// CHECK: bytes.read 16 * min(n, blockDim.x * gridDim.x) = 16000{{$}}
// CHECK: bytes.write 4 * min(n, blockDim.x * gridDim.x) = 4000{{$}}
// CHECK-NOT: unknown:
