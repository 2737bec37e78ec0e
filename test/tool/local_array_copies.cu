// Values that reach a loop bound through a small local array copied element by element (CUTLASS's `Coord`
// and `Array` constructors: `for (int i = 0; i < kRank; ++i) idx[i] = other[i];`). The copy's index varies, so
// the values stay in memory until the copy loop is unrolled, as nvcc's optimiser does: then the K loop's
// bound is `rows` again, and the column a block reads is blockIdx.x.
// RUN: roofcheck-lint %s --kernel columnSums --grid 48 --block 32 --arg rows=100 --arg columns=40 | FileCheck %s
// RUN: roofcheck-lint %s --kernel columnSums --grid 48 --block 32 --arg rows=100 --arg columns=40 --verbose | FileCheck %s --check-prefix=KNOWN

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

// A local array indexed in a loop of more trips than are unrolled stays in memory, and a test of a value
// read back from it is one the engine cannot follow: an unknown, never dropped as if every block passed
// (blocks 5 and up return here: 20 * 5 + 3 >= 100).
// RUN: roofcheck-lint %s --kernel firstTiles --grid 8 --block 32 --arg n=100 --verbose | FileCheck %s --check-prefix=LOCAL
__global__ void firstTiles(const float *a, float *out, int n) {
  int starts[20];
  for (int i = 0; i < 20; ++i)
    starts[i] = blockIdx.x * 20 + i;
  if (starts[3] >= n)
    return;
  out[blockIdx.x * 32 + threadIdx.x] = a[threadIdx.x] * 2.0f;
}
// LOCAL-LABEL: kernel firstTiles
// LOCAL: flops.fp32 unknown
// LOCAL: unknown: branch on a value kept in a local array it cannot follow
