// fp64 arithmetic goes to the fp64 bucket.
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1000 | FileCheck %s
//
// 1000 elements, one FMA each: fp64 = 2000, fp32 = 0. x and y 8 B each: read 16000, write 8000.
// Stride 8 B = element size: coalesced, 8 sectors per warp request.
__global__ void daxpy(int n, double a, const double *x, double *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// CHECK-LABEL: kernel daxpy
// CHECK: flops.total {{.*}} = 2000{{$}}
// CHECK: flops.fp64 {{.*}} = 2000{{$}}
// CHECK: flops.fp32 0{{$}}
// CHECK: bytes.read 16 * min(n, blockDim.x * gridDim.x) = 16000{{$}}
// CHECK: bytes.write 8 * min(n, blockDim.x * gridDim.x) = 8000{{$}}
// CHECK: load x: stride 8 B, 8 sectors/request, coalesced
