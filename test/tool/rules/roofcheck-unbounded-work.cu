// roofcheck-unbounded-work (docs/rules/roofcheck-unbounded-work.md): a loop whose trip count depends on values
// loaded from memory. What the estimator cannot follow is an unknown of the kernel, not a finding.
// RUN: not roofcheck-lint --quiet %s --grid 4 --block 256 --arg n=1000 2>/dev/null \
// RUN:   | FileCheck %s --implicit-check-not=warning: --implicit-check-not=note:
// RUN: roofcheck-lint %s --grid 4 --block 256 --arg n=1000 --json %t.json >/dev/null 2>&1 || true
// RUN: FileCheck --check-prefix=JSON %s < %t.json

// The loop runs until a value read from memory says stop.
__global__ void until_small(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    while (v > 1.0f)
    // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: the work of kernel 'until_small' depends on data: data-dependent loop (trip count depends on values loaded from memory) [roofcheck-unbounded-work]
      v *= 0.5f;
    x[i] = v;
  }
}

// Where the store lands depends on a value loaded from memory: the bytes are unknown (the footprint is the
// data's), the work is bounded. An unknown, not a finding.
__global__ void scatter(const int *index, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[index[i]] = in[i];
}

// Bounded: not reported.
__global__ void bounded(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4 && i < n; ++k)
    out[i] += in[i];
}

// A trip count read from a struct parameter (CUTLASS's Params) is a launch argument, not data: the
// expressions cannot name the field, an unknown of the analyser's, not a finding.
struct Params {
  const float *in;
  float *out;
  int iterations;
};
__global__ void from_params(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int t = 0; t < p.iterations; ++t)
    sum += p.in[i];
  p.out[i] = sum;
}

// One loop of a template is one finding, however many instantiations the file makes: the message names the
// template, not each instantiation.
template <int Unroll> __global__ void until_small_by(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    while (v > 1.0f)
    // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: the work of kernel 'until_small_by' depends on data: data-dependent loop (trip count depends on values loaded from memory) [roofcheck-unbounded-work]
      v *= 0.5f * Unroll;
    x[i] = v;
  }
}
template __global__ void until_small_by<1>(float *, int);
template __global__ void until_small_by<2>(float *, int);
template __global__ void until_small_by<4>(float *, int);

// JSON: "cause": "data-dependent-loop"
// JSON: "cause": "indirect-access"
