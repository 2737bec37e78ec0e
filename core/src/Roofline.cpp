#include "roofcheck/Roofline.h"

#include "roofcheck/Error.h"

#include <algorithm>
#include <cmath>

namespace roofcheck {

const char *toString(FlopBucket bucket) {
  switch (bucket) {
  case FlopBucket::FP64:
    return "fp64";
  case FlopBucket::FP32:
    return "fp32";
  case FlopBucket::FP16:
    return "fp16";
  case FlopBucket::BF16:
    return "bf16";
  case FlopBucket::Tensor:
    return "tensor";
  }
  return "?";
}

std::optional<FlopBucket> parseFlopBucket(const std::string &text) {
  for (FlopBucket b : {FlopBucket::FP64, FlopBucket::FP32, FlopBucket::FP16, FlopBucket::BF16, FlopBucket::Tensor})
    if (text == toString(b))
      return b;
  return std::nullopt;
}

std::optional<FlopBucket> dominantBucket(const BucketFlops &flops) {
  std::optional<FlopBucket> best;
  double most = 0;
  for (size_t i = 0; i < flops.size(); ++i)
    if (flops[i] && *flops[i] > most) {
      most = *flops[i];
      best = static_cast<FlopBucket>(i);
    }
  return best;
}

std::string dominantTensorType(const std::map<std::string, double> &flopsByType) {
  std::string best;
  double most = 0;
  for (const auto &[type, flops] : flopsByType)
    if (flops > most) {
      most = flops;
      best = type;
    }
  return best;
}

const char *toString(Bound bound) { return bound == Bound::Memory ? "memory" : "compute"; }

namespace {
void requirePositive(double value, const std::string &what) {
  if (!(value > 0) || !std::isfinite(value))
    throw Error(what + " must be a positive finite number");
}
} // namespace

Roofline::Roofline(ComputeRoof compute, BandwidthRoof bandwidth)
    : compute_(std::move(compute)), bandwidth_(std::move(bandwidth)) {
  requirePositive(compute_.flopsPerSecond, "compute ceiling '" + compute_.name + "'");
  requirePositive(bandwidth_.bytesPerSecond, "bandwidth ceiling '" + bandwidth_.name + "'");
}

double Roofline::ridge() const { return compute_.flopsPerSecond / bandwidth_.bytesPerSecond; }

double Roofline::attainable(double intensity) const {
  if (!(intensity >= 0))
    throw Error("arithmetic intensity must be a non-negative number");
  return std::min(compute_.flopsPerSecond, bandwidth_.bytesPerSecond * intensity);
}

Classification Roofline::classify(double intensity) const {
  Classification c;
  c.ridge = ridge();
  c.attainable = attainable(intensity);
  c.bound = intensity < c.ridge ? Bound::Memory : Bound::Compute;
  c.limitingRoof = c.bound == Bound::Memory ? bandwidth_.name : compute_.name;
  return c;
}

double Roofline::fractionOfRoof(double intensity, double achievedFlopsPerSecond) const {
  double roof = attainable(intensity);
  if (roof == 0)
    throw Error("the roof is zero at zero intensity: no fraction can be taken");
  return achievedFlopsPerSecond / roof;
}

} // namespace roofcheck
