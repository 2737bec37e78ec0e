// What the measured file's header says of the devices: names, UUIDs, compute capability, SMs, L2 and
// memory asked of the driver, the clocks and driver version of NVML, and the counter configuration of the
// first device configured; and which device each context is on. Every call checked: a query that fails
// leaves its field empty and says so.
#pragma once

#include "CuptiProfilerHost.h"
#include "Diagnostics.h"
#include "NvmlClocks.h"
#include "ShimTiming.h"

#include "roofcheck/Contracts.h"

#include <cuda.h>

#include <cstdint>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace roofcheck::runtime {

class DeviceDescription {
public:
  DeviceDescription(Diagnostics &diagnostics, ShimTiming &timing) : diagnostics_(diagnostics), timing_(timing) {}

  /// At the first context (later calls do nothing): the devices and clocks are asked on a thread of their
  /// own (NVML starts slowly), so the program goes on meanwhile.
  void startDescribing();
  /// Until the devices are described, or 5 s (then with a warning). false when no context has asked for
  /// them yet: nothing to describe, nothing to record.
  bool awaitDescription();
  /// The devices, clocks, driver version and counter configuration known so far, into header.
  void fillHeader(MeasuredHeader &header);
  /// The header describes the first device configured: full's passes, chip and metrics, and traffic's
  /// metrics (nullptr: the device has no traffic set).
  void describeCounters(const CuptiProfilerHost &full, const CuptiProfilerHost *traffic);

  /// The device of context, asked of the driver once per context; nullopt where the driver tells none (a
  /// green context's, as CUPTI announces it: its launches come under its parent context).
  std::optional<int> deviceOf(CUcontext context);
  /// The same for a launch into context (contextUid: CUPTI's id for it), without a lock when the thread
  /// launched into the same context last.
  int deviceOfLaunch(CUcontext context, uint32_t contextUid);
  /// Forgets context, which is on device; true when it was the device's last.
  bool forget(CUcontext context, int device);

private:
  void describe(); ///< the describing thread

  Diagnostics &diagnostics_;
  ShimTiming &timing_;
  std::once_flag describeStarted_;
  std::unique_ptr<NvmlClocks> nvml_; ///< the describing thread's

  std::mutex contextMutex_; // contextDevice_; never held while the driver is asked
  std::unordered_map<CUcontext, int> contextDevice_;

  std::mutex mutex_; // everything below
  std::shared_future<void> described_;
  std::vector<DeviceInfo> devices_;
  ClockSample clocks_;
  std::string driverVersion_;
  std::optional<int64_t> replayPasses_;
  Json counterOptions_ = Json::object(); ///< what the first configured device adds to the header's options
};

/// "13.0" for CUDA's 13000.
std::string versionText(int version);

} // namespace roofcheck::runtime
