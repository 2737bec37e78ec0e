// The math library by what DESIGN.md counts: exp2f, log2f and atan2f are special functions (a '2' in a name
// does not make it a conversion), __expf and __logf too; conversions and min/max count nothing.
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1000 | FileCheck %s
// The JSON names each special operation with its count (what ncu's FLOPs hold of one depends on how the
// compiler expands it): a division in fp32 and a square root in fp64 by their IR names.
// RUN: rm -rf %t && mkdir -p %t
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1000 --json %t/static.json > /dev/null
// RUN: %python -c "import json,sys; [print(k['name'], op, q['value']) for k in json.load(open(sys.argv[1]))['kernels'] for op, q in sorted(k['flops']['special_operations'].items())]" %t/static.json | FileCheck %s --check-prefix=OPS

__global__ void specials(float *out, const float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = exp2f(a[i]) + log2f(b[i]) + atan2f(a[i], b[i]) + __expf(a[i]) + __logf(b[i]);
}

__global__ void ratios(float *out, const float *a, double *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = a[i] / (a[i] + 1.0f);
    d[i] = sqrt(d[i]);
  }
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
// CHECK-LABEL: kernel ratios
// CHECK: flops.total {{.*}} = 1000{{$}}
// CHECK: flops.special {{.*}} = 2000{{$}}
// CHECK-LABEL: kernel conversions
// CHECK: flops.total 0
// CHECK: flops.special 0
// CHECK-NOT: unknown:
// OPS: specials atan2f 1000
// OPS-NEXT: specials exp2f 1000
// OPS-NEXT: specials fast_expf 1000
// OPS-NEXT: specials fast_logf 1000
// OPS-NEXT: specials log2f 1000
// OPS-NEXT: ratios fdiv.f32 1000
// OPS-NEXT: ratios sqrt 1000
// OPS-NOT: conversions
