#include "NvtxRanges.h"

#include <algorithm>

namespace roofcheck::runtime {

namespace {
// This thread's pushed ranges: (start order, message).
thread_local std::vector<std::pair<uint64_t, std::string>> pushed;
} // namespace

void NvtxRanges::push(const char *message) { pushed.emplace_back(order_++, message ? message : ""); }

void NvtxRanges::pop() {
  if (!pushed.empty())
    pushed.pop_back();
}

void NvtxRanges::start(uint64_t id, const char *message) {
  if (id == 0)
    return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (started_.insert_or_assign(id, Range{order_++, message ? message : ""}).second)
    ++startedOpen_;
}

void NvtxRanges::end(uint64_t id) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (started_.erase(id))
    --startedOpen_;
}

std::vector<std::string> NvtxRanges::open() {
  std::vector<std::string> ranges;
  if (startedOpen_.load(std::memory_order_relaxed) == 0) {
    ranges.reserve(pushed.size());
    for (const auto &[order, message] : pushed)
      ranges.push_back(message);
    return ranges;
  }
  std::vector<std::pair<uint64_t, std::string>> all(pushed);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto &[id, range] : started_)
      all.emplace_back(range.order, range.message);
  }
  std::sort(all.begin(), all.end());
  for (auto &[order, message] : all)
    ranges.push_back(std::move(message));
  return ranges;
}

} // namespace roofcheck::runtime
