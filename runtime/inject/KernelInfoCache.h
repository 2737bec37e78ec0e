// What the driver says about a kernel, asked once per function handle: its names and parameter layout
// (cuFuncGetParamInfo, or cuKernelGetParamInfo for a CUkernel), and which 8-byte parameters hold device
// pointers (their values resolve with cuPointerGetAttribute).
#pragma once

#include "../ArgumentDecoder.h"
#include "Diagnostics.h"

#include <cuda.h>

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace roofcheck::runtime {

struct KernelInfo {
  std::string mangled;
  std::string name; ///< demangled
  std::vector<ParamLayout> params;
  std::vector<ParamKind> kinds;
};

/// "foo(int)" from "_Z3fooi"; the input when it is not a mangled name.
std::string demangle(const char *mangled);

class KernelInfoCache {
public:
  explicit KernelInfoCache(Diagnostics &diagnostics) : diagnostics_(diagnostics) {}

  /// The info for function; symbolName is CUPTI's name for the launch (may be null).
  std::shared_ptr<const KernelInfo> lookup(CUfunction function, const char *symbolName);

  /// Decodes the launch's arguments; learns which parameters are pointers from their values.
  std::vector<KernelArgument> arguments(CUfunction function, void **kernelParams, void **extra);

private:
  KernelInfo describe(CUfunction function, const char *symbolName);

  Diagnostics &diagnostics_;
  std::mutex mutex_;
  std::unordered_map<CUfunction, std::shared_ptr<KernelInfo>> cache_;
};

} // namespace roofcheck::runtime
