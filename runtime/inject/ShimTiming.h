// Where the shim's own time goes, for tuning its cost: with ROOFCHECK_SHIM_TIMING=1 in the program's
// environment the shim adds up the time of each phase and prints one line on stderr at exit. Off, each
// phase costs one predictable branch and no clock read.
#pragma once

#include <atomic>
#include <cstdint>
#include <ctime>
#include <string>

namespace roofcheck::runtime {

class ShimTiming {
public:
  enum Phase {
    Initialize,    ///< InitializeInjection
    Describe,      ///< devices and NVML clocks for the header (off the program's threads)
    Configure,     ///< a new context's counter configurations, in the driver's callback on the program's thread
    LaunchSkipped, ///< a launch callback for a launch the filters pass over
    LaunchKept,    ///< a launch callback for a recorded launch
    LaunchExit,    ///< the exit callback of a launch
    Match,         ///< joining activity records with their launches (handler thread)
    Serialise,     ///< launch records to JSON text
    Write,         ///< write(2) of the batches
    FinishFlush,   ///< at exit: CUPTI hands over its buffers
    FinishDrain,   ///< at exit: the queued records handled, the handler thread waited for
    FinishWrite,   ///< at exit: the last records and the summary written
    // A profiled launch, in its callbacks (within launch-kept and launch-exit):
    ProfileBegin,  ///< the range profiler enabled, configured and started
    ProfileReplay, ///< from there to the exit callback: the launch with its replay passes
    ProfileEnd,    ///< the range profiler stopped, its data decoded and evaluated
    ProfileFlush,  ///< CUPTI's activity buffers flushed after it
    PhaseCount
  };

  void enable(bool on) { on_ = on; }
  bool enabled() const { return on_; }
  /// Nanoseconds on the monotonic clock; 0 when off.
  int64_t start() const {
    if (!on_)
      return 0;
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000LL + t.tv_nsec;
  }
  void stop(Phase phase, int64_t started) {
    if (!on_)
      return;
    total_[phase].fetch_add(start() - started, std::memory_order_relaxed);
    count_[phase].fetch_add(1, std::memory_order_relaxed);
  }
  /// "initialize 1x 12.3ms, ..." for the phases that ran.
  std::string summary() const;

private:
  bool on_ = false;
  std::atomic<int64_t> total_[PhaseCount]{};
  std::atomic<int64_t> count_[PhaseCount]{};
};

} // namespace roofcheck::runtime
