#include "NvmlClocks.h"

#include <dlfcn.h>

namespace roofcheck::runtime {

namespace {
// The few NVML entry points used, declared here so no NVML header or link is needed.
using nvmlReturn = int;
using nvmlDevice = void *;
constexpr int nvmlSuccess = 0;
constexpr int nvmlClockSm = 1;
constexpr int nvmlClockMem = 2;
using InitFn = nvmlReturn (*)();
using ShutdownFn = nvmlReturn (*)();
using ByUuidFn = nvmlReturn (*)(const char *, nvmlDevice *);
using ClockFn = nvmlReturn (*)(nvmlDevice, int, unsigned *);
using DriverVersionFn = nvmlReturn (*)(char *, unsigned);
} // namespace

NvmlClocks::NvmlClocks() {
  library_ = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library_)
    return;
  auto init = reinterpret_cast<InitFn>(::dlsym(library_, "nvmlInit_v2"));
  initialized_ = init && init() == nvmlSuccess;
}

NvmlClocks::~NvmlClocks() {
  if (initialized_)
    if (auto shutdown = reinterpret_cast<ShutdownFn>(::dlsym(library_, "nvmlShutdown")))
      shutdown();
  if (library_)
    ::dlclose(library_);
}

ClockSample NvmlClocks::sample(const std::string &uuid) const {
  ClockSample clocks;
  if (!initialized_)
    return clocks;
  auto byUuid = reinterpret_cast<ByUuidFn>(::dlsym(library_, "nvmlDeviceGetHandleByUUID"));
  auto clock = reinterpret_cast<ClockFn>(::dlsym(library_, "nvmlDeviceGetClockInfo"));
  nvmlDevice device = nullptr;
  if (!byUuid || !clock || byUuid(uuid.c_str(), &device) != nvmlSuccess)
    return clocks;
  unsigned mhz = 0;
  if (clock(device, nvmlClockSm, &mhz) == nvmlSuccess)
    clocks.smMHz = mhz;
  if (clock(device, nvmlClockMem, &mhz) == nvmlSuccess)
    clocks.memoryMHz = mhz;
  return clocks;
}

std::optional<std::string> NvmlClocks::driverVersion() const {
  if (!initialized_)
    return std::nullopt;
  auto version = reinterpret_cast<DriverVersionFn>(::dlsym(library_, "nvmlSystemGetDriverVersion"));
  char text[96] = {};
  if (!version || version(text, sizeof text) != nvmlSuccess)
    return std::nullopt;
  return std::string(text);
}

} // namespace roofcheck::runtime
