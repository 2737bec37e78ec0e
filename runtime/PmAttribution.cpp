#include "PmAttribution.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <set>
#include <span>

namespace roofcheck::runtime {

namespace {
uint64_t overlap(uint64_t aStart, uint64_t aEnd, uint64_t bStart, uint64_t bEnd) {
  uint64_t start = std::max(aStart, bStart), end = std::min(aEnd, bEnd);
  return end > start ? end - start : 0;
}

/// Rounds of the rate estimate at most; it stops earlier once no kernel's rate moves by more than
/// rateTolerance of itself.
constexpr int rateRounds = 50;
constexpr double rateTolerance = 1e-6;

/// Each kernel's share of one counter: the overlap split weighted by each kernel's rate of that counter,
/// the rates those shares make (a kernel's bytes over the time samples cover it), round after round from
/// equal rates. A kernel alone in a sample fixes its own rate there, so a sample it shares gives it that
/// rate's worth and the rest to its neighbour; kernels that share every sample keep the overlap split.
/// (The expectation-maximisation of Poisson counts over known intervals, as Richardson-Lucy deconvolution.)
std::vector<double> splitByRate(const std::vector<double> &values, const std::vector<size_t> &firstLink,
                                const std::vector<std::pair<size_t, uint64_t>> &links,
                                const std::vector<uint64_t> &coveredNs) {
  size_t spans = coveredNs.size();
  std::vector<double> rate(spans, 1.0), got(spans);
  for (int round = 0; round < rateRounds; ++round) {
    std::fill(got.begin(), got.end(), 0.0);
    for (size_t s = 0; s + 1 < firstLink.size(); ++s) {
      if (values[s] == 0)
        continue;
      double total = 0;
      for (size_t l = firstLink[s]; l < firstLink[s + 1]; ++l)
        total += rate[links[l].first] * static_cast<double>(links[l].second);
      bool byOverlap = total <= 0; // every kernel in it had counted nothing elsewhere
      if (byOverlap)
        for (size_t l = firstLink[s]; l < firstLink[s + 1]; ++l)
          total += static_cast<double>(links[l].second);
      for (size_t l = firstLink[s]; l < firstLink[s + 1]; ++l) {
        auto [k, ns] = links[l];
        double weight = (byOverlap ? 1.0 : rate[k]) * static_cast<double>(ns);
        got[k] += values[s] * weight / total;
      }
    }
    bool settled = true;
    for (size_t k = 0; k < spans; ++k) {
      if (coveredNs[k] == 0)
        continue;
      double next = got[k] / static_cast<double>(coveredNs[k]);
      settled = settled && std::abs(next - rate[k]) <= rateTolerance * std::max(rate[k], next);
      rate[k] = next;
    }
    if (settled)
      break;
  }
  return got;
}
} // namespace

std::vector<SpanTraffic> attributeSamples(const PmSample *first, size_t count, const std::vector<KernelSpan> &spans) {
  std::span<const PmSample> samples(first, count);
  std::vector<SpanTraffic> traffic(spans.size());
  std::vector<size_t> byStart(spans.size());
  std::iota(byStart.begin(), byStart.end(), 0);
  std::sort(byStart.begin(), byStart.end(), [&](size_t a, size_t b) { return spans[a].start < spans[b].start; });
  std::vector<size_t> bySample(samples.size());
  std::iota(bySample.begin(), bySample.end(), 0);
  std::sort(bySample.begin(), bySample.end(), [&](size_t a, size_t b) { return samples[a].start < samples[b].start; });

  // Which spans each sample overlaps, by how much: the links of overlapping[i] are links[firstLink[i]] up to
  // links[firstLink[i + 1]]. Spans that have started before the current sample ends may still overlap it:
  // samples come in start order, so a span that ended before one sample starts overlaps no later one.
  std::vector<size_t> overlapping, firstLink{0};
  std::vector<std::pair<size_t, uint64_t>> links;
  std::vector<size_t> open;
  size_t next = 0;
  for (size_t s : bySample) {
    const PmSample &sample = samples[s];
    for (; next < byStart.size() && spans[byStart[next]].start < sample.end; ++next)
      open.push_back(byStart[next]);
    std::erase_if(open, [&](size_t k) { return spans[k].end <= sample.start; });
    size_t first = links.size();
    for (size_t k : open)
      if (uint64_t ns = overlap(sample.start, sample.end, spans[k].start, spans[k].end))
        links.emplace_back(k, ns);
    if (links.size() == first)
      continue;
    for (size_t l = first; l < links.size(); ++l) {
      traffic[links[l].first].coveredNs += links[l].second;
      traffic[links[l].first].shared = traffic[links[l].first].shared || links.size() - first > 1;
    }
    overlapping.push_back(s);
    firstLink.push_back(links.size());
  }

  std::vector<uint64_t> coveredNs(spans.size());
  for (size_t k = 0; k < spans.size(); ++k)
    coveredNs[k] = traffic[k].coveredNs;
  std::set<std::string> counters;
  for (size_t s : overlapping)
    for (const auto &[name, value] : samples[s].values)
      counters.insert(name);
  for (const std::string &name : counters) {
    std::vector<double> values(overlapping.size());
    std::vector<bool> counted(spans.size());
    for (size_t i = 0; i < overlapping.size(); ++i)
      if (auto it = samples[overlapping[i]].values.find(name); it != samples[overlapping[i]].values.end()) {
        values[i] = it->second;
        for (size_t l = firstLink[i]; l < firstLink[i + 1]; ++l)
          counted[links[l].first] = true;
      }
    std::vector<double> got = splitByRate(values, firstLink, links, coveredNs);
    for (size_t k = 0; k < spans.size(); ++k)
      if (counted[k])
        traffic[k].values[name] = got[k];
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
