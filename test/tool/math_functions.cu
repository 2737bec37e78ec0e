// The math library by what DESIGN.md counts: exp2f, log2f and atan2f are special functions (a '2' in a name
// does not make it a conversion), __expf and __logf too; conversions and min/max count nothing.
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1000 | FileCheck %s

__global__ void specials(float *out, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = exp2f(a[i]) + log2f(b[i]) + atan2f(a[i], b[i]) + __expf(a[i]) + __logf(b[i]);
}

__global__ void conversions(int *out, const double *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __float2int_rn(fmaxf(__double2float_rn(a[i]), 0.0f)) + __float_as_int(__int2float_rn(i));
}

// 5 special functions and the 4 adds that join them, per element.
// CHECK-LABEL: kernel specials
// CHECK: flops.total {{.*}} = 4000{{$}}
// CHECK: flops.special {{.*}} = 5000{{$}}
// CHECK-LABEL: kernel conversions
// CHECK: flops.total 0
// CHECK: flops.special 0
// CHECK-NOT: unknown:
