#include "ProfilingWatch.h"

namespace roofcheck::runtime {

void ProfilingWatch::start(const std::string &kernel, const char *step) {
  auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  active_ = true;
  warned_ = false;
  kernel_ = kernel;
  step_ = step;
  since_ = stepSince_ = now;
}

void ProfilingWatch::step(const char *step) {
  auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  step_ = step;
  stepSince_ = now;
}

std::pair<double, std::string> ProfilingWatch::end() {
  auto now = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(mutex_);
  active_ = false;
  return {std::chrono::duration<double>(now - since_).count(), kernel_};
}

std::optional<std::string> ProfilingWatch::overdue(std::chrono::duration<double> limit) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto stuck = std::chrono::steady_clock::now() - stepSince_;
  if (!active_ || warned_ || stuck < limit)
    return std::nullopt;
  warned_ = true;
  return "a profiled launch of " + kernel_ + " has been " + step_ + " for " +
         std::to_string(static_cast<int>(std::chrono::duration<double>(stuck).count())) +
         " s; if the program does not go on, CUPTI cannot replay this kernel: stop the run and rerun with "
         "--metrics time, or leave the kernel out with --kernel";
}

} // namespace roofcheck::runtime
