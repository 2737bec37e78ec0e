// Cooperative groups rank threads linearly over the block's three dimensions: thread_rank() is
// (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x, a tile's meta_group_rank() that rank
// over the tile size and meta_group_size() ceil(block size / tile size). A kernel that reads its thread
// coordinates only that way is counted as a one-dimensional block of blockDim.x * blockDim.y * blockDim.z
// threads (a block of whole warps, as warp-per-row kernels are launched); the grid's rank likewise. Launched
// here with blocks of 32 x 2 x 2 threads (4 warps), 64 blocks: 256 warps for 200 rows of 100 floats.
// RUN: roofcheck-lint %s --grid 64 --block 32,2,2 --arg rows=200 --arg cols=100 --arg n=10000 --arg seg=100 | FileCheck %s
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// A warp a row: the lanes stride over the row, the warp's sum is reduced with shuffles (5 adds a lane), the
// first lane writes it. 200 rows: 20,000 adds in the loop, 200 * 32 * 5 = 32,000 in the reduction, as the
// source asks. Built by nvcc -O3 -arch=sm_90 and run at this launch on the H200 (2026-12-04), Nsight Compute
// counts 45,800 FADDs: nvcc moves the reduction's last add under the lane test (4 * 32 + 1 a warp). The other
// kernels' FLOPs below are ncu's on the same run (10,000 FFMAs; 6,400 FMULs), and the bytes their L2 sectors.
__global__ void row_sums(float *out, const float *x, int rows, int cols) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (row >= rows)
    return;
  float sum = 0.0f;
  for (int i = warp.thread_rank(); i < cols; i += warp.size())
    sum += x[(size_t)row * cols + i];
  sum = cg::reduce(warp, sum, cg::plus<float>());
  if (warp.thread_rank() == 0)
    out[row] = sum;
}

// The grid's rank in a grid-stride loop (64-bit, as grid_group computes it): n fused multiply-adds.
__global__ void axpy_grid(float *y, const float *x, float a, int n) {
  cg::grid_group grid = cg::this_grid();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.size())
    y[i] = a * x[i] + y[i];
}

// The block walks its own segment with the block's rank and size: seg products a block.
__global__ void scale_segments(float *y, const float *x, int seg) {
  cg::thread_block block = cg::this_thread_block();
  for (int i = block.thread_rank(); i < seg; i += block.size())
    y[blockIdx.x * seg + i] = 3.0f * x[blockIdx.x * seg + i];
}

// threadIdx.y read on its own besides the rank: the block stays three-dimensional, and the guard on the rank
// is beyond the engine.
__global__ void rank_and_row(float *out, const float *in, int n) {
  cg::thread_block block = cg::this_thread_block();
  int i = blockIdx.x * block.size() + block.thread_rank();
  if (i < n)
    out[i] = in[i] + threadIdx.y;
}

// CHECK-LABEL: kernel row_sums
// CHECK: flops.total {{.*}} = 52000{{$}}
// CHECK: bytes.read {{.*}} = 80000{{$}}
// CHECK: bytes.write {{.*}} = 800{{$}}
// CHECK-NOT: unknown:
// CHECK-LABEL: kernel axpy_grid
// CHECK: flops.total {{.*}} = 20000{{$}}
// CHECK: bytes.read {{.*}} = 80000{{$}}
// CHECK: bytes.write {{.*}} = 40000{{$}}
// CHECK-NOT: unknown:
// CHECK-LABEL: kernel scale_segments
// CHECK: flops.total {{.*}} = 6400{{$}}
// CHECK: bytes.read {{.*}} = 25600{{$}}
// CHECK: bytes.write {{.*}} = 25600{{$}}
// CHECK-NOT: unknown:
// CHECK-LABEL: kernel rank_and_row
// CHECK: unknown: guard on the thread coordinates it cannot express
