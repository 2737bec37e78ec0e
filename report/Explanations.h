// The explanation rules: each looks at the facts gathered for one kernel and, when its condition
// holds, adds an Explanation with the evidence that supports it (DESIGN.md: "explains every gap").
#pragma once

#include "roofcheck/Contracts.h"
#include "roofcheck/Join.h"

#include <optional>
#include <string>
#include <vector>

namespace roofcheck::report {

using join::KernelFacts;
using join::TrafficTolerance;

/// Noise, not a finding: measured FLOPs this close to the static count, a dot this close above its roof.
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
