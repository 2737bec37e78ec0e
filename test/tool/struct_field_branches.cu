// A branch on a field of a by-value struct argument is a branch on a parameter value, as one on a scalar
// argument is: which side runs depends on the launch, so each side's count is written times its test, never
// the sum of both sides. An epilogue that reads its source only when beta is not zero is the common case;
// the source's footprint is taken times the test as well.
// RUN: roofcheck-lint %s --grid 1 --block 32 --arg p.rows=4 --arg p.scaling.beta=0.5 | FileCheck %s
// RUN: roofcheck-lint %s --kernel epilogue --grid 1 --block 32 --arg p.scaling.beta=0 | FileCheck %s --check-prefix=NO-SOURCE

struct Scaling {
  float alpha, beta;
};
struct EpilogueParams {
  Scaling scaling;
  float *out;
  const float *source;
  int rows;
};

__device__ bool needsSource(const Scaling &s) { return s.beta != 0.0f; }

__global__ void epilogue(EpilogueParams p) {
  float v = p.out[threadIdx.x];
  if (needsSource(p.scaling))
    v = p.scaling.alpha * v + p.scaling.beta * p.source[threadIdx.x];
  else
    v = p.scaling.alpha * v;
  p.out[threadIdx.x] = v;
}

// alpha * v + beta * source (an FMA and a multiply) where beta != 0, alpha * v where it is 0.
// CHECK-LABEL: kernel epilogue
// CHECK: flops.fp32 2 * {{.*}} * ne(p.scaling.beta, 0.0) + {{.*}} = 96{{$}}
// CHECK: bytes.read 4 * blockDim.x * ne(p.scaling.beta, 0.0) + 4 * blockDim.x = 256{{$}}
// CHECK-NOT: unknown
// NO-SOURCE: flops.fp32 {{.*}} = 32{{$}}
// NO-SOURCE: bytes.read {{.*}} = 128{{$}}

// A field that only sizes the work is no branch between two sides (the test that skips the loop is the
// loop's own): it stays a formula, and no rows is no work (the rotated loop's guard reads the field again:
// both reads must be seen as one for the guard to bound the trips, else it is max(1, p.rows)).
// RUN: roofcheck-lint %s --kernel scaledRows --grid 1 --block 32 --arg p.rows=0 | FileCheck %s --check-prefix=NO-ROWS
__global__ void scaledRows(EpilogueParams p) {
  for (int r = 0; r < p.rows; ++r)
    p.out[r * 32 + threadIdx.x] *= p.scaling.alpha;
}

// CHECK-LABEL: kernel scaledRows
// CHECK: flops.fp32 {{.*}} gridDim.z * p.rows = 128{{$}}
// NO-ROWS: flops.fp32 {{.*}} = 0{{$}}
// CHECK-NOT: unknown:
