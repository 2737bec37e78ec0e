// Arithmetic that a compiler which fully unrolls a short counted loop computes at compile time is not counted:
// per iteration, a table entry times constants is a constant once the loop is unrolled (nvcc does so), and only
// what meets run-time values is work.
// RUN: roofcheck-lint %s --grid 2 --block 128 --arg n=10 | FileCheck %s

// Six phases from a constant table: `(-2 * pi * order[k]) / 64` is folded in each of the 6 unrolled copies;
// `* t` and the two products and the add with the loaded values are run-time work: 4 fp32 a phase, 24 a thread.
__global__ void phases(const float *in, float *out) {
  const int order[] = {0, 3, 1, 4, 2, 5};
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < 6; ++k) {
    float angle = (-2.0f * 3.14159265f * order[k] / 64.0f) * t;
    sum += in[t * 6 + k] * angle * 0.5f;
  }
  out[t] = sum;
}

// CHECK-LABEL: kernel phases
// CHECK: flops.fp32 24 * blockDim.x * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z = 6144{{$}}

// A loop whose trip count is a parameter is not unrolled at compile time: its table arithmetic is counted.
// 4 a trip: weight[k & 3] * 2, + 1, the product with the loaded value and the sum.
__global__ void runtimeTrips(const float *in, float *out, int n) {
  const float weight[] = {1.0f, 2.0f, 3.0f, 4.0f};
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k)
    sum += in[t * 4 + (k & 3)] * (weight[k & 3] * 2.0f + 1.0f);
  out[t] = sum;
}

// CHECK-LABEL: kernel runtimeTrips
// CHECK: flops.fp32 4 * blockDim.x * blockDim.y * blockDim.z * gridDim.x * gridDim.y * gridDim.z * n = 10240{{$}}
