// Which launch callbacks are the program's own launches, and how each of those holds the LaunchGate from
// its entry to its exit. Only a thread's outermost launch call is the program's: a launch callback that
// comes while the thread is inside another launch comes from the driver or CUPTI at work, or from a call
// the shim made, and must not be recorded, profiled or gated.
#pragma once

#include "../LaunchGate.h"
#include "Diagnostics.h"

#include <atomic>
#include <chrono>
#include <cstdint>

namespace roofcheck::runtime {

class LaunchGating {
public:
  explicit LaunchGating(Diagnostics &diagnostics) : diagnostics_(diagnostics) {}

  /// At a launch call's entry: true for the program's own launch.
  bool enter();
  /// At a launch call's exit: true for the program's own launch, whose hold on the gate release() ends.
  bool leave();

  /// Holds the gate for this thread's launch, alone (a profiled launch) or beside the others; one that cannot
  /// pass within gateWaitSeconds goes on without it (unprofiled, or unheld), with a warning.
  void hold(bool exclusive);
  /// Whether this thread's launch holds the gate alone: only such a launch may be profiled.
  bool heldAlone() const;
  void release();
  /// Launches that went on without waiting for a profiled one (whose counters they may have joined).
  int64_t unheldLaunches() const { return unheldLaunches_.load(); }

private:
  // While a launch is profiled no other launch may run in the process: its kernel would land in the
  // profiled range. 0.5 s was too short on the H200 for a profiled launch that switches counter sets
  // (threads-streams.test lost one launch's counters).
  static constexpr int gateWaitSeconds = 2;

  Diagnostics &diagnostics_;
  LaunchGate gate_{std::chrono::seconds(gateWaitSeconds)};
  std::atomic<int64_t> unheldLaunches_{0};
};

} // namespace roofcheck::runtime
