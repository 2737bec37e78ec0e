// Each device's counter configurations, made from its own counter availability when its first context is
// created: the collected metrics, and the traffic set where those need kernel replay and the traffic
// metrics fit in one pass. Never destroyed, like the Shim.
#pragma once

#include "../LaunchSelector.h"
#include "CuptiProfilerHost.h"
#include "Diagnostics.h"

#include <cuda.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace roofcheck::runtime {

class CounterConfigurations {
public:
  explicit CounterConfigurations(Diagnostics &diagnostics) : diagnostics_(diagnostics) {}

  enum class Outcome {
    Earlier,    ///< the device was configured (or is being configured) for an earlier context
    Made,       ///< configured now: see hostFor
    Failed,     ///< this device has no configuration (a warning said why)
    NotAllowed, ///< the profiler cannot be used in this process at all: counters are off
  };
  /// Configures device's counters, from the inside of the driver's context callback (no lock held while
  /// CUPTI and the driver are asked). trafficSet: make the one-pass traffic set where the metrics need replay.
  Outcome configure(CUcontext context, CUdevice device, const std::vector<std::string> &requested,
                    bool addTensorMetrics, bool trafficSet);
  /// cuptiProfilerInitialize, once per process (every profiler API needs it); false where it failed.
  bool initializeProfiler();
  /// The configuration for a counter set (the full one where the device has no traffic set); nullptr
  /// where the device has none.
  CuptiProfilerHost *hostFor(int device, CounterSet set);

private:
  struct DeviceCounters {
    std::unique_ptr<CuptiProfilerHost> full, traffic;
  };
  Outcome make(DeviceCounters &counters, CUcontext context, CUdevice device, const std::vector<std::string> &requested,
               bool addTensorMetrics, bool trafficSet);

  Diagnostics &diagnostics_;
  std::once_flag profilerInitialized_;
  bool profilerUsable_ = false; ///< cuptiProfilerInitialize succeeded
  std::mutex mutex_;            // hosts_
  std::map<int, DeviceCounters> hosts_;
};

} // namespace roofcheck::runtime
