#include "pm-sampling-activity.h"

#include "CuptiActivity.h"

#include <algorithm>
#include <mutex>

namespace roofcheck::runtime {

struct ActivitySpans::Records {
  explicit Records(Diagnostics &diagnostics)
      : activity(diagnostics, [this](std::vector<KernelRecord> &&batch) {
          std::lock_guard<std::mutex> lock(mutex);
          for (const KernelRecord &r : batch)
            spans.push_back({r.start, r.end});
        }) {}
  std::mutex mutex;
  std::vector<KernelSpan> spans;
  CuptiActivity activity;
};

ActivitySpans::ActivitySpans(Diagnostics &diagnostics) : records_(std::make_unique<Records>(diagnostics)) {}
ActivitySpans::~ActivitySpans() = default;

bool ActivitySpans::enable() { return records_->activity.enable(0); }

std::vector<KernelSpan> ActivitySpans::last(size_t count) {
  records_->activity.flushAll();
  std::lock_guard<std::mutex> lock(records_->mutex);
  std::vector<KernelSpan> spans = records_->spans;
  std::sort(spans.begin(), spans.end(), [](const KernelSpan &a, const KernelSpan &b) { return a.start < b.start; });
  return std::vector<KernelSpan>(spans.end() - std::min(count, spans.size()), spans.end());
}

} // namespace roofcheck::runtime
