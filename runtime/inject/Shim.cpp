#include "Shim.h"

#include "../CubinExterns.h"
#include "../ForkedChild.h"
#include "../SignalFlush.h"

#include "roofcheck/Error.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace roofcheck::runtime {

namespace {

// Set while this thread sets up a new context, so that a context CUPTI or the driver creates meanwhile
// does not re-enter that set-up (a nested std::call_once would wait for itself).
thread_local bool settingUpContext = false;

// A signal that ends the program waits at most this long for the completed launches to be written.
constexpr std::chrono::seconds signalPatience{5};
// The exit waits at most this long for device 0's counter configurations, still being made (~0.2 s after
// cuInit on an H100).
constexpr std::chrono::milliseconds preparedPatience{1100};

void onExit() { Shim::instance().finish(); }
void onExitBeforeRuntime() { Shim::instance().stopSampling(); }

} // namespace

Shim &Shim::instance() {
  // Never destroyed: records may arrive from CUPTI's thread while static destructors run.
  static Shim *shim = new Shim();
  return *shim;
}

Shim::Shim()
    : kernels_(diagnostics_), callbacks_(diagnostics_, *this),
      activity_(diagnostics_,
                [this](std::vector<KernelRecord> &&records) { records_->queueBatch(std::move(records)); }) {}

int Shim::initialize() {
  std::call_once(initialized_, [this] {
    const char *timing = std::getenv("ROOFCHECK_SHIM_TIMING");
    timing_.enable(timing && *timing && std::string(timing) != "0");
    const char *trace = std::getenv("ROOFCHECK_SHIM_TRACE");
    diagnostics_.enableTrace(trace && *trace && std::string(trace) != "0");
    diagnostics_.trace("initialising");
    int64_t started = timing_.start();
    if (const char *text = std::getenv("ROOFCHECK_OPTIONS"); text && *text) {
      try {
        options_ = runOptionsFromJson(text);
      } catch (const Error &e) {
        diagnostics_.warn("options", std::string(e.what()) + ": running with the default options");
      }
    }
    countersWanted_ = options_.metricsMode != MetricsMode::Time;
    selector_ = std::make_unique<LaunchSelector>(options_, countersWanted_);
    kernels_.setNameFilter(
        [this](const std::string &name, const std::string &mangled) { return selector_->matches(name, mangled); });
    sessions_ = std::make_unique<CounterSessions>(diagnostics_, timing_, options_, *selector_, counters_, devices_,
                                                  gating_);
    file_ = std::make_unique<MeasuredFileWriter>(diagnostics_, timing_, devices_, options_);
    records_ = std::make_unique<LaunchRecords>(diagnostics_, timing_, options_, *selector_, kernels_, activity_,
                                               traffic_, *sessions_, *file_);
    if (countersWanted_)
      sessions_->prepare(); // while the program makes its first context
    records_->start();
    records_->setCallbacksOn(callbacks_.enable());
    // Every 10 ms CUPTI hands over its full buffers (partly filled ones: the handler thread's flush), so the
    // handler keeps up while the program runs and little is left for its exit to wait for.
    activity_.enable(10);
    // PM sampling and the range profiler cannot hold a device's counters at once (docs/runtime.md): sampled
    // traffic is for runs without profiled launches.
    sampledTraffic_ = options_.sampledTrafficIntervalNs > 0 && !countersWanted_;
    if (sampledTraffic_) {
      if (const char *log = std::getenv("ROOFCHECK_SHIM_SAMPLES"); log && *log)
        traffic_.logTo(log);
      traffic_.prepare(options_.sampledTrafficIntervalNs);
    }
    std::atexit(onExit);
    // A child the program forks writes nothing into this process's file; a signal that ends the program
    // (where it left the default) first writes the completed launches.
    try {
      watchForForks();
    } catch (const Error &e) {
      diagnostics_.warn("fork", e.what());
    }
    try {
      std::vector<int> caught =
          flushOnSignals([this](int) { finishAfterSignal(); }, signalPatience, flushedSignals());
      diagnostics_.trace("flushing on " + std::to_string(caught.size()) + " signals the program left at their default");
    } catch (const Error &e) {
      diagnostics_.warn("signals", e.what());
    }
    timing_.stop(ShimTiming::Initialize, started);
  });
  return 1;
}

void Shim::onContextCreated(CUcontext context) {
  if (settingUpContext)
    return; // a context made while this thread sets one up (by CUPTI or the driver): not the program's
  struct SettingUp {
    SettingUp() { settingUpContext = true; }
    ~SettingUp() { settingUpContext = false; }
  } settingUp;
  diagnostics_.trace("context created");
  devices_.startDescribing();
  std::optional<int> device = devices_.deviceOf(context);
  if (!device) {
    diagnostics_.trace("context set up: none of its own (the driver tells no device of it: a green context, "
                       "whose launches come under its parent context)");
    return;
  }
  if (countersWanted_) {
    int64_t started = timing_.start();
    sessions_->configure(context, *device);
    timing_.stop(ShimTiming::Configure, started);
  }
  traffic_.startDevice(*device, context); // where prepared
  // A program that makes a context and exits without a launch exits while the device's sampling may be
  // starting: 2 of 12 such runs ended in a segmentation fault on an H100. Registered now, so run after the
  // first launch's registration where there is one (that one stops sampling before the runtime's teardown;
  // this one then finds every device stopped) and otherwise waits for the start and stops it.
  if (sampledTraffic_)
    std::call_once(samplingStopAtContext_, [] { std::atexit(onExitBeforeRuntime); });
  diagnostics_.trace("context set up");
}

void Shim::onContextDestroying(CUcontext context) {
  diagnostics_.trace("context being destroyed");
  activity_.flushAll();
  sessions_->release(context);
  std::optional<int> device = devices_.deviceOf(context);
  if (device && devices_.forget(context, *device))
    traffic_.stopDevice(*device); // its samples are decoded while the device can still be asked
}

void Shim::onModuleLoaded(const uint8_t *cubin, size_t size) {
  std::vector<std::string> printing = kernelsCalling(cubin, size, "vprintf");
  if (printing.empty())
    return;
  diagnostics_.trace("module loaded: " + std::to_string(printing.size()) + " of its kernels print");
  kernels_.notePrinting(printing);
}

void Shim::onNvtxPush(const char *message) { nvtx_.push(message); }
void Shim::onNvtxPop() { nvtx_.pop(); }
void Shim::onNvtxStart(uint64_t id, const char *message) { nvtx_.start(id, message); }
void Shim::onNvtxEnd(uint64_t id) { nvtx_.end(id); }

void Shim::onLaunch(const LaunchCall &call) {
  if (!call.graph) {
    if (call.entering)
      enterLaunch(call);
    else
      exitLaunch(call);
    return;
  }
  if (!call.entering || finished_)
    return;
  records_->graphLaunched();
  std::vector<std::string> ranges = nvtx_.open();
  if (!ranges.empty())
    records_->addGraphRanges(call.correlationId, std::move(ranges));
}

void Shim::enterLaunch(const LaunchCall &call) {
  if (!gating_.enter() || finished_)
    return;
  // A launch into a capturing stream only adds a node to a graph; the graph's launches are recorded.
  CUstream stream = call.perThreadStream && !call.stream ? CU_STREAM_PER_THREAD : call.stream;
  CUstreamCaptureStatus capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (cuStreamIsCapturing(stream, &capture) == CUDA_SUCCESS && capture != CU_STREAM_CAPTURE_STATUS_NONE)
    return;
  int64_t started = timing_.start();
  int64_t index = records_->newLaunch();
  std::shared_ptr<KernelInfo> info = kernels_.lookup(call.function, call.symbolName);
  const std::string &signature = info->mangled.empty() ? info->name : info->mangled;
  LaunchDecision decision = selector_->decideWithMatch(info->selected, signature, call.grid, call.block, info->prints);
  if (diagnostics_.tracing())
    diagnostics_.trace("launch " + std::to_string(index) + " " + info->name + (decision.record ? " recorded" : "") +
                       (decision.profile ? " profiled" : ""));
  if (countersWanted_)
    gating_.hold(decision.profile);
  if (!decision.record) {
    timing_.stop(ShimTiming::LaunchSkipped, started);
    return;
  }
  PendingLaunch p;
  p.correlationId = call.correlationId;
  Launch &l = p.launch;
  l.index = index;
  l.device = devices_.deviceOfLaunch(call.context, call.contextUid);
  if (sampledTraffic_) {
    traffic_.awaitStart(l.device); // the first launches of a sampled device: no kernel runs before its sampling
    // Registered after the CUDA runtime's own exit handler (made when it started, before this launch), so
    // run before it: sampling is stopped and decoded while the runtime still holds its contexts.
    std::call_once(samplingStopRegistered_, [] { std::atexit(onExitBeforeRuntime); });
  }
  l.context = call.contextUid;
  l.grid = call.grid;
  l.block = call.block;
  l.cluster = call.cluster;
  l.sharedDynamic = call.sharedDynamic;
  p.argumentBytes = kernels_.capture(*info, call.kernelParams, call.extra);
  p.kernel = std::move(info);
  l.nvtx = nvtx_.open();
  if (decision.profile && gating_.heldAlone())
    p.awaitingMetrics =
        sessions_->begin(call, *p.kernel, {signature, call.grid, call.block}, index, decision.counters, l);
  records_->addLaunch(std::move(p));
  timing_.stop(ShimTiming::LaunchKept, started);
}

void Shim::exitLaunch(const LaunchCall &call) {
  if (!gating_.leave())
    return;
  int64_t started = timing_.start();
  // The gate is held until the counters are collected and handed over: no other launch runs meanwhile.
  struct ReleaseGate {
    LaunchGating &gating;
    ~ReleaseGate() { gating.release(); }
  } release{gating_};
  if (!sessions_->inSession(call.correlationId)) {
    timing_.stop(ShimTiming::LaunchExit, started);
    return;
  }
  records_->addCounters(sessions_->end(call));
  // Kernel replay leaves CUPTI's current activity buffer with a record that never completes, and CUPTI
  // then hands over no buffer until a forced flush: a SIGKILL would lose every launch since. Nothing runs
  // beside a profiled launch (the gate, and replay itself), so all earlier kernels have ended by now.
  // After the counters are handed over, so that the counters' duration is the one this launch keeps.
  int64_t flushing = timing_.start();
  activity_.flushAll();
  timing_.stop(ShimTiming::ProfileFlush, flushing);
  records_->wake(); // written at once: a crash right after loses no profiled launch
}

void Shim::writeOut(bool atExit) {
  if (inForkedChild())
    return;
  // The exit and a signal can both get here (a crash on one thread while another exits): the second waits
  // until the first has written everything, so a signal raised after it leaves a complete file.
  std::lock_guard<std::mutex> once(writeOutMutex_);
  if (finished_.exchange(true))
    return;
  if (atExit)
    counters_.awaitPrepared(preparedPatience);
  diagnostics_.trace(atExit ? "finish: flushing CUPTI's buffers" : "ended by a signal: flushing CUPTI's buffers");
  int64_t started = timing_.start();
  if (!atExit)
    records_->awaitKernelRecords();
  activity_.flushAll();
  timing_.stop(ShimTiming::FinishFlush, started);
  started = timing_.start();
  records_->drain();
  timing_.stop(ShimTiming::FinishDrain, started);
  started = timing_.start();
  // At exit every kernel has finished; after a signal, a launch without its record may never have run.
  RunCounts counts = records_->finish(atExit);
  file_->writeHeader();
  counts.activityRecordsDropped = activity_.droppedRecords();
  counts.warnings = diagnostics_.warnings();
  file_->close(atExit ? &counts : nullptr);
  timing_.stop(ShimTiming::FinishWrite, started);
  // A crash on another thread from here on (the program's exit tearing CUDA down under it) ends the
  // process at once, as without the shim, not after the exiting thread has finished.
  flushNoLongerNeeded();
  if (atExit && timing_.enabled())
    std::fprintf(stderr, "roofcheck: timing: %s\n", timing_.summary().c_str());
}

} // namespace roofcheck::runtime

extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  return roofcheck::runtime::Shim::instance().initialize();
}
