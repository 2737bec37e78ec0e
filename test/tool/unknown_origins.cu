// An unknown in code inlined from a header is named at the kernel's call, where the user's source is, and
// where the code itself is: without the second, every unknown of a header-only library's kernel (CUTLASS's
// are all inlined into `device_kernel.h`) points at one line that says nothing.
// RUN: rm -rf %t && mkdir -p %t
// RUN: not roofcheck-lint %s --verbose --json %t/origins.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON --input-file %t/origins.json
#include "Inputs/csr_rows.cuh"

__global__ void rowSums(const int *offsets, const float *values, float *out, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows)
    out[row] = csrRowSum(offsets, values, row);
}

// The same loop written in the kernel's own file: named there, nothing inlined from elsewhere.
__global__ void rowSumsInline(const int *offsets, const float *values, float *out, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  float sum = 0.0f;
  for (int k = offsets[row]; k < offsets[row + 1]; ++k)
    sum += values[k];
  out[row] = sum;
}

// CHECK-LABEL: kernel rowSums
// CHECK: unknown_origins.cu:12:16: unknown: data-dependent loop (trip count depends on values loaded from memory) (inlined from {{/.*}}Inputs{{/}}csr_rows.cuh:6:3)
// CHECK-LABEL: kernel rowSumsInline
// CHECK: unknown_origins.cu:21:3: unknown: data-dependent loop (trip count depends on values loaded from memory){{$}}
// The finding about the header's loop says where the loop is.
// CHECK: unknown_origins.cu:12:16: warning: the work of kernel 'rowSums' depends on data: data-dependent loop (trip count depends on values loaded from memory) (inlined from {{.*}}csr_rows.cuh:6:3) [roofcheck-unbounded-work]
// CHECK: unknown_origins.cu:12:16: note: kernel 'rowSums': data-dependent loop (trip count depends on values loaded from memory) (inlined from {{.*}}csr_rows.cuh:6:3) [unknown: data-dependent-loop]

// JSON: "origin": "{{/.*}}Inputs{{/}}csr_rows.cuh:6:3"
// JSON: "origin": "{{/.*}}Inputs{{/}}csr_rows.cuh:7:12"
// JSON-NOT: "origin"
