// DRAM bytes for every launch without replay: each device's counters read by CUPTI's PM sampling
// (CuptiPmSampling) at a fixed GPU-time interval while the program runs, and given to launches by the spans of
// their kernels' activity records, which are on the samples' clock (docs/benchmarks.md, PM sampling's third
// measurement). Every PM sampling call is made on one thread of its own, with the device's context current
// from enabling on: never inside the driver's callbacks (the hardware buffer is device memory), never on the
// program's threads, never after the CUDA runtime's teardown at exit (there the calls did not return).
#pragma once

#include "../TrafficLedger.h"
#include "CounterConfigurations.h"
#include "CuptiPmSampling.h"
#include "Diagnostics.h"

#include <cuda.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace roofcheck::runtime {

class SampledTraffic {
public:
  SampledTraffic(Diagnostics &diagnostics, CounterConfigurations &counters)
      : diagnostics_(diagnostics), counters_(counters) {}

  /// At the shim's start, before the program has a context: the sampling thread starts and makes device 0's
  /// configuration meanwhile (the slow, host-side part), to sample every intervalNs once a device is started.
  void prepare(int64_t intervalNs);
  /// Asks for device to be sampled (once per device; later calls do nothing): the sampling thread starts it
  /// soon after, with context current. A device whose sampling cannot start is left out, with a warning.
  void startDevice(int device, CUcontext context);
  /// Until the sampling thread has tried to start device (within startPatience), so that no launch runs
  /// before its device is sampled. Returns at once for a device never asked for, or once tried.
  void awaitStart(int device);
  /// The last samples of a device whose contexts are all going, decoded before this returns (or ~a second).
  void stopDevice(int device);
  /// stopDevice for every device: at the program's exit, before the CUDA runtime's teardown.
  void stopAll();
  /// Whether device's launches get sampled traffic (sampling started there, and may have stopped since).
  bool samples(int device);

  /// Every decoded sample (those that counted nothing too) and every span, as text lines into path, for the
  /// attribution studied offline (ROOFCHECK_SHIM_SAMPLES); a warning where it cannot be opened.
  void logTo(const std::string &path);
  /// A kernel that ran on a sampled device; id is the caller's.
  void addSpan(uint64_t id, int device, KernelSpan span);
  /// The spans whose samples are decoded and whose neighbours are known: every kernel that starts before
  /// recordedBefore (CUPTI's clock; 0: not known) has its span added, and any record has had time to arrive.
  std::vector<TrafficLedger::Settled> settle(uint64_t recordedBefore);
  /// At the end (after stopAll): the sampling thread done, every span settled with the samples decoded.
  std::vector<TrafficLedger::Settled> finish();

private:
  struct Device {
    CUcontext context = nullptr;
    std::unique_ptr<CuptiPmSampling> pm; ///< the sampling thread's alone
    bool started = false;                ///< pm started; read under mutex_
    bool tried = false;                  ///< the sampling thread has begun trying to start it
    bool settled = false;                ///< ... and is done trying, started or not
    bool stopRequested = false, stopped = false;
  };
  /// Nothing left to wait for at a stop: sampling stopped, or its start tried and failed (not while a start
  /// is under way: a process that exits then ended with a segmentation fault).
  static bool done(const Device &d);
  void run(); ///< the sampling thread
  /// The host side of device's sampling (nullptr, with a warning, where it cannot be made).
  std::unique_ptr<CuptiPmSampling> configure(int device);
  /// Sampling started on device, from prepared where it is that device's configuration.
  std::unique_ptr<CuptiPmSampling> begin(int device, CUcontext context, std::unique_ptr<CuptiPmSampling> prepared);
  /// Decodes device's samples into the ledger until none is waiting, the time is until, or the samples reach
  /// GPU time enough; true if some are still waiting. Where pipelined, the last image's samples may reach the
  /// ledger with the next drain (CuptiPmSampling::drain).
  bool drain(int device, CuptiPmSampling &pm, std::chrono::steady_clock::time_point until, uint64_t enough,
             bool pipelined);
  /// drain until the samples reach the present (a stop's last samples), or until deadline; those after it are
  /// not decoded.
  void drainUntilNow(int device, CuptiPmSampling &pm, std::chrono::steady_clock::time_point deadline);
  /// Waits (mutex_ held by lock) until done() or exitPatience has passed.
  template <typename Done> void await(std::unique_lock<std::mutex> &lock, Done done);

  Diagnostics &diagnostics_;
  CounterConfigurations &counters_;
  std::mutex mutex_; // devices_ and the flags below
  std::condition_variable changed_;
  std::map<int, Device> devices_;
  int64_t intervalNs_ = 0;
  bool threadStarted_ = false, finishing_ = false, finished_ = false;
  std::atomic<int> unsettled_{0}; ///< devices asked for whose start the sampling thread has not yet tried
  std::mutex ledgerMutex_; // ledger_ and log_
  TrafficLedger ledger_;
  std::unique_ptr<std::FILE, int (*)(std::FILE *)> log_{nullptr, std::fclose};
};

} // namespace roofcheck::runtime
