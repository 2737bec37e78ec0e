#include "CounterSessions.h"

#include "roofcheck/Metrics.h"

#include <chrono>
#include <vector>

namespace roofcheck::runtime {

namespace {

// The launch this thread is inside of while its counters are being collected.
struct ProfiledCall {
  bool active = false;
  uint32_t correlationId = 0;
  CUcontext context = nullptr;
  SignatureKey signature;
  CounterSet counters = CounterSet::Full;
  int64_t unheldBefore = 0;      ///< LaunchGating::unheldLaunches() when profiling began
  std::optional<int64_t> passes; ///< of the counter set it is profiled with
  int64_t replayStarted = 0;     ///< ShimTiming's clock when the launch itself began
};
thread_local ProfiledCall profiledCall;

// Collecting the counters of one launch taking longer than this turns counters off for the rest of the
// run; a step of it taking longer is reported while it lasts.
constexpr double slowProfilingSeconds = 10;

// Whether a base sample's tensor pipe did math, not only ptxas's HFMA2.MMA moves (PyTorch's elementwise
// kernels run thousands of those): its tensor op totals are then worth a full sample.
bool tensorMath(const std::map<std::string, double> &metrics) {
  auto count = [&](const char *name) {
    auto it = metrics.find(name);
    return it == metrics.end() ? 0.0 : it->second;
  };
  return count(metrics::TensorPipeInstructions) > count(metrics::TensorPipeMoves);
}

} // namespace

CounterRequest CounterSessions::request() const {
  return {options_.metricsMode == MetricsMode::List ? options_.metrics : defaultMetrics(),
          options_.metricsMode == MetricsMode::Default, options_.trafficSet};
}

void CounterSessions::configure(CUcontext context, CUdevice device) {
  using Outcome = CounterConfigurations::Outcome;
  Outcome outcome = counters_.configure(context, device, request());
  if (outcome == Outcome::NotAllowed)
    selector_.stopProfiling();
  if (outcome != Outcome::Made)
    return;
  CuptiProfilerHost *full = counters_.hostFor(static_cast<int>(device), CounterSet::Full);
  CuptiProfilerHost *traffic = counters_.hostFor(static_cast<int>(device), CounterSet::Traffic);
  bool hasTrafficSet = traffic != full;
  devices_.describeCounters(*full, hasTrafficSet ? traffic : nullptr);
  if (hasTrafficSet)
    selector_.useTrafficSet();
  if (counters_.hostFor(static_cast<int>(device), CounterSet::Base) != full)
    selector_.useBaseSet();
  if (counters_.hostFor(static_cast<int>(device), CounterSet::Instructions) != full)
    selector_.useInstructionSet();
}

bool CounterSessions::begin(const LaunchCall &call, const KernelInfo &kernel, SignatureKey signature, int64_t index,
                            CounterSet counters, Launch &launch) {
  CuptiProfilerHost *host = counters_.hostFor(launch.device, counters);
  // Kernel replay runs the launch once per pass: a kernel that prints would print again on each.
  if (kernel.prints && host && host->passes().value_or(2) > 1) {
    diagnostics_.trace("launch " + std::to_string(index) + ": not profiled with " +
                       std::to_string(host->passes().value_or(0)) + " passes: its kernel prints");
    return false;
  }
  watch_.start(kernel.name, "starting CUPTI's range profiler (cuptiRangeProfilerEnable, SetConfig, Start)");
  int64_t started = timing_.start();
  bool begun = host && profiler_.begin(call.context, launch.device, *host);
  timing_.stop(ShimTiming::ProfileBegin, started);
  diagnostics_.trace("launch " + std::to_string(index) + ": profiling " + (begun ? "begun" : "refused"));
  if (!begun) {
    watch_.end();
    if (profiler_.permanentlyUnavailable())
      selector_.stopProfiling();
    return false;
  }
  watch_.step("inside the launch (CUPTI runs the kernel once per replay pass)");
  profiledCall = {true,
                  call.correlationId,
                  call.context,
                  std::move(signature),
                  counters,
                  gating_.unheldLaunches(),
                  host->passes(),
                  timing_.start()};
  // A profiled launch gets no activity record: its context and stream ids come from CUPTI here, of the
  // context the launch went into (its stream's, else the current one), which for a green context is not the
  // parent context CUPTI's callback names.
  CUcontext launchContext = nullptr;
  CUresult found = call.stream ? cuStreamGetCtx(call.stream, &launchContext) : cuCtxGetCurrent(&launchContext);
  if (found != CUDA_SUCCESS || !launchContext)
    launchContext = call.context;
  uint32_t contextId = 0;
  if (launchContext != call.context && cuptiGetContextId(launchContext, &contextId) == CUPTI_SUCCESS)
    launch.context = contextId;
  uint32_t streamId = 0;
  if (diagnostics_.cupti(cuptiGetStreamIdEx(launchContext, call.stream, call.perThreadStream ? 1 : 0, &streamId),
                         "cuptiGetStreamIdEx"))
    launch.stream = streamId;
  return true;
}

bool CounterSessions::inSession(uint32_t correlationId) const {
  return profiledCall.active && profiledCall.correlationId == correlationId;
}

LaunchCounters CounterSessions::end(const LaunchCall &call) {
  profiledCall.active = false;
  timing_.stop(ShimTiming::ProfileReplay, profiledCall.replayStarted);
  diagnostics_.trace("profiled launch " + std::to_string(call.correlationId) + ": collecting its counters");
  watch_.step("collecting its counters (cuptiRangeProfilerStop, DecodeData, evaluation)");
  int64_t ending = timing_.start();
  LaunchCounters counters{call.correlationId, profiler_.end(call.context), profiledCall.passes};
  timing_.stop(ShimTiming::ProfileEnd, ending);
  if (gating_.unheldLaunches() != profiledCall.unheldBefore)
    counters.metrics.reset(); // another launch may have been counted with this one
  if (counters.metrics && profiledCall.counters == CounterSet::Base && tensorMath(*counters.metrics))
    selector_.needsTensorOps(profiledCall.signature);
  diagnostics_.trace("profiled launch " + std::to_string(call.correlationId) + ": counters " +
                     (counters.metrics ? "collected" : "failed"));
  if (auto [seconds, kernel] = watch_.end(); seconds > slowProfilingSeconds) {
    selector_.stopProfiling();
    diagnostics_.warn("profiling-slow", "counters are off from here on: collecting them for one launch of " + kernel +
                                            " took " + std::to_string(static_cast<int>(seconds)) +
                                            " s (kernel replay saves and restores the program's device memory "
                                            "for every pass); durations continue");
  }
  return counters;
}

void CounterSessions::warnIfStuck() {
  if (std::optional<std::string> message = watch_.overdue(std::chrono::duration<double>(slowProfilingSeconds)))
    diagnostics_.warn("profiling-stuck", *message);
}

} // namespace roofcheck::runtime
