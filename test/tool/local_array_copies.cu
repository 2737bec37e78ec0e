// Values that reach a loop bound through a small local array copied element by element (CUTLASS's `Coord`
// and `Array` constructors: `for (int i = 0; i < kRank; ++i) idx[i] = other[i];`). The copy's index varies, so
// the values stay in memory until the copy loop is unrolled, as nvcc's optimiser does: then the K loop's
// bound is `rows` again, and the column a block reads is blockIdx.x.
// RUN: roofcheck-lint %s --grid 48 --block 32 --arg rows=100 --arg columns=40 | FileCheck %s
// RUN: roofcheck-lint %s --grid 48 --block 32 --arg rows=100 --arg columns=40 --verbose | FileCheck %s --check-prefix=KNOWN

template <int Rank> struct Coord {
  int idx[Rank];
  __device__ Coord(const int (&values)[Rank]) {
    for (int i = 0; i < Rank; ++i)
      idx[i] = values[i];
  }
  __device__ int operator[](int i) const { return idx[i]; }
};

// Blocks 0..39 each sum one column of 100 rows in each of their 32 threads: 40 * 32 * 100 = 128000 adds.
// Reads: the 40 columns of 100 rows, 4 B each = 16000 B (every thread of a block reads the same value);
// writes: 40 sums of 4 B = 160 B.
__global__ void columnSums(const float *a, float *out, int rows, int columns) {
  int corner[2] = {0, int(blockIdx.x)};
  int extent[2] = {rows, columns};
  Coord<2> start(corner), end(extent);
  if (start[1] >= end[1])
    return;
  float sum = 0.0f;
  for (int r = start[0]; r < end[0]; ++r)
    sum += a[r * columns + start[1]];
  out[start[1]] = sum;
}

// CHECK-LABEL: kernel columnSums
// CHECK: flops.fp32 {{.*}} = 128000{{$}}
// CHECK: bytes.read {{.*}} = 16000{{$}}
// CHECK: bytes.write {{.*}} = 160{{$}}
// KNOWN-LABEL: kernel columnSums
// KNOWN-NOT: unknown
