// DRAM bytes for every launch without replay: each device's counters read by CUPTI's PM sampling
// (CuptiPmSampling) at a fixed GPU-time interval while the program runs, and given to launches by the spans of
// their kernels' activity records, which are on the samples' clock (docs/benchmarks.md, PM sampling's third
// measurement). Every PM sampling call is made on one thread of its own, with the device's context current:
// never inside the driver's callbacks (the hardware buffer is device memory), never on the program's threads.
#pragma once

#include "../TrafficLedger.h"
#include "CounterConfigurations.h"
#include "CuptiPmSampling.h"
#include "Diagnostics.h"

#include <cuda.h>

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace roofcheck::runtime {

class SampledTraffic {
public:
  SampledTraffic(Diagnostics &diagnostics, CounterConfigurations &counters)
      : diagnostics_(diagnostics), counters_(counters) {}

  /// Asks for device to be sampled every intervalNs (once per device; later calls do nothing): the sampling
  /// thread starts it soon after, with context current. A device whose sampling cannot start is left out,
  /// with a warning.
  void startDevice(int device, CUcontext context, int64_t intervalNs);
  /// The last samples of a device whose contexts are all going, decoded before this returns (or a second).
  void stopDevice(int device);
  /// Whether device's launches get sampled traffic (sampling started there, and may have stopped since).
  bool samples(int device);

  /// A kernel that ran on a sampled device; id is the caller's.
  void addSpan(uint64_t id, int device, KernelSpan span);
  /// The spans whose samples are decoded and whose neighbours' records have had time to arrive.
  std::vector<TrafficLedger::Settled> settle();
  /// At the end: the sampling thread done (within a second; no PM sampling call is made at exit), every span
  /// settled with the samples decoded so far.
  std::vector<TrafficLedger::Settled> finish();

private:
  struct Device {
    CUcontext context = nullptr;
    int64_t intervalNs = 0;
    std::unique_ptr<CuptiPmSampling> pm; ///< the sampling thread's alone
    bool started = false;                ///< pm started; read under mutex_
    bool tried = false;                  ///< the sampling thread has tried to start it
    bool stopRequested = false, stopped = false;
  };
  void run(); ///< the sampling thread
  std::unique_ptr<CuptiPmSampling> begin(int device, const Device &d);
  void drain(int device, CuptiPmSampling &pm);
  /// Waits (mutex_ held by lock) until done() or a second has passed.
  template <typename Done> void await(std::unique_lock<std::mutex> &lock, Done done);

  Diagnostics &diagnostics_;
  CounterConfigurations &counters_;
  std::mutex mutex_; // devices_ and the flags below
  std::condition_variable changed_;
  std::map<int, Device> devices_;
  bool threadStarted_ = false, finishing_ = false, finished_ = false;
  std::mutex ledgerMutex_; // ledger_
  TrafficLedger ledger_;
};

} // namespace roofcheck::runtime
