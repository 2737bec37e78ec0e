// roofcheck-fp64-promotion (docs/rules/roofcheck-fp64-promotion.md): double-precision arithmetic in a
// kernel whose data is single precision, with the mechanical fix shown under the source line.
// RUN: not roofcheck-lint --quiet %s 2>/dev/null | FileCheck %s --implicit-check-not=warning: --implicit-check-not=note:
// RUN: rm -rf %t && mkdir -p %t
// RUN: not roofcheck-lint --quiet %s --sarif %t/out.sarif > /dev/null 2>&1
// RUN: %python -c "import json,sys; [print(r['locations'][0]['physicalLocation']['region']['startLine'], f['artifactChanges'][0]['replacements'][0]['insertedContent']['text']) for r in json.load(open(sys.argv[1]))['runs'][0]['results'] for f in r.get('fixes', [])]" %t/out.sarif | FileCheck %s --check-prefix=SARIF

__global__ void scale_tenth(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 0.1;
  // CHECK: :[[@LINE-1]]:22: warning: double-precision arithmetic in a single-precision kernel: the double literal 0.1 promotes the float values it meets to double, which runs at a fraction of the fp32 rate [roofcheck-fp64-promotion]
  // CHECK-NEXT: {{^}}  [[@LINE-2]] |     out[i] = in[i] * 0.1;
  // CHECK-NEXT: {{^}}      |                      ^~~
  // CHECK-NEXT: {{^}}      |                      0.1f
  // SARIF: [[@LINE-5]] 0.1f
}

__global__ void powers(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = pow(in[i], 2.5);
  // CHECK: :[[@LINE-1]]:14: warning: double-precision arithmetic in a single-precision kernel: pow() on a single-precision argument promotes {{.*}} [roofcheck-fp64-promotion]
  // CHECK: {{^}}      |              powf
  // SARIF: [[@LINE-3]] powf
}

// A constant behind a macro is named by the macro; the fix is not mechanical (the macro may serve others).
#define DAMPING 0.1
__global__ void damped(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * DAMPING;
  // CHECK: :[[@LINE-1]]:22: warning: double-precision arithmetic in a single-precision kernel: the double constant DAMPING (a macro) promotes {{.*}} [roofcheck-fp64-promotion]
}

// Not reported: promotions the optimiser folds back to fp32 because the double result rounds the same
// (x * 0.5): no fp64 instruction runs.
__global__ void folded_half(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] * 0.5;
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
