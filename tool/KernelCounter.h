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

#include <optional>
#include <string>
#include <vector>

namespace roofcheck::lint {

/// One global load/store/atomic, with its stride along threadIdx.x as an expression (bytes).
struct CountedAccess {
  GlobalAccess access;            ///< stride/sectors/coalesced are filled in by the view from strideExpr
  std::optional<Expr> strideExpr; ///< empty when the address is not affine in threadIdx.x
  int64_t elementBytes = 0;
};

struct KernelEstimate {
  KernelSource source;
  /// total, fp64, fp32, fp16, bf16, tensor, special; empty when unknown
  std::optional<Expr> total, fp64, fp32, fp16, bf16, tensor, special;
  std::optional<Expr> read, write, predictedRead, predictedWrite;
  std::vector<CountedAccess> accesses;
  std::vector<Unknown> unknowns;
};

/// Counts every kernel of the module that the AST reported, in the order the source declares them.
std::vector<KernelEstimate> countKernels(DeviceModule &device);

} // namespace roofcheck::lint
