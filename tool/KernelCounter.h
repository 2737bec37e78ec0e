// The counting engine: for every kernel of a device module, FLOPs per bucket, the global-memory footprint
// (ideal bytes) and the traffic its access pattern implies (predicted bytes), as expressions in the
// kernel's parameters and launch dimensions. Works on the optimised device IR with ScalarEvolution: loop
// trip counts and addresses become affine forms in threadIdx/blockIdx, loop iterations and parameters;
// guards that dominate a block bound the threads that reach it. Whatever it cannot determine is listed as
// an unknown with its source location, and the values it affects stay empty.
#pragma once

#include "DeviceCompiler.h"

#include "roofcheck/Contracts.h"
#include "roofcheck/Expr.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofcheck::lint {

/// One global load/store/atomic, with its stride along threadIdx.x as an expression (bytes).
struct CountedAccess {
  GlobalAccess access;            ///< stride/sectors/coalesced are filled in by the view from strideExpr
  std::optional<Expr> strideExpr; ///< empty when the address is not affine in threadIdx.x
  std::optional<Expr> strideYExpr; ///< bytes between neighbouring threadIdx.y; empty when it does not move
  int64_t elementBytes = 0;
  /// The contiguous bytes each thread covers: the element, widened by a loop over consecutive elements
  /// (`for (k = 0; k < 8; ++k) p[8 * i + k]`) or by accesses side by side (the bytes of a uchar4 read one by
  /// one, a pixel's left and right neighbours); 0 when not a constant.
  int64_t runBytes = 0;
  /// The run when the loop's trip count is a symbol (`for (k = 0; k < cols; ++k) row[k]`): 4 * cols.
  std::optional<Expr> runExpr;
  /// Bytes that all executions of the access ask the memory system for (executions x access width), before
  /// any cache; empty when the execution count is unknown. Compared with the ideal bytes, this is the reuse
  /// the kernel leaves to L1/L2.
  std::optional<Expr> requested;
  /// Whether the address changes with threadIdx.x, .y, .z; empty when the address is not affine. An address
  /// that does not change along a dimension the block spans is loaded again by every thread along it.
  std::optional<std::array<bool, 3>> dependsOnThread;
  int loopLine = 0; ///< the line of the innermost loop around the access; 0 outside loops
  /// The innermost loop has a constant trip count and the address moves with a loop the thread runs: each
  /// thread reads a fixed table once (a bias vector walked 32 entries a trip), not data again and again.
  bool walksFixedLoop = false;
  /// Whether a guard leaves a constant number of threads along threadIdx.x, .y, .z to run the access
  /// (threadIdx.x == 0, a global index == 0, threadIdx.x < 7): however wide the block, it is not repeated
  /// by every thread along that dimension.
  std::array<bool, 3> fewThreads{false, false, false};
  /// The test of parameters of the side it is on (`if (bias)`, `reorder ? i : i * n`); empty on every side.
  std::optional<Expr> when;
};

struct KernelEstimate {
  KernelSource source;
  /// total, fp64, fp32, fp16, bf16, tensor, special; empty when unknown
  std::optional<Expr> total, fp64, fp32, fp16, bf16, tensor, special;
  /// `special` by operation (specialOperation: expf, fdiv.f32, ...); empty when `special` is unknown.
  std::map<std::string, Expr> specialByOperation;
  /// `tensor` by the MMAs' source type (tensorSourceType: bf16, tf32, ...), without those of a type it cannot
  /// tell; empty when `tensor` is unknown.
  std::map<std::string, Expr> tensorBySourceType;
  std::optional<Expr> read, write, predictedRead, predictedWrite;
  /// Where read (and predictedRead), write (and predictedWrite) hold: a test of the parameters, 0 where bytes
  /// it cannot count come in (Quantity::knownWhen); empty for every launch.
  std::optional<Expr> readKnownWhen, writeKnownWhen;
  std::vector<CountedAccess> accesses;
  std::vector<Unknown> unknowns;
  /// Divisions by multiplying high and shifting that the formulas write as divisions by a member.
  std::vector<MagicDivision> divisions;
  /// Whether any double-precision operation survived the optimiser (arithmetic or a special function such
  /// as pow on doubles): a promotion in the source that left none was folded back to single precision.
  bool doubleArithmetic = false;
};

/// 32-byte sectors one warp request of 32 threads touches: lanes `stride` bytes apart, `element` bytes each.
double sectorsPerRequest(int64_t stride, int64_t element);

/// Counts every kernel of the module that the AST reported, in the order the source declares them.
std::vector<KernelEstimate> countKernels(DeviceModule &device);

} // namespace roofcheck::lint
