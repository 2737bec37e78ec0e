// What the probe says about the ceilings it measured: clock warnings, throttle reasons in words, and the
// summary table printed at the end. Reads only the CeilingsDocument, so it needs no GPU.
#pragma once

#include "roofcheck/Contracts.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace roofcheck::probe {

/// A warning when the SM or memory clock among before/during/after differs by more than `tolerance`
/// (relative to the lowest), e.g. "dram copy: SM clock moved 1980 -> 1755 MHz during the probe ...".
std::optional<std::string> clockMovedWarning(const std::string &what, const Provenance &provenance,
                                             double tolerance = 0.05);

/// The highest SM clock a probe saw (before, during or after); nullopt when none was read.
std::optional<double> highestSmClock(const Provenance &provenance);

/// NVML's clock throttle ("clocks event") reason bits in words; unknown bits as hex.
std::vector<std::string> throttleReasonNames(uint64_t mask);

/// "4.41 TB/s", "66.1 TFLOP/s": three significant digits with an SI prefix.
std::string formatRate(double perSecond, const std::string &unit);

/// The closing table: one row per ceiling with median, min, max, the theoretical peak at the measured
/// clock (from provenance.parameters.theoretical_peak) and the fraction of it, and the SM clock.
std::string summaryTable(const CeilingsDocument &doc);

} // namespace roofcheck::probe
