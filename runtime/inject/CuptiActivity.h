// The one class that talks to CUPTI's activity API: concurrent-kernel records into buffers it owns, with
// a cap on how many are out at once (records CUPTI cannot place are dropped, counted and reported).
#pragma once

#include "Diagnostics.h"

#include "roofcheck/Contracts.h"

#include <cupti.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace roofcheck::runtime {

/// What a kernel activity record says about one kernel execution.
struct KernelRecord {
  uint32_t correlationId = 0;
  uint64_t start = 0, end = 0; ///< ns
  uint32_t deviceId = 0, contextId = 0, streamId = 0;
  Dim3 grid{1, 1, 1}, block{1, 1, 1}, cluster{1, 1, 1};
  int registers = 0;
  int64_t sharedStatic = 0, sharedDynamic = 0;
  std::string name;           ///< mangled
  uint32_t graphId = 0;       ///< non-zero for a kernel launched as part of a graph
};

class CuptiActivity {
public:
  using Sink = std::function<void(std::vector<KernelRecord> &&)>;

  /// sink gets the kernel records of each completed buffer at once. bufferBytes per buffer (about 3,000
  /// kernel records a MiB), at most maxBuffers outstanding (memory cap = their product). CUPTI hands a
  /// buffer over only once it is full and all its kernels ended (or the program is idle, or at a flush), so
  /// small buffers keep what a SIGKILL can lose small: 64 KiB hold about 190 launches.
  CuptiActivity(Diagnostics &diagnostics, Sink sink, size_t bufferBytes = 64 << 10, int maxBuffers = 2048)
      : diagnostics_(diagnostics), sink_(std::move(sink)), bufferBytes_(bufferBytes), maxBuffers_(maxBuffers) {}

  /// Registers the buffer callbacks and enables kernel records; flushPeriodMs > 0 asks CUPTI to hand
  /// over partly filled buffers that often, so records reach the file while the program runs.
  bool enable(uint32_t flushPeriodMs);
  /// Hands every buffered record to the sink (forced: also records of kernels still queued).
  void flushAll();
  /// Hands over every buffer whose records are all complete, full or not: CUPTI's own flush period hands
  /// over only full ones, and what CUPTI still holds is lost when the program is killed.
  void flushCompleted();

  int64_t droppedRecords() const { return dropped_.load(); }

private:
  static void CUPTIAPI requestBuffer(uint8_t **buffer, size_t *size, size_t *maxNumRecords);
  static void CUPTIAPI completeBuffer(CUcontext context, uint32_t streamId, uint8_t *buffer, size_t size,
                                      size_t validSize);

  Diagnostics &diagnostics_;
  Sink sink_;
  size_t bufferBytes_;
  int maxBuffers_;
  std::atomic<int> outstanding_{0};
  std::atomic<int64_t> dropped_{0};
  bool enabled_ = false;
};

} // namespace roofcheck::runtime
