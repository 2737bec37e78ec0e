// The one class that talks to NVML. NVML ships with the driver (libnvidia-ml.so.1), not with every CUDA
// toolkit, so it is loaded at run time: the probe builds where the toolkit has no NVML headers or stubs,
// and where the driver has no NVML the probe still measures, with clocks recorded as unknown and a
// warning. Every call is checked; a failed query leaves its value null and is reported once.
#pragma once

#include "roofcheck/Contracts.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace roofcheck::probe {

class Nvml {
public:
  /// Opens NVML and finds the device with this PCI bus id ("0000:19:00.0", from cudaDeviceGetPCIBusId).
  explicit Nvml(const std::string &pciBusId);
  ~Nvml();
  Nvml(const Nvml &) = delete;
  Nvml &operator=(const Nvml &) = delete;

  bool available() const { return device_ != nullptr; }
  /// Why NVML is not available ("" when it is).
  const std::string &unavailableReason() const { return unavailable_; }

  /// Current SM and memory clocks.
  ClockSample clocks();
  /// The device's maximum SM and memory clocks.
  ClockSample maxClocks();
  /// Temperature, power draw and limit, clocks and throttle reasons, now.
  Json state();
  std::optional<std::string> driverVersion();

  /// Failed NVML calls so far, one line each (deduplicated).
  const std::vector<std::string> &problems() const { return problems_; }

private:
  struct Api;
  bool ok(int status, const char *call);

  void *library_ = nullptr;
  Api *api_ = nullptr;
  void *device_ = nullptr;
  std::string unavailable_;
  std::vector<std::string> problems_;
  std::set<std::string> reported_;
};

} // namespace roofcheck::probe
