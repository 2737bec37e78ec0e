#include "LaunchSelector.h"

#include <algorithm>
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
  ++launchesSinceFirstSample_;
  if (position < skip_)
    return {};
  if (count_ && position - skip_ >= *count_)
    return {};
  LaunchDecision decision;
  decision.record = true;
  if (canProfile_ && !isCommunicationKernel(signature)) {
    SignatureSamples &samples = perSignature_[{signature, grid, block}];
    if (std::optional<CounterSet> set = nextSample(samples, afterReplay)) {
      decision.profile = true;
      decision.counters = *set;
      lastReplayed_ = trafficSet_ && *set == CounterSet::Full;
      lastProfiled_ = *set;
      ++samples.profiled;
    }
  }
  return decision;
}

std::optional<CounterSet> LaunchSelector::nextSample(SignatureSamples &samples, bool afterReplay) {
  if (samples_ != 0 && samples.profiled >= samples_)
    return std::nullopt;
  if (!trafficSet_)
    return CounterSet::Full;
  if (samples_ == 0) {
    bool trafficTurn = samples.profiled % 2 == 1;
    if (trafficTurn && afterReplay)
      return std::nullopt;
    return trafficTurn ? CounterSet::Traffic : CounterSet::Full;
  }
  if (samples.profiled == 0) {
    ++firstSamples_;
    launchesSinceFirstSample_ = 0;
    return CounterSet::Full;
  }
  bool quiet = launchesSinceFirstSample_ >= std::min(2 * firstSamples_, maxQuietLaunches);
  if (afterReplay || (lastProfiled_ != CounterSet::Traffic && !quiet))
    return std::nullopt;
  return CounterSet::Traffic;
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
