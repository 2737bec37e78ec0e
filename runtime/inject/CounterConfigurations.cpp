#include "CounterConfigurations.h"

#include "../RunOptions.h"
#include "../SignalFlush.h"

#include "roofcheck/Metrics.h"

#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace roofcheck::runtime {

namespace {
// The longest the first context's callback waits for the configurations made ahead (~0.3 s on the H200).
constexpr std::chrono::seconds aheadPatience{10};

// The metrics of a configuration that keep keeps, in its order.
template <typename Keep> std::vector<std::string> metricsOf(const CuptiProfilerHost &configuration, Keep keep) {
  std::vector<std::string> kept;
  for (const std::string &metric : configuration.metrics())
    if (keep(metric))
      kept.push_back(metric);
  return kept;
}
} // namespace

void CounterConfigurations::prepare(CounterRequest request) {
  std::promise<std::optional<Outcome>> made;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    devices_[0].ahead = made.get_future().share();
  }
  // Detached: this object is never destroyed, and the context's callback waits for the promise.
  std::thread([this, request = std::move(request), made = std::move(made)]() mutable {
    blockFlushedSignalsOnThisThread();
    made.set_value(makeAhead(request));
  }).detach();
}

void CounterConfigurations::awaitPrepared(std::chrono::milliseconds patience) {
  std::shared_future<std::optional<Outcome>> ahead;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = devices_.find(0); it != devices_.end())
      ahead = it->second.ahead;
  }
  if (ahead.valid())
    ahead.wait_for(patience);
}

std::optional<CounterConfigurations::Outcome> CounterConfigurations::makeAhead(const CounterRequest &request) {
  // cuInit returns here once the program's own has (the shim is loaded inside it).
  if (!diagnostics_.driver(cuInit(0), "cuInit"))
    return std::nullopt;
  if (!initializeProfiler())
    return Outcome::NotAllowed;
  std::optional<std::string> chip = chipOf(0);
  if (!chip)
    return Outcome::Failed;
  if (!CuptiProfilerHost::knowsChip(*chip))
    return std::nullopt;
  return make(nullptr, 0, *chip, request);
}

CounterConfigurations::Outcome CounterConfigurations::configure(CUcontext context, CUdevice device,
                                                                const CounterRequest &request) {
  int index = static_cast<int>(device);
  std::shared_future<std::optional<Outcome>> ahead;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    DeviceCounters &counters = devices_[index];
    if (counters.claimed)
      return Outcome::Earlier;
    counters.claimed = true;
    ahead = counters.ahead;
  }
  if (ahead.valid()) {
    // Bounded, since this waits inside the driver's callback for a thread that asks CUPTI and the driver.
    if (ahead.wait_for(aheadPatience) != std::future_status::ready) {
      std::lock_guard<std::mutex> lock(mutex_);
      devices_[index].abandoned = true;
      diagnostics_.warn("counters-ahead", "the counter configurations made ahead for device " +
                                              std::to_string(index) + " did not come within " +
                                              std::to_string(aheadPatience.count()) +
                                              " s: counters are off there; durations continue");
      return Outcome::Failed;
    }
    if (std::optional<Outcome> made = ahead.get())
      return *made;
  }
  if (!initializeProfiler())
    return Outcome::NotAllowed;
  std::optional<std::string> chip = chipOf(index);
  return chip ? make(context, index, *chip, request) : Outcome::Failed;
}

bool CounterConfigurations::initializeProfiler() {
  std::call_once(profilerInitialized_, [this] {
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    profilerUsable_ = diagnostics_.cupti(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
  });
  return profilerUsable_;
}

std::optional<std::string> CounterConfigurations::chipOf(int device) {
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = static_cast<size_t>(device);
  if (!diagnostics_.cupti(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName") || !chip.pChipName)
    return std::nullopt;
  return std::string(chip.pChipName);
}

CounterConfigurations::Outcome CounterConfigurations::make(CUcontext context, int device, const std::string &chip,
                                                           const CounterRequest &request) {
  diagnostics_.trace("configuring the counters of device " + std::to_string(device));
  // Which counters this device can collect now, from a context where there is one: configurations made
  // ahead have none (the chip needs none), those of a later device keep it (with the first device's, the
  // second GPU's FLOP and tensor counters once came back empty; docs/runtime.md).
  std::vector<uint8_t> availability;
  if (context) {
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
  }
  using TensorMetrics = CuptiProfilerHost::TensorMetrics;
  auto full = std::make_unique<CuptiProfilerHost>(diagnostics_);
  if (!full->configure(chip, availability, request.metrics,
                       request.addTensorMetrics ? TensorMetrics::OpsPerType : TensorMetrics::None))
    return Outcome::Failed;
  diagnostics_.trace("counters of device " + std::to_string(device) + " configured: " +
                     std::to_string(full->passes().value_or(0)) + " passes");
  auto isTraffic = [](const std::string &metric) {
    return std::find(trafficMetrics().begin(), trafficMetrics().end(), metric) != trafficMetrics().end();
  };
  auto isRequested = [&](const std::string &metric) {
    return std::find(request.metrics.begin(), request.metrics.end(), metric) != request.metrics.end();
  };
  // The tensor op totals take most of the full set's passes (7 of 8 on GH100) and are 0 wherever the tensor
  // pipe did no math, which the base set's two instruction counts tell (HFMA2.MMA moves are no math).
  std::unique_ptr<CuptiProfilerHost> base;
  if (request.trafficSet && request.addTensorMetrics && full->passes().value_or(1) > 1) {
    base = std::make_unique<CuptiProfilerHost>(diagnostics_);
    bool fewerPasses =
        base->configure(chip, availability, metricsOf(*full, isRequested), TensorMetrics::Instructions) &&
        base->passes() < full->passes() &&
        std::find(base->metrics().begin(), base->metrics().end(), metrics::TensorPipeInstructions) !=
            base->metrics().end();
    diagnostics_.trace("base set of device " + std::to_string(device) + ": " +
                       (fewerPasses ? std::to_string(*base->passes()) + " passes" : "not available"));
    if (!fewerPasses)
      base.reset();
  }
  // The traffic metrics in one pass, on the program's own launch, and the others but the tensor op totals in
  // one pass, for the kernels that must not be replayed (they print).
  std::unique_ptr<CuptiProfilerHost> traffic, instructions;
  if (request.trafficSet && full->passes().value_or(1) > 1)
    traffic = onePassSet("traffic", device, chip, availability, metricsOf(*full, isTraffic));
  if (traffic)
    instructions = onePassSet("instruction", device, chip, availability,
                              metricsOf(*full, [&](const std::string &m) { return isRequested(m) && !isTraffic(m); }));
  std::lock_guard<std::mutex> lock(mutex_);
  DeviceCounters &counters = devices_[device];
  if (counters.abandoned)
    return Outcome::Failed;
  counters.full = std::move(full);
  counters.base = std::move(base);
  counters.traffic = std::move(traffic);
  counters.instructions = std::move(instructions);
  return Outcome::Made;
}

std::unique_ptr<CuptiProfilerHost>
CounterConfigurations::onePassSet(const std::string &name, int device, const std::string &chip,
                                  const std::vector<uint8_t> &availability, const std::vector<std::string> &metrics) {
  auto set = std::make_unique<CuptiProfilerHost>(diagnostics_);
  bool onePass = !metrics.empty() &&
                 set->configure(chip, availability, metrics, CuptiProfilerHost::TensorMetrics::None) &&
                 set->passes() == 1;
  diagnostics_.trace(name + " set of device " + std::to_string(device) + ": " +
                     (onePass ? "one pass" : "not available"));
  return onePass ? std::move(set) : nullptr;
}

CuptiProfilerHost *CounterConfigurations::hostFor(int device, CounterSet set) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = devices_.find(device);
  if (it == devices_.end() || !it->second.full)
    return nullptr;
  const DeviceCounters &counters = it->second;
  if (set == CounterSet::Traffic && counters.traffic)
    return counters.traffic.get();
  if (set == CounterSet::Base && counters.base)
    return counters.base.get();
  if (set == CounterSet::Instructions && counters.instructions)
    return counters.instructions.get();
  return counters.full.get();
}

} // namespace roofcheck::runtime
