// An index over a constant tile wider than the block (blockIdx.x * 256 * 8 + threadIdx.x, a loop of 8 steps
// of 256 filling the tile): a block's threads reach min(tile, blockDim.x) of the tile's positions per step,
// so the footprint is what the loop covers, not the tile times the loop.
// RUN: roofcheck-lint %s --grid 512 --block 256 | FileCheck %s

#define THREADS 256
#define PER_THREAD 8

// 512 blocks x 2048 floats read once each; one float written per block.
__global__ void tile_sums(const float *in, float *out) {
  __shared__ float partial[THREADS];
  unsigned i = blockIdx.x * (THREADS * PER_THREAD) + threadIdx.x;
  float s = 0;
#pragma unroll
  for (int k = 0; k < PER_THREAD; ++k)
    s += in[i + k * THREADS];
  partial[threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0;
    for (int k = 0; k < THREADS; ++k)
      t += partial[k];
    out[blockIdx.x] = t;
  }
}

// CHECK-LABEL: kernel tile_sums
// CHECK: bytes.read 32 * gridDim.x * min(2048, blockDim.x) = 4194304{{$}}
// CHECK: bytes.write 4 * gridDim.x = 2048{{$}}
