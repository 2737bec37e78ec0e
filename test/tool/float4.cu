// Vector types: a float4 access moves 16 B per thread; a float4 multiply is 4 FLOPs.
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n4=1000 | FileCheck %s
//
// scale4: 1000 float4 = 4 fmul each -> fp32 = 4000; read 16000, write 16000. Stride 16 B = element:
// coalesced, 16 sectors per warp request. copy4: 0 flops, same bytes.
__global__ void scale4(const float4 *in, float4 *out, float s, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) {
    float4 v = in[i];
    out[i] = make_float4(s * v.x, s * v.y, s * v.z, s * v.w);
  }
}

__global__ void copy4(const float4 *in, float4 *out, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4)
    out[i] = in[i];
}

// CHECK-LABEL: kernel scale4
// CHECK: flops.fp32 {{.*}} = 4000{{$}}
// CHECK: bytes.read 16 * min(n4, blockDim.x * gridDim.x) = 16000{{$}}
// CHECK: bytes.write 16 * min(n4, blockDim.x * gridDim.x) = 16000{{$}}
// CHECK: stride 16 B, 16 sectors/request, coalesced
// CHECK-LABEL: kernel copy4
// CHECK: flops.total 0{{$}}
// CHECK: bytes.read {{.*}} = 16000{{$}}
