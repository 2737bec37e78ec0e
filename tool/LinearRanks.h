// Cooperative groups number a block's threads, and a grid's blocks, linearly: `block.thread_rank()` is
// (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x, and `block.size()` the product of the
// three dimensions. The counting engine follows one coordinate at a time, so it could neither bound nor
// take apart a warp's rank written that way (`warp.meta_group_rank()`, `warp.thread_rank()`).
#pragma once

namespace llvm {
class Function;
}

namespace roofcheck::lint {

/// The levels of a launch that a kernel reads only through their linear numbering, and so counts as if
/// they were one-dimensional: the rank as the x coordinate, the product of the dimensions as the x size.
struct LinearRanks {
  bool block = false; ///< threadIdx and blockDim only as the thread's rank in its block and the block's size
  bool grid = false;  ///< blockIdx and gridDim only as the block's rank in the grid and the grid's block count
  /// Rewritten by stackWarps: x = threadIdx.y * 32 + lane over 32 * blockDim.y threads, y = threadIdx.x / 32
  /// over blockDim.x / 32.
  bool stackedWarps = false;
};

/// Rewrites a kernel that reads a level's coordinates and dimensions only through its linear rank and size:
/// the rank becomes the x coordinate and the size the x dimension (the counting engine then writes
/// blockDim.x for blockDim.x * blockDim.y * blockDim.z). A tile's `meta_group_size()`, ceil(size / g), becomes
/// size / g: a block of whole tiles, as warp-per-row kernels are launched, the assumption the engine already
/// makes for `blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32`. A kernel that reads a coordinate or a
/// dimension in any other way is left as it is.
LinearRanks rankLinearly(llvm::Function &kernel);

/// Whether a kernel reads threadIdx.x only as a lane of a warp (its low five bits), blockDim.x not at all,
/// and threadIdx.y: a block of blockDim.y warps stacked along y, as Sgemv's `dim3 block(32, 4)` launches it.
bool warpsStackAlongY(llvm::Function &kernel);

/// Rewrites a kernel of which warpsStackAlongY holds into one of 32 * blockDim.y threads along x, lanes
/// fastest, so that a warp's row (blockDim.y * blockIdx.x + threadIdx.y) and the lane's part of it (lane / 16,
/// two rows a warp) are digits of one global index. The assumption of warp ranks: blockDim.x a multiple of 32.
void stackWarps(llvm::Function &kernel);

} // namespace roofcheck::lint
