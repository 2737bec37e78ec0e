// Joins what the launch callbacks hand over (launches, the counters of profiled ones, the NVTX ranges of
// graph launches) with CUPTI's kernel activity records into one launch record per kernel launch, and writes
// the records as they complete. The callbacks only hand things over, under a short lock of their own;
// joining, serialising and writing happen on the handler thread (and at the end), so a launch never waits
// for those or for the header.
#pragma once

#include "../LaunchSelector.h"
#include "../MeasuredOutput.h"
#include "../RunOptions.h"
#include "../UnrecordedKernels.h"
#include "CounterSessions.h"
#include "CuptiActivity.h"
#include "Diagnostics.h"
#include "KernelInfoCache.h"
#include "MeasuredFileWriter.h"
#include "SampledTraffic.h"
#include "ShimTiming.h"

#include "roofcheck/Contracts.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace roofcheck::runtime {

/// A launch the callbacks saw, until its activity record (and its counters, when profiled) joins it.
struct PendingLaunch {
  uint32_t correlationId = 0;
  Launch launch; ///< its names and arguments are filled in on the handler thread, from the two below
  std::shared_ptr<KernelInfo> kernel;
  std::vector<uint8_t> argumentBytes;
  bool awaitingMetrics = false;
  bool timed = false;
  uint64_t notBefore = 0; ///< its kernel starts after this (CUPTI's clock), from UnrecordedKernels
};

class LaunchRecords {
public:
  LaunchRecords(Diagnostics &diagnostics, ShimTiming &timing, const RunOptions &options, LaunchSelector &selector,
                KernelInfoCache &kernels, CuptiActivity &activity, SampledTraffic &traffic, CounterSessions &sessions,
                MeasuredFileWriter &file)
      : diagnostics_(diagnostics), timing_(timing), options_(options), selector_(selector), kernels_(kernels),
        activity_(activity), traffic_(traffic), sessions_(sessions), file_(file) {}

  /// Starts the handler thread, which runs until drain() (the shim is never destroyed).
  void start();
  /// false: the launch callbacks are off, so every kernel is known by its activity record alone.
  void setCallbacksOn(bool on) { callbacksOn_ = on; }
  /// Counts a launch the program made; its index, in launch order within the process.
  int64_t newLaunch();

  void addLaunch(PendingLaunch &&launch);
  void addCounters(LaunchCounters &&counters);
  void addGraphRanges(uint32_t correlationId, std::vector<std::string> &&ranges);
  /// A graph was launched (any thread): its kernels come as activity records alone.
  void graphLaunched() { unrecorded_.graphLaunched(); }
  /// Has the handler write what arrived at once (a profiled launch, complete with its counters).
  void wake();
  /// CUPTI's sink: the kernel records of a completed buffer.
  void queueBatch(std::vector<KernelRecord> &&records);

  /// After a signal: the records of finished kernels, within 100 ms.
  void awaitKernelRecords();
  /// Stops the handler thread and handles what is queued on this thread.
  void drain();
  /// Writes every launch still held (includeUntimed: also those without a duration); the run's counts.
  RunCounts finish(bool includeUntimed);

private:
  void processQueue(); ///< the handler thread
  void handleBatches(std::deque<std::vector<KernelRecord>> &batches);
  void absorbArrivalsLocked();
  /// p has its duration (from its activity record, or its counters under replay, which gives it none).
  void markTimedLocked(PendingLaunch &p);
  /// p leaves pending_.
  void forgetLocked(const PendingLaunch &p);
  void onKernelRecordLocked(const KernelRecord &record);
  /// A launch's registers per thread before (or without) its activity record.
  int registersOf(const KernelInfo &kernel) const;
  /// A launch whose kernel ran (record is its activity record): emitted once its sampled traffic is settled.
  void completeLocked(Launch &&launch, const KernelRecord &record);
  /// Emits the launches whose sampled traffic is settled (all of them: at the end).
  void settleTrafficLocked(bool all);
  void emitLocked(Launch &&launch); ///< queues a finished launch; writeReady() writes it
  void writeReady();                ///< writes the queued launches in one go

  Diagnostics &diagnostics_;
  ShimTiming &timing_;
  const RunOptions &options_;
  LaunchSelector &selector_;
  KernelInfoCache &kernels_;
  CuptiActivity &activity_;
  SampledTraffic &traffic_;
  CounterSessions &sessions_;
  MeasuredFileWriter &file_;
  bool callbacksOn_ = false;
  std::atomic<int64_t> nextIndex_{0};
  std::atomic<int64_t> seen_{0};

  std::mutex arrivalsMutex_; // the three below: what launch callbacks hand to the handler
  std::vector<PendingLaunch> arrivedLaunches_;
  std::vector<LaunchCounters> arrivedCounters_;
  std::vector<std::pair<uint32_t, std::vector<std::string>>> arrivedGraphRanges_;

  std::mutex queueMutex_; // the five below
  std::condition_variable queueChanged_;
  std::deque<std::vector<KernelRecord>> queue_;
  bool arrivalsWaiting_ = false; ///< a profiled launch finished: its record can be written
  int busy_ = 0;                 ///< batches being handled
  bool stopping_ = false;

  std::mutex mutex_; // everything below; never taken by a launch callback, taken before arrivalsMutex_
  std::vector<Launch> ready_;
  std::unordered_map<uint32_t, PendingLaunch> pending_;
  std::unordered_map<uint32_t, std::vector<std::string>> graphNvtx_;
  std::unordered_map<std::string, int> activityRegisters_; ///< by mangled name, from activity records
  std::unordered_map<uint64_t, Launch> awaitingTraffic_;    ///< ran, by their index (their span's id in traffic_)
  UnrecordedKernels unrecorded_; ///< up to when every kernel of pending_ has its record
  int64_t recorded_ = 0;
  int64_t profiled_ = 0;
};

} // namespace roofcheck::runtime
