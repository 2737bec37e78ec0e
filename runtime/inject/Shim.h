// The injected shim: joins what the CUPTI classes report into one launch record per kernel launch and
// writes them, as they complete, to this process's measured file. Never changes what the program does:
// every failure becomes one warning and the shim measures less.
#pragma once

#include "../LaunchSelector.h"
#include "../MeasuredOutput.h"
#include "../RunOptions.h"
#include "CuptiActivity.h"
#include "CuptiCallbacks.h"
#include "CuptiProfilerHost.h"
#include "CuptiRangeProfiler.h"
#include "Diagnostics.h"
#include "KernelInfoCache.h"
#include "NvmlClocks.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <thread>
#include <future>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace roofcheck::runtime {

class Shim final : public CallbackSink {
public:
  static Shim &instance();

  /// Idempotent: the first call sets everything up, later calls do nothing. Returns 1 (CUDA's "loaded").
  int initialize();
  /// At exit: hands over every buffered record, writes what is pending and the summary record.
  void finish();
  /// From a fatal signal: writes every launch whose record CUPTI still holds; no summary.
  void finishAfterCrash();

  void onLaunch(const LaunchCall &call) override;
  void onContextCreated(CUcontext context) override;
  void onContextDestroying(CUcontext context) override;
  void onNvtxPush(const char *message) override;
  void onNvtxPop() override;

private:
  Shim();
  struct Pending {
    Launch launch;
    bool awaitingMetrics = false;
    bool timed = false;
  };

  void onKernelRecord(const KernelRecord &record);
  // Activity records are copied out of CUPTI's buffers and handled on the shim's own thread, so that
  // CUPTI (and the program's launches waiting on it) never waits for serialisation.
  void queueRecord(KernelRecord record);
  void queueBatch();
  void processQueue();            ///< the handler thread
  void drainQueue(bool wait);     ///< handles what is queued on this thread
  void describeDevices();
  void configureCounters(CUcontext context, CUdevice device);
  int deviceOf(CUcontext context);
  void writeHeader();
  void emitLocked(const Launch &launch); ///< queues a finished launch; writeReady() writes it
  void writeReady();                     ///< serialises the queued launches (in parallel) and writes them
  void writePendingLocked(bool includeUntimed);

  Diagnostics diagnostics_;
  RunOptions options_;
  std::unique_ptr<LaunchSelector> selector_;
  KernelInfoCache kernels_;
  CuptiCallbacks callbacks_;
  CuptiActivity activity_;
  CuptiProfilerHost host_;
  CuptiRangeProfiler profiler_;
  std::unique_ptr<NvmlClocks> nvml_;
  std::future<void> nvmlReady_;
  bool callbacksOn_ = false;
  bool countersWanted_ = false;

  std::once_flag initialized_;
  std::once_flag devicesDescribed_;
  std::once_flag countersConfigured_;
  std::atomic<bool> finished_{false};
  std::atomic<int64_t> nextIndex_{0};
  std::atomic<int64_t> seen_{0};

  // While a launch is profiled no other launch may run in the process: its kernel would land in the
  // profiled range. Launches hold this shared, a profiled one exclusively, from API entry to exit.
  std::shared_timed_mutex launchGate_;

  std::mutex contextMutex_;
  std::unordered_map<CUcontext, int> contextDevice_;

  std::mutex queueMutex_;
  std::condition_variable queueChanged_;
  std::vector<KernelRecord> incoming_;
  std::deque<std::vector<KernelRecord>> queue_;
  int busy_ = 0;                  ///< batches being handled
  bool stopping_ = false;

  std::mutex writerMutex_; // writer_ and headerWritten_; taken before mutex_ when both are needed
  JsonLinesWriter writer_;
  bool headerWritten_ = false;

  std::mutex mutex_; // everything below
  MeasuredHeader header_;
  std::vector<Launch> ready_;
  std::unordered_map<uint32_t, Pending> pending_;
  std::unordered_map<uint32_t, std::vector<std::string>> graphNvtx_;
  int64_t recorded_ = 0;
  int64_t profiled_ = 0;
};

} // namespace roofcheck::runtime
