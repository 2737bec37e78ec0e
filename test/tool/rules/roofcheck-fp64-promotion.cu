// roofcheck-fp64-promotion (docs/rules/roofcheck-fp64-promotion.md): double-precision arithmetic in a
// kernel whose data is single precision, with the mechanical fix shown under the source line.
// RUN: not roofcheck-lint --quiet %s 2>/dev/null | FileCheck %s --implicit-check-not=warning: --implicit-check-not=note:
// RUN: rm -rf %t && mkdir -p %t
// RUN: not roofcheck-lint --quiet %s --sarif %t/out.sarif > /dev/null 2>&1
// RUN: %python -c "import json,sys; [print(r['locations'][0]['physicalLocation']['region']['startLine'], f['artifactChanges'][0]['replacements'][0]['insertedContent']['text']) for r in json.load(open(sys.argv[1]))['runs'][0]['results'] for f in r.get('fixes', [])]" %t/out.sarif | FileCheck %s --check-prefix=SARIF

__global__ void scale_half(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 0.5;
  // CHECK: :[[@LINE-1]]:22: warning: double-precision arithmetic in a single-precision kernel: the double literal 0.5 promotes the float values it meets to double, which runs at a fraction of the fp32 rate [roofcheck-fp64-promotion]
  // CHECK-NEXT: {{^}}  [[@LINE-2]] |     out[i] = in[i] * 0.5;
  // CHECK-NEXT: {{^}}      |                      ^~~
  // CHECK-NEXT: {{^}}      |                      0.5f
  // CHECK-NEXT: :[[@LINE-5]]:22: note: the optimiser folded this one back to fp32 (the estimate counts no fp64 FLOPs), which it can only do when the double result rounds the same
  // SARIF: [[@LINE-6]] 0.5f
}

__global__ void squares(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = pow(in[i], 2.0);
  // CHECK: :[[@LINE-1]]:14: warning: double-precision arithmetic in a single-precision kernel: pow() on a single-precision argument promotes {{.*}} [roofcheck-fp64-promotion]
  // CHECK: {{^}}      |              powf
  // CHECK: :[[@LINE-3]]:14: note: the optimiser folded this one back to fp32
  // SARIF: [[@LINE-4]] powf
}

// A double operand: reported, but the fix (which side should change?) is not mechanical.
__device__ double bias;
__global__ void shifted(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + bias;
  // CHECK: :[[@LINE-1]]:22: warning: double-precision arithmetic in a single-precision kernel: the double operand 'bias' promotes {{.*}} [roofcheck-fp64-promotion]
  // CHECK-NOT: {{^}}      |                      {{[a-z0-9]}}
}

// Not reported: single-precision literals, a double literal only converted (no double arithmetic), and a
// kernel whose data is double.
__global__ void clean(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float half = 0.5;
  if (i < n)
    out[i] = in[i] * 0.5f + half * sqrtf(in[i]);
}

__global__ void in_double(const double *in, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 0.5;
}
