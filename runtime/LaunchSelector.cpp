#include "LaunchSelector.h"

#include <cctype>
#include <string_view>

namespace roofcheck::runtime {

bool isCommunicationKernel(const std::string &signature) {
  std::string_view name = signature;
  // A mangled free function: _Z, the identifier's length, the identifier.
  if (name.substr(0, 2) == "_Z") {
    name.remove_prefix(2);
    while (!name.empty() && std::isdigit(static_cast<unsigned char>(name.front())))
      name.remove_prefix(1);
  }
  return name.substr(0, 4) == "nccl";
}

LaunchSelector::LaunchSelector(const RunOptions &options, bool canProfile)
    : skip_(options.launchSkip), count_(options.launchCount), samples_(options.samplesPerSignature),
      canProfile_(canProfile && options.metricsMode != MetricsMode::Time) {
  if (!options.kernelRegex.empty())
    kernel_.emplace(options.kernelRegex, std::regex::ECMAScript | std::regex::optimize);
}

bool LaunchSelector::matches(const std::string &name, const std::string &mangled) const {
  if (!kernel_)
    return true;
  return std::regex_search(name, *kernel_) || std::regex_search(mangled, *kernel_);
}

LaunchDecision LaunchSelector::decide(const std::string &name, const std::string &mangled, const Dim3 &grid,
                                      const Dim3 &block) {
  return decideWithMatch(matches(name, mangled), mangled.empty() ? name : mangled, grid, block);
}

LaunchDecision LaunchSelector::decideWithMatch(bool nameMatches, const std::string &signature, const Dim3 &grid,
                                      const Dim3 &block) {
  std::lock_guard<std::mutex> lock(mutex_);
  bool afterReplay = lastReplayed_;
  lastReplayed_ = false;
  if (!nameMatches)
    return {};
  int64_t position = matched_++;
  if (position < skip_)
    return {};
  if (count_ && position - skip_ >= *count_)
    return {};
  LaunchDecision decision;
  decision.record = true;
  if (canProfile_ && !isCommunicationKernel(signature)) {
    int64_t &profiled = profiledPerSignature_[{signature, grid, block}];
    bool trafficTurn = trafficSet_ && profiled % 2 == 1;
    if ((samples_ == 0 || profiled < samples_) && !(trafficTurn && afterReplay)) {
      decision.profile = true;
      decision.counters = trafficTurn ? CounterSet::Traffic : CounterSet::Full;
      lastReplayed_ = trafficSet_ && !trafficTurn;
      ++profiled;
    }
  }
  return decision;
}

void LaunchSelector::stopProfiling() {
  std::lock_guard<std::mutex> lock(mutex_);
  canProfile_ = false;
}

void LaunchSelector::useTrafficSet() {
  std::lock_guard<std::mutex> lock(mutex_);
  trafficSet_ = true;
}

} // namespace roofcheck::runtime
