#include "ChildEnvironment.h"

#include <algorithm>
#include <cctype>

namespace roofcheck::runtime {

namespace {

std::optional<std::string> lookup(const std::vector<std::string> &env, const std::string &key) {
  for (const std::string &kv : env)
    if (kv.size() > key.size() && kv.compare(0, key.size(), key) == 0 && kv[key.size()] == '=')
      return kv.substr(key.size() + 1);
  return std::nullopt;
}

void assign(std::vector<std::string> &env, const std::string &key, const std::string &value) {
  for (std::string &kv : env)
    if (kv.size() > key.size() && kv.compare(0, key.size(), key) == 0 && kv[key.size()] == '=') {
      kv = key + "=" + value;
      return;
    }
  env.push_back(key + "=" + value);
}

} // namespace

ChildEnvironment buildChildEnvironment(const std::vector<std::string> &parent, const RunOptions &options,
                                       const std::string &injectLibrary, const std::string &cuptiLibrary) {
  ChildEnvironment child;
  child.variables = parent;
  // ncu and nsys preload their interceptor into the processes they start; ncu then refuses a program that
  // has another CUDA injection, so under them the shim stays out.
  // ncu marks the processes it starts with its injection's transport variables.
  for (const std::string &kv : parent)
    if (kv.rfind("NV_NSIGHT_INJECTION_", 0) == 0 || kv.rfind("NSYS_", 0) == 0) {
      child.warning = "a profiler is already attached (" + kv.substr(0, kv.find('=')) +
                      " is set, e.g. by ncu or nsys): roofcheck does not attach, the program runs unmeasured; "
                      "run roofcheck outside the other profiler";
      return child;
    }
  std::optional<std::string> preload = lookup(parent, "LD_PRELOAD");
  if (preload) {
    std::string lower = *preload;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower.find("injection") != std::string::npos || lower.find("nsight") != std::string::npos) {
      child.warning = "a profiler is already attached (LD_PRELOAD=" + *preload +
                      ", e.g. ncu or nsys): roofcheck does not attach, the program runs unmeasured; "
                      "run roofcheck outside the other profiler";
      return child;
    }
  }
  std::optional<std::string> existing = lookup(parent, "CUDA_INJECTION64_PATH");
  if (existing && !existing->empty() && *existing != injectLibrary) {
    child.warning = "another CUDA injection is already set (CUDA_INJECTION64_PATH=" + *existing +
                    ", e.g. from ncu or nsys): roofcheck does not attach, the program runs unmeasured; "
                    "run roofcheck outside the other profiler";
    return child;
  }
  assign(child.variables, "CUDA_INJECTION64_PATH", injectLibrary);
  assign(child.variables, "ROOFCHECK_OPTIONS", toJson(options).dump());
  std::optional<std::string> nvtx = lookup(parent, "NVTX_INJECTION64_PATH");
  if (!cuptiLibrary.empty() && (!nvtx || nvtx->empty()))
    assign(child.variables, "NVTX_INJECTION64_PATH", cuptiLibrary);
  child.injected = true;
  return child;
}

void appendLibraryFolder(std::vector<std::string> &variables, const std::string &folder) {
  std::optional<std::string> path = lookup(variables, "LD_LIBRARY_PATH");
  assign(variables, "LD_LIBRARY_PATH", path && !path->empty() ? *path + ":" + folder : folder);
}

} // namespace roofcheck::runtime
