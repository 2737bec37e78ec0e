// Which launches' sampled traffic is settled. Kernel spans (from activity records, every ~100 ms) and PM
// samples (decoded every ~10 ms) arrive on their own schedules, and a sample can be split among the kernels
// that overlap it only once all of them are known. A span is settled once its samples are decoded and the
// records of every kernel that could share them have had time to arrive (the caller's horizon); the samples
// no waiting span can need are then dropped, so memory stays bounded however long the program runs.
#pragma once

#include "PmAttribution.h"

#include <cstdint>
#include <map>
#include <vector>

namespace roofcheck::runtime {

class TrafficLedger {
public:
  /// A span's share counts only where samples cover at least this much of it: less means samples were lost
  /// (sampling paused for a replayed launch, an overflow) or the span came after its samples were dropped.
  static constexpr double CoveredShare = 0.9;

  struct Settled {
    uint64_t id = 0;     ///< the caller's, from addSpan
    SpanTraffic traffic; ///< values empty where the samples did not cover the span (CoveredShare)
  };

  void addSpan(uint64_t id, int device, KernelSpan span);
  void addSamples(int device, std::vector<PmSample> &&samples);
  /// The end of the latest sample of device (0: none yet).
  uint64_t sampledUntil(int device) const;
  /// The spans of device that end, with every sample they can overlap, by horizon; and the samples no
  /// later span can overlap go (spans still to come are taken to start after horizon).
  std::vector<Settled> settle(int device, uint64_t horizon);
  /// Every span, with whatever samples there are (at the end of the run).
  std::vector<Settled> settleAll();
  size_t waitingSpans() const;
  size_t heldSamples() const;

private:
  struct Device {
    std::vector<std::pair<uint64_t, KernelSpan>> spans;
    /// Settled spans that overlap a sample still held: a waiting span shares that sample with them.
    std::vector<KernelSpan> settledSpans;
    std::vector<PmSample> samples; ///< in start order
    uint64_t until = 0;
  };
  std::vector<Settled> settle(Device &d, uint64_t horizon);
  std::vector<Settled> settleReady(Device &d, uint64_t readyBy);

  std::map<int, Device> devices_;
};

} // namespace roofcheck::runtime
