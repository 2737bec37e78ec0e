// __device__ helpers are inlined and counted where they are called; special functions go to `special`.
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1000 | FileCheck %s
//
// poly3: Horner form, 3 FMAs = 6 flops per element -> fp32 = 6000.
// vec2_length: a*a + b*b is 1 mul + 1 FMA = 3 flops, sqrtf is 1 special -> fp32 = 3000, special = 1000;
// float2 loads 8 B per element: read 8000, write 4000.
__device__ float poly3(float x) { return ((0.5f * x + 0.25f) * x - 1.0f) * x + 2.0f; }
__device__ float length2(float a, float b) { return sqrtf(a * a + b * b); }

__global__ void apply_poly(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = poly3(in[i]);
}

__global__ void vec2_length(const float2 *v, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 p = v[i];
    out[i] = length2(p.x, p.y);
  }
}

// CHECK-LABEL: kernel apply_poly
// CHECK: flops.fp32 {{.*}} = 6000{{$}}
// CHECK: flops.special 0{{$}}
// CHECK-LABEL: kernel vec2_length
// CHECK: flops.total {{.*}} = 3000{{$}}
// CHECK: flops.special {{.*}} = 1000{{$}}
// CHECK: bytes.read {{.*}} = 8000{{$}}
// CHECK: bytes.write {{.*}} = 4000{{$}}
