#include "PmAttribution.h"

#include <algorithm>
#include <numeric>

namespace roofcheck::runtime {

namespace {
uint64_t overlap(uint64_t aStart, uint64_t aEnd, uint64_t bStart, uint64_t bEnd) {
  uint64_t start = std::max(aStart, bStart), end = std::min(aEnd, bEnd);
  return end > start ? end - start : 0;
}
} // namespace

std::vector<SpanTraffic> attributeSamples(const std::vector<PmSample> &samples, const std::vector<KernelSpan> &spans) {
  std::vector<SpanTraffic> traffic(spans.size());
  std::vector<size_t> byStart(spans.size());
  std::iota(byStart.begin(), byStart.end(), 0);
  std::sort(byStart.begin(), byStart.end(), [&](size_t a, size_t b) { return spans[a].start < spans[b].start; });
  std::vector<size_t> bySample(samples.size());
  std::iota(bySample.begin(), bySample.end(), 0);
  std::sort(bySample.begin(), bySample.end(), [&](size_t a, size_t b) { return samples[a].start < samples[b].start; });

  // Spans that have started before the current sample ends and may still overlap it: samples come in start
  // order, so a span that ended before one sample starts overlaps no later one.
  std::vector<size_t> open;
  size_t next = 0;
  std::vector<std::pair<size_t, uint64_t>> overlapping;
  for (size_t s : bySample) {
    const PmSample &sample = samples[s];
    for (; next < byStart.size() && spans[byStart[next]].start < sample.end; ++next)
      open.push_back(byStart[next]);
    std::erase_if(open, [&](size_t k) { return spans[k].end <= sample.start; });
    overlapping.clear();
    uint64_t total = 0;
    for (size_t k : open)
      if (uint64_t ns = overlap(sample.start, sample.end, spans[k].start, spans[k].end)) {
        overlapping.emplace_back(k, ns);
        total += ns;
      }
    for (const auto &[k, ns] : overlapping) {
      SpanTraffic &t = traffic[k];
      t.coveredNs += ns;
      t.shared = t.shared || overlapping.size() > 1;
      double share = static_cast<double>(ns) / static_cast<double>(total);
      for (const auto &[name, value] : sample.values)
        t.values[name] += value * share;
    }
  }
  return traffic;
}

} // namespace roofcheck::runtime
