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
  return decideWithMatch(matches(name, mangled), mangled.empty() ? name : mangled, grid, block, false);
}

LaunchDecision LaunchSelector::decideWithMatch(bool nameMatches, const std::string &signature, const Dim3 &grid,
                                               const Dim3 &block, bool printing) {
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
    if (std::optional<CounterSet> set = nextSample(samples, afterReplay, printing)) {
      decision.profile = true;
      decision.counters = *set;
      lastReplayed_ = trafficSet_ && (*set == CounterSet::Full || *set == CounterSet::Base);
      lastProfiled_ = *set;
      ++samples.profiled;
      samples.traffic += *set == CounterSet::Traffic;
      samples.instructions += *set == CounterSet::Instructions;
      if (*set == CounterSet::Full && samples.owesFull) {
        samples.owesFull = false;
        --owedFull_;
      }
      samples.hadFull |= *set == CounterSet::Full;
    }
  }
  return decision;
}

std::optional<CounterSet> LaunchSelector::nextSample(SignatureSamples &samples, bool afterReplay, bool printing) {
  if (samples_ != 0 && samples.profiled >= samples_)
    return std::nullopt;
  if (!trafficSet_)
    return CounterSet::Full; // a printing kernel's launch, where this needs replay, is refused as it begins
  if (samples_ != 0 && samples.profiled == 0) {
    ++firstSamples_;
    launchesSinceFirstSample_ = 0;
  }
  if (printing)
    return printingSample(samples, afterReplay);
  CounterSet first = baseSet_ && samples_ != 1 ? CounterSet::Base : CounterSet::Full;
  if (samples_ == 0) {
    if (samples.owesFull)
      return CounterSet::Full;
    bool trafficTurn = samples.profiled % 2 == 1;
    if (trafficTurn && afterReplay)
      return std::nullopt;
    return trafficTurn ? CounterSet::Traffic : first;
  }
  if (samples.profiled == 0)
    return first;
  int64_t window = std::min(2 * firstSamples_, maxQuietLaunches);
  bool quiet = launchesSinceFirstSample_ >= window;
  if (samples.owesFull) {
    // It waits for the set to be changed anyway, but one launch of its signature at most: a short program's
    // GEMM may not come again, and its tensor op totals are its FLOPs.
    if (lastProfiled_ == CounterSet::Full || quiet || samples.fullWaits >= maxFullWaits)
      return CounterSet::Full;
    ++samples.fullWaits;
    return std::nullopt;
  }
  bool fullOwed = owedFull_ > 0 && launchesSinceFirstSample_ < 2 * window;
  if (afterReplay || (lastProfiled_ != CounterSet::Traffic && (!quiet || fullOwed)))
    return std::nullopt;
  return CounterSet::Traffic;
}

std::optional<CounterSet> LaunchSelector::printingSample(SignatureSamples &samples, bool afterReplay) {
  // The set with fewer samples; where they are even the traffic set, but right after a replayed launch, whose
  // dirty lines a traffic sample would count as this one's.
  bool instructionsDue =
      samples.instructions < samples.traffic || (afterReplay && samples.instructions == samples.traffic);
  if (instructionSet_ && instructionsDue)
    return CounterSet::Instructions;
  if (afterReplay && samples.profiled > 0)
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

void LaunchSelector::useInstructionSet() {
  std::lock_guard<std::mutex> lock(mutex_);
  instructionSet_ = true;
}

void LaunchSelector::useBaseSet() {
  std::lock_guard<std::mutex> lock(mutex_);
  baseSet_ = true;
}

void LaunchSelector::needsTensorOps(const SignatureKey &signature) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = perSignature_.find(signature);
  if (it == perSignature_.end() || it->second.owesFull || it->second.hadFull ||
      (samples_ != 0 && it->second.profiled >= samples_))
    return;
  it->second.owesFull = true;
  ++owedFull_;
}

} // namespace roofcheck::runtime
