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

KernelInfo KernelInfoCache::describe(CUfunction function, const char *symbolName) {
  KernelInfo info;
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
  info.mangled = name ? name : "";
  info.name = demangle(info.mangled.c_str());
  info.selected = !filter_ || filter_(info.name, info.mangled);
  info.handle = isFunction ? KernelInfo::Handle::Function
                : isKernel ? KernelInfo::Handle::Kernel
                           : KernelInfo::Handle::Unknown;
  if (!isFunction && !isKernel) {
    diagnostics_.warn("param-info", "the driver does not describe the parameters of " + info.name +
                                        ": its arguments are not recorded");
    return info;
  }
  for (size_t i = 0;; ++i) {
    size_t offset = 0, size = 0;
    CUresult result = isFunction ? cuFuncGetParamInfo(function, i, &offset, &size)
                                 : cuKernelGetParamInfo(reinterpret_cast<CUkernel>(function), i, &offset, &size);
    if (result != CUDA_SUCCESS)
      break; // CUDA_ERROR_INVALID_VALUE past the last parameter
    info.params.push_back({static_cast<int64_t>(offset), static_cast<int64_t>(size)});
  }
  info.kinds.assign(info.params.size(), ParamKind::Unknown);
  for (size_t i = 0; i < info.params.size(); ++i)
    if (info.params[i].size != 8)
      info.kinds[i] = ParamKind::Scalar;
  return info;
}

std::shared_ptr<KernelInfo> KernelInfoCache::lookup(CUfunction function, const char *symbolName) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = cache_.find(function);
  // A handle can be reused after a module unload: the name tells.
  if (it == cache_.end() || (symbolName && it->second->mangled != symbolName))
    it = cache_.insert_or_assign(function, std::make_shared<KernelInfo>(describe(function, symbolName))).first;
  return it->second;
}

std::vector<KernelArgument> KernelInfoCache::arguments(KernelInfo &info, void **kernelParams, void **extra) {
  std::lock_guard<std::mutex> lock(mutex_); // info.kinds is learned as launches come
  const uint8_t *buffer = nullptr;
  size_t bufferSize = 0;
  if (!kernelParams && extra) {
    for (size_t i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
      if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
        buffer = static_cast<const uint8_t *>(extra[i + 1]);
      else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE && extra[i + 1])
        bufferSize = *static_cast<const size_t *>(extra[i + 1]);
    }
  }
  auto bytesOf = [&](size_t i) -> const uint8_t * {
    if (kernelParams)
      return static_cast<const uint8_t *>(kernelParams[i]);
    const ParamLayout &l = info.params[i];
    if (buffer && static_cast<size_t>(l.offset + l.size) <= bufferSize)
      return buffer + l.offset;
    return nullptr;
  };
  // An 8-byte parameter is a pointer when the driver knows its value as an address.
  for (size_t i = 0; i < info.params.size(); ++i) {
    if (info.kinds[i] == ParamKind::Scalar || info.kinds[i] == ParamKind::Pointer)
      continue;
    const uint8_t *bytes = bytesOf(i);
    if (!bytes)
      continue;
    uint64_t value = 0;
    std::memcpy(&value, bytes, sizeof value);
    if (value == 0)
      continue;
    unsigned memoryType = 0;
    info.kinds[i] = cuPointerGetAttribute(&memoryType, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                          static_cast<CUdeviceptr>(value)) == CUDA_SUCCESS
                        ? ParamKind::Pointer
                        : ParamKind::Scalar;
  }
  if (kernelParams)
    return decodeArguments(info.params, kernelParams, info.kinds);
  return decodeArgumentBuffer(info.params, buffer, bufferSize, info.kinds);
}

void KernelInfoCache::loadCode(const KernelInfo &info, CUfunction handle) {
  CUfunction function = handle;
  if (info.handle == KernelInfo::Handle::Unknown)
    return;
  if (info.handle == KernelInfo::Handle::Kernel &&
      !diagnostics_.driver(cuKernelGetFunction(&function, reinterpret_cast<CUkernel>(handle)), "cuKernelGetFunction"))
    return;
  diagnostics_.driver(cuFuncLoad(function), "cuFuncLoad");
}

} // namespace roofcheck::runtime
