// Keeps other launches out of a launch being profiled: CUPTI's auto range takes every kernel launched on
// the context between its start and stop, so a profiled launch passes the gate alone (exclusive) and every
// other launch passes it shared. Every wait is bounded, because the waits happen inside CUDA's own launch
// calls: a launch that cannot pass in time is told so and goes on (unprofiled, or unheld), so the gate can
// slow the program down but never stop it. A profiled launch that is waiting keeps new launches out, so a
// busy program cannot starve it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace roofcheck::runtime {

class LaunchGate {
public:
  explicit LaunchGate(std::chrono::milliseconds patience) : patience_(patience) {}

  /// false when a profiled launch kept the gate for longer than the patience.
  bool enterShared();
  void leaveShared();
  /// false when other launches did not leave within the patience.
  bool enterExclusive();
  void leaveExclusive();

private:
  std::chrono::milliseconds patience_;
  std::mutex mutex_;
  std::condition_variable changed_;
  int shared_ = 0;
  int exclusiveWaiting_ = 0;
  bool exclusive_ = false;
};

} // namespace roofcheck::runtime
