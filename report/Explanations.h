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
  std::optional<double> staticFp64, staticFp32, staticFp16, staticBf16, staticTensor;
  /// Measured fp16 FLOPs that are register moves, not arithmetic (fp16MoveFlops): left out of
  /// measuredFlops and measuredFp16.
  std::optional<double> fp16Moves;
  std::optional<double> localBytes;       ///< local-memory (spill) traffic, when its metrics were recorded
  std::optional<double> workingSetBytes;  ///< ideal bytes of the largest single profiled launch
  std::optional<double> writtenBytes;     ///< ideal write bytes of the largest single profiled launch
  int64_t profiledLaunches = 0;
  std::optional<int64_t> l2SizeBytes;     ///< of the device the launches ran on (or its model's, probed)
  std::string deviceName;
  std::string earlierLaunch;              ///< before the first profiled launch whose DRAM bytes count, same process
  std::optional<int64_t> replayPasses;    ///< kernel-replay passes behind its DRAM bytes; null: counted in one pass
  std::optional<double> bandwidthCeiling; ///< DRAM bytes/s used for the roof
  bool measured = false;                  ///< at least one profiled launch
};

/// Tolerances: measurement noise and the partial write-back seen on the H200 (~7% of a large output
/// still in L2 at kernel end) must not read as a finding.
inline constexpr double TrafficTolerance = 0.10;
inline constexpr double FlopsTolerance = 0.01;
inline constexpr double CeilingTolerance = 0.02;

/// ptxas materialises constants and moves registers with HFMA2.MMA, which the hfma counter counts as
/// fp16 FMAs (matmul_tiled on the H200: 1.6 GFLOP of "fp16" beside 51.5 GFLOP of fp32, 3%; the expf
/// kernels 16%). Measured fp16 FLOPs are taken for such moves when the static fp16 and bf16 counts are
/// exactly 0 and they are at most this share of the measured fp32 + fp64 FLOPs; more than that is
/// arithmetic the static count missed.
inline constexpr double Fp16MoveShare = 0.25;

/// The measured fp16 FLOPs of one launch that are register moves: all of them under the condition
/// above, else 0.
double fp16MoveFlops(const std::optional<double> &staticFp16, const std::optional<double> &staticBf16,
                     const MeasuredFlops &measured);

/// Explanations that need only the static file (also shown in static-only mode).
void explainStatic(const KernelFacts &facts, ReportKernel &kernel);
/// Explanations that compare measured counters with the static counts and the roof.
void explainMeasured(const KernelFacts &facts, ReportKernel &kernel);

/// "transpose.cu:53 store out: stride 32768 B, 32 sectors/request" for each access the static tool
/// marked uncoalesced.
std::vector<std::string> uncoalescedAccesses(const StaticKernel &kernel);

} // namespace roofcheck::report
