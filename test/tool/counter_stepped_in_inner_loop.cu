// A main loop whose counter steps down in one trip of an inner loop of constant trips, which also reads the
// new value: a pipelined K loop, where the warps compute on one staged tile while the next is fetched, and
// the count of tiles left drops as the first half of the current one is consumed. ScalarEvolution cannot
// follow what the inner loop leaves in the counter (a select on the inner loop's own index); spelt out trip by
// trip, as nvcc unrolls it too, the counter is a plain recurrence again.
// RUN: roofcheck-lint %s --grid 4 --block 64 --arg tiles=10 | FileCheck %s

// 10 tiles of 2 halves, one FMA each: 40 FLOPs a thread, 256 threads.
__global__ void pipelinedTiles(const float *in, float *out, int tiles) {
  __shared__ float stage[2][64];
  float acc = 0;
  int left = tiles - 1, tile = 0;
  bool more = left > 0;
  stage[0][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  while (left > -1) {
#pragma unroll
    for (int half = 0; half < 2; ++half) {
      acc = acc * 0.5f + stage[tile & 1][(threadIdx.x + 32 * half) & 63];
      if (half == 0) {
        --left;
        more = more && left > 0;
      }
      if (half == 1) {
        if (more)
          stage[(tile + 1) & 1][threadIdx.x] = in[(tile + 1) * 64 + threadIdx.x];
        __syncthreads();
        ++tile;
      }
    }
  }
  out[blockIdx.x * 64 + threadIdx.x] = acc;
}

// CHECK-LABEL: kernel pipelinedTiles
// CHECK: flops.fp32 {{.*}}tiles{{.*}} = 10240{{$}}
// CHECK-NOT: loop trip count it cannot determine
