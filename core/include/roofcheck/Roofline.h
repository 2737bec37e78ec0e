// The roofline model: measured ceilings, ridge points, attainable rate min(peak, bw * AI),
// classification and fraction of roof reached. Pure arithmetic on measured numbers; where the
// numbers come from is the ceilings document's business (Contracts.h).
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofcheck {

/// FLOP buckets of DESIGN.md. `special` is counted but has no roof: it is not in flops.total.
enum class FlopBucket { FP64, FP32, FP16, BF16, Tensor };
const char *toString(FlopBucket bucket);
std::optional<FlopBucket> parseFlopBucket(const std::string &text);

/// FLOPs by bucket, indexed by FlopBucket; nullopt for a count that is not known.
using BucketFlops = std::array<std::optional<double>, 5>;
/// The bucket whose ceiling gives a kernel its roof: the one with the most FLOPs (the first in FlopBucket
/// order on a tie), unknown counts passed over; nullopt when no known count is above 0.
std::optional<FlopBucket> dominantBucket(const BucketFlops &flops);
/// The source type whose ceiling gives a tensor kernel its roof ("bf16", "tf32", ...): the one with the most
/// tensor FLOPs (the first by name on a tie); "" when none is above 0 (the tensor bucket's fastest ceiling).
std::string dominantTensorType(const std::map<std::string, double> &flopsByType);

enum class Bound { Memory, Compute };
const char *toString(Bound bound);

struct ComputeRoof {
  std::string name;   ///< e.g. "fp32", "tensor.bf16"
  double flopsPerSecond = 0;
};

struct BandwidthRoof {
  std::string name;   ///< memory level, e.g. "dram", "l2", "shared"
  double bytesPerSecond = 0;
};

/// Where a kernel of a given intensity sits under one compute roof and the bandwidth roofs.
struct Classification {
  Bound bound = Bound::Memory;
  std::string limitingRoof;   ///< name of the ceiling that binds at this intensity
  double attainable = 0;      ///< FLOP/s
  double ridge = 0;           ///< FLOP/byte where the bandwidth roof meets the compute roof
};

class Roofline {
public:
  Roofline(ComputeRoof compute, BandwidthRoof bandwidth);

  const ComputeRoof &compute() const { return compute_; }
  const BandwidthRoof &bandwidth() const { return bandwidth_; }

  /// FLOP/byte where bandwidth * AI reaches the compute peak.
  double ridge() const;
  /// min(peak, bandwidth * intensity) in FLOP/s; intensity in FLOP/byte, >= 0.
  double attainable(double intensity) const;
  /// Below the ridge the kernel is memory-bound; at or above it, compute-bound (at the ridge the
  /// compute peak is reachable, so it binds).
  Classification classify(double intensity) const;
  /// achieved FLOP/s over the attainable rate at this intensity; 1.0 means on the roof.
  double fractionOfRoof(double intensity, double achievedFlopsPerSecond) const;

private:
  ComputeRoof compute_;
  BandwidthRoof bandwidth_;
};

} // namespace roofcheck
