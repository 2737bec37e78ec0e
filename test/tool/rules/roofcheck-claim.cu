// roofcheck-claim (docs/rules/roofcheck-claim.md): a claim written next to a kernel that the estimate
// contradicts is an error at the claim; claims that hold, or that cannot be checked, are not reported.
// RUN: not roofcheck-lint --quiet %s --grid 4 --block 256 --arg n=1024 2>/dev/null \
// RUN:   | FileCheck %s --implicit-check-not=warning: --implicit-check-not=error: --implicit-check-not=note:
// `bound` claims need ceilings (--ceilings or the configuration's `ceilings:`); with them, the
// memory-bound add holds and the compute claim fails.
// RUN: not roofcheck-lint --quiet %s --grid 4 --block 256 --arg n=1024 --ceilings %S/../../audit/Inputs/ceilings.json 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=BOUND --implicit-check-not=error:

// roofcheck-claim: flops == n; bytes == 12 * n
__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}

// roofcheck-claim: intensity >= 1; bound == compute
__global__ void add_again(const float *a, const float *b, float *c, int n) {
  // CHECK: :[[@LINE-2]]:21: error: claim 'intensity >= 1' of kernel 'add_again' contradicts the estimate: {{.*}} [roofcheck-claim]
  // BOUND: :[[@LINE-3]]:21: error: claim 'intensity >= 1' of kernel 'add_again'
  // BOUND: :[[@LINE-4]]:37: error: claim 'bound == compute' of kernel 'add_again' contradicts the estimate: {{.*}} [roofcheck-claim]
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    c[i] = a[i] + b[i];
}
