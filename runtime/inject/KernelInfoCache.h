// What the driver says about a kernel, asked once per function handle: its names and parameter layout
// (cuFuncGetParamInfo, or cuKernelGetParamInfo for a CUkernel), which 8-byte parameters hold device
// pointers (their values resolve with cuPointerGetAttribute), and whether --kernel selects it, so that a
// launch costs no demangling and no regular expression. The driver is never asked while the cache's lock
// is held: these questions come from inside launch callbacks, where the driver may hold locks of its own.
#pragma once

#include "../ArgumentDecoder.h"
#include "Diagnostics.h"

#include <cuda.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace roofcheck::runtime {

struct KernelInfo {
  std::string mangled;
  std::string name; ///< demangled
  std::vector<ParamLayout> params;
  std::vector<ParamKind> kinds; ///< learned as launches come, under the cache's lock until kindsKnown
  std::atomic<bool> kindsKnown{false}; ///< no Unknown left: kinds no longer changes
  bool selected = true;  ///< the name filter's verdict
  int registers = 0;     ///< per thread, as the compiler reports them (CU_FUNC_ATTRIBUTE_NUM_REGS); 0 unknown
  bool prints = false;   ///< calls device printf: every replay pass of a launch would print again
};

/// "foo(int)" from "_Z3fooi"; the input when it is not a mangled name.
std::string demangle(const char *mangled);

class KernelInfoCache {
public:
  using NameFilter = std::function<bool(const std::string &name, const std::string &mangled)>;

  explicit KernelInfoCache(Diagnostics &diagnostics) : diagnostics_(diagnostics) {}

  /// Decides KernelInfo::selected for every function described after this call.
  void setNameFilter(NameFilter filter) { filter_ = std::move(filter); }

  /// Kernels (mangled names) of a module just loaded that call device printf. Takes no lock lookup holds:
  /// a module can load inside a driver call lookup makes.
  void notePrinting(const std::vector<std::string> &kernels);

  /// The info for function; symbolName is CUPTI's name for the launch (may be null).
  std::shared_ptr<KernelInfo> lookup(CUfunction function, const char *symbolName);

  /// The parameter bytes of a launch of info's function, as its parameter buffer lays them out: all the
  /// launch callback copies. Learns which parameters are pointers from their values (only the driver
  /// knows, and only while the launch is being made).
  std::vector<uint8_t> capture(KernelInfo &info, void **kernelParams, void **extra);

  /// The arguments in bytes that capture() took from a launch of info's function.
  std::vector<KernelArgument> decode(KernelInfo &info, const std::vector<uint8_t> &bytes);

private:
  std::shared_ptr<KernelInfo> describe(CUfunction function, const char *symbolName);
  void learnKinds(KernelInfo &info, const std::vector<uint8_t> &bytes);

  Diagnostics &diagnostics_;
  NameFilter filter_;
  std::mutex mutex_;
  std::unordered_map<CUfunction, std::shared_ptr<KernelInfo>> cache_;
  std::mutex printingMutex_; // printing_; taken after mutex_ where both are
  std::unordered_set<std::string> printing_;
};

} // namespace roofcheck::runtime
