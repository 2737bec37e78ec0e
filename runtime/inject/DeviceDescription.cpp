#include "DeviceDescription.h"

#include "../SignalFlush.h"

#include <algorithm>
#include <chrono>

namespace roofcheck::runtime {

namespace {

// The device of the context this thread launched into last (by CUPTI's context id, never reused): most
// launches need no lock to know it.
thread_local uint32_t lastContextUid = 0;
thread_local int lastDevice = 0;

std::vector<DeviceInfo> askDevices(Diagnostics &diagnostics) {
  std::vector<DeviceInfo> devices;
  int count = 0;
  if (!diagnostics.driver(cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return devices;
  for (int i = 0; i < count; ++i) {
    CUdevice device = 0;
    if (!diagnostics.driver(cuDeviceGet(&device, i), "cuDeviceGet"))
      continue;
    DeviceInfo info;
    info.index = i;
    char name[256] = {};
    if (diagnostics.driver(cuDeviceGetName(name, sizeof name, device), "cuDeviceGetName"))
      info.name = name;
    CUuuid uuid{};
    if (diagnostics.driver(cuDeviceGetUuid(&uuid, device), "cuDeviceGetUuid"))
      info.uuid = deviceUuidText(uuid.bytes);
    auto attribute = [&](CUdevice_attribute which) {
      int value = 0;
      diagnostics.driver(cuDeviceGetAttribute(&value, which, device), "cuDeviceGetAttribute");
      return value;
    };
    info.computeCapability = std::to_string(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)) + "." +
                             std::to_string(attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
    info.multiprocessors = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    info.l2Bytes = attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    size_t memory = 0;
    if (diagnostics.driver(cuDeviceTotalMem(&memory, device), "cuDeviceTotalMem"))
      info.memoryBytes = static_cast<int64_t>(memory);
    devices.push_back(info);
  }
  return devices;
}

} // namespace

std::string versionText(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

void DeviceDescription::startDescribing() {
  std::call_once(describeStarted_, [this] {
    std::shared_future<void> described = std::async(std::launch::async, [this] { describe(); }).share();
    std::lock_guard<std::mutex> lock(mutex_);
    described_ = std::move(described);
  });
}

void DeviceDescription::describe() {
  blockFlushedSignalsOnThisThread();
  diagnostics_.trace("describing the devices");
  int64_t started = timing_.start();
  std::vector<DeviceInfo> devices = askDevices(diagnostics_);
  // NVML starts here, once a context exists, never in InitializeInjection (which the driver calls from
  // inside cuInit): an nvmlInit concurrent with the first cuInit left a driver mutex owned by its thread
  // after that thread ended, and a second CUDA runtime's cuInit (cuBLASLt's, in cublasCreate) then waited
  // on it forever.
  diagnostics_.trace("devices described; starting NVML");
  nvml_ = std::make_unique<NvmlClocks>();
  ClockSample clocks;
  if (!devices.empty())
    clocks = nvml_->sample(devices[0].uuid);
  std::string driverVersion;
  int driver = 0;
  if (auto nvmlDriver = nvml_->driverVersion())
    driverVersion = *nvmlDriver;
  else if (diagnostics_.driver(cuDriverGetVersion(&driver), "cuDriverGetVersion"))
    driverVersion = versionText(driver);
  std::lock_guard<std::mutex> lock(mutex_);
  devices_ = std::move(devices);
  clocks_ = clocks;
  driverVersion_ = driverVersion;
  timing_.stop(ShimTiming::Describe, started);
  diagnostics_.trace("clocks and driver version known");
}

bool DeviceDescription::awaitDescription() {
  std::shared_future<void> described;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    described = described_;
  }
  if (!described.valid())
    return false;
  // Never hang on a driver or NVML call that does not return: the header then goes without them.
  if (described.wait_for(std::chrono::seconds(5)) != std::future_status::ready)
    diagnostics_.warn("describe", "the devices and clocks were not known after 5 s: the header goes without them");
  return true;
}

void DeviceDescription::fillHeader(MeasuredHeader &header) {
  std::lock_guard<std::mutex> lock(mutex_);
  header.devices = devices_;
  header.clocks = clocks_;
  header.driverVersion = driverVersion_;
  header.replayPasses = replayPasses_;
  header.options.update(counterOptions_);
}

void DeviceDescription::describeCounters(const CuptiProfilerHost &full, const CuptiProfilerHost *traffic) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (replayPasses_)
    return;
  replayPasses_ = full.passes();
  counterOptions_["chip"] = full.chip();
  counterOptions_["collected_metrics"] = full.metrics();
  counterOptions_["traffic_metrics"] = traffic ? Json(traffic->metrics()) : Json::array();
}

std::optional<int> DeviceDescription::deviceOf(CUcontext context) {
  {
    std::lock_guard<std::mutex> lock(contextMutex_);
    if (auto it = contextDevice_.find(context); it != contextDevice_.end())
      return it->second;
  }
  // Asked without the lock held: this runs inside the driver's callbacks.
  CUdevice device = 0;
  if (cuCtxGetDevice_v2(&device, context) != CUDA_SUCCESS)
    return std::nullopt;
  std::lock_guard<std::mutex> lock(contextMutex_);
  contextDevice_.emplace(context, static_cast<int>(device));
  return static_cast<int>(device);
}

int DeviceDescription::deviceOfLaunch(CUcontext context, uint32_t contextUid) {
  if (contextUid == 0 || contextUid != lastContextUid) {
    std::optional<int> device = deviceOf(context);
    if (!device)
      diagnostics_.warn("launch-device", "the device of a launch's context is unknown to the driver: device 0 "
                                         "assumed for its launches");
    lastDevice = device.value_or(0);
    lastContextUid = contextUid;
  }
  return lastDevice;
}

bool DeviceDescription::forget(CUcontext context, int device) {
  std::lock_guard<std::mutex> lock(contextMutex_);
  contextDevice_.erase(context);
  return std::none_of(contextDevice_.begin(), contextDevice_.end(), [&](const auto &c) { return c.second == device; });
}

} // namespace roofcheck::runtime
