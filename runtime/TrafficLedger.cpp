#include "TrafficLedger.h"

#include <algorithm>
#include <limits>

namespace roofcheck::runtime {

void TrafficLedger::addSpan(uint64_t id, int device, KernelSpan span) { devices_[device].spans.emplace_back(id, span); }

void TrafficLedger::addSamples(int device, std::vector<PmSample> &&samples) {
  Device &d = devices_[device];
  for (PmSample &s : samples) {
    d.until = std::max(d.until, s.end);
    d.longestSample = std::max(d.longestSample, s.end > s.start ? s.end - s.start : 0);
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
  // A span is ready when every sample it overlaps has ended by horizon: those begin before the span ends
  // and last at most the longest sample.
  const uint64_t last = std::numeric_limits<uint64_t>::max();
  uint64_t readyBy = horizon == last ? last : (horizon > d.longestSample ? horizon - d.longestSample : 0);
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
  // Shares are computed with the waiting spans and the settled ones too: either may share a sample with a
  // ready span.
  std::vector<KernelSpan> spans;
  spans.reserve(d.spans.size() + d.settledSpans.size());
  for (const auto &[id, span] : d.spans)
    spans.push_back(span);
  spans.insert(spans.end(), d.settledSpans.begin(), d.settledSpans.end());
  std::vector<SpanTraffic> traffic = attributeSamples(d.samples, spans);

  std::vector<Settled> settled;
  std::vector<std::pair<uint64_t, KernelSpan>> waiting;
  for (size_t i = 0; i < d.spans.size(); ++i) {
    const auto &[id, span] = d.spans[i];
    if (span.end > readyBy) {
      waiting.push_back(d.spans[i]);
      continue;
    }
    SpanTraffic &t = traffic[i];
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
