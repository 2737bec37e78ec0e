#include "DeviceDescription.h"

namespace roofcheck::runtime {

std::string versionText(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

std::vector<DeviceInfo> describeDevices(Diagnostics &diagnostics) {
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

} // namespace roofcheck::runtime
