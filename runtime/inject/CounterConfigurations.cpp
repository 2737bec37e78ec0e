#include "CounterConfigurations.h"

#include "../RunOptions.h"

#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <algorithm>

namespace roofcheck::runtime {

CounterConfigurations::Outcome CounterConfigurations::configure(CUcontext context, CUdevice device,
                                                                const std::vector<std::string> &requested,
                                                                bool addTensorMetrics, bool trafficSet) {
  int index = static_cast<int>(device);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!hosts_.try_emplace(index).second)
      return Outcome::Earlier;
  }
  if (!initializeProfiler())
    return Outcome::NotAllowed;
  DeviceCounters counters;
  Outcome outcome = make(counters, context, device, requested, addTensorMetrics, trafficSet);
  if (outcome == Outcome::Made) {
    std::lock_guard<std::mutex> lock(mutex_);
    hosts_[index] = std::move(counters);
  }
  return outcome;
}

bool CounterConfigurations::initializeProfiler() {
  std::call_once(profilerInitialized_, [this] {
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    profilerUsable_ = diagnostics_.cupti(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
  });
  return profilerUsable_;
}

CounterConfigurations::Outcome CounterConfigurations::make(DeviceCounters &counters, CUcontext context,
                                                           CUdevice device, const std::vector<std::string> &requested,
                                                           bool addTensorMetrics, bool trafficSet) {
  diagnostics_.trace("configuring the counters of device " + std::to_string(device));
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = static_cast<size_t>(device);
  if (!diagnostics_.cupti(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName") || !chip.pChipName)
    return Outcome::Failed;
  // Which counters this device can collect now: each device's configuration is made from its own.
  std::vector<uint8_t> availability;
  CUpti_Profiler_GetCounterAvailability_Params query{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  query.ctx = context;
  CUptiResult sized = cuptiProfilerGetCounterAvailability(&query);
  if (sized == CUPTI_SUCCESS) {
    availability.resize(query.counterAvailabilityImageSize);
    query.pCounterAvailabilityImage = availability.data();
    if (cuptiProfilerGetCounterAvailability(&query) != CUPTI_SUCCESS)
      availability.clear();
  }
  if (sized == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) {
    diagnostics_.warn("privileges", "counters are off: no permission to read GPU performance counters (run as "
                                    "root, or load the nvidia module with NVreg_RestrictProfilingToAdminUsers=0); "
                                    "durations continue");
    return Outcome::NotAllowed;
  }
  auto full = std::make_unique<CuptiProfilerHost>(diagnostics_);
  if (!full->configure(chip.pChipName, availability, requested, addTensorMetrics))
    return Outcome::Failed;
  diagnostics_.trace("counters of device " + std::to_string(device) + " configured: " +
                     std::to_string(full->passes().value_or(0)) + " passes");
  std::unique_ptr<CuptiProfilerHost> traffic;
  if (trafficSet && full->passes().value_or(1) > 1) {
    std::vector<std::string> trafficList;
    for (const std::string &metric : full->metrics())
      if (std::find(trafficMetrics().begin(), trafficMetrics().end(), metric) != trafficMetrics().end())
        trafficList.push_back(metric);
    traffic = std::make_unique<CuptiProfilerHost>(diagnostics_);
    bool onePass = !trafficList.empty() && traffic->configure(chip.pChipName, availability, trafficList, false) &&
                   traffic->passes() == 1;
    diagnostics_.trace("traffic set of device " + std::to_string(device) + ": " +
                       (onePass ? "one pass" : "not available"));
    if (!onePass)
      traffic.reset();
  }
  counters.full = std::move(full);
  counters.traffic = std::move(traffic);
  return Outcome::Made;
}

CuptiProfilerHost *CounterConfigurations::hostFor(int device, CounterSet set) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = hosts_.find(device);
  if (it == hosts_.end())
    return nullptr;
  const DeviceCounters &counters = it->second;
  return set == CounterSet::Traffic && counters.traffic ? counters.traffic.get() : counters.full.get();
}

} // namespace roofcheck::runtime
