// The hardware counters of profiled launches: each device's counter configurations, made when its first
// context is created, and a session of CUPTI's range profiler around each profiled launch, from its entry
// callback to its exit callback on the launching thread. A launch that stays long in a step of its session
// is reported while it lasts, and one whose counters took too long turns counters off for the rest of the run.
#pragma once

#include "../LaunchSelector.h"
#include "../ProfilingWatch.h"
#include "../RunOptions.h"
#include "CounterConfigurations.h"
#include "CuptiCallbacks.h"
#include "CuptiRangeProfiler.h"
#include "DeviceDescription.h"
#include "Diagnostics.h"
#include "KernelInfoCache.h"
#include "LaunchGating.h"
#include "ShimTiming.h"

#include "roofcheck/Contracts.h"

#include <cuda.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace roofcheck::runtime {

/// The counters of a profiled launch (nullopt: collecting them failed).
struct LaunchCounters {
  uint32_t correlationId = 0;
  std::optional<std::map<std::string, double>> metrics;
  std::optional<int64_t> passes; ///< of the counter set that counted them
};

class CounterSessions {
public:
  CounterSessions(Diagnostics &diagnostics, ShimTiming &timing, const RunOptions &options, LaunchSelector &selector,
                  CounterConfigurations &counters, DeviceDescription &devices, const LaunchGating &gating)
      : diagnostics_(diagnostics), timing_(timing), options_(options), selector_(selector), counters_(counters),
        devices_(devices), gating_(gating), profiler_(diagnostics) {}

  /// At the shim's start: device 0's counter configurations begin on a thread of their own.
  void prepare() { counters_.prepare(request()); }
  /// Takes the counter configurations of device at its first context (making them where they were not made
  /// ahead), from inside the driver's callback.
  void configure(CUcontext context, CUdevice device);
  /// Before context goes away.
  void release(CUcontext context) { profiler_.release(context); }

  /// At the entry of a launch of kernel and signature that holds the gate alone: starts its session with the
  /// counter set asked for. false when it cannot be profiled, or would print again on a replay pass.
  bool begin(const LaunchCall &call, const KernelInfo &kernel, SignatureKey signature, int64_t index,
             CounterSet counters, Launch &launch);
  /// Whether the launch this thread is exiting (by its correlation id) has a session.
  bool inSession(uint32_t correlationId) const;
  /// At the exit of a launch inSession(): ends the session (a base sample that counted tensor math has its
  /// signature's next turn count the full set).
  LaunchCounters end(const LaunchCall &call);

  /// On the handler thread: warns (once) while a profiled launch stays long in a step.
  void warnIfStuck();

private:
  CounterRequest request() const;

  Diagnostics &diagnostics_;
  ShimTiming &timing_;
  const RunOptions &options_;
  LaunchSelector &selector_;
  CounterConfigurations &counters_;
  DeviceDescription &devices_;
  const LaunchGating &gating_;
  CuptiRangeProfiler profiler_;
  ProfilingWatch watch_;
};

} // namespace roofcheck::runtime
