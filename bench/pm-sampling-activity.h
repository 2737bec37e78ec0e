// The PM sampling probe's kernel activity records (CuptiActivity): their GPU spans, on CUPTI's clock. A unit
// of its own because the runtime's headers are C++20 and the probe's CUDA file is built as C++17.
#pragma once

#include "Diagnostics.h"
#include "PmAttribution.h"

#include <cstddef>
#include <memory>
#include <vector>

namespace roofcheck::runtime {

class ActivitySpans {
public:
  explicit ActivitySpans(Diagnostics &diagnostics);
  ~ActivitySpans();
  /// Kernel records on from now; false (with a warning in diagnostics) where CUPTI refuses.
  bool enable();
  /// The spans of the last count kernels to start, oldest first (fewer if fewer were recorded).
  std::vector<KernelSpan> last(size_t count);

private:
  struct Records;
  std::unique_ptr<Records> records_;
};

} // namespace roofcheck::runtime
