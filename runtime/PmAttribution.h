// What PM sampling counted during each kernel: the device's counters come in samples of fixed GPU-time
// intervals, kernels run between a start and an end on the same clock, and a kernel's traffic is the part
// of each sample it overlaps. A sample that overlaps several kernels (back-to-back short ones, or
// concurrent ones on other streams) is split among them by overlap and by each kernel's own rate of that
// counter, as the samples it has alone show it, and each is flagged: its bytes are an estimate, not a count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace roofcheck::runtime {

/// One sampling interval: what the counters counted between two GPU timestamps (ns).
struct PmSample {
  uint64_t start = 0, end = 0;
  std::map<std::string, double> values;
};

/// A kernel's execution, on the samples' clock.
struct KernelSpan {
  uint64_t start = 0, end = 0;
};

struct SpanTraffic {
  std::map<std::string, double> values; ///< per counter, the span's share of the samples it overlaps
  bool shared = false;                   ///< a sample it overlaps overlaps another span too
  uint64_t coveredNs = 0;                ///< of the span, the time samples cover (less: samples were lost)
};

/// Each span's share of the samples, in the order of spans. A sample's values go to the spans it overlaps
/// in proportion to each one's overlap times its rate of that counter (all of them to a lone span, idle
/// time in the sample counting for nothing: nothing but kernels moves data); the rates are the ones the
/// shares make, found by iterating from equal rates, so a kernel that reads nothing in the samples it has
/// alone takes no reads from those it shares. Samples that overlap no span are nobody's.
std::vector<SpanTraffic> attributeSamples(const PmSample *samples, size_t count, const std::vector<KernelSpan> &spans);
inline std::vector<SpanTraffic> attributeSamples(const std::vector<PmSample> &samples,
                                                 const std::vector<KernelSpan> &spans) {
  return attributeSamples(samples.data(), samples.size(), spans);
}

/// What to add to the samples' timestamps to put them on the spans' clock: the shift within
/// +-maxOffsetNs that puts the most sampled traffic inside the spans. The two clocks need not agree (on the
/// H200 the samples were 14 us to 0.46 ms off %globaltimer, process by process, and within 2 us of CUPTI's
/// kernel activity records), and only kernels move data.
/// 0 where no sample carries traffic or there are no spans.
int64_t estimateClockOffset(const std::vector<PmSample> &samples, const std::vector<KernelSpan> &spans,
                            int64_t maxOffsetNs);

} // namespace roofcheck::runtime
