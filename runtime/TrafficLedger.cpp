#include "TrafficLedger.h"

#include <algorithm>
#include <limits>

namespace roofcheck::runtime {

void TrafficLedger::addSpan(uint64_t id, int device, KernelSpan span) { devices_[device].spans.emplace_back(id, span); }

void TrafficLedger::addSamples(int device, std::vector<PmSample> &&samples) {
  Device &d = devices_[device];
  for (PmSample &s : samples) {
    d.until = std::max(d.until, s.end);
    d.samples.push_back(std::move(s));
  }
  // Decoded oldest first, drain after drain: sorting is needed only where a decode overlapped another.
  auto byStart = [](const PmSample &a, const PmSample &b) { return a.start < b.start; };
  if (!std::is_sorted(d.samples.begin(), d.samples.end(), byStart))
    std::stable_sort(d.samples.begin(), d.samples.end(), byStart);
}

uint64_t TrafficLedger::sampledUntil(int device) const {
  auto it = devices_.find(device);
  return it == devices_.end() ? 0 : it->second.until;
}

std::vector<TrafficLedger::Settled> TrafficLedger::settle(int device, uint64_t horizon) {
  auto it = devices_.find(device);
  return it == devices_.end() ? std::vector<Settled>{} : settle(it->second, horizon);
}

std::vector<TrafficLedger::Settled> TrafficLedger::settleAll() {
  std::vector<Settled> all;
  for (auto &[device, d] : devices_) {
    std::vector<Settled> settled = settle(d, std::numeric_limits<uint64_t>::max());
    all.insert(all.end(), std::make_move_iterator(settled.begin()), std::make_move_iterator(settled.end()));
  }
  return all;
}

std::vector<TrafficLedger::Settled> TrafficLedger::settle(Device &d, uint64_t horizon) {
  // A span is ready when every sample it overlaps has ended by horizon: samples follow one another, so
  // that is when its end falls before the last sample boundary by horizon. (Not by horizon less the
  // longest sample: the first sample of a run can span the time before sampling started, 0.25 s on an
  // H100, and every span then waited that long.)
  const uint64_t last = std::numeric_limits<uint64_t>::max();
  uint64_t readyBy = horizon == last ? last : 0;
  if (horizon != last)
    for (const PmSample &s : d.samples)
      if (s.end <= horizon)
        readyBy = std::max(readyBy, s.end);
  std::vector<Settled> settled;
  if (std::any_of(d.spans.begin(), d.spans.end(), [&](const auto &s) { return s.second.end <= readyBy; }))
    settled = settleReady(d, readyBy);
  // Samples that end before every waiting span starts and before the ready horizon serve no one any more,
  // nor do settled spans that end before every sample still held.
  uint64_t earliestWaiting = last;
  for (const auto &[id, span] : d.spans)
    earliestWaiting = std::min(earliestWaiting, span.start);
  uint64_t cut = std::min(readyBy, earliestWaiting);
  std::erase_if(d.samples, [&](const PmSample &s) { return s.end <= cut; });
  uint64_t firstHeld = d.samples.empty() ? last : d.samples.front().start;
  std::erase_if(d.settledSpans, [&](const KernelSpan &s) { return s.end <= firstHeld; });
  return settled;
}

std::vector<TrafficLedger::Settled> TrafficLedger::settleReady(Device &d, uint64_t readyBy) {
  // Shares are computed over the samples a ready span can overlap (those that start before readyBy), with
  // every span that overlaps them, waiting or settled: either may share a sample with a ready span. Later
  // samples and spans are left to the rounds that settle them: over all of them, each round redid what
  // the next would (on a 0.5 s run of 104,000 launches the handler thread then held the ledger for ~10 ms a
  // round and the decoder fell behind).
  auto windowEnd = std::partition_point(d.samples.begin(), d.samples.end(),
                                        [&](const PmSample &s) { return s.start < readyBy; });
  uint64_t reach = 0; // spans that start before the window's samples end may overlap them
  for (auto s = d.samples.begin(); s != windowEnd; ++s)
    reach = std::max(reach, s->end);
  std::vector<KernelSpan> spans;
  std::vector<size_t> attributedAs(d.spans.size()); // d.spans[i] is spans[attributedAs[i]] where it can overlap
  for (size_t i = 0; i < d.spans.size(); ++i)
    if (d.spans[i].second.start < reach) {
      attributedAs[i] = spans.size();
      spans.push_back(d.spans[i].second);
    }
  for (const KernelSpan &span : d.settledSpans)
    if (span.start < reach)
      spans.push_back(span);
  std::vector<SpanTraffic> traffic = attributeSamples(d.samples.data(), size_t(windowEnd - d.samples.begin()), spans);

  std::vector<Settled> settled;
  std::vector<std::pair<uint64_t, KernelSpan>> waiting;
  for (size_t i = 0; i < d.spans.size(); ++i) {
    const auto &[id, span] = d.spans[i];
    if (span.end > readyBy) {
      waiting.push_back(d.spans[i]);
      continue;
    }
    SpanTraffic &t = traffic[attributedAs[i]]; // a ready span starts before readyBy, so it is attributed
    uint64_t length = span.end > span.start ? span.end - span.start : 0;
    if (length == 0 || static_cast<double>(t.coveredNs) < CoveredShare * static_cast<double>(length))
      t.values.clear();
    settled.push_back({id, std::move(t)});
    d.settledSpans.push_back(span);
  }
  d.spans = std::move(waiting);
  return settled;
}

size_t TrafficLedger::waitingSpans() const {
  size_t n = 0;
  for (const auto &[device, d] : devices_)
    n += d.spans.size();
  return n;
}

size_t TrafficLedger::heldSamples() const {
  size_t n = 0;
  for (const auto &[device, d] : devices_)
    n += d.samples.size();
  return n;
}

} // namespace roofcheck::runtime
