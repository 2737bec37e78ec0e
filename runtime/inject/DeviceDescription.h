// What the measured file's header says of the devices, asked of the driver: names, UUIDs, compute
// capability, SMs, L2 and memory. Every call checked: a query that fails leaves its field empty and says so.
#pragma once

#include "Diagnostics.h"

#include "roofcheck/Contracts.h"

#include <string>
#include <vector>

namespace roofcheck::runtime {

std::vector<DeviceInfo> describeDevices(Diagnostics &diagnostics);

/// "13.0" for CUDA's 13000.
std::string versionText(int version);

} // namespace roofcheck::runtime
