#include "Diagnostics.h"

#include <cstdio>

#include <sys/syscall.h>
#include <unistd.h>

namespace roofcheck::runtime {

void Diagnostics::warn(const std::string &key, const std::string &message) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!seen_.insert(key).second)
    return;
  messages_.push_back(message);
  std::fprintf(stderr, "roofcheck: warning: %s\n", message.c_str());
}

void Diagnostics::trace(const std::string &step) const {
  if (!trace_)
    return;
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_).count();
  std::fprintf(stderr, "roofcheck: trace: [%ld +%.1f ms] %s\n", static_cast<long>(::syscall(SYS_gettid)), ms,
               step.c_str());
}

std::string Diagnostics::cuptiError(CUptiResult result) {
  const char *text = nullptr;
  if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text)
    return "CUPTI error " + std::to_string(static_cast<int>(result));
  return text;
}

std::string Diagnostics::driverError(CUresult result) {
  const char *name = nullptr;
  if (cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    return "CUDA error " + std::to_string(static_cast<int>(result));
  return name;
}

bool Diagnostics::cupti(CUptiResult result, const char *call) {
  if (result == CUPTI_SUCCESS)
    return true;
  warn(call, std::string(call) + " failed: " + cuptiError(result));
  return false;
}

bool Diagnostics::driver(CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return true;
  warn(call, std::string(call) + " failed: " + driverError(result));
  return false;
}

std::vector<std::string> Diagnostics::warnings() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return messages_;
}

} // namespace roofcheck::runtime
