// Up to what GPU time every recorded kernel's activity record has arrived: sampled traffic can be split
// among the kernels that overlap a sample only once all of them are known. The launch callback hands a
// launch over before its kernel is queued, and the handler takes launches in round by round, reading
// CUPTI's clock (that of the activity records and of PM samples) before each round: a launch taken in at a
// round was made after the previous round's reading, so its kernel starts after it. Every kernel that
// starts before the oldest such bound of a launch still without its record, and before the last reading,
// is known. A graph's kernels come as activity records alone, with no launch taken in for each: once a
// graph is launched the bound is unknown (the caller falls back on waiting a fixed time).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>

namespace roofcheck::runtime {

class UnrecordedKernels {
public:
  /// A round takes in launches (handed over since the last round), having read the clock at `at` before
  /// taking them. Returns the bound on their kernels' start times, which each gives back through recorded()
  /// when its activity record comes.
  uint64_t takeIn(uint64_t at, size_t launches);
  /// A launch taken in with that bound has its record.
  void recorded(uint64_t notBefore);
  /// A launch of a graph was made (any thread).
  void graphLaunched() { graphs_.store(true); }
  /// Every recorded kernel that starts before this has its record; 0 where that is not known.
  uint64_t recordedBefore() const;

private:
  uint64_t lastReading_ = 0;
  std::map<uint64_t, size_t> unrecorded_; ///< launches without their record, by bound
  std::atomic<bool> graphs_{false};
};

} // namespace roofcheck::runtime
