// A loop whose trip count depends on loaded data is listed as unknown with its location; the FLOPs it
// affects are unknown, everything else is still counted.
// RUN: not roofcheck-lint %s --grid 4 --block 256 --arg n=1000 | FileCheck %s
//
// The multiply runs trips(in[i]) times per element: flops.total and fp32 unknown, special = 0.
// Bytes do not depend on the loop: in 4000 B read; out and steps 4000 B each -> write 8000.
__global__ void halve_until_small(const float *in, float *out, int *steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    int k = 0;
    while (v > 1.0f) {
      v = v * 0.5f;
      ++k;
    }
    out[i] = v;
    steps[i] = k;
  }
}

// CHECK-LABEL: kernel halve_until_small
// CHECK: flops.total unknown
// CHECK: flops.fp32 unknown
// CHECK: flops.special 0{{$}}
// CHECK: bytes.read {{.*}} = 4000{{$}}
// CHECK: bytes.write {{.*}} = 8000{{$}}
// CHECK: intensity.ideal unknown
// CHECK: data_dependent_loop.cu:12:{{[0-9]+}}: unknown: data-dependent loop
// CHECK: data_dependent_loop.cu:12:5: warning: the work of kernel 'halve_until_small' depends on data: data-dependent loop {{.*}} [roofcheck-unbounded-work]

// A row whose length is read from memory, with the test that skips an empty row in front of the loop: that
// test is the loop's own (it tests the loaded bound), so the data-dependent trip count is what is reported.
// RUN: not roofcheck-lint %s --kernel row_sums --grid 4 --block 256 --arg rows=1000 | FileCheck %s --check-prefix=ROWS
__global__ void row_sums(const int *lengths, const float *values, float *sums, int width, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  int length = lengths[r];
  float s = 0.0f;
  for (int k = 0; k < length; ++k)
    s += values[r * width + k];
  sums[r] = s;
}
// ROWS: warning: the work of kernel 'row_sums' depends on data: data-dependent loop

// A data-dependent loop on one side of a test of a parameter (a slope computed and applied only when
// max_bias > 0): its blocks lie under that branch too, and they report the loop's data-dependent trip count,
// so the work is still known to depend on data.
// RUN: not roofcheck-lint %s --kernel scaled_row_sums --grid 4 --block 256 --arg rows=1000 | FileCheck %s --check-prefix=SCALED
__global__ void scaled_row_sums(const int *lengths, const float *values, float *sums, float max_bias, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = values[r * 64];
  if (max_bias > 0.0f) {
    float slope = powf(max_bias, 0.5f * r);
    for (int k = 0; k < lengths[r]; ++k)
      s += slope * values[r * 64 + k];
  }
  sums[r] = s;
}
// SCALED: unknown: data-dependent loop
// SCALED: warning: the work of kernel 'scaled_row_sums' depends on data: data-dependent loop

// A counted loop that also leaves as soon as a loaded value says so (a search, a scan of a mask for its last
// unmasked tile): its trips depend on the data, whichever exit bounds them.
// RUN: not roofcheck-lint %s --kernel first_above --grid 4 --block 256 --arg rows=1000 | FileCheck %s --check-prefix=SEARCH
__global__ void first_above(const float *values, int *found, float threshold, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  int k = 0;
  for (; k < 64; ++k)
    if (values[r * 64 + k] * 0.5f > threshold)
      break;
  found[r] = k;
}
// SEARCH: flops.fp32 unknown
// SEARCH: unknown: data-dependent loop
// SEARCH: warning: the work of kernel 'first_above' depends on data: data-dependent loop
