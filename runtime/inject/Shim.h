// The injected shim: joins what the CUPTI classes report into one launch record per kernel launch and
// writes them, as they complete, to this process's measured file. Never changes what the program does:
// every failure becomes one warning and the shim measures less.
#pragma once

#include "../LaunchGate.h"
#include "../LaunchSelector.h"
#include "../MeasuredOutput.h"
#include "../NvtxRanges.h"
#include "../ProfilingWatch.h"
#include "../RunOptions.h"
#include "CounterConfigurations.h"
#include "CuptiActivity.h"
#include "CuptiCallbacks.h"
#include "CuptiProfilerHost.h"
#include "CuptiRangeProfiler.h"
#include "Diagnostics.h"
#include "KernelInfoCache.h"
#include "NvmlClocks.h"
#include "SampledTraffic.h"
#include "roofcheck/MeasuredRecords.h"
#include "ShimTiming.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace roofcheck::runtime {

class Shim final : public CallbackSink {
public:
  static Shim &instance();

  /// Idempotent: the first call sets everything up, later calls do nothing. Returns 1 (CUDA's "loaded").
  int initialize();
  /// At exit: hands over every buffered record, writes what is pending and the summary record.
  void finish() { writeOut(true); }
  /// At exit, before the CUDA runtime's teardown: sampled traffic's last samples decoded.
  void stopSampling() { traffic_.stopAll(); }
  /// When a signal ends the program (SignalFlush.h, on a thread of its own): writes every completed launch
  /// whose record CUPTI or the shim still holds; no summary.
  void finishAfterSignal() { writeOut(false); }

  void onLaunch(const LaunchCall &call) override;
  void onContextCreated(CUcontext context) override;
  void onContextDestroying(CUcontext context) override;
  void onNvtxPush(const char *message) override;
  void onNvtxPop() override;
  void onNvtxStart(uint64_t id, const char *message) override;
  void onNvtxEnd(uint64_t id) override;

private:
  Shim();
  struct Pending {
    uint32_t correlationId = 0;
    Launch launch; ///< its names and arguments are filled in on the handler thread, from the two below
    std::shared_ptr<KernelInfo> kernel;
    std::vector<uint8_t> argumentBytes;
    bool awaitingMetrics = false;
    bool timed = false;
  };
  /// The counters of a profiled launch (nullopt: collecting them failed).
  struct MetricsArrival {
    uint32_t correlationId = 0;
    std::optional<std::map<std::string, double>> metrics;
    std::optional<int64_t> passes; ///< of the counter set that counted them
  };

  // The program's launch callbacks only hand what they learn to the handler (arrivals, under their own
  // short lock); joining launches with their activity records, serialising and writing happen on the
  // handler thread (and at exit), so a launch never waits for those or for the header.
  void enterLaunch(const LaunchCall &call);
  void exitLaunch(const LaunchCall &call);
  void holdGate(bool exclusive);
  bool beginProfiling(const LaunchCall &call, const std::string &kernel, int64_t index, CounterSet counters,
                      Launch &launch);
  void queueBatch(std::vector<KernelRecord> &&records);
  void wakeHandler();
  void processQueue();           ///< the handler thread
  void drainQueue();             ///< handles what is queued on this thread (at exit, after a signal)
  void handleBatches(std::deque<std::vector<KernelRecord>> &batches);
  void absorbArrivalsLocked();
  void onKernelRecordLocked(const KernelRecord &record);
  /// A launch's registers per thread before (or without) its activity record.
  int registersOf(const KernelInfo &kernel) const;
  void describeDevices();
  void configureCounters(CUcontext context, CUdevice device);
  int deviceOf(CUcontext context);
  void writeHeader();
  void emitLocked(Launch &&launch); ///< queues a finished launch; writeReady() writes it
  /// A launch whose kernel ran (record is its activity record): emitted once its sampled traffic is settled.
  void completeLocked(Launch &&launch, const KernelRecord &record);
  /// Emits the launches whose sampled traffic is settled (all of them: at the end).
  void settleTrafficLocked(bool all);
  void writeReady();                ///< serialises the queued launches and writes them in one go
  void writePendingLocked(bool includeUntimed);
  void writeOut(bool atExit); ///< finish() and finishAfterSignal()
  void awaitKernelRecords();  ///< after a signal: the records of finished kernels, within 100 ms

  Diagnostics diagnostics_;
  RunOptions options_;
  std::unique_ptr<LaunchSelector> selector_;
  KernelInfoCache kernels_;
  CuptiCallbacks callbacks_;
  CuptiActivity activity_;
  CuptiRangeProfiler profiler_;
  ShimTiming timing_;
  std::unique_ptr<NvmlClocks> nvml_;
  bool callbacksOn_ = false;
  bool countersWanted_ = false;
  bool sampledTraffic_ = false; ///< PM sampling gives launches their DRAM bytes (--sampled-traffic, time mode)

  std::once_flag initialized_;
  std::once_flag describeStarted_;
  std::once_flag samplingStopRegistered_;
  CounterConfigurations counters_{diagnostics_};
  SampledTraffic traffic_{diagnostics_, counters_};
  std::atomic<bool> finished_{false};
  std::mutex writeOutMutex_; // held by writeOut: the exit's and a signal's are one after the other
  std::atomic<int64_t> nextIndex_{0};
  std::atomic<int64_t> seen_{0};

  // While a launch is profiled no other launch may run in the process: its kernel would land in the
  // profiled range. Launches hold this shared, a profiled one exclusively, from API entry to exit; a launch
  // that cannot pass within gateWaitSeconds goes on (unprofiled, or unheld). 0.5 s was too short on the
  // H200 for a profiled launch that switches counter sets (threads-streams.test lost one launch's counters).
  static constexpr int gateWaitSeconds = 2;
  LaunchGate launchGate_{std::chrono::seconds(gateWaitSeconds)};
  std::atomic<int64_t> unheldLaunches_{0}; ///< launches that went on without waiting for a profiled one

  // A launch that stays long in a step of its profiling is reported while it lasts, and one whose counters
  // took too long turns counters off for the rest of the run.
  ProfilingWatch watch_;

  std::mutex contextMutex_;
  std::unordered_map<CUcontext, int> contextDevice_;

  NvtxRanges nvtx_;

  std::mutex arrivalsMutex_; // the three below: what launch callbacks hand to the handler
  std::vector<Pending> arrivedLaunches_;
  std::vector<MetricsArrival> arrivedMetrics_;
  std::vector<std::pair<uint32_t, std::vector<std::string>>> arrivedGraphRanges_;

  std::mutex queueMutex_;
  std::condition_variable queueChanged_;
  std::deque<std::vector<KernelRecord>> queue_;
  bool arrivalsWaiting_ = false;  ///< a profiled launch finished: its record can be written
  int busy_ = 0;                  ///< batches being handled
  bool stopping_ = false;

  std::mutex describeMutex_; // devicesDescribed_ only
  std::shared_future<void> devicesDescribed_; ///< the header's devices and clocks, asked off the program's threads

  std::mutex writerMutex_; // writer_, headerWritten_; taken before mutex_ when both are needed
  JsonLinesWriter writer_;
  MeasuredRecordWriter records_; ///< only writeReady() writes launches, on one thread at a time
  std::atomic<bool> headerWritten_{false};

  std::mutex mutex_; // everything below; never taken by a launch callback
  MeasuredHeader header_;
  std::vector<Launch> ready_;
  std::unordered_map<uint32_t, Pending> pending_;
  std::unordered_map<uint32_t, std::vector<std::string>> graphNvtx_;
  std::unordered_map<std::string, int> activityRegisters_; ///< by mangled name, from activity records
  std::unordered_map<uint64_t, Launch> awaitingTraffic_;    ///< ran, by their span's id in traffic_
  uint64_t nextSpanId_ = 0;
  int64_t recorded_ = 0;
  int64_t profiled_ = 0;
};

} // namespace roofcheck::runtime
