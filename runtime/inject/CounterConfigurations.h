// Each device's counter configurations: the collected metrics, the base set (all of them but the tensor op
// totals) where that takes fewer passes, the traffic set where those need kernel replay and the traffic
// metrics fit in one pass, and with it the instruction set (the others, without the tensor's) where they do.
// Device 0's are made ahead, on a thread of their own while the program makes its first context, without a
// counter availability image where CUPTI knows the chip; the others when the device's first context is
// created, from that context's counter availability. Never destroyed, like the Shim.
#pragma once

#include "../LaunchSelector.h"
#include "CuptiProfilerHost.h"
#include "Diagnostics.h"

#include <cuda.h>

#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace roofcheck::runtime {

/// What to configure: the metrics asked for, the tensor-pipe metrics the chip has (addTensorMetrics), and
/// the base and one-pass traffic sets where the metrics need replay (trafficSet).
struct CounterRequest {
  std::vector<std::string> metrics;
  bool addTensorMetrics = false;
  bool trafficSet = false;
};

class CounterConfigurations {
public:
  explicit CounterConfigurations(Diagnostics &diagnostics) : diagnostics_(diagnostics) {}

  enum class Outcome {
    Earlier,    ///< the device was configured (or is being configured) for an earlier context
    Made,       ///< configured now: see hostFor
    Failed,     ///< this device has no configuration (a warning said why)
    NotAllowed, ///< the profiler cannot be used in this process at all: counters are off
  };
  /// At the shim's start, before the program has a context: device 0's configurations begin on a thread of
  /// their own (~0.2-0.6 s on the H200 where they were made in the context's callback).
  void prepare(CounterRequest request);
  /// At the program's exit: until the thread prepare started is done (at most patience), so that it is not
  /// inside CUPTI while the exit tears CUPTI and the driver down under it (a program that exits right after
  /// cuInit).
  void awaitPrepared(std::chrono::milliseconds patience);
  /// Configures device's counters, from the inside of the driver's context callback (no lock held while
  /// CUPTI and the driver are asked), or takes those prepared for it once they are made.
  Outcome configure(CUcontext context, CUdevice device, const CounterRequest &request);
  /// cuptiProfilerInitialize, once per process (every profiler API needs it); false where it failed.
  bool initializeProfiler();
  /// The name of device's chip for CUPTI (after initializeProfiler); nullopt, with a warning, where unknown.
  std::optional<std::string> chipOf(int device);
  /// The configuration for a counter set (the full one where the device has no such set); nullptr where
  /// the device has none.
  CuptiProfilerHost *hostFor(int device, CounterSet set);

private:
  struct DeviceCounters {
    /// Made ahead by prepare: nullopt where they could not be (CUPTI needs a context's counter availability).
    std::shared_future<std::optional<Outcome>> ahead;
    bool claimed = false; ///< a context's configure has taken this device
    bool abandoned = false; ///< the context's configure stopped waiting for those made ahead
    std::unique_ptr<CuptiProfilerHost> full, base, traffic, instructions;
  };
  std::optional<Outcome> makeAhead(const CounterRequest &request);
  /// context: the device's first, whose counter availability the configurations are made from (nullptr:
  /// made ahead, without).
  Outcome make(CUcontext context, int device, const std::string &chip, const CounterRequest &request);
  /// A configuration of metrics where they take one pass, else nullptr (traced as name's set).
  std::unique_ptr<CuptiProfilerHost> onePassSet(const std::string &name, int device, const std::string &chip,
                                                const std::vector<uint8_t> &availability,
                                                const std::vector<std::string> &metrics);

  Diagnostics &diagnostics_;
  std::once_flag profilerInitialized_;
  bool profilerUsable_ = false; ///< cuptiProfilerInitialize succeeded
  std::mutex mutex_;            // devices_
  std::map<int, DeviceCounters> devices_;
};

} // namespace roofcheck::runtime
