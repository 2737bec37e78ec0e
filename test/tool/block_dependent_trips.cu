// Loops whose trip count differs from block to block (a causal mask's tiles, split-K's slices): the count is
// a sum over the blocks, evaluated at the launch; an index that walks such a loop keeps the bytes unknown.
// RUN: roofcheck-lint %s --kernel triangleTiles --grid 6 --block 32 | FileCheck %s --check-prefix=TRIANGLE
// RUN: roofcheck-lint %s --kernel sliceOfK --grid 1,1,5 --block 32 --arg depth=100 --arg slice=32 \
// RUN:   | FileCheck %s --check-prefix=SLICE
// RUN: roofcheck-lint %s --kernel roundedSlices --grid 1,1,5 --block 32 --arg depth=100 --arg slice=32 \
// RUN:   | FileCheck %s --check-prefix=ROUNDED
// RUN: roofcheck-lint %s --kernel guardedTriangle --grid 6 --block 32 --arg rows=4 | FileCheck %s --check-prefix=GUARDED
// RUN: roofcheck-lint %s --kernel prefetchSlices --grid 1,1,5 --block 32 --arg depth=100 --arg slice=32 \
// RUN:   | FileCheck %s --check-prefix=PREFETCH

// Block b reads tiles 0..b: 1 + 2 + ... + 6 = 21 tiles of 32 threads at 2 FLOPs, 1344.
__global__ void triangleTiles(const float *tiles, float *rowSums) {
  float sum = 0.0f;
  for (int tile = 0; tile <= blockIdx.x; ++tile)
    sum += tiles[tile * blockDim.x + threadIdx.x] * 0.25f;
  rowSums[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// TRIANGLE-LABEL: kernel triangleTiles
// TRIANGLE: flops.total {{.*}}sum(blockIdx.x, gridDim.x, blockIdx.x + 1) = 1344{{$}}
// TRIANGLE: bytes.read unknown
// TRIANGLE: bytes.write {{.*}} = 768{{$}}
// TRIANGLE: block_dependent_trips.cu:15:3: unknown: index follows a loop whose trip count depends on the block index

// Block z sums the products of rows [z * slice, min(depth, (z + 1) * slice)): slices of 32, 32, 32, 4 and none
// (the fifth block starts past the end), 100 rows of 32 threads at 2 FLOPs: 6400.
__global__ void sliceOfK(const float *a, const float *b, float *partial, int depth, int slice) {
  int first = blockIdx.z * slice;
  int last = min(depth, first + slice);
  float sum = 0.0f;
  for (int row = first; row < last; ++row)
    sum += a[row * blockDim.x + threadIdx.x] * b[row];
  partial[blockIdx.z * blockDim.x + threadIdx.x] = sum;
}

// SLICE-LABEL: kernel sliceOfK
// SLICE: flops.total {{.*}}sum(blockIdx.z, gridDim.z, max(min(blockIdx.z * slice + slice, depth) - blockIdx.z * slice, 0)) = 6400{{$}}
// SLICE: block_dependent_trips.cu:32:3: unknown: index follows a loop whose trip count depends on the block index

// The same slices stepped 8 rows a trip, counted down as CUTLASS counts its K iterations: ceil(32 / 8) = 4
// trips for each of three blocks, 1 for the slice of 4, none for the fifth block, whose count would be
// (-28 + 7) / 8 and whose test in front of the loop (folded to `last - first > 0`) skips it: 13 trips of
// 32 threads at 2 FLOPs (a multiply and an add), 832.
__global__ void roundedSlices(const float *a, float *partial, int depth, int slice) {
  int first = blockIdx.z * slice;
  int iterations = (min(depth, first + slice) - first + 7) / 8;
  const float *row = a + first + threadIdx.x;
  float sum = 0.0f;
  for (; iterations > 0; --iterations, row += 8)
    sum += *row * 2.0f;
  partial[blockIdx.z * blockDim.x + threadIdx.x] = sum;
}

// ROUNDED-LABEL: kernel roundedSlices
// ROUNDED: flops.total {{.*}}sum(blockIdx.z, gridDim.z, {{.*}}) = 832{{$}}
// ROUNDED: unknown: index follows a loop whose trip count depends on the block index

// A guard on the same block coordinate that the trips follow is not summed with them: an unknown.
__global__ void guardedTriangle(const float *tiles, float *rowSums, int rows) {
  if (blockIdx.x >= rows)
    return;
  float sum = 0.0f;
  for (int tile = 0; tile <= blockIdx.x; ++tile)
    sum += tiles[tile * blockDim.x + threadIdx.x] * 0.25f;
  rowSums[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// GUARDED-LABEL: kernel guardedTriangle
// GUARDED: flops.total unknown
// GUARDED: block_dependent_trips.cu:64:3: unknown: trip count that depends on blockIdx.x under a guard on blockIdx.x

// A pipelined slice: the next row is fetched (and doubled) on every trip but the last, under the loop's own
// continuation test. Slices of 32, 32, 32, 4 and none: 100 adds and 31 + 31 + 31 + 3 = 96 multiplies of 32
// threads, 6272 FLOPs; the fifth block, which never enters the loop, skips no trip (none, not -1).
__global__ void prefetchSlices(const float *a, float *partial, int depth, int slice) {
  int first = blockIdx.z * slice;
  int iterations = min(depth, first + slice) - first;
  const float *row = a + first * 32 + threadIdx.x;
  float sum = 0.0f;
  if (iterations > 0) {
    float next = *row;
    do {
      float cur = next;
      --iterations;
      row += 32;
      if (iterations > 0)
        next = *row * 2.0f;
      sum += cur;
    } while (iterations > 0);
  }
  partial[blockIdx.z * 32 + threadIdx.x] = sum;
}

// PREFETCH-LABEL: kernel prefetchSlices
// PREFETCH: flops.total {{.*}} = 6272{{$}}
