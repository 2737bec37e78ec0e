// A short array of scalars inside a by-value struct parameter (CUTLASS's GemmCoord keeps m, n, k in `int
// idx[3]`) is named element by element, so a loop bounded by one of them has a trip count; --arg binds it.
// RUN: roofcheck-lint %s --grid 2 --block 32 --arg 'problem.extent[2]=24' | FileCheck %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: roofcheck-lint %s --grid 2 --block 32 --json %t/static.json > /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t/static.json

struct Problem {
  int extent[3];
  const float *in;
  float *out;
};

// Each thread sums extent[2] values of its column: 24 trips of 64 threads at 1 FLOP, 1536.
__global__ void columnDepth(Problem problem) {
  float sum = 0.0f;
  for (int k = 0; k < problem.extent[2]; ++k)
    sum += problem.in[k * 64 + blockIdx.x * blockDim.x + threadIdx.x];
  problem.out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// CHECK-LABEL: kernel columnDepth
// CHECK: flops.total {{.*}}problem.extent[2]{{.*}} = 1536{{$}}

// The field the count reads, with the offset the runtime decodes it from (the third int).
// JSON: "fields": [
// JSON-NEXT: {
// JSON-NEXT: "name": "problem.extent[2]",
// JSON-NEXT: "type": "int",
// JSON-NEXT: "offset": 8,
// JSON-NEXT: "size": 4
