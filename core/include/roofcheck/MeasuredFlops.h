// FLOPs of a profiled launch from the counters in its measured record, with the Nsight Compute definitions
// (DESIGN.md, "Conventions"): add + mul + 2 * fma per precision from the SASS thread-instruction counts, and
// the tensor pipe's ops per source type (sm__ops_path_tensor_src_<type>[_dst_<type>].sum) for tensor cores.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofcheck {

/// A launch's FLOPs per precision; nullopt where the counters a value needs were not collected.
struct MeasuredFlops {
  std::optional<double> fp64, fp32, fp16;
  /// Tensor-core FLOPs of the calibrated source types (tensorFlops()); 0 where the tensor pipe's ops were not
  /// counted but its instruction counts show it did no math (only HFMA2.MMA moves: a base-set sample).
  std::optional<double> tensor;
  std::map<std::string, double> tensorByType; ///< tensor's FLOPs per source type, where counted
  /// The tensor pipe did math these counters do not turn into FLOPs: its ops were not counted (a base-set
  /// sample) or include a source type whose op was never calibrated (fp8).
  bool tensorUncounted = false;
  /// The sum of the known ones; nullopt if none is known, or where tensor math went uncounted (the FMA
  /// pipes' part alone would pass for the whole).
  std::optional<double> total() const;
  /// fp64, fp32, fp16 lacking counters where another of them has them: total() leaves them out, and says so here.
  std::vector<std::string> uncounted() const;
};
MeasuredFlops measuredFlops(const std::map<std::string, double> &metrics);

/// Tensor-pipe ops per source type ("fp16", "bf16", "tf32", "fp64", "fp8", "int8", ...): a type's total counter
/// where the chip has one, else the sum of its per-destination counters; sparsity counters are left out.
std::map<std::string, double> tensorOps(const std::map<std::string, double> &metrics);

/// tensorOps() in FLOPs, for the source types whose op was calibrated; the others are left out.
std::map<std::string, double> tensorFlops(const std::map<std::string, double> &metrics);

} // namespace roofcheck
