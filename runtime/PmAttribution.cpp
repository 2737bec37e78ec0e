#include "PmAttribution.h"

#include <algorithm>
#include <cstdlib>
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

namespace {
/// The traffic of the samples, shifted by offset, that falls inside the union of the spans (each sample's
/// traffic taken as spread evenly over it).
double trafficInside(const std::vector<PmSample> &samples, const std::vector<double> &traffic,
                     const std::vector<KernelSpan> &merged, int64_t offset) {
  double inside = 0;
  for (size_t i = 0; i < samples.size(); ++i) {
    if (traffic[i] == 0 || samples[i].end <= samples[i].start)
      continue;
    int64_t start = static_cast<int64_t>(samples[i].start) + offset, end = static_cast<int64_t>(samples[i].end) + offset;
    auto first = std::lower_bound(merged.begin(), merged.end(), start,
                                  [](const KernelSpan &s, int64_t t) { return static_cast<int64_t>(s.end) <= t; });
    int64_t covered = 0;
    for (auto s = first; s != merged.end() && static_cast<int64_t>(s->start) < end; ++s)
      covered += std::min<int64_t>(end, s->end) - std::max<int64_t>(start, s->start);
    inside += traffic[i] * static_cast<double>(covered) / static_cast<double>(end - start);
  }
  return inside;
}
} // namespace

int64_t estimateClockOffset(const std::vector<PmSample> &samples, const std::vector<KernelSpan> &spans,
                            int64_t maxOffsetNs) {
  std::vector<KernelSpan> merged(spans);
  std::sort(merged.begin(), merged.end(), [](const KernelSpan &a, const KernelSpan &b) { return a.start < b.start; });
  std::vector<KernelSpan> unionOfSpans;
  for (const KernelSpan &s : merged)
    if (!unionOfSpans.empty() && s.start <= unionOfSpans.back().end)
      unionOfSpans.back().end = std::max(unionOfSpans.back().end, s.end);
    else
      unionOfSpans.push_back(s);
  std::vector<double> traffic;
  std::vector<uint64_t> lengths;
  for (const PmSample &s : samples) {
    double sum = 0;
    for (const auto &[name, value] : s.values)
      sum += value;
    traffic.push_back(sum);
    if (s.end > s.start)
      lengths.push_back(s.end - s.start);
  }
  if (unionOfSpans.empty() || lengths.empty() || std::all_of(traffic.begin(), traffic.end(), [](double t) { return t == 0; }))
    return 0;
  // A coarse search in steps of a typical sample's length, then a fine one around the best coarse step.
  std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
  int64_t step = std::max<int64_t>(1, static_cast<int64_t>(lengths[lengths.size() / 2]));
  auto bestIn = [&](int64_t from, int64_t to, int64_t by) {
    int64_t best = 0;
    double most = -1;
    for (int64_t offset = from; offset <= to; offset += by)
      if (double inside = trafficInside(samples, traffic, unionOfSpans, offset);
          inside > most || (inside == most && std::llabs(offset) < std::llabs(best)))
        most = inside, best = offset;
    return best;
  };
  int64_t coarse = bestIn(-maxOffsetNs / step * step, maxOffsetNs / step * step, step);
  int64_t fine = std::max<int64_t>(1, step / 20);
  return bestIn(coarse - step, coarse + step, fine);
}

} // namespace roofcheck::runtime
