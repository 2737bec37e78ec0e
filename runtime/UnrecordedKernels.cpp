#include "UnrecordedKernels.h"

#include <algorithm>

namespace roofcheck::runtime {

uint64_t UnrecordedKernels::takeIn(uint64_t at, size_t launches) {
  uint64_t notBefore = lastReading_;
  if (launches != 0)
    unrecorded_[notBefore] += launches;
  lastReading_ = std::max(lastReading_, at);
  return notBefore;
}

void UnrecordedKernels::recorded(uint64_t notBefore) {
  auto it = unrecorded_.find(notBefore);
  if (it != unrecorded_.end() && --it->second == 0)
    unrecorded_.erase(it);
}

uint64_t UnrecordedKernels::recordedBefore() const {
  if (graphs_.load())
    return 0;
  return unrecorded_.empty() ? lastReading_ : std::min(lastReading_, unrecorded_.begin()->first);
}

} // namespace roofcheck::runtime
