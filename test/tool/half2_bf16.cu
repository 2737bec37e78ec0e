// Packed half and bfloat16 arithmetic: FLOPs per lane (a __hfma2 is 2 lanes x 2 = 4 flops), in the
// fp16 / bf16 buckets, never fp32.
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n2=1000 | FileCheck %s
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// 1000 pairs: fp16 = 4 * 1000 = 4000; x and y 4 B per pair: read 8000, write 4000.
__global__ void haxpy(const __half2 *x, __half2 *y, __half2 a, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2)
    y[i] = __hfma2(a, x[i], y[i]);
}

// __hadd2: 2 lanes x 1 = 2 flops per pair -> fp16 = 2000.
__global__ void hadd(const __half2 *x, const __half2 *y, __half2 *z, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2)
    z[i] = __hadd2(x[i], y[i]);
}

// bf16 pairs: bf16 = 4000, fp16 = 0.
__global__ void bf16axpy(const __nv_bfloat162 *x, __nv_bfloat162 *y, __nv_bfloat162 a, int n2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2)
    y[i] = __hfma2(a, x[i], y[i]);
}

// CHECK-LABEL: kernel haxpy
// CHECK: flops.total {{.*}} = 4000{{$}}
// CHECK: flops.fp32 0{{$}}
// CHECK: flops.fp16 {{.*}} = 4000{{$}}
// CHECK: flops.bf16 0{{$}}
// CHECK: bytes.read {{.*}} = 8000{{$}}
// CHECK: bytes.write {{.*}} = 4000{{$}}
// CHECK-LABEL: kernel hadd
// CHECK: flops.fp16 {{.*}} = 2000{{$}}
// CHECK-LABEL: kernel bf16axpy
// CHECK: flops.fp16 0{{$}}
// CHECK: flops.bf16 {{.*}} = 4000{{$}}
