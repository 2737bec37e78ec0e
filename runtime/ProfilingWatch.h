// A profiled launch spends its time inside CUPTI (start, kernel replay, stop and decode), where the shim
// cannot bound the wait: the watch says which step a profiled launch is in and since when, so that the
// handler thread can warn while one stays in a step for long, and the launch can say how long it took.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>

namespace roofcheck::runtime {

class ProfilingWatch {
public:
  void start(const std::string &kernel, const char *step);
  void step(const char *step);
  /// Ends the watch: the seconds since start(), and the kernel's name.
  std::pair<double, std::string> end();
  /// Once per watched launch, when its step has lasted over limit: the warning to give.
  std::optional<std::string> overdue(std::chrono::duration<double> limit);

private:
  std::mutex mutex_;
  bool active_ = false;
  bool warned_ = false;
  std::string kernel_;
  const char *step_ = "";
  std::chrono::steady_clock::time_point since_, stepSince_;
};

} // namespace roofcheck::runtime
