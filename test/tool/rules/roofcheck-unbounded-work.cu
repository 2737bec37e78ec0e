// roofcheck-unbounded-work (docs/rules/roofcheck-unbounded-work.md): where the estimator cannot bound a
// kernel's FLOPs or bytes, it says why and where.
// RUN: not roofcheck-lint --quiet %s --grid 4 --block 256 --arg n=1000 2>/dev/null \
// RUN:   | FileCheck %s --implicit-check-not=warning: --implicit-check-not=note:

// The loop runs until a value read from memory says stop.
__global__ void until_small(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    while (v > 1.0f)
    // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: cannot bound the FLOPs of kernel 'until_small': data-dependent loop (trip count depends on values loaded from memory) [roofcheck-unbounded-work]
      v *= 0.5f;
    x[i] = v;
  }
}

// Where the store lands depends on a value loaded from memory.
__global__ void scatter(const int *index, const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[index[i]] = in[i];
  // CHECK: :[[@LINE-1]]:{{[0-9]+}}: warning: cannot bound the bytes written of kernel 'scatter': indirect index {{.*}} [roofcheck-unbounded-work]
}

// Bounded: not reported.
__global__ void bounded(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4 && i < n; ++k)
    out[i] += in[i];
}
