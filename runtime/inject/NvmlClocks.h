// SM and memory clocks and the driver version through NVML, opened at run time (a machine without NVML
// still runs the shim; the header then says null).
#pragma once

#include "roofcheck/Contracts.h"

#include <optional>
#include <string>

namespace roofcheck::runtime {

class NvmlClocks {
public:
  NvmlClocks();
  ~NvmlClocks();
  NvmlClocks(const NvmlClocks &) = delete;
  NvmlClocks &operator=(const NvmlClocks &) = delete;

  bool available() const { return initialized_; }
  /// Current clocks of the device with this UUID ("GPU-..."); empty sample when NVML cannot say.
  ClockSample sample(const std::string &uuid) const;
  std::optional<std::string> driverVersion() const;

private:
  void *library_ = nullptr;
  bool initialized_ = false;
};

} // namespace roofcheck::runtime
