#include "KernelInfoCache.h"

#include <cstdlib>
#include <cstring>
#include <cxxabi.h>

namespace roofcheck::runtime {

std::string demangle(const char *mangled) {
  if (!mangled)
    return "";
  int status = 0;
  char *text = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  if (status != 0 || !text)
    return mangled;
  std::string name(text);
  std::free(text);
  return name;
}

std::shared_ptr<KernelInfo> KernelInfoCache::describe(CUfunction function, const char *symbolName) {
  auto info = std::make_shared<KernelInfo>();
  const char *name = symbolName;
  // cudart hands the driver either a CUfunction or a CUkernel (context-independent loading); each has
  // its own query functions, so find out which one this handle is.
  const char *driverName = nullptr;
  bool isFunction = cuFuncGetName(&driverName, function) == CUDA_SUCCESS;
  bool isKernel = false;
  if (!isFunction)
    isKernel = cuKernelGetName(&driverName, reinterpret_cast<CUkernel>(function)) == CUDA_SUCCESS;
  if (!name)
    name = driverName;
  info->mangled = name ? name : "";
  info->name = demangle(info->mangled.c_str());
  info->selected = !filter_ || filter_(info->name, info->mangled);
  if (!isFunction && !isKernel) {
    diagnostics_.warn("param-info", "the driver does not describe the parameters of " + info->name +
                                        ": its arguments are not recorded");
    info->kindsKnown = true;
    return info;
  }
  // Launches profiled under kernel replay get no activity record, which is where a launch's registers
  // come from; this is what they fall back on (LaunchRecords::registersOf).
  int registers = 0;
  CUdevice device = 0;
  if (isFunction ? cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function) == CUDA_SUCCESS
                 : cuCtxGetDevice(&device) == CUDA_SUCCESS &&
                       cuKernelGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS,
                                            reinterpret_cast<CUkernel>(function), device) == CUDA_SUCCESS)
    info->registers = registers;
  for (size_t i = 0;; ++i) {
    size_t offset = 0, size = 0;
    CUresult result = isFunction ? cuFuncGetParamInfo(function, i, &offset, &size)
                                 : cuKernelGetParamInfo(reinterpret_cast<CUkernel>(function), i, &offset, &size);
    if (result != CUDA_SUCCESS)
      break; // CUDA_ERROR_INVALID_VALUE past the last parameter
    info->params.push_back({static_cast<int64_t>(offset), static_cast<int64_t>(size)});
  }
  info->kinds.assign(info->params.size(), ParamKind::Unknown);
  bool unknownLeft = false;
  for (size_t i = 0; i < info->params.size(); ++i) {
    if (info->params[i].size != 8)
      info->kinds[i] = ParamKind::Scalar;
    else
      unknownLeft = true;
  }
  info->kindsKnown = !unknownLeft;
  return info;
}

std::shared_ptr<KernelInfo> KernelInfoCache::lookup(CUfunction function, const char *symbolName) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = cache_.find(function);
    // A handle can be reused after a module unload: the name tells.
    if (it != cache_.end() && (!symbolName || it->second->mangled == symbolName))
      return it->second;
  }
  std::shared_ptr<KernelInfo> info = describe(function, symbolName);
  {
    std::lock_guard<std::mutex> lock(printingMutex_);
    info->prints = printing_.count(info->mangled) > 0;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  cache_[function] = info;
  return info;
}

void KernelInfoCache::notePrinting(const std::vector<std::string> &kernels) {
  std::lock_guard<std::mutex> lock(printingMutex_);
  printing_.insert(kernels.begin(), kernels.end());
}

std::vector<uint8_t> KernelInfoCache::capture(KernelInfo &info, void **kernelParams, void **extra) {
  std::vector<uint8_t> bytes;
  if (kernelParams) {
    bytes = packArguments(info.params, kernelParams);
  } else if (extra) {
    const uint8_t *buffer = nullptr;
    size_t bufferSize = 0;
    for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
      if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
        buffer = static_cast<const uint8_t *>(extra[i + 1]);
      else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1])
        bufferSize = *static_cast<const size_t *>(extra[i + 1]);
    }
    if (buffer)
      bytes.assign(buffer, buffer + bufferSize);
  }
  if (!info.kindsKnown.load(std::memory_order_acquire))
    learnKinds(info, bytes);
  return bytes;
}

void KernelInfoCache::learnKinds(KernelInfo &info, const std::vector<uint8_t> &bytes) {
  std::vector<ParamKind> kinds;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    kinds = info.kinds;
  }
  // An 8-byte parameter is a pointer when the driver knows its value as an address.
  for (size_t i = 0; i < info.params.size(); ++i) {
    const ParamLayout &l = info.params[i];
    if (kinds[i] != ParamKind::Unknown || static_cast<size_t>(l.offset + l.size) > bytes.size())
      continue;
    uint64_t value = 0;
    std::memcpy(&value, bytes.data() + l.offset, sizeof value);
    if (value == 0)
      continue;
    unsigned memoryType = 0;
    kinds[i] = cuPointerGetAttribute(&memoryType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, static_cast<CUdeviceptr>(value)) ==
                       CUDA_SUCCESS
                   ? ParamKind::Pointer
                   : ParamKind::Scalar;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  bool unknownLeft = false;
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (info.kinds[i] == ParamKind::Unknown)
      info.kinds[i] = kinds[i];
    unknownLeft |= info.kinds[i] == ParamKind::Unknown;
  }
  if (!unknownLeft)
    info.kindsKnown.store(true, std::memory_order_release);
}

std::vector<KernelArgument> KernelInfoCache::decode(KernelInfo &info, const std::vector<uint8_t> &bytes) {
  if (info.kindsKnown.load(std::memory_order_acquire))
    return decodeArgumentBuffer(info.params, bytes.data(), bytes.size(), info.kinds);
  std::vector<ParamKind> kinds;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    kinds = info.kinds;
  }
  return decodeArgumentBuffer(info.params, bytes.data(), bytes.size(), kinds);
}

} // namespace roofcheck::runtime
