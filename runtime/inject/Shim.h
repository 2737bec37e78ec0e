// The injected shim: wires the CUPTI classes and the shim's parts together and turns the program's CUDA
// events into their work, so that every kernel launch gets one launch record in this process's measured
// file. Never changes what the program does: every failure becomes one warning and the shim measures less.
#pragma once

#include "../LaunchSelector.h"
#include "../NvtxRanges.h"
#include "../RunOptions.h"
#include "CounterConfigurations.h"
#include "CounterSessions.h"
#include "CuptiActivity.h"
#include "CuptiCallbacks.h"
#include "DeviceDescription.h"
#include "Diagnostics.h"
#include "KernelInfoCache.h"
#include "LaunchGating.h"
#include "LaunchRecords.h"
#include "MeasuredFileWriter.h"
#include "SampledTraffic.h"
#include "ShimTiming.h"

#include <atomic>
#include <memory>
#include <mutex>

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
  void onModuleLoaded(const uint8_t *cubin, size_t size) override;
  void onNvtxPush(const char *message) override;
  void onNvtxPop() override;
  void onNvtxStart(uint64_t id, const char *message) override;
  void onNvtxEnd(uint64_t id) override;

private:
  Shim();
  void enterLaunch(const LaunchCall &call);
  void exitLaunch(const LaunchCall &call);
  void writeOut(bool atExit); ///< finish() and finishAfterSignal()

  Diagnostics diagnostics_;
  RunOptions options_;
  std::unique_ptr<LaunchSelector> selector_;
  KernelInfoCache kernels_;
  CuptiCallbacks callbacks_;
  CuptiActivity activity_;
  ShimTiming timing_;
  bool countersWanted_ = false;
  bool sampledTraffic_ = false; ///< PM sampling gives launches their DRAM bytes (--sampled-traffic, time mode)

  std::once_flag initialized_;
  std::once_flag samplingStopRegistered_, samplingStopAtContext_;
  CounterConfigurations counters_{diagnostics_};
  SampledTraffic traffic_{diagnostics_, counters_};
  DeviceDescription devices_{diagnostics_, timing_};
  LaunchGating gating_{diagnostics_};
  NvtxRanges nvtx_;
  // Made by initialize(), once the options are known.
  std::unique_ptr<CounterSessions> sessions_;
  std::unique_ptr<MeasuredFileWriter> file_;
  std::unique_ptr<LaunchRecords> records_;

  std::atomic<bool> finished_{false};
  std::mutex writeOutMutex_; // held by writeOut: the exit's and a signal's are one after the other
};

} // namespace roofcheck::runtime
