// The explanation rules: each looks at the facts gathered for one kernel and, when its condition
// holds, adds an Explanation with the evidence that supports it (DESIGN.md: "explains every gap").
#pragma once

#include "roofcheck/Contracts.h"

#include <optional>
#include <string>
#include <vector>

namespace roofcheck::report {

/// What the engine knows about one kernel, over its profiled launches (so predicted and measured
/// totals cover the same launches).
struct KernelFacts {
  const StaticKernel *kernel = nullptr; ///< null: no static entry
  std::optional<double> idealBytes, predictedBytes, idealRead, idealWrite;
  std::optional<double> staticFlops, staticSpecial;
  std::optional<double> dramRead, dramWrite, l2Bytes;
  std::optional<double> measuredFlops;
  std::optional<double> measuredFp64, measuredFp32, measuredFp16;
  std::optional<double> staticFp64, staticFp32, staticFp16, staticTensor;
  std::optional<double> workingSetBytes;  ///< ideal bytes of the largest single profiled launch
  std::optional<int64_t> l2SizeBytes;     ///< of the device the launches ran on
  std::string deviceName;
  std::string earlierLaunch;              ///< the launch before the first profiled one, same process
  std::optional<double> bandwidthCeiling; ///< DRAM bytes/s used for the roof
  bool measured = false;                  ///< at least one profiled launch
};

/// Tolerances: measurement noise and the partial write-back seen on the H200 (~7% of a large output
/// still in L2 at kernel end) must not read as a finding.
inline constexpr double TrafficTolerance = 0.10;
inline constexpr double FlopsTolerance = 0.01;
inline constexpr double CeilingTolerance = 0.02;

/// Explanations that need only the static file (also shown in static-only mode).
void explainStatic(const KernelFacts &facts, ReportKernel &kernel);
/// Explanations that compare measured counters with the static counts and the roof.
void explainMeasured(const KernelFacts &facts, ReportKernel &kernel);

/// "transpose.cu:53 store out: stride 32768 B, 32 sectors/request" for each access the static tool
/// marked uncoalesced.
std::vector<std::string> uncoalescedAccesses(const StaticKernel &kernel);

} // namespace roofcheck::report
