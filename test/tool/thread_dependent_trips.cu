// Loops whose trip count differs from thread to thread of a block (each pair of threads starting one value
// further on, as ggml's quantized matrix-vector product walks a row's blocks): the count is a sum over the
// threads, evaluated at the launch; an index that walks such a loop keeps the bytes unknown.
// RUN: roofcheck-lint %s --kernel pairStride --grid 3 --block 128 --arg n=1000 | FileCheck %s --check-prefix=PAIR
// RUN: roofcheck-lint %s --kernel warpRowBlocks --grid 3 --block 32,4 --arg ncols=3200 \
// RUN:   | FileCheck %s --check-prefix=WARPS
// RUN: roofcheck-lint %s --kernel warpRowBlocks --grid 3 --block 32,3 --arg ncols=3200 \
// RUN:   | FileCheck %s --check-prefix=THREE
// RUN: roofcheck-lint %s --kernel guardedPairs --grid 3 --block 128 --arg n=1000 --arg active=100 \
// RUN:   | FileCheck %s --check-prefix=GUARDED
// RUN: roofcheck-lint %s --kernel gridPairs --grid 3 --block 128 --arg n=1000 | FileCheck %s --check-prefix=GRID
// RUN: roofcheck-lint %s --kernel tilesOfPairs --grid 3 --block 128 --arg n=1000 | FileCheck %s --check-prefix=NESTED
// RUN: roofcheck-lint %s --kernel gatherTaps --grid 3 --block 128 --arg taps=4 --arg stride=2 --arg inputs=100 \
// RUN:   --arg outputs=200 --arg n=384 | FileCheck %s --check-prefix=TAPS

// Threads 2q and 2q + 1 start at q and step 64: between them the 128 threads of a block visit each of the
// 1000 values twice, 2000 trips at 2 FLOPs, in each of 3 blocks: 12000.
__global__ void pairStride(const float *x, const float *y, float *dst, int n) {
  float sum = 0.0f;
  for (int k = threadIdx.x / 2; k < n; k += 64)
    sum += x[blockIdx.x * n + k] * y[k];
  dst[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// PAIR-LABEL: kernel pairStride
// PAIR: flops.total {{.*}}sum(threadIdx.x, blockDim.x, {{.*}}) = 12000{{$}}
// PAIR: bytes.read unknown
// PAIR: bytes.write {{.*}} = 1536{{$}}
// PAIR: thread_dependent_trips.cu:20:3: unknown: index follows a loop whose trip count depends on the thread index

// The rank of a warp's lane in a block of warps stacked along y, written for blocks of 32 x 4 (ggml's mmvq):
// ncols / 32 = 100 blocks of a row, starts tid / 2 in [0, 64) twice each, step 64: 200 trips a block, 1200
// FLOPs in all. Launched with 32 x 3 threads the starts cover [0, 48) only, each start q taking ceil((100 -
// q) / 64) trips, 2 for the 36 below 36, 1 for the other 12: 2 x (36 x 2 + 12) = 168 a block, 1008 FLOPs. The
// sum follows whatever the launch is.
__global__ void warpRowBlocks(const float *x, const float *y, float *dst, int ncols) {
  const int tid = 32 * threadIdx.y + threadIdx.x;
  const int blocksPerRow = ncols / 32;
  float sum = 0.0f;
  for (int kb = tid / 2; kb < blocksPerRow; kb += 64)
    sum += x[blockIdx.x * blocksPerRow + kb] * y[kb];
  dst[blockIdx.x * 128 + tid] = sum;
}

// WARPS-LABEL: kernel warpRowBlocks
// WARPS: flops.total {{.*}}sum(threadIdx.y, blockDim.y, sum(threadIdx.x, blockDim.x, {{.*}})) = 1200{{$}}
// THREE-LABEL: kernel warpRowBlocks
// THREE: flops.total {{.*}} = 1008{{$}}

// A guard on the coordinate the trips follow is not summed with them: an unknown.
__global__ void guardedPairs(const float *x, float *dst, int n, int active) {
  if (threadIdx.x >= active)
    return;
  float sum = 0.0f;
  for (int k = threadIdx.x / 2; k < n; k += 64)
    sum += x[k] * 0.5f;
  dst[threadIdx.x] = sum;
}

// GUARDED-LABEL: kernel guardedPairs
// GUARDED: flops.total unknown
// GUARDED: thread_dependent_trips.cu:55:3: unknown: trip count that depends on threadIdx.x under a guard on threadIdx.x

// Trips that differ by block and by thread at once would be a sum over every thread of the grid, too many
// terms to evaluate at a real launch: the count stays unknown.
__global__ void gridPairs(const float *x, float *dst, int n) {
  float sum = 0.0f;
  for (int k = blockIdx.x * 64 + threadIdx.x / 2; k < n; k += 192)
    sum += x[k] * 0.5f;
  dst[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// GRID-LABEL: kernel gridPairs
// GRID: flops.total unknown
// GRID: unknown: loop trip count it cannot determine

// The same in nested loops, the outer one's trips by block and the inner one's by thread: unknown as well.
__global__ void tilesOfPairs(const float *x, float *dst, int n) {
  float sum = 0.0f;
  for (int tile = 0; tile <= blockIdx.x; ++tile)
    for (int k = threadIdx.x / 2; k < n; k += 64)
      sum += x[tile * n + k] * 0.5f;
  dst[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// NESTED-LABEL: kernel tilesOfPairs
// NESTED: flops.total unknown
// NESTED: unknown: trip counts that depend on the block and on the thread index in nested loops

// A loop from a max to a min, both of the thread's position (the taps of a transposed convolution that reach
// output t, as ggml's col2im gathers them): the trip count min(...) - max(...) + 1 is no formula of ours, and
// two different unknowns never cancel into a count of 1 a thread.
__global__ void gatherTaps(const float *columns, float *out, int taps, int stride, int inputs, int outputs, int n) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  if (index >= n)
    return;
  int channel = index / outputs, t = index % outputs;
  int first = (t - taps + stride) / stride, last = t / stride;
  if (first < 0)
    first = 0;
  if (last >= inputs)
    last = inputs - 1;
  float sum = 0.0f;
  for (int i = first; i <= last; ++i)
    sum += columns[channel * taps + t - i * stride + i * taps];
  out[index] = sum;
}

// TAPS-LABEL: kernel gatherTaps
// TAPS: flops.total unknown
// TAPS: unknown: loop trip count it cannot determine
