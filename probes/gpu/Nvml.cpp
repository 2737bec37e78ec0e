#include "Nvml.h"

#include "CeilingsView.h"

#include <dlfcn.h>

namespace roofcheck::probe {

namespace {

// The few NVML entry points the probe uses, with the C ABI of nvml.h: status codes are ints (0 = success),
// a device is an opaque pointer, clock and sensor kinds are ints.
constexpr int NvmlSuccess = 0;
constexpr int NvmlClockSm = 1;
constexpr int NvmlClockMemory = 2;
constexpr int NvmlTemperatureGpu = 0;

using DevicePtr = void *;

template <typename F> F symbol(void *library, const char *name) { return reinterpret_cast<F>(dlsym(library, name)); }

} // namespace

struct Nvml::Api {
  int (*init)();
  int (*shutdown)();
  const char *(*errorString)(int);
  int (*deviceByPciBusId)(const char *, DevicePtr *);
  int (*clockInfo)(DevicePtr, int, unsigned *);
  int (*maxClockInfo)(DevicePtr, int, unsigned *);
  int (*temperature)(DevicePtr, int, unsigned *);
  int (*powerUsage)(DevicePtr, unsigned *);
  int (*powerLimit)(DevicePtr, unsigned *);
  int (*clocksEventReasons)(DevicePtr, unsigned long long *);
  int (*systemDriverVersion)(char *, unsigned);
};

Nvml::Nvml(const std::string &pciBusId) {
  library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library_) {
    const char *why = dlerror();
    unavailable_ = std::string("cannot load libnvidia-ml.so.1 (") + (why ? why : "unknown") + ")";
    return;
  }
  api_ = new Api{
      symbol<int (*)()>(library_, "nvmlInit_v2"),
      symbol<int (*)()>(library_, "nvmlShutdown"),
      symbol<const char *(*)(int)>(library_, "nvmlErrorString"),
      symbol<int (*)(const char *, DevicePtr *)>(library_, "nvmlDeviceGetHandleByPciBusId_v2"),
      symbol<int (*)(DevicePtr, int, unsigned *)>(library_, "nvmlDeviceGetClockInfo"),
      symbol<int (*)(DevicePtr, int, unsigned *)>(library_, "nvmlDeviceGetMaxClockInfo"),
      symbol<int (*)(DevicePtr, int, unsigned *)>(library_, "nvmlDeviceGetTemperature"),
      symbol<int (*)(DevicePtr, unsigned *)>(library_, "nvmlDeviceGetPowerUsage"),
      symbol<int (*)(DevicePtr, unsigned *)>(library_, "nvmlDeviceGetEnforcedPowerLimit"),
      symbol<int (*)(DevicePtr, unsigned long long *)>(library_, "nvmlDeviceGetCurrentClocksEventReasons"),
      symbol<int (*)(char *, unsigned)>(library_, "nvmlSystemGetDriverVersion"),
  };
  // Drivers before the "clocks event" rename export the same call under its old name.
  if (!api_->clocksEventReasons)
    api_->clocksEventReasons =
        symbol<int (*)(DevicePtr, unsigned long long *)>(library_, "nvmlDeviceGetCurrentClocksThrottleReasons");
  if (!api_->init || !api_->shutdown || !api_->errorString || !api_->deviceByPciBusId || !api_->clockInfo ||
      !api_->maxClockInfo || !api_->temperature || !api_->powerUsage || !api_->powerLimit ||
      !api_->clocksEventReasons || !api_->systemDriverVersion) {
    unavailable_ = "libnvidia-ml.so.1 lacks an entry point the probe needs (driver too old)";
    return;
  }
  int status = api_->init();
  if (status != NvmlSuccess) {
    unavailable_ = std::string("nvmlInit_v2 failed: ") + api_->errorString(status);
    api_->init = nullptr; // nothing to shut down
    return;
  }
  DevicePtr device = nullptr;
  status = api_->deviceByPciBusId(pciBusId.c_str(), &device);
  if (status != NvmlSuccess) {
    unavailable_ = "nvmlDeviceGetHandleByPciBusId_v2(" + pciBusId + ") failed: " + api_->errorString(status);
    return;
  }
  device_ = device;
}

Nvml::~Nvml() {
  if (api_ && api_->init)
    api_->shutdown();
  delete api_;
  if (library_)
    dlclose(library_);
}

bool Nvml::ok(int status, const char *call) {
  if (status == NvmlSuccess)
    return true;
  std::string line = std::string(call) + " failed: " + api_->errorString(status);
  if (reported_.insert(line).second)
    problems_.push_back(line);
  return false;
}

ClockSample Nvml::clocks() {
  ClockSample sample;
  if (!available())
    return sample;
  unsigned mhz = 0;
  if (ok(api_->clockInfo(device_, NvmlClockSm, &mhz), "nvmlDeviceGetClockInfo(SM)"))
    sample.smMHz = mhz;
  if (ok(api_->clockInfo(device_, NvmlClockMemory, &mhz), "nvmlDeviceGetClockInfo(MEM)"))
    sample.memoryMHz = mhz;
  return sample;
}

ClockSample Nvml::maxClocks() {
  ClockSample sample;
  if (!available())
    return sample;
  unsigned mhz = 0;
  if (ok(api_->maxClockInfo(device_, NvmlClockSm, &mhz), "nvmlDeviceGetMaxClockInfo(SM)"))
    sample.smMHz = mhz;
  if (ok(api_->maxClockInfo(device_, NvmlClockMemory, &mhz), "nvmlDeviceGetMaxClockInfo(MEM)"))
    sample.memoryMHz = mhz;
  return sample;
}

Json Nvml::state() {
  if (!available())
    return nullptr;
  Json state = Json::object();
  unsigned value = 0;
  state["temperature_c"] = ok(api_->temperature(device_, NvmlTemperatureGpu, &value), "nvmlDeviceGetTemperature")
                               ? Json(value)
                               : Json();
  state["power_w"] =
      ok(api_->powerUsage(device_, &value), "nvmlDeviceGetPowerUsage") ? Json(value / 1000.0) : Json();
  state["power_limit_w"] =
      ok(api_->powerLimit(device_, &value), "nvmlDeviceGetEnforcedPowerLimit") ? Json(value / 1000.0) : Json();
  ClockSample c = clocks();
  state["sm_mhz"] = c.smMHz ? Json(*c.smMHz) : Json();
  state["memory_mhz"] = c.memoryMHz ? Json(*c.memoryMHz) : Json();
  unsigned long long reasons = 0;
  if (ok(api_->clocksEventReasons(device_, &reasons), "nvmlDeviceGetCurrentClocksEventReasons")) {
    state["throttle_reasons_mask"] = reasons;
    state["throttle_reasons"] = throttleReasonNames(reasons);
  } else {
    state["throttle_reasons_mask"] = nullptr;
    state["throttle_reasons"] = nullptr;
  }
  return state;
}

std::optional<std::string> Nvml::driverVersion() {
  if (!available())
    return std::nullopt;
  char text[96] = {};
  if (!ok(api_->systemDriverVersion(text, sizeof text), "nvmlSystemGetDriverVersion"))
    return std::nullopt;
  return std::string(text);
}

} // namespace roofcheck::probe
